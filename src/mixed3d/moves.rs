//! A move: from and to cell, an optional promotion and a flag, packed in 32 bits.

use super::geometry::{cell_name, CELLS};
use super::types::Kind;

/// What kind of move beyond a plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// Any other move.
    Normal,
    /// A pawn's double step (sets the en passant cell).
    DoubleStep,
    /// An en passant capture.
    EnPassant,
    /// Castling, written as the royal king's move.
    Castle,
}

/// A move: bits 0-8 the from cell, 9-17 the to cell, 18-20 the promotion kind (0 none), 21-22
/// the [`Flag`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: usize, to: usize, promotion: Option<Kind>, flag: Flag) -> Move {
        let promo = match promotion {
            Some(k) => k as u32,
            None => 0,
        };
        let flag = match flag {
            Flag::Normal => 0,
            Flag::DoubleStep => 1,
            Flag::EnPassant => 2,
            Flag::Castle => 3,
        };
        Move(from as u32 | (to as u32) << 9 | promo << 18 | flag << 21)
    }

    /// A plain move.
    #[inline]
    pub const fn normal(from: usize, to: usize) -> Move {
        Move(from as u32 | (to as u32) << 9)
    }

    /// The same move promoting to `k`.
    #[inline]
    pub const fn with_promotion(self, k: Kind) -> Move {
        Move(self.0 & !(7 << 18) | (k as u32) << 18)
    }

    /// The from cell.
    #[inline]
    pub const fn from(self) -> usize {
        (self.0 & 511) as usize
    }

    /// The to cell.
    #[inline]
    pub const fn to(self) -> usize {
        (self.0 >> 9 & 511) as usize
    }

    /// The promotion kind, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Kind> {
        match self.0 >> 18 & 7 {
            0 => None,
            k => Some(Kind::from_index(k as usize)),
        }
    }

    /// The move's flag.
    #[inline]
    pub const fn flag(self) -> Flag {
        match self.0 >> 21 & 3 {
            0 => Flag::Normal,
            1 => Flag::DoubleStep,
            2 => Flag::EnPassant,
            _ => Flag::Castle,
        }
    }

    /// The packed bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The move of [`Move::bits`]; `None` for bits no move has (beyond bit 22, a pawn, king or
    /// commoner promotion, the same from and to cell).
    pub const fn from_bits(b: u32) -> Option<Move> {
        let m = Move(b);
        let promo = b >> 18 & 7;
        if b >> 23 != 0 || promo >= 5 || m.from() == m.to() || m.from() >= CELLS || m.to() >= CELLS {
            None
        } else {
            Some(m)
        }
    }
}

impl std::fmt::Display for Move {
    /// `4e2-4e4`, `1a7-1a8=Q`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", cell_name(self.from()), cell_name(self.to()))?;
        if let Some(k) = self.promotion() {
            write!(f, "={}", k.letter())?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}
