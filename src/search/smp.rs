//! Lazy SMP: N private search workers over one shared transposition table, and the answer
//! chosen from what they completed.
//!
//! The search itself lives in `crate::search::alphabeta`. The generic plumbing ([`WorkerPool`],
//! [`Reporter`], [`choose`]) only knows how to launch workers, stop them together and aggregate
//! what they completed; [`LazySmp`] applies it to search [`Worker`]s:
//! - **One worker** runs on the calling thread with no pool at all, so the single-worker mode is
//!   exactly the sequential search (deterministic for a fixed depth or node budget).
//! - **N > 1 workers** run on a dedicated rayon pool of exactly N threads, built once and rebuilt
//!   only when N changes (the global pool may have fewer threads than workers, and workers would
//!   then start late or never). They are spawned inside `in_place_scope`, so the calling thread
//!   stays free to act as the time monitor until every worker has returned.
//! - Each worker reports every *completed* iteration to its own [`Reporter`] slot. The answer is
//!   the deepest completed iteration over all workers, worker 0 preferred at equal depth; an
//!   abandoned iteration is never reported, so it can never be chosen.
//! - A panic in one worker raises the shared stop flag at once (the others return promptly) and
//!   is contained: the move still comes from what completed.
//!
//! [`LazySmp`] keeps one persistent [`Worker`] per thread (its history survives between moves);
//! each runs full iterative deepening on its own position copy, worker `i` rotating its root order
//! by `i`, all sharing the table. They also share busy-move marks ([`crate::search::busy`]): at the root
//! and at a node of remaining depth at least 3, a worker puts off a move (not the first) that
//! another is searching, and comes back to it when the node's other moves are done (at the root,
//! this split took N=2's time to depth 12 from 0.748 of N=1's to 0.697, over eight alternating
//! pairs of smp bench runs). Every worker searches every depth: with the marks, two workers reached
//! depths 11 and 12 5–19% sooner (in N=2/N=1 time) than with the earlier scheme of helpers skipping
//! alternate iterations. The first worker to end its deepening normally (depth cap, soft deadline,
//! proven score, node share) ends the move for all. Only the aggregation reports (the job's
//! [`Report`] callback): one report per new deepest completed iteration, with nodes summed over
//! all workers; worker 0's root events (every worker walks the same root, so one worker's events
//! are each event once); and one [`Report::Finished`] at the end. One worker is exactly
//! [`Worker::search`]: same table, same stop flag, same reports, same nodes.

use crate::evaluation::movegen;
use crate::evaluation::position::Position;
use crate::game::board::Board;
use crate::game::rules::Rule;
use crate::search::alphabeta::{
    Context, Params, Progress, Report, RootEvent, RootOptions, SearchResult, Worker,
};
use crate::search::busy::BusyMoves;
use crate::search::known::KnownPositions;
use crate::search::timeman::Plan;
use crate::search::tt::TranspositionTable;
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The stack of each search worker thread. The deepest recursion is bounded by
/// [`crate::search::alphabeta::MAX_PLY`] plies (the node function, the move loop and the quiescence search
/// per ply); `stress resources::` measures the stack pages searches touch, derives an upper
/// bound of the bytes per ply and of the whole `MAX_PLY` recursion, and checks that this size
/// leaves at least four times that bound (see the report of the commit that set it).
pub const WORKER_STACK_BYTES: usize = 1 << 20;

/// What one worker has completed so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Completed<R> {
    /// The depth of the iteration.
    pub depth: u32,
    /// What the iteration found (move, score, principal variation...).
    pub result: R,
}

/// A worker's channel back to the aggregation: its last completed iteration and its node count.
pub struct Reporter<R> {
    completed: Mutex<Option<Completed<R>>>,
    nodes: AtomicU64,
}

impl<R: Clone> Reporter<R> {
    fn new() -> Reporter<R> {
        Reporter {
            completed: Mutex::new(None),
            nodes: AtomicU64::new(0),
        }
    }

    /// Records a completed iteration. A shallower report than one already recorded is ignored,
    /// so the slot always holds the worker's deepest completed iteration.
    pub fn completed(&self, depth: u32, result: R) {
        let mut slot = self.completed.lock();
        if slot.as_ref().is_none_or(|c| depth >= c.depth) {
            *slot = Some(Completed { depth, result });
        }
    }

