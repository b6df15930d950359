//! [`NetGame`]: what a game provides so that the neural stack can play it, its symmetries
//! ([`GameSymmetry`]), and the functions written once over it (encoding a batch, the move ↔
//! policy map, the softmax over the legal moves).
//!
//! A game is its position type (a [`State`]); implementing [`NetGame`] for it declares the input
//! planes (count and spatial shape), the policy layout (channels over the same spatial shape) and
//! the symmetry group, and supplies the three pure functions: encode, move → index, index → move.
//! Everything above ([`super::Evaluator`]'s inputs, [`super::NetworkEvaluator`], the tests of
//! every game) is generic over it and monomorphised per game, so the 5x5x5 games pay nothing for
//! the second game (their implementation, in [`super::encode`], [`super::policy`] and
//! [`super::symmetry`], is what it was; the trait only forwards to it).

use crate::game::State;
use std::fmt::Debug;
use std::hash::Hash;

/// Where a move's logits sit in a game's flat policy vector (each field a flat index below the
/// game's policy size); its score is the sum of those logits. Every move has a main index; the
/// 5x5x5 games add a placement and a promotion term where a move has one
/// ([`super::policy`]), Quasi-Alice has the main index only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PolicyIndex {
    /// The main index (5x5x5: from-cell × move vector, `< policy::POLICY_MAIN`).
    pub main: u32,
    /// Placement choice at the from-cell, when the move's piece could place a reserve piece.
    pub placement: Option<u32>,
    /// Promotion piece at the to-cell, for a promotion.
    pub promotion: Option<u32>,
}

impl PolicyIndex {
    /// The move's score: the sum of its logits. Panics if `logits` is shorter than needed.
    #[inline]
    pub fn score(&self, logits: &[f32]) -> f32 {
        let mut s = logits[self.main as usize];
        if let Some(p) = self.placement {
            s += logits[p as usize];
        }
        if let Some(p) = self.promotion {
            s += logits[p as usize];
        }
        s
    }

    /// The flat indices this move's score sums over (main first).
    pub fn indices(&self) -> impl Iterator<Item = u32> {
        std::iter::once(self.main).chain(self.placement).chain(self.promotion)
    }
}

/// Plane `p` of one encoded position whose planes hold `cells` values each.
#[inline]
pub(crate) fn plane_mut(out: &mut [f32], p: usize, cells: usize) -> &mut [f32] {
    &mut out[p * cells..(p + 1) * cells]
}

/// Sets every value of plane `p` to `v` (a zeroed buffer needs nothing for `v = 0`).
#[inline]
pub(crate) fn fill_plane(out: &mut [f32], p: usize, cells: usize, v: f32) {
    if v != 0.0 {
        plane_mut(out, p, cells).fill(v);
    }
}

/// Turns scores into probabilities; degenerate scores (NaN, all −∞) give a uniform distribution.
pub(crate) fn softmax_in_place(x: &mut [f32]) {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in x.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    if sum > 0.0 && sum.is_finite() {
        x.iter_mut().for_each(|v| *v /= sum);
    } else if !x.is_empty() {
        let u = 1.0 / x.len() as f32;
        x.iter_mut().for_each(|v| *v = u);
    }
}

/// A game the neural stack can encode: input planes, a fixed policy space and a symmetry group.
///
/// Inputs are `f32` planes `[PLANES, SHAPE[0], SHAPE[1], SHAPE[2]]` (item-major, plane after
/// plane, each plane in row-major order of `SHAPE`); the policy is `[POLICY_CHANNELS, SHAPE...]`
/// logits over the same spatial shape, so a convolutional head writes it directly. A move's
/// score is the sum of the logits at its [`PolicyIndex`] (one to three flat indices).
pub trait NetGame: State {
    /// An element of the game's symmetry group.
    type Symmetry: GameSymmetry<Self>;
    /// The encoding's name, recorded with the networks built for it (`fiveup` for the 5x5x5
    /// games, whose planes name the ruleset; `quasi-alice`).
    const ENCODING: &'static str;
    /// Whether the first spatial axis is an unordered set that the symmetries permute (the four
    /// boards of Quasi-Alice), so that a network should treat it alike in every order rather
    /// than convolve along it.
    const UNORDERED_AXIS: bool = false;
    /// Number of input planes.
    const PLANES: usize;
    /// Spatial shape of a plane (the 5x5x5 board: `[5, 5, 5]`; four 8x8 boards: `[4, 8, 8]`).
    const SHAPE: [usize; 3];
    /// Elements of one plane.
    const CELLS: usize = Self::SHAPE[0] * Self::SHAPE[1] * Self::SHAPE[2];
    /// `f32` values of one encoded position.
    const INPUT_SIZE: usize = Self::PLANES * Self::CELLS;
    /// Policy channels over [`NetGame::SHAPE`].
    const POLICY_CHANNELS: usize;
    /// Policy logits a network writes per position.
    const POLICY_SIZE: usize = Self::POLICY_CHANNELS * Self::CELLS;

