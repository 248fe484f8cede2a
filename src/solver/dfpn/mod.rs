//! The VCT engine: a depth-first proof-number search (df-pn) over threat sequences, with a
//! bounded transposition table of proof and disproof numbers.
//!
//! # Files
//! - `table`: the proof-number table (entries, how children's numbers combine, keys, the
//!   memory bound).
//! - `search`: the df-pn recursion (`mid`) and the expansion of a new node.
//! - `moves`: a node's children (attacks; defences and their VCF re-proofs).
//! - `trace`: a threat line traced once, re-tested cheaply after one defender stone.
//! - `extract`: the proof tree read out of the table for the verifier.
//!
//! # Game
//! An OR node has the attacker to move, an AND node the defender (after an attacker move).
//! - **OR node.** An attacker VCF ([`VcfSolver`]) proves it at once. Otherwise, with one
//!   defender five point the only attack is the block there; with two or more the node is
//!   disproved; else the attacks are the legal moves that may make a four or a three (the
//!   window supersets of [`crate::solver::threats::scan`]).
//! - **AND node after a four.** The defences are the legal moves that stop every five point;
//!   none proves the node.
//! - **AND node after any other move.** The move is a threat only if the attacker, to move
//!   again, has a VCF `L`; if not, the node is disproved. A defence must break `L`, so the
//!   candidates are the cells that could touch `L` (`vcf::line_region`) and every defender
//!   four or five point. Each candidate is played and the attacker's VCF re-proved (by
//!   replaying `L`, then by a search); the candidates after which a VCF remains are refuted
//!   and dropped, the others are the node's children (a re-proof that runs out of depth keeps
//!   its candidate: a larger defence set is the sound side). None left proves the node.
//!
//! # Search
//! Nagai's df-pn: a node is searched until its proof number reaches `thpn` or its disproof
//! number `thdn`, always descending into the most proving child with thresholds from the second
//! best (the 1 + epsilon trick of Pawlewicz and Lew widens the child's threshold to a quarter
//! above the second best, so the search does not bounce between two siblings). Stones are only
//! ever added, so the game graph has no cycles and the graph-history interaction cannot arise;
//! transpositions share their table entry. Each entry keeps the node's generated children, so
//! the costly generation (VCF searches) runs once per position while it stays in the table.
//!
//! # Memory
//! The table holds about [`DfpnOptions::table_bytes`] (entries and their children lists, by
//! size): past that, the entries with the least work below them are dropped (half of the
//! table), and a dropped node is simply expanded again when reached. The VCF solver's
//! refutation table is forgotten past [`DfpnOptions::vcf_table_bytes`].
//!
//! # Soundness
//! When the root is proved, the proof tree is read from the table (a node whose entry was
//! dropped is searched again) and checked by [`verify::verify_tree`] within the same budget; only
//! a tree it accepts is reported as a win. Running out of time, nodes or extraction room answers
//! `Unknown`. A disproved root is `NoWin` only if no depth cap or inexact VCF refutation was
//! involved anywhere in the search (then it means: no win among the threat moves generated).

mod extract;
mod moves;
mod search;
mod table;
mod trace;

use super::threats::Windows;
use super::tree::VctProof;
use super::vcf::{KeyMap, VcfSolver};
use super::{verify, Budget};
use crate::game::board::{Board, Color};
use crate::game::rules::Rule;
use extract::EXTRACT_NODES;
use table::{Entry, INF};

/// Knobs of the df-pn VCT search.
#[derive(Clone, Copy, Debug)]
pub struct DfpnOptions {
    /// Most fours in each VCF the search runs.
    pub vcf_fours: u8,
    /// Most plies from the root; a deeper OR node counts as disproved (inexactly).
    pub max_plies: u16,
    /// About the most bytes of the proof-number table before its least-worked half is dropped.
    pub table_bytes: usize,
    /// About the most bytes of the VCF solver's refutation table before it is forgotten.
    pub vcf_table_bytes: usize,
    /// Initial proof number of an attacker move that is not a four (a four has one).
    pub threat_pn: u16,
    /// Initial proof number of a quiet attack (one that makes neither a four nor a three):
    /// above `threat_pn`, so the threes are searched first.
    pub quiet_pn: u16,
    /// Also try quiet attacks: moves in a clean window with one attacker stone (they can
    /// threaten a VCF without making a three). On by default: it proves more puzzles in the
    /// same time (the moves that threaten nothing fail their VCF test quickly).
    pub quiet_attacks: bool,
    /// Test hook: drop one defence at every defender node (makes the solver unsound on purpose,
    /// so tests can show the verifier catches it). Never set outside tests.
    pub drop_one_defence: bool,
    /// Skip the final verification (tests of the verifier itself use this to see raw trees).
    pub skip_verify: bool,
}

impl Default for DfpnOptions {
    fn default() -> Self {
        DfpnOptions {
            vcf_fours: 24,
            max_plies: 80,
            table_bytes: 64 << 20,
            vcf_table_bytes: 32 << 20,
            threat_pn: 2,
            quiet_pn: 3,
            quiet_attacks: true,
            drop_one_defence: false,
            skip_verify: false,
        }
    }
}

