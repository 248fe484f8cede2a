//! The weighted-random baseline: a player with one-move tactics and no search, the floor every
//! real algorithm must beat and a fast, legal opponent for protocol and self-play tests.
//!
//! Decision order (first stage with a legal candidate wins):
//! 1. empty board: the centre;
//! 2. our own five (rule-aware, [`rules::is_win_at`]), nearest the last move;
//! 3. block the opponent's five points, weighted towards the last move;
//! 4. against the opponent's open four or open three through the last move, an end of it,
//!    weighted towards the last move;
//! 5. the gap of a split three (`.XX.X.` / `.X.XX.`) through the last move;
//! 6. otherwise an empty cell within Chebyshev distance 2 of some stone, nearest the last move
//!    (nearest any stone when there is no last move), ties broken at random.
//!
//! As black under renju a forbidden point is never chosen at any stage. Choices come from a
//! seeded generator (splitmix64): the same seed and the same command sequence give the same
//! moves. The generator is not reset by `new_game`, so successive games in one process differ.

use super::{Algorithm, Request};
use crate::engine::config::Config;
use crate::game::board::{Board, Color, Direction, Pos};
use crate::game::rng::SplitMix64 as SplitMix;
use crate::game::rules::{self, Rule};

/// Weighted-random baseline player.
pub struct Random {
    rng: SplitMix,
}

impl Random {
    /// A player whose choices are drawn from `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: SplitMix::new(seed),
        }
    }

    /// Replaces the generator's state (tests that need a particular draw).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = SplitMix::new(seed);
    }

    /// The move for `board` (the side to move is ours) under `rule`.
    pub fn choose(&mut self, board: &Board, rule: Rule) -> Pos {
        let mut b = board.clone();
        let me = b.side_to_move();
        let opp = me.opponent();
        let size = b.size();
        if b.stone_count() == 0 {
            return Pos::new(size / 2, size / 2);
        }
        let last = b.last_move();
        let near_last = |p: Pos| last.map_or(0, |l| p.chebyshev(l));

        // 2. Our own five.
        let own: Vec<Pos> = b
            .empty_cells()
            .filter(|&p| rules::is_win_at(&b, p, me, rule))
            .collect();
        if let Some(p) = self.pick_nearest(&mut b, own, rule, near_last) {
            return p;
        }
        // 3. The opponent's five points.
        let fives: Vec<Pos> = b
            .empty_cells()
            .filter(|&p| rules::is_win_at(&b, p, opp, rule))
            .collect();
        if let Some(p) = self.pick_weighted(&mut b, fives, rule, near_last) {
            return p;
        }
        if let Some(l) = last.filter(|&l| b.at(l) == Some(opp)) {
            // 4. Ends of an open four or open three through the last move.
            let ends = open_run_ends(&b, l, opp);
            if let Some(p) = self.pick_weighted(&mut b, ends, rule, near_last) {
                return p;
            }
            // 5. The gap of a split three.
            let gaps = split_three_gaps(&b, l, opp);
            if let Some(p) = self.pick_weighted(&mut b, gaps, rule, near_last) {
                return p;
            }
        }
        // 6. Nearest the last move (or the stones) among cells near the stones.
        let mut near: Vec<(usize, Pos)> = b
            .empty_cells()
            .filter_map(|p| {
                let to_stones = nearest_stone(&b, p)?;
                (to_stones <= 2).then(|| (last.map_or(to_stones, |l| p.chebyshev(l)), p))
            })
            .collect();
        near.sort_unstable();
        for group in near.chunk_by(|a, b| a.0 == b.0) {
            let cands: Vec<Pos> = group.iter().map(|&(_, p)| p).collect();
            if let Some(p) = self.pick_uniform(&mut b, cands, rule) {
                return p;
            }
        }
        // Nothing near the stones is legal: any legal cell, else any cell (a forced loss).
        let all: Vec<Pos> = b.empty_cells().collect();
        self.pick_uniform(&mut b, all, rule)
            .or_else(|| b.empty_cells().next())
            .expect("an empty point")
    }

    /// Among legal candidates, one at the smallest key, ties at random.
    fn pick_nearest(
        &mut self,
        b: &mut Board,
        cands: Vec<Pos>,
        rule: Rule,
        key: impl Fn(Pos) -> usize,
    ) -> Option<Pos> {
        let legal = legal_only(b, cands, rule);
        let best = legal.iter().map(|&p| key(p)).min()?;
        let group: Vec<Pos> = legal.into_iter().filter(|&p| key(p) == best).collect();
        Some(group[self.rng.below(group.len() as u64) as usize])
    }

    /// A legal candidate drawn with weight falling with the square of its distance.
    fn pick_weighted(
        &mut self,
        b: &mut Board,
        cands: Vec<Pos>,
        rule: Rule,
        dist: impl Fn(Pos) -> usize,
    ) -> Option<Pos> {
        let legal = legal_only(b, cands, rule);
        let weight = |p: Pos| {
            let d = dist(p).max(1) as u64;
            (1 << 12) / (d * d) + 1
        };
        let total: u64 = legal.iter().map(|&p| weight(p)).sum();
        if total == 0 {
            return None;
        }
        let mut r = self.rng.below(total);
        for p in legal {
            let w = weight(p);
            if r < w {
                return Some(p);
            }
            r -= w;
        }
        unreachable!("r < total")
    }

    fn pick_uniform(&mut self, b: &mut Board, cands: Vec<Pos>, rule: Rule) -> Option<Pos> {
        let legal = legal_only(b, cands, rule);
        if legal.is_empty() {
            return None;
        }
        Some(legal[self.rng.below(legal.len() as u64) as usize])
    }
}