    /// Sets the worker's total node count (call as often as convenient).
    pub fn set_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Ordering::Relaxed);
    }

    /// The deepest iteration this worker completed.
    pub fn last(&self) -> Option<Completed<R>> {
        self.completed.lock().clone()
    }

    /// The worker's node count as last reported.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// The outcome of one parallel run.
#[derive(Debug)]
pub struct RunOutcome<R> {
    /// The chosen iteration and the worker that completed it.
    pub best: Option<(usize, Completed<R>)>,
    /// Every worker's deepest completed iteration, by worker index.
    pub per_worker: Vec<Option<Completed<R>>>,
    /// Nodes summed over all workers.
    pub nodes: u64,
    /// Indices of workers that panicked.
    pub panicked: Vec<usize>,
}

/// The deepest completed iteration, the lowest worker index winning ties.
pub fn choose<R: Clone>(per_worker: &[Option<Completed<R>>]) -> Option<(usize, Completed<R>)> {
    let mut best: Option<(usize, &Completed<R>)> = None;
    for (i, c) in per_worker.iter().enumerate() {
        if let Some(c) = c {
            if best.is_none_or(|(_, b)| c.depth > b.depth) {
                best = Some((i, c));
            }
        }
    }
    best.map(|(i, c)| (i, c.clone()))
}

/// How often the calling thread polls the monitor while workers run. The workers read the
/// move's deadline themselves, so the monitor only forwards the caller's stop request and backs
/// the deadline up; a worker that finishes wakes the caller at once. (It used to poll every
/// 0.5 ms: with two workers on two cores that was ~1800 wake-ups a second, each one preempting
/// a worker; measured with `/proc/<pid>/task/*/status` during a 30 s move.)
pub const MONITOR_PERIOD: Duration = Duration::from_millis(2);

/// Owns the dedicated thread pool and runs workers on it.
pub struct WorkerPool {
    pool: Option<rayon::ThreadPool>,
    /// [`MONITOR_PERIOD`]; tests lengthen it to show that finishing workers wake the caller.
    monitor_period: Duration,
}

impl Default for WorkerPool {
    fn default() -> WorkerPool {
        WorkerPool::new()
    }
}

impl WorkerPool {
    /// A pool with no threads yet (one worker needs none).
    pub fn new() -> WorkerPool {
        WorkerPool {
            pool: None,
            monitor_period: MONITOR_PERIOD,
        }
    }

    /// Makes sure a pool of exactly `workers` threads exists when `workers > 1` (call it when
    /// the thread count is set, so that the first move does not pay for thread creation), each
    /// with a stack of [`WORKER_STACK_BYTES`]. Returns the workers that can
    /// run: `workers`, or, when the system refuses the threads, what the pool had before (1
    /// without a pool). Never panics for want of threads.
    pub fn ensure(&mut self, workers: usize) -> usize {
        if workers <= 1 {
            return 1;
        }
        if self.threads() == workers {
            return workers;
        }
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .thread_name(|i| format!("bango-worker-{i}"))
            .stack_size(WORKER_STACK_BYTES)
            .build();
        match built {
            Ok(pool) => {
                self.pool = Some(pool);
                workers
            }
            Err(_) => self.threads().max(1),
        }
    }

