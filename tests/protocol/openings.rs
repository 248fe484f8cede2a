//! Yixin-Board's opening steps over pipes against the searching brain: `yxswap2step1..3` and
//! `yxsoosorvstep1..6` as Yixin-Board sends them (its `main.c`), each reply's exact format,
//! the legality of every stone answered, offers that are no copies of each other, refusals that
//! leave the session usable, and every answer within the turn time.

use bango::game::board::{Board, Pos};
use bango::game::rules::{self, Rule};
use bango::knowledge::book::symmetry::stabilizer;
use bango_testkit::brain::{Brain, Mode};
use std::time::{Duration, Instant};

/// The turn time the tests give; a reply may come this late plus the judges' one second.
const TURN_MS: u64 = 1000;

/// The searching brain on a 15x15 renju board, one worker, `TURN_MS` per move.
fn renju_brain() -> Brain {
    let mut b = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")]);
    b.send("START 15");
    b.expect("OK");
    for info in ["INFO rule 4", "INFO thread_num 1"] {
        b.send(info);
    }
    b.send(&format!("INFO timeout_turn {TURN_MS}"));
    b
}

/// Sends `head`, then `moves` as `x,y` lines and `done` when `body` (Yixin-Board's Soosõrv
/// framing); returns the next `n` opening reply lines (`MESSAGE SWAP2 ...` or `MESSAGE SOOSORV
/// ...`; other chatter skipped) and checks they came within the turn time.
fn step(b: &mut Brain, head: &str, moves: Option<&[(usize, usize)]>, n: usize) -> Vec<String> {
    let started = Instant::now();
    b.send(head);
    if let Some(moves) = moves {
        for (x, y) in moves {
            b.send(&format!("{x},{y}"));
        }
        b.send("done");
    }
    let got = replies(b, head, n);
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(TURN_MS + 1000),
        "{head} took {took:?}"
    );
    got
}

/// The next `n` opening reply lines, failing on `ERROR` or `UNKNOWN`.
fn replies(b: &mut Brain, head: &str, n: usize) -> Vec<String> {
    let mut got = Vec::new();
    while got.len() < n {
        let line = b.recv();
        assert!(
            !line.starts_with("ERROR") && !line.starts_with("UNKNOWN"),
            "{head}: {line}\n{}",
            b.dump()
        );
        if line.starts_with("MESSAGE SWAP2 ") || line.starts_with("MESSAGE SOOSORV ") {
            got.push(line);
        }
    }
    got
}

/// The point ending `line` after `prefix`: two numbers separated by a space.
fn point(line: &str, prefix: &str) -> (usize, usize) {
    let rest = line
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{line:?} does not start with {prefix:?}"));
    let v: Vec<usize> = rest.split(' ').map(|n| n.parse().unwrap()).collect();
    assert_eq!(v.len(), 2, "{line:?}");
    (v[0], v[1])
}

/// A board with `moves` played black first.
fn board(moves: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15);
    for &(x, y) in moves {
        b.play(Pos::new(x, y)).unwrap();
    }
    b
}

/// Black (to move on `b`) may play `p`: on the board, empty, not forbidden.
fn legal_for_black(b: &Board, p: (usize, usize)) -> bool {
    let mut probe = b.clone();
    p.0 < 15 && p.1 < 15 && {
        let p = Pos::new(p.0, p.1);
        probe.is_empty_at(p) && !rules::is_forbidden(&mut probe, p, Rule::Renju)
    }
}

/// `YXBOARD` lines for `moves` (black first) as Yixin-Board writes them: 1 for the side to move.
fn yxboard(b: &mut Brain, moves: &[(usize, usize)]) {
    b.send("yxboard");
    for (i, (x, y)) in moves.iter().enumerate() {
        let own = moves.len() % 2 == i % 2;
        b.send(&format!("{x},{y},{}", if own { 1 } else { 2 }));
    }
    b.send("done");
}

