//! A VCF line traced once on a position it wins on, to re-test it cheaply after one added
//! defender stone (the defence tests of the df-pn search): the re-test recomputes only what the
//! stone can change, and [`Trace::touchable`] bounds the cells where it can change anything.

use crate::game::board::{BitBoard, Board, Color, Direction, Pos};
use crate::game::rules::Rule;
use crate::solver::replay::{self, legal, DefenderFives};
use crate::solver::threats::{self, Windows};
use crate::solver::vcf;

/// A VCF line replayed on a position it wins on, kept to re-test it cheaply after one added
/// defender stone: the replay then recomputes only what the stone can change.
pub(super) struct Trace {
    steps: Vec<Step>,
    /// The attacker's moves and the replies.
    cells: BitBoard,
    /// Every five point the attacker's fours make along the line.
    fives: BitBoard,
}

/// One attacker move of a traced line, as it went on the position traced.
struct Step {
    /// The attacker's move.
    mv: Pos,
    /// It made five (the line's last move).
    five: bool,
    /// Its five points and the defender's stopping moves.
    fives: Vec<Pos>,
    stops: Vec<Pos>,
    /// The defender's reply (none after the last move).
    reply: Option<Pos>,
    /// A renju black move whose forbidden status a white stone nearby might change.
    risky: bool,
}

impl Trace {
    /// Replays `line` (the attacker `a` to move on `b`, with no defender five point); `None`
    /// unless it wins by the checks of [`replay::replay_line`], and under caro (whose blocked
    /// ends the cheap re-test does not follow).
    pub(super) fn new(b: &mut Board, rule: Rule, a: Color, line: &[Pos]) -> Option<Trace> {
        if rule == Rule::Caro {
            return None;
        }
        let mut t = Trace {
            steps: Vec::new(),
            cells: BitBoard::EMPTY,
            fives: BitBoard::EMPTY,
        };
        let wins = replay::replay_steps(b, rule, a, line, DefenderFives::Nowhere, |b, st| {
            // The move's own cell does not count for `white_may_forbid`: the board may hold it.
            let risky = a == Color::Black && rule == Rule::Renju && white_may_forbid(b, st.mv);
            for &f in st.fives {
                t.fives.insert(f);
            }
            t.steps.push(Step {
                mv: st.mv,
                five: st.five,
                fives: st.fives.to_vec(),
                stops: st.stops.to_vec(),
                reply: st.reply,
                risky,
            });
        });
        // A winning replay played every move of the line.
        for &m in line {
            t.cells.insert(m);
        }
        wins.then_some(t)
    }

    /// The cells where a defender stone can make [`Trace::holds`] false (anywhere else it
    /// returns true): the line's cells and five points, the cells that would give the
    /// defender a five point (clean windows with three of its stones, the replies counted),
    /// and, under renju, the surroundings of the points whose forbidden status matters.
    pub(super) fn touchable(
        &self,
        b: &mut Board,
        windows: &Windows,
        rule: Rule,
        a: Color,
    ) -> BitBoard {
        let d = a.opponent();
        let mut out = self.cells;
        for (o, f) in out.0.iter_mut().zip(self.fives.0.iter()) {
            *o |= *f;
        }
        let mut placed = 0;
        for st in &self.steps {
            if let Some(r) = st.reply {
                b.put(r, d).expect("replies are empty");
                placed += 1;
            }
        }
        let s = threats::scan(b, windows, d);
        for _ in 0..placed {
            b.undo();
        }
        for q in s.a_four.iter().chain(s.a_five.iter()) {
            out.insert(q);
        }
        let black_defends = d == Color::Black && rule == Rule::Renju;
        let mut around = |p: Pos| {
            let r = RISKY_REACH as i64;
            for dy in -r..=r {
                for dx in -r..=r {
                    if let Some(q) = b.pos(p.x() as i64 + dx, p.y() as i64 + dy) {
                        out.insert(q);
                    }
                }
            }
        };
        for st in &self.steps {
            if st.risky {
                around(st.mv);
            }
            if black_defends {
                st.fives.iter().for_each(|&f| around(f));
            }
        }
        out
    }

