//! Parsing the database commands, as Yixin-Board (and Rapfi) write them:
//! - position commands: the word and its arguments on one line, then the moves from the empty
//!   board one a line (`X,Y`; a third field is accepted and ignored), then `DONE`;
//! - file commands: the word, then the path on the same line or (as Yixin-Board sends it) alone
//!   on the next line;
//! - `YXSAVEDATABASE`, `YXDBCHECK`, `YXDBFIX`: one line.
//!
//! A malformed argument line spoils the command, reported at `DONE` (never half applied).

use super::super::command::{Command, Coord, DbFileOp, DbOp};
use super::super::fields::{parse_coord, parse_int};

/// The database command words, upper-case.
pub(super) const WORDS: &[&str] = &[
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEALLT",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
    "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITLABELDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
    "YXSETBESTMOVEDATABASE",
    "YXCLEARBESTMOVEDATABASE",
    "YXSETDATABASE",
    "YXSAVEDATABASE",
    "YXDBTOPOS",
    "YXDBTOTXT",
    "YXDBTOTXTALL",
    "YXTXTTODB",
    "YXDBCHECK",
    "YXDBFIX",
    "YXDBMERGE",
    "YXDBSPLIT",
    "YXLIBTODB",
    "YXDBTOLIB",
];

/// The filters `YXDELETEDATABASEALL` takes.
pub const DELETE_FILTERS: &[&str] = &["", "NONWL", "WL", "W", "L", "WLD", "NONWLD"];

/// A database command being collected.
#[derive(Debug)]
pub(super) enum DbBody {
    /// A position command: its operation (or why its arguments were refused) and the moves.
    Moves {
        word: String,
        op: Result<DbOp, String>,
        moves: Vec<Coord>,
    },
    /// A file command waiting for its path line.
    Path { word: String, op: DbFileOp },
}

/// What a database word starts: a finished command, or a body to collect.
pub(super) enum Start {
    Done(Command),
    Body(DbBody),
}

fn file_op(word: &str) -> Option<DbFileOp> {
    Some(match word {
        "YXSETDATABASE" => DbFileOp::Set,
        "YXDBTOPOS" => DbFileOp::ToPos,
        "YXDBTOTXT" => DbFileOp::ToTxt,
        "YXDBTOTXTALL" => DbFileOp::ToTxtAll,
        "YXTXTTODB" => DbFileOp::TxtToDb,
        "YXDBMERGE" => DbFileOp::Merge,
        "YXDBSPLIT" => DbFileOp::Split,
        "YXLIBTODB" => DbFileOp::LibToDb,
        "YXDBTOLIB" => DbFileOp::ToLib,
        _ => return None,
    })
}

/// A text as C++'s `std::quoted` reads it: inside double quotes with `\"` and `\\` escapes,
/// or else the first word.
fn quoted(rest: &str) -> Result<String, String> {
    let Some(body) = rest.strip_prefix('"') else {
        return Ok(rest.split_whitespace().next().unwrap_or("").to_string());
    };
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Ok(out),
            '\\' => out.push(chars.next().ok_or("unterminated text")?),
            c => out.push(c),
        }
    }
    Err("unterminated text (no closing quote)".into())
}

