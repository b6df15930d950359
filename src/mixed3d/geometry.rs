//! Cells of the 8x8x8 cube, their text, and the planes through it that carry the sliding moves.
//!
//! A cell is `level * 64 + rank * 8 + file` (levels, ranks and files 0..8, printed `1`..`8`,
//! `1`..`8` and `a`..`h`: `4e1` is level 4, file e, rank 1). The square of a cell within its level
//! is `rank * 8 + file`, a chess square ([`crate::game::board8`]).
//!
//! **Planes.** Every slide of Mixed 3D runs along a line that lies in one of five families of 8x8
//! planes, and along those lines the slide is a chess rook's or bishop's move of that plane, so
//! the chess attack functions of one 64-bit board find it:
//!
//! | plane (index) | bit of a cell | its chess lines, used | directions (file, rank, level) |
//! |---|---|---|---|
//! | level `l` | `rank*8+file` | rook and bishop lines | rook (±1,0,0), (0,±1,0); bishop (±1,±1,0) |
//! | rank `r` | `level*8+file` | diagonals, and the column of the cell's file | rook (±1,0,±1), (0,0,±1) |
//! | file `f` | `level*8+rank` | diagonals | rook (0,±1,±1) |
//! | diagonal `file−rank+7` | `level*8+file` | diagonals | bishop (1,1,±1), (−1,−1,±1) |
//! | anti-diagonal `file+rank` | `level*8+file` | diagonals | bishop (1,−1,±1), (−1,1,±1) |
//!
//! 4 + 2 + 4 + 4 = 14 rook directions, 4 + 4 + 4 = 12 bishop directions. In the diagonal
//! planes the rank follows the file (`rank = file − (index − 7)`, or `index − file`), so part of a
//! plane lies outside the cube; its cells are never occupied, and a chess diagonal that leaves the
//! cube never comes back, so masking its attacks with the plane's cells ([`DIAG_CELLS`],
//! [`ANTI_CELLS`]) is exact.

use crate::game::board8::{bishop_attacks, leaper_table, rook_attacks};

/// Cells of the cube.
pub const CELLS: usize = 512;
/// Levels, ranks and files.
pub const SIDE: usize = 8;
/// Diagonal (and anti-diagonal) planes.
pub const DIAGS: usize = 15;

/// The level of a cell (0..8).
#[inline]
pub const fn level(cell: usize) -> usize {
    cell >> 6
}

/// The rank of a cell (0..8).
#[inline]
pub const fn rank(cell: usize) -> usize {
    (cell >> 3) & 7
}

/// The file of a cell (0..8).
#[inline]
pub const fn file(cell: usize) -> usize {
    cell & 7
}

/// The cell at `level`, `file`, `rank` (each 0..8).
#[inline]
pub const fn cell(level: usize, file: usize, rank: usize) -> usize {
    level * 64 + rank * 8 + file
}

/// A cell's text, `4e1`.
pub fn cell_name(c: usize) -> String {
    format!("{}{}{}", level(c) + 1, (b'a' + file(c) as u8) as char, rank(c) + 1)
}

