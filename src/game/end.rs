//! The end-of-game rules every game shares (docs/RULES.md §2): checkmate, stalemate, threefold
//! repetition, the fifty-move rule and bare kings, decided in one place for games, search and
//! self-play alike.
//!
//! Precedence when several apply after the same move: checkmate and stalemate first (a mate on the
//! hundredth ply is a mate), then bare kings, threefold repetition and the fifty-move rule.

use super::{Color, State};
use std::fmt;
use std::str::FromStr;

/// The rule (or tool setting) that ended a game; recorded with every finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// The side to move is in check and has no legal move; the other side wins.
    Checkmate,
    /// The side to move is not in check and has no legal move: a draw.
    Stalemate,
    /// The same position for the third time: a draw.
    Repetition,
    /// 100 plies without a capture or a pawn move: a draw.
    FiftyMoves,
    /// Only the two kings are left and neither side can still place a reserve piece: a draw.
    BareKings,
    /// A side resigned (a tool setting, never produced by [`super::Game::status`]).
    Resignation,
    /// A tool's adjudication rule, such as a ply cap (never produced by [`super::Game::status`]).
    Adjudication,
}

impl EndRule {
    /// Every rule, in a fixed order.
    pub const ALL: [EndRule; 7] = [
        EndRule::Checkmate,
        EndRule::Stalemate,
        EndRule::Repetition,
        EndRule::FiftyMoves,
        EndRule::BareKings,
        EndRule::Resignation,
        EndRule::Adjudication,
    ];

    /// Stable identifier for records (`checkmate`, `stalemate`, `repetition`, `fifty-moves`,
    /// `bare-kings`, `resignation`, `adjudication`).
    pub const fn name(self) -> &'static str {
        match self {
            EndRule::Checkmate => "checkmate",
            EndRule::Stalemate => "stalemate",
            EndRule::Repetition => "repetition",
            EndRule::FiftyMoves => "fifty-moves",
            EndRule::BareKings => "bare-kings",
            EndRule::Resignation => "resignation",
            EndRule::Adjudication => "adjudication",
        }
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown end-rule name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown end rule '{0}'")]
pub struct UnknownEndRule(pub String);

impl FromStr for EndRule {
    type Err = UnknownEndRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndRule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| UnknownEndRule(s.to_string()))
    }
}

/// How a game ended: the winner (`None` for a draw) and the rule that ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning side; `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that ended the game.
    pub rule: EndRule,
}

impl Outcome {
    /// A draw by `rule`.
    pub const fn draw(rule: EndRule) -> Outcome {
        Outcome { winner: None, rule }
    }

    /// A win for `winner` by `rule`.
    pub const fn win(winner: Color, rule: EndRule) -> Outcome {
        Outcome { winner: Some(winner), rule }
    }

    /// Win, draw, loss from `side`'s point of view (one-hot): the exact value search backs up
    /// from a finished position.
    pub fn wdl_for(self, side: Color) -> [f32; 3] {
        match self.winner {
            None => [0.0, 1.0, 0.0],
            Some(w) if w == side => [1.0, 0.0, 0.0],
            Some(_) => [0.0, 0.0, 1.0],
        }
    }

    /// The result as in game records: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// `checkmate, white wins`, `draw by threefold repetition`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.rule) {
            (Some(w), rule) => write!(f, "{}, {} wins", rule_words(rule), w.name()),
            (None, rule) => write!(f, "draw by {}", rule_words(rule)),
        }
    }
}

fn rule_words(rule: EndRule) -> &'static str {
    match rule {
        EndRule::Checkmate => "checkmate",
        EndRule::Stalemate => "stalemate",
        EndRule::Repetition => "threefold repetition",
        EndRule::FiftyMoves => "the fifty-move rule",
        EndRule::BareKings => "bare kings",
        EndRule::Resignation => "resignation",
        EndRule::Adjudication => "adjudication",
    }
}

/// The end-of-game rule that applies to `pos`, if any, in the order of the module comment.
/// `has_move`: whether the side to move has a legal move; `occurrences`: how many times the
/// position has occurred in the game, itself included. The one place these rules are decided:
/// games, search and self-play all call it.
pub fn outcome<S: State>(pos: &S, has_move: bool, occurrences: usize) -> Option<Outcome> {
    if !has_move {
        return Some(if pos.in_check() {
            Outcome::win(pos.side().flip(), EndRule::Checkmate)
        } else {
            Outcome::draw(EndRule::Stalemate)
        });
    }
    if pos.bare_kings() {
        Some(Outcome::draw(EndRule::BareKings))
    } else if occurrences >= 3 {
        Some(Outcome::draw(EndRule::Repetition))
    } else if pos.halfmove() >= 100 {
        Some(Outcome::draw(EndRule::FiftyMoves))
    } else {
        None
    }
}

/// How often the position with `hash` occurred before in its game: `history` holds the hashes of
/// the game's earlier positions, oldest first, without the current one. Only the last `halfmove`
/// entries can match (an irreversible move separates the rest). Saturates at 255. Search and
/// self-play keep bare hash lists rather than a [`Game`], so they count with this; [`outcome`]
/// takes the count plus one.
pub fn prior_occurrences(history: &[u64], hash: u64, halfmove: u32) -> u8 {
    let window = (halfmove as usize).min(history.len());
    history[history.len() - window..].iter().filter(|&&h| h == hash).count().min(255) as u8
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move is not in check and the game goes on.
    Ongoing,
    /// The side to move is in check and has a legal move.
    Check,
    /// The game is over.
    Over(Outcome),
}

impl Status {
    /// The outcome, if the game is over.
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Over(o) => Some(o),
            _ => None,
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        matches!(self, Status::Over(_))
    }
}

impl fmt::Display for Status {
    /// `ongoing`, `check`, or the outcome.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Check => f.write_str("check"),
            Status::Over(o) => o.fmt(f),
        }
    }
}
