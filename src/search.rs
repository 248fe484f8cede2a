//! The alpha-beta search worker: negamax with principal variation search, iterative deepening,
//! aspiration windows, a quiescence search on fours, late move reductions, killers and history.
//!
//! # Shape (built for lazy SMP)
//! Shared, read-mostly state lives in [`Shared`]: the transposition table, the `stop` flag and
//! the time [`Plan`]. Everything a thread mutates lives in its [`Worker`] (history, which
//! survives between moves of a game) and in the per-search `Run` (its own [`Position`] copy,
//! killers, PV table, node count). N workers can therefore search one position at once, each
//! with its own `Worker`, borrowing the same `Shared`; worker `i` rotates its root move order by
//! `i`, and workers given the shared busy-move marks ([`Worker::set_busy`], see
//! [`crate::busy`]) put off a move another worker is searching (at the root and at inner nodes
//! of remaining depth at least [`tune::DEFER_MIN_DEPTH`]), so the threads spread out over
//! moves. Worker 0 with a fixed depth or node budget is deterministic: same position, same
//! move, score and node count.
//!
//! # Scores
//! From the side to move's view. A win is `WIN - plies` where `plies` counts the moves from the
//! root to the winning stone, so the fastest win and the slowest loss score best; any score
//! with magnitude at least [`WIN_MIN`] is proven. The table stores win scores relative to the
//! node (plies from the node) and they are re-based on probe.
//!
//! # Switches
//! [`Params`] holds the features that change values (LMR, threat pruning) or only speed (TT,
//! PVS, aspiration), so they can be judged one at a time; the margins live in [`tune`].
//! [`Params::from_env`] overrides them from `BANGO_*` variables so that two copies of the same
//! binary can play each other in the arena with one feature switched.

use crate::board::{Board, Pos, CELLS};
use crate::busy::BusyMoves;
use crate::eval::Position;
use crate::movegen::{self, Move, Scope, QUIET_RANK};
use crate::pattern::Threat;
use crate::rules::Rule;
use crate::timeman::Plan;
use crate::tt::{Bound, TranspositionTable};
use crate::vcf::{Budget, Proof, VcfSolver};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of a win on the board now (0 plies away).
pub const WIN: i32 = 1_000_000;
/// Scores at least this large in magnitude are proven wins or losses.
pub const WIN_MIN: i32 = WIN - 1000;
/// Larger than any score.
pub const INF: i32 = WIN + 1;
/// The deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;

/// The tunable margins of the search, in one place.
pub mod tune {
    /// Half-width of the first aspiration window.
    pub const ASPIRATION_DELTA: i32 = 400;
    /// Aspiration starts at this depth.
    pub const ASPIRATION_MIN_DEPTH: i32 = 4;
    /// Lazy SMP puts off moves another worker is searching at nodes of at least this
    /// remaining depth (shallower nodes are too cheap to share).
    pub const DEFER_MIN_DEPTH: i32 = 3;
    /// LMR applies at nodes of at least this remaining depth, to quiet moves from
    /// [`LMR_MIN_INDEX`] on. At 2 (was 3), a late quiet move of a node just above the horizon
    /// goes straight to the quiescence. Self-play at 100 ms a move against 3: 935-841-24 in
    /// 1800 games, +18.2 ± 16.0 Elo; depth 11 over the bench set takes 11% fewer nodes.
    pub const LMR_MIN_DEPTH: i32 = 2;
    /// LMR applies to quiet moves from this index in the ordered list (at nodes of at least
    /// [`LMR_MIN_DEPTH`]).
    pub const LMR_MIN_INDEX: usize = 3;
    /// Nodes between two reads of the clock and the stop flag (a power of two).
    pub const POLL_NODES: u64 = 256;
    /// Moves of ladder rank at most this (an own open three, blocking one, or quiet) may be
    /// reduced and pruned; fours, double threes and their blocks never are.
    pub const REDUCIBLE_RANK: u8 = 3;
    /// Own fours the quiescence search may play in a row.
    pub const QSEARCH_FOURS: i32 = 2;
    /// Node budget of the VCF proof search at a quiescence entry (0: none).
    pub const HORIZON_VCF_NODES: u32 = 0;
    /// The horizon VCF runs only when the mover has at least this many cells that make a four.
    pub const HORIZON_VCF_MIN_FOURS: u16 = 2;
    /// The horizon VCF solver's refutation table is emptied when it holds more entries.
    pub const HORIZON_VCF_TABLE: usize = 1 << 16;

