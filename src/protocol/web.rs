//! The protocol over TCP: `pbrain-bango web [--port 9527] [--addr 127.0.0.1]`.
//!
//! One client at a time: the session is exactly the stdin/stdout one, run over the socket. When
//! the client sends `END` or disconnects, the connection is closed, the game state is dropped
//! (the next client starts with a fresh session and a fresh algorithm) and the server accepts the
//! next client; others wait in the listen backlog meanwhile.
//!
//! The default address is loopback: the brain executes whatever a client sends, so exposing it
//! to the network must be asked for (`--addr 0.0.0.0`). The bound address is printed to stderr
//! (`--port 0` picks a free port; the printed line says which).

use super::{env_settings, run_session};
use crate::algo;
use clap::Parser as _;
use std::net::{Shutdown, TcpListener, TcpStream};

/// Command-line options of the `web` subcommand.
#[derive(clap::Parser, Debug)]
#[command(
    name = "pbrain-bango web",
    about = "Serve the Gomocup protocol over TCP"
)]
pub struct WebArgs {
    /// TCP port to listen on (0 = any free port).
    #[arg(long, default_value_t = 9527)]
    pub port: u16,
    /// Address to bind; loopback unless asked otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    pub addr: String,
}

/// Parses `args` (after `web`) and serves until killed; returns the exit code on failure.
pub fn cli(args: &[String]) -> u8 {
    let parsed = WebArgs::try_parse_from(
        std::iter::once("pbrain-bango web".to_string()).chain(args.iter().cloned()),
    );
    let opts = match parsed {
        Ok(o) => o,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let listener = match TcpListener::bind((opts.addr.as_str(), opts.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {}:{}: {e}", opts.addr, opts.port);
            return 1;
        }
    };
    match listener.local_addr() {
        Ok(a) => eprintln!("pbrain-bango listening on {a}"),
        Err(e) => eprintln!("pbrain-bango listening (address unknown: {e})"),
    }
    serve(&listener);
    0
}

/// Accepts clients one after the other, forever (until accepting fails for good).
pub fn serve(listener: &TcpListener) {
    let mut failures = 0;
    for stream in listener.incoming() {
        match stream {
            Ok(s) => {
                failures = 0;
                serve_client(s);
            }
            Err(e) => {
                eprintln!("accept failed: {e}");
                failures += 1;
                if failures > 100 {
                    return;
                }
            }
        }
    }
}

/// Runs one session on `stream`, then closes it.
pub fn serve_client(stream: TcpStream) {
    let peer = stream
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "?".into());
    let _ = stream.set_nodelay(true);
    let input = match stream.try_clone() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("client {peer}: {e}");
            return;
        }
    };
    eprintln!("client {peer} connected");
    let end = run_session(input, &stream, algo::from_env(), env_settings());
    // Closing both directions also wakes the detached reader, which then sees end of input.
    let _ = stream.shutdown(Shutdown::Both);
    eprintln!("client {peer} done ({end:?})");
}
