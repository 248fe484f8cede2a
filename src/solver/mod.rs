//! Threat-space proof search: victory by continuous fours (VCF) and by continuous threats (VCT),
//! with independent verifiers (`pbrain-bango solve` runs them over puzzle files).
//!
//! - [`threats`]: rule-aware detection of five, four and three points by window scanning.
//! - [`vcf`]: the VCF solver ([`find_vcf`], [`VcfSolver`]).
//! - [`vct`]: the iterative-deepening VCT solver ([`find_vct`], [`VctSolver`]) and its proof
//!   [`Tree`].
//! - [`dfpn`]: the df-pn VCT search ([`find_vct_dfpn`], [`DfpnSolver`]), which `solve --vct` uses.
//! - `replay`: the solvers' quick re-check of a VCF line after a defence.
//! - [`verify`]: replays a proof by the rules alone ([`verify_vcf`], [`verify_tree`]).
//!
//! # Soundness contract
//! A search that runs out of time, nodes or depth answers [`Proof::Unknown`], never a win. A win
//! is returned only with its line (VCF) or tree (VCT), and the public entry points re-check it
//! with the verifier, which knows nothing of the solver's move generation, before returning it.
//! `NoWin` means the solver exhausted its move space: for VCF that is every four, so "no VCF";
//! for VCT it is every threat move the solver generates (fours and moves that threaten a VCF).
//!
//! Everything runs under one [`Budget`]: an absolute deadline, a stop flag and a node cap.

use crate::game::board::Pos;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub mod dfpn;
mod replay;
pub mod threats;
pub mod vcf;
pub mod vct;
pub mod verify;

pub use dfpn::{find_vct_dfpn, DfpnOptions, DfpnSolver, DfpnStats};
pub use vcf::{find_vcf, vcf_breakers, Breakers, VcfSolver};
pub use vct::{find_vct, Tree, VctOptions, VctProof, VctSolver};
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
