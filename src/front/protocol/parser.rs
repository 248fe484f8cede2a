//! Parsing protocol lines into [`Command`]s. This module only parses: it knows the syntax of
//! every command and nothing of the game (board size, whose turn, occupied points). The session
//! checks meaning; keeping the two apart makes the parser easy to test exhaustively.
//!
//! Command words and INFO keys are case-insensitive. `BOARD`, `YXBOARD`, `SWAP2BOARD`,
//! `YXBLOCK` and `YXSOOSORVSTEP2`..`6` span several lines up to `DONE`; the [`Parser`] collects their bodies and emits one command. Inside
//! a body:
//! - a malformed line does not end the body; the whole command becomes [`Command::Error`] at
//!   `DONE`, so a garbled position is refused as a whole (never half applied);
//! - a line whose first word is another command (say `END`) means the manager gave up on the
//!   body: the parser emits an error for the unfinished body, then that command.
//!
//! `YXHASHDUMP` and `YXHASHLOAD` take a path on the same line or, as Yixin-Board sends them,
//! alone with the path on the next non-empty line (kept whole, inner spaces included); a command
//! word on that line abandons them like a body.
//! The database commands' bodies (moves up to `DONE`, or a path on the next line) are parsed in
//! `database`.

use super::command::{BoardKind, Command, Coord, OpeningStep, Owner};
use super::fields::{parse_board_line, parse_coord, parse_info, parse_int};
use database::DbBody;

mod database;

pub use database::DELETE_FILTERS;

/// The most stones a body keeps: one per cell of the largest board. A longer body is refused
/// at `DONE` and its further lines are not stored, so a peer cannot grow memory through one.
pub const MAX_BODY_LINES: usize = crate::game::board::MAX_SIZE * crate::game::board::MAX_SIZE;

/// The command words the parser knows, upper-case.
const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "INFO",
    "END",
    "ABOUT",
    "RESTART",
    "TAKEBACK",
    "PLAY",
    "SWAP2BOARD",
    "SWAP1BOARD",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "PRINT",
    "STOP",
    "YXNBEST",
    "YXSEARCHDEFEND",
    "YXBALANCEONE",
    "YXBALANCETWO",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "YXSWAP2STEP1",
    "YXSWAP2STEP2",
    "YXSWAP2STEP3",
    "YXSOOSORVSTEP1",
    "YXSOOSORVSTEP2",
    "YXSOOSORVSTEP3",
    "YXSOOSORVSTEP4",
    "YXSOOSORVSTEP5",
    "YXSOOSORVSTEP6",
    "YXHASHDUMP",
    "YXHASHLOAD",
    "YXSHOWHASHUSAGE",
    "YXSHOWINFO",
    "YXDRAW",
    "YXRESIGN",
];

#[derive(Debug)]
enum Body {
    Board {
        kind: BoardKind,
        stones: Vec<(Coord, Owner)>,
        error: Option<String>,
    },
    Swap2 {
        swap1: bool,
        stones: Vec<Coord>,
        error: Option<String>,
    },
    Block {
        moves: Vec<Coord>,
        error: Option<String>,
    },
    /// A Soosõrv step's moves; a malformed first line still collects its body (Yixin-Board
    /// sends it regardless), so the whole step is refused once, at `DONE`.
    Soosorv {
        step: u8,
        offers: Option<i64>,
        moves: Vec<Coord>,
        error: Option<String>,
    },
    /// A file command whose path comes on the next line: `load` for `YXHASHLOAD`.
    Path {
        load: bool,
    },
    Db(DbBody),
}

