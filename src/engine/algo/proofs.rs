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
//! 3. **Own VCT** (when enabled): a win by fours and threes ([`DfpnSolver`]), verified against
//!    every defence, is played at once. It is skipped while the opponent threatens a VCF, since
//!    a VCT that ignores the opponent's fours is no proof. Optionally gated
//!    ([`Slices::own_vct_gated`]: only when a four can be made) and capped in nodes per
//!    millisecond of the move ([`Slices::own_vct_nodes_per_ms`]); both off by default.
//! 4. **Opponent's VCT** (when enabled, same conditions): if the opponent, were it to move, has
//!    a verified VCT, the root is restricted to the candidate moves that may break it (the
//!    cells of its proof tree, the empty cells around its first attack, own fours anywhere and
//!    own threes near the tree) minus those after which a re-proof shows the VCT still there.
//!    Unlike the VCF defence this restriction is a judgement, not a proof: a move outside the
//!    candidates is not shown to lose. With no candidate left nothing is restricted.
//!
//! A search that runs out of its slice is inconclusive and changes nothing. The slices are
//! fractions of the move budget ([`Slices`]); without a time budget (fixed depth or nodes) the
//! proofs run under node caps, so one-worker analysis stays reproducible. A zero budget skips
//! everything.
//!
//! Step 4 is off in the `vct` mode: the reference engine found that narrow proofs of the
//! opponent's threats override good moves in quiet positions, and a three is already answered
//! by the main search's threat ladder; `vctdef` turns it on for matches that measure it.

use crate::engine::config::{ProofMode, Slices};
use crate::game::board::{BitBoard, Board, Color, Pos};
use crate::game::rules::Rule;
use crate::search::timeman::Plan;
use crate::solver::threats::{self, Windows};
use crate::solver::{
    vcf_breakers, Budget, DfpnOptions, DfpnSolver, Proof, Tree, VcfSolver, VctProof,
};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    /// The opponent has a verified VCT; the main search chooses among these candidate
    /// breakers (never empty; see the module docs).
    DefendVct {
        /// The candidates not shown to lose.
        only: Vec<Pos>,
        /// The candidates after which the opponent's VCT was proved again.
        refuted: Vec<Pos>,
        /// Attacker moves in the opponent's proof tree.
        threats: usize,
    },
    /// The opponent has a VCF that no move breaks (or none could be shown in time).
    Lost,
    /// Nothing proved: the main search decides alone.
    Nothing,
}

/// How often each step decided something (cumulative; for reports and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofCounts {
    /// Probes that ran the VCT steps.
    pub vct_probes: u64,
    /// Own VCTs played.
    pub own_vct: u64,
    /// Opponent VCTs found.
    pub opp_vct: u64,
    /// Of those, the ones that restricted the root.
    pub vct_defences: u64,
    /// Candidates re-proved losing (summed over the defences).
    pub vct_refuted: u64,
    /// Own VCT searches that ended proving there is none, and that ran out of their share.
    pub own_vct_none: u64,
    /// See [`ProofCounts::own_vct_none`].
    pub own_vct_unknown: u64,
    /// Own VCT steps skipped by the gate ([`Slices::own_vct_gated`]: no four to make).
    pub own_vct_gated: u64,
    /// Time spent in the own VCT step and in the opponent's VCT step (with its re-proofs).
    pub own_vct_time: Duration,
    /// See [`ProofCounts::own_vct_time`].
    pub opp_vct_time: Duration,
}

/// The proof solvers the brain keeps for the whole game (their tables survive between moves).
pub struct RootProofs {
    /// Which steps run.
    pub mode: ProofMode,
    /// Each step's share of the move budget (clamped) and node cap.
    pub slices: Slices,
    /// What the steps decided so far.
    pub counts: ProofCounts,
    vcf: VcfSolver,
    vct: DfpnSolver,
    windows: Windows,
}

impl RootProofs {
    /// Solvers with empty tables running the steps of `mode` with the default slices.
    pub fn new(mode: ProofMode) -> RootProofs {
        RootProofs::with_slices(mode, Slices::default())
    }

    /// Solvers with empty tables running the steps of `mode` under `slices` (clamped as
    /// [`Slices::clamped`] says).
    pub fn with_slices(mode: ProofMode, slices: Slices) -> RootProofs {
        let (slices, _) = slices.clamped();
        let mut proofs = RootProofs {
            mode,
            slices,
            counts: ProofCounts::default(),
            vcf: VcfSolver::new(),
            vct: DfpnSolver::new(DfpnOptions {
                table_bytes: slices.vct_table_kib << 10,
                vcf_table_bytes: slices.vct_vcf_table_kib << 10,
                ..DfpnOptions::default()
            }),
            windows: Windows::new(15),
        };
        // The VCF refutation table lives for a whole game: bounded as the memory budget
        // counts it (`crate::engine::resources::PROOF_BYTES`; df-pn bounds its own by its options,
        // counted as `crate::engine::resources::Wanted::vct_tables`).
        proofs.vcf.max_entries = Slices::VCF_TABLE_ENTRIES;
        proofs
    }

