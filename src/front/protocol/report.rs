//! What the brain prints while it thinks: the search's [`Report`]s turned into protocol lines,
//! under `INFO show_detail`.
//!
//! | level | lines |
//! |---|---|
//! | 0 | none (multi-PV lines excepted: the analyst asked for them) |
//! | 1 | the log (`MESSAGE depth ...`, `MESSAGE smp workers ...`) and the live board markers |
//! | 2 | the log and the info block (`INFO PV i` ... `INFO PV DONE`) |
//! | 3 | all of them |
//!
//! Live markers (`MESSAGE REALTIME POS|DONE|BEST|LOST x,y`, and `REFRESH` then the current best
//! at each completed iteration) follow the first principal variation from depth
//! [`REALTIME_MIN_DEPTH`] and [`REALTIME_AFTER`] of thinking on; a pondering search prints none
//! (it reports to no printer). Multi-PV searches print `MESSAGE (i) score | depth-seldepth |
//! line` per variation per iteration.
//!
//! # Determinism
//! A [`Printer`] without a clock (one worker and a depth or node cap: the deterministic mode)
//! prints times and speeds as 0 and gates the markers on depth alone, so the whole output of
//! such a think is the same on every run.

use super::Sink;
use crate::game::board::Pos;
use crate::search::alphabeta::{format_score, win_rate, Line, Report, RootEventKind, SearchResult};
use parking_lot::Mutex;
use std::time::Duration;

/// The first depth whose root events are printed as live markers.
pub const REALTIME_MIN_DEPTH: u32 = 8;

/// Thinking time before live markers are printed (short searches would only flood the GUI).
pub const REALTIME_AFTER: Duration = Duration::from_millis(200);

/// Prints one think's reports to a sink.
pub struct Printer<'a> {
    out: Sink<'a>,
    detail: u8,
    clock: bool,
    multi_pv: bool,
    /// The last search's principal variations, as it finished.
    last: Mutex<Vec<Line>>,
}

