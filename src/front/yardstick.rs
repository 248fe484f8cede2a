//! The yardstick of decisive positions (`pbrain-bango yardstick`): the moves where bango lost
//! its games against a stronger engine, kept as positions, so that a change to the search can
//! be read in minutes on the failure that matches measure in hours.
//!
//! # Collecting
//! From arena match directories (`summary.json` and the PSQ games), every game the named
//! player lost by a five is judged by another brain (the judge, Rapfi in practice), one fresh
//! game per position ([`crate::front::arena::analyst`]):
//! 1. every position from the end of the opening on is judged at a short turn, until the loser
//!    is judged lost (win probability at most [`LOST`]);
//! 2. at each of the loser's moves, the drop of its win probability is the judged value before
//!    the move less the value after it (the judge's verdict on the next position, turned round);
//! 3. the [`CANDIDATES`] largest drops are judged again at a long turn, before and after, and
//!    the largest long drop is the game's decisive move; it is kept when it drops by
//!    `min_drop` or more from a position the loser had not already lost (`min_before`), and the
//!    judge's own move there differs from the one played.
//!
//! The position before the decisive move is written in the teacher file format
//! ([`crate::front::teacher`], so `pbrain-bango teacher` reads a yardstick too), with the
//! judge's move as `best`, its long verdict as `eval` (rescaled to the label scale), then
//! `played x,y drop D source FILE`.
//!
//! # Scoring
//! A player (bango, as a brain process) answers each position; its move holds when it is the
//! judge's move, or when the judge, asked about the position after it, leaves the mover at
//! least the win probability before the move less `tolerance` (default [`TOLERANCE`]). The
//! played move is known not to hold and is not judged again. The share of moves that hold is
//! the yardstick; a five always holds. Each answer is one result line ([`result_line`]), keyed
//! by the position's line in the file (so a file may grow at its end and keep its keys); two
//! runs are compared position by position ([`Paired`]): the positions were chosen where some
//! build failed, so a change is read against a replay of its baseline, never against zero.
//!
//! # Test split
//! Positions from one opening (as [`teacher::group_of`] defines groups) stay together; one
//! group in four ([`is_test_group`]) is the test part, which no choice may read: tune on the
//! rest, report the test part at the end.

use crate::front::arena::analyst::{Analyst, Answer, Eval};
use crate::front::arena::{EngineSpec, GameConfig};
use crate::front::teacher::{self, Label, Labelled, LABEL_SCALE};
use crate::game::board::{Board, Color, Pos};
use crate::game::notation::{self, Puzzle};
use crate::game::rules::{self, Rule};
use parking_lot::Mutex;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many of a game's largest short-turn drops are judged again at the long turn.
pub const CANDIDATES: usize = 2;

/// A win probability at or under this counts as lost: judging the game stops there.
pub const LOST: f64 = 0.02;

/// The default drop in win probability a move may cost and still hold.
pub const TOLERANCE: f64 = 0.10;

/// One group in four is the test part.
pub fn is_test_group(group: usize) -> bool {
    group % 4 == 3
}

/// A judge's verdict on a position, in the label scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The judge's move.
    pub best: Pos,
    /// Its evaluation, side to move's view.
    pub label: Label,
}

/// Turns a brain's answer on `board` into a verdict: scores in the brain's `scale` (its score
/// for a win probability of `1/(1+e^-1)`) become label units. An answer without an
/// evaluation counts only when its move makes five.
pub fn verdict(answer: Answer, board: &Board, rule: Rule, scale: f64) -> Result<Verdict, String> {
    let label = match answer.eval {
        Some(Eval::Score(s)) => Label::Eval(s as f64 * LABEL_SCALE / scale),
        Some(Eval::Mate(n)) => Label::Mate(n),
        None if rules::is_win_at(board, answer.best, board.side_to_move(), rule) => Label::Mate(1),
        None => {
            return Err(format!(
                "the judge gave no evaluation (move {})",
                answer.best
            ))
        }
    };
    Ok(Verdict {
        best: answer.best,
        label,
    })
}

