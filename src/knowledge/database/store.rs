//! The rows of the `positions` table: encoding a [`Record`] into columns and back, and the
//! queries the [`super::Database`] runs inside its transactions.
//!
//! # Invariants
//! - A row's `stones` is the canonical key of its position and `best` is in the same frame:
//!   [`put`] canonicalises, [`get`] maps the best move back into the caller's frame.
//! - Rows that do not decode are skipped by the listings and reported by [`check`].

use super::key::{decode, Position};
use super::record::{Record, StoredPosition, Value};
use super::DbError;
use crate::game::board::{Color, Pos};
use crate::game::rules::Rule;
use rusqlite::{params, Connection, OptionalExtension, Row};

const COLUMNS: &str =
    "rule, width, height, stones, to_move, value_kind, score, depth, best, label, text, written_at";

fn colour_code(c: Color) -> i64 {
    c.index() as i64
}

fn value_columns(v: Option<Value>) -> (Option<i64>, Option<i64>, Option<i64>) {
    match v {
        None => (None, None, None),
        Some(Value::Score { score, depth }) => (Some(0), Some(score.into()), Some(depth.into())),
        Some(Value::Win) => (Some(1), None, None),
        Some(Value::Loss) => (Some(2), None, None),
        Some(Value::Draw) => (Some(3), None, None),
    }
}

fn value_of(kind: Option<i64>, score: Option<i64>, depth: Option<i64>) -> Option<Option<Value>> {
    Some(match kind {
        None => None,
        Some(0) => Some(Value::Score {
            score: i32::try_from(score?).ok()?,
            depth: i32::try_from(depth?).ok()?,
        }),
        Some(1) => Some(Value::Win),
        Some(2) => Some(Value::Loss),
        Some(3) => Some(Value::Draw),
        Some(_) => return None,
    })
}

/// A raw row, before decoding.
struct RawRow {
    rule: String,
    width: i64,
    height: i64,
    stones: Vec<u8>,
    to_move: i64,
    kind: Option<i64>,
    score: Option<i64>,
    depth: Option<i64>,
    best: Option<i64>,
    label: String,
    text: String,
    written_at: i64,
}

fn raw(r: &Row<'_>) -> rusqlite::Result<RawRow> {
    Ok(RawRow {
        rule: r.get(0)?,
        width: r.get(1)?,
        height: r.get(2)?,
        stones: r.get(3)?,
        to_move: r.get(4)?,
        kind: r.get(5)?,
        score: r.get(6)?,
        depth: r.get(7)?,
        best: r.get(8)?,
        label: r.get(9)?,
        text: r.get(10)?,
        written_at: r.get(11)?,
    })
}

impl RawRow {
    /// The stored position and record (canonical frame), or why the row makes no sense.
    fn decode(&self) -> Result<StoredPosition, String> {
        let rule = Rule::from_name(&self.rule).ok_or_else(|| format!("rule {:?}", self.rule))?;
        let size = |n: i64| usize::try_from(n).ok().filter(|n| (5..=32).contains(n));
        let (Some(width), Some(height)) = (size(self.width), size(self.height)) else {
            return Err(format!("board {}x{}", self.width, self.height));
        };
        let stones = decode(&self.stones, width, height).ok_or("undecodable stones")?;
        let to_move = match self.to_move {
            0 => Color::Black,
            1 => Color::White,
            n => return Err(format!("side to move {n}")),
        };
        let value = value_of(self.kind, self.score, self.depth).ok_or("undecodable value")?;
        let best_move = match self.best {
            None => None,
            Some(i) => Some(Pos(u16::try_from(i).map_err(|_| format!("best move {i}"))?)),
        };
        let position = Position {
            rule,
            width,
            height,
            stones,
            to_move,
        };
        position.validate().map_err(|e| e.to_string())?;
        Ok(StoredPosition {
            position,
            record: Record {
                value,
                best_move,
                label: self.label.clone(),
                text: self.text.clone(),
                written_at: self.written_at,
            },
        })
    }
}

/// The record of `pos`, best move in `pos`'s frame.
pub(super) fn get(c: &Connection, pos: &Position) -> Result<Option<Record>, DbError> {
    let canon = pos.canonical();
    let row = c
        .query_row(
            &format!(
                "SELECT {COLUMNS} FROM positions
                 WHERE rule = ?1 AND width = ?2 AND height = ?3 AND stones = ?4 AND to_move = ?5"
            ),
            params![
                pos.rule.name(),
                pos.width as i64,
                pos.height as i64,
                canon.key,
                colour_code(pos.to_move)
            ],
            raw,
        )
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    let stored = row.decode().map_err(|why| {
        DbError::Invalid(format!("stored record is damaged ({why}); run yxdbfix"))
    })?;
    let mut record = stored.record;
    record.best_move = record.best_move.map(|p| canon.to_caller(p));
    Ok(Some(record))
}

