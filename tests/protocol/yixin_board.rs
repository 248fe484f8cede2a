//! A Yixin-Board session, recorded as the board sends it (its `main.c`: lower-case words, paths
//! on the line after the word, positions as moves from the empty board ending in `done`): every
//! command of its analysis, opening, table and database menus once, each reply checked for its
//! format and its content, and no reply `UNKNOWN`.

use bango_testkit::brain::{Brain, Mode};
use std::path::PathBuf;

/// The commands this transcript must drive (issue 47's list).
const COVERED: &[&str] = &[
    "yxswap2step1",
    "yxswap2step2",
    "yxswap2step3",
    "yxsoosorvstep1",
    "yxsoosorvstep2",
    "yxsoosorvstep3",
    "yxsoosorvstep4",
    "yxsoosorvstep5",
    "yxsoosorvstep6",
    "yxdraw",
    "yxresign",
    "yxshowinfo",
    "yxshowhashusage",
    "yxhashdump",
    "yxhashload",
    "yxsetdatabase",
    "yxquerydatabaseall",
    "yxquerydatabaseone",
    "yxquerydatabasetext",
    "yxedittvddatabase",
    "yxeditlabeldatabase",
    "yxedittextdatabase",
    "yxdeletedatabaseone",
    "yxdeletedatabaseall",
    "yxsetbestmovedatabase",
    "yxclearbestmovedatabase",
    "yxsavedatabase",
    "yxdbtopos",
    "yxdbtotxt",
    "yxdbtotxtall",
    "yxtxttodb",
    "yxdbcheck",
    "yxdbfix",
    "yxdbmerge",
    "yxdbsplit",
    "yxlibtodb",
    "yxdbtolib",
    "info usedatabase",
];

/// The brain and everything sent and received.
struct Board {
    brain: Brain,
    sent: Vec<String>,
    replies: Vec<String>,
    dir: PathBuf,
}

