//! Sets of cells as fixed 1024-bit masks over the 32-column grid ([`BitBoard`]), with the line
//! shifts and the run and five-window scans built on them.

use super::cell::{Direction, Pos, CELLS, MAX_SIZE};
use std::fmt;

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
