//! SPSA tuning of the search's declared tunables (`BANGO_TUNE_*`, see
//! [`crate::search::alphabeta::params`]) by games between two copies of the brain.
//!
//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992) estimates the gradient
//! of a noisy objective from two measurements per iteration, whatever the number of
//! parameters: iteration `k` draws a vector Δ of independent ±1 signs, measures the objective
//! at θ + c_k·Δ and θ − c_k·Δ, and moves θ along Δ by the difference. Here the two
//! measurements are one match between the two perturbed brains, and the objective value is the
//! score of the + side over the − side, `(W − L) / games`, so θ moves toward the side that won.
//!
//! Pieces, each usable alone:
//! - [`ParamSpec`] and [`parse_specs`]: the parameters, from a small text file, checked against
//!   the declared settings ([`Params::DOCS`]);
//! - [`Spsa`]: the iteration proper, generic over the objective (any closure), so it is tested
//!   on synthetic objectives with a known optimum;
//! - [`ArenaObjective`]: the objective as a match through [`crate::front::arena`];
//! - [`values_file`] and [`tune`]: the run, writing θ after every iteration.
//!
//! # Scaling and gains
//! Each parameter is measured in units of its own `c` (its perturbation size), so one gain
//! serves parameters of any scale: with `s` the score of iteration `k`,
//! `θ_i += a_k · c_i · s / (2 c_k Δ_i)`, where `c_k = 1 / (k+1)^0.101` and
//! `a_k = a / (A+k+1)^0.602` (Spall's recommended exponents; the first iteration is k = 0).
//! The perturbation of parameter `i` is `c_i · c_k`. `a` is therefore dimensionless: a score
//! difference of 1 at the first iteration moves each parameter by `a_0 / (2 c_0)` of its `c`.
//! `A` (about a tenth of the iterations, Spall's advice) keeps the first steps from being the
//! largest.
//!
//! # Invariants
//! - θ is kept real and within its bounds; the values a brain plays with are θ ± perturbation
//!   clamped to the bounds and rounded for integer parameters, so small steps of an integer
//!   parameter accumulate instead of being rounded away.
//! - Deterministic: the same specs, options (seed included) and objective values give the same
//!   trajectory bit for bit (Δ comes from [`SplitMix64`]; the rest is plain `f64` arithmetic).
//! - The values file is replaced atomically after every iteration, so an interrupted run keeps
//!   its last θ.
//!
//! # Example
//! A parameters file (`#` starts a comment; all four keys are required):
//!
//! ```text
//! BANGO_TUNE_ASPIRATION_DELTA start=400 c=40 min=50 max=2000
//! BANGO_TUNE_LMR_DIVISOR      start=1.5 c=0.2 min=0.5 max=4
//! ```
//!
//! and the command, 200 iterations of 8 games at 2000 nodes a move, two games at once:
//!
//! ```text
//! pbrain-bango tune --params spsa.txt --iterations 200 --games 8 --nodes 2000 \
//!     --concurrency 2 --out tuned.env
//! ```
//!
//! `tuned.env` then holds `BANGO_TUNE_ASPIRATION_DELTA=...` lines, ready for `env $(grep -v '#'
//! tuned.env) pbrain-bango` or an arena engine's `env` prefix. From the library:
//!
//! ```
//! use bango::front::tune::{parse_specs, Spsa, SpsaOptions};
//! let specs = parse_specs("BANGO_TUNE_ASPIRATION_DELTA start=400 c=40 min=50 max=2000").unwrap();
//! let mut spsa = Spsa::new(specs, SpsaOptions::new(10, 7));
//! // A toy objective: the + side "wins" when its delta is nearer 800.
//! let step = spsa
//!     .step(&mut |plus: &[f64], minus: &[f64]| {
//!         Ok(((minus[0] - 800.0).abs() - (plus[0] - 800.0).abs()).signum())
//!     })
//!     .unwrap();
//! assert!(step.theta[0] > 400.0);
//! ```

use crate::front::arena::{EngineSpec, GameConfig, Match, Openings};
use crate::front::farm::run::write_atomic;
use crate::game::rng::SplitMix64;
use crate::search::alphabeta::Params;
use std::path::Path;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The declared variable, `BANGO_TUNE_*`.
    pub name: String,
    /// The value the run starts from.
    pub start: f64,
    /// The perturbation size at the first iteration (the parameter's unit, see the module docs).
    pub c: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// Whether the setting takes whole numbers only (from its declared type).
    pub integer: bool,
}

