//! 4D Quasi-Alice Chess ([`crate::quasi_alice`]) as a [`NetGame`]: planes over the four 8x8
//! boards, a policy of (origin cell, 2D move, destination board), and the board permutations
//! and file mirror as symmetries.
//!
//! # Spatial shape and the mover's frame
//!
//! Planes and policy channels are `[4, 8, 8]`: board (1..4 as 0..3), rank, file; element
//! `board * 64 + rank * 8 + file` (the game's cell index). Everything is seen from the side to
//! move ("own" = the mover): for black the ranks are reflected (`rank → 7 − rank`, i.e. square
//! `sq → sq ^ 56`), so the mover's pawns always go toward +rank and its home rank is rank 0.
//! **Files are not mirrored** (as in the 5x5x5 frame, [`crate::nn::encode`]): the frame is then a
//! single reflection and commutes with every symmetry below; the king side stays the h side for
//! both colours, which the castling planes name.
//!
//! # Planes ([`encode`])
//!
//! | index | meaning |
//! |---|---|
//! | 0–5 | own pawns, knights, bishops, rooks, queens, king |
//! | 6–11 | opponent's, same order |
//! | 12 | the en passant cell (passed square on the board the pawn landed on) while it is set |
//! | 13, 14 | own king-side, queen-side castling right (constant) |
//! | 15, 16 | opponent's king-side, queen-side castling right (constant) |
//! | 17, 18 | position seen before at least once, at least twice (constant) |
//! | 19 | fifty-move clock: halfmove / 100, clamped to 1 (constant) |
//! | 20 | side to move is black (constant) |
//! | 21 | the board holding the own king (every cell of that board) |
//! | 22 | the board holding the opponent's king (every cell of that board) |
//! | 23 | board 1, the castling board, while any castling right remains (every cell of it) |
//! | 24 | all ones (marks the boards inside zero padding) |
//!
//! Planes 21 and 22 say, per board, what the transfer rule reads (a man transfers only to a board
//! holding a king); a network that convolves each board apart would otherwise have to find the
//! kings across boards. Plane 23 is the only mark of board 1: the rules single it out only for
//! castling, so once no right remains the boards are interchangeable and the plane is empty.
//! Every input is covered by the position hash except the repetitions and the clock, which the
//! evaluation cache keys on too.
//!
//! # Policy ([`policy`]): 292 channels over the 256 cells
//!
//! A move is (board `s`, from square, to square, promotion, destination board `t`); its one
//! logit is at the **origin cell** (`s`, from square in the frame), channel `73 t + type`, where
//! the 2D move type is AlphaZero's chess layout in the mover's frame:
//!
//! | type | meaning |
//! |---|---|
//! | 0–55 | queen-like: direction `d` of [`policy::DIRS`] (N, NE, E, SE, S, SW, W, NW) × distance 1..=7, type `7 d + n − 1`; king steps, castling (the king's two-square step), pawn pushes, double steps, pawn captures and promotion to a queen |
//! | 56–63 | knight leap `i` of [`policy::KNIGHT_LEAPS`] |
//! | 64–72 | under-promotion to knight, bishop, rook (`64 + 3 k`) × file step −1, 0, +1 |
//!
//! Flat index = `(73 t + type) * 256 + s * 64 + frame square`; [`POLICY_SIZE`] = 292 × 256 =
//! 74,752. The destination board is absolute (not relative to `s`), so a board permutation
//! permutes channels and cells alike; the channels with `t = s` are never used (a transfer
//! always changes board). **Injective**: the man on a cell is unique, so (s, from, to, t,
//! promotion) names a legal move, and the type is a function of the displacement and the
//! promotion: castling is the king's two-square step, which no other king move makes; a pawn's
//! move to the last rank always promotes, so its queen promotion may share the plain channel.
//!
//! # Symmetries ([`symmetry`])
//!
//! The rules treat the four boards alike except in castling, which happens on board 1 (the home
//! squares and the rights-voiding squares are board 1's); en passant, double steps and promotion
//! work on every board, and the transfer rule reads only which boards hold kings. Moves and
//! attacks are symmetric under the file mirror a↔h except castling (king on e, rooks on a and
//! h). **Decision**: while any castling right remains, the symmetries are the 6 permutations of
//! boards 2–4 (board 1 fixed); once none remains, all 24 permutations of the four boards, each
//! with or without the file mirror: 48. A position's group is listed by
//! [`NetGame::symmetries`]; the tests check on random games that the image of a position has
//! exactly the images of its legal moves, and that planes and policy commute with each symmetry.
//! The tch network built for this game (`nn::torch`, behind the `torch` feature) is exact under
//! the board permutations by construction (per-board convolutions, board mixing, a pair policy
//! head, board-pooled value heads), so of the group only the mirror adds anything as training
//! augmentation; averaging evaluations over permutations would change nothing.

pub mod encode;
pub mod policy;
pub mod symmetry;
#[cfg(test)]
mod tests;

use super::netgame::{NetGame, PolicyIndex};
use crate::quasi_alice::{Move, Position};

pub use encode::PLANES;
pub use policy::{POLICY_CHANNELS, POLICY_SIZE};
pub use symmetry::BoardSymmetry;

/// Elements of one plane: 4 boards × 64 squares.
pub const CELLS: usize = 256;
/// `f32` values of one encoded position.
pub const INPUT_SIZE: usize = PLANES * CELLS;

impl NetGame for Position {
    type Symmetry = BoardSymmetry;
    const ENCODING: &'static str = crate::quasi_alice::NAME;
    const UNORDERED_AXIS: bool = true;
    const PLANES: usize = PLANES;
    const SHAPE: [usize; 3] = [4, 8, 8];
    const POLICY_CHANNELS: usize = POLICY_CHANNELS;

    #[inline]
    fn encode_into(&self, repetitions: u32, out: &mut [f32]) {
        encode::encode_into(self, repetitions, out)
    }

    #[inline]
    fn try_move_to_index(&self, m: Move) -> Option<PolicyIndex> {
        policy::try_move_to_index(self, m)
    }

    fn index_to_move_in(&self, legal: &[Move], idx: PolicyIndex) -> Option<Move> {
        policy::index_to_move_in(self, legal, idx)
    }

    fn symmetries(&self) -> &'static [BoardSymmetry] {
        BoardSymmetry::all(self)
    }
}

const _: () = assert!(<Position as NetGame>::INPUT_SIZE == INPUT_SIZE);
const _: () = assert!(<Position as NetGame>::POLICY_SIZE == POLICY_SIZE);
const _: () = assert!(<Position as NetGame>::CELLS == CELLS);