    /// Whether the line still wins after the defender's stone at `q` (just added to the
    /// traced position), by the checks of [`replay::replay_line`]: a step is recomputed only where `q`
    /// can change it. Off a four's lines a defender stone leaves its five points (no overline
    /// or blocked end arises from it outside caro); a defender five it makes runs through it;
    /// a forbidden status it changes is near it (the real-three test's extension points reach
    /// a few cells beyond the lines, see [`RISKY_REACH`]).
    pub(super) fn holds(&self, b: &mut Board, rule: Rule, a: Color, q: Pos) -> bool {
        if self.cells.contains(q) {
            return false;
        }
        let d = a.opponent();
        let black_defends = d == Color::Black && rule == Rule::Renju;
        let near = |p: Pos| q.chebyshev(p) <= RISKY_REACH;
        let mut played = 0;
        let mut ok = false;
        let mut last: Option<Pos> = None;
        for st in &self.steps {
            let m = st.mv;
            if st.risky && near(m) && !legal(b, m, a, rule) {
                break;
            }
            if st.five {
                ok = true;
                break;
            }
            b.put(m, a).expect("traced cell is empty");
            played += 1;
            let moved = q.on_line_within(m, 5);
            let fives = if moved {
                threats::five_points_through(b, m, a, rule)
            } else {
                st.fives.clone()
            };
            let dfive = match last {
                None => !threats::five_points_through(b, q, d, rule).is_empty(),
                Some(r) => {
                    q.on_line_within(r, 4)
                        && !threats::five_points_through(b, r, d, rule).is_empty()
                }
            };
            if fives.is_empty() || dfive {
                break;
            }
            let stops = if moved || (black_defends && fives.iter().any(|&f| near(f))) {
                threats::stopping_moves(b, &fives, a, rule)
            } else {
                st.stops.clone()
            };
            let Some(r) = st.reply else {
                ok = stops.is_empty();
                break;
            };
            if !(stops.is_empty() || stops == [r]) {
                break;
            }
            b.put(r, d).expect("traced cell is empty");
            played += 1;
            last = Some(r);
        }
        for _ in 0..played {
            b.undo();
        }
        ok
    }
}

/// The cells where a defender stone could change whether `line` wins ([`vcf::line_region`]),
/// widened by the regions of the line's five points when its trace is known (a renju five
/// point black may not block is what wins there, and black stones around it decide that).
pub(super) fn traced_region(b: &Board, line: &[Pos], trace: Option<&Trace>) -> BitBoard {
    let mut cells = line.to_vec();
    if let Some(t) = trace {
        cells.extend(
            t.fives
                .iter()
                .filter(|&f| b.is_empty_at(f) && !line.contains(&f)),
        );
    }
    vcf::line_region(b, &cells)
}

/// How far (Chebyshev) a stone may stand from a point and still change its renju forbidden
/// status: the point's lines reach four cells, and the extension point of a three on them has
/// lines of its own.
const RISKY_REACH: usize = 8;

/// Whether a white stone could make black's four at the empty `m` forbidden. White adds no
/// black four or overline, so only a double three can appear (a false three made real, its
/// extension point freed); besides the four's line that needs two more lines through `m`
/// with two black stones within four cells.
fn white_may_forbid(b: &Board, m: Pos) -> bool {
    let lines = Direction::ALL
        .iter()
        .filter(|&&dir| {
            (-4..=4)
                .filter(|&s| s != 0)
                .filter(|&s| {
                    m.offset(dir, s, b.size())
                        .is_some_and(|q| b.at(q) == Some(Color::Black))
                })
                .count()
                >= 2
        })
        .count();
    lines >= 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_puzzles;
    use crate::solver::vcf::{Res, VcfSolver};
    use crate::solver::Budget;
    use bango_testkit::data_dir;

    /// The trace's re-test after one defender stone gives the plain replay's answer, for every
    /// empty cell of the line's region, on VCF puzzles of every rule in the data (freestyle,
    /// standard, renju with black and white attacking); and a stone that breaks the line is
    /// always among the trace's touchable cells.
    #[test]
    fn trace_holds_as_a_replay_does() {
        let text = std::fs::read_to_string(data_dir().join("puzzles-vcf.txt")).unwrap();
        let all = parse_puzzles(&text).unwrap();
        let mut solver = VcfSolver::new();
        let (mut tested, mut broken, mut skipped) = (0, 0, 0);
        let mut rules = Vec::new();
        for p in all.iter().step_by(61) {
            let mut b = p.board().unwrap();
            let a = p.side;
            let Res::Win(line) = solver.search(&mut b, p.rule, a, 24, &Budget::unlimited()) else {
                continue;
            };
            let Some(trace) = Trace::new(&mut b, p.rule, a, &line) else {
                panic!("a found line does not replay\n{b}");
            };
            if !rules.contains(&(p.rule, a)) {
                rules.push((p.rule, a));
            }
            let windows = Windows::new(b.size());
            let touchable = trace.touchable(&mut b, &windows, p.rule, a);
            for q in traced_region(&b, &line, Some(&trace)).iter() {
                if !legal(&mut b, q, a.opponent(), p.rule) {
                    continue;
                }
                b.put(q, a.opponent()).unwrap();
                let quick = trace.holds(&mut b, p.rule, a, q);
                let plain =
                    replay::replay_line(&mut b, p.rule, a, &line, DefenderFives::Through(q));
                b.undo();
                assert_eq!(
                    quick, plain,
                    "{} {a:?} defence {q}, line {line:?}\n{b}",
                    p.rule
                );
                assert!(plain || touchable.contains(q), "{q} breaks {line:?}\n{b}");
                tested += 1;
                broken += usize::from(!plain);
                skipped += usize::from(!touchable.contains(q));
            }
        }
        assert!(rules.len() >= 4, "{rules:?}");
        assert!(
            tested > 2000 && broken > 200,
            "{tested} tested, {broken} broken"
        );
        assert!(
            skipped > tested / 4,
            "{skipped} of {tested} outside the touchable cells"
        );
    }
}
