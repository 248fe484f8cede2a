//! Training (`pbrain-bango train`): fits the evaluation and move-policy weights ([`crate::weights`]) to
//! labelled positions, and makes the self-play positions it fits them to.
//!
//! # Data
//! - The teacher file (`positions-teacher-15.txt`, format in [`crate::teacher`]): a strong
//!   engine's win probability and best move. Positions are grouped by opening and one group in
//!   five is held out for validation ([`crate::teacher::is_validation_group`]), so no game gives
//!   positions to both sides of the split.
//! - Self-play files ([`selfplay`]): bango plays itself from random openings at a fixed node
//!   budget a move (reproducible), and a sample of each game's positions is labelled by a
//!   deeper search (its score, in the teacher file's scale, and its move) and by the game's
//!   result.
//!
//! # The fit ([`fit_weights`])
//! Only positions where the search reads the evaluation are used: neither side has a five to
//! make and the side to move has no open four to make (those are decided before the evaluation
//! is read). The evaluation model is the one [`crate::position::Position::evaluate`] computes:
//! `z = sum(mover[c] over the side to move's empty cells) - sum(waiter[c] over the other
//! side's) + tempo`, `c` the cell's pattern combination, and `sigmoid(z)` is fitted to the
//! label's win probability by logistic regression (cross-entropy with soft targets). Each
//! table is `additive + residual`: the sum of a value per pattern over the four directions and
//! a value per threat rung, plus a per-combination residual held near 0 by an L2 penalty, so
//! combinations seldom seen fall back to the additive part.
//!
//! The move policy is a softmax over the candidate cells with logit `attack[own combination] +
//! defence[opponent's combination]`, fitted to the labelled best moves by cross-entropy, with
//! the same additive-plus-residual tables.
//!
//! Both are plain full-batch gradient descent (Adam) from a fixed start, so the same data
//! gives the same weights. The step size decays geometrically over the steps
//! ([`FitConfig::final_lr`]): at a constant step the full-batch loss stops falling after a few
//! hundred steps and circles the minimum, and weights taken from there played far worse. The
//! weights are written in search units: `scale` units per logit for the evaluation (kept at
//! the hand-set evaluation's measured scale so the search's margins keep their meaning),
//! [`POLICY_UNITS`] per logit for the policy.

use crate::algo::alphabeta::AlphaBeta;
use crate::algo::{Algorithm, Request};
use crate::board::{Board, Color, Pos};
use crate::config::Config;
use crate::movegen;
use crate::notation::{self, Puzzle};
use crate::pattern::{combine, Threat, THREATS};
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::rules::{self, MoveOutcome, Rule};
use crate::search::{WIN, WIN_MIN};
use crate::teacher::{self, sigmoid, Budget, Label, Labelled, LABEL_SCALE};
use crate::weights::{self, Weights, COMBOS};
use std::sync::atomic::AtomicBool;

/// Policy weights are written in these units per logit.
pub const POLICY_UNITS: f64 = 256.0;

/// The hand-set evaluation this project started from, as weights: per pattern and direction
/// (index [`crate::pattern::Pattern`]) plus a bonus per threat rung, the same for both sides, with a tempo
/// bonus; the move order used the same values for taking and denying a cell. It is the fit's
/// starting point, and with it the brain plays exactly as before the evaluation was fitted.
pub mod classic {
    /// Value of one directional pattern (index: [`crate::pattern::Pattern`]).
    pub const PATTERN_VALUE: [i32; 11] = [0, 0, 2, 5, 10, 30, 35, 110, 140, 800, 3000];
    /// The side to move's bonus.
    pub const TEMPO: i32 = 700;
    /// Bonus for the combined rung (index: [`crate::pattern::Threat`]).
    pub const THREAT_BONUS: [i32; crate::pattern::THREATS] = [0, 0, 700, 0, 1200, 1500, 0];
    /// Search units per logit of win probability of the weights files. The hand-set
    /// evaluation has no single scale (its static values and its search scores fit the
    /// teacher's labels best at very different scales; `train fit` and `teacher` print them),
    /// so this is a round number of the order of the search's margins (the aspiration window),
    /// which keeps them meaningful for fitted weights.
    pub const SCALE: i32 = 450;
}

/// The hand-set evaluation as [`Weights`] (see [`classic`]).
pub fn classic_weights() -> Weights {
    let mut w = Weights::zero();
    w.scale = classic::SCALE;
    w.tempo = classic::TEMPO;
    for i in 0..COMBOS {
        let pats = weights::patterns_of(i);
        let (threat, _) = combine(&pats, false);
        let v = pats
            .iter()
            .map(|&p| classic::PATTERN_VALUE[p as usize])
            .sum::<i32>()
            + classic::THREAT_BONUS[threat as usize];
        w.mover[i] = v;
        w.waiter[i] = v;
        w.attack[i] = v;
        w.defence[i] = v;
    }
    w
}

/// The hand-set evaluation's additive parts in logits: per pattern, per rung, tempo.
pub fn classic_additive() -> ([f64; 11], [f64; THREATS], f64) {
    let s = classic::SCALE as f64;
    (
        classic::PATTERN_VALUE.map(|v| v as f64 / s),
        classic::THREAT_BONUS.map(|v| v as f64 / s),
        classic::TEMPO as f64 / s,
    )
}

