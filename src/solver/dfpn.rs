//! The VCT engine: a depth-first proof-number search (df-pn) over threat sequences, with a
//! bounded transposition table of proof and disproof numbers.
//!
//! # Game
//! An OR node has the attacker to move, an AND node the defender (after an attacker move).
//! - **OR node.** An attacker VCF ([`VcfSolver`]) proves it at once. Otherwise, with one
//!   defender five point the only attack is the block there; with two or more the node is
//!   disproved; else the attacks are the legal moves that may make a four or a three (the
//!   window supersets of [`threats::scan`]).
//! - **AND node after a four.** The defences are the legal moves that stop every five point;
//!   none proves the node.
//! - **AND node after any other move.** The move is a threat only if the attacker, to move
//!   again, has a VCF `L`; if not, the node is disproved. A defence must break `L`, so the
//!   candidates are the cells that could touch `L` (`vcf::line_region`) and every defender
//!   four or five point. Each candidate is played and the attacker's VCF re-proved (by
//!   replaying `L`, then by a search); the candidates after which a VCF remains are refuted
//!   and dropped, the others are the node's children (a re-proof that runs out of depth keeps
//!   its candidate: a larger defence set is the sound side). None left proves the node.
//!
//! # Search
//! Nagai's df-pn: a node is searched until its proof number reaches `thpn` or its disproof
//! number `thdn`, always descending into the most proving child with thresholds from the second
//! best (the 1 + epsilon trick of Pawlewicz and Lew widens the child's threshold to a quarter
//! above the second best, so the search does not bounce between two siblings). Stones are only
//! ever added, so the game graph has no cycles and the graph-history interaction cannot arise;
//! transpositions share their table entry. Each entry keeps the node's generated children, so
//! the costly generation (VCF searches) runs once per position while it stays in the table.
//!
//! # Memory
//! The table holds about [`DfpnOptions::table_bytes`] (entries and their children lists, by
//! size): past that, the entries with the least work below them are dropped (half of the
//! table), and a dropped node is simply expanded again when reached. The VCF solver's
//! refutation table is forgotten past [`DfpnOptions::vcf_table_bytes`].
//!
//! # Soundness
//! When the root is proved, the proof tree is read from the table (a node whose entry was
//! dropped is searched again) and checked by [`verify::verify_tree`] within the same budget; only
//! a tree it accepts is reported as a win. Running out of time, nodes or extraction room answers
//! `Unknown`. A disproved root is `NoWin` only if no depth cap or inexact VCF refutation was
//! involved anywhere in the search (then it means: no win among the threat moves generated).

use super::threats::{self, Windows};
use super::vcf::{self, KeyMap, Res, VcfSolver};
use super::vct::{Tree, VctProof};
use super::{verify, Budget};
use crate::board::{zobrist, BitBoard, Board, Color, Direction, Pos, SIDE_KEY};
use crate::rules::{self, Rule};

/// Proof and disproof numbers at or above this are infinite (a proof or disproof is done).
const INF: u64 = 1 << 40;

/// Knobs of the df-pn VCT search.
#[derive(Clone, Copy, Debug)]
pub struct DfpnOptions {
    /// Most fours in each VCF the search runs.
    pub vcf_fours: u8,
    /// Most plies from the root; a deeper OR node counts as disproved (inexactly).
    pub max_plies: u16,
    /// About the most bytes of the proof-number table before its least-worked half is dropped.
    pub table_bytes: usize,
    /// About the most bytes of the VCF solver's refutation table before it is forgotten.
    pub vcf_table_bytes: usize,
    /// Initial proof number of an attacker move that is not a four (a four has one).
    pub threat_pn: u16,
    /// Also try quiet attacks: moves in a clean window with one attacker stone (they can
    /// threaten a VCF without making a three). On by default: it proves more puzzles in the
    /// same time (the moves that threaten nothing fail their VCF test quickly).
    pub quiet_attacks: bool,
    /// Test hook: drop one defence at every defender node (makes the solver unsound on purpose,
    /// so tests can show the verifier catches it). Never set outside tests.
    pub drop_one_defence: bool,
    /// Skip the final verification (tests of the verifier itself use this to see raw trees).
    pub skip_verify: bool,
}

