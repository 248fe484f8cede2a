//! Protocol fuzzing: the built brain (the default algorithm, so that resource settings really
//! build pools and tables) is fed seeded random and mutated lines: every command and `INFO`
//! key with random arguments (negatives, 0, 2^63-1, 2^64-1, beyond), garbage bytes, lines over
//! the length limit, `BOARD`/`SWAP2BOARD` bodies interrupted by other commands, and CR, LF and
//! CRLF endings. Every few hundred lines a liveness probe (`YXSTOP` then `ABOUT`) must be
//! answered in time, and the brain's peak resident memory (`VmHWM`) must stay within the
//! largest `max_memory` the fuzzer sends; at the end, `END` must make it exit with status 0.
//!
//! What the fuzzer keeps tame, because the check depends on it: `max_memory` is only ever one
//! of [`BUDGETS`] (or an ignored value: negative, garbage), since a larger one would lift the
//! budget being checked; `END` is sent only at the end; and every line that may set
//! `timeout_turn` is followed by a small one, so that moves stay quick (a huge one is still
//! parsed and taken first).
//!
//! Short mode by default (about 10^4 lines, a few seconds); `BANGO_STRESS=long` sends
//! `BANGO_FUZZ_LINES` lines (default 10^6) and prints the count, the wall time and the peak,
//! e.g. `BANGO_STRESS=long cargo test --release --test stress fuzz:: -- --nocapture`.
//! `BANGO_FUZZ_SEED` picks the seed.

use bango_testkit::brain::{Brain, Event, Mode};
use std::time::{Duration, Instant};

/// The `max_memory` values the fuzzer sends (the Gomocup limit and two tighter ones).
const BUDGETS: [u64; 3] = [367_001_600, 134_217_728, 67_108_864];

/// Lines between liveness probes.
const PROBE_EVERY: usize = 300;

/// How long a probe may take: a move in flight is stopped by `YXSTOP` first.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "TAKEBACK",
    "PLAY",
    "INFO",
    "ABOUT",
    "SWAP2BOARD",
    "SWAP1BOARD",
    "YXSTOP",
    "YXHASHCLEAR",
    "YXSHOWFORBID",
    "PRINT",
    "DONE",
    "FOO",
];

const KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "folder",
    "max_depth",
    "max_node",
    "thread_num",
    "hash_size",
    "show_detail",
    "evaluate",
    "caution_factor",
    "pondering",
    "usedatabase",
    "",
];

/// A random number as text: edge values, small values, huge and malformed ones.
fn number(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => "-1".into(),
        1 => "0".into(),
        2 => "18446744073709551615".into(),
        3 => "9223372036854775807".into(),
        4 => "-9223372036854775808".into(),
        5 => "99999999999999999999999999".into(),
        6 => format!("-{}", rng.below(1 << 40)),
        7 => rng.below(20).to_string(),
        8 => rng.below(1 << 32).to_string(),
        9 => rng.next().to_string(),
        10 => ["", "x", "1e9", "+5", "--3", "0x10", "1.5", "٣"][rng.below(8) as usize].into(),
        _ => rng.below(100_000).to_string(),
    }
}

fn coord(rng: &mut Rng) -> String {
    if rng.chance(85) {
        format!("{},{}", rng.below(20), rng.below(20))
    } else {
        format!("{},{}", number(rng), number(rng))
    }
}

/// Whether `line` could set `timeout_turn` (its key in any case, anywhere).
fn touches_turn_clock(line: &[u8]) -> bool {
    String::from_utf8_lossy(line)
        .to_ascii_lowercase()
        .contains("timeout_turn")
}

/// Whether `line` could set `max_memory`.
fn touches_memory(line: &[u8]) -> bool {
    String::from_utf8_lossy(line)
        .to_ascii_lowercase()
        .contains("max_memory")
}

/// Whether the parser would read `line` as `END`.
fn is_end(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    text.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("END"))
}

