//! The fit itself: the additive-plus-residual tables, Adam with a decaying step, the
//! evaluation's logistic regression and the policy's softmax, and their scores on a sample set
//! (cross-entropy, agreement).

use super::features::*;
use crate::evaluation::weights::{self, Weights, COMBOS, MASKS};
use crate::front::teacher::{self, sigmoid, Labelled};
use crate::game::pattern::{combine, PATTERNS, THREATS};

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
const TABLE_PARAMS: usize = PATTERNS + THREATS + COMBOS;

/// The values of the table stored at `p[0..TABLE_PARAMS]`.
fn expand(p: &[f64], shape: &ComboShape) -> Vec<f64> {
    (0..COMBOS)
        .map(|k| {
            shape.pats[k].iter().map(|&i| p[i]).sum::<f64>()
                + p[PATTERNS + shape.threat[k]]
                + p[PATTERNS + THREATS + k]
        })
        .collect()
}

/// Adds the gradient of the table's parameters, given the gradient of its values, to `g`.
fn reduce(gv: &[f64], shape: &ComboShape, g: &mut [f64]) {
    for k in 0..COMBOS {
        for &i in &shape.pats[k] {
            g[i] += gv[k];
        }
        g[PATTERNS + shape.threat[k]] += gv[k];
        g[PATTERNS + THREATS + k] += gv[k];
    }
}

/// L2 penalty gradient and value: `base` on the additive part (toward 0), `resid` on the
/// residuals (toward `anchor`'s residuals: 0 from an additive start, the start's values from a
/// warm start).
fn penalty(p: &[f64], anchor: &[f64], g: &mut [f64], base: f64, resid: f64) -> f64 {
    let mut loss = 0.0;
    for i in 0..TABLE_PARAMS {
        let (l, d) = if i < PATTERNS + THREATS {
            (base, p[i])
        } else {
            (resid, p[i] - anchor[i])
        };
        loss += l * d * d;
        g[i] += 2.0 * l * d;
    }
    loss
}

/// [`penalty`] over the two tables at the front of `p` (attack and defence), each toward its
/// part of `anchor`, with gradients into the same places of `g`.
fn two_table_penalty(p: &[f64], anchor: &[f64], g: &mut [f64], base: f64, resid: f64) -> f64 {
    let (first, second) = g.split_at_mut(TABLE_PARAMS);
    penalty(p, anchor, first, base, resid)
        + penalty(
            &p[TABLE_PARAMS..],
            &anchor[TABLE_PARAMS..],
            second,
            base,
            resid,
        )
}

/// A table's start: the additive part from per-pattern and per-rung values (logits).
fn start_table(pattern: &[f64; PATTERNS], rung: &[f64; THREATS]) -> Vec<f64> {
    let mut p = vec![0.0; TABLE_PARAMS];
    p[..PATTERNS].copy_from_slice(pattern);
    p[PATTERNS..PATTERNS + THREATS].copy_from_slice(rung);
    p
}

/// A table's warm start: a zero additive part and the given values per combination as the
/// residuals, so the table expands to exactly `values`.
fn warm_table(values: &[f64]) -> Vec<f64> {
    let mut p = vec![0.0; TABLE_PARAMS];
    p[PATTERNS + THREATS..].copy_from_slice(values);
    p
}

