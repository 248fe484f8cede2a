//! Search scores: the win scale, how win scores travel through the transposition table, and
//! how a score is shown to people.
//!
//! Scores are from the side to move's view. A win is `WIN - plies`, where `plies` counts the
//! moves from the root to the winning stone, so the fastest win and the slowest loss score best;
//! any score of magnitude at least [`WIN_MIN`] is proven. The table stores win scores relative to
//! the node that stored them (plies from that node), and [`from_tt`] re-bases them on probe.

/// The score of a win on the board now (0 plies away).
pub const WIN: i32 = 1_000_000;
/// Scores at least this large in magnitude are proven wins or losses.
pub const WIN_MIN: i32 = WIN - 1000;
/// Larger than any score.
pub const INF: i32 = WIN + 1;

/// A win for the side to move with its winning stone `plies` moves from the root.
#[inline]
pub fn win_in(plies: usize) -> i32 {
    WIN - plies as i32
}

/// Whether `s` is a proven win or loss.
#[inline]
pub fn is_proven(s: i32) -> bool {
    s.abs() >= WIN_MIN
}

/// `s`, found `ply` plies from the root, as the table stores it (win distances from the node).
#[inline]
pub fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_MIN {
        s + ply as i32
    } else if s <= -WIN_MIN {
        s - ply as i32
    } else {
        s
    }
}

/// A stored score read back `ply` plies from the root (the inverse of [`to_tt`]).
#[inline]
pub fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_MIN {
        s - ply as i32
    } else if s <= -WIN_MIN {
        s + ply as i32
    } else {
        s
    }
}

/// A score for humans: `win 5` / `loss 4` (plies to the winning stone) or the evaluation's units.
pub fn format_score(s: i32) -> String {
    if s >= WIN_MIN {
        format!("win {}", WIN - s)
    } else if s <= -WIN_MIN {
        format!("loss {}", WIN + s)
    } else {
        s.to_string()
    }
}

/// The score scale of [`win_rate`]: a score of this size gives the side to move about 73%
/// (`1 / (1 + e^-1)`). The browser board's fallback curve uses the same scale.
pub const WIN_RATE_SCALE: f64 = 1000.0;

/// The side to move's chance of winning, 0..=1, read off a score: a proven win is 1, a proven
/// loss 0, anything else on the logistic curve `1 / (1 + e^(-s / WIN_RATE_SCALE))`. A reading
/// for people (the analysis GUIs' win-rate bars), not used by the search.
pub fn win_rate(s: i32) -> f64 {
    if s >= WIN_MIN {
        1.0
    } else if s <= -WIN_MIN {
        0.0
    } else {
        1.0 / (1.0 + (-(s as f64) / WIN_RATE_SCALE).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_scores_round_trip_through_the_table() {
        for ply in [0usize, 1, 7, 40] {
            for s in [win_in(ply + 3), -win_in(ply + 4), 0, 1234, -77] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // A win stored 5 plies below the root, 2 plies from its node, is 2 plies from a node
        // probed at the root.
        assert_eq!(from_tt(to_tt(win_in(7), 5), 0), win_in(2));
        assert_eq!(format_score(win_in(5)), "win 5");
        assert_eq!(format_score(-win_in(4)), "loss 4");
        assert_eq!(format_score(-31), "-31");
        assert!(is_proven(win_in(9)) && !is_proven(WIN_MIN - 1));
    }

    #[test]
    fn win_rate_is_monotone_and_pinned_at_proofs() {
        assert_eq!(win_rate(win_in(5)), 1.0);
        assert_eq!(win_rate(-win_in(5)), 0.0);
        assert!((win_rate(0) - 0.5).abs() < 1e-12);
        let e = std::f64::consts::E;
        assert!((win_rate(1000) - e / (1.0 + e)).abs() < 1e-12);
        let rates: Vec<f64> = (-5..=5).map(|k| win_rate(k * 700)).collect();
        assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
        assert!((win_rate(-700) + win_rate(700) - 1.0).abs() < 1e-12);
    }
}
