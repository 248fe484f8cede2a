//! The table's lifetime across moves and games, kept off the move clock and within memory.
//!
//! Allocating, filling or dropping a table of millions of slots takes long enough to matter on
//! a move's clock (and the Gomocup judge counts start-up against the first move). So:
//! - a large table is reserved on the caller's thread (quick: address space only) and filled
//!   on a helper thread while the current table keeps serving (a [`SMALL_BYTES`] one at
//!   start-up); [`TableHandle::table`] installs it at the next move once ready, and
//!   [`TableHandle::table_within`] waits a bounded time for it;
//! - a replaced table is handed to a helper thread, which drops it once no search holds it;
//! - a new game is [`TranspositionTable::clear`], a constant-time generation bump.
//!
//! Lifetime rules: the allocation is kept across moves and across `RESTART`/new games of the
//! same size (only its contents are emptied, by [`TableHandle::new_game`]); it is replaced only
//! when the wanted size changes ([`TableHandle::resize`]), and then the old table keeps serving
//! until the new one is ready. While a replacement is being filled both tables exist, so the
//! peak is their sum; `crate::engine::resources` budgets two tables for that.
//!
//! Memory rules:
//! - **Fallible.** The reservation is `try_reserve`: when the system refuses it, the handle
//!   tries half the size, and so on down to [`SMALL_BYTES`], and says what it got
//!   ([`Resize`]); when even that fails it keeps the table it has. It never aborts.
//! - **One fill at a time.** Resizes in quick succession (a manager sending several settings)
//!   never fill tables side by side: one helper fills the latest reservation, a newer request
//!   replaces a queued one and abandons the one being filled (checked every
//!   [`super::FILL_CHUNK_BYTES`], so only what was filled so far was ever resident), and a table
//!   finished after a newer request was made is dropped before the next is filled; and no
//!   fill starts while a replaced table is still being dropped. At most two tables (the serving one and the one being filled)
//!   are ever resident, plus old ones already handed over for dropping.
//!
//! This handle is outside the loom model: it uses `std` threads and `Arc` on purpose.

use super::{DefaultSlot, Reservation, Slot, TranspositionTable};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Table size when neither `hash_size` nor `max_memory` says otherwise: well inside Gomocup's
/// 350 MB process limit even while a replacement is being allocated.
pub const DEFAULT_BYTES: usize = 64 << 20;

/// Tables up to this size are allocated on the caller's thread; a larger one is filled in the
/// background (and a handle starts with one this size while it is).
pub const SMALL_BYTES: usize = 1 << 20;

/// What became of a [`TableHandle::resize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resize {
    /// The size was already the one asked for: table and contents kept.
    Unchanged,
    /// A table of `bytes` (the size asked for, as the bucket count rounds it) is in place or
    /// being filled.
    Started {
        /// Its size when full.
        bytes: usize,
    },
    /// The system refused the size asked for; a smaller table of `bytes` is in place or being
    /// filled.
    Reduced {
        /// The size asked for.
        wanted: usize,
        /// The size obtained.
        bytes: usize,
    },
    /// Not even [`SMALL_BYTES`] could be reserved: the current table stays.
    Failed {
        /// The size asked for.
        wanted: usize,
        /// The size of the table kept.
        kept: usize,
    },
}

impl Resize {
    /// A line for the manager when the size obtained is not the one asked for.
    pub fn note(&self) -> Option<String> {
        match *self {
            Resize::Unchanged | Resize::Started { .. } => None,
            Resize::Reduced { wanted, bytes } => Some(format!(
                "could not allocate a {} KiB table; using {} KiB",
                wanted >> 10,
                bytes >> 10
            )),
            Resize::Failed { wanted, kept } => Some(format!(
                "could not allocate a {} KiB table (nor any smaller one); keeping {} KiB",
                wanted >> 10,
                kept >> 10
            )),
        }
    }
}

/// The engine's handle on its transposition table; see the module docs for the rules.
pub struct TableHandle<S: Slot + 'static = DefaultSlot> {
    inner: Mutex<Inner<S>>,
}

