//! The eight symmetries of a square board and canonical position keys.
//!
//! A position is keyed by its set of stones with colours relative to black (so a position set up
//! through `BOARD`, with no move order, keys the same as one reached by play). The canonical key is
//! the smallest of the eight transformed keys; [`canonical`] also returns which transform produced
//! it, so that a move stored in the canonical frame can be mapped back with [`Symmetry::inverse`].

use crate::game::board::{Board, Color, Pos};

/// One of the eight board symmetries (the dihedral group of the square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(pub u8);

impl Symmetry {
    /// All eight: identity, three rotations, and those four mirrored.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// Maps (x, y) on a board of side `size`: mirror x first when bit 2 is set, then rotate by
    /// 90 degrees `self.0 & 3` times.
    pub fn apply_xy(self, x: usize, y: usize, size: usize) -> (usize, usize) {
        let n = size - 1;
        let (mut x, mut y) = if self.0 & 4 != 0 { (n - x, y) } else { (x, y) };
        for _ in 0..(self.0 & 3) {
            (x, y) = (n - y, x);
        }
        (x, y)
    }

    /// Maps a point.
    pub fn apply(self, p: Pos, size: usize) -> Pos {
        let (x, y) = self.apply_xy(p.x(), p.y(), size);
        Pos::new(x, y)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        *Symmetry::ALL
            .iter()
            .find(|s| {
                // Checking two asymmetric points on a 5x5 board identifies a symmetry.
                [(1, 0), (2, 1)].iter().all(|&(x, y)| {
                    let (a, b) = self.apply_xy(x, y, 5);
                    s.apply_xy(a, b, 5) == (x, y)
                })
            })
            .expect("every symmetry has an inverse")
    }
}

/// A position key: sorted (cell index, colour) pairs, colour 0 = black, 1 = white.
pub type Key = Vec<(u16, u8)>;

/// The key of `stones` transformed by `sym`.
pub fn key_of(stones: &[(Pos, Color)], size: usize, sym: Symmetry) -> Key {
    let mut k: Key = stones
        .iter()
        .map(|&(p, c)| (sym.apply(p, size).0, c.index() as u8))
        .collect();
    k.sort_unstable();
    k
}

/// The canonical key of `stones` and the symmetry that maps the position onto it.
pub fn canonical(stones: &[(Pos, Color)], size: usize) -> (Key, Symmetry) {
    Symmetry::ALL
        .iter()
        .map(|&s| (key_of(stones, size, s), s))
        .min_by(|a, b| a.0.cmp(&b.0))
        .expect("eight symmetries")
}

/// The canonical key of `stones` and every symmetry that maps the position onto it (more than
/// one when the position is itself symmetric).
pub fn canonical_all(stones: &[(Pos, Color)], size: usize) -> (Key, Vec<Symmetry>) {
    let keyed: Vec<(Key, Symmetry)> = Symmetry::ALL
        .iter()
        .map(|&s| (key_of(stones, size, s), s))
        .collect();
    let min = keyed.iter().map(|(k, _)| k).min().expect("eight").clone();
    let syms = keyed
        .into_iter()
        .filter(|(k, _)| *k == min)
        .map(|(_, s)| s)
        .collect();
    (min, syms)
}

/// The symmetries that map `board`'s position onto itself (the identity always among them).
/// Two moves are copies of each other on this board when one of these maps one onto the other.
pub fn stabilizer(board: &Board) -> Vec<Symmetry> {
    let stones = stones_of(board);
    let size = board.size();
    let own = key_of(&stones, size, Symmetry::IDENTITY);
    Symmetry::ALL
        .into_iter()
        .filter(|&s| key_of(&stones, size, s) == own)
        .collect()
}

/// Whether `a` and `b` are the same move up to a symmetry that keeps `board`'s position
/// (`syms`, from [`stabilizer`]).
pub fn same_up_to(syms: &[Symmetry], a: Pos, b: Pos, size: usize) -> bool {
    syms.iter().any(|s| s.apply(a, size) == b)
}

/// The stones of a board with their colours.
pub fn stones_of(board: &Board) -> Vec<(Pos, Color)> {
    let mut v: Vec<(Pos, Color)> = board
        .stones(Color::Black)
        .iter()
        .map(|p| (p, Color::Black))
        .collect();
    v.extend(board.stones(Color::White).iter().map(|p| (p, Color::White)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_distinct_symmetries_with_inverses() {
        let size = 15;
        let p = (2, 5);
        let images: std::collections::HashSet<_> = Symmetry::ALL
            .iter()
            .map(|s| s.apply_xy(p.0, p.1, size))
            .collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            let (a, b) = s.apply_xy(p.0, p.1, size);
            assert_eq!(s.inverse().apply_xy(a, b, size), p);
        }
        assert_eq!(Symmetry::IDENTITY.apply_xy(3, 4, size), (3, 4));
    }

    #[test]
    fn stabilizer_of_a_diagonal_position_is_its_mirror() {
        // Black at the centre, white diagonally next to it: only the identity and the mirror
        // in that diagonal keep the position.
        let mut b = Board::new(15);
        b.play(Pos::new(7, 7)).unwrap();
        b.play(Pos::new(8, 8)).unwrap();
        let syms = stabilizer(&b);
        assert_eq!(syms.len(), 2, "{syms:?}");
        assert!(syms.contains(&Symmetry::IDENTITY));
        assert!(same_up_to(&syms, Pos::new(7, 9), Pos::new(9, 7), 15));
        assert!(!same_up_to(&syms, Pos::new(7, 9), Pos::new(5, 7), 15));
        assert_eq!(stabilizer(&Board::new(15)).len(), 8);
        b.play(Pos::new(2, 9)).unwrap();
        assert_eq!(stabilizer(&b), vec![Symmetry::IDENTITY]);
    }

    #[test]
    fn canonical_key_is_the_same_for_all_transforms() {
        let size = 15;
        let stones = vec![
            (Pos::new(7, 7), Color::Black),
            (Pos::new(8, 6), Color::White),
            (Pos::new(9, 9), Color::Black),
        ];
        let (k0, _) = canonical(&stones, size);
        for s in Symmetry::ALL {
            let moved: Vec<_> = stones.iter().map(|&(p, c)| (s.apply(p, size), c)).collect();
            let (k, t) = canonical(&moved, size);
            assert_eq!(k, k0);
            assert_eq!(key_of(&moved, size, t), k0);
        }
    }
}
