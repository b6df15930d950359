//! `fiveup play`: a game against a player spec in the terminal, one line of input at a time (so
//! it can be scripted through a pipe).

use super::common::PositionArgs;
use anyhow::{bail, Result};
use clap::Args;
use fiveup::eval::TextRecord;
use fiveup::game::line::move_number_label;
use fiveup::game::Color;
use fiveup::game::{EndRule, Game, Outcome, Status};
use fiveup::player::spec::PlayerSpec;
use fiveup::player::Player;
use fiveup::rules::notation::{coordinate, diagram, figurine, parse_move, MoveTextError};
use fiveup::rules::{Cell, Kind, Move, Position, Ruleset};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// `fiveup play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The opponent: a player spec such as `ab:depth=3` or `mcts:ab,sims=200` (default: depth 4
    /// with the stronger evaluation of the ruleset, the shipped network for Five Up).
    #[arg(long, value_name = "SPEC", default_value = fiveup::player::spec::DEFAULT_PLAYER)]
    pub engine: String,
    /// Your side: white or black.
    #[arg(long = "as", value_name = "SIDE", default_value = "white")]
    pub side: String,
    /// Save the game record to this file when the session ends, however it ends (quit, resign,
    /// end of input, an error, Ctrl-C). An existing FILE is refused unless --force; a folder, or
    /// a folder that does not exist or takes no file, is refused before the game.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Let --save replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

const HELP: &str = "enter a move in either notation (P-Cc2, Cc2, N-Db3/S or Dc2Cc2, Eb1Db3/S), or a command:
  moves      list the legal moves
  show       the board, position text and status
  hint       ask the engine for a move (not played)
  undo       take back your last move (and the engine's reply)
  legend     the piece letters and which level is which
  save FILE  save the game so far (save FILE --force replaces an existing file)
  resign     give up the game (it is saved if --save was given) and leave
  quit       leave (end of input does the same; the game is saved if --save was given)
  help       this text";

/// The longest piece of an input line echoed back in a message.
const ECHO_MAX: usize = 40;
/// The longest file name echoed back in a message.
const NAME_MAX: usize = 200;

/// The record of the game so far and where `--save` writes it, kept for Ctrl-C.
static AUTOSAVE: std::sync::Mutex<Option<(PathBuf, String)>> = std::sync::Mutex::new(None);

/// Runs a session reading commands from stdin. With `--save`, Ctrl-C (or SIGTERM) saves the game
/// so far before the process ends.
pub fn run(a: &PlayArgs, out: &mut dyn Write) -> Result<()> {
    if a.save.is_some() {
        let installed = ctrlc::set_handler(|| {
            let saved = AUTOSAVE.lock().ok().and_then(|g| g.clone());
            match saved {
                Some((path, text)) => match fiveup::fsutil::write_atomic(&path, text.as_bytes()) {
                    Ok(()) => eprintln!("\ninterrupted; the game so far is saved to {}", path.display()),
                    Err(e) => eprintln!("\ninterrupted; the game could not be saved to {}: {e}", path.display()),
                },
                None => eprintln!("\ninterrupted before the game started; nothing to save"),
            }
            super::common::exit_at_once(130);
        });
        if let Err(e) = installed {
            tracing::warn!("no Ctrl-C handler ({e}); the game is saved on quit, resign or end of input");
        }
    }
    let stdin = std::io::stdin();
    session(a, &mut stdin.lock(), out)
}

/// Runs a session reading commands from `input`. The game is saved to `--save` on every way out:
/// quit, resign, end of input, a read error, an engine error.
pub fn session(a: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    a.pos.variant("play")?;
    let human = match a.side.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        s => bail!("--as {}: expected white or black", cut(s)),
    };
    if let Some(p) = &a.save {
        fiveup::fsutil::check_output(p, &[], a.force).map_err(|e| anyhow::anyhow!("--save: {e}"))?;
    }
    let spec: PlayerSpec = a.engine.parse()?;
    let mut engine = spec.build()?;
    engine.new_game();
    let game = Game::new(a.pos.position("play")?);
    let mut s = Session {
        game,
        human,
        engine,
        name: spec.to_string(),
        announced: false,
        resigned: None,
        autosave: a.save.clone(),
    };
    let played = s.play(input, out);
    let saved = match &a.save {
        Some(p) => s.save(p).map(|()| {
            // The file is written; a closed output must not turn that into a failure.
            let _ = writeln!(out, "saved to {}", p.display());
        }),
        None => Ok(()),
    };
    match (played, saved) {
        (Err(e), Err(se)) => bail!("{e:#}; the game could not be saved either: {se:#}"),
        (played, saved) => played.and(saved),
    }
}

