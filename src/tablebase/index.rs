//! Where a position sits in its table: the board's 48 symmetries, the white king's ten cells
//! up to symmetry, and the index of a position.
//!
//! A table of `n` men lists every placement of them with the white king on one of the ten cells
//! of the fundamental domain (coordinates 0 ≤ x ≤ y ≤ z ≤ 2 after folding each axis at the
//! centre) and either side to move: `10 · 125^(n-1) · 2` entries. A position with its king
//! elsewhere is first turned by the symmetry that brings the king into the domain (the pieces of
//! both pawnless games move the same way under every rotation and reflection of the cube). A
//! position whose king sits on a plane of symmetry has several entries (one per image with the
//! king in the domain); each is computed like any other, so they agree. The men are in slot order:
//! white king, black king, white's men, black's men, as in the [`super::Material`].

use crate::game::Color;

/// The number of symmetries of the cube.
pub const SYMMETRIES: usize = 48;

/// The number of cells of the fundamental domain of the white king.
pub const KING_CELLS: usize = 10;

/// `SYM[t][c]`: the cell `c` goes to under symmetry `t` (0 is the identity).
pub static SYM: [[u8; 125]; SYMMETRIES] = build_symmetries();

/// `TO_DOMAIN[c]`: a symmetry taking cell `c` into the domain (the identity for domain cells).
pub static TO_DOMAIN: [u8; 125] = build_to_domain();

/// `CANDIDATES[c]`: every symmetry taking cell `c` into the domain (they all take it to the same
/// domain cell), as a count and a list.
pub static CANDIDATES: [(u8, [u8; SYMMETRIES]); 125] = build_candidates();

/// `DOMAIN_INDEX[c]`: the domain number 0..10 of a domain cell, 255 elsewhere.
pub static DOMAIN_INDEX: [u8; 125] = build_domain_index().0;

/// `DOMAIN_CELL[i]`: the cell of domain number `i`.
pub static DOMAIN_CELL: [u8; KING_CELLS] = build_domain_index().1;

/// `ORBIT[i]`: how many cells the symmetries take domain cell `i` to (the weight of its
/// entries when positions are counted).
pub static ORBIT: [u32; KING_CELLS] = build_orbits();

const fn coords(c: usize) -> [i32; 3] {
    [(c / 25) as i32, ((c / 5) % 5) as i32, (c % 5) as i32]
}

const fn cell_of(x: [i32; 3]) -> usize {
    (x[0] * 25 + x[1] * 5 + x[2]) as usize
}

const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// Symmetry `t`: permutation `t / 8` of the axes, then axis `k` reflected when bit `k` of `t % 8`
/// is set.
const fn apply(t: usize, c: usize) -> usize {
    let x = coords(c);
    let p = PERMS[t / 8];
    let mut y = [x[p[0]], x[p[1]], x[p[2]]];
    let mut k = 0;
    while k < 3 {
        if (t % 8) >> k & 1 == 1 {
            y[k] = 4 - y[k];
        }
        k += 1;
    }
    cell_of(y)
}

const fn build_symmetries() -> [[u8; 125]; SYMMETRIES] {
    let mut s = [[0u8; 125]; SYMMETRIES];
    let mut t = 0;
    while t < SYMMETRIES {
        let mut c = 0;
        while c < 125 {
            s[t][c] = apply(t, c) as u8;
            c += 1;
        }
        t += 1;
    }
    s
}

const fn in_domain(c: usize) -> bool {
    let x = coords(c);
    x[0] <= x[1] && x[1] <= x[2] && x[2] <= 2
}

const fn build_to_domain() -> [u8; 125] {
    let mut out = [0u8; 125];
    let mut c = 0;
    while c < 125 {
        let mut t = 0;
        while t < SYMMETRIES {
            if in_domain(apply(t, c)) {
                out[c] = t as u8;
                break;
            }
            t += 1;
        }
        c += 1;
    }
    out
}

const fn build_candidates() -> [(u8, [u8; SYMMETRIES]); 125] {
    let mut out = [(0u8, [0u8; SYMMETRIES]); 125];
    let mut c = 0;
    while c < 125 {
        let mut t = 0;
        while t < SYMMETRIES {
            if in_domain(apply(t, c)) {
                let n = out[c].0 as usize;
                out[c].1[n] = t as u8;
                out[c].0 += 1;
            }
            t += 1;
        }
        c += 1;
    }
    out
}

const fn build_domain_index() -> ([u8; 125], [u8; KING_CELLS]) {
    let mut idx = [255u8; 125];
    let mut cells = [0u8; KING_CELLS];
    let mut n = 0;
    let mut c = 0;
    while c < 125 {
        if in_domain(c) {
            idx[c] = n as u8;
            cells[n] = c as u8;
            n += 1;
        }
        c += 1;
    }
    (idx, cells)
}

const fn build_orbits() -> [u32; KING_CELLS] {
    let mut out = [0u32; KING_CELLS];
    let to_domain = build_to_domain();
    let domain = build_domain_index().0;
    let mut c = 0;
    while c < 125 {
        let t = to_domain[c] as usize;
        let d = domain[apply(t, c)] as usize;
        out[d] += 1;
        c += 1;
    }
    out
}

/// The number of entries of a table of `men` men.
pub const fn entries(men: usize) -> u64 {
    let mut n = (KING_CELLS * 2) as u64;
    let mut i = 1;
    while i < men {
        n *= 125;
        i += 1;
    }
    n
}

