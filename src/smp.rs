//! Lazy SMP plumbing: run N private search workers over shared state and pick the answer.
//!
//! The search itself lives in `crate::search`; this module only knows how to launch workers,
//! stop them together and aggregate what they completed:
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

use parking_lot::Mutex;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

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

/// Owns the dedicated thread pool and runs workers on it.
#[derive(Default)]
pub struct WorkerPool {
    pool: Option<rayon::ThreadPool>,
}

impl WorkerPool {
    /// A pool with no threads yet (one worker needs none).
    pub fn new() -> WorkerPool {
        WorkerPool { pool: None }
    }

    /// Makes sure a pool of exactly `workers` threads exists when `workers > 1` (call it when
    /// the thread count is set, so that the first move does not pay for thread creation).
    pub fn ensure(&mut self, workers: usize) {
        if workers <= 1 {
            return;
        }
        if self.pool.as_ref().map(|p| p.current_num_threads()) != Some(workers) {
            self.pool = Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(workers)
                    .thread_name(|i| format!("bango-worker-{i}"))
                    .stack_size(16 << 20)
                    .build()
                    .expect("build the search thread pool"),
            );
        }
    }

    /// Threads in the current pool (0 when none was needed yet).
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(0, |p| p.current_num_threads())
    }

    /// Runs `workers` instances of `work(index, reporter)`; `stop` is shared with them. While
    /// they run, the calling thread polls `monitor` about every millisecond and raises `stop`
    /// when it returns true (the time monitor). With one worker, `work` runs on the calling
    /// thread and `monitor` is not polled: the worker must watch its own limits.
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
        let workers = workers.max(1);
        let reporters: Vec<Reporter<R>> = (0..workers).map(|_| Reporter::new()).collect();
        let panicked: Vec<AtomicBool> = (0..workers).map(|_| AtomicBool::new(false)).collect();
        let finished = AtomicUsize::new(0);
        let run_one = |i: usize| {
            if catch_unwind(AssertUnwindSafe(|| work(i, &reporters[i]))).is_err() {
                panicked[i].store(true, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            }
            finished.fetch_add(1, Ordering::SeqCst);
        };
        if workers == 1 {
            run_one(0);
        } else {
            self.ensure(workers);
            let pool = self.pool.as_ref().expect("pool built by ensure");
            pool.in_place_scope(|scope| {
                for i in 0..workers {
                    let run_one = &run_one;
                    scope.spawn(move |_| run_one(i));
                }
                while finished.load(Ordering::SeqCst) < workers {
                    if !stop.load(Ordering::Relaxed) && monitor() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    std::thread::sleep(Duration::from_micros(500));
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::time::Instant;

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
