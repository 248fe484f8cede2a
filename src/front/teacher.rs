//! The teacher yardstick (`pbrain-bango teacher`): how far bango agrees with a labelled position file, the yardstick
//! for evaluation and ordering changes.
//!
//! # The file
//! One position a line, as `positions-teacher-15.txt` in the shared data:
//! `15 freestyle <b|w> x,y,c ... | best x,y eval E depth D`, stones in move order, E from the
//! side to move's view in a scale where the win probability is `1/(1+exp(-E/250))`
//! ([`LABEL_SCALE`]), or `eval mate+N` / `eval mate-N` for a forced win or loss N plies away.
//! An optional `result R` field (`1`, `0` or `0.5`, the game's result for the side to move)
//! follows in the self-play files the trainer writes ([`crate::front::train`]).
//!
//! # What is measured
//! Each position is answered by [`AlphaBeta::decide`], the path every move of the brain takes
//! (book, root proofs, search), with a fresh game (empty table and history) per position:
//! - agreement: the share of positions where bango's move equals the label's, over all
//!   positions and over those whose label is not a mate;
//! - where the non-mate agreement is lost: by stones on the board ([`PHASES`]; the opening
//!   and the endgame need different things), and, where bango's move differs, how many cells
//!   (Chebyshev) it lies from the label's (near misses are a choice among shape moves, far ones
//!   a different plan or a missed tactic);
//! - correlation: bango's score as a win probability (`1/(1+exp(-s/K))`, proved wins 1 and
//!   losses 0) against the label's (mates 1 or 0). The engine's score scale `K` is unknown for
//!   a hand-set evaluation, so the report gives Pearson's r at the `K` that fits best, at a
//!   given `--scale`, and Spearman's rank correlation, which no scale changes;
//! - forced results: of the positions the label proves won (`mate+N`), the share where bango's
//!   score is a proved win too, and of those it proves lost, the share bango proves lost (the
//!   labelling engine found these within its own time: how many bango finds within its time
//!   measures how far its search sees threat sequences, whatever its evaluation).
//!
//! # Validation split
//! Positions that share an opening (the longest line of the opening file that their stones
//! start with) are one group: every game from one opening lands on one side of the split, so a
//! game never gives positions to both. [`is_held_out_group`] fixes the groups no fit trains on,
//! half of them validation ([`is_validation_group`]) and half test ([`is_test_group`]).

use crate::engine::algo::alphabeta::{AlphaBeta, Decision};
use crate::engine::algo::{Algorithm, Request};
use crate::engine::config::Config;
use crate::game::board::{Board, Pos};
use crate::game::notation::{self, Puzzle};
use crate::game::rules::Rule;
use crate::search::alphabeta::WIN_MIN;
use crate::search::timeman::Limits;
use std::sync::atomic::AtomicBool;

/// The label's evaluation scale: its win probability is `1/(1+exp(-E/LABEL_SCALE))`.
pub const LABEL_SCALE: f64 = 250.0;

/// A position's label: an evaluation or a forced result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Label {
    /// An evaluation in the label's scale ([`LABEL_SCALE`]), side to move's view.
    Eval(f64),
    /// A forced result: `+N` the side to move wins, `-N` it loses, the five N plies away.
    Mate(i32),
}

impl Label {
    /// The side to move's win probability.
    pub fn win_prob(self) -> f64 {
        match self {
            Label::Eval(e) => sigmoid(e / LABEL_SCALE),
            Label::Mate(n) if n > 0 => 1.0,
            Label::Mate(_) => 0.0,
        }
    }

    /// Whether this is a forced result.
    pub fn is_mate(self) -> bool {
        matches!(self, Label::Mate(_))
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// 1-based line number in its file.
    pub line: usize,
    /// The position (stones, rule, side to move).
    pub puzzle: Puzzle,
    /// The labeller's best move.
    pub best: Pos,
    /// The labeller's verdict.
    pub label: Label,
    /// The game's result for the side to move (1 win, 0 loss, 0.5 draw), when recorded.
    pub result: Option<f64>,
}

impl Labelled {
    /// The position as a board.
    pub fn board(&self) -> Result<Board, String> {
        self.puzzle.board()
    }

