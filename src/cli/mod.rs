//! The command-line layer: the only code that reads the process (its arguments and its
//! environment). It parses the command line with clap, builds the one [`Config`] from the
//! environment and `--set VAR=VALUE`, and hands plain values to the library: the brain on
//! stdin/stdout, or one of the tools below. Every subcommand is a thin file here.
//!
//! - (no subcommand): the Gomocup brain on stdin/stdout (what managers run).
//! - [`web`]: the same protocol over TCP.
//! - [`gui`]: the browser board, the same protocol over a WebSocket.
//! - [`arena`]: matches between brains.
//! - [`bench`](mod@bench): the fixed-depth node-count signature and timed depth measurements.
//! - [`solve`]: VCF / VCT puzzle files.
//! - [`teacher`]: agreement with a labelled position file (the strength yardstick).
//! - [`train`]: self-play data and the fit of the evaluation and policy weights.
//! - [`book`]: opening book tools.
//! - [`farm`]: runs cut into shards (local processes, Slurm job arrays) and their merge.
//! - [`tune`]: SPSA over the search's `BANGO_TUNE_*` tunables by matches.
//! - [`yardstick`]: decisive positions of lost games, judged by a stronger brain, and the
//!   share where a brain's move now holds.

use bango::engine::config::Config;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;

mod arena;
mod bench;
mod book;
mod farm;
#[cfg(not(loom))]
mod gui;
#[cfg(test)]
mod layers;
mod solve;
mod teacher;
mod train;
mod tune;
mod web;
mod yardstick;

/// `pbrain-bango`: the Gomocup brain and its tools.
#[derive(Parser, Debug)]
#[command(
    name = "pbrain-bango",
    version,
    about = "pbrain-bango: a Gomoku (five in a row) brain for Gomocup managers, and its tools.\n\
             Without a command it plays the Gomocup protocol on stdin/stdout."
)]
struct Cli {
    /// Sets a configuration variable as its environment variable would, after the environment
    /// (repeatable), e.g. `--set BANGO_SMP=4`.
    #[arg(long = "set", value_name = "VAR=VALUE", global = true)]
    set: Vec<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the Gomocup protocol over TCP.
    Web(web::Args),
    /// Serve the browser board: play, watch the engine think, analyse.
    #[cfg(not(loom))]
    Gui(gui::Args),
    /// Play matches between Gomocup brains (round robin when more than two).
    Arena(arena::Args),
    /// Compare two candidates' matches against one opponent game by game (same openings,
    /// seeds and colours): each one's score and the paired difference with its 95% interval.
    Paired(arena::PairedArgs),
    /// Fixed-depth search signature (nodes, nps), or depth reached in a fixed time.
    Bench(bench::Args),
    /// Solve VCF / VCT puzzle files.
    Solve(solve::Args),
    /// Opening book tools.
    #[command(subcommand)]
    Book(book::Command),
    /// Agreement with a labelled position file (best move, win-probability correlation).
    Teacher(teacher::Args),
    /// Training data and the fit of the evaluation and policy weights.
    #[command(subcommand)]
    Train(train::Command),
    /// Run a match or self-play data in shards: local processes or a Slurm job array.
    #[command(subcommand)]
    Farm(farm::Command),
    /// Merge a farmed run's shards into its result (refuses missing, duplicated or foreign
    /// shards, and names them).
    Merge(farm::MergeArgs),
    /// Tune `BANGO_TUNE_*` parameters by SPSA over matches between two copies of the brain.
    Tune(tune::Args),
    /// Decisive positions of lost games, judged by a stronger brain, and the share of them
    /// where a brain's move now holds.
    #[command(subcommand)]
    Yardstick(yardstick::Command),
}

/// The environment variables besides the configuration's: read by the tools and tests.
const TOOL_VARIABLES: &str = "\
  BANGO_DATA=../shared/data (beside the source tree)  the shared data folder (bench positions, tests)";

