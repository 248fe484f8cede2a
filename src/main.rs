//! `pbrain-bango`: the Gomocup brain and its tools. A thin shell: every subcommand lives in the
//! library module named for it.
//!
//! ```text
//! pbrain-bango                      the brain on stdin/stdout (what managers run)
//! pbrain-bango web [--port P] [--addr A]   the same protocol over TCP
//! pbrain-bango gui [--port P] [--addr A] [--open]   the browser board
//! pbrain-bango arena [options] ENGINE ENGINE...   play matches between brains
//! pbrain-bango bench [options]     fixed-depth search signature (nodes, nps)
//! pbrain-bango solve --vcf|--vct [--time MS] FILE   solve puzzle files
//! pbrain-bango book validate FILE | gen-classic    opening book tools
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or(&[]);
    let code = match args.first().map(String::as_str) {
        None => bango::protocol::run_stdio(),
        Some("web") => bango::protocol::run_web_cli(rest),
        #[cfg(not(loom))]
        Some("gui") => bango::gui::cli(rest),
        Some("arena") => bango::arena::cli(rest),
        Some("bench") => bango::bench::cli(rest),
        Some("solve") => bango::vcf::solve_cli(rest),
        Some("book") => bango::book::cli::cli(rest),
        Some("-h" | "--help" | "help") => {
            println!("{}", USAGE);
            0
        }
        Some("-V" | "--version") => {
            println!("pbrain-bango {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(other) => {
            eprintln!("unknown command {other:?}\n{USAGE}");
            2
        }
    };
    ExitCode::from(code)
}

const USAGE: &str = "\
usage: pbrain-bango [COMMAND]
  (none)                          play the Gomocup protocol on stdin/stdout
  web [--port 9527] [--addr 127.0.0.1]   the same protocol over TCP
  gui [--port 8080] [--addr 127.0.0.1] [--open]   the board in a browser: play, watch it think, analyse
  arena [options] ENGINE ENGINE...       match brains against each other
  bench [options]                 fixed-depth search signature
  solve --vcf|--vct [--time MS] FILE     solve puzzle files
  book validate FILE | gen-classic [--size N] [--out FILE]   opening book tools
environment: BANGO_ALGO (algorithm), BANGO_SMP (search workers), BANGO_DATA (data folder)";
