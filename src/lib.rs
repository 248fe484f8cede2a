//! bango: a Gomoku (five in a row) engine and the `pbrain-bango` Gomocup brain.
//!
//! # Architecture
//!
//! One crate in layers; each module looks only at the layers below it. The binary
//! (`src/main.rs` and its `cli` layer) sits on top: it alone reads the process (arguments,
//! environment), builds the one [`engine::config::Config`] and hands plain values down.
//!
//! | layer | folder | modules | owns |
//! |---|---|---|---|
//! | 1 game | [`game`] | `rng`, `board`, `rules`, `notation`, `pattern` | stones and keys, what wins and what is forbidden per rule, the data formats, line patterns |
//! | 2 evaluation | [`evaluation`] | `weights`, `eval`, `position`, `movegen` | the values of pattern combinations, what a cell is worth, the incrementally evaluated searched position, threat-ranked moves |
//! | 3 proofs | [`solver`] | `threats`, `replay`, `tree`, `vcf`, `verify`, `dfpn` | VCF and VCT threat-space search and their independent verifiers |
//! | 4 search | [`search`] | `settings`, `timeman`, `tt`, `known`, `busy`, `alphabeta`, `smp` | declared parameters, time plans, the shared table, positions known beforehand, busy-move marks, the alpha-beta worker, lazy SMP |
//! | 5 knowledge | [`knowledge`] | `book`, `database` | opening books, the opening prior, Swap2 and Soosõrv, the position database |
//! | 6 engine | [`engine`] | `config`, `resources`, `algo` | the one configuration, the threads and table it comes to on this machine, the move-choosing algorithms |
//! | 7 front ends | [`front`] | `protocol`, `gui`, `arena` (and `paired`), `bench`, `teacher`, `train`, `farm`, `tune`, `yardstick` | the Gomocup session (stdin, TCP, WebSocket), the browser board, matches between brains, the node-count signature, agreement with a labelled file, self-play data and the fit of the weights, runs cut into shards (local processes or Slurm array tasks) and their exact merge, SPSA tuning of the search's tunables by games, decisive positions of lost games judged by a stronger brain |
//!
//! A module may use its own layer and the layers below, never one above, and no two modules
//! use each other (the layering test in the binary's `cli` checks both on every `crate::` and
//! `super::` path, and that this table and the README's agree).
//!
//! Invariants each layer keeps:
//! - **game and evaluation** know nothing of search: a [`evaluation::position::Position`] is kept equal to
//!   the one rebuilt from its board after any make/unmake sequence.
//! - **proofs** claim a win only with a line or tree that the verifier, which knows only the
//!   rules, accepts; out of budget is "unknown", never a win.
//! - **search** is deterministic with one worker and a depth or node cap (the bench signature
//!   pins it); it reads no clock but the [`search::timeman::Plan`] it is given and knows nothing of the
//!   protocol. The table never returns a torn entry (loom models and stress tests).
//! - **engine** answers every request with a legal move within the plan's hard deadline.
//! - **front ends** never crash or half-apply a command on bad input: one `ERROR` line and the
//!   session goes on; one session implementation serves every transport.
//!
//! Where new things go:
//! - a new **rule**: [`game::rules::Rule`] and its win/forbidden checks in [`game::rules`], its pattern
//!   reading in [`game::pattern`]; everything above asks those.
//! - a new **algorithm**: a type implementing [`engine::algo::Algorithm`] in `src/engine/algo/`, registered
//!   in [`engine::algo::by_name`].
//! - a new **search feature**: a numbered step in `search/alphabeta/node.rs` (or the move loop in
//!   `search/alphabeta/movepick.rs`), its switch and tunables declared once in [`search::alphabeta::params`].
//! - a new **setting**: one line in a `declare_settings!` block ([`engine::config::Brain`] or
//!   [`search::alphabeta::Params`]); the environment, `--set`, `INFO` (if keyed) and `--help` follow.
//! - a new **protocol command**: name it in `front/protocol/command.rs`, parse it in
//!   `front/protocol/parser.rs` (parsing only), apply it in `front/protocol/session.rs` (or the
//!   session file of its kind: `analysis.rs`, `swap.rs`, `openings.rs`).
//! - a new **transport**: feed lines to [`front::protocol::run_session`] (see `front/protocol/tcp.rs` and
//!   [`front::gui`]).
//! - a new **tool**: library functions in the layer they belong to, the command line in
//!   `src/cli/`.
//! - a new **kind of farmed run**: a [`front::farm::Kind`], its shard and its merge in
//!   `src/front/farm/` (a shard seeds each work item by its place in the run), its arguments
//!   parsed in `src/cli/farm.rs`.
#![deny(missing_docs)]

pub mod engine;
pub mod evaluation;
pub mod front;
pub mod game;
pub mod knowledge;
pub mod search;
pub mod solver;

// The laboratory notebook (match logs, measurements, retired experiments): documentation only.
pub mod experiments;