struct Inner<S: Slot + 'static> {
    current: Arc<TranspositionTable<S>>,
    /// The size last asked for.
    wanted: usize,
    /// Number of the last request sent to the filler; delivered tables of older ones are stale.
    request: u64,
    /// Whether the table of request `request` has not been installed yet.
    pending: bool,
    /// The size of that table (what was reserved: at most `wanted`).
    pending_bytes: usize,
    filler: Arc<Mutex<FillQueue<S>>>,
    /// Replaced tables handed to helpers and not yet dropped; the filler waits for none to be
    /// left before it fills, so a table is never filled while older ones are still resident.
    retiring: Arc<AtomicUsize>,
    ready_tx: Sender<(u64, TranspositionTable<S>)>,
    ready_rx: Receiver<(u64, TranspositionTable<S>)>,
    /// Helper threads (fills and disposals) not yet known to have finished.
    helpers: Vec<JoinHandle<()>>,
}

/// The filler's queue: at most one reservation waiting, and whether a filler thread runs.
struct FillQueue<S: Slot> {
    next: Option<(u64, Reservation<S>)>,
    running: bool,
}

impl TableHandle {
    /// A handle on a table of the default slot kind of about `bytes`; returns at once even for
    /// a large size.
    pub fn new(bytes: usize) -> Self {
        Self::with_bytes(bytes)
    }
}

