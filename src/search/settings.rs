//! Declaring settings once: [`declare_settings!`](crate::declare_settings) turns one line per
//! setting into the struct field, its default, the name of the variable that sets it, the parser
//! and the doc line that `pbrain-bango --help` prints. The search's switches and tunables
//! ([`crate::search::alphabeta::Params`]) and the brain's own settings ([`crate::engine::config::Brain`]) are all
//! declared this way, so no setting is written twice.
//!
//! Every value goes through one parser per type ([`SettingValue`]): the same words mean the same
//! thing in an environment variable and a command-line flag (`--set`). A setting a manager may
//! also send names its `INFO` key in its declaration (for `--help`); the protocol reads those
//! lines in the Gomocup grammar (signed numbers, clamped with a note: `front::protocol::info`),
//! and a switch there takes these same words. Nothing here reads
//! the environment: the caller supplies the variables (the binary reads the process environment;
//! tests pass a table).

use std::fmt::Display;

/// A type a setting can have: parsed from text the same way wherever the text comes from.
pub trait SettingValue: Sized + Display {
    /// Parses `text` (surrounding blanks ignored), or says why it cannot.
    fn parse_setting(text: &str) -> Result<Self, String>;
}

/// `1`/`on`/`true`/`yes` and `0`/`off`/`false`/`no`, in any case.
pub fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "on" | "true" | "yes" => Ok(true),
        "0" | "off" | "false" | "no" => Ok(false),
        _ => Err(format!("{:?} is not a switch (0/1, off/on)", text.trim())),
    }
}

/// A decimal number of type `T` (no sign where `T` has none, no fractions for integers).
pub fn parse_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.trim()
        .parse::<T>()
        .map_err(|_| format!("{:?} is not a valid number", text.trim()))
}

impl SettingValue for bool {
    fn parse_setting(text: &str) -> Result<bool, String> {
        parse_bool(text)
    }
}

macro_rules! numeric_setting {
    ($($t:ty),*) => {
        $(impl SettingValue for $t {
            fn parse_setting(text: &str) -> Result<$t, String> {
                parse_number(text)
            }
        })*
    };
}
numeric_setting!(u8, u32, u64, usize, i32, i64, f32);

impl SettingValue for String {
    fn parse_setting(text: &str) -> Result<String, String> {
        Ok(text.trim().to_string())
    }
}

/// One declared setting, for help texts and documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingDoc {
    /// The environment variable that sets it.
    pub var: &'static str,
    /// The protocol's `INFO` key that sets it too, if any.
    pub info: Option<&'static str>,
    /// What it does.
    pub doc: &'static str,
}

/// The first of `keys`, if any (how the declaration macro turns an optional key into a value).
pub const fn first_key(keys: &[&'static str]) -> Option<&'static str> {
    match keys {
        [k, ..] => Some(k),
        [] => None,
    }
}

/// A variable lookup over a fixed table (tests of the settings that use this module).
#[cfg(test)]
pub(crate) fn table(
    pairs: &'static [(&'static str, &'static str)],
) -> impl Fn(&str) -> Option<String> {
    move |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

/// Declares a settings struct: each field with its type, default, variable name, optional
/// protocol `INFO` key, and doc comment.
///
/// ```ignore
/// declare_settings! {
///     /// The search's switches.
///     pub struct Params {
///         /// Late move reductions.
///         lmr: bool = true, "BANGO_LMR";
///         /// Search workers.
///         threads: usize = 1, "BANGO_SMP", info "thread_num";
///     }
/// }
/// ```
///
/// generates the struct, `Default`, `DOCS` (variable, `INFO` key and doc of every field, in
/// order),
/// `values()` (variable and current value, in order), `set(var, text)` (`None` when `var` is not
/// one of its variables) and `from_vars(vars, warn)` (defaults overridden by whichever variables
/// `vars` knows; a value that does not parse is reported to `warn` and the default kept).
#[macro_export]
macro_rules! declare_settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr, $var:literal $(, info $info:literal)?;
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> $name {
                $name { $( $field: $default, )* }
            }
        }

        impl $name {
            /// The variable and the doc line of every setting, in declaration order.
            pub const DOCS: &'static [$crate::search::settings::SettingDoc] = &[
                $( $crate::search::settings::SettingDoc {
                    var: $var,
                    info: $crate::search::settings::first_key(&[$($info),*]),
                    doc: concat!($($doc),*),
                }, )*
            ];

            /// The variable and the current value of every setting, in declaration order.
            pub fn values(&self) -> Vec<(&'static str, String)> {
                vec![ $( ($var, self.$field.to_string()), )* ]
            }

            /// Sets the setting of variable `var` from `text`: `None` if `var` is not one of
            /// these settings, else whether `text` parsed (on error the value is unchanged).
            pub fn set(&mut self, var: &str, text: &str) -> Option<Result<(), String>> {
                match var {
                    $( $var => Some(
                        <$ty as $crate::search::settings::SettingValue>::parse_setting(text)
                            .map(|v| self.$field = v),
                    ), )*
                    _ => None,
                }
            }

            /// The defaults, overridden by every variable `vars` has a value for; a value that
            /// does not parse goes to `warn` and leaves the default.
            pub fn from_vars(
                vars: &dyn Fn(&str) -> Option<String>,
                warn: &mut dyn FnMut(String),
            ) -> $name {
                let mut s = $name::default();
                for doc in $name::DOCS {
                    if let Some(text) = vars(doc.var) {
                        if let Some(Err(e)) = s.set(doc.var, &text) {
                            warn(format!("ignoring {}: {e}", doc.var));
                        }
                    }
                }
                s
            }
        }
    };
}

