//! Renlib `.lib` files (the opening libraries analysts trade): reading them into database
//! records ([`read`]; the file is only read) and writing records as one ([`write()`]).
//!
//! # The format (version 3.0 and 3.4), as publicly documented
//! - A 20-byte header: `FF 'R' 'e' 'n' 'L' 'i' 'b' FF`, major and minor version, ten `FF`.
//! - Then the move tree in preorder, one node of two bytes: a point and a flag byte. The point is
//!   `16 * row + column + 1` on the 15x15 board (0: no point, the root). Flags:
//!   `0x80` the node has a later sibling (remember where it hangs), `0x40` the node ends a line
//!   (go back to the last remembered sibling point; nothing remembered: the tree ends), `0x20`
//!   an old-style comment and `0x08` a comment follow, `0x02` the node places no stone (a mark
//!   with a board text), `0x01` two extension bytes follow whose value, shifted left by 8, adds
//!   flags (`0x100`: a board text follows the comments).
//! - Texts are byte strings read two bytes at a time up to a pair holding a 0; a comment's first
//!   line is its title, a `0x08` byte starts the body.
//!
//! # How nodes become records
//! Every stone-placing node is the position after the moves down to it (black first): its
//! record gets the comment's title as label and its body as text. A board text on a node that
//! places no stone labels the position after a move on that point (the way the board shows
//! it). Texts are read as UTF-8, invalid bytes replaced.

use super::key::Position;
use super::record::{Record, StoredPosition};
use crate::game::board::{Color, Pos};
use crate::game::rules::Rule;
use std::collections::HashMap;

const HAS_SIBLING: u32 = 0x80;
const END_OF_LINE: u32 = 0x40;
const OLD_COMMENT: u32 = 0x20;
const COMMENT: u32 = 0x08;
const NO_MOVE: u32 = 0x02;
const EXTENSION: u32 = 0x01;
const BOARD_TEXT: u32 = 0x100;
/// The flags we know; a node with others is refused (the file is of a version we cannot read).
const KNOWN: u32 = 0xFF | BOARD_TEXT;

/// The side of a Renlib board.
pub const SIZE: usize = 15;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn pair(&mut self) -> Option<[u8; 2]> {
        let p = self.bytes.get(self.at..self.at + 2)?;
        self.at += 2;
        Some([p[0], p[1]])
    }

    fn text(&mut self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        loop {
            let pair = self.pair().ok_or("a text runs past the end of the file")?;
            out.extend(pair.iter().copied().take_while(|&b| b != 0));
            if pair.contains(&0) {
                return Ok(out);
            }
        }
    }
}

fn split_comment(bytes: &[u8]) -> (String, String) {
    let s = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
    match bytes.iter().position(|&b| b == 0x08) {
        Some(i) => (s(&bytes[..i]), s(&bytes[i + 1..])),
        None => (s(bytes), String::new()),
    }
}

/// Reads a whole `.lib` file's bytes into records for `rule` (15x15), merged per position
/// (a position reached by two lines of the tree gets one record).
pub fn read(bytes: &[u8], rule: Rule) -> Result<Vec<StoredPosition>, String> {
    let header = bytes.get(..20).ok_or("shorter than a Renlib header")?;
    if header[..8] != *b"\xFFRenLib\xFF" || header[10..].iter().any(|&b| b != 0xFF) {
        return Err("not a Renlib file (bad header)".into());
    }
    if !matches!((header[8], header[9]), (3, 0) | (3, 4)) {
        return Err(format!(
            "Renlib version {}.{} (3.0 and 3.4 are read)",
            header[8], header[9]
        ));
    }
    let mut r = Reader { bytes, at: 20 };
    // The moves down to the current node (None: a node that places no stone), and the path
    // lengths to return to.
    let mut path: Vec<Option<Pos>> = Vec::new();
    let mut siblings: Vec<usize> = Vec::new();
    let mut records: HashMap<Vec<u8>, StoredPosition> = HashMap::new();
    let mut first = true;
    while let Some([point, flag]) = r.pair() {
        let mut flags = u32::from(flag);
        if flags & EXTENSION != 0 {
            let [a, b] = r
                .pair()
                .ok_or("an extension runs past the end of the file")?;
            flags |= (u32::from(a) << 8 | u32::from(b)) << 8;
        }
        if flags & !KNOWN != 0 {
            return Err(format!("node {:#x} has unknown flags {flags:#x}", r.at));
        }
        let (label, text) = if flags & (COMMENT | OLD_COMMENT) != 0 {
            split_comment(&r.text()?)
        } else {
            Default::default()
        };
        let board_text = if flags & BOARD_TEXT != 0 {
            String::from_utf8_lossy(&r.text()?).trim().to_string()
        } else {
            String::new()
        };
        let at = if point == 0 {
            None
        } else {
            let (x, y) = (usize::from(point & 0x0F), usize::from(point >> 4));
            if x == 0 || y >= SIZE {
                return Err(format!("point byte {point:#04x} is off the 15x15 board"));
            }
            Some(Pos::new(x - 1, y))
        };
        let root_node = first && point == 0;
        first = false;
        let places = flags & NO_MOVE == 0 && !root_node;
        let here = |path: &[Option<Pos>]| {
            let moves: Vec<Pos> = path.iter().flatten().copied().collect();
            Position::from_moves(rule, SIZE, SIZE, &moves).map_err(|e| e.to_string())
        };
        let mut add = |pos: Position, label: String, text: String| {
            let key = pos.canonical().key;
            let new = Record {
                label,
                text,
                ..Record::default()
            };
            let entry = records.entry(key).or_insert_with(|| StoredPosition {
                position: pos,
                record: Record::default(),
            });
            entry.record = new.merge(entry.record.clone());
        };
        if places {
            let p = at.ok_or("a move node without a point")?;
            path.push(Some(p));
            add(here(&path)?, label, text);
        } else {
            path.push(None);
            if let (Some(p), false) = (at, board_text.is_empty() && label.is_empty()) {
                let parent = here(&path)?;
                if parent.is_empty_at(p) {
                    let shown = if board_text.is_empty() {
                        label
                    } else {
                        board_text
                    };
                    add(parent.child(p).map_err(|e| e.to_string())?, shown, text);
                }
            }
        }
        if flags & HAS_SIBLING != 0 {
            siblings.push(path.len() - 1);
        }
        if flags & END_OF_LINE != 0 {
            match siblings.pop() {
                Some(len) => path.truncate(len),
                None => break,
            }
        }
    }
    Ok(records.into_values().collect())
}

