//! The table's live entries as bytes and back: what `yxhashdump` writes and `yxhashload`
//! reads, so that an analyst can keep a deep analysis and resume it in a later session.
//!
//! # Format (version [`VERSION`], all integers little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | [`MAGIC`] |
//! | 4 | format version |
//! | 8 | bucket count of the table dumped |
//! | 8 | its size in bytes ([`TranspositionTable::bytes`]) |
//! | 1 | its search generation (`age`) |
//! | 8 | entry count `n` |
//! | `n` × [`ENTRY_BYTES`] | entries in (bucket, way) order: bucket u64, way u8, key u64 (unsalted), depth i16, bound u8 (1 exact, 2 lower, 3 upper), score i32, best move u16 (`u16::MAX`: none), age u8 |
//! | 4 | CRC-32 of everything before it |
//!
//! # Invariants
//! - **Live entries only**: an entry is written when a probe could return it, that is when its
//!   key under the current game's salt indexes the bucket it sits in. Entries of earlier games
//!   (cleared by changing the salt) index elsewhere and are left out.
//! - **Exact placement**: every entry goes back into the bucket and way it came from, and the
//!   generation is restored, so dumping a table loaded from a dump gives the same bytes.
//! - **All or nothing**: [`TranspositionTable::load`] takes the whole file in memory (the
//!   staging buffer) and checks all of it first (size, version, geometry, checksum, every
//!   record); only a file that passes every check replaces the table's contents, decoded a
//!   second time from the same bytes. A refused file leaves the table exactly as it was.
//! - Loading and dumping touch the whole table: between searches only, never concurrently with
//!   stores (the session runs them as commands, after any ponder has ended).

use super::{Bound, Slot, TranspositionTable, TtEntry};
use crate::game::board::{Pos, CELLS};
use crate::search::tt::sync::Ordering;

/// The first bytes of every dump.
pub const MAGIC: [u8; 8] = *b"BANGOTT\0";

/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

/// Bytes of the header (magic to entry count).
pub const HEADER_BYTES: usize = 8 + 4 + 8 + 8 + 1 + 8;

/// Bytes of one entry record.
pub const ENTRY_BYTES: usize = 8 + 1 + 8 + 2 + 1 + 4 + 2 + 1;

/// Bytes of the trailing checksum.
const CHECKSUM_BYTES: usize = 4;

/// The best-move field of an entry without one.
const NO_MOVE: u16 = u16::MAX;

/// Why a dump was refused; the table is unchanged in every case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Shorter than its header and entry count say (or than a header).
    Truncated {
        /// Bytes present.
        got: usize,
        /// Bytes needed.
        need: usize,
    },
    /// Longer than its header and entry count say.
    TrailingBytes {
        /// Bytes present.
        got: usize,
        /// Bytes expected.
        want: usize,
    },
    /// Does not start with [`MAGIC`].
    NotADump,
    /// Written in another format version.
    Version(u32),
    /// Written from a table of another size.
    Size {
        /// Buckets of the table dumped.
        dumped: u64,
        /// Buckets of this table.
        ours: u64,
    },
    /// The checksum does not match the contents.
    Checksum,
    /// A field that no table could hold (says which entry and why).
    Corrupt(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Truncated { got, need } => {
                write!(f, "truncated dump ({got} bytes, {need} needed)")
            }
            LoadError::TrailingBytes { got, want } => {
                write!(
                    f,
                    "dump longer than its entry count says ({got} bytes, {want} expected)"
                )
            }
            LoadError::NotADump => write!(f, "not a bango table dump (bad magic)"),
            LoadError::Version(v) => {
                write!(
                    f,
                    "dump format version {v}; this brain reads version {VERSION}"
                )
            }
            LoadError::Size { dumped, ours } => write!(
                f,
                "dump of a table of {dumped} buckets; this table has {ours} (set the same \
                 hash_size first)"
            ),
            LoadError::Checksum => write!(f, "checksum mismatch (corrupted dump)"),
            LoadError::Corrupt(why) => write!(f, "corrupted dump: {why}"),
        }
    }
}

/// How full the table is: live entries (as [`TranspositionTable::dump`] counts them) of all
/// slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// Slots holding an entry a probe could return.
    pub live: usize,
    /// All slots (two per bucket).
    pub slots: usize,
}

