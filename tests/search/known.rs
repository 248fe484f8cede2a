//! Positions known beforehand (an analyst's database) read by the search: a stored value deep
//! in the tree changes the root's answer, a stored proven root is played without search, and
//! entries the search never meets change nothing.

use bango::engine::algo::alphabeta::{AlphaBeta, Source};
use bango::engine::algo::{Algorithm, Analysis, Request};
use bango::engine::config::Config;
use bango::game::board::{Board, Pos};
use bango::game::rules::Rule;
use bango::search::alphabeta::{Context, Params, SearchResult, Worker, WIN, WIN_MIN};
use bango::search::known::{Known, KnownPositions};
use bango::search::timeman::{Limits, Plan};
use bango::search::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A quiet opening position, black to move (six stones).
fn opening() -> Board {
    let mut b = Board::new(15);
    for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)] {
        b.play(Pos::new(x, y)).unwrap();
    }
    b
}

fn search(b: &Board, depth: u32, known: Option<&KnownPositions>) -> SearchResult {
    let tt = TranspositionTable::new(8 << 20);
    let stop = AtomicBool::new(false);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        plan: Plan::depth(depth),
        known,
    };
    Worker::new(0, Params::default()).search(&ctx, b, Rule::Freestyle)
}

fn after(b: &Board, moves: &[Pos]) -> Board {
    let mut b = b.clone();
    for &m in moves {
        b.play(m).unwrap();
    }
    b
}

/// A proven loss for the side to move, ten plies on.
fn proven_loss() -> Known {
    Known {
        score: -(WIN - 10),
        depth: Known::PROVEN_DEPTH,
        best: None,
    }
}

#[test]
fn a_proven_loss_two_plies_deep_turns_the_root_away_from_its_move() {
    let b = opening();
    let plain = search(&b, 4, None);
    assert!(plain.pv.len() >= 2, "pv {:?}", plain.pv);
    assert!(plain.score.abs() < WIN_MIN, "the opening is not decided");
    // Only the position after the best move and its best reply is stored: lost for the root's
    // side (to move there again).
    let deep = after(&b, &plain.pv[..2]);
    let mut known = KnownPositions::new();
    known.insert(deep.key(), deep.stone_count(), proven_loss());
    let informed = search(&b, 4, Some(&known));
    assert_ne!(
        informed.best, plain.pv[0],
        "the refuted move is still chosen"
    );
    assert!(informed.score.abs() < WIN_MIN, "score {}", informed.score);
}

#[test]
fn entries_the_search_never_meets_change_nothing() {
    let b = opening();
    let plain = search(&b, 4, None);
    let mut known = KnownPositions::new();
    // A stone count the search reaches, with a key it does not (the empty board's key under
    // another side to move), and a stone count it never reaches.
    known.insert(Board::new(15).key() ^ 1, b.stone_count() + 2, proven_loss());
    known.insert(Board::new(15).key(), 0, proven_loss());
    let informed = search(&b, 4, Some(&known));
    assert_eq!(
        (informed.best, informed.score, informed.nodes, informed.pv),
        (plain.best, plain.score, plain.nodes, plain.pv)
    );
}

fn decide(b: &Board, known: KnownPositions) -> (Pos, Source, Vec<String>) {
    let config = Config::default();
    let mut engine = AlphaBeta::with_table(&config, 2 << 20);
    engine.new_game(b.size(), &config);
    engine.set_known(Some(Arc::new(known)));
    let stop = AtomicBool::new(false);
    let lines = std::sync::Mutex::new(Vec::new());
    let output = |l: &str| lines.lock().unwrap().push(l.to_string());
    let req = Request {
        board: b,
        rule: Rule::Freestyle,
        limits: Limits::depth(3),
        config: &config,
        stop: &stop,
        output: &output,
        report: &|_| {},
        analysis: &Analysis::default(),
    };
    let d = engine.decide(&req);
    (d.pos, d.source, lines.into_inner().unwrap())
}

#[test]
fn a_stored_proven_root_is_played_without_search() {
    let b = opening();
    // A move the search would not choose at the root: the far corner.
    let corner = Pos::new(0, 0);
    let mut known = KnownPositions::new();
    let win = Known {
        score: WIN - 21,
        depth: Known::PROVEN_DEPTH,
        best: Some(corner),
    };
    known.insert(b.key(), b.stone_count(), win);
    let (mv, source, lines) = decide(&b, known);
    assert_eq!((mv, source), (corner, Source::Database));
    assert_eq!(
        lines,
        vec!["database: win 21 stored, playing 0,0".to_string()]
    );
}

#[test]
fn a_stored_move_that_is_not_legal_or_not_proven_is_searched_instead() {
    let b = opening();
    for known_entry in [
        // Occupied: the first stone.
        Known {
            score: WIN - 21,
            depth: Known::PROVEN_DEPTH,
            best: Some(Pos::new(7, 7)),
        },
        // Legal but only a searched value.
        Known {
            score: 300,
            depth: 30,
            best: Some(Pos::new(0, 0)),
        },
    ] {
        let mut known = KnownPositions::new();
        known.insert(b.key(), b.stone_count(), known_entry);
        let (mv, source, _) = decide(&b, known);
        assert!(matches!(source, Source::Search { .. }), "{source:?}");
        assert!(b.is_empty_at(mv));
    }
}
