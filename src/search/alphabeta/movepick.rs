//! Move ordering and the move loop that the root and every node share.
//!
//! The loop ([`Run::search_moves`]) walks the ordered moves, puts off the ones another lazy SMP
//! worker is searching (they come back once the node's other moves are done, usually to find
//! the other worker's result in the table), prunes late moves of non-PV nodes, searches
//! each move with [`Run::search_move`] (full window first, then zero-window scouts with late
//! move reductions and the re-searches a scout's failure calls for) and ends in [`Run::store`],
//! the one place a bound goes into the table. The root is the same loop with `ROOT = true`: no
//! reductions, no killers or history, and each root move's score and line recorded.

use super::run::Run;
use super::score::{to_tt, INF, WIN_MIN};
use super::{RootEvent, RootEventKind};
use crate::evaluation::movegen::{Move, OWN_FOUR_RANK, QUIET_RANK};
use crate::game::board::Pos;
use crate::search::busy::BusyMoves;
use crate::search::tt::Bound;

/// Moves the highest-keyed move of `moves[i..]` to index `i`.
#[inline]
fn pick(moves: &mut [Move], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].order > moves[best].order {
            best = j;
        }
    }
    moves.swap(i, best);
}

/// The order a node's moves are searched in: the ordered list picked lazily, late moves
/// of non-PV nodes pruned (Step 9), and moves another lazy SMP worker is searching put off until
/// the node's other moves are done, when the table is likely to hold their result.
struct MovePicker<'a> {
    moves: &'a mut [Move],
    /// The moves put off: the move, its place in the ordered list (which it keeps, for the
    /// principal-variation search), and whether it may be reduced.
    deferred: Vec<(Move, usize, bool)>,
    next: usize,
    next_deferred: usize,
    /// Move-count pruning has cut the rest of the list.
    pruned: bool,
    killers: [Option<Pos>; 2],
    reducible_rank: u8,
    /// Moves of rank at most this (not killers) may be cut by move-count pruning.
    prunable_rank: u8,
    /// Prunable moves from this index on are pruned, where move-count pruning applies.
    late_moves: Option<usize>,
    /// The highest policy value of the reducible moves picked so far (for the policy's share
    /// of late move reductions).
    best_reducible_value: Option<i32>,
    /// The busy-move marks and the node's key, where moves are put off.
    busy: Option<(&'a BusyMoves, u64)>,
}

impl MovePicker<'_> {
    /// The next move to search, its place in the ordered list and whether it may be reduced (a
    /// quiet move or a threat up to [`Params::reducible_rank`](super::Params), not a killer);
    /// `may_prune` says whether a move has been searched, so that skipping the rest is safe.
    /// Killers change only on a cut-off, which ends the loop, so a put-off move keeps the
    /// reducibility it was given.
    fn next(&mut self, may_prune: bool) -> Option<(Move, usize, bool)> {
        while self.next < self.moves.len() && !self.pruned {
            let i = self.next;
            self.next += 1;
            // Most nodes stop after a move or two (a cut-off, or move-count pruning), so the
            // list is never sorted whole: each step brings the best remaining move forward,
            // which gives the order a full sort would.
            pick(self.moves, i);
            let m = self.moves[i];
            let killer = self.killers.contains(&Some(m.pos));
            let reducible = m.rank <= self.reducible_rank && !killer;
            // Step 9. Move-count pruning: late moves of a non-PV node, quiet or threats below
            // a four-three, almost never refute; once a move has been searched, the rest are
            // skipped.
            let prunable = m.rank <= self.prunable_rank && !killer;
            if prunable && may_prune && self.late_moves.is_some_and(|n| i >= n) {
                self.pruned = true;
                break;
            }
            if reducible {
                self.best_reducible_value = Some(
                    self.best_reducible_value
                        .map_or(m.value, |v| v.max(m.value)),
                );
            }
            if i > 0 && self.busy.is_some_and(|(b, key)| b.is_busy(key, m.pos)) {
                self.deferred.push((m, i, reducible));
                continue;
            }
            return Some((m, i, reducible));
        }
        let put_off = self.deferred.get(self.next_deferred).copied();
        self.next_deferred += usize::from(put_off.is_some());
        put_off
    }
}

impl Run<'_, '_> {
    /// Sets the ordering key of `moves` (searched highest first): the table's move, then
    /// threats by ladder rank, then the killers, then quiet moves by static value and history.
    /// Keys are distinct; the loop picks moves lazily ([`pick`]), the root list is sorted.
    pub(super) fn order(&self, moves: &mut [Move], tt_move: Option<Pos>, ply: usize) {
        let me = self.pos.side_to_move().index();
        let killers = self.stack[ply].killers;
        let prev = self.pos.board().last_move();
        let counter = self.history.counter(&self.params, me, prev);
        for m in moves.iter_mut() {
            let key = if Some(m.pos) == tt_move {
                1 << 50
            } else if m.rank > QUIET_RANK {
                let history = if self.params.learns_threat(m.rank) {
                    self.history.order_bonus(&self.params, me, prev, m.pos) >> 12
                } else {
                    0
                };
                ((m.rank as i64) << 40) + m.value as i64 + history
            } else if Some(m.pos) == killers[0] {
                (1 << 39) + 1
            } else if Some(m.pos) == killers[1] {
                1 << 39
            } else if Some(m.pos) == counter {
                (1 << 39) - 1
            } else {
                ((m.value as i64) << 12) + self.history.order_bonus(&self.params, me, prev, m.pos)
            };
            // The cell breaks ties (higher index first), folded into one integer so the sort
            // compares one word: keys are below 2^51 and cells below 2^10.
            m.order = (key << 10) | m.pos.index() as i64;
        }
    }

