//! What a move may spend: the tournament clock as the manager states it, and the hard limits
//! (depth, nodes) a user may add. The protocol layer fills these in; the search turns them into
//! one absolute deadline per move (see `crate::timeman`).
//!
//! The clock of a move starts when the command asking for it arrived (`started`), not when the
//! engine got round to it: everything the move does (book, proof search, main search, output)
//! shares that one start.

use std::time::Instant;

/// The match clock as the manager announced it through `INFO`. Milliseconds; `None` = not sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// `timeout_turn`: the most one move may take; 0 = answer as fast as possible.
    pub turn_ms: Option<u64>,
    /// `timeout_match`: the whole match; 0 = unlimited.
    pub match_ms: Option<u64>,
    /// `time_left`: what remains of the match clock; may be negative; 2147483647 = unlimited.
    pub left_ms: Option<i64>,
}

/// The limits of one move.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// When the command asking for this move arrived.
    pub started: Instant,
    /// The tournament clock.
    pub time: TimeControl,
    /// `INFO max_depth`: stop iterating after this depth.
    pub max_depth: Option<u32>,
    /// `INFO max_node`: stop after about this many nodes.
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// Limits for a move asked for now under `time`, with no depth or node cap.
    pub fn new(time: TimeControl) -> Limits {
        Limits {
            started: Instant::now(),
            time,
            max_depth: None,
            max_nodes: None,
        }
    }

    /// A fixed-depth search with no clock (analysis, tests, bench).
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: Some(depth),
            ..Limits::new(TimeControl::default())
        }
    }

    /// A fixed-node search with no clock.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::new(TimeControl::default())
        }
    }

    /// A clock of `ms` per move and nothing else.
    pub fn per_move(ms: u64) -> Limits {
        Limits::new(TimeControl {
            turn_ms: Some(ms),
            ..TimeControl::default()
        })
    }
}
