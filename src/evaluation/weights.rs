//! The evaluation and move-policy weights: one set of values per *combination* of a cell's four
//! directional patterns, read from data files the build embeds (`weights/*.txt` beside this
//! file, written by `pbrain-bango train`).
//!
//! # Files ([`WeightFile`]) and sets ([`WeightSet`])
//! Each embedded file is one [`Weights`]: `freestyle.txt` (the evaluation and policy fitted by
//! `train fit` to freestyle data), `renju.txt` (fitted to renju self-play labelled by a strong
//! engine, starting from and held near the freestyle fit; one file for both colours) and
//! `classic.txt` (the hand-set values, `train classic`).
//! A set says which file each rule reads:
//! - `fitted` (the default): the fit of the game's rule, the freestyle fit for a rule that has
//!   none of its own yet;
//! - `freestyle`: the freestyle fit under every rule (what `fitted` was before the per-rule
//!   fits; kept so that a match can judge a rule's own fit against it);
//! - `classic`: the hand-set values under every rule;
//! - `rapfi`: the classical evaluation model of the strongest open engine (Rapfi's, public
//!   domain), imported by `train import-classical` into `rapfi-*.txt` (a file per rule, and per
//!   side to move under renju), with bango's fitted move policy; for matches against the fits.
//!
//! The search reads the set its parameters name (`BANGO_WEIGHTS`,
//! [`crate::search::alphabeta::Params::weights`]); everything else that builds a position (book, Swap2,
//! the solver) reads [`WeightSet::DEFAULT`], the same set unless the setting says otherwise.
//! The patterns are rule-aware either way (fives, overlines, caro's blocked ends, renju's
//! forbidden points), so a file fitted to one rule still evaluates another sensibly.
//!
//! # Combinations
//! A cell's four patterns (one per direction, [`Pattern`]) without their order: the direction of
//! a line does not change what it is worth, so the 14^4 ordered codes fold into
//! [`COMBOS`] = C(17, 4) = 2380 multisets. [`canonical`] maps four patterns to their index.
//!
//! # Values (per combination, for the colour that owns the cell's patterns)
//! - `mover`: what the cell is worth to the side to move;
//! - `waiter`: what it is worth to the side that moved last (attack and defence differ: a four
//!   point of the side to move wins, the same point of the other side is only a block to make);
//! - `attack` / `defence`: the move policy, how good the cell is to take for the side to move
//!   (from its own patterns) and to deny (from the opponent's); with a term for the cell's
//!   distance to each of the last two stones (`near`), it orders the moves within a rung of
//!   the threat ladder.
//!
//! The evaluation of a position is `sum(mover of the side to move's cells) - sum(waiter of the
//! other side's cells) + tempo + threat[top rung of the side to move][top rung of the other]
//! + mask[rung mask of the side to move][rung mask of the other] + classes[class mask]`
//! (with `two-ply`, the two sums are the mean of this position's and the previous one's),
//! in search units; `scale` is how many units make one logit of
//! win probability (`p = 1/(1+exp(-eval/scale))`).
//!
//! # File format
//! `#` comments, then `scale S`, `tempo T`, optional `threat A B V` lines (the evaluation term
//! when the side to move's highest threat rung is `A` and the other side's `B`, 0 when
//! absent), optional `mask A B V` lines (the term when the side to move's [`rung_mask`] is `A`
//! and the other side's `B`, added to the threat term; 0 when absent), optional `classes M V` lines (the
//! term when the two sides' [`class_mask`] is `M`; no term when none), an optional `two-ply` line
//! (the cell sums averaged over this ply and the last), optional `near D LAST OWN` lines (policy terms by
//! distance `D` to the last two stones, 0 when absent), and one line per combination: four
//! pattern names (any order) and the four integers `mover waiter attack defence`. Every
//! combination must appear exactly once.

use crate::game::board::{Board, Color, Pos};
use crate::game::pattern::{Pattern, PATTERNS, THREATS};
use crate::game::rules::Rule;
use std::sync::OnceLock;

/// Number of pattern combinations (multisets of four of the fourteen patterns).
pub const COMBOS: usize = 2380;

