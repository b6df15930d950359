//! Mixed 3D Chess (Ralph Betza): the FIDE array on every level of an 8x8x8 cube, one royal king a
//! side and seven commoners, 14-direction rooks, 12-direction bishops, the 24-leap Mixed knight
//! and Betza's Mixed pawn.
//!
//! The rules are the contract in `docs/RULES.md` (Mixed 3D): the moves of each man, the six
//! castlings a side (the `1a1` one included), en passant in the pawn's four capture directions,
//! promotion on the last rank of any level.
//!
//! Layout:
//! - [`geometry`]: cells, their text, the planes that carry the slides, leaper tables, castlings;
//! - [`position`]: the position, make/unmake, the attack test;
//! - [`movegen`]: legal moves, listed or counted by one generator;
//! - [`types`]: piece kinds and pieces;
//! - [`moves`]: the packed move;
//! - [`notation`]: position and move text, the diagram;
//! - `zobrist`: hash keys.

pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod types;
mod zobrist;

#[cfg(test)]
mod tests;

pub use moves::{Flag, Move};
pub use notation::{MoveTextError, TextError};
pub use position::{Position, Undo};
pub use types::{Kind, Piece};

use crate::game::{Color, State};

/// The start position's text.
pub const START: &str = concat!(
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|",
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|",
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|",
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|",
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|",
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|",
    "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR ",
    "w 4h1,1h1,7h1,4a1,8a1,1a1,4h8,1h8,7h8,4a8,8a8,1a8 - 0 1"
);

/// The name typed on the command line.
pub const NAME: &str = "mixed3d";

impl State for Position {
    type Move = Move;
    type Undo = Undo;
    type TextError = TextError;
    type MoveError = MoveTextError;

    fn game_name(&self) -> &'static str {
        NAME
    }
    fn side(&self) -> Color {
        self.side
    }
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        Position::legal_moves_into(self, out)
    }
    fn count_legal(&self) -> u64 {
        Position::count_legal(self)
    }
    fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }
    fn make(&mut self, m: Move) -> Undo {
        Position::make(self, m)
    }
    fn unmake(&mut self, m: Move, undo: Undo) {
        Position::unmake(self, m, undo)
    }
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    fn halfmove(&self) -> u32 {
        self.halfmove
    }
    fn fullmove(&self) -> u32 {
        self.fullmove
    }
    fn bare_kings(&self) -> bool {
        Position::bare_kings(self)
    }
    fn to_text(&self) -> String {
        Position::to_text(self)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        Position::parse_move(self, text)
    }
    fn diagram(&self) -> String {
        Position::diagram(self)
    }
}
