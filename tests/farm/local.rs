//! The farm's local path: `farm local`, `arena --shard`, `train selfplay --shard` and
//! `merge`, against unsharded runs of the same work.

use super::*;

/// What a game was, from `summary.json` (unsharded) or `result.json` (merged).
fn games_of(v: &Value) -> Vec<(String, String, Value, usize, Value, String)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let moves = match &g["moves"] {
                Value::Array(m) => m.len(),
                m => m.as_u64().unwrap() as usize,
            };
            (
                g["black"].as_str().unwrap().to_string(),
                g["white"].as_str().unwrap().to_string(),
                g["opening"].clone(),
                moves,
                g["winner"].clone(),
                g["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn wdl(v: &Value) -> (u64, u64, u64) {
    let p = &v["pairings"][0];
    (
        p["wins"].as_u64().unwrap(),
        p["losses"].as_u64().unwrap(),
        p["draws"].as_u64().unwrap(),
    )
}

/// `result.json` without the fields that say how the run was cut.
fn without_cut(mut v: Value) -> Value {
    for k in ["run", "shards", "shards_merged", "round"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn shards_play_exactly_the_unsharded_match() {
    let dir = fresh_dir("exact");
    let args = match_args(12, [1500, 3000], 5);
    let mut plain = vec!["arena".to_string(), "-q".into(), "--out".into()];
    plain.push(dir.join("plain").display().to_string());
    plain.extend(args.iter().cloned());
    pb_ok(&plain);
    let summary = read_json(&dir.join("plain/summary.json"));
    let text = farm_local("arena", &dir.join("three"), 3, 2, &[], &args);
    assert!(text.contains("12 of 12 games merged"), "{text}");
    let three = read_json(&dir.join("three/result.json"));
    assert_eq!(games_of(&three), games_of(&summary));
    assert_eq!(wdl(&three), wdl(&summary));
    assert!(wdl(&three).0 + wdl(&three).1 > 0, "the games are decided");
    // Cut in one shard or three, the result is the same; every game has its record.
    farm_local("arena", &dir.join("one"), 1, 1, &[], &args);
    let one = read_json(&dir.join("one/result.json"));
    assert_eq!(without_cut(one), without_cut(three.clone()));
    for i in 1..=12 {
        assert!(dir.join(format!("three/games/game-{i:04}.psq")).exists());
    }
    // The shards one by one through `arena --shard K/N` make the very same run (same
    // arguments, same id): the same bytes.
    for k in 0..3 {
        let mut a = vec!["arena".to_string()];
        a.extend(args.iter().cloned());
        a.extend(["--shard".into(), format!("{k}/3"), "--out".into()]);
        a.push(dir.join("by-hand").display().to_string());
        pb_ok(&a);
    }
    pb_ok(&[
        "merge".to_string(),
        dir.join("by-hand").display().to_string(),
    ]);
    assert_eq!(
        std::fs::read(dir.join("by-hand/result.json")).unwrap(),
        std::fs::read(dir.join("three/result.json")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn merge_err(dir: &Path) -> String {
    let out = pb(&["merge".as_ref(), dir.as_os_str()]);
    assert!(!out.status.success(), "the merge should have failed");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn merge_names_missing_duplicated_foreign_and_corrupted_shards() {
    let dir = fresh_dir("refuse");
    let run = dir.join("run");
    let args = match_args(8, [1000, 1000], 7);
    farm_local("arena", &run, 4, 2, &[], &args);
    let good = std::fs::read(run.join("result.json")).unwrap();
    let shard = |k: usize| run.join(format!("shards/shard-{k:04}.json"));
    let saved: Vec<Vec<u8>> = (0..4).map(|k| std::fs::read(shard(k)).unwrap()).collect();

    std::fs::remove_file(shard(2)).unwrap();
    let e = merge_err(&run);
    assert!(e.contains("missing shard(s) 2"), "{e}");
    std::fs::write(run.join("shards/shard-0002.running"), "playing\n").unwrap();
    let st = pb_ok(&["farm".as_ref(), "status".as_ref(), run.as_os_str()]);
    assert!(st.contains("shard 0: done in "), "{st}");
    assert!(st.contains("shard 2: running (playing)"), "{st}");
    std::fs::remove_file(run.join("shards/shard-0002.running")).unwrap();
    let st = pb_ok(&["farm".as_ref(), "status".as_ref(), run.as_os_str()]);
    assert!(st.contains("shard 2: missing"), "{st}");
    std::fs::write(shard(2), &saved[2]).unwrap();

    let copy = run.join("shards/shard-0001-copy.json");
    std::fs::write(&copy, &saved[1]).unwrap();
    let e = merge_err(&run);
    assert!(e.contains("shard 1 duplicated in"), "{e}");
    assert!(e.contains("shard-0001-copy.json"), "{e}");
    std::fs::remove_file(&copy).unwrap();

    // A shard of another run (another seed) dropped into this one.
    let other = dir.join("other");
    farm_local("arena", &other, 4, 2, &[], &match_args(8, [1000, 1000], 8));
    std::fs::copy(other.join("shards/shard-0003.json"), shard(3)).unwrap();
    let e = merge_err(&run);
    assert!(
        e.contains("foreign shard") && e.contains("shard-0003.json"),
        "{e}"
    );
    std::fs::write(shard(3), &saved[3]).unwrap();

    // Cut short, and with a game's winner changed to nonsense.
    std::fs::write(shard(0), &saved[0][..saved[0].len() / 2]).unwrap();
    let e = merge_err(&run);
    assert!(
        e.contains("corrupted shard") && e.contains("shard-0000.json"),
        "{e}"
    );
    let text = String::from_utf8(saved[0].clone()).unwrap();
    let bad = text.replacen("\"winner\":\"", "\"winner\":\"x", 1);
    let bad = if bad == text {
        text.replacen("\"winner\":null", "\"winner\":\"x\"", 1)
    } else {
        bad
    };
    std::fs::write(shard(0), bad).unwrap();
    let e = merge_err(&run);
    assert!(
        e.contains("corrupted shard") && e.contains("shard-0000.json"),
        "{e}"
    );
    std::fs::write(shard(0), &saved[0]).unwrap();

    // A shard re-run (as after a requeue, its index from Slurm's variable) replaces its own
    // file and nothing else, and the merge is the same bytes.
    let out = Command::new(BIN)
        .args(["farm".as_ref(), "shard".as_ref(), run.as_os_str()])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 1/4"));
    for k in [0, 2, 3] {
        assert_eq!(
            std::fs::read(shard(k)).unwrap(),
            saved[k],
            "shard {k} changed"
        );
    }
    pb_ok(&["merge".as_ref(), run.as_os_str()]);
    assert_eq!(std::fs::read(run.join("result.json")).unwrap(), good);
    // `farm local` again resumes: every shard is done, so none runs again.
    let now: Vec<Vec<u8>> = (0..4).map(|k| std::fs::read(shard(k)).unwrap()).collect();
    farm_local("arena", &run, 4, 2, &[], &args);
    for (k, bytes) in now.iter().enumerate() {
        assert_eq!(
            &std::fs::read(shard(k)).unwrap(),
            bytes,
            "shard {k} ran again"
        );
    }
    assert_eq!(std::fs::read(run.join("result.json")).unwrap(), good);
    // A folder holding another run is refused before anything runs.
    let out = pb(&[
        "farm",
        "local",
        "arena",
        "--shards",
        "4",
        "--out",
        run.to_str().unwrap(),
        "--",
        "--games",
        "9",
        &engine("a", 10, 1),
        &engine("b", 10, 2),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds another run"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_in_rounds_stops_at_the_first_round_that_decides() {
    let dir = fresh_dir("sprt");
    let run = dir.join("run");
    // 2,000 nodes a move against 30: clearly stronger, not a clean sweep (a sweep has no
    // variance, and the LLR stays 0).
    let mut args = match_args(64, [2000, 30], 1);
    args.splice(0..0, ["--sprt".to_string(), "0,20".into()]);
    let text = farm_local("arena", &run, 8, 2, &["--round", "2"], &args);
    let v = read_json(&run.join("result.json"));
    let merged = v["shards_merged"].as_u64().unwrap() as usize;
    assert_eq!(v["pairings"][0]["sprt"]["decision"], "H1", "{text}");
    assert!(merged < 8 && merged % 2 == 0, "{text}");
    // The rounds after the deciding one never ran, and the round before it had not decided.
    for k in 0..8 {
        let exists = run.join(format!("shards/shard-{k:04}.json")).exists();
        assert_eq!(exists, k < merged, "shard {k}");
    }
    let earlier = pb_ok(&[
        "merge".to_string(),
        run.display().to_string(),
        "--upto".into(),
        (merged - 2).to_string(),
    ]);
    assert!(earlier.contains("-> continue"), "{earlier}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_shards_make_the_unsharded_file() {
    let dir = fresh_dir("selfplay");
    let args = selfplay_args(6, 3);
    let mut plain = vec!["train".to_string(), "selfplay".into(), "--out".into()];
    plain.push(dir.join("plain.txt").display().to_string());
    plain.extend(args.iter().cloned());
    pb_ok(&plain);
    let text = farm_local("selfplay", &dir.join("run"), 3, 2, &[], &args);
    assert!(text.contains("from 6 games"), "{text}");
    let whole = std::fs::read_to_string(dir.join("plain.txt")).unwrap();
    let merged = std::fs::read_to_string(dir.join("run/selfplay.txt")).unwrap();
    assert!(
        whole.lines().filter(|l| !l.starts_with('#')).count() >= 6,
        "{whole}"
    );
    assert_eq!(merged, whole);
    // One shard by hand through `train selfplay --shard`, into its own run: the slice of the
    // same lines.
    let mut one = vec!["train".to_string(), "selfplay".into()];
    one.extend(args.iter().cloned());
    one.extend(["--shard".into(), "0/3".into(), "--out".into()]);
    one.push(dir.join("hand").display().to_string());
    pb_ok(&one);
    let r = read_json(&dir.join("hand/shards/shard-0000.json"));
    let lines: Vec<&str> = r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(!lines.is_empty());
    let body: Vec<&str> = whole.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, body[..lines.len()]);
    let _ = std::fs::remove_dir_all(&dir);
}
