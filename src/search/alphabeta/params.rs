//! The search's parameters, each declared once ([`crate::declare_settings!`]): the switches that
//! turn a feature off for equivalence tests and self-play judgement, and the tunable margins and
//! thresholds. Every one has a `BANGO_*` variable (the binary reads the environment; the search
//! takes the plain values), a default and a doc line that `pbrain-bango --help` prints.
//!
//! Value-preserving switches (`tt`, `pvs`, `aspiration`) never change the root score at a fixed
//! depth; the others change what is searched and are judged by games. [`Params::exact`] keeps only
//! the value-preserving ones.

use crate::evaluation::movegen::{self, Defences, OpenThree, QUIET_RANK};
use crate::evaluation::weights::WeightSet;

crate::declare_settings! {
    /// The search's switches and tunables.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Params {
        /// Use the transposition table (probe cut-offs and move ordering).
        tt: bool = true, "BANGO_TT";
        /// Principal variation search: zero-window scouts after the first move.
        pvs: bool = true, "BANGO_PVS";
        /// Aspiration windows at the root.
        aspiration: bool = true, "BANGO_ASPIRATION";
        /// Late move reductions (changes values).
        lmr: bool = true, "BANGO_LMR";
        /// Move-count pruning of late moves (changes values).
        move_count_pruning: bool = true, "BANGO_MCP";
        /// Restrict moves to defences when the opponent has an open three, except under caro
        /// (changes values; see [`crate::evaluation::movegen`]).
        threat_prune: bool = true, "BANGO_THREAT_PRUNE";
        /// With [`Params::threat_prune`], keep only the exact defences: the cells after which
        /// the opponent has no open four left, and own fours (changes values).
        exact_defences: bool = false, "BANGO_EXACT_DEFENCES";
        /// With [`Params::threat_prune`], a node facing a four-three that wins in 5 (and no
        /// open three) keeps only own fours and the moves after which that win is gone
        /// (changes values; see [`crate::evaluation::movegen`]; off: +13.9 ± 47.3 Elo in
        /// self-play at 200 ms, 19.2% against Rapfi where the default scores 23.5%).
        four_three_defences: bool = false, "BANGO_FOUR_THREE_DEFENCES";
        /// A forced block of a five is searched one ply deeper, so that a line of fours costs
        /// the search one ply per four, not two (changes values; off: with the defence
        /// extension it lost 58 Elo at 300 ms, README "Search").
        extend_blocks: bool = false, "BANGO_EXTEND_BLOCKS";
        /// The defences against an open three (a node whose moves [`Params::threat_prune`]
        /// restricts) are searched one ply deeper, so that a line of threes and fours, a VCT,
        /// costs the search one ply per threat (changes values; off: no gain at 300 ms).
        extend_defences: bool = false, "BANGO_EXTEND_DEFENCES";
        /// Own fours the quiescence search may play in a row (changes values).
        qsearch_fours: i32 = 2, "BANGO_QSEARCH_FOURS";
        /// Under freestyle and standard, the quiescence's last four must be one that can still
        /// win: a four-three, a four making a point of two fours, or one whose block makes a four.
        qsearch_prune_last_four: bool = true, "BANGO_QSEARCH_PRUNE_LAST_FOUR";
        /// After its first four (any on the board), the quiescence goes on with every own four
        /// on a line through the mover's last stone within four cells, without a count limit:
        /// a connected line of fours (VCF) is read to its end at the horizon, as the strongest
        /// engine's quiescence does (changes values; off: even against Rapfi, experiments
        /// page "The opponent's long wins").
        qsearch_vcf: bool = false, "BANGO_QSEARCH_VCF";
        /// The quiescence reads the table (a bound that settles the window ends the node) and
        /// stores the nodes that searched moves, at depth 0 (changes values; off).
        qsearch_tt: bool = false, "BANGO_QSEARCH_TT";
        /// The evaluation and move-order weights: `fitted` (each rule's own fit), `freestyle`
        /// (the freestyle fit under every rule), `classic` (the hand-set values) or `rapfi`
        /// (Rapfi's classical evaluation model, imported, with the fitted move policy; changes
        /// values).
        weights: WeightSet = WeightSet::DEFAULT, "BANGO_WEIGHTS";
        /// An abandoned iteration's answer counts when it found a move better than the one the
        /// last completed iteration chose, searched first (changes values under a clock).
        partial_iteration: bool = true, "BANGO_PARTIAL_ITERATION";
        /// Evaluate every leaf from scratch instead of incrementally (a slow oracle for tests).
        full_eval: bool = false, "BANGO_FULL_EVAL";
        /// Reverse futility pruning: a calm non-PV node whose static evaluation beats beta by
        /// [`Params::rfp_margin`] a ply returns the evaluation (changes values; with razoring,
        /// +59.6 ± 48.2 Elo at 200 ms, experiments page).
        rfp: bool = true, "BANGO_RFP";
        /// Razoring: a non-PV node near the horizon whose static evaluation is far below alpha
        /// returns the quiescence's value when that confirms it (changes values).
        razor: bool = true, "BANGO_RAZOR";
        /// Reverse futility margin per remaining ply (one less ply when improving), in
        /// evaluation units (900 a logit); 160 against 230 (Rapfi's, scaled): +50.7 ± 47.6 Elo
        /// at 200 ms, against 110: even.
        rfp_margin: i32 = 160, "BANGO_TUNE_RFP_MARGIN";
        /// Reverse futility pruning applies at nodes of at most this remaining depth.
        rfp_max_depth: i32 = 8, "BANGO_TUNE_RFP_MAX_DEPTH";
        /// Razoring's margin at depth `d`: `razor_base + razor_per_ply · d`.
        razor_base: i32 = 70, "BANGO_TUNE_RAZOR_BASE";
        /// See [`Params::razor_base`].
        razor_per_ply: i32 = 50, "BANGO_TUNE_RAZOR_PER_PLY";
        /// Razoring applies at nodes of at most this remaining depth.
        razor_max_depth: i32 = 2, "BANGO_TUNE_RAZOR_MAX_DEPTH";
        /// Half-width of the first aspiration window.
        aspiration_delta: i32 = 400, "BANGO_TUNE_ASPIRATION_DELTA";
        /// Aspiration windows start at this depth.
        aspiration_min_depth: i32 = 4, "BANGO_TUNE_ASPIRATION_MIN_DEPTH";
        /// Lazy SMP puts off moves another worker is searching at nodes of at least this remaining
        /// depth (shallower nodes are too cheap to share; the root always).
        defer_min_depth: i32 = 3, "BANGO_TUNE_DEFER_MIN_DEPTH";
        /// Late move reductions apply at nodes of at least this remaining depth.
        lmr_min_depth: i32 = 2, "BANGO_TUNE_LMR_MIN_DEPTH";
        /// Late move reductions apply to reducible moves from this index of the ordered list on.
        lmr_min_index: usize = 2, "BANGO_TUNE_LMR_MIN_INDEX";
        /// The reduction of a late reducible move is `ln depth · ln index / lmr_divisor` plies.
        lmr_divisor: f32 = 1.5, "BANGO_TUNE_LMR_DIVISOR";
        /// Extra reduction of a late reducible move off the principal variation, where a zero
        /// window only has to show the move is no better.
        lmr_non_pv: i32 = 1, "BANGO_TUNE_LMR_NON_PV";
        /// A reduced move is reduced one ply more for every this many policy units (the fitted
        /// policy's 256 a logit) the policy rates it below the best reducible move picked
        /// before it; 0 = never.
        lmr_policy_unit: i32 = 256, "BANGO_TUNE_LMR_POLICY_UNIT";
        /// ...up to this many plies.
        lmr_policy_max: i32 = 2, "BANGO_TUNE_LMR_POLICY_MAX";
        /// Reduced moves after one raised alpha (at a PV node of remaining depth 3 to 11) are
        /// reduced this many plies more; 0 = never (changes values; 1 against 0: +27.9 ± 48.1
        /// Elo at 200 ms and 25.6% against Rapfi where 0 scores 23.5%; made the default
        /// together with [`Params::lmr_own_threat`], whose figures are the pair's).
        lmr_after_raise: i32 = 1, "BANGO_TUNE_LMR_AFTER_RAISE";
        /// Moves of ladder rank at most this may be reduced: quiet moves, open threes, double
        /// threes and plain fours, each own or its block ([`crate::evaluation::movegen`]'s ladder); a
        /// four-three and anything above, or its block, never is. The quiescence search reads
        /// the fours out anyway, so scouting them shallower loses little.
        reducible_rank: u8 = 7, "BANGO_TUNE_REDUCIBLE_RANK";
        /// Moves of ladder rank at most this may be cut by move-count pruning; apart from
        /// [`Params::reducible_rank`] so that a match can tell skipping a threat from scouting it
        /// shallower.
        prunable_rank: u8 = 7, "BANGO_TUNE_PRUNABLE_RANK";
        /// Move-count pruning keeps `late_move_base + depth^late_move_exponent` prunable moves
        /// of a non-PV node...
        late_move_base: i32 = 3, "BANGO_TUNE_LATE_MOVE_BASE";
        /// ...the count's growth with the remaining depth (2: `depth²`; the strongest engine's
        /// count grows as `depth^1.32`, with no cap)...
        late_move_exponent: f32 = 2.0, "BANGO_TUNE_LATE_MOVE_EXPONENT";
        /// ...and never more than this many, at any depth...
        max_quiet_moves: i32 = 10, "BANGO_TUNE_MAX_QUIET_MOVES";
        /// ...and this percentage of that where the side to move is not improving (its static
        /// evaluation no better than at its last turn); 100 = the same count either way
        /// (changes values below 100; 50 lost, −83 ± 59 Elo, experiments page).
        mcp_not_improving_percent: i32 = 100, "BANGO_TUNE_MCP_NOT_IMPROVING";
        /// Lazy SMP's helpers (every worker but the first) cap move-count pruning at this many
        /// prunable moves instead of [`Params::max_quiet_moves`]; 0 = the same cap as the first
        /// worker. A wider helper searches the refutations the first worker's narrow tree
        /// prunes and leaves them in the shared table (changes values with two workers or more;
        /// the one-worker search never reads it; experiments page "Lazy SMP").
        helper_max_quiet_moves: i32 = 0, "BANGO_TUNE_HELPER_MAX_QUIET_MOVES";
        /// Fail-high reduction: at a cut node (a non-PV node expected to fail high) whose
        /// static evaluation beats beta by [`Params::fail_high_margin`] in a calm position,
        /// every move below an own four is searched a ply shallower (changes values; even in
        /// self-play, −17.4 ± 47.3 Elo, experiments page).
        fail_high_reduction: bool = false, "BANGO_FHR";
        /// The fail-high reduction's margin over beta at remaining depth 0...
        fhr_base: i32 = -40, "BANGO_TUNE_FHR_BASE";
        /// ...and its growth a ply (Rapfi's -9 + 15 d at its 200 units a logit, here 900).
        fhr_per_ply: i32 = 67, "BANGO_TUNE_FHR_PER_PLY";
        /// Late move reductions reduce a reducible move this many plies more at a cut node
        /// (killers are never reducible); 0 = no difference (changes values; 1 even in
        /// self-play, −10.4 ± 47.5 Elo).
        lmr_cut_node: i32 = 0, "BANGO_TUNE_LMR_CUT_NODE";
        /// A four-three to make wins in 5 when the opponent has no four to make (the forced
        /// block of the four cannot make one, and the open four that follows cannot be met):
        /// the node returns the win without a search. Not under caro, nor for renju's black,
        /// whose open four may be forbidden (changes values).
        four_three_wins: bool = false, "BANGO_FOUR_THREE_WINS";
        /// Internal iterative reduction: a PV or cut node of at least this remaining depth
        /// with no table move (and no known one) is searched a ply shallower, since its move
        /// order is a guess and a shallower search fills the table for the next iteration;
        /// 0 = never (changes values).
        iir_min_depth: i32 = 0, "BANGO_TUNE_IIR_MIN_DEPTH";
        /// Internal iterative reduction of a PV node whose table move comes from an entry at
        /// least this many plies shallower than the node: a ply less, as Rapfi's 0.28 ply per
        /// ply of gap rounds at integer depth; 0 = never (changes values).
        iir_tt_gap: i32 = 0, "BANGO_TUNE_IIR_TT_GAP";
        /// History with gravity: a refutation's bonus and a malus for the moves searched before
        /// it, both bounded, and the history weighing in the order by
        /// [`Params::history_weight`] (changes values; see `alphabeta::history`; with
        /// [`Params::history_threats`] and [`Params::lmr_history_unit`] 4096: +24.4 ± 47.1 Elo at
        /// 200 ms, 22.5% against Rapfi where the classic history scores 16.9%, experiments page).
        history_gravity: bool = true, "BANGO_HISTORY_GRAVITY";
        /// Under [`Params::history_gravity`], the policy units a saturated history entry adds
        /// to a quiet move's order (the fitted policy's 256 a logit).
        history_weight: i32 = 128, "BANGO_TUNE_HISTORY_WEIGHT";
        /// Counter moves: the quiet move that last refuted the opponent's previous move is
        /// searched right after the killers (changes values; off: no gain shown).
        counter_moves: bool = false, "BANGO_COUNTER_MOVES";
        /// Under [`Params::history_gravity`], continuation history: the learnt moves also by
        /// the opponent's previous move, the order and the reductions reading the sum of both
        /// entries (changes values; see `alphabeta::history`; even: +10.4 ± 47.0 Elo in
        /// self-play at 200 ms, 21.8% against Rapfi where off scores 20.2%).
        continuation_history: bool = false, "BANGO_CONT_HISTORY";
        /// Under [`Params::history_gravity`], the history also learns from, orders (within
        /// their rank) and reduces the threats up to [`Params::reducible_rank`], not only the
        /// quiet moves (changes values).
        history_threats: bool = true, "BANGO_HISTORY_THREATS";
        /// Under [`Params::history_gravity`], a reduced move the history learns from (quiet, or a
        /// threat under [`Params::history_threats`]) is reduced one ply less for
        /// every this many units of history above zero and one ply more for every this many
        /// below (at most two either way; the bound is 16384); 0 = never (changes values).
        lmr_history_unit: i32 = 4096, "BANGO_TUNE_LMR_HISTORY_UNIT";
        /// A reduced own threat (an open three, a double three or a four: the attacker's
        /// moves of a threat sequence) is reduced this many plies less, as Rapfi does for
        /// continued attacks; 0 = like any other reducible move (changes values; alone even:
        /// +12.2 ± 47.4 Elo in self-play at 200 ms, 23.8% against Rapfi where 0 scores 23.5%;
        /// with [`Params::lmr_after_raise`] 1, against both at 0: +8.7 ± 47.1 Elo in self-play
        /// and 22.4% against 20.0% for Rapfi, paired over 660 games +2.3 ± 3.5 points).
        lmr_own_threat: i32 = 1, "BANGO_TUNE_LMR_OWN_THREAT";
    }
}