    /// The line in the file format (see the module docs).
    pub fn to_line(&self) -> String {
        let head = self.puzzle.to_line();
        let head = head.trim_end_matches(" |");
        let eval = match self.label {
            Label::Eval(e) => format!("{}", e.round() as i64),
            Label::Mate(n) if n > 0 => format!("mate+{n}"),
            Label::Mate(n) => format!("mate-{}", -n),
        };
        let mut s = format!("{head} | best {} eval {eval} depth 0", self.best);
        if let Some(r) = self.result {
            s.push_str(&format!(" result {r}"));
        }
        s
    }
}

fn parse_label(s: &str) -> Result<Label, String> {
    if let Some(n) = s.strip_prefix("mate+") {
        n.parse()
            .map(Label::Mate)
            .map_err(|_| format!("bad mate {s:?}"))
    } else if let Some(n) = s.strip_prefix("mate-") {
        n.parse::<i32>()
            .map(|n| Label::Mate(-n))
            .map_err(|_| format!("bad mate {s:?}"))
    } else {
        s.parse()
            .map(Label::Eval)
            .map_err(|_| format!("bad eval {s:?}"))
    }
}

/// Parses one line (see the module docs); comments and blank lines give `Ok(None)`.
pub fn parse_line(text: &str, line: usize) -> Result<Option<Labelled>, String> {
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let (head, tail) = t.split_once('|').ok_or("no `|` before the label")?;
    let puzzle = Puzzle::parse(head)?.ok_or("no position")?;
    let mut fields = tail.split_whitespace();
    let (mut best, mut label, mut result) = (None, None, None);
    while let Some(key) = fields.next() {
        let value = fields
            .next()
            .ok_or_else(|| format!("{key} without a value"))?;
        match key {
            "best" => {
                let p = notation::parse_opening(value, puzzle.size)?
                    .and_then(|p| p.first().copied())
                    .ok_or_else(|| format!("bad best move {value:?}"))?;
                best = Some(p);
            }
            "eval" => label = Some(parse_label(value)?),
            "result" => {
                result = Some(
                    value
                        .parse::<f64>()
                        .map_err(|_| format!("bad result {value:?}"))?,
                )
            }
            _ => {}
        }
    }
    Ok(Some(Labelled {
        line,
        puzzle,
        best: best.ok_or("no best move")?,
        label: label.ok_or("no eval")?,
        result,
    }))
}

/// Parses every labelled position of a file's text.
pub fn parse_file(text: &str) -> Result<Vec<Labelled>, String> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if let Some(p) = parse_line(l, i + 1).map_err(|e| format!("line {}: {e}", i + 1))? {
            out.push(p);
        }
    }
    Ok(out)
}

/// The group of a position: the index of the longest opening its stones start with, or, when
/// none does, `openings.len()` plus a hash of its first three stones (see the module docs).
pub fn group_of(p: &Puzzle, openings: &[Vec<Pos>]) -> usize {
    let stones: Vec<Pos> = p.stones.iter().map(|s| s.0).collect();
    let found = openings
        .iter()
        .enumerate()
        .filter(|(_, o)| stones.starts_with(o))
        .max_by_key(|(_, o)| o.len());
    match found {
        Some((i, _)) => i,
        None => {
            let mut h = 0usize;
            for s in stones.iter().take(3) {
                h = h.wrapping_mul(1021).wrapping_add(s.index());
            }
            openings.len() + h % 1_000_003
        }
    }
}

/// Whether a group is held out of every fit: one opening in five, split into the validation
/// groups ([`is_validation_group`]) and the test groups ([`is_test_group`]).
pub fn is_held_out_group(group: usize) -> bool {
    group % 5 == 2
}

