//! `pbrain-bango farm local|slurm|shard|status|next` and `pbrain-bango merge`: a match or a
//! self-play run cut into shards, run as local processes or Slurm array tasks, and merged
//! ([`bango::front::farm`], the README's "Running at scale").
//!
//! This is the layer that reads the process for the farm: the Slurm array index
//! (`SLURM_ARRAY_TASK_ID`), the binary's own path (for the shard processes and the batch
//! scripts), and it runs `sbatch`. The work a run does is its kind's own command line (`arena
//! ...`, `train selfplay ...`), kept in `run.json` and parsed again by every shard, so a shard
//! is exactly what that command would do for its slice.

use super::{arena, train};
use bango::front::farm::slurm::{self, SlurmOptions};
use bango::front::farm::status::{status, ShardState};
use bango::front::farm::{Kind, RunSpec, Shard};
use clap::Parser;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

/// What `farm` does.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Run the shards as local processes, `--jobs` at once, then merge.
    Local {
        #[command(flatten)]
        run: RunArgs,
        /// Shards run at once.
        #[arg(short, long, default_value_t = 1)]
        jobs: usize,
    },
    /// Write (and with --submit, submit) the Slurm array and merge scripts of a run.
    Slurm {
        #[command(flatten)]
        run: RunArgs,
        /// Submit the first round and its merge job with sbatch.
        #[arg(long)]
        submit: bool,
        /// Slurm partition.
        #[arg(long)]
        partition: Option<String>,
        /// Time limit of a shard job (Slurm format, e.g. 30:00).
        #[arg(long)]
        time: Option<String>,
        /// CPUs per shard.
        #[arg(long, default_value_t = 1)]
        cpus_per_task: usize,
        /// Folder of the jobs' output files (default RUN_DIR/logs).
        #[arg(long)]
        logs: Option<PathBuf>,
    },
    /// Run one shard of a run (what an array task runs).
    Shard {
        /// The run folder.
        run_dir: PathBuf,
        /// Which shard, K/N (default: K from SLURM_ARRAY_TASK_ID, N from run.json).
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
    },
    /// Shards done, running and missing, with a progress bar.
    Status {
        /// The run folder.
        run_dir: PathBuf,
    },
    /// Merge what has ended; submit the next round of an undecided SPRT run (the merge job).
    Next {
        /// The run folder.
        run_dir: PathBuf,
    },
}

/// What a farmed run is.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The kind of run: arena or selfplay.
    #[arg(value_name = "KIND")]
    kind: String,
    /// Shards the run is cut into.
    #[arg(long, value_name = "N")]
    shards: usize,
    /// Shards a round (an SPRT run merges after each round and stops once it decides; default
    /// all shards in one round).
    #[arg(long, value_name = "N")]
    round: Option<usize>,
    /// The run folder.
    #[arg(long, value_name = "RUN_DIR")]
    out: PathBuf,
    /// The kind's own arguments, after `--` (e.g. `-- --games 100 ENGINE ENGINE`).
    #[arg(last = true, value_name = "ARGS")]
    args: Vec<String>,
}

/// Options of `merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The run folder.
    run_dir: PathBuf,
    /// Merge shards 0..K only (default: every shard; for a run in rounds, up to the end of
    /// the last round with a finished shard).
    #[arg(long, value_name = "K")]
    upto: Option<usize>,
}

/// `arena ARGS` parsed alone, as a shard parses its run's arguments.
#[derive(Parser, Debug)]
#[command(name = "arena")]
struct ArenaLine {
    #[command(flatten)]
    args: arena::Args,
}

fn kind_of(s: &str) -> Result<Kind, String> {
    match s {
        "arena" => Ok(Kind::Arena),
        "selfplay" => Ok(Kind::Selfplay),
        "label" => Err(
            "label: the labelling runs inside selfplay (each shard labels the \
                        positions of its own games); there is no separate label run"
                .into(),
        ),
        _ => Err(format!("unknown kind {s:?} (arena or selfplay)")),
    }
}

fn exe() -> Result<PathBuf, String> {
    std::env::current_exe().map_err(|e| format!("cannot find this binary's path: {e}"))
}

/// A run's work, ready to run a shard of or to merge. Both kinds are boxed: their sizes differ
/// by hundreds of bytes either way as the search's parameters grow, and a run builds one.
enum Work {
    Arena(Box<bango::front::arena::Match>),
    Selfplay(Box<train::Selfplay>),
}

