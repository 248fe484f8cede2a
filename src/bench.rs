//! The `bench` signature (placeholder until the search issue lands).

/// `pbrain-bango bench ...`; returns the process exit code.
pub fn cli(_args: &[String]) -> u8 {
    eprintln!("bench not built yet");
    2
}