/// Reads a cell (`4e1`) from the start of `s`.
pub fn parse_cell(s: &[u8]) -> Option<usize> {
    match s {
        [l @ b'1'..=b'8', f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => {
            Some(cell((l - b'1') as usize, (f - b'a') as usize, (r - b'1') as usize))
        }
        _ => None,
    }
}

/// The bit of `c` in its rank plane.
#[inline]
pub const fn rank_bit(c: usize) -> u64 {
    1 << (level(c) * 8 + file(c))
}

/// The bit of `c` in its file plane.
#[inline]
pub const fn file_bit(c: usize) -> u64 {
    1 << (level(c) * 8 + rank(c))
}

/// The diagonal plane of `c`.
#[inline]
pub const fn diag(c: usize) -> usize {
    file(c) + 7 - rank(c)
}

/// The anti-diagonal plane of `c`.
#[inline]
pub const fn anti(c: usize) -> usize {
    file(c) + rank(c)
}

/// The cell of bit `b` of rank plane `r`.
#[inline]
pub const fn from_rank_bit(r: usize, b: usize) -> usize {
    cell(b >> 3, b & 7, r)
}

/// The cell of bit `b` of file plane `f`.
#[inline]
pub const fn from_file_bit(f: usize, b: usize) -> usize {
    cell(b >> 3, f, b & 7)
}

/// The cell of bit `b` of diagonal plane `d`.
#[inline]
pub const fn from_diag_bit(d: usize, b: usize) -> usize {
    let f = b & 7;
    cell(b >> 3, f, f + 7 - d)
}

/// The cell of bit `b` of anti-diagonal plane `a`.
#[inline]
pub const fn from_anti_bit(a: usize, b: usize) -> usize {
    let f = b & 7;
    cell(b >> 3, f, a - f)
}

const fn plane_cells(anti: bool) -> [u64; DIAGS] {
    let mut t = [0u64; DIAGS];
    let mut p = 0;
    while p < DIAGS {
        let mut l = 0usize;
        while l < 8 {
            let mut f = 0usize;
            while f < 8 {
                let r = if anti { p as i32 - f as i32 } else { f as i32 + 7 - p as i32 };
                if r >= 0 && r < 8 {
                    t[p] |= 1 << (l * 8 + f);
                }
                f += 1;
            }
            l += 1;
        }
        p += 1;
    }
    t
}

/// The cells of each diagonal plane.
pub const DIAG_CELLS: [u64; DIAGS] = plane_cells(false);
/// The cells of each anti-diagonal plane.
pub const ANTI_CELLS: [u64; DIAGS] = plane_cells(true);

/// The column of a file in a rank plane: the cells of that file on every level.
pub const fn column(f: usize) -> u64 {
    0x0101_0101_0101_0101 << f
}

/// The rook's lines of a rank plane from `bit` (`level*8+file`): its diagonals and the column.
#[inline]
pub fn rook_in_rank_plane(bit: usize, occ: u64) -> u64 {
    bishop_attacks(bit, occ) | (rook_attacks(bit, occ) & column(bit & 7))
}

/// Knight leaps within a level: the chess knight's.
pub use crate::game::board8::KNIGHT as KNIGHT_SAME_LEVEL;
/// Knight leaps to the next level up or down: (0,±2) and (±2,0) in the level.
pub const KNIGHT_ONE_LEVEL: [u64; 64] = leaper_table(&[(0, 2), (0, -2), (2, 0), (-2, 0)]);
/// Knight leaps two levels up or down: (0,±1) and (±1,0) in the level.
pub const KNIGHT_TWO_LEVELS: [u64; 64] = leaper_table(&[(0, 1), (0, -1), (1, 0), (-1, 0)]);
/// King steps within a level: the chess king's.
pub use crate::game::board8::KING as KING_SAME_LEVEL;

/// King steps to the next level up or down: the same square and the chess king's steps.
pub const KING_ONE_LEVEL: [u64; 64] = {
    let mut t = crate::game::board8::KING;
    let mut s = 0;
    while s < 64 {
        t[s] |= 1 << s;
        s += 1;
    }
    t
};

/// One castling: the rook's cell (also the right's name), the king's and the rook's destinations
/// and the cells that must be empty, for white; black's are the same on rank 8.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    /// The rook's start cell.
    pub rook: usize,
    /// The king's destination.
    pub king_to: usize,
    /// The rook's destination (the cell the king crosses).
    pub rook_to: usize,
    /// The cells between king and rook on their line (for `1a1`, the line towards "0a1").
    pub between: &'static [usize],
}

const fn c1(l: usize, f: usize) -> usize {
    cell(l - 1, f, 0)
}

/// White's six castlings in the order of the castling field: `4h1,1h1,7h1,4a1,8a1,1a1`.
pub const WHITE_CASTLINGS: [Castling; 6] = [
    Castling { rook: c1(4, 7), king_to: c1(4, 6), rook_to: c1(4, 5), between: &[c1(4, 5), c1(4, 6)] },
    Castling { rook: c1(1, 7), king_to: c1(2, 6), rook_to: c1(3, 5), between: &[c1(3, 5), c1(2, 6)] },
    Castling { rook: c1(7, 7), king_to: c1(6, 6), rook_to: c1(5, 5), between: &[c1(5, 5), c1(6, 6)] },
    Castling { rook: c1(4, 0), king_to: c1(4, 2), rook_to: c1(4, 3), between: &[c1(4, 3), c1(4, 2), c1(4, 1)] },
    Castling { rook: c1(8, 0), king_to: c1(6, 2), rook_to: c1(5, 3), between: &[c1(5, 3), c1(6, 2), c1(7, 1)] },
    Castling { rook: c1(1, 0), king_to: c1(2, 2), rook_to: c1(3, 3), between: &[c1(3, 3), c1(2, 2), c1(1, 1)] },
];

/// The royal king's start cell of each side: `4e1`, `4e8`.
pub const KING_START: [usize; 2] = [cell(3, 4, 0), cell(3, 4, 7)];

/// The same cell on the other side's back rank (rank 1 ↔ rank 8).
#[inline]
pub const fn mirror_rank(c: usize) -> usize {
    cell(level(c), file(c), 7 - rank(c))
}

