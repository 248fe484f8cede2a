//! Soosõrv-N opening decisions (a renju opening rule), each judged by short searches.
//!
//! # The rule
//! 1. The tentative black places one of the 26 classical openings: black on the centre, white
//!    within one point of it, black within two ([`super::classic`]).
//! 2. The tentative white may swap (take black).
//! 3. White places the fourth stone anywhere and declares N, the number of fifth-stone offers
//!    black will have to make (1..=[`MAX_OFFERS`]; Soosõrv-8, the form Yixin-Board plays).
//! 4. The tentative black may swap (take white).
//! 5. Black places N fifth stones as offers, no two of them copies of each other under a
//!    symmetry that keeps the four-stone position ([`super::symmetry::stabilizer`]).
//! 6. White picks one offer as black's fifth stone and plays the sixth.
//!
//! # Decisions
//! Black offers its N best fifth stones and white then takes the worst of them for black, so a
//! four-stone position with N offers is worth black's N-th best fifth stone. `offer_values`
//! scores the distinct legal candidates (one search each, white to move), best for black
//! first; the steps read it:
//! - **open**: the most balanced classical opening ([`swap2::most_balanced`]);
//! - **first swap**: Swap2's colour choice after three stones ([`swap2::choose_colour`]);
//! - **fourth and N**: white's best fourth stone, and the N whose value is nearest zero, so
//!   that black's swap gains little;
//! - **second swap**: black takes white when its N-th best offer is worth less than zero;
//! - **offers**: the N best candidates, topped up with the legal points nearest the centre
//!   (no copy of an earlier one) when the trials found fewer;
//! - **choice**: the offer after which white's search scores best.
//!
//! # Invariants
//! Every stone returned is empty, on the board and legal for its colour under the rule (renju
//! forbidden points are never offered), and offers are pairwise not copies of each other. Time
//! is split as for Swap2 ([`swap2`]'s *Time*): the decision's searches share the move's budget.

use super::classic::classic_openings;
use super::swap2::{self, promising_moves, Searcher, Slots, Swap2Reply};
use super::symmetry::{same_up_to, stabilizer};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{self, Rule};
use crate::search::timeman::Limits;

/// The most fifth-stone offers a player may ask for (Soosõrv-8; Yixin-Board's dialog allows
/// 1..=8).
pub const MAX_OFFERS: usize = 8;
/// Distinct fifth-stone candidates searched to value a four-stone position.
pub const OFFER_TRIALS: usize = 10;

/// One decision of the rule (see the module docs); the board a decision gets holds the stones
/// placed so far in move order, black first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoosorvStep {
    /// Step 1, empty board: place the three opening stones.
    Open,
    /// Step 2, three stones: as the tentative white, swap or not.
    FirstSwap,
    /// Step 3, three stones: as white, place the fourth stone and declare N.
    Fourth,
    /// Step 4, four stones and the N declared: as the tentative black, swap or not.
    SecondSwap(usize),
    /// Step 5, four stones: as black, place this many fifth-stone offers.
    Offer(usize),
    /// Step 6, four stones: as white, pick one of these offers.
    Choose(Vec<Pos>),
}

/// The answer to a [`SoosorvStep`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoosorvReply {
    /// The three opening stones (black, white, black).
    Opening([Pos; 3]),
    /// Whether to swap (take the other colour).
    Swap(bool),
    /// White's fourth stone and the number of fifth-stone offers declared.
    Fourth {
        /// The fourth stone.
        stone: Pos,
        /// N.
        offers: usize,
    },
    /// Black's fifth-stone offers.
    Offers(Vec<Pos>),
    /// The offer white takes as black's fifth stone.
    Chosen(Pos),
}

/// The stones a step expects on its board.
pub fn stones_expected(step: &SoosorvStep) -> usize {
    match step {
        SoosorvStep::Open => 0,
        SoosorvStep::FirstSwap | SoosorvStep::Fourth => 3,
        SoosorvStep::SecondSwap(_) | SoosorvStep::Offer(_) | SoosorvStep::Choose(_) => 4,
    }
}

