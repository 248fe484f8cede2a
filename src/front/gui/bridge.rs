//! The WebSocket bridge: each connection is one protocol session, run by the same
//! [`run_session_with_hangup`] as stdin and TCP, on its own blocking thread.
//!
//! # Frames and lines
//! - In: every text (or binary) frame's bytes go to the session's input in order, and a frame
//!   always ends a line: one frame may carry several lines (`BOARD` … `DONE` in one frame is
//!   several lines), but a line never spans two frames. The session's line reader does the rest
//!   exactly as for a pipe: CR, LF and CRLF, lines over [`MAX_LINE`](crate::front::protocol::lines::MAX_LINE)
//!   answered with one `ERROR`, bytes that are not UTF-8 replaced.
//! - Out: every reply line is one text frame, without its CRLF.
//! - A message over [`MAX_MESSAGE`] bytes is refused by the WebSocket layer itself, which closes
//!   the connection (so memory per connection stays bounded); everything smaller reaches the
//!   session, whose line bound answers long lines with `ERROR` and goes on.
//!
//! # Ending
//! The session ends when the peer sends `END` (then the server closes the socket), or when the
//! socket closes or fails: the bridge then hangs up ([`Hangup`]), which stops a search in
//! progress at once and drops any queued commands, and closes the session's input. The same
//! happens if the connection task itself is dropped (server shutdown). [`Live`] counts the
//! sessions whose thread has not returned yet.

use crate::engine::algo::Algorithm;
use crate::engine::config::Config;
use crate::front::protocol::{run_session_with_hangup, Hangup, SessionEnd};
use axum::extract::ws::{Message, WebSocket};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// The largest WebSocket message (and frame) accepted, in bytes.
pub const MAX_MESSAGE: usize = 1 << 20;

/// Input frames buffered ahead of the session's reader. When full, the bridge stops reading the
/// socket until the session catches up (back-pressure instead of memory).
pub const INPUT_FRAMES: usize = 64;

/// Builds a fresh algorithm for each session.
pub type AlgoFactory = Arc<dyn Fn() -> Box<dyn Algorithm> + Send + Sync>;

/// The session's input: the bytes of the frames received, in order.
pub struct FrameInput {
    rx: mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl FrameInput {
    /// Input fed by `rx`; end of input when every sender is gone.
    pub fn new(rx: mpsc::Receiver<Vec<u8>>) -> FrameInput {
        FrameInput {
            rx,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for FrameInput {
    /// Blocks until a frame arrives (call it from a plain thread, never from async code).
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.rx.blocking_recv() {
                Some(bytes) => {
                    self.chunk = bytes;
                    self.at = 0;
                }
                None => return Ok(0),
            }
        }
        let n = out.len().min(self.chunk.len() - self.at);
        out[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The session's output: each complete line becomes one frame's text.
pub struct LineOutput {
    tx: mpsc::UnboundedSender<String>,
    partial: Vec<u8>,
}

impl LineOutput {
    /// Output whose lines go to `tx`.
    pub fn new(tx: mpsc::UnboundedSender<String>) -> LineOutput {
        LineOutput {
            tx,
            partial: Vec::new(),
        }
    }
}

impl Write for LineOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = self.partial.drain(..=end).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            // A closed socket: the bridge is hanging up; the line has no reader.
            if self.tx.send(text).is_err() {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "socket closed"));
            }
        }
        Ok(buf.len())
    }

    /// Lines are sent as soon as they are complete; nothing is held back.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The bytes the session reads for one frame: the frame's own, ending a line.
pub fn frame_bytes(data: &[u8]) -> Vec<u8> {
    let mut bytes = data.to_vec();
    if !matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.push(b'\n');
    }
    bytes
}

/// Counts live sessions (and all sessions ever opened) for the status endpoint and tests.
#[derive(Default)]
pub struct Live {
    live: AtomicUsize,
    opened: AtomicU64,
}

impl Live {
    /// Sessions whose thread is still running.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    /// Sessions opened since the server started.
    pub fn opened(&self) -> u64 {
        self.opened.load(Ordering::SeqCst)
    }

    fn open(self: &Arc<Live>) -> Ticket {
        self.live.fetch_add(1, Ordering::SeqCst);
        let id = self.opened.fetch_add(1, Ordering::SeqCst) + 1;
        Ticket {
            live: Arc::clone(self),
            id,
        }
    }
}