impl crate::search::settings::SettingValue for WeightSet {
    fn parse_setting(text: &str) -> Result<WeightSet, String> {
        WeightSet::from_name(text).ok_or_else(|| {
            let names: Vec<&str> = WeightSet::ALL.iter().map(|s| s.name()).collect();
            format!("{:?} is not one of {}", text.trim(), names.join(", "))
        })
    }
}

impl Params {
    /// How a node facing an open three or a four-three restricts its moves.
    pub fn defences(&self) -> Defences {
        let open_three = match (self.threat_prune, self.exact_defences) {
            (false, _) => OpenThree::Off,
            (true, false) => OpenThree::Wide,
            (true, true) => OpenThree::Exact,
        };
        Defences {
            open_three,
            four_three: self.threat_prune && self.four_three_defences,
        }
    }

    /// Only the features that never change the root score at a fixed depth.
    pub fn exact() -> Params {
        Params {
            lmr: false,
            move_count_pruning: false,
            rfp: false,
            razor: false,
            ..Params::default()
        }
    }

    /// The reduction of a late reducible move, growing with depth and lateness (the usual log-log
    /// shape), at least one ply, and [`Params::lmr_non_pv`] more off the principal variation.
    #[inline]
    pub fn lmr_reduction(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        let r = (depth as f32).ln() * (index as f32).ln() / self.lmr_divisor;
        (r as i32).max(1) + if pv_node { 0 } else { self.lmr_non_pv }
    }

