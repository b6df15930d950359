//! The position: a cell array and the occupancy of every plane ([`super::geometry`]), make and
//! unmake, and the attack test.
//!
//! Each side's men are kept as bit sets of the five plane families (levels, ranks, files,
//! diagonals, anti-diagonals), updated together by [`Position::put`] and [`Position::take`], so a
//! slide in any direction is one chess attack lookup on one 64-bit plane. Kinds are kept per level;
//! the sliders are also kept in the planes where they slide (rooks and queens in the rank and file
//! planes, bishops and queens in the diagonal ones), so the attack test needs no cell lookups.

use super::geometry::*;
use super::moves::{Flag, Move};
use super::types::{Kind, Piece, KINDS};
use super::zobrist::{castling_key, KEYS};
use crate::game::board8::{bishop_attacks, rook_attacks, PAWN_ATTACKS};
use crate::game::Color;

/// What [`Position::make`] saves for [`Position::unmake`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    castling: u16,
    ep: u16,
    halfmove: u32,
    hash: u64,
}

/// No en passant cell.
pub(super) const NO_EP: u16 = u16::MAX;

/// A position of Mixed 3D Chess. Construct it by [`Position::start`] or by reading its text
/// ([`Position::from_text`]), which validates it.
#[derive(Clone)]
pub struct Position {
    /// `color_lv[color][level]`: bits `rank*8+file`.
    pub(super) color_lv: [[u64; SIDE]; 2],
    /// `kind_lv[kind][level]`.
    pub(super) kind_lv: [[u64; SIDE]; KINDS],
    /// `color_rv[color][rank]`: bits `level*8+file`.
    pub(super) color_rv: [[u64; SIDE]; 2],
    /// `color_fv[color][file]`: bits `level*8+rank`.
    pub(super) color_fv: [[u64; SIDE]; 2],
    /// `color_dv[color][diagonal]`: bits `level*8+file`.
    pub(super) color_dv: [[u64; DIAGS]; 2],
    /// `color_av[color][anti-diagonal]`: bits `level*8+file`.
    pub(super) color_av: [[u64; DIAGS]; 2],
    /// Rooks and queens in the rank planes.
    pub(super) rooks_rv: [[u64; SIDE]; 2],
    /// Rooks and queens in the file planes.
    pub(super) rooks_fv: [[u64; SIDE]; 2],
    /// Bishops and queens in the diagonal planes.
    pub(super) bishops_dv: [[u64; DIAGS]; 2],
    /// Bishops and queens in the anti-diagonal planes.
    pub(super) bishops_av: [[u64; DIAGS]; 2],
    /// Piece code per cell.
    pub(super) cells: [u8; CELLS],
    /// The cell of each side's royal king.
    pub(super) kings: [u16; 2],
    pub(super) side: Color,
    /// Castling rights: bit `i` for white's `i`-th castling of the field order, `6 + i` black's.
    pub(super) castling: u16,
    pub(super) ep: u16,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

impl PartialEq for Position {
    fn eq(&self, o: &Position) -> bool {
        self.cells == o.cells
            && self.side == o.side
            && self.castling == o.castling
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
    }
}

impl Eq for Position {}

/// The occupancy of the planes through one cell, with one cell optionally left out (the royal
/// king, when its own steps are tested).
#[derive(Clone, Copy)]
pub(super) struct Occupancy {
    pub(super) lv: u64,
    pub(super) rv: u64,
    pub(super) fv: u64,
    pub(super) dv: u64,
    pub(super) av: u64,
}

impl Position {
    /// An empty cube (no kings: not a valid position until men are put on it).
    pub(super) fn empty() -> Position {
        Position {
            color_lv: [[0; SIDE]; 2],
            kind_lv: [[0; SIDE]; KINDS],
            color_rv: [[0; SIDE]; 2],
            color_fv: [[0; SIDE]; 2],
            color_dv: [[0; DIAGS]; 2],
            color_av: [[0; DIAGS]; 2],
            rooks_rv: [[0; SIDE]; 2],
            rooks_fv: [[0; SIDE]; 2],
            bishops_dv: [[0; DIAGS]; 2],
            bishops_av: [[0; DIAGS]; 2],
            cells: [0; CELLS],
            kings: [u16::MAX; 2],
            side: Color::White,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    /// The start: the FIDE array on every level, royal kings on `4e1` and `4e8`.
    pub fn start() -> Position {
        Position::from_text(super::START).expect("the start position text is valid")
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, cell: usize) -> Option<Piece> {
        Piece::from_code(self.cells[cell])
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The castling rights as bits (white's six in field order, then black's).
    pub fn castling(&self) -> u16 {
        self.castling
    }

    /// The en passant cell, if the last move was a double step.
    pub fn ep(&self) -> Option<usize> {
        (self.ep != NO_EP).then_some(self.ep as usize)
    }

    /// The cell of `color`'s royal king.
    pub fn king(&self, color: Color) -> usize {
        self.kings[color.index()] as usize
    }

    /// The squares of `color`'s pieces of `kind` on `level`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: Kind, level: usize) -> u64 {
        self.color_lv[color.index()][level] & self.kind_lv[kind as usize][level]
    }

    /// The squares of `color`'s men on `level`.
    #[inline]
    pub fn men(&self, color: Color, level: usize) -> u64 {
        self.color_lv[color.index()][level]
    }

    /// Every occupied square of `level`.
    #[inline]
    pub fn occupied(&self, level: usize) -> u64 {
        self.color_lv[0][level] | self.color_lv[1][level]
    }

    /// How many men of `color` and `kind` are on the cube.
    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        (0..SIDE).map(|l| self.pieces(color, kind, l).count_ones()).sum()
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// The move number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The position's hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether only the two royal kings are left.
    pub fn bare_kings(&self) -> bool {
        (0..SIDE).all(|l| self.occupied(l) == self.kind_lv[Kind::King as usize][l])
    }

    /// Whether the side to move's royal king is attacked.
    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.side), self.side.flip())
    }

