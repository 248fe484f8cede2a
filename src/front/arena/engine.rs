//! One brain as a child process, driven over pipes as a tournament manager drives it.
//!
//! The command line runs through `sh -c 'exec CMD'`, so shell quoting, `env VAR=value` prefixes
//! and relative paths work as typed, and `exec` makes the brain itself the child the arena
//! kills. The brain's stderr is discarded.
//!
//! A reader thread per process turns stdout into timestamped [`Event`]s on a channel, so the
//! arena can wait for a reply with a deadline and a silent brain cannot block the match. Lines
//! are stamped when read, which is the moment the clock stops.

use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How one engine is started and configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (unique within a match).
    pub name: String,
    /// The command line, run through `sh -c 'exec CMD'`.
    pub cmd: String,
    /// Per-move time in ms for this engine, overriding the match default.
    pub tc_turn_ms: Option<u64>,
    /// Whole-game time in ms for this engine, overriding the match default.
    pub tc_match_ms: Option<u64>,
    /// `INFO thread_num` to send, if any.
    pub threads: Option<u32>,
    /// Extra `INFO` lines, each `key value`, sent after the standard ones.
    pub info: Vec<String>,
}

const SPEC_KEYS: [&str; 6] = ["name", "cmd", "tc-turn", "tc-match", "threads", "info"];

impl EngineSpec {
    /// An engine with only a command; its name is derived from the command.
    pub fn command(cmd: &str) -> EngineSpec {
        EngineSpec {
            name: default_name(cmd),
            cmd: cmd.to_string(),
            tc_turn_ms: None,
            tc_match_ms: None,
            threads: None,
            info: Vec::new(),
        }
    }

    /// Parses an engine argument: either a plain command line, or settings
    /// `key=value,...,cmd=COMMAND` with keys `name`, `tc-turn`, `tc-match`, `threads`, `info`
    /// (repeatable, `info=key value`) and `cmd` last (everything after `cmd=` is the command,
    /// commas included). An argument is read as settings when it starts with one of these keys
    /// followed by `=`.
    pub fn parse(arg: &str) -> Result<EngineSpec, String> {
        let arg = arg.trim();
        let is_spec = SPEC_KEYS
            .iter()
            .any(|k| arg.strip_prefix(k).is_some_and(|r| r.starts_with('=')));
        if !is_spec {
            if arg.is_empty() {
                return Err("empty engine command".into());
            }
            return Ok(EngineSpec::command(arg));
        }
        let mut spec = EngineSpec::command("");
        let mut name = None;
        let mut rest = arg;
        loop {
            if let Some(cmd) = rest.strip_prefix("cmd=") {
                spec.cmd = cmd.trim().to_string();
                break;
            }
            let (item, tail) = match rest.split_once(',') {
                Some((i, t)) => (i, Some(t)),
                None => (rest, None),
            };
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("engine setting {item:?} is not key=value"))?;
            let num = |v: &str| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("engine setting {k}: bad number {v:?}"))
            };
            match k.trim() {
                "name" => name = Some(v.trim().to_string()),
                "tc-turn" => spec.tc_turn_ms = Some(num(v)?),
                "tc-match" => spec.tc_match_ms = Some(num(v)?),
                "threads" => spec.threads = Some(num(v)? as u32),
                "info" => spec.info.push(v.trim().to_string()),
                other => return Err(format!("unknown engine setting {other:?}")),
            }
            match tail {
                Some(t) => rest = t,
                None => break,
            }
        }
        if spec.cmd.is_empty() {
            return Err(format!("engine {arg:?} has no cmd="));
        }
        spec.name = name.unwrap_or_else(|| default_name(&spec.cmd));
        Ok(spec)
    }
}

/// Launchers skipped when naming an engine after its program.
const LAUNCHERS: [&str; 8] = [
    "env", "exec", "nice", "sh", "bash", "python", "python3", "wine",
];

/// A readable name for a command: the file name of the program (past launchers such as `env`
/// or `bash`), with the value of a `BANGO_ALGO=` setting appended if present.
fn default_name(cmd: &str) -> String {
    let mut algo = None;
    let mut prog = None;
    for tok in cmd.split_whitespace() {
        if let Some(a) = tok.strip_prefix("BANGO_ALGO=") {
            algo = Some(a.to_string());
        } else if !LAUNCHERS.contains(&tok)
            && !tok.contains('=')
            && !tok.starts_with('-')
            && prog.is_none()
        {
            prog = Some(tok.rsplit('/').next().unwrap_or(tok).to_string());
        }
    }
    match (prog, algo) {
        (Some(p), Some(a)) => format!("{p}:{a}"),
        (Some(p), None) => p,
        (None, Some(a)) => a,
        (None, None) => "engine".into(),
    }
}

/// What the reader thread saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line (without its line ending) and when it was read.
    Line(String, Instant),
    /// End of output: the process closed stdout or exited.
    Eof(Instant),
}

/// The outcome of waiting for the next line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    /// A line and when it was read.
    Line(String, Instant),
    /// The engine's output ended.
    Eof,
    /// Nothing before the deadline.
    Timeout,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    eof: bool,
}

impl EngineProcess {
    /// Starts `cmd` through `sh -c 'exec CMD'` with piped stdin and stdout.
    pub fn spawn(cmd: &str) -> std::io::Result<EngineProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {cmd}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("arena-reader".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Eof(Instant::now()));
                            return;
                        }
                        Ok(_) => {
                            let now = Instant::now();
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\r', '\n'])
                                .to_string();
                            if tx.send(Event::Line(line, now)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            rx,
            eof: false,
        })
    }

    /// Writes one command line and flushes. An error means the engine is gone.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Waits for the next line until `deadline`.
    pub fn recv_until(&mut self, deadline: Instant) -> Received {
        if self.eof {
            return Received::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Event::Line(l, t)) => Received::Line(l, t),
            Ok(Event::Eof(_)) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Received::Eof
            }
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
        }
    }

    /// Sends `END`, closes stdin and gives the engine until `deadline` to exit, then kills it.
    /// Always reaps the process.
    pub fn end(mut self, deadline: Instant) {
        let _ = self.send("END");
        self.stdin = None;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // `end` consumes the process and reaps it; reaching here otherwise (a panic in the
        // game loop) must not leave a brain running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
