//! The engine side of the protocol: `fiveup uci`.
//!
//! One loop reads commands from the input; a search runs on its own thread, owning the player
//! while it searches and handing it back when it ends, so `stop`, `isready` and `quit` are
//! answered at once. Any other command that arrives during a search waits for it to end (an
//! infinite search is stopped; its `bestmove` is still written), so a piped script of commands
//! runs in order. Output lines go through one lock and are flushed
//! one by one, so `info` lines and replies never interleave.
//!
//! The session keeps the options and, per game, a [`Table`] generic over the game's position
//! type (monomorphised for the 5x5x5 games and for 4D Quasi-Alice): the current game, the player
//! and the search. `UCI_Variant` picks the game; a new one (or new flags) sets a new table up at
//! the game's start.
//!
//! The player is built from the `Player` option (a player spec, default `ab`) with the `Hash`,
//! `Threads`, `ValuesFile` and `EvalFile` (an NNUE network) options applied to alpha-beta specs,
//! by the game's [`PlayGame::build_player`], when the first `go` needs it
//! and again after any option changes; a spec that names no limit has none, so `go` decides
//! ([`PlayerSpec::parse_unlimited`]). Errors in commands are reported as `info string error: …`
//! lines and the engine carries on (UCI's habit); a `go` without a valid position, or in a
//! finished game, answers `bestmove 0000`.

use crate::catalog::{GameId, UnknownGame};
use crate::game::{Game, State, Status};
use crate::player::spec::{EvalChoice, PlayerSpec, SpecError};
use crate::player::text::clip;
use crate::player::wire::{info_line, parse_go, WireGame};
use crate::player::{BuildError, PlayGame};
use crate::player::{Go, Player, Turn};
use crate::rules::types::VariantError;
use crate::rules::{Ruleset, Variant};
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
    /// The game before any `setoption name UCI_Variant`.
    pub game: GameId,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions { player: crate::player::spec::DEFAULT_PLAYER.into(), game: GameId::FiveUp(Ruleset::FiveUp) }
    }
}

/// Checks that `spec` builds a player of `game` (a weights file or network is loaded now), so a
/// bad `--player` fails before a session starts.
pub fn check_player(game: GameId, spec: &PlayerSpec) -> Result<(), BuildError> {
    match game {
        GameId::FiveUp(_) => crate::rules::Position::build_player(spec).map(drop),
        GameId::QuasiAlice => crate::quasi_alice::Position::build_player(spec).map(drop),
        GameId::Mixed3d => crate::mixed3d::Position::build_player(spec).map(drop),
    }
}

/// The `UCI_Variant` values, as the `uci` reply lists them.
fn variant_names() -> String {
    crate::catalog::ALL.iter().map(|g| format!(" var {}", g.name())).collect()
}

/// The options the engine declares, as sent in reply to `uci`.
fn option_lines(o: &Options) -> Vec<String> {
    vec![
        format!("option name Hash type spin default {} min 1 max 65536", o.hash),
        format!("option name Threads type spin default {} min 1 max {}", o.threads, crate::engine::MAX_THREADS),
        format!("option name UCI_Variant type combo default {}{}", o.game.name(), variant_names()),
        format!("option name Castling type check default {}", o.castling),
        format!("option name Hypercylinder type check default {}", o.hypercylinder),
        format!("option name Player type string default {}", o.player),
        "option name ValuesFile type string default <empty>".to_string(),
        "option name EvalFile type string default <empty>".to_string(),
        "option name TablebasePath type string default <empty>".to_string(),
        "option name Clear Hash type button".to_string(),
    ]
}

/// The option values of a session.
#[derive(Clone, Debug)]
struct Options {
    hash: usize,
    threads: usize,
    game: GameId,
    castling: bool,
    hypercylinder: bool,
    player: String,
    values: Option<String>,
    /// An NNUE network file: alpha-beta players evaluate with it (`eval=nnue:FILE`).
    eval_file: Option<String>,
    /// A folder of endgame tables alpha-beta players probe (`tb=DIR`).
    tablebase_path: Option<String>,
}

