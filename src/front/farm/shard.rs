//! Which slice of a run one shard does.
//!
//! Invariant: for any `total` and `count`, the slices of shards `0..count` are contiguous,
//! disjoint, in order and cover `0..total`; their sizes differ by at most one.

use std::fmt;
use std::ops::Range;

/// Shard `index` of `count` (0-based, as Slurm numbers array tasks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// Which shard, `0..count`.
    pub index: usize,
    /// How many shards the run has.
    pub count: usize,
}

impl Shard {
    /// Shard `index` of `count`; an error unless `index < count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, String> {
        if count == 0 {
            return Err("a run has at least one shard".into());
        }
        if index >= count {
            return Err(format!(
                "shard {index} does not exist in a run of {count} shards (they are 0..{})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Parses `K/N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard {s:?}: expected K/N with 0 <= K < N, e.g. 3/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n)
    }

    /// This shard's work items of a run of `total`: `index·total/count .. (index+1)·total/count`.
    pub fn slice(&self, total: usize) -> Range<usize> {
        let at = |k: usize| (k as u128 * total as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }

    /// The name of this shard's result file in `RUN_DIR/shards/`.
    pub fn file_name(&self) -> String {
        format!("shard-{:04}.json", self.index)
    }

    /// The name of the marker this shard leaves while it runs.
    pub fn running_name(&self) -> String {
        format!("shard-{:04}.running", self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_run_in_order() {
        for total in [0, 1, 7, 100, 2001] {
            for count in 1..=9 {
                let mut next = 0;
                for k in 0..count {
                    let s = Shard::new(k, count).unwrap().slice(total);
                    assert_eq!(s.start, next, "total {total} count {count} shard {k}");
                    assert!(s.len() <= total / count + 1);
                    next = s.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard::new(1, 4).unwrap().slice(10), 2..5);
    }

    #[test]
    fn parse_accepts_k_of_n_only() {
        assert_eq!(Shard::parse("3/8").unwrap(), Shard { index: 3, count: 8 });
        assert!(Shard::parse("8/8").unwrap_err().contains("does not exist"));
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("3").unwrap_err().contains("K/N"));
        assert!(Shard::parse("a/2").is_err());
    }
}
