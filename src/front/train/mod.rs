//! Training (`pbrain-bango train`): fits the evaluation and move-policy weights ([`crate::evaluation::weights`]) to
//! labelled positions, and makes the self-play positions it fits them to.
//!
//! # Data
//! - The teacher file (`positions-teacher-15.txt`, format in [`crate::front::teacher`]): a strong
//!   engine's win probability and best move. Positions are grouped by opening and one group in
//!   five is held out of every fit ([`crate::front::teacher::is_held_out_group`]), so no game
//!   gives positions to both sides: half of those for validation, half a test split that only a
//!   finished change reads (`train score --split test`).
//! - Self-play files ([`selfplay`]): bango plays itself from random openings at a fixed node
//!   budget a move (reproducible), and a sample of each game's positions is labelled by a
//!   deeper search (its score, in the teacher file's scale, and its move) and by the game's
//!   result.
//!
//! # The fit ([`fit_weights`])
//! Only positions where the search reads the evaluation are used: neither side has a five to
//! make and the side to move has no open four to make (those are decided before the evaluation
//! is read). The evaluation model is the one [`crate::evaluation::position::Position::evaluate`] computes:
//! `z = sum(mover[c] over the side to move's empty cells) - sum(waiter[c] over the other
//! side's) + tempo`, `c` the cell's pattern combination, and `sigmoid(z)` is fitted to the
//! label's win probability by logistic regression (cross-entropy with soft targets). Each
//! table is `additive + residual`: the sum of a value per pattern over the four directions and
//! a value per threat rung, plus a per-combination residual held near 0 by an L2 penalty, so
//! combinations seldom seen fall back to the additive part.
//!
//! The move policy is a softmax over the candidate cells with logit `attack[own combination] +
//! defence[opponent's combination]`, fitted to the labelled best moves by cross-entropy, with
//! the same additive-plus-residual tables.
//!
//! Both are plain full-batch gradient descent (Adam) from a fixed start, so the same data
//! gives the same weights. The start is the hand-set additive values, or a warm start
//! ([`Start::Warm`], `train fit --init FILE`): every value begins at a fitted file's and the
//! residual L2 pulls back toward that file instead of toward 0, so new data (or a new term)
//! refine a fit rather than replace it. The step size decays geometrically over the steps
//! ([`FitConfig::final_lr`]): at a constant step the full-batch loss stops falling after a few
//! hundred steps and circles the minimum, and weights taken from there played far worse. The
//! weights are written in search units: `scale` units per logit for the evaluation (kept at
//! the hand-set evaluation's measured scale so the search's margins keep their meaning),
//! [`POLICY_UNITS`] per logit for the policy.
//!
//! # Files
//! - `features`: the hand-set starting weights, a position's features, samples and targets.
//! - `fit`: the fit of the evaluation and the policy, and their scores ([`fit_weights`]).
//! - `selfplay`: self-play games and their labelled positions ([`selfplay`]).

mod features;
mod fit;
mod import;
mod selfplay;

