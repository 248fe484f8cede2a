//! The opening-rule commands of a session: `SWAP2BOARD` and `SWAP1BOARD`, answered by the
//! algorithm's Swap2 logic, with a legal fallback when it gives none.

use super::command::Coord;
use super::session::Session;
use super::setup::empty_point;
use super::Sink;
use crate::engine::algo::{Analysis, Request};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules;
use crate::knowledge::book::swap2::Swap2Reply;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl Session {
    /// `SWAP2BOARD` (0, 3 or 5 stones) or, with `swap1`, `SWAP1BOARD` (3 stones).
    pub(super) fn swap2(
        &mut self,
        stones: &[Coord],
        swap1: bool,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        let name = if swap1 { "SWAP1BOARD" } else { "SWAP2BOARD" };
        let size = self.current()?.size();
        let mut board = Board::new(size);
        for &c in stones {
            let p = empty_point(&board, c).map_err(|e| format!("{name}: {e}"))?;
            board.play(p).expect("checked empty");
        }
        if swap1 && stones.len() != 3 {
            return Err(format!(
                "SWAP1BOARD with {} stones (expected 3)",
                stones.len()
            ));
        }
        if !matches!(stones.len(), 0 | 3 | 5) {
            return Err(format!(
                "SWAP2BOARD with {} stones (expected 0, 3 or 5)",
                stones.len()
            ));
        }
        if self.algo_swap2(&board, swap1, started, stop, out) {
            return Ok(());
        }
        match stones.len() {
            0 => {
                // The algorithm has no Swap2 logic: a fixed, plainly legal proposal.
                let c = size / 2;
                let three = [Pos::new(c, c), Pos::new(c + 1, c), Pos::new(c - 1, c + 1)];
                for p in three {
                    board.play(p).expect("distinct points near the centre");
                }
                self.board = Some(board);
                self.me = None;
                out(&format!("{} {} {}", three[0], three[1], three[2]));
                Ok(())
            }
            3 | 5 => {
                // We take white and play its next move (the "one move" answer).
                self.board = Some(board);
                self.me = Some(Color::White);
                let p = self.think(started, stop, out, &Analysis::default())?;
                out(&p.to_string());
                Ok(())
            }
            _ => unreachable!("checked above"),
        }
    }

    /// Asks the algorithm for its Swap2 answer to `board` and, when it gives a legal one, prints
    /// and applies it (true). False leaves the answer to the fallback.
    pub(super) fn algo_swap2(
        &mut self,
        board: &Board,
        swap1: bool,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> bool {
        let Some((reply, b, me)) = self.swap2_decision(board, swap1, started, stop, out) else {
            return false;
        };
        let text = match reply {
            Swap2Reply::Swap => "SWAP".to_string(),
            Swap2Reply::Moves(moves) => {
                let text: Vec<String> = moves.iter().map(|p| p.to_string()).collect();
                text.join(" ")
            }
        };
        self.board = Some(b);
        self.me = me;
        self.answered(started, board.stone_count());
        out(&text);
        true
    }

    /// The algorithm's Swap2 (or Swap1) answer to `board` when it gives one that fits the
    /// stone count and is legal: the answer, the position after it and our colour after it (a
    /// swap makes us black, one stone after three or five white; otherwise the opponent
    /// chooses). Changes nothing in the session.
    pub(super) fn swap2_decision(
        &mut self,
        board: &Board,
        swap1: bool,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Option<(Swap2Reply, Board, Option<Color>)> {
        let emit = self.notes(out);
        let req = Request {
            board,
            rule: self.rule,
            limits: self.limits_at(started, board.stone_count()),
            config: &self.config,
            stop,
            output: &emit,
            report: &|_| {},
            analysis: &Analysis::default(),
        };
        let algo = &mut self.algo;
        let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if swap1 {
                algo.swap1(&req)
            } else {
                algo.swap2(&req)
            }
        }));
        let Ok(Some(reply)) = reply else { return None };
        let n = board.stone_count();
        let mut b = board.clone();
        let me = match &reply {
            Swap2Reply::Swap if n > 0 => Some(Color::Black),
            Swap2Reply::Moves(moves)
                if matches!((n, moves.len()), (0, 3) | (3, 1 | 2) | (5, 1))
                    && !(swap1 && moves.len() != 1) =>
            {
                for &p in moves {
                    let mover = b.side_to_move();
                    if !rules::is_legal(&mut b, p, mover, self.rule) {
                        out(&format!("DEBUG illegal Swap2 stone {p}; answering simply"));
                        return None;
                    }
                    b.play(p).expect("checked legal");
                }
                // One stone after three or five: we took white. Otherwise the opponent chooses.
                (moves.len() == 1).then_some(Color::White)
            }
            other => {
                out(&format!(
                    "DEBUG Swap2 answer {other:?} does not fit {n} stones; answering simply"
                ));
                return None;
            }
        };
        Some((reply, b, me))
    }
}
