//! One game between two engine processes, refereed by [`crate::game::rules::play_checked`].
//!
//! Each engine gets `START size`, its `INFO` settings and must answer `OK`. Before every move
//! request it gets `INFO time_left`; its first request is `BEGIN` on an empty board, otherwise
//! `BOARD` with every stone in move order (1 own, 2 opponent) as the Gomocup judge sends
//! openings, and `TURN x,y` after that. At the end both get `END` and are killed after about
//! a second if still running.
//!
//! The arena's own clock runs from sending the request to reading the reply. A move loses
//! when it takes longer than the per-move budget or the time left in the game, plus the
//! tolerance. The arena waits a further `grace` for a late reply, which tells a slow engine
//! ([`Reason::TimeForfeit`]) from a silent one ([`Reason::NoReply`]).
//!
//! Invariant: a [`GameRecord`]'s moves replay legally from its opening, and the last one is the
//! winning move when the reason is [`Reason::Five`].

use super::engine::{EngineProcess, EngineSpec, Received};
use super::openings::check_opening;
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{play_checked, IllegalMove, MoveOutcome, Rule};
use std::time::{Duration, Instant};

/// `INFO time_left` when there is no match clock.
const UNLIMITED: i64 = 2_147_483_647;

/// How every game of a match is played.
#[derive(Clone, Debug, PartialEq)]
pub struct GameConfig {
    /// Board side.
    pub size: usize,
    /// The rule, sent as `INFO rule` bits and enforced by the referee.
    pub rule: Rule,
    /// Default per-move budget in ms; 0 = no per-move limit (with no game clock either, the
    /// brains are told to play at once and nothing is timed).
    pub tc_turn_ms: u64,
    /// Default whole-game budget in ms per engine; 0 = no game clock.
    pub tc_match_ms: u64,
    /// Slack added to every budget before a move is lost on time.
    pub tolerance_ms: u64,
    /// How much longer to wait after the budget for a late reply (see the module docs).
    pub grace_ms: u64,
    /// How long `START` may take to answer `OK`.
    pub start_timeout_ms: u64,
    /// `INFO max_memory` in bytes; 0 = no limit.
    pub max_memory: u64,
    /// Moves played after the opening before the game is drawn; 0 = no limit.
    pub max_moves: usize,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            size: 15,
            rule: Rule::Freestyle,
            tc_turn_ms: 1000,
            tc_match_ms: 0,
            tolerance_ms: 1000,
            grace_ms: 1000,
            start_timeout_ms: 5000,
            max_memory: 350 * 1024 * 1024,
            max_moves: 0,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The winner made five (as the rule counts it).
    Five,
    /// The loser answered, but after its budget plus tolerance.
    TimeForfeit,
    /// The loser did not answer within budget, tolerance and grace.
    NoReply,
    /// The loser's output ended (exit, crash) or its input pipe broke.
    Crash,
    /// The loser wrote a line that is neither a move nor a skippable message.
    Garbage,
    /// The loser played outside the board.
    OutOfBoard,
    /// The loser played on an occupied point.
    Occupied,
    /// Black played a renju forbidden point.
    Forbidden,
    /// The loser could not be started or did not answer `START` with `OK`.
    StartFailed,
    /// Draw: the board is full.
    BoardFull,
    /// Draw: the move limit was reached.
    MoveLimit,
}

impl Reason {
    /// Every reason, in report order.
    pub const ALL: [Reason; 11] = [
        Reason::Five,
        Reason::TimeForfeit,
        Reason::NoReply,
        Reason::Crash,
        Reason::Garbage,
        Reason::OutOfBoard,
        Reason::Occupied,
        Reason::Forbidden,
        Reason::StartFailed,
        Reason::BoardFull,
        Reason::MoveLimit,
    ];

