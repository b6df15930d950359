//! The validated position: bitboards plus a mailbox, make/unmake, attacks and the Zobrist hash.
//!
//! A [`Setup`] is unchecked input (from text or a generator); [`Position::from_setup`] validates it
//! and names what is wrong. A `Position` always satisfies the invariants checked by
//! [`Position::check_invariants`] (run after every make/unmake in debug builds).
//!
//! Make/unmake: [`Position::make`] returns an [`Undo`] holding the few scalars a move can change
//! irreversibly (captured piece, rights, reserve, en passant, clocks, hash); [`Position::unmake`]
//! restores the board by reversing the move and copies the scalars back. No allocation.
//!
//! Files: this one holds the types, the board codes and the accessors; `setup.rs` builds and validates
//! positions, `make.rs` plays and takes back moves, `attacks.rs` answers attack, check and pin questions,
//! `invariants.rs` recomputes the hash and checks the invariants.

mod attacks;
pub use attacks::{piece_attacks, piece_quiet_moves};
mod invariants;
mod make;
mod setup;

use super::bitboard::Bitboard;
use super::cell::Cell;
use super::geometry::Geometry;
use super::types::{reserve_bit, Kind, Piece, Ruleset, Variant, KIND_COUNT, RESERVE_KINDS};
use crate::game::Color;

/// En passant rights: the passed cell(s) and the cell of the pawn that can be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct EnPassant {
    /// Passed cells (one or two); empty when there are no rights.
    pub passed: u128,
    /// Cell of the double-moved pawn (meaningless when `passed` is empty).
    pub pawn: u8,
}

impl EnPassant {
    /// Whether there are rights at all.
    #[inline]
    pub const fn is_some(&self) -> bool {
        self.passed != 0
    }
}

/// Unchecked position content, as parsed from text or built by a generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The rules and board flags.
    pub variant: Variant,
    /// Piece on each cell.
    pub board: [Option<Piece>; 125],
    /// Side to move.
    pub side: Color,
    /// Reserve mask per side (W = 1, G = 2, S = 4).
    pub reserve: [u8; 2],
    /// Cells whose non-pawn piece has never moved.
    pub rights: Bitboard,
    /// En passant rights.
    pub ep: EnPassant,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    /// Move number, from 1.
    pub fullmove: u32,
}

