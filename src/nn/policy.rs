//! Move ↔ policy index, in the mover's frame ([`super::encode::Frame`]).
//!
//! # Layout: 165 channels over the 125 cells (an additive factorised policy)
//!
//! The network outputs [`POLICY_SIZE`] logits laid out like the input, `[POLICY_CHANNELS, 5, 5, 5]`:
//! flat index = `channel * 125 + frame cell index`. A fully convolutional head produces it directly.
//!
//! | channels | meaning | cell |
//! |---|---|---|
//! | 0–103 | slide or step: direction `d` of [`DIRS`] (26) × distance `n` 1..=4, channel `4 d + n − 1` | from |
//! | 104–127 | knight leap `i` of [`KNIGHT_LEAPS`] | from |
//! | 128–151 | unicorn leap `i` of [`UNICORN_LEAPS`] | from |
//! | 152–155 | placement choice: none, wizard, guard, silver unicorn | from |
//! | 156–164 | promotion piece, in [`PROMOTION_KINDS`] order: N, B, R, Q, U, S, W, G, U (Raumschach) | to |
//!
//! Vectors are (layer, rank, file) displacements **in the mover's frame** (so pawn forward is
//! `(0, 1, 0)` and up is `(1, 0, 0)` for every ruleset and side).
//!
//! A move has one **main** index (channels 0–151: its from-cell and the vector from → to), plus a
//! **placement** index when its piece could place a reserve piece on this move (the from-cell has a
//! placement right, the mover's reserve is not empty and the move is not castling: the choice
//! "none" is then a choice like the others), plus a **promotion** index for a promotion. The
//! score of a move is the **sum** of the logits at its (one to three) indices, and the policy is
//! the softmax of the scores over exactly the legal moves ([`legal_policy`]). So one softmax covers
//! every legal move, the loss for training is a plain cross-entropy over legal moves, and the
//! heads stay small: a flat space with placements and promotions multiplied in would be 20 times
//! larger and mostly unreachable. Placement logits sit at the from-cell (where the piece is
//! placed) and promotion logits at the to-cell (where the new piece stands), which suits a
//! convolutional head.
//!
//! # Why the map is injective
//!
//! On the flat board the displacement from → to names one vector: leaps are never multiples of a
//! step. Two different legal moves never share from, to, promotion and placement: a pawn's
//! L-shaped double move and its up+forward capture share a vector but one needs an empty target
//! and the other an enemy on it; an en passant capture lands on an empty passed cell, where a
//! normal capture cannot; castling lands on the mover's own rook. On the hypercylinder the file
//! displacement is known only modulo 5; the only vectors it confuses are slides along the file
//! axis (right `k` or left `5 − k`), and the rules core emits such a target once. The canonical
//! vector is then the one that produced the move: the shorter path if its cells in between are
//! empty, else the longer one. Mirroring and rotating files preserve that choice, so symmetry
//! maps canonical indices to canonical indices.

use super::encode::{Frame, CELLS};
use super::netgame::softmax_in_place;
pub use super::netgame::PolicyIndex;
use crate::rules::cell::Cell;
use crate::rules::geometry::{offset, Vector, DIRS, KNIGHT_LEAPS, UNICORN_LEAPS};
use crate::rules::types::{Kind, RESERVE_KINDS};
use crate::rules::{Move, Position, Special};

/// Slide and step channels: 26 directions × distances 1..=4.
pub const SLIDE_CHANNELS: usize = 26 * 4;
/// First knight-leap channel.
pub const CH_KNIGHT: usize = SLIDE_CHANNELS;
/// First unicorn-leap channel.
pub const CH_UNICORN: usize = CH_KNIGHT + 24;
/// Number of main (move-vector) channels.
pub const MAIN_CHANNELS: usize = CH_UNICORN + 24;
/// First placement channel (none, W, G, S).
pub const CH_PLACEMENT: usize = MAIN_CHANNELS;
/// First promotion channel (one per [`PROMOTION_KINDS`] entry).
pub const CH_PROMOTION: usize = CH_PLACEMENT + 4;
/// Every piece a pawn may become in some ruleset, in promotion-channel order.
pub const PROMOTION_KINDS: [Kind; 9] = [
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::Unicorn,
    Kind::Silver,
    Kind::Wizard,
    Kind::Guard,
    Kind::RUnicorn,
];
/// Number of policy channels.
pub const POLICY_CHANNELS: usize = CH_PROMOTION + PROMOTION_KINDS.len();
/// Size of the main part of the policy (`MAIN_CHANNELS * 125`); main indices are below it.
pub const POLICY_MAIN: usize = MAIN_CHANNELS * CELLS;
/// Number of policy logits a network outputs (`POLICY_CHANNELS * 125` = 20625).
pub const POLICY_SIZE: usize = POLICY_CHANNELS * CELLS;

