//! An arena run in shards: a shard plays its slice of the match's schedule
//! ([`crate::front::arena::Match::run_slice`]); the merge tallies every game into the match's result.
//!
//! Invariants: a shard never stops early (an SPRT is decided by the merge, at round ends, so
//! what a shard plays never depends on the other shards); the merged result holds no wall or
//! move times, only what the games were, so it is the same bytes for the same run however it
//! was cut and wherever the shards ran.

use super::merge::{collect, MergeError};
use super::run::{mark_running, GameEntry, RunSpec, ShardResult};
use super::shard::Shard;
use crate::front::arena::{Match, Reason, ScheduledGame, SprtDecision, Wdl};
use crate::game::board::Color;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Plays `shard` of the run `spec` describes (the match `m`) and writes its result file; the
/// game records go to `RUN_DIR/games/`.
pub fn play_shard(
    m: &Match,
    spec: &RunSpec,
    run_dir: &Path,
    shard: Shard,
) -> Result<ShardResult, String> {
    let total = m.schedule().len();
    let slice = shard.slice(total);
    mark_running(run_dir, shard, &format!("playing games {slice:?}"))?;
    let mut m = m.clone();
    m.out = Some(run_dir.join("games"));
    m.sprt = None;
    m.progress = false;
    let report = m.run_slice(slice.clone())?;
    let mut result = ShardResult::new(spec, shard, slice);
    result.wall_ms = report.wall_ms as u64;
    result.games = report
        .games
        .iter()
        .map(|(sg, g)| GameEntry {
            index: sg.index,
            black: g.black.clone(),
            white: g.white.clone(),
            opening: g.opening.iter().map(|p| p.to_string()).collect(),
            moves: g
                .moves
                .iter()
                .map(|mv| (mv.pos.to_string(), mv.ms))
                .collect(),
            winner: g.winner.map(|c| color_name(c).to_string()),
            reason: g.reason.name().to_string(),
            detail: g.detail.clone(),
        })
        .collect();
    result.write(run_dir)?;
    Ok(result)
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// One pairing's tally.
#[derive(Clone, Debug, Default)]
struct Tally {
    wdl: Wdl,
    a_losses: BTreeMap<String, u32>,
    b_losses: BTreeMap<String, u32>,
    draws: BTreeMap<String, u32>,
}

/// A merged arena run.
#[derive(Clone, Debug)]
pub struct ArenaMerge {
    /// `result.json`: the deterministic summary.
    pub json: String,
    /// The human-readable table.
    pub text: String,
    /// The first pairing's SPRT state after the merged rounds, if the match has an SPRT.
    pub decision: Option<SprtDecision>,
    /// Shards merged (all of them, or those up to the round that decided).
    pub shards_merged: usize,
    /// Games merged.
    pub games: usize,
}

/// Checks one game of a shard file against the schedule and adds it to its pairing's tally.
fn tally(
    m: &Match,
    sg: &ScheduledGame,
    g: &GameEntry,
    tallies: &mut [Tally],
) -> Result<(), String> {
    let (a, _) = m.pairings()[sg.pairing];
    if g.black != m.engines[sg.black].name || g.white != m.engines[sg.white].name {
        return Err(format!(
            "game {} is {} vs {}, the schedule says {} vs {}",
            sg.index + 1,
            g.black,
            g.white,
            m.engines[sg.black].name,
            m.engines[sg.white].name
        ));
    }
    let reason = Reason::ALL
        .iter()
        .find(|r| r.name() == g.reason)
        .ok_or_else(|| format!("game {}: unknown reason {:?}", sg.index + 1, g.reason))?;
    let a_color = if sg.black == a { "black" } else { "white" };
    let t = &mut tallies[sg.pairing];
    let name = reason.name().to_string();
    match g.winner.as_deref() {
        None => {
            t.wdl.draws += 1;
            *t.draws.entry(name).or_default() += 1;
        }
        Some(w) if w == a_color => {
            t.wdl.wins += 1;
            *t.b_losses.entry(name).or_default() += 1;
        }
        Some("black" | "white") => {
            t.wdl.losses += 1;
            *t.a_losses.entry(name).or_default() += 1;
        }
        Some(w) => return Err(format!("game {}: unknown winner {w:?}", sg.index + 1)),
    }
    Ok(())
}

/// Merges shards `0..upto` of the arena run in `run_dir` (the match `m`, described by
/// `spec`): every shard must be there, once and intact. With an SPRT, rounds are added in
/// order and the merge stops after the first round whose SPRT decides. Writes
/// `RUN_DIR/result.json`.
pub fn merge(m: &Match, spec: &RunSpec, run_dir: &Path, upto: usize) -> Result<ArenaMerge, String> {
    let schedule = m.schedule();
    let shards = collect(run_dir, spec, schedule.len(), upto).map_err(|e| e.to_string())?;
    let mut tallies = vec![Tally::default(); m.pairings().len()];
    let mut games: Vec<Value> = Vec::new();
    let mut merged = 0;
    let mut decision = None;
    for round in 0..spec.rounds() {
        let in_round = spec.round_shards(round);
        if in_round.end > shards.len() {
            break;
        }
        for r in &shards[in_round.clone()] {
            add_shard(m, &schedule, r, &mut tallies, &mut games)?;
        }
        merged = in_round.end;
        decision = m.sprt.map(|s| s.decide(&tallies[0].wdl));
        if decision.is_some_and(|d| d != SprtDecision::Continue) {
            break;
        }
    }
    let json = result_json(m, spec, merged, &tallies, games);
    super::run::write_atomic(&run_dir.join("result.json"), &json)?;
    let played = tallies.iter().map(|t| t.wdl.games() as usize).sum();
    Ok(ArenaMerge {
        text: result_text(m, spec, merged, &tallies, schedule.len()),
        json,
        decision,
        shards_merged: merged,
        games: played,
    })
}

/// Adds one shard's games, checking that they are exactly its slice of the schedule.
fn add_shard(
    m: &Match,
    schedule: &[ScheduledGame],
    r: &ShardResult,
    tallies: &mut [Tally],
    games: &mut Vec<Value>,
) -> Result<(), String> {
    let file = Shard::new(r.shard, r.shards)?.file_name();
    let corrupt = |why: String| MergeError {
        corrupted: vec![(Path::new("shards").join(&file), why)],
        ..MergeError::default()
    };
    let want: Vec<usize> = (r.items.0..r.items.1).collect();
    let got: Vec<usize> = r.games.iter().map(|g| g.index).collect();
    if got != want {
        return Err(corrupt(format!(
            "holds {} games, not the {} of items {}..{} in order",
            got.len(),
            want.len(),
            r.items.0,
            r.items.1
        ))
        .to_string());
    }
    for g in &r.games {
        let sg = &schedule[g.index];
        tally(m, sg, g, tallies).map_err(|e| corrupt(e).to_string())?;
        games.push(json!({
            "file": crate::front::arena::runner::game_file(g.index),
            "black": g.black,
            "white": g.white,
            "opening": g.opening,
            "moves": g.moves.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            "winner": g.winner,
            "reason": g.reason,
        }));
    }
    Ok(())
}

/// `x` to two decimals; `None` (JSON `null`) when not finite.
fn rounded(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 100.0).round() / 100.0)
}

