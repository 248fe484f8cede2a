//! The arena: matches between Gomocup brains, run as child processes exactly as a tournament
//! manager runs them, with openings, the arena's own clock, a referee, Elo and SPRT statistics
//! and game records.
//!
//! Layers inside, each looking only down:
//! - [`stats`]: Elo, error bars and the SPRT (pure arithmetic);
//! - [`openings`]: opening files and random openings (seeded by [`crate::game::rng`]);
//! - [`engine`]: one brain process over pipes, with a reader thread per process;
//! - [`analyst`]: one brain asked about single positions (a judge, or a player of positions);
//! - [`game`]: one refereed game ([`play_game`]);
//! - [`runner`]: the schedule, worker threads and reports ([`Match`]);
//! - [`record`]: PSQ game files and JSON;
//! - [`paired`]: two candidates' runs against one opponent, compared game by game.
//!
//! The `pbrain-bango arena` command line is a thin layer over [`Match`] in the binary's `cli`.
//!
//! Invariant: the schedule depends only on the engines, the options and the seed, never on
//! timing or on how many games run at once.

pub mod analyst;
pub mod engine;
pub mod game;
pub mod openings;
pub mod paired;
pub mod record;

pub mod runner;
pub mod stats;

pub use engine::EngineSpec;
pub use game::{play_game, GameConfig, GameRecord, MoveRecord, Reason};
pub use openings::{parse_openings, OpeningFormat};
pub use runner::{Match, MatchReport, Openings, ScheduledGame};
pub use stats::{Sprt, SprtDecision, Wdl};
