//! Rule-aware threat detection for one colour: where a stone makes a five, a four, or a
//! three-like shape, found by scanning every five-cell window of every line.
//!
//! A window is five consecutive cells of one line. A colour can only ever make five inside a
//! window that holds none of the opponent's stones, so counting each colour per window gives
//! cheap, complete *supersets*: a point that makes a five lies in a window with four own stones
//! and one empty cell, a point that makes a four in a window with three own stones and two empty
//! cells, and a point that makes a three (or any shape one move from a four) in a window with two
//! own stones. Every superset member is then confirmed with [`rules::wins_in_dir`], so the rule
//! (exact five, renju overlines, caro's blocked ends) decides, never the window count.
//!
//! [`Counts`] keeps the per-window counts and the sets of windows with three or four stones of
//! one colour in step with the board, so the VCF search reads its supersets from a few windows.
//!
//! Invariant: nothing here leaves the board changed; trial stones are always taken back.

use crate::game::board::{BitBoard, Board, Color, Direction, Pos};
use crate::game::rules::{self, Rule};

/// Every five-cell window of one board size, as cell indices, and for each cell the windows
/// that hold it.
#[derive(Clone, Debug)]
pub struct Windows {
    size: usize,
    cells: Vec<[Pos; 5]>,
    /// The direction of each window.
    dirs: Vec<Direction>,
    /// The cells of each window as bit masks of [`BitBoard`] words: (word, bits), at most three
    /// words (a row of the 32-wide layout fills half a word); unused entries have no bits.
    masks: Vec<[(u8, u64); 3]>,
    /// `of_cell[start[p]..start[p + 1]]` are the windows holding cell `p`.
    of_cell: Vec<u32>,
    start: Vec<u32>,
    /// For each direction, the first cells of its windows.
    firsts: [BitBoard; 4],
}

impl Windows {
    /// All windows of a board of side `size`.
    pub fn new(size: usize) -> Windows {
        let mut cells = Vec::new();
        let mut dirs = Vec::new();
        let mut firsts = [BitBoard::EMPTY; 4];
        for y in 0..size {
            for x in 0..size {
                let start = Pos::new(x, y);
                for d in Direction::ALL {
                    if start.offset(d, 4, size).is_some() {
                        let mut w = [start; 5];
                        for (i, c) in w.iter_mut().enumerate() {
                            *c = start.offset(d, i as i32, size).expect("checked end");
                        }
                        cells.push(w);
                        dirs.push(d);
                        firsts[d as usize].insert(start);
                    }
                }
            }
        }
        let masks = cells
            .iter()
            .map(|w| {
                let mut m = [(0u8, 0u64); 3];
                let mut n = 0;
                for p in w {
                    let (word, bit) = (p.index() / 64, 1u64 << (p.index() % 64));
                    match m[..n].iter_mut().find(|(x, _)| usize::from(*x) == word) {
                        Some(e) => e.1 |= bit,
                        None => {
                            m[n] = (word as u8, bit);
                            n += 1;
                        }
                    }
                }
                m
            })
            .collect();
        let mut lists = vec![Vec::new(); crate::game::board::CELLS];
        for (i, w) in cells.iter().enumerate() {
            for p in w {
                lists[p.index()].push(i as u32);
            }
        }
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut of_cell = Vec::new();
        for l in &lists {
            start.push(of_cell.len() as u32);
            of_cell.extend_from_slice(l);
        }
        start.push(of_cell.len() as u32);
        Windows {
            size,
            cells,
            dirs,
            masks,
            of_cell,
            start,
            firsts,
        }
    }

    /// The windows holding cell `p`.
    #[inline]
    pub fn of(&self, p: Pos) -> &[u32] {
        &self.of_cell[self.start[p.index()] as usize..self.start[p.index() + 1] as usize]
    }

    /// The cells of window `w`.
    #[inline]
    pub fn cells(&self, w: u32) -> &[Pos; 5] {
        &self.cells[w as usize]
    }

    /// The direction of window `w`.
    #[inline]
    pub fn dir(&self, w: u32) -> Direction {
        self.dirs[w as usize]
    }

    /// How many windows there are.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no windows (never, for a legal board size).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The board side these windows belong to.
    pub fn size(&self) -> usize {
        self.size
    }
}

/// Candidate points of one scan, for the attacker `a` and its opponent `d`. Supersets: each
/// point still has to be confirmed by playing it.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Points that may complete a five for the attacker.
    pub a_five: BitBoard,
    /// Points that may make a four for the attacker.
    pub a_four: BitBoard,
    /// Points that may make a three for the attacker (two own stones in a clean window).
    pub a_three: BitBoard,
    /// Points that may complete a five for the opponent.
    pub d_five: BitBoard,
    /// Points that may make a four for the opponent.
    pub d_four: BitBoard,
}

