//! `pbrain-bango yardstick`: the decisive positions of lost games, collected with a judge
//! brain from arena match directories, and the share of them where a player's move now holds
//! ([`bango::front::yardstick`]).

use super::data_dir;
use bango::front::arena::EngineSpec;
use bango::front::teacher;
use bango::front::yardstick::{self, CollectOptions, JudgeSpec, Share, Trial};
use std::io::Write as _;
use std::path::PathBuf;

/// The subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Judge the games a player lost and write their decisive positions.
    Collect(CollectArgs),
    /// Play a brain on a yardstick and report the share of moves that hold.
    Score(ScoreArgs),
    /// Compare two score runs position by position (their `--out` files).
    Compare(CompareArgs),
    /// Label positions by the judge (its move and evaluation), e.g. self-play positions of a
    /// rule without a teacher file, for `train fit`.
    Label(LabelArgs),
}

/// Options of `yardstick compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The first run's results (the baseline).
    first: PathBuf,
    /// The second run's results.
    second: PathBuf,
}

/// The judge's options, common to both subcommands.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// The judge brain, as an arena engine (`cmd` or `name=..,info=..,cmd=..`).
    #[arg(long, value_name = "ENGINE")]
    judge: String,
    /// The judge's score for a win probability of 1/(1+e^-1) (Rapfi: 200, bango: 1000).
    #[arg(long, value_name = "K", default_value_t = 200.0)]
    judge_scale: f64,
    /// `INFO max_memory` for the judge, bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    judge_memory: u64,
    /// Positions (or games) at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,
}

/// Options of `yardstick collect`.
#[derive(clap::Args, Debug)]
pub struct CollectArgs {
    /// Arena match directories (each with summary.json and its PSQ games).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// An engine name whose lost games are read, as named in the match (repeatable).
    #[arg(long, value_name = "NAME", required = true)]
    player: Vec<String>,
    /// The judge's turn for the first pass over every position, ms.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    quick_ms: u64,
    /// The judge's turn for the candidate moves, ms.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    long_ms: u64,
    /// The least drop of win probability that makes a move decisive.
    #[arg(long, value_name = "P", default_value_t = CollectOptions::default().min_drop)]
    min_drop: f64,
    /// The least win probability before the move.
    #[arg(long, value_name = "P", default_value_t = CollectOptions::default().min_before)]
    min_before: f64,
    /// At most N games (the first ones found).
    #[arg(long, value_name = "N", default_value_t = usize::MAX)]
    limit: usize,
    /// Where to write the positions.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    judge: JudgeArgs,
}

/// Options of `yardstick label`.
#[derive(clap::Args, Debug)]
pub struct LabelArgs {
    /// Labelled position files (the teacher format, e.g. `train selfplay` output), all of one
    /// rule and board size.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The judge's turn a position, ms.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    judge_ms: u64,
    /// Every N-th position of the files only.
    #[arg(long, value_name = "N", default_value_t = 1)]
    stride: usize,
    /// Where to write the labelled positions.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    judge: JudgeArgs,
}

/// Which positions `score` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitArg {
    /// Every position except the test part (the default: what changes are tuned on).
    Tune,
    /// The test part only (read once, at the end).
    Test,
    /// Both, reported apart.
    All,
}

/// Options of `yardstick score`.
#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    /// A yardstick file written by `yardstick collect`.
    file: PathBuf,
    /// The player, as an arena engine (default: this binary).
    #[arg(long, value_name = "ENGINE")]
    player: Option<String>,
    /// The player's turn, ms.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    player_ms: u64,
    /// The judge's turn on the position after the player's move, ms.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    judge_ms: u64,
    /// The drop of win probability a move may cost and still hold.
    #[arg(long, value_name = "P", default_value_t = yardstick::TOLERANCE)]
    tolerance: f64,
    /// Which part: tune (default), test or all.
    #[arg(long, value_enum, default_value = "tune")]
    split: SplitArg,
    /// The opening file that defines the groups (default: the shared freestyle openings).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Print one line per position.
    #[arg(long)]
    verbose: bool,
    /// Also write one line per position here (for `yardstick compare`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    judge: JudgeArgs,
}

/// Runs a subcommand; returns the exit code.
pub fn run(command: Command) -> u8 {
    let result = match command {
        Command::Collect(a) => collect(a),
        Command::Score(a) => score(a),
        Command::Compare(a) => compare(a),
        Command::Label(a) => label(a),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("yardstick: {e}");
            1
        }
    }
}

fn judge_spec(a: &JudgeArgs) -> Result<JudgeSpec, String> {
    if !(a.judge_scale.is_finite() && a.judge_scale > 0.0) {
        return Err(format!("--judge-scale {} must be positive", a.judge_scale));
    }
    Ok(JudgeSpec {
        engine: EngineSpec::parse(&a.judge)?,
        scale: a.judge_scale,
        max_memory: a.judge_memory,
    })
}

