//! Opening sets for matches and tournaments: a start position and the moves played from it
//! before the players take over.
//!
//! Sources ([`OpeningSource`], parsed from `--openings`):
//! - `startpos`: one opening, the variant's start with no moves;
//! - `random:K`: openings of `K` uniformly random legal plies from the start, opening `i` drawn
//!   from ChaCha8 stream `i` of the seed (so it depends only on the seed and its index, not on how
//!   many are drawn); a line that ends the game (mate, stalemate, a draw rule) is redrawn;
//! - a file: one opening per line; `#` starts a comment. A line is a move list from the start
//!   (`1. P-Cc2 P-Cc4`), or a position text (it contains `|`), optionally followed by `;` and a
//!   move list from that position. Openings are used in file order, cycling when more are needed.

use crate::game::{Game, LineError, State, Status};
use crate::rules::notation::{MoveTextError, PositionTextError};
use crate::rules::{Position, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A start position of a game `S` (by default the 5x5x5 games) and the moves played from it
/// before the players take over.
#[derive(Clone, Debug)]
pub struct Opening<S: State = Position> {
    /// The start position.
    pub start: S,
    /// The opening moves, legal in sequence from `start`.
    pub moves: Vec<S::Move>,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos(variant: Variant) -> Opening {
        Opening { start: Position::startpos(variant), moves: Vec::new() }
    }
}

impl<S: State + Clone> Opening<S> {
    /// The position after the opening moves.
    pub fn position(&self) -> S {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.make(m);
        }
        p
    }
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The start position only.
    Startpos,
    /// `K` random legal plies from the start.
    Random {
        /// Plies per opening.
        plies: usize,
    },
    /// A file of openings (see the module documentation).
    File(PathBuf),
}

/// Why openings could not be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The `--openings` text is not a known form.
    #[error("bad openings '{0}': expected startpos, random:K (K plies) or a file path")]
    Spec(String),
    /// The file could not be read.
    #[error("openings file {0}: {1}")]
    Io(String, String),
    /// A line of the file is not an opening.
    #[error("openings file {file}, line {line}: {reason}")]
    Line {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: LineFault,
    },
    /// The file has no opening.
    #[error("openings file {0} has no opening")]
    Empty(String),
    /// No random line of that length avoids the end of the game.
    #[error("could not find a random opening of {0} plies that does not end the game")]
    NoRandomLine(usize),
}

/// Longest random opening accepted.
pub const MAX_RANDOM_PLIES: usize = 200;

impl FromStr for OpeningSource {
    type Err = OpeningError;

    fn from_str(s: &str) -> Result<Self, OpeningError> {
        let t = s.trim();
        if t == "startpos" {
            return Ok(OpeningSource::Startpos);
        }
        if let Some(k) = t.strip_prefix("random:") {
            return match k.parse::<usize>() {
                Ok(plies) if plies <= MAX_RANDOM_PLIES => Ok(OpeningSource::Random { plies }),
                _ => Err(OpeningError::Spec(s.to_string())),
            };
        }
        if t.is_empty() || t == "random" {
            return Err(OpeningError::Spec(s.to_string()));
        }
        Ok(OpeningSource::File(PathBuf::from(t)))
    }
}

impl std::fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningSource::Startpos => f.write_str("startpos"),
            OpeningSource::Random { plies } => write!(f, "random:{plies}"),
            OpeningSource::File(p) => write!(f, "{}", p.display()),
        }
    }
}

impl OpeningSource {
    /// `count` openings for games from `start`, seeded by `seed` (random openings only).
    pub fn openings(&self, start: &Position, count: usize, seed: u64) -> Result<Vec<Opening>, OpeningError> {
        match self {
            OpeningSource::File(path) => {
                let all = read_openings(path, start.variant())?;
                Ok(all.iter().cycle().take(count).cloned().collect())
            }
            _ => self.openings_of(start, count, seed),
        }
    }
}