/// The answer to `step` on `board`; `None` when the board does not hold the stones the step
/// expects ([`stones_expected`]) or a count is outside 1..=[`MAX_OFFERS`].
pub fn decide(
    board: &Board,
    rule: Rule,
    step: &SoosorvStep,
    limits: &Limits,
    search: &mut Searcher<'_>,
) -> Option<SoosorvReply> {
    if board.stone_count() != stones_expected(step) {
        return None;
    }
    let mut b = board.clone();
    b.set_side_to_move(if b.stone_count() % 2 == 0 {
        Color::Black
    } else {
        Color::White
    });
    let counted = |n: usize| (1..=MAX_OFFERS).contains(&n);
    Some(match step {
        SoosorvStep::Open => {
            let all = classic_openings(b.size()).iter().map(|o| o.moves).collect();
            SoosorvReply::Opening(swap2::most_balanced(b.size(), all, limits, search))
        }
        SoosorvStep::FirstSwap => SoosorvReply::Swap(matches!(
            swap2::choose_colour(&b, limits, search),
            Swap2Reply::Swap
        )),
        SoosorvStep::Fourth => fourth_and_count(&b, rule, limits, search),
        SoosorvStep::SecondSwap(n) if counted(*n) => {
            let slots = Slots::new(limits, OFFER_TRIALS);
            let values = offer_values(&b, rule, OFFER_TRIALS, &slots, search);
            SoosorvReply::Swap(worth(&values, *n).is_some_and(|v| v < 0))
        }
        SoosorvStep::Offer(n) if counted(*n) => {
            SoosorvReply::Offers(offers(&b, rule, *n, limits, search))
        }
        SoosorvStep::Choose(offered) if !offered.is_empty() => {
            SoosorvReply::Chosen(choose(&b, offered, limits, search))
        }
        _ => return None,
    })
}

/// What a four-stone position with `n` offers is worth to black: its `n`-th best fifth stone
/// (the last one tried when fewer were).
fn worth(values: &[(Pos, i32)], n: usize) -> Option<i32> {
    values.get(n - 1).or(values.last()).map(|v| v.1)
}

/// Black's fifth-stone candidates on `board` (four stones, black to move) in the search's order
/// of promise: legal for black, no two copies of each other under the position's symmetries.
pub fn distinct_candidates(board: &Board, rule: Rule) -> Vec<Pos> {
    let syms = stabilizer(board);
    let mut b = board.clone();
    let mut out: Vec<Pos> = Vec::new();
    for p in promising_moves(board, rule) {
        let copy = out.iter().any(|&q| same_up_to(&syms, q, p, b.size()));
        if !copy && rules::is_legal(&mut b, p, Color::Black, rule) {
            out.push(p);
        }
    }
    out
}

/// The first `trials` distinct candidates, each with its value for black after one search
/// (white to move), best for black first (ties keep the order of promise).
fn offer_values(
    board: &Board,
    rule: Rule,
    trials: usize,
    slots: &Slots,
    search: &mut Searcher<'_>,
) -> Vec<(Pos, i32)> {
    let mut b = board.clone();
    b.set_side_to_move(Color::Black);
    let mut values: Vec<(Pos, i32)> = distinct_candidates(&b, rule)
        .into_iter()
        .take(trials)
        .map(|p| {
            b.play(p).expect("candidates are empty points");
            let v = -slots.run(search, &b).score;
            b.undo();
            (p, v)
        })
        .collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.1));
    values
}

/// Step 3: white's best fourth stone on `board` (three stones, white to move) and the number of
/// offers whose value is nearest zero (the smallest such number on ties).
pub fn fourth_and_count(
    board: &Board,
    rule: Rule,
    limits: &Limits,
    search: &mut Searcher<'_>,
) -> SoosorvReply {
    let slots = Slots::new(limits, 1 + OFFER_TRIALS);
    let stone = slots.run(search, board).best;
    let mut b = board.clone();
    b.play(stone).expect("search answers an empty point");
    let values = offer_values(&b, rule, OFFER_TRIALS, &slots, search);
    let offers = (1..=MAX_OFFERS.min(values.len()))
        .min_by_key(|&n| (values[n - 1].1.unsigned_abs(), n))
        .unwrap_or(1);
    SoosorvReply::Fourth { stone, offers }
}

/// Step 5: black's `n` offers on `board` (four stones): the best distinct candidates, topped up
/// with the legal points nearest the centre that copy none of them.
pub fn offers(
    board: &Board,
    rule: Rule,
    n: usize,
    limits: &Limits,
    search: &mut Searcher<'_>,
) -> Vec<Pos> {
    let trials = OFFER_TRIALS.max(n);
    let slots = Slots::new(limits, trials);
    let mut out: Vec<Pos> = offer_values(board, rule, trials, &slots, search)
        .into_iter()
        .take(n)
        .map(|v| v.0)
        .collect();
    let syms = stabilizer(board);
    let mut b = board.clone();
    let size = b.size();
    let centre = Pos::new(size / 2, size / 2);
    let mut rest: Vec<Pos> = b.empty_cells().collect();
    rest.sort_by_key(|&p| (p.chebyshev(centre), p));
    for p in rest {
        if out.len() >= n {
            break;
        }
        let copy = out.iter().any(|&q| same_up_to(&syms, q, p, size));
        if !copy && rules::is_legal(&mut b, p, Color::Black, rule) {
            out.push(p);
        }
    }
    out
}

