//! A match: the seeded schedule of games between engines, played on worker threads, with
//! running statistics, an optional SPRT stop, and the records written to disk.
//!
//! Schedule (deterministic in the seed): every pair of engines `(a, b)`, `a < b`, is a pairing
//! (one pairing for two engines, a round robin for more). Game `g` of a pairing plays opening
//! `g / 2` of the opening order, with `a` black when `g` is even and `b` black when it is odd,
//! so each opening is played twice with colours swapped. The opening order is the file's, or
//! a seeded shuffle of it; with no file, the openings are random ones drawn from the seed.
//! Pairings are interleaved game by game. Which worker plays a game never changes the game.
//!
//! An SPRT (two engines only) is checked after every finished game; once it decides no new
//! game starts, and games already running finish and are counted.

use super::engine::EngineSpec;
use super::game::{play_game, GameConfig, GameRecord, Reason};
use super::openings::random_opening;
use super::record::psq;
use super::stats::{Sprt, SprtDecision, Wdl};
use crate::game::board::{Color, Pos};
use crate::game::rng::SplitMix64;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// A list (from a file), played in order or shuffled by the seed.
    List {
        /// The openings.
        openings: Vec<Vec<Pos>>,
        /// Whether to shuffle them with the seed.
        shuffle: bool,
    },
    /// Random openings of `stones` stones within `radius` of the centre.
    Random {
        /// Stones per opening.
        stones: usize,
        /// Chebyshev distance from the centre.
        radius: usize,
    },
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct Match {
    /// The engines; every pair plays.
    pub engines: Vec<EngineSpec>,
    /// How each game is played.
    pub game: GameConfig,
    /// Games per pairing.
    pub games: usize,
    /// The openings.
    pub openings: Openings,
    /// Seed of the opening order and random openings.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Folder for game records and `summary.json`.
    pub out: Option<PathBuf>,
    /// Print a progress line on stderr after every game.
    pub progress: bool,
}

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule (0-based); names the record file.
    pub index: usize,
    /// Which pairing (index into [`Match::pairings`]).
    pub pairing: usize,
    /// Engine index playing black.
    pub black: usize,
    /// Engine index playing white.
    pub white: usize,
    /// Index of the opening in the opening order.
    pub opening_index: usize,
    /// The opening stones.
    pub opening: Vec<Pos>,
}

/// The result of one pairing.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingReport {
    /// First engine's name.
    pub a: String,
    /// Second engine's name.
    pub b: String,
    /// Results from `a`'s side.
    pub wdl: Wdl,
    /// Games `a` lost, by reason.
    pub a_losses: BTreeMap<Reason, u32>,
    /// Games `b` lost, by reason.
    pub b_losses: BTreeMap<Reason, u32>,
    /// Draws by reason.
    pub draws: BTreeMap<Reason, u32>,
    /// Longest move time of `a` and `b`, ms.
    pub max_move_ms: [u64; 2],
    /// The SPRT's log-likelihood ratio and decision, if one ran.
    pub sprt: Option<(f64, SprtDecision)>,
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Per pairing, in [`Match::pairings`] order.
    pub pairings: Vec<PairingReport>,
    /// Every game played, with its schedule entry, in schedule order.
    pub games: Vec<(ScheduledGame, GameRecord)>,
    /// Wall time of the whole match, ms.
    pub wall_ms: u128,
    /// Games scheduled (more than played when the SPRT stopped the match).
    pub scheduled: usize,
}