/// The openings of a source drawn one at a time, so that a long match holds no list of them all.
#[derive(Clone, Debug)]
pub enum OpeningStream<S: State = Position> {
    /// The same opening every time.
    Fixed(Opening<S>),
    /// [`random_opening`] number `index` of `seed`.
    Random {
        /// The start position.
        start: S,
        /// Random plies.
        plies: usize,
        /// Seed of the set.
        seed: u64,
        /// Opening 0, returned for any index whose line cannot be found.
        first: Box<Opening<S>>,
    },
    /// A file's openings, cycled.
    Cycle(Vec<Opening<S>>),
}

impl<S: State + Clone> OpeningStream<S> {
    /// Opening number `index`: the same as element `index` of [`OpeningSource::openings`].
    pub fn get(&self, index: usize) -> Opening<S> {
        match self {
            OpeningStream::Fixed(o) => o.clone(),
            OpeningStream::Random { start, plies, seed, first } => {
                random_opening(start, *plies, *seed, index as u64).unwrap_or_else(|_| (**first).clone())
            }
            OpeningStream::Cycle(all) => all[index % all.len()].clone(),
        }
    }
}

impl OpeningSource {
    /// The openings for games from `start`, seeded by `seed`, drawn lazily; the file is read (and
    /// the first random line found) now, so a bad source fails before any game.
    pub fn stream(&self, start: &Position, seed: u64) -> Result<OpeningStream, OpeningError> {
        match self {
            OpeningSource::File(path) => Ok(OpeningStream::Cycle(read_openings(path, start.variant())?)),
            _ => self.stream_of(start, seed),
        }
    }

    /// [`OpeningSource::openings`] for any game: the start position and random openings
    /// (openings files are read for the 5x5x5 games only so far, and are refused here).
    pub fn openings_of<S: State + Clone>(
        &self,
        start: &S,
        count: usize,
        seed: u64,
    ) -> Result<Vec<Opening<S>>, OpeningError> {
        match self {
            OpeningSource::Startpos => Ok(vec![Opening { start: start.clone(), moves: Vec::new() }; count]),
            OpeningSource::Random { plies } => {
                (0..count).map(|i| random_opening(start, *plies, seed, i as u64)).collect()
            }
            OpeningSource::File(path) => Err(file_not_available(path, start)),
        }
    }

    /// [`OpeningSource::stream`] for any game: the start position and random openings (openings
    /// files are read for the 5x5x5 games only so far, and are refused here).
    pub fn stream_of<S: State + Clone>(&self, start: &S, seed: u64) -> Result<OpeningStream<S>, OpeningError> {
        Ok(match self {
            OpeningSource::Startpos => OpeningStream::Fixed(Opening { start: start.clone(), moves: Vec::new() }),
            OpeningSource::Random { plies } => OpeningStream::Random {
                start: start.clone(),
                plies: *plies,
                seed,
                first: Box::new(random_opening(start, *plies, seed, 0)?),
            },
            OpeningSource::File(path) => return Err(file_not_available(path, start)),
        })
    }
}

/// The refusal of an openings file for a game whose files are not read yet.
fn file_not_available<S: State>(path: &Path, start: &S) -> OpeningError {
    OpeningError::Io(
        path.display().to_string(),
        format!("openings files are not available for {} yet (use startpos or random:K)", start.game_name()),
    )
}

/// Opening `index` of the random set of `seed`: `plies` random legal plies from `start` drawn from
/// ChaCha8 stream `index`, redrawn while the line ends the game.
pub fn random_opening<S: State + Clone>(
    start: &S,
    plies: usize,
    seed: u64,
    index: u64,
) -> Result<Opening<S>, OpeningError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    'attempt: for _ in 0..1000 {
        let mut game = Game::new(start.clone());
        for _ in 0..plies {
            if game.status().is_over() {
                continue 'attempt;
            }
            let moves = crate::game::legal_moves(game.position());
            game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        if game.status().is_over() {
            continue;
        }
        return Ok(Opening { start: start.clone(), moves: game.moves().to_vec() });
    }
    Err(OpeningError::NoRandomLine(plies))
}