    /// Encodes the position into `out` (exactly [`NetGame::INPUT_SIZE`] values, all overwritten);
    /// `repetitions` is how often it occurred before in the game. A pure function.
    fn encode_into(&self, repetitions: u32, out: &mut [f32]);

    /// The policy index of a move of this position; `None` for a move no piece could make (a
    /// legal move always has one, and two legal moves never share one).
    fn try_move_to_index(&self, m: Self::Move) -> Option<PolicyIndex>;

    /// The move among `legal` (this position's legal moves) with policy index `idx`, if any.
    fn index_to_move_in(&self, legal: &[Self::Move], idx: PolicyIndex) -> Option<Self::Move>;

    /// The symmetries of this position's rules, the identity first. Each maps this position to a
    /// position whose legal moves are exactly the images of these moves.
    fn symmetries(&self) -> &'static [Self::Symmetry];
}

/// A symmetry of a game's rules, applied alike to positions, moves, input planes and policy
/// vectors: for a symmetry `s` of position `p`, `encode(s(p)) = s(encode(p))`,
/// `index(s(p), s(m)) = s(index(p, m))` and the legal moves of `s(p)` are the images of those of
/// `p`.
pub trait GameSymmetry<S: State>: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The symmetry that undoes this one.
    fn inverse(self) -> Self;
    /// Image of a position (one this symmetry belongs to, see [`NetGame::symmetries`]).
    fn apply_position(self, pos: &S) -> S;
    /// Image of a move.
    fn apply_move(self, m: S::Move) -> S::Move;
    /// Image of encoded planes (`input` and `out` of equal length, whole items).
    fn apply_planes(self, input: &[f32], out: &mut [f32]);
    /// Image of a move's policy index.
    fn apply_index(self, idx: PolicyIndex) -> PolicyIndex;
    /// Image of a policy vector (logits or targets of one position).
    fn apply_policy(self, input: &[f32], out: &mut [f32]);
}

/// Encodes one position into `out` (exactly `S::INPUT_SIZE` values).
#[inline]
pub fn encode_into<S: NetGame>(pos: &S, repetitions: u32, out: &mut [f32]) {
    pos.encode_into(repetitions, out)
}

/// Encodes one position into a new vector.
pub fn encode<S: NetGame>(pos: &S, repetitions: u32) -> Vec<f32> {
    let mut v = vec![0.0; S::INPUT_SIZE];
    pos.encode_into(repetitions, &mut v);
    v
}

/// Encodes a batch of `(position, repetitions)` back to back into the caller's buffer, item `i`
/// at `[i * S::INPUT_SIZE, (i + 1) * S::INPUT_SIZE)`. Allocates nothing; values past the batch are
/// left untouched. Panics if the buffer is too small.
pub fn encode_batch<'a, S: NetGame, I>(items: I, out: &mut [f32])
where
    I: IntoIterator<Item = (&'a S, u32)>,
{
    let mut chunks = out.chunks_exact_mut(S::INPUT_SIZE);
    for (pos, reps) in items {
        let chunk = chunks.next().expect("encode_batch: buffer smaller than batch * INPUT_SIZE");
        pos.encode_into(reps, chunk);
    }
}

/// The policy index of a legal move of `pos`. Panics for a move no piece could make.
#[inline]
pub fn move_to_index<S: NetGame>(pos: &S, m: S::Move) -> PolicyIndex {
    pos.try_move_to_index(m).unwrap_or_else(|| panic!("move {m:?} has no policy index"))
}

/// The legal move of `pos` with policy index `idx`, if any (generates the legal moves).
pub fn index_to_move<S: NetGame>(pos: &S, idx: PolicyIndex) -> Option<S::Move> {
    pos.index_to_move_in(&crate::game::legal_moves(pos), idx)
}

/// The policy indices of `moves` (legal moves of `pos`) into `out` (cleared first).
pub fn indices_into<S: NetGame>(pos: &S, moves: &[S::Move], out: &mut Vec<PolicyIndex>) {
    out.clear();
    out.extend(moves.iter().map(|&m| move_to_index(pos, m)));
}

/// The network's policy restricted to the legal moves `moves` of `pos`: a probability per move,
/// in the order of `moves`, summing to 1. `logits` holds `S::POLICY_SIZE` values.
pub fn legal_policy<S: NetGame>(pos: &S, moves: &[S::Move], logits: &[f32], out: &mut Vec<f32>) {
    assert_eq!(logits.len(), S::POLICY_SIZE, "policy logits must hold POLICY_SIZE values");
    out.clear();
    out.extend(moves.iter().map(|&m| move_to_index(pos, m).score(logits)));
    softmax_in_place(out);
}
