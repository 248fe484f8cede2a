//! The node function, in numbered steps as in the engines this follows. Steps 9 to 13 are the
//! move loop the root shares ([`super::movepick`]).

use super::run::Run;
use super::score::{from_tt, win_in, WIN_MIN};
use super::MAX_PLY;
use crate::evaluation::movegen::{self, Scope};
use crate::game::board::Pos;
use crate::game::pattern::Threat;
use crate::search::tt::Bound;

impl Run<'_, '_> {
    /// The score of the position `ply` plies from the root, searched `depth` plies deep inside
    /// `alpha..beta` (fail-soft); 0 once the search is abandoned. `cut_node`: a non-PV node
    /// expected to fail high (the scout of a late move, or a child of an expected fail-low);
    /// never with `pv_node`.
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        debug_assert!(!(pv_node && cut_node));
        // Step 1. Count the node and poll the clock: an abandoned search unwinds at once and
        // its scores are never used or stored.
        if self.poll() {
            return 0;
        }
        self.stack[ply].pv_len = ply;
        self.seldepth = self.seldepth.max(ply);

        // Step 2. Positions the threats already decide: no search needed, and they keep the
        // fastest-win ordering exact.
        if let Some(s) = self.decided(ply) {
            return s;
        }

        // Step 3. Mate distance pruning: no line from here can beat a win already closer to the
        // root, so the window shrinks to what is still reachable.
        alpha = alpha.max(-win_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. At the horizon, resolve the fours before trusting the static evaluation.
        if depth <= 0 || ply >= MAX_PLY - 16 {
            return self.qsearch(alpha, beta, ply, self.params.qsearch_fours);
        }

        // Step 5. Known positions, then the transposition table. A value known beforehand (an
        // analyst's database) to at least this depth is the node's exact value, at PV nodes
        // too: it is what the analyst wants the search to build on. A deep enough table bound
        // that settles the window ends the node (not at PV nodes, so the principal variation
        // stays whole). The table's move, else the known one, is tried first.
        let key = self.pos.key();
        let (known_move, known_value) = self.known(key, depth, ply);
        if let Some(s) = known_value {
            return s;
        }
        let advice = self.probe(key, depth, alpha, beta, ply, pv_node);
        if let Some(s) = advice.cut {
            return s;
        }
        let tt_move = advice.best.or(known_move);

        // Step 6. The static evaluation, whether the side to move is improving, and the pruning
        // it allows at non-PV nodes; a cut node far above beta is likely to fail high.
        let eval = self.static_eval(ply);
        self.stack[ply].improving = ply >= 2 && eval > self.stack[ply - 2].static_eval;
        self.stack[ply].likely_fail_high =
            cut_node && self.likely_fail_high(depth, eval, beta, ply);
        if !pv_node {
            if let Some(s) = self.prune_by_eval(depth, eval, alpha, beta, ply) {
                return s;
            }
        }

        // Step 6b. Internal iterative reduction: without a table move (or with one from a far
        // shallower search) the order is a guess; a ply less here fills the table for the next
        // iteration at a fraction of the cost.
        let tt_gap = match (tt_move, advice.best) {
            (None, _) => None,
            (Some(_), Some(_)) => Some(depth - advice.depth),
            // A known move alone (an analyst's database) counts as a table move of this depth.
            (Some(_), None) => Some(0),
        };
        let depth = depth - self.params.iir_reduction(depth, pv_node, cut_node, tt_gap);

        // Step 7. Generate once, score once, order by the ladder, table move, killers, history.
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        let scope = movegen::generate(&mut self.pos, self.params.defences(), &mut moves);
        if moves.is_empty() {
            self.stack[ply].moves = moves;
            // No legal block of a five loses; otherwise the board is full: a draw.
            return if scope == Scope::Block {
                -win_in(ply + 2)
            } else {
                0
            };
        }
        self.order(&mut moves, tt_move, ply);

        // Step 8. Forced replies: a block of a five, or a defence against an open three, is
        // searched a ply deeper (when enabled), so that the attacker's threats alone spend the
        // depth and a threat sequence is read as deep as its attacking moves allow. The
        // attacker's moves still cost a ply each, so the extension cannot recur without end.
        let extension = match scope {
            Scope::Block => self.params.extend_blocks,
            Scope::Defend => self.params.extend_defences,
            Scope::Win | Scope::DefendFourThree | Scope::All => false,
        };
        let search_depth = depth + i32::from(extension);

        // Steps 9-13. The move loop, and the bound it stores.
        let best = self.search_moves::<false>(
            &mut moves,
            search_depth,
            alpha,
            beta,
            ply,
            pv_node,
            cut_node,
            key,
        );
        self.stack[ply].moves = moves;
        best
    }

