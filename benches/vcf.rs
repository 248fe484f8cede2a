//! VCF and VCT solve times on fixed subsets of the shared puzzle files (every 97th VCF puzzle,
//! a few quick VCT puzzles). `cargo bench --bench vcf`.

use bango::notation::{data_dir, parse_puzzles, Puzzle};
use bango::vcf::{Budget, Proof, VcfSolver, VctOptions, VctProof, VctSolver};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};

fn load(name: &str) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(data_dir().join(name)).expect("shared data");
    parse_puzzles(&text).expect("puzzle file parses")
}

fn bench_vcf(c: &mut Criterion) {
    let subset: Vec<Puzzle> = load("puzzles-vcf.txt").into_iter().step_by(97).collect();
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
                let mut s = VctSolver::new(VctOptions::default());
                if matches!(s.solve(&mut b, p.rule, p.side, &budget), VctProof::Win(_)) {
                    wins += 1;
                }
            }
            wins
        })
    });
    group.finish();
}

criterion_group!(benches, bench_vcf, bench_vct);
criterion_main!(benches);
