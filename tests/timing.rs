//! Protocol-level time limits: the built brain, with its default algorithm, driven through pipes
//! from middle-game positions (`BOARD`, then `TURN`s) under per-move budgets of 0, 10, 100 and
//! 1000 ms and under a tight, shrinking match clock. Every move is timed on the driving side,
//! from flushing the line that asks for it to reading the reply, as a manager times it.
//!
//! # Tolerance
//! A move may be late by [`TOLERANCE_MS`] plus the slowest `ABOUT` round trip seen on the same
//! pipe during the test. The brain's own clock starts when it reads the request and it keeps a
//! margin of its own, so on an idle machine moves land well inside the budget; but this machine
//! is shared (two cores, several engineers' builds and matches), and a process that is ready
//! to answer can still wait tens of milliseconds for a core. The `ABOUT` round trip (no thinking
//! at all) measures that wait as it happens, so a loaded machine widens the tolerance by what
//! it actually costs instead of failing the test, while an engine that overruns its deadline
//! still fails it. (Managers are far more lenient: the Gomocup judge allows about 1 s.)

use bango::evaluation::movegen;
use bango::evaluation::position::Position;
use bango::game::board::{Board, Pos};
use bango::game::notation;
use bango::game::rules::{self, Rule};
use bango::search::alphabeta::Params;
use bango::search::timeman;
use bango::search::timeman::{Limits, TimeControl};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Lateness allowed beyond the budget, on top of the measured round trip (see the module docs).
const TOLERANCE_MS: u64 = 40;
/// How long to wait for any reply before declaring the brain hung.
const HANG: Duration = Duration::from_secs(10);

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
    /// The slowest `ABOUT` round trip so far.
    worst_round_trip: Duration,
}

impl Brain {
    /// The brain with its default algorithm: no `BANGO_*` variable of ours leaks in.
    fn spawn() -> Brain {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbrain-bango"));
        cmd.env_remove("BANGO_ALGO").env_remove("BANGO_SMP");
        for doc in Params::DOCS {
            cmd.env_remove(doc.var);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn pbrain-bango");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Stamped on arrival: the reading side's clock.
                if tx.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        let mut b = Brain {
            child,
            stdin,
            lines,
            worst_round_trip: Duration::ZERO,
        };
        b.send("START 15");
        assert_eq!(b.reply().0, "OK");
        b
    }

    /// Writes one line and flushes it; returns when it was flushed.
    fn send(&mut self, line: &str) -> Instant {
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
        Instant::now()
    }

    /// The next line that is not a `MESSAGE`/`DEBUG`, with its arrival time.
    fn reply(&mut self) -> (String, Instant) {
        loop {
            let (line, at) = self.lines.recv_timeout(HANG).expect("brain answers");
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return (line, at);
            }
        }
    }

    /// Measures an `ABOUT` round trip and keeps the worst.
    fn calibrate(&mut self) {
        let sent = self.send("ABOUT");
        let (line, at) = self.reply();
        assert!(line.starts_with("name="), "ABOUT answered {line:?}");
        self.worst_round_trip = self.worst_round_trip.max(at - sent);
    }

    /// Sends `lines`, the last of which asks for a move; returns the move and how long it took
    /// from flushing that last line.
    fn ask(&mut self, lines: &[String]) -> (Pos, Duration) {
        let mut sent = Instant::now();
        for l in lines {
            sent = self.send(l);
        }
        let (line, at) = self.reply();
        let (x, y) = line
            .split_once(',')
            .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
            .unwrap_or_else(|| panic!("not a move: {line:?}"));
        (Pos::new(x, y), at - sent)
    }

    fn allowed(&self, budget_ms: u64) -> Duration {
        Duration::from_millis(budget_ms + TOLERANCE_MS) + self.worst_round_trip
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.send("END");
        let _ = self.child.wait();
    }
}

/// Middle-game positions (freestyle, 15x15) from the shared data.
fn positions(n: usize) -> Vec<Board> {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("shared data");
    notation::parse_puzzles(&text)
        .unwrap()
        .iter()
        .step_by(9)
        .take(n)
        .map(|p| p.board().unwrap())
        .collect()
}

