//! The game interface: what a game must provide so that the layers above can play it without
//! knowing its board.
//!
//! A game is a position type implementing [`State`]: its legal moves, make and unmake, the facts the
//! end-of-game rules need (check, the fifty-move clock, bare kings, a hash for repetition) and its
//! position and move text. The algorithms written once over this trait (perft, the game-end rules
//! and the game with history here; the layers above as they are made generic) are monomorphised for each game, so a game's
//! hot paths run without dynamic dispatch.
//!
//! Each game is a module of its own below this one's users: [`crate::rules`] holds Five Up (both
//! texts) and Raumschach on the 5x5x5 board, [`crate::quasi_alice`] 4D Quasi-Alice Chess on four
//! 8x8 boards. The names a user types are mapped to games in `crate::catalog`.

pub mod board8;
mod color;
pub mod end;
pub mod history;
pub mod line;
pub mod perft;

pub use color::Color;
pub use end::{outcome, prior_occurrences, EndRule, Outcome, Status, UnknownEndRule};
pub use history::{Game, LineError, LineErrorKind, RefusedMove};

use std::fmt;
use std::hash::Hash;

/// A position of a game: everything needed to list, make and unmake its legal moves and to
/// decide whether the game is over, plus its text forms.
///
/// Moves are small `Copy` values meaningful only with the position they were generated in.
pub trait State: Clone + fmt::Debug + Send + Sync + 'static {
    /// A move of this game.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// What [`State::make`] returns so that [`State::unmake`] can restore the position.
    type Undo;
    /// Why a position text was refused.
    type TextError: std::error::Error + Send + Sync + 'static;
    /// Why a move text was refused in a position.
    type MoveError: std::error::Error + Send + Sync + 'static;

    /// The game's name as typed on the command line (`fiveup`, `quasi-alice`, ...).
    fn game_name(&self) -> &'static str;
    /// The side to move.
    fn side(&self) -> Color;
    /// Appends the legal moves to `out`, in the game's generation order.
    fn legal_moves_into(&self, out: &mut Vec<Self::Move>);
    /// The number of legal moves, counted without listing them where the game can.
    fn count_legal(&self) -> u64;
    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool;
    /// Whether `m` is a legal move here.
    fn is_legal(&self, m: Self::Move) -> bool {
        legal_moves(self).contains(&m)
    }
    /// Plays a legal move.
    fn make(&mut self, m: Self::Move) -> Self::Undo;
    /// Takes back the move `make` played.
    fn unmake(&mut self, m: Self::Move, undo: Self::Undo);
    /// Whether the side to move's royal king is attacked.
    fn in_check(&self) -> bool;
    /// The position's hash: equal positions (pieces, side, castling and en passant rights) hash
    /// equal, for repetition and transposition tables.
    fn hash(&self) -> u64;
    /// Plies since the last capture or pawn move.
    fn halfmove(&self) -> u32;
    /// The move number, starting at 1 and counted up after black's move.
    fn fullmove(&self) -> u32;
    /// Whether only the two kings are left (and nothing can be added to the board): a draw.
    fn bare_kings(&self) -> bool;
    /// The one-line position text.
    fn to_text(&self) -> String;
    /// The move text of `m` in this position (its `Display` form unless the game says otherwise).
    fn move_text(&self, m: Self::Move) -> String {
        m.to_string()
    }
    /// Reads a legal move of this position from its text.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;
    /// A board picture for people, several lines.
    fn diagram(&self) -> String;
}

/// The legal moves of `pos` as a new list.
pub fn legal_moves<S: State>(pos: &S) -> Vec<S::Move> {
    let mut v = Vec::with_capacity(64);
    pos.legal_moves_into(&mut v);
    v
}
