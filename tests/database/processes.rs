//! The file across processes: written by one brain and read by another, symmetric positions,
//! a brain killed in the middle of an import, two brains on one file, and foreign files.

use super::{at, brain, checked_count, expect_prefix, expect_slow, open, temp_dir};
use bango::game::board::{Color, Pos};
use bango::game::rules::Rule;
use bango::knowledge::database::Position;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

/// How long an import of 200000 records may take on a loaded machine.
const SLOW: Duration = Duration::from_secs(120);

fn end(mut b: bango_testkit::brain::Brain) {
    b.send("END");
    assert!(b.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn a_record_written_in_one_process_is_read_in_another() {
    let path = temp_dir("two-processes").join("a.db");
    let mut writer = brain(Some(4));
    open(&mut writer, &path, 0);
    at(
        &mut writer,
        "yxedittvddatabase 6 -1 -35 12",
        &[(7, 7), (8, 6)],
    );
    writer.expect("MESSAGE DATABASE ONE 0 -35 12 3");
    end(writer);
    let mut reader = brain(Some(4));
    open(&mut reader, &path, 1);
    at(&mut reader, "yxquerydatabaseone", &[(7, 7), (8, 6)]);
    reader.expect("MESSAGE DATABASE ONE 0 -35 12 3");
    // Under another rule it is another position.
    reader.send("INFO rule 0");
    at(&mut reader, "yxquerydatabaseone", &[(7, 7), (8, 6)]);
    reader.expect("MESSAGE DATABASE ONE 0 0 0 0");
}

#[test]
fn a_mirrored_and_a_rotated_position_hit_the_same_record() {
    let path = temp_dir("symmetry").join("a.db");
    let mut b = brain(None);
    open(&mut b, &path, 0);
    at(
        &mut b,
        "yxedittvddatabase 1 97 0 0",
        &[(7, 7), (9, 6), (3, 2)],
    );
    b.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    end(b);
    let mut b = brain(None);
    open(&mut b, &path, 1);
    // Mirrored: x -> 14 - x.
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (5, 6), (11, 2)]);
    b.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    // A quarter turn: (x, y) -> (14 - y, x); and the move order does not matter.
    at(&mut b, "yxquerydatabaseone", &[(12, 3), (8, 9), (7, 7)]);
    b.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    // The label shows at the rotated move on the rotated parent's board.
    at(&mut b, "yxquerydatabaseall", &[(7, 7), (8, 9)]);
    b.expect("MESSAGE DATABASE REFRESH");
    b.expect("MESSAGE DATABASE 12 3 97 0 0 0 0 a");
    b.expect("MESSAGE DATABASE DONE");
    // A different position does not.
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (9, 6), (3, 3)]);
    b.expect("MESSAGE DATABASE ONE 0 0 0 0");
}