    /// The policy's share of a late move's reduction: one ply for every
    /// [`Params::lmr_policy_unit`] units the policy rates the move below the best reducible move
    /// picked before it (`gap`), up to [`Params::lmr_policy_max`]. The index alone cannot tell
    /// a late move the policy likes from one it rates a few logits down; this can.
    #[inline]
    pub fn policy_reduction(&self, gap: i32) -> i32 {
        if self.lmr_policy_unit > 0 {
            (gap / self.lmr_policy_unit).clamp(0, self.lmr_policy_max)
        } else {
            0
        }
    }

    /// The reduction a learnt move's history entry `history` adds (negative: less reduction),
    /// by [`Params::lmr_history_unit`]; 0 unless history gravity bounds the entries.
    #[inline]
    pub fn history_reduction(&self, history: i32) -> i32 {
        if self.history_gravity && self.lmr_history_unit > 0 {
            (-history / self.lmr_history_unit).clamp(-2, 2)
        } else {
            0
        }
    }

    /// The plies [`Params::lmr_own_threat`] takes off the reduction of a reducible move of
    /// ladder rank `rank` ([`movegen::is_own_threat`]).
    #[inline]
    pub fn own_threat_relief(&self, rank: u8) -> i32 {
        if movegen::is_own_threat(rank) {
            self.lmr_own_threat
        } else {
            0
        }
    }

