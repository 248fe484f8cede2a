//! Text formats for positions: the puzzle and opening lines of `../shared/data` (see its README).
//!
//! - Puzzle: `size rule side x,y,c x,y,c ... | x,y x,y ...` — `rule` is freestyle, standard or
//!   renju (caro accepted too), `side` (b or w) is to move, `c` is b or w; answers after `|`.
//! - Opening: `x,y x,y ...`, absolute, first stone black, colours alternating.
//!
//! Parsing only parses: it checks syntax and coordinates against the size but plays nothing;
//! [`Puzzle::board`] and [`opening_board`] build boards and report occupied points.

use crate::game::board::{Board, Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::game::rules::Rule;

/// One puzzle or benchmark position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Board side.
    pub size: usize,
    /// The rule the puzzle is set under.
    pub rule: Rule,
    /// The side to move.
    pub side: Color,
    /// Stones in the order given.
    pub stones: Vec<(Pos, Color)>,
    /// The listed answers (may be empty).
    pub answers: Vec<Pos>,
}

fn parse_xy(tok: &str, size: usize) -> Result<Pos, String> {
    let mut it = tok.split(',');
    let (Some(x), Some(y)) = (it.next(), it.next()) else {
        return Err(format!("bad point {tok:?}"));
    };
    let x: usize = x.trim().parse().map_err(|_| format!("bad x in {tok:?}"))?;
    let y: usize = y.trim().parse().map_err(|_| format!("bad y in {tok:?}"))?;
    if x >= size || y >= size {
        return Err(format!("point {tok:?} outside a {size} board"));
    }
    Ok(Pos::new(x, y))
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s {
        "b" | "B" | "x" | "X" | "1" => Ok(Color::Black),
        "w" | "W" | "o" | "O" | "2" => Ok(Color::White),
        _ => Err(format!("bad colour {s:?}")),
    }
}

impl Puzzle {
    /// Parses one puzzle line. Comment (`#`) and blank lines give `Ok(None)`.
    pub fn parse(line: &str) -> Result<Option<Puzzle>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let (head, answers) = match line.split_once('|') {
            Some((h, a)) => (h, a),
            None => (line, ""),
        };
        let mut toks = head.split_whitespace();
        let size: usize = toks
            .next()
            .ok_or("missing size")?
            .parse()
            .map_err(|_| "bad size".to_string())?;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!("size {size} unsupported"));
        }
        let rule_tok = toks.next().ok_or("missing rule")?;
        let rule = Rule::from_name(rule_tok).ok_or_else(|| format!("bad rule {rule_tok:?}"))?;
        let side = parse_color(toks.next().ok_or("missing side")?)?;
        let mut stones = Vec::new();
        for tok in toks {
            let (xy, c) = tok
                .rsplit_once(',')
                .ok_or_else(|| format!("bad stone {tok:?}"))?;
            stones.push((parse_xy(xy, size)?, parse_color(c)?));
        }
        let answers = answers
            .split_whitespace()
            .map(|t| parse_xy(t, size))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Puzzle {
            size,
            rule,
            side,
            stones,
            answers,
        }))
    }

    /// The position with the stones placed in order and the puzzle's side to move.
    pub fn board(&self) -> Result<Board, String> {
        let mut b = Board::new(self.size);
        for &(p, c) in &self.stones {
            b.put(p, c).map_err(|e| format!("stone {p}: {e}"))?;
        }
        b.set_side_to_move(self.side);
        Ok(b)
    }

    /// Back to the line format.
    pub fn to_line(&self) -> String {
        let c = |c: Color| if c == Color::Black { "b" } else { "w" };
        let mut s = format!("{} {} {}", self.size, self.rule, c(self.side));
        for &(p, col) in &self.stones {
            s.push_str(&format!(" {p},{}", c(col)));
        }
        s.push_str(" |");
        for a in &self.answers {
            s.push_str(&format!(" {a}"));
        }
        s
    }
}

/// Parses every puzzle of a file's text, with 1-based line numbers in errors.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(p) = Puzzle::parse(line).map_err(|e| format!("line {}: {e}", i + 1))? {
            out.push(p);
        }
    }
    Ok(out)
}

/// Parses an opening line (`x,y x,y ...`, absolute). Comment and blank lines give `Ok(None)`.
pub fn parse_opening(line: &str, size: usize) -> Result<Option<Vec<Pos>>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    line.split_whitespace()
        .map(|t| parse_xy(t, size))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The board after an opening's stones, black first and alternating.
pub fn opening_board(moves: &[Pos], size: usize) -> Result<Board, String> {
    let mut b = Board::new(size);
    for &p in moves {
        b.play(p).map_err(|e| format!("opening stone {p}: {e}"))?;
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_round_trip() {
        let line = "15 renju b 7,7,b 8,8,w 7,8,b | 7,9 7,6";
        let p = Puzzle::parse(line).unwrap().unwrap();
        assert_eq!(p.size, 15);
        assert_eq!(p.rule, Rule::Renju);
        assert_eq!(p.side, Color::Black);
        assert_eq!(p.stones.len(), 3);
        assert_eq!(p.answers, vec![Pos::new(7, 9), Pos::new(7, 6)]);
        assert_eq!(Puzzle::parse(&p.to_line()).unwrap().unwrap(), p);
        assert!(Puzzle::parse("# c").unwrap().is_none());
        assert!(Puzzle::parse("15 renju b 15,0,b |").is_err());
        assert!(Puzzle::parse("15 chess b |").is_err());
    }

    #[test]
    fn opening_lines() {
        let o = parse_opening("7,7 8,8 6,8", 15).unwrap().unwrap();
        let b = opening_board(&o, 15).unwrap();
        assert_eq!(b.at(Pos::new(8, 8)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
        assert!(opening_board(&[Pos::new(1, 1), Pos::new(1, 1)], 15).is_err());
    }
}
