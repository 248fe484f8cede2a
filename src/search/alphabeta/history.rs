//! What a worker learns about moves over a game: the history of refutations per colour and
//! cell, and the counter move that refuted each previous move.
//!
//! Two update rules ([`Params::history_gravity`]):
//! - **Gravity** (the default): the refutation gets a bonus and the moves searched before it
//!   at the same node a malus of the same size, each scaled by how far the entry is from the
//!   bound (`h += b − h·|b|/HISTORY_MAX`), so an entry stays within ±[`HISTORY_MAX`] and a move
//!   that stops cutting off loses its place at the same pace it won it. The order adds
//!   `h · history_weight / HISTORY_MAX` policy units to the move's value, and the late move
//!   reductions read the entry ([`Params::lmr_history_unit`]).
//! - **Classic** (before issue 44's item 5): a quiet refutation at remaining depth `d` adds
//!   `d²`, saturating at 2^20; the order reads it, clamped to 0..4095, only to break ties of the
//!   policy's value.
//!
//! Which moves are learnt: the quiet ones (no open three or four for either side at the cell),
//! and under [`Params::history_threats`] (the default, with gravity) the reducible threats too
//! (up to [`Params::reducible_rank`]), in the same table, ordered within their rank. The quiet
//! moves alone are rarely where a middle game's cut-offs are decided: learning from them alone
//! leaves the node counts of depth-7 searches of six middle games unchanged, even at a weight
//! of eight logits; with the threats the history gained in play (experiments page).
//!
//! Counter moves ([`Params::counter_moves`], off): the quiet move that last refuted the
//! opponent's previous move is searched right after the killers.
//!
//! Continuation history ([`Params::continuation_history`], off; under gravity): a second table
//! of learnt moves indexed by the opponent's previous move as well, updated by the same gravity
//! rule, so that a move that answers one particular move well is ranked up after that move and
//! not everywhere. Where it is on, the order and the reductions read the sum of the two entries
//! ([`History::score`]). It is not halved between iterations (gravity bounds it, and halving
//! its two million entries every iteration would cost a millisecond each time).
//!
//! Invariants: with gravity off, the order and every update are the classic ones; under
//! gravity every entry of both tables stays within ±`HISTORY_MAX`, so their sum within twice
//! it; with the continuation history off its table is never written nor read. Every iteration
//! halves the history of moves ([`History::age`]); a new game clears all of it.

use super::Params;
use crate::game::board::{Pos, CELLS};

/// The bound of a history entry under gravity.
pub const HISTORY_MAX: i32 = 1 << 14;

/// The classic rule's saturation.
const CLASSIC_MAX: i32 = 1 << 20;

/// Quiet-move history, continuation history and counter moves, per colour (the side that
/// moved).
pub struct History {
    quiet: [[i32; CELLS]; 2],
    counter: [[Option<Pos>; CELLS]; 2],
    /// `[colour][previous move][move]`, flattened; allocated on first use (4 MiB).
    continuation: Vec<i16>,
}

/// The index of `me`'s move `mv` after the opponent's `prev` in the continuation table.
#[inline]
fn continuation_index(me: usize, prev: Pos, mv: Pos) -> usize {
    (me * CELLS + prev.index()) * CELLS + mv.index()
}

impl History {
    /// An empty history, boxed (it is tens of kilobytes).
    pub fn new() -> Box<History> {
        Box::new(History {
            quiet: [[0; CELLS]; 2],
            counter: [[None; CELLS]; 2],
            continuation: Vec::new(),
        })
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for h in &mut self.quiet {
            h.fill(0);
        }
        for c in &mut self.counter {
            c.fill(None);
        }
        self.continuation.fill(0);
    }

    /// Halves the history, so that what cut off in earlier iterations weighs less than what
    /// cuts off now. Counter moves and the continuation history stay.
    pub fn age(&mut self) {
        for h in self.quiet.iter_mut() {
            for v in h.iter_mut() {
                *v /= 2;
            }
        }
    }

    /// The history's part of a move's ordering key, in units of 2^-12 policy points:
    /// `me`'s entry at `mv` after the opponent's `prev` ([`History::score`]), read as its rule
    /// says.
    #[inline]
    pub fn order_bonus(&self, params: &Params, me: usize, prev: Option<Pos>, mv: Pos) -> i64 {
        let h = self.score(params, me, prev, mv);
        if params.history_gravity {
            ((h as i64 * params.history_weight as i64) << 12) / HISTORY_MAX as i64
        } else {
            h.clamp(0, 4095) as i64
        }
    }

