//! Board geometry: the 26 step vectors and every move table, built by `const fn` into statics.
//!
//! Two geometries exist: the flat board and the hypercylinder (files a and e joined). A table
//! entry is a set of cells (`u128`); slides are answered by ray tables. On the flat board a ray's
//! cells are monotonic in index, so the first blocker is a bit scan (lowest bit for directions of
//! positive index delta, highest for negative). On the hypercylinder a ray wraps and is not
//! monotonic, so slides walk the ray's ordered cell list instead (at most 4 cells).
//!
//! Every table is checked against a naive stepping function in the tests below.

use super::cell::Cell;
use super::types::Ruleset;
use crate::game::Color;

/// A step vector (layer, rank, file), each in -1..=1.
pub type Vector = (i32, i32, i32);

const fn nonzero(v: i32) -> i32 {
    if v != 0 {
        1
    } else {
        0
    }
}

const fn build_dirs() -> [Vector; 26] {
    let mut out = [(0, 0, 0); 26];
    let mut n = 0;
    let mut want = 1;
    while want <= 3 {
        let mut dl = -1;
        while dl <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let mut df = -1;
                while df <= 1 {
                    if nonzero(dl) + nonzero(dr) + nonzero(df) == want {
                        out[n] = (dl, dr, df);
                        n += 1;
                    }
                    df += 1;
                }
                dr += 1;
            }
            dl += 1;
        }
        want += 1;
    }
    out
}

/// The 26 directions: 6 orthogonal (indices 0..6), 12 2D-diagonal (6..18), 8 3D-diagonal (18..26).
pub const DIRS: [Vector; 26] = build_dirs();
/// Index range of the orthogonal directions in [`DIRS`].
pub const ORTH: std::ops::Range<usize> = 0..6;
/// Index range of the 2D-diagonal directions in [`DIRS`].
pub const DIAG2: std::ops::Range<usize> = 6..18;
/// Index range of the 3D-diagonal directions in [`DIRS`].
pub const DIAG3: std::ops::Range<usize> = 18..26;

/// Whether a direction's index delta is positive (its ray's cells increase in index on the flat board).
pub const fn dir_positive(d: usize) -> bool {
    let (dl, dr, df) = DIRS[d];
    dl * 25 + dr * 5 + df > 0
}

/// The directions of `range` whose index delta has the sign `positive` (exactly `N` of them).
const fn dirs_signed<const N: usize>(range: std::ops::Range<usize>, positive: bool) -> [usize; N] {
    let mut out = [0; N];
    let mut n = 0;
    let mut d = range.start;
    while d < range.end {
        if dir_positive(d) == positive {
            out[n] = d;
            n += 1;
        }
        d += 1;
    }
    assert!(n == N);
    out
}

const ORTH_POS: [usize; 3] = dirs_signed(ORTH, true);
const ORTH_NEG: [usize; 3] = dirs_signed(ORTH, false);
const DIAG2_POS: [usize; 6] = dirs_signed(DIAG2, true);
const DIAG2_NEG: [usize; 6] = dirs_signed(DIAG2, false);
const DIAG3_POS: [usize; 4] = dirs_signed(DIAG3, true);
const DIAG3_NEG: [usize; 4] = dirs_signed(DIAG3, false);

const fn build_leaps(a: i32, b: i32, c: i32) -> [Vector; 24] {
    // All sign/permutation combinations of (a, b, c) with |a| <= |b| <= |c|, deduplicated.
    let mut out = [(0, 0, 0); 24];
    let mut n = 0;
    let perms: [[i32; 3]; 6] = [[a, b, c], [a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]];
    let mut p = 0;
    while p < 6 {
        let mut s = 0;
        while s < 8 {
            let x = if s & 1 != 0 { -perms[p][0] } else { perms[p][0] };
            let y = if s & 2 != 0 { -perms[p][1] } else { perms[p][1] };
            let z = if s & 4 != 0 { -perms[p][2] } else { perms[p][2] };
            let mut dup = false;
            let mut i = 0;
            while i < n {
                if out[i].0 == x && out[i].1 == y && out[i].2 == z {
                    dup = true;
                }
                i += 1;
            }
            if !dup {
                out[n] = (x, y, z);
                n += 1;
            }
            s += 1;
        }
        p += 1;
    }
    assert!(n == 24);
    out
}

