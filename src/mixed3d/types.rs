//! Piece kinds and pieces.

use crate::game::Color;

/// A piece kind: the six of chess and the commoner (a king that is not royal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Pawn (Betza's Mixed pawn).
    Pawn = 0,
    /// Knight (the 24-leap Mixed knight).
    Knight = 1,
    /// Bishop (12 directions).
    Bishop = 2,
    /// Rook (14 directions).
    Rook = 3,
    /// Queen (26 directions).
    Queen = 4,
    /// The royal king (one a side).
    King = 5,
    /// Commoner: moves and attacks as a king, may be captured, never in check.
    Commoner = 6,
}

/// Number of kinds.
pub const KINDS: usize = 7;

impl Kind {
    /// Every kind, pawn first.
    pub const ALL: [Kind; KINDS] =
        [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::King, Kind::Commoner];
    /// What a pawn may promote to, in generation order.
    pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

    /// The kind with index `i` (0..7).
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The upper-case letter: `PNBRQKC`.
    pub const fn letter(self) -> char {
        [b'P', b'N', b'B', b'R', b'Q', b'K', b'C'][self as usize] as char
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook", "queen", "king", "commoner"][self as usize]
    }

    /// The kind a letter names (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c.to_ascii_uppercase())
    }

    /// Whether it slides along the rook's 14 directions (rook, queen).
    pub const fn rook_like(self) -> bool {
        matches!(self, Kind::Rook | Kind::Queen)
    }

    /// Whether it slides along the bishop's 12 directions (bishop, queen).
    pub const fn bishop_like(self) -> bool {
        matches!(self, Kind::Bishop | Kind::Queen)
    }
}

/// A piece: colour and kind, coded `1 + 7 * colour + kind` in the cell array (0 is empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// The cell-array code.
    pub(super) const fn code(self) -> u8 {
        1 + KINDS as u8 * self.color as u8 + self.kind as u8
    }

    /// The piece a cell-array code names.
    pub(super) const fn from_code(c: u8) -> Option<Piece> {
        if c == 0 {
            return None;
        }
        let i = (c - 1) as usize;
        let color = if i >= KINDS { Color::Black } else { Color::White };
        Some(Piece { color, kind: Kind::from_index(i % KINDS) })
    }

    /// FEN letter: upper case for white.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.kind.letter(),
            Color::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }
}
