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

/// A 1024-bit set over cell indices (see the module docs for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BitBoard(pub [u64; CELLS / 64]);

impl BitBoard {
    /// The empty set.
    pub const EMPTY: BitBoard = BitBoard([0; CELLS / 64]);

    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        self.0[p.index() / 64] >> (p.index() % 64) & 1 != 0
    }

    /// Adds `p`.
    #[inline]
    pub fn insert(&mut self, p: Pos) {
        self.0[p.index() / 64] |= 1 << (p.index() % 64);
    }

    /// Removes `p`.
    #[inline]
    pub fn remove(&mut self, p: Pos) {
        self.0[p.index() / 64] &= !(1 << (p.index() % 64));
    }

    /// Number of cells in the set.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Bitwise and.
    #[inline]
    pub fn and(&self, other: &BitBoard) -> BitBoard {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(other.0.iter()) {
            *a &= *b;
        }
        r
    }

    /// The set moved by `n` cell indices towards index 0: bit `i` of the result is bit `i + n` of
    /// `self` (bits shifted in from beyond the top are zero).
    pub fn shift_down(&self, n: usize) -> BitBoard {
        let words = n / 64;
        let bits = n % 64;
        let mut r = [0u64; CELLS / 64];
        for (i, out) in r.iter_mut().enumerate() {
            let lo = self.0.get(i + words).copied().unwrap_or(0);
            let hi = self.0.get(i + words + 1).copied().unwrap_or(0);
            *out = if bits == 0 {
                lo
            } else {
                (lo >> bits) | (hi << (64 - bits))
            };
        }
        BitBoard(r)
    }

    /// The set moved by `n` cell indices away from index 0: bit `i + n` of the result is bit `i`
    /// of `self` (bits pushed beyond the top are lost).
    pub fn shift_up(&self, n: usize) -> BitBoard {
        let words = n / 64;
        let bits = n % 64;
        let mut r = [0u64; CELLS / 64];
        for (i, out) in r.iter_mut().enumerate().skip(words) {
            let lo = self.0[i - words];
            let below = if i > words { self.0[i - words - 1] } else { 0 };
            *out = if bits == 0 {
                lo
            } else {
                (lo << bits) | (below >> (64 - bits))
            };
        }
        BitBoard(r)
    }

    /// Bitwise or.
    #[inline]
    pub fn or(&self, other: &BitBoard) -> BitBoard {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(other.0.iter()) {
            *a |= *b;
        }
        r
    }

    /// The cells of `self` not in `other`.
    #[inline]
    pub fn minus(&self, other: &BitBoard) -> BitBoard {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(other.0.iter()) {
            *a &= !*b;
        }
        r
    }

    /// Iterates over the cells in the set in index order.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.0.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(Pos((wi * 64 + b) as u16))
                }
            })
        })
    }
}

impl fmt::Debug for BitBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Direction masks: for direction `d`, the cells from which one step of `d` stays on the 32x32
/// grid without wrapping across a row. Shift-and run detection ANDs with this mask at every step.
fn step_mask(dir: Direction) -> BitBoard {
    let mut m = BitBoard::EMPTY;
    for y in 0..MAX_SIZE {
        for x in 0..MAX_SIZE {
            if Pos::new(x, y).offset(dir, 1, MAX_SIZE).is_some() {
                m.insert(Pos::new(x, y));
            }
        }
    }
    m
}

/// Starting cells of every run of at least `len` stones of `stones` in direction `dir`
/// (shift-and with the direction's wrap mask).
pub fn runs_at_least(stones: &BitBoard, dir: Direction, len: usize) -> BitBoard {
    // R(1) = S; R(k+1)(i) = S(i) and M(i) and R(k)(i + d), where M holds the cells whose step in
    // `dir` neither leaves the grid nor wraps to the next row.
    let start = stones.and(&step_mask(dir));
    let mut runs = *stones;
    for _ in 1..len {
        runs = start.and(&runs.shift_down(dir.stride()));
    }
    runs
}

/// For each direction, the cells where a five-cell window starts: its five cells lie on the
/// grid along that direction without wrapping across a row.
fn five_window_starts() -> &'static [BitBoard; 4] {
    static STARTS: std::sync::OnceLock<[BitBoard; 4]> = std::sync::OnceLock::new();
    STARTS.get_or_init(|| {
        Direction::ALL.map(|dir| {
            let step = step_mask(dir);
            let mut v = step;
            for k in 1..4 {
                v = v.and(&step.shift_down(k * dir.stride()));
            }
            v
        })
    })
}

/// Every cell of every five-cell window of the grid (along any direction) that holds at least
/// four cells of `stones`. A cell that completes five in a row lies in such a window (with the
/// other four of its five), so on any board this is a superset of the winning points, found
/// with a few shifts.
pub fn cells_of_near_fives(stones: &BitBoard) -> BitBoard {
    let mut out = BitBoard::EMPTY;
    for (dir, valid) in Direction::ALL.iter().zip(five_window_starts()) {
        let s = dir.stride();
        let shifted: [BitBoard; 5] = std::array::from_fn(|k| stones.shift_down(k * s));
        // At least four of five: some window cell may be missing, but then all the others are
        // there.
        let mut starts = BitBoard::EMPTY;
        for missing in 0..5 {
            let mut all_others = *valid;
            for (k, b) in shifted.iter().enumerate() {
                if k != missing {
                    all_others = all_others.and(b);
                }
            }
            for (o, w) in starts.0.iter_mut().zip(all_others.0.iter()) {
                *o |= *w;
            }
        }
        for start in starts.iter() {
            for k in 0..5 {
                out.insert(Pos((start.index() + k * s) as u16));
            }
        }
    }
    out
}

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

/// Zobrist keys: one per (colour, cell), plus [`SIDE_KEY`]. Fixed seeds, so keys agree across
/// runs, threads and processes (a requirement for reproducible search and shared tables).
const fn make_zobrist() -> [[u64; CELLS]; 2] {
    let mut t = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ 0x6261_6E67_6F00_0001; // "bango"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            t[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    t
}

static ZOBRIST: [[u64; CELLS]; 2] = make_zobrist();

/// XORed into the key when white is to move.
pub const SIDE_KEY: u64 = 0xD1B5_4A32_D192_ED03;

/// The Zobrist key of a stone of colour `c` at `p`.
#[inline]
pub fn zobrist(c: Color, p: Pos) -> u64 {
    ZOBRIST[c.index()][p.index()]
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
