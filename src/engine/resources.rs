//! Resources: the one place that turns the resource settings a manager sends (thread count,
//! table size, memory limit) into what the brain actually takes from the machine, and says
//! what it had to clamp.
//!
//! The library takes plain values ([`Wanted`]); the facts about the machine ([`Machine`]: its
//! logical CPUs, from `num_cpus`, and its available memory) are read here and nowhere else.
//!
//! # Threads
//! At least 1 and at most [`Machine::thread_cap`], the larger of the machine's logical CPUs and
//! [`MIN_THREAD_CAP`] (4, the competition setting, so that it is honoured as asked on any
//! machine). No multiple of the CPU count is allowed: lazy SMP workers beyond the logical CPUs
//! only take turns on them (each gets a slice of a core, no iteration completes sooner) while
//! each still costs its stack and its search state, and a huge count would starve the machine.
//!
//! # Memory model
//! Under a limit of `L` bytes (`max_memory` or the machine's available memory, the tighter of
//! the two; the machine's alone without `max_memory`), the brain's peak resident memory is
//! bounded by [`peak_bytes`]:
//!
//! ```text
//! BASE_BYTES + BOOK_BYTES + PROOF_BYTES + TABLE_FACTOR × table
//!   + threads × (WORKER_STACK_BYTES + WORKER_HEAP_BYTES)
//!   + VCT_FACTOR × VCT tables (only when a VCT proof mode is on)
//! ```
//!
//! The table counts [`TABLE_FACTOR`] (3) times: twice because a resize fills the new table
//! while the old one still serves (`crate::search::tt::TableHandle`), and once more for the
//! allocator: the default slot keeps each entry in its own heap block, allocated from the
//! storing worker's malloc arena and freed into it, and freed blocks stay resident (the
//! protocol fuzzer measured a peak above `fixed + 2 × table` when the table was resized
//! between full ones). The df-pn VCT solver's two tables (`BANGO_PROOF_VCT_TABLE_KIB` and
//! `BANGO_PROOF_VCT_VCF_TABLE_KIB`, bounded by the solver's own estimate of their contents)
//! count [`VCT_FACTOR`] times, for the same reason as [`PROOF_BYTES`]'s hash maps. Every term is an upper bound (the stacks count at their full
//! reservation, although only the pages a search touches are resident); the stress target
//! `stress resources::` measures the real peak (VmHWM) against it. The table gets what is
//! left, divided by [`TABLE_FACTOR`]; threads are reduced before the table goes below
//! [`MIN_TABLE_BYTES`]; below the least the brain can run in (one thread, the smallest table),
//! it runs in that least and says so.
//!
//! # Invariants
//! - [`plan`] is a pure function of its inputs: the same settings on the same machine give the
//!   same resources and the same notes.
//! - Every clamp of an explicit request is reported by one note (a `MESSAGE` line for the
//!   protocol); the silent cases are the defaults (no `hash_size`: the default table, reduced
//!   to fit the limit without a word).

use crate::engine::config::{ProofMode, Slices};

/// The least thread cap on any machine: the competition setting.
pub const MIN_THREAD_CAP: usize = 4;

/// The table when `hash_size` is not set (kept in step with [`crate::search::tt::DEFAULT_BYTES`]).
pub const DEFAULT_TABLE_BYTES: usize = crate::search::tt::DEFAULT_BYTES;

/// How many times the table counts in the peak (see the module docs).
pub const TABLE_FACTOR: u64 = 3;

/// The smallest table the brain uses, whatever it is told.
pub const MIN_TABLE_BYTES: usize = 64 << 10;

use crate::search::smp::WORKER_STACK_BYTES;

/// Each search worker's own heap: its search state (per-ply frames and move lists, the
/// incrementally evaluated position copy, history) and its share of the busy-move marks. An
/// upper bound, checked by `stress resources::`.
pub const WORKER_HEAP_BYTES: u64 = 1 << 20;

/// The process without its table, its workers, its book and its proof tables: the executable,
/// the runtime, the session and reader threads, the table helper threads, allocator overhead.
/// An upper bound of what `stress resources::` measures.
pub const BASE_BYTES: u64 = 12 << 20;

/// The opening book's share: at most [`crate::knowledge::book::MAX_TEXT_BYTES`] of book text (the shipped
/// books hold under 60 KiB) compiled, plus the text and parse of one file.
pub const BOOK_BYTES: u64 = 4 << 20;

