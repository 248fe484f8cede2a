//! `pbrain-bango web [--port 9527] [--addr 127.0.0.1]`: the protocol over TCP
//! ([`bango::front::protocol::tcp`]). Loopback unless asked otherwise: the brain executes whatever a
//! client sends.

use bango::engine::config::Config;
use std::net::TcpListener;

/// Options of `web`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port to listen on (0 = any free port).
    #[arg(long, default_value_t = 9527)]
    port: u16,
    /// Address to bind; loopback unless asked otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    addr: String,
}

/// Binds and serves clients one after the other until accepting fails for good.
pub fn run(args: Args, config: &Config) -> u8 {
    let listener = match TcpListener::bind((args.addr.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {}:{}: {e}", args.addr, args.port);
            return 1;
        }
    };
    match listener.local_addr() {
        Ok(a) => eprintln!("pbrain-bango listening on {a}"),
        Err(e) => eprintln!("pbrain-bango listening (address unknown: {e})"),
    }
    bango::front::protocol::tcp::serve(&listener, config);
    0
}
