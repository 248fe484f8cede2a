//! The match runner (placeholder until the arena issue lands).

/// `pbrain-bango arena ...`; returns the process exit code.
pub fn cli(_args: &[String]) -> u8 {
    eprintln!("arena not built yet");
    2
}