/// The proof tables' share: three tables (the VCF solver's, the VCT solver's and its own VCF
/// solver's) of [`Slices::VCF_TABLE_ENTRIES`] each. A hash map of `u64` keys and `u8` values holds at most
/// two buckets of 17 bytes (entry and control byte) per entry just after growing, plus the
/// old array (half as many buckets) while it grows: 51 bytes per entry.
pub const PROOF_BYTES: u64 = 3 * (Slices::VCF_TABLE_ENTRIES as u64) * 51;

/// How many times the df-pn VCT tables count in the peak: the solver drops entries when its
/// estimate of their bytes (entries and their children lists, a hash map's slots at its load
/// factor) passes the configured bound, and a hash map just grown holds up to twice the slots
/// of that estimate, plus its old array (half as many) while it grows.
pub const VCT_FACTOR: u64 = 3;

/// What the machine offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Logical CPUs.
    pub cpus: usize,
    /// Memory available to a new process, in bytes, when the system says (Linux: `MemAvailable`
    /// of `/proc/meminfo`).
    pub available_memory: Option<u64>,
}

impl Machine {
    /// The machine this process runs on.
    pub fn detect() -> Machine {
        Machine {
            cpus: num_cpus::get().max(1),
            available_memory: available_memory(),
        }
    }

    /// The most search threads the brain runs here: the logical CPUs, and never fewer than
    /// [`MIN_THREAD_CAP`].
    pub fn thread_cap(&self) -> usize {
        self.cpus.max(MIN_THREAD_CAP)
    }
}

/// `MemAvailable` from `/proc/meminfo`, in bytes (Linux; `None` elsewhere or when unreadable).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The largest table size an analyst can ask for, in KiB: the one [`plan`] gives a huge
/// `hash_size` with one thread under the memory limit `wanted` implies ([`MAX_TABLE_KIB`] when
/// no limit is known). What `YXSHOWINFO` reports as the end of Yixin-Board's hash slider.
pub fn largest_table_kib(wanted: Wanted, machine: &Machine) -> u64 {
    let huge = Wanted {
        threads: 1,
        hash_kib: MAX_TABLE_KIB,
        ..wanted
    };
    (plan(huge, machine).table_bytes as u64 >> 10).min(MAX_TABLE_KIB)
}

/// The largest table [`largest_table_kib`] reports, in KiB (1 TiB): beyond any machine the
/// brain meets, and the end of Yixin-Board's slider (`2^30` KiB).
pub const MAX_TABLE_KIB: u64 = 1 << 30;

/// The resource settings as asked for (plain values; `crate::engine::config::Brain` holds them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// Search threads (`thread_num`, `BANGO_SMP`).
    pub threads: usize,
    /// Table size in KiB (`hash_size`); 0 = the default.
    pub hash_kib: u64,
    /// Memory limit in bytes (`max_memory`); 0 = none (the machine's available memory).
    pub max_memory: u64,
    /// The bound of the df-pn VCT solver's tables in bytes, as configured; 0 when no VCT proof
    /// mode is on (the tables then stay empty).
    pub vct_tables: u64,
}

impl Wanted {
    /// The resource settings of `config`.
    pub fn of(config: &crate::engine::config::Config) -> Wanted {
        let brain = &config.brain;
        let vct_on = matches!(brain.proofs, ProofMode::Vct | ProofMode::VctDefend);
        let kib = config.proofs.vct_table_kib as u64 + config.proofs.vct_vcf_table_kib as u64;
        Wanted {
            threads: brain.threads,
            hash_kib: brain.hash_kib,
            max_memory: brain.max_memory,
            vct_tables: if vct_on { kib.saturating_mul(1024) } else { 0 },
        }
    }

    /// The VCT tables' share of the peak ([`VCT_FACTOR`] times their bound).
    pub fn vct_bytes(&self) -> u64 {
        self.vct_tables.saturating_mul(VCT_FACTOR)
    }
}

/// What the brain takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resources {
    /// Search threads, in `1..=thread_cap`.
    pub threads: usize,
    /// Transposition table bytes, at least [`MIN_TABLE_BYTES`].
    pub table_bytes: usize,
    /// The VCT tables' share of the peak ([`Wanted::vct_bytes`]).
    pub vct_bytes: u64,
    /// The limit the plan was made for, if any: `max_memory` or the machine's available memory
    /// (the tighter one; the machine's alone without `max_memory`), when known.
    pub limit: Option<u64>,
    /// One line per request that was clamped.
    pub notes: Vec<String>,
}

