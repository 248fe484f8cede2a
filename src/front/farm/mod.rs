//! The farm: one run (a match, a self-play data set) cut into N independent shards, each a
//! process that may run on any machine (a local process, a Slurm array task), and the one merge
//! that puts their results back together.
//!
//! A run lives in a folder (`RUN_DIR`):
//! - `run.json` ([`RunSpec`]): what the run is (its kind, its argument list, how many shards,
//!   how many shards a round), written once; every shard and the merge read it.
//! - `shards/shard-KKKK.json` ([`ShardResult`]): shard K's results, written atomically (a
//!   temporary file renamed into place), so a file that exists is complete; a re-run shard
//!   replaces its own file and nothing else. `shards/shard-KKKK.running` marks a shard that
//!   has started and not yet written its result.
//! - `games/`: the arena's PSQ records, named by their position in the whole schedule, so
//!   shards never write the same file.
//! - `result.json`: the merge's result, a function of the shards' games only (no wall times,
//!   no move times), so the same run merges to the same bytes whatever the number of shards,
//!   the machines and the order they finished in.
//!
//! Layers inside, each looking only down: [`shard`] (which slice of the work a shard does),
//! [`run`] (the run's identity and its files), [`merge`] (checking and combining the shards),
//! [`arena`] and [`selfplay`] (a shard of each kind of run and their merges), [`slurm`] (the
//! batch scripts), [`status`] (which shards are done).
//!
//! Invariant: shard K of N does exactly the work items `K·T/N .. (K+1)·T/N` of the run's `T`
//! (games of the schedule, self-play games), each seeded by its position in the run and never
//! by what ran before it in the same process, so the shards together are the unsharded run.

pub mod arena;
pub mod merge;
pub mod run;
pub mod selfplay;
pub mod shard;
pub mod slurm;
pub mod status;

pub use merge::{collect, MergeError};
pub use run::{Kind, RunSpec, ShardResult};
pub use shard::Shard;
