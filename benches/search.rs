//! Fixed-depth search speed with nodes per second as the throughput (one worker, fresh table):
//! plain, and with an analyst's database of 10^5 positions open (every symmetric copy keyed,
//! every stone count the search meets covered, none of them met: the lookup's whole cost).

use bango::game::board::Board;
use bango::game::notation;
use bango::game::rng::SplitMix64;
use bango::game::rules::Rule;
use bango::search::alphabeta::{Context, Params, SearchResult, Worker};
use bango::search::known::{Known, KnownPositions};
use bango::search::timeman::Plan;
use bango::search::tt::TranspositionTable;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::atomic::AtomicBool;

/// Stored positions, and the keys each gives (its eight symmetric copies).
const STORED_POSITIONS: usize = 100_000;
const KEYS_PER_POSITION: usize = 8;

fn search(board: &Board, known: Option<&KnownPositions>) -> SearchResult {
    let stop = AtomicBool::new(false);
    let tt = TranspositionTable::new(4 << 20);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        plan: Plan::depth(5),
        known,
    };
    Worker::new(0, Params::default()).search(&ctx, board, Rule::Freestyle)
}

/// Random keys (never the searched positions') over the stone counts of the root and the 40
/// plies below it.
fn database_of(board: &Board) -> KnownPositions {
    let mut rng = SplitMix64::new(47);
    let mut known = KnownPositions::new();
    for i in 0..STORED_POSITIONS * KEYS_PER_POSITION {
        let stones = board.stone_count() + (i / KEYS_PER_POSITION) % 40;
        let k = Known {
            score: 0,
            depth: 20,
            best: None,
        };
        known.insert(rng.next_u64(), stones, k);
    }
    known
}

fn bench(c: &mut Criterion) {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("shared data");
    let board = notation::parse_puzzles(&text).unwrap()[10].board().unwrap();
    let known = database_of(&board);
    let plain = search(&board, None);
    let informed = search(&board, Some(&known));
    assert_eq!(
        plain.nodes, informed.nodes,
        "the stored keys change the search"
    );
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(plain.nodes));
    group.sample_size(10);
    group.bench_function("depth5/midgame-10", |b| b.iter(|| search(&board, None)));
    group.bench_function("depth5/midgame-10/database-1e5", |b| {
        b.iter(|| search(&board, Some(&known)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
