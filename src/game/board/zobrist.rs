//! Zobrist keys: one fixed random key per (colour, cell) and one for the side to move, so that
//! a position's key is the same in every run, thread and process.

use super::cell::{Color, Pos, CELLS};

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
