//! One search thread: the persistent [`Worker`] (what it learns over a game), and iterative
//! deepening with aspiration windows over one search's state ([`Run`], in `run`).
//!
//! A `Run` lives for one call of [`Worker::search`]; the only state that outlives it is the
//! worker's history table, halved before every iteration.

use super::history::History;
use super::run::{CutCounts, Frame, Run};
use super::score::{is_proven, win_in};
use super::{
    Context, Line, Params, Progress, RootOptions, SearchResult, Silent, MAX_DEPTH, MAX_PLY,
};
use crate::evaluation::movegen;
use crate::evaluation::position::Position;
use crate::game::board::Board;
use crate::game::pattern::Threat;
use crate::game::rules::Rule;
use crate::search::busy::BusyMoves;
use crate::search::timeman::Stability;
use std::sync::Arc;
use std::time::Instant;

/// One search thread's persistent state.
pub struct Worker {
    index: usize,
    /// The switches and tunables.
    pub params: Params,
    /// Root options of the next search only: [`Worker::search`] takes (and so clears) them.
    pub root_options: RootOptions,
    /// What cut off before: the history of quiet moves and reducible threats, and counter moves.
    history: Box<History>,
    /// The marks of the moves the other workers are searching (lazy SMP only).
    busy: Option<Arc<BusyMoves>>,
    cuts: CutCounts,
}

impl Worker {
    /// Worker number `index` (0 = the deterministic main worker).
    pub fn new(index: usize, params: Params) -> Worker {
        Worker {
            index,
            params,
            root_options: RootOptions::default(),
            history: History::new(),
            busy: None,
            cuts: CutCounts::default(),
        }
    }

    /// Shares `busy` with the other workers of a lazy SMP search: a move another worker is
    /// searching is put off until the node's other moves are done. `None` (one worker) keeps
    /// the move order independent of anything else.
    pub fn set_busy(&mut self, busy: Option<Arc<BusyMoves>>) {
        self.busy = busy;
    }

    /// The cut-offs counted over this worker's searches so far.
    pub fn cut_counts(&self) -> CutCounts {
        self.cuts
    }

    /// Forgets what was learnt (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    /// Searches `board` (side to move = the mover) under `rule` within `ctx.plan` and returns
    /// the best move. The board must have an empty point.
    pub fn search(&mut self, ctx: &Context<'_>, board: &Board, rule: Rule) -> SearchResult {
        self.search_with(ctx, board, rule, &Silent)
    }

    /// [`Worker::search`], also telling `progress` about every completed iteration, the root
    /// events of the first principal variation and the node count as it grows. The hook never
    /// changes what is searched.
    pub fn search_with(
        &mut self,
        ctx: &Context<'_>,
        board: &Board,
        rule: Rule,
        progress: &dyn Progress,
    ) -> SearchResult {
        let mut run = Run {
            pos: Position::with_weights(board, rule, self.params.weights),
            ctx,
            progress,
            params: self.params,
            history: &mut self.history,
            cuts: &mut self.cuts,
            nodes: 0,
            max_nodes: ctx.plan.max_nodes.unwrap_or(u64::MAX),
            aborted: false,
            stack: (0..MAX_PLY + 2).map(|_| Frame::new()).collect(),
            root: Vec::new(),
            pv_idx: 0,
            seldepth: 0,
            iteration_best: None,
            options: std::mem::take(&mut self.root_options),
            busy: self.busy.as_deref(),
        };
        let max_depth = ctx.plan.max_depth.map_or(MAX_DEPTH, |d| d.min(MAX_DEPTH));
        run.iterate(self.index, max_depth)
    }
}

