//! Move ↔ policy index in the mover's frame: origin cell × (2D move type, destination board)
//! (layout in the [module docs](super)).

use super::encode::frame_square;
use super::CELLS;
use crate::game::Color;
use crate::nn::netgame::PolicyIndex;
use crate::quasi_alice::{Kind, Move, Position};

/// The eight queen directions as (file, rank) steps in the frame: N, NE, E, SE, S, SW, W, NW.
pub const DIRS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// The eight knight leaps as (file, rank) in the frame.
pub const KNIGHT_LEAPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// The under-promotion pieces, in type order.
pub const UNDER_PROMOTIONS: [Kind; 3] = [Kind::Knight, Kind::Bishop, Kind::Rook];

/// Queen-like types: 8 directions × distances 1..=7.
pub const QUEEN_TYPES: usize = 56;
/// First knight type.
pub const TYPE_KNIGHT: usize = QUEEN_TYPES;
/// First under-promotion type.
pub const TYPE_UNDER: usize = TYPE_KNIGHT + 8;
/// 2D move types per destination board.
pub const MOVE_TYPES: usize = TYPE_UNDER + 9;
/// Policy channels: one block of [`MOVE_TYPES`] per destination board.
pub const POLICY_CHANNELS: usize = 4 * MOVE_TYPES;
/// Policy logits per position.
pub const POLICY_SIZE: usize = POLICY_CHANNELS * CELLS;

const _: () = assert!(MOVE_TYPES == 73 && POLICY_CHANNELS == 292 && POLICY_SIZE == 74_752);

const fn build_type_vectors() -> [(i32, i32); MOVE_TYPES] {
    let mut t = [(0, 0); MOVE_TYPES];
    let mut d = 0;
    while d < 8 {
        let mut n = 1;
        while n <= 7 {
            t[d * 7 + n as usize - 1] = (DIRS[d].0 * n, DIRS[d].1 * n);
            n += 1;
        }
        d += 1;
    }
    let mut i = 0;
    while i < 8 {
        t[TYPE_KNIGHT + i] = KNIGHT_LEAPS[i];
        i += 1;
    }
    let mut i = 0;
    while i < 9 {
        t[TYPE_UNDER + i] = ((i % 3) as i32 - 1, 1);
        i += 1;
    }
    t
}

/// The (file, rank) displacement in the frame of each move type.
pub const TYPE_VECTORS: [(i32, i32); MOVE_TYPES] = build_type_vectors();

/// The queen-like or knight type of a frame displacement, if some man moves by it.
#[inline]
pub fn displacement_type(df: i32, dr: i32) -> Option<usize> {
    let (adf, adr) = (df.abs(), dr.abs());
    if adf == 0 && adr == 0 || adf > 7 || adr > 7 {
        return None;
    }
    if adf == 0 || adr == 0 || adf == adr {
        let d = DIRS.iter().position(|&v| v == (df.signum(), dr.signum()))?;
        return Some(d * 7 + adf.max(adr) as usize - 1);
    }
    KNIGHT_LEAPS.iter().position(|&v| v == (df, dr)).map(|i| TYPE_KNIGHT + i)
}

/// The move type of a move of `side` (its displacement and promotion), if any man makes it.
#[inline]
pub fn move_type(side: Color, m: Move) -> Option<usize> {
    let (from, to) = (frame_square(side, m.from()), frame_square(side, m.to()));
    let df = (to & 7) as i32 - (from & 7) as i32;
    let dr = (to >> 3) as i32 - (from >> 3) as i32;
    match m.promotion() {
        Some(k) if k != Kind::Queen => {
            let p = UNDER_PROMOTIONS.iter().position(|&u| u == k)?;
            (dr == 1 && df.abs() <= 1).then(|| TYPE_UNDER + 3 * p + (df + 1) as usize)
        }
        _ => displacement_type(df, dr),
    }
}

/// The flat index of (move type, destination board, origin board, frame square).
#[inline]
pub const fn flat(ty: usize, board_to: usize, board_from: usize, frame_from: usize) -> usize {
    (board_to * MOVE_TYPES + ty) * CELLS + board_from * 64 + frame_from
}

/// The policy index of a move of `pos`; `None` when no man moves by the move's displacement
/// (a legal move always has an index).
pub fn try_move_to_index(pos: &Position, m: Move) -> Option<PolicyIndex> {
    let side = pos.side();
    let ty = move_type(side, m)?;
    let main = flat(ty, m.board_to(), m.board_from(), frame_square(side, m.from()));
    Some(PolicyIndex { main: main as u32, placement: None, promotion: None })
}

/// The move among `legal` (the legal moves of `pos`) with policy index `idx`, if any; indices
/// with a placement or promotion part (the 5x5x5 games' terms) give `None`.
pub fn index_to_move_in(pos: &Position, legal: &[Move], idx: PolicyIndex) -> Option<Move> {
    let main = idx.main as usize;
    if main >= POLICY_SIZE || idx.placement.is_some() || idx.promotion.is_some() {
        return None;
    }
    let (channel, cell) = (main / CELLS, main % CELLS);
    let (t, ty) = (channel / MOVE_TYPES, channel % MOVE_TYPES);
    let (s, frame_from) = (cell / 64, cell % 64);
    let (df, dr) = TYPE_VECTORS[ty];
    let (f, r) = ((frame_from & 7) as i32 + df, (frame_from >> 3) as i32 + dr);
    if !(0..8).contains(&f) || !(0..8).contains(&r) {
        return None;
    }
    let side = pos.side();
    let from = frame_square(side, frame_from);
    let to = frame_square(side, (r * 8 + f) as usize);
    let promo_ok = |k: Option<Kind>| {
        if ty >= TYPE_UNDER {
            k == Some(UNDER_PROMOTIONS[(ty - TYPE_UNDER) / 3])
        } else {
            k.is_none() || k == Some(Kind::Queen)
        }
    };
    let m = *legal.iter().find(|m| {
        m.board_from() == s && m.board_to() == t && m.from() == from && m.to() == to && promo_ok(m.promotion())
    })?;
    (try_move_to_index(pos, m) == Some(idx)).then_some(m)
}
