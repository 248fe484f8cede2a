//! The book and the opening prior at play time: which move to play at once, and which root
//! moves to put first or leave out when the search decides.
//!
//! # Rules
//! - Books are loaded once per (rule, size, `INFO folder`) with [`super::load_for`] on the first
//!   move that needs them (that move's clock pays); problems are reported as one line.
//!   A missing or corrupt book degrades to search alone.
//! - A book hit in a *quiet* position (neither side has a four, an open three, a four-three or
//!   a double-three point it may use) is played at once: the heaviest candidate (not under
//!   [`BookMode::Hints`], where it orders the root like a tactical hit).
//! - A book hit in a tactical position only puts the book moves first in the root order.
//! - Without a hit, with at most [`PRIOR_MAX_STONES`] stones, quiet root moves that neither touch
//!   a stone (Chebyshev distance 1) nor stand a knight's move from one are left out of the root:
//!   distant early replies lose. Forcing moves (any threat rung for either side) are never left
//!   out.
//! - Book moves are legal by construction: the lookup drops occupied and forbidden points.
//! - [`BookMode`] switches book and prior off (pure search) or keeps only one of them, for
//!   self-play comparisons (`BANGO_BOOK`).

use super::{load_for, search_locations, Book};
use crate::evaluation::movegen::{self, usable_threat, QUIET_RANK};
use crate::evaluation::position::Position;
use crate::game::board::{Board, Color, Pos};
use crate::game::pattern::Threat;
use crate::game::rules::Rule;
use crate::search::alphabeta::RootOptions;
use std::path::{Path, PathBuf};

crate::setting_enum! {
    /// Which opening knowledge the brain uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum BookMode {
        /// The opening book and the opening prior.
        Both = ["on", "1", "true", "both"],
        /// Neither: pure search.
        Off = ["off", "0", "false", "none"],
        /// The book alone.
        BookOnly = ["book"],
        /// The prior alone.
        PriorOnly = ["prior"],
        /// The prior, and the book's moves only as hints: searched first, never played at
        /// once (the search decides, so a shallow book line cannot overrule a deeper search).
        Hints = ["hints"],
    }
}

impl BookMode {
    /// Whether the book is used.
    pub fn book(self) -> bool {
        matches!(self, BookMode::Both | BookMode::BookOnly | BookMode::Hints)
    }

    /// Whether a book hit in a quiet position is played at once.
    pub fn plays_book(self) -> bool {
        matches!(self, BookMode::Both | BookMode::BookOnly)
    }

    /// Whether the opening prior is used.
    pub fn prior(self) -> bool {
        matches!(self, BookMode::Both | BookMode::PriorOnly | BookMode::Hints)
    }
}

/// The opening prior applies while the board holds at most this many stones: the first replies,
/// where a distant move is a real loss. With three or four stones, self-play after scattered
/// three-stone openings went worse with the prior than without (the split-two and two-point jumps
/// it leaves out are sound shape there).
pub const PRIOR_MAX_STONES: usize = 2;

/// What the opening knowledge advises for one move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advice {
    /// Play this at once (a book move in a quiet position).
    pub play: Option<Pos>,
    /// Otherwise, hints for the root of the search.
    pub hints: RootOptions,
}

/// Book cache and switches of one engine, kept across games.
#[derive(Debug)]
pub struct Opening {
    mode: BookMode,
    exe: Option<PathBuf>,
    loaded: Option<(Rule, usize, Option<PathBuf>, Book)>,
}

impl Opening {
    /// The parts `mode` names, books looked for beside the executable `exe` (among other
    /// places; see [`search_locations`]).
    pub fn new(mode: BookMode, exe: Option<PathBuf>) -> Opening {
        Opening {
            mode,
            exe,
            loaded: None,
        }
    }

    /// Whether the book and the prior are used.
    pub fn enabled(&self) -> (bool, bool) {
        (self.mode.book(), self.mode.prior())
    }

