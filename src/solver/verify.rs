//! Independent proof checkers: they replay a claimed win with the referee
//! ([`rules::play_checked`]) and generate the defender's options by brute force over every
//! empty cell of the board, sharing no move generation with the solvers.
//!
//! - [`verify_vcf`]: a line of attacker fours (ending with a five, or a four nothing stops) and
//!   forced replies. At each defender turn it computes the attacker's winning points by a full
//!   scan, fails if the defender can win at once, and requires the defender's listed reply to be
//!   the only legal move that stops every winning point.
//!
//! The scans skip only what geometry settles without the rules: a winning point lies in a
//! five-cell window holding four stones of its colour, and a stone off every line through the
//! winning points (within five cells) changes none of them. The unit tests hold these scans
//! equal to plain full scans.
//! - [`verify_tree`]: a VCT proof tree. At each defender turn it tries every empty cell: a move
//!   in the tree is followed; any other legal move must lose at once or to a VCF of the
//!   attacker that [`verify_vcf`] accepts (found by a VCF search, then checked here).

use super::tree::Tree;
use super::vcf::{Res, VcfSolver};
use super::Budget;
use crate::game::board::{cells_of_near_fives, BitBoard, Board, Color, Direction, Pos};
use crate::game::rules::{self, MoveOutcome, Rule};

/// Every empty cell where colour `c` wins at once, in index order (the referee asked at every
/// empty cell of a five-cell window holding four stones of `c`: a winning point's five is one).
pub(crate) fn winning_points(b: &Board, c: Color, rule: Rule) -> Vec<Pos> {
    cells_of_near_fives(b.stones(c))
        .iter()
        .filter(|&q| b.is_empty_at(q) && rules::is_win_at(b, q, c, rule))
        .collect()
}

/// The cells within five cells of one of `wins` on one of its four lines, in index order: only
/// a stone there can change whether the attacker wins at one of them (a winning point's line,
/// its ends included for caro's blocked ends, lies that close).
fn near_lines(b: &Board, wins: &[Pos]) -> BitBoard {
    let mut out = BitBoard::EMPTY;
    for &w in wins {
        out.insert(w);
        for dir in Direction::ALL {
            for k in (-5..=5).filter(|&k| k != 0) {
                if let Some(q) = w.offset(dir, k, b.size()) {
                    out.insert(q);
                }
            }
        }
    }
    out
}

/// After the attacker's move, the defender's legal moves that leave the attacker no winning
/// point, or an error if the defender can win at once.
#[cfg(test)]
fn defences(b: &mut Board, a: Color, rule: Rule) -> Result<Vec<Pos>, String> {
    let wins = winning_points(b, a, rule);
    defences_of(b, a, rule, &wins)
}

/// [`defences`] when the attacker's winning points `wins` are known.
fn defences_of(b: &mut Board, a: Color, rule: Rule, wins: &[Pos]) -> Result<Vec<Pos>, String> {
    let d = a.opponent();
    if let Some(q) = winning_points(b, d, rule).first() {
        return Err(format!("defender wins at {q}"));
    }
    // With a winning point, a stone away from every winning point's lines leaves them all.
    let cands: Vec<Pos> = if wins.is_empty() {
        b.empty_cells().collect()
    } else {
        near_lines(b, wins)
            .iter()
            .filter(|&q| b.is_empty_at(q))
            .collect()
    };
    let mut out = Vec::new();
    for q in cands {
        b.put(q, d).expect("empty cell");
        let stops = wins
            .iter()
            .all(|&w| w == q || !rules::is_win_at(b, w, a, rule));
        b.undo();
        if stops && !(d == Color::Black && rules::is_forbidden(b, q, rule)) {
            out.push(q);
        }
    }
    Ok(out)
}

/// Checks a VCF line from the side to move (see [`super::Proof::Win`]). The board is left as found.
pub fn verify_vcf(board: &Board, rule: Rule, line: &[Pos]) -> Result<(), String> {
    verify_vcf_seeing(board, rule, line, &mut Vec::new())
}

