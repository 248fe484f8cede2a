//! Known positions: results settled outside the search (an analyst's position database) that
//! the search reads like transposition-table entries that are never overwritten.
//!
//! The map is keyed by the board's Zobrist key (side to move included), so a probe is one hash
//! lookup on the key the search already keeps. Whoever fills it (the database, in the knowledge
//! layer) inserts every symmetric copy of a stored position under its own key: this module knows
//! nothing of symmetries, files or rules.
//!
//! # Invariants
//! - Scores are from the side to move's view and on the search's scale; a proven result is a
//!   win score relative to the node (as the table stores it, see [`super::alphabeta::score`]) and
//!   carries [`Known::PROVEN_DEPTH`].
//! - [`KnownPositions::covers`] is true for every stone count some entry has: a node whose count
//!   no entry has skips the lookup (the common case deep in a search, which keeps the cost of an
//!   open database near zero).

use crate::game::board::{Pos, CELLS};
use nohash_hasher::IntMap;

/// What is known of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The value, from the side to move's view, on the search's scale (wins relative to this
    /// position, as the table stores them).
    pub score: i32,
    /// The depth the value was searched to; [`Known::PROVEN_DEPTH`] for a proven result.
    pub depth: i16,
    /// The best move, when one is known.
    pub best: Option<Pos>,
}

impl Known {
    /// The depth of a proven result: deeper than any search.
    pub const PROVEN_DEPTH: i16 = i16::MAX;

    /// Whether the value is a proven result (a win, a loss or a draw by proof).
    pub fn is_proven(&self) -> bool {
        self.depth == Self::PROVEN_DEPTH
    }
}

/// The positions known before the search starts.
#[derive(Clone, Debug)]
pub struct KnownPositions {
    /// Zobrist keys are already uniformly random: they index the map as they are, with no
    /// hashing on the search's path.
    by_key: IntMap<u64, Known>,
    /// Bit `n` of word `n / 64`: some entry has `n` stones.
    stone_counts: [u64; CELLS / 64 + 1],
}

impl Default for KnownPositions {
    fn default() -> Self {
        KnownPositions {
            by_key: IntMap::default(),
            stone_counts: [0; CELLS / 64 + 1],
        }
    }
}

impl KnownPositions {
    /// No known positions.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `known` for the position with Zobrist key `key` and `stones` stones (a later
    /// insert of the same key replaces the earlier one).
    pub fn insert(&mut self, key: u64, stones: usize, known: Known) {
        let stones = stones.min(CELLS);
        self.stone_counts[stones / 64] |= 1 << (stones % 64);
        self.by_key.insert(key, known);
    }

    /// Forgets the entry of `key`, if any (its stone count stays covered: a lookup that finds
    /// nothing costs only the lookup).
    pub fn remove(&mut self, key: u64) {
        self.by_key.remove(&key);
    }

    /// Whether some entry has `stones` stones (cheap; check it before [`Self::get`]).
    #[inline]
    pub fn covers(&self, stones: usize) -> bool {
        stones <= CELLS && self.stone_counts[stones / 64] & (1 << (stones % 64)) != 0
    }

    /// What is known of the position with key `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Known> {
        self.by_key.get(&key).copied()
    }

    /// Number of keys (each symmetric copy counts once).
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lookup_finds_what_was_inserted_and_covers_only_its_stone_counts() {
        let mut k = KnownPositions::new();
        assert!(k.is_empty());
        let known = Known {
            score: 120,
            depth: 9,
            best: Some(Pos::new(3, 4)),
        };
        k.insert(0xABCD, 5, known);
        k.insert(
            0x1234,
            70,
            Known {
                best: None,
                ..known
            },
        );
        assert_eq!(k.len(), 2);
        assert_eq!(k.get(0xABCD), Some(known));
        assert_eq!(k.get(0x1234).unwrap().best, None);
        assert_eq!(k.get(0x9999), None);
        k.remove(0x1234);
        assert_eq!((k.get(0x1234), k.len()), (None, 1));
        let covered: Vec<usize> = (0..=CELLS).filter(|&n| k.covers(n)).collect();
        assert_eq!(covered, vec![5, 70]);
        assert!(!k.covers(CELLS + 1));
    }

    #[test]
    fn proven_results_carry_the_proven_depth() {
        let proven = Known {
            score: 999_990,
            depth: Known::PROVEN_DEPTH,
            best: None,
        };
        assert!(proven.is_proven());
        assert!(!Known {
            depth: 40,
            ..proven
        }
        .is_proven());
    }
}