    /// Threads in the current pool (0 when none was needed yet).
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(0, |p| p.current_num_threads())
    }

    /// Runs `workers` instances of `work(index, reporter)`; `stop` is shared with them. While
    /// they run, the calling thread polls `monitor` every [`MONITOR_PERIOD`] and raises `stop`
    /// when it returns true (the time monitor); it returns as soon as the last worker finishes.
    /// With one worker, `work` runs on the calling thread and `monitor` is not polled: the
    /// worker must watch its own limits.
    pub fn run<R, W, M>(
        &mut self,
        workers: usize,
        stop: &AtomicBool,
        work: W,
        mut monitor: M,
    ) -> RunOutcome<R>
    where
        R: Clone + Send,
        W: Fn(usize, &Reporter<R>) + Sync,
        M: FnMut() -> bool,
    {
        // Fewer workers when the system refuses the threads (see `ensure`).
        let workers = match workers.max(1) {
            1 => 1,
            n => self.ensure(n),
        };
        let reporters: Vec<Reporter<R>> = (0..workers).map(|_| Reporter::new()).collect();
        let panicked: Vec<AtomicBool> = (0..workers).map(|_| AtomicBool::new(false)).collect();
        // Counted under the lock the caller waits on, so a finish between the caller's check
        // and its wait cannot be missed.
        let finished = Mutex::new(0usize);
        let one_finished = Condvar::new();
        let run_one = |i: usize| {
            if catch_unwind(AssertUnwindSafe(|| work(i, &reporters[i]))).is_err() {
                panicked[i].store(true, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            }
            *finished.lock() += 1;
            one_finished.notify_one();
        };
        if workers == 1 {
            run_one(0);
        } else {
            let pool = self
                .pool
                .as_ref()
                .expect("ensure returned a pool's threads");
            pool.in_place_scope(|scope| {
                for i in 0..workers {
                    let run_one = &run_one;
                    scope.spawn(move |_| run_one(i));
                }
                let mut done = finished.lock();
                while *done < workers {
                    MutexGuard::unlocked(&mut done, || {
                        if !stop.load(Ordering::Relaxed) && monitor() {
                            stop.store(true, Ordering::SeqCst);
                        }
                    });
                    if *done < workers {
                        one_finished.wait_for(&mut done, self.monitor_period);
                    }
                }
            });
        }
        let per_worker: Vec<Option<Completed<R>>> = reporters.iter().map(Reporter::last).collect();
        RunOutcome {
            best: choose(&per_worker),
            nodes: reporters.iter().map(Reporter::nodes).sum(),
            per_worker,
            panicked: (0..workers)
                .filter(|&i| panicked[i].load(Ordering::SeqCst))
                .collect(),
        }
    }
}

/// One move's search.
pub struct Job<'a> {
    /// The position (side to move set).
    pub board: &'a Board,
    /// The rule.
    pub rule: Rule,
    /// The deadlines, the depth cap and the node cap for all workers together.
    pub plan: Plan,
    /// Raised from outside when the move must be answered now.
    pub stop: &'a AtomicBool,
    /// Receives the search's reports: each new deepest completed iteration (nodes summed over
    /// the workers), worker 0's root events, and the end.
    pub report: &'a (dyn Fn(Report<'_>) + Sync),
    /// Positions whose value is known beforehand (see [`crate::search::known`]).
    pub known: Option<&'a KnownPositions>,
}

/// What a lazy SMP search found.
#[derive(Clone, Debug)]
pub struct SmpResult {
    /// The chosen iteration, with `nodes` summed over all workers.
    pub result: SearchResult,
    /// The worker whose iteration was chosen.
    pub worker: usize,
    /// Every worker's deepest completed iteration (its own nodes).
    pub per_worker: Vec<Option<SearchResult>>,
    /// Workers that panicked.
    pub panicked: Vec<usize>,
}

/// The lazy SMP search: persistent workers and the pool that runs them.
pub struct LazySmp {
    pool: WorkerPool,
    workers: Vec<Mutex<Worker>>,
    params: Params,
    /// Whether workers put off the moves another worker is searching.
    defer: bool,
    /// Test hook: a worker that panics after completing a depth.
    #[cfg(feature = "experiments")]
    fault: Option<(usize, u32)>,
}

impl LazySmp {
    /// `threads` workers (at least one) with the given feature switches; the pool is built now.
    pub fn new(threads: usize, params: Params) -> LazySmp {
        let mut smp = LazySmp {
            pool: WorkerPool::new(),
            workers: Vec::new(),
            params,
            defer: true,
            #[cfg(feature = "experiments")]
            fault: None,
        };
        smp.set_threads(threads);
        smp
    }

