//! Evaluation speed: the O(1) incremental read, a make/unmake pair (the incremental update) and
//! the from-scratch rebuild it replaces.

use bango::evaluation::position::Position;
use bango::game::notation;
use bango::game::rules::Rule;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn midgame() -> Position {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("shared data");
    let p = &notation::parse_puzzles(&text).unwrap()[10];
    Position::new(&p.board().unwrap(), Rule::Freestyle)
}

fn bench(c: &mut Criterion) {
    let mut pos = midgame();
    let mv = pos.candidates().iter().next().unwrap();
    c.bench_function("eval/evaluate", |b| b.iter(|| black_box(&pos).evaluate()));
    c.bench_function("eval/make_unmake", |b| {
        b.iter(|| {
            pos.make(black_box(mv));
            pos.unmake();
        })
    });
    c.bench_function("eval/evaluate_full", |b| {
        b.iter(|| black_box(&pos).evaluate_full())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
