//! The transposition table shared by every search worker, and its concurrency contract.
//!
//! Shape, fixed by design: two-way set-associative buckets indexed by the low bits of the key;
//! each way is a [`Slot`] holding one immutable [`TtEntry`]. In production the slot is an
//! `arc_swap` cell ([`ArcSlot`]); `PackedSlot` (two words, lockless hashing; tests, loom and the
//! `experiments` feature only) is the contract's second implementation; under `cfg(loom)` the default slot is `LoomSlot`, a model of the same
//! protocol that loom can see into.
//!
//! Scores are stored exactly as the caller gives them: re-basing win scores to the node (and
//! back to the root on probe) is the search's job.
//!
//! # What may race, and why it is acceptable
//!
//! Probes and stores from any number of threads run concurrently without locks.
//!
//! - **A probe never sees a torn entry.** It copies each way's entry out in one step (arc-swap:
//!   a guard held for the copy only; packed: a torn pair of words decodes to a key that does
//!   not match and is discarded). What a probe returns is an entry some writer stored, whole.
//! - **A probe may miss an entry being written, or see one that is replaced a moment later.**
//!   Acceptable: the table is a cache, and every entry is a valid result for its key; the search
//!   must treat any hit as advice that may be stale (as it must anyway for hash collisions).
//! - **Stores are load → decide → compare-and-swap the chosen way against what was loaded →
//!   retry.** A racy "check then store" could let a shallower writer that decided on stale
//!   content overwrite a deeper entry of the same position; with the swap, a decision is only
//!   ever applied to the content it was made on, so **a deeper entry of the current search is
//!   never replaced by a shallower one of the same key** (the loom tests check exactly this and
//!   show the racy variant failing).
//! - **The two ways are not swapped together.** A writer's snapshot of the *other* way may be
//!   stale, so two writers of the same key can end up in both ways. Acceptable: a probe returns
//!   the deeper of two matches, and the duplicate is the preferred victim of the next store.
//! - **A store may be dropped**: after [`STORE_ATTEMPTS`] failed swaps (each one means another
//!   store to the same bucket succeeded), or when a packed slot stays busy. Dropping a result is
//!   a cache miss later, never a wrong answer.
//! - **Counters are relaxed.** [`TranspositionTable::new_search`] and
//!   [`TranspositionTable::clear`] may be seen late by a worker already running; its stores then
//!   carry the previous age or game. They are meant to be called between searches, when no
//!   worker runs; a late-seen counter only misranks a few entries.
//!
//! # Generations and lifetime
//!
//! Each entry carries the search generation (`age`) that stored it: entries of older searches
//! are kept and still answer probes, but are the first to be replaced. A new game is a cheap
//! [`TranspositionTable::clear`]: it changes the game salt XORed into every stored key, so every
//! entry of an earlier game stops matching any probe (reads as empty) without touching memory.
//! Allocating, filling or dropping a large table is expensive; [`TableHandle`] keeps that off
//! the move clock (see its docs for the lifetime rules).

mod handle;
#[cfg(any(test, loom, feature = "experiments"))]
mod packed;
mod slot;
pub(crate) mod sync;

pub use handle::{Resize, TableHandle, DEFAULT_BYTES, SMALL_BYTES};
#[cfg(any(test, loom, feature = "experiments"))]
pub use packed::PackedSlot;
#[cfg(loom)]
pub use slot::LoomSlot;
pub use slot::{ArcSlot, Slot};

use crate::game::board::Pos;
use crate::search::tt::sync::{AtomicU64, AtomicU8, Ordering};

/// The slot the table uses unless told otherwise: arc-swap, or its loom model under `cfg(loom)`.
#[cfg(not(loom))]
pub type DefaultSlot = ArcSlot;
/// The slot the table uses unless told otherwise: arc-swap, or its loom model under `cfg(loom)`.
#[cfg(loom)]
pub type DefaultSlot = LoomSlot;

/// How many times a store reloads and retries after losing a race before dropping its entry.
pub const STORE_ATTEMPTS: usize = 4;

/// How much an older search generation weighs against depth when choosing a victim: an entry
/// one search older counts as this much shallower.
const AGE_WEIGHT: i32 = 8;

/// The odd constant the game salt advances by (any odd number visits all 2^64 values).
const SALT_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

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