/// Why a setup is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A side has no king or more than one.
    #[error("{0} has {1} kings (exactly one is required)")]
    KingCount(&'static str, u32),
    /// A piece the ruleset does not have.
    #[error("{ruleset} has no {piece} (on {cell})")]
    ForeignPiece {
        /// Ruleset name.
        ruleset: &'static str,
        /// Piece name.
        piece: &'static str,
        /// Where it stands.
        cell: Cell,
    },
    /// Reserve pieces in a ruleset without them.
    #[error("{0} has no reserve pieces")]
    ReserveNotAllowed(&'static str),
    /// Placement rights in a ruleset without them.
    #[error("{0} has no placement rights")]
    RightsNotAllowed(&'static str),
    /// A placement right on a cell without a non-pawn piece.
    #[error("placement right on {0}, which holds no non-pawn piece")]
    RightWithoutPiece(Cell),
    /// En passant rights in a ruleset without double moves.
    #[error("{0} has no en passant")]
    EpNotAllowed(&'static str),
    /// En passant field inconsistent with the board.
    #[error("en passant field does not match a double move of a {0} pawn: {1}")]
    BadEp(&'static str, String),
    /// A pawn standing on its own promotion row.
    #[error("{0} pawn on its promotion row at {1}")]
    PawnOnPromotionRow(&'static str, Cell),
    /// The side not to move is in check.
    #[error("the side not to move ({0}) is in check")]
    OpponentInCheck(&'static str),
    /// A bit set past cell 124 (bits 125–127 of a 125-cell board).
    #[error("{0} names a cell past the board's 125 (bits 125 to 127 must be zero)")]
    OffBoard(&'static str),
    /// Move number zero.
    #[error("move number must be at least 1")]
    BadFullmove,
    /// A flag combination the rules forbid (e.g. castling in Raumschach).
    #[error(transparent)]
    Variant(#[from] super::types::VariantError),
}

/// Scalars saved by [`Position::make`] and restored by [`Position::unmake`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    rights: u128,
    ep: EnPassant,
    ep_hashed: bool,
    reserve: [u8; 2],
    halfmove: u16,
    hash: u64,
}

/// The move tables of a position's topology, held by reference so that the hot paths need no
/// topology test to find them.
#[derive(Clone, Copy)]
struct Tables(&'static Geometry);

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.cylinder { "hypercylinder tables" } else { "flat tables" })
    }
}

/// A legal position of one variant.
#[derive(Clone, Debug)]
pub struct Position {
    variant: Variant,
    tables: Tables,
    by_kind: [u128; KIND_COUNT],
    by_color: [u128; 2],
    /// 0 for an empty cell, else `1 + kind + 16 * color`.
    board: [u8; 125],
    kings: [u8; 2],
    side: Color,
    reserve: [u8; 2],
    rights: u128,
    ep: EnPassant,
    ep_hashed: bool,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
}

#[inline]
const fn code(p: Piece) -> u8 {
    1 + p.kind as u8 + 16 * p.color as u8
}

/// The byte [`Position::cell_codes`] holds for a cell with `p` on it: never 0, always below 64.
pub const fn piece_code(p: Piece) -> u8 {
    code(p)
}

/// The piece of every board code (`None` for 0 and for codes no piece has): one load per decode.
static DECODE: [Option<Piece>; 256] = {
    let mut t = [None; 256];
    let mut color = 0;
    while color < 2 {
        let mut k = 0;
        while k < KIND_COUNT {
            let p = Piece::new(if color == 0 { Color::White } else { Color::Black }, Kind::ALL[k]);
            t[code(p) as usize] = Some(p);
            k += 1;
        }
        color += 1;
    }
    t
};

#[inline]
fn decode(c: u8) -> Option<Piece> {
    DECODE[c as usize]
}

/// Cells of the promotion row of each pawn class.
const PROMOTION_ROWS: [u128; 4] = [row_of(0), row_of(1), row_of(2), row_of(3)];

/// Cells of the promotion row of a pawn class (see [`pawn_class`](super::geometry::pawn_class)).
#[inline]
pub const fn promotion_row(class: usize) -> u128 {
    PROMOTION_ROWS[class]
}

/// The promotion row of a pawn class, computed.
const fn row_of(class: usize) -> u128 {
    let (layer, rank) = match class {
        0 => (0, 4),
        1 => (4, 0),
        2 => (4, 4),
        _ => (0, 0),
    };
    let mut b = 0u128;
    let mut f = 0;
    while f < 5 {
        b |= 1u128 << (layer * 25 + rank * 5 + f);
        f += 1;
    }
    b
}

/// Cells of the outer start row from which Five Up pawns of a colour may double move (E2 / A4).
pub const fn double_row(color: Color) -> u128 {
    let (layer, rank) = match color {
        Color::White => (4, 1),
        Color::Black => (0, 3),
    };
    let mut b = 0u128;
    let mut f = 0;
    while f < 5 {
        b |= 1u128 << (layer * 25 + rank * 5 + f);
        f += 1;
    }
    b
}

impl Position {
    // ----- accessors -------------------------------------------------------------------------

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// The ruleset.
    #[inline]
    pub fn ruleset(&self) -> Ruleset {
        self.variant.ruleset
    }
    /// Side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    /// Piece on a cell.
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        decode(self.board[c.index()])
    }
    /// Every cell's content as one byte, by cell index: 0 when empty, else [`piece_code`] of the
    /// piece standing there (for consumers that compare whole boards at once, such as the NNUE
    /// accumulator).
    #[inline]
    pub fn cell_codes(&self) -> &[u8; 125] {
        &self.board
    }
    /// Cells of a side's pieces of a kind.
    #[inline]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        Bitboard(self.by_kind[kind.index()] & self.by_color[color.index()])
    }
    /// Cells of all pieces of a kind, both sides.
    #[inline]
    pub fn kind_bb(&self, kind: Kind) -> Bitboard {
        Bitboard(self.by_kind[kind.index()])
    }
    /// Cells of a side's pieces.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }
    /// Occupied cells.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0] | self.by_color[1])
    }
    /// A side's king cell.
    #[inline]
    pub fn king(&self, color: Color) -> Cell {
        Cell::new_unchecked(self.kings[color.index()])
    }
    /// Reserve mask of a side (W = 1, G = 2, S = 4).
    #[inline]
    pub fn reserve(&self, color: Color) -> u8 {
        self.reserve[color.index()]
    }
    /// Reserve kinds a side still holds, in W, G, S order.
    pub fn reserve_kinds(&self, color: Color) -> impl Iterator<Item = Kind> + '_ {
        let m = self.reserve[color.index()];
        RESERVE_KINDS.into_iter().filter(move |k| m & reserve_bit(*k).unwrap_or(0) != 0)
    }
    /// Cells with placement rights (both sides).
    #[inline]
    pub fn rights(&self) -> Bitboard {
        Bitboard(self.rights)
    }
    /// En passant rights.
    #[inline]
    pub fn ep(&self) -> EnPassant {
        self.ep
    }
    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove(&self) -> u32 {
        self.halfmove as u32
    }
    /// Move number.
    #[inline]
    pub fn fullmove(&self) -> u32 {
        self.fullmove as u32
    }
    /// Zobrist hash (see [`super::zobrist`] for what it covers).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The move tables of this position's topology.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.tables.0
    }
    /// Whether the side to move can still place a reserve piece at some point (holds one, and has
    /// a non-pawn piece with its right).
    pub fn can_place(&self, color: Color) -> bool {
        self.reserve[color.index()] != 0 && self.rights & self.by_color[color.index()] != 0
    }

    /// Whether only the two kings are left and neither side can still place a reserve piece
    /// (a draw by bare kings, docs/RULES.md §2).
    pub fn bare_kings(&self) -> bool {
        self.occupied().count() == 2 && !self.can_place(Color::White) && !self.can_place(Color::Black)
    }
}