const _: () = assert!(MAIN_CHANNELS == 152 && POLICY_CHANNELS == 165 && POLICY_SIZE == 20625);

const VECTOR_SPAN: usize = 9; // components -4..=4

const fn vector_key(v: Vector) -> usize {
    ((v.0 + 4) as usize * VECTOR_SPAN + (v.1 + 4) as usize) * VECTOR_SPAN + (v.2 + 4) as usize
}

const fn build_channel_vectors() -> [Vector; MAIN_CHANNELS] {
    let mut out = [(0, 0, 0); MAIN_CHANNELS];
    let mut d = 0;
    while d < 26 {
        let mut n = 1;
        while n <= 4 {
            let v = DIRS[d];
            out[d * 4 + n as usize - 1] = (v.0 * n, v.1 * n, v.2 * n);
            n += 1;
        }
        d += 1;
    }
    let mut i = 0;
    while i < 24 {
        out[CH_KNIGHT + i] = KNIGHT_LEAPS[i];
        out[CH_UNICORN + i] = UNICORN_LEAPS[i];
        i += 1;
    }
    out
}

/// The displacement (layer, rank, file) of each main channel.
pub const CHANNEL_VECTORS: [Vector; MAIN_CHANNELS] = build_channel_vectors();

const NO_CHANNEL: u8 = u8::MAX;

const fn build_vector_channels() -> [u8; VECTOR_SPAN * VECTOR_SPAN * VECTOR_SPAN] {
    let mut t = [NO_CHANNEL; VECTOR_SPAN * VECTOR_SPAN * VECTOR_SPAN];
    let mut ch = 0;
    while ch < MAIN_CHANNELS {
        let k = vector_key(CHANNEL_VECTORS[ch]);
        assert!(t[k] == NO_CHANNEL, "two channels share a vector");
        t[k] = ch as u8;
        ch += 1;
    }
    t
}

static VECTOR_CHANNELS: [u8; VECTOR_SPAN * VECTOR_SPAN * VECTOR_SPAN] = build_vector_channels();

/// The main channel of a displacement, if some piece could move by it.
#[inline]
pub fn vector_channel(v: Vector) -> Option<usize> {
    if v.0.abs() > 4 || v.1.abs() > 4 || v.2.abs() > 4 {
        return None;
    }
    match VECTOR_CHANNELS[vector_key(v)] {
        NO_CHANNEL => None,
        ch => Some(ch as usize),
    }
}

/// Promotion channel offset (0..9) of a kind, if it is a promotion piece.
pub fn promotion_slot(kind: Kind) -> Option<usize> {
    PROMOTION_KINDS.iter().position(|k| *k == kind)
}

/// Placement channel offset: 0 none, 1 wizard, 2 guard, 3 silver unicorn.
pub fn placement_slot(place: Option<Kind>) -> usize {
    match place {
        None => 0,
        Some(k) => 1 + RESERVE_KINDS.iter().position(|x| *x == k).unwrap_or(0),
    }
}

/// Whether a move's score includes a placement term (see the module docs).
#[inline]
pub fn has_placement_choice(pos: &Position, m: Move) -> bool {
    m.special() != Special::Castle && pos.reserve(pos.side()) != 0 && pos.rights().has(m.from())
}

/// Whether the cells strictly between `from` and `n` steps along the file axis (sign `s`, with
/// wrapping) are empty.
fn file_path_open(pos: &Position, from: Cell, s: i32, n: i32) -> bool {
    (1..n).all(|k| {
        let f = (from.file() + s * k).rem_euclid(5);
        let c = Cell::from_coords(from.layer(), from.rank(), f).expect("on board");
        pos.piece_at(c).is_none()
    })
}

