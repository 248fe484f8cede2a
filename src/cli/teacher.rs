//! `pbrain-bango teacher FILE`: bango's agreement with a labelled position file and the
//! correlation of its scores with the labels ([`bango::front::teacher`]), the yardstick every
//! evaluation or ordering change is read against. The brain's configuration is in force
//! (`--set` works), with the opening book off unless `--book`.

use super::data_dir;
use bango::engine::config::Config;
use bango::front::teacher::{self, Budget, Split};
use bango::game::board::Color;
use bango::knowledge::book::play::BookMode;
use bango::search::alphabeta::format_score;
use std::path::PathBuf;

/// Options of `teacher`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The labelled position file (format of `positions-teacher-15.txt`).
    file: PathBuf,
    /// Milliseconds a move (the turn limit the brain is given; the default, 300).
    #[arg(long, value_name = "MS", conflicts_with_all = ["depth", "nodes"])]
    time: Option<u64>,
    /// A fixed depth instead of a clock (reproducible).
    #[arg(long, value_name = "D", conflicts_with = "nodes")]
    depth: Option<u32>,
    /// A fixed node count instead of a clock (reproducible).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Every K-th selected position.
    #[arg(long, value_name = "K", default_value_t = 1)]
    stride: usize,
    /// At most N positions.
    #[arg(long, value_name = "N", default_value_t = usize::MAX)]
    limit: usize,
    /// Leave out positions labelled with a forced result.
    #[arg(long)]
    no_mates: bool,
    /// Which part: all, train or valid (grouped by opening, see `bango::front::teacher`).
    #[arg(long, value_enum, default_value = "all")]
    split: SplitArg,
    /// The opening file that defines the groups (default: the shared freestyle openings).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Use the opening book and prior as configured (default off: search and proofs only).
    #[arg(long)]
    book: bool,
    /// Also report Pearson's r with scores read at this scale.
    #[arg(long, value_name = "K")]
    scale: Option<f64>,
    /// Print one line per position.
    #[arg(long)]
    verbose: bool,
}

/// [`Split`] on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitArg {
    /// Every position.
    All,
    /// The training groups only.
    Train,
    /// The held-out validation groups only.
    Valid,
    /// The held-out test groups only: read only to report a finished change.
    Test,
}

impl From<SplitArg> for Split {
    fn from(s: SplitArg) -> Split {
        match s {
            SplitArg::All => Split::All,
            SplitArg::Train => Split::Train,
            SplitArg::Valid => Split::Valid,
            SplitArg::Test => Split::Test,
        }
    }
}

/// Runs the report `args` asks for; returns the exit code.
pub fn run(args: Args, config: &Config) -> u8 {
    let budget = match (args.time, args.depth, args.nodes) {
        (_, Some(d), _) => Budget::Depth(d),
        (_, _, Some(n)) => Budget::Nodes(n),
        (t, _, _) => Budget::Time(t.unwrap_or(300)),
    };
    let mut config = config.clone();
    config.brain.show_detail = 0;
    if !args.book {
        config.brain.book = BookMode::Off;
    }
    match report(&args, &config, budget) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("teacher: {e}");
            1
        }
    }
}

fn report(a: &Args, config: &Config, budget: Budget) -> Result<String, String> {
    let text =
        std::fs::read_to_string(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let all = teacher::parse_file(&text)?;
    let opening_path = a
        .openings
        .clone()
        .unwrap_or_else(|| data_dir().join("openings-freestyle-15.txt"));
    let size = all.first().map_or(15, |p| p.puzzle.size);
    let openings = teacher::read_openings(&opening_path, size)?;
    let groups: Vec<usize> = all
        .iter()
        .map(|p| teacher::group_of(&p.puzzle, &openings))
        .collect();
    let chosen = teacher::select(&all, &groups, a.split.into(), a.no_mates, a.stride, a.limit);
    let mut engine = teacher::engine(config);
    let started = std::time::Instant::now();
    let (mut agreed, verbose) = (0usize, a.verbose);
    let outcomes = teacher::run(&mut engine, config, &chosen, budget, &mut |i, p, o| {
        agreed += o.agrees as usize;
        if verbose {
            println!(
                "line {} {} label {} {:.3} bango {} {} {:?}",
                p.line,
                if p.puzzle.side == Color::Black {
                    "b"
                } else {
                    "w"
                },
                p.best,
                p.label.win_prob(),
                o.decision.pos,
                o.decision.score.map_or("-".into(), format_score),
                o.decision.source
            );
        }
        if (i + 1) % 200 == 0 {
            eprintln!(
                "teacher: {}/{} positions, agreement {:.1}%, {:.0} s",
                i + 1,
                chosen.len(),
                100.0 * agreed as f64 / (i + 1) as f64,
                started.elapsed().as_secs_f64()
            );
        }
    })?;
    let summary = teacher::Summary::of(&chosen, &outcomes, a.scale);
    Ok(format!(
        "{} ({:?}, split {:?}, stride {}, {} s)\n{}",
        a.file.display(),
        budget,
        a.split,
        a.stride,
        started.elapsed().as_secs(),
        summary.text()
    ))
}
