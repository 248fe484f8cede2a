//! The arena against fake brains: bash scripts written to a temp dir that play the first empty
//! cell in a fixed scan or misbehave in one way each. Time controls are small (100 ms a move)
//! so the whole file runs in seconds.

use bango::front::arena::{
    parse_openings, play_game, EngineSpec, GameConfig, Match, OpeningFormat, Openings, Reason,
};
use bango::game::board::{Board, Color, Pos};
use bango::game::rules::{play_checked, MoveOutcome, Rule};
use serde_json::json;
use std::path::PathBuf;

const FAKE: &str = r#"#!/bin/bash
# A fake Gomocup brain for the arena tests. It plays the first empty cell scanning rows from
# the top, left to right, unless MODE (the first argument) tells it to misbehave:
#   good      play the first empty cell, after a MESSAGE line
#   slow      sleep 0.4 s, then play like good
#   silent    never answer a move request, ignore END, linger after stdin closes
#   crash     exit on the first move request
#   garbage   answer "hello world"
#   offboard  answer a point one column past the board
#   occupied  answer the opponent's last move (or the first stone of BOARD)
#   refuse    answer START with ERROR
#   script    play the moves listed in MOVES ("x,y x,y ..."), in order, then fall silent
mode=${1:-good}
size=15
declare -A occ
read -r -a script <<< "${MOVES:-}"
next=0
last=
play() {
  case "$mode" in
    slow) sleep 0.4 ;;
    silent) return ;;
    crash) exit 3 ;;
    garbage) echo "hello world"; return ;;
    offboard) echo "$size,0"; return ;;
    occupied) echo "$last"; return ;;
    script)
      # Out of moves: say nothing.
      [ "$next" -lt "${#script[@]}" ] || return
      echo "${script[$next]}"
      occ[${script[$next]}]=1
      next=$((next + 1))
      return ;;
  esac
  echo "MESSAGE scanning for the first empty cell"
  for ((y = 0; y < size; y++)); do
    for ((x = 0; x < size; x++)); do
      if [ -z "${occ[$x,$y]}" ]; then
        occ[$x,$y]=1
        echo "$x,$y"
        return
      fi
    done
  done
}
while IFS= read -r line; do
  line=${line%$'\r'}
  case "$line" in
    START*)
      size=${line#START }
      if [ "$mode" = refuse ]; then echo "ERROR size $size unsupported"; else echo OK; fi ;;
    BEGIN) play ;;
    TURN*) last=${line#TURN }; occ[$last]=1; play ;;
    BOARD)
      last=
      while IFS= read -r l; do
        l=${l%$'\r'}
        [ "$l" = DONE ] && break
        IFS=, read -r x y _ <<< "$l"
        occ[$x,$y]=1
        [ -z "$last" ] && last="$x,$y"
      done
      play ;;
    END) [ "$mode" = silent ] || exit 0 ;;
  esac
done
[ "$mode" = silent ] && exec sleep 30
exit 0
"#;

/// Writes the fake brain into a fresh temp dir and returns that dir.
fn fake_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bango-arena-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fake.sh"), FAKE).unwrap();
    dir
}

fn fake(dir: &std::path::Path, mode: &str) -> EngineSpec {
    let mut e = EngineSpec::command(&format!("bash {}/fake.sh {mode}", dir.display()));
    e.name = mode.to_string();
    // The well-behaved fake gets a roomy clock of its own, so that a loaded machine cannot
    // make it lose on time; the tight match clock is for the misbehaving side.
    if mode == "good" {
        e.tc_turn_ms = Some(10_000);
    }
    e
}

fn fast() -> GameConfig {
    GameConfig {
        size: 15,
        rule: Rule::Freestyle,
        tc_turn_ms: 100,
        tc_match_ms: 0,
        tolerance_ms: 150,
        grace_ms: 1000,
        start_timeout_ms: 5000,
        max_memory: 0,
        max_moves: 0,
    }
}

