//! The children of a df-pn node: the attacker's threat moves at an OR node, and at an AND node
//! the defences (the stops of a four, or the moves that break the VCF a three threatens, each
//! re-proved by replaying the threat line or a VCF search).

use super::table::Kid;
use super::trace::{traced_region, Trace};
use super::{Aborted, DfpnSolver};
use crate::game::board::{BitBoard, Board, Color, Pos};
use crate::game::rules::{self, Rule};
use crate::solver::replay::{self, legal, may_be_forbidden, DefenderFives};
use crate::solver::threats;
use crate::solver::vcf::Res;
use crate::solver::Budget;

pub(super) enum Attacks {
    Vcf,
    Moves(Vec<Kid>),
}

impl DfpnSolver {
    /// The attacker's options at an OR node.
    pub(super) fn attacks(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        ply: u16,
        budget: &Budget,
    ) -> Result<Attacks, Aborted> {
        match self.vcf.search(b, rule, a, self.options.vcf_fours, budget) {
            Res::Win(_) => return Ok(Attacks::Vcf),
            Res::Abort => return Err(Aborted),
            Res::Fail { exact } => self.inexact |= !exact,
        }
        if ply >= self.options.max_plies {
            self.inexact = true;
            return Ok(Attacks::Moves(Vec::new()));
        }
        let d = a.opponent();
        let s = threats::scan(b, &self.windows, a);
        let dfive = threats::confirm_fives(b, &s.d_five, d, rule);
        let cands: Vec<Pos> = match dfive.len() {
            0 => {
                let mut set = s.a_four;
                for (w, t) in set.0.iter_mut().zip(s.a_three.0.iter()) {
                    *w |= *t;
                }
                if self.options.quiet_attacks {
                    for w in self.windows_with(b, a, 1) {
                        for &p in self.windows.cells(w) {
                            if b.is_empty_at(p) {
                                set.insert(p);
                            }
                        }
                    }
                }
                set.iter().collect()
            }
            1 => vec![dfive[0]],
            _ => return Ok(Attacks::Moves(Vec::new())),
        };
        let mut kids: Vec<(bool, usize, Kid)> = Vec::with_capacity(cands.len());
        let last = b.last_move();
        for m in cands {
            if !b.is_empty_at(m) {
                continue;
            }
            let unchecked = a == Color::Black && rule == Rule::Renju && may_be_forbidden(b, m);
            // The window superset of fours: a guess good enough for an initial proof number.
            let four = s.a_four.contains(m);
            let pn0 = if four {
                1
            } else if s.a_three.contains(m) {
                self.options.threat_pn
            } else {
                self.options.quiet_pn
            };
            let dist = last.map_or(0, |l| m.chebyshev(l));
            kids.push((
                !four,
                dist,
                Kid {
                    mv: m,
                    pn0,
                    unchecked,
                },
            ));
        }
        kids.sort_by_key(|&(nf, dist, k)| (nf, dist, k.mv));
        Ok(Attacks::Moves(
            kids.into_iter().map(|(_, _, k)| k).collect(),
        ))
    }

    /// Clean windows (none of the opponent's stones) holding exactly `k` stones of `c`.
    fn windows_with(&self, b: &Board, c: Color, k: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut w = 0u32;
        loop {
            if w as usize >= self.windows.len() {
                break;
            }
            let cells = self.windows.cells(w);
            let own = cells.iter().filter(|&&p| b.at(p) == Some(c)).count();
            let opp = cells
                .iter()
                .filter(|&&p| b.at(p) == Some(c.opponent()))
                .count();
            if own == k && opp == 0 {
                out.push(w);
            }
            w += 1;
        }
        out
    }

