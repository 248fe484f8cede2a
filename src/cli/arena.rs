//! `pbrain-bango arena ENGINE ENGINE...`: matches between brains, a thin layer over
//! [`bango::front::arena::Match`] (see the README's Arena section).

use super::usage_error;
use bango::front::arena::{
    parse_openings, EngineSpec, GameConfig, Match, OpeningFormat, Openings, Sprt,
};
use bango::game::board::{MAX_SIZE, MIN_SIZE};
use std::path::PathBuf;

/// Options of `arena`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "ENGINE is a command line run through `sh -c 'exec CMD'`, e.g.\n  \"env BANGO_ALGO=random ./target/release/pbrain-bango\"\nor settings ending in the command:\n  \"name=rnd,tc-turn=200,tc-match=0,threads=2,info=hash_size 65536,cmd=./pbrain-x --flag\"\n(`info=` repeats; everything after `cmd=` is the command, commas included)."
)]
pub struct Args {
    /// Games per pairing (each opening is played twice, colours swapped).
    #[arg(short = 'n', long, default_value_t = 2)]
    games: usize,
    /// Per-move budget in ms (0 = none).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    tc_turn: u64,
    /// Whole-game budget per engine in ms (0 = none).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    tc_match: u64,
    /// Slack in ms before a move is lost on time (the Gomocup judge allows about 1 s).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    tolerance: u64,
    /// Extra wait in ms after budget and tolerance for a late reply (slow vs silent).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    grace: u64,
    /// Openings file (absolute `x,y x,y` or Gomocup offsets `x,y, x,y`).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Openings file format: auto, absolute or offset.
    #[arg(long, value_name = "FMT", default_value = "auto")]
    opening_format: String,
    /// Play the file's openings in a seeded random order.
    #[arg(long)]
    shuffle: bool,
    /// Stones of a random opening (used when no file is given).
    #[arg(long, value_name = "N", default_value_t = 3)]
    opening_stones: usize,
    /// Random openings lie within this distance of the centre.
    #[arg(long, value_name = "N", default_value_t = 3)]
    opening_radius: usize,
    /// Games played at once.
    #[arg(short = 'c', long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Seed of the opening order and random openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Stop when this test decides: `elo0,elo1` or `elo0,elo1,alpha,beta` (two engines only).
    #[arg(long, value_name = "ELO0,ELO1[,A,B]")]
    sprt: Option<String>,
    /// Rule: freestyle, standard, renju, caro, or INFO rule bits.
    #[arg(long, value_name = "NAME|BITS", default_value = "freestyle")]
    rule: String,
    /// Board side.
    #[arg(long, value_name = "N", default_value_t = 15)]
    size: usize,
    /// Moves after the opening before a draw is declared (0 = none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_moves: usize,
    /// INFO max_memory in bytes (0 = no limit).
    #[arg(long, value_name = "BYTES", default_value_t = 350 * 1024 * 1024)]
    max_memory: u64,
    /// Folder for the game records (PSQ) and summary.json.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress line.
    #[arg(short, long)]
    quiet: bool,
    /// Play only shard K/N of the match (games K*T/N..(K+1)*T/N of the T scheduled) into the
    /// run folder --out, for `pbrain-bango merge` (see `farm`); `--shards N` takes K from
    /// SLURM_ARRAY_TASK_ID.
    #[arg(long, value_name = "K/N", conflicts_with = "shards", requires = "out")]
    shard: Option<String>,
    /// Shards of the run, this one's index from SLURM_ARRAY_TASK_ID (see --shard).
    #[arg(long, value_name = "N", requires = "out")]
    shards: Option<usize>,
    /// Engines (see below).
    #[arg(value_name = "ENGINE", num_args = 2.., required = true)]
    engines: Vec<String>,
}

