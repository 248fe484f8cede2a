//! Game records and the match summary on disk.
//!
//! Games are written in Piskvork's PSQ format, which Gomocup publishes its games in and which
//! the usual viewers open: a header `Piskvorky SxS, 11:11, 0`, then one line per stone
//! `x,y,ms` with 1-based coordinates and the move time in milliseconds (0 for opening
//! stones), then `-1`, the two engine names (black first) and a final `-1` line. The result is
//! not part of PSQ; it is in the JSON summary, keyed by the game's file name.
//!
//! JSON is written by hand (a few objects of numbers and strings), escaping per RFC 8259.

use super::game::GameRecord;
use std::fmt::Write as _;

/// The PSQ text of a game.
pub fn psq(g: &GameRecord) -> String {
    let mut s = format!("Piskvorky {0}x{0}, 11:11, 0\n", g.size);
    for p in &g.opening {
        let _ = writeln!(s, "{},{},0", p.x() + 1, p.y() + 1);
    }
    for m in &g.moves {
        let _ = writeln!(s, "{},{},{}", m.pos.x() + 1, m.pos.y() + 1, m.ms);
    }
    let _ = write!(s, "-1\n{}\n{}\n-1\n", g.black, g.white);
    s
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number; non-finite values (an Elo of ±infinity after a clean sweep) become `null`.
pub fn json_num(x: f64) -> String {
    if x.is_finite() {
        let r = (x * 100.0).round() / 100.0;
        format!("{r}")
    } else {
        "null".into()
    }
}
