//! Layer 2, the evaluation: what a position and each empty cell are worth, kept incrementally,
//! and the threat-ranked moves built on those values.
//!
//! Invariant: a [`position::Position`] is equal to the one rebuilt from its board after any
//! make/unmake sequence; nothing here searches.

pub mod eval;
pub mod movegen;
pub mod position;
pub mod weights;