impl Options {
    /// The 5x5x5 variant the options name (for another game, Five Up with the flags).
    fn variant(&self) -> Result<Variant, VariantError> {
        let ruleset = match self.game {
            GameId::FiveUp(r) => r,
            GameId::QuasiAlice | GameId::Mixed3d => Ruleset::FiveUp,
        };
        Variant::new(ruleset, self.castling, self.hypercylinder)
    }

    /// Whether the options name a game: a 5x5x5 variant, or Quasi-Alice off the hypercylinder
    /// (Quasi-Alice castles by its own rules, so `Castling` does not matter to it).
    fn check(&self) -> Result<(), OptionsError> {
        match self.game {
            GameId::FiveUp(_) => self.variant().map(drop).map_err(OptionsError::Variant),
            GameId::QuasiAlice | GameId::Mixed3d if self.hypercylinder => Err(OptionsError::NoCylinder(self.game)),
            GameId::QuasiAlice | GameId::Mixed3d => Ok(()),
        }
    }

    /// The game and flags that decide the position (a change starts a new game).
    fn setup(&self) -> (GameId, bool, bool) {
        (self.game, self.castling, self.hypercylinder)
    }
}

/// Why the options name no game.
#[derive(Debug, thiserror::Error)]
enum OptionsError {
    /// A 5x5x5 ruleset with a flag it does not allow.
    #[error(transparent)]
    Variant(VariantError),
    /// The hypercylinder asked for in a game on 8x8 boards.
    #[error("{0} has no hypercylinder board (set Hypercylinder to false first)")]
    NoCylinder(GameId),
}

/// The session state: the options and the current game's table.
struct Session {
    out: Out,
    options: Options,
    table: Box<dyn Served>,
}

/// Runs a session: reads commands from `input` until `quit` or its end, writes replies to
/// `output`. Returns when the session ends (a search in progress is stopped first).
pub fn serve(input: impl BufRead, output: Box<dyn Write + Send>, opts: &ServeOptions) -> std::io::Result<()> {
    let options = Options {
        hash: 16,
        threads: 1,
        game: opts.game,
        castling: false,
        hypercylinder: false,
        player: opts.player.clone(),
        values: None,
        eval_file: None,
        tablebase_path: None,
    };
    let table = table_for(&options);
    let mut s = Session { out: Arc::new(Mutex::new(output)), options, table };
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
    s.table.finish_search(true);
    Ok(())
}

/// A new table for the game the options name, at its start.
fn table_for(o: &Options) -> Box<dyn Served> {
    match o.game {
        GameId::FiveUp(_) => Box::new(Table::<crate::rules::Position>::new(o)),
        GameId::QuasiAlice => Box::new(Table::<crate::quasi_alice::Position>::new(o)),
        GameId::Mixed3d => Box::new(Table::<crate::mixed3d::Position>::new(o)),
    }
}

