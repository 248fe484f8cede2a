//! Match statistics: score, Elo difference with a 95% error bar, and the sequential probability
//! ratio test that stops a match once it has decided.
//!
//! Both work on per-game scores (1 win, ½ draw, 0 loss) of the first engine of a pairing.
//! - Elo: the mean score `s` maps to `-400·log10(1/s - 1)` (logistic model). The error bar
//!   takes the per-game score variance (trinomial: wins, draws, losses), the normal
//!   approximation `s ± 1.96·sqrt(var/N)`, maps both ends to Elo and reports half their spread.
//! - SPRT: the generalised SPRT of fishtest and cutechess's logistic mode. With
//!   `s0`, `s1` the expected scores at `elo0`, `elo1`, the log-likelihood ratio is approximated
//!   by `LLR = N·(s1 - s0)·(2s - s0 - s1) / (2·var)`; it accepts H1 (`elo >= elo1`) at
//!   `ln((1-β)/α)` and H0 (`elo <= elo0`) at `ln(β/(1-α))`.

/// The 97.5% quantile of the standard normal distribution (two-sided 95%).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Wdl {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Mean score in [0, 1]; 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Variance of one game's score around the mean (population variance of the sample).
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        let n = n as f64;
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference implied by the score (infinite at 0 or 1).
    pub fn elo(&self) -> f64 {
        score_to_elo(self.score())
    }

    /// Half the width of the 95% confidence interval of [`Wdl::elo`], in Elo; infinite when
    /// the interval reaches a score of 0 or 1, NaN with no games.
    pub fn elo_error95(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return f64::NAN;
        }
        let s = self.score();
        let d = Z95 * (self.variance() / n as f64).sqrt();
        (score_to_elo(s + d) - score_to_elo(s - d)) / 2.0
    }

    /// The result as the reports print it: `48 games, +9 -38 =1, score 19.8%, elo -243.1 ±
    /// 134.1` (the Elo `-inf` or `+inf`, its bar `± inf`, where the score or the interval
    /// reaches 0 or 1).
    pub fn text(&self) -> String {
        format!(
            "{} games, +{} -{} ={}, score {:.1}%, elo {}",
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            100.0 * self.score(),
            self.elo_text()
        )
    }

    /// [`Wdl::elo`] and its error bar as the reports print them: `+12.3 ± 45.6`.
    pub fn elo_text(&self) -> String {
        let e = self.elo();
        let err = self.elo_error95();
        let e = if e.is_finite() {
            format!("{e:+.1}")
        } else if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        };
        if err.is_finite() {
            format!("{e} ± {err:.1}")
        } else {
            format!("{e} ± inf")
        }
    }
}

/// Expected score of a side that is `elo` stronger (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that yields mean score `s`; ±infinity at or beyond 0 and 1.
pub fn score_to_elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // Adding +0.0 turns the -0.0 of an even score into 0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not enough evidence yet.
    Continue,
    /// H0 accepted: not stronger by `elo1`.
    H0,
    /// H1 accepted: stronger by at least `elo0`.
    H1,
}

impl SprtDecision {
    /// Short label for reports.
    pub fn label(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
        }
    }
}

impl Sprt {
    /// Parses `elo0,elo1[,alpha,beta]`; alpha and beta default to 0.05.
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let v: Vec<f64> = s
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("bad --sprt {s:?}: want elo0,elo1[,alpha,beta]"))?;
        let (alpha, beta) = match v.len() {
            2 => (0.05, 0.05),
            4 => (v[2], v[3]),
            _ => return Err(format!("bad --sprt {s:?}: want elo0,elo1[,alpha,beta]")),
        };
        let sprt = Sprt {
            elo0: v[0],
            elo1: v[1],
            alpha,
            beta,
        };
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() || sprt.elo0 >= sprt.elo1 {
            return Err("--sprt needs elo0 < elo1".into());
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err("--sprt needs 0 < alpha, beta < 0.5".into());
        }
        Ok(sprt)
    }

    /// The lower (H0) and upper (H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the games so far; 0 while the variance is 0 (too few or
    /// all-equal results say nothing about the spread).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let var = wdl.variance();
        if wdl.games() == 0 || var <= 0.0 {
            return 0.0;
        }
        let s = wdl.score();
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        wdl.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision for these games.
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::H1
        } else if llr <= lo {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}
