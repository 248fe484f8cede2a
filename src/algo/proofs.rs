//! Proof search at the root: what the alphabeta brain does with VCF and VCT before its main
//! search, all under the one per-move deadline.
//!
//! In order, each step only when the previous one decided nothing:
//! 1. **Own VCF**: a verified win by continuous fours is played at once.
//! 2. **Opponent's VCF**: if the opponent, were it to move, has a verified VCF, the root is
//!    restricted to the moves after which a re-proof shows it has none ([`vcf_breakers`]).
//!    Every other move provably loses, so this restriction never removes a good move; the main
//!    search still chooses among the breakers. With no breaker (a fork that cannot be stopped)
//!    nothing is restricted and the main search picks the slowest loss.
//! 3. **Own VCT** (when enabled): a win by fours and threes, verified against every defence,
//!    is played at once. It is skipped while the opponent threatens a VCF, since a VCT that
//!    ignores the opponent's fours is no proof.
//!
//! A search that runs out of its slice is inconclusive and changes nothing. The slices are
//! fractions of the move budget ([`Slices`]); without a time budget (fixed depth or nodes) the
//! proofs run under node caps, so one-worker analysis stays reproducible. A zero budget skips
//! everything.
//!
//! What is deliberately *not* done here: breaking the opponent's VCT (threes). The reference
//! engine found that narrow proofs of the opponent's threats override good moves in quiet
//! positions; a three is already answered by the main search's threat ladder.

use crate::board::{Board, Pos};
use crate::rules::Rule;
use crate::solver::{vcf_breakers, Budget, Proof, Tree, VcfSolver, VctProof, VctSolver};
use crate::timeman::Plan;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

crate::setting_enum! {
    /// Which proof searches run at the root (`BANGO_PROOFS`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ProofMode {
        /// No proof search: the main search alone.
        Off = ["off", "0", "none"],
        /// Own VCF and the opponent's VCF.
        Vcf = ["vcf", "1"],
        /// As `Vcf`, plus own VCT.
        Vct = ["vct", "2"],
    }
}

impl ProofMode {
    /// The default mode.
    pub const DEFAULT: ProofMode = ProofMode::Vcf;
}

/// The share of the move budget (in percent) and, without a time budget, the node cap of each
/// proof step. One home for these tunables.
pub struct Slices;

impl Slices {
    /// Own VCF: usually done in well under a millisecond.
    pub const OWN_VCF_PERCENT: u32 = 10;
    /// Opponent's VCF and the re-proofs of every candidate breaker.
    pub const OPP_VCF_PERCENT: u32 = 15;
    /// Own VCT.
    pub const OWN_VCT_PERCENT: u32 = 15;
    /// Node cap of each VCF step without a time budget.
    pub const VCF_NODES: u64 = 200_000;
    /// Node cap of the VCT step without a time budget.
    pub const VCT_NODES: u64 = 20_000;
}

/// What the root proofs concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A verified own win by fours: play its first move.
    Vcf(Vec<Pos>),
    /// A verified own win by threats: play its first attack.
    Vct(Tree),
    /// The opponent has a verified VCF; only these moves break it (never empty).
    Defend {
        /// The breaking moves.
        only: Vec<Pos>,
        /// Length of the opponent's line in plies.
        threat_plies: usize,
    },
    /// The opponent has a VCF that no move breaks (or none could be shown in time).
    Lost,
    /// Nothing proved: the main search decides alone.
    Nothing,
}

/// The proof solvers the brain keeps for the whole game (their tables survive between moves).
pub struct RootProofs {
    /// Which steps run.
    pub mode: ProofMode,
    vcf: VcfSolver,
    vct: VctSolver,
}

impl RootProofs {
    /// Solvers with empty tables running the steps of `mode`.
    pub fn new(mode: ProofMode) -> RootProofs {
        let mut proofs = RootProofs {
            mode,
            vcf: VcfSolver::new(),
            vct: VctSolver::default(),
        };
        proofs.bound_tables();
        proofs
    }

    /// Forgets the solvers' tables (a new game).
    pub fn clear(&mut self) {
        self.vcf.clear();
        self.vct = VctSolver::new(self.vct.options);
        self.bound_tables();
    }

    /// The solvers' tables keep at most [`crate::resources::PROOF_ENTRIES`] entries each: they
    /// live for a whole game, and the memory budget counts them at that size.
    fn bound_tables(&mut self) {
        self.vcf.max_entries = crate::resources::PROOF_ENTRIES;
        self.vct.max_entries = crate::resources::PROOF_ENTRIES;
        self.vct.vcf.max_entries = crate::resources::PROOF_ENTRIES;
    }

    /// Runs the enabled steps for the side to move of `board`, each under its slice of `plan`
    /// (measured from `started`) and `stop`.
    pub fn probe(
        &mut self,
        board: &Board,
        rule: Rule,
        plan: &Plan,
        started: Instant,
        stop: &AtomicBool,
    ) -> Verdict {
        if self.mode == ProofMode::Off || plan.instant {
            return Verdict::Nothing;
        }
        let mut b = board.clone();
        let me = b.side_to_move();
        // Node caps count from zero for each step (the solvers' counters are cumulative).
        self.vcf.nodes = 0;
        self.vct.nodes = 0;
        self.vct.vcf.nodes = 0;
        let budget = |percent: u32, nodes: u64| -> Budget<'_> {
            match plan.budget {
                Some(total) => Budget {
                    deadline: Some(slice_end(started, total, percent, plan.hard)),
                    stop: Some(stop),
                    max_nodes: None,
                },
                None => Budget {
                    deadline: plan.hard,
                    stop: Some(stop),
                    max_nodes: Some(nodes),
                },
            }
        };