/// The main channel of a move whose frame displacement is `(dl, dr, df)`.
fn main_channel(pos: &Position, m: Move, dl: i32, dr: i32, df: i32) -> Option<usize> {
    if !pos.variant().hypercylinder {
        return vector_channel((dl, dr, df));
    }
    let right = df.rem_euclid(5);
    let short = vector_channel((dl, dr, right));
    let long = if right == 0 { None } else { vector_channel((dl, dr, right - 5)) };
    match (short, long) {
        (Some(a), Some(b)) => {
            // Only file-axis slides reach a target both ways: shorter open path first.
            let (near, far, near_df) = if right <= 2 { (a, b, right) } else { (b, a, right - 5) };
            if file_path_open(pos, m.from(), near_df.signum(), near_df.abs()) {
                Some(near)
            } else {
                let far_df = if near_df > 0 { near_df - 5 } else { near_df + 5 };
                if file_path_open(pos, m.from(), far_df.signum(), far_df.abs()) {
                    Some(far)
                } else {
                    Some(near)
                }
            }
        }
        (a, b) => a.or(b),
    }
}

/// The policy index of a move of `pos`; `None` when no piece moves by the move's displacement
/// (a legal move always has an index).
pub fn try_move_to_index(pos: &Position, m: Move) -> Option<PolicyIndex> {
    let frame = Frame::of_position(pos);
    let from = frame.cell(m.from());
    let to = frame.cell(m.to());
    let (dl, dr, df) = (to.layer() - from.layer(), to.rank() - from.rank(), to.file() - from.file());
    let ch = main_channel(pos, m, dl, dr, df)?;
    let placement = has_placement_choice(pos, m)
        .then(|| ((CH_PLACEMENT + placement_slot(m.placement())) * CELLS + from.index()) as u32);
    let promotion = match m.promotion() {
        Some(k) => Some(((CH_PROMOTION + promotion_slot(k)?) * CELLS + to.index()) as u32),
        None => None,
    };
    Some(PolicyIndex { main: (ch * CELLS + from.index()) as u32, placement, promotion })
}

/// The policy index of a legal move of `pos`. Panics for a move no piece could make.
pub fn move_to_index(pos: &Position, m: Move) -> PolicyIndex {
    try_move_to_index(pos, m).unwrap_or_else(|| panic!("move {m:?} has no policy index"))
}

/// The legal move of `pos` with policy index `idx`, if any (generates the legal moves).
pub fn index_to_move(pos: &Position, idx: PolicyIndex) -> Option<Move> {
    index_to_move_in(pos, &pos.legal_moves(), idx)
}

/// The move among `legal` (the legal moves of `pos`) with policy index `idx`, if any. Indices
/// that are not canonical (a wrapped file slide named by the vector that did not produce it, a
/// placement term where none belongs) give `None`.
pub fn index_to_move_in(pos: &Position, legal: &[Move], idx: PolicyIndex) -> Option<Move> {
    let frame = Frame::of_position(pos);
    let main = idx.main as usize;
    if main >= POLICY_MAIN {
        return None;
    }
    let (ch, from_e) = (main / CELLS, main % CELLS);
    let to_e = offset(from_e, CHANNEL_VECTORS[ch], pos.variant().hypercylinder)?;
    let from = frame.cell(Cell::new(from_e as u8));
    let to = frame.cell(Cell::new(to_e as u8));
    let place = match idx.placement {
        None => None,
        Some(p) => {
            let p = p as usize;
            if p / CELLS < CH_PLACEMENT || p / CELLS >= CH_PROMOTION || p % CELLS != from_e {
                return None;
            }
            match p / CELLS - CH_PLACEMENT {
                0 => None,
                i => Some(RESERVE_KINDS[i - 1]),
            }
        }
    };
    let promo = match idx.promotion {
        None => None,
        Some(p) => {
            let p = p as usize;
            if p / CELLS < CH_PROMOTION || p >= POLICY_SIZE || p % CELLS != to_e {
                return None;
            }
            Some(PROMOTION_KINDS[p / CELLS - CH_PROMOTION])
        }
    };
    let m =
        *legal.iter().find(|m| m.from() == from && m.to() == to && m.promotion() == promo && m.placement() == place)?;
    (try_move_to_index(pos, m) == Some(idx)).then_some(m)
}

