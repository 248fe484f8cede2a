//! The farm: matches and self-play runs cut into shards, run as local processes and, when a
//! Slurm cluster answers (`.ci/run` brings up a single-node one with `.ci/slurm-up`), as a
//! Slurm job array, then merged. Every check compares what the shards made with what one
//! process makes: the same games, the same W-L-D, the same bytes.
//!
//! The games are bango against itself at a fixed node count a move (deterministic with one
//! thread), a few thousand nodes, so each test takes seconds.

mod local;
mod slurm;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The brain binary, by absolute path (batch jobs run elsewhere).
pub const BIN: &str = env!("CARGO_BIN_EXE_pbrain-bango");

/// An engine spec: bango at `nodes` a move.
pub fn engine(name: &str, nodes: u64, seed: u64) -> String {
    format!("name={name},info=max_node {nodes},cmd=env BANGO_SEED={seed} {BIN}")
}

/// A fresh, empty folder for one test.
pub fn fresh_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bango-farm-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary with `args`.
pub fn pb<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// Runs the binary with `args`, asserts it succeeded and returns its stdout.
pub fn pb_ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let out = pb(args);
    assert!(
        out.status.success(),
        "{:?} failed:\n{}{}",
        args.iter().map(|a| a.as_ref()).collect::<Vec<_>>(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `farm local KIND --shards N --jobs J --out DIR [EXTRA] -- ARGS`.
pub fn farm_local(
    kind: &str,
    dir: &Path,
    shards: usize,
    jobs: usize,
    extra: &[&str],
    args: &[String],
) -> String {
    let mut a: Vec<String> = ["farm", "local", kind, "--shards", &shards.to_string()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.extend(["--jobs".into(), jobs.to_string(), "--out".into()]);
    a.push(dir.display().to_string());
    a.extend(extra.iter().map(|s| s.to_string()));
    a.push("--".into());
    a.extend(args.iter().cloned());
    pb_ok(&a)
}

/// The arena arguments of a small match between bango at two node counts.
pub fn match_args(games: usize, nodes: [u64; 2], seed: u64) -> Vec<String> {
    vec![
        "--games".into(),
        games.to_string(),
        "--tc-turn".into(),
        "10000".into(),
        "--seed".into(),
        seed.to_string(),
        engine("a", nodes[0], 1),
        engine("b", nodes[1], 2),
    ]
}

/// The `train selfplay` arguments of a small run (`games` games, two labelled positions a game).
pub fn selfplay_args(games: usize, seed: u64) -> Vec<String> {
    let games = games.to_string();
    let seed = seed.to_string();
    [
        "--games",
        &games,
        "--move-nodes",
        "300",
        "--label-nodes",
        "1000",
        "--per-game",
        "2",
        "--seed",
        &seed,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Reads a JSON file.
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
