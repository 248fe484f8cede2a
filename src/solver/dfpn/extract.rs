//! Reading the proof tree of a proved root out of the df-pn table (a node whose entry was
//! dropped is proved again), for the verifier.

use super::table::{node_key, Kid, Kind, INF};
use super::{Aborted, DfpnSolver};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::Rule;
use crate::solver::replay;
use crate::solver::tree::Tree;
use crate::solver::vcf::Res;
use crate::solver::Budget;

/// Most nodes of an extracted proof tree (a table full of transpositions could otherwise
/// unfold into a huge tree).
pub(super) const EXTRACT_NODES: usize = 100_000;

impl DfpnSolver {
    /// The proof tree of a proved OR node (the attacker to move on `b`), read from the table;
    /// a node whose entry is gone is searched again. `None` if it cannot be rebuilt.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tree_or(
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
                let allowed = replay::legal(b, m, a, rule);
                debug_assert!(allowed, "forbidden proving attack {m}\n{b}");
                if !allowed {
                    return Ok(None);
                }
                b.put(m, a).expect("proved attack on an empty cell");
                let r = self.tree_and(b, rule, a, ply + 1, room, budget);
                b.undo();
                Ok(r?.map(|replies| Tree { attack: m, replies }))
            }
            Some((0, Kind::Children, None)) => {
                debug_assert!(false, "a proved OR node without its proving attack\n{b}");
                Ok(None)
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
