//! Zobrist keys, generated at compile time by SplitMix64 (fixed, so hashes are stable).
//!
//! The hash is the XOR of a key per (colour, kind, cell) of every man, the side key when black is
//! to move, one key per castling right held and a key for the en passant cell while it is set.

use super::geometry::CELLS;
use super::types::KINDS;
use crate::rng::SplitMix64;

/// All keys.
pub struct Keys {
    /// `piece[color][kind][cell]`.
    pub piece: [[[u64; CELLS]; KINDS]; 2],
    /// XORed in when black is to move.
    pub side: u64,
    /// One key per castling right (bit order of the castling field).
    pub castling: [u64; 12],
    /// The en passant cell.
    pub ep: [u64; CELLS],
}

const fn build() -> Keys {
    let mut k = Keys { piece: [[[0; CELLS]; KINDS]; 2], side: 0, castling: [0; 12], ep: [0; CELLS] };
    let mut st = SplitMix64::new(0x3D3D_B37A_u64);
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < KINDS {
            let mut s = 0;
            while s < CELLS {
                let (n, v) = st.step();
                st = n;
                k.piece[c][p][s] = v;
                s += 1;
            }
            p += 1;
        }
        c += 1;
    }
    let (n, v) = st.step();
    st = n;
    k.side = v;
    let mut i = 0;
    while i < 12 {
        let (n, v) = st.step();
        st = n;
        k.castling[i] = v;
        i += 1;
    }
    let mut i = 0;
    while i < CELLS {
        let (n, v) = st.step();
        st = n;
        k.ep[i] = v;
        i += 1;
    }
    k
}

/// The keys.
pub static KEYS: Keys = build();

/// The XOR of the keys of the castling rights in `bits`.
#[inline]
pub fn castling_key(bits: u16) -> u64 {
    let mut h = 0;
    let mut b = bits;
    while b != 0 {
        h ^= KEYS.castling[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    h
}
