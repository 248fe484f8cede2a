//! `alphabeta`: the alpha-beta engine behind the [`Algorithm`] trait (the registry default),
//! searching with `config.brain.threads` lazy SMP workers ([`crate::search::smp::LazySmp`]).
//!
//! It owns the transposition table and the workers for the whole game: the table is kept
//! between moves (Zobrist keys are fixed, so last move's deep entries still match) and cleared
//! at a new game, together with the workers' history, so a game replayed from its start is
//! searched identically by one worker.
//!
//! Nothing slow lands on a move's clock: the table is a [`TableHandle`] (a new size is
//! allocated in the background while the old table keeps serving, a replaced one is dropped by
//! a helper, a new game is a constant-time clear), and the worker pool is built when the thread
//! count changes. Resource settings are taken when they are sent ([`Algorithm::configure`],
//! which the session calls for an `INFO` between moves and at a new game), all from one plan of
//! [`crate::engine::resources`]; a move waits a small share of its budget for a table still being
//! filled, so that the size asked for between moves is the one it searches with. One caveat of
//! the background allocation: at start-up with a table above [`crate::search::tt::SMALL_BYTES`] (and
//! after a change, if the fill outlasts that wait) a move may search a smaller table, so a
//! fixed-depth search is reproducible only once the table is in place (see
//! [`AlphaBeta::with_table`]).

use super::proofs::{RootProofs, Verdict};
use super::{Algorithm, Analysis, Balance, Request};
use crate::engine::config::Config;
use crate::engine::resources::{self, Machine, Resources, Wanted};
use crate::game::board::{Board, Pos};
use crate::game::rules;
use crate::knowledge::book::play::Opening;
use crate::knowledge::book::soosorv::{self, SoosorvReply, SoosorvStep};
use crate::knowledge::book::swap2::{self, Searcher, Swap2Reply};
use crate::search::alphabeta::{format_score, Line, Report, RootOptions, SearchResult, WIN_MIN};
use crate::search::known::KnownPositions;
use crate::search::smp::{Job, LazySmp};
use crate::search::timeman::{self, Plan};
use crate::search::tt::TableHandle;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The share of a move's budget it may wait for a table still being filled (filling takes a
/// few milliseconds per hundred MiB; it normally finishes between the `INFO` and the move).
const TABLE_WAIT_DIVISOR: u32 = 16;

/// How [`AlphaBeta::decide`] chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A book move in a quiet position, played without search.
    Book,
    /// A verified own VCF.
    Vcf,
    /// A verified own VCT.
    Vct,
    /// A proven result stored in the analyst's database, played without search.
    Database,
    /// The main search, with its last completed iteration (0: none, the top of the ladder).
    Search {
        /// The deepest completed iteration.
        depth: u32,
    },
}

/// A move with the score behind it: what [`Algorithm::think`] plays, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move.
    pub pos: Pos,
    /// The score from the mover's view in search units (a proved win is a win score, see
    /// [`crate::search::alphabeta::WIN`]); `None` for a book move.
    pub score: Option<i32>,
    /// Where the move came from.
    pub source: Source,
}

impl Decision {
    /// The main search's answer.
    fn searched(r: &SearchResult) -> Decision {
        Decision {
            pos: r.best,
            score: Some(r.score),
            source: Source::Search { depth: r.depth },
        }
    }
}

/// The alpha-beta algorithm.
pub struct AlphaBeta {
    table: TableHandle,
    smp: LazySmp,
    opening: Opening,
    proofs: RootProofs,
    machine: Machine,
    /// The resource settings last configured from (`None`: not yet, so the first
    /// [`Algorithm::configure`] reports what it clamps even when nothing changes).
    configured: Option<Wanted>,
    /// What the last plan gave.
    resources: Resources,
    /// Positions an analyst's database settles (see [`Algorithm::set_known`]).
    known: Option<Arc<KnownPositions>>,
}

impl AlphaBeta {
    /// An engine configured by `config` (search parameters, book, proofs, workers) with the
    /// resources its settings ask for, clamped to the machine ([`crate::engine::resources::plan`]);
    /// the table's allocation continues in the background.
    pub fn new(config: &Config) -> AlphaBeta {
        let machine = Machine::detect();
        let plan = resources::plan(Wanted::of(config), &machine);
        let mut engine = AlphaBeta::build(config, plan.table_bytes, machine);
        let threads = engine.smp.set_threads(plan.threads);
        engine.resources = Resources { threads, ..plan };
        engine
    }

