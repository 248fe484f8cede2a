//! The brain's configuration: one type, [`Config`], built in one place from the environment
//! (`BANGO_*` variables) and the command line's `--set VAR=VALUE`; during a session the
//! protocol's `INFO` keys write the same fields, read in the Gomocup grammar (signed numbers,
//! clamped with a note, see `front::protocol::info`).
//!
//! Every setting is declared once ([`crate::declare_settings!`]): the search's switches and
//! tunables in [`crate::search::alphabeta::Params`], the brain's own in [`Brain`]; each
//! declaration gives the field, its default, its variable (and `INFO` key, for `--help`), its
//! parser and its doc line. The library
//! never reads the process environment: the binary hands [`Config::from_vars`] a lookup function,
//! and everything below takes the plain values.
//!
//! Resources (threads, table size) are the values a manager asked for here; turning them into
//! what the machine can give is `crate::engine::resources`' job.

use crate::knowledge::book::play::BookMode;
use crate::search::alphabeta::Params;
use crate::search::settings::SettingDoc;
use std::path::PathBuf;

/// The seed of the randomised algorithms unless `BANGO_SEED` sets one: fixed, so that runs are
/// reproducible either way.
pub const DEFAULT_SEED: u64 = 0x0062_616e_676f;

crate::declare_settings! {
    /// The brain's own settings (the search's are [`Params`]).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Brain {
        /// The move-choosing algorithm (`alphabeta`, `random`).
        algo: String = "alphabeta".to_string(), "BANGO_ALGO";
        /// Lazy SMP search workers; 1 is the deterministic mode, tournaments use 4.
        threads: usize = 1, "BANGO_SMP", info "thread_num";
        /// Transposition table size in KiB; 0 leaves it to `max_memory` or the default.
        hash_kib: u64 = 0, "BANGO_HASH_KIB", info "hash_size";
        /// Memory limit in bytes; 0 is none.
        max_memory: u64 = 0, "BANGO_MAX_MEMORY", info "max_memory";
        /// What the brain prints while it thinks: 0 nothing, 1 the log and live board markers,
        /// 2 the log and the `INFO` block, 3 all (see `protocol::report`).
        show_detail: u8 = 1, "BANGO_SHOW_DETAIL", info "show_detail";
        /// Think on the opponent's time (the position after our move) until the next command.
        pondering: bool = false, "BANGO_PONDER", info "pondering";
        /// Opening book and opening prior: `on`, `off`, `book` (book alone), `prior` (prior alone),
        /// `hints` (the prior, and book moves searched first, never played at once).
        book: BookMode = BookMode::Both, "BANGO_BOOK";
        /// Root proof searches: `vcf` (own VCF, break the opponent's), `vct` (also own VCT),
        /// `vctdef` (also restrict the root against the opponent's VCT), `off`.
        proofs: ProofMode = ProofMode::DEFAULT, "BANGO_PROOFS";
        /// Lazy SMP workers put off the moves another worker is searching (off: for comparison).
        smp_defer: bool = true, "BANGO_SMP_DEFER";
        /// Seed of the randomised algorithms.
        seed: u64 = DEFAULT_SEED, "BANGO_SEED";
        /// With a writable position database open, a search of the root that completes this
        /// depth writes its result back (after the reply is printed; 0: never).
        db_write_depth: u32 = 12, "BANGO_DB_WRITE_DEPTH";
    }
}

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
        /// As `Vct`, plus the defence against the opponent's VCT.
        VctDefend = ["vctdef", "3"],
    }
}

impl ProofMode {
    /// The default mode.
    pub const DEFAULT: ProofMode = ProofMode::Vcf;
}

