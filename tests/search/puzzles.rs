//! Puzzle suites from the shared data, searched by the alpha-beta engine at a fixed node budget
//! (so the result does not depend on the machine).
//!
//! Quick mode checks a small sample on every run; the full sample is `#[ignore]`d:
//! `cargo test --release --test search puzzles:: -- --ignored --nocapture`.

use bango::game::notation::Puzzle;
use bango::search::alphabeta::{Context, Params, SearchResult, Worker, WIN_MIN};
use bango::search::timeman::Plan;
use bango::search::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

fn load(file: &str, rule: &str, every: usize, n: usize) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(bango_testkit::data_dir().join(file)).expect("shared data");
    text.lines()
        .filter(|l| l.split_whitespace().nth(1) == Some(rule))
        .step_by(every)
        .take(n)
        .map(|l| Puzzle::parse(l).unwrap().unwrap())
        .collect()
}

/// Searches one puzzle with a fresh 4 MiB table and a fresh worker, under `plan` (caps only).
fn search(p: &Puzzle, plan: Plan, params: Params) -> SearchResult {
    search_in(p, plan, params, 4 << 20)
}

/// [`search`] with a fresh table of `table_bytes` (a depth-1 search needs little, and clearing
/// 4 MiB per puzzle would cost more than the search).
fn search_in(p: &Puzzle, plan: Plan, params: Params, table_bytes: usize) -> SearchResult {
    let stop = AtomicBool::new(false);
    let tt = TranspositionTable::new(table_bytes);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        plan,
        known: None,
    };
    let b = p.board().unwrap();
    Worker::new(0, params).search(&ctx, &b, p.rule)
}

/// Searches each puzzle with `nodes` nodes; returns (solved, proven wins, total).
fn solve(puzzles: &[Puzzle], nodes: u64) -> (usize, usize, usize) {
    let (mut solved, mut proven) = (0, 0);
    for p in puzzles {
        let r = search(p, Plan::nodes(nodes), Params::default());
        solved += p.answers.contains(&r.best) as usize;
        proven += (r.score >= WIN_MIN) as usize;
    }
    (solved, proven, puzzles.len())
}

#[test]
fn blocks_the_four_in_block_puzzles() {
    for rule in ["freestyle", "standard", "renju"] {
        let ps = load("puzzles-block.txt", rule, 97, 6);
        let (solved, _, n) = solve(&ps, 20_000);
        assert_eq!(solved, n, "{rule}");
    }
}

#[test]
fn finds_vcf_wins_on_a_sample() {
    let ps = load("puzzles-vcf.txt", "freestyle", 173, 10);
    let (_, proven, n) = solve(&ps, 100_000);
    println!("vcf sample: proven {proven}/{n}");
    assert!(proven * 2 >= n, "proven {proven}/{n}");
}

#[test]
#[ignore]
fn vcf_suite_report() {
    for rule in ["freestyle", "standard", "renju"] {
        let ps = load("puzzles-vcf.txt", rule, 23, 50);
        let (solved, proven, n) = solve(&ps, 200_000);
        println!("{rule}: first move among the answers {solved}/{n}, win proven {proven}/{n}");
    }
}