impl Default for DfpnOptions {
    fn default() -> Self {
        DfpnOptions {
            vcf_fours: 24,
            max_plies: 80,
            table_bytes: 64 << 20,
            vcf_table_bytes: 32 << 20,
            threat_pn: 2,
            quiet_attacks: true,
            drop_one_defence: false,
            skip_verify: false,
        }
    }
}

/// How a node's proof or disproof came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Searched through its children (or not settled yet).
    Children,
    /// An OR node the attacker wins by a VCF.
    Vcf,
}

/// One child: the move, its proof number before it is searched, and whether the move still
/// needs black's renju forbidden test (run when the search first descends into it: most
/// attacks never are).
#[derive(Clone, Copy, Debug)]
struct Kid {
    mv: Pos,
    pn0: u16,
    unchecked: bool,
}

/// A table entry: the node's numbers, its generated children, and how much work it took.
#[derive(Clone, Debug)]
struct Entry {
    pn: u64,
    dn: u64,
    work: u64,
    kind: Kind,
    /// For a proved OR node settled by its children: the attack that proves it.
    best: Option<Pos>,
    kids: Box<[Kid]>,
}

/// The search ran out of budget.
#[derive(Debug)]
struct Aborted;

/// Counters of one solver (cumulative until [`DfpnSolver::clear`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct DfpnStats {
    /// Node visits of the proof-number search.
    pub nodes: u64,
    /// Node expansions (children generated).
    pub expansions: u64,
    /// Table garbage collections.
    pub collections: u64,
    /// Attacker moves in the last proof tree.
    pub tree_attacks: usize,
    /// Proof trees the verifier rejected (or could not finish checking).
    pub rejected: u64,
    /// Expansions of OR nodes, of AND nodes after a four, after a non-four that threatened
    /// nothing, and after a threat (with its defence tests).
    pub kinds: [u64; 4],
    /// Defence candidates tested, and those that needed a VCF search.
    pub tests: [u64; 2],
    /// Time spent verifying proof trees.
    pub verify_time: std::time::Duration,
}

/// A reusable df-pn VCT solver.
#[derive(Debug)]
pub struct DfpnSolver {
    /// The VCF solver used for wins, threat tests and defence tests.
    pub vcf: VcfSolver,
    windows: Windows,
    table: KeyMap<Entry>,
    rule: Option<Rule>,
    /// Set when a depth cap or an inexact refutation decided something since the table was
    /// last emptied (its disproofs may rest on it): no `NoWin` then.
    inexact: bool,
    /// The node count at which the current search gives up.
    node_limit: Option<u64>,
    /// Children listed in the table's entries.
    kids: usize,
    /// Counters.
    pub stats: DfpnStats,
    /// Why the verifier rejected the last rejected tree.
    pub rejection: Option<String>,
    /// The search knobs.
    pub options: DfpnOptions,
}

impl Default for DfpnSolver {
    fn default() -> Self {
        DfpnSolver::new(DfpnOptions::default())
    }
}

/// The numbers of a node from its children's `(pn, dn)`: OR takes the least proof number and
/// sums disproof numbers, AND the other way round. Also the index of the child to search and
/// the second-best value of the minimised number.
fn combine(or: bool, vals: &[(u64, u64)]) -> (u64, u64, usize, u64) {
    let (mut min, mut second, mut best, mut sum) = (INF, INF, 0, 0u64);
    for (i, &(pn, dn)) in vals.iter().enumerate() {
        let (m, s) = if or { (pn, dn) } else { (dn, pn) };
        if m < min {
            second = min;
            min = m;
            best = i;
        } else if m < second {
            second = m;
        }
        sum = (sum + s).min(INF);
    }
    if or {
        (min, sum, best, second)
    } else {
        (sum, min, best, second)
    }
}

impl DfpnSolver {
    /// A solver with empty tables.
    pub fn new(options: DfpnOptions) -> DfpnSolver {
        DfpnSolver {
            vcf: VcfSolver::new(),
            windows: Windows::new(15),
            table: KeyMap::default(),
            rule: None,
            inexact: false,
            node_limit: None,
            kids: 0,
            stats: DfpnStats::default(),
            rejection: None,
            options,
        }
    }

