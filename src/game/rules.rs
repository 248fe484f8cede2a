//! Game rules: what makes a win, and which black moves renju forbids.
//!
//! | rule | a win is | forbidden |
//! |---|---|---|
//! | freestyle | five or more in a row | nothing |
//! | standard | exactly five (an overline is no win, but legal) | nothing |
//! | renju | black: exactly five; white: five or more | black's overline, double four, double three |
//! | caro | exactly five, not blocked by the opponent at both ends | nothing |
//!
//! # Renju forbidden moves (RIF)
//! A black move at `p` that makes exactly five wins and is never forbidden. Otherwise it is
//! forbidden when it makes an overline, or two or more fours (two in one line counts, as in
//! `X.XXX.X` completed in the middle), or two or more *real* threes. A three is a line in which
//! one more black stone `q` makes a straight four (`.XXXX.` with both ends making exactly five);
//! it is real only if such a `q` exists that is itself not forbidden once `p` is played. That
//! check recurses ([`is_forbidden`] calls itself on `q` with `p` on the board), which is what the
//! reference engine skipped and what the test set's "false three" cases exercise.
//!
//! The functions take `&mut Board` for the recursion: they place and remove trial stones and
//! always leave the board (stones, key, history, side to move) exactly as they found it.

use crate::game::board::{Board, Color, Direction, Pos};
use std::fmt;

/// The game rule, chosen by `INFO rule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins.
    Standard,
    /// Black: exactly five, with overline, double four and double three forbidden; white: five or more.
    Renju,
    /// Exactly five, not blocked at both ends.
    Caro,
}

impl Rule {
    /// All rules, for tests and tools.
    pub const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

    /// The rule for an `INFO rule` bitmask: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    /// A lone 2 is renju, as Yixin-Board and Rapfi send it.
    pub fn from_info_bits(bits: i64) -> Rule {
        if bits & 4 != 0 || bits == 2 {
            Rule::Renju
        } else if bits & 8 != 0 {
            Rule::Caro
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// The `INFO rule` value that selects this rule.
    pub fn info_bits(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
        }
    }

    /// Parses the names used by data files and the command line.
    pub fn from_name(name: &str) -> Option<Rule> {
        match name.to_ascii_lowercase().as_str() {
            "freestyle" | "gomoku" | "free" => Some(Rule::Freestyle),
            "standard" | "exact" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro" => Some(Rule::Caro),
            _ => None,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }

    /// Whether a run of `len` stones of colour `c` is long enough to win, ignoring caro's ends.
    #[inline]
    pub fn run_wins(self, len: usize, c: Color) -> bool {
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard | Rule::Caro => len == 5,
            Rule::Renju => len == 5 || (len > 5 && c == Color::White),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a stone of colour `c` at `p` completes a winning line under `rule`. `p` may be empty
/// (a hypothetical move) or already hold the stone; other cells are read from the board.
pub fn is_win_at(board: &Board, p: Pos, c: Color, rule: Rule) -> bool {
    Direction::ALL
        .iter()
        .any(|&d| wins_in_dir(board, p, d, c, rule))
}

/// [`is_win_at`] restricted to one direction.
#[inline]
pub fn wins_in_dir(board: &Board, p: Pos, d: Direction, c: Color, rule: Rule) -> bool {
    let fwd = board.count_dir(p, d, c, true);
    let back = board.count_dir(p, d, c, false);
    let len = 1 + fwd + back;
    if !rule.run_wins(len, c) {
        return false;
    }
    if rule != Rule::Caro {
        return true;
    }
    // Caro: a five closed by opponent stones at both ends does not win; the edge is open.
    let blocked = |steps: i32| {
        p.offset(d, steps, board.size())
            .is_some_and(|q| board.at(q) == Some(c.opponent()))
    };
    !(blocked(fwd as i32 + 1) && blocked(-(back as i32) - 1))
}

/// Whether the side that just played at `p` (the stone on the board there) has won.
pub fn is_winning_stone(board: &Board, p: Pos, rule: Rule) -> bool {
    match board.at(p) {
        Some(c) => is_win_at(board, p, c, rule),
        None => false,
    }
}

/// Whether colour `c` has a winning line anywhere on the board (a full scan; for checks and tests).
pub fn has_won(board: &Board, c: Color, rule: Rule) -> bool {
    board.stones(c).iter().any(|p| is_win_at(board, p, c, rule))
}

/// Whether black playing at the empty point `p` is forbidden under renju (see the module docs).
/// False for occupied or off-board points and under every other rule.
pub fn is_forbidden(board: &mut Board, p: Pos, rule: Rule) -> bool {
    if rule != Rule::Renju || !board.is_empty_at(p) {
        return false;
    }
    with_stone(board, p, Color::Black, |b| forbidden_after_placing(b, p))
}

/// Whether colour `c` may play at `p` under `rule`: an empty point, and not a renju forbidden
/// point for black (a five is never forbidden). The one legality check of the crate: the
/// solver's faster `replay::legal` is held to it by a debug assertion.
pub fn is_legal(board: &mut Board, p: Pos, c: Color, rule: Rule) -> bool {
    board.is_empty_at(p) && !(c == Color::Black && is_forbidden(board, p, rule))
}

/// Every point black may not play under renju, in index order (protocol `YXSHOWFORBID`).
pub fn forbidden_points(board: &mut Board, rule: Rule) -> Vec<Pos> {
    if rule != Rule::Renju {
        return Vec::new();
    }
    let empties: Vec<Pos> = board.empty_cells().collect();
    empties
        .into_iter()
        .filter(|&p| is_forbidden(board, p, rule))
        .collect()
}

/// Why a move is not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// Off the board.
    OutOfBoard,
    /// Already occupied.
    Occupied,
    /// A renju forbidden point for black.
    Forbidden,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OutOfBoard => "outside the board",
            IllegalMove::Occupied => "occupied",
            IllegalMove::Forbidden => "forbidden (renju)",
        })
    }
}

