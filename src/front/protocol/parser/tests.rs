//! The parser's tests: every command word, bodies, malformed lines and limits.

use super::super::command::Info;
use super::*;

fn c(x: i64, y: i64) -> Coord {
    Coord { x, y }
}

fn one(line: &str) -> Command {
    let mut p = Parser::new();
    let mut v = p.feed(line);
    assert_eq!(v.len(), 1, "{line:?} gave {v:?}");
    assert!(!p.in_body());
    v.pop().unwrap()
}

#[test]
fn single_line_commands_any_case() {
    assert_eq!(one("START 15"), Command::Start(15));
    assert_eq!(one("start 20"), Command::Start(20));
    assert_eq!(one("  Start   7  "), Command::Start(7));
    assert_eq!(one("RECTSTART 20,20"), Command::RectStart(20, 20));
    assert_eq!(one("begin"), Command::Begin);
    assert_eq!(one("TURN 10, 3"), Command::Turn(c(10, 3)));
    assert_eq!(one("turn -1,3"), Command::Turn(c(-1, 3)));
    assert_eq!(one("TAKEBACK 1,2"), Command::Takeback(c(1, 2)));
    assert_eq!(one("Play 0,0"), Command::Play(c(0, 0)));
    assert_eq!(one("END"), Command::End);
    assert_eq!(one("about"), Command::About);
    assert_eq!(one("RESTART"), Command::Restart);
    assert_eq!(one("yxstop"), Command::YxStop);
    assert_eq!(one("YXSHOWFORBID"), Command::YxShowForbid);
    assert_eq!(one("YXHASHCLEAR"), Command::YxHashClear);
    assert_eq!(one("PRINT"), Command::Print);
    assert_eq!(one("FOO bar"), Command::Unknown("FOO bar".into()));
}

#[test]
fn analysis_commands() {
    // Yixin-Board opens with the size twice.
    assert_eq!(one("start 15 15"), Command::RectStart(15, 15));
    assert_eq!(one("START 15 20"), Command::RectStart(15, 20));
    assert!(matches!(one("START 15 x"), Command::Error(e) if e.contains("bad number")));
    assert_eq!(one("stop"), Command::YxStop);
    assert_eq!(one("YXNBEST 3"), Command::YxNbest(3));
    assert!(matches!(one("YXNBEST 0"), Command::Error(_)));
    assert!(matches!(one("YXNBEST"), Command::Error(_)));
    assert_eq!(one("yxsearchdefend"), Command::YxSearchDefend);
    assert_eq!(
        one("YXBALANCEONE 200"),
        Command::YxBalance {
            stones: 1,
            bias: 200
        }
    );
    assert_eq!(
        one("yxbalancetwo"),
        Command::YxBalance { stones: 2, bias: 0 }
    );
    assert!(matches!(one("YXBALANCETWO even"), Command::Error(_)));
    assert_eq!(one("YXBLOCKUNDO"), Command::YxBlockUndo);
    assert_eq!(one("yxblockreset"), Command::YxBlockReset);
    for c in [
        Command::YxNbest(2),
        Command::YxSearchDefend,
        Command::YxBalance { stones: 1, bias: 0 },
    ] {
        assert!(c.wants_move(), "{c:?}");
    }
    assert!(!Command::YxBlock(vec![]).wants_move());
}

#[test]
fn block_body_collected_until_done() {
    let mut p = Parser::new();
    assert!(p.feed("YXBLOCK").is_empty());
    assert!(p.feed("7,7").is_empty());
    assert!(p.feed(" 8 , 9 ").is_empty());
    assert_eq!(
        p.feed("DONE"),
        vec![Command::YxBlock(vec![c(7, 7), c(8, 9)])]
    );
    p.feed("YXBLOCK");
    p.feed("7,7,1");
    assert!(matches!(&p.feed("done")[0], Command::Error(e) if e.contains("nothing blocked")));
    p.feed("yxblock");
    let v = p.feed("YXNBEST 2");
    assert!(matches!(&v[0], Command::Error(e) if e.contains("YXBLOCK not closed")));
    assert_eq!(v[1], Command::YxNbest(2));
}