crate::declare_settings! {
    /// The share of the move budget (in percent) and, without a time budget, the node cap of
    /// each proof step; the one home of these tunables. The VCF slices end at fixed points of
    /// the budget (own VCF at `own_vcf_percent`, the opponent's at the sum of both); each VCT
    /// share is a duration from when its step starts, since the VCF steps usually end within a
    /// millisecond and leave their slices to the main search.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Slices {
        /// Own VCF's slice of the move budget, in percent (usually done well under a ms).
        own_vcf_percent: u32 = 10, "BANGO_PROOF_OWN_VCF";
        /// The opponent's VCF and the re-proofs of every candidate breaker, in percent.
        opp_vcf_percent: u32 = 15, "BANGO_PROOF_OPP_VCF";
        /// Own VCT's share of the move budget, in percent (modes `vct` and `vctdef`).
        own_vct_percent: u32 = 15, "BANGO_PROOF_OWN_VCT";
        /// The opponent's VCT and its candidate breakers' re-proofs, in percent (`vctdef`).
        opp_vct_percent: u32 = 15, "BANGO_PROOF_OPP_VCT";
        /// Node cap of each VCF step without a time budget.
        vcf_nodes: u64 = 200_000, "BANGO_PROOF_VCF_NODES";
        /// Node cap of each VCT step without a time budget (proof-number nodes).
        vct_nodes: u64 = 5_000, "BANGO_PROOF_VCT_NODES";
        /// Most candidate breakers of the opponent's VCT that are re-proved.
        vct_breakers: usize = 40, "BANGO_PROOF_VCT_BREAKERS";
        /// Memory of the VCT solver's proof-number table, in KiB (about).
        vct_table_kib: usize = 16 << 10, "BANGO_PROOF_VCT_TABLE_KIB";
        /// Memory of the VCT solver's VCF refutation table, in KiB (about).
        vct_vcf_table_kib: usize = 8 << 10, "BANGO_PROOF_VCT_VCF_TABLE_KIB";
        /// Own VCT only when the side to move can already make a four (it has a three, open
        /// or not): elsewhere a threat sequence would have to start from twos, rarely wins
        /// and costs its whole share.
        own_vct_gated: bool = false, "BANGO_PROOF_VCT_GATED";
        /// With a time budget, own VCT's node cap per millisecond of the move budget
        /// (proof-number nodes; 0: the time share alone).
        own_vct_nodes_per_ms: u64 = 0, "BANGO_PROOF_VCT_NODES_PER_MS";
    }
}

impl Slices {
    /// Entries the root proof solvers' refutation tables may hold before they are emptied (a
    /// fixed bound, so that the memory budget can count them).
    pub const VCF_TABLE_ENTRIES: usize = 1 << 15;

    /// The most of the move budget all the proof steps together may take, in percent.
    pub const MAX_TOTAL_PERCENT: u32 = 90;

    /// These slices with the shares cut so that together they keep at most
    /// [`Slices::MAX_TOTAL_PERCENT`] of the move budget (the VCF slices first, then own VCT,
    /// then the opponent's), and a note saying what was cut, if anything.
    pub fn clamped(self) -> (Slices, Option<String>) {
        let mut s = self;
        let mut room = Slices::MAX_TOTAL_PERCENT;
        for share in [
            &mut s.own_vcf_percent,
            &mut s.opp_vcf_percent,
            &mut s.own_vct_percent,
            &mut s.opp_vct_percent,
        ] {
            *share = (*share).min(room);
            room -= *share;
        }
        let note = (s != self).then(|| {
            format!(
                "proof shares {}+{}+{}+{}% exceed {}% of the move budget; using {}+{}+{}+{}%",
                self.own_vcf_percent,
                self.opp_vcf_percent,
                self.own_vct_percent,
                self.opp_vct_percent,
                Slices::MAX_TOTAL_PERCENT,
                s.own_vcf_percent,
                s.opp_vcf_percent,
                s.own_vct_percent,
                s.opp_vct_percent
            )
        });
        (s, note)
    }
}

/// Everything the brain is configured with.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Config {
    /// The brain's own settings.
    pub brain: Brain,
    /// The search's switches and tunables.
    pub search: Params,
    /// The root proof steps' shares of the move budget and node caps.
    pub proofs: Slices,
    /// `INFO folder`: a directory for persistent files (books are looked for there first).
    pub folder: Option<PathBuf>,
    /// The running executable, when known (books are looked for beside it).
    pub exe: Option<PathBuf>,
}

impl Config {
    /// The defaults, overridden by every variable `vars` has a value for; a value that does not
    /// parse is reported to `warn` and leaves the default.
    pub fn from_vars(
        vars: &dyn Fn(&str) -> Option<String>,
        warn: &mut dyn FnMut(String),
    ) -> Config {
        Config {
            brain: Brain::from_vars(vars, warn),
            search: Params::from_vars(vars, warn),
            proofs: {
                let (slices, note) = Slices::from_vars(vars, warn).clamped();
                if let Some(note) = note {
                    warn(note);
                }
                slices
            },
            folder: None,
            exe: None,
        }
    }