/// The match `args` describe.
pub(super) fn build(args: Args) -> Result<Match, String> {
    let rule = super::parse_rule(&args.rule)?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&args.size) {
        return Err(format!("size {} unsupported", args.size));
    }
    let mut engines = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    // Names key the report; make repeated ones unique.
    for i in 0..engines.len() {
        let clash = engines[..i].iter().any(|e| e.name == engines[i].name);
        if clash {
            engines[i].name = format!("{}#{}", engines[i].name, i + 1);
        }
    }
    let openings = match &args.openings {
        Some(path) => {
            let fmt = OpeningFormat::from_name(&args.opening_format)
                .ok_or_else(|| format!("unknown opening format {:?}", args.opening_format))?;
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let set = parse_openings(&text, fmt, args.size, rule)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if set.openings.is_empty() {
                return Err(format!("{}: no opening fits this board", path.display()));
            }
            if set.skipped > 0 && !args.quiet {
                eprintln!(
                    "{}: {} openings ({:?}), {} skipped (do not fit {}x{} {rule})",
                    path.display(),
                    set.openings.len(),
                    set.format,
                    set.skipped,
                    args.size,
                    args.size
                );
            }
            Openings::List {
                openings: set.openings,
                shuffle: args.shuffle,
            }
        }
        None => Openings::Random {
            stones: args.opening_stones,
            radius: args.opening_radius,
        },
    };
    Ok(Match {
        engines,
        game: GameConfig {
            size: args.size,
            rule,
            tc_turn_ms: args.tc_turn,
            tc_match_ms: args.tc_match,
            tolerance_ms: args.tolerance,
            grace_ms: args.grace,
            max_memory: args.max_memory,
            max_moves: args.max_moves,
            ..GameConfig::default()
        },
        games: args.games,
        openings,
        seed: args.seed,
        concurrency: args.concurrency.max(1),
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        out: args.out,
        progress: !args.quiet,
    })
}

/// Plays the match `args` describe; returns the exit code (0 done, 1 failed, 2 bad usage).
pub fn run(mut args: Args) -> u8 {
    let shard = (args.shard.take(), args.shards.take());
    let m = match build(args) {
        Ok(m) => m,
        Err(e) => return usage_error("arena", e),
    };
    if shard != (None, None) {
        return super::farm::arena_shard(&m, shard);
    }
    match m.run() {
        Ok(report) => {
            print!("{}", report.text(&m));
            0
        }
        Err(e) => {
            eprintln!("arena: {e}");
            1
        }
    }
}

/// Options of `paired`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each --first run pairs with the --second run at the same place (say, one seed \
                  each), and their games pair by record file: play the two candidates against \
                  the same opponent with the same openings, seeds and games, e.g.\n  arena \
                  --games 48 --openings FILE --shuffle --seed 49 --out new-49 \"name=new,cmd=...\" \
                  \"name=rapfi,cmd=...\"\nand the same with the baseline into old-49."
)]
pub struct PairedArgs {
    /// A run folder (`arena --out`) of the first candidate (repeatable).
    #[arg(long, value_name = "DIR", required = true)]
    first: Vec<PathBuf>,
    /// A run folder of the second candidate, one for each `--first`, in the same order.
    #[arg(long, value_name = "DIR", required = true)]
    second: Vec<PathBuf>,
    /// The first candidate's engine name in its runs (default: each run's first engine).
    #[arg(long, value_name = "NAME")]
    first_name: Option<String>,
    /// The second candidate's engine name in its runs (default: each run's first engine).
    #[arg(long, value_name = "NAME")]
    second_name: Option<String>,
}

fn compare_runs(args: &PairedArgs) -> Result<String, String> {
    use bango::front::arena::paired::{Comparison, Run};
    if args.first.len() != args.second.len() {
        return Err(format!(
            "{} --first runs against {} --second runs: give one of each per seed",
            args.first.len(),
            args.second.len()
        ));
    }
    let read = |dir: &PathBuf, name: &Option<String>| {
        let path = dir.join("summary.json");
        std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| Run::from_summary(&t, name.as_deref()))
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    let mut c = Comparison::default();
    let mut names = (String::new(), String::new());
    for (a, b) in args.first.iter().zip(&args.second) {
        let (a, b) = (read(a, &args.first_name)?, read(b, &args.second_name)?);
        c.add(&a, &b)?;
        names = (a.candidate, b.candidate);
    }
    c.text(&names.0, &names.1)
        .ok_or_else(|| "fewer than two games in common: nothing to compare".into())
}

/// Compares two candidates' runs game by game; returns the exit code (0 done, 2 bad usage or
/// runs that do not pair).
pub fn paired(args: PairedArgs) -> u8 {
    match compare_runs(&args) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => usage_error("paired", e),
    }
}