impl Work {
    /// Parses the run's arguments as its kind's command line.
    fn of(spec: &RunSpec, config: &bango::engine::config::Config) -> Result<Work, String> {
        match spec.kind {
            Kind::Arena => {
                let line = ArenaLine::try_parse_from(
                    std::iter::once("arena".to_string()).chain(spec.args.iter().cloned()),
                )
                .map_err(|e| format!("the run's arena arguments: {e}"))?;
                Ok(Work::Arena(Box::new(arena::build(line.args)?)))
            }
            Kind::Selfplay => Ok(Work::Selfplay(Box::new(train::Selfplay::parse(
                &spec.args, config,
            )?))),
        }
    }

    /// The run's work items (games).
    fn total(&self) -> usize {
        match self {
            Work::Arena(m) => m.schedule().len(),
            Work::Selfplay(s) => s.cfg.games,
        }
    }
}

/// Runs `command`; returns the exit code.
pub fn run(command: Command, config: &bango::engine::config::Config) -> u8 {
    let r = match command {
        Command::Local { run, jobs } => local(run, jobs, config),
        Command::Slurm {
            run,
            submit,
            partition,
            time,
            cpus_per_task,
            logs,
        } => {
            let opts = SlurmOptions {
                partition,
                time,
                cpus_per_task,
                logs,
            };
            slurm_command(run, &opts, submit, config)
        }
        Command::Shard { run_dir, shard } => shard_command(&run_dir, shard.as_deref(), config),
        Command::Status { run_dir } => status_command(&run_dir),
        Command::Next { run_dir } => next(&run_dir, config),
    };
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("farm: {e}");
            1
        }
    }
}

/// Makes the run folder of `run`: checks that the arguments make a run, writes `run.json`.
fn prepare(run: &RunArgs, config: &bango::engine::config::Config) -> Result<RunSpec, String> {
    let kind = kind_of(&run.kind)?;
    if run.shards == 0 {
        return Err("--shards must be at least 1".into());
    }
    let spec = RunSpec {
        kind,
        args: run.args.clone(),
        shards: run.shards,
        round: run.round.unwrap_or(run.shards).clamp(1, run.shards),
    };
    let work = Work::of(&spec, config)?;
    if work.total() < spec.shards {
        return Err(format!(
            "{} shards for {} games: some shards would have nothing to do",
            spec.shards,
            work.total()
        ));
    }
    spec.prepare(&run.out)?;
    Ok(spec)
}

/// The shard a process runs: `--shard K/N`, else `SLURM_ARRAY_TASK_ID` of `shards` (never
/// `SLURM_ARRAY_TASK_COUNT`: a requeued single task sees a count of 1).
pub fn shard_of(shard: Option<&str>, shards: usize) -> Result<Shard, String> {
    if let Some(s) = shard {
        let s = Shard::parse(s)?;
        if s.count != shards {
            return Err(format!("shard {s}: this run has {shards} shards"));
        }
        return Ok(s);
    }
    let id = std::env::var("SLURM_ARRAY_TASK_ID")
        .map_err(|_| "no --shard K/N and no SLURM_ARRAY_TASK_ID".to_string())?;
    let k = id
        .trim()
        .parse()
        .map_err(|_| format!("SLURM_ARRAY_TASK_ID={id:?} is not a number"))?;
    Shard::new(k, shards)
}

fn shard_command(
    run_dir: &Path,
    shard: Option<&str>,
    config: &bango::engine::config::Config,
) -> Result<(), String> {
    let spec = RunSpec::load(run_dir)?;
    let shard = shard_of(shard, spec.shards)?;
    play(&spec, run_dir, shard, config)
}

/// Plays shard `shard` of the run in `run_dir`.
pub fn play(
    spec: &RunSpec,
    run_dir: &Path,
    shard: Shard,
    config: &bango::engine::config::Config,
) -> Result<(), String> {
    let r = match Work::of(spec, config)? {
        Work::Arena(m) => bango::front::farm::arena::play_shard(&m, spec, run_dir, shard)?,
        Work::Selfplay(s) => {
            bango::front::farm::selfplay::make_shard(&s.cfg, &s.config, spec, run_dir, shard)?
        }
    };
    eprintln!(
        "shard {shard}: items {}..{} done in {:.1} s",
        r.items.0,
        r.items.1,
        r.wall_ms as f64 / 1000.0
    );
    Ok(())
}

