//! 4D Quasi-Alice Chess (Kevin Pacey, 2016): the six chess pieces on four 8x8 boards, every move a
//! chess move on one board followed by a transfer to the same square of another board.
//!
//! The rules are the contract in `docs/RULES.md` (4D Quasi-Alice): which boards a man may transfer
//! to (those holding a king, or all three others from a board holding both kings), the king's
//! capture on landing, the king's cross-board attack, castling and en passant with transfer, and the
//! two legality tests, (a) on the board moved on and (b) after the transfer.
//!
//! Layout:
//! - [`board`]: squares, boards, cells; the chess attack tables of one board;
//! - [`position`]: the position, make/unmake, the attack test;
//! - [`movegen`]: legal moves, listed or counted by one generator;
//! - [`types`]: piece kinds and pieces;
//! - [`moves`]: the packed move;
//! - [`notation`]: position and move text, the diagram;
//! - `zobrist`: hash keys.

pub mod board;
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
pub const START: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQkq - 0 1";

/// The name typed on the command line.
pub const NAME: &str = "quasi-alice";

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