#[test]
fn info_keys() {
    let i = |l: &str| match one(l) {
        Command::Info(i) => i,
        other => panic!("{l}: {other:?}"),
    };
    assert_eq!(i("INFO timeout_turn 5000"), Info::TimeoutTurn(5000));
    assert_eq!(i("info TIMEOUT_MATCH 0"), Info::TimeoutMatch(0));
    assert_eq!(i("INFO time_left -20"), Info::TimeLeft(-20));
    assert_eq!(i("INFO max_memory 367001600"), Info::MaxMemory(367001600));
    assert_eq!(i("INFO game_type 1"), Info::GameType(1));
    assert_eq!(i("INFO rule 4"), Info::Rule(4));
    assert_eq!(i("INFO evaluate 3,4"), Info::Evaluate(c(3, 4)));
    assert_eq!(
        i("INFO folder C:\\My Games\\x"),
        Info::Folder("C:\\My Games\\x".into())
    );
    assert_eq!(i("INFO max_depth 9"), Info::MaxDepth(9));
    assert_eq!(i("INFO max_node 100000"), Info::MaxNode(100000));
    assert_eq!(i("INFO thread_num 2"), Info::ThreadNum(2));
    assert_eq!(i("INFO hash_size 65536"), Info::HashSize(65536));
    assert_eq!(i("INFO show_detail 0"), Info::ShowDetail(0));
    assert_eq!(i("INFO show_detail 3"), Info::ShowDetail(3));
    assert_eq!(i("INFO pondering 1"), Info::Pondering(true));
    assert_eq!(i("INFO pondering 0"), Info::Pondering(false));
    assert_eq!(i("INFO pondering on"), Info::Pondering(true));
    assert_eq!(i("INFO pondering OFF"), Info::Pondering(false));
    assert!(matches!(i("INFO pondering maybe"), Info::Invalid { .. }));
    assert_eq!(
        i("INFO caution_factor 2"),
        Info::Ignored("caution_factor".into())
    );
}

#[test]
fn malformed_single_lines_are_errors() {
    for line in [
        "START",
        "START x",
        "START 99999999999999999999",
        "TURN 3",
        "TURN 3,4,5",
        "TURN a,b",
        "TURN",
        "BEGIN now",
        "RECTSTART 10",
        "DONE",
    ] {
        assert!(
            matches!(one(line), Command::Error(_)),
            "{line:?} gave {:?}",
            one(line)
        );
    }
}

/// A bad `INFO` value is never an `ERROR` (a manager reading the next non-`MESSAGE` line
/// would take it for a move): the key comes back as `Invalid`, or with its number as sent.
#[test]
fn info_values_as_sent_and_invalid_ones_kept_apart() {
    let i = |l: &str| match one(l) {
        Command::Info(i) => i,
        other => panic!("{l}: {other:?}"),
    };
    assert_eq!(i("INFO max_node -1"), Info::MaxNode(-1));
    assert_eq!(i("INFO max_depth -3"), Info::MaxDepth(-3));
    assert_eq!(i("INFO max_memory -5"), Info::MaxMemory(-5));
    assert_eq!(
        i("INFO thread_num 18446744073709551615"),
        Info::ThreadNum(i64::MAX)
    );
    assert_eq!(
        i("INFO hash_size -99999999999999999999999"),
        Info::HashSize(i64::MIN)
    );
    assert_eq!(i("INFO timeout_turn +20"), Info::TimeoutTurn(20));
    for (line, key) in [
        ("INFO timeout_turn fast", "timeout_turn"),
        ("INFO time_left", "time_left"),
        ("INFO", ""),
        ("INFO evaluate 1", "evaluate"),
        ("INFO rule 1.5", "rule"),
        ("INFO hash_size 1e9", "hash_size"),
        ("INFO thread_num -", "thread_num"),
        ("INFO folder", "folder"),
    ] {
        assert!(
            matches!(i(line), Info::Invalid { key: k, .. } if k == key),
            "{line:?} gave {:?}",
            i(line)
        );
    }
}