    #[inline]
    pub(super) fn put(&mut self, c: usize, p: Piece) {
        self.toggle(c, p);
        self.cells[c] = p.code();
        self.hash ^= KEYS.piece[p.color.index()][p.kind as usize][c];
        if p.kind == Kind::King {
            self.kings[p.color.index()] = c as u16;
        }
    }

    /// Removes the man on `c` and returns its code (0 if the cell was empty).
    #[inline]
    pub(super) fn take(&mut self, c: usize) -> u8 {
        let code = self.cells[c];
        if let Some(p) = Piece::from_code(code) {
            self.toggle(c, p);
            self.cells[c] = 0;
            self.hash ^= KEYS.piece[p.color.index()][p.kind as usize][c];
        }
        code
    }

    /// Flips `p`'s bit of cell `c` in every plane set.
    #[inline]
    fn toggle(&mut self, c: usize, p: Piece) {
        let (l, r, f) = (level(c), rank(c), file(c));
        let ci = p.color.index();
        let sq = 1u64 << (c & 63);
        let (rb, fb) = (rank_bit(c), file_bit(c));
        let (d, a) = (diag(c), anti(c));
        self.color_lv[ci][l] ^= sq;
        self.kind_lv[p.kind as usize][l] ^= sq;
        self.color_rv[ci][r] ^= rb;
        self.color_fv[ci][f] ^= fb;
        self.color_dv[ci][d] ^= rb;
        self.color_av[ci][a] ^= rb;
        if p.kind.rook_like() {
            self.rooks_rv[ci][r] ^= rb;
            self.rooks_fv[ci][f] ^= fb;
        }
        if p.kind.bishop_like() {
            self.bishops_dv[ci][d] ^= rb;
            self.bishops_av[ci][a] ^= rb;
        }
    }

