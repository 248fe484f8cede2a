//! Two `random` brains play whole games against each other through the protocol; this test is
//! the manager (START, INFO, BEGIN, TURN ...). Every move is checked for legality and the winner
//! is decided by a five-in-a-row check written here, independent of `bango::game::rules` (only the
//! renju forbidden-move referee is borrowed from the library, whose own tests verify it against
//! the shared test set).
//!
//! `BANGO_SELFPLAY_GAMES` raises the number of games (default 100).

use bango::game::board::{Board, Color, Pos};
use bango::game::rules::{self, Rule};
use bango_testkit::brain::{parse_move, Brain, Mode};

const SIZE: usize = 15;

/// The independent referee: does the stone just played at (x, y) by `c` win under `rule`?
fn wins(cells: &[[Option<Color>; SIZE]; SIZE], x: usize, y: usize, c: Color, rule: Rule) -> bool {
    let at = |x: i64, y: i64| -> Option<Color> {
        if x < 0 || y < 0 || x >= SIZE as i64 || y >= SIZE as i64 {
            None
        } else {
            cells[y as usize][x as usize]
        }
    };
    for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        let (x, y) = (x as i64, y as i64);
        let mut f = 1;
        while at(x + dx * f, y + dy * f) == Some(c) {
            f += 1;
        }
        let mut b = 1;
        while at(x - dx * b, y - dy * b) == Some(c) {
            b += 1;
        }
        let len = f + b - 1;
        let ok = match rule {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
            Rule::Renju => len == 5 || (len > 5 && c == Color::White),
            Rule::Caro => {
                let in_board =
                    |x: i64, y: i64| x >= 0 && y >= 0 && x < SIZE as i64 && y < SIZE as i64;
                let end1 = (x + dx * f, y + dy * f);
                let end2 = (x - dx * b, y - dy * b);
                let blocked =
                    |(ex, ey): (i64, i64)| in_board(ex, ey) && at(ex, ey) == Some(c.opponent());
                len == 5 && !(blocked(end1) && blocked(end2))
            }
        };
        if ok {
            return true;
        }
    }
    false
}

#[derive(Default, Debug)]
struct Tally {
    black: usize,
    white: usize,
    draws: usize,
    moves: usize,
}

fn start(brain: &mut Brain, rule: Rule) {
    brain.send(&format!("START {SIZE}"));
    brain.expect("OK");
    brain.send(&format!("INFO rule {}", rule.info_bits()));
    brain.send("INFO timeout_turn 1000");
}

fn play_game(brains: &mut [Brain; 2], black: usize, rule: Rule, tally: &mut Tally) {
    for b in brains.iter_mut() {
        start(b, rule);
    }
    let mut cells = [[None; SIZE]; SIZE];
    let mut board = Board::new(SIZE);
    let mut side = black;
    let mut colour = Color::Black;
    let mut last: Option<(usize, usize)> = None;
    loop {
        let b = &mut brains[side];
        match last {
            None => b.send("BEGIN"),
            Some((x, y)) => b.send(&format!("TURN {x},{y}")),
        }
        let line = b.recv();
        let (x, y) =
            parse_move(&line).unwrap_or_else(|| panic!("not a move {line:?}\n{}", b.dump()));
        assert!(x < SIZE && y < SIZE, "off-board {line}\n{}", b.dump());
        assert!(cells[y][x].is_none(), "occupied {line}\n{}", b.dump());
        let p = Pos::new(x, y);
        if colour == Color::Black {
            assert!(
                !rules::is_forbidden(&mut board, p, rule),
                "forbidden {line} under {rule}\n{board:?}\n{}",
                b.dump()
            );
        }
        // The baseline always takes a win when one is there.
        let could_win = (0..SIZE * SIZE).any(|i| {
            let (qx, qy) = (i % SIZE, i / SIZE);
            cells[qy][qx].is_none() && {
                let mut c = cells;
                c[qy][qx] = Some(colour);
                wins(&c, qx, qy, colour, rule)
            }
        });
        board.put(p, colour).unwrap();
        cells[y][x] = Some(colour);
        tally.moves += 1;
        let won = wins(&cells, x, y, colour, rule);
        assert!(
            won || !could_win,
            "{colour:?} missed a win under {rule}: played {line}\n{board:?}"
        );
        if won {
            match colour {
                Color::Black => tally.black += 1,
                Color::White => tally.white += 1,
            }
            return;
        }
        if board.is_full() {
            tally.draws += 1;
            return;
        }
        last = Some((x, y));
        side = 1 - side;
        colour = colour.opponent();
    }
}

#[test]
fn random_brains_play_full_games_through_the_protocol() {
    let games: usize = std::env::var("BANGO_SELFPLAY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut brains = [
        Brain::spawn(Mode::Pipe, &[("BANGO_SEED", "11")]),
        Brain::spawn(Mode::Pipe, &[("BANGO_SEED", "29")]),
    ];
    // Freestyle and renju carry the bulk; standard and caro are played too.
    let schedule = [
        Rule::Freestyle,
        Rule::Renju,
        Rule::Freestyle,
        Rule::Renju,
        Rule::Standard,
        Rule::Caro,
    ];
    let mut per_rule: Vec<(Rule, Tally)> =
        Rule::ALL.iter().map(|&r| (r, Tally::default())).collect();
    let t0 = std::time::Instant::now();
    for g in 0..games {
        let rule = schedule[g % schedule.len()];
        let tally = &mut per_rule.iter_mut().find(|(r, _)| *r == rule).unwrap().1;
        // Colours alternate between the two brains.
        play_game(&mut brains, g % 2, rule, tally);
    }
    let total: usize = per_rule
        .iter()
        .map(|(_, t)| t.black + t.white + t.draws)
        .sum();
    assert_eq!(total, games);
    for (rule, t) in &per_rule {
        eprintln!("{rule}: {t:?}");
    }
    eprintln!("{games} games in {:?}", t0.elapsed());
    for (rule, t) in &per_rule {
        let n = t.black + t.white + t.draws;
        if n >= 10 {
            // One-move tactics on both sides still finish most games with a five.
            assert!(t.black + t.white > n / 3, "{rule}: {t:?}");
        }
    }
    for b in brains.iter_mut() {
        b.send("END");
        assert_eq!(
            b.wait_exit(std::time::Duration::from_secs(5)).code(),
            Some(0)
        );
    }
}