    fn build(config: &Config, bytes: usize, machine: Machine) -> AlphaBeta {
        let mut smp = LazySmp::new(1, config.search);
        smp.set_defer(config.brain.smp_defer);
        AlphaBeta {
            table: TableHandle::new(bytes),
            smp,
            opening: Opening::new(config.brain.book, config.exe.clone()),
            proofs: RootProofs::with_slices(config.brain.proofs, config.proofs),
            machine,
            configured: None,
            resources: Resources {
                threads: 1,
                table_bytes: bytes,
                vct_bytes: 0,
                limit: None,
                notes: Vec::new(),
            },
            known: None,
        }
    }

    /// An engine configured by `config` with a table of about `bytes`, fully allocated before
    /// this returns, and `config`'s thread count (as the machine allows). Both stay until
    /// the resource settings change (a configuration with other threads, `hash_size` or
    /// `max_memory`).
    pub fn with_table(config: &Config, bytes: usize) -> AlphaBeta {
        let machine = Machine::detect();
        let mut engine = AlphaBeta::build(config, bytes, machine);
        let wanted = Wanted::of(config);
        engine.resources.threads = engine
            .smp
            .set_threads(config.brain.threads.clamp(1, machine.thread_cap()));
        engine.configured = Some(wanted);
        engine.table.wait_idle();
        engine
    }

    /// The root proof searches (their mode, for tests and matches).
    pub fn proofs_mut(&mut self) -> &mut RootProofs {
        &mut self.proofs
    }

    /// The lazy SMP search (aggregation rule, test hooks).
    pub fn smp_mut(&mut self) -> &mut LazySmp {
        &mut self.smp
    }

    /// The resources the last plan gave (threads, table size, the limit planned for).
    pub fn planned(&self) -> &Resources {
        &self.resources
    }

    /// The table searches use now, in bytes (a table still being filled is not counted).
    pub fn table_bytes_in_use(&self) -> usize {
        self.table.current_bytes()
    }

    /// Takes `config`'s resource settings if they are not the ones last taken, reporting what
    /// was clamped to `report`.
    fn follow(&mut self, config: &Config, report: &dyn Fn(&str)) {
        if self.configured != Some(Wanted::of(config)) {
            for note in self.configure(config) {
                report(&note);
            }
        }
    }
}