/// Whether a group is a validation group: half of the held-out ones, the split that fits report
/// and choices (scales, steps, data mixes) are made on.
pub fn is_validation_group(group: usize) -> bool {
    is_held_out_group(group) && (group / 5) % 2 == 0
}

/// Whether a group is a test group: the other half of the held-out ones, which no fit reads and
/// no choice may: read only to report a finished change (`teacher --split test`, `train score
/// --split test`), so that its figure is not bent by the choices the validation figures made.
/// (Before issue 45 the validation split held these groups too, and the shipped freestyle
/// weights were chosen on both halves; they never trained on either.)
pub fn is_test_group(group: usize) -> bool {
    is_held_out_group(group) && (group / 5) % 2 == 1
}

/// Reads an opening file (`x,y x,y ...` a line).
pub fn read_openings(path: &std::path::Path, size: usize) -> Result<Vec<Vec<Pos>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for l in text.lines() {
        if let Some(o) = notation::parse_opening(l, size)? {
            out.push(o);
        }
    }
    Ok(out)
}

/// What one move of bango may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A turn of this many milliseconds, as the brain gets from `INFO timeout_turn`.
    Time(u64),
    /// A fixed depth (root proofs under node caps): reproducible.
    Depth(u32),
    /// A fixed node count: reproducible.
    Nodes(u64),
}

impl Budget {
    /// The limits of one move under this budget, its clock starting now.
    pub fn limits(self) -> Limits {
        match self {
            Budget::Time(ms) => Limits::per_move(ms),
            Budget::Depth(d) => Limits::depth(d),
            Budget::Nodes(n) => Limits::nodes(n),
        }
    }
}

/// A fresh engine as the brain builds it from `config` (the caller decides whether the book
/// is on), with the default table allocated before it returns.
pub fn engine(config: &Config) -> AlphaBeta {
    AlphaBeta::with_table(config, crate::search::tt::DEFAULT_BYTES)
}

/// bango's decision on `board` under `budget`, from a fresh game (empty table and history),
/// with `config` in force (its progress output is not shown).
pub fn decide(
    engine: &mut AlphaBeta,
    config: &Config,
    board: &Board,
    rule: Rule,
    budget: Budget,
) -> Decision {
    engine.new_game(board.size(), config);
    let stop = AtomicBool::new(false);
    let silent = |_: &str| {};
    let req = Request {
        board,
        rule,
        limits: budget.limits(),
        config,
        stop: &stop,
        output: &silent,
        report: &|_| {},
        analysis: &crate::engine::algo::Analysis::default(),
    };
    engine.decide(&req)
}

/// bango's score as a win probability at scale `k` (proved results 1 and 0).
pub fn score_prob(score: i32, k: f64) -> f64 {
    if score >= WIN_MIN {
        1.0
    } else if score <= -WIN_MIN {
        0.0
    } else {
        sigmoid(score as f64 / k)
    }
}

/// Pearson's correlation of two equally long series (0 when either is constant).
pub fn pearson(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len().min(ys.len()) as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        0.0
    } else {
        sxy / (sxx * syy).sqrt()
    }
}

/// Ranks (1-based, ties get their mean rank).
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation.
pub fn spearman(xs: &[f64], ys: &[f64]) -> f64 {
    pearson(&ranks(xs), &ranks(ys))
}

/// The scale `K` (searched on a log grid from 30 to 30000) at which bango's scores as win
/// probabilities correlate best with the labels', and that correlation.
pub fn best_scale(scores: &[i32], labels: &[f64]) -> (f64, f64) {
    let mut best = (0.0, f64::MIN);
    for i in 0..=300 {
        let k = 30.0 * 1000f64.powf(i as f64 / 300.0);
        let xs: Vec<f64> = scores.iter().map(|&s| score_prob(s, k)).collect();
        let r = pearson(&xs, labels);
        if r > best.1 {
            best = (k, r);
        }
    }
    best
}

/// One position's outcome.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// bango's decision.
    pub decision: Decision,
    /// Whether its move is the label's.
    pub agrees: bool,
}

