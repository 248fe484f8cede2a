//! Self-play data: bango plays itself from seeded random openings at a fixed node budget a move,
//! and a sample of each game's positions is labelled by a deeper search and the game's result.

use super::features::features;
use crate::engine::algo::alphabeta::AlphaBeta;
use crate::engine::algo::{Algorithm, Request};
use crate::engine::config::Config;
use crate::front::teacher::{self, Budget, Label, Labelled, LABEL_SCALE};
use crate::game::board::{Board, Color, Pos};
use crate::game::notation::{self, Puzzle};
use crate::game::rng::SplitMix64;
use crate::game::rules::{self, MoveOutcome, Rule};
use crate::search::alphabeta::{WIN, WIN_MIN};
use std::sync::atomic::AtomicBool;

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
    /// The rule the games are played under (each position's line records it).
    pub rule: Rule,
}

/// One move of `engine` (its own game state kept between moves, as in play).
fn play_move(
    engine: &mut AlphaBeta,
    config: &Config,
    board: &Board,
    rule: Rule,
    nodes: u64,
) -> Pos {
    let stop = AtomicBool::new(false);
    let silent = |_: &str| {};
    engine.think(&Request {
        board,
        rule,
        limits: Budget::Nodes(nodes).limits(),
        config,
        stop: &stop,
        output: &silent,
        report: &|_| {},
        analysis: &crate::engine::algo::Analysis::default(),
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

/// Plays `cfg.games` 15x15 games (under `cfg.rule`) of bango against itself (an engine per colour, a
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
/// [`crate::front::farm`]) is exactly that slice of the whole run.
pub fn selfplay_games(
    cfg: &SelfplayConfig,
    config: &Config,
    games: std::ops::Range<usize>,
    each: &mut dyn FnMut(usize, Labelled),
) {
    let rule = cfg.rule;
    let size = 15;
    let mut engines = [teacher::engine(config), teacher::engine(config)];
    let mut labeller = teacher::engine(config);
    for game in games {
        let mut rng = SplitMix64::new(
            SplitMix64::new(cfg.seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
                .next_u64(),
        );
        let opening = crate::front::arena::openings::random_opening(
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
        let winner = play_out(&mut engines, config, &mut board, rule, cfg.move_nodes);
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
            let Some(labelled) = label_ply(&mut labeller, config, cfg, &moves, ply, winner) else {
                continue;
            };
            taken += 1;
            each(game, labelled);
        }
    }
}

/// Plays the game on `board` to its end under `rule`, each colour's engine `nodes` a move; the
/// winner.
fn play_out(
    engines: &mut [AlphaBeta; 2],
    config: &Config,
    board: &mut Board,
    rule: Rule,
    nodes: u64,
) -> Option<Color> {
    loop {
        let c = board.side_to_move();
        let p = play_move(&mut engines[c.index()], config, board, rule, nodes);
        match rules::play_checked(board, p, c, rule) {
            Ok(MoveOutcome::Continue) => {}
            Ok(MoveOutcome::Win) => return Some(c),
            Ok(MoveOutcome::Draw) | Err(_) => return None,
        }
    }
}

/// The position after the first `ply` of `moves`, labelled by `labeller`'s search and the
/// game's result; `None` for a position the fit does not read or the search gave no score.
fn label_ply(
    labeller: &mut AlphaBeta,
    config: &Config,
    cfg: &SelfplayConfig,
    moves: &[(Pos, Color)],
    ply: usize,
    winner: Option<Color>,
) -> Option<Labelled> {
    let (rule, size) = (cfg.rule, 15);
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
    let b = puzzle.board().ok()?;
    features(&b, rule)?;
    let d = teacher::decide(labeller, config, &b, rule, Budget::Nodes(cfg.label_nodes));
    let score = d.score?;
    let result = match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    };
    Some(Labelled {
        line: 0,
        puzzle,
        best: d.pos,
        label: label_of(score, cfg.scale),
        result: Some(result),
    })
}
