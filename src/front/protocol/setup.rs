//! Positions as the protocol gives them: points checked against the board, the colour a
//! `BOARD` body implies, the position it describes, and a legal fallback move.
//!
//! # BOARD field 3
//! Field 3 marks a cell of a continuous game that belongs to neither player. The board has no
//! neutral stones, so a marker is placed as an *opponent* stone: it can never be played, and it
//! can never complete one of our lines (which is what a neutral cell means to us); the price is
//! that the algorithm may see opponent shapes through it, a cautious error. Markers do not count
//! when inferring colours, and they are placed before the real stones so that the last stone
//! given stays the last move.

use super::command::{Coord, Owner};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{self, Rule};

/// The first legal point in index order, else any empty point (the caller checked one exists).
pub(super) fn first_legal(board: &mut Board, me: Color, rule: Rule) -> Pos {
    let empties: Vec<Pos> = board.empty_cells().collect();
    empties
        .iter()
        .copied()
        .find(|&q| rules::is_legal(board, q, me, rule))
        .unwrap_or(empties[0])
}

pub(super) fn on_board(board: &Board, c: Coord) -> Result<Pos, String> {
    board
        .pos(c.x, c.y)
        .ok_or_else(|| format!("{c} is outside the {}x{} board", board.size(), board.size()))
}

pub(super) fn empty_point(board: &Board, c: Coord) -> Result<Pos, String> {
    let p = on_board(board, c)?;
    if board.at(p).is_some() {
        return Err(format!("{c} is occupied"));
    }
    Ok(p)
}

/// Our colour for a `BOARD` position: under renju the stones come in move order, so the first
/// real stone's owner is black; otherwise equal counts mean we (to move) are black, one stone
/// fewer means white, and an impossible surplus of our own falls back to the first-stone rule.
/// Markers (field 3) are not counted.
pub fn infer_colour(stones: &[(Coord, Owner)], rule: Rule) -> Color {
    let count = |o: Owner| stones.iter().filter(|s| s.1 == o).count();
    let (own, opp) = (count(Owner::Own), count(Owner::Opponent));
    let first_is_ours = stones
        .iter()
        .find(|s| s.1 != Owner::Marker)
        .map(|s| s.1 == Owner::Own);
    let by_first = |first: bool| if first { Color::Black } else { Color::White };
    match first_is_ours {
        None => Color::Black,
        Some(first) if rule == Rule::Renju => by_first(first),
        Some(first) => match own.cmp(&opp) {
            std::cmp::Ordering::Equal => Color::Black,
            std::cmp::Ordering::Less => Color::White,
            std::cmp::Ordering::Greater => by_first(first),
        },
    }
}

/// Builds the position a `BOARD`/`YXBOARD` body describes, on a fresh board, with our colour to
/// move. Refuses off-board and repeated points.
pub fn build_position(
    size: usize,
    stones: &[(Coord, Owner)],
    rule: Rule,
) -> Result<(Board, Color), String> {
    let me = infer_colour(stones, rule);
    let mut board = Board::new(size);
    let markers = stones.iter().filter(|s| s.1 == Owner::Marker);
    let real = stones.iter().filter(|s| s.1 != Owner::Marker);
    for &(c, owner) in markers.chain(real) {
        let p = on_board(&board, c)?;
        if board.at(p).is_some() {
            return Err(format!("{c} given twice"));
        }
        let colour = if owner == Owner::Own {
            me
        } else {
            me.opponent()
        };
        board.put(p, colour).expect("checked empty");
    }
    board.set_side_to_move(me);
    Ok((board, me))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn colour_inference() {
        use Owner::*;
        let f = Rule::Freestyle;
        assert_eq!(infer_colour(&[], f), Color::Black);
        assert_eq!(infer_colour(&[(c(7, 7), Opponent)], f), Color::White);
        assert_eq!(
            infer_colour(&[(c(7, 7), Opponent), (c(8, 8), Own)], f),
            Color::Black
        );
        assert_eq!(
            infer_colour(&[(c(7, 7), Own), (c(8, 8), Opponent), (c(1, 1), Marker)], f),
            Color::Black
        );
        // Renju: move order decides, even where counts would say otherwise.
        assert_eq!(
            infer_colour(&[(c(7, 7), Opponent), (c(8, 8), Own)], Rule::Renju),
            Color::White
        );
        assert_eq!(
            infer_colour(&[(c(1, 1), Marker), (c(7, 7), Own)], Rule::Renju),
            Color::Black
        );
        // Surplus of our own stones: first-stone rule.
        assert_eq!(
            infer_colour(&[(c(7, 7), Opponent), (c(8, 8), Own), (c(9, 9), Own)], f),
            Color::White
        );
    }

    #[test]
    fn position_with_markers_keeps_the_last_move() {
        use Owner::*;
        let (b, me) = build_position(
            15,
            &[
                (c(7, 7), Opponent),
                (c(0, 0), Marker),
                (c(8, 7), Own),
                (c(9, 9), Opponent),
            ],
            Rule::Freestyle,
        )
        .unwrap();
        assert_eq!(me, Color::White);
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.last_move(), Some(Pos::new(9, 9)));
        assert_eq!(b.at(Pos::new(0, 0)), Some(Color::Black));
        assert_eq!(b.at(Pos::new(8, 7)), Some(Color::White));
        assert!(
            build_position(15, &[(c(7, 7), Own), (c(7, 7), Opponent)], Rule::Freestyle)
                .unwrap_err()
                .contains("twice")
        );
        assert!(build_position(15, &[(c(15, 0), Own)], Rule::Freestyle)
            .unwrap_err()
            .contains("outside"));
    }
}