/// The `BOARD` command for `b` from the side to move's view (1 own, 2 theirs), in move order.
fn board_command(b: &Board) -> Vec<String> {
    let me = b.side_to_move();
    let mut lines = vec!["BOARD".to_string()];
    for (p, c) in b.history() {
        let field = if *c == me { 1 } else { 2 };
        lines.push(format!("{},{},{field}", p.x(), p.y()));
    }
    lines.push("DONE".to_string());
    lines
}

/// Plays the brain's move on `b`; `false` when the game is over (a five, or a full board).
fn apply(b: &mut Board, p: Pos) -> bool {
    let c = b.side_to_move();
    assert!(b.is_empty_at(p), "illegal move {p}");
    b.play(p).unwrap();
    !rules::is_win_at(b, p, c, Rule::Freestyle) && b.empty_cells().next().is_some()
}

/// The opponent's reply: the top of the threat ladder (deterministic and plausible).
fn opponent(b: &Board) -> Pos {
    movegen::fast_move(&mut Position::new(b, Rule::Freestyle)).expect("an empty cell")
}

/// Plays from each position with `setup` sent once after `START`; before each request,
/// `before_move(k)` gives extra lines (the match clock) and the budget the move must keep.
fn play(
    brain: &mut Brain,
    boards: &[Board],
    moves_each: usize,
    mut before_move: impl FnMut(usize, Duration) -> (Vec<String>, u64),
    label: &str,
) -> usize {
    let mut k = 0;
    let mut used = Duration::ZERO;
    for start in boards {
        let mut b = start.clone();
        let mut request = board_command(&b);
        for _ in 0..moves_each {
            let (mut lines, budget) = before_move(k, used);
            lines.append(&mut request);
            brain.calibrate();
            let (m, took) = brain.ask(&lines);
            brain.calibrate();
            used += took;
            // Shown with --nocapture, and with any failure.
            eprintln!(
                "{label}: move {k} {m} in {took:?}, budget {budget} ms, round trip up to {:?}",
                brain.worst_round_trip
            );
            assert!(
                took <= brain.allowed(budget),
                "{label}: move {k} took {took:?} for a budget of {budget} ms (round trip up to \
                 {:?})",
                brain.worst_round_trip
            );
            k += 1;
            if !apply(&mut b, m) {
                break;
            }
            let reply = opponent(&b);
            if !apply(&mut b, reply) {
                break;
            }
            request = vec![format!("TURN {},{}", reply.x(), reply.y())];
        }
    }
    k
}

#[test]
fn moves_keep_per_turn_budgets() {
    let boards = positions(2);
    for (turn, moves_each) in [(0u64, 3usize), (10, 3), (100, 3), (1000, 2)] {
        let mut brain = Brain::spawn();
        brain.send(&format!("INFO timeout_turn {turn}"));
        brain.send("INFO timeout_match 0");
        let label = format!("timeout_turn {turn}");
        let played = play(
            &mut brain,
            &boards,
            moves_each,
            |_, _| (Vec::new(), turn),
            &label,
        );
        assert!(played >= boards.len(), "{label}: only {played} moves");
    }
}

/// A tight match clock: `time_left` shrinks by what was used and by a further 300 ms per move
/// (as if earlier moves had been long), down to a few milliseconds; each move must keep the
/// share the time manager plans for that clock, and the turn limit never binds.
#[test]
fn moves_keep_a_shrinking_match_clock() {
    const MATCH_MS: i64 = 2000;
    const TURN_MS: u64 = 5000;
    let boards = positions(2);
    let mut brain = Brain::spawn();
    brain.send(&format!("INFO timeout_turn {TURN_MS}"));
    brain.send(&format!("INFO timeout_match {MATCH_MS}"));
    let mut lefts = Vec::new();
    let played = play(
        &mut brain,
        &boards,
        4,
        |k, used| {
            let left = (MATCH_MS - used.as_millis() as i64 - 300 * k as i64).max(5);
            let budget = timeman::budget_ms(&Limits::new(TimeControl {
                turn_ms: Some(TURN_MS),
                match_ms: Some(MATCH_MS as u64),
                left_ms: Some(left),
            }))
            .expect("a match clock is a budget");
            lefts.push(left);
            (vec![format!("INFO time_left {left}")], budget)
        },
        "match clock",
    );
    assert!(played >= 6, "only {played} moves");
    // The clock really got tight: the last budgets are a few milliseconds.
    assert!(*lefts.last().unwrap() < 300, "time_left went {lefts:?}");
}
