//! The synchronisation primitives of the transposition table, switched to `loom` under
//! `cfg(loom)` so that the loom tests explore every interleaving of the table's protocol.
//!
//! Invariant: every atomic and `Arc` the table's slots and counters use comes from here, never
//! from `std::sync` directly; anything imported elsewhere is invisible to loom and would make a
//! model silently incomplete. Only the table switches: the rest of the crate keeps `std`, so a
//! `cfg(loom)` build still compiles everything, and only the table may be used inside a model.
//! `SharedTable` (allocation and disposal on helper threads) is deliberately outside the model
//! and uses `std` threads.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicPtr, AtomicU64, AtomicU8, Ordering};

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

#[cfg(not(loom))]
pub(crate) use std::sync::Arc;

/// Tells the scheduler a writer found a slot busy: a spin hint on hardware, and under loom a
/// yield so that the model runs the thread holding the slot instead of exploring a spin.
#[inline]
pub(crate) fn busy_wait() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(not(loom))]
    std::hint::spin_loop();
}
