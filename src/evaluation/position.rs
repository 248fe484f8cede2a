//! The searched position: a board plus everything the search reads per node, kept up to date
//! incrementally so that [`Position::evaluate`] is O(1).
//!
//! # What is maintained
//! - `keys[cell][dir]`: the 20-bit neighbourhood of every cell on each of its four lines
//!   ([`crate::game::pattern::LineKey`]). A stone change touches only the ten cells within five steps
//!   on each of the four lines through it.
//! - For every *empty* cell, both colours: the four directional [`Pattern`]s, and from them a
//!   [`CellInfo`] (value, threat rung, renju-suspect flag). Occupied cells hold the default info.
//! - `total[colour]`: the sums of the values of all empty cells (while that colour is to move,
//!   and while it waits); `rungs[colour][threat]`: how many
//!   empty cells reach each rung (so "does black have a five to make?" is one load);
//!   `supported[colour]`: how many make a supported four or three, only for weights that read
//!   the threat classes (counted once a move from the logged cells, not in the per-cell update).
//! - `candidates`: the empty cells with a stone within Chebyshev distance 2 (the
//!   move-generation area). A move only adds cells (its 5x5 square, minus itself and stones).
//!
//! `make` recomputes what the new stone changes and logs the old values (a frame per move with
//! the totals, rungs, candidate area and the moved cell's info; an entry per cell whose
//! patterns changed — a cell other than the move lies on one line through it, so it changes
//! at most once). `unmake` clears the keys and restores the log, with no pattern lookups.
//! Taking back a stone placed before the position was built (no frame) recomputes instead.
//!
//! The invariant, tested against [`Position::new`] after random make/unmake sequences under
//! every rule: the incremental state equals the state rebuilt from the board.
//!
//!
//! # Evaluation
//! [`Position::evaluate`] reads the side to move's total minus the opponent's waiting total,
//! plus the tempo bonus, the term of the two sides' highest threat rungs and the term of the
//! rungs each side reaches (its rung mask); what a cell is
//! worth is [`crate::evaluation::eval`]'s business, the values [`crate::evaluation::weights`]'.

use crate::evaluation::eval::{combination_table, CellInfo, CombinationTable, DIGIT};
use crate::evaluation::weights::{class_mask, mask_index, rung_mask, top_rung, WeightSet, Weights};
use crate::game::board::{BitBoard, Board, Color, Pos, CELLS};
use crate::game::pattern::{
    slot_shift, LineKey, PairTable, Pattern, PatternPair, Threat, ALL_WALL, HALF, THREATS, WALL,
};
use crate::game::rules::{self, Rule};

/// What `make` saves for `unmake`, once per move.
#[derive(Clone)]
struct Frame {
    log_len: usize,
    total: [[i32; 2]; 2],
    rungs: [[u16; THREATS]; 2],
    supported: [[u16; 2]; 2],
    candidates: BitBoard,
    /// The moved cell's info before the move.
    info: [CellInfo; 2],
}