/// Replays a record through the referee and returns the final board and last outcome.
fn replay(g: &bango::front::arena::GameRecord) -> (Board, Option<MoveOutcome>) {
    let mut b = Board::new(g.size);
    for &p in &g.opening {
        b.play(p).unwrap();
    }
    let mut last = None;
    for m in &g.moves {
        assert_eq!(b.side_to_move(), m.color);
        last = Some(play_checked(&mut b, m.pos, m.color, g.rule).unwrap());
    }
    (b, last)
}

#[test]
fn two_first_empty_fakes_play_to_a_five() {
    let dir = fake_dir("good");
    let g = play_game(&fake(&dir, "good"), &fake(&dir, "good"), &[], &fast()).unwrap();
    // Both fill cells in scan order, so stone k lands on index k = 15·y + x and black holds the
    // even indices. The anti-diagonal (4,0) (3,1) (2,2) (1,3) (0,4) has indices 4, 18, 32, 46,
    // 60, all black: stone 60 (black's 31st) is the first five.
    assert_eq!(g.moves.len(), 61);
    assert_eq!(g.winner, Some(Color::Black));
    assert_eq!(g.reason, Reason::Five);
    assert_eq!(g.moves.last().unwrap().pos, Pos::new(0, 4));
    assert_eq!(g.moves[1].pos, Pos::new(1, 0));
    let (_, last) = replay(&g);
    assert_eq!(last, Some(MoveOutcome::Win));
    // Every move was preceded by a MESSAGE, which the arena skipped and recorded.
    assert_eq!(g.messages[0].len(), 31);
    assert_eq!(g.messages[1].len(), 30);
    assert!(g.messages[0][0].starts_with("MESSAGE scanning"));
}

#[test]
fn an_opening_arrives_through_board() {
    let dir = fake_dir("board");
    // After the opening 7,7 (b) 8,7 (w) 7,8 (b) white is to move; both then fill from the top.
    let opening = [Pos::new(7, 7), Pos::new(8, 7), Pos::new(7, 8)];
    let g = play_game(&fake(&dir, "good"), &fake(&dir, "good"), &opening, &fast()).unwrap();
    assert_eq!(g.moves[0].color, Color::White);
    assert_eq!(g.moves[0].pos, Pos::new(0, 0));
    assert_eq!(g.moves[1].pos, Pos::new(1, 0));
    assert_eq!(g.reason, Reason::Five);
    let (b, last) = replay(&g);
    assert_eq!(last, Some(MoveOutcome::Win));
    assert_eq!(b.at(g.moves.last().unwrap().pos), g.winner);
}

/// Plays `bad` against the first-empty fake with `bad` as `colour` and checks who lost and why.
fn misbehaves(
    mode: &str,
    colour: Color,
    cfg: &GameConfig,
    reason: Reason,
) -> bango::front::arena::GameRecord {
    let dir = fake_dir(mode);
    let (bad, good) = (fake(&dir, mode), fake(&dir, "good"));
    let g = match colour {
        Color::Black => play_game(&bad, &good, &[], cfg),
        Color::White => play_game(&good, &bad, &[], cfg),
    }
    .unwrap();
    assert_eq!(g.reason, reason, "{mode}: {}", g.detail);
    assert_eq!(g.winner, Some(colour.opponent()), "{mode}: {}", g.detail);
    g
}

#[test]
fn too_slow_loses_on_time() {
    // The slow fake answers after 0.4 s; the budget is 100 ms + 150 ms tolerance, and the
    // grace of 1000 ms lets the arena see the late answer.
    let g = misbehaves("slow", Color::White, &fast(), Reason::TimeForfeit);
    assert_eq!(g.moves.len(), 1, "only black's first move counts");
    assert!(g.detail.contains("budget 100 ms"), "{}", g.detail);
}

