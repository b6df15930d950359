//! Game-end rules as search needs them: [`crate::rules::game::outcome`] decides, and this module
//! maps its answer onto the record schema's [`Termination`] and a one-hot WDL.

use crate::rules::game::{outcome, EndRule};
use crate::rules::Position;
use serde::{Deserialize, Serialize};

/// The rule (or tool setting) that ended a game. Stored in records; the numbering is part of the
/// record schema, so variants are only ever appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position for the third time.
    Repetition,
    /// 100 plies without a capture or a pawn move.
    FiftyMove,
    /// Only the two kings are left and neither side can still place a reserve piece.
    BareKings,
    /// The self-play ply cap was reached (adjudicated a draw).
    PlyCap,
    /// A side resigned.
    Resignation,
}

/// Result of a finished position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terminal {
    /// Which rule ended the game.
    pub rule: Termination,
    /// Win, draw, loss for the side to move (one-hot).
    pub wdl: [f32; 3],
}

/// How often `hash` (the current position) occurred before: `history` holds the hashes of the
/// earlier positions of the game, oldest first, not including the current one. Only the last
/// `halfmove` entries can match (an irreversible move separates the rest).
pub fn prior_occurrences(history: &[u64], hash: u64, halfmove: u32) -> u8 {
    let window = (halfmove as usize).min(history.len());
    history[history.len() - window..].iter().filter(|&&h| h == hash).count().min(255) as u8
}

impl From<EndRule> for Termination {
    fn from(r: EndRule) -> Termination {
        match r {
            EndRule::Checkmate => Termination::Checkmate,
            EndRule::Stalemate => Termination::Stalemate,
            EndRule::Repetition => Termination::Repetition,
            EndRule::FiftyMoves => Termination::FiftyMove,
            EndRule::BareKings => Termination::BareKings,
            EndRule::Resignation => Termination::Resignation,
            EndRule::Adjudication => Termination::PlyCap,
        }
    }
}

/// Terminal status of `pos`, given whether it has a legal move and how often it occurred before.
pub fn terminal_status(pos: &Position, has_move: bool, prior_occurrences: u8) -> Option<Terminal> {
    let o = outcome(pos, has_move, prior_occurrences as usize + 1)?;
    let wdl = match o.winner {
        None => [0.0, 1.0, 0.0],
        Some(w) if w == pos.side() => [1.0, 0.0, 0.0],
        Some(_) => [0.0, 0.0, 1.0],
    };
    Some(Terminal { rule: o.rule.into(), wdl })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Cell, Color, Kind, Piece, Ruleset, Setup, Variant};

    fn cell(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn bare_kings_respects_placement_rights() {
        let mut s = Setup::empty(Variant::plain(Ruleset::FiveUp));
        s.board[cell("Ec1").index()] = Some(Piece::new(Color::White, Kind::King));
        s.board[cell("Ac5").index()] = Some(Piece::new(Color::Black, Kind::King));
        let p = Position::from_setup(s.clone()).unwrap();
        assert_eq!(terminal_status(&p, true, 0).unwrap().rule, Termination::BareKings);
        s.reserve = [1, 0];
        s.rights = s.rights.with(cell("Ec1"));
        let p = Position::from_setup(s).unwrap();
        assert!(terminal_status(&p, true, 0).is_none());
    }

    #[test]
    fn repetition_window() {
        assert_eq!(prior_occurrences(&[5, 1, 5, 2], 5, 4), 2);
        assert_eq!(prior_occurrences(&[5, 1, 5, 2], 5, 2), 1);
        assert_eq!(prior_occurrences(&[], 5, 9), 0);
    }
}
