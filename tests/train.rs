//! The weight fit on the shared teacher file: what `pbrain-bango train fit` relies on.

use bango::front::teacher::{self, Labelled};
use bango::front::train::{classic_additive, fit_eval, samples, score, FitConfig, Start, Targets};
use bango_testkit::read_data;

/// The decaying step size settles where a constant one circles: on real labelled positions,
/// the same number of steps ends at a lower training loss.
#[test]
fn decaying_step_size_ends_lower_than_a_constant_one() {
    let text = read_data("positions-teacher-15.txt");
    let ls: Vec<Labelled> = text
        .lines()
        .enumerate()
        .filter_map(|(n, l)| teacher::parse_line(l, n + 1).ok().flatten())
        .filter(|l| !l.label.is_mate())
        .step_by(40)
        .take(60)
        .collect();
    let refs: Vec<&Labelled> = ls.iter().collect();
    let s = samples(&refs, &Targets::AS_LABELLED, false);
    assert!(s.len() >= 50, "{} samples", s.len());
    let (pattern, rung, tempo) = classic_additive();
    let loss = |final_lr: f64| {
        let cfg = FitConfig {
            steps: 400,
            final_lr,
            ..FitConfig::default()
        };
        let start = Start::Additive {
            pattern: &pattern,
            rung: &rung,
            tempo,
        };
        let m = fit_eval(&s, start, &cfg, &|_| {});
        score(&m, &s).quiet_loss
    };
    let (constant, decayed) = (loss(FitConfig::default().lr), loss(0.0005));
    assert!(decayed < constant - 0.01, "{constant} -> {decayed}");
}

/// The labelled positions, with their game numbers, of `games` renju self-play games at
/// `(move, label)` nodes, `per_game` positions a game, from `seed`.
fn renju_selfplay(
    games: usize,
    (move_nodes, label_nodes): (u64, u64),
    per_game: usize,
    seed: u64,
) -> Vec<(usize, Labelled)> {
    use bango::engine::config::Config;
    use bango::front::train::{selfplay_games, SelfplayConfig};
    use bango::game::rules::Rule;
    let cfg = SelfplayConfig {
        games,
        move_nodes,
        label_nodes,
        per_game,
        seed,
        opening_stones: 3,
        opening_radius: 3,
        scale: 900.0,
        rule: Rule::Renju,
    };
    let mut out = Vec::new();
    selfplay_games(&cfg, &Config::default(), 0..games, &mut |game, p| {
        out.push((game, p))
    });
    out
}

/// Self-play under renju plays renju: every labelled position is recorded under the rule and
/// its stones replay as legal renju moves (black never on a forbidden point), with the side
/// to move the one after them; a game's result is the same for every position of it.
#[test]
fn selfplay_under_renju_records_legal_renju_positions() {
    use bango::game::board::{Board, Color};
    use bango::game::rules::{self, MoveOutcome, Rule};
    let lines = renju_selfplay(6, (400, 1000), 3, 7);
    assert!(lines.len() >= 6, "{} positions", lines.len());
    for (game, p) in &lines {
        assert_eq!(p.puzzle.rule, Rule::Renju, "{}", p.to_line());
        let mut board = Board::new(15);
        for &(q, c) in &p.puzzle.stones {
            assert_eq!(c, board.side_to_move(), "{}", p.to_line());
            let outcome = rules::play_checked(&mut board, q, c, Rule::Renju);
            assert_eq!(outcome, Ok(MoveOutcome::Continue), "{}", p.to_line());
        }
        let side = if p.puzzle.stones.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(p.puzzle.side, side);
        // The result is the game's: positions of one game with the same side to move agree.
        for (other_game, q) in &lines {
            if other_game == game && q.puzzle.side == p.puzzle.side {
                assert_eq!(q.result, p.result, "game {game}");
            }
        }
    }
}

/// A fit without teacher positions (a rule the teacher file does not cover) holds out whole
/// self-play games, by their opening stones, for its validation figures, and is deterministic.
#[test]
fn a_fit_without_teacher_holds_out_selfplay_games() {
    use bango::front::train::{fit_weights, FitOptions, PolicyFit};
    let played: Vec<Labelled> = renju_selfplay(30, (300, 600), 2, 11)
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let held_out = |p: &Labelled| teacher::is_held_out_group(teacher::group_of(&p.puzzle, &[]));
    let n_held = played.iter().filter(|p| held_out(p)).count();
    assert!(
        n_held > 0 && n_held < played.len(),
        "{n_held} of {}",
        played.len()
    );
    let opts = FitOptions {
        scale: 900,
        targets: Targets::AS_LABELLED,
        fit: FitConfig {
            steps: 50,
            ..FitConfig::default()
        },
        policy: PolicyFit::Teacher,
        warm: None,
    };
    let fit = || fit_weights(&[], &[], &played, &opts, &|_| {});
    let (a, b) = (fit(), fit());
    assert_eq!(a.weights, b.weights);
    assert_eq!(a.teacher_samples, 0);
    // Every sample the fit trained on comes from a kept game (the samples drop positions the
    // evaluation is never read in, so count those of the kept games the same way).
    let kept: Vec<&Labelled> = played.iter().filter(|p| !held_out(p)).collect();
    let kept_samples = samples(&kept, &Targets::AS_LABELLED, true).len();
    assert_eq!(a.selfplay_samples, kept_samples);
    // It reports on the validation games alone (the test games are read by no fit).
    let validation: Vec<&Labelled> = played
        .iter()
        .filter(|p| teacher::is_validation_group(teacher::group_of(&p.puzzle, &[])))
        .collect();
    let n_valid = samples(&validation, &Targets::AS_LABELLED, false).len();
    assert!(
        a.after
            .starts_with(&format!("fitted: validation {n_valid} samples")),
        "{}",
        a.after
    );
    assert!(a.after.contains("self-play training part"), "{}", a.after);
    // The policy was fitted to the self-play moves: it is not the start's.
    let start = fit_weights(
        &[],
        &[],
        &played,
        &FitOptions {
            policy: PolicyFit::Classic,
            ..opts
        },
        &|_| {},
    );
    assert_ne!(a.weights.attack, start.weights.attack);
}