#[test]
fn the_match_clock_is_enforced_too() {
    // No per-move limit, 300 ms for the whole game: the first 0.4 s answer overdraws it.
    let cfg = GameConfig {
        tc_turn_ms: 0,
        tc_match_ms: 300,
        tolerance_ms: 50,
        ..fast()
    };
    let g = misbehaves("slow", Color::Black, &cfg, Reason::TimeForfeit);
    assert!(g.moves.is_empty());
    assert!(g.detail.contains("budget 300 ms"), "{}", g.detail);
}

#[test]
fn silence_loses() {
    // Never answers; also ignores END and lingers, so the arena has to kill it.
    let g = misbehaves("silent", Color::Black, &fast(), Reason::NoReply);
    assert!(g.moves.is_empty());
}

#[test]
fn a_crash_loses() {
    let g = misbehaves("crash", Color::White, &fast(), Reason::Crash);
    assert_eq!(g.moves.len(), 1);
}

#[test]
fn garbage_loses() {
    let g = misbehaves("garbage", Color::Black, &fast(), Reason::Garbage);
    assert!(g.detail.contains("hello world"), "{}", g.detail);
}

#[test]
fn a_move_off_the_board_loses() {
    let g = misbehaves("offboard", Color::White, &fast(), Reason::OutOfBoard);
    assert!(g.detail.contains("15,0"), "{}", g.detail);
    assert_eq!(g.moves.len(), 1, "the illegal move is not recorded");
}

#[test]
fn a_move_on_an_occupied_point_loses() {
    // White's first request is BOARD with black's 0,0; the fake answers that very point.
    let g = misbehaves("occupied", Color::White, &fast(), Reason::Occupied);
    assert!(g.detail.contains("0,0"), "{}", g.detail);
}

#[test]
fn a_renju_forbidden_move_by_black_loses() {
    let dir = fake_dir("forbidden");
    // Opening (black first, alternating) building, with black to move:
    //   . . . . .
    //   . . . . .
    //   . . . . X      (4,2)
    //   . . . . X      (4,3)
    //   . . X X *      (2,4) (3,4); 4,4 is a double three
    // White's stones sit far away at (10,10) (10,12) (12,10) (12,12).
    let opening: Vec<Pos> = [
        (4, 2),
        (10, 10),
        (4, 3),
        (10, 12),
        (2, 4),
        (12, 10),
        (3, 4),
        (12, 12),
    ]
    .iter()
    .map(|&(x, y)| Pos::new(x, y))
    .collect();
    let mut black = EngineSpec::command(&format!(
        "env MOVES=4,4 bash {}/fake.sh script",
        dir.display()
    ));
    black.name = "forbidden".into();
    let renju = GameConfig {
        rule: Rule::Renju,
        ..fast()
    };
    let g = play_game(&black, &fake(&dir, "good"), &opening, &renju).unwrap();
    assert_eq!(g.reason, Reason::Forbidden, "{}", g.detail);
    assert_eq!(g.winner, Some(Color::White));
    // The same move is fine in freestyle; the script then has nothing left to say.
    let free = GameConfig {
        rule: Rule::Freestyle,
        ..fast()
    };
    let g = play_game(&black, &fake(&dir, "good"), &opening, &free).unwrap();
    assert_eq!(g.moves[0].pos, Pos::new(4, 4));
    assert_eq!(g.moves[1].pos, Pos::new(0, 0));
    assert_eq!(g.reason, Reason::NoReply, "{}", g.detail);
    assert_eq!(g.winner, Some(Color::White));
}

#[test]
fn an_engine_that_cannot_start_loses() {
    let bad = EngineSpec::command("/nonexistent/brain");
    let dir = fake_dir("nostart");
    let g = play_game(&fake(&dir, "good"), &bad, &[], &fast()).unwrap();
    assert_eq!(g.reason, Reason::StartFailed, "{}", g.detail);
    assert_eq!(g.winner, Some(Color::Black));
}

#[test]
fn an_error_to_start_loses() {
    let g = misbehaves("refuse", Color::Black, &fast(), Reason::StartFailed);
    assert!(
        g.detail.contains("ERROR size 15 unsupported"),
        "{}",
        g.detail
    );
}

