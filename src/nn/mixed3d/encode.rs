//! Position → input planes `[PLANES, 8, 8, 8]` in the mover's frame (layout in the
//! [module docs](super)).

use super::CELLS;
use crate::game::Color;
use crate::mixed3d::geometry::SIDE;
use crate::mixed3d::{Kind, Position};

/// Number of input planes.
pub const PLANES: usize = 22;
/// First plane of the mover's men (one per [`Kind`], pawn first).
pub const PLANE_OWN_PIECES: usize = 0;
/// First plane of the opponent's men.
pub const PLANE_THEIR_PIECES: usize = 7;
/// The en passant cell.
pub const PLANE_EP: usize = 14;
/// The rook cells of the mover's castling rights.
pub const PLANE_OWN_CASTLING: usize = 15;
/// The rook cells of the opponent's castling rights.
pub const PLANE_THEIR_CASTLING: usize = 16;
/// First of the two repetition planes (≥ 1, ≥ 2).
pub const PLANE_REPETITION: usize = 17;
/// Fifty-move clock.
pub const PLANE_HALFMOVE: usize = 19;
/// Side to move is black.
pub const PLANE_BLACK: usize = 20;
/// All ones.
pub const PLANE_ONES: usize = 21;

const _: () = assert!(PLANE_ONES + 1 == PLANES);

/// A cell turned into (or back out of) the frame of `side`: ranks reflected for black.
#[inline]
pub const fn frame_cell(side: Color, cell: usize) -> usize {
    match side {
        Color::White => cell,
        Color::Black => cell ^ 56,
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

    // 1. Men, level by level (a level's squares are reflected by reversing its bytes).
    for kind in Kind::ALL {
        for (color, first) in [(us, PLANE_OWN_PIECES), (them, PLANE_THEIR_PIECES)] {
            let pl = plane(out, first + kind as usize);
            for l in 0..SIDE {
                let mut bb = pos.pieces(color, kind, l);
                if us == Color::Black {
                    bb = bb.swap_bytes();
                }
                while bb != 0 {
                    pl[l * 64 + bb.trailing_zeros() as usize] = 1.0;
                    bb &= bb - 1;
                }
            }
        }
    }

    // 2. En passant.
    if let Some(cell) = pos.ep() {
        plane(out, PLANE_EP)[frame_cell(us, cell)] = 1.0;
    }

    // 3. Castling rights, at their rooks' cells.
    let rights = pos.castling();
    for (color, p) in [(us, PLANE_OWN_CASTLING), (them, PLANE_THEIR_CASTLING)] {
        for i in 0..6 {
            if rights & (1 << (i + 6 * color.index())) != 0 {
                plane(out, p)[frame_cell(us, Position::castling_of(color, i).rook)] = 1.0;
            }
        }
    }

    // 4. Constant planes.
    fill(out, PLANE_REPETITION, (repetitions >= 1) as u8 as f32);
    fill(out, PLANE_REPETITION + 1, (repetitions >= 2) as u8 as f32);
    fill(out, PLANE_HALFMOVE, (pos.halfmove() as f32 / 100.0).min(1.0));
    fill(out, PLANE_BLACK, (us == Color::Black) as u8 as f32);
    fill(out, PLANE_ONES, 1.0);
}
