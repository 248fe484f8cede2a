//! One way of a bucket: the cell a [`TtEntry`] lives in, behind the [`Slot`] trait so that the
//! table's protocol is written once and the cell can be swapped (arc-swap in production, a
//! packed lockless-hashing pair of words for comparison in `super::packed`, a boxed-pointer
//! model under loom).
//!
//! Contract every slot keeps:
//! - [`Slot::load`] never blocks and never returns a torn entry: it returns an entry some writer
//!   stored, in full, or nothing (empty, or a write in flight that it could not read cleanly).
//! - [`Slot::load_for_update`] and [`Slot::compare_and_swap`] make "load, decide, replace only
//!   if unchanged" atomic: the swap succeeds only if the slot still holds exactly what the
//!   writer saw, so a decision is never applied to content it was not made on.
//! - Nothing a reader holds outlives the call: entries are copied out.

use super::TtEntry;
use crate::search::tt::sync::ArcSwapArc as Arc;
#[cfg(loom)]
use crate::search::tt::sync::{AtomicPtr, Ordering};

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
    use super::super::packed::PackedSlot;
    use super::super::Bound;
    use super::*;

    use super::super::test_entry as entry;

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
}