#[test]
fn move_limit_and_full_board_draw() {
    let dir = fake_dir("draw");
    let cfg = GameConfig {
        max_moves: 10,
        ..fast()
    };
    let g = play_game(&fake(&dir, "good"), &fake(&dir, "good"), &[], &cfg).unwrap();
    assert_eq!(
        (g.winner, g.reason, g.moves.len()),
        (None, Reason::MoveLimit, 10)
    );
    // On a 6x6 board a column steps 6 cells in scan order, so every column keeps one colour
    // while rows and diagonals (steps 1, 7, 5) alternate: column 0 holds stones 0, 6, 12, 18,
    // 24, all black, and stone 24 at (0,4) is the first five.
    let six = GameConfig { size: 6, ..fast() };
    let g = play_game(&fake(&dir, "good"), &fake(&dir, "good"), &[], &six).unwrap();
    assert_eq!(
        (g.winner, g.reason, g.moves.len()),
        (Some(Color::Black), Reason::Five, 25)
    );
    assert_eq!(g.moves.last().unwrap().pos, Pos::new(0, 4));
    // On 5x5 after the opening 0,0 (b) 1,1 (w) the scan fills all 23 remaining cells without a
    // five (the diagonal is broken at 1,1; found by trying every two-stone opening).
    let five = GameConfig { size: 5, ..fast() };
    let opening = [Pos::new(0, 0), Pos::new(1, 1)];
    let g = play_game(&fake(&dir, "good"), &fake(&dir, "good"), &opening, &five).unwrap();
    assert_eq!(
        (g.winner, g.reason, g.moves.len()),
        (None, Reason::BoardFull, 23)
    );
    let (b, last) = replay(&g);
    assert!(b.is_full());
    assert_eq!(last, Some(MoveOutcome::Draw));
}

#[test]
fn a_per_engine_time_control_overrides_the_match_one() {
    let dir = fake_dir("override");
    let mut slow = fake(&dir, "slow");
    slow.tc_turn_ms = Some(1000);
    let cfg = GameConfig {
        max_moves: 2,
        ..fast()
    };
    // 0.4 s a move is fine within its own 1000 ms (the match default is 100 ms).
    let g = play_game(&slow, &fake(&dir, "good"), &[], &cfg).unwrap();
    assert_eq!(
        (g.winner, g.reason),
        (None, Reason::MoveLimit),
        "{}",
        g.detail
    );
    assert!(g.moves[0].ms >= 400, "{:?}", g.moves[0]);
}

#[test]
fn engine_arguments() {
    let e = EngineSpec::parse("env BANGO_ALGO=random ./target/release/pbrain-bango").unwrap();
    assert_eq!(e.name, "pbrain-bango:random");
    assert_eq!(e.cmd, "env BANGO_ALGO=random ./target/release/pbrain-bango");
    assert_eq!(e.tc_turn_ms, None);
    assert_eq!(
        EngineSpec::parse("bash /tmp/x/fake.sh good").unwrap().name,
        "fake.sh"
    );
    let e = EngineSpec::parse(
        "name=x,tc-turn=200,tc-match=5000,threads=2,info=hash_size 1024,info=caution_factor 2,cmd=prog --list 1,2",
    )
    .unwrap();
    assert_eq!(e.name, "x");
    assert_eq!(e.cmd, "prog --list 1,2");
    assert_eq!(
        (e.tc_turn_ms, e.tc_match_ms, e.threads),
        (Some(200), Some(5000), Some(2))
    );
    assert_eq!(e.info, vec!["hash_size 1024", "caution_factor 2"]);
    assert!(EngineSpec::parse("name=x").is_err());
    assert!(EngineSpec::parse("name=x,colour=red,cmd=prog").is_err());
    assert!(EngineSpec::parse("tc-turn=abc,cmd=prog").is_err());
}

fn pts(v: &[(usize, usize)]) -> Vec<Pos> {
    v.iter().map(|&(x, y)| Pos::new(x, y)).collect()
}