/// `yardstick label`: the judge's move and evaluation for every chosen position.
fn label(a: LabelArgs) -> Result<(), String> {
    let judge = judge_spec(&a.judge)?;
    let mut positions = Vec::new();
    for f in &a.files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        positions.extend(
            teacher::parse_file(&text)
                .map_err(|e| format!("{}: {e}", f.display()))?
                .into_iter()
                .step_by(a.stride.max(1)),
        );
    }
    let started = std::time::Instant::now();
    let progress = super::progress_bar(positions.len(), "positions");
    let results = yardstick::label(&positions, &judge, a.judge_ms, a.judge.jobs, &|| {
        progress.inc(1)
    })?;
    progress.finish_and_clear();
    let mut text = format!(
        "# positions of {} (every {}th), labelled by {} at {} ms a position (its score over {} \
         is a logit), in the teacher scale; result: the game's, kept\n",
        a.files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        a.stride.max(1),
        judge.engine.cmd,
        a.judge_ms,
        judge.scale
    );
    let mut failed = 0;
    for r in results {
        match r {
            Ok(p) => {
                text.push_str(&p.to_line());
                text.push('\n');
            }
            Err(e) => {
                failed += 1;
                eprintln!("yardstick label: {e}");
            }
        }
    }
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    eprintln!(
        "yardstick label: {} positions in {:.0} s, {failed} failed",
        positions.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn collect(a: CollectArgs) -> Result<(), String> {
    let judge = judge_spec(&a.judge)?;
    let mut games = Vec::new();
    for d in &a.dirs {
        for p in &a.player {
            games.extend(yardstick::lost_games(d, p)?);
        }
    }
    games.truncate(a.limit);
    if games.is_empty() {
        return Err(format!(
            "{} lost no game by a five in these matches",
            a.player.join(", ")
        ));
    }
    let options = CollectOptions {
        min_drop: a.min_drop,
        min_before: a.min_before,
    };
    let progress = super::progress_bar(games.len(), "games");
    let found = yardstick::collect(
        &games,
        &judge,
        (a.quick_ms, a.long_ms),
        options,
        a.judge.jobs,
        &|| progress.inc(1),
    );
    progress.finish_and_clear();
    let mut text = format!(
        "# yardstick: decisive positions of {}'s lost games, judged by {} ({} ms, then {} ms; \
         drop >= {}, before >= {})\n",
        a.player.join(", "),
        judge.engine.cmd,
        a.quick_ms,
        a.long_ms,
        a.min_drop,
        a.min_before
    );
    let (mut kept, mut failed) = (0, 0);
    for r in found {
        match r {
            Ok(Some(d)) => {
                kept += 1;
                text.push_str(&d.to_line());
                text.push('\n');
            }
            Ok(None) => {}
            Err(e) => {
                failed += 1;
                eprintln!("yardstick: {e}");
            }
        }
    }
    std::fs::File::create(&a.out)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!(
        "{} lost games, {kept} decisive positions written to {}, {failed} failed",
        games.len(),
        a.out.display()
    );
    Ok(())
}

fn score(a: ScoreArgs) -> Result<(), String> {
    let judge = judge_spec(&a.judge)?;
    let player = match &a.player {
        Some(p) => EngineSpec::parse(p)?,
        None => {
            let exe = std::env::current_exe().map_err(|e| format!("this binary: {e}"))?;
            EngineSpec::command(&format!("'{}'", exe.display()))
        }
    };
    if !(0.0..=1.0).contains(&a.tolerance) {
        return Err(format!("--tolerance {} is not in 0..=1", a.tolerance));
    }
    let text =
        std::fs::read_to_string(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let all = yardstick::parse_file(&text)?;
    let size = all.first().map_or(15, |d| d.position.puzzle.size);
    let opening_path = a
        .openings
        .clone()
        .unwrap_or_else(|| data_dir().join("openings-freestyle-15.txt"));
    let openings = teacher::read_openings(&opening_path, size)?;
    let chosen: Vec<(bool, yardstick::Decisive)> = all
        .into_iter()
        .map(|d| {
            let test = yardstick::is_test_group(teacher::group_of(&d.position.puzzle, &openings));
            (test, d)
        })
        .filter(|(test, _)| match a.split {
            SplitArg::Tune => !test,
            SplitArg::Test => *test,
            SplitArg::All => true,
        })
        .collect();
    let positions: Vec<yardstick::Decisive> = chosen.iter().map(|(_, d)| d.clone()).collect();
    let progress = super::progress_bar(positions.len(), "positions");
    let started = std::time::Instant::now();
    let trials = yardstick::score(
        &positions,
        (&player, a.player_ms),
        (&judge, a.judge_ms),
        a.tolerance,
        a.judge.jobs,
        &|| progress.inc(1),
    );
    progress.finish_and_clear();
    let mut parts: [Vec<Trial>; 2] = [Vec::new(), Vec::new()];
    let (mut failed, mut lines) = (0, String::new());
    for ((test, d), t) in chosen.iter().zip(&trials) {
        match t {
            Ok(t) => {
                let line = yardstick::result_line(d, t);
                if a.verbose {
                    println!("{line}");
                }
                lines.push_str(&line);
                lines.push('\n');
                parts[*test as usize].push(*t);
            }
            Err(e) => {
                failed += 1;
                eprintln!("yardstick: {e}");
            }
        }
    }
    if let Some(out) = &a.out {
        std::fs::write(out, &lines).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    println!(
        "{}: {} at {} ms, judged by {} at {} ms, tolerance {} ({} s, {failed} failed)",
        a.file.display(),
        player.cmd,
        a.player_ms,
        judge.engine.cmd,
        a.judge_ms,
        a.tolerance,
        started.elapsed().as_secs()
    );
    for (name, part) in [("tune", &parts[0]), ("test", &parts[1])] {
        if !part.is_empty() {
            println!("{name}: {} hold", Share::of(part).text());
        }
    }
    if failed > 0 {
        return Err(format!("{failed} positions failed"));
    }
    Ok(())
}

fn compare(a: CompareArgs) -> Result<(), String> {
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p)
            .map(|t| yardstick::parse_results(&t))
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    let (first, second) = (read(&a.first)?, read(&a.second)?);
    let paired = yardstick::Paired::of(&first, &second);
    if paired.both == 0 {
        return Err("the two runs share no position".into());
    }
    println!(
        "{} against {}: {}",
        a.second.display(),
        a.first.display(),
        paired.text()
    );
    Ok(())
}
