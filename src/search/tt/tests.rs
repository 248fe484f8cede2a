//! The table's replacement policy, generations and sizing, on both slot kinds.
use super::*;

/// Keys that all land in bucket 0 of a small table.
fn key(i: u64) -> u64 {
    i << 32
}

fn both<F: Fn(&dyn Fn() -> Box<dyn Table>)>(f: F) {
    f(&|| Box::new(TranspositionTable::<ArcSlot>::with_buckets(4)));
    f(&|| Box::new(TranspositionTable::<PackedSlot>::with_buckets(4)));
}

/// The table's operations, object-safe, so each test runs on both slot kinds.
trait Table {
    fn probe(&self, key: u64) -> Option<TtEntry>;
    fn store(&self, key: u64, depth: i16) -> StoreOutcome;
    fn new_search(&self);
    fn clear(&self);
}

impl<S: Slot> Table for TranspositionTable<S> {
    fn probe(&self, key: u64) -> Option<TtEntry> {
        TranspositionTable::probe(self, key)
    }
    fn store(&self, key: u64, depth: i16) -> StoreOutcome {
        self.try_store(key, depth, Bound::Exact, i32::from(depth) * 10, None)
    }
    fn new_search(&self) {
        TranspositionTable::new_search(self)
    }
    fn clear(&self) {
        TranspositionTable::clear(self)
    }
}

#[test]
fn store_probe_and_depth_preference() {
    let tt = TranspositionTable::new(1 << 16);
    let k = 0x1234_5678_9abc_def0;
    assert_eq!(tt.probe(k), None);
    tt.store(k, 6, Bound::Exact, 42, Some(Pos::new(3, 4)));
    let e = tt.probe(k).unwrap();
    assert_eq!(
        (e.key, e.depth, e.bound, e.score, e.best, e.age),
        (k, 6, Bound::Exact, 42, Some(Pos::new(3, 4)), 0)
    );
    tt.store(k, 2, Bound::Lower, 7, None);
    assert_eq!(
        tt.probe(k).unwrap().depth,
        6,
        "deeper entry evicted by shallower"
    );
    tt.new_search();
    tt.store(k, 2, Bound::Lower, 7, None);
    assert_eq!(tt.probe(k).unwrap().depth, 2, "stale entry not replaced");
}

#[test]
fn deeper_same_key_kept_equal_or_deeper_replaces() {
    both(|make| {
        let tt = make();
        assert_eq!(tt.store(key(1), 5), StoreOutcome::Stored);
        assert_eq!(tt.store(key(1), 4), StoreOutcome::KeptDeeper);
        assert_eq!(tt.probe(key(1)).unwrap().score, 50);
        assert_eq!(tt.store(key(1), 5), StoreOutcome::Unchanged);
        assert_eq!(tt.store(key(1), 7), StoreOutcome::Stored);
        assert_eq!(tt.probe(key(1)).unwrap().depth, 7);
        // The same key is updated in place, not duplicated: the other way stays free.
        tt.store(key(2), 1);
        assert_eq!(tt.probe(key(1)).unwrap().depth, 7);
        assert_eq!(tt.probe(key(2)).unwrap().depth, 1);
    });
}

#[test]
fn an_identical_entry_is_not_written_again() {
    let tt = TranspositionTable::new(1 << 16);
    let k = 0x77;
    let store = |bound, score| tt.try_store(k, 4, bound, score, Some(Pos::new(1, 2)));
    assert_eq!(store(Bound::Exact, 5), StoreOutcome::Stored);
    assert_eq!(store(Bound::Exact, 5), StoreOutcome::Unchanged);
    // Any field that differs is written.
    assert_eq!(store(Bound::Lower, 5), StoreOutcome::Stored);
    assert_eq!(store(Bound::Lower, 6), StoreOutcome::Stored);
    assert_eq!(tt.probe(k).unwrap().score, 6);
    tt.new_search();
    assert_eq!(
        store(Bound::Lower, 6),
        StoreOutcome::Stored,
        "age not refreshed"
    );
    assert_eq!(tt.probe(k).unwrap().age, 1);
}

#[test]
fn shallower_way_is_the_victim() {
    both(|make| {
        let tt = make();
        tt.store(key(1), 5);
        tt.store(key(2), 3);
        tt.store(key(3), 4);
        assert_eq!(tt.probe(key(2)), None, "shallowest evicted");
        assert_eq!(tt.probe(key(1)).unwrap().depth, 5);
        assert_eq!(tt.probe(key(3)).unwrap().depth, 4);
        // A new entry replaces the shallower way even if it is shallower still.
        tt.store(key(4), 1);
        assert_eq!(tt.probe(key(3)), None);
        assert_eq!(tt.probe(key(1)).unwrap().depth, 5);
    });
}