impl ParamSpec {
    /// `x` as the brain would be given it: clamped to the bounds, rounded if integer.
    pub fn playable(&self, x: f64) -> f64 {
        let x = x.clamp(self.min, self.max);
        if self.integer {
            x.round()
        } else {
            x
        }
    }

    /// `x` as a setting's text (integers without a fraction).
    pub fn format(&self, x: f64) -> String {
        let x = self.playable(x);
        if self.integer {
            format!("{}", x as i64)
        } else {
            format!("{x}")
        }
    }
}

/// Parses a parameters file: one parameter a line,
/// `BANGO_TUNE_NAME start=X c=X min=X max=X`, `#` comments and blank lines ignored. Every
/// name must be a declared tunable (`BANGO_TUNE_*` in [`Params::DOCS`]) and appear once;
/// `min < max`, `c > 0`, the start within the bounds, and the bounds valid values of the
/// setting (an integer setting gets integer bounds). Errors name the line.
pub fn parse_specs(text: &str) -> Result<Vec<ParamSpec>, String> {
    let mut specs: Vec<ParamSpec> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let spec = parse_spec(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if specs.iter().any(|s| s.name == spec.name) {
            return Err(format!("line {}: {} given twice", i + 1, spec.name));
        }
        specs.push(spec);
    }
    if specs.is_empty() {
        return Err("no parameters (expected lines like \
                    `BANGO_TUNE_ASPIRATION_DELTA start=400 c=40 min=50 max=2000`)"
            .into());
    }
    Ok(specs)
}

/// The declared tunables' variables.
pub fn tunables() -> Vec<&'static str> {
    Params::DOCS
        .iter()
        .map(|d| d.var)
        .filter(|v| v.starts_with("BANGO_TUNE_"))
        .collect()
}

/// One line of a parameters file (comment already removed, not empty).
fn parse_spec(line: &str) -> Result<ParamSpec, String> {
    let mut words = line.split_whitespace();
    let name = words.next().unwrap_or_default().to_string();
    if !tunables().contains(&name.as_str()) {
        return Err(format!(
            "{name:?} is not a declared tunable (one of {})",
            tunables().join(", ")
        ));
    }
    let mut fields: [Option<f64>; 4] = [None; 4];
    const KEYS: [&str; 4] = ["start", "c", "min", "max"];
    for word in words {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?} is not key=value"))?;
        let slot = KEYS
            .iter()
            .position(|&key| key == k)
            .ok_or_else(|| format!("unknown key {k:?} (expected start, c, min, max)"))?;
        let x: f64 = v
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| format!("{k}={v:?} is not a number"))?;
        if fields[slot].replace(x).is_some() {
            return Err(format!("{k} given twice"));
        }
    }
    let get = |i: usize| fields[i].ok_or_else(|| format!("{name}: missing {}=", KEYS[i]));
    let spec = ParamSpec {
        integer: is_integer(&name),
        name: name.clone(),
        start: get(0)?,
        c: get(1)?,
        min: get(2)?,
        max: get(3)?,
    };
    check_spec(&spec)?;
    Ok(spec)
}

/// Whether the declared setting `var` takes whole numbers only: its parser refuses a fraction.
fn is_integer(var: &str) -> bool {
    matches!(Params::default().set(var, "0.5"), Some(Err(_)))
}

/// The checks of one parsed spec (see [`parse_specs`]).
fn check_spec(s: &ParamSpec) -> Result<(), String> {
    let name = &s.name;
    if s.min >= s.max {
        return Err(format!("{name}: min {} is not below max {}", s.min, s.max));
    }
    if s.c <= 0.0 {
        return Err(format!("{name}: c {} must be positive", s.c));
    }
    if s.start < s.min || s.start > s.max {
        return Err(format!(
            "{name}: start {} is outside [{}, {}]",
            s.start, s.min, s.max
        ));
    }
    for (what, x) in [("min", s.min), ("max", s.max)] {
        if s.integer && x.fract() != 0.0 {
            return Err(format!("{name} takes whole numbers; {what} is {x}"));
        }
        if let Some(Err(e)) = Params::default().set(name, &s.format(x)) {
            return Err(format!("{name}: {what} {x} is not a value it takes: {e}"));
        }
    }
    Ok(())
}

