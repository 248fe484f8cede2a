//! `pbrain-bango book ...`: the opening book tools.
//!
//! - `book validate FILE`: prints each problem and a summary; exit 0 clean, 1 problems,
//!   2 unreadable or not a book.
//! - `book gen-classic [--size N] [--out FILE]`: the 26 classical openings, as opening lines on
//!   stdout or as a book file.
//! - `book build --out FILE --depth D --ply P --width W --time MS [--margin M] [--seeds FILE]
//!   [--rule R] [--size N] [--id ID]`: grows a book from seed lines (an opening-lines file
//!   `x,y x,y ...`, or a book file; default: the classical openings) by self-search
//!   ([`bango::knowledge::book::build`]).

use super::usage_error;
use bango::game::board::{MAX_SIZE, MIN_SIZE};
use bango::game::rules::Rule;
use bango::knowledge::book::build::{build, read_seeds, to_text, BuildParams};
use bango::knowledge::book::classic::{classic_book, classic_openings};
use bango::knowledge::book::validate::validate;
use bango::knowledge::book::BookFile;
use std::path::PathBuf;

/// The book tools.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Check a book file: prints each problem; exit 0 clean, 1 problems, 2 unreadable.
    Validate {
        /// The book file.
        file: PathBuf,
    },
    /// The 26 classical openings, as opening lines on stdout or as a book file.
    GenClassic {
        /// Board side.
        #[arg(long, default_value_t = 15, value_parser = board_size)]
        size: usize,
        /// Write a book file here instead of printing opening lines.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Grow a book from seed lines by fixed-depth self-search.
    Build(BuildArgs),
}

/// Options of `book build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
    /// Search depth of every position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// Moves to grow beyond each seed line.
    #[arg(long)]
    ply: usize,
    /// Candidates kept per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    width: u64,
    /// Per-search safety cap in ms.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    time: u64,
    /// Candidates within this score of the best are kept.
    #[arg(long, default_value_t = 300)]
    margin: i32,
    /// Seed lines: an opening-lines file or a book file (default: the classical openings).
    #[arg(long)]
    seeds: Option<PathBuf>,
    /// Rule.
    #[arg(long, default_value = "freestyle", value_parser = super::parse_rule)]
    rule: Rule,
    /// Board side.
    #[arg(long, default_value_t = 15, value_parser = board_size)]
    size: usize,
    /// The book's id.
    #[arg(long)]
    id: Option<String>,
}

fn board_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => Ok(n),
        _ => Err(format!("a board side from {MIN_SIZE} to {MAX_SIZE}")),
    }
}

/// Runs the book tool `cmd`; returns the exit code.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Validate { file } => validate_cmd(&file),
        Command::GenClassic { size, out } => gen_classic_cmd(size, out),
        Command::Build(a) => build_cmd(a),
    }
}

fn validate_cmd(path: &std::path::Path) -> u8 {
    let shown = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return usage_error(&shown.to_string(), e),
    };
    let file = match BookFile::parse(&text) {
        Ok(f) => f,
        Err(e) => return usage_error(&shown.to_string(), e),
    };
    let problems = validate(&file);
    for p in &problems {
        println!("{p}");
    }
    println!(
        "{shown}: {} openings, {} problems",
        file.openings.len(),
        problems.len()
    );
    u8::from(!problems.is_empty())
}

fn gen_classic_cmd(size: usize, out: Option<PathBuf>) -> u8 {
    let Some(path) = out else {
        let openings = classic_openings(size);
        for o in &openings {
            let line: Vec<String> = o.moves.iter().map(|p| p.to_string()).collect();
            println!("{}", line.join(" "));
        }
        eprintln!("{} classical openings", openings.len());
        return 0;
    };
    let file = classic_book(size);
    let text = serde_json::to_string_pretty(&file).expect("serialisable");
    match std::fs::write(&path, text + "\n") {
        Ok(()) => {
            eprintln!(
                "{} classical openings written to {}",
                file.openings.len(),
                path.display()
            );
            0
        }
        Err(e) => usage_error(&path.display().to_string(), e),
    }
}

fn build_cmd(a: BuildArgs) -> u8 {
    let p = BuildParams {
        depth: a.depth,
        ply: a.ply,
        width: a.width as usize,
        margin: a.margin,
        time_ms: a.time,
        rule: a.rule,
        size: a.size,
    };
    let seed_lines = match &a.seeds {
        Some(path) => {
            let read = std::fs::read_to_string(path).map_err(|e| e.to_string());
            match read.and_then(|text| read_seeds(&text, p.size)) {
                Ok(s) => s,
                Err(e) => return usage_error(&path.display().to_string(), e),
            }
        }
        None => classic_openings(p.size)
            .into_iter()
            .map(|o| o.moves.to_vec())
            .collect(),
    };
    let id =
        a.id.unwrap_or_else(|| format!("built-{}-{}x{}", p.rule, p.size, p.size));
    let started = std::time::Instant::now();
    let (file, stats) = build(&seed_lines, &p, &id);
    let text = to_text(&file);
    let out = a.out.display();
    if let Err(e) = std::fs::write(&a.out, &text) {
        return usage_error(&out.to_string(), e);
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