/// A game the player lost, read from a match directory.
#[derive(Clone, Debug)]
pub struct LostGame {
    /// Where it came from (`DIR/game-0001.psq`).
    pub source: String,
    /// The rule it was played under.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Every stone in order, black first.
    pub stones: Vec<Pos>,
    /// How many of them are the opening.
    pub opening: usize,
    /// The player's colour.
    pub loser: Color,
}

/// The games `player` lost by a five in an arena match directory.
pub fn lost_games(dir: &Path, player: &str) -> Result<Vec<LostGame>, String> {
    let summary_path = dir.join("summary.json");
    let text = std::fs::read_to_string(&summary_path)
        .map_err(|e| format!("{}: {e}", summary_path.display()))?;
    let summary: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", summary_path.display()))?;
    let rule_name = summary["rule"].as_str().unwrap_or("freestyle");
    let rule = Rule::from_name(rule_name).ok_or_else(|| format!("unknown rule {rule_name:?}"))?;
    let mut out = Vec::new();
    for g in summary["games"].as_array().ok_or("summary without games")? {
        let loser = match (g["winner"].as_str(), g["reason"].as_str()) {
            (Some("black"), Some("five")) => Color::White,
            (Some("white"), Some("five")) => Color::Black,
            _ => continue,
        };
        let name = if loser == Color::Black {
            "black"
        } else {
            "white"
        };
        if g[name].as_str() != Some(player) {
            continue;
        }
        let file = g["file"].as_str().ok_or("a game without a file")?;
        let path = dir.join(file);
        let psq = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let game = crate::front::arena::record::parse_psq(&psq)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let opening = g["opening"].as_array().map_or(0, Vec::len);
        out.push(LostGame {
            source: path.display().to_string().replace(char::is_whitespace, "_"),
            rule,
            size: game.size,
            stones: game.stones,
            opening,
            loser,
        });
    }
    Ok(out)
}

/// A decisive position: where the loser's move cost the most.
#[derive(Clone, Debug)]
pub struct Decisive {
    /// The position before the move, the judge's move and its long verdict.
    pub position: Labelled,
    /// The move the loser played there.
    pub played: Pos,
    /// The drop of the mover's win probability that move cost (long turn).
    pub drop: f64,
    /// The game it came from.
    pub source: String,
}

impl Decisive {
    /// The mover's win probability before the move, as the judge saw it.
    pub fn before(&self) -> f64 {
        self.position.label.win_prob()
    }

    /// The line in the yardstick file format (see the module docs).
    pub fn to_line(&self) -> String {
        format!(
            "{} played {} drop {:.3} source {}",
            self.position.to_line(),
            self.played,
            self.drop,
            self.source
        )
    }

    /// Parses one line of a yardstick file; comments and blank lines give `Ok(None)`.
    pub fn parse(text: &str, line: usize) -> Result<Option<Decisive>, String> {
        let Some(position) = teacher::parse_line(text, line)? else {
            return Ok(None);
        };
        let tail = text.split_once('|').map_or("", |(_, t)| t);
        let words: Vec<&str> = tail.split_whitespace().collect();
        let field = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1).copied())
                .ok_or_else(|| format!("no {key}"))
        };
        let played = notation::parse_opening(field("played")?, position.puzzle.size)?
            .and_then(|p| p.first().copied())
            .ok_or("bad played move")?;
        let drop = field("drop")?
            .parse::<f64>()
            .map_err(|_| "bad drop".to_string())?;
        let source = field("source").unwrap_or("-").to_string();
        Ok(Some(Decisive {
            position,
            played,
            drop,
            source,
        }))
    }
}

/// Parses a yardstick file.
pub fn parse_file(text: &str) -> Result<Vec<Decisive>, String> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if let Some(d) = Decisive::parse(l, i + 1).map_err(|e| format!("line {}: {e}", i + 1))? {
            out.push(d);
        }
    }
    Ok(out)
}

/// What a collection keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollectOptions {
    /// The least drop (long turn) that makes a move decisive.
    pub min_drop: f64,
    /// The least win probability before the move: a position already lost is not a decision.
    pub min_before: f64,
}

impl Default for CollectOptions {
    fn default() -> CollectOptions {
        CollectOptions {
            min_drop: 0.2,
            min_before: 0.2,
        }
    }
}