#[test]
fn board_body_collected_until_done() {
    let mut p = Parser::new();
    assert!(p.feed("BOARD").is_empty());
    assert!(p.in_body());
    assert!(p.feed("7,7,1").is_empty());
    assert!(p.feed(" 8, 8 ,2 ").is_empty());
    assert!(p.feed("").is_empty());
    assert!(p.feed("9,9,3").is_empty());
    let v = p.feed("done");
    assert_eq!(
        v,
        vec![Command::Board(
            BoardKind::Board,
            vec![
                (c(7, 7), Owner::Own),
                (c(8, 8), Owner::Opponent),
                (c(9, 9), Owner::Marker)
            ]
        )]
    );
    assert!(!p.in_body());
    assert!(p.feed("yxboard").is_empty());
    assert_eq!(
        p.feed("DONE"),
        vec![Command::Board(BoardKind::YxBoard, vec![])]
    );
}

#[test]
fn garbage_in_a_body_spoils_the_whole_command() {
    let mut p = Parser::new();
    p.feed("BOARD");
    p.feed("7,7,1");
    p.feed("what is this");
    p.feed("8,8,4");
    let v = p.feed("DONE");
    assert_eq!(v.len(), 1);
    let Command::Error(e) = &v[0] else {
        panic!("{v:?}")
    };
    assert!(e.contains("what is this"), "{e}");
    assert!(!p.in_body());
}

#[test]
fn a_command_interrupts_an_unfinished_body() {
    let mut p = Parser::new();
    p.feed("BOARD");
    p.feed("7,7,1");
    let v = p.feed("END");
    assert!(matches!(&v[0], Command::Error(e) if e.contains("not closed by DONE")));
    assert_eq!(v[1], Command::End);
    p.feed("SWAP2BOARD");
    assert!(matches!(&p.finish(), Some(Command::Error(e)) if e.starts_with("SWAP2BOARD")));
    assert_eq!(p.finish(), None);
}

#[test]
fn an_endless_body_is_bounded_and_refused() {
    let mut p = Parser::new();
    p.feed("BOARD");
    for i in 0..MAX_BODY_LINES + 500 {
        assert!(p.feed(&format!("{},{},1", i % 32, i / 32)).is_empty());
    }
    match &p.body {
        Some(Body::Board { stones, .. }) => assert_eq!(stones.len(), MAX_BODY_LINES),
        other => panic!("{other:?}"),
    }
    assert!(matches!(&p.feed("DONE")[0], Command::Error(e) if e.contains("more than")));
}

#[test]
fn swap2_body_and_too_long_lines() {
    let mut p = Parser::new();
    p.feed("SWAP2BOARD");
    p.feed("7,7");
    p.feed("8,7");
    p.feed("7,8");
    assert_eq!(
        p.feed("DONE"),
        vec![Command::Swap2Board(vec![c(7, 7), c(8, 7), c(7, 8)])]
    );
    assert_eq!(
        p.feed_too_long(),
        Some(Command::Error("line too long".into()))
    );
    p.feed("BOARD");
    assert_eq!(p.feed_too_long(), None);
    assert!(matches!(&p.feed("DONE")[0], Command::Error(e) if e.contains("too long")));
}

#[test]
fn wants_move() {
    assert!(Command::Begin.wants_move());
    assert!(Command::Turn(c(1, 1)).wants_move());
    assert!(Command::Board(BoardKind::Board, vec![]).wants_move());
    assert!(!Command::Board(BoardKind::YxBoard, vec![]).wants_move());
    assert!(Command::Swap2Board(vec![]).wants_move());
    assert!(!Command::About.wants_move());
}