/// Where a fit starts, and what its residual L2 pulls toward.
#[derive(Clone, Copy, Debug)]
pub enum Start<'a> {
    /// An additive start: every table is `pattern` per direction plus `rung` per threat
    /// rung (logits), residuals 0 and the L2 pulling them to 0; the side to move's bonus
    /// `tempo`; the threat and mask terms 0.
    Additive {
        /// Per pattern.
        pattern: &'a [f64; PATTERNS],
        /// Per threat rung.
        rung: &'a [f64; THREATS],
        /// The side to move's bonus.
        tempo: f64,
    },
    /// A warm start from a fitted model: every value starts at the model's and the L2 pulls
    /// the residuals, the threat and the mask terms back toward it rather than toward 0, so
    /// new data refine a fit instead of replacing it.
    Warm(&'a Model),
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
    /// Whether the evaluation fits a term per pair of rung masks
    /// ([`crate::evaluation::weights::Weights::mask`]) beside the top-rung term (off: those
    /// terms stay 0).
    pub threat_mask: bool,
    /// L2 on the rung-mask terms.
    pub mask_l2: f64,
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
            threat_mask: false,
            mask_l2: 1e-3,
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
    /// The term by rung masks (see [`Weights::mask`]).
    pub mask: Vec<f64>,
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
            mask: f(&w.mask, s),
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
            mask: r(&self.mask, s),
            mover: r(&self.mover, s),
            waiter: r(&self.waiter, s),
            attack: r(&self.attack, POLICY_UNITS),
            defence: r(&self.defence, POLICY_UNITS),
            near: self
                .near
                .iter()
                .map(|n| n.map(|x| (x * POLICY_UNITS).round() as i32))
                .collect(),
            // The fit has no threat classes and no two-ply mean (imported models only).
            classes: Vec::new(),
            two_ply: false,
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
        let [a, b] = f.top();
        m - w + self.tempo + self.threat[a][b] + self.mask[f.mask_index()]
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

/// Fits the evaluation tables to `train` (see the module docs) from `start`.
pub fn fit_eval(train: &[Sample], start: Start, cfg: &FitConfig, log: &dyn Fn(&str)) -> Model {
    let shape = ComboShape::new();
    // Layout: mover table, waiter table, the threat term, the mask term, tempo last.
    let threat_at = 2 * TABLE_PARAMS;
    let mask_at = threat_at + THREATS * THREATS;
    let n = mask_at + MASKS + 1;
    let mut p = vec![0.0; n];
    match start {
        Start::Additive {
            pattern,
            rung,
            tempo,
        } => {
            let table = start_table(pattern, rung);
            p[..TABLE_PARAMS].copy_from_slice(&table);
            p[TABLE_PARAMS..2 * TABLE_PARAMS].copy_from_slice(&table);
            p[n - 1] = tempo;
        }
        Start::Warm(m) => {
            p[..TABLE_PARAMS].copy_from_slice(&warm_table(&m.mover));
            p[TABLE_PARAMS..2 * TABLE_PARAMS].copy_from_slice(&warm_table(&m.waiter));
            for (a, row) in m.threat.iter().enumerate() {
                p[threat_at + a * THREATS..threat_at + (a + 1) * THREATS].copy_from_slice(row);
            }
            p[mask_at..mask_at + MASKS].copy_from_slice(&m.mask);
            p[n - 1] = m.tempo;
        }
    }
    // What the L2 pulls toward: the start, except the additive part, which is pulled to 0.
    let anchor = p.clone();
    let total_w: f64 = train.iter().map(|s| s.weight).sum::<f64>().max(1e-9);
    let mut adam = Adam::new(n, cfg.lr);
    for step in 0..=cfg.steps {
        let mv = expand(&p[..TABLE_PARAMS], &shape);
        let wv = expand(&p[TABLE_PARAMS..2 * TABLE_PARAMS], &shape);
        let tempo = p[n - 1];
        let (mut gm, mut gw, mut gt) = (vec![0.0; COMBOS], vec![0.0; COMBOS], 0.0);
        let mut gthreat = [0.0; THREATS * THREATS];
        let mut gmask = vec![0.0; MASKS];
        let mut loss = 0.0;
        for s in train {
            let f = &s.features;
            let [top_mover, top_waiter] = f.top();
            let (threat_i, mask_i) = (top_mover * THREATS + top_waiter, f.mask_index());
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
                + p[threat_at + threat_i]
                + p[mask_at + mask_i];
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
            gthreat[threat_i] += g;
            gmask[mask_i] += g;
        }
        loss /= total_w;
        let mut g = vec![0.0; n];
        reduce(&gm, &shape, &mut g[..TABLE_PARAMS]);
        reduce(&gw, &shape, &mut g[TABLE_PARAMS..2 * TABLE_PARAMS]);
        g[n - 1] = gt;
        for (i, x) in gthreat.iter().enumerate() {
            let d = p[threat_at + i] - anchor[threat_at + i];
            g[threat_at + i] = x + 2.0 * cfg.eval_base_l2 * d;
        }
        if cfg.threat_mask {
            for (i, x) in gmask.iter().enumerate() {
                let d = p[mask_at + i] - anchor[mask_at + i];
                g[mask_at + i] = x + 2.0 * cfg.mask_l2 * d;
                loss += cfg.mask_l2 * d * d;
            }
        }
        loss += two_table_penalty(&p, &anchor, &mut g, cfg.eval_base_l2, cfg.eval_resid_l2);
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
        mask: p[mask_at..mask_at + MASKS].to_vec(),
        attack: vec![0.0; COMBOS],
        defence: vec![0.0; COMBOS],
        near: vec![[0.0; 2]; weights::NEAR],
    }
}

/// Fits the policy tables to the best moves of `train` (samples whose best move is a
/// candidate) into `model`'s policy, starting from zero, or with `warm`, from `warm`'s policy
/// with the residual L2 pulling back toward it.
pub fn fit_policy(
    train: &[Sample],
    model: &Model,
    warm: Option<&Model>,
    cfg: &FitConfig,
    log: &dyn Fn(&str),
) -> Model {
    let shape = ComboShape::new();
    let near_at = 2 * TABLE_PARAMS;
    let n = near_at + 2 * weights::NEAR;
    let mut p = vec![0.0; n];
    if let Some(w) = warm {
        p[..TABLE_PARAMS].copy_from_slice(&warm_table(&w.attack));
        p[TABLE_PARAMS..near_at].copy_from_slice(&warm_table(&w.defence));
        for (d, pair) in w.near.iter().enumerate() {
            p[near_at + 2 * d..near_at + 2 * d + 2].copy_from_slice(pair);
        }
    }
    let anchor = p.clone();
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
        loss += two_table_penalty(&p, &anchor, &mut g, cfg.policy_base_l2, cfg.policy_resid_l2);
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

/// Which move policy a fit writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyFit {
    /// The hand-set move order (the hand-set values for taking and denying a cell).
    Classic,
    /// Fitted to the teacher positions' best moves (the self-play ones' when there is no
    /// teacher position).
    Teacher,
    /// Fitted to the teacher's and the self-play positions' best moves.
    WithSelfplay,
}

/// Everything a fit reads besides the data.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Search units per logit of the written evaluation.
    pub scale: i32,
    /// How labels become targets.
    pub targets: Targets,
    /// The optimiser's settings.
    pub fit: FitConfig,
    /// The policy written.
    pub policy: PolicyFit,
    /// A warm start: the fit begins at these weights (in logits) and its L2 pulls back toward
    /// them ([`Start::Warm`]); none, from the hand-set additive values.
    pub warm: Option<Model>,
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
    /// The starting evaluation's figures (the hand-set one, or the warm start; validation and
    /// training part), one line.
    pub before: String,
    /// The fitted weights' figures, one line.
    pub after: String,
}

