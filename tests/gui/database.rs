//! The position database on the browser board: a file opened from the page, the children's
//! records of the board's position drawn on their points, a label written from the page (label
//! mode), and the same label read back from the file by a fresh server and browser. A
//! screenshot of the labelled board is saved as `target/gui-screenshots/database.png`.

use super::{assert_no_errors, with_board, Page};
use bango::game::board::Pos;
use bango::game::rules::Rule;
use bango::knowledge::database::{Database, Mode, Position, Record, Value};
use std::path::{Path, PathBuf};

/// No symmetry of the board maps this position to itself, so each child record has one point.
const POSITION: &str = "7,7 9,8";
/// A label with a space: the whole text must survive the round trip, not its first word.
const LABEL: &str = "a trap";

/// A fresh file for this test under Cargo's scratch directory (SQLite's side files removed).
fn scratch(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gui-db-{}-{name}", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

/// The text of the database label drawn at (x, y), once there is one.
async fn label_at(page: &Page, x: u32, y: u32) -> String {
    let sel = format!("document.querySelector('text.db-label[data-x=\"{x}\"][data-y=\"{y}\"]')");
    let v = page
        .wait_js(
            &format!("the database label at {x},{y}"),
            &format!("{sel} && {sel}.textContent"),
        )
        .await;
    v.as_str().expect("text").to_string()
}

async fn open_database(page: &Page, path: &Path) -> String {
    page.set("db-path", &path.display().to_string()).await;
    page.click("db-open").await;
    page.wait_js(
        "the database to open",
        "document.getElementById('db-note').dataset.state === 'open'",
    )
    .await;
    page.wait_idle().await;
    page.js("return document.getElementById('db-note').textContent")
        .await
        .as_str()
        .expect("text")
        .to_string()
}

/// Values written into the file between the sessions, straight through the library (the page
/// writes labels only): a score for the move 5,5 and a proven win for the side to move after
/// 10,10, i.e. a loss for the move.
fn store_values(path: &Path) {
    let db = Database::open(path, Mode::ReadWrite).expect("open the file");
    let here = Position::from_moves(Rule::Freestyle, 15, 15, &[Pos::new(7, 7), Pos::new(9, 8)])
        .expect("the position");
    for (x, y, value) in [
        (
            5,
            5,
            Value::Score {
                score: 35,
                depth: 12,
            },
        ),
        (10, 10, Value::Win),
    ] {
        let child = here.child(Pos::new(x, y)).expect("an empty point");
        let record = Record {
            value: Some(value),
            ..Record::default()
        };
        db.put(&child, &record).expect("write");
    }
}

const GAME: &[(&str, &str)] = &[
    ("rule", "freestyle"),
    ("size", "15"),
    ("black", "human"),
    ("time", "200"),
];

#[tokio::test(flavor = "current_thread")]
async fn a_label_written_from_the_page_is_drawn_and_read_back_by_a_fresh_session() {
    let path = scratch("labels.db");
    let foreign = scratch("foreign.txt");
    std::fs::write(&foreign, "not a database\n").expect("write");

    let (db, other) = (path.clone(), foreign.clone());
    with_board(|page, _server| async move {
        page.new_game(GAME).await;
        // A file that is not a database is refused, shown, and left as it was.
        page.set("db-path", &other.display().to_string()).await;
        page.click("db-open").await;
        page.wait_js(
            "the refusal in the status",
            "document.getElementById('status').dataset.state === 'error'",
        )
        .await;
        let refusal = format!(
            "ERROR {} is not a bango position database (not an SQLite file); the file was not touched",
            other.display()
        );
        assert_eq!(page.status_text().await, refusal);
        assert_eq!(
            std::fs::read_to_string(&other).expect("read"),
            "not a database\n"
        );
        let note = page
            .js("const n = document.getElementById('db-note'); return [n.dataset.state, n.textContent]")
            .await;
        assert_eq!(note[0], "closed", "{note}");
        assert_eq!(note[1], format!("database not opened: {refusal}"));

        let opened = open_database(&page, &db).await;
        assert_eq!(
            opened,
            format!("database {} opened (0 positions)", db.display())
        );
        page.load(POSITION).await;
        page.wait_idle().await;
        assert_eq!(page.count("text.db-label").await, 0);

        // Label mode: the click writes the label for the move at 6,9 and plays nothing.
        page.set("db-label", LABEL).await;
        page.set("db-label-mode", "true").await;
        page.click_point(6, 9).await;
        assert_eq!(label_at(&page, 6, 9).await, LABEL);
        page.wait_idle().await;
        assert_eq!(page.moves().await, vec![(7, 7), (9, 8)]);
        assert_eq!(page.count("text.db-label").await, 1);
        let log = page.protocol_log().await;
        assert!(
            log.contains("> YXEDITLABELDATABASE 6,9 a trap\n7,7\n9,8\nDONE"),
            "{log}"
        );
        assert!(
            log.contains("< MESSAGE DATABASE 6 9 -1 0 0 0 0 a trap"),
            "{log}"
        );
        assert_no_errors(&log.replace(&format!("< {refusal}"), "(refused as asked)"));
    })
    .await;

    // A new server process and a new browser: the label comes from the file.
    store_values(&path);
    let db = path.clone();
    with_board(|page, _server| async move {
        page.new_game(GAME).await;
        page.load(POSITION).await;
        let opened = open_database(&page, &db).await;
        assert_eq!(
            opened,
            format!("database {} opened (3 positions)", db.display())
        );
        assert_eq!(label_at(&page, 6, 9).await, LABEL);
        // Values from the mover's side: the score negated, the record's win a loss (L).
        assert_eq!(label_at(&page, 5, 5).await, "-35");
        assert_eq!(label_at(&page, 10, 10).await, "L");
        assert_eq!(page.count("text.db-label").await, 3);
        let titles = page
            .js("return [...document.querySelectorAll('g.db-mark title')].map(t => t.textContent)")
            .await;
        assert_eq!(
            titles,
            serde_json::json!([
                "5,5 · value -35 for the mover · depth 12",
                "6,9 · label a trap",
                "10,10 · label L · a proven loss for the mover",
            ])
        );

        let png = page.c.screenshot().await.expect("screenshot");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("target dir")
            .join("gui-screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot dir");
        std::fs::write(dir.join("database.png"), &png).expect("save the screenshot");

        // Another position has other children: the label goes, and comes back with the position.
        page.click("takeback").await;
        page.wait_idle().await;
        assert_eq!(page.moves().await, vec![]);
        page.wait_js(
            "no database labels",
            "document.querySelectorAll('text.db-label').length === 0",
        )
        .await;
        page.load(POSITION).await;
        assert_eq!(label_at(&page, 6, 9).await, LABEL);

        // An empty label written over a labelled point (its mark takes the click) removes it.
        page.set("db-label", "").await;
        page.set("db-label-mode", "true").await;
        page.c
            .find(fantoccini::Locator::Css(
                "g.db-mark[data-x=\"6\"][data-y=\"9\"]",
            ))
            .await
            .expect("the mark at 6,9")
            .click()
            .await
            .expect("click the mark");
        page.wait_js(
            "the label at 6,9 to go",
            "!document.querySelector('text.db-label[data-x=\"6\"][data-y=\"9\"]')",
        )
        .await;
        page.wait_idle().await;
        assert_eq!(page.count("text.db-label").await, 2);
        assert_eq!(page.moves().await, vec![(7, 7), (9, 8)]);
        assert_no_errors(&page.protocol_log().await);
    })
    .await;
    let _ = std::fs::remove_file(&foreign);
}
