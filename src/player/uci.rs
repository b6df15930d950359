//! `uci:COMMAND`: an outside engine speaking the protocol (`docs/PROTOCOL.md`) as a [`Player`]: the
//! harness side of the protocol.
//!
//! - Spec: `uci:COMMAND[;KEY=VALUE…]`. `COMMAND` is the engine's command line (split at spaces;
//!   quote an argument with spaces in it). Each `KEY=VALUE` is an engine option sent as
//!   `setoption name KEY value VALUE`, except the harness's own lowercase keys: `depth=N`,
//!   `nodes=N`, `movetime=SECONDS` (limits for games without a clock), `timeout=SECONDS` (how
//!   long a move may take when neither a clock nor `movetime` bounds it; default 60),
//!   `grace=SECONDS` (how long past its time an engine may answer before it is killed; default
//!   1), `log=DIR` (the folder its stderr goes to, made if missing; default
//!   `$TMPDIR/fiveup-engine-logs`; an empty log of an engine that did not fail is removed when
//!   the player is dropped). An option's value must suit the engine's declaration (`type spin`
//!   within `min`…`max`, `type check` true or false, `type combo` one of its `var`s): a value that
//!   does not is an error naming the option, before any game.
//! - The handshake (`uci` … `uciok`, `isready` … `readyok`) may take `timeout` when given,
//!   [`HANDSHAKE`] when not; an engine that has not answered after [`HANDSHAKE_NOTE`] is named in a
//!   warning while the wait goes on.
//! - One process per player, so per game in matches: started and shaken hands with (`uci` …
//!   `uciok`, options, `isready` … `readyok`) when the player is built, told the game
//!   (`UCI_Variant`: a 5x5x5 ruleset or `quasi-alice`) and its flags before the first move,
//!   sent `ucinewgame` by [`Player::new_game`], `quit` (then killed
//!   if still alive) when dropped.
//! - One player plays any game with a [`WireGame`] (the 5x5x5 games, 4D Quasi-Alice), in that
//!   game's position and move text.
//! - A move: `position startpos|text … moves …` (the whole game, for repetitions), `go` with the
//!   clocks or limits, then lines are read until `bestmove` or the deadline (the time the move
//!   may take plus the grace). `info` lines are parsed and passed on; other lines are ignored.
//! - Failures are forfeits ([`PlayError::Forfeit`]), never errors of the run: a `bestmove` that
//!   is not a legal move (illegal move), the output closing or the process exiting (crash, with
//!   the end of its stderr), no `bestmove` by the deadline (hang; the process is killed). A
//!   forfeited player stays dead: it forfeits every later move at once.

use super::text::clip;
use super::wire::{go_words, parse_info, WireGame, WireSetup};
use super::{BuildError, MAX_NODES};
use super::{Choice, Forfeit, Go, PlayError, Player, SearchInfo, Turn};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Settings of an outside engine player (parsed from `uci:…`).
#[derive(Clone, Debug, PartialEq)]
pub struct UciSpec {
    /// The command line: program, then arguments.
    pub command: Vec<String>,
    /// Engine options, sent with `setoption` in order.
    pub options: Vec<(String, String)>,
    /// Depth limit for games without a clock.
    pub depth: Option<u32>,
    /// Node limit for games without a clock.
    pub nodes: Option<u64>,
    /// Move time for games without a clock.
    pub movetime: Option<Duration>,
    /// Longest a move may take when nothing else bounds it.
    pub timeout: Duration,
    /// Extra time before an engine past its time is killed.
    pub grace: Duration,
    /// Directory of stderr logs (`None`: the default under the temporary directory).
    pub log: Option<PathBuf>,
}

/// Harness defaults.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
const DEFAULT_GRACE: Duration = Duration::from_secs(1);
/// How long the handshake (`uci` to `uciok`, `isready` to `readyok`) may take when the spec
/// gives no `timeout`.
pub const HANDSHAKE: Duration = Duration::from_secs(30);
/// How long a handshake waits before a warning says what it waits for.
pub const HANDSHAKE_NOTE: Duration = Duration::from_secs(3);

