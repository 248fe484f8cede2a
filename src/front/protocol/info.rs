//! What each `INFO` key accepts: turns a parsed [`Info`] (numbers as sent, saturated to `i64`)
//! into a [`Setting`] the session stores, clamping or ignoring what it cannot take, with a note
//! for the manager.
//!
//! # Invariants
//! - [`interpret`] is pure and total: every [`Info`], whatever its number, gives at most one
//!   setting and at most one note, never a panic.
//! - A value the session does not take as sent always comes with a note (the session prints it
//!   as a `MESSAGE`, never as `ERROR`: a manager reading the next non-`MESSAGE` line as a reply
//!   would take an `ERROR` after `INFO` for its move).
//! - Yixin's conventions: `max_depth` and `max_node` of `-1` (and 0) mean no cap, silently.
//!
//! Resource keys (`thread_num`, `hash_size`, `max_memory`) are only made non-negative here; what
//! the machine and the memory limit allow is [`crate::engine::resources::plan`]'s to say.

use super::command::Info;
use crate::search::alphabeta::MAX_DEPTH;
use crate::search::timeman::MAX_CLOCK_MS;

/// A setting as the session stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `timeout_turn`, ms.
    TurnMs(u64),
    /// `timeout_match`, ms (0: no match clock).
    MatchMs(u64),
    /// `time_left`, ms (negative when overspent).
    LeftMs(i64),
    /// `max_memory`, bytes (0: no limit).
    MaxMemory(u64),
    /// `game_type`.
    GameType(u64),
    /// `rule` bits.
    Rule(i64),
    /// `folder`.
    Folder(String),
    /// `max_depth` (`None`: no cap).
    MaxDepth(Option<u32>),
    /// `max_node` (`None`: no cap).
    MaxNodes(Option<u64>),
    /// `thread_num`, at least 1.
    Threads(usize),
    /// `hash_size`, KiB (0: the default).
    HashKib(u64),
    /// `show_detail` level, 0 to 3.
    ShowDetail(u8),
    /// `pondering`.
    Pondering(bool),
    /// `usedatabase`: open the position database (the session acts at once).
    UseDatabase(bool),
    /// `database_readonly`: open it read-only from now on.
    DatabaseReadonly(bool),
}

/// What an `INFO` line does: the setting it changes, if any, and a note when the value was
/// not taken as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interpreted {
    /// The setting to store.
    pub setting: Option<Setting>,
    /// A line for the manager (printed as `MESSAGE`).
    pub note: Option<String>,
}

impl Interpreted {
    fn set(setting: Setting) -> Interpreted {
        Interpreted {
            setting: Some(setting),
            note: None,
        }
    }

    fn clamped(setting: Setting, note: String) -> Interpreted {
        Interpreted {
            setting: Some(setting),
            note: Some(note),
        }
    }

    fn ignored(note: String) -> Interpreted {
        Interpreted {
            setting: None,
            note: Some(note),
        }
    }
}

/// A clock key in ms: negative is ignored, beyond [`MAX_CLOCK_MS`] clamped to it.
fn clock(key: &str, ms: i64, make: fn(u64) -> Setting) -> Interpreted {
    if ms < 0 {
        return Interpreted::ignored(format!("INFO {key} {ms}: negative; ignored"));
    }
    let ms = ms as u64;
    if ms > MAX_CLOCK_MS {
        return Interpreted::clamped(
            make(MAX_CLOCK_MS),
            format!("INFO {key} {ms}: at most {MAX_CLOCK_MS} ms; using that"),
        );
    }
    Interpreted::set(make(ms))
}

/// A negative value of a key that takes none: ignored.
fn negative(key: &str, v: i64) -> Interpreted {
    Interpreted::ignored(format!("INFO {key} {v}: negative; ignored"))
}

