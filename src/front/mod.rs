//! Layer 7, the front ends: the Gomocup session over every transport, the browser board, and
//! the tools (matches, the bench signature, the teacher yardstick, training, SPSA tuning of
//! the search's tunables by matches, the yardstick of decisive positions of lost games).
//!
//! Invariant: bad input never crashes a front end or half-applies a command: one `ERROR` line
//! and the session goes on; one session implementation serves every transport.

pub mod arena;
pub mod bench;
pub mod farm;
#[cfg(not(loom))]
pub mod gui;
pub mod protocol;
pub mod teacher;
pub mod train;
pub mod tune;
pub mod yardstick;
