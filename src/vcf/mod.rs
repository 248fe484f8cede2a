//! Threat-space proof search (placeholder until the VCF/VCT issue lands).

/// `pbrain-bango solve ...`; returns the process exit code.
pub fn solve_cli(_args: &[String]) -> u8 {
    eprintln!("solver not built yet");
    2
}
