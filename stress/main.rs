//! Stress tests: the transposition table under concurrent writers, lazy SMP searches stopped at
//! random, and whole protocol games under `BANGO_SMP=4`. Short runs by default (CI);
//! `BANGO_STRESS=long` runs each for a minute or more.

mod fuzz;
mod protocol;
mod resources;
mod smp;
mod tt;
