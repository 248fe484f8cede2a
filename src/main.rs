//! `pbrain-bango`: the Gomocup brain and its tools. A thin shell over the library: the `cli`
//! layer parses the command line, reads the environment into the one configuration and runs
//! the brain or the tool asked for (`pbrain-bango --help` lists both).

mod cli;

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(cli::run())
}
