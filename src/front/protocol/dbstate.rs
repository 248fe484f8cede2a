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
}
