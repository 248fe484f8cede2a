//! `idle`: a diagnostic algorithm that thinks until told to stop. It does no work: it polls the
//! stop flag every millisecond until the flag is raised or the move's deadline passes, then
//! answers like [`Random`]. It exists to test the protocol's stop path (`YXSTOP`, `INFO
//! timeout_turn 0`) with a brain that would otherwise never answer; do not play games with it.
//!
//! The deadline is the earlier of `timeout_turn` and `time_left` from when the move was asked
//! for; with neither given it waits for the stop flag alone.

use super::random::Random;
use super::{Algorithm, Request};
use crate::engine::config::Config;
use crate::game::board::Pos;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Waits for `stop` or the deadline, then plays a [`Random`] move.
pub struct Idle {
    random: Random,
}

impl Idle {
    /// An idle player whose final answer is drawn from `seed`.
    pub fn new(seed: u64) -> Idle {
        Idle {
            random: Random::new(seed),
        }
    }
}

impl Algorithm for Idle {
    fn name(&self) -> &'static str {
        "idle"
    }

    fn think(&mut self, req: &Request<'_>) -> Pos {
        let t = req.limits.time;
        let budget = [t.turn_ms, t.left_ms.map(|l| l.max(0) as u64)]
            .into_iter()
            .flatten()
            .min();
        let deadline = budget.map(|ms| req.limits.started + Duration::from_millis(ms));
        (req.output)("idle: waiting for stop");
        while !req.stop.load(Ordering::Relaxed)
            && deadline.is_none_or(|d| std::time::Instant::now() < d)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.random.choose(req.board, req.rule)
    }

    fn new_game(&mut self, size: usize, config: &Config) {
        self.random.new_game(size, config);
    }
}