    /// Whether the history learns from and weighs a threat move of ladder rank `rank` (above
    /// the quiet ranks): under [`Params::history_threats`], the reducible ones.
    #[inline]
    pub fn learns_threat(&self, rank: u8) -> bool {
        self.history_gravity && self.history_threats && rank <= self.reducible_rank
    }

    /// Whether the history learns from and weighs a move of ladder rank `rank`: every quiet
    /// move, and the threats [`Params::learns_threat`] says.
    #[inline]
    pub fn learns(&self, rank: u8) -> bool {
        rank <= QUIET_RANK || self.learns_threat(rank)
    }

    /// The reverse futility margin at remaining depth `depth`: [`Params::rfp_margin`] a ply,
    /// one ply less when the side to move is improving.
    #[inline]
    pub fn rfp_margin(&self, depth: i32, improving: bool) -> i32 {
        self.rfp_margin * (depth - i32::from(improving)).max(0)
    }

    /// The razoring margin at remaining depth `depth`, or `None` beyond
    /// [`Params::razor_max_depth`].
    #[inline]
    pub fn razor_margin(&self, depth: i32) -> Option<i32> {
        (depth <= self.razor_max_depth).then(|| self.razor_base + self.razor_per_ply * depth)
    }

    /// The extra reduction of a late move once a move raised alpha (`raised`) at a node of
    /// remaining depth `depth`: [`Params::lmr_after_raise`] between depths 3 and 11, else 0.
    #[inline]
    pub fn raised_alpha_reduction(&self, depth: i32, raised: bool) -> i32 {
        if raised && (3..12).contains(&depth) {
            self.lmr_after_raise
        } else {
            0
        }
    }

