//! The df-pn search's trees against the verifier's footprint shortcut (the raw, unverified
//! trees are the verifier's hardest inputs, so the test lives with their maker).

use super::{DfpnOptions, DfpnSolver};
use crate::game::rng::SplitMix64;
use crate::game::rules::{crowded_centre, Rule};
use crate::solver::tree::{Tree, VctProof};
use crate::solver::verify::{verify_tree_with, winning_points};
use crate::solver::{Budget, Proof, VcfSolver};

/// Drops the last reply of the `k`-th node (in depth-first order) that has one.
fn drop_reply(t: &mut Tree, k: &mut usize) -> bool {
    if !t.replies.is_empty() {
        if *k == 0 {
            t.replies.pop();
            return true;
        }
        *k -= 1;
    }
    t.replies.iter_mut().any(|(_, s)| drop_reply(s, k))
}

/// The tree check gives the same verdict with and without the footprint shortcut, on raw
/// df-pn trees (unverified) and on the same trees with one reply dropped (mostly wrong).
#[test]
fn the_footprint_changes_no_verdict() {
    let mut rng = SplitMix64::new(11);
    let (mut trees, mut accepted, mut rejected) = (0, 0, 0);
    let budget = Budget {
        max_nodes: Some(3000),
        ..Budget::default()
    };
    for round in 0..300 {
        let mut b = crowded_centre(&mut rng, 12 + round % 12);
        let rule = [Rule::Freestyle, Rule::Standard, Rule::Caro][round % 3];
        let a = b.side_to_move();
        let mut vcf = VcfSolver::new();
        if !winning_points(&b, a.opponent(), rule).is_empty()
            || !matches!(vcf.solve(&mut b, rule, a, &budget), Proof::NoWin)
        {
            continue;
        }
        let mut dfpn = DfpnSolver::new(DfpnOptions {
            skip_verify: true,
            ..DfpnOptions::default()
        });
        let VctProof::Win(tree) = dfpn.solve(&mut b, rule, a, &budget) else {
            continue;
        };
        trees += 1;
        let mut variants = vec![tree.clone()];
        for k in 0..3 {
            let mut t = tree.clone();
            if drop_reply(&mut t, &mut { k }) {
                variants.push(t);
            }
        }
        for t in &variants {
            let unlimited = Budget::unlimited();
            let with = verify_tree_with(&b, rule, t, &unlimited, true);
            let without = verify_tree_with(&b, rule, t, &unlimited, false);
            assert_eq!(
                with.is_ok(),
                without.is_ok(),
                "round {round} {rule}: {with:?} {without:?}\n{b}"
            );
            if with.is_ok() {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
    }
    assert!(trees > 30, "only {trees} trees");
    assert!(
        accepted > 30 && rejected > 30,
        "{accepted} accepted, {rejected} rejected"
    );
}
