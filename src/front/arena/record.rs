//! Game records and the match summary on disk.
//!
//! Games are written in Piskvork's PSQ format, which Gomocup publishes its games in and which
//! the usual viewers open: a header `Piskvorky SxS, 11:11, 0`, then one line per stone
//! `x,y,ms` with 1-based coordinates and the move time in milliseconds (0 for opening
//! stones), then `-1`, the two engine names (black first) and a final `-1` line. The result is
//! not part of PSQ; it is in the JSON summary, keyed by the game's file name.

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
