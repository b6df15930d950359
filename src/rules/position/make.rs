//! Board edits and make/unmake of moves and null moves, with the incremental hash.

use super::{code, decode, double_moves, EnPassant, Position, Undo};
use crate::game::Color;
use crate::rules::bitboard::Bitboard;
use crate::rules::cell::Cell;
use crate::rules::geometry::pawn_class;
use crate::rules::moves::{Move, Special};
use crate::rules::types::{reserve_bit, Kind, Piece};
use crate::rules::zobrist::KEYS;

impl Position {
    // ----- board edits -----------------------------------------------------------------------

    #[inline]
    pub(super) fn put(&mut self, c: Cell, p: Piece) {
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

    pub(super) fn ep_key(&self) -> u64 {
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
}
