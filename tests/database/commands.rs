//! Every database command's reply, exactly, over pipes.

use super::{at, brain, checked_count, expect_prefix, open, temp_dir};
use std::path::Path;

/// Before a database is open, every database command answers `ERROR no database open`, never
/// `UNKNOWN`.
#[test]
fn without_a_database_every_command_says_so() {
    let mut b = brain(None);
    for head in [
        "yxquerydatabaseall",
        "yxquerydatabaseallt",
        "yxquerydatabaseone",
        "yxquerydatabasetext",
        "yxedittvddatabase 1 87 0 0",
        "yxedittextdatabase \"x\"",
        "yxeditlabeldatabase 1,1 x",
        "yxdeletedatabaseone",
        "yxdeletedatabaseall",
        "yxsetbestmovedatabase",
        "yxclearbestmovedatabase",
    ] {
        at(&mut b, head, &[(7, 7)]);
        b.expect("ERROR no database open");
    }
    for word in [
        "yxdbtopos",
        "yxdbtotxt",
        "yxdbtotxtall",
        "yxtxttodb",
        "yxdbmerge",
        "yxdbsplit",
        "yxlibtodb",
        "yxdbtolib",
    ] {
        // Yixin-Board sends the path on the next line.
        b.send(word);
        b.send("/nonexistent/x");
        b.expect("ERROR no database open");
    }
    for word in ["yxsavedatabase", "yxdbcheck", "yxdbfix"] {
        b.send(word);
        b.expect("ERROR no database open");
    }
}

#[test]
fn queries_and_edits_reply_in_rapfis_formats() {
    let dir = temp_dir("formats");
    let path = dir.join("a.db");
    let mut b = brain(None);
    open(&mut b, &path, 0);
    at(&mut b, "yxquerydatabaseone", &[(7, 7)]);
    b.expect("MESSAGE DATABASE ONE 0 0 0 0");
    // W on the move 8,6: a loss for the side to move after it.
    at(&mut b, "yxedittvddatabase 1 87 0 0", &[(7, 7), (8, 6)]);
    b.expect("MESSAGE DATABASE ONE 87 -30000 0 3 W");
    at(&mut b, "yxedittvddatabase 2 -1 -35 0", &[(7, 7), (9, 9)]);
    b.expect("MESSAGE DATABASE ONE 0 -35 0 3");
    at(&mut b, "yxedittvddatabase 4 -1 0 12", &[(7, 7), (9, 9)]);
    b.expect("MESSAGE DATABASE ONE 0 -35 12 3");
    at(&mut b, "yxedittvddatabase 1 97 0 0", &[(7, 7), (9, 9)]);
    b.expect("MESSAGE DATABASE ONE 97 -35 12 3 a");
    at(&mut b, "yxeditlabeldatabase 3,3 mark", &[(7, 7)]);
    b.expect("MESSAGE database label at 3,3 saved");
    // The children of 7,7, each record at its four images (7,7 is the centre).
    at(&mut b, "yxquerydatabaseall", &[(7, 7)]);
    b.expect("MESSAGE DATABASE REFRESH");
    let mark = "1835102827 0 0 0 0 mark"; // "mark" packed big-endian
    for (x, y, rest) in [
        (3, 3, mark),
        (11, 3, mark),
        (5, 5, "97 -35 12 3 0 a"),
        (9, 5, "97 -35 12 3 0 a"),
        (6, 6, "87 -30000 0 3 0 W"),
        (8, 6, "87 -30000 0 3 0 W"),
        (6, 8, "87 -30000 0 3 0 W"),
        (8, 8, "87 -30000 0 3 0 W"),
        (5, 9, "97 -35 12 3 0 a"),
        (9, 9, "97 -35 12 3 0 a"),
        (3, 11, mark),
        (11, 11, mark),
    ] {
        b.expect(&format!("MESSAGE DATABASE {x} {y} {rest}"));
    }
    b.expect("MESSAGE DATABASE DONE");
    // Free text: quoted, escapes kept.
    at(&mut b, "yxedittextdatabase \"line \\\"one\\\"\"", &[(7, 7)]);
    b.expect("MESSAGE database text saved");
    at(&mut b, "yxquerydatabasetext", &[(7, 7)]);
    b.expect("MESSAGE DATABASE TEXT \"line \\\"one\\\"\"");
    // The root's children: 7,7 now has a record (with text, no label, no value).
    at(&mut b, "yxquerydatabaseallt", &[]);
    b.expect("MESSAGE DATABASE REFRESH");
    b.expect("MESSAGE DATABASE 7 7 -1 0 0 0 1");
    b.expect("MESSAGE DATABASE DONE");
    b.expect("MESSAGE DATABASE TEXT \"\"");
    // Best move: the last move of the list, stored on the position before it.
    at(&mut b, "yxsetbestmovedatabase", &[(7, 7), (10, 10)]);
    b.expect("MESSAGE database best move 10,10 saved");
    let txt = dir.join("a.txt");
    b.send(&format!("yxdbtotxt {}", txt.display()));
    b.expect(&format!(
        "MESSAGE database wrote 4 records to {}",
        txt.display()
    ));
    let content = std::fs::read_to_string(&txt).unwrap();
    let root_line = content.lines().find(|l| l.contains("\tb7,7\t")).unwrap();
    let f: Vec<&str> = root_line.split('\t').collect();
    assert_eq!(
        (f[0], f[1], f[2], f[4], f[5], f[7], f[8]),
        (
            "freestyle",
            "15x15",
            "white",
            "-",
            "10,10",
            "",
            "line \"one\""
        )
    );
    at(&mut b, "yxclearbestmovedatabase", &[(7, 7), (10, 10)]);
    b.expect("MESSAGE database best move cleared");
    at(&mut b, "yxdeletedatabaseone", &[(7, 7), (9, 9)]);
    b.expect("MESSAGE database deleted 1 records");
    at(&mut b, "yxdeletedatabaseone", &[(7, 7), (9, 9)]);
    b.expect("MESSAGE database deleted 0 records");
    // `wl` deletes the won/lost records below 7,7 and shows what is left.
    at(&mut b, "yxdeletedatabaseall wl", &[(7, 7)]);
    b.expect("MESSAGE database deleted 1 records");
    b.expect("MESSAGE DATABASE REFRESH");
    for (x, y) in [(3, 3), (11, 3), (3, 11), (11, 11)] {
        b.expect(&format!("MESSAGE DATABASE {x} {y} {mark}"));
    }
    b.expect("MESSAGE DATABASE DONE");
    at(&mut b, "yxdeletedatabaseall", &[]);
    b.expect("MESSAGE database deleted 2 records");
    b.expect("MESSAGE DATABASE REFRESH");
    b.expect("MESSAGE DATABASE DONE");
    assert_eq!(checked_count(&mut b), 0);
    b.send("yxsavedatabase");
    b.expect(&format!("MESSAGE database {} saved", path.display()));
    b.send("yxdbfix");
    b.expect("MESSAGE database fix: 0 records repaired");
}

