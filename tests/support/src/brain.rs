//! Drives the built `pbrain-bango` binary like a manager does, over pipes or TCP, keeping a
//! transcript for failure messages. Every read has a timeout: a test never hangs.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single reply may take before the test fails.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The brain binary under test.
pub fn bin() -> std::path::PathBuf {
    crate::brain_binary()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Pipe,
    Tcp,
}

enum Input {
    Pipe(ChildStdin),
    Tcp(TcpStream),
    Closed,
}

/// What the reader thread saw.
pub enum Event {
    Line(String),
    /// A line not terminated by CRLF.
    BadEnding(String),
    Eof,
}

/// A running brain and a connection to it.
pub struct Brain {
    pub mode: Mode,
    child: Child,
    input: Input,
    events: Receiver<Event>,
    /// TCP mode: where the server listens.
    pub addr: Option<String>,
    pub transcript: Vec<String>,
}

fn spawn_reader<R: Read + Send + 'static>(r: R) -> Receiver<Event> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        loop {
            let mut buf = Vec::new();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::Eof);
                    return;
                }
                Ok(_) => {
                    let s = String::from_utf8_lossy(&buf).into_owned();
                    let ev = match s.strip_suffix("\r\n") {
                        Some(line) => Event::Line(line.to_string()),
                        None => Event::BadEnding(s),
                    };
                    if tx.send(ev).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

impl Brain {
    /// Starts the brain with `env` set, connected over `mode`. The algorithm is `random` unless
    /// `env` names another (`BANGO_ALGO` = "" leaves the registry's default): these transcripts
    /// test the protocol, and random answers without search output.
    pub fn spawn(mode: Mode, env: &[(&str, &str)]) -> Brain {
        let mut cmd = Command::new(bin());
        cmd.env("BANGO_ALGO", "random")
            .env_remove("BANGO_SMP")
            .env_remove("BANGO_SEED");
        for (k, v) in env {
            cmd.env(k, v);
        }
        match mode {
            Mode::Pipe => Brain::spawn_pipe(cmd),
            Mode::Tcp => {
                let mut child = cmd
                    .args(["web", "--port", "0"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("spawn pbrain-bango web");
                let stderr = child.stderr.take().unwrap();
                let (tx, rx) = channel();
                std::thread::spawn(move || {
                    for line in BufReader::new(stderr).lines() {
                        let Ok(line) = line else { return };
                        if tx.send(line).is_err() {
                            // Keep draining so the server never blocks on stderr.
                            continue;
                        }
                    }
                });
                let first = rx
                    .recv_timeout(READ_TIMEOUT)
                    .expect("web mode prints its address");
                let addr = first
                    .strip_prefix("pbrain-bango listening on ")
                    .unwrap_or_else(|| panic!("unexpected first stderr line {first:?}"))
                    .to_string();
                let mut brain = Brain {
                    mode,
                    child,
                    input: Input::Closed,
                    events: channel().1,
                    addr: Some(addr),
                    transcript: Vec::new(),
                };
                brain.connect();
                brain
            }
        }
    }

    /// Starts `cmd` (a brain, or a wrapper that runs one) connected over pipes.
    pub fn spawn_pipe(mut cmd: Command) -> Brain {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn pbrain-bango");
        let stdin = child.stdin.take().unwrap();
        let events = spawn_reader(child.stdout.take().unwrap());
        Brain {
            mode: Mode::Pipe,
            child,
            input: Input::Pipe(stdin),
            events,
            addr: None,
            transcript: Vec::new(),
        }
    }

    /// The brain's process id (to read its `/proc` status).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// TCP: opens a fresh client connection (the previous one, if any, is dropped).
    pub fn connect(&mut self) {
        let addr = self.addr.clone().expect("TCP mode");
        let stream = TcpStream::connect(&addr).expect("connect");
        stream.set_nodelay(true).unwrap();
        self.events = spawn_reader(stream.try_clone().unwrap());
        self.input = Input::Tcp(stream);
        self.transcript.push(format!("-- connected to {addr}"));
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!(">> {line}"));
        self.send_raw(format!("{line}\r\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        if bytes.len() < 200 {
            self.transcript
                .push(format!(">> raw {:?}", String::from_utf8_lossy(bytes)));
        } else {
            self.transcript
                .push(format!(">> raw {} bytes", bytes.len()));
        }
        let r = match &mut self.input {
            Input::Pipe(w) => w.write_all(bytes).and_then(|_| w.flush()),
            Input::Tcp(w) => w.write_all(bytes).and_then(|_| w.flush()),
            Input::Closed => panic!("input closed"),
        };
        r.unwrap_or_else(|e| panic!("write failed: {e}\n{}", self.dump()));
    }

    /// Closes our sending side: stdin EOF, or a TCP half-close.
    pub fn close_input(&mut self) {
        self.transcript.push("-- input closed".into());
        match std::mem::replace(&mut self.input, Input::Closed) {
            Input::Tcp(s) => {
                let _ = s.shutdown(Shutdown::Write);
                self.input = Input::Tcp(s);
            }
            Input::Pipe(p) => drop(p),
            Input::Closed => {}
        }
    }

    /// TCP: drops the connection entirely.
    pub fn disconnect(&mut self) {
        self.transcript.push("-- disconnected".into());
        if let Input::Tcp(s) = std::mem::replace(&mut self.input, Input::Closed) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    pub fn dump(&self) -> String {
        format!("transcript:\n{}", self.transcript.join("\n"))
    }

    /// The next event within `timeout`, or `None`.
    pub fn next_event(&mut self, timeout: Duration) -> Option<Event> {
        match self.events.recv_timeout(timeout) {
            Ok(ev) => Some(ev),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Eof),
        }
    }

    /// The next line; fails on timeout, EOF or a line not ended by CRLF.
    pub fn recv(&mut self) -> String {
        match self.next_event(READ_TIMEOUT) {
            Some(Event::Line(l)) => {
                self.transcript.push(format!("<< {l}"));
                l
            }
            Some(Event::BadEnding(l)) => panic!("line not ended by CRLF: {l:?}\n{}", self.dump()),
            Some(Event::Eof) => panic!("unexpected end of output\n{}", self.dump()),
            None => panic!("no reply within {READ_TIMEOUT:?}\n{}", self.dump()),
        }
    }

    pub fn expect(&mut self, want: &str) {
        let got = self.recv();
        assert_eq!(got, want, "\n{}", self.dump());
    }

    /// Expects `ERROR ...` containing `part`.
    pub fn expect_error(&mut self, part: &str) {
        let got = self.recv();
        assert!(
            got.starts_with("ERROR ") && got.contains(part),
            "wanted an ERROR containing {part:?}, got {got:?}\n{}",
            self.dump()
        );
    }

    /// Expects no output at all for `d`.
    pub fn expect_silence(&mut self, d: Duration) {
        match self.next_event(d) {
            None => {}
            Some(Event::Line(l)) | Some(Event::BadEnding(l)) => {
                panic!("unexpected output {l:?}\n{}", self.dump())
            }
            Some(Event::Eof) => panic!("unexpected end of output\n{}", self.dump()),
        }
    }

    /// Expects the output to end (process exit or closed connection) within `timeout`.
    pub fn expect_eof(&mut self, timeout: Duration) {
        match self.next_event(timeout) {
            Some(Event::Eof) => {}
            Some(Event::Line(l)) | Some(Event::BadEnding(l)) => {
                panic!("unexpected output {l:?} before the end\n{}", self.dump())
            }
            None => panic!("output did not end within {timeout:?}\n{}", self.dump()),
        }
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let t0 = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().expect("try_wait") {
                return st;
            }
            if t0.elapsed() > timeout {
                panic!("process did not exit within {timeout:?}\n{}", self.dump());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Parses a move reply `x,y`, checks it is on a `size` board and not in `occupied`, and
    /// records it there.
    pub fn expect_move(
        &mut self,
        size: usize,
        occupied: &mut Vec<(usize, usize)>,
    ) -> (usize, usize) {
        let line = self.recv();
        let p =
            parse_move(&line).unwrap_or_else(|| panic!("not a move: {line:?}\n{}", self.dump()));
        assert!(
            p.0 < size && p.1 < size,
            "off-board move {line}\n{}",
            self.dump()
        );
        assert!(
            !occupied.contains(&p),
            "occupied move {line}\n{}",
            self.dump()
        );
        occupied.push(p);
        p
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

pub fn parse_move(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// BOARD/YXBOARD body lines for an ASCII picture (`X` black, `O` white, `.` empty), from the
/// point of view of the side `me` ('X' or 'O'). Stones are listed in a plausible move order:
/// black and white alternating (black first), with `last` (if given) moved to the very end.
pub fn board_lines(picture: &str, me: char, last: Option<(usize, usize)>) -> Vec<String> {
    let mut blacks = Vec::new();
    let mut whites = Vec::new();
    for (y, row) in picture
        .lines()
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|r| !r.is_empty())
        .enumerate()
    {
        for (x, ch) in row.chars().enumerate() {
            match ch {
                'X' => blacks.push((x, y, 'X')),
                'O' => whites.push((x, y, 'O')),
                _ => {}
            }
        }
    }
    let mut order = Vec::new();
    let (mut b, mut w) = (blacks.into_iter(), whites.into_iter());
    loop {
        let nb = b.next();
        let nw = w.next();
        if nb.is_none() && nw.is_none() {
            break;
        }
        order.extend(nb);
        order.extend(nw);
    }
    if let Some(l) = last {
        let i = order
            .iter()
            .position(|&(x, y, _)| (x, y) == l)
            .expect("last move is a stone");
        let s = order.remove(i);
        order.push(s);
    }
    order
        .into_iter()
        .map(|(x, y, c)| format!("{x},{y},{}", if c == me { 1 } else { 2 }))
        .collect()
}

/// Sends a whole BOARD (or YXBOARD) command.
pub fn send_board(brain: &mut Brain, word: &str, lines: &[String]) {
    brain.send(word);
    for l in lines {
        brain.send(l);
    }
    brain.send("DONE");
}