/// A cell whose patterns a move changed, with its values before the move.
#[derive(Clone, Copy)]
struct Changed {
    qi: u16,
    d: u8,
    pair: PatternPair,
    codes: [u16; 2],
    info: [CellInfo; 2],
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
/// Cell-index step of each direction (the 32-column stride of [`Pos`]).
const STEP: [isize; 4] = [1, 32, 33, 31];
const FORBID_CACHE: usize = 1 << 12;

/// A board with its incrementally maintained patterns, evaluation and candidate area.
#[derive(Clone)]
pub struct Position {
    board: Board,
    rule: Rule,
    table: PairTable,
    combos: [CombinationTable; 2],
    keys: Box<[[LineKey; 4]]>,
    /// Per empty cell and direction, both colours' patterns.
    pairs: Box<[[PatternPair; 4]]>,
    /// Per empty cell and colour, its four patterns as a combination code (see [`CODES`]).
    codes: Box<[[u16; 2]]>,
    info: Box<[[CellInfo; 2]]>,
    /// Per colour, the sum of its empty cells' [`CellInfo::value`] and [`CellInfo::wait`].
    total: [[i32; 2]; 2],
    set: WeightSet,
    /// The weights read while each colour is to move (index: the colour).
    weights: [&'static Weights; 2],
    rungs: [[u16; THREATS]; 2],
    /// Per colour, how many empty cells make a supported four (`[0]`) or a supported open
    /// three (`[1]`) ([`CellInfo::supported`]; for the threat classes). Kept only when
    /// `track_classes`: zero otherwise.
    supported: [[u16; 2]; 2],
    /// Whether the weights read the threat classes ([`Weights::classes`]), so that `supported`
    /// is kept: the fitted files do not, and every cell update would pay for the count.
    track_classes: bool,
    candidates: BitBoard,
    /// One frame per `make` since construction.
    frames: Vec<Frame>,
    /// The cells changed by those moves, oldest first.
    log: Vec<Changed>,
    forbid_cache: Box<[u64]>,
}

fn code(c: Option<Color>) -> u32 {
    match c {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

impl Position {
    /// Builds the full state for `board` under `rule` from scratch (also the test oracle),
    /// with the default weights ([`WeightSet::DEFAULT`]).
    pub fn new(board: &Board, rule: Rule) -> Position {
        Position::with_weights(board, rule, WeightSet::DEFAULT)
    }

    /// [`Position::new`] with the weights `set`.
    pub fn with_weights(board: &Board, rule: Rule, set: WeightSet) -> Position {
        // The file read while each colour is to move (index: the colour).
        let files = [Color::Black, Color::White].map(|c| set.file(rule, c));
        let mut p = Position {
            board: board.clone(),
            rule,
            table: PairTable::new(rule),
            combos: [
                combination_table(rule == Rule::Renju, files[0], files[1]),
                combination_table(false, files[1], files[0]),
            ],
            keys: vec![[ALL_WALL; 4]; CELLS].into_boxed_slice(),
            pairs: vec![[PatternPair::default(); 4]; CELLS].into_boxed_slice(),
            codes: vec![[0u16; 2]; CELLS].into_boxed_slice(),
            info: vec![[CellInfo::default(); 2]; CELLS].into_boxed_slice(),
            total: [[0; 2]; 2],
            set,
            weights: files.map(|f| f.weights()),
            rungs: [[0; THREATS]; 2],
            supported: [[0; 2]; 2],
            track_classes: files.iter().any(|f| !f.weights().classes.is_empty()),
            candidates: BitBoard::EMPTY,
            frames: Vec::with_capacity(256),
            log: Vec::with_capacity(256 * 24),
            forbid_cache: vec![0u64; FORBID_CACHE * 2].into_boxed_slice(),
        };
        let size = board.size();
        for y in 0..size {
            for x in 0..size {
                let q = Pos::new(x, y);
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    let mut key = 0;
                    for off in (-HALF..=HALF).filter(|&o| o != 0) {
                        let v = match p
                            .board
                            .pos(x as i64 + (dx * off) as i64, y as i64 + (dy * off) as i64)
                        {
                            None => 3,
                            Some(r) => code(p.board.at(r)),
                        };
                        key |= v << slot_shift(off);
                    }
                    p.keys[q.index()][d] = key;
                }
                if p.board.at(q).is_none() {
                    p.refresh_cell(q);
                }
            }
        }
        p.candidates = p.area_from_scratch();
        p.count_supported();
        p
    }

    /// The candidate area computed from the stones on the board.
    fn area_from_scratch(&self) -> BitBoard {
        let mut area = BitBoard::EMPTY;
        for c in [Color::Black, Color::White] {
            for s in self.board.stones(c).iter() {
                Position::add_square(&mut area, s, self.board.size());
            }
        }
        let (b, w) = (
            self.board.stones(Color::Black),
            self.board.stones(Color::White),
        );
        for (a, (b, w)) in area.0.iter_mut().zip(b.0.iter().zip(w.0.iter())) {
            *a &= !(b | w);
        }
        area
    }

    /// Adds the on-board cells within Chebyshev distance 2 of `p` to `area` (one row mask per
    /// row: a row is 32 bits, two rows to a word).
    #[inline]
    fn add_square(area: &mut BitBoard, p: Pos, size: usize) {
        let (x, y) = (p.x(), p.y());
        let lo = x.saturating_sub(2);
        let hi = (x + 2).min(size - 1);
        let row = ((1u64 << (hi - lo + 1)) - 1) << lo;
        for r in y.saturating_sub(2)..=(y + 2).min(size - 1) {
            area.0[r / 2] |= row << ((r % 2) * 32);
        }
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// The Zobrist key of the board.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board.key()
    }

    /// What the empty cell `p` offers colour `c` (the default for occupied cells).
    #[inline]
    pub fn info(&self, p: Pos, c: Color) -> CellInfo {
        self.info[p.index()][c.index()]
    }

    /// The four directional patterns of the empty cell `p` for colour `c`.
    #[inline]
    pub fn patterns(&self, p: Pos, c: Color) -> [Pattern; 4] {
        self.pairs[p.index()].map(|pair| pair.get(c.index()))
    }

    /// How many empty cells reach exactly rung `t` for colour `c`.
    #[inline]
    pub fn rung_count(&self, c: Color, t: Threat) -> u16 {
        self.rungs[c.index()][t as usize]
    }

    /// The empty cells within distance 2 of a stone.
    #[inline]
    pub fn candidates(&self) -> &BitBoard {
        &self.candidates
    }

    /// The evaluation from the side to move's view.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let me = self.side_to_move().index();
        let w = self.weights[me];
        let (mine, theirs) = (rung_mask(&self.rungs[me]), rung_mask(&self.rungs[1 - me]));
        let fitted = self.total[me][0] - self.total[1 - me][1]
            + w.tempo
            + w.threat[top_rung(mine)][top_rung(theirs)]
            + w.mask[mask_index(mine, theirs)];
        if w.two_ply || self.track_classes {
            fitted + self.classical_terms(w, me)
        } else {
            fitted
        }
    }

    /// What the classical model's terms add to [`Position::evaluate`]'s fitted expression:
    /// the two-ply mean in place of this position's sums, and the threat classes. Apart, so
    /// that the fitted files' evaluation stays as small as it was on the hot path.
    #[inline(never)]
    fn classical_terms(&self, w: &Weights, me: usize) -> i32 {
        let mut terms = 0;
        if w.two_ply {
            // The previous position, the other side to move, seen from this side: its waiting
            // sum against the other side's moving one. None before the first move made here.
            if let Some(f) = self.frames.last() {
                let sums = self.total[me][0] - self.total[1 - me][1];
                terms += (sums + f.total[me][1] - f.total[1 - me][0]) / 2 - sums;
            }
        }
        if !w.classes.is_empty() {
            let rungs = [&self.rungs[me], &self.rungs[1 - me]];
            terms += w.classes[class_mask(rungs, [self.supported[me], self.supported[1 - me]])];
        }
        terms
    }

    /// The evaluation recomputed from the board alone (the oracle of [`Position::evaluate`]):
    /// from the board before the last move made here, then that move, when the weights read
    /// the previous position too (`two-ply`).
    pub fn evaluate_full(&self) -> i32 {
        if self.weights().two_ply && !self.frames.is_empty() {
            let mut before = self.board.clone();
            let last = before.undo().expect("a frame has its move");
            let mut p = Position::with_weights(&before, self.rule, self.set);
            p.make(last);
            return p.evaluate();
        }
        Position::with_weights(&self.board, self.rule, self.set).evaluate()
    }

    /// The weights the evaluation and the move policy read with the side to move to move.
    #[inline]
    pub fn weights(&self) -> &'static Weights {
        self.weights[self.side_to_move().index()]
    }