/// What the fit reads of one position.
#[derive(Clone, Debug, Default)]
pub struct Features {
    /// (combination, count) over the side to move's empty cells.
    pub mover: Vec<(u16, u16)>,
    /// (combination, count) over the other side's empty cells.
    pub waiter: Vec<(u16, u16)>,
    /// The candidate cells (legal, near the stones).
    pub cells: Vec<Cell>,
    /// The highest threat rung of the side to move and of the other side (0 for none).
    pub top: [u8; 2],
}

/// A candidate cell as the policy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The cell.
    pub pos: Pos,
    /// The mover's combination there.
    pub own: u16,
    /// The opponent's combination there.
    pub opp: u16,
    /// Distance buckets to the last two stones ([`weights::near_bucket`]).
    pub near: [u8; 2],
    /// The cell's class in the search's move order: its ladder rank, with every quiet rank
    /// (at most [`movegen::QUIET_RANK`]) one class 0. The order is by class, then policy.
    pub class: u8,
}

/// The features of `board` (side to move set), or `None` where the search never reads the
/// evaluation (a five to make for either side, an open four to make for the side to move).
pub fn features(board: &Board, rule: Rule) -> Option<Features> {
    let mut pos = Position::new(board, rule);
    let me = pos.side_to_move();
    let op = me.opponent();
    if pos.has_at_least(me, Threat::Five)
        || pos.has_at_least(op, Threat::Five)
        || movegen::find_usable(&mut pos, me, Threat::OpenFour).is_some()
    {
        return None;
    }
    let mut counts = [vec![0u16; COMBOS], vec![0u16; COMBOS]];
    for q in board.empty_cells() {
        for (side, c) in [me, op].into_iter().enumerate() {
            if pos.info(q, c).suspect {
                continue;
            }
            counts[side][weights::canonical(&pos.patterns(q, c))] += 1;
        }
    }
    let sparse = |v: &[u16]| -> Vec<(u16, u16)> {
        v.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(k, &n)| (k as u16, n))
            .collect()
    };
    let cand = *pos.candidates();
    let recent = weights::recent_stones(board);
    let mut cells = Vec::new();
    for q in cand.iter() {
        if !pos.is_legal_for(q, me) || pos.info(q, me).suspect || pos.info(q, op).suspect {
            continue;
        }
        let rank = movegen::rank(
            pos.info(q, me).threat,
            movegen::usable_threat(&mut pos, q, op),
        );
        cells.push(Cell {
            pos: q,
            class: if rank <= movegen::QUIET_RANK { 0 } else { rank },
            own: weights::canonical(&pos.patterns(q, me)) as u16,
            opp: weights::canonical(&pos.patterns(q, op)) as u16,
            near: recent.map(|r| weights::near_bucket(q, r) as u8),
        });
    }
    let top = [me, op].map(|c| {
        (1..THREATS)
            .rev()
            .find(|&t| pos.rung_count(c, Threat::ALL[t]) > 0)
            .unwrap_or(0) as u8
    });
    Some(Features {
        mover: sparse(&counts[0]),
        waiter: sparse(&counts[1]),
        cells,
        top,
    })
}

/// One training or validation example.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's features.
    pub features: Features,
    /// The win probability to fit.
    pub target: f64,
    /// Its weight in the evaluation fit.
    pub weight: f64,
    /// The index of the labelled best move in `features.cells`, if it is one of them.
    pub best: Option<usize>,
    /// Whether the label is a forced result.
    pub mate: bool,
}

/// How labels become targets.
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// Weight of a forced-result label in the evaluation fit (others weigh 1).
    pub mate_weight: f64,
    /// Self-play: the share of the game's result in the target (the rest is the deeper
    /// search's win probability).
    pub result_share: f64,
    /// Weight of a self-play position relative to a teacher position.
    pub selfplay_weight: f64,
}

impl Targets {
    /// Every label as given: forced results and self-play positions weigh as much as the rest,
    /// and a self-play target is the search's alone.
    pub const AS_LABELLED: Targets = Targets {
        mate_weight: 1.0,
        result_share: 0.0,
        selfplay_weight: 1.0,
    };
}

/// The samples of labelled positions (positions the evaluation is never read in are left
/// out), with `selfplay` telling how to read the labels.
pub fn samples(positions: &[&Labelled], targets: &Targets, selfplay: bool) -> Vec<Sample> {
    positions
        .iter()
        .filter_map(|p| {
            let board = p.board().ok()?;
            let f = features(&board, p.puzzle.rule)?;
            let search = p.label.win_prob();
            let target = match (selfplay, p.result) {
                (true, Some(r)) => targets.result_share * r + (1.0 - targets.result_share) * search,
                _ => search,
            };
            let mut weight = if p.label.is_mate() {
                targets.mate_weight
            } else {
                1.0
            };
            if selfplay {
                weight *= targets.selfplay_weight;
            }
            let best = f.cells.iter().position(|c| c.pos == p.best);
            Some(Sample {
                features: f,
                target,
                weight,
                best,
                mate: p.label.is_mate(),
            })
        })
        .collect()
}

