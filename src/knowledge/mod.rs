//! Layer 5, knowledge: what is known before searching — opening books, the opening prior and
//! Swap2 — consulted by the engine before it searches.

pub mod book;
