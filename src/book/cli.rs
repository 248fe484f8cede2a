//! `pbrain-bango book ...`: the book tools.
//!
//! - `book validate FILE`: prints each problem and a summary; exit 0 clean, 1 problems,
//!   2 unreadable or not a book.
//! - `book gen-classic [--size N] [--out FILE]`: the 26 classical openings, as opening lines on
//!   stdout or as a book file.

use super::classic::{classic_openings, Family};
use super::validate::validate;
use super::{BookFile, CoordinateSystem, OpeningLine, RuleNames};

/// Entry point; returns the process exit code.
pub fn cli(args: &[String]) -> u8 {
    match args.first().map(String::as_str) {
        Some("validate") => match args.get(1) {
            Some(path) => validate_cmd(path),
            None => usage(),
        },
        Some("gen-classic") => gen_classic_cmd(&args[1..]),
        _ => usage(),
    }
}

fn usage() -> u8 {
    eprintln!("usage: pbrain-bango book validate FILE\n       pbrain-bango book gen-classic [--size N] [--out FILE]");
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