impl Board {
    fn new(name: &str) -> Board {
        let dir = std::env::temp_dir().join(format!("bango-yixin-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let brain = Brain::spawn(
            Mode::Pipe,
            &[("BANGO_ALGO", ""), ("BANGO_SHOW_DETAIL", "0")],
        );
        let mut b = Board {
            brain,
            sent: Vec::new(),
            replies: Vec::new(),
            dir,
        };
        b.say(&["START 15"], 1)[0]
            .eq("OK")
            .then_some(())
            .expect("START");
        b.say(&["INFO timeout_turn 300", "INFO timeout_match 0"], 0);
        let folder = format!("INFO folder {}", b.dir.display());
        b.say(&[&folder], 0);
        b
    }

    fn path(&self, file: &str) -> String {
        self.dir.join(file).display().to_string()
    }

    /// Sends `lines` and reads `n` reply lines.
    fn say(&mut self, lines: &[&str], n: usize) -> Vec<String> {
        for l in lines {
            self.brain.send(l);
            self.sent.push(l.to_string());
        }
        let got: Vec<String> = (0..n).map(|_| self.brain.recv()).collect();
        self.replies.extend(got.iter().cloned());
        got
    }

    /// A position command: `head`, the moves, `done`; reads `n` replies.
    fn at(&mut self, head: &str, moves: &[(usize, usize)], n: usize) -> Vec<String> {
        let mut lines = vec![head.to_string()];
        lines.extend(moves.iter().map(|(x, y)| format!("{x},{y}")));
        lines.push("done".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        self.say(&refs, n)
    }

    /// A file command, the path on the next line; reads `n` replies.
    fn file(&mut self, word: &str, file: &str, n: usize) -> Vec<String> {
        let path = self.path(file);
        self.say(&[word, &path], n)
    }
}

/// `MESSAGE <tag> x y` points of a reply, checked on a 15x15 board and not in `taken`.
fn point(line: &str, prefix: &str, taken: &[(usize, usize)]) -> (usize, usize) {
    let rest = line
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{line:?} does not start {prefix:?}"));
    let v: Vec<usize> = rest
        .split(' ')
        .take(2)
        .map(|t| t.parse().unwrap())
        .collect();
    let p = (v[0], v[1]);
    assert!(p.0 < 15 && p.1 < 15 && !taken.contains(&p), "{line}");
    p
}

fn yxboard(stones: &[(usize, usize)]) -> Vec<String> {
    let mut lines = vec!["yxboard".to_string()];
    let n = stones.len();
    for (i, (x, y)) in stones.iter().enumerate() {
        // Field 1 is the side to move's: the colour of the stone after the last.
        let own = (n - i) % 2 == 0;
        lines.push(format!("{x},{y},{}", if own { 1 } else { 2 }));
    }
    lines.push("done".into());
    lines
}

#[test]
fn a_yixin_board_session_gets_an_answer_to_every_command() {
    let mut b = Board::new("session");
    // Capabilities.
    let info = b.say(&["yxshowinfo"], 3);
    assert!(info[0].starts_with("MESSAGE pbrain-bango "), "{info:?}");
    let threads: usize = info[1]
        .strip_prefix("MESSAGE INFO MAX_THREAD_NUM ")
        .unwrap()
        .parse()
        .unwrap();
    assert!(threads >= 1);
    let hash: u32 = info[2]
        .strip_prefix("MESSAGE INFO MAX_HASH_SIZE ")
        .unwrap()
        .parse()
        .unwrap();
    assert!((10..=40).contains(&hash), "{info:?}");

    // The database: INFO usedatabase opens bango.db in the folder; yxsetdatabase another file.
    let default_db = b.path("bango.db");
    assert_eq!(
        b.say(&["INFO usedatabase 1"], 1),
        [format!(
            "MESSAGE database {default_db} opened (0 positions)"
        )]
    );
    let db = b.path("a.db");
    assert_eq!(
        b.file("yxsetdatabase", "a.db", 1),
        [format!("MESSAGE database {db} opened (0 positions)")]
    );
    let root = [(7, 7), (8, 7)];
    let child = [(7, 7), (8, 7), (9, 9)];
    assert_eq!(
        b.at("yxquerydatabaseall", &root, 2),
        ["MESSAGE DATABASE REFRESH", "MESSAGE DATABASE DONE"]
    );
    // W on 9,9 ("W" packed is 87): the move wins, a proven loss after it.
    assert_eq!(
        b.at("yxedittvddatabase 1 87 0 0", &child, 1),
        ["MESSAGE DATABASE ONE 87 -30000 0 3 W"]
    );
    assert_eq!(
        b.at("yxeditlabeldatabase 10,10 hi", &root, 1),
        ["MESSAGE database label at 10,10 saved"]
    );
    assert_eq!(
        b.at("yxedittextdatabase \"a \\\"deep\\\" line\"", &root, 1),
        ["MESSAGE database text saved"]
    );
    assert_eq!(
        b.at("yxquerydatabasetext", &root, 1),
        ["MESSAGE DATABASE TEXT \"a \\\"deep\\\" line\""]
    );
    // The root is its own mirror image (y -> 14 - y), so each record labels two points.
    let all = b.at("yxquerydatabaseallt", &root, 7);
    assert_eq!(all[0], "MESSAGE DATABASE REFRESH");
    let mut children = all[1..5].to_vec();
    children.sort();
    // "hi" packed big-endian: 'h' * 256 + 'i'.
    let hi = i64::from(b'h') * 256 + i64::from(b'i');
    assert_eq!(
        children,
        [
            format!("MESSAGE DATABASE 10 10 {hi} 0 0 0 0 hi"),
            format!("MESSAGE DATABASE 10 4 {hi} 0 0 0 0 hi"),
            "MESSAGE DATABASE 9 5 87 -30000 0 3 0 W".to_string(),
            "MESSAGE DATABASE 9 9 87 -30000 0 3 0 W".to_string(),
        ]
    );
    assert_eq!(
        all[5..],
        [
            "MESSAGE DATABASE DONE".to_string(),
            "MESSAGE DATABASE TEXT \"a \\\"deep\\\" line\"".to_string()
        ]
    );
    assert_eq!(
        b.at("yxquerydatabaseone", &child, 1),
        ["MESSAGE DATABASE ONE 87 -30000 0 3 W"]
    );
    assert_eq!(
        b.at("yxsetbestmovedatabase", &child, 1),
        ["MESSAGE database best move 9,9 saved"]
    );
    assert_eq!(
        b.at("yxclearbestmovedatabase", &child, 1),
        ["MESSAGE database best move cleared"]
    );
    assert_eq!(
        b.say(&["yxsavedatabase"], 1),
        [format!("MESSAGE database {db} saved")]
    );
    assert_eq!(
        b.say(&["yxdbcheck"], 1),
        ["MESSAGE database check: 3 positions, no problems"]
    );
    assert_eq!(
        b.say(&["yxdbfix"], 1),
        ["MESSAGE database fix: 0 records repaired"]
    );
    // Exports, then the records deleted and read back in.
    let txt = b.path("all.txt");
    assert_eq!(
        b.file("yxdbtotxt", "a.txt", 1),
        [format!(
            "MESSAGE database wrote 3 records to {}",
            b.path("a.txt")
        )]
    );
    assert_eq!(
        b.file("yxdbtotxtall", "all.txt", 1),
        [format!("MESSAGE database wrote 3 records to {txt}")]
    );
    let pos = b.file("yxdbtopos", "pos.txt", 1);
    assert!(
        pos[0].starts_with(&format!(
            "MESSAGE database wrote 3 positions to {}",
            b.path("pos.txt")
        )),
        "{pos:?}"
    );
    assert_eq!(
        std::fs::read_to_string(b.path("pos.txt"))
            .unwrap()
            .lines()
            .count(),
        3
    );
    let split = b.path("split.db");
    assert_eq!(
        b.file("yxdbsplit", "split.db", 1),
        [format!("MESSAGE database wrote 3 records to {split}")]
    );
    let lib = b.file("yxdbtolib", "a.lib", 1);
    assert!(
        lib[0].starts_with("MESSAGE database wrote ") && lib[0].ends_with("(Renlib)"),
        "{lib:?}"
    );
    assert_eq!(
        b.at("yxdeletedatabaseone", &child, 1),
        ["MESSAGE database deleted 1 records"]
    );
    // Everything below the empty board, then the children query of the root answers nothing.
    let gone = b.at("yxdeletedatabaseall", &[], 3);
    assert_eq!(
        gone,
        [
            "MESSAGE database deleted 2 records",
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE DONE"
        ]
    );
    assert_eq!(
        b.file("yxtxttodb", "all.txt", 2),
        [
            format!("MESSAGE database importing 3 records from {txt}"),
            "MESSAGE database imported 3 records".to_string()
        ]
    );
    assert_eq!(
        b.at("yxquerydatabaseone", &child, 1),
        ["MESSAGE DATABASE ONE 87 -30000 0 3 W"],
        "the text export read back"
    );
    assert_eq!(
        b.file("yxdbmerge", "split.db", 1),
        [format!("MESSAGE database merged 3 records from {split}")]
    );
    let imported = b.file("yxlibtodb", "a.lib", 2);
    assert!(
        imported[0].starts_with("MESSAGE database importing ")
            && imported[1].starts_with("MESSAGE database imported "),
        "{imported:?}"
    );

    // The table.
    let pos = yxboard(&[(7, 7), (8, 7), (7, 8)]);
    let refs: Vec<&str> = pos.iter().map(String::as_str).collect();
    b.say(&refs, 0);
    let draw = b.say(&["yxdraw"], 1);
    assert!(
        draw[0].starts_with("MESSAGE DRAW DECLINE score ")
            || draw[0].starts_with("MESSAGE DRAW ACCEPT score "),
        "{draw:?}"
    );
    let resign = b.say(&["yxresign"], 1);
    assert!(
        resign[0].starts_with("MESSAGE RESIGN NO score "),
        "an even opening is never resigned: {resign:?}"
    );
    let usage = b.say(&["yxshowhashusage"], 1);
    assert!(usage[0].starts_with("MESSAGE hash usage "), "{usage:?}");
    let dumped = b.file("yxhashdump", "h.bin", 1);
    assert!(dumped[0].starts_with("MESSAGE hash dumped: "), "{dumped:?}");
    let loaded = b.file("yxhashload", "h.bin", 1);
    assert!(loaded[0].starts_with("MESSAGE hash loaded: "), "{loaded:?}");

    // Swap2, as Yixin-Board runs it: step 1 on an empty board, 2 and 3 on the board it sets.
    let three = b.say(&["yxswap2step1"], 3);
    let mut taken = Vec::new();
    for (k, line) in three.iter().enumerate() {
        let p = point(line, &format!("MESSAGE SWAP2 MOVE{} ", k + 1), &taken);
        taken.push(p);
    }
    let pos = yxboard(&taken);
    let refs: Vec<&str> = pos.iter().map(String::as_str).collect();
    b.say(&refs, 0);
    let step2 = b.say(&["yxswap2step2"], 1);
    assert!(
        step2[0] == "MESSAGE SWAP2 SWAP1 YES"
            || step2[0] == "MESSAGE SWAP2 SWAP1 NO"
            || step2[0].starts_with("MESSAGE SWAP2 MOVE4 "),
        "{step2:?}"
    );
    if step2[0].starts_with("MESSAGE SWAP2 MOVE4 ") {
        let fourth = point(&step2[0], "MESSAGE SWAP2 MOVE4 ", &taken);
        taken.push(fourth);
        let fifth = b.say(&[], 1);
        taken.push(point(&fifth[0], "MESSAGE SWAP2 MOVE5 ", &taken));
    } else {
        // We took a colour: the other side's two stones, anywhere free.
        let free: Vec<(usize, usize)> = [(10, 4), (4, 4), (10, 10), (3, 3)]
            .into_iter()
            .filter(|p| !taken.contains(p))
            .take(2)
            .collect();
        taken.extend(free);
    }
    let pos = yxboard(&taken);
    let refs: Vec<&str> = pos.iter().map(String::as_str).collect();
    b.say(&refs, 0);
    let step3 = b.say(&["yxswap2step3"], 1);
    assert!(
        step3[0] == "MESSAGE SWAP2 SWAP2 YES" || step3[0] == "MESSAGE SWAP2 SWAP2 NO",
        "{step3:?}"
    );

    // Soosõrv-8, renju.
    b.say(&["INFO rule 4"], 0);
    let opening: Vec<(usize, usize)> = b
        .say(&["yxsoosorvstep1"], 3)
        .iter()
        .enumerate()
        .map(|(k, l)| point(l, &format!("MESSAGE SOOSORV MOVE{} ", k + 1), &[]))
        .collect();
    let swap1 = b.at("yxsoosorvstep2", &opening, 1);
    assert!(
        swap1[0] == "MESSAGE SOOSORV SWAP1 Y" || swap1[0] == "MESSAGE SOOSORV SWAP1 N",
        "{swap1:?}"
    );
    let fourth = b.at("yxsoosorvstep3", &opening, 1);
    let p4 = point(&fourth[0], "MESSAGE SOOSORV MOVE4 ", &opening);
    let n: usize = fourth[0].rsplit(' ').next().unwrap().parse().unwrap();
    assert!((1..=8).contains(&n), "{fourth:?}");
    let mut four = opening.clone();
    four.push(p4);
    let swap2 = b.at(&format!("yxsoosorvstep4 {n}"), &four, 1);
    assert!(
        swap2[0] == "MESSAGE SOOSORV SWAP2 Y" || swap2[0] == "MESSAGE SOOSORV SWAP2 N",
        "{swap2:?}"
    );
    let offers = b.at(&format!("yxsoosorvstep5 {n}"), &four, n + 2);
    assert_eq!(offers[0], "MESSAGE SOOSORV MOVE5 REFRESH");
    assert_eq!(offers[n + 1], "MESSAGE SOOSORV MOVE5 DONE");
    let mut fifths = Vec::new();
    for line in &offers[1..=n] {
        let p = point(line, "MESSAGE SOOSORV MOVE5 ", &four);
        assert!(!fifths.contains(&p), "{offers:?}");
        fifths.push(p);
    }
    let mut with_offers = four.clone();
    with_offers.extend(&fifths);
    let chosen = b.at("yxsoosorvstep6", &with_offers, 1);
    let c = point(&chosen[0], "MESSAGE SOOSORV MOVE5C ", &four);
    assert!(fifths.contains(&c), "{chosen:?} not among {fifths:?}");

    // The database closed: its commands say so.
    assert_eq!(
        b.say(&["INFO usedatabase 0"], 1),
        ["MESSAGE database closed"]
    );
    assert_eq!(
        b.at("yxquerydatabaseone", &child, 1),
        ["ERROR no database open"]
    );
    b.say(&["END"], 0);
    b.brain.wait_exit(std::time::Duration::from_secs(10));

    for line in &b.replies {
        assert!(!line.starts_with("UNKNOWN"), "{line}\n{}", b.brain.dump());
    }
    let sent = b.sent.join("\n").to_ascii_lowercase();
    for word in COVERED {
        assert!(sent.contains(word), "{word} not driven");
    }
}