/// [`verify_vcf`], also listing in `seen` every cell its verdict looked at closely: the line's
/// moves and the attacker's winning points at each defender turn (see [`Footprint`]).
fn verify_vcf_seeing(
    board: &Board,
    rule: Rule,
    line: &[Pos],
    seen: &mut Vec<Pos>,
) -> Result<(), String> {
    seen.extend_from_slice(line);
    let mut b = board.clone();
    let a = b.side_to_move();
    let d = a.opponent();
    let mut i = 0;
    loop {
        let Some(&m) = line.get(i) else {
            return Err("line ends without a win".into());
        };
        match rules::play_checked(&mut b, m, a, rule) {
            Err(e) => return Err(format!("attacker move {m}: {e}")),
            Ok(MoveOutcome::Win) => {
                return if i + 1 == line.len() {
                    Ok(())
                } else {
                    Err(format!("moves after the five at {m}"))
                };
            }
            Ok(MoveOutcome::Draw) => return Err("board full".into()),
            Ok(MoveOutcome::Continue) => {}
        }
        let wins = winning_points(&b, a, rule);
        if wins.is_empty() {
            return Err(format!("attacker move {m} is not a four"));
        }
        seen.extend_from_slice(&wins);
        let defs = defences_of(&mut b, a, rule, &wins)?;
        let Some(&r) = line.get(i + 1) else {
            return if defs.is_empty() {
                Ok(())
            } else {
                Err(format!("the four at {m} is stopped by {}", defs[0]))
            };
        };
        match defs.as_slice() {
            [] => {
                // Nothing stops the four: after any legal reply the next move must be a five.
                rules::play_checked(&mut b, r, d, rule)
                    .map_err(|e| format!("defender move {r}: {e}"))?;
                let Some(&f) = line.get(i + 2) else {
                    return Err("line ends without a win".into());
                };
                return match rules::play_checked(&mut b, f, a, rule) {
                    Ok(MoveOutcome::Win) if i + 3 == line.len() => Ok(()),
                    _ => Err(format!(
                        "after the unstoppable four {m}, {f} is not the final five"
                    )),
                };
            }
            [only] if *only == r => {
                rules::play_checked(&mut b, r, d, rule)
                    .map_err(|e| format!("defender move {r}: {e}"))?;
            }
            [only] => return Err(format!("the forced reply to {m} is {only}, not {r}")),
            _ => return Err(format!("the four at {m} has {} defences", defs.len())),
        }
        i += 2;
    }
}

/// Checks a VCT proof tree from the side to move against every defender move, within `budget`
/// (running out of it is an error: nothing unchecked is accepted). The board is left as found.
pub fn verify_tree(board: &Board, rule: Rule, tree: &Tree, budget: &Budget) -> Result<(), String> {
    verify_tree_with(board, rule, tree, budget, true)
}

/// [`verify_tree`], with or without the [`Footprint`] shortcut (tests hold the two equal).
pub(crate) fn verify_tree_with(
    board: &Board,
    rule: Rule,
    tree: &Tree,
    budget: &Budget,
    shortcut: bool,
) -> Result<(), String> {
    let mut b = board.clone();
    let a = b.side_to_move();
    let mut v = TreeCheck {
        rule,
        a,
        budget,
        solver: VcfSolver::new(),
        cache: Vec::new(),
        shortcut,
    };
    v.node(&mut b, tree)
}

/// One tree check: the rule, the attacker, the budget, and the VCF search and recently
/// accepted lines shared by every refutation.
struct TreeCheck<'a> {
    rule: Rule,
    a: Color,
    budget: &'a Budget<'a>,
    solver: VcfSolver,
    cache: Vec<Vec<Pos>>,
    /// Whether the [`Footprint`] shortcut may settle a defence.
    shortcut: bool,
}

