//! The protocol's vocabulary: every [`Command`] a manager or an analysis board can send, with its
//! arguments as written ([`Coord`] not yet checked against a board, [`Info`] numbers as sent).
//! Lines become commands in [`super::parser`]; the session gives them meaning.

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
    /// `usedatabase` (Yixin-Board, non-zero: open the position database and use it).
    UseDatabase(bool),
    /// `database_readonly` (Rapfi, non-zero: the database is opened read-only).
    DatabaseReadonly(bool),
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

/// One step of an opening rule as Yixin-Board drives it (see `super::openings`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningStep {
    /// `yxswap2stepK`, K = 1..=3: Swap2 on the position `YXBOARD` last set (empty for step 1).
    Swap2(u8),
    /// `yxsoosorvstepK [N]`, K = 1..=6, with the moves of its body in order (none for step 1).
    Soosorv {
        /// K.
        step: u8,
        /// N as sent (steps 4 and 5 only).
        offers: Option<i64>,
        /// The stones so far, black first; for step 6 the fifth-stone offers follow the four.
        moves: Vec<Coord>,
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
    /// An opening-rule step (Yixin-Board's Swap2 and Soosõrv commands).
    Opening(OpeningStep),
    /// `YXHASHDUMP path` (the path on the same line or, as Yixin-Board sends it, on the next):
    /// write the table's live entries to that file.
    YxHashDump(String),
    /// `YXHASHLOAD path` (same framing): replace the table's contents with a dump's.
    YxHashLoad(String),
    /// `YXSHOWHASHUSAGE`: how full the table is.
    YxShowHashUsage,
    /// `YXSHOWINFO`: the engine's capabilities as Yixin-Board reads them.
    YxShowInfo,
    /// `YXDRAW`: would we accept a draw now?
    YxDraw,
    /// `YXRESIGN`: would we resign now?
    YxResign,
    /// A database command on a position (Yixin-Board's set): the operation and the moves from
    /// the empty board, black first, to the position it addresses.
    DbPosition(DbOp, Vec<Coord>),
    /// A database command on a file: the operation and the path.
    DbFile(DbFileOp, String),
    /// `YXSAVEDATABASE`: make the file a complete copy (move the write-ahead log into it).
    DbSave,
    /// `YXDBCHECK`: report what is wrong in the database.
    DbCheck,
    /// `YXDBFIX`: repair what `YXDBCHECK` finds.
    DbFix,
    /// A command word we do not know (the reply is `UNKNOWN <what>`).
    Unknown(String),
    /// A known command that is malformed (the reply is `ERROR <reason>`).
    Error(String),
}

impl Command {
    /// Whether the command asks the brain for a move or a search answered on the move's
    /// clock (`YXDRAW`, `YXRESIGN`): the clock starts when it is read, and `YXSTOP` ends it.
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
                | Command::Opening(_)
                | Command::YxDraw
                | Command::YxResign
        )
    }
}

/// What a database command does to the position its move list reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbOp {
    /// `YXQUERYDATABASEALL`: the records of the position's children, one line each.
    QueryAll,
    /// `YXQUERYDATABASEALLT` (Rapfi): `QueryAll`, then the position's text.
    QueryAllText,
    /// `YXQUERYDATABASEONE`: the position's record.
    QueryOne,
    /// `YXQUERYDATABASETEXT`: the position's text.
    QueryText,
    /// `YXEDITTVDDATABASE mask label value depth`: set the label (mask bit 1; a character code,
    /// `W`/`L`/`D` set the value), the score (bit 2) and the depth (bit 4).
    EditTvd {
        /// Which of the three to set.
        mask: i64,
        /// Character code of the label; 0 or less clears it.
        label: i64,
        /// The score.
        value: i64,
        /// The depth.
        depth: i64,
    },
    /// `YXEDITTEXTDATABASE "text"`: the position's free text.
    EditText(String),
    /// `YXEDITLABELDATABASE X,Y text`: the label of the child reached by playing at `X,Y`.
    EditLabel(Coord, String),
    /// `YXDELETEDATABASEONE`: delete the position's record.
    DeleteOne,
    /// `YXDELETEDATABASEALL [filter]`: delete the records below the position that the filter
    /// selects (empty: all; `NONWL`, `WL`, `W`, `L`, `WLD`, `NONWLD`).
    DeleteAll(String),
    /// `YXSETBESTMOVEDATABASE`: the last move becomes the best move of the position before it.
    SetBestMove,
    /// `YXCLEARBESTMOVEDATABASE`: the position before the last move loses its best move.
    ClearBestMove,
}

/// A database command on a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbFileOp {
    /// `YXSETDATABASE`: open (or create) this database.
    Set,
    /// `YXDBTOPOS`: write the positions of the current rule and size as opening lines.
    ToPos,
    /// `YXDBTOTXT`: write the records of the current rule and size in the text form.
    ToTxt,
    /// `YXDBTOTXTALL`: write every record in the text form.
    ToTxtAll,
    /// `YXTXTTODB`: import a text-form file (all or nothing).
    TxtToDb,
    /// `YXDBMERGE`: merge another bango database into this one.
    Merge,
    /// `YXDBSPLIT`: copy the current position and everything below it into another database.
    Split,
    /// `YXLIBTODB`: import a Renlib `.lib` file.
    LibToDb,
    /// `YXDBTOLIB`: write the records of the current rule (15x15) as a Renlib file.
    ToLib,
}
