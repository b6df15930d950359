//! A move: its board, the chess move on it, an optional promotion and the destination board,
//! packed in 32 bits.

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
    /// Castling, written as the king's move.
    Castle,
}

/// A move: bits 0-5 from square, 6-11 to square, 12-13 the board it is played on, 14-15 the
/// board it transfers to, 16-18 the promotion kind (0 none), 19-20 the [`Flag`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

impl Move {
    /// A move of the man on `from` of board `s` to `to`, transferring to board `t`.
    #[inline]
    pub const fn new(s: usize, from: usize, to: usize, t: usize, promotion: Option<Kind>, flag: Flag) -> Move {
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
        Move(from as u32 | (to as u32) << 6 | (s as u32) << 12 | (t as u32) << 14 | promo << 16 | flag << 19)
    }

    /// The same move transferring to board `t`.
    #[inline]
    pub const fn with_board_to(self, t: usize) -> Move {
        Move(self.0 & !(3 << 14) | (t as u32) << 14)
    }

    /// The same move promoting to `k`.
    #[inline]
    pub const fn with_promotion(self, k: Kind) -> Move {
        Move(self.0 & !(7 << 16) | (k as u32) << 16)
    }

    /// The from square (0..64).
    #[inline]
    pub const fn from(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The to square of the chess move (and of the transfer).
    #[inline]
    pub const fn to(self) -> usize {
        (self.0 >> 6 & 63) as usize
    }

    /// The board the move is played on (0..4).
    #[inline]
    pub const fn board_from(self) -> usize {
        (self.0 >> 12 & 3) as usize
    }

    /// The board the man transfers to (0..4).
    #[inline]
    pub const fn board_to(self) -> usize {
        (self.0 >> 14 & 3) as usize
    }

    /// The promotion kind, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Kind> {
        match self.0 >> 16 & 7 {
            0 => None,
            k => Some(Kind::from_index(k as usize)),
        }
    }

    /// The move's flag.
    #[inline]
    pub const fn flag(self) -> Flag {
        match self.0 >> 19 & 3 {
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

    /// The move of [`Move::bits`]; `None` for bits no move has (beyond bit 20, a pawn or king
    /// promotion, the same from and to square, the same board both ways).
    pub const fn from_bits(b: u32) -> Option<Move> {
        let m = Move(b);
        let promo = b >> 16 & 7;
        if b >> 21 != 0 || promo >= 5 || m.from() == m.to() || m.board_from() == m.board_to() {
            None
        } else {
            Some(m)
        }
    }
}

impl std::fmt::Display for Move {
    /// `1e2e4>3`, `2e7e8q>1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::board::square_name;
        write!(f, "{}{}{}", self.board_from() + 1, square_name(self.from()), square_name(self.to()))?;
        if let Some(k) = self.promotion() {
            write!(f, "{}", k.letter().to_ascii_lowercase())?;
        }
        write!(f, ">{}", self.board_to() + 1)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}