    /// The node's static evaluation, kept on the stack with whether the move that led here
    /// was a four. After a four the evaluation says little (the block is forced), so the
    /// parent's, negated, stands for it.
    fn static_eval(&mut self, ply: usize) -> i32 {
        let after_four = self
            .pos
            .has_at_least(self.pos.side_to_move().opponent(), Threat::Five);
        let eval = if after_four {
            -self.stack[ply - 1].static_eval
        } else {
            self.evaluate()
        };
        let frame = &mut self.stack[ply];
        frame.after_four = after_four;
        frame.static_eval = eval;
        eval
    }

    /// Step 6's pruning at a non-PV node of remaining `depth` with static evaluation `eval`:
    /// the node's value when the evaluation alone settles it. Only in calm positions: the
    /// opponent has no five and no open four to make (no forced reply, no open three), and
    /// the node's side is not in the middle of a line of fours (its moves two and four plies
    /// up were both fours), whose end the evaluation cannot see.
    fn prune_by_eval(
        &mut self,
        depth: i32,
        eval: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let p = &self.params;
        if !(p.rfp || p.razor) {
            return None;
        }
        let op = self.pos.side_to_move().opponent();
        if self.stack[ply].after_four || self.pos.has_at_least(op, Threat::OpenFour) {
            return None;
        }
        let improving = self.stack[ply].improving;
        // Reverse futility: far enough above beta, the node's side can afford to play any
        // reasonable move; the evaluation stands for the search (never an unproven win).
        let in_attack =
            ply >= 3 && self.stack[ply - 1].after_four && self.stack[ply - 3].after_four;
        if p.rfp
            && depth <= p.rfp_max_depth
            && !in_attack
            && eval < WIN_MIN
            && beta > -WIN_MIN
            && eval - p.rfp_margin(depth, improving) >= beta
        {
            return Some(eval);
        }
        // Razoring: near the horizon, far below alpha, only fours could save the node; the
        // quiescence plays them out, and its value stands when it confirms the fail-low.
        if p.razor && alpha > -WIN_MIN && alpha < WIN_MIN {
            if let Some(margin) = p.razor_margin(depth) {
                if eval + margin < alpha {
                    let v = self.qsearch(alpha, alpha + 1, ply, p.qsearch_fours);
                    if v <= alpha || self.aborted {
                        return Some(v);
                    }
                }
            }
        }
        None
    }

    /// Whether a cut node of remaining `depth` with static evaluation `eval` is likely to fail
    /// high (under [`super::Params::fail_high_reduction`]): the evaluation beats `beta` by the
    /// fail-high margin, in a calm position as for the evaluation's pruning (no four just
    /// played, no open four for the opponent to make), and neither bound is a win.
    fn likely_fail_high(&self, depth: i32, eval: i32, beta: i32, ply: usize) -> bool {
        let p = &self.params;
        p.fail_high_reduction
            && !self.stack[ply].after_four
            && eval < WIN_MIN
            && beta > -WIN_MIN
            && beta < WIN_MIN
            && eval >= beta + p.fail_high_margin(depth)
            && !(self.pos).has_at_least(self.pos.side_to_move().opponent(), Threat::OpenFour)
    }

    /// What is known beforehand of a node: its best move, and its value when known to at least
    /// `depth` (re-based on `ply`, as table scores are). Skips the lookup at once when no known
    /// position has this many stones.
    fn known(&self, key: u64, depth: i32, ply: usize) -> (Option<Pos>, Option<i32>) {
        let Some(known) = self.ctx.known else {
            return (None, None);
        };
        if !known.covers(self.pos.board().stone_count()) {
            return (None, None);
        }
        let Some(k) = known.get(key) else {
            return (None, None);
        };
        let value = (i32::from(k.depth) >= depth).then(|| from_tt(k.score, ply));
        (k.best, value)
    }

    /// The table's advice for a node: its move, and its score when a deep enough bound settles
    /// the window (never at PV nodes). The quiescence asks at depth 0.
    pub(super) fn probe(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> TableAdvice {
        let none = TableAdvice {
            best: None,
            depth: 0,
            cut: None,
        };
        if !self.params.tt {
            return none;
        }
        let Some(e) = self.ctx.tt.probe(key) else {
            return none;
        };
        let advice = TableAdvice {
            best: e.best,
            depth: e.depth as i32,
            cut: None,
        };
        if pv_node || advice.depth < depth {
            return advice;
        }
        let s = from_tt(e.score, ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        TableAdvice {
            cut: cut.then_some(s),
            ..advice
        }
    }
}

/// What the transposition table says of a node.
pub(super) struct TableAdvice {
    /// The entry's best move, if any.
    best: Option<Pos>,
    /// The remaining depth the entry was searched to (0 without an entry).
    depth: i32,
    /// The entry's score, when a deep enough bound settles the window.
    pub(super) cut: Option<i32>,
}