impl Algorithm for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn think(&mut self, req: &Request<'_>) -> Pos {
        self.decide(req).pos
    }

    fn ponder(&mut self, req: &Request<'_>) {
        // The opponent's best reply is what the next search most likely meets: its subtree
        // fills the shared table. Unlimited: only the stop flag (the next command) ends it.
        self.search(req, Plan::UNLIMITED, RootOptions::default(), &|_| {});
    }

    fn balance(&mut self, req: &Request<'_>, want: Balance) -> Option<Vec<Pos>> {
        let plan = timeman::plan(&req.limits);
        let all = |blocked: &[Pos]| RootOptions {
            skip: blocked.to_vec(),
            lines: Analysis::ALL,
            ..RootOptions::default()
        };
        let blocked = &req.analysis.blocked;
        if want.stones <= 1 {
            let r = self.search(req, plan, all(blocked), req.report);
            return Some(vec![nearest(&r, want.bias).map_or(r.best, |l| l.pv[0])]);
        }
        // Two stones: the first search scores every first stone; the opponent's best reply
        // to a first stone scoring s leaves s, and worse replies leave more, so the pair
        // nearest the bias starts from a first stone at or below it. The few nearest such
        // stones share the rest of the time, each searched over every reply.
        const FIRST_STONES: usize = 3;
        let started = Instant::now();
        let first = self.search(
            req,
            share(&plan, started, 1, 1 + FIRST_STONES),
            all(blocked),
            req.report,
        );
        let mut candidates: Vec<&Line> = first.lines.iter().filter(|l| !l.pv.is_empty()).collect();
        candidates.sort_by_key(|l| (l.score > want.bias, (l.score - want.bias).abs()));
        let mut best: Option<(i32, Vec<Pos>)> = None;
        for (k, line) in candidates.iter().take(FIRST_STONES).enumerate() {
            let mut board = req.board.clone();
            if board.play(line.pv[0]).is_err() || board.is_full() {
                continue;
            }
            let sub = Request {
                board: &board,
                ..*req
            };
            let plan = share(&plan, Instant::now(), 1, FIRST_STONES - k);
            let r = self.search(&sub, plan, all(&[]), &|_| {});
            // The reply's score is the opponent's: the mover's is its negation.
            let Some(reply) = nearest(&r, -want.bias) else {
                continue;
            };
            let miss = (-reply.score - want.bias).abs();
            if best.as_ref().is_none_or(|(m, _)| miss < *m) {
                best = Some((miss, vec![line.pv[0], reply.pv[0]]));
            }
            if req.stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
        }
        best.map(|(_, pair)| pair).or_else(|| {
            // Nothing searched in time: the best first stone and its best reply.
            let reply = first.pv.get(1).copied()?;
            Some(vec![first.best, reply])
        })
    }

    fn swap2(&mut self, req: &Request<'_>) -> Option<Swap2Reply> {
        self.swap_decision(req, false)
    }

    fn swap1(&mut self, req: &Request<'_>) -> Option<Swap2Reply> {
        self.swap_decision(req, true)
    }

    fn soosorv(&mut self, req: &Request<'_>, step: &SoosorvStep) -> Option<SoosorvReply> {
        self.with_searcher(req, |search| {
            soosorv::decide(req.board, req.rule, step, &req.limits, search)
        })
    }

    fn new_game(&mut self, _size: usize, config: &Config) {
        // The session configures before a new game and prints what was clamped; other callers
        // get the settings applied here without a word.
        self.follow(config, &|_| {});
        self.table.new_game();
        self.smp.clear();
        self.proofs.clear();
    }

    fn configure(&mut self, config: &Config) -> Vec<String> {
        let wanted = Wanted::of(config);
        let first = self.configured.is_none();
        let changed = self.configured != Some(wanted);
        self.configured = Some(wanted);
        let plan = resources::plan(wanted, &self.machine);
        let mut notes = if first || changed {
            plan.notes.clone()
        } else {
            Vec::new()
        };
        // Table and threads from the one plan, together (never one without the other).
        if let Some(note) = self.table.resize(plan.table_bytes).note() {
            notes.push(note);
        }
        let threads = self.smp.set_threads(plan.threads);
        if threads < plan.threads {
            notes.push(format!(
                "the system refused {} search threads; using {threads}",
                plan.threads
            ));
        }
        self.resources = Resources { threads, ..plan };
        notes
    }

    fn set_known(&mut self, known: Option<Arc<KnownPositions>>) {
        self.known = known;
    }

    fn table(&mut self) -> Option<std::sync::Arc<crate::search::tt::TranspositionTable>> {
        // Settings sent since the last search are taken first, so that the table dumped or
        // loaded is the one the next search uses.
        Some(self.table.table_within(Duration::MAX))
    }

    fn resources(&self) -> Vec<String> {
        let r = &self.resources;
        let opt = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        let pending = self.table.filling_bytes().map(|b| b as u64 >> 10);
        vec![format!(
            "resources: threads={} table_kib={} filling_kib={} limit={} peak_bound={} \
             worker_stack={}",
            self.smp.threads(),
            self.table.current_bytes() >> 10,
            opt(pending),
            opt(r.limit),
            r.peak_bytes(),
            crate::search::smp::WORKER_STACK_BYTES
        )]
    }
}

