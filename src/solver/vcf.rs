//! The VCF solver: the attacker plays only fours, the defender's reply is forced.
//!
//! Depth-first search over the attacker's fours with a table of refuted positions keyed by the
//! Zobrist key (which includes the side to move, always the attacker at a node).
//!
//! At every attacker node, in order:
//! 1. an attacker five point wins;
//! 2. two or more defender five points lose (one four cannot stop both);
//! 3. one defender five point `f`: the only candidate is `f`, and only if it is also a four
//!    (blocking with a four keeps the initiative);
//! 4. otherwise every four. After a four the defender's replies are the legal moves that stop
//!    all its five points ([`threats::stopping_moves`]); none means the four wins (two five
//!    points, or renju black's only block is forbidden). A renju black four on a forbidden point
//!    is skipped. The defender cannot answer with a five of its own: it had none (step 2-3).
//!
//! Under caro one four can have several stopping replies; the solver does not branch on them,
//! so such a four is skipped and a failed search then answers `Unknown`, never `NoWin`.
//!
//! Table entries record the depth a refutation holds for: `EXACT` when the subtree hit no depth
//! cut (the position has no VCF at all), else the remaining depth searched.
//!
//! # Cost per node
//! Candidates come from the incremental window sets of [`Counts`] (no board scan); a four's five
//! points from the windows through it; a four with one five point has a known reply, so its
//! child is looked up in the table before anything is played (most refuted children end
//! there); black's forbidden test runs only when the window counts leave a forbidden shape
//! possible. Debug builds check each shortcut against the plain rule functions.

use super::replay::{self, DefenderFives};
use super::threats::{self, Counts, Windows};
use super::{Budget, Proof};
use crate::game::board::{
    zobrist, BitBoard, Board, Color, Direction, Pos, CELLS, MAX_SIZE, STRIDE,
};
use crate::game::rules::{self, Rule};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Zobrist keys are already uniformly random: hashing them again only costs time.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A table keyed by Zobrist key.
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

const EXACT: u8 = u8::MAX;

/// The outcome of one internal search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Res {
    /// A forced win, as a line (see [`Proof::Win`]).
    Win(Vec<Pos>),
    /// No win; `exact` when no depth cut or skipped four was involved.
    Fail {
        /// Whether the refutation is complete.
        exact: bool,
    },
    /// The budget ran out.
    Abort,
}

/// A reusable VCF solver: keeps its refutation table between calls on the same rule.
#[derive(Debug)]
pub struct VcfSolver {
    windows: Windows,
    counts: Counts,
    table: KeyMap<u8>,
    rule: Option<Rule>,
    /// The stones (in board order) `counts` hold between searches, and their board's size.
    counted: Vec<(Pos, Color)>,
    counts_size: usize,
    /// Nodes searched since creation (or the last [`VcfSolver::clear`]).
    pub nodes: u64,
    /// Most fours in one line (the depth cap); a cut makes the answer `Unknown`, not `NoWin`.
    pub max_fours: u8,
    /// Most refutations the table holds: a full table is emptied before the next one is
    /// stored (a cache miss later, never a wrong answer), which bounds its memory.
    pub max_entries: usize,
}

impl Default for VcfSolver {
    fn default() -> Self {
        VcfSolver::new()
    }
}

impl VcfSolver {
    /// A solver with an empty table.
    pub fn new() -> VcfSolver {
        let windows = Windows::new(15);
        VcfSolver {
            counts: Counts::new(&Board::new(15), &windows),
            windows,
            table: KeyMap::default(),
            rule: None,
            counted: Vec::new(),
            counts_size: 0,
            nodes: 0,
            max_fours: 112,
            max_entries: usize::MAX,
        }
    }

    /// Records a refutation, emptying a full table first (see [`VcfSolver::max_entries`]).
    fn remember(&mut self, key: u64, value: u8) {
        if self.table.len() >= self.max_entries {
            self.table.clear();
        }
        self.table.insert(key, value);
    }

