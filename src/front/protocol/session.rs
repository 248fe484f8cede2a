//! The session state machine: applies parsed [`Command`]s to the game state and produces the
//! reply lines. It owns the board, the rule, the clock settings and the algorithm; it never reads
//! input (the reader thread does) and writes only through the line sink it is given.
//!
//! # Invariants
//! - A command that fails leaves the state exactly as it was and replies `ERROR <reason>`: a
//!   refused `BOARD` keeps the previous position, a refused `TURN` places nothing.
//! - `me` is our colour once any command has told us (BEGIN: black; first TURN on an empty
//!   board: white; BOARD/YXBOARD: inferred, see `setup::infer_colour`); before the algorithm is
//!   asked, the board's side to move is set to `me`.
//! - Every move we print has been placed on our board as our colour, and is legal: on the board,
//!   empty, and not a renju forbidden point when we are black (an algorithm answer that is not
//!   legal is replaced, with a `DEBUG` line saying so).
//!
//! The analysis commands are in `analysis`, the opening-rule commands in `swap` and `openings`,
//! what a `BOARD` body means in `setup` (field 3 included), the table commands in `table` and
//! the draw and resignation queries in `judge`: each an `impl Session` of its own.

use super::command::{BoardKind, Command, Coord, DbFileOp, DbOp, Info, Owner};
use super::info::{self, Setting};
use super::report::Printer;
use super::setup::{build_position, empty_point, first_legal, on_board};
use super::Sink;
use crate::engine::algo::{Algorithm, Analysis, Request};
use crate::engine::config::Config;
use crate::engine::resources;
use crate::game::board::{Board, Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::game::rules::{self, Rule};
use crate::search::timeman::{self, Limits, MatchClock, ReplyLag, TimeControl};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What the caller should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// `END` was received: stop, printing nothing more.
    End,
}

/// The game state of one protocol session.
pub struct Session {
    pub(super) algo: Box<dyn Algorithm>,
    pub(super) config: Config,
    pub(super) board: Option<Board>,
    pub(super) me: Option<Color>,
    pub(super) rule: Rule,
    pub(super) time: TimeControl,
    /// The match clock by our own count, corrected by `time_left` ([`MatchClock`]).
    pub(super) clock: MatchClock,
    /// How late our recent replies came after their budgets ([`ReplyLag`]).
    pub(super) lag: ReplyLag,
    pub(super) max_depth: Option<u32>,
    pub(super) max_nodes: Option<u64>,
    pub(super) game_type: u64,
    /// Moves an analyst left out of the root (`YXBLOCK`), until `YXBLOCKRESET` or a new game.
    pub(super) blocked: Vec<Pos>,
    /// The last command was answered with our move on the board: a ponder may follow.
    pub(super) ponder_ready: bool,
    /// The position database, closed until asked for (`database`).
    #[cfg(not(loom))]
    pub(super) db_state: super::dbstate::DbState,
}

impl Session {
    /// A session with no board yet (`START` creates one).
    pub fn new(algo: Box<dyn Algorithm>, config: Config) -> Session {
        Session {
            algo,
            config,
            board: None,
            me: None,
            rule: Rule::Freestyle,
            time: TimeControl::default(),
            clock: MatchClock::default(),
            lag: ReplyLag::default(),
            max_depth: None,
            max_nodes: None,
            game_type: 0,
            blocked: Vec::new(),
            ponder_ready: false,
            #[cfg(not(loom))]
            db_state: Default::default(),
        }
    }

    /// The current board, if a game was started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// The rule in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Our colour, once known.
    pub fn me(&self) -> Option<Color> {
        self.me
    }