/// Why the text after `uci:` is not an outside engine's spec (one line; user input in it is
/// clipped).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciSpecError {
    /// A quote in the command line is never closed.
    #[error("the command line has an unclosed {0} quote")]
    UnclosedQuote(char),
    /// No command line before the first `;`.
    #[error("uci: needs the engine's command line, e.g. uci:/usr/local/bin/engine")]
    NoCommand,
    /// A part after the command is not `KEY=VALUE`.
    #[error("'{0}' is not KEY=VALUE (options follow the command after ';')")]
    NotKeyValue(String),
    /// `depth=` is not a depth the engine searches to.
    #[error("depth={0}: expected 1..={max}", max = crate::engine::search::MAX_DEPTH)]
    Depth(String),
    /// `nodes=` is not a node count in range.
    #[error("nodes={0}: expected 1..={MAX_NODES}")]
    Nodes(String),
    /// A time key (`movetime`, `timeout`, `grace`) is not a number of seconds in range.
    #[error("{key}={value}: expected seconds from 0 to 1e6")]
    Seconds {
        /// The key.
        key: String,
        /// Its value as given.
        value: String,
    },
    /// An engine option with an empty name (`=VALUE`).
    #[error("'{0}': an option needs a name")]
    NamelessOption(String),
    /// The same engine option twice (names compared ignoring case).
    #[error("option '{0}' is given twice")]
    OptionTwice(String),
}

impl UciSpec {
    /// Parses what follows `uci:` in a player spec; the error says what is wrong.
    pub fn parse(text: &str) -> Result<UciSpec, UciSpecError> {
        let mut parts = text.split(';');
        let command = split_command(parts.next().unwrap_or(""))?;
        if command.is_empty() {
            return Err(UciSpecError::NoCommand);
        }
        let mut spec = UciSpec {
            command,
            options: Vec::new(),
            depth: None,
            nodes: None,
            movetime: None,
            timeout: DEFAULT_TIMEOUT,
            grace: DEFAULT_GRACE,
            log: None,
        };
        let seconds = |k: &str, v: &str| match v.parse::<f64>() {
            Ok(t) if (0.0..=1e6).contains(&t) => Ok(Duration::from_secs_f64(t)),
            _ => Err(UciSpecError::Seconds { key: k.to_string(), value: v.to_string() }),
        };
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(UciSpecError::NotKeyValue(clip(part)));
            };
            let (k, v) = (k.trim(), v.trim());
            match k {
                "depth" => match v.parse::<u32>() {
                    Ok(d) if (1..=crate::engine::search::MAX_DEPTH).contains(&d) => spec.depth = Some(d),
                    _ => return Err(UciSpecError::Depth(v.to_string())),
                },
                "nodes" => match v.parse::<u64>() {
                    Ok(n) if (1..=MAX_NODES).contains(&n) => spec.nodes = Some(n),
                    _ => return Err(UciSpecError::Nodes(v.to_string())),
                },
                "movetime" => spec.movetime = Some(seconds(k, v)?.max(Duration::from_millis(1))),
                "timeout" => spec.timeout = seconds(k, v)?.max(Duration::from_millis(1)),
                "grace" => spec.grace = seconds(k, v)?,
                "log" if !v.is_empty() => spec.log = Some(PathBuf::from(v)),
                _ if k.is_empty() => return Err(UciSpecError::NamelessOption(clip(part))),
                _ => {
                    if spec.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)) {
                        return Err(UciSpecError::OptionTwice(clip(k)));
                    }
                    spec.options.push((k.to_string(), v.to_string()))
                }
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for UciSpec {
    /// The canonical spec (without `uci:`; parses back to the same spec).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self
            .command
            .iter()
            .map(|w| if w.contains(char::is_whitespace) || w.is_empty() { format!("\"{w}\"") } else { w.clone() })
            .collect();
        write!(f, "{}", words.join(" "))?;
        for (k, v) in &self.options {
            write!(f, ";{k}={v}")?;
        }
        if let Some(d) = self.depth {
            write!(f, ";depth={d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, ";nodes={n}")?;
        }
        if let Some(t) = self.movetime {
            write!(f, ";movetime={}", t.as_secs_f64())?;
        }
        if self.timeout != DEFAULT_TIMEOUT {
            write!(f, ";timeout={}", self.timeout.as_secs_f64())?;
        }
        if self.grace != DEFAULT_GRACE {
            write!(f, ";grace={}", self.grace.as_secs_f64())?;
        }
        if let Some(l) = &self.log {
            write!(f, ";log={}", l.display())?;
        }
        Ok(())
    }
}

