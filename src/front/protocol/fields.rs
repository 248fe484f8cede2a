//! The fields inside a line: `INFO` keys and their values, numbers as Gomocup sends them,
//! coordinates and `BOARD` body lines. Pure functions of text; [`super::parser`] calls them.

use super::command::{Command, Coord, Info, Owner};
use crate::search::settings::parse_bool;

/// An `INFO` line as a command, from what follows the word: a known key with its value parsed
/// (unknown keys are kept as ignored, malformed values as invalid, never an error line).
pub(super) fn parse_info(rest: &str) -> Command {
    let (key, value) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let key = key.to_ascii_lowercase();
    let bad = |reason: String| {
        Command::Info(Info::Invalid {
            key: key.clone(),
            reason,
        })
    };
    macro_rules! num {
        ($variant:ident) => {
            match parse_info_number(value) {
                Ok(v) => Info::$variant(v),
                Err(e) => return bad(e),
            }
        };
    }
    let info = match key.as_str() {
        "" => return bad("INFO needs a key".into()),
        "timeout_turn" => num!(TimeoutTurn),
        "timeout_match" => num!(TimeoutMatch),
        "time_left" => num!(TimeLeft),
        "max_memory" => num!(MaxMemory),
        "game_type" => num!(GameType),
        "rule" => num!(Rule),
        "max_depth" => num!(MaxDepth),
        "max_node" => num!(MaxNode),
        "thread_num" => num!(ThreadNum),
        "hash_size" => num!(HashSize),
        "show_detail" => num!(ShowDetail),
        // A number as Gomocup sends it (non-zero: on), or the switch words every declared
        // setting takes (`on`, `off`, `true`, ...; `BANGO_PONDER` reads the same).
        "pondering" => match parse_info_number(value) {
            Ok(v) => Info::Pondering(v != 0),
            Err(e) => match parse_bool(value) {
                Ok(on) => Info::Pondering(on),
                Err(_) => return bad(e),
            },
        },
        "usedatabase" | "database_readonly" => {
            let on = match parse_info_number(value) {
                Ok(v) => v != 0,
                Err(e) => return bad(e),
            };
            if key == "usedatabase" {
                Info::UseDatabase(on)
            } else {
                Info::DatabaseReadonly(on)
            }
        }
        "evaluate" => match parse_coord(value) {
            Ok(c) => Info::Evaluate(c),
            Err(e) => return bad(e),
        },
        "folder" => {
            if value.is_empty() {
                return bad("empty path".into());
            }
            Info::Folder(value.to_string())
        }
        _ => Info::Ignored(key),
    };
    Command::Info(info)
}

/// An `INFO` number: optional sign and decimal digits, saturated to the `i64` range (a value
/// beyond it means "as much as possible" or "as little", which the key's clamp then handles).
pub fn parse_info_number(s: &str) -> Result<i64, String> {
    let s = s.trim();
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(if s.is_empty() {
            "missing number".into()
        } else {
            format!("bad number {s:?}")
        });
    }
    Ok(match s.parse::<i64>() {
        Ok(v) => v,
        Err(_) if negative => i64::MIN,
        Err(_) => i64::MAX,
    })
}

pub(super) fn parse_int(s: &str) -> Result<i64, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("missing number".into());
    }
    s.parse::<i64>().map_err(|_| format!("bad number {s:?}"))
}

/// `x,y` with optional spaces around either number.
pub fn parse_coord(s: &str) -> Result<Coord, String> {
    let mut parts = s.split(',');
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("expected X,Y, got {s:?}"));
    };
    Ok(Coord {
        x: parse_int(x)?,
        y: parse_int(y)?,
    })
}

pub(super) fn parse_board_line(s: &str) -> Result<(Coord, Owner), String> {
    let fields: Vec<&str> = s.split(',').collect();
    let [x, y, f] = fields[..] else {
        return Err(format!("expected X,Y,F, got {s:?}"));
    };
    let owner = match parse_int(f)? {
        1 => Owner::Own,
        2 => Owner::Opponent,
        3 => Owner::Marker,
        other => return Err(format!("bad field {other} (1, 2 or 3) in {s:?}")),
    };
    Ok((
        Coord {
            x: parse_int(x)?,
            y: parse_int(y)?,
        },
        owner,
    ))
}