#[test]
fn opening_files_in_both_formats() {
    let data = bango_testkit::data_dir();
    // c-gomoku-cli offsets "8,-3, 6,-4, ..." on 20x20: centre 10, so 8,-3 is 18,7.
    let text =
        std::fs::read_to_string(data.join("raw/c-gomoku-cli-openings/offset_freestyle_20x20.txt"))
            .unwrap();
    let set = parse_openings(&text, OpeningFormat::Auto, 20, Rule::Freestyle).unwrap();
    assert_eq!(set.format, OpeningFormat::Offset);
    assert_eq!((set.openings.len(), set.skipped), (4, 0));
    assert_eq!(set.openings[0][..2], pts(&[(18, 7), (16, 6)]));
    // Piskvork's "0,0, 1,0, 1,3" on 15x15: centre 7.
    let text = std::fs::read_to_string(data.join("raw/piskvork-openings/openings.txt")).unwrap();
    let set = parse_openings(&text, OpeningFormat::Auto, 15, Rule::Freestyle).unwrap();
    assert_eq!(set.format, OpeningFormat::Offset);
    assert_eq!(set.openings[0], pts(&[(7, 7), (8, 7), (8, 10)]));
    assert_eq!(set.openings.len() + set.skipped, 41);
    assert!(set.skipped >= 1, "the last lines need 20x20");
    // Our absolute format.
    let text = std::fs::read_to_string(data.join("openings-renju-15.txt")).unwrap();
    let set = parse_openings(&text, OpeningFormat::Auto, 15, Rule::Renju).unwrap();
    assert_eq!(set.format, OpeningFormat::Absolute);
    assert_eq!((set.openings.len(), set.skipped), (26, 0));
    assert_eq!(set.openings[0], pts(&[(7, 7), (7, 6), (7, 5)]));
    // The format can be forced; a duplicate stone or a five does not pass the referee.
    let set = parse_openings("1,1 2,2\n", OpeningFormat::Offset, 15, Rule::Freestyle).unwrap();
    assert_eq!(set.openings[0], pts(&[(8, 8), (9, 9)]));
    let bad = "1,1 1,1\n0,0 9,9 1,0 9,10 2,0 9,11 3,0 9,12 4,0\n1,1 2,2\n";
    let set = parse_openings(bad, OpeningFormat::Absolute, 15, Rule::Freestyle).unwrap();
    assert_eq!((set.openings.len(), set.skipped), (1, 2));
    assert!(parse_openings("1,x\n", OpeningFormat::Auto, 15, Rule::Freestyle).is_err());
}

fn three_engine_match(seed: u64, openings: Openings) -> Match {
    Match {
        engines: ["a", "b", "c"]
            .iter()
            .map(|n| EngineSpec {
                name: n.to_string(),
                ..EngineSpec::command("true")
            })
            .collect(),
        game: fast(),
        games: 4,
        openings,
        seed,
        concurrency: 1,
        sprt: None,
        out: None,
        progress: false,
    }
}

