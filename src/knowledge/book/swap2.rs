//! Swap2 (and Swap1) opening decisions, each option judged by a short search.
//!
//! # The protocol's three cases (`SWAP2BOARD`)
//! - **0 stones**: propose three stones (black, white, black). Candidates are the 26 classical
//!   openings and a few with black's second stone further out; each is searched (white to move)
//!   and the one with the smallest |score| is proposed, so the opponent's colour choice gains
//!   little.
//! - **3 stones** (white to move): `SWAP` takes black, one move plays white's fourth stone (we
//!   take white), two moves place the fourth and fifth and hand the choice back. The position is
//!   searched once: a clear edge (|score| at least [`BALANCED_BAND`]) picks that colour. Inside
//!   the band a colour choice is a guess; we then place white's best fourth stone and the black
//!   fifth stone that leaves the position most balanced, a position our table now knows.
//! - **5 stones** (white to move): `SWAP` (take black) when white stands worse, else play
//!   white's best sixth stone. Swap1 after three stones is the same choice ([`choose_colour`]).
//!
//! # Time
//! The move's budget ([`crate::search::timeman::budget_ms`]) is split evenly among the searches of a
//! decision; without a clock each search is capped at [`UNTIMED_DEPTH`] plies (the request's
//! `max_depth` wins when smaller), and an instant budget searches one ply.

use super::classic::classic_openings;
use super::symmetry::{canonical, Key};
use crate::evaluation::movegen;
use crate::evaluation::position::Position;
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{is_win_at, Rule};
use crate::search::alphabeta::SearchResult;
use crate::search::timeman::Limits;
use crate::search::timeman::{self, Plan};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// Scores of smaller magnitude are too close to call a colour.
pub const BALANCED_BAND: i32 = 50;
/// Depth of each search when the request has no clock.
pub const UNTIMED_DEPTH: u32 = 6;
/// Black fifth stones tried when placing two stones.
pub const FIFTH_CANDIDATES: usize = 6;

/// A Swap2 answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Reply {
    /// Take black: the opponent plays white's next stone.
    Swap,
    /// These stones, in order (three proposed stones; white's next stone, which makes us
    /// white; or white's fourth and black's fifth, handing the choice back).
    Moves(Vec<Pos>),
}

/// Runs one search of a position (its side to move) under a plan; the engine provides it (its
/// table and worker).
pub type Searcher<'a> = dyn FnMut(&Board, Plan) -> SearchResult + 'a;

/// Splits a move's limits into `n` search slots (shared with the other opening rules' decisions,
/// so that every opening step honours the move's budget the same way).
pub(super) struct Slots {
    per: Option<Duration>,
    max_depth: u32,
    max_nodes: Option<u64>,
}

impl Slots {
    /// `n` even slots of what is left of `limits` (see the module docs' *Time*).
    pub(super) fn new(limits: &Limits, n: usize) -> Slots {
        let n = n.max(1);
        let depth_cap = limits.max_depth.unwrap_or(u32::MAX);
        let slots = |per: Option<Duration>, depth: u32| Slots {
            per,
            max_depth: depth.min(depth_cap).max(1),
            max_nodes: limits.max_nodes.map(|m| (m / n as u64).max(1)),
        };
        match timeman::budget_ms(limits) {
            None => slots(None, UNTIMED_DEPTH),
            Some(0) => slots(None, 1),
            // What is left when the decision starts, shared evenly.
            Some(ms) => slots(
                Some(Duration::from_millis(ms).saturating_sub(limits.started.elapsed()) / n as u32),
                u32::MAX,
            ),
        }
    }

    /// One search of `board` (its side to move) within one slot.
    pub(super) fn run(&self, search: &mut Searcher<'_>, board: &Board) -> SearchResult {
        let now = Instant::now();
        let clock = match self.per {
            None => Plan::UNLIMITED,
            Some(d) => Plan::within(now, d),
        };
        let plan = Plan {
            max_depth: Some(self.max_depth),
            max_nodes: self.max_nodes,
            ..clock
        };
        search(board, plan)
    }
}

/// Three-stone proposals: the classical openings, then openings with black's second stone three
/// points from the centre, each class once.
pub fn proposals(size: usize) -> Vec<[Pos; 3]> {
    let mut out: Vec<[Pos; 3]> = classic_openings(size).iter().map(|o| o.moves).collect();
    let c = (size / 2) as i64;
    let at = |dx: i64, dy: i64| Pos::new((c + dx) as usize, (c + dy) as usize);
    let mut seen: BTreeSet<Key> = BTreeSet::new();
    for w in [at(0, -1), at(1, -1)] {
        for (dx, dy) in [
            (3, 0),
            (0, 3),
            (-3, 0),
            (3, 3),
            (-3, 3),
            (2, 3),
            (-2, 3),
            (3, -3),
            (1, 3),
        ] {
            let third = at(dx, dy);
            let stones = [
                (at(0, 0), Color::Black),
                (w, Color::White),
                (third, Color::Black),
            ];
            if seen.insert(canonical(&stones, size).0) {
                out.push([at(0, 0), w, third]);
            }
        }
    }
    out
}

