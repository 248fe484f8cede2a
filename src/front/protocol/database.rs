//! The database commands of a session (Yixin-Board's set, with Rapfi's reply formats): the
//! position database ([`crate::knowledge::database`]) opened, queried, edited, exported and
//! imported over the protocol.
//!
//! # Invariants
//! - The database is closed until asked for: `YXSETDATABASE path`, or `INFO usedatabase 1`
//!   (which opens `bango.db` in the `INFO folder` directory, else beside the executable).
//!   Tournaments send neither, so they never touch a file.
//! - Without an open database every database command answers `ERROR no database open`.
//! - A refused command (malformed, no game, a point off the board or occupied, a locked or
//!   read-only file, a foreign file) answers `ERROR <reason>` and wrote nothing.
//! - Replies Yixin-Board parses start `MESSAGE DATABASE` (`REFRESH`, one line per child record,
//!   `DONE`; `ONE ...`; `TEXT "..."`); confirmations and reports start `MESSAGE database` in
//!   lower case, which Yixin-Board only logs.
//! - Labels are shown on the parent's board at the move that leads to the record's position, so
//!   the value a label stands for is the parent mover's: `W` on a point means the move wins,
//!   i.e. the side to move in the record's position loses ([`Value::Loss`]).
//!
//! # Commands
//! Position commands take the moves from the empty board, one `X,Y` a line, then `DONE`
//! (Yixin-Board sends its row first; the replies echo the same order, so its board shows them
//! right). File commands take the path on their line or, as Yixin-Board sends it, the next.
//!
//! | command | does | reply |
//! |---|---|---|
//! | `YXSETDATABASE path` | open or create the file | `MESSAGE database <path> opened (<n> positions)` |
//! | `INFO usedatabase 1` / `0` | open `bango.db` in the data folder / close | `MESSAGE database ...` |
//! | `INFO database_readonly 1` | open read-only from now on (reopens an open file) | `MESSAGE database ...` |
//! | `YXQUERYDATABASEALL` (`...ALLT`) | the children's records (then the text) | see below |
//! | `YXQUERYDATABASEONE` / `...TEXT` | the position's record / text | see below |
//! | `YXEDITTVDDATABASE m l v d` | label (bit 1), score (2), depth (4) | as `...ONE` |
//! | `YXEDITTEXTDATABASE "text"` | the position's text | `MESSAGE database text saved` |
//! | `YXEDITLABELDATABASE X,Y text` | the label of the move `X,Y` | `MESSAGE database label at X,Y saved` |
//! | `YXDELETEDATABASEONE` | delete the record | `MESSAGE database deleted <n> records` |
//! | `YXDELETEDATABASEALL [filter]` | delete below (`NONWL`, `WL`, `W`, `L`, `WLD`, `NONWLD`) | count, then as `...ALL` |
//! | `YXSETBESTMOVEDATABASE` / `YXCLEAR...` | the last move is / is no more the best move of the position before it | `MESSAGE database best move ...` |
//! | `YXSAVEDATABASE` | fold the write-ahead log into the file | `MESSAGE database <path> saved` |
//! | `YXDBTOTXT path` / `YXDBTOTXTALL path` | text export, current rule and size / all ([`text`]) | `MESSAGE database wrote <n> records to <path>` |
//! | `YXTXTTODB path` | text import, one transaction | `MESSAGE database importing <n> ...`, `... imported <n> records` |
//! | `YXDBTOPOS path` | positions as Gomocup opening lines | `MESSAGE database wrote <n> positions ...` |
//! | `YXDBMERGE path` | merge another bango database (read-only) | `MESSAGE database merged <n> records from <path>` |
//! | `YXDBSPLIT path` | the current board's position and all below it into another database | `MESSAGE database wrote <n> records to <path>` |
//! | `YXLIBTODB path` / `YXDBTOLIB path` | Renlib import / export (15x15) | `MESSAGE database imported ...` / `wrote ...` |
//! | `YXDBCHECK` / `YXDBFIX` | integrity and row check / repair | `MESSAGE database check: <n> positions, ...` / `fix: <n> records repaired` |
//!
//! Queries write nothing (Rapfi adds a blank record for a queried position; we do not).
//!
//! # Backing up
//! `YXSAVEDATABASE`, then copy the `.db` file (with no brain writing to it); or at any time
//! `YXDBTOTXTALL` (a text copy `YXTXTTODB` reads back), or `sqlite3 bango.db "VACUUM INTO
//! 'copy.db'"`.
//!
//! # Reply formats
//! - `YXQUERYDATABASEALL`: `MESSAGE DATABASE REFRESH`, then per empty point with a record
//!   `MESSAGE DATABASE x y tag value depth bound hastext label` (tag: up to four ASCII
//!   characters of the shown label packed big-endian into an integer, -1 for none; value and
//!   depth from the record's side to move, a proven value as +-30000; bound 3 when a value is
//!   stored, else 0; hastext 1 when the record has free text), then `MESSAGE DATABASE DONE`.
//! - `YXQUERYDATABASEONE`: `MESSAGE DATABASE ONE tag value depth bound label`, or
//!   `MESSAGE DATABASE ONE 0 0 0 0` when there is no record.
//! - `YXQUERYDATABASETEXT`: `MESSAGE DATABASE TEXT "text"` (`"` and `\` escaped with `\`, a
//!   newline written `\n`).

