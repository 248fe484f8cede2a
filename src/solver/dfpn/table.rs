//! The proof-number table of the df-pn search: its entries (a node's proof and disproof
//! numbers, its generated children, the work below it), how children's numbers combine into a
//! node's, the nodes' keys, and the bound on the table's memory (the least-worked half is
//! dropped when it is full).

use super::DfpnSolver;
use crate::game::board::{Board, Color, Pos};

/// Proof and disproof numbers at or above this are infinite (a proof or disproof is done).
pub(super) const INF: u64 = 1 << 40;

/// How a node's proof or disproof came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Searched through its children (or not settled yet).
    Children,
    /// An OR node the attacker wins by a VCF.
    Vcf,
}

/// One child: the move, its proof number before it is searched, and whether the move still
/// needs black's renju forbidden test (run when the search first descends into it: most
/// attacks never are).
#[derive(Clone, Copy, Debug)]
pub(super) struct Kid {
    pub(super) mv: Pos,
    pub(super) pn0: u16,
    pub(super) unchecked: bool,
}

/// A table entry: the node's numbers, its generated children, and how much work it took.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) pn: u64,
    pub(super) dn: u64,
    pub(super) work: u64,
    pub(super) kind: Kind,
    /// For a proved OR node settled by its children: the attack that proves it.
    pub(super) best: Option<Pos>,
    pub(super) kids: Box<[Kid]>,
}

/// The numbers of a node from its children's `(pn, dn)`: OR takes the least proof number and
/// sums disproof numbers, AND the other way round. Also the index of the child to search and
/// the second-best value of the minimised number.
pub(super) fn combine(or: bool, vals: &[(u64, u64)]) -> (u64, u64, usize, u64) {
    let (mut min, mut second, mut best, mut sum) = (INF, INF, 0, 0u64);
    for (i, &(pn, dn)) in vals.iter().enumerate() {
        let (m, s) = if or { (pn, dn) } else { (dn, pn) };
        if m < min {
            second = min;
            min = m;
            best = i;
        } else if m < second {
            second = m;
        }
        sum = (sum + s).min(INF);
    }
    if or {
        (min, sum, best, second)
    } else {
        (sum, min, best, second)
    }
}

impl DfpnSolver {
    /// Keeps the tables within their bounds.
    pub(super) fn bound_memory(&mut self) {
        if self.vcf.table_len() * VCF_ENTRY_BYTES > self.options.vcf_table_bytes {
            self.vcf.forget();
        }
        if self.table_bytes() > self.options.table_bytes {
            self.stats.collections += 1;
            let mut works: Vec<u64> = self.table.values().map(|e| e.work).collect();
            let mid = works.len() / 2;
            let (_, &mut cut, _) = works.select_nth_unstable(mid);
            self.table.retain(|_, e| e.work > cut);
            // Many equal works (all ones, say) could keep the table full: drop down to half.
            let keep = self.table.len().min(works.len() / 2);
            let mut n = 0;
            self.table.retain(|_, _| {
                n += 1;
                n <= keep
            });
            self.kids = self.table.values().map(|e| e.kids.len()).sum();
        }
    }

    /// About how many bytes the proof-number table holds.
    pub fn table_bytes(&self) -> usize {
        // A hash table keeps about an eighth of its slots free, plus a control byte each.
        self.table.len() * (std::mem::size_of::<(u64, Entry)>() + 1) * 8 / 7
            + self.kids * std::mem::size_of::<Kid>()
    }
}

/// The table key of a node: the position's key, salted by the attacker (the same position is
/// an OR node when its side to move attacks and an AND node when it defends).
pub(super) fn node_key(b: &Board, a: Color) -> u64 {
    match a {
        Color::Black => b.key(),
        Color::White => b.key() ^ WHITE_ATTACKS,
    }
}

/// The salt of [`node_key`] when white attacks (an odd 64-bit constant, unlike any stone's
/// Zobrist key in practice).
const WHITE_ATTACKS: u64 = 0x9E37_79B9_7F4A_7C15;

/// About the bytes of one entry of the VCF solver's table (a key and a depth in a hash table).
const VCF_ENTRY_BYTES: usize = 18;
