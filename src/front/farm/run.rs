//! A run's identity (`run.json`) and its shards' result files, written atomically.
//!
//! Invariants: `run.json` is written once and never changed (a shard or a farm command given a
//! different run for the same folder is refused, so two runs never mix in one folder); a shard
//! result names the run it belongs to by [`RunSpec::id`], so a file copied in from another run
//! is recognised as foreign; every file here is written to a temporary name in the same folder
//! and renamed into place, so a reader sees a whole file or none.

use super::shard::Shard;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a run makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A match between brains (`pbrain-bango arena`).
    Arena,
    /// Labelled self-play positions (`pbrain-bango train selfplay`).
    Selfplay,
}

impl Kind {
    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::Selfplay => "selfplay",
        }
    }
}

/// What a run is: `RUN_DIR/run.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpec {
    /// The kind of run.
    pub kind: Kind,
    /// The arguments of the kind's command (`arena ...`, `train selfplay ...`) that define the
    /// work, without the options that only say where and how fast it runs.
    pub args: Vec<String>,
    /// How many shards the run is cut into.
    pub shards: usize,
    /// Shards a round: an SPRT run is merged after each round and stops at the first round
    /// whose merge decides (equal to `shards` when the run is one round).
    pub round: usize,
}

/// Writes `text` to `path` atomically: to a temporary file in the same folder, then renamed
/// over `path` (a rename within a folder is atomic on POSIX file systems, NFS included).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

impl RunSpec {
    /// The run's identity: a hash of its kind, arguments and shard count (the round size only
    /// changes where the merge may stop, not what a shard does).
    pub fn id(&self) -> String {
        let key = serde_json::to_string(&(self.kind, &self.args, self.shards))
            .expect("strings serialise");
        // FNV-1a, 64 bits: stable across builds and platforms, unlike std's hasher.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in key.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// `RUN_DIR/run.json`.
    pub fn path(run_dir: &Path) -> PathBuf {
        run_dir.join("run.json")
    }

    /// Reads `RUN_DIR/run.json`.
    pub fn load(run_dir: &Path) -> Result<RunSpec, String> {
        let path = RunSpec::path(run_dir);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e} (not a farm run folder? `farm local` or `farm slurm` makes one)",
                path.display()
            )
        })?;
        let spec: RunSpec =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if spec.shards == 0 || spec.round == 0 {
            return Err(format!(
                "{}: shards and round must be positive",
                path.display()
            ));
        }
        Ok(spec)
    }

    /// Makes `run_dir` this run's folder: writes `run.json`, or checks that the one there is
    /// this run (an error naming both otherwise, so two runs never share a folder).
    pub fn prepare(&self, run_dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(run_dir.join("shards"))
            .map_err(|e| format!("{}: {e}", run_dir.display()))?;
        let path = RunSpec::path(run_dir);
        if path.exists() {
            let there = RunSpec::load(run_dir)?;
            if there.id() != self.id() {
                return Err(format!(
                    "{} holds another run ({} {:?}, {} shards, id {}), not this one ({} {:?}, {} shards, id {}): use a new folder",
                    run_dir.display(),
                    there.kind.name(),
                    there.args,
                    there.shards,
                    there.id(),
                    self.kind.name(),
                    self.args,
                    self.shards,
                    self.id()
                ));
            }
            return Ok(());
        }
        let mut text = serde_json::to_string_pretty(self).expect("a run spec serialises");
        text.push('\n');
        write_atomic(&path, &text)
    }

    /// The shards of round `r` (0-based).
    pub fn round_shards(&self, r: usize) -> std::ops::Range<usize> {
        (r * self.round).min(self.shards)..((r + 1) * self.round).min(self.shards)
    }

    /// How many rounds the run has.
    pub fn rounds(&self) -> usize {
        self.shards.div_ceil(self.round)
    }
}

/// One game of an arena shard, as the shard played it (move times included; the merge leaves
/// them out of its result).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEntry {
    /// Position in the run's schedule.
    pub index: usize,
    /// Black's engine name.
    pub black: String,
    /// White's engine name.
    pub white: String,
    /// The opening stones, `x,y`.
    pub opening: Vec<String>,
    /// The moves, `x,y`, with the time each took in ms.
    pub moves: Vec<(String, u64)>,
    /// `black`, `white`, or none for a draw.
    pub winner: Option<String>,
    /// Why the game ended ([`crate::front::arena::Reason::name`]).
    pub reason: String,
    /// The referee's detail.
    pub detail: String,
}

/// `RUN_DIR/shards/shard-KKKK.json`: what one shard did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// The run's [`RunSpec::id`].
    pub run: String,
    /// The run's kind.
    pub kind: Kind,
    /// This shard's index.
    pub shard: usize,
    /// The run's shard count.
    pub shards: usize,
    /// The work items done, `[start, end)` (the shard's [`Shard::slice`]).
    pub items: (usize, usize),
    /// Wall time of the shard, ms (for `farm status`; never merged).
    pub wall_ms: u64,
    /// An arena shard's games, in schedule order.
    #[serde(default)]
    pub games: Vec<GameEntry>,
    /// A self-play shard's data lines, in game order.
    #[serde(default)]
    pub lines: Vec<String>,
}

impl ShardResult {
    /// An empty result of `shard` of `spec`'s run covering `items`.
    pub fn new(spec: &RunSpec, shard: Shard, items: std::ops::Range<usize>) -> ShardResult {
        ShardResult {
            run: spec.id(),
            kind: spec.kind,
            shard: shard.index,
            shards: shard.count,
            items: (items.start, items.end),
            wall_ms: 0,
            games: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Writes this result atomically as `RUN_DIR/shards/shard-KKKK.json` and removes the
    /// shard's running marker.
    pub fn write(&self, run_dir: &Path) -> Result<PathBuf, String> {
        let shard = Shard::new(self.shard, self.shards)?;
        let dir = run_dir.join("shards");
        let path = dir.join(shard.file_name());
        let mut text = serde_json::to_string(self).expect("a shard result serialises");
        text.push('\n');
        write_atomic(&path, &text)?;
        let _ = std::fs::remove_file(dir.join(shard.running_name()));
        Ok(path)
    }
}

/// Marks `shard` as started (`farm status` shows it running until its result is written).
pub fn mark_running(run_dir: &Path, shard: Shard, note: &str) -> Result<(), String> {
    let path = run_dir.join("shards").join(shard.running_name());
    write_atomic(&path, &format!("{note}\n"))
}
