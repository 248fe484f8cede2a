//! Draw offers and resignation: `YXDRAW` (would we accept a draw now?) and `YXRESIGN` (would
//! we resign now?), which Yixin-Board sends from its "draw" and "resign" commands.
//!
//! Neither Yixin-Board nor Rapfi defines a reply (Yixin-Board only shows `MESSAGE` lines), so
//! bango answers one `MESSAGE` line whose first words are machine-readable:
//! `MESSAGE DRAW ACCEPT|DECLINE score <s>` and `MESSAGE RESIGN YES|NO score <s>`, `<s>` being
//! our score as the search prints it (`win n`, `loss n` or centi-units).
//!
//! # How the answer is reached
//! A short multi-PV search of the position as it stands (the side to move as the board says,
//! the depth capped at [`JUDGE_DEPTH`] and at `INFO max_depth`, within the move's time budget),
//! its best line's score taken from our side. We accept a draw when that score is at most
//! [`DRAW_ACCEPT_AT_MOST`] (we see no advantage to play for), and resign only a proven loss
//! (a score at or below [`RESIGN_AT_MOST`]). Nothing of the game changes: the board, our
//! colour and the settings are as they were; only the table keeps what the search found.

use super::session::Session;
use super::Sink;
use crate::engine::algo::Analysis;
use crate::search::alphabeta::{format_score, WIN_MIN};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The deepest search a judgement runs (a few hundred milliseconds in the middle game).
pub const JUDGE_DEPTH: u32 = 6;

/// We accept a draw when our score is at most this: no advantage worth playing on for.
pub const DRAW_ACCEPT_AT_MOST: i32 = 0;

/// We resign only when our score is at most this: a loss the search has proven.
pub const RESIGN_AT_MOST: i32 = -WIN_MIN;

/// A question the judgement answers: its command word, the reply's word, the threshold our
/// score must be at or below for a yes, and the two answers.
pub struct Question {
    word: &'static str,
    reply: &'static str,
    yes_at_most: i32,
    answers: [&'static str; 2],
}

/// `YXDRAW`: would we accept a draw now?
pub const DRAW: Question = Question {
    word: "YXDRAW",
    reply: "DRAW",
    yes_at_most: DRAW_ACCEPT_AT_MOST,
    answers: ["ACCEPT", "DECLINE"],
};

/// `YXRESIGN`: would we resign now?
pub const RESIGN: Question = Question {
    word: "YXRESIGN",
    reply: "RESIGN",
    yes_at_most: RESIGN_AT_MOST,
    answers: ["YES", "NO"],
};

impl Session {
    /// `YXDRAW`: `MESSAGE DRAW ACCEPT|DECLINE score <s>`.
    pub(super) fn draw_offer(
        &mut self,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        self.answer(&DRAW, started, stop, out)
    }

    /// `YXRESIGN`: `MESSAGE RESIGN YES|NO score <s>`.
    pub(super) fn resign_query(
        &mut self,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        self.answer(&RESIGN, started, stop, out)
    }

    /// `YXDRAW` or `YXRESIGN`: `MESSAGE DRAW ACCEPT|DECLINE score <s>` or
    /// `MESSAGE RESIGN YES|NO score <s>`.
    fn answer(
        &mut self,
        q: &Question,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        let score = self
            .judge(started, stop)
            .map_err(|e| format!("{}: {e}", q.word))?;
        let verdict = q.answers[usize::from(score > q.yes_at_most)];
        out(&format!(
            "MESSAGE {} {verdict} score {}",
            q.reply,
            format_score(score)
        ));
        Ok(())
    }

    /// Our score for the current position (see the module docs); the game is left as it was.
    fn judge(&mut self, started: Instant, stop: &AtomicBool) -> Result<i32, String> {
        let board = self.current()?;
        if board.is_full() {
            // The game is drawn already.
            return Ok(0);
        }
        let to_move = board.side_to_move();
        let me = self.me.unwrap_or(to_move);
        let saved = (self.board.clone(), self.me, self.max_depth);
        self.me = Some(to_move);
        self.max_depth = Some(self.max_depth.map_or(JUDGE_DEPTH, |d| d.min(JUDGE_DEPTH)));
        let analysis = Analysis {
            lines: 2,
            ..Analysis::default()
        };
        let quiet = |_: &str| {};
        let asked = self.ask(started, stop, &quiet, &analysis);
        (self.board, self.me, self.max_depth) = saved;
        let (_, lines) = asked?;
        let best = lines.iter().map(|l| l.score).max().ok_or_else(|| {
            format!(
                "the {} algorithm gave no evaluation (it judges no positions, or no search \
                 iteration completed in the time given)",
                self.algo.name()
            )
        })?;
        Ok(if to_move == me { best } else { -best })
    }
}