    /// The parameters lazy SMP's worker `worker` searches with: the first worker's are these;
    /// a helper's differ only where a `helper_*` tunable is set.
    pub fn for_worker(&self, worker: usize) -> Params {
        let mut p = *self;
        if worker > 0 && self.helper_max_quiet_moves > 0 {
            p.max_quiet_moves = self.helper_max_quiet_moves;
        }
        p
    }

    /// Move-count pruning: at a non-PV node of remaining depth `depth`, where the side to move
    /// is `improving` or not, prunable moves after this many are not searched (at least one).
    /// Only moves of rank at most [`Params::prunable_rank`] that are not killers are prunable;
    /// the table move is searched first.
    #[inline]
    pub fn late_move_count(&self, depth: i32, improving: bool) -> usize {
        // The default's square without a power per node; another exponent's power truncated.
        let depth = depth.max(0);
        let grown = if self.late_move_exponent == 2.0 {
            depth * depth
        } else {
            (depth as f32).powf(self.late_move_exponent) as i32
        };
        let count = self
            .late_move_base
            .saturating_add(grown)
            .min(self.max_quiet_moves);
        let count = if improving {
            i64::from(count)
        } else {
            i64::from(count) * i64::from(self.mcp_not_improving_percent) / 100
        };
        count.max(1) as usize
    }

