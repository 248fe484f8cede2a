//! Line patterns: what one more stone at an empty cell makes along one line, for one colour,
//! under one rule.
//!
//! # Model
//! A pattern belongs to an *empty cell*, a *direction* and a *colour*: it names the shape that a
//! stone of that colour placed there would make on that line. The shapes already on the board
//! are read off one level down: the board holds a four of `c` exactly when some empty cell has
//! pattern [`Pattern::F5`] for `c`; an open three when some cell has [`Pattern::F4`]; and so on.
//! This is the representation strong engines (Rapfi) use, because the same numbers drive the
//! evaluation, the threat ladder of move generation and the win checks of the search.
//!
//! The pattern depends only on the ten cells within five steps of the cell on that line (a five
//! through the cell spans four cells either side; the fifth cell decides overlines and caro's
//! blocked ends). Those ten cells are packed into a 20-bit [`LineKey`], two bits each
//! ([`EMPTY`], [`OWN`], [`OPP`], [`WALL`]), and the pattern is a table lookup.
//!
//! # Definition (recursive, per line, the move's stone always included)
//! - `F5`: the move makes a winning line under the rule ([`FiveKind`]).
//! - `Overline`: the move makes six or more where that does not win (standard, caro, renju black).
//! - `F4` (open four): afterwards two or more empty cells each complete a five with it;
//!   `B4` (four): exactly one does. Split fours (`oo.oo`, `ooo.o`) are fours.
//! - `F3` (open three): some further move makes `F4`; `B3` (closed three): some makes `B4`.
//!   So `.oo.o.` is open, and `x.ooo.x` is closed (either extension leaves one five point).
//!   An open three with two or more moves to an open four (`..ooo..`) is the stronger `F3S`.
//! - `F2`/`B2`: some further move makes an open three (`F3` or `F3S`) / `B3`. Open twos split
//!   by how many moves make an open three: `F2` at most two, `F2A` three, `F2B` four or more
//!   (`..oo..` in open space has four: both ends and both gaps beyond them).
//! - `F1`/`B1`: some further move makes an open two (any of the three) / `B2`.
//!
//! The split classes (`F2A`, `F2B`, `F3S`) are finer distinctions for the evaluation only: the
//! threat ladder ([`combine`]) reads `F3S` as an open three like `F3`, and nothing else looks
//! below the threes.
//!
//! Tables are filled lazily (an entry is computed the first time it is asked for, memoised in
//! an atomic byte so that search threads may share them).

use crate::game::board::Color;
use crate::game::rules::Rule;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

/// Cells examined either side of the centre.
pub const HALF: i32 = 5;
/// Key slot value: an empty cell.
pub const EMPTY: u32 = 0;
/// Key slot value: a stone of the colour the pattern is for.
pub const OWN: u32 = 1;
/// Key slot value: a stone of the other colour.
pub const OPP: u32 = 2;
/// Key slot value: off the board.
pub const WALL: u32 = 3;

/// The 20-bit neighbourhood of a cell on one line (see the module docs). In board keys slot
/// value 1 means black and 2 white; [`own_view`] turns it into the own/opponent view.
pub type LineKey = u32;

/// Bit position of the slot for the neighbour at `offset` (−5..=5, not 0).
#[inline]
pub const fn slot_shift(offset: i32) -> u32 {
    if offset < 0 {
        ((offset + HALF) * 2) as u32
    } else {
        ((offset + HALF - 1) * 2) as u32
    }
}

/// A key with every slot off the board.
pub const ALL_WALL: LineKey = 0xF_FFFF;

/// The key as seen by colour `c`: board keys store black as 1 and white as 2; for white the two
/// are swapped so that [`OWN`] is always the colour asked about.
#[inline]
pub fn own_view(key: LineKey, c: Color) -> LineKey {
    match c {
        Color::Black => key,
        Color::White => {
            const LO: u32 = 0x5_5555;
            let lo = key & LO;
            let hi = (key >> 1) & LO;
            // Swap 01 <-> 10 and keep 00 and 11.
            (lo << 1) | hi
        }
    }
}

