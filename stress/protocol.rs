//! Protocol stress under lazy SMP: the built brain with `BANGO_SMP=4` (and `INFO thread_num`
//! changing it between games) plays short games through pipes against random local moves at
//! small time budgets, while `YXSTOP` and `INFO timeout_turn 0` arrive at random times. Every
//! reply must be a legal move (renju forbidden points included), none may hang, and each must
//! come within its budget plus a tolerance.
//!
//! Short mode by default (a few seconds); `BANGO_STRESS=long` plays for `BANGO_STRESS_SECS`
//! (default 120) and prints the move count and the latest replies, e.g.
//! `BANGO_STRESS=long cargo test --release --test stress protocol:: -- --nocapture`.
//! `BANGO_STRESS_TOLERANCE_MS` sets the tolerance (default 1000: the machine is shared).

use bango::game::board::{Board, Color, Pos};
use bango::game::rules::{self, MoveOutcome, Rule};
use bango_testkit::brain::{parse_move, Brain, Event, Mode};
use std::time::{Duration, Instant};

const SIZE: usize = 15;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A legal random move for `c` near the stones (anywhere on an empty board).
fn local_move(b: &mut Board, c: Color, rule: Rule, rng: &mut Rng) -> Option<Pos> {
    let empties: Vec<Pos> = b.empty_cells().collect();
    let near: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| b.stone_count() == 0 || b.history().iter().any(|&(q, _)| q.chebyshev(p) <= 2))
        .collect();
    let pool = if near.is_empty() { &empties } else { &near };
    for _ in 0..50 {
        let p = pool[rng.below(pool.len() as u64) as usize];
        if c == Color::White || !rules::is_forbidden(b, p, rule) {
            return Some(p);
        }
    }
    empties
        .iter()
        .copied()
        .find(|&p| c == Color::White || !rules::is_forbidden(b, p, rule))
}

/// Reads lines until a move, skipping progress lines; fails on a fallback or a timeout.
fn read_move(brain: &mut Brain, limit: Duration) -> (Pos, Duration) {
    let t = Instant::now();
    loop {
        let left = limit.saturating_sub(t.elapsed());
        match brain.next_event(left) {
            Some(Event::Line(l)) => {
                brain.transcript.push(format!("<< {l}"));
                if l.starts_with("DEBUG") {
                    assert!(
                        !l.contains("failed") && !l.contains("illegal"),
                        "{l}\n{}",
                        brain.dump()
                    );
                    continue;
                }
                if l.starts_with("MESSAGE") {
                    continue;
                }
                let (x, y) =
                    parse_move(&l).unwrap_or_else(|| panic!("not a move: {l:?}\n{}", brain.dump()));
                assert!(x < SIZE && y < SIZE, "off-board {l}\n{}", brain.dump());
                return (Pos::new(x, y), t.elapsed());
            }
            Some(Event::BadEnding(l)) => panic!("bad line ending {l:?}\n{}", brain.dump()),
            Some(Event::Eof) => panic!("brain exited\n{}", brain.dump()),
            None => panic!("no move within {limit:?}\n{}", brain.dump()),
        }
    }
}

#[derive(Default)]
struct Tally {
    moves: u64,
    games: u64,
    stops: u64,
    instant: u64,
    worst_late_ms: i64,
}

fn play_game(brain: &mut Brain, rng: &mut Rng, tally: &mut Tally, tolerance: Duration) {
    let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][rng.below(3) as usize];
    // The thread count: the environment's 4, or INFO thread_num before or after START.
    if rng.below(3) == 0 {
        brain.send(&format!("INFO thread_num {}", 1 + rng.below(4)));
    }
    brain.send(&format!("START {SIZE}"));
    brain.expect("OK");
    if rng.below(3) == 0 {
        brain.send(&format!("INFO thread_num {}", 1 + rng.below(4)));
    }
    brain.send(&format!("INFO rule {}", rule.info_bits()));
    brain.send("INFO timeout_match 0");
    let mut b = Board::new(SIZE);
    let brain_black = rng.below(2) == 0;
    let me = if brain_black {
        Color::White
    } else {
        Color::Black
    };
    let plies = 10 + rng.below(40);
    let mut first = brain_black;
    for _ in 0..plies {
        let turn_ms = [0u64, 5, 20, 50, 100][rng.below(5) as usize];
        brain.send(&format!("INFO timeout_turn {turn_ms}"));
        let opp = if first {
            None
        } else {
            let Some(p) = local_move(&mut b, me, rule, rng) else {
                break;
            };
            match rules::play_checked(&mut b, p, me, rule).expect("our move is legal") {
                MoveOutcome::Continue => {}
                _ => break,
            }
            Some(p)
        };
        let sent = Instant::now();
        match opp {
            None => brain.send("BEGIN"),
            Some(p) => brain.send(&format!("TURN {},{}", p.x(), p.y())),
        }
        first = false;
        // Sometimes stop the move at a random time, by YXSTOP or by timeout_turn 0.
        let mut due = Duration::from_millis(turn_ms);
        if turn_ms > 0 && rng.below(3) == 0 {
            let at = Duration::from_millis(rng.below(turn_ms + 1));
            std::thread::sleep(at.saturating_sub(sent.elapsed()));
            if rng.below(2) == 0 {
                brain.send("YXSTOP");
            } else {
                brain.send("INFO timeout_turn 0");
            }
            due = due.min(at.max(sent.elapsed()));
            tally.stops += 1;
        }
        if turn_ms == 0 {
            tally.instant += 1;
        }
        let (p, _) = read_move(brain, due + tolerance + Duration::from_secs(10));
        let took = sent.elapsed();
        let late = took.as_millis() as i64 - due.as_millis() as i64;
        tally.worst_late_ms = tally.worst_late_ms.max(late);
        assert!(
            took <= due + tolerance,
            "reply after {took:?}, due {due:?}\n{}",
            brain.dump()
        );
        let c = me.opponent();
        let outcome = rules::play_checked(&mut b, p, c, rule).unwrap_or_else(|e| {
            panic!(
                "illegal brain move {p} ({e}) under {rule}\n{b}\n{}",
                brain.dump()
            )
        });
        tally.moves += 1;
        if outcome != MoveOutcome::Continue {
            break;
        }
    }
    tally.games += 1;
}

#[test]
fn smp_brain_answers_every_move_legally_and_in_time_under_random_stops() {
    let long = (std::env::var("BANGO_STRESS").as_deref() == Ok("long"))
        .then(|| Duration::from_secs(env_u64("BANGO_STRESS_SECS", 120)));
    let tolerance = Duration::from_millis(env_u64("BANGO_STRESS_TOLERANCE_MS", 1000));
    let mut brain = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", ""), ("BANGO_SMP", "4")]);
    let mut rng = Rng(0x0bad_cafe_u64 ^ env_u64("BANGO_SEED", 0));
    let mut tally = Tally::default();
    let started = Instant::now();
    loop {
        // Keep the transcript small: only the current game matters for a failure.
        brain.transcript.clear();
        play_game(&mut brain, &mut rng, &mut tally, tolerance);
        let done = match long {
            None => tally.moves >= 60,
            Some(d) => started.elapsed() >= d,
        };
        if done {
            break;
        }
    }
    brain.send("END");
    brain.wait_exit(Duration::from_secs(10));
    println!(
        "stress_protocol_smp: {} games, {} brain moves ({} stopped at random, {} instant), \
         worst lateness {} ms, in {:?}",
        tally.games,
        tally.moves,
        tally.stops,
        tally.instant,
        tally.worst_late_ms,
        started.elapsed()
    );
    assert!(tally.moves >= 60);
}