    /// Forgets every table entry and the counters.
    pub fn clear(&mut self) {
        self.table.clear();
        self.kids = 0;
        self.inexact = false;
        self.vcf.clear();
        self.stats = DfpnStats::default();
    }

    /// Entries in the proof-number table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Searches for a VCT of `attacker` as if it were to move. A found tree is verified against
    /// all defences within the same budget; if verification fails or cannot finish, the answer
    /// is `Unknown`. The board is left as found.
    pub fn solve(
        &mut self,
        board: &mut Board,
        rule: Rule,
        attacker: Color,
        budget: &Budget,
    ) -> VctProof {
        let side = board.side_to_move();
        board.set_side_to_move(attacker);
        let proof = self.solve_here(board, rule, attacker, budget);
        board.set_side_to_move(side);
        proof
    }

    fn solve_here(&mut self, b: &mut Board, rule: Rule, a: Color, outer: &Budget) -> VctProof {
        // A node cap counts this search's proof-number nodes only; the VCF searches and the
        // verifier inside it run under the clock and the stop flag.
        self.node_limit = outer.max_nodes.map(|n| self.stats.nodes.saturating_add(n));
        let budget = &Budget {
            max_nodes: None,
            ..*outer
        };
        if self.windows.size() != b.size() || self.rule != Some(rule) {
            self.windows = Windows::new(b.size());
            self.table.clear();
            self.kids = 0;
            self.inexact = false;
            self.rule = Some(rule);
        }
        let (pn, dn) = match self.mid(b, rule, a, true, INF, INF, 0, budget) {
            Ok(v) => v,
            Err(Aborted) => return VctProof::Unknown,
        };
        if dn == 0 {
            return if self.inexact {
                VctProof::Unknown
            } else {
                VctProof::NoWin
            };
        }
        if pn != 0 {
            return VctProof::Unknown;
        }
        let mut room = EXTRACT_NODES;
        let tree = match self.tree_or(b, rule, a, 0, &mut room, budget) {
            Ok(Some(t)) => t,
            _ => return VctProof::Unknown,
        };
        self.stats.tree_attacks = tree.attack_count();
        if self.options.skip_verify {
            return VctProof::Win(tree);
        }
        let started = std::time::Instant::now();
        let verdict = verify::verify_tree(b, rule, &tree, budget);
        self.stats.verify_time += started.elapsed();
        match verdict {
            Ok(()) => VctProof::Win(tree),
            Err(e) => {
                self.stats.rejected += 1;
                self.rejection = Some(e);
                VctProof::Unknown
            }
        }
    }

    /// Keeps the tables within their bounds.
    fn bound_memory(&mut self) {
        if self.vcf.table_len() * VCF_ENTRY_BYTES > self.options.vcf_table_bytes {
            self.vcf.forget();
        }
        if self.table_bytes() > self.options.table_bytes {
            self.stats.collections += 1;
            let mut works: Vec<u64> = self.table.values().map(|e| e.work).collect();
            let mid = works.len() / 2;
            let (_, &mut cut, _) = works.select_nth_unstable(mid);
            self.table.retain(|_, e| e.work > cut);
            // Many equal works (all ones, say) could keep the table full: drop down to half.
            let keep = self.table.len().min(works.len() / 2);
            let mut n = 0;
            self.table.retain(|_, _| {
                n += 1;
                n <= keep
            });
            self.kids = self.table.values().map(|e| e.kids.len()).sum();
        }
    }

    /// About how many bytes the proof-number table holds.
    pub fn table_bytes(&self) -> usize {
        // A hash table keeps about an eighth of its slots free, plus a control byte each.
        self.table.len() * (std::mem::size_of::<(u64, Entry)>() + 1) * 8 / 7
            + self.kids * std::mem::size_of::<Kid>()
    }

