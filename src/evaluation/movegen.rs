//! Move generation: which empty cells a node considers, each scored once, ranked by a threat
//! ladder that keeps both sides' threats at every rung.
//!
//! # The ladder
//! A cell's rank is `max(2 * own + 1, 2 * opponent)` over the two colours' [`Threat`] rungs at
//! that cell: an own five, then blocking a five, then an own open four, then blocking an open
//! four, then an own four, ..., down to quiet cells. Both colours' points stay in the list at
//! every rung. (The Go predecessor returned early with the mover's own points at one rung and
//! so hid the opponent's counter-threats; the search then "proved" wins that were not there.)
//! Ties within a rank go to the larger move-policy score (how good the cell is to take plus how
//! good it is to deny, [`crate::evaluation::weights`]).
//!
//! # Which cells ([`Scope`])
//! - The mover has a five to make: only those cells ([`Scope::Win`]).
//! - The opponent has a five to make: only its five points, the forced blocks ([`Scope::Block`]).
//! - With [`OpenThree::Wide`] or [`OpenThree::Exact`], the opponent has an open four to make (an
//!   open three on the board): only the mover's fours and the defences ([`Scope::Defend`]). Any
//!   other move lets the open four come and loses (after an open four only a five saves the
//!   mover, and a move that threatens one is a four, which is kept). `Wide` takes every cell
//!   where the opponent would make a four or better on some line (every defence of a three is
//!   such a cell); `Exact` keeps of those only the cells after which the opponent has no usable
//!   open four left (each tried by make and unmake). When `Exact` leaves nothing (two threes no
//!   one cell stops, and no four) the node is lost; it falls back to the wide set so that the
//!   search still sees moves. Not under caro: a five blocked at both ends does not win there,
//!   so a cell beyond a three's end can hold where the opponent makes no four, and the open
//!   four rung does not see that far; caro nodes are not restricted. The completeness of both sets is tested against the VCF solver in
//!   `tests/search/defences.rs`.
//! - With [`Defences::four_three`], the opponent has no open four but a four-three to make that
//!   wins in 5 (the mover has no four to make; not under caro, nor for renju's black): only
//!   the mover's fours and the moves after which that win is gone ([`Scope::DefendFourThree`]):
//!   its point, the cells that break its four or its three, and the moves that give the mover
//!   a four to make (each tried by make and unmake). Any other move loses to the four-three,
//!   the block of its four and the open four. When nothing is left the node is lost; it falls
//!   back to every move. Tested against the VCF solver like the open three's sets.
//! - Otherwise every empty cell within Chebyshev distance 2 of a stone ([`Scope::All`]).
//!
//! Renju forbidden points are never generated for black (only suspects are checked, and the
//! check is cached by [`Position::is_forbidden`]); a black threat on a forbidden point is no
//! threat, so white does not rank it.

use crate::evaluation::position::Position;
use crate::evaluation::weights;
use crate::game::board::{Color, Pos};
use crate::game::pattern::{Pattern, Threat, HALF};
use crate::game::rules::Rule;

/// A generated move with its ladder rank and static value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The cell.
    pub pos: Pos,
    /// Ladder rank (see the module docs); [`QUIET_RANK`] and below is quiet.
    pub rank: u8,
    /// The move policy's score of the cell, taking it plus denying it to the opponent
    /// ([`crate::evaluation::eval::CellInfo::attack`] and `defence`): the order within a rank.
    pub value: i32,
    /// The search's ordering key (higher first); movegen leaves it 0.
    pub order: i64,
}

/// Ranks at or below this are quiet (no open three or better for either side at the cell).
pub const QUIET_RANK: u8 = 1;

/// The lowest rank of a move that makes an own four (or a four-three, an open four, a five),
/// or blocks the opponent's four-three or better.
pub const OWN_FOUR_RANK: u8 = 2 * Threat::Four as u8 + 1;

/// How a node facing an open three restricts its moves (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenThree {
    /// No restriction.
    Off,
    /// Own fours and every cell where the opponent would make a four.
    Wide,
    /// Own fours and the cells after which the opponent has no open four to make.
    Exact,
}

/// How a node facing the opponent's threats restricts its moves (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defences {
    /// Against an open three (the opponent has an open four to make).
    pub open_three: OpenThree,
    /// Against a four-three point (the opponent has one and no open four to make): only own
    /// fours and the moves after which it no longer wins in 5 ([`Scope::DefendFourThree`]).
    pub four_three: bool,
}