/// Splits a command line at whitespace; `"…"` and `'…'` keep spaces inside an argument.
fn split_command(s: &str) -> Result<Vec<String>, UciSpecError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(UciSpecError::UnclosedQuote(q));
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// Why an engine could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine '{engine}': {reason}")]
pub struct UciError {
    /// The engine's command.
    pub engine: String,
    /// What went wrong.
    pub reason: String,
}

impl From<UciError> for BuildError {
    fn from(e: UciError) -> BuildError {
        BuildError::Engine(e.to_string())
    }
}

/// Bytes of stderr kept in memory for forfeit reasons.
const STDERR_TAIL: usize = 2_000;

/// Numbers the log files of this process's engines.
static LOG_COUNTER: AtomicU64 = AtomicU64::new(0);

/// An outside engine speaking the protocol.
pub struct UciPlayer {
    spec: UciSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
    /// Raised by the stderr reader at the end of the engine's stderr.
    stderr_done: Arc<AtomicBool>,
    log_path: Option<PathBuf>,
    /// Declared option names (lower case).
    declared: Vec<Declared>,
    /// A warning to log if no line has come by its time (a slow handshake).
    note: Option<(Instant, String)>,
    /// The engine's `id name`.
    engine_name: String,
    /// The game and flags last set up with `setoption`.
    setup: Option<WireSetup>,
    stop: Option<Arc<AtomicBool>>,
    /// Why it died, once it did: every later move forfeits with this.
    dead: Option<EngineFailure>,
}

/// How an outside engine failed a move (or its handshake): it forfeits its game
/// ([`EngineFailure::kind`]), and the text is the forfeit's reason.
/// An option an engine declared (`option name NAME type KIND …`).
#[derive(Clone, Debug, PartialEq)]
struct Declared {
    /// Its name as declared.
    name: String,
    /// What values it takes.
    kind: OptionKind,
}

/// The values an engine option takes.
#[derive(Clone, Debug, PartialEq)]
enum OptionKind {
    /// `type spin`: a whole number in `min..=max` (either bound may be missing).
    Spin(Option<i64>, Option<i64>),
    /// `type check`: `true` or `false`.
    Check,
    /// `type combo`: one of its `var`s.
    Combo(Vec<String>),
    /// `type string`, `type button` or a kind we do not know: any value.
    Any,
}