/// The stone-count buckets of the breakdown by phase: bucket `i` holds the positions with at
/// least `PHASES[i]` stones and fewer than `PHASES[i + 1]` (the last has no upper bound).
pub const PHASES: [usize; 5] = [0, 10, 15, 20, 30];

/// Disagreements are counted by distance 1, 2, ... up to this many cells, the last bucket
/// holding that distance and farther.
pub const MISS_DISTANCES: usize = 5;

/// The bucket of [`PHASES`] a position of `stones` stones falls in.
pub fn phase_of(stones: usize) -> usize {
    PHASES.iter().rposition(|&lo| stones >= lo).unwrap_or(0)
}

/// The figures of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Positions answered.
    pub positions: usize,
    /// Of which bango's move equals the label.
    pub agree: usize,
    /// Positions whose label is not a mate.
    pub quiet: usize,
    /// Of which bango agrees.
    pub quiet_agree: usize,
    /// Non-mate labels by phase ([`PHASES`]): positions, and of which bango agrees.
    pub quiet_by_phase: [(usize, usize); PHASES.len()],
    /// Non-mate labels where bango's move differs, by its distance in cells from the label's
    /// (index 0: one cell, the last: [`MISS_DISTANCES`] or more).
    pub quiet_miss_distance: [usize; MISS_DISTANCES],
    /// Positions with a score (not book moves).
    pub scored: usize,
    /// The best-fitting scale and Pearson's r there.
    pub best_scale: (f64, f64),
    /// Pearson's r at the given scale, when one was given.
    pub at_scale: Option<(f64, f64)>,
    /// Spearman's rank correlation.
    pub spearman: f64,
    /// The same three over non-mate labels only: best scale, r there, Spearman.
    pub quiet_corr: (f64, f64, f64),
    /// Positions labelled won (`mate+N`), and of which bango's score is a proved win.
    pub wins_proved: (usize, usize),
    /// Positions labelled lost (`mate-N`), and of which bango's score is a proved loss.
    pub losses_proved: (usize, usize),
}

impl Summary {
    /// The summary of `outcomes` for `positions` (the same order), with Pearson's r also at
    /// `scale` when given.
    pub fn of(positions: &[&Labelled], outcomes: &[Outcome], scale: Option<f64>) -> Summary {
        let agree = outcomes.iter().filter(|o| o.agrees).count();
        let quiet: Vec<usize> = (0..outcomes.len())
            .filter(|&i| !positions[i].label.is_mate())
            .collect();
        let quiet_agree = quiet.iter().filter(|&&i| outcomes[i].agrees).count();
        let mut quiet_by_phase = [(0, 0); PHASES.len()];
        let mut quiet_miss_distance = [0; MISS_DISTANCES];
        for &i in &quiet {
            let phase = &mut quiet_by_phase[phase_of(positions[i].puzzle.stones.len())];
            phase.0 += 1;
            if outcomes[i].agrees {
                phase.1 += 1;
            } else {
                let d = outcomes[i].decision.pos.chebyshev(positions[i].best);
                quiet_miss_distance[d.clamp(1, MISS_DISTANCES) - 1] += 1;
            }
        }
        let pairs = |only_quiet: bool| -> (Vec<i32>, Vec<f64>) {
            (0..outcomes.len())
                .filter(|&i| !only_quiet || !positions[i].label.is_mate())
                .filter_map(|i| {
                    let s = outcomes[i].decision.score?;
                    Some((s, positions[i].label.win_prob()))
                })
                .unzip()
        };
        let (scores, labels) = pairs(false);
        let probs = |k: f64| -> Vec<f64> { scores.iter().map(|&s| score_prob(s, k)).collect() };
        let raw: Vec<f64> = scores.iter().map(|&s| s as f64).collect();
        let (qs, ql) = pairs(true);
        let qraw: Vec<f64> = qs.iter().map(|&s| s as f64).collect();
        let qbest = best_scale(&qs, &ql);
        let proved = |won: bool| -> (usize, usize) {
            let labelled: Vec<usize> = (0..outcomes.len())
                .filter(|&i| matches!(positions[i].label, Label::Mate(n) if (n > 0) == won))
                .collect();
            let found = labelled
                .iter()
                .filter(|&&i| match outcomes[i].decision.score {
                    Some(s) if won => s >= WIN_MIN,
                    Some(s) => s <= -WIN_MIN,
                    None => false,
                })
                .count();
            (labelled.len(), found)
        };
        Summary {
            positions: outcomes.len(),
            agree,
            quiet: quiet.len(),
            quiet_agree,
            quiet_by_phase,
            quiet_miss_distance,
            scored: scores.len(),
            best_scale: best_scale(&scores, &labels),
            at_scale: scale.map(|k| (k, pearson(&probs(k), &labels))),
            spearman: spearman(&raw, &labels),
            quiet_corr: (qbest.0, qbest.1, spearman(&qraw, &ql)),
            wins_proved: proved(true),
            losses_proved: proved(false),
        }
    }

