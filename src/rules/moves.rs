//! A move packed in 32 bits: from, to, promotion, placement and a special-move flag.
//!
//! Layout: bits 0..7 from, 7..14 to, 14..18 promotion kind + 1 (0 = none), 18..20 placement
//! (0 none, 1 W, 2 G, 3 S), 20..22 special (0 normal, 1 double pawn move, 2 en passant, 3 castling).

use super::cell::Cell;
use super::types::{Kind, RESERVE_KINDS};
use std::fmt;

/// A move of the rules core; printed in coordinate form (`Ec2Dc3`, `Aa4Aa5=Q`, `Eb1Db3/S`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

/// What kind of special move a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Special {
    /// An ordinary move or capture.
    Normal = 0,
    /// A pawn's double move (sets en passant rights).
    Double = 1,
    /// An en passant capture.
    EnPassant = 2,
    /// Castling: king cell to rook cell, the two swap.
    Castle = 3,
}

const _: () = assert!(std::mem::size_of::<Move>() == 4);

impl Move {
    /// A move; `promo` and `place` are `None` when absent.
    #[inline]
    pub const fn new(from: Cell, to: Cell, promo: Option<Kind>, place: Option<Kind>, special: Special) -> Move {
        let p = match promo {
            Some(k) => k as u32 + 1,
            None => 0,
        };
        let pl = match place {
            Some(Kind::Wizard) => 1,
            Some(Kind::Guard) => 2,
            Some(Kind::Silver) => 3,
            _ => 0,
        };
        Move(from.index() as u32 | (to.index() as u32) << 7 | p << 14 | pl << 18 | (special as u32) << 20)
    }

    /// A plain move from `from` to `to`.
    #[inline]
    pub const fn normal(from: Cell, to: Cell) -> Move {
        Move(from.index() as u32 | (to.index() as u32) << 7)
    }

    /// Origin cell (the king's cell for castling).
    #[inline]
    pub const fn from(self) -> Cell {
        Cell::new_unchecked((self.0 & 127) as u8)
    }

    /// Destination cell (the rook's cell for castling).
    #[inline]
    pub const fn to(self) -> Cell {
        Cell::new_unchecked((self.0 >> 7 & 127) as u8)
    }

    /// Promotion piece, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Kind> {
        let p = (self.0 >> 14 & 15) as usize;
        if p == 0 {
            None
        } else {
            Kind::from_index(p - 1)
        }
    }

    /// Reserve piece placed on the vacated cell, if any.
    #[inline]
    pub const fn placement(self) -> Option<Kind> {
        match self.0 >> 18 & 3 {
            0 => None,
            i => Some(RESERVE_KINDS[i as usize - 1]),
        }
    }

    /// This move with a placement added.
    #[inline]
    pub const fn with_placement(self, k: Kind) -> Move {
        let pl = match k {
            Kind::Wizard => 1,
            Kind::Guard => 2,
            _ => 3,
        };
        Move(self.0 & !(3 << 18) | pl << 18)
    }

    /// This move without its placement.
    #[inline]
    pub const fn without_placement(self) -> Move {
        Move(self.0 & !(3 << 18))
    }

    /// The special-move flag.
    #[inline]
    pub const fn special(self) -> Special {
        match self.0 >> 20 & 3 {
            0 => Special::Normal,
            1 => Special::Double,
            2 => Special::EnPassant,
            _ => Special::Castle,
        }
    }

    /// Raw bits (stable within one build; used for hashing and tables).
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// A move from raw bits produced by [`Move::bits`]; `None` if the cells are out of range.
    pub const fn from_bits(b: u32) -> Option<Move> {
        if (b & 127) >= 125 || (b >> 7 & 127) >= 125 || b >> 22 != 0 || (b >> 14 & 15) > 11 {
            None
        } else {
            Some(Move(b))
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(k) = self.promotion() {
            write!(f, "={}", k.letter())?;
        }
        if let Some(k) = self.placement() {
            write!(f, "/{}", k.letter())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")?;
        match self.special() {
            Special::Normal => Ok(()),
            s => write!(f, "[{s:?}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let a: Cell = "Aa4".parse().unwrap();
        let b: Cell = "Aa5".parse().unwrap();
        let m = Move::new(a, b, Some(Kind::Queen), None, Special::Normal);
        assert_eq!(m.to_string(), "Aa4Aa5=Q");
        assert_eq!(m.promotion(), Some(Kind::Queen));
        let m2 = Move::new(b, a, None, Some(Kind::Silver), Special::Double);
        assert_eq!(m2.placement(), Some(Kind::Silver));
        assert_eq!(m2.special(), Special::Double);
        assert_eq!(m2.without_placement().placement(), None);
        assert_eq!(m2.without_placement().with_placement(Kind::Guard).to_string(), "Aa5Aa4/G");
        assert_eq!(Move::from_bits(m2.bits()), Some(m2));
        assert_eq!(Move::from_bits(127), None);
    }
}
