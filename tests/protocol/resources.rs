//! Resource settings over the protocol: absurd thread counts and table sizes are clamped (said
//! in a `MESSAGE`), never fatal; settings sent after `START` size the first game's table.
//! The two crashes of issue 21 are the first two tests (on b5e2c88 the first hangs the machine
//! building thousands of threads, the second aborts on a failed allocation).

use bango::engine::resources::{self, Machine, Wanted};
use bango_testkit::brain::{bin, parse_move, Brain, Mode};
use std::process::Command;
use std::time::{Duration, Instant};

/// The next line that is not a `MESSAGE`/`DEBUG`.
fn reply(brain: &mut Brain) -> String {
    loop {
        let line = brain.recv();
        if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
            return line;
        }
    }
}

/// The `resources:` line of `PRINT`, as `key=value` pairs.
fn resources_line(brain: &mut Brain) -> Vec<(String, String)> {
    brain.send("PRINT");
    let line = loop {
        let line = brain.recv();
        assert!(line.starts_with("MESSAGE"), "{line}\n{}", brain.dump());
        if let Some(rest) = line.strip_prefix("MESSAGE resources: ") {
            break rest.to_string();
        }
    };
    // The rest of PRINT (the board rows) follows at once.
    while brain.next_event(Duration::from_millis(50)).is_some() {}
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn field(fields: &[(String, String)], key: &str) -> Option<u64> {
    fields.iter().find(|(k, _)| k == key)?.1.parse().ok()
}

fn process_threads(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_huge_thread_count_is_clamped_and_the_brain_answers() {
    let cap = Machine::detect().thread_cap();
    let mut brain = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")]);
    brain.send("START 15");
    brain.expect("OK");
    brain.send("INFO thread_num 18446744073709551615");
    let note = brain.recv();
    assert!(
        note.starts_with("MESSAGE") && note.contains(&format!("at most {cap} threads")),
        "{note}"
    );
    brain.send("INFO timeout_turn 300");
    brain.send("BEGIN");
    let mv = reply(&mut brain);
    assert!(parse_move(&mv).is_some(), "{mv}\n{}", brain.dump());
    let fields = resources_line(&mut brain);
    assert_eq!(field(&fields, "threads"), Some(cap as u64), "{fields:?}");
    // The workers, the session's reader and thinker, and a few helpers: nowhere near thousands.
    let threads = process_threads(brain.pid());
    assert!(threads <= cap + 8, "{threads} threads running");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn a_huge_table_request_is_not_fatal() {
    // An address space of 768 MiB: the system refuses the table the request comes to, as a
    // small machine would (without the limit the machine's available memory bounds it).
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 786432 && exec \"$0\"")
        .arg(bin())
        .env("BANGO_ALGO", "")
        .env_remove("BANGO_SMP")
        .env_remove("BANGO_MAX_MEMORY")
        .env_remove("BANGO_HASH_KIB");
    let mut brain = Brain::spawn_pipe(cmd);
    brain.send("START 15");
    brain.expect("OK");
    brain.send("INFO hash_size 1000000000");
    brain.send("RESTART");
    let mut notes = Vec::new();
    let ok = loop {
        let line = brain.recv();
        match line.strip_prefix("MESSAGE ") {
            Some(note) => notes.push(note.to_string()),
            None => break line,
        }
    };
    assert_eq!(ok, "OK", "{}", brain.dump());
    assert!(
        notes
            .iter()
            .any(|n| n.contains("hash_size 1000000000") || n.contains("could not allocate")),
        "the clamp went unsaid: {notes:?}"
    );
    brain.send("INFO timeout_turn 300");
    brain.send("TURN 7,7");
    let mv = reply(&mut brain);
    assert!(parse_move(&mv).is_some(), "{mv}\n{}", brain.dump());
    let fields = resources_line(&mut brain);
    let table = field(&fields, "filling_kib")
        .or_else(|| field(&fields, "table_kib"))
        .unwrap();
    // Reduced from the request (by the plan, and by the refusals under the address-space
    // limit); the size counts each slot's entry, so the bucket array itself is a fraction.
    assert!(table > 0 && table < 1_000_000_000, "{fields:?}");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(10)).success());
}

/// Polls `PRINT` until the table in use is at most `bytes` and more than half of it (the bucket
/// count rounds a size down; the fill runs in the background), for up to 10 s.
fn wait_for_table(brain: &mut Brain, bytes: u64) -> u64 {
    let t0 = Instant::now();
    loop {
        let fields = resources_line(brain);
        let kib = field(&fields, "table_kib").unwrap();
        let fits = kib << 10 <= bytes && kib << 10 > bytes / 2;
        if fits || t0.elapsed() > Duration::from_secs(10) {
            assert!(
                fits,
                "table {kib} KiB, wanted about {bytes} bytes: {fields:?}"
            );
            assert_eq!(field(&fields, "filling_kib"), None, "{fields:?}");
            return kib;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn settings_sent_after_start_size_the_first_games_table() {
    let mut brain = Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", "")]);
    brain.send("START 15");
    brain.expect("OK");
    // As Piskvork and the Gomocup judge send them: after START, before the first move.
    brain.send("INFO max_memory 67108864");
    brain.send("INFO hash_size 4096");
    wait_for_table(&mut brain, 4 << 20);
    let fields = resources_line(&mut brain);
    assert_eq!(field(&fields, "limit"), Some(67_108_864), "{fields:?}");
    // Too large for the limit: clamped to the plan's table, and said.
    brain.send("INFO hash_size 1000000");
    let note = brain.recv();
    assert!(
        note.starts_with("MESSAGE hash_size 1000000 KiB does not fit"),
        "{note}"
    );
    let plan = resources::plan(
        Wanted {
            threads: 1,
            hash_kib: 1_000_000,
            max_memory: 67_108_864,
            vct_tables: 0,
        },
        &Machine::detect(),
    );
    wait_for_table(&mut brain, plan.table_bytes as u64);
    assert!(plan.peak_bytes() <= 67_108_864);
    brain.send("INFO timeout_turn 200");
    brain.send("BEGIN");
    let mv = reply(&mut brain);
    assert!(parse_move(&mv).is_some(), "{mv}");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(10)).success());
}