impl Algorithm for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn think(&mut self, req: &Request<'_>) -> Pos {
        self.choose(req.board, req.rule)
    }

    fn new_game(&mut self, _size: usize, _config: &Config) {}
}

/// Drops candidates the side to move may not play (renju forbidden points for black), and
/// duplicates.
fn legal_only(b: &mut Board, mut cands: Vec<Pos>, rule: Rule) -> Vec<Pos> {
    cands.sort_unstable();
    cands.dedup();
    if b.side_to_move() != Color::Black || rule != Rule::Renju {
        return cands;
    }
    cands.retain(|&p| !rules::is_forbidden(b, p, rule));
    cands
}

/// Chebyshev distance from `p` to the nearest stone, if any lies within 2.
fn nearest_stone(b: &Board, p: Pos) -> Option<usize> {
    let n = b.size() as i64;
    let (x, y) = (p.x() as i64, p.y() as i64);
    let mut best = None;
    for dy in -2i64..=2 {
        for dx in -2i64..=2 {
            let (qx, qy) = (x + dx, y + dy);
            if (dx, dy) == (0, 0) || qx < 0 || qy < 0 || qx >= n || qy >= n {
                continue;
            }
            if b.at(Pos::new(qx as usize, qy as usize)).is_some() {
                let d = dx.unsigned_abs().max(dy.unsigned_abs()) as usize;
                best = Some(best.map_or(d, |b: usize| b.min(d)));
            }
        }
    }
    best
}

/// The empty ends of runs of 3 or 4 stones of `c` through `l` whose both ends are empty.
fn open_run_ends(b: &Board, l: Pos, c: Color) -> Vec<Pos> {
    let mut ends = Vec::new();
    for d in Direction::ALL {
        let fwd = b.count_dir(l, d, c, true) as i32;
        let back = b.count_dir(l, d, c, false) as i32;
        let len = 1 + fwd + back;
        if !(3..=4).contains(&len) {
            continue;
        }
        let a = l.offset(d, fwd + 1, b.size()).filter(|&p| b.is_empty_at(p));
        let z = l
            .offset(d, -back - 1, b.size())
            .filter(|&p| b.is_empty_at(p));
        if let (Some(a), Some(z)) = (a, z) {
            ends.push(a);
            ends.push(z);
        }
    }
    ends
}