/// The board before stone `i` of `game`.
fn board_before(game: &LostGame, i: usize) -> Result<Board, String> {
    notation::opening_board(&game.stones[..i], game.size)
        .map_err(|e| format!("{}: {e}", game.source))
}

/// The loser's win probability on a position, from a verdict for its side to move.
fn loser_prob(board: &Board, v: &Verdict, loser: Color) -> f64 {
    let p = v.label.win_prob();
    if board.side_to_move() == loser {
        p
    } else {
        1.0 - p
    }
}

/// Finds the decisive move of `game` (see the module docs) with a `quick` and a `long` judge,
/// each answering for the side to move of the board it is given.
pub fn find_decisive(
    game: &LostGame,
    quick: &mut dyn FnMut(&Board) -> Result<Verdict, String>,
    long: &mut dyn FnMut(&Board) -> Result<Verdict, String>,
    options: CollectOptions,
) -> Result<Option<Decisive>, String> {
    let mut probs: Vec<f64> = Vec::new();
    for i in game.opening..game.stones.len() {
        let board = board_before(game, i)?;
        let p = loser_prob(&board, &quick(&board)?, game.loser);
        probs.push(p);
        if p <= LOST {
            break;
        }
    }
    // Drops at the loser's moves: probs[k] is before stone opening + k.
    let mut drops: Vec<(f64, usize)> = (0..probs.len().saturating_sub(1))
        .map(|k| (k, game.opening + k))
        .filter(|&(_, i)| colour_of(i) == game.loser)
        .map(|(k, i)| (probs[k] - probs[k + 1], i))
        .collect();
    drops.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut best: Option<Decisive> = None;
    for &(_, i) in drops.iter().take(CANDIDATES) {
        let before_board = board_before(game, i)?;
        let before = long(&before_board)?;
        let after_board = board_before(game, i + 1)?;
        let after = long(&after_board)?;
        let p_before = loser_prob(&before_board, &before, game.loser);
        let drop = p_before - loser_prob(&after_board, &after, game.loser);
        let played = game.stones[i];
        let keep = drop >= options.min_drop
            && p_before >= options.min_before
            && before.best != played
            && best.as_ref().is_none_or(|b| drop > b.drop);
        if keep {
            let puzzle = Puzzle {
                size: game.size,
                rule: game.rule,
                side: game.loser,
                stones: before_board.history().to_vec(),
                answers: Vec::new(),
            };
            best = Some(Decisive {
                position: Labelled {
                    line: 0,
                    puzzle,
                    best: before.best,
                    label: before.label,
                    result: Some(0.0),
                },
                played,
                drop,
                source: game.source.clone(),
            });
        }
    }
    Ok(best)
}

/// The colour of stone `i` of a game (black first).
fn colour_of(i: usize) -> Color {
    if i % 2 == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// One position answered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trial {
    /// The player's move.
    pub moved: Pos,
    /// The mover's win probability after it, as judged.
    pub after: f64,
    /// Whether it holds (see the module docs).
    pub holds: bool,
}

/// Judges the player's move `moved` on `d`'s position (see the module docs); the judge is
/// asked only when the move is neither the judge's move, nor the played one, nor a five.
pub fn try_move(
    d: &Decisive,
    moved: Pos,
    judge: &mut dyn FnMut(&Board) -> Result<Verdict, String>,
    tolerance: f64,
) -> Result<Trial, String> {
    let before = d.before();
    let mut board = d.position.board()?;
    let after = if moved == d.position.best {
        before
    } else if moved == d.played {
        before - d.drop
    } else if rules::is_win_at(&board, moved, board.side_to_move(), d.position.puzzle.rule) {
        1.0
    } else {
        board
            .play(moved)
            .map_err(|e| format!("move {moved}: {e}"))?;
        1.0 - judge(&board)?.label.win_prob()
    };
    Ok(Trial {
        moved,
        after: after.clamp(0.0, 1.0),
        holds: moved == d.position.best || after >= before - tolerance,
    })
}

/// The share of moves that hold, with its 95% interval (Wilson's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// Moves that hold.
    pub holds: usize,
    /// Positions answered.
    pub of: usize,
}