impl AlphaBeta {
    /// [`Algorithm::think`] with the score and the source of the move: the one path every move
    /// of the brain takes (book, root proofs, then the search; analysis goes straight to the
    /// search).
    pub fn decide(&mut self, req: &Request<'_>) -> Decision {
        let plan = timeman::plan(&req.limits);
        if !req.analysis.is_plain() {
            // Analysis wants the lines themselves: no book move, no proof short cut.
            let options = root_options(req.analysis, RootOptions::default());
            return Decision::searched(&self.search(req, plan, options, req.report));
        }
        // A proven result the analyst stored is played as stored: the database outranks the
        // book and the search.
        if let Some(d) = self.stored_decision(req) {
            return d;
        }
        // Opening knowledge first: a quiet book hit is played at once, otherwise it only
        // orders (or, for the prior, trims) the root.
        let folder = req.config.folder.as_deref();
        let advice = self.opening.advise(req.board, req.rule, folder, req.output);
        if let Some(p) = advice.play {
            (req.output)(&format!("book {p}"));
            return Decision {
                pos: p,
                score: None,
                source: Source::Book,
            };
        }
        // Proofs next: a proved own win is played, a proved opponent VCF narrows the root to
        // the moves that break it.
        let mut hints = advice.hints;
        let spent = self.proofs.counts;
        let verdict = self
            .proofs
            .probe(req.board, req.rule, &plan, req.limits.started, req.stop);
        let now = self.proofs.counts;
        if req.config.brain.show_detail != 0 && now.vct_probes > spent.vct_probes {
            (req.output)(&format!(
                "vct proofs: own {} ms, opponent's {} ms",
                (now.own_vct_time - spent.own_vct_time).as_millis(),
                (now.opp_vct_time - spent.opp_vct_time).as_millis()
            ));
        }
        match verdict {
            Verdict::Vcf(line) => {
                (req.output)(&format!(
                    "vcf win in {} plies, playing {}",
                    line.len(),
                    line[0]
                ));
                return Decision {
                    pos: line[0],
                    score: Some(crate::search::alphabeta::WIN - line.len() as i32),
                    source: Source::Vcf,
                };
            }
            Verdict::Vct(tree) => {
                (req.output)(&format!(
                    "vct win with {} threats, playing {}",
                    tree.depth(),
                    tree.attack
                ));
                return Decision {
                    pos: tree.attack,
                    score: Some(WIN_MIN),
                    source: Source::Vct,
                };
            }
            Verdict::Defend { only, threat_plies } => {
                if req.config.brain.show_detail != 0 {
                    let moves: Vec<String> = only.iter().map(Pos::to_string).collect();
                    (req.output)(&format!(
                        "opponent vcf in {threat_plies} plies; breakers {}",
                        moves.join(" ")
                    ));
                }
                hints.only = only;
            }
            Verdict::DefendVct { only, threats, .. } => {
                if req.config.brain.show_detail != 0 {
                    let moves: Vec<String> = only.iter().map(Pos::to_string).collect();
                    (req.output)(&format!(
                        "opponent vct with {threats} threats; breakers {}",
                        moves.join(" ")
                    ));
                }
                hints.only = only;
            }
            Verdict::Lost | Verdict::Nothing => {}
        }
        Decision::searched(&self.search(req, plan, hints, req.report))
    }

    /// The stored move of `req.board` when the database holds a proven result for it with a
    /// legal best move (a best move that is not legal here, say after an edit, is ignored).
    fn stored_decision(&self, req: &Request<'_>) -> Option<Decision> {
        let known = self.known.as_deref()?;
        if !known.covers(req.board.stone_count()) {
            return None;
        }
        let k = known.get(req.board.key())?;
        let best = k.best?;
        let mut board = req.board.clone();
        let mover = board.side_to_move();
        if !k.is_proven() || !rules::is_legal(&mut board, best, mover, req.rule) {
            return None;
        }
        (req.output)(&format!(
            "database: {} stored, playing {best}",
            format_score(k.score)
        ));
        Some(Decision {
            pos: best,
            score: Some(k.score),
            source: Source::Database,
        })
    }

