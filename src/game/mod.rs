//! Layer 1, the game: stones, keys and rules, with no idea of value or search.
//!
//! Invariant: everything here is exact and rule-driven; nothing reads a clock, a weight or a
//! setting. Every layer above asks these modules what wins, what is forbidden and what a line
//! makes.

pub mod board;
pub mod notation;
pub mod pattern;
pub mod rng;
pub mod rules;
