//! The browser board (`pbrain-bango gui`) driven in headless Chromium through WebDriver, as a
//! person would use it: clicks on the board and the buttons, the page's own rendering read back.
//!
//! Each test starts the built binary (`gui --port 0`), a `chromedriver` on a free port and a
//! Chromium with a fresh profile, and stops all three, whether it passes or fails. The tests
//! take turns (one browser at a time: the CI machine has two cores). Where `chromium` or
//! `chromedriver` is missing (`BANGO_CHROMIUM` / `BANGO_CHROMEDRIVER` name them explicitly),
//! each test prints `skipped: chromium not found` and passes; `.ci/run` installs both.
//!
//! A screenshot of a game in progress is saved as `target/gui-screenshots/mid-game.png`.
#![cfg(not(loom))]

use fantoccini::{Client, ClientBuilder, Locator};
use futures_util::FutureExt as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The position database on the board (this file holds the harness its tests share).
mod database;

/// One browser at a time (each test has its own runtime; this lock works across them).
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How long any one condition may take before the test fails (generous: CI machines are busy).
const PATIENCE: Duration = Duration::from_secs(30);

/// Chromium's flags: headless, no network of its own, nothing from the profile.
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
];

fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Ok(p) = std::env::var(env) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Kills `pid` and every process below it (Linux: read from /proc), children first.
fn kill_tree(pid: u32) {
    let mut kids = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Ok(child) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            // The parent pid is the second field after the parenthesised name.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|s| s.parse::<u32>().ok());
            if ppid == Some(pid) {
                kids.push(child);
            }
        }
    }
    for k in kids {
        kill_tree(k);
    }
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// The board server: the real binary, `gui --port 0`.
struct Server {
    /// The binary, or None for a server run in this process.
    child: Option<Child>,
    /// The in-process server, kept alive while the test runs.
    running: Option<bango::front::gui::Running>,
    url: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-bango"))
            .args(["gui", "--port", "0"])
            .env_remove("BANGO_ALGO")
            .env_remove("BANGO_SMP")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pbrain-bango gui");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("piped");
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let first = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the server prints its URL");
        let url = first
            .split_once(": ")
            .map(|(_, u)| u.trim().to_string())
            .filter(|u| u.starts_with("http://127.0.0.1:") && u.ends_with('/'))
            .unwrap_or_else(|| panic!("not a URL line: {first:?}"));
        Server {
            child: Some(child),
            running: None,
            url,
            log,
        }
    }

    /// A server in this process whose sessions use `config` (a scripted brain).
    fn in_process(sessions: bango::front::gui::Sessions) -> Server {
        let running = bango::front::gui::spawn("127.0.0.1", 0, sessions).expect("serve");
        Server {
            child: None,
            url: running.url(),
            running: Some(running),
            log: Arc::default(),
        }
    }

    /// `GET /status` → (live sessions, sessions opened).
    async fn status(&self) -> (u64, u64) {
        use http_body_util::BodyExt as _;
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build_http::<http_body_util::Empty<bytes::Bytes>>();
        let uri: hyper::Uri = format!("{}status", self.url).parse().expect("uri");
        let resp = client.get(uri).await.expect("GET /status");
        assert_eq!(resp.status(), 200);
        let body = resp.into_body().collect().await.expect("body").to_bytes();
        let v: Value = serde_json::from_slice(&body).expect("JSON");
        (
            v["live"].as_u64().expect("live"),
            v["opened"].as_u64().expect("opened"),
        )
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
        drop(self.running.take());
    }
}

/// chromedriver and its Chromium.
struct Browser {
    driver: Child,
    client: Client,
    profile: PathBuf,
}