use super::command::{Command, Coord, DbFileOp, DbOp};
use super::dbstate::PendingResult;
use super::session::Session;
use super::Sink;
use crate::game::board::{Board, Color, Pos};
use crate::knowledge::book::symmetry::stones_of;
use crate::knowledge::database::{
    known, renlib, text, Database, DbError, Mode, Position, Record, StoredPosition, Value,
};
use crate::search::alphabeta::WIN_MIN;
use std::path::Path;
use std::sync::Arc;

/// How a proven value is written in the numeric field of a reply (Rapfi's mate value).
pub const PROVEN_SCORE: i32 = 30000;
/// The file `INFO usedatabase 1` opens in the data folder.
pub const DEFAULT_FILE: &str = "bango.db";
/// Problems `YXDBCHECK` lists one a line (the count is always given).
const MAX_LISTED: usize = 20;

fn err(e: DbError) -> String {
    e.to_string()
}

/// The label shown for a record on its parent's board (see the module invariants).
fn shown_label(r: &Record) -> String {
    if !r.label.is_empty() {
        return r.label.clone();
    }
    match r.value.map(Value::flipped) {
        Some(Value::Win) => "W".into(),
        Some(Value::Loss) => "L".into(),
        Some(Value::Draw) => "D".into(),
        _ => String::new(),
    }
}

/// Up to four ASCII characters packed big-endian, as Yixin-Board decodes a tag; -1 for none.
fn packed(label: &str) -> i64 {
    let bytes: Vec<u8> = label.bytes().take(4).collect();
    if bytes.is_empty() || !bytes.iter().all(|b| b.is_ascii_graphic()) {
        return -1;
    }
    bytes.iter().fold(0, |acc, &b| acc << 8 | i64::from(b))
}

