//! Lazy SMP: one worker is the plain search bit for bit; N workers answer forced positions like
//! one; a panicking worker leaves the answer to what completed; the engine prints one line per
//! new depth and a summary with nodes summed over workers.

use bango::engine::algo::alphabeta::AlphaBeta;
use bango::engine::algo::{Algorithm, Analysis, Request};
use bango::engine::config::Config;
use bango::game::board::{Board, Color, Pos};
use bango::game::notation;
use bango::game::rules::Rule;
use bango::search::alphabeta::{
    Context, Params, Progress, Report, SearchResult, Worker, WIN, WIN_MIN,
};
use bango::search::busy::BusyMoves;
use bango::search::smp::{Job, LazySmp, SmpResult};
use bango::search::timeman::Limits;
use bango::search::timeman::Plan;
use bango::search::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use bango_testkit::positions::{BLOCK_FOUR, FIVE_IN_ONE, FOUR_THREE};

fn board(pic: &str, to_move: Color) -> Board {
    let mut b = Board::from_picture(pic).unwrap();
    b.set_side_to_move(to_move);
    b
}

fn midgame(n: usize) -> Vec<Board> {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join("positions-midgame-15.txt"))
        .expect("midgame positions");
    notation::parse_puzzles(&text).unwrap()[..n]
        .iter()
        .map(|p| p.board().unwrap())
        .collect()
}

fn caps(depth: u32) -> Plan {
    Plan::depth(depth)
}

/// A lazy SMP search with `threads` workers on a fresh table of `bytes`; returns the result
/// and the output lines.
fn smp_search(
    smp: &mut LazySmp,
    b: &Board,
    rule: Rule,
    plan: Plan,
    bytes: usize,
) -> (SmpResult, Vec<String>) {
    let tt = TranspositionTable::new(bytes);
    let stop = AtomicBool::new(false);
    let lines = Mutex::new(Vec::new());
    let report = |r: Report<'_>| {
        if let Some(l) = r.log_line(true) {
            lines.lock().unwrap().push(l);
        }
    };
    let job = Job {
        board: b,
        rule,
        plan,
        stop: &stop,
        report: &report,
        known: None,
    };
    let r = smp.search(&tt, &job);
    (r, lines.into_inner().unwrap())
}

fn plain_search(b: &Board, rule: Rule, plan: Plan, bytes: usize) -> (SearchResult, Vec<String>) {
    worker_search(Worker::new(0, Params::default()), b, rule, plan, bytes)
}

/// `worker`'s search on a fresh table of `bytes`, no clock; returns the result and the lines.
fn worker_search(
    mut worker: Worker,
    b: &Board,
    rule: Rule,
    plan: Plan,
    bytes: usize,
) -> (SearchResult, Vec<String>) {
    let tt = TranspositionTable::new(bytes);
    let stop = AtomicBool::new(false);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        plan,
        known: None,
    };
    let log = IterationLog(Mutex::new(Vec::new()), std::time::Instant::now());
    let r = worker.search_with(&ctx, b, rule, &log);
    (r, log.0.into_inner().unwrap())
}

/// A single worker's iterations as log lines, as the lazy SMP search reports them.
struct IterationLog(Mutex<Vec<String>>, std::time::Instant);

impl Progress for IterationLog {
    fn iteration(&self, result: &SearchResult) {
        let r = Report::Iteration {
            result,
            nodes: result.nodes,
            elapsed: self.1.elapsed(),
        };
        self.0.lock().unwrap().extend(r.log_line(true));
    }

    fn nodes(&self, _: u64) {}
}

/// Drops the clock-dependent fields (nps, time) of progress lines.
fn strip(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let mut keep = Vec::new();
            let mut i = 0;
            while i < w.len() {
                if w[i] == "nps" || w[i] == "time" {
                    i += 2;
                } else {
                    keep.push(w[i]);
                    i += 1;
                }
            }
            keep.join(" ")
        })
        .collect()
}

