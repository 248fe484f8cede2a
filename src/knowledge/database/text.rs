//! The database's text form (`yxdbtotxt` writes it, `yxtxttodb` reads it back) and the
//! positions form (`yxdbtopos`).
//!
//! # Text form, version 1
//! A first line `bango-database-text 1`; lines starting with `#` and empty lines are ignored;
//! then one record a line, nine fields separated by TAB:
//!
//! | field | content |
//! |---|---|
//! | rule | `freestyle`, `standard`, `renju` or `caro` |
//! | board | `WxH`, e.g. `15x15` |
//! | to move | `black` or `white` |
//! | stones | space-separated `b7,7` / `w8,6` (zero-based column,row), or `-` for none |
//! | value | `-` (none), `win`, `loss`, `draw`, or `score/depth` e.g. `-35/12`, for the side to move |
//! | best move | `x,y`, or `-` |
//! | written at | seconds since the Unix epoch |
//! | label | text, escaped |
//! | text | text, escaped |
//!
//! Escapes in label and text: `\\`, `\t`, `\n`, `\r`. Stones and best move are in the
//! canonical frame when written; any frame is accepted when read.
//!
//! # Positions form
//! One position a line as a Gomocup opening: `dx,dy` offsets from the centre, comma-separated,
//! black's and white's stones alternating from black (the order within a colour is not a game
//! order: the database keeps none).

use super::key::Position;
use super::record::{Record, StoredPosition, Value};
use crate::game::board::{Color, Pos, MAX_SIZE};
use crate::game::rules::Rule;

/// The first line of the text form.
pub const HEADER: &str = "bango-database-text 1";

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('t') => '\t',
            Some('n') => '\n',
            Some('r') => '\r',
            other => {
                return Err(format!(
                    "bad escape \\{}",
                    other.map(String::from).unwrap_or_default()
                ))
            }
        });
    }
    Ok(out)
}

fn point(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

fn parse_point(s: &str) -> Result<Pos, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("bad point {s:?}"))?;
    let n = |t: &str| {
        t.trim()
            .parse::<usize>()
            .ok()
            .filter(|&v| v < MAX_SIZE)
            .ok_or_else(|| format!("bad point {s:?}"))
    };
    Ok(Pos::new(n(x)?, n(y)?))
}

/// One record as a line of the text form (no line terminator).
pub fn to_line(s: &StoredPosition) -> String {
    let p = &s.position;
    let r = &s.record;
    let stones = if p.stones.is_empty() {
        "-".to_string()
    } else {
        let mut stones = p.stones.clone();
        stones.sort();
        stones
            .iter()
            .map(|&(q, c)| format!("{}{}", if c == Color::Black { 'b' } else { 'w' }, point(q)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let value = match r.value {
        None => "-".to_string(),
        Some(Value::Win) => "win".into(),
        Some(Value::Loss) => "loss".into(),
        Some(Value::Draw) => "draw".into(),
        Some(Value::Score { score, depth }) => format!("{score}/{depth}"),
    };
    let best = r.best_move.map(point).unwrap_or_else(|| "-".into());
    let to_move = if p.to_move == Color::Black {
        "black"
    } else {
        "white"
    };
    format!(
        "{}\t{}x{}\t{to_move}\t{stones}\t{value}\t{best}\t{}\t{}\t{}",
        p.rule.name(),
        p.width,
        p.height,
        r.written_at,
        escape(&r.label),
        escape(&r.text)
    )
}

/// Parses one record line of the text form.
pub fn parse_line(line: &str) -> Result<StoredPosition, String> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 9 {
        return Err(format!("{} fields (expected 9, TAB-separated)", f.len()));
    }
    let rule = Rule::from_name(f[0]).ok_or_else(|| format!("unknown rule {:?}", f[0]))?;
    let (w, h) = f[1]
        .split_once('x')
        .ok_or_else(|| format!("bad board {:?}", f[1]))?;
    let size = |t: &str| {
        t.parse::<usize>()
            .map_err(|_| format!("bad board {:?}", f[1]))
    };
    let (width, height) = (size(w)?, size(h)?);
    let to_move = match f[2] {
        "black" => Color::Black,
        "white" => Color::White,
        other => return Err(format!("bad side to move {other:?}")),
    };
    let mut stones = Vec::new();
    if f[3] != "-" {
        for tok in f[3].split_whitespace() {
            let colour = match tok.as_bytes().first() {
                Some(b'b') => Color::Black,
                Some(b'w') => Color::White,
                _ => return Err(format!("bad stone {tok:?}")),
            };
            stones.push((parse_point(&tok[1..])?, colour));
        }
    }
    let value = match f[4] {
        "-" => None,
        "win" => Some(Value::Win),
        "loss" => Some(Value::Loss),
        "draw" => Some(Value::Draw),
        v => {
            let bad = || format!("bad value {v:?}");
            let (s, d) = v.split_once('/').ok_or_else(bad)?;
            Some(Value::Score {
                score: s.parse().map_err(|_| bad())?,
                depth: d.parse().map_err(|_| bad())?,
            })
        }
    };
    let best_move = match f[5] {
        "-" => None,
        p => Some(parse_point(p)?),
    };
    let written_at = f[6]
        .parse::<i64>()
        .map_err(|_| format!("bad time {:?}", f[6]))?;
    let position = Position {
        rule,
        width,
        height,
        stones,
        to_move,
    };
    position.validate().map_err(|e| e.to_string())?;
    if best_move.is_some_and(|p| !position.is_empty_at(p)) {
        return Err("best move is not an empty point".into());
    }
    Ok(StoredPosition {
        position,
        record: Record {
            value,
            best_move,
            label: unescape(f[7])?,
            text: unescape(f[8])?,
            written_at,
        },
    })
}

/// Parses a whole text file: every record, or the first error as `line N: reason`.
pub fn parse(text: &str) -> Result<Vec<StoredPosition>, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim_end() == HEADER => {}
        _ => return Err(format!("line 1: not {HEADER:?}")),
    }
    lines
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            parse_line(l.trim_end_matches('\r')).map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect()
}

