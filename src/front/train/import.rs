//! The import of a classical evaluation model of the strongest open engine (Rapfi's
//! `model*.bin`, published under CC0 in `dhbloo/rapfi-networks`) as a bango weights file: its
//! evaluation tables, with bango's own move policy beside them.
//!
//! # What the model holds (read from its published loader's layout, never its code)
//! An LZ4 frame whose content is, little-endian: the scaling factor (`f64`, units a logit); a
//! value table per table index (`i16`, [`TABLES`] × [`COMBOS`]: freestyle, standard, renju
//! black, renju white), a threat table per table index (`i16`, [`TABLES`] × [`CLASS_MASKS`],
//! by [`class_mask`]), and move scores per table index ([`COMBOS`] pairs of `i16`, not read:
//! bango keeps its own fitted policy). A combination's place is its four patterns sorted
//! weakest first, in lexicographic order: bango's fourteen patterns are the model's, in the
//! same order, so the tables read cell for cell.
//!
//! # How the values map
//! A cell's value belongs to the colour whose patterns it reads (the value table of that colour:
//! under renju, black's or white's; otherwise the rule's one table), whoever is to move, so a
//! file read while colour `s` is to move holds `s`'s table as `mover` and the other colour's as
//! `waiter`; its threat classes are the table of `s`. The model averages the cell sums over two
//! plies (`two-ply`), has no tempo and no rung terms (zero here). Values are rescaled from the
//! model's units a logit to the file's `scale`.
//!
//! [`class_mask`]: crate::evaluation::weights::class_mask

use crate::evaluation::weights::{patterns_of, Weights, CLASS_MASKS, COMBOS};
use crate::game::board::Color;
use crate::game::pattern::{Pattern, PATTERNS, THREATS};
use crate::game::rules::Rule;
use std::io::Read;

/// The model's table indices: freestyle, standard, renju black, renju white.
pub const TABLES: usize = 4;

/// The decompressed size of a model: the scaling factor, the value and threat tables, and the
/// move scores.
const RAW_LEN: usize = 8 + TABLES * COMBOS * 2 + TABLES * CLASS_MASKS * 2 + TABLES * COMBOS * 4;

/// A classical model's tables, decompressed and checked.
pub struct ClassicalModel {
    /// Units a logit.
    pub scale: f64,
    /// Value per table index and model combination code.
    values: Vec<[i16; COMBOS]>,
    /// Threat term per table index and class mask.
    threats: Vec<[i16; CLASS_MASKS]>,
}

impl ClassicalModel {
    /// Reads a model file's bytes (an LZ4 frame, see the module docs).
    pub fn parse(compressed: &[u8]) -> Result<ClassicalModel, String> {
        let mut raw = Vec::with_capacity(RAW_LEN);
        lz4_flex::frame::FrameDecoder::new(compressed)
            .read_to_end(&mut raw)
            .map_err(|e| format!("not an LZ4 frame: {e}"))?;
        ClassicalModel::from_raw(&raw)
    }

