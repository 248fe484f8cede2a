//! What a search tells the world while it runs, as data: each completed iteration (with every
//! principal variation it computed) and, for the first variation, what happens at the root
//! (a move entered, left, found best, proven lost). The layers above decide what to print:
//! the protocol turns these into `MESSAGE` and `INFO` lines, the bench into measurements.

use super::{format_score, SearchResult};
use crate::game::board::Pos;
use std::time::Duration;

/// One principal variation of a completed iteration (multi-PV searches have several).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score of its first move, from the side to move's view.
    pub score: i32,
    /// The moves, its first move first.
    pub pv: Vec<Pos>,
    /// The deepest ply reached while searching it.
    pub seldepth: u32,
    /// Nodes spent on its first move in this iteration.
    pub nodes: u64,
}

/// What happened to a root move of the first principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEventKind {
    /// The search entered the move.
    Enter,
    /// The search left the move (its subtree is done).
    Leave,
    /// The move became the best so far.
    Best,
    /// The move was proven to lose.
    Lost,
}

/// A root event of the iteration at `depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootEvent {
    /// What happened.
    pub kind: RootEventKind,
    /// The root move.
    pub mv: Pos,
    /// The iteration's depth.
    pub depth: u32,
}

/// A report of a running search, with the time since it started.
#[derive(Clone, Copy, Debug)]
pub enum Report<'a> {
    /// An iteration completed; `nodes` counts every worker's nodes so far.
    Iteration {
        /// The iteration, as the search would answer now.
        result: &'a SearchResult,
        /// Nodes of every worker so far.
        nodes: u64,
        /// Time since the search started.
        elapsed: Duration,
    },
    /// A root event of the first principal variation.
    Root {
        /// The event.
        event: RootEvent,
        /// Time since the search started.
        elapsed: Duration,
    },
    /// The search ended with `result` (nodes summed over `workers` workers), chosen from worker
    /// `worker`; `panicked` lists workers that failed.
    Finished {
        /// The answer.
        result: &'a SearchResult,
        /// Workers that searched.
        workers: usize,
        /// The worker whose iteration was chosen.
        worker: usize,
        /// Workers that panicked.
        panicked: &'a [usize],
        /// Time since the search started.
        elapsed: Duration,
    },
}

impl Report<'_> {
    /// The one-line log of an iteration (`depth D score S nodes N nps X time T pv ...`) or of
    /// the end of a search of several workers (`smp workers N depth ... worker W pv ...`);
    /// `None` for root events and for the end of a single-worker search (its last iteration
    /// line says it all). Without `clock`, time and speed print as 0, so that a deterministic
    /// search logs the same lines on every run.
    pub fn log_line(&self, clock: bool) -> Option<String> {
        let timing = |nodes: u64, elapsed: Duration| {
            let ms = if clock { elapsed.as_millis() as u64 } else { 0 };
            let nps = if clock { nodes * 1000 / ms.max(1) } else { 0 };
            (ms, nps)
        };
        let pv = |r: &SearchResult| {
            let moves: Vec<String> = r.pv.iter().map(|p| p.to_string()).collect();
            moves.join(" ")
        };
        match *self {
            Report::Iteration {
                result,
                nodes,
                elapsed,
            } => {
                let (ms, nps) = timing(nodes, elapsed);
                Some(format!(
                    "depth {} score {} nodes {nodes} nps {nps} time {ms} pv {}",
                    result.depth,
                    format_score(result.score),
                    pv(result)
                ))
            }
            Report::Finished {
                result,
                workers,
                worker,
                panicked,
                elapsed,
            } if workers > 1 => {
                let (ms, nps) = timing(result.nodes, elapsed);
                let panicked = if panicked.is_empty() {
                    String::new()
                } else {
                    format!(" panicked {panicked:?}")
                };
                Some(format!(
                    "smp workers {workers} depth {} score {} nodes {} nps {nps} time {ms} \
                     worker {worker}{panicked} pv {}",
                    result.depth,
                    format_score(result.score),
                    result.nodes,
                    pv(result)
                ))
            }
            Report::Finished { .. } | Report::Root { .. } => None,
        }
    }
}