impl Share {
    /// Counts `trials`.
    pub fn of(trials: &[Trial]) -> Share {
        Share {
            holds: trials.iter().filter(|t| t.holds).count(),
            of: trials.len(),
        }
    }

    /// The share and its 95% interval (Wilson score interval), all in 0..=1.
    pub fn interval(self) -> (f64, f64, f64) {
        if self.of == 0 {
            return (0.0, 0.0, 1.0);
        }
        let (n, z) = (self.of as f64, 1.96f64);
        let p = self.holds as f64 / n;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (p, (centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// `holds/of = P% (lo-hi%)`.
    pub fn text(self) -> String {
        let (p, lo, hi) = self.interval();
        format!(
            "{}/{} = {:.1}% ({:.1}-{:.1}%)",
            self.holds,
            self.of,
            100.0 * p,
            100.0 * lo,
            100.0 * hi
        )
    }
}

/// One answered position as `yardstick score` writes it: `line N before P played x,y best x,y
/// moved x,y after P holds|drops`.
pub fn result_line(d: &Decisive, t: &Trial) -> String {
    format!(
        "line {} before {:.2} played {} best {} moved {} after {:.2} {}",
        d.position.line,
        d.before(),
        d.played,
        d.position.best,
        t.moved,
        t.after,
        if t.holds { "holds" } else { "drops" }
    )
}

/// Reads the result lines of a score report: the yardstick line number and whether it held.
/// Other lines are skipped.
pub fn parse_results(text: &str) -> std::collections::BTreeMap<usize, bool> {
    text.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            if w.next() != Some("line") {
                return None;
            }
            let n = w.next()?.parse().ok()?;
            match w.last()? {
                "holds" => Some((n, true)),
                "drops" => Some((n, false)),
                _ => None,
            }
        })
        .collect()
}

/// Two players' results on the same positions, compared pair by pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paired {
    /// Positions both answered.
    pub both: usize,
    /// Where only the first held.
    pub only_first: usize,
    /// Where only the second held.
    pub only_second: usize,
}

impl Paired {
    /// Pairs two result sets on their common positions.
    pub fn of(
        first: &std::collections::BTreeMap<usize, bool>,
        second: &std::collections::BTreeMap<usize, bool>,
    ) -> Paired {
        let mut p = Paired {
            both: 0,
            only_first: 0,
            only_second: 0,
        };
        for (line, &a) in first {
            if let Some(&b) = second.get(line) {
                p.both += 1;
                p.only_first += usize::from(a && !b);
                p.only_second += usize::from(b && !a);
            }
        }
        p
    }

    /// The second's share less the first's, with a 95% interval from the paired differences
    /// (each position contributes +1, -1 or 0; normal approximation).
    pub fn difference(self) -> (f64, f64, f64) {
        if self.both == 0 {
            return (0.0, -1.0, 1.0);
        }
        let n = self.both as f64;
        let (a, b) = (self.only_first as f64, self.only_second as f64);
        let d = (b - a) / n;
        let var = ((a + b) / n - d * d).max(0.0) / n;
        let half = 1.96 * var.sqrt();
        (d, d - half, d + half)
    }

    /// `+D points (lo..hi), only the first holds A, only the second B, of N`.
    pub fn text(self) -> String {
        let (d, lo, hi) = self.difference();
        format!(
            "{:+.1} points (95% {:+.1}..{:+.1}); only the first holds {}, only the second {}, \
             of {}",
            100.0 * d,
            100.0 * lo,
            100.0 * hi,
            self.only_first,
            self.only_second,
            self.both
        )
    }
}

/// A judge: which brain, and how to read its scores.
#[derive(Clone, Debug)]
pub struct JudgeSpec {
    /// The brain.
    pub engine: EngineSpec,
    /// Its score for a win probability of `1/(1+e^-1)` (Rapfi's default: 200).
    pub scale: f64,
    /// `INFO max_memory` it is given, in bytes.
    pub max_memory: u64,
}

impl JudgeSpec {
    /// The judge started at `turn_ms` a move on `size` under `rule`.
    fn start(&self, size: usize, rule: Rule, turn_ms: u64) -> Result<Analyst, String> {
        Analyst::start(&self.engine, size, rule, turn_ms, self.max_memory)
    }