/// Whether `word` is a command word (any case).
fn is_word(word: &str) -> bool {
    WORDS
        .iter()
        .chain(database::WORDS)
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// Turns lines into commands, collecting multi-line bodies.
#[derive(Debug, Default)]
pub struct Parser {
    body: Option<Body>,
}

impl Parser {
    /// A parser outside any body.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a multi-line body is being collected.
    pub fn in_body(&self) -> bool {
        self.body.is_some()
    }

    /// Feeds one line (without its terminator); returns the commands it completes (zero, one,
    /// or two when a command interrupts an unfinished body).
    pub fn feed(&mut self, line: &str) -> Vec<Command> {
        let line = line.trim();
        let Some(body) = self.body.as_mut() else {
            return parse_single(line, &mut self.body).into_iter().collect();
        };
        let first = line.split_whitespace().next().unwrap_or("");
        if matches!(body, Body::Db(b) if b.wants_path()) && !is_word(first) {
            let Some(Body::Db(b)) = self.body.take() else {
                unreachable!("checked above")
            };
            return vec![b.finish(line)];
        }
        if first.eq_ignore_ascii_case("DONE") && line.len() == first.len() {
            return vec![self.body.take().map(finish).expect("in a body")];
        }
        if is_word(first) {
            let mut out = vec![self.abandon()];
            out.extend(parse_single(line, &mut self.body));
            return out;
        }
        if line.is_empty() {
            return Vec::new();
        }
        if let Body::Path { load } = *body {
            self.body = None;
            return vec![path_command(load, line)];
        }
        let too_many = || format!("more than {MAX_BODY_LINES} stones");
        match body {
            Body::Board { stones, error, .. } => match parse_board_line(line) {
                Ok(_) if stones.len() >= MAX_BODY_LINES => {
                    error.get_or_insert_with(too_many);
                }
                Ok(s) => stones.push(s),
                Err(e) => {
                    error.get_or_insert(e);
                }
            },
            Body::Swap2 { stones, error, .. }
            | Body::Block {
                moves: stones,
                error,
            }
            | Body::Soosorv {
                moves: stones,
                error,
                ..
            } => match parse_coord(line) {
                Ok(_) if stones.len() >= MAX_BODY_LINES => {
                    error.get_or_insert_with(too_many);
                }
                Ok(c) => stones.push(c),
                Err(e) => {
                    error.get_or_insert(e);
                }
            },
            Body::Path { .. } => unreachable!("a path line completes its command above"),
            Body::Db(b) => b.line(line, MAX_BODY_LINES),
        }
        Vec::new()
    }

    /// Reports a line that was too long to keep.
    pub fn feed_too_long(&mut self) -> Option<Command> {
        match self.body.as_mut() {
            None => Some(Command::Error("line too long".into())),
            Some(Body::Path { load }) => {
                let name = path_word(*load);
                self.body = None;
                Some(Command::Error(format!("{name}: path line too long")))
            }
            Some(Body::Board { error, .. })
            | Some(Body::Swap2 { error, .. })
            | Some(Body::Block { error, .. })
            | Some(Body::Soosorv { error, .. }) => {
                error.get_or_insert_with(|| "line too long".into());
                None
            }
            Some(Body::Db(b)) => {
                b.too_long();
                None
            }
        }
    }

    /// End of input: an unfinished body becomes an error.
    pub fn finish(&mut self) -> Option<Command> {
        self.body.as_ref()?;
        Some(self.abandon())
    }

    fn abandon(&mut self) -> Command {
        let name = match self.body.take() {
            Some(Body::Board {
                kind: BoardKind::Board,
                ..
            }) => "BOARD",
            Some(Body::Board { .. }) => "YXBOARD",
            Some(Body::Swap2 { swap1: true, .. }) => "SWAP1BOARD",
            Some(Body::Swap2 { .. }) => "SWAP2BOARD",
            Some(Body::Block { .. }) => {
                return Command::Error("YXBLOCK not closed by DONE; nothing blocked".into())
            }
            Some(Body::Soosorv { step, .. }) => {
                return Command::Error(format!(
                    "YXSOOSORVSTEP{step} not closed by DONE; nothing done"
                ))
            }
            Some(Body::Path { load }) => {
                return Command::Error(format!("{}: no path given", path_word(load)))
            }
            Some(Body::Db(b)) => {
                return Command::Error(format!("{} not finished; nothing done", b.word()))
            }
            None => "body",
        };
        Command::Error(format!("{name} not closed by DONE; position unchanged"))
    }
}

/// The command word of a file command.
fn path_word(load: bool) -> &'static str {
    if load {
        "YXHASHLOAD"
    } else {
        "YXHASHDUMP"
    }
}