    /// The reduction of a late quiet move, growing with depth and lateness (the usual
    /// log-log shape, `ln d · ln i / 1.5`), at least one ply, and [`LMR_NON_PV`] more outside
    /// the principal variation.
    #[inline]
    pub fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
        let r = (depth as f32).ln() * (index as f32).ln() / 1.5;
        (r as i32).max(1) + if pv_node { 0 } else { LMR_NON_PV }
    }

    /// The extra reduction of a late quiet move at a node off the principal variation, where a
    /// zero window only has to show the move is no better. Self-play at 100 ms a move against
    /// none: 649-541-10 in 1200 games, +31.4 ± 19.7 Elo; depth 11 over the bench set takes 17%
    /// fewer nodes.
    pub const LMR_NON_PV: i32 = 1;

    /// Move-count pruning: at a non-PV node of remaining depth `depth`, quiet moves after this
    /// many are not searched at all, at any depth: `3 + d²`, never more than
    /// [`MAX_QUIET_MOVES`]. Only moves of rank at most [`REDUCIBLE_RANK`] that are not killers
    /// count as quiet; the table move is searched first.
    #[inline]
    pub fn late_move_count(depth: i32) -> usize {
        (3 + depth * depth).min(MAX_QUIET_MOVES) as usize
    }

    /// Move-count pruning's cap: a quiet move at this index or later of a non-PV node's
    /// ordered list is pruned at every depth. Self-play at 100 ms a move, together with the
    /// `/ 1.5` of [`lmr_reduction`] (was `/ 2` with no cap and pruning only up to depth 8):
    /// 1539-1433-28 in 3000 games, +12.3 ± 12.4 Elo.
    pub const MAX_QUIET_MOVES: i32 = 10;
}

/// Search features that can be switched off (for equivalence tests and self-play judgement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Use the transposition table (probe cut-offs and move).
    pub tt: bool,
    /// Principal variation search: zero-window scouts after the first move.
    pub pvs: bool,
    /// Aspiration windows at the root.
    pub aspiration: bool,
    /// Late move reductions (changes values).
    pub lmr: bool,
    /// Move-count pruning of late quiet moves (changes values).
    pub move_count_pruning: bool,
    /// Restrict moves to defences when the opponent has an open three (changes values at the
    /// horizon; see [`crate::movegen::Scope::Defend`]).
    pub threat_prune: bool,
    /// Own fours the quiescence search may play in a row (changes values).
    pub qsearch_fours: i32,
    /// Under freestyle and standard, the last of those fours must be one that can still lead
    /// to a win: a four-three, a four that makes a point of two fours, or one whose block makes
    /// a four (changes values; see the quiescence's step Q7). It keeps every proof of the
    /// freestyle and standard VCF puzzles at depth 1 and 2 with about half the nodes. Self-play
    /// at 100 ms against it off: +8.4 ± 19.5 Elo in 1200 games, and +12.4 ± 11.3 in 3600
    /// together with its first form (only four-threes kept).
    pub qsearch_prune_last_four: bool,
    /// Node budget of a VCF proof search at each quiescence entry, 0 for none (changes values).
    pub horizon_vcf: u32,
    /// Evaluate every leaf from scratch instead of incrementally (a slow oracle for tests).
    pub full_eval: bool,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            tt: true,
            pvs: true,
            aspiration: true,
            lmr: true,
            move_count_pruning: true,
            threat_prune: true,
            full_eval: false,
            qsearch_fours: tune::QSEARCH_FOURS,
            qsearch_prune_last_four: true,
            horizon_vcf: tune::HORIZON_VCF_NODES,
        }
    }
}

/// The environment variables read by [`Params::from_env`], with the switch each sets.
pub const PARAM_VARS: [&str; 9] = [
    "BANGO_TT",
    "BANGO_PVS",
    "BANGO_ASPIRATION",
    "BANGO_LMR",
    "BANGO_MCP",
    "BANGO_THREAT_PRUNE",
    "BANGO_QSEARCH_FOURS",
    "BANGO_HORIZON_VCF",
    "BANGO_QSEARCH_PRUNE_LAST_FOUR",
];

