//! The rules core: Five Up (both texts) and classic Raumschach on a 5x5x5 board.
//!
//! The rules it implements are written out in `docs/RULES.md`. This module depends on nothing heavy: std, `thiserror` and the game interface. It knows nothing of networks, search or serialisation.
//!
//! Layout:
//! - [`types`]: piece kinds, rulesets, variant flags;
//! - [`cell`], [`bitboard`]: the 125 cells and `u128` sets of them;
//! - [`geometry`]: step vectors and `const`-built move tables for the flat board and the hypercylinder;
//! - [`zobrist`]: compile-time hash keys;
//! - [`position`]: the validated position, make/unmake, attacks, setup validation;
//! - [`movegen`]: legal move generation (list and bulk count share one generator);
//! - [`notation`]: position text, coordinate and figurine move text, diagrams;
//! - `state`: these games as an implementation of the game interface ([`crate::game::State`]).

pub mod bitboard;
pub mod cell;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod random;
mod state;
pub mod types;
pub mod zobrist;

#[cfg(test)]
mod game_tests;

pub use bitboard::Bitboard;
pub use cell::Cell;
pub use moves::{Move, Special};
pub use position::{piece_attacks, piece_quiet_moves, Position, Setup, SetupError};
pub use types::{Kind, Piece, Ruleset, Variant};