/// The file command for `path` (trimmed, inner spaces kept).
fn path_command(load: bool, path: &str) -> Command {
    let path = path.trim().to_string();
    if load {
        Command::YxHashLoad(path)
    } else {
        Command::YxHashDump(path)
    }
}

fn finish(body: Body) -> Command {
    match body {
        Body::Path { load } => Command::Error(format!("{}: no path given", path_word(load))),
        Body::Board {
            kind,
            stones,
            error: None,
        } => Command::Board(kind, stones),
        Body::Swap2 {
            swap1: false,
            stones,
            error: None,
        } => Command::Swap2Board(stones),
        Body::Swap2 {
            swap1: true,
            stones,
            error: None,
        } => Command::Swap1Board(stones),
        Body::Block { moves, error: None } => Command::YxBlock(moves),
        Body::Soosorv {
            step,
            offers,
            moves,
            error: None,
        } => Command::Opening(OpeningStep::Soosorv {
            step,
            offers,
            moves,
        }),
        Body::Soosorv {
            step,
            error: Some(e),
            ..
        } => Command::Error(format!("YXSOOSORVSTEP{step}: {e}; nothing done")),
        Body::Db(b) => b.finish(""),
        Body::Block { error: Some(e), .. } => {
            Command::Error(format!("YXBLOCK: {e}; nothing blocked"))
        }
        Body::Board {
            kind,
            error: Some(e),
            ..
        } => {
            let name = if kind == BoardKind::Board {
                "BOARD"
            } else {
                "YXBOARD"
            };
            Command::Error(format!("{name}: {e}; position unchanged"))
        }
        Body::Swap2 {
            swap1,
            error: Some(e),
            ..
        } => {
            let name = if swap1 { "SWAP1BOARD" } else { "SWAP2BOARD" };
            Command::Error(format!("{name}: {e}; position unchanged"))
        }
    }
}

