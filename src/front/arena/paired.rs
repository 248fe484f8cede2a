//! Two candidates' matches against one opponent, compared game by game.
//!
//! A candidate and its baseline, each played against the same opponent with the same openings,
//! seed and schedule (two `arena` runs that differ only in the candidate), meet the same
//! opening with the same colours in game `k` of both runs. Against a strong opponent most games
//! of both end alike, so the difference of the two scores game by game varies far less than
//! either score: its mean, with a 95% interval from the spread of those per-game differences,
//! tells the two apart in a fraction of the games two independent scores would need.
//!
//! Invariants: games pair by their record file (the schedule's index), and a pair counts only
//! when both games began from the same opening with the candidate on the same colour; any
//! other pair is an error that names the game, never a silent mismatch. A run's candidate is
//! its first engine unless named.

use super::stats::{Wdl, Z95};
use serde_json::Value;
use std::collections::BTreeMap;

/// One game as the candidate played it: what a pairing must agree on, and the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The opening's stones, as the summary lists them.
    pub opening: Vec<String>,
    /// Whether the candidate had black.
    pub candidate_black: bool,
    /// The candidate's score: 1 a win, ½ a draw, 0 a loss.
    pub score: f64,
}

/// A run's games by record file, with the candidate's name.
#[derive(Clone, Debug)]
pub struct Run {
    /// The candidate's engine name.
    pub candidate: String,
    /// Each game the candidate played, by its record file (`game-0001.psq`).
    pub games: BTreeMap<String, Outcome>,
}

impl Run {
    /// Reads an arena `summary.json`; the candidate is `candidate`, or the first engine.
    pub fn from_summary(text: &str, candidate: Option<&str>) -> Result<Run, String> {
        let summary: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let candidate = match candidate {
            Some(name) => name.to_string(),
            None => summary["engines"][0]["name"]
                .as_str()
                .ok_or("a summary without engines")?
                .to_string(),
        };
        let mut games = BTreeMap::new();
        for g in summary["games"]
            .as_array()
            .ok_or("a summary without games")?
        {
            let file = g["file"].as_str().ok_or("a game without a file")?;
            let candidate_black = if g["black"].as_str() == Some(&candidate) {
                true
            } else if g["white"].as_str() == Some(&candidate) {
                false
            } else {
                continue;
            };
            let score = match g["winner"].as_str() {
                Some("black") => f64::from(u8::from(candidate_black)),
                Some("white") => f64::from(u8::from(!candidate_black)),
                _ => 0.5,
            };
            let opening = g["opening"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|p| p.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            games.insert(
                file.to_string(),
                Outcome {
                    opening,
                    candidate_black,
                    score,
                },
            );
        }
        if games.is_empty() {
            return Err(format!("{candidate:?} played no game here"));
        }
        Ok(Run { candidate, games })
    }
}

/// The two candidates' results over the games they both played, and the paired difference.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// The first candidate's results in the paired games.
    pub first: Wdl,
    /// The second's.
    pub second: Wdl,
    /// Per paired game, the first's score less the second's (−1 to 1 in halves).
    pub differences: Vec<f64>,
    /// Games one run has and the other does not (a run stopped early), left out.
    pub unpaired: usize,
}

fn tally(wdl: &mut Wdl, score: f64) {
    if score >= 1.0 {
        wdl.wins += 1;
    } else if score <= 0.0 {
        wdl.losses += 1;
    } else {
        wdl.draws += 1;
    }
}

impl Comparison {
    /// Adds the games of one pair of runs (say, one seed played by both candidates).
    pub fn add(&mut self, first: &Run, second: &Run) -> Result<(), String> {
        for (file, a) in &first.games {
            let Some(b) = second.games.get(file) else {
                self.unpaired += 1;
                continue;
            };
            if a.opening != b.opening || a.candidate_black != b.candidate_black {
                return Err(format!(
                    "{file}: not the same game ({} as {} from {} against {} as {} from {}): \
                     the runs need the same openings, seed and schedule",
                    first.candidate,
                    colour(a.candidate_black),
                    a.opening.join(" "),
                    second.candidate,
                    colour(b.candidate_black),
                    b.opening.join(" ")
                ));
            }
            tally(&mut self.first, a.score);
            tally(&mut self.second, b.score);
            self.differences.push(a.score - b.score);
        }
        self.unpaired += second
            .games
            .keys()
            .filter(|f| !first.games.contains_key(*f))
            .count();
        Ok(())
    }

    /// The mean per-game difference (the first's score less the second's) and half its 95%
    /// interval (normal approximation over the sample's spread); `None` with fewer than two
    /// paired games.
    pub fn difference(&self) -> Option<(f64, f64)> {
        let n = self.differences.len();
        if n < 2 {
            return None;
        }
        let mean = self.differences.iter().sum::<f64>() / n as f64;
        let var = self
            .differences
            .iter()
            .map(|d| (d - mean).powi(2))
            .sum::<f64>()
            / (n - 1) as f64;
        Some((mean, Z95 * (var / n as f64).sqrt()))
    }

