//! Positions as the database keys them: the stones with their colours, the side to move, the rule
//! and the board's width and height, brought to one canonical frame under the board's symmetries.
//!
//! # Invariants
//! - Two positions that are images of each other under a symmetry that keeps the board's shape
//!   (all eight on a square board, see [`crate::knowledge::book::symmetry`]; on a `w` x `h` board
//!   with `w != h` only the identity, the two mirrors and the half turn) have the same
//!   [`Position::canonical`] key; positions that are not images of each other never do.
//! - The key is the smallest of the transformed stone lists, so it does not depend on the order
//!   the stones were given in (a position set up by `BOARD` keys as one reached by play).
//! - [`Canonical::frame`] maps the caller's frame onto the canonical one; a move stored in the
//!   canonical frame is mapped back with [`Canonical::to_caller`].

use super::DbError;
use crate::game::board::{Board, Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::game::rules::Rule;
use crate::knowledge::book::symmetry::{self, Symmetry};

/// A position as the database stores it: the stones with their colours, who is to move, the
/// rule and the board's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The game rule the position is studied under.
    pub rule: Rule,
    /// Board width (columns).
    pub width: usize,
    /// Board height (rows).
    pub height: usize,
    /// The stones, in no particular order.
    pub stones: Vec<(Pos, Color)>,
    /// The side to move.
    pub to_move: Color,
}

/// A position's canonical key and the symmetry that carries the caller's frame onto it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The encoded canonical stone list (three bytes a stone: cell index high, low, colour).
    pub key: Vec<u8>,
    /// The symmetry from the caller's frame to the canonical frame.
    pub frame: Symmetry,
    width: usize,
    height: usize,
}

impl Canonical {
    /// Maps a point of the caller's frame into the canonical frame.
    pub fn to_canonical(&self, p: Pos) -> Pos {
        apply(self.frame, p, self.width, self.height)
    }

    /// Maps a point of the canonical frame back into the caller's frame.
    pub fn to_caller(&self, p: Pos) -> Pos {
        apply(
            inverse(self.frame, self.width, self.height),
            p,
            self.width,
            self.height,
        )
    }
}

/// The symmetries that keep a `width` x `height` board's shape.
pub fn symmetries(width: usize, height: usize) -> &'static [Symmetry] {
    if width == height {
        &Symmetry::ALL
    } else {
        // Identity, half turn, mirror of x, mirror of y (see `apply`).
        const RECT: [Symmetry; 4] = [Symmetry(0), Symmetry(2), Symmetry(4), Symmetry(6)];
        &RECT
    }
}

/// Maps `p` by `sym` on a `width` x `height` board (the square symmetries of
/// [`Symmetry::apply_xy`]; on other boards only the four shape-keeping ones are meaningful).
pub fn apply(sym: Symmetry, p: Pos, width: usize, height: usize) -> Pos {
    if width == height {
        return sym.apply(p, width);
    }
    let (x, y, w, h) = (p.x(), p.y(), width - 1, height - 1);
    match sym.0 {
        2 => Pos::new(w - x, h - y),
        4 => Pos::new(w - x, y),
        6 => Pos::new(x, h - y),
        _ => p,
    }
}

fn inverse(sym: Symmetry, width: usize, height: usize) -> Symmetry {
    if width == height {
        sym.inverse()
    } else {
        // The four shape-keeping symmetries of a rectangle are their own inverses.
        sym
    }
}

fn encode(key: &[(u16, u8)]) -> Vec<u8> {
    key.iter()
        .flat_map(|&(i, c)| [(i >> 8) as u8, i as u8, c])
        .collect()
}

/// Decodes a stone list written by [`Position::canonical`]; `None` when it is not one.
pub fn decode(key: &[u8], width: usize, height: usize) -> Option<Vec<(Pos, Color)>> {
    if key.len() % 3 != 0 {
        return None;
    }
    key.chunks(3)
        .map(|c| {
            let p = Pos(u16::from(c[0]) << 8 | u16::from(c[1]));
            let colour = match c[2] {
                0 => Color::Black,
                1 => Color::White,
                _ => return None,
            };
            (p.x() < width && p.y() < height && usize::from(p.0) < MAX_SIZE * MAX_SIZE)
                .then_some((p, colour))
        })
        .collect()
}