/// Knight leaps: permutations of (0, ±1, ±2).
pub const KNIGHT_LEAPS: [Vector; 24] = build_leaps(0, 1, 2);
/// Five Up unicorn leaps: permutations of (±1, ±1, ±2).
pub const UNICORN_LEAPS: [Vector; 24] = build_leaps(1, 1, 2);

/// Pawn movement class: forward (rank) and up (layer) signs for a side in a ruleset.
/// Class 0: white Five Up (rank +1, layer -1); 1: black Five Up; 2: white Raumschach (rank +1,
/// layer +1); 3: black Raumschach. Class `c ^ 1` moves exactly opposite to class `c`.
#[inline]
pub const fn pawn_class(ruleset: Ruleset, color: Color) -> usize {
    let base = if ruleset.is_fiveup() { 0 } else { 2 };
    base + color as usize
}

/// (forward rank delta, up layer delta) of a pawn class.
pub const fn pawn_deltas(class: usize) -> (i32, i32) {
    match class {
        0 => (1, -1),
        1 => (-1, 1),
        2 => (1, 1),
        _ => (-1, -1),
    }
}

/// Every move table of one board topology.
pub struct Geometry {
    /// Whether files wrap.
    pub cylinder: bool,
    /// `rays[d][c]`: cells along direction `d` from `c`, excluding `c`, to the edge (flat) or for 4 steps.
    pub rays: [[u128; 125]; 26],
    /// Ordered cells of `rays[d][c]`, nearest first.
    pub ray_cells: [[[u8; 4]; 125]; 26],
    /// Number of cells in `ray_cells[d][c]`.
    pub ray_len: [[u8; 125]; 26],
    /// Union of the orthogonal rays of a cell.
    pub orth_rays: [u128; 125],
    /// Union of the 2D-diagonal rays of a cell.
    pub diag2_rays: [u128; 125],
    /// Union of the 3D-diagonal rays of a cell.
    pub diag3_rays: [u128; 125],
    /// Knight targets.
    pub knight: [u128; 125],
    /// Five Up unicorn targets.
    pub unicorn: [u128; 125],
    /// One orthogonal step.
    pub orth_step: [u128; 125],
    /// One 3D-diagonal step.
    pub diag3_step: [u128; 125],
    /// One step in any of the 26 directions.
    pub all_step: [u128; 125],
    /// Pawn single steps (forward, up) per pawn class.
    pub pawn_push: [[u128; 125]; 4],
    /// Pawn capture cells per pawn class.
    pub pawn_capture: [[u128; 125]; 4],
    /// `dir_to[a][b]`: 1 + the direction from `a` whose ray holds `b`, 0 if none (meaningful on
    /// the flat board only, where at most one ray of `a` holds `b`).
    pub dir_to: [[u8; 125]; 125],
}

/// The cell reached from `c` by `v` in a topology, if on the board.
pub const fn offset(c: usize, v: Vector, cylinder: bool) -> Option<usize> {
    let l = (c / 25) as i32 + v.0;
    let r = ((c / 5) % 5) as i32 + v.1;
    let mut f = (c % 5) as i32 + v.2;
    if cylinder {
        f = ((f % 5) + 5) % 5;
    }
    if l < 0 || l > 4 || r < 0 || r > 4 || f < 0 || f > 4 {
        None
    } else {
        Some((l * 25 + r * 5 + f) as usize)
    }
}

