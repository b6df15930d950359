//! Piece kinds and pieces.

use crate::game::Color;

/// A piece kind: the six of chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Kind {
    /// Every kind, pawn first.
    pub const ALL: [Kind; 6] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::King];
    /// What a pawn may promote to, in generation order.
    pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

    /// The kind with index `i` (0..6).
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The upper-case letter: `PNBRQK`.
    pub const fn letter(self) -> char {
        [b'P', b'N', b'B', b'R', b'Q', b'K'][self as usize] as char
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook", "queen", "king"][self as usize]
    }

    /// The kind a letter names (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c.to_ascii_uppercase())
    }
}

/// A piece: colour and kind, coded `1 + 6 * colour + kind` in the cell array (0 is empty).
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
        1 + 6 * self.color as u8 + self.kind as u8
    }

    /// The piece a cell-array code names.
    pub(super) const fn from_code(c: u8) -> Option<Piece> {
        if c == 0 {
            return None;
        }
        let i = (c - 1) as usize;
        let color = if i >= 6 { Color::Black } else { Color::White };
        Some(Piece { color, kind: Kind::from_index(i % 6) })
    }

    /// FEN letter: upper case for white.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.kind.letter(),
            Color::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }
}
