//! Layer 6, the engine: the move-choosing algorithms, the one configuration they are built from
//! and the threads and table those settings come to on this machine.
//!
//! Invariant: every request is answered with a legal move within the plan's hard deadline.

pub mod algo;
pub mod config;
pub mod resources;
