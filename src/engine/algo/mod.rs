//! Move-choosing algorithms behind one trait, and the registry that picks one by name
//! (`BANGO_ALGO`). The protocol session only ever talks to [`Algorithm`].
//!
//! An algorithm receives a snapshot of the position with the engine's colour to move
//! ([`Request`]) and must answer with a legal move: on the board, empty, and not a renju
//! forbidden point when it plays black. It must return promptly once `stop` is raised or its
//! limits run out.

use crate::engine::config::Config;
use crate::game::board::{Board, Pos};
use crate::game::rules::Rule;
use crate::search::alphabeta::Report;
use crate::search::timeman::Limits;
use std::sync::atomic::AtomicBool;

pub mod alphabeta;
#[cfg(any(test, feature = "experiments"))]
pub mod idle;
pub mod proofs;
pub mod random;

/// Everything one move decision needs.
pub struct Request<'a> {
    /// The position; the engine's colour is the side to move.
    pub board: &'a Board,
    /// The rule in force.
    pub rule: Rule,
    /// Time, depth and node limits for this move.
    pub limits: Limits,
    /// The configuration in force (settings a manager sent included).
    pub config: &'a Config,
    /// Raised (by the protocol reader) when the move must be answered now.
    pub stop: &'a AtomicBool,
    /// Receives human-readable notes (book, proofs; printed as `MESSAGE`); may be called from
    /// any search thread.
    pub output: &'a (dyn Fn(&str) + Sync),
    /// Receives the search's reports (iterations, principal variations, root events, the end);
    /// may be called from any search thread. What to print of them is the caller's choice.
    pub report: &'a (dyn Fn(Report<'_>) + Sync),
    /// What an analyst asked of this search beyond a move (the default: just play).
    pub analysis: &'a Analysis,
}

/// What an analyst asks of a search beyond the move to play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Principal variations to compute (multi-PV); 0 and 1 mean one, [`Analysis::ALL`] every
    /// candidate move.
    pub lines: usize,
    /// Every candidate move at the root, without the pruning that keeps only the defences
    /// against an open three (defence analysis).
    pub every_move: bool,
    /// Moves the analyst excluded from the root.
    pub blocked: Vec<Pos>,
}

impl Analysis {
    /// As many principal variations as there are candidate moves.
    pub const ALL: usize = usize::MAX;

    /// Whether this is plain play: one line, the usual root, nothing blocked. Only plain play
    /// may answer from the book or from a root proof without searching.
    pub fn is_plain(&self) -> bool {
        self.lines <= 1 && !self.every_move && self.blocked.is_empty()
    }
}

/// The position that a balance search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balance {
    /// Stones to place: 1 (a move) or 2 (a move and the reply).
    pub stones: usize,
    /// The score wanted after them, from the side to move's view (0: even).
    pub bias: i32,
}

/// A move-choosing algorithm.
pub trait Algorithm: Send {
    /// The registry name (`ABOUT` reports it as `ai`).
    fn name(&self) -> &'static str;