/// The answer to an empty `SWAP2BOARD`: the most balanced proposal.
pub fn propose(size: usize, limits: &Limits, search: &mut Searcher<'_>) -> [Pos; 3] {
    most_balanced(size, proposals(size), limits, search)
}

/// The three-stone opening among `all` whose search (white to move) scores nearest zero, so
/// that the opponent's colour choice gains little.
pub fn most_balanced(
    size: usize,
    all: Vec<[Pos; 3]>,
    limits: &Limits,
    search: &mut Searcher<'_>,
) -> [Pos; 3] {
    let slots = Slots::new(limits, all.len());
    let mut best: Option<([Pos; 3], i32)> = None;
    for three in all {
        let mut b = Board::new(size);
        if three.iter().any(|&p| b.play(p).is_err()) {
            continue;
        }
        let s = slots.run(search, &b).score.abs();
        if best.is_none_or(|(_, v)| s < v) {
            best = Some((three, s));
        }
    }
    best.expect("the classical openings fit every supported board")
        .0
}

/// Swap1, and Swap2 with five stones: take black (`Swap`) when the side to move (white) stands
/// worse, else play white's best move.
pub fn choose_colour(board: &Board, limits: &Limits, search: &mut Searcher<'_>) -> Swap2Reply {
    let r = Slots::new(limits, 1).run(search, board);
    if r.score < 0 {
        Swap2Reply::Swap
    } else {
        Swap2Reply::Moves(vec![r.best])
    }
}

/// Swap2 with three stones (white to move): a colour, or two more stones (see the module docs).
pub fn after_three(
    board: &Board,
    rule: Rule,
    limits: &Limits,
    search: &mut Searcher<'_>,
) -> Swap2Reply {
    let slots = Slots::new(limits, 1 + FIFTH_CANDIDATES);
    let r = slots.run(search, board);
    if r.score >= BALANCED_BAND {
        return Swap2Reply::Moves(vec![r.best]);
    }
    if r.score <= -BALANCED_BAND {
        return Swap2Reply::Swap;
    }
    let fourth = r.best;
    let mut b = board.clone();
    b.play(fourth).expect("search answers an empty point");
    let mut best: Option<(Pos, i32)> = None;
    for p in promising_moves(&b, rule).into_iter().take(FIFTH_CANDIDATES) {
        if is_win_at(&b, p, Color::Black, rule) {
            continue;
        }
        b.play(p).expect("generated moves are empty points");
        let s = slots.run(search, &b).score.abs();
        b.undo();
        if best.is_none_or(|(_, v)| s < v) {
            best = Some((p, s));
        }
    }
    match best {
        Some((fifth, _)) => Swap2Reply::Moves(vec![fourth, fifth]),
        // No fifth stone to offer: the sign decides.
        None if r.score < 0 => Swap2Reply::Swap,
        None => Swap2Reply::Moves(vec![fourth]),
    }
}

/// The side to move's candidate moves in the search's own order of promise: ladder rank, then
/// value, then index (so the order is deterministic).
pub fn promising_moves(board: &Board, rule: Rule) -> Vec<Pos> {
    let mut pos = Position::new(board, rule);
    let mut moves = Vec::new();
    movegen::generate(&mut pos, movegen::Defences::WIDE, &mut moves);
    moves.sort_by_key(|m| std::cmp::Reverse((m.rank, m.value, std::cmp::Reverse(m.pos))));
    moves.into_iter().map(|m| m.pos).collect()
}