/// Malformed arguments, impossible positions and unsupported requests: `ERROR <reason>`, and
/// nothing written.
#[test]
fn refused_commands_say_why_and_write_nothing() {
    let dir = temp_dir("refused");
    let mut b = brain(None);
    open(&mut b, &dir.join("a.db"), 0);
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (7, 7)]);
    b.expect("ERROR 7,7 is already occupied");
    at(&mut b, "yxedittvddatabase 1 87 0 0", &[(20, 1)]);
    b.expect("ERROR 20,1 is outside the board");
    at(&mut b, "yxedittvddatabase 1 2 3", &[(7, 7)]);
    b.expect("ERROR YXEDITTVDDATABASE takes mask label value depth, got 3 numbers; nothing done");
    at(&mut b, "yxedittvddatabase 9 0 0 0", &[(7, 7)]);
    b.expect("ERROR YXEDITTVDDATABASE: mask 9 (1 label, 2 value, 4 depth)");
    at(&mut b, "yxdeletedatabaseall sometimes", &[]);
    b.expect_error("unknown filter");
    at(&mut b, "yxeditlabeldatabase 7,7 x", &[(7, 7)]);
    b.expect("ERROR 7,7 is already occupied");
    at(&mut b, "yxsetbestmovedatabase", &[]);
    b.expect_error("the list is empty");
    b.send("START 20");
    b.expect("OK");
    b.send("yxdbtolib");
    b.send(&dir.join("x.lib").display().to_string());
    b.expect("ERROR YXDBTOLIB: Renlib files are 15x15; start a 15x15 game");
    assert!(!dir.join("x.lib").exists());
    b.send("START 15");
    b.expect("OK");
    b.send(&format!("yxtxttodb {}", dir.join("missing.txt").display()));
    b.expect_error("cannot read");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "bango-database-text 1\nfreestyle\t15x15\tblack\t-\twin\t-\t0\t\t\nrenju\t15x15\tblue\t-\t-\t-\t0\t\t\n").unwrap();
    b.send(&format!("yxtxttodb {}", bad.display()));
    b.expect(&format!(
        "ERROR {} line 3: bad side to move \"blue\"; nothing imported",
        bad.display()
    ));
    b.send(&format!("yxdbtotxt {}", dir.join("a.db").display()));
    b.expect_error("is the open database itself");
    assert_eq!(checked_count(&mut b), 0);
    // Read-only: writes are refused, reads work.
    b.send("INFO database_readonly 1");
    expect_prefix(&mut b, "MESSAGE database ");
    at(&mut b, "yxedittvddatabase 1 87 0 0", &[(7, 7)]);
    b.expect("ERROR database is open read-only");
    at(&mut b, "yxquerydatabaseone", &[(7, 7)]);
    b.expect("MESSAGE DATABASE ONE 0 0 0 0");
}

