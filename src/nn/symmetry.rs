//! Exact symmetries of the rules, applied alike to positions, moves, input planes and policy
//! vectors (for training-data augmentation and for averaging evaluations).
//!
//! Every move set and every pawn rule is symmetric under mirroring files a↔e, so the mirror is a
//! symmetry of every ruleset. On the hypercylinder the files form a ring, and each of the five
//! rotations `file → file + k (mod 5)` is a symmetry too; with the mirror they make the ten
//! elements of the dihedral group of the ring. A symmetry here maps file `f` to
//! `(mirror ? 4 − f : f) + shift (mod 5)`.
//!
//! The mover's frame of [`super::encode`] never touches files, so a symmetry acts on the frame
//! exactly as on the board: planes and policy channels are permuted cell by cell, and the policy's
//! move vectors have their file component negated under the mirror (a rotation keeps vectors).

use super::encode::{CELLS, INPUT_SIZE, PLANES};
use super::policy::{PolicyIndex, CHANNEL_VECTORS, MAIN_CHANNELS, POLICY_CHANNELS, POLICY_SIZE};
use crate::rules::bitboard::Bitboard;
use crate::rules::cell::Cell;
use crate::rules::position::EnPassant;
use crate::rules::{Move, Position, Variant};

/// A file symmetry: optional a↔e mirror, then a rotation of the files by `shift` (hypercylinder
/// only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Mirror files a↔e first.
    pub mirror: bool,
    /// Then add this to the file, modulo 5 (0..5).
    pub shift: u8,
}

const fn sym(mirror: bool, shift: u8) -> Symmetry {
    Symmetry { mirror, shift }
}

static FLAT_SYMMETRIES: [Symmetry; 2] = [sym(false, 0), sym(true, 0)];
static CYLINDER_SYMMETRIES: [Symmetry; 10] = [
    sym(false, 0),
    sym(false, 1),
    sym(false, 2),
    sym(false, 3),
    sym(false, 4),
    sym(true, 0),
    sym(true, 1),
    sym(true, 2),
    sym(true, 3),
    sym(true, 4),
];

