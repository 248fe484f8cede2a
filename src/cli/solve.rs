//! `pbrain-bango solve --vcf|--vct [--time MS] [--check] FILE`: solves every puzzle line of a
//! file (format in the shared data README) with the side to move and rule of each line.
//!
//! Prints one line per puzzle — `win x,y <plies> <ms>`, `none <ms>` (proved: no such win) or
//! `unknown <ms>` (out of time) — then `solved N/M`, the timing summary and, for VCT, the proof
//! trees' sizes (attacker moves in each tree's explicit part). Each win printed
//! has been verified (`bango::solver::verify`) and its time includes the verification. With `--check`
//! the first move of each win is compared with the listed answers (when the line has any) and
//! mismatches are reported; the exit code is then 1 if any puzzle mismatched or was unsolved.

use bango::game::board::Pos;
use bango::game::notation::Puzzle;
use bango::solver::{Budget, DfpnOptions, DfpnSolver, Proof, VcfSolver, VctProof};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search for victory by continuous fours.
    #[arg(long, conflicts_with = "vct", required_unless_present = "vct")]
    vcf: bool,
    /// Search for victory by continuous threats (fours and threes).
    #[arg(long)]
    vct: bool,
    /// With --vct: no quiet attacks (moves that threaten a VCF without making a three).
    #[arg(long, requires = "vct")]
    vct_no_quiet: bool,
    /// Time per puzzle in milliseconds.
    #[arg(long, default_value_t = 1000)]
    time: u64,
    /// Count --time as the solver thread's CPU time, not the wall clock (Linux; comparisons on
    /// a machine shared with other jobs). Printed times are CPU times then.
    #[arg(long)]
    cpu_time: bool,
    /// Compare each win's first move with the listed answers.
    #[arg(long)]
    check: bool,
    /// Solve only every K-th puzzle (1 = all).
    #[arg(long, default_value_t = 1)]
    stride: usize,
    /// Node cap per puzzle (deterministic runs, profiling); no cap by default.
    #[arg(long)]
    nodes: Option<u64>,
    /// Solve at most N puzzles.
    #[arg(long)]
    limit: Option<usize>,
    /// Print only the summary.
    #[arg(long, short)]
    quiet: bool,
    /// Print each search's node count to stderr (with --vct: the df-pn statistics).
    #[arg(long)]
    print_nodes: bool,
    /// The puzzle file.
    file: std::path::PathBuf,
}

/// Solves the puzzles `args` names; returns the exit code.
pub fn run(args: Args) -> u8 {
    let chosen = match load(&args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let clock = if args.cpu_time {
        match CpuClock::start(Duration::from_millis(args.time)) {
            Some(c) => Some(c),
            None => {
                eprintln!("--cpu-time: cannot read this thread's CPU time from /proc");
                return 2;
            }
        }
    } else {
        None
    };
    let mut vcf = VcfSolver::new();
    let mut tally = Tally::default();
    for (lineno, p) in &chosen {
        let mut board = match p.board() {
            Ok(b) => b,
            Err(e) => {
                println!("error line {lineno}: {e}");
                tally.bad += 1;
                continue;
            }
        };
        let start = Instant::now();
        let budget = budget(&args, clock.as_ref(), start);
        let elapsed = || match &clock {
            Some(c) => c.elapsed(),
            None => start.elapsed(),
        };
        // Fresh tables per puzzle: each line is independent and tables would only grow.
        vcf.clear();
        let outcome = solve_one(
            &args,
            &mut vcf,
            &mut board,
            p,
            &budget,
            &mut tally.tree_sizes,
        );
        let t = elapsed();
        tally.times.push(t);
        let Some(result) = outcome else {
            tally.unknowns += 1;
            report(args.quiet, &format!("unknown {}", t.as_millis()));
            continue;
        };
        if args.print_nodes {
            eprintln!("nodes {}", vcf.nodes);
        }
        tally.record(&args, *lineno, p, result, t);
    }
    tally.print(chosen.len());
    let failed = tally.mismatches > 0 || tally.wins < chosen.len() || tally.bad > 0;
    u8::from(args.check && failed)
}

/// The puzzles of the file `args` names, after `--stride` and `--limit`, with their line
/// numbers; the exit code when the file cannot be read or a line does not parse.
fn load(args: &Args) -> Result<Vec<(usize, Puzzle)>, u8> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| {
        eprintln!("{}: {e}", args.file.display());
        2
    })?;
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match Puzzle::parse(line) {
            Ok(Some(p)) => puzzles.push((i + 1, p)),
            Ok(None) => {}
            Err(e) => {
                eprintln!("line {}: {e}", i + 1);
                return Err(2);
            }
        }
    }
    Ok(puzzles
        .into_iter()
        .step_by(args.stride.max(1))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect())
}

/// One puzzle's budget, started at `start`: `--time` of the wall clock, or of the solving
/// thread's CPU time with `--cpu-time`; `--nodes` either way.
fn budget<'a>(args: &Args, clock: Option<&'a CpuClock>, start: Instant) -> Budget<'a> {
    let wall = Duration::from_millis(args.time);
    match clock {
        Some(c) => {
            c.begin();
            Budget {
                // The wall clock still ends a puzzle that gets no CPU at all.
                deadline: Some(start + wall * 100),
                stop: Some(&c.stop),
                max_nodes: args.nodes,
            }
        }
        None => Budget {
            max_nodes: args.nodes,
            ..Budget::until(start + wall)
        },
    }
}

