//! 125-cell bitboards in a `u128`; bits 125..128 always stay zero.

use super::cell::Cell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The mask of the 125 real cells.
pub const FULL: u128 = (1u128 << 125) - 1;

impl Bitboard {
    /// No cells.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 125 cells.
    pub const ALL: Bitboard = Bitboard(FULL);

    /// The set holding only `c`.
    #[inline]
    pub const fn from_cell(c: Cell) -> Bitboard {
        Bitboard(1u128 << c.index())
    }

    /// Whether the set holds `c`.
    #[inline]
    pub const fn has(self, c: Cell) -> bool {
        self.0 >> c.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one cell.
    #[inline]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Number of cells.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Lowest cell, if any.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Highest cell, if any.
    #[inline]
    pub const fn last(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::new_unchecked((127 - self.0.leading_zeros()) as u8))
        }
    }

    /// The set with `c` added.
    #[inline]
    pub const fn with(self, c: Cell) -> Bitboard {
        Bitboard(self.0 | 1u128 << c.index())
    }

    /// The set with `c` removed.
    #[inline]
    pub const fn without(self, c: Cell) -> Bitboard {
        Bitboard(self.0 & !(1u128 << c.index()))
    }

    /// Whether more than one cell is set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
}

impl Iterator for Bitboard {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        // Half by half: 64-bit bit scans and clears, where the 128-bit ones need carries and
        // selects across the halves.
        let lo = self.0 as u64;
        if lo != 0 {
            self.0 = (self.0 >> 64 << 64) | (lo & (lo - 1)) as u128;
            return Some(Cell::new_unchecked(lo.trailing_zeros() as u8));
        }
        let hi = (self.0 >> 64) as u64;
        if hi != 0 {
            self.0 = ((hi & (hi - 1)) as u128) << 64;
            return Some(Cell::new_unchecked(64 + hi.trailing_zeros() as u8));
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 125 cells (bits 125..128 stay zero).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, |b, c| b.with(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_keeps_high_bits_clear() {
        assert_eq!((!Bitboard::EMPTY).0, FULL);
        assert_eq!((!Bitboard::ALL).0, 0);
        assert_eq!(Bitboard::ALL.count(), 125);
    }

    #[test]
    fn iterate_first_last() {
        let b: Bitboard = [Cell::new(3), Cell::new(77), Cell::new(124)].into_iter().collect();
        assert_eq!(b.count(), 3);
        assert_eq!(b.first(), Some(Cell::new(3)));
        assert_eq!(b.last(), Some(Cell::new(124)));
        assert_eq!(b.collect::<Vec<_>>(), vec![Cell::new(3), Cell::new(77), Cell::new(124)]);
        assert!(b.more_than_one());
        assert!(!Bitboard::from_cell(Cell::new(9)).more_than_one());
    }
}