/// Per combination: its four patterns and its threat rung (the additive part's features).
struct ComboShape {
    pats: Vec<[usize; 4]>,
    threat: Vec<usize>,
}

impl ComboShape {
    fn new() -> ComboShape {
        let mut pats = Vec::with_capacity(COMBOS);
        let mut threat = Vec::with_capacity(COMBOS);
        for i in 0..COMBOS {
            let p = weights::patterns_of(i);
            pats.push(p.map(|x| x as usize));
            threat.push(combine(&p, false).0 as usize);
        }
        ComboShape { pats, threat }
    }
}

/// Parameters of one structured table: per pattern, per threat rung, per combination.
const TABLE_PARAMS: usize = 11 + THREATS + COMBOS;

/// The values of the table stored at `p[0..TABLE_PARAMS]`.
fn expand(p: &[f64], shape: &ComboShape) -> Vec<f64> {
    (0..COMBOS)
        .map(|k| {
            shape.pats[k].iter().map(|&i| p[i]).sum::<f64>()
                + p[11 + shape.threat[k]]
                + p[11 + THREATS + k]
        })
        .collect()
}

/// Adds the gradient of the table's parameters, given the gradient of its values, to `g`.
fn reduce(gv: &[f64], shape: &ComboShape, g: &mut [f64]) {
    for k in 0..COMBOS {
        for &i in &shape.pats[k] {
            g[i] += gv[k];
        }
        g[11 + shape.threat[k]] += gv[k];
        g[11 + THREATS + k] += gv[k];
    }
}

/// L2 penalty gradient and value: `base` on the additive part, `resid` on the residuals.
fn penalty(p: &[f64], g: &mut [f64], base: f64, resid: f64) -> f64 {
    let mut loss = 0.0;
    for i in 0..TABLE_PARAMS {
        let l = if i < 11 + THREATS { base } else { resid };
        loss += l * p[i] * p[i];
        g[i] += 2.0 * l * p[i];
    }
    loss
}

/// A table's start: the additive part from per-pattern and per-rung values (logits).
fn start_table(pattern: &[f64; 11], rung: &[f64; THREATS]) -> Vec<f64> {
    let mut p = vec![0.0; TABLE_PARAMS];
    p[..11].copy_from_slice(pattern);
    p[11..11 + THREATS].copy_from_slice(rung);
    p
}

/// Adam over a flat parameter vector.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    lr: f64,
}

impl Adam {
    fn new(n: usize, lr: f64) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            lr,
        }
    }

    fn step(&mut self, p: &mut [f64], g: &[f64]) {
        let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
        self.t += 1;
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        for i in 0..p.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            p[i] -= self.lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
        }
    }
}

/// Settings of a fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Gradient steps of each fit.
    pub steps: usize,
    /// Adam's step size at the first step (logits).
    pub lr: f64,
    /// Adam's step size at the last step: it decays geometrically from `lr`. A constant step
    /// leaves full-batch Adam circling the minimum (the loss rises again after a few hundred
    /// steps); the decay lets it settle.
    pub final_lr: f64,
    /// L2 on the evaluation's additive part.
    pub eval_base_l2: f64,
    /// L2 on the evaluation's per-combination residuals.
    pub eval_resid_l2: f64,
    /// L2 on the policy's additive part.
    pub policy_base_l2: f64,
    /// L2 on the policy's residuals.
    pub policy_resid_l2: f64,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            steps: 3000,
            lr: 0.02,
            final_lr: 0.0005,
            eval_base_l2: 1e-6,
            eval_resid_l2: 1e-3,
            policy_base_l2: 1e-6,
            policy_resid_l2: 1e-3,
        }
    }
}

impl FitConfig {
    /// Adam's step size at step `step` of [`FitConfig::steps`].
    pub fn step_size(&self, step: usize) -> f64 {
        let t = step as f64 / self.steps.max(1) as f64;
        self.lr * (self.final_lr / self.lr).powf(t)
    }
}

/// The fitted model in logits.
#[derive(Clone, Debug)]
pub struct Model {
    /// Value tables per combination: mover, waiter.
    pub mover: Vec<f64>,
    /// See `mover`.
    pub waiter: Vec<f64>,
    /// The side to move's bonus.
    pub tempo: f64,
    /// The term by top threat rungs (side to move, other side).
    pub threat: Vec<[f64; THREATS]>,
    /// Policy tables per combination.
    pub attack: Vec<f64>,
    /// See `attack`.
    pub defence: Vec<f64>,
    /// Policy terms per distance bucket to the opponent's last stone and to the mover's.
    pub near: Vec<[f64; 2]>,
}

impl Model {
    /// The model of integer weights (logits = units / scale).
    pub fn of_weights(w: &Weights) -> Model {
        let s = w.scale as f64;
        let f = |v: &[i32], d: f64| v.iter().map(|&x| x as f64 / d).collect::<Vec<f64>>();
        Model {
            mover: f(&w.mover, s),
            waiter: f(&w.waiter, s),
            tempo: w.tempo as f64 / s,
            threat: w.threat.iter().map(|r| r.map(|x| x as f64 / s)).collect(),
            attack: f(&w.attack, POLICY_UNITS),
            defence: f(&w.defence, POLICY_UNITS),
            near: w
                .near
                .iter()
                .map(|n| n.map(|x| x as f64 / POLICY_UNITS))
                .collect(),
        }
    }