/// What a move makes along one line (see the module docs), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing: no five can ever pass through here.
    #[default]
    Dead = 0,
    /// Six or more where that does not win.
    Overline,
    /// A closed one.
    B1,
    /// An open one.
    F1,
    /// A closed two.
    B2,
    /// An open two with at most two moves to an open three.
    F2,
    /// An open two with three moves to an open three.
    F2A,
    /// An open two with four or more moves to an open three.
    F2B,
    /// A closed three.
    B3,
    /// An open three with one move to an open four.
    F3,
    /// An open three with two or more moves to an open four.
    F3S,
    /// A four (one five point).
    B4,
    /// An open four (two or more five points).
    F4,
    /// A winning line.
    F5,
}

impl Pattern {
    /// Every pattern, weakest first (index = `Pattern as usize`).
    pub const ALL: [Pattern; PATTERNS] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::F2A,
        Pattern::F2B,
        Pattern::B3,
        Pattern::F3,
        Pattern::F3S,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
    ];

    /// The pattern with the split classes merged into their parents (`F2A`, `F2B` into `F2`,
    /// `F3S` into `F3`): the eleven classes the evaluation had before the split.
    pub fn coarse(self) -> Pattern {
        match self {
            Pattern::F2A | Pattern::F2B => Pattern::F2,
            Pattern::F3S => Pattern::F3,
            p => p,
        }
    }

    #[inline]
    fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }
}

/// Number of [`Pattern`]s.
pub const PATTERNS: usize = 14;

/// What counts as a five for one colour under one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FiveKind {
    /// Five or more (freestyle; renju white).
    AtLeast = 0,
    /// Exactly five (standard; renju black).
    Exactly = 1,
    /// Exactly five, not closed by the opponent at both ends; the edge is open (caro).
    Caro = 2,
}

impl FiveKind {
    /// The kind that applies to colour `c` under `rule`.
    pub fn of(rule: Rule, c: Color) -> FiveKind {
        match rule {
            Rule::Freestyle => FiveKind::AtLeast,
            Rule::Standard => FiveKind::Exactly,
            Rule::Renju if c == Color::Black => FiveKind::Exactly,
            Rule::Renju => FiveKind::AtLeast,
            Rule::Caro => FiveKind::Caro,
        }
    }
}

/// The eleven cells of a line, centre (index 5) holding the own stone.
fn decode(key: LineKey) -> [u32; 11] {
    let mut line = [OWN; 11];
    for (i, cell) in line.iter_mut().enumerate() {
        let off = i as i32 - HALF;
        if off != 0 {
            *cell = (key >> slot_shift(off)) & 3;
        }
    }
    line
}

enum Run {
    Five,
    Overline,
    Short,
}

/// Whether the own run through the centre wins under `kind`.
fn run_through_centre(line: &[u32; 11], kind: FiveKind) -> Run {
    let mut left = 0;
    while left < 5 && line[4 - left] == OWN {
        left += 1;
    }
    let mut right = 0;
    while right < 5 && line[6 + right] == OWN {
        right += 1;
    }
    let len = 1 + left + right;
    match kind {
        FiveKind::AtLeast if len >= 5 => Run::Five,
        FiveKind::Exactly | FiveKind::Caro if len > 5 => Run::Overline,
        FiveKind::Exactly if len == 5 => Run::Five,
        FiveKind::Caro if len == 5 => {
            // Both end cells exist inside the window: left + right == 4.
            let closed = line[4 - left] == OPP && line[6 + right] == OPP;
            if closed {
                Run::Short
            } else {
                Run::Five
            }
        }
        _ => Run::Short,
    }
}

/// The table index of `key`: "five or more" never looks at the fifth cell either side (a five
/// through the centre spans four cells each way and a longer run wins too), so its table drops
/// those two slots and is 64 KiB instead of 1 MiB, small enough to stay in cache.
#[inline]
fn index(kind: FiveKind, key: LineKey) -> usize {
    match kind {
        FiveKind::AtLeast => ((key >> 2) & 0xFFFF) as usize,
        _ => key as usize,
    }
}

