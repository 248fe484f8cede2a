//! `book validate`: every way a book line can be wrong, reported line by line.
//!
//! Each opening is replayed from the empty board under each rule the book names. Problems:
//! a point off the board, a point repeated within a line, a five (a finished game) inside a line,
//! a renju forbidden move by black, an unknown rule name or a mismatched explicit colour order,
//! and two lines that reach the same position up to symmetry (duplicates).

use super::symmetry::{canonical, stones_of, Key};
use super::BookFile;
use crate::game::board::Board;
use crate::game::rules::{is_forbidden, is_win_at, Rule};
use std::collections::HashMap;
use std::fmt;

/// The kind of a problem, one per check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProblemKind {
    /// A move off the board.
    OutOfBoard,
    /// A move on a point already played in the line.
    RepeatedPoint,
    /// A move that wins: book lines stop before the game is decided.
    FiveInLine,
    /// Black plays a renju forbidden point.
    Forbidden,
    /// A rule name the engine does not know, or a book with no rule.
    UnknownRule,
    /// The line reaches a position another line already reached (up to symmetry).
    DuplicatePosition,
}

/// One problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong.
    pub kind: ProblemKind,
    /// The 1-based opening index (0 for the whole book).
    pub opening: usize,
    /// The 1-based move index within the opening (0 when not about one move).
    pub mv: usize,
    /// Details.
    pub detail: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "opening {} move {}: {:?}: {}",
            self.opening, self.mv, self.kind, self.detail
        )
    }
}

/// Validates a parsed book file; an empty result means the book is clean.
pub fn validate(file: &BookFile) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut rules = Vec::new();
    for name in file.rules.names() {
        match Rule::from_name(name) {
            Some(r) => rules.push(r),
            None => problems.push(Problem {
                kind: ProblemKind::UnknownRule,
                opening: 0,
                mv: 0,
                detail: format!("unknown rule {name:?}"),
            }),
        }
    }
    if rules.is_empty() && problems.is_empty() {
        problems.push(Problem {
            kind: ProblemKind::UnknownRule,
            opening: 0,
            mv: 0,
            detail: "the book names no rule".into(),
        });
    }
    let mut finals: HashMap<Key, usize> = HashMap::new();
    for (i, line) in file.openings.iter().enumerate() {
        let opening = i + 1;
        let mut board = Board::new(file.size);
        let mut broken = false;
        for (j, &c) in line.coordinates.iter().enumerate() {
            let mv = j + 1;
            let (x, y) = file.to_xy(c);
            let Some(p) = board.pos(x, y) else {
                problems.push(Problem {
                    kind: ProblemKind::OutOfBoard,
                    opening,
                    mv,
                    detail: format!("{c:?} is ({x},{y}), off a {0}x{0} board", file.size),
                });
                broken = true;
                break;
            };
            if board.at(p).is_some() {
                problems.push(Problem {
                    kind: ProblemKind::RepeatedPoint,
                    opening,
                    mv,
                    detail: format!("{p} already played"),
                });
                broken = true;
                break;
            }
            let mover = board.side_to_move();
            for &rule in &rules {
                if mover == crate::game::board::Color::Black && is_forbidden(&mut board, p, rule) {
                    problems.push(Problem {
                        kind: ProblemKind::Forbidden,
                        opening,
                        mv,
                        detail: format!("black {p} is forbidden under {rule}"),
                    });
                }
            }
            board.play(p).expect("checked empty and on board");
            for &rule in &rules {
                if is_win_at(&board, p, mover, rule) {
                    problems.push(Problem {
                        kind: ProblemKind::FiveInLine,
                        opening,
                        mv,
                        detail: format!("{p} completes a five under {rule}"),
                    });
                    break;
                }
            }
        }
        if !broken && board.stone_count() > 0 {
            let (key, _) = canonical(&stones_of(&board), file.size);
            if let Some(&first) = finals.get(&key) {
                problems.push(Problem {
                    kind: ProblemKind::DuplicatePosition,
                    opening,
                    mv: 0,
                    detail: format!("same position as opening {first} (up to symmetry)"),
                });
            } else {
                finals.insert(key, opening);
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(coords: &str, rules: &str) -> Vec<ProblemKind> {
        let f = BookFile::parse(&format!(
            r#"{{"id":"t","rules":{rules},"size":15,"coordinateSystem":"board-row-column",
               "openings":{coords}}}"#
        ))
        .unwrap();
        validate(&f).into_iter().map(|p| p.kind).collect()
    }

    #[test]
    fn clean_book_has_no_problem() {
        assert!(check(r#"[{"coordinates":[[7,7],[6,7],[5,5]]}]"#, r#""renju""#).is_empty());
    }

    #[test]
    fn each_error_class_is_caught() {
        use ProblemKind::*;
        assert_eq!(
            check(r#"[{"coordinates":[[7,7],[15,7]]}]"#, r#""freestyle""#),
            [OutOfBoard]
        );
        assert_eq!(
            check(r#"[{"coordinates":[[7,7],[6,7],[7,7]]}]"#, r#""freestyle""#),
            [RepeatedPoint]
        );
        let five = r#"[{"coordinates":[[7,7],[0,0],[7,8],[0,2],[7,9],[0,4],[7,10],[0,6],[7,11]]}]"#;
        assert_eq!(check(five, r#""freestyle""#), [FiveInLine]);
        let double_three =
            r#"[{"coordinates":[[7,7],[0,0],[7,8],[0,2],[8,9],[0,4],[9,9],[0,6],[7,9]]}]"#;
        assert_eq!(check(double_three, r#""renju""#), [Forbidden]);
        assert!(check(double_three, r#""freestyle""#).is_empty());
        assert_eq!(
            check(r#"[{"coordinates":[[7,7]]}]"#, r#""chess""#),
            [UnknownRule]
        );
        // The second line is the first mirrored: a duplicate position.
        let dup = r#"[{"coordinates":[[7,7],[6,7],[5,5]]},{"coordinates":[[7,7],[8,7],[9,9]]}]"#;
        assert_eq!(check(dup, r#""freestyle""#), [DuplicatePosition]);
    }
}