/// What became of one store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreOutcome {
    /// The entry is in the table.
    Stored,
    /// The table already held exactly this entry, so nothing was written (with several
    /// workers the same node is often stored twice, and a write is the table's costly step).
    Unchanged,
    /// A deeper entry of the same position from this search was kept instead.
    KeptDeeper,
    /// Lost the race [`STORE_ATTEMPTS`] times (or the slot stayed busy); the entry was dropped.
    GaveUp,
}

/// The shared table. `S` is the slot kind; the default is the production one.
pub struct TranspositionTable<S: Slot = DefaultSlot> {
    buckets: Box<[[S; 2]]>,
    age: AtomicU8,
    salt: AtomicU64,
}

impl TranspositionTable {
    /// A table of the default slot kind using about `bytes` of memory (at least one bucket;
    /// bucket count a power of two, the largest that fits).
    pub fn new(bytes: usize) -> Self {
        Self::with_bytes(bytes)
    }
}

impl<S: Slot> TranspositionTable<S> {
    /// A table using about `bytes` of memory (at least one bucket; bucket count a power of two,
    /// the largest that fits).
    pub fn with_bytes(bytes: usize) -> Self {
        Self::with_buckets(Self::buckets_for(bytes))
    }

    /// The bucket count [`TranspositionTable::with_bytes`] chooses for `bytes`.
    pub fn buckets_for(bytes: usize) -> usize {
        let wanted = (bytes / (2 * S::BYTES)).max(1);
        if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
    }

