//! `pbrain-bango bench`: a fixed-depth search of a fixed set of positions with one worker and a
//! fixed table size, printing the total node count (the *signature*) and the speed.
//!
//! The signature is the gate for search changes, as in chess engines: a refactor must leave it
//! unchanged; a change that moves it must be judged by games. It depends only on the positions,
//! the depth, the table size, the code and the `BANGO_*` search switches ([`Params::from_env`],
//! so that a switch's cost can be measured), never on the machine or the clock.
//!
//! The speed printed (`nps`) counts the time inside the searches only: each position gets a
//! fresh table, and allocating and dropping it is set-up, not search.
//!
//! `--movetime MS` searches the middle games for a fixed time each instead ([`timed`]) and
//! prints the depth reached, the branching factor and when each of [`REFERENCE_DEPTHS`]
//! completed: the machine's clock decides these, so they are measurements, never a gate.
//!
//! Positions: every fifth line of `positions-midgame-15.txt` (freestyle), a few of the same
//! positions under standard and caro, and renju openings from `openings-renju-15.txt`.

use crate::board::Board;
use crate::notation::{self, Puzzle};
use crate::rules::Rule;
use crate::search::{format_score, Caps, Params, Shared, Worker};
use crate::timeman::Plan;
use crate::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Default search depth.
pub const DEFAULT_DEPTH: u32 = 7;
/// Default table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// One bench position.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// A label for the report.
    pub name: String,
    /// The board, side to move set.
    pub board: Board,
    /// The rule.
    pub rule: Rule,
}

/// The fixed bench set, read from the shared data folder.
pub fn positions() -> Result<Vec<BenchPosition>, String> {
    let dir = notation::data_dir();
    let read = |f: &str| {
        std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{}: {e}", dir.join(f).display()))
    };
    let mid = notation::parse_puzzles(&read("positions-midgame-15.txt")?)?;
    let mut out = Vec::new();
    for (i, p) in mid.iter().enumerate().filter(|(i, _)| i % 5 == 0) {
        out.push(BenchPosition {
            name: format!("midgame-{i}"),
            board: p.board()?,
            rule: Rule::Freestyle,
        });
    }
    for rule in [Rule::Standard, Rule::Caro] {
        for i in [7usize, 33] {
            let p: &Puzzle = mid.get(i).ok_or("too few midgame positions")?;
            out.push(BenchPosition {
                name: format!("midgame-{i}-{rule}"),
                board: p.board()?,
                rule,
            });
        }
    }
    let renju = read("openings-renju-15.txt")?;
    let openings: Vec<_> = renju
        .lines()
        .filter_map(|l| notation::parse_opening(l, 15).transpose())
        .collect::<Result<_, _>>()?;
    for i in [0usize, 13] {
        let o = openings.get(i).ok_or("too few renju openings")?;
        out.push(BenchPosition {
            name: format!("renju-opening-{i}"),
            board: notation::opening_board(o, 15)?,
            rule: Rule::Renju,
        });
    }
    Ok(out)
}

/// The outcome of one bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Wall time in milliseconds, table set-up included.
    pub ms: u64,
    /// Time inside the searches only, in microseconds (the speed figure: allocating and
    /// dropping a fresh table per position is not search work).
    pub search_us: u64,
}

/// Searches every position to `depth` with a fresh `hash_mib` table and a fresh worker each,
/// printing one line per position when `verbose`.
pub fn run(set: &[BenchPosition], depth: u32, hash_mib: usize, verbose: bool) -> BenchReport {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let mut search_us = 0;
    for bp in set {
        let tt = TranspositionTable::new(hash_mib << 20);
        let mut worker = Worker::new(0, Params::from_env());
        let shared = Shared {
            tt: &tt,
            stop: &stop,
            plan: Plan::UNLIMITED,
        };
        let t = Instant::now();
        let caps = Caps {
            max_depth: depth,
            ..Caps::default()
        };
        let r = worker.search(&shared, &bp.board, bp.rule, caps, &|_| {});
        search_us += t.elapsed().as_micros() as u64;
        nodes += r.nodes;
        if verbose {
            println!(
                "{:<24} {:>9} nodes {:>6} ms  depth {:>2}  best {:<6} score {}",
                bp.name,
                r.nodes,
                t.elapsed().as_millis(),
                r.depth,
                r.best.to_string(),
                format_score(r.score)
            );
        }
    }
    BenchReport {
        nodes,
        ms: started.elapsed().as_millis() as u64,
        search_us,
    }
}

