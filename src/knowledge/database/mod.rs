//! The position database: what analysts learned about positions, kept across sessions in one
//! SQLite file (through `rusqlite`, SQLite built in).
//!
//! A record belongs to a [`Position`] (stones, side to move, rule, board size) under its
//! canonical key ([`key`]): a mirrored or rotated position finds the same record, and a best
//! move is stored in the canonical frame and handed back in the caller's.
//!
//! # Invariants
//! - Every write is one SQLite transaction, begun `IMMEDIATE` (the write lock is taken first, so
//!   two writers never deadlock on an upgrade): an import is all or nothing, even when the
//!   process is killed in the middle; the journal is a write-ahead log (WAL), synced in full.
//! - A file is only ever written once it is known to be ours: an existing file must carry the
//!   SQLite header and our [`APPLICATION_ID`], checked through a read-only connection before any
//!   writing connection is opened. A Yixin database or any other file gets [`DbError::NotOurs`]
//!   and is left byte for byte as it was. A missing or empty file becomes a new database.
//! - `PRAGMA user_version` is the schema version; [`migrate`] brings an older file up to
//!   [`SCHEMA_VERSION`] in one transaction; a newer file is refused, never downgraded.
//! - Another process holding the write lock makes a write wait up to [`BUSY_TIMEOUT`], then fail
//!   with [`DbError::Locked`] ("database is locked by another process"), writing nothing.
//! - [`Mode::ReadOnly`] opens read-only at the SQLite level: no write can reach the file.
//!
//! # Schema (version 1)
//! `positions(rule TEXT, width, height, stones BLOB, to_move, value_kind, score, depth, best,
//! label TEXT, text TEXT, written_at)`, primary key `(rule, width, height, stones, to_move)`:
//! `stones` is the canonical key ([`key::Position::canonical`]); `value_kind` is NULL (none),
//! 0 a score (`score`, `depth`), 1 win, 2 loss, 3 draw, for the side to move; `best` is the best
//! move's cell index (`y * 32 + x`) in the canonical frame; `written_at` is Unix seconds.
//!
//! # Files
//! - `key`: positions and their canonical keys; `record`: records and their merge;
//! - `store`: row encoding and the queries; `text`: the text export and import format;
//! - `renlib`: reading Renlib `.lib` opening libraries; `known`: the records as the search reads
//!   them.

pub mod key;
pub mod known;
pub mod record;
pub mod renlib;
mod store;
pub mod text;

pub use key::Position;
pub use record::{Record, StoredPosition, Value};

use crate::game::board::Pos;
use crate::game::rules::Rule;
use parking_lot::Mutex;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema version this build writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i32 = 1;
/// Marks a file as a bango position database (`PRAGMA application_id`, "Bang").
pub const APPLICATION_ID: i32 = 0x4261_6e67;
/// How long a write waits for another process's lock before [`DbError::Locked`].
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// How a database is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Reads and writes; a missing file is created.
    ReadWrite,
    /// Reads only; the file must exist.
    ReadOnly,
}

/// Why a database operation failed. Every failed operation wrote nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbError {
    /// The file exists but is not a bango position database; it was not written.
    NotOurs {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        reason: String,
    },
    /// Read-only mode and no such file.
    Missing(PathBuf),
    /// Another process holds the lock.
    Locked,
    /// A write to a database opened read-only.
    ReadOnly,
    /// The file's schema is newer than this build's.
    NewerSchema(i32),
    /// A position, record or file content that cannot be stored.
    Invalid(String),
    /// An I/O error outside SQLite.
    Io(String),
    /// Any other SQLite error.
    Sqlite(String),
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::NotOurs { path, reason } => write!(
                f,
                "{} is not a bango position database ({reason}); the file was not touched",
                path.display()
            ),
            DbError::Missing(p) => write!(f, "no database at {}", p.display()),
            DbError::Locked => write!(f, "database is locked by another process"),
            DbError::ReadOnly => write!(f, "database is open read-only"),
            DbError::NewerSchema(v) => write!(
                f,
                "database schema version {v} is newer than this build's {SCHEMA_VERSION}"
            ),
            DbError::Invalid(why) => write!(f, "{why}"),
            DbError::Io(why) => write!(f, "{why}"),
            DbError::Sqlite(why) => write!(f, "database error: {why}"),
        }
    }
}

impl std::error::Error for DbError {}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        use rusqlite::ErrorCode;
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => DbError::Locked,
            Some(ErrorCode::ReadOnly) => DbError::ReadOnly,
            _ => DbError::Sqlite(e.to_string()),
        }
    }
}