    /// The report lines.
    pub fn text(&self) -> String {
        let pct = |a: usize, n: usize| 100.0 * a as f64 / n.max(1) as f64;
        let mut s = format!(
            "positions {}: agreement {:.1}% ({}/{}); non-mate labels {}: agreement {:.1}% ({}/{})\n",
            self.positions,
            pct(self.agree, self.positions),
            self.agree,
            self.positions,
            self.quiet,
            pct(self.quiet_agree, self.quiet),
            self.quiet_agree,
            self.quiet
        );
        s += "non-mate agreement by stones:";
        for (i, &(n, a)) in self.quiet_by_phase.iter().enumerate() {
            let range = match PHASES.get(i + 1) {
                Some(hi) => format!("{}-{}", PHASES[i], hi - 1),
                None => format!("{}+", PHASES[i]),
            };
            s += &format!(" {range} {:.0}% ({a}/{n})", pct(a, n));
        }
        s += "\nnon-mate disagreements by cells from the label's move:";
        for (i, n) in self.quiet_miss_distance.iter().enumerate() {
            let plus = if i + 1 == MISS_DISTANCES { "+" } else { "" };
            s += &format!(" {}{plus}: {n}", i + 1);
        }
        s += "\n";
        s += &format!(
            "win-probability correlation over {} scored positions: pearson {:.3} at best scale {:.0}",
            self.scored, self.best_scale.1, self.best_scale.0
        );
        if let Some((k, r)) = self.at_scale {
            s += &format!(", pearson {r:.3} at scale {k:.0}");
        }
        s += &format!(", spearman {:.3}\n", self.spearman);
        s += &format!(
            "non-mate labels only: pearson {:.3} at best scale {:.0}, spearman {:.3}\n",
            self.quiet_corr.1, self.quiet_corr.0, self.quiet_corr.2
        );
        let (won, won_found) = self.wins_proved;
        let (lost, lost_found) = self.losses_proved;
        s += &format!(
            "forced results proved: wins {:.1}% ({won_found}/{won}), losses {:.1}% ({lost_found}/{lost})\n",
            pct(won_found, won),
            pct(lost_found, lost)
        );
        s
    }
}

/// Which part of the file a run reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Every position.
    All,
    /// The training groups only.
    Train,
    /// The held-out validation groups only.
    Valid,
    /// The held-out test groups only (see [`is_test_group`]).
    Test,
}

/// Picks the positions of a run: the split, then mates dropped if asked, then every
/// `stride`-th, then at most `limit`.
pub fn select<'a>(
    all: &'a [Labelled],
    groups: &[usize],
    split: Split,
    no_mates: bool,
    stride: usize,
    limit: usize,
) -> Vec<&'a Labelled> {
    all.iter()
        .zip(groups)
        .filter(|(_, &g)| match split {
            Split::All => true,
            Split::Train => !is_held_out_group(g),
            Split::Valid => is_validation_group(g),
            Split::Test => is_test_group(g),
        })
        .map(|(p, _)| p)
        .filter(|p| !(no_mates && p.label.is_mate()))
        .step_by(stride.max(1))
        .take(limit)
        .collect()
}

