//! The farm on a real Slurm cluster: the single-node one `.ci/run` starts (`.ci/slurm-up`).
//! This test starts nothing itself: when `sinfo` does not answer it says so and checks the
//! local path only.

use super::*;
use std::time::{Duration, Instant};

/// Prints `msg` on the test process's stderr past the test harness's capture (which takes
/// only `eprintln!`), so a run without Slurm says so in the CI log.
fn say(msg: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
}

/// Whether a Slurm controller answers, with what it said.
fn slurm_answers() -> Result<String, String> {
    let out = Command::new("sinfo")
        .args(["-h", "-o", "%P %a %D %t"])
        .output()
        .map_err(|e| format!("no sinfo: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || text.is_empty() {
        return Err(format!(
            "sinfo does not answer: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(text)
}

/// The job ids `farm slurm --submit` printed.
fn job_ids(stdout: &str) -> (String, String) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("submitted shards as job"))
        .unwrap_or_else(|| panic!("no job ids in {stdout}"));
    let ids: Vec<&str> = line
        .split([' ', ','])
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    assert_eq!(ids.len(), 2, "{line}");
    (ids[0].to_string(), ids[1].to_string())
}

/// Waits until none of `jobs` is queued or running.
fn wait_for(jobs: &[&str]) {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i %T", "-j", &jobs.join(",")])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "squeue: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        if text.trim().is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "jobs {jobs:?} still queued: {text}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn submit(run: &Path, args: &[String]) -> (String, String) {
    submit_kind("arena", run, &["--shards", "4"], args)
}

/// `farm slurm KIND --submit --out RUN OPTS -- ARGS`; the job ids of the first round.
fn submit_kind(kind: &str, run: &Path, opts: &[&str], args: &[String]) -> (String, String) {
    let mut a: Vec<String> = ["farm", "slurm", kind, "--submit", "--out"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.push(run.display().to_string());
    a.extend(opts.iter().map(|s| s.to_string()));
    a.push("--".into());
    a.extend(args.iter().cloned());
    job_ids(&pb_ok(&a))
}

#[test]
fn a_four_shard_run_on_slurm_merges_to_the_local_bytes_and_a_killed_shard_recovers() {
    let dir = fresh_dir("slurm");
    let args = match_args(16, [1500, 3000], 11);
    farm_local("arena", &dir.join("local"), 4, 2, &[], &args);
    let local = std::fs::read(dir.join("local/result.json")).unwrap();
    assert!(!local.is_empty());
    let info = match slurm_answers() {
        Ok(info) => info,
        Err(why) => {
            say(&format!(
                "farm: SLURM ABSENT ({why}): checked the local path only"
            ));
            return;
        }
    };
    say(&format!(
        "farm: slurm answers ({info}): running on the cluster"
    ));

    // The whole run as a job array and its merge job.
    let run = dir.join("cluster");
    let (array, merge) = submit(&run, &args);
    wait_for(&[&array, &merge]);
    let merged = std::fs::read(run.join("result.json")).expect("the merge job wrote result.json");
    assert_eq!(
        merged, local,
        "the cluster's merge differs from farm local's"
    );

    // One shard killed mid-run: the merge job names it, the printed command requeues it, and
    // the result is again the same bytes. Longer games, so the shard is still running when the
    // kill comes.
    let slow = match_args(16, [30_000, 40_000], 12);
    farm_local("arena", &dir.join("slow-local"), 4, 2, &[], &slow);
    let slow_local = std::fs::read(dir.join("slow-local/result.json")).unwrap();
    let run = dir.join("killed");
    let (array, merge) = submit(&run, &slow);
    let marker = run.join("shards/shard-0002.running");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "shard 2 never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let st = Command::new("scancel")
        .arg(format!("{array}_2"))
        .status()
        .unwrap();
    assert!(st.success());
    wait_for(&[&array, &merge]);
    assert!(
        !run.join("shards/shard-0002.json").exists(),
        "shard 2 finished before the kill"
    );
    let log = std::fs::read_to_string(run.join(format!("logs/merge-{merge}.out"))).unwrap();
    assert!(log.contains("missing shard(s) 2"), "{log}");
    let resubmit = log
        .lines()
        .find_map(|l| l.trim().strip_prefix("resubmit shard 2: "))
        .unwrap_or_else(|| panic!("no resubmit command in {log}"))
        .to_string();
    assert!(resubmit.starts_with("sbatch --array=2 "), "{resubmit}");
    let out = Command::new("sh")
        .arg("-c")
        .arg(resubmit.replacen("sbatch ", "sbatch --parsable ", 1))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = String::from_utf8_lossy(&out.stdout).trim().to_string();
    wait_for(&[&again]);
    pb_ok(&["merge".as_ref(), run.as_os_str()]);
    assert_eq!(std::fs::read(run.join("result.json")).unwrap(), slow_local);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits until no job of the run in `run` is queued or running: its merge jobs submit the next
/// round before they end, so the run is over once its job names are gone from the queue.
fn wait_for_run(run: &Path) {
    let script = std::fs::read_to_string(run.join("shards.sbatch")).unwrap();
    let name = script
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --job-name="))
        .unwrap();
    let id = name.rsplit('-').next().unwrap();
    let names = format!("{name},bango-merge-{id}");
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i %j %T", "-n", &names])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        if text.trim().is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "run still queued: {text}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn selfplay_and_an_sprt_in_rounds_on_slurm_match_the_local_runs() {
    let dir = fresh_dir("slurm-rounds");
    let sp = selfplay_args(8, 4);
    farm_local("selfplay", &dir.join("sp-local"), 4, 2, &[], &sp);
    let mut sprt = match_args(64, [2000, 30], 1);
    sprt.splice(0..0, ["--sprt".to_string(), "0,20".into()]);
    farm_local(
        "arena",
        &dir.join("sprt-local"),
        8,
        2,
        &["--round", "2"],
        &sprt,
    );
    if let Err(why) = slurm_answers() {
        say(&format!(
            "farm: SLURM ABSENT ({why}): checked the local path only"
        ));
        return;
    }
    let run = dir.join("sp-cluster");
    submit_kind("selfplay", &run, &["--shards", "4"], &sp);
    wait_for_run(&run);
    assert_eq!(
        std::fs::read(run.join("selfplay.txt")).expect("the merge job wrote selfplay.txt"),
        std::fs::read(dir.join("sp-local/selfplay.txt")).unwrap()
    );
    // Rounds of two shards: each round's merge job submits the next until the SPRT decides.
    let run = dir.join("sprt-cluster");
    submit_kind("arena", &run, &["--shards", "8", "--round", "2"], &sprt);
    wait_for_run(&run);
    let local = read_json(&dir.join("sprt-local/result.json"));
    let cluster = read_json(&run.join("result.json"));
    assert_eq!(cluster["pairings"][0]["sprt"]["decision"], "H1");
    assert_eq!(cluster, local);
    let merged = cluster["shards_merged"].as_u64().unwrap() as usize;
    for k in merged..8 {
        assert!(
            !run.join(format!("shards/shard-{k:04}.json")).exists(),
            "shard {k} ran after the SPRT decided"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
