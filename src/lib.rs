//! bango: a Gomoku (five in a row) engine and the `pbrain-bango` Gomocup brain.
//!
//! # Architecture
//!
//! One crate in layers; each module looks only at the layers below it. The binary
//! (`src/main.rs` and its `cli` layer) sits on top: it alone reads the process (arguments,
//! environment), builds the one [`config::Config`] and hands plain values down.
//!
//! | layer | modules | owns |
//! |---|---|---|
//! | game | [`rng`], [`board`], [`rules`], [`notation`], [`pattern`] | stones and keys, what wins and what is forbidden per rule, the data formats, line patterns |
//! | evaluation | [`weights`], [`eval`], [`position`], [`movegen`] | the values of pattern combinations (fitted by default, hand-set behind a setting), what a cell is worth, the incrementally evaluated searched position, threat-ranked moves |
//! | proofs | [`solver`] | VCF and VCT threat-space search and their independent verifiers |
//! | search | [`timeman`], [`settings`], [`tt`], [`busy`], [`search`], [`smp`] | time plans, declared parameters, the shared table, busy-move marks, the alpha-beta worker (multi-PV, its reports as data), lazy SMP |
//! | knowledge | [`book`] | opening books, the opening prior, Swap2 |
//! | engine | [`algo`], [`config`], [`resources`] | move-choosing algorithms (alpha-beta with root proofs, random), the configuration they are built from, and the threads and table those settings come to on this machine within the memory limit |
//! | front ends | [`protocol`], [`gui`], [`arena`], [`bench`](mod@bench), [`teacher`], [`train`] | the Gomocup session (stdin, TCP, WebSocket; analysis commands, live markers, pondering), matches between brains, the node-count signature, agreement with a labelled position file, self-play data and the fit of the weights |
//! | farm | [`farm`] | a match or a self-play run cut into shards (local processes or Slurm array tasks), their result files and the exact merge |
//!
//! Invariants each layer keeps:
//! - **game and evaluation** know nothing of search: a [`position::Position`] is kept equal to
//!   the one rebuilt from its board after any make/unmake sequence.
//! - **proofs** claim a win only with a line or tree that the verifier, which knows only the
//!   rules, accepts; out of budget is "unknown", never a win.
//! - **search** is deterministic with one worker and a depth or node cap (the bench signature
//!   pins it); it reads no clock but the [`timeman::Plan`] it is given and knows nothing of the
//!   protocol. The table never returns a torn entry (loom models and stress tests).
//! - **engine** answers every request with a legal move within the plan's hard deadline.
//! - **front ends** never crash or half-apply a command on bad input: one `ERROR` line and the
//!   session goes on; one session implementation serves every transport.
//!
//! Where new things go:
//! - a new **rule**: [`rules::Rule`] and its win/forbidden checks in [`rules`], its pattern
//!   reading in [`pattern`]; everything above asks those.
//! - a new **algorithm**: a type implementing [`algo::Algorithm`] in `src/algo/`, registered
//!   in [`algo::by_name`].
//! - a new **search feature**: a numbered step in `search/node.rs` (or the move loop in
//!   `search/movepick.rs`), its switch and tunables declared once in [`search::params`].
//! - a new **setting**: one line in a `declare_settings!` block ([`config::Brain`] or
//!   [`search::Params`]); the environment, `--set`, `INFO` (if keyed) and `--help` follow.
//! - a new **protocol command**: parse it in `protocol/command.rs` (parsing only), apply it in
//!   `protocol/session.rs`.
//! - a new **transport**: feed lines to [`protocol::run_session`] (see `protocol/web.rs` and
//!   [`gui`]).
//! - a new **tool**: library functions in the layer they belong to, the command line in
//!   `src/cli/`.
//! - a new **kind of farmed run**: a [`farm::Kind`], its shard and its merge in `src/farm/`
//!   (a shard seeds each work item by its place in the run), its arguments parsed in
//!   `src/cli/farm.rs`.
#![deny(missing_docs)]

pub mod algo;
pub mod arena;
pub mod bench;
pub mod board;
pub mod book;
pub mod busy;
pub mod config;
pub mod eval;
pub mod farm;
#[cfg(not(loom))]
pub mod gui;
pub mod movegen;
pub mod notation;
pub mod pattern;
pub mod position;
pub mod protocol;
pub mod resources;
pub mod rng;
pub mod rules;
pub mod search;
pub mod settings;
pub mod smp;
pub mod solver;
mod sync;
pub mod teacher;
pub mod timeman;
pub mod train;
pub mod tt;
pub mod weights;
