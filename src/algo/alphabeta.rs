//! `alphabeta`: the single-worker alpha-beta engine behind the [`Algorithm`] trait (the
//! registry default).
//!
//! It owns the transposition table and the search worker for the whole game: the table is kept
//! between moves (Zobrist keys are fixed, so last move's deep entries still match) and cleared
//! at a new game, together with the worker's history, so a game replayed from its start is
//! searched identically.

use super::{Algorithm, Request, Settings};
use crate::board::Board;
use crate::board::Pos;
use crate::book::play::Opening;
use crate::book::swap2::{self, Swap2Reply};
use crate::search::{Caps, Params, Shared, Worker};
use crate::timeman;
use crate::timeman::Plan;
use crate::tt::TranspositionTable;

/// Table size when the manager states none.
pub const DEFAULT_HASH_BYTES: usize = 32 << 20;

/// The alpha-beta algorithm.
pub struct AlphaBeta {
    tt: TranspositionTable,
    tt_bytes: usize,
    worker: Worker,
    opening: Opening,
}

impl Default for AlphaBeta {
    fn default() -> AlphaBeta {
        AlphaBeta::new(Params::default())
    }
}

impl AlphaBeta {
    /// An engine with the given feature switches and the default table size.
    pub fn new(params: Params) -> AlphaBeta {
        AlphaBeta::with_table(params, DEFAULT_HASH_BYTES)
    }

    /// An engine with the given switches and a table of about `bytes` (until a new game with
    /// other settings resizes it).
    pub fn with_table(params: Params, bytes: usize) -> AlphaBeta {
        AlphaBeta {
            tt: TranspositionTable::new(bytes),
            tt_bytes: bytes,
            worker: Worker::new(0, params),
            opening: Opening::from_env(),
        }
    }

    fn table_bytes(settings: &Settings) -> usize {
        let mut bytes = settings
            .hash_kib
            .map(|k| (k as usize).saturating_mul(1024))
            .unwrap_or(DEFAULT_HASH_BYTES);
        if settings.max_memory > 0 {
            bytes = bytes.min(settings.max_memory as usize / 2);
        }
        bytes.max(1 << 16)
    }
}

impl Algorithm for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn think(&mut self, req: &Request<'_>) -> Pos {
        let report = |line: &str| (req.output)(line);
        let folder = req.settings.folder.as_deref();
        let advice = self.opening.advise(req.board, req.rule, folder, &report);
        if let Some(p) = advice.play {
            (req.output)(&format!("book {p}"));
            return p;
        }
        self.worker.root_hints = advice.hints;
        let plan = timeman::plan(&req.limits);
        let shared = Shared {
            tt: &self.tt,
            stop: req.stop,
            plan,
        };
        self.tt.new_search();
        let caps = Caps {
            max_depth: req.limits.max_depth.unwrap_or(Caps::default().max_depth),
            max_nodes: req.limits.max_nodes.unwrap_or(u64::MAX),
        };
        let show = req.settings.show_detail;
        let output = |line: &str| {
            if show {
                (req.output)(line)
            }
        };
        self.worker
            .search(&shared, req.board, req.rule, caps, &output)
            .best
    }

    fn swap2(&mut self, req: &Request<'_>) -> Option<Swap2Reply> {
        let (tt, worker) = (&self.tt, &mut self.worker);
        let mut search = |b: &Board, plan: Plan, caps: Caps| {
            tt.new_search();
            let shared = Shared {
                tt,
                stop: req.stop,
                plan,
            };
            worker.search(&shared, b, req.rule, caps, &|_: &str| {})
        };
        swap2::decide(req.board, req.rule, &req.limits, &mut search)
    }

    fn new_game(&mut self, _size: usize, settings: &Settings) {
        let bytes = AlphaBeta::table_bytes(settings);
        if bytes != self.tt_bytes {
            self.tt = TranspositionTable::new(bytes);
            self.tt_bytes = bytes;
        } else {
            self.tt.clear();
        }
        self.worker.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo;

    #[test]
    fn registered_as_the_default() {
        assert_eq!(algo::default_name(), "alphabeta");
        assert_eq!(algo::by_name("AlphaBeta").unwrap().name(), "alphabeta");
    }

    #[test]
    fn table_size_follows_settings() {
        let s = Settings {
            hash_kib: Some(1024),
            max_memory: 1 << 20,
            ..Settings::default()
        };
        assert_eq!(AlphaBeta::table_bytes(&s), 1 << 19);
        assert_eq!(
            AlphaBeta::table_bytes(&Settings::default()),
            DEFAULT_HASH_BYTES
        );
    }
}
