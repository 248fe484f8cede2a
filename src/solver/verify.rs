//! Independent proof checkers: they replay a claimed win with the referee
//! ([`rules::play_checked`]) and generate the defender's options by brute force over every
//! empty cell of the board, sharing no move generation with the solvers.
//!
//! - [`verify_vcf`]: a line of attacker fours (ending with a five, or a four nothing stops) and
//!   forced replies. At each defender turn it computes the attacker's winning points by a full
//!   scan, fails if the defender can win at once, and requires the defender's listed reply to be
//!   the only legal move that stops every winning point.
//!
//! The scans skip only what geometry settles without the rules: a winning point has a stone of
//! its colour next to it, and a stone off every line through the winning points (within five
//! cells) changes none of them. The unit tests hold these scans equal to plain full scans.
//! - [`verify_tree`]: a VCT proof tree. At each defender turn it tries every empty cell: a move
//!   in the tree is followed; any other legal move must lose at once or to a VCF of the
//!   attacker that [`verify_vcf`] accepts (found by a VCF search, then checked here).

use super::vcf::VcfSolver;
use super::vct::Tree;
use super::{Budget, Proof};
use crate::board::{BitBoard, Board, Color, Pos};
use crate::rules::{self, MoveOutcome, Rule};

/// Every empty cell where colour `c` wins at once (a scan of every empty cell next to a stone
/// of `c`: a winning point extends a line of them, so it has one as a neighbour).
fn winning_points(b: &Board, c: Color, rule: Rule) -> Vec<Pos> {
    let near = next_to(b, c);
    b.empty_cells()
        .filter(|&q| near.contains(q) && rules::is_win_at(b, q, c, rule))
        .collect()
}

/// The empty cells with a stone of `c` among their eight neighbours.
fn next_to(b: &Board, c: Color) -> BitBoard {
    let mut out = BitBoard::EMPTY;
    for p in b.stones(c).iter() {
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                if let Some(q) = b.pos(p.x() as i64 + dx, p.y() as i64 + dy) {
                    if b.is_empty_at(q) {
                        out.insert(q);
                    }
                }
            }
        }
    }
    out
}

/// Whether a stone at `q` can change whether the attacker wins at one of `wins`: a winning
/// point's line, its ends included (caro's blocked ends), lies within five cells of it on one
/// of its four lines.
fn touches(q: Pos, wins: &[Pos]) -> bool {
    wins.iter().any(|&w| {
        let (dx, dy) = (q.x().abs_diff(w.x()), q.y().abs_diff(w.y()));
        (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 5
    })
}

/// After the attacker's move, the defender's legal moves that leave the attacker no winning
/// point, or an error if the defender can win at once.
fn defences(b: &mut Board, a: Color, rule: Rule) -> Result<Vec<Pos>, String> {
    let d = a.opponent();
    let wins = winning_points(b, a, rule);
    let own = next_to(b, d);
    let empties: Vec<Pos> = b.empty_cells().collect();
    let mut out = Vec::new();
    for q in empties {
        if own.contains(q) && rules::is_win_at(b, q, d, rule) {
            return Err(format!("defender wins at {q}"));
        }
        // A stone away from every winning point's lines leaves them all (and there is one).
        if !wins.is_empty() && !touches(q, &wins) {
            continue;
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

/// Checks a VCF line from the side to move (see [`Proof::Win`]). The board is left as found.
pub fn verify_vcf(board: &Board, rule: Rule, line: &[Pos]) -> Result<(), String> {
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
        if winning_points(&b, a, rule).is_empty() {
            return Err(format!("attacker move {m} is not a four"));
        }
        let defs = defences(&mut b, a, rule)?;
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
    let mut b = board.clone();
    let a = b.side_to_move();
    let mut solver = VcfSolver::new();
    let mut cache: Vec<Vec<Pos>> = Vec::new();
    check_node(&mut b, rule, a, tree, budget, &mut solver, &mut cache)
}

fn check_node(
    b: &mut Board,
    rule: Rule,
    a: Color,
    tree: &Tree,
    budget: &Budget,
    solver: &mut VcfSolver,
    cache: &mut Vec<Vec<Pos>>,
) -> Result<(), String> {
    let d = a.opponent();
    let m = tree.attack;
    match rules::play_checked(b, m, a, rule) {
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
    let result = check_replies(b, rule, a, d, tree, budget, solver, cache);
    b.undo();
    result
}

#[allow(clippy::too_many_arguments)]
fn check_replies(
    b: &mut Board,
    rule: Rule,
    a: Color,
    d: Color,
    tree: &Tree,
    budget: &Budget,
    solver: &mut VcfSolver,
    cache: &mut Vec<Vec<Pos>>,
) -> Result<(), String> {
    let wins = winning_points(b, a, rule);
    let own = next_to(b, d);
    let empties: Vec<Pos> = b.empty_cells().collect();
    for q in empties {
        if budget.expired() {
            return Err("out of budget".into());
        }
        if own.contains(q) && rules::is_win_at(b, q, d, rule) {
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
            check_node(b, rule, a, sub, budget, solver, cache)
        } else if wins
            .iter()
            .any(|&w| w != q && rules::is_win_at(b, w, a, rule))
        {
            Ok(())
        } else {
            refuted_by_vcf(b, rule, a, budget, solver, cache)
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
fn refuted_by_vcf(
    b: &mut Board,
    rule: Rule,
    a: Color,
    budget: &Budget,
    solver: &mut VcfSolver,
    cache: &mut Vec<Vec<Pos>>,
) -> Result<(), String> {
    debug_assert_eq!(b.side_to_move(), a);
    for (i, line) in cache.iter().enumerate() {
        if verify_vcf(b, rule, line).is_ok() {
            let l = cache.remove(i);
            cache.insert(0, l);
            return Ok(());
        }
    }
    match solver.solve(b, rule, a, budget) {
        Proof::Win(line) => {
            verify_vcf(b, rule, &line)?;
            cache.insert(0, line);
            cache.truncate(8);
            Ok(())
        }
        Proof::NoWin => Err("the attacker has no VCF".into()),
        Proof::Unknown => Err("out of budget".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

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