/// Parses the command line, runs what it asks for and returns the process exit code.
pub fn run() -> u8 {
    let help = format!(
        "Configuration variables (environment, or --set VAR=VALUE), with their defaults:\n{}\n\
         Tools and tests also read:\n{TOOL_VARIABLES}",
        Config::help()
    );
    let matches = Cli::command().after_long_help(help).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let config = match config(&cli.set) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pbrain-bango: {e}");
            return 2;
        }
    };
    match cli.command {
        None => {
            bango::front::protocol::run_stdio(&config);
            0
        }
        Some(Command::Web(a)) => web::run(a, &config),
        #[cfg(not(loom))]
        Some(Command::Gui(a)) => gui::run(a, &config),
        Some(Command::Arena(a)) => arena::run(a),
        Some(Command::Paired(a)) => arena::paired(a),
        Some(Command::Bench(a)) => bench::run(a, &config),
        Some(Command::Solve(a)) => solve::run(a),
        Some(Command::Book(c)) => book::run(c),
        Some(Command::Teacher(a)) => teacher::run(a, &config),
        Some(Command::Train(c)) => train::run(c, &config),
        Some(Command::Farm(c)) => farm::run(c, &config),
        Some(Command::Merge(a)) => farm::merge(a, &config),
        Some(Command::Tune(a)) => tune::run(a),
        Some(Command::Yardstick(c)) => yardstick::run(c),
    }
}

/// The configuration: defaults, then the process environment (a value that does not parse is
/// reported on stderr and ignored), then `--set` (an unknown variable or a bad value is an
/// error: it was typed just now).
fn config(set: &[String]) -> Result<Config, String> {
    let env = |name: &str| std::env::var(name).ok();
    let mut config = Config::from_vars(&env, &mut |w| eprintln!("pbrain-bango: {w}"));
    for item in set {
        let (var, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--set {item:?}: expected VAR=VALUE"))?;
        match config.set(var.trim(), value) {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(format!("--set {var}: {e}")),
            None => return Err(format!("--set {var}: no such variable (see --help)")),
        }
    }
    config.exe = std::env::current_exe().ok();
    Ok(config)
}

/// A rule given on the command line: its name (freestyle, standard, renju, caro) or its
/// INFO rule bits.
fn parse_rule(s: &str) -> Result<bango::game::rules::Rule, String> {
    use bango::game::rules::Rule;
    if let Ok(bits) = s.parse::<i64>() {
        return Ok(Rule::from_info_bits(bits));
    }
    Rule::from_name(s).ok_or_else(|| format!("unknown rule {s:?}"))
}

/// A progress bar on stderr (drawn only on a terminal) of `len` steps named `what`: the bar,
/// the count, a message, the time so far and the estimated time left.
fn progress_bar(len: usize, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{what} [{{bar:30}}] {{pos}}/{{len}} {{msg}} {{elapsed}} ETA {{eta}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar
}

/// The shared data folder: `BANGO_DATA`, else `../shared/data` beside the source tree.
fn data_dir() -> PathBuf {
    match std::env::var_os("BANGO_DATA") {
        Some(d) => d.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// Prints `e` (for a command's own errors) and returns the exit code of bad usage.
fn usage_error(what: &str, e: impl std::fmt::Display) -> u8 {
    eprintln!("{what}: {e}");
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// The layering rule this module exists for: nothing below the command-line layer reads
    /// the process environment (variables, arguments, the executable's path).
    #[test]
    fn only_the_cli_reads_the_environment() {
        fn visit(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    if path.file_name() != Some("cli".as_ref()) {
                        visit(&path, out);
                    }
                } else if path.extension() == Some("rs".as_ref())
                    && path.file_name() != Some("main.rs".as_ref())
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for (i, line) in text.lines().enumerate() {
                        if ["std::env::", "env::var", "env::args", "current_exe"]
                            .iter()
                            .any(|p| line.contains(p))
                        {
                            out.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                        }
                    }
                }
            }
        }
        let mut found = Vec::new();
        visit(
            &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut found,
        );
        // The one exception: a test of the book loader builds a temporary folder.
        found.retain(|l| !l.contains("std::env::temp_dir()"));
        assert!(
            found.is_empty(),
            "environment read below the cli:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn set_overrides_and_rejects_unknown_variables() {
        let c = config(&["BANGO_SMP=3".into(), "BANGO_LMR=off".into()]).unwrap();
        assert_eq!(c.brain.threads, 3);
        assert!(!c.search.lmr);
        assert!(config(&["BANGO_NOPE=1".into()])
            .unwrap_err()
            .contains("no such variable"));
        assert!(config(&["BANGO_SMP".into()])
            .unwrap_err()
            .contains("VAR=VALUE"));
        assert!(config(&["BANGO_SMP=many".into()]).is_err());
    }
}
