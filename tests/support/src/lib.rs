//! What bango's integration tests, stress tests and benches share: where the shared data lives
//! ([`data_dir`]), a driver for the built brain process ([`brain`]), and positions several
//! targets test ([`positions`]). A crate of its own so that every target uses it the ordinary way.

pub mod brain;
pub mod positions;

use std::path::PathBuf;

/// The shared data folder: `BANGO_DATA` if set, else `../shared/data` beside the crate root.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("BANGO_DATA") {
        Some(d) => d.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    }
}

/// The text of the shared data file `name` (panics with the path when it cannot be read).
pub fn read_data(name: &str) -> String {
    let path = data_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The built `pbrain-bango` binary of this test run: cargo builds it beside the test executables'
/// `deps` folder before running integration tests.
pub fn brain_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("test executables live in <target>/<profile>/deps");
    let bin = profile_dir.join(format!("pbrain-bango{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.exists(), "{} not built", bin.display());
    bin
}