    /// Applies one command. `started` is when the reader read it (the move clock's start);
    /// `stop` is raised by the reader when the move must be answered now.
    pub fn apply(
        &mut self,
        cmd: Command,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Flow {
        self.ponder_ready = false;
        let played = matches!(
            cmd,
            Command::Begin | Command::Turn(_) | Command::Board(BoardKind::Board, _)
        );
        let reread = changes_known(&cmd);
        let result = match cmd {
            Command::End => return Flow::End,
            Command::Start(n) => self.start(n, n).map(|_| out("OK")),
            Command::RectStart(w, h) => self.start(w, h).map(|_| out("OK")),
            Command::Restart => self.restart().map(|_| out("OK")),
            Command::Begin => self.begin(started, stop, out),
            Command::Turn(c) => self.turn(c, started, stop, out),
            Command::Board(kind, stones) => self.set_board(kind, &stones, started, stop, out),
            Command::Takeback(c) => self.takeback(c).map(|_| out("OK")),
            Command::Play(c) => self.play(c).map(|p| out(&p.to_string())),
            Command::Swap2Board(stones) => self.swap2(&stones, false, started, stop, out),
            Command::Swap1Board(stones) => self.swap2(&stones, true, started, stop, out),
            Command::Opening(step) => self.opening(step, started, stop, out),
            Command::Info(info) => self.info(info, out),
            Command::About => {
                out(&about(self.algo.name()));
                Ok(())
            }
            Command::YxStop => Ok(()),
            Command::YxHashClear => self.hash_clear(),
            Command::YxShowForbid => self.show_forbid().map(|s| out(&s)),
            Command::Print => self.print(out),
            Command::YxNbest(n) => self.nbest(n, started, stop, out),
            Command::YxSearchDefend => self.search_defend(started, stop, out),
            Command::YxBalance { stones, bias } => self.balance(stones, bias, started, stop, out),
            Command::YxBlock(moves) => self.block(&moves),
            Command::YxBlockUndo => {
                self.blocked.pop();
                Ok(())
            }
            Command::YxBlockReset => {
                self.blocked.clear();
                Ok(())
            }
            Command::YxHashDump(path) => self.hash_dump(&path, out),
            Command::YxHashLoad(path) => self.hash_load(&path, out),
            Command::YxShowHashUsage => self.hash_usage(out),
            Command::YxShowInfo => {
                show_info(self.algo.name(), &self.config, out);
                Ok(())
            }
            Command::YxDraw => self.draw_offer(started, stop, out),
            Command::YxResign => self.resign_query(started, stop, out),
            cmd @ (Command::DbPosition(..)
            | Command::DbFile(..)
            | Command::DbSave
            | Command::DbCheck
            | Command::DbFix) => self.database(cmd, out),
            Command::Unknown(what) => {
                out(&format!("UNKNOWN {what}"));
                Ok(())
            }
            Command::Error(why) => Err(why),
        };
        self.ponder_ready = played && result.is_ok();
        if reread && result.is_ok() {
            self.refresh_known(out);
        }
        // A root result goes into the database once its reply is out, off the move clock.
        self.write_back(out);
        if let Err(why) = result {
            out(&format!("ERROR {why}"));
        }
        Flow::Continue
    }

    fn start(&mut self, w: i64, h: i64) -> Result<(), String> {
        if w != h {
            return Err(format!("only square boards are supported, not {w}x{h}"));
        }
        let range = MIN_SIZE as i64..=MAX_SIZE as i64;
        if !range.contains(&w) {
            return Err(format!(
                "unsupported board size {w} (supported: {MIN_SIZE}..={MAX_SIZE})"
            ));
        }
        self.new_game(w as usize);
        Ok(())
    }

    fn restart(&mut self) -> Result<(), String> {
        let size = self.current()?.size();
        self.new_game(size);
        Ok(())
    }

    fn new_game(&mut self, size: usize) {
        self.board = Some(Board::new(size));
        self.me = None;
        self.blocked.clear();
        self.clock.new_game();
        self.algo.new_game(size, &self.config);
    }

    pub(super) fn current(&self) -> Result<&Board, String> {
        self.board
            .as_ref()
            .ok_or_else(|| "no game: send START first".to_string())
    }

    fn begin(&mut self, started: Instant, stop: &AtomicBool, out: Sink<'_>) -> Result<(), String> {
        if self.current()?.stone_count() != 0 {
            return Err("BEGIN on a non-empty board (use BOARD to set a position)".into());
        }
        self.me = Some(Color::Black);
        let p = self.think(started, stop, out, &Analysis::default())?;
        out(&p.to_string());
        Ok(())
    }

    fn turn(
        &mut self,
        c: Coord,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        let board = self.current()?;
        let p = empty_point(board, c)?;
        // Their stone's colour is whoever is to move; that fixes ours when nothing else has.
        let me = self.me.unwrap_or_else(|| board.side_to_move().opponent());
        self.me = Some(me);
        let board = self.board.as_mut().expect("checked above");
        board.put(p, me.opponent()).expect("checked empty");
        let q = self.think(started, stop, out, &Analysis::default())?;
        out(&q.to_string());
        Ok(())
    }

    fn takeback(&mut self, c: Coord) -> Result<(), String> {
        let p = on_board(self.current()?, c)?;
        let board = self.board.as_mut().expect("checked above");
        board
            .remove(p)
            .map(|_| ())
            .ok_or_else(|| format!("no stone at {c} to take back"))
    }

    fn play(&mut self, c: Coord) -> Result<Pos, String> {
        let board = self.current()?;
        let p = empty_point(board, c)?;
        let me = self.me.unwrap_or_else(|| board.side_to_move());
        self.me = Some(me);
        let board = self.board.as_mut().expect("checked above");
        board.put(p, me).expect("checked empty");
        Ok(p)
    }

    fn set_board(
        &mut self,
        kind: BoardKind,
        stones: &[(Coord, Owner)],
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        let name = match kind {
            BoardKind::Board => "BOARD",
            BoardKind::YxBoard => "YXBOARD",
        };
        let size = self.current()?.size();
        let (board, me) = build_position(size, stones, self.rule)
            .map_err(|e| format!("{name}: {e}; position unchanged"))?;
        self.board = Some(board);
        self.me = Some(me);
        if kind == BoardKind::Board {
            let p = self.think(started, stop, out, &Analysis::default())?;
            out(&p.to_string());
        }
        Ok(())
    }

    /// This move's limits on the session's board: the clock from `started`, the time control,
    /// the depth and node caps the manager set, and the board's stones (the game's phase).
    pub(super) fn limits(&self, started: Instant) -> Limits {
        let stones = self.board.as_ref().map_or(0, Board::stone_count);
        self.limits_at(started, stones)
    }

    /// [`Session::limits`] for a move asked on a position of `stones` stones (an opening
    /// position that is not yet the session's board).
    pub(super) fn limits_at(&self, started: Instant, stones: usize) -> Limits {
        Limits {
            started,
            time: self.clock.apply(self.time),
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            lag_ms: self.lag.ms(),
            stones: u32::try_from(stones).unwrap_or(u32::MAX),
        }
    }

    /// Our move asked for at `started` on a position of `stones` stones is answered now: its
    /// time goes off the match clock, and how far it came past its budget into the lag the next
    /// budgets keep back.
    pub(super) fn answered(&mut self, started: Instant, stones: usize) {
        let took = started.elapsed();
        if let Some(budget) = timeman::budget_ms(&self.limits_at(started, stones)) {
            self.lag.observe(budget, took);
        }
        self.clock.moved(took);
    }

    /// Stores an `INFO` setting as [`info::interpret`] takes it, saying what it clamped or
    /// ignored; resource settings are handed to the algorithm at once, so that they hold from
    /// the next search (not only from the next game).
    fn info(&mut self, info: Info, out: Sink<'_>) -> Result<(), String> {
        let interpreted = info::interpret(info);
        if let Some(note) = interpreted.note {
            out(&format!("MESSAGE {note}"));
        }
        let Some(setting) = interpreted.setting else {
            return Ok(());
        };
        match setting {
            Setting::UseDatabase(on) => self.use_database(on, out),
            Setting::DatabaseReadonly(on) => self.database_readonly(on, out),
            _ => {}
        }
        let resources = matches!(
            setting,
            Setting::MaxMemory(_) | Setting::Threads(_) | Setting::HashKib(_)
        );
        let brain = &mut self.config.brain;
        match setting {
            Setting::TurnMs(ms) => self.time.turn_ms = Some(ms),
            Setting::MatchMs(ms) => self.time.match_ms = Some(ms),
            Setting::LeftMs(ms) => self.clock.report(ms),
            Setting::GameType(t) => self.game_type = t,
            Setting::Rule(bits) => self.rule = Rule::from_info_bits(bits),
            Setting::Folder(path) => self.config.folder = Some(path.into()),
            Setting::MaxDepth(d) => self.max_depth = d,
            Setting::MaxNodes(n) => self.max_nodes = n,
            Setting::ShowDetail(level) => brain.show_detail = level,
            Setting::Pondering(on) => brain.pondering = on,
            Setting::MaxMemory(bytes) => brain.max_memory = bytes,
            Setting::Threads(n) => brain.threads = n,
            Setting::HashKib(kib) => brain.hash_kib = kib,
            Setting::UseDatabase(_) | Setting::DatabaseReadonly(_) => return Ok(()), // above
        }
        if resources {
            for note in self.algo.configure(&self.config) {
                out(&format!("MESSAGE {note}"));
            }
        }
        Ok(())
    }

    /// Whether the last command left our move on the board with pondering on: the caller may
    /// then call [`Session::ponder`] while no command is waiting.
    pub fn wants_ponder(&self) -> bool {
        self.ponder_ready
            && self.config.brain.pondering
            && self.board.as_ref().is_some_and(|b| !b.is_full())
    }

    /// Searches the current position with the opponent to move until `stop` is raised,
    /// printing nothing (see [`Algorithm::ponder`]). The board and the game are unchanged.
    pub fn ponder(&mut self, stop: &AtomicBool) {
        let (Some(board), Some(me)) = (self.board.as_ref(), self.me) else {
            return;
        };
        let mut board = board.clone();
        board.set_side_to_move(me.opponent());
        let over = board
            .last_move()
            .and_then(|p| Some((p, board.at(p)?)))
            .is_some_and(|(p, c)| rules::is_win_at(&board, p, c, self.rule));
        if board.is_full() || over {
            return;
        }
        let req = Request {
            board: &board,
            rule: self.rule,
            limits: Limits::new(TimeControl::default()),
            config: &self.config,
            stop,
            output: &|_| {},
            report: &|_| {},
            analysis: &Analysis::default(),
        };
        let algo = &mut self.algo;
        // A failed ponder costs nothing but the ponder.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| algo.ponder(&req)));
    }

    /// The sink of the algorithm's notes: `MESSAGE` lines under any `show_detail` but 0.
    pub(super) fn notes<'s>(&self, out: Sink<'s>) -> impl Fn(&str) + Sync + 's {
        let show = self.config.brain.show_detail != 0;
        move |s: &str| {
            if show {
                out(&format!("MESSAGE {s}"));
            }
        }
    }

    /// The printer of a think's reports with `analysis`: real times unless the think is
    /// deterministic (one worker and a depth or node cap).
    pub(super) fn printer<'s>(&self, out: Sink<'s>, analysis: &Analysis) -> Printer<'s> {
        let deterministic = self.config.brain.threads <= 1
            && (self.max_depth.is_some() || self.max_nodes.is_some());
        Printer::new(
            out,
            self.config.brain.show_detail,
            !deterministic,
            analysis.lines > 1,
        )
    }

    pub(super) fn print(&self, out: Sink<'_>) -> Result<(), String> {
        let board = self.current()?;
        let me = match self.me {
            Some(Color::Black) => "black",
            Some(Color::White) => "white",
            None => "not yet known",
        };
        out(&format!(
            "MESSAGE {}x{} {}, {} stones, we play {me}, game type {}",
            board.size(),
            board.size(),
            self.rule,
            board.stone_count(),
            self.game_type
        ));
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        let t = self.clock.apply(self.time);
        out(&format!(
            "MESSAGE settings: threads={} hash_kib={} max_memory={} show_detail={} folder={} \
             timeout_turn={} timeout_match={} time_left={} max_depth={} max_node={} reply_lag_ms={}",
            self.config.brain.threads,
            opt((self.config.brain.hash_kib > 0).then(|| self.config.brain.hash_kib.to_string())),
            self.config.brain.max_memory,
            self.config.brain.show_detail,
            opt(self.config.folder.as_ref().map(|f| f.display().to_string())),
            opt(t.turn_ms.map(|v| v.to_string())),
            opt(t.match_ms.map(|v| v.to_string())),
            opt(t.left_ms.map(|v| v.to_string())),
            opt(self.max_depth.map(|v| v.to_string())),
            opt(self.max_nodes.map(|v| v.to_string())),
            self.lag.ms(),
        ));
        for line in self.algo.resources() {
            out(&format!("MESSAGE {line}"));
        }
        for row in board.to_string().lines() {
            out(&format!("MESSAGE {row}"));
        }
        Ok(())
    }

    /// Asks the algorithm for our move on the current board, checks it and places it.
    pub(super) fn think(
        &mut self,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
        analysis: &Analysis,
    ) -> Result<Pos, String> {
        let (p, _) = self.ask(started, stop, out, analysis)?;
        let me = self.me.expect("colour set by ask");
        let board = self.board.as_mut().expect("checked by ask");
        let asked_on = board.stone_count();
        board.put(p, me).expect("checked legal");
        self.answered(started, asked_on);
        Ok(p)
    }

    /// Asks the algorithm for our move on the current board with `analysis`, printing its
    /// reports; returns the move (checked legal, not placed) and the search's principal
    /// variations.
    pub(super) fn ask(
        &mut self,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
        analysis: &Analysis,
    ) -> Result<(Pos, Vec<crate::search::alphabeta::Line>), String> {
        let me = self.me.unwrap_or_else(|| {
            self.board
                .as_ref()
                .map_or(Color::Black, |b| b.side_to_move())
        });
        self.me = Some(me);
        let rule = self.rule;
        let limits = self.limits(started);
        let emit = self.notes(out);
        let printer = self.printer(out, analysis);
        // The search's final answer (depth, score, move), for the database's write-back.
        let finished = parking_lot::Mutex::new(None);
        let report = |r: crate::search::alphabeta::Report<'_>| {
            if let crate::search::alphabeta::Report::Finished { result, .. } = &r {
                *finished.lock() = Some((result.depth, result.score, result.best));
            }
            printer.report(r)
        };
        let board = self
            .board
            .as_mut()
            .ok_or_else(|| "no game: send START first".to_string())?;
        if board.is_full() {
            return Err("the board is full".into());
        }
        board.set_side_to_move(me);
        let req = Request {
            board,
            rule,
            limits,
            config: &self.config,
            stop,
            output: &emit,
            report: &report,
            analysis,
        };
        // A panicking algorithm is a bug, but in a tournament a legal move still beats a dead
        // process: fall back to the first legal point, as for an illegal answer.
        let algo = &mut self.algo;
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| algo.think(&req)));
        let p = match answer {
            Ok(p) if rules::is_legal(board, p, me, rule) => p,
            Ok(p) => {
                let q = first_legal(board, me, rule);
                out(&format!(
                    "DEBUG {} answered the illegal move {},{}; playing {q} instead",
                    self.algo.name(),
                    p.x(),
                    p.y()
                ));
                q
            }
            Err(_) => {
                let q = first_legal(board, me, rule);
                out(&format!(
                    "DEBUG {} failed (panicked); playing {q} instead",
                    self.algo.name()
                ));
                q
            }
        };
        let root = board.clone();
        if let Some((depth, score, best)) = finished.into_inner().filter(|f| f.2 == p) {
            self.note_result(&root, depth, score, best);
        }
        Ok((p, printer.last_lines()))
    }
}