    /// Integer weights at `scale` units per logit.
    pub fn to_weights(&self, scale: i32) -> Weights {
        let s = scale as f64;
        let r = |v: &[f64], d: f64| v.iter().map(|&x| (x * d).round() as i32).collect();
        Weights {
            scale,
            tempo: (self.tempo * s).round() as i32,
            threat: self
                .threat
                .iter()
                .map(|r| r.map(|x| (x * s).round() as i32))
                .collect(),
            mover: r(&self.mover, s),
            waiter: r(&self.waiter, s),
            attack: r(&self.attack, POLICY_UNITS),
            defence: r(&self.defence, POLICY_UNITS),
            near: self
                .near
                .iter()
                .map(|n| n.map(|x| (x * POLICY_UNITS).round() as i32))
                .collect(),
        }
    }

    /// The evaluation of a sample, in logits.
    pub fn logit(&self, f: &Features) -> f64 {
        let m: f64 = f
            .mover
            .iter()
            .map(|&(k, n)| self.mover[k as usize] * n as f64)
            .sum();
        let w: f64 = f
            .waiter
            .iter()
            .map(|&(k, n)| self.waiter[k as usize] * n as f64)
            .sum();
        m - w + self.tempo + self.threat[f.top[0] as usize][f.top[1] as usize]
    }

    /// The policy's logit of a cell.
    pub fn policy(&self, c: &Cell) -> f64 {
        self.attack[c.own as usize]
            + self.defence[c.opp as usize]
            + self.near[c.near[0] as usize][0]
            + self.near[c.near[1] as usize][1]
    }

    /// The cell the search's order puts first (by class, then policy; the first of equals,
    /// cells in board order), among the cells of `class` only when given.
    pub fn policy_choice(&self, f: &Features, class: Option<u8>) -> Option<usize> {
        let mut best: Option<(usize, (u8, f64))> = None;
        for (i, c) in f.cells.iter().enumerate() {
            if class.is_some_and(|k| k != c.class) {
                continue;
            }
            let u = (c.class, self.policy(c));
            if best.is_none_or(|b| u.0 > b.1 .0 || (u.0 == b.1 .0 && u.1 > b.1 .1)) {
                best = Some((i, u));
            }
        }
        best.map(|b| b.0)
    }
}

/// Fits the evaluation tables to `train` (see the module docs), from an additive start: both
/// tables begin as `pattern` per direction plus `rung` per threat rung (logits), residuals 0.
pub fn fit_eval(
    train: &[Sample],
    pattern: &[f64; 11],
    rung: &[f64; THREATS],
    tempo: f64,
    cfg: &FitConfig,
    log: &dyn Fn(&str),
) -> Model {
    let shape = ComboShape::new();
    // Layout: mover table, waiter table, the threat term, tempo last.
    let threat_at = 2 * TABLE_PARAMS;
    let n = threat_at + THREATS * THREATS + 1;
    let mut p = vec![0.0; n];
    let table = start_table(pattern, rung);
    p[..TABLE_PARAMS].copy_from_slice(&table);
    p[TABLE_PARAMS..2 * TABLE_PARAMS].copy_from_slice(&table);
    p[n - 1] = tempo;
    let total_w: f64 = train.iter().map(|s| s.weight).sum::<f64>().max(1e-9);
    let mut adam = Adam::new(n, cfg.lr);
    for step in 0..=cfg.steps {
        let mv = expand(&p[..TABLE_PARAMS], &shape);
        let wv = expand(&p[TABLE_PARAMS..2 * TABLE_PARAMS], &shape);
        let tempo = p[n - 1];
        let (mut gm, mut gw, mut gt) = (vec![0.0; COMBOS], vec![0.0; COMBOS], 0.0);
        let mut gthreat = [0.0; THREATS * THREATS];
        let mut loss = 0.0;
        for s in train {
            let f = &s.features;
            let z: f64 = f
                .mover
                .iter()
                .map(|&(k, c)| mv[k as usize] * c as f64)
                .sum::<f64>()
                - f.waiter
                    .iter()
                    .map(|&(k, c)| wv[k as usize] * c as f64)
                    .sum::<f64>()
                + tempo
                + p[threat_at + f.top[0] as usize * THREATS + f.top[1] as usize];
            let q = sigmoid(z);
            loss += s.weight * cross_entropy(s.target, q);
            let g = s.weight * (q - s.target) / total_w;
            for &(k, c) in &f.mover {
                gm[k as usize] += g * c as f64;
            }
            for &(k, c) in &f.waiter {
                gw[k as usize] -= g * c as f64;
            }
            gt += g;
            gthreat[f.top[0] as usize * THREATS + f.top[1] as usize] += g;
        }
        loss /= total_w;
        let mut g = vec![0.0; n];
        reduce(&gm, &shape, &mut g[..TABLE_PARAMS]);
        reduce(&gw, &shape, &mut g[TABLE_PARAMS..2 * TABLE_PARAMS]);
        g[n - 1] = gt;
        for (i, x) in gthreat.iter().enumerate() {
            g[threat_at + i] = x + 2.0 * cfg.eval_base_l2 * p[threat_at + i];
        }
        let (a, b) = p.split_at(TABLE_PARAMS);
        let (ga, gb) = g.split_at_mut(TABLE_PARAMS);
        loss += penalty(a, ga, cfg.eval_base_l2, cfg.eval_resid_l2);
        loss += penalty(&b[..TABLE_PARAMS], gb, cfg.eval_base_l2, cfg.eval_resid_l2);
        if step % 250 == 0 {
            log(&format!("eval step {step}: loss {loss:.5}"));
        }
        if step < cfg.steps {
            adam.lr = cfg.step_size(step);
            adam.step(&mut p, &g);
        }
    }
    Model {
        mover: expand(&p[..TABLE_PARAMS], &shape),
        waiter: expand(&p[TABLE_PARAMS..2 * TABLE_PARAMS], &shape),
        tempo: p[n - 1],
        threat: (0..THREATS)
            .map(|a| std::array::from_fn(|b| p[threat_at + a * THREATS + b]))
            .collect(),
        attack: vec![0.0; COMBOS],
        defence: vec![0.0; COMBOS],
        near: vec![[0.0; 2]; weights::NEAR],
    }
}