#[test]
fn one_worker_is_the_plain_search_and_repeats_its_node_count() {
    for (i, b) in midgame(3).iter().enumerate() {
        let (plain, plain_lines) = plain_search(b, Rule::Freestyle, caps(6), 1 << 20);
        let (a, a_lines) = smp_search(
            &mut LazySmp::new(1, Params::default()),
            b,
            Rule::Freestyle,
            caps(6),
            1 << 20,
        );
        let (c, _) = smp_search(
            &mut LazySmp::new(1, Params::default()),
            b,
            Rule::Freestyle,
            caps(6),
            1 << 20,
        );
        assert_eq!(a.result, plain, "position {i}");
        assert_eq!(
            c.result, a.result,
            "position {i}: nodes differ between runs"
        );
        assert_eq!(strip(&a_lines), strip(&plain_lines), "position {i}");
        assert_eq!((a.worker, a.panicked.len()), (0, 0));
        assert!(a.result.nodes > 1000 && a.result.depth == 6);
    }
    // Node caps are honoured identically too.
    let b = &midgame(1)[0];
    let capped = Plan::nodes(20_000);
    let (plain, _) = plain_search(b, Rule::Renju, capped, 1 << 20);
    let (a, _) = smp_search(
        &mut LazySmp::new(1, Params::default()),
        b,
        Rule::Renju,
        capped,
        1 << 20,
    );
    assert_eq!(a.result, plain);
}

/// A helper's tunables (`BANGO_TUNE_HELPER_*`) never reach the first worker: one worker with a
/// wider helper cap searches bit for bit as the plain search, where the same cap given to the
/// first worker (`max_quiet_moves`) changes its node count at this depth.
#[test]
fn helper_tunables_leave_the_one_worker_search_alone() {
    let wide_helpers = Params {
        helper_max_quiet_moves: 20,
        ..Params::default()
    };
    let wide_everywhere = Params {
        max_quiet_moves: 20,
        ..Params::default()
    };
    let mut changed = 0;
    for (i, b) in midgame(3).iter().enumerate() {
        let (plain, _) = plain_search(b, Rule::Freestyle, caps(8), 1 << 20);
        let (helpers, _) = smp_search(
            &mut LazySmp::new(1, wide_helpers),
            b,
            Rule::Freestyle,
            caps(8),
            1 << 20,
        );
        assert_eq!(helpers.result, plain, "position {i}");
        let (everywhere, _) = worker_search(
            Worker::new(0, wide_everywhere),
            b,
            Rule::Freestyle,
            caps(8),
            1 << 20,
        );
        changed += usize::from(everywhere.nodes != plain.nodes);
    }
    assert!(changed > 0, "the cap itself changes the search at depth 8");
}

#[test]
fn every_worker_count_answers_forced_positions_like_one_worker() {
    let five = board(FIVE_IN_ONE, Color::Black);
    let block = board(BLOCK_FOUR, Color::White);
    let win = board(FOUR_THREE, Color::White);
    let (one_win, _) = smp_search(
        &mut LazySmp::new(1, Params::default()),
        &win,
        Rule::Freestyle,
        caps(7),
        64 << 10,
    );
    assert!(one_win.result.score >= WIN_MIN, "{:?}", one_win.result);
    for n in 1..=8 {
        let mut smp = LazySmp::new(n, Params::default());
        for depth in [1, 5] {
            let (r, _) = smp_search(&mut smp, &five, Rule::Freestyle, caps(depth), 64 << 10);
            assert_eq!(r.result.best, Pos::new(2, 3), "n={n} depth {depth}");
            assert_eq!(r.result.score, WIN - 1);
            let (r, _) = smp_search(&mut smp, &block, Rule::Freestyle, caps(depth), 64 << 10);
            assert_eq!(r.result.best, Pos::new(7, 3), "n={n} depth {depth}");
        }
        let (r, _) = smp_search(&mut smp, &win, Rule::Freestyle, caps(7), 64 << 10);
        assert_eq!(
            r.result.score, one_win.result.score,
            "n={n}: {:?}",
            r.result
        );
        assert!(win.is_empty_at(r.result.best));
        assert_eq!(r.per_worker.len(), n);
        let summed: u64 = r.per_worker.iter().flatten().map(|w| w.nodes).sum();
        assert_eq!(
            r.result.nodes, summed,
            "n={n}: nodes are summed over workers"
        );
    }
}