#[test]
fn swap2_steps_answer_in_yixin_boards_format() {
    let mut b = renju_brain();
    let three = step(&mut b, "yxswap2step1", None, 3);
    let stones: Vec<(usize, usize)> = (0..3)
        .map(|i| point(&three[i], &format!("MESSAGE SWAP2 MOVE{} ", i + 1)))
        .collect();
    let mut played = Board::new(15);
    for (i, &s) in stones.iter().enumerate() {
        assert!(i % 2 == 1 || legal_for_black(&played, s), "{s:?}");
        played
            .play(Pos::new(s.0, s.1))
            .expect("empty and on the board");
    }
    // Step 2 on three stones that YXBOARD set (Yixin-Board's own example position).
    let opening = [(7, 6), (6, 7), (5, 6)];
    yxboard(&mut b, &opening);
    let first = step(&mut b, "yxswap2step2", None, 1).remove(0);
    match first.as_str() {
        "MESSAGE SWAP2 SWAP1 YES" | "MESSAGE SWAP2 SWAP1 NO" => {}
        _ => {
            let fourth = point(&first, "MESSAGE SWAP2 MOVE4 ");
            let fifth = point(&b.recv(), "MESSAGE SWAP2 MOVE5 ");
            let mut after = board(&opening);
            assert!(after.is_empty_at(Pos::new(fourth.0, fourth.1)));
            after.play(Pos::new(fourth.0, fourth.1)).unwrap();
            assert!(legal_for_black(&after, fifth), "{fifth:?}");
        }
    }
    yxboard(&mut b, &[(5, 5), (8, 7), (9, 8), (7, 6), (6, 5)]);
    let choice = step(&mut b, "yxswap2step3", None, 1).remove(0);
    assert!(
        choice == "MESSAGE SWAP2 SWAP2 YES" || choice == "MESSAGE SWAP2 SWAP2 NO",
        "{choice}"
    );
    // The wrong number of stones for a step: refused, and the session goes on.
    yxboard(&mut b, &[(7, 7), (8, 8), (6, 6), (9, 9)]);
    b.send("yxswap2step2");
    b.expect_error("YXSWAP2STEP2 on 4 stones");
    b.send("yxswap2step2 now");
    b.expect_error("takes no arguments");
    b.send("ABOUT");
    assert!(b.recv().starts_with("name=\"pbrain-bango\""));
}

#[test]
fn soosorv_steps_answer_legally_in_yixin_boards_format() {
    let mut b = renju_brain();
    let three = step(&mut b, "yxsoosorvstep1", None, 3);
    let stones: Vec<(usize, usize)> = (0..3)
        .map(|i| point(&three[i], &format!("MESSAGE SOOSORV MOVE{} ", i + 1)))
        .collect();
    // One of the 26 openings: black on the centre, white within one, black within two.
    let off = |p: (usize, usize)| p.0.abs_diff(7).max(p.1.abs_diff(7));
    assert_eq!(
        (stones[0], off(stones[1]) <= 1, off(stones[2]) <= 2),
        ((7, 7), true, true)
    );
    // Distinct points on the board (`board` plays them).
    board(&stones);

    let opening = [(7, 7), (8, 6), (9, 5)];
    let swap1 = step(&mut b, "yxsoosorvstep2", Some(&opening), 1);
    assert!(
        swap1[0] == "MESSAGE SOOSORV SWAP1 Y" || swap1[0] == "MESSAGE SOOSORV SWAP1 N",
        "{swap1:?}"
    );
    let fourth = step(&mut b, "yxsoosorvstep3", Some(&opening), 1).remove(0);
    let rest = fourth.strip_prefix("MESSAGE SOOSORV MOVE4 ").unwrap();
    let v: Vec<usize> = rest.split(' ').map(|n| n.parse().unwrap()).collect();
    assert_eq!(v.len(), 3, "{fourth}");
    assert!(
        board(&opening).is_empty_at(Pos::new(v[0], v[1])),
        "{fourth}"
    );
    assert!((1..=8).contains(&v[2]), "{fourth}");

    // A position that is its own mirror in the main diagonal: offers must not be mirror copies.
    let four = [(7, 7), (8, 8), (6, 6), (9, 9)];
    let swap2 = step(&mut b, "yxsoosorvstep4 3", Some(&four), 1);
    assert!(
        swap2[0] == "MESSAGE SOOSORV SWAP2 Y" || swap2[0] == "MESSAGE SOOSORV SWAP2 N",
        "{swap2:?}"
    );
    let lines = step(&mut b, "yxsoosorvstep5 8", Some(&four), 10);
    assert_eq!(lines[0], "MESSAGE SOOSORV MOVE5 REFRESH");
    assert_eq!(lines[9], "MESSAGE SOOSORV MOVE5 DONE");
    let offers: Vec<(usize, usize)> = lines[1..9]
        .iter()
        .map(|l| point(l, "MESSAGE SOOSORV MOVE5 "))
        .collect();
    let pos = board(&four);
    let syms = stabilizer(&pos);
    assert_eq!(syms.len(), 2);
    for (i, &p) in offers.iter().enumerate() {
        assert!(legal_for_black(&pos, p), "{p:?}");
        for &q in &offers[i + 1..] {
            for s in &syms {
                let image = s.apply(Pos::new(p.0, p.1), 15);
                assert_ne!((image.x(), image.y()), q, "{p:?} and {q:?} are copies");
            }
        }
    }

    // Step 6: the answer is one of the offers as written (first number first): neither
    // offer's transpose is an offer, so a swapped reading would fail.
    let mut with_offers = four.to_vec();
    with_offers.extend([(4, 9), (10, 6)]);
    let chosen = step(&mut b, "yxsoosorvstep6", Some(&with_offers), 1).remove(0);
    let p = point(&chosen, "MESSAGE SOOSORV MOVE5C ");
    assert!(p == (4, 9) || p == (10, 6), "{chosen}");
}