    /// The df-pn search of one node (the board's side to move is its mover: the attacker at an
    /// OR node). Returns the node's numbers when they reach a threshold.
    #[allow(clippy::too_many_arguments)]
    fn mid(
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
        while pn > 0 && dn > 0 && pn < thpn && dn < thdn {
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

    /// The attacker's options at an OR node.
    fn attacks(
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
            let pn0 = if four { 1 } else { self.options.threat_pn };
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
    fn defences(
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
        let mut region = line_region(b, &line, trace.as_ref());
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
                None => line_holds(b, rule, a, &line, Some(q)),
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
                    let here =
                        t.is_some() || (rule == Rule::Caro && line_holds(b, rule, a, &l, None));
                    b.set_side_to_move(d);
                    if here {
                        region = region.and(&line_region(b, &l, t.as_ref()));
                    }
                }
                Res::Win(_) => {}
                Res::Fail { .. } => defs.push(q),
                Res::Abort => return Err(Aborted),
            }
        }
        Ok(Some(defs))
    }

    /// The proof tree of a proved OR node (the attacker to move on `b`), read from the table;
    /// a node whose entry is gone is searched again. `None` if it cannot be rebuilt.
    #[allow(clippy::too_many_arguments)]
    fn tree_or(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        ply: u16,
        room: &mut usize,
        budget: &Budget,
    ) -> Result<Option<Tree>, Aborted> {
        if *room == 0 {
            return Ok(None);
        }
        *room -= 1;
        let key = node_key(b, a);
        let mut entry = self.table.get(&key).map(|e| (e.pn, e.kind, e.best));
        if !matches!(entry, Some((0, _, _))) {
            // Dropped from the table (or never settled there): prove it again.
            let (pn, _) = self.mid(b, rule, a, true, INF, INF, ply, budget)?;
            if pn != 0 {
                return Ok(None);
            }
            entry = self.table.get(&key).map(|e| (e.pn, e.kind, e.best));
        }
        match entry {
            Some((0, Kind::Vcf, _)) | None => {
                match self.vcf.search(b, rule, a, self.options.vcf_fours, budget) {
                    Res::Win(line) => Ok(Some(Tree::from_line(&line))),
                    Res::Abort => Err(Aborted),
                    Res::Fail { .. } => Ok(None),
                }
            }
            Some((0, Kind::Children, Some(m))) => {
                // The search tests a proving attack for a forbidden point before it settles a
                // node on it; an illegal one here would be a search bug: no tree then.
                let allowed = legal(b, m, a, rule);
                debug_assert!(allowed, "forbidden proving attack {m}\n{b}");
                if !allowed {
                    return Ok(None);
                }
                b.put(m, a).expect("proved attack on an empty cell");
                let r = self.tree_and(b, rule, a, ply + 1, room, budget);
                b.undo();
                Ok(r?.map(|replies| Tree { attack: m, replies }))
            }
            _ => Ok(None),
        }
    }

    /// The replies of a proved AND node (the defender to move on `b`), each with its proof.
    #[allow(clippy::too_many_arguments)]
    fn tree_and(
        &mut self,
        b: &mut Board,
        rule: Rule,
        a: Color,
        ply: u16,
        room: &mut usize,
        budget: &Budget,
    ) -> Result<Option<Vec<(Pos, Tree)>>, Aborted> {
        let d = a.opponent();
        let key = node_key(b, a);
        let kids: Box<[Kid]> = match self.table.get(&key) {
            Some(e) if e.pn == 0 => e.kids.clone(),
            _ => {
                let (pn, _) = self.mid(b, rule, a, false, INF, INF, ply, budget)?;
                match self.table.get(&key) {
                    Some(e) if pn == 0 => e.kids.clone(),
                    _ => return Ok(None),
                }
            }
        };
        let mut replies = Vec::with_capacity(kids.len());
        for k in kids.iter() {
            b.put(k.mv, d).expect("defence on an empty cell");
            let r = self.tree_or(b, rule, a, ply + 1, room, budget);
            b.undo();
            match r? {
                Some(t) => replies.push((k.mv, t)),
                None => return Ok(None),
            }
        }
        Ok(Some(replies))
    }
}

/// The table key of a node: the position's key, salted by the attacker (the same position is
/// an OR node when its side to move attacks and an AND node when it defends).
fn node_key(b: &Board, a: Color) -> u64 {
    match a {
        Color::Black => b.key(),
        Color::White => b.key() ^ WHITE_ATTACKS,
    }
}

/// The salt of [`node_key`] when white attacks (an odd 64-bit constant, unlike any stone's
/// Zobrist key in practice).
const WHITE_ATTACKS: u64 = 0x9E37_79B9_7F4A_7C15;