    /// Plays `p` for the side to move. `p` must be an empty point on the board.
    pub fn make(&mut self, p: Pos) {
        let c = self.side_to_move();
        let pi = p.index();
        self.frames.push(Frame {
            log_len: self.log.len(),
            total: self.total,
            rungs: self.rungs,
            supported: self.supported,
            candidates: self.candidates,
            info: self.info[pi],
        });
        self.board.play(p).expect("make on an empty point");
        self.clear_info(p);
        Position::add_square(&mut self.candidates, p, self.board.size());
        let (b, w) = (
            self.board.stones(Color::Black),
            self.board.stones(Color::White),
        );
        let y = p.y();
        for r in [y.saturating_sub(2) / 2, y / 2, (y + 2).min(31) / 2] {
            self.candidates.0[r] &= !(b.0[r] | w.0[r]);
        }
        self.update_lines::<true>(p, code(Some(c)));
        if self.track_classes {
            self.update_supported();
        }
    }

    /// Recounts the supported threats of every empty cell (when they are kept).
    fn count_supported(&mut self) {
        self.supported = [[0; 2]; 2];
        if !self.track_classes {
            return;
        }
        for q in self.board.empty_cells() {
            for (ci, info) in self.info[q.index()].into_iter().enumerate() {
                if let Some(slot) = info.supported_slot() {
                    self.supported[ci][slot] += 1;
                }
            }
        }
    }

