//! Game records and the match summary on disk.
//!
//! Games are written in Piskvork's PSQ format, which Gomocup publishes its games in and which
//! the usual viewers open: a header `Piskvorky SxS, 11:11, 0`, then one line per stone
//! `x,y,ms` with 1-based coordinates and the move time in milliseconds (0 for opening
//! stones), then `-1`, the two engine names (black first) and a final `-1` line. The result is
//! not part of PSQ; it is in the JSON summary, keyed by the game's file name.

use super::game::GameRecord;
use crate::game::board::{Pos, MAX_SIZE, MIN_SIZE};
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

/// A game read back from its PSQ text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqGame {
    /// Board side.
    pub size: usize,
    /// Every stone in the order played, black first (opening stones included).
    pub stones: Vec<Pos>,
    /// Black's engine name, when the trailer names the engines.
    pub black: Option<String>,
    /// White's engine name, when the trailer names the engines.
    pub white: Option<String>,
}

/// Reads a game written by [`psq`] (or by Piskvork): the header's board side, the stones up to
/// the first `-1`, and the two names after it when present. Stones outside the board, a bad
/// line or a missing header are errors; the move times are ignored.
pub fn parse_psq(text: &str) -> Result<PsqGame, String> {
    let mut lines = text.lines().map(str::trim);
    let header = lines.next().ok_or("empty PSQ")?;
    let size = header
        .strip_prefix("Piskvorky ")
        .and_then(|r| r.split(['x', ',']).next())
        .and_then(|n| n.trim().parse::<usize>().ok())
        .filter(|&n| (MIN_SIZE..=MAX_SIZE).contains(&n))
        .ok_or_else(|| format!("bad PSQ header {header:?}"))?;
    let mut stones = Vec::new();
    for l in lines.by_ref() {
        if l == "-1" {
            break;
        }
        let mut it = l.split(',').map(|t| t.trim().parse::<usize>());
        let (Some(Ok(x)), Some(Ok(y))) = (it.next(), it.next()) else {
            return Err(format!("bad PSQ stone line {l:?}"));
        };
        if !(1..=size).contains(&x) || !(1..=size).contains(&y) {
            return Err(format!("PSQ stone {l:?} outside a {size} board"));
        }
        stones.push(Pos::new(x - 1, y - 1));
    }
    let mut names = lines
        .filter(|l| !l.is_empty() && *l != "-1")
        .map(String::from);
    Ok(PsqGame {
        size,
        stones,
        black: names.next(),
        white: names.next(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::arena::{MoveRecord, Reason};
    use crate::game::board::Color;
    use crate::game::rules::Rule;

    #[test]
    fn psq_reads_back_what_it_writes() {
        let g = GameRecord {
            size: 15,
            opening: vec![Pos::new(7, 7), Pos::new(8, 8)],
            moves: vec![
                MoveRecord {
                    pos: Pos::new(0, 14),
                    color: Color::Black,
                    ms: 12,
                },
                MoveRecord {
                    pos: Pos::new(14, 0),
                    color: Color::White,
                    ms: 250,
                },
            ],
            black: "base".into(),
            white: "rapfi".into(),
            rule: Rule::Freestyle,
            winner: None,
            reason: Reason::Five,
            detail: String::new(),
            messages: [Vec::new(), Vec::new()],
        };
        let back = parse_psq(&psq(&g)).unwrap();
        assert_eq!(back.size, 15);
        assert_eq!(
            back.stones,
            vec![
                Pos::new(7, 7),
                Pos::new(8, 8),
                Pos::new(0, 14),
                Pos::new(14, 0)
            ]
        );
        assert_eq!(back.black.as_deref(), Some("base"));
        assert_eq!(back.white.as_deref(), Some("rapfi"));
    }

    #[test]
    fn psq_rejects_what_is_not_a_game() {
        assert!(parse_psq("").is_err());
        assert!(parse_psq("hello\n1,1,0\n-1\n").is_err());
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n-1\n").is_err());
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n3;4\n-1\n").is_err());
        let bare = parse_psq("Piskvorky 20x20, 11:11, 0\n10,10,0\n-1\n").unwrap();
        assert_eq!(bare.size, 20);
        assert_eq!(bare.stones, vec![Pos::new(9, 9)]);
        assert_eq!(bare.black, None);
    }
}