    /// Its verdict on `board`.
    fn judge(&self, analyst: &mut Analyst, board: &Board, rule: Rule) -> Result<Verdict, String> {
        verdict(analyst.ask(board)?, board, rule, self.scale)
    }
}

/// Runs `work` over `items` on `jobs` threads, each with its own state from `start` (started
/// when first needed, and again after an item failed, since a failing brain may be stuck).
/// Results are in the order of `items`; `tick` hears of each finished item.
fn in_parallel<T: Sync, R: Send, S>(
    items: &[T],
    jobs: usize,
    start: &(dyn Fn(&T) -> Result<S, String> + Sync),
    work: &(dyn Fn(&mut S, &T) -> Result<R, String> + Sync),
    tick: &(dyn Fn() + Sync),
) -> Vec<Result<R, String>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<R, String>>>> =
        Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                let mut state: Option<S> = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = match state.take().map_or_else(|| start(item), Ok) {
                        Ok(mut s) => {
                            let r = work(&mut s, item);
                            if r.is_ok() {
                                state = Some(s);
                            }
                            r
                        }
                        Err(e) => Err(e),
                    };
                    results.lock()[i] = Some(r);
                    tick();
                }
            });
        }
    });
    results
        .into_inner()
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("not run".into())))
        .collect()
}

