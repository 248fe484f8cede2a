//! The arena: matches against fake brains, and its statistics against hand-computed cases.

mod matches;
mod stats;
mod yardstick;