    /// Forgets every stored refutation and the node count.
    pub fn clear(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    /// Forgets every stored refutation, keeping the node count (a caller that budgets by the
    /// cumulative count keeps counting).
    pub fn forget(&mut self) {
        self.table.clear();
    }

    /// How many refutations the table holds (callers bound its memory with
    /// [`VcfSolver::forget`]).
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    fn prepare(&mut self, board: &Board, rule: Rule) {
        if self.windows.size() != board.size() {
            self.windows = Windows::new(board.size());
            self.table.clear();
        }
        if self.rule != Some(rule) {
            self.table.clear();
            self.rule = Some(rule);
        }
        // Callers often search positions a stone or two apart (a VCT tries each defence):
        // the counts follow those few stones instead of recounting every window.
        let now = board.history();
        let same = self
            .counted
            .iter()
            .zip(now)
            .take_while(|(x, y)| x == y)
            .count();
        if self.counts_size == board.size() && self.counted.len() + now.len() - 2 * same <= 6 {
            for &(p, c) in self.counted[same..].iter().rev() {
                self.counts.remove(&self.windows, p, c);
            }
            for &(p, c) in &now[same..] {
                self.counts.add(&self.windows, p, c);
            }
            debug_assert!(self.counts == Counts::new(board, &self.windows));
        } else {
            self.counts.reset(board, &self.windows);
            self.counts_size = board.size();
        }
        self.counted.clear();
        self.counted.extend_from_slice(now);
    }

    /// The raw search from the side to move (`attacker`), at most `fours` attacker fours deep.
    /// Unverified: callers that publish a win verify it.
    pub(crate) fn search(
        &mut self,
        board: &mut Board,
        rule: Rule,
        attacker: Color,
        fours: u8,
        budget: &Budget,
    ) -> Res {
        debug_assert_eq!(board.side_to_move(), attacker);
        self.prepare(board, rule);
        self.node(board, rule, attacker, fours, budget)
    }

    /// One attacker node (see the module docs for the steps). Long on purpose: the steps share
    /// the node's fours and replies in locals, and this is the VCF search's hot recursion.
    fn node(&mut self, b: &mut Board, rule: Rule, a: Color, depth: u8, budget: &Budget) -> Res {
        self.nodes += 1;
        if budget.exhausted(self.nodes) {
            return Res::Abort;
        }
        let key = b.key();
        if let Some(&d) = self.table.get(&key) {
            if d >= depth {
                return Res::Fail { exact: d == EXACT };
            }
        }
        let d = a.opponent();
        let a_five = self.counts.fives(b, &self.windows, a);
        if let Some(f) = a_five.iter().find(|&q| rules::is_win_at(b, q, a, rule)) {
            return Res::Win(vec![f]);
        }
        let mut dfive = None;
        for q in self.counts.fives(b, &self.windows, d).iter() {
            if rules::is_win_at(b, q, d, rule) {
                if dfive.is_some() {
                    // Two defender five points: one four cannot stop both.
                    self.remember(key, EXACT);
                    return Res::Fail { exact: true };
                }
                dfive = Some(q);
            }
        }
        let fours = self.counts.fours(b, &self.windows, a);
        let mut cands: Vec<Pos> = match dfive {
            None => fours.iter().collect(),
            Some(f) if fours.contains(f) => vec![f],
            Some(_) => {
                self.remember(key, EXACT);
                return Res::Fail { exact: true };
            }
        };
        if depth == 0 {
            return Res::Fail { exact: false };
        }
        if let Some(last) = b.last_move() {
            cands.sort_by_key(|&p| p.chebyshev(last));
        }
        let mut exact = true;
        for m in cands {
            let fives = self.fives_made_by(b, rule, a, m);
            if fives.is_empty() {
                continue;
            }
            if fives.len() == 1 && rule != Rule::Caro && !(d == Color::Black && rule == Rule::Renju)
            {
                // The reply is forced and legal: a refuted child is found without playing it
                // (nor testing whether the four is forbidden: either way it is no way on).
                let child = key ^ zobrist(a, m) ^ zobrist(d, fives.0[0]);
                if let Some(&t) = self.table.get(&child) {
                    if t >= depth - 1 {
                        exact &= t == EXACT;
                        continue;
                    }
                }
            }
            if a == Color::Black && rule == Rule::Renju {
                if self.four_may_be_forbidden(b, m) {
                    if rules::is_forbidden(b, m, rule) {
                        continue;
                    }
                } else {
                    debug_assert!(!rules::is_forbidden(b, m, rule), "{m} forbidden\n{b}");
                }
            }
            self.counts.put(b, &self.windows, m, a);
            let r = if rule == Rule::Caro {
                let stops = threats::stopping_moves(b, fives.as_slice(), a, rule);
                match stops.len() {
                    0 => None,
                    1 => Some(stops[0]),
                    _ => {
                        // The defender has a choice the line format cannot show.
                        self.counts.undo(b, &self.windows);
                        exact = false;
                        continue;
                    }
                }
            } else if fives.len() == 1
                && !(d == Color::Black && self.forbidden(b, fives.0[0], rule))
            {
                // Only a stone on the five point stops it (a defender stone elsewhere never
                // shortens the attacker's line), and the defender has no five of its own.
                Some(fives.0[0])
            } else {
                None
            };
            let Some(r) = r else {
                let line = finish_line(b, rule, a, m, fives.as_slice());
                self.counts.undo(b, &self.windows);
                return Res::Win(line);
            };
            self.counts.put(b, &self.windows, r, d);
            let res = self.node(b, rule, a, depth - 1, budget);
            self.counts.undo(b, &self.windows);
            self.counts.undo(b, &self.windows);
            match res {
                Res::Win(mut line) => {
                    line.splice(0..0, [m, r]);
                    return Res::Win(line);
                }
                Res::Fail { exact: e } => exact &= e,
                Res::Abort => return Res::Abort,
            }
        }
        self.remember(key, if exact { EXACT } else { depth });
        Res::Fail { exact }
    }

    /// The five points the attacker's stone at the empty `m` would make (none if `m` is no
    /// four under `rule`). They lie in the clean windows through `m` that hold three attacker
    /// stones, one per window: its other empty cell, confirmed by the rule with `m` placed.
    fn fives_made_by(&self, b: &mut Board, rule: Rule, a: Color, m: Pos) -> Fives {
        let (ai, di) = (a.index(), a.opponent().index());
        let mut cand = [(m, 0u32); 20];
        let mut n = 0;
        for &w in self.windows.of(m) {
            let c = self.counts.window(w);
            if c[ai] == 3 && c[di] == 0 {
                let e = self
                    .windows
                    .cells(w)
                    .iter()
                    .copied()
                    .find(|&q| q != m && b.at(q).is_none())
                    .expect("a clean window with three stones has two empty cells");
                if !cand[..n].iter().any(|&(q, _)| q == e) {
                    cand[n] = (e, w);
                    n += 1;
                }
            }
        }
        let mut out = Fives([m; 8], 0);
        if n == 0 {
            return out;
        }
        // With `m` and `e` the window is five stones in a row; whether that wins depends only
        // on the cells just outside it (an overline under exact-five rules), except in caro
        // (blocked ends), where the rule decides with `m` placed.
        let exact = rule != Rule::Freestyle && !(rule == Rule::Renju && a == Color::White);
        if rule == Rule::Caro {
            b.put(m, a).expect("candidate is empty");
        }
        for &(e, w) in &cand[..n] {
            let wins = match rule {
                Rule::Caro => rules::wins_in_dir(b, e, self.windows.dir(w), a, rule),
                _ if exact => {
                    let cells = self.windows.cells(w);
                    let dir = self.windows.dir(w);
                    let size = b.size();
                    let own = |q: Option<Pos>| q.is_some_and(|q| b.at(q) == Some(a));
                    !own(cells[0].offset(dir, -1, size)) && !own(cells[4].offset(dir, 1, size))
                }
                _ => true,
            };
            debug_assert_eq!(wins, {
                let caro = rule == Rule::Caro;
                if !caro {
                    b.put(m, a).expect("candidate is empty");
                }
                let r = rules::wins_in_dir(b, e, self.windows.dir(w), a, rule);
                if !caro {
                    b.undo();
                }
                r
            });
            if wins && out.1 < out.0.len() {
                out.0[out.1] = e;
                out.1 += 1;
            }
        }
        if rule == Rule::Caro {
            b.undo();
        }
        out
    }

    /// Whether the window counts allow black a forbidden shape at the empty point `p` (false
    /// proves it is not forbidden; it depends only on the lines through `p` within four steps).
    /// Every forbidden shape needs lines in two directions through `p` that each hold two black
    /// stones in a clean window (double three, double four), two clean windows with three black
    /// stones in one direction (a double four on one line), or a clean window with four (an
    /// overline passes through one).
    fn may_be_forbidden(&self, p: Pos, rule: Rule) -> bool {
        if rule != Rule::Renju {
            return false;
        }
        let (bi, wi) = (Color::Black.index(), Color::White.index());
        let mut hot = [false; 4];
        let mut threes = [0u8; 4];
        for &w in self.windows.of(p) {
            let c = self.counts.window(w);
            if c[wi] != 0 || c[bi] < 2 {
                continue;
            }
            let di = self.windows.dir(w) as usize;
            hot[di] = true;
            if c[bi] >= 3 {
                threes[di] += 1;
                if c[bi] >= 4 || threes[di] >= 2 {
                    return true;
                }
            }
        }
        hot.iter().filter(|&&h| h).count() >= 2
    }

    /// [`VcfSolver::may_be_forbidden`] for a black four candidate `m` (empty; in a clean window
    /// with three black stones). A four is forbidden only as part of an overline, a second four
    /// or two threes in other directions (a four-three is legal). So the full test is needed
    /// only when: a clean window through `m` holds four black stones (overline); the windows
    /// with three in two directions (two fours); their other empty cells in one direction are
    /// two points not five apart, or more (two fours on one line: a straight four's two points
    /// are five apart); or two other directions hold two black stones in a clean window.
    fn four_may_be_forbidden(&self, b: &Board, m: Pos) -> bool {
        let (bi, wi) = (Color::Black.index(), Color::White.index());
        let mut fives: [(Pos, usize); 20] = [(m, 0); 20];
        let mut n = 0;
        let mut four_dirs = 0u8;
        let mut two_dirs = 0u8;
        for &w in self.windows.of(m) {
            let c = self.counts.window(w);
            if c[wi] != 0 || c[bi] < 2 {
                continue;
            }
            let di = self.windows.dir(w) as usize;
            match c[bi] {
                2 => two_dirs |= 1 << di,
                3 => {
                    four_dirs |= 1 << di;
                    let e = self
                        .windows
                        .cells(w)
                        .iter()
                        .copied()
                        .find(|&q| q != m && b.at(q).is_none())
                        .expect("a clean window with three stones has two empty cells");
                    if !fives[..n].iter().any(|&(q, _)| q == e) {
                        fives[n] = (e, di);
                        n += 1;
                    }
                }
                _ => return true,
            }
        }
        if four_dirs.count_ones() != 1 {
            return true;
        }
        let points = &fives[..n];
        let apart = |p: Pos, q: Pos| p.x().abs_diff(q.x()).max(p.y().abs_diff(q.y()));
        match points {
            [_] => {}
            [(p, _), (q, _)] if apart(*p, *q) == 5 => {}
            _ => return true,
        }
        (two_dirs & !four_dirs).count_ones() >= 2
    }

    /// Whether black may not play the empty point `p` (the full renju test, run only when
    /// [`VcfSolver::may_be_forbidden`] allows it).
    fn forbidden(&self, b: &mut Board, p: Pos, rule: Rule) -> bool {
        if self.may_be_forbidden(p, rule) {
            return rules::is_forbidden(b, p, rule);
        }
        debug_assert!(!rules::is_forbidden(b, p, rule), "{p} forbidden\n{b}");
        false
    }
}

/// A few five points, without allocating (a stone makes at most one per window through it;
/// more than eight would be a win many times over, and the first eight show it).
struct Fives([Pos; 8], usize);

impl Fives {
    fn as_slice(&self) -> &[Pos] {
        &self.0[..self.1]
    }
    fn len(&self) -> usize {
        self.1
    }
    fn is_empty(&self) -> bool {
        self.1 == 0
    }
}

/// The end of a line after the attacker's unstoppable four `m` (on the board): a legal block of
/// one five point and the five that remains, or just `m` when the defender can block nothing.
fn finish_line(b: &mut Board, rule: Rule, a: Color, m: Pos, fives: &[Pos]) -> Vec<Pos> {
    let d = a.opponent();
    for &r in fives {
        if rules::is_legal(b, r, d, rule) {
            b.put(r, d).expect("five point is empty");
            let five = fives
                .iter()
                .copied()
                .find(|&f| f != r && rules::is_win_at(b, f, a, rule));
            b.undo();
            if let Some(f) = five {
                return vec![m, r, f];
            }
        }
    }
    vec![m]
}

/// The opponent's VCF threat against `me` and the moves of mine that break it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakers {
    /// The opponent's VCF if it were to move.
    pub threat: Proof,
    /// My legal moves after which the opponent provably has no VCF (empty unless `threat` is
    /// a win).
    pub moves: Vec<Pos>,
    /// Candidate moves whose re-proof ran out of budget (neither claimed nor excluded).
    pub unknown: Vec<Pos>,
}

