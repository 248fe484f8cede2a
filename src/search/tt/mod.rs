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

mod dump;
mod handle;
#[cfg(any(test, loom, feature = "experiments"))]
mod packed;
mod slot;
pub(crate) mod sync;

pub use dump::{LoadError, Usage, ENTRY_BYTES, HEADER_BYTES, MAGIC, VERSION};
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
mod tests;