/// The index of the position with the men of slot order on `cells` (white king first) and `side`
/// to move. The cells are turned so that the white king is in the domain.
#[inline]
pub fn index_of(cells: &[u8], side: Color) -> u64 {
    let t = &SYM[TO_DOMAIN[cells[0] as usize] as usize];
    let mut i = DOMAIN_INDEX[t[cells[0] as usize] as usize] as u64;
    for &c in &cells[1..] {
        i = i * 125 + t[c as usize] as u64;
    }
    i * 2 + side.index() as u64
}

/// The canonical index of a position (the smallest index of its images under the symmetries,
/// with each run of interchangeable men, `same[k]` a pair of slots of one kind and colour, put in
/// cell order), and how many symmetries give it (the size of the position's stabiliser: the
/// position stands for `48 / ties` positions of the board).
#[inline]
pub fn canonical_index(cells: &[u8], same: &[(usize, usize)], side: Color) -> (u64, u32) {
    let (n, list) = &CANDIDATES[cells[0] as usize];
    let mut best = u64::MAX;
    let mut ties = 0;
    let mut turned = [0u8; 8];
    let men = cells.len();
    for &t in &list[..*n as usize] {
        let map = &SYM[t as usize];
        for k in 0..men {
            turned[k] = map[cells[k] as usize];
        }
        for &(a, b) in same {
            if turned[a] > turned[b] {
                turned.swap(a, b);
            }
        }
        let mut i = DOMAIN_INDEX[turned[0] as usize] as u64;
        for &c in &turned[1..men] {
            i = i * 125 + c as u64;
        }
        let i = i * 2 + side.index() as u64;
        if i < best {
            best = i;
            ties = 1;
        } else if i == best {
            ties += 1;
        }
    }
    (best, ties)
}

/// The men's cells (slot order) and the side to move of entry `index` of a table of `cells.len()`
/// men.
#[inline]
pub fn decode(mut index: u64, cells: &mut [u8]) -> Color {
    let side = if index & 1 == 0 { Color::White } else { Color::Black };
    index >>= 1;
    for c in cells[1..].iter_mut().rev() {
        *c = (index % 125) as u8;
        index /= 125;
    }
    cells[0] = DOMAIN_CELL[index as usize];
    side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_are_48_distinct_permutations_of_the_cells() {
        let mut seen = std::collections::HashSet::new();
        for t in &SYM {
            let mut sorted = t.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..125u8).collect::<Vec<_>>());
            assert!(seen.insert(t.to_vec()));
        }
        assert_eq!(SYM[0].to_vec(), (0..125u8).collect::<Vec<_>>());
    }

    #[test]
    fn the_domain_has_ten_cells_whose_orbits_cover_the_board() {
        assert_eq!(DOMAIN_CELL.len(), 10);
        assert_eq!(ORBIT.iter().sum::<u32>(), 125);
        // The centre is fixed by every symmetry; a corner has 8 images.
        let centre = DOMAIN_INDEX[62] as usize;
        assert_eq!(ORBIT[centre], 1);
        assert_eq!(ORBIT[DOMAIN_INDEX[0] as usize], 8);
        for &c in &DOMAIN_CELL {
            assert_eq!(TO_DOMAIN[c as usize], 0, "domain cells are left as they are");
        }
    }

    #[test]
    fn symmetries_keep_the_geometry_of_every_piece() {
        use crate::rules::geometry::Geometry;
        use crate::rules::piece_attacks;
        use crate::rules::Kind;
        let g = Geometry::get(false);
        let occ: u128 = (1 << 7) | (1 << 62) | (1 << 100);
        for (t, sym) in SYM.iter().enumerate() {
            let map = |bb: u128| (0..125).filter(|&c| bb >> c & 1 == 1).fold(0u128, |a, c| a | 1 << sym[c]);
            for kind in
                [Kind::Queen, Kind::King, Kind::Knight, Kind::Unicorn, Kind::Silver, Kind::Wizard, Kind::RUnicorn]
            {
                for fiveup in [true, false] {
                    for (c, &image) in sym.iter().enumerate() {
                        let a = map(piece_attacks(g, fiveup, kind, c, occ));
                        let b = piece_attacks(g, fiveup, kind, image as usize, map(occ));
                        assert_eq!(a, b, "symmetry {t}, {kind:?} on {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_image_of_a_position_has_one_canonical_index() {
        let same = [(2usize, 3usize)];
        for pos in [[0u8, 124, 5, 77], [62, 1, 2, 3], [12, 62, 30, 31], [2, 10, 22, 122]] {
            let (want, ties) = canonical_index(&pos, &same, Color::Black);
            assert!(ties >= 1);
            for sym in &SYM {
                let mut img: Vec<u8> = pos.iter().map(|&c| sym[c as usize]).collect();
                assert_eq!(canonical_index(&img, &same, Color::Black).0, want);
                img.swap(2, 3);
                assert_eq!(canonical_index(&img, &same, Color::Black).0, want);
            }
        }
        // The king in the centre and the men on a line through it: 8 symmetries keep the position.
        assert_eq!(canonical_index(&[62, 87, 37, 12], &[], Color::White).1, 8);
    }

    #[test]
    fn an_index_decodes_to_its_position() {
        let mut cells = [0u8; 4];
        for &(pos, side) in
            &[([0u8, 124, 5, 77], Color::White), ([62, 1, 2, 3], Color::Black), ([124, 0, 60, 61], Color::White)]
        {
            let i = index_of(&pos, side);
            assert!(i < entries(4));
            let s = decode(i, &mut cells);
            assert_eq!(s, side);
            let t = TO_DOMAIN[pos[0] as usize] as usize;
            let turned: Vec<u8> = pos.iter().map(|&c| SYM[t][c as usize]).collect();
            assert_eq!(cells.to_vec(), turned);
        }
        assert_eq!(entries(3), 312_500);
        assert_eq!(entries(4), 39_062_500);
    }
}