/// Whether `cmd`, once applied, may change what the search knows from the database: the file
/// opened, closed or written, or another rule or board size.
fn changes_known(cmd: &Command) -> bool {
    match cmd {
        Command::Start(_) | Command::RectStart(..) => true,
        Command::Info(Info::Rule(_) | Info::UseDatabase(_) | Info::DatabaseReadonly(_)) => true,
        // One record written is followed in place (`follow_edit`); a delete below a
        // position may touch any number.
        Command::DbPosition(op, _) => matches!(op, DbOp::DeleteAll(_)),
        Command::DbFile(op, _) => matches!(
            op,
            DbFileOp::Set | DbFileOp::TxtToDb | DbFileOp::Merge | DbFileOp::LibToDb
        ),
        Command::DbFix => true,
        _ => false,
    }
}

/// The `ABOUT` line.
pub fn about(ai: &str) -> String {
    format!(
        "name=\"pbrain-bango\", version=\"{}\", author=\"bango team\", country=\"International\", \
         www=\"\", ai=\"{ai}\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// `YXSHOWINFO`: who we are, then the capabilities Yixin-Board reads from `MESSAGE INFO`
/// lines: `MAX_THREAD_NUM` (its thread slider's end: the machine's thread cap) and
/// `MAX_HASH_SIZE` (its hash slider's end, `k` for a table of `2^k` KiB: the largest table the
/// memory limit in force leaves room for with one thread).
fn show_info(ai: &str, config: &Config, out: Sink<'_>) {
    let machine = resources::Machine::detect();
    out(&format!(
        "MESSAGE pbrain-bango {} ({ai})",
        env!("CARGO_PKG_VERSION")
    ));
    out(&format!(
        "MESSAGE INFO MAX_THREAD_NUM {}",
        machine.thread_cap()
    ));
    let kib = resources::largest_table_kib(resources::Wanted::of(config), &machine);
    out(&format!(
        "MESSAGE INFO MAX_HASH_SIZE {}",
        kib.max(1).ilog2()
    ));
}

#[cfg(test)]
mod tests;