fn compute(table: &[AtomicU8], kind: FiveKind, key: LineKey) -> Pattern {
    let memo = table[index(kind, key)].load(Ordering::Relaxed);
    if memo != 0 {
        return Pattern::from_u8(memo - 1);
    }
    let line = decode(key);
    let p = match run_through_centre(&line, kind) {
        Run::Five => Pattern::F5,
        Run::Overline => Pattern::Overline,
        Run::Short => {
            let mut fives = 0;
            // Moves to an open four (they make this an open three) and to an open three (an
            // open two): their counts split those classes.
            let (mut open_fours, mut open_threes) = (0, 0);
            let mut best = Pattern::Dead;
            for (i, &cell) in line.iter().enumerate().take(10).skip(1) {
                if i == 5 || cell != EMPTY {
                    continue;
                }
                let child = key | (OWN << slot_shift(i as i32 - HALF));
                let next = match compute(table, kind, child) {
                    Pattern::F5 => {
                        fives += 1;
                        continue;
                    }
                    Pattern::F4 => {
                        open_fours += 1;
                        Pattern::F3
                    }
                    Pattern::B4 => Pattern::B3,
                    Pattern::F3 | Pattern::F3S => {
                        open_threes += 1;
                        Pattern::F2
                    }
                    Pattern::B3 => Pattern::B2,
                    Pattern::F2 | Pattern::F2A | Pattern::F2B => Pattern::F1,
                    Pattern::B2 => Pattern::B1,
                    _ => Pattern::Dead,
                };
                best = best.max(next);
            }
            match (fives, best) {
                (0, Pattern::F3) if open_fours >= 2 => Pattern::F3S,
                (0, Pattern::F2) if open_threes >= 4 => Pattern::F2B,
                (0, Pattern::F2) if open_threes == 3 => Pattern::F2A,
                (0, _) => best,
                (1, _) => Pattern::B4,
                _ => Pattern::F4,
            }
        }
    };
    table[index(kind, key)].store(p as u8 + 1, Ordering::Relaxed);
    p
}

fn table(kind: FiveKind) -> &'static [AtomicU8] {
    static TABLES: [OnceLock<Box<[AtomicU8]>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let bits = if kind == FiveKind::AtLeast { 16 } else { 20 };
    TABLES[kind as usize].get_or_init(|| (0..1usize << bits).map(|_| AtomicU8::new(0)).collect())
}

/// The pattern for `key` (own view, see [`own_view`]) under `kind`.
#[inline]
pub fn lookup(kind: FiveKind, key: LineKey) -> Pattern {
    PatternTable::new(kind).get(key)
}

/// The pattern table of one [`FiveKind`], resolved once: hot loops hold this handle and skip the
/// lazy-initialisation check and the per-kind dispatch of [`lookup`] on every call.
#[derive(Clone, Copy)]
pub struct PatternTable {
    table: &'static [AtomicU8],
    kind: FiveKind,
    /// The table index is `(key >> shift) & mask` (see `index`).
    shift: u32,
    mask: u32,
}

impl PatternTable {
    /// The table of `kind` (allocated on first use).
    pub fn new(kind: FiveKind) -> PatternTable {
        let (shift, mask): (u32, u32) = match kind {
            FiveKind::AtLeast => (2, 0xFFFF),
            _ => (0, 0xF_FFFF),
        };
        debug_assert_eq!(index(kind, 0xA_5A5A), ((0xA_5A5A >> shift) & mask) as usize);
        PatternTable {
            table: table(kind),
            kind,
            shift,
            mask,
        }
    }

    /// The five kind this table answers for.
    #[inline]
    pub fn kind(self) -> FiveKind {
        self.kind
    }

    /// Whether the fifth cell on either side can change a pattern (it never can for "five or
    /// more": the table ignores those slots).
    #[inline]
    pub fn reads_fifth_cell(self) -> bool {
        self.kind != FiveKind::AtLeast
    }