    /// Brings the supported counts up to date after `make`, from the cells it logged (their
    /// infos before the move) and the moved cell: apart from the per-cell update, which the
    /// fitted files' hot path would otherwise pay for. Each changed cell is logged once a
    /// move (a cell shares one line with the moved stone, so only one of its directions
    /// changes), so "minus its logged info, plus its info now" counts it exactly once.
    fn update_supported(&mut self) {
        let frame = self.frames.last().expect("called after make");
        let mut delta = [[0i32; 2]; 2];
        let mut apply = |ci: usize, info: CellInfo, sign: i32| {
            if let Some(slot) = info.supported_slot() {
                delta[ci][slot] += sign;
            }
        };
        for ci in 0..2 {
            apply(ci, frame.info[ci], -1);
        }
        for e in &self.log[frame.log_len..] {
            for ci in 0..2 {
                apply(ci, e.info[ci], -1);
                apply(ci, self.info[e.qi as usize][ci], 1);
            }
        }
        for (counts, d) in self.supported.iter_mut().zip(delta) {
            for (n, d) in counts.iter_mut().zip(d) {
                *n = (*n as i32 + d) as u16;
            }
        }
    }

    /// Takes back the last move.
    pub fn unmake(&mut self) {
        let p = self.board.undo().expect("unmake with a move to take back");
        let Some(frame) = self.frames.pop() else {
            // A stone placed before this position was built.
            self.candidates = self.area_from_scratch();
            self.update_lines::<false>(p, 0);
            self.refresh_cell(p);
            self.count_supported();
            return;
        };
        self.clear_keys(p);
        for e in self.log.drain(frame.log_len..).rev() {
            let qi = e.qi as usize;
            self.pairs[qi][e.d as usize] = e.pair;
            self.codes[qi] = e.codes;
            self.info[qi] = e.info;
        }
        self.info[p.index()] = frame.info;
        self.total = frame.total;
        self.rungs = frame.rungs;
        self.supported = frame.supported;
        self.candidates = frame.candidates;
    }

    /// Empties slot `p` in the keys of the cells within five steps on its four lines.
    fn clear_keys(&mut self, p: Pos) {
        let pk = self.keys[p.index()];
        for (d, &key_p) in pk.iter().enumerate() {
            for sign in [-1i32, 1] {
                for step in 1..=HALF {
                    if (key_p >> slot_shift(sign * step)) & 3 == WALL {
                        break;
                    }
                    let qi = (p.index() as isize + (sign * step) as isize * STEP[d]) as usize;
                    self.keys[qi][d] &= !(3 << slot_shift(-sign * step));
                }
            }
        }
    }