#[test]
fn the_schedule_is_seeded_and_swaps_colours() {
    let random = Openings::Random {
        stones: 3,
        radius: 3,
    };
    let m = three_engine_match(7, random.clone());
    let s = m.schedule();
    assert_eq!(m.pairings(), vec![(0, 1), (0, 2), (1, 2)]);
    // Round robin, interleaved: games 0..3 are game 0 of each pairing, 3..6 game 1 (colours
    // swapped, same opening), then the next opening.
    let who: Vec<(usize, usize, usize)> = s
        .iter()
        .map(|g| (g.black, g.white, g.opening_index))
        .collect();
    assert_eq!(
        who,
        vec![
            (0, 1, 0),
            (0, 2, 0),
            (1, 2, 0),
            (1, 0, 0),
            (2, 0, 0),
            (2, 1, 0),
            (0, 1, 1),
            (0, 2, 1),
            (1, 2, 1),
            (1, 0, 1),
            (2, 0, 1),
            (2, 1, 1),
        ]
    );
    for g in &s {
        assert_eq!(g.opening, s[g.opening_index * 6].opening);
        assert_eq!(g.opening.len(), 3);
        assert!(g.opening.iter().all(|p| p.chebyshev(Pos::new(7, 7)) <= 3));
        assert!(
            bango::front::arena::openings::check_opening(&g.opening, 15, Rule::Freestyle).is_some()
        );
    }
    assert_ne!(s[0].opening, s[6].opening);
    // The same seed replays exactly; another seed does not. The first openings of seed 7 are
    // pinned so that a change of generator shows up here.
    assert_eq!(three_engine_match(7, random.clone()).schedule(), s);
    assert_ne!(
        three_engine_match(8, random).schedule()[0].opening,
        s[0].opening
    );
    assert_eq!(
        s[0].opening,
        PINNED_SEED7_OPENING0.map(|(x, y)| Pos::new(x, y))
    );

    // A file's openings in order, cycling when the match is longer than the file ...
    let list: Vec<Vec<Pos>> = (0..3).map(|i| pts(&[(7, 7), (8 + i, 6)])).collect();
    let in_order = Openings::List {
        openings: list.clone(),
        shuffle: false,
    };
    let mut m = three_engine_match(1, in_order);
    m.engines.truncate(2);
    m.games = 8;
    let firsts: Vec<usize> = m.schedule().iter().map(|g| g.opening[1].x() - 8).collect();
    assert_eq!(firsts, vec![0, 0, 1, 1, 2, 2, 0, 0]);
    // ... or shuffled by the seed (seed 1 happens to leave three openings in order).
    m.seed = 2;
    m.openings = Openings::List {
        openings: list,
        shuffle: true,
    };
    let firsts: Vec<usize> = m.schedule().iter().map(|g| g.opening[1].x() - 8).collect();
    assert_eq!(firsts, PINNED_SEED2_SHUFFLE.to_vec());
}

const PINNED_SEED7_OPENING0: [(usize, usize); 3] = [(6, 7), (4, 7), (9, 10)];
const PINNED_SEED2_SHUFFLE: [usize; 8] = [2, 2, 0, 0, 1, 1, 2, 2];

fn good_match(dir: &std::path::Path, games: usize) -> Match {
    let mut a = fake(dir, "good");
    a.name = "a".into();
    let mut b = fake(dir, "good");
    b.name = "b".into();
    Match {
        engines: vec![a, b],
        game: fast(),
        games,
        openings: Openings::Random {
            stones: 3,
            radius: 3,
        },
        seed: 3,
        concurrency: 2,
        sprt: None,
        out: Some(dir.join("out")),
        progress: false,
    }
}

#[test]
fn a_match_writes_records_and_a_summary() {
    let dir = fake_dir("match");
    let m = good_match(&dir, 4);
    let r = m.run().unwrap();
    assert_eq!(r.games.len(), 4);
    let p = &r.pairings[0];
    assert_eq!(p.wdl.games(), 4);
    // The fakes ignore colour, so an opening replays the same game with the colours swapped:
    // each side wins one of the two games of an opening.
    assert_eq!(p.wdl.wins, p.wdl.losses);
    let out = dir.join("out");
    for (sg, g) in &r.games {
        let text =
            std::fs::read_to_string(out.join(format!("game-{:04}.psq", sg.index + 1))).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert_eq!(lines.len(), 1 + g.opening.len() + g.moves.len() + 4);
        // 1-based coordinates; opening stones carry no time.
        let o = g.opening[0];
        assert_eq!(lines[1], format!("{},{},0", o.x() + 1, o.y() + 1));
        let m0 = g.moves[0];
        assert_eq!(
            lines[1 + g.opening.len()],
            format!("{},{},{}", m0.pos.x() + 1, m0.pos.y() + 1, m0.ms)
        );
        assert_eq!(
            lines[lines.len() - 4..],
            ["-1", g.black.as_str(), g.white.as_str(), "-1"]
        );
    }
    // The fakes' MESSAGE lines, one per move, are kept in a log beside the record.
    let (sg, g) = &r.games[0];
    let log = std::fs::read_to_string(out.join(format!("game-{:04}.log", sg.index + 1))).unwrap();
    assert_eq!(log.lines().count(), g.moves.len());
    assert!(
        log.starts_with(&format!("{}: MESSAGE scanning", g.black)),
        "{log}"
    );
    let summary = read_summary(&out);
    let pairing = &summary["pairings"][0];
    assert_eq!((&pairing["a"], &pairing["b"]), (&json!("a"), &json!("b")));
    assert_eq!(
        (&pairing["wins"], &pairing["losses"], &pairing["draws"]),
        (
            &json!(p.wdl.wins),
            &json!(p.wdl.losses),
            &json!(p.wdl.draws)
        )
    );
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), r.games.len());
    assert_eq!(games[3]["file"], json!("game-0004.psq"));
    assert_eq!(games[0]["moves"], json!(g.moves.len()));
}