/// What is wrong with a line of an openings file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineFault {
    /// The position before `;` does not parse.
    #[error(transparent)]
    Position(#[from] PositionTextError),
    /// A move of the line is not legal (or not a move); boxed, as it is large.
    #[error(transparent)]
    Moves(Box<LineError<MoveTextError>>),
    /// The game is over after the line: nothing is left to play.
    #[error("the game is over after this opening ({0})")]
    Over(Status),
}

/// Reads an openings file (see the module documentation) for `variant`.
pub fn read_openings(path: &Path, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| OpeningError::Io(name.clone(), e.to_string()))?;
    let out = parse_openings(&text, variant).map_err(|(line, reason)| OpeningError::Line {
        file: name.clone(),
        line,
        reason,
    })?;
    if out.is_empty() {
        return Err(OpeningError::Empty(name));
    }
    Ok(out)
}

/// Parses openings text: the openings, or the 1-based line number and reason of the first bad line.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Opening>, (usize, LineFault)> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (start, moves) = if line.contains('|') {
            let (pos, moves) = line.split_once(';').unwrap_or((line, ""));
            let p = Position::from_text(pos.trim(), variant).map_err(|e| (i + 1, e.into()))?;
            (p, moves)
        } else {
            (Position::startpos(variant), line)
        };
        let mut game = Game::new(start.clone());
        game.play_line(moves).map_err(|e| (i + 1, LineFault::Moves(Box::new(e))))?;
        if game.status().is_over() {
            return Err((i + 1, LineFault::Over(game.status())));
        }
        out.push(Opening { start, moves: game.moves().to_vec() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;

    #[test]
    fn sources_parse() {
        assert_eq!("startpos".parse::<OpeningSource>().unwrap(), OpeningSource::Startpos);
        assert_eq!("random:8".parse::<OpeningSource>().unwrap(), OpeningSource::Random { plies: 8 });
        assert_eq!("book.txt".parse::<OpeningSource>().unwrap(), OpeningSource::File("book.txt".into()));
        for bad in ["random:x", "random:-1", "random:999", "", "random"] {
            assert!(bad.parse::<OpeningSource>().is_err(), "{bad}");
        }
        assert_eq!(OpeningSource::Random { plies: 4 }.to_string(), "random:4");
    }

    #[test]
    fn random_openings_depend_only_on_seed_and_index() {
        let start = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let src = OpeningSource::Random { plies: 6 };
        let a = src.openings(&start, 5, 42).unwrap();
        let b = src.openings(&start, 3, 42).unwrap();
        let c = src.openings(&start, 5, 43).unwrap();
        for i in 0..3 {
            assert_eq!(a[i].moves, b[i].moves);
            assert_eq!(a[i].moves.len(), 6);
        }
        assert_ne!(a[0].moves, a[1].moves);
        assert_ne!(a[0].moves, c[0].moves);
        // Every line is legal and leaves a game to play.
        for o in &a {
            let mut g = Game::new(o.start.clone());
            for &m in &o.moves {
                g.play(m).unwrap();
            }
            assert!(!g.status().is_over());
            assert_eq!(o.position().hash(), g.position().hash());
        }
    }

    #[test]
    fn opening_files_take_lines_and_positions() {
        let v = Variant::plain(Ruleset::FiveUp);
        let text = "# a book\n1. P-Cc2 P-Cc4\n\n\
            rnknr/ppp1p/5/5/5|ubqub/pp1pp/3p1/5/5|5/5/2p2/2P2/5|5/4B/1N3/PP1PP/UGQUB|5/5/5/PPPPP/RSKNR w Wwgs E1D1A5B5 - 0 4 ; 4. Cd2\n\
            Cc2 # trailing comment\n";
        let o = parse_openings(text, v).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[1].moves.len(), 1);
        assert_eq!(o[1].start.fullmove(), 4);
        let e = parse_openings("Cc2\n1. K-Aa1\n", v).unwrap_err();
        assert_eq!(e.0, 2);
        let mate = "1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++";
        assert!(parse_openings(mate, v).unwrap_err().1.to_string().contains("over"));
    }
}
