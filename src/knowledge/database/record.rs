//! What the database knows of one position: a value, a best move, a label, a free text and
//! when it was written; and how two records of one position are merged.
//!
//! # Invariants
//! - Values are from the view of the side to move in the record's position.
//! - [`Record::merge`] never loses information it can keep: a proven value beats a score, a
//!   deeper score beats a shallower one, a non-empty label or text beats an empty one.

use crate::game::board::{Color, Pos};

use super::key::{apply, symmetries, Position};

/// A stored value, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// The position is a draw.
    Draw,
    /// A search score (the engine's units) and the depth it was searched to.
    Score {
        /// The score.
        score: i32,
        /// The depth in plies.
        depth: i32,
    },
}

impl Value {
    /// Whether the value is a proven result (win, loss or draw).
    pub fn is_proven(self) -> bool {
        !matches!(self, Value::Score { .. })
    }

    /// The same value from the other side's view (the parent's mover).
    pub fn flipped(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Score { score, depth } => Value::Score {
                score: -score,
                depth,
            },
        }
    }

    /// Whether `self` should replace `old` (proven beats a score, deeper beats shallower).
    pub fn better_than(self, old: Value) -> bool {
        match (self, old) {
            (_, o) if o.is_proven() => self.is_proven(),
            (n, _) if n.is_proven() => true,
            (Value::Score { depth: d, .. }, Value::Score { depth: od, .. }) => d >= od,
            _ => unreachable!("both scores handled above"),
        }
    }
}

/// One position's record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// What the position is worth, when known.
    pub value: Option<Value>,
    /// The best move, when known (in the frame of the position it was read for).
    pub best_move: Option<Pos>,
    /// A short label an analyst put on the position (shown on the parent's board at the move
    /// that leads here).
    pub label: String,
    /// Free text (a comment on the position).
    pub text: String,
    /// When the record was last written, seconds since the Unix epoch.
    pub written_at: i64,
}

impl Record {
    /// `old` updated by what `self` adds (see the module invariants); the later write time.
    pub fn merge(self, old: Record) -> Record {
        let take_new = match (self.value, old.value) {
            (Some(n), Some(o)) => n.better_than(o),
            (Some(_), None) => true,
            (None, _) => false,
        };
        let (value, best_move) = if take_new {
            (self.value, self.best_move.or(old.best_move))
        } else {
            (old.value, old.best_move.or(self.best_move))
        };
        let pick = |new: String, old: String| if new.is_empty() { old } else { new };
        Record {
            value,
            best_move,
            label: pick(self.label, old.label),
            text: pick(self.text, old.text),
            written_at: self.written_at.max(old.written_at),
        }
    }

    /// Whether the record carries nothing (no value, move, label or text).
    pub fn is_blank(&self) -> bool {
        self.value.is_none()
            && self.best_move.is_none()
            && self.label.is_empty()
            && self.text.is_empty()
    }
}

/// A position with its record, as listed by [`super::Database::positions`]: the stones in the
/// canonical frame and the best move in the same frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPosition {
    /// The position (canonical frame).
    pub position: Position,
    /// Its record (best move in the canonical frame).
    pub record: Record,
}

impl StoredPosition {
    /// The stones, for callers that want them without the rest of the position.
    pub fn stones(&self) -> &[(Pos, Color)] {
        &self.position.stones
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.position.to_move
    }

    /// The record under every shape-keeping symmetry of its board, stones and best move
    /// mapped together, each distinct image once (a symmetric position has fewer than eight):
    /// what a search that looks nodes up by their own hash keys loads.
    pub fn images(&self) -> Vec<StoredPosition> {
        let p = &self.position;
        let mut out: Vec<StoredPosition> = Vec::new();
        for &sym in symmetries(p.width, p.height) {
            let map = |q: Pos| apply(sym, q, p.width, p.height);
            let mut stones: Vec<(Pos, Color)> =
                p.stones.iter().map(|&(q, c)| (map(q), c)).collect();
            stones.sort();
            if out.iter().any(|o| o.position.stones == stones) {
                continue;
            }
            out.push(StoredPosition {
                position: Position {
                    stones,
                    ..p.clone()
                },
                record: Record {
                    best_move: self.record.best_move.map(map),
                    ..self.record.clone()
                },
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rule;

    #[test]
    fn images_cover_the_symmetries_once_each_with_the_best_move() {
        let stored = |moves: &[(usize, usize)]| StoredPosition {
            position: Position::from_moves(
                Rule::Freestyle,
                15,
                15,
                &moves
                    .iter()
                    .map(|&(x, y)| Pos::new(x, y))
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
            record: Record {
                best_move: Some(Pos::new(10, 3)),
                ..Record::default()
            },
        };
        let s = stored(&[(7, 7), (8, 6)]);
        let images = s.images();
        // 7,7 with a diagonal neighbour: four distinct images.
        assert_eq!(images.len(), 4);
        for i in &images {
            assert_eq!(i.position.canonical().key, s.position.canonical().key);
            let best = i.record.best_move.unwrap();
            // The best move keeps its place relative to the stones: (3, -4) from the centre
            // becomes one of its eight images.
            let (dx, dy) = (best.x() as i64 - 7, best.y() as i64 - 7);
            assert_eq!((dx * dx + dy * dy, dx.abs().max(dy.abs())), (25, 4));
            assert!(i.position.is_empty_at(best));
        }
        assert_eq!(stored(&[(2, 3), (9, 4)]).images().len(), 8);
    }

    fn rec(value: Option<Value>, label: &str, at: i64) -> Record {
        Record {
            value,
            best_move: Some(Pos::new(1, 1)),
            label: label.into(),
            text: String::new(),
            written_at: at,
        }
    }

    #[test]
    fn merge_keeps_the_better_value_and_non_empty_texts() {
        let deep = Some(Value::Score {
            score: 10,
            depth: 12,
        });
        let shallow = Some(Value::Score {
            score: 99,
            depth: 4,
        });
        let merged = rec(shallow, "", 5).merge(rec(deep, "a", 3));
        assert_eq!(
            (merged.value, merged.label.as_str(), merged.written_at),
            (deep, "a", 5)
        );
        let merged = rec(Some(Value::Win), "b", 1).merge(rec(deep, "a", 3));
        assert_eq!(
            (merged.value, merged.label.as_str()),
            (Some(Value::Win), "b")
        );
        let merged = rec(deep, "", 1).merge(rec(Some(Value::Loss), "", 0));
        assert_eq!(merged.value, Some(Value::Loss));
        let merged = rec(None, "", 1).merge(rec(None, "", 0));
        assert_eq!(merged.value, None);
        assert_eq!(Value::Win.flipped(), Value::Loss);
        assert_eq!(
            Value::Score { score: 7, depth: 2 }.flipped(),
            Value::Score {
                score: -7,
                depth: 2
            }
        );
    }
}
