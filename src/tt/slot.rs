//! One way of a bucket: the cell a [`TtEntry`] lives in, behind the [`Slot`] trait so that the
//! table's protocol is written once and the cell can be swapped (arc-swap in production, a
//! packed lockless-hashing pair of words for comparison, a boxed-pointer model under loom).
//!
//! Contract every slot keeps:
//! - [`Slot::load`] never blocks and never returns a torn entry: it returns an entry some writer
//!   stored, in full, or nothing (empty, or a write in flight that it could not read cleanly).
//! - [`Slot::load_for_update`] and [`Slot::compare_and_swap`] make "load, decide, replace only
//!   if unchanged" atomic: the swap succeeds only if the slot still holds exactly what the
//!   writer saw, so a decision is never applied to content it was not made on.
//! - Nothing a reader holds outlives the call: entries are copied out.

use super::{Bound, TtEntry};
use crate::board::Pos;
use crate::sync::ArcSwapArc as Arc;
#[cfg(loom)]
use crate::sync::AtomicPtr;
use crate::sync::{AtomicU64, Ordering};

/// A cell holding at most one [`TtEntry`]; see the module header for the contract.
pub trait Slot: Send + Sync {
    /// What a writer saw, to swap against: it must pin the content seen so that a later equal
    /// token cannot stand for different content (no ABA).
    type Seen<'a>
    where
        Self: 'a;

    /// Approximate bytes one slot costs, including any heap the entry it usually holds takes.
    const BYTES: usize;

    /// A short name for benchmarks and reports.
    const NAME: &'static str;

    /// An empty slot.
    fn empty() -> Self;

    /// A copy of the entry, or `None` when empty or when a concurrent write made it unreadable.
    fn load(&self) -> Option<TtEntry>;

