//! Yixin-Board's opening-rule steps: `yxswap2step1..3`, answered from the Swap2 decisions the
//! session already takes for `SWAP2BOARD` (`swap`), and `yxsoosorvstep1..6`, answered from the
//! Soosõrv-N decisions ([`crate::knowledge::book::soosorv`]).
//!
//! # The exchange, as Yixin-Board's `main.c` sends and reads it
//! Every reply is `MESSAGE` lines. Their points are two numbers separated by a space, in the
//! order of the board's own `BOARD` lines: Yixin-Board reads both into the same variables (the
//! first it calls y, "row first"), so we print our first coordinate first: `x y`.
//!
//! | command | position | reply |
//! |---|---|---|
//! | `yxswap2step1` | none (empty board) | `MESSAGE SWAP2 MOVE1 x y`, `MOVE2`, `MOVE3` |
//! | `yxswap2step2` | 3 stones by `YXBOARD` | `MESSAGE SWAP2 SWAP1 YES` (we take black), `SWAP1 NO` (we stay white; a `BOARD` asks our fourth stone), or `MOVE4 x y` and `MOVE5 x y` (the other side chooses) |
//! | `yxswap2step3` | 5 stones by `YXBOARD` | `MESSAGE SWAP2 SWAP2 YES` (we take black) or `SWAP2 NO` (white; a `BOARD` follows) |
//! | `yxsoosorvstep1` | none | `MESSAGE SOOSORV MOVE1 x y`, `MOVE2`, `MOVE3` |
//! | `yxsoosorvstep2` | 3 moves, `done` | `MESSAGE SOOSORV SWAP1 Y` (we take black) or `N` |
//! | `yxsoosorvstep3` | 3 moves, `done` | `MESSAGE SOOSORV MOVE4 x y N` |
//! | `yxsoosorvstep4 N` | 4 moves, `done` | `MESSAGE SOOSORV SWAP2 Y` (we take white) or `N` |
//! | `yxsoosorvstep5 N` | 4 moves, `done` | `MESSAGE SOOSORV MOVE5 REFRESH`, N lines `MOVE5 x y`, `MOVE5 DONE` |
//! | `yxsoosorvstep6` | 4 moves and the offers, `done` | `MESSAGE SOOSORV MOVE5C x y` (the offer we take) |
//!
//! `MOVE5 REFRESH` puts the board into its "pick a fifth stone" mode, which it would not be in
//! when the other side declared N; `MOVE5C` has no space before its `C`: Yixin-Board looks for
//! the `C` right after `MOVE5` and reads the point two characters later.
//!
//! # Invariants
//! Moves of a body are checked like a game's (on the board, empty, legal for their colour, black
//! first); a refused step changes nothing. An algorithm without opening logic gets `ERROR`
//! (the board then lets its user decide). Each step is answered within the move's budget (the
//! decisions split it among their searches) and goes off the match clock like a move.

use super::command::{Coord, OpeningStep};
use super::session::Session;
use super::setup::empty_point;
use super::Sink;
use crate::engine::algo::{Analysis, Request};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules;
use crate::knowledge::book::soosorv::{self, SoosorvReply, SoosorvStep, MAX_OFFERS};
use crate::knowledge::book::swap2::Swap2Reply;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A point as Yixin-Board reads it in these replies: `x y`.
fn xy(p: Pos) -> String {
    format!("{} {}", p.x(), p.y())
}

impl Session {
    /// One opening step (see the module docs).
    pub(super) fn opening(
        &mut self,
        step: OpeningStep,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        match step {
            OpeningStep::Swap2(k) => self.swap2_step(k, started, stop, out),
            OpeningStep::Soosorv {
                step,
                offers,
                moves,
            } => self.soosorv_step(step, offers, &moves, started, stop, out),
        }
    }

