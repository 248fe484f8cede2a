//! The browser board (`pbrain-bango gui`).
//!
//! An HTTP server (axum on tokio; this module is the only user of both) that serves one page and
//! its assets, all embedded in the binary at build time, and a WebSocket at `/ws` that carries
//! the Gomocup protocol: each connection is its own protocol session, run by the same session
//! code as stdin and TCP (see [`bridge`]). The page (`assets/`, plain ES modules) keeps its own
//! board and drives the brain with protocol lines only; nothing about the game is implemented
//! on the server.
//!
//! Routes: `/` the page, `/assets/<file>` its modules and style, `/ws` the protocol, `/status`
//! a JSON object `{"live": <sessions running>, "opened": <sessions so far>, "version": "..."}`.
//!
//! Like `web`, it listens on loopback unless told otherwise: a session executes whatever its
//! peer sends. WebSocket upgrades whose `Origin` names another host than the one the page was
//! served from are refused, so a page from elsewhere open in the same browser cannot drive the
//! brain.

pub mod bridge;

use crate::engine::algo;
use crate::engine::config::Config;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use bridge::{AlgoFactory, Live};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// The embedded page: (URL path, content type, bytes).
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("assets/index.html"),
    ),
    (
        "/assets/style.css",
        "text/css; charset=utf-8",
        include_bytes!("assets/style.css"),
    ),
    (
        "/assets/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/app.js"),
    ),
    (
        "/assets/board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/board.js"),
    ),
    (
        "/assets/engine.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/engine.js"),
    ),
    (
        "/assets/view.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/view.js"),
    ),
    (
        "/assets/record.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/record.js"),
    ),
    (
        "/assets/database.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/database.js"),
    ),
    (
        "/assets/favicon.svg",
        "image/svg+xml",
        include_bytes!("assets/favicon.svg"),
    ),
];

/// What every session is built from.
#[derive(Clone)]
pub struct Sessions {
    /// A fresh algorithm per session.
    pub new_algo: AlgoFactory,
    /// The configuration each session starts with.
    pub config: Config,
}

impl Sessions {
    /// What the stdin brain gets: the algorithm `config` names, configured by it.
    pub fn from_config(config: &Config) -> Sessions {
        let for_algo = config.clone();
        Sessions {
            new_algo: Arc::new(move || algo::build(&for_algo, &mut |w| eprintln!("gui: {w}"))),
            config: config.clone(),
        }
    }
}

#[derive(Clone)]
struct AppState {
    sessions: Sessions,
    live: Arc<Live>,
}

/// A server running on its own thread; dropping it shuts the server down and hangs up every
/// session.
pub struct Running {
    addr: SocketAddr,
    live: Arc<Live>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Sessions running now.
    pub fn live_sessions(&self) -> usize {
        self.live.live()
    }

    /// Blocks until the server stops (it stops only on failure or [`Drop`]).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Binds `addr:port` and serves the board on a background thread with its own runtime.
pub fn spawn(addr: &str, port: u16, sessions: Sessions) -> std::io::Result<Running> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("gui-server")
        .enable_all()
        .build()?;
    // Bound here, outside any runtime, so that callers inside one (tests) may spawn too.
    let listener = std::net::TcpListener::bind((addr, port))?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let live = Arc::new(Live::default());
    let state = AppState {
        sessions,
        live: Arc::clone(&live),
    };
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("gui-runtime".into())
        .spawn(move || {
            let app = router(state);
            runtime.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => {
                        eprintln!("gui: cannot listen: {e}");
                        return;
                    }
                };
                tokio::select! {
                    r = axum::serve(listener, app) => {
                        if let Err(e) = r {
                            eprintln!("gui: server failed: {e}");
                        }
                    }
                    _ = rx => {}
                }
            });
            // Dropping the connection tasks hangs their sessions up; give them a moment to
            // return from their searches.
            runtime.shutdown_timeout(Duration::from_secs(2));
        })?;
    Ok(Running {
        addr: bound,
        live,
        shutdown: Some(tx),
        thread: Some(thread),
    })
}

fn router(state: AppState) -> Router {
    Router::new()
        .route("/ws", get(ws))
        .route("/status", get(status))
        .fallback(get(asset))
        .with_state(state)
}