    /// The book for `rule`, `size` and `folder`, loading it when it is not the cached one;
    /// `report` receives one line when loading met problems.
    pub fn book(
        &mut self,
        rule: Rule,
        size: usize,
        folder: Option<&Path>,
        report: &dyn Fn(&str),
    ) -> &Book {
        let fresh = match &self.loaded {
            Some((r, s, f, _)) => *r != rule || *s != size || f.as_deref() != folder,
            None => true,
        };
        if fresh {
            let locs = search_locations(folder, self.exe.as_deref());
            let loaded = load_for(&locs, rule, size);
            if !loaded.problems.is_empty() {
                report(&loaded.problems.join("; "));
            }
            self.loaded = Some((rule, size, folder.map(Path::to_path_buf), loaded.book));
        }
        &self.loaded.as_ref().expect("just loaded").3
    }

    /// The advice for the side to move of `board` under `rule` (empty when switched off).
    pub fn advise(
        &mut self,
        board: &Board,
        rule: Rule,
        folder: Option<&Path>,
        report: &dyn Fn(&str),
    ) -> Advice {
        let moves: Vec<Pos> = if self.mode.book() {
            let mut b = board.clone();
            let book = self.book(rule, board.size(), folder, report);
            book.moves(&mut b, rule).iter().map(|m| m.pos).collect()
        } else {
            Vec::new()
        };
        let mut advice = advise_with(board, rule, &moves, self.mode.plays_book());
        if !self.mode.prior() {
            advice.hints.skip.clear();
        }
        advice
    }
}

/// The advice given the book's candidates for this position (best first, legal); a quiet hit
/// is played at once when `play_quiet` (else, like a tactical one, it orders the root).
pub fn advise_with(board: &Board, rule: Rule, book_moves: &[Pos], play_quiet: bool) -> Advice {
    let mut advice = Advice::default();
    if !book_moves.is_empty() {
        if play_quiet && is_quiet(&mut Position::new(board, rule)) {
            advice.play = Some(book_moves[0]);
            return advice;
        }
        advice.hints.first = book_moves.to_vec();
        return advice;
    }
    if board.stone_count() > 0 && board.stone_count() <= PRIOR_MAX_STONES {
        advice.hints.skip = distant_quiet_moves(&mut Position::new(board, rule));
    }
    advice
}

/// Whether neither side has a threat the opening book should not play through: a five or
/// open-four point (a four or open three on the board), a four-three or a double-three point it
/// may really play.
pub fn is_quiet(pos: &mut Position) -> bool {
    for c in [Color::Black, Color::White] {
        if !pos.has_at_least(c, Threat::DoubleThree) {
            continue;
        }
        let cells: Vec<Pos> = pos.candidates().iter().collect();
        for q in cells {
            let t = pos.info(q, c).threat;
            if (t == Threat::DoubleThree || t >= Threat::FourThree)
                && matches!(
                    usable_threat(pos, q, c),
                    Threat::DoubleThree | Threat::FourThree | Threat::OpenFour | Threat::Five
                )
            {
                return false;
            }
        }
    }
    true
}

/// Whether `q` touches a stone or stands a knight's move from one.
pub fn near_stones(board: &Board, q: Pos) -> bool {
    board.history().iter().any(|&(s, _)| {
        let (dx, dy) = (s.x().abs_diff(q.x()), s.y().abs_diff(q.y()));
        dx.max(dy) == 1 || (dx.min(dy) == 1 && dx.max(dy) == 2)
    })
}