/// An open position database. All methods take `&self` (the connection is behind a mutex), so
/// one database can be shared by the protocol and the search.
pub struct Database {
    conn: Mutex<Connection>,
    path: PathBuf,
    mode: Mode,
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({}, {:?})", self.path.display(), self.mode)
    }
}

/// What an existing file is, judged without writing to it.
fn inspect(path: &Path) -> Result<Option<i32>, DbError> {
    let not_ours = |reason: &str| DbError::NotOurs {
        path: path.to_path_buf(),
        reason: reason.into(),
    };
    let mut header = [0u8; 16];
    let mut file = std::fs::File::open(path)
        .map_err(|e| DbError::Io(format!("cannot open {}: {e}", path.display())))?;
    let n = file
        .read(&mut header)
        .map_err(|e| DbError::Io(format!("cannot read {}: {e}", path.display())))?;
    if n == 0 {
        return Ok(None);
    }
    if n < 16 || &header != b"SQLite format 3\0" {
        return Err(not_ours("not an SQLite file"));
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let app: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    if app != APPLICATION_ID {
        return Err(not_ours(&format!(
            "an SQLite database of another program, application id {app:#x}"
        )));
    }
    let version: i32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(DbError::NewerSchema(version));
    }
    Ok(Some(version))
}

/// Brings the schema from `from` up to [`SCHEMA_VERSION`], step by step, in the caller's
/// transaction. Version 0 is a new, empty file.
pub fn migrate(tx: &rusqlite::Transaction<'_>, from: i32) -> Result<(), DbError> {
    let mut version = from;
    while version < SCHEMA_VERSION {
        match version {
            0 => tx.execute_batch(&format!(
                "PRAGMA application_id = {APPLICATION_ID};
                 CREATE TABLE positions (
                     rule TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
                     stones BLOB NOT NULL, to_move INTEGER NOT NULL,
                     value_kind INTEGER, score INTEGER, depth INTEGER, best INTEGER,
                     label TEXT NOT NULL DEFAULT '', text TEXT NOT NULL DEFAULT '',
                     written_at INTEGER NOT NULL,
                     PRIMARY KEY (rule, width, height, stones, to_move)
                 ) WITHOUT ROWID;"
            ))?,
            v => return Err(DbError::Invalid(format!("no migration from schema {v}"))),
        }
        version += 1;
        tx.pragma_update(None, "user_version", version)?;
    }
    Ok(())
}

