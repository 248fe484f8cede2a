//! The yardstick end to end: a match directory with one game lost to a plain blunder (an open
//! three left alone), judged by the brain itself; the decisive position must be that move, and
//! a searching player must hold where the game's move did not.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-bango")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-yardstick-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Black builds an open three on row 7, white a two on row 8; white then makes its own three
/// and leaves black's open: black makes an open four and five.
const STONES: [(usize, usize); 9] = [
    (7, 7),
    (7, 8),
    (8, 7),
    (8, 8),
    (9, 7),
    (9, 8),
    (10, 7),
    (10, 8),
    (11, 7),
];

fn write_match(dir: &Path) {
    let mut psq = String::from("Piskvorky 15x15, 11:11, 0\n");
    for (x, y) in STONES {
        psq.push_str(&format!("{},{},0\n", x + 1, y + 1));
    }
    psq.push_str("-1\nwinner\nloser\n-1\n");
    std::fs::write(dir.join("game-0001.psq"), psq).unwrap();
    let summary = r#"{"rule": "freestyle", "size": 15, "games": [
        {"file": "game-0001.psq", "black": "winner", "white": "loser", "winner": "black",
         "reason": "five", "opening": ["7,7", "7,8", "8,7"]}]}"#;
    std::fs::write(dir.join("summary.json"), summary).unwrap();
}

/// The brain as a judge (its book off: a book move comes without an evaluation); its scores
/// are on a scale of 1000 a logit.
fn judge_args() -> Vec<String> {
    vec![
        "--judge".into(),
        format!("env BANGO_BOOK=off '{}'", bin()),
        "--judge-scale".into(),
        "1000".into(),
    ]
}

#[test]
fn the_blunder_is_found_and_a_searching_player_holds_there() {
    let dir = temp("match");
    write_match(&dir);
    let out = dir.join("decisive.txt");
    let collect = Command::new(bin())
        .args(["yardstick", "collect"])
        .arg(&dir)
        .args(["--player", "loser", "--quick-ms", "100", "--long-ms", "300"])
        // Black's tempo leaves white under 0.2 by the brain's reckoning before the blunder.
        .args(["--min-before", "0", "--min-drop", "0.1", "--out"])
        .arg(&out)
        .args(judge_args())
        .output()
        .unwrap();
    assert!(
        collect.status.success(),
        "{}",
        String::from_utf8_lossy(&collect.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 1, "{text}");
    // Before white's third move: five stones, white to move, the game's move was 9,8.
    let line = lines[0];
    assert!(
        line.starts_with("15 freestyle w 7,7,b 7,8,w 8,7,b 8,8,w 9,7,b |"),
        "{line}"
    );
    assert!(line.contains(" played 9,8 "), "{line}");
    let best = line
        .split(" best ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(
        ["6,7", "10,7", "5,7", "11,7"].contains(&best),
        "the judge's move {best} should stop the three"
    );

    let score = Command::new(bin())
        .args(["yardstick", "score"])
        .arg(&out)
        .args(["--split", "all", "--player-ms", "200", "--judge-ms", "300"])
        .args(["--tolerance", "0.3", "--verbose", "--out"])
        .arg(dir.join("results.txt"))
        .args(judge_args())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&score.stdout);
    assert!(
        score.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&score.stderr)
    );
    assert!(report.contains(": 1/1 = 100.0% "), "{report}");
    assert!(!report.contains("moved 9,8"), "{report}");

    // The results file pairs with a run that replayed the game's move (written by hand).
    let results = std::fs::read_to_string(dir.join("results.txt")).unwrap();
    assert!(results.starts_with("line 2 ") && results.trim_end().ends_with(" holds"));
    let replay = results.replace(" holds", " drops");
    std::fs::write(dir.join("replay.txt"), replay).unwrap();
    let compare = Command::new(bin())
        .args(["yardstick", "compare"])
        .arg(dir.join("replay.txt"))
        .arg(dir.join("results.txt"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&compare.stdout);
    assert!(compare.status.success(), "{text}");
    assert!(
        text.contains("+100.0 points") && text.contains("only the second 1, of 1"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_without_losses_of_the_player_is_an_error() {
    let dir = temp("none");
    write_match(&dir);
    let run = Command::new(bin())
        .args(["yardstick", "collect"])
        .arg(&dir)
        .args(["--player", "winner", "--out"])
        .arg(dir.join("x.txt"))
        .args(judge_args())
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("winner lost no game"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `yardstick label` gives each position the judge's move and evaluation and keeps its stones
/// and game result; a file mixing rules is refused.
#[test]
fn label_takes_the_judges_move_and_evaluation() {
    let dir = temp("label");
    let input = dir.join("positions.txt");
    std::fs::write(
        &input,
        "# two renju positions\n\
         15 renju b 7,7,b 7,8,w 8,7,b 8,8,w 9,7,b 9,8,w 10,7,b 0,14,w | best 0,0 eval 0 depth 0 result 1\n\
         15 renju w 7,7,b 8,8,w 6,8,b | best 0,0 eval 0 depth 0 result 0.5\n",
    )
    .unwrap();
    let out = dir.join("labelled.txt");
    let run = Command::new(bin())
        .args(["yardstick", "label"])
        .arg(&input)
        .args(["--judge-ms", "200", "--out"])
        .arg(&out)
        .args(judge_args())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    // Black makes five at either end of its four.
    assert!(
        lines[0]
            .starts_with("15 renju b 7,7,b 7,8,w 8,7,b 8,8,w 9,7,b 9,8,w 10,7,b 0,14,w | best ")
            && (lines[0].contains("best 6,7 ") || lines[0].contains("best 11,7 "))
            && lines[0].contains("eval mate+1 ")
            && lines[0].ends_with("result 1"),
        "{}",
        lines[0]
    );
    // A quiet opening: a move of its own and a plain evaluation, the result kept.
    assert!(
        lines[1].starts_with("15 renju w 7,7,b 8,8,w 6,8,b | best ")
            && !lines[1].contains("best 0,0 ")
            && !lines[1].contains("mate")
            && lines[1].ends_with("result 0.5"),
        "{}",
        lines[1]
    );
    std::fs::write(
        &input,
        "15 renju b 7,7,b 8,8,w | best 0,0 eval 0 depth 0\n\
         15 freestyle b 7,7,b 8,8,w | best 0,0 eval 0 depth 0\n",
    )
    .unwrap();
    let mixed = Command::new(bin())
        .args(["yardstick", "label"])
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(judge_args())
        .output()
        .unwrap();
    assert!(!mixed.status.success());
    assert!(
        String::from_utf8_lossy(&mixed.stderr).contains("freestyle"),
        "{}",
        String::from_utf8_lossy(&mixed.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