impl TreeCheck<'_> {
    /// Plays the attacker's move of `tree` and checks every defender reply to it.
    fn node(&mut self, b: &mut Board, tree: &Tree) -> Result<(), String> {
        let m = tree.attack;
        match rules::play_checked(b, m, self.a, self.rule) {
            Err(e) => return Err(format!("attacker move {m}: {e}")),
            Ok(MoveOutcome::Win) => {
                b.undo();
                return Ok(());
            }
            Ok(MoveOutcome::Draw) => {
                b.undo();
                return Err("board full".into());
            }
            Ok(MoveOutcome::Continue) => {}
        }
        let result = self.replies(b, tree);
        b.undo();
        result
    }

    /// Every empty cell as the defender's reply to `tree.attack` (just played): a listed reply
    /// must lead to a subtree that checks, any other legal move must lose at once or to a VCF.
    fn replies(&mut self, b: &mut Board, tree: &Tree) -> Result<(), String> {
        let (rule, a) = (self.rule, self.a);
        let d = a.opponent();
        let wins = winning_points(b, a, rule);
        let own_wins = winning_points(b, d, rule);
        let empties: Vec<Pos> = b.empty_cells().collect();
        let footprint = if wins.is_empty() && self.shortcut {
            Footprint::of_pass(b, rule, a, self.budget, &mut self.solver, empties.len())
        } else {
            None
        };
        if let Some(f) = &footprint {
            self.remember(f.line.clone());
        }
        for q in empties {
            if self.budget.expired() {
                return Err("out of budget".into());
            }
            if own_wins.contains(&q) {
                return Err(format!("after {}, defender wins at {q}", tree.attack));
            }
            let listed = tree.replies.iter().find(|(p, _)| *p == q);
            // Black's forbidden points are no defence; the (costly) test runs only for a listed
            // reply and for a move the attacker could not be shown to beat.
            let forbidden = |b: &mut Board| d == Color::Black && rules::is_forbidden(b, q, rule);
            if listed.is_some() && forbidden(b) {
                continue;
            }
            b.put(q, d).expect("empty cell");
            let r = if let Some((_, sub)) = listed {
                self.node(b, sub)
            } else if wins
                .iter()
                .any(|&w| w != q && rules::is_win_at(b, w, a, rule))
                || footprint.as_ref().is_some_and(|f| f.keeps(b, q, d, rule))
            {
                Ok(())
            } else {
                self.refuted_by_vcf(b)
                    .map_err(|e| format!("after {}, defence {q} is not refuted: {e}", tree.attack))
            };
            b.undo();
            if r.is_err() && listed.is_none() && forbidden(b) {
                continue;
            }
            r?;
        }
        Ok(())
    }

    /// Whether the attacker (to move on `b`) wins by a VCF that [`verify_vcf`] accepts. Recently
    /// accepted lines are tried first: most defences far from the fight leave them intact.
    fn refuted_by_vcf(&mut self, b: &mut Board) -> Result<(), String> {
        debug_assert_eq!(b.side_to_move(), self.a);
        for (i, line) in self.cache.iter().enumerate() {
            if verify_vcf(b, self.rule, line).is_ok() {
                let l = self.cache.remove(i);
                self.cache.insert(0, l);
                return Ok(());
            }
        }
        // The raw search, checked here once (the verified entry point would check it twice).
        let fours = self.solver.max_fours;
        match self.solver.search(b, self.rule, self.a, fours, self.budget) {
            Res::Win(line) => {
                verify_vcf(b, self.rule, &line)?;
                self.remember(line);
                Ok(())
            }
            Res::Fail { exact: true } => Err("the attacker has no VCF".into()),
            Res::Fail { exact: false } | Res::Abort => Err("out of budget".into()),
        }
    }

    /// Puts a line first among the recently accepted ones.
    fn remember(&mut self, line: Vec<Pos>) {
        self.cache.insert(0, line);
        self.cache.truncate(8);
    }
}

/// The attacker's VCF after its threat as if the defender passed, verified, and the cells where
/// a defender stone could change that verdict: a defender reply outside them loses to the same
/// line, with no search.
///
/// Why (rules other than renju, whose forbidden points depend on stones far away): let `L` pass
/// [`verify_vcf`] on the board `B`, and let `q` be an empty cell that is no move of `L` and not
/// within five cells, on one of its four lines, of a winning point the check met. Then on
/// `B + q` every step of the check sees the same thing, as long as the defender never has a
/// winning point:
/// - the attacker's moves are on empty cells and win or not as before (a five, and caro's
///   blocked ends, lie within five cells of the winning point it is played on);
/// - the attacker's winning points are the same: a defender stone only ever removes one, and
///   only on a line within five cells of it;
/// - the moves that stop them are the same (the same argument after each candidate stop), and
///   `q` was none of them;
/// - the board holds enough empty cells that no move of `L` fills it (checked up front).
///
/// A defender winning point at some turn would be new, so it needs `q`: it completes five
/// cells holding `q`, within four cells of it on one of its lines. Under freestyle more stones
/// of the defender only make more such points, and the attacker's only remove them, so it
/// suffices that none exists with `q` and all of `L`'s replies on `B` (the cells of later
/// replies counted as the defender's). Under the exact-five rules a stone more can spoil a
/// five, so the cells near the replies' lines join the zone instead and the test runs on
/// `B + q`, where then only stones of `B` can share a five with `q`.
struct Footprint {
    /// The verified line.
    line: Vec<Pos>,
    /// Under freestyle, the line's defender replies (placed together to test the defender's
    /// fives: more stones only make more of them).
    replies: Vec<Pos>,
    /// The cells a defender stone must avoid.
    zone: BitBoard,
}

