//! The 26 classical three-stone openings, found by enumeration rather than typed in.
//!
//! Black's first stone is in the centre; white's is next to it, orthogonally (a *direct*
//! opening) or diagonally (an *indirect* one); black's second stone is anywhere empty in the
//! 5x5 box around the centre. Counting those positions up to the eight board symmetries gives
//! 13 direct and 13 indirect classes: the 26 openings of renju theory.

use super::symmetry::{canonical, Key};
use super::{BookFile, CoordinateSystem, OpeningLine, RuleNames};
use crate::game::board::{Color, Pos};
use std::collections::BTreeMap;

/// Whether a classical opening starts with white's stone beside or diagonal to the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// White orthogonally adjacent to the centre.
    Direct,
    /// White diagonally adjacent to the centre.
    Indirect,
}

/// One classical opening in a fixed orientation: white above (direct) or above-right (indirect)
/// of the centre.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicOpening {
    /// Its family.
    pub family: Family,
    /// The three stones: black centre, white, black.
    pub moves: [Pos; 3],
}

/// Enumerates the classical openings on a board of side `size` (at least 5), each class
/// represented by its first member in row-major order of black's second stone.
pub fn classic_openings(size: usize) -> Vec<ClassicOpening> {
    assert!(size >= 5);
    let c = (size / 2) as i64;
    let centre = Pos::new(c as usize, c as usize);
    let mut seen: BTreeMap<Key, ()> = BTreeMap::new();
    let mut out = Vec::new();
    for (family, (wx, wy)) in [(Family::Direct, (0, -1)), (Family::Indirect, (1, -1))] {
        let white = Pos::new((c + wx) as usize, (c + wy) as usize);
        for dy in -2..=2i64 {
            for dx in -2..=2i64 {
                let third = Pos::new((c + dx) as usize, (c + dy) as usize);
                if third == centre || third == white {
                    continue;
                }
                let stones = [
                    (centre, Color::Black),
                    (white, Color::White),
                    (third, Color::Black),
                ];
                let (key, _) = canonical(&stones, size);
                if seen.insert(key, ()).is_none() {
                    out.push(ClassicOpening {
                        family,
                        moves: [centre, white, third],
                    });
                }
            }
        }
    }
    out
}

/// The classical openings as a book file for freestyle, standard and renju, named `D1`..`D13`
/// and `I1`..`I13`.
pub fn classic_book(size: usize) -> BookFile {
    let mut file = BookFile {
        id: format!("classic-26-{size}x{size}"),
        rules: RuleNames::Many(vec!["freestyle".into(), "standard".into(), "renju".into()]),
        size,
        coordinate_system: CoordinateSystem::CenterRelativeXY,
        openings: Vec::new(),
    };
    let (mut d, mut i) = (0, 0);
    for o in classic_openings(size) {
        let name = match o.family {
            Family::Direct => {
                d += 1;
                format!("D{d}")
            }
            Family::Indirect => {
                i += 1;
                format!("I{i}")
            }
        };
        let coordinates = o.moves.iter().map(|p| file.from_xy(p.x(), p.y())).collect();
        file.openings.push(OpeningLine {
            name: Some(name),
            coordinates,
            weight: None,
        });
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_thirteen_direct_and_thirteen_indirect() {
        let all = classic_openings(15);
        assert_eq!(all.len(), 26);
        assert_eq!(
            all.iter().filter(|o| o.family == Family::Direct).count(),
            13
        );
        assert_eq!(
            all.iter().filter(|o| o.family == Family::Indirect).count(),
            13
        );
    }
}
