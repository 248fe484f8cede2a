//! Black-box protocol tests: the built `pbrain-bango` driven through pipes and through TCP with
//! full transcripts, covering every command, the error paths, the four rules and the stop path.

use bango_testkit::brain::{board_lines, send_board, Brain, Event, Mode};
use std::time::Duration;

const BOTH: [Mode; 2] = [Mode::Pipe, Mode::Tcp];

fn about(ai: &str) -> String {
    format!(
        "name=\"pbrain-bango\", version=\"{}\", author=\"bango team\", country=\"International\", \
         www=\"\", ai=\"{ai}\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// With no `BANGO_ALGO` the brain searches (alphabeta); an unknown name falls back to it.
#[test]
fn default_algorithm_is_alphabeta_and_unknown_names_fall_back() {
    for algo in ["", "no-such-algorithm"] {
        let mut b = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", algo)]);
        b.send("ABOUT");
        b.expect(&about("alphabeta"));
        b.send("START 15");
        b.expect("OK");
        b.send("INFO show_detail 0");
        b.send("INFO timeout_turn 200");
        b.send("BEGIN");
        let mut occ = Vec::new();
        b.expect_move(15, &mut occ);
    }
}

/// Every command once, in a plausible session.
#[test]
fn every_command_transcript() {
    for mode in BOTH {
        let mut b = Brain::spawn(mode, &[]);
        b.send("ABOUT");
        b.expect(&about("random"));
        b.send("START 15");
        b.expect("OK");
        for info in [
            "INFO timeout_turn 5000",
            "INFO timeout_match 180000",
            "INFO time_left 179000",
            "INFO max_memory 367001600",
            "INFO game_type 1",
            "INFO rule 0",
            "INFO evaluate 7,7",
            "INFO folder /tmp/bango-test",
            "INFO max_depth 9",
            "INFO max_node 100000",
            "INFO thread_num 2",
            "INFO hash_size 65536",
            "INFO show_detail 0",
            "INFO caution_factor 3",
            "INFO pondering 0",
            "INFO some_future_key 12",
        ] {
            b.send(info);
        }
        // INFO is silent: the next reply is PRINT's.
        b.send("PRINT");
        b.expect("MESSAGE 15x15 freestyle, 0 stones, we play not yet known, game type 1");
        b.expect(
            "MESSAGE settings: threads=2 hash_kib=65536 max_memory=367001600 show_detail=0 \
             folder=/tmp/bango-test timeout_turn=5000 timeout_match=180000 time_left=179000 \
             max_depth=9 max_node=100000 reply_lag_ms=0",
        );
        for _ in 0..15 {
            b.expect(&format!("MESSAGE {}", vec!["."; 15].join(" ")));
        }

        let mut occ = Vec::new();
        b.send("BEGIN");
        assert_eq!(b.expect_move(15, &mut occ), (7, 7));
        b.send("TURN 7,8");
        occ.push((7, 8));
        let ours = b.expect_move(15, &mut occ);
        b.send(&format!("TAKEBACK {},{}", ours.0, ours.1));
        b.expect("OK");
        b.send("TAKEBACK 7,8");
        b.expect("OK");
        b.send("PLAY 0,0");
        b.expect("0,0");
        b.send("YXHASHCLEAR");
        b.send("YXSTOP");
        b.send("YXSHOWFORBID");
        b.expect("FORBID .");
        b.send("RESTART");
        b.expect("OK");
        // After RESTART the opponent may open: we are white.
        b.send("TURN 7,7");
        let mut occ = vec![(7, 7)];
        b.expect_move(15, &mut occ);
        b.send("PRINT");
        let header = b.recv();
        assert!(header.contains("2 stones, we play white"), "{header}");
        for _ in 0..16 {
            assert!(b.recv().starts_with("MESSAGE "));
        }

        send_board(
            &mut b,
            "BOARD",
            &["7,7,2".into(), "8,8,1".into(), "6,6,2".into()],
        );
        let mut occ = vec![(7, 7), (8, 8), (6, 6)];
        b.expect_move(15, &mut occ);
        send_board(&mut b, "YXBOARD", &["7,7,1".into()]);
        b.send("PRINT");
        let header = b.recv();
        assert!(header.contains("1 stones, we play black"), "{header}");
        for _ in 0..16 {
            b.recv();
        }

        b.send("SWAP2BOARD");
        b.send("DONE");
        b.expect("7,7 8,7 6,8");
        b.send("SWAP2BOARD");
        for m in ["7,7", "8,7", "6,8"] {
            b.send(m);
        }
        b.send("DONE");
        let mut occ = vec![(7, 7), (8, 7), (6, 8)];
        b.expect_move(15, &mut occ);
        b.send("SWAP2BOARD");
        for m in ["7,7", "8,7", "6,8", "9,9", "5,5"] {
            b.send(m);
        }
        b.send("DONE");
        let mut occ = vec![(7, 7), (8, 7), (6, 8), (9, 9), (5, 5)];
        b.expect_move(15, &mut occ);

        b.send("RECTSTART 20,20");
        b.expect("OK");
        b.send("BEGIN");
        b.expect("10,10");
        b.send("FROB 1,2");
        b.expect("UNKNOWN FROB 1,2");
        b.send("ABOUT");
        b.expect(&about("random"));
        b.send("END");
        match mode {
            Mode::Pipe => {
                b.expect_eof(Duration::from_secs(2));
                assert_eq!(b.wait_exit(Duration::from_secs(2)).code(), Some(0));
            }
            Mode::Tcp => b.expect_eof(Duration::from_secs(2)),
        }
    }
}

/// Every malformed command gets `ERROR <reason>` and the session goes on.
#[test]
fn error_paths_keep_the_session_usable() {
    for mode in BOTH {
        let mut b = Brain::spawn(mode, &[]);
        for cmd in [
            "TURN 7,7",
            "BEGIN",
            "RESTART",
            "TAKEBACK 1,1",
            "PLAY 1,1",
            "YXSHOWFORBID",
            "PRINT",
        ] {
            b.send(cmd);
            b.expect_error("START first");
        }
        send_board(&mut b, "BOARD", &["1,1,1".into()]);
        b.expect_error("START first");
        for (cmd, part) in [
            ("START 4", "unsupported board size 4"),
            ("START 33", "unsupported board size 33"),
            ("START -1", "unsupported board size -1"),
            ("START fifteen", "bad number"),
            ("START", "missing number"),
            ("START 99999999999999999999999", "bad number"),
            ("RECTSTART 15,20", "square"),
            ("RECTSTART 15", "X,Y"),
        ] {
            b.send(cmd);
            b.expect_error(part);
        }
        b.send("START 5");
        b.expect("OK");
        b.send("START 32");
        b.expect("OK");
        b.send("START 15");
        b.expect("OK");
        let mut occ = vec![(7, 7)];
        b.send("TURN 7,7");
        b.expect_move(15, &mut occ);
        for (cmd, part) in [
            ("TURN 7,7", "7,7 is occupied"),
            ("TURN 15,0", "15,0 is outside the 15x15 board"),
            ("TURN 0,15", "outside"),
            ("TURN -1,3", "outside"),
            ("TURN 3", "X,Y"),
            ("TURN 1,2,3", "X,Y"),
            ("TURN a,b", "bad number"),
            ("TURN 1,99999999999999999999", "bad number"),
            ("TURN", "X,Y"),
            ("BEGIN", "non-empty"),
            ("BEGIN please", "no arguments"),
            ("TAKEBACK 0,0", "no stone at 0,0"),
            ("TAKEBACK 20,20", "outside"),
            ("PLAY 7,7", "occupied"),
            ("DONE", "DONE without BOARD"),
        ] {
            b.send(cmd);
            b.expect_error(part);
        }
        // A bad INFO value is a MESSAGE, never an ERROR (a manager reading the next
        // non-MESSAGE line after INFO would take an ERROR for a move).
        for (cmd, reply) in [
            (
                "INFO timeout_turn soon",
                "MESSAGE INFO timeout_turn: bad number \"soon\"; ignored",
            ),
            (
                "INFO max_memory -5",
                "MESSAGE INFO max_memory -5: negative; ignored",
            ),
            ("INFO rule", "MESSAGE INFO rule: missing number; ignored"),
            ("INFO", "MESSAGE INFO: INFO needs a key; ignored"),
            ("INFO max_node -1", ""),
            ("INFO max_depth -1", ""),
        ] {
            b.send(cmd);
            if !reply.is_empty() {
                b.expect(reply);
            }
        }
        b.expect_silence(Duration::from_millis(100));
        b.send("SWAP2BOARD");
        b.send("7,7");
        b.send("8,8");
        b.send("DONE");
        b.expect_error("2 stones");
        b.send("SWAP2BOARD");
        b.send("7,7");
        b.send("7,7");
        b.send("6,6");
        b.send("DONE");
        b.expect_error("occupied");

        // A rejected BOARD leaves the previous position intact.
        send_board(
            &mut b,
            "BOARD",
            &["3,3,2".into(), "4,4,1".into(), "5,5,2".into()],
        );
        let mut occ = vec![(3, 3), (4, 4), (5, 5)];
        let ours = b.expect_move(15, &mut occ);
        for (body, part) in [
            (vec!["0,0,2", "junk line", "1,1,1"], "junk line"),
            (vec!["0,0,2", "1,1,4"], "bad field 4"),
            (vec!["0,0,2", "0,0,1"], "0,0 given twice"),
            (vec!["0,0,2", "15,1,1"], "outside"),
            (vec!["0,0,2", "1,x,1"], "bad number"),
            (vec!["0,0"], "X,Y,F"),
        ] {
            let body: Vec<String> = body.into_iter().map(String::from).collect();
            send_board(&mut b, "BOARD", &body);
            b.expect_error(part);
        }
        // Still the old position: its stones are occupied, the rejected ones are free.
        for (x, y) in [(3, 3), (4, 4), (5, 5), ours] {
            b.send(&format!("TURN {x},{y}"));
            b.expect_error("occupied");
        }
        b.send("TURN 0,0");
        occ.push((0, 0));
        b.expect_move(15, &mut occ);

        // A BOARD interrupted by another command is refused, and that command is executed.
        b.send("BOARD");
        b.send("12,12,1");
        b.send("ABOUT");
        b.expect_error("BOARD not closed by DONE");
        b.expect(&about("random"));
        b.send("TURN 12,12");
        occ.push((12, 12));
        b.expect_move(15, &mut occ);

        b.send("HELLO");
        b.expect("UNKNOWN HELLO");
        b.send("ABOUT");
        b.expect(&about("random"));
    }
}

/// Runs one BOARD position under `rule` and returns the reply.
fn answer(
    mode: Mode,
    size: usize,
    rule: u32,
    picture: &str,
    me: char,
    last: (usize, usize),
) -> String {
    let mut b = Brain::spawn(mode, &[]);
    b.send(&format!("START {size}"));
    b.expect("OK");
    b.send(&format!("INFO rule {rule}"));
    send_board(&mut b, "BOARD", &board_lines(picture, me, Some(last)));
    b.recv()
}

// Black (X, to move) has `XXX.XX` in row 1: filling the gap makes six. White has a four in row 8.
const SIX_FOR_BLACK: &str = "
    . . . . . . . . . .
    . X X X . X X . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    O O O O . . . . . .
    . . . . . . . . . O";

// White (O, to move) can complete row 0 between two black stones; black has a four in row 5.
const CLOSED_FIVE_FOR_WHITE: &str = "
    X O O O O . X . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    X X X X . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . O";

// White (O, to move) has `OOO.OO`: filling makes a white overline. Black has a four in row 8.
const SIX_FOR_WHITE: &str = "
    . . . . . . . . . .
    O O O . O O . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . X
    . . . . . . . . . .
    X X X X . . . . . .
    . . . . . . . . . X";

/// The brain takes a win exactly when the rule calls it one, and blocks otherwise.
#[test]
fn wins_and_non_wins_under_all_four_rules() {
    for mode in BOTH {
        // Freestyle: an overline wins.
        assert_eq!(answer(mode, 10, 0, SIX_FOR_BLACK, 'X', (3, 8)), "4,1");
        // Standard: the overline is no win; block white's five.
        assert_eq!(answer(mode, 10, 1, SIX_FOR_BLACK, 'X', (3, 8)), "4,8");
        // Renju: black's overline is forbidden and no win; block.
        assert_eq!(answer(mode, 10, 4, SIX_FOR_BLACK, 'X', (3, 8)), "4,8");
        // Caro: six is no win either.
        assert_eq!(answer(mode, 10, 8, SIX_FOR_BLACK, 'X', (3, 8)), "4,8");

        // Caro: a five closed at both ends does not win; block black's four instead.
        assert_eq!(
            answer(mode, 10, 8, CLOSED_FIVE_FOR_WHITE, 'O', (3, 5)),
            "4,5"
        );
        // Every other rule: that five wins.
        for rule in [0, 1, 4] {
            assert_eq!(
                answer(mode, 10, rule, CLOSED_FIVE_FOR_WHITE, 'O', (3, 5)),
                "5,0"
            );
        }

        // Renju: white's overline wins; standard: it does not.
        assert_eq!(answer(mode, 10, 4, SIX_FOR_WHITE, 'O', (3, 8)), "3,1");
        assert_eq!(answer(mode, 10, 1, SIX_FOR_WHITE, 'O', (3, 8)), "4,8");
        // A lone `rule 2` (Yixin's renju) is renju.
        assert_eq!(answer(mode, 10, 2, SIX_FOR_WHITE, 'O', (3, 8)), "3,1");
    }
}

/// The brain plays the winning TURN reply in a live game and refuses an occupied TURN.
#[test]
fn takes_the_win_in_a_game_and_refuses_occupied_turns() {
    let mut b = Brain::spawn(Mode::Pipe, &[]);
    b.send("START 15");
    b.expect("OK");
    b.send("INFO rule 1");
    // We are white; black plays far away each time, we build a line next to our own stones.
    send_board(
        &mut b,
        "BOARD",
        &board_lines(
            "
            X . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            X . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            X . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . O O O O . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            X . . . . . . . . . . . . . X",
            'O',
            Some((14, 14)),
        ),
    );
    let win = b.recv();
    assert!(win == "3,7" || win == "8,7", "{win}\n{}", b.dump());
    b.send(&format!("TURN {win}"));
    b.expect_error("occupied");
}

/// YXSHOWFORBID lists black's forbidden points as two-digit x then y, in row order.
#[test]
fn show_forbid_on_known_renju_positions() {
    for mode in BOTH {
        let mut b = Brain::spawn(mode, &[]);
        b.send("START 10");
        b.expect("OK");
        b.send("INFO rule 4");
        // 3,3 makes two open threes (row 3 and column 3).
        let pic = "
            . . . . . . . . . .
            . . . X . . . . . .
            . . . X . . . . . .
            . X X . . . . . . .
            . . . . O . . . . .
            . . . . . . . . . .
            . . . . . . . . . O
            . . . . . . . . . O
            . . . . . . . . . .
            O . . . . . . . . .";
        send_board(&mut b, "YXBOARD", &board_lines(pic, 'X', None));
        b.send("YXSHOWFORBID");
        b.expect("FORBID 0303.");
        // The same position seen from white: still black's forbidden points.
        send_board(&mut b, "YXBOARD", &board_lines(pic, 'O', None));
        b.send("YXSHOWFORBID");
        b.expect("FORBID 0303.");
        // Not renju: nothing is forbidden.
        b.send("INFO rule 0");
        b.send("YXSHOWFORBID");
        b.expect("FORBID .");

        // A shared test-set position with several forbidden points (double four, double three
        // and a false three among them).
        let path = bango_testkit::data_dir().join("puzzles-forbidden.txt");
        let text = std::fs::read_to_string(&path).expect("shared data");
        let puzzles = bango::game::notation::parse_puzzles(&text).unwrap();
        let p = puzzles
            .iter()
            .filter(|p| p.answers.len() >= 3)
            .max_by_key(|p| p.answers.len())
            .expect("a puzzle with answers");
        let board = p.board().unwrap();
        b.send(&format!("START {}", board.size()));
        b.expect("OK");
        b.send("INFO rule 4");
        let mut body = Vec::new();
        for (pos, colour) in board.history() {
            // Black listed first so that the first stone is black's.
            let field = if *colour == bango::game::board::Color::Black {
                1
            } else {
                2
            };
            body.push((field, format!("{},{},{field}", pos.x(), pos.y())));
        }
        body.sort_by_key(|(f, _)| *f);
        let body: Vec<String> = body.into_iter().map(|(_, l)| l).collect();
        send_board(&mut b, "YXBOARD", &body);
        b.send("YXSHOWFORBID");
        let mut want = p.answers.clone();
        want.sort_by_key(|q| (q.y(), q.x()));
        let want: String = want
            .iter()
            .map(|q| format!("{:02}{:02}", q.x(), q.y()))
            .collect();
        b.expect(&format!("FORBID {want}."));
    }
}

/// The renju brain never answers on a forbidden point even when it is the obvious move.
#[test]
fn renju_black_avoids_forbidden_points_through_the_protocol() {
    // Black to move; 3,3 is forbidden and it is also the only point that would make a four-three.
    let pic = "
        . . . . . . . . . .
        . . . X . . . . . .
        . . . X . . . . . .
        . X X . . . . . . .
        . . . . O . . . . .
        . . . . . . . . . .
        . . . . . . . . . O
        . . . . . . . . . O
        . . . . . . . . . .
        O . . . . . . . . .";
    for seed in 0..12 {
        let seed = seed.to_string();
        let mut b = Brain::spawn(Mode::Pipe, &[("BANGO_SEED", seed.as_str())]);
        b.send("START 10");
        b.expect("OK");
        b.send("INFO rule 4");
        send_board(&mut b, "BOARD", &board_lines(pic, 'X', Some((4, 4))));
        let m = b.recv();
        assert_ne!(m, "3,3", "seed {seed}");
    }
}

/// The stop path, driven with the `idle` diagnostic algorithm (a test hook of the
/// `experiments` feature): it thinks until stopped, so only the stop can end its move.
#[cfg(feature = "experiments")]
mod stop_path {
    use super::*;
    use std::time::Instant;

    fn start_idle(mode: Mode) -> Brain {
        let mut b = Brain::spawn(mode, &[("BANGO_ALGO", "idle")]);
        b.send("ABOUT");
        b.expect(&about("idle"));
        b.send("START 15");
        b.expect("OK");
        b
    }

    /// Waits for the stop reply, skipping the idle algorithm's MESSAGE line; returns the move and
    /// the time since `t0`.
    fn move_after(b: &mut Brain, t0: Instant, occ: &mut Vec<(usize, usize)>) -> Duration {
        let m = b.expect_move(15, occ);
        let _ = m;
        t0.elapsed()
    }

    /// YXSTOP and `INFO timeout_turn 0` sent mid-think are answered with a legal move within 100 ms
    /// (measured from the moment the stop was sent).
    #[test]
    fn stop_requests_are_answered_promptly() {
        for mode in BOTH {
            let mut b = start_idle(mode);
            let mut occ = Vec::new();
            b.send("INFO timeout_turn 60000");
            b.send("INFO show_detail 0");
            b.send("BEGIN");
            b.expect_silence(Duration::from_millis(300));
            let t0 = Instant::now();
            b.send("YXSTOP");
            let dt = move_after(&mut b, t0, &mut occ);
            eprintln!("{mode:?}: YXSTOP answered after {dt:?}");
            assert!(
                dt < Duration::from_millis(100),
                "YXSTOP answered after {dt:?}"
            );
            assert_eq!(occ, vec![(7, 7)]);

            b.send("TURN 7,8");
            occ.push((7, 8));
            b.expect_silence(Duration::from_millis(300));
            let t0 = Instant::now();
            b.send("INFO timeout_turn 0");
            let dt = move_after(&mut b, t0, &mut occ);
            eprintln!("{mode:?}: timeout_turn 0 answered after {dt:?}");
            assert!(
                dt < Duration::from_millis(100),
                "timeout_turn 0 answered after {dt:?}"
            );

            // A stop sent while idle must not cut the next move short.
            b.send("INFO timeout_turn 60000");
            b.send("YXSTOP");
            b.send("TURN 0,0");
            occ.push((0, 0));
            b.expect_silence(Duration::from_millis(300));
            // A stop right behind the move request (possibly before the thinker starts) works.
            b.send("YXSTOP");
            let t0 = Instant::now();
            move_after(&mut b, t0, &mut occ);
            let t0 = Instant::now();
            b.send_raw(b"TURN 14,14\r\nYXSTOP\r\n");
            occ.push((14, 14));
            let dt = move_after(&mut b, t0, &mut occ);
            eprintln!("{mode:?}: stop behind TURN answered after {dt:?}");
            assert!(
                dt < Duration::from_millis(100),
                "stop behind TURN answered after {dt:?}"
            );

            // show_detail on: the algorithm's output arrives as MESSAGE.
            b.send("INFO show_detail 1");
            b.send("TURN 0,14");
            occ.push((0, 14));
            b.expect("MESSAGE idle: waiting for stop");
            b.send("YXSTOP");
            b.expect_move(15, &mut occ);

            // The deadline alone also ends the think.
            b.send("INFO show_detail 0");
            b.send("INFO timeout_turn 200");
            let t0 = Instant::now();
            b.send("TURN 14,0");
            occ.push((14, 0));
            b.expect_move(15, &mut occ);
            assert!(t0.elapsed() >= Duration::from_millis(190));
        }
    }

    /// END during a think: the process exits promptly with status 0.
    #[test]
    fn end_while_thinking_exits_promptly() {
        let mut b = start_idle(Mode::Pipe);
        b.send("INFO show_detail 0");
        b.send("BEGIN");
        b.expect_silence(Duration::from_millis(200));
        let t0 = Instant::now();
        b.send("END");
        let status = b.wait_exit(Duration::from_secs(2));
        assert_eq!(status.code(), Some(0));
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    }
}

/// Line endings, case, huge lines and EOF inside a BOARD.
#[test]
fn reader_handles_line_endings_case_and_huge_lines() {
    for mode in BOTH {
        let mut b = Brain::spawn(mode, &[]);
        b.send_raw(b"start 15\rInfo RULE 4\nbegin\r\ntUrN 7,8\n\rAbOuT\r");
        b.expect("OK");
        b.expect("7,7");
        let mut occ = vec![(7, 7), (7, 8)];
        b.expect_move(15, &mut occ);
        b.expect(&about("random"));
        b.send("yxshowforbid");
        let f = b.recv();
        assert!(f.starts_with("FORBID ") && f.ends_with('.'), "{f}");
        b.send("print");
        assert!(b.recv().contains("renju"));
        for _ in 0..16 {
            b.recv();
        }
        // Lower-case BOARD body terminator and mixed endings inside it.
        b.send_raw(b"board\r\n1,1,2\n2,2,1\r3,3,2\r\ndone\r\n");
        let mut occ = vec![(1, 1), (2, 2), (3, 3)];
        b.expect_move(15, &mut occ);

        // Megabytes on one line: refused, then the session goes on.
        let mut huge = vec![b'A'; 3 << 20];
        huge.extend_from_slice(b"\r\nABOUT\r\n");
        b.send_raw(&huge);
        b.expect_error("line too long");
        b.expect(&about("random"));
        // Inside a BOARD body the huge line spoils the body.
        let mut huge = b"BOARD\r\n1,1,1\r\n".to_vec();
        huge.extend(vec![b'7'; 1 << 20]);
        huge.extend_from_slice(b"\r\nDONE\r\nABOUT\r\n");
        b.send_raw(&huge);
        b.expect_error("too long");
        b.expect(&about("random"));
    }
}

/// End of input in the middle of a BOARD: an error for the unfinished body, then exit 0.
#[test]
fn eof_inside_board_exits_cleanly() {
    let mut b = Brain::spawn(Mode::Pipe, &[]);
    b.send("START 15");
    b.expect("OK");
    b.send("BOARD");
    b.send("7,7,1");
    b.close_input();
    b.expect_error("BOARD not closed by DONE");
    b.expect_eof(Duration::from_secs(2));
    assert_eq!(b.wait_exit(Duration::from_secs(2)).code(), Some(0));

    // Plain EOF after a move request: the move is still answered, then exit 0.
    let mut b = Brain::spawn(Mode::Pipe, &[]);
    b.send_raw(b"START 15\nBEGIN\n");
    b.close_input();
    b.expect("OK");
    b.expect("7,7");
    b.expect_eof(Duration::from_secs(2));
    assert_eq!(b.wait_exit(Duration::from_secs(2)).code(), Some(0));
}

/// `BANGO_SMP` sets the worker count; a later `INFO thread_num` wins.
#[test]
fn threads_from_env_then_info() {
    let mut b = Brain::spawn(Mode::Pipe, &[("BANGO_SMP", "3")]);
    b.send("START 7");
    b.expect("OK");
    b.send("PRINT");
    b.recv();
    assert!(b.recv().contains("threads=3 "));
    for _ in 0..7 {
        b.recv();
    }
    b.send("INFO thread_num 1");
    b.send("PRINT");
    b.recv();
    assert!(b.recv().contains("threads=1 "));
}

/// TCP: one client at a time; END or disconnect resets and serves the next client.
#[test]
fn tcp_serves_clients_one_after_another() {
    let mut b = Brain::spawn(Mode::Tcp, &[]);
    assert!(
        b.addr.as_deref().unwrap().starts_with("127.0.0.1:"),
        "loopback by default"
    );
    b.send("START 15");
    b.expect("OK");
    b.send("BEGIN");
    b.expect("7,7");

    // A second client queues while the first is served.
    let addr = b.addr.clone().unwrap();
    let mut second = std::net::TcpStream::connect(&addr).unwrap();
    second
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    use std::io::{Read, Write};
    second.write_all(b"ABOUT\r\n").unwrap();
    let mut buf = [0u8; 256];
    assert!(
        second.read(&mut buf).is_err(),
        "second client served too early"
    );

    // END closes the first connection; the queued client is served with a fresh session.
    b.send("END");
    b.expect_eof(Duration::from_secs(2));
    second
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut got = Vec::new();
    while !got.ends_with(b"\r\n") {
        let n = second.read(&mut buf).expect("reply to the queued client");
        assert!(n > 0, "connection closed");
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(
        String::from_utf8_lossy(&got),
        format!("{}\r\n", about("random"))
    );
    second.write_all(b"TURN 7,7\r\n").unwrap();
    let n = second.read(&mut buf).unwrap();
    assert!(
        String::from_utf8_lossy(&buf[..n]).starts_with("ERROR no game"),
        "the board was not reset: {:?}",
        String::from_utf8_lossy(&buf[..n])
    );
    // Disconnecting without END also frees the server.
    drop(second);
    b.connect();
    b.send("START 15");
    b.expect("OK");
    b.send("TURN 7,7");
    let mut occ = vec![(7, 7)];
    b.expect_move(15, &mut occ);
    // Half-close: the session sees end of input, answers what it has, and closes.
    b.send("TURN 0,0");
    b.close_input();
    occ.push((0, 0));
    b.expect_move(15, &mut occ);
    b.expect_eof(Duration::from_secs(2));
    b.connect();
    b.send("ABOUT");
    b.expect(&about("random"));
    match b.next_event(Duration::from_millis(10)) {
        None => {}
        Some(Event::Line(l)) => panic!("unexpected {l}"),
        Some(_) => panic!("unexpected end"),
    }
}