    /// Reads the decompressed content.
    pub fn from_raw(raw: &[u8]) -> Result<ClassicalModel, String> {
        if raw.len() != RAW_LEN {
            return Err(format!(
                "a classical model holds {RAW_LEN} bytes, this one {}",
                raw.len()
            ));
        }
        let scale = f64::from_le_bytes(raw[..8].try_into().expect("8 bytes"));
        if !(scale.is_finite() && scale > 0.0) {
            return Err(format!("scaling factor {scale} is not a positive number"));
        }
        let mut words = raw[8..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut values = vec![[0i16; COMBOS]; TABLES];
        for table in values.iter_mut() {
            table
                .iter_mut()
                .for_each(|v| *v = words.next().expect("sized"));
        }
        let mut threats = vec![[0i16; CLASS_MASKS]; TABLES];
        for table in threats.iter_mut() {
            table
                .iter_mut()
                .for_each(|v| *v = words.next().expect("sized"));
        }
        Ok(ClassicalModel {
            scale,
            values,
            threats,
        })
    }

    /// The weights a game under `rule` reads while `to_move` is to move (see the module docs),
    /// at `scale` units a logit, with the move policy (`attack`, `defence`, `near`) of `policy`.
    /// Caro has no table of its own: it reads freestyle's.
    pub fn weights(&self, rule: Rule, to_move: Color, scale: i32, policy: &Weights) -> Weights {
        let table = |c: Color| match (rule, c) {
            (Rule::Standard, _) => 1,
            (Rule::Renju, Color::Black) => 2,
            (Rule::Renju, Color::White) => 3,
            _ => 0,
        };
        let k = f64::from(scale) / self.scale;
        let rescale = |v: i16| (f64::from(v) * k).round() as i32;
        let codes = model_codes();
        let (own, other) = (table(to_move), table(to_move.opponent()));
        let mut w = policy.clone();
        w.scale = scale;
        w.tempo = 0;
        w.threat = vec![[0; THREATS]; THREATS];
        w.mask.iter_mut().for_each(|v| *v = 0);
        w.mover = codes
            .iter()
            .map(|&c| rescale(self.values[own][c]))
            .collect();
        w.waiter = codes
            .iter()
            .map(|&c| rescale(self.values[other][c]))
            .collect();
        w.classes = self.threats[own].iter().map(|&v| rescale(v)).collect();
        w.two_ply = true;
        w
    }
}

/// The model's combination code of every bango combination index.
fn model_codes() -> Vec<usize> {
    // The model numbers the multisets a <= b <= c <= d (weakest first) lexicographically.
    let mut code_of = std::collections::HashMap::with_capacity(COMBOS);
    let mut code = 0;
    for a in 0..PATTERNS {
        for b in a..PATTERNS {
            for c in b..PATTERNS {
                for d in c..PATTERNS {
                    code_of.insert([a, b, c, d], code);
                    code += 1;
                }
            }
        }
    }
    (0..COMBOS)
        .map(|i| {
            let mut p = patterns_of(i).map(|p: Pattern| p as usize);
            p.sort_unstable();
            code_of[&p]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::weights::canonical;

    /// A model whose every value is its own code and whose threat entry is its mask: the
    /// import must put each where bango's index of the same patterns is.
    fn numbered_model(scale: f64) -> Vec<u8> {
        let mut raw = scale.to_le_bytes().to_vec();
        for t in 0..TABLES {
            for code in 0..COMBOS {
                raw.extend_from_slice(&((code + t * 3000) as i16 / 4).to_le_bytes());
            }
        }
        for t in 0..TABLES {
            for m in 0..CLASS_MASKS {
                raw.extend_from_slice(&((m as i16) - (t as i16)).to_le_bytes());
            }
        }
        raw.resize(RAW_LEN, 0);
        raw
    }

    #[test]
    fn codes_are_the_sorted_multisets_in_lexicographic_order() {
        let codes = model_codes();
        use Pattern::*;
        // The first codes: Dead x4, then Dead x3 with each other pattern.
        assert_eq!(codes[canonical(&[Dead; 4])], 0);
        assert_eq!(codes[canonical(&[Dead, Dead, Dead, Overline])], 1);
        assert_eq!(codes[canonical(&[F5, Dead, Dead, Dead])], 13);
        assert_eq!(codes[canonical(&[Dead, Dead, Overline, Overline])], 14);
        assert_eq!(codes[canonical(&[F5; 4])], COMBOS - 1);
        let mut seen = codes.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..COMBOS).collect::<Vec<_>>(), "a bijection");
    }

    #[test]
    fn a_file_holds_its_side_to_moves_table_as_mover_and_the_others_as_waiter() {
        let model = ClassicalModel::from_raw(&numbered_model(100.0)).unwrap();
        let policy = Weights::embedded();
        let codes = model_codes();
        let i = canonical(&[Pattern::F3, Pattern::F2, Pattern::B1, Pattern::Dead]);
        // Renju, white to move: white's table (3) moves, black's (2) waits; scale 100 -> 200.
        let w = model.weights(Rule::Renju, Color::White, 200, policy);
        assert_eq!(w.mover[i], 2 * ((codes[i] + 3 * 3000) as i32 / 4));
        assert_eq!(w.waiter[i], 2 * ((codes[i] + 2 * 3000) as i32 / 4));
        assert_eq!(w.classes[37], 2 * (37 - 3));
        assert!(w.two_ply && w.tempo == 0 && w.mask.iter().all(|&v| v == 0));
        assert_eq!(w.attack, policy.attack, "the policy is bango's");
        // Freestyle reads table 0 for both colours.
        let f = model.weights(Rule::Freestyle, Color::Black, 100, policy);
        assert_eq!(f.mover, f.waiter);
        assert_eq!(f.mover[i], (codes[i] / 4) as i32);
        // Its text reads back the same.
        assert_eq!(Weights::parse(&f.to_text("test")).unwrap(), f);
    }

    #[test]
    fn a_wrong_size_or_scale_is_refused() {
        let mut raw = numbered_model(100.0);
        raw.pop();
        assert!(ClassicalModel::from_raw(&raw).is_err());
        assert!(ClassicalModel::from_raw(&numbered_model(-1.0)).is_err());
        assert!(ClassicalModel::parse(b"not a frame").is_err());
    }
}