/// Depth reached, nodes and effective branching factor of one timed search.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedReport {
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub ms: u64,
    /// Geometric mean of the node-count ratio of successive completed iterations (from depth 3).
    pub ebf: f64,
    /// Milliseconds from the start to the completion of each iteration (`[d - 1]` for depth
    /// `d`), so the time to any depth reached can be read off one search.
    pub completed_ms: Vec<u64>,
}

impl TimedReport {
    /// Milliseconds to complete depth `d`, if it was completed.
    pub fn time_to(&self, d: u32) -> Option<u64> {
        self.completed_ms.get((d as usize).checked_sub(1)?).copied()
    }
}

/// The depths whose completion times the timed bench prints: the reference Go engine completed
/// depth 12 in about 0.55 s and depth 14 in about 2.8 s on a 15x15 middle game (issue 4).
pub const REFERENCE_DEPTHS: [u32; 2] = [12, 14];

/// Searches `bp` for `ms` milliseconds (fresh table and worker) and reports how deep it got.
pub fn timed(bp: &BenchPosition, ms: u64, hash_mib: usize) -> TimedReport {
    let tt = TranspositionTable::new(hash_mib << 20);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let limits = crate::limits::Limits {
        started,
        ..crate::limits::Limits::new(crate::limits::TimeControl {
            turn_ms: None,
            match_ms: None,
            left_ms: None,
        })
    };
    let mut plan = crate::timeman::plan(&limits);
    plan.hard = Some(started + std::time::Duration::from_millis(ms));
    let shared = Shared {
        tt: &tt,
        stop: &stop,
        plan,
    };
    // One (cumulative nodes, elapsed ms) pair per completed iteration, read off its line.
    let per_depth = std::sync::Mutex::new(Vec::new());
    let out = |line: &str| {
        let w: Vec<&str> = line.split_whitespace().collect();
        let field = |name: &str| {
            let i = w.iter().position(|&x| x == name)?;
            w.get(i + 1)?.parse::<u64>().ok()
        };
        if let (Some(n), Some(ms)) = (field("nodes"), field("time")) {
            per_depth.lock().unwrap().push((n, ms));
        }
    };
    let r = Worker::new(0, Params::from_env()).search(
        &shared,
        &bp.board,
        bp.rule,
        Caps::default(),
        &out,
    );
    let (cum, completed_ms): (Vec<u64>, Vec<u64>) =
        per_depth.into_inner().unwrap().into_iter().unzip();
    // Nodes of iteration d alone = cumulative(d) - cumulative(d-1).
    let iter: Vec<f64> = cum
        .iter()
        .enumerate()
        .map(|(i, &n)| (n - if i > 0 { cum[i - 1] } else { 0 }) as f64)
        .collect();
    let ratios: Vec<f64> = iter
        .windows(2)
        .skip(1)
        .filter(|w| w[0] > 0.0)
        .map(|w| w[1] / w[0])
        .collect();
    let ebf = if ratios.is_empty() {
        0.0
    } else {
        ratios
            .iter()
            .map(|r| r.ln())
            .sum::<f64>()
            .exp()
            .powf(1.0 / ratios.len() as f64)
    };
    TimedReport {
        depth: r.depth,
        nodes: r.nodes,
        ms: started.elapsed().as_millis() as u64,
        ebf,
        completed_ms,
    }
}