/// The answer to `SWAP2BOARD` with `board`'s stones (0, 3 or 5, placed black first); `None`
/// for another count.
pub fn decide(
    board: &Board,
    rule: Rule,
    limits: &Limits,
    search: &mut Searcher<'_>,
) -> Option<Swap2Reply> {
    let mut b = board.clone();
    match board.stone_count() {
        0 => Some(Swap2Reply::Moves(
            propose(board.size(), limits, search).to_vec(),
        )),
        3 => {
            b.set_side_to_move(Color::White);
            Some(after_three(&b, rule, limits, search))
        }
        5 => {
            b.set_side_to_move(Color::White);
            Some(choose_colour(&b, limits, search))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A searcher that scores a position by a table of stone counts and answers the first empty
    /// point near the centre; it records every call's plan.
    struct Fake {
        calls: Vec<(usize, Plan, Option<Pos>)>,
        score: Box<dyn Fn(&Board) -> i32>,
    }

    impl Fake {
        fn run(&mut self, b: &Board, plan: Plan) -> SearchResult {
            self.calls.push((b.stone_count(), plan, b.last_move()));
            let c = b.size() / 2;
            let best = (0..b.size() * b.size())
                .map(|i| Pos::new(c - 3 + i % 7, c - 3 + i / 7))
                .find(|&p| b.is_empty_at(p))
                .unwrap();
            SearchResult {
                best,
                score: (self.score)(b),
                depth: plan.max_depth.unwrap_or(u32::MAX).min(3),
                nodes: 1,
                pv: vec![best],
                ..SearchResult::unsearched(best)
            }
        }
    }

    fn three() -> Board {
        let mut b = Board::new(15);
        for p in [(7, 7), (7, 6), (8, 8)] {
            b.play(Pos::new(p.0, p.1)).unwrap();
        }
        b
    }

    #[test]
    fn proposal_is_the_most_balanced_and_untimed_searches_are_capped() {
        // |score| is smallest for the opening whose black stone is furthest from the centre.
        let mut f = Fake {
            calls: Vec::new(),
            score: Box::new(|b: &Board| {
                let p = b.history()[2].0;
                100 - 10 * p.chebyshev(Pos::new(7, 7)) as i32
            }),
        };
        let all = proposals(15);
        assert!(all.len() > 26);
        let got = propose(15, &Limits::depth(4), &mut |b, p| f.run(b, p));
        assert_eq!(got[2].chebyshev(Pos::new(7, 7)), 3);
        assert_eq!(f.calls.len(), all.len());
        assert!(f
            .calls
            .iter()
            .all(|(n, p, _)| *n == 3 && p.max_depth == Some(4) && p.hard.is_none()));
    }

    #[test]
    fn after_three_takes_a_clear_colour() {
        for (score, want) in [
            (300, Swap2Reply::Moves(vec![Pos::new(4, 4)])),
            (-300, Swap2Reply::Swap),
        ] {
            let mut f = Fake {
                calls: Vec::new(),
                score: Box::new(move |_| score),
            };
            let r = after_three(
                &three(),
                Rule::Freestyle,
                &Limits::per_move(700),
                &mut |b, p| f.run(b, p),
            );
            assert_eq!(r, want);
            assert_eq!(f.calls.len(), 1);
            // The budget is shared among the searches the decision may need.
            let (_, plan, _) = f.calls[0];
            let per = plan.budget.unwrap();
            assert!(per <= Duration::from_millis(700) / (1 + FIFTH_CANDIDATES) as u32);
        }
    }

    #[test]
    fn after_three_places_two_when_balanced() {
        // Balanced after three; after five, the fifth stone furthest right is the most balanced.
        let mut f = Fake {
            calls: Vec::new(),
            score: Box::new(|b: &Board| match b.stone_count() {
                3 => 10,
                _ => 200 - 10 * b.history()[4].0.x() as i32,
            }),
        };
        let r = after_three(&three(), Rule::Freestyle, &Limits::depth(3), &mut |b, p| {
            f.run(b, p)
        });
        let Swap2Reply::Moves(m) = r else {
            panic!("{r:?}")
        };
        assert_eq!(m.len(), 2);
        assert_eq!(m[0], Pos::new(4, 4));
        assert_eq!(f.calls.len(), 1 + FIFTH_CANDIDATES);
        let tried: Vec<Pos> = f.calls[1..].iter().map(|c| c.2.unwrap()).collect();
        let max_x = tried.iter().map(|p| p.x()).max().unwrap();
        assert_eq!(Some(&m[1]), tried.iter().find(|p| p.x() == max_x));
        assert!(!three()
            .history()
            .iter()
            .any(|&(p, _)| p == m[1] || p == m[0]));
    }

    #[test]
    fn five_stones_choose_a_colour() {
        let mut b = three();
        b.play(Pos::new(6, 6)).unwrap();
        b.play(Pos::new(9, 9)).unwrap();
        for (score, swap) in [(-1, true), (0, false), (50, false)] {
            let mut f = Fake {
                calls: Vec::new(),
                score: Box::new(move |_| score),
            };
            let r = decide(&b, Rule::Freestyle, &Limits::depth(2), &mut |b, p| {
                f.run(b, p)
            })
            .unwrap();
            assert_eq!(r == Swap2Reply::Swap, swap, "{score}: {r:?}");
        }
        let mut f = Fake {
            calls: Vec::new(),
            score: Box::new(|_| 0),
        };
        let mut four = three();
        four.play(Pos::new(1, 1)).unwrap();
        assert_eq!(
            decide(&four, Rule::Freestyle, &Limits::depth(2), &mut |b, p| f
                .run(b, p)),
            None
        );
    }
}