    /// The occupancy of the planes through `c`, without the cell `skip` (`usize::MAX`: none).
    #[inline]
    pub(super) fn occupancy(&self, c: usize, skip: usize) -> Occupancy {
        let (l, r, f, d, a) = (level(c), rank(c), file(c), diag(c), anti(c));
        let mut o = Occupancy {
            lv: self.color_lv[0][l] | self.color_lv[1][l],
            rv: self.color_rv[0][r] | self.color_rv[1][r],
            fv: self.color_fv[0][f] | self.color_fv[1][f],
            dv: self.color_dv[0][d] | self.color_dv[1][d],
            av: self.color_av[0][a] | self.color_av[1][a],
        };
        if skip < CELLS {
            if level(skip) == l {
                o.lv &= !(1 << (skip & 63));
            }
            if rank(skip) == r {
                o.rv &= !rank_bit(skip);
            }
            if file(skip) == f {
                o.fv &= !file_bit(skip);
            }
            if diag(skip) == d {
                o.dv &= !rank_bit(skip);
            }
            if anti(skip) == a {
                o.av &= !rank_bit(skip);
            }
        }
        o
    }

    /// Whether cell `c` is attacked by `by`.
    #[inline]
    pub fn attacked(&self, c: usize, by: Color) -> bool {
        self.attacked_without(c, by, usize::MAX)
    }

    /// Whether cell `c` is attacked by `by` with the cell `skip` taken as empty (`usize::MAX`:
    /// none); `skip` must not hold a man of `by`.
    pub(super) fn attacked_without(&self, c: usize, by: Color, skip: usize) -> bool {
        let (l, r, f) = (level(c), rank(c), file(c));
        let sq = c & 63;
        let bi = by.index();
        let men = &self.color_lv[bi];
        let k = &self.kind_lv;
        let at = |kind: Kind, lv: usize| men[lv] & k[kind as usize][lv];
        // Pawns: in-level diagonals from behind, and the same file one rank behind on the levels
        // next to this one.
        let behind = if by == Color::White { sq.wrapping_sub(8) } else { sq + 8 };
        if PAWN_ATTACKS[by.flip().index()][sq] & at(Kind::Pawn, l) != 0 {
            return true;
        }
        if behind < 64 {
            let b = 1u64 << behind;
            if (l > 0 && at(Kind::Pawn, l - 1) & b != 0) || (l < 7 && at(Kind::Pawn, l + 1) & b != 0) {
                return true;
            }
        }
        // Knights and the king-steppers.
        let kc = |lv: usize| at(Kind::King, lv) | at(Kind::Commoner, lv);
        if KNIGHT_SAME_LEVEL[sq] & at(Kind::Knight, l) != 0 || KING_SAME_LEVEL[sq] & kc(l) != 0 {
            return true;
        }
        for (dl, near) in [(1usize, true), (2, false)] {
            for lv in [l.wrapping_sub(dl), l + dl] {
                if lv < SIDE {
                    let (knight, king) =
                        if near { (KNIGHT_ONE_LEVEL[sq], KING_ONE_LEVEL[sq]) } else { (KNIGHT_TWO_LEVELS[sq], 0) };
                    if knight & at(Kind::Knight, lv) != 0 || king & kc(lv) != 0 {
                        return true;
                    }
                }
            }
        }
        // Sliders, plane by plane.
        let o = self.occupancy(c, skip);
        let queens = at(Kind::Queen, l);
        if rook_attacks(sq, o.lv) & (at(Kind::Rook, l) | queens) != 0
            || bishop_attacks(sq, o.lv) & (at(Kind::Bishop, l) | queens) != 0
        {
            return true;
        }
        let (rb, fb) = (l * 8 + f, l * 8 + r);
        rook_in_rank_plane(rb, o.rv) & self.rooks_rv[bi][r] != 0
            || bishop_attacks(fb, o.fv) & self.rooks_fv[bi][f] != 0
            || bishop_attacks(rb, o.dv) & self.bishops_dv[bi][diag(c)] != 0
            || bishop_attacks(rb, o.av) & self.bishops_av[bi][anti(c)] != 0
    }

