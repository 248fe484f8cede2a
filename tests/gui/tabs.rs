//! Tabs are sessions: two tabs are two games, and closing one stops its search.

use super::*;

#[tokio::test(flavor = "current_thread")]
async fn two_tabs_are_two_games_and_closing_a_tab_stops_its_search() {
    with_board(|page, server| async move {
        let first = page.c.window().await.expect("this tab");
        // A second tab with its own game.
        let second = page.c.new_window(true).await.expect("a new tab").handle;
        page.c.switch_to_window(second.clone()).await.unwrap();
        page.open().await;
        assert_eq!(server.status().await.0, 2, "one session per tab");
        // Back in the first: a long think (a minute a move, size 17 so no book answers it).
        page.c.switch_to_window(first.clone()).await.unwrap();
        page.new_game(&[
            ("rule", "freestyle"),
            ("size", "17"),
            ("black", "human"),
            ("time", "60000"),
        ])
        .await;
        page.click_point(8, 8).await;
        page.wait_js(
            "the engine thinking",
            "document.getElementById('status').dataset.state === 'thinking' && \
             document.querySelectorAll('#think-table tbody tr').length >= 2",
        )
        .await;
        // The second tab's game is untouched.
        page.c.switch_to_window(second.clone()).await.unwrap();
        assert_eq!(page.moves().await, vec![]);
        assert_eq!(
            page.js("return document.getElementById('board').dataset.size")
                .await,
            "15"
        );
        // Close the thinking tab: its session ends at once, not a minute later.
        page.c.switch_to_window(first.clone()).await.unwrap();
        let closed = Instant::now();
        page.c.close_window().await.expect("close the tab");
        loop {
            let (live, _) = server.status().await;
            if live == 1 {
                break;
            }
            assert!(
                closed.elapsed() < Duration::from_secs(5),
                "{live} sessions still live {:?} after closing the tab",
                closed.elapsed()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let took = closed.elapsed();
        assert!(took < Duration::from_secs(3), "{took:?}");
        let log = server.log();
        assert!(
            log.iter().any(|l| l.contains("ended (HungUp")),
            "the session was hung up: {log:?}"
        );
        // The other tab still plays.
        page.c.switch_to_window(second.clone()).await.unwrap();
        page.new_game(&[("time", "200")]).await;
        page.click_point(7, 7).await;
        page.wait_moves(2).await;
        // Leaving the page ends the last session too.
        page.c.goto("about:blank").await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while server.status().await.0 != 0 {
            assert!(Instant::now() < deadline, "the last session did not end");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(server.status().await.1, 2, "two sessions in all");
    })
    .await;
}
