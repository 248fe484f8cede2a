//! Reading a run's shard results back and checking that they are exactly the run: every shard
//! present once, none from another run, none damaged.
//!
//! Invariant: [`collect`] returns the shards `0..upto` in index order or an error that names
//! every missing, duplicated, foreign and corrupted shard it found, so one look at the error
//! says what to re-run or remove. The files' order on disk never matters.

use super::run::{RunSpec, ShardResult};
use super::shard::Shard;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a run's shards do not merge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeError {
    /// Shards with no result file.
    pub missing: Vec<usize>,
    /// Shards with more than one result file, with the files.
    pub duplicated: Vec<(usize, Vec<PathBuf>)>,
    /// Files of another run (another id, kind or shard count), with what is wrong.
    pub foreign: Vec<(PathBuf, String)>,
    /// Files that do not parse or whose content is not their shard's work, with what is wrong.
    pub corrupted: Vec<(PathBuf, String)>,
}

impl MergeError {
    /// Whether nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty()
            && self.duplicated.is_empty()
            && self.foreign.is_empty()
            && self.corrupted.is_empty()
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            let list: Vec<String> = self.missing.iter().map(usize::to_string).collect();
            parts.push(format!("missing shard(s) {}", list.join(",")));
        }
        for (k, files) in &self.duplicated {
            let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
            parts.push(format!("shard {k} duplicated in {}", list.join(" and ")));
        }
        for (p, why) in &self.foreign {
            parts.push(format!("foreign shard {}: {why}", p.display()));
        }
        for (p, why) in &self.corrupted {
            parts.push(format!("corrupted shard {}: {why}", p.display()));
        }
        write!(f, "{}", parts.join("; "))
    }
}

impl std::error::Error for MergeError {}

/// The result files in `RUN_DIR/shards/` (temporary files, which start with a dot, are not
/// results), sorted by name.
fn result_files(run_dir: &Path) -> Result<Vec<PathBuf>, String> {
    let dir = run_dir.join("shards");
    let mut files = Vec::new();
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into());
        if name.ends_with(".json") && !name.starts_with('.') {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Checks one file's header against the run; `Err((foreign, why))` when it is not one of this
/// run's shards.
fn check(spec: &RunSpec, total: usize, r: &ShardResult) -> Result<(), (bool, String)> {
    if r.run != spec.id() {
        return Err((
            true,
            format!("run id {} is not this run's {}", r.run, spec.id()),
        ));
    }
    if r.kind != spec.kind || r.shards != spec.shards {
        return Err((
            true,
            format!(
                "a {} shard of {} does not belong to a {} run of {} shards",
                r.kind.name(),
                r.shards,
                spec.kind.name(),
                spec.shards
            ),
        ));
    }
    let shard = Shard::new(r.shard, r.shards).map_err(|e| (true, e))?;
    let want = shard.slice(total);
    if (r.items.0, r.items.1) != (want.start, want.end) {
        return Err((
            false,
            format!(
                "covers items {}..{}, shard {} does {}..{}",
                r.items.0, r.items.1, r.shard, want.start, want.end
            ),
        ));
    }
    Ok(())
}

/// Reads the run's shard results and returns shards `0..upto` in order, or everything wrong
/// with them (files of shards at or past `upto` are checked too, but may be absent). `total` is
/// the run's number of work items.
pub fn collect(
    run_dir: &Path,
    spec: &RunSpec,
    total: usize,
    upto: usize,
) -> Result<Vec<ShardResult>, MergeError> {
    let mut err = MergeError::default();
    let files = match result_files(run_dir) {
        Ok(f) => f,
        Err(e) => {
            err.corrupted.push((run_dir.join("shards"), e));
            return Err(err);
        }
    };
    let mut found: BTreeMap<usize, Vec<(PathBuf, ShardResult)>> = BTreeMap::new();
    for path in files {
        let parsed = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<ShardResult>(&t).map_err(|e| e.to_string()));
        match parsed {
            Err(e) => err.corrupted.push((path, e)),
            Ok(r) => match check(spec, total, &r) {
                Err((true, why)) => err.foreign.push((path, why)),
                Err((false, why)) => err.corrupted.push((path, why)),
                Ok(()) => found.entry(r.shard).or_default().push((path, r)),
            },
        }
    }
    let mut out = Vec::with_capacity(upto);
    for k in 0..upto.min(spec.shards) {
        match found.remove(&k) {
            None => err.missing.push(k),
            Some(mut v) if v.len() == 1 => out.push(v.pop().expect("one").1),
            Some(v) => err
                .duplicated
                .push((k, v.into_iter().map(|(p, _)| p).collect())),
        }
    }
    for (k, v) in found {
        if v.len() > 1 {
            err.duplicated
                .push((k, v.into_iter().map(|(p, _)| p).collect()));
        }
    }
    if err.is_empty() {
        Ok(out)
    } else {
        Err(err)
    }
}