        // 1. Own VCF.
        let own = self.vcf.solve(
            &mut b,
            rule,
            me,
            &budget(Slices::OWN_VCF_PERCENT, Slices::VCF_NODES),
        );
        if let Proof::Win(line) = &own {
            return Verdict::Vcf(line.clone());
        }

        // 2. The opponent's VCF, and what breaks it.
        self.vcf.nodes = 0;
        let breakers = vcf_breakers(
            &mut self.vcf,
            &mut b,
            rule,
            me,
            &budget(
                Slices::OWN_VCF_PERCENT + Slices::OPP_VCF_PERCENT,
                Slices::VCF_NODES,
            ),
        );
        if let Proof::Win(line) = &breakers.threat {
            let mut only = breakers.moves;
            // A candidate whose re-proof ran out of time is not known to lose: keep it.
            only.extend(breakers.unknown);
            return if only.is_empty() {
                Verdict::Lost
            } else {
                Verdict::Defend {
                    only,
                    threat_plies: line.len(),
                }
            };
        }

        // 3. Own VCT (meaningless while the opponent may have a VCF we could not rule out).
        if self.mode == ProofMode::Vct && breakers.threat == Proof::NoWin {
            let all = Slices::OWN_VCF_PERCENT + Slices::OPP_VCF_PERCENT + Slices::OWN_VCT_PERCENT;
            if let VctProof::Win(tree) =
                self.vct
                    .solve(&mut b, rule, me, &budget(all, Slices::VCT_NODES))
            {
                return Verdict::Vct(tree);
            }
        }
        Verdict::Nothing
    }
}

/// The end of a slice that ends `percent` % of `total` after `started`, never after `hard`.
fn slice_end(started: Instant, total: Duration, percent: u32, hard: Option<Instant>) -> Instant {
    let end = started + total * percent / 100;
    hard.map_or(end, |h| end.min(h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn board(pic: &str, to_move: Color) -> Board {
        let mut b = Board::from_picture(pic).unwrap();
        b.set_side_to_move(to_move);
        b
    }

    /// The verdict of fresh solvers in `mode` for `b` (freestyle), under `plan` from now.
    fn probe(mode: ProofMode, b: &Board, plan: &Plan) -> Verdict {
        let stop = AtomicBool::new(false);
        RootProofs::new(mode).probe(b, Rule::Freestyle, plan, Instant::now(), &stop)
    }

    use crate::solver::vcf::FOUR_THREE_PICTURE as FOUR_THREE;

    #[test]
    fn modes_parse() {
        use crate::settings::SettingValue;
        assert_eq!(ProofMode::parse_setting("OFF"), Ok(ProofMode::Off));
        assert_eq!(ProofMode::parse_setting(" vcf "), Ok(ProofMode::Vcf));
        assert_eq!(ProofMode::parse_setting("2"), Ok(ProofMode::Vct));
        assert!(ProofMode::parse_setting("maybe").is_err());
        assert_eq!(ProofMode::Vct.to_string(), "vct");
    }

    #[test]
    fn own_vcf_is_played() {
        let b = board(FOUR_THREE, Color::Black);
        let v = probe(ProofMode::Vcf, &b, &Plan::UNLIMITED);
        let Verdict::Vcf(line) = v else {
            panic!("expected a VCF, got {v:?}")
        };
        // Checked by the rules alone, not by the solver that found it.
        crate::solver::verify_vcf(&b, Rule::Freestyle, &line).unwrap();
    }

    #[test]
    fn opponent_vcf_restricts_the_root_to_breakers() {
        // White to move; black threatens the same VCF: every allowed move must leave black
        // without a VCF, and a move far away must not be allowed.
        let b = board(FOUR_THREE, Color::White);
        let v = probe(ProofMode::Vcf, &b, &Plan::UNLIMITED);
        let Verdict::Defend { only, threat_plies } = v else {
            panic!("expected a defence, got {v:?}")
        };
        assert!(threat_plies >= 3);
        assert!(!only.contains(&Pos::new(0, 10)));
        for &q in &only {
            let mut after = b.clone();
            after.put(q, Color::White).unwrap();
            let p = crate::solver::find_vcf(
                &mut after,
                Rule::Freestyle,
                Color::Black,
                &Budget::unlimited(),
            );
            assert_eq!(p, Proof::NoWin, "{q} does not break the VCF");
        }
        // And a move outside the set really loses to the VCF.
        let mut far = b.clone();
        far.put(Pos::new(0, 0), Color::White).unwrap();
        assert!(matches!(
            crate::solver::find_vcf(
                &mut far,
                Rule::Freestyle,
                Color::Black,
                &Budget::unlimited()
            ),
            Proof::Win(_)
        ));
    }

    #[test]
    fn nothing_in_a_quiet_position_and_nothing_when_off_or_instant() {
        let quiet = board(
            "\
            . . . . . . .\n\
            . . . . . . .\n\
            . . X O . . .\n\
            . . . X . . .\n\
            . . O . . . .\n\
            . . . . . . .\n\
            . . . . . . .\n",
            Color::White,
        );
        assert_eq!(
            probe(ProofMode::Vct, &quiet, &Plan::UNLIMITED),
            Verdict::Nothing
        );
        let win = board(FOUR_THREE, Color::Black);
        assert_eq!(
            probe(ProofMode::Off, &win, &Plan::UNLIMITED),
            Verdict::Nothing
        );
        let instant = Plan::instant(Instant::now());
        assert_eq!(probe(ProofMode::Vct, &win, &instant), Verdict::Nothing);
    }
}
