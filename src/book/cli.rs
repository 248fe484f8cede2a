//! `pbrain-bango book ...`: the book tools.
//!
//! - `book validate FILE`: prints each problem and a summary; exit 0 clean, 1 problems,
//!   2 unreadable or not a book.
//! - `book gen-classic [--size N] [--out FILE]`: the 26 classical openings, as opening lines on
//!   stdout or as a book file.
//! - `book build --out FILE --depth D --ply P --width W --time MS [--margin M] [--seeds FILE]
//!   [--rule R] [--size N] [--id ID]`: grows a book from seed lines (an opening-lines file
//!   `x,y x,y ...`, or a book file; default: the classical openings) by self-search
//!   (see [`super::build`]).

use super::build::{build, to_text, BuildParams};
use super::classic::{classic_openings, Family};
use super::validate::validate;
use super::{BookFile, CoordinateSystem, OpeningLine, RuleNames};
use crate::board::{Board, Pos};
use crate::notation::parse_opening;
use crate::rules::Rule;

/// Entry point; returns the process exit code.
pub fn cli(args: &[String]) -> u8 {
    match args.first().map(String::as_str) {
        Some("validate") => match args.get(1) {
            Some(path) => validate_cmd(path),
            None => usage(),
        },
        Some("gen-classic") => gen_classic_cmd(&args[1..]),
        Some("build") => build_cmd(&args[1..]),
        _ => usage(),
    }
}

fn usage() -> u8 {
    eprintln!(
        "usage: pbrain-bango book validate FILE\n       \
         pbrain-bango book gen-classic [--size N] [--out FILE]\n       \
         pbrain-bango book build --out FILE --depth D --ply P --width W --time MS \
         [--margin M] [--seeds FILE] [--rule R] [--size N] [--id ID]"
    );
    2
}

fn validate_cmd(path: &str) -> u8 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return 2;
        }
    };
    let file = match BookFile::parse(&text) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            return 2;
        }
    };
    let problems = validate(&file);
    for p in &problems {
        println!("{p}");
    }
    println!(
        "{path}: {} openings, {} problems",
        file.openings.len(),
        problems.len()
    );
    u8::from(!problems.is_empty())
}

fn gen_classic_cmd(args: &[String]) -> u8 {
    let mut size = 15;
    let mut out = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--size", Some(v)) => match v.parse() {
                Ok(n) if (5..=32).contains(&n) => size = n,
                _ => return usage(),
            },
            ("--out", Some(v)) => out = Some(v.clone()),
            _ => return usage(),
        }
    }
    let openings = classic_openings(size);
    match out {
        None => {
            for o in &openings {
                let line: Vec<String> = o.moves.iter().map(|p| p.to_string()).collect();
                println!("{}", line.join(" "));
            }
            eprintln!("{} classical openings", openings.len());
            0
        }
        Some(path) => {
            let mut file = BookFile {
                id: format!("classic-26-{size}x{size}"),
                rules: RuleNames::Many(vec!["freestyle".into(), "standard".into(), "renju".into()]),
                size,
                coordinate_system: CoordinateSystem::CenterRelativeXY,
                openings: Vec::new(),
            };
            let (mut d, mut i) = (0, 0);
            for o in &openings {
                let name = match o.family {
                    Family::Direct => {
                        d += 1;
                        format!("D{d}")
                    }
                    Family::Indirect => {
                        i += 1;
                        format!("I{i}")
                    }
                };
                let coordinates = o.moves.iter().map(|p| file.from_xy(p.x(), p.y())).collect();
                file.openings.push(OpeningLine {
                    name: Some(name),
                    coordinates,
                    weight: None,
                });
            }
            let text = serde_json::to_string_pretty(&file).expect("serialisable");
            match std::fs::write(&path, text + "\n") {
                Ok(()) => {
                    eprintln!("{} classical openings written to {path}", openings.len());
                    0
                }
                Err(e) => {
                    eprintln!("{path}: {e}");
                    2
                }
            }
        }
    }
}

/// Seed lines from `path`: a book file's lines, or one opening per line (`x,y x,y ...`).
fn read_seeds(path: &str, size: usize) -> Result<Vec<Vec<Pos>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    if let Ok(file) = BookFile::parse(&text) {
        if file.size != size {
            return Err(format!("{path}: a {0}x{0} book", file.size));
        }
        let mut out = Vec::new();
        for o in &file.openings {
            let mut line = Vec::new();
            for &c in &o.coordinates {
                let (x, y) = file.to_xy(c);
                match Board::new(size).pos(x, y) {
                    Some(p) => line.push(p),
                    None => break,
                }
            }
            out.push(line);
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        match parse_opening(l, size) {
            Ok(Some(m)) => out.push(m),
            Ok(None) => {}
            Err(e) => return Err(format!("{path}:{}: {e}", i + 1)),
        }
    }
    Ok(out)
}

fn build_cmd(args: &[String]) -> u8 {
    let mut p = BuildParams {
        depth: 0,
        ply: 0,
        width: 0,
        margin: 300,
        time_ms: 0,
        rule: Rule::Freestyle,
        size: 15,
    };
    let (mut out, mut seeds, mut id) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(v) = it.next() else { return usage() };
        let ok = match a.as_str() {
            "--out" => {
                out = Some(v.clone());
                true
            }
            "--seeds" => {
                seeds = Some(v.clone());
                true
            }
            "--id" => {
                id = Some(v.clone());
                true
            }
            "--depth" => v.parse().map(|n| p.depth = n).is_ok(),
            "--ply" => v.parse().map(|n| p.ply = n).is_ok(),
            "--width" => v.parse().map(|n| p.width = n).is_ok(),
            "--margin" => v.parse().map(|n| p.margin = n).is_ok(),
            "--time" => v.parse().map(|n| p.time_ms = n).is_ok(),
            "--size" => v.parse().map(|n| p.size = n).is_ok(),
            "--rule" => Rule::from_name(v).map(|r| p.rule = r).is_some(),
            _ => false,
        };
        if !ok {
            return usage();
        }
    }
    let Some(out) = out else { return usage() };
    if p.depth == 0 || p.width == 0 || p.time_ms == 0 || !(5..=32).contains(&p.size) {
        return usage();
    }
    let seed_lines = match &seeds {
        Some(path) => match read_seeds(path, p.size) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        },
        None => classic_openings(p.size)
            .into_iter()
            .map(|o| o.moves.to_vec())
            .collect(),
    };
    let id = id.unwrap_or_else(|| format!("built-{}-{}x{}", p.rule, p.size, p.size));
    let started = std::time::Instant::now();
    let (file, stats) = build(&seed_lines, &p, &id);
    let text = to_text(&file);
    if let Err(e) = std::fs::write(&out, &text) {
        eprintln!("{out}: {e}");
        return 2;
    }
    eprintln!(
        "{out}: {} lines, {} positions, {} bytes from {} seeds ({} skipped); {} searches, {} capped; {:.1} s",
        file.openings.len(),
        stats.positions,
        text.len(),
        seed_lines.len(),
        stats.seeds_skipped,
        stats.searches,
        stats.capped,
        started.elapsed().as_secs_f64()
    );
    0
}