/// The search ran out of budget.
#[derive(Debug)]
struct Aborted;

/// Counters of one solver (cumulative until [`DfpnSolver::clear`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct DfpnStats {
    /// Node visits of the proof-number search.
    pub nodes: u64,
    /// Node expansions (children generated).
    pub expansions: u64,
    /// Table garbage collections.
    pub collections: u64,
    /// Attacker moves in the last proof tree.
    pub tree_attacks: usize,
    /// Proof trees the verifier rejected (or could not finish checking).
    pub rejected: u64,
    /// Expansions of OR nodes, of AND nodes after a four, after a non-four that threatened
    /// nothing, and after a threat (with its defence tests).
    pub kinds: [u64; 4],
    /// Defence candidates tested, and those that needed a VCF search.
    pub tests: [u64; 2],
    /// Time spent verifying proof trees.
    pub verify_time: std::time::Duration,
}

/// A reusable df-pn VCT solver.
#[derive(Debug)]
pub struct DfpnSolver {
    /// The VCF solver used for wins, threat tests and defence tests.
    pub vcf: VcfSolver,
    windows: Windows,
    table: KeyMap<Entry>,
    rule: Option<Rule>,
    /// Set when a depth cap or an inexact refutation decided something since the table was
    /// last emptied (its disproofs may rest on it): no `NoWin` then.
    inexact: bool,
    /// The node count at which the current search gives up.
    node_limit: Option<u64>,
    /// Children listed in the table's entries.
    kids: usize,
    /// Counters.
    pub stats: DfpnStats,
    /// Why the verifier rejected the last rejected tree.
    pub rejection: Option<String>,
    /// The search knobs.
    pub options: DfpnOptions,
}

impl Default for DfpnSolver {
    fn default() -> Self {
        DfpnSolver::new(DfpnOptions::default())
    }
}

impl DfpnSolver {
    /// A solver with empty tables.
    pub fn new(options: DfpnOptions) -> DfpnSolver {
        DfpnSolver {
            vcf: VcfSolver::new(),
            windows: Windows::new(15),
            table: KeyMap::default(),
            rule: None,
            inexact: false,
            node_limit: None,
            kids: 0,
            stats: DfpnStats::default(),
            rejection: None,
            options,
        }
    }

    /// Forgets every table entry and the counters.
    pub fn clear(&mut self) {
        self.table.clear();
        self.kids = 0;
        self.inexact = false;
        self.vcf.clear();
        self.stats = DfpnStats::default();
    }

    /// Entries in the proof-number table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Searches for a VCT of `attacker` as if it were to move. A found tree is verified against
    /// all defences within the same budget; if verification fails or cannot finish, the answer
    /// is `Unknown`. The board is left as found.
    pub fn solve(
        &mut self,
        board: &mut Board,
        rule: Rule,
        attacker: Color,
        budget: &Budget,
    ) -> VctProof {
        let side = board.side_to_move();
        board.set_side_to_move(attacker);
        let proof = self.solve_here(board, rule, attacker, budget);
        board.set_side_to_move(side);
        proof
    }

    fn solve_here(&mut self, b: &mut Board, rule: Rule, a: Color, outer: &Budget) -> VctProof {
        // A node cap counts this search's proof-number nodes only; the VCF searches and the
        // verifier inside it run under the clock and the stop flag.
        self.node_limit = outer.max_nodes.map(|n| self.stats.nodes.saturating_add(n));
        let budget = &Budget {
            max_nodes: None,
            ..*outer
        };
        if self.windows.size() != b.size() || self.rule != Some(rule) {
            self.windows = Windows::new(b.size());
            self.table.clear();
            self.kids = 0;
            self.inexact = false;
            self.rule = Some(rule);
        }
        let (pn, dn) = match self.mid(b, rule, a, true, INF, INF, 0, budget) {
            Ok(v) => v,
            Err(Aborted) => return VctProof::Unknown,
        };
        if dn == 0 {
            return if self.inexact {
                VctProof::Unknown
            } else {
                VctProof::NoWin
            };
        }
        if pn != 0 {
            return VctProof::Unknown;
        }
        let mut room = EXTRACT_NODES;
        let tree = match self.tree_or(b, rule, a, 0, &mut room, budget) {
            Ok(Some(t)) => t,
            _ => return VctProof::Unknown,
        };
        self.stats.tree_attacks = tree.attack_count();
        if self.options.skip_verify {
            return VctProof::Win(tree);
        }
        let started = std::time::Instant::now();
        let verdict = verify::verify_tree(b, rule, &tree, budget);
        self.stats.verify_time += started.elapsed();
        match verdict {
            Ok(()) => VctProof::Win(tree),
            Err(e) => {
                self.stats.rejected += 1;
                self.rejection = Some(e);
                VctProof::Unknown
            }
        }
    }
}

/// Searches for a VCT of `attacker` (as if it were to move) with a fresh df-pn solver and
/// default options; see [`DfpnSolver::solve`].
pub fn find_vct_dfpn(board: &mut Board, rule: Rule, attacker: Color, budget: &Budget) -> VctProof {
    DfpnSolver::default().solve(board, rule, attacker, budget)
}

#[cfg(test)]
mod tests;