    /// The pattern for `key` (own view), as [`lookup`].
    #[inline]
    pub fn get(self, key: LineKey) -> Pattern {
        let memo = self.table[((key >> self.shift) & self.mask) as usize].load(Ordering::Relaxed);
        if memo != 0 {
            Pattern::from_u8(memo - 1)
        } else {
            compute(self.table, self.kind, key)
        }
    }
}

/// Black's and white's pattern at one cell and direction, packed in a byte: black's plus one in
/// the low nibble, white's in the high nibble, so a pair is never 0 (a table's "not yet
/// computed" mark) and "did either colour's pattern change" is one compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PatternPair(u8);

impl PatternPair {
    /// The pair of `black` and `white`.
    #[inline]
    pub fn new(black: Pattern, white: Pattern) -> PatternPair {
        PatternPair((black as u8 + 1) | (white as u8) << 4)
    }

    /// Both patterns as numbers (`Pattern as i32`), black then white.
    #[inline]
    pub fn digits(self) -> [i32; 2] {
        [(self.0 & 15) as i32 - 1, (self.0 >> 4) as i32]
    }

    /// Colour `c`'s pattern (index 0 black, 1 white).
    #[inline]
    pub fn get(self, c: usize) -> Pattern {
        if c == 0 {
            Pattern::from_u8((self.0 & 15) - 1)
        } else {
            Pattern::from_u8(self.0 >> 4)
        }
    }
}

impl Default for PatternPair {
    fn default() -> PatternPair {
        PatternPair::new(Pattern::Dead, Pattern::Dead)
    }
}

/// Both colours' patterns under one rule, indexed by a board-view key (black 1, white 2): one
/// lookup instead of two, and no colour swap. Filled lazily from the per-kind tables; under
/// freestyle neither colour reads the fifth cells, so the table drops them as
/// [`PatternTable`] does.
#[derive(Clone, Copy)]
pub struct PairTable {
    table: &'static [AtomicU8],
    kinds: [PatternTable; 2],
    shift: u32,
    mask: u32,
}

impl PairTable {
    /// The table of `rule` (allocated on first use).
    pub fn new(rule: Rule) -> PairTable {
        static TABLES: [OnceLock<Box<[AtomicU8]>>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let kinds = [
            PatternTable::new(FiveKind::of(rule, Color::Black)),
            PatternTable::new(FiveKind::of(rule, Color::White)),
        ];
        let short = !kinds[0].reads_fifth_cell() && !kinds[1].reads_fifth_cell();
        let (shift, mask, bits) = if short {
            (2, 0xFFFF, 16)
        } else {
            (0, 0xF_FFFF, 20)
        };
        let table = TABLES[rule as usize]
            .get_or_init(|| (0..1usize << bits).map(|_| AtomicU8::new(0)).collect());
        PairTable {
            table,
            kinds,
            shift,
            mask,
        }
    }

    /// Whether the fifth cell on either side can change either colour's pattern.
    #[inline]
    pub fn reads_fifth_cell(self) -> bool {
        self.mask != 0xFFFF
    }

    /// Both patterns for the board-view `key`.
    #[inline(always)]
    pub fn get(self, key: LineKey) -> PatternPair {
        let memo = self.table[((key >> self.shift) & self.mask) as usize].load(Ordering::Relaxed);
        if memo != 0 {
            PatternPair(memo)
        } else {
            self.fill(key)
        }
    }

    /// Computes and memoises the entry of `key` (once per key and process).
    #[cold]
    #[inline(never)]
    fn fill(self, key: LineKey) -> PatternPair {
        let pair = PatternPair::new(
            self.kinds[0].get(key),
            self.kinds[1].get(own_view(key, Color::White)),
        );
        self.table[((key >> self.shift) & self.mask) as usize].store(pair.0, Ordering::Relaxed);
        pair
    }
}

/// Builds a key from an ASCII line for tests and tools: the centre is `*` (the move), `o` own,
/// `x` opponent, `.` empty, `|` or a missing cell the edge.
pub fn key_from_str(line: &str) -> LineKey {
    let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let centre = cells
        .iter()
        .position(|&c| c == '*')
        .expect("a centre marked *") as i32;
    let mut key = 0;
    for off in (-HALF..=HALF).filter(|&o| o != 0) {
        let i = centre + off;
        let v = if i < 0 || i as usize >= cells.len() {
            WALL
        } else {
            match cells[i as usize] {
                'o' | 'O' => OWN,
                'x' | 'X' => OPP,
                '.' => EMPTY,
                _ => WALL,
            }
        };
        // Everything beyond an edge is edge too.
        key |= v << slot_shift(off);
    }
    // Normalise: once a wall is met walking outward, the rest is wall.
    for sign in [-1, 1] {
        let mut wall = false;
        for step in 1..=HALF {
            let s = slot_shift(sign * step);
            if wall {
                key |= WALL << s;
            } else if (key >> s) & 3 == WALL {
                wall = true;
            }
        }
    }
    key
}

/// The pattern a move at `*` makes in an ASCII line (see [`key_from_str`]).
pub fn pattern_of(line: &str, kind: FiveKind) -> Pattern {
    lookup(kind, key_from_str(line))
}

/// How strong a cell is for one colour, all four lines together: the rung of the threat ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Threat {
    /// Nothing forcing.
    #[default]
    None = 0,
    /// Makes an open three.
    Three,
    /// Makes two open threes.
    DoubleThree,
    /// Makes a four.
    Four,
    /// Makes a four and an open three.
    FourThree,
    /// Makes an open four or two fours: wins unless the opponent has a five to make.
    OpenFour,
    /// Makes five.
    Five,
}