/// Words of a window bit set: enough for the windows of the largest board.
const SET_WORDS: usize = 64;

/// Stone counts per colour of every window, and for each colour the set of clean windows (none
/// of the opponent's stones) holding three or four of its stones, kept in step with the board by
/// [`Counts::put`] and [`Counts::undo`]. A node of the VCF search reads its four and five
/// candidates from those few windows instead of scanning every window.
///
/// Invariant: equal to a fresh [`Counts::new`] of the board whenever the owner reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    n: Vec<[u8; 2]>,
    /// `set[c][k]`: bit set over windows, the clean windows of colour `c` with `3 + k` stones.
    set: Box<[[[u64; SET_WORDS]; 2]; 2]>,
}

impl Counts {
    /// The counts of `board`.
    pub fn new(board: &Board, windows: &Windows) -> Counts {
        let mut c = Counts {
            n: Vec::new(),
            set: Box::new([[[0u64; SET_WORDS]; 2]; 2]),
        };
        c.reset(board, windows);
        c
    }

    /// Recounts `board` in place, reusing the allocations (a search starts on a new position).
    pub fn reset(&mut self, board: &Board, windows: &Windows) {
        assert!(windows.cells.len() <= SET_WORDS * 64);
        self.n.clear();
        self.n.resize(windows.cells.len(), [0u8; 2]);
        *self.set = [[[0u64; SET_WORDS]; 2]; 2];
        for (w, cells) in windows.cells.iter().enumerate() {
            let mut k = [0u8; 2];
            for &p in cells {
                if let Some(col) = board.at(p) {
                    k[col.index()] += 1;
                }
            }
            self.change(w, [0, 0], k);
            self.n[w] = k;
        }
    }

    /// Moves window `w` from counts `old` to `new` in the window sets (any change).
    fn change(&mut self, w: usize, old: [u8; 2], new: [u8; 2]) {
        for ci in 0..2 {
            let o = if old[1 - ci] == 0 { old[ci] } else { 0 };
            let n = if new[1 - ci] == 0 { new[ci] } else { 0 };
            if o != n && (3..=4).contains(&o) {
                self.flip(ci, o, w);
            }
            if o != n && (3..=4).contains(&n) {
                self.flip(ci, n, w);
            }
        }
    }

    /// Toggles window `w` in the set of colour index `ci` at `k` (3 or 4) stones.
    #[inline]
    fn flip(&mut self, ci: usize, k: u8, w: usize) {
        // The mask keeps the index provably in range (windows never exceed the set's size).
        self.set[ci & 1][usize::from(k - 3) & 1][(w / 64) % SET_WORDS] ^= 1u64 << (w % 64);
    }

    /// The window-set update when a stone of colour index `ci` joins (or, `undo`, leaves)
    /// window `w`, whose counts without that stone are `own` and `opp`. Only a clean window
    /// moving between two and five own stones, or an opponent window with three or four stones
    /// losing (regaining) cleanness, changes a set; each change is a toggle, so the same code
    /// serves both directions.
    #[inline]
    fn step(&mut self, ci: usize, w: usize, own: u8, opp: u8) {
        if opp == 0 {
            match own {
                2 => self.flip(ci, 3, w),
                3 => {
                    self.flip(ci, 3, w);
                    self.flip(ci, 4, w);
                }
                4 => self.flip(ci, 4, w),
                _ => {}
            }
        } else if own == 0 && (3..=4).contains(&opp) {
            self.flip(1 - ci, opp, w);
        }
    }

    /// Places a stone of `c` at `p` on the board and in the counts.
    pub fn put(&mut self, board: &mut Board, windows: &Windows, p: Pos, c: Color) {
        board.put(p, c).expect("counted stone on an empty point");
        let ci = c.index();
        for &w in windows.of(p) {
            let w = w as usize;
            let [own, opp] = self.n[w];
            let (own, opp) = if ci == 0 { (own, opp) } else { (opp, own) };
            self.step(ci, w, own, opp);
            self.n[w][ci] += 1;
        }
    }

    /// Takes back the board's last stone, in the counts too.
    pub fn undo(&mut self, board: &mut Board, windows: &Windows) {
        let (p, c) = *board.history().last().expect("a stone to undo");
        board.undo();
        let ci = c.index();
        for &w in windows.of(p) {
            let w = w as usize;
            self.n[w][ci] -= 1;
            let [own, opp] = self.n[w];
            let (own, opp) = if ci == 0 { (own, opp) } else { (opp, own) };
            self.step(ci, w, own, opp);
        }
    }