    /// Short name for reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::TimeForfeit => "time",
            Reason::NoReply => "no-reply",
            Reason::Crash => "crash",
            Reason::Garbage => "garbage",
            Reason::OutOfBoard => "out-of-board",
            Reason::Occupied => "occupied",
            Reason::Forbidden => "forbidden",
            Reason::StartFailed => "start-failed",
            Reason::BoardFull => "board-full",
            Reason::MoveLimit => "move-limit",
        }
    }

    /// Whether this ends the game drawn.
    pub fn is_draw(self) -> bool {
        matches!(self, Reason::BoardFull | Reason::MoveLimit)
    }
}

/// One move played by an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The point played.
    pub pos: Pos,
    /// Who played it.
    pub color: Color,
    /// Time on the arena's clock, ms.
    pub ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Name of the engine playing black.
    pub black: String,
    /// Name of the engine playing white.
    pub white: String,
    /// Board side.
    pub size: usize,
    /// The rule.
    pub rule: Rule,
    /// The opening stones, black first.
    pub opening: Vec<Pos>,
    /// The engines' moves after the opening (a losing illegal move is not included).
    pub moves: Vec<MoveRecord>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
    /// Human-readable details (the offending line, the time taken, ...).
    pub detail: String,
    /// Lines each engine wrote that were skipped (MESSAGE, DEBUG, ...), black then white.
    pub messages: [Vec<String>; 2],
}

impl GameRecord {
    /// The loser, if the game was not drawn.
    pub fn loser(&self) -> Option<Color> {
        self.winner.map(Color::opponent)
    }
}

/// One side of a game in progress.
struct Side<'a> {
    spec: &'a EngineSpec,
    proc: Option<EngineProcess>,
    turn_ms: u64,
    match_ms: u64,
    left_ms: i64,
    started: bool,
    messages: Vec<String>,
}

/// How a move request ended, when it did not produce a move.
struct Failure {
    reason: Reason,
    detail: String,
}

fn fail(reason: Reason, detail: impl Into<String>) -> Failure {
    Failure {
        reason,
        detail: detail.into(),
    }
}