/// Fits the policy tables to the best moves of `train` (samples whose best move is a
/// candidate), starting from zero.
pub fn fit_policy(train: &[Sample], model: &Model, cfg: &FitConfig, log: &dyn Fn(&str)) -> Model {
    let shape = ComboShape::new();
    let near_at = 2 * TABLE_PARAMS;
    let n = near_at + 2 * weights::NEAR;
    let mut p = vec![0.0; n];
    let used: Vec<&Sample> = train.iter().filter(|s| s.best.is_some()).collect();
    let count = used.len().max(1) as f64;
    let mut adam = Adam::new(n, cfg.lr);
    let mut u = Vec::new();
    let mut cells: Vec<Cell> = Vec::new();
    for step in 0..=cfg.steps {
        let av = expand(&p[..TABLE_PARAMS], &shape);
        let dv = expand(&p[TABLE_PARAMS..near_at], &shape);
        let (mut ga, mut gd) = (vec![0.0; COMBOS], vec![0.0; COMBOS]);
        let mut g = vec![0.0; n];
        let mut loss = 0.0;
        for s in &used {
            let all = &s.features.cells;
            let best_cell = all[s.best.expect("filtered")];
            // The order is by class first: the policy only ranks the label's class.
            cells.clear();
            cells.extend(all.iter().filter(|c| c.class == best_cell.class));
            let best = cells
                .iter()
                .position(|c| c.pos == best_cell.pos)
                .expect("in class");
            u.clear();
            u.extend(cells.iter().map(|c| {
                av[c.own as usize]
                    + dv[c.opp as usize]
                    + p[near_at + 2 * c.near[0] as usize]
                    + p[near_at + 2 * c.near[1] as usize + 1]
            }));
            let max = u.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = u.iter().map(|x| (x - max).exp()).sum();
            loss += -(u[best] - max - sum.ln());
            for (i, c) in cells.iter().enumerate() {
                let gi = ((u[i] - max).exp() / sum - (i == best) as u8 as f64) / count;
                ga[c.own as usize] += gi;
                gd[c.opp as usize] += gi;
                g[near_at + 2 * c.near[0] as usize] += gi;
                g[near_at + 2 * c.near[1] as usize + 1] += gi;
            }
        }
        loss /= count;
        reduce(&ga, &shape, &mut g[..TABLE_PARAMS]);
        reduce(&gd, &shape, &mut g[TABLE_PARAMS..near_at]);
        let (a, b) = p.split_at(TABLE_PARAMS);
        let (g1, g2) = g.split_at_mut(TABLE_PARAMS);
        loss += penalty(a, g1, cfg.policy_base_l2, cfg.policy_resid_l2);
        loss += penalty(
            &b[..TABLE_PARAMS],
            g2,
            cfg.policy_base_l2,
            cfg.policy_resid_l2,
        );
        if step % 250 == 0 {
            log(&format!("policy step {step}: loss {loss:.5}"));
        }
        if step < cfg.steps {
            adam.lr = cfg.step_size(step);
            adam.step(&mut p, &g);
        }
    }
    Model {
        attack: expand(&p[..TABLE_PARAMS], &shape),
        defence: expand(&p[TABLE_PARAMS..near_at], &shape),
        near: (0..weights::NEAR)
            .map(|d| [p[near_at + 2 * d], p[near_at + 2 * d + 1]])
            .collect(),
        ..model.clone()
    }
}

fn cross_entropy(y: f64, q: f64) -> f64 {
    let q = q.clamp(1e-12, 1.0 - 1e-12);
    -(y * q.ln() + (1.0 - y) * (1.0 - q).ln())
}

