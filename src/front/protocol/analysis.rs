//! The analysis commands of a session (Yixin-Board's and Rapfi's): `YXNBEST`,
//! `YXSEARCHDEFEND`, `YXBALANCE`, `YXBLOCK` and `YXSHOWFORBID`. Each asks the algorithm for
//! lines or a judgement about the current position; the ones that answer a move play it as
//! `TURN` would, the others leave the game as it was.

use super::command::Coord;
use super::report::moves;
use super::session::Session;
use super::setup::on_board;
use super::Sink;
use crate::engine::algo::{Analysis, Balance, Request};
use crate::game::board::Pos;
use crate::game::rules;
use crate::search::alphabeta::WIN_MIN;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl Session {
    /// `YXNBEST n`: `n` principal variations, the best move answered and played like `TURN`'s.
    pub(super) fn nbest(
        &mut self,
        n: u64,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        self.ready_to_analyse()?;
        let analysis = Analysis {
            lines: n.min(usize::MAX as u64) as usize,
            ..self.analysis()
        };
        let p = self.think(started, stop, out, &analysis)?;
        out(&p.to_string());
        Ok(())
    }

    /// `YXSEARCHDEFEND`: every candidate move searched as its own principal variation; answered
    /// by the moves that do not lose (`NONE` when every move loses), each lost one marked
    /// `MESSAGE REALTIME LOST`. Nothing is played.
    pub(super) fn search_defend(
        &mut self,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        self.ready_to_analyse()?;
        let analysis = Analysis {
            lines: Analysis::ALL,
            every_move: true,
            ..self.analysis()
        };
        let (_, lines) = self.ask(started, stop, out, &analysis)?;
        if lines.is_empty() {
            return Err("YXSEARCHDEFEND: no iteration completed in the time given".into());
        }
        let (lost, held): (Vec<_>, Vec<_>) = lines
            .iter()
            .filter(|l| !l.pv.is_empty())
            .partition(|l| l.score <= -WIN_MIN);
        for l in &lost {
            out(&format!("MESSAGE REALTIME LOST {}", l.pv[0]));
        }
        let held: Vec<Pos> = held.iter().map(|l| l.pv[0]).collect();
        out(&format!(
            "MESSAGE DEFEND {} of {} moves hold",
            held.len(),
            held.len() + lost.len()
        ));
        if held.is_empty() {
            out("NONE");
        } else {
            out(&moves(&held));
        }
        Ok(())
    }

    /// `YXBALANCEONE b` / `YXBALANCETWO b`: the stones that leave the position closest to the
    /// score `b`, answered as `x,y` or `x,y x,y`; nothing is played.
    pub(super) fn balance(
        &mut self,
        stones: usize,
        bias: i64,
        started: Instant,
        stop: &AtomicBool,
        out: Sink<'_>,
    ) -> Result<(), String> {
        self.ready_to_analyse()?;
        let me = self
            .me
            .unwrap_or_else(|| self.board.as_ref().expect("checked").side_to_move());
        let mut board = self.board.clone().expect("checked");
        board.set_side_to_move(me);
        if board.empty_cells().count() < stones {
            return Err(format!("no room for {stones} stones"));
        }
        let bias = bias.clamp(-(WIN_MIN as i64) + 1, WIN_MIN as i64 - 1) as i32;
        let analysis = self.analysis();
        let limits = self.limits(started);
        let emit = self.notes(out);
        let printer = self.printer(out, &analysis);
        let report = |r: crate::search::alphabeta::Report<'_>| printer.report(r);
        let req = Request {
            board: &board,
            rule: self.rule,
            limits,
            config: &self.config,
            stop,
            output: &emit,
            report: &report,
            analysis: &analysis,
        };
        let want = Balance { stones, bias };
        let algo = &mut self.algo;
        let answer =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| algo.balance(&req, want)));
        let stones_found = match answer {
            Ok(Some(found)) => found,
            Ok(None) => return Err(format!("{} cannot judge balance", self.algo.name())),
            Err(_) => return Err(format!("{} failed (panicked)", self.algo.name())),
        };
        // Each stone must be legal for its colour in turn.
        let mut check = board.clone();
        for &p in &stones_found {
            let mover = check.side_to_move();
            if !rules::is_legal(&mut check, p, mover, self.rule) {
                return Err(format!("balance answered the illegal stone {p}"));
            }
            check.play(p).expect("checked legal");
        }
        out(&moves(&stones_found));
        Ok(())
    }

    /// `YXBLOCK` … `DONE`: adds on-board points to the blocked moves (all or none).
    pub(super) fn block(&mut self, coords: &[Coord]) -> Result<(), String> {
        let board = self.current()?;
        let points = coords
            .iter()
            .map(|&c| on_board(board, c))
            .collect::<Result<Vec<Pos>, String>>()
            .map_err(|e| format!("YXBLOCK: {e}; nothing blocked"))?;
        for p in points {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
        Ok(())
    }

    /// The analysis every think starts from: the blocked moves.
    pub(super) fn analysis(&self) -> Analysis {
        Analysis {
            blocked: self.blocked.clone(),
            ..Analysis::default()
        }
    }

    /// An analysis command needs a game with an empty point.
    pub(super) fn ready_to_analyse(&self) -> Result<(), String> {
        if self.current()?.is_full() {
            return Err("the board is full".into());
        }
        Ok(())
    }

    pub(super) fn show_forbid(&mut self) -> Result<String, String> {
        self.current()?;
        let rule = self.rule;
        let board = self.board.as_mut().expect("checked above");
        let mut reply = String::from("FORBID ");
        for p in rules::forbidden_points(board, rule) {
            reply.push_str(&format!("{:02}{:02}", p.x(), p.y()));
        }
        reply.push('.');
        Ok(reply)
    }
}