/// One live session; dropping it (when the session thread returns) counts it out.
struct Ticket {
    live: Arc<Live>,
    id: u64,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.live.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Hangs up when dropped: a connection task cancelled mid-session still stops its search.
struct HangUpOnDrop(Hangup);

impl Drop for HangUpOnDrop {
    fn drop(&mut self) {
        self.0.hang_up();
    }
}

/// Serves one WebSocket connection as one protocol session until either side ends it.
pub async fn serve_socket(
    mut socket: WebSocket,
    new_algo: AlgoFactory,
    config: Config,
    live: Arc<Live>,
) {
    let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>(INPUT_FRAMES);
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<String>();
    let hangup = HangUpOnDrop(Hangup::default());
    let session_hangup = hangup.0.clone();
    let ticket = live.open();
    let id = ticket.id;
    eprintln!("gui: session {id} opened ({} live)", live.live());
    let algo = new_algo();
    let mut session = tokio::task::spawn_blocking(move || {
        let _ticket = ticket;
        run_session_with_hangup(
            FrameInput::new(in_rx),
            LineOutput::new(out_tx),
            algo,
            config,
            session_hangup,
        )
    });
    let mut finished = None;
    loop {
        tokio::select! {
            frame = socket.recv() => {
                let data = match frame {
                    Some(Ok(Message::Text(text))) => frame_bytes(text.as_bytes()),
                    Some(Ok(Message::Binary(bytes))) => frame_bytes(&bytes),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    // Closed, failed (an oversized message among others) or gone.
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                // Waits while the session is behind; fails once the session is over.
                if in_tx.send(data).await.is_err() {
                    break;
                }
            }
            line = out_rx.recv() => match line {
                Some(line) => {
                    if socket.send(Message::text(line)).await.is_err() {
                        break;
                    }
                }
                // The session returned (END): nothing more will be said.
                None => {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
            },
            end = &mut session => {
                finished = Some(end);
                // Forward what it said last, then close.
                while let Ok(line) = out_rx.try_recv() {
                    let _ = socket.send(Message::text(line)).await;
                }
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
    hangup.0.hang_up();
    drop(in_tx);
    let end = match finished {
        Some(end) => end,
        None => session.await,
    };
    let end = end.unwrap_or(SessionEnd::Eof);
    eprintln!("gui: session {id} ended ({end:?}; {} live)", live.live());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::algo;
    use std::time::{Duration, Instant};

    /// A session over a frame channel, as the bridge runs it, without a socket.
    struct Rig {
        frames: Option<mpsc::Sender<Vec<u8>>>,
        lines: mpsc::UnboundedReceiver<String>,
        hangup: Hangup,
        done: std::sync::mpsc::Receiver<SessionEnd>,
    }

    impl Rig {
        fn new(algo_name: &str) -> Rig {
            let (in_tx, in_rx) = mpsc::channel(INPUT_FRAMES);
            let (out_tx, out_rx) = mpsc::unbounded_channel();
            let hangup = Hangup::default();
            let h = hangup.clone();
            let algo = algo::by_name(algo_name, &Config::default()).expect("known algorithm");
            let (done_tx, done) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let end = run_session_with_hangup(
                    FrameInput::new(in_rx),
                    LineOutput::new(out_tx),
                    algo,
                    Config::default(),
                    h,
                );
                let _ = done_tx.send(end);
            });
            Rig {
                frames: Some(in_tx),
                lines: out_rx,
                hangup,
                done,
            }
        }

        fn frame(&self, text: &str) {
            self.frames
                .as_ref()
                .expect("open")
                .blocking_send(frame_bytes(text.as_bytes()))
                .expect("session alive");
        }

        fn line(&mut self) -> String {
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                match self.lines.try_recv() {
                    Ok(l) => return l,
                    Err(mpsc::error::TryRecvError::Empty) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(2))
                    }
                    Err(e) => panic!("no line: {e:?}"),
                }
            }
        }

        /// The next line that is not a MESSAGE/DEBUG line.
        fn reply(&mut self) -> String {
            loop {
                let l = self.line();
                if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                    return l;
                }
            }
        }
    }

