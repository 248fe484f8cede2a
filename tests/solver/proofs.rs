//! Proof search in play (`bango::engine::algo::proofs`): the brain plays its own VCF, restricts itself
//! to the moves that break the opponent's VCF, and claims nothing when its slice runs out.
//! Positions come from `../shared/data/puzzles-vcf.txt`; every claim is re-checked here by the
//! verifier or by a fresh solver, never by the code under test.

use bango::engine::algo::alphabeta::AlphaBeta;
use bango::engine::algo::proofs::{RootProofs, Verdict};
use bango::engine::algo::{Algorithm, Analysis, Request};
use bango::engine::config::Config;
use bango::engine::config::{ProofMode, Slices};
use bango::game::board::{Board, Color, Pos};
use bango::game::notation::{parse_puzzles, Puzzle};
use bango::game::rules::Rule;
use bango::search::timeman::Plan;
use bango::search::timeman::{Limits, TimeControl};
use bango::solver::{find_vcf, verify_vcf, Budget, DfpnSolver, Proof, VcfSolver, VctProof};
use bango_testkit::data_dir;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn puzzles(stride: usize) -> Vec<Puzzle> {
    let path = data_dir().join("puzzles-vcf.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_puzzles(&text)
        .unwrap()
        .into_iter()
        .step_by(stride)
        .collect()
}

fn capped(nodes: u64) -> Budget<'static> {
    Budget {
        max_nodes: Some(nodes),
        ..Budget::unlimited()
    }
}

/// Asks a fresh engine for a move with `limits`; returns the move and its output lines.
fn think(b: &Board, p: &Puzzle, limits: Limits, mode: ProofMode) -> (Pos, Vec<String>) {
    let mut config = Config::default();
    config.brain.hash_kib = 2048;
    let mut engine = AlphaBeta::with_table(&Config::default(), 2048 * 1024);
    engine.new_game(b.size(), &config);
    engine.proofs_mut().mode = mode;
    let stop = AtomicBool::new(false);
    let lines = Mutex::new(Vec::new());
    let output = |l: &str| lines.lock().unwrap().push(l.to_string());
    let req = Request {
        board: b,
        rule: p.rule,
        limits,
        config: &config,
        stop: &stop,
        output: &output,
        report: &|r| lines.lock().unwrap().extend(r.log_line(true)),
        analysis: &Analysis::default(),
    };
    let m = engine.think(&req);
    assert!(b.is_empty_at(m), "illegal move {m}");
    (m, lines.into_inner().unwrap())
}