    /// Sets the number of workers, building the pool now so that no move pays for it. Existing
    /// workers keep what they learnt; new ones start fresh. Returns the number of workers set:
    /// `threads` (at least 1), or fewer when the system refuses the threads.
    pub fn set_threads(&mut self, threads: usize) -> usize {
        let n = self.pool.ensure(threads.max(1));
        self.workers.truncate(n);
        while self.workers.len() < n {
            let i = self.workers.len();
            self.workers
                .push(Mutex::new(Worker::new(i, self.params.for_worker(i))));
        }
        // One set of busy-move marks for all the workers, none for one worker (whose move order
        // must depend on nothing else) or with deferral off.
        let busy = (n > 1 && self.defer).then(|| Arc::new(BusyMoves::new()));
        for w in &mut self.workers {
            w.get_mut().set_busy(busy.clone());
        }
        n
    }

    /// Whether workers put off the moves another worker is searching (on by default; off only
    /// for comparison).
    pub fn set_defer(&mut self, defer: bool) {
        self.defer = defer;
        self.set_threads(self.workers.len());
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Root advice (opening book, prior) for every worker's next search.
    pub fn set_root_options(&mut self, hints: &RootOptions) {
        for w in &mut self.workers {
            w.get_mut().root_options = hints.clone();
        }
    }

    /// Forgets what the workers learnt (a new game).
    pub fn clear(&mut self) {
        for w in &mut self.workers {
            w.get_mut().clear();
        }
    }

    /// Test hook: worker `worker` panics right after completing iteration `depth` (its
    /// completed iterations are still reported), in every later search.
    #[cfg(feature = "experiments")]
    pub fn inject_panic(&mut self, worker: usize, depth: u32) {
        self.fault = Some((worker, depth));
    }

    /// Searches `job` with every worker over `tt` and returns the chosen iteration. Never
    /// panics because a worker did; falls back to the top of the threat ladder when no worker
    /// completed anything.
    pub fn search(&mut self, tt: &TranspositionTable, job: &Job<'_>) -> SmpResult {
        let n = self.workers.len();
        let started = Instant::now();
        // One worker searches under the caller's stop flag, exactly as `Worker::search`; more
        // share a private flag that the caller's thread raises (caller's stop, deadline) and
        // that the first worker to finish raises for the others.
        let own_stop = AtomicBool::new(false);
        let ctx = Context {
            tt,
            stop: if n == 1 { job.stop } else { &own_stop },
            plan: Plan {
                max_nodes: job.plan.max_nodes.map(|m| m / n as u64),
                ..job.plan
            },
            known: job.known,
        };
        let agg = Aggregator {
            total: AtomicU64::new(0),
            printed: Mutex::new(0),
            started,
            report: job.report,
        };
        let workers = &self.workers;
        #[cfg(feature = "experiments")]
        let fault = self.fault;
        let work = |i: usize, rep: &Reporter<SearchResult>| {
            let hook = Hook {
                index: i,
                reporter: rep,
                agg: &agg,
                #[cfg(feature = "experiments")]
                panic_after: fault.and_then(|(w, d)| (w == i).then_some(d)),
                seen: Cell::new(0),
            };
            let r = workers[i]
                .lock()
                .search_with(&ctx, job.board, job.rule, &hook);
            hook.nodes(r.nodes);
            rep.completed(r.depth, r);
            own_stop.store(true, Ordering::SeqCst);
        };
        let monitor = || {
            job.stop.load(Ordering::Relaxed) || job.plan.hard.is_some_and(|h| Instant::now() >= h)
        };
        let out = self.pool.run(n, &own_stop, work, monitor);
        let (worker, mut best) = match out.best {
            Some((w, c)) => (w, c.result),
            None => {
                let fast = movegen::fast_move(&mut Position::new(job.board, job.rule))
                    .expect("an empty point");
                (0, SearchResult::unsearched(fast))
            }
        };
        best.nodes = out.nodes;
        (job.report)(Report::Finished {
            result: &best,
            workers: n,
            worker,
            panicked: &out.panicked,
            elapsed: started.elapsed(),
        });
        SmpResult {
            result: best,
            worker,
            per_worker: out
                .per_worker
                .into_iter()
                .map(|c| c.map(|c| c.result))
                .collect(),
            panicked: out.panicked,
        }
    }
}

/// What the workers of one search share for reporting.
struct Aggregator<'a> {
    /// Nodes over all workers, as last reported.
    total: AtomicU64,
    /// The deepest iteration reported so far (held while reporting, so reports stay in order).
    printed: Mutex<u32>,
    started: Instant,
    report: &'a (dyn Fn(Report<'_>) + Sync),
}