    /// Forgets the solvers' tables (a new game).
    pub fn clear(&mut self) {
        self.vcf.clear();
        self.vct.clear();
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
        let sl = self.slices;
        let budgets = StepBudgets {
            plan,
            started,
            stop,
            vct_nodes: sl.vct_nodes,
        };
        // Node caps count from zero for each step (the solvers' counters are cumulative).
        self.vcf.nodes = 0;

        // 1. Own VCF.
        let own = self.vcf.solve(
            &mut b,
            rule,
            me,
            &budgets.vcf(sl.own_vcf_percent, sl.vcf_nodes),
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
            &budgets.vcf(sl.own_vcf_percent + sl.opp_vcf_percent, sl.vcf_nodes),
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
        let vct_on = matches!(self.mode, ProofMode::Vct | ProofMode::VctDefend);
        if !vct_on || breakers.threat != Proof::NoWin {
            return Verdict::Nothing;
        }
        self.counts.vct_probes += 1;
        if let Some(win) = self.own_vct(&mut b, rule, me, &budgets) {
            return win;
        }

        // 4. The opponent's VCT, and what may break it.
        if self.mode != ProofMode::VctDefend || sl.opp_vct_percent == 0 {
            return Verdict::Nothing;
        }
        let t = Instant::now();
        let verdict = self.defend_vct(&mut b, rule, me, plan, &budgets.step(sl.opp_vct_percent));
        self.counts.opp_vct_time += t.elapsed();
        verdict
    }

    /// Step 3, own VCT (gated and capped as the slices say): the verdict when it proves a win.
    fn own_vct(
        &mut self,
        b: &mut Board,
        rule: Rule,
        me: Color,
        budgets: &StepBudgets,
    ) -> Option<Verdict> {
        let sl = self.slices;
        let gated = sl.own_vct_gated && !self.can_make_four(b, me);
        self.counts.own_vct_gated += u64::from(gated && sl.own_vct_percent > 0);
        if sl.own_vct_percent == 0 || gated {
            return None;
        }
        let t = Instant::now();
        let mut own_budget = budgets.step(sl.own_vct_percent);
        if let (Some(total), 1..) = (budgets.plan.budget, sl.own_vct_nodes_per_ms) {
            let ms = u64::try_from(total.as_millis()).unwrap_or(u64::MAX);
            own_budget.max_nodes = Some(sl.own_vct_nodes_per_ms.saturating_mul(ms).max(1));
        }
        let own = self.vct.solve(b, rule, me, &own_budget);
        self.counts.own_vct_time += t.elapsed();
        match own {
            VctProof::Win(tree) => {
                self.counts.own_vct += 1;
                return Some(Verdict::Vct(tree));
            }
            VctProof::NoWin => self.counts.own_vct_none += 1,
            VctProof::Unknown => self.counts.own_vct_unknown += 1,
        }
        None
    }

    /// Whether `me` has a move that may make a four (the gate of own VCT).
    fn can_make_four(&mut self, b: &Board, me: Color) -> bool {
        if self.windows.size() != b.size() {
            self.windows = Windows::new(b.size());
        }
        !threats::scan(b, &self.windows, me).a_four.is_empty()
    }

    /// Step 4: the opponent's VCT within `whole`, and the candidates that may break it.
    fn defend_vct(
        &mut self,
        b: &mut Board,
        rule: Rule,
        me: Color,
        plan: &Plan,
        whole: &Budget,
    ) -> Verdict {
        let opp = me.opponent();
        let VctProof::Win(tree) = self.vct.solve(b, rule, opp, whole) else {
            return Verdict::Nothing;
        };
        self.counts.opp_vct += 1;
        let cands = self.vct_candidates(b, rule, me, &tree);
        let (mut only, mut refuted) = (Vec::new(), Vec::new());
        for (i, &c) in cands.iter().enumerate() {
            if whole.expired() {
                // Out of time: the rest is not known to lose.
                only.extend_from_slice(&cands[i..]);
                break;
            }
            // Each re-proof gets an even share of what is left (or of the node cap).
            let share = match (whole.deadline, plan.budget) {
                (Some(d), Some(_)) => {
                    let now = Instant::now();
                    let left = d.saturating_duration_since(now);
                    Budget {
                        deadline: Some(now + left / (cands.len() - i) as u32),
                        ..*whole
                    }
                }
                _ => Budget {
                    max_nodes: Some(self.slices.vct_nodes / cands.len() as u64 + 1),
                    ..*whole
                },
            };
            b.put(c, me).expect("candidate on an empty cell");
            let again = self.vct.solve(b, rule, opp, &share);
            b.undo();
            if matches!(again, VctProof::Win(_)) {
                self.counts.vct_refuted += 1;
                refuted.push(c);
            } else {
                only.push(c);
            }
        }
        if only.is_empty() {
            return Verdict::Nothing;
        }
        self.counts.vct_defences += 1;
        Verdict::DefendVct {
            only,
            refuted,
            threats: tree.attack_count(),
        }
    }

    /// The moves of `me` (to move on `b`) that may break the opponent's VCT `tree`, in this
    /// order: its first attack and the cells next to it, `me`'s four points anywhere (they
    /// force), the other cells of the tree (attacks and replies, every level), and `me`'s three
    /// points within two cells of the tree; legal, at most [`Slices::vct_breakers`].
    fn vct_candidates(&mut self, b: &mut Board, rule: Rule, me: Color, tree: &Tree) -> Vec<Pos> {
        fn walk(t: &Tree, out: &mut Vec<Pos>) {
            out.push(t.attack);
            for (q, sub) in &t.replies {
                out.push(*q);
                walk(sub, out);
            }
        }
        if self.windows.size() != b.size() {
            self.windows = Windows::new(b.size());
        }
        let mut tree_cells = Vec::new();
        walk(tree, &mut tree_cells);
        let first = tree.attack;
        let mut cells = vec![first];
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                if let Some(q) = b.pos(first.x() as i64 + dx, first.y() as i64 + dy) {
                    cells.push(q);
                }
            }
        }
        let mut near = BitBoard::EMPTY;
        for &p in &tree_cells {
            for dy in -2i64..=2 {
                for dx in -2i64..=2 {
                    if let Some(q) = b.pos(p.x() as i64 + dx, p.y() as i64 + dy) {
                        near.insert(q);
                    }
                }
            }
        }
        let s = threats::scan(b, &self.windows, me);
        cells.extend(s.a_four.iter());
        cells.extend(tree_cells);
        cells.extend(s.a_three.iter().filter(|&q| near.contains(q)));
        let mut seen = BitBoard::EMPTY;
        let mut out = Vec::new();
        for q in cells {
            if out.len() == self.slices.vct_breakers {
                break;
            }
            if !seen.contains(q) && crate::game::rules::is_legal(b, q, me, rule) {
                seen.insert(q);
                out.push(q);
            }
        }
        out
    }
}

