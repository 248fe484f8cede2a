//! The analyst's transposition-table commands of a session: `YXHASHDUMP`, `YXHASHLOAD`,
//! `YXSHOWHASHUSAGE` and `YXHASHCLEAR` (Yixin-Board's "hash dump", "hash load", "hash usage"
//! and "hash clear"). The format and
//! its checks are the table's (`crate::search::tt`, its `dump` module); this file does the file
//! I/O and the replies.
//!
//! # Invariants
//! - A dump is written to a temporary file beside the target and renamed over it, so a failed
//!   write never leaves a half file under the name asked for (nor destroys an older dump).
//! - A load reads the whole file, which the table checks in full before replacing anything: a
//!   file that is missing, too large, truncated, of another format version or of another table
//!   size is answered `ERROR <reason>` and the table is left exactly as it was.
//! - A relative path is taken from the brain's working directory, as Rapfi and Yixin do.
//! - The table must have the size the dump was taken with (`INFO hash_size` first); `START` and
//!   `RESTART` begin a new game, which empties the table: load after them.

use super::session::Session;
use super::Sink;
use crate::search::tt::{TranspositionTable, ENTRY_BYTES, HEADER_BYTES};
use std::path::Path;
use std::sync::Arc;

impl Session {
    /// The algorithm's table, or why there is none.
    fn hash_table(&mut self) -> Result<Arc<TranspositionTable>, String> {
        let name = self.algo.name();
        self.algo
            .table()
            .ok_or_else(|| format!("the {name} algorithm keeps no transposition table"))
    }

    /// `YXHASHDUMP path`: the table's live entries written to `path`.
    pub(super) fn hash_dump(&mut self, path: &str, out: Sink<'_>) -> Result<(), String> {
        let table = self.hash_table()?;
        let entries = write_replacing(Path::new(path), |file| {
            table.dump_to(std::io::BufWriter::new(file))
        })
        .map_err(|e| format!("YXHASHDUMP {path}: {e}; nothing written"))?;
        let bytes = HEADER_BYTES as u64 + entries * ENTRY_BYTES as u64 + 4;
        out(&format!(
            "MESSAGE hash dumped: {entries} entries, {bytes} bytes to {path}"
        ));
        Ok(())
    }

    /// `YXHASHLOAD path`: the table's contents replaced by the dump in `path`.
    pub(super) fn hash_load(&mut self, path: &str, out: Sink<'_>) -> Result<(), String> {
        let table = self.hash_table()?;
        let fail = |why: String| format!("YXHASHLOAD {path}: {why}; table unchanged");
        let largest = HEADER_BYTES + 2 * table.bucket_count() * ENTRY_BYTES + 4;
        let len = std::fs::metadata(path)
            .map_err(|e| fail(e.to_string()))?
            .len();
        if len > largest as u64 {
            return Err(fail(format!(
                "{len} bytes, more than any dump of this table ({largest})"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        let entries = table.load(&bytes).map_err(|e| fail(e.to_string()))?;
        out(&format!(
            "MESSAGE hash loaded: {entries} entries from {path}"
        ));
        Ok(())
    }

    /// `YXHASHCLEAR`: the table emptied (a new game's constant-time clear), without a reply as
    /// the Yixin protocol has it; nothing to do for an algorithm without a table.
    pub(super) fn hash_clear(&mut self) -> Result<(), String> {
        if let Some(table) = self.algo.table() {
            table.clear();
        }
        Ok(())
    }

    /// `YXSHOWHASHUSAGE`: the share of the table's slots holding a live entry, in percent
    /// with one decimal (per mille precision, as Rapfi reports it), then the counts.
    pub(super) fn hash_usage(&mut self, out: Sink<'_>) -> Result<(), String> {
        let usage = self.hash_table()?.usage();
        let permille = usage.permille();
        out(&format!(
            "MESSAGE hash usage {}.{}% ({} of {} entries)",
            permille / 10,
            permille % 10,
            usage.live,
            usage.slots
        ));
        Ok(())
    }
}

/// Has `write` fill a temporary file beside `path`, syncs it and renames it over `path`;
/// returns what `write` returned.
fn write_replacing<T>(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("not a file name"))?;
    let mut temp_name = name.to_os_string();
    temp_name.push(format!(".part{}", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let written = std::fs::File::create(&temp).and_then(|mut f| {
        let value = write(&mut f)?;
        f.sync_all()?;
        Ok(value)
    });
    let done = written.and_then(|value| std::fs::rename(&temp, path).map(|_| value));
    if done.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    done
}
