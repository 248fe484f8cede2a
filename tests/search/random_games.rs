//! Positions from seeded random games, for the tests that check a rule of the search on every
//! position of some kind: each game starts at the centre and plays random legal cells within
//! two of the stones until a five or a random length of 12 to 51 stones.

use bango::evaluation::movegen::{self, Defences, Scope};
use bango::evaluation::position::Position;
use bango::game::board::{Board, Pos};
use bango::game::rng::SplitMix64;
use bango::game::rules::{self, Rule};

/// The positions of `games` random games under `rule` (seeded by `seed`) that `keep` accepts;
/// a game ends before a position where the side to move can make five.
pub fn random_positions(
    rule: Rule,
    games: usize,
    seed: u64,
    keep: impl Fn(&Board, &mut Position) -> bool,
) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = Board::new(15);
        board.play(Pos::new(7, 7)).unwrap();
        let max_stones = 12 + rng.below(40) as usize;
        while board.stone_count() < max_stones {
            let mut pos = Position::new(&board, rule);
            let mut moves = Vec::new();
            let scope = movegen::generate(&mut pos, Defences::OFF, &mut moves);
            if scope == Scope::Win || moves.is_empty() {
                break;
            }
            if keep(&board, &mut pos) {
                out.push(board.clone());
            }
            let q = moves[rng.below(moves.len() as u64) as usize].pos;
            board.play(q).unwrap();
            if rules::is_winning_stone(&board, q, rule) {
                break;
            }
        }
    }
    out
}
