//! `book build`: grows an opening tree from seed lines by fixed-depth self-search and writes it
//! as a book file.
//!
//! # How the tree grows
//! - The seed lines are followed as given (merged into a trie); where a seed line ends, the
//!   position is expanded for `ply` more moves.
//! - Expanding a position: a fixed-depth search gives the best move and its score; the search is
//!   repeated with the moves found so far left out of the root, up to `width` candidates, keeping
//!   those within `margin` of the best. A move that makes five, or any move of a side that is
//!   proven lost, never enters the book; a proven position is not expanded further.
//! - Every position is expanded once: a position met again (in any of the eight symmetric
//!   forms) ends its line there, since the lookup is canonical anyway.
//! - Values are backed up by negamax over the tree (a leaf's value is its search score) and the
//!   children of every position ranked by value. A line's weight is `16^-(sum of its ranks)`:
//!   because the compiler sums the weights of all lines through a move, a move's weight is then
//!   dominated by its own rank, so the heaviest book move of a position is its best-valued one.
//! - Searches are single-threaded with one table and a depth cap, so a build is reproducible;
//!   the time cap per search only guards against runaway searches (capped ones are counted).

use super::symmetry::{canonical, stones_of, Key, Symmetry};
use super::{BookFile, CoordinateSystem, OpeningLine, RuleNames};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{is_forbidden, is_win_at, Rule};
use crate::search::alphabeta::{Context, Params, RootOptions, SearchResult, Worker, WIN_MIN};
use crate::search::timeman::Plan;
use crate::search::tt::TranspositionTable;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The knobs of one build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildParams {
    /// Search depth of every evaluation.
    pub depth: u32,
    /// Moves added beyond each seed line.
    pub ply: usize,
    /// Candidates kept per position.
    pub width: usize,
    /// Candidates further than this below the best score are dropped.
    pub margin: i32,
    /// Time cap of one search, in milliseconds.
    pub time_ms: u64,
    /// The rule the book is for.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
}

/// Counters of a finished build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Searches run.
    pub searches: u64,
    /// Searches that hit the time cap before the full depth.
    pub capped: u64,
    /// Positions in the tree.
    pub positions: usize,
    /// Seed lines skipped (illegal, duplicate up to symmetry, or ending the game).
    pub seeds_skipped: usize,
}

#[derive(Debug)]
struct Edge {
    mv: Pos,
    /// From the view of the side that plays `mv`.
    value: i32,
    sub: Vec<Edge>,
}

#[derive(Default)]
struct Trie {
    children: BTreeMap<Pos, Trie>,
    order: Vec<Pos>,
}

impl Trie {
    fn insert(&mut self, line: &[Pos]) {
        if let Some((&first, rest)) = line.split_first() {
            if !self.children.contains_key(&first) {
                self.order.push(first);
            }
            self.children.entry(first).or_default().insert(rest);
        }
    }
}

struct Builder {
    p: BuildParams,
    tt: TranspositionTable,
    worker: Worker,
    stop: AtomicBool,
    seen: HashSet<Key>,
    stats: BuildStats,
}

impl Builder {
    fn search(&mut self, board: &Board, skip: &[Pos]) -> SearchResult {
        self.worker.root_options = RootOptions {
            skip: skip.to_vec(),
            ..RootOptions::default()
        };
        let now = Instant::now();
        // The depth decides; the time is only a safety cap (no soft deadline).
        let ctx = Context {
            tt: &self.tt,
            stop: &self.stop,
            plan: Plan {
                budget: Some(Duration::from_millis(self.p.time_ms)),
                hard: Some(now + Duration::from_millis(self.p.time_ms)),
                ..Plan::depth(self.p.depth)
            },
            known: None,
        };
        self.tt.new_search();
        let r = self.worker.search(&ctx, board, self.p.rule);
        self.stats.searches += 1;
        if r.depth < self.p.depth && r.score.abs() < WIN_MIN {
            self.stats.capped += 1;
        }
        r
    }

