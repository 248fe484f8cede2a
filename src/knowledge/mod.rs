//! Layer 5, knowledge: what is known before searching — opening books, the opening prior, the
//! opening rules' decisions (Swap2, Soosõrv-N) and the analysts' position database — consulted
//! by the engine before it searches.

pub mod book;
// SQLite is left out of the loom build (`--cfg loom` reaches every crate; the models need none).
#[cfg(not(loom))]
pub mod database;
