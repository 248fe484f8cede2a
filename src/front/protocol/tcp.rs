//! The protocol over TCP (`pbrain-bango web`).
//!
//! One client at a time: the session is exactly the stdin/stdout one, run over the socket. When
//! the client sends `END` or disconnects, the connection is closed, the game state is dropped
//! (the next client starts with a fresh session and a fresh algorithm) and the server accepts the
//! next client; others wait in the listen backlog meanwhile.
//!
//! The default address is loopback: the brain executes whatever a client sends, so exposing it
//! to the network must be asked for (`--addr 0.0.0.0`). The bound address is printed to stderr
//! (`--port 0` picks a free port; the printed line says which).

use super::run_session;
use crate::engine::algo;
use crate::engine::config::Config;
use std::net::{Shutdown, TcpListener, TcpStream};

/// Accepts clients one after the other, forever (until accepting fails for good), each with a
/// fresh algorithm and session configured by `config`.
pub fn serve(listener: &TcpListener, config: &Config) {
    let mut failures = 0;
    for stream in listener.incoming() {
        match stream {
            Ok(s) => {
                failures = 0;
                serve_client(s, config);
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

/// Runs one session on `stream` (a fresh algorithm configured by `config`), then closes it.
pub fn serve_client(stream: TcpStream, config: &Config) {
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
    let algo = algo::build(config, &mut |w| eprintln!("client {peer}: {w}"));
    let end = run_session(input, &stream, algo, config.clone());
    // Closing both directions also wakes the detached reader, which then sees end of input.
    let _ = stream.shutdown(Shutdown::Both);
    eprintln!("client {peer} done ({end:?})");
}
