//! Which shards of a run are done, running or missing, from the run folder alone (no
//! scheduler is asked, so it reads the same for local and Slurm runs).
//!
//! Invariant: a shard is done exactly when its result file exists (it is written atomically);
//! it is running when only its marker does (a shard killed without cleaning up keeps its
//! marker: `merge` then names it missing).

use super::run::{RunSpec, ShardResult};
use super::shard::Shard;
use std::path::Path;

/// The state of one shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardState {
    /// Its result is written (with the shard's wall time, ms).
    Done(u64),
    /// It has started and has not written its result (with its marker's note).
    Running(String),
    /// Neither.
    Missing,
}

/// The state of every shard of the run in `run_dir`, in shard order.
pub fn status(run_dir: &Path, spec: &RunSpec) -> Vec<ShardState> {
    let dir = run_dir.join("shards");
    (0..spec.shards)
        .map(|k| {
            let shard = Shard {
                index: k,
                count: spec.shards,
            };
            let done = std::fs::read_to_string(dir.join(shard.file_name()))
                .ok()
                .and_then(|t| serde_json::from_str::<ShardResult>(&t).ok())
                .filter(|r| r.run == spec.id());
            if let Some(r) = done {
                return ShardState::Done(r.wall_ms);
            }
            match std::fs::read_to_string(dir.join(shard.running_name())) {
                Ok(note) => ShardState::Running(note.trim().to_string()),
                Err(_) => ShardState::Missing,
            }
        })
        .collect()
}