    /// The counter move of `me` against the opponent's move `prev`, if counter moves are on.
    #[inline]
    pub fn counter(&self, params: &Params, me: usize, prev: Option<Pos>) -> Option<Pos> {
        if params.counter_moves {
            prev.and_then(|p| self.counter[me][p.index()])
        } else {
            None
        }
    }

    /// A move `mv` of `me` the history learns from refuted the node at remaining depth
    /// `depth`, reached by the opponent's move `prev`, after the learnt moves `tried` (searched
    /// before it, without a cut-off; read only under gravity).
    pub fn reward(
        &mut self,
        params: &Params,
        me: usize,
        mv: Pos,
        depth: i32,
        prev: Option<Pos>,
        tried: &[Pos],
    ) {
        if params.history_gravity {
            let bonus = gravity_bonus(depth);
            let table = &mut self.quiet[me];
            apply_gravity(&mut table[mv.index()], bonus);
            for p in tried {
                apply_gravity(&mut table[p.index()], -bonus);
            }
            if let Some(prev) = prev.filter(|_| params.continuation_history) {
                if self.continuation.is_empty() {
                    self.continuation = vec![0; 2 * CELLS * CELLS];
                }
                let table = &mut self.continuation;
                apply_gravity_i16(&mut table[continuation_index(me, prev, mv)], bonus);
                for p in tried {
                    apply_gravity_i16(&mut table[continuation_index(me, prev, *p)], -bonus);
                }
            }
        } else {
            let h = &mut self.quiet[me][mv.index()];
            *h = (*h + depth * depth).min(CLASSIC_MAX);
        }
        if params.counter_moves {
            if let Some(p) = prev {
                self.counter[me][p.index()] = Some(mv);
            }
        }
    }

    /// `me`'s history entry at `mv`.
    #[inline]
    pub fn quiet(&self, me: usize, mv: Pos) -> i32 {
        self.quiet[me][mv.index()]
    }

    /// `me`'s continuation entry at `mv` after the opponent's `prev` (0 before any was learnt).
    #[inline]
    pub fn continuation(&self, me: usize, prev: Pos, mv: Pos) -> i32 {
        self.continuation
            .get(continuation_index(me, prev, mv))
            .map_or(0, |&h| h as i32)
    }

    /// What the order and the reductions read of `me`'s move `mv` after the opponent's `prev`:
    /// the history entry, plus the continuation entry under [`Params::continuation_history`].
    #[inline]
    pub fn score(&self, params: &Params, me: usize, prev: Option<Pos>, mv: Pos) -> i32 {
        let h = self.quiet(me, mv);
        match prev {
            Some(prev) if params.continuation_history => h + self.continuation(me, prev, mv),
            _ => h,
        }
    }
}

/// The size of a gravity update at remaining depth `depth`: `32·d²`, at most a quarter of the
/// bound, so that no single cut-off saturates an entry.
#[inline]
fn gravity_bonus(depth: i32) -> i32 {
    (32 * depth * depth).min(HISTORY_MAX / 4)
}