impl Footprint {
    /// The footprint of the attacker's VCF on `b` (after its threat, the defender to move), if
    /// it finds one within `budget` and [`verify_vcf`] accepts it.
    fn of_pass(
        b: &mut Board,
        rule: Rule,
        a: Color,
        budget: &Budget,
        solver: &mut VcfSolver,
        empties: usize,
    ) -> Option<Footprint> {
        if rule == Rule::Renju {
            return None;
        }
        let d = b.side_to_move();
        b.set_side_to_move(a);
        // The raw search: `of_line` checks the line (the solver's own check would repeat it).
        let found = match solver.search(b, rule, a, solver.max_fours, budget) {
            Res::Win(line) => Footprint::of_line(b, rule, line),
            _ => None,
        };
        b.set_side_to_move(d);
        found.filter(|f| f.line.len() + 2 < empties)
    }

    /// The footprint of `line`, a VCF of the side to move on `b`, if [`verify_vcf`] accepts it.
    fn of_line(b: &Board, rule: Rule, line: Vec<Pos>) -> Option<Footprint> {
        let mut wins = Vec::new();
        verify_vcf_seeing(b, rule, &line, &mut wins).ok()?;
        let replies: Vec<Pos> = line.iter().skip(1).step_by(2).copied().collect();
        let mut zone = near_lines(b, &wins);
        for &p in &line {
            zone.insert(p);
        }
        if rule != Rule::Freestyle {
            // An exact five can be spoilt by one more stone: the replies' lines are kept out
            // instead of testing the defender's fives with all of them on the board.
            let near_replies = near_lines(b, &replies);
            for (z, r) in zone.0.iter_mut().zip(near_replies.0.iter()) {
                *z |= *r;
            }
        }
        Some(Footprint {
            line,
            replies: if rule == Rule::Freestyle {
                replies
            } else {
                Vec::new()
            },
            zone,
        })
    }

    /// Whether the line still wins after the defender's stone at `q` (on `b`, the attacker to
    /// move).
    fn keeps(&self, b: &mut Board, q: Pos, d: Color, rule: Rule) -> bool {
        if self.zone.contains(q) {
            return false;
        }
        // Undoing a stone hands the move to its colour: the side to move is restored after.
        let side = b.side_to_move();
        for &r in &self.replies {
            b.put(r, d).expect("a reply of the line is empty");
        }
        let fives = wins_through(b, q, d, rule);
        for _ in &self.replies {
            b.undo();
        }
        b.set_side_to_move(side);
        !fives
    }
}