#[test]
fn malformed_soosorv_steps_are_refused_and_the_session_goes_on() {
    let mut b = renju_brain();
    let four = [(7, 7), (8, 8), (6, 6), (9, 9)];
    let send = |b: &mut Brain, head: &str, moves: &[(usize, usize)]| {
        b.send(head);
        for (x, y) in moves {
            b.send(&format!("{x},{y}"));
        }
        b.send("done");
    };
    for (head, moves, why) in [
        ("yxsoosorvstep4", &four[..], "offers is missing"),
        ("yxsoosorvstep5 9", &four[..], "9 fifth-stone offers"),
        ("yxsoosorvstep5 x", &four[..], "YXSOOSORVSTEP5"),
        ("yxsoosorvstep2", &four[..2], "2 moves (expected 3)"),
        ("yxsoosorvstep3", &[(7, 7), (7, 7), (8, 8)][..], "occupied"),
        (
            "yxsoosorvstep6",
            &four[..],
            "4 moves (expected 4 and 1 to 8 offers)",
        ),
        (
            "yxsoosorvstep6",
            &[(7, 7), (8, 8), (6, 6), (9, 9), (5, 5), (5, 5)][..],
            "given twice",
        ),
        (
            "yxsoosorvstep6",
            &[(7, 7), (8, 8), (6, 6), (9, 9), (6, 6)][..],
            "occupied",
        ),
        ("yxsoosorvstep2", &[(7, 7), (8, 8), (15, 3)][..], "outside"),
    ] {
        send(&mut b, head, moves);
        b.expect_error(why);
    }
    b.send("yxsoosorvstep3 7");
    b.send("7,7");
    b.send("yxsoosorvstep1");
    b.expect_error("not closed by DONE");
    let three = replies(&mut b, "yxsoosorvstep1", 3);
    assert!(three[0].starts_with("MESSAGE SOOSORV MOVE1 "), "{three:?}");
    // Nothing refused changed the position: still the three stones step 1 answered.
    b.send("PRINT");
    let print = b.recv();
    assert!(print.contains(", 3 stones,"), "{print}");
}

/// The steps reuse `SWAP2BOARD`'s decisions: with searches of one ply (`timeout_turn 0`, one
/// worker: deterministic), a fresh brain answers `yxswap2step1` with the stones a fresh brain
/// answers to an empty `SWAP2BOARD`, and `yxswap2step2` as `SWAP2BOARD` with the same three
/// stones, the points in the same order (`x y` for `x,y`).
#[test]
fn swap2_steps_take_swap2boards_decisions() {
    let fresh = || {
        let mut b = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")]);
        b.send("START 15");
        b.expect("OK");
        for info in ["INFO rule 0", "INFO thread_num 1", "INFO timeout_turn 0"] {
            b.send(info);
        }
        b
    };
    let mut board = fresh();
    board.send("SWAP2BOARD");
    board.send("DONE");
    let proposal = board.recv();
    let mut steps = fresh();
    steps.send("yxswap2step1");
    let as_board: Vec<String> = replies(&mut steps, "yxswap2step1", 3)
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (x, y) = point(l, &format!("MESSAGE SWAP2 MOVE{} ", i + 1));
            format!("{x},{y}")
        })
        .collect();
    assert_eq!(as_board.join(" "), proposal);

    // Three openings whose one-ply decisions differ: two stones, one stone, a swap.
    let mut kinds = Vec::new();
    for opening in [
        [(7, 7), (8, 8), (3, 5)],
        [(7, 7), (6, 6), (11, 3)],
        [(7, 7), (8, 7), (6, 8)],
    ] {
        let mut board = fresh();
        board.send("SWAP2BOARD");
        for (x, y) in opening {
            board.send(&format!("{x},{y}"));
        }
        board.send("DONE");
        let answer = board.recv();
        let mut steps = fresh();
        yxboard(&mut steps, &opening);
        steps.send("yxswap2step2");
        let first = replies(&mut steps, "yxswap2step2", 1).remove(0);
        let (kind, translated) = match first.as_str() {
            "MESSAGE SWAP2 SWAP1 YES" => ("swap", "SWAP".to_string()),
            // Staying white: `SWAP2BOARD` names the fourth stone Yixin-Board asks by `BOARD`.
            "MESSAGE SWAP2 SWAP1 NO" => {
                assert!(!answer.contains(' ') && answer != "SWAP", "{answer}");
                ("stay white", answer.clone())
            }
            _ => {
                let fourth = point(&first, "MESSAGE SWAP2 MOVE4 ");
                let fifth = point(&steps.recv(), "MESSAGE SWAP2 MOVE5 ");
                let two = format!("{},{} {},{}", fourth.0, fourth.1, fifth.0, fifth.1);
                ("two stones", two)
            }
        };
        assert_eq!(translated, answer, "{opening:?}");
        kinds.push(kind);
    }
    assert_eq!(kinds, ["two stones", "stay white", "swap"]);
}
