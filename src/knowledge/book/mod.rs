//! Opening books: JSON files of opening lines, compiled into position → candidate moves.
//!
//! # File format (the reference Go engine's)
//! ```json
//! { "id": "classic-26-15x15", "rules": "renju", "size": 15,
//!   "coordinateSystem": "center-relative-x-y",
//!   "openings": [ { "name": "D1", "coordinates": [[0,0],[0,-1],[0,-2]], "weight": 1 } ] }
//! ```
//! - `rules`: one name or a list (`freestyle`, `standard`, `renju`, `caro`).
//! - `coordinateSystem`: `board-row-column` (`[row, column]`, 0-based) or `center-relative-x-y`
//!   (`[dx, dy]` from the centre `size / 2`, y growing downwards as in the protocol).
//! - Each opening is a move sequence, black first, colours alternating; `weight` defaults to 1.
//!
//! # Invariants
//! - Every prefix of every line becomes one entry: the position of the first `i` stones maps to
//!   the `i`-th move, weights of the same move summed.
//! - Positions are keyed canonically over the eight symmetries with colours relative to black
//!   ([`symmetry`]); candidates are stored in the canonical frame and mapped back on lookup, so
//!   all eight transforms of a position hit and answer the transformed move.
//! - A lookup never returns an occupied point or a renju forbidden point for black.

pub mod build;
pub mod classic;
pub mod play;
pub mod soosorv;
pub mod swap2;
pub mod symmetry;
pub mod validate;

use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{is_forbidden, Rule};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use symmetry::{canonical, canonical_all, stones_of, Key};

/// How the `coordinates` of a book file are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoordinateSystem {
    /// `[row, column]`, 0-based.
    #[serde(rename = "board-row-column")]
    BoardRowColumn,
    /// `[dx, dy]` from the centre.
    #[serde(rename = "center-relative-x-y")]
    CenterRelativeXY,
}

/// `rules`: one name or several.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RuleNames {
    /// A single rule name.
    One(String),
    /// Several rule names.
    Many(Vec<String>),
}

impl RuleNames {
    fn names(&self) -> Vec<&str> {
        match self {
            RuleNames::One(s) => vec![s.as_str()],
            RuleNames::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// One opening line of a book file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningLine {
    /// Optional name (e.g. the classical opening's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The moves, in the file's coordinate system.
    pub coordinates: Vec<[i32; 2]>,
    /// How much this line counts (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
}

/// A book file as written on disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookFile {
    /// Identifier.
    pub id: String,
    /// The rules the book is for.
    pub rules: RuleNames,
    /// Board side.
    pub size: usize,
    /// How coordinates are written.
    #[serde(rename = "coordinateSystem")]
    pub coordinate_system: CoordinateSystem,
    /// The opening lines.
    pub openings: Vec<OpeningLine>,
}

impl BookFile {
    /// Parses a book file's text.
    pub fn parse(text: &str) -> Result<BookFile, String> {
        let f: BookFile = serde_json::from_str(text).map_err(|e| format!("bad book JSON: {e}"))?;
        if !(crate::game::board::MIN_SIZE..=crate::game::board::MAX_SIZE).contains(&f.size) {
            return Err(format!("book size {} unsupported", f.size));
        }
        Ok(f)
    }

    /// The rules the book names (unknown names are ignored; `validate` reports them).
    pub fn rule_set(&self) -> Vec<Rule> {
        self.rules
            .names()
            .iter()
            .filter_map(|n| Rule::from_name(n))
            .collect()
    }

    /// Converts one coordinate pair to (x, y), which may lie off the board (callers check).
    pub fn to_xy(&self, c: [i32; 2]) -> (i64, i64) {
        match self.coordinate_system {
            CoordinateSystem::BoardRowColumn => (c[1] as i64, c[0] as i64),
            CoordinateSystem::CenterRelativeXY => {
                let centre = (self.size / 2) as i64;
                (centre + c[0] as i64, centre + c[1] as i64)
            }
        }
    }

    /// Converts (x, y) to this file's coordinate system.
    pub fn from_xy(&self, x: usize, y: usize) -> [i32; 2] {
        match self.coordinate_system {
            CoordinateSystem::BoardRowColumn => [y as i32, x as i32],
            CoordinateSystem::CenterRelativeXY => {
                let centre = (self.size / 2) as i32;
                [x as i32 - centre, y as i32 - centre]
            }
        }
    }
}

/// A candidate move from the book, in the board's own frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    /// The move.
    pub pos: Pos,
    /// Its summed weight.
    pub weight: f64,
}