/// Double moves of a pawn of `class` from `from`: (target, passed cells). Empty unless `from` is on
/// its colour's outer start row. Occupancy is checked by the caller. (A table lookup: the moves
/// change rank and layer only, so both topologies share them.)
#[inline]
pub fn double_moves(g: &Geometry, class: usize, from: usize) -> Vec2 {
    let _ = g;
    if class >= 2 {
        return Vec2::EMPTY;
    }
    DOUBLE_MOVES[class][from]
}

/// [`double_moves`] of the two Five Up pawn classes, per origin cell.
static DOUBLE_MOVES: [[Vec2; 125]; 2] = {
    let mut t = [[Vec2::EMPTY; 125]; 2];
    let mut class = 0;
    while class < 2 {
        let color = if class == 0 { Color::White } else { Color::Black };
        let (fwd, up) = super::geometry::pawn_deltas(class);
        let mut from = 0;
        while from < 125 {
            if double_row(color) >> from & 1 != 0 {
                let mut v = Vec2::EMPTY;
                let f1 = super::geometry::offset(from, (0, fwd, 0), false);
                let u1 = super::geometry::offset(from, (up, 0, 0), false);
                if let Some(f1) = f1 {
                    if let Some(x) = super::geometry::offset(f1, (0, fwd, 0), false) {
                        v.items[v.len] = (x, 1u128 << f1);
                        v.len += 1;
                    }
                }
                if let Some(u1) = u1 {
                    if let Some(x) = super::geometry::offset(u1, (up, 0, 0), false) {
                        v.items[v.len] = (x, 1u128 << u1);
                        v.len += 1;
                    }
                }
                if let (Some(f1), Some(u1)) = (f1, u1) {
                    if let Some(x) = super::geometry::offset(f1, (up, 0, 0), false) {
                        v.items[v.len] = (x, 1u128 << f1 | 1u128 << u1);
                        v.len += 1;
                    }
                }
                t[class][from] = v;
            }
            from += 1;
        }
        class += 1;
    }
    t
};

/// A tiny fixed list of up to three (target, passed cells) pairs.
#[derive(Default, Clone, Copy, Debug)]
pub struct Vec2 {
    items: [(usize, u128); 3],
    len: usize,
}

impl Vec2 {
    /// No moves.
    pub const EMPTY: Vec2 = Vec2 { items: [(0, 0); 3], len: 0 };
}

impl IntoIterator for Vec2 {
    type Item = (usize, u128);
    type IntoIter = std::iter::Take<std::array::IntoIter<(usize, u128), 3>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

#[cfg(test)]
mod tests;
