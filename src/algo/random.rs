//! The weighted-random baseline (placeholder; the protocol issue builds the real one).

use super::{Algorithm, Request, Settings};
use crate::board::Pos;

/// Weighted-random baseline player.
pub struct Random {
    seed: u64,
}

impl Random {
    /// A player whose choices are drawn from `seed`.
    pub fn new(seed: u64) -> Random {
        Random { seed }
    }
}

impl Algorithm for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn think(&mut self, req: &Request<'_>) -> Pos {
        let _ = self.seed;
        req.board.empty_cells().next().expect("an empty point")
    }

    fn new_game(&mut self, _size: usize, _settings: &Settings) {}
}