impl Usage {
    /// The fill in permille, rounded down.
    pub fn permille(&self) -> u64 {
        (self.live as u64 * 1000) / (self.slots as u64).max(1)
    }
}

/// A writer that keeps the CRC-32 of what went through it.
struct Checksummed<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: std::io::Write> Checksummed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.crc.update(bytes);
        self.inner.write_all(bytes)
    }
}

/// What a fully checked dump holds besides its entries.
struct Checked {
    age: u8,
    count: usize,
}

impl<S: Slot> TranspositionTable<S> {
    /// The live entries with their bucket and way, keys unsalted, in (bucket, way) order.
    fn live_entries(&self) -> impl Iterator<Item = (usize, usize, TtEntry)> + '_ {
        let salt = self.salt.load(Ordering::Relaxed);
        let mask = self.buckets.len() - 1;
        self.buckets.iter().enumerate().flat_map(move |(b, ways)| {
            (0..2).filter_map(move |w| {
                let e = ways[w].load()?;
                let key = e.key ^ salt;
                ((key as usize) & mask == b).then_some((b, w, TtEntry { key, ..e }))
            })
        })
    }

    /// How many slots hold a live entry. Reads the whole table: between searches only.
    pub fn usage(&self) -> Usage {
        Usage {
            live: self.live_entries().count(),
            slots: self.buckets.len() * 2,
        }
    }

    /// The live entries in the dump format (see the module docs).
    pub fn dump(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.dump_to(&mut out)
            .expect("writing to memory cannot fail");
        out
    }

    /// [`TranspositionTable::dump`] streamed to `w` (two passes over the table, counting then
    /// writing, so that no copy of the entries is held); returns the number of entries.
    pub fn dump_to(&self, w: impl std::io::Write) -> std::io::Result<u64> {
        let mut w = Checksummed {
            inner: w,
            crc: crc32fast::Hasher::new(),
        };
        let count = self.live_entries().count() as u64;
        w.put(&MAGIC)?;
        w.put(&VERSION.to_le_bytes())?;
        w.put(&(self.buckets.len() as u64).to_le_bytes())?;
        w.put(&(self.bytes() as u64).to_le_bytes())?;
        w.put(&[self.age.load(Ordering::Relaxed)])?;
        w.put(&count.to_le_bytes())?;
        let mut record = Vec::with_capacity(ENTRY_BYTES);
        for (b, way, e) in self.live_entries() {
            record.clear();
            record.extend_from_slice(&(b as u64).to_le_bytes());
            record.push(way as u8);
            record.extend_from_slice(&e.key.to_le_bytes());
            record.extend_from_slice(&e.depth.to_le_bytes());
            record.push(match e.bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            });
            record.extend_from_slice(&e.score.to_le_bytes());
            record.extend_from_slice(&e.best.map_or(NO_MOVE, |p| p.0).to_le_bytes());
            record.push(e.age);
            w.put(&record)?;
        }
        let crc = w.crc.clone().finalize();
        w.inner.write_all(&crc.to_le_bytes())?;
        w.inner.flush()?;
        Ok(count)
    }

    /// Replaces the table's contents with a dump's entries, each in the bucket and way it was
    /// dumped from, and restores its generation; returns the number of entries loaded. The
    /// whole dump is checked first: on any error the table is unchanged.
    pub fn load(&self, bytes: &[u8]) -> Result<usize, LoadError> {
        let checked = self.check(bytes)?;
        // Every record was decoded and checked above: decoding again cannot fail.
        let salt = self.salt.load(Ordering::Relaxed);
        self.wipe();
        let mut r = Reader {
            bytes,
            at: HEADER_BYTES,
        };
        for _ in 0..checked.count {
            let (b, w, e) = decode(&mut r).expect("checked");
            self.buckets[b][w].store(TtEntry {
                key: e.key ^ salt,
                ..e
            });
        }
        self.age.store(checked.age, Ordering::Relaxed);
        Ok(checked.count)
    }

    /// Decodes and checks a whole dump against this table's geometry, touching nothing.
    fn check(&self, bytes: &[u8]) -> Result<Checked, LoadError> {
        let got = bytes.len();
        let smallest = HEADER_BYTES + CHECKSUM_BYTES;
        if !bytes.starts_with(&MAGIC) {
            return Err(if MAGIC.starts_with(bytes) {
                LoadError::Truncated {
                    got,
                    need: smallest,
                }
            } else {
                LoadError::NotADump
            });
        }
        if got < smallest {
            return Err(LoadError::Truncated {
                got,
                need: smallest,
            });
        }
        // The header is all there: its reads cannot run out.
        let mut r = Reader { bytes, at: 8 };
        let version = u32::from_le_bytes(r.array().expect("in the header"));
        if version != VERSION {
            return Err(LoadError::Version(version));
        }
        let buckets = u64::from_le_bytes(r.array().expect("in the header"));
        let ours = self.buckets.len() as u64;
        if buckets != ours {
            return Err(LoadError::Size {
                dumped: buckets,
                ours,
            });
        }
        let table_bytes = u64::from_le_bytes(r.array().expect("in the header"));
        let [age] = r.array().expect("in the header");
        let count = u64::from_le_bytes(r.array().expect("in the header"));
        if count > 2 * ours {
            return Err(LoadError::Corrupt(format!(
                "{count} entries for {} slots",
                2 * ours
            )));
        }
        let want = smallest + count as usize * ENTRY_BYTES;
        if got < want {
            return Err(LoadError::Truncated { got, need: want });
        }
        if got > want {
            return Err(LoadError::TrailingBytes { got, want });
        }
        let (body, crc) = bytes.split_at(want - CHECKSUM_BYTES);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(LoadError::Checksum);
        }
        if table_bytes != self.bytes() as u64 {
            return Err(LoadError::Corrupt(format!(
                "{table_bytes} bytes for {buckets} buckets (this build's table takes {})",
                self.bytes()
            )));
        }
        let mut last: Option<(usize, usize)> = None;
        let mask = self.buckets.len() - 1;
        for i in 0..count as usize {
            let corrupt = |why: String| LoadError::Corrupt(format!("entry {i}: {why}"));
            let (b, w, entry) = decode(&mut r).map_err(corrupt)?;
            if b >= self.buckets.len() || (entry.key as usize) & mask != b {
                return Err(corrupt(format!(
                    "key {:#x} does not belong in bucket {b}",
                    entry.key
                )));
            }
            if last.is_some_and(|place| place >= (b, w)) {
                return Err(corrupt("out of order or repeated".into()));
            }
            last = Some((b, w));
        }
        Ok(Checked {
            age,
            count: count as usize,
        })
    }
}