    /// The castling of `color` whose right is bit `i` (0..6 of that side).
    pub fn castling_of(color: Color, i: usize) -> Castling {
        let w = WHITE_CASTLINGS[i];
        match color {
            Color::White => w,
            Color::Black => Castling {
                rook: mirror_rank(w.rook),
                king_to: mirror_rank(w.king_to),
                rook_to: mirror_rank(w.rook_to),
                between: w.between,
            },
        }
    }

    /// Plays a legal move.
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo { captured: 0, castling: self.castling, ep: self.ep, halfmove: self.halfmove, hash: self.hash };
        let (from, to) = (m.from(), m.to());
        let code = self.take(from);
        let mut p = Piece::from_code(code).expect("a move starts on a man");
        let captured = match m.flag() {
            Flag::EnPassant => self.take(ep_victim(to, self.side)),
            _ => self.take(to),
        };
        if let Some(k) = m.promotion() {
            p.kind = k;
        }
        self.put(to, p);
        if m.flag() == Flag::Castle {
            let i = castle_index(to);
            let c = Position::castling_of(self.side, i);
            let rook = self.take(c.rook);
            self.put(c.rook_to, Piece::from_code(rook).expect("castling moves a rook"));
        }
        let rights = self.castling & !(RIGHTS_CLEARED[from] | RIGHTS_CLEARED[to]);
        self.hash ^= castling_key(self.castling ^ rights);
        self.castling = rights;
        if self.ep != NO_EP {
            self.hash ^= KEYS.ep[self.ep as usize];
        }
        self.ep = NO_EP;
        if m.flag() == Flag::DoubleStep {
            let passed = (from + to) / 2;
            self.ep = passed as u16;
            self.hash ^= KEYS.ep[passed];
        }
        if p.kind == Kind::Pawn || m.promotion().is_some() || captured != 0 {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash ^= KEYS.side;
        Undo { captured, ..undo }
    }