const fn leap_table(vs: &[Vector], cylinder: bool) -> [u128; 125] {
    let mut t = [0u128; 125];
    let mut c = 0;
    while c < 125 {
        let mut i = 0;
        while i < vs.len() {
            if let Some(x) = offset(c, vs[i], cylinder) {
                t[c] |= 1u128 << x;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

const fn dir_slice(lo: usize, hi: usize) -> ([Vector; 26], usize) {
    let mut out = [(0, 0, 0); 26];
    let mut i = lo;
    while i < hi {
        out[i - lo] = DIRS[i];
        i += 1;
    }
    (out, hi - lo)
}

const fn step_table(lo: usize, hi: usize, cylinder: bool) -> [u128; 125] {
    let (v, n) = dir_slice(lo, hi);
    let mut t = [0u128; 125];
    let mut c = 0;
    while c < 125 {
        let mut i = 0;
        while i < n {
            if let Some(x) = offset(c, v[i], cylinder) {
                t[c] |= 1u128 << x;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

impl Geometry {
    const fn build(cylinder: bool) -> Geometry {
        let mut g = Geometry {
            cylinder,
            rays: [[0; 125]; 26],
            ray_cells: [[[0; 4]; 125]; 26],
            ray_len: [[0; 125]; 26],
            orth_rays: [0; 125],
            diag2_rays: [0; 125],
            diag3_rays: [0; 125],
            knight: leap_table(&KNIGHT_LEAPS, cylinder),
            unicorn: leap_table(&UNICORN_LEAPS, cylinder),
            orth_step: step_table(0, 6, cylinder),
            diag3_step: step_table(18, 26, cylinder),
            all_step: step_table(0, 26, cylinder),
            pawn_push: [[0; 125]; 4],
            pawn_capture: [[0; 125]; 4],
            dir_to: [[0; 125]; 125],
        };
        let mut d = 0;
        while d < 26 {
            let mut c = 0;
            while c < 125 {
                let mut cur = c;
                let mut n = 0;
                while n < 4 {
                    match offset(cur, DIRS[d], cylinder) {
                        Some(x) => {
                            g.rays[d][c] |= 1u128 << x;
                            g.ray_cells[d][c][n] = x as u8;
                            g.dir_to[c][x] = d as u8 + 1;
                            cur = x;
                            n += 1;
                        }
                        None => break,
                    }
                }
                g.ray_len[d][c] = n as u8;
                if d < 6 {
                    g.orth_rays[c] |= g.rays[d][c];
                } else if d < 18 {
                    g.diag2_rays[c] |= g.rays[d][c];
                } else {
                    g.diag3_rays[c] |= g.rays[d][c];
                }
                c += 1;
            }
            d += 1;
        }
        let mut class = 0;
        while class < 4 {
            let (fwd, up) = pawn_deltas(class);
            let pushes = [(0, fwd, 0), (up, 0, 0)];
            let caps = [(0, fwd, 1), (0, fwd, -1), (up, 0, 1), (up, 0, -1), (up, fwd, 0)];
            g.pawn_push[class] = leap_table(&pushes, cylinder);
            g.pawn_capture[class] = leap_table(&caps, cylinder);
            class += 1;
        }
        g
    }

    /// The tables of a topology.
    #[inline]
    pub fn get(cylinder: bool) -> &'static Geometry {
        if cylinder {
            &CYLINDER
        } else {
            &FLAT
        }
    }

    /// Cells a slider on `c` reaches along direction `d` with occupancy `occ` (the first blocker included).
    #[inline]
    pub fn slide(&self, d: usize, c: usize, occ: u128) -> u128 {
        let ray = self.rays[d][c];
        if !self.cylinder {
            let blockers = ray & occ;
            if blockers == 0 {
                return ray;
            }
            let b = if dir_positive(d) { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() } as usize;
            ray ^ self.rays[d][b]
        } else {
            let mut out = 0u128;
            let cells = &self.ray_cells[d][c];
            for &x in cells.iter().take(self.ray_len[d][c] as usize) {
                out |= 1u128 << x;
                if occ >> x & 1 != 0 {
                    break;
                }
            }
            out
        }
    }

    /// The first occupied cell along direction `d` from `c`, if any.
    #[inline]
    pub fn first_blocker(&self, d: usize, c: usize, occ: u128) -> Option<usize> {
        if !self.cylinder {
            let blockers = self.rays[d][c] & occ;
            if blockers == 0 {
                None
            } else if dir_positive(d) {
                Some(blockers.trailing_zeros() as usize)
            } else {
                Some((127 - blockers.leading_zeros()) as usize)
            }
        } else {
            let cells = &self.ray_cells[d][c];
            cells.iter().take(self.ray_len[d][c] as usize).map(|&x| x as usize).find(|&x| occ >> x & 1 != 0)
        }
    }

    /// Cells strictly between `a` and `b` when they share a line, else none. Flat board only (on
    /// the hypercylinder two cells of one ring are joined by two paths).
    #[inline]
    pub fn between(&self, a: usize, b: usize) -> u128 {
        debug_assert!(!self.cylinder);
        match self.dir_to[a][b] {
            0 => 0,
            d => {
                let d = d as usize - 1;
                self.rays[d][a] & !self.rays[d][b] & !(1u128 << b)
            }
        }
    }

    /// Slides along fixed directions on the flat board: the first blocker is the lowest set bit of
    /// the blocked ray for directions of positive index delta, the highest for negative ones. The
    /// directions are constants, so the loops unroll.
    #[inline(always)]
    fn slide_fixed<const P: usize, const M: usize>(
        &self,
        pos: &[usize; P],
        neg: &[usize; M],
        c: usize,
        occ: u128,
    ) -> u128 {
        let mut a = 0;
        for &d in pos {
            let ray = self.rays[d][c];
            let b = ray & occ;
            a |= if b == 0 { ray } else { ray ^ self.rays[d][b.trailing_zeros() as usize] };
        }
        for &d in neg {
            let ray = self.rays[d][c];
            let b = ray & occ;
            a |= if b == 0 { ray } else { ray ^ self.rays[d][127 - b.leading_zeros() as usize] };
        }
        a
    }

    /// First pieces hit from `c` along fixed directions on the flat board, among the directions
    /// whose ray holds a piece of `targets` (a subset of `occ`). Cheap when few rays hold one.
    #[inline(always)]
    fn hits_fixed<const P: usize, const M: usize>(
        &self,
        pos: &[usize; P],
        neg: &[usize; M],
        c: usize,
        occ: u128,
        targets: u128,
    ) -> u128 {
        let mut a = 0;
        for &d in pos {
            let ray = self.rays[d][c];
            if ray & targets != 0 {
                let b = ray & occ;
                a |= b & b.wrapping_neg();
            }
        }
        for &d in neg {
            let ray = self.rays[d][c];
            if ray & targets != 0 {
                let b = ray & occ;
                a |= 1u128 << (127 - b.leading_zeros());
            }
        }
        a & targets
    }

    /// Pieces of `targets` (a subset of `occ`) that an orthogonal slider on `c` reaches:
    /// `orth_slides(c, occ) & targets`.
    #[inline(always)]
    pub fn orth_hits(&self, c: usize, occ: u128, targets: u128) -> u128 {
        if self.cylinder {
            self.slides(ORTH, c, occ) & targets
        } else {
            self.hits_fixed(&ORTH_POS, &ORTH_NEG, c, occ, targets)
        }
    }

    /// `diag2_slides(c, occ) & targets` for `targets` a subset of `occ`.
    #[inline(always)]
    pub fn diag2_hits(&self, c: usize, occ: u128, targets: u128) -> u128 {
        if self.cylinder {
            self.slides(DIAG2, c, occ) & targets
        } else {
            self.hits_fixed(&DIAG2_POS, &DIAG2_NEG, c, occ, targets)
        }
    }

    /// `diag3_slides(c, occ) & targets` for `targets` a subset of `occ`.
    #[inline(always)]
    pub fn diag3_hits(&self, c: usize, occ: u128, targets: u128) -> u128 {
        if self.cylinder {
            self.slides(DIAG3, c, occ) & targets
        } else {
            self.hits_fixed(&DIAG3_POS, &DIAG3_NEG, c, occ, targets)
        }
    }

    /// Orthogonal slides from `c` (same as `slides(ORTH, ..)`, unrolled on the flat board).
    #[inline(always)]
    pub fn orth_slides(&self, c: usize, occ: u128) -> u128 {
        if self.cylinder {
            self.slides(ORTH, c, occ)
        } else {
            self.slide_fixed(&ORTH_POS, &ORTH_NEG, c, occ)
        }
    }

    /// 2D-diagonal slides from `c` (same as `slides(DIAG2, ..)`, unrolled on the flat board).
    #[inline(always)]
    pub fn diag2_slides(&self, c: usize, occ: u128) -> u128 {
        if self.cylinder {
            self.slides(DIAG2, c, occ)
        } else {
            self.slide_fixed(&DIAG2_POS, &DIAG2_NEG, c, occ)
        }
    }

    /// 3D-diagonal slides from `c` (same as `slides(DIAG3, ..)`, unrolled on the flat board).
    #[inline(always)]
    pub fn diag3_slides(&self, c: usize, occ: u128) -> u128 {
        if self.cylinder {
            self.slides(DIAG3, c, occ)
        } else {
            self.slide_fixed(&DIAG3_POS, &DIAG3_NEG, c, occ)
        }
    }

    /// Union of slides along the directions in `dirs` from `c`.
    #[inline]
    pub fn slides(&self, dirs: std::ops::Range<usize>, c: usize, occ: u128) -> u128 {
        let mut out = 0;
        for d in dirs {
            out |= self.slide(d, c, occ);
        }
        out
    }
}

/// Tables of the flat board.
pub static FLAT: Geometry = Geometry::build(false);
/// Tables of the hypercylinder.
pub static CYLINDER: Geometry = Geometry::build(true);

/// The cell of `c` as a `Cell`.
#[inline]
pub fn cell(c: usize) -> Cell {
    Cell::new_unchecked(c as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive slide: step until the edge (flat) or 4 steps (cylinder), stopping at a blocker.
    fn naive_slide(c: usize, v: Vector, cyl: bool, occ: u128) -> u128 {
        let mut out = 0;
        let mut cur = c;
        for _ in 0..4 {
            let Some(x) = offset(cur, v, cyl) else { break };
            out |= 1u128 << x;
            if occ >> x & 1 != 0 {
                break;
            }
            cur = x;
        }
        out
    }

    fn naive_leaps(c: usize, vs: &[Vector], cyl: bool) -> u128 {
        vs.iter().filter_map(|&v| offset(c, v, cyl)).fold(0, |a, x| a | 1u128 << x)
    }

    #[test]
    fn direction_counts() {
        assert_eq!(DIRS.len(), 26);
        for (i, v) in DIRS.iter().enumerate() {
            let nz = (v.0 != 0) as usize + (v.1 != 0) as usize + (v.2 != 0) as usize;
            let want = if ORTH.contains(&i) {
                1
            } else if DIAG2.contains(&i) {
                2
            } else {
                3
            };
            assert_eq!(nz, want, "direction {i}");
        }
        for l in [KNIGHT_LEAPS, UNICORN_LEAPS] {
            let mut s = l.to_vec();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), 24);
        }
        assert!(UNICORN_LEAPS.iter().all(|v| v.0 != 0 && v.1 != 0 && v.2 != 0));
        assert!(KNIGHT_LEAPS.iter().all(|v| [v.0, v.1, v.2].contains(&0)));
    }

    #[test]
    fn leap_and_step_tables_match_naive() {
        for cyl in [false, true] {
            let g = Geometry::get(cyl);
            for c in 0..125 {
                assert_eq!(g.knight[c], naive_leaps(c, &KNIGHT_LEAPS, cyl));
                assert_eq!(g.unicorn[c], naive_leaps(c, &UNICORN_LEAPS, cyl));
                assert_eq!(g.orth_step[c], naive_leaps(c, &DIRS[ORTH], cyl));
                assert_eq!(g.diag3_step[c], naive_leaps(c, &DIRS[DIAG3], cyl));
                assert_eq!(g.all_step[c], naive_leaps(c, &DIRS, cyl));
                for class in 0..4 {
                    let (fw, up) = pawn_deltas(class);
                    assert_eq!(g.pawn_push[class][c], naive_leaps(c, &[(0, fw, 0), (up, 0, 0)], cyl));
                    let caps = [(0, fw, 1), (0, fw, -1), (up, 0, 1), (up, 0, -1), (up, fw, 0)];
                    assert_eq!(g.pawn_capture[class][c], naive_leaps(c, &caps, cyl));
                }
                assert_eq!(g.all_step[c] >> 125, 0);
            }
        }
    }

    #[test]
    fn slides_match_naive_on_pseudo_random_occupancy() {
        let mut s: u64 = 0x9E3779B97F4A7C15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for cyl in [false, true] {
            let g = Geometry::get(cyl);
            for _ in 0..200 {
                let occ = ((next() as u128) << 64 | next() as u128) & (next() as u128 | (next() as u128) << 64);
                let occ = occ & ((1u128 << 125) - 1);
                for c in 0..125 {
                    for (d, &v) in DIRS.iter().enumerate() {
                        assert_eq!(g.slide(d, c, occ), naive_slide(c, v, cyl, occ), "cyl {cyl} c {c} d {d}");
                        let fb = g.first_blocker(d, c, occ);
                        let want = g.slide(d, c, occ) & occ;
                        assert_eq!(fb.map(|x| 1u128 << x).unwrap_or(0), want);
                    }
                }
            }
        }
    }

    #[test]
    fn between_and_unrolled_slides_match() {
        let g = Geometry::get(false);
        for a in 0..125 {
            for b in 0..125 {
                // Naive: the cells strictly between on a common line.
                let mut want = 0u128;
                for (d, &v) in DIRS.iter().enumerate() {
                    if g.rays[d][a] >> b & 1 != 0 {
                        let mut cur = a;
                        loop {
                            cur = offset(cur, v, false).unwrap();
                            if cur == b {
                                break;
                            }
                            want |= 1u128 << cur;
                        }
                    }
                }
                assert_eq!(g.between(a, b), want, "{a} {b}");
            }
        }
        let mut s: u64 = 0x2545F4914F6CDD1D;
        for _ in 0..300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let occ = ((s as u128) << 64 | s.rotate_left(17) as u128) & ((1u128 << 125) - 1);
            for cyl in [false, true] {
                let g = Geometry::get(cyl);
                for c in 0..125 {
                    assert_eq!(g.orth_slides(c, occ), g.slides(ORTH, c, occ));
                    assert_eq!(g.diag2_slides(c, occ), g.slides(DIAG2, c, occ));
                    assert_eq!(g.diag3_slides(c, occ), g.slides(DIAG3, c, occ));
                    // Targets: a pseudo-random subset of the occupancy.
                    let t = occ & (occ >> 3 | occ << 7);
                    assert_eq!(g.orth_hits(c, occ, t), g.slides(ORTH, c, occ) & t);
                    assert_eq!(g.diag2_hits(c, occ, t), g.slides(DIAG2, c, occ) & t);
                    assert_eq!(g.diag3_hits(c, occ, t), g.slides(DIAG3, c, occ) & t);
                }
            }
        }
    }

    #[test]
    fn cylinder_rook_wraps_from_ca1_to_ce1() {
        let ca1 = "Ca1".parse::<Cell>().unwrap().index();
        let ce1 = "Ce1".parse::<Cell>().unwrap().index();
        assert!(CYLINDER.orth_step[ca1] >> ce1 & 1 == 1);
        assert!(FLAT.orth_step[ca1] >> ce1 & 1 == 0);
        // A slide stops after 4 steps and never reaches its own start.
        for d in 0..26 {
            for c in 0..125 {
                assert_eq!(CYLINDER.rays[d][c] >> c & 1, 0);
            }
        }
    }
}