async fn asset(uri: Uri) -> Response {
    let path = match uri.path() {
        "/index.html" => "/",
        p => p,
    };
    match ASSETS.iter().find(|(p, ..)| *p == path) {
        Some((_, kind, bytes)) => (
            [
                (header::CONTENT_TYPE, *kind),
                // The binary is the only source: never serve a page from an older build.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

async fn status(State(state): State<AppState>) -> Response {
    let body = serde_json::json!({
        "live": state.live.live(),
        "opened": state.live.opened(),
        "version": env!("CARGO_PKG_VERSION"),
    });
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

async fn ws(
    State(state): State<AppState>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused\n").into_response();
    }
    upgrade
        .max_message_size(bridge::MAX_MESSAGE)
        .max_frame_size(bridge::MAX_MESSAGE)
        .on_upgrade(move |socket| {
            bridge::serve_socket(
                socket,
                Arc::clone(&state.sessions.new_algo),
                state.sessions.config.clone(),
                state.live,
            )
        })
}

/// True when the request has no `Origin` (not a browser page) or its host matches `Host`.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use futures_util::{SinkExt as _, StreamExt as _};
    use std::time::Instant;
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest as _, Message};

    type Socket = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;

    /// A server whose sessions run `idle` (thinks until stopped), on a free port.
    fn idle_server() -> Running {
        let sessions = Sessions {
            new_algo: Arc::new(|| algo::by_name("idle", &Config::default()).expect("idle exists")),
            config: Config::default(),
        };
        spawn("127.0.0.1", 0, sessions).expect("serve")
    }

    async fn connect(server: &Running) -> Socket {
        let url = format!("ws://{}/ws", server.addr());
        tokio_tungstenite::connect_async(url)
            .await
            .expect("connect")
            .0
    }

    async fn send(ws: &mut Socket, text: &str) {
        ws.send(Message::text(text)).await.expect("send");
    }

    /// The next text frame, or None when the server closed the connection.
    async fn recv(ws: &mut Socket) -> Option<String> {
        let next = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame within 10 s");
        match next {
            Some(Ok(Message::Text(t))) => Some(t.to_string()),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => None,
            Some(Ok(other)) => panic!("unexpected frame {other:?}"),
        }
    }

    async fn wait_live(server: &Running, n: usize, within: Duration) -> Duration {
        let t = Instant::now();
        while server.live_sessions() != n {
            assert!(
                t.elapsed() < within,
                "{} live sessions, expected {n}",
                server.live_sessions()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        t.elapsed()
    }

    #[tokio::test]
    async fn each_connection_is_its_own_session_and_a_line_is_a_frame() {
        let server = idle_server();
        let mut a = connect(&server).await;
        let mut b = connect(&server).await;
        send(&mut a, "START 15").await;
        assert_eq!(recv(&mut a).await.as_deref(), Some("OK"));
        send(&mut b, "YXSHOWFORBID").await;
        assert_eq!(
            recv(&mut b).await.as_deref(),
            Some("ERROR no game: send START first")
        );
        wait_live(&server, 2, Duration::from_secs(2)).await;
        // Two lines in one frame, two replies in two frames.
        send(&mut a, "ABOUT\r\nYXSHOWFORBID").await;
        assert!(recv(&mut a)
            .await
            .unwrap()
            .starts_with("name=\"pbrain-bango\""));
        assert_eq!(recv(&mut a).await.as_deref(), Some("FORBID ."));
        // END: the server closes the socket and the session is gone.
        send(&mut a, "END").await;
        assert_eq!(recv(&mut a).await, None);
        wait_live(&server, 1, Duration::from_secs(2)).await;
        drop(b);
        wait_live(&server, 0, Duration::from_secs(2)).await;
    }

    #[tokio::test]
    async fn closing_the_socket_stops_the_search_at_once() {
        let server = idle_server();
        let mut ws = connect(&server).await;
        send(&mut ws, "START 15\nINFO timeout_turn 60000").await;
        assert_eq!(recv(&mut ws).await.as_deref(), Some("OK"));
        send(&mut ws, "BEGIN").await;
        assert_eq!(
            recv(&mut ws).await.as_deref(),
            Some("MESSAGE idle: waiting for stop")
        );
        ws.close(None).await.expect("close");
        let took = wait_live(&server, 0, Duration::from_secs(3)).await;
        assert!(took < Duration::from_secs(1), "{took:?}");
        // A connection dropped without a close frame (a killed tab) ends the same way.
        let mut ws = connect(&server).await;
        send(&mut ws, "START 15\nINFO timeout_turn 60000\nBEGIN").await;
        assert_eq!(recv(&mut ws).await.as_deref(), Some("OK"));
        assert!(recv(&mut ws).await.unwrap().starts_with("MESSAGE idle"));
        drop(ws);
        wait_live(&server, 0, Duration::from_secs(3)).await;
    }

    #[tokio::test]
    async fn long_lines_get_an_error_and_oversized_messages_close_the_connection() {
        let server = idle_server();
        let mut ws = connect(&server).await;
        send(&mut ws, &format!("INFO folder {}", "x".repeat(200_000))).await;
        assert_eq!(recv(&mut ws).await.as_deref(), Some("ERROR line too long"));
        ws.send(Message::binary(b"AB\xffC".to_vec())).await.unwrap();
        assert!(recv(&mut ws).await.unwrap().starts_with("UNKNOWN AB"));
        send(&mut ws, "START 9").await;
        assert_eq!(recv(&mut ws).await.as_deref(), Some("OK"));
        // Past the message bound the WebSocket layer refuses it and the session ends.
        let huge = "y".repeat(bridge::MAX_MESSAGE + 1);
        let _ = ws.send(Message::text(huge)).await;
        assert_eq!(recv(&mut ws).await, None);
        wait_live(&server, 0, Duration::from_secs(3)).await;
    }

    #[tokio::test]
    async fn pages_from_elsewhere_cannot_open_a_session() {
        let server = idle_server();
        let mut req = format!("ws://{}/ws", server.addr())
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("Origin", HeaderValue::from_static("http://evil.example"));
        let refused = tokio_tungstenite::connect_async(req).await;
        assert!(refused.is_err());
        assert_eq!(server.live.opened(), 0);
    }

    #[test]
    fn origin_check() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h), "no Origin: not a browser page");
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(!same_origin(&h));
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(!same_origin(&h));
    }
}
