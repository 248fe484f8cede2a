//! The SPSA tuner: convergence on a noisy synthetic objective with a known optimum, exact
//! repetition from a seed, the parameters file's errors, and one tiny real run through the
//! arena with the brain binary.

use bango::front::arena::{GameConfig, Openings};
use bango::front::tune::{parse_specs, tune, ArenaObjective, ParamSpec, Spsa, SpsaOptions, Step};
use bango::game::rng::SplitMix64;
use std::path::PathBuf;
use std::process::Command;

/// Two declared tunables, one integer and one real, started far from the optimum below.
const SPECS: &str = "\
# synthetic test parameters
BANGO_TUNE_ASPIRATION_DELTA start=100 c=40 min=50 max=2000
BANGO_TUNE_LMR_DIVISOR start=0.6 c=0.2 min=0.3 max=4   # a real one
";

/// The synthetic optimum, inside the bounds.
const OPTIMUM: [f64; 2] = [800.0, 2.5];

/// Distance to the optimum in units of each parameter's `c`.
fn distance(specs: &[ParamSpec], theta: &[f64]) -> f64 {
    specs
        .iter()
        .zip(theta)
        .zip(OPTIMUM)
        .map(|((s, t), o)| ((t - o) / s.c).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// A game-like objective: the + side's score over the − side's in [-1, 1] from a concave
/// quadratic, plus uniform noise (standard deviation about 0.29) from a seeded generator.
fn noisy_objective(seed: u64) -> impl FnMut(&[f64], &[f64]) -> Result<f64, String> {
    let specs = parse_specs(SPECS).unwrap();
    let mut noise = SplitMix64::new(seed);
    move |plus, minus| {
        let f = |v: &[f64]| -distance(&specs, v).powi(2);
        let u = (noise.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        Ok((0.05 * (f(plus) - f(minus))).tanh() + (u - 0.5))
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-tune-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn options(seed: u64) -> SpsaOptions {
    SpsaOptions {
        iterations: 300,
        a: 4.0,
        big_a: 30.0,
        seed,
    }
}

#[test]
fn spsa_moves_a_noisy_quadratic_toward_its_optimum() {
    for seed in 1..=4 {
        let specs = parse_specs(SPECS).unwrap();
        let start: Vec<f64> = specs.iter().map(|s| s.start).collect();
        let before = distance(&specs, &start);
        let mut spsa = Spsa::new(specs.clone(), options(seed));
        let mut objective = noisy_objective(seed + 100);
        for _ in 0..300 {
            spsa.step(&mut objective).unwrap();
        }
        let after = distance(&specs, spsa.theta());
        assert!(
            after < before / 5.0,
            "seed {seed}: distance {before:.2} -> {after:.2}, theta {:?}",
            spsa.theta()
        );
        // θ stays within the bounds throughout (checked at the end here).
        for (s, t) in specs.iter().zip(spsa.theta()) {
            assert!((s.min..=s.max).contains(t), "{} = {t}", s.name);
        }
    }
}

/// A whole run to a values file: its trajectory and the file's text.
fn run_to_file(seed: u64, noise_seed: u64, name: &str) -> (Vec<Step>, String) {
    let out = temp(name).join("values.env");
    let mut spsa = Spsa::new(
        parse_specs(SPECS).unwrap(),
        SpsaOptions {
            iterations: 50,
            ..options(seed)
        },
    );
    let mut steps = Vec::new();
    tune(
        &mut spsa,
        &mut noisy_objective(noise_seed),
        &out,
        &["test run".to_string()],
        &mut |s| steps.push(s.clone()),
    )
    .unwrap();
    (steps, std::fs::read_to_string(out).unwrap())
}

#[test]
fn a_seeded_run_repeats_exactly() {
    let (a, file_a) = run_to_file(7, 8, "repeat-a");
    let (b, file_b) = run_to_file(7, 8, "repeat-b");
    assert_eq!(a.len(), 50);
    // Bit for bit: compare the f64s' bits, not approximately.
    let bits = |s: &[Step]| -> Vec<Vec<u64>> {
        s.iter()
            .map(|s| s.theta.iter().map(|t| t.to_bits()).collect())
            .collect()
    };
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a, b);
    assert_eq!(file_a, file_b);
    assert!(
        file_a.starts_with("# test run\n# iterations done: 50\n"),
        "{file_a}"
    );
    // Another perturbation seed takes another path (the seed is used).
    let (c, _) = run_to_file(9, 8, "repeat-c");
    assert_ne!(bits(&a), bits(&c));
}

#[test]
fn the_values_file_holds_playable_values() {
    let (steps, file) = run_to_file(3, 4, "values");
    let last = &steps.last().unwrap().theta;
    let lines: Vec<&str> = file.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{file}");
    let delta: i64 = lines[0]
        .strip_prefix("BANGO_TUNE_ASPIRATION_DELTA=")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(delta, last[0].round() as i64);
    let divisor: f64 = lines[1]
        .strip_prefix("BANGO_TUNE_LMR_DIVISOR=")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(divisor, last[1]);
}

#[test]
fn the_parser_reads_specs_and_types() {
    let specs = parse_specs(SPECS).unwrap();
    assert_eq!(specs.len(), 2);
    assert_eq!(
        specs[0],
        ParamSpec {
            name: "BANGO_TUNE_ASPIRATION_DELTA".into(),
            start: 100.0,
            c: 40.0,
            min: 50.0,
            max: 2000.0,
            integer: true,
        }
    );
    assert!(!specs[1].integer);
    assert_eq!(specs[0].format(123.6), "124");
    assert_eq!(specs[0].format(1.0e9), "2000");
}

#[test]
fn the_parser_rejects_bad_lines_and_names_them() {
    let cases = [
        (
            "BANGO_TUNE_NOPE start=1 c=1 min=0 max=2",
            "line 2",
            "not a declared tunable",
        ),
        // A declared setting that is not a tunable is refused too.
        (
            "BANGO_LMR start=1 c=1 min=0 max=2",
            "line 2",
            "not a declared tunable",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=10 c=40 min=50 max=2000",
            "line 2",
            "outside",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=400 c=40 min=50",
            "line 2",
            "missing max=",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start400 c=40 min=50 max=99",
            "line 2",
            "not key=value",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=x c=40 min=50 max=99",
            "line 2",
            "not a number",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=60 c=40 min=50 max=99 d=1",
            "line 2",
            "unknown key",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=60 c=0 min=50 max=99",
            "line 2",
            "positive",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=60 c=4 min=99 max=50",
            "line 2",
            "not below",
        ),
        (
            "BANGO_TUNE_ASPIRATION_DELTA start=60 c=4 min=50.5 max=99",
            "line 2",
            "whole numbers",
        ),
        // An unsigned setting cannot go below 0.
        (
            "BANGO_TUNE_LMR_MIN_INDEX start=1 c=1 min=-2 max=5",
            "line 2",
            "not a value it takes",
        ),
    ];
    for (line, at, what) in cases {
        let text = format!("# header\n{line}\n");
        let e = parse_specs(&text).unwrap_err();
        assert!(e.contains(at) && e.contains(what), "{line}: {e}");
    }
    let twice = format!("{SPECS}BANGO_TUNE_LMR_DIVISOR start=1 c=1 min=0.5 max=2\n");
    let e = parse_specs(&twice).unwrap_err();
    assert!(e.contains("line 4") && e.contains("twice"), "{e}");
    assert!(parse_specs("# nothing\n\n")
        .unwrap_err()
        .contains("no parameters"));
}

/// One iteration of two games at 200 nodes a move through the arena, with the brain binary.
#[test]
fn a_tiny_real_run_writes_a_values_file_within_bounds() {
    let dir = temp("real");
    let params = dir.join("params.txt");
    std::fs::write(&params, SPECS).unwrap();
    let out = dir.join("tuned.env");
    let bin = env!("CARGO_BIN_EXE_pbrain-bango");
    let run = Command::new(bin)
        .args(["tune", "--params"])
        .arg(&params)
        .args([
            "--iterations",
            "1",
            "--games",
            "2",
            "--nodes",
            "200",
            "--seed",
            "5",
        ])
        .arg("--out")
        .arg(&out)
        .args(["--engine", bin, "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("iteration 1: score"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# iterations done: 1\n"), "{text}");
    let specs = parse_specs(SPECS).unwrap();
    let values: Vec<(&str, f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap();
            (k, v.parse().unwrap())
        })
        .collect();
    assert_eq!(values.len(), specs.len(), "{text}");
    for (s, (k, v)) in specs.iter().zip(values) {
        assert_eq!(s.name, k);
        assert!((s.min..=s.max).contains(&v), "{k}={v}");
        if s.integer {
            assert_eq!(v.fract(), 0.0, "{k}={v}");
        }
    }
    // A bad parameters file is a clear usage error, not a panic.
    std::fs::write(&params, "BANGO_TUNE_NOPE start=1 c=1 min=0 max=2\n").unwrap();
    let bad = Command::new(bin)
        .args(["tune", "--iterations", "1", "--params"])
        .arg(&params)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1"));
}

#[test]
fn an_interrupted_run_keeps_its_last_theta() {
    let out = temp("interrupted").join("values.env");
    let mut spsa = Spsa::new(parse_specs(SPECS).unwrap(), options(11));
    let mut inner = noisy_objective(12);
    let mut calls = 0;
    let mut failing = |p: &[f64], m: &[f64]| {
        calls += 1;
        if calls == 3 {
            return Err("engine died".to_string());
        }
        inner(p, m)
    };
    let mut steps = Vec::new();
    let e = tune(&mut spsa, &mut failing, &out, &[], &mut |s| {
        steps.push(s.clone())
    })
    .unwrap_err();
    assert_eq!(e, "engine died");
    assert_eq!(steps.len(), 2);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# iterations done: 2\n"), "{text}");
    let specs = parse_specs(SPECS).unwrap();
    let want = format!(
        "BANGO_TUNE_ASPIRATION_DELTA={}\n",
        specs[0].format(steps[1].theta[0])
    );
    assert!(text.contains(&want), "{text}");
}

#[test]
fn the_arena_objective_runs_the_brain_with_each_sides_values() {
    let specs = parse_specs(SPECS).unwrap();
    let objective = ArenaObjective {
        engine: "/opt/it's here/pbrain-bango".into(),
        specs,
        game: GameConfig::default(),
        games: 4,
        openings: Openings::Random {
            stones: 3,
            radius: 3,
        },
        seed: 10,
        concurrency: 2,
        nodes: Some(500),
        calls: 3,
    };
    let m = objective.match_for(&[440.0, 1.25], &[360.0, 0.75]);
    assert_eq!(m.engines.len(), 2);
    let (plus, minus) = (&m.engines[0], &m.engines[1]);
    assert_eq!(
        plus.cmd,
        "env BANGO_TUNE_ASPIRATION_DELTA=440 BANGO_TUNE_LMR_DIVISOR=1.25 \
         '/opt/it'\\''s here/pbrain-bango'"
    );
    assert!(minus
        .cmd
        .starts_with("env BANGO_TUNE_ASPIRATION_DELTA=360 BANGO_TUNE_LMR_DIVISOR=0.75 "));
    assert_eq!(plus.info, vec!["max_node 500".to_string()]);
    assert_eq!(plus.threads, Some(1));
    // Each iteration sees new openings: the seed moves with the calls made.
    assert_eq!(m.seed, 13);
    assert_eq!((m.games, m.concurrency), (4, 2));
}