/// Whether the opponent of `me` has a VCF if it were to move, and which of my moves break it:
/// every candidate that could touch the threat line (its cells and the line neighbourhoods of
/// them, plus my own fours) is played and the opponent's VCF re-proved; only moves after which
/// it is proved `NoWin` are returned. The board is left as found.
pub fn vcf_breakers(
    solver: &mut VcfSolver,
    board: &mut Board,
    rule: Rule,
    me: Color,
    budget: &Budget,
) -> Breakers {
    let opp = me.opponent();
    let threat = solver.solve(board, rule, opp, budget);
    let Proof::Win(line) = &threat else {
        return Breakers {
            threat,
            moves: Vec::new(),
            unknown: Vec::new(),
        };
    };
    let side = board.side_to_move();
    // My own fours anywhere: the opponent must answer them first, and one of them may start
    // a win of mine that this search did not look for.
    let mine = threats::scan(board, &solver.windows, me).a_four;
    let cands = line_region(board, line).or(&mine);
    let mut moves = Vec::new();
    let mut unknown = Vec::new();
    for q in cands.iter() {
        if !rules::is_legal(board, q, me, rule) {
            continue;
        }
        board.put(q, me).expect("legal move");
        board.set_side_to_move(opp);
        let still = if replay::replay_line(board, rule, opp, line, DefenderFives::Anywhere) {
            Res::Win(Vec::new())
        } else {
            solver.search(board, rule, opp, solver.max_fours, budget)
        };
        board.undo();
        match still {
            Res::Fail { exact: true } => moves.push(q),
            Res::Win(_) => {}
            Res::Fail { exact: false } | Res::Abort => unknown.push(q),
        }
    }
    board.set_side_to_move(side);
    Breakers {
        threat,
        moves,
        unknown,
    }
}