impl Defences {
    /// No restriction.
    pub const OFF: Defences = Defences {
        open_three: OpenThree::Off,
        four_three: false,
    };
    /// The wide defences against an open three, nothing against a four-three.
    pub const WIDE: Defences = Defences {
        open_three: OpenThree::Wide,
        four_three: false,
    };
    /// The exact defences against an open three, nothing against a four-three.
    pub const EXACT: Defences = Defences {
        open_three: OpenThree::Exact,
        four_three: false,
    };
}

/// Which cells a node considers (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Own fives only.
    Win,
    /// The opponent's five points only.
    Block,
    /// Own fours and the defences against the opponent's open threes.
    Defend,
    /// Own fours and the defences against the opponent's four-three points.
    DefendFourThree,
    /// Everything near the stones.
    All,
}

/// The ladder rank of a cell with rungs `own` and `opp`.
#[inline]
pub fn rank(own: Threat, opp: Threat) -> u8 {
    (2 * own as u8 + 1).max(2 * opp as u8)
}

/// Whether a cell of ladder rank `rank` is a threat of the mover's own (an odd rank above
/// [`QUIET_RANK`]: [`rank`] gives the mover's rungs the odd values), not a block.
#[inline]
pub fn is_own_threat(rank: u8) -> bool {
    rank > QUIET_RANK && rank % 2 == 1
}

/// The rung colour `c` can really use at `q`: a suspect black point that is forbidden is none.
#[inline]
pub fn usable_threat(pos: &mut Position, q: Pos, c: Color) -> Threat {
    let info = pos.info(q, c);
    if info.threat != Threat::None && info.suspect && pos.is_forbidden(q) {
        Threat::None
    } else {
        info.threat
    }
}

/// A cell where colour `c` reaches rung `t` or above and may play, if any.
pub fn find_usable(pos: &mut Position, c: Color, t: Threat) -> Option<Pos> {
    if !pos.has_at_least(c, t) {
        return None;
    }
    let cells = *pos.candidates();
    let found = cells
        .iter()
        .find(|&q| pos.info(q, c).threat >= t && usable_threat(pos, q, c) >= t);
    found
}

/// Fills `out` with the moves of the side to move (see the module docs) and says which scope
/// applied. An empty list means no legal move near the stones (a full board, or only forbidden
/// blocks).
pub fn generate(pos: &mut Position, defences: Defences, out: &mut Vec<Move>) -> Scope {
    out.clear();
    let me = pos.side_to_move();
    let op = me.opponent();
    let cells = *pos.candidates();
    let recent = weights::recent_stones(pos.board());
    if pos.has_at_least(me, Threat::Five) {
        for q in cells.iter() {
            if pos.info(q, me).threat == Threat::Five {
                out.push(make_move(pos, q, me, &recent));
            }
        }
        return Scope::Win;
    }
    if pos.has_at_least(op, Threat::Five) {
        for q in cells.iter() {
            if pos.info(q, op).threat == Threat::Five && pos.is_legal_for(q, me) {
                out.push(make_move(pos, q, me, &recent));
            }
        }
        return Scope::Block;
    }
    // Under caro a five blocked at both ends does not win, so whether a four is open depends on
    // cells beyond the pattern window (a stone four cells past a three's end can hold): the
    // rung is not exact enough to prune on, and caro nodes are not restricted.
    let defend = defences.open_three != OpenThree::Off
        && pos.rule() != Rule::Caro
        && find_usable(pos, op, Threat::OpenFour).is_some();
    let mut exact = defend && defences.open_three == OpenThree::Exact;
    let mut four_three = if !defend && defences.four_three {
        winning_four_three(pos, me)
    } else {
        None
    };
    let parry = four_three.is_some();
    loop {
        for q in cells.iter() {
            if !pos.is_legal_for(q, me) {
                continue;
            }
            if defend && pos.info(q, me).threat < Threat::Four {
                if !pos.patterns(q, op).iter().any(|&p| p >= Pattern::B4) {
                    continue;
                }
                if exact && !stops_open_fours(pos, q, op) {
                    continue;
                }
            }
            if let Some(point) = four_three {
                if pos.info(q, me).threat < Threat::Four && !parries_four_three(pos, q, point) {
                    continue;
                }
            }
            out.push(make_move(pos, q, me, &recent));
        }
        if !((exact || four_three.is_some()) && out.is_empty()) {
            break;
        }
        exact = false;
        four_three = None;
    }
    if defend {
        Scope::Defend
    } else if parry {
        Scope::DefendFourThree
    } else {
        Scope::All
    }
}