/// Seconds since the Unix epoch (the `written_at` of a write).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Database {
    /// Opens (or, in [`Mode::ReadWrite`], creates) the database at `path`. A file that is not
    /// ours is refused untouched; an older schema is migrated.
    pub fn open(path: &Path, mode: Mode) -> Result<Database, DbError> {
        let version = if path.exists() { inspect(path)? } else { None };
        let conn = match mode {
            Mode::ReadOnly => {
                if version.is_none() {
                    return Err(DbError::Missing(path.to_path_buf()));
                }
                let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
                conn.busy_timeout(BUSY_TIMEOUT)?;
                conn
            }
            Mode::ReadWrite => {
                let mut conn = Connection::open(path)?;
                conn.busy_timeout(BUSY_TIMEOUT)?;
                let journal: String =
                    conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
                if !journal.eq_ignore_ascii_case("wal") {
                    return Err(DbError::Sqlite(format!("journal mode {journal}, not WAL")));
                }
                conn.pragma_update(None, "synchronous", "FULL")?;
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let current: i32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
                migrate(&tx, current)?;
                tx.commit()?;
                conn
            }
        };
        Ok(Database {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
            mode,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How it was opened.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Runs `f` in one `IMMEDIATE` transaction: committed when it returns `Ok`, rolled back
    /// otherwise.
    fn write<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        if self.mode == Mode::ReadOnly {
            return Err(DbError::ReadOnly);
        }
        let mut conn = self.conn.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }

    /// Runs `f` on the connection for reading.
    fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T, DbError>) -> Result<T, DbError> {
        f(&self.conn.lock())
    }

    /// How many records the file holds.
    pub fn len(&self) -> Result<usize, DbError> {
        self.read(|c| {
            Ok(c.query_row("SELECT count(*) FROM positions", [], |r| r.get::<_, i64>(0))? as usize)
        })
    }

    /// Whether the file holds no record.
    pub fn is_empty(&self) -> Result<bool, DbError> {
        Ok(self.len()? == 0)
    }

    /// The record of `pos` (or of any of its symmetric images), best move in `pos`'s frame.
    pub fn get(&self, pos: &Position) -> Result<Option<Record>, DbError> {
        pos.validate()?;
        self.read(|c| store::get(c, pos))
    }

    /// Stores `record` for `pos`, replacing what was there; stamped with the current time.
    pub fn put(&self, pos: &Position, record: &Record) -> Result<(), DbError> {
        pos.validate()?;
        let record = Record {
            written_at: now(),
            ..record.clone()
        };
        self.write(|tx| store::put(tx, pos, &record))
    }

    /// Reads, changes and writes back the record of `pos` (a blank one when absent) in one
    /// transaction; returns what was written.
    pub fn update(&self, pos: &Position, f: impl FnOnce(&mut Record)) -> Result<Record, DbError> {
        pos.validate()?;
        self.write(|tx| {
            let mut record = store::get(tx, pos)?.unwrap_or_default();
            f(&mut record);
            record.written_at = now();
            store::put(tx, pos, &record)?;
            Ok(record)
        })
    }

    /// A search result for `pos` (the search's root write-back): kept when it is better than the
    /// stored value ([`Value::better_than`]), with its best move; label and text untouched.
    /// Returns whether it was written.
    pub fn record_result(
        &self,
        pos: &Position,
        value: Value,
        best_move: Option<Pos>,
    ) -> Result<bool, DbError> {
        pos.validate()?;
        self.write(|tx| {
            let mut record = store::get(tx, pos)?.unwrap_or_default();
            if record.value.is_some_and(|old| !value.better_than(old)) {
                return Ok(false);
            }
            record.value = Some(value);
            record.best_move = best_move.or(record.best_move);
            record.written_at = now();
            store::put(tx, pos, &record)?;
            Ok(true)
        })
    }

    /// Deletes the record of `pos`; whether there was one.
    pub fn delete(&self, pos: &Position) -> Result<bool, DbError> {
        pos.validate()?;
        self.write(|tx| store::delete(tx, pos))
    }

    /// Deletes every record below `pos` ([`Position::descends_from`]) whose record `filter`
    /// accepts, in one transaction; how many.
    pub fn delete_below(
        &self,
        pos: &Position,
        filter: impl Fn(&Record) -> bool,
    ) -> Result<usize, DbError> {
        self.write(|tx| {
            let doomed: Vec<Position> =
                store::positions(tx, Some((pos.rule, pos.width, pos.height)))?
                    .into_iter()
                    .filter(|s| s.position.descends_from(pos) && filter(&s.record))
                    .map(|s| s.position)
                    .collect();
            for p in &doomed {
                store::delete(tx, p)?;
            }
            Ok(doomed.len())
        })
    }

    /// Every record of `rule` on a `width` x `height` board, stones and best move in the
    /// canonical frame (the search's view of the file).
    pub fn positions(
        &self,
        rule: Rule,
        width: usize,
        height: usize,
    ) -> Result<Vec<StoredPosition>, DbError> {
        self.read(|c| store::positions(c, Some((rule, width, height))))
    }

    /// Every record of the file.
    pub fn all(&self) -> Result<Vec<StoredPosition>, DbError> {
        self.read(|c| store::positions(c, None))
    }

    /// Merges `items` into the file ([`Record::merge`], stored records as the old side), all in
    /// ONE transaction: either every item is written or, on any error (or a killed process),
    /// none. Write times are kept as given. Returns how many were written.
    pub fn import(
        &self,
        items: impl IntoIterator<Item = StoredPosition>,
    ) -> Result<usize, DbError> {
        self.write(|tx| {
            let mut n = 0;
            for item in items {
                item.position.validate()?;
                let merged = match store::get(tx, &item.position)? {
                    Some(old) => item.record.merge(old),
                    None => item.record,
                };
                store::put(tx, &item.position, &merged)?;
                n += 1;
            }
            Ok(n)
        })
    }

    /// Problems found: SQLite's integrity check, then rows that do not decode, are not under
    /// their canonical key, or whose best move is off the board or on a stone.
    pub fn check(&self) -> Result<Vec<String>, DbError> {
        self.read(store::check)
    }

    /// Repairs what [`Database::check`] finds in the rows (SQLite-level corruption is beyond
    /// repair here: restore a backup): undecodable rows are deleted, rows under a wrong key
    /// re-keyed (merged with a record already there), impossible best moves dropped. One
    /// transaction; how many rows changed.
    pub fn fix(&self) -> Result<usize, DbError> {
        self.write(store::fix)
    }

    /// Moves the write-ahead log into the main file, so that the `.db` file alone is a complete
    /// copy (before a backup).
    pub fn checkpoint(&self) -> Result<(), DbError> {
        if self.mode == Mode::ReadOnly {
            return Ok(());
        }
        self.read(|c| {
            c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests;
