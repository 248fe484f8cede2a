//! The board: stones, per-colour bitboards, an incremental Zobrist key and the move history.
//!
//! # Layout
//! Every board, whatever its size (5..=32), uses the same 32-column stride: the cell at column
//! `x`, row `y` has index `y * 32 + x` ([`Pos`]). One [`Pos`] therefore means the same cell in
//! every table of the crate (bitboards, Zobrist keys, history tables), and a bitboard is a fixed
//! 1024-bit set ([`BitBoard`]).
//!
//! # Invariants
//! - `cells[p]` is `Some(c)` exactly when bit `p` is set in `stones[c]`, and only for `p` on the
//!   board (`x < size && y < size`).
//! - `key` is the XOR of [`zobrist`] of every stone, XOR [`SIDE_KEY`] when white is to move.
//! - `history` lists the stones in the order they were placed; [`Board::undo`] removes the last.
//! - The side to move alternates with each `play`/`undo`; [`Board::set_side_to_move`] exists for
//!   positions set up out of order (protocol `BOARD`, puzzles).
//!
//! The board knows nothing of rules: five detection here is "five or more in a row"; what a win
//! is under each rule lives in [`crate::game::rules`].
//!
//! # Files
//! - `cell`: sizes, [`Pos`], [`Color`], [`Direction`].
//! - `bitboard`: [`BitBoard`] and the scans on it.
//! - `zobrist`: the keys ([`zobrist`], [`SIDE_KEY`]).
//! - here: the [`Board`] itself.

mod bitboard;
mod cell;
mod zobrist;

pub use bitboard::*;
pub use cell::*;
pub use zobrist::*;

use std::fmt;

/// A random cell of a board of side `size` (tests).
#[cfg(test)]
pub(crate) fn random_cell(rng: &mut crate::game::rng::SplitMix64, size: usize) -> Pos {
    Pos::new(
        (rng.next_u64() % size as u64) as usize,
        (rng.next_u64() % size as u64) as usize,
    )
}

/// A board of side `size` after `draws` random cells, colours alternating from black by draw (a
/// cell drawn twice keeps its first stone). For tests that want boards of every density.
#[cfg(test)]
pub(crate) fn scattered(
    rng: &mut crate::game::rng::SplitMix64,
    size: usize,
    draws: usize,
) -> Board {
    let mut b = Board::new(size);
    for k in 0..draws {
        let p = random_cell(rng, size);
        if b.is_empty_at(p) {
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.put(p, c).expect("an empty cell");
        }
    }
    b
}

/// Why a stone could not be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// The point is outside the board.
    OutOfBoard,
    /// The point already holds a stone.
    Occupied,
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::OutOfBoard => write!(f, "point is outside the board"),
            PlaceError::Occupied => write!(f, "point is occupied"),
        }
    }
}

/// A square board of side 5..=32 with its stones, key and history.
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: Box<[Option<Color>; CELLS]>,
    stones: [BitBoard; 2],
    key: u64,
    side_to_move: Color,
    history: Vec<(Pos, Color)>,
}

