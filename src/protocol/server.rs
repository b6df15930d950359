//! The engine side of the protocol: `fiveup uci`.
//!
//! One loop reads commands from the input; a search runs on its own thread, owning the player
//! while it searches and handing it back when it ends, so `stop`, `isready` and `quit` are
//! answered at once. Any other command that arrives during a search waits for it to end (an
//! infinite search is stopped; its `bestmove` is still written), so a piped script of commands
//! runs in order. Output lines go through one lock and are flushed
//! one by one, so `info` lines and replies never interleave.
//!
//! The player is built from the `Player` option (a player spec, default `ab`) with the `Hash`,
//! `Threads`, `ValuesFile` and `EvalFile` (an NNUE network) options applied to alpha-beta specs, when the first `go` needs it
//! and again after any option changes; a spec that names no limit has none, so `go` decides
//! ([`PlayerSpec::parse_unlimited`]). Errors in commands are reported as `info string error: …`
//! lines and the engine carries on (UCI's habit); a `go` without a valid position, or in a
//! finished game, answers `bestmove 0000`.

use crate::game::{Game, RefusedMove, Status};
use crate::player::spec::{EvalChoice, PlayerSpec, SpecError};
use crate::player::text::clip;
use crate::player::wire::{info_line, parse_go};
use crate::player::BuildError;
use crate::player::{Go, Player, Turn};
use crate::rules::notation::{parse_move, MoveTextError, PositionTextError};
use crate::rules::types::{UnknownRuleset, VariantError};
use crate::rules::{Move, Position, Ruleset, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where replies go: one writer behind a lock, shared with the search thread.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Settings of a protocol session given on the command line.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The player spec before any `setoption name Player` (e.g. `ab`, `mcts:net=DIR`).
    pub player: String,
    /// The ruleset before any `setoption name UCI_Variant`.
    pub ruleset: Ruleset,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions { player: "ab".into(), ruleset: Ruleset::FiveUp }
    }
}

/// The options the engine declares, as sent in reply to `uci`.
fn option_lines(o: &Options) -> Vec<String> {
    vec![
        format!("option name Hash type spin default {} min 1 max 65536", o.hash),
        format!("option name Threads type spin default {} min 1 max {}", o.threads, crate::engine::MAX_THREADS),
        format!(
            "option name UCI_Variant type combo default {} var fiveup var fiveup-2001 var raumschach",
            o.ruleset.name()
        ),
        format!("option name Castling type check default {}", o.castling),
        format!("option name Hypercylinder type check default {}", o.hypercylinder),
        format!("option name Player type string default {}", o.player),
        "option name ValuesFile type string default <empty>".to_string(),
        "option name EvalFile type string default <empty>".to_string(),
        "option name Clear Hash type button".to_string(),
    ]
}

/// The option values of a session.
#[derive(Clone, Debug)]
struct Options {
    hash: usize,
    threads: usize,
    ruleset: Ruleset,
    castling: bool,
    hypercylinder: bool,
    player: String,
    values: Option<String>,
    /// An NNUE network file: alpha-beta players evaluate with it (`eval=nnue:FILE`).
    eval_file: Option<String>,
}

/// A finished or running search.
struct Running {
    handle: JoinHandle<Box<dyn Player + Send>>,
    stop: Arc<AtomicBool>,
    /// Searching until `stop` (`go infinite`, or `go` with no limit).
    infinite: bool,
}

/// The session state.
struct Session {
    out: Out,
    options: Options,
    /// The player, when built and not searching.
    player: Option<Box<dyn Player + Send>>,
    running: Option<Running>,
    /// The current game: start and moves (`None` after a bad `position`).
    game: Option<Game<Position>>,
}

/// Runs a session: reads commands from `input` until `quit` or its end, writes replies to
/// `output`. Returns when the session ends (a search in progress is stopped first).
pub fn serve(input: impl BufRead, output: Box<dyn Write + Send>, opts: &ServeOptions) -> std::io::Result<()> {
    let options = Options {
        hash: 16,
        threads: 1,
        ruleset: opts.ruleset,
        castling: false,
        hypercylinder: false,
        player: opts.player.clone(),
        values: None,
        eval_file: None,
    };
    let mut s = Session { out: Arc::new(Mutex::new(output)), options, player: None, running: None, game: None };
    s.game = Some(Game::new(Position::startpos(s.variant().unwrap_or_default())));
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            // Bytes that are not UTF-8: a line of garbage, reported and skipped.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                s.say("info string error: a line that is not UTF-8 was ignored")?;
                continue;
            }
            Err(e) => return Err(e),
        };
        if !s.command(line.trim())? {
            break;
        }
    }
    s.finish_search(true);
    Ok(())
}