    /// Takes back the move `make` played.
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let (from, to) = (m.from(), m.to());
        if m.flag() == Flag::Castle {
            let c = Position::castling_of(self.side, castle_index(to));
            let rook = self.take(c.rook_to);
            self.put(c.rook, Piece::from_code(rook).expect("castling moved a rook"));
        }
        let code = self.take(to);
        let mut p = Piece::from_code(code).expect("the moved man");
        if m.promotion().is_some() {
            p.kind = Kind::Pawn;
        }
        self.put(from, p);
        if let Some(victim) = Piece::from_code(undo.captured) {
            let at = if m.flag() == Flag::EnPassant { ep_victim(to, self.side) } else { to };
            self.put(at, victim);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Passes the turn (the search's null move; never called in check).
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo { captured: 0, castling: self.castling, ep: self.ep, halfmove: self.halfmove, hash: self.hash };
        if self.ep != NO_EP {
            self.hash ^= KEYS.ep[self.ep as usize];
            self.ep = NO_EP;
        }
        self.halfmove += 1;
        self.side = self.side.flip();
        self.hash ^= KEYS.side;
        undo
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, u: Undo) {
        self.side = self.side.flip();
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// The cells legal move `m` changes: its origin and destination, the pawn taken en passant,
    /// and for castling the rook's start and destination (unused entries are `usize::MAX`).
    /// An evaluation kept up to date move by move reads these cells before and after the move.
    pub fn touched(&self, m: Move) -> [usize; 4] {
        let (from, to) = (m.from(), m.to());
        match m.flag() {
            Flag::EnPassant => [from, to, ep_victim(to, self.side), usize::MAX],
            Flag::Castle => {
                let c = Position::castling_of(self.side, castle_index(to));
                [from, to, c.rook, c.rook_to]
            }
            _ => [from, to, usize::MAX, usize::MAX],
        }
    }

    /// How many cells the man on `c` attacks that do not hold a man of its own side (0 for an
    /// empty cell): its mobility, counted plane by plane like the move generator's sets. A pawn
    /// counts its four capture cells.
    pub fn mobility(&self, c: usize) -> u32 {
        let Some(p) = self.piece_at(c) else { return 0 };
        let ui = p.color.index();
        let (l, r, f, sq) = (level(c), rank(c), file(c), c & 63);
        let own = |lv: usize| self.color_lv[ui][lv];
        let count = |set: u64| set.count_ones();
        match p.kind {
            Kind::Pawn => {
                let fwd = if p.color == Color::White { sq + 8 } else { sq.wrapping_sub(8) };
                let mut n = count(PAWN_ATTACKS[ui][sq] & !own(l));
                if fwd < 64 {
                    for lv in [l.wrapping_sub(1), l + 1] {
                        n += u32::from(lv < SIDE && own(lv) & (1 << fwd) == 0);
                    }
                }
                n
            }
            Kind::Knight => {
                let mut n = count(KNIGHT_SAME_LEVEL[sq] & !own(l));
                for (dl, set) in [(1, KNIGHT_ONE_LEVEL[sq]), (2, KNIGHT_TWO_LEVELS[sq])] {
                    for lv in [l.wrapping_sub(dl), l + dl] {
                        if lv < SIDE {
                            n += count(set & !own(lv));
                        }
                    }
                }
                n
            }
            Kind::King | Kind::Commoner => {
                let mut n = count(KING_SAME_LEVEL[sq] & !own(l));
                for lv in [l.wrapping_sub(1), l + 1] {
                    if lv < SIDE {
                        n += count(KING_ONE_LEVEL[sq] & !own(lv));
                    }
                }
                n
            }
            Kind::Rook | Kind::Bishop | Kind::Queen => {
                let o = self.occupancy(c, usize::MAX);
                let (rb, fb, d, a) = (l * 8 + f, l * 8 + r, diag(c), anti(c));
                let mut n = 0;
                if p.kind.rook_like() {
                    n += count(rook_attacks(sq, o.lv) & !own(l))
                        + count(rook_in_rank_plane(rb, o.rv) & !self.color_rv[ui][r])
                        + count(bishop_attacks(fb, o.fv) & !self.color_fv[ui][f]);
                }
                if p.kind.bishop_like() {
                    n += count(bishop_attacks(sq, o.lv) & !own(l))
                        + count(bishop_attacks(rb, o.dv) & DIAG_CELLS[d] & !self.color_dv[ui][d])
                        + count(bishop_attacks(rb, o.av) & ANTI_CELLS[a] & !self.color_av[ui][a]);
                }
                n
            }
        }
    }

    /// The hash computed from scratch.
    pub(super) fn full_hash(&self) -> u64 {
        let mut h = 0;
        for c in 0..CELLS {
            if let Some(p) = self.piece_at(c) {
                h ^= KEYS.piece[p.color.index()][p.kind as usize][c];
            }
        }
        if self.side == Color::Black {
            h ^= KEYS.side;
        }
        h ^= castling_key(self.castling);
        if let Some(e) = self.ep() {
            h ^= KEYS.ep[e];
        }
        h
    }
}

/// The cell of the pawn an en passant capture onto `to` by `mover` takes: the next cell forward
/// from the passed cell, as the double-stepping pawn moved.
#[inline]
pub(super) fn ep_victim(to: usize, mover: Color) -> usize {
    match mover {
        Color::White => to - 8,
        Color::Black => to + 8,
    }
}

/// Which castling (0..6, field order) a royal king's castling move to `king_to` is.
#[inline]
pub(super) fn castle_index(king_to: usize) -> usize {
    let white = if rank(king_to) == 7 { mirror_rank(king_to) } else { king_to };
    WHITE_CASTLINGS.iter().position(|c| c.king_to == white).expect("a castling destination")
}