#[test]
fn several_workers_reach_the_depth_cap_and_stay_within_the_node_cap() {
    let b = &midgame(2)[1];
    let mut smp = LazySmp::new(3, Params::default());
    let (r, lines) = smp_search(&mut smp, b, Rule::Freestyle, caps(5), 1 << 20);
    assert_eq!(r.result.depth, 5);
    assert!(b.is_empty_at(r.result.best));
    assert_eq!(r.per_worker[r.worker].as_ref().unwrap().best, r.result.best);
    // Lines only for new deepest iterations (a depth two workers finish at once may be
    // skipped), then the summary.
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("depth "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(
        depths.first() == Some(&1)
            && depths.last() == Some(&5)
            && depths.windows(2).all(|w| w[0] < w[1]),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("smp workers 3 depth 5 ")
            && last.contains(&format!(" nodes {} ", r.result.nodes)),
        "{last}"
    );
    let capped = Plan::nodes(30_000);
    let (r, _) = smp_search(&mut smp, b, Rule::Freestyle, capped, 1 << 20);
    assert!(r.result.nodes <= 30_000, "{}", r.result.nodes);
    assert!(r.result.depth >= 2, "{:?}", r.result);
}

#[cfg(feature = "experiments")]
#[test]
fn a_panicking_worker_leaves_the_answer_to_what_completed() {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let b = &midgame(1)[0];
    // One worker failing after depth 3: exactly the depth-3 search.
    let mut smp = LazySmp::new(1, Params::default());
    smp.inject_panic(0, 3);
    let (r, _) = smp_search(&mut smp, b, Rule::Freestyle, caps(6), 1 << 20);
    let (plain, _) = plain_search(b, Rule::Freestyle, caps(3), 1 << 20);
    assert_eq!(r.panicked, vec![0]);
    assert_eq!(r.result, plain);
    // A helper failing early stops everyone; the answer is what completed, never the helper's
    // unfinished work.
    let mut smp = LazySmp::new(3, Params::default());
    smp.inject_panic(1, 1);
    let (r, _) = smp_search(&mut smp, b, Rule::Freestyle, caps(60), 1 << 20);
    std::panic::set_hook(prev);
    assert_eq!(r.panicked, vec![1]);
    assert!(b.is_empty_at(r.result.best));
    assert!(r.result.depth >= 1);
    let chosen = r.per_worker[r.worker].as_ref().unwrap();
    assert_eq!((chosen.best, chosen.depth), (r.result.best, r.result.depth));
    assert!(
        r.result.depth < 60,
        "the panic must have stopped the unbounded search"
    );
}

#[test]
fn the_engine_runs_the_threads_the_settings_ask_for() {
    let b = &midgame(2)[1];
    let mut config = Config::default();
    config.brain.threads = 2;
    config.brain.hash_kib = 1024;
    let mut engine = AlphaBeta::with_table(&Config::default(), 1 << 20);
    engine.new_game(15, &config);
    assert_eq!(engine.smp_mut().threads(), 2);
    let stop = AtomicBool::new(false);
    let lines = Mutex::new(Vec::new());
    let report = |r: Report<'_>| lines.lock().unwrap().extend(r.log_line(true));
    let req = Request {
        board: b,
        rule: Rule::Freestyle,
        limits: Limits::depth(4),
        config: &config,
        stop: &stop,
        output: &|_| {},
        report: &report,
        analysis: &Analysis::default(),
    };
    let m = engine.think(&req);
    assert!(b.is_empty_at(m));
    let lines = lines.into_inner().unwrap();
    let last = lines.last().unwrap();
    assert!(last.starts_with("smp workers 2 depth 4 "), "{lines:?}");
    assert!(last.contains(&format!(" pv {m}")), "{last}");
}

/// Busy-move marks change only the order in which a worker visits moves that *another* worker
/// is searching. A worker alone with the marks never defers its own moves (a position never
/// recurs below itself, stones only being added), so it searches exactly as without them: same
/// move, score, nodes and lines.
#[test]
fn a_worker_alone_with_busy_marks_is_the_plain_search() {
    for b in midgame(3) {
        let (plain, plain_lines) = plain_search(&b, Rule::Freestyle, caps(6), 1 << 20);
        let mut worker = Worker::new(0, Params::default());
        worker.set_busy(Some(std::sync::Arc::new(BusyMoves::new())));
        let (marked, marked_lines) = worker_search(worker, &b, Rule::Freestyle, caps(6), 1 << 20);
        assert_eq!(marked, plain);
        assert_eq!(strip(&marked_lines), strip(&plain_lines));
    }
}

/// A move marked busy by another worker is put off, not dropped. With only the value-preserving
/// features on, the move order cannot change the score at a fixed depth; so with every other
/// cell marked along the first plies of the principal variation (which reorders those nodes'
/// moves and changes the node count), the score must stay the same.
#[test]
fn busy_moves_are_put_off_not_dropped() {
    let busy = std::sync::Arc::new(BusyMoves::new());
    let mut reordered = 0;
    for b in midgame(3) {
        let search = |busy: Option<std::sync::Arc<BusyMoves>>| {
            let mut worker = Worker::new(0, Params::exact());
            worker.set_busy(busy);
            worker_search(worker, &b, Rule::Freestyle, caps(5), 1 << 20).0
        };
        let plain = search(None);
        let mut p = bango::evaluation::position::Position::new(&b, Rule::Freestyle);
        let mut marks = Vec::new();
        for &m in plain.pv.iter().take(3) {
            for q in b.empty_cells().filter(|q| q.index() % 2 == 1) {
                marks.push(busy.mark(p.key(), q));
            }
            p.make(m);
        }
        let marked = search(Some(busy.clone()));
        assert_eq!(marked.score, plain.score);
        reordered += (marked.nodes != plain.nodes) as usize;
        for m in marks {
            busy.clear(m);
        }
    }
    assert!(reordered > 0, "the marks changed no node count");
}

/// The root splits too: a root move another worker is searching goes to the end of the root's
/// list, and is still searched. With every other cell and the plain search's best move marked
/// at the root only, the score at a fixed depth must stay the same while the node count
/// changes; and after the search, none of the worker's own root marks is left behind.
#[test]
fn busy_root_moves_are_put_off_not_dropped() {
    let mut reordered = 0;
    for b in midgame(3) {
        let busy = std::sync::Arc::new(BusyMoves::new());
        let search = |busy: Option<std::sync::Arc<BusyMoves>>| {
            let mut worker = Worker::new(0, Params::exact());
            worker.set_busy(busy);
            worker_search(worker, &b, Rule::Freestyle, caps(5), 1 << 20).0
        };
        let plain = search(None);
        let root = bango::evaluation::position::Position::new(&b, Rule::Freestyle).key();
        let marks: Vec<_> = b
            .empty_cells()
            .filter(|q| q.index() % 2 == 1 || *q == plain.best)
            .map(|q| busy.mark(root, q))
            .collect();
        let marked = search(Some(busy.clone()));
        assert_eq!(marked.score, plain.score);
        reordered += (marked.nodes != plain.nodes) as usize;
        for m in marks {
            busy.clear(m);
        }
        let left: Vec<_> = b.empty_cells().filter(|&q| busy.is_busy(root, q)).collect();
        assert!(left.is_empty(), "root marks left behind: {left:?}");
    }
    assert!(reordered > 0, "the root marks changed no node count");
}
