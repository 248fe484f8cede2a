//! The quiescence search: forced blocks and own fours are played out, so that the static
//! evaluation is only read where no five is pending. Steps are numbered Q1 to Q6.
//! With [`Params::qsearch_vcf`](super::Params) the fours after the first continue the attack
//! without a count limit; with [`Params::qsearch_tt`](super::Params) the table is read and
//! written at depth 0.

use super::run::Run;
use super::score::win_in;
use super::MAX_PLY;
use crate::evaluation::movegen::{self, Defences, Move};
use crate::game::pattern::Threat;
use crate::game::rules::Rule;

impl Run<'_, '_> {
    /// The quiescence score `ply` plies from the root inside `alpha..beta` (fail-soft), with up
    /// to `fours` own fours still to play (the last only where it can still win); under
    /// [`Params::qsearch_vcf`](super::Params) `fours` only tells the first four (the budget
    /// itself) from the rest and may go below 0.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, fours: i32) -> i32 {
        // Q1. Count and poll.
        if self.poll() {
            return 0;
        }
        self.stack[ply].pv_len = ply;
        self.seldepth = self.seldepth.max(ply);
        // Q2. Decided by the threats on the board.
        if let Some(s) = self.decided(ply) {
            return s;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        // Q2b. The table: a bound that settles the window ends the node (every entry is at
        // least as deep as the quiescence).
        let key = self.pos.key();
        let table = self.params.tt && self.params.qsearch_tt;
        if table {
            if let Some(s) = self.probe(key, 0, alpha, beta, ply, false).cut {
                return s;
            }
        }
        let orig_alpha = alpha;
        let op = self.pos.side_to_move().opponent();
        // Q3. A five of the opponent must be blocked: no standing pat.
        if self.pos.has_at_least(op, Threat::Five) {
            let mut moves = std::mem::take(&mut self.stack[ply].moves);
            movegen::generate(&mut self.pos, Defences::OFF, &mut moves);
            let best = self.qsearch_moves(&moves, alpha, beta, ply, fours, -win_in(ply + 2));
            self.stack[ply].moves = moves;
            if table && !self.aborted {
                self.store(key, 0, best, orig_alpha, beta, ply, None);
            }
            return best;
        }
        // Q4. Stand pat: the mover may always play a quiet move.
        let stand = self.evaluate();
        let vcf = self.params.qsearch_vcf;
        if stand >= beta || (fours <= 0 && !vcf) {
            return stand;
        }
        alpha = alpha.max(stand);
        // Q5. Own fours: each forces a block, and chains of them can end in a four-three.
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        movegen::fours(&mut self.pos, &mut moves);
        if vcf {
            // After the first four, only fours that continue the attack: a four elsewhere
            // stood on the board before, and trying every order of independent fours would
            // only transpose.
            if fours < self.params.qsearch_fours {
                self.keep_continuing_fours(&mut moves);
            }
        } else if fours == 1 && self.params.qsearch_prune_last_four {
            // Q6. The last four allowed must be able to win.
            self.keep_winning_fours(&mut moves);
        }
        let searched = !moves.is_empty();
        let best = self.qsearch_moves(&moves, alpha, beta, ply, fours - 1, stand);
        self.stack[ply].moves = moves;
        if table && searched && !self.aborted {
            self.store(key, 0, best, orig_alpha, beta, ply, None);
        }
        best
    }

    /// Keeps the fours on a line through the mover's last stone, within four cells of it (the
    /// cells whose lines that stone changed); without a last stone of the mover, none.
    fn keep_continuing_fours(&self, moves: &mut Vec<Move>) {
        let me = self.pos.side_to_move();
        let last = self
            .pos
            .board()
            .history()
            .iter()
            .rev()
            .find(|&&(_, c)| c == me)
            .map(|&(p, _)| p);
        let Some(last) = last else {
            moves.clear();
            return;
        };
        moves.retain(|m| m.pos.on_line_within(last, 4));
    }

    /// Keeps the fours that can still lead to a win: a four-three, a four that makes a point of
    /// two fours, or one whose block makes a four (the forced replies then go on, and blocks
    /// cost no budget). After any other four and its block the search would only stand pat,
    /// with a four spent for nothing the evaluation can see. Only under freestyle and standard:
    /// under renju a four can win where the block is forbidden, and under caro where a block
    /// closes one end; there every four is kept.
    fn keep_winning_fours(&mut self, moves: &mut Vec<Move>) {
        if !matches!(self.pos.rule(), Rule::Freestyle | Rule::Standard) {
            return;
        }
        let me = self.pos.side_to_move();
        let op = me.opponent();
        // Both exceptions need a four point on the board besides the one played: another of
        // the mover's (the point of two fours gets its second four from the new stone) or one
        // of the opponent's (only the opponent's own lines make the block a four). Without one,
        // no plain four needs to be tried on the board.
        let mine =
            self.pos.rung_count(me, Threat::Four) + self.pos.rung_count(me, Threat::FourThree);
        let may_win = mine >= 2 || self.pos.has_at_least(op, Threat::Four);
        let pos = &mut self.pos;
        moves.retain(|m| {
            if pos.info(m.pos, me).threat >= Threat::FourThree {
                return true;
            }
            if !may_win {
                return false;
            }
            pos.make(m.pos);
            let double_four = pos.rung_count(me, Threat::OpenFour) > 0;
            let counter_four = || {
                let cells = *pos.candidates();
                let found = cells.iter().any(|q| {
                    pos.info(q, me).threat == Threat::Five && pos.info(q, op).threat >= Threat::Four
                });
                found
            };
            let keep = double_four || counter_four();
            pos.unmake();
            keep
        });
    }

    /// The move loop of the quiescence: searches `moves` with `fours` own fours left below,
    /// fail-soft from `best`.
    fn qsearch_moves(
        &mut self,
        moves: &[Move],
        mut alpha: i32,
        beta: i32,
        ply: usize,
        fours: i32,
        mut best: i32,
    ) -> i32 {
        for m in moves {
            self.pos.make(m.pos);
            let s = -self.qsearch(-beta, -alpha, ply + 1, fours);
            self.pos.unmake();
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