/// Answers every position with a fresh game and compares (see the module docs); `each`
/// receives every position's outcome as it comes.
pub fn run(
    engine: &mut AlphaBeta,
    config: &Config,
    positions: &[&Labelled],
    budget: Budget,
    each: &mut dyn FnMut(usize, &Labelled, &Outcome),
) -> Result<Vec<Outcome>, String> {
    let mut out = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        let board = p.board().map_err(|e| format!("line {}: {e}", p.line))?;
        let decision = decide(engine, config, &board, p.puzzle.rule, budget);
        let o = Outcome {
            agrees: decision.pos == p.best,
            decision,
        };
        each(i, p, &o);
        out.push(o);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::algo::alphabeta::Source;
    use crate::game::board::Color;

    #[test]
    fn held_out_groups_split_into_validation_and_test() {
        let (mut valid, mut test) = (0, 0);
        for g in 0..10_000 {
            let (v, t) = (is_validation_group(g), is_test_group(g));
            assert!(!(v && t), "group {g} in both");
            assert_eq!(v || t, is_held_out_group(g), "group {g}");
            valid += v as usize;
            test += t as usize;
        }
        assert_eq!((valid, test), (1000, 1000));
        // Among the 49 groups of the shared openings, each half holds five openings.
        let count = |f: fn(usize) -> bool| (0..49).filter(|&g| f(g)).count();
        assert_eq!(count(is_validation_group), 5);
        assert_eq!(count(is_test_group), 5);
    }

    #[test]
    fn parses_labels_and_round_trips() {
        let l = "15 freestyle w 7,7,b 6,8,w 8,5,b | best 9,7 eval 132 depth 17";
        let p = parse_line(l, 3).unwrap().unwrap();
        assert_eq!(p.best, Pos::new(9, 7));
        assert_eq!(p.label, Label::Eval(132.0));
        assert_eq!(p.puzzle.side, Color::White);
        assert_eq!(p.puzzle.stones.len(), 3);
        assert!((p.label.win_prob() - sigmoid(132.0 / 250.0)).abs() < 1e-12);
        let m = parse_line(
            "15 freestyle b 7,7,b 8,8,w | best 1,2 eval mate-8 depth 27",
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(m.label, Label::Mate(-8));
        assert_eq!(m.label.win_prob(), 0.0);
        let r = Labelled {
            result: Some(0.5),
            ..m.clone()
        };
        let back = parse_line(&r.to_line(), 1).unwrap().unwrap();
        assert_eq!(
            (back.best, back.label, back.result),
            (m.best, m.label, Some(0.5))
        );
        assert!(parse_line("# x", 1).unwrap().is_none());
        assert!(parse_line("15 freestyle b 7,7,b | eval 3", 1).is_err());
        assert!(parse_line("15 freestyle b 7,7,b | best 3,3 eval x", 1).is_err());
    }

    #[test]
    fn groups_follow_the_longest_opening() {
        let o = vec![
            vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 8)],
            vec![
                Pos::new(7, 7),
                Pos::new(8, 8),
                Pos::new(6, 8),
                Pos::new(1, 1),
                Pos::new(2, 2),
            ],
        ];
        let p = |s: &str| Puzzle::parse(s).unwrap().unwrap();
        assert_eq!(
            group_of(&p("15 freestyle b 7,7,b 8,8,w 6,8,b 1,1,w 2,2,b 3,3,w"), &o),
            1
        );
        assert_eq!(
            group_of(&p("15 freestyle b 7,7,b 8,8,w 6,8,b 9,9,w"), &o),
            0
        );
        assert!(group_of(&p("15 freestyle b 7,7,b 8,9,w 6,8,b"), &o) >= 2);
    }

    #[test]
    fn agreement_is_broken_down_by_phase_and_miss_distance() {
        // Stones along the board's edges, far from the moves compared.
        let line = |stones: usize, label: &str| {
            let mut l = String::from("15 freestyle ");
            l += if stones % 2 == 0 { "b" } else { "w" };
            for i in 0..stones {
                let c = if i % 2 == 0 { 'b' } else { 'w' };
                l += &format!(" {},{},{c}", i % 15, 14 * (i / 15));
            }
            parse_line(&format!("{l} | best 7,7 eval {label} depth 9"), 1)
                .unwrap()
                .unwrap()
        };
        let ps = [
            line(4, "10"),      // opening, agrees
            line(12, "-30"),    // 10-14, two cells off
            line(12, "5"),      // 10-14, seven cells off: the last distance bucket
            line(24, "mate+5"), // a mate label: in neither breakdown
            line(26, "mate+9"), // a win bango proves
            line(27, "mate-4"), // a loss bango does not prove
        ];
        let answer = |x: usize, y: usize| Outcome {
            decision: Decision {
                pos: Pos::new(x, y),
                score: Some(0),
                source: Source::Search { depth: 1 },
            },
            agrees: Pos::new(x, y) == Pos::new(7, 7),
        };
        let proved = |score: i32| Outcome {
            decision: Decision {
                pos: Pos::new(3, 3),
                score: Some(score),
                source: Source::Search { depth: 1 },
            },
            agrees: false,
        };
        let outcomes = [
            answer(7, 7),
            answer(9, 6),
            answer(0, 7),
            answer(1, 1),
            proved(WIN_MIN),
            proved(-WIN_MIN + 1),
        ];
        let refs: Vec<&Labelled> = ps.iter().collect();
        let s = Summary::of(&refs, &outcomes, None);
        assert_eq!((s.quiet, s.quiet_agree), (3, 1));
        assert_eq!(s.quiet_by_phase, [(1, 1), (2, 0), (0, 0), (0, 0), (0, 0)]);
        assert_eq!(s.quiet_miss_distance, [0, 1, 0, 0, 1]);
        let text = s.text();
        assert!(text.contains(" 0-9 100% (1/1) 10-14 0% (0/2)"), "{text}");
        assert!(text.contains(" 30+ 0% (0/0)\n"), "{text}");
        assert!(text.contains(" 2: 1 3: 0 4: 0 5+: 1\n"), "{text}");
        // Of the two wins labelled, the one scored WIN_MIN is proved; the loss scored one
        // above the proved-loss bound is not.
        assert_eq!((s.wins_proved, s.losses_proved), ((2, 1), (1, 0)));
        assert!(
            text.contains("forced results proved: wins 50.0% (1/2), losses 0.0% (0/1)\n"),
            "{text}"
        );
        assert_eq!(
            (phase_of(0), phase_of(9), phase_of(10), phase_of(99)),
            (0, 0, 1, 4)
        );
    }

    #[test]
    fn correlations() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert!((pearson(&x, &[2.0, 4.0, 6.0, 8.0]) - 1.0).abs() < 1e-12);
        assert!((pearson(&x, &[8.0, 6.0, 4.0, 2.0]) + 1.0).abs() < 1e-12);
        assert!((spearman(&x, &[1.0, 10.0, 100.0, 1000.0]) - 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[3.0, 1.0, 3.0]), vec![2.5, 1.0, 2.5]);
        // Scores made from win probabilities at scale 400 fit best near 400.
        let probs = [0.1, 0.3, 0.5, 0.7, 0.9, 0.95];
        let scores: Vec<i32> = probs
            .iter()
            .map(|&p: &f64| (400.0 * (p / (1.0 - p)).ln()).round() as i32)
            .collect();
        let (k, r) = best_scale(&scores, &probs);
        assert!(r > 0.9999 && (k - 400.0).abs() < 20.0, "{k} {r}");
        assert_eq!(score_prob(WIN_MIN, 1.0), 1.0);
        assert_eq!(score_prob(-WIN_MIN, 1.0), 0.0);
    }
}
