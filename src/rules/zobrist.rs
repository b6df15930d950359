//! Zobrist keys, generated at compile time by SplitMix64 ([`crate::rng`]) (fixed, so hashes are stable across runs).
//!
//! The hash of a position is the XOR of: a key per (colour, kind, cell) of every piece; the side
//! key when black is to move; a key per reserve piece held; a key per placement-right cell, but only
//! for a side whose reserve is not empty (rights of an empty reserve are void, docs/RULES.md §2); and a key
//! per en passant passed cell, only while an en passant capture is actually possible.

use super::types::KIND_COUNT;
use crate::rng::SplitMix64;

/// All Zobrist keys.
pub struct Keys {
    /// `piece[color][kind][cell]`.
    pub piece: [[[u64; 125]; KIND_COUNT]; 2],
    /// XORed in when black is to move.
    pub side: u64,
    /// `reserve[color][i]` for reserve kind i (W, G, S).
    pub reserve: [[u64; 3]; 2],
    /// Placement right on a cell.
    pub rights: [u64; 125],
    /// En passant passed cell.
    pub ep: [u64; 125],
}

const fn build() -> Keys {
    let mut k =
        Keys { piece: [[[0; 125]; KIND_COUNT]; 2], side: 0, reserve: [[0; 3]; 2], rights: [0; 125], ep: [0; 125] };
    let mut st = SplitMix64::new(0x5EED_F1CE_u64);
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < KIND_COUNT {
            let mut s = 0;
            while s < 125 {
                let (n, v) = st.step();
                st = n;
                k.piece[c][p][s] = v;
                s += 1;
            }
            p += 1;
        }
        let mut i = 0;
        while i < 3 {
            let (n, v) = st.step();
            st = n;
            k.reserve[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    let (n, v) = st.step();
    st = n;
    k.side = v;
    let mut s = 0;
    while s < 125 {
        let (n, v) = st.step();
        st = n;
        k.rights[s] = v;
        let (n, v) = st.step();
        st = n;
        k.ep[s] = v;
        s += 1;
    }
    k
}

/// The keys.
pub static KEYS: Keys = build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.piece.iter().flatten().flatten().copied().collect();
        all.extend(KEYS.reserve.iter().flatten());
        all.extend(KEYS.rights);
        all.extend(KEYS.ep);
        all.push(KEYS.side);
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