/// A compiled book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// Identifiers of the files compiled in.
    pub ids: Vec<String>,
    size: usize,
    rules: Vec<Rule>,
    entries: HashMap<Key, Vec<(Pos, f64)>>,
}

impl Book {
    /// Compiles a parsed file. Lines are cut at their first unplayable move (off the board,
    /// occupied, forbidden, or after a win): `validate` reports those, play must not crash on them.
    pub fn compile(file: &BookFile) -> Book {
        let mut book = Book {
            ids: vec![file.id.clone()],
            size: file.size,
            rules: file.rule_set(),
            entries: HashMap::new(),
        };
        // Lines are replayed under the most permissive of the book's rules; lookups filter
        // forbidden points per game rule.
        let check_rule = if book.rules.contains(&Rule::Freestyle) || book.rules.is_empty() {
            Rule::Freestyle
        } else {
            book.rules[0]
        };
        for line in &file.openings {
            let weight = line.weight.unwrap_or(1.0);
            let mut board = Board::new(file.size);
            for &c in &line.coordinates {
                let (x, y) = file.to_xy(c);
                let Some(p) = board.pos(x, y) else { break };
                let mover = board.side_to_move();
                if board.at(p).is_some()
                    || (mover == Color::Black && is_forbidden(&mut board, p, check_rule))
                {
                    break;
                }
                book.add(&board, p, weight);
                board.play(p).expect("checked empty");
                if crate::game::rules::is_win_at(&board, p, mover, check_rule) {
                    break;
                }
            }
        }
        book
    }

    fn add(&mut self, board: &Board, p: Pos, weight: f64) {
        // In a symmetric position, moves equivalent under its symmetries are one candidate:
        // store the smallest image.
        let (key, syms) = canonical_all(&stones_of(board), board.size());
        let q = syms
            .iter()
            .map(|s| s.apply(p, board.size()))
            .min()
            .expect("at least one symmetry");
        let list = self.entries.entry(key).or_default();
        match list.iter_mut().find(|(m, _)| *m == q) {
            Some(e) => e.1 += weight,
            None => list.push((q, weight)),
        }
    }

    /// Merges another compiled book of the same size and rules into this one.
    pub fn merge(&mut self, other: Book) {
        self.ids.extend(other.ids);
        for (k, moves) in other.entries {
            let list = self.entries.entry(k).or_default();
            for (m, w) in moves {
                match list.iter_mut().find(|(q, _)| *q == m) {
                    Some(e) => e.1 += w,
                    None => list.push((m, w)),
                }
            }
        }
    }

    /// Number of positions with at least one candidate.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the book may be used for a game of `rule` on a board of side `size`.
    pub fn applies_to(&self, rule: Rule, size: usize) -> bool {
        self.size == size && self.rules.contains(&rule)
    }

    /// The book's candidates for the side to move, best first, mapped into the board's frame;
    /// occupied and (under renju, for black) forbidden points are left out. Empty when the book
    /// does not apply to `rule` and the board's size.
    pub fn moves(&self, board: &mut Board, rule: Rule) -> Vec<BookMove> {
        if !self.applies_to(rule, board.size()) {
            return Vec::new();
        }
        let (key, sym) = canonical(&stones_of(board), board.size());
        let Some(list) = self.entries.get(&key) else {
            return Vec::new();
        };
        let back = sym.inverse();
        let black_to_move = board.side_to_move() == Color::Black;
        let mut out: Vec<BookMove> = list
            .iter()
            .map(|&(q, weight)| BookMove {
                pos: back.apply(q, board.size()),
                weight,
            })
            .filter(|m| board.is_empty_at(m.pos))
            .collect();
        if black_to_move {
            out.retain(|m| !is_forbidden(board, m.pos, rule));
        }
        // Highest weight first; ties by point so the order is deterministic.
        out.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.pos.cmp(&b.pos)));
        out
    }
}

/// The most text all the book files of one game may hold together, in bytes: the shipped books
/// hold under 60 KiB, and the memory budget (`crate::engine::resources::BOOK_BYTES`, 4 MiB) covers what
/// this much text compiles to (measured: 96 KiB of distinct 12-move lines raised the brain's
/// peak by 3.1 MB, about 100 bytes a position). A file that would pass it is skipped and
/// reported.
pub const MAX_TEXT_BYTES: u64 = 96 << 10;

/// Reads and compiles one book file (at most [`MAX_TEXT_BYTES`]).
pub fn load_file(path: &Path) -> Result<Book, String> {
    Ok(Book::compile(&read_file(path, MAX_TEXT_BYTES)?.0))
}