/// At most [`ECHO_MAX`] characters of `text`, with `...` when cut.
fn cut(text: &str) -> String {
    cut_to(text, ECHO_MAX)
}

/// At most `max` characters of `text`, with `...` when cut.
fn cut_to(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// The piece letters of `ruleset` and their names, upper case for white.
fn legend(ruleset: Ruleset) -> String {
    use Kind::*;
    let kinds: &[Kind] = if ruleset.is_fiveup() {
        &[King, Queen, Rook, Bishop, Knight, Unicorn, Silver, Wizard, Guard, Pawn]
    } else {
        &[King, Queen, Rook, Bishop, Knight, RUnicorn, Pawn]
    };
    let names: Vec<String> = kinds.iter().map(|k| format!("{} {}", k.letter(), k.name())).collect();
    format!("pieces: {}; upper case white, lower case black, _ empty", names.join(", "))
}

/// Which level is which and where each side starts, for `ruleset`, and how the board is drawn for
/// `view`.
fn orientation(ruleset: Ruleset, view: Color) -> String {
    let levels = if ruleset.is_fiveup() {
        "levels A-E are drawn side by side; A is the top level, E the bottom: \
         white starts on levels D-E (ranks 1-2), black on A-B (ranks 4-5); \
         pawns move up (white toward A, black toward E) or forward (white toward rank 5)"
    } else {
        "levels A-E are drawn side by side; A is the bottom level, E the top: \
         white starts on levels A-B (ranks 1-2), black on D-E (ranks 4-5); \
         pawns move up (white toward E, black toward A) or forward (white toward rank 5)"
    };
    let side = match view {
        Color::White => "drawn from white's side: rank 5 at the top, file a on the left",
        Color::Black => "drawn from black's side: rank 1 at the top, file e on the left",
    };
    format!("{levels}\n{side}")
}

/// [`diagram_for`] with the last move marked: its destination in brackets (`[N]`), its origin,
/// now empty, as `*`.
fn diagram_marked(pos: &Position, view: Color, last: Option<fiveup::rules::Move>) -> String {
    let text = diagram_for(pos, view);
    let Some(m) = last else { return text };
    let mut lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    // Line and column of a cell's character: five levels side by side, each `R |x|x|x|x|x|`
    // (14 characters with the space between levels).
    let at = |c: Cell| {
        let (row, col) = match view {
            Color::White => (4 - c.rank(), c.file()),
            Color::Black => (c.rank(), 4 - c.file()),
        };
        (row as usize, (c.layer() * 14 + 3 + 2 * col) as usize)
    };
    let mut set = |(row, col): (usize, usize), ch: char| {
        if let Some(x) = lines.get_mut(row).and_then(|l| l.get_mut(col)) {
            *x = ch;
        }
    };
    let (from, to) = (m.from(), m.to());
    if from != to && pos.piece_at(from).is_none() {
        set(at(from), '*');
    }
    let (row, col) = at(to);
    set((row, col - 1), '[');
    set((row, col + 1), ']');
    lines.into_iter().map(|l| l.into_iter().collect::<String>() + "\n").collect()
}

/// The board as [`diagram`] draws it, but from black's side: ranks 1 to 5 from the top and files
/// e to a from the left, each level still labelled A-E.
fn diagram_for(pos: &Position, view: Color) -> String {
    let white = diagram(pos);
    if view == Color::White {
        return white;
    }
    let mut out = String::new();
    for rank in 0..5 {
        let rows: Vec<String> = (0..5)
            .map(|layer| {
                let cells: String = (0..5)
                    .rev()
                    .map(|file| {
                        let c = Cell::from_coords(layer, rank, file).expect("coordinates are in range");
                        format!("{}|", pos.piece_at(c).map_or('_', |p| p.char()))
                    })
                    .collect();
                format!("{} |{cells}", rank + 1)
            })
            .collect();
        out += &rows.join(" ");
        out.push('\n');
    }
    let labels: Vec<String> = ["A", "B", "C", "D", "E"].iter().map(|l| format!("{l}  e d c b a ")).collect();
    out += labels.join(" ").trim_end();
    out.push('\n');
    // The status line (side to move, reserves, clocks) is the same from either side.
    if let Some(status) = white.lines().last() {
        out += status;
        out.push('\n');
    }
    out
}

struct Session {
    game: Game<Position>,
    human: Color,
    engine: Box<dyn Player + Send>,
    name: String,
    /// Whether the end of the game has been announced.
    announced: bool,
    /// The result when the human resigned.
    resigned: Option<Outcome>,
    /// Where Ctrl-C saves the game so far ([`AUTOSAVE`]).
    autosave: Option<PathBuf>,
}

impl Session {
    /// Reads and runs commands until quit, resign or the end of input.
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
        writeln!(out, "you play {} against {}; type help for commands", self.human.name(), self.name)?;
        let ruleset = self.game.position().ruleset();
        writeln!(out, "{}\n{}", legend(ruleset), orientation(ruleset, self.human))?;
        self.show(out)?;
        let mut bytes = Vec::new();
        loop {
            self.engine_moves(out)?;
            if let Some(path) = &self.autosave {
                if let Ok(mut g) = AUTOSAVE.lock() {
                    *g = Some((path.clone(), self.record().to_text()));
                }
            }
            write!(out, "{} {}> ", move_number_label(self.game.position()), self.game.position().side().name())?;
            out.flush()?;
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let Ok(line) = std::str::from_utf8(&bytes) else {
                writeln!(out, "unreadable input: the line is not UTF-8 text (ignored; type help for commands)")?;
                continue;
            };
            let cmd = line.trim();
            let (word, rest) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
            match word {
                "" => {}
                "quit" | "exit" => return Ok(()),
                "resign" => return self.resign(out),
                "help" | "?" => writeln!(out, "{HELP}")?,
                "legend" => writeln!(out, "{}\n{}", legend(ruleset), orientation(ruleset, self.human))?,
                "show" => self.show(out)?,
                "moves" => self.list_moves(out)?,
                "hint" => self.hint(out)?,
                "undo" => self.undo(out)?,
                "save" => self.save_command(rest, out)?,
                _ => self.human_move(cmd, out)?,
            }
        }
    }

    /// `save FILE [--force]` (FILE may contain spaces; `--force` may also come first).
    fn save_command(&self, rest: &str, out: &mut dyn Write) -> Result<()> {
        let rest = rest.trim();
        let (file, force) = match (rest.strip_suffix("--force"), rest.strip_prefix("--force")) {
            (Some(f), _) if f.is_empty() || f.ends_with(char::is_whitespace) => (f.trim(), true),
            (_, Some(f)) if f.starts_with(char::is_whitespace) => (f.trim(), true),
            _ => (rest, false),
        };
        if file.is_empty() {
            writeln!(out, "save needs a file name: save FILE (or save FILE --force to replace a file)")?;
            return Ok(());
        }
        let path = Path::new(file);
        if path.exists() && !force {
            let name = cut_to(file, NAME_MAX);
            writeln!(out, "not saved: {name} exists; use save {name} --force to replace it")?;
            return Ok(());
        }
        match self.save(path) {
            Ok(()) => writeln!(out, "saved to {}", cut_to(file, NAME_MAX))?,
            Err(e) => writeln!(out, "could not save: {e:#}")?,
        }
        Ok(())
    }

    /// The human gives up: the engine wins by resignation (unless the game is already over).
    fn resign(&mut self, out: &mut dyn Write) -> Result<()> {
        if let Status::Over(o) = self.game.status() {
            writeln!(out, "the game is already over ({o}); leaving")?;
            return Ok(());
        }
        let o = Outcome::win(self.human.flip(), EndRule::Resignation);
        self.resigned = Some(o);
        writeln!(out, "you resign: {o} ({})", o.result())?;
        Ok(())
    }

    fn show(&self, out: &mut dyn Write) -> Result<()> {
        let last = self.game.moves().last().copied();
        write!(out, "{}", diagram_marked(self.game.position(), self.human, last))?;
        if let Some(m) = last {
            writeln!(out, "last move {}: [ ] its destination, * its origin", coordinate(m))?;
        }
        writeln!(out, "position: {}", self.game.position().to_text())?;
        writeln!(out, "status: {}", self.game.status())?;
        Ok(())
    }

    /// Lets the engine move while it is its turn; announces the end of the game once.
    fn engine_moves(&mut self, out: &mut dyn Write) -> Result<()> {
        loop {
            if let Status::Over(o) = self.game.status() {
                if !self.announced {
                    writeln!(out, "game over: {o} ({}); undo, save FILE or quit", o.result())?;
                    self.announced = true;
                }
                return Ok(());
            }
            if self.game.position().side() == self.human {
                return Ok(());
            }
            let c = self.engine.choose(self.game.position(), self.game.history())?;
            let label = move_number_label(self.game.position());
            let text = figurine(self.game.position(), c.mv);
            self.game.play(c.mv)?;
            // The engine's score is from its own side: say so.
            let score = c.info.score.map(|s| format!(", {s} from the engine's side")).unwrap_or_default();
            writeln!(out, "{} plays {label} {text} ({}{score})", self.name, coordinate(c.mv))?;
            self.show(out)?;
        }
    }

    fn human_move(&mut self, text: &str, out: &mut dyn Write) -> Result<()> {
        if let Status::Over(o) = self.game.status() {
            writeln!(out, "the game is over ({o}); undo, save FILE or quit")?;
            return Ok(());
        }
        let pos = self.game.position();
        match parse_move(pos, text) {
            Ok(m) => {
                let label = move_number_label(pos);
                let fig = figurine(pos, m);
                self.game.play(m)?;
                writeln!(out, "you play {label} {fig} ({})", coordinate(m))?;
                self.show(out)?;
            }
            Err(MoveTextError::Ambiguous(ms)) => {
                let options: Vec<String> =
                    ms.iter().map(|&m| format!("{} ({})", figurine(pos, m), coordinate(m))).collect();
                let text = cut(text);
                writeln!(out, "ambiguous move '{text}': it could be {}; name the origin cell", options.join(" or "))?;
            }
            Err(e) => {
                // The parser's message may quote the whole input again.
                let why = cut_to(&e.to_string(), 2 * ECHO_MAX);
                writeln!(out, "illegal move '{}': {why} (type moves for the list, help for commands)", cut(text))?
            }
        }
        Ok(())
    }

    fn list_moves(&self, out: &mut dyn Write) -> Result<()> {
        let pos = self.game.position();
        let mut moves: Vec<Move> = pos.legal_moves();
        moves.sort_by_key(|m| m.to_string());
        let words: Vec<String> = moves.iter().map(|&m| figurine(pos, m)).collect();
        for chunk in words.chunks(8) {
            writeln!(out, "  {}", chunk.join("  "))?;
        }
        writeln!(out, "{} legal moves", moves.len())?;
        Ok(())
    }

    fn hint(&mut self, out: &mut dyn Write) -> Result<()> {
        if self.game.status().is_over() {
            writeln!(out, "the game is over")?;
            return Ok(());
        }
        let c = self.engine.choose(self.game.position(), self.game.history())?;
        let pos = self.game.position();
        writeln!(out, "hint: {} {} ({})", move_number_label(pos), figurine(pos, c.mv), coordinate(c.mv))?;
        Ok(())
    }

    /// Takes back moves until it is the human's turn again, at least one human move undone.
    fn undo(&mut self, out: &mut dyn Write) -> Result<()> {
        let mut trial = self.game.clone();
        let mut undone = Vec::new();
        while let Some(m) = trial.undo() {
            undone.push(m);
            if trial.position().side() == self.human {
                break;
            }
        }
        if undone.is_empty() || trial.position().side() != self.human {
            writeln!(out, "nothing to undo")?;
            return Ok(());
        }
        self.game = trial;
        self.announced = false;
        writeln!(out, "took back {} move{}", undone.len(), if undone.len() == 1 { "" } else { "s" })?;
        self.show(out)
    }

    fn save(&self, path: &Path) -> Result<()> {
        fiveup::fsutil::check_parent(path)?;
        fiveup::fsutil::write_atomic(path, self.record().to_text().as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(())
    }

    /// The game so far as a record.
    fn record(&self) -> TextRecord {
        let (white, black) = match self.human {
            Color::White => ("human".to_string(), self.name.clone()),
            Color::Black => (self.name.clone(), "human".to_string()),
        };
        TextRecord {
            event: "play".into(),
            white,
            black,
            start: self.game.start().clone(),
            moves: self.game.moves().to_vec(),
            opening_plies: 0,
            outcome: self.resigned.or(self.game.status().outcome()),
            detail: None,
            tags: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    #[test]
    fn the_last_move_is_marked_on_the_board_from_either_side() {
        let mut pos = Position::startpos(fiveup::rules::Variant::default());
        let m = parse_move(&pos, "Dc2Cc2").unwrap();
        pos.make(m);
        // From white's side: the pawn on level C in brackets, its old cell on level D a `*`.
        let white = diagram_marked(&pos, Color::White, Some(m));
        assert!(white.contains("2 |_|_|_|_|_| 2 |_|_|_|_|_| 2 |_|_[P]_|_| 2 |P|P|*|P|P| 2 |P|P|P|P|P|"), "{white}");
        // From black's side the files run e to a: file c stays in the middle.
        let black = diagram_marked(&pos, Color::Black, Some(m));
        assert!(black.contains("2 |_|_|_|_|_| 2 |_|_|_|_|_| 2 |_|_[P]_|_| 2 |P|P|*|P|P| 2 |P|P|P|P|P|"), "{black}");
        // A move on the edge file: the bracket replaces the frame's bar.
        let mut edge = Position::startpos(fiveup::rules::Variant::default());
        let m = parse_move(&edge, "Da2Ca2").unwrap();
        edge.make(m);
        assert!(diagram_marked(&edge, Color::White, Some(m)).contains(" 2 [P]_|_|_|_| 2 |*|P|P|P|P| "), "edge");
        assert_eq!(diagram_marked(&pos, Color::White, None), diagram_for(&pos, Color::White));
    }

    fn run_script(flags: &[&str], script: &str) -> Result<String> {
        let Command::Play(a) = Cli::try_parse_from([&["fiveup", "play"], flags].concat()).unwrap().command else {
            panic!("not play")
        };
        let mut out = Vec::new();
        session(&a, &mut script.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn session_reads_moves_and_commands_until_the_end_of_input() {
        let out = run_script(&["--engine", "random:seed=1"], "Cc2\nsave\nbogus words\n").unwrap();
        assert!(out.contains("you play 1. Cc2 (Dc2Cc2)") && out.contains("random:seed=1 plays 1... "), "{out}");
        assert!(out.contains("save needs a file name") && out.contains("illegal move 'bogus words'"), "{out}");
        assert!(run_script(&["--as", "green"], "").unwrap_err().to_string().contains("expected white or black"));
        assert!(run_script(&["--engine", "nothing"], "").is_err());
    }

    #[test]
    fn long_input_is_cut_in_messages_and_save_takes_force_on_either_side() {
        let long = "x".repeat(10_000);
        let out = run_script(&["--engine", "random"], &format!("{long}\nsave --force\n")).unwrap();
        let line = out.lines().find(|l| l.contains("illegal move")).expect("an illegal-move line");
        assert!(line.len() < 200 && line.contains(&format!("'{}...'", "x".repeat(ECHO_MAX))), "{line}");
        assert!(out.contains("save needs a file name"), "--force alone names no file: {out}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a game.pgn");
        std::fs::write(&path, "old").unwrap();
        let script = format!("save --force {}\n", path.display());
        let out = run_script(&["--engine", "random"], &script).unwrap();
        assert!(out.contains("saved to") && std::fs::read_to_string(&path).unwrap().contains("[Event "), "{out}");
    }
}