/// Why a command is refused: the text after `info string error: `.
#[derive(Debug, thiserror::Error)]
enum CommandError {
    /// The options name no variant (a ruleset without the castling or hypercylinder rule asked).
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// `setoption` without `name`.
    #[error("setoption: expected 'setoption name NAME value VALUE'")]
    SetOptionForm,
    /// A number option's value is not a whole number in range.
    #[error("setoption {name}: '{value}' is not a whole number from 1 to {max}")]
    NotNumber { name: String, value: String, max: usize },
    /// A check option's value is not `true` or `false`.
    #[error("setoption {name}: '{value}' is not true or false")]
    NotCheck { name: String, value: String },
    /// `UCI_Variant` names no ruleset.
    #[error("setoption UCI_Variant: {0}")]
    Ruleset(#[source] UnknownRuleset),
    /// `Player` is not a player spec (its first line: the reason without the accepted forms).
    #[error("setoption Player: {}", first_line(.0))]
    SetPlayer(#[source] SpecError),
    /// An option the engine does not have.
    #[error("setoption: unknown option '{0}'")]
    UnknownOption(String),
    /// An option that would leave the options naming no variant.
    #[error("setoption {name}: {source}")]
    OptionVariant { name: String, source: VariantError },
    /// `position` with neither `startpos` nor `text`.
    #[error("position: expected 'position startpos' or 'position text <position text>', then optionally 'moves …'")]
    PositionForm,
    /// The position text does not parse.
    #[error("position: {0}")]
    PositionText(#[source] PositionTextError),
    /// Move `n` of `position … moves` is no move of its position.
    #[error("position: move {n} '{text}': {source}")]
    MoveText { n: usize, text: String, source: MoveTextError },
    /// Move `n` of `position … moves` is refused by the game.
    #[error("position: move {n} '{text}': {source}")]
    MoveRefused { n: usize, text: String, source: RefusedMove<Move> },
    /// The `Player` option is not a player spec when the player is built.
    #[error("Player: {}", first_line(.0))]
    Player(#[source] SpecError),
    /// The player could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// The first line of `e`'s message.
fn first_line(e: &SpecError) -> String {
    e.to_string().lines().next().unwrap_or("").to_string()
}

impl Session {
    fn say(&self, line: &str) -> std::io::Result<()> {
        say(&self.out, line)
    }

    fn variant(&self) -> Result<Variant, VariantError> {
        Variant::new(self.options.ruleset, self.options.castling, self.options.hypercylinder)
    }

    /// Stops (when `stop`, or when it would never end by itself) and joins a running search,
    /// taking the player back.
    fn finish_search(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop || r.infinite {
                r.stop.store(true, Ordering::Relaxed);
            }
            if let Ok(p) = r.handle.join() {
                self.player = Some(p);
            }
        }
    }

    /// Handles one command; `false` on `quit`.
    fn command(&mut self, line: &str) -> std::io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return Ok(true) };
        match cmd {
            "isready" => self.say("readyok")?,
            "stop" => self.finish_search(true),
            "ponderhit" | "debug" => {}
            "quit" => {
                self.finish_search(true);
                return Ok(false);
            }
            _ => {
                // Everything else waits for the search in progress to end (an infinite one is
                // stopped), so a script of commands runs in order.
                self.finish_search(false);
                match cmd {
                    "uci" => {
                        self.say(&format!("id name fiveup {}", env!("CARGO_PKG_VERSION")))?;
                        self.say("id author the fiveup developers")?;
                        for l in option_lines(&self.options) {
                            self.say(&l)?;
                        }
                        self.say("uciok")?;
                    }
                    "ucinewgame" => {
                        if let Some(p) = &mut self.player {
                            p.new_game();
                        }
                        self.game = self.variant().ok().map(|v| Game::new(Position::startpos(v)));
                    }
                    "setoption" => {
                        if let Err(e) = self.set_option(&words[1..]) {
                            self.say(&format!("info string error: {e}"))?;
                        }
                    }
                    "position" => match self.position(&words[1..]) {
                        Ok(g) => self.game = Some(g),
                        Err(e) => {
                            self.game = None;
                            self.say(&format!("info string error: {e}"))?;
                        }
                    },
                    "go" => self.go(&words[1..])?,
                    _ => self.say(&format!("info string error: unknown command '{}'", clip(cmd)))?,
                }
            }
        }
        Ok(true)
    }

    /// `setoption name NAME [value VALUE]` (names are case-insensitive, as in UCI).
    fn set_option(&mut self, words: &[&str]) -> Result<(), CommandError> {
        if words.first() != Some(&"name") {
            return Err(CommandError::SetOptionForm);
        }
        let at = words.iter().position(|w| *w == "value");
        let name = words[1..at.unwrap_or(words.len())].join(" ");
        let value = at.map(|i| words[i + 1..].join(" ")).unwrap_or_default();
        let number = |max: usize| match value.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(CommandError::NotNumber { name: name.clone(), value: clip(&value), max }),
        };
        let check = || match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(CommandError::NotCheck { name: name.clone(), value: clip(&value) }),
        };
        let mut o = self.options.clone();
        match name.to_ascii_lowercase().as_str() {
            "hash" => o.hash = number(65_536)?,
            "threads" => o.threads = number(crate::engine::MAX_THREADS)?,
            "uci_variant" => o.ruleset = value.parse::<Ruleset>().map_err(CommandError::Ruleset)?,
            "castling" => o.castling = check()?,
            "hypercylinder" => o.hypercylinder = check()?,
            "player" => {
                PlayerSpec::parse_unlimited(&value).map_err(CommandError::SetPlayer)?;
                o.player = value;
            }
            "valuesfile" => o.values = (!value.is_empty() && value != "<empty>").then_some(value),
            "evalfile" => o.eval_file = (!value.is_empty() && value != "<empty>").then_some(value),
            "clear hash" => {
                if let Some(p) = &mut self.player {
                    p.new_game();
                }
                return Ok(());
            }
            _ => return Err(CommandError::UnknownOption(clip(&name))),
        }
        let variant_changed = (o.ruleset, o.castling, o.hypercylinder)
            != (self.options.ruleset, self.options.castling, self.options.hypercylinder);
        let old = std::mem::replace(&mut self.options, o);
        if let Err(source) = self.variant() {
            self.options = old;
            return Err(CommandError::OptionVariant { name, source });
        }
        if variant_changed {
            self.game = self.variant().ok().map(|v| Game::new(Position::startpos(v)));
        }
        // Rebuilt at the next go.
        self.player = None;
        Ok(())
    }

