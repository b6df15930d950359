//! Move ↔ policy index in the mover's frame: origin cell × 3D move type (layout in the
//! [module docs](super)).

use super::encode::frame_cell;
use super::CELLS;
use crate::game::Color;
use crate::mixed3d::geometry::{file, level, rank};
use crate::mixed3d::{Kind, Move, Position};
use crate::nn::netgame::PolicyIndex;

/// A displacement (file, rank, level) in the frame.
pub type Step = (i32, i32, i32);

const fn unit_steps() -> [Step; 26] {
    let mut out = [(0, 0, 0); 26];
    let mut n = 0;
    let mut code = 0;
    while code < 27 {
        let s = (code % 3 - 1, code / 3 % 3 - 1, code / 9 - 1);
        if s.0 != 0 || s.1 != 0 || s.2 != 0 {
            out[n] = s;
            n += 1;
        }
        code += 1;
    }
    out
}

const fn knight_leaps() -> [Step; 24] {
    let mut out = [(0, 0, 0); 24];
    let mut n = 0;
    let mut code = 0;
    while code < 125 {
        let s = (code % 5 - 2, code / 5 % 5 - 2, code / 25 - 2);
        let (a, b, c) = (s.0 * s.0, s.1 * s.1, s.2 * s.2);
        // The three squares are 0, 1 and 4 in some order.
        if a + b + c == 5 && a * b * c == 0 && (a == 4 || b == 4 || c == 4) {
            out[n] = s;
            n += 1;
        }
        code += 1;
    }
    out
}

/// The 26 unit steps (file, rank, level), every component in −1..=1, not all zero.
pub const DIRS: [Step; 26] = unit_steps();
/// The knight's 24 leaps: every permutation of (0, ±1, ±2).
pub const KNIGHT_LEAPS: [Step; 24] = knight_leaps();
/// A pawn's five steps in the frame: straight ahead, one file to either side, one level to
/// either side.
pub const PAWN_STEPS: [Step; 5] = [(0, 1, 0), (-1, 1, 0), (1, 1, 0), (0, 1, -1), (0, 1, 1)];
/// The under-promotion pieces, in type order.
pub const UNDER_PROMOTIONS: [Kind; 3] = [Kind::Knight, Kind::Bishop, Kind::Rook];

/// Queen-like types: 26 directions × distances 1..=7.
pub const QUEEN_TYPES: usize = 26 * 7;
/// First knight type.
pub const TYPE_KNIGHT: usize = QUEEN_TYPES;
/// First under-promotion type.
pub const TYPE_UNDER: usize = TYPE_KNIGHT + 24;
/// Move types: the policy channels.
pub const POLICY_CHANNELS: usize = TYPE_UNDER + 3 * PAWN_STEPS.len();
/// Policy logits per position.
pub const POLICY_SIZE: usize = POLICY_CHANNELS * CELLS;

const _: () = assert!(POLICY_CHANNELS == 221 && POLICY_SIZE == 113_152);

const fn build_type_vectors() -> [Step; POLICY_CHANNELS] {
    let mut t = [(0, 0, 0); POLICY_CHANNELS];
    let mut d = 0;
    while d < 26 {
        let mut n = 1;
        while n <= 7 {
            t[d * 7 + n as usize - 1] = (DIRS[d].0 * n, DIRS[d].1 * n, DIRS[d].2 * n);
            n += 1;
        }
        d += 1;
    }
    let mut i = 0;
    while i < 24 {
        t[TYPE_KNIGHT + i] = KNIGHT_LEAPS[i];
        i += 1;
    }
    let mut i = 0;
    while i < 15 {
        t[TYPE_UNDER + i] = PAWN_STEPS[i % 5];
        i += 1;
    }
    t
}

/// The (file, rank, level) displacement in the frame of each move type.
pub const TYPE_VECTORS: [Step; POLICY_CHANNELS] = build_type_vectors();

/// The queen-like or knight type of a frame displacement, if some man moves by it.
#[inline]
pub fn displacement_type(s: Step) -> Option<usize> {
    let n = s.0.abs().max(s.1.abs()).max(s.2.abs());
    if n == 0 || n > 7 {
        return None;
    }
    let line = |x: i32| x == 0 || x.abs() == n;
    if line(s.0) && line(s.1) && line(s.2) {
        let d = DIRS.iter().position(|&v| v == (s.0.signum(), s.1.signum(), s.2.signum()))?;
        return Some(d * 7 + n as usize - 1);
    }
    KNIGHT_LEAPS.iter().position(|&v| v == s).map(|i| TYPE_KNIGHT + i)
}

/// The frame displacement of a move of `side`.
#[inline]
pub fn frame_step(side: Color, m: Move) -> Step {
    let (from, to) = (frame_cell(side, m.from()), frame_cell(side, m.to()));
    let d = |f: fn(usize) -> usize| f(to) as i32 - f(from) as i32;
    (d(file), d(rank), d(level))
}

/// The move type of a move of `side` (its displacement and promotion), if any man makes it.
#[inline]
pub fn move_type(side: Color, m: Move) -> Option<usize> {
    let s = frame_step(side, m);
    match m.promotion() {
        Some(k) if k != Kind::Queen => {
            let p = UNDER_PROMOTIONS.iter().position(|&u| u == k)?;
            let j = PAWN_STEPS.iter().position(|&v| v == s)?;
            Some(TYPE_UNDER + 5 * p + j)
        }
        _ => displacement_type(s),
    }
}

/// The flat index of (move type, frame cell of the origin).
#[inline]
pub const fn flat(ty: usize, frame_from: usize) -> usize {
    ty * CELLS + frame_from
}

/// The policy index of a move of `pos`; `None` when no man moves by the move's displacement
/// (a legal move always has an index).
pub fn try_move_to_index(pos: &Position, m: Move) -> Option<PolicyIndex> {
    let side = pos.side();
    let ty = move_type(side, m)?;
    Some(PolicyIndex { main: flat(ty, frame_cell(side, m.from())) as u32, placement: None, promotion: None })
}

/// The move among `legal` (the legal moves of `pos`) with policy index `idx`, if any; indices
/// with a placement or promotion part (the 5x5x5 games' terms) give `None`.
pub fn index_to_move_in(pos: &Position, legal: &[Move], idx: PolicyIndex) -> Option<Move> {
    let main = idx.main as usize;
    if main >= POLICY_SIZE || idx.placement.is_some() || idx.promotion.is_some() {
        return None;
    }
    let (ty, frame_from) = (main / CELLS, main % CELLS);
    let (df, dr, dl) = TYPE_VECTORS[ty];
    let (f, r, l) = (file(frame_from) as i32 + df, rank(frame_from) as i32 + dr, level(frame_from) as i32 + dl);
    if !(0..8).contains(&f) || !(0..8).contains(&r) || !(0..8).contains(&l) {
        return None;
    }
    let side = pos.side();
    let from = frame_cell(side, frame_from);
    let to = frame_cell(side, (l * 64 + r * 8 + f) as usize);
    let promo_ok = |k: Option<Kind>| {
        if ty >= TYPE_UNDER {
            k == Some(UNDER_PROMOTIONS[(ty - TYPE_UNDER) / 5])
        } else {
            k.is_none() || k == Some(Kind::Queen)
        }
    };
    let m = *legal.iter().find(|m| m.from() == from && m.to() == to && promo_ok(m.promotion()))?;
    (try_move_to_index(pos, m) == Some(idx)).then_some(m)
}
