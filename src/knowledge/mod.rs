//! Layer 5, knowledge: what is known before searching — opening books, the opening prior, and
//! the opening rules' decisions (Swap2, Soosõrv-N) — consulted by the engine before it searches.

pub mod book;