/// Number of [`Threat`] rungs.
pub const THREATS: usize = 7;

impl Threat {
    /// Every rung, lowest first (index = `Threat as usize`).
    pub const ALL: [Threat; THREATS] = [
        Threat::None,
        Threat::Three,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::OpenFour,
        Threat::Five,
    ];
}

/// Whether the single four or single open three a move makes (rung `threat`, [`Threat::Four`]
/// or [`Threat::Three`], from [`combine`]) comes with a closed three or an open two on another
/// line: a *supported* threat, whose next move can add a second threat to it. The ladder does
/// not tell these apart from bare ones; the evaluation's threat classes do (Rapfi's classical
/// evaluation reads the same split, its `D_BLOCK4_PLUS` and `G_FLEX3_PLUS`).
#[inline]
pub fn supported(pats: &[Pattern; 4], threat: Threat) -> bool {
    matches!(threat, Threat::Four | Threat::Three)
        && pats
            .iter()
            .any(|p| matches!(p, Pattern::B3 | Pattern::F2 | Pattern::F2A | Pattern::F2B))
}

/// The rung of the ladder a move with directional patterns `pats` reaches, and whether it may be
/// a renju forbidden point (`renju_black` only: an overline, two fours, a four that is not a
/// plain straight four, or two threes). A suspect must be checked with
/// [`crate::game::rules::is_forbidden`] before it is played; a non-suspect never is forbidden.
#[inline]
pub fn combine(pats: &[Pattern; 4], renju_black: bool) -> (Threat, bool) {
    let (mut fives, mut open_fours, mut fours, mut threes, mut overlines) =
        (0u8, 0u8, 0u8, 0u8, 0u8);
    for &p in pats {
        match p {
            Pattern::F5 => fives += 1,
            Pattern::F4 => {
                open_fours += 1;
                fours += 1;
            }
            Pattern::B4 => fours += 1,
            Pattern::F3 | Pattern::F3S => threes += 1,
            Pattern::Overline => overlines += 1,
            _ => {}
        }
    }
    let threat = if fives > 0 {
        Threat::Five
    } else if open_fours > 0 || fours >= 2 {
        Threat::OpenFour
    } else if fours == 1 && threes > 0 {
        Threat::FourThree
    } else if fours == 1 {
        Threat::Four
    } else if threes >= 2 {
        Threat::DoubleThree
    } else if threes == 1 {
        Threat::Three
    } else {
        Threat::None
    };
    let suspect = renju_black
        && threat != Threat::Five
        && (overlines > 0 || fours >= 2 || threes >= 2 || open_fours > 0);
    (threat, suspect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use FiveKind::*;
    use Pattern::*;

    /// A single four or three is supported by a closed three or any open two beside it, and
    /// only those rungs are ever supported.
    #[test]
    fn supported_threats_are_single_fours_and_threes_with_a_second_line() {
        let at = |pats: [Pattern; 4]| {
            let (t, _) = combine(&pats, false);
            (t, supported(&pats, t))
        };
        assert_eq!(at([F3, F2, Dead, Dead]), (Threat::Three, true));
        assert_eq!(at([F3S, F2B, B1, Dead]), (Threat::Three, true));
        assert_eq!(at([F3, B3, Dead, Dead]), (Threat::Three, true));
        assert_eq!(at([F3, B2, F1, B1]), (Threat::Three, false));
        assert_eq!(at([B4, F2A, Dead, Dead]), (Threat::Four, true));
        assert_eq!(at([B4, B2, B1, Dead]), (Threat::Four, false));
        assert_eq!(at([B4, F3, F2, Dead]), (Threat::FourThree, false));
        assert_eq!(at([F3, F3, F2, Dead]), (Threat::DoubleThree, false));
        assert_eq!(at([F2, F2, B3, Dead]), (Threat::None, false));
    }

    #[test]
    fn own_view_swaps_colours_only() {
        let k = key_from_str("|.xo*ox..");
        let w = own_view(k, Color::White);
        assert_eq!(w, key_from_str("|.ox*xo.."));
        assert_eq!(own_view(w, Color::White), k);
    }

    #[test]
    fn fives_and_overlines() {
        assert_eq!(pattern_of("..oo*oo..", AtLeast), F5);
        assert_eq!(pattern_of(".ooo*oo..", AtLeast), F5);
        assert_eq!(pattern_of(".ooo*oo..", Exactly), Overline);
        assert_eq!(pattern_of("..oo*oo.o", Exactly), F5);
        // Caro: closed at both ends is no five; the edge counts as open.
        assert_eq!(pattern_of("xoo*oox", Caro), Dead);
        assert_eq!(pattern_of("xoo*oox", Exactly), F5);
        assert_eq!(pattern_of("|oo*oox", Caro), F5);
        assert_eq!(pattern_of(".oo*oox", Caro), F5);
    }

    #[test]
    fn fours() {
        assert_eq!(pattern_of("..oo*o...", AtLeast), F4); // .oooo.
        assert_eq!(pattern_of(".xoo*o...", AtLeast), B4);
        assert_eq!(pattern_of("..o.*oo..", AtLeast), B4); // o.ooo split four
        assert_eq!(pattern_of("..oo*.oo.", AtLeast), B4); // ooo.oo: one point
        assert_eq!(pattern_of("..oo*.oo.", Exactly), B3); // the gap would make six
        assert_eq!(pattern_of("|oo*o.", AtLeast), B4);
        assert_eq!(pattern_of("o.oo*...", Exactly), B4);
        // Exactly-five rule: a four whose completion makes six is no four.
        assert_eq!(pattern_of("oo.o*o...", AtLeast), B4);
        assert_eq!(pattern_of("oo.o*o...", Exactly), B3);
    }

    #[test]
    fn threes_need_room_to_grow() {
        assert_eq!(pattern_of("...o*o...", AtLeast), F3S); // ..ooo.. both ends open fours
        assert_eq!(pattern_of("x.o*o..", AtLeast), F3); // only the right end
        assert_eq!(pattern_of("..o.*o...", AtLeast), F3); // .o.oo. split three
        assert_eq!(pattern_of("x.o*o.x", AtLeast), B3); // x.ooo.x is not open
        assert_eq!(pattern_of("xoo*...", AtLeast), B3);
        assert_eq!(pattern_of("|o*o..x", AtLeast), B3);
        assert_eq!(pattern_of("....*o....", AtLeast), F2B);
        assert_eq!(pattern_of("...x*o....", AtLeast), B2);
        assert_eq!(pattern_of(".....*.....", AtLeast), F1);
        assert_eq!(pattern_of("x...*x", AtLeast), Dead);
    }

    /// Open twos split by their moves to an open three (ends and the gaps beyond them), open
    /// threes by their moves to an open four; the split classes take their parents' places in
    /// the ladder.
    #[test]
    fn twos_and_threes_split_by_their_ways_up() {
        // ..oo.. in open space: four moves make an open three (.ooo. either side, o.oo, oo.o).
        assert_eq!(pattern_of("....*o....", AtLeast), F2B);
        // One wall three cells off the left stone: the far-left split three .o.oo is no longer
        // open ([o.oo. against the wall), three ways remain.
        assert_eq!(pattern_of("x..*o....", AtLeast), F2A);
        // x.oo...: only .ooo. to the right and oo.o. remain.
        assert_eq!(pattern_of("x.*o....", AtLeast), F2);
        // A split two .o.o. has three: the gap and both outside extensions.
        assert_eq!(pattern_of("....*.o....", AtLeast), F2A);
        // Threes: ..ooo.. two open-four points, .oo.o. one (the gap), x.ooo.. one.
        assert_eq!(pattern_of("...oo*....", AtLeast), F3S);
        assert_eq!(pattern_of("..oo.*...", AtLeast), F3);
        // Exactly five: an end whose four would need a six is no open-four point.
        assert_eq!(pattern_of("o..oo*...", AtLeast), F3S);
        assert_eq!(pattern_of("o..oo*...", Exactly), F3);
        for p in Pattern::ALL {
            let c = p.coarse();
            assert!(![F2A, F2B, F3S].contains(&c), "{p:?}");
            assert_eq!(c == p, ![F2A, F2B, F3S].contains(&p));
        }
        assert_eq!(
            combine(&[F3S, F3, Dead, Dead], false),
            (Threat::DoubleThree, false)
        );
        assert_eq!(
            combine(&[F3S, Dead, Dead, Dead], true),
            (Threat::Three, false)
        );
        assert_eq!(
            combine(&[B4, F3S, Dead, Dead], false),
            (Threat::FourThree, false)
        );
    }

    /// The paired table agrees with the per-kind lookups for every rule, colour and key that
    /// a board can produce (walls only as a suffix on each side).
    #[test]
    fn pair_table_matches_lookups() {
        let mut keys = Vec::new();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        while keys.len() < 20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut key = 0;
            for side in [-1, 1] {
                let wall_from = 1 + (state >> ((side + 1) * 8)) as i32 % 8;
                for step in 1..=HALF {
                    let v = if step >= wall_from {
                        WALL
                    } else {
                        (state >> (20 + 2 * step + 12 * (side + 1))) as u32 % 3
                    };
                    key |= v << slot_shift(side * step);
                }
            }
            keys.push(key);
        }
        for rule in Rule::ALL {
            let t = PairTable::new(rule);
            for &k in &keys {
                let pair = t.get(k);
                assert_eq!(pair.get(0), lookup(FiveKind::of(rule, Color::Black), k));
                let white = own_view(k, Color::White);
                assert_eq!(pair.get(1), lookup(FiveKind::of(rule, Color::White), white));
                assert_eq!(t.get(k), pair, "memoised");
            }
        }
    }

    #[test]
    fn combine_ladder_and_renju_suspects() {
        let p = |a, b, c, d| [a, b, c, d];
        assert_eq!(
            combine(&p(F5, Dead, Dead, Dead), true),
            (Threat::Five, false)
        );
        assert_eq!(
            combine(&p(B4, B4, Dead, Dead), false),
            (Threat::OpenFour, false)
        );
        assert_eq!(
            combine(&p(B4, B4, Dead, Dead), true),
            (Threat::OpenFour, true)
        );
        assert_eq!(
            combine(&p(B4, F3, F2, Dead), true),
            (Threat::FourThree, false)
        );
        assert_eq!(
            combine(&p(F3, F3, Dead, Dead), true),
            (Threat::DoubleThree, true)
        );
        assert_eq!(
            combine(&p(F3, B3, Dead, Dead), false),
            (Threat::Three, false)
        );
        assert_eq!(
            combine(&p(Overline, F2, Dead, Dead), true),
            (Threat::None, true)
        );
    }
}