    /// Whether black may not play the empty point `p` (renju only; cached per position and
    /// point, because the full check recurses).
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        if self.rule != Rule::Renju {
            return false;
        }
        let tag = (self.board.key() ^ (p.0 as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
        let slot = (tag >> 40) as usize & (FORBID_CACHE - 1);
        if self.forbid_cache[2 * slot] == tag {
            return self.forbid_cache[2 * slot + 1] != 0;
        }
        let f = rules::is_forbidden(&mut self.board, p, self.rule);
        self.forbid_cache[2 * slot] = tag;
        self.forbid_cache[2 * slot + 1] = f as u64;
        f
    }

    /// Whether colour `c` may play the empty point `p`: not a renju forbidden point for black.
    /// Only suspects are checked (see [`CellInfo::suspect`]).
    #[inline]
    pub fn is_legal_for(&mut self, p: Pos, c: Color) -> bool {
        !(c == Color::Black && self.info(p, c).suspect && self.is_forbidden(p))
    }

    /// Sets slot `p` to `v` in the keys of the cells within five steps on its four lines and
    /// refreshes the patterns of the empty ones that can change.
    ///
    /// What lies on each line around `p` is read from `p`'s own keys (they do not include `p`
    /// and so are current): a wall slot ends the line, an occupied slot needs only its key
    /// updated. When no colour's pattern reads the fifth cell (freestyle), the lookups there
    /// are skipped.
    fn update_lines<const LOG: bool>(&mut self, p: Pos, v: u32) {
        let reach = if self.table.reads_fifth_cell() {
            HALF
        } else {
            HALF - 1
        };
        let pk = self.keys[p.index()];
        for (d, &key_p) in pk.iter().enumerate() {
            for sign in [-1i32, 1] {
                for step in 1..=HALF {
                    let there = (key_p >> slot_shift(sign * step)) & 3;
                    if there == WALL {
                        break;
                    }
                    let qi = (p.index() as isize + (sign * step) as isize * STEP[d]) as usize;
                    // p lies at offset -sign*step from q.
                    let shift = slot_shift(-sign * step);
                    let k = &mut self.keys[qi][d];
                    *k = (*k & !(3 << shift)) | (v << shift);
                    if there == 0 && step <= reach {
                        let key = *k;
                        self.refresh_dir::<LOG>(qi, d, key);
                    }
                }
            }
        }
    }

    /// Recomputes both colours' patterns of the empty cell `qi` in direction `d` from its
    /// `key` and, for a colour whose pattern changed, the cell's code and info.
    #[inline]
    fn refresh_dir<const LOG: bool>(&mut self, qi: usize, d: usize, key: LineKey) {
        let new = self.table.get(key);
        let old = self.pairs[qi][d];
        if old == new {
            return;
        }
        if LOG {
            self.log.push(Changed {
                qi: qi as u16,
                d: d as u8,
                pair: old,
                codes: self.codes[qi],
                info: self.info[qi],
            });
        }
        self.pairs[qi][d] = new;
        let (old, new) = (old.digits(), new.digits());
        for c in 0..2 {
            if old[c] != new[c] {
                let code = &mut self.codes[qi][c];
                *code = (*code as i32 + (new[c] - old[c]) * DIGIT[d]) as u16;
                let info = self.combos[c].get(*code as usize);
                self.set_info_at(qi, c, info);
            }
        }
    }

    /// Recomputes every pattern, code and info of the empty cell `q` from its keys.
    fn refresh_cell(&mut self, q: Pos) {
        let qi = q.index();
        let mut codes = [0i32; 2];
        for (d, &digit) in DIGIT.iter().enumerate() {
            let pair = self.table.get(self.keys[qi][d]);
            self.pairs[qi][d] = pair;
            for (c, code) in codes.iter_mut().enumerate() {
                *code += pair.get(c) as i32 * digit;
            }
        }
        for (c, &code) in codes.iter().enumerate() {
            self.codes[qi][c] = code as u16;
            let info = self.combos[c].get(code as usize);
            self.set_info_at(qi, c, info);
        }
    }

    fn clear_info(&mut self, q: Pos) {
        for c in [Color::Black, Color::White] {
            self.set_info(q, c, CellInfo::default());
        }
    }

    #[inline]
    fn set_info(&mut self, q: Pos, c: Color, new: CellInfo) {
        self.set_info_at(q.index(), c.index(), new);
    }

    #[inline]
    fn set_info_at(&mut self, qi: usize, ci: usize, new: CellInfo) {
        let old = std::mem::replace(&mut self.info[qi][ci], new);
        self.total[ci][0] += new.value - old.value;
        self.total[ci][1] += new.wait - old.wait;
        self.rungs[ci][old.threat as usize] -= (old.threat != Threat::None) as u16;
        self.rungs[ci][new.threat as usize] += (new.threat != Threat::None) as u16;
    }

    /// The cells of `c` at rung `t` or above, in index order.
    pub fn cells_at_least(&self, c: Color, t: Threat) -> impl Iterator<Item = Pos> + '_ {
        self.candidates
            .iter()
            .filter(move |&q| self.info(q, c).threat >= t)
    }

