//! The evaluation's values: what an empty cell is worth to a colour, from its four directional
//! patterns, and the tempo bonus of the side to move. [`crate::position::Position`] keeps the
//! sums of these values up to date as stones come and go, so evaluating a node is O(1).
//!
//! The value of a cell for a colour is the sum of its four pattern values plus a bonus for its
//! combined threat rung; the evaluation is the side to move's total minus the opponent's, plus
//! a tempo bonus ([`TEMPO`]) for the side about to place a stone (without it scores swing
//! between odd and even depths). Renju suspects for black (possible double three, double four, overline) are valued as
//! worthless: most are forbidden, and a true check is too costly for every update.

use crate::pattern::{combine, Pattern, Threat, THREATS};
use std::sync::OnceLock;

/// Value of one directional pattern for the colour that would make it (index: [`Pattern`]).
pub const PATTERN_VALUE: [i32; 11] = [0, 0, 2, 5, 10, 30, 35, 110, 140, 800, 3000];
/// The side to move's bonus for being about to place a stone.
pub const TEMPO: i32 = 700;
/// Bonus for the combined rung (index: [`Threat`]).
pub const THREAT_BONUS: [i32; THREATS] = [0, 0, 700, 0, 1200, 1500, 0];

/// What an empty cell offers one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CellInfo {
    /// Evaluation contribution.
    pub value: i32,
    /// The rung of the threat ladder a move here reaches.
    pub threat: Threat,
    /// Renju black only: the point may be forbidden and must be checked before use.
    pub suspect: bool,
}

/// What a cell with the four directional patterns `pats` offers (its threat rung, whether it
/// is a renju suspect for black, its value).
pub fn cell_info(pats: &[Pattern; 4], renju_black: bool) -> CellInfo {
    let (threat, suspect) = combine(pats, renju_black);
    if suspect {
        return CellInfo {
            value: 0,
            threat,
            suspect,
        };
    }
    let value = pats.iter().map(|&p| PATTERN_VALUE[p as usize]).sum::<i32>()
        + THREAT_BONUS[threat as usize];
    CellInfo {
        value,
        threat,
        suspect,
    }
}

/// Number of four-pattern combinations: a cell's four patterns as a base-11 number (direction
/// `d` is digit `d`), so that one pattern change is one addition to the code.
pub const CODES: usize = 11 * 11 * 11 * 11;
/// The weight of direction `d` in a combination code.
pub const DIGIT: [i32; 4] = [1, 11, 121, 1331];

/// The [`CellInfo`] of every combination code, for ordinary colours (`[0]`) and renju black
/// (`[1]`, where suspects are marked), computed once: an update looks the info up instead of
/// combining four patterns.
pub fn combination_table(renju_black: bool) -> &'static [CellInfo] {
    static TABLES: [OnceLock<Box<[CellInfo]>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[renju_black as usize].get_or_init(|| {
        (0..CODES)
            .map(|code| {
                let mut pats = [Pattern::Dead; 4];
                for (d, p) in pats.iter_mut().enumerate() {
                    *p = Pattern::ALL[code / DIGIT[d] as usize % 11];
                }
                cell_info(&pats, renju_black)
            })
            .collect()
    })
}