/// What a legal move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The mover completed a winning line.
    Win,
    /// The board is full with no winner.
    Draw,
    /// The game goes on.
    Continue,
}

/// Checks and plays a move of colour `c` at `p` under `rule`: the one referee used by the arena,
/// the random baseline and the tests. On error the board is unchanged.
pub fn play_checked(
    board: &mut Board,
    p: Pos,
    c: Color,
    rule: Rule,
) -> Result<MoveOutcome, IllegalMove> {
    if !board.contains(p) {
        return Err(IllegalMove::OutOfBoard);
    }
    if board.at(p).is_some() {
        return Err(IllegalMove::Occupied);
    }
    if c == Color::Black && is_forbidden(board, p, rule) {
        return Err(IllegalMove::Forbidden);
    }
    board.put(p, c).expect("checked above");
    Ok(if is_win_at(board, p, c, rule) {
        MoveOutcome::Win
    } else if board.is_full() {
        MoveOutcome::Draw
    } else {
        MoveOutcome::Continue
    })
}

/// Runs `f` with a trial stone of colour `c` at `p`, then restores the board exactly.
fn with_stone<T>(board: &mut Board, p: Pos, c: Color, f: impl FnOnce(&mut Board) -> T) -> T {
    let side = board.side_to_move();
    board.put(p, c).expect("trial stone on an empty point");
    let r = f(board);
    board.undo();
    board.set_side_to_move(side);
    r
}