/// One entry record (the caller checked the length), or why no table could hold it.
fn decode(r: &mut Reader<'_>) -> Result<(usize, usize, TtEntry), String> {
    let bucket = u64::from_le_bytes(r.take_array());
    let [way] = r.take_array();
    let key = u64::from_le_bytes(r.take_array());
    let depth = i16::from_le_bytes(r.take_array());
    let [bound] = r.take_array();
    let score = i32::from_le_bytes(r.take_array());
    let best = u16::from_le_bytes(r.take_array());
    let [age] = r.take_array();
    let bound = match bound {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        other => return Err(format!("bound {other}")),
    };
    if way > 1 {
        return Err(format!("way {way}"));
    }
    let best = match best {
        NO_MOVE => None,
        p if usize::from(p) < CELLS => Some(Pos(p)),
        p => return Err(format!("move {p} off every board")),
    };
    Ok((
        bucket as usize,
        usize::from(way),
        TtEntry {
            key,
            depth,
            bound,
            score,
            best,
            age,
        },
    ))
}

/// A cursor over the dump's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N).map(|s| s.try_into().expect("N bytes"))
    }

    /// [`Reader::array`] where the caller has checked that the bytes are there.
    fn take_array<const N: usize>(&mut self) -> [u8; N] {
        self.array().expect("length checked before decoding")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::{ArcSlot, PackedSlot};
    use super::*;

    /// A table of 64 buckets with entries in both ways of some buckets, over two generations.
    fn filled<S: Slot>() -> TranspositionTable<S> {
        let tt = TranspositionTable::<S>::with_buckets(64);
        for i in 0..40u64 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            tt.store(
                key,
                (i % 7) as i16,
                Bound::Lower,
                i as i32 - 20,
                Some(Pos(i as u16)),
            );
            if i == 20 {
                tt.new_search();
            }
        }
        tt.store(5, -1, Bound::Upper, -3, None);
        tt
    }

    #[test]
    fn a_dump_loaded_into_a_fresh_table_dumps_to_the_same_bytes() {
        let tt = filled::<ArcSlot>();
        let bytes = tt.dump();
        let fresh = TranspositionTable::<ArcSlot>::with_buckets(64);
        fresh.clear(); // another salt than the original's: keys are stored unsalted
        assert_eq!(fresh.load(&bytes), Ok(tt.usage().live));
        assert_eq!(fresh.dump(), bytes);
        for i in 0..40u64 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            assert_eq!(fresh.probe(key), tt.probe(key), "key {i}");
        }
        assert_eq!(fresh.probe(5).unwrap().score, -3);
        assert_eq!(fresh.age.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn the_header_says_what_the_table_is() {
        let tt = filled::<PackedSlot>();
        let bytes = tt.dump();
        let live = tt.usage().live;
        assert_eq!(&bytes[..8], b"BANGOTT\0");
        assert_eq!(bytes[8..12], 1u32.to_le_bytes());
        assert_eq!(bytes[12..20], 64u64.to_le_bytes());
        assert_eq!(bytes[20..28], (64u64 * 2 * 16).to_le_bytes());
        assert_eq!(bytes[28], 1, "generation");
        assert_eq!(bytes[29..37], (live as u64).to_le_bytes());
        assert_eq!(bytes.len(), HEADER_BYTES + live * ENTRY_BYTES + 4);
        assert!(live > 30 && live <= 41, "{live}");
    }

    #[test]
    fn entries_of_an_earlier_game_are_not_live() {
        let tt = filled::<ArcSlot>();
        let before = tt.usage();
        assert_eq!(before.slots, 128);
        tt.clear();
        assert_eq!(tt.usage().live, 0);
        assert_eq!(tt.dump().len(), HEADER_BYTES + 4);
        tt.store(3, 2, Bound::Exact, 9, None);
        assert_eq!(
            tt.usage(),
            Usage {
                live: 1,
                slots: 128
            }
        );
        assert_eq!(
            Usage {
                live: 1,
                slots: 128
            }
            .permille(),
            7
        );
    }

    /// Every refusal names its reason and leaves the table's dump as it was.
    #[test]
    fn a_bad_dump_is_refused_and_changes_nothing() {
        let tt = filled::<ArcSlot>();
        let good = tt.dump();
        let other = TranspositionTable::<ArcSlot>::with_buckets(128);
        other.store(77, 3, Bound::Exact, 1, None);
        let before = other.dump();
        let mut version = good.clone();
        version[8] = 2;
        let mut flipped = good.clone();
        flipped[HEADER_BYTES + 10] ^= 0x40;
        let mut longer = good.clone();
        longer.push(0);
        let cases: Vec<(&TranspositionTable<ArcSlot>, Vec<u8>, &str)> = vec![
            (&tt, good[..good.len() - 1].to_vec(), "truncated dump"),
            (&tt, good[..20].to_vec(), "truncated dump"),
            (&tt, good[..3].to_vec(), "truncated dump"),
            (&tt, b"not a dump at all".to_vec(), "not a bango table dump"),
            (&tt, version, "format version 2"),
            (&tt, flipped, "checksum mismatch"),
            (&tt, longer, "longer than its entry count"),
            (
                &other,
                good.clone(),
                "table of 64 buckets; this table has 128",
            ),
        ];
        let original = tt.dump();
        for (table, bytes, want) in cases {
            let kept = table.dump();
            let err = table.load(&bytes).unwrap_err().to_string();
            assert!(err.contains(want), "{err:?} lacks {want:?}");
            assert_eq!(table.dump(), kept, "{want}: the table changed");
        }
        assert_eq!(tt.dump(), original);
        assert_eq!(other.dump(), before);
    }

    #[test]
    fn a_consistent_dump_with_an_impossible_field_is_refused() {
        let tt = TranspositionTable::<ArcSlot>::with_buckets(4);
        tt.store(6, 2, Bound::Exact, 1, None);
        let mut bytes = tt.dump();
        let bound_at = HEADER_BYTES + 8 + 1 + 8 + 2;
        bytes[bound_at] = 9;
        let body = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        let fresh = TranspositionTable::<ArcSlot>::with_buckets(4);
        assert_eq!(
            fresh.load(&bytes),
            Err(LoadError::Corrupt("entry 0: bound 9".into()))
        );
        assert_eq!(fresh.usage().live, 0);
    }
}