/// Main channel of each main channel under the mirror.
static MIRROR_CHANNEL: [u8; MAIN_CHANNELS] = {
    let mut t = [0u8; MAIN_CHANNELS];
    let mut ch = 0;
    while ch < MAIN_CHANNELS {
        let v = CHANNEL_VECTORS[ch];
        let mut j = 0;
        while j < MAIN_CHANNELS {
            let w = CHANNEL_VECTORS[j];
            if w.0 == v.0 && w.1 == v.1 && w.2 == -v.2 {
                t[ch] = j as u8;
            }
            j += 1;
        }
        ch += 1;
    }
    t
};

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = sym(false, 0);
    /// The a↔e mirror.
    pub const MIRROR: Symmetry = sym(true, 0);

    /// Every symmetry of a variant, the identity first: 2 on the flat board, 10 on the
    /// hypercylinder.
    pub fn all(variant: Variant) -> &'static [Symmetry] {
        if variant.hypercylinder {
            &CYLINDER_SYMMETRIES
        } else {
            &FLAT_SYMMETRIES
        }
    }

    /// Whether this is a symmetry of `variant` (rotations need the hypercylinder).
    pub fn fits(self, variant: Variant) -> bool {
        self.shift < 5 && (self.shift == 0 || variant.hypercylinder)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        if self.mirror {
            // f → 4 − f + k is its own inverse.
            self
        } else {
            sym(false, (5 - self.shift) % 5)
        }
    }

    /// Image of a file 0..5.
    #[inline]
    pub const fn file(self, f: i32) -> i32 {
        let f = if self.mirror { 4 - f } else { f };
        (f + self.shift as i32) % 5
    }

    /// Image of a cell.
    #[inline]
    pub const fn cell(self, c: Cell) -> Cell {
        Cell::new_unchecked((c.layer() * 25 + c.rank() * 5 + self.file(c.file())) as u8)
    }

    /// Image of a set of cells.
    pub fn bitboard(self, b: Bitboard) -> Bitboard {
        b.map(|c| self.cell(c)).collect()
    }

    /// Image of a move (cells mapped, everything else kept).
    pub fn apply_move(self, m: Move) -> Move {
        Move::new(self.cell(m.from()), self.cell(m.to()), m.promotion(), m.placement(), m.special())
    }

    /// Image of a position. Panics unless [`Symmetry::fits`] its variant.
    pub fn apply_position(self, pos: &Position) -> Position {
        assert!(self.fits(pos.variant()), "{self:?} is not a symmetry of {}", pos.variant());
        let s = pos.to_setup();
        let mut t = s.clone();
        for c in Cell::all() {
            t.board[self.cell(c).index()] = s.board[c.index()];
        }
        t.rights = self.bitboard(s.rights);
        if s.ep.is_some() {
            t.ep = EnPassant {
                passed: self.bitboard(Bitboard(s.ep.passed)).0,
                pawn: self.cell(Cell::new(s.ep.pawn)).index() as u8,
            };
        }
        Position::from_setup(t).expect("the image of a legal position under a symmetry is legal")
    }

    /// Image of encoded input planes (`INPUT_SIZE` values each; `input` and `out` of equal length,
    /// a multiple of `INPUT_SIZE`).
    pub fn apply_planes(self, input: &[f32], out: &mut [f32]) {
        assert_eq!(input.len(), out.len(), "apply_planes: lengths differ");
        assert_eq!(input.len() % INPUT_SIZE, 0, "apply_planes: not whole items");
        let map = self.cell_map();
        for (src, dst) in input.chunks_exact(CELLS).zip(out.chunks_exact_mut(CELLS)) {
            for c in 0..CELLS {
                dst[map[c] as usize] = src[c];
            }
        }
        debug_assert_eq!(input.len() / CELLS % PLANES, 0);
    }

    /// Image of a main channel (move vector).
    #[inline]
    pub fn channel(self, ch: usize) -> usize {
        if self.mirror && ch < MAIN_CHANNELS {
            MIRROR_CHANNEL[ch] as usize
        } else {
            ch
        }
    }

    /// Image of a flat policy index.
    #[inline]
    pub fn policy_flat(self, i: u32) -> u32 {
        let (ch, c) = (i as usize / CELLS, i as usize % CELLS);
        (self.channel(ch) * CELLS + self.cell(Cell::new_unchecked(c as u8)).index()) as u32
    }

    /// Image of a move's policy index.
    pub fn apply_index(self, idx: PolicyIndex) -> PolicyIndex {
        PolicyIndex {
            main: self.policy_flat(idx.main),
            placement: idx.placement.map(|i| self.policy_flat(i)),
            promotion: idx.promotion.map(|i| self.policy_flat(i)),
        }
    }

    /// Image of a policy vector (logits or targets, `POLICY_SIZE` values).
    pub fn apply_policy(self, input: &[f32], out: &mut [f32]) {
        assert_eq!(input.len(), POLICY_SIZE, "apply_policy: input must hold POLICY_SIZE values");
        assert_eq!(out.len(), POLICY_SIZE, "apply_policy: output must hold POLICY_SIZE values");
        let map = self.cell_map();
        for ch in 0..POLICY_CHANNELS {
            let to = self.channel(ch);
            for c in 0..CELLS {
                out[to * CELLS + map[c] as usize] = input[ch * CELLS + c];
            }
        }
    }

    fn cell_map(self) -> [u8; CELLS] {
        let mut m = [0u8; CELLS];
        for c in Cell::all() {
            m[c.index()] = self.cell(c).index() as u8;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encode::encode;
    use crate::nn::policy::{legal_policy, move_to_index, vector_channel};
    use crate::nn::testutil::all_variants;
    use crate::rules::random::random_positions;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn group_structure() {
        for v in all_variants() {
            for &s in Symmetry::all(v) {
                assert!(s.fits(v));
                for c in Cell::all() {
                    assert_eq!(s.inverse().cell(s.cell(c)), c);
                }
                for (ch, &w) in CHANNEL_VECTORS.iter().enumerate() {
                    let want = if s.mirror { (w.0, w.1, -w.2) } else { w };
                    assert_eq!(vector_channel(want), Some(s.channel(ch)));
                }
            }
        }
        assert!(!Symmetry { mirror: false, shift: 1 }.fits(Variant::default()));
    }

    #[test]
    fn symmetries_commute_with_rules_encoding_and_policy() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut logits = vec![0.0f32; POLICY_SIZE];
        let mut mapped_logits = vec![0.0f32; POLICY_SIZE];
        let mut planes = vec![0.0f32; INPUT_SIZE];
        let (mut p1, mut p2) = (Vec::new(), Vec::new());
        for (i, v) in all_variants().into_iter().enumerate() {
            for (j, p) in random_positions(v, 500 + i as u64, 3, 200).iter().enumerate() {
                if j % 4 != 0 {
                    continue;
                }
                let moves = p.legal_moves();
                let reps = (j / 4 % 3) as u32;
                let e = encode(p, reps);
                logits.iter_mut().for_each(|x| *x = rng.gen_range(-2.0..2.0));
                legal_policy(p, &moves, &logits, &mut p1);
                for &s in Symmetry::all(v) {
                    let q = s.apply_position(p);
                    // Legal moves of the image = images of the legal moves.
                    let mut want: Vec<Move> = moves.iter().map(|&m| s.apply_move(m)).collect();
                    let mut got = q.legal_moves();
                    want.sort();
                    got.sort();
                    assert_eq!(got, want, "{v} {s:?}");
                    // Planes.
                    s.apply_planes(&e, &mut planes);
                    assert_eq!(encode(&q, reps), planes, "{v} {s:?}");
                    // Policy indices and the distribution over legal moves.
                    for &m in &moves {
                        assert_eq!(
                            move_to_index(&q, s.apply_move(m)),
                            s.apply_index(move_to_index(p, m)),
                            "{v} {s:?} {m:?}"
                        );
                    }
                    s.apply_policy(&logits, &mut mapped_logits);
                    let qm: Vec<Move> = moves.iter().map(|&m| s.apply_move(m)).collect();
                    legal_policy(&q, &qm, &mapped_logits, &mut p2);
                    for (a, b) in p1.iter().zip(&p2) {
                        assert!((a - b).abs() < 1e-6);
                    }
                }
            }
        }
    }
}