    /// Counts a stone of `c` at `p` that the board already holds (the counts follow a board
    /// changed behind their back; [`Counts::put`] places the stone too).
    pub fn add(&mut self, windows: &Windows, p: Pos, c: Color) {
        let ci = c.index();
        for &w in windows.of(p) {
            let w = w as usize;
            let [own, opp] = self.n[w];
            let (own, opp) = if ci == 0 { (own, opp) } else { (opp, own) };
            self.step(ci, w, own, opp);
            self.n[w][ci] += 1;
        }
    }

    /// Uncounts a stone of `c` at `p` that the board no longer holds (see [`Counts::add`]).
    pub fn remove(&mut self, windows: &Windows, p: Pos, c: Color) {
        let ci = c.index();
        for &w in windows.of(p) {
            let w = w as usize;
            self.n[w][ci] -= 1;
            let [own, opp] = self.n[w];
            let (own, opp) = if ci == 0 { (own, opp) } else { (opp, own) };
            self.step(ci, w, own, opp);
        }
    }

    /// The stone counts (per colour index) of window `w`.
    #[inline]
    pub fn window(&self, w: u32) -> [u8; 2] {
        self.n[w as usize]
    }

    /// The empty cells of the clean windows of `c` holding `k` (3 or 4) stones of `c`.
    fn cells(&self, board: &Board, windows: &Windows, c: Color, k: u8) -> BitBoard {
        let mut out = BitBoard::EMPTY;
        let used = windows.cells.len().div_ceil(64);
        for (i, &word) in self.set[c.index()][usize::from(k - 3)][..used]
            .iter()
            .enumerate()
        {
            let mut bits = word;
            while bits != 0 {
                let w = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &(x, m) in &windows.masks[w] {
                    out.0[usize::from(x) % out.0.len()] |= m;
                }
            }
        }
        let (b, w) = (board.stones(Color::Black), board.stones(Color::White));
        for i in 0..out.0.len() {
            out.0[i] &= !(b.0[i] | w.0[i]);
        }
        out
    }

    /// The superset of `c`'s four points: the empty cells of clean windows with three stones.
    #[inline]
    pub fn fours(&self, board: &Board, windows: &Windows, c: Color) -> BitBoard {
        self.cells(board, windows, c, 3)
    }

    /// The superset of `c`'s five points: the empty cells of clean windows with four stones.
    #[inline]
    pub fn fives(&self, board: &Board, windows: &Windows, c: Color) -> BitBoard {
        self.cells(board, windows, c, 4)
    }

    /// [`scan`] from the counts.
    pub fn scan(&self, board: &Board, windows: &Windows, a: Color) -> Scan {
        let mut s = Scan::default();
        let (ai, di) = (a.index(), a.opponent().index());
        for (w, c) in windows.cells.iter().zip(self.n.iter()) {
            let target = match (c[ai], c[di]) {
                (4, 0) => &mut s.a_five,
                (3, 0) => &mut s.a_four,
                (2, 0) => &mut s.a_three,
                (0, 4) => &mut s.d_five,
                (0, 3) => &mut s.d_four,
                _ => continue,
            };
            for &p in w {
                if board.at(p).is_none() {
                    target.insert(p);
                }
            }
        }
        s
    }
}

/// Every window sorted by its stone counts, and the empty cells of each kind gathered into
/// [`Scan`]'s supersets. Bit-parallel: per direction, the windows' counts are added up as three
/// bit planes over the windows' first cells, and each kind is spread back over its five cells.
pub fn scan(board: &Board, windows: &Windows, a: Color) -> Scan {
    debug_assert_eq!(board.size(), windows.size);
    let (own, opp) = (board.stones(a), board.stones(a.opponent()));
    let mut s = Scan::default();
    for (dir, firsts) in Direction::ALL.iter().zip(windows.firsts.iter()) {
        let step = dir.stride();
        let count = |stones: &BitBoard| {
            // (ones, twos, fours): the binary count of stones in each window.
            let (mut c0, mut c1, mut c2) = (BitBoard::EMPTY, BitBoard::EMPTY, BitBoard::EMPTY);
            for k in 0..5 {
                let x = stones.shift_down(k * step).and(firsts);
                let carry0 = c0.and(&x);
                c0 = c0.or(&x).minus(&carry0);
                let carry1 = c1.and(&carry0);
                c1 = c1.or(&carry0).minus(&carry1);
                c2 = c2.or(&carry1);
            }
            (c0, c1, c2)
        };
        let (a0, a1, a2) = count(own);
        let (d0, d1, d2) = count(opp);
        let clean_of_d = firsts.minus(&d0.or(&d1).or(&d2));
        let clean_of_a = firsts.minus(&a0.or(&a1).or(&a2));
        let kinds = [
            (&mut s.a_five, clean_of_d.and(&a2).minus(&a1).minus(&a0)),
            (&mut s.a_four, clean_of_d.and(&a1).and(&a0).minus(&a2)),
            (&mut s.a_three, clean_of_d.and(&a1).minus(&a0).minus(&a2)),
            (&mut s.d_five, clean_of_a.and(&d2).minus(&d1).minus(&d0)),
            (&mut s.d_four, clean_of_a.and(&d1).and(&d0).minus(&d2)),
        ];
        for (target, starts) in kinds {
            if starts.is_empty() {
                continue;
            }
            let mut cells = BitBoard::EMPTY;
            for k in 0..5 {
                cells = cells.or(&starts.shift_up(k * step));
            }
            *target = target.or(&cells.minus(own).minus(opp));
        }
    }
    s
}

