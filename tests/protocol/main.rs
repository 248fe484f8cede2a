//! The protocol layer, black box: transcripts of the built brain over pipes and TCP, and whole
//! games between two brains.

mod analysis;
mod openings;
mod resources;
mod selfplay;
mod transcripts;
mod yixin_board;