#[test]
fn own_vcf_is_played_with_a_listed_first_move() {
    let mut proofs = RootProofs::new(ProofMode::Vcf);
    let stop = AtomicBool::new(false);
    let mut count = 0;
    for p in puzzles(97) {
        let b = p.board().unwrap();
        match proofs.probe(&b, p.rule, &Plan::UNLIMITED, Instant::now(), &stop) {
            Verdict::Vcf(line) => {
                verify_vcf(&b, p.rule, &line).unwrap();
                assert!(p.answers.contains(&line[0]), "{} not listed", line[0]);
                count += 1;
            }
            // The node cap may leave a hard puzzle unproved; it must then claim nothing.
            Verdict::Nothing => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(count >= 55, "only {count} of 62 proved under the node cap");
}

/// The puzzles turned around: the attacker's opponent is to move and has no VCF of its own.
fn defences(stride: usize, take: usize) -> Vec<(Puzzle, Board)> {
    let mut out = Vec::new();
    for p in puzzles(stride) {
        let mut b = p.board().unwrap();
        let defender = p.side.opponent();
        if find_vcf(&mut b, p.rule, defender, &capped(200_000)) != Proof::NoWin {
            continue;
        }
        b.set_side_to_move(defender);
        out.push((p, b));
        if out.len() == take {
            break;
        }
    }
    out
}

#[test]
fn only_moves_that_break_the_opponents_vcf_are_searched() {
    let (mut defended, mut lost) = (0, 0);
    let stop = AtomicBool::new(false);
    for (p, b) in defences(41, 40) {
        let mut proofs = RootProofs::new(ProofMode::Vcf);
        match proofs.probe(&b, p.rule, &Plan::UNLIMITED, Instant::now(), &stop) {
            Verdict::Defend { only, .. } => {
                defended += 1;
                // Each allowed move leaves the attacker without a VCF, checked by a fresh
                // solver; and the brain's own choice is one of them.
                for &q in &only {
                    let mut after = b.clone();
                    after.put(q, b.side_to_move()).unwrap();
                    let again = find_vcf(&mut after, p.rule, p.side, &capped(2_000_000));
                    assert_eq!(again, Proof::NoWin, "{q} does not break the VCF");
                }
                let (m, lines) = think(&b, &p, Limits::depth(3), ProofMode::Vcf);
                assert!(only.contains(&m), "played {m}, breakers {only:?}");
                assert!(lines.iter().any(|l| l.starts_with("opponent vcf in ")));
                // A move outside the set loses to the VCF: the listed answer cells are
                // four points, but the attacker's first four point itself is usually a
                // breaker, so pick any empty cell far from everything instead.
                if let Some(far) = far_cell(&b) {
                    assert!(!only.contains(&far));
                    let mut after = b.clone();
                    after.put(far, b.side_to_move()).unwrap();
                    let win = find_vcf(&mut after, p.rule, p.side, &capped(2_000_000));
                    assert!(matches!(win, Proof::Win(_)), "{far}: {win:?}");
                }
            }
            Verdict::Lost => lost += 1,
            other => panic!("the attacker has a VCF, got {other:?}"),
        }
    }
    assert!(defended >= 10, "defended {defended}, lost {lost}");
}

/// An empty cell at Chebyshev distance at least 4 from every stone.
fn far_cell(b: &Board) -> Option<Pos> {
    let n = b.size() as i64;
    let stones: Vec<Pos> = (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .filter_map(|(x, y)| b.pos(x, y))
        .filter(|&q| !b.is_empty_at(q))
        .collect();
    (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .filter_map(|(x, y)| b.pos(x, y))
        .find(|&q| {
            stones.iter().all(|s| {
                (s.x() as i64 - q.x() as i64)
                    .abs()
                    .max((s.y() as i64 - q.y() as i64).abs())
                    >= 4
            })
        })
}

#[test]
fn brain_plays_its_vcf_at_once_under_a_time_budget() {
    for p in puzzles(301) {
        let b = p.board().unwrap();
        let limits = Limits::new(TimeControl {
            turn_ms: Some(1000),
            match_ms: None,
            left_ms: None,
        });
        let (m, lines) = think(&b, &p, limits, ProofMode::Vcf);
        if lines.iter().any(|l| l.starts_with("vcf win in ")) {
            assert!(p.answers.contains(&m), "{m} not listed");
            // Played from the proof: no main-search iteration ran.
            assert!(!lines.iter().any(|l| l.starts_with("depth ")), "{lines:?}");
        }
        // With proofs off, the main search must still find a listed winning move or at
        // least a legal one; the point here is that proofs on never play a non-answer.
    }
}

#[test]
fn a_spent_slice_claims_nothing() {
    // A puzzle whose VCF needs thousands of nodes: with every slice already over, the probe
    // must give up and claim nothing (the stop flag and clock are read every 256 nodes).
    let p = puzzles(1)
        .into_iter()
        .find(|p| {
            let mut s = VcfSolver::new();
            let mut b = p.board().unwrap();
            let r = s.solve(&mut b, p.rule, p.side, &capped(100_000));
            matches!(r, Proof::Win(_)) && s.nodes > 5_000
        })
        .expect("a hard puzzle");
    let b = p.board().unwrap();
    let started = Instant::now() - Duration::from_secs(5);
    let spent = Plan::within(started, Duration::from_millis(100));
    let stop = AtomicBool::new(false);
    let v = RootProofs::new(ProofMode::Vct).probe(&b, p.rule, &spent, started, &stop);
    match &v {
        Verdict::Nothing | Verdict::Lost => {}
        // The opponent's threat may be proved in a few nodes; the restriction must then keep
        // our own (unproved) winning fours.
        Verdict::Defend { only, .. } => {
            for a in &p.answers {
                assert!(only.contains(a), "winning four {a} dropped from {only:?}");
            }
        }
        Verdict::DefendVct { .. } | Verdict::Vcf(_) | Verdict::Vct(_) => {
            panic!("claimed something without time: {v:?}")
        }
    }
    // And with time it is proved.
    let v =
        RootProofs::new(ProofMode::Vcf).probe(&b, p.rule, &Plan::UNLIMITED, Instant::now(), &stop);
    assert!(matches!(v, Verdict::Vcf(_)), "{v:?}");
}

#[test]
fn own_vct_is_played_only_in_vct_mode_and_verifies() {
    let path = data_dir().join("puzzles-vct.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let all = parse_puzzles(&text).unwrap();
    let stop = AtomicBool::new(false);
    let mut proved = 0;
    for p in all.iter().step_by(50).take(24) {
        let b = p.board().unwrap();
        let v = RootProofs::new(ProofMode::Vct).probe(
            &b,
            p.rule,
            &Plan::UNLIMITED,
            Instant::now(),
            &stop,
        );
        match v {
            Verdict::Vct(tree) => {
                bango::solver::verify_tree(&b, p.rule, &tree, &capped(3_000_000)).unwrap();
                proved += 1;
                // VCF mode never plays a VCT.
                let v = RootProofs::new(ProofMode::Vcf).probe(
                    &b,
                    p.rule,
                    &Plan::UNLIMITED,
                    Instant::now(),
                    &stop,
                );
                assert!(!matches!(v, Verdict::Vct(_)), "{v:?}");
            }
            Verdict::Vcf(line) => verify_vcf(&b, p.rule, &line).unwrap(),
            _ => {}
        }
    }
    eprintln!("proved {proved}");
    assert!(proved >= 8, "proved {proved} of 24");
}

/// The gate of own VCT (`BANGO_PROOF_VCT_GATED`): black's two twos crossing at (5,5) make a
/// freestyle VCT (the double three there) that starts without a four to make, so the gated
/// probe skips it and counts the skip, while the ungated one plays it; a VCT puzzle, where
/// the attacker has a three, is still proved through the gate.
#[test]
fn gated_own_vct_runs_only_with_a_four_to_make() {
    let mut b = Board::from_picture(crate::dfpn::DOUBLE_THREE).unwrap();
    b.set_side_to_move(Color::Black);
    let stop = AtomicBool::new(false);
    let gated = Slices {
        own_vct_gated: true,
        ..Slices::default()
    };
    let probe = |proofs: &mut RootProofs, b: &Board, rule: Rule| {
        proofs.probe(b, rule, &Plan::UNLIMITED, Instant::now(), &stop)
    };
    let mut open = RootProofs::new(ProofMode::Vct);
    let v = probe(&mut open, &b, Rule::Freestyle);
    let Verdict::Vct(tree) = v else {
        panic!("ungated: {v:?}");
    };
    bango::solver::verify_tree(&b, Rule::Freestyle, &tree, &capped(3_000_000)).unwrap();
    assert_eq!(open.counts.own_vct_gated, 0);
    let mut shut = RootProofs::with_slices(ProofMode::Vct, gated);
    let v = probe(&mut shut, &b, Rule::Freestyle);
    assert_eq!(v, Verdict::Nothing);
    assert_eq!((shut.counts.own_vct_gated, shut.counts.own_vct), (1, 0));
    // The first sampled VCT puzzle the ungated probe plays is played through the gate as well.
    let text = std::fs::read_to_string(data_dir().join("puzzles-vct.txt")).unwrap();
    let all = parse_puzzles(&text).unwrap();
    let (p, b) = all
        .iter()
        .step_by(50)
        .map(|p| (p, p.board().unwrap()))
        .find(|(p, b)| {
            let v = probe(&mut RootProofs::new(ProofMode::Vct), b, p.rule);
            matches!(v, Verdict::Vct(_))
        })
        .expect("a sampled VCT puzzle the probe proves");
    let mut through = RootProofs::with_slices(ProofMode::Vct, gated);
    let v = probe(&mut through, &b, p.rule);
    assert!(matches!(v, Verdict::Vct(_)), "{v:?}");
    assert_eq!(through.counts.own_vct_gated, 0);
}

/// VCT puzzles turned around: the puzzle's defender is to move and faces a VCT (two puzzles
/// where it has no VCF or quick VCT of its own, picked from the file). In `vctdef` mode the
/// probe restricts the root to candidate breakers; every candidate it drops is re-checked here
/// (a fresh search finds the opponent's VCT again, and the verifier accepts it), and the brain
/// plays one of the moves it kept.
#[test]
fn vct_defence_drops_only_candidates_that_lose() {
    let path = data_dir().join("puzzles-vct.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let all = parse_puzzles(&text).unwrap();
    let stop = AtomicBool::new(false);
    let mut dropped = 0;
    for i in [592, 888] {
        let p = &all[i];
        let mut b = p.board().unwrap();
        let me = p.side.opponent();
        assert_eq!(find_vcf(&mut b, p.rule, me, &capped(200_000)), Proof::NoWin);
        b.set_side_to_move(me);
        let mut proofs = RootProofs::new(ProofMode::VctDefend);
        let v = proofs.probe(&b, p.rule, &Plan::UNLIMITED, Instant::now(), &stop);
        let Verdict::DefendVct { only, refuted, .. } = v else {
            panic!("puzzle {i}: {v:?}");
        };
        assert_eq!(proofs.counts.vct_defences, 1);
        assert!(!only.is_empty());
        for &c in &refuted {
            assert!(!only.contains(&c));
            let mut after = b.clone();
            after.put(c, me).unwrap();
            let again = DfpnSolver::default().solve(&mut after, p.rule, p.side, &capped(20_000));
            let VctProof::Win(tree) = again else {
                panic!("puzzle {i}: {c} was dropped, but a fresh search says {again:?}");
            };
            after.set_side_to_move(p.side);
            bango::solver::verify_tree(&after, p.rule, &tree, &Budget::unlimited()).unwrap();
            dropped += 1;
        }
        let (m, lines) = think(&b, p, Limits::depth(3), ProofMode::VctDefend);
        assert!(only.contains(&m), "played {m}, kept {only:?}");
        assert!(lines.iter().any(|l| l.starts_with("opponent vct with ")));
    }
    assert!(dropped >= 2, "dropped {dropped}");
}