    /// Up to `width` candidates (move, score for the mover), best first.
    fn candidates(&mut self, board: &Board) -> Vec<(Pos, i32)> {
        let mover = board.side_to_move();
        let mut out: Vec<(Pos, i32)> = Vec::new();
        let mut skip = Vec::new();
        let syms = automorphisms(board);
        while out.len() < self.p.width {
            let r = self.search(board, &skip);
            if skip.contains(&r.best)
                || r.depth == 0
                || is_win_at(board, r.best, mover, self.p.rule)
            {
                break;
            }
            if r.score <= -WIN_MIN {
                break;
            }
            if let Some(&(_, best)) = out.first() {
                if r.score < best - self.p.margin {
                    break;
                }
            }
            out.push((r.best, r.score));
            // In a symmetric position the images of a move are the same move.
            skip.extend(syms.iter().map(|s| s.apply(r.best, board.size())));
            if r.score >= WIN_MIN {
                break;
            }
        }
        out
    }

    /// Marks the position after `board`'s last move as seen; false if it already was.
    fn first_visit(&mut self, board: &Board) -> bool {
        let (key, _) = canonical(&stones_of(board), board.size());
        self.seen.insert(key)
    }

    fn grow(&mut self, board: &mut Board, plies: usize) -> Vec<Edge> {
        if plies == 0 {
            return Vec::new();
        }
        let mut edges = Vec::new();
        for (mv, score) in self.candidates(board) {
            board.play(mv).expect("search answers an empty point");
            if !self.first_visit(board) {
                // A transposition: the position's line is grown where it was met first.
                board.undo();
                continue;
            }
            self.stats.positions += 1;
            let sub = if score.abs() < WIN_MIN {
                self.grow(board, plies - 1)
            } else {
                Vec::new()
            };
            board.undo();
            edges.push(Edge {
                value: backed_up(&sub).unwrap_or(score),
                mv,
                sub,
            });
        }
        edges
    }

    fn seeds(&mut self, board: &mut Board, trie: &Trie) -> Vec<Edge> {
        if trie.children.is_empty() {
            return self.grow(board, self.p.ply);
        }
        let mut edges = Vec::new();
        for mv in &trie.order {
            let mover = board.side_to_move();
            let rule = self.p.rule;
            if !board.is_empty_at(*mv)
                || (mover == Color::Black && is_forbidden(board, *mv, rule))
                || is_win_at(board, *mv, mover, rule)
            {
                self.stats.seeds_skipped += 1;
                continue;
            }
            board.play(*mv).expect("checked empty");
            if !self.first_visit(board) {
                board.undo();
                self.stats.seeds_skipped += 1;
                continue;
            }
            self.stats.positions += 1;
            let sub = self.seeds(board, &trie.children[mv]);
            let value = match backed_up(&sub) {
                Some(v) => v,
                None => -self.search(board, &[]).score,
            };
            board.undo();
            edges.push(Edge {
                mv: *mv,
                value,
                sub,
            });
        }
        edges
    }
}

/// The symmetries that map the position onto itself (colours kept).
fn automorphisms(board: &Board) -> Vec<Symmetry> {
    let n = board.size();
    Symmetry::ALL
        .into_iter()
        .filter(|s| {
            board
                .history()
                .iter()
                .all(|&(p, c)| board.at(s.apply(p, n)) == Some(c))
        })
        .collect()
}

/// The value of a move whose reply tree is `sub`, from its mover's view.
fn backed_up(sub: &[Edge]) -> Option<i32> {
    sub.iter().map(|e| e.value).max().map(|v| -v)
}

fn emit(edges: &mut [Edge], prefix: &mut Vec<Pos>, ranks: i32, out: &mut Vec<(Vec<Pos>, f64)>) {
    edges.sort_by_key(|e| std::cmp::Reverse(e.value));
    for (i, e) in edges.iter_mut().enumerate() {
        prefix.push(e.mv);
        let r = ranks + i as i32;
        if e.sub.is_empty() {
            out.push((prefix.clone(), 0.0625f64.powi(r)));
        } else {
            emit(&mut e.sub, prefix, r, out);
        }
        prefix.pop();
    }
}

