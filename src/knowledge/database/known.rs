//! The database as the search reads it: every record of one rule and board size turned into
//! [`KnownPositions`] entries, one per symmetric image, keyed by that image's Zobrist key (the
//! key the search keeps at every node), so the search needs to know nothing of symmetries.
//!
//! # Invariants
//! - Values keep their view (the side to move of the record's position) and their meaning: a
//!   stored win or loss is a proven result [`STORED_WIN_PLIES`] plies away (the file keeps no
//!   distance), a draw a proven 0, a score with its depth a searched value to that depth.
//! - A record with a best move and no value gives only its move (a depth no node asks for).
//! - Records of another rule or board size, and records with neither value nor move, give
//!   nothing.

use super::{Database, DbError, Position, StoredPosition, Value};
use crate::game::board::{Board, Pos};
use crate::game::rules::Rule;
use crate::search::alphabeta::{WIN, WIN_MIN};
use crate::search::known::{Known, KnownPositions};

/// The distance a stored win or loss is given, in plies: the file keeps no distance, and any
/// value up to the search's deepest ply keeps such a score proven wherever it is met.
pub const STORED_WIN_PLIES: i32 = 200;

/// The search's view of one record, or `None` when it carries nothing the search can use.
pub fn known_of(stored: &StoredPosition) -> Option<Known> {
    let best = stored.record.best_move;
    let (score, depth) = match stored.record.value {
        Some(Value::Win) => (WIN - STORED_WIN_PLIES, Known::PROVEN_DEPTH),
        Some(Value::Loss) => (-(WIN - STORED_WIN_PLIES), Known::PROVEN_DEPTH),
        Some(Value::Draw) => (0, Known::PROVEN_DEPTH),
        Some(Value::Score { score, depth }) => (
            score.clamp(1 - WIN_MIN, WIN_MIN - 1),
            depth.clamp(0, i32::from(Known::PROVEN_DEPTH) - 1) as i16,
        ),
        None if best.is_some() => (0, -1),
        None => return None,
    };
    Some(Known { score, depth, best })
}

/// The Zobrist key, stone count and best move of every symmetric image of `stored` (square
/// boards of the search's sizes only; an image whose stones do not fit the board is skipped).
fn image_keys(stored: &StoredPosition) -> Vec<(u64, usize, Option<Pos>)> {
    let p = &stored.position;
    if p.width != p.height {
        return Vec::new();
    }
    let mut keys = Vec::new();
    for image in stored.images() {
        let mut board = Board::new(p.width);
        if image
            .stones()
            .iter()
            .any(|&(q, c)| board.put(q, c).is_err())
        {
            continue;
        }
        board.set_side_to_move(image.side_to_move());
        keys.push((board.key(), board.stone_count(), image.record.best_move));
    }
    keys
}

/// Adds every symmetric image of `stored` to `known`.
pub fn add(known: &mut KnownPositions, stored: &StoredPosition) {
    let Some(k) = known_of(stored) else {
        return;
    };
    for (key, stones, best) in image_keys(stored) {
        known.insert(key, stones, Known { best, ..k });
    }
}

/// Brings what `known` holds for `pos` (every image) in line with the file's record of it now:
/// the update after one record was written or deleted, instead of reading the whole file.
pub fn refresh(known: &mut KnownPositions, db: &Database, pos: &Position) -> Result<(), DbError> {
    let stored = StoredPosition {
        position: pos.clone(),
        record: db.get(pos)?.unwrap_or_default(),
    };
    for (key, _, _) in image_keys(&stored) {
        known.remove(key);
    }
    add(known, &stored);
    Ok(())
}