/// Writes the records of `rule` on the 15x15 board (looked up by their canonical keys in
/// `records`) as a Renlib 3.0 tree grown from the empty board: a child is every empty point
/// whose position has a record, symmetric copies of one child once; a position already in the
/// tree is left out where another order of moves reaches it again. A record's label becomes its comment's title
/// (its shown value `W`/`L`/`D` when it has no label), its text the comment's body. Returns the
/// file's bytes and the number of move nodes.
pub fn write(records: &[StoredPosition], rule: Rule) -> (Vec<u8>, usize) {
    let by_key: HashMap<(Vec<u8>, Color), &Record> = records
        .iter()
        .filter(|s| (s.position.rule, s.position.width, s.position.height) == (rule, SIZE, SIZE))
        .map(|s| ((s.position.canonical().key, s.position.to_move), &s.record))
        .collect();
    let mut out = b"\xFFRenLib\xFF\x03\x00".to_vec();
    out.extend([0xFF; 10]);
    let root = Position::from_moves(rule, SIZE, SIZE, &[]).expect("an empty 15x15 board");
    let mut seen = std::collections::HashSet::new();
    let children = children(&root, &by_key, &mut seen);
    // The root: no point; its children follow, or it ends the tree.
    out.extend([
        0x00,
        if children.is_empty() {
            END_OF_LINE as u8
        } else {
            0
        },
    ]);
    let mut nodes = 0;
    emit_all(&children, &by_key, &mut seen, &mut out, &mut nodes);
    (out, nodes)
}

/// A child found below a position: its move and position.
type Child = (Pos, Position);

fn children(
    pos: &Position,
    by_key: &HashMap<(Vec<u8>, Color), &Record>,
    seen: &mut std::collections::HashSet<(Vec<u8>, Color)>,
) -> Vec<Child> {
    let mut out = Vec::new();
    let mut here = std::collections::HashSet::new();
    for y in 0..SIZE {
        for x in 0..SIZE {
            let p = Pos::new(x, y);
            let Ok(child) = pos.child(p) else { continue };
            let key = (child.canonical().key, child.to_move);
            if by_key.contains_key(&key) && here.insert(key.clone()) && seen.insert(key) {
                out.push((p, child));
            }
        }
    }
    out
}

