//! The Gomocup/Piskvork protocol session (placeholder until the protocol issue lands).

/// Runs the brain on stdin/stdout; returns the process exit code.
pub fn run_stdio() -> u8 {
    eprintln!("protocol not built yet");
    2
}

/// `pbrain-bango web [--port P] [--addr A]`; returns the process exit code.
pub fn run_web_cli(_args: &[String]) -> u8 {
    eprintln!("web mode not built yet");
    2
}
