//! Openings for matches and the seeded schedule that pairs them with colours.
//!
//! Two file formats are read (see `../shared/data/README.md`):
//! - absolute, ours: `x,y x,y ...`, 0-based, first stone black;
//! - offset from the centre, as Piskvork, the Gomocup judge and c-gomoku-cli write them:
//!   `dx,dy, dx,dy, ...`, placed at `(size/2 + dx, size/2 + dy)` with `size/2` rounded down.
//!
//! [`OpeningFormat::Auto`] picks offset when any line has a negative number or a comma
//! directly after a pair (`0,0, 1,0`), which the absolute format never has.
//!
//! Every opening is checked by replaying it through the referee: stones on the board, on empty
//! points, no renju forbidden point for black, and no five. Openings that do not fit the board
//! are skipped (the count is reported), since the shared files mix 15x15 and 20x20 sets.

use crate::game::board::{Board, Color, Pos};
use crate::game::rng::SplitMix64;
use crate::game::rules::{play_checked, MoveOutcome, Rule};

/// How to read an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OpeningFormat {
    /// Decide per file (see the module docs).
    #[default]
    Auto,
    /// Absolute 0-based `x,y` pairs.
    Absolute,
    /// Offsets from the centre.
    Offset,
}

impl OpeningFormat {
    /// Parses `auto`, `absolute` (or `pos`) and `offset`.
    pub fn from_name(s: &str) -> Option<OpeningFormat> {
        match s {
            "auto" => Some(OpeningFormat::Auto),
            "absolute" | "abs" => Some(OpeningFormat::Absolute),
            "offset" => Some(OpeningFormat::Offset),
            _ => None,
        }
    }
}

/// Openings read from a file, and how many lines were skipped because they do not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSet {
    /// The usable openings, in file order.
    pub openings: Vec<Vec<Pos>>,
    /// Lines that parsed but do not fit this board or rule.
    pub skipped: usize,
    /// The format used.
    pub format: OpeningFormat,
}

fn is_offset_text(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .any(|l| l.contains('-') || l.contains(", ") || l.ends_with(','))
}

/// Parses the integer pairs of one line; `None` for blank and comment lines.
fn pairs(line: &str) -> Result<Option<Vec<(i64, i64)>>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let nums: Vec<i64> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>().map_err(|_| format!("bad number {t:?}")))
        .collect::<Result<_, _>>()?;
    if nums.len() % 2 != 0 {
        return Err("odd number of coordinates".into());
    }
    Ok(Some(nums.chunks(2).map(|c| (c[0], c[1])).collect()))
}

/// Replays `moves` (black first) through the referee; `None` if any stone is off the board,
/// on an occupied or forbidden point, or makes five.
pub fn check_opening(moves: &[Pos], size: usize, rule: Rule) -> Option<Board> {
    let mut b = Board::new(size);
    for (i, &p) in moves.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        match play_checked(&mut b, p, c, rule) {
            Ok(MoveOutcome::Continue) => {}
            _ => return None,
        }
    }
    Some(b)
}

/// Parses an openings file's text for a `size` board under `rule`.
pub fn parse_openings(
    text: &str,
    format: OpeningFormat,
    size: usize,
    rule: Rule,
) -> Result<OpeningSet, String> {
    let format = match format {
        OpeningFormat::Auto if is_offset_text(text) => OpeningFormat::Offset,
        OpeningFormat::Auto => OpeningFormat::Absolute,
        f => f,
    };
    let centre = (size / 2) as i64;
    let mut set = OpeningSet {
        openings: Vec::new(),
        skipped: 0,
        format,
    };
    for (i, line) in text.lines().enumerate() {
        let Some(ps) = pairs(line).map_err(|e| format!("line {}: {e}", i + 1))? else {
            continue;
        };
        let mut moves = Vec::with_capacity(ps.len());
        let mut fits = true;
        for (x, y) in ps {
            let (x, y) = match format {
                OpeningFormat::Offset => (centre + x, centre + y),
                _ => (x, y),
            };
            if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
                fits = false;
                break;
            }
            moves.push(Pos::new(x as usize, y as usize));
        }
        if fits && check_opening(&moves, size, rule).is_some() {
            set.openings.push(moves);
        } else {
            set.skipped += 1;
        }
    }
    Ok(set)
}

/// A random opening of `stones` stones within `radius` of the centre (Chebyshev distance),
/// legal under `rule` and without a five. Deterministic in `rng`.
pub fn random_opening(
    rng: &mut SplitMix64,
    stones: usize,
    radius: usize,
    size: usize,
    rule: Rule,
) -> Vec<Pos> {
    let c = size / 2;
    let lo = c.saturating_sub(radius);
    let hi = (c + radius).min(size - 1);
    let span = (hi - lo + 1) as u64;
    let cells = (span * span) as usize;
    let stones = stones.min(cells.saturating_sub(1));
    'retry: loop {
        let mut b = Board::new(size);
        let mut moves = Vec::with_capacity(stones);
        for i in 0..stones {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut placed = false;
            for _ in 0..(4 * cells) {
                let p = Pos::new(lo + rng.below(span) as usize, lo + rng.below(span) as usize);
                if let Ok(MoveOutcome::Continue) = play_checked(&mut b, p, colour, rule) {
                    moves.push(p);
                    placed = true;
                    break;
                }
            }
            if !placed {
                continue 'retry;
            }
        }
        return moves;
    }
}