impl Position {
    /// The position after `moves` played in order from the empty board, black first; refused
    /// when a move is off the board or on an occupied point.
    pub fn from_moves(
        rule: Rule,
        width: usize,
        height: usize,
        moves: &[Pos],
    ) -> Result<Position, DbError> {
        let mut pos = Position {
            rule,
            width,
            height,
            stones: Vec::with_capacity(moves.len()),
            to_move: Color::Black,
        };
        pos.check_size()?;
        for &p in moves {
            pos = pos.child(p)?;
        }
        Ok(pos)
    }

    /// The position on `board` under `rule`, with the board's side to move (how the search
    /// looks a node up).
    pub fn of_board(board: &Board, rule: Rule) -> Position {
        Position {
            rule,
            width: board.size(),
            height: board.size(),
            stones: symmetry::stones_of(board),
            to_move: board.side_to_move(),
        }
    }

    /// The position after the side to move plays `p`.
    pub fn child(&self, p: Pos) -> Result<Position, DbError> {
        if p.x() >= self.width || p.y() >= self.height {
            return Err(DbError::Invalid(format!("{p} is off the board")));
        }
        if self.stones.iter().any(|&(q, _)| q == p) {
            return Err(DbError::Invalid(format!("{p} is already occupied")));
        }
        let mut stones = self.stones.clone();
        stones.push((p, self.to_move));
        Ok(Position {
            stones,
            to_move: self.to_move.opponent(),
            ..self.clone()
        })
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty_at(&self, p: Pos) -> bool {
        p.x() < self.width && p.y() < self.height && self.stones.iter().all(|&(q, _)| q != p)
    }

    fn check_size(&self) -> Result<(), DbError> {
        let ok = |n: usize| (MIN_SIZE..=MAX_SIZE).contains(&n);
        if ok(self.width) && ok(self.height) {
            Ok(())
        } else {
            Err(DbError::Invalid(format!(
                "board {}x{} (supported: {MIN_SIZE}..={MAX_SIZE})",
                self.width, self.height
            )))
        }
    }

    /// Checks that the position can be stored: a supported size, every stone on the board and
    /// no point twice.
    pub fn validate(&self) -> Result<(), DbError> {
        self.check_size()?;
        let mut seen = std::collections::HashSet::new();
        for &(p, _) in &self.stones {
            if p.x() >= self.width || p.y() >= self.height {
                return Err(DbError::Invalid(format!("stone {p} is off the board")));
            }
            if !seen.insert(p) {
                return Err(DbError::Invalid(format!("two stones on {p}")));
            }
        }
        Ok(())
    }

    /// The canonical key: the smallest transformed stone list over the shape-keeping symmetries.
    pub fn canonical(&self) -> Canonical {
        let (key, frame) = if self.width == self.height {
            // The book's canonicalisation: the same eight symmetries, the same order.
            symmetry::canonical(&self.stones, self.width)
        } else {
            symmetries(self.width, self.height)
                .iter()
                .map(|&s| (self.transformed_key(s), s))
                .min_by(|a, b| a.0.cmp(&b.0))
                .expect("at least the identity")
        };
        Canonical {
            key: encode(&key),
            frame,
            width: self.width,
            height: self.height,
        }
    }

    fn transformed_key(&self, sym: Symmetry) -> Vec<(u16, u8)> {
        let mut k: Vec<(u16, u8)> = self
            .stones
            .iter()
            .map(|&(p, c)| (apply(sym, p, self.width, self.height).0, c.index() as u8))
            .collect();
        k.sort_unstable();
        k
    }

    /// Whether this position lies below `ancestor`: the same rule and size, more stones, and
    /// every stone of `ancestor` (under one of the shape-keeping symmetries) among them with
    /// the same colour.
    pub fn descends_from(&self, ancestor: &Position) -> bool {
        if (self.rule, self.width, self.height) != (ancestor.rule, ancestor.width, ancestor.height)
            || self.stones.len() <= ancestor.stones.len()
        {
            return false;
        }
        let mine: std::collections::HashSet<(Pos, Color)> = self.stones.iter().copied().collect();
        symmetries(self.width, self.height).iter().any(|&s| {
            ancestor
                .stones
                .iter()
                .all(|&(p, c)| mine.contains(&(apply(s, p, self.width, self.height), c)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &[(usize, usize)], w: usize, h: usize) -> Position {
        let moves: Vec<Pos> = moves.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        Position::from_moves(Rule::Freestyle, w, h, &moves).unwrap()
    }

    #[test]
    fn all_eight_images_share_one_key_on_a_square_board() {
        let p = pos(&[(7, 7), (8, 6), (9, 9), (3, 4)], 15, 15);
        let key = p.canonical().key;
        for &s in &Symmetry::ALL {
            let image = Position {
                stones: p.stones.iter().map(|&(q, c)| (s.apply(q, 15), c)).collect(),
                ..p.clone()
            };
            assert_eq!(image.canonical().key, key, "symmetry {s:?}");
        }
        // The stones' order does not matter.
        let mut reversed = p.clone();
        reversed.stones.reverse();
        assert_eq!(reversed.canonical().key, key);
    }

    #[test]
    fn different_positions_have_different_keys() {
        let a = pos(&[(7, 7), (8, 6)], 15, 15);
        let b = pos(&[(7, 7), (9, 6)], 15, 15);
        // Same stones, colours swapped.
        let c = pos(&[(8, 6), (7, 7)], 15, 15);
        assert_ne!(a.canonical().key, b.canonical().key);
        assert_ne!(a.canonical().key, c.canonical().key);
    }

    #[test]
    fn a_rectangle_keeps_only_its_four_symmetries() {
        let p = pos(&[(1, 2), (4, 1)], 8, 6);
        let mirrored_x = pos(&[(6, 2), (3, 1)], 8, 6);
        let half_turn = pos(&[(6, 3), (3, 4)], 8, 6);
        let mirrored_y = pos(&[(1, 3), (4, 4)], 8, 6);
        for q in [&mirrored_x, &half_turn, &mirrored_y] {
            assert_eq!(q.canonical().key, p.canonical().key, "{q:?}");
        }
        // A quarter turn of the stones is a different position on a rectangle.
        let transposed = pos(&[(2, 1), (1, 4)], 8, 6);
        assert_ne!(transposed.canonical().key, p.canonical().key);
    }

    #[test]
    fn moves_map_between_frames_and_back() {
        let p = pos(&[(7, 7), (8, 6), (2, 3)], 15, 15);
        let q = pos(&[(7, 7), (6, 8), (12, 11)], 15, 15); // turned by a half turn
        let (cp, cq) = (p.canonical(), q.canonical());
        assert_eq!(cp.key, cq.key);
        let best_in_p = Pos::new(9, 5);
        let stored = cp.to_canonical(best_in_p);
        assert_eq!(cq.to_caller(stored), Pos::new(5, 9));
        assert_eq!(cp.to_caller(stored), best_in_p);
        let r = pos(&[(1, 2), (4, 1)], 8, 6);
        let cr = r.canonical();
        assert_eq!(
            cr.to_caller(cr.to_canonical(Pos::new(7, 0))),
            Pos::new(7, 0)
        );
    }

    #[test]
    fn keys_decode_to_the_canonical_stones() {
        let p = pos(&[(7, 7), (8, 6), (2, 3)], 15, 15);
        let c = p.canonical();
        let stones = decode(&c.key, 15, 15).unwrap();
        let mut want: Vec<(Pos, Color)> = p
            .stones
            .iter()
            .map(|&(q, col)| (c.to_canonical(q), col))
            .collect();
        want.sort();
        let mut got = stones;
        got.sort();
        assert_eq!(got, want);
        assert_eq!(decode(&[0, 1], 15, 15), None);
        assert_eq!(decode(&[0, 1, 2], 15, 15), None);
        assert_eq!(decode(&[0, 20, 0], 15, 15), None); // column 20 is off a 15-wide board
        assert_eq!(
            decode(&[0, 40, 1], 15, 15),
            Some(vec![(Pos::new(8, 1), Color::White)])
        );
    }

    #[test]
    fn descendants_under_any_symmetry() {
        let root = pos(&[(7, 7), (8, 7)], 15, 15);
        let child = pos(&[(7, 7), (8, 7), (9, 9)], 15, 15);
        let mirrored_child = pos(&[(7, 7), (6, 7), (2, 2)], 15, 15);
        let other = pos(&[(7, 7), (8, 8), (9, 9)], 15, 15);
        assert!(child.descends_from(&root));
        assert!(mirrored_child.descends_from(&root));
        assert!(!other.descends_from(&root));
        assert!(!root.descends_from(&root));
        assert!(
            Position::from_moves(Rule::Freestyle, 15, 15, &[Pos::new(1, 1), Pos::new(1, 1)])
                .is_err()
        );
        let mut board = Board::new(15);
        board.play(Pos::new(7, 7)).unwrap();
        board.play(Pos::new(8, 7)).unwrap();
        let from_board = Position::of_board(&board, Rule::Freestyle);
        assert_eq!(from_board.canonical().key, root.canonical().key);
        assert_eq!(from_board.to_move, Color::Black);
    }
}
