//! Yixin-Board's table and judgement commands, black box over pipes: `yxhashdump` /
//! `yxhashload` (a dump loaded into a fresh brain dumps to the same bytes and saves it search;
//! bad files are refused and change nothing), `yxshowhashusage`, `yxshowinfo`, `yxdraw` and
//! `yxresign`.

use bango::engine::config::Config;
use bango::engine::resources::{largest_table_kib, Machine, Wanted};
use bango_testkit::brain::{board_lines, parse_move, send_board, Brain, Mode};
use std::path::{Path, PathBuf};

/// The searching brain, one worker, no book (pure search: node counts compare).
fn searcher() -> Brain {
    Brain::spawn(Mode::Pipe, &[("BANGO_ALGO", ""), ("BANGO_BOOK", "off")])
}

/// The search depth of every search here: deep enough that a loaded table saves most of it.
const DEPTH: u32 = 8;

/// A 15x15 freestyle game with a 1 MiB table (allocated at once), one worker, depth
/// [`DEPTH`], the log.
fn setup(b: &mut Brain, hash_kib: u32) {
    b.send("START 15");
    b.expect("OK");
    for info in [
        "INFO rule 0".to_string(),
        "INFO thread_num 1".to_string(),
        format!("INFO hash_size {hash_kib}"),
        "INFO timeout_turn 60000".to_string(),
        format!("INFO max_depth {DEPTH}"),
        "INFO show_detail 1".to_string(),
    ] {
        b.send(&info);
    }
}

/// A quiet middle game, white (O) to move.
const MIDDLE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . . O X O . . . . . . .
    . . . . . . X O . . . . . . .
    . . . . . X O . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

/// Searches MIDDLE as white to [`DEPTH`]: the move and the nodes of the last iteration.
fn search_middle(b: &mut Brain) -> (String, u64) {
    send_board(b, "BOARD", &board_lines(MIDDLE, 'O', None));
    let mut nodes = None;
    loop {
        let line = b.recv();
        if let Some(rest) = line.strip_prefix(&format!("MESSAGE depth {DEPTH} ") as &str) {
            let n = rest
                .split(" nodes ")
                .nth(1)
                .and_then(|r| r.split(' ').next());
            nodes = n.and_then(|n| n.parse().ok());
        } else if parse_move(&line).is_some() {
            let nodes = nodes.unwrap_or_else(|| panic!("no depth-{DEPTH} line\n{}", b.dump()));
            return (line, nodes);
        }
    }
}

/// A scratch folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-yixin-table-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `yxhashdump` with the path on the next line, as Yixin-Board sends it; the entry count.
fn dump(b: &mut Brain, path: &Path) -> usize {
    b.send("yxhashdump");
    b.send(path.to_str().unwrap());
    let reply = b.recv();
    let size = std::fs::metadata(path).unwrap().len();
    let rest = reply
        .strip_prefix("MESSAGE hash dumped: ")
        .unwrap_or_else(|| panic!("{reply:?}\n{}", b.dump()));
    let (entries, tail) = rest.split_once(" entries, ").unwrap();
    assert_eq!(tail, format!("{size} bytes to {}", path.display()));
    entries.parse().unwrap()
}

/// `yxshowhashusage`: its reply, checked against `live` entries of `slots`.
fn usage(b: &mut Brain, live: usize, slots: usize) {
    b.send("yxshowhashusage");
    let permille = live * 1000 / slots;
    b.expect(&format!(
        "MESSAGE hash usage {}.{}% ({live} of {slots} entries)",
        permille / 10,
        permille % 10
    ));
}

/// The slots of a dump's table, from its header (bucket count at bytes 12..20).
fn slots_of(bytes: &[u8]) -> usize {
    2 * u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize
}