    fn swap2_step(
        &mut self,
        k: u8,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        let name = format!("YXSWAP2STEP{k}");
        let current = self.current()?;
        let want = [0, 0, 3, 5][usize::from(k.min(3))];
        let board = if k == 1 {
            // Yixin-Board starts a Swap2 game without a position: the board is empty.
            Board::new(current.size())
        } else {
            black_first(current).map_err(|e| format!("{name}: {e}"))?
        };
        if board.stone_count() != want {
            return Err(format!(
                "{name} on {} stones (expected {want}; set them with YXBOARD)",
                board.stone_count()
            ));
        }
        let asked_on = board.stone_count();
        let Some((reply, after, me)) = self.swap2_decision(&board, false, started, stop, out)
        else {
            return Err(format!("{name}: the algorithm has no Swap2 logic"));
        };
        let lines: Vec<String> = match (k, reply) {
            (1, Swap2Reply::Moves(m)) => (0..3)
                .map(|i| format!("MESSAGE SWAP2 MOVE{} {}", i + 1, xy(m[i])))
                .collect(),
            (2, Swap2Reply::Swap) => vec!["MESSAGE SWAP2 SWAP1 YES".into()],
            (2, Swap2Reply::Moves(m)) if m.len() == 1 => vec!["MESSAGE SWAP2 SWAP1 NO".into()],
            (2, Swap2Reply::Moves(m)) => vec![
                format!("MESSAGE SWAP2 MOVE4 {}", xy(m[0])),
                format!("MESSAGE SWAP2 MOVE5 {}", xy(m[1])),
            ],
            (_, Swap2Reply::Swap) => vec!["MESSAGE SWAP2 SWAP2 YES".into()],
            (_, Swap2Reply::Moves(_)) => vec!["MESSAGE SWAP2 SWAP2 NO".into()],
        };
        // Staying white after three or five stones: the board asks our stone with `BOARD`.
        self.board = Some(if me == Some(Color::White) {
            board
        } else {
            after
        });
        self.me = me;
        self.answered(started, asked_on);
        lines.iter().for_each(|l| out(l));
        Ok(())
    }

    fn soosorv_step(
        &mut self,
        k: u8,
        offers: Option<i64>,
        moves: &[Coord],
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        let name = format!("YXSOOSORVSTEP{k}");
        let size = self.current()?.size();
        let (board, step) = soosorv_position(size, self.rule, k, offers, moves)
            .map_err(|e| format!("{name}: {e}"))?;
        let emit = self.notes(out);
        let req = Request {
            board: &board,
            rule: self.rule,
            limits: self.limits_at(started, board.stone_count()),
            config: &self.config,
            stop,
            output: &emit,
            report: &|_| {},
            analysis: &Analysis::default(),
        };
        let algo = &mut self.algo;
        let reply =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| algo.soosorv(&req, &step)));
        let Ok(Some(reply)) = reply else {
            return Err(format!("{name}: the algorithm has no Soosorv logic"));
        };
        let mut after = board.clone();
        let (lines, me) = soosorv_lines(&mut after, self.rule, &step, reply)
            .map_err(|e| format!("{name}: the algorithm answered {e}"))?;
        let asked_on = board.stone_count();
        self.board = Some(after);
        self.me = me;
        self.answered(started, asked_on);
        lines.iter().for_each(|l| out(l));
        Ok(())
    }
}

/// `board`'s stones replayed black first, in the order they were given (a `YXBOARD` position
/// keeps its order within each colour).
fn black_first(board: &Board) -> Result<Board, String> {
    let of = |c: Color| -> Vec<Pos> {
        board
            .history()
            .iter()
            .filter(|s| s.1 == c)
            .map(|s| s.0)
            .collect()
    };
    let (black, white) = (of(Color::Black), of(Color::White));
    if black.len() != white.len() && black.len() != white.len() + 1 {
        return Err(format!(
            "{} black and {} white stones cannot come from alternate play",
            black.len(),
            white.len()
        ));
    }
    let mut b = Board::new(board.size());
    for (i, &p) in black.iter().enumerate() {
        b.play(p).expect("distinct stones of one board");
        if let Some(&w) = white.get(i) {
            b.play(w).expect("distinct stones of one board");
        }
    }
    Ok(b)
}