/// Declares an enum setting parsed from its names (any case) and shown as its first name.
#[macro_export]
macro_rules! setting_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[doc = $doc:literal])* $variant:ident = [$first:literal $(, $alias:literal)*], )*
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl $name {
            /// Every value's first name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($first),*];
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self { $( $name::$variant => $first, )* })
            }
        }

        impl $crate::search::settings::SettingValue for $name {
            fn parse_setting(text: &str) -> Result<$name, String> {
                match text.trim().to_ascii_lowercase().as_str() {
                    $( $first $(| $alias)* => Ok($name::$variant), )*
                    other => Err(format!(
                        "{other:?} is not one of {}",
                        $name::NAMES.join(", ")
                    )),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    declare_settings! {
        /// A test struct.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Demo {
            /// A switch.
            flag: bool = true, "DEMO_FLAG";
            /// A count.
            count: u32 = 7, "DEMO_COUNT", info "demo_count";
            /// A ratio.
            ratio: f32 = 1.5, "DEMO_RATIO";
        }
    }

    #[test]
    fn one_parser_per_type() {
        for on in ["1", "on", "TRUE", " yes "] {
            assert_eq!(parse_bool(on), Ok(true), "{on}");
        }
        for off in ["0", "Off", "false", "no"] {
            assert_eq!(parse_bool(off), Ok(false), "{off}");
        }
        assert!(parse_bool("maybe").is_err());
        assert_eq!(parse_number::<u32>(" 12 "), Ok(12));
        assert!(parse_number::<u32>("-1").is_err());
        assert!(parse_number::<u32>("1.5").is_err());
        assert_eq!(parse_number::<i64>("-1"), Ok(-1));
    }

    #[test]
    fn declared_settings_parse_warn_and_document() {
        let vars = |name: &str| match name {
            "DEMO_FLAG" => Some("off".to_string()),
            "DEMO_COUNT" => Some("lots".to_string()),
            "DEMO_RATIO" => Some("2.25".to_string()),
            _ => None,
        };
        let mut warnings = Vec::new();
        let d = Demo::from_vars(&vars, &mut |w| warnings.push(w));
        assert_eq!(
            d,
            Demo {
                flag: false,
                count: 7,
                ratio: 2.25
            }
        );
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("DEMO_COUNT"), "{warnings:?}");
        assert_eq!(Demo::DOCS[1].var, "DEMO_COUNT");
        assert_eq!(Demo::DOCS[1].doc.trim(), "A count.");
        assert_eq!(
            Demo::default().values(),
            vec![
                ("DEMO_FLAG", "true".to_string()),
                ("DEMO_COUNT", "7".to_string()),
                ("DEMO_RATIO", "1.5".to_string())
            ]
        );
        let mut d = Demo::default();
        assert_eq!(d.set("DEMO_COUNT", "9"), Some(Ok(())));
        assert_eq!(d.count, 9);
        assert!(d.set("OTHER", "1").is_none());
        assert_eq!(Demo::DOCS[1].info, Some("demo_count"));
        assert_eq!(Demo::DOCS[0].info, None);
    }
}