/// The quiescence's last own four must be a four-three, make a point of two fours, or be blocked
/// where the block makes a four: any other four there is blocked and then only stood on, so it
/// can prove nothing (under freestyle and standard, where the rule applies). At depth 1 (where
/// every win is proved by the quiescence), the rule proves exactly the puzzles that playing every
/// last four proves, with the same first moves and distances, and searches fewer nodes. (Over
/// all of the freestyle and standard VCF puzzles, at depth 1 and 2 alike, it lost no proof.)
#[test]
fn the_last_quiescence_four_is_pruned_only_where_it_cannot_win() {
    let mut puzzles = load("puzzles-vcf.txt", "freestyle", 7, 300);
    puzzles.extend(load("puzzles-vcf.txt", "standard", 7, 300));
    let renju = load("puzzles-vcf.txt", "renju", 7, 300);
    let run = |puzzles: &[Puzzle], last_four_three: bool| {
        let (mut nodes, mut proofs) = (0, Vec::new());
        for p in puzzles {
            let plan = Plan::depth(1);
            let params = Params {
                qsearch_prune_last_four: last_four_three,
                ..Params::default()
            };
            let r = search_in(p, plan, params, 256 << 10);
            nodes += r.nodes;
            if r.score >= WIN_MIN {
                proofs.push((p.board().unwrap().stone_count(), r.best, r.score));
            }
        }
        (nodes, proofs)
    };
    let (nodes_on, proofs_on) = run(&puzzles, true);
    let (nodes_off, proofs_off) = run(&puzzles, false);
    println!(
        "depth 1: {} proofs; nodes {nodes_on} with the rule, {nodes_off} without",
        proofs_on.len()
    );
    assert!(!proofs_on.is_empty());
    assert_eq!(proofs_on, proofs_off);
    assert!(nodes_on < nodes_off, "{nodes_on} against {nodes_off}");
    // Under renju a four whose block is forbidden wins, so the rule stays out of it.
    assert_eq!(run(&renju, true), run(&renju, false));
}

/// The forced-reply extensions (`BANGO_EXTEND_BLOCKS`, `BANGO_EXTEND_DEFENCES`) make a threat
/// sequence cost the search only its attacking moves: at the same nominal depth the search with
/// them proves wins by threes and fours that it cannot see without them, and every win it
/// proved without them it still proves.
#[test]
fn forced_reply_extensions_prove_vcts_at_a_lower_depth() {
    let puzzles = load("puzzles-vct.txt", "renju", 71, 50);
    let depth = 3;
    let proofs = |extend: bool| -> Vec<bool> {
        puzzles
            .iter()
            .map(|p| {
                let params = Params {
                    extend_blocks: extend,
                    extend_defences: extend,
                    ..Params::default()
                };
                search_in(p, Plan::depth(depth), params, 1 << 20).score >= WIN_MIN
            })
            .collect()
    };
    let (on, off) = (proofs(true), proofs(false));
    let count = |v: &[bool]| v.iter().filter(|&&w| w).count();
    println!(
        "depth {depth}: {} of {} proved with the extensions, {} without",
        count(&on),
        puzzles.len(),
        count(&off)
    );
    assert!(
        on.iter().zip(&off).all(|(&a, &b)| a || !b),
        "a proof was lost"
    );
    assert!(
        count(&on) >= count(&off) + 5,
        "{} against {}",
        count(&on),
        count(&off)
    );
}

/// With [`Params::qsearch_vcf`], the quiescence plays a connected line of fours to its end:
/// at depth 1 it proves nearly every freestyle and standard VCF puzzle of the sample (which
/// the two-four default mostly cannot), and with the quiescence table on as well.
#[test]
fn the_connected_vcf_quiescence_proves_vcfs_at_depth_one() {
    let mut puzzles = load("puzzles-vcf.txt", "freestyle", 7, 150);
    puzzles.extend(load("puzzles-vcf.txt", "standard", 7, 150));
    let proofs = |qsearch_vcf: bool, qsearch_tt: bool| {
        let params = Params {
            qsearch_vcf,
            qsearch_tt,
            ..Params::default()
        };
        puzzles
            .iter()
            .filter(|p| search_in(p, Plan::depth(1), params, 256 << 10).score >= WIN_MIN)
            .count()
    };
    let (default, vcf, vcf_tt) = (
        proofs(false, false),
        proofs(true, false),
        proofs(true, true),
    );
    let n = puzzles.len();
    println!("depth 1, {n} VCF puzzles: {default} proved by default, {vcf} with the VCF, {vcf_tt} with its table");
    assert!(vcf * 10 >= n * 9, "{vcf}/{n}");
    assert!(vcf_tt * 10 >= n * 9, "{vcf_tt}/{n}");
    assert!(vcf >= default + n / 4, "{vcf} against {default}");
}
