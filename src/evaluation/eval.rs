//! The evaluation's values: what an empty cell is worth to a colour, from its four directional
//! patterns. [`crate::evaluation::position::Position`] keeps the sums of these values up to date as stones
//! come and go, so evaluating a node is O(1).
//!
//! Each empty cell's four patterns for a colour form a *combination* ([`crate::evaluation::weights`]), and
//! the embedded weights give it two values: one while that colour is to move
//! ([`CellInfo::value`]) and one while it waits ([`CellInfo::wait`]); a four point is worth far
//! more to the side about to play. The evaluation is the side to move's sum of `value` minus
//! the opponent's sum of `wait`, plus a tempo bonus ([`Weights::tempo`]; without it scores
//! swing between odd and even depths), a term for the two sides' highest threat rungs
//! ([`Weights::threat`]) and one for every rung each reaches ([`Weights::mask`]). The move policy's score of a cell ([`CellInfo::attack`],
//! [`CellInfo::defence`]) orders quiet moves and is precomputed here too. Renju suspects for
//! black (possible double three, double four, overline) are valued as worthless: most are
//! forbidden, and a true check is too costly for every update.

use crate::evaluation::weights::{self, WeightFile, Weights};
use crate::game::pattern::{combine, supported, Pattern, Threat, PATTERNS};
use std::sync::OnceLock;

/// What an empty cell offers one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CellInfo {
    /// Evaluation contribution while this colour is to move ([`Weights::mover`]).
    pub value: i32,
    /// Evaluation contribution while the other colour is to move ([`Weights::waiter`]).
    pub wait: i32,
    /// Move policy: how good taking the cell is for this colour ([`Weights::attack`]).
    pub attack: i16,
    /// Move policy: how good it is for the other colour to take it from this one
    /// ([`Weights::defence`]).
    pub defence: i16,
    /// The rung of the threat ladder a move here reaches.
    pub threat: Threat,
    /// Renju black only: the point may be forbidden and must be checked before use.
    pub suspect: bool,
    /// The four or open three a move here makes is [`supported`] by a second, weaker line.
    pub supported: bool,
}

impl CellInfo {
    /// Where the cell counts among its colour's supported threats: `Some(0)` a supported four,
    /// `Some(1)` a supported open three, `None` neither.
    #[inline]
    pub fn supported_slot(self) -> Option<usize> {
        self.supported
            .then_some((self.threat == Threat::Three) as usize)
    }
}

/// What a cell with the four directional patterns `pats` offers its colour (its threat rung,
/// whether it is a renju suspect for black, its values): `own` holds the weights read while
/// that colour is to move (its `mover` value and `attack` policy), `other` those read while the
/// other colour is (its `waiter` value and `defence` policy).
pub fn cell_info(
    pats: &[Pattern; 4],
    renju_black: bool,
    own: &Weights,
    other: &Weights,
) -> CellInfo {
    let (threat, suspect) = combine(pats, renju_black);
    if suspect {
        return CellInfo {
            threat,
            suspect,
            ..CellInfo::default()
        };
    }
    let i = weights::canonical(pats);
    let policy = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    CellInfo {
        value: own.mover[i],
        wait: other.waiter[i],
        attack: policy(own.attack[i]),
        defence: policy(other.defence[i]),
        threat,
        suspect,
        supported: supported(pats, threat),
    }
}

/// Number of four-pattern combinations: a cell's four patterns as a base-14 number (direction
/// `d` is digit `d`), so that one pattern change is one addition to the code.
pub const CODES: usize = PATTERNS.pow(4);
/// The weight of direction `d` in a combination code.
pub const DIGIT: [i32; 4] = [1, 14, 14 * 14, 14 * 14 * 14];

/// The [`CellInfo`] of every combination code for one colour and pair of files (see
/// [`combination_table`]): a code's info is looked up in two steps, its combination index
/// ([`weights::canonical`], the same for every table) and that combination's info. The two
/// small arrays (77 KiB and 37 KiB) stay in cache where one array per code (600 KiB) did not.
#[derive(Clone, Copy)]
pub struct CombinationTable {
    combination: &'static [u16],
    info: &'static [CellInfo],
}

impl CombinationTable {
    /// The info of combination code `code` (below [`CODES`]).
    #[inline(always)]
    pub fn get(self, code: usize) -> CellInfo {
        self.info[self.combination[code] as usize]
    }
}

/// The four patterns of combination code `code`.
fn code_patterns(code: usize) -> [Pattern; 4] {
    let mut pats = [Pattern::Dead; 4];
    for (d, p) in pats.iter_mut().enumerate() {
        *p = Pattern::ALL[code / DIGIT[d] as usize % PATTERNS];
    }
    pats
}

/// The combination index of every code, computed once.
fn code_combinations() -> &'static [u16] {
    static CODE_COMBINATION: OnceLock<Box<[u16]>> = OnceLock::new();
    CODE_COMBINATION.get_or_init(|| {
        (0..CODES)
            .map(|code| weights::canonical(&code_patterns(code)) as u16)
            .collect()
    })
}

/// The [`CellInfo`] of every combination code for a colour whose own file is `own` and whose
/// opponent's is `other` (see [`cell_info`]), for ordinary colours and renju black (where
/// suspects are marked), computed once per pair of files: an update looks the info up instead
/// of combining four patterns. (The info depends on the combination only, not on the order of
/// the directions, so it is kept per combination.)
pub fn combination_table(
    renju_black: bool,
    own: WeightFile,
    other: WeightFile,
) -> CombinationTable {
    const FILES: usize = WeightFile::ALL.len();
    type Table = OnceLock<Box<[CellInfo]>>;
    static TABLES: [[[Table; 2]; FILES]; FILES] =
        [const { [const { [OnceLock::new(), OnceLock::new()] }; FILES] }; FILES];
    let (w_own, w_other) = (own.weights(), other.weights());
    let info = TABLES[own.index()][other.index()][renju_black as usize].get_or_init(|| {
        (0..weights::COMBOS)
            .map(|i| cell_info(&weights::patterns_of(i), renju_black, w_own, w_other))
            .collect()
    });
    CombinationTable {
        combination: code_combinations(),
        info,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A colour's cell reads its `mover` value and `attack` policy from its own file (read while
    /// it is to move) and its `waiter` value and `defence` policy from the other colour's: two
    /// different files tell the halves apart.
    #[test]
    fn a_cell_reads_each_value_from_its_side_to_moves_file() {
        let (own, other) = (WeightFile::Freestyle, WeightFile::Classic);
        let table = combination_table(false, own, other);
        let mut differing = 0;
        for code in 0..CODES {
            let info = table.get(code);
            let pats = code_patterns(code);
            let i = weights::canonical(&pats);
            assert_eq!(
                info,
                cell_info(&pats, false, own.weights(), other.weights())
            );
            let policy = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            assert_eq!(info.value, own.weights().mover[i], "code {code}");
            assert_eq!(info.wait, other.weights().waiter[i], "code {code}");
            assert_eq!(info.attack, policy(own.weights().attack[i]), "code {code}");
            assert_eq!(
                info.defence,
                policy(other.weights().defence[i]),
                "code {code}"
            );
            differing += (own.weights().waiter[i] != other.weights().waiter[i]) as usize;
        }
        assert!(differing > 1000, "the two files hardly differ: {differing}");
    }
}
