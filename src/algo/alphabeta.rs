//! `alphabeta`: the alpha-beta engine behind the [`Algorithm`] trait (the registry default),
//! searching with `config.brain.threads` lazy SMP workers ([`crate::smp::LazySmp`]).
//!
//! It owns the transposition table and the workers for the whole game: the table is kept
//! between moves (Zobrist keys are fixed, so last move's deep entries still match) and cleared
//! at a new game, together with the workers' history, so a game replayed from its start is
//! searched identically by one worker.
//!
//! Nothing slow lands on a move's clock: the table is a [`TableHandle`] (a new size is
//! allocated in the background while the old table keeps serving, a replaced one is dropped by
//! a helper, a new game is a constant-time clear), and the worker pool is built when the thread
//! count changes, at the new game or at the first move that sees the new count. One caveat of
//! the background allocation: right after a size change (and at start-up with a table above
//! [`crate::tt::SMALL_BYTES`]) the first moves may search a smaller table, so a fixed-depth
//! search is reproducible only once the table is in place (see [`AlphaBeta::with_table`]).

use super::proofs::{RootProofs, Verdict};
use super::{Algorithm, Request};
use crate::board::{Board, Pos};
use crate::book::play::Opening;
use crate::book::swap2::{self, Swap2Reply};
use crate::config::Config;
use crate::smp::{Job, LazySmp};
use crate::timeman::{self, Plan};
use crate::tt::{self, TableHandle};

/// How [`AlphaBeta::decide`] chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A book move in a quiet position, played without search.
    Book,
    /// A verified own VCF.
    Vcf,
    /// A verified own VCT.
    Vct,
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
    /// [`crate::search::WIN`]); `None` for a book move.
    pub score: Option<i32>,
    /// Where the move came from.
    pub source: Source,
}

/// The alpha-beta algorithm.
pub struct AlphaBeta {
    table: TableHandle,
    smp: LazySmp,
    opening: Opening,
    proofs: RootProofs,
}

impl AlphaBeta {
    /// An engine configured by `config` (search parameters, book, proofs, workers) with the
    /// table size it asks for (its allocation continues in the background).
    pub fn new(config: &Config) -> AlphaBeta {
        AlphaBeta::build(config, AlphaBeta::table_bytes(config))
    }

    fn build(config: &Config, bytes: usize) -> AlphaBeta {
        let mut smp = LazySmp::new(1, config.search);
        smp.set_defer(config.brain.smp_defer);
        #[cfg(feature = "experiments")]
        if config.experiments.smp_vote {
            smp.aggregation = crate::smp::Aggregation::Vote;
        }
        AlphaBeta {
            table: TableHandle::new(bytes),
            smp,
            opening: Opening::new(config.brain.book, config.exe.clone()),
            proofs: RootProofs::new(config.brain.proofs),
        }
    }

    /// An engine configured by `config` with a table of about `bytes`, fully allocated before
    /// this returns (until a new game with other settings resizes it).
    pub fn with_table(config: &Config, bytes: usize) -> AlphaBeta {
        let engine = AlphaBeta::build(config, bytes);
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

    fn table_bytes(config: &Config) -> usize {
        tt::table_bytes(config.brain.hash_kib, config.brain.max_memory).max(1 << 16)
    }
}

impl Algorithm for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn think(&mut self, req: &Request<'_>) -> Pos {
        self.decide(req).pos
    }

    fn swap2(&mut self, req: &Request<'_>) -> Option<Swap2Reply> {
        self.swap_decision(req, false)
    }

    fn swap1(&mut self, req: &Request<'_>) -> Option<Swap2Reply> {
        self.swap_decision(req, true)
    }

    fn new_game(&mut self, _size: usize, config: &Config) {
        self.table.resize(AlphaBeta::table_bytes(config));
        self.table.new_game();
        self.smp.set_threads(config.brain.threads);
        self.smp.clear();
        self.proofs.clear();
    }
}

impl AlphaBeta {
    /// [`Algorithm::think`] with the score and the source of the move: the one path every move
    /// of the brain takes (book, root proofs, then the search).
    pub fn decide(&mut self, req: &Request<'_>) -> Decision {
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
        let plan = timeman::plan(&req.limits);
        let mut hints = advice.hints;
        match self
            .proofs
            .probe(req.board, req.rule, &plan, req.limits.started, req.stop)
        {
            Verdict::Vcf(line) => {
                (req.output)(&format!(
                    "vcf win in {} plies, playing {}",
                    line.len(),
                    line[0]
                ));
                return Decision {
                    pos: line[0],
                    score: Some(crate::search::WIN - line.len() as i32),
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
                    score: Some(crate::search::WIN_MIN),
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
            Verdict::Lost | Verdict::Nothing => {}
        }
        // Normally already done at the new game; a thread count changed since costs the pool.
        self.smp.set_threads(req.config.brain.threads);
        self.smp.set_root_hints(&hints);
        let tt = self.table.table();
        tt.new_search();
        let show = req.config.brain.show_detail != 0;
        let output = |line: &str| {
            if show {
                (req.output)(line)
            }
        };
        let job = Job {
            board: req.board,
            rule: req.rule,
            plan,
            stop: req.stop,
            output: &output,
        };
        let r = self.smp.search(&tt, &job).result;
        Decision {
            pos: r.best,
            score: Some(r.score),
            source: Source::Search { depth: r.depth },
        }
    }

    /// Swap2 ([`swap2::decide`]) or Swap1 ([`swap2::choose_colour`] after three stones).
    fn swap_decision(&mut self, req: &Request<'_>, swap1: bool) -> Option<Swap2Reply> {
        self.smp.set_threads(req.config.brain.threads);
        let tt = self.table.table();
        let (smp, rule, stop) = (&mut self.smp, req.rule, req.stop);
        let silent = |_: &str| {};
        let mut search = |b: &Board, plan: Plan| {
            tt.new_search();
            let job = Job {
                board: b,
                rule,
                plan,
                stop,
                output: &silent,
            };
            smp.search(&tt, &job).result
        };
        if swap1 {
            if req.board.stone_count() != 3 {
                return None;
            }
            let mut b = req.board.clone();
            b.set_side_to_move(crate::board::Color::White);
            return Some(swap2::choose_colour(&b, &req.limits, &mut search));
        }
        swap2::decide(req.board, req.rule, &req.limits, &mut search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo;

    #[test]
    fn registered_as_the_default() {
        assert_eq!(algo::default_name(), "alphabeta");
        let c = Config::default();
        assert_eq!(algo::by_name("AlphaBeta", &c).unwrap().name(), "alphabeta");
    }

    #[test]
    fn table_size_follows_settings() {
        let mut c = Config::default();
        c.brain.hash_kib = 1024;
        c.brain.max_memory = 1 << 20;
        assert_eq!(AlphaBeta::table_bytes(&c), 1 << 18);
        assert_eq!(
            AlphaBeta::table_bytes(&Config::default()),
            tt::DEFAULT_BYTES
        );
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
