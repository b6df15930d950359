//! Position → input planes `[PLANES, 4, 8, 8]` in the mover's frame (layout in the
//! [module docs](super)).

use super::CELLS;
use crate::game::Color;
use crate::quasi_alice::board::BOARDS;
use crate::quasi_alice::position::CASTLE_BITS;
use crate::quasi_alice::{Kind, Position};

/// Number of input planes.
pub const PLANES: usize = 25;
/// First plane of the mover's pieces (one per [`Kind`], pawn first).
pub const PLANE_OWN_PIECES: usize = 0;
/// First plane of the opponent's pieces.
pub const PLANE_THEIR_PIECES: usize = 6;
/// The en passant cell.
pub const PLANE_EP: usize = 12;
/// First of the four castling planes: own king side, own queen side, theirs likewise.
pub const PLANE_CASTLING: usize = 13;
/// First of the two repetition planes (≥ 1, ≥ 2).
pub const PLANE_REPETITION: usize = 17;
/// Fifty-move clock.
pub const PLANE_HALFMOVE: usize = 19;
/// Side to move is black.
pub const PLANE_BLACK: usize = 20;
/// The board of the mover's king.
pub const PLANE_OWN_KING_BOARD: usize = 21;
/// The board of the opponent's king.
pub const PLANE_THEIR_KING_BOARD: usize = 22;
/// Board 1 while a castling right remains.
pub const PLANE_CASTLING_BOARD: usize = 23;
/// All ones.
pub const PLANE_ONES: usize = 24;

const _: () = assert!(PLANE_ONES + 1 == PLANES);

/// A square of the board turned into (or back out of) the frame of `side`: ranks reflected for
/// black.
#[inline]
pub const fn frame_square(side: Color, sq: usize) -> usize {
    match side {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

/// A set of squares of one board turned into the frame of `side`.
#[inline]
pub const fn frame_squares(side: Color, squares: u64) -> u64 {
    match side {
        Color::White => squares,
        // Reversing the bytes reverses the ranks.
        Color::Black => squares.swap_bytes(),
    }
}

/// The castling bits of `color`: (king side, queen side).
#[inline]
pub const fn castle_bits(color: Color) -> (u8, u8) {
    match color {
        Color::White => (CASTLE_BITS[0], CASTLE_BITS[1]),
        Color::Black => (CASTLE_BITS[2], CASTLE_BITS[3]),
    }
}

#[inline]
fn plane(out: &mut [f32], p: usize) -> &mut [f32] {
    crate::nn::netgame::plane_mut(out, p, CELLS)
}

#[inline]
fn fill(out: &mut [f32], p: usize, v: f32) {
    crate::nn::netgame::fill_plane(out, p, CELLS, v)
}

/// Encodes one position into `out` (exactly [`super::INPUT_SIZE`] values, overwritten entirely);
/// `repetitions` is how often it occurred before in the game. Panics on a buffer of another size.
pub fn encode_into(pos: &Position, repetitions: u32, out: &mut [f32]) {
    assert_eq!(out.len(), super::INPUT_SIZE, "encode_into: buffer must hold INPUT_SIZE values");
    out.fill(0.0);
    let us = pos.side();
    let them = us.flip();

    // 1. Pieces, board by board.
    for kind in Kind::ALL {
        for (color, first) in [(us, PLANE_OWN_PIECES), (them, PLANE_THEIR_PIECES)] {
            let pl = plane(out, first + kind as usize);
            for b in 0..BOARDS {
                let mut bb = frame_squares(us, pos.pieces(color, kind, b));
                while bb != 0 {
                    pl[b * 64 + bb.trailing_zeros() as usize] = 1.0;
                    bb &= bb - 1;
                }
            }
        }
    }

    // 2. En passant.
    if let Some(cell) = pos.ep() {
        plane(out, PLANE_EP)[cell / 64 * 64 + frame_square(us, cell % 64)] = 1.0;
    }

    // 3. Castling rights and the castling board.
    let rights = pos.castling();
    for (color, first) in [(us, PLANE_CASTLING), (them, PLANE_CASTLING + 2)] {
        let (king_side, queen_side) = castle_bits(color);
        fill(out, first, (rights & king_side != 0) as u8 as f32);
        fill(out, first + 1, (rights & queen_side != 0) as u8 as f32);
    }
    if rights != 0 {
        plane(out, PLANE_CASTLING_BOARD)[..64].fill(1.0);
    }

    // 4. The kings' boards.
    for (color, p) in [(us, PLANE_OWN_KING_BOARD), (them, PLANE_THEIR_KING_BOARD)] {
        let b = pos.king(color) / 64;
        plane(out, p)[b * 64..(b + 1) * 64].fill(1.0);
    }

    // 5. Constant planes.
    fill(out, PLANE_REPETITION, (repetitions >= 1) as u8 as f32);
    fill(out, PLANE_REPETITION + 1, (repetitions >= 2) as u8 as f32);
    fill(out, PLANE_HALFMOVE, (pos.halfmove() as f32 / 100.0).min(1.0));
    fill(out, PLANE_BLACK, (us == Color::Black) as u8 as f32);
    fill(out, PLANE_ONES, 1.0);
}
