//! `pbrain-bango bench`: the node-count signature of the fixed bench set at a fixed depth
//! ([`bango::front::bench::run`]), or with `--movetime MS` the depth each middle game reaches in a fixed
//! time and when the reference depths completed ([`bango::front::bench::timed`]). The search uses the
//! configured [`bango::search::alphabeta::Params`], so `--set BANGO_LMR=0` (or the variable) measures a
//! switch's cost with the same command.

use super::data_dir;
use bango::engine::config::Config;
use bango::front::bench::{self, DEFAULT_DEPTH, DEFAULT_HASH_MIB, REFERENCE_DEPTHS};
use bango::game::rules::Rule;
use bango::search::alphabeta::format_score;

/// Options of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth of the signature.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Transposition table size in MiB (fresh for every position).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_HASH_MIB)]
    hash: usize,
    /// Print only the totals.
    #[arg(long)]
    quiet: bool,
    /// Search each middle game for this long instead, and report the depth reached.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Middle games searched with --movetime.
    #[arg(long, default_value_t = 10)]
    count: usize,
}

/// Runs the bench `args` asks for; returns the exit code.
pub fn run(args: Args, config: &Config) -> u8 {
    let set = match bench::positions(&data_dir()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("bench: {e}");
            return 1;
        }
    };
    if let Some(ms) = args.movetime {
        timed(&set, ms, &args, config);
        return 0;
    }
    let r = bench::run(&set, args.depth, args.hash, config.search);
    if !args.quiet {
        for (bp, p) in set.iter().zip(&r.positions) {
            println!(
                "{:<24} {:>9} nodes {:>6} ms  depth {:>2}  best {:<6} score {}",
                bp.name,
                p.nodes,
                p.us / 1000,
                p.depth,
                p.best.to_string(),
                format_score(p.score)
            );
        }
    }
    println!(
        "positions {} depth {} hash {} MiB",
        set.len(),
        args.depth,
        args.hash
    );
    println!("nodes {}", r.nodes);
    println!("time {} ms (searching {} ms)", r.ms, r.search_us / 1000);
    println!("nps {}", r.nodes * 1_000_000 / r.search_us.max(1));
    println!(
        "cut-offs {}, by the first move {} ({:.1}%)",
        r.cuts.all,
        r.cuts.first,
        100.0 * r.cuts.first as f64 / r.cuts.all.max(1) as f64
    );
    println!("signature {}", r.nodes);
    0
}

/// Timed mode: the first `count` middle games, the depth reached within `ms` each.
fn timed(set: &[bench::BenchPosition], ms: u64, args: &Args, config: &Config) {
    let (mut depths, mut nodes, mut time, mut ebfs) = (0u64, 0u64, 0u64, Vec::new());
    let mut reference_times = vec![Vec::new(); REFERENCE_DEPTHS.len()];
    let mids: Vec<_> = set
        .iter()
        .filter(|p| p.rule == Rule::Freestyle)
        .take(args.count)
        .collect();
    for bp in &mids {
        let r = bench::timed(bp, ms, args.hash, config.search);
        let mut to_reference = String::new();
        for (times, &d) in reference_times.iter_mut().zip(&REFERENCE_DEPTHS) {
            let t = r.time_to(d);
            to_reference += &format!(
                "  depth {d} at {:>5}",
                t.map_or("-".to_string(), |t| format!("{t} ms"))
            );
            times.extend(t);
        }
        println!(
            "{:<24} depth {:>2} nodes {:>9} time {:>5} ms nps {:>8} ebf {:.2}{to_reference}",
            bp.name,
            r.depth,
            r.nodes,
            r.ms,
            r.nodes * 1000 / r.ms.max(1),
            r.ebf
        );
        depths += r.depth as u64;
        nodes += r.nodes;
        time += r.ms;
        if r.ebf > 0.0 {
            ebfs.push(r.ebf);
        }
    }
    println!(
        "positions {} movetime {ms} ms: mean depth {:.1}, nps {}, mean ebf {:.2}",
        mids.len(),
        depths as f64 / mids.len().max(1) as f64,
        nodes * 1000 / time.max(1),
        ebfs.iter().sum::<f64>() / ebfs.len().max(1) as f64
    );
    for (times, &d) in reference_times.iter_mut().zip(&REFERENCE_DEPTHS) {
        times.sort_unstable();
        println!(
            "depth {d} completed on {} of {} positions{}",
            times.len(),
            mids.len(),
            if times.is_empty() {
                String::new()
            } else {
                format!(", times {times:?} ms, median {} ms", times[times.len() / 2])
            }
        );
    }
}