fn is_skippable(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    ["MESSAGE", "DEBUG", "UNKNOWN", "ERROR"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}

fn is_error(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("ERROR")
}

/// Parses a reply `x,y` (spaces around the numbers allowed).
fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

impl<'a> Side<'a> {
    /// The side `spec` plays with the game's clock (or its own), before its process starts.
    fn new(spec: &'a EngineSpec, cfg: &GameConfig) -> Side<'a> {
        let turn_ms = spec.tc_turn_ms.unwrap_or(cfg.tc_turn_ms);
        let match_ms = spec.tc_match_ms.unwrap_or(cfg.tc_match_ms);
        Side {
            spec,
            proc: None,
            turn_ms,
            match_ms,
            left_ms: match_ms as i64,
            started: false,
            messages: Vec::new(),
        }
    }

    fn start(&mut self, cfg: &GameConfig) -> Result<(), Failure> {
        let mut p = EngineProcess::spawn(&self.spec.cmd)
            .map_err(|e| fail(Reason::StartFailed, format!("cannot start: {e}")))?;
        let mut lines = vec![
            format!("START {}", cfg.size),
            // `timeout_turn 0` tells a brain to answer at once; with only a game clock the
            // game's budget is the most a move may take.
            format!(
                "INFO timeout_turn {}",
                if self.turn_ms > 0 {
                    self.turn_ms
                } else {
                    self.match_ms
                }
            ),
            format!("INFO timeout_match {}", self.match_ms),
            format!("INFO max_memory {}", cfg.max_memory),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", cfg.rule.info_bits()),
        ];
        if let Some(t) = self.spec.threads {
            lines.push(format!("INFO thread_num {t}"));
        }
        lines.extend(self.spec.info.iter().map(|i| format!("INFO {i}")));
        let sent = lines.iter().try_for_each(|l| p.send(l));
        self.proc = Some(p);
        sent.map_err(|e| fail(Reason::StartFailed, format!("START: {e}")))?;
        let deadline = Instant::now() + Duration::from_millis(cfg.start_timeout_ms);
        let p = self.proc.as_mut().expect("just set");
        loop {
            match p.recv_until(deadline) {
                Received::Line(l, _) if l.trim().eq_ignore_ascii_case("OK") => return Ok(()),
                Received::Line(l, _) if l.trim().is_empty() => {}
                Received::Line(l, _) if is_skippable(&l) && !is_error(&l) => self.messages.push(l),
                Received::Line(l, _) => {
                    return Err(fail(Reason::StartFailed, format!("START answered {l:?}")))
                }
                Received::Eof => return Err(fail(Reason::StartFailed, "exited on START")),
                Received::Timeout => return Err(fail(Reason::StartFailed, "no OK to START")),
            }
        }
    }

    /// The budget of the next move in ms (before tolerance); `None` = unlimited.
    fn budget_ms(&self) -> Option<i64> {
        let turn = (self.turn_ms > 0).then_some(self.turn_ms as i64);
        let left = (self.match_ms > 0).then_some(self.left_ms);
        match (turn, left) {
            (Some(t), Some(l)) => Some(t.min(l)),
            (t, l) => t.or(l),
        }
    }

    /// Sends the request for a move on `board` (this side to move) and waits for the reply.
    /// Returns the reply's coordinates and the time taken.
    fn ask(
        &mut self,
        board: &Board,
        me: Color,
        cfg: &GameConfig,
    ) -> Result<((i64, i64), u64), Failure> {
        let mut lines = vec![format!(
            "INFO time_left {}",
            if self.match_ms > 0 {
                self.left_ms
            } else {
                UNLIMITED
            }
        )];
        if !self.started {
            self.started = true;
            if board.stone_count() == 0 {
                lines.push("BEGIN".into());
            } else {
                lines.extend(board_command(board, me));
            }
        } else {
            let last = board.last_move().expect("the opponent has moved");
            lines.push(format!("TURN {},{}", last.x(), last.y()));
        }
        let budget = self.budget_ms();
        let p = self.proc.as_mut().expect("started");
        let t0 = Instant::now();
        for l in &lines {
            p.send(l)
                .map_err(|e| fail(Reason::Crash, format!("cannot write to engine: {e}")))?;
        }
        let hard = budget.map(|b| {
            t0 + Duration::from_millis((b.max(0) as u64) + cfg.tolerance_ms + cfg.grace_ms)
        });
        loop {
            let got = match hard {
                Some(h) => p.recv_until(h),
                None => p.recv_until(t0 + Duration::from_secs(365 * 86_400)),
            };
            match got {
                Received::Line(l, at) => {
                    let ms = at.duration_since(t0).as_millis() as u64;
                    if l.trim().is_empty() {
                        continue;
                    }
                    if is_skippable(&l) {
                        self.messages.push(l);
                        continue;
                    }
                    let Some(xy) = parse_move(&l) else {
                        return Err(fail(Reason::Garbage, format!("replied {l:?}")));
                    };
                    if let Some(b) = budget {
                        if ms as i64 > b + cfg.tolerance_ms as i64 {
                            return Err(fail(
                                Reason::TimeForfeit,
                                format!(
                                    "move {l} after {ms} ms, budget {b} ms + {} ms tolerance",
                                    cfg.tolerance_ms
                                ),
                            ));
                        }
                    }
                    return Ok((xy, ms));
                }
                Received::Eof => {
                    return Err(fail(Reason::Crash, "output ended (exited or crashed)"))
                }
                Received::Timeout => {
                    let waited = t0.elapsed().as_millis();
                    return Err(fail(
                        Reason::NoReply,
                        format!("no reply in {waited} ms, budget {} ms", budget.unwrap_or(0)),
                    ));
                }
            }
        }
    }
}

/// The failure of a side that played `x,y` and broke the rules.
/// The `BOARD` command that hands a brain playing `me` the position `board`: one `x,y,owner`
/// line per stone in the order played (1 its own, 2 the opponent's), then `DONE`.
pub(super) fn board_command(board: &Board, me: Color) -> Vec<String> {
    let mut lines = vec!["BOARD".to_string()];
    lines.extend(board.history().iter().map(|&(p, c)| {
        let owner = if c == me { 1 } else { 2 };
        format!("{},{},{owner}", p.x(), p.y())
    }));
    lines.push("DONE".into());
    lines
}

fn illegal_move(e: IllegalMove, x: i64, y: i64) -> Failure {
    let reason = match e {
        IllegalMove::OutOfBoard => Reason::OutOfBoard,
        IllegalMove::Occupied => Reason::Occupied,
        IllegalMove::Forbidden => Reason::Forbidden,
    };
    fail(reason, format!("played {x},{y}: {e}"))
}

/// Plays one game: `black` moves first from `opening` (which must be legal under the rule and
/// have no five). Never panics on engine misbehaviour: that is a result.
pub fn play_game(
    black: &EngineSpec,
    white: &EngineSpec,
    opening: &[Pos],
    cfg: &GameConfig,
) -> Result<GameRecord, String> {
    let mut board = check_opening(opening, cfg.size, cfg.rule)
        .ok_or_else(|| "the opening is not legal on this board".to_string())?;
    let mut sides = [Side::new(black, cfg), Side::new(white, cfg)];
    let mut moves = Vec::new();
    let finish = |sides: [Side; 2], moves: Vec<MoveRecord>, winner: Option<Color>, f: Failure| {
        let deadline = Instant::now() + Duration::from_millis(1000);
        let [b, w] = sides;
        for p in [b.proc, w.proc].into_iter().flatten() {
            p.end(deadline);
        }
        GameRecord {
            black: black.name.clone(),
            white: white.name.clone(),
            size: cfg.size,
            rule: cfg.rule,
            opening: opening.to_vec(),
            moves,
            winner,
            reason: f.reason,
            detail: f.detail,
            messages: [b.messages, w.messages],
        }
    };

    for c in [Color::Black, Color::White] {
        if let Err(f) = sides[c.index()].start(cfg) {
            return Ok(finish(sides, moves, Some(c.opponent()), f));
        }
    }
    loop {
        let me = board.side_to_move();
        let s = &mut sides[me.index()];
        let ((x, y), ms) = match s.ask(&board, me, cfg) {
            Ok(r) => r,
            Err(f) => return Ok(finish(sides, moves, Some(me.opponent()), f)),
        };
        s.left_ms -= ms as i64;
        let illegal = |e: IllegalMove| illegal_move(e, x, y);
        let Some(p) = board.pos(x, y) else {
            let f = illegal(IllegalMove::OutOfBoard);
            return Ok(finish(sides, moves, Some(me.opponent()), f));
        };
        match play_checked(&mut board, p, me, cfg.rule) {
            Err(e) => return Ok(finish(sides, moves, Some(me.opponent()), illegal(e))),
            Ok(outcome) => {
                moves.push(MoveRecord {
                    pos: p,
                    color: me,
                    ms,
                });
                match outcome {
                    MoveOutcome::Win => {
                        return Ok(finish(
                            sides,
                            moves,
                            Some(me),
                            fail(Reason::Five, format!("five at {p}")),
                        ))
                    }
                    MoveOutcome::Draw => {
                        return Ok(finish(
                            sides,
                            moves,
                            None,
                            fail(Reason::BoardFull, "board full"),
                        ))
                    }
                    MoveOutcome::Continue => {}
                }
                if cfg.max_moves > 0 && moves.len() >= cfg.max_moves {
                    let d = format!("{} moves played", moves.len());
                    return Ok(finish(sides, moves, None, fail(Reason::MoveLimit, d)));
                }
            }
        }
    }
}