/// Done-when of issue 47: dump, load into a fresh brain, dump again gives the same bytes; the
/// loaded brain searches fewer nodes to the same depth than a fresh one; usage agrees.
#[test]
fn a_dump_loaded_into_a_fresh_brain_dumps_the_same_and_saves_search() {
    let dir = scratch("roundtrip");
    let (first, second) = (dir.join("first.bin"), dir.join("second dump.bin"));

    let mut original = searcher();
    setup(&mut original, 1024);
    let (fresh_move, fresh_nodes) = search_middle(&mut original);
    let live = dump(&mut original, &first);
    let bytes = std::fs::read(&first).unwrap();
    assert_eq!(&bytes[..12], b"BANGOTT\0\x01\0\0\0");
    assert!(
        live > 100,
        "a depth-{DEPTH} search left only {live} entries"
    );
    usage(&mut original, live, slots_of(&bytes));

    let mut loaded = searcher();
    setup(&mut loaded, 1024);
    usage(&mut loaded, 0, slots_of(&bytes));
    loaded.send(&format!("YXHASHLOAD {}", first.display()));
    loaded.expect(&format!(
        "MESSAGE hash loaded: {live} entries from {}",
        first.display()
    ));
    usage(&mut loaded, live, slots_of(&bytes));
    assert_eq!(dump(&mut loaded, &second), live);
    assert_eq!(std::fs::read(&second).unwrap(), bytes, "dumps differ");

    // The same search on the loaded table: same depth, far fewer nodes.
    let (_, loaded_nodes) = search_middle(&mut loaded);
    eprintln!("depth {DEPTH}: fresh {fresh_nodes} nodes, loaded {loaded_nodes} ({live} entries)");
    assert!(
        loaded_nodes * 2 < fresh_nodes,
        "loaded {loaded_nodes} nodes, fresh {fresh_nodes}"
    );
    // A fresh brain repeats the original search exactly (deterministic mode): the saving is
    // the table's.
    let mut again = searcher();
    setup(&mut again, 1024);
    assert_eq!(search_middle(&mut again), (fresh_move, fresh_nodes));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Truncated, other-version, corrupted, foreign, missing and other-size files: `ERROR` with
/// the reason, and the table dumps to the same bytes as before.
#[test]
fn bad_dumps_are_refused_and_leave_the_table_as_it_was() {
    let dir = scratch("bad");
    let good = dir.join("good.bin");
    let mut b = searcher();
    setup(&mut b, 1024);
    search_middle(&mut b);
    let live = dump(&mut b, &good);
    let bytes = std::fs::read(&good).unwrap();

    let mut version = bytes.clone();
    version[8] = 7;
    let mut flipped = bytes.clone();
    flipped[60] ^= 1;
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "truncated.bin",
            bytes[..bytes.len() - 10].to_vec(),
            format!(
                "truncated dump ({} bytes, {} needed)",
                bytes.len() - 10,
                bytes.len()
            ),
        ),
        (
            "header.bin",
            bytes[..20].to_vec(),
            "truncated dump (20 bytes, 41 needed)".into(),
        ),
        (
            "version.bin",
            version,
            "dump format version 7; this brain reads version 1".into(),
        ),
        (
            "flipped.bin",
            flipped,
            "checksum mismatch (corrupted dump)".into(),
        ),
        (
            "foreign.bin",
            b"Yixin hash v2\n".to_vec(),
            "not a bango table dump (bad magic)".into(),
        ),
    ];
    for (name, contents, why) in cases {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        b.send(&format!("yxhashload {}", path.display()));
        b.expect(&format!(
            "ERROR YXHASHLOAD {}: {why}; table unchanged",
            path.display()
        ));
    }
    let missing = dir.join("missing.bin");
    b.send(&format!("yxhashload {}", missing.display()));
    b.expect_error("No such file or directory");
    b.send("yxhashload");
    b.send("yxshowhashusage");
    b.expect("ERROR YXHASHLOAD: no path given");
    b.expect(&format!(
        "MESSAGE hash usage {}.{}% ({live} of {} entries)",
        live * 1000 / slots_of(&bytes) / 10,
        live * 1000 / slots_of(&bytes) % 10,
        slots_of(&bytes)
    ));
    let after = dir.join("after.bin");
    assert_eq!(dump(&mut b, &after), live);
    assert_eq!(std::fs::read(&after).unwrap(), bytes, "the table changed");
    // `yxhashclear` (silent) empties it.
    b.send("yxhashclear");
    usage(&mut b, 0, slots_of(&bytes));

    // A brain with a table of another size refuses the dump, and keeps its own table.
    let mut other = searcher();
    setup(&mut other, 2048);
    let own = dir.join("own.bin");
    assert_eq!(dump(&mut other, &own), 0);
    let own_bytes = std::fs::read(&own).unwrap();
    other.send(&format!("yxhashload {}", good.display()));
    other.expect(&format!(
        "ERROR YXHASHLOAD {}: dump of a table of {} buckets; this table has {} (set the same \
         hash_size first); table unchanged",
        good.display(),
        slots_of(&bytes) / 2,
        slots_of(&own_bytes) / 2
    ));
    assert_eq!(dump(&mut other, &own), 0);
    assert_eq!(std::fs::read(&own).unwrap(), own_bytes);

    // A dump into a folder that does not exist writes nothing and says why.
    let nowhere = dir.join("no such folder").join("x.bin");
    b.send(&format!("yxhashdump {}", nowhere.display()));
    b.expect_error(&format!("YXHASHDUMP {}: ", nowhere.display()));
    assert!(!nowhere.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `yxshowinfo` as Yixin-Board reads it: `MESSAGE INFO MAX_THREAD_NUM n` and
/// `MESSAGE INFO MAX_HASH_SIZE k` (its hash slider sends `hash_size 2^k`).
#[test]
fn showinfo_gives_the_limits_yixin_board_reads() {
    let mut b = searcher();
    b.send("INFO max_memory 367001600");
    b.send("yxshowinfo");
    let name = b.recv();
    assert!(
        name.starts_with("MESSAGE pbrain-bango ") && name.ends_with(" (alphabeta)"),
        "{name}"
    );
    let threads = b.recv();
    let n: usize = threads
        .strip_prefix("MESSAGE INFO MAX_THREAD_NUM ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{threads:?}"));
    let machine = Machine::detect();
    assert_eq!(n, machine.thread_cap());
    let mut config = Config::default();
    config.brain.max_memory = 367_001_600;
    let kib = largest_table_kib(Wanted::of(&config), &machine);
    b.expect(&format!("MESSAGE INFO MAX_HASH_SIZE {}", kib.ilog2()));
    b.send("yxshowinfo now");
    b.expect("ERROR YXSHOWINFO takes no arguments");
}

