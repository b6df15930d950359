//! The validated position: bitboards plus a mailbox, make/unmake, attacks and the Zobrist hash.
//!
//! A [`Setup`] is unchecked input (from text or a generator); [`Position::from_setup`] validates it
//! and names what is wrong. A `Position` always satisfies the invariants checked by
//! [`Position::check_invariants`] (run after every make/unmake in debug builds).
//!
//! Make/unmake: [`Position::make`] returns an [`Undo`] holding the few scalars a move can change
//! irreversibly (captured piece, rights, reserve, en passant, clocks, hash); [`Position::unmake`]
//! restores the board by reversing the move and copies the scalars back. No allocation.

use super::bitboard::Bitboard;
use super::cell::Cell;
use super::geometry::{pawn_class, Geometry, DIAG2, DIAG3, ORTH};
use super::moves::{Move, Special};
use super::types::{reserve_bit, Color, Kind, Piece, Ruleset, Variant, KIND_COUNT, RESERVE_KINDS};
use super::zobrist::KEYS;

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

/// Cells of the promotion row of a pawn class (see [`pawn_class`]).
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

    /// The unchecked content of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 125];
        for (i, b) in board.iter_mut().enumerate() {
            *b = decode(self.board[i]);
        }
        Setup {
            variant: self.variant,
            board,
            side: self.side,
            reserve: self.reserve,
            rights: Bitboard(self.rights),
            ep: self.ep,
            halfmove: self.halfmove as u32,
            fullmove: self.fullmove as u32,
        }
    }

    // ----- construction ----------------------------------------------------------------------

    /// The start position of a variant.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_setup(Setup::start(variant)).expect("start positions are valid")
    }

    /// Validates a setup.
    pub fn from_setup(s: Setup) -> Result<Position, SetupError> {
        let rs = s.variant.ruleset;
        // `Variant`'s fields are public, so a literal may bypass `Variant::new`: check again.
        Variant::new(rs, s.variant.castling, s.variant.hypercylinder)?;
        let mut p = Position {
            variant: s.variant,
            tables: Tables(Geometry::get(s.variant.hypercylinder)),
            by_kind: [0; KIND_COUNT],
            by_color: [0; 2],
            board: [0; 125],
            kings: [0; 2],
            side: s.side,
            reserve: s.reserve,
            rights: s.rights.0,
            ep: s.ep,
            ep_hashed: false,
            halfmove: s.halfmove.min(u16::MAX as u32) as u16,
            fullmove: s.fullmove.min(u16::MAX as u32) as u16,
            hash: 0,
        };
        for (i, pc) in s.board.iter().enumerate() {
            if let Some(pc) = *pc {
                let c = Cell::new(i as u8);
                if !rs.has_kind(pc.kind) {
                    return Err(SetupError::ForeignPiece { ruleset: rs.name(), piece: pc.kind.name(), cell: c });
                }
                p.put(c, pc);
            }
        }
        for color in Color::ALL {
            let n = (p.by_kind[Kind::King.index()] & p.by_color[color.index()]).count_ones();
            if n != 1 {
                return Err(SetupError::KingCount(color.name(), n));
            }
            p.kings[color.index()] = (p.by_kind[Kind::King.index()] & p.by_color[color.index()]).trailing_zeros() as u8;
            let class = pawn_class(rs, color);
            if let Some(c) = Bitboard(p.by_kind[0] & p.by_color[color.index()] & promotion_row(class)).first() {
                return Err(SetupError::PawnOnPromotionRow(color.name(), c));
            }
        }
        if s.fullmove == 0 {
            return Err(SetupError::BadFullmove);
        }
        if !rs.is_fiveup() {
            if s.reserve != [0, 0] {
                return Err(SetupError::ReserveNotAllowed(rs.name()));
            }
            if s.rights.nonempty() {
                return Err(SetupError::RightsNotAllowed(rs.name()));
            }
        }
        p.reserve[0] &= 7;
        p.reserve[1] &= 7;
        if s.rights.0 >> 125 != 0 {
            return Err(SetupError::OffBoard("the placement rights"));
        }
        if s.ep.passed >> 125 != 0 {
            return Err(SetupError::OffBoard("the en passant field"));
        }
        for c in s.rights {
            match p.piece_at(c) {
                Some(pc) if pc.kind != Kind::Pawn => {}
                _ => return Err(SetupError::RightWithoutPiece(c)),
            }
        }
        if s.ep.is_some() {
            if !rs.has_double_move() {
                return Err(SetupError::EpNotAllowed(rs.name()));
            }
            p.validate_ep()?;
        }
        let them = p.side.flip();
        if p.attackers(p.kings[them.index()] as usize, p.side, p.occupied().0, p.by_color[p.side.index()]) != 0 {
            return Err(SetupError::OpponentInCheck(them.name()));
        }
        p.ep_hashed = p.ep_capture_possible();
        p.hash = p.compute_hash();
        Ok(p)
    }

    fn validate_ep(&self) -> Result<(), SetupError> {
        let mover = self.side.flip();
        let bad = |why: &str| SetupError::BadEp(mover.name(), why.to_string());
        let pawn = Cell::new_unchecked(self.ep.pawn.min(124));
        if self.ep.pawn >= 125 || self.piece_at(pawn) != Some(Piece::new(mover, Kind::Pawn)) {
            return Err(bad(&format!("no {} pawn on {}", mover.name(), pawn)));
        }
        if self.ep.passed & self.occupied().0 != 0 {
            return Err(bad("a passed cell is occupied"));
        }
        // Some origin on the mover's outer start row must give exactly these (empty) passed cells.
        let g = self.geometry();
        for origin in Bitboard(double_row(mover)) {
            if self.board[origin.index()] != 0 {
                continue;
            }
            for (target, passed) in double_moves(g, pawn_class(self.ruleset(), mover), origin.index()) {
                if target == pawn.index() {
                    let empty = passed & !self.occupied().0;
                    if empty == self.ep.passed {
                        return Ok(());
                    }
                }
            }
        }
        Err(bad(&format!("no double move reaches {pawn} passing exactly the given cells")))
    }

    // ----- board edits -----------------------------------------------------------------------

    #[inline]
    fn put(&mut self, c: Cell, p: Piece) {
        let i = c.index();
        debug_assert_eq!(self.board[i], 0, "put on occupied {c}");
        self.board[i] = code(p);
        self.by_kind[p.kind.index()] |= 1u128 << i;
        self.by_color[p.color.index()] |= 1u128 << i;
        self.hash ^= KEYS.piece[p.color.index()][p.kind.index()][i];
        if p.kind == Kind::King {
            self.kings[p.color.index()] = i as u8;
        }
    }

    #[inline]
    fn remove(&mut self, c: Cell) -> Piece {
        let i = c.index();
        let p = decode(self.board[i]).expect("remove from empty cell");
        self.board[i] = 0;
        self.by_kind[p.kind.index()] ^= 1u128 << i;
        self.by_color[p.color.index()] ^= 1u128 << i;
        self.hash ^= KEYS.piece[p.color.index()][p.kind.index()][i];
        p
    }

    /// Hash contribution of a right on `c` owned by `color`, given the current reserve.
    #[inline]
    fn right_key(&self, color: Color, c: usize) -> u64 {
        if self.reserve[color.index()] != 0 {
            KEYS.rights[c]
        } else {
            0
        }
    }

    #[inline]
    fn clear_right(&mut self, color: Color, c: usize) {
        if self.rights >> c & 1 != 0 {
            self.rights ^= 1u128 << c;
            self.hash ^= self.right_key(color, c);
        }
    }

    #[inline]
    fn set_right(&mut self, color: Color, c: usize) {
        debug_assert!(self.rights >> c & 1 == 0);
        self.rights |= 1u128 << c;
        self.hash ^= self.right_key(color, c);
    }

    fn ep_key(&self) -> u64 {
        Bitboard(self.ep.passed).fold(0, |h, c| h ^ KEYS.ep[c.index()])
    }

    // ----- make / unmake ---------------------------------------------------------------------

    /// Plays a legal move (undefined results for an illegal one; debug builds check invariants).
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: 0,
            rights: self.rights,
            ep: self.ep,
            ep_hashed: self.ep_hashed,
            reserve: self.reserve,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        let mut undo = undo;
        let us = self.side;
        let them = us.flip();
        if self.ep_hashed {
            self.hash ^= self.ep_key();
        }
        self.ep = EnPassant::default();
        self.ep_hashed = false;
        let (from, to) = (m.from(), m.to());
        match m.special() {
            Special::Castle => {
                let k = self.remove(from);
                let r = self.remove(to);
                self.put(to, k);
                self.put(from, r);
                self.clear_right(us, from.index());
                self.clear_right(us, to.index());
                self.halfmove = self.halfmove.saturating_add(1);
            }
            Special::EnPassant => {
                let cap = Cell::new_unchecked(undo.ep.pawn);
                undo.captured = self.board[cap.index()];
                self.remove(cap);
                let p = self.remove(from);
                self.put(to, p);
                self.halfmove = 0;
            }
            Special::Normal | Special::Double => {
                undo.captured = self.board[to.index()];
                if undo.captured != 0 {
                    self.remove(to);
                    self.clear_right(them, to.index());
                }
                let p = self.remove(from);
                let had_right = self.rights >> from.index() & 1 != 0;
                self.clear_right(us, from.index());
                match m.promotion() {
                    Some(k) => {
                        self.put(to, Piece::new(us, k));
                        // A promoted piece counts as never moved (docs/RULES.md §2).
                        if self.ruleset().is_fiveup() {
                            self.set_right(us, to.index());
                        }
                    }
                    None => self.put(to, p),
                }
                if let Some(k) = m.placement() {
                    debug_assert!(had_right);
                    self.put(from, Piece::new(us, k));
                    self.set_right(us, from.index());
                    let bit = reserve_bit(k).expect("reserve kind");
                    self.reserve[us.index()] &= !bit;
                    self.hash ^= KEYS.reserve[us.index()][bit.trailing_zeros() as usize];
                    if self.reserve[us.index()] == 0 {
                        // Rights of an empty reserve are void: take them out of the hash.
                        for c in Bitboard(self.rights & self.by_color[us.index()]) {
                            self.hash ^= KEYS.rights[c.index()];
                        }
                    }
                }
                let _ = had_right;
                if p.kind == Kind::Pawn || undo.captured != 0 {
                    self.halfmove = 0;
                } else {
                    self.halfmove = self.halfmove.saturating_add(1);
                }
                if m.special() == Special::Double {
                    let g = self.geometry();
                    let class = pawn_class(self.ruleset(), us);
                    let passed = double_moves(g, class, from.index())
                        .into_iter()
                        .find(|(t, _)| *t == to.index())
                        .map(|(_, p)| p)
                        .unwrap_or(0);
                    self.ep = EnPassant { passed: passed & !self.occupied().0, pawn: to.index() as u8 };
                }
            }
        }
        self.side = them;
        self.hash ^= KEYS.side;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        if self.ep.is_some() && self.ep_capture_possible() {
            self.ep_hashed = true;
            self.hash ^= self.ep_key();
        }
        #[cfg(debug_assertions)]
        self.check_invariants();
        undo
    }

    /// Takes back `m`, which must be the last move made, with the `Undo` it returned.
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        let them = self.side;
        let us = them.flip();
        self.side = us;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let (from, to) = (m.from(), m.to());
        match m.special() {
            Special::Castle => {
                let k = self.remove(to);
                let r = self.remove(from);
                self.put(from, k);
                self.put(to, r);
            }
            Special::EnPassant => {
                let p = self.remove(to);
                self.put(from, p);
                let cap = decode(undo.captured).expect("en passant captured a pawn");
                self.put(Cell::new_unchecked(undo.ep.pawn), cap);
            }
            Special::Normal | Special::Double => {
                let p = self.remove(to);
                if m.placement().is_some() {
                    self.remove(from);
                }
                let orig = if m.promotion().is_some() { Piece::new(us, Kind::Pawn) } else { p };
                self.put(from, orig);
                if let Some(cap) = decode(undo.captured) {
                    self.put(to, cap);
                }
            }
        }
        self.rights = undo.rights;
        self.ep = undo.ep;
        self.ep_hashed = undo.ep_hashed;
        self.reserve = undo.reserve;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        #[cfg(debug_assertions)]
        self.check_invariants();
    }

    /// The position after `m` (copying; convenient outside hot paths).
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.make(m);
        p
    }

    /// Passes the move: only for null-move search. Clears en passant rights.
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: 0,
            rights: self.rights,
            ep: self.ep,
            ep_hashed: self.ep_hashed,
            reserve: self.reserve,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        if self.ep_hashed {
            self.hash ^= self.ep_key();
        }
        self.ep = EnPassant::default();
        self.ep_hashed = false;
        self.side = self.side.flip();
        self.hash ^= KEYS.side;
        self.halfmove = self.halfmove.saturating_add(1);
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = self.side.flip();
        self.rights = undo.rights;
        self.ep = undo.ep;
        self.ep_hashed = undo.ep_hashed;
        self.reserve = undo.reserve;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    // ----- attacks ---------------------------------------------------------------------------

    /// Cells a piece of `kind` on `c` attacks (could capture on) with occupancy `occ`.
    /// Pawns are not covered here (their attacks depend on colour).
    #[inline]
    pub fn attacks_from(&self, kind: Kind, c: usize, occ: u128) -> u128 {
        let g = self.geometry();
        let raum = !self.ruleset().is_fiveup();
        match kind {
            Kind::Pawn => 0,
            Kind::Knight => g.knight[c],
            Kind::Bishop => g.diag2_slides(c, occ),
            Kind::Rook => g.orth_slides(c, occ),
            Kind::Queen => {
                let q = g.orth_slides(c, occ) | g.diag2_slides(c, occ);
                if raum {
                    q | g.diag3_slides(c, occ)
                } else {
                    q
                }
            }
            Kind::King => {
                if raum {
                    g.all_step[c]
                } else {
                    g.orth_step[c] | g.diag3_step[c]
                }
            }
            Kind::Unicorn => g.unicorn[c],
            Kind::Silver => g.unicorn[c] | g.diag3_slides(c, occ),
            Kind::Wizard => g.diag2_slides(c, occ) | g.diag3_slides(c, occ),
            Kind::Guard => g.all_step[c],
            Kind::RUnicorn => g.diag3_slides(c, occ),
        }
    }

    /// Pieces among `mask` that slide along orthogonals / 2D diagonals / 3D diagonals.
    #[inline]
    fn sliders(&self, mask: u128) -> [u128; 3] {
        let k = &self.by_kind;
        let q = k[Kind::Queen.index()];
        let orth = (k[Kind::Rook.index()] | q) & mask;
        let d2 = (k[Kind::Bishop.index()] | q | k[Kind::Wizard.index()]) & mask;
        let mut d3 = k[Kind::Silver.index()] | k[Kind::Wizard.index()] | k[Kind::RUnicorn.index()];
        if !self.ruleset().is_fiveup() {
            d3 |= q;
        }
        [orth, d2, d3 & mask]
    }

    /// Pieces among `their` (pieces of side `by`, minus any captured) that attack cell `sq` when
    /// the board's occupancy is `occ`.
    #[inline]
    pub fn attackers(&self, sq: usize, by: Color, occ: u128, their: u128) -> u128 {
        let g = self.geometry();
        let k = &self.by_kind;
        let class = pawn_class(self.ruleset(), by) ^ 1;
        let mut a = g.pawn_capture[class][sq] & k[Kind::Pawn.index()];
        a |= g.knight[sq] & k[Kind::Knight.index()];
        a |= g.unicorn[sq] & (k[Kind::Unicorn.index()] | k[Kind::Silver.index()]);
        a |= g.all_step[sq] & k[Kind::Guard.index()];
        let king_cells = if self.ruleset().is_fiveup() { g.orth_step[sq] | g.diag3_step[sq] } else { g.all_step[sq] };
        a |= king_cells & k[Kind::King.index()];
        a &= their;
        let [orth, d2, d3] = self.sliders(their & occ);
        if g.orth_rays[sq] & orth != 0 {
            a |= g.orth_hits(sq, occ, orth);
        }
        if g.diag2_rays[sq] & d2 != 0 {
            a |= g.diag2_hits(sq, occ, d2);
        }
        if g.diag3_rays[sq] & d3 != 0 {
            a |= g.diag3_hits(sq, occ, d3);
        }
        a
    }

    /// Whether some piece among `their` (pieces of side `by`, minus any captured) attacks cell `sq`
    /// when the board's occupancy is `occ`: [`Position::attackers`]` != 0`, with early exits.
    #[inline]
    pub fn attacked(&self, sq: usize, by: Color, occ: u128, their: u128) -> bool {
        let g = self.geometry();
        let k = &self.by_kind;
        let class = pawn_class(self.ruleset(), by) ^ 1;
        let king_cells = if self.ruleset().is_fiveup() { g.orth_step[sq] | g.diag3_step[sq] } else { g.all_step[sq] };
        let leapers = (g.pawn_capture[class][sq] & k[Kind::Pawn.index()])
            | (g.knight[sq] & k[Kind::Knight.index()])
            | (g.unicorn[sq] & (k[Kind::Unicorn.index()] | k[Kind::Silver.index()]))
            | (g.all_step[sq] & k[Kind::Guard.index()])
            | (king_cells & k[Kind::King.index()]);
        if leapers & their != 0 {
            return true;
        }
        let [orth, d2, d3] = self.sliders(their & occ);
        (g.orth_rays[sq] & orth != 0 && g.orth_hits(sq, occ, orth) != 0)
            || (g.diag2_rays[sq] & d2 != 0 && g.diag2_hits(sq, occ, d2) != 0)
            || (g.diag3_rays[sq] & d3 != 0 && g.diag3_hits(sq, occ, d3) != 0)
    }

    /// Whether `by` attacks cell `c` in this position.
    pub fn is_attacked(&self, c: Cell, by: Color) -> bool {
        self.attackers(c.index(), by, self.occupied().0, self.by_color[by.index()]) != 0
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        Bitboard(self.attackers(
            self.kings[us.index()] as usize,
            us.flip(),
            self.occupied().0,
            self.by_color[us.flip().index()],
        ))
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().nonempty()
    }

    /// Own pieces of the side to move that stand alone between its king and an enemy slider moving
    /// along that line: moving such a piece needs a full legality test.
    pub fn pinned(&self) -> u128 {
        let us = self.side.index();
        let ksq = self.kings[us] as usize;
        let occ = self.by_color[0] | self.by_color[1];
        let own = self.by_color[us];
        let g = self.geometry();
        let sl = self.sliders(self.by_color[us ^ 1]);
        let rays = [g.orth_rays[ksq], g.diag2_rays[ksq], g.diag3_rays[ksq]];
        let mut pinned = 0u128;
        for (class, dirs) in [ORTH, DIAG2, DIAG3].into_iter().enumerate() {
            if rays[class] & sl[class] == 0 {
                continue;
            }
            for d in dirs {
                let Some(b) = g.first_blocker(d, ksq, occ) else { continue };
                if own >> b & 1 == 0 {
                    continue;
                }
                if let Some(x) = g.first_blocker(d, b, occ) {
                    if sl[class] >> x & 1 != 0 {
                        pinned |= 1u128 << b;
                    }
                }
            }
        }
        pinned
    }

    /// Whether an en passant capture is legal for the side to move.
    pub fn ep_capture_possible(&self) -> bool {
        if !self.ep.is_some() {
            return false;
        }
        let us = self.side;
        let g = self.geometry();
        let class = pawn_class(self.ruleset(), us) ^ 1;
        let pawns = self.by_kind[0] & self.by_color[us.index()];
        let cap = 1u128 << self.ep.pawn;
        let occ = self.occupied().0;
        let ksq = self.kings[us.index()] as usize;
        let their = self.by_color[us.flip().index()] & !cap;
        for p in Bitboard(self.ep.passed) {
            for from in Bitboard(g.pawn_capture[class][p.index()] & pawns) {
                let occ2 = (occ ^ (1u128 << from.index()) ^ cap) | 1u128 << p.index();
                if self.attackers(ksq, us.flip(), occ2, their) == 0 {
                    return true;
                }
            }
        }
        false
    }

    // ----- hashing and invariants ------------------------------------------------------------

    /// The hash computed from scratch (equals [`Position::hash`] in a consistent position).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0u64;
        for c in Cell::all() {
            if let Some(p) = self.piece_at(c) {
                h ^= KEYS.piece[p.color.index()][p.kind.index()][c.index()];
            }
        }
        if self.side == Color::Black {
            h ^= KEYS.side;
        }
        for color in Color::ALL {
            for (i, k) in RESERVE_KINDS.iter().enumerate() {
                if self.reserve[color.index()] & reserve_bit(*k).unwrap_or(0) != 0 {
                    h ^= KEYS.reserve[color.index()][i];
                }
            }
            if self.reserve[color.index()] != 0 {
                for c in Bitboard(self.rights & self.by_color[color.index()]) {
                    h ^= KEYS.rights[c.index()];
                }
            }
        }
        if self.ep_capture_possible() {
            h ^= self.ep_key();
        }
        h
    }

    /// Panics with a labelled message if an invariant is broken.
    pub fn check_invariants(&self) {
        let occ = self.by_color[0] | self.by_color[1];
        assert_eq!(occ >> 125, 0, "invariant: bits 125..128 clear");
        assert_eq!(self.by_color[0] & self.by_color[1], 0, "invariant: colours disjoint");
        let mut union = 0u128;
        for (i, &b) in self.by_kind.iter().enumerate() {
            assert_eq!(union & b, 0, "invariant: kind {i} overlaps another kind");
            union |= b;
        }
        assert_eq!(union, occ, "invariant: kinds cover the occupancy");
        for c in Cell::all() {
            let want = Kind::ALL.iter().find(|k| self.by_kind[k.index()] >> c.index() & 1 != 0).map(|&k| {
                Piece::new(if self.by_color[0] >> c.index() & 1 != 0 { Color::White } else { Color::Black }, k)
            });
            assert_eq!(self.piece_at(c), want, "invariant: mailbox matches bitboards at {c}");
        }
        for color in Color::ALL {
            let k = self.by_kind[Kind::King.index()] & self.by_color[color.index()];
            assert_eq!(k.count_ones(), 1, "invariant: one {} king", color.name());
            assert_eq!(k.trailing_zeros(), self.kings[color.index()] as u32, "invariant: king cache");
        }
        assert_eq!(self.rights & (self.by_kind[0] | !occ), 0, "invariant: rights only on non-pawn pieces");
        assert!(self.reserve[0] < 8 && self.reserve[1] < 8, "invariant: reserve mask");
        assert_eq!(self.ep_hashed, self.ep_capture_possible(), "invariant: ep hash flag");
        assert_eq!(self.hash, self.compute_hash(), "invariant: incremental hash");
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

impl Setup {
    /// An empty board of a variant, white to move, no reserve, no rights.
    pub fn empty(variant: Variant) -> Setup {
        Setup {
            variant,
            board: [None; 125],
            side: Color::White,
            reserve: [0, 0],
            rights: Bitboard::EMPTY,
            ep: EnPassant::default(),
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The start position of a variant (docs/RULES.md §2–4).
    pub fn start(variant: Variant) -> Setup {
        let mut s = Setup::empty(variant);
        let rs = variant.ruleset;
        let mut row = |name: &str, pieces: &str, color: Color, right: bool| {
            let layer = (name.as_bytes()[0] - b'A') as i32;
            let rank = (name.as_bytes()[1] - b'1') as i32;
            for (f, ch) in pieces.chars().enumerate() {
                let kind = rs.kind_from_letter(ch).expect("start letters are valid");
                let c = Cell::from_coords(layer, rank, f as i32).expect("on board");
                s.board[c.index()] = Some(Piece::new(color, kind));
                if right && kind != Kind::Pawn {
                    s.rights = s.rights.with(c);
                }
            }
        };
        match rs {
            Ruleset::FiveUp | Ruleset::FiveUp2001 => {
                row("A5", "RNKNR", Color::Black, true);
                row("A4", "PPPPP", Color::Black, false);
                row("B5", if rs == Ruleset::FiveUp { "UBQUB" } else { "BUQBU" }, Color::Black, true);
                row("B4", "PPPPP", Color::Black, false);
                row("D2", "PPPPP", Color::White, false);
                row("D1", "UBQUB", Color::White, true);
                row("E2", "PPPPP", Color::White, false);
                row("E1", "RNKNR", Color::White, true);
                s.reserve = [7, 7];
            }
            Ruleset::Raumschach => {
                row("E5", "RNKNR", Color::Black, false);
                row("E4", "PPPPP", Color::Black, false);
                row("D5", "UBQUB", Color::Black, false);
                row("D4", "PPPPP", Color::Black, false);
                row("B2", "PPPPP", Color::White, false);
                row("B1", "BUQBU", Color::White, false);
                row("A2", "PPPPP", Color::White, false);
                row("A1", "RNKNR", Color::White, false);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_valid_and_symmetric() {
        for rs in Ruleset::ALL {
            let p = Position::startpos(Variant::plain(rs));
            p.check_invariants();
            assert_eq!(p.color_bb(Color::White).count(), 20);
            assert_eq!(p.color_bb(Color::Black).count(), 20);
            assert!(!p.in_check());
        }
        // Black is white turned through the centre of the cube in the 2001 text and Raumschach
        // (docs/RULES.md §3-4). In the later Five Up text black's B5 row `u b q u b` keeps white's file
        // order, so there black is white turned and then mirrored a<->e (docs/RULES.md §2).
        for rs in Ruleset::ALL {
            let p = Position::startpos(Variant::plain(rs));
            for c in Cell::all() {
                let a = p.piece_at(c);
                let image = if rs == Ruleset::FiveUp { c.rotate().mirror_file() } else { c.rotate() };
                let b = p.piece_at(image);
                assert_eq!(a.map(|x| (x.kind, x.color)), b.map(|x| (x.kind, x.color.flip())), "{rs} {c}");
            }
        }
    }

    #[test]
    fn setup_errors_are_named() {
        let v = Variant::plain(Ruleset::FiveUp);
        let mut s = Setup::start(v);
        s.board["Ec1".parse::<Cell>().unwrap().index()] = None;
        s.rights = s.rights.without("Ec1".parse().unwrap());
        assert_eq!(Position::from_setup(s).unwrap_err(), SetupError::KingCount("white", 0));
        let mut s = Setup::start(Variant::plain(Ruleset::Raumschach));
        s.reserve = [1, 0];
        assert!(matches!(Position::from_setup(s), Err(SetupError::ReserveNotAllowed(_))));
        let mut s = Setup::start(v);
        s.rights = s.rights.with("Cc3".parse().unwrap());
        assert!(matches!(Position::from_setup(s), Err(SetupError::RightWithoutPiece(_))));
        let mut s = Setup::start(Variant::plain(Ruleset::Raumschach));
        s.variant.castling = true;
        assert!(matches!(Position::from_setup(s), Err(SetupError::Variant(_))));
        // An unchecked setup (e.g. from a damaged record) with bits past cell 124: an error, not a
        // panic indexing the board.
        for bit in 125..128 {
            let mut s = Setup::start(v);
            s.rights = Bitboard(s.rights.0 | 1u128 << bit);
            assert!(matches!(Position::from_setup(s), Err(SetupError::OffBoard("the placement rights"))));
        }
        let mut s = Setup::start(v);
        s.ep.passed = 1u128 << 127;
        s.ep.pawn = 0;
        assert!(matches!(Position::from_setup(s), Err(SetupError::OffBoard("the en passant field"))));
        let mut s = Setup::start(Variant::plain(Ruleset::Raumschach));
        s.board[0] = Some(Piece::new(Color::White, Kind::Wizard));
        assert!(matches!(Position::from_setup(s), Err(SetupError::ForeignPiece { .. })));
    }
}