/// The side to move's quiet candidate moves that are far from every stone (see the module docs).
pub fn distant_quiet_moves(pos: &mut Position) -> Vec<Pos> {
    let mut moves = Vec::new();
    movegen::generate(pos, movegen::Defences::WIDE, &mut moves);
    moves
        .iter()
        .filter(|m| m.rank <= QUIET_RANK && !near_stones(pos.board(), m.pos))
        .map(|m| m.pos)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pic: &str) -> Board {
        Board::from_picture(pic).unwrap()
    }

    #[test]
    fn quiet_and_tactical_positions() {
        // Two stones each: nothing forcing.
        let mut p = Position::new(
            &board(
                ". . . . . . .
                 . . . . . . .
                 . . X O . . .
                 . . . X O . .
                 . . . . . . .
                 . . . . . . .
                 . . . . . . .",
            ),
            Rule::Freestyle,
        );
        assert!(is_quiet(&mut p));
        // An open three for black: tactical.
        let mut p = Position::new(
            &board(
                ". . . . . . . .
                 . . . . . . . .
                 . . X X X . . .
                 . . . O O . . .
                 . . . . . . . .
                 . . . . . . . .
                 . . . . . . . .
                 . . . . . . . .",
            ),
            Rule::Freestyle,
        );
        assert!(!is_quiet(&mut p));
    }

    #[test]
    fn quiet_book_hit_plays_tactical_hit_orders() {
        let quiet = board(
            ". . . . . . .
             . . . . . . .
             . . . X . . .
             . . . O . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let hit = [Pos::new(4, 4), Pos::new(2, 2)];
        let a = advise_with(&quiet, Rule::Freestyle, &hit, true);
        assert_eq!(a.play, Some(Pos::new(4, 4)));
        // As hints (`BANGO_BOOK=hints`), the same hit orders the root instead.
        let a = advise_with(&quiet, Rule::Freestyle, &hit, false);
        assert_eq!(a.play, None);
        assert_eq!(a.hints.first, vec![Pos::new(4, 4), Pos::new(2, 2)]);
        let mut tactical = board(
            ". . . . . . . . .
             . . . . . . . . .
             . . X X X . . . .
             . . . O O . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        tactical.set_side_to_move(Color::White);
        let a = advise_with(
            &tactical,
            Rule::Freestyle,
            &[Pos::new(5, 2), Pos::new(1, 2)],
            true,
        );
        assert_eq!(a.play, None);
        assert_eq!(a.hints.first, vec![Pos::new(5, 2), Pos::new(1, 2)]);
    }

    #[test]
    fn prior_skips_only_distant_quiet_moves() {
        let mut b = Board::new(15);
        b.play(Pos::new(7, 7)).unwrap();
        let a = advise_with(&b, Rule::Freestyle, &[], true);
        assert_eq!(a.play, None);
        // The 5x5 box holds 24 candidates: 8 touching, 8 knight's moves, 8 distant.
        assert_eq!(a.hints.skip.len(), 8);
        for q in &a.hints.skip {
            assert_eq!(q.chebyshev(Pos::new(7, 7)), 2);
            assert!(!near_stones(&b, *q));
        }
        assert!(a.hints.skip.contains(&Pos::new(9, 9)));
        assert!(a.hints.skip.contains(&Pos::new(7, 5)));
        // More stones than the prior covers: no hint.
        for p in [(3, 3), (11, 3), (3, 11), (11, 11)] {
            b.play(Pos::new(p.0, p.1)).unwrap();
        }
        assert_eq!(
            advise_with(&b, Rule::Freestyle, &[], true),
            Advice::default()
        );
    }

    #[test]
    fn prior_keeps_forcing_moves() {
        // White's open three: its blocks are forcing, even where no stone is near.
        let mut b = board(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . O O O . . .
             . . . . X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        b.set_side_to_move(Color::Black);
        let mut pos = Position::new(&b, Rule::Freestyle);
        let skip = distant_quiet_moves(&mut pos);
        // The far blocks of the three (1,3) and (7,3) are a knight's move from nothing but stay.
        assert!(!skip.contains(&Pos::new(1, 3)));
        assert!(!skip.contains(&Pos::new(7, 3)));
    }
}