/// About the bytes of one entry of the VCF solver's table (a key and a depth in a hash table).
const VCF_ENTRY_BYTES: usize = 18;

/// Most nodes of an extracted proof tree (a table full of transpositions could otherwise
/// unfold into a huge tree).
const EXTRACT_NODES: usize = 100_000;

enum Attacks {
    Vcf,
    Moves(Vec<Kid>),
}

/// A VCF line replayed on a position it wins on, kept to re-test it cheaply after one added
/// defender stone: the replay then recomputes only what the stone can change.
struct Trace {
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
    /// Replays `line` (the attacker `a` to move on `b`); `None` unless it wins by the checks of
    /// [`line_holds`], and under caro (whose blocked ends the cheap re-test does not follow).
    fn new(b: &mut Board, rule: Rule, a: Color, line: &[Pos]) -> Option<Trace> {
        if rule == Rule::Caro {
            return None;
        }
        let d = a.opponent();
        let mut t = Trace {
            steps: Vec::new(),
            cells: BitBoard::EMPTY,
            fives: BitBoard::EMPTY,
        };
        let mut played = 0;
        let mut ok = false;
        let mut i = 0;
        let mut last = None;
        while i < line.len() {
            let m = line[i];
            t.cells.insert(m);
            if !legal(b, m, a, rule) {
                break;
            }
            let risky = a == Color::Black && rule == Rule::Renju && white_may_forbid(b, m);
            if rules::is_win_at(b, m, a, rule) {
                ok = i + 1 == line.len();
                t.steps.push(Step {
                    mv: m,
                    five: true,
                    fives: Vec::new(),
                    stops: Vec::new(),
                    reply: None,
                    risky,
                });
                break;
            }
            b.put(m, a).expect("checked empty");
            played += 1;
            let fives = threats::five_points_through(b, m, a, rule);
            let dfive =
                last.is_some_and(|r| !threats::five_points_through(b, r, d, rule).is_empty());
            if fives.is_empty() || dfive {
                break;
            }
            for &f in &fives {
                t.fives.insert(f);
            }
            let stops = threats::stopping_moves(b, &fives, a, rule);
            let reply = line.get(i + 1).copied();
            let fits = match reply {
                None => stops.is_empty(),
                Some(r) => (stops.is_empty() || stops == [r]) && b.is_empty_at(r),
            };
            t.steps.push(Step {
                mv: m,
                five: false,
                fives,
                stops,
                reply,
                risky,
            });
            let Some(r) = reply.filter(|_| fits) else {
                ok = fits;
                break;
            };
            b.put(r, d).expect("checked empty");
            played += 1;
            t.cells.insert(r);
            last = Some(r);
            i += 2;
        }
        for _ in 0..played {
            b.undo();
        }
        ok.then_some(t)
    }