/// Reads and parses one book file of at most `limit` bytes; returns it with its length.
fn read_file(path: &Path, limit: u64) -> Result<(BookFile, u64), String> {
    use std::io::Read;
    let at = |e: String| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| at(e.to_string()))?;
    // Read one byte past the limit, so a file that grew after a size check is still caught.
    let mut text = String::new();
    file.take(limit.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|e| at(e.to_string()))?;
    let len = text.len() as u64;
    if len > limit {
        return Err(at(format!(
            "more than the {limit} bytes of book text still allowed (all books together may hold \
             {MAX_TEXT_BYTES})"
        )));
    }
    let book = BookFile::parse(&text).map_err(at)?;
    Ok((book, len))
}

/// Where books are looked for, in order: `INFO folder`'s own subfolder (`<folder>/pbrain-bango`),
/// then the executable's directory (`book.json` there), then an `openbook/` directory found by
/// walking up from the executable (so both an installed brain and `target/release/` find the
/// repository's books). Never the working directory alone: managers start brains from anywhere.
/// When none holds a book file, [`load_for`] falls back on the [`EMBEDDED`] books.
pub fn search_locations(folder: Option<&Path>, exe: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(f) = folder {
        out.push(f.join("pbrain-bango"));
    }
    if let Some(dir) = exe.and_then(Path::parent) {
        out.push(dir.join("book.json"));
        let mut d = Some(dir);
        for _ in 0..4 {
            let Some(cur) = d else { break };
            out.push(cur.join("openbook"));
            d = cur.parent();
        }
    }
    out
}

/// The shipped books (`openbook/*.json` at build time, in name order), compiled into the binary:
/// a brain copied alone into a tournament folder still plays with them. A book file found at
/// any of the [`search_locations`] overrides them all.
pub const EMBEDDED: [(&str, &str); 4] = [
    (
        "balanced-freestyle-15.json",
        include_str!("../../../openbook/balanced-freestyle-15.json"),
    ),
    (
        "classic-freestyle-15.json",
        include_str!("../../../openbook/classic-freestyle-15.json"),
    ),
    (
        "classic-renju-15.json",
        include_str!("../../../openbook/classic-renju-15.json"),
    ),
    (
        "classic-standard-15.json",
        include_str!("../../../openbook/classic-standard-15.json"),
    ),
];

/// The result of loading books for a game.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The merged books that apply to the game (empty when none do).
    pub book: Book,
    /// The files compiled in (for the embedded books, their names).
    pub files: Vec<PathBuf>,
    /// Whether the books are the [`EMBEDDED`] ones (no book file was found on disk).
    pub embedded: bool,
    /// Problems met (missing, corrupt, skipped books), one line each, for a `MESSAGE`.
    pub problems: Vec<String>,
}

/// Loads the books for `rule` and `size` from the first location of `locations` that holds any
/// book file (a directory's `*.json`, or a single file). A corrupt file, or one that would take
/// the text read past [`MAX_TEXT_BYTES`], is skipped and reported; books for another rule or
/// size are skipped silently (their text still counts: it was read).
pub fn load_for(locations: &[PathBuf], rule: Rule, size: usize) -> Loaded {
    let mut loaded = Loaded {
        book: Book {
            size,
            rules: vec![rule],
            ..Book::default()
        },
        ..Loaded::default()
    };
    for loc in locations {
        let files: Vec<PathBuf> = if loc.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(loc)
                .map(|rd| {
                    rd.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|x| x == "json"))
                        .collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        } else if loc.is_file() {
            vec![loc.clone()]
        } else {
            continue;
        };
        if files.is_empty() {
            continue;
        }
        let mut text_left = MAX_TEXT_BYTES;
        for f in files {
            // Only books for this game are compiled.
            let read = read_file(&f, text_left).map(|(b, len)| {
                text_left -= len;
                b
            });
            match read {
                Ok(b) if b.size == size && b.rule_set().contains(&rule) => {
                    loaded.book.merge(Book::compile(&b));
                    loaded.files.push(f);
                }
                Ok(_) => {}
                Err(e) => loaded.problems.push(format!("book skipped: {e}")),
            }
        }
        return loaded.noting_none(rule, size);
    }
    loaded.embedded = true;
    for (name, text) in EMBEDDED {
        let b = BookFile::parse(text).expect("the embedded books parse (checked by a test)");
        if b.size == size && b.rule_set().contains(&rule) {
            loaded.book.merge(Book::compile(&b));
            loaded.files.push(PathBuf::from(name));
        }
    }
    loaded.noting_none(rule, size)
}