/// Writes `record` (best move in `pos`'s frame) under `pos`'s canonical key, as given.
pub(super) fn put(c: &Connection, pos: &Position, record: &Record) -> Result<(), DbError> {
    let canon = pos.canonical();
    if let Some(p) = record.best_move {
        if !pos.is_empty_at(p) {
            return Err(DbError::Invalid(format!(
                "best move {p} is not an empty point of the position"
            )));
        }
    }
    let (kind, score, depth) = value_columns(record.value);
    c.execute(
        &format!("INSERT OR REPLACE INTO positions ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"),
        params![
            pos.rule.name(),
            pos.width as i64,
            pos.height as i64,
            canon.key,
            colour_code(pos.to_move),
            kind,
            score,
            depth,
            record.best_move.map(|p| i64::from(canon.to_canonical(p).0)),
            record.label,
            record.text,
            record.written_at
        ],
    )?;
    Ok(())
}

/// Deletes the record of `pos`; whether there was one.
pub(super) fn delete(c: &Connection, pos: &Position) -> Result<bool, DbError> {
    let n = c.execute(
        "DELETE FROM positions
         WHERE rule = ?1 AND width = ?2 AND height = ?3 AND stones = ?4 AND to_move = ?5",
        params![
            pos.rule.name(),
            pos.width as i64,
            pos.height as i64,
            pos.canonical().key,
            colour_code(pos.to_move)
        ],
    )?;
    Ok(n > 0)
}

fn raw_rows(
    c: &Connection,
    only: Option<(Rule, usize, usize)>,
) -> Result<Vec<(Vec<u8>, RawRow)>, DbError> {
    let mut out = Vec::new();
    let mut push = |r: &Row<'_>| -> rusqlite::Result<()> {
        let row = raw(r)?;
        out.push((row.stones.clone(), row));
        Ok(())
    };
    let sql = format!("SELECT {COLUMNS} FROM positions");
    match only {
        Some((rule, w, h)) => {
            let mut st = c.prepare(&format!(
                "{sql} WHERE rule = ?1 AND width = ?2 AND height = ?3"
            ))?;
            let mut rows = st.query(params![rule.name(), w as i64, h as i64])?;
            while let Some(r) = rows.next()? {
                push(r)?;
            }
        }
        None => {
            let mut st = c.prepare(&sql)?;
            let mut rows = st.query([])?;
            while let Some(r) = rows.next()? {
                push(r)?;
            }
        }
    }
    Ok(out)
}

/// Every decodable record, of one rule and size or of all.
pub(super) fn positions(
    c: &Connection,
    only: Option<(Rule, usize, usize)>,
) -> Result<Vec<StoredPosition>, DbError> {
    Ok(raw_rows(c, only)?
        .into_iter()
        .filter_map(|(_, row)| row.decode().ok())
        .collect())
}

/// What is wrong with one decoded row beyond decoding: its key or its best move.
fn row_problem(key: &[u8], stored: &StoredPosition) -> Option<String> {
    if stored.position.canonical().key != key {
        return Some("not stored under its canonical key".into());
    }
    match stored.record.best_move {
        Some(p) if !stored.position.is_empty_at(p) => Some(format!("best move {p} is not empty")),
        _ => None,
    }
}

/// See [`super::Database::check`].
pub(super) fn check(c: &Connection) -> Result<Vec<String>, DbError> {
    let mut problems = Vec::new();
    let mut st = c.prepare("PRAGMA integrity_check")?;
    let mut rows = st.query([])?;
    while let Some(r) = rows.next()? {
        let line: String = r.get(0)?;
        if line != "ok" {
            problems.push(format!("sqlite: {line}"));
        }
    }
    for (i, (key, row)) in raw_rows(c, None)?.iter().enumerate() {
        let problem = match row.decode() {
            Err(why) => Some(why),
            Ok(stored) => row_problem(key, &stored),
        };
        if let Some(p) = problem {
            problems.push(format!("record {}: {p}", i + 1));
        }
    }
    Ok(problems)
}

/// See [`super::Database::fix`].
pub(super) fn fix(c: &rusqlite::Transaction<'_>) -> Result<usize, DbError> {
    let mut changed = 0;
    for (key, row) in raw_rows(c, None)? {
        let delete_raw = |c: &Connection| {
            c.execute(
                "DELETE FROM positions
                 WHERE rule = ?1 AND width = ?2 AND height = ?3 AND stones = ?4 AND to_move = ?5",
                params![row.rule, row.width, row.height, key, row.to_move],
            )
        };
        match row.decode() {
            Err(_) => {
                delete_raw(c)?;
                changed += 1;
            }
            Ok(mut stored) => {
                if row_problem(&key, &stored).is_none() {
                    continue;
                }
                delete_raw(c)?;
                if stored
                    .record
                    .best_move
                    .is_some_and(|p| !stored.position.is_empty_at(p))
                {
                    stored.record.best_move = None;
                }
                let merged = match get(c, &stored.position)? {
                    Some(old) => stored.record.merge(old),
                    None => stored.record,
                };
                put(c, &stored.position, &merged)?;
                changed += 1;
            }
        }
    }
    Ok(changed)
}