/// The policy indices of `moves` (legal moves of `pos`), written into `out` (cleared first).
pub fn indices_into(pos: &Position, moves: &[Move], out: &mut Vec<PolicyIndex>) {
    out.clear();
    out.extend(moves.iter().map(|&m| move_to_index(pos, m)));
}

/// Softmax of the move scores over exactly the given indices, into `out` (cleared first; same
/// order as `indices`). An empty list gives an empty distribution.
pub fn softmax_over(indices: &[PolicyIndex], logits: &[f32], out: &mut Vec<f32>) {
    assert_eq!(logits.len(), POLICY_SIZE, "policy logits must hold POLICY_SIZE values");
    out.clear();
    out.extend(indices.iter().map(|i| i.score(logits)));
    softmax_in_place(out);
}

/// The network's policy restricted to the legal moves `moves` of `pos`: a probability per move,
/// in the order of `moves`, summing to 1. `logits` holds [`POLICY_SIZE`] values.
pub fn legal_policy(pos: &Position, moves: &[Move], logits: &[f32], out: &mut Vec<f32>) {
    assert_eq!(logits.len(), POLICY_SIZE, "policy logits must hold POLICY_SIZE values");
    out.clear();
    out.extend(moves.iter().map(|&m| move_to_index(pos, m).score(logits)));
    softmax_in_place(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use crate::nn::testutil::all_variants;
    use crate::rules::random::random_positions;
    use crate::rules::types::Ruleset;
    use crate::rules::Variant;
    use std::collections::HashSet;

    #[derive(Default, Debug)]
    struct Seen {
        placement: usize,
        promotion: usize,
        en_passant: usize,
        castle: usize,
        double: usize,
        wrapped: usize,
        long_way: usize,
    }

    fn check_position(p: &Position, seen: &mut Seen, full_decode: bool) {
        let moves = p.legal_moves();
        let mut set = HashSet::new();
        for &m in &moves {
            let idx = move_to_index(p, m);
            assert!((idx.main as usize) < POLICY_MAIN);
            assert!(idx.indices().all(|i| (i as usize) < POLICY_SIZE));
            assert!(set.insert(idx), "two moves share {idx:?} in {:?}", p.to_setup());
            assert_eq!(index_to_move_in(p, &moves, idx), Some(m), "round trip of {m:?}");
            seen.placement += m.placement().is_some() as usize;
            seen.promotion += m.promotion().is_some() as usize;
            match m.special() {
                Special::EnPassant => seen.en_passant += 1,
                Special::Castle => seen.castle += 1,
                Special::Double => seen.double += 1,
                Special::Normal => {}
            }
            if p.variant().hypercylinder {
                let df = (m.to().file() - m.from().file()).abs();
                let ch = idx.main as usize / CELLS;
                let vdf = CHANNEL_VECTORS[ch].2;
                if (m.to().file() - m.from().file()) != vdf {
                    seen.wrapped += 1;
                }
                if vdf.abs() > df.min(5 - df) && CHANNEL_VECTORS[ch].0 == 0 && CHANNEL_VECTORS[ch].1 == 0 {
                    seen.long_way += 1;
                }
            }
        }
        if full_decode {
            for &m in moves.iter().take(8) {
                assert_eq!(index_to_move(p, move_to_index(p, m)), Some(m));
            }
        }
    }

    #[test]
    fn every_legal_move_has_a_distinct_index_that_decodes_back() {
        let mut total = Seen::default();
        for (i, v) in all_variants().into_iter().enumerate() {
            let mut seen = Seen::default();
            for (j, p) in random_positions(v, 1000 + i as u64, 40, 300).iter().enumerate() {
                check_position(p, &mut seen, j % 50 == 0);
            }
            if v.ruleset.is_fiveup() {
                assert!(seen.placement > 0, "{v}: no placement seen");
            }
            if v.ruleset.has_double_move() {
                assert!(seen.double > 0, "{v}: no double move seen");
            }
            if v.castling {
                assert!(seen.castle > 0, "{v}: no castling seen");
            }
            if v.hypercylinder {
                assert!(seen.wrapped > 0, "{v}: no wrapped move seen");
            }
            total.promotion += seen.promotion;
            total.en_passant += seen.en_passant;
            total.long_way += seen.long_way;
        }
        assert!(total.promotion > 0, "no promotion seen: {total:?}");
        assert!(total.en_passant > 0, "no en passant seen: {total:?}");
        assert!(total.long_way > 0, "no long-way wrapped slide seen: {total:?}");
    }

    #[test]
    fn start_position_indices() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let m = p.legal_moves();
        assert_eq!(m.len(), 209);
        // White pawn Ec2-Ec3 steps forward: direction (0, 1, 0), distance 1, from frame cell Ac2.
        let push = *m.iter().find(|x| x.to_string() == "Ec2Ec3").unwrap();
        let d = DIRS.iter().position(|v| *v == (0, 1, 0)).unwrap();
        let ac2: Cell = "Ac2".parse().unwrap();
        let idx = move_to_index(&p, push);
        assert_eq!(idx, PolicyIndex { main: ((d * 4) * CELLS + ac2.index()) as u32, placement: None, promotion: None });
        // Dc2-Cc2 steps up: frame vector (1, 0, 0).
        let up = *m.iter().find(|x| x.to_string() == "Dc2Cc2").unwrap();
        let du = DIRS.iter().position(|v| *v == (1, 0, 0)).unwrap();
        assert_eq!(move_to_index(&p, up).main as usize / CELLS, du * 4);
        // A knight move with a placement has a placement term at its from-cell.
        let n = *m.iter().find(|x| x.to_string() == "Eb1Db3/S").unwrap();
        let idx = move_to_index(&p, n);
        let eb1 = Frame::of(Ruleset::FiveUp, Color::White).cell("Eb1".parse().unwrap());
        assert_eq!(idx.placement, Some(((CH_PLACEMENT + 3) * CELLS + eb1.index()) as u32));
        assert!(idx.main as usize / CELLS >= CH_KNIGHT && (idx.main as usize / CELLS) < CH_UNICORN);
        let plain = move_to_index(&p, n.without_placement());
        assert_eq!(plain.placement, Some((CH_PLACEMENT * CELLS + eb1.index()) as u32));
    }

    #[test]
    fn legal_policy_is_a_distribution_over_legal_moves() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = p.legal_moves();
        let mut logits = vec![0.0f32; POLICY_SIZE];
        let mut out = Vec::new();
        legal_policy(&p, &moves, &logits, &mut out);
        assert_eq!(out.len(), moves.len());
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(out.iter().all(|&x| (x - 1.0 / 209.0).abs() < 1e-6));
        // Raising one move's main logit raises exactly the moves that share it (its placements).
        let n = moves.iter().position(|x| x.to_string() == "Eb1Db3").unwrap();
        logits[move_to_index(&p, moves[n]).main as usize] = 2.0;
        legal_policy(&p, &moves, &logits, &mut out);
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let high = out.iter().filter(|&&x| x > 1.0 / 209.0).count();
        assert_eq!(high, 4);
        let mut idx = Vec::new();
        indices_into(&p, &moves, &mut idx);
        let mut out2 = Vec::new();
        softmax_over(&idx, &logits, &mut out2);
        assert_eq!(out, out2);
        logits[0] = f32::NAN;
        logits[move_to_index(&p, moves[0]).main as usize] = f32::NAN;
        legal_policy(&p, &moves, &logits, &mut out);
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn non_canonical_indices_do_not_decode() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = p.legal_moves();
        let m = *moves.iter().find(|x| x.to_string() == "Ec2Ec3").unwrap();
        let mut idx = move_to_index(&p, m);
        idx.placement = Some((CH_PLACEMENT * CELLS) as u32);
        assert_eq!(index_to_move_in(&p, &moves, idx), None);
        let idx = PolicyIndex { main: POLICY_MAIN as u32, placement: None, promotion: None };
        assert_eq!(index_to_move_in(&p, &moves, idx), None);
    }
}
