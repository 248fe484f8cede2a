//! Analysis mode: thinking without playing, previewed lines, multi-PV, and the live markers
//! and lines a scripted brain prints.

use super::*;

#[tokio::test(flavor = "current_thread")]
async fn analysis_mode_thinks_without_playing_and_previews_a_line() {
    with_board(|page, _server| async move {
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "15"),
            ("black", "human"),
            ("time", "200"),
        ])
        .await;
        page.set("analysis-time", "30").await;
        page.set("analyse", "true").await;
        page.load(MIDDLE_GAME).await;
        page.wait_js(
            "analysis depths",
            "document.getElementById('status').dataset.state === 'analysing' && \
             document.querySelectorAll('#think-table tbody tr').length >= 4",
        )
        .await;
        page.click("stop").await;
        page.wait_idle().await;
        // Nothing was played: analysis leaves the board as it was.
        assert_eq!(page.moves().await, parse_moves(MIDDLE_GAME));
        assert!(page.status_text().await.starts_with("Analysis done"));
        // Preview the deepest line by clicking its row, then hide it with a second click.
        let row = "#think-table tbody tr";
        let pv = page
            .js("return document.querySelector('#think-table tbody tr').cells[7].textContent")
            .await;
        let pv_len = pv.as_str().unwrap().split(' ').count();
        page.c
            .find(Locator::Css(row))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(
            page.count(".preview-stone").await,
            pv_len,
            "the line {pv} is drawn"
        );
        page.c
            .find(Locator::Css(row))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(page.count(".preview-stone").await, 0);
        // Either side may move in analysis mode (here white); the analysis starts again on the
        // new position, whose first line the brain sees as the opponent's stone.
        page.click_point(3, 3).await;
        page.wait_js(
            "a new analysis",
            "document.getElementById('log').textContent.includes('3,3,2\\nDONE') && \
             document.querySelectorAll('#think-table tbody tr').length >= 1",
        )
        .await;
        page.click("stop").await;
        page.wait_idle().await;
        assert_eq!(page.moves().await.len(), 10);
        assert_no_errors(&page.protocol_log().await);
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn analysis_shows_three_lines_for_yxnbest_3() {
    with_board(|page, _server| async move {
        page.new_game(&[("rule", "freestyle"), ("size", "15"), ("black", "human")])
            .await;
        page.set("nbest", "3").await;
        page.set("analysis-time", "30").await;
        page.set("analyse", "true").await;
        page.load(MIDDLE_GAME).await;
        page.wait_js(
            "three lines",
            "document.querySelectorAll('#lines li').length === 3",
        )
        .await;
        let log = page.protocol_log().await;
        assert!(log.contains("> YXNBEST 3"), "{log}");
        // Three different first moves, each line previewable.
        let firsts = page
            .js("return [...document.querySelectorAll('#lines li')].map(li => li.textContent.split(': ')[1].split(' ')[0])")
            .await;
        let firsts: Vec<&str> = firsts
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(firsts.len(), 3);
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        // The list is redrawn at every iteration while the engine thinks, so an element found
        // by one WebDriver call may be gone by the next: find and click in one script, until
        // the preview shows.
        page.wait_js(
            "a previewed third line",
            "(() => { const li = document.querySelector('#lines li[data-index=\"2\"]'); \
             if (li) li.click(); \
             return document.querySelectorAll('.preview-stone').length >= 1; })()",
        )
        .await;
        page.click("stop").await;
        page.wait_idle().await;
        assert_eq!(page.moves().await.len(), 9);
    })
    .await;
}

/// Prints what issue 22 adds to the brain's output (live markers, multi-PV lines) besides a
/// depth line, then thinks until stopped and plays 4,4 (or the first free point).
struct Scripted;

const SCRIPT: &[&str] = &[
    "REALTIME POS 3,3",
    "REALTIME DONE 3,3",
    "REALTIME LOST 1,1",
    "REALTIME BEST 4,4",
    "depth 8 score 120 nodes 5000 nps 100000 time 50 pv 4,4 5,5 6,6",
    "REALTIME REFRESH",
    "REALTIME BEST 4,4",
    "(1) 120 | 8-12 | 4,4 5,5 6,6",
    "(2) -30 | 8-11 | 6,6 5,5",
    "(3) loss 4 | 8-9 | 1,1 2,2",
    "REALTIME POS 6,6",
];

impl bango::engine::algo::Algorithm for Scripted {
    fn name(&self) -> &'static str {
        "scripted"
    }

    fn think(&mut self, req: &bango::engine::algo::Request<'_>) -> bango::game::board::Pos {
        for line in SCRIPT {
            (req.output)(line);
        }
        while !req.stop.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let p = bango::game::board::Pos::new(4, 4);
        if req.board.is_empty_at(p) {
            p
        } else {
            req.board.empty_cells().next().expect("a free point")
        }
    }

    fn new_game(&mut self, _size: usize, _config: &bango::engine::config::Config) {}
}