fn position_op(word: &str, rest: &str) -> Option<Result<DbOp, String>> {
    let none = |op: DbOp| {
        if rest.is_empty() {
            Ok(op)
        } else {
            Err(format!("{word} takes no arguments"))
        }
    };
    Some(match word {
        "YXQUERYDATABASEALL" => none(DbOp::QueryAll),
        "YXQUERYDATABASEALLT" => none(DbOp::QueryAllText),
        "YXQUERYDATABASEONE" => none(DbOp::QueryOne),
        "YXQUERYDATABASETEXT" => none(DbOp::QueryText),
        "YXDELETEDATABASEONE" => none(DbOp::DeleteOne),
        "YXSETBESTMOVEDATABASE" => none(DbOp::SetBestMove),
        "YXCLEARBESTMOVEDATABASE" => none(DbOp::ClearBestMove),
        "YXEDITTVDDATABASE" => {
            let nums: Result<Vec<i64>, String> = rest.split_whitespace().map(parse_int).collect();
            match nums {
                Ok(n) if n.len() == 4 => Ok(DbOp::EditTvd {
                    mask: n[0],
                    label: n[1],
                    value: n[2],
                    depth: n[3],
                }),
                Ok(n) => Err(format!(
                    "{word} takes mask label value depth, got {} numbers",
                    n.len()
                )),
                Err(e) => Err(format!("{word}: {e}")),
            }
        }
        "YXEDITTEXTDATABASE" => quoted(rest)
            .map(DbOp::EditText)
            .map_err(|e| format!("{word}: {e}")),
        "YXEDITLABELDATABASE" => {
            let (at, text) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            parse_coord(at)
                .map(|c| DbOp::EditLabel(c, text.to_string()))
                .map_err(|e| format!("{word}: {e}"))
        }
        "YXDELETEDATABASEALL" => {
            let filter = rest.to_ascii_uppercase();
            if DELETE_FILTERS.contains(&filter.as_str()) {
                Ok(DbOp::DeleteAll(filter))
            } else {
                Err(format!(
                    "{word}: unknown filter {rest:?} (known: NONWL, WL, W, L, WLD, NONWLD)"
                ))
            }
        }
        _ => return None,
    })
}

/// Starts the database command `word` (upper-case, one of [`WORDS`]) with the rest of its line.
pub(super) fn start(word: &str, rest: &str) -> Start {
    let no_args = |cmd: Command| {
        Start::Done(if rest.is_empty() {
            cmd
        } else {
            Command::Error(format!("{word} takes no arguments"))
        })
    };
    match word {
        "YXSAVEDATABASE" => return no_args(Command::DbSave),
        "YXDBCHECK" => return no_args(Command::DbCheck),
        "YXDBFIX" => return no_args(Command::DbFix),
        _ => {}
    }
    if let Some(op) = file_op(word) {
        return if rest.is_empty() {
            Start::Body(DbBody::Path {
                word: word.to_string(),
                op,
            })
        } else {
            Start::Done(Command::DbFile(op, rest.to_string()))
        };
    }
    let op = position_op(word, rest).unwrap_or_else(|| Err(format!("{word}: not a database word")));
    Start::Body(DbBody::Moves {
        word: word.to_string(),
        op,
        moves: Vec::new(),
    })
}

impl DbBody {
    /// Whether the next line is the path itself (not a move nor `DONE`).
    pub(super) fn wants_path(&self) -> bool {
        matches!(self, DbBody::Path { .. })
    }

    /// The command word, for the messages about an unfinished body.
    pub(super) fn word(&self) -> &str {
        match self {
            DbBody::Moves { word, .. } | DbBody::Path { word, .. } => word,
        }
    }

    /// Takes one move line of a position command.
    pub(super) fn line(&mut self, line: &str, max: usize) {
        let DbBody::Moves { op, moves, .. } = self else {
            return;
        };
        if op.is_err() {
            return;
        }
        // `X,Y` as Yixin-Board sends it, or `X,Y,F` as a board body has it.
        let coord = parse_coord(line).or_else(|e| match line.rsplit_once(',') {
            Some((xy, f)) if parse_int(f).is_ok() => parse_coord(xy),
            _ => Err(e),
        });
        match coord {
            Ok(_) if moves.len() >= max => *op = Err(format!("more than {max} moves")),
            Ok(c) => moves.push(c),
            Err(e) => *op = Err(e),
        }
    }

    /// Marks the body as spoilt by a line too long to keep.
    pub(super) fn too_long(&mut self) {
        if let DbBody::Moves { op, .. } = self {
            *op = Err("line too long".into());
        }
    }