/// Why a command is refused: the text after `info string error: `.
#[derive(Debug, thiserror::Error)]
enum CommandError {
    /// The options name no 5x5x5 variant (a ruleset without the castling or hypercylinder rule
    /// asked).
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// `setoption` without `name`.
    #[error("setoption: expected 'setoption name NAME value VALUE'")]
    SetOptionForm,
    /// A `Hash` that does not fit in memory (the table in use is kept).
    #[error("setoption Hash: {0}; the table in use is kept")]
    Hash(crate::engine::tt::TableSizeError),
    /// A number option's value is not a whole number in range.
    #[error("setoption {name}: '{value}' is not a whole number from 1 to {max}")]
    NotNumber { name: String, value: String, max: usize },
    /// A check option's value is not `true` or `false`.
    #[error("setoption {name}: '{value}' is not true or false")]
    NotCheck { name: String, value: String },
    /// `UCI_Variant` names no game (the message lists the accepted names).
    #[error("setoption UCI_Variant: {0}")]
    Game(#[source] UnknownGame),
    /// `Player` is not a player spec (its first line: the reason without the accepted forms).
    #[error("setoption Player: {}", first_line(.0))]
    SetPlayer(#[source] SpecError),
    /// `TablebasePath` names no folder of tables.
    #[error("setoption TablebasePath: {0}")]
    Tablebase(String),
    /// An option the engine does not have.
    #[error("setoption: unknown option '{0}'")]
    UnknownOption(String),
    /// An option that would leave the options naming no game.
    #[error("setoption {name}: {source}")]
    OptionVariant { name: String, source: OptionsError },
    /// `position` with neither `startpos` nor `text`.
    #[error("position: expected 'position startpos' or 'position text <position text>', then optionally 'moves …'")]
    PositionForm,
    /// The position text does not parse (the game's text error).
    #[error("position: {0}")]
    PositionText(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// Move `n` of `position … moves` is no move of its position, or is refused by the game.
    #[error("position: move {n} '{text}': {reason}")]
    Move { n: usize, text: String, reason: String },
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

    /// Handles one command; `false` on `quit`.
    fn command(&mut self, line: &str) -> std::io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return Ok(true) };
        match cmd {
            "isready" => self.say("readyok")?,
            "stop" => self.table.finish_search(true),
            "ponderhit" | "debug" => {}
            "quit" => {
                self.table.finish_search(true);
                return Ok(false);
            }
            _ => {
                // Everything else waits for the search in progress to end (an infinite one is
                // stopped), so a script of commands runs in order.
                self.table.finish_search(false);
                match cmd {
                    "uci" => {
                        self.say(&format!("id name fiveup {}", env!("CARGO_PKG_VERSION")))?;
                        self.say("id author the fiveup developers")?;
                        for l in option_lines(&self.options) {
                            self.say(&l)?;
                        }
                        self.say("uciok")?;
                    }
                    "ucinewgame" => self.table.new_game(&self.options),
                    "setoption" => {
                        if let Err(e) = self.set_option(&words[1..]) {
                            self.say(&format!("info string error: {e}"))?;
                        }
                    }
                    "position" => {
                        if let Err(e) = self.table.position(&words[1..], &self.options) {
                            self.say(&format!("info string error: {e}"))?;
                        }
                    }
                    "go" => self.table.go(&words[1..], &self.options, &self.out)?,
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
            "hash" => {
                o.hash = number(65_536)?;
                crate::engine::tt::check_fits(o.hash).map_err(CommandError::Hash)?;
            }
            "threads" => o.threads = number(crate::engine::MAX_THREADS)?,
            "uci_variant" => o.game = value.parse::<GameId>().map_err(CommandError::Game)?,
            "castling" => o.castling = check()?,
            "hypercylinder" => o.hypercylinder = check()?,
            "player" => {
                PlayerSpec::parse_unlimited(&value).map_err(CommandError::SetPlayer)?;
                o.player = value;
            }
            "valuesfile" => o.values = (!value.is_empty() && value != "<empty>").then_some(value),
            "evalfile" => o.eval_file = (!value.is_empty() && value != "<empty>").then_some(value),
            "tablebasepath" => {
                let dir = (!value.is_empty() && value != "<empty>").then_some(value);
                if let Some(d) = &dir {
                    crate::tablebase::Tablebases::open_shared(std::path::Path::new(d))
                        .map_err(|e| CommandError::Tablebase(e.to_string()))?;
                }
                o.tablebase_path = dir;
            }
            "clear hash" => {
                self.table.clear_hash();
                return Ok(());
            }
            _ => return Err(CommandError::UnknownOption(clip(&name))),
        }
        o.check().map_err(|source| CommandError::OptionVariant { name, source })?;
        if o.setup() != self.options.setup() {
            // Another game or other rules: a new game at its start.
            self.table = table_for(&o);
        } else {
            // Rebuilt at the next go.
            self.table.drop_player();
        }
        self.options = o;
        Ok(())
    }
}

/// A game the server can serve: how its positions come from the options and from text (a game
/// record is kept and handed to the search thread, so its undo records are cloned and sent).
trait ServeGame: WireGame<Undo: Clone + Send> {
    /// The start position of the game the options name.
    fn start(o: &Options) -> Result<Self, CommandError>;
    /// A position from its text, under the options' rules.
    fn from_text(text: &str, o: &Options) -> Result<Self, CommandError>;
}

impl ServeGame for crate::rules::Position {
    fn start(o: &Options) -> Result<Self, CommandError> {
        Ok(Self::startpos(o.variant()?))
    }
    fn from_text(text: &str, o: &Options) -> Result<Self, CommandError> {
        Self::from_text(text, o.variant()?).map_err(|e| CommandError::PositionText(Box::new(e)))
    }
}

impl ServeGame for crate::quasi_alice::Position {
    fn start(_: &Options) -> Result<Self, CommandError> {
        Ok(Self::start())
    }
    fn from_text(text: &str, _: &Options) -> Result<Self, CommandError> {
        Self::from_text(text).map_err(|e| CommandError::PositionText(Box::new(e)))
    }
}

impl ServeGame for crate::mixed3d::Position {
    fn start(_: &Options) -> Result<Self, CommandError> {
        Ok(Self::start())
    }
    fn from_text(text: &str, _: &Options) -> Result<Self, CommandError> {
        Self::from_text(text).map_err(|e| CommandError::PositionText(Box::new(e)))
    }
}

/// What the session asks of the current game's table (one implementation, [`Table`], per game).
trait Served: Send {
    /// Stops (when `stop`, or when it would never end by itself) and joins a running search,
    /// taking the player back.
    fn finish_search(&mut self, stop: bool);
    /// `ucinewgame`: the player forgets, the game is back at its start.
    fn new_game(&mut self, o: &Options);
    /// `Clear Hash`: the player forgets.
    fn clear_hash(&mut self);
    /// Options changed: the player is rebuilt at the next `go`.
    fn drop_player(&mut self);
    /// `position …`; on an error there is no valid position until the next good one.
    fn position(&mut self, words: &[&str], o: &Options) -> Result<(), CommandError>;
    /// `go …`: starts the search thread, which writes `info` lines and the `bestmove`.
    fn go(&mut self, words: &[&str], o: &Options, out: &Out) -> std::io::Result<()>;
}

/// A finished or running search.
struct Running<S: State> {
    handle: JoinHandle<Box<dyn Player<S> + Send>>,
    stop: Arc<AtomicBool>,
    /// Searching until `stop` (`go infinite`, or `go` with no limit).
    infinite: bool,
}

/// One game's part of a session: its current game, player and search.
struct Table<S: ServeGame> {
    /// The player, when built and not searching.
    player: Option<Box<dyn Player<S> + Send>>,
    running: Option<Running<S>>,
    /// The current game: start and moves (`None` after a bad `position`).
    game: Option<Game<S>>,
}

impl<S: ServeGame> Table<S> {
    /// A table at the start of the game the options name.
    fn new(o: &Options) -> Table<S> {
        Table { player: None, running: None, game: S::start(o).ok().map(Game::new) }
    }

    /// `position startpos | text <position text> [moves m1 m2 …]`.
    fn read_position(words: &[&str], o: &Options) -> Result<Game<S>, CommandError> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let head = &words[..moves_at.unwrap_or(words.len())];
        let start = match head.first() {
            Some(&"startpos") if head.len() == 1 => S::start(o)?,
            Some(&"text") | Some(&"fen") => S::from_text(&head[1..].join(" "), o)?,
            _ => return Err(CommandError::PositionForm),
        };
        let mut game = Game::new(start);
        for (i, w) in words.iter().skip(moves_at.map_or(words.len(), |i| i + 1)).enumerate() {
            let bad = |reason: String| CommandError::Move { n: i + 1, text: clip(w), reason };
            let m = game.position().parse_move(w).map_err(|e| bad(e.to_string()))?;
            game.play(m).map_err(|e| bad(e.to_string()))?;
        }
        Ok(game)
    }

    /// The player for the next search, built when missing.
    fn take_player(&mut self, o: &Options) -> Result<Box<dyn Player<S> + Send>, CommandError> {
        if let Some(p) = self.player.take() {
            return Ok(p);
        }
        let mut spec = PlayerSpec::parse_unlimited(&o.player).map_err(CommandError::Player)?;
        if let PlayerSpec::AlphaBeta(ab) = &mut spec {
            ab.hash_mb = o.hash;
            ab.threads = o.threads;
            if let Some(v) = &o.values {
                ab.values = Some(v.into());
            }
            if let Some(f) = &o.eval_file {
                ab.eval = EvalChoice::Nnue(f.into());
            }
            if let Some(d) = &o.tablebase_path {
                ab.tablebases = Some(d.into());
            }
        }
        Ok(S::build_player(&spec)?)
    }
}

impl<S: ServeGame> Served for Table<S> {
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

    fn new_game(&mut self, o: &Options) {
        if let Some(p) = &mut self.player {
            p.new_game();
        }
        self.game = S::start(o).ok().map(Game::new);
    }

    fn clear_hash(&mut self) {
        if let Some(p) = &mut self.player {
            p.new_game();
        }
    }

    fn drop_player(&mut self) {
        self.player = None;
    }

    fn position(&mut self, words: &[&str], o: &Options) -> Result<(), CommandError> {
        let read = Self::read_position(words, o);
        self.game = read.as_ref().ok().cloned();
        read.map(drop)
    }

    fn go(&mut self, words: &[&str], o: &Options, out: &Out) -> std::io::Result<()> {
        let Some(game) = self.game.clone() else {
            say(out, "info string error: go: no valid position (send 'position' first)")?;
            return say(out, "bestmove 0000");
        };
        if let Status::Over(o) = game.status() {
            say(out, &format!("info string the game is over: {o}"))?;
            return say(out, "bestmove 0000");
        }
        let go = match parse_go(words, game.position()) {
            Ok(g) => g,
            Err(e) => {
                say(out, &format!("info string error: {e}"))?;
                return say(out, "bestmove 0000");
            }
        };
        // No limit at all: search until stopped, as `go infinite` does.
        let go = if go.has_limit() { go } else { Go { infinite: true, ..go } };
        let infinite = go.infinite;
        let mut player = match self.take_player(o) {
            Ok(p) => p,
            Err(e) => {
                say(out, &format!("info string error: {e}"))?;
                return say(out, "bestmove 0000");
            }
        };
        // Which player and evaluation answer, so that a harness's log says what it measured.
        let eval = player.evaluation(game.position()).map(|e| format!(", {e}")).unwrap_or_default();
        say(out, &format!("info string player {}{eval}", player.name()))?;
        if let Some(v) = player.tablebase_value(game.position()) {
            say(out, &format!("info string tablebase {v}"))?;
        }
        let stop = Arc::new(AtomicBool::new(false));
        player.set_stop_flag(stop.clone());
        let out = out.clone();
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
                    say(&out, &format!("bestmove {}", game.position().move_text(c.mv)))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer into a shared buffer, to read a session's replies.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(b)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The replies to a script of commands (a `go` is followed by a command that waits for it).
    fn session(game: GameId, script: &[&str]) -> Vec<String> {
        let out = Buffer::default();
        let input = script.join("\n");
        let opts = ServeOptions { player: "ab".into(), game };
        serve(std::io::Cursor::new(input), Box::new(out.clone()), &opts).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_search_names_its_player_and_evaluation_and_the_default_is_the_strongest() {
        let run = |game: GameId, setup: &[&str]| {
            let out = Buffer::default();
            let mut script = vec!["uci"];
            script.extend(setup);
            script.extend(["position startpos", "go depth 1", "isready"]);
            let opts = ServeOptions::default();
            let opts = ServeOptions { game, ..opts };
            serve(std::io::Cursor::new(script.join("\n")), Box::new(out.clone()), &opts).unwrap();
            let bytes = out.0.lock().unwrap().clone();
            String::from_utf8(bytes).unwrap()
        };
        let five = run(GameId::FiveUp(Ruleset::FiveUp), &[]);
        assert!(five.contains("option name Player type string default ab:eval=auto"), "{five}");
        let named =
            |text: &str, eval: &str| text.lines().any(|l| l.starts_with("info string player ab:") && l.ends_with(eval));
        assert!(named(&five, ", NNUE, the network shipped for fiveup (eval=auto)"), "{five}");
        let hand = run(GameId::FiveUp(Ruleset::FiveUp), &["setoption name Player value ab:eval=hand"]);
        assert!(named(&hand, ", hand evaluation"), "{hand}");
        let qa = run(GameId::QuasiAlice, &[]);
        assert!(named(&qa, ", hand evaluation (measured piece values)"), "{qa}");
    }

    fn qa_after(moves: &[&str]) -> crate::quasi_alice::Position {
        let mut p = crate::quasi_alice::Position::start();
        for m in moves {
            p.make(p.parse_move(m).unwrap());
        }
        p
    }

    #[test]
    fn uci_variant_quasi_alice_serves_the_game_in_its_text() {
        let lines = session(
            GameId::FiveUp(Ruleset::FiveUp),
            &[
                "uci",
                "setoption name UCI_Variant value quasi-alice",
                "position startpos moves 1e2e4>3",
                "go depth 2",
                // Waits for the search (the end of input would stop it).
                "ucinewgame",
            ],
        );
        let variant = lines.iter().find(|l| l.starts_with("option name UCI_Variant")).unwrap();
        assert!(
            variant.ends_with("var fiveup var fiveup-2001 var raumschach var quasi-alice var mixed3d"),
            "{variant}"
        );
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        let best = lines.iter().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
        let pos = qa_after(&["1e2e4>3"]);
        pos.parse_move(best).unwrap_or_else(|e| panic!("{best}: {e}"));
        let info = lines.iter().find(|l| l.starts_with("info depth 2 ")).expect("an info line at depth 2");
        let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert_eq!(pv[0], best, "{info}");
    }

    #[test]
    fn quasi_alice_positions_from_text_searchmoves_and_players() {
        let text = qa_after(&["1e2e4>3", "1d7d5>3"]).to_text();
        let lines = session(
            GameId::QuasiAlice,
            &[
                &format!("position fen {text} moves 3e4d5>1"),
                "go depth 1 searchmoves 1d8d5>3",
                "setoption name Player value random:seed=2",
                "position startpos",
                "go",
                "ucinewgame",
                // Back to the 5x5x5 game: its text again.
                "setoption name UCI_Variant value fiveup",
                "position startpos moves Dc2Cc2",
                "go depth 1",
                // Waits for the search (the end of input would stop it).
                "ucinewgame",
            ],
        );
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        let best: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("bestmove ")).collect();
        assert_eq!(best.len(), 3, "{lines:?}");
        assert_eq!(best[0], "1d8d5>3");
        crate::quasi_alice::Position::start().parse_move(best[1]).unwrap();
        assert!(best[2].starts_with('A') || best[2].starts_with('B'), "a black 5x5x5 move: {lines:?}");
    }

    #[test]
    fn bad_quasi_alice_input_is_one_line_and_the_session_goes_on() {
        let lines = session(
            GameId::QuasiAlice,
            &[
                "setoption name UCI_Variant value chess",
                "position fen 8/8 w - - 0 1",
                "go depth 1",
                "position startpos moves 1e2e4>3 1e2e4>3",
                "position startpos moves Dc2Cc2",
                "position startpos",
                "go depth 1 searchmoves Dc2Cc2",
                "setoption name Hypercylinder value true",
                "setoption name Player value mcts:ab,sims=8",
                "position startpos",
                "go depth 1",
                // Waits for the search (the end of input would stop it).
                "ucinewgame",
            ],
        );
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error: ")).collect();
        assert_eq!(errors.len(), 8, "{lines:?}");
        let want = [
            "setoption UCI_Variant: unknown ruleset 'chess' (expected fiveup, fiveup-2001, raumschach, quasi-alice or mixed3d)",
            "position: a quasi-alice position has 4 boards",
            "go: no valid position",
            "position: move 2 '1e2e4>3': ",
            "position: move 1 'Dc2Cc2': ",
            "go: searchmoves 'Dc2Cc2': ",
            "setoption Hypercylinder: quasi-alice has no hypercylinder board",
            "mcts:ab (alpha-beta leaf values) is not available for quasi-alice yet",
        ];
        for (e, w) in errors.iter().zip(want) {
            assert!(e.contains(w), "{e} lacks {w}");
        }
        assert_eq!(lines.iter().filter(|l| *l == "bestmove 0000").count(), 3, "{lines:?}");
    }
}