fn emit_all(
    nodes: &[Child],
    by_key: &HashMap<(Vec<u8>, Color), &Record>,
    seen: &mut std::collections::HashSet<(Vec<u8>, Color)>,
    out: &mut Vec<u8>,
    count: &mut usize,
) {
    for (i, (p, pos)) in nodes.iter().enumerate() {
        let record = by_key[&(pos.canonical().key, pos.to_move)];
        let below = children(pos, by_key, seen);
        let title = if record.label.is_empty() {
            match record.value.map(super::Value::flipped) {
                Some(super::Value::Win) => "W",
                Some(super::Value::Loss) => "L",
                Some(super::Value::Draw) => "D",
                _ => "",
            }
        } else {
            record.label.as_str()
        };
        let mut flags = 0;
        if i + 1 < nodes.len() {
            flags |= HAS_SIBLING;
        }
        if below.is_empty() {
            flags |= END_OF_LINE;
        }
        let has_comment = !title.is_empty() || !record.text.is_empty();
        if has_comment {
            flags |= COMMENT;
        }
        out.extend([(16 * p.y() + p.x() + 1) as u8, flags as u8]);
        if has_comment {
            let mut text: Vec<u8> = title.bytes().filter(|&b| b != 0 && b != 0x08).collect();
            if !record.text.is_empty() {
                text.push(0x08);
                text.extend(record.text.bytes().filter(|&b| b != 0));
            }
            text.push(0);
            if text.len() % 2 == 1 {
                text.push(0);
            }
            out.extend(text);
        }
        *count += 1;
        emit_all(&below, by_key, seen, out, count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Color;

    fn header() -> Vec<u8> {
        let mut h = b"\xFFRenLib\xFF\x03\x00".to_vec();
        h.extend([0xFF; 10]);
        h
    }

    #[test]
    fn a_small_tree_with_a_variation_a_comment_and_a_board_text() {
        // Root H8 (0x78); its child H9 (0x68) has a later sibling; H9's child I8 (0x79) ends the
        // line with a comment "a" / body "good"; then H9's sibling G7 (0x87), below which a
        // no-move node puts the board text "X" on J9 (0x6A) and ends the tree.
        let mut lib = header();
        lib.extend([0x78, 0x00]); // H8
        lib.extend([0x68, 0x80]); // H9, has a sibling
        lib.extend([0x79, 0x48]); // I8, end of line, comment
        lib.extend(b"a\x08good\x00\x00"); // 8 bytes: "a", 0x08, "good", 0, 0
        lib.extend([0x87, 0x00]); // G7 (x=6, y=8): sibling of H9
        lib.extend([0x6A, 0x43, 0x00, 0x01]); // J9 no move, end, extension: board text
        lib.extend(b"X\x00");
        let records = read(&lib, Rule::Freestyle).unwrap();
        let find = |moves: &[(usize, usize)]| {
            let moves: Vec<Pos> = moves.iter().map(|&(x, y)| Pos::new(x, y)).collect();
            let key = Position::from_moves(Rule::Freestyle, 15, 15, &moves)
                .unwrap()
                .canonical()
                .key;
            records
                .iter()
                .find(|s| s.position.canonical().key == key)
                .map(|s| s.record.clone())
        };
        assert_eq!(records.len(), 5, "{records:?}");
        assert!(find(&[(7, 7)]).unwrap().is_blank());
        assert!(find(&[(7, 7), (7, 6)]).unwrap().is_blank());
        let commented = find(&[(7, 7), (7, 6), (8, 7)]).unwrap();
        assert_eq!(
            (commented.label.as_str(), commented.text.as_str()),
            ("a", "good")
        );
        assert!(find(&[(7, 7), (6, 8)]).is_some());
        let marked = find(&[(7, 7), (6, 8), (9, 6)]).unwrap();
        assert_eq!(marked.label, "X");
        // H8 is black's, G7 white's.
        let g7 = find(&[(7, 7), (6, 8)]).map(|_| ());
        assert_eq!(g7, Some(()));
        let two = records.iter().find(|s| {
            s.position.stones.len() == 2
                && s.position.stones.contains(&(Pos::new(6, 8), Color::White))
        });
        assert!(two.is_some(), "G7 is white's second stone");
    }

    #[test]
    fn written_libraries_read_back_to_the_same_records() {
        let mut lib = header();
        lib.extend([0x78, 0x00, 0x68, 0x80, 0x79, 0x48]);
        lib.extend(b"a\x08good\x00\x00");
        lib.extend([0x87, 0x00, 0x6A, 0x43, 0x00, 0x01]);
        lib.extend(b"X\x00");
        let records = read(&lib, Rule::Renju).unwrap();
        let (bytes, nodes) = write(&records, Rule::Renju);
        assert_eq!(nodes, 5);
        let mut again = read(&bytes, Rule::Renju).unwrap();
        let mut want = records.clone();
        let key = |s: &StoredPosition| (s.position.canonical().key, s.position.to_move);
        again.sort_by_key(key);
        want.sort_by_key(key);
        let strip = |v: Vec<StoredPosition>| -> Vec<(Vec<u8>, String, String)> {
            v.into_iter()
                .map(|s| (s.position.canonical().key, s.record.label, s.record.text))
                .collect()
        };
        assert_eq!(strip(again), strip(want));
        // An empty database is a root that ends the tree.
        let (empty, n) = write(&[], Rule::Renju);
        assert_eq!((empty.len(), n), (22, 0));
        assert_eq!(read(&empty, Rule::Renju).unwrap(), vec![]);
    }

    #[test]
    fn other_files_are_refused() {
        assert!(read(b"SQLite format 3\0 and more bytes", Rule::Freestyle).is_err());
        let mut v = header();
        v[8] = 2;
        assert!(read(&v, Rule::Freestyle)
            .unwrap_err()
            .contains("version 2.0"));
        let mut lib = header();
        lib.extend([0xF0, 0x00]); // column 0 is not a point
        assert!(read(&lib, Rule::Freestyle).is_err());
    }
}