impl Resources {
    /// The peak resident memory these resources may reach ([`peak_bytes`] and the VCT tables).
    pub fn peak_bytes(&self) -> u64 {
        peak_bytes(self.threads, self.table_bytes).saturating_add(self.vct_bytes)
    }
}

/// Everything but the table and the VCT tables: the process, the book, the VCF proof tables and
/// `threads` workers.
pub fn fixed_bytes(threads: usize) -> u64 {
    let per_worker = WORKER_STACK_BYTES as u64 + WORKER_HEAP_BYTES;
    BASE_BYTES + BOOK_BYTES + PROOF_BYTES + per_worker.saturating_mul(threads as u64)
}

/// The peak resident memory bound of `threads` workers and a table of `table_bytes`, without
/// the VCT tables (see the module docs).
pub fn peak_bytes(threads: usize, table_bytes: usize) -> u64 {
    fixed_bytes(threads).saturating_add((table_bytes as u64).saturating_mul(TABLE_FACTOR))
}

/// The least the brain can run in: one thread and the smallest table (without VCT tables).
pub fn least_bytes() -> u64 {
    peak_bytes(1, MIN_TABLE_BYTES)
}

fn mib(bytes: u64) -> String {
    let m = bytes as f64 / (1u64 << 20) as f64;
    if m >= 10.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{m:.1} MiB")
    }
}

/// The threads asked for, clamped to 1 and to the machine's cap, with a note when clamped.
fn threads_on(wanted: &Wanted, machine: &Machine, notes: &mut Vec<String>) -> usize {
    let cap = machine.thread_cap();
    if wanted.threads > cap {
        notes.push(format!(
            "thread_num {}: at most {cap} threads on this machine ({} logical CPUs, never fewer \
             than {MIN_THREAD_CAP}); using {cap}",
            wanted.threads, machine.cpus
        ));
    } else if wanted.threads == 0 {
        notes.push("thread_num 0: at least one thread; using 1".to_string());
    }
    wanted.threads.clamp(1, cap)
}

