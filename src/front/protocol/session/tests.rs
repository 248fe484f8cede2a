//! The session's tests: commands applied to the state, with algorithms that misbehave.

use super::*;

fn c(x: i64, y: i64) -> Coord {
    Coord { x, y }
}

/// Answers a fixed point, or panics.
struct Broken(Option<Pos>);
impl Algorithm for Broken {
    fn name(&self) -> &'static str {
        "broken"
    }
    fn think(&mut self, _req: &Request<'_>) -> Pos {
        self.0.expect("this algorithm panics on purpose")
    }
    fn new_game(&mut self, _size: usize, _config: &Config) {}
}

fn run(algo: Broken, cmds: Vec<Command>) -> (Session, Vec<String>) {
    let lines = parking_lot::Mutex::new(Vec::new());
    let sink = |l: &str| lines.lock().push(l.to_string());
    let mut s = Session::new(Box::new(algo), Config::default());
    let stop = AtomicBool::new(false);
    for cmd in cmds {
        s.apply(cmd, Instant::now(), &stop, &sink);
    }
    (s, lines.into_inner())
}

#[test]
fn illegal_or_panicking_algorithms_still_give_a_legal_move() {
    // Renju, we are black; 0,0 is occupied and 3,3 is forbidden (double three).
    let board = |me_first: bool| {
        let f = |own: bool| {
            if own == me_first {
                Owner::Own
            } else {
                Owner::Opponent
            }
        };
        vec![
            (c(3, 1), f(true)),
            (c(0, 0), f(false)),
            (c(3, 2), f(true)),
            (c(9, 6), f(false)),
            (c(1, 3), f(true)),
            (c(9, 7), f(false)),
            (c(2, 3), f(true)),
            (c(0, 9), f(false)),
        ]
    };
    let setup = |b| {
        vec![
            Command::Start(10),
            Command::Info(Info::Rule(4)),
            Command::Board(BoardKind::Board, b),
        ]
    };
    let (s, out) = run(Broken(Some(Pos::new(3, 3))), setup(board(true)));
    assert_eq!(out[0], "OK");
    assert!(
        out[1].starts_with("DEBUG broken answered the illegal move 3,3"),
        "{out:?}"
    );
    assert_eq!(out[2], "1,0");
    assert_eq!(s.board().unwrap().at(Pos::new(1, 0)), Some(Color::Black));
    let (_, out) = run(Broken(Some(Pos::new(0, 0))), setup(board(true)));
    assert!(out[1].contains("illegal move 0,0"), "{out:?}");
    assert_eq!(out[2], "1,0");
    let (s, out) = run(Broken(None), setup(board(true)));
    assert!(out[1].starts_with("DEBUG broken failed"), "{out:?}");
    assert_eq!(out[2], "1,0");
    assert_eq!(s.me(), Some(Color::Black));
    // As white, 3,3 is fine.
    let (s, out) = run(Broken(Some(Pos::new(3, 3))), setup(board(false)));
    assert_eq!(out[1..], ["3,3".to_string()]);
    assert_eq!(s.me(), Some(Color::White));
}

#[test]
fn about_line_has_the_keys() {
    let a = about("random");
    for key in [
        "name=\"pbrain-bango\"",
        "version=\"",
        "author=",
        "country=",
        "www=",
        "ai=\"random\"",
    ] {
        assert!(a.contains(key), "{a}");
    }
    assert!(a
        .split(", ")
        .all(|kv| kv.contains("=\"") && kv.ends_with('"')));
}