    /// Chooses a legal move for the side to move. Called only when an empty point exists.
    fn think(&mut self, req: &Request<'_>) -> Pos;

    /// A new game on a board of side `size` begins: drop per-game state. Expensive structures
    /// (tables) should be kept and reused when the size and settings allow.
    fn new_game(&mut self, size: usize, config: &Config);

    /// Searches `req.board` with the opponent of the last move to move until `req.stop` is
    /// raised, printing nothing, so that the next search finds the table filled (pondering).
    /// The default does nothing.
    fn ponder(&mut self, req: &Request<'_>) {
        let _ = req;
    }

    /// The stones ([`Balance::stones`] of them, alternating colours from the side to move)
    /// that leave the position closest to [`Balance::bias`], or `None` when the algorithm
    /// cannot judge positions (the session then answers `ERROR`).
    fn balance(&mut self, req: &Request<'_>, want: Balance) -> Option<Vec<Pos>> {
        let _ = (req, want);
        None
    }

    /// The resource settings of `config` (threads, table size, memory limit) were set or
    /// changed (an `INFO` between moves, a new game): take them now, before the next move, all
    /// together. Returns one line per request that had to be clamped or could not be met (the
    /// session prints them as `MESSAGE`s). The default holds no resources and says nothing.
    fn configure(&mut self, config: &Config) -> Vec<String> {
        let _ = config;
        Vec::new()
    }

    /// Positions whose value is settled beforehand (an analyst's database; `None`: none). The
    /// search reads them like table entries, and plain play answers a stored proven result
    /// without search. The default ignores them.
    fn set_known(&mut self, known: Option<std::sync::Arc<crate::search::known::KnownPositions>>) {
        let _ = known;
    }

    /// The transposition table the next search will use, for the analyst's table commands
    /// (dump, load, usage), or `None` (the default) when the algorithm keeps none. Waits for a
    /// table still being filled: between moves only.
    fn table(&mut self) -> Option<std::sync::Arc<crate::search::tt::TranspositionTable>> {
        None
    }

    /// Lines describing the resources the algorithm holds now (threads, table), for `PRINT`.
    fn resources(&self) -> Vec<String> {
        Vec::new()
    }

    /// The Swap2 decision for `req.board` (0, 3 or 5 stones placed black first; see
    /// [`crate::knowledge::book::swap2`]). `None` (the default) leaves the answer to the session's simple
    /// fallback.
    fn swap2(&mut self, req: &Request<'_>) -> Option<crate::knowledge::book::swap2::Swap2Reply> {
        let _ = req;
        None
    }

    /// The Swap1 decision for `req.board` (three stones placed black first): `Swap` to take
    /// black, or one white stone. `None` (the default) leaves it to the session's fallback
    /// (take white and play).
    fn swap1(&mut self, req: &Request<'_>) -> Option<crate::knowledge::book::swap2::Swap2Reply> {
        let _ = req;
        None
    }

    /// The Soosõrv-N decision `step` for `req.board` (the stones so far, black first; see
    /// [`crate::knowledge::book::soosorv`]). `None` (the default, or a board that does not fit the
    /// step) leaves the session to refuse the step with `ERROR`.
    fn soosorv(
        &mut self,
        req: &Request<'_>,
        step: &crate::knowledge::book::soosorv::SoosorvStep,
    ) -> Option<crate::knowledge::book::soosorv::SoosorvReply> {
        let _ = (req, step);
        None
    }
}

/// The algorithm names the registry knows, default first.
pub fn names() -> &'static [&'static str] {
    #[cfg(any(test, feature = "experiments"))]
    return &["alphabeta", "random", "idle"];
    #[cfg(not(any(test, feature = "experiments")))]
    &["alphabeta", "random"]
}

/// The default algorithm's name.
pub fn default_name() -> &'static str {
    names()[0]
}

/// Builds the algorithm called `name` with `config`, or `None` if there is no such algorithm.
pub fn by_name(name: &str, config: &Config) -> Option<Box<dyn Algorithm>> {
    let seed = config.brain.seed;
    match name.trim().to_ascii_lowercase().as_str() {
        "alphabeta" => Some(Box::new(alphabeta::AlphaBeta::new(config))),
        "random" => Some(Box::new(random::Random::new(seed))),
        // A diagnostic for the protocol's stop path (see `idle`), never for games.
        #[cfg(any(test, feature = "experiments"))]
        "idle" => Some(Box::new(idle::Idle::new(seed))),
        _ => None,
    }
}

/// The algorithm `config` names. An unknown name falls back to the default with a warning to
/// `warn`: the brain must always be able to play.
pub fn build(config: &Config, warn: &mut dyn FnMut(String)) -> Box<dyn Algorithm> {
    let name = config.brain.algo.trim();
    if !name.is_empty() {
        if let Some(a) = by_name(name, config) {
            return a;
        }
        warn(format!(
            "unknown algorithm {name:?}; known: {}; using {}",
            names().join(", "),
            default_name()
        ));
    }
    by_name(default_name(), config).expect("the default algorithm exists")
}