/// One generated line (without its terminator).
fn generate(rng: &mut Rng, size: u64) -> Vec<u8> {
    let line = match rng.below(20) {
        0..=5 => {
            let key = *rng.pick(KEYS);
            let value = match key {
                "max_memory" => {
                    if rng.chance(70) {
                        rng.pick(&BUDGETS).to_string()
                    } else {
                        ["-1", "-77", "x", "", "1e9"][rng.below(5) as usize].to_string()
                    }
                }
                "folder" => {
                    ["/tmp", "", "/nonexistent/dir", "C:\\x y"][rng.below(4) as usize].into()
                }
                "evaluate" => coord(rng),
                "thread_num" if rng.chance(50) => rng.below(70).to_string(),
                "hash_size" if rng.chance(50) => (1u64 << rng.below(36)).to_string(),
                _ => number(rng),
            };
            format!("INFO {key} {value}")
        }
        6 => match rng.below(4) {
            0 => format!("START {}", number(rng)),
            1 => format!("RECTSTART {},{}", number(rng), number(rng)),
            _ => format!("START {}", [15, 15, 20, 5, 32, 33][rng.below(6) as usize]),
        },
        7 => "RESTART".into(),
        8 | 9 => format!("TURN {}", coord(rng)),
        10 => "BEGIN".into(),
        11 => format!("TAKEBACK {}", coord(rng)),
        12 => format!("PLAY {}", coord(rng)),
        13 => (*rng.pick(&["ABOUT", "YXSHOWFORBID", "PRINT", "YXHASHCLEAR", "YXSTOP"])).into(),
        14 => {
            // A word with random arguments.
            let mut s = (*rng.pick(WORDS)).to_string();
            for _ in 0..rng.below(4) {
                s.push(' ');
                s.push_str(&number(rng));
            }
            s
        }
        15 => {
            // A board-body line out of place, or a stray DONE.
            if rng.chance(50) {
                format!("{},{}", coord(rng), rng.below(5))
            } else {
                "DONE".into()
            }
        }
        16 => {
            // Garbage bytes (never a line terminator).
            let n = rng.below(40);
            return (0..n)
                .map(|_| (rng.next() as u8).max(1))
                .filter(|&b| b != b'\n' && b != b'\r')
                .collect();
        }
        17 => {
            // Over the length limit (or just under it).
            let n = if rng.chance(50) { 20_000 } else { 16 * 1024 };
            return vec![b'7'; n];
        }
        _ => {
            let stones = rng.below(size * 2 + 2);
            return format!("BODY {stones}").into_bytes();
        }
    };
    line.into_bytes()
}

/// Mutates `line`: flips, inserts or deletes a few bytes, or changes its case.
fn mutate(rng: &mut Rng, mut line: Vec<u8>) -> Vec<u8> {
    for _ in 0..=rng.below(3) {
        let at = if line.is_empty() {
            0
        } else {
            rng.below(line.len() as u64) as usize
        };
        match rng.below(5) {
            0 if !line.is_empty() => line[at] = rng.next() as u8,
            1 => line.insert(at, b"0123456789-, ,"[rng.below(14) as usize]),
            2 if !line.is_empty() => {
                line.remove(at);
            }
            3 => line.make_ascii_lowercase(),
            _ => line.insert(at, b' '),
        }
    }
    line.retain(|&b| b != b'\n' && b != b'\r');
    line
}

/// The lines of one game-position body (`BOARD`, `YXBOARD`, `SWAP2BOARD`, `SWAP1BOARD`), at
/// times interrupted by another command or cut short.
fn body(rng: &mut Rng, stones: u64, size: u64) -> Vec<Vec<u8>> {
    let word = *rng.pick(&["BOARD", "YXBOARD", "SWAP2BOARD", "SWAP1BOARD"]);
    let mut lines = vec![word.as_bytes().to_vec()];
    let swap = word.starts_with("SWAP");
    for i in 0..stones {
        if rng.chance(3) {
            lines.push(generate(rng, size));
            if rng.chance(50) {
                return lines;
            }
        }
        let (x, y) = (i * 7 % size.max(1), i * 3 % size.max(1) + i / size.max(1));
        let line = if swap {
            format!("{x},{y}")
        } else {
            format!("{x},{y},{}", 1 + i % 2 + u64::from(rng.chance(2)))
        };
        lines.push(if rng.chance(5) {
            mutate(rng, line.into_bytes())
        } else {
            line.into_bytes()
        });
    }
    lines.push(b"DONE".to_vec());
    lines
}

fn vm_hwm_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Waits for the `ABOUT` reply (other lines — moves, messages, errors — are skipped).
fn probe(brain: &mut Brain, sent: usize) {
    brain.send("YXSTOP");
    brain.send("ABOUT");
    let t0 = Instant::now();
    loop {
        let left = PROBE_TIMEOUT.saturating_sub(t0.elapsed());
        match brain.next_event(left) {
            Some(Event::Line(l)) if l.starts_with("name=") => return,
            Some(Event::Line(_)) => {}
            Some(Event::BadEnding(l)) => {
                panic!("after {sent} lines: a line not ended by CRLF: {l:?}")
            }
            Some(Event::Eof) => panic!("after {sent} lines: the brain died\n{}", tail(brain)),
            None => panic!(
                "after {sent} lines: no ABOUT reply within {PROBE_TIMEOUT:?}\n{}",
                tail(brain)
            ),
        }
    }
}

