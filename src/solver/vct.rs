//! The VCT solver: the attacker plays fours and threat moves, the defender tries every move that
//! could stop the threat.
//!
//! # Search
//! Iterative deepening on the number of attacker threat moves, depth-first AND/OR search, with a
//! table of refuted positions (`EXACT` or the depth they were refuted at). At an attacker node
//! a VCF (found by the [`VcfSolver`]) wins outright. Otherwise the attacker tries each legal
//! move that may make a four or a three (the window supersets of [`threats::scan`]); when the
//! defender has one five point, only the block there.
//!
//! # Defences (never truncated)
//! - After a four: every legal move that stops all its five points.
//! - After any other move: the move is a threat only if the attacker then has a VCF `L` were it
//!   to move again (else the move is dropped). A defender move `q` refutes the threat only if
//!   it breaks `L`, so the candidates are every cell that could touch `L` (its cells, the line
//!   neighbourhoods of each, the cells around them) plus every defender four anywhere. Each
//!   candidate is played and the attacker's VCF re-proved; `q` is a defence unless a VCF is
//!   proved after it (a re-proof that runs out of depth keeps `q`: a larger defence set is the
//!   sound side).
//!
//! The tree returned is checked by [`verify::verify_tree`], which generates defences by brute
//! force, before [`VctSolver::solve`] reports a win.

use super::replay::{self, DefenderFives};
use super::threats::{self, Windows};
use super::vcf::{self, Res, VcfSolver};
use super::{verify, Budget};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{self, Rule};

const EXACT: u8 = u8::MAX;

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

/// Knobs of the VCT search.
#[derive(Clone, Copy, Debug)]
pub struct VctOptions {
    /// Most attacker threat moves (iterative deepening stops here).
    pub max_depth: u8,
    /// Most fours in each VCF the search runs.
    pub vcf_fours: u8,
    /// Test hook: drop one defence at every defender node (makes the solver unsound on purpose,
    /// so tests can show the verifier catches it). Never set outside tests.
    pub drop_one_defence: bool,
    /// Skip the final verification (tests of the verifier itself use this to see raw trees).
    pub skip_verify: bool,
}

impl Default for VctOptions {
    fn default() -> Self {
        VctOptions {
            max_depth: 12,
            vcf_fours: 24,
            drop_one_defence: false,
            skip_verify: false,
        }
    }
}

enum Out {
    Win(Tree),
    Fail { exact: bool },
    Abort,
}

/// A reusable VCT solver.
#[derive(Debug)]
pub struct VctSolver {
    /// The VCF solver used for wins and threat tests.
    pub vcf: VcfSolver,
    windows: Windows,
    table: vcf::KeyMap<u8>,
    rule: Option<Rule>,
    /// Attacker and defender nodes searched.
    pub nodes: u64,
    /// The search knobs.
    pub options: VctOptions,
    /// Most entries the table holds: a full table is emptied before the next one is stored
    /// (a cache miss later, never a wrong answer), which bounds its memory.
    pub max_entries: usize,
}

impl Default for VctSolver {
    fn default() -> Self {
        VctSolver::new(VctOptions::default())
    }
}

impl VctSolver {
    /// A solver with empty tables.
    pub fn new(options: VctOptions) -> VctSolver {
        VctSolver {
            vcf: VcfSolver::new(),
            windows: Windows::new(15),
            table: vcf::KeyMap::default(),
            rule: None,
            nodes: 0,
            options,
            max_entries: usize::MAX,
        }
    }

    /// Records a result, emptying a full table first (see [`VctSolver::max_entries`]).
    fn remember(&mut self, key: u64, value: u8) {
        if self.table.len() >= self.max_entries {
            self.table.clear();
        }
        self.table.insert(key, value);
    }

    /// Searches for a VCT of `attacker` as if it were to move. A found tree is verified against
    /// all defences within the same budget; if verification fails or cannot finish, the answer
    /// is `Unknown`. The board is left as found.
    pub fn solve(
        &mut self,
        board: &mut Board,
        rule: Rule,
        attacker: Color,
        budget: &Budget,
    ) -> VctProof {
        let side = board.side_to_move();
        board.set_side_to_move(attacker);
        let out = self.search(board, rule, attacker, budget);
        let proof = match out {
            Out::Win(tree) => {
                if self.options.skip_verify
                    || verify::verify_tree(board, rule, &tree, budget).is_ok()
                {
                    VctProof::Win(tree)
                } else {
                    VctProof::Unknown
                }
            }
            Out::Fail { exact: true } => VctProof::NoWin,
            Out::Fail { exact: false } | Out::Abort => VctProof::Unknown,
        };
        board.set_side_to_move(side);
        proof
    }

    fn search(&mut self, b: &mut Board, rule: Rule, a: Color, budget: &Budget) -> Out {
        if self.windows.size() != b.size() || self.rule != Some(rule) {
            self.windows = Windows::new(b.size());
            self.table.clear();
            self.rule = Some(rule);
        }
        for depth in 1..=self.options.max_depth {
            match self.or_node(b, rule, a, depth, budget) {
                Out::Fail { exact: false } => continue,
                other => return other,
            }
        }
        Out::Fail { exact: false }
    }