/// The position and decision a Soosõrv step's body describes, checked: the right number of
/// moves, each legal in turn (black first), N within 1..=[`MAX_OFFERS`], and for step 6 the
/// offers distinct, empty and legal for black after the four stones.
fn soosorv_position(
    size: usize,
    rule: rules::Rule,
    k: u8,
    offers: Option<i64>,
    moves: &[Coord],
) -> Result<(Board, SoosorvStep), String> {
    let count = |n: Option<i64>| match n {
        Some(n) if (1..=MAX_OFFERS as i64).contains(&n) => Ok(n as usize),
        Some(n) => Err(format!("{n} fifth-stone offers (1 to {MAX_OFFERS})")),
        None => Err("the number of fifth-stone offers is missing".to_string()),
    };
    let step = match k {
        1 => SoosorvStep::Open,
        2 => SoosorvStep::FirstSwap,
        3 => SoosorvStep::Fourth,
        4 => SoosorvStep::SecondSwap(count(offers)?),
        5 => SoosorvStep::Offer(count(offers)?),
        _ => SoosorvStep::Choose(Vec::new()),
    };
    let placed = soosorv::stones_expected(&step);
    let extra = moves.len().saturating_sub(placed);
    let fits = match step {
        SoosorvStep::Choose(_) => (1..=MAX_OFFERS).contains(&extra),
        _ => extra == 0,
    };
    if moves.len() < placed || !fits {
        let want = match step {
            SoosorvStep::Choose(_) => format!("4 and 1 to {MAX_OFFERS} offers"),
            _ => placed.to_string(),
        };
        return Err(format!("{} moves (expected {want})", moves.len()));
    }
    let mut board = Board::new(size);
    for &c in &moves[..placed] {
        let p = empty_point(&board, c)?;
        let mover = board.side_to_move();
        if !rules::is_legal(&mut board, p, mover, rule) {
            return Err(format!("{c} is forbidden for black"));
        }
        board.play(p).expect("checked legal");
    }
    let step = match step {
        SoosorvStep::Choose(_) => {
            let mut offered = Vec::new();
            let mut seen = HashSet::new();
            for &c in &moves[placed..] {
                let p = empty_point(&board, c)?;
                if !seen.insert(p) {
                    return Err(format!("the offer {c} is given twice"));
                }
                if !rules::is_legal(&mut board, p, Color::Black, rule) {
                    return Err(format!("the offer {c} is forbidden for black"));
                }
                offered.push(p);
            }
            SoosorvStep::Choose(offered)
        }
        other => other,
    };
    Ok((board, step))
}

/// The reply lines for `reply` to `step`, and our colour after it, with `board` (the step's
/// position) moved on to the position the exchange reaches; an answer that does not fit the
/// step or is not legal is refused (the caller changes nothing).
fn soosorv_lines(
    board: &mut Board,
    rule: rules::Rule,
    step: &SoosorvStep,
    reply: SoosorvReply,
) -> Result<(Vec<String>, Option<Color>), String> {
    let mut place = |p: Pos| -> Result<(), String> {
        let mover = board.side_to_move();
        if !rules::is_legal(board, p, mover, rule) {
            return Err(format!("the illegal stone {p}"));
        }
        board.play(p).map_err(|_| format!("the illegal stone {p}"))
    };
    let yes_no = |b: bool| if b { "Y" } else { "N" };
    Ok(match (step, reply) {
        (SoosorvStep::Open, SoosorvReply::Opening(three)) => {
            let mut lines = Vec::new();
            for (i, p) in three.into_iter().enumerate() {
                place(p)?;
                lines.push(format!("MESSAGE SOOSORV MOVE{} {}", i + 1, xy(p)));
            }
            (lines, None)
        }
        // Swapping as the tentative white makes us black; staying keeps us white.
        (SoosorvStep::FirstSwap, SoosorvReply::Swap(swap)) => (
            vec![format!("MESSAGE SOOSORV SWAP1 {}", yes_no(swap))],
            Some(if swap { Color::Black } else { Color::White }),
        ),
        (SoosorvStep::Fourth, SoosorvReply::Fourth { stone, offers })
            if (1..=MAX_OFFERS).contains(&offers) =>
        {
            place(stone)?;
            let line = format!("MESSAGE SOOSORV MOVE4 {} {offers}", xy(stone));
            (vec![line], Some(Color::White))
        }
        (SoosorvStep::SecondSwap(_), SoosorvReply::Swap(swap)) => (
            vec![format!("MESSAGE SOOSORV SWAP2 {}", yes_no(swap))],
            Some(if swap { Color::White } else { Color::Black }),
        ),
        (SoosorvStep::Offer(n), SoosorvReply::Offers(offered)) if offered.len() == *n => {
            let mut lines = vec!["MESSAGE SOOSORV MOVE5 REFRESH".to_string()];
            let mut probe = board.clone();
            let mut seen = HashSet::new();
            for &p in &offered {
                if !seen.insert(p) || !rules::is_legal(&mut probe, p, Color::Black, rule) {
                    return Err(format!("the offer {p}, illegal or repeated"));
                }
                lines.push(format!("MESSAGE SOOSORV MOVE5 {}", xy(p)));
            }
            lines.push("MESSAGE SOOSORV MOVE5 DONE".into());
            (lines, Some(Color::Black))
        }
        (SoosorvStep::Choose(offered), SoosorvReply::Chosen(p)) if offered.contains(&p) => {
            place(p)?;
            (
                vec![format!("MESSAGE SOOSORV MOVE5C {}", xy(p))],
                Some(Color::White),
            )
        }
        (_, other) => return Err(format!("{other:?}, which does not fit the step")),
    })
}
