//! Moves that some search worker is searching right now: the shared marks behind lazy SMP's
//! deferral of busy moves (the "simplified ABDADA" idea).
//!
//! Lazy SMP workers share only the transposition table, so two workers that reach the same node
//! at once tend to search the same first moves in the same order and duplicate each other's
//! work until one of them stores a result. With these marks, a worker about to search move `m`
//! of position `p` marks the pair; another worker meeting the same pair (when it is not the
//! node's first move) puts it off and searches the node's other moves first. When it comes back
//! to the put-off move, the table usually holds the first worker's result.
//!
//! # Invariants
//! - The marks change only the order in which a worker visits a node's moves, never which moves
//!   it searches: a lost, stale or colliding mark costs order, never correctness. So every
//!   access is a single `Relaxed` atomic operation (nothing is published through a mark), and
//!   the one-worker search, which has no marks at all, stays deterministic.
//! - The table is one fixed array of atomics, allocated once per set of workers: marking a move
//!   allocates nothing.
//! - A slot holds the tag of the pair marked there last, or 0. A clear removes only its own tag
//!   (compare-and-exchange), so it never erases a mark another worker made in the same slot.

use crate::game::board::Pos;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two): 2^15 tags, 256 KiB, far more than the moves in flight
/// at any moment (workers × plies), so collisions are rare.
const SLOT_BITS: u32 = 15;

/// The shared marks of the moves being searched (see the module docs).
pub struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

/// The receipt of one mark: hand it back to [`BusyMoves::clear`] when the move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "a mark that is never cleared leaves its move looking busy"]
pub struct Mark(u64);

impl Default for BusyMoves {
    fn default() -> BusyMoves {
        BusyMoves::new()
    }
}

impl BusyMoves {
    /// An empty table.
    pub fn new() -> BusyMoves {
        BusyMoves {
            slots: (0..1usize << SLOT_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// The pair's tag: the position's key mixed with the move, never 0 (0 is an empty slot).
    #[inline]
    fn tag(key: u64, m: Pos) -> u64 {
        (key ^ (m.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    /// The slot of a tag: its high bits, which the multiplication above mixes best.
    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> (64 - SLOT_BITS)) as usize]
    }

    /// Whether some worker is searching move `m` of the position with key `key` right now.
    #[inline]
    pub fn is_busy(&self, key: u64, m: Pos) -> bool {
        let tag = BusyMoves::tag(key, m);
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// Marks move `m` of position `key` as being searched.
    #[inline]
    pub fn mark(&self, key: u64, m: Pos) -> Mark {
        let tag = BusyMoves::tag(key, m);
        self.slot(tag).store(tag, Ordering::Relaxed);
        Mark(tag)
    }

    /// Removes a mark, unless another pair has been marked in its slot since.
    #[inline]
    pub fn clear(&self, mark: Mark) {
        let _ = self
            .slot(mark.0)
            .compare_exchange(mark.0, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_makes_exactly_its_pair_busy_until_cleared() {
        let busy = BusyMoves::new();
        let (key, m) = (0x1234_5678_9abc_def0, Pos(112));
        assert!(!busy.is_busy(key, m));
        let mark = busy.mark(key, m);
        assert!(busy.is_busy(key, m));
        assert!(!busy.is_busy(key, Pos(113)), "another move of the position");
        assert!(
            !busy.is_busy(key ^ 0x40, m),
            "the same move of another position"
        );
        busy.clear(mark);
        assert!(!busy.is_busy(key, m));
    }

    #[test]
    fn a_clear_never_erases_a_later_mark_in_the_same_slot() {
        let busy = BusyMoves::new();
        let (key, m) = (0xdead_beef_0000_0001, Pos(40));
        let first = busy.mark(key, m);
        // A second pair whose tag lands in the same slot: flip a low bit of the key, which
        // changes the tag but not its high (slot) bits.
        let other_key = key ^ 0x100;
        assert_eq!(
            BusyMoves::tag(key, m) >> (64 - SLOT_BITS),
            BusyMoves::tag(other_key, m) >> (64 - SLOT_BITS)
        );
        let second = busy.mark(other_key, m);
        busy.clear(first);
        assert!(
            busy.is_busy(other_key, m),
            "the first clear erased the second mark"
        );
        busy.clear(second);
        assert!(!busy.is_busy(other_key, m));
    }
}
