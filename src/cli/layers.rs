//! The layering test: the crate docs promise layers that only look down and modules that never
//! use each other; this reads every library source file and holds the code to that promise.
//!
//! - Every `crate::` and `super::` path (in `use` lines, grouped or not, and inline) is resolved
//!   to the deepest module it names. A module may reach its own layer and those below (the
//!   order of [`LAYERS`]), never one above.
//! - The graph of those edges between modules (one node per file, a parent and its children
//!   not counted as using each other: a parent declares and re-exports its children) has no
//!   circle.
//! - The README's architecture table is the crate docs' table, line for line.
//!
//! Comments are skipped (a doc link is a reference, not a use). The binary (`main.rs`, `cli/`)
//! is the top and is not checked. Test-only only because it reads the source tree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, bottom first: the first path segment below `crate` names one.
const LAYERS: [&str; 7] = [
    "game",
    "evaluation",
    "solver",
    "search",
    "knowledge",
    "engine",
    "front",
];

/// A module's path below the crate root (`["search", "tt", "slot"]`); empty for the root.
type ModPath = Vec<String>;

/// The module a source file defines, from its path below `src/`.
fn module_of(rel: &str) -> ModPath {
    let stem = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// `text` without its comments (line comments and block comments; strings are kept whole).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            out.push(c as char);
            if c == b'\\' && i + 1 < bytes.len() {
                out.push(bytes[i + 1] as char);
                i += 1;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
            out.push('"');
        } else if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if text[i..].starts_with("/*") {
            i += text[i..].find("*/").map_or(bytes.len() - i, |e| e + 2);
            continue;
        } else {
            out.push(c as char);
        }
        i += 1;
    }
    out
}

/// Expands one `use` tree (whitespace removed) into its paths: `a::{b,c::{d}}` gives `a::b`,
/// `a::c::d`.
fn expand_use(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.len() - 1];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand_use(p)
                .into_iter()
                .map(move |x| format!("{prefix}{x}"))
        })
        .collect()
}

