//! The alpha-beta search: negamax with principal variation search, iterative deepening,
//! aspiration windows, a quiescence search on fours, optional extensions of forced replies,
//! late move reductions (by lateness and by how far the move policy rates a move below the
//! best), move-count pruning, killers and history, over the incrementally evaluated
//! [`crate::evaluation::position::Position`].
//!
//! # Files
//! - [`score`]: the win scale and the table's re-basing of win scores.
//! - [`params`]: the switches and tunables, each declared once.
//! - `run`: one search's state (`Run`) and the checks every node makes.
//! - `worker`: the persistent [`Worker`]; iterative deepening and aspiration.
//! - `root`: the root move list (hints, rotation) and the root's iteration.
//! - `node`: the node function, in numbered steps.
//! - `history`: what a worker learns about quiet moves (history, counter moves).
//! - `movepick`: move ordering and the move loop that the root and every node share (busy-move
//!   deferral, reductions, the principal-variation re-search, the bound and store).
//! - `qsearch`: the quiescence search.
//! - [`report`]: what a running search reports (iterations, principal variations, root events).
//!
//! # Shape (built for lazy SMP)
//! Shared, read-mostly state lives in the [`Context`]: the transposition table, the `stop` flag
//! and the [`Plan`] (deadlines, depth and node caps). Everything a thread mutates lives in its [`Worker`]
//! (history, which survives between moves of a game) and in the per-search state (its own
//! position copy, killers, principal variations, node count). N workers can therefore search
//! one position at once, each with its own `Worker`, borrowing the same `Context`; worker `i`
//! rotates its root move order by `i`, and workers given the shared busy-move marks
//! ([`Worker::set_busy`], see [`crate::search::busy`]) put off a move another worker is searching (at the
//! root and at inner nodes of remaining depth at least [`Params::defer_min_depth`]), so the
//! threads spread out over moves. Worker 0 with a fixed depth or node budget is deterministic:
//! same position, same move, score and node count.
//!
//! # Scores
//! From the side to move's view; see [`score`].

use crate::game::board::Pos;
use crate::search::known::KnownPositions;
use crate::search::timeman::Plan;
use crate::search::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

mod history;
mod movepick;
mod node;
pub mod params;
mod qsearch;
pub mod report;
mod root;
mod run;
pub mod score;
mod worker;

pub use params::Params;
pub use report::{Line, Report, RootEvent, RootEventKind};
pub use run::CutCounts;
pub use score::{format_score, win_rate, INF, WIN, WIN_MIN};
pub use worker::Worker;

/// The deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// The deepest iteration (the plan's depth cap, when it has one, applies below this).
pub const MAX_DEPTH: u32 = (MAX_PLY / 2) as u32;

/// What every worker of one search shares: the table, the stop flag and the plan.
pub struct Context<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Raised when the move must be answered now.
    pub stop: &'a AtomicBool,
    /// The deadlines and the depth and node caps (each worker's, for the node cap).
    pub plan: Plan,
    /// Positions whose value is known beforehand (an analyst's database), read like table
    /// entries that are never overwritten; `None` in play.
    pub known: Option<&'a KnownPositions>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Pos,
    /// Its score (0 when no iteration completed).
    pub score: i32,
    /// The last completed iteration (0 = none; the move is the top of the ladder).
    pub depth: u32,
    /// The deepest ply the first principal variation's search reached in that iteration.
    pub seldepth: u32,
    /// Nodes searched, abandoned iteration included.
    pub nodes: u64,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<Pos>,
    /// Every principal variation of that iteration, best first (one unless more were asked
    /// for with [`RootOptions::lines`]).
    pub lines: Vec<Line>,
}

impl SearchResult {
    /// The answer before any iteration completed: `mv` (the top of the threat ladder), unscored.
    pub fn unsearched(mv: Pos) -> SearchResult {
        SearchResult {
            best: mv,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            pv: vec![mv],
            lines: Vec::new(),
        }
    }
}

/// Receives a worker's progress while it searches: the hook through which lazy SMP aggregates
/// its workers. Calls come from the searching thread only.
pub trait Progress {
    /// An iteration completed; `result` is as [`Worker::search`] would return it now.
    fn iteration(&self, result: &SearchResult);
    /// The worker has searched `nodes` nodes so far (called every few hundred nodes).
    fn nodes(&self, nodes: u64);
    /// Something happened at the root of the first principal variation.
    fn root(&self, event: RootEvent) {
        let _ = event;
    }
}

/// No progress hook (the single-worker search).
struct Silent;

impl Progress for Silent {
    fn iteration(&self, _: &SearchResult) {}
    fn nodes(&self, _: u64) {}
}

/// How the next search treats its root: which moves it considers and in what order (opening
/// book, opening prior, proofs, moves an analyst blocked), and how many best lines it computes.
/// The default changes nothing, so the search stays value-preserving without options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RootOptions {
    /// Searched first, in this order (ahead of the table move); the search still decides.
    pub first: Vec<Pos>,
    /// Left out of the root, unless that would leave no move.
    pub skip: Vec<Pos>,
    /// When not empty, the root keeps only these moves (unless none of them is generated).
    pub only: Vec<Pos>,
    /// Principal variations to compute (multi-PV); 0 and 1 mean one. The first is searched as
    /// usual; each next one is the best of the moves not already in a line.
    pub lines: usize,
    /// Every candidate move at the root, without the threat pruning that keeps only defences
    /// against an open three (defence analysis: which moves hold).
    pub every_move: bool,
}
