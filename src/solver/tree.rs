//! What a VCT proof is: the attacker's [`Tree`] of forced moves and the answer of a VCT search
//! ([`VctProof`]). Both VCT searches return it and the verifier checks it; it lives apart from
//! either so that neither the search nor the verifier depends on the other through it.

use crate::game::board::Pos;

/// A proof tree: the attacker plays `attack`; for each listed defender reply the proof goes on
/// with its subtree; every other defender move loses at once or to an attacker VCF (which the
/// verifier finds and checks itself). A tree whose `attack` is a five has no replies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The attacker's move.
    pub attack: Pos,
    /// The defender replies that need their own continuation.
    pub replies: Vec<(Pos, Tree)>,
}

impl Tree {
    /// A tree from a VCF line (see [`super::Proof::Win`]).
    pub fn from_line(line: &[Pos]) -> Tree {
        let attack = line[0];
        let replies = if line.len() >= 3 {
            vec![(line[1], Tree::from_line(&line[2..]))]
        } else {
            Vec::new()
        };
        Tree { attack, replies }
    }

    /// Attacker moves in the tree (its size).
    pub fn attack_count(&self) -> usize {
        1 + self
            .replies
            .iter()
            .map(|(_, t)| t.attack_count())
            .sum::<usize>()
    }

    /// The longest line through the tree, in plies.
    pub fn depth(&self) -> usize {
        1 + self
            .replies
            .iter()
            .map(|(_, t)| 1 + t.depth())
            .max()
            .unwrap_or(0)
    }
}

/// The answer of a VCT search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VctProof {
    /// A verified forced win.
    Win(Tree),
    /// No win among the solver's threat moves (see the module docs).
    NoWin,
    /// The budget or the depth cap ran out: nothing is claimed.
    Unknown,
}
