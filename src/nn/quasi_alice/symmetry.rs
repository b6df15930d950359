//! The symmetries of 4D Quasi-Alice Chess: a permutation of the four boards, optionally with
//! the file mirror a↔h (which symmetries a position has is decided in the [module docs](super)).
//!
//! The mover's frame reflects ranks only, so a symmetry acts on planes and policy cells exactly
//! as on the board's cells: board `b` → `boards[b]`, file `f` → `7 − f` under the mirror. Policy
//! channels follow: the destination board is permuted and, under the mirror, each move type's
//! file displacement is negated.

use super::policy::{flat, MOVE_TYPES, POLICY_SIZE, TYPE_UNDER, TYPE_VECTORS};
use super::CELLS;
use crate::nn::netgame::{GameSymmetry, PolicyIndex};
use crate::quasi_alice::board::cell_name;
use crate::quasi_alice::{Move, Position};

/// A board permutation (`boards[b]` is the image of board `b`), then optionally the file mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSymmetry {
    /// Image of each board.
    pub boards: [u8; 4],
    /// Mirror files a↔h.
    pub mirror: bool,
}

/// Every permutation of 0..4 in lexicographic order: the first six fix board 0.
const fn permutations() -> [[u8; 4]; 24] {
    let mut out = [[0u8; 4]; 24];
    let mut n = 0;
    let mut code = 0;
    while code < 256 {
        let p = [(code & 3) as u8, (code >> 2 & 3) as u8, (code >> 4 & 3) as u8, (code >> 6 & 3) as u8];
        // Lexicographic order: the first element varies slowest.
        let q = [p[3], p[2], p[1], p[0]];
        if q[0] != q[1] && q[0] != q[2] && q[0] != q[3] && q[1] != q[2] && q[1] != q[3] && q[2] != q[3] {
            out[n] = q;
            n += 1;
        }
        code += 1;
    }
    out
}

const fn all_symmetries() -> [BoardSymmetry; 48] {
    let perms = permutations();
    let mut out = [BoardSymmetry { boards: [0, 1, 2, 3], mirror: false }; 48];
    let mut i = 0;
    while i < 48 {
        out[i] = BoardSymmetry { boards: perms[i % 24], mirror: i >= 24 };
        i += 1;
    }
    out
}

/// The 48 symmetries: the 24 permutations (the six fixing board 1 first, the identity first of
/// all), then the same with the mirror.
pub static ALL: [BoardSymmetry; 48] = all_symmetries();

/// How many leading entries of [`ALL`] fix board 1 without mirroring: the group while castling
/// rights remain.
pub const FIXING_BOARD_ONE: usize = 6;

/// Move type of each move type under the mirror.
static MIRROR_TYPE: [u8; MOVE_TYPES] = {
    let mut t = [0u8; MOVE_TYPES];
    let mut ty = 0;
    while ty < MOVE_TYPES {
        let (df, dr) = TYPE_VECTORS[ty];
        let mut j = 0;
        while j < MOVE_TYPES {
            // Under-promotions map among themselves, queen and knight types likewise.
            if (j >= TYPE_UNDER) == (ty >= TYPE_UNDER)
                && (ty < TYPE_UNDER || (j - TYPE_UNDER) / 3 == (ty - TYPE_UNDER) / 3)
                && TYPE_VECTORS[j].0 == -df
                && TYPE_VECTORS[j].1 == dr
            {
                t[ty] = j as u8;
            }
            j += 1;
        }
        ty += 1;
    }
    t
};

impl BoardSymmetry {
    /// The identity.
    pub const IDENTITY: BoardSymmetry = BoardSymmetry { boards: [0, 1, 2, 3], mirror: false };

    /// The symmetries of `pos`, the identity first: the 6 permutations of boards 2–4 while a
    /// castling right remains, else all 48.
    pub fn all(pos: &Position) -> &'static [BoardSymmetry] {
        if pos.castling() != 0 {
            &ALL[..FIXING_BOARD_ONE]
        } else {
            &ALL
        }
    }

    /// Image of a square of one board (0..64).
    #[inline]
    pub const fn square(self, sq: usize) -> usize {
        if self.mirror {
            sq ^ 7
        } else {
            sq
        }
    }

    /// Image of a cell (`board * 64 + square`).
    #[inline]
    pub const fn cell(self, cell: usize) -> usize {
        self.boards[cell / 64] as usize * 64 + self.square(cell % 64)
    }

    /// Image of a move type.
    #[inline]
    pub fn move_type(self, ty: usize) -> usize {
        if self.mirror {
            MIRROR_TYPE[ty] as usize
        } else {
            ty
        }
    }

    /// Image of a flat policy index.
    #[inline]
    pub fn policy_flat(self, i: usize) -> usize {
        let (channel, cell) = (i / CELLS, i % CELLS);
        let (t, ty) = (channel / MOVE_TYPES, channel % MOVE_TYPES);
        let c = self.cell(cell);
        flat(self.move_type(ty), self.boards[t] as usize, c / 64, c % 64)
    }

    fn cell_map(self) -> [u8; CELLS] {
        std::array::from_fn(|c| self.cell(c) as u8)
    }
}