/// The budgets of the proof steps of one probe: with a time budget, slices of the move's
/// budget (the VCF steps' end at fixed points measured from the move's start, each VCT step's
/// is a duration from when it starts: the VCF steps usually end within a millisecond and leave
/// their slices to the main search); without one, node caps under the hard deadline.
struct StepBudgets<'a> {
    plan: &'a Plan,
    started: Instant,
    stop: &'a AtomicBool,
    vct_nodes: u64,
}

impl<'a> StepBudgets<'a> {
    /// A VCF step's: until `percent` of the move's budget, or `nodes` nodes.
    fn vcf(&self, percent: u32, nodes: u64) -> Budget<'a> {
        match self.plan.budget {
            Some(total) => Budget {
                deadline: Some(slice_end(self.started, total, percent, self.plan.hard)),
                stop: Some(self.stop),
                max_nodes: None,
            },
            None => Budget {
                deadline: self.plan.hard,
                stop: Some(self.stop),
                max_nodes: Some(nodes),
            },
        }
    }

    /// A VCT step's: `percent` of the move's budget from now, or the VCT node cap.
    fn step(&self, percent: u32) -> Budget<'a> {
        match self.plan.budget {
            Some(total) => Budget {
                deadline: Some(slice_end(Instant::now(), total, percent, self.plan.hard)),
                stop: Some(self.stop),
                max_nodes: None,
            },
            None => self.vcf(0, self.vct_nodes),
        }
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
    use crate::game::board::Color;

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
        use crate::search::settings::SettingValue;
        assert_eq!(ProofMode::parse_setting("OFF"), Ok(ProofMode::Off));
        assert_eq!(ProofMode::parse_setting(" vcf "), Ok(ProofMode::Vcf));
        assert_eq!(ProofMode::parse_setting("2"), Ok(ProofMode::Vct));
        assert!(ProofMode::parse_setting("maybe").is_err());
        assert_eq!(ProofMode::Vct.to_string(), "vct");
        assert_eq!(ProofMode::parse_setting("vctDef"), Ok(ProofMode::VctDefend));
    }

    #[test]
    fn slices_are_clamped_and_say_so() {
        let (same, note) = Slices::default().clamped();
        assert_eq!((same, note), (Slices::default(), None));
        let greedy = Slices {
            own_vct_percent: 50,
            opp_vct_percent: 50,
            ..Slices::default()
        };
        let (s, note) = greedy.clamped();
        // 10 + 15 for the VCF steps, 50 for own VCT, the 15 left for the opponent's.
        assert_eq!((s.own_vct_percent, s.opp_vct_percent), (50, 15));
        assert!(note.unwrap().contains("using 10+15+50+15%"));
        let proofs = RootProofs::with_slices(ProofMode::Vct, greedy);
        assert_eq!(proofs.slices, s);
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
