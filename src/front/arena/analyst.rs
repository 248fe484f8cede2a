//! One brain asked about single positions, as a judge or as a player: each question is a fresh
//! game (`RESTART`, then `BOARD` with the stones in the order played), so an answer never
//! depends on which positions were asked before it.
//!
//! The answer is the brain's move and, when it printed one, its last evaluation. Two formats
//! are read from `MESSAGE` lines: Rapfi's `Eval -106` / `Eval +M12` and bango's `score 1165` /
//! `score win 12` / `score loss 12` / `vcf win in 5 plies` / `vct win with 3 threats` (a win
//! in at most twice the threats and one) ([`parse_eval`]). Scores are in the brain's own scale;
//! the caller knows which scale that is.

use super::engine::{EngineProcess, EngineSpec, Received};
use super::game::board_command;
use crate::game::board::{Board, Pos};
use crate::game::rules::Rule;
use std::time::{Duration, Instant};

/// How long a brain may take past its turn before an answer counts as lost.
const GRACE_MS: u64 = 10_000;

/// An evaluation as a brain printed it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A score in the brain's own scale.
    Score(i64),
    /// A forced result: `+N` the side to move makes five N plies from now, `-N` it loses.
    Mate(i32),
}

/// The last evaluation in one output line, if it carries one (see the module docs).
pub fn parse_eval(line: &str) -> Option<Eval> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '|')
        .collect();
    let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
    let mut found = None;
    for (i, w) in words.iter().enumerate() {
        let Some(&value) = words.get(i + 1) else {
            break;
        };
        match *w {
            "Eval" => {
                let (sign, rest) = match value.as_bytes().first() {
                    Some(b'-') => (-1, &value[1..]),
                    Some(b'+') => (1, &value[1..]),
                    _ => (1, value),
                };
                if let Some(n) = rest.strip_prefix('M') {
                    if let Ok(n) = n.parse::<i32>() {
                        found = Some(Eval::Mate(sign * n));
                    }
                } else if let Ok(s) = rest.parse::<i64>() {
                    found = Some(Eval::Score(sign as i64 * s));
                }
            }
            "score" => {
                let n = words.get(i + 2).and_then(|n| n.parse::<i32>().ok());
                match (value, n) {
                    ("win", Some(n)) => found = Some(Eval::Mate(n)),
                    ("loss", Some(n)) => found = Some(Eval::Mate(-n)),
                    _ => {
                        if let Ok(s) = value.parse::<i64>() {
                            found = Some(Eval::Score(s));
                        }
                    }
                }
            }
            // bango's root proofs: `vcf win in N plies`, `vct win with N threats`.
            "vcf" | "vct" if value == "win" => {
                let n = words.get(i + 3).and_then(|n| n.parse::<i32>().ok());
                match (*w, words.get(i + 2).copied(), n) {
                    ("vcf", Some("in"), Some(n)) => found = Some(Eval::Mate(n)),
                    ("vct", Some("with"), Some(n)) => found = Some(Eval::Mate(2 * n + 1)),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    found
}

/// A brain's answer to one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move it chose.
    pub best: Pos,
    /// Its last printed evaluation of the position, if any.
    pub eval: Option<Eval>,
}

/// A running brain that answers positions one at a time.
pub struct Analyst {
    process: EngineProcess,
    size: usize,
    turn_ms: u64,
}

impl Analyst {
    /// Starts `spec`'s brain on a `size` board under `rule` with `turn_ms` a move (no game
    /// clock), sending `INFO max_memory` and `spec`'s own `INFO` lines after the standard ones.
    pub fn start(
        spec: &EngineSpec,
        size: usize,
        rule: Rule,
        turn_ms: u64,
        max_memory: u64,
    ) -> Result<Analyst, String> {
        let process = EngineProcess::spawn(&spec.cmd)
            .map_err(|e| format!("{}: cannot start: {e}", spec.name))?;
        let mut a = Analyst {
            process,
            size,
            turn_ms,
        };
        a.send(&format!("START {size}"))?;
        a.expect_ok("START")?;
        let mut info = vec![
            format!("timeout_turn {turn_ms}"),
            "timeout_match 0".to_string(),
            format!("max_memory {max_memory}"),
            format!("rule {}", rule.info_bits()),
        ];
        if let Some(t) = spec.threads {
            info.push(format!("thread_num {t}"));
        }
        info.extend(spec.info.iter().cloned());
        for i in info {
            a.send(&format!("INFO {i}"))?;
        }
        Ok(a)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.process
            .send(line)
            .map_err(|e| format!("cannot write to the brain: {e}"))
    }

    fn deadline(&self) -> Instant {
        Instant::now() + Duration::from_millis(self.turn_ms + GRACE_MS)
    }

    /// Waits for `OK`, skipping messages.
    fn expect_ok(&mut self, after: &str) -> Result<(), String> {
        let deadline = self.deadline();
        loop {
            match self.process.recv_until(deadline) {
                Received::Line(l, _) if l.trim().eq_ignore_ascii_case("OK") => return Ok(()),
                Received::Line(l, _) if is_chatter(&l) => {}
                Received::Line(l, _) => return Err(format!("{after} answered {l:?}")),
                Received::Eof => return Err(format!("the brain exited on {after}")),
                Received::Timeout => return Err(format!("no OK to {after}")),
            }
        }
    }

    /// The brain's move and evaluation for `board`, the side to move being the brain.
    pub fn ask(&mut self, board: &Board) -> Result<Answer, String> {
        if board.size() != self.size {
            return Err(format!(
                "a {} board asked of a brain started on {}",
                board.size(),
                self.size
            ));
        }
        self.send("RESTART")?;
        self.expect_ok("RESTART")?;
        let lines = board_command(board, board.side_to_move());
        for l in &lines {
            self.send(l)?;
        }
        let deadline = self.deadline();
        let mut eval = None;
        loop {
            match self.process.recv_until(deadline) {
                Received::Line(l, _) if is_chatter(&l) => {
                    if let Some(e) = parse_eval(&l) {
                        eval = Some(e);
                    }
                }
                Received::Line(l, _) => {
                    let best = parse_move(&l)
                        .and_then(|(x, y)| board.pos(x, y))
                        .filter(|&p| board.is_empty_at(p))
                        .ok_or_else(|| format!("answered {l:?}, not a free cell"))?;
                    return Ok(Answer { best, eval });
                }
                Received::Eof => return Err("the brain exited".into()),
                Received::Timeout => {
                    return Err(format!("no move within {} ms", self.turn_ms + GRACE_MS))
                }
            }
        }
    }

    /// Ends the brain (`END`, then a kill if it lingers).
    pub fn end(self) {
        self.process
            .end(Instant::now() + Duration::from_millis(2000));
    }
}

/// Lines that are not an answer: empty, `MESSAGE`, `DEBUG`, `UNKNOWN`.
fn is_chatter(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.is_empty()
        || ["MESSAGE", "DEBUG", "UNKNOWN"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
}

/// Parses a reply `x,y`.
fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rapfi_and_bango_evaluations() {
        let rapfi = "MESSAGE Speed 1160K | Depth 18-28 | Eval -106 | Node 310K | Time 268ms";
        assert_eq!(parse_eval(rapfi), Some(Eval::Score(-106)));
        let mate = "MESSAGE Speed 1273K | Depth 16-18 | Eval -M20 | Node 85K | Time 67ms";
        assert_eq!(parse_eval(mate), Some(Eval::Mate(-20)));
        let win = "MESSAGE Speed 1K | Depth 3-3 | Eval +M3 | Node 5 | Time 0ms";
        assert_eq!(parse_eval(win), Some(Eval::Mate(3)));
        let bango = "MESSAGE depth 14 score 1165 nodes 263481 nps 1855500 time 142 pv 8,9";
        assert_eq!(parse_eval(bango), Some(Eval::Score(1165)));
        let won = "MESSAGE depth 9 score win 7 nodes 10 nps 1 time 0 pv 8,9";
        assert_eq!(parse_eval(won), Some(Eval::Mate(7)));
        let lost = "MESSAGE depth 9 score loss 4 nodes 10 nps 1 time 0 pv 8,9";
        assert_eq!(parse_eval(lost), Some(Eval::Mate(-4)));
        let vcf = "MESSAGE vcf win in 3 plies, playing 10,7";
        assert_eq!(parse_eval(vcf), Some(Eval::Mate(3)));
        let vct = "MESSAGE vct win with 4 threats, playing 10,7";
        assert_eq!(parse_eval(vct), Some(Eval::Mate(9)));
        assert_eq!(
            parse_eval("MESSAGE opponent vcf in 3 plies; breakers 6,7"),
            None
        );
        assert_eq!(parse_eval("MESSAGE Bestline I8 I7 G9"), None);
        assert_eq!(parse_eval("MESSAGE REALTIME POS 9,6"), None);
        assert_eq!(parse_eval("MESSAGE Eval"), None);
    }
}