/// What `info` does (see the module docs).
pub fn interpret(info: Info) -> Interpreted {
    match info {
        Info::TimeoutTurn(ms) => clock("timeout_turn", ms, Setting::TurnMs),
        Info::TimeoutMatch(ms) => clock("timeout_match", ms, Setting::MatchMs),
        Info::TimeLeft(ms) => Interpreted::set(Setting::LeftMs(ms)),
        Info::MaxMemory(b) if b < 0 => negative("max_memory", b),
        Info::MaxMemory(b) => Interpreted::set(Setting::MaxMemory(b as u64)),
        Info::GameType(t) if !(0..=3).contains(&t) => {
            Interpreted::ignored(format!("INFO game_type {t}: expected 0 to 3; ignored"))
        }
        Info::GameType(t) => Interpreted::set(Setting::GameType(t as u64)),
        Info::Rule(bits) if bits < 0 => negative("rule", bits),
        Info::Rule(bits) => Interpreted::set(Setting::Rule(bits)),
        Info::Folder(path) => Interpreted::set(Setting::Folder(path)),
        Info::UseDatabase(on) => Interpreted::set(Setting::UseDatabase(on)),
        Info::DatabaseReadonly(on) => Interpreted::set(Setting::DatabaseReadonly(on)),
        Info::MaxDepth(-1 | 0) => Interpreted::set(Setting::MaxDepth(None)),
        Info::MaxDepth(d) if d < 0 => Interpreted::clamped(
            Setting::MaxDepth(None),
            format!("INFO max_depth {d}: negative; no depth cap"),
        ),
        Info::MaxDepth(d) if d > i64::from(MAX_DEPTH) => Interpreted::clamped(
            Setting::MaxDepth(None),
            format!("INFO max_depth {d}: the search stops at depth {MAX_DEPTH}; no depth cap"),
        ),
        Info::MaxDepth(d) => Interpreted::set(Setting::MaxDepth(Some(d as u32))),
        Info::MaxNode(-1 | 0) => Interpreted::set(Setting::MaxNodes(None)),
        Info::MaxNode(n) if n < 0 => Interpreted::clamped(
            Setting::MaxNodes(None),
            format!("INFO max_node {n}: negative; no node cap"),
        ),
        Info::MaxNode(n) => Interpreted::set(Setting::MaxNodes(Some(n as u64))),
        Info::ThreadNum(n) if n < 1 => Interpreted::clamped(
            Setting::Threads(1),
            format!("INFO thread_num {n}: at least one thread; using 1"),
        ),
        // The machine's cap is the resource plan's (it says so when it clamps).
        Info::ThreadNum(n) => {
            Interpreted::set(Setting::Threads(usize::try_from(n).unwrap_or(usize::MAX)))
        }
        Info::HashSize(kib) if kib < 0 => negative("hash_size", kib),
        Info::HashSize(kib) => Interpreted::set(Setting::HashKib(kib as u64)),
        Info::ShowDetail(level @ 0..=3) => Interpreted::set(Setting::ShowDetail(level as u8)),
        Info::ShowDetail(level) => {
            let clamped = level.clamp(0, 3);
            Interpreted::clamped(
                Setting::ShowDetail(clamped as u8),
                format!("INFO show_detail {level}: the levels are 0 to 3; using {clamped}"),
            )
        }
        Info::Pondering(on) => Interpreted::set(Setting::Pondering(on)),
        Info::Evaluate(_) | Info::Ignored(_) => Interpreted::default(),
        Info::Invalid { key, reason } if key.is_empty() => {
            Interpreted::ignored(format!("INFO: {reason}; ignored"))
        }
        Info::Invalid { key, reason } => {
            Interpreted::ignored(format!("INFO {key}: {reason}; ignored"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(info: Info) -> (Option<Setting>, bool) {
        let i = interpret(info);
        (i.setting, i.note.is_some())
    }

    #[test]
    fn yixin_unlimited_is_silent() {
        assert_eq!(
            setting(Info::MaxNode(-1)),
            (Some(Setting::MaxNodes(None)), false)
        );
        assert_eq!(
            setting(Info::MaxDepth(-1)),
            (Some(Setting::MaxDepth(None)), false)
        );
        assert_eq!(
            setting(Info::MaxNode(0)),
            (Some(Setting::MaxNodes(None)), false)
        );
        assert_eq!(
            setting(Info::MaxNode(5000)),
            (Some(Setting::MaxNodes(Some(5000))), false)
        );
        assert_eq!(
            setting(Info::MaxDepth(7)),
            (Some(Setting::MaxDepth(Some(7))), false)
        );
    }

    #[test]
    fn absurd_values_are_clamped_or_ignored_with_a_note() {
        for (info, want) in [
            (Info::MaxNode(-7), Some(Setting::MaxNodes(None))),
            (Info::MaxDepth(i64::MIN), Some(Setting::MaxDepth(None))),
            (Info::MaxDepth(i64::MAX), Some(Setting::MaxDepth(None))),
            (Info::ThreadNum(0), Some(Setting::Threads(1))),
            (Info::ThreadNum(-3), Some(Setting::Threads(1))),
            (Info::TimeoutTurn(-1), None),
            (Info::TimeoutMatch(i64::MIN), None),
            (
                Info::TimeoutTurn(i64::MAX),
                Some(Setting::TurnMs(MAX_CLOCK_MS)),
            ),
            (Info::MaxMemory(-5), None),
            (Info::HashSize(i64::MIN), None),
            (Info::GameType(9), None),
            (Info::Rule(-1), None),
        ] {
            let i = interpret(info.clone());
            assert_eq!(i.setting, want, "{info:?}");
            assert!(i.note.is_some(), "{info:?} clamped silently");
        }
        // Huge resource requests pass here; the resource plan clamps them.
        assert_eq!(
            setting(Info::ThreadNum(i64::MAX)),
            (Some(Setting::Threads(i64::MAX as usize)), false)
        );
        let bad = interpret(Info::Invalid {
            key: "max_node".into(),
            reason: "bad number \"x\"".into(),
        });
        assert_eq!(bad.setting, None);
        assert!(bad.note.unwrap().starts_with("INFO max_node: bad number"));
    }

    #[test]
    fn ordinary_values_are_taken_as_sent() {
        assert_eq!(
            setting(Info::TimeoutTurn(0)),
            (Some(Setting::TurnMs(0)), false)
        );
        assert_eq!(
            setting(Info::TimeLeft(-20)),
            (Some(Setting::LeftMs(-20)), false)
        );
        assert_eq!(
            setting(Info::MaxMemory(367_001_600)),
            (Some(Setting::MaxMemory(367_001_600)), false)
        );
        assert_eq!(
            setting(Info::HashSize(0)),
            (Some(Setting::HashKib(0)), false)
        );
        assert_eq!(
            setting(Info::ThreadNum(4)),
            (Some(Setting::Threads(4)), false)
        );
        assert_eq!(
            setting(Info::Pondering(true)),
            (Some(Setting::Pondering(true)), false)
        );
        assert_eq!(
            setting(Info::ShowDetail(2)),
            (Some(Setting::ShowDetail(2)), false)
        );
        assert_eq!(
            setting(Info::ShowDetail(7)),
            (Some(Setting::ShowDetail(3)), true)
        );
        assert_eq!(
            setting(Info::ShowDetail(-1)),
            (Some(Setting::ShowDetail(0)), true)
        );
    }
}
