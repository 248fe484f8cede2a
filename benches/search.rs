//! Fixed-depth search speed with nodes per second as the throughput (one worker, fresh table).

use bango::game::notation;
use bango::game::rules::Rule;
use bango::search::alphabeta::{Context, Params, Worker};
use bango::search::timeman::Plan;
use bango::search::tt::TranspositionTable;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::atomic::AtomicBool;

fn bench(c: &mut Criterion) {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("shared data");
    let board = notation::parse_puzzles(&text).unwrap()[10].board().unwrap();
    let stop = AtomicBool::new(false);
    let run = || {
        let tt = TranspositionTable::new(4 << 20);
        let ctx = Context {
            tt: &tt,
            stop: &stop,
            plan: Plan::depth(5),
        };
        Worker::new(0, Params::default()).search(&ctx, &board, Rule::Freestyle)
    };
    let nodes = run().nodes;
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("depth5/midgame-10", |b| b.iter(run));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