impl Match {
    /// The engine index pairs that play each other.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect()
    }

    /// The opening order: as many openings as there are game pairs.
    fn opening_order(&self) -> Vec<Vec<Pos>> {
        let pairs = self.games.div_ceil(2).max(1);
        let mut rng = SplitMix64::new(self.seed);
        match &self.openings {
            Openings::List { openings, shuffle } => {
                assert!(!openings.is_empty(), "no openings");
                let mut order: Vec<usize> = (0..openings.len()).collect();
                if *shuffle {
                    rng.shuffle(&mut order);
                }
                order
                    .iter()
                    .cycle()
                    .take(pairs)
                    .map(|&i| openings[i].clone())
                    .collect()
            }
            Openings::Random { stones, radius } => (0..pairs)
                .map(|_| random_opening(&mut rng, *stones, *radius, self.game.size, self.game.rule))
                .collect(),
        }
    }

    /// The full schedule (see the module docs).
    pub fn schedule(&self) -> Vec<ScheduledGame> {
        let order = self.opening_order();
        let pairings = self.pairings();
        let mut out = Vec::with_capacity(self.games * pairings.len());
        for g in 0..self.games {
            for (k, &(a, b)) in pairings.iter().enumerate() {
                let (black, white) = if g % 2 == 0 { (a, b) } else { (b, a) };
                out.push(ScheduledGame {
                    index: out.len(),
                    pairing: k,
                    black,
                    white,
                    opening_index: g / 2,
                    opening: order[g / 2].clone(),
                });
            }
        }
        out
    }

    /// Plays the match and writes `summary.json` when [`Match::out`] is set.
    pub fn run(&self) -> Result<MatchReport, String> {
        let report = self.run_slice(0..usize::MAX)?;
        if let Some(dir) = &self.out {
            let path = dir.join("summary.json");
            std::fs::write(&path, report.to_json(self))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(report)
    }

    /// Plays the games of the schedule whose positions lie in `slice` (clamped to the
    /// schedule), writing their records when [`Match::out`] is set but no summary: a shard of
    /// a farmed run ([`crate::front::farm`]) plays one slice, and the slices together are the match.
    /// [`MatchReport::scheduled`] counts the slice's games.
    pub fn run_slice(&self, slice: std::ops::Range<usize>) -> Result<MatchReport, String> {
        self.prepare()?;
        let full = self.schedule();
        let end = slice.end.min(full.len());
        let schedule = &full[slice.start.min(end)..end];
        let pairings = self.pairings();
        let mut reports = self.empty_reports(&pairings);
        let started = Instant::now();
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut games: Vec<(ScheduledGame, GameRecord)> = Vec::new();
        let mut error = None;
        let tty = std::io::stderr().is_terminal();
        std::thread::scope(|scope| {
            for _ in 0..self.concurrency.max(1) {
                let tx = tx.clone();
                let (next, stop) = (&next, &stop);
                scope.spawn(move || loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(sg) = schedule.get(i) else { return };
                    let r = play_game(
                        &self.engines[sg.black],
                        &self.engines[sg.white],
                        &sg.opening,
                        &self.game,
                    );
                    if tx.send((i, r)).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            for (i, r) in rx {
                let sg = &schedule[i];
                let rec = match r {
                    Ok(rec) => rec,
                    Err(e) => {
                        error = Some(format!("game {}: {e}", sg.index + 1));
                        stop.store(true, Ordering::SeqCst);
                        continue;
                    }
                };
                let rep = &mut reports[sg.pairing];
                tally(rep, sg, &rec, pairings[sg.pairing].0);
                if self.update_sprt(rep) {
                    stop.store(true, Ordering::SeqCst);
                }
                if let Some(dir) = &self.out {
                    if let Err(e) = write_game(dir, sg.index, &rec) {
                        error = Some(e);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                games.push((sg.clone(), rec));
                if self.progress {
                    let line = progress_line(&reports, games.len(), schedule.len(), started);
                    if tty {
                        eprint!("\r{line}\x1b[K");
                    } else {
                        eprintln!("{line}");
                    }
                }
            }
        });
        if self.progress && tty {
            eprintln!();
        }
        if let Some(e) = error {
            return Err(e);
        }
        games.sort_by_key(|(sg, _)| sg.index);
        Ok(MatchReport {
            pairings: reports,
            games,
            wall_ms: started.elapsed().as_millis(),
            scheduled: schedule.len(),
        })
    }
}

impl Match {
    /// Checks the match can be played and makes its output folder.
    fn prepare(&self) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("a match needs at least two engines".into());
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        if let Some(dir) = &self.out {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        Ok(())
    }

    /// A report with no game yet for each of `pairings`.
    fn empty_reports(&self, pairings: &[(usize, usize)]) -> Vec<PairingReport> {
        pairings
            .iter()
            .map(|&(a, b)| PairingReport {
                a: self.engines[a].name.clone(),
                b: self.engines[b].name.clone(),
                wdl: Wdl::default(),
                a_losses: BTreeMap::new(),
                b_losses: BTreeMap::new(),
                draws: BTreeMap::new(),
                max_move_ms: [0, 0],
                sprt: self.sprt.map(|s| (0.0, s.decide(&Wdl::default()))),
            })
            .collect()
    }

    /// Brings the pairing's SPRT up to date with its results; true once it has decided. A
    /// decision stands: games still running when it came are counted in the LLR but do not
    /// reopen the test.
    fn update_sprt(&self, rep: &mut PairingReport) -> bool {
        let Some(s) = &self.sprt else {
            return false;
        };
        let d = match rep.sprt {
            Some((_, d)) if d != SprtDecision::Continue => d,
            _ => s.decide(&rep.wdl),
        };
        rep.sprt = Some((s.llr(&rep.wdl), d));
        d != SprtDecision::Continue
    }
}

/// The record file name of the game at schedule position `index`.
pub fn game_file(index: usize) -> String {
    format!("game-{:04}.psq", index + 1)
}

/// The file of the lines the engines wrote besides their moves (`MESSAGE`, `DEBUG`, ...).
pub fn log_file(index: usize) -> String {
    format!("game-{:04}.log", index + 1)
}

/// Writes a game's PSQ record and, when the engines said anything besides their moves, its
/// log: one line per message, prefixed by the engine's name (black's lines first).
fn write_game(dir: &std::path::Path, index: usize, rec: &GameRecord) -> Result<(), String> {
    let path = dir.join(game_file(index));
    std::fs::write(&path, psq(rec)).map_err(|e| format!("{}: {e}", path.display()))?;
    if rec.messages.iter().all(Vec::is_empty) {
        return Ok(());
    }
    let mut log = String::new();
    for (name, lines) in [
        (&rec.black, &rec.messages[0]),
        (&rec.white, &rec.messages[1]),
    ] {
        for l in lines {
            let _ = writeln!(log, "{name}: {l}");
        }
    }
    let path = dir.join(log_file(index));
    std::fs::write(&path, log).map_err(|e| format!("{}: {e}", path.display()))
}

fn tally(rep: &mut PairingReport, sg: &ScheduledGame, rec: &GameRecord, a: usize) {
    let a_color = if sg.black == a {
        Color::Black
    } else {
        Color::White
    };
    match rec.winner {
        None => {
            rep.wdl.draws += 1;
            *rep.draws.entry(rec.reason).or_default() += 1;
        }
        Some(w) if w == a_color => {
            rep.wdl.wins += 1;
            *rep.b_losses.entry(rec.reason).or_default() += 1;
        }
        Some(_) => {
            rep.wdl.losses += 1;
            *rep.a_losses.entry(rec.reason).or_default() += 1;
        }
    }
    for m in &rec.moves {
        let k = usize::from(m.color != a_color);
        rep.max_move_ms[k] = rep.max_move_ms[k].max(m.ms);
    }
}

fn fmt_duration(ms: u128) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

fn progress_line(reports: &[PairingReport], done: usize, total: usize, started: Instant) -> String {
    let el = started.elapsed().as_millis();
    let eta = el * (total - done) as u128 / done.max(1) as u128;
    let mut s = format!("[{done}/{total}]");
    // With a round robin one line cannot hold every pairing; show the first and the totals.
    let r = &reports[0];
    let _ = write!(
        s,
        " {} vs {}: +{} -{} ={} score {:.1}% elo {}",
        r.a,
        r.b,
        r.wdl.wins,
        r.wdl.losses,
        r.wdl.draws,
        100.0 * r.wdl.score(),
        r.wdl.elo_text()
    );
    if let Some((llr, _)) = r.sprt {
        let _ = write!(s, " llr {llr:.2}");
    }
    if reports.len() > 1 {
        let _ = write!(s, " (+{} pairings)", reports.len() - 1);
    }
    let _ = write!(s, " elapsed {} eta {}", fmt_duration(el), fmt_duration(eta));
    s
}

fn fmt_reasons(m: &BTreeMap<Reason, u32>) -> String {
    if m.is_empty() {
        return "-".into();
    }
    m.iter()
        .map(|(r, n)| format!("{} {n}", r.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl MatchReport {
    /// The human-readable result table.
    pub fn text(&self, m: &Match) -> String {
        let mut s = String::new();
        for r in &self.pairings {
            let w = &r.wdl;
            let _ = writeln!(s, "{} vs {}: {}", r.a, r.b, w.text());
            let _ = writeln!(s, "  {} lost by: {}", r.a, fmt_reasons(&r.a_losses));
            let _ = writeln!(s, "  {} lost by: {}", r.b, fmt_reasons(&r.b_losses));
            let _ = writeln!(s, "  draws: {}", fmt_reasons(&r.draws));
            let _ = writeln!(
                s,
                "  longest move: {} {} ms, {} {} ms",
                r.a, r.max_move_ms[0], r.b, r.max_move_ms[1]
            );
            if let (Some((llr, d)), Some(sp)) = (r.sprt, m.sprt) {
                let (lo, hi) = sp.bounds();
                let _ = writeln!(
                    s,
                    "  SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} in ({lo:.3}, {hi:.3}) -> {}",
                    sp.elo0,
                    sp.elo1,
                    sp.alpha,
                    sp.beta,
                    d.label()
                );
            }
        }
        let _ = writeln!(
            s,
            "{} of {} games played in {:.1} s",
            self.games.len(),
            self.scheduled,
            self.wall_ms as f64 / 1000.0
        );
        s
    }

    /// The JSON summary written as `summary.json`: the match settings, the engines, each
    /// pairing's result and every game's outcome.
    pub fn to_json(&self, m: &Match) -> String {
        let reasons = |r: &BTreeMap<Reason, u32>| -> serde_json::Map<String, Value> {
            r.iter()
                .map(|(r, n)| (r.name().to_string(), json!(n)))
                .collect()
        };
        let pairings: Vec<Value> = self
            .pairings
            .iter()
            .map(|r| {
                let mut p = json!({
                    "a": r.a,
                    "b": r.b,
                    "wins": r.wdl.wins,
                    "losses": r.wdl.losses,
                    "draws": r.wdl.draws,
                    "score": rounded(r.wdl.score()),
                    "elo": rounded(r.wdl.elo()),
                    "elo_error95": rounded(r.wdl.elo_error95()),
                    "a_losses": reasons(&r.a_losses),
                    "b_losses": reasons(&r.b_losses),
                    "draw_reasons": reasons(&r.draws),
                    "max_move_ms": r.max_move_ms,
                });
                if let (Some((llr, d)), Some(sp)) = (r.sprt, m.sprt) {
                    let (lower, upper) = sp.bounds();
                    p["sprt"] = json!({
                        "elo0": rounded(sp.elo0),
                        "elo1": rounded(sp.elo1),
                        "alpha": rounded(sp.alpha),
                        "beta": rounded(sp.beta),
                        "llr": rounded(llr),
                        "lower": rounded(lower),
                        "upper": rounded(upper),
                        "decision": d.label(),
                    });
                }
                p
            })
            .collect();
        let games: Vec<Value> = self
            .games
            .iter()
            .map(|(sg, g)| {
                let opening: Vec<String> = g.opening.iter().map(|p| p.to_string()).collect();
                json!({
                    "file": game_file(sg.index),
                    "black": g.black,
                    "white": g.white,
                    "opening": opening,
                    "moves": g.moves.len(),
                    "winner": g.winner.map(|c| match c {
                        Color::Black => "black",
                        Color::White => "white",
                    }),
                    "reason": g.reason.name(),
                    "detail": g.detail,
                })
            })
            .collect();
        let engines: Vec<Value> = m
            .engines
            .iter()
            .map(|e| json!({"name": e.name, "cmd": e.cmd}))
            .collect();
        let summary = json!({
            "size": m.game.size,
            "rule": m.game.rule.name(),
            "tc_turn_ms": m.game.tc_turn_ms,
            "tc_match_ms": m.game.tc_match_ms,
            "tolerance_ms": m.game.tolerance_ms,
            "seed": m.seed,
            "wall_ms": self.wall_ms,
            "scheduled": self.scheduled,
            "engines": engines,
            "pairings": pairings,
            "games": games,
        });
        let mut text = serde_json::to_string_pretty(&summary).expect("a JSON value serialises");
        text.push('\n');
        text
    }
}

/// `x` to two decimals, as the summary gives figures; `None` (JSON `null`) when not finite (an
/// Elo of ±infinity after a clean sweep).
fn rounded(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 100.0).round() / 100.0)
}
