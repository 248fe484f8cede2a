//! The page's own referee and record formats checked against the library's.

use super::*;

/// The page's own referee (board.js) and record formats (record.js), run in the browser, against
/// the library's: `rules::is_win_at` on random positions under every rule, and the arena's PSQ
/// writer and openings reader.
#[tokio::test(flavor = "current_thread")]
async fn the_page_referee_and_records_agree_with_the_library() {
    use bango::front::arena::{
        parse_openings, record::psq, GameRecord, MoveRecord, OpeningFormat, Reason,
    };
    use bango::game::board::{Board, Color, Pos};
    use bango::game::rng::SplitMix64;
    use bango::game::rules::{is_win_at, Rule};

    // Random positions, each with a run of 4 to 7 stones so that every kind of line occurs:
    // fives, overlines, caro fives closed at one end or both, and near misses.
    let mut rng = SplitMix64::new(23);
    let mut cases = Vec::new();
    let mut want = Vec::new();
    for i in 0..400 {
        let rule = Rule::ALL[i % 4];
        let size = 5 + rng.below(12) as usize;
        let mut board = Board::new(size);
        let colour = |r: &mut SplitMix64| {
            if r.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            }
        };
        let run_colour = colour(&mut rng);
        let len = (4 + rng.below(4) as usize).min(size);
        let dirs = [(1i64, 0i64), (0, 1), (1, 1), (1, -1)];
        let (dx, dy) = dirs[rng.below(4) as usize];
        let x0 = rng.below(size as u64) as i64;
        let y0 = rng.below(size as u64) as i64;
        for k in 0..len as i64 {
            if let Some(p) = board.pos(x0 + dx * k, y0 + dy * k) {
                if board.at(p).is_none() {
                    board.put(p, run_colour).unwrap();
                }
            }
        }
        for _ in 0..size * size / 3 {
            let p = Pos::new(
                rng.below(size as u64) as usize,
                rng.below(size as u64) as usize,
            );
            if board.at(p).is_none() {
                let c = colour(&mut rng);
                board.put(p, c).unwrap();
            }
        }
        let mut cells = vec![0u8; size * size];
        let mut wins = Vec::new();
        for y in 0..size {
            for x in 0..size {
                let p = Pos::new(x, y);
                if let Some(c) = board.at(p) {
                    cells[y * size + x] = if c == Color::Black { 1 } else { 2 };
                    wins.push(is_win_at(&board, p, c, rule));
                }
            }
        }
        cases.push(json!({ "size": size, "rule": rule.name(), "cells": cells }));
        want.push(wins);
    }
    let total_wins: usize = want.iter().map(|w| w.iter().filter(|&&b| b).count()).sum();
    assert!(total_wins > 100, "the cases exercise wins: {total_wins}");

    // A game record as the arena writes it.
    let moves = [
        (7, 7, 0),
        (8, 8, 1200),
        (6, 8, 35),
        (0, 14, 999),
        (14, 0, 7),
    ];
    let record = GameRecord {
        black: "human".into(),
        white: "pbrain-bango".into(),
        size: 15,
        rule: Rule::Freestyle,
        opening: vec![],
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, &(x, y, ms))| MoveRecord {
                pos: Pos::new(x, y),
                color: if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                ms,
            })
            .collect(),
        winner: None,
        reason: Reason::Five,
        detail: String::new(),
        messages: [vec![], vec![]],
    };
    let arena_psq = psq(&record);
    let game = json!({
        "size": 15,
        "moves": moves.iter().map(|&(x, y, _)| json!({"x": x, "y": y})).collect::<Vec<_>>(),
        "times": moves.iter().map(|&(_, _, ms)| ms).collect::<Vec<_>>(),
        "black": "human",
        "white": "pbrain-bango",
    });

    with_board(|page, _server| async move {
        let got = page
            .c
            .execute_async(
                "const [cases, game, psq, done] = arguments;
                 Promise.all([import('/assets/board.js'), import('/assets/record.js')]).then(([b, r]) => {
                   const wins = cases.map((c) => {
                     const board = new b.Board(c.size);
                     board.cells.set(c.cells);
                     const out = [];
                     for (let y = 0; y < c.size; y++)
                       for (let x = 0; x < c.size; x++)
                         if (board.at(x, y) !== b.EMPTY) out.push(b.winningLine(board, x, y, c.rule) !== null);
                     return out;
                   });
                   const parsed = r.parseRecord(psq, 9);
                   done({
                     wins,
                     psq: r.formatRecord('psq', game),
                     moves: r.formatRecord('moves', game),
                     offset: r.formatRecord('offset', game),
                     parsed: { size: parsed.size, moves: parsed.moves, times: parsed.times },
                   });
                 }).catch((e) => done({ error: String(e) }));",
                vec![json!(cases), game.clone(), json!(arena_psq)],
            )
            .await
            .expect("the page's modules run");
        assert!(got.get("error").is_none(), "{got}");
        let wins: Vec<Vec<bool>> = serde_json::from_value(got["wins"].clone()).unwrap();
        for (i, (w, g)) in want.iter().zip(&wins).enumerate() {
            assert_eq!(w, g, "case {i}: {}", cases[i]);
        }
        assert_eq!(got["psq"].as_str().unwrap(), arena_psq, "PSQ as the arena writes it");
        assert_eq!(got["parsed"]["size"], 15);
        assert_eq!(got["parsed"]["moves"], game["moves"]);
        assert_eq!(got["parsed"]["times"], game["times"]);
        let stones: Vec<Pos> = moves.iter().map(|&(x, y, _)| Pos::new(x, y)).collect();
        for (format, text) in [("moves", &got["moves"]), ("offset", &got["offset"])] {
            let set = parse_openings(
                text.as_str().unwrap(),
                OpeningFormat::Auto,
                15,
                Rule::Freestyle,
            )
            .unwrap_or_else(|e| panic!("{format}: {e}"));
            let want_format = if format == "moves" {
                OpeningFormat::Absolute
            } else {
                OpeningFormat::Offset
            };
            assert_eq!(set.format, want_format, "{format}: {text}");
            assert_eq!(set.openings, vec![stones.clone()], "{format}: {text}");
        }
    })
    .await;
}