    /// The command, at `DONE` (or, for a file command, at its path line).
    pub(super) fn finish(self, path_line: &str) -> Command {
        match self {
            DbBody::Path { word, op } => {
                let path = path_line.trim();
                if path.is_empty() {
                    Command::Error(format!("{word}: missing path"))
                } else {
                    Command::DbFile(op, path.to_string())
                }
            }
            DbBody::Moves { word, op, moves } => match op {
                Ok(op) => Command::DbPosition(op, moves),
                Err(e) if e.starts_with(&word) => Command::Error(format!("{e}; nothing done")),
                Err(e) => Command::Error(format!("{word}: {e}; nothing done")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Parser;
    use super::*;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    fn feed_all(lines: &[&str]) -> Vec<Command> {
        let mut p = Parser::new();
        let out: Vec<Command> = lines.iter().flat_map(|l| p.feed(l)).collect();
        assert!(!p.in_body(), "{lines:?}");
        out
    }

    #[test]
    fn position_commands_collect_their_moves() {
        assert_eq!(
            feed_all(&["yxquerydatabaseall", "7,7", "8,8,1", "done"]),
            vec![Command::DbPosition(DbOp::QueryAll, vec![c(7, 7), c(8, 8)])]
        );
        assert_eq!(
            feed_all(&["YXQUERYDATABASEONE", "DONE"]),
            vec![Command::DbPosition(DbOp::QueryOne, vec![])]
        );
        assert_eq!(
            feed_all(&["yxedittvddatabase 1 87 0 0", "7,7", "done"]),
            vec![Command::DbPosition(
                DbOp::EditTvd {
                    mask: 1,
                    label: 87,
                    value: 0,
                    depth: 0
                },
                vec![c(7, 7)]
            )]
        );
        assert_eq!(
            feed_all(&["yxedittextdatabase \"say \\\"hi\\\" now\"", "done"]),
            vec![Command::DbPosition(
                DbOp::EditText("say \"hi\" now".into()),
                vec![]
            )]
        );
        assert_eq!(
            feed_all(&["yxeditlabeldatabase 3,4 A b", "done"]),
            vec![Command::DbPosition(
                DbOp::EditLabel(c(3, 4), "A b".into()),
                vec![]
            )]
        );
        assert_eq!(
            feed_all(&["yxdeletedatabaseall nonwl", "done"]),
            vec![Command::DbPosition(DbOp::DeleteAll("NONWL".into()), vec![])]
        );
    }

    #[test]
    fn file_commands_take_the_path_on_their_line_or_the_next() {
        assert_eq!(
            feed_all(&["yxsetdatabase", "C:\\My Games\\a b.db"]),
            vec![Command::DbFile(
                DbFileOp::Set,
                "C:\\My Games\\a b.db".into()
            )]
        );
        assert_eq!(
            feed_all(&["YXDBTOTXT /tmp/x.txt"]),
            vec![Command::DbFile(DbFileOp::ToTxt, "/tmp/x.txt".into())]
        );
        assert_eq!(feed_all(&["yxdbcheck"]), vec![Command::DbCheck]);
        assert_eq!(feed_all(&["yxdbfix"]), vec![Command::DbFix]);
        assert_eq!(feed_all(&["yxsavedatabase"]), vec![Command::DbSave]);
        assert!(matches!(&feed_all(&["yxdbfix now"])[0], Command::Error(_)));
    }

    #[test]
    fn malformed_database_commands_are_refused_whole() {
        for lines in [
            &["yxedittvddatabase 1 2 3", "done"][..],
            &["yxedittvddatabase 1 x 0 0", "done"],
            &["yxeditlabeldatabase 3 text", "done"],
            &["yxedittextdatabase \"open", "done"],
            &["yxdeletedatabaseall sometimes", "done"],
            &["yxquerydatabaseone 5", "done"],
            &["yxquerydatabaseall", "7,7", "what", "done"],
        ] {
            let out = feed_all(lines);
            assert!(
                matches!(&out[..], [Command::Error(e)] if e.contains("nothing done")),
                "{lines:?} gave {out:?}"
            );
        }
        // Another command word ends an unfinished body.
        let out = feed_all(&["yxquerydatabaseall", "7,7", "yxdbcheck"]);
        assert!(matches!(&out[0], Command::Error(e) if e.contains("YXQUERYDATABASEALL")));
        assert_eq!(out[1], Command::DbCheck);
    }
}