#[tokio::test(flavor = "current_thread")]
async fn live_markers_and_multi_pv_lines_from_the_brain_are_drawn() {
    let scripted = || {
        Server::in_process(bango::front::gui::Sessions {
            new_algo: Arc::new(|| Box::new(Scripted)),
            config: bango::engine::config::Config::default(),
        })
    };
    with_server(scripted, |page, _server| async move {
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "15"),
            ("black", "human"),
            ("time", "60000"),
        ])
        .await;
        page.click_point(7, 7).await;
        page.wait_js(
            "the markers",
            "document.querySelector('.pos-mark[data-x=\"6\"][data-y=\"6\"]') && \
             document.querySelectorAll('#lines li').length === 3",
        )
        .await;
        assert_eq!(page.count(".best-mark[data-x=\"4\"][data-y=\"4\"]").await, 1);
        assert_eq!(page.count(".lost-mark[data-x=\"1\"][data-y=\"1\"]").await, 1);
        assert_eq!(page.count(".pos-mark").await, 1, "3,3 was left again");
        let heat = page
            .js("return [...document.querySelectorAll('g.heat')].map(g => g.dataset.x + ',' + g.dataset.y).sort()")
            .await;
        assert_eq!(heat, json!(["1,1", "4,4", "6,6"]), "one score per root move");
        let lines = page
            .js("return [...document.querySelectorAll('#lines li')].map(li => li.textContent)")
            .await;
        assert!(lines[0].as_str().unwrap().starts_with("120 "), "{lines}");
        assert!(lines[0].as_str().unwrap().contains("d8-12: 4,4 5,5 6,6"), "{lines}");
        assert!(lines[2].as_str().unwrap().starts_with("loss in 4"), "{lines}");
        assert_eq!(page.think_depths().await, vec![8]);
        // Preview the second line.
        page.c
            .find(Locator::Css("#lines li[data-index=\"2\"]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(page.count(".preview-stone").await, 2);
        // Stop: the engine plays at once and the live markers go.
        page.click("stop").await;
        assert_eq!(page.wait_moves(2).await, vec![(7, 7), (4, 4)]);
        page.wait_idle().await;
        assert_eq!(page.count(".best-mark, .lost-mark, .pos-mark, .preview-stone").await, 0);
        let depth = page
            .js("return document.querySelector('#moves-table tr[data-n=\"2\"]').dataset.depth")
            .await;
        assert_eq!(depth, "8");

        // The info block issue 22 adds under `INFO show_detail 2|3`, and today's lines.
        let parsed = page
            .c
            .execute_async(
                "const [lines, done] = arguments;
                 import('/assets/engine.js').then((e) => {
                   const blocks = new e.InfoBlocks();
                   const events = [];
                   let block = null;
                   for (const l of lines) {
                     const ev = e.parseOutput(l);
                     if (ev.type === 'info') block = blocks.feed(ev) || block;
                     else events.push(ev);
                   }
                   done({ block, events });
                 }).catch((err) => done({ error: String(err) }));",
                vec![json!([
                    "INFO PV 1",
                    "INFO NUMPV 1",
                    "INFO DEPTH 12",
                    "INFO SELDEPTH 20",
                    "INFO NODES 1000",
                    "INFO TOTALNODES 5000",
                    "INFO TOTALTIME 250",
                    "INFO SPEED 20000",
                    "INFO EVAL 35",
                    "INFO WINRATE 0.53",
                    "INFO BESTLINE 7,7 8,8",
                    "INFO PV DONE",
                    "MESSAGE depth 3 score win 5 nodes 10 nps 20 time 30 pv 7,7",
                    "MESSAGE smp workers 2 depth 9 score -12 nodes 100 nps 1000 time 100 worker 1 pv 7,7 8,8",
                    "MESSAGE book 7,7",
                    "MESSAGE vcf win in 3 plies, playing 3,5",
                ])],
            )
            .await
            .expect("the parser runs");
        let b = &parsed["block"];
        assert_eq!(
            (&b["pv"], &b["numpv"], &b["depth"], &b["seldepth"]),
            (&json!(1), &json!(1), &json!(12), &json!(20)),
            "{parsed}"
        );
        assert_eq!((&b["totalnodes"], &b["totaltime"], &b["speed"]), (&json!(5000), &json!(250), &json!(20000)));
        assert_eq!(b["eval"]["value"], 35);
        assert_eq!(b["winrate"], 0.53);
        assert_eq!(b["bestline"], json!([{"x": 7, "y": 7}, {"x": 8, "y": 8}]));
        let ev = &parsed["events"];
        assert_eq!(ev[0]["type"], "depth");
        assert_eq!(ev[0]["score"]["kind"], "win");
        assert_eq!(ev[0]["score"]["value"], 5);
        assert_eq!(ev[1]["type"], "summary");
        assert_eq!(ev[1]["depth"], 9);
        assert_eq!(ev[1]["pv"], json!([{"x": 7, "y": 7}, {"x": 8, "y": 8}]));
        assert_eq!((&ev[2]["type"], &ev[2]["move"]), (&json!("book"), &json!({"x": 7, "y": 7})));
        assert_eq!((&ev[3]["type"], &ev[3]["move"]), (&json!("proof"), &json!({"x": 3, "y": 5})));
    })
    .await;
}