impl Board {
    /// An empty board of side `size` with black to move. Panics outside 5..=32; the protocol
    /// checks the size first and answers `ERROR`.
    pub fn new(size: usize) -> Board {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} outside {MIN_SIZE}..={MAX_SIZE}"
        );
        Board {
            size,
            cells: Box::new([None; CELLS]),
            stones: [BitBoard::EMPTY; 2],
            key: 0,
            side_to_move: Color::Black,
            history: Vec::with_capacity(size * size),
        }
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The point at (x, y) if it is on this board.
    #[inline]
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if x >= 0 && y >= 0 && (x as usize) < self.size && (y as usize) < self.size {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// Whether `p` lies on this board.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        p.x() < self.size && p.y() < self.size
    }

    /// The stone at `p` (None when empty or off the board).
    #[inline]
    pub fn at(&self, p: Pos) -> Option<Color> {
        self.cells[p.index()]
    }

    /// Whether `p` is on the board and empty.
    #[inline]
    pub fn is_empty_at(&self, p: Pos) -> bool {
        self.contains(p) && self.cells[p.index()].is_none()
    }

    /// The stones of colour `c`.
    #[inline]
    pub fn stones(&self, c: Color) -> &BitBoard {
        &self.stones[c.index()]
    }

    /// The Zobrist key of the position including the side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Makes this board a copy of `other`, reusing this board's allocations (a search's
    /// scratch copy, refreshed at many nodes).
    pub fn copy_from(&mut self, other: &Board) {
        self.size = other.size;
        *self.cells = *other.cells;
        self.stones = other.stones;
        self.key = other.key;
        self.side_to_move = other.side_to_move;
        self.history.clear();
        self.history.extend_from_slice(&other.history);
    }

    /// Sets the side to move (for positions set up out of move order), keeping the key in step.
    pub fn set_side_to_move(&mut self, c: Color) {
        if c != self.side_to_move {
            self.key ^= SIDE_KEY;
            self.side_to_move = c;
        }
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// Whether every cell is occupied.
    pub fn is_full(&self) -> bool {
        self.history.len() == self.size * self.size
    }

    /// The stones in the order they were placed.
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    /// The last stone placed.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|&(p, _)| p)
    }

    /// Places a stone of the side to move at `p` and passes the turn.
    #[inline]
    pub fn play(&mut self, p: Pos) -> Result<(), PlaceError> {
        let c = self.side_to_move;
        self.put(p, c)
    }

    /// Places a stone of colour `c` at `p` (whoever is to move) and makes the opponent of `c`
    /// the side to move.
    pub fn put(&mut self, p: Pos, c: Color) -> Result<(), PlaceError> {
        if !self.contains(p) {
            return Err(PlaceError::OutOfBoard);
        }
        if self.cells[p.index()].is_some() {
            return Err(PlaceError::Occupied);
        }
        self.cells[p.index()] = Some(c);
        self.stones[c.index()].insert(p);
        self.key ^= zobrist(c, p);
        self.history.push((p, c));
        self.set_side_to_move(c.opponent());
        Ok(())
    }

    /// Removes the last stone placed and gives the turn back to its colour.
    pub fn undo(&mut self) -> Option<Pos> {
        let (p, c) = self.history.pop()?;
        self.cells[p.index()] = None;
        self.stones[c.index()].remove(p);
        self.key ^= zobrist(c, p);
        self.set_side_to_move(c);
        Some(p)
    }

    /// Removes the stone at `p`, wherever it stands in the history (protocol `TAKEBACK`).
    /// The side to move becomes the removed stone's colour.
    pub fn remove(&mut self, p: Pos) -> Option<Color> {
        let idx = self.history.iter().rposition(|&(q, _)| q == p)?;
        let (_, c) = self.history.remove(idx);
        self.cells[p.index()] = None;
        self.stones[c.index()].remove(p);
        self.key ^= zobrist(c, p);
        self.set_side_to_move(c);
        Some(c)
    }

    /// Number of consecutive stones of colour `c` from `p` (exclusive) stepping `dir` by +1
    /// (`forward`) or -1.
    #[inline]
    pub fn count_dir(&self, p: Pos, dir: Direction, c: Color, forward: bool) -> usize {
        let sign = if forward { 1 } else { -1 };
        let mut n = 0;
        let mut q = p;
        while let Some(next) = q.offset(dir, sign, self.size) {
            if self.cells[next.index()] != Some(c) {
                break;
            }
            n += 1;
            q = next;
        }
        n
    }

    /// Length of the run of colour `c` through `p` in direction `dir`, counting `p` itself as `c`
    /// whatever it holds.
    #[inline]
    pub fn run_through(&self, p: Pos, dir: Direction, c: Color) -> usize {
        1 + self.count_dir(p, dir, c, true) + self.count_dir(p, dir, c, false)
    }

    /// Whether colour `c` has five or more in a row anywhere (bitboard shift-and).
    pub fn has_five_or_more(&self, c: Color) -> bool {
        Direction::ALL
            .iter()
            .any(|&d| !runs_at_least(self.stones(c), d, 5).is_empty())
    }

    /// Every empty cell of the board, in index order.
    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        let size = self.size;
        (0..size)
            .flat_map(move |y| (0..size).map(move |x| Pos::new(x, y)))
            .filter(move |&p| self.cells[p.index()].is_none())
    }

    /// The key recomputed from scratch (the oracle for the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for &(p, c) in &self.history {
            k ^= zobrist(c, p);
        }
        if self.side_to_move == Color::White {
            k ^= SIDE_KEY;
        }
        k
    }

    /// Parses an ASCII picture: one row per line, `X` or `x` black, `O` or `o` white, `.` or `-`
    /// empty (spaces ignored). The number of rows gives the size. Stones are placed row by row,
    /// so the history is not a game order; the side to move is black when the counts are equal,
    /// else white. For tests and tools.
    pub fn from_picture(picture: &str) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = picture
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!("picture has {size} rows"));
        }
        let mut b = Board::new(size);
        for (y, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(format!("row {y} has {} cells, expected {size}", row.len()));
            }
            for (x, ch) in row.iter().enumerate() {
                let c = match ch {
                    'X' | 'x' => Color::Black,
                    'O' | 'o' => Color::White,
                    '.' | '-' | '+' => continue,
                    other => return Err(format!("bad cell {other:?} at {x},{y}")),
                };
                b.put(Pos::new(x, y), c).map_err(|e| e.to_string())?;
            }
        }
        let blacks = b.stones(Color::Black).count();
        let whites = b.stones(Color::White).count();
        b.set_side_to_move(if blacks > whites {
            Color::White
        } else {
            Color::Black
        });
        Ok(b)
    }
}

