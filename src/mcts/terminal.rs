//! Game-end rules as search needs them: a small stand-in for `rules::game` until that lands.
//!
//! Order (RULES.md §2 "End of the game"): checkmate and stalemate first (a mate on the hundredth
//! ply still wins), then threefold repetition, the fifty-move rule and bare kings.

use crate::rules::{Color, Kind, Position};
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

/// Whether only the two kings are left and neither side can still place a reserve piece.
pub fn bare_kings(pos: &Position) -> bool {
    pos.occupied().count() == 2
        && pos.pieces(Color::White, Kind::King).count() == 1
        && !Color::ALL.iter().any(|&c| pos.can_place(c))
}

/// Terminal status of `pos`, given whether it has a legal move and how often it occurred before.
pub fn terminal_status(pos: &Position, has_move: bool, prior_occurrences: u8) -> Option<Terminal> {
    const LOSS: [f32; 3] = [0.0, 0.0, 1.0];
    const DRAW: [f32; 3] = [0.0, 1.0, 0.0];
    let t = |rule, wdl| Some(Terminal { rule, wdl });
    if !has_move {
        return if pos.in_check() { t(Termination::Checkmate, LOSS) } else { t(Termination::Stalemate, DRAW) };
    }
    if prior_occurrences >= 2 {
        return t(Termination::Repetition, DRAW);
    }
    if pos.halfmove() >= 100 {
        return t(Termination::FiftyMove, DRAW);
    }
    if bare_kings(pos) {
        return t(Termination::BareKings, DRAW);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Cell, Piece, Ruleset, Setup, Variant};

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
