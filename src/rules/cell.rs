//! Cells of the 5x5x5 board and their names (`Cc3`).
//!
//! Index = layer * 25 + rank * 5 + file, with layer A..E = 0..4, rank 1..5 = 0..4 and file a..e = 0..4.

use std::fmt;
use std::str::FromStr;

/// One of the 125 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// Number of cells.
pub const CELL_COUNT: usize = 125;

impl Cell {
    /// A cell from its index; panics when `index >= 125`.
    #[inline]
    pub const fn new(index: u8) -> Cell {
        assert!(index < 125, "cell index out of range");
        Cell(index)
    }

    /// A cell from its index without the range check (debug builds still check).
    #[inline]
    pub const fn new_unchecked(index: u8) -> Cell {
        debug_assert!(index < 125);
        Cell(index)
    }

    /// A cell from coordinates (layer, rank, file), each 0..5; `None` outside the board.
    #[inline]
    pub const fn from_coords(layer: i32, rank: i32, file: i32) -> Option<Cell> {
        if layer < 0 || layer > 4 || rank < 0 || rank > 4 || file < 0 || file > 4 {
            None
        } else {
            Some(Cell((layer * 25 + rank * 5 + file) as u8))
        }
    }

    /// Index 0..125.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Layer 0..5 (A..E).
    #[inline]
    pub const fn layer(self) -> i32 {
        (self.0 / 25) as i32
    }

    /// Rank 0..5 (ranks 1..5).
    #[inline]
    pub const fn rank(self) -> i32 {
        ((self.0 / 5) % 5) as i32
    }

    /// File 0..5 (a..e).
    #[inline]
    pub const fn file(self) -> i32 {
        (self.0 % 5) as i32
    }

    /// Colour parity: (layer + file + rank) mod 2.
    pub const fn parity(self) -> u8 {
        ((self.layer() + self.rank() + self.file()) % 2) as u8
    }

    /// This cell with files a..e mirrored (a<->e).
    pub const fn mirror_file(self) -> Cell {
        Cell((self.layer() * 25 + self.rank() * 5 + (4 - self.file())) as u8)
    }

    /// This cell turned through the centre of the cube.
    pub const fn rotate(self) -> Cell {
        Cell(124 - self.0)
    }

    /// Every cell in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..125u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = (b'A' + self.layer() as u8) as char;
        let fl = (b'a' + self.file() as u8) as char;
        let r = (b'1' + self.rank() as u8) as char;
        write!(f, "{l}{fl}{r}")
    }
}

/// A malformed cell name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad cell '{0}' (expected layer A-E, file a-e, rank 1-5, e.g. Cc3)")]
pub struct BadCell(pub String);

impl Cell {
    /// Parses a cell name from the first three bytes of `s`.
    pub fn parse_prefix(s: &[u8]) -> Option<Cell> {
        if s.len() < 3 {
            return None;
        }
        let l = s[0].wrapping_sub(b'A') as i32;
        let f = s[1].wrapping_sub(b'a') as i32;
        let r = s[2].wrapping_sub(b'1') as i32;
        Cell::from_coords(l, r, f)
    }
}

impl FromStr for Cell {
    type Err = BadCell;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() != 3 {
            return Err(BadCell(s.to_string()));
        }
        Cell::parse_prefix(s.as_bytes()).ok_or_else(|| BadCell(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>().unwrap(), c);
        }
        assert_eq!("Cc3".parse::<Cell>().unwrap().index(), 2 * 25 + 2 * 5 + 2);
        assert_eq!("Aa1".parse::<Cell>().unwrap().index(), 0);
        assert!("Fa1".parse::<Cell>().is_err());
        assert!("Ca6".parse::<Cell>().is_err());
        assert!("cc3".parse::<Cell>().is_err());
        assert!("Cc".parse::<Cell>().is_err());
    }

    #[test]
    fn mirror_and_rotate() {
        let c: Cell = "Ba2".parse().unwrap();
        assert_eq!(c.mirror_file().to_string(), "Be2");
        assert_eq!(c.rotate().to_string(), "De4");
    }
}