/// Whether colour `c` completes five at a cell within four cells of its stone at `q` on one of
/// `q`'s lines, that cell empty or holding a stone of `c` (a reply placed ahead of its turn).
fn wins_through(b: &Board, q: Pos, c: Color, rule: Rule) -> bool {
    Direction::ALL.iter().any(|&dir| {
        (-4..=4).filter(|&k| k != 0).any(|k| {
            q.offset(dir, k, b.size())
                .is_some_and(|p| b.at(p) != Some(c.opponent()) && rules::is_win_at(b, p, c, rule))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::SplitMix64;
    use crate::game::rules::crowded_centre;
    use crate::solver::Proof;

    /// [`winning_points`] and [`defences`] without the geometric shortcuts.
    fn plain_winning_points(b: &Board, c: Color, rule: Rule) -> Vec<Pos> {
        b.empty_cells()
            .filter(|&q| rules::is_win_at(b, q, c, rule))
            .collect()
    }

    fn plain_defences(b: &mut Board, a: Color, rule: Rule) -> Result<Vec<Pos>, String> {
        let d = a.opponent();
        let wins = plain_winning_points(b, a, rule);
        let empties: Vec<Pos> = b.empty_cells().collect();
        let mut out = Vec::new();
        for q in empties {
            if rules::is_win_at(b, q, d, rule) {
                return Err(format!("defender wins at {q}"));
            }
            b.put(q, d).expect("empty cell");
            let stops = wins
                .iter()
                .all(|&w| w == q || !rules::is_win_at(b, w, a, rule));
            b.undo();
            if stops && !(d == Color::Black && rules::is_forbidden(b, q, rule)) {
                out.push(q);
            }
        }
        Ok(out)
    }

    /// The footprint's promise, held against the full check: after a VCF found with the
    /// defender passing, every defender stone the footprint keeps leaves a line that
    /// [`verify_vcf`] accepts. Cells just outside the zone that give the defender a five are
    /// met too (the test that refuses them matters).
    #[test]
    fn a_kept_defence_loses_to_the_same_line() {
        let mut rng = SplitMix64::new(7);
        let (mut kept, mut fives_refused, mut lines) = (0, 0, 0);
        let mut solver = VcfSolver::new();
        for round in 0..400 {
            let mut b = crowded_centre(&mut rng, 14 + round % 20);
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Caro][round % 3];
            let a = b.side_to_move();
            let d = a.opponent();
            if !winning_points(&b, a, rule).is_empty() || !winning_points(&b, d, rule).is_empty() {
                continue;
            }
            // The defender "passed": the attacker to move.
            let Proof::Win(line) = solver.solve(&mut b, rule, a, &Budget::unlimited()) else {
                continue;
            };
            let Some(f) = Footprint::of_line(&b, rule, line.clone()) else {
                panic!("round {round}: the solver's line fails the check\n{b}");
            };
            lines += 1;
            let empties: Vec<Pos> = b.empty_cells().collect();
            b.set_side_to_move(d);
            for q in empties {
                b.put(q, d).unwrap();
                let keeps = f.keeps(&mut b, q, d, rule);
                assert_eq!(b.side_to_move(), a, "keeps leaves the board as found");
                let holds = verify_vcf(&b, rule, &line).is_ok();
                if keeps {
                    kept += 1;
                    assert!(
                        holds,
                        "round {round} {rule}: {q} kept, line {line:?} fails\n{b}"
                    );
                } else if !f.zone.contains(q) && !holds {
                    fives_refused += 1;
                }
                b.undo();
            }
            b.set_side_to_move(a);
        }
        assert!(lines > 100, "only {lines} lines");
        assert!(kept > 10_000, "only {kept} kept defences");
        assert!(
            fives_refused > 100,
            "only {fives_refused} defences needed the fives test"
        );
    }

    /// Random crowded corners of a 15x15 board (many fours, fives and forbidden points): the
    /// shortcut scans agree with the plain ones under every rule, for both colours.
    #[test]
    fn shortcut_scans_equal_full_scans() {
        let mut rng = SplitMix64::new(24);
        let mut checked_fours = 0;
        for round in 0..300 {
            let mut b = Board::new(15);
            let stones = 10 + rng.next_u64() % 40;
            for _ in 0..stones {
                let p = Pos::new((rng.next_u64() % 9) as usize, (rng.next_u64() % 9) as usize);
                let c = if rng.next_u64() % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if b.is_empty_at(p) {
                    b.put(p, c).unwrap();
                }
            }
            for rule in Rule::ALL {
                for a in [Color::Black, Color::White] {
                    let wins = winning_points(&b, a, rule);
                    assert_eq!(
                        wins,
                        plain_winning_points(&b, a, rule),
                        "{round} {rule}\n{b}"
                    );
                    if !wins.is_empty() {
                        checked_fours += 1;
                    }
                    assert_eq!(
                        defences(&mut b, a, rule),
                        plain_defences(&mut b, a, rule),
                        "{round} {rule} {a:?}\n{b}"
                    );
                }
            }
        }
        assert!(
            checked_fours > 300,
            "only {checked_fours} positions with a winning point"
        );
    }
}