/// The forbidden test for a black stone already standing at `p`.
fn forbidden_after_placing(board: &mut Board, p: Pos) -> bool {
    let lens = Direction::ALL.map(|d| board.run_through(p, d, Color::Black));
    if lens.contains(&5) {
        return false; // five has priority over every forbidden shape
    }
    if lens.iter().any(|&n| n > 5) {
        return true;
    }
    let fours = Direction::ALL.map(|d| fours_in_line(board, p, d));
    if fours.iter().sum::<usize>() >= 2 {
        return true;
    }
    let mut threes = 0;
    for (i, &d) in Direction::ALL.iter().enumerate() {
        if fours[i] == 0 && is_real_three(board, p, d) {
            threes += 1;
            if threes >= 2 {
                return true;
            }
        }
    }
    false
}

/// The empty points on the line through `p` in direction `d` where one more black stone makes
/// exactly five together with `p`.
fn five_points(board: &Board, p: Pos, d: Direction) -> ([i32; 8], usize) {
    let mut out = [0i32; 8];
    let mut n = 0;
    for dir_sign in [1i32, -1] {
        // Walk away from p over black stones; the first empty cell within reach is the only
        // candidate on this side whose five can contain p.
        let mut s = dir_sign;
        while let Some(q) = p.offset(d, s, board.size()) {
            match board.at(q) {
                Some(Color::Black) => s += dir_sign,
                Some(Color::White) => break,
                None => {
                    if s.abs() <= 4 && board.run_through(q, d, Color::Black) == 5 {
                        out[n] = s;
                        n += 1;
                    }
                    break;
                }
            }
        }
    }
    (out, n)
}

/// How many fours black has on the line through `p` in direction `d`: 0, 1 (a four or a straight
/// four, whose two completions are five apart) or 2 (two fours in one line, e.g. `X.XXX.X`).
fn fours_in_line(board: &Board, p: Pos, d: Direction) -> usize {
    let (pts, n) = five_points(board, p, d);
    match n {
        0 => 0,
        1 => 1,
        _ if (pts[0] - pts[1]).abs() == 5 => 1,
        _ => 2,
    }
}

/// Whether black has a straight four (`.XXXX.`, both ends making exactly five) through `p` in
/// direction `d`.
fn is_straight_four(board: &Board, p: Pos, d: Direction) -> bool {
    let (pts, n) = five_points(board, p, d);
    n == 2 && (pts[0] - pts[1]).abs() == 5
}

/// Whether the line through the black stone at `p` in direction `d` is a real three: some empty
/// point `q` on it turns it into a straight four and `q` is not itself forbidden.
fn is_real_three(board: &mut Board, p: Pos, d: Direction) -> bool {
    for s in (-4..=4).filter(|&s| s != 0) {
        let Some(q) = p.offset(d, s, board.size()) else {
            continue;
        };
        if board.at(q).is_some() {
            continue;
        }
        let real = with_stone(board, q, Color::Black, |b| {
            is_straight_four(b, p, d) && !forbidden_after_placing(b, q)
        });
        if real {
            return true;
        }
    }
    false
}