/// A position as a Gomocup opening line (see the module docs), or `None` when its stone
/// counts cannot alternate from black (more white stones, or two more black).
pub fn to_opening_line(p: &Position) -> Option<String> {
    let mut black: Vec<Pos> = p
        .stones
        .iter()
        .filter(|s| s.1 == Color::Black)
        .map(|s| s.0)
        .collect();
    let mut white: Vec<Pos> = p
        .stones
        .iter()
        .filter(|s| s.1 == Color::White)
        .map(|s| s.0)
        .collect();
    if !(black.len() == white.len() || black.len() == white.len() + 1) || black.is_empty() {
        return None;
    }
    black.sort();
    white.sort();
    let (cx, cy) = ((p.width / 2) as i64, (p.height / 2) as i64);
    let mut parts = Vec::new();
    for (i, &b) in black.iter().enumerate() {
        for q in [Some(b), white.get(i).copied()].into_iter().flatten() {
            parts.push(format!("{},{}", q.x() as i64 - cx, q.y() as i64 - cy));
        }
    }
    Some(parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_through_its_line() {
        let s = StoredPosition {
            position: Position {
                rule: Rule::Renju,
                width: 15,
                height: 15,
                stones: vec![
                    (Pos::new(8, 6), Color::White),
                    (Pos::new(7, 7), Color::Black),
                ],
                to_move: Color::Black,
            },
            record: Record {
                value: Some(Value::Score {
                    score: -35,
                    depth: 12,
                }),
                best_move: Some(Pos::new(9, 9)),
                label: "a\tb".into(),
                text: "line one\nline \\two".into(),
                written_at: 1_700_000_000,
            },
        };
        let line = to_line(&s);
        assert_eq!(
            line,
            "renju\t15x15\tblack\tw8,6 b7,7\t-35/12\t9,9\t1700000000\ta\\tb\tline one\\nline \\\\two"
        );
        assert_eq!(parse_line(&line).unwrap(), s);
        let text = format!("{HEADER}\n# comment\n\n{line}\n");
        assert_eq!(parse(&text).unwrap(), vec![s.clone()]);
        assert_eq!(to_opening_line(&s.position).unwrap(), "0,0, 1,-1");
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(parse("nonsense\n").unwrap_err().starts_with("line 1"));
        let bad = format!(
            "{HEADER}\nrenju\t15x15\tblack\t-\twin\t-\t0\t\t\nrenju\t15x15\tblue\t-\t-\t-\t0\t\t\n"
        );
        assert_eq!(
            parse(&bad).unwrap_err(),
            "line 3: bad side to move \"blue\""
        );
        for (line, why) in [
            ("gomoku9\t15x15\tblack\t-\t-\t-\t0\t\t", "unknown rule"),
            ("renju\t15x15\tblack\tb7,7 w7,7\t-\t-\t0\t\t", "two stones"),
            ("renju\t15x15\tblack\tb7,7\t-\t7,7\t0\t\t", "best move"),
            ("renju\t15x15\tblack\tb16,7\t-\t-\t0\t\t", "off the board"),
            ("renju\t15x15\tblack\t-\t1/x\t-\t0\t\t", "bad value"),
            ("renju\t15x15\tblack\t-\t-\t-\t0\t\\q\t", "bad escape"),
            ("renju\t15x15\tblack", "3 fields"),
        ] {
            let e = parse_line(line).unwrap_err();
            assert!(e.contains(why), "{line:?}: {e}");
        }
    }
}
