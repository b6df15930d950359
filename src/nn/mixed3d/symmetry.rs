//! The symmetries of Mixed 3D Chess: the file mirror a ↔ h and the level mirror 1 ↔ 8, alone or
//! together (which positions have them is decided in the [module docs](super)).
//!
//! The mover's frame reflects ranks only, so a symmetry acts on planes and policy cells exactly
//! as on the cube's cells: file `f` → `7 − f`, level `l` → `7 − l`. Policy channels follow: each
//! move type's file (level) step is negated.

use super::policy::{flat, POLICY_CHANNELS, POLICY_SIZE, TYPE_KNIGHT, TYPE_UNDER, TYPE_VECTORS};
use super::CELLS;
use crate::mixed3d::geometry::cell_name;
use crate::mixed3d::{Move, Position};
use crate::nn::netgame::{GameSymmetry, PolicyIndex};

/// Mirror files, levels, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MirrorSymmetry {
    /// Files a ↔ h.
    pub file: bool,
    /// Levels 1 ↔ 8.
    pub level: bool,
}

/// The four symmetries, the identity first.
pub static ALL: [MirrorSymmetry; 4] = [
    MirrorSymmetry::IDENTITY,
    MirrorSymmetry { file: true, level: false },
    MirrorSymmetry { file: false, level: true },
    MirrorSymmetry { file: true, level: true },
];

/// The class of a move type: queen-like, knight, or the under-promotion piece.
const fn class(ty: usize) -> usize {
    if ty < TYPE_KNIGHT {
        0
    } else if ty < TYPE_UNDER {
        1
    } else {
        2 + (ty - TYPE_UNDER) / 5
    }
}

/// The move type of each move type under the file mirror (`[0]`) and the level mirror (`[1]`).
static MIRROR_TYPE: [[u8; POLICY_CHANNELS]; 2] = {
    let mut t = [[0u8; POLICY_CHANNELS]; 2];
    let mut ty = 0;
    while ty < POLICY_CHANNELS {
        let (df, dr, dl) = TYPE_VECTORS[ty];
        let mut j = 0;
        while j < POLICY_CHANNELS {
            let v = TYPE_VECTORS[j];
            if class(j) == class(ty) && v.1 == dr {
                if v.0 == -df && v.2 == dl {
                    t[0][ty] = j as u8;
                }
                if v.0 == df && v.2 == -dl {
                    t[1][ty] = j as u8;
                }
            }
            j += 1;
        }
        ty += 1;
    }
    t
};

impl MirrorSymmetry {
    /// The identity.
    pub const IDENTITY: MirrorSymmetry = MirrorSymmetry { file: false, level: false };

    /// The symmetries of `pos`, the identity first: the identity alone while a castling right
    /// remains, else all four.
    pub fn all(pos: &Position) -> &'static [MirrorSymmetry] {
        if pos.castling() != 0 {
            &ALL[..1]
        } else {
            &ALL
        }
    }

    /// Image of a cell (`level * 64 + rank * 8 + file`).
    #[inline]
    pub const fn cell(self, cell: usize) -> usize {
        cell ^ if self.file { 7 } else { 0 } ^ if self.level { 7 << 6 } else { 0 }
    }

    /// Image of a move type.
    #[inline]
    pub fn move_type(self, ty: usize) -> usize {
        let mut t = ty;
        if self.file {
            t = MIRROR_TYPE[0][t] as usize;
        }
        if self.level {
            t = MIRROR_TYPE[1][t] as usize;
        }
        t
    }

    /// Image of a flat policy index.
    #[inline]
    pub fn policy_flat(self, i: usize) -> usize {
        flat(self.move_type(i / CELLS), self.cell(i % CELLS))
    }
}

impl GameSymmetry<Position> for MirrorSymmetry {
    /// Each element is its own inverse.
    fn inverse(self) -> MirrorSymmetry {
        self
    }

    /// Image of a position, through its text (so the image is validated like any position).
    /// Panics unless the symmetry belongs to the position ([`MirrorSymmetry::all`]).
    fn apply_position(self, pos: &Position) -> Position {
        assert!(
            pos.castling() == 0 || self == MirrorSymmetry::IDENTITY,
            "{self:?} is not a symmetry of a position with castling rights"
        );
        let text = pos.to_text();
        let rest: Vec<&str> = text.split_whitespace().skip(1).collect();
        let placement = crate::mixed3d::notation::placement_text(|c| pos.piece_at(self.cell(c)));
        let ep = pos.ep().map_or_else(|| "-".to_string(), |c| cell_name(self.cell(c)));
        let text = format!("{placement} {} {} {ep} {} {}", rest[0], rest[1], rest[3], rest[4]);
        Position::from_text(&text).expect("the image of a legal position under a symmetry is legal")
    }

    fn apply_move(self, m: Move) -> Move {
        Move::new(self.cell(m.from()), self.cell(m.to()), m.promotion(), m.flag())
    }

    fn apply_planes(self, input: &[f32], out: &mut [f32]) {
        assert_eq!(input.len(), out.len(), "apply_planes: lengths differ");
        assert_eq!(input.len() % super::INPUT_SIZE, 0, "apply_planes: not whole items");
        for (src, dst) in input.chunks_exact(CELLS).zip(out.chunks_exact_mut(CELLS)) {
            for (c, &v) in src.iter().enumerate() {
                dst[self.cell(c)] = v;
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
        for ty in 0..POLICY_CHANNELS {
            let to = self.move_type(ty) * CELLS;
            for c in 0..CELLS {
                out[to + self.cell(c)] = input[ty * CELLS + c];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::mixed3d::policy::displacement_type;

    #[test]
    fn the_mirrors_map_every_type_and_undo_themselves() {
        assert_eq!(ALL[0], MirrorSymmetry::IDENTITY);
        for s in ALL {
            for c in 0..CELLS {
                assert_eq!(s.inverse().cell(s.cell(c)), c);
            }
            for ty in 0..POLICY_CHANNELS {
                let (df, dr, dl) = TYPE_VECTORS[ty];
                let want = (if s.file { -df } else { df }, dr, if s.level { -dl } else { dl });
                assert_eq!(TYPE_VECTORS[s.move_type(ty)], want, "{s:?} type {ty}");
                assert_eq!(class(s.move_type(ty)), class(ty));
                if ty < TYPE_UNDER {
                    assert_eq!(displacement_type(want), Some(s.move_type(ty)));
                }
                assert_eq!(s.move_type(s.move_type(ty)), ty);
            }
            for i in (0..POLICY_SIZE).step_by(89) {
                assert_eq!(s.inverse().policy_flat(s.policy_flat(i)), i);
            }
        }
    }
}
