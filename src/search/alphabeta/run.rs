//! The state of one search by one worker ([`Run`]): its own position copy, the per-ply stack
//! (killers, principal variation, move buffers), the root move list, the node count and the
//! cut-off counts, with the checks every node makes (the poll, the static evaluation, the
//! positions the threats decide). The root, the node function, the move loop, the quiescence
//! search and the worker's iterative deepening are all methods of it, each in its own file.

use super::history::History;
use super::score::win_in;
use super::{Context, Params, Progress, RootOptions, MAX_PLY};
use crate::evaluation::movegen::{self, Move};
use crate::evaluation::position::Position;
use crate::game::board::Pos;
use crate::game::pattern::Threat;
use crate::game::rules::Rule;
use crate::search::busy::BusyMoves;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Nodes between two reads of the clock and the stop flag (a power of two).
const POLL_NODES: u64 = 256;

/// Beta cut-offs of the node function, counted over a worker's searches: how often the first
/// move searched is the one that cuts (the quality of the move order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutCounts {
    /// Every cut-off at a node of the main search below the root (not the quiescence).
    pub all: u64,
    /// Those by the first move searched.
    pub first: u64,
}

/// A root move with its last score and principal variation.
pub(super) struct RootMove {
    /// The move as generated (rank and value keep their meaning for the move loop).
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Pos>,
    /// The deepest ply reached by the search of the line it leads (when it leads one).
    pub seldepth: u32,
    /// Nodes spent on it in the current iteration.
    pub nodes: u64,
}

/// The best move found so far by the iteration in progress (first line only): a root move
/// whose search ended above the window's lower bound, so it is at least as good as every move
/// searched before it at this depth. If the iteration is abandoned, it is still better evidence
/// than the last completed iteration whenever it is not that iteration's move.
#[derive(Clone, Debug)]
pub(super) struct IterationBest {
    /// The depth of the iteration that found it.
    pub depth: i32,
    pub mv: Pos,
    /// Its score: exact, or a lower bound when it failed high.
    pub score: i32,
    pub pv: Vec<Pos>,
}

/// What the search keeps per ply.
pub(super) struct Frame {
    /// Quiet moves that cut off at this ply, most recent first.
    pub killers: [Option<Pos>; 2],
    /// The node's static evaluation (side to move's view), kept for the nodes two plies
    /// down to tell whether the side to move is improving.
    pub static_eval: i32,
    /// The node's opponent has a five to make: the move that led here was a four (or the
    /// node is lost).
    pub after_four: bool,
    /// The side to move evaluates better than at its last turn (two plies up).
    pub improving: bool,
    /// A cut node whose evaluation beats beta by the fail-high margin: its moves below an own
    /// four are searched a ply shallower ([`super::Params::fail_high_reduction`]).
    pub likely_fail_high: bool,
    /// The principal variation from this ply: `pv[ply..pv_len]`.
    pub pv: [Pos; MAX_PLY + 2],
    /// Where this ply's principal variation ends.
    pub pv_len: usize,
    /// The node's move list (kept to reuse its allocation).
    pub moves: Vec<Move>,
    /// Moves put off because another worker was searching them: the move, its place in the
    /// ordered list, and whether it may be reduced.
    pub deferred: Vec<(Move, usize, bool)>,
    /// The moves the history learns from (quiet ones, and reducible threats under
    /// `history_threats`) searched so far at this node without a cut-off: kept only under
    /// history gravity, which penalises them when a later such move cuts off.
    pub tried_moves: Vec<Pos>,
}

impl Frame {
    pub fn new() -> Frame {
        Frame {
            killers: [None; 2],
            static_eval: 0,
            after_four: false,
            improving: false,
            likely_fail_high: false,
            pv: [Pos(0); MAX_PLY + 2],
            pv_len: 0,
            moves: Vec::with_capacity(64),
            deferred: Vec::new(),
            tried_moves: Vec::new(),
        }
    }
}

/// The state of one search by one worker.
pub(super) struct Run<'a, 's> {
    /// The searched position, moves made and unmade as the search goes.
    pub pos: Position,
    pub ctx: &'a Context<'s>,
    pub progress: &'a dyn Progress,
    pub params: Params,
    pub history: &'a mut History,
    /// The worker's cut-off counts ([`CutCounts`]).
    pub cuts: &'a mut CutCounts,
    pub nodes: u64,
    pub max_nodes: u64,
    /// Set once the search must unwind; its scores are then never used or stored.
    pub aborted: bool,
    /// Per-ply state, indexed by ply.
    pub stack: Vec<Frame>,
    /// The root moves, best first after each iteration.
    pub root: Vec<RootMove>,
    /// The principal variation being searched: root moves before it are already in a line.
    pub pv_idx: usize,
    /// The deepest ply reached since the current line's search started.
    pub seldepth: usize,
    /// The best move of the iteration in progress so far (first line only).
    pub iteration_best: Option<IterationBest>,
    pub options: RootOptions,
    pub busy: Option<&'a BusyMoves>,
}

impl Run<'_, '_> {
    /// Counts a node and says whether the search must unwind (stop flag, deadline, node cap).
    #[inline]
    pub fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes & (POLL_NODES - 1) == 0 {
            self.progress.nodes(self.nodes);
            let late = self.ctx.plan.hard.is_some_and(|h| Instant::now() >= h);
            if late || self.ctx.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The static evaluation, from the side to move's view.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        if self.params.full_eval {
            self.pos.evaluate_full()
        } else {
            self.pos.evaluate()
        }
    }

    /// Positions decided by the threats on the board, before any move is searched.
    #[inline]
    pub fn decided(&mut self, ply: usize) -> Option<i32> {
        let me = self.pos.side_to_move();
        let op = me.opponent();
        // A five to make wins now.
        if self.pos.has_at_least(me, Threat::Five) {
            return Some(win_in(ply + 1));
        }
        let caro = self.pos.rule() == Rule::Caro;
        let op_fives = self.pos.rung_count(op, Threat::Five);
        // Two five points cannot both be blocked (under caro one block may close the other).
        if op_fives >= 2 && !caro {
            return Some(-win_in(ply + 2));
        }
        // An open four (or double four) wins when the opponent has no five to make first.
        if op_fives == 0
            && !caro
            && movegen::find_usable(&mut self.pos, me, Threat::OpenFour).is_some()
        {
            return Some(win_in(ply + 3));
        }
        // A four-three wins in 5 when the opponent has no four at all: the block of our four
        // cannot make one (it would have been a four point before), so it can neither make a
        // five nor meet the open four our three becomes (the lines cross only at the move).
        if self.params.four_three_wins && movegen::winning_four_three(&mut self.pos, op).is_some() {
            return Some(win_in(ply + 5));
        }
        None
    }
}