/// An opponent's usable four-three point that wins in 5 against the side to move `me`, if
/// there is one: `me` has no four to make (so the forced block of the opponent's four cannot
/// be one, nor any later move), and the rule is one where the four-three's open four wins
/// (not caro, whose five may be blocked at both ends, nor renju's black, whose open four may
/// be forbidden). The search's four-three win reads it too; it is checked on every such position of
/// 1200 random games by `tests/search/four_three.rs`.
pub fn winning_four_three(pos: &mut Position, me: Color) -> Option<Pos> {
    let op = me.opponent();
    let rule = pos.rule();
    if rule == Rule::Caro
        || (rule == Rule::Renju && op == Color::Black)
        || pos.has_at_least(me, Threat::Four)
    {
        return None;
    }
    find_usable(pos, op, Threat::FourThree)
}

/// Whether the side to move playing `q` (not a four) leaves the opponent without a four-three
/// that wins in 5 ([`winning_four_three`]); `point` is one of the opponent's four-three points.
/// Only two kinds of move can: one in the pattern window of `point` on one of its lines (a
/// stone elsewhere leaves its patterns, so its four-three, as they are), and one that gives
/// the mover a four to make (its new four's line runs through `q`, so `q` makes a three of
/// some kind there: a pattern of `B3` or better). Any other move is skipped without the make
/// and unmake that decide.
fn parries_four_three(pos: &mut Position, q: Pos, point: Pos) -> bool {
    let me = pos.side_to_move();
    let (dx, dy) = (q.x().abs_diff(point.x()), q.y().abs_diff(point.y()));
    let in_window = (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= HALF as usize;
    if !in_window && !pos.patterns(q, me).iter().any(|&p| p >= Pattern::B3) {
        return false;
    }
    pos.make(q);
    let parried = pos.has_at_least(me, Threat::Four) || winning_four_three(pos, me).is_none();
    pos.unmake();
    parried
}

/// Whether the side to move playing `q` leaves `op` without a usable open four to make.
fn stops_open_fours(pos: &mut Position, q: Pos, op: Color) -> bool {
    pos.make(q);
    let stopped = find_usable(pos, op, Threat::OpenFour).is_none();
    pos.unmake();
    stopped
}

/// The last two stones (the opponent's, then the mover's): the policy's proximity terms.
type Recent = [Option<Pos>; 2];

fn make_move(pos: &mut Position, q: Pos, me: Color, recent: &Recent) -> Move {
    let op = me.opponent();
    let own = pos.info(q, me);
    let opp_threat = usable_threat(pos, q, op);
    let near = &pos.weights().near;
    Move {
        pos: q,
        rank: rank(own.threat, opp_threat),
        value: own.attack as i32
            + pos.info(q, op).defence as i32
            + near[weights::near_bucket(q, recent[0])][0]
            + near[weights::near_bucket(q, recent[1])][1],
        order: 0,
    }
}

/// The side to move's fours that do not win at once (quiescence moves): rungs
/// [`Threat::Four`] and [`Threat::FourThree`], and under caro also open fours (a block there
/// can close the other end, so they are played out). Legal points only.
pub fn fours(pos: &mut Position, out: &mut Vec<Move>) {
    out.clear();
    let me = pos.side_to_move();
    if !pos.has_at_least(me, Threat::Four) {
        return;
    }
    let top = if pos.rule() == Rule::Caro {
        Threat::OpenFour
    } else {
        Threat::FourThree
    };
    let cells = *pos.candidates();
    let recent = weights::recent_stones(pos.board());
    for q in cells.iter() {
        let t = pos.info(q, me).threat;
        if t >= Threat::Four && t <= top && pos.is_legal_for(q, me) {
            out.push(make_move(pos, q, me, &recent));
        }
    }
    out.sort_by_key(|m| std::cmp::Reverse((m.rank, m.value)));
}

/// The top of the ladder: the move to play when there is no time to search. `None` only on a
/// full board.
pub fn fast_move(pos: &mut Position) -> Option<Pos> {
    if pos.board().stone_count() == 0 {
        let c = pos.board().size() / 2;
        return Some(Pos::new(c, c));
    }
    let mut moves = Vec::new();
    generate(pos, Defences::WIDE, &mut moves);
    let best = moves
        .iter()
        .max_by_key(|m| (m.rank, m.value, std::cmp::Reverse(m.pos)));
    match best {
        Some(m) => Some(m.pos),
        None => {
            // Only forbidden blocks, or nothing near the stones: any legal empty point.
            let me = pos.side_to_move();
            let empties: Vec<Pos> = pos.board().empty_cells().collect();
            empties
                .iter()
                .copied()
                .find(|&q| !(me == Color::Black && pos.is_forbidden(q)))
                .or(empties.first().copied())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;

    fn position(pic: &str, rule: Rule) -> Position {
        Position::new(&Board::from_picture(pic).unwrap(), rule)
    }

    #[test]
    fn own_threats_are_told_from_blocks_and_quiet_cells() {
        // Every rung above none.
        for t in Threat::ALL.into_iter().skip(1) {
            assert!(is_own_threat(rank(t, Threat::None)), "own {t:?}");
            assert!(!is_own_threat(rank(Threat::None, t)), "block of {t:?}");
            // A cell that is both: the higher rung decides, the own one on a tie.
            assert!(is_own_threat(rank(t, t)), "own and block of {t:?}");
        }
        assert!(!is_own_threat(rank(Threat::None, Threat::None)));
        assert!(!is_own_threat(QUIET_RANK));
    }

    #[test]
    fn both_sides_kept_at_each_rung() {
        // White to move; black has an open three (row 4), white has its own three (row 1).
        let mut p = position(
            "\
            . . . . . . . . .\n\
            . . O O O . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . X X X . . . .\n\
            . . . . . . . X .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n",
            Rule::Freestyle,
        );
        assert_eq!(p.side_to_move(), Color::White);
        let mut moves = Vec::new();
        // White's open four to make wins, so it must rank top, but black's blocks stay listed.
        let scope = generate(&mut p, Defences::WIDE, &mut moves);
        assert_eq!(scope, Scope::Defend);
        moves.sort_by_key(|m| std::cmp::Reverse((m.rank, m.value)));
        assert!(moves[0].pos == Pos::new(1, 1) || moves[0].pos == Pos::new(5, 1));
        assert_eq!(moves[0].rank, rank(Threat::OpenFour, Threat::None));
        for q in [Pos::new(1, 4), Pos::new(5, 4)] {
            let m = moves.iter().find(|m| m.pos == q).expect("block kept");
            assert_eq!(m.rank, rank(Threat::None, Threat::OpenFour));
        }
        assert_eq!(fast_move(&mut p), Some(moves[0].pos));
    }

    #[test]
    fn forced_block_of_a_split_four() {
        let mut p = position(
            "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . X X . X X . . .\n\
            . . . . . . . . .\n\
            . . . O O O . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n",
            Rule::Freestyle,
        );
        let mut moves = Vec::new();
        assert_eq!(generate(&mut p, Defences::WIDE, &mut moves), Scope::Block);
        assert_eq!(
            moves.iter().map(|m| m.pos).collect::<Vec<_>>(),
            vec![Pos::new(3, 3)]
        );
    }

    #[test]
    fn renju_forbidden_points_not_generated_for_black() {
        // Black to move; (4,4) would be a double three.
        let mut p = position(
            "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . X . . . .\n\
            . . . . X . . . .\n\
            . . X X . . . . .\n\
            . . . . . . . . .\n\
            . O . . . . . O .\n\
            . . . . . . . . .\n\
            . O . O . . . O .\n",
            Rule::Renju,
        );
        assert_eq!(p.side_to_move(), Color::Black);
        let mut moves = Vec::new();
        generate(&mut p, Defences::WIDE, &mut moves);
        assert!(!moves.iter().any(|m| m.pos == Pos::new(4, 4)));
        let mut free = position(&p.board().to_string(), Rule::Freestyle);
        generate(&mut free, Defences::WIDE, &mut moves);
        assert!(moves.iter().any(|m| m.pos == Pos::new(4, 4)));
    }
}
