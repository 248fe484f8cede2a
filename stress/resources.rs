//! Resource budgets measured, not assumed: the brain's peak resident memory (`VmHWM`) over a
//! game under a `max_memory` limit and a thread count (the two settings: the Gomocup
//! 350 MB with four threads, and 64 MiB with 64 threads asked for), and the stack the search
//! really touches (the resident pages of a search thread's stack after deep searches), against
//! [`bango::search::smp::WORKER_STACK_BYTES`].
//!
//! Short mode by default (a short game each, quick searches); `BANGO_STRESS=long` plays longer
//! games at longer budgets and searches longer, and prints the figures, e.g.
//! `BANGO_STRESS=long cargo test --release --test stress resources:: -- --nocapture`.

use bango::engine::resources::{self, Machine, Wanted};
use bango::game::board::Board;
use bango::game::notation;
use bango::game::rules::Rule;
use bango::search::alphabeta::Params;
use bango::search::smp::{Job, LazySmp};
use bango::search::timeman::Plan;
use bango::search::tt::TranspositionTable;
use bango_testkit::brain::{parse_move, Brain, Mode};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn long() -> bool {
    std::env::var("BANGO_STRESS").as_deref() == Ok("long")
}

fn vm_hwm_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

/// The next move line, skipping `MESSAGE`/`DEBUG` lines.
fn next_move(brain: &mut Brain) -> (usize, usize) {
    loop {
        let line = brain.recv();
        if line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
            continue;
        }
        return parse_move(&line).unwrap_or_else(|| panic!("not a move: {line}\n{}", brain.dump()));
    }
}

/// Plays one game (the brain black, a simple local opponent white) under `max_memory` and
/// `threads`, and returns the brain's peak resident memory.
fn game_peak(max_memory: u64, threads: u64, moves: usize, turn_ms: u64) -> u64 {
    let mut brain = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")]);
    brain.send("START 15");
    brain.expect("OK");
    for line in [
        format!("INFO max_memory {max_memory}"),
        format!("INFO thread_num {threads}"),
        format!("INFO timeout_turn {turn_ms}"),
        "INFO timeout_match 0".to_string(),
        "INFO rule 0".to_string(),
    ] {
        brain.send(&line);
    }
    let mut taken = vec![vec![false; 15]; 15];
    brain.send("BEGIN");
    for _ in 0..moves {
        let (x, y) = next_move(&mut brain);
        taken[x][y] = true;
        // The opponent answers next to the brain's stone (any empty point when there is none).
        let reply = [
            (1, 0),
            (0, 1),
            (1, 1),
            (-1, 1),
            (-1, 0),
            (0, -1),
            (-1, -1),
            (1, -1),
        ]
        .iter()
        .map(|(dx, dy)| (x as i64 + dx, y as i64 + dy))
        .find(|&(a, b)| {
            (0..15).contains(&a) && (0..15).contains(&b) && !taken[a as usize][b as usize]
        })
        .map(|(a, b)| (a as usize, b as usize))
        .or_else(|| {
            (0..225)
                .map(|i| (i % 15, i / 15))
                .find(|&(a, b)| !taken[a][b])
        });
        let Some((a, b)) = reply else { break };
        taken[a][b] = true;
        brain.send(&format!("TURN {a},{b}"));
    }
    let peak = vm_hwm_bytes(brain.pid());
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(20)).success());
    peak
}

#[test]
fn peak_memory_stays_within_max_memory() {
    let (moves, turn_ms) = if long() { (40, 1000) } else { (6, 100) };
    for (max_memory, threads) in [(367_001_600u64, 4u64), (67_108_864, 64)] {
        let peak = game_peak(max_memory, threads, moves, turn_ms);
        let plan = resources::plan(
            Wanted {
                threads: threads as usize,
                hash_kib: 0,
                max_memory,
                vct_tables: 0,
            },
            &Machine::detect(),
        );
        println!(
            "resources: max_memory {max_memory}, thread_num {threads}: {} threads, table {} KiB, \
             bound {} KiB, peak resident {} KiB over {moves} moves at {turn_ms} ms",
            plan.threads,
            plan.table_bytes >> 10,
            plan.peak_bytes() >> 10,
            peak >> 10
        );
        assert!(
            peak <= max_memory,
            "peak {peak} above max_memory {max_memory}"
        );
        assert!(
            peak <= plan.peak_bytes(),
            "peak {peak} above the model's bound {}",
            plan.peak_bytes()
        );
    }
}

/// The resident bytes of the memory mapping holding `addr` (from `/proc/self/smaps`).
fn mapping_rss(addr: usize) -> u64 {
    let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
    let mut inside = false;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((a, b)) = first.split_once('-') {
            if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)) {
                inside = (a..b).contains(&addr);
                continue;
            }
        }
        if inside {
            if let Some(kib) = line.strip_prefix("Rss:") {
                return kib
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .unwrap()
                    * 1024;
            }
        }
    }
    panic!("no mapping holds {addr:#x}")
}

/// The deepest stack the search touches: a thread with a large stack runs searches from
/// middle-game and tactical positions, then counts the resident pages of its own stack (a
/// page once touched stays resident, so this is the thread's high-water mark).
#[test]
fn worker_stack_covers_the_deepest_search() {
    let per_position = if long() {
        Duration::from_millis(1000)
    } else {
        Duration::from_millis(150)
    };
    let data = bango_testkit::data_dir();
    let mut boards: Vec<Board> = Vec::new();
    for (file, take) in [
        ("positions-midgame-15.txt", 6),
        ("puzzles-vcf.txt", 6),
        ("puzzles-vct.txt", 6),
    ] {
        let text = std::fs::read_to_string(data.join(file)).expect(file);
        let puzzles = notation::parse_puzzles(&text).unwrap();
        let take = if long() { take * 5 } else { take };
        boards.extend(puzzles.iter().take(take).filter_map(|p| p.board().ok()));
    }
    let measured = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let marker = 0u8;
            let addr = std::hint::black_box(&marker) as *const u8 as usize;
            let before = mapping_rss(addr);
            let mut smp = LazySmp::new(1, Params::default());
            let tt = TranspositionTable::with_bytes(8 << 20);
            let stop = AtomicBool::new(false);
            let mut deepest = 0;
            for b in &boards {
                let job = Job {
                    board: b,
                    rule: Rule::Freestyle,
                    plan: Plan::within(Instant::now(), per_position),
                    stop: &stop,
                    report: &|_| {},
                    known: None,
                };
                deepest = deepest.max(smp.search(&tt, &job).result.depth);
            }
            (before, mapping_rss(addr), deepest, boards.len())
        })
        .unwrap()
        .join()
        .unwrap();
    let (before, after, deepest, positions) = measured;
    println!(
        "stack: {positions} positions at {per_position:?}, deepest iteration {deepest}: \
         {} KiB resident before, {} KiB after; worker stacks are {} KiB",
        before >> 10,
        after >> 10,
        bango::search::smp::WORKER_STACK_BYTES >> 10
    );
    assert!(
        deepest >= 4,
        "the searches went too shallow to measure anything"
    );
    assert!(
        after * 4 <= bango::search::smp::WORKER_STACK_BYTES as u64,
        "the search touched {after} bytes of stack: less than four times that is reserved"
    );
}
