//! Renju forbidden points against the shared test set (mintaka's, including the recursive
//! "false three" cases): every listed point found, and no other.

use bango::game::board::Pos;
use bango::game::notation::parse_puzzles;
use bango::game::rules::{forbidden_points, Rule};
use bango_testkit::data_dir;

#[test]
fn forbidden_points_match_the_test_set() {
    let path = data_dir().join("puzzles-forbidden.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let puzzles = parse_puzzles(&text).unwrap();
    assert!(puzzles.len() >= 30, "only {} puzzles", puzzles.len());
    let mut failures = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        assert_eq!(p.rule, Rule::Renju);
        let mut b = p.board().unwrap();
        let key = b.key();
        let mut got: Vec<Pos> = forbidden_points(&mut b, Rule::Renju);
        assert_eq!(b.key(), key, "board changed by the check");
        let mut want = p.answers.clone();
        got.sort();
        want.sort();
        if got != want {
            let fmt = |v: &[Pos]| {
                v.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            failures.push(format!(
                "puzzle {i}: want [{}] got [{}]\n{b}",
                fmt(&want),
                fmt(&got)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
