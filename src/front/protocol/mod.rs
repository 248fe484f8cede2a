//! The Gomocup/Piskvork protocol session, over stdin/stdout or TCP (one implementation, generic
//! over the byte streams).
//!
//! # Structure
//! - [`lines`]: bytes to lines (CR, LF, CRLF; bounded memory).
//! - [`command`]: the commands ([`Command`]); [`parser`]: lines to commands, parses only, with
//!   [`fields`] for the values inside a line.
//! - [`info`]: what each `INFO` key accepts (clamps and notes).
//! - [`session`]: the state machine that applies commands and writes replies; the analysis
//!   commands (`analysis`), the Swap commands (`swap`), Yixin-Board's opening steps
//!   (`openings`), what a `BOARD` body means (`setup`), the table commands (`table`), the draw
//!   and resignation queries (`judge`) and the position database commands ([`database`]) are
//!   files of their own.
//! - [`tcp`]: the TCP server.
//!
//! [`run_session`] joins them with two threads. The *reader* owns the input: it reads, parses and
//! sends each command (with the [`Instant`] its first line was read, which starts the move clock)
//! through a channel. The *thinker* (the calling thread) owns the session and the algorithm and
//! is the only writer of replies. Because the reader keeps reading while the thinker searches, it
//! can act on `YXSTOP`, `INFO timeout_turn 0` (Piskvork's Stop button) and `END` at once: it
//! raises the shared stop flag itself, and still forwards the command.
//!
//! # Stop bookkeeping
//! The reader numbers the commands that ask for a move; the thinker records the last one it
//! answered. A stop request raises the flag only when a move is pending or being thought about
//! (requested > answered), and records up to which request it applies; the thinker re-arms the
//! flag from that record when it starts each move. So a stop that arrives just before the thinker
//! picks up the move still stops that move, and a stop sent while idle never leaks into a later
//! move.
//!
//! # Hanging up
//! A transport that learns of a vanished peer other than by end of input (the browser board's
//! WebSocket closing) ends the session through a [`Hangup`]: it raises the stop flag for every
//! move, pending or later, so the search in progress returns at once, and the thinker applies
//! no further command, even with commands still queued.
//!
//! # Pondering
//! With `INFO pondering 1`, after a command that we answered with our move, the thinker searches
//! the position with the opponent to move while no command is queued ([`Session::ponder`]); the
//! reader ends that search by raising a separate flag after every line it reads, so the next
//! command is applied within one poll of the search (a few hundred nodes, or the lazy SMP
//! monitor's period). The ponder prints nothing and answers nothing.
//!
//! Replies end in CRLF and are flushed line by line. Commands are applied in order: `END` stops
//! any pending search at once (its move is still printed, being the reply to an earlier
//! command), then ends the session without a word.

use crate::engine::algo::{self, Algorithm};
use crate::engine::config::Config;
use crossbeam_channel::{bounded, Sender};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod analysis;
pub mod command;
#[cfg(not(loom))]
pub mod database;
#[cfg(not(loom))]
mod dbstate;
/// The loom build has no SQLite: every database command is refused.
#[cfg(loom)]
pub mod database {
    use super::command::Command;
    use super::session::Session;
    use super::Sink;

    impl Session {
        pub(super) fn use_database(&mut self, _: bool, out: Sink<'_>) {
            out("MESSAGE no position database in this build");
        }