/// Every record of `rule` on a `size` x `size` board, as the search reads them.
pub fn known_positions(db: &Database, rule: Rule, size: usize) -> Result<KnownPositions, DbError> {
    let mut known = KnownPositions::new();
    for stored in db.positions(rule, size, size)? {
        add(&mut known, &stored);
    }
    Ok(known)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::database::{Mode, Record};

    fn temp_db(name: &str) -> (Database, std::path::PathBuf) {
        let path =
            std::env::temp_dir().join(format!("bango-known-{}-{name}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        (Database::open(&path, Mode::ReadWrite).unwrap(), path)
    }

    fn board_of(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15);
        for &(x, y) in moves {
            b.play(Pos::new(x, y)).unwrap();
        }
        b
    }

    #[test]
    fn every_image_of_a_record_is_found_by_its_own_key_with_its_move_mapped() {
        let (db, path) = temp_db("images");
        let moves = [(7, 7), (8, 7), (9, 9)];
        let b = board_of(&moves);
        let pos = Position::of_board(&b, Rule::Freestyle);
        let record = Record {
            value: Some(Value::Score {
                score: 250,
                depth: 14,
            }),
            best_move: Some(Pos::new(10, 10)),
            ..Record::default()
        };
        db.put(&pos, &record).unwrap();
        let known = known_positions(&db, Rule::Freestyle, 15).unwrap();
        // Three stones with no symmetry of their own: eight distinct images.
        assert_eq!(known.len(), 8);
        let k = known.get(b.key()).expect("the position itself");
        assert_eq!(
            (k.score, k.depth, k.best),
            (250, 14, Some(Pos::new(10, 10)))
        );
        // The mirror image (x -> 14 - x) finds its own mirrored move.
        let mirrored = board_of(&moves.map(|(x, y)| (14 - x, y)));
        let m = known.get(mirrored.key()).expect("the mirror image");
        assert_eq!(m.best, Some(Pos::new(4, 10)));
        // Another rule or size reads nothing.
        assert!(known_positions(&db, Rule::Renju, 15).unwrap().is_empty());
        assert!(known_positions(&db, Rule::Freestyle, 19)
            .unwrap()
            .is_empty());
        drop(db);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn proven_values_are_proven_scores_from_the_side_to_move() {
        let at = |value| StoredPosition {
            position: Position::of_board(&board_of(&[(7, 7)]), Rule::Freestyle),
            record: Record {
                value,
                ..Record::default()
            },
        };
        let win = known_of(&at(Some(Value::Win))).unwrap();
        assert!(win.is_proven() && win.score >= WIN_MIN && win.score == WIN - STORED_WIN_PLIES);
        let loss = known_of(&at(Some(Value::Loss))).unwrap();
        assert_eq!(loss.score, -win.score);
        assert_eq!(known_of(&at(Some(Value::Draw))).unwrap().score, 0);
        let huge = known_of(&at(Some(Value::Score {
            score: 5_000_000,
            depth: 1 << 20,
        })))
        .unwrap();
        assert!(
            !huge.is_proven() && huge.score < WIN_MIN,
            "a score never passes for a proof"
        );
        assert_eq!(known_of(&at(None)), None);
    }

    /// Only a position two plies below the root is stored (in a real file, in a mirrored frame):
    /// the root's answer changes.
    #[test]
    fn a_stored_loss_two_plies_deep_turns_the_root_away_from_its_move() {
        use crate::search::alphabeta::{Context, Params, Worker};
        use crate::search::timeman::Plan;
        use crate::search::tt::TranspositionTable;
        let root = board_of(&[(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)]);
        let search = |known: Option<&KnownPositions>| {
            let tt = TranspositionTable::new(8 << 20);
            let stop = std::sync::atomic::AtomicBool::new(false);
            let ctx = Context {
                tt: &tt,
                stop: &stop,
                plan: Plan::depth(4),
                known,
            };
            Worker::new(0, Params::default()).search(&ctx, &root, Rule::Freestyle)
        };
        let plain = search(None);
        let mut deep = root.clone();
        for &m in &plain.pv[..2] {
            deep.play(m).unwrap();
        }
        // Stored as its mirror image (x -> 14 - x), lost for the side to move (the root's).
        let mut mirrored = Board::new(15);
        for &(p, c) in deep.history() {
            mirrored.put(Pos::new(14 - p.x(), p.y()), c).unwrap();
        }
        mirrored.set_side_to_move(deep.side_to_move());
        let (db, path) = temp_db("deep");
        let record = Record {
            value: Some(Value::Loss),
            ..Record::default()
        };
        db.put(&Position::of_board(&mirrored, Rule::Freestyle), &record)
            .unwrap();
        let known = known_positions(&db, Rule::Freestyle, 15).unwrap();
        let informed = search(Some(&known));
        assert_ne!(
            informed.best, plain.pv[0],
            "the refuted move is still chosen"
        );
        assert!(informed.score.abs() < WIN_MIN, "score {}", informed.score);
        drop(db);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn a_refresh_follows_one_record_through_an_edit_and_a_delete() {
        let (db, path) = temp_db("refresh");
        let b = board_of(&[(7, 7), (8, 7), (9, 9)]);
        let pos = Position::of_board(&b, Rule::Freestyle);
        let mut known = known_positions(&db, Rule::Freestyle, 15).unwrap();
        assert!(known.is_empty());
        let record = Record {
            value: Some(Value::Win),
            ..Record::default()
        };
        db.put(&pos, &record).unwrap();
        refresh(&mut known, &db, &pos).unwrap();
        assert_eq!(known.len(), 8);
        assert!(known.get(b.key()).unwrap().is_proven());
        db.update(&pos, |r| {
            r.value = Some(Value::Score { score: 5, depth: 9 })
        })
        .unwrap();
        refresh(&mut known, &db, &pos).unwrap();
        assert_eq!(known.get(b.key()).map(|k| (k.score, k.depth)), Some((5, 9)));
        // What a whole read gives, key for key.
        let whole = known_positions(&db, Rule::Freestyle, 15).unwrap();
        assert_eq!(whole.get(b.key()), known.get(b.key()));
        db.delete(&pos).unwrap();
        refresh(&mut known, &db, &pos).unwrap();
        assert!(known.is_empty());
        drop(db);
        let _ = std::fs::remove_file(path);
    }
}