/// The cells that could change whether `line` still works: every cell within five steps along
/// the four lines through each cell of the line (which covers its five points, blocks at far
/// ends, and stones that would turn a forced reply into a counter-four), plus every cell within
/// two steps of a line cell (renju shapes around the attacker's points). Read from per-cell
/// masks of that reach, computed once; only the board's empty cells are kept.
pub(crate) fn line_region(board: &Board, line: &[Pos]) -> BitBoard {
    static REACH: std::sync::OnceLock<Box<[BitBoard]>> = std::sync::OnceLock::new();
    let reach = REACH.get_or_init(|| {
        (0..CELLS)
            .map(|i| {
                let p = Pos(i as u16);
                let mut m = BitBoard::EMPTY;
                m.insert(p);
                for dir in Direction::ALL {
                    for s in (-5..=5).filter(|&s| s != 0) {
                        if let Some(q) = p.offset(dir, s, MAX_SIZE) {
                            m.insert(q);
                        }
                    }
                }
                for dy in -2i32..=2 {
                    for dx in -2i32..=2 {
                        let (x, y) = (p.x() as i32 + dx, p.y() as i32 + dy);
                        if (0..MAX_SIZE as i32).contains(&x) && (0..MAX_SIZE as i32).contains(&y) {
                            m.insert(Pos::new(x as usize, y as usize));
                        }
                    }
                }
                m
            })
            .collect()
    });
    let mut out = BitBoard::EMPTY;
    for &p in line {
        for (o, r) in out.0.iter_mut().zip(reach[p.index()].0.iter()) {
            *o |= *r;
        }
    }
    // Only the board's empty cells: two rows of the grid per word.
    const _: () = assert!(STRIDE == 32);
    let size = board.size();
    let row = if size >= 64 {
        u64::MAX
    } else {
        (1u64 << size) - 1
    };
    let (black, white) = (board.stones(Color::Black), board.stones(Color::White));
    for (i, o) in out.0.iter_mut().enumerate() {
        let (y0, y1) = (2 * i, 2 * i + 1);
        let area = (if y0 < size { row } else { 0 }) | (if y1 < size { row << 32 } else { 0 });
        *o &= area & !black.0[i] & !white.0[i];
    }
    out
}