impl Loaded {
    /// Adds the note that no book applies to this game, when none does and nothing else was
    /// reported.
    fn noting_none(mut self, rule: Rule, size: usize) -> Loaded {
        if self.files.is_empty() && self.problems.is_empty() {
            self.problems.push(format!(
                "no opening book for {rule} {size}x{size}; searching only"
            ));
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::symmetry::Symmetry;
    use super::*;

    fn sample(system: &str, coords: &str) -> BookFile {
        BookFile::parse(&format!(
            r#"{{"id":"t","rules":["freestyle","renju"],"size":15,"coordinateSystem":"{system}",
               "openings":[{{"coordinates":{coords}}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn all_eight_transforms_hit_and_map_back() {
        // 7,7 black; 8,6 white; book answer 9,5.
        let book = Book::compile(&sample("center-relative-x-y", "[[0,0],[1,-1],[2,-2]]"));
        for s in Symmetry::ALL {
            let mut b = Board::new(15);
            b.play(s.apply(Pos::new(7, 7), 15)).unwrap();
            b.play(s.apply(Pos::new(8, 6), 15)).unwrap();
            let moves = book.moves(&mut b, Rule::Freestyle);
            assert_eq!(moves.len(), 1, "{s:?}");
            assert_eq!(moves[0].pos, s.apply(Pos::new(9, 5), 15), "{s:?}");
        }
    }

    #[test]
    fn coordinate_systems_agree() {
        let a = Book::compile(&sample("center-relative-x-y", "[[0,0],[1,-1],[2,-2]]"));
        let b = Book::compile(&sample("board-row-column", "[[7,7],[6,8],[5,9]]"));
        let mut board = Board::new(15);
        board.play(Pos::new(7, 7)).unwrap();
        board.play(Pos::new(8, 6)).unwrap();
        assert_eq!(
            a.moves(&mut board.clone(), Rule::Freestyle),
            b.moves(&mut board, Rule::Freestyle)
        );
    }

    #[test]
    fn colour_matters_and_board_order_does_not() {
        let book = Book::compile(&sample(
            "center-relative-x-y",
            "[[0,0],[1,-1],[2,-2],[0,1]]",
        ));
        // Same stones placed in another order (as BOARD would give them): still a hit.
        let mut b = Board::new(15);
        b.put(Pos::new(9, 5), Color::Black).unwrap();
        b.put(Pos::new(8, 6), Color::White).unwrap();
        b.put(Pos::new(7, 7), Color::Black).unwrap();
        b.set_side_to_move(Color::White);
        let m = book.moves(&mut b, Rule::Freestyle);
        assert_eq!(m.first().map(|m| m.pos), Some(Pos::new(7, 8)));
        // Colours swapped: not the same position.
        let mut w = Board::new(15);
        w.put(Pos::new(9, 5), Color::White).unwrap();
        w.put(Pos::new(8, 6), Color::Black).unwrap();
        w.put(Pos::new(7, 7), Color::White).unwrap();
        assert!(book.moves(&mut w, Rule::Freestyle).is_empty());
    }

    #[test]
    fn rule_and_size_guards() {
        let book = Book::compile(&sample("center-relative-x-y", "[[0,0],[1,-1]]"));
        let mut b = Board::new(15);
        b.play(Pos::new(7, 7)).unwrap();
        assert_eq!(book.moves(&mut b, Rule::Renju).len(), 1);
        assert!(book.moves(&mut b, Rule::Standard).is_empty());
        let mut b20 = Board::new(20);
        b20.play(Pos::new(10, 10)).unwrap();
        assert!(book.moves(&mut b20, Rule::Freestyle).is_empty());
    }

    #[test]
    fn weights_sum_and_order() {
        let f = BookFile::parse(
            r#"{"id":"w","rules":"freestyle","size":15,"coordinateSystem":"center-relative-x-y",
               "openings":[{"coordinates":[[0,0],[1,0]]},{"coordinates":[[0,0],[1,1]],"weight":3},
                           {"coordinates":[[0,0],[0,1]]}]}"#,
        )
        .unwrap();
        let book = Book::compile(&f);
        let mut b = Board::new(15);
        b.play(Pos::new(7, 7)).unwrap();
        let m = book.moves(&mut b, Rule::Freestyle);
        // [1,0] and [0,1] are the same move up to symmetry: weight 2; the diagonal has 3.
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].weight, 3.0);
        assert_eq!(m[1].weight, 2.0);
        assert_eq!(m[0].pos.chebyshev(Pos::new(7, 7)), 1);
    }

    #[test]
    fn forbidden_book_moves_are_filtered_for_black() {
        // Black's book move completes a double three under renju.
        let f = BookFile::parse(
            r#"{"id":"f","rules":["freestyle","renju"],"size":15,"coordinateSystem":"board-row-column",
               "openings":[{"coordinates":[[7,7],[0,0],[7,8],[0,2],[8,9],[0,4],[9,9],[0,6],[7,9]]}]}"#,
        )
        .unwrap();
        let book = Book::compile(&f);
        let mut b = Board::new(15);
        for c in &f.openings[0].coordinates[..8] {
            let (x, y) = f.to_xy(*c);
            b.play(b.pos(x, y).unwrap()).unwrap();
        }
        assert!(is_forbidden(&mut b, Pos::new(9, 7), Rule::Renju));
        let free = book.moves(&mut b, Rule::Freestyle);
        assert_eq!(
            free.iter().map(|m| m.pos).collect::<Vec<_>>(),
            vec![Pos::new(9, 7)]
        );
        assert!(book.moves(&mut b, Rule::Renju).is_empty());
    }

    #[test]
    fn loading_order_corrupt_and_missing() {
        let dir = std::env::temp_dir().join(format!("bango-book-{}", std::process::id()));
        let folder = dir.join("folder");
        let exe_dir = dir.join("bin");
        std::fs::create_dir_all(folder.join("pbrain-bango")).unwrap();
        std::fs::create_dir_all(exe_dir.join("openbook")).unwrap();
        let good = |id: &str| {
            format!(
                r#"{{"id":"{id}","rules":"freestyle","size":15,"coordinateSystem":"center-relative-x-y",
                   "openings":[{{"coordinates":[[0,0],[1,0]]}}]}}"#
            )
        };
        std::fs::write(exe_dir.join("openbook/a.json"), good("exe-openbook")).unwrap();
        std::fs::write(folder.join("pbrain-bango/b.json"), good("folder")).unwrap();
        let exe = exe_dir.join("pbrain-bango");
        let locs = search_locations(Some(&folder), Some(&exe));
        let l = load_for(&locs, Rule::Freestyle, 15);
        assert_eq!(l.book.ids, vec!["folder".to_string()]);
        // Without the folder, the executable's openbook/ is used.
        let l = load_for(&search_locations(None, Some(&exe)), Rule::Freestyle, 15);
        assert_eq!(l.book.ids, vec!["exe-openbook".to_string()]);
        // A corrupt file is reported and skipped; nothing panics.
        std::fs::write(folder.join("pbrain-bango/b.json"), "{ not json").unwrap();
        let l = load_for(&locs, Rule::Freestyle, 15);
        assert!(l.book.is_empty());
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        // No book file anywhere: the embedded books, and nothing to report.
        let l = load_for(&[dir.join("nowhere")], Rule::Freestyle, 15);
        assert!(l.embedded && !l.book.is_empty() && l.problems.is_empty());
        // No book for this game anywhere, embedded ones included: one clear problem line.
        let l = load_for(&[dir.join("nowhere")], Rule::Caro, 15);
        assert!(
            l.book.is_empty() && l.problems.len() == 1,
            "{:?}",
            l.problems
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Book text is read up to [`MAX_TEXT_BYTES`] in all: a file that would pass it is skipped
    /// and reported, the files read before it still count, and a file of exactly the rest fits.
    #[test]
    fn book_text_is_capped() {
        let dir = std::env::temp_dir().join(format!("bango-book-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A valid book padded with spaces to `len` bytes.
        let book = |id: &str, len: u64| {
            let mut text = format!(
                r#"{{"id":"{id}","rules":"freestyle","size":15,"coordinateSystem":"center-relative-x-y",
                   "openings":[{{"coordinates":[[0,0],[1,0]]}}]}}"#
            );
            text.push_str(&" ".repeat(len as usize - text.len()));
            text
        };
        std::fs::write(dir.join("a.json"), book("a", MAX_TEXT_BYTES / 2)).unwrap();
        std::fs::write(dir.join("b.json"), book("b", MAX_TEXT_BYTES / 2)).unwrap();
        std::fs::write(dir.join("c.json"), book("c", 1000)).unwrap();
        let l = load_for(std::slice::from_ref(&dir), Rule::Freestyle, 15);
        assert_eq!(l.book.ids, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        assert!(l.problems[0].contains("c.json"), "{:?}", l.problems);
        // One file alone larger than the cap is refused outright.
        std::fs::write(dir.join("a.json"), book("a", MAX_TEXT_BYTES + 1)).unwrap();
        assert!(load_file(&dir.join("a.json")).is_err());
        let l = load_for(std::slice::from_ref(&dir), Rule::Freestyle, 15);
        assert_eq!(l.book.ids, vec!["b".to_string(), "c".to_string()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
