//! Mixed 3D Chess ([`crate::mixed3d`]) as a [`NetGame`]: planes over the 8x8x8 cube, a policy of
//! (origin cell, 3D move type), and the file and level mirrors as symmetries once no castling
//! right remains.
//!
//! # Spatial shape and the mover's frame
//!
//! Planes and policy channels are `[8, 8, 8]`: level, rank, file; element
//! `level * 64 + rank * 8 + file` (the game's cell index), so the 3D residual network convolves
//! the cube directly. Everything is seen from the side to move ("own" = the mover): for black the
//! ranks are reflected (`rank → 7 − rank`, cell `c → c ^ 56`), so the mover's pawns always go
//! toward +rank and its home rank is rank 0. Files and levels are not reflected: the frame is a
//! single reflection that commutes with both mirrors below, and the royal king starts on level 4,
//! file e for either colour.
//!
//! # Planes ([`encode`])
//!
//! | index | meaning |
//! |---|---|
//! | 0–6 | own pawns, knights, bishops, rooks, queens, royal king, commoners |
//! | 7–13 | opponent's, same order |
//! | 14 | the en passant cell (the passed cell) while it is set |
//! | 15 | the rook cells of the mover's castling rights still held |
//! | 16 | the rook cells of the opponent's castling rights still held |
//! | 17, 18 | position seen before at least once, at least twice (constant) |
//! | 19 | fifty-move clock: halfmove / 100, clamped to 1 (constant) |
//! | 20 | side to move is black (constant) |
//! | 21 | all ones (marks the cube inside zero padding) |
//!
//! A castling right is drawn where its rook stands: with the king's plane that says which of the
//! six castlings (`4h1, 1h1, 7h1, 4a1, 8a1, 1a1`) each side can still make. Every input is
//! covered by the position hash except the repetitions and the clock, which the evaluation cache
//! keys on too.
//!
//! # Policy ([`policy`]): 221 channels over the 512 cells
//!
//! A move's one logit sits at its **origin cell** (in the frame), channel = its 3D move type, a
//! function of the displacement (file, rank, level) in the frame and the promotion:
//!
//! | type | meaning |
//! |---|---|
//! | 0–181 | queen-like: direction `d` of [`policy::DIRS`] (the 26 unit steps) × distance 1..=7, type `7 d + n − 1`: every slide, king and commoner steps, castling (the king's two-cell step along a file-level line), pawn pushes, double steps, captures and promotion to a queen |
//! | 182–205 | knight leap `i` of [`policy::KNIGHT_LEAPS`] (the 24 permutations of (0, ±1, ±2)) |
//! | 206–220 | under-promotion to knight, bishop, rook (`206 + 5 k`) × pawn step `j` of [`policy::PAWN_STEPS`] (straight, file ±1, level ±1) |
//!
//! Flat index = `type * 512 + frame cell`; [`POLICY_SIZE`] = 221 × 512 = 113,152.
//! **Injective**: the man on a cell is unique, so (from, to, promotion) names a legal move, and
//! the type is a function of the displacement and the promotion: castling is the only move of
//! the king by two cells; a pawn's move to the last rank always promotes, so its queen promotion
//! may share the plain channel.
//!
//! # Symmetries ([`symmetry`])
//!
//! Every man moves alike in the directions that the file mirror (a ↔ h) or the level mirror
//! (1 ↔ 8) exchange: the rook's 14 directions and the bishop's 12 are closed under negating the
//! file or the level step, the knight's 24 leaps too, and the pawn captures one file or one level
//! sideways in either direction. Only castling breaks them: the royal king starts on `4e1`, and
//! each castling moves it toward a fixed rook cell, so no mirror maps a castling to a castling.
//! The exchange of files and levels is **not** a symmetry: it maps the rook's rank-level
//! diagonals (0, ±1, ±1) onto file-rank diagonals (±1, ±1, 0), which are the bishop's.
//! **Decision**: while any castling right remains, the identity only; once none remains, the four
//! elements {identity, file mirror, level mirror, both}. [`NetGame::symmetries`] lists a
//! position's group; the tests check on random games that the image of a position has exactly
//! the images of its legal moves, and that planes and policy commute with each symmetry. The
//! network is a plain 3D convolution tower ([`NetGame::UNORDERED_AXIS`] is false), so the mirrors
//! serve as training augmentation.

pub mod encode;
pub mod policy;
pub mod symmetry;
#[cfg(test)]
mod tests;

use super::netgame::{NetGame, PolicyIndex};
use crate::mixed3d::{Move, Position};

pub use encode::PLANES;
pub use policy::{POLICY_CHANNELS, POLICY_SIZE};
pub use symmetry::MirrorSymmetry;

/// Elements of one plane: the 512 cells.
pub const CELLS: usize = crate::mixed3d::geometry::CELLS;
/// `f32` values of one encoded position.
pub const INPUT_SIZE: usize = PLANES * CELLS;

impl NetGame for Position {
    type Symmetry = MirrorSymmetry;
    const ENCODING: &'static str = crate::mixed3d::NAME;
    const PLANES: usize = PLANES;
    const SHAPE: [usize; 3] = [8, 8, 8];
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

    fn symmetries(&self) -> &'static [MirrorSymmetry] {
        MirrorSymmetry::all(self)
    }
}

const _: () = assert!(<Position as NetGame>::INPUT_SIZE == INPUT_SIZE);
const _: () = assert!(<Position as NetGame>::POLICY_SIZE == POLICY_SIZE);
const _: () = assert!(<Position as NetGame>::CELLS == CELLS);