/// Moves `entry` by `bonus`, scaled down as the entry nears the bound on that side: the entry
/// stays within ±[`HISTORY_MAX`] whatever the sequence of updates (a bonus of size at most the
/// bound moves it at most to the bound).
#[inline]
fn apply_gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// [`apply_gravity`] on a 16-bit entry: the bound (2^14) fits, so the result does too.
#[inline]
fn apply_gravity_i16(entry: &mut i16, bonus: i32) {
    let mut wide = *entry as i32;
    apply_gravity(&mut wide, bonus);
    *entry = wide as i16;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gravity() -> Params {
        Params {
            history_gravity: true,
            counter_moves: true,
            ..Params::default()
        }
    }

    #[test]
    fn gravity_keeps_entries_bounded_and_reversible() {
        let p = gravity();
        let mut h = History::new();
        let (a, b) = (Pos(100), Pos(101));
        for _ in 0..1000 {
            h.reward(&p, 0, a, 20, None, &[b]);
        }
        let (ha, hb) = (h.quiet(0, a), h.quiet(0, b));
        assert!((HISTORY_MAX * 9 / 10..=HISTORY_MAX).contains(&ha), "{ha}");
        assert!((-HISTORY_MAX..=-HISTORY_MAX * 9 / 10).contains(&hb), "{hb}");
        // The roles swap: each entry crosses zero within a bounded number of updates.
        let mut n = 0;
        while h.quiet(0, b) <= h.quiet(0, a) {
            h.reward(&p, 0, b, 20, None, &[a]);
            n += 1;
            assert!(n < 20, "no reversal after {n} updates");
        }
        assert!(h.order_bonus(&p, 0, None, b) > h.order_bonus(&p, 0, None, a));
        // The other colour never moved.
        assert_eq!(h.quiet(1, a), 0);
    }

    #[test]
    fn gravity_bonus_in_policy_units_at_saturation() {
        let p = gravity();
        let mut h = History::new();
        for _ in 0..10_000 {
            h.reward(&p, 1, Pos(7), 30, None, &[]);
        }
        let full = (p.history_weight as i64) << 12;
        let bonus = h.order_bonus(&p, 1, None, Pos(7));
        assert!(
            bonus <= full && bonus > full * 99 / 100,
            "{bonus} of {full}"
        );
    }

    #[test]
    fn classic_rule_is_depth_squared_and_ignores_the_tried_moves() {
        let p = Params {
            history_gravity: false,
            ..Params::default()
        };
        let mut h = History::new();
        h.reward(&p, 0, Pos(5), 3, Some(Pos(9)), &[Pos(6)]);
        h.reward(&p, 0, Pos(5), 2, Some(Pos(9)), &[Pos(6)]);
        assert_eq!(h.quiet(0, Pos(5)), 13);
        assert_eq!(h.quiet(0, Pos(6)), 0);
        assert_eq!(h.order_bonus(&p, 0, Some(Pos(9)), Pos(5)), 13);
        // Counter moves are off: none recorded, none read.
        assert_eq!(h.counter(&gravity(), 0, Some(Pos(9))), None);
        h.age();
        assert_eq!(h.quiet(0, Pos(5)), 6);
    }

    #[test]
    fn counter_move_follows_the_last_refutation_of_a_move() {
        let p = gravity();
        let mut h = History::new();
        h.reward(&p, 0, Pos(5), 3, Some(Pos(9)), &[]);
        assert_eq!(h.counter(&p, 0, Some(Pos(9))), Some(Pos(5)));
        h.reward(&p, 0, Pos(6), 1, Some(Pos(9)), &[]);
        assert_eq!(h.counter(&p, 0, Some(Pos(9))), Some(Pos(6)));
        assert_eq!(h.counter(&p, 1, Some(Pos(9))), None);
        assert_eq!(h.counter(&p, 0, None), None);
        h.clear();
        assert_eq!(h.counter(&p, 0, Some(Pos(9))), None);
        assert_eq!(h.quiet(0, Pos(6)), 0);
    }

    #[test]
    fn continuation_learns_the_answer_to_one_move_within_the_bound() {
        let on = Params {
            continuation_history: true,
            ..gravity()
        };
        let mut h = History::new();
        let (answer, other, prev, elsewhere) = (Pos(40), Pos(41), Pos(9), Pos(10));
        for _ in 0..1000 {
            h.reward(&on, 0, answer, 20, Some(prev), &[other]);
        }
        let c = h.continuation(0, prev, answer);
        assert!((HISTORY_MAX * 9 / 10..=HISTORY_MAX).contains(&c), "{c}");
        assert!(h.continuation(0, prev, other) <= -HISTORY_MAX * 9 / 10);
        // Only after that move, and only for that colour.
        assert_eq!(h.continuation(0, elsewhere, answer), 0);
        assert_eq!(h.continuation(1, prev, answer), 0);
        // The order and the reductions read the sum after `prev`, the history alone elsewhere.
        let q = h.quiet(0, answer);
        assert_eq!(h.score(&on, 0, Some(prev), answer), q + c);
        assert_eq!(h.score(&on, 0, Some(elsewhere), answer), q);
        assert!(h.order_bonus(&on, 0, Some(prev), answer) > h.order_bonus(&on, 0, None, answer));
        // Off, the same updates leave the table untouched and unread.
        let mut off = History::new();
        off.reward(&gravity(), 0, answer, 20, Some(prev), &[]);
        assert_eq!(off.continuation(0, prev, answer), 0);
        assert_eq!(
            off.score(&gravity(), 0, Some(prev), answer),
            off.quiet(0, answer)
        );
        // Ageing keeps it (gravity bounds it); a new game clears it.
        h.age();
        assert_eq!(h.continuation(0, prev, answer), c);
        h.clear();
        assert_eq!(h.continuation(0, prev, answer), 0);
    }
}
