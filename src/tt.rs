//! The transposition table shared by every search worker (first cut; the TT/SMP work refines
//! the slot behind a trait, adds the packed-slot comparison and the loom model).
//!
//! Shape, fixed by design: two-way set-associative buckets; each way is an `arc_swap` cell
//! holding an immutable [`TtEntry`]. A store builds a new entry and swaps it in atomically; a
//! probe loads, copies the entry out of the guard at once and never locks, so it can never see a
//! torn entry.
//!
//! Scores are stored exactly as the caller gives them: re-basing win scores to the node (and
//! back to the root on probe) is the search's job.

use crate::board::Pos;
use arc_swap::ArcSwapOption;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// What the stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the node failed high).
    Lower,
    /// At most this (the node failed low).
    Upper,
}

/// One stored search result, copied out on probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The full Zobrist key of the position.
    pub key: u64,
    /// Remaining depth the result was searched to.
    pub depth: i16,
    /// How to read `score`.
    pub bound: Bound,
    /// The score from the side to move's view, as the search stored it.
    pub score: i32,
    /// The best (or refuting) move found, if any.
    pub best: Option<Pos>,
    /// The search generation that stored it.
    pub age: u8,
}

/// Bytes one bucket costs (two cells plus the entries they usually point at).
const BUCKET_COST: usize = 2 * (std::mem::size_of::<ArcSwapOption<TtEntry>>() + 48);

/// The shared table.
pub struct TranspositionTable {
    buckets: Box<[[ArcSwapOption<TtEntry>; 2]]>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table using about `bytes` of memory (at least one bucket; bucket count a power of two).
    pub fn new(bytes: usize) -> TranspositionTable {
        let wanted = (bytes / BUCKET_COST).max(1);
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        let buckets = (0..count)
            .map(|_| [ArcSwapOption::empty(), ArcSwapOption::empty()])
            .collect::<Vec<_>>()
            .into_boxed_slice();
        TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Number of buckets.
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[ArcSwapOption<TtEntry>; 2] {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    /// The entry stored for `key`, copied out of the cell.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for cell in self.bucket(key) {
            let e = cell.load().as_deref().copied();
            if let Some(e) = e {
                if e.key == key {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Stores a result. Replacement: the way holding the same key if any (unless it is deeper and
    /// the new entry is not exact... never evict a deeper entry of the same position for a
    /// shallower one), else the shallower or older way.
    pub fn store(&self, key: u64, depth: i16, bound: Bound, score: i32, best: Option<Pos>) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let current = [
            bucket[0].load().as_deref().copied(),
            bucket[1].load().as_deref().copied(),
        ];
        let mut way = None;
        for (i, e) in current.iter().enumerate() {
            if let Some(e) = e {
                if e.key == key {
                    if e.depth > depth && e.age == age {
                        return;
                    }
                    way = Some(i);
                }
            }
        }
        let way = way.unwrap_or_else(|| {
            let value = |e: &Option<TtEntry>| match e {
                None => i32::MIN,
                Some(e) => e.depth as i32 - if e.age == age { 0 } else { 64 },
            };
            if value(&current[0]) <= value(&current[1]) {
                0
            } else {
                1
            }
        });
        bucket[way].store(Some(Arc::new(TtEntry {
            key,
            depth,
            bound,
            score,
            best,
            age,
        })));
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties every slot (not on the move clock: it touches the whole table).
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            b[0].store(None);
            b[1].store(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_and_depth_preference() {
        let tt = TranspositionTable::new(1 << 16);
        let k = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(k), None);
        tt.store(k, 6, Bound::Exact, 42, Some(Pos::new(3, 4)));
        let e = tt.probe(k).unwrap();
        assert_eq!((e.depth, e.score, e.best), (6, 42, Some(Pos::new(3, 4))));
        tt.store(k, 2, Bound::Lower, 7, None);
        assert_eq!(
            tt.probe(k).unwrap().depth,
            6,
            "deeper entry evicted by shallower"
        );
        tt.new_search();
        tt.store(k, 2, Bound::Lower, 7, None);
        assert_eq!(tt.probe(k).unwrap().depth, 2, "stale entry not replaced");
    }
}
