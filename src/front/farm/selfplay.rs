//! A self-play run in shards: a shard plays and labels its slice of the run's games
//! ([`crate::front::train::selfplay_games`]); the merge concatenates the shards' lines in game order.
//!
//! Invariant: the merged lines are, byte for byte, the lines of the unsharded run (each game is
//! seeded by its number, not by the games before it).

use super::merge::collect;
use super::run::{mark_running, RunSpec, ShardResult};
use super::shard::Shard;
use crate::engine::config::Config;
use crate::front::train::{selfplay_games, SelfplayConfig};
use std::path::Path;
use std::time::Instant;

/// Makes `shard` of the self-play run `spec` describes (`cfg`, every engine configured by
/// `config`) and writes its result file.
pub fn make_shard(
    cfg: &SelfplayConfig,
    config: &Config,
    spec: &RunSpec,
    run_dir: &Path,
    shard: Shard,
) -> Result<ShardResult, String> {
    let slice = shard.slice(cfg.games);
    mark_running(run_dir, shard, &format!("making games {slice:?}"))?;
    let started = Instant::now();
    let mut result = ShardResult::new(spec, shard, slice.clone());
    selfplay_games(cfg, config, slice, &mut |_, p| {
        result.lines.push(p.to_line())
    });
    result.wall_ms = started.elapsed().as_millis() as u64;
    result.write(run_dir)?;
    Ok(result)
}

/// The data lines of every shard of the self-play run in `run_dir`, in game order (each ends
/// in a newline); an error naming every missing, duplicated, foreign or corrupted shard.
pub fn merge(spec: &RunSpec, run_dir: &Path, games: usize) -> Result<String, String> {
    let shards = collect(run_dir, spec, games, spec.shards).map_err(|e| e.to_string())?;
    let mut text = String::new();
    for r in &shards {
        for l in &r.lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    Ok(text)
}
