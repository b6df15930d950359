//! The 5x5x5 games as an implementation of the game interface ([`crate::game::State`]).

use super::moves::Move;
use super::notation::{self, MoveTextError, PositionTextError};
use super::position::{Position, Undo};
use crate::game::{Color, State};

impl State for Position {
    type Move = Move;
    type Undo = Undo;
    type TextError = PositionTextError;
    type MoveError = MoveTextError;

    fn game_name(&self) -> &'static str {
        self.ruleset().name()
    }
    #[inline]
    fn side(&self) -> Color {
        Position::side(self)
    }
    #[inline]
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        Position::legal_moves_into(self, out)
    }
    #[inline]
    fn count_legal(&self) -> u64 {
        Position::count_legal(self)
    }
    #[inline]
    fn has_legal_move(&self) -> bool {
        Position::has_legal_move(self)
    }
    #[inline]
    fn is_legal(&self, m: Move) -> bool {
        Position::is_legal(self, m)
    }
    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        Position::make(self, m)
    }
    #[inline]
    fn unmake(&mut self, m: Move, undo: Undo) {
        Position::unmake(self, m, undo)
    }
    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }
    #[inline]
    fn halfmove(&self) -> u32 {
        Position::halfmove(self)
    }
    #[inline]
    fn fullmove(&self) -> u32 {
        Position::fullmove(self)
    }
    #[inline]
    fn bare_kings(&self) -> bool {
        Position::bare_kings(self)
    }
    fn to_text(&self) -> String {
        Position::to_text(self)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        notation::parse_move(self, text)
    }
    fn diagram(&self) -> String {
        notation::diagram(self)
    }
}