/// How well a model does on samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// Samples.
    pub n: usize,
    /// Mean cross-entropy against the targets, non-mate labels.
    pub quiet_loss: f64,
    /// Pearson's r of the model's win probability with the target, non-mate labels.
    pub quiet_r: f64,
    /// Pearson's r over every sample.
    pub all_r: f64,
    /// The share of samples (with the best move a candidate) whose best move the search's
    /// order (class, then policy) puts first.
    pub policy_top1: f64,
    /// The share whose best move the policy puts first within its class.
    pub class_top1: f64,
    /// The share of those whose best move is quiet where the policy puts it first among the
    /// quiet moves.
    pub quiet_top1: f64,
}

/// The [`Scores`] of `model` on `samples`.
pub fn score(model: &Model, samples: &[Sample]) -> Scores {
    let (mut qp, mut qy, mut ap, mut ay) = (vec![], vec![], vec![], vec![]);
    let mut loss = 0.0;
    let (mut hit, mut tried, mut class_hit) = (0usize, 0usize, 0usize);
    let (mut quiet_hit, mut quiet_tried) = (0usize, 0usize);
    for s in samples {
        let q = sigmoid(model.logit(&s.features));
        ap.push(q);
        ay.push(s.target);
        if !s.mate {
            qp.push(q);
            qy.push(s.target);
            loss += cross_entropy(s.target, q);
        }
        if let Some(b) = s.best {
            tried += 1;
            hit += (model.policy_choice(&s.features, None) == Some(b)) as usize;
            let class = s.features.cells[b].class;
            let in_class = model.policy_choice(&s.features, Some(class)) == Some(b);
            class_hit += in_class as usize;
            if class == 0 {
                quiet_tried += 1;
                quiet_hit += in_class as usize;
            }
        }
    }
    Scores {
        n: samples.len(),
        quiet_loss: loss / qp.len().max(1) as f64,
        quiet_r: teacher::pearson(&qp, &qy),
        all_r: teacher::pearson(&ap, &ay),
        policy_top1: hit as f64 / tried.max(1) as f64,
        class_top1: class_hit as f64 / tried.max(1) as f64,
        quiet_top1: quiet_hit as f64 / quiet_tried.max(1) as f64,
    }
}

/// Settings of a self-play run.
#[derive(Clone, Copy, Debug)]
pub struct SelfplayConfig {
    /// Games to play.
    pub games: usize,
    /// Node budget of a game move.
    pub move_nodes: u64,
    /// Node budget of a label's search.
    pub label_nodes: u64,
    /// Positions labelled per game at most.
    pub per_game: usize,
    /// Seed of the openings and of the sampled plies.
    pub seed: u64,
    /// Stones of a random opening.
    pub opening_stones: usize,
    /// Random openings lie within this distance of the centre.
    pub opening_radius: usize,
    /// Search units per logit of the engine's scores (to write labels in the teacher scale).
    pub scale: f64,
}

/// One move of `engine` (its own game state kept between moves, as in play).
fn play_move(engine: &mut AlphaBeta, config: &Config, board: &Board, nodes: u64) -> Pos {
    let stop = AtomicBool::new(false);
    let silent = |_: &str| {};
    engine.think(&Request {
        board,
        rule: Rule::Freestyle,
        limits: Budget::Nodes(nodes).limits(),
        config,
        stop: &stop,
        output: &silent,
        report: &|_| {},
        analysis: &crate::algo::Analysis::default(),
    })
}

/// A score in search units as a label in the teacher scale.
pub fn label_of(score: i32, scale: f64) -> Label {
    if score >= WIN_MIN {
        Label::Mate(WIN - score)
    } else if score <= -WIN_MIN {
        Label::Mate(-(WIN + score))
    } else {
        Label::Eval(score as f64 / scale * LABEL_SCALE)
    }
}

/// Plays `cfg.games` freestyle 15x15 games of bango against itself (an engine per colour, a
/// new game each, `move_nodes` a move) from seeded random openings and labels up to
/// `per_game` positions of each, at seeded random plies, with a `label_nodes` search (from a
/// fresh game) and the game's result, every engine configured by `config` (the caller turns
/// the book off). `each` receives every labelled position.
pub fn selfplay(cfg: &SelfplayConfig, config: &Config, each: &mut dyn FnMut(usize, Labelled)) {
    selfplay_games(cfg, config, 0..cfg.games, each);
}

