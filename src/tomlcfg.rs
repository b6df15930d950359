//! Config files read one way: read the file, parse it with serde (types say
//! `deny_unknown_fields`, so a typo is refused), apply `--set KEY=VALUE` overrides where a command
//! takes them, validate. Every error is one [`ConfigError`] line naming the file (and its line and
//! section) or the `--set` argument, the key and what is allowed.
//!
//! A config type implements [`TomlConfig`] (its checks and any renamed keys) and is read with
//! [`load_file`] or [`load_str`]; [`parse`] alone skips the checks, for types whose checks need
//! more than the file (a tournament's players are built later). Range checks use [`range`], where
//! the allowed range is written once, as the text the error shows.

use serde::de::DeserializeOwned;
use std::fmt;
use std::path::Path;

/// A configuration that cannot be read, parsed or accepted. Every message is one line.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The text is not valid TOML of the expected shape (unknown key, wrong type, …), or a value
    /// that is not accepted, named with where it came from.
    #[error("{origin}: {message}")]
    Parse {
        /// The file name (or `<embedded>`), with the line when known, or the `--set` argument.
        origin: String,
        /// What is wrong, naming the key.
        message: String,
    },
    /// A value is outside its allowed range.
    #[error("{key} = {value} is out of range (allowed: {allowed})")]
    Range {
        /// Dotted key, e.g. `training.lr`.
        key: String,
        /// The value given.
        value: String,
        /// The allowed values.
        allowed: String,
    },
    /// A value that is not accepted for another reason than a range (an unknown name, two keys
    /// that disagree).
    #[error("{message}")]
    Invalid {
        /// Dotted key, e.g. `gate.engine` (names the `--set` that gave it).
        key: String,
        /// What is wrong with it, naming the key.
        message: String,
    },
    /// A `--set KEY=VALUE` override that cannot be applied.
    #[error("--set {0}")]
    Override(String),
}

/// A config type read from TOML: its checks and the keys it renamed.
pub trait TomlConfig: DeserializeOwned {
    /// Keys that were renamed, with what to write instead: an old config gets this hint rather
    /// than serde's list of every key of the section.
    const RENAMED_KEYS: &'static [(&'static str, &'static str)] = &[];

    /// Checks every value; the error names the first bad key ([`ConfigError::Range`] or
    /// [`ConfigError::Invalid`]; [`load_str`] adds where it came from).
    fn validate(&self) -> Result<(), ConfigError> {
        Ok(())
    }
}

/// Reads a config file's text.
pub fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Io { path: path.display().to_string(), source })
}

/// Reads, parses, overrides and validates a file.
pub fn load_file<T: TomlConfig>(path: &Path, overrides: &[String]) -> Result<T, ConfigError> {
    load_str(&read(path)?, &path.display().to_string(), overrides)
}

/// Parses and validates TOML text; `origin` names it in errors. `overrides` are `KEY=VALUE`
/// assignments (dotted keys, TOML values) applied on top.
pub fn load_str<T: TomlConfig>(text: &str, origin: &str, overrides: &[String]) -> Result<T, ConfigError> {
    let cfg: T = parse(text, origin, overrides)?;
    cfg.validate().map_err(|e| blame(e, origin, overrides))?;
    Ok(cfg)
}

/// Parses TOML text and applies `overrides`, without [`TomlConfig::validate`]. An empty `origin`
/// leaves errors naming only the line, for a caller whose own error names the file.
pub fn parse<T: TomlConfig>(text: &str, origin: &str, overrides: &[String]) -> Result<T, ConfigError> {
    // The text alone first, so its errors name its lines; then each override in turn, so an
    // error is blamed on the `--set` argument that caused it (the merged text has no lines of its
    // own a user could find).
    let mut cfg: T = toml::from_str(text).map_err(|e| toml_error::<T>(origin, text, &e))?;
    if !overrides.is_empty() {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| toml_error::<T>(origin, text, &e))?;
        for o in overrides {
            set_key(&mut table, o)?;
            let merged = toml::to_string(&table).expect("a table serialises");
            cfg = toml::from_str(&merged).map_err(|e| override_error::<T>(o, &e))?;
        }
    }
    Ok(cfg)
}