    fn or_node(&mut self, b: &mut Board, rule: Rule, a: Color, depth: u8, budget: &Budget) -> Out {
        self.nodes += 1;
        // A VCT node runs VCF searches of its own: the clock is read every 8 of them, not 256.
        if budget.exhausted(self.nodes) || (self.nodes % 8 == 0 && budget.expired()) {
            return Out::Abort;
        }
        let key = b.key();
        if let Some(&d) = self.table.get(&key) {
            if d >= depth {
                return Out::Fail { exact: d == EXACT };
            }
        }
        let vcf_fours = self.options.vcf_fours;
        let mut exact = match self.vcf.search(b, rule, a, vcf_fours, budget) {
            Res::Win(line) => return Out::Win(Tree::from_line(&line)),
            Res::Abort => return Out::Abort,
            Res::Fail { exact } => exact,
        };
        if depth == 0 {
            return Out::Fail { exact: false };
        }
        let d = a.opponent();
        let s = threats::scan(b, &self.windows, a);
        let dfive = threats::confirm_fives(b, &s.d_five, d, rule);
        let mut cands: Vec<Pos> = match dfive.len() {
            0 => {
                let mut set = s.a_four;
                for (w, t) in set.0.iter_mut().zip(s.a_three.0.iter()) {
                    *w |= *t;
                }
                set.iter().collect()
            }
            1 => vec![dfive[0]],
            _ => {
                if exact {
                    self.remember(key, EXACT);
                }
                return Out::Fail { exact };
            }
        };
        if let Some(last) = b.last_move() {
            cands.sort_by_key(|&p| (!s.a_four.contains(p), p.chebyshev(last)));
        }
        for m in cands {
            if !threats::legal(b, m, a, rule) {
                continue;
            }
            b.put(m, a).expect("legal move");
            let r = self.and_node(b, rule, a, m, depth, dfive.len() == 1, budget);
            b.undo();
            match r {
                Out::Win(replies) => {
                    return Out::Win(Tree {
                        attack: m,
                        replies: replies.replies,
                    })
                }
                Out::Fail { exact: e } => exact &= e,
                Out::Abort => return Out::Abort,
            }
        }
        self.remember(key, if exact { EXACT } else { depth });
        Out::Fail { exact }
    }

    /// The defender to move after the attacker's `m`. A win is returned as a tree whose
    /// `replies` are the defences (its `attack` is unused). Only a free threat move (neither a
    /// four nor the forced block of a defender four) uses up depth: forcing exchanges consume
    /// board cells, so they cannot go on for ever.
    #[allow(clippy::too_many_arguments)]
    fn and_node(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        m: Pos,
        depth: u8,
        forced: bool,
        budget: &Budget,
    ) -> Out {
        let d = a.opponent();
        let fives = threats::five_points_through(b, m, a, rule);
        let mut defs = if !fives.is_empty() {
            threats::stopping_moves(b, &fives, a, rule)
        } else {
            match self.threat_defences(b, rule, a, budget) {
                Ok(defs) => defs,
                Err(out) => return out,
            }
        };
        if self.options.drop_one_defence && !defs.is_empty() {
            defs.pop();
        }
        let child_depth = if forced || !fives.is_empty() {
            depth
        } else {
            depth - 1
        };
        let mut replies = Vec::with_capacity(defs.len());
        for q in defs {
            b.put(q, d).expect("defence is empty");
            let r = self.or_node(b, rule, a, child_depth, budget);
            b.undo();
            match r {
                Out::Win(t) => replies.push((q, t)),
                other => return other,
            }
        }
        Out::Win(Tree { attack: m, replies })
    }

    /// After a non-four attacker move: the defences, or the verdict when the move threatens
    /// nothing (a failed threat is `Fail`, exact only when the VCF test was).
    fn threat_defences(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        budget: &Budget,
    ) -> Result<Vec<Pos>, Out> {
        let d = a.opponent();
        b.set_side_to_move(a);
        let vcf_fours = self.options.vcf_fours;
        let threat = self.vcf.search(b, rule, a, vcf_fours, budget);
        b.set_side_to_move(d);
        let line = match threat {
            Res::Win(line) => line,
            Res::Fail { exact } => return Err(Out::Fail { exact }),
            Res::Abort => return Err(Out::Abort),
        };
        let mut cands = vcf::line_region(b, &line);
        let s = threats::scan(b, &self.windows, d);
        for q in s.a_four.iter().chain(s.a_five.iter()) {
            if !cands.contains(&q) {
                cands.push(q);
            }
        }
        let mut defs = Vec::new();
        for q in cands {
            if !threats::legal(b, q, d, rule) {
                continue;
            }
            if rules::is_win_at(b, q, d, rule) {
                // The defender wins at once: the "threat" lost.
                return Err(Out::Fail { exact: true });
            }
            b.put(q, d).expect("legal move");
            let still = if replay::replay_line(b, rule, a, &line, DefenderFives::Anywhere) {
                Res::Win(Vec::new())
            } else {
                self.vcf.search(b, rule, a, vcf_fours, budget)
            };
            b.undo();
            match still {
                Res::Win(_) => {}
                Res::Fail { .. } => defs.push(q),
                Res::Abort => return Err(Out::Abort),
            }
        }
        Ok(defs)
    }
}

/// Searches for a VCT of `attacker` (as if it were to move) with a fresh solver and default
/// options; see [`VctSolver::solve`].
pub fn find_vct(board: &mut Board, rule: Rule, attacker: Color, budget: &Budget) -> VctProof {
    VctSolver::default().solve(board, rule, attacker, budget)
}
