//! The search and the database through the built brain: a move the analyst marked as winning is
//! played (a stored value one ply below the root steers it), and a deep enough root search
//! writes its result back, after its reply, for the next brain to read.

use super::{at, open, temp_dir};
use bango_testkit::brain::{parse_move, Brain, Mode};

/// A quiet opening, black first (six stones, black to move).
const OPENING: [(usize, usize); 6] = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)];

/// The registry's default algorithm (the test kit's default is `random`) with `env`.
fn brain_with(env: &[(&str, &str)]) -> Brain {
    let mut env = env.to_vec();
    env.push(("BANGO_ALGO", ""));
    let mut b = Brain::spawn(Mode::Pipe, &env);
    b.send("START 15");
    b.expect("OK");
    b.send("INFO max_depth 3");
    b
}

/// `BOARD` with the opening, black (us) to move; returns our move.
fn think(b: &mut Brain) -> (usize, usize) {
    b.send("BOARD");
    for (i, (x, y)) in OPENING.iter().enumerate() {
        b.send(&format!("{x},{y},{}", if i % 2 == 0 { 1 } else { 2 }));
    }
    b.send("DONE");
    loop {
        let line = b.recv();
        if let Some(p) = parse_move(&line) {
            return p;
        }
    }
}

#[test]
fn a_move_the_analyst_marked_winning_is_played() {
    let dir = temp_dir("marked");
    let env = [("BANGO_BOOK", "off"), ("BANGO_PROOFS", "off")];
    let mut plain = brain_with(&env);
    let chosen = think(&mut plain);
    // A move next to the stones (so the search meets it) that it does not choose itself.
    let marked = if chosen == (6, 6) { (10, 10) } else { (6, 6) };

    let mut b = brain_with(&env);
    open(&mut b, &dir.join("a.db"), 0);
    let mut line = OPENING.to_vec();
    line.push(marked);
    // `W` on that move: the move wins (a proven loss for the side to move after it).
    at(&mut b, "yxedittvddatabase 1 87 0 0", &line);
    b.expect("MESSAGE DATABASE ONE 87 -30000 0 3 W");
    assert_eq!(think(&mut b), marked, "\n{}", b.dump());
}

#[test]
fn a_deep_enough_root_search_is_written_back_for_the_next_brain() {
    let dir = temp_dir("writeback");
    let path = dir.join("a.db");
    let env = [
        ("BANGO_BOOK", "off"),
        ("BANGO_PROOFS", "off"),
        ("BANGO_DB_WRITE_DEPTH", "3"),
    ];
    let mut b = brain_with(&env);
    open(&mut b, &path, 0);
    let played = think(&mut b);
    // The record lands once the reply is out: the next command sees it.
    at(&mut b, "yxquerydatabaseone", &OPENING);
    let reply = b.recv();
    let fields: Vec<&str> = reply.split(' ').collect();
    assert_eq!(
        fields[..3],
        ["MESSAGE", "DATABASE", "ONE"],
        "{reply}\n{}",
        b.dump()
    );
    // tag (none), value, depth 3, bound 3 (a value is stored).
    assert_eq!(
        (fields[3], fields[5], fields[6]),
        ("0", "3", "3"),
        "{reply}"
    );
    drop(b);

    // Another brain sees the same record; a searched value (not a proof) only steers its search,
    // which still plays the same move.
    let mut reader = brain_with(&[("BANGO_BOOK", "off"), ("BANGO_PROOFS", "off")]);
    open(&mut reader, &path, 1);
    at(&mut reader, "yxquerydatabaseone", &OPENING);
    reader.expect(&reply);
    assert_eq!(think(&mut reader), played);

    // Below the write depth nothing is written.
    let mut shallow = brain_with(&[("BANGO_BOOK", "off"), ("BANGO_DB_WRITE_DEPTH", "4")]);
    open(&mut shallow, &dir.join("b.db"), 0);
    think(&mut shallow);
    at(&mut shallow, "yxquerydatabaseone", &OPENING);
    shallow.expect("MESSAGE DATABASE ONE 0 0 0 0");
}

#[test]
fn a_stored_proven_position_is_answered_without_search() {
    let dir = temp_dir("proven");
    let mut b = brain_with(&[("BANGO_BOOK", "off"), ("BANGO_PROOFS", "off")]);
    b.send("INFO max_depth 30");
    open(&mut b, &dir.join("a.db"), 0);
    // `L` on the opening: the move that led to it loses, so it is won for black, to move.
    at(&mut b, "yxedittvddatabase 1 76 0 0", &OPENING);
    b.expect("MESSAGE DATABASE ONE 76 30000 0 3 L");
    // Its best move: a far corner, which no search would play.
    let mut line = OPENING.to_vec();
    line.push((0, 14));
    at(&mut b, "yxsetbestmovedatabase", &line);
    b.expect("MESSAGE database best move 0,14 saved");
    assert_eq!(think(&mut b), (0, 14), "\n{}", b.dump());
    // No iteration was searched (a search logs each one).
    assert!(!b.dump().contains("MESSAGE depth"), "{}", b.dump());
    assert!(
        b.dump()
            .contains("MESSAGE database: win 200 stored, playing 0,14"),
        "{}",
        b.dump()
    );
}