    /// A snapshot for a writer: the token to swap against and the entry it stands for; `None`
    /// while another writer holds the slot (the caller retries or gives up).
    fn load_for_update(&self) -> Option<(Self::Seen<'_>, Option<TtEntry>)>;

    /// Replaces the content with `new` if the slot still holds what `seen` stands for; true if
    /// it did.
    fn compare_and_swap(&self, seen: Self::Seen<'_>, new: TtEntry) -> bool;

    /// Replaces the content unconditionally (the racy store, kept for the tests that show why
    /// the table does not use it).
    fn store(&self, new: TtEntry);

    /// Empties the slot. Not meant to run concurrently with writers of the same slot.
    fn clear(&self);
}

/// The production slot: an `arc_swap` cell holding an immutable boxed entry.
///
/// A probe takes a guard, copies the entry and drops the guard at once. A writer keeps the
/// guards of its snapshot only across its decision and the swap (a handful of instructions):
/// the guard keeps the seen entry alive, which is what makes the pointer comparison of
/// `compare_and_swap` free of ABA (a freed entry's address could otherwise be reused by a newer
/// one). arc-swap's `compare_and_swap` takes its own guard internally and returns the previous
/// value as a guard, which is dropped immediately.
pub struct ArcSlot(arc_swap::ArcSwapOption<TtEntry>);

impl Slot for ArcSlot {
    type Seen<'a> = arc_swap::Guard<Option<Arc<TtEntry>>>;

    // The cell, plus the `Arc` block (two counters and the entry) as the allocator rounds it.
    const BYTES: usize = std::mem::size_of::<arc_swap::ArcSwapOption<TtEntry>>() + 48;

    const NAME: &'static str = "arc-swap";

    fn empty() -> Self {
        ArcSlot(arc_swap::ArcSwapOption::empty())
    }

    #[inline]
    fn load(&self) -> Option<TtEntry> {
        self.0.load().as_deref().copied()
    }

    #[inline]
    fn load_for_update(&self) -> Option<(Self::Seen<'_>, Option<TtEntry>)> {
        let guard = self.0.load();
        let entry = guard.as_deref().copied();
        Some((guard, entry))
    }

    #[inline]
    fn compare_and_swap(&self, seen: Self::Seen<'_>, new: TtEntry) -> bool {
        let previous = self.0.compare_and_swap(&seen, Some(Arc::new(new)));
        let ptr = |v: &Option<Arc<TtEntry>>| v.as_ref().map(Arc::as_ptr);
        ptr(&previous) == ptr(&seen)
    }

    fn store(&self, new: TtEntry) {
        self.0.store(Some(Arc::new(new)));
    }

    fn clear(&self) {
        self.0.store(None);
    }
}

/// A slot of two plain words in the lockless-hashing scheme: `data` packs the entry's fields
/// and `check` is `key ^ data`, so a reader that sees halves of two different writes decodes a
/// key that does not match the one it probes for and discards the entry.
///
/// Writers serialise on the slot with a try-lock in `data`: a writer swaps `data` from what it
/// saw to a reserved busy value, verifies `check` is still what it saw, writes `check` and then
/// `data`. A writer that finds the slot busy gives up after a few tries; readers never wait.
///
/// The packing is lossy in one documented way: depth saturates to the 11-bit signed range
/// (a game of at most 1024 plies never needs more).
pub struct PackedSlot {
    check: AtomicU64,
    data: AtomicU64,
}

impl PackedSlot {
    /// The `data` value of a slot a writer holds: bound bits zero (no entry) but not empty.
    const BUSY: u64 = !3;
    /// The depth range the packing keeps exactly.
    pub const DEPTH_RANGE: std::ops::RangeInclusive<i16> = -1024..=1023;

    #[inline]
    fn pack(e: &TtEntry) -> u64 {
        let bound = match e.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = e.best.map_or(0, |p| u64::from(p.0) + 1) & 0x7ff;
        let depth = (e.depth.clamp(-1024, 1023) as u64) & 0x7ff;
        bound | u64::from(e.age) << 2 | best << 10 | depth << 21 | u64::from(e.score as u32) << 32
    }

    #[inline]
    fn unpack(check: u64, data: u64) -> Option<TtEntry> {
        let bound = match data & 3 {
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = (data >> 10) & 0x7ff;
        // Sign-extend the 11-bit depth.
        let depth = (((data >> 21) as u16 & 0x7ff) << 5) as i16 >> 5;
        Some(TtEntry {
            key: check ^ data,
            depth,
            bound,
            score: (data >> 32) as u32 as i32,
            best: if best == 0 {
                None
            } else {
                Some(Pos(best as u16 - 1))
            },
            age: (data >> 2) as u8,
        })
    }
}

impl Slot for PackedSlot {
    type Seen<'a> = (u64, u64);

    const BYTES: usize = 16;

    const NAME: &'static str = "packed";

    fn empty() -> Self {
        PackedSlot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }
    }

    #[inline]
    fn load(&self) -> Option<TtEntry> {
        let check = self.check.load(Ordering::Acquire);
        let data = self.data.load(Ordering::Acquire);
        // A torn pair decodes to a wrong key, which the table's key comparison rejects.
        Self::unpack(check, data)
    }

    #[inline]
    fn load_for_update(&self) -> Option<(Self::Seen<'_>, Option<TtEntry>)> {
        let data = self.data.load(Ordering::Acquire);
        if data == Self::BUSY {
            return None;
        }
        let check = self.check.load(Ordering::Acquire);
        Some(((check, data), Self::unpack(check, data)))
    }

    #[inline]
    fn compare_and_swap(&self, (check, data): Self::Seen<'_>, new: TtEntry) -> bool {
        if self
            .data
            .compare_exchange(data, Self::BUSY, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        // The slot is ours: `check` can no longer change under us. If it differs from what was
        // seen (same data under another key, or a torn snapshot), the decision was made on other
        // content: put `data` back and report failure.
        if self.check.load(Ordering::Relaxed) != check {
            self.data.store(data, Ordering::Release);
            return false;
        }
        let new_data = Self::pack(&new);
        self.check.store(new.key ^ new_data, Ordering::Relaxed);
        self.data.store(new_data, Ordering::Release);
        true
    }

    fn store(&self, new: TtEntry) {
        let new_data = Self::pack(&new);
        self.check.store(new.key ^ new_data, Ordering::Relaxed);
        self.data.store(new_data, Ordering::Release);
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Release);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// The loom model of [`ArcSlot`]'s protocol (loom cannot see inside arc-swap): an atomic
/// pointer to an immutable boxed entry, replaced by compare-and-swap.
///
/// Entries are never freed while the slot lives: a replaced entry goes to `retired` and is freed
/// when the slot is dropped, so a reader that loaded the old pointer can still copy from it.
/// That is the guarantee arc-swap's guards give, with reclamation postponed to the end of the
/// model; it also makes the pointer comparison free of ABA, since no address is reused while
/// the slot lives.
#[cfg(loom)]
pub struct LoomSlot {
    ptr: AtomicPtr<TtEntry>,
    // A std mutex on purpose: it only keeps memory alive and is never held across a loom
    // operation, so modelling it would add interleavings that cannot matter.
    retired: std::sync::Mutex<Vec<Retired>>,
}

#[cfg(loom)]
struct Retired(*mut TtEntry);

// SAFETY: a `Retired` is an owning pointer to a heap entry that is only freed by the slot's
// `Drop`, which has exclusive access; moving the pointer between threads is moving ownership.
#[cfg(loom)]
unsafe impl Send for Retired {}

#[cfg(loom)]
impl LoomSlot {
    fn retire(&self, old: *mut TtEntry) {
        if !old.is_null() {
            self.retired.lock().unwrap().push(Retired(old));
        }
    }
}

#[cfg(loom)]
impl Drop for LoomSlot {
    fn drop(&mut self) {
        let current = self.ptr.with_mut(|p| *p);
        self.retire(current);
        for Retired(p) in self.retired.get_mut().unwrap().drain(..) {
            // SAFETY: every retired pointer came from `Box::into_raw`, was retired once (it left
            // `ptr` by a successful swap, or is the final content), and `&mut self` proves no
            // reader can still hold it.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

#[cfg(loom)]
impl Slot for LoomSlot {
    type Seen<'a> = *mut TtEntry;

    const BYTES: usize = 8 + 32;

    const NAME: &'static str = "loom";

    fn empty() -> Self {
        LoomSlot {
            ptr: AtomicPtr::new(std::ptr::null_mut()),
            retired: std::sync::Mutex::new(Vec::new()),
        }
    }

    fn load(&self) -> Option<TtEntry> {
        let p = self.ptr.load(Ordering::Acquire);
        // SAFETY: a non-null pointer in `ptr` came from `Box::into_raw` and is only freed by
        // `Drop` (retired entries stay allocated), which cannot run while `&self` is borrowed;
        // the entry is immutable after publication (Release store / Acquire load).
        (!p.is_null()).then(|| unsafe { *p })
    }

    fn load_for_update(&self) -> Option<(Self::Seen<'_>, Option<TtEntry>)> {
        let p = self.ptr.load(Ordering::Acquire);
        // SAFETY: as in `load`.
        Some((p, (!p.is_null()).then(|| unsafe { *p })))
    }

    fn compare_and_swap(&self, seen: Self::Seen<'_>, new: TtEntry) -> bool {
        let fresh = Box::into_raw(Box::new(new));
        match self
            .ptr
            .compare_exchange(seen, fresh, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(old) => {
                self.retire(old);
                true
            }
            Err(_) => {
                // SAFETY: `fresh` was never published, so this is its only owner.
                drop(unsafe { Box::from_raw(fresh) });
                false
            }
        }
    }

    fn store(&self, new: TtEntry) {
        let old = self
            .ptr
            .swap(Box::into_raw(Box::new(new)), Ordering::AcqRel);
        self.retire(old);
    }

    fn clear(&self) {
        let old = self.ptr.swap(std::ptr::null_mut(), Ordering::AcqRel);
        self.retire(old);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn entry(key: u64, depth: i16, bound: Bound, score: i32, best: Option<Pos>) -> TtEntry {
        TtEntry {
            key,
            depth,
            bound,
            score,
            best,
            age: 201,
        }
    }

    #[test]
    fn packed_round_trips_every_field_at_its_extremes() {
        let cases = [
            entry(0, 0, Bound::Exact, 0, None),
            entry(u64::MAX, 1023, Bound::Lower, i32::MAX, Some(Pos(1023))),
            entry(
                0x8000_0000_0000_0001,
                -1024,
                Bound::Upper,
                i32::MIN,
                Some(Pos(0)),
            ),
            entry(42, -1, Bound::Exact, -30_000, Some(Pos::new(14, 7))),
        ];
        for e in cases {
            let s = PackedSlot::empty();
            s.store(e);
            assert_eq!(s.load(), Some(e));
        }
        let s = PackedSlot::empty();
        s.store(entry(1, i16::MAX, Bound::Exact, 0, None));
        assert_eq!(s.load().unwrap().depth, 1023, "depth saturates");
    }

    #[test]
    fn packed_torn_pair_decodes_to_another_key() {
        let a = entry(0xdead_beef, 5, Bound::Exact, 10, Some(Pos(3)));
        let b = entry(0xdead_beef, 6, Bound::Lower, 10, Some(Pos(3)));
        let (da, db) = (PackedSlot::pack(&a), PackedSlot::pack(&b));
        let torn = PackedSlot::unpack(a.key ^ da, db).unwrap();
        assert_ne!(torn.key, a.key, "same key, different data must not verify");
    }

    #[test]
    fn packed_empty_and_busy_read_as_nothing() {
        let s = PackedSlot::empty();
        assert_eq!(s.load(), None);
        let e = entry(7, 3, Bound::Exact, 1, None);
        s.store(e);
        let (seen, got) = s.load_for_update().unwrap();
        assert_eq!(got, Some(e));
        s.data.store(PackedSlot::BUSY, Ordering::Relaxed);
        assert_eq!(s.load(), None);
        assert!(s.load_for_update().is_none());
        s.data.store(seen.1, Ordering::Relaxed);
        assert_eq!(s.load(), Some(e));
        s.clear();
        assert_eq!(s.load(), None);
    }

    fn cas_contract<S: Slot>() {
        let s = S::empty();
        let a = entry(1, 3, Bound::Exact, 1, None);
        let b = entry(2, 4, Bound::Lower, 2, None);
        let (seen_empty, got) = s.load_for_update().unwrap();
        assert_eq!(got, None);
        assert!(s.compare_and_swap(seen_empty, a));
        let (stale, _) = s.load_for_update().unwrap();
        s.store(b);
        assert!(!s.compare_and_swap(stale, a), "swap against stale content");
        assert_eq!(s.load(), Some(b));
        let (seen, _) = s.load_for_update().unwrap();
        assert!(s.compare_and_swap(seen, a));
        assert_eq!(s.load(), Some(a));
    }

    #[test]
    fn arc_slot_compare_and_swap_contract() {
        cas_contract::<ArcSlot>();
    }

    #[test]
    fn packed_slot_compare_and_swap_contract() {
        cas_contract::<PackedSlot>();
    }

    #[test]
    fn packed_swap_refuses_same_data_under_another_key() {
        let s = PackedSlot::empty();
        let a = entry(1, 3, Bound::Exact, 1, None);
        s.store(a);
        let (seen, _) = s.load_for_update().unwrap();
        s.store(TtEntry { key: 99, ..a });
        assert!(!s.compare_and_swap(seen, a));
        assert_eq!(s.load().unwrap().key, 99);
        assert!(s.load_for_update().is_some(), "slot released after refusal");
    }
}