impl<S: Slot + 'static> TableHandle<S> {
    /// A handle on a table of about `bytes`; returns at once even for a large size (what the
    /// reservation obtained is [`TableHandle::wanted_bytes`]'s table or a smaller one: see
    /// [`TableHandle::resize`] to learn which).
    pub fn with_bytes(bytes: usize) -> Self {
        let (ready_tx, ready_rx) = crossbeam_channel::unbounded();
        let small = bytes.min(SMALL_BYTES);
        let current = match TranspositionTable::<S>::try_reserve(small) {
            Ok(r) => r.fill(),
            // Not even a small table: one bucket, so that the engine still runs.
            Err(_) => TranspositionTable::with_buckets(1),
        };
        let handle = TableHandle {
            inner: Mutex::new(Inner {
                current: Arc::new(current),
                wanted: small,
                request: 0,
                pending: false,
                pending_bytes: 0,
                retiring: Arc::new(AtomicUsize::new(0)),
                filler: Arc::new(Mutex::new(FillQueue {
                    next: None,
                    running: false,
                })),
                ready_tx,
                ready_rx,
                helpers: Vec::new(),
            }),
        };
        handle.resize(bytes);
        handle
    }

    /// The table to search with for this move (hold the `Arc` for the whole move). Installs a
    /// table finished in the background, handing the one it replaces to a helper to drop.
    pub fn table(&self) -> Arc<TranspositionTable<S>> {
        self.table_within(Duration::ZERO)
    }

    /// [`TableHandle::table`], first waiting up to `wait` for a table still being filled, so
    /// that a size asked for between moves is the one this move searches with.
    pub fn table_within(&self, wait: Duration) -> Arc<TranspositionTable<S>> {
        let mut inner = self.inner.lock();
        inner.install_ready();
        if inner.pending && !wait.is_zero() {
            let until = Instant::now().checked_add(wait);
            while inner.pending {
                let left = until.map_or(Duration::MAX, |u| {
                    u.saturating_duration_since(Instant::now())
                });
                match inner.ready_rx.recv_timeout(left) {
                    Ok(delivered) => inner.receive(delivered),
                    Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        }
        Arc::clone(&inner.current)
    }

    /// The size last asked for, in bytes.
    pub fn wanted_bytes(&self) -> usize {
        self.inner.lock().wanted
    }

    /// The size of the table searches use now (before any table still being filled arrives).
    pub fn current_bytes(&self) -> usize {
        let mut inner = self.inner.lock();
        inner.install_ready();
        inner.current.bytes()
    }

    /// Whether a table asked for is still being filled.
    pub fn pending(&self) -> bool {
        self.filling_bytes().is_some()
    }

    /// The size of the table still being filled, if one is (what was reserved, which a refusal
    /// may have made smaller than [`TableHandle::wanted_bytes`]).
    pub fn filling_bytes(&self) -> Option<usize> {
        let mut inner = self.inner.lock();
        inner.install_ready();
        inner.pending.then_some(inner.pending_bytes)
    }

    /// Asks for a table of about `bytes`. The same size as before keeps the table (and its
    /// contents); another size reserves a replacement (a smaller one if the system refuses) and
    /// has it filled in the background, returning at once.
    pub fn resize(&self, bytes: usize) -> Resize {
        self.resize_with(bytes, TranspositionTable::<S>::try_reserve)
    }

    /// [`TableHandle::resize`] with the reservation step given (tests inject refusals).
    fn resize_with<E>(
        &self,
        bytes: usize,
        reserve: impl Fn(usize) -> Result<Reservation<S>, E>,
    ) -> Resize {
        let mut inner = self.inner.lock();
        if bytes == inner.wanted {
            return Resize::Unchanged;
        }
        inner.wanted = bytes;
        inner.request += 1;
        // A reservation still queued for an older size is dropped unfilled.
        inner.filler.lock().next = None;
        let Some(reservation) = reserve_with_fallback(bytes, reserve) else {
            inner.pending = false;
            return Resize::Failed {
                wanted: bytes,
                kept: inner.current.bytes(),
            };
        };
        let got = reservation.bytes();
        let requested = TranspositionTable::<S>::buckets_for(bytes) * 2 * S::BYTES;
        if bytes <= SMALL_BYTES {
            let table = Arc::new(reservation.fill());
            let old = std::mem::replace(&mut inner.current, table);
            inner.pending = false;
            inner.retire(old);
        } else {
            inner.pending = true;
            inner.pending_bytes = got;
            let id = inner.request;
            inner.fill(id, reservation);
        }
        if got < requested {
            Resize::Reduced {
                wanted: bytes,
                bytes: got,
            }
        } else {
            Resize::Started { bytes: got }
        }
    }

    /// Empties the table for a new game in constant time (no memory is touched or freed).
    pub fn new_game(&self) {
        let mut inner = self.inner.lock();
        inner.install_ready();
        inner.current.clear();
    }

    /// Waits for every helper thread (fills and disposals) and installs a finished table.
    /// For tests and orderly shutdown; never needed on a move's clock.
    pub fn wait_idle(&self) {
        loop {
            let helpers = std::mem::take(&mut self.inner.lock().helpers);
            if helpers.is_empty() {
                break;
            }
            for h in helpers {
                h.join().expect("table helper thread panicked");
            }
        }
        self.inner.lock().install_ready();
    }
}

/// Reserves `bytes`, else half of it, and so on down to [`SMALL_BYTES`]; `None` when even that
/// is refused.
fn reserve_with_fallback<S: Slot, E>(
    bytes: usize,
    reserve: impl Fn(usize) -> Result<Reservation<S>, E>,
) -> Option<Reservation<S>> {
    let mut size = bytes;
    loop {
        if let Ok(r) = reserve(size) {
            return Some(r);
        }
        if size <= SMALL_BYTES {
            return None;
        }
        size = (size / 2).max(SMALL_BYTES);
    }
}

impl<S: Slot + 'static> Inner<S> {
    /// Runs `work` on a helper thread, or here when no thread can be started.
    fn spawn(&mut self, work: impl FnOnce() + Send + 'static) {
        self.helpers.retain(|h| !h.is_finished());
        let work = Arc::new(Mutex::new(Some(work)));
        let for_thread = Arc::clone(&work);
        let spawned = std::thread::Builder::new()
            .name("tt-helper".into())
            .spawn(move || {
                if let Some(w) = for_thread.lock().take() {
                    w()
                }
            });
        match spawned {
            Ok(h) => self.helpers.push(h),
            Err(_) => {
                let w = work.lock().take();
                if let Some(w) = w {
                    w()
                }
            }
        }
    }

    /// Queues `reservation` (request `id`) for the filler, starting one if none runs.
    fn fill(&mut self, id: u64, reservation: Reservation<S>) {
        let start = {
            let mut q = self.filler.lock();
            q.next = Some((id, reservation));
            !std::mem::replace(&mut q.running, true)
        };
        if start {
            let queue = Arc::clone(&self.filler);
            let retiring = Arc::clone(&self.retiring);
            let tx = self.ready_tx.clone();
            self.spawn(move || fill_loop(&queue, &retiring, &tx));
        }
    }

    fn install_ready(&mut self) {
        loop {
            match self.ready_rx.try_recv() {
                Ok(delivered) => self.receive(delivered),
                Err(TryRecvError::Empty) | Err(TryRecvError::Disconnected) => return,
            }
        }
    }

    /// Installs a delivered table if it answers the latest request, else drops it off-thread.
    fn receive(&mut self, (id, table): (u64, TranspositionTable<S>)) {
        let table = Arc::new(table);
        if id == self.request && self.pending {
            self.pending = false;
            let old = std::mem::replace(&mut self.current, table);
            self.retire(old);
        } else {
            self.retire(table);
        }
    }

    /// Drops `old` on a helper thread once no search holds it, so that the (slow) final drop
    /// never lands on a searching thread.
    fn retire(&mut self, old: Arc<TranspositionTable<S>>) {
        /// Counts the retirement done however the helper ends.
        struct Done(Arc<AtomicUsize>);
        impl Drop for Done {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        self.retiring.fetch_add(1, Ordering::SeqCst);
        let done = Done(Arc::clone(&self.retiring));
        self.spawn(move || {
            let _done = done;
            let mut old = old;
            loop {
                match Arc::try_unwrap(old) {
                    Ok(table) => return drop(table),
                    Err(shared) => {
                        old = shared;
                        std::thread::sleep(Duration::from_millis(5));
                    }
                }
            }
        });
    }
}

/// The filler thread: fills the queued reservation, and delivers it unless a newer one was
/// queued meanwhile (then it drops it here and fills the newer one); ends when the queue is
/// empty.
fn fill_loop<S: Slot>(
    queue: &Mutex<FillQueue<S>>,
    retiring: &AtomicUsize,
    ready: &Sender<(u64, TranspositionTable<S>)>,
) {
    loop {
        let (id, reservation) = {
            let mut q = queue.lock();
            match q.next.take() {
                Some(next) => next,
                None => {
                    q.running = false;
                    return;
                }
            }
        };
        // A newer request abandons this fill at once: a table the manager no longer wants
        // never becomes resident in full (a limit sent just after start-up stays a limit).
        // Older tables first leave memory (a search may still hold one until its move ends).
        while retiring.load(Ordering::SeqCst) > 0 && queue.lock().next.is_none() {
            std::thread::sleep(Duration::from_millis(2));
        }
        let Some(table) = reservation.fill_unless(|| queue.lock().next.is_some()) else {
            continue;
        };
        if queue.lock().next.is_some() {
            drop(table);
            continue;
        }
        // If the handle is gone, `send` fails and the table drops here.
        let _ = ready.send((id, table));
    }
}

impl<S: Slot + 'static> Drop for TableHandle<S> {
    fn drop(&mut self) {
        // Detached: at process exit nobody waits for the memory to be returned.
        let inner = self.inner.get_mut();
        inner.filler.lock().next = None;
        let current = Arc::clone(&inner.current);
        inner.retire(current);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::search::tt::{Bound, PackedSlot};

    type Table = TranspositionTable<PackedSlot>;

    #[test]
    fn small_table_is_ready_at_once() {
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        assert_eq!(sh.table().bucket_count(), Table::buckets_for(64 << 10));
        sh.wait_idle();
        assert_eq!(sh.table().bucket_count(), Table::buckets_for(64 << 10));
    }

    #[test]
    fn large_table_grows_in_the_background_and_keeps_nothing_stale() {
        let sh = TableHandle::<PackedSlot>::with_bytes(8 << 20);
        let first = sh.table();
        assert!(
            first.bucket_count() == Table::buckets_for(SMALL_BYTES)
                || first.bucket_count() == Table::buckets_for(8 << 20)
        );
        sh.wait_idle();
        let big = sh.table();
        assert_eq!(big.bucket_count(), Table::buckets_for(8 << 20));
        assert!(Arc::ptr_eq(&big, &sh.table()), "kept across moves");
        assert_eq!(sh.wanted_bytes(), 8 << 20);
    }

    #[test]
    fn same_size_keeps_the_table_and_new_game_empties_it() {
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        let t = sh.table();
        t.store(77, 4, Bound::Exact, 1, None);
        assert_eq!(sh.resize(64 << 10), Resize::Unchanged);
        assert!(Arc::ptr_eq(&t, &sh.table()));
        assert_eq!(sh.table().probe(77).unwrap().depth, 4, "contents kept");
        sh.new_game();
        assert!(Arc::ptr_eq(&t, &sh.table()), "allocation kept");
        assert_eq!(sh.table().probe(77), None, "emptied for the new game");
    }

    #[test]
    fn replaced_table_is_dropped_by_a_helper_after_the_search_lets_go() {
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        let searching = sh.table();
        let weak = Arc::downgrade(&searching);
        assert_ne!(sh.resize(128 << 10), Resize::Unchanged);
        assert_eq!(sh.table().bucket_count(), Table::buckets_for(128 << 10));
        // The old table stays alive while a search holds it...
        std::thread::sleep(Duration::from_millis(20));
        assert!(weak.upgrade().is_some());
        // ...and the helper frees it once the search is done.
        drop(searching);
        sh.wait_idle();
        assert!(weak.upgrade().is_none());
    }

    #[test]
    fn resizing_again_abandons_the_allocation_in_flight() {
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        assert_ne!(sh.resize(4 << 20), Resize::Unchanged);
        assert_ne!(sh.resize(2 << 20), Resize::Unchanged);
        sh.wait_idle();
        assert_eq!(sh.table().bucket_count(), Table::buckets_for(2 << 20));
        assert_ne!(sh.resize(64 << 10), Resize::Unchanged);
        assert_eq!(sh.table().bucket_count(), Table::buckets_for(64 << 10));
    }

    #[test]
    fn a_refused_reservation_falls_back_to_half_and_says_so() {
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        // The "system" refuses anything above 4 MiB.
        let refuse_above = |limit: usize| {
            move |bytes: usize| {
                if bytes > limit {
                    Err(())
                } else {
                    TranspositionTable::<PackedSlot>::try_reserve(bytes).map_err(|_| ())
                }
            }
        };
        let r = sh.resize_with(32 << 20, refuse_above(4 << 20));
        assert_eq!(
            r,
            Resize::Reduced {
                wanted: 32 << 20,
                bytes: 4 << 20
            }
        );
        assert!(r.note().unwrap().contains("using 4096 KiB"), "{r:?}");
        sh.wait_idle();
        assert_eq!(sh.table().bytes(), 4 << 20);
        // Nothing at all: the current table stays, and that is said too.
        let r = sh.resize_with(8 << 20, |_| Err::<Reservation<PackedSlot>, ()>(()));
        assert_eq!(
            r,
            Resize::Failed {
                wanted: 8 << 20,
                kept: 4 << 20
            }
        );
        assert!(r.note().unwrap().contains("keeping 4096 KiB"));
        sh.wait_idle();
        assert_eq!(sh.table().bytes(), 4 << 20);
        assert!(!sh.pending());
    }

    #[test]
    fn an_absurd_size_is_refused_by_the_system_not_fatal() {
        // More than the address space: the reservation fails cleanly at every size down to
        // where the system accepts; here the size itself overflows, so it falls back.
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        assert!(TranspositionTable::<PackedSlot>::try_reserve(usize::MAX).is_err());
        let refuse_big = |bytes: usize| {
            if bytes > 2 << 20 {
                TranspositionTable::<PackedSlot>::try_reserve(usize::MAX)
            } else {
                TranspositionTable::<PackedSlot>::try_reserve(bytes)
            }
        };
        let r = sh.resize_with(usize::MAX, refuse_big);
        assert!(
            matches!(r, Resize::Reduced { bytes, .. } if bytes <= 2 << 20),
            "{r:?}"
        );
        sh.wait_idle();
        assert!(sh.table().bytes() <= 2 << 20);
    }

    #[test]
    fn an_abandoned_fill_stops_early() {
        let asked = std::cell::Cell::new(0);
        let r = Table::try_reserve(8 << 20).unwrap();
        let abandoned = r.fill_unless(|| {
            asked.set(asked.get() + 1);
            asked.get() > 2
        });
        assert!(abandoned.is_none());
        // Two chunks filled, then the third check gave up (of eight or nine chunks).
        assert_eq!(asked.get(), 3);
        let full = Table::try_reserve(8 << 20)
            .unwrap()
            .fill_unless(|| false)
            .unwrap();
        assert_eq!(full.bucket_count(), Table::buckets_for(8 << 20));
    }

    #[test]
    fn quick_resizes_deliver_only_the_last_size() {
        let sh = TableHandle::<PackedSlot>::with_bytes(64 << 10);
        for mib in [4, 8, 2, 16, 3] {
            assert!(matches!(sh.resize(mib << 20), Resize::Started { .. }));
        }
        // Waiting installs the table of the last request, never an older one.
        let t = sh.table_within(Duration::from_secs(30));
        assert_eq!(t.bucket_count(), Table::buckets_for(3 << 20));
        assert!(!sh.pending());
        sh.wait_idle();
        assert_eq!(
            sh.current_bytes(),
            Table::buckets_for(3 << 20) * 2 * PackedSlot::BYTES
        );
        assert_eq!(sh.wanted_bytes(), 3 << 20);
    }
}
