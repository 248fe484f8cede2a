//! The Slurm batch scripts of a run: one array script whose task K runs shard K, and one merge
//! script, submitted with `--dependency=afterany` on the array so it runs once every shard has
//! ended, failed ones included (an `afterok` merge would wait forever after a failed shard and
//! could never say which one failed).
//!
//! Invariants: the scripts call the brain binary by absolute path (a batch job starts in
//! another working directory, maybe on another node) and name the shard count explicitly (a
//! requeued single array index sees `SLURM_ARRAY_TASK_COUNT=1`); the array script has no
//! `--array` line, so the same file serves every round and every resubmission (`sbatch
//! --array=K`).

use super::run::RunSpec;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where and how the jobs run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlurmOptions {
    /// `--partition`, when not the cluster's default.
    pub partition: Option<String>,
    /// `--time` of a shard (and of the merge), e.g. `30:00`.
    pub time: Option<String>,
    /// `--cpus-per-task` of a shard.
    pub cpus_per_task: usize,
    /// Folder of the jobs' output files (default `RUN_DIR/logs`).
    pub logs: Option<PathBuf>,
}

/// Quotes `s` for the shell (single quotes, with `'` written as `'\''`).
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The array script's path in the run folder.
pub fn array_path(run_dir: &Path) -> PathBuf {
    run_dir.join("shards.sbatch")
}

/// The merge script's path in the run folder.
pub fn merge_path(run_dir: &Path) -> PathBuf {
    run_dir.join("merge.sbatch")
}

fn header(s: &mut String, name: &str, opts: &SlurmOptions, output: &Path, cpus: usize) {
    let _ = writeln!(s, "#!/bin/bash");
    let _ = writeln!(s, "#SBATCH --job-name={name}");
    let _ = writeln!(s, "#SBATCH --cpus-per-task={}", cpus.max(1));
    if let Some(p) = &opts.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(t) = &opts.time {
        let _ = writeln!(s, "#SBATCH --time={t}");
    }
    let _ = writeln!(s, "#SBATCH --output={}", output.display());
    let _ = writeln!(s, "set -eu");
}

/// The array script: task K runs `EXE farm shard RUN_DIR --shard K/N`.
pub fn array_script(exe: &Path, run_dir: &Path, spec: &RunSpec, opts: &SlurmOptions) -> String {
    let logs = opts.logs.clone().unwrap_or_else(|| run_dir.join("logs"));
    let mut s = String::new();
    header(
        &mut s,
        &format!("bango-{}-{}", spec.kind.name(), spec.id()),
        opts,
        &logs.join("shard-%a.out"),
        opts.cpus_per_task,
    );
    let _ = writeln!(
        s,
        "# Shard K of {n} of the {kind} run; submit with --array (e.g. --array=0-{last}, or\n\
         # --array=K to re-run shard K: it replaces its own result and nothing else).",
        n = spec.shards,
        kind = spec.kind.name(),
        last = spec.shards - 1
    );
    let _ = writeln!(
        s,
        "exec {} farm shard {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\"",
        shell_quote(&exe.display().to_string()),
        shell_quote(&run_dir.display().to_string()),
        spec.shards
    );
    s
}

/// The merge script: `EXE farm next RUN_DIR` merges what has ended, names any missing shard
/// with the command that resubmits it, and submits the next round of an undecided SPRT run.
pub fn merge_script(exe: &Path, run_dir: &Path, spec: &RunSpec, opts: &SlurmOptions) -> String {
    let logs = opts.logs.clone().unwrap_or_else(|| run_dir.join("logs"));
    let mut s = String::new();
    header(
        &mut s,
        &format!("bango-merge-{}", spec.id()),
        opts,
        &logs.join("merge-%j.out"),
        1,
    );
    let _ = writeln!(
        s,
        "exec {} farm next {}",
        shell_quote(&exe.display().to_string()),
        shell_quote(&run_dir.display().to_string())
    );
    s
}

/// The `sbatch` arguments that submit shards `shards` of the array script.
pub fn array_args(run_dir: &Path, shards: std::ops::Range<usize>) -> Vec<String> {
    let array = if shards.len() == 1 {
        shards.start.to_string()
    } else {
        format!("{}-{}", shards.start, shards.end - 1)
    };
    vec![
        "--parsable".into(),
        format!("--array={array}"),
        array_path(run_dir).display().to_string(),
    ]
}

/// The `sbatch` arguments that submit the merge to run after job `after` has ended, however
/// it ended.
pub fn merge_args(run_dir: &Path, after: &str) -> Vec<String> {
    vec![
        "--parsable".into(),
        format!("--dependency=afterany:{after}"),
        merge_path(run_dir).display().to_string(),
    ]
}

/// The command that resubmits shard `k`.
pub fn resubmit_command(run_dir: &Path, k: usize) -> String {
    format!(
        "sbatch --array={k} {}",
        shell_quote(&array_path(run_dir).display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::farm::Kind;

    #[test]
    fn the_array_script_names_the_shard_count_and_the_binary_by_path() {
        let spec = RunSpec {
            kind: Kind::Arena,
            args: vec!["a".into()],
            shards: 4,
            round: 4,
        };
        let opts = SlurmOptions {
            partition: Some("short".into()),
            time: Some("10:00".into()),
            cpus_per_task: 2,
            logs: None,
        };
        let s = array_script(
            Path::new("/opt/pbrain-bango"),
            Path::new("/r it"),
            &spec,
            &opts,
        );
        assert!(s.starts_with("#!/bin/bash\n"), "{s}");
        assert!(s.contains("#SBATCH --partition=short\n"), "{s}");
        assert!(s.contains("#SBATCH --time=10:00\n"), "{s}");
        assert!(s.contains("#SBATCH --cpus-per-task=2\n"), "{s}");
        assert!(
            s.contains("#SBATCH --output=/r it/logs/shard-%a.out\n"),
            "{s}"
        );
        assert!(s.contains(
            "exec '/opt/pbrain-bango' farm shard '/r it' --shard \"${SLURM_ARRAY_TASK_ID}/4\"\n"
        ));
        assert!(!s.contains("#SBATCH --array"), "{s}");
        let m = merge_script(
            Path::new("/opt/pbrain-bango"),
            Path::new("/r"),
            &spec,
            &opts,
        );
        assert!(
            m.contains("exec '/opt/pbrain-bango' farm next '/r'\n"),
            "{m}"
        );
        assert_eq!(
            merge_args(Path::new("/r"), "17"),
            ["--parsable", "--dependency=afterany:17", "/r/merge.sbatch"]
        );
        assert_eq!(array_args(Path::new("/r"), 2..3)[1], "--array=2");
        assert_eq!(array_args(Path::new("/r"), 4..8)[1], "--array=4-7");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
