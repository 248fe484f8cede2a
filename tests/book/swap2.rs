//! Swap2 end to end with the default engine: the three `SWAP2BOARD` cases get well-formed,
//! legal answers inside the move budget, and play goes on from them.

use bango_testkit::brain::{parse_move, Brain, Mode};
use std::time::{Duration, Instant};

const TURN_MS: u64 = 1500;

fn brain() -> Brain {
    let mut b = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")]);
    b.send("START 15");
    b.expect("OK");
    b.send(&format!("INFO timeout_turn {TURN_MS}"));
    b
}

/// Sends SWAP2BOARD with `stones` and returns the answer line (MESSAGE lines skipped) and how
/// long it took.
fn swap2(b: &mut Brain, stones: &[(usize, usize)]) -> (String, Duration) {
    swap_board(b, "SWAP2BOARD", stones)
}

/// Sends the `SWAP1BOARD` extension with `stones`; as [`swap2`].
fn swap1(b: &mut Brain, stones: &[(usize, usize)]) -> (String, Duration) {
    swap_board(b, "SWAP1BOARD", stones)
}

fn swap_board(b: &mut Brain, word: &str, stones: &[(usize, usize)]) -> (String, Duration) {
    let t0 = Instant::now();
    b.send(word);
    for (x, y) in stones {
        b.send(&format!("{x},{y}"));
    }
    b.send("DONE");
    (reply(b), t0.elapsed())
}

fn moves(line: &str) -> Vec<(usize, usize)> {
    line.split_whitespace()
        .map(|t| parse_move(t).unwrap_or_else(|| panic!("not a move list: {line:?}")))
        .collect()
}

/// Inside the budget, with the tournaments' one second of tolerance.
fn in_time(d: Duration) -> bool {
    d < Duration::from_millis(TURN_MS + 1000)
}

fn check_new(stones: &[(usize, usize)], new: &[(usize, usize)]) {
    let mut all = stones.to_vec();
    for &p in new {
        assert!(p.0 < 15 && p.1 < 15, "{p:?} off the board");
        assert!(!all.contains(&p), "{p:?} occupied in {all:?}");
        all.push(p);
    }
}

#[test]
fn swap2_all_three_cases() {
    let mut b = brain();
    // Zero stones: three stones near the centre.
    let (line, took) = swap2(&mut b, &[]);
    let three = moves(&line);
    assert_eq!(three.len(), 3, "{line}");
    check_new(&[], &three);
    assert!(
        three
            .iter()
            .all(|p| p.0.abs_diff(7) <= 3 && p.1.abs_diff(7) <= 3),
        "{line}"
    );
    assert!(in_time(took), "{took:?}");

    // Three stones (a classical opening): SWAP, one stone or two.
    let opening = [(7, 7), (7, 6), (8, 8)];
    let (line, took) = swap2(&mut b, &opening);
    assert!(in_time(took), "{took:?}");
    if line != "SWAP" {
        let m = moves(&line);
        assert!(m.len() == 1 || m.len() == 2, "{line}");
        check_new(&opening, &m);
    }

    // Five stones: SWAP or white's sixth stone.
    let five = [(7, 7), (7, 6), (8, 8), (6, 8), (9, 9)];
    let (line, took) = swap2(&mut b, &five);
    assert!(in_time(took), "{took:?}");
    if line != "SWAP" {
        let m = moves(&line);
        assert_eq!(m.len(), 1, "{line}");
        check_new(&five, &m);
    }
    b.send("END");
}

#[test]
fn swap2_five_stones_with_a_black_four_takes_black() {
    // Black has an open three and it is white's move: black stands well; a balanced or white
    // answer would be a blunder, so the brain swaps (takes black).
    let mut b = brain();
    let five = [(7, 7), (0, 14), (8, 7), (14, 0), (9, 7)];
    let (line, took) = swap2(&mut b, &five);
    assert!(in_time(took), "{took:?}");
    // White to move can still block one end; the search must see black's advantage.
    assert_eq!(line, "SWAP");
    b.send("END");
}

/// The next line that is not `MESSAGE` or `DEBUG`.
fn reply(b: &mut Brain) -> String {
    loop {
        let l = b.recv();
        if !l.starts_with("MESSAGE ") && !l.starts_with("DEBUG ") {
            return l;
        }
    }
}

#[test]
fn swap1_takes_the_better_colour_and_play_goes_on() {
    let mut b = brain();
    // Black's two stones side by side at the centre, white's far away: black is better.
    let (line, took) = swap1(&mut b, &[(7, 7), (0, 14), (8, 7)]);
    assert!(in_time(took), "{took:?}");
    assert_eq!(line, "SWAP");
    // We are black now: white plays, we answer with a legal black move.
    b.send("TURN 6,8");
    let m = parse_move(&reply(&mut b)).expect("a move");
    check_new(&[(7, 7), (0, 14), (8, 7), (6, 8)], &[m]);

    // Black's stones in two corners and white's at the centre: white is better, so we take
    // white and play its next stone at once.
    b.send("RESTART");
    b.expect("OK");
    let opening = [(0, 0), (7, 7), (14, 14)];
    let (line, took) = swap1(&mut b, &opening);
    assert!(in_time(took), "{took:?}");
    let m = moves(&line);
    assert_eq!(m.len(), 1, "{line}");
    check_new(&opening, &m);

    // Malformed: Swap1 needs exactly three stones; the session stays usable.
    let (line, _) = swap1(&mut b, &[(7, 7)]);
    assert!(line.starts_with("ERROR SWAP1BOARD"), "{line}");
    b.send("ABOUT");
    assert!(reply(&mut b).contains("name="));
    b.send("END");
}
