//! The df-pn search proper: Nagai's `mid` over the proof-number table (most-proving child,
//! thresholds from the second best with the 1 + epsilon widening, black's lazy forbidden test)
//! and the expansion of a node met for the first time.

use super::moves::Attacks;
use super::table::{combine, node_key, Entry, Kind, INF};
use super::{Aborted, DfpnSolver};
use crate::game::board::{zobrist, Board, Color, SIDE_KEY};
use crate::game::rules::{self, Rule};
use crate::solver::Budget;

impl DfpnSolver {
    /// The df-pn search of one node (the board's side to move is its mover: the attacker at an
    /// OR node). Returns the node's numbers when they reach a threshold.
    ///
    /// Long on purpose: one df-pn MID step (children, their numbers, the best two, the
    /// thresholds passed down, the table store) reads as one algorithm, and its locals are the
    /// solver's hot path; split, the thresholds would travel through helpers by reference.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mid(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        or: bool,
        thpn: u64,
        thdn: u64,
        ply: u16,
        budget: &Budget,
    ) -> Result<(u64, u64), Aborted> {
        self.stats.nodes += 1;
        if self.node_limit.is_some_and(|n| self.stats.nodes >= n)
            || (self.stats.nodes % 16 == 0 && budget.expired())
        {
            return Err(Aborted);
        }
        let key = node_key(b, a);
        let (mut kids, mut pn, mut dn) = match self.table.get(&key) {
            Some(e) => {
                if e.pn == 0 || e.dn == 0 {
                    return Ok((e.pn, e.dn));
                }
                (e.kids.to_vec(), e.pn, e.dn)
            }
            None => {
                let e = self.expand(b, rule, a, or, ply, budget)?;
                let out = (e.kids.to_vec(), e.pn, e.dn);
                self.bound_memory();
                self.kids += e.kids.len();
                self.table.insert(key, e);
                out
            }
        };
        let start = self.stats.nodes;
        let mover = if or { a } else { a.opponent() };
        let mut vals: Vec<(u64, u64)> = vec![(0, 0); kids.len()];
        let mut best_move = None;
        // Set after a forbidden test: the children's numbers must be read again even when the
        // node's (computed with the tested child) already reached a threshold.
        let mut retest = false;
        while retest || (pn > 0 && dn > 0 && pn < thpn && dn < thdn) {
            retest = false;
            for (v, k) in vals.iter_mut().zip(kids.iter()) {
                let child = key ^ zobrist(mover, k.mv) ^ SIDE_KEY;
                *v = match self.table.get(&child) {
                    Some(e) => (e.pn, e.dn),
                    None => (u64::from(k.pn0), 1),
                };
            }
            let (npn, ndn, i, second) = combine(or, &vals);
            pn = npn;
            dn = ndn;
            let settled = pn == 0 || dn == 0 || pn >= thpn || dn >= thdn;
            // A black attack is tested for a forbidden point when first searched, and also
            // before it proves this node: its child may be proved without a search from here
            // (a transposition reached through another order, where the point was not yet
            // forbidden).
            if kids[i].unchecked && (!settled || (or && pn == 0)) {
                let legal = !rules::is_forbidden(b, kids[i].mv, rule);
                let mv = kids[i].mv;
                if legal {
                    kids[i].unchecked = false;
                } else {
                    kids.remove(i);
                    vals.remove(i);
                }
                if let Some(e) = self.table.get_mut(&key) {
                    let mut list = e.kids.to_vec();
                    if let Some(j) = list.iter().position(|k| k.mv == mv) {
                        if legal {
                            list[j].unchecked = false;
                        } else {
                            list.remove(j);
                            self.kids -= 1;
                        }
                    }
                    e.kids = list.into_boxed_slice();
                }
                if kids.is_empty() {
                    // No attack left: disproved.
                    pn = INF;
                    dn = 0;
                    break;
                }
                retest = true;
                continue;
            }
            if or && pn == 0 {
                best_move = Some(kids[i].mv);
            }
            if settled {
                break;
            }
            let (cpn, cdn) = vals[i];
            let widen = |s: u64| (s + 1).max(s + s / 4).min(INF);
            let (tpn, tdn) = if or {
                (thpn.min(widen(second)), (thdn - dn + cdn).min(INF))
            } else {
                ((thpn - pn + cpn).min(INF), thdn.min(widen(second)))
            };
            b.put(kids[i].mv, mover)
                .expect("child move on an empty cell");
            let r = self.mid(b, rule, a, !or, tpn, tdn, ply + 1, budget);
            b.undo();
            r?;
        }
        let work = self.stats.nodes - start + 1;
        match self.table.get_mut(&key) {
            Some(e) => {
                e.pn = pn;
                e.dn = dn;
                e.work += work;
                if best_move.is_some() {
                    e.best = best_move;
                }
            }
            None => {
                self.bound_memory();
                self.kids += kids.len();
                self.table.insert(
                    key,
                    Entry {
                        pn,
                        dn,
                        work,
                        kind: Kind::Children,
                        best: best_move,
                        kids: kids.into_boxed_slice(),
                    },
                );
            }
        }
        Ok((pn, dn))
    }

    /// Evaluates a node met for the first time: its children, or its proof or disproof.
    fn expand(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        or: bool,
        ply: u16,
        budget: &Budget,
    ) -> Result<Entry, Aborted> {
        self.stats.expansions += 1;
        let settled = |proved: bool, kind: Kind| Entry {
            pn: if proved { 0 } else { INF },
            dn: if proved { INF } else { 0 },
            work: 1,
            kind,
            best: None,
            kids: Box::new([]),
        };
        let kids = if or {
            self.stats.kinds[0] += 1;
            match self.attacks(b, rule, a, ply, budget)? {
                Attacks::Vcf => return Ok(settled(true, Kind::Vcf)),
                Attacks::Moves(m) => m,
            }
        } else {
            let m = b.last_move().expect("an AND node follows an attack");
            match self.defences(b, rule, a, m, budget)? {
                Some(d) => d,
                None => return Ok(settled(false, Kind::Children)),
            }
        };
        if kids.is_empty() {
            // OR: no attack left; AND: no defence left.
            return Ok(settled(!or, Kind::Children));
        }
        let vals: Vec<(u64, u64)> = kids.iter().map(|k| (u64::from(k.pn0), 1)).collect();
        let (pn, dn, _, _) = combine(or, &vals);
        Ok(Entry {
            pn,
            dn,
            work: 1,
            kind: Kind::Children,
            best: None,
            kids: kids.into_boxed_slice(),
        })
    }
}