fn tail(brain: &Brain) -> String {
    let n = brain.transcript.len();
    brain.transcript[n.saturating_sub(60)..].join("\n")
}

/// Drains whatever the brain printed, so that its output pipe never fills.
fn drain(brain: &mut Brain) {
    while let Some(ev) = brain.next_event(Duration::ZERO) {
        if let Event::Eof = ev {
            panic!("the brain died\n{}", tail(brain));
        }
    }
}

fn run(lines: usize, seed: u64) -> (usize, Duration, u64) {
    let budget = *BUDGETS.iter().max().unwrap();
    let mut brain = Brain::spawn(
        Mode::Pipe,
        &[
            ("BANGO_ALGO", ""),
            ("BANGO_MAX_MEMORY", &budget.to_string()),
            ("BANGO_SEED", "1"),
        ],
    );
    let pid = brain.pid();
    let mut rng = Rng(seed | 1);
    let t0 = Instant::now();
    let quick_turn = |rng: &mut Rng| format!("INFO timeout_turn {}", rng.below(6));
    brain.send(&quick_turn(&mut rng));
    brain.send("START 15");
    let mut sent = 0;
    let mut next_probe = PROBE_EVERY;
    let mut peak = 0;
    while sent < lines {
        let first = generate(&mut rng, 15);
        let batch = if first.starts_with(b"BODY ") {
            let stones = String::from_utf8_lossy(&first[5..]).parse().unwrap_or(0);
            body(&mut rng, stones, 15)
        } else if rng.chance(25) {
            vec![mutate(&mut rng, first)]
        } else {
            vec![first]
        };
        for mut line in batch {
            if is_end(&line) {
                continue;
            }
            if touches_memory(&line) && !line.is_ascii() {
                line = b"INFO max_memory -1".to_vec();
            }
            if touches_memory(&line) {
                // Keep to the budgets: a mutated max_memory value becomes one of them.
                let text = String::from_utf8_lossy(&line).to_string();
                let taken = text
                    .split_whitespace()
                    .last()
                    .and_then(|v| v.parse::<i128>().ok())
                    .is_some_and(|v| v >= 0 && !BUDGETS.iter().any(|&b| i128::from(b) == v));
                if taken {
                    line = format!("INFO max_memory {}", rng.pick(&BUDGETS)).into_bytes();
                }
            }
            let ending: &[u8] = match rng.below(10) {
                0 => b"\n",
                1 => b"\r",
                _ => b"\r\n",
            };
            let mut bytes = line.clone();
            bytes.extend_from_slice(ending);
            brain.send_raw(&bytes);
            sent += 1;
            if touches_turn_clock(&line) {
                // A lone CR ending might merge with nothing: the CRLF below ends any line.
                brain.send(&quick_turn(&mut rng));
            }
        }
        drain(&mut brain);
        if sent >= next_probe {
            next_probe += PROBE_EVERY;
            // A lone CR before the probe would be one line with it in some readers; end it.
            brain.send_raw(b"\r\n");
            probe(&mut brain, sent);
            let hwm = vm_hwm_bytes(pid).expect("VmHWM readable");
            peak = peak.max(hwm);
            assert!(
                hwm <= budget,
                "after {sent} lines: peak resident memory {hwm} above the {budget} budget\n{}",
                tail(&brain)
            );
            let keep = brain.transcript.len().saturating_sub(200);
            brain.transcript.drain(..keep);
        }
    }
    brain.send_raw(b"\r\n");
    probe(&mut brain, sent);
    peak = peak.max(vm_hwm_bytes(pid).expect("VmHWM readable"));
    assert!(peak <= budget, "peak resident memory {peak} above {budget}");
    brain.send("END");
    let status = brain.wait_exit(Duration::from_secs(20));
    assert!(status.success(), "END gave {status:?}\n{}", tail(&brain));
    (sent, t0.elapsed(), peak)
}

#[test]
fn protocol_fuzz() {
    let long = std::env::var("BANGO_STRESS").as_deref() == Ok("long");
    let lines = if long {
        std::env::var("BANGO_FUZZ_LINES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1_000_000)
    } else {
        10_000
    };
    let seed = std::env::var("BANGO_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x00f0_22ed);
    let (sent, took, peak) = run(lines, seed);
    println!(
        "fuzz: {sent} lines (seed {seed}) in {:.1} s, peak resident {} KiB, exit 0 on END",
        took.as_secs_f64(),
        peak >> 10
    );
    assert!(sent >= lines);
}
