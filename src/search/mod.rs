//! Layer 4, the search: time plans, declared parameters, the shared transposition table, the
//! busy-move marks, the alpha-beta worker and lazy SMP over N of them.
//!
//! Invariants: deterministic with one worker and a depth or node cap (the bench signature pins
//! it); no clock is read but the [`timeman::Plan`] given; nothing here knows the protocol. The
//! table never returns a torn entry (loom models and stress tests).

pub mod alphabeta;
pub mod busy;
pub mod known;
pub mod settings;
pub mod smp;
pub mod timeman;
pub mod tt;