/// Solves one puzzle: `Some(Some((first move, plies)))` for a verified win, `Some(None)` when
/// no win was proved to exist, `None` when the budget ran out. A VCT win's tree size goes to
/// `tree_sizes`.
fn solve_one(
    args: &Args,
    vcf: &mut VcfSolver,
    board: &mut bango::game::board::Board,
    p: &Puzzle,
    budget: &Budget,
    tree_sizes: &mut Vec<usize>,
) -> Option<Option<(Pos, usize)>> {
    if args.vcf {
        return match vcf.solve(board, p.rule, p.side, budget) {
            Proof::Win(line) => Some(Some((line[0], line.len()))),
            Proof::NoWin => Some(None),
            Proof::Unknown => None,
        };
    }
    let mut s = DfpnSolver::new(DfpnOptions {
        quiet_attacks: !args.vct_no_quiet,
        ..DfpnOptions::default()
    });
    let proof = s.solve(board, p.rule, p.side, budget);
    if args.print_nodes {
        eprintln!(
            "dfpn {:?} vcf nodes {} {:?}",
            s.stats, s.vcf.nodes, s.rejection
        );
    }
    match proof {
        VctProof::Win(t) => {
            tree_sizes.push(t.attack_count());
            Some(Some((t.attack, t.depth())))
        }
        VctProof::NoWin => Some(None),
        VctProof::Unknown => None,
    }
}

/// The counts and times of a run, and its summary.
#[derive(Default)]
struct Tally {
    wins: usize,
    nones: usize,
    unknowns: usize,
    mismatches: usize,
    bad: usize,
    times: Vec<Duration>,
    /// VCT only: the attacker moves of each proved tree (its explicit part).
    tree_sizes: Vec<usize>,
}

impl Tally {
    /// Counts and prints a decided puzzle (a win, checked against the answers with `--check`,
    /// or a proof that none exists).
    fn record(
        &mut self,
        args: &Args,
        lineno: usize,
        p: &Puzzle,
        result: Option<(Pos, usize)>,
        t: Duration,
    ) {
        match result {
            Some((first, plies)) => {
                self.wins += 1;
                report(
                    args.quiet,
                    &format!("win {first} {plies} {}", t.as_millis()),
                );
                if args.check && !p.answers.is_empty() && !p.answers.contains(&first) {
                    self.mismatches += 1;
                    println!(
                        "mismatch line {lineno}: played {first}, answers {:?}",
                        p.answers
                    );
                }
            }
            None => {
                self.nones += 1;
                report(args.quiet, &format!("none {}", t.as_millis()));
            }
        }
    }

    /// Prints the summary of `total` puzzles.
    fn print(&mut self, total: usize) {
        println!("solved {}/{total}", self.wins);
        let times = &mut self.times;
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        let worst = times.last().copied().unwrap_or_default();
        let within = |ms: u64| times.iter().filter(|t| t.as_millis() as u64 <= ms).count();
        println!(
            "none {} unknown {} errors {} mismatches {}; \
             median {:.1} ms, worst {:.1} ms; finished within 100 ms {}, 1 s {}, 5 s {}",
            self.nones,
            self.unknowns,
            self.bad,
            self.mismatches,
            median.as_secs_f64() * 1e3,
            worst.as_secs_f64() * 1e3,
            within(100),
            within(1000),
            within(5000),
        );
        let sizes = &mut self.tree_sizes;
        if !sizes.is_empty() {
            sizes.sort_unstable();
            let total: usize = sizes.iter().sum();
            println!(
                "proof trees: attacker moves median {}, mean {:.1}, largest {}",
                sizes[sizes.len() / 2],
                total as f64 / sizes.len() as f64,
                sizes[sizes.len() - 1]
            );
        }
    }
}

/// A watchdog that raises `stop` when the solving thread has used its CPU time, read from
/// Linux's `/proc/<pid>/task/<tid>/schedstat` (its first field, in nanoseconds).
struct CpuClock {
    path: std::path::PathBuf,
    limit: Duration,
    /// The solving thread's CPU time when the current puzzle started.
    began: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl CpuClock {
    /// Starts the watchdog for the calling thread (None if its CPU time cannot be read).
    fn start(limit: Duration) -> Option<CpuClock> {
        let me = std::fs::read_link("/proc/thread-self").ok()?;
        let path = std::path::Path::new("/proc").join(me).join("schedstat");
        cpu_ns(&path)?;
        let clock = CpuClock {
            path,
            limit,
            began: Arc::new(AtomicU64::new(u64::MAX)),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let (path, began, stop) = (clock.path.clone(), clock.began.clone(), clock.stop.clone());
        let limit = limit.as_nanos() as u64;
        // Detached: it lives as long as the process, polling every millisecond.
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(1));
            let b = began.load(Ordering::Relaxed);
            if b != u64::MAX && cpu_ns(&path).is_some_and(|n| n.saturating_sub(b) >= limit) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        Some(clock)
    }

    /// A puzzle starts now.
    fn begin(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.began
            .store(cpu_ns(&self.path).unwrap_or(0), Ordering::Relaxed);
    }

    /// CPU time since [`CpuClock::begin`].
    fn elapsed(&self) -> Duration {
        let b = self.began.load(Ordering::Relaxed);
        let n = cpu_ns(&self.path).unwrap_or(b).saturating_sub(b);
        Duration::from_nanos(n).min(self.limit * 100)
    }
}

/// The first field of a schedstat file.
fn cpu_ns(path: &std::path::Path) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn report(quiet: bool, s: &str) {
    if !quiet {
        println!("{s}");
    }
}