    #[test]
    fn frame_bytes_end_a_line_once() {
        assert_eq!(frame_bytes(b"ABOUT"), b"ABOUT\n");
        assert_eq!(frame_bytes(b"ABOUT\r\n"), b"ABOUT\r\n");
        assert_eq!(frame_bytes(b"A\nB\r"), b"A\nB\r");
        assert_eq!(frame_bytes(b""), b"\n");
    }

    #[test]
    fn output_is_one_frame_per_line_whatever_the_writes() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut out = LineOutput::new(tx);
        out.write_all(b"OK").unwrap();
        out.write_all(b"\r\n").unwrap();
        out.write_all(b"7,7\r\nMESSAGE depth 1\r").unwrap();
        out.write_all(b"\nFORBID ").unwrap();
        out.flush().unwrap();
        let got: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        assert_eq!(got, ["OK", "7,7", "MESSAGE depth 1"]);
        out.write_all(b".\r\n").unwrap();
        assert_eq!(rx.try_recv().unwrap(), "FORBID .");
        drop(rx);
        assert!(
            out.write_all(b"x\r\n").is_err(),
            "a closed socket is reported"
        );
    }

    #[test]
    fn frames_are_lines_and_one_frame_may_hold_many() {
        let mut rig = Rig::new("random");
        rig.frame("START 15");
        assert_eq!(rig.reply(), "OK");
        // Three lines in one frame (BOARD body included), then a move in its own frame.
        rig.frame("YXBOARD\r\n7,7,1\n8,8,2\nDONE");
        rig.frame("YXSHOWFORBID");
        assert_eq!(rig.reply(), "FORBID .");
        rig.frame("TAKEBACK 8,8\nTAKEBACK 8,8");
        assert_eq!(rig.reply(), "OK");
        assert!(rig.reply().starts_with("ERROR"), "second takeback fails");
        // A line never spans frames: "TURN 8," then "8" are two (bad) lines.
        rig.frame("TURN 8,");
        assert!(rig.reply().starts_with("ERROR"));
        rig.frame("8");
        assert!(rig.reply().starts_with("UNKNOWN"));
        rig.frame("END");
        assert_eq!(
            rig.done.recv_timeout(Duration::from_secs(5)),
            Ok(SessionEnd::End)
        );
    }

    #[test]
    fn oversized_and_malformed_frames_get_an_error_and_the_session_goes_on() {
        let mut rig = Rig::new("random");
        rig.frame("START 15");
        assert_eq!(rig.reply(), "OK");
        rig.frame(&format!("INFO folder {}", "x".repeat(100_000)));
        assert_eq!(rig.reply(), "ERROR line too long");
        rig.frame("TURN nine,9");
        assert!(rig.reply().starts_with("ERROR"));
        rig.frames
            .as_ref()
            .unwrap()
            .blocking_send(b"AB\xff\xfe\n".to_vec())
            .unwrap();
        assert!(rig.reply().starts_with("UNKNOWN"));
        rig.frame("TURN 7,7");
        let mv = rig.reply();
        assert!(mv.split(',').count() == 2 && mv != "7,7", "a move: {mv}");
    }

    #[test]
    fn hanging_up_stops_the_search_and_skips_queued_commands() {
        let mut rig = Rig::new("idle");
        rig.frame("START 15\nINFO timeout_turn 60000");
        assert_eq!(rig.reply(), "OK");
        // The idle algorithm thinks until stopped; queue more move requests behind it.
        rig.frame("BEGIN\nTURN 1,1\nTURN 2,2");
        assert_eq!(rig.line(), "MESSAGE idle: waiting for stop");
        let t = Instant::now();
        rig.hangup.hang_up();
        drop(rig.frames.take());
        let end = rig.done.recv_timeout(Duration::from_secs(5));
        assert_eq!(end, Ok(SessionEnd::HungUp));
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        // Only the first move was thought about.
        let rest: Vec<String> = std::iter::from_fn(|| rig.lines.try_recv().ok()).collect();
        assert!(
            rest.iter().all(|l| !l.starts_with("MESSAGE idle")),
            "{rest:?}"
        );
    }

    #[test]
    fn closed_input_ends_an_idle_session() {
        let mut rig = Rig::new("random");
        rig.frame("START 15");
        assert_eq!(rig.reply(), "OK");
        drop(rig.frames.take());
        assert_eq!(
            rig.done.recv_timeout(Duration::from_secs(5)),
            Ok(SessionEnd::Eof)
        );
    }
}