    /// `position startpos | text <7 fields> [moves m1 m2 …]`.
    fn position(&self, words: &[&str]) -> Result<Game<Position>, CommandError> {
        let variant = self.variant()?;
        let moves_at = words.iter().position(|w| *w == "moves");
        let head = &words[..moves_at.unwrap_or(words.len())];
        let start = match head.first() {
            Some(&"startpos") if head.len() == 1 => Position::startpos(variant),
            Some(&"text") | Some(&"fen") => {
                Position::from_text(&head[1..].join(" "), variant).map_err(CommandError::PositionText)?
            }
            _ => return Err(CommandError::PositionForm),
        };
        let mut game = Game::new(start);
        for (i, w) in words.iter().skip(moves_at.map_or(words.len(), |i| i + 1)).enumerate() {
            let n = i + 1;
            let m =
                parse_move(game.position(), w).map_err(|source| CommandError::MoveText { n, text: clip(w), source })?;
            game.play(m).map_err(|source| CommandError::MoveRefused { n, text: w.to_string(), source })?;
        }
        Ok(game)
    }

    /// The player for the next search, built when missing.
    fn take_player(&mut self) -> Result<Box<dyn Player + Send>, CommandError> {
        if let Some(p) = self.player.take() {
            return Ok(p);
        }
        let mut spec = PlayerSpec::parse_unlimited(&self.options.player).map_err(CommandError::Player)?;
        if let PlayerSpec::AlphaBeta(ab) = &mut spec {
            ab.hash_mb = self.options.hash;
            ab.threads = self.options.threads;
            if let Some(v) = &self.options.values {
                ab.values = Some(v.into());
            }
            if let Some(f) = &self.options.eval_file {
                ab.eval = EvalChoice::Nnue(f.into());
            }
        }
        Ok(spec.build()?)
    }

    /// `go …`: starts the search thread, which writes `info` lines and the `bestmove`.
    fn go(&mut self, words: &[&str]) -> std::io::Result<()> {
        let Some(game) = self.game.clone() else {
            self.say("info string error: go: no valid position (send 'position' first)")?;
            return self.say("bestmove 0000");
        };
        if let Status::Over(o) = game.status() {
            self.say(&format!("info string the game is over: {o}"))?;
            return self.say("bestmove 0000");
        }
        let go = match parse_go(words, game.position()) {
            Ok(g) => g,
            Err(e) => {
                self.say(&format!("info string error: {e}"))?;
                return self.say("bestmove 0000");
            }
        };
        // No limit at all: search until stopped, as `go infinite` does.
        let go = if go.has_limit() { go } else { Go { infinite: true, ..go } };
        let infinite = go.infinite;
        let mut player = match self.take_player() {
            Ok(p) => p,
            Err(e) => {
                self.say(&format!("info string error: {e}"))?;
                return self.say("bestmove 0000");
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        player.set_stop_flag(stop.clone());
        let out = self.out.clone();
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let turn = Turn {
                pos: game.position(),
                history: game.history(),
                start: game.start(),
                moves: game.moves(),
                go: &go,
            };
            let mut reported = false;
            let result = player.play(&turn, &mut |info| {
                reported = true;
                let _ = say(&out, &info_line(info));
            });
            // `go infinite` answers only after `stop`, even when the search ended by itself.
            while go.infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            let _ = match result {
                Ok(c) => {
                    // Players that do not report as they go (random) still say what they did.
                    if !reported {
                        let _ = say(&out, &info_line(&c.info));
                    }
                    say(&out, &format!("bestmove {}", c.mv))
                }
                Err(e) => {
                    let _ = say(&out, &format!("info string error: {e}"));
                    say(&out, "bestmove 0000")
                }
            };
            player
        });
        self.running = Some(Running { handle, stop, infinite });
        Ok(())
    }
}

fn say(out: &Out, line: &str) -> std::io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(w, "{line}")?;
    w.flush()
}
