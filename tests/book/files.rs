//! The shipped books in `openbook/`: each validates clean, each game type loads the right ones,
//! and they answer the opening positions they were grown from.

use bango::game::board::{Board, Pos};
use bango::game::rules::Rule;
use bango::knowledge::book::{load_for, search_locations};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn openbook() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("openbook")
}

fn names(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn every_shipped_book_validates_clean() {
    let mut books: Vec<PathBuf> = std::fs::read_dir(openbook())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    books.sort();
    assert_eq!(
        names(&books),
        [
            "balanced-freestyle-15.json",
            "classic-freestyle-15.json",
            "classic-renju-15.json",
            "classic-standard-15.json"
        ]
    );
    for b in &books {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-bango"))
            .args(["book", "validate"])
            .arg(b)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {text}", b.display());
        assert!(text.trim_end().ends_with(", 0 problems"), "{text}");
    }
}

#[test]
fn each_rule_loads_its_books_and_they_answer_the_opening() {
    let exe = openbook().join("x").join("pbrain-bango");
    let locs = search_locations(None, Some(&exe));
    for (rule, want) in [
        (Rule::Renju, vec!["classic-renju-15.json"]),
        (Rule::Standard, vec!["classic-standard-15.json"]),
        (
            Rule::Freestyle,
            vec!["balanced-freestyle-15.json", "classic-freestyle-15.json"],
        ),
    ] {
        let t0 = Instant::now();
        let l = load_for(&locs, rule, 15);
        // Printed for the record (`-- --nocapture`); the clock is not asserted on.
        println!("{rule}: {} positions in {:?}", l.book.len(), t0.elapsed());
        assert_eq!(names(&l.files), want, "{rule}");
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        // Black opens in the centre; white answers next to it; black's second stone stays near
        // (the classical openings' 5x5 box, or the balanced openings' wider shapes).
        let mut b = Board::new(15);
        let m = l.book.moves(&mut b, rule);
        assert_eq!(m[0].pos, Pos::new(7, 7), "{rule}");
        b.play(Pos::new(7, 7)).unwrap();
        let m = l.book.moves(&mut b, rule);
        assert_eq!(m[0].pos.chebyshev(Pos::new(7, 7)), 1, "{rule}");
        b.play(m[0].pos).unwrap();
        let m = l.book.moves(&mut b, rule);
        let reach = if rule == Rule::Freestyle { 4 } else { 2 };
        assert!(m[0].pos.chebyshev(Pos::new(7, 7)) <= reach, "{rule} {m:?}");
    }
    // No book for caro or 20x20: one problem line, an empty book.
    for (rule, size) in [(Rule::Caro, 15), (Rule::Freestyle, 20)] {
        let l = load_for(&locs, rule, size);
        assert!(l.book.is_empty() && l.problems.len() == 1, "{rule} {size}");
    }
}

#[test]
fn the_embedded_books_are_the_shipped_files_and_load_alike() {
    use bango::knowledge::book::EMBEDDED;
    let mut on_disk: Vec<PathBuf> = std::fs::read_dir(openbook())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    on_disk.sort();
    let embedded: Vec<String> = EMBEDDED.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        embedded,
        names(&on_disk),
        "EMBEDDED must list openbook/ in name order"
    );
    for (name, text) in EMBEDDED {
        assert_eq!(
            text,
            std::fs::read_to_string(openbook().join(name)).unwrap(),
            "{name}"
        );
    }
    let disk = search_locations(None, Some(&openbook().join("x").join("pbrain-bango")));
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let from_disk = load_for(&disk, rule, 15);
        let built_in = load_for(&[], rule, 15);
        assert!(!from_disk.embedded && built_in.embedded, "{rule}");
        assert!(built_in.problems.is_empty(), "{:?}", built_in.problems);
        assert_eq!(names(&built_in.files), names(&from_disk.files), "{rule}");
        assert_eq!(built_in.book.ids, from_disk.book.ids, "{rule}");
        assert_eq!(built_in.book.len(), from_disk.book.len(), "{rule}");
        assert!(built_in.book.len() > 100, "{rule}: {}", built_in.book.len());
    }
    // Still no book for caro: one problem line.
    let l = load_for(&[], Rule::Caro, 15);
    assert!(
        l.book.is_empty() && l.problems.len() == 1,
        "{:?}",
        l.problems
    );
}

/// A tournament folder holds the brain alone: it plays its first move from the embedded book,
/// and a `book.json` put beside it overrides the embedded books.
#[test]
fn a_brain_copied_alone_plays_from_its_embedded_book() {
    let dir = std::env::temp_dir().join(format!("bango-alone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("pbrain-bango");
    std::fs::copy(env!("CARGO_BIN_EXE_pbrain-bango"), &exe).unwrap();
    let first_move = |exe: &Path| {
        use std::io::Write;
        let mut child = Command::new(exe)
            .env_remove("BANGO_BOOK")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"START 15\nINFO timeout_turn 1000\nBEGIN\nEND\n")
            .unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    let out = first_move(&exe);
    assert!(out.contains("MESSAGE book 7,7"), "{out}");
    assert!(!out.contains("no opening book"), "{out}");
    std::fs::write(
        dir.join("book.json"),
        r#"{"id":"beside","rules":"freestyle","size":15,"coordinateSystem":"center-relative-x-y",
           "openings":[{"coordinates":[[1,1]]}]}"#,
    )
    .unwrap();
    let out = first_move(&exe);
    let reply = out.lines().last().unwrap_or_default().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        ["6,6", "6,8", "8,6", "8,8"].contains(&reply.as_str()),
        "the book beside the brain should give a diagonal first move: {out}"
    );
}