    /// Paired games in which the two candidates scored differently.
    pub fn differing(&self) -> usize {
        self.differences.iter().filter(|d| **d != 0.0).count()
    }

    /// The report: each candidate's result in the paired games under its name, then the
    /// paired difference with its interval; `None` when [`Comparison::difference`] is.
    pub fn text(&self, first: &str, second: &str) -> Option<String> {
        let (mean, half) = self.difference()?;
        let mut out = format!(
            "first {first}: {}\nsecond {second}: {}\n",
            self.first.text(),
            self.second.text()
        );
        out += &format!(
            "paired: first less second {:+.1} points (95% {:+.1}..{:+.1}) over {} games, {} \
             scored differently",
            100.0 * mean,
            100.0 * (mean - half),
            100.0 * (mean + half),
            self.differences.len(),
            self.differing()
        );
        if self.unpaired > 0 {
            out += &format!("; {} games in one run only, left out", self.unpaired);
        }
        out.push('\n');
        Some(out)
    }
}

fn colour(black: bool) -> &'static str {
    if black {
        "black"
    } else {
        "white"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A summary of `games`: (file, black, white, winner, opening).
    fn summary(engines: [&str; 2], games: &[(&str, &str, &str, Option<&str>, &str)]) -> String {
        let games: Vec<Value> = games
            .iter()
            .map(|(file, black, white, winner, opening)| {
                json!({"file": file, "black": black, "white": white, "winner": winner,
                       "opening": opening.split(' ').collect::<Vec<_>>(), "reason": "five"})
            })
            .collect();
        json!({"engines": [{"name": engines[0]}, {"name": engines[1]}], "games": games}).to_string()
    }

    #[test]
    fn games_pair_by_file_and_score_from_the_candidates_side() {
        let a = summary(
            ["new", "rapfi"],
            &[
                ("game-0001.psq", "new", "rapfi", Some("black"), "7,7 8,8"),
                ("game-0002.psq", "rapfi", "new", Some("black"), "7,7 8,8"),
                ("game-0003.psq", "new", "rapfi", None, "6,6 7,8"),
                ("game-0004.psq", "rapfi", "new", Some("white"), "6,6 7,8"),
            ],
        );
        let b = summary(
            ["old", "rapfi"],
            &[
                ("game-0001.psq", "old", "rapfi", Some("white"), "7,7 8,8"),
                ("game-0002.psq", "rapfi", "old", Some("black"), "7,7 8,8"),
                ("game-0003.psq", "old", "rapfi", Some("black"), "6,6 7,8"),
                ("game-0005.psq", "rapfi", "old", Some("white"), "5,5 7,8"),
            ],
        );
        let (a, b) = (
            Run::from_summary(&a, None).unwrap(),
            Run::from_summary(&b, None).unwrap(),
        );
        assert_eq!((a.candidate.as_str(), b.candidate.as_str()), ("new", "old"));
        let mut c = Comparison::default();
        c.add(&a, &b).unwrap();
        // Paired: games 1-3; game 4 only in the first run, game 5 only in the second.
        assert_eq!(c.differences, vec![1.0, 0.0, -0.5]);
        assert_eq!(c.unpaired, 2);
        assert_eq!(
            (c.first.wins, c.first.losses, c.first.draws),
            (1, 1, 1),
            "{c:?}"
        );
        assert_eq!((c.second.wins, c.second.losses, c.second.draws), (1, 2, 0));
        assert_eq!(c.differing(), 2);
        // Mean 1/6; sample variance ((5/6)² + (1/6)² + (2/3)²) / 2 = 7/12.
        let (mean, half) = c.difference().unwrap();
        assert!((mean - 1.0 / 6.0).abs() < 1e-12);
        assert!((half - Z95 * (7.0f64 / 12.0 / 3.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn a_named_candidate_and_a_mismatched_game() {
        let a = summary(
            ["rapfi", "new"],
            &[("game-0001.psq", "new", "rapfi", Some("black"), "7,7")],
        );
        // The first engine is the opponent here: name the candidate.
        let run = Run::from_summary(&a, Some("new")).unwrap();
        assert_eq!(run.games["game-0001.psq"].score, 1.0);
        assert!(Run::from_summary(&a, Some("nobody")).is_err());
        let swapped = summary(
            ["old", "rapfi"],
            &[("game-0001.psq", "rapfi", "old", Some("black"), "7,7")],
        );
        let other = summary(
            ["old", "rapfi"],
            &[("game-0001.psq", "old", "rapfi", Some("black"), "8,8")],
        );
        for b in [swapped, other] {
            let mut c = Comparison::default();
            let e = c
                .add(&run, &Run::from_summary(&b, None).unwrap())
                .unwrap_err();
            assert!(e.starts_with("game-0001.psq: not the same game"), "{e}");
        }
        let mut c = Comparison::default();
        c.add(&run, &run).unwrap();
        assert_eq!(c.difference(), None, "one game has no interval");
    }
}
