//! The session's slot for the position database: the open file, if any, and the mode later
//! opens use. A module of its own so that the session holds it without depending on the
//! database commands (`database`), which act on the session.

/// The open database and how files are opened (read-only after `INFO database_readonly 1`).
#[cfg(not(loom))]
#[derive(Debug, Default)]
pub struct DbState {
    /// The open database, if any.
    pub db: Option<crate::knowledge::database::Database>,
    /// Whether databases are opened read-only.
    pub read_only: bool,
}

/// The loom build has no database: nothing to hold.
#[cfg(loom)]
#[derive(Debug, Default)]
pub struct DbState;
