//! The bench: a fixed-depth search of a fixed set of positions with one worker and a fixed
//! table size, whose total node count is the *signature* (`pbrain-bango bench` prints it).
//!
//! The signature is the gate for search changes, as in chess engines: a refactor must leave it
//! unchanged; a change that moves it must be judged by games. It depends only on the positions,
//! the depth, the table size, the code and the search [`Params`] (the command passes the
//! configured ones, so that a switch's cost can be measured), never on the machine or the clock.
//!
//! The speed (`nps`) counts the time inside the searches only: each position gets a
//! fresh table, and allocating and dropping it is set-up, not search.
//!
//! [`timed`] searches a position for a fixed time instead and reports the depth reached, the
//! branching factor and when each iteration completed: the machine's clock decides these, so
//! they are measurements, never a gate.
//!
//! Positions: every fifth line of `positions-midgame-15.txt` (freestyle), a few of the same
//! positions under standard and caro, and renju openings from `openings-renju-15.txt`.

use crate::game::board::{Board, Pos};
use crate::game::notation::{self, Puzzle};
use crate::game::rules::Rule;
use crate::search::alphabeta::{Context, CutCounts, Params, SearchResult, Worker};
use crate::search::timeman::Plan;
use crate::search::tt::TranspositionTable;
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

/// The fixed bench set, read from the shared data folder `dir`.
pub fn positions(dir: &std::path::Path) -> Result<Vec<BenchPosition>, String> {
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

/// The search of one bench position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReport {
    /// Nodes searched.
    pub nodes: u64,
    /// Time inside the search, in microseconds.
    pub us: u64,
    /// Depth completed.
    pub depth: u32,
    /// The move found.
    pub best: Pos,
    /// Its score.
    pub score: i32,
}

/// The outcome of one bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Each position's search, in the set's order.
    pub positions: Vec<PositionReport>,
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Wall time in milliseconds, table set-up included.
    pub ms: u64,
    /// Time inside the searches only, in microseconds (the speed figure: allocating and
    /// dropping a fresh table per position is not search work).
    pub search_us: u64,
    /// Beta cut-offs over all positions, and how many the first move searched made (the
    /// move order at the same fixed depth).
    pub cuts: CutCounts,
}

/// Searches every position to `depth` with a fresh `hash_mib` table and a fresh worker with
/// `params` each.
pub fn run(set: &[BenchPosition], depth: u32, hash_mib: usize, params: Params) -> BenchReport {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let mut positions = Vec::with_capacity(set.len());
    let mut cuts = CutCounts::default();
    for bp in set {
        let tt = TranspositionTable::new(hash_mib << 20);
        let mut worker = Worker::new(0, params);
        let ctx = Context {
            tt: &tt,
            stop: &stop,
            plan: Plan::depth(depth),
            known: None,
        };
        let t = Instant::now();
        let r = worker.search(&ctx, &bp.board, bp.rule);
        let c = worker.cut_counts();
        cuts.all += c.all;
        cuts.first += c.first;
        positions.push(PositionReport {
            nodes: r.nodes,
            us: t.elapsed().as_micros() as u64,
            depth: r.depth,
            best: r.best,
            score: r.score,
        });
    }
    BenchReport {
        nodes: positions.iter().map(|p| p.nodes).sum(),
        search_us: positions.iter().map(|p| p.us).sum(),
        positions,
        ms: started.elapsed().as_millis() as u64,
        cuts,
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

/// Searches `bp` for `ms` milliseconds (fresh table and worker with `params`) and reports how
/// deep it got.
pub fn timed(bp: &BenchPosition, ms: u64, hash_mib: usize, params: Params) -> TimedReport {
    let tt = TranspositionTable::new(hash_mib << 20);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    // The deadline alone: every iteration that starts may finish before it.
    let plan = Plan {
        hard: Some(started + std::time::Duration::from_millis(ms)),
        ..Plan::UNLIMITED
    };
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        plan,
        known: None,
    };
    // One (cumulative nodes, elapsed ms) pair per completed iteration.
    let per_depth = std::sync::Mutex::new(Vec::new());
    let progress = IterationTimes {
        started,
        per_depth: &per_depth,
    };
    let r = Worker::new(0, params).search_with(&ctx, &bp.board, bp.rule, &progress);
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

/// Records the cumulative nodes and the elapsed milliseconds of each completed iteration.
struct IterationTimes<'a> {
    started: Instant,
    per_depth: &'a std::sync::Mutex<Vec<(u64, u64)>>,
}

impl crate::search::alphabeta::Progress for IterationTimes<'_> {
    fn iteration(&self, result: &SearchResult) {
        let ms = self.started.elapsed().as_millis() as u64;
        self.per_depth.lock().unwrap().push((result.nodes, ms));
    }

    fn nodes(&self, _: u64) {}
}
