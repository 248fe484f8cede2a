//! The analysis GUIs' session (Yixin-Board, Gomoku Calculator), black box: their opening of a
//! session, live board markers and the info block under each `show_detail` level, multi-PV,
//! defence search, balance, blocked moves, pondering, and the deterministic mode's identical
//! output.

use bango_testkit::brain::{board_lines, parse_move, send_board, Brain, Mode};
use std::time::Duration;

/// The searching brain (the default algorithm), one worker.
fn searcher() -> Brain {
    Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")])
}

/// Lines up to the next reply (a line that is not `MESSAGE`, `INFO` or `DEBUG`): the output
/// before it, and the reply.
fn until_reply(b: &mut Brain) -> (Vec<String>, String) {
    let mut output = Vec::new();
    loop {
        let line = b.recv();
        let chatter = ["MESSAGE", "INFO", "DEBUG"]
            .iter()
            .any(|w| line.starts_with(&format!("{w} ")));
        if !chatter {
            return (output, line);
        }
        output.push(line);
    }
}

/// A quiet middle game, white (O) to move.
const MIDDLE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . . O X O . . . . . . .
    . . . . . . X O . . . . . . .
    . . . . . X O . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

/// Sets up a 15x15 freestyle game, one worker, `max_depth`, `show_detail`.
fn setup(b: &mut Brain, max_depth: u32, show_detail: u8) {
    b.send("START 15");
    b.expect("OK");
    for info in [
        "INFO rule 0".to_string(),
        "INFO thread_num 1".to_string(),
        "INFO timeout_turn 30000".to_string(),
        format!("INFO max_depth {max_depth}"),
        format!("INFO show_detail {show_detail}"),
    ] {
        b.send(&info);
    }
}

/// `(i) score | depth-seldepth | line` lines of the iteration at `depth`.
fn nbest_lines(output: &[String], depth: u32) -> Vec<(usize, String, Vec<String>)> {
    output
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("MESSAGE (")?;
            let (i, rest) = rest.split_once(") ")?;
            let fields: Vec<&str> = rest.split(" | ").collect();
            let [score, depths, line] = fields[..] else {
                return None;
            };
            let d: u32 = depths.split('-').next()?.parse().ok()?;
            let i: usize = i.parse().ok()?;
            (d == depth).then(|| {
                (
                    i,
                    score.to_string(),
                    line.split(' ').map(str::to_string).collect(),
                )
            })
        })
        .collect()
}

fn numeric(score: &str) -> i64 {
    // Proven scores order as far beyond any evaluation.
    if let Some(n) = score.strip_prefix("win ") {
        return 10_000_000 - n.parse::<i64>().unwrap();
    }
    if let Some(n) = score.strip_prefix("loss ") {
        return -10_000_000 + n.parse::<i64>().unwrap();
    }
    score.parse().unwrap()
}