/// A random crowded middle of a 15x15 board: `stones` alternate colours from black, on
/// random cells of the 9x9 centre, and a few stray stones elsewhere (defender fours away
/// from the fight).
#[cfg(test)]
pub(crate) fn crowded_centre(rng: &mut crate::game::rng::SplitMix64, stones: usize) -> Board {
    let mut b = Board::new(15);
    let mut colour = Color::Black;
    let mut placed = 0;
    while placed < stones {
        let (lo, span) = if placed % 7 == 6 { (0, 15) } else { (3, 9) };
        let p = Pos::new(
            lo + (rng.next_u64() % span) as usize,
            lo + (rng.next_u64() % span) as usize,
        );
        if b.is_empty_at(p) && !is_win_at(&b, p, colour, Rule::Freestyle) {
            b.put(p, colour).unwrap();
            colour = colour.opponent();
            placed += 1;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pic: &str) -> Board {
        Board::from_picture(pic).unwrap()
    }

    /// Marks: `X`/`O` stones, `*` a point that must be forbidden, `.` a point that must not be.
    fn check_forbidden(pic: &str) {
        let clean = pic.replace('*', ".");
        let mut b = board(&clean);
        let rows: Vec<Vec<char>> = pic
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        for (y, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let p = Pos::new(x, y);
                let key = b.key();
                let got = is_forbidden(&mut b, p, Rule::Renju);
                assert_eq!(key, b.key(), "board changed");
                assert_eq!(got, ch == '*', "point {p} in\n{pic}");
            }
        }
    }

    #[test]
    fn info_bits() {
        assert_eq!(Rule::from_info_bits(0), Rule::Freestyle);
        assert_eq!(Rule::from_info_bits(1), Rule::Standard);
        assert_eq!(Rule::from_info_bits(2), Rule::Renju);
        assert_eq!(Rule::from_info_bits(3), Rule::Standard);
        assert_eq!(Rule::from_info_bits(4), Rule::Renju);
        assert_eq!(Rule::from_info_bits(8), Rule::Caro);
        assert_eq!(Rule::from_info_bits(9), Rule::Caro);
        for r in Rule::ALL {
            assert_eq!(Rule::from_info_bits(r.info_bits()), r);
            assert_eq!(Rule::from_name(r.name()), Some(r));
        }
    }

    #[test]
    fn five_and_overline_per_rule() {
        // Black to complete at (5,0): XXXXX. -> with (6,0) black too it would be six.
        let b = board(
            "X X X X . X . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n",
        );
        let p = Pos::new(4, 0); // makes six
        assert!(is_win_at(&b, p, Color::Black, Rule::Freestyle));
        assert!(!is_win_at(&b, p, Color::Black, Rule::Standard));
        assert!(!is_win_at(&b, p, Color::Black, Rule::Renju));
        assert!(!is_win_at(&b, p, Color::Black, Rule::Caro));
        // White's overline wins in renju but not in standard.
        let w = board(
            "O O O O . O . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n",
        );
        assert!(is_win_at(&w, p, Color::White, Rule::Renju));
        assert!(!is_win_at(&w, p, Color::White, Rule::Standard));
        // Exactly five wins everywhere.
        let q = Pos::new(4, 0);
        let e = board(
            "X X X X . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n",
        );
        for r in Rule::ALL {
            assert!(is_win_at(&e, q, Color::Black, r), "{r}");
        }
    }

    #[test]
    fn caro_five_blocked_at_both_ends() {
        let b = board(
            "O X X X X . O .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n",
        );
        let p = Pos::new(5, 0);
        assert!(!is_win_at(&b, p, Color::Black, Rule::Caro));
        assert!(is_win_at(&b, p, Color::Black, Rule::Standard));
        // One open end (the edge counts as open) wins.
        let b = board(
            "X X X X . O . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . . . . .\n",
        );
        assert!(is_win_at(&b, Pos::new(4, 0), Color::Black, Rule::Caro));
    }

    #[test]
    fn double_three_double_four_overline() {
        check_forbidden(
            ". . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . X . . . . .\n\
             . . . . X . . . . .\n\
             . . X X * . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n",
        );
        // Same-line double four: X.X*X.X
        check_forbidden(
            ". . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . X . X * X . X . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n",
        );
    }

    #[test]
    fn four_three_is_legal_and_five_beats_forbidden() {
        check_forbidden(
            ". . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . X . . . . .\n\
             . . . . X . . . . .\n\
             . . . . X . . . . .\n\
             . . X X . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n",
        );
    }

    #[test]
    fn play_checked_refuses_and_keeps_board() {
        let mut b = Board::new(15);
        b.put(Pos::new(7, 7), Color::Black).unwrap();
        let key = b.key();
        assert_eq!(
            play_checked(&mut b, Pos::new(7, 7), Color::White, Rule::Freestyle),
            Err(IllegalMove::Occupied)
        );
        assert_eq!(
            play_checked(&mut b, Pos::new(15, 7), Color::White, Rule::Freestyle),
            Err(IllegalMove::OutOfBoard)
        );
        assert_eq!(b.key(), key);
    }
}