/// [`scan`] by walking every window (the oracle of its tests).
#[cfg(test)]
fn scan_windows(board: &Board, windows: &Windows, a: Color) -> Scan {
    let mut s = Scan::default();
    for w in &windows.cells {
        let (mut na, mut nd) = (0u8, 0u8);
        for &p in w {
            match board.at(p) {
                Some(c) if c == a => na += 1,
                Some(_) => nd += 1,
                None => {}
            }
        }
        let target = match (na, nd) {
            (4, 0) => &mut s.a_five,
            (3, 0) => &mut s.a_four,
            (2, 0) => &mut s.a_three,
            (0, 4) => &mut s.d_five,
            (0, 3) => &mut s.d_four,
            _ => continue,
        };
        for &p in w {
            if board.at(p).is_none() {
                target.insert(p);
            }
        }
    }
    s
}

/// The points where colour `c` wins at once under `rule`, confirmed from a superset.
pub fn confirm_fives(board: &Board, cands: &BitBoard, c: Color, rule: Rule) -> Vec<Pos> {
    cands
        .iter()
        .filter(|&q| rules::is_win_at(board, q, c, rule))
        .collect()
}

/// Every point where colour `c` wins at once under `rule` (a full window scan).
pub fn five_points(board: &Board, windows: &Windows, c: Color, rule: Rule) -> Vec<Pos> {
    let s = scan(board, windows, c);
    confirm_fives(board, &s.a_five, c, rule)
}

/// The empty points on the four lines through the stone at `p` (of colour `c`) where one more
/// stone of `c` wins. After a stone is placed, its new five points all lie on these lines.
pub fn five_points_through(board: &Board, p: Pos, c: Color, rule: Rule) -> Vec<Pos> {
    let mut out: Vec<Pos> = Vec::new();
    for d in Direction::ALL {
        for s in (-4..=4).filter(|&s| s != 0) {
            if let Some(q) = p.offset(d, s, board.size()) {
                if board.at(q).is_none()
                    && rules::wins_in_dir(board, q, d, c, rule)
                    && !out.contains(&q)
                {
                    out.push(q);
                }
            }
        }
    }
    out
}