    /// Sets variable `var` (any declared setting) from `text`: `None` if no setting has that
    /// variable, else whether `text` parsed.
    pub fn set(&mut self, var: &str, text: &str) -> Option<Result<(), String>> {
        self.brain
            .set(var, text)
            .or_else(|| self.search.set(var, text))
            .or_else(|| self.proofs.set(var, text))
    }

    /// Every declared setting with its default, in a stable order: the brain's, the search's,
    /// then the proofs'.
    pub fn documented() -> Vec<(SettingDoc, String)> {
        let mut out = Vec::new();
        let mut add = |docs: &[SettingDoc], values: Vec<(&'static str, String)>| {
            out.extend(docs.iter().copied().zip(values.into_iter().map(|(_, v)| v)));
        };
        add(Brain::DOCS, Brain::default().values());
        add(Params::DOCS, Params::default().values());
        add(Slices::DOCS, Slices::default().values());
        out
    }

    /// One line per setting, `VAR=default  doc` (with its `INFO` key), for `--help`.
    pub fn help() -> String {
        let rows = Config::documented();
        let width = rows
            .iter()
            .map(|(d, v)| d.var.len() + v.len() + 1)
            .max()
            .unwrap_or(0);
        let mut s = String::new();
        for (d, v) in rows {
            let name = format!("{}={v}", d.var);
            let info = d.info.map(|k| format!(" (INFO {k})")).unwrap_or_default();
            s += &format!("  {name:<width$}  {}{info}\n", d.doc.trim());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::settings::table as vars;

    #[test]
    fn one_parser_for_every_source() {
        let mut warnings = Vec::new();
        let c = Config::from_vars(
            &vars(&[
                ("BANGO_SMP", "4"),
                ("BANGO_BOOK", "prior"),
                ("BANGO_PROOFS", "off"),
                ("BANGO_SMP_DEFER", "off"),
                ("BANGO_LMR", "no"),
                ("BANGO_SEED", "12"),
            ]),
            &mut |w| warnings.push(w),
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(c.brain.threads, 4);
        assert_eq!(c.brain.book, BookMode::PriorOnly);
        assert_eq!(c.brain.proofs, ProofMode::Off);
        // `off` means off for every switch (it used to leave deferral on).
        assert!(!c.brain.smp_defer);
        assert!(!c.search.lmr);
        assert_eq!(c.brain.seed, 12);
        let mut c = Config::default();
        // The command line's VAR=VALUE reaches search switches too.
        assert_eq!(c.set("BANGO_PVS", "0"), Some(Ok(())));
        assert!(!c.search.pvs);
        assert!(c.set("BANGO_NOTHING", "1").is_none());
    }

    #[test]
    fn bad_values_warn_and_keep_the_default() {
        let mut warnings = Vec::new();
        let c = Config::from_vars(
            &vars(&[("BANGO_BOOK", "sometimes"), ("BANGO_SMP", "-2")]),
            &mut |w| warnings.push(w),
        );
        assert_eq!(c, Config::default());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("BANGO_BOOK")));
        // Proof shares beyond the move budget are cut, with a warning.
        let mut warnings = Vec::new();
        let c = Config::from_vars(
            &vars(&[("BANGO_PROOF_OWN_VCT", "80"), ("BANGO_PROOFS", "vctdef")]),
            &mut |w| warnings.push(w),
        );
        assert_eq!(c.brain.proofs, ProofMode::VctDefend);
        assert_eq!(
            (c.proofs.own_vct_percent, c.proofs.opp_vct_percent),
            (65, 0)
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("using 10+15+65+0%"), "{warnings:?}");
    }

    #[test]
    fn help_lists_every_variable_with_its_default() {
        let help = Config::help();
        for (doc, default) in Config::documented() {
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{}=", doc.var)))
                .unwrap_or_else(|| panic!("{} missing from help", doc.var));
            assert!(line.contains(&format!("{}={default}", doc.var)), "{line}");
        }
        assert!(help.contains("BANGO_SMP=1"), "{help}");
        assert!(help.contains("BANGO_LMR=true"), "{help}");
        assert!(help.contains("(INFO thread_num)"), "{help}");
    }
}