const USAGE: &str =
    "usage: pbrain-bango bench [--depth N] [--hash MIB] [--quiet] [--movetime MS [--count N]]";

/// `pbrain-bango bench ...`; returns the process exit code.
pub fn cli(args: &[String]) -> u8 {
    let mut depth = DEFAULT_DEPTH;
    let mut hash = DEFAULT_HASH_MIB;
    let mut verbose = true;
    let mut movetime = None;
    let mut count = 10;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |what: &str| -> Option<usize> {
            let v = it.next().and_then(|v| v.parse().ok());
            if v.is_none() {
                eprintln!("{what} needs a number\n{USAGE}");
            }
            v
        };
        match a.as_str() {
            "--depth" => match num("--depth") {
                Some(d) => depth = d as u32,
                None => return 2,
            },
            "--hash" => match num("--hash") {
                Some(h) => hash = h,
                None => return 2,
            },
            "--quiet" => verbose = false,
            "--movetime" => match num("--movetime") {
                Some(m) => movetime = Some(m as u64),
                None => return 2,
            },
            "--count" => match num("--count") {
                Some(c) => count = c,
                None => return 2,
            },
            _ => {
                eprintln!("unknown option {a:?}\n{USAGE}");
                return 2;
            }
        }
    }
    let set = match positions() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("bench: {e}");
            return 1;
        }
    };
    if let Some(ms) = movetime {
        // Timed mode: the first `count` midgame positions, depth reached within `ms` each.
        let (mut depths, mut nodes, mut time, mut ebfs) = (0u64, 0u64, 0u64, Vec::new());
        let mut reference_times = vec![Vec::new(); REFERENCE_DEPTHS.len()];
        let mids: Vec<_> = set
            .iter()
            .filter(|p| p.rule == Rule::Freestyle)
            .take(count)
            .collect();
        for bp in &mids {
            let r = timed(bp, ms, hash);
            let mut to_reference = String::new();
            for (times, &d) in reference_times.iter_mut().zip(&REFERENCE_DEPTHS) {
                let t = r.time_to(d);
                to_reference += &format!(
                    "  depth {d} at {:>5}",
                    t.map_or("-".to_string(), |t| format!("{t} ms"))
                );
                times.extend(t);
            }
            println!(
                "{:<24} depth {:>2} nodes {:>9} time {:>5} ms nps {:>8} ebf {:.2}{to_reference}",
                bp.name,
                r.depth,
                r.nodes,
                r.ms,
                r.nodes * 1000 / r.ms.max(1),
                r.ebf
            );
            depths += r.depth as u64;
            nodes += r.nodes;
            time += r.ms;
            if r.ebf > 0.0 {
                ebfs.push(r.ebf);
            }
        }
        println!(
            "positions {} movetime {ms} ms: mean depth {:.1}, nps {}, mean ebf {:.2}",
            mids.len(),
            depths as f64 / mids.len() as f64,
            nodes * 1000 / time.max(1),
            ebfs.iter().sum::<f64>() / ebfs.len().max(1) as f64
        );
        for (times, &d) in reference_times.iter_mut().zip(&REFERENCE_DEPTHS) {
            times.sort_unstable();
            println!(
                "depth {d} completed on {} of {} positions{}",
                times.len(),
                mids.len(),
                if times.is_empty() {
                    String::new()
                } else {
                    format!(", times {times:?} ms, median {} ms", times[times.len() / 2])
                }
            );
        }
        return 0;
    }
    let r = run(&set, depth, hash, verbose);
    println!("positions {} depth {depth} hash {hash} MiB", set.len());
    println!("nodes {}", r.nodes);
    println!("time {} ms (searching {} ms)", r.ms, r.search_us / 1000);
    println!("nps {}", r.nodes * 1_000_000 / r.search_us.max(1));
    println!("signature {}", r.nodes);
    0
}
