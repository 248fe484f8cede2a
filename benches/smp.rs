//! Lazy SMP scaling: time to reach a fixed depth with N = 1, 2 and 4 workers on the bench's
//! freestyle middle-game positions (fresh table and workers per position), and nodes per second.
//!
//! Two parts, both in one `cargo bench --bench smp` run:
//! - an interleaved summary (rounds of N = 1, 2, 4 back to back, so that load from other jobs
//!   hits every N alike), printing the median time to depth, nps, and the N/1 time ratios;
//!   and, since wall time on a loaded machine says little about parallel speed-up, the CPU time
//!   the process used (Linux `/proc/self/stat`), nodes per CPU second (the cost of sharing) and
//!   the CPU time per worker relative to N = 1 (the time ratio N otherwise idle cores would give);
//!   its depth is the first whose search of the set takes one worker at least
//!   `BANGO_SMP_BENCH_SECONDS` (default 3), or `BANGO_SMP_BENCH_DEPTH` when set;
//!   of the freestyle bench positions (the first `BANGO_SMP_BENCH_POSITIONS`, default all 12), it
//!   times those one worker has not proven won or lost by that depth (a proof ends a search
//!   early, so it times a fixed cost); `BANGO_SMP_BENCH_PER_POSITION=1` prints each search;
//!   `BANGO_SMP_BENCH_ROUNDS` (default 3) and `BANGO_SMP_BENCH_HASH_MIB` (default: the brain's
//!   table size) set its size; times count the searches only, not the tables' set-up;
//!   `BANGO_SMP_BENCH_COUNTS` (default `1,2,4`) lists the worker counts, the first being the
//!   base of the ratios; besides the ratio of medians, the median of the per-round ratios is
//!   printed (a round's runs are seconds apart, the rounds minutes, so the paired ratio drifts
//!   less with the machine's load), with the ratio of total times and the geometric mean of the
//!   per-round ratios and its 95% interval; `BANGO_SMP_BENCH_UNCAPPED=1` searches as the brain
//!   plays instead, with no depth cap (so no worker searches the target depth just because it
//!   is the last), each search stopped when any worker first completes the target depth;
//!   the search's own `BANGO_*` switches and tunables apply (e.g. `BANGO_RFP=0`);
//!   for N > 1 it also prints each worker's own nodes as a share of the first count's, and how
//!   many searches answered with that worker's iteration (where the parallel overhead lies);
//! - with `BANGO_SMP_BENCH_THROUGHPUT=1`, first, nodes per second per searching thread of one
//!   search alone, of two independent searches at once (a table each, then one shared table)
//!   and of one N=2 search, interleaved position by position: what two busy threads lose on
//!   this machine before any work is shared, and what sharing adds;
//! - a criterion group `smp/time_to_depth6/{1,2,4}` on the same positions at depth 6.

use bango::front::bench::{positions, BenchPosition};
use bango::game::rules::Rule;
use bango::search::alphabeta::score::is_proven;
use bango::search::alphabeta::{Params, Report};
use bango::search::smp::{Job, LazySmp};
use bango::search::timeman::Plan;
use bango::search::tt::{TranspositionTable, DEFAULT_BYTES};
use criterion::{BenchmarkId, Criterion};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The search's parameters: the defaults, with any `BANGO_*` search variable set in the
/// environment (so that a switched-off feature's scaling can be measured beside the default's).
fn params() -> Params {
    Params::from_vars(&|v| std::env::var(v).ok(), &mut |w| eprintln!("{w}"))
}

/// `cargo bench` passes `--bench`; `cargo test` runs this binary once as a smoke test.
fn benching() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The knob `name`, else its default: under `cargo bench` the bench's, under `cargo test` a
/// size small enough for the test suite (it checks that every part runs, not how fast).
fn env(name: &str, default: usize) -> usize {
    let smoke = match name {
        "BANGO_SMP_BENCH_DEPTH" => 4,
        "BANGO_SMP_BENCH_POSITIONS" => 2,
        "BANGO_SMP_BENCH_ROUNDS" => 1,
        _ => default,
    };
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching() { default } else { smoke })
}