        pub(super) fn database_readonly(&mut self, _: bool, _: Sink<'_>) {}

        pub(super) fn refresh_known(&mut self, _: Sink<'_>) {}

        pub(super) fn note_result(
            &mut self,
            _: &crate::game::board::Board,
            _: u32,
            _: i32,
            _: crate::game::board::Pos,
        ) {
        }

        pub(super) fn write_back(&mut self, _: Sink<'_>) {}

        pub(super) fn database(&mut self, _: Command, _: Sink<'_>) -> Result<(), String> {
            Err("no position database in this build".into())
        }
    }
}
pub mod fields;
pub mod info;
mod judge;
pub mod lines;
mod openings;
pub mod parser;
pub mod report;
pub mod session;
mod setup;
mod swap;
mod table;
pub mod tcp;

pub use command::Command;
pub use parser::Parser;
pub use session::{Flow, Session};

/// A sink for reply lines (without terminators). Shared with search threads, hence `Sync`.
pub type Sink<'a> = &'a (dyn Fn(&str) + Sync);

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// The manager sent `END`.
    End,
    /// The input ended (or failed).
    Eof,
    /// The transport hung up ([`Hangup::hang_up`]).
    HungUp,
}

/// Commands the reader may queue ahead of the thinker. Managers send a handful at a time; the
/// bound keeps a flooding peer from growing memory (the reader then waits for the thinker).
const QUEUE: usize = 256;

/// The stop bookkeeping the reader and the thinker share (see the module docs).
#[derive(Default)]
struct StopControl {
    /// The flag the algorithm polls.
    stop: AtomicBool,
    /// Move-asking commands forwarded so far (their sequence numbers are 1, 2, ...).
    requested: AtomicU64,
    /// The last such command the thinker has finished with.
    answered: AtomicU64,
    /// Stop applies to every move request up to this number.
    stop_upto: AtomicU64,
    /// The transport hung up: apply nothing more.
    hung_up: AtomicBool,
    /// Ends a ponder search: raised by the reader after every line it has passed on.
    ponder_stop: AtomicBool,
}

impl StopControl {
    /// Raises the stop flag if a move is pending or being thought about.
    fn request_stop(&self) {
        let r = self.requested.load(Ordering::SeqCst);
        if r > self.answered.load(Ordering::SeqCst) {
            self.stop_upto.fetch_max(r, Ordering::SeqCst);
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Arms the flag for move request `seq`, just before the thinker starts on it.
    fn arm(&self, seq: u64) {
        self.stop.store(false, Ordering::SeqCst);
        if self.stop_upto.load(Ordering::SeqCst) >= seq {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Ends a session from outside (see "Hanging up" in the module docs). Cloning shares the
/// session; a fresh handle belongs to no session until passed to [`run_session_with_hangup`].
#[derive(Clone, Default)]
pub struct Hangup(Arc<StopControl>);

impl Hangup {
    /// Stops the search in progress and ends the session before its next command. Idempotent;
    /// the caller should also end the session's input so that an idle thinker wakes up.
    pub fn hang_up(&self) {
        let s = &self.0;
        s.hung_up.store(true, Ordering::SeqCst);
        // Before the flag: `arm` reads `stop_upto` after clearing the flag, so it re-raises it.
        s.stop_upto.store(u64::MAX, Ordering::SeqCst);
        s.stop.store(true, Ordering::SeqCst);
        s.ponder_stop.store(true, Ordering::SeqCst);
    }

    /// Whether [`Hangup::hang_up`] was called.
    pub fn is_hung_up(&self) -> bool {
        self.0.hung_up.load(Ordering::SeqCst)
    }
}

struct Incoming {
    cmd: Command,
    at: Instant,
    seq: Option<u64>,
}

/// Runs one protocol session: reads commands from `input` until `END` or end of input, writing
/// replies to `output`. The reader thread is detached: it ends at `END`, at end of input, or when
/// the caller closes the stream (TCP); for stdin the process exit ends it.
pub fn run_session<R, W>(
    input: R,
    output: W,
    algo: Box<dyn Algorithm>,
    config: Config,
) -> SessionEnd
where
    R: Read + Send + 'static,
    W: Write + Send,
{
    run_session_with_hangup(input, output, algo, config, Hangup::default())
}

/// [`run_session`] that `hangup` can end from another thread. Give each session its own handle.
pub fn run_session_with_hangup<R, W>(
    input: R,
    output: W,
    algo: Box<dyn Algorithm>,
    config: Config,
    hangup: Hangup,
) -> SessionEnd
where
    R: Read + Send + 'static,
    W: Write + Send,
{
    let shared = hangup.0;
    let (tx, rx) = bounded::<Incoming>(QUEUE);
    let reader_shared = Arc::clone(&shared);
    let spawned = std::thread::Builder::new()
        .name("protocol-reader".into())
        .spawn(move || read_loop(input, tx, &reader_shared));
    if let Err(e) = spawned {
        eprintln!("cannot start the reader thread: {e}");
        return SessionEnd::Eof;
    }

    let output = parking_lot::Mutex::new(output);
    let sink = |line: &str| {
        let mut w = output.lock();
        // A vanished peer is noticed by the reader (end of input); write errors are dropped.
        let _ = w.write_all(line.as_bytes());
        let _ = w.write_all(b"\r\n");
        let _ = w.flush();
    };
    let mut session = Session::new(algo, config);
    let hung_up = || shared.hung_up.load(Ordering::SeqCst);
    for msg in rx.iter() {
        if hung_up() {
            return SessionEnd::HungUp;
        }
        if let Some(seq) = msg.seq {
            shared.arm(seq);
        }
        let flow = session.apply(msg.cmd, msg.at, &shared.stop, &sink);
        if let Some(seq) = msg.seq {
            shared.answered.store(seq, Ordering::SeqCst);
        }
        if flow == Flow::End {
            return SessionEnd::End;
        }
        // Pondering, while no command waits. The reader raises `ponder_stop` after it has
        // queued a line, so a line queued after the emptiness check still ends the ponder, and
        // one queued before it is seen by the check.
        if session.wants_ponder() {
            shared.ponder_stop.store(false, Ordering::SeqCst);
            if rx.is_empty() && !hung_up() {
                session.ponder(&shared.ponder_stop);
            }
        }
    }
    if hung_up() {
        SessionEnd::HungUp
    } else {
        SessionEnd::Eof
    }
}

fn read_loop<R: Read>(input: R, tx: Sender<Incoming>, shared: &StopControl) {
    let mut reader = lines::LineReader::new(input);
    let mut parser = Parser::new();
    let mut body_started = Instant::now();
    let send = |cmd: Command, at: Instant| -> bool {
        match &cmd {
            Command::End | Command::YxStop | Command::Info(command::Info::TimeoutTurn(0)) => {
                shared.request_stop()
            }
            _ => {}
        }
        let seq = cmd
            .wants_move()
            .then(|| shared.requested.fetch_add(1, Ordering::SeqCst) + 1);
        let end = cmd == Command::End;
        tx.send(Incoming { cmd, at, seq }).is_ok() && !end
    };
    while let Some(line) = reader.next_line() {
        let now = Instant::now();
        let was_in_body = parser.in_body();
        let cmds = match line {
            lines::Line::Text(text) => parser.feed(&text),
            lines::Line::TooLong => parser.feed_too_long().into_iter().collect(),
        };
        if parser.in_body() && (!was_in_body || !cmds.is_empty()) {
            body_started = now;
        }
        for cmd in cmds {
            let multi_line = matches!(
                cmd,
                Command::Board(..) | Command::Swap2Board(_) | Command::Swap1Board(_)
            );
            let at = if multi_line { body_started } else { now };
            if !send(cmd, at) {
                shared.ponder_stop.store(true, Ordering::SeqCst);
                return;
            }
        }
        // Any line ends a ponder (after the line's commands are queued: see the thinker).
        shared.ponder_stop.store(true, Ordering::SeqCst);
    }
    if let Some(cmd) = parser.finish() {
        send(cmd, Instant::now());
    }
    shared.ponder_stop.store(true, Ordering::SeqCst);
}

/// Runs the brain configured by `config` on stdin/stdout until `END` or end of input.
pub fn run_stdio(config: &Config) -> SessionEnd {
    let algo = algo::build(config, &mut |w| eprintln!("warning: {w}"));
    run_session(std::io::stdin(), std::io::stdout(), algo, config.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_before_the_thinker_starts_still_stops_that_move() {
        let s = StopControl::default();
        s.requested.store(1, Ordering::SeqCst);
        s.request_stop(); // the reader saw YXSTOP before the thinker picked up move 1
        s.stop.store(false, Ordering::SeqCst); // whatever the flag said before
        s.arm(1);
        assert!(s.stop.load(Ordering::SeqCst));
        s.answered.store(1, Ordering::SeqCst);
    }

    #[test]
    fn stop_while_idle_does_not_leak_into_the_next_move() {
        let s = StopControl::default();
        s.requested.store(1, Ordering::SeqCst);
        s.answered.store(1, Ordering::SeqCst);
        s.request_stop();
        assert!(!s.stop.load(Ordering::SeqCst));
        s.requested.store(2, Ordering::SeqCst);
        s.arm(2);
        assert!(!s.stop.load(Ordering::SeqCst));
        // Raised mid-think, it sticks.
        s.request_stop();
        assert!(s.stop.load(Ordering::SeqCst));
        // The next move starts clear.
        s.answered.store(2, Ordering::SeqCst);
        s.requested.store(3, Ordering::SeqCst);
        s.arm(3);
        assert!(!s.stop.load(Ordering::SeqCst));
    }
}
