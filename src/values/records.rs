//! The estimator's own game store: one JSON object per line (`games.jsonl` in the output folder),
//! appended and flushed as each game ends, so a killed run restarts where it stopped.
//!
//! Fields of a [`GameLine`]: `imbalance` (text form, e.g. `S/R`), `pair` and `game` (0 = A plays
//! white, 1 = A plays black), `a_color` (`white`/`black`), `engine` (the player spec both sides
//! used), `start` (position text, docs/RULES.md §6, after the shared opening), `moves` (coordinate form),
//! `result` (`1-0`, `0-1`, `1/2-1/2`), `rule` (the end rule's name, `adjudication` at the ply cap).
//!
//! Also read here, for the regression: self-play shards (`FIVEUPSH` files, see
//! [`crate::selfplay::shards`]; 5x5x5 games only).
//!
//! The store is the same for every game ([`ValuesGame`]): the position text and move text are the
//! game's own (the 5x5x5 coordinate form, or the Quasi-Alice `1e2e4>3`).

pub use super::game::ReplayGame;
use super::game::ValuesGame;
use crate::game::Color;
use crate::game::{EndRule, Outcome};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::path::Path;

/// One finished game of an imbalance match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// Imbalance text (`Q`, `S/R`).
    pub imbalance: String,
    /// Pair number within the imbalance.
    pub pair: usize,
    /// 0: A plays white; 1: A plays black.
    pub game: u8,
    /// A's colour, `white` or `black`.
    pub a_color: String,
    /// Player spec of both sides.
    pub engine: String,
    /// Start position text.
    pub start: String,
    /// Moves in coordinate form.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// End rule name.
    pub rule: String,
}

/// A record that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ValuesRecordError {
    /// I/O failure.
    #[error("{path}: {source}")]
    Io {
        /// File.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// A line or game that does not parse.
    #[error("{path}:{line}: {reason}")]
    Bad {
        /// File.
        path: String,
        /// Line (1-based; 0 for binary files).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game line that does not replay.
    #[error("{path}:{line}: {source}")]
    Replay {
        /// File.
        path: String,
        /// Line (1-based).
        line: usize,
        /// Why it does not replay.
        source: ReplayError,
    },
}

/// Why a [`GameLine`] does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start position text does not parse.
    #[error("{0}")]
    Start(String),
    /// A move is not a legal move of its position.
    #[error("move {text}: {reason}")]
    Move {
        /// The move as written.
        text: String,
        /// Why it is not a move.
        reason: String,
    },
    /// The result field is not `1-0`, `0-1` or `1/2-1/2`.
    #[error("bad result '{0}'")]
    Result(String),
}

impl GameLine {
    /// A line from a finished game.
    pub fn new<G: ValuesGame>(
        imbalance: &str,
        pair: usize,
        a_color: Color,
        engine: &str,
        start: &G,
        moves: &[G::Move],
        outcome: Outcome,
    ) -> GameLine {
        GameLine {
            imbalance: imbalance.to_string(),
            pair,
            game: if a_color == Color::White { 0 } else { 1 },
            a_color: a_color.name().to_string(),
            engine: engine.to_string(),
            start: start.to_text(),
            moves: moves.iter().map(|&m| G::store_move_text(m)).collect(),
            result: outcome.result().to_string(),
            rule: outcome.rule.name().to_string(),
        }
    }

    /// White's score from the result field; `None` if it is not a known result.
    pub fn white_score(&self) -> Option<f64> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "0-1" => Some(0.0),
            "1/2-1/2" => Some(0.5),
            _ => None,
        }
    }

    /// A's score in this game.
    pub fn a_score(&self) -> Option<f64> {
        let w = self.white_score()?;
        Some(if self.game == 0 { w } else { 1.0 - w })
    }

    /// The end rule, if known.
    pub fn end_rule(&self) -> Option<EndRule> {
        self.rule.parse().ok()
    }

    /// The game replayed under `rules`: every move checked.
    pub fn replay<G: ValuesGame>(&self, rules: G::Rules) -> Result<ReplayGame<G>, ReplayError> {
        let start = G::from_store_text(rules, &self.start).map_err(ReplayError::Start)?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for t in &self.moves {
            let m = pos.parse_store_move(t).map_err(|reason| ReplayError::Move { text: t.clone(), reason })?;
            crate::game::State::make(&mut pos, m);
            moves.push(m);
        }
        let white_score = self.white_score().ok_or_else(|| ReplayError::Result(self.result.clone()))?;
        Ok(ReplayGame { start, moves, white_score })
    }
}

/// Reads every line of a `games.jsonl` file (a missing file reads as empty; a torn last line, as
/// left by a killed run, is skipped).
pub fn read_lines(path: &Path) -> Result<Vec<GameLine>, ValuesRecordError> {
    let io = |source| ValuesRecordError::Io { path: path.display().to_string(), source };
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(e)),
    };
    let lines: Vec<String> = std::io::BufReader::new(f).lines().collect::<Result<_, _>>().map_err(io)?;
    let mut out = Vec::new();
    let n = lines.len();
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameLine>(l) {
            Ok(g) => out.push(g),
            Err(_) if i + 1 == n => break,
            Err(e) => {
                return Err(ValuesRecordError::Bad {
                    path: path.display().to_string(),
                    line: i + 1,
                    reason: e.to_string(),
                })
            }
        }
    }
    Ok(out)
}

/// Appends one line and flushes it.
pub fn append_line(file: &mut impl Write, line: &GameLine) -> std::io::Result<()> {
    let mut text = serde_json::to_string(line).map_err(std::io::Error::other)?;
    text.push('\n');
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// Reads games for the regression from a file: a `games.jsonl` store of this module (games of
/// other rules than `rules` fail to replay and are an error) or a self-play shard (games of other
/// rulesets are skipped; [`ValuesGame::shard_games`]).
pub fn read_games<G: ValuesGame>(path: &Path, rules: G::Rules) -> Result<Vec<ReplayGame<G>>, ValuesRecordError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| ValuesRecordError::Io { path: name.clone(), source })?;
    if bytes.starts_with(&crate::selfplay::shards::MAGIC) {
        return G::shard_games(rules, path, &bytes).map_err(|reason| ValuesRecordError::Bad {
            path: name.clone(),
            line: 0,
            reason,
        });
    }
    read_lines(path)?
        .iter()
        .enumerate()
        .map(|(i, g)| {
            g.replay(rules).map_err(|source| ValuesRecordError::Replay { path: name.clone(), line: i + 1, source })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Ruleset, Variant};

    #[test]
    fn lines_round_trip_and_torn_tail_is_skipped() {
        let v = Variant::plain(Ruleset::FiveUp);
        let start = Position::startpos(v);
        let m = start.legal_moves()[3];
        let line = GameLine::new(
            "Q",
            2,
            Color::Black,
            "ab:nodes=10",
            &start,
            &[m],
            Outcome::win(Color::White, EndRule::Checkmate),
        );
        assert_eq!(line.a_score(), Some(0.0));
        let dir = std::env::temp_dir().join(format!("fiveup-values-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let mut f = std::fs::File::create(&path).unwrap();
        append_line(&mut f, &line).unwrap();
        append_line(&mut f, &line).unwrap();
        f.write_all(b"{\"imbalance\": \"Q\", \"pa").unwrap();
        let back = read_lines(&path).unwrap();
        assert_eq!(back, vec![line.clone(), line.clone()]);
        let games = read_games::<Position>(&path, v).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec![m]);
        assert_eq!(games[0].white_score, 1.0);
        std::fs::remove_dir_all(&dir).ok();
    }
}