impl Run<'_, '_> {
    /// Iterative deepening from depth 1 to `max_depth`, until the soft deadline, a proven score
    /// or an abandoned iteration; the answer is the last completed iteration, or, with
    /// [`Params::partial_iteration`], the move the abandoned iteration found better than the
    /// first move it searched.
    fn iterate(&mut self, worker: usize, max_depth: u32) -> SearchResult {
        let fast = movegen::fast_move(&mut self.pos).expect("an empty point");
        let mut result = SearchResult::unsearched(fast);
        // An immediate five needs no search; an instant plan gets the top of the ladder.
        if self.pos.has_at_least(self.pos.side_to_move(), Threat::Five) {
            result.score = win_in(1);
            // Its one line, so that a caller reading lines (multi-PV, a judgement of the
            // position) sees the win like any other result.
            result.lines = vec![Line {
                score: result.score,
                pv: result.pv.clone(),
                seldepth: 0,
                nodes: 0,
            }];
            return result;
        }
        if self.ctx.plan.instant {
            return result;
        }
        self.init_root(worker);
        if self.root.is_empty() {
            return result;
        }
        let lines = self.options.lines.clamp(1, self.root.len());
        let mut prev = 0;
        // The static evaluation favours the side to move at the leaves, so scores alternate
        // between odd and even depths: the aspiration window is centred on the last score of
        // the same parity when there is one.
        let mut by_parity = [None; 2];
        let mut stability = Stability::default();
        for depth in 1..=max_depth as i32 {
            self.history.age();
            let centre = by_parity[(depth % 2) as usize].unwrap_or(prev);
            let Some(score) = self.iteration(depth, lines, centre, &result.lines) else {
                if self.params.partial_iteration && lines == 1 {
                    self.adopt_iteration_best(depth, &mut result);
                }
                break;
            };
            prev = score;
            by_parity[(depth % 2) as usize] = Some(score);
            result = self.result_of(depth as u32, score, lines);
            self.progress.iteration(&result);
            if is_proven(score) {
                break;
            }
            // The soft deadline is the first worker's call: it stretches with that worker's
            // doubt, and a helper, whose rotated root order makes its own doubt differ, would
            // otherwise end the move for all by its own. Helpers stop with the first worker or
            // at the hard deadline.
            stability.completed(depth as u32, result.best.index(), score);
            if worker == 0 && self.ctx.plan.stop_iterating(Instant::now(), &stability) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration: each of the `lines` principal variations in turn, the first in an
    /// aspiration window around `centre`, the others around their score in `last` (the previous
    /// iteration's lines). The first line's score, or `None` once the search is abandoned.
    fn iteration(&mut self, depth: i32, lines: usize, centre: i32, last: &[Line]) -> Option<i32> {
        for r in &mut self.root {
            r.nodes = 0;
        }
        let mut first = 0;
        for pv_idx in 0..lines {
            self.pv_idx = pv_idx;
            self.seldepth = 0;
            let centre = if pv_idx == 0 {
                Some(centre)
            } else {
                last.get(pv_idx).map(|l| l.score)
            };
            let score = self.aspiration(depth, centre);
            if self.aborted {
                return None;
            }
            self.root[pv_idx].seldepth = self.seldepth as u32;
            if pv_idx == 0 {
                first = score;
            }
        }
        self.pv_idx = 0;
        if lines > 1 {
            // Each line is the best of what the earlier ones left, but a later line's own
            // search may still score above an earlier one's: present them best first (stably,
            // so a single line never moves). The first line's score is the iteration's.
            self.root[..lines].sort_by_key(|r| std::cmp::Reverse(r.score));
            first = self.root[0].score;
        }
        Some(first)
    }

    /// After the iteration at `depth` was abandoned: its best move so far replaces `result`'s
    /// (the last completed iteration's) when it is another move, since it beat at this depth
    /// the move `result` chose, which was searched first. The depth stays the completed one's,
    /// so that lazy SMP still prefers a worker that completed this depth.
    fn adopt_iteration_best(&mut self, depth: i32, result: &mut SearchResult) {
        let Some(b) = self.iteration_best.take() else {
            return;
        };
        if b.depth != depth || b.mv == result.best || result.depth == 0 {
            return;
        }
        let spent = self
            .root
            .iter()
            .find(|r| r.mv.pos == b.mv)
            .map_or(0, |r| r.nodes);
        result.best = b.mv;
        result.score = b.score;
        result.pv = b.pv.clone();
        result.lines = vec![Line {
            score: b.score,
            pv: b.pv,
            seldepth: self.seldepth as u32,
            nodes: spent,
        }];
    }

    /// The answer after the iteration at `depth` (first line's score `score`) completed.
    fn result_of(&self, depth: u32, score: i32, lines: usize) -> SearchResult {
        let best = &self.root[0];
        SearchResult {
            best: best.mv.pos,
            score,
            depth,
            seldepth: best.seldepth,
            nodes: self.nodes,
            pv: best.pv.clone(),
            lines: self.root[..lines]
                .iter()
                .map(|r| Line {
                    score: r.score,
                    pv: r.pv.clone(),
                    seldepth: r.seldepth,
                    nodes: r.nodes,
                })
                .collect(),
        }
    }

    /// One line's search inside an aspiration window around the last score (`None`: the full
    /// window), widened on failure until the score falls inside (the final score equals a
    /// full-window search's).
    fn aspiration(&mut self, depth: i32, prev: Option<i32>) -> i32 {
        let inf = super::INF;
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) = match prev {
            Some(prev)
                if self.params.aspiration
                    && depth >= self.params.aspiration_min_depth
                    && !is_proven(prev) =>
            {
                (prev - delta, prev + delta)
            }
            _ => (-inf, inf),
        };
        loop {
            let score = self.root_search(depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -inf {
                alpha = (score - delta).max(-inf);
            } else if score >= beta && beta < inf {
                beta = (score + delta).min(inf);
            } else {
                return score;
            }
            delta = delta.saturating_mul(4);
            if delta > 50_000 {
                alpha = -inf;
                beta = inf;
            }
        }
    }
}