/// A text file of `n` random six-stone positions, and how many distinct positions it holds.
fn big_import(path: &Path, n: usize) -> usize {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::from("bango-database-text 1\n");
    let mut keys = HashSet::new();
    for i in 0..n {
        let mut cells: Vec<usize> = Vec::new();
        while cells.len() < 6 {
            let c = (next() % 225) as usize;
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        let stones: Vec<(Pos, Color)> = cells
            .iter()
            .enumerate()
            .map(|(j, &c)| {
                (
                    Pos::new(c % 15, c / 15),
                    if j % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                )
            })
            .collect();
        let pos = Position {
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            stones: stones.clone(),
            to_move: Color::Black,
        };
        keys.insert(pos.canonical().key);
        let shown: Vec<String> = stones
            .iter()
            .map(|(p, c)| {
                format!(
                    "{}{},{}",
                    if *c == Color::Black { 'b' } else { 'w' },
                    p.x(),
                    p.y()
                )
            })
            .collect();
        text.push_str(&format!(
            "freestyle\t15x15\tblack\t{}\t{}/{}\t-\t1700000000\tl{i}\t\n",
            shown.join(" "),
            i % 200,
            i % 30
        ));
    }
    std::fs::write(path, text).unwrap();
    keys.len()
}

#[test]
fn a_brain_killed_in_the_middle_of_an_import_leaves_all_or_none_of_it() {
    let dir = temp_dir("killed");
    let (db, txt) = (dir.join("a.db"), dir.join("big.txt"));
    let distinct = big_import(&txt, 200_000);
    let mut b = brain(None);
    open(&mut b, &db, 0);
    at(&mut b, "yxedittvddatabase 1 97 0 0", &[(0, 0)]);
    b.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    b.send(&format!("yxtxttodb {}", txt.display()));
    b.expect(&format!(
        "MESSAGE database importing 200000 records from {}",
        txt.display()
    ));
    // The transaction has begun; kill the process inside it.
    std::thread::sleep(Duration::from_millis(400));
    let killed = std::process::Command::new("kill")
        .args(["-9", &b.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    b.wait_exit(Duration::from_secs(10));
    let finished = b.transcript.iter().any(|l| l.contains("imported"));
    let mut after = brain(None);
    after.send(&format!("yxsetdatabase {}", db.display()));
    let line = expect_prefix(
        &mut after,
        &format!("MESSAGE database {} opened (", db.display()),
    );
    let count = checked_count(&mut after);
    assert!(
        count == 1 || count == 1 + distinct,
        "{count} records after the kill ({line})"
    );
    assert!(
        finished || count == 1,
        "the import was cut: none of it may be there"
    );
    eprintln!("after the kill: {count} records (import finished before it: {finished})");
    at(&mut after, "yxquerydatabaseone", &[(0, 0)]);
    after.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    // And the file takes the whole import afterwards.
    after.send(&format!("yxtxttodb {}", txt.display()));
    expect_prefix(&mut after, "MESSAGE database importing 200000 records");
    expect_slow(&mut after, "MESSAGE database imported 200000 records", SLOW);
    assert_eq!(checked_count(&mut after), 1 + distinct);
}

#[test]
fn two_brains_on_one_file_wait_or_say_it_is_locked_and_do_not_corrupt_it() {
    let dir = temp_dir("locked");
    let (db, txt) = (dir.join("a.db"), dir.join("big.txt"));
    let distinct = big_import(&txt, 200_000);
    let mut a = brain(None);
    let mut b = brain(None);
    open(&mut a, &db, 0);
    open(&mut b, &db, 0);
    a.send(&format!("yxtxttodb {}", txt.display()));
    expect_prefix(&mut a, "MESSAGE database importing 200000 records");
    std::thread::sleep(Duration::from_millis(200));
    // B writes while A holds the write lock: it waits for it or gives up with a clear error.
    at(&mut b, "yxedittvddatabase 1 87 0 0", &[(0, 0)]);
    let reply = b.recv();
    eprintln!("the second brain's write during the import: {reply}");
    let wrote = match reply.as_str() {
        "MESSAGE DATABASE ONE 87 -30000 0 3 W" => true,
        "ERROR database is locked by another process" => false,
        other => panic!("unexpected reply {other:?}\n{}", b.dump()),
    };
    // B reads meanwhile (WAL: readers are not blocked by the writer).
    at(&mut b, "yxquerydatabaseone", &[(1, 1)]);
    b.expect("MESSAGE DATABASE ONE 0 0 0 0");
    expect_slow(&mut a, "MESSAGE database imported 200000 records", SLOW);
    if !wrote {
        at(&mut b, "yxedittvddatabase 1 87 0 0", &[(0, 0)]);
        b.expect("MESSAGE DATABASE ONE 87 -30000 0 3 W");
    }
    assert_eq!(checked_count(&mut a), distinct + 1);
    assert_eq!(checked_count(&mut b), distinct + 1);
}

#[test]
fn foreign_files_are_refused_and_left_byte_identical() {
    let dir = temp_dir("foreign");
    let yixin = dir.join("yixin.db");
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 251) as u8).collect();
    std::fs::write(&yixin, &bytes).unwrap();
    let mut b = brain(None);
    b.send(&format!("yxsetdatabase {}", yixin.display()));
    b.expect(&format!(
        "ERROR {} is not a bango position database (not an SQLite file); the file was not touched",
        yixin.display()
    ));
    at(&mut b, "yxquerydatabaseone", &[(7, 7)]);
    b.expect("ERROR no database open");
    b.send(&format!("yxdbmerge {}", yixin.display()));
    b.expect("ERROR no database open");
    // `INFO usedatabase 1` opens bango.db in the folder; a foreign one is refused in a MESSAGE.
    std::fs::write(dir.join("bango.db"), &bytes).unwrap();
    b.send(&format!("INFO folder {}", dir.display()));
    b.send("INFO usedatabase 1");
    expect_prefix(&mut b, "MESSAGE database not opened: ");
    open(&mut b, &dir.join("ours.db"), 0);
    b.send(&format!("yxdbmerge {}", yixin.display()));
    b.expect_error("is not a bango position database");
    b.send(&format!("yxdbsplit {}", yixin.display()));
    b.expect_error("is not a bango position database");
    assert_eq!(std::fs::read(&yixin).unwrap(), bytes);
    assert_eq!(std::fs::read(dir.join("bango.db")).unwrap(), bytes);
    // usedatabase in a clean folder creates and opens bango.db; 0 closes it.
    let clean = temp_dir("foreign-clean");
    b.send(&format!("INFO folder {}", clean.display()));
    b.send("INFO usedatabase 0");
    b.expect("MESSAGE database closed");
    b.send("INFO usedatabase 1");
    b.expect(&format!(
        "MESSAGE database {} opened (0 positions)",
        clean.join("bango.db").display()
    ));
}