/// One worker's progress hook (lives on the worker's thread).
struct Hook<'a> {
    index: usize,
    reporter: &'a Reporter<SearchResult>,
    agg: &'a Aggregator<'a>,
    #[cfg(feature = "experiments")]
    panic_after: Option<u32>,
    /// Nodes already added to the shared total.
    seen: Cell<u64>,
}

impl Progress for Hook<'_> {
    fn iteration(&self, r: &SearchResult) {
        self.reporter.completed(r.depth, r.clone());
        self.nodes(r.nodes);
        let agg = self.agg;
        // Reports go out in increasing depth, whichever worker got there first.
        let mut printed = agg.printed.lock();
        if *printed < r.depth {
            *printed = r.depth;
            (agg.report)(Report::Iteration {
                result: r,
                nodes: agg.total.load(Ordering::Relaxed),
                elapsed: agg.started.elapsed(),
            });
        }
        drop(printed);
        #[cfg(feature = "experiments")]
        if self.panic_after.is_some_and(|d| r.depth >= d) {
            panic!("injected fault after depth {}", r.depth);
        }
    }

    fn root(&self, event: RootEvent) {
        // One worker's events: every worker walks the same root, and the markers must come
        // once per event. Worker 0 is the one a single-worker search has.
        if self.index == 0 {
            (self.agg.report)(Report::Root {
                event,
                elapsed: self.agg.started.elapsed(),
            });
        }
    }

    fn nodes(&self, nodes: u64) {
        self.reporter.set_nodes(nodes);
        let new = nodes.saturating_sub(self.seen.replace(nodes));
        self.agg.total.fetch_add(new, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::atomic::AtomicUsize;
    use std::time::Instant;

    /// The caller polls the monitor no more often than [`MONITOR_PERIOD`] (a wake-up preempts a
    /// worker when there are no spare cores), yet still forwards its stop: workers that run
    /// until stopped end once the monitor says so, and the caller returns after all finished.
    #[test]
    fn monitor_is_polled_at_its_period_and_stops_the_workers() {
        let mut pool = WorkerPool::new();
        let stop = AtomicBool::new(false);
        let polls = AtomicUsize::new(0);
        let finished = AtomicUsize::new(0);
        let started = Instant::now();
        let stop_after = Duration::from_millis(100);
        let out = pool.run(
            2,
            &stop,
            |i, rep: &Reporter<usize>| {
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_micros(200));
                }
                rep.completed(1, i);
                finished.fetch_add(1, Ordering::SeqCst);
            },
            || {
                polls.fetch_add(1, Ordering::SeqCst);
                started.elapsed() >= stop_after
            },
        );
        let took = started.elapsed();
        assert_eq!(finished.load(Ordering::SeqCst), 2);
        assert_eq!(out.best.map(|(w, _)| w), Some(0));
        assert!(took >= stop_after, "{took:?}");
        // Sleeping can only make the polls fewer: at most one per period, plus the first.
        let max_polls = (took.as_micros() / MONITOR_PERIOD.as_micros()) as usize + 1;
        let n = polls.load(Ordering::SeqCst);
        assert!(
            (1..=max_polls).contains(&n),
            "{n} polls in {took:?}, at most {max_polls}"
        );
    }

    /// Finishing workers wake the caller: with a monitor period far longer than the test, runs
    /// whose workers return at once still come back at once (each would otherwise wait out a
    /// whole period).
    #[test]
    fn finishing_workers_wake_the_caller() {
        let mut pool = WorkerPool::new();
        pool.monitor_period = Duration::from_secs(5);
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        for _ in 0..20 {
            let out = pool.run(
                2,
                &stop,
                |i, rep: &Reporter<usize>| rep.completed(1, i),
                || false,
            );
            assert_eq!(out.per_worker.iter().flatten().count(), 2);
        }
        let took = started.elapsed();
        assert!(took < Duration::from_secs(4), "20 runs took {took:?}");
    }

    #[test]
    fn choose_prefers_depth_then_worker_zero() {
        let c = |d: u32, r: &'static str| {
            Some(Completed {
                depth: d,
                result: r,
            })
        };
        assert_eq!(
            choose(&[c(4, "a"), c(5, "b"), c(5, "c")]).unwrap().1.result,
            "b"
        );
        assert_eq!(choose(&[c(6, "a"), c(6, "b")]).unwrap().0, 0);
        assert_eq!(choose(&[None, c(2, "b")]).unwrap().0, 1);
        assert!(choose::<&str>(&[None, None]).is_none());
    }

    #[test]
    fn every_worker_runs_on_its_own_pool_thread() {
        // More workers than the machine has cores, and more than the global pool may have:
        // all must start at once (each waits for all the others, so a missing thread hangs).
        let mut pool = WorkerPool::new();
        let n = 6;
        let started = AtomicUsize::new(0);
        let names = Mutex::new(HashSet::new());
        let stop = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_secs(20);
        let out = pool.run(
            n,
            &stop,
            |i, rep: &Reporter<usize>| {
                names
                    .lock()
                    .insert(std::thread::current().name().unwrap_or("").to_string());
                started.fetch_add(1, Ordering::SeqCst);
                while started.load(Ordering::SeqCst) < n && Instant::now() < deadline {
                    std::thread::yield_now();
                }
                rep.completed(1, i);
                rep.set_nodes(10);
            },
            || false,
        );
        assert_eq!(started.load(Ordering::SeqCst), n);
        assert_eq!(names.lock().len(), n, "{:?}", names.lock());
        assert_eq!(pool.threads(), n);
        assert_eq!(out.nodes, 60);
        assert_eq!(out.best.unwrap().0, 0);
    }

    #[test]
    fn one_worker_runs_on_the_calling_thread() {
        let mut pool = WorkerPool::new();
        let stop = AtomicBool::new(false);
        let me = std::thread::current().id();
        let out = pool.run(
            1,
            &stop,
            |_, rep: &Reporter<bool>| rep.completed(3, std::thread::current().id() == me),
            || unreachable!("no monitor with one worker"),
        );
        assert!(out.best.unwrap().1.result);
        assert_eq!(pool.threads(), 0);
    }

    #[test]
    fn a_panicking_worker_stops_the_others_and_the_answer_survives() {
        let mut pool = WorkerPool::new();
        let stop = AtomicBool::new(false);
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {})); // keep the test output clean
        let out = pool.run(
            3,
            &stop,
            |i, rep: &Reporter<u32>| {
                rep.completed(2, i as u32);
                if i == 1 {
                    panic!("worker 1 fails");
                }
                let t = Instant::now();
                while !stop.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                assert!(
                    stop.load(Ordering::SeqCst),
                    "stop was not raised by the panic"
                );
                rep.completed(3, 100 + i as u32);
            },
            || false,
        );
        std::panic::set_hook(prev);
        assert_eq!(out.panicked, vec![1]);
        let (w, c) = out.best.unwrap();
        assert_eq!((w, c.depth, c.result), (0, 3, 100));
    }

    #[test]
    fn the_monitor_raises_stop() {
        let mut pool = WorkerPool::new();
        let stop = AtomicBool::new(false);
        let polls = AtomicUsize::new(0);
        let out = pool.run(
            2,
            &stop,
            |_, rep: &Reporter<()>| {
                let t = Instant::now();
                while !stop.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                rep.completed(1, ());
            },
            || polls.fetch_add(1, Ordering::SeqCst) >= 5,
        );
        assert!(stop.load(Ordering::SeqCst));
        assert!(polls.load(Ordering::SeqCst) >= 6);
        assert!(out.best.is_some());
    }

    #[test]
    fn pool_is_rebuilt_only_when_the_count_changes() {
        let mut pool = WorkerPool::new();
        pool.ensure(2);
        let first = pool.pool.as_ref().map(|p| p as *const _);
        pool.ensure(2);
        assert_eq!(pool.pool.as_ref().map(|p| p as *const _), first);
        pool.ensure(3);
        assert_eq!(pool.threads(), 3);
    }
}