impl Params {
    /// The defaults with any switch overridden by the environment (for self-play judgement of
    /// one feature at a time): `BANGO_TT`, `BANGO_PVS`, `BANGO_ASPIRATION`, `BANGO_LMR`,
    /// `BANGO_MCP` (move-count pruning), `BANGO_THREAT_PRUNE`,
    /// `BANGO_QSEARCH_PRUNE_LAST_FOUR` take `0`/`1` (also
    /// `off`/`on`, `false`/`true`); `BANGO_QSEARCH_FOURS` and `BANGO_HORIZON_VCF` (nodes) a
    /// number. A value that does not parse is reported on stderr and ignored.
    pub fn from_env() -> Params {
        Params::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Params::from_env`] over any variable source (`var(name)` is the value, if set).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Params {
        let mut p = Params::default();
        for name in PARAM_VARS {
            let Some(value) = var(name) else { continue };
            let v = value.trim().to_ascii_lowercase();
            let flag = match v.as_str() {
                "1" | "on" | "true" | "yes" => Some(true),
                "0" | "off" | "false" | "no" => Some(false),
                _ => None,
            };
            let ok = if name == "BANGO_QSEARCH_FOURS" {
                match v.parse::<i32>() {
                    Ok(n) if n >= 0 => {
                        p.qsearch_fours = n;
                        true
                    }
                    _ => false,
                }
            } else if name == "BANGO_HORIZON_VCF" {
                v.parse::<u32>().map(|n| p.horizon_vcf = n).is_ok()
            } else {
                let field = match name {
                    "BANGO_TT" => &mut p.tt,
                    "BANGO_PVS" => &mut p.pvs,
                    "BANGO_ASPIRATION" => &mut p.aspiration,
                    "BANGO_LMR" => &mut p.lmr,
                    "BANGO_MCP" => &mut p.move_count_pruning,
                    "BANGO_QSEARCH_PRUNE_LAST_FOUR" => &mut p.qsearch_prune_last_four,
                    _ => &mut p.threat_prune,
                };
                flag.map(|f| *field = f).is_some()
            };
            if !ok {
                eprintln!("bango: ignoring {name}={value:?} (not a valid setting)");
            }
        }
        p
    }

    /// Only the features that never change the root score at a fixed depth.
    pub fn exact() -> Params {
        Params {
            lmr: false,
            move_count_pruning: false,
            horizon_vcf: 0,
            ..Params::default()
        }
    }
}

/// State shared by every worker of one search.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Raised when the move must be answered now.
    pub stop: &'a AtomicBool,
    /// The time plan.
    pub plan: Plan,
}

/// Depth and node caps of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Last iteration to run.
    pub max_depth: u32,
    /// Abandon the search at this many nodes.
    pub max_nodes: u64,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            max_depth: (MAX_PLY / 2) as u32,
            max_nodes: u64::MAX,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Pos,
    /// Its score (0 when no iteration completed).
    pub score: i32,
    /// The last completed iteration (0 = none; the move is the top of the ladder).
    pub depth: u32,
    /// Nodes searched, abandoned iteration included.
    pub nodes: u64,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<Pos>,
}

/// Receives a worker's progress while it searches: the hook through which lazy SMP aggregates
/// its workers. Calls come from the searching thread only.
pub trait Progress {
    /// An iteration completed; `result` is as [`Worker::search`] would return it now.
    fn iteration(&self, result: &SearchResult);
    /// The worker has searched `nodes` nodes so far (called about every [`tune::POLL_NODES`]).
    fn nodes(&self, nodes: u64);
}

/// No progress hook (the single-worker search).
struct Silent;

impl Progress for Silent {
    fn iteration(&self, _: &SearchResult) {}
    fn nodes(&self, _: u64) {}
}

/// Advice about the root moves of the next search (opening book, opening prior). Empty hints
/// change nothing, so the search stays value-preserving without them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RootHints {
    /// Searched first, in this order (ahead of the table move); the search still decides.
    pub first: Vec<Pos>,
    /// Left out of the root, unless that would leave no move.
    pub skip: Vec<Pos>,
    /// When not empty, the root keeps only these moves (unless none of them is generated).
    pub only: Vec<Pos>,
}

/// One search thread's persistent state.
pub struct Worker {
    index: usize,
    /// The feature switches.
    pub params: Params,
    /// Hints for the next search only: [`Worker::search`] takes (and so clears) them.
    pub root_hints: RootHints,
    history: Vec<[i32; CELLS]>,
    vcf: VcfSolver,
    scratch: Board,
    /// The marks of the moves the other workers are searching (lazy SMP only).
    busy: Option<std::sync::Arc<BusyMoves>>,
}

impl Worker {
    /// Worker number `index` (0 = the deterministic main worker).
    pub fn new(index: usize, params: Params) -> Worker {
        Worker {
            index,
            params,
            root_hints: RootHints::default(),
            history: vec![[0; CELLS]; 2],
            vcf: VcfSolver::new(),
            scratch: Board::new(15),
            busy: None,
        }
    }

    /// Shares `busy` with the other workers of a lazy SMP search: a move another worker is
    /// searching is put off until the node's other moves are done. `None` (one worker) keeps
    /// the move order independent of anything else.
    pub fn set_busy(&mut self, busy: Option<std::sync::Arc<BusyMoves>>) {
        self.busy = busy;
    }

    /// Forgets what was learnt (a new game).
    pub fn clear(&mut self) {
        for h in &mut self.history {
            h.fill(0);
        }
    }

    /// Searches `board` (side to move = the mover) under `rule` and returns the best move.
    /// `output` receives one line per completed iteration. The board must have an empty point.
    pub fn search(
        &mut self,
        shared: &Shared<'_>,
        board: &Board,
        rule: Rule,
        caps: Caps,
        output: &dyn Fn(&str),
    ) -> SearchResult {
        self.search_with(shared, board, rule, caps, output, &Silent)
    }

    /// [`Worker::search`], also telling `progress` about every completed iteration and the
    /// node count as it grows. The hook never changes what is searched.
    pub fn search_with(
        &mut self,
        shared: &Shared<'_>,
        board: &Board,
        rule: Rule,
        caps: Caps,
        output: &dyn Fn(&str),
        progress: &dyn Progress,
    ) -> SearchResult {
        let started = Instant::now();
        // A fresh refutation table per search keeps one position's result independent of
        // what was searched before it.
        self.vcf.clear();
        let mut run = Run {
            pos: Position::new(board, rule),
            shared,
            progress,
            params: self.params,
            history: &mut self.history,
            nodes: 0,
            max_nodes: caps.max_nodes,
            aborted: false,
            killers: vec![[None; 2]; MAX_PLY + 2],
            pv: vec![[Pos(0); MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            root: Vec::new(),
            hints: std::mem::take(&mut self.root_hints),
            vcf: &mut self.vcf,
            scratch: &mut self.scratch,
            busy: self.busy.as_deref(),
            deferred: vec![Vec::new(); MAX_PLY + 2],
        };
        run.iterate(self.index, caps.max_depth, started, output)
    }
}

struct RootMove {
    pos: Pos,
    score: i32,
    pv: Vec<Pos>,
}

struct Run<'a, 's> {
    pos: Position,
    shared: &'a Shared<'s>,
    progress: &'a dyn Progress,
    params: Params,
    history: &'a mut Vec<[i32; CELLS]>,
    nodes: u64,
    max_nodes: u64,
    aborted: bool,
    killers: Vec<[Option<Pos>; 2]>,
    pv: Vec<[Pos; MAX_PLY + 2]>,
    pv_len: Vec<usize>,
    buffers: Vec<Vec<Move>>,
    root: Vec<RootMove>,
    hints: RootHints,
    vcf: &'a mut VcfSolver,
    scratch: &'a mut Board,
    busy: Option<&'a BusyMoves>,
    /// Per ply, the moves put off because another worker was searching them (move, place in
    /// the ordered list, quiet).
    deferred: Vec<Vec<(Move, usize, bool)>>,
}

/// A win for the side to move with its winning stone `plies` moves from the root.
#[inline]
fn win_in(plies: usize) -> i32 {
    WIN - plies as i32
}

#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_MIN {
        s + ply as i32
    } else if s <= -WIN_MIN {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_MIN {
        s - ply as i32
    } else if s <= -WIN_MIN {
        s + ply as i32
    } else {
        s
    }
}

/// Moves the highest-keyed move of `moves[i..]` to index `i`.
#[inline]
fn pick(moves: &mut [Move], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].order > moves[best].order {
            best = j;
        }
    }
    moves.swap(i, best);
}

/// A score for humans: `win 5` / `loss 4` (plies to the winning stone) or centi-stones.
pub fn format_score(s: i32) -> String {
    if s >= WIN_MIN {
        format!("win {}", WIN - s)
    } else if s <= -WIN_MIN {
        format!("loss {}", WIN + s)
    } else {
        s.to_string()
    }
}

impl Run<'_, '_> {
    /// Counts a node and says whether the search must unwind (stop flag, deadline, node cap).
    #[inline]
    fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes & (tune::POLL_NODES - 1) == 0 {
            self.progress.nodes(self.nodes);
            let late = self.shared.plan.hard.is_some_and(|h| Instant::now() >= h);
            if late || self.shared.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        if self.params.full_eval {
            self.pos.evaluate_full()
        } else {
            self.pos.evaluate()
        }
    }

    /// Positions decided by the threats on the board, before any move is searched.
    #[inline]
    fn decided(&mut self, ply: usize) -> Option<i32> {
        let me = self.pos.side_to_move();
        let op = me.opponent();
        // A five to make wins now.
        if self.pos.has_at_least(me, Threat::Five) {
            return Some(win_in(ply + 1));
        }
        let caro = self.pos.rule() == Rule::Caro;
        let op_fives = self.pos.rung_count(op, Threat::Five);
        // Two five points cannot both be blocked (under caro one block may close the other).
        if op_fives >= 2 && !caro {
            return Some(-win_in(ply + 2));
        }
        // An open four (or double four) wins when the opponent has no five to make first.
        if op_fives == 0
            && !caro
            && movegen::find_usable(&mut self.pos, me, Threat::OpenFour).is_some()
        {
            return Some(win_in(ply + 3));
        }
        None
    }

    fn iterate(
        &mut self,
        worker: usize,
        max_depth: u32,
        started: Instant,
        output: &dyn Fn(&str),
    ) -> SearchResult {
        let fast = movegen::fast_move(&mut self.pos).expect("an empty point");
        let mut result = SearchResult {
            best: fast,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![fast],
        };
        // An immediate five needs no search; an instant plan gets the top of the ladder.
        if self.pos.has_at_least(self.pos.side_to_move(), Threat::Five) {
            result.score = win_in(1);
            return result;
        }
        if self.shared.plan.instant {
            return result;
        }
        self.init_root(worker);
        if self.root.is_empty() {
            return result;
        }
        let mut prev = 0;
        // The static evaluation favours the side to move at the leaves, so scores alternate
        // between odd and even depths: the aspiration window is centred on the last score of
        // the same parity when there is one.
        let mut by_parity = [None; 2];
        let last = max_depth.min((MAX_PLY / 2) as u32) as i32;
        for depth in 1..=last {
            for h in self.history.iter_mut() {
                for v in h.iter_mut() {
                    *v /= 2;
                }
            }
            let centre = by_parity[(depth % 2) as usize].unwrap_or(prev);
            let score = self.aspiration(depth, centre);
            if self.aborted {
                break;
            }
            prev = score;
            by_parity[(depth % 2) as usize] = Some(score);
            let best = &self.root[0];
            result = SearchResult {
                best: best.pos,
                score,
                depth: depth as u32,
                nodes: self.nodes,
                pv: best.pv.clone(),
            };
            let elapsed = started.elapsed();
            let ms = elapsed.as_millis() as u64;
            let nps = self.nodes * 1000 / ms.max(1);
            let pv: Vec<String> = result.pv.iter().map(|p| p.to_string()).collect();
            output(&format!(
                "depth {depth} score {} nodes {} nps {nps} time {ms} pv {}",
                format_score(score),
                self.nodes,
                pv.join(" ")
            ));
            self.progress.iteration(&result);
            if score.abs() >= WIN_MIN {
                break;
            }
            if self.shared.plan.soft.is_some_and(|s| Instant::now() >= s) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn init_root(&mut self, worker: usize) {
        let mut moves = Vec::new();
        movegen::generate(&mut self.pos, self.params.threat_prune, &mut moves);
        let tt_move = if self.params.tt {
            self.shared.tt.probe(self.pos.key()).and_then(|e| e.best)
        } else {
            None
        };
        self.order(&mut moves, tt_move, 0);
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.order));
        self.apply_hints(&mut moves);
        self.root = moves
            .iter()
            .map(|m| RootMove {
                pos: m.pos,
                score: -INF,
                pv: vec![m.pos],
            })
            .collect();
        if worker > 0 && !self.root.is_empty() {
            let n = worker % self.root.len();
            self.root.rotate_left(n);
        }
    }

    /// Keeps only the `only` moves and drops the skipped ones (each unless no move would
    /// remain), then moves the hinted ones to the front in hint order; everything else keeps
    /// its order.
    fn apply_hints(&self, moves: &mut Vec<Move>) {
        let h = &self.hints;
        if !h.only.is_empty() && moves.iter().any(|m| h.only.contains(&m.pos)) {
            moves.retain(|m| h.only.contains(&m.pos));
        }
        if !h.skip.is_empty() && moves.iter().any(|m| !h.skip.contains(&m.pos)) {
            moves.retain(|m| !h.skip.contains(&m.pos));
        }
        if !h.first.is_empty() {
            let rank = |p: Pos| h.first.iter().position(|&q| q == p).unwrap_or(usize::MAX);
            moves.sort_by_key(|m| rank(m.pos));
        }
    }

    /// One iteration inside an aspiration window around the last score, widened on failure
    /// until the score falls inside (the final score equals a full-window search's).
    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut delta = tune::ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if self.params.aspiration
            && depth >= tune::ASPIRATION_MIN_DEPTH
            && prev.abs() < WIN_MIN
        {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -INF {
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta = delta.saturating_mul(4);
            if delta > 50_000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INF;
        let mut best_move = None;
        let orig_alpha = alpha;
        self.pv_len[0] = 0;
        // Lazy SMP: every worker's root order is last iteration's, so after the first move the
        // workers would walk the root's moves in step, both searching each one. A root move
        // another worker is searching now is put off to the end instead, as at inner nodes:
        // the workers split the root, and a put-off move usually finds the other's result in
        // the table when it comes back round.
        let root_key = self.pos.key();
        let mut deferred = Vec::new();
        let (mut next, mut next_deferred) = (0, 0);
        loop {
            // `i` is the move's place in the root list, which a put-off move keeps.
            let i = if next < self.root.len() {
                let i = next;
                next += 1;
                if i > 0
                    && self
                        .busy
                        .is_some_and(|b| b.is_busy(root_key, self.root[i].pos))
                {
                    deferred.push(i);
                    continue;
                }
                i
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            let m = self.root[i].pos;
            let marked = self.busy.map(|b| (b, b.mark(root_key, m)));
            self.pos.make(m);
            let score = if i == 0 || !self.params.pvs {
                -self.negamax(depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(depth - 1, -beta, -alpha, 1, true);
                }
                s
            };
            self.pos.unmake();
            if let Some((b, mark)) = marked {
                b.clear(mark);
            }
            if self.aborted {
                return 0;
            }
            let rm = &mut self.root[i];
            if i == 0 || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Stable: moves that did not improve keep last iteration's order.
        self.root.sort_by_key(|r| std::cmp::Reverse(r.score));
        if self.params.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                self.pos.key(),
                depth as i16,
                bound,
                score_to_tt(best, 0),
                best_move,
            );
        }
        best
    }

    /// Sets the ordering key of `moves` (searched highest first): the table's move, then
    /// threats by ladder rank, then the killers, then quiet moves by static value and history.
    /// Keys are distinct; the node picks moves lazily ([`pick`]), the root sorts.
    fn order(&self, moves: &mut [Move], tt_move: Option<Pos>, ply: usize) {
        let me = self.pos.side_to_move().index();
        let killers = self.killers[ply];
        for m in moves.iter_mut() {
            let key = if Some(m.pos) == tt_move {
                1 << 50
            } else if m.rank > QUIET_RANK {
                ((m.rank as i64) << 40) + m.value as i64
            } else if Some(m.pos) == killers[0] {
                (1 << 39) + 1
            } else if Some(m.pos) == killers[1] {
                1 << 39
            } else {
                ((m.value as i64) << 12) + self.history[me][m.pos.index()].clamp(0, 4095) as i64
            };
            // The cell breaks ties (higher index first), folded into one integer so the sort
            // compares one word: keys are below 2^51 and cells below 2^10.
            m.order = (key << 10) | m.pos.index() as i64;
        }
    }

    /// The node function. Steps are numbered as in the engines this follows.
    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // Step 1. Count the node and poll the clock: an abandoned search unwinds at once and
        // its scores are never used or stored.
        if self.poll() {
            return 0;
        }
        self.pv_len[ply] = ply;

        // Step 2. Positions the threats already decide: no search needed, and they keep the
        // fastest-win ordering exact.
        if let Some(s) = self.decided(ply) {
            return s;
        }

        // Step 3. Mate distance pruning: no line from here can beat a win already closer to the
        // root, so the window shrinks to what is still reachable.
        alpha = alpha.max(-win_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. At the horizon, resolve the fours before trusting the static evaluation.
        if depth <= 0 || ply >= MAX_PLY - 16 {
            return self.qsearch(alpha, beta, ply, self.params.qsearch_fours);
        }

        // Step 5. Transposition table: a deep enough bound that settles the window ends the node
        // (not at PV nodes, so the principal variation stays whole); its move is tried first.
        let key = self.pos.key();
        let mut tt_move = None;
        if self.params.tt {
            if let Some(e) = self.shared.tt.probe(key) {
                tt_move = e.best;
                if !pv_node && e.depth as i32 >= depth {
                    let s = score_from_tt(e.score, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        return s;
                    }
                }
            }
        }

        // Step 6. Generate once, score once, order by the ladder, table move, killers, history.
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let scope = movegen::generate(&mut self.pos, self.params.threat_prune, &mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            // No legal block of a five loses; otherwise the board is full: a draw.
            return if scope == Scope::Block {
                -win_in(ply + 2)
            } else {
                0
            };
        }
        self.order(&mut moves, tt_move, ply);

        // Step 7. The move loop.
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let me = self.pos.side_to_move();
        // Lazy SMP: a move another worker is searching now is put off until the node's other
        // moves are done, when the table is likely to hold its result (see `crate::busy`).
        let busy = self.busy.filter(|_| depth >= tune::DEFER_MIN_DEPTH);
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let (mut next, mut next_deferred, mut pruned) = (0, 0, false);
        loop {
            // `i` is the move's place in the ordered list, which a put-off move keeps.
            // Killers change only on a cut-off, which ends the loop, so a put-off move keeps
            // the quietness it was given.
            let (m, i, quiet) = if next < moves.len() && !pruned {
                let i = next;
                next += 1;
                // Most nodes stop after a move or two (a cut-off, or move-count pruning), so
                // the list is never sorted whole: each step brings the best remaining move
                // forward, which gives the order a full sort would.
                pick(&mut moves, i);
                let m = moves[i];
                let quiet =
                    m.rank <= tune::REDUCIBLE_RANK && !self.killers[ply].contains(&Some(m.pos));
                // Step 8. Move-count pruning: late quiet moves of a non-PV node almost never
                // refute; once a move has been searched, the rest are skipped.
                if self.params.move_count_pruning
                    && !pv_node
                    && quiet
                    && i >= tune::late_move_count(depth)
                    && best > -WIN_MIN
                {
                    pruned = true;
                    continue;
                }
                if i > 0 && busy.is_some_and(|b| b.is_busy(key, m.pos)) {
                    deferred.push((m, i, quiet));
                    continue;
                }
                (m, i, quiet)
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            let m = &m;
            let marked = busy.map(|b| (b, b.mark(key, m.pos)));
            self.pos.make(m.pos);
            let score = if i == 0 || !self.params.pvs {
                -self.negamax(depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                // Step 9. Late move reductions: late quiet moves rarely matter, so they are
                // scouted shallower first and searched fully only if they beat alpha.
                let r = if self.params.lmr
                    && quiet
                    && depth >= tune::LMR_MIN_DEPTH
                    && i >= tune::LMR_MIN_INDEX
                {
                    tune::lmr_reduction(depth, i, pv_node).min(depth - 1)
                } else {
                    0
                };
                // Step 10. Principal variation search: a zero window proves the move worse than
                // the first cheaply; only a move that beats it is searched with the full window.
                let mut s = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && pv_node && !self.aborted {
                    s = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.pos.unmake();
            if let Some((b, mark)) = marked {
                b.clear(mark);
            }
            if self.aborted {
                self.buffers[ply] = moves;
                self.deferred[ply] = deferred;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m.pos);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.pv[ply][ply] = m.pos;
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
                        self.pv_len[ply] = child_len;
                    }
                    if alpha >= beta {
                        // Step 11. A quiet refutation is remembered for its siblings (killers)
                        // and for the rest of the search (history, weighted by depth).
                        if m.rank <= QUIET_RANK {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m.pos) {
                                k[1] = k[0];
                                k[0] = Some(m.pos);
                            }
                            let h = &mut self.history[me.index()][m.pos.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.deferred[ply] = deferred;

        // Step 12. Store the result with its bound, win scores made relative to this node.
        if self.params.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared
                .tt
                .store(key, depth as i16, bound, score_to_tt(best, ply), best_move);
        }
        best
    }

    /// Quiescence: forced blocks and own fours are played out (up to `fours` of them, the last
    /// only where it can still win), so the static evaluation is only read where no five is
    /// pending.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, fours: i32) -> i32 {
        // Q1. Count and poll.
        if self.poll() {
            return 0;
        }
        self.pv_len[ply] = ply;
        // Q2. Decided by the threats on the board.
        if let Some(s) = self.decided(ply) {
            return s;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        let me = self.pos.side_to_move();
        let op = me.opponent();
        // Q3. A five of the opponent must be blocked: no standing pat.
        if self.pos.has_at_least(op, Threat::Five) {
            let mut moves = std::mem::take(&mut self.buffers[ply]);
            movegen::generate(&mut self.pos, false, &mut moves);
            let best = self.qsearch_moves(&moves, alpha, beta, ply, fours, -win_in(ply + 2));
            self.buffers[ply] = moves;
            return best;
        }
        // Q4. Stand pat: the mover may always play a quiet move.
        let stand = self.evaluate();
        if stand >= beta || fours <= 0 {
            return stand;
        }
        // Q5. At the quiescence entry, a VCF that the proof search finds within its small
        // budget is a win: it follows chains of fours far longer than the steps below play.
        if fours == self.params.qsearch_fours && self.params.horizon_vcf > 0 {
            if let Some(plies) = self.horizon_vcf() {
                return win_in(ply + plies);
            }
        }
        alpha = alpha.max(stand);
        // Q6. Own fours: each forces a block, and chains of them can end in a four-three.
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        movegen::fours(&mut self.pos, &mut moves);
        // Q7. The last four allowed must be a four-three, make a point of two fours, or be
        // blocked where the block makes a four (the forced replies then go on, and blocks cost
        // no budget): after any other four and its block the search would only stand pat, with
        // a four spent for nothing the evaluation can see. Only under freestyle and standard:
        // under renju a four can win where the block is forbidden, and under caro where a block
        // closes one end; there every four is played.
        let plain_fours_prove_nothing = matches!(self.pos.rule(), Rule::Freestyle | Rule::Standard);
        if fours == 1 && self.params.qsearch_prune_last_four && plain_fours_prove_nothing {
            let me = self.pos.side_to_move();
            let op = me.opponent();
            // Both exceptions need a four point on the board besides the one played: another of
            // the mover's (the point of two fours gets its second four from the new stone) or
            // one of the opponent's (only the opponent's own lines make the block a four). Without
            // one, no plain four needs to be tried on the board.
            let mine =
                self.pos.rung_count(me, Threat::Four) + self.pos.rung_count(me, Threat::FourThree);
            let may_win = mine >= 2 || self.pos.has_at_least(op, Threat::Four);
            let pos = &mut self.pos;
            moves.retain(|m| {
                if pos.info(m.pos, me).threat >= Threat::FourThree {
                    return true;
                }
                if !may_win {
                    return false;
                }
                pos.make(m.pos);
                let double_four = pos.rung_count(me, Threat::OpenFour) > 0;
                let counter_four = || {
                    let cells = *pos.candidates();
                    let found = cells.iter().any(|q| {
                        pos.info(q, me).threat == Threat::Five
                            && pos.info(q, op).threat >= Threat::Four
                    });
                    found
                };
                let keep = double_four || counter_four();
                pos.unmake();
                keep
            });
        }
        let best = self.qsearch_moves(&moves, alpha, beta, ply, fours - 1, stand);
        self.buffers[ply] = moves;
        best
    }

    /// A VCF of the side to move within [`Params::horizon_vcf`] solver nodes: the plies to its
    /// winning five. Runs only when the mover has enough cells that make a four to start one.
    fn horizon_vcf(&mut self) -> Option<usize> {
        let me = self.pos.side_to_move();
        let four_cells =
            self.pos.rung_count(me, Threat::Four) + self.pos.rung_count(me, Threat::FourThree);
        if four_cells < tune::HORIZON_VCF_MIN_FOURS {
            return None;
        }
        if self.vcf.table_len() > tune::HORIZON_VCF_TABLE {
            self.vcf.forget();
        }
        self.scratch.copy_from(self.pos.board());
        let budget = Budget {
            deadline: self.shared.plan.hard,
            stop: Some(self.shared.stop),
            max_nodes: Some(self.vcf.nodes + self.params.horizon_vcf as u64),
        };
        let rule = self.pos.rule();
        let proof = self.vcf.solve(self.scratch, rule, me, &budget);
        // A proof search costs many search nodes' time, so the clock is read after each one
        // rather than only every `POLL_NODES` search nodes.
        if self.shared.plan.hard.is_some_and(|h| Instant::now() >= h) {
            self.aborted = true;
        }
        let Proof::Win(line) = proof else {
            return None;
        };
        // The line ends with the five, or with a four no legal move stops (five two plies on).
        let (last, head) = line.split_last()?;
        let mut c = me;
        for &p in head {
            self.scratch.put(p, c).ok()?;
            c = c.opponent();
        }
        let five = crate::rules::is_win_at(self.scratch, *last, me, rule);
        Some(line.len() + if five { 0 } else { 2 })
    }

    /// The move loop shared by the quiescence steps: searches `moves` with `fours` own fours
    /// left below, fail-soft from `best`.
    fn qsearch_moves(
        &mut self,
        moves: &[Move],
        mut alpha: i32,
        beta: i32,
        ply: usize,
        fours: i32,
        mut best: i32,
    ) -> i32 {
        for m in moves {
            self.pos.make(m.pos);
            let s = -self.qsearch(-beta, -alpha, ply + 1, fours);
            self.pos.unmake();
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_from_variables() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Params::from_vars(vars(&[])), Params::default());
        let p = Params::from_vars(vars(&[
            ("BANGO_LMR", "0"),
            ("BANGO_MCP", "off"),
            ("BANGO_THREAT_PRUNE", "False"),
            ("BANGO_QSEARCH_FOURS", "3"),
            ("BANGO_HORIZON_VCF", "250"),
            ("BANGO_QSEARCH_PRUNE_LAST_FOUR", "off"),
            ("BANGO_TT", "1"),
        ]));
        assert_eq!(
            p,
            Params {
                lmr: false,
                move_count_pruning: false,
                threat_prune: false,
                qsearch_fours: 3,
                qsearch_prune_last_four: false,
                horizon_vcf: 250,
                ..Params::default()
            }
        );
        // Garbage is ignored, the default stays.
        let p = Params::from_vars(vars(&[
            ("BANGO_PVS", "maybe"),
            ("BANGO_QSEARCH_FOURS", "-1"),
            ("BANGO_HORIZON_VCF", "-5"),
        ]));
        assert_eq!(p, Params::default());
    }
}