impl fmt::Display for Board {
    /// The ASCII picture read by [`Board::from_picture`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.size {
            for x in 0..self.size {
                let ch = match self.cells[Pos::new(x, y).index()] {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
                if x + 1 < self.size {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} {:?} to move",
            self.size, self.size, self.side_to_move
        )?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::rng::SplitMix64 as Lcg;

    /// The shift version against a plain walk over every window of the grid, with stones on
    /// boards of every size, crowded and sparse (windows at the edges and the row wrap included).
    #[test]
    fn cells_of_near_fives_equal_a_plain_window_walk() {
        let mut rng = Lcg::new(5);
        let mut nonempty = 0;
        for round in 0..400 {
            let size = [5, 9, 15, 20, 32][round % 5];
            let mut stones = BitBoard::EMPTY;
            let n = rng.next_u64() as usize % (size * size / 2 + 1);
            for _ in 0..n {
                let p = Pos::new(
                    rng.next_u64() as usize % size,
                    rng.next_u64() as usize % size,
                );
                stones.insert(p);
            }
            let mut plain = BitBoard::EMPTY;
            for y in 0..MAX_SIZE {
                for x in 0..MAX_SIZE {
                    for dir in Direction::ALL {
                        let cells: Vec<Pos> = (0..5)
                            .filter_map(|k| Pos::new(x, y).offset(dir, k, MAX_SIZE))
                            .collect();
                        if cells.len() == 5
                            && cells.iter().filter(|&&p| stones.contains(p)).count() >= 4
                        {
                            for p in cells {
                                plain.insert(p);
                            }
                        }
                    }
                }
            }
            if !plain.is_empty() {
                nonempty += 1;
            }
            assert_eq!(
                cells_of_near_fives(&stones),
                plain,
                "round {round} size {size}"
            );
        }
        assert!(nonempty > 200, "only {nonempty} boards with a near five");
    }

    #[test]
    fn key_is_incremental_and_undo_restores_everything() {
        for size in [5, 9, 15, 20, 32] {
            let mut rng = Lcg::new(size as u64);
            let mut b = Board::new(size);
            let empty_key = b.key();
            for _ in 0..size * size / 2 {
                let p = Pos::new(
                    rng.next_u64() as usize % size,
                    rng.next_u64() as usize % size,
                );
                if b.play(p).is_ok() {
                    assert_eq!(b.key(), b.compute_key());
                }
            }
            while b.undo().is_some() {
                assert_eq!(b.key(), b.compute_key());
            }
            assert_eq!(b.key(), empty_key);
            assert!(b.stones(Color::Black).is_empty() && b.stones(Color::White).is_empty());
        }
    }

    #[test]
    fn key_includes_side_to_move() {
        let mut b = Board::new(15);
        let k = b.key();
        b.set_side_to_move(Color::White);
        assert_ne!(b.key(), k);
        b.set_side_to_move(Color::Black);
        assert_eq!(b.key(), k);
    }

    #[test]
    fn place_errors() {
        let mut b = Board::new(15);
        assert_eq!(b.play(Pos::new(15, 0)), Err(PlaceError::OutOfBoard));
        b.play(Pos::new(3, 3)).unwrap();
        assert_eq!(b.play(Pos::new(3, 3)), Err(PlaceError::Occupied));
        assert_eq!(b.stone_count(), 1);
        assert_eq!(b.side_to_move(), Color::White);
    }

    #[test]
    fn bitboard_five_matches_scan_without_row_wrap() {
        // Four at the end of one row and one at the start of the next must not count: on a 32
        // board those cells are adjacent indices.
        let mut b = Board::new(32);
        for x in 28..32 {
            b.put(Pos::new(x, 4), Color::Black).unwrap();
        }
        b.put(Pos::new(0, 5), Color::Black).unwrap();
        assert!(!b.has_five_or_more(Color::Black));
        // Anti-diagonal wrap: (0,10) then (31,11) are index neighbours by stride 31.
        let mut b = Board::new(32);
        for (i, (x, y)) in [(1, 9), (0, 10), (31, 11), (30, 12), (29, 13)]
            .iter()
            .enumerate()
        {
            let _ = i;
            b.put(Pos::new(*x, *y), Color::White).unwrap();
        }
        assert!(!b.has_five_or_more(Color::White));

        // Random boards: bitboard detection equals a plain scan.
        for seed in 0..200u64 {
            let mut rng = Lcg::new(seed);
            let size = 5 + (seed as usize % 28);
            let mut b = Board::new(size);
            for _ in 0..size * size * 2 / 3 {
                let p = Pos::new(
                    rng.next_u64() as usize % size,
                    rng.next_u64() as usize % size,
                );
                let c = if rng.next_u64() % 3 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let _ = b.put(p, c);
            }
            for c in [Color::Black, Color::White] {
                let scan = b.history().iter().any(|&(p, pc)| {
                    pc == c && Direction::ALL.iter().any(|&d| b.run_through(p, d, c) >= 5)
                });
                assert_eq!(b.has_five_or_more(c), scan, "seed {seed}\n{b}");
            }
        }
    }

    #[test]
    fn picture_round_trip() {
        let pic = "\
            . . . . .\n\
            . X O . .\n\
            . . X . .\n\
            . . . . .\n\
            . . . . .\n";
        let b = Board::from_picture(pic).unwrap();
        assert_eq!(b.size(), 5);
        assert_eq!(b.at(Pos::new(1, 1)), Some(Color::Black));
        assert_eq!(b.at(Pos::new(2, 1)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(Board::from_picture(&b.to_string()).unwrap().key(), b.key());
    }

    #[test]
    fn remove_from_middle_of_history() {
        let mut b = Board::new(15);
        let moves = [Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 6)];
        for &m in &moves {
            b.play(m).unwrap();
        }
        assert_eq!(b.remove(Pos::new(8, 8)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.key(), b.compute_key());
        assert_eq!(b.remove(Pos::new(8, 8)), None);
    }
}