/// Text export and import round-trip exactly; merge, split, positions and Renlib import.
#[test]
fn export_import_merge_split_positions_and_renlib() {
    let dir = temp_dir("transfer");
    let (a, c) = (dir.join("a.db"), dir.join("c.db"));
    let mut b = brain(Some(4));
    open(&mut b, &a, 0);
    at(&mut b, "yxedittvddatabase 6 -1 20 8", &[(7, 7), (8, 7)]);
    expect_prefix(&mut b, "MESSAGE DATABASE ONE 0 20 8 3");
    at(
        &mut b,
        "yxedittvddatabase 1 76 0 0",
        &[(7, 7), (8, 7), (9, 9)],
    );
    expect_prefix(&mut b, "MESSAGE DATABASE ONE 76 30000 0 3 L");
    at(
        &mut b,
        "yxedittextdatabase \"elsewhere\"",
        &[(1, 1), (2, 2)],
    );
    b.expect("MESSAGE database text saved");
    let all = dir.join("all.txt");
    b.send(&format!("yxdbtotxtall {}", all.display()));
    b.expect(&format!(
        "MESSAGE database wrote 3 records to {}",
        all.display()
    ));
    let pos = dir.join("pos.txt");
    b.send(&format!("yxdbtopos {}", pos.display()));
    b.expect(&format!(
        "MESSAGE database wrote 3 positions to {} (0 skipped: stone counts)",
        pos.display()
    ));
    let mut lines: Vec<String> = std::fs::read_to_string(&pos)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.sort();
    assert_eq!(lines.len(), 3);
    assert!(
        lines
            .iter()
            .all(|l| l.split(", ").count() == 2 || l.split(", ").count() == 3),
        "{lines:?}"
    );
    // Split: the position 7,7 8,7 and what lies below it.
    b.send("YXBOARD");
    b.send("7,7,2");
    b.send("8,7,1");
    b.send("DONE");
    let split = dir.join("split.db");
    b.send(&format!("yxdbsplit {}", split.display()));
    b.expect(&format!(
        "MESSAGE database wrote 2 records to {}",
        split.display()
    ));
    b.send("END");
    b.wait_exit(std::time::Duration::from_secs(5));

    let mut b = brain(Some(4));
    open(&mut b, &c, 0);
    b.send(&format!("yxtxttodb {}", all.display()));
    b.expect(&format!(
        "MESSAGE database importing 3 records from {}",
        all.display()
    ));
    b.expect("MESSAGE database imported 3 records");
    let again = dir.join("again.txt");
    b.send(&format!("yxdbtotxtall {}", again.display()));
    b.expect(&format!(
        "MESSAGE database wrote 3 records to {}",
        again.display()
    ));
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&all).unwrap());
    b.send(&format!("yxdbmerge {}", split.display()));
    b.expect(&format!(
        "MESSAGE database merged 2 records from {}",
        split.display()
    ));
    assert_eq!(checked_count(&mut b), 3);
    // Renlib: H8, H9 (a variation), I8 with a comment, G7, and a board text on J9 below G7.
    let lib = dir.join("small.lib");
    let mut bytes = b"\xFFRenLib\xFF\x03\x00".to_vec();
    bytes.extend([0xFF; 10]);
    bytes.extend([0x78, 0x00, 0x68, 0x80, 0x79, 0x48]);
    bytes.extend(b"a\x08good\x00\x00");
    bytes.extend([0x87, 0x00, 0x6A, 0x43, 0x00, 0x01]);
    bytes.extend(b"X\x00");
    std::fs::write(&lib, &bytes).unwrap();
    b.send("yxlibtodb");
    b.send(&lib.display().to_string());
    b.expect(&format!(
        "MESSAGE database importing 5 positions from {}",
        lib.display()
    ));
    b.expect("MESSAGE database imported 5 positions (15x15, renju)");
    assert_eq!(std::fs::read(&lib).unwrap(), bytes, "the .lib is only read");
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (7, 6), (8, 7)]);
    b.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    at(&mut b, "yxquerydatabasetext", &[(7, 7), (7, 6), (8, 7)]);
    b.expect("MESSAGE DATABASE TEXT \"good\"");
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (6, 8), (9, 6)]);
    b.expect("MESSAGE DATABASE ONE 88 0 0 0 X");
    // Five lib positions, one of which (H8 H9) is a quarter turn of 7,7 8,7, already stored.
    assert_eq!(checked_count(&mut b), 7);
    // Back out as a Renlib tree, and into a fresh database: the same positions and labels.
    let out_lib = dir.join("out.lib");
    b.send(&format!("yxdbtolib {}", out_lib.display()));
    b.expect(&format!(
        "MESSAGE database wrote 6 positions to {} (Renlib)",
        out_lib.display()
    ));
    b.send(&format!("yxsetdatabase {}", dir.join("d.db").display()));
    expect_prefix(&mut b, "MESSAGE database ");
    b.send(&format!("yxlibtodb {}", out_lib.display()));
    b.expect(&format!(
        "MESSAGE database importing 6 positions from {}",
        out_lib.display()
    ));
    b.expect("MESSAGE database imported 6 positions (15x15, renju)");
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (7, 6), (8, 7)]);
    b.expect("MESSAGE DATABASE ONE 97 0 0 0 a");
    at(&mut b, "yxquerydatabaseone", &[(7, 7), (8, 7), (9, 9)]);
    b.expect("MESSAGE DATABASE ONE 76 0 0 0 L");
    assert!(Path::new(&split).exists());
}