    /// The cells where a defender stone can make [`Trace::holds`] false (anywhere else it
    /// returns true): the line's cells and five points, the cells that would give the
    /// defender a five point (clean windows with three of its stones, the replies counted),
    /// and, under renju, the surroundings of the points whose forbidden status matters.
    fn touchable(&self, b: &mut Board, windows: &Windows, rule: Rule, a: Color) -> BitBoard {
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
    /// traced position), by the checks of [`line_holds`]: a step is recomputed only where `q`
    /// can change it. Off a four's lines a defender stone leaves its five points (no overline
    /// or blocked end arises from it outside caro); a defender five it makes runs through it;
    /// a forbidden status it changes is near it (the real-three test's extension points reach
    /// a few cells beyond the lines, see [`RISKY_REACH`]).
    fn holds(&self, b: &mut Board, rule: Rule, a: Color, q: Pos) -> bool {
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
            let moved = on_line_within(q, m, 5);
            let fives = if moved {
                threats::five_points_through(b, m, a, rule)
            } else {
                st.fives.clone()
            };
            let dfive = match last {
                None => !threats::five_points_through(b, q, d, rule).is_empty(),
                Some(r) => {
                    on_line_within(q, r, 4)
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
fn line_region(b: &Board, line: &[Pos], trace: Option<&Trace>) -> BitBoard {
    let mut cells = line.to_vec();
    if let Some(t) = trace {
        cells.extend(
            t.fives
                .iter()
                .filter(|&f| b.is_empty_at(f) && !line.contains(&f)),
        );
    }
    let mut region = BitBoard::EMPTY;
    for q in vcf::line_region(b, &cells) {
        region.insert(q);
    }
    region
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

/// Whether `p` and `q` share a row, column or diagonal at most `n` steps apart.
fn on_line_within(p: Pos, q: Pos, n: usize) -> bool {
    let (dx, dy) = (p.x().abs_diff(q.x()), p.y().abs_diff(q.y()));
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= n
}

/// Whether the VCF `line` of the attacker `a` (to move) still wins on `b`, by the quick checks
/// of [`vcf::replay_line`]: `b` is a position where the defender has no five point except
/// possibly through its stone at `fresh`, so defender fives are looked for only through
/// `fresh` and the replies. A `true` is re-checked by the verifier before any proof is
/// published.
fn line_holds(b: &mut Board, rule: Rule, a: Color, line: &[Pos], fresh: Option<Pos>) -> bool {
    let d = a.opponent();
    let mut played = 0;
    let mut last = fresh;
    let mut ok = false;
    let mut i = 0;
    while i < line.len() {
        let m = line[i];
        if !legal(b, m, a, rule) {
            break;
        }
        if rules::is_win_at(b, m, a, rule) {
            ok = i + 1 == line.len();
            break;
        }
        b.put(m, a).expect("checked empty");
        played += 1;
        let fives = threats::five_points_through(b, m, a, rule);
        let dfive = last.is_some_and(|r| !threats::five_points_through(b, r, d, rule).is_empty());
        if fives.is_empty() || dfive {
            break;
        }
        let stops = threats::stopping_moves(b, &fives, a, rule);
        if i + 1 == line.len() {
            ok = stops.is_empty();
            break;
        }
        let r = line[i + 1];
        if !(stops.is_empty() || stops == [r]) || !b.is_empty_at(r) {
            break;
        }
        b.put(r, d).expect("checked empty");
        played += 1;
        last = Some(r);
        i += 2;
    }
    for _ in 0..played {
        b.undo();
    }
    ok
}

/// Whether colour `c` may play the empty `p` ([`threats::legal`], with black's forbidden test
/// run only where the black stones around `p` allow a forbidden shape).
fn legal(b: &mut Board, p: Pos, c: Color, rule: Rule) -> bool {
    if !b.is_empty_at(p) {
        return false;
    }
    if c != Color::Black || rule != Rule::Renju {
        return true;
    }
    let r = !may_be_forbidden(b, p) || !rules::is_forbidden(b, p, rule);
    debug_assert_eq!(r, threats::legal(b, p, c, rule), "{p}\n{b}");
    r
}

/// Whether black stones near the empty `p` leave room for a forbidden shape there (false
/// proves `p` is not forbidden). A three or four through `p` needs at least two other black
/// stones within four cells along its line, a double four on one line or an overline at least
/// four; so a forbidden point needs two such directions, or four stones in one.
fn may_be_forbidden(b: &Board, p: Pos) -> bool {
    let mut lines = 0;
    for dir in Direction::ALL {
        let n = (-4..=4)
            .filter(|&s| s != 0)
            .filter(|&s| {
                p.offset(dir, s, b.size())
                    .is_some_and(|q| b.at(q) == Some(Color::Black))
            })
            .count();
        if n >= 4 {
            return true;
        }
        if n >= 2 {
            lines += 1;
        }
    }
    lines >= 2
}

/// Searches for a VCT of `attacker` (as if it were to move) with a fresh df-pn solver and
/// default options; see [`DfpnSolver::solve`].
pub fn find_vct_dfpn(board: &mut Board, rule: Rule, attacker: Color, budget: &Budget) -> VctProof {
    DfpnSolver::default().solve(board, rule, attacker, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_puzzles;
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
            for q in line_region(&b, &line, Some(&trace)).iter() {
                if !legal(&mut b, q, a.opponent(), p.rule) {
                    continue;
                }
                b.put(q, a.opponent()).unwrap();
                let quick = trace.holds(&mut b, p.rule, a, q);
                let plain = line_holds(&mut b, p.rule, a, &line, Some(q));
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
