//! `pbrain-bango gui [--port 8080] [--addr 127.0.0.1] [--open]`: serves the browser board
//! ([`bango::front::gui`]) and prints its URL. Loopback unless asked otherwise, like `web`.

use bango::engine::config::Config;
use bango::front::gui::{spawn, Sessions};
use std::io::Write as _;

/// Options of `gui`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port to listen on (0 = any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to bind; loopback unless asked otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    addr: String,
    /// Try to open the page in a browser.
    #[arg(long)]
    open: bool,
}

/// Serves until the server fails (or the process is killed); returns the exit code.
pub fn run(args: Args, config: &Config) -> u8 {
    let server = match spawn(&args.addr, args.port, Sessions::from_config(config)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cannot serve on {}:{}: {e}", args.addr, args.port);
            return 1;
        }
    };
    let url = server.url();
    println!("pbrain-bango board: {url}");
    let _ = std::io::stdout().flush();
    if args.open {
        open_browser(&url);
    }
    server.wait();
    1
}

/// Best effort: the desktop's opener, or a note saying to open the URL by hand.
fn open_browser(url: &str) {
    let tries: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[("xdg-open", &[]), ("sensible-browser", &[])]
    };
    for (program, pre) in tries {
        let spawned = std::process::Command::new(program)
            .args(*pre)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if spawned.is_ok() {
            return;
        }
    }
    eprintln!("could not open a browser; open {url} yourself");
}