impl Declared {
    /// Reads what follows `option name` in an `option` line.
    fn parse(rest: &[&str]) -> Declared {
        let end = rest.iter().position(|x| *x == "type").unwrap_or(rest.len());
        let name = rest[..end].join(" ");
        let words = &rest[end..];
        let after = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
        let kind = match words.get(1).copied() {
            Some("spin") => {
                OptionKind::Spin(after("min").and_then(|v| v.parse().ok()), after("max").and_then(|v| v.parse().ok()))
            }
            Some("check") => OptionKind::Check,
            Some("combo") => OptionKind::Combo(
                words
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w == "var")
                    .filter_map(|(i, _)| words.get(i + 1))
                    .map(|v| v.to_string())
                    .collect(),
            ),
            _ => OptionKind::Any,
        };
        Declared { name, kind }
    }

    /// Why `value` does not suit this option (`None`: it does).
    fn refuse(&self, value: &str) -> Option<String> {
        match &self.kind {
            OptionKind::Spin(min, max) => {
                let range = format!(
                    "{}..={}",
                    min.map_or(String::new(), |m| m.to_string()),
                    max.map_or(String::new(), |m| m.to_string())
                );
                match value.parse::<i64>() {
                    Ok(n) if min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m) => None,
                    Ok(_) => Some(format!("outside its range {range}")),
                    Err(_) => Some(format!("not a whole number (it is a spin option, {range})")),
                }
            }
            OptionKind::Check => {
                (!matches!(value, "true" | "false")).then(|| "not true or false (it is a check option)".to_string())
            }
            OptionKind::Combo(vars) => (!vars.iter().any(|v| v.eq_ignore_ascii_case(value)))
                .then(|| format!("not one of its values ({})", vars.join(", "))),
            OptionKind::Any => None,
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
enum EngineFailure {
    /// No answer by the deadline: the engine was killed.
    #[error("{engine} gave no answer in time and was killed{}", log_note(.log))]
    Hang {
        /// The engine's name.
        engine: String,
        /// Its stderr log.
        log: Option<PathBuf>,
    },
    /// The process exited, or closed its output or its input.
    #[error("{engine} crashed: {what}{}{}{}", exit_note(.status), stderr_note(.stderr_end), log_note(.log))]
    Crash {
        /// The engine's name.
        engine: String,
        /// What was seen.
        what: &'static str,
        /// How the process ended, when it could be told.
        status: Option<ExitStatus>,
        /// The last line of its stderr, when it wrote any.
        stderr_end: Option<String>,
        /// Its stderr log.
        log: Option<PathBuf>,
    },
    /// It cannot be told the game's ruleset.
    #[error("{engine} has no UCI_Variant option, so it cannot play {ruleset}")]
    NoVariantOption {
        /// The engine's name.
        engine: String,
        /// The ruleset's name.
        ruleset: &'static str,
    },
    /// It cannot be told a flag of the game's variant that is on.
    #[error("{engine} has no {flag} option")]
    NoFlagOption {
        /// The engine's name.
        engine: String,
        /// The flag.
        flag: &'static str,
    },
    /// Its `bestmove` is not a legal move.
    #[error("{engine} answered 'bestmove {}', not a legal move in {position}: {reason}", clip(.answer))]
    IllegalMove {
        /// The engine's name.
        engine: String,
        /// The move text it gave.
        answer: String,
        /// The position, as text.
        position: String,
        /// Why the text is no legal move (the game's move text error).
        reason: String,
    },
}

impl EngineFailure {
    /// The kind of forfeit it is.
    fn kind(&self) -> Forfeit {
        match self {
            EngineFailure::Hang { .. } => Forfeit::Hang,
            EngineFailure::Crash { .. }
            | EngineFailure::NoVariantOption { .. }
            | EngineFailure::NoFlagOption { .. } => Forfeit::Crash,
            EngineFailure::IllegalMove { .. } => Forfeit::IllegalMove,
        }
    }
}

/// ` (stderr log: PATH)`, or nothing without a log.
fn log_note(log: &Option<PathBuf>) -> String {
    log.as_ref().map(|p| format!(" (stderr log: {})", p.display())).unwrap_or_default()
}

/// ` (STATUS)`, or nothing when the exit status is unknown.
fn exit_note(status: &Option<ExitStatus>) -> String {
    status.map(|s| format!(" ({s})")).unwrap_or_default()
}

/// `; stderr ends: LINE`, or nothing without stderr.
fn stderr_note(line: &Option<String>) -> String {
    line.as_ref().map(|l| format!("; stderr ends: {}", clip(l))).unwrap_or_default()
}

impl UciPlayer {
    /// Starts the engine and shakes hands: `uci` … `uciok`, the spec's options (each must be
    /// declared by the engine), `isready` … `readyok`.
    pub fn new(spec: UciSpec) -> Result<UciPlayer, UciError> {
        let engine = spec.command.join(" ");
        let fail = |reason: String| UciError { engine: clip(&engine), reason };
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fail(format!("cannot start it: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| fail("no stdout".into()))?;
        let stderr = child.stderr.take().ok_or_else(|| fail("no stderr".into()))?;
        // Stdout: whole lines into a channel (closed at end of output). Bytes that are not
        // UTF-8 are replaced, so garbage is a line like any other.
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(String::from_utf8_lossy(&buf).trim().to_string()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        // Stderr: into the log file and a short tail kept for forfeit reasons.
        let dir = spec.log.clone().unwrap_or_else(|| std::env::temp_dir().join("fiveup-engine-logs"));
        let base = std::path::Path::new(&spec.command[0])
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || "-_.".contains(*c))
                    .collect::<String>()
            })
            .unwrap_or_default();
        let n = LOG_COUNTER.fetch_add(1, Ordering::Relaxed);
        let log_path = dir.join(format!("{base}-{}-{n}.stderr.log", std::process::id()));
        let mut log = match std::fs::create_dir_all(&dir).and_then(|_| std::fs::File::create(&log_path)) {
            Ok(f) => Some(f),
            // A folder the user named must take the logs; the default one is only a convenience.
            Err(e) if spec.log.is_some() => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail(format!("log={}: cannot write its stderr log there: {e}", dir.display())));
            }
            Err(_) => None,
        };
        let log_path = log.as_ref().map(|_| log_path);
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        let stderr_done = Arc::new(AtomicBool::new(false));
        let done = stderr_done.clone();
        std::thread::spawn(move || {
            let mut r = stderr;
            let mut buf = [0u8; 4096];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Some(f) = log.as_mut() {
                    let _ = f.write_all(&buf[..n]);
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend(&buf[..n]);
                while t.len() > STDERR_TAIL {
                    t.pop_front();
                }
            }
            done.store(true, Ordering::Release);
        });
        let mut p = UciPlayer {
            spec,
            child,
            stdin,
            lines,
            stderr_tail,
            stderr_done,
            log_path,
            declared: Vec::new(),
            note: None,
            engine_name: engine.clone(),
            setup: None,
            stop: None,
            dead: None,
        };
        p.send("uci").map_err(|e| fail(e.to_string()))?;
        let wait = p.handshake();
        let deadline = Instant::now() + wait;
        p.note_slow("uciok", wait);
        loop {
            let line = p.next_line(deadline).map_err(|e| {
                fail(format!(
                    "no 'uciok' within {} s after 'uci' (timeout=SECONDS waits longer): {e}",
                    wait.as_secs_f64()
                ))
            })?;
            let w: Vec<&str> = line.split_whitespace().collect();
            match w.as_slice() {
                ["uciok", ..] => break,
                ["id", "name", rest @ ..] => p.engine_name = rest.join(" "),
                ["option", "name", rest @ ..] => p.declared.push(Declared::parse(rest)),
                _ => {}
            }
        }
        p.note = None;
        for (k, v) in p.spec.options.clone() {
            let Some(d) = p.declared.iter().find(|d| d.name.eq_ignore_ascii_case(&k)) else {
                let names: Vec<&str> = p.declared.iter().map(|d| d.name.as_str()).collect();
                return Err(fail(format!("it has no option '{k}' (it declares: {})", names.join(", "))));
            };
            if let Some(why) = d.refuse(&v) {
                return Err(fail(format!("option {k}={}: {why}", clip(&v))));
            }
            p.send(&format!("setoption name {k} value {v}")).map_err(|e| fail(e.to_string()))?;
        }
        p.ready().map_err(|e| fail(e.to_string()))?;
        Ok(p)
    }

    /// The engine's own name (`id name`).
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }

    fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let Some(stdin) = self.stdin.as_mut() else { return Err(self.crashed("its input is closed")) };
        tracing::trace!("> {line}");
        if writeln!(stdin, "{line}").and_then(|_| stdin.flush()).is_err() {
            return Err(self.crashed("it stopped reading its input"));
        }
        Ok(())
    }

    /// How long a handshake may take: the spec's `timeout` when given, else [`HANDSHAKE`].
    fn handshake(&self) -> Duration {
        if self.spec.timeout == DEFAULT_TIMEOUT {
            HANDSHAKE
        } else {
            self.spec.timeout
        }
    }

    /// Arms the warning logged when `what` has not come after [`HANDSHAKE_NOTE`].
    fn note_slow(&mut self, what: &str, wait: Duration) {
        let text = format!(
            "{} has not sent '{what}' after {} s; waiting up to {} s (timeout=SECONDS changes it)",
            clip(&self.engine_name),
            HANDSHAKE_NOTE.as_secs(),
            wait.as_secs_f64()
        );
        self.note = (wait > HANDSHAKE_NOTE).then(|| (Instant::now() + HANDSHAKE_NOTE, text));
    }

    /// `isready` … `readyok`.
    fn ready(&mut self) -> Result<(), EngineFailure> {
        self.send("isready")?;
        let wait = self.handshake();
        let deadline = Instant::now() + wait;
        self.note_slow("readyok", wait);
        let got = loop {
            match self.next_line(deadline) {
                Ok(l) if l == "readyok" => break Ok(()),
                Ok(_) => {}
                Err(e) => break Err(e),
            }
        };
        self.note = None;
        got
    }

    /// The next output line before `deadline`; a hang (the engine is then killed) or a crash.
    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineFailure> {
        let mut stop_sent = false;
        loop {
            let now = Instant::now();
            if now >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                let e = EngineFailure::Hang { engine: self.engine_name.clone(), log: self.log_path.clone() };
                self.dead = Some(e.clone());
                return Err(e);
            }
            if self.note.as_ref().is_some_and(|(at, _)| now >= *at) {
                if let Some((_, text)) = self.note.take() {
                    tracing::warn!("{text}");
                }
            }
            if !stop_sent && self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                stop_sent = true;
                let _ = self.send("stop");
            }
            match self.lines.recv_timeout((deadline - now).min(Duration::from_millis(20))) {
                Ok(l) => {
                    tracing::trace!("< {l}");
                    return Ok(l);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(self.crashed("its output closed")),
            }
        }
    }

    /// A crash forfeit: how the process ended and the end of its stderr.
    fn crashed(&mut self, what: &'static str) -> EngineFailure {
        // Give an exiting process a moment to be reaped, so its status can be told.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if status.is_none() {
            let _ = self.child.kill();
            status = self.child.wait().ok();
        }
        // Its stdout closed first; let the stderr reader catch up with what the process wrote
        // last (a grandchild could hold stderr open, so only for a moment).
        for _ in 0..100 {
            if self.stderr_done.load(Ordering::Acquire) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let tail = {
            let t = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
            String::from_utf8_lossy(&t.iter().copied().collect::<Vec<u8>>()).trim().to_string()
        };
        let e = EngineFailure::Crash {
            engine: self.engine_name.clone(),
            what,
            status,
            stderr_end: (!tail.is_empty()).then(|| tail.lines().last().unwrap_or("").to_string()),
            log: self.log_path.clone(),
        };
        self.stdin = None;
        self.dead = Some(e.clone());
        e
    }

    /// Tells the engine the game and its flags when they differ from the last ones.
    fn set_variant(&mut self, setup: WireSetup) -> Result<(), EngineFailure> {
        if self.setup.as_ref() == Some(&setup) {
            return Ok(());
        }
        let declared = self.declared.clone();
        let has = |name: &str| declared.iter().any(|d| d.name.eq_ignore_ascii_case(name));
        if has("UCI_Variant") {
            self.send(&format!("setoption name UCI_Variant value {}", setup.variant))?;
        } else if !setup.default_variant {
            return Err(EngineFailure::NoVariantOption { engine: self.engine_name.clone(), ruleset: setup.variant });
        }
        for &(name, on) in &setup.flags {
            if has(name) {
                self.send(&format!("setoption name {name} value {on}"))?;
            } else if on {
                return Err(EngineFailure::NoFlagOption { engine: self.engine_name.clone(), flag: name });
            }
        }
        self.ready()?;
        self.setup = Some(setup);
        Ok(())
    }

    fn try_play<S: WireGame>(
        &mut self,
        turn: &Turn<'_, S>,
        on_info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> Result<Choice<S::Move>, EngineFailure> {
        if let Some(d) = &self.dead {
            return Err(d.clone());
        }
        let started = Instant::now();
        self.set_variant(turn.pos.wire_setup())?;
        // The whole game, so the engine sees repetitions.
        let mut cmd = if turn.start.is_startpos() {
            "position startpos".to_string()
        } else {
            format!("position text {}", turn.start.to_text())
        };
        if !turn.moves.is_empty() {
            cmd += " moves";
            let mut p = turn.start.clone();
            for &m in turn.moves {
                cmd += &format!(" {}", p.move_text(m));
                p.make(m);
            }
        }
        self.send(&cmd)?;
        // The request, with the spec's limits where the caller gave none of its own.
        let mut go: Go<S::Move> = turn.go.clone();
        if !go.has_limit() {
            go.depth = self.spec.depth;
            go.nodes = self.spec.nodes;
            go.movetime = self.spec.movetime;
            // Nothing bounds the move (`fiveup analyse` with a bare spec): think for the timeout.
            if !go.has_limit() {
                go.movetime = Some(self.spec.timeout);
            }
        }
        let budget = match (&go.clock, go.movetime) {
            (Some(c), _) => c.remaining[turn.pos.side().index()],
            (None, Some(t)) => t,
            (None, None) => self.spec.timeout,
        };
        let budget = if go.infinite { Duration::MAX / 4 } else { budget };
        self.send(&go_words(&go))?;
        let deadline = started + budget + self.spec.grace;
        let mut last = SearchInfo::default();
        loop {
            let line = self.next_line(deadline)?;
            if let Some(info) = parse_info(&line, turn.pos) {
                if info.depth > 0 || !info.pv.is_empty() {
                    on_info(&info);
                    last = info;
                }
                continue;
            }
            let mut w = line.split_whitespace();
            if w.next() != Some("bestmove") {
                tracing::debug!("{} said something else: {}", self.engine_name, clip(&line));
                continue;
            }
            let text = w.next().unwrap_or("");
            let mv = turn.pos.parse_move(text).map_err(|e| EngineFailure::IllegalMove {
                engine: self.engine_name.clone(),
                answer: text.to_string(),
                position: turn.pos.to_text(),
                reason: e.to_string(),
            })?;
            last.time = started.elapsed();
            if last.pv.first() != Some(&mv) {
                last.pv = vec![mv];
            }
            return Ok(Choice { mv, info: last });
        }
    }
}

