//! Re-checking a VCF line on a changed board by the solvers' quick checks: each attacker move
//! legal, each four's five points and the defender's stops (the line's reply the only one),
//! no defender five point along the way. The VCF and VCT solvers use it to re-prove a threat
//! after a defence without a search; a `true` is a fast filter, re-checked by the verifier
//! before any proof is published.

use crate::game::board::{Board, Color, Direction, Pos};
use crate::game::rules::{self, Rule};
use crate::solver::threats;

/// Where the defender may already have a five point when a replay starts (later, a new one
/// can only run through its latest reply: attacker stones only take five points away).
#[derive(Clone, Copy, Debug)]
pub(crate) enum DefenderFives {
    /// Anywhere: looked for around all its stones until its first reply.
    Anywhere,
    /// At most through this stone of its (just added).
    Through(Pos),
    /// Nowhere (the caller knows it has none).
    Nowhere,
}

/// One attacker move of a replayed line, as the replay met it.
pub(crate) struct Step<'a> {
    /// The attacker's move.
    pub mv: Pos,
    /// It made five (the line's last move; the board does not hold it).
    pub five: bool,
    /// Its five points and the defender's stopping moves (the board holds the move).
    pub fives: &'a [Pos],
    /// The defender's moves that stop every five point.
    pub stops: &'a [Pos],
    /// The line's reply (none after the last move).
    pub reply: Option<Pos>,
}

/// Whether the VCF `line` of the attacker `a` (to move) still wins on `b` by the quick checks.
pub(crate) fn replay_line(
    b: &mut Board,
    rule: Rule,
    a: Color,
    line: &[Pos],
    before: DefenderFives,
) -> bool {
    replay_steps(b, rule, a, line, before, |_, _| {})
}

/// [`replay_line`], showing `visit` each attacker move that passed the legality test (and,
/// unless it made five, left the defender no five point) before its reply is checked. The board
/// is left as found.
pub(crate) fn replay_steps(
    b: &mut Board,
    rule: Rule,
    a: Color,
    line: &[Pos],
    before: DefenderFives,
    mut visit: impl FnMut(&Board, &Step),
) -> bool {
    let d = a.opponent();
    let (mut last, everywhere) = match before {
        DefenderFives::Anywhere => (None, true),
        DefenderFives::Through(q) => (Some(q), false),
        DefenderFives::Nowhere => (None, false),
    };
    let mut played = 0;
    let mut ok = false;
    let mut i = 0;
    while i < line.len() {
        let m = line[i];
        if !legal(b, m, a, rule) {
            break;
        }
        if rules::is_win_at(b, m, a, rule) {
            let step = Step {
                mv: m,
                five: true,
                fives: &[],
                stops: &[],
                reply: None,
            };
            visit(b, &step);
            ok = i + 1 == line.len();
            break;
        }
        b.put(m, a).expect("checked empty");
        played += 1;
        let fives = threats::five_points_through(b, m, a, rule);
        let dfive = match last {
            Some(r) => !threats::five_points_through(b, r, d, rule).is_empty(),
            None => everywhere && defender_has_five(b, d, rule),
        };
        if fives.is_empty() || dfive {
            break;
        }
        let stops = threats::stopping_moves(b, &fives, a, rule);
        let reply = line.get(i + 1).copied();
        let step = Step {
            mv: m,
            five: false,
            fives: &fives,
            stops: &stops,
            reply,
        };
        visit(b, &step);
        let Some(r) = reply else {
            ok = stops.is_empty();
            break;
        };
        if !(stops.is_empty() || stops == [r]) || !b.is_empty_at(r) {
            break;
        }
        b.put(r, d).expect("checked empty");
        played += 1;
        last = Some(r);
        i += 2;
    }
    for _ in 0..played {
        b.undo();
    }
    ok
}

/// Whether colour `d` has a five point anywhere (a full check around its stones).
fn defender_has_five(b: &Board, d: Color, rule: Rule) -> bool {
    b.stones(d).iter().any(|p| {
        Direction::ALL.iter().any(|&dir| {
            (-4..=4).any(|s| {
                p.offset(dir, s, b.size())
                    .is_some_and(|q| b.at(q).is_none() && rules::wins_in_dir(b, q, dir, d, rule))
            })
        })
    })
}

/// Whether colour `c` may play the empty `p` ([`rules::is_legal`], with black's forbidden test
/// run only where the black stones around `p` allow a forbidden shape).
pub(crate) fn legal(b: &mut Board, p: Pos, c: Color, rule: Rule) -> bool {
    if !b.is_empty_at(p) {
        return false;
    }
    if c != Color::Black || rule != Rule::Renju {
        return true;
    }
    let r = !may_be_forbidden(b, p) || !rules::is_forbidden(b, p, rule);
    debug_assert_eq!(r, rules::is_legal(b, p, c, rule), "{p}\n{b}");
    r
}

/// Whether black stones near the empty `p` leave room for a forbidden shape there (false
/// proves `p` is not forbidden). A three or four through `p` needs at least two other black
/// stones within four cells along its line, a double four on one line or an overline at least
/// four; so a forbidden point needs two such directions, or four stones in one.
pub(crate) fn may_be_forbidden(b: &Board, p: Pos) -> bool {
    let mut lines = 0;
    for dir in Direction::ALL {
        let n = (-4..=4)
            .filter(|&s| s != 0)
            .filter(|&s| {
                p.offset(dir, s, b.size())
                    .is_some_and(|q| b.at(q) == Some(Color::Black))
            })
            .count();
        if n >= 4 {
            return true;
        }
        if n >= 2 {
            lines += 1;
        }
    }
    lines >= 2
}