    /// The defender's options at an AND node after the attacker's `m`: `None` when `m`
    /// threatens nothing (the node is disproved), else the defences that need a search (empty:
    /// every defence loses to a VCF, the node is proved).
    pub(super) fn defences(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        m: Pos,
        budget: &Budget,
    ) -> Result<Option<Vec<Kid>>, Aborted> {
        let d = a.opponent();
        let fives = threats::five_points_through(b, m, a, rule);
        let mut defs = if !fives.is_empty() {
            self.stats.kinds[1] += 1;
            threats::stopping_moves(b, &fives, a, rule)
        } else {
            match self.threat_defences(b, rule, a, budget)? {
                Some(defs) => defs,
                None => return Ok(None),
            }
        };
        if self.options.drop_one_defence && !defs.is_empty() {
            defs.pop();
        }
        let _ = d;
        Ok(Some(
            defs.into_iter()
                .map(|mv| Kid {
                    mv,
                    pn0: 1,
                    unchecked: false,
                })
                .collect(),
        ))
    }

    /// After a non-four attack: the defences that survive the VCF re-proof, or `None` if the
    /// move threatens no VCF (or the defender can win at once).
    ///
    /// A VCF line `L` that wins on this board rules out every defence outside its region
    /// ([`vcf::line_region`]: a stone there leaves `L` as it is). So the candidates are the
    /// region of the threat line plus the defender's fours and fives (always tested: they
    /// force), and each is tested only while it lies in the region of every line known to win
    /// here; a line found after a candidate that also replays without it narrows the rest.
    /// Long on purpose: the candidate loop and the narrowing region are one argument, each step
    /// of which is needed for the defence set to stay complete.
    fn threat_defences(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        budget: &Budget,
    ) -> Result<Option<Vec<Pos>>, Aborted> {
        let d = a.opponent();
        let fours = self.options.vcf_fours;
        b.set_side_to_move(a);
        let threat = self.vcf.search(b, rule, a, fours, budget);
        b.set_side_to_move(d);
        let line = match threat {
            Res::Win(line) => line,
            Res::Fail { exact } => {
                self.inexact |= !exact;
                self.stats.kinds[2] += 1;
                return Ok(None);
            }
            Res::Abort => return Err(Aborted),
        };
        self.stats.kinds[3] += 1;
        b.set_side_to_move(a);
        let trace = Trace::new(b, rule, a, &line);
        b.set_side_to_move(d);
        let mut region = traced_region(b, &line, trace.as_ref());
        let s = threats::scan(b, &self.windows, d);
        let mut forcing = BitBoard::EMPTY;
        for q in s.a_four.iter().chain(s.a_five.iter()) {
            forcing.insert(q);
        }
        // Within the region, a traced line can only be broken where its re-test can change
        // (see [`Trace::touchable`]); elsewhere it surely still wins.
        let mut cands = match &trace {
            Some(t) => region.and(&t.touchable(b, &self.windows, rule, a)),
            None => region,
        };
        for (c, f) in cands.0.iter_mut().zip(forcing.0.iter()) {
            *c |= *f;
        }
        let mut defs = Vec::new();
        for q in cands.iter() {
            if !region.contains(q) && !forcing.contains(q) {
                continue;
            }
            if !legal(b, q, d, rule) {
                continue;
            }
            if rules::is_win_at(b, q, d, rule) {
                // The defender wins at once: the "threat" lost.
                return Ok(None);
            }
            b.put(q, d).expect("legal move");
            let holds = match &trace {
                Some(t) => t.holds(b, rule, a, q),
                None => replay::replay_line(b, rule, a, &line, DefenderFives::Through(q)),
            };
            self.stats.tests[0] += 1;
            let still = if holds {
                Res::Win(Vec::new())
            } else {
                self.stats.tests[1] += 1;
                self.vcf.search(b, rule, a, fours, budget)
            };
            b.undo();
            match still {
                Res::Win(l) if !l.is_empty() => {
                    // A line that also wins without `q` rules out the cells outside its region.
                    b.set_side_to_move(a);
                    let t = Trace::new(b, rule, a, &l);
                    let here = t.is_some()
                        || (rule == Rule::Caro
                            && replay::replay_line(b, rule, a, &l, DefenderFives::Nowhere));
                    b.set_side_to_move(d);
                    if here {
                        region = region.and(&traced_region(b, &l, t.as_ref()));
                    }
                }
                Res::Win(_) => {}
                Res::Fail { .. } => defs.push(q),
                Res::Abort => return Err(Aborted),
            }
        }
        Ok(Some(defs))
    }
}