pub use features::*;
pub use fit::*;
pub use import::*;
pub use selfplay::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::position::Position;
    use crate::evaluation::weights::{self, Weights};
    use crate::front::teacher::{self, Labelled};
    use crate::game::notation::Puzzle;
    use crate::game::pattern::{Pattern, PATTERNS, THREATS};
    use crate::game::rules::Rule;

    /// Two positions labelled as won for the side to move, as samples.
    fn two_won_positions() -> Vec<Sample> {
        let lines = [
            "15 freestyle w 7,7,b 8,8,w 6,8,b | best 6,6 eval 300 depth 1",
            "15 freestyle b 7,7,b 8,8,w 6,8,b 9,9,w | best 6,6 eval 250 depth 1",
        ];
        let ls: Vec<Labelled> = lines
            .iter()
            .map(|l| teacher::parse_line(l, 1).unwrap().unwrap())
            .collect();
        let refs: Vec<&Labelled> = ls.iter().collect();
        samples(&refs, &Targets::AS_LABELLED, false)
    }

    /// The additive start at 0 everywhere.
    const ZERO_START: Start = Start::Additive {
        pattern: &[0.0; PATTERNS],
        rung: &[0.0; THREATS],
        tempo: 0.0,
    };

    #[test]
    fn classic_weights_are_the_hand_set_values() {
        let w = classic_weights();
        let i = weights::canonical(&[Pattern::F3, Pattern::F3, Pattern::B1, Pattern::Dead]);
        // Two open threes (a double-three rung) and a closed one.
        assert_eq!(w.mover[i], 110 + 110 + 2 + 700);
        assert_eq!(w.waiter[i], w.mover[i]);
        assert_eq!(w.tempo, 700);
    }

    #[test]
    fn features_count_every_empty_cell_and_skip_decided_positions() {
        let p = Puzzle::parse("15 freestyle w 7,7,b 8,8,w 6,8,b")
            .unwrap()
            .unwrap();
        let f = features(&p.board().unwrap(), Rule::Freestyle).unwrap();
        let cells: u16 = f.mover.iter().map(|x| x.1).sum();
        assert_eq!(cells as usize, 225 - 3);
        assert_eq!(f.waiter.iter().map(|x| x.1).sum::<u16>() as usize, 225 - 3);
        assert!(f.cells.len() > 10 && f.cells.len() < 40);
        // Black to move with an open three: decided, never evaluated.
        let p = Puzzle::parse("15 freestyle b 7,7,b 0,0,w 8,7,b 0,2,w 9,7,b 0,4,w")
            .unwrap()
            .unwrap();
        assert!(features(&p.board().unwrap(), Rule::Freestyle).is_none());
    }

    /// The model's logit of a position equals the engine's evaluation under the same weights.
    #[test]
    fn model_matches_the_engine_evaluation() {
        let w = Weights::embedded();
        let m = Model::of_weights(w);
        for line in [
            "15 freestyle w 7,7,b 8,8,w 6,8,b",
            "15 freestyle b 7,7,b 6,8,w 8,5,b 8,8,w 7,5,b 6,5,w",
        ] {
            let b = Puzzle::parse(line).unwrap().unwrap().board().unwrap();
            let f = features(&b, Rule::Freestyle).unwrap();
            let eval = Position::new(&b, Rule::Freestyle).evaluate();
            assert!((m.logit(&f) * w.scale as f64 - eval as f64).abs() < 1e-6);
        }
    }

    /// The rung-mask term tells apart positions whose top rungs are the same: two positions with
    /// a four on top, one with a three beside it, labelled apart, are fitted apart only with
    /// the term on, and the term stays 0 with it off.
    #[test]
    fn the_mask_term_separates_what_top_rungs_cannot() {
        let sample = |masks: [u8; 2], target: f64| Sample {
            features: Features {
                masks,
                ..Features::default()
            },
            target,
            weight: 1.0,
            best: None,
            mate: false,
        };
        let s = [sample([0b101, 0], 0.8), sample([0b100, 0], 0.3)];
        assert_eq!(s[0].features.top(), s[1].features.top());
        let logits = |threat_mask: bool| {
            let cfg = FitConfig {
                steps: 300,
                threat_mask,
                ..FitConfig::default()
            };
            let m = fit_eval(&s, ZERO_START, &cfg, &|_| {});
            let nonzero = m.mask.iter().filter(|&&v| v != 0.0).count();
            (s.each_ref().map(|x| m.logit(&x.features)), nonzero)
        };
        let ([a, b], nonzero) = logits(false);
        assert_eq!((a, nonzero), (b, 0));
        let ([a, b], nonzero) = logits(true);
        assert_eq!(nonzero, 2);
        assert!(
            teacher::sigmoid(a) > 0.7 && teacher::sigmoid(b) < 0.4,
            "{a} {b}"
        );
    }

    /// A warm start begins at its weights exactly (every table, term and policy value comes
    /// back unchanged after 0 steps), its L2 pulls toward them (with no data, 300 steps leave
    /// them where they are: Adam would move every residual by about its step size were the
    /// pull toward 0), and data move it toward the targets from there.
    #[test]
    fn a_warm_start_begins_and_stays_at_its_weights() {
        let mut w = Weights::embedded().clone();
        w.mask[weights::mask_index(0b1, 0b100)] = 123;
        let warm = Model::of_weights(&w);
        let none: Vec<Sample> = Vec::new();
        for steps in [0, 300] {
            let cfg = FitConfig {
                steps,
                threat_mask: true,
                ..FitConfig::default()
            };
            let m = fit_eval(&none, Start::Warm(&warm), &cfg, &|_| {});
            let m = fit_policy(&none, &m, Some(&warm), &cfg, &|_| {});
            let back = m.to_weights(w.scale);
            assert_eq!(back.mover, w.mover, "{steps} steps");
            assert_eq!(back.waiter, w.waiter);
            assert_eq!(
                (back.tempo, &back.threat, &back.mask),
                (w.tempo, &w.threat, &w.mask)
            );
            assert_eq!(
                (&back.attack, &back.defence, &back.near),
                (&w.attack, &w.defence, &w.near)
            );
        }
        // Data move a warm start toward the targets.
        let s = two_won_positions();
        let cfg = FitConfig {
            steps: 200,
            ..FitConfig::default()
        };
        let m = fit_eval(&s, Start::Warm(&warm), &cfg, &|_| {});
        let (before, after) = (score(&warm, &s).quiet_loss, score(&m, &s).quiet_loss);
        assert!(after < before - 0.01, "{before} -> {after}");
    }

    /// A fit moves the evaluation toward its targets: fitted to positions all labelled as
    /// won for the side to move, the tempo grows and the loss falls.
    #[test]
    fn fit_lowers_the_loss() {
        let s = two_won_positions();
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|x| x.best.is_some()));
        let zero = Model::of_weights(&Weights::zero());
        let cfg = FitConfig {
            steps: 200,
            ..FitConfig::default()
        };
        let m = fit_eval(&s, ZERO_START, &cfg, &|_| {});
        let before = score(&zero, &s).quiet_loss;
        let after = score(&m, &s).quiet_loss;
        assert!(after < before - 0.01, "{before} -> {after}");
        let p = fit_policy(&s, &m, None, &cfg, &|_| {});
        // The labelled cell ends with the highest policy of its class (cells of the same
        // combinations and distances may tie with it), and with more than twice the share of
        // its class it had under the zero policy.
        for x in &s {
            let cells = &x.features.cells;
            let best = cells[x.best.unwrap()];
            let class: Vec<f64> = cells
                .iter()
                .filter(|c| c.class == best.class)
                .map(|c| p.policy(c))
                .collect();
            let top = class.iter().cloned().fold(f64::MIN, f64::max);
            assert!(p.policy(&best) >= top - 1e-9);
            let share = 1.0
                / class
                    .iter()
                    .map(|u| (u - p.policy(&best)).exp())
                    .sum::<f64>();
            assert!(
                share > 2.0 / class.len() as f64,
                "{share} of {}",
                class.len()
            );
        }
    }
}