/// The decisive position of each game (see the module docs), judged by `judge` at `quick_ms`
/// and `long_ms` a position, `jobs` games at once; one result per game, in order.
pub fn collect(
    games: &[LostGame],
    judge: &JudgeSpec,
    (quick_ms, long_ms): (u64, u64),
    options: CollectOptions,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> Vec<Result<Option<Decisive>, String>> {
    let start = |g: &LostGame| -> Result<(Analyst, Analyst), String> {
        Ok((
            judge.start(g.size, g.rule, quick_ms)?,
            judge.start(g.size, g.rule, long_ms)?,
        ))
    };
    let work = |(quick, long): &mut (Analyst, Analyst), g: &LostGame| {
        find_decisive(
            g,
            &mut |b: &Board| judge.judge(quick, b, g.rule),
            &mut |b: &Board| judge.judge(long, b, g.rule),
            options,
        )
        .map_err(|e| format!("{}: {e}", g.source))
    };
    in_parallel(games, jobs, &start, &work, tick)
}

/// Each of `positions` labelled again by `judge` at `turn_ms` a position, `jobs` at once: it
/// keeps its stones, line and game result and takes the judge's move and evaluation (in the
/// label scale) as its `best` and `label`, so that a rule without a teacher file gets a strong
/// engine's labels for its self-play positions (`yardstick label`). Every position must be of
/// one board size and rule (the judge is started once per job); one result per position, in
/// order.
pub fn label(
    positions: &[Labelled],
    judge: &JudgeSpec,
    turn_ms: u64,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Result<Labelled, String>>, String> {
    let Some(first) = positions.first() else {
        return Ok(Vec::new());
    };
    let (size, rule) = (first.puzzle.size, first.puzzle.rule);
    if let Some(p) = positions
        .iter()
        .find(|p| (p.puzzle.size, p.puzzle.rule) != (size, rule))
    {
        return Err(format!(
            "line {}: a {} {}x{} position among {rule} {size}x{size} ones",
            p.line, p.puzzle.rule, p.puzzle.size, p.puzzle.size
        ));
    }
    let start = |_: &Labelled| judge.start(size, rule, turn_ms);
    let work = |analyst: &mut Analyst, p: &Labelled| {
        let board = p.board().map_err(|e| format!("line {}: {e}", p.line))?;
        let v = judge
            .judge(analyst, &board, rule)
            .map_err(|e| format!("line {}: {e}", p.line))?;
        Ok(Labelled {
            best: v.best,
            label: v.label,
            ..p.clone()
        })
    };
    Ok(in_parallel(positions, jobs, &start, &work, tick))
}

/// The player's move on each position and whether it holds (see the module docs): the player
/// brain at its turn in ms (with the arena's memory), the judge at its turn, `jobs` positions
/// at once; in order.
pub fn score(
    positions: &[Decisive],
    (player, player_ms): (&EngineSpec, u64),
    (judge, judge_ms): (&JudgeSpec, u64),
    tolerance: f64,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> Vec<Result<Trial, String>> {
    let start = |d: &Decisive| -> Result<(Analyst, Analyst), String> {
        let (size, rule) = (d.position.puzzle.size, d.position.puzzle.rule);
        Ok((
            Analyst::start(
                player,
                size,
                rule,
                player_ms,
                GameConfig::default().max_memory,
            )?,
            judge.start(size, rule, judge_ms)?,
        ))
    };
    let work = |(p, j): &mut (Analyst, Analyst), d: &Decisive| {
        let board = d.position.board()?;
        let moved = p.ask(&board)?.best;
        let rule = d.position.puzzle.rule;
        try_move(
            d,
            moved,
            &mut |b: &Board| judge.judge(j, b, rule),
            tolerance,
        )
        .map_err(|e| format!("line {}: {e}", d.position.line))
    };
    in_parallel(positions, jobs, &start, &work, tick)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::teacher::sigmoid;

    fn game(stones: &[(usize, usize)], loser: Color) -> LostGame {
        LostGame {
            source: "g.psq".into(),
            rule: Rule::Freestyle,
            size: 15,
            stones: stones.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
            opening: 3,
            loser,
        }
    }

    /// A judge that reads the loser's fate off the stone count: the loser (white here, to move
    /// on odd counts) keeps 0.5 until stone `blunder` has been played, then is lost. Its move
    /// is always the first free cell of row 0.
    fn scripted(blunder: usize, loser: Color) -> impl FnMut(&Board) -> Result<Verdict, String> {
        move |b: &Board| {
            let p: f64 = if b.stone_count() > blunder { 0.05 } else { 0.5 };
            let mover = if b.side_to_move() == loser {
                p
            } else {
                1.0 - p
            };
            let e = LABEL_SCALE * (mover / (1.0 - mover)).ln();
            let best = (0..15)
                .map(|x| Pos::new(x, 0))
                .find(|&q| b.is_empty_at(q))
                .unwrap();
            Ok(Verdict {
                best,
                label: Label::Eval(e),
            })
        }
    }

    #[test]
    fn the_decisive_move_is_the_largest_drop_and_reads_back() {
        let stones = [
            (7, 7),
            (8, 8),
            (6, 9),
            (9, 9),
            (10, 10),
            (5, 5),
            (11, 11),
            (4, 4),
            (12, 12),
        ];
        let g = game(&stones, Color::White);
        // White plays stone 5 (index 5, 0-based): the position after it has 6 stones.
        let (mut quick, mut long) = (scripted(5, Color::White), scripted(5, Color::White));
        let d = find_decisive(&g, &mut quick, &mut long, CollectOptions::default())
            .unwrap()
            .expect("a drop from 0.5 to 0.05 is decisive");
        assert_eq!(d.played, Pos::new(5, 5));
        assert_eq!(d.position.puzzle.stones.len(), 5);
        assert_eq!(d.position.puzzle.side, Color::White);
        assert!((d.drop - 0.45).abs() < 1e-6, "drop {}", d.drop);
        assert!((d.before() - 0.5).abs() < 1e-6);
        let back = Decisive::parse(&d.to_line(), 1).unwrap().unwrap();
        assert_eq!(back.played, d.played);
        assert_eq!(back.position.best, d.position.best);
        assert_eq!(back.position.puzzle.stones, d.position.puzzle.stones);
        assert!((back.drop - 0.45).abs() < 1e-3);
        assert_eq!(back.source, "g.psq");
    }

    #[test]
    fn a_game_without_a_large_drop_gives_nothing() {
        let stones = [(7, 7), (8, 8), (6, 9), (9, 9), (10, 10), (5, 5), (11, 11)];
        let g = game(&stones, Color::White);
        // The fate changes only after the last stone: no move of the loser dropped.
        let (mut quick, mut long) = (scripted(99, Color::White), scripted(99, Color::White));
        let d = find_decisive(&g, &mut quick, &mut long, CollectOptions::default()).unwrap();
        assert!(d.is_none());
    }

    #[test]
    fn a_move_holds_unless_the_judge_sees_it_drop() {
        let stones = [
            (7, 7),
            (8, 8),
            (6, 9),
            (9, 9),
            (10, 10),
            (5, 5),
            (11, 11),
            (4, 4),
        ];
        let g = game(&stones, Color::White);
        let (mut quick, mut long) = (scripted(5, Color::White), scripted(5, Color::White));
        let d = find_decisive(&g, &mut quick, &mut long, CollectOptions::default())
            .unwrap()
            .unwrap();
        let mut never = |_: &Board| -> Result<Verdict, String> { Err("not asked".into()) };
        // The judge's move and the played move are settled without asking.
        let t = try_move(&d, d.position.best, &mut never, TOLERANCE).unwrap();
        assert!(t.holds);
        let t = try_move(&d, d.played, &mut never, TOLERANCE).unwrap();
        assert!(!t.holds);
        // Another move: judged on the position after it.
        let elsewhere = Pos::new(14, 14);
        let mut even = |b: &Board| -> Result<Verdict, String> {
            assert_eq!(b.stone_count(), 6);
            Ok(Verdict {
                best: Pos::new(0, 0),
                label: Label::Eval(0.0),
            })
        };
        assert!(try_move(&d, elsewhere, &mut even, TOLERANCE).unwrap().holds);
        let mut winning = |_: &Board| -> Result<Verdict, String> {
            Ok(Verdict {
                best: Pos::new(0, 0),
                label: Label::Mate(7),
            })
        };
        let t = try_move(&d, elsewhere, &mut winning, TOLERANCE).unwrap();
        assert!(!t.holds);
        assert_eq!(t.after, 0.0);
    }

    #[test]
    fn paired_results_compare_position_by_position() {
        let a = parse_results(
            "header\nline 2 before 0.40 played 1,1 best 2,2 moved 1,1 after 0.00 drops\n\
             line 3 before 0.40 played 1,1 best 2,2 moved 2,2 after 0.40 holds\n\
             line 4 before 0.40 played 1,1 best 2,2 moved 2,2 after 0.40 holds\n\
             line 9 before 0.40 played 1,1 best 2,2 moved 2,2 after 0.40 holds\n",
        );
        assert_eq!(a.len(), 4);
        assert!(!a[&2]);
        let b = parse_results(
            "line 2 x holds\nline 3 x drops\nline 4 x holds\nline 5 x holds\nline 6 junk\n",
        );
        let p = Paired::of(&a, &b);
        assert_eq!(
            p,
            Paired {
                both: 3,
                only_first: 1,
                only_second: 1
            }
        );
        let (d, lo, hi) = p.difference();
        assert_eq!(d, 0.0);
        // Differences +1, -1, 0: variance (2/3)/3, half width 1.96 * 0.4714.
        assert!((hi - 1.96 * (2.0f64 / 9.0).sqrt()).abs() < 1e-12 && (lo + hi).abs() < 1e-12);
    }

    #[test]
    fn shares_carry_a_wilson_interval() {
        let (p, lo, hi) = Share { holds: 30, of: 100 }.interval();
        assert!((p - 0.3).abs() < 1e-12);
        assert!(
            (lo - 0.219).abs() < 0.002 && (hi - 0.396).abs() < 0.002,
            "{lo} {hi}"
        );
        assert_eq!(Share { holds: 0, of: 0 }.interval(), (0.0, 0.0, 1.0));
    }

    #[test]
    fn rapfi_scores_become_label_units() {
        let b = notation::opening_board(&[Pos::new(7, 7)], 15).unwrap();
        let a = Answer {
            best: Pos::new(8, 8),
            eval: Some(Eval::Score(200)),
        };
        let v = verdict(a, &b, Rule::Freestyle, 200.0).unwrap();
        assert!((v.label.win_prob() - sigmoid(1.0)).abs() < 1e-12);
        let silent = Answer {
            best: Pos::new(8, 8),
            eval: None,
        };
        assert!(verdict(silent, &b, Rule::Freestyle, 200.0).is_err());
    }
}
