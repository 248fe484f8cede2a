//! Parsing protocol lines into [`Command`]s. This module only parses: it knows the syntax of
//! every command and nothing of the game (board size, whose turn, occupied points). The session
//! checks meaning; keeping the two apart makes the parser easy to test exhaustively.
//!
//! Command words and INFO keys are case-insensitive. `BOARD`, `YXBOARD` and `SWAP2BOARD` span
//! several lines up to `DONE`; the [`Parser`] collects their bodies and emits one command. Inside
//! a body:
//! - a malformed line does not end the body; the whole command becomes [`Command::Error`] at
//!   `DONE`, so a garbled position is refused as a whole (never half applied);
//! - a line whose first word is another command (say `END`) means the manager gave up on the
//!   body: the parser emits an error for the unfinished body, then that command.

use crate::search::settings::parse_bool;

/// A point as written by the manager, not yet checked against the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
}

impl std::fmt::Display for Coord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Who owns a stone in a `BOARD` body (the third field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// 1: the brain's own stone.
    Own,
    /// 2: the opponent's stone.
    Opponent,
    /// 3: a marked cell of a continuous game (see the session for what it means on the board).
    Marker,
}

/// Which multi-line position command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// `BOARD`: set the position, then answer with a move.
    Board,
    /// `YXBOARD`: set the position, answer nothing.
    YxBoard,
}

/// One `INFO` setting. Numbers are kept as sent (saturated to `i64`, so `2^64-1` reads as
/// `i64::MAX`): the session decides what each key accepts, and clamps or ignores the rest with
/// a `MESSAGE` (a reply to `INFO` must never look like a move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` ms.
    TimeoutTurn(i64),
    /// `timeout_match` ms.
    TimeoutMatch(i64),
    /// `time_left` ms (may be negative).
    TimeLeft(i64),
    /// `max_memory` bytes.
    MaxMemory(i64),
    /// `game_type` 0..=3.
    GameType(i64),
    /// `rule` bitmask.
    Rule(i64),
    /// `evaluate X,Y` (debug only; never answered).
    Evaluate(Coord),
    /// `folder` path.
    Folder(String),
    /// `max_depth` (-1 and 0: no cap).
    MaxDepth(i64),
    /// `max_node` (-1 and 0: no cap).
    MaxNode(i64),
    /// `thread_num`.
    ThreadNum(i64),
    /// `hash_size` in KiB.
    HashSize(i64),
    /// `show_detail` level: 0 nothing, 1 live board markers, 2 the info block, 3 both (the
    /// session clamps other values).
    ShowDetail(i64),
    /// `pondering` (non-zero: think on the opponent's time).
    Pondering(bool),
    /// A key we accept and ignore (`caution_factor` and unknown keys).
    Ignored(String),
    /// A known key whose value does not parse, or `INFO` without a key: ignored (the session
    /// says so in a `MESSAGE`).
    Invalid {
        /// The key as sent (lower case; empty when missing).
        key: String,
        /// Why the value was not taken.
        reason: String,
    },
}