/// Every `crate::`/`super::`/`self::` path in `code` (comments already stripped).
fn paths_in(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let stmt_end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') {
            let tree: String = rest[at + 4..stmt_end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            out.extend(expand_use(&tree));
        }
        rest = &rest[(at + 4).min(rest.len())..];
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let prev = at.checked_sub(1).map(|i| bytes[i]);
            if prev
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b':' || c == b'$')
            {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module `path` (as written in module `from`) names: the deepest known module on it.
fn resolve(path: &str, from: &ModPath, modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut segs = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut abs: ModPath = match segs.peek().copied() {
        Some("crate") => {
            segs.next();
            Vec::new()
        }
        Some("super") | Some("self") => from.clone(),
        _ => return None,
    };
    for s in segs {
        match s {
            "super" => {
                abs.pop();
            }
            "self" => {}
            _ => abs.push(s.to_string()),
        }
    }
    (0..=abs.len())
        .rev()
        .map(|n| abs[..n].to_vec())
        .find(|m| modules.contains(m))
}

/// The layer index of a module (`None` for the crate root).
fn layer(m: &ModPath) -> Option<usize> {
    LAYERS
        .iter()
        .position(|l| m.first().map(String::as_str) == Some(*l))
}

fn name(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// Checks `files` (paths below `src/` and their text): every breach of the layering rules,
/// one line each; empty when the tree keeps them.
pub fn breaches(files: &[(String, String)]) -> Vec<String> {
    let modules: BTreeSet<ModPath> = files.iter().map(|(p, _)| module_of(p)).collect();
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    let mut out = Vec::new();
    for (path, text) in files {
        let from = module_of(path);
        for p in paths_in(&strip_comments(text)) {
            let Some(to) = resolve(&p, &from, &modules) else {
                continue;
            };
            if let (Some(a), Some(b)) = (layer(&from), layer(&to)) {
                if b > a {
                    out.push(format!(
                        "{path}: `{p}` reaches up from layer {} to layer {}",
                        LAYERS[a], LAYERS[b]
                    ));
                }
            }
            let related = to.starts_with(&from) || from.starts_with(&to);
            if !related {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    if let Some(circle) = find_circle(&edges) {
        let names: Vec<String> = circle.iter().map(name).collect();
        out.push(format!("modules use each other: {}", names.join(" -> ")));
    }
    out
}

/// One circle of `edges`, as the modules on it with the first repeated at the end.
fn find_circle(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Option<Vec<ModPath>> {
    // Depth-first search with the path on a stack; a node met again on the path closes a circle.
    fn visit(
        m: &ModPath,
        edges: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        done: &mut BTreeSet<ModPath>,
        path: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut circle = path[i..].to_vec();
            circle.push(m.clone());
            return Some(circle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.clone());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, edges, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.clone());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|m| visit(m, edges, &mut done, &mut Vec::new()))
}

/// The library's source files below `src` (the binary's `main.rs` and `cli/` left out).
fn library_files(src: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, src: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                if rel != "cli" {
                    walk(&path, src, out);
                }
            } else if rel.ends_with(".rs") && rel != "main.rs" {
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(src, src, &mut out);
    out.sort();
    out
}

/// The architecture table's lines: in the crate docs (`//! |` lines) or the README (`|` lines
/// after its `## Architecture` heading).
fn table_lines(text: &str, doc_comment: bool) -> Vec<String> {
    if doc_comment {
        return text
            .lines()
            .filter_map(|l| l.strip_prefix("//! |"))
            .map(|l| format!("|{l}"))
            .collect();
    }
    text.lines()
        .skip_while(|l| l.trim() != "## Architecture")
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn the_library_only_looks_down_and_has_no_circles() {
        let files = library_files(&root().join("src"));
        assert!(files.len() > 50, "only {} files read", files.len());
        let found = breaches(&files);
        assert!(found.is_empty(), "layering breached:\n{}", found.join("\n"));
    }

    #[test]
    fn a_planted_upward_path_or_circle_is_caught() {
        let file = |p: &str, t: &str| (p.to_string(), t.to_string());
        let clean = vec![
            file("lib.rs", "pub mod game;\npub mod search;"),
            file("game/mod.rs", "pub mod board;"),
            file("game/board.rs", "pub struct Board;"),
            file("search/mod.rs", "pub mod tt;\npub mod smp;"),
            file("search/tt.rs", "use crate::game::board::Board;"),
            file(
                "search/smp.rs",
                "use super::tt;\n// crate::front::x in a comment\n",
            ),
        ];
        assert_eq!(breaches(&clean), Vec::<String>::new());
        // Upward, inline inside a function body.
        let mut up = clean.clone();
        up[2].1 = "pub struct Board;\nfn f() { let _ = crate::search::smp::X; }".into();
        let found = breaches(&up);
        assert!(
            found.iter().any(|l| l.contains("game/board.rs")
                && l.contains("crate::search::smp::X")
                && l.contains("up from layer game to layer search")),
            "{found:?}"
        );
        // Upward through a grouped `use`.
        let mut grouped = clean.clone();
        grouped[2].1 = "use crate::{game::board, search::{tt::T}};".into();
        assert!(breaches(&grouped)
            .iter()
            .any(|l| l.contains("crate::search::tt::T")));
        // Two modules of one layer using each other, one through `super::`.
        let mut circle = clean.clone();
        circle[4].1 = "use super::smp::Y;".into();
        circle[5].1 = "use crate::search::tt::X;".into();
        let found = breaches(&circle);
        assert!(
            found.iter().any(|l| l.contains("modules use each other")
                && l.contains("search::tt")
                && l.contains("search::smp")),
            "{found:?}"
        );
    }

    #[test]
    fn paths_are_read_from_every_form_of_use() {
        let code = "use crate::a::{b, c::{d, e}};\nfn f() { super::g::h(); x::crate::no(); }";
        let paths = paths_in(code);
        for p in [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "super::g::h",
        ] {
            assert!(paths.contains(&p.to_string()), "{p} missing from {paths:?}");
        }
        assert!(!paths.iter().any(|p| p.contains("no")), "{paths:?}");
        assert_eq!(
            strip_comments("a // crate::x\nb /* crate::y */ \"//s\""),
            "a \nb  \"//s\""
        );
    }

    #[test]
    fn the_readme_table_is_the_crate_docs_table() {
        let docs = table_lines(
            &std::fs::read_to_string(root().join("src/lib.rs")).unwrap(),
            true,
        );
        let readme = table_lines(
            &std::fs::read_to_string(root().join("README.md")).unwrap(),
            false,
        );
        assert_eq!(docs.len(), LAYERS.len() + 2, "{docs:#?}");
        for (i, l) in LAYERS.iter().enumerate() {
            assert!(docs[i + 2].contains(&format!("[`{l}`]")), "{}", docs[i + 2]);
        }
        assert_eq!(
            readme, docs,
            "README's ## Architecture table differs from src/lib.rs's"
        );
    }
}