impl<'a> Printer<'a> {
    /// A printer to `out` at `show_detail` level `detail`. `clock`: print real times (false in
    /// the deterministic mode). `multi_pv`: the think asked for several lines.
    pub fn new(out: Sink<'a>, detail: u8, clock: bool, multi_pv: bool) -> Printer<'a> {
        Printer {
            out,
            detail,
            clock,
            multi_pv,
            last: Mutex::new(Vec::new()),
        }
    }

    /// The principal variations of the last search that finished (empty before one did).
    pub fn last_lines(&self) -> Vec<Line> {
        self.last.lock().clone()
    }

    fn markers(&self) -> bool {
        self.detail & 1 != 0
    }

    fn info_block(&self) -> bool {
        self.detail & 2 != 0
    }

    /// Whether live markers are due at `depth` after `elapsed`.
    fn realtime_due(&self, depth: u32, elapsed: Duration) -> bool {
        self.markers() && depth >= REALTIME_MIN_DEPTH && (!self.clock || elapsed >= REALTIME_AFTER)
    }

    /// Prints what `report` calls for.
    pub fn report(&self, report: Report<'_>) {
        let out = self.out;
        if self.detail != 0 {
            if let Some(line) = report.log_line(self.clock) {
                out(&format!("MESSAGE {line}"));
            }
        }
        match report {
            Report::Iteration {
                result,
                nodes,
                elapsed,
            } => {
                if self.multi_pv {
                    self.multi_pv_lines(result);
                }
                if self.info_block() {
                    self.info(result, nodes, elapsed);
                }
                if self.realtime_due(result.depth, elapsed) {
                    out("MESSAGE REALTIME REFRESH");
                    out(&format!("MESSAGE REALTIME BEST {}", result.best));
                }
            }
            Report::Root { event, elapsed } => {
                if self.realtime_due(event.depth, elapsed) {
                    let what = match event.kind {
                        RootEventKind::Enter => "POS",
                        RootEventKind::Leave => "DONE",
                        RootEventKind::Best => "BEST",
                        RootEventKind::Lost => "LOST",
                    };
                    out(&format!("MESSAGE REALTIME {what} {}", event.mv));
                }
            }
            Report::Finished { result, .. } => {
                *self.last.lock() = result.lines.clone();
            }
        }
    }

    /// `MESSAGE (i) score | depth-seldepth | line`, one per principal variation.
    fn multi_pv_lines(&self, r: &SearchResult) {
        for (i, line) in r.lines.iter().enumerate() {
            (self.out)(&format!(
                "MESSAGE ({}) {} | {}-{} | {}",
                i + 1,
                format_score(line.score),
                r.depth,
                line.seldepth,
                moves(&line.pv)
            ));
        }
    }

    /// The `INFO` block of each principal variation.
    fn info(&self, r: &SearchResult, total_nodes: u64, elapsed: Duration) {
        let ms = if self.clock {
            elapsed.as_millis() as u64
        } else {
            0
        };
        let speed = if self.clock {
            total_nodes * 1000 / ms.max(1)
        } else {
            0
        };
        let single = [Line {
            score: r.score,
            pv: r.pv.clone(),
            seldepth: r.seldepth,
            nodes: r.nodes,
        }];
        let lines = if r.lines.is_empty() {
            &single[..]
        } else {
            &r.lines[..]
        };
        let out = self.out;
        for (i, line) in lines.iter().enumerate() {
            out(&format!("INFO PV {}", i + 1));
            out(&format!("INFO NUMPV {}", lines.len()));
            out(&format!("INFO DEPTH {}", r.depth));
            out(&format!("INFO SELDEPTH {}", line.seldepth));
            out(&format!("INFO NODES {}", line.nodes));
            out(&format!("INFO TOTALNODES {total_nodes}"));
            out(&format!("INFO TOTALTIME {ms}"));
            out(&format!("INFO SPEED {speed}"));
            out(&format!("INFO EVAL {}", format_score(line.score)));
            out(&format!("INFO WINRATE {:.4}", win_rate(line.score)));
            out(&format!("INFO BESTLINE {}", moves(&line.pv)));
            out("INFO PV DONE");
        }
    }
}

/// Moves as `x,y x,y ...`.
pub fn moves(pv: &[Pos]) -> String {
    let text: Vec<String> = pv.iter().map(Pos::to_string).collect();
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::{RootEvent, WIN};

    fn result(depth: u32, lines: usize) -> SearchResult {
        let mut r = SearchResult::unsearched(Pos::new(7, 7));
        r.depth = depth;
        r.score = 120;
        r.seldepth = depth + 3;
        r.lines = (0..lines)
            .map(|i| Line {
                score: 120 - 50 * i as i32,
                pv: vec![Pos::new(7 + i, 7), Pos::new(8, 8)],
                seldepth: depth + 3,
                nodes: 10,
            })
            .collect();
        r
    }

    fn printed(detail: u8, clock: bool, multi: bool, reports: &[Report<'_>]) -> Vec<String> {
        let lines = Mutex::new(Vec::new());
        let sink = |l: &str| lines.lock().push(l.to_string());
        let p = Printer::new(&sink, detail, clock, multi);
        for r in reports {
            p.report(*r);
        }
        lines.into_inner()
    }

    fn event(kind: RootEventKind, depth: u32, ms: u64) -> Report<'static> {
        Report::Root {
            event: RootEvent {
                kind,
                mv: Pos::new(3, 4),
                depth,
            },
            elapsed: Duration::from_millis(ms),
        }
    }

    #[test]
    fn markers_wait_for_depth_and_time_and_follow_the_level() {
        let reports = [
            event(RootEventKind::Enter, 7, 900),
            event(RootEventKind::Enter, 8, 100),
            event(RootEventKind::Lost, 8, 250),
            event(RootEventKind::Best, 9, 300),
        ];
        assert_eq!(
            printed(1, true, false, &reports),
            ["MESSAGE REALTIME LOST 3,4", "MESSAGE REALTIME BEST 3,4"]
        );
        // Without a clock (deterministic mode) depth alone decides.
        assert_eq!(printed(3, false, false, &reports).len(), 3);
        for level in [0, 2] {
            assert!(printed(level, true, false, &reports).is_empty());
        }
    }

    #[test]
    fn iterations_print_the_log_the_block_and_the_lines() {
        let r = result(9, 2);
        let it = Report::Iteration {
            result: &r,
            nodes: 5000,
            elapsed: Duration::from_millis(250),
        };
        let all = printed(3, true, true, &[it]);
        assert_eq!(
            all[0],
            "MESSAGE depth 9 score 120 nodes 5000 nps 20000 time 250 pv 7,7"
        );
        assert_eq!(all[1], "MESSAGE (1) 120 | 9-12 | 7,7 8,8");
        assert_eq!(all[2], "MESSAGE (2) 70 | 9-12 | 8,7 8,8");
        let block: Vec<&str> = all[3..15].iter().map(String::as_str).collect();
        assert_eq!(
            block,
            [
                "INFO PV 1",
                "INFO NUMPV 2",
                "INFO DEPTH 9",
                "INFO SELDEPTH 12",
                "INFO NODES 10",
                "INFO TOTALNODES 5000",
                "INFO TOTALTIME 250",
                "INFO SPEED 20000",
                "INFO EVAL 120",
                &format!("INFO WINRATE {:.4}", win_rate(120)),
                "INFO BESTLINE 7,7 8,8",
                "INFO PV DONE",
            ]
        );
        assert_eq!(all[15], "INFO PV 2");
        assert_eq!(
            &all[all.len() - 2..],
            ["MESSAGE REALTIME REFRESH", "MESSAGE REALTIME BEST 7,7"]
        );
        // Deterministic: no times; level 0 keeps only the asked-for lines.
        let still = printed(2, false, false, &[it]);
        assert_eq!(
            still[0],
            "MESSAGE depth 9 score 120 nodes 5000 nps 0 time 0 pv 7,7"
        );
        assert!(still.contains(&"INFO TOTALTIME 0".to_string()));
        assert_eq!(printed(0, true, true, &[it]).len(), 2);
        assert!(printed(0, true, false, &[it]).is_empty());
    }

    #[test]
    fn the_end_keeps_the_lines_and_proven_scores_read_as_certain() {
        let mut r = result(5, 3);
        r.lines[2].score = -(WIN - 4);
        let sink = |_: &str| {};
        let p = Printer::new(&sink, 0, true, true);
        p.report(Report::Finished {
            result: &r,
            workers: 1,
            worker: 0,
            panicked: &[],
            elapsed: Duration::ZERO,
        });
        assert_eq!(p.last_lines(), r.lines);
        let all = printed(
            2,
            true,
            false,
            &[Report::Iteration {
                result: &r,
                nodes: 1,
                elapsed: Duration::ZERO,
            }],
        );
        assert!(all.contains(&"INFO EVAL loss 4".to_string()), "{all:#?}");
        assert!(all.contains(&"INFO WINRATE 0.0000".to_string()));
    }
}
