//! VCT solver: wins on shared renju puzzles verified against every defence, a solver made
//! unsound on purpose (one defence dropped) caught by the verifier, and no win claimed where
//! there is none.

use bango::game::board::{Board, Color, Pos};
use bango::game::notation::{parse_puzzles, Puzzle};
use bango::game::rules::Rule;
use bango::solver::{verify_tree, Budget, Tree, VctOptions, VctProof, VctSolver};
use bango_testkit::data_dir;

fn puzzles() -> Vec<Puzzle> {
    let path = data_dir().join("puzzles-vct.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_puzzles(&text).unwrap()
}

/// Puzzles the solver proves quickly; the node cap keeps the test deterministic.
const QUICK: [usize; 4] = [500, 600, 800, 900];

fn budget() -> Budget<'static> {
    Budget {
        max_nodes: Some(3_000_000),
        ..Budget::unlimited()
    }
}

fn solve(p: &Puzzle, options: VctOptions) -> (Board, VctProof) {
    let mut b = p.board().unwrap();
    let key = b.key();
    let proof = VctSolver::new(options).solve(&mut b, p.rule, p.side, &budget());
    assert_eq!(b.key(), key, "board changed");
    (b, proof)
}

#[test]
fn quick_puzzles_are_won_and_every_tree_verifies() {
    let all = puzzles();
    assert!(all.len() >= 3500);
    for i in QUICK {
        let p = &all[i];
        let (b, proof) = solve(p, VctOptions::default());
        let VctProof::Win(tree) = proof else {
            panic!("puzzle {i}: {proof:?}");
        };
        verify_tree(&b, p.rule, &tree, &budget()).unwrap_or_else(|e| panic!("puzzle {i}: {e}"));
    }
}

/// Drops one reply somewhere in the tree (the first node that has one).
pub(crate) fn drop_a_reply(t: &mut Tree) -> bool {
    if !t.replies.is_empty() {
        t.replies.pop();
        return true;
    }
    t.replies.iter_mut().any(|(_, s)| drop_a_reply(s))
}

#[test]
fn truncated_defence_lists_are_caught() {
    let all = puzzles();
    let mut caught = 0;
    for i in QUICK {
        let p = &all[i];
        // The solver with its test hook drops one defence at every defender node and skips its
        // own verification: whatever it claims must be checked here.
        let hooked = VctOptions {
            drop_one_defence: true,
            skip_verify: true,
            ..VctOptions::default()
        };
        let (b, proof) = solve(p, hooked);
        if let VctProof::Win(tree) = proof {
            if verify_tree(&b, p.rule, &tree, &budget()).is_err() {
                caught += 1;
            }
        }
        // An honest tree with one reply removed is rejected too.
        let (b, proof) = solve(p, VctOptions::default());
        let VctProof::Win(mut tree) = proof else {
            panic!("puzzle {i}: {proof:?}");
        };
        if drop_a_reply(&mut tree) {
            assert!(
                verify_tree(&b, p.rule, &tree, &budget()).is_err(),
                "puzzle {i}: a tree missing a defence was accepted"
            );
        }
    }
    assert!(
        caught >= 1,
        "the hooked solver's false wins were never caught"
    );
}

#[test]
fn no_win_is_claimed_without_one() {
    // Two black stones against three white ones: nobody has a forced win yet.
    let mut b = Board::from_picture(
        ". . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . O . . . . . . . .\n\
         . . . . . . . X . . . . . . .\n\
         . . . . . . . . X O . . . . .\n\
         . . . . . . . O . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n\
         . . . . . . . . . . . . . . .\n",
    )
    .unwrap();
    let small = Budget {
        max_nodes: Some(100_000),
        ..Budget::unlimited()
    };
    for (c, rule) in [(Color::Black, Rule::Renju), (Color::White, Rule::Freestyle)] {
        let p = VctSolver::new(VctOptions::default()).solve(&mut b, rule, c, &small);
        assert!(!matches!(p, VctProof::Win(_)), "{c:?} {rule}: {p:?}");
    }
    // An open three and a second three crossing at (5,5) is a win for black in freestyle.
    let mut w = Board::from_picture(crate::dfpn::DOUBLE_THREE).unwrap();
    let p = VctSolver::new(VctOptions::default()).solve(
        &mut w,
        Rule::Freestyle,
        Color::Black,
        &budget(),
    );
    let VctProof::Win(tree) = p else {
        panic!("{p:?}")
    };
    // The verifier takes the attacker from the side to move.
    w.set_side_to_move(Color::Black);
    verify_tree(&w, Rule::Freestyle, &tree, &budget()).unwrap();
    assert_eq!(tree.attack, Pos::new(5, 5));
}