    /// The move loop of a node `ply` plies from the root with remaining depth `depth` (key
    /// `key`), over `moves` (ordering keys set). Returns the best score, fail-soft, or 0 once
    /// the search is abandoned; the bound is stored in the table.
    ///
    /// Long on purpose: the one move loop the root and every node share (deferral, reductions,
    /// the scout and its re-searches, the bound), the search's hottest code; its steps share
    /// the best score, the bound and the move count, which helpers would pass back and forth.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_moves<const ROOT: bool>(
        &mut self,
        moves: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        key: u64,
    ) -> i32 {
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut picker = MovePicker {
            moves,
            deferred: std::mem::take(&mut self.stack[ply].deferred),
            next: 0,
            next_deferred: 0,
            pruned: false,
            killers: self.stack[ply].killers,
            reducible_rank: self.params.reducible_rank,
            prunable_rank: self.params.prunable_rank,
            late_moves: (self.params.move_count_pruning && !pv_node).then(|| {
                self.params
                    .late_move_count(depth, self.stack[ply].improving)
            }),
            best_reducible_value: None,
            // Lazy SMP: moves other workers are searching are put off at the root (where every
            // worker's order is last iteration's, so they would walk the moves in step) and at
            // nodes deep enough to be worth sharing.
            busy: self
                .busy
                .filter(|_| ROOT || depth >= self.params.defer_min_depth)
                .map(|b| (b, key)),
        };
        picker.deferred.clear();
        let track_tried = !ROOT && self.params.history_gravity;
        let mut tried = std::mem::take(&mut self.stack[ply].tried_moves);
        tried.clear();
        let me = self.pos.side_to_move().index();
        let prev_move = self.pos.board().last_move();
        let likely_fail_high = !ROOT && self.stack[ply].likely_fail_high;
        let cut_node_reduction = if cut_node {
            self.params.lmr_cut_node
        } else {
            0
        };
        while let Some((m, i, may_reduce)) = picker.next(best > -WIN_MIN) {
            let reducible = !ROOT && may_reduce;
            // A late move's reduction beyond the depth-and-index one: the policy's share (how
            // far it rates this move below the best reducible move so far),
            // [`Params::lmr_after_raise`](super::Params) once a move has raised alpha at a PV
            // node of middling depth (the node has a good move; the rest matter less), the
            // history's share for a move it learns from, the cut node's share, and less for an
            // own threat (an attack is what could refute the node;
            // [`Params::lmr_own_threat`](super::Params)).
            // Only a reducible move reads it, so no other move pays for it.
            let extra_reduction = if reducible {
                let policy_gap = picker.best_reducible_value.map_or(0, |v| v - m.value);
                let history = if self.params.learns(m.rank) {
                    let h = self.history.score(&self.params, me, prev_move, m.pos);
                    self.params.history_reduction(h)
                } else {
                    0
                };
                self.params.policy_reduction(policy_gap)
                    + (self.params).raised_alpha_reduction(depth, alpha > orig_alpha)
                    + history
                    + cut_node_reduction
                    - self.params.own_threat_relief(m.rank)
            } else {
                0
            };
            // The fail-high reduction: a node likely to fail high searches its moves below an
            // own four a ply shallower (the fours keep their depth: an attack is what could
            // refute the evaluation's verdict).
            let move_depth = depth - i32::from(likely_fail_high && m.rank < OWN_FOUR_RANK);
            let events = ROOT && self.pv_idx == 0;
            if events {
                self.root_event(RootEventKind::Enter, m.pos, depth);
            }
            let nodes_before = self.nodes;
            let marked = picker.busy.map(|(b, key)| (b, b.mark(key, m.pos)));
            self.pos.make(m.pos);
            let score = self.search_move(
                move_depth,
                alpha,
                beta,
                ply,
                pv_node,
                cut_node,
                i,
                reducible,
                extra_reduction,
            );
            self.pos.unmake();
            if let Some((b, mark)) = marked {
                b.clear(mark);
            }
            if self.aborted {
                self.stack[ply].deferred = picker.deferred;
                self.stack[ply].tried_moves = tried;
                return 0;
            }
            if ROOT {
                self.record_root_move(i, m.pos, score, alpha, depth, self.nodes - nodes_before);
            }
            if events {
                self.root_event(RootEventKind::Leave, m.pos, depth);
                if score <= -WIN_MIN {
                    self.root_event(RootEventKind::Lost, m.pos, depth);
                } else if score > best && (i == 0 || score > alpha) {
                    self.root_event(RootEventKind::Best, m.pos, depth);
                }
            }
            if score > best {
                best = score;
                best_move = Some(m.pos);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.extend_pv(ply, m.pos);
                    }
                    if alpha >= beta {
                        if !ROOT {
                            self.cuts.all += 1;
                            self.cuts.first += (i == 0) as u64;
                        }
                        // Step 12. A refutation the history learns from is remembered for the
                        // rest of the search (history, weighted by depth), a quiet one also for
                        // its siblings (killers).
                        if !ROOT && self.params.learns(m.rank) {
                            self.remember_refutation(ply, m, depth, &tried);
                        }
                        break;
                    }
                }
            }
            if track_tried && self.params.learns(m.rank) {
                tried.push(m.pos);
            }
        }
        self.stack[ply].deferred = picker.deferred;
        self.stack[ply].tried_moves = tried;
        if ROOT {
            // Stable: moves that did not improve keep last iteration's order. Moves already in
            // an earlier line keep their places.
            self.root[self.pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        // Step 13. Store the result with its bound (at the root, only the first line's: the
        // others are the best of a list with moves left out).
        if !ROOT || self.pv_idx == 0 {
            self.store(key, depth, best, orig_alpha, beta, ply, best_move);
        }
        best
    }

    /// Searches the move just made, the `i`-th of its node: the first with the full window;
    /// later ones with a zero-window scout, reduced by late move reductions when `reducible`
    /// (`extra_reduction` plies more than depth and index say),
    /// searched again at full depth if a reduced scout beats alpha, and with the full window
    /// at PV nodes if the scout lands inside it. Returns the score from the node's side.
    ///
    /// The children's kinds: a PV node's first move and full-window re-searches are PV nodes;
    /// a reduced scout expects to fail low for the mover, so its child is a cut node; every
    /// other child takes the opposite kind of its node (a cut node's replies are all-nodes and
    /// theirs cut nodes).
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        i: usize,
        reducible: bool,
        extra_reduction: i32,
    ) -> i32 {
        let child_cut = !pv_node && !cut_node;
        if i == 0 || !self.params.pvs {
            return -self.negamax(depth - 1, -beta, -alpha, ply + 1, pv_node, child_cut);
        }
        // Step 10. Late move reductions: late moves (quiet, or threats below a four-three)
        // rarely matter, so they are scouted shallower first and searched fully only if they
        // beat alpha; the further the policy rates a move below the best reducible one before
        // it, the shallower.
        let r = if self.params.lmr
            && reducible
            && depth >= self.params.lmr_min_depth
            && i >= self.params.lmr_min_index
        {
            (self.params.lmr_reduction(depth, i, pv_node) + extra_reduction).min(depth - 1)
        } else {
            0
        };
        // Step 11. Principal variation search: a zero window proves the move worse than the
        // first cheaply; only a move that beats it is searched with the full window.
        let scout_cut = r > 0 || !cut_node;
        let mut s = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, false, scout_cut);
        if s > alpha && r > 0 && !self.aborted {
            s = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, false, !cut_node);
        }
        if s > alpha && s < beta && pv_node && !self.aborted {
            s = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true, false);
        }
        s
    }

    /// The principal variation of `ply` becomes `mv` followed by the child's.
    fn extend_pv(&mut self, ply: usize, mv: Pos) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let (line, child) = (&mut head[ply], &tail[0]);
        line.pv[ply] = mv;
        let end = child.pv_len.max(ply + 1);
        line.pv[ply + 1..end].copy_from_slice(&child.pv[ply + 1..end]);
        line.pv_len = end;
    }

    /// Tells the progress hook about a root move of the first line.
    fn root_event(&self, kind: RootEventKind, mv: Pos, depth: i32) {
        self.progress.root(RootEvent {
            kind,
            mv,
            depth: depth as u32,
        });
    }

    /// A move the history learns from that cut off at `ply` after the learnt moves `tried`:
    /// the history's reward ([`History::reward`](super::history::History::reward)), and a
    /// killer there if it is quiet.
    fn remember_refutation(&mut self, ply: usize, m: Move, depth: i32, tried: &[Pos]) {
        let mv = m.pos;
        if m.rank <= QUIET_RANK {
            let k = &mut self.stack[ply].killers;
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let me = self.pos.side_to_move().index();
        let prev = self.pos.board().last_move();
        (self.history).reward(&self.params, me, mv, depth, prev, tried);
    }

    /// Stores a node's result with its bound (lower on a fail-high, exact inside the window,
    /// upper on a fail-low), win scores made relative to the node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        key: u64,
        depth: i32,
        best: i32,
        orig_alpha: i32,
        beta: i32,
        ply: usize,
        best_move: Option<Pos>,
    ) {
        if !self.params.tt {
            return;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.ctx
            .tt
            .store(key, depth as i16, bound, to_tt(best, ply), best_move);
    }
}