fn result_json(
    m: &Match,
    spec: &RunSpec,
    merged: usize,
    tallies: &[Tally],
    games: Vec<Value>,
) -> String {
    let pairings: Vec<Value> = m
        .pairings()
        .iter()
        .zip(tallies)
        .map(|(&(a, b), t)| {
            let mut p = json!({
                "a": m.engines[a].name,
                "b": m.engines[b].name,
                "wins": t.wdl.wins,
                "losses": t.wdl.losses,
                "draws": t.wdl.draws,
                "score": rounded(t.wdl.score()),
                "elo": rounded(t.wdl.elo()),
                "elo_error95": rounded(t.wdl.elo_error95()),
                "a_losses": t.a_losses,
                "b_losses": t.b_losses,
                "draw_reasons": t.draws,
            });
            if let Some(s) = m.sprt {
                let (lower, upper) = s.bounds();
                p["sprt"] = json!({
                    "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                    "llr": rounded(s.llr(&t.wdl)),
                    "lower": rounded(lower),
                    "upper": rounded(upper),
                    "decision": s.decide(&t.wdl).label(),
                });
            }
            p
        })
        .collect();
    let summary = json!({
        "kind": "arena",
        "run": spec.id(),
        "shards": spec.shards,
        "shards_merged": merged,
        "round": spec.round,
        "size": m.game.size,
        "rule": m.game.rule.name(),
        "seed": m.seed,
        "scheduled": m.schedule().len(),
        "engines": m.engines.iter().map(|e| &e.name).collect::<Vec<_>>(),
        "pairings": pairings,
        "games": games,
    });
    let mut text = serde_json::to_string_pretty(&summary).expect("a JSON value serialises");
    text.push('\n');
    text
}

fn result_text(
    m: &Match,
    spec: &RunSpec,
    merged: usize,
    tallies: &[Tally],
    total: usize,
) -> String {
    let mut s = String::new();
    for (&(a, b), t) in m.pairings().iter().zip(tallies) {
        let w = &t.wdl;
        let _ = writeln!(
            s,
            "{} vs {}: {} games, +{} -{} ={}, score {:.1}%, elo {:+.1} ± {:.1}",
            m.engines[a].name,
            m.engines[b].name,
            w.games(),
            w.wins,
            w.losses,
            w.draws,
            100.0 * w.score(),
            w.elo(),
            w.elo_error95()
        );
        if let Some(sp) = m.sprt {
            let (lo, hi) = sp.bounds();
            let _ = writeln!(
                s,
                "  SPRT elo0={} elo1={}: LLR {:.3} in ({lo:.3}, {hi:.3}) -> {}",
                sp.elo0,
                sp.elo1,
                sp.llr(w),
                sp.decide(w).label()
            );
        }
    }
    let played: u32 = tallies.iter().map(|t| t.wdl.games()).sum();
    let _ = writeln!(
        s,
        "{played} of {total} games merged from shards 0..{merged} of {} (rounds of {})",
        spec.shards, spec.round
    );
    s
}
