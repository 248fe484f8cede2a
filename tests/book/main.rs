//! Opening knowledge: the shipped books, the book tools, the book in play and Swap2.

mod files;
mod play;
mod swap2;
mod tools;