/// Grows the book from `seeds` (absolute move lists, black first) and returns it with the
/// build's counters.
pub fn build(seeds: &[Vec<Pos>], p: &BuildParams, id: &str) -> (BookFile, BuildStats) {
    let mut trie = Trie::default();
    for s in seeds {
        trie.insert(s);
    }
    let mut b = Builder {
        p: p.clone(),
        tt: TranspositionTable::new(64 << 20),
        worker: Worker::new(0, Params::default()),
        stop: AtomicBool::new(false),
        seen: HashSet::new(),
        stats: BuildStats::default(),
    };
    let mut board = Board::new(p.size);
    let mut tree = b.seeds(&mut board, &trie);
    let mut lines = Vec::new();
    emit(&mut tree, &mut Vec::new(), 0, &mut lines);
    let mut file = BookFile {
        id: id.to_string(),
        rules: RuleNames::One(p.rule.name().to_string()),
        size: p.size,
        coordinate_system: CoordinateSystem::CenterRelativeXY,
        openings: Vec::new(),
    };
    for (moves, w) in lines {
        let coordinates = moves.iter().map(|m| file.from_xy(m.x(), m.y())).collect();
        file.openings.push(OpeningLine {
            name: None,
            coordinates,
            weight: (w != 1.0).then_some(w),
        });
    }
    (file, b.stats)
}

/// The book file as text: one opening per line, so files stay small and diff well.
pub fn to_text(file: &BookFile) -> String {
    let head = serde_json::json!({
        "id": file.id,
        "rules": file.rules,
        "size": file.size,
        "coordinateSystem": file.coordinate_system,
    });
    let head = serde_json::to_string(&head).expect("serialisable");
    let mut s = String::from(head.trim_end_matches('}'));
    s.push_str(",\"openings\":[\n");
    for (i, o) in file.openings.iter().enumerate() {
        s.push_str(&serde_json::to_string(o).expect("serialisable"));
        s.push_str(if i + 1 < file.openings.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    s.push_str("]}\n");
    s
}

/// Seed lines from the text of a book file (its lines) or of an opening-lines file (one opening
/// per line, `x,y x,y ...`), for a board of side `size`.
pub fn read_seeds(text: &str, size: usize) -> Result<Vec<Vec<Pos>>, String> {
    if let Ok(file) = BookFile::parse(text) {
        if file.size != size {
            return Err(format!("a {0}x{0} book", file.size));
        }
        let mut out = Vec::new();
        for o in &file.openings {
            let mut line = Vec::new();
            for &c in &o.coordinates {
                let (x, y) = file.to_xy(c);
                match Board::new(size).pos(x, y) {
                    Some(p) => line.push(p),
                    None => break,
                }
            }
            out.push(line);
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        match crate::game::notation::parse_opening(l, size) {
            Ok(Some(m)) => out.push(m),
            Ok(None) => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::book::validate::validate;
    use crate::knowledge::book::Book;

    #[test]
    fn small_build_is_valid_ranked_and_reproducible() {
        let p = BuildParams {
            depth: 2,
            ply: 2,
            width: 2,
            margin: 10_000,
            time_ms: 60_000,
            rule: Rule::Freestyle,
            size: 15,
        };
        let seeds = vec![
            vec![Pos::new(7, 7), Pos::new(7, 6), Pos::new(8, 8)],
            // The same opening mirrored: deduplicated.
            vec![Pos::new(7, 7), Pos::new(7, 8), Pos::new(8, 6)],
        ];
        let (file, stats) = build(&seeds, &p, "t");
        assert_eq!(stats.seeds_skipped, 1);
        assert_eq!(stats.capped, 0);
        // One seed, two candidates, two replies each: four lines of five moves.
        assert_eq!(file.openings.len(), 4, "{file:?}");
        assert!(file.openings.iter().all(|o| o.coordinates.len() == 5));
        assert!(validate(&file).is_empty(), "{:?}", validate(&file));
        // Text form round-trips.
        let back = BookFile::parse(&to_text(&file)).unwrap();
        assert_eq!(back, file);
        // The heaviest book move after the seed is the best-valued candidate: the first line's.
        let book = Book::compile(&file);
        let mut board = Board::new(15);
        for m in &seeds[0] {
            board.play(*m).unwrap();
        }
        let moves = book.moves(&mut board, Rule::Freestyle);
        assert_eq!(moves.len(), 2);
        let first = file.openings[0].coordinates[3];
        assert_eq!(
            file.from_xy(moves[0].pos.x(), moves[0].pos.y()),
            first,
            "{moves:?}"
        );
        assert!(moves[0].weight > 8.0 * moves[1].weight);
        let (again, _) = build(&seeds, &p, "t");
        assert_eq!(again, file);
    }
}
