//! Stress of lazy SMP searches: every worker count from 1 to 8 on a tiny, constantly churning
//! table, under depth caps, node caps and stop flags raised at random times. Every answer must
//! be a legal move with a sane score, every search must return, and forced positions must be
//! answered as one worker answers them.
//!
//! Short mode by default (a few seconds); `BANGO_STRESS=long` runs for `BANGO_STRESS_SECS`
//! (default 60) and prints counts, e.g.
//! `BANGO_STRESS=long cargo test --release --test stress smp:: -- --nocapture`.

use bango::game::board::{Board, Color};
use bango::game::notation;
use bango::game::rules::{self, Rule};
use bango::search::alphabeta::{Params, WIN, WIN_MIN};
use bango::search::smp::{Job, LazySmp, SmpResult};
use bango::search::timeman::Limits;
use bango::search::timeman::{self, Plan};
use bango::search::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bango_testkit::positions::{BLOCK_FOUR, FIVE_IN_ONE, FOUR_THREE};

fn long_mode() -> Option<Duration> {
    (std::env::var("BANGO_STRESS").as_deref() == Ok("long")).then(|| {
        Duration::from_secs(
            std::env::var("BANGO_STRESS_SECS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(60),
        )
    })
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

fn midgame() -> Vec<Board> {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("midgame positions");
    notation::parse_puzzles(&text)
        .unwrap()
        .iter()
        .map(|p| p.board().unwrap())
        .collect()
}

/// Fails the whole process if a search hangs (a hung test would otherwise stall CI).
fn watchdog(limit: Duration) -> impl Drop {
    struct Guard(std::sync::Arc<AtomicBool>);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let done = std::sync::Arc::new(AtomicBool::new(false));
    let flag = done.clone();
    std::thread::spawn(move || {
        let t = Instant::now();
        while !flag.load(Ordering::SeqCst) {
            if t.elapsed() > limit {
                eprintln!("stress_smp: a search hung for {limit:?}");
                std::process::exit(101);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    Guard(done)
}

fn search(
    smp: &mut LazySmp,
    tt: &TranspositionTable,
    b: &Board,
    rule: Rule,
    plan: Plan,
    stop: &AtomicBool,
) -> SmpResult {
    let job = Job {
        board: b,
        rule,
        plan,
        stop,
        report: &|_| {},
        known: None,
    };
    smp.search(tt, &job)
}

fn check_sane(b: &Board, rule: Rule, r: &SmpResult, what: &str) {
    let mut after = b.clone();
    let p = r.result.best;
    assert!(b.is_empty_at(p), "{what}: occupied or off-board move {p}");
    if b.side_to_move() == Color::Black {
        assert!(
            !rules::is_forbidden(&mut after, p, rule),
            "{what}: forbidden move {p}"
        );
    }
    assert!(
        r.result.score.abs() <= WIN,
        "{what}: score {}",
        r.result.score
    );
    let summed: u64 = r.per_worker.iter().flatten().map(|w| w.nodes).sum();
    assert_eq!(r.result.nodes, summed, "{what}");
    assert!(r.panicked.is_empty(), "{what}: {:?}", r.panicked);
    // The chosen iteration is one a worker completed.
    let chosen = r.per_worker[r.worker].as_ref().expect("chosen worker");
    assert_eq!(
        (chosen.best, chosen.depth, chosen.score),
        (p, r.result.depth, r.result.score)
    );
}

/// Depth of the forced-position searches (the four-three is proven well before it).
const FORCED_DEPTH: u32 = 5;

#[test]
fn smp_searches_under_churn_and_random_stops() {
    let long = long_mode();
    let _dog = watchdog(long.unwrap_or_default() + Duration::from_secs(120));
    let started = Instant::now();
    let boards = midgame();
    let forced: Vec<(Board, Rule)> = [
        (FIVE_IN_ONE, Color::Black),
        (BLOCK_FOUR, Color::White),
        (FOUR_THREE, Color::White),
    ]
    .iter()
    .map(|(pic, c)| {
        let mut b = Board::from_picture(pic).unwrap();
        b.set_side_to_move(*c);
        (b, Rule::Freestyle)
    })
    .collect();
    let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];
    let mut rng = Rng(0x5eed_5a17_u64);
    // A tiny table: 64 buckets, so every worker overwrites every other's entries constantly.
    let tt = TranspositionTable::with_buckets(64);
    let mut smps: Vec<LazySmp> = (1..=8)
        .map(|n| LazySmp::new(n, Params::default()))
        .collect();
    // One-worker answers to the forced positions (deterministic).
    let reference: Vec<SmpResult> = forced
        .iter()
        .map(|(b, rule)| {
            let no_stop = AtomicBool::new(false);
            let tt = TranspositionTable::new(1 << 20);
            let no_clock = Plan::depth(FORCED_DEPTH);
            search(&mut smps[0], &tt, b, *rule, no_clock, &no_stop)
        })
        .collect();
    let (mut searches, mut stops, mut rounds) = (0u64, 0u64, 0u64);
    loop {
        rounds += 1;
        for smp in smps.iter_mut() {
            let n = smp.threads();
            // Forced positions: every worker count finds what one worker finds.
            for ((b, rule), want) in forced.iter().zip(&reference) {
                let no_stop = AtomicBool::new(false);
                let r = search(smp, &tt, b, *rule, Plan::depth(FORCED_DEPTH), &no_stop);
                let what = format!("n={n} forced\n{b}");
                check_sane(b, *rule, &r, &what);
                if want.result.score >= WIN_MIN {
                    assert_eq!(r.result.score, want.result.score, "{what}");
                } else {
                    assert_eq!(r.result.best, want.result.best, "{what}");
                }
                searches += 1;
            }
            // Middle games: random rule, side, caps and a stop raised at a random time.
            for _ in 0..2 {
                let mut b = boards[rng.below(boards.len() as u64) as usize].clone();
                if rng.below(2) == 0 {
                    b.set_side_to_move(b.side_to_move().opponent());
                }
                let rule = rules[rng.below(4) as usize];
                // Always bounded: a node cap, and often a clock too.
                let (max_depth, max_nodes) = (2 + rng.below(10) as u32, 2_000 + rng.below(60_000));
                let limits = match rng.below(3) {
                    0 => Limits::per_move(rng.below(60)),
                    _ => Limits::depth(max_depth),
                };
                let plan = timeman::plan(&limits)
                    .with_depth(max_depth)
                    .with_nodes(max_nodes);
                let stop = AtomicBool::new(false);
                let delay = Duration::from_micros(rng.below(20_000));
                let raise = rng.below(2) == 0;
                let t = Instant::now();
                let r = std::thread::scope(|s| {
                    if raise {
                        let stop = &stop;
                        s.spawn(move || {
                            std::thread::sleep(delay);
                            stop.store(true, Ordering::SeqCst);
                        });
                    }
                    search(smp, &tt, &b, rule, plan, &stop)
                });
                let what = format!("n={n} {rule} {plan:?} {limits:?} stop {raise}/{delay:?}");
                check_sane(&b, rule, &r, &what);
                assert!(r.result.depth <= max_depth, "{what}");
                assert!(r.result.nodes <= max_nodes, "{what}: {}", r.result.nodes);
                // Generous: the point is that a stopped search returns, not how fast.
                if raise {
                    assert!(t.elapsed() < delay + Duration::from_secs(5), "{what}");
                    stops += 1;
                }
                searches += 1;
                if long.is_some() && t.elapsed() > Duration::from_secs(2) {
                    println!("slow: {what}: {:?}", t.elapsed());
                }
            }
        }
        match long {
            None if rounds >= 1 => break,
            Some(d) if started.elapsed() >= d => break,
            _ => {}
        }
    }
    println!(
        "stress_smp: {rounds} rounds, {searches} searches ({stops} stopped at random) in {:?}",
        started.elapsed()
    );
}
