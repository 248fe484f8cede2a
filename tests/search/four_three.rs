//! The four-three win (`BANGO_FOUR_THREE_WINS`): a side to move with a usable four-three and an
//! opponent with no four to make wins in 5, which the search then returns without searching.
//! On every such position of seeded random games under freestyle, standard and renju (white
//! only), the verified VCF solver finds the win in at most five plies, so the rule never
//! claims a win that is not there.

use bango::evaluation::movegen;
use bango::evaluation::position::Position;
use bango::game::board::{Board, Color, Pos};
use bango::game::pattern::Threat;
use bango::game::rules::Rule;
use bango::solver::{find_vcf, Budget, Proof};

use crate::random_games::random_positions;

/// Positions from random games where the rule applies to the side to move.
fn four_three_positions(rule: Rule, games: usize, seed: u64) -> Vec<Board> {
    random_positions(rule, games, seed, |board, pos| {
        let me = board.side_to_move();
        let op = me.opponent();
        let renju_black = rule == Rule::Renju && me == Color::Black;
        !(renju_black || pos.has_at_least(op, Threat::Four))
            && movegen::find_usable(pos, me, Threat::OpenFour).is_none()
            && movegen::find_usable(pos, me, Threat::FourThree).is_some()
    })
}

#[test]
fn every_four_three_the_search_calls_won_is_won_in_five() {
    for (i, rule) in [Rule::Freestyle, Rule::Standard, Rule::Renju]
        .into_iter()
        .enumerate()
    {
        let boards = four_three_positions(rule, 400, 61 + i as u64);
        assert!(
            boards.len() >= 20,
            "{rule}: only {} positions",
            boards.len()
        );
        for board in &boards {
            let me = board.side_to_move();
            let op = me.opponent();
            // The line the rule stands for: the four-three, the forced block of its four (when
            // legal for the opponent), then an open four the opponent cannot meet.
            let mut pos = Position::new(board, rule);
            let p = movegen::find_usable(&mut pos, me, Threat::FourThree).unwrap();
            let mut b = board.clone();
            b.play(p).unwrap();
            let mut pos = Position::new(&b, rule);
            let fives: Vec<Pos> = pos.cells_at_least(me, Threat::Five).collect();
            assert_eq!(
                fives.len(),
                1,
                "{rule}: a four-three {p} with {fives:?}:\n{board}"
            );
            if pos.is_legal_for(fives[0], op) {
                b.play(fives[0]).unwrap();
                let mut pos = Position::new(&b, rule);
                assert!(
                    !pos.has_at_least(op, Threat::Five)
                        && movegen::find_usable(&mut pos, me, Threat::OpenFour).is_some(),
                    "{rule}: after {p} and the block {} no unanswerable open four:\n{board}",
                    fives[0]
                );
            }
            // And the verified solver agrees that the position is won by fours.
            let mut b = board.clone();
            let proof = find_vcf(&mut b, rule, me, &Budget::default());
            assert!(
                matches!(proof, Proof::Win(_)),
                "{rule}: the rule calls a win the solver does not find ({proof:?}):\n{board}"
            );
        }
    }
}