/// Parses a line outside a body; may open one. Long on purpose: one match arm per command
/// word, the protocol's vocabulary in one place.
fn parse_single(line: &str, body: &mut Option<Body>) -> Option<Command> {
    if line.is_empty() {
        return None;
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            cmd
        } else {
            Command::Error(format!("{upper} takes no arguments"))
        }
    };
    let with_coord = |f: fn(Coord) -> Command| match parse_coord(rest) {
        Ok(c) => f(c),
        Err(e) => Command::Error(format!("{upper}: {e}")),
    };
    Some(match upper.as_str() {
        // `START n`, or `START w h` as Yixin-Board sends it (`w` = `h`: a square board).
        "START" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [w, h] => match (parse_int(w), parse_int(h)) {
                (Ok(w), Ok(h)) => Command::RectStart(w, h),
                (Err(e), _) | (_, Err(e)) => Command::Error(format!("START: {e}")),
            },
            _ => match parse_int(rest) {
                Ok(n) => Command::Start(n),
                Err(e) => Command::Error(format!("START: {e}")),
            },
        },
        "RECTSTART" => match parse_coord(rest) {
            Ok(c) => Command::RectStart(c.x, c.y),
            Err(e) => Command::Error(format!("RECTSTART: {e}")),
        },
        "BEGIN" => no_args(Command::Begin),
        "TURN" => with_coord(Command::Turn),
        "TAKEBACK" => with_coord(Command::Takeback),
        "PLAY" => with_coord(Command::Play),
        "BOARD" | "YXBOARD" => {
            let kind = if upper == "BOARD" {
                BoardKind::Board
            } else {
                BoardKind::YxBoard
            };
            if !rest.is_empty() {
                return Some(Command::Error(format!("{upper} takes no arguments")));
            }
            *body = Some(Body::Board {
                kind,
                stones: Vec::new(),
                error: None,
            });
            return None;
        }
        "SWAP2BOARD" | "SWAP1BOARD" => {
            if !rest.is_empty() {
                return Some(Command::Error(format!("{upper} takes no arguments")));
            }
            *body = Some(Body::Swap2 {
                swap1: upper == "SWAP1BOARD",
                stones: Vec::new(),
                error: None,
            });
            return None;
        }
        "INFO" => parse_info(rest),
        "END" => Command::End,
        "ABOUT" => no_args(Command::About),
        "RESTART" => no_args(Command::Restart),
        "YXSTOP" | "STOP" => Command::YxStop,
        "YXNBEST" => match parse_int(rest) {
            Ok(n) if n >= 1 => Command::YxNbest(n as u64),
            Ok(n) => Command::Error(format!("YXNBEST: {n} lines (at least 1)")),
            Err(e) => Command::Error(format!("YXNBEST: {e}")),
        },
        "YXSEARCHDEFEND" => no_args(Command::YxSearchDefend),
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let stones = if upper == "YXBALANCEONE" { 1 } else { 2 };
            let bias = if rest.is_empty() {
                Ok(0)
            } else {
                parse_int(rest)
            };
            match bias {
                Ok(bias) => Command::YxBalance { stones, bias },
                Err(e) => Command::Error(format!("{upper}: {e}")),
            }
        }
        "YXBLOCK" => {
            if !rest.is_empty() {
                return Some(Command::Error("YXBLOCK takes no arguments".into()));
            }
            *body = Some(Body::Block {
                moves: Vec::new(),
                error: None,
            });
            return None;
        }
        "YXSWAP2STEP1" | "YXSWAP2STEP2" | "YXSWAP2STEP3" => {
            no_args(Command::Opening(OpeningStep::Swap2(step_number(&upper))))
        }
        "YXSOOSORVSTEP1" => no_args(Command::Opening(OpeningStep::Soosorv {
            step: 1,
            offers: None,
            moves: Vec::new(),
        })),
        "YXSOOSORVSTEP2" | "YXSOOSORVSTEP3" | "YXSOOSORVSTEP4" | "YXSOOSORVSTEP5"
        | "YXSOOSORVSTEP6" => {
            let step = step_number(&upper);
            let (offers, error) = match (step, rest) {
                (4 | 5, "") => (
                    None,
                    Some("the number of fifth-stone offers is missing".into()),
                ),
                (4 | 5, n) => match parse_int(n) {
                    Ok(n) => (Some(n), None),
                    Err(e) => (None, Some(e)),
                },
                (_, "") => (None, None),
                _ => (None, Some("takes no arguments".into())),
            };
            *body = Some(Body::Soosorv {
                step,
                offers,
                moves: Vec::new(),
                error,
            });
            return None;
        }
        "YXBLOCKUNDO" => no_args(Command::YxBlockUndo),
        "YXBLOCKRESET" => no_args(Command::YxBlockReset),
        "YXSHOWFORBID" => no_args(Command::YxShowForbid),
        "YXHASHCLEAR" => Command::YxHashClear,
        // Yixin-Board sends the path on a line of its own; Rapfi also takes it on the same line.
        "YXHASHDUMP" | "YXHASHLOAD" => {
            let load = upper == "YXHASHLOAD";
            if rest.is_empty() {
                *body = Some(Body::Path { load });
                return None;
            }
            path_command(load, rest)
        }
        "YXSHOWHASHUSAGE" => no_args(Command::YxShowHashUsage),
        "YXSHOWINFO" => no_args(Command::YxShowInfo),
        "YXDRAW" => no_args(Command::YxDraw),
        "YXRESIGN" => no_args(Command::YxResign),
        "PRINT" => no_args(Command::Print),
        w if database::WORDS.contains(&w) => match database::start(w, rest) {
            database::Start::Done(cmd) => cmd,
            database::Start::Body(b) => {
                *body = Some(Body::Db(b));
                return None;
            }
        },
        "DONE" => Command::Error("DONE without BOARD".into()),
        _ => Command::Unknown(line.to_string()),
    })
}

/// The step number that ends an opening command word (its last character, a digit the match
/// arm already fixed).
fn step_number(word: &str) -> u8 {
    word.bytes().last().map_or(0, |d| d - b'0')
}

#[cfg(test)]
mod tests;
