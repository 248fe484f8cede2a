//! VCF and VCT solve times on fixed subsets of the shared puzzle files (every 97th VCF puzzle,
//! the hardest VCF puzzle — the 155-ply composed renju line at index 1954 —, a few quick VCT
//! puzzles for the old VCT search and the df-pn one). Before timing, each VCF subset and (under
//! `cargo bench` only) every 300th VCT puzzle and every third position of `benches/onset-vct.txt`
//! (df-pn) is solved once per puzzle and its solve rate, median and worst time per puzzle (and
//! the proof trees' sizes) are printed.
//! `cargo bench --bench vcf`.

use bango::game::notation::{parse_puzzles, Puzzle};
use bango::solver::{find_vct_dfpn, Budget, DfpnSolver, Proof, VcfSolver, VctProof};
use bango_testkit::data_dir;
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};

fn load(name: &str) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(data_dir().join(name)).expect("shared data");
    parse_puzzles(&text).expect("puzzle file parses")
}

/// The project's own freestyle VCT positions from decisive self-play games
/// (`benches/onset-vct.txt`: long VCTs, the ones that decide games).
fn onset_positions() -> Vec<Puzzle> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/onset-vct.txt");
    let text = std::fs::read_to_string(path).expect("benches/onset-vct.txt");
    parse_puzzles(&text).expect("onset file parses")
}

/// Solves each puzzle once (1 s budget) and prints the solve rate and per-puzzle times.
fn per_puzzle(name: &str, subset: &[Puzzle]) {
    let mut solver = VcfSolver::new();
    let mut times = Vec::new();
    let mut wins = 0;
    for p in subset {
        let mut b = p.board().unwrap();
        solver.clear();
        let start = Instant::now();
        let budget = Budget::until(start + Duration::from_secs(1));
        if matches!(solver.solve(&mut b, p.rule, p.side, &budget), Proof::Win(_)) {
            wins += 1;
        }
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "{name}: solved {wins}/{}, per puzzle median {:.2} ms, worst {:.2} ms",
        subset.len(),
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}

fn bench_vcf(c: &mut Criterion) {
    let all = load("puzzles-vcf.txt");
    let subset: Vec<Puzzle> = all.iter().step_by(97).cloned().collect();
    per_puzzle("vcf_every_97th", &subset);
    let hardest = vec![all[1954].clone()];
    per_puzzle("vcf_hardest", &hardest);
    let mut solver = VcfSolver::new();
    c.bench_function("vcf_every_97th", |bench| {
        bench.iter(|| {
            let mut wins = 0;
            for p in &subset {
                let mut b = p.board().unwrap();
                solver.clear();
                let budget = Budget::until(Instant::now() + Duration::from_secs(1));
                if matches!(solver.solve(&mut b, p.rule, p.side, &budget), Proof::Win(_)) {
                    wins += 1;
                }
            }
            wins
        })
    });
    let mut group = c.benchmark_group("vcf_hard");
    group.sample_size(10);
    group.bench_function("vcf_hardest", |bench| {
        bench.iter(|| {
            let p = &hardest[0];
            let mut b = p.board().unwrap();
            solver.clear();
            let budget = Budget::until(Instant::now() + Duration::from_secs(10));
            matches!(solver.solve(&mut b, p.rule, p.side, &budget), Proof::Win(_))
        })
    });
    group.finish();
}

fn bench_vct(c: &mut Criterion) {
    let all = load("puzzles-vct.txt");
    let subset: Vec<&Puzzle> = [500, 600, 800, 900].iter().map(|&i| &all[i]).collect();
    let mut group = c.benchmark_group("vct");
    group.sample_size(10);
    group.bench_function("vct_quick4", |bench| {
        bench.iter(|| {
            let mut wins = 0;
            for p in &subset {
                let mut b = p.board().unwrap();
                let budget = Budget::until(Instant::now() + Duration::from_secs(5));
                if matches!(
                    find_vct_dfpn(&mut b, p.rule, p.side, &budget),
                    VctProof::Win(_)
                ) {
                    wins += 1;
                }
            }
            wins
        })
    });
    // The df-pn search (the one `solve --vct` and the brain use) on the same puzzles and on
    // every 300th VCT puzzle; the solve rate, median and worst time are printed first.
    // Only under `cargo bench` (which passes --bench): the test suite runs this target too,
    // and these dozen solves take seconds.
    if std::env::args().any(|a| a == "--bench") {
        let stride: Vec<&Puzzle> = all.iter().step_by(300).collect();
        dfpn_per_puzzle("vct_dfpn_every_300th", &stride);
        let onset = onset_positions();
        let every_third: Vec<&Puzzle> = onset.iter().step_by(3).collect();
        dfpn_per_puzzle("vct_dfpn_onset_every_3rd", &every_third);
    }
    group.bench_function("vct_dfpn_quick4", |bench| {
        bench.iter(|| {
            let mut wins = 0;
            for p in &subset {
                let mut b = p.board().unwrap();
                let budget = Budget::until(Instant::now() + Duration::from_secs(5));
                let mut s = DfpnSolver::default();
                if matches!(s.solve(&mut b, p.rule, p.side, &budget), VctProof::Win(_)) {
                    wins += 1;
                }
            }
            wins
        })
    });
    group.finish();
}

/// Solves each VCT puzzle once with df-pn (1 s budget) and prints the solve rate, the
/// per-puzzle times and the proof trees' sizes (attacker moves).
fn dfpn_per_puzzle(name: &str, subset: &[&Puzzle]) {
    let (mut times, mut sizes) = (Vec::new(), Vec::new());
    for p in subset {
        let mut b = p.board().unwrap();
        let start = Instant::now();
        let budget = Budget::until(start + Duration::from_secs(1));
        if let VctProof::Win(t) = DfpnSolver::default().solve(&mut b, p.rule, p.side, &budget) {
            sizes.push(t.attack_count());
        }
        times.push(start.elapsed());
    }
    times.sort();
    sizes.sort_unstable();
    println!(
        "{name}: solved {}/{}, per puzzle median {:.2} ms, worst {:.2} ms; \
         proof trees median {} attacker moves, largest {}",
        sizes.len(),
        subset.len(),
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        sizes.get(sizes.len() / 2).copied().unwrap_or(0),
        sizes.last().copied().unwrap_or(0)
    );
}

criterion_group!(benches, bench_vcf, bench_vct);
criterion_main!(benches);