    /// Whether colour `c` has any cell at rung `t` or above.
    #[inline]
    pub fn has_at_least(&self, c: Color, t: Threat) -> bool {
        self.rungs[c.index()][t as usize..].iter().any(|&n| n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::rng::SplitMix64 as Lcg;

    fn assert_same(a: &Position, b: &Position, ctx: &str) {
        assert_eq!(a.total, b.total, "totals {ctx}");
        assert_eq!(a.rungs, b.rungs, "rungs {ctx}");
        assert_eq!(a.supported, b.supported, "supported {ctx}");
        assert_eq!(a.candidates, b.candidates, "candidates {ctx}");
        let size = a.board.size();
        for y in 0..size {
            for x in 0..size {
                let q = Pos::new(x, y);
                assert_eq!(a.keys[q.index()], b.keys[q.index()], "keys at {q} {ctx}");
                if a.board.at(q).is_none() {
                    assert_eq!(a.pairs[q.index()], b.pairs[q.index()], "pairs at {q} {ctx}");
                    assert_eq!(a.codes[q.index()], b.codes[q.index()], "codes at {q} {ctx}");
                }
                assert_eq!(a.info[q.index()], b.info[q.index()], "info at {q} {ctx}");
            }
        }
    }

    /// Random make/unmake sequences: the incremental state equals a rebuild at every step,
    /// under every rule and every weight set (the fitted ones value a cell differently for the
    /// side to move and the side waiting, and read the top threat rungs).
    #[test]
    fn incremental_equals_full_under_every_rule() {
        for rule in Rule::ALL {
            for (size, seed) in [(9usize, 1u64), (15, 2), (9, 3), (15, 4)] {
                let mut rng = Lcg::new(seed * 31 + rule as u64);
                let set = WeightSet::ALL[seed as usize % WeightSet::ALL.len()];
                let mut pos = Position::with_weights(&Board::new(size), rule, set);
                let mut played = 0;
                for step in 0..(size * size) {
                    let undo = played > 0 && rng.next_u64() % 4 == 0;
                    if undo {
                        pos.unmake();
                        played -= 1;
                    } else {
                        let empties: Vec<Pos> = pos.board.empty_cells().collect();
                        if empties.is_empty() {
                            break;
                        }
                        let q = empties[rng.next_u64() as usize % empties.len()];
                        pos.make(q);
                        played += 1;
                    }
                    let fresh = Position::with_weights(&pos.board, rule, set);
                    assert_same(&pos, &fresh, &format!("{rule} {size} {set} step {step}"));
                    assert_eq!(pos.evaluate(), pos.evaluate_full());
                }
            }
        }
    }

    /// The evaluation reads one file, the side to move's ([`WeightSet::file`]): its `mover`
    /// values for the side to move's cells, its `waiter` values for the other side's, its
    /// tempo, threat and rung-mask terms. Checked against a sum straight from the files, under
    /// every rule and set (`eval`'s tests tell a cell's two files apart, which no embedded set does yet).
    #[test]
    fn evaluation_reads_the_side_to_moves_file() {
        use crate::evaluation::weights::canonical;
        let moves = [
            (7, 7),
            (8, 8),
            (6, 8),
            (7, 9),
            (8, 7),
            (6, 6),
            (9, 9),
            (5, 7),
            (7, 6),
        ];
        // The cell sums from the side to move's view, straight from its file.
        let cell_sums = |pos: &Position| {
            let (me, op) = (pos.side_to_move(), pos.side_to_move().opponent());
            let w = pos.set.weights(pos.rule, me);
            let mut sum = 0;
            for q in pos.board.empty_cells() {
                for (c, table) in [(me, &w.mover), (op, &w.waiter)] {
                    if !pos.info(q, c).suspect {
                        let v = table[canonical(&pos.patterns(q, c))];
                        sum += if c == me { v } else { -v };
                    }
                }
            }
            sum
        };
        for rule in Rule::ALL {
            for set in WeightSet::ALL {
                let mut pos = Position::with_weights(&Board::new(15), rule, set);
                for &(x, y) in &moves {
                    let before = cell_sums(&pos);
                    pos.make(Pos::new(x, y));
                    let (me, op) = (pos.side_to_move(), pos.side_to_move().opponent());
                    let w = set.weights(rule, me);
                    let mut sum = cell_sums(&pos);
                    if w.two_ply {
                        // The previous position's sums, seen from this side.
                        sum = (sum - before) / 2;
                    }
                    sum += w.tempo;
                    if !w.classes.is_empty() {
                        // The classes from the cells' own infos, not from the kept counts.
                        let counts = |c: Color| {
                            let (mut rungs, mut supported) = ([0u16; THREATS], [0u16; 2]);
                            for q in pos.board.empty_cells() {
                                let info = pos.info(q, c);
                                if info.threat != Threat::None {
                                    rungs[info.threat as usize] += 1;
                                }
                                if info.supported {
                                    supported[(info.threat == Threat::Three) as usize] += 1;
                                }
                            }
                            (rungs, supported)
                        };
                        let ((rm, sm), (ro, so)) = (counts(me), counts(op));
                        sum += w.classes[class_mask([&rm, &ro], [sm, so])];
                    }
                    let top = |c: Color| {
                        (1..THREATS)
                            .rev()
                            .find(|&t| pos.rungs[c.index()][t] > 0)
                            .unwrap_or(0)
                    };
                    sum += w.threat[top(me)][top(op)];
                    // The rung masks from the cells' own rungs, not from the kept counts.
                    let mask = |c: Color| {
                        pos.board
                            .empty_cells()
                            .fold(0, |m, q| match pos.info(q, c).threat {
                                Threat::None => m,
                                t => m | 1 << (t as usize - 1),
                            })
                    };
                    assert_eq!(rung_mask(&pos.rungs[me.index()]), mask(me));
                    assert_eq!(top_rung(mask(op)), top(op));
                    sum += w.mask[mask_index(mask(me), mask(op))];
                    assert_eq!(pos.evaluate(), sum, "{rule} {set} after {x},{y}");
                    assert!(std::ptr::eq(pos.weights(), w));
                }
            }
        }
    }

    /// Taking back stones placed before the position was built (no saved area) rebuilds it.
    #[test]
    fn unmake_past_construction() {
        let mut b = Board::new(15);
        for (x, y) in [(7, 7), (8, 8), (6, 8), (0, 0), (14, 14), (7, 9)] {
            b.play(Pos::new(x, y)).unwrap();
        }
        for rule in Rule::ALL {
            let mut pos = Position::new(&b, rule);
            pos.make(Pos::new(9, 9));
            for _ in 0..4 {
                pos.unmake();
                let fresh = Position::new(&pos.board, rule);
                assert_same(&pos, &fresh, &format!("{rule} after unmake"));
            }
        }
    }

    #[test]
    fn rungs_read_the_board_threats() {
        let b = Board::from_picture(
            "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . O O O . . . .\n\
            . . . . . . . . .\n\
            . . X X X X O . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n",
        )
        .unwrap();
        let p = Position::new(&b, Rule::Freestyle);
        // Black's closed four: one five point.
        assert_eq!(p.rung_count(Color::Black, Threat::Five), 1);
        assert_eq!(p.info(Pos::new(1, 4), Color::Black).threat, Threat::Five);
        // White's open three: both adjacent ends make an open four.
        assert_eq!(
            p.info(Pos::new(1, 2), Color::White).threat,
            Threat::OpenFour
        );
        assert_eq!(
            p.info(Pos::new(5, 2), Color::White).threat,
            Threat::OpenFour
        );
        assert_eq!(p.rung_count(Color::White, Threat::OpenFour), 2);
    }
}
