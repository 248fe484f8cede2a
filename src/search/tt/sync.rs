//! The synchronisation primitives of the transposition table, switched to `loom` under
//! `cfg(loom)` so that the loom tests explore every interleaving of the table's protocol.
//!
//! Invariant: every atomic and `Arc` the table's slots and counters use comes from here, never
//! from `std::sync` directly; anything imported elsewhere is invisible to loom and would make a
//! model silently incomplete. Only the table switches: the rest of the crate keeps `std`, so a
//! `cfg(loom)` build still compiles everything, and only the table may be used inside a model.
//! `TableHandle` (allocation and disposal on helper threads) is deliberately outside the model
//! and uses `std` threads.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicPtr, AtomicU64, AtomicU8, Ordering};

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// The `Arc` of the arc-swap slot. arc-swap works on std's `Arc` only and loom cannot see inside
/// it, so this one never switches: under loom the table's default slot is the loom model
/// instead, and the arc-swap slot is only compiled (benchmarks name it).
pub(crate) use std::sync::Arc as ArcSwapArc;

/// Tells the scheduler a writer found a slot busy: a spin hint on hardware, and under loom a
/// yield so that the model runs the thread holding the slot instead of exploring a spin.
#[inline]
pub(crate) fn busy_wait() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(not(loom))]
    std::hint::spin_loop();
}
