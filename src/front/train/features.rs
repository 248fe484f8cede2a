//! What the fit reads: the hand-set weights it starts from, a position's features (each empty
//! cell's pattern combination for both sides, the threat rungs), and the samples built from
//! labelled positions with their targets.

use crate::evaluation::movegen;
use crate::evaluation::position::Position;
use crate::evaluation::weights::{self, Weights, COMBOS};
use crate::front::teacher::Labelled;
use crate::game::board::{Board, Pos};
use crate::game::pattern::{combine, Threat, PATTERNS, THREATS};
use crate::game::rules::Rule;

/// Policy weights are written in these units per logit.
pub const POLICY_UNITS: f64 = 256.0;

/// The hand-set evaluation this project started from, as weights: per pattern and direction
/// (index [`crate::game::pattern::Pattern`]) plus a bonus per threat rung, the same for both sides, with a tempo
/// bonus; the move order used the same values for taking and denying a cell. It is the fit's
/// starting point, and with it the brain plays exactly as before the evaluation was fitted.
pub mod classic {
    /// Value of one directional pattern (index: [`crate::game::pattern::Pattern`]; the split
    /// classes `F2A`, `F2B`, `F3S` are valued as their parents, as they were before the split).
    pub const PATTERN_VALUE: [i32; crate::game::pattern::PATTERNS] =
        [0, 0, 2, 5, 10, 30, 30, 30, 35, 110, 110, 140, 800, 3000];
    /// The side to move's bonus.
    pub const TEMPO: i32 = 700;
    /// Bonus for the combined rung (index: [`crate::game::pattern::Threat`]).
    pub const THREAT_BONUS: [i32; crate::game::pattern::THREATS] = [0, 0, 700, 0, 1200, 1500, 0];
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
pub fn classic_additive() -> ([f64; PATTERNS], [f64; THREATS], f64) {
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
    /// The rung masks ([`weights::rung_mask`]) of the side to move and of the other side.
    pub masks: [u8; 2],
}

impl Features {
    /// The highest threat rungs of the side to move and of the other side (0 for none).
    pub fn top(&self) -> [usize; 2] {
        self.masks.map(|m| weights::top_rung(m as usize))
    }

    /// The index of the two sides' rung masks in [`crate::evaluation::weights::Weights::mask`].
    pub fn mask_index(&self) -> usize {
        weights::mask_index(self.masks[0] as usize, self.masks[1] as usize)
    }
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
    let masks = [me, op].map(|c| {
        let counts = Threat::ALL.map(|t| pos.rung_count(c, t));
        weights::rung_mask(&counts) as u8
    });
    Some(Features {
        mover: sparse(&counts[0]),
        waiter: sparse(&counts[1]),
        cells,
        masks,
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