/// The options of an SPSA run (gains as in the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaOptions {
    /// Iterations to run.
    pub iterations: usize,
    /// The step gain `a` (dimensionless, see the module docs).
    pub a: f64,
    /// The stability constant `A` of the step gain.
    pub big_a: f64,
    /// Seed of the perturbation signs.
    pub seed: u64,
}

impl SpsaOptions {
    /// `iterations` with `a = 4`, `A` a tenth of the iterations, and `seed`.
    pub fn new(iterations: usize, seed: u64) -> SpsaOptions {
        SpsaOptions {
            iterations,
            a: 4.0,
            big_a: iterations as f64 / 10.0,
            seed,
        }
    }
}

/// The exponent of the step gain `a_k` (Spall's practical value).
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation gain `c_k` (Spall's practical value).
pub const GAMMA: f64 = 0.101;

/// An objective: given the + side's and the − side's values, the + side's score over the −
/// side's (higher is better for +), or why it could not be measured.
pub type Objective<'a> = dyn FnMut(&[f64], &[f64]) -> Result<f64, String> + 'a;

/// What one iteration did.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The iteration, from 0.
    pub k: usize,
    /// The values the + side played with (clamped, rounded).
    pub plus: Vec<f64>,
    /// The values the − side played with.
    pub minus: Vec<f64>,
    /// The objective: the + side's score over the − side's.
    pub score: f64,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// An SPSA run in progress.
#[derive(Clone, Debug)]
pub struct Spsa {
    specs: Vec<ParamSpec>,
    options: SpsaOptions,
    theta: Vec<f64>,
    rng: SplitMix64,
    k: usize,
}

impl Spsa {
    /// A run starting from each spec's `start`.
    pub fn new(specs: Vec<ParamSpec>, options: SpsaOptions) -> Spsa {
        Spsa {
            theta: specs.iter().map(|s| s.start).collect(),
            rng: SplitMix64::new(options.seed),
            specs,
            options,
            k: 0,
        }
    }

    /// The parameters.
    pub fn specs(&self) -> &[ParamSpec] {
        &self.specs
    }

    /// The current θ (real, within bounds).
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// Iterations done.
    pub fn iterations_done(&self) -> usize {
        self.k
    }

    /// One iteration: `objective(plus, minus)` returns the + side's score over the − side's
    /// (higher is better for +). An objective error leaves θ and the generator as they were
    /// after drawing Δ, and is returned.
    pub fn step(&mut self, objective: &mut Objective<'_>) -> Result<Step, String> {
        let k = self.k as f64;
        let ck = 1.0 / (k + 1.0).powf(GAMMA);
        let ak = self.options.a / (self.options.big_a + k + 1.0).powf(ALPHA);
        let delta: Vec<f64> = (0..self.specs.len())
            .map(|_| {
                if self.rng.next_u64() & 1 == 1 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect();
        let side = |sign: f64| -> Vec<f64> {
            self.specs
                .iter()
                .zip(&self.theta)
                .zip(&delta)
                .map(|((s, &t), &d)| s.playable(t + sign * ck * s.c * d))
                .collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        let score = objective(&plus, &minus)?;
        if !score.is_finite() {
            return Err(format!("iteration {}: objective gave {score}", self.k));
        }
        for ((t, s), &d) in self.theta.iter_mut().zip(&self.specs).zip(&delta) {
            *t = (*t + ak * s.c * score / (2.0 * ck * d)).clamp(s.min, s.max);
        }
        self.k += 1;
        Ok(Step {
            k: self.k - 1,
            plus,
            minus,
            score,
            theta: self.theta.clone(),
        })
    }
}

/// The values file: `header` lines as `#` comments, the iteration count, then one
/// `BANGO_TUNE_X=value` line per parameter (playable values; the real θ in a comment line, so
/// that the value lines stay plain `VAR=value` for `env`).
pub fn values_file(specs: &[ParamSpec], theta: &[f64], header: &[String], done: usize) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str(&format!("# {h}\n"));
    }
    out.push_str(&format!("# iterations done: {done}\n"));
    let real: Vec<String> = specs
        .iter()
        .zip(theta)
        .map(|(s, t)| format!("{}={t}", s.name))
        .collect();
    out.push_str(&format!("# theta before rounding: {}\n", real.join(" ")));
    for (s, &t) in specs.iter().zip(theta) {
        out.push_str(&format!("{}={}\n", s.name, s.format(t)));
    }
    out
}

/// Runs `spsa` for its remaining iterations, writing the values file `out` (atomically) after
/// every one and calling `on_step` with each; returns the final θ. On an objective error the
/// file keeps the last completed iteration's θ.
pub fn tune(
    spsa: &mut Spsa,
    objective: &mut Objective<'_>,
    out: &Path,
    header: &[String],
    on_step: &mut dyn FnMut(&Step),
) -> Result<Vec<f64>, String> {
    let write = |spsa: &Spsa| {
        let text = values_file(spsa.specs(), spsa.theta(), header, spsa.iterations_done());
        write_atomic(out, &text)
    };
    while spsa.iterations_done() < spsa.options.iterations {
        let step = spsa.step(objective)?;
        write(spsa)?;
        on_step(&step);
    }
    // Also when there was nothing to do, so that the file always exists after a run.
    write(spsa)?;
    Ok(spsa.theta().to_vec())
}

/// The objective as a match: two copies of one brain, each given its values through `env`,
/// play `games` games (each opening twice, colours swapped); the score is the + side's
/// `(W − L) / games`.
#[derive(Clone, Debug)]
pub struct ArenaObjective {
    /// The brain's executable.
    pub engine: String,
    /// The parameters, in θ's order.
    pub specs: Vec<ParamSpec>,
    /// How each game is played (the clock: see [`ArenaObjective::nodes`]).
    pub game: GameConfig,
    /// Games per iteration.
    pub games: usize,
    /// The openings.
    pub openings: Openings,
    /// Seed of the openings; iteration `k` uses `seed + k`, so iterations see new openings.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// A node cap per move (`INFO max_node`, one thread): reproducible games whose length
    /// does not depend on the machine's load. The game's clock stays as a safety ceiling.
    pub nodes: Option<u64>,
    /// Calls made so far (the next iteration's index).
    pub calls: u64,
}

impl ArenaObjective {
    /// The engine playing `values` under `name`.
    pub fn engine_spec(&self, name: &str, values: &[f64]) -> EngineSpec {
        let mut cmd = String::from("env");
        for (s, &x) in self.specs.iter().zip(values) {
            cmd.push_str(&format!(" {}={}", s.name, s.format(x)));
        }
        cmd.push(' ');
        cmd.push_str(&shell_quote(&self.engine));
        let mut spec = EngineSpec::command(&cmd);
        spec.name = name.to_string();
        if let Some(n) = self.nodes {
            spec.threads = Some(1);
            spec.info.push(format!("max_node {n}"));
        }
        spec
    }

    /// The match of one iteration.
    pub fn match_for(&self, plus: &[f64], minus: &[f64]) -> Match {
        Match {
            engines: vec![
                self.engine_spec("plus", plus),
                self.engine_spec("minus", minus),
            ],
            game: self.game.clone(),
            games: self.games,
            openings: self.openings.clone(),
            seed: self.seed.wrapping_add(self.calls),
            concurrency: self.concurrency.max(1),
            sprt: None,
            out: None,
            progress: false,
        }
    }

    /// Plays one iteration's match; the + side's `(W − L) / games`.
    pub fn evaluate(&mut self, plus: &[f64], minus: &[f64]) -> Result<f64, String> {
        if self.games == 0 {
            return Err("no games to play".into());
        }
        let report = self.match_for(plus, minus).run()?;
        self.calls += 1;
        let wdl = report
            .pairings
            .first()
            .ok_or("the match has no pairing")?
            .wdl;
        let games = wdl.games();
        if games == 0 {
            return Err("the match played no game".into());
        }
        Ok((f64::from(wdl.wins) - f64::from(wdl.losses)) / f64::from(games))
    }
}

/// `s` quoted for `sh` (single quotes; an embedded quote closed, escaped and reopened).
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}