fn set(count: usize) -> Vec<BenchPosition> {
    positions(&bango_testkit::data_dir())
        .expect("shared data")
        .into_iter()
        .filter(|p| p.rule == Rule::Freestyle)
        .take(count)
        .collect()
}

/// The table size: `BANGO_SMP_BENCH_HASH_MIB`, by default the brain's own default size (a small
/// table churns, and churn hurts N > 1 more, since N workers store N times as much).
fn hash_bytes() -> usize {
    env("BANGO_SMP_BENCH_HASH_MIB", DEFAULT_BYTES >> 20) << 20
}

/// What each worker of one [`run`] did: its own nodes, and how many of the searches
/// answered with its iteration.
struct PerWorker {
    nodes: Vec<u64>,
    chosen: Vec<u32>,
}

impl PerWorker {
    /// Nothing done yet by `threads` workers.
    fn new(threads: usize) -> PerWorker {
        PerWorker {
            nodes: vec![0; threads],
            chosen: vec![0; threads],
        }
    }

    /// Adds what the same workers did in another run.
    fn add(&mut self, other: &PerWorker) {
        for (sum, n) in self.nodes.iter_mut().zip(&other.nodes) {
            *sum += n;
        }
        for (sum, c) in self.chosen.iter_mut().zip(&other.chosen) {
            *sum += c;
        }
    }
}

/// What one [`run`] over the set did.
struct Run {
    /// Nodes over every position and worker.
    nodes: u64,
    /// The depth reached, summed over positions.
    depths: u32,
    /// Time inside the searches.
    searching: Duration,
    /// What each worker did.
    per_worker: PerWorker,
    /// Each position's time to the depth (seconds) and score, in the set's order.
    per_position: Vec<(f64, i32)>,
}

/// Searches every position to `depth` with `threads` workers. Each position gets a
/// fresh table and fresh workers, made and dropped outside the timed part: allocating and
/// freeing a table of millions of slots is set-up, the same for every N, and would pull the
/// ratios towards 1.
///
/// Capped, `depth` is every worker's last iteration. `uncapped` searches as the brain plays: no
/// depth cap (so no worker treats `depth` as its last iteration), each search stopped as soon as
/// any worker completes an iteration of at least `depth`, and timed to that moment.
fn run(set: &[BenchPosition], threads: usize, depth: u32, uncapped: bool) -> Run {
    let plan = Plan::UNLIMITED;
    let (mut nodes, mut depths, mut searching) = (0, 0, Duration::ZERO);
    let mut per_worker = PerWorker::new(threads);
    let mut per_position = Vec::with_capacity(set.len());
    for bp in set {
        let tt = TranspositionTable::new(hash_bytes());
        let mut smp = LazySmp::new(threads, params());
        let stop = AtomicBool::new(false);
        let reached = parking_lot::Mutex::new(None);
        let t = Instant::now();
        let report = |r: Report<'_>| {
            let d = match r {
                Report::Iteration { result, .. } => Some(result.depth),
                _ => None,
            };
            if uncapped && d.is_some_and(|d| d >= depth) {
                reached.lock().get_or_insert_with(|| t.elapsed());
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        };
        let job = Job {
            board: &bp.board,
            rule: bp.rule,
            plan: if uncapped {
                plan
            } else {
                plan.with_depth(depth)
            },
            stop: &stop,
            report: &report,
            known: None,
        };
        let r = smp.search(&tt, &job);
        // A proven win ends a search before `depth`: its whole time counts.
        let took = reached.lock().unwrap_or_else(|| t.elapsed());
        searching += took;
        per_position.push((took.as_secs_f64(), r.result.score));
        if env("BANGO_SMP_BENCH_PER_POSITION", 0) != 0 {
            let own: Vec<u64> = r
                .per_worker
                .iter()
                .map(|w| w.as_ref().map_or(0, |w| w.nodes))
                .collect();
            println!(
                "    {:<14} N={threads} {:>7.3} s  depth {:>2}  move {:?}  score {:>6}  worker nodes {own:?}",
                bp.name,
                took.as_secs_f64(),
                r.result.depth,
                r.result.best,
                r.result.score
            );
        }
        nodes += r.result.nodes;
        depths += r.result.depth;
        per_worker.chosen[r.worker] += 1;
        for (sum, w) in per_worker.nodes.iter_mut().zip(&r.per_worker) {
            *sum += w.as_ref().map_or(0, |w| w.nodes);
        }
    }
    Run {
        nodes,
        depths,
        searching,
        per_worker,
        per_position,
    }
}