/// After the attacker's stones made the five points `fives`, the defender's moves that leave
/// the attacker no five: the cells that stop every one of them, legal for `def`. Under every
/// rule but caro only a five point itself can stop a five; under caro a stone at the far end of
/// the five can also close it at both ends, so the cells around each five point are tried too.
pub fn stopping_moves(board: &mut Board, fives: &[Pos], att: Color, rule: Rule) -> Vec<Pos> {
    let def = att.opponent();
    let mut cands: Vec<Pos> = fives.to_vec();
    if rule == Rule::Caro {
        for &f in fives {
            for d in Direction::ALL {
                for s in (-5..=5).filter(|&s| s != 0) {
                    if let Some(q) = f.offset(d, s, board.size()) {
                        if board.at(q).is_none() && !cands.contains(&q) {
                            cands.push(q);
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for q in cands {
        board.put(q, def).expect("empty candidate");
        let stopped = fives
            .iter()
            .all(|&f| f == q || !rules::is_win_at(board, f, att, rule));
        board.undo();
        if stopped && rules::is_legal(board, q, def, rule) {
            out.push(q);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pic: &str) -> Board {
        Board::from_picture(pic).unwrap()
    }

    /// The bit-parallel scan against the window walk: random boards of several sizes, sparse
    /// to crowded, both colours as the attacker; every kind of set is met non-empty.
    #[test]
    fn scan_equals_the_window_walk() {
        let mut rng = crate::game::rng::SplitMix64::new(9);
        let mut met = [0; 5];
        for round in 0..400 {
            let size = [5, 9, 15, 20, 32][round % 5];
            let windows = Windows::new(size);
            let draws = rng.next_u64() as usize % (size * size / 2 + 1);
            let b = crate::game::board::scattered(&mut rng, size, draws);
            for a in [Color::Black, Color::White] {
                let (fast, walk) = (scan(&b, &windows, a), scan_windows(&b, &windows, a));
                let pairs = [
                    (fast.a_five, walk.a_five),
                    (fast.a_four, walk.a_four),
                    (fast.a_three, walk.a_three),
                    (fast.d_five, walk.d_five),
                    (fast.d_four, walk.d_four),
                ];
                for (i, (f, w)) in pairs.iter().enumerate() {
                    assert_eq!(f, w, "round {round} size {size} {a:?} kind {i}\n{b}");
                    met[i] += usize::from(!w.is_empty());
                }
            }
        }
        assert!(met.iter().all(|&m| m > 50), "kinds met: {met:?}");
    }

    const EMPTY9: &str = ". . . . . . . . .\n";

    #[test]
    fn windows_count_matches_geometry() {
        // Per direction: horizontal and vertical (n-4)*n each, both diagonals (n-4)^2 each.
        for n in [5usize, 9, 15, 20] {
            let w = Windows::new(n);
            assert_eq!(w.cells.len(), 2 * (n - 4) * n + 2 * (n - 4) * (n - 4));
        }
    }

    #[test]
    fn fives_fours_and_overlines_by_rule() {
        let pic = format!(
            "{}{}{}X X X . X . . . .\n{}{}{}{}{}",
            EMPTY9, EMPTY9, EMPTY9, EMPTY9, EMPTY9, EMPTY9, EMPTY9, EMPTY9
        );
        let b = board(&pic);
        let w = Windows::new(9);
        // XXX.X: (3,3) makes five in every rule.
        for r in Rule::ALL {
            assert_eq!(
                five_points(&b, &w, Color::Black, r),
                vec![Pos::new(3, 3)],
                "{r}"
            );
        }
        // XXXX.X. : (4,3) makes six: a win only in freestyle.
        let pic6 = pic.replace("X X X . X . . . .", "X X X X . X . . .");
        let b6 = board(&pic6);
        assert_eq!(
            five_points(&b6, &w, Color::Black, Rule::Freestyle),
            vec![Pos::new(4, 3)]
        );
        assert!(five_points(&b6, &w, Color::Black, Rule::Standard).is_empty());
        assert!(five_points(&b6, &w, Color::Black, Rule::Renju).is_empty());
        let s = scan(&b, &w, Color::Black);
        assert!(s.a_five.contains(Pos::new(3, 3)));
        assert!(s.d_five.is_empty());
    }

    /// The incremental window sets equal a fresh count after every stone and every take-back,
    /// and their cells are exactly the scan's four and five supersets.
    #[test]
    fn incremental_counts_match_fresh_counts() {
        let w = Windows::new(15);
        let mut b = Board::new(15);
        let mut c = Counts::new(&b, &w);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for step in 0..600 {
            // Mostly stones in a 7x7 corner so that windows fill up; sometimes a take-back.
            if b.stone_count() > 0 && next() % 4 == 0 {
                c.undo(&mut b, &w);
            } else {
                let p = Pos::new((next() % 7) as usize, (next() % 7) as usize);
                if b.is_empty_at(p) {
                    let col = if next() % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    c.put(&mut b, &w, p, col);
                }
            }
            assert_eq!(c, Counts::new(&b, &w), "step {step}");
            for col in [Color::Black, Color::White] {
                let s = scan(&b, &w, col);
                assert_eq!(c.fours(&b, &w, col), s.a_four, "step {step}");
                assert_eq!(c.fives(&b, &w, col), s.a_five, "step {step}");
            }
        }
        assert!(b.stone_count() > 10);
    }

    #[test]
    fn caro_block_at_far_end_counts() {
        // O X X X . . : the five point (4,0) closed at (5,0) makes a blocked five under caro.
        let mut b = board(
            "O X X X X . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n\
             . . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n\
             . . . . . . . . .\n",
        );
        let fives = vec![Pos::new(5, 0)];
        let mut stops = stopping_moves(&mut b, &fives, Color::Black, Rule::Caro);
        stops.sort();
        assert_eq!(stops, vec![Pos::new(5, 0), Pos::new(6, 0)]);
        assert_eq!(
            stopping_moves(&mut b, &fives, Color::Black, Rule::Standard),
            vec![Pos::new(5, 0)]
        );
    }
}
