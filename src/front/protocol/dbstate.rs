//! The session's slot for the position database: the open file, if any, and the mode later
//! opens use. A module of its own so that the session holds it without depending on the
//! database commands (`database`), which act on the session.

/// The open database and how files are opened (read-only after `INFO database_readonly 1`).
#[derive(Debug, Default)]
pub struct DbState {
    /// The open database, if any (shared: the search may hold it too).
    pub db: Option<std::sync::Arc<crate::knowledge::database::Database>>,
    /// Whether databases are opened read-only.
    pub read_only: bool,
    /// The open database's records as the search reads them (the algorithm holds a clone).
    pub known: Option<std::sync::Arc<crate::search::known::KnownPositions>>,
    /// A root search's result waiting to be written back once its reply is out: the position
    /// searched, its value and the move played.
    pub pending: Option<PendingResult>,
}

/// A root result to write back (see [`DbState::pending`]).
#[derive(Debug)]
pub struct PendingResult {
    /// The position searched (our side to move).
    pub position: crate::knowledge::database::Position,
    /// Its value from our view.
    pub value: crate::knowledge::database::Value,
    /// The move played.
    pub best: crate::game::board::Pos,
}