/// CPU seconds used by this process so far, all threads (exited ones included); Linux only.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of proc(5), utime and stime, in clock ticks (USER_HZ, 100 on Linux).
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn median<T: Copy + PartialOrd>(v: &[T]) -> T {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

/// The geometric mean of `ratios` with a normal-approximation 95% interval (mean of the logs
/// ± 1.96 standard errors): paired ratios are multiplicative, so their logs are what averages.
fn geometric_mean_interval(ratios: &[f64]) -> (f64, f64, f64) {
    let n = ratios.len() as f64;
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let mean = logs.iter().sum::<f64>() / n;
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean.exp(), (mean - half).exp(), (mean + half).exp())
}

/// The worker counts to measure (`BANGO_SMP_BENCH_COUNTS`, default `1,2,4`).
fn counts() -> Vec<usize> {
    let list = std::env::var("BANGO_SMP_BENCH_COUNTS").unwrap_or_else(|_| "1,2,4".into());
    list.split(',')
        .map(|c| {
            c.trim()
                .parse()
                .expect("BANGO_SMP_BENCH_COUNTS: counts like 1,2,4")
        })
        .collect()
}

/// The depth of the interleaved summary and the positions it times.
///
/// The depth: `BANGO_SMP_BENCH_DEPTH` when set (and the smoke test's small one under `cargo
/// test`); else the first depth whose search of the set takes one worker at least
/// `BANGO_SMP_BENCH_SECONDS` (default 3). A fixed depth drifts into measuring fixed costs as
/// the search gets faster; a depth chosen by one worker's time keeps the ratio's meaning (issue
/// 44: two workers take 0.87 of one's time at a depth one worker completes in under a second,
/// 0.63 at one taking it about 4 s).
///
/// The positions: those one worker has not proven won or lost by that depth. A proven position
/// ends its search at the proof, whatever the depth asked, so it times the proof's fixed cost,
/// not the sharing of a deepening search (three of the first six freestyle positions are proven
/// by depth 16, and made the ratio a draw of the other three).
fn summary_depth(set: &[BenchPosition], uncapped: bool) -> (u32, Vec<BenchPosition>) {
    let base = counts()[0];
    // The positions `r` did not prove, and their summed time.
    let unproven = |set: &[BenchPosition], r: &Run| -> (Vec<BenchPosition>, f64) {
        let kept: Vec<(BenchPosition, f64)> = (set.iter().zip(&r.per_position))
            .filter(|(_, &(_, score))| !is_proven(score))
            .map(|(bp, &(t, _))| (bp.clone(), t))
            .collect();
        let took = kept.iter().map(|(_, t)| t).sum();
        (kept.into_iter().map(|(bp, _)| bp).collect(), took)
    };
    if !benching() {
        return (env("BANGO_SMP_BENCH_DEPTH", 7) as u32, set.to_vec());
    }
    if std::env::var("BANGO_SMP_BENCH_DEPTH").is_ok() {
        let depth = env("BANGO_SMP_BENCH_DEPTH", 7) as u32;
        let (live, _) = unproven(set, &run(set, base, depth, uncapped));
        return (depth, live);
    }
    let target: f64 = std::env::var("BANGO_SMP_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let mut live = set.to_vec();
    for depth in 4..=40 {
        let (kept, took) = unproven(&live, &run(&live, base, depth, uncapped));
        live = kept;
        if took >= target || depth == 40 || live.is_empty() {
            println!(
                "depth {depth} takes N={base} {took:.2} s on the {} positions it has not proven (target {target} s)",
                live.len()
            );
            return (depth, live);
        }
    }
    unreachable!()
}

fn interleaved() {
    let rounds = env("BANGO_SMP_BENCH_ROUNDS", 3);
    let counts = counts();
    let uncapped = env("BANGO_SMP_BENCH_UNCAPPED", 0) != 0;
    let (depth, set) = summary_depth(&set(env("BANGO_SMP_BENCH_POSITIONS", 12)), uncapped);
    let names: Vec<&str> = set.iter().map(|bp| bp.name.as_str()).collect();
    println!("positions: {}", names.join(" "));
    // Each position's time by round, per count: the per-position ratios weigh every position
    // alike, where the set's total is mostly its longest search.
    let mut position_times = vec![Vec::new(); counts.len()];
    let mut times = vec![Vec::new(); counts.len()];
    let mut nodes = vec![0u64; counts.len()];
    let mut cpu = vec![0f64; counts.len()];
    let mut workers: Vec<PerWorker> = counts.iter().map(|&n| PerWorker::new(n)).collect();
    for _ in 0..rounds {
        for (k, &n) in counts.iter().enumerate() {
            let c = cpu_seconds();
            let Run {
                nodes: sum,
                depths,
                searching,
                per_worker,
                per_position,
            } = run(&set, n, depth, uncapped);
            position_times[k].extend(per_position.iter().map(|&(t, _)| t));
            workers[k].add(&per_worker);
            // A proven score ends a search before the cap; N workers may prove it earlier.
            assert!(uncapped || depths <= depth * set.len() as u32);
            times[k].push(searching.as_secs_f64());
            if let (Some(a), Some(b)) = (c, cpu_seconds()) {
                cpu[k] += b - a;
            }
            nodes[k] += sum;
        }
    }
    let base = median(&times[0]);
    println!(
        "smp time to depth {depth}{}, {} positions, {rounds} interleaved rounds, ratios against {}:",
        if uncapped { " (uncapped searches)" } else { "" },
        set.len(),
        counts[0]
    );
    let base_total: f64 = times[0].iter().sum();
    for (k, &n) in counts.iter().enumerate() {
        let total: f64 = times[k].iter().sum();
        let per_round: Vec<f64> = (0..rounds).map(|r| times[k][r] / times[0][r]).collect();
        let (geo, low, high) = geometric_mean_interval(&per_round);
        println!(
            "  N={n}: median {:>7.3} s  ratio {:.3}  per-round ratio {:.3}  nodes/round {:>9}  nps {:>8}",
            median(&times[k]),
            median(&times[k]) / base,
            median(&per_round),
            nodes[k] / rounds as u64,
            (nodes[k] as f64 / total) as u64
        );
        if k > 0 {
            println!(
                "  N={n}: total time ratio {:.3}  geometric mean of per-round ratios {geo:.3} (95% interval {low:.3} to {high:.3})",
                total / base_total
            );
            let per_position: Vec<f64> = (position_times[k].iter())
                .zip(&position_times[0])
                .map(|(t, base)| t / base)
                .collect();
            let (geo, low, high) = geometric_mean_interval(&per_position);
            println!(
                "  N={n}: geometric mean of per-position ratios {geo:.3} (95% interval {low:.3} to {high:.3}, {} searches)",
                per_position.len()
            );
        }
    }
    // Each worker's share of the work: its own nodes against the first count's total (with N = 1
    // first, 0.5 per worker would be a perfect split), and how often its iteration was chosen.
    for (k, &n) in counts.iter().enumerate().filter(|&(_, &n)| n > 1) {
        let searches = rounds * set.len();
        let shares: Vec<String> = (0..n)
            .map(|w| {
                format!(
                    "worker {w} {:.3} of N={}'s nodes, chosen {}/{searches}",
                    workers[k].nodes[w] as f64 / nodes[0].max(1) as f64,
                    counts[0],
                    workers[k].chosen[w]
                )
            })
            .collect();
        println!("  N={n}: {}", shares.join("; "));
    }
    if cpu[0] > 0.0 {
        for (k, &n) in counts.iter().enumerate() {
            println!(
                "  N={n}: cpu {:>7.2} s/round  nodes per cpu s {:>8}  cpu per worker vs first {:.3}",
                cpu[k] / rounds as f64,
                (nodes[k] as f64 / cpu[k]) as u64,
                cpu[k] / n as f64 / cpu[0] * counts[0] as f64
            );
        }
    }
}

/// How two searching threads fare against one, before any question of sharing work.
#[derive(Clone, Copy)]
enum Pairing {
    /// One one-worker search on its own.
    Alone,
    /// Two one-worker searches at once on two threads, a table each: they share nothing but
    /// the process and the machine.
    TwoTables,
    /// Two one-worker searches at once sharing one table.
    OneTable,
    /// One lazy SMP search with two workers.
    Smp2,
}

/// Nodes and the searching threads' summed time of `bp` searched to `depth` under `pairing`.
fn paired_search(bp: &BenchPosition, pairing: Pairing, depth: u32) -> (u64, f64) {
    let one = |tt: &TranspositionTable, threads: usize| {
        let mut smp = LazySmp::new(threads, params());
        let stop = AtomicBool::new(false);
        let job = Job {
            board: &bp.board,
            rule: bp.rule,
            plan: Plan::depth(depth),
            stop: &stop,
            report: &|_| {},
            known: None,
        };
        let t = Instant::now();
        let nodes = smp.search(tt, &job).result.nodes;
        (nodes, t.elapsed().as_secs_f64() * threads as f64)
    };
    let tt = TranspositionTable::new(hash_bytes());
    let both = |second: &TranspositionTable| {
        std::thread::scope(|s| {
            let other = s.spawn(|| one(second, 1));
            let (n, t) = one(&tt, 1);
            let (m, u) = other.join().expect("no panic");
            (n + m, t + u)
        })
    };
    match pairing {
        Pairing::Alone => one(&tt, 1),
        Pairing::TwoTables => both(&TranspositionTable::new(hash_bytes())),
        Pairing::OneTable => both(&tt),
        Pairing::Smp2 => one(&tt, 2),
    }
}

/// `BANGO_SMP_BENCH_THROUGHPUT=1`: nodes per second per searching thread under each
/// [`Pairing`], every position searched under all four in turn so that the machine's drift
/// hits them alike. Splits the N=2 slowdown into what two busy threads lose on this machine
/// with nothing shared (two tables), what sharing the table adds (one table), and what the
/// workers' coordination adds (N=2). The two searches of a pair start together but rarely end
/// together, so the last stretch of the longer one runs alone: the pairs' losses are, if
/// anything, understated.
fn throughput(set: &[BenchPosition], depth: u32, rounds: usize) {
    let pairings = [
        ("alone", Pairing::Alone),
        ("two tables", Pairing::TwoTables),
        ("one table", Pairing::OneTable),
        ("N=2", Pairing::Smp2),
    ];
    let mut sums = [(0u64, 0f64); 4];
    for _ in 0..rounds {
        for bp in set {
            for (sum, &(_, pairing)) in sums.iter_mut().zip(&pairings) {
                let (nodes, secs) = paired_search(bp, pairing, depth);
                sum.0 += nodes;
                sum.1 += secs;
            }
        }
    }
    let nps: Vec<f64> = sums.iter().map(|&(n, t)| n as f64 / t).collect();
    let line: Vec<String> = pairings
        .iter()
        .zip(&nps)
        .map(|(&(name, _), &v)| format!("{name} {:.0} ({:.3})", v, v / nps[0]))
        .collect();
    println!(
        "smp throughput at depth {depth}, {rounds} rounds, nodes per second per thread (against alone): {}",
        line.join("  ")
    );
}

fn main() {
    if env("BANGO_SMP_BENCH_THROUGHPUT", 0) != 0 {
        throughput(
            &set(env("BANGO_SMP_BENCH_POSITIONS", 6)),
            env("BANGO_SMP_BENCH_DEPTH", 7) as u32,
            env("BANGO_SMP_BENCH_ROUNDS", 3),
        );
    }
    interleaved();
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let set = set(env("BANGO_SMP_BENCH_POSITIONS", 6));
    let depth = if benching() { 6 } else { 4 };
    let mut group = c.benchmark_group("smp");
    for n in [1usize, 2, 4] {
        group.bench_with_input(BenchmarkId::new("time_to_depth6", n), &n, |b, &n| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| run(&set, n, depth, false).searching)
                    .sum()
            })
        });
    }
    group.finish();
    c.final_summary();
}