/// The games `games` of the self-play run `cfg` (see [`selfplay`]). Each game draws its
/// opening and sampled plies from its own generator, seeded by the run's seed and its number,
/// and every engine starts it from a new game, so a slice made alone (a farm shard,
/// [`crate::farm`]) is exactly that slice of the whole run.
pub fn selfplay_games(
    cfg: &SelfplayConfig,
    config: &Config,
    games: std::ops::Range<usize>,
    each: &mut dyn FnMut(usize, Labelled),
) {
    let rule = Rule::Freestyle;
    let size = 15;
    let mut engines = [teacher::engine(config), teacher::engine(config)];
    let mut labeller = teacher::engine(config);
    for game in games {
        let mut rng = SplitMix64::new(
            SplitMix64::new(cfg.seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
                .next_u64(),
        );
        let opening = crate::arena::openings::random_opening(
            &mut rng,
            cfg.opening_stones,
            cfg.opening_radius,
            size,
            rule,
        );
        let Ok(mut board) = notation::opening_board(&opening, size) else {
            continue;
        };
        for e in engines.iter_mut() {
            e.new_game(size, config);
        }
        let mut winner = None;
        loop {
            let c = board.side_to_move();
            let p = play_move(&mut engines[c.index()], config, &board, cfg.move_nodes);
            match rules::play_checked(&mut board, p, c, rule) {
                Ok(MoveOutcome::Continue) => {}
                Ok(MoveOutcome::Win) => {
                    winner = Some(c);
                    break;
                }
                Ok(MoveOutcome::Draw) | Err(_) => break,
            }
        }
        let moves: Vec<(Pos, Color)> = board.history().to_vec();
        // Plies from one after the opening to three before the end, in a seeded order.
        let first = opening.len() + 1;
        let last = moves.len().saturating_sub(3);
        let mut plies: Vec<usize> = (first..last.max(first)).collect();
        rng.shuffle(&mut plies);
        let mut taken = 0;
        for &ply in &plies {
            if taken == cfg.per_game {
                break;
            }
            let stones = moves[..ply].to_vec();
            let side = if ply % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let puzzle = Puzzle {
                size,
                rule,
                side,
                stones,
                answers: Vec::new(),
            };
            let Ok(b) = puzzle.board() else { continue };
            if features(&b, rule).is_none() {
                continue;
            }
            let d = teacher::decide(
                &mut labeller,
                config,
                &b,
                rule,
                Budget::Nodes(cfg.label_nodes),
            );
            let Some(score) = d.score else { continue };
            let result = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            taken += 1;
            each(
                game,
                Labelled {
                    line: 0,
                    puzzle,
                    best: d.pos,
                    label: label_of(score, cfg.scale),
                    result: Some(result),
                },
            );
        }
    }
}

/// Which move policy a fit writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyFit {
    /// The hand-set move order (the hand-set values for taking and denying a cell).
    Classic,
    /// Fitted to the teacher positions' best moves.
    Teacher,
    /// Fitted to the teacher's and the self-play positions' best moves.
    WithSelfplay,
}

/// Everything a fit reads besides the data.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Search units per logit of the written evaluation.
    pub scale: i32,
    /// How labels become targets.
    pub targets: Targets,
    /// The optimiser's settings.
    pub fit: FitConfig,
    /// The policy written.
    pub policy: PolicyFit,
}

/// What [`fit_weights`] made.
#[derive(Clone, Debug)]
pub struct FitOutcome {
    /// The fitted weights.
    pub weights: Weights,
    /// Teacher positions fitted to (the training groups' samples).
    pub teacher_samples: usize,
    /// Self-play samples fitted to.
    pub selfplay_samples: usize,
    /// The hand-set evaluation's figures (validation and teacher training part), one line.
    pub before: String,
    /// The fitted weights' figures, one line.
    pub after: String,
}

