//! The hash computed from scratch and the invariants every position satisfies.

use super::Position;
use crate::game::Color;
use crate::rules::bitboard::Bitboard;
use crate::rules::cell::Cell;
use crate::rules::types::{reserve_bit, Kind, Piece, RESERVE_KINDS};
use crate::rules::zobrist::KEYS;

impl Position {
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