/// What a merge came to.
struct Merged {
    text: String,
    /// Whether the run needs no more rounds (all merged, or the SPRT decided).
    finished: bool,
    shards_merged: usize,
}

/// Merges shards `0..upto` of the run in `run_dir` into `result.json` (arena) or
/// `selfplay.txt`.
fn merge_run(
    spec: &RunSpec,
    run_dir: &Path,
    upto: usize,
    config: &bango::engine::config::Config,
) -> Result<Merged, String> {
    match Work::of(spec, config)? {
        Work::Arena(m) => {
            let r = bango::front::farm::arena::merge(&m, spec, run_dir, upto)?;
            let decided = r
                .decision
                .is_some_and(|d| d != bango::front::arena::SprtDecision::Continue);
            Ok(Merged {
                text: r.text,
                finished: decided || r.shards_merged == spec.shards,
                shards_merged: r.shards_merged,
            })
        }
        Work::Selfplay(s) => {
            let lines = bango::front::farm::selfplay::merge(spec, run_dir, s.cfg.games)?;
            let path = run_dir.join("selfplay.txt");
            bango::front::farm::run::write_atomic(&path, &format!("{}{lines}", s.header))?;
            Ok(Merged {
                text: format!(
                    "{} positions from {} games merged into {}\n",
                    lines.lines().count(),
                    s.cfg.games,
                    path.display()
                ),
                finished: true,
                shards_merged: spec.shards,
            })
        }
    }
}

/// The default extent of a merge: every shard, or for a run in rounds, up to the end of the
/// last round that has a finished shard.
fn default_upto(spec: &RunSpec, run_dir: &Path) -> usize {
    if spec.round >= spec.shards {
        return spec.shards;
    }
    let states = status(run_dir, spec);
    let last = states
        .iter()
        .rposition(|s| matches!(s, ShardState::Done(_)))
        .unwrap_or(0);
    spec.round_shards(last / spec.round).end
}

/// The error of a failed merge, with the command that resubmits each unfinished shard of
/// `0..upto` when the run has Slurm scripts.
fn merge_failure(spec: &RunSpec, run_dir: &Path, upto: usize, e: String) -> String {
    let mut msg = e;
    if slurm::array_path(run_dir).exists() {
        for (k, s) in status(run_dir, spec).iter().enumerate().take(upto) {
            if !matches!(s, ShardState::Done(_)) {
                msg.push_str(&format!(
                    "\n  resubmit shard {k}: {}",
                    slurm::resubmit_command(run_dir, k)
                ));
            }
        }
    }
    msg
}

/// `pbrain-bango merge RUN_DIR`; returns the exit code.
pub fn merge(args: MergeArgs, config: &bango::engine::config::Config) -> u8 {
    let go = || -> Result<String, String> {
        let spec = RunSpec::load(&args.run_dir)?;
        let upto = args
            .upto
            .unwrap_or_else(|| default_upto(&spec, &args.run_dir));
        merge_run(&spec, &args.run_dir, upto, config)
            .map(|m| m.text)
            .map_err(|e| merge_failure(&spec, &args.run_dir, upto, e))
    };
    match go() {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("merge: {e}");
            1
        }
    }
}

/// `farm local`: runs each round's shards as child processes (`farm shard`), `jobs` at once,
/// merges after each round and stops once the run is finished.
fn local(run: RunArgs, jobs: usize, config: &bango::engine::config::Config) -> Result<(), String> {
    let spec = prepare(&run, config)?;
    let exe = exe()?;
    let progress = super::progress_bar(spec.shards, "shards");
    for round in 0..spec.rounds() {
        run_round(&exe, &run.out, &spec, round, jobs.max(1), &progress)?;
        let m = merge_run(&spec, &run.out, spec.round_shards(round).end, config)
            .map_err(|e| merge_failure(&spec, &run.out, spec.shards, e))?;
        if m.finished {
            progress.finish_and_clear();
            print!("{}", m.text);
            return Ok(());
        }
    }
    progress.finish_and_clear();
    Err("the run ended without a merge".into())
}

