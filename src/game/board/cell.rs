//! Cells and colours: the board sizes, the one 32-column stride every cell index uses ([`Pos`]),
//! the two colours and the four line directions.

use std::fmt;

/// Largest supported board side.
pub const MAX_SIZE: usize = 32;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Row stride of every cell index.
pub const STRIDE: usize = 32;
/// Number of cell indices (the full 32x32 grid).
pub const CELLS: usize = STRIDE * STRIDE;

/// A stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: the index into per-colour tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A cell index: `y * 32 + x`. Compact (two bytes) so that move lists and table entries stay small.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// The cell at column `x`, row `y`. Callers check `x, y < size`.
    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos((y * STRIDE + x) as u16)
    }

    /// Column (0-based, from the left).
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE
    }

    /// Row (0-based, from the top).
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE
    }

    /// The index into per-cell tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell `steps` cells away in direction `dir`, if it lies on a board of side `size`.
    #[inline]
    pub fn offset(self, dir: Direction, steps: i32, size: usize) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        let x = self.x() as i32 + dx * steps;
        let y = self.y() as i32 + dy * steps;
        if x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// Chebyshev (king-move) distance.
    #[inline]
    pub fn chebyshev(self, other: Pos) -> usize {
        self.x()
            .abs_diff(other.x())
            .max(self.y().abs_diff(other.y()))
    }

    /// Whether `self` and `other` share a row, column or diagonal at most `reach` steps apart.
    #[inline]
    pub fn on_line_within(self, other: Pos, reach: usize) -> bool {
        let (dx, dy) = (self.x().abs_diff(other.x()), self.y().abs_diff(other.y()));
        (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
    }
}

impl fmt::Display for Pos {
    /// Protocol form `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// One of the four line directions. Each line is walked both ways, so four directions cover all
/// eight neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a row: (+1, 0).
    Horizontal = 0,
    /// Along a column: (0, +1).
    Vertical = 1,
    /// Down-right: (+1, +1).
    Diagonal = 2,
    /// Down-left: (-1, +1).
    AntiDiagonal = 3,
}

impl Direction {
    /// All four directions, in index order.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The (dx, dy) step.
    #[inline]
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (-1, 1),
        }
    }

    /// The step in cell indices.
    #[inline]
    pub fn stride(self) -> usize {
        match self {
            Direction::Horizontal => 1,
            Direction::Vertical => STRIDE,
            Direction::Diagonal => STRIDE + 1,
            Direction::AntiDiagonal => STRIDE - 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_line_within_follows_rows_columns_and_diagonals() {
        let c = Pos::new(7, 7);
        assert!(c.on_line_within(Pos::new(11, 7), 4)); // row
        assert!(c.on_line_within(Pos::new(7, 3), 4)); // column
        assert!(c.on_line_within(Pos::new(3, 11), 4)); // anti-diagonal
        assert!(!c.on_line_within(Pos::new(12, 7), 4)); // too far
        assert!(!c.on_line_within(Pos::new(8, 9), 4)); // a knight's move: no line
        assert!(c.on_line_within(c, 0));
    }
}