impl Browser {
    /// None (after printing the skip line) when Chromium or chromedriver is not installed.
    async fn start() -> Option<Browser> {
        let chromium = find_program("BANGO_CHROMIUM", &["chromium", "chromium-browser"]);
        let driver = find_program("BANGO_CHROMEDRIVER", &["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            // Straight to the stream: the test harness captures print macros.
            let _ = writeln!(std::io::stderr(), "\nskipped: chromium not found");
            return None;
        };
        let port = free_port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("gui-profile-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": chromium.display().to_string(), "args": args }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        let client = match client {
            Ok(c) => c,
            Err(e) => {
                kill_tree(driver.id());
                panic!("cannot start a Chromium session: {e}");
            }
        };
        Some(Browser {
            driver,
            client,
            profile,
        })
    }

    async fn stop(mut self) {
        let _ = self.client.clone().close().await;
        kill_tree(self.driver.id());
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Runs `body` with a browser and a server, then stops both, even when `body` fails.
async fn with_board<F, Fut>(body: F)
where
    F: FnOnce(Page, Arc<Server>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    with_server(Server::start, body).await
}

/// [`with_board`] on the server `start` returns.
async fn with_server<S, F, Fut>(start: S, body: F)
where
    S: FnOnce() -> Server,
    F: FnOnce(Page, Arc<Server>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let _turn = TURN.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let server = Arc::new(start());
    let page = Page {
        c: browser.client.clone(),
        url: server.url.clone(),
    };
    let outcome = std::panic::AssertUnwindSafe(async {
        page.open().await;
        body(page, Arc::clone(&server)).await;
    })
    .catch_unwind()
    .await;
    browser.stop().await;
    if let Err(panic) = outcome {
        eprintln!("server log:\n{}", server.log().join("\n"));
        std::panic::resume_unwind(panic);
    }
}

/// The page in the current tab.
#[derive(Clone)]
struct Page {
    c: Client,
    url: String,
}

impl Page {
    async fn open(&self) {
        self.c.goto(&self.url).await.expect("load the page");
        self.wait_idle().await;
    }

    async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
    }

    /// Waits until the JavaScript expression `expr` is truthy; returns its value.
    async fn wait_js(&self, what: &str, expr: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let v = self.js(&format!("return ({expr});")).await;
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                panic!(
                    "timed out waiting for {what} ({expr}); status: {:?}; log tail: {}",
                    self.status_text().await,
                    self.log_tail().await
                );
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    async fn status_text(&self) -> String {
        self.js("return document.getElementById('status').textContent")
            .await
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    async fn log_tail(&self) -> String {
        let v = self
            .js("return document.getElementById('log').textContent.split('\\n').slice(-25).join('\\n')")
            .await;
        v.as_str().unwrap_or("").to_string()
    }

    async fn protocol_log(&self) -> String {
        let v = self
            .js("return document.getElementById('log').textContent")
            .await;
        v.as_str().unwrap_or("").to_string()
    }

    /// Nothing queued for the brain and nobody thinking.
    async fn wait_idle(&self) {
        self.wait_js(
            "the page to be idle",
            "(() => { const s = document.getElementById('status'); \
               return ['ready', 'over'].includes(s.dataset.state) && s.dataset.queue === '0'; })()",
        )
        .await;
    }

    async fn moves(&self) -> Vec<(u32, u32)> {
        let v = self
            .js("return document.getElementById('board').dataset.moves || ''")
            .await;
        parse_moves(v.as_str().unwrap_or(""))
    }

    async fn wait_moves(&self, n: usize) -> Vec<(u32, u32)> {
        self.wait_js(
            &format!("{n} stones on the board"),
            &format!(
                "(document.getElementById('board').dataset.moves || '').split(' ').filter(s => s).length === {n}"
            ),
        )
        .await;
        self.moves().await
    }

    /// A person's click on the intersection (x, y).
    async fn click_point(&self, x: u32, y: u32) {
        let sel = format!("rect.hit[data-x=\"{x}\"][data-y=\"{y}\"]");
        self.c
            .find(Locator::Css(&sel))
            .await
            .unwrap_or_else(|e| panic!("no point {x},{y}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {x},{y}: {e}"));
    }

    async fn click(&self, id: &str) {
        self.c
            .find(Locator::Id(id))
            .await
            .unwrap_or_else(|e| panic!("no #{id}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click #{id}: {e}"));
    }

    /// Sets a form control as a person's edit would (value, then `input` and `change`).
    async fn set(&self, id: &str, value: &str) {
        let v = self
            .c
            .execute(
                "const e = document.getElementById(arguments[0]); \
                 if (e.type === 'checkbox') e.checked = arguments[1] === 'true'; else e.value = arguments[1]; \
                 e.dispatchEvent(new Event('input', {bubbles: true})); \
                 e.dispatchEvent(new Event('change', {bubbles: true})); \
                 return e.type === 'checkbox' ? String(e.checked) : e.value;",
                vec![json!(id), json!(value)],
            )
            .await
            .unwrap_or_else(|e| panic!("set #{id}: {e}"));
        assert_eq!(v.as_str(), Some(value), "#{id} took the value");
    }

    async fn new_game(&self, settings: &[(&str, &str)]) {
        for (id, v) in settings {
            self.set(id, v).await;
        }
        self.click("new-game").await;
        self.wait_js(
            "an empty board",
            "document.getElementById('board').dataset.moves === ''",
        )
        .await;
        self.wait_idle().await;
    }

    /// Loads a record through the record box and the Load button, once the page is idle.
    ///
    /// Waiting first is not politeness: a reply that lands between finding the button and
    /// clicking it (turning analysis mode on answers the empty board from the book at once)
    /// grows the thinking panel above the Record panel, and WebDriver's click then hits where
    /// the button was. The click is lost without a trace (once in CI; 1 in 40 runs on a loaded
    /// machine).
    async fn load(&self, record: &str) {
        self.wait_idle().await;
        self.set("record", record).await;
        self.click("load").await;
        self.wait_js(
            "the record to load",
            "document.getElementById('record-note').textContent.startsWith('loaded')",
        )
        .await;
    }

    async fn count(&self, selector: &str) -> usize {
        let v = self
            .c
            .execute(
                "return document.querySelectorAll(arguments[0]).length",
                vec![json!(selector)],
            )
            .await
            .expect("count");
        v.as_u64().expect("a number") as usize
    }

    async fn think_depths(&self) -> Vec<u64> {
        let v = self
            .js("return [...document.querySelectorAll('#think-table tbody tr')].map(r => Number(r.dataset.depth))")
            .await;
        v.as_array()
            .expect("array")
            .iter()
            .map(|d| d.as_u64().expect("depth"))
            .collect()
    }
}

fn parse_moves(s: &str) -> Vec<(u32, u32)> {
    s.split_whitespace()
        .map(|m| {
            let (x, y) = m.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

fn assert_no_errors(log: &str) {
    let errors: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("< ERROR") || l.starts_with("< UNKNOWN"))
        .collect();
    assert!(errors.is_empty(), "the brain refused commands: {errors:?}");
}

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

/// A quiet middle game, white to move: the engine (white) thinks at once after the load.
const MIDDLE_GAME: &str = "7,7 8,7 9,8 6,8 5,9 9,10 10,4 4,5 7,10";

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