    /// One lazy SMP search of `req.board` within `plan`, with `options` at the root (the
    /// caller's: `req.analysis` is not applied here), reporting to `report`.
    fn search(
        &mut self,
        req: &Request<'_>,
        plan: Plan,
        options: RootOptions,
        report: &(dyn Fn(Report<'_>) + Sync),
    ) -> SearchResult {
        // Normally already taken when sent; settings changed without a word cost the pool.
        self.follow(req.config, req.output);
        self.smp.set_root_options(&options);
        let wait = if plan.instant {
            Duration::ZERO
        } else {
            plan.budget
                .map_or(Duration::MAX, |b| b / TABLE_WAIT_DIVISOR)
        };
        let tt = self.table.table_within(wait);
        tt.new_search();
        let job = Job {
            board: req.board,
            rule: req.rule,
            plan,
            stop: req.stop,
            report,
            known: self.known.as_deref(),
        };
        self.smp.search(&tt, &job).result
    }

    /// Runs an opening decision `decide` with a searcher over this engine's workers and table
    /// (silent searches: an opening step's answer is its only output).
    fn with_searcher<R>(
        &mut self,
        req: &Request<'_>,
        decide: impl FnOnce(&mut Searcher<'_>) -> R,
    ) -> R {
        self.follow(req.config, req.output);
        let tt = self.table.table();
        let (smp, rule, stop) = (&mut self.smp, req.rule, req.stop);
        let known = self.known.as_deref();
        let mut search = |b: &Board, plan: Plan| {
            tt.new_search();
            let job = Job {
                board: b,
                rule,
                plan,
                stop,
                report: &|_| {},
                known,
            };
            smp.search(&tt, &job).result
        };
        decide(&mut search)
    }

    /// Swap2 ([`swap2::decide`]) or Swap1 ([`swap2::choose_colour`] after three stones).
    fn swap_decision(&mut self, req: &Request<'_>, swap1: bool) -> Option<Swap2Reply> {
        if swap1 && req.board.stone_count() != 3 {
            return None;
        }
        self.with_searcher(req, |search| {
            if swap1 {
                let mut b = req.board.clone();
                b.set_side_to_move(crate::game::board::Color::White);
                return Some(swap2::choose_colour(&b, &req.limits, search));
            }
            swap2::decide(req.board, req.rule, &req.limits, search)
        })
    }
}

/// The root options of a search asked with `analysis`, on top of the engine's own `options`
/// (book order, proof restriction): the analyst's lines, breadth and blocked moves.
fn root_options(analysis: &Analysis, mut options: RootOptions) -> RootOptions {
    options.lines = options.lines.max(analysis.lines);
    options.every_move |= analysis.every_move;
    options.skip.extend(analysis.blocked.iter().copied());
    options
}

/// The principal variation whose score is nearest `bias`, proven losses last (a balanced
/// opening is never one already lost).
fn nearest(r: &SearchResult, bias: i32) -> Option<&Line> {
    r.lines
        .iter()
        .filter(|l| !l.pv.is_empty())
        .min_by_key(|l| (l.score <= -WIN_MIN, (l.score - bias).abs()))
}

/// `parts` of `of` equal shares of what `plan` has left at `now`: the time budget and the
/// node cap are divided, the depth cap and the value of unspent time kept. A plan without a budget is returned as it is (the
/// depth cap or the stop flag ends each search).
fn share(plan: &Plan, now: Instant, parts: usize, of: usize) -> Plan {
    let of = of.max(1) as u32;
    let parts = parts.min(of as usize) as u32;
    let mut shared = match (plan.budget, plan.hard) {
        (Some(_), Some(hard)) => {
            let left = hard.saturating_duration_since(now);
            Plan::spending(now, left * parts / of, plan.spend())
        }
        _ => *plan,
    };
    shared.max_depth = plan.max_depth;
    shared.max_nodes = plan.max_nodes.map(|n| n * parts as u64 / of as u64);
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::algo;

    #[test]
    fn registered_as_the_default() {
        assert_eq!(algo::default_name(), "alphabeta");
        let c = Config::default();
        assert_eq!(algo::by_name("AlphaBeta", &c).unwrap().name(), "alphabeta");
    }

    #[test]
    fn table_size_follows_settings_when_configured() {
        let mut e = AlphaBeta::with_table(&Config::default(), 1 << 16);
        let mut c = Config::default();
        c.brain.hash_kib = 1024;
        assert!(e.configure(&c).is_empty());
        e.table.wait_idle();
        // The bucket count rounds the size down.
        let used = e.table_bytes_in_use();
        assert!(used <= 1 << 20 && used > 1 << 19, "{used}");
        assert_eq!(e.planned().table_bytes, 1 << 20);
        // A limit too small for the table asked for: clamped, and said.
        c.brain.max_memory = 64 << 20;
        c.brain.hash_kib = 1 << 20;
        let notes = e.configure(&c);
        assert!(notes.iter().any(|n| n.contains("hash_size")), "{notes:?}");
        assert!(e.planned().peak_bytes() <= 64 << 20);
        // The same settings again: nothing to say, nothing changes.
        assert!(e.configure(&c).is_empty());
        let line = e.resources().join(" ");
        assert!(line.contains("threads=1 "), "{line}");
    }

    #[test]
    fn threads_follow_settings_at_the_new_game() {
        let mut e = AlphaBeta::with_table(&Config::default(), 1 << 16);
        let mut c = Config::default();
        c.brain.threads = 3;
        e.new_game(15, &c);
        assert_eq!(e.smp_mut().threads(), 3);
        e.new_game(15, &Config::default());
        assert_eq!(e.smp_mut().threads(), 1);
    }
}
