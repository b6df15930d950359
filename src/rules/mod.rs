//! The rules core: Five Up (both texts) and classic Raumschach on a 5x5x5 board.
//!
//! The rules it implements are written out in `docs/RULES.md`. This module depends on nothing heavy: std, `thiserror` and, for perft only,
//! `rayon`. It knows nothing of networks, search or serialisation.
//!
//! Layout:
//! - [`types`]: colours, piece kinds, rulesets, variant flags;
//! - [`cell`], [`bitboard`]: the 125 cells and `u128` sets of them;
//! - [`geometry`]: step vectors and `const`-built move tables for the flat board and the hypercylinder;
//! - [`zobrist`]: compile-time hash keys;
//! - [`position`]: the validated position, make/unmake, attacks, setup validation;
//! - [`movegen`]: legal move generation (list and bulk count share one generator);
//! - [`notation`]: position text, coordinate and figurine move text, diagrams;
//! - [`game`]: a game with history: status, repetition, fifty-move rule, bare kings;
//! - [`perft`]: leaf counting.

pub mod bitboard;
pub mod cell;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod random;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use cell::Cell;
pub use moves::{Move, Special};
pub use position::{Position, Setup, SetupError};
pub use types::{Kind, Piece, Ruleset, Variant};