/// Fits the evaluation (and, as `opts.policy` says, the policy) to the teacher positions of
/// the training groups (`groups[i]` is `teacher[i]`'s, see
/// [`crate::front::teacher::is_held_out_group`]) and to the self-play positions, and scores the
/// hand-set and the fitted weights on the validation groups (never the test groups). Without
/// teacher positions (a rule the teacher file does not cover) the self-play games are split
/// the same way instead, by their opening stones ([`crate::front::teacher::group_of`] with no
/// opening list), the validation part scored against its search labels, and a policy fitted to the teacher is fitted to the
/// self-play moves. Deterministic: the same data and options give the same weights.
pub fn fit_weights(
    teacher_positions: &[Labelled],
    groups: &[usize],
    selfplay: &[Labelled],
    opts: &FitOptions,
    log: &dyn Fn(&str),
) -> FitOutcome {
    let part = |keep: fn(usize) -> bool| -> Vec<&Labelled> {
        teacher_positions
            .iter()
            .zip(groups)
            .filter(|(_, &g)| keep(g))
            .map(|(p, _)| p)
            .collect()
    };
    let mut train = samples(
        &part(|g| !teacher::is_held_out_group(g)),
        &opts.targets,
        false,
    );
    let mut valid = samples(&part(teacher::is_validation_group), &opts.targets, false);
    let teacher_train = train.len();
    let refs: Vec<&Labelled> = if teacher_positions.is_empty() {
        let group = |p: &Labelled| teacher::group_of(&p.puzzle, &[]);
        let validation: Vec<&Labelled> = selfplay
            .iter()
            .filter(|p| teacher::is_validation_group(group(p)))
            .collect();
        valid = samples(&validation, &opts.targets, false);
        selfplay
            .iter()
            .filter(|p| !teacher::is_held_out_group(group(p)))
            .collect()
    } else {
        selfplay.iter().collect()
    };
    train.extend(samples(&refs, &opts.targets, true));
    // The part the training report reads: the teacher's, or everything when there is none.
    let reported = if teacher_train > 0 {
        teacher_train
    } else {
        train.len()
    };
    log(&format!(
        "{} training samples ({} teacher, {} self-play), {} validation",
        train.len(),
        teacher_train,
        train.len() - teacher_train,
        valid.len()
    ));
    let classic = Model::of_weights(&classic_weights());
    let (pattern, rung, tempo) = classic_additive();
    let start = match &opts.warm {
        Some(m) => Start::Warm(m),
        None => Start::Additive {
            pattern: &pattern,
            rung: &rung,
            tempo,
        },
    };
    let model = fit_eval(&train, start, &opts.fit, log);
    let warm = opts.warm.as_ref();
    let model = match opts.policy {
        PolicyFit::Classic => Model {
            attack: classic.attack.clone(),
            defence: classic.defence.clone(),
            near: classic.near.clone(),
            ..model
        },
        PolicyFit::Teacher => fit_policy(&train[..reported], &model, warm, &opts.fit, log),
        PolicyFit::WithSelfplay => fit_policy(&train, &model, warm, &opts.fit, log),
    };
    let report = |name: &str, m: &Model| {
        let v = score(m, &valid);
        let t = score(m, &train[..reported]);
        format!(
            "{name}: validation {} samples: non-mate cross-entropy {:.4}, pearson non-mate {:.3}, all {:.3}, move order top-1 {:.1}% (within class {:.1}%, quiet {:.1}%); \
             {} training part: non-mate cross-entropy {:.4}, pearson {:.3}, top-1 {:.1}% (within class {:.1}%, quiet {:.1}%)",
            v.n,
            v.quiet_loss,
            v.quiet_r,
            v.all_r,
            100.0 * v.policy_top1,
            100.0 * v.class_top1,
            100.0 * v.quiet_top1,
            if teacher_train > 0 { "teacher" } else { "self-play" },
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
        before: match warm {
            Some(m) => report("start", m),
            None => report("hand-set", &classic),
        },
        after: report("fitted", &model),
    }
}
