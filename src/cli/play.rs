//! `fiveup play`: a game against a player spec in the terminal, one line of input at a time (so
//! it can be scripted through a pipe).

use super::PositionArgs;
use anyhow::{bail, Result};
use clap::Args;
use fiveup::eval::{GameRecord, RecordWriter};
use fiveup::player::{Player, PlayerSpec};
use fiveup::rules::game::{Game, Status};
use fiveup::rules::notation::{coordinate, diagram, figurine, move_number_label, parse_move, MoveTextError};
use fiveup::rules::{Color, Move};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// `fiveup play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The opponent: a player spec such as `ab:depth=3` or `mcts:ab,sims=200`.
    #[arg(long, value_name = "SPEC", default_value = "ab")]
    pub engine: String,
    /// Your side: white or black.
    #[arg(long = "as", value_name = "SIDE", default_value = "white")]
    pub side: String,
    /// Save the game record to this file when the session ends.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

const HELP: &str = "enter a move in either notation (P-Cc2, Cc2, N-Db3/S or Dc2Cc2, Eb1Db3/S), or a command:
  moves      list the legal moves
  show       the board, position text and status
  hint       ask the engine for a move (not played)
  undo       take back your last move (and the engine's reply)
  save FILE  save the game so far
  quit       leave (end of input does the same)
  help       this text";

/// Runs a session reading commands from stdin.
pub fn run(a: &PlayArgs, out: &mut dyn Write) -> Result<()> {
    let stdin = std::io::stdin();
    session(a, &mut stdin.lock(), out)
}

/// Runs a session reading commands from `input`.
pub fn session(a: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let human = match a.side.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        s => bail!("--as {s}: expected white or black"),
    };
    let spec: PlayerSpec = a.engine.parse()?;
    let mut engine = spec.build()?;
    engine.new_game();
    let mut s = Session { game: Game::new(a.pos.position()?), human, engine, name: spec.to_string(), announced: false };
    writeln!(out, "you play {} against {}; type help for commands", human.name(), s.name)?;
    s.show(out)?;
    let mut line = String::new();
    loop {
        s.engine_moves(out)?;
        write!(out, "{} {}> ", move_number_label(s.game.position()), s.game.position().side().name())?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        let cmd = line.trim();
        let (word, rest) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
        match word {
            "" => {}
            "quit" | "exit" => break,
            "help" | "?" => writeln!(out, "{HELP}")?,
            "show" => s.show(out)?,
            "moves" => s.list_moves(out)?,
            "hint" => s.hint(out)?,
            "undo" => s.undo(out)?,
            "save" if rest.trim().is_empty() => writeln!(out, "save needs a file name: save FILE")?,
            "save" => match s.save(Path::new(rest.trim())) {
                Ok(()) => writeln!(out, "saved to {}", rest.trim())?,
                Err(e) => writeln!(out, "could not save: {e:#}")?,
            },
            _ => s.human_move(cmd, out)?,
        }
    }
    if let Some(p) = &a.save {
        s.save(p)?;
        writeln!(out, "saved to {}", p.display())?;
    }
    Ok(())
}

struct Session {
    game: Game,
    human: Color,
    engine: Box<dyn Player + Send>,
    name: String,
    /// Whether the end of the game has been announced.
    announced: bool,
}

impl Session {
    fn show(&self, out: &mut dyn Write) -> Result<()> {
        write!(out, "{}", diagram(self.game.position()))?;
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
            let score = c.info.score.map(|s| format!(", {s}")).unwrap_or_default();
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
                writeln!(out, "ambiguous move '{text}': it could be {}; name the origin cell", options.join(" or "))?;
            }
            Err(e) => writeln!(out, "illegal move '{text}': {e} (type moves for the list, help for commands)")?,
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
        let (white, black) = match self.human {
            Color::White => ("human".to_string(), self.name.clone()),
            Color::Black => (self.name.clone(), "human".to_string()),
        };
        let record = GameRecord {
            event: "play".into(),
            white,
            black,
            start: self.game.start().clone(),
            moves: self.game.moves().to_vec(),
            opening_plies: 0,
            outcome: self.game.status().outcome(),
            detail: None,
            tags: vec![],
        };
        RecordWriter::create(path)?.write(&record)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

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
}
