//! Boards and cells of the four 8x8 boards; the squares and chess attack tables of one board are
//! [`crate::game::board8`]'s.
//!
//! A board is 0..4 (printed 1..4); a cell is `board * 64 + square`.

pub use crate::game::board8::{
    bishop_attacks, file, parse_square, rank, rook_attacks, square_name, BETWEEN, KING, KNIGHT, PAWN_ATTACKS, RAYS,
};

/// Squares of one board.
pub const SQUARES: usize = 64;
/// Boards.
pub const BOARDS: usize = 4;
/// Cells of the game.
pub const CELLS: usize = SQUARES * BOARDS;

/// A cell's text, `3e4`.
pub fn cell_name(board: usize, sq: usize) -> String {
    format!("{}{}", board + 1, square_name(sq))
}

/// Reads a board number (`1`..`4`) to 0..4.
pub fn parse_board(c: u8) -> Option<usize> {
    match c {
        b'1'..=b'4' => Some((c - b'1') as usize),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_numbers_and_cells_read_back() {
        assert_eq!(parse_board(b'1'), Some(0));
        assert_eq!(parse_board(b'5'), None);
        assert_eq!(cell_name(2, 28), "3e4");
    }
}
