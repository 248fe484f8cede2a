//! The root: its move list (generated once per search, trimmed and reordered by the
//! [`RootOptions`](super::RootOptions), rotated by the worker's index) and one line's search
//! over it.
//!
//! After each iteration the list is sorted by score, stably, so the next iteration searches
//! last iteration's best first and moves that did not improve keep their order. Each root move
//! keeps the score and line of the last iteration that searched it exactly (a move that only
//! failed its scout scores `-INF`).

use super::run::{IterationBest, RootMove, Run};
use super::score::INF;
use crate::evaluation::movegen::{self, Defences, Move};
use crate::game::board::Pos;
use crate::game::pattern::Threat;

impl Run<'_, '_> {
    /// Generates, orders and hints the root moves; worker `worker` rotates them by its index
    /// so that lazy SMP workers start on different moves.
    pub(super) fn init_root(&mut self, worker: usize) {
        let mut moves = Vec::new();
        let defences = if self.options.every_move {
            Defences::OFF
        } else {
            self.params.defences()
        };
        movegen::generate(&mut self.pos, defences, &mut moves);
        let tt_move = if self.params.tt {
            self.ctx.tt.probe(self.pos.key()).and_then(|e| e.best)
        } else {
            None
        };
        self.order(&mut moves, tt_move, 0);
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.order));
        self.apply_hints(&mut moves);
        self.root = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                pv: vec![mv.pos],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        if worker > 0 && !self.root.is_empty() {
            let n = worker % self.root.len();
            self.root.rotate_left(n);
        }
    }

    /// Keeps only the `only` moves and drops the skipped ones (each unless no move would
    /// remain), then moves the hinted ones to the front in hint order; everything else keeps
    /// its order.
    fn apply_hints(&self, moves: &mut Vec<Move>) {
        let h = &self.options;
        if !h.only.is_empty() && moves.iter().any(|m| h.only.contains(&m.pos)) {
            moves.retain(|m| h.only.contains(&m.pos));
        }
        if !h.skip.is_empty() && moves.iter().any(|m| !h.skip.contains(&m.pos)) {
            moves.retain(|m| !h.skip.contains(&m.pos));
        }
        if !h.first.is_empty() {
            let rank = |p: Pos| h.first.iter().position(|&q| q == p).unwrap_or(usize::MAX);
            moves.sort_by_key(|m| rank(m.pos));
        }
    }

    /// One line's search over the root moves not already in a line (`root[pv_idx..]`), in the
    /// list's order, inside `alpha..beta`.
    pub(super) fn root_search(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.stack[0].pv_len = 0;
        // The list's order, as ordering keys the move loop's picking keeps: no move is ever
        // swapped, so the loop's index `i` is the list's `pv_idx + i`.
        let candidates = &self.root[self.pv_idx..];
        let n = candidates.len();
        let mut moves = std::mem::take(&mut self.stack[0].moves);
        moves.clear();
        moves.extend(candidates.iter().enumerate().map(|(k, r)| Move {
            order: (n - k) as i64,
            ..r.mv
        }));
        // The root's static evaluation and four, for the pruning of the nodes below.
        let after_four = self
            .pos
            .has_at_least(self.pos.side_to_move().opponent(), Threat::Five);
        self.stack[0].after_four = after_four;
        self.stack[0].static_eval = self.evaluate();
        // The root is a PV node: no move-count pruning and no fail-high reduction read these.
        self.stack[0].improving = false;
        self.stack[0].likely_fail_high = false;
        let key = self.pos.key();
        let best = self.search_moves::<true>(&mut moves, depth, alpha, beta, 0, true, false, key);
        self.stack[0].moves = moves;
        best
    }

    /// Records the line's candidate `i` (`mv`) searched `depth` deep to `score` with `nodes`
    /// nodes, against the window's `alpha` before it: the first move and any that beat alpha
    /// were searched exactly, and their line is kept; a first line's move that beat alpha is
    /// also the iteration's best so far.
    pub(super) fn record_root_move(
        &mut self,
        i: usize,
        mv: Pos,
        score: i32,
        alpha: i32,
        depth: i32,
        nodes: u64,
    ) {
        let child = &self.stack[1];
        let rm = &mut self.root[self.pv_idx + i];
        rm.nodes += nodes;
        debug_assert_eq!(rm.mv.pos, mv, "the move loop keeps the root list's order");
        if i == 0 || score > alpha {
            rm.score = score;
            rm.pv.clear();
            rm.pv.push(mv);
            rm.pv.extend_from_slice(&child.pv[1..child.pv_len.max(1)]);
        } else {
            rm.score = -INF;
        }
        if score > alpha && self.pv_idx == 0 {
            self.iteration_best = Some(IterationBest {
                depth,
                mv,
                score,
                pv: rm.pv.clone(),
            });
        }
    }
}
