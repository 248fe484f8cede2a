//! Fixed-depth search speed with nodes per second as the throughput (one worker, fresh table):
//! plain, and with an analyst's position database of 10^5 positions open (a real SQLite file,
//! read as the session reads it: every symmetric image keyed; the positions cover every stone
//! count the search meets, so every node pays the lookup).

use bango::game::board::{Board, Pos};
use bango::game::notation;
use bango::game::rng::SplitMix64;
use bango::game::rules::Rule;
use bango::knowledge::database::{known, Database, Mode, Position, Record, StoredPosition, Value};
use bango::search::alphabeta::{Context, Params, SearchResult, Worker};
use bango::search::known::KnownPositions;
use bango::search::timeman::Plan;
use bango::search::tt::TranspositionTable;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::atomic::AtomicBool;

/// Positions stored in the benchmark's database.
const STORED_POSITIONS: usize = 100_000;

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

/// A database file of random positions with the root's stone count and up to 39 more, each
/// with a searched value, opened and read as the session does.
fn database_of(board: &Board) -> KnownPositions {
    let path = std::env::temp_dir().join(format!("bango-bench-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let db = Database::open(&path, Mode::ReadWrite).expect("a temporary database");
    let mut rng = SplitMix64::new(47);
    let items = (0..STORED_POSITIONS).map(|i| {
        let stones = board.stone_count() + i % 40;
        let mut b = Board::new(15);
        while b.stone_count() < stones {
            let p = Pos::new(rng.below(15) as usize, rng.below(15) as usize);
            let _ = b.play(p);
        }
        StoredPosition {
            position: Position::of_board(&b, Rule::Freestyle),
            record: Record {
                value: Some(Value::Score {
                    score: 0,
                    depth: 20,
                }),
                ..Record::default()
            },
        }
    });
    db.import(items).expect("imported");
    let k = known::known_positions(&db, Rule::Freestyle, 15).expect("read back");
    drop(db);
    let _ = std::fs::remove_file(&path);
    k
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
