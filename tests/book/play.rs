//! The opening book in play, end to end through the protocol: book moves answered at once (as
//! black and as white, after TURN and after a BOARD in any orientation and stone order), a
//! corrupt book degrading to search, and the `BANGO_BOOK` switches (`0`, and `hints`, which
//! lets the search overrule the book).

use bango_testkit::brain::{parse_move, send_board, Brain, Mode};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Line 1 (weight 5): black opens at 3,3. Line 2: 7,7 8,8 9,7 then white's book move 13,1, a
/// point no search would choose.
const BOOK: &str = r#"{"id":"e2e","rules":"freestyle","size":15,"coordinateSystem":"center-relative-x-y",
 "openings":[{"coordinates":[[-4,-4]],"weight":5},{"coordinates":[[0,0],[1,1],[2,0],[6,-6]]}]}"#;

/// A fresh `INFO folder` whose `pbrain-bango/` holds `files`.
fn folder(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-bookplay-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pbrain-bango")).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join("pbrain-bango").join(name), text).unwrap();
    }
    dir
}

fn start(env: &[(&str, &str)], dir: &Path, turn_ms: u64) -> Brain {
    let mut env = env.to_vec();
    env.push(("BANGO_ALGO", ""));
    let mut b = Brain::spawn(Mode::Pipe, &env);
    b.send("START 15");
    b.expect("OK");
    b.send(&format!("INFO timeout_turn {turn_ms}"));
    b.send(&format!("INFO folder {}", dir.display()));
    b
}

/// Reads up to the move, returning it and the MESSAGE lines before it.
fn answer(b: &mut Brain) -> ((usize, usize), Vec<String>) {
    let mut messages = Vec::new();
    loop {
        let l = b.recv();
        if let Some(m) = l.strip_prefix("MESSAGE ") {
            messages.push(m.to_string());
        } else if l.starts_with("DEBUG ") {
            continue;
        } else {
            let p = parse_move(&l).unwrap_or_else(|| panic!("not a move: {l}\n{}", b.dump()));
            return (p, messages);
        }
    }
}

#[test]
fn book_moves_are_played_at_once_for_either_colour() {
    let dir = folder("hit", &[("e2e.json", BOOK)]);
    let turn = 10_000;
    let mut b = start(&[], &dir, turn);

    // Black on an empty board.
    let t0 = Instant::now();
    b.send("BEGIN");
    let (p, msgs) = answer(&mut b);
    assert_eq!(p, (3, 3), "{msgs:?}");
    assert!(msgs.iter().any(|m| m == "book 3,3"), "{msgs:?}");
    let first = t0.elapsed();

    // White after TURN: the book's reply to the centre is a diagonal neighbour.
    b.send("RESTART");
    b.expect("OK");
    b.send("TURN 7,7");
    let (p, _) = answer(&mut b);
    assert_eq!((p.0.abs_diff(7), p.1.abs_diff(7)), (1, 1));

    // White in a position restored by BOARD, stones in a non-game order: the book move.
    let t0 = Instant::now();
    send_board(
        &mut b,
        "BOARD",
        &["9,7,2".into(), "8,8,1".into(), "7,7,2".into()],
    );
    let (p, msgs) = answer(&mut b);
    let restored = t0.elapsed();
    assert_eq!(p, (13, 1), "{msgs:?}");

    // The same position mirrored left-right: the mirrored book move.
    send_board(
        &mut b,
        "BOARD",
        &["7,7,2".into(), "6,8,1".into(), "5,7,2".into()],
    );
    let (p, _) = answer(&mut b);
    assert_eq!(p, (1, 1));

    // Well inside the budget (the search alone would think for seconds on these).
    let budget = Duration::from_millis(turn / 4);
    assert!(
        first < budget && restored < budget,
        "{first:?} {restored:?}"
    );
    b.send("END");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupt_book_is_reported_and_search_plays() {
    let dir = folder("bad", &[("bad.json", "{ not json")]);
    let mut b = start(&[], &dir, 300);
    b.send("BEGIN");
    let (p, msgs) = answer(&mut b);
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("book skipped:") && m.contains("bad.json")),
        "{msgs:?}"
    );
    assert!(p.0 < 15 && p.1 < 15);
    b.send("END");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bango_book_zero_switches_the_book_off() {
    let dir = folder("off", &[("e2e.json", BOOK)]);
    let mut b = start(&[("BANGO_BOOK", "0")], &dir, 300);
    send_board(
        &mut b,
        "BOARD",
        &["7,7,2".into(), "8,8,1".into(), "9,7,2".into()],
    );
    let (p, msgs) = answer(&mut b);
    assert_ne!(p, (13, 1));
    assert!(!msgs.iter().any(|m| m.starts_with("book")), "{msgs:?}");
    b.send("END");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bango_book_hints_lets_the_search_overrule_a_quiet_book_move() {
    // The position of line 2, where the book's move 13,1 is one no search would choose: with
    // the book as hints it is searched first and loses to the search's choice; with the book
    // on, the same brain setup plays it at once.
    let stones = ["7,7,2".to_string(), "8,8,1".into(), "9,7,2".into()];
    let dir = folder("hints", &[("e2e.json", BOOK)]);
    let mut b = start(&[("BANGO_BOOK", "hints")], &dir, 300);
    send_board(&mut b, "BOARD", &stones);
    let (p, msgs) = answer(&mut b);
    assert_ne!(p, (13, 1), "{msgs:?}");
    assert!(!msgs.iter().any(|m| m.starts_with("book ")), "{msgs:?}");
    // The search ran: its iterations are reported.
    assert!(msgs.iter().any(|m| m.starts_with("depth ")), "{msgs:?}");
    b.send("END");

    let mut b = start(&[("BANGO_BOOK", "on")], &dir, 300);
    send_board(&mut b, "BOARD", &stones);
    let (p, msgs) = answer(&mut b);
    assert_eq!(p, (13, 1), "{msgs:?}");
    assert!(msgs.iter().any(|m| m == "book 13,1"), "{msgs:?}");
    b.send("END");
    let _ = std::fs::remove_dir_all(&dir);
}
