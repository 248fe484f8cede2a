//! Stress test of the transposition table: many threads hammer a tiny table so that slots churn
//! constantly, and every probed entry is verified field by field against values derived from
//! its key and depth, so any torn or mixed entry is detected.
//!
//! Short mode by default (a fixed number of operations, a few seconds in CI); set
//! `BANGO_STRESS=long` for a long run (`BANGO_STRESS_SECS`, default 60, per slot kind), e.g.
//! `BANGO_STRESS=long cargo test --release --test stress tt:: -- --nocapture`.
#![cfg(not(loom))]

use bango::game::board::Pos;
#[cfg(feature = "experiments")]
use bango::search::tt::PackedSlot;
use bango::search::tt::{ArcSlot, Bound, Slot, StoreOutcome, TranspositionTable, TtEntry};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const THREADS: usize = 8;
const BUCKETS: usize = 8;
/// Few enough keys that writers of the same key collide often.
const KEYS: u64 = 48;
const SHORT_OPS_PER_THREAD: u64 = 500_000;

fn key(i: u64) -> u64 {
    // Spread over all 64 bits, low bits pick the bucket.
    i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 59)
}

/// What a writer stores for (key, depth): any mix of two writes breaks it.
fn fields(key: u64, depth: i16) -> (Bound, i32, Option<Pos>) {
    let h = key.rotate_left(depth as u32 % 64) ^ (depth as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let bound = match h % 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    let best = (h % 1025 != 0).then_some(Pos((h % 1024) as u16));
    (bound, (h >> 17) as i32, best)
}

fn verify(k: u64, e: &TtEntry) {
    let (bound, score, best) = fields(k, e.depth);
    assert_eq!(e.key, k);
    assert!(
        (0..64).contains(&e.depth) && (e.bound, e.score, e.best) == (bound, score, best),
        "torn or mixed entry for {k:#x}: {e:?}"
    );
}

#[derive(Default)]
struct Counts {
    probes: AtomicU64,
    hits: AtomicU64,
    stored: AtomicU64,
    kept: AtomicU64,
    gave_up: AtomicU64,
}

fn hammer<S: Slot + 'static>(long: Option<Duration>) {
    let tt = TranspositionTable::<S>::with_buckets(BUCKETS);
    let counts = Counts::default();
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (tt, counts, stop) = (&tt, &counts, &stop);
            s.spawn(move || {
                let mut rng = 0x2545_F491_4F6C_DD1D_u64 ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9);
                let mut next = || {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng
                };
                let mut local = [0u64; 5];
                let mut ops = 0u64;
                loop {
                    if long.is_none() && ops == SHORT_OPS_PER_THREAD
                        || long.is_some() && ops % 4096 == 0 && stop.load(Ordering::Relaxed)
                    {
                        break;
                    }
                    ops += 1;
                    let r = next();
                    let k = key(r % KEYS);
                    if r >> 63 == 0 {
                        local[0] += 1;
                        if let Some(e) = tt.probe(k) {
                            verify(k, &e);
                            local[1] += 1;
                        }
                    } else {
                        let depth = ((r >> 32) % 64) as i16;
                        let (bound, score, best) = fields(k, depth);
                        let i = match tt.try_store(k, depth, bound, score, best) {
                            StoreOutcome::Stored | StoreOutcome::Unchanged => 2,
                            StoreOutcome::KeptDeeper => 3,
                            StoreOutcome::GaveUp => 4,
                        };
                        local[i] += 1;
                    }
                    if t == 0 && ops % 100_000 == 0 {
                        // Generations advance now and then, as between searches.
                        tt.new_search();
                    }
                }
                let all = [
                    &counts.probes,
                    &counts.hits,
                    &counts.stored,
                    &counts.kept,
                    &counts.gave_up,
                ];
                for (c, n) in all.into_iter().zip(local) {
                    c.fetch_add(n, Ordering::Relaxed);
                }
            });
        }
        if let Some(d) = long {
            std::thread::sleep(d);
            stop.store(true, Ordering::Relaxed);
        }
    });
    let elapsed = start.elapsed();
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let (probes, hits) = (get(&counts.probes), get(&counts.hits));
    let (stored, kept, gave_up) = (get(&counts.stored), get(&counts.kept), get(&counts.gave_up));
    println!(
        "{}: {THREADS} threads, {BUCKETS} buckets, {:.1}s: {probes} probes, {hits} hits verified, \
         {stored} stored, {kept} kept deeper, {gave_up} gave up",
        S::NAME,
        elapsed.as_secs_f64()
    );
    // Every thread's every operation is counted once.
    if long.is_none() {
        assert_eq!(
            probes + stored + kept + gave_up,
            THREADS as u64 * SHORT_OPS_PER_THREAD
        );
    }
    assert!(
        hits > probes / 20,
        "the table barely held anything: {hits}/{probes}"
    );
    assert!(stored > 0 && kept > 0);
    // Quiescent now: whatever is left verifies too.
    let left = (0..KEYS)
        .filter_map(|i| tt.probe(key(i)).map(|e| verify(key(i), &e)))
        .count();
    assert!(left > 0 && left <= 2 * BUCKETS, "{left} entries left");
}

fn mode() -> Option<Duration> {
    let long = std::env::var("BANGO_STRESS").is_ok_and(|v| v == "long");
    long.then(|| {
        let secs = std::env::var("BANGO_STRESS_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60);
        Duration::from_secs(secs)
    })
}

#[test]
fn arc_swap_slots_never_yield_a_torn_entry() {
    hammer::<ArcSlot>(mode());
}

#[cfg(feature = "experiments")]
#[test]
fn packed_slots_never_yield_a_torn_entry() {
    hammer::<PackedSlot>(mode());
}
