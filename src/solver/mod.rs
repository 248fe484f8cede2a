//! Threat-space proof search: victory by continuous fours (VCF) and by continuous threats (VCT),
//! with independent verifiers (`pbrain-bango solve` runs them over puzzle files).
//!
//! - [`threats`]: rule-aware detection of five, four and three points by window scanning.
//! - [`vcf`]: the VCF search ([`VcfSolver`]; its verified entry points [`find_vcf`] and
//!   [`VcfSolver::solve`] are here, in the solver's root).
//! - [`tree`]: what a VCT proof is ([`Tree`], [`VctProof`]).
//! - [`dfpn`]: the df-pn VCT search ([`find_vct_dfpn`], [`DfpnSolver`]).
//! - `replay`: the solvers' quick re-check of a VCF line after a defence.
//! - [`verify`]: replays a proof by the rules alone ([`verify_vcf`], [`verify_tree`]).
//!
//! The order inside, each looking only down: `threats`, `replay`, `tree` < `vcf` < `verify` <
//! `dfpn` < this root ("search, then verify").
//!
//! # Soundness contract
//! A search that runs out of time, nodes or depth answers [`Proof::Unknown`], never a win. A win
//! is returned only with its line (VCF) or tree (VCT), and the public entry points re-check it
//! with the verifier, which knows nothing of the solver's move generation, before returning it.
//! `NoWin` means the solver exhausted its move space: for VCF that is every four, so "no VCF";
//! for VCT it is every threat move the solver generates (fours and moves that threaten a VCF).
//!
//! Everything runs under one [`Budget`]: an absolute deadline, a stop flag and a node cap.

use crate::game::board::{Board, Color, Pos};
use crate::game::rules::Rule;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use vcf::Res;

pub mod dfpn;
mod replay;
pub mod threats;
pub mod tree;
pub mod vcf;
pub mod verify;

pub use dfpn::{find_vct_dfpn, DfpnOptions, DfpnSolver, DfpnStats};
pub use tree::{Tree, VctProof};
pub use vcf::{vcf_breakers, Breakers, VcfSolver};
pub use verify::{verify_tree, verify_vcf};

/// What a proof search may spend: everything is optional; all set limits apply together.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    /// Give up (answer `Unknown`) at this instant.
    pub deadline: Option<Instant>,
    /// Give up when this flag becomes true (the engine's stop).
    pub stop: Option<&'a AtomicBool>,
    /// Give up after this many nodes.
    pub max_nodes: Option<u64>,
}

impl<'a> Budget<'a> {
    /// No limit at all (tests on small positions).
    pub fn unlimited() -> Budget<'a> {
        Budget::default()
    }

    /// Until `deadline`.
    pub fn until(deadline: Instant) -> Budget<'a> {
        Budget {
            deadline: Some(deadline),
            ..Budget::default()
        }
    }

    /// Whether the search must give up after `nodes` nodes.
    #[inline]
    pub fn exhausted(&self, nodes: u64) -> bool {
        if self.max_nodes.is_some_and(|m| nodes >= m) {
            return true;
        }
        // The clock and the flag are read every 256 nodes: cheap, and still prompt.
        if nodes % 256 != 0 {
            return false;
        }
        self.expired()
    }

    /// Whether the deadline has passed or the stop flag is up (read now, whatever the count:
    /// for searches whose nodes are too costly to wait 256 of them).
    #[inline]
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// The answer of a VCF search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A verified forced win: the attacker's fours and the defender's forced replies,
    /// alternating from the attacker; it ends with the attacker's five, or with an attacker four
    /// that no legal defender move stops.
    Win(Vec<Pos>),
    /// Proved: no VCF exists.
    NoWin,
    /// The budget ran out (or a proof failed verification): nothing is claimed.
    Unknown,
}

impl Proof {
    /// The first move of a win.
    pub fn first_move(&self) -> Option<Pos> {
        match self {
            Proof::Win(l) => l.first().copied(),
            _ => None,
        }
    }
}

impl VcfSolver {
    /// Searches for a VCF of `attacker` as if it were to move, and verifies a found line with
    /// [`verify_vcf`] before returning it (a line that fails is reported as `Unknown`).
    /// The board is left as found.
    pub fn solve(
        &mut self,
        board: &mut Board,
        rule: Rule,
        attacker: Color,
        budget: &Budget,
    ) -> Proof {
        let side = board.side_to_move();
        board.set_side_to_move(attacker);
        let res = self.search(board, rule, attacker, self.max_fours, budget);
        let out = match res {
            Res::Win(line) => match verify_vcf(board, rule, &line) {
                Ok(()) => Proof::Win(line),
                Err(_) => Proof::Unknown,
            },
            Res::Fail { exact: true } => Proof::NoWin,
            Res::Fail { exact: false } | Res::Abort => Proof::Unknown,
        };
        board.set_side_to_move(side);
        out
    }
}

/// Searches for a VCF of `attacker` (as if it were to move) with a fresh solver; see
/// [`VcfSolver::solve`].
pub fn find_vcf(board: &mut Board, rule: Rule, attacker: Color, budget: &Budget) -> Proof {
    VcfSolver::new().solve(board, rule, attacker, budget)
}