/// Yixin-Board's opening of a session, command by command: `start 15 15`, its INFO lines,
/// `yxboard` … `done`, `yxnbest 3`, `yxstop`.
#[test]
fn yixin_board_session_transcript() {
    let mut b = searcher();
    b.send("start 15 15");
    b.expect("OK");
    b.send("start 15 20");
    b.expect_error("only square boards");
    for info in [
        "INFO timeout_match 300000",
        "INFO timeout_turn 10000",
        "INFO time_left 300000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO thread_num 1",
        "INFO caution_factor 4",
        "INFO pondering 0",
        "INFO max_depth 6",
        "INFO show_detail 3",
    ] {
        b.send(info);
    }
    b.send("yxboard");
    for l in ["7,7,2", "8,8,1", "7,8,2"] {
        b.send(l);
    }
    b.send("done");
    b.expect_silence(Duration::from_millis(300));
    b.send("yxnbest 3");
    let (output, reply) = until_reply(&mut b);
    let lines = nbest_lines(&output, 6);
    assert_eq!(
        lines.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3],
        "{output:#?}"
    );
    let scores: Vec<i64> = lines.iter().map(|l| numeric(&l.1)).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let firsts: Vec<&String> = lines.iter().map(|l| &l.2[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    for f in &firsts {
        assert!(
            !["7,7", "8,8", "7,8"].contains(&f.as_str()),
            "{f} is occupied"
        );
    }
    assert_eq!(&reply, firsts[0], "the answer is the first line's move");
    // The info block of the last iteration: three variations.
    let numpv = output.iter().filter(|l| *l == "INFO NUMPV 3").count();
    assert!(numpv >= 3, "{output:#?}");
    assert!(output.iter().any(|l| l == "INFO PV 3"));
    assert!(output.iter().any(|l| l == "INFO PV DONE"));
    // Idle: YXSTOP says nothing; the move was played like TURN's.
    b.send("yxstop");
    b.expect_silence(Duration::from_millis(200));
    b.send("PRINT");
    let header = b.recv();
    assert!(header.contains("4 stones, we play white"), "{header}");
}

/// Markers and the info block each come under their own `show_detail` level, markers only from
/// depth 8; in the deterministic mode the whole output repeats exactly.
#[test]
fn show_detail_levels_and_live_markers() {
    let run = |level: u8| {
        let mut b = searcher();
        setup(&mut b, 9, level);
        send_board(&mut b, "BOARD", &board_lines(MIDDLE, 'O', Some((6, 8))));
        until_reply(&mut b)
    };
    let (quiet, mv0) = run(0);
    assert!(quiet.is_empty(), "{quiet:#?}");
    let (markers, mv1) = run(1);
    let (info, mv2) = run(2);
    let (all, mv3) = run(3);
    assert!(
        mv0 == mv1 && mv1 == mv2 && mv2 == mv3,
        "one deterministic move"
    );
    let has = |out: &[String], prefix: &str| out.iter().any(|l| l.starts_with(prefix));
    for kind in ["POS", "DONE", "BEST"] {
        assert!(
            has(&markers, &format!("MESSAGE REALTIME {kind} ")),
            "{kind}"
        );
    }
    assert!(!has(&markers, "INFO "));
    assert!(!has(&info, "MESSAGE REALTIME"));
    assert!(has(&info, "INFO PV 1") && has(&info, "INFO WINRATE 0."));
    // Markers start with depth 8: nothing before the depth 7 line, something after it.
    let depth7 = markers
        .iter()
        .position(|l| l.starts_with("MESSAGE depth 7 "))
        .expect("a depth 7 line");
    assert!(!has(&markers[..depth7], "MESSAGE REALTIME"));
    // Each completed iteration from 8 on: REFRESH, then the iteration's best.
    let refresh: Vec<usize> = (0..markers.len())
        .filter(|&i| markers[i] == "MESSAGE REALTIME REFRESH")
        .collect();
    assert_eq!(refresh.len(), 2, "depths 8 and 9: {markers:#?}");
    let last = &markers[refresh[1] + 1];
    assert_eq!(last, &format!("MESSAGE REALTIME BEST {mv1}"));
    // Deterministic mode: one worker and a depth cap print the same lines every run.
    let (again, mv) = run(3);
    assert_eq!((all, mv3), (again, mv));
}

/// Opponent (O) open three in the middle of an empty row: only the two cells next to it hold
/// (a far block lets O make an open four from the other side). The brain plays X.
const OPEN_THREE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . X . . . . . . . . . X . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . O O O . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

/// `YXSEARCHDEFEND` finds exactly the two holding moves and marks every other candidate lost;
/// it plays nothing.
#[test]
fn search_defend_finds_the_two_holding_moves() {
    let mut b = searcher();
    setup(&mut b, 6, 0);
    send_board(
        &mut b,
        "YXBOARD",
        &board_lines(OPEN_THREE, 'X', Some((8, 7))),
    );
    b.send("YXSEARCHDEFEND");
    let (output, reply) = until_reply(&mut b);
    let mut held: Vec<(usize, usize)> = reply.split(' ').filter_map(parse_move).collect();
    held.sort_unstable();
    assert_eq!(held, [(5, 7), (9, 7)], "{output:#?}");
    let lost: Vec<&String> = output
        .iter()
        .filter(|l| l.starts_with("MESSAGE REALTIME LOST "))
        .collect();
    assert!(
        lost.len() >= 10,
        "every other candidate is lost: {output:#?}"
    );
    assert!(!lost
        .iter()
        .any(|l| l.ends_with(" 5,7") || l.ends_with(" 9,7")));
    assert!(output
        .iter()
        .any(|l| l == &format!("MESSAGE DEFEND 2 of {} moves hold", lost.len() + 2)));
    b.send("PRINT");
    let header = b.recv();
    assert!(header.contains(", 6 stones,"), "nothing played: {header}");
}

/// Blocked moves leave the root until reset; a new game forgets them.
#[test]
fn blocked_moves_are_never_answered() {
    let mut b = searcher();
    setup(&mut b, 4, 0);
    send_board(
        &mut b,
        "YXBOARD",
        &board_lines(OPEN_THREE, 'X', Some((8, 7))),
    );
    b.send("YXBLOCK");
    b.send("5,7");
    b.send("DONE");
    b.send("YXNBEST 1");
    let (_, first) = until_reply(&mut b);
    assert_eq!(first, "9,7", "the only other defence");
    b.send("TAKEBACK 9,7");
    b.expect("OK");
    b.send("YXBLOCK");
    b.send("9,7");
    b.send("DONE");
    b.send("YXSEARCHDEFEND");
    let (_, reply) = until_reply(&mut b);
    assert_eq!(reply, "NONE", "both defences blocked");
    b.send("YXBLOCKUNDO");
    b.send("YXSEARCHDEFEND");
    assert_eq!(until_reply(&mut b).1, "9,7");
    b.send("YXBLOCKRESET");
    b.send("YXSEARCHDEFEND");
    assert_eq!(until_reply(&mut b).1.split(' ').count(), 2);
    // Bad bodies change nothing.
    b.send("YXBLOCK");
    b.send("99,99");
    b.send("DONE");
    b.expect_error("nothing blocked");
    b.send("YXSEARCHDEFEND");
    assert_eq!(until_reply(&mut b).1.split(' ').count(), 2);
}

/// `YXBALANCEONE b` answers the candidate whose score is nearest `b`: with a huge bias that is
/// the best move (the first line of a search over every candidate), with a hugely negative one
/// a move that is not; `YXBALANCETWO` answers two distinct stones; neither plays anything.
#[test]
fn balance_answers_the_stones_nearest_the_bias() {
    let position = |b: &mut Brain| {
        setup(b, 4, 0);
        send_board(b, "YXBOARD", &board_lines(MIDDLE, 'O', Some((6, 8))));
    };
    let mut nbest = searcher();
    position(&mut nbest);
    nbest.send("YXNBEST 500");
    let (_, best) = until_reply(&mut nbest);
    let mut b = searcher();
    position(&mut b);
    b.send("YXBALANCEONE 900000");
    assert_eq!(until_reply(&mut b).1, best);
    let mut b = searcher();
    position(&mut b);
    b.send("YXBALANCEONE -900000");
    let (_, worst) = until_reply(&mut b);
    assert!(
        parse_move(&worst).is_some() && worst != best,
        "{worst} vs {best}"
    );
    b.send("YXBALANCETWO 0");
    let (_, two) = until_reply(&mut b);
    let stones: Vec<(usize, usize)> = two.split(' ').filter_map(parse_move).collect();
    assert_eq!(stones.len(), 2, "{two}");
    assert_ne!(stones[0], stones[1]);
    b.send("PRINT");
    assert!(b.recv().contains(", 8 stones,"), "nothing played");
    // The rest of PRINT's MESSAGE lines, then the refusal.
    b.send("YXBALANCEONE nothing");
    let (_, refusal) = until_reply(&mut b);
    assert!(
        refusal.starts_with("ERROR ") && refusal.contains("YXBALANCEONE"),
        "{refusal}"
    );
}

/// `STOP` is `YXSTOP`: a long think answers at once.
#[test]
fn stop_ends_a_think_like_yxstop() {
    let mut b = searcher();
    b.send("START 15");
    b.expect("OK");
    b.send("INFO show_detail 0");
    b.send("INFO timeout_turn 60000");
    b.send("INFO timeout_match 600000");
    send_board(&mut b, "YXBOARD", &board_lines(MIDDLE, 'O', Some((6, 8))));
    let started = std::time::Instant::now();
    b.send("YXNBEST 2");
    std::thread::sleep(Duration::from_millis(300));
    b.send("STOP");
    let (_, reply) = until_reply(&mut b);
    assert!(parse_move(&reply).is_some(), "{reply}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Pondering: the brain thinks after its move until the next command, prints nothing while it
/// does, and the next command is acted on at once.
#[test]
fn pondering_is_silent_and_yields_to_the_next_command() {
    let mut b = searcher();
    b.send("START 15");
    b.expect("OK");
    for info in [
        "INFO pondering 1",
        "INFO timeout_turn 300",
        "INFO show_detail 3",
    ] {
        b.send(info);
    }
    b.send("BEGIN");
    let (_, first) = until_reply(&mut b);
    assert_eq!(first, "7,7");
    // The ponder runs now, unlimited: nothing may come out.
    b.expect_silence(Duration::from_millis(500));
    let asked = std::time::Instant::now();
    b.send("ABOUT");
    let about = b.recv();
    assert!(about.starts_with("name=\"pbrain-bango\""), "{about}");
    assert!(
        asked.elapsed() < Duration::from_millis(200),
        "{:?}",
        asked.elapsed()
    );
    // A move after pondering keeps its clock.
    b.send("TURN 8,8");
    let asked = std::time::Instant::now();
    let (_, reply) = until_reply(&mut b);
    assert!(parse_move(&reply).is_some());
    // 300 ms from when the brain read it; the pipe and the test's own scheduling get a margin.
    assert!(
        asked.elapsed() < Duration::from_millis(450),
        "{:?}",
        asked.elapsed()
    );
    b.send("END");
    b.expect_eof(Duration::from_secs(2));
}
