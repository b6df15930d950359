//! The position: four boards of bitboards and a cell array, make and unmake, and the attack
//! test that both legality rules use.

use super::board::{bishop_attacks, rook_attacks, BOARDS, CELLS, KING, KNIGHT, PAWN_ATTACKS};
use super::moves::{Flag, Move};
use super::types::{Kind, Piece};
use super::zobrist::KEYS;
use crate::game::Color;

/// Castling right bits: white king side, white queen side, black king side, black queen side.
pub const CASTLE_BITS: [u8; 4] = [1, 2, 4, 8];

/// Square of the rook and king home cells on board 1 whose moves or captures void a right:
/// `(square, rights cleared)`.
const RIGHTS_SQUARES: [(usize, u8); 6] = [(4, 1 | 2), (7, 1), (0, 2), (60, 4 | 8), (63, 4), (56, 8)];

/// What [`Position::make`] saves for [`Position::unmake`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    king_captured: u8,
    castling: u8,
    ep: u16,
    halfmove: u32,
    hash: u64,
}

/// No en passant cell.
pub(super) const NO_EP: u16 = u16::MAX;

/// A position of 4D Quasi-Alice Chess. Construct it by [`Position::start`] or by reading its
/// text ([`Position::from_text`]), which validates it.
#[derive(Clone)]
pub struct Position {
    /// `color_bb[color][board]`.
    pub(super) color_bb: [[u64; BOARDS]; 2],
    /// `kind_bb[kind][board]`.
    pub(super) kind_bb: [[u64; BOARDS]; 6],
    /// Piece code per cell.
    pub(super) cells: [u8; CELLS],
    /// The cell of each side's king.
    pub(super) kings: [u16; 2],
    pub(super) side: Color,
    pub(super) castling: u8,
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

impl Position {
    /// An empty board (no kings: not a valid position until pieces are put on it).
    pub(super) fn empty() -> Position {
        Position {
            color_bb: [[0; BOARDS]; 2],
            kind_bb: [[0; BOARDS]; 6],
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

    /// The start: the chess array on board 1, boards 2-4 empty, white to move.
    pub fn start() -> Position {
        Position::from_text(super::START).expect("the start position text is valid")
    }

    /// The piece on a cell (`board * 64 + square`).
    #[inline]
    pub fn piece_at(&self, cell: usize) -> Option<Piece> {
        Piece::from_code(self.cells[cell])
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The castling rights as bits ([`CASTLE_BITS`]).
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// The en passant cell, if the last move was a double step.
    pub fn ep(&self) -> Option<usize> {
        (self.ep != NO_EP).then_some(self.ep as usize)
    }

    /// The cell of `color`'s king.
    pub fn king(&self, color: Color) -> usize {
        self.kings[color.index()] as usize
    }

    /// The squares of `color`'s pieces of `kind` on `board`.
    pub fn pieces(&self, color: Color, kind: Kind, board: usize) -> u64 {
        self.color_bb[color.index()][board] & self.kind_bb[kind as usize][board]
    }

    /// The squares of `color`'s men on `board`.
    #[inline]
    pub fn men(&self, color: Color, board: usize) -> u64 {
        self.color_bb[color.index()][board]
    }

    /// Every occupied square of `board`.
    #[inline]
    pub fn occupied(&self, board: usize) -> u64 {
        self.color_bb[0][board] | self.color_bb[1][board]
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

    /// Whether only the two kings are on the boards.
    pub fn bare_kings(&self) -> bool {
        (0..BOARDS).all(|b| self.occupied(b) == self.kind_bb[Kind::King as usize][b])
    }

    /// Whether the side to move's king is attacked.
    pub fn in_check(&self) -> bool {
        let k = self.king(self.side);
        self.attacked(k / 64, k % 64, self.side.flip())
    }

    #[inline]
    pub(super) fn put(&mut self, cell: usize, p: Piece) {
        let (b, sq) = (cell / 64, cell % 64);
        self.color_bb[p.color.index()][b] |= 1 << sq;
        self.kind_bb[p.kind as usize][b] |= 1 << sq;
        self.cells[cell] = p.code();
        self.hash ^= KEYS.piece[p.color.index()][p.kind as usize][cell];
        if p.kind == Kind::King {
            self.kings[p.color.index()] = cell as u16;
        }
    }

    /// Removes the piece on `cell` and returns its code (0 if the cell was empty).
    #[inline]
    pub(super) fn take(&mut self, cell: usize) -> u8 {
        let code = self.cells[cell];
        if let Some(p) = Piece::from_code(code) {
            let (b, sq) = (cell / 64, cell % 64);
            self.color_bb[p.color.index()][b] &= !(1 << sq);
            self.kind_bb[p.kind as usize][b] &= !(1 << sq);
            self.cells[cell] = 0;
            self.hash ^= KEYS.piece[p.color.index()][p.kind as usize][cell];
        }
        code
    }

    /// Whether the cell (`board`, `sq`) is attacked by `by`: by the chess patterns of `by`'s men on
    /// `board`, and by `by`'s king on another board whose square is a king step from `sq`, unless
    /// that king's own man stands on `sq` of the king's board.
    pub fn attacked(&self, board: usize, sq: usize, by: Color) -> bool {
        let them = self.color_bb[by.index()][board];
        let occ = self.occupied(board);
        let k = &self.kind_bb;
        if PAWN_ATTACKS[by.flip().index()][sq] & them & k[Kind::Pawn as usize][board] != 0
            || KNIGHT[sq] & them & k[Kind::Knight as usize][board] != 0
            || KING[sq] & them & k[Kind::King as usize][board] != 0
        {
            return true;
        }
        let queens = k[Kind::Queen as usize][board];
        if bishop_attacks(sq, occ) & them & (k[Kind::Bishop as usize][board] | queens) != 0
            || rook_attacks(sq, occ) & them & (k[Kind::Rook as usize][board] | queens) != 0
        {
            return true;
        }
        self.cross_board_attack(board, sq, by)
    }

    /// The cross-board half of [`Position::attacked`]: `by`'s king on another board.
    #[inline]
    pub(super) fn cross_board_attack(&self, board: usize, sq: usize, by: Color) -> bool {
        let kc = self.kings[by.index()] as usize;
        let (kb, ks) = (kc / 64, kc % 64);
        kb != board && KING[ks] & (1 << sq) != 0 && self.color_bb[by.index()][kb] & (1 << sq) == 0
    }

    /// Part (1) of a move: the chess move on its board, captures included. Returns the captured
    /// piece's code (0 if none).
    fn part_one(&mut self, m: Move) -> u8 {
        let s = m.board_from();
        let (f, to) = (s * 64 + m.from(), s * 64 + m.to());
        let code = self.take(f);
        let captured = match m.flag() {
            Flag::EnPassant => {
                let victim = if self.side == Color::White { to - 8 } else { to + 8 };
                self.take(victim)
            }
            _ => self.take(to),
        };
        let mut p = Piece::from_code(code).expect("a move starts on a man");
        if let Some(k) = m.promotion() {
            p.kind = k;
        }
        self.put(to, p);
        if m.flag() == Flag::Castle {
            let (rf, rt) = castle_rook_squares(m.to());
            let rook = self.take(s * 64 + rf);
            self.put(s * 64 + rt, Piece::from_code(rook).expect("castling moves a rook"));
        }
        captured
    }

    /// Part (2): the moved man (and a castling rook) go to the same squares of board `t`; a king
    /// captures an enemy man there. Returns that capture's code (0 if none).
    fn transfer(&mut self, m: Move) -> u8 {
        let (s, t) = (m.board_from(), m.board_to());
        let code = self.take(s * 64 + m.to());
        let king_captured = self.take(t * 64 + m.to());
        self.put(t * 64 + m.to(), Piece::from_code(code).expect("the moved man"));
        if m.flag() == Flag::Castle {
            let (_, rt) = castle_rook_squares(m.to());
            let rook = self.take(s * 64 + rt);
            self.put(t * 64 + rt, Piece::from_code(rook).expect("the castled rook"));
        }
        king_captured
    }

    /// Plays a pseudo-legal move and tells whether it was legal: rule (a) for a king's move (the
    /// king not attacked on its board after part 1; for any other man (a) follows from (b)) and
    /// rule (b). The position is left changed either way; callers use a copy.
    pub(super) fn play_checked(&mut self, m: Move) -> bool {
        let us = self.side;
        let s = m.board_from();
        let moving_king = self.cells[s * 64 + m.from()] == Piece { color: us, kind: Kind::King }.code();
        self.part_one(m);
        if moving_king && self.attacked(s, m.to(), us.flip()) {
            return false;
        }
        self.transfer(m);
        let k = self.king(us);
        !self.attacked(k / 64, k % 64, us.flip())
    }

    /// What a take-back restores, before anything is captured.
    #[inline]
    fn undo_now(&self) -> Undo {
        Undo {
            captured: 0,
            king_captured: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
        }
    }

    /// Plays a legal move.
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = self.undo_now();
        let s = m.board_from();
        let pawn = self.kind_bb[Kind::Pawn as usize][s] & (1 << m.from()) != 0;
        let captured = self.part_one(m);
        let king_captured = self.transfer(m);
        // Castling rights: a move from, or a man landing on, a king or rook home cell of board 1.
        let old_rights = self.castling;
        for (sq, bits) in RIGHTS_SQUARES {
            if (s == 0 && (m.from() == sq || m.to() == sq)) || (m.board_to() == 0 && m.to() == sq) {
                self.castling &= !bits;
            }
        }
        self.hash ^= KEYS.castling[old_rights as usize] ^ KEYS.castling[self.castling as usize];
        if self.ep != NO_EP {
            self.hash ^= KEYS.ep[self.ep as usize];
        }
        self.ep = NO_EP;
        if m.flag() == Flag::DoubleStep {
            self.ep = (m.board_to() * 64 + (m.from() + m.to()) / 2) as u16;
            self.hash ^= KEYS.ep[self.ep as usize];
        }
        self.halfmove = if pawn || captured != 0 || king_captured != 0 { 0 } else { self.halfmove + 1 };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash ^= KEYS.side;
        Undo { captured, king_captured, ..undo }
    }

    /// Takes back the move [`Position::make`] played.
    pub fn unmake(&mut self, m: Move, u: Undo) {
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let (s, t) = (m.board_from(), m.board_to());
        let (from, to) = (m.from(), m.to());
        if m.flag() == Flag::Castle {
            let (rf, rt) = castle_rook_squares(to);
            let rook = self.take(t * 64 + rt);
            self.put(s * 64 + rf, Piece::from_code(rook).expect("the castled rook"));
        }
        let code = self.take(t * 64 + to);
        let mut p = Piece::from_code(code).expect("the moved man");
        if m.promotion().is_some() {
            p.kind = Kind::Pawn;
        }
        self.put(s * 64 + from, p);
        if let Some(k) = Piece::from_code(u.king_captured) {
            self.put(t * 64 + to, k);
        }
        if let Some(c) = Piece::from_code(u.captured) {
            let cell = match m.flag() {
                Flag::EnPassant if self.side == Color::White => s * 64 + to - 8,
                Flag::EnPassant => s * 64 + to + 8,
                _ => s * 64 + to,
            };
            self.put(cell, c);
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// Passes the turn (for a search's null move; the side to move must not be in check): the
    /// other side moves, en passant rights lapse, the halfmove clock counts the pass.
    pub fn make_null(&mut self) -> Undo {
        let undo = self.undo_now();
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

    /// The hash computed from scratch (the incremental one must equal it).
    pub(super) fn full_hash(&self) -> u64 {
        let mut h = 0;
        for (cell, &code) in self.cells.iter().enumerate() {
            if let Some(p) = Piece::from_code(code) {
                h ^= KEYS.piece[p.color.index()][p.kind as usize][cell];
            }
        }
        if self.side == Color::Black {
            h ^= KEYS.side;
        }
        h ^= KEYS.castling[self.castling as usize];
        if self.ep != NO_EP {
            h ^= KEYS.ep[self.ep as usize];
        }
        h
    }
}

/// The rook's start and end squares for a castling whose king lands on `king_to` (g1, c1, g8, c8).
pub(super) const fn castle_rook_squares(king_to: usize) -> (usize, usize) {
    match king_to {
        6 => (7, 5),
        2 => (0, 3),
        62 => (63, 61),
        _ => (56, 59),
    }
}