#[test]
fn older_way_is_the_victim() {
    both(|make| {
        let tt = make();
        tt.store(key(1), 9);
        tt.new_search();
        tt.new_search();
        tt.store(key(2), 3);
        // Two generations old at depth 9 counts as 9 - 16 < 3.
        tt.store(key(3), 2);
        assert_eq!(tt.probe(key(1)), None, "old deep entry should go first");
        assert_eq!(tt.probe(key(2)).unwrap().depth, 3);
        assert_eq!(tt.probe(key(3)).unwrap().age, 2);
    });
}

#[test]
fn duplicate_ways_probe_the_deeper_and_store_over_the_shallower() {
    let tt = TranspositionTable::<PackedSlot>::with_buckets(4);
    let e = tt.entry(key(1), 3, Bound::Exact, 30, None);
    tt.buckets[0][0].store(e);
    tt.buckets[0][1].store(TtEntry { depth: 8, ..e });
    assert_eq!(tt.probe(key(1)).unwrap().depth, 8);
    assert_eq!(
        tt.try_store(key(1), 5, Bound::Lower, 0, None),
        StoreOutcome::KeptDeeper
    );
    tt.new_search();
    assert_eq!(
        tt.try_store(key(1), 5, Bound::Lower, 0, None),
        StoreOutcome::Stored
    );
    assert_eq!(
        tt.buckets[0][0].load().unwrap().depth,
        5,
        "shallower dup replaced"
    );
    assert_eq!(tt.buckets[0][1].load().unwrap().depth, 8);
}

#[test]
fn clear_is_a_new_game_without_touching_memory() {
    both(|make| {
        let tt = make();
        tt.store(key(1), 9);
        tt.store(key(2), 9);
        tt.clear();
        assert_eq!(tt.probe(key(1)), None);
        assert_eq!(tt.probe(key(2)), None);
        // Entries of the old game count as older: a shallow store of this game replaces one.
        assert_eq!(tt.store(key(1), 1), StoreOutcome::Stored);
        assert_eq!(tt.probe(key(1)).unwrap().depth, 1);
        assert_eq!(tt.probe(key(2)), None);
    });
}

#[test]
fn wipe_empties_slots() {
    let tt = TranspositionTable::<PackedSlot>::with_buckets(4);
    tt.store(key(1), 3, Bound::Upper, -5, Some(Pos(9)));
    tt.wipe();
    assert_eq!(tt.probe(key(1)), None);
    assert!(tt.buckets.iter().flatten().all(|s| s.load().is_none()));
}

#[test]
fn sizing_is_the_largest_power_of_two_that_fits() {
    type Packed = TranspositionTable<PackedSlot>;
    assert_eq!(Packed::buckets_for(0), 1);
    assert_eq!(Packed::buckets_for(32), 1);
    assert_eq!(Packed::buckets_for(64), 2);
    assert_eq!(Packed::buckets_for(95), 2);
    assert_eq!(Packed::buckets_for(1 << 20), 1 << 15);
    assert_eq!(Packed::buckets_for((1 << 20) + 1000), 1 << 15);
    let tt = TranspositionTable::<ArcSlot>::with_bytes(64 << 20);
    assert!(tt.bytes() <= 64 << 20 && tt.bytes() > 32 << 20);
    assert!(tt.bucket_count().is_power_of_two());
    assert_eq!(TranspositionTable::new(0).bucket_count(), 1);
}

#[test]
fn choose_way_prefers_empty_then_lower_value() {
    let e = |key, depth, age| {
        Some(TtEntry {
            key,
            depth,
            bound: Bound::Exact,
            score: 0,
            best: None,
            age,
        })
    };
    let new = e(9, 4, 10).unwrap();
    assert_eq!(choose_way(&[None, None], &new), Some(0));
    assert_eq!(choose_way(&[e(1, 1, 10), None], &new), Some(1));
    assert_eq!(choose_way(&[e(1, 1, 10), e(2, 2, 10)], &new), Some(0));
    assert_eq!(choose_way(&[e(1, 3, 10), e(2, 2, 10)], &new), Some(1));
    assert_eq!(choose_way(&[e(1, 3, 10), e(9, 20, 10)], &new), None);
    assert_eq!(choose_way(&[e(1, 3, 10), e(9, 20, 9)], &new), Some(1));
    // Wrapped generation counter: 255 is one older than 0.
    let new0 = e(9, 4, 0).unwrap();
    assert_eq!(choose_way(&[e(1, 5, 0), e(2, 12, 255)], &new0), Some(1));
}