/// Test position: black's open three in a column and open three in a row give black (to move) a
/// VCF; white's scattered stones give white none. Shared by the solver's and the root proofs'
/// tests.
#[cfg(test)]
pub(crate) const FOUR_THREE_PICTURE: &str = "\
    . . . . . . . . . . .\n\
    . . . . . . . . . . .\n\
    . . . . . . . . . . .\n\
    . . . X . . . . . . .\n\
    . . . X . . . . . . .\n\
    . . . X . . . . . . .\n\
    . . . . . . . . . . .\n\
    . . . . X X X . . . .\n\
    . . . . . . . . . . O\n\
    . . . . . . . . O . O\n\
    . . . . . . . . . O O\n";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{find_vcf, verify_vcf};

    fn board(pic: &str) -> Board {
        Board::from_picture(pic).unwrap()
    }

    /// The slow oracle of [`line_region`]: a walk over the same reach. The empty cells that
    /// could change whether `line` still works: every empty cell within five
    /// steps along the four lines through each cell of the line (which covers its five points,
    /// blocks at far ends, and stones that would turn a forced reply into a counter-four), plus
    /// every cell within two steps of a line cell (renju shapes around the attacker's points).
    fn walked_region(board: &Board, line: &[Pos]) -> Vec<Pos> {
        let mut seen = crate::game::board::BitBoard::EMPTY;
        let mut out = Vec::new();
        let size = board.size();
        let mut add = |q: Pos, out: &mut Vec<Pos>| {
            if board.at(q).is_none() && !seen.contains(q) {
                seen.insert(q);
                out.push(q);
            }
        };
        for &p in line {
            add(p, &mut out);
            for dir in Direction::ALL {
                for s in (-5..=5).filter(|&s| s != 0) {
                    if let Some(q) = p.offset(dir, s, size) {
                        add(q, &mut out);
                    }
                }
            }
            for dy in -2i64..=2 {
                for dx in -2i64..=2 {
                    if let Some(q) = board.pos(p.x() as i64 + dx, p.y() as i64 + dy) {
                        add(q, &mut out);
                    }
                }
            }
        }
        out
    }

    /// The mask version of the region holds the same cells as the walk, on boards of several
    /// sizes with lines near the edges.
    #[test]
    fn line_region_equals_the_walk() {
        let mut rng = crate::game::rng::SplitMix64::new(3);
        for round in 0..300 {
            let size = [7, 15, 20, 32][round % 4];
            let draws = (rng.next_u64() % 60) as usize;
            let b = crate::game::board::scattered(&mut rng, size, draws);
            let line: Vec<Pos> = (0..1 + rng.next_u64() % 9)
                .map(|_| crate::game::board::random_cell(&mut rng, size))
                .collect();
            let mut walk = BitBoard::EMPTY;
            for q in walked_region(&b, &line) {
                walk.insert(q);
            }
            assert_eq!(line_region(&b, &line), walk, "round {round} size {size}");
        }
    }

    #[test]
    fn simple_four_three_and_no_win() {
        // Black: a three on row 7 and a three on column 3 meeting at (3,7)... a four then a
        // four-three wins; with a white stone blocking the vertical, no VCF is left.
        let mut b = board(FOUR_THREE_PICTURE);
        b.set_side_to_move(Color::Black);
        let p = find_vcf(&mut b, Rule::Freestyle, Color::Black, &Budget::unlimited());
        let Proof::Win(line) = p else {
            panic!("expected a win, got {p:?}")
        };
        assert_eq!(line.len() % 2, 1, "{line:?}");
        verify_vcf(&b, Rule::Freestyle, &line).unwrap();
        // White has a three in column 10 and scattered stones: no VCF.
        let pw = find_vcf(&mut b, Rule::Freestyle, Color::White, &Budget::unlimited());
        assert_eq!(pw, Proof::NoWin);
    }
}
