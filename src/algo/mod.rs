//! Move-choosing algorithms behind one trait, and the registry that picks one by name
//! (`BANGO_ALGO`). The protocol session only ever talks to [`Algorithm`].
//!
//! An algorithm receives a snapshot of the position with the engine's colour to move
//! ([`Request`]) and must answer with a legal move: on the board, empty, and not a renju
//! forbidden point when it plays black. It must return promptly once `stop` is raised or its
//! limits run out.

use crate::board::{Board, Pos};
use crate::limits::Limits;
use crate::rules::Rule;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

pub mod alphabeta;
pub mod idle;
pub mod proofs;
pub mod random;

/// Engine settings that outlive a single move (from `INFO` and the environment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Search workers (`BANGO_SMP`, `INFO thread_num`); 1 = deterministic single worker.
    pub threads: usize,
    /// `INFO hash_size` in KiB, when given.
    pub hash_kib: Option<u64>,
    /// `INFO max_memory` in bytes; 0 = no limit.
    pub max_memory: u64,
    /// `INFO show_detail`: whether to print search progress as `MESSAGE` lines.
    pub show_detail: bool,
    /// `INFO folder`: a directory for persistent files.
    pub folder: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            hash_kib: None,
            max_memory: 0,
            show_detail: true,
            folder: None,
        }
    }
}

/// Everything one move decision needs.
pub struct Request<'a> {
    /// The position; the engine's colour is the side to move.
    pub board: &'a Board,
    /// The rule in force.
    pub rule: Rule,
    /// Time, depth and node limits for this move.
    pub limits: Limits,
    /// Long-lived settings.
    pub settings: &'a Settings,
    /// Raised (by the protocol reader) when the move must be answered now.
    pub stop: &'a AtomicBool,
    /// Receives human-readable progress lines (printed as `MESSAGE`); may be called from any
    /// search thread.
    pub output: &'a (dyn Fn(&str) + Sync),
}

/// A move-choosing algorithm.
pub trait Algorithm: Send {
    /// The registry name (`ABOUT` reports it as `ai`).
    fn name(&self) -> &'static str;

    /// Chooses a legal move for the side to move. Called only when an empty point exists.
    fn think(&mut self, req: &Request<'_>) -> Pos;

    /// A new game on a board of side `size` begins: drop per-game state. Expensive structures
    /// (tables) should be kept and reused when the size and settings allow.
    fn new_game(&mut self, size: usize, settings: &Settings);

    /// The Swap2 decision for `req.board` (0, 3 or 5 stones placed black first; see
    /// [`crate::book::swap2`]). `None` (the default) leaves the answer to the session's simple
    /// fallback.
    fn swap2(&mut self, req: &Request<'_>) -> Option<crate::book::swap2::Swap2Reply> {
        let _ = req;
        None
    }

    /// The Swap1 decision for `req.board` (three stones placed black first): `Swap` to take
    /// black, or one white stone. `None` (the default) leaves it to the session's fallback
    /// (take white and play).
    fn swap1(&mut self, req: &Request<'_>) -> Option<crate::book::swap2::Swap2Reply> {
        let _ = req;
        None
    }
}

/// The algorithm names the registry knows, default first.
pub fn names() -> &'static [&'static str] {
    &["alphabeta", "random", "idle"]
}

/// The default algorithm's name.
pub fn default_name() -> &'static str {
    names()[0]
}

/// Builds the algorithm called `name`, or `None` if there is no such algorithm.
pub fn by_name(name: &str) -> Option<Box<dyn Algorithm>> {
    match name.trim().to_ascii_lowercase().as_str() {
        "alphabeta" => Some(Box::new(alphabeta::AlphaBeta::default())),
        "random" => Some(Box::new(random::Random::new(seed_from_env()))),
        "idle" => Some(Box::new(idle::Idle::new(seed_from_env()))),
        _ => None,
    }
}

/// The seed of randomised algorithms: `BANGO_SEED` (a decimal u64) when set, else a fixed one,
/// so that runs are reproducible either way.
pub fn seed_from_env() -> u64 {
    std::env::var("BANGO_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0x0062_616e_676f)
}

/// The algorithm chosen by `BANGO_ALGO` (the default when unset). An unknown name falls back to
/// the default with a warning on stderr: the brain must always be able to play.
pub fn from_env() -> Box<dyn Algorithm> {
    match std::env::var("BANGO_ALGO") {
        Ok(name) if !name.trim().is_empty() => by_name(&name).unwrap_or_else(|| {
            eprintln!(
                "warning: unknown BANGO_ALGO {name:?}; known: {}; using {}",
                names().join(", "),
                default_name()
            );
            by_name(default_name()).expect("default algorithm exists")
        }),
        _ => by_name(default_name()).expect("default algorithm exists"),
    }
}