/// The resources for `wanted` on `machine` (see the module docs), with a note for every
/// request that was clamped.
pub fn plan(wanted: Wanted, machine: &Machine) -> Resources {
    let mut notes = Vec::new();
    let mut threads = threads_on(&wanted, machine, &mut notes);
    let asked_table = (wanted.hash_kib > 0)
        .then(|| usize::try_from(wanted.hash_kib.saturating_mul(1024)).unwrap_or(usize::MAX));
    let mut table = asked_table
        .unwrap_or(DEFAULT_TABLE_BYTES)
        .max(MIN_TABLE_BYTES);
    if asked_table.is_some_and(|t| t < MIN_TABLE_BYTES) {
        notes.push(format!(
            "hash_size {} KiB: the table takes at least {} KiB; using that",
            wanted.hash_kib,
            MIN_TABLE_BYTES >> 10
        ));
    }
    // The tighter of `max_memory` and what the machine has.
    let (limit, by_max_memory) = match (wanted.max_memory, machine.available_memory) {
        (0, available) => (available, false),
        (asked, Some(available)) if available < asked => (Some(available), false),
        (asked, _) => (Some(asked), true),
    };
    let vct = wanted.vct_bytes();
    if let Some(limit) = limit {
        let least = least_bytes().saturating_add(vct);
        let what = if by_max_memory {
            format!("max_memory {limit}")
        } else {
            format!("the machine's available memory ({})", mib(limit))
        };
        if limit < least {
            if threads > 1 || table > MIN_TABLE_BYTES || by_max_memory {
                let with_vct = if vct > 0 { " and the VCT tables" } else { "" };
                notes.push(format!(
                    "{what} is below the least the brain runs in ({}: one thread, a {} KiB \
                     table{with_vct}); using that",
                    mib(least),
                    MIN_TABLE_BYTES >> 10
                ));
            }
            threads = 1;
            table = MIN_TABLE_BYTES;
        } else {
            let fits = |n: usize| peak_bytes(n, MIN_TABLE_BYTES).saturating_add(vct) <= limit;
            let before = threads;
            while threads > 1 && !fits(threads) {
                threads -= 1;
            }
            if threads < before {
                notes.push(format!(
                    "{what} leaves room for {threads} search threads, not {before}; using \
                     {threads}"
                ));
            }
            let room = (limit - fixed_bytes(threads) - vct) / TABLE_FACTOR;
            let room = usize::try_from(room).unwrap_or(usize::MAX);
            if table > room {
                if asked_table.is_some() {
                    notes.push(format!(
                        "hash_size {} KiB does not fit {what} with {threads} threads (the table \
                         counts three times: two during a resize, allocator slack); using a {} \
                         KiB table",
                        wanted.hash_kib,
                        room.max(MIN_TABLE_BYTES) >> 10
                    ));
                }
                table = room.max(MIN_TABLE_BYTES);
            }
        }
    }
    Resources {
        threads,
        table_bytes: table,
        vct_bytes: vct,
        limit,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    fn machine(cpus: usize, memory_mib: Option<u64>) -> Machine {
        Machine {
            cpus,
            available_memory: memory_mib.map(|m| m * MIB),
        }
    }

    fn wanted(threads: usize, hash_kib: u64, max_memory: u64) -> Wanted {
        Wanted {
            threads,
            hash_kib,
            max_memory,
            vct_tables: 0,
        }
    }

    #[test]
    fn thread_count_is_clamped_to_the_cap_with_a_note() {
        let m = machine(2, None);
        assert_eq!(m.thread_cap(), 4);
        assert_eq!(machine(16, None).thread_cap(), 16);
        for (asked, got, noted) in [(1, 1, false), (4, 4, false), (5, 4, true), (0, 1, true)] {
            let r = plan(wanted(asked, 0, 0), &m);
            assert_eq!(r.threads, got, "{asked}");
            assert_eq!(r.notes.len(), usize::from(noted), "{asked}: {:?}", r.notes);
        }
        let r = plan(wanted(usize::MAX, 0, 0), &m);
        assert_eq!(r.threads, 4);
        assert!(r.notes[0].contains("at most 4 threads"), "{:?}", r.notes);
        assert_eq!(plan(wanted(12, 0, 0), &machine(16, None)).threads, 12);
    }

    /// The largest table reported is one a one-thread brain takes as asked, and a KiB more
    /// is clamped; without any known limit it is the cap.
    #[test]
    fn the_largest_table_is_the_largest_taken_as_asked() {
        let m = machine(2, Some(8192));
        for max_memory in [350 * MIB, 0, 40 * MIB] {
            let kib = largest_table_kib(wanted(3, 0, max_memory), &m);
            let limit = if max_memory == 0 {
                8192 * MIB
            } else {
                max_memory
            };
            assert_eq!(
                kib,
                ((limit - fixed_bytes(1)) / TABLE_FACTOR) >> 10,
                "{max_memory}"
            );
            let taken = plan(wanted(1, kib, max_memory), &m);
            assert_eq!(taken.table_bytes as u64, kib << 10);
            assert!(taken.notes.is_empty(), "{:?}", taken.notes);
            let more = plan(wanted(1, kib + 1, max_memory), &m);
            assert!(more.notes[0].contains("does not fit"), "{:?}", more.notes);
        }
        assert_eq!(
            largest_table_kib(wanted(1, 0, 0), &machine(2, None)),
            MAX_TABLE_KIB
        );
    }

    #[test]
    fn defaults_are_untouched_and_silent() {
        let r = plan(wanted(1, 0, 0), &machine(2, Some(8192)));
        assert_eq!((r.threads, r.table_bytes), (1, DEFAULT_TABLE_BYTES));
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        assert_eq!(r.limit, Some(8192 * MIB));
        // The competition setting fits the Gomocup limit with the default table, silently.
        let r = plan(wanted(4, 0, 367_001_600), &machine(2, Some(8192)));
        assert_eq!((r.threads, r.table_bytes), (4, DEFAULT_TABLE_BYTES));
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        assert!(r.peak_bytes() <= 367_001_600);
    }

    #[test]
    fn the_table_fits_the_limit_three_times_over_with_everything_else() {
        for limit in [64 * MIB, 100 * MIB, 367_001_600, 1 << 34] {
            for threads in [1, 4, 64] {
                for hash_kib in [0, 1, 64, 1 << 20, 1 << 30, u64::MAX] {
                    let r = plan(wanted(threads, hash_kib, limit), &machine(8, Some(1 << 15)));
                    assert!(r.threads >= 1 && r.threads <= 8);
                    assert!(r.table_bytes >= MIN_TABLE_BYTES);
                    assert!(
                        r.peak_bytes() <= limit,
                        "{threads} threads, hash {hash_kib} KiB, limit {limit}: {r:?}"
                    );
                    if hash_kib > 0 && (hash_kib as usize) << 10 > r.table_bytes {
                        assert!(!r.notes.is_empty(), "clamped silently: {r:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn hash_size_is_honoured_when_it_fits_and_clamped_when_not() {
        let m = machine(2, Some(16 * 1024));
        let r = plan(wanted(1, 32 << 10, 367_001_600), &m);
        assert_eq!(r.table_bytes, 32 << 20);
        assert!(r.notes.is_empty());
        // No max_memory: the machine's available memory is the limit.
        let r = plan(wanted(1, 1_000_000_000, 0), &m);
        assert!(r.peak_bytes() <= 16 * 1024 * MIB);
        assert!(r.table_bytes > 4096 * MIB as usize, "{r:?}");
        assert!(r.notes[0].contains("available memory"), "{:?}", r.notes);
        // Below the minimum table.
        let r = plan(wanted(1, 1, 0), &m);
        assert_eq!(r.table_bytes, MIN_TABLE_BYTES);
        assert_eq!(r.notes.len(), 1);
        // Unknown machine memory and no limit: the request stands (allocation is fallible).
        let r = plan(wanted(1, 1 << 30, 0), &machine(2, None));
        assert_eq!(r.table_bytes, 1 << 40);
        assert_eq!(r.limit, None);
    }

    #[test]
    fn a_tight_limit_takes_threads_before_the_smallest_table() {
        let m = machine(64, None);
        let limit = peak_bytes(3, MIN_TABLE_BYTES) + 1000;
        let r = plan(wanted(64, 0, limit), &m);
        assert_eq!(r.threads, 3);
        assert!(r.notes.iter().any(|n| n.contains("room for 3")), "{r:?}");
        assert!(r.peak_bytes() <= limit);
        // Below the least: one thread, the smallest table, and a note.
        let r = plan(wanted(4, 1 << 20, 1), &m);
        assert_eq!((r.threads, r.table_bytes), (1, MIN_TABLE_BYTES));
        assert!(
            r.notes.iter().any(|n| n.contains("below the least")),
            "{r:?}"
        );
    }

    /// The df-pn VCT tables count only when a VCT mode is on: the same limit then leaves a
    /// table smaller by their share, the whole peak stays within the limit, and a limit below
    /// the least with them is said.
    #[test]
    fn vct_tables_count_when_a_vct_mode_is_on() {
        let mut config = crate::engine::config::Config::default();
        assert_eq!(Wanted::of(&config).vct_tables, 0);
        for mode in [ProofMode::Vct, ProofMode::VctDefend] {
            config.brain.proofs = mode;
            assert_eq!(Wanted::of(&config).vct_tables, 24 * MIB, "{mode:?}");
        }
        let m = machine(2, Some(16 * 1024));
        let limit = 200 * MIB;
        let off = plan(wanted(1, 1 << 20, limit), &m);
        let on = plan(
            Wanted {
                vct_tables: 24 * MIB,
                ..wanted(1, 1 << 20, limit)
            },
            &m,
        );
        assert_eq!(on.vct_bytes, 72 * MIB);
        assert_eq!(off.table_bytes - on.table_bytes, 24 * MIB as usize);
        assert!(on.peak_bytes() <= limit, "{on:?}");
        let tight = plan(
            Wanted {
                vct_tables: 24 * MIB,
                ..wanted(1, 0, least_bytes() + MIB)
            },
            &m,
        );
        assert!(
            tight.notes.iter().any(|n| n.contains("and the VCT tables")),
            "{tight:?}"
        );
    }

    #[test]
    fn the_issue_settings_fit() {
        // Gomocup: 350 MB, four threads; and the tight case with an absurd thread count.
        for (threads, limit) in [(4, 367_001_600), (64, 67_108_864)] {
            let r = plan(wanted(threads, 0, limit), &machine(2, Some(16 * 1024)));
            assert!(r.peak_bytes() <= limit, "{r:?}");
            assert_eq!(r.threads, 4);
        }
    }

    #[test]
    fn the_machine_is_detected() {
        let m = Machine::detect();
        assert!(m.cpus >= 1);
        assert!(m.thread_cap() >= MIN_THREAD_CAP);
        if cfg!(target_os = "linux") {
            assert!(m.available_memory.is_some_and(|b| b > 0));
        }
    }
}