/// `message`, or for a key that was renamed, what replaced it.
fn with_rename_hint<T: TomlConfig>(message: &str) -> String {
    for (old, hint) in T::RENAMED_KEYS {
        if message.starts_with(&format!("unknown field `{old}`")) {
            return format!("unknown field `{old}`: {hint}");
        }
    }
    message.to_string()
}

/// The one-line text of a TOML error: its message (first line), the line number, and the section
/// the error is in.
fn toml_error<T: TomlConfig>(origin: &str, text: &str, e: &toml::de::Error) -> ConfigError {
    let message = with_rename_hint::<T>(e.message().lines().next().unwrap_or("invalid TOML").trim());
    let Some(span) = e.span() else {
        return ConfigError::Parse { origin: origin.to_string(), message };
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..start].matches('\n').count() + 1;
    let this_line = text[line_start..].lines().next().unwrap_or_default().trim();
    // An error on a `[section]` line is about the section's name, a key of the top level; any
    // other is in the last section opened above it (or the top level).
    let section = if this_line.starts_with('[') {
        None
    } else {
        text[..line_start].lines().rev().map(str::trim).find(|l| l.starts_with('[') && l.ends_with(']'))
    };
    let section = format!(" in {}", section.unwrap_or("the top level"));
    // A caller that names the file itself (in its own error) gives no origin.
    let origin = if origin.is_empty() { format!("line {line}") } else { format!("{origin} line {line}") };
    ConfigError::Parse { origin, message: format!("{message}{section}") }
}

/// The error of a `--set KEY=VALUE` that made the config invalid: the argument, the message and
/// the key's section.
fn override_error<T: TomlConfig>(assignment: &str, e: &toml::de::Error) -> ConfigError {
    let message = with_rename_hint::<T>(e.message().lines().next().unwrap_or("invalid value").trim());
    let key = assignment.split_once('=').map_or(assignment, |(k, _)| k).trim();
    let parts: Vec<&str> = key.split('.').collect();
    // An unknown name may be a section of the path (`trainin.lr`), not only its last key.
    let unknown = message.strip_prefix("unknown field `").and_then(|r| r.split('`').next());
    let depth = unknown.and_then(|u| parts.iter().position(|p| *p == u)).unwrap_or(parts.len() - 1);
    let section = match depth {
        0 => "the top level".to_string(),
        d => format!("[{}]", parts[..d].join(".")),
    };
    ConfigError::Parse { origin: format!("--set {assignment}"), message: format!("{message} in {section}") }
}

/// Sets a dotted key in a TOML table; the value is parsed as TOML, or taken as a string.
fn set_key(table: &mut toml::Table, assignment: &str) -> Result<(), ConfigError> {
    let (key, value) = assignment
        .split_once('=')
        .ok_or_else(|| ConfigError::Override(format!("'{assignment}': expected KEY=VALUE")))?;
    let (key, value) = (key.trim(), value.trim());
    let parsed: toml::Value = match format!("v = {value}").parse::<toml::Table>() {
        Ok(mut t) => t.remove("v").expect("just parsed"),
        Err(_) => toml::Value::String(value.to_string()),
    };
    let parts: Vec<&str> = key.split('.').collect();
    let mut t = table;
    for p in &parts[..parts.len() - 1] {
        let entry = t.entry(p.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = entry.as_table_mut().ok_or_else(|| ConfigError::Override(format!("'{key}': {p} is not a section")))?;
    }
    t.insert(parts[parts.len() - 1].to_string(), parsed);
    Ok(())
}

/// Names where a rejected value came from: the last `--set` that assigned its key, else the file
/// (or the embedded default) `origin`.
fn blame(e: ConfigError, origin: &str, overrides: &[String]) -> ConfigError {
    let (ConfigError::Range { key, .. } | ConfigError::Invalid { key, .. }) = &e else { return e };
    let set = overrides.iter().rev().find(|o| o.split_once('=').is_some_and(|(k, _)| k.trim() == key));
    let origin = set.map_or_else(|| origin.to_string(), |o| format!("--set {o}"));
    ConfigError::Parse { origin, message: e.to_string() }
}

/// A check: `Err` naming the key, its value and what is allowed when `ok` is false.
pub fn check(ok: bool, key: &str, value: impl fmt::Display, allowed: &str) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError::Range { key: key.to_string(), value: value.to_string(), allowed: allowed.to_string() })
    }
}