/// The match summary as written, parsed.
fn read_summary(out: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("summary.json")).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("summary.json: {e}\n{text}"))
}

#[test]
fn the_sprt_stops_a_match_once_it_decides() {
    // Equal engines, H0: elo <= 300 against H1: elo >= 600, alpha = beta = 0.2 (lower bound
    // ln(0.2/0.8) = -1.386). s0 = 1/(1+10^-0.75) = 0.8490, s1 = 1/(1+10^-1.5) = 0.9693.
    // After 2k games split evenly (s = 0.5, var = 0.25) LLR = 2k·0.1203·(1 - 1.8184)/0.5
    // = -0.1969·2k: -1.18 after 6 games, -1.58 after 8. After 7 games at 3-4 (s = 3/7,
    // var = 12/49) LLR = 7·0.1203·(6/7 - 1.8184)/(24/49) = -1.65, at 4-3 it is -1.16.
    // So H0 is accepted after 7 or 8 of the 40 scheduled games.
    let dir = fake_dir("sprt");
    let mut m = good_match(&dir, 40);
    m.concurrency = 1;
    m.sprt = Some(bango::front::arena::Sprt::parse("300,600,0.2,0.2").unwrap());
    let r = m.run().unwrap();
    let (llr, decision) = r.pairings[0].sprt.unwrap();
    assert_eq!(decision, bango::front::arena::SprtDecision::H0);
    assert!(llr <= (0.2f64 / 0.8).ln());
    assert!(matches!(r.games.len(), 7 | 8), "{} games", r.games.len());
    assert_eq!(r.scheduled, 40);
}

#[test]
fn the_command_line() {
    let dir = fake_dir("cli");
    let out = dir.join("out");
    let engine = |mode: &str| {
        format!(
            "name={mode},tc-turn=10000,cmd=bash {}/fake.sh {mode}",
            dir.display()
        )
    };
    let args: Vec<String> = [
        "--games",
        "2",
        "--tc-turn",
        "100",
        "--tolerance",
        "150",
        "--grace",
        "300",
        "--seed",
        "5",
        "--size",
        "15",
        "--rule",
        "renju",
        "-q",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string(), engine("good"), engine("garbage")])
    .collect();
    // The command line through the binary, as a user runs it.
    let arena = |args: &[String]| {
        std::process::Command::new(bango_testkit::brain_binary())
            .arg("arena")
            .args(args)
            .output()
            .expect("run pbrain-bango arena")
            .status
            .code()
    };
    assert_eq!(arena(&args), Some(0));
    let summary = read_summary(&out);
    assert_eq!(summary["rule"], json!("renju"));
    let pairing = &summary["pairings"][0];
    assert_eq!(
        (&pairing["wins"], &pairing["losses"], &pairing["draws"]),
        (&json!(2), &json!(0), &json!(0))
    );
    assert_eq!(pairing["b_losses"], json!({"garbage": 2}));
    // Usage errors are exit code 2.
    assert_eq!(arena(&["only-one-engine".to_string()]), Some(2));
    assert_eq!(
        arena(&["--rule".into(), "chess".into(), "a".into(), "b".into()]),
        Some(2)
    );
}