impl GameSymmetry<Position> for BoardSymmetry {
    fn inverse(self) -> BoardSymmetry {
        let mut boards = [0u8; 4];
        for (b, &img) in self.boards.iter().enumerate() {
            boards[img as usize] = b as u8;
        }
        BoardSymmetry { boards, mirror: self.mirror }
    }

    /// Image of a position, through its text (so the image is validated like any position).
    /// Panics unless the symmetry belongs to the position ([`BoardSymmetry::all`]).
    fn apply_position(self, pos: &Position) -> Position {
        assert!(
            pos.castling() == 0 || (self.boards[0] == 0 && !self.mirror),
            "{self:?} is not a symmetry of a position with castling rights"
        );
        let inv = self.inverse();
        let text = pos.to_text();
        let rest: Vec<&str> = text.split_whitespace().skip(1).collect();
        let s = crate::quasi_alice::notation::placement_text(|cell| pos.piece_at(inv.cell(cell)));
        let ep = match pos.ep() {
            Some(cell) => {
                let c = self.cell(cell);
                cell_name(c / 64, c % 64)
            }
            None => "-".to_string(),
        };
        let text = format!("{s} {} {} {ep} {} {}", rest[0], rest[1], rest[3], rest[4]);
        Position::from_text(&text).expect("the image of a legal position under a symmetry is legal")
    }

    fn apply_move(self, m: Move) -> Move {
        Move::new(
            self.boards[m.board_from()] as usize,
            self.square(m.from()),
            self.square(m.to()),
            self.boards[m.board_to()] as usize,
            m.promotion(),
            m.flag(),
        )
    }

    fn apply_planes(self, input: &[f32], out: &mut [f32]) {
        assert_eq!(input.len(), out.len(), "apply_planes: lengths differ");
        assert_eq!(input.len() % super::INPUT_SIZE, 0, "apply_planes: not whole items");
        let map = self.cell_map();
        for (src, dst) in input.chunks_exact(CELLS).zip(out.chunks_exact_mut(CELLS)) {
            for c in 0..CELLS {
                dst[map[c] as usize] = src[c];
            }
        }
    }

    fn apply_index(self, idx: PolicyIndex) -> PolicyIndex {
        debug_assert!(idx.placement.is_none() && idx.promotion.is_none());
        PolicyIndex { main: self.policy_flat(idx.main as usize) as u32, ..idx }
    }

    fn apply_policy(self, input: &[f32], out: &mut [f32]) {
        assert_eq!(input.len(), POLICY_SIZE, "apply_policy: input must hold POLICY_SIZE values");
        assert_eq!(out.len(), POLICY_SIZE, "apply_policy: output must hold POLICY_SIZE values");
        let map = self.cell_map();
        for channel in 0..MOVE_TYPES * 4 {
            let (t, ty) = (channel / MOVE_TYPES, channel % MOVE_TYPES);
            let to = self.boards[t] as usize * MOVE_TYPES + self.move_type(ty);
            for c in 0..CELLS {
                out[to * CELLS + map[c] as usize] = input[channel * CELLS + c];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::quasi_alice::policy::displacement_type;

    #[test]
    fn the_group_is_listed_once_with_the_fixing_ones_first() {
        let set: std::collections::HashSet<_> = ALL.iter().collect();
        assert_eq!(set.len(), 48);
        assert_eq!(ALL[0], BoardSymmetry::IDENTITY);
        assert!(ALL[..FIXING_BOARD_ONE].iter().all(|s| s.boards[0] == 0 && !s.mirror));
        assert!(ALL[FIXING_BOARD_ONE..].iter().all(|s| s.boards[0] != 0 || s.mirror));
        for s in ALL {
            for c in 0..CELLS {
                assert_eq!(s.inverse().cell(s.cell(c)), c);
            }
            for ty in 0..MOVE_TYPES {
                let (df, dr) = TYPE_VECTORS[ty];
                let want = if s.mirror { (-df, dr) } else { (df, dr) };
                assert_eq!(TYPE_VECTORS[s.move_type(ty)], want);
                if ty < TYPE_UNDER {
                    assert_eq!(displacement_type(want.0, want.1), Some(s.move_type(ty)));
                }
                assert_eq!(s.move_type(s.move_type(ty)), ty);
            }
            for i in (0..POLICY_SIZE).step_by(97) {
                assert_eq!(s.inverse().policy_flat(s.policy_flat(i)), i);
            }
        }
    }
}