/// Runs the shards of `round` as child processes, `jobs` at once; an error names the shards
/// that failed.
fn run_round(
    exe: &Path,
    run_dir: &Path,
    spec: &RunSpec,
    round: usize,
    jobs: usize,
    progress: &ProgressBar,
) -> Result<(), String> {
    // A shard whose result is already there (an earlier, interrupted `farm local` of the same
    // run) is not run again: running the command again resumes the run.
    let states = status(run_dir, spec);
    let mut pending: Vec<usize> = spec
        .round_shards(round)
        .rev()
        .filter(|&k| {
            let done = matches!(states[k], ShardState::Done(_));
            if done {
                progress.inc(1);
            }
            !done
        })
        .collect();
    let mut running: Vec<(usize, std::process::Child)> = Vec::new();
    let mut failed = Vec::new();
    while !pending.is_empty() || !running.is_empty() {
        while running.len() < jobs {
            let Some(k) = pending.pop() else { break };
            let child = Process::new(exe)
                .args(["farm", "shard"])
                .arg(run_dir)
                .arg("--shard")
                .arg(format!("{k}/{}", spec.shards))
                .stdout(std::process::Stdio::null())
                .spawn()
                .map_err(|e| format!("{}: {e}", exe.display()))?;
            running.push((k, child));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        let mut i = 0;
        while i < running.len() {
            match running[i].1.try_wait() {
                Ok(None) => i += 1,
                Ok(Some(st)) => {
                    let (k, _) = running.swap_remove(i);
                    if !st.success() {
                        failed.push(k);
                    }
                    progress.inc(1);
                }
                Err(e) => return Err(format!("shard {}: {e}", running[i].0)),
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        failed.sort();
        Err(format!(
            "shard(s) {failed:?} failed (their output is above)"
        ))
    }
}

/// Runs `sbatch ARGS` and returns the job id it prints (`--parsable`).
fn sbatch(args: &[String]) -> Result<String, String> {
    let out = Process::new("sbatch")
        .args(args)
        .output()
        .map_err(|e| format!("sbatch: {e} (is Slurm installed?)"))?;
    if !out.status.success() {
        return Err(format!(
            "sbatch {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() {
        return Err(format!("sbatch {} printed no job id", args.join(" ")));
    }
    Ok(id)
}

/// Submits the shards of `round` and the merge job after them; returns the two job ids.
fn submit_round(run_dir: &Path, spec: &RunSpec, round: usize) -> Result<(String, String), String> {
    let array = sbatch(&slurm::array_args(run_dir, spec.round_shards(round)))?;
    let merge = sbatch(&slurm::merge_args(run_dir, &array))?;
    Ok((array, merge))
}

fn slurm_command(
    run: RunArgs,
    opts: &SlurmOptions,
    submit: bool,
    config: &bango::engine::config::Config,
) -> Result<(), String> {
    let spec = prepare(&run, config)?;
    let exe = exe()?;
    let dir = std::path::absolute(&run.out).map_err(|e| format!("{}: {e}", run.out.display()))?;
    let logs = opts.logs.clone().unwrap_or_else(|| dir.join("logs"));
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let opts = SlurmOptions {
        logs: Some(logs),
        ..opts.clone()
    };
    let write = |path: PathBuf, text: String| {
        bango::front::farm::run::write_atomic(&path, &text).map(|()| path)
    };
    let a = write(
        slurm::array_path(&dir),
        slurm::array_script(&exe, &dir, &spec, &opts),
    )?;
    let m = write(
        slurm::merge_path(&dir),
        slurm::merge_script(&exe, &dir, &spec, &opts),
    )?;
    println!("wrote {} and {}", a.display(), m.display());
    if submit {
        let (array, merge) = submit_round(&dir, &spec, 0)?;
        println!("submitted shards as job {array}, the merge as job {merge}");
    } else {
        let first = slurm::array_args(&dir, spec.round_shards(0)).join(" ");
        println!(
            "submit with:\n  jid=$(sbatch {first}) && sbatch --dependency=afterany:$jid {}",
            m.display()
        );
    }
    Ok(())
}

/// `farm next` (the merge job): merges what the rounds so far made; when the run is not
/// finished, submits the next round with its own merge job.
fn next(run_dir: &Path, config: &bango::engine::config::Config) -> Result<(), String> {
    let spec = RunSpec::load(run_dir)?;
    let upto = default_upto(&spec, run_dir);
    let m = merge_run(&spec, run_dir, upto, config)
        .map_err(|e| merge_failure(&spec, run_dir, upto, e))?;
    print!("{}", m.text);
    if m.finished {
        println!("run finished: {}", run_dir.join("result.json").display());
        return Ok(());
    }
    let round = m.shards_merged / spec.round;
    let (array, merge) = submit_round(run_dir, &spec, round)?;
    println!("undecided: submitted round {round} as job {array}, its merge as job {merge}");
    Ok(())
}

fn status_command(run_dir: &Path) -> Result<(), String> {
    let spec = RunSpec::load(run_dir)?;
    let states = status(run_dir, &spec);
    let mut done = 0;
    for (k, s) in states.iter().enumerate() {
        match s {
            ShardState::Done(ms) => {
                done += 1;
                println!("shard {k}: done in {:.1} s", *ms as f64 / 1000.0);
            }
            ShardState::Running(note) => println!("shard {k}: running ({note})"),
            ShardState::Missing => println!("shard {k}: missing"),
        }
    }
    let running = states
        .iter()
        .filter(|s| matches!(s, ShardState::Running(_)))
        .count();
    let progress = super::progress_bar(spec.shards, "shards done");
    progress.set_position(done as u64);
    progress.abandon_with_message(format!(
        "{running} running, {} missing",
        spec.shards - done - running
    ));
    Ok(())
}

/// The arguments of this process's `SUB` command that define its work: everything after the
/// first `SUB` word, without the options that only say where or how fast it runs (`--shard`,
/// `--shards`, `--out`, `--concurrency`, `--quiet`). They are what `run.json` keeps.
fn work_args(sub: &str) -> Vec<String> {
    const WITH_VALUE: [&str; 5] = ["--shard", "--shards", "--out", "--concurrency", "-c"];
    const FLAGS: [&str; 2] = ["--quiet", "-q"];
    let all: Vec<String> = std::env::args().collect();
    let start = all
        .iter()
        .position(|a| a == sub)
        .map_or(all.len(), |i| i + 1);
    let mut out = Vec::new();
    let mut it = all[start..].iter();
    while let Some(a) = it.next() {
        if a == "--" {
            out.push(a.clone());
            out.extend(it.by_ref().cloned());
        } else if WITH_VALUE.contains(&a.as_str()) {
            it.next();
        } else if FLAGS.contains(&a.as_str())
            || WITH_VALUE.iter().any(|o| a.starts_with(&format!("{o}=")))
        {
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// The shard of `--shard K/N` or `--shards N` (K from Slurm), and the run spec of this
/// process's own `sub` command line in `run_dir`, checked against the folder's `run.json`.
fn own_shard(
    kind: Kind,
    sub: &str,
    run_dir: &Path,
    shard: (Option<String>, Option<usize>),
) -> Result<(RunSpec, Shard), String> {
    let shard = match shard {
        (Some(s), _) => Shard::parse(&s)?,
        (None, Some(n)) => shard_of(None, n)?,
        (None, None) => return Err("no shard given".into()),
    };
    let spec = RunSpec {
        kind,
        args: work_args(sub),
        shards: shard.count,
        round: shard.count,
    };
    spec.prepare(run_dir)?;
    Ok((spec, shard))
}

/// `arena ... --shard K/N --out RUN_DIR`: plays one shard of the match `m`; the exit code.
pub fn arena_shard(m: &bango::front::arena::Match, shard: (Option<String>, Option<usize>)) -> u8 {
    let go = || -> Result<(), String> {
        let dir = m.out.clone().ok_or("--shard needs --out RUN_DIR")?;
        let (spec, shard) = own_shard(Kind::Arena, "arena", &dir, shard)?;
        let r = bango::front::farm::arena::play_shard(m, &spec, &dir, shard)?;
        eprintln!("shard {shard}: {} games written", r.games.len());
        Ok(())
    };
    match go() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("arena: {e}");
            1
        }
    }
}

/// `train selfplay ... --shard K/N --out RUN_DIR`: makes one shard of the run `sp`; the exit
/// code.
pub fn selfplay_shard(
    run_dir: &Path,
    sp: train::Selfplay,
    shard: (Option<String>, Option<usize>),
) -> Result<(), String> {
    let (spec, shard) = own_shard(Kind::Selfplay, "selfplay", run_dir, shard)?;
    let r = bango::front::farm::selfplay::make_shard(&sp.cfg, &sp.config, &spec, run_dir, shard)?;
    eprintln!("shard {shard}: {} positions written", r.lines.len());
    Ok(())
}