/// Castling rights cleared when a move leaves or lands on each cell: the king's start cell
/// clears its side's six, a rook's cell its own (bits: white 0..6, black 6..12, in field order).
pub static RIGHTS_CLEARED: [u16; CELLS] = {
    let mut t = [0u16; CELLS];
    t[KING_START[0]] = 0x3F;
    t[KING_START[1]] = 0xFC0;
    let mut i = 0;
    while i < 6 {
        let r = WHITE_CASTLINGS[i].rook;
        t[r] |= 1 << i;
        t[mirror_rank(r)] |= 1 << (i + 6);
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_plane_bits_convert_both_ways() {
        for c in 0..CELLS {
            assert_eq!(parse_cell(cell_name(c).as_bytes()), Some(c));
            assert_eq!(from_rank_bit(rank(c), level(c) * 8 + file(c)), c);
            assert_eq!(from_file_bit(file(c), level(c) * 8 + rank(c)), c);
            assert_eq!(from_diag_bit(diag(c), level(c) * 8 + file(c)), c);
            assert_eq!(from_anti_bit(anti(c), level(c) * 8 + file(c)), c);
            assert_ne!(DIAG_CELLS[diag(c)] & (1 << (level(c) * 8 + file(c))), 0);
            assert_ne!(ANTI_CELLS[anti(c)] & (1 << (level(c) * 8 + file(c))), 0);
        }
        assert_eq!(cell_name(KING_START[0]), "4e1");
        assert_eq!(cell_name(KING_START[1]), "4e8");
        assert_eq!(parse_cell(b"9a1"), None);
        let names: Vec<String> = WHITE_CASTLINGS.iter().map(|c| cell_name(c.rook)).collect();
        assert_eq!(names, ["4h1", "1h1", "7h1", "4a1", "8a1", "1a1"]);
    }

    /// The plane attacks give, on an empty cube, exactly the cells a ray walk in the rook's 14
    /// and the bishop's 12 directions reaches.
    #[test]
    fn plane_slides_are_the_ray_walks() {
        let walk = |c: usize, dirs: &[(i32, i32, i32)]| {
            let mut v = Vec::new();
            for &(df, dr, dl) in dirs {
                let (mut f, mut r, mut l) = (file(c) as i32, rank(c) as i32, level(c) as i32);
                loop {
                    f += df;
                    r += dr;
                    l += dl;
                    if !(0..8).contains(&f) || !(0..8).contains(&r) || !(0..8).contains(&l) {
                        break;
                    }
                    v.push(cell(l as usize, f as usize, r as usize));
                }
            }
            v.sort();
            v
        };
        let mut rook_dirs = vec![(0, 0, 1), (0, 0, -1)];
        let mut bishop_dirs = vec![];
        for l in -1..=1 {
            for s in [-1, 1] {
                rook_dirs.push((s, 0, l));
                rook_dirs.push((0, s, l));
                for t in [-1, 1] {
                    bishop_dirs.push((s, t, l));
                }
            }
        }
        assert_eq!((rook_dirs.len(), bishop_dirs.len()), (14, 12));
        for c in (0..CELLS).step_by(7) {
            let (l, f, r) = (level(c), file(c), rank(c));
            let mut rook: Vec<usize> = Vec::new();
            let sq = r * 8 + f;
            let bits = |set: u64, conv: &dyn Fn(usize) -> usize, out: &mut Vec<usize>| {
                let mut s = set;
                while s != 0 {
                    out.push(conv(s.trailing_zeros() as usize));
                    s &= s - 1;
                }
            };
            bits(rook_attacks(sq, 0), &|b| l * 64 + b, &mut rook);
            bits(rook_in_rank_plane(l * 8 + f, 0), &|b| from_rank_bit(r, b), &mut rook);
            bits(bishop_attacks(l * 8 + r, 0), &|b| from_file_bit(f, b), &mut rook);
            rook.sort();
            assert_eq!(rook, walk(c, &rook_dirs), "rook from {}", cell_name(c));
            let mut bishop: Vec<usize> = Vec::new();
            let (d, a) = (diag(c), anti(c));
            bits(bishop_attacks(sq, 0), &|b| l * 64 + b, &mut bishop);
            bits(bishop_attacks(l * 8 + f, 0) & DIAG_CELLS[d], &|b| from_diag_bit(d, b), &mut bishop);
            bits(bishop_attacks(l * 8 + f, 0) & ANTI_CELLS[a], &|b| from_anti_bit(a, b), &mut bishop);
            bishop.sort();
            assert_eq!(bishop, walk(c, &bishop_dirs), "bishop from {}", cell_name(c));
        }
    }
}