/// A number a range can hold.
pub trait Number: fmt::Display + Copy {
    /// The value as an `f64` (exact for the integers a config holds).
    fn as_f64(self) -> f64;
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Number for $t {
            fn as_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
number!(u8, u16, u32, u64, usize, i32, i64, f32, f64);

/// A range check whose range is written once, as the text the error shows: `LO..=HI` (integers)
/// or an interval `[LO, HI]`, `(LO, HI]`, `[LO, HI)`, `(LO, HI)` (brackets include the bound,
/// parentheses leave it out; bounds such as `1e6` allowed), optionally followed by a note, e.g.
/// `"[0, 4] (0 = off)"`.
///
/// # Panics
/// When `allowed` does not start with a range (a mistake in the calling code, not in a config).
pub fn range<T: Number>(key: &str, value: T, allowed: &str) -> Result<(), ConfigError> {
    check(in_range(value, allowed), key, value, allowed)
}

/// Whether `value` lies in the range written at the start of `allowed` (see [`range`]), for a
/// check whose message says more than the range.
pub fn in_range<T: Number>(value: T, allowed: &str) -> bool {
    Interval::parse(allowed).contains(value.as_f64())
}

/// The bounds of an allowed range.
#[derive(Debug, PartialEq)]
struct Interval {
    lo: f64,
    hi: f64,
    lo_open: bool,
    hi_open: bool,
}

impl Interval {
    /// Reads the range at the start of `text` (see [`range`]).
    fn parse(text: &str) -> Interval {
        let bad = || -> ! { panic!("{text:?} does not start with a range") };
        let num = |s: &str| s.trim().parse::<f64>().unwrap_or_else(|_| bad());
        let first = text.chars().next().unwrap_or_else(|| bad());
        if first == '[' || first == '(' {
            let end = text.find([']', ')']).unwrap_or_else(|| bad());
            let (lo, hi) = text[1..end].split_once(',').unwrap_or_else(|| bad());
            return Interval { lo: num(lo), hi: num(hi), lo_open: first == '(', hi_open: &text[end..=end] == ")" };
        }
        let head = text.split_whitespace().next().unwrap_or_else(|| bad());
        let (lo, hi) = head.split_once("..=").unwrap_or_else(|| bad());
        Interval { lo: num(lo), hi: num(hi), lo_open: false, hi_open: false }
    }

    /// Whether `v` lies in the range (never for NaN).
    fn contains(&self, v: f64) -> bool {
        let above = if self.lo_open { v > self.lo } else { v >= self.lo };
        let below = if self.hi_open { v < self.hi } else { v <= self.hi };
        above && below
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_their_own_text() {
        assert_eq!(Interval::parse("1..=64"), Interval { lo: 1.0, hi: 64.0, lo_open: false, hi_open: false });
        let i = Interval::parse("(0, 1e6] generations");
        assert_eq!(i, Interval { lo: 0.0, hi: 1e6, lo_open: true, hi_open: false });
        assert!(!i.contains(0.0) && i.contains(1e6) && !i.contains(f64::NAN));
        let i = Interval::parse("[0, 1) (0 = off)");
        assert!(i.contains(0.0) && !i.contains(1.0));
        assert!(range("a", 64u32, "1..=64").is_ok() && range("a", 65usize, "1..=64").is_err());
        let e = range("training.lr", -1.0f32, "(0, 10]").unwrap_err().to_string();
        assert_eq!(e, "training.lr = -1 is out of range (allowed: (0, 10])");
    }

    #[test]
    #[should_panic(expected = "does not start with a range")]
    fn a_range_text_without_a_range_is_a_bug() {
        let _ = range("a", 1u32, "one to four");
    }
}