/// Fits the evaluation (and, as `opts.policy` says, the policy) to the teacher positions of
/// the training groups (`groups[i]` is `teacher[i]`'s, see
/// [`crate::teacher::is_validation_group`]) and to the self-play positions, and scores the
/// hand-set and the fitted weights on the held-out groups. Deterministic: the same data and
/// options give the same weights.
pub fn fit_weights(
    teacher_positions: &[Labelled],
    groups: &[usize],
    selfplay: &[Labelled],
    opts: &FitOptions,
    log: &dyn Fn(&str),
) -> FitOutcome {
    let part = |valid: bool| -> Vec<&Labelled> {
        teacher_positions
            .iter()
            .zip(groups)
            .filter(|(_, &g)| teacher::is_validation_group(g) == valid)
            .map(|(p, _)| p)
            .collect()
    };
    let mut train = samples(&part(false), &opts.targets, false);
    let valid = samples(&part(true), &opts.targets, false);
    let teacher_train = train.len();
    let refs: Vec<&Labelled> = selfplay.iter().collect();
    train.extend(samples(&refs, &opts.targets, true));
    log(&format!(
        "{} training samples ({} teacher, {} self-play), {} validation",
        train.len(),
        teacher_train,
        train.len() - teacher_train,
        valid.len()
    ));
    let classic = Model::of_weights(&classic_weights());
    let (pattern, rung, tempo) = classic_additive();
    let model = fit_eval(&train, &pattern, &rung, tempo, &opts.fit, log);
    let model = match opts.policy {
        PolicyFit::Classic => Model {
            attack: classic.attack.clone(),
            defence: classic.defence.clone(),
            near: classic.near.clone(),
            ..model
        },
        PolicyFit::Teacher => fit_policy(&train[..teacher_train], &model, &opts.fit, log),
        PolicyFit::WithSelfplay => fit_policy(&train, &model, &opts.fit, log),
    };
    let report = |name: &str, m: &Model| {
        let v = score(m, &valid);
        let t = score(m, &train[..teacher_train]);
        format!(
            "{name}: validation {} samples: non-mate cross-entropy {:.4}, pearson non-mate {:.3}, all {:.3}, move order top-1 {:.1}% (within class {:.1}%, quiet {:.1}%); \
             teacher training part: non-mate cross-entropy {:.4}, pearson {:.3}, top-1 {:.1}% (within class {:.1}%, quiet {:.1}%)",
            v.n,
            v.quiet_loss,
            v.quiet_r,
            v.all_r,
            100.0 * v.policy_top1,
            100.0 * v.class_top1,
            100.0 * v.quiet_top1,
            t.quiet_loss,
            t.quiet_r,
            100.0 * t.policy_top1,
            100.0 * t.class_top1,
            100.0 * t.quiet_top1
        )
    };
    FitOutcome {
        weights: model.to_weights(opts.scale),
        teacher_samples: teacher_train,
        selfplay_samples: train.len() - teacher_train,
        before: report("hand-set", &classic),
        after: report("fitted", &model),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Pattern;

    #[test]
    fn classic_weights_are_the_hand_set_values() {
        let w = classic_weights();
        let i = weights::canonical(&[Pattern::F3, Pattern::F3, Pattern::B1, Pattern::Dead]);
        // Two open threes (a double-three rung) and a closed one.
        assert_eq!(w.mover[i], 110 + 110 + 2 + 700);
        assert_eq!(w.waiter[i], w.mover[i]);
        assert_eq!(w.tempo, 700);
    }

    #[test]
    fn features_count_every_empty_cell_and_skip_decided_positions() {
        let p = Puzzle::parse("15 freestyle w 7,7,b 8,8,w 6,8,b")
            .unwrap()
            .unwrap();
        let f = features(&p.board().unwrap(), Rule::Freestyle).unwrap();
        let cells: u16 = f.mover.iter().map(|x| x.1).sum();
        assert_eq!(cells as usize, 225 - 3);
        assert_eq!(f.waiter.iter().map(|x| x.1).sum::<u16>() as usize, 225 - 3);
        assert!(f.cells.len() > 10 && f.cells.len() < 40);
        // Black to move with an open three: decided, never evaluated.
        let p = Puzzle::parse("15 freestyle b 7,7,b 0,0,w 8,7,b 0,2,w 9,7,b 0,4,w")
            .unwrap()
            .unwrap();
        assert!(features(&p.board().unwrap(), Rule::Freestyle).is_none());
    }

    /// The model's logit of a position equals the engine's evaluation under the same weights.
    #[test]
    fn model_matches_the_engine_evaluation() {
        let w = Weights::embedded();
        let m = Model::of_weights(w);
        for line in [
            "15 freestyle w 7,7,b 8,8,w 6,8,b",
            "15 freestyle b 7,7,b 6,8,w 8,5,b 8,8,w 7,5,b 6,5,w",
        ] {
            let b = Puzzle::parse(line).unwrap().unwrap().board().unwrap();
            let f = features(&b, Rule::Freestyle).unwrap();
            let eval = Position::new(&b, Rule::Freestyle).evaluate();
            assert!((m.logit(&f) * w.scale as f64 - eval as f64).abs() < 1e-6);
        }
    }

    /// A fit moves the evaluation toward its targets: fitted to positions all labelled as
    /// won for the side to move, the tempo grows and the loss falls.
    #[test]
    fn fit_lowers_the_loss() {
        let lines = [
            "15 freestyle w 7,7,b 8,8,w 6,8,b | best 6,6 eval 300 depth 1",
            "15 freestyle b 7,7,b 8,8,w 6,8,b 9,9,w | best 6,6 eval 250 depth 1",
        ];
        let ls: Vec<Labelled> = lines
            .iter()
            .map(|l| teacher::parse_line(l, 1).unwrap().unwrap())
            .collect();
        let refs: Vec<&Labelled> = ls.iter().collect();
        let s = samples(&refs, &Targets::AS_LABELLED, false);
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|x| x.best.is_some()));
        let zero = Model::of_weights(&Weights::zero());
        let cfg = FitConfig {
            steps: 200,
            ..FitConfig::default()
        };
        let m = fit_eval(&s, &[0.0; 11], &[0.0; THREATS], 0.0, &cfg, &|_| {});
        let before = score(&zero, &s).quiet_loss;
        let after = score(&m, &s).quiet_loss;
        assert!(after < before - 0.01, "{before} -> {after}");
        let p = fit_policy(&s, &m, &cfg, &|_| {});
        // The labelled cell ends with the highest policy of its class (cells of the same
        // combinations and distances may tie with it), and with more than twice the share of
        // its class it had under the zero policy.
        for x in &s {
            let cells = &x.features.cells;
            let best = cells[x.best.unwrap()];
            let class: Vec<f64> = cells
                .iter()
                .filter(|c| c.class == best.class)
                .map(|c| p.policy(c))
                .collect();
            let top = class.iter().cloned().fold(f64::MIN, f64::max);
            assert!(p.policy(&best) >= top - 1e-9);
            let share = 1.0
                / class
                    .iter()
                    .map(|u| (u - p.policy(&best)).exp())
                    .sum::<f64>();
            assert!(
                share > 2.0 / class.len() as f64,
                "{share} of {}",
                class.len()
            );
        }
    }
}
