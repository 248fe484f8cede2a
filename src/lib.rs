//! bango: a Gomoku (five in a row) engine and the `pbrain-bango` Gomocup brain.
//!
//! Layers, each looking only down:
//! - [`board`]: stones, bitboards, Zobrist keys, history.
//! - [`rules`]: what wins and what is forbidden under freestyle, standard, renju and caro.
//! - [`notation`]: the puzzle and opening line formats of the shared data.
//! - [`limits`]: the clock and the depth/node caps of one move.
//! - [`pattern`], [`eval`], [`movegen`]: line patterns, the incremental evaluation and the
//!   threat-ladder move ordering.
//! - [`search`], [`timeman`]: the alpha-beta worker and its time budget.
//! - [`rng`]: the one small seeded generator (reproducible schedules and random play).
//! - [`algo`]: the move-choosing trait and its registry (`BANGO_ALGO`).
//! - [`book`]: opening books, their tools, the classical openings.
//! - [`vcf`]: threat-space proof search.
//! - [`protocol`]: the Gomocup session over stdin/stdout or TCP.
//! - [`gui`]: the browser board, the same session over a WebSocket (axum on tokio).
//! - [`arena`]: matches between brains.
//! - [`tt`]: the transposition table shared by search workers.
//! - [`smp`]: launching N search workers on a dedicated pool and choosing their answer.
//! - [`busy`]: the marks of the moves search workers are searching, so others put them off.
//! - [`bench`](mod@bench): the fixed-depth node-count signature.
#![deny(missing_docs)]

pub mod algo;
pub mod arena;
pub mod bench;
pub mod board;
pub mod book;
pub mod busy;
pub mod config;
pub mod eval;
#[cfg(not(loom))]
pub mod gui;
pub mod movegen;
pub mod notation;
pub mod pattern;
pub mod position;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod settings;
pub mod smp;
pub mod solver;
mod sync;
pub mod timeman;
pub mod tt;