/// Black (X) to move (four stones each) facing white's open four: lost for black.
const LOST: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . X . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . X .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . O O O O . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . X . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . X .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

/// `yxdraw` / `yxresign` from our side: accept and resign when lost, decline and play on when
/// won, and nothing of the game changes.
#[test]
fn draw_and_resign_answer_from_the_evaluation() {
    let mut b = searcher();
    b.send("yxdraw");
    b.expect("ERROR YXDRAW: no game: send START first");
    setup(&mut b, 1024);
    send_board(&mut b, "YXBOARD", &board_lines(LOST, 'X', None));
    b.send("yxresign");
    let resign = b.recv();
    assert!(
        resign.starts_with("MESSAGE RESIGN YES score loss "),
        "{resign}"
    );
    b.send("yxdraw");
    let draw = b.recv();
    assert!(
        draw.starts_with("MESSAGE DRAW ACCEPT score loss "),
        "{draw}"
    );
    // The same stones, ours the other way round: we (black now) to move with an open four.
    send_board(&mut b, "YXBOARD", &board_lines(LOST, 'O', None));
    b.send("yxdraw");
    b.expect("MESSAGE DRAW DECLINE score win 1");
    b.send("yxresign");
    b.expect("MESSAGE RESIGN NO score win 1");
    // Back to the lost side, and we move: one end blocked, white to move makes five. The
    // judgement is of white's move, from our side.
    send_board(&mut b, "BOARD", &board_lines(LOST, 'X', None));
    let reply = loop {
        let line = b.recv();
        if !line.starts_with("MESSAGE ") {
            break line;
        }
    };
    assert!(reply == "3,7" || reply == "8,7", "{reply}\n{}", b.dump());
    b.send("yxresign");
    b.expect("MESSAGE RESIGN YES score loss 1");
    b.send("yxdraw");
    b.expect("MESSAGE DRAW ACCEPT score loss 1");
    // Nothing of the game changed: our move is on the board, and we are still black.
    b.send("PRINT");
    let print = b.recv();
    assert!(print.contains(", 9 stones, we play black,"), "{print}");
}

/// An algorithm without a table (random) refuses the table commands and writes nothing.
#[test]
fn without_a_table_the_commands_say_so() {
    let dir = scratch("random");
    let path = dir.join("r.bin");
    let mut b = Brain::spawn(Mode::Pipe, &[]);
    let none = "the random algorithm keeps no transposition table";
    b.send(&format!("yxhashdump {}", path.display()));
    b.expect(&format!("ERROR {none}"));
    b.send("yxhashload");
    b.send(path.to_str().unwrap());
    b.expect(&format!("ERROR {none}"));
    b.send("yxshowhashusage");
    b.expect(&format!("ERROR {none}"));
    assert!(!path.exists());
    b.send("START 15");
    b.expect("OK");
    b.send("yxresign");
    b.expect(
        "ERROR YXRESIGN: the random algorithm gave no evaluation (it judges no positions, or no \
         search iteration completed in the time given)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