/// One embedded weights file (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightFile {
    /// `weights/freestyle.txt`: fitted to freestyle data.
    Freestyle,
    /// `weights/classic.txt`: the hand-set values.
    Classic,
    /// `weights/renju.txt`: fitted to renju data.
    Renju,
    /// `weights/rapfi-freestyle.txt`: the strongest open engine's classical model, imported
    /// (`train import-classical`), its freestyle tables.
    RapfiFreestyle,
    /// `weights/rapfi-standard.txt`: the same model's standard tables.
    RapfiStandard,
    /// `weights/rapfi-renju-black.txt`: its renju tables, read while black is to move.
    RapfiRenjuBlack,
    /// `weights/rapfi-renju-white.txt`: its renju tables, read while white is to move.
    RapfiRenjuWhite,
}

impl WeightFile {
    /// Every file, in [`WeightFile::index`] order.
    pub const ALL: [WeightFile; 7] = [
        WeightFile::Freestyle,
        WeightFile::Classic,
        WeightFile::Renju,
        WeightFile::RapfiFreestyle,
        WeightFile::RapfiStandard,
        WeightFile::RapfiRenjuBlack,
        WeightFile::RapfiRenjuWhite,
    ];

    /// Its place in [`WeightFile::ALL`] (for per-file caches).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its weights, parsed on first use.
    pub fn weights(self) -> &'static Weights {
        static FILES: [OnceLock<Weights>; WeightFile::ALL.len()] =
            [const { OnceLock::new() }; WeightFile::ALL.len()];
        FILES[self.index()].get_or_init(|| {
            let text = match self {
                WeightFile::Freestyle => include_str!("weights/freestyle.txt"),
                WeightFile::Classic => include_str!("weights/classic.txt"),
                WeightFile::Renju => include_str!("weights/renju.txt"),
                WeightFile::RapfiFreestyle => include_str!("weights/rapfi-freestyle.txt"),
                WeightFile::RapfiStandard => include_str!("weights/rapfi-standard.txt"),
                WeightFile::RapfiRenjuBlack => {
                    include_str!("weights/rapfi-renju-black.txt")
                }
                WeightFile::RapfiRenjuWhite => {
                    include_str!("weights/rapfi-renju-white.txt")
                }
            };
            Weights::parse(text).expect("the embedded weights parse (checked by a test)")
        })
    }
}

/// Which embedded weights each rule reads (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightSet {
    /// The fitted evaluation and move policy of the game's rule.
    Fitted,
    /// The freestyle fit under every rule.
    Freestyle,
    /// The hand-set evaluation and move order.
    Classic,
    /// The strongest open engine's classical evaluation (imported, one table per rule and per
    /// renju colour) with bango's fitted move policy.
    Rapfi,
}

impl WeightSet {
    /// The set the brain reads unless told otherwise.
    pub const DEFAULT: WeightSet = WeightSet::Fitted;
    /// Every set, in [`WeightSet::index`] order.
    pub const ALL: [WeightSet; 4] = [
        WeightSet::Fitted,
        WeightSet::Freestyle,
        WeightSet::Classic,
        WeightSet::Rapfi,
    ];

