//! Playing against the engine: a click and its answer, the thinking panel, take back, the
//! end of a game under each rule, renju's forbidden points.

use super::*;

#[tokio::test(flavor = "current_thread")]
async fn a_click_places_a_stone_and_the_engine_answers_in_time() {
    with_board(|page, _server| async move {
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "15"),
            ("black", "human"),
            ("time", "300"),
        ])
        .await;
        page.click_point(7, 7).await;
        let moves = page.wait_moves(2).await;
        page.wait_idle().await;
        assert_eq!(moves[0], (7, 7));
        let (x, y) = moves[1];
        assert!(x < 15 && y < 15 && (x, y) != (7, 7), "{moves:?}");
        assert_eq!(
            page.count(&format!(
                "circle.stone.white[data-x=\"{x}\"][data-y=\"{y}\"]"
            ))
            .await,
            1,
            "the reply is drawn as a white stone"
        );
        assert_eq!(
            page.count("circle.stone.black[data-x=\"7\"][data-y=\"7\"]")
                .await,
            1
        );
        // The page's clock runs from sending TURN to reading the reply; the brain's own budget
        // is 300 ms, plus the arena's 1 s tolerance for the trip through the browser.
        let ms = page
            .js("return Number(document.querySelector('#moves-table tr[data-n=\"2\"]').dataset.ms)")
            .await
            .as_f64()
            .expect("the engine's move is in the table");
        assert!(ms <= 1300.0, "the engine took {ms} ms for a 300 ms move");
        let log = page.protocol_log().await;
        assert!(log.contains("> TURN 7,7"), "{log}");
        assert_no_errors(&log);
        assert_eq!(
            page.js("return document.getElementById('status').dataset.state")
                .await,
            "ready"
        );
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_thinking_panel_shows_completed_depths_while_the_engine_thinks() {
    with_board(|page, _server| async move {
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "15"),
            ("black", "human"),
            ("time", "2500"),
        ])
        .await;
        page.set("numbers", "true").await;
        page.load(MIDDLE_GAME).await;
        // While it thinks: depths arrive one by one.
        page.wait_js(
            "six completed depths while thinking",
            "document.getElementById('status').dataset.state === 'thinking' && \
             document.querySelectorAll('#think-table tbody tr').length >= 6",
        )
        .await;
        let live = page.think_depths().await;
        let png = page.c.screenshot().await.expect("screenshot");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("target dir")
            .join("gui-screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot dir");
        std::fs::write(dir.join("mid-game.png"), &png).expect("save the screenshot");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let moves = page.wait_moves(10).await;
        page.wait_idle().await;
        let depths = page.think_depths().await;
        assert!(depths.len() >= live.len() && depths.len() >= 3, "{depths:?}");
        // Newest first, one row per completed depth, none skipped.
        for w in depths.windows(2) {
            assert_eq!(w[0], w[1] + 1, "{depths:?}");
        }
        let top = depths[0];
        let row = page
            .js("return [...document.querySelectorAll('#think-table tbody tr')[0].cells].map(c => c.textContent)")
            .await;
        let cells: Vec<&str> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let nodes: u64 = cells[4].replace(',', "").parse().expect("nodes");
        assert!(nodes > 0, "{cells:?}");
        assert!(!cells[2].is_empty() && cells[2] != "–", "a score: {cells:?}");
        assert!(cells[7].split(' ').count() >= 2, "a principal variation: {cells:?}");
        // The move table records the engine's move with the depth it reached.
        let stats = page
            .js("const r = document.querySelector('#moves-table tr[data-n=\"10\"]'); \
                 return r && [r.dataset.depth, r.cells[1].textContent]")
            .await;
        assert_eq!(stats[0], json!(top.to_string()), "{stats:?}");
        let (x, y) = moves[9];
        assert_eq!(stats[1], json!(format!("{x},{y}")));
        assert_no_errors(&page.protocol_log().await);
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn take_back_restores_the_previous_position() {
    with_board(|page, _server| async move {
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "15"),
            ("black", "human"),
            ("time", "200"),
        ])
        .await;
        page.click_point(7, 7).await;
        let two = page.wait_moves(2).await;
        page.wait_idle().await;
        let free = [(5, 5), (9, 9), (5, 9), (9, 5)]
            .into_iter()
            .find(|p| !two.contains(p))
            .unwrap();
        page.click_point(free.0, free.1).await;
        let four = page.wait_moves(4).await;
        page.wait_idle().await;
        assert_eq!(&four[..2], &two[..]);
        page.click("takeback").await;
        let back = page.wait_moves(2).await;
        page.wait_idle().await;
        assert_eq!(back, two, "the position before our last move");
        assert_eq!(page.count("circle.stone").await, 2);
        assert_eq!(page.count("#moves-table tbody tr").await, 1);
        let log = page.protocol_log().await;
        let (a, b) = (four[3], four[2]);
        assert!(
            log.contains(&format!("> TAKEBACK {},{}", a.0, a.1))
                && log.contains(&format!("> TAKEBACK {},{}", b.0, b.1)),
            "{log}"
        );
        // The brain's board went back too: the next move is a plain TURN, and it is answered.
        page.click_point(free.0, free.1).await;
        let again = page.wait_moves(4).await;
        page.wait_idle().await;
        assert_eq!(&again[..3], &four[..3]);
        let log = page.protocol_log().await;
        let last_ask = log
            .lines()
            .rev()
            .find(|l| l.starts_with("> TURN") || l.starts_with("> BOARD"))
            .unwrap();
        assert_eq!(last_ask, format!("> TURN {},{}", free.0, free.1));
        assert_no_errors(&log);
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_five_ends_the_game_with_the_banner_and_an_overline_does_not_under_standard() {
    with_board(|page, _server| async move {
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "15"),
            ("black", "human"),
            ("time", "200"),
        ])
        .await;
        // Black (us) has four in row 7; white's stones are scattered down column 0.
        page.load("7,7 0,0 8,7 0,2 9,7 0,4 10,7 0,6").await;
        page.wait_idle().await;
        assert_eq!(page.count("#banner:not([hidden])").await, 0);
        page.click_point(11, 7).await;
        page.wait_js(
            "the banner",
            "!document.getElementById('banner').hidden",
        )
        .await;
        let banner = page
            .js("const b = document.getElementById('banner'); return [b.dataset.result, b.dataset.reason, b.textContent]")
            .await;
        assert_eq!(banner[0], "black");
        assert_eq!(banner[1], "five");
        assert!(banner[2].as_str().unwrap().starts_with("Black wins"), "{banner:?}");
        assert_eq!(page.count(".win-line").await, 1);
        // The game is over: no engine move follows, and clicks place nothing.
        tokio::time::sleep(Duration::from_millis(400)).await;
        page.click_point(3, 3).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(page.moves().await.len(), 9);
        assert_eq!(
            page.js("return document.getElementById('status').dataset.state").await,
            "over"
        );

        // Standard: six in a row is no win, so the game goes on and the engine answers.
        page.new_game(&[("rule", "standard")]).await;
        page.load("5,7 0,0 6,7 0,2 7,7 0,4 8,7 0,6 10,7 0,8").await;
        page.wait_idle().await;
        page.click_point(9, 7).await;
        page.wait_moves(12).await;
        page.wait_idle().await;
        assert_eq!(page.count("#banner:not([hidden])").await, 0);
        assert_no_errors(&page.protocol_log().await);
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn renju_forbidden_points_appear_for_black_and_playing_one_loses() {
    with_board(|page, _server| async move {
        page.new_game(&[
            ("rule", "renju"),
            ("size", "15"),
            ("black", "human"),
            ("time", "200"),
        ])
        .await;
        // Black to move: 7,7 would make two open threes (column 7 and row 7).
        page.load("7,5 0,0 7,6 0,2 5,7 0,4 6,7 14,14").await;
        page.wait_js(
            "the forbidden mark at 7,7",
            "document.querySelector('g.forbid[data-x=\"7\"][data-y=\"7\"]')",
        )
        .await;
        let log = page.protocol_log().await;
        assert!(log.contains("> YXSHOWFORBID"), "{log}");
        assert!(log.contains("< FORBID 0707"), "{log}");
        page.click_point(7, 7).await;
        page.wait_js(
            "the banner",
            "!document.getElementById('banner').hidden",
        )
        .await;
        let banner = page
            .js("const b = document.getElementById('banner'); return [b.dataset.result, b.dataset.reason]")
            .await;
        assert_eq!(banner, json!(["white", "forbidden"]));

        // White is never shown forbidden points: after a take back and a legal black move,
        // the engine (white) answers and black's points are asked for again.
        page.click("takeback").await;
        page.wait_idle().await;
        assert_eq!(page.moves().await.len(), 8);
        assert!(page.count("g.forbid").await >= 1);
        page.click_point(3, 3).await;
        page.wait_moves(10).await;
        page.wait_idle().await;
        assert_eq!(page.count("#banner:not([hidden])").await, 0);
        assert_no_errors(&page.protocol_log().await);
    })
    .await;
}
