//! Move generation speed: every candidate scored and ranked on a 15x15 middle game.

use bango::evaluation::movegen;
use bango::evaluation::position::Position;
use bango::game::notation;
use bango::game::rules::Rule;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("shared data");
    let puzzles = notation::parse_puzzles(&text).unwrap();
    let mut group = c.benchmark_group("movegen");
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut pos = Position::new(&puzzles[10].board().unwrap(), rule);
        let mut moves = Vec::new();
        movegen::generate(&mut pos, movegen::Defences::WIDE, &mut moves);
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(format!("generate/{rule}"), |b| {
            b.iter(|| movegen::generate(&mut pos, movegen::Defences::WIDE, &mut moves))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