#[test]
fn summary_figures_are_rounded_and_a_sweep_has_no_elo() {
    // A clean sweep has an infinite Elo: JSON has no infinity, so the summary says null.
    let dir = fake_dir("sweep");
    let out = dir.join("out");
    let mut m = good_match(&dir, 2);
    m.out = Some(out.clone());
    m.engines[1] = fake(&dir, "garbage");
    let r = m.run().unwrap();
    assert_eq!(r.pairings[0].wdl.wins, 2);
    let summary = read_summary(&out);
    assert_eq!(summary["pairings"][0]["elo"], serde_json::Value::Null);
    assert_eq!(summary["pairings"][0]["score"], json!(1.0));
    // Finite figures are given to two decimals.
    let mut m = good_match(&dir, 4);
    m.out = Some(out.clone());
    let r = m.run().unwrap();
    let summary = read_summary(&out);
    for key in ["score", "elo", "elo_error95"] {
        let Some(x) = summary["pairings"][0][key].as_f64() else {
            continue;
        };
        assert!(
            ((x * 100.0).round() - x * 100.0).abs() < 1e-6,
            "{key} = {x} has more than two decimals ({:?})",
            r.pairings[0].wdl
        );
    }
}

#[test]
fn random_openings_are_legal_under_renju() {
    use bango::front::arena::openings::{check_opening, random_opening};
    use bango::game::rng::SplitMix64;
    let mut rng = SplitMix64::new(11);
    let mut distinct = std::collections::HashSet::new();
    for _ in 0..200 {
        // Nine stones packed into a 5x5 box: fives and forbidden points are possible, and must
        // never be produced.
        let o = random_opening(&mut rng, 9, 2, 15, Rule::Renju);
        assert_eq!(o.len(), 9);
        assert!(o.iter().all(|p| p.chebyshev(Pos::new(7, 7)) <= 2));
        assert!(check_opening(&o, 15, Rule::Renju).is_some(), "{o:?}");
        distinct.insert(o);
    }
    assert!(distinct.len() > 190);
}

#[test]
fn paired_compares_two_candidates_game_by_game() {
    // Two candidates against the same opponent, same seed and openings: `new` plays the first
    // empty cell, `old` answers garbage and loses every game.
    let dir = fake_dir("paired");
    let run = |candidate: &str, name: &str, seed: u64| {
        let mut m = good_match(&dir, 4);
        m.engines[0] = fake(&dir, candidate);
        m.engines[0].name = name.into();
        m.engines[0].tc_turn_ms = m.engines[1].tc_turn_ms;
        m.engines[1].name = "opp".into();
        m.seed = seed;
        let out = dir.join(format!("{name}-{seed}"));
        m.out = Some(out.clone());
        m.run().unwrap();
        out
    };
    let (new, old, other_seed) = (
        run("good", "new", 5),
        run("garbage", "old", 5),
        run("good", "new", 6),
    );
    let new_score: f64 = read_summary(&new)["pairings"][0]["score"].as_f64().unwrap();
    let paired = |first: &PathBuf, second: &PathBuf| {
        std::process::Command::new(bango_testkit::brain_binary())
            .args(["paired", "--first"])
            .arg(first)
            .arg("--second")
            .arg(second)
            .output()
            .expect("run pbrain-bango paired")
    };
    let out = paired(&new, &old);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("second old: 4 games, +0 -4 =0"), "{text}");
    // Every game of `old` is lost, so the paired difference is `new`'s own score.
    let expected = format!("paired: first less second {:+.1} points", 100.0 * new_score);
    assert!(text.contains(&expected), "{expected} in {text}");
    // Runs of other seeds meet other openings: not comparable, and said so.
    let out = paired(&other_seed, &old);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("not the same game"), "{err}");
}