    /// Internal iterative reduction at a node of remaining `depth`: one ply for a PV or cut
    /// node without a table move from [`Params::iir_min_depth`] on, and for a PV node whose
    /// table move's entry is `tt_gap` or more plies shallower ([`Params::iir_tt_gap`]);
    /// otherwise none.
    #[inline]
    pub fn iir_reduction(
        &self,
        depth: i32,
        pv_node: bool,
        cut_node: bool,
        tt_gap: Option<i32>,
    ) -> i32 {
        let without_move = self.iir_min_depth > 0
            && depth >= self.iir_min_depth
            && (pv_node || cut_node)
            && tt_gap.is_none();
        let shallow_move =
            self.iir_tt_gap > 0 && pv_node && tt_gap.is_some_and(|g| g >= self.iir_tt_gap);
        i32::from(without_move || shallow_move)
    }

    /// How far a cut node's static evaluation must beat beta at remaining depth `depth` for
    /// the fail-high reduction.
    #[inline]
    pub fn fail_high_margin(&self, depth: i32) -> i32 {
        self.fhr_base + self.fhr_per_ply * depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::settings::table as vars;

    #[test]
    fn params_from_variables() {
        let mut warnings = Vec::new();
        let mut warn = |w: String| warnings.push(w);
        assert_eq!(Params::from_vars(&vars(&[]), &mut warn), Params::default());
        let mut warnings = Vec::new();
        let p = Params::from_vars(
            &vars(&[
                ("BANGO_LMR", "0"),
                ("BANGO_MCP", "off"),
                ("BANGO_THREAT_PRUNE", "False"),
                ("BANGO_QSEARCH_FOURS", "3"),
                ("BANGO_QSEARCH_PRUNE_LAST_FOUR", "off"),
                ("BANGO_TT", "1"),
                ("BANGO_TUNE_LMR_DIVISOR", "2"),
                ("BANGO_TUNE_LMR_POLICY_UNIT", "0"),
            ]),
            &mut |w| warnings.push(w),
        );
        assert_eq!(
            p,
            Params {
                lmr: false,
                move_count_pruning: false,
                threat_prune: false,
                qsearch_fours: 3,
                qsearch_prune_last_four: false,
                lmr_divisor: 2.0,
                lmr_policy_unit: 0,
                ..Params::default()
            }
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        // Garbage is reported and ignored: the default stays.
        let p = Params::from_vars(
            &vars(&[("BANGO_PVS", "maybe"), ("BANGO_TUNE_LMR_MIN_INDEX", "-1")]),
            &mut |w| warnings.push(w),
        );
        assert_eq!(p, Params::default());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn reductions_and_counts_follow_the_tunables() {
        let p = Params::default();
        // ln 8 · ln 8 / 1.5 = 2.88 -> 2; one more off the principal variation.
        assert_eq!(p.lmr_reduction(8, 8, true), 2);
        assert_eq!(p.lmr_reduction(8, 8, false), 3);
        // Never below one ply.
        assert_eq!(p.lmr_reduction(2, 3, true), 1);
        assert_eq!(p.late_move_count(1, true), 4);
        assert_eq!(p.late_move_count(1, false), 4);
        // The policy's share: a ply per 256 units below the best, at most two, never negative.
        let p = Params {
            lmr_policy_unit: 256,
            ..p
        };
        assert_eq!(p.policy_reduction(0), 0);
        assert_eq!(p.policy_reduction(255), 0);
        assert_eq!(p.policy_reduction(256), 1);
        assert_eq!(p.policy_reduction(600), 2);
        assert_eq!(p.policy_reduction(100_000), 2);
        assert_eq!(p.policy_reduction(-300), 0);
        let off = Params {
            lmr_policy_unit: 0,
            ..p
        };
        assert_eq!(off.policy_reduction(100_000), 0);
        assert_eq!(p.late_move_count(5, false), 10);
        // Not improving: the percentage of the count, never below one.
        let p = Params {
            mcp_not_improving_percent: 50,
            ..p
        };
        assert_eq!(p.late_move_count(5, true), 10);
        assert_eq!(p.late_move_count(5, false), 5);
        assert_eq!(p.late_move_count(1, false), 2);
        let p = Params {
            mcp_not_improving_percent: 0,
            ..p
        };
        assert_eq!(p.late_move_count(1, false), 1);
        // The strongest engine's growth, 3 + d^1.32 truncated, without the cap of 10.
        let p = Params {
            late_move_exponent: 1.32,
            max_quiet_moves: 64,
            ..Params::default()
        };
        let counts: Vec<usize> = [1, 3, 5, 8, 10]
            .iter()
            .map(|&d| p.late_move_count(d, true))
            .collect();
        assert_eq!(counts, [4, 7, 11, 18, 23]);
        // Absurd settings stay counts: never below one, never an overflow.
        let p = Params {
            late_move_exponent: 1e9,
            max_quiet_moves: i32::MAX,
            mcp_not_improving_percent: i32::MAX,
            ..Params::default()
        };
        assert_eq!(p.late_move_count(3, true), i32::MAX as usize);
        assert!(p.late_move_count(3, false) >= i32::MAX as usize);
        let p = Params {
            late_move_base: -100,
            ..Params::default()
        };
        assert_eq!(p.late_move_count(3, true), 1);
    }

    #[test]
    fn only_helpers_read_the_helper_tunables() {
        let p = Params::default();
        assert_eq!(p.for_worker(0), p);
        assert_eq!(
            p.for_worker(1),
            p,
            "unset, a helper searches as the first worker"
        );
        let wide = Params {
            helper_max_quiet_moves: 20,
            ..p
        };
        assert_eq!(wide.for_worker(0), wide);
        for worker in [1, 3] {
            let h = wide.for_worker(worker);
            assert_eq!(h.max_quiet_moves, 20);
            assert_eq!(
                Params {
                    max_quiet_moves: 10,
                    ..h
                },
                wide
            );
            assert_eq!(h.late_move_count(5, true), 20);
        }
        assert_eq!(wide.for_worker(0).late_move_count(5, true), 10);
    }

    #[test]
    fn eval_margins_follow_the_tunables() {
        let p = Params::default();
        // 160 a ply; improving takes a ply off; never negative.
        assert_eq!(p.rfp_margin(3, false), 480);
        assert_eq!(p.rfp_margin(3, true), 320);
        assert_eq!(p.rfp_margin(0, true), 0);
        // 70 + 50 d up to depth 2, none beyond.
        assert_eq!(p.razor_margin(1), Some(120));
        assert_eq!(p.razor_margin(2), Some(170));
        assert_eq!(p.razor_margin(3), None);
        // One ply more between depths 3 and 11 once alpha was raised; none when off.
        let off = Params {
            lmr_after_raise: 0,
            ..p
        };
        assert_eq!(off.raised_alpha_reduction(5, true), 0);
        assert_eq!(p.raised_alpha_reduction(5, true), 1);
        assert_eq!(p.raised_alpha_reduction(5, false), 0);
        assert_eq!(p.raised_alpha_reduction(2, true), 0);
        assert_eq!(p.raised_alpha_reduction(12, true), 0);
        // Internal iterative reduction: off by default; on, a ply at PV and cut nodes without
        // a table move from its depth, and at PV nodes whose table entry is far shallower.
        assert_eq!(p.iir_reduction(9, true, false, None), 0);
        let iir = Params {
            iir_min_depth: 4,
            iir_tt_gap: 4,
            ..p
        };
        assert_eq!(iir.iir_reduction(4, true, false, None), 1);
        assert_eq!(iir.iir_reduction(4, false, true, None), 1);
        assert_eq!(iir.iir_reduction(4, false, false, None), 0);
        assert_eq!(iir.iir_reduction(3, true, false, None), 0);
        assert_eq!(iir.iir_reduction(9, true, false, Some(4)), 1);
        assert_eq!(iir.iir_reduction(9, true, false, Some(3)), 0);
        assert_eq!(iir.iir_reduction(9, false, true, Some(8)), 0);
        // The fail-high margin: -40 + 67 d.
        assert_eq!(p.fail_high_margin(0), -40);
        assert_eq!(p.fail_high_margin(3), 161);
    }
}
