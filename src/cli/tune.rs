//! `pbrain-bango tune`: SPSA over declared `BANGO_TUNE_*` parameters by matches between two
//! copies of the brain, a thin layer over [`bango::front::tune`] (usage in its module docs).

use super::usage_error;
use bango::front::arena::{parse_openings, GameConfig, OpeningFormat, Openings};
use bango::front::tune::{parse_specs, tune, ArenaObjective, Spsa, SpsaOptions, Step};
use indicatif::ProgressBar;
use std::path::PathBuf;

/// Options of `tune`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "PARAMS holds one parameter a line, `#` comments:\n  BANGO_TUNE_ASPIRATION_DELTA start=400 c=40 min=50 max=2000\nThe step of iteration k is a/(A+k+1)^0.602 in units of each parameter's c, the\nperturbation c/(k+1)^0.101 (see `bango::front::tune`)."
)]
pub struct Args {
    /// The parameters file.
    #[arg(long, value_name = "FILE")]
    params: PathBuf,
    /// SPSA iterations (one match each).
    #[arg(long, value_name = "N")]
    iterations: usize,
    /// Games per iteration (each opening twice, colours swapped).
    #[arg(long, value_name = "G", default_value_t = 2)]
    games: usize,
    /// Per-move budget in ms (with --nodes: only a safety ceiling).
    #[arg(long, value_name = "MS")]
    tc_turn: Option<u64>,
    /// A fixed node count per move (`INFO max_node`, one thread): fast, reproducible games.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Games played at once.
    #[arg(short = 'c', long, value_name = "J", default_value_t = 1)]
    concurrency: usize,
    /// Openings file (format detected); random 3-stone openings when absent.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed of the perturbations and the openings.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Step gain a (dimensionless: units of each parameter's c per unit of score).
    #[arg(long = "a", value_name = "A", default_value_t = 4.0)]
    a: f64,
    /// Stability constant A of the step gain (default: a tenth of the iterations).
    #[arg(long = "big-a", value_name = "A")]
    big_a: Option<f64>,
    /// The values file, rewritten after every iteration.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The brain to tune (default: this executable).
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// Default per-move budget in ms: the clock with no node cap, the ceiling with one.
const TC_TURN_MS: u64 = 1000;
const NODES_CEILING_MS: u64 = 30_000;

/// The objective and the SPSA run `args` describe, with the values file's header.
fn build(args: &Args) -> Result<(ArenaObjective, Spsa, Vec<String>), String> {
    let read =
        |p: &PathBuf| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let specs =
        parse_specs(&read(&args.params)?).map_err(|e| format!("{}: {e}", args.params.display()))?;
    if args.iterations == 0 || args.games == 0 {
        return Err("--iterations and --games must be at least 1".into());
    }
    let bad_a = !args.a.is_finite() || args.a <= 0.0;
    if bad_a || args.big_a.is_some_and(|b| !b.is_finite() || b < 0.0) {
        return Err("--a must be positive and --big-a not negative".into());
    }
    let engine = match &args.engine {
        Some(p) => p.clone(),
        None => std::env::current_exe().map_err(|e| format!("this executable: {e}"))?,
    };
    let game = GameConfig {
        tc_turn_ms: args.tc_turn.unwrap_or(if args.nodes.is_some() {
            NODES_CEILING_MS
        } else {
            TC_TURN_MS
        }),
        ..GameConfig::default()
    };
    let openings = openings(args.openings.as_ref(), &game)?;
    let mut options = SpsaOptions::new(args.iterations, args.seed);
    options.a = args.a;
    options.big_a = args.big_a.unwrap_or(options.big_a);
    let header = vec![
        format!(
            "pbrain-bango tune: {}",
            std::env::args().skip(1).collect::<Vec<_>>().join(" ")
        ),
        format!(
            "engine {}, {} games an iteration, {}, seed {}, a {}, A {}",
            engine.display(),
            args.games,
            match args.nodes {
                Some(n) => format!("{n} nodes a move"),
                None => format!("{} ms a move", game.tc_turn_ms),
            },
            args.seed,
            options.a,
            options.big_a
        ),
    ];
    let objective = ArenaObjective {
        engine: engine.to_string_lossy().into_owned(),
        specs: specs.clone(),
        game,
        games: args.games,
        openings,
        seed: args.seed,
        concurrency: args.concurrency.max(1),
        nodes: args.nodes,
        calls: 0,
    };
    Ok((objective, Spsa::new(specs, options), header))
}

/// The openings: the file's (format detected, shuffled by the seed), else random 3-stone ones.
fn openings(path: Option<&PathBuf>, game: &GameConfig) -> Result<Openings, String> {
    let Some(p) = path else {
        return Ok(Openings::Random {
            stones: 3,
            radius: 3,
        });
    };
    let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let set = parse_openings(&text, OpeningFormat::Auto, game.size, game.rule)
        .map_err(|e| format!("{}: {e}", p.display()))?;
    if set.openings.is_empty() {
        return Err(format!("{}: no opening fits this board", p.display()));
    }
    Ok(Openings::List {
        openings: set.openings,
        shuffle: true,
    })
}

/// An iteration's line: θ after the update and the score that moved it.
fn step_line(spsa_names: &[String], step: &Step) -> String {
    let theta: Vec<String> = spsa_names
        .iter()
        .zip(&step.theta)
        .map(|(n, t)| format!("{}={t:.3}", n.trim_start_matches("BANGO_TUNE_")))
        .collect();
    format!(
        "iteration {}: score {:+.3}  {}",
        step.k + 1,
        step.score,
        theta.join(" ")
    )
}

/// Runs the tuner `args` describe; returns the exit code (0 done, 1 failed, 2 bad usage).
pub fn run(args: Args) -> u8 {
    let (mut objective, mut spsa, header) = match build(&args) {
        Ok(b) => b,
        Err(e) => return usage_error("tune", e),
    };
    let names: Vec<String> = spsa.specs().iter().map(|s| s.name.clone()).collect();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        super::progress_bar(args.iterations, "tune")
    };
    let result = tune(
        &mut spsa,
        &mut |plus, minus| objective.evaluate(plus, minus),
        &args.out,
        &header,
        &mut |step| {
            // suspend, not println: the line must reach stderr also when the bar is hidden.
            bar.suspend(|| eprintln!("{}", step_line(&names, step)));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    match result {
        Ok(_) => {
            eprintln!("tune: values in {}", args.out.display());
            0
        }
        Err(e) => {
            eprintln!("tune: {e}");
            1
        }
    }
}
