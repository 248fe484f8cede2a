//! The book tools through the binary, and the classical openings against the shared list.

use bango::game::board::{Color, Pos};
use bango::game::notation::parse_opening;
use bango::knowledge::book::classic::classic_openings;
use bango::knowledge::book::symmetry::canonical;
use bango_testkit::data_dir;
use std::collections::BTreeSet;
use std::process::Command;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-bango")
}

fn key(moves: &[Pos]) -> Vec<(u16, u8)> {
    let stones: Vec<(Pos, Color)> = moves
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            (
                p,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            )
        })
        .collect();
    canonical(&stones, 15).0
}

#[test]
fn gen_classic_finds_the_26_openings_of_the_shared_list() {
    let text = std::fs::read_to_string(data_dir().join("openings-renju-15.txt")).unwrap();
    let listed: BTreeSet<_> = text
        .lines()
        .filter_map(|l| parse_opening(l, 15).unwrap())
        .map(|m| key(&m))
        .collect();
    assert_eq!(listed.len(), 26);
    let generated: BTreeSet<_> = classic_openings(15).iter().map(|o| key(&o.moves)).collect();
    assert_eq!(generated, listed);

    let out = Command::new(exe())
        .args(["book", "gen-classic"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<_> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 26);
}

#[test]
fn validate_exit_codes() {
    let dir = std::env::temp_dir().join(format!("bango-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let classic = dir.join("classic.json");
    let st = Command::new(exe())
        .args(["book", "gen-classic", "--out"])
        .arg(&classic)
        .status()
        .unwrap();
    assert!(st.success());
    let out = Command::new(exe())
        .args(["book", "validate"])
        .arg(&classic)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"id":"b","rules":"renju","size":15,"coordinateSystem":"board-row-column",
            "openings":[{"coordinates":[[7,7],[7,7]]},{"coordinates":[[7,7],[99,0]]}]}"#,
    )
    .unwrap();
    let out = Command::new(exe())
        .args(["book", "validate"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains("RepeatedPoint") && report.contains("OutOfBoard"),
        "{report}"
    );
    assert!(report.contains("2 problems"), "{report}");

    std::fs::write(&bad, "not json").unwrap();
    let out = Command::new(exe())
        .args(["book", "validate"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
