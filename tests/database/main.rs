//! The position database through the built brain, black box: Yixin-Board's database commands
//! over pipes with their exact replies (`commands`), and what two processes, a killed process
//! and foreign files do to the file (`processes`).

mod commands;
mod processes;
mod search;

use bango_testkit::brain::{Brain, Event, Mode};
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-db-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A brain with a 15x15 game started (and `rule` set when given).
pub fn brain(rule: Option<u32>) -> Brain {
    let mut b = Brain::spawn(Mode::Pipe, &[]);
    b.send("START 15");
    b.expect("OK");
    if let Some(r) = rule {
        b.send(&format!("INFO rule {r}"));
    }
    b
}

/// The next line, which must start with `prefix`.
pub fn expect_prefix(b: &mut Brain, prefix: &str) -> String {
    let line = b.recv();
    assert!(
        line.starts_with(prefix),
        "wanted {prefix:?}..., got {line:?}\n{}",
        b.dump()
    );
    line
}

/// `YXSETDATABASE path`, expecting it opened with `n` positions.
pub fn open(b: &mut Brain, path: &Path, n: usize) {
    b.send(&format!("yxsetdatabase {}", path.display()));
    b.expect(&format!(
        "MESSAGE database {} opened ({n} positions)",
        path.display()
    ));
}

/// A position command: `head`, the moves one a line, `done`.
pub fn at(b: &mut Brain, head: &str, moves: &[(usize, usize)]) {
    b.send(head);
    for (x, y) in moves {
        b.send(&format!("{x},{y}"));
    }
    b.send("done");
}

/// The number of positions `YXDBCHECK` reports, asserting it found no problem.
pub fn checked_count(b: &mut Brain) -> usize {
    b.send("yxdbcheck");
    let line = expect_prefix(b, "MESSAGE database check: ");
    let rest = line.trim_start_matches("MESSAGE database check: ");
    let (n, tail) = rest.split_once(" positions, ").unwrap();
    assert_eq!(tail, "no problems", "{line}\n{}", b.dump());
    n.parse().unwrap()
}

/// The next line within `within` (imports of many records outlast the usual read timeout on a
/// loaded machine), which must be `want`.
pub fn expect_slow(b: &mut Brain, want: &str, within: std::time::Duration) {
    match b.next_event(within) {
        Some(Event::Line(l)) => {
            b.transcript.push(format!("<< {l}"));
            assert_eq!(l, want, "\n{}", b.dump());
        }
        _ => panic!("no {want:?} within {within:?}\n{}", b.dump()),
    }
}