/// The value, depth and bound fields of a reply.
fn numbers(r: &Record) -> (i32, i32, i32) {
    match r.value {
        None => (0, 0, 0),
        Some(Value::Win) => (PROVEN_SCORE, 0, 3),
        Some(Value::Loss) => (-PROVEN_SCORE, 0, 3),
        Some(Value::Draw) => (0, 0, 3),
        Some(Value::Score { score, depth }) => (score, depth, 3),
    }
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl Session {
    fn db(&self) -> Result<&Database, String> {
        self.db_state
            .db
            .as_deref()
            .ok_or_else(|| "no database open".to_string())
    }

    fn db_mode(&self) -> Mode {
        if self.db_state.read_only {
            Mode::ReadOnly
        } else {
            Mode::ReadWrite
        }
    }

    fn open_db(&mut self, path: &Path, out: Sink<'_>) -> Result<(), String> {
        let db = Database::open(path, self.db_mode()).map_err(err)?;
        let n = db.len().map_err(err)?;
        let ro = if db.mode() == Mode::ReadOnly {
            ", read-only"
        } else {
            ""
        };
        out(&format!(
            "MESSAGE database {} opened ({n} positions{ro})",
            path.display()
        ));
        self.db_state.db = Some(Arc::new(db));
        Ok(())
    }

    /// `INFO usedatabase`: on opens the default file unless a database is open; off closes it.
    /// An `INFO` never answers `ERROR`: failures are `MESSAGE`s.
    pub(super) fn use_database(&mut self, on: bool, out: Sink<'_>) {
        if !on {
            if self.db_state.db.take().is_some() {
                out("MESSAGE database closed");
            }
            return;
        }
        if self.db_state.db.is_some() {
            return;
        }
        let dir = self.config.folder.clone().or_else(|| {
            self.config
                .exe
                .as_ref()
                .and_then(|e| e.parent().map(Path::to_path_buf))
        });
        let Some(dir) = dir else {
            out("MESSAGE database not opened: no INFO folder and no executable path to put it in");
            return;
        };
        if let Err(e) = self.open_db(&dir.join(DEFAULT_FILE), out) {
            out(&format!("MESSAGE database not opened: {e}"));
        }
    }

    /// `INFO database_readonly`: the mode of later opens; an open database is reopened in it.
    pub(super) fn database_readonly(&mut self, on: bool, out: Sink<'_>) {
        self.db_state.read_only = on;
        let Some(path) = self.db_state.db.as_ref().map(|d| d.path().to_path_buf()) else {
            return;
        };
        self.db_state.db = None;
        if let Err(e) = self.open_db(&path, out) {
            out(&format!("MESSAGE database not reopened: {e}"));
        }
    }

    /// Hands the search the open database's records for the current rule and board size, or
    /// nothing when no database is open. Run after a command that may change them (see the
    /// session's `changes_known`), between moves: never on a move's clock.
    pub(super) fn refresh_known(&mut self, out: Sink<'_>) {
        let known = match (self.db_state.db.as_deref(), self.board.as_ref()) {
            (Some(db), Some(board)) => match known::known_positions(db, self.rule, board.size()) {
                Ok(k) => Some(Arc::new(k)),
                Err(e) => {
                    out(&format!("MESSAGE database not read by the search: {e}"));
                    None
                }
            },
            _ => None,
        };
        self.db_state.known = known;
        self.algo.set_known(self.db_state.known.clone());
    }

    /// What the search knows follows the one record a position command wrote (the whole file
    /// is read again only after `YXDELETEDATABASEALL`, see the session's `changes_known`): an
    /// analyst's edit costs a few lookups, not a read of every record.
    fn follow_edit(&mut self, op: &DbOp, moves: &[Coord], out: Sink<'_>) {
        let touched = match op {
            DbOp::EditTvd { .. } | DbOp::EditText(_) | DbOp::DeleteOne => {
                self.db_position_of(moves).ok()
            }
            DbOp::EditLabel(at, _) => self.db_position_of(moves).ok().and_then(|pos| {
                let p = self.current().ok()?.pos(at.x, at.y)?;
                pos.child(p).ok()
            }),
            DbOp::SetBestMove | DbOp::ClearBestMove => moves
                .split_last()
                .and_then(|(_, before)| self.db_position_of(before).ok()),
            DbOp::QueryAll
            | DbOp::QueryAllText
            | DbOp::QueryOne
            | DbOp::QueryText
            | DbOp::DeleteAll(_) => None,
        };
        let (Some(pos), Some(db)) = (touched, self.db_state.db.clone()) else {
            return;
        };
        // The algorithm's clone released, the map is ours to change in place.
        self.algo.set_known(None);
        if let Some(k) = self.db_state.known.as_mut().and_then(Arc::get_mut) {
            if let Err(e) = known::refresh(k, &db, &pos) {
                out(&format!("MESSAGE database not read by the search: {e}"));
            }
        }
        self.algo.set_known(self.db_state.known.clone());
    }

    /// Notes a root search's result for [`Self::write_back`] when a writable database is open
    /// and the search completed [`db_write_depth`](crate::engine::config::Brain::db_write_depth)
    /// plies: `board` is the root (our side to move), `p` the move played.
    pub(super) fn note_result(&mut self, board: &Board, depth: u32, score: i32, p: Pos) {
        let wanted = self.config.brain.db_write_depth;
        let writable = self
            .db_state
            .db
            .as_ref()
            .is_some_and(|db| db.mode() == Mode::ReadWrite);
        if !writable || wanted == 0 || depth < wanted {
            return;
        }
        let value = if score >= WIN_MIN {
            Value::Win
        } else if score <= -WIN_MIN {
            Value::Loss
        } else {
            Value::Score {
                score,
                depth: depth as i32,
            }
        };
        self.db_state.pending = Some(PendingResult {
            position: Position::of_board(board, self.rule),
            value,
            best: p,
        });
    }

    /// Writes the noted root result (if any) into the database and into what the search knows.
    /// The session calls it after the command's reply is out; a failure is a `MESSAGE`.
    pub(super) fn write_back(&mut self, out: Sink<'_>) {
        let Some(result) = self.db_state.pending.take() else {
            return;
        };
        let Some(db) = self.db_state.db.clone() else {
            return;
        };
        let written = db.record_result(&result.position, result.value, Some(result.best));
        let record =
            match written.and_then(|w| Ok(if w { db.get(&result.position)? } else { None })) {
                Ok(Some(record)) => record,
                Ok(None) => return,
                Err(e) => {
                    out(&format!("MESSAGE database: result not written: {e}"));
                    return;
                }
            };
        // The algorithm's clone released, the map is ours to extend in place.
        self.algo.set_known(None);
        if let Some(k) = self.db_state.known.as_mut().and_then(Arc::get_mut) {
            known::add(
                k,
                &StoredPosition {
                    position: result.position,
                    record,
                },
            );
        }
        self.algo.set_known(self.db_state.known.clone());
    }

    /// Applies one database command.
    pub(super) fn database(&mut self, cmd: Command, out: Sink<'_>) -> Result<(), String> {
        match cmd {
            Command::DbFile(DbFileOp::Set, path) => self.open_db(Path::new(&path), out),
            Command::DbFile(op, path) => self.db_file(op, Path::new(&path), out),
            Command::DbPosition(op, moves) => {
                self.db_position(op.clone(), &moves, out)?;
                self.follow_edit(&op, &moves, out);
                Ok(())
            }
            Command::DbSave => {
                let db = self.db()?;
                db.checkpoint().map_err(err)?;
                out(&format!("MESSAGE database {} saved", db.path().display()));
                Ok(())
            }
            Command::DbCheck => {
                let db = self.db()?;
                let problems = db.check().map_err(err)?;
                let n = db.len().map_err(err)?;
                match problems.len() {
                    0 => out(&format!(
                        "MESSAGE database check: {n} positions, no problems"
                    )),
                    k => out(&format!(
                        "MESSAGE database check: {n} positions, {k} problems"
                    )),
                }
                for p in problems.iter().take(MAX_LISTED) {
                    out(&format!("MESSAGE database problem: {p}"));
                }
                Ok(())
            }
            Command::DbFix => {
                let fixed = self.db()?.fix().map_err(err)?;
                out(&format!("MESSAGE database fix: {fixed} records repaired"));
                Ok(())
            }
            other => Err(format!("not a database command: {other:?}")),
        }
    }

    /// The position `moves` reach from the empty board of the current game's size and rule.
    fn db_position_of(&self, moves: &[Coord]) -> Result<Position, String> {
        let board = self.current()?;
        let size = board.size();
        let mut pos = Position::from_moves(self.rule, size, size, &[]).map_err(err)?;
        for &c in moves {
            let p = board
                .pos(c.x, c.y)
                .ok_or_else(|| format!("{c} is outside the board"))?;
            pos = pos.child(p).map_err(err)?;
        }
        Ok(pos)
    }

    fn db_position(&mut self, op: DbOp, moves: &[Coord], out: Sink<'_>) -> Result<(), String> {
        let db = self.db()?;
        let pos = self.db_position_of(moves)?;
        match op {
            DbOp::QueryAll => self.query_all(&pos, out),
            DbOp::QueryAllText => {
                self.query_all(&pos, out)?;
                self.query_text(&pos, out)
            }
            DbOp::QueryOne => self.query_one(&pos, out),
            DbOp::QueryText => self.query_text(&pos, out),
            DbOp::EditTvd {
                mask,
                label,
                value,
                depth,
            } => {
                if !(1..=7).contains(&mask) {
                    return Err(format!(
                        "YXEDITTVDDATABASE: mask {mask} (1 label, 2 value, 4 depth)"
                    ));
                }
                let value = i32::try_from(value).map_err(|_| format!("value {value} too large"))?;
                let depth = i32::try_from(depth).map_err(|_| format!("depth {depth} too large"))?;
                let label = match label {
                    l if l <= 0 => None,
                    l => Some(
                        u32::try_from(l)
                            .ok()
                            .and_then(char::from_u32)
                            .filter(|c| !c.is_control())
                            .ok_or_else(|| format!("label code {l} is not a character"))?,
                    ),
                };
                db.update(&pos, |r| edit_tvd(r, mask, label, value, depth))
                    .map_err(err)?;
                self.query_one(&pos, out)
            }
            DbOp::EditText(text) => {
                db.update(&pos, |r| r.text = text).map_err(err)?;
                out("MESSAGE database text saved");
                Ok(())
            }
            DbOp::EditLabel(at, label) => {
                let p = self
                    .current()?
                    .pos(at.x, at.y)
                    .ok_or_else(|| format!("{at} is outside the board"))?;
                let child = pos.child(p).map_err(err)?;
                db.update(&child, |r| r.label = label).map_err(err)?;
                out(&format!("MESSAGE database label at {at} saved"));
                Ok(())
            }
            DbOp::DeleteOne => {
                let n = usize::from(db.delete(&pos).map_err(err)?);
                out(&format!("MESSAGE database deleted {n} records"));
                Ok(())
            }
            DbOp::DeleteAll(filter) => {
                let keep_proven = |r: &Record| r.value.is_some_and(Value::is_proven);
                let shown = |r: &Record, l: &str| {
                    r.value.map(Value::flipped).is_some_and(|v| match l {
                        "W" => v == Value::Win,
                        "L" => v == Value::Loss,
                        _ => false,
                    })
                };
                let wl = |r: &Record| shown(r, "W") || shown(r, "L");
                let n = db
                    .delete_below(&pos, |r| match filter.as_str() {
                        "NONWL" => !wl(r),
                        "WL" => wl(r),
                        "W" | "L" => shown(r, &filter),
                        "WLD" => keep_proven(r),
                        "NONWLD" => !keep_proven(r),
                        _ => true,
                    })
                    .map_err(err)?;
                out(&format!("MESSAGE database deleted {n} records"));
                self.query_all(&pos, out)
            }
            DbOp::SetBestMove | DbOp::ClearBestMove => {
                let Some((&last, before)) = moves.split_last() else {
                    return Err(
                        "the best move is the last move of the list; the list is empty".into(),
                    );
                };
                let parent = self.db_position_of(before)?;
                // `pos` was reached through `last`: it is on the board.
                let best =
                    (op == DbOp::SetBestMove).then(|| Pos::new(last.x as usize, last.y as usize));
                db.update(&parent, |r| r.best_move = best).map_err(err)?;
                match best {
                    Some(_) => out(&format!("MESSAGE database best move {last} saved")),
                    None => out("MESSAGE database best move cleared"),
                }
                Ok(())
            }
        }
    }

    fn query_all(&self, pos: &Position, out: Sink<'_>) -> Result<(), String> {
        let db = self.db()?;
        // Read everything first: an error must not leave a REFRESH without its DONE.
        let mut lines = Vec::new();
        for y in 0..pos.height {
            for x in 0..pos.width {
                let p = Pos::new(x, y);
                if !pos.is_empty_at(p) {
                    continue;
                }
                let child = pos.child(p).map_err(err)?;
                if let Some(r) = db.get(&child).map_err(err)? {
                    let (value, depth, bound) = numbers(&r);
                    let label = shown_label(&r);
                    lines.push(format!(
                        "MESSAGE DATABASE {x} {y} {} {value} {depth} {bound} {} {label}",
                        packed(&label),
                        u8::from(!r.text.is_empty())
                    ));
                }
            }
        }
        out("MESSAGE DATABASE REFRESH");
        for l in &lines {
            out(l.trim_end());
        }
        out("MESSAGE DATABASE DONE");
        Ok(())
    }

    fn query_one(&self, pos: &Position, out: Sink<'_>) -> Result<(), String> {
        match self.db()?.get(pos).map_err(err)? {
            None => out("MESSAGE DATABASE ONE 0 0 0 0"),
            Some(r) => {
                let (value, depth, bound) = numbers(&r);
                let label = shown_label(&r);
                let code = label.chars().next().map_or(0, u32::from);
                out(
                    format!("MESSAGE DATABASE ONE {code} {value} {depth} {bound} {label}")
                        .trim_end(),
                );
            }
        }
        Ok(())
    }

    fn query_text(&self, pos: &Position, out: Sink<'_>) -> Result<(), String> {
        let r = self.db()?.get(pos).map_err(err)?.unwrap_or_default();
        out(&format!("MESSAGE DATABASE TEXT {}", quote(&r.text)));
        Ok(())
    }

    fn db_file(&mut self, op: DbFileOp, path: &Path, out: Sink<'_>) -> Result<(), String> {
        let db = self.db()?;
        let shown = path.display();
        if same_file(path, db.path()) {
            return Err(format!("{shown} is the open database itself"));
        }
        let write = |content: Vec<u8>| {
            std::fs::write(path, content).map_err(|e| format!("cannot write {shown}: {e}"))
        };
        let read = || std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"));
        let rule = self.rule;
        let size = self.current().map(|b| b.size()).ok();
        let current = || -> Result<Vec<StoredPosition>, String> {
            let size = size.ok_or("no game: send START first")?;
            db.positions(rule, size, size).map_err(err)
        };
        match op {
            DbFileOp::Set => unreachable!("opened by the caller"),
            DbFileOp::ToTxt | DbFileOp::ToTxtAll => {
                let records = if op == DbFileOp::ToTxt {
                    current()?
                } else {
                    db.all().map_err(err)?
                };
                let mut content = format!("{}\n", text::HEADER);
                for r in &records {
                    content.push_str(&text::to_line(r));
                    content.push('\n');
                }
                write(content.into_bytes())?;
                out(&format!(
                    "MESSAGE database wrote {} records to {shown}",
                    records.len()
                ));
            }
            DbFileOp::ToPos => {
                let records = current()?;
                let lines: Vec<String> = records
                    .iter()
                    .filter_map(|r| text::to_opening_line(&r.position))
                    .collect();
                let skipped = records.len() - lines.len();
                write(
                    lines
                        .iter()
                        .map(|l| format!("{l}\n"))
                        .collect::<String>()
                        .into_bytes(),
                )?;
                out(&format!(
                    "MESSAGE database wrote {} positions to {shown} ({skipped} skipped: stone counts)",
                    lines.len()
                ));
            }
            DbFileOp::TxtToDb => {
                let bytes = read()?;
                let content =
                    String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
                let records =
                    text::parse(&content).map_err(|e| format!("{shown} {e}; nothing imported"))?;
                out(&format!(
                    "MESSAGE database importing {} records from {shown}",
                    records.len()
                ));
                let n = db.import(records).map_err(err)?;
                out(&format!("MESSAGE database imported {n} records"));
            }
            DbFileOp::LibToDb => {
                let records = renlib::read(&read()?, rule)
                    .map_err(|e| format!("{shown}: {e}; nothing imported"))?;
                out(&format!(
                    "MESSAGE database importing {} positions from {shown}",
                    records.len()
                ));
                let n = db.import(records).map_err(err)?;
                out(&format!(
                    "MESSAGE database imported {n} positions (15x15, {})",
                    rule.name()
                ));
            }
            DbFileOp::Merge => {
                let other = Database::open(path, Mode::ReadOnly).map_err(err)?;
                let records = other.all().map_err(err)?;
                let n = db.import(records).map_err(err)?;
                out(&format!("MESSAGE database merged {n} records from {shown}"));
            }
            DbFileOp::Split => {
                let board = self.current()?;
                let stones = stones_of(board);
                // Database positions are reached by play: black moves when the counts are even.
                let black = stones.iter().filter(|s| s.1 == Color::Black).count();
                let here = Position {
                    rule,
                    width: board.size(),
                    height: board.size(),
                    to_move: if 2 * black == stones.len() {
                        Color::Black
                    } else {
                        Color::White
                    },
                    stones,
                };
                let key = here.canonical().key;
                let below: Vec<StoredPosition> = current()?
                    .into_iter()
                    .filter(|s| {
                        s.position.descends_from(&here)
                            || (s.position.canonical().key == key
                                && s.position.to_move == here.to_move)
                    })
                    .collect();
                let target = Database::open(path, Mode::ReadWrite).map_err(err)?;
                let n = target.import(below).map_err(err)?;
                out(&format!("MESSAGE database wrote {n} records to {shown}"));
            }
            DbFileOp::ToLib => {
                if size != Some(renlib::SIZE) {
                    return Err("YXDBTOLIB: Renlib files are 15x15; start a 15x15 game".into());
                }
                let (bytes, nodes) = renlib::write(&current()?, rule);
                write(bytes)?;
                out(&format!(
                    "MESSAGE database wrote {nodes} positions to {shown} (Renlib)"
                ));
            }
        }
        Ok(())
    }
}

/// `YXEDITTVDDATABASE` on one record (see [`DbOp::EditTvd`]).
fn edit_tvd(r: &mut Record, mask: i64, label: Option<char>, value: i32, depth: i32) {
    if mask & 1 != 0 {
        // The shown label is the parent mover's view: W (the move wins) is a loss for the side
        // to move here. Yixin-Board shows `w` and `l` as `W` and `L` too.
        match label {
            Some('W' | 'w') => (r.value, r.label) = (Some(Value::Loss), String::new()),
            Some('L' | 'l') => (r.value, r.label) = (Some(Value::Win), String::new()),
            Some('D') => (r.value, r.label) = (Some(Value::Draw), String::new()),
            Some(c) => r.label = c.to_string(),
            None => {
                r.label.clear();
                if r.value.is_some_and(Value::is_proven) {
                    r.value = None;
                }
            }
        }
    }
    let old_depth = match r.value {
        Some(Value::Score { depth, .. }) => depth,
        _ => 0,
    };
    if mask & 2 != 0 {
        r.value = Some(Value::Score {
            score: value,
            depth: old_depth,
        });
    }
    if mask & 4 != 0 {
        match r.value {
            Some(Value::Score { score, .. }) => r.value = Some(Value::Score { score, depth }),
            None => r.value = Some(Value::Score { score: 0, depth }),
            Some(_) => {}
        }
    }
}