impl<S: WireGame> Player<S> for UciPlayer {
    fn name(&self) -> String {
        format!("uci:{}", self.spec)
    }

    fn choose(&mut self, pos: &S, history: &[u64]) -> Result<Choice<S::Move>, PlayError> {
        let go = Go::default();
        self.play(&Turn { pos, history, start: pos, moves: &[], go: &go }, &mut |_| {})
    }

    fn play(
        &mut self,
        turn: &Turn<'_, S>,
        on_info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> Result<Choice<S::Move>, PlayError> {
        if !turn.pos.has_legal_move() {
            return Err(PlayError::NoLegalMove);
        }
        self.try_play(turn, on_info).map_err(|e| PlayError::Forfeit { kind: e.kind(), reason: e.to_string() })
    }

    fn new_game(&mut self) {
        if self.dead.is_none() && self.send("ucinewgame").is_ok() {
            let _ = self.ready();
        }
    }

    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

impl Drop for UciPlayer {
    fn drop(&mut self) {
        if self.dead.is_none() {
            let _ = self.send("quit");
        }
        self.stdin = None;
        let mut exited = false;
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                exited = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if !exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // A log with nothing in it of an engine that did not fail is not worth keeping (a match
        // would leave one per game).
        if let Some(p) = &self.log_path {
            if self.dead.is_none() && std::fs::metadata(p).is_ok_and(|m| m.len() == 0) {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_options_and_harness_keys() {
        let s = UciSpec::parse("./eng --flag 'a b';Hash=64;depth=3;grace=0.5;log=/tmp/x").unwrap();
        assert_eq!(s.command, ["./eng", "--flag", "a b"]);
        assert_eq!(s.options, [("Hash".to_string(), "64".to_string())]);
        assert_eq!((s.depth, s.grace), (Some(3), Duration::from_millis(500)));
        assert_eq!(s.to_string(), "./eng --flag \"a b\";Hash=64;depth=3;grace=0.5;log=/tmp/x");
        assert_eq!(UciSpec::parse(&s.to_string()).unwrap(), s);
        for bad in ["", "  ", "eng;Hash", "eng;depth=0", "eng;movetime=x", "eng 'open", "eng;Hash=1;hash=2", "eng;=3"] {
            assert!(UciSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_missing_program_is_a_one_line_build_error() {
        let e = UciPlayer::new(UciSpec::parse("/nonexistent/engine").unwrap()).err().unwrap().to_string();
        assert!(e.contains("/nonexistent/engine") && e.contains("cannot start it") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn option_values_are_checked_against_the_engines_declarations() {
        let d = |line: &str| Declared::parse(&line.split_whitespace().collect::<Vec<_>>());
        let hash = d("Hash type spin default 16 min 1 max 65536");
        assert_eq!((hash.name.as_str(), hash.refuse("64")), ("Hash", None));
        assert!(hash.refuse("abc").unwrap().contains("not a whole number"));
        assert!(hash.refuse("0").unwrap().contains("outside its range 1..=65536"));
        let ponder = d("Ponder type check default false");
        assert_eq!((ponder.refuse("true"), ponder.refuse("false")), (None, None));
        assert!(ponder.refuse("yes").is_some());
        let variant = d("UCI_Variant type combo default fiveup var fiveup var quasi-alice");
        assert_eq!(variant.refuse("Quasi-Alice"), None);
        assert!(variant.refuse("chess").unwrap().contains("fiveup, quasi-alice"));
        let two_words = d("Skill Level type string default x");
        assert_eq!((two_words.name.as_str(), two_words.refuse("anything")), ("Skill Level", None));
        // Through a real process: a bad value, and a log folder that is a file, fail before a game.
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("eng.sh");
        std::fs::write(
            &script,
            "while read -r l; do case $l in uci) echo 'option name Hash type spin default 1 min 1 max 64'; \
             echo uciok;; isready) echo readyok;; quit) exit;; esac; done\n",
        )
        .unwrap();
        let eng = format!("bash {}", script.display());
        let e = UciPlayer::new(UciSpec::parse(&format!("{eng};Hash=abc")).unwrap()).err().unwrap().to_string();
        assert!(e.contains("option Hash=abc: not a whole number"), "{e}");
        UciPlayer::new(UciSpec::parse(&format!("{eng};Hash=64")).unwrap()).unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let e = UciPlayer::new(UciSpec::parse(&format!("{eng};log={}", file.display())).unwrap()).err().unwrap();
        assert!(e.to_string().contains("cannot write its stderr log there"), "{e}");
        // A silent engine is given up after `timeout`, not a fixed 30 s.
        let mute = dir.path().join("mute.sh");
        std::fs::write(&mute, "exec sleep 60\n").unwrap();
        let t0 = Instant::now();
        let e = UciPlayer::new(UciSpec::parse(&format!("bash {};timeout=0.3", mute.display())).unwrap()).err().unwrap();
        assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
        assert!(e.to_string().contains("no 'uciok' within 0.3 s"), "{e}");
    }

    /// A fake Quasi-Alice engine: a bash script that logs what it is sent and answers every `go`
    /// with `1e2e4>3` (legal from the start only); in mode `novariant` it declares no options.
    fn qa_fake(dir: &std::path::Path, mode: &str) -> (UciSpec, PathBuf) {
        let script = dir.join("qa-fake.sh");
        let log = dir.join(format!("sent-{mode}.txt"));
        std::fs::write(
            &script,
            "log=$1; mode=$2\n\
             while IFS= read -r line; do\n\
               echo \"$line\" >> \"$log\"\n\
               case \"$line\" in\n\
                 uci) echo 'id name qa-fake'\n\
                   [ \"$mode\" = novariant ] || echo 'option name UCI_Variant type combo default fiveup var quasi-alice'\n\
                   echo uciok ;;\n\
                 isready) echo readyok ;;\n\
                 quit) exit 0 ;;\n\
                 go*) echo 'info depth 1 score cp 7 pv 1e2e4>3 1d7d5>3'; echo 'bestmove 1e2e4>3' ;;\n\
               esac\n\
             done\n",
        )
        .unwrap();
        let spec = format!("bash {} {} {mode};depth=1;log={}", script.display(), log.display(), dir.display());
        (UciSpec::parse(&spec).unwrap(), log)
    }

    #[test]
    fn an_outside_engine_plays_quasi_alice_in_its_text_and_forfeits_a_wrong_answer() {
        use crate::game::State;
        use crate::quasi_alice::Position as Qa;
        let dir = tempfile::tempdir().unwrap();
        let (spec, log) = qa_fake(dir.path(), "good");
        let mut p = UciPlayer::new(spec).unwrap();
        let start = Qa::start();
        let c = Player::<Qa>::choose(&mut p, &start, &[]).unwrap();
        assert_eq!(start.move_text(c.mv), "1e2e4>3");
        assert_eq!((c.info.depth, c.info.pv.len()), (1, 2));
        // The next move: the whole game from the start; the same answer is now illegal.
        let mut pos = start.clone();
        pos.make(c.mv);
        let go = Go::default();
        let turn = Turn { pos: &pos, history: &[start.hash()], start: &start, moves: &[c.mv], go: &go };
        match Player::<Qa>::play(&mut p, &turn, &mut |_| {}) {
            Err(PlayError::Forfeit { kind: Forfeit::IllegalMove, reason }) => {
                assert!(reason.contains("'bestmove 1e2e4>3', not a legal move in"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        drop(p);
        let sent = std::fs::read_to_string(&log).unwrap();
        let sent: Vec<&str> = sent.lines().collect();
        for want in ["setoption name UCI_Variant value quasi-alice", "position startpos", "go depth 1"] {
            assert!(sent.contains(&want), "{want}: {sent:?}");
        }
        assert!(sent.contains(&"position startpos moves 1e2e4>3"), "{sent:?}");
        // No flags for a game without them.
        assert!(!sent.iter().any(|l| l.contains("Castling") || l.contains("Hypercylinder")), "{sent:?}");
        // An engine that cannot be told the game forfeits its first move.
        let (spec, _) = qa_fake(dir.path(), "novariant");
        let mut p = UciPlayer::new(spec).unwrap();
        match Player::<Qa>::choose(&mut p, &start, &[]) {
            Err(PlayError::Forfeit { kind: Forfeit::Crash, reason }) => {
                assert!(reason.contains("no UCI_Variant option, so it cannot play quasi-alice"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }
}
