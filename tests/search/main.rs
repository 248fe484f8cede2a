//! The search layer: the alpha-beta engine (tactics, equivalences, determinism, limits), the
//! shared puzzle suites at fixed node budgets, and lazy SMP.

mod defences;
mod engine;
mod four_three;
mod known;
mod puzzles;
mod random_games;
mod smp;