    /// A table of exactly `count` buckets (a power of two).
    pub fn with_buckets(count: usize) -> Self {
        assert!(
            count.is_power_of_two(),
            "bucket count must be a power of two"
        );
        let buckets = (0..count)
            .map(|_| [S::empty(), S::empty()])
            .collect::<Vec<_>>()
            .into_boxed_slice();
        TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
            salt: AtomicU64::new(0),
        }
    }

    /// Reserves the buckets of a table of about `bytes` (as [`TranspositionTable::with_bytes`]
    /// sizes it) without touching them: the fallible, quick half of building a table. An
    /// allocation the system refuses is an error here, never an abort.
    pub fn try_reserve(bytes: usize) -> Result<Reservation<S>, std::collections::TryReserveError> {
        let count = Self::buckets_for(bytes);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count)?;
        Ok(Reservation { buckets, count })
    }

    /// Number of buckets.
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// Approximate bytes the table takes when full.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * 2 * S::BYTES
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[S; 2] {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    /// The entry stored for `key` in this game, copied out; the deeper one if both ways match.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let salted = key ^ self.salt.load(Ordering::Relaxed);
        let mut found: Option<TtEntry> = None;
        for way in self.bucket(key) {
            if let Some(e) = way.load() {
                if e.key == salted && found.is_none_or(|f| e.depth > f.depth) {
                    found = Some(e);
                }
            }
        }
        found.map(|e| TtEntry { key, ..e })
    }

    /// Stores a result; see [`TranspositionTable::try_store`] for the policy.
    #[inline]
    pub fn store(&self, key: u64, depth: i16, bound: Bound, score: i32, best: Option<Pos>) {
        self.try_store(key, depth, bound, score, best);
    }

    /// Stores a result and says what became of it. Replacement: a deeper entry of the same
    /// position from the current search is kept; otherwise the way holding the same position is
    /// overwritten, else the way that is shallower once older generations are discounted.
    pub fn try_store(
        &self,
        key: u64,
        depth: i16,
        bound: Bound,
        score: i32,
        best: Option<Pos>,
    ) -> StoreOutcome {
        let new = self.entry(key, depth, bound, score, best);
        let bucket = self.bucket(key);
        for _ in 0..STORE_ATTEMPTS {
            let Some((seen0, e0)) = bucket[0].load_for_update() else {
                crate::search::tt::sync::busy_wait();
                continue;
            };
            let Some((seen1, e1)) = bucket[1].load_for_update() else {
                crate::search::tt::sync::busy_wait();
                continue;
            };
            if e0 == Some(new) || e1 == Some(new) {
                return StoreOutcome::Unchanged;
            }
            let swapped = match choose_way(&[e0, e1], &new) {
                None => return StoreOutcome::KeptDeeper,
                Some(0) => {
                    drop(seen1);
                    bucket[0].compare_and_swap(seen0, new)
                }
                Some(_) => {
                    drop(seen0);
                    bucket[1].compare_and_swap(seen1, new)
                }
            };
            if swapped {
                return StoreOutcome::Stored;
            }
        }
        StoreOutcome::GaveUp
    }

    /// The deliberately racy store (check, then overwrite unconditionally), kept only so the loom
    /// tests can show the violation the compare-and-swap prevents. Never use it.
    #[cfg(any(test, loom, feature = "experiments"))]
    pub fn store_racy(&self, key: u64, depth: i16, bound: Bound, score: i32, best: Option<Pos>) {
        let new = self.entry(key, depth, bound, score, best);
        let bucket = self.bucket(key);
        if let Some(way) = choose_way(&[bucket[0].load(), bucket[1].load()], &new) {
            bucket[way].store(new);
        }
    }

    fn entry(&self, key: u64, depth: i16, bound: Bound, score: i32, best: Option<Pos>) -> TtEntry {
        TtEntry {
            key: key ^ self.salt.load(Ordering::Relaxed),
            depth,
            bound,
            score,
            best,
            age: self.age.load(Ordering::Relaxed),
        }
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table for a new game in constant time: entries of earlier games stop matching
    /// any probe and count as older for replacement. Call it between searches.
    pub fn clear(&self) {
        self.salt.fetch_add(SALT_STEP, Ordering::Relaxed);
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties every slot physically. Touches the whole table: never on a move's clock, and not
    /// concurrently with stores; [`TranspositionTable::clear`] is what a new game wants.
    pub fn wipe(&self) {
        for bucket in self.buckets.iter() {
            bucket[0].clear();
            bucket[1].clear();
        }
    }
}

/// How much of a table [`Reservation::fill_unless`] fills between two checks.
pub const FILL_CHUNK_BYTES: usize = 1 << 20;

/// The reserved, not yet filled buckets of a table ([`TranspositionTable::try_reserve`]).
/// Filling writes every bucket, which is what makes the memory resident; `TableHandle` does it
/// on a helper thread.
pub struct Reservation<S: Slot = DefaultSlot> {
    buckets: Vec<[S; 2]>,
    count: usize,
}

impl<S: Slot> Reservation<S> {
    /// The bytes the table will take when full (as [`TranspositionTable::bytes`]).
    pub fn bytes(&self) -> usize {
        self.count * 2 * S::BYTES
    }

    /// Fills the buckets with empty slots: the table, ready to use.
    pub fn fill(self) -> TranspositionTable<S> {
        self.fill_unless(|| false)
            .expect("a fill that is never abandoned completes")
    }

    /// [`Reservation::fill`], asking `abandon` after every [`FILL_CHUNK_BYTES`] whether the
    /// table is still wanted: `None` when it is not, having touched (made resident) only what
    /// was filled so far, which the drop returns.
    pub fn fill_unless(mut self, abandon: impl Fn() -> bool) -> Option<TranspositionTable<S>> {
        let chunk = (FILL_CHUNK_BYTES / (2 * S::BYTES)).max(1);
        while self.buckets.len() < self.count {
            if abandon() {
                return None;
            }
            let next = (self.buckets.len() + chunk).min(self.count);
            // Within the reserved capacity: no reallocation.
            self.buckets.resize_with(next, || [S::empty(), S::empty()]);
        }
        Some(TranspositionTable {
            buckets: self.buckets.into_boxed_slice(),
            age: AtomicU8::new(0),
            salt: AtomicU64::new(0),
        })
    }
}

/// Which way a new entry goes into, or `None` to keep a deeper entry of the same position from
/// the current search. Entry keys here are salted; the generation is `new.age`.
fn choose_way(ways: &[Option<TtEntry>; 2], new: &TtEntry) -> Option<usize> {
    let same = |i: usize| ways[i].filter(|e| e.key == new.key);
    if (0..2).any(|i| same(i).is_some_and(|e| e.age == new.age && e.depth > new.depth)) {
        return None;
    }
    match (same(0), same(1)) {
        (Some(a), Some(b)) => return Some(usize::from(b.depth < a.depth)),
        (Some(_), None) => return Some(0),
        (None, Some(_)) => return Some(1),
        (None, None) => {}
    }
    let value = |e: &Option<TtEntry>| match e {
        None => i32::MIN,
        Some(e) => i32::from(e.depth) - AGE_WEIGHT * i32::from(new.age.wrapping_sub(e.age)),
    };
    Some(usize::from(value(&ways[1]) < value(&ways[0])))
}

/// An entry with every field given (tests of the slots and of the table).
#[cfg(test)]
pub(crate) fn test_entry(
    key: u64,
    depth: i16,
    bound: Bound,
    score: i32,
    best: Option<Pos>,
) -> TtEntry {
    TtEntry {
        key,
        depth,
        bound,
        score,
        best,
        age: 201,
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// Keys that all land in bucket 0 of a small table.
    fn key(i: u64) -> u64 {
        i << 32
    }

    fn both<F: Fn(&dyn Fn() -> Box<dyn Table>)>(f: F) {
        f(&|| Box::new(TranspositionTable::<ArcSlot>::with_buckets(4)));
        f(&|| Box::new(TranspositionTable::<PackedSlot>::with_buckets(4)));
    }

    /// The table's operations, object-safe, so each test runs on both slot kinds.
    trait Table {
        fn probe(&self, key: u64) -> Option<TtEntry>;
        fn store(&self, key: u64, depth: i16) -> StoreOutcome;
        fn new_search(&self);
        fn clear(&self);
    }

    impl<S: Slot> Table for TranspositionTable<S> {
        fn probe(&self, key: u64) -> Option<TtEntry> {
            TranspositionTable::probe(self, key)
        }
        fn store(&self, key: u64, depth: i16) -> StoreOutcome {
            self.try_store(key, depth, Bound::Exact, i32::from(depth) * 10, None)
        }
        fn new_search(&self) {
            TranspositionTable::new_search(self)
        }
        fn clear(&self) {
            TranspositionTable::clear(self)
        }
    }

    #[test]
    fn store_probe_and_depth_preference() {
        let tt = TranspositionTable::new(1 << 16);
        let k = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(k), None);
        tt.store(k, 6, Bound::Exact, 42, Some(Pos::new(3, 4)));
        let e = tt.probe(k).unwrap();
        assert_eq!(
            (e.key, e.depth, e.bound, e.score, e.best, e.age),
            (k, 6, Bound::Exact, 42, Some(Pos::new(3, 4)), 0)
        );
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

    #[test]
    fn deeper_same_key_kept_equal_or_deeper_replaces() {
        both(|make| {
            let tt = make();
            assert_eq!(tt.store(key(1), 5), StoreOutcome::Stored);
            assert_eq!(tt.store(key(1), 4), StoreOutcome::KeptDeeper);
            assert_eq!(tt.probe(key(1)).unwrap().score, 50);
            assert_eq!(tt.store(key(1), 5), StoreOutcome::Unchanged);
            assert_eq!(tt.store(key(1), 7), StoreOutcome::Stored);
            assert_eq!(tt.probe(key(1)).unwrap().depth, 7);
            // The same key is updated in place, not duplicated: the other way stays free.
            tt.store(key(2), 1);
            assert_eq!(tt.probe(key(1)).unwrap().depth, 7);
            assert_eq!(tt.probe(key(2)).unwrap().depth, 1);
        });
    }

    #[test]
    fn an_identical_entry_is_not_written_again() {
        let tt = TranspositionTable::new(1 << 16);
        let k = 0x77;
        let store = |bound, score| tt.try_store(k, 4, bound, score, Some(Pos::new(1, 2)));
        assert_eq!(store(Bound::Exact, 5), StoreOutcome::Stored);
        assert_eq!(store(Bound::Exact, 5), StoreOutcome::Unchanged);
        // Any field that differs is written.
        assert_eq!(store(Bound::Lower, 5), StoreOutcome::Stored);
        assert_eq!(store(Bound::Lower, 6), StoreOutcome::Stored);
        assert_eq!(tt.probe(k).unwrap().score, 6);
        tt.new_search();
        assert_eq!(
            store(Bound::Lower, 6),
            StoreOutcome::Stored,
            "age not refreshed"
        );
        assert_eq!(tt.probe(k).unwrap().age, 1);
    }

    #[test]
    fn shallower_way_is_the_victim() {
        both(|make| {
            let tt = make();
            tt.store(key(1), 5);
            tt.store(key(2), 3);
            tt.store(key(3), 4);
            assert_eq!(tt.probe(key(2)), None, "shallowest evicted");
            assert_eq!(tt.probe(key(1)).unwrap().depth, 5);
            assert_eq!(tt.probe(key(3)).unwrap().depth, 4);
            // A new entry replaces the shallower way even if it is shallower still.
            tt.store(key(4), 1);
            assert_eq!(tt.probe(key(3)), None);
            assert_eq!(tt.probe(key(1)).unwrap().depth, 5);
        });
    }

    #[test]
    fn older_way_is_the_victim() {
        both(|make| {
            let tt = make();
            tt.store(key(1), 9);
            tt.new_search();
            tt.new_search();
            tt.store(key(2), 3);
            // Two generations old at depth 9 counts as 9 - 16 < 3.
            tt.store(key(3), 2);
            assert_eq!(tt.probe(key(1)), None, "old deep entry should go first");
            assert_eq!(tt.probe(key(2)).unwrap().depth, 3);
            assert_eq!(tt.probe(key(3)).unwrap().age, 2);
        });
    }

    #[test]
    fn duplicate_ways_probe_the_deeper_and_store_over_the_shallower() {
        let tt = TranspositionTable::<PackedSlot>::with_buckets(4);
        let e = tt.entry(key(1), 3, Bound::Exact, 30, None);
        tt.buckets[0][0].store(e);
        tt.buckets[0][1].store(TtEntry { depth: 8, ..e });
        assert_eq!(tt.probe(key(1)).unwrap().depth, 8);
        assert_eq!(
            tt.try_store(key(1), 5, Bound::Lower, 0, None),
            StoreOutcome::KeptDeeper
        );
        tt.new_search();
        assert_eq!(
            tt.try_store(key(1), 5, Bound::Lower, 0, None),
            StoreOutcome::Stored
        );
        assert_eq!(
            tt.buckets[0][0].load().unwrap().depth,
            5,
            "shallower dup replaced"
        );
        assert_eq!(tt.buckets[0][1].load().unwrap().depth, 8);
    }

    #[test]
    fn clear_is_a_new_game_without_touching_memory() {
        both(|make| {
            let tt = make();
            tt.store(key(1), 9);
            tt.store(key(2), 9);
            tt.clear();
            assert_eq!(tt.probe(key(1)), None);
            assert_eq!(tt.probe(key(2)), None);
            // Entries of the old game count as older: a shallow store of this game replaces one.
            assert_eq!(tt.store(key(1), 1), StoreOutcome::Stored);
            assert_eq!(tt.probe(key(1)).unwrap().depth, 1);
            assert_eq!(tt.probe(key(2)), None);
        });
    }

    #[test]
    fn wipe_empties_slots() {
        let tt = TranspositionTable::<PackedSlot>::with_buckets(4);
        tt.store(key(1), 3, Bound::Upper, -5, Some(Pos(9)));
        tt.wipe();
        assert_eq!(tt.probe(key(1)), None);
        assert!(tt.buckets.iter().flatten().all(|s| s.load().is_none()));
    }

    #[test]
    fn sizing_is_the_largest_power_of_two_that_fits() {
        type Packed = TranspositionTable<PackedSlot>;
        assert_eq!(Packed::buckets_for(0), 1);
        assert_eq!(Packed::buckets_for(32), 1);
        assert_eq!(Packed::buckets_for(64), 2);
        assert_eq!(Packed::buckets_for(95), 2);
        assert_eq!(Packed::buckets_for(1 << 20), 1 << 15);
        assert_eq!(Packed::buckets_for((1 << 20) + 1000), 1 << 15);
        let tt = TranspositionTable::<ArcSlot>::with_bytes(64 << 20);
        assert!(tt.bytes() <= 64 << 20 && tt.bytes() > 32 << 20);
        assert!(tt.bucket_count().is_power_of_two());
        assert_eq!(TranspositionTable::new(0).bucket_count(), 1);
    }

    #[test]
    fn choose_way_prefers_empty_then_lower_value() {
        let e = |key, depth, age| {
            Some(TtEntry {
                key,
                depth,
                bound: Bound::Exact,
                score: 0,
                best: None,
                age,
            })
        };
        let new = e(9, 4, 10).unwrap();
        assert_eq!(choose_way(&[None, None], &new), Some(0));
        assert_eq!(choose_way(&[e(1, 1, 10), None], &new), Some(1));
        assert_eq!(choose_way(&[e(1, 1, 10), e(2, 2, 10)], &new), Some(0));
        assert_eq!(choose_way(&[e(1, 3, 10), e(2, 2, 10)], &new), Some(1));
        assert_eq!(choose_way(&[e(1, 3, 10), e(9, 20, 10)], &new), None);
        assert_eq!(choose_way(&[e(1, 3, 10), e(9, 20, 9)], &new), Some(1));
        // Wrapped generation counter: 255 is one older than 0.
        let new0 = e(9, 4, 0).unwrap();
        assert_eq!(choose_way(&[e(1, 5, 0), e(2, 12, 255)], &new0), Some(1));
    }
}