/// One parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`.
    Start(i64),
    /// `RECTSTART w,h`.
    RectStart(i64, i64),
    /// `BEGIN`.
    Begin,
    /// `TURN x,y`.
    Turn(Coord),
    /// `BOARD`/`YXBOARD` with its body, in the order given.
    Board(BoardKind, Vec<(Coord, Owner)>),
    /// `INFO key value`.
    Info(Info),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `RESTART`.
    Restart,
    /// `TAKEBACK x,y`.
    Takeback(Coord),
    /// `PLAY x,y`.
    Play(Coord),
    /// `SWAP2BOARD` with its stones in move order.
    Swap2Board(Vec<Coord>),
    /// `SWAP1BOARD` (a bango extension framed like `SWAP2BOARD`): three stones, answered by
    /// `SWAP` (take black) or white's next stone.
    Swap1Board(Vec<Coord>),
    /// `YXSTOP`.
    YxStop,
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXHASHCLEAR`.
    YxHashClear,
    /// `PRINT`.
    Print,
    /// `YXNBEST n`: the `n` best moves as principal variations; answered (and played) like
    /// `TURN`'s move.
    YxNbest(u64),
    /// `YXSEARCHDEFEND`: every candidate move searched; answered by the moves that hold.
    YxSearchDefend,
    /// `YXBALANCEONE b` (`stones` 1) or `YXBALANCETWO b` (`stones` 2): the stones that leave
    /// the position closest to the score `bias` (0 when not given); not played.
    YxBalance {
        /// Stones to answer: 1 or 2.
        stones: usize,
        /// The score wanted, from the side to move's view.
        bias: i64,
    },
    /// `YXBLOCK` with its body: moves to leave out of the root from now on.
    YxBlock(Vec<Coord>),
    /// `YXBLOCKUNDO`: the last blocked move is allowed again.
    YxBlockUndo,
    /// `YXBLOCKRESET`: every blocked move is allowed again.
    YxBlockReset,
    /// A command word we do not know (the reply is `UNKNOWN <what>`).
    Unknown(String),
    /// A known command that is malformed (the reply is `ERROR <reason>`).
    Error(String),
}

impl Command {
    /// Whether the command asks the brain for a move (the move clock starts when it is read).
    pub fn wants_move(&self) -> bool {
        matches!(
            self,
            Command::Begin
                | Command::Turn(_)
                | Command::Board(BoardKind::Board, _)
                | Command::Swap2Board(_)
                | Command::Swap1Board(_)
                | Command::YxNbest(_)
                | Command::YxSearchDefend
                | Command::YxBalance { .. }
        )
    }
}

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
        if first.eq_ignore_ascii_case("DONE") && line.len() == first.len() {
            return vec![self.body.take().map(finish).expect("in a body")];
        }
        if WORDS.iter().any(|w| first.eq_ignore_ascii_case(w)) {
            let mut out = vec![self.abandon()];
            out.extend(parse_single(line, &mut self.body));
            return out;
        }
        if line.is_empty() {
            return Vec::new();
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
            } => match parse_coord(line) {
                Ok(_) if stones.len() >= MAX_BODY_LINES => {
                    error.get_or_insert_with(too_many);
                }
                Ok(c) => stones.push(c),
                Err(e) => {
                    error.get_or_insert(e);
                }
            },
        }
        Vec::new()
    }

    /// Reports a line that was too long to keep.
    pub fn feed_too_long(&mut self) -> Option<Command> {
        match self.body.as_mut() {
            None => Some(Command::Error("line too long".into())),
            Some(Body::Board { error, .. })
            | Some(Body::Swap2 { error, .. })
            | Some(Body::Block { error, .. }) => {
                error.get_or_insert_with(|| "line too long".into());
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
            None => "body",
        };
        Command::Error(format!("{name} not closed by DONE; position unchanged"))
    }
}

fn finish(body: Body) -> Command {
    match body {
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

/// Parses a line outside a body; may open one.
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
        "YXBLOCKUNDO" => no_args(Command::YxBlockUndo),
        "YXBLOCKRESET" => no_args(Command::YxBlockReset),
        "YXSHOWFORBID" => no_args(Command::YxShowForbid),
        "YXHASHCLEAR" => Command::YxHashClear,
        "PRINT" => no_args(Command::Print),
        "DONE" => Command::Error("DONE without BOARD".into()),
        _ => Command::Unknown(line.to_string()),
    })
}

fn parse_info(rest: &str) -> Command {
    let (key, value) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let key = key.to_ascii_lowercase();
    let bad = |reason: String| {
        Command::Info(Info::Invalid {
            key: key.clone(),
            reason,
        })
    };
    macro_rules! num {
        ($variant:ident) => {
            match parse_info_number(value) {
                Ok(v) => Info::$variant(v),
                Err(e) => return bad(e),
            }
        };
    }
    let info = match key.as_str() {
        "" => return bad("INFO needs a key".into()),
        "timeout_turn" => num!(TimeoutTurn),
        "timeout_match" => num!(TimeoutMatch),
        "time_left" => num!(TimeLeft),
        "max_memory" => num!(MaxMemory),
        "game_type" => num!(GameType),
        "rule" => num!(Rule),
        "max_depth" => num!(MaxDepth),
        "max_node" => num!(MaxNode),
        "thread_num" => num!(ThreadNum),
        "hash_size" => num!(HashSize),
        "show_detail" => num!(ShowDetail),
        // A number as Gomocup sends it (non-zero: on), or the switch words every declared
        // setting takes (`on`, `off`, `true`, ...; `BANGO_PONDER` reads the same).
        "pondering" => match parse_info_number(value) {
            Ok(v) => Info::Pondering(v != 0),
            Err(e) => match parse_bool(value) {
                Ok(on) => Info::Pondering(on),
                Err(_) => return bad(e),
            },
        },
        "evaluate" => match parse_coord(value) {
            Ok(c) => Info::Evaluate(c),
            Err(e) => return bad(e),
        },
        "folder" => {
            if value.is_empty() {
                return bad("empty path".into());
            }
            Info::Folder(value.to_string())
        }
        _ => Info::Ignored(key),
    };
    Command::Info(info)
}

/// An `INFO` number: optional sign and decimal digits, saturated to the `i64` range (a value
/// beyond it means "as much as possible" or "as little", which the key's clamp then handles).
pub fn parse_info_number(s: &str) -> Result<i64, String> {
    let s = s.trim();
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(if s.is_empty() {
            "missing number".into()
        } else {
            format!("bad number {s:?}")
        });
    }
    Ok(match s.parse::<i64>() {
        Ok(v) => v,
        Err(_) if negative => i64::MIN,
        Err(_) => i64::MAX,
    })
}

fn parse_int(s: &str) -> Result<i64, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("missing number".into());
    }
    s.parse::<i64>().map_err(|_| format!("bad number {s:?}"))
}

/// `x,y` with optional spaces around either number.
pub fn parse_coord(s: &str) -> Result<Coord, String> {
    let mut parts = s.split(',');
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("expected X,Y, got {s:?}"));
    };
    Ok(Coord {
        x: parse_int(x)?,
        y: parse_int(y)?,
    })
}

fn parse_board_line(s: &str) -> Result<(Coord, Owner), String> {
    let fields: Vec<&str> = s.split(',').collect();
    let [x, y, f] = fields[..] else {
        return Err(format!("expected X,Y,F, got {s:?}"));
    };
    let owner = match parse_int(f)? {
        1 => Owner::Own,
        2 => Owner::Opponent,
        3 => Owner::Marker,
        other => return Err(format!("bad field {other} (1, 2 or 3) in {s:?}")),
    };
    Ok((
        Coord {
            x: parse_int(x)?,
            y: parse_int(y)?,
        },
        owner,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    fn one(line: &str) -> Command {
        let mut p = Parser::new();
        let mut v = p.feed(line);
        assert_eq!(v.len(), 1, "{line:?} gave {v:?}");
        assert!(!p.in_body());
        v.pop().unwrap()
    }

    #[test]
    fn single_line_commands_any_case() {
        assert_eq!(one("START 15"), Command::Start(15));
        assert_eq!(one("start 20"), Command::Start(20));
        assert_eq!(one("  Start   7  "), Command::Start(7));
        assert_eq!(one("RECTSTART 20,20"), Command::RectStart(20, 20));
        assert_eq!(one("begin"), Command::Begin);
        assert_eq!(one("TURN 10, 3"), Command::Turn(c(10, 3)));
        assert_eq!(one("turn -1,3"), Command::Turn(c(-1, 3)));
        assert_eq!(one("TAKEBACK 1,2"), Command::Takeback(c(1, 2)));
        assert_eq!(one("Play 0,0"), Command::Play(c(0, 0)));
        assert_eq!(one("END"), Command::End);
        assert_eq!(one("about"), Command::About);
        assert_eq!(one("RESTART"), Command::Restart);
        assert_eq!(one("yxstop"), Command::YxStop);
        assert_eq!(one("YXSHOWFORBID"), Command::YxShowForbid);
        assert_eq!(one("YXHASHCLEAR"), Command::YxHashClear);
        assert_eq!(one("PRINT"), Command::Print);
        assert_eq!(one("FOO bar"), Command::Unknown("FOO bar".into()));
    }

    #[test]
    fn analysis_commands() {
        // Yixin-Board opens with the size twice.
        assert_eq!(one("start 15 15"), Command::RectStart(15, 15));
        assert_eq!(one("START 15 20"), Command::RectStart(15, 20));
        assert!(matches!(one("START 15 x"), Command::Error(e) if e.contains("bad number")));
        assert_eq!(one("stop"), Command::YxStop);
        assert_eq!(one("YXNBEST 3"), Command::YxNbest(3));
        assert!(matches!(one("YXNBEST 0"), Command::Error(_)));
        assert!(matches!(one("YXNBEST"), Command::Error(_)));
        assert_eq!(one("yxsearchdefend"), Command::YxSearchDefend);
        assert_eq!(
            one("YXBALANCEONE 200"),
            Command::YxBalance {
                stones: 1,
                bias: 200
            }
        );
        assert_eq!(
            one("yxbalancetwo"),
            Command::YxBalance { stones: 2, bias: 0 }
        );
        assert!(matches!(one("YXBALANCETWO even"), Command::Error(_)));
        assert_eq!(one("YXBLOCKUNDO"), Command::YxBlockUndo);
        assert_eq!(one("yxblockreset"), Command::YxBlockReset);
        for c in [
            Command::YxNbest(2),
            Command::YxSearchDefend,
            Command::YxBalance { stones: 1, bias: 0 },
        ] {
            assert!(c.wants_move(), "{c:?}");
        }
        assert!(!Command::YxBlock(vec![]).wants_move());
    }

    #[test]
    fn block_body_collected_until_done() {
        let mut p = Parser::new();
        assert!(p.feed("YXBLOCK").is_empty());
        assert!(p.feed("7,7").is_empty());
        assert!(p.feed(" 8 , 9 ").is_empty());
        assert_eq!(
            p.feed("DONE"),
            vec![Command::YxBlock(vec![c(7, 7), c(8, 9)])]
        );
        p.feed("YXBLOCK");
        p.feed("7,7,1");
        assert!(matches!(&p.feed("done")[0], Command::Error(e) if e.contains("nothing blocked")));
        p.feed("yxblock");
        let v = p.feed("YXNBEST 2");
        assert!(matches!(&v[0], Command::Error(e) if e.contains("YXBLOCK not closed")));
        assert_eq!(v[1], Command::YxNbest(2));
    }

    #[test]
    fn info_keys() {
        let i = |l: &str| match one(l) {
            Command::Info(i) => i,
            other => panic!("{l}: {other:?}"),
        };
        assert_eq!(i("INFO timeout_turn 5000"), Info::TimeoutTurn(5000));
        assert_eq!(i("info TIMEOUT_MATCH 0"), Info::TimeoutMatch(0));
        assert_eq!(i("INFO time_left -20"), Info::TimeLeft(-20));
        assert_eq!(i("INFO max_memory 367001600"), Info::MaxMemory(367001600));
        assert_eq!(i("INFO game_type 1"), Info::GameType(1));
        assert_eq!(i("INFO rule 4"), Info::Rule(4));
        assert_eq!(i("INFO evaluate 3,4"), Info::Evaluate(c(3, 4)));
        assert_eq!(
            i("INFO folder C:\\My Games\\x"),
            Info::Folder("C:\\My Games\\x".into())
        );
        assert_eq!(i("INFO max_depth 9"), Info::MaxDepth(9));
        assert_eq!(i("INFO max_node 100000"), Info::MaxNode(100000));
        assert_eq!(i("INFO thread_num 2"), Info::ThreadNum(2));
        assert_eq!(i("INFO hash_size 65536"), Info::HashSize(65536));
        assert_eq!(i("INFO show_detail 0"), Info::ShowDetail(0));
        assert_eq!(i("INFO show_detail 3"), Info::ShowDetail(3));
        assert_eq!(i("INFO pondering 1"), Info::Pondering(true));
        assert_eq!(i("INFO pondering 0"), Info::Pondering(false));
        assert_eq!(i("INFO pondering on"), Info::Pondering(true));
        assert_eq!(i("INFO pondering OFF"), Info::Pondering(false));
        assert!(matches!(i("INFO pondering maybe"), Info::Invalid { .. }));
        assert_eq!(
            i("INFO caution_factor 2"),
            Info::Ignored("caution_factor".into())
        );
    }

    #[test]
    fn malformed_single_lines_are_errors() {
        for line in [
            "START",
            "START x",
            "START 99999999999999999999",
            "TURN 3",
            "TURN 3,4,5",
            "TURN a,b",
            "TURN",
            "BEGIN now",
            "RECTSTART 10",
            "DONE",
        ] {
            assert!(
                matches!(one(line), Command::Error(_)),
                "{line:?} gave {:?}",
                one(line)
            );
        }
    }

    /// A bad `INFO` value is never an `ERROR` (a manager reading the next non-`MESSAGE` line
    /// would take it for a move): the key comes back as `Invalid`, or with its number as sent.
    #[test]
    fn info_values_as_sent_and_invalid_ones_kept_apart() {
        let i = |l: &str| match one(l) {
            Command::Info(i) => i,
            other => panic!("{l}: {other:?}"),
        };
        assert_eq!(i("INFO max_node -1"), Info::MaxNode(-1));
        assert_eq!(i("INFO max_depth -3"), Info::MaxDepth(-3));
        assert_eq!(i("INFO max_memory -5"), Info::MaxMemory(-5));
        assert_eq!(
            i("INFO thread_num 18446744073709551615"),
            Info::ThreadNum(i64::MAX)
        );
        assert_eq!(
            i("INFO hash_size -99999999999999999999999"),
            Info::HashSize(i64::MIN)
        );
        assert_eq!(i("INFO timeout_turn +20"), Info::TimeoutTurn(20));
        for (line, key) in [
            ("INFO timeout_turn fast", "timeout_turn"),
            ("INFO time_left", "time_left"),
            ("INFO", ""),
            ("INFO evaluate 1", "evaluate"),
            ("INFO rule 1.5", "rule"),
            ("INFO hash_size 1e9", "hash_size"),
            ("INFO thread_num -", "thread_num"),
            ("INFO folder", "folder"),
        ] {
            assert!(
                matches!(i(line), Info::Invalid { key: k, .. } if k == key),
                "{line:?} gave {:?}",
                i(line)
            );
        }
    }

    #[test]
    fn board_body_collected_until_done() {
        let mut p = Parser::new();
        assert!(p.feed("BOARD").is_empty());
        assert!(p.in_body());
        assert!(p.feed("7,7,1").is_empty());
        assert!(p.feed(" 8, 8 ,2 ").is_empty());
        assert!(p.feed("").is_empty());
        assert!(p.feed("9,9,3").is_empty());
        let v = p.feed("done");
        assert_eq!(
            v,
            vec![Command::Board(
                BoardKind::Board,
                vec![
                    (c(7, 7), Owner::Own),
                    (c(8, 8), Owner::Opponent),
                    (c(9, 9), Owner::Marker)
                ]
            )]
        );
        assert!(!p.in_body());
        assert!(p.feed("yxboard").is_empty());
        assert_eq!(
            p.feed("DONE"),
            vec![Command::Board(BoardKind::YxBoard, vec![])]
        );
    }

    #[test]
    fn garbage_in_a_body_spoils_the_whole_command() {
        let mut p = Parser::new();
        p.feed("BOARD");
        p.feed("7,7,1");
        p.feed("what is this");
        p.feed("8,8,4");
        let v = p.feed("DONE");
        assert_eq!(v.len(), 1);
        let Command::Error(e) = &v[0] else {
            panic!("{v:?}")
        };
        assert!(e.contains("what is this"), "{e}");
        assert!(!p.in_body());
    }

    #[test]
    fn a_command_interrupts_an_unfinished_body() {
        let mut p = Parser::new();
        p.feed("BOARD");
        p.feed("7,7,1");
        let v = p.feed("END");
        assert!(matches!(&v[0], Command::Error(e) if e.contains("not closed by DONE")));
        assert_eq!(v[1], Command::End);
        p.feed("SWAP2BOARD");
        assert!(matches!(&p.finish(), Some(Command::Error(e)) if e.starts_with("SWAP2BOARD")));
        assert_eq!(p.finish(), None);
    }

    #[test]
    fn an_endless_body_is_bounded_and_refused() {
        let mut p = Parser::new();
        p.feed("BOARD");
        for i in 0..MAX_BODY_LINES + 500 {
            assert!(p.feed(&format!("{},{},1", i % 32, i / 32)).is_empty());
        }
        match &p.body {
            Some(Body::Board { stones, .. }) => assert_eq!(stones.len(), MAX_BODY_LINES),
            other => panic!("{other:?}"),
        }
        assert!(matches!(&p.feed("DONE")[0], Command::Error(e) if e.contains("more than")));
    }

    #[test]
    fn swap2_body_and_too_long_lines() {
        let mut p = Parser::new();
        p.feed("SWAP2BOARD");
        p.feed("7,7");
        p.feed("8,7");
        p.feed("7,8");
        assert_eq!(
            p.feed("DONE"),
            vec![Command::Swap2Board(vec![c(7, 7), c(8, 7), c(7, 8)])]
        );
        assert_eq!(
            p.feed_too_long(),
            Some(Command::Error("line too long".into()))
        );
        p.feed("BOARD");
        assert_eq!(p.feed_too_long(), None);
        assert!(matches!(&p.feed("DONE")[0], Command::Error(e) if e.contains("too long")));
    }

    #[test]
    fn wants_move() {
        assert!(Command::Begin.wants_move());
        assert!(Command::Turn(c(1, 1)).wants_move());
        assert!(Command::Board(BoardKind::Board, vec![]).wants_move());
        assert!(!Command::Board(BoardKind::YxBoard, vec![]).wants_move());
        assert!(Command::Swap2Board(vec![]).wants_move());
        assert!(!Command::About.wants_move());
    }
}
