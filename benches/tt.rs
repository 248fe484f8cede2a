//! Probe and store cost of the transposition table per slot kind (arc-swap vs packed), alone
//! and with two threads contending for the same small table.
//!
//! `cargo bench --bench tt` (or `-- probe` etc. to filter).
use bango::game::board::Pos;
#[cfg(feature = "experiments")]
use bango::search::tt::PackedSlot;
use bango::search::tt::{ArcSlot, Bound, Slot, TranspositionTable};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Keys spread over the table; `i` picks one of `n`.
fn key(i: u64) -> u64 {
    i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

const KEYS: u64 = 1 << 12;

fn filled<S: Slot>(bytes: usize) -> TranspositionTable<S> {
    let tt = TranspositionTable::<S>::with_bytes(bytes);
    for i in 0..KEYS {
        tt.store(
            key(i),
            (i % 20) as i16,
            Bound::Exact,
            i as i32,
            Some(Pos(3)),
        );
    }
    tt
}

fn single<S: Slot>(c: &mut Criterion) {
    // Small enough to stay in cache: this measures the slot, not memory latency.
    let tt = filled::<S>(256 << 10);
    let mut g = c.benchmark_group("single");
    g.bench_function(BenchmarkId::new("probe", S::NAME), |b| {
        let mut i = 0u64;
        b.iter(|| {
            i = (i + 1) % KEYS;
            black_box(tt.probe(black_box(key(i))))
        })
    });
    g.bench_function(BenchmarkId::new("store", S::NAME), |b| {
        let mut i = 0u64;
        b.iter(|| {
            i = (i + 1) % KEYS;
            tt.store(black_box(key(i)), (i % 24) as i16, Bound::Lower, 7, None)
        })
    });
    g.finish();
}

/// Two threads each run `iters` operations on one tiny table; the time per operation of one
/// thread (wall time / iters) is reported.
fn contended<S: Slot + 'static>(c: &mut Criterion) {
    let tt = filled::<S>(64 * 2 * S::BYTES);
    let mut g = c.benchmark_group("contended2");
    for (name, store_every) in [("probe", 0u64), ("store", 1), ("mixed", 4)] {
        g.bench_function(BenchmarkId::new(name, S::NAME), |b| {
            b.iter_custom(|iters| {
                std::thread::scope(|s| {
                    let run = |seed: u64| {
                        let start = Instant::now();
                        for n in 0..iters {
                            let i = (n.wrapping_mul(7) + seed) % 256;
                            if store_every != 0 && n % store_every == 0 {
                                tt.store(key(i), (n % 24) as i16, Bound::Upper, 1, None);
                            } else {
                                black_box(tt.probe(key(i)));
                            }
                        }
                        start.elapsed()
                    };
                    let other = s.spawn(move || run(1));
                    let mine = run(0);
                    mine.max(other.join().unwrap())
                })
            })
        });
    }
    g.finish();
}

/// What [`bango::search::tt::TableHandle`] keeps off the move clock: allocating and dropping a default
/// size table, against the constant-time new-game clear.
fn lifetime<S: Slot>(c: &mut Criterion) {
    let bytes = bango::search::tt::DEFAULT_BYTES;
    let mut g = c.benchmark_group("lifetime");
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("new+drop 64MiB", S::NAME), |b| {
        b.iter(|| drop(black_box(TranspositionTable::<S>::with_bytes(bytes))))
    });
    let tt = TranspositionTable::<S>::with_bytes(bytes);
    g.bench_function(BenchmarkId::new("clear 64MiB", S::NAME), |b| {
        b.iter(|| tt.clear())
    });
    g.bench_function(BenchmarkId::new("wipe 64MiB", S::NAME), |b| {
        b.iter(|| tt.wipe())
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    lifetime::<ArcSlot>(c);
    single::<ArcSlot>(c);
    contended::<ArcSlot>(c);
    // The packed slot, for comparison (`--features experiments`).
    #[cfg(feature = "experiments")]
    {
        lifetime::<PackedSlot>(c);
        single::<PackedSlot>(c);
        contended::<PackedSlot>(c);
    }
}

criterion_group! {
    name = tt;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = benches
}
criterion_main!(tt);