    /// The set's name (`fitted`, `freestyle`, `classic`, `rapfi`).
    pub fn name(self) -> &'static str {
        match self {
            WeightSet::Fitted => "fitted",
            WeightSet::Freestyle => "freestyle",
            WeightSet::Classic => "classic",
            WeightSet::Rapfi => "rapfi",
        }
    }

    /// The set of a name, in any case.
    pub fn from_name(name: &str) -> Option<WeightSet> {
        let name = name.trim().to_ascii_lowercase();
        WeightSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its place in [`WeightSet::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The file a game under `rule` reads while `to_move` is to move. A file is the whole
    /// evaluation of the positions of one side to move (its `mover` values for that side's
    /// cells, its `waiter` values for the other side's, its tempo and threat terms, its policy),
    /// so a rule whose colours differ (renju) can have a file per side to move, each fitted to
    /// the positions of that side to move alone.
    pub fn file(self, rule: Rule, to_move: Color) -> WeightFile {
        match (self, rule) {
            (WeightSet::Rapfi, Rule::Standard) => WeightFile::RapfiStandard,
            (WeightSet::Rapfi, Rule::Renju) => match to_move {
                Color::Black => WeightFile::RapfiRenjuBlack,
                Color::White => WeightFile::RapfiRenjuWhite,
            },
            // Caro has no table of its own in the model.
            (WeightSet::Rapfi, _) => WeightFile::RapfiFreestyle,
            (WeightSet::Classic, _) => WeightFile::Classic,
            (WeightSet::Freestyle, _) => WeightFile::Freestyle,
            (WeightSet::Fitted, Rule::Renju) => WeightFile::Renju,
            // Standard and caro have no fit of their own: fits to their self-play played even
            // with the freestyle file or lost to it (the experiments page, issue 45).
            (WeightSet::Fitted, _) => WeightFile::Freestyle,
        }
    }

    /// The weights a game under `rule` reads while `to_move` is to move.
    pub fn weights(self, rule: Rule, to_move: Color) -> &'static Weights {
        self.file(rule, to_move).weights()
    }
}

impl std::fmt::Display for WeightSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The values of every combination, and the global terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Search units per logit of win probability.
    pub scale: i32,
    /// The side to move's bonus for being about to place a stone.
    pub tempo: i32,
    /// A term by the highest threat rung either side can reach (`[side to move][other side]`,
    /// index [`crate::game::pattern::Threat`]): what the sums of cell values cannot see, such as an
    /// open three that meets no four.
    pub threat: Vec<[i32; THREATS]>,
    /// A term by every rung either side reaches, not only the highest (index
    /// [`mask_index`] of the two sides' [`rung_mask`]s; 0 for most): what the top rungs cannot
    /// tell apart, such as a four beside a double three, or a three the opponent must meet while
    /// it also has a four.
    pub mask: Vec<i32>,
    /// Value of a cell to the side to move, by combination index.
    pub mover: Vec<i32>,
    /// Value of a cell to the side that moved last.
    pub waiter: Vec<i32>,
    /// Policy: how good taking the cell is, from the mover's own patterns.
    pub attack: Vec<i32>,
    /// Policy: how good denying the cell is, from the opponent's patterns there.
    pub defence: Vec<i32>,
    /// Policy: a term per distance bucket ([`near_bucket`]) from the cell to the opponent's
    /// last stone (`[0]`) and to the mover's own last stone (`[1]`).
    pub near: Vec<[i32; 2]>,
    /// A term by the two sides' threat classes (index [`class_mask`]), or empty for none: the
    /// classical model of the strongest engine prices threats this way, where bango's fits
    /// read [`Weights::threat`] and [`Weights::mask`].
    pub classes: Vec<i32>,
    /// The cell sums are the mean of this position's and the previous one's (both from the
    /// side to move's view): the same classical model's remedy for the swing between odd and
    /// even plies, where bango's fits have [`Weights::tempo`].
    pub two_ply: bool,
}

/// Bits of a [`rung_mask`]: one per threat rung above [`crate::game::pattern::Threat::None`].
pub const MASK_BITS: usize = THREATS - 1;
/// Entries of [`Weights::mask`]: a rung mask for each side.
pub const MASKS: usize = 1 << (2 * MASK_BITS);

/// The rung mask of a colour: bit `t - 1` set when some empty cell reaches rung `t`
/// ([`crate::game::pattern::Threat`] as a number), from the count of cells at each rung.
#[inline]
pub fn rung_mask(counts: &[u16; THREATS]) -> usize {
    (1..THREATS).fold(0, |m, t| m | ((counts[t] > 0) as usize) << (t - 1))
}

/// The highest rung of a [`rung_mask`] (0 for none).
#[inline]
pub fn top_rung(mask: usize) -> usize {
    (usize::BITS - mask.leading_zeros()) as usize
}

/// The index in [`Weights::mask`] of the side to move's rung mask and the other side's.
#[inline]
pub fn mask_index(mover: usize, waiter: usize) -> usize {
    mover << MASK_BITS | waiter
}

/// Bits of a [`class_mask`].
pub const CLASS_BITS: usize = 11;
/// Entries of [`Weights::classes`] when a file has the term.
pub const CLASS_MASKS: usize = 1 << CLASS_BITS;

/// The threat classes of a position from the side to move's view (index of
/// [`Weights::classes`]): from the cells each side can play, bit 0 the other side has a five to
/// make; 1 and 2 the side to move / the other side an open four (or two fours); 3 and 7 a four
/// with a three, or a [`crate::game::pattern::supported`] four; 4 and 8 a bare four; 5 and 9 a
/// double three or a supported three; 6 and 10 a bare three (the side to move's bits first).
/// `rungs` are the cell counts per rung of the side to move and of the other side, `supported`
/// their counts of supported fours (`[0]`) and threes (`[1]`). The order is the classical
/// model's of the strongest engine, so that its tables read as they are.
#[inline]
pub fn class_mask(rungs: [&[u16; THREATS]; 2], supported: [[u16; 2]; 2]) -> usize {
    use crate::game::pattern::Threat::*;
    let has = |side: usize, t: crate::game::pattern::Threat| rungs[side][t as usize] > 0;
    let side_bits = |side: usize| {
        let four_plus = has(side, FourThree) || supported[side][0] > 0;
        let four = rungs[side][Four as usize] > supported[side][0];
        let three_plus = has(side, DoubleThree) || supported[side][1] > 0;
        let three = rungs[side][Three as usize] > supported[side][1];
        four_plus as usize
            | (four as usize) << 1
            | (three_plus as usize) << 2
            | (three as usize) << 3
    };
    has(1, Five) as usize
        | (has(0, OpenFour) as usize) << 1
        | (has(1, OpenFour) as usize) << 2
        | side_bits(0) << 3
        | side_bits(1) << 7
}

/// Distance buckets of the policy's proximity terms.
pub const NEAR: usize = 5;

/// The proximity bucket of `q` to a recent stone: the Chebyshev distance, `NEAR - 1` for that
/// far or farther or when there is no such stone.
#[inline]
pub fn near_bucket(q: Pos, stone: Option<Pos>) -> usize {
    stone.map_or(NEAR - 1, |s| q.chebyshev(s).min(NEAR - 1))
}

/// The opponent's last stone and the side to move's last stone of `board` (looked for among
/// the last few placed; a position set up out of order may have none).
#[inline]
pub fn recent_stones(board: &Board) -> [Option<Pos>; 2] {
    let me = board.side_to_move();
    let mut out = [None, None];
    for &(p, c) in board.history().iter().rev().take(4) {
        let slot = &mut out[(c == me) as usize];
        if slot.is_none() {
            *slot = Some(p);
        }
    }
    out
}

/// The combinations in index order, each sorted strongest first.
fn combos() -> &'static [[Pattern; 4]] {
    static LIST: OnceLock<Vec<[Pattern; 4]>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut out = Vec::with_capacity(COMBOS);
        for a in 0..PATTERNS {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        out.push([a, b, c, d].map(|i| Pattern::ALL[i]));
                    }
                }
            }
        }
        debug_assert_eq!(out.len(), COMBOS);
        out
    })
}

/// The four patterns of combination `index`, strongest first.
pub fn patterns_of(index: usize) -> [Pattern; 4] {
    combos()[index]
}

/// The combination index of four patterns in any order.
#[inline]
pub fn canonical(pats: &[Pattern; 4]) -> usize {
    let mut s = pats.map(|p| p as usize);
    s.sort_unstable_by(|a, b| b.cmp(a));
    let [a, b, c, d] = s;
    // Multisets a >= b >= c >= d in the order `combos` lists them: C(a+3, 4) have a smaller
    // first pattern, C(b+2, 3) the same first and a smaller second, C(c+1, 2) a smaller third.
    (a + 3) * (a + 2) * (a + 1) * a / 24 + (b + 2) * (b + 1) * b / 6 + (c + 1) * c / 2 + d
}

fn pattern_name(p: Pattern) -> &'static str {
    match p {
        Pattern::Dead => "Dead",
        Pattern::Overline => "OL",
        Pattern::B1 => "B1",
        Pattern::F1 => "F1",
        Pattern::B2 => "B2",
        Pattern::F2 => "F2",
        Pattern::F2A => "F2A",
        Pattern::F2B => "F2B",
        Pattern::B3 => "B3",
        Pattern::F3 => "F3",
        Pattern::F3S => "F3S",
        Pattern::B4 => "B4",
        Pattern::F4 => "F4",
        Pattern::F5 => "F5",
    }
}

fn pattern_by_name(s: &str) -> Option<Pattern> {
    Pattern::ALL.iter().copied().find(|&p| pattern_name(p) == s)
}

impl Weights {
    /// All zero (a start for fitting).
    pub fn zero() -> Weights {
        Weights {
            scale: 1,
            tempo: 0,
            threat: vec![[0; THREATS]; THREATS],
            mask: vec![0; MASKS],
            mover: vec![0; COMBOS],
            waiter: vec![0; COMBOS],
            attack: vec![0; COMBOS],
            defence: vec![0; COMBOS],
            near: vec![[0; 2]; NEAR],
            classes: Vec::new(),
            two_ply: false,
        }
    }

    /// Parses the file format (see the module docs).
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = Weights::zero();
        let (mut scale, mut tempo) = (None, None);
        let mut seen = vec![false; COMBOS];
        for (n, line) in text.lines().enumerate() {
            let err = |m: &str| format!("weights line {}: {m}", n + 1);
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = t.split_whitespace().collect();
            let int = |s: &str| {
                s.parse::<i32>()
                    .map_err(|_| err(&format!("bad number {s:?}")))
            };
            match f.as_slice() {
                ["scale", v] => scale = Some(int(v)?),
                ["threat", a, b, v] => {
                    let rung = |x: &str| {
                        x.parse::<usize>()
                            .ok()
                            .filter(|&t| t < THREATS)
                            .ok_or_else(|| err(&format!("bad rung {x:?}")))
                    };
                    w.threat[rung(a)?][rung(b)?] = int(v)?;
                }
                ["mask", a, b, v] => {
                    let mask = |x: &str| {
                        x.parse::<usize>()
                            .ok()
                            .filter(|&m| m < 1 << MASK_BITS)
                            .ok_or_else(|| err(&format!("bad rung mask {x:?}")))
                    };
                    w.mask[mask_index(mask(a)?, mask(b)?)] = int(v)?;
                }
                ["near", d, last, own] => {
                    let d: usize = d
                        .parse()
                        .ok()
                        .filter(|&d| d < NEAR)
                        .ok_or_else(|| err(&format!("bad distance {d:?}")))?;
                    w.near[d] = [int(last)?, int(own)?];
                }
                ["tempo", v] => tempo = Some(int(v)?),
                ["two-ply"] => w.two_ply = true,
                ["classes", m, v] => {
                    let m = m
                        .parse::<usize>()
                        .ok()
                        .filter(|&m| m < CLASS_MASKS)
                        .ok_or_else(|| err(&format!("bad class mask {m:?}")))?;
                    if w.classes.is_empty() {
                        w.classes = vec![0; CLASS_MASKS];
                    }
                    w.classes[m] = int(v)?;
                }
                [p0, p1, p2, p3, m, wt, a, d] => {
                    let mut pats = [Pattern::Dead; 4];
                    for (slot, name) in pats.iter_mut().zip([p0, p1, p2, p3]) {
                        *slot = pattern_by_name(name)
                            .ok_or_else(|| err(&format!("unknown pattern {name:?}")))?;
                    }
                    let i = canonical(&pats);
                    if std::mem::replace(&mut seen[i], true) {
                        return Err(err("combination given twice"));
                    }
                    w.mover[i] = int(m)?;
                    w.waiter[i] = int(wt)?;
                    w.attack[i] = int(a)?;
                    w.defence[i] = int(d)?;
                }
                _ => return Err(err("expected `scale S`, `tempo T` or a combination line")),
            }
        }
        if let Some(i) = seen.iter().position(|&s| !s) {
            return Err(format!("weights: combination {:?} missing", patterns_of(i)));
        }
        w.scale = scale.ok_or("weights: no scale")?;
        if w.scale <= 0 {
            return Err("weights: scale must be positive".into());
        }
        w.tempo = tempo.ok_or("weights: no tempo")?;
        Ok(w)
    }

    /// The file text, after `header` (each of its lines becomes a comment).
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        for l in header.lines() {
            s.push_str("# ");
            s.push_str(l);
            s.push('\n');
        }
        s.push_str(&format!("scale {}\ntempo {}\n", self.scale, self.tempo));
        s.push_str("# top threat rung of the side to move, of the other side: evaluation term\n");
        for (a, row) in self.threat.iter().enumerate() {
            for (b, v) in row.iter().enumerate() {
                if *v != 0 {
                    s.push_str(&format!("threat {a} {b} {v}\n"));
                }
            }
        }
        if self.mask.iter().any(|&v| v != 0) {
            s.push_str("# rung masks of the side to move, of the other side: evaluation term\n");
        }
        for (i, v) in self.mask.iter().enumerate() {
            if *v != 0 {
                let (a, b) = (i >> MASK_BITS, i & ((1 << MASK_BITS) - 1));
                s.push_str(&format!("mask {a} {b} {v}\n"));
            }
        }
        if self.two_ply {
            s.push_str("two-ply\n");
        }
        if !self.classes.is_empty() {
            s.push_str("# threat classes of both sides (a mask): evaluation term\n");
        }
        for (m, v) in self.classes.iter().enumerate() {
            if *v != 0 {
                s.push_str(&format!("classes {m} {v}\n"));
            }
        }
        s.push_str(
            "# distance to the opponent's last stone, to the own last stone: policy terms\n",
        );
        for (d, n) in self.near.iter().enumerate() {
            s.push_str(&format!("near {d} {} {}\n", n[0], n[1]));
        }
        s.push_str("# patterns (strongest first), mover waiter attack defence\n");
        for i in 0..COMBOS {
            let p = patterns_of(i).map(pattern_name);
            s.push_str(&format!(
                "{} {} {} {} {} {} {} {}\n",
                p[0],
                p[1],
                p[2],
                p[3],
                self.mover[i],
                self.waiter[i],
                self.attack[i],
                self.defence[i]
            ));
        }
        s
    }

    /// The weights the default set ([`WeightSet::DEFAULT`]) reads under freestyle.
    pub fn embedded() -> &'static Weights {
        WeightSet::DEFAULT.weights(Rule::Freestyle, Color::Black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_indexes_every_multiset_once() {
        for (i, pats) in combos().iter().enumerate() {
            assert_eq!(canonical(pats), i, "{pats:?}");
            let mut rev = *pats;
            rev.reverse();
            assert_eq!(canonical(&rev), i);
            let rot = [pats[2], pats[0], pats[3], pats[1]];
            assert_eq!(canonical(&rot), i);
        }
        assert_eq!(canonical(&[Pattern::F5; 4]), COMBOS - 1);
        assert_eq!(canonical(&[Pattern::Dead; 4]), 0);
    }

    /// Each bit of the class mask from the counts it reads: a supported four beside a bare
    /// one sets both four bits; a three counted only as supported sets the three-plus bit alone.
    #[test]
    fn class_mask_bits_follow_the_counts() {
        use crate::game::pattern::Threat;
        let mut me = [0u16; THREATS];
        let mut them = [0u16; THREATS];
        assert_eq!(class_mask([&me, &them], [[0; 2]; 2]), 0);
        me[Threat::Four as usize] = 2;
        assert_eq!(class_mask([&me, &them], [[1, 0], [0, 0]]), 1 << 3 | 1 << 4);
        assert_eq!(class_mask([&me, &them], [[2, 0], [0, 0]]), 1 << 3);
        me[Threat::Four as usize] = 0;
        me[Threat::OpenFour as usize] = 1;
        assert_eq!(class_mask([&me, &them], [[0; 2]; 2]), 1 << 1);
        them[Threat::Five as usize] = 1;
        them[Threat::OpenFour as usize] = 1;
        them[Threat::Three as usize] = 1;
        assert_eq!(
            class_mask([&me, &them], [[0, 0], [0, 1]]),
            1 | 1 << 1 | 1 << 2 | 1 << 9
        );
        them[Threat::Three as usize] = 0;
        them[Threat::DoubleThree as usize] = 1;
        them[Threat::FourThree as usize] = 1;
        assert_eq!(
            class_mask([&me, &them], [[0; 2]; 2]),
            1 | 1 << 1 | 1 << 2 | 1 << 7 | 1 << 9
        );
    }

    #[test]
    fn embedded_weights_parse_and_round_trip() {
        for file in WeightFile::ALL {
            let w = file.weights();
            assert!(w.scale > 0);
            assert_eq!(Weights::parse(&w.to_text("round trip")).unwrap(), *w);
        }
        for set in WeightSet::ALL {
            assert_eq!(
                WeightSet::from_name(&set.to_string().to_uppercase()),
                Some(set)
            );
        }
        assert_ne!(
            WeightFile::Freestyle.weights(),
            WeightFile::Classic.weights()
        );
        assert_eq!(WeightSet::from_name("nope"), None);
    }

    #[test]
    fn sets_read_their_files_under_every_rule() {
        for rule in Rule::ALL {
            for c in [Color::Black, Color::White] {
                assert_eq!(WeightSet::Freestyle.file(rule, c), WeightFile::Freestyle);
                assert_eq!(WeightSet::Classic.file(rule, c), WeightFile::Classic);
                assert_ne!(WeightSet::Fitted.file(rule, c), WeightFile::Classic);
            }
        }
        for c in [Color::Black, Color::White] {
            assert_eq!(
                WeightSet::Fitted.file(Rule::Freestyle, c),
                WeightFile::Freestyle
            );
            // Renju reads its own fit under `fitted` only.
            assert_eq!(WeightSet::Fitted.file(Rule::Renju, c), WeightFile::Renju);
            assert_eq!(
                WeightSet::Fitted.file(Rule::Standard, c),
                WeightFile::Freestyle
            );
        }
        assert_ne!(WeightFile::Renju.weights(), WeightFile::Freestyle.weights());
    }

    /// A rung mask has a bit per rung present, its top is the highest, and the index keeps the
    /// two sides apart; `mask` lines parse into that index and are written back.
    #[test]
    fn rung_masks_index_the_mask_term() {
        let mut counts = [0u16; THREATS];
        assert_eq!((rung_mask(&counts), top_rung(rung_mask(&counts))), (0, 0));
        counts[0] = 9; // cells with no threat are not a rung
        counts[1] = 2; // threes
        counts[3] = 1; // a four
        assert_eq!(rung_mask(&counts), 0b101);
        assert_eq!(top_rung(0b101), 3);
        assert_eq!(top_rung(1 << (MASK_BITS - 1)), THREATS - 1);
        assert_eq!(mask_index(0b101, 0b10), 0b101 << MASK_BITS | 0b10);
        assert_ne!(mask_index(0b10, 0b101), mask_index(0b101, 0b10));
        let text = Weights::embedded().to_text("");
        let with = format!("{text}mask 5 2 -77\nmask 0 63 12\n");
        let w = Weights::parse(&with).unwrap();
        assert_eq!(w.mask[mask_index(5, 2)], -77);
        assert_eq!(w.mask[mask_index(0, 63)], 12);
        assert_eq!(w.mask.iter().filter(|&&v| v != 0).count(), 2);
        assert_eq!(Weights::parse(&w.to_text("")).unwrap(), w);
        assert!(Weights::parse(&format!("{text}mask 64 0 1\n")).is_err());
    }

    #[test]
    fn incomplete_or_bad_files_are_refused() {
        let w = Weights::embedded();
        let text = w.to_text("");
        let missing: String = text
            .lines()
            .filter(|l| !l.starts_with("F5 F5 F5 F5"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(Weights::parse(&missing).unwrap_err().contains("missing"));
        let twice = format!("{text}F5 F5 F5 F5 1 2 3 4\n");
        assert!(Weights::parse(&twice).unwrap_err().contains("twice"));
        assert!(Weights::parse(&text.replace("scale ", "scale -")).is_err());
        assert!(Weights::parse(&format!("{text}F9 F5 F5 F5 1 2 3 4\n")).is_err());
    }
}