/// Gaps of split threes of `c` through `l`: six-cell windows `.XX.X.` or `.X.XX.` (outer cells
/// empty, three stones and one inner gap) that contain `l`.
fn split_three_gaps(b: &Board, l: Pos, c: Color) -> Vec<Pos> {
    let mut gaps = Vec::new();
    for d in Direction::ALL {
        for start in -5..=0 {
            let cells: Option<Vec<Pos>> =
                (0..6).map(|i| l.offset(d, start + i, b.size())).collect();
            let Some(cells) = cells else { continue };
            if !b.is_empty_at(cells[0]) || !b.is_empty_at(cells[5]) {
                continue;
            }
            let inner = &cells[1..5];
            let stones = inner.iter().filter(|&&p| b.at(p) == Some(c)).count();
            let empty: Vec<Pos> = inner
                .iter()
                .copied()
                .filter(|&p| b.is_empty_at(p))
                .collect();
            // The gap must be inside the run (not at its ends), which `.XXX..`-like windows
            // would otherwise give.
            if stones == 3 && empty.len() == 1 && empty[0] != inner[0] && empty[0] != inner[3] {
                gaps.push(empty[0]);
            }
        }
    }
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pic: &str) -> Board {
        Board::from_picture(pic).unwrap()
    }

    fn moves(pic: &str, rule: Rule, last: Option<(usize, usize)>, tries: u64) -> Vec<Pos> {
        let mut b = board(pic);
        if let Some((x, y)) = last {
            // Replay the last move so that the history ends with it.
            let p = Pos::new(x, y);
            let c = b.at(p).expect("a stone at the last move");
            let side = b.side_to_move();
            b.remove(p);
            b.put(p, c).unwrap();
            b.set_side_to_move(side);
        }
        let mut got: Vec<Pos> = (0..tries)
            .map(|seed| Random::new(seed).choose(&b, rule))
            .collect();
        got.sort();
        got.dedup();
        got
    }

    const EMPTY7: &str = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .";

    #[test]
    fn centre_on_an_empty_board() {
        assert_eq!(
            moves(EMPTY7, Rule::Freestyle, None, 5),
            vec![Pos::new(3, 3)]
        );
        let b = Board::new(15);
        assert_eq!(Random::new(1).choose(&b, Rule::Renju), Pos::new(7, 7));
    }

    #[test]
    fn takes_its_own_five_before_blocking() {
        // Black (to move) has four in column 0; white has four in row 6.
        let pic = "
            X . . . . . .
            X . . . . . .
            X . . . . . .
            X . . . . . .
            . . . . . . .
            . . . . . . .
            . O O O O . .";
        assert_eq!(
            moves(pic, Rule::Freestyle, Some((4, 6)), 20),
            vec![Pos::new(0, 4)]
        );
    }

    #[test]
    fn blocks_the_opponent_five() {
        let pic = "
            . . . . . . .
            . X . . . . .
            . . . . . . .
            . X . X . . .
            . . . . . . .
            . . . . . . .
            O O O O . . .";
        // White to move? counts: X 3, O 4 -> black to move; black must block at 4,6.
        assert_eq!(
            moves(pic, Rule::Freestyle, Some((3, 6)), 20),
            vec![Pos::new(4, 6)]
        );
    }

    #[test]
    fn caro_blocked_five_is_no_win_and_standard_overline_neither() {
        // White to move: completing row 0 at 5,0 makes a five closed by X at both ends: no caro
        // win, so white must block black's four in column 3 (either five point of that four is
        // closed on one side at most, so both win for black and both must be considered).
        let caro = "
            X O O O O . X
            . . . . . . .
            . . . X . . .
            . . . X . . .
            . . . X . . .
            . . . X . . .
            . . . . . . .";
        assert_eq!(
            moves(caro, Rule::Caro, Some((3, 5)), 200),
            vec![Pos::new(3, 1), Pos::new(3, 6)]
        );
        // Under freestyle the same point wins outright.
        assert_eq!(
            moves(caro, Rule::Freestyle, Some((3, 5)), 20),
            vec![Pos::new(5, 0)]
        );
        // Standard: completing row 0 would make six, no win; white must block instead.
        let standard = "
            . O O . O O O
            . . . . . . .
            X . . . . . X
            X . . . . . .
            X . . . . . X
            X . . . . . .
            . . . . . . .";
        let got = moves(standard, Rule::Standard, Some((0, 5)), 200);
        assert_eq!(got, vec![Pos::new(0, 1), Pos::new(0, 6)]);
        assert!(moves(standard, Rule::Freestyle, Some((0, 5)), 20).contains(&Pos::new(3, 0)));
    }

    #[test]
    fn answers_an_open_three_at_its_ends() {
        let pic = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O O O . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . X . . . .
            . . . . . . . . .
            . X . . . . . . .";
        assert_eq!(
            moves(pic, Rule::Freestyle, Some((4, 3)), 40),
            vec![Pos::new(1, 3), Pos::new(5, 3)]
        );
    }

    #[test]
    fn takes_the_gap_of_a_split_three() {
        let pic = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O O . O . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . X . . . . . . .
            . . . . . . . X .";
        assert_eq!(
            moves(pic, Rule::Freestyle, Some((5, 3)), 40),
            vec![Pos::new(4, 3)]
        );
    }

    #[test]
    fn quiet_move_is_nearest_the_last_move() {
        let pic = "
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . X . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .";
        let got = moves(pic, Rule::Freestyle, Some((3, 4)), 60);
        // Black to move: the eight neighbours of the last move (minus the occupied one).
        assert_eq!(got.len(), 7, "{got:?}");
        assert!(got.iter().all(|p| p.chebyshev(Pos::new(3, 4)) == 1));
    }

    #[test]
    fn never_a_renju_forbidden_point_for_black() {
        // 3,3 is a double three for black (open threes in the row and the column); it is also
        // the quiet move nearest the last white stone, so a rule-blind player would take it.
        let pic = "
            . . . . . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . X X . . . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . O
            . . . . . . . . O
            O . . . . . . . .";
        let mut b = board(pic);
        assert!(rules::is_forbidden(&mut b, Pos::new(3, 3), Rule::Renju));
        let got = moves(pic, Rule::Renju, Some((4, 4)), 60);
        assert!(!got.contains(&Pos::new(3, 3)), "{got:?}");
        assert!(moves(pic, Rule::Freestyle, Some((4, 4)), 60).contains(&Pos::new(3, 3)));
    }

    #[test]
    fn same_seed_same_game() {
        let play = |seed| {
            let mut a = Random::new(seed);
            let mut b = Board::new(15);
            for _ in 0..30 {
                let p = a.choose(&b, Rule::Freestyle);
                b.play(p).unwrap();
            }
            b.history().to_vec()
        };
        assert_eq!(play(7), play(7));
        assert_ne!(play(7), play(8));
    }
}