/// Step 6: the offer after which white (to move) scores best; the first on ties.
pub fn choose(board: &Board, offered: &[Pos], limits: &Limits, search: &mut Searcher<'_>) -> Pos {
    let slots = Slots::new(limits, offered.len());
    let mut b = board.clone();
    b.set_side_to_move(Color::Black);
    let mut best: Option<(Pos, i32)> = None;
    for &p in offered {
        b.play(p).expect("offers are empty points");
        let s = slots.run(search, &b).score;
        b.undo();
        if best.is_none_or(|(_, v)| s > v) {
            best = Some((p, s));
        }
    }
    best.expect("at least one offer").0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::SearchResult;
    use crate::search::timeman::Plan;
    use std::time::Duration;

    /// A searcher scoring positions by `score` (side to move's view) and answering the first
    /// empty point of a 7x7 square around the centre; it records each searched board.
    struct Fake {
        calls: Vec<(Board, Plan)>,
        score: Box<dyn Fn(&Board) -> i32>,
    }

    impl Fake {
        fn new(score: impl Fn(&Board) -> i32 + 'static) -> Fake {
            Fake {
                calls: Vec::new(),
                score: Box::new(score),
            }
        }

        fn run(&mut self, b: &Board, plan: Plan) -> SearchResult {
            self.calls.push((b.clone(), plan));
            let c = b.size() / 2;
            let best = (0..49)
                .map(|i| Pos::new(c - 3 + i % 7, c - 3 + i / 7))
                .find(|&p| b.is_empty_at(p))
                .unwrap();
            SearchResult {
                best,
                score: (self.score)(b),
                depth: 1,
                nodes: 1,
                pv: vec![best],
                ..SearchResult::unsearched(best)
            }
        }
    }

    fn board(stones: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15);
        for &(x, y) in stones {
            b.play(Pos::new(x, y)).unwrap();
        }
        b
    }

    /// Four stones on the main diagonal: the position is its own mirror in that diagonal.
    fn diagonal() -> Board {
        board(&[(7, 7), (8, 8), (6, 6), (9, 9)])
    }

    fn assert_legal_distinct(b: &Board, rule: Rule, offers: &[Pos]) {
        let syms = stabilizer(b);
        assert!(syms.len() > 1, "the test position should be symmetric");
        let mut probe = b.clone();
        for (i, &p) in offers.iter().enumerate() {
            assert!(probe.is_empty_at(p), "{p} occupied");
            assert!(!rules::is_forbidden(&mut probe, p, rule), "{p} forbidden");
            for &q in &offers[i + 1..] {
                for s in &syms {
                    assert_ne!(s.apply(p, 15), q, "{p} and {q} are copies under {s:?}");
                }
            }
        }
    }

    #[test]
    fn offers_are_legal_and_no_two_are_copies() {
        let b = diagonal();
        for n in [1, 3, MAX_OFFERS] {
            let mut f = Fake::new(|b: &Board| b.last_move().unwrap().x() as i32);
            let got = offers(&b, Rule::Renju, n, &Limits::depth(2), &mut |b, p| {
                f.run(b, p)
            });
            assert_eq!(got.len(), n);
            assert_legal_distinct(&b, Rule::Renju, &got);
            // Black's best offer is the one white scores lowest: the smallest x tried.
            let tried: Vec<Pos> = f.calls.iter().map(|c| c.0.last_move().unwrap()).collect();
            assert_eq!(tried.len(), OFFER_TRIALS);
            assert_eq!(got[0].x(), tried.iter().map(|p| p.x()).min().unwrap());
        }
        // More offers than the trials found: topped up, still distinct.
        let mut f = Fake::new(|_| 0);
        let many = offers(&b, Rule::Renju, 40, &Limits::depth(1), &mut |b, p| {
            f.run(b, p)
        });
        assert_eq!(many.len(), 40);
        assert_legal_distinct(&b, Rule::Renju, &many);
    }

    #[test]
    fn forbidden_points_are_never_candidates() {
        // Black to move; (9,7) would make two open threes (row 7 and column 9): forbidden.
        let b = board(&[
            (7, 7),
            (0, 0),
            (8, 7),
            (14, 14),
            (9, 8),
            (0, 14),
            (9, 9),
            (14, 0),
        ]);
        let mut probe = b.clone();
        assert!(rules::is_forbidden(&mut probe, Pos::new(9, 7), Rule::Renju));
        let renju = distinct_candidates(&b, Rule::Renju);
        assert!(!renju.contains(&Pos::new(9, 7)), "{renju:?}");
        assert!(distinct_candidates(&b, Rule::Freestyle).contains(&Pos::new(9, 7)));
        let mut f = Fake::new(|_| 0);
        let got = offers(&b, Rule::Renju, 30, &Limits::depth(1), &mut |b, p| {
            f.run(b, p)
        });
        assert!(got
            .iter()
            .all(|&p| !rules::is_forbidden(&mut probe, p, Rule::Renju)));
    }

    #[test]
    fn fourth_stone_and_the_count_nearest_even() {
        // White's score after five stones falls with the fifth stone's distance from (4,4):
        // black's values differ per candidate, and one count is nearest zero.
        let score = |b: &Board| match b.stone_count() {
            5 => 60 - 25 * b.last_move().unwrap().chebyshev(Pos::new(4, 4)) as i32,
            _ => 0,
        };
        let mut f = Fake::new(score);
        let three = board(&[(7, 7), (7, 6), (8, 8)]);
        let limits = Limits::per_move(1100);
        let reply = decide(
            &three,
            Rule::Renju,
            &SoosorvStep::Fourth,
            &limits,
            &mut |b, p| f.run(b, p),
        );
        let Some(SoosorvReply::Fourth { stone, offers }) = reply else {
            panic!("{reply:?}")
        };
        // The fake's best for three stones: the first empty point of its square.
        assert_eq!(stone, Pos::new(4, 4));
        assert_eq!(f.calls.len(), 1 + OFFER_TRIALS);
        let mut values: Vec<i32> = f.calls[1..].iter().map(|c| -score(&c.0)).collect();
        values.sort_by_key(|&v| std::cmp::Reverse(v));
        let chosen = values[offers - 1].abs();
        assert!(
            (1..=MAX_OFFERS).all(|k| values[k - 1].abs() >= chosen),
            "{values:?} {offers}"
        );
        // Each search got its share of the move's budget.
        for (_, plan) in &f.calls {
            let per = plan.budget.unwrap();
            assert!(per <= Duration::from_millis(1100) / (1 + OFFER_TRIALS) as u32);
        }
    }

    #[test]
    fn swaps_follow_the_value_of_the_offers() {
        let three = board(&[(7, 7), (7, 6), (8, 8)]);
        let four = board(&[(7, 7), (7, 6), (8, 8), (6, 8)]);
        for (white_score, swap) in [(50, true), (-50, false)] {
            let mut f = Fake::new(move |_| white_score);
            let step = SoosorvStep::SecondSwap(3);
            let r = decide(&four, Rule::Renju, &step, &Limits::depth(1), &mut |b, p| {
                f.run(b, p)
            });
            assert_eq!(r, Some(SoosorvReply::Swap(swap)));
            // Step 2: the tentative white (to move) takes black when it stands worse.
            let mut f = Fake::new(move |_| white_score);
            let step = SoosorvStep::FirstSwap;
            let r = decide(
                &three,
                Rule::Renju,
                &step,
                &Limits::depth(1),
                &mut |b, p| f.run(b, p),
            );
            assert_eq!(r, Some(SoosorvReply::Swap(!swap)));
        }
    }

    #[test]
    fn choice_is_the_offer_best_for_white_and_opening_is_classical() {
        let four = board(&[(7, 7), (7, 6), (8, 8), (6, 8)]);
        let offered = vec![Pos::new(5, 5), Pos::new(9, 6), Pos::new(6, 9)];
        let mut f = Fake::new(|b: &Board| b.last_move().unwrap().x() as i32);
        let step = SoosorvStep::Choose(offered);
        let r = decide(&four, Rule::Renju, &step, &Limits::depth(1), &mut |b, p| {
            f.run(b, p)
        });
        assert_eq!(r, Some(SoosorvReply::Chosen(Pos::new(9, 6))));
        // The opening: the classical opening scored nearest zero (the fake: |x - 9| of the
        // third stone), inside the rule's area.
        let mut f = Fake::new(|b: &Board| b.history()[2].0.x() as i32 - 9);
        let r = decide(
            &Board::new(15),
            Rule::Renju,
            &SoosorvStep::Open,
            &Limits::depth(1),
            &mut |b, p| f.run(b, p),
        );
        let Some(SoosorvReply::Opening([a, w, t])) = r else {
            panic!("{r:?}")
        };
        let c = Pos::new(7, 7);
        assert_eq!((a, w.chebyshev(c), t.x()), (c, 1, 9));
        assert!(t.chebyshev(c) <= 2);
        assert_eq!(f.calls.len(), 26);
        // Wrong stone counts and counts outside 1..=8 are refused.
        for (b, step) in [
            (&four, SoosorvStep::Fourth),
            (&four, SoosorvStep::Offer(0)),
            (&four, SoosorvStep::SecondSwap(MAX_OFFERS + 1)),
            (&four, SoosorvStep::Choose(vec![])),
        ] {
            assert_eq!(
                decide(b, Rule::Renju, &step, &Limits::depth(1), &mut |b, p| f
                    .run(b, p)),
                None
            );
        }
    }
}
