//! An NNUE-style evaluator for alpha-beta (issue 15): the feature set of the 125-cell board, the
//! quantized network, its file format, and an accumulator updated by feature differences.
//!
//! **Status: the inference core only.** Scalar integer code, tested against a full refresh and a
//! floating-point reference; not yet wired into the search, not yet trained (the `tch` trainer,
//! the data generation, SIMD and the `ab:eval=nnue` players are the next steps).
//!
//! # Features (per perspective)
//! Every position is seen twice, from white's side and from black's; black's view is the board
//! under the symmetry that maps the ruleset's start position onto itself with the colours
//! swapped: in Five Up layers and ranks turn over and files stay (`UBQUB` on Da1–De1 faces `ubqub`
//! on Ba5–Be5); in Raumschach the board turns through its centre, files too ([`Cell::rotate`]:
//! `BUQBU` faces `ubqub`). In a perspective the
//! pieces are "own" (the perspective's colour) or "their".
//!
//! | inputs | count | active when |
//! |---|---:|---|
//! | (own or their) × piece slot × cell | 2 × 10 × 125 = 2,500 | a piece of that side and slot stands on the (oriented) cell |
//! | (own or their) × reserve piece (W, G, S) | 2 × 3 = 6 | the piece is still in that side's reserve (Five Up) |
//! | (own or their) × cell with a placement right | 2 × 125 = 250 | that side's piece on the cell still has its right (Five Up) |
//!
//! [`INPUTS`] = 2,756. Piece slots: pawn, knight, bishop, rook, queen, king, unicorn (the Five Up
//! leaper and the Raumschach slider share a slot: a network is for one ruleset), silver unicorn,
//! wizard, guard. En passant, the halfmove clock and repetitions are left out (rare, or the
//! search's business). King buckets are not used yet: a king-relative input set multiplies the
//! first layer by the bucket count and needs data to pay for itself; measure before adding it.
//!
//! # Network
//! `INPUTS → hidden` per perspective (shared weights, `i16`, the accumulator), both accumulators
//! side to move first, clipped ReLU to `0..=127`, then `2·hidden → l1 → l2 → 1` dense layers
//! with `i8` weights and `i32` biases and clipped ReLU between them. Quantization (as in Stockfish's
//! first NNUE): activations in units of 1/[`QA`] (127 = 1.0), dense weights in units of
//! 1/[`QB`] (64 = 1.0), so a dense layer's sum is shifted right by 6 to return to activation
//! units; the output, in units of 1/(QA·QB), times `output_scale` is centipawns.
//!
//! # Accumulator
//! [`Accumulator`] keeps both perspectives' sums and the sorted active feature lists they came
//! from. [`Accumulator::update`] brings it to any other position by subtracting the rows of the
//! features that went away and adding those that appeared (a move changes 2 to 6 of them), so the
//! search can copy it down the stack and update it after each move; [`Accumulator::refresh`]
//! recomputes from scratch. Debug builds check every update against a refresh.

pub mod datagen;
mod file;

pub use file::{NnueError, MAGIC, VERSION};

use crate::rules::bitboard::Bitboard;
use crate::rules::{Cell, Color, Kind, Position, Ruleset};
use rand::{Rng, SeedableRng};

/// Cells on the board.
pub const CELLS: usize = 125;
/// Piece slots per side.
pub const SLOTS: usize = 10;
/// First reserve input.
pub const RESERVE_BASE: usize = 2 * SLOTS * CELLS;
/// First placement-right input.
pub const RIGHTS_BASE: usize = RESERVE_BASE + 6;
/// Inputs per perspective.
pub const INPUTS: usize = RIGHTS_BASE + 2 * CELLS;
/// Activation scale: 127 is 1.0.
pub const QA: i32 = 127;
/// Dense weight scale: 64 is 1.0 (a shift of 6).
pub const QB: i32 = 64;

/// The slot of a kind (both unicorns share one).
pub const fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Pawn => 0,
        Kind::Knight => 1,
        Kind::Bishop => 2,
        Kind::Rook => 3,
        Kind::Queen => 4,
        Kind::King => 5,
        Kind::Unicorn | Kind::RUnicorn => 6,
        Kind::Silver => 7,
        Kind::Wizard => 8,
        Kind::Guard => 9,
    }
}

/// A cell as `perspective` sees it in `ruleset` (see the module docs for black's view).
pub const fn orient(ruleset: Ruleset, perspective: Color, cell: Cell) -> usize {
    match (perspective, ruleset) {
        (Color::White, _) => cell.index(),
        (Color::Black, Ruleset::Raumschach) => cell.rotate().index(),
        (Color::Black, _) => ((4 - cell.layer()) * 25 + (4 - cell.rank()) * 5 + cell.file()) as usize,
    }
}

/// The active inputs of `pos` from `perspective`, sorted.
pub fn active_features(pos: &Position, perspective: Color) -> Vec<u16> {
    let mut out = Vec::with_capacity(64);
    let rs = pos.ruleset();
    for side in Color::ALL {
        let their = usize::from(side != perspective);
        for kind in Kind::ALL {
            for c in pos.pieces(side, kind) {
                out.push(((their * SLOTS + slot(kind)) * CELLS + orient(rs, perspective, c)) as u16);
            }
        }
        for (i, k) in [Kind::Wizard, Kind::Guard, Kind::Silver].into_iter().enumerate() {
            if pos.reserve_kinds(side).any(|r| r == k) {
                out.push((RESERVE_BASE + their * 3 + i) as u16);
            }
        }
        for c in Bitboard(pos.rights().0 & pos.color_bb(side).0) {
            out.push((RIGHTS_BASE + their * CELLS + orient(rs, perspective, c)) as u16);
        }
    }
    out.sort_unstable();
    out
}

/// Layer sizes of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Accumulator width per perspective (a multiple of 16, 16..=1024).
    pub hidden: usize,
    /// First dense layer (1..=256).
    pub l1: usize,
    /// Second dense layer (1..=256).
    pub l2: usize,
}

impl Dims {
    /// The first size: 2 × 256 accumulators, 32 and 32 dense units.
    pub const DEFAULT: Dims = Dims { hidden: 256, l1: 32, l2: 32 };

    fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || self.hidden % 16 != 0 || self.hidden > 1024 {
            return Err(format!("hidden width {} is not a multiple of 16 from 16 to 1024", self.hidden));
        }
        for (name, n) in [("l1", self.l1), ("l2", self.l2)] {
            if !(1..=256).contains(&n) {
                return Err(format!("{name} width {n} is not from 1 to 256"));
            }
        }
        Ok(())
    }
}

/// A quantized network for one ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The ruleset it evaluates.
    pub ruleset: Ruleset,
    /// Layer sizes.
    pub dims: Dims,
    /// Centipawns per output unit of 1.0 (the training's sigmoid scale).
    pub output_scale: f32,
    /// Accumulator bias, `hidden`.
    pub ft_bias: Vec<i16>,
    /// Accumulator weights, `INPUTS × hidden` (row per input).
    pub ft_weights: Vec<i16>,
    /// First dense layer: bias `l1`, weights `l1 × 2·hidden` (row per output).
    pub l1_bias: Vec<i32>,
    /// See `l1_bias`.
    pub l1_weights: Vec<i8>,
    /// Second dense layer: bias `l2`, weights `l2 × l1`.
    pub l2_bias: Vec<i32>,
    /// See `l2_bias`.
    pub l2_weights: Vec<i8>,
    /// Output bias.
    pub out_bias: i32,
    /// Output weights, `l2`.
    pub out_weights: Vec<i8>,
}

impl Network {
    /// A network with random weights in plausible ranges (tests and benchmarks).
    pub fn random(ruleset: Ruleset, dims: Dims, seed: u64) -> Network {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut i16s = |n: usize, r: i16| (0..n).map(|_| rng.gen_range(-r..=r)).collect::<Vec<i16>>();
        let ft_bias = i16s(dims.hidden, 40);
        let ft_weights = i16s(INPUTS * dims.hidden, 12);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
        let mut i8s = |n: usize| (0..n).map(|_| rng.gen_range(-20i8..=20)).collect::<Vec<i8>>();
        let l1_weights = i8s(dims.l1 * 2 * dims.hidden);
        let l2_weights = i8s(dims.l2 * dims.l1);
        let out_weights = i8s(dims.l2);
        Network {
            ruleset,
            dims,
            output_scale: 400.0,
            ft_bias,
            ft_weights,
            l1_bias: vec![500; dims.l1],
            l1_weights,
            l2_bias: vec![-300; dims.l2],
            l2_weights,
            out_bias: 100,
            out_weights,
        }
    }

    /// The accumulator row of input `f`.
    #[inline]
    fn row(&self, f: u16) -> &[i16] {
        let h = self.dims.hidden;
        &self.ft_weights[f as usize * h..(f as usize + 1) * h]
    }

    /// The evaluation of the position behind `acc`, in centipawns for `stm` (the side to move).
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let h = self.dims.hidden;
        let mut input = vec![0u8; 2 * h];
        for (half, side) in [stm, stm.flip()].into_iter().enumerate() {
            for (x, &v) in input[half * h..(half + 1) * h].iter_mut().zip(&acc.values[side.index()]) {
                *x = v.clamp(0, QA as i16) as u8;
            }
        }
        let l1 = dense(&input, &self.l1_weights, &self.l1_bias);
        let l2 = dense(&l1, &self.l2_weights, &self.l2_bias);
        let out = self.out_bias + l2.iter().zip(&self.out_weights).map(|(&a, &w)| a as i32 * w as i32).sum::<i32>();
        (out as f64 * self.output_scale as f64 / (QA * QB) as f64).round() as i32
    }

    /// Evaluates `pos` from scratch (a fresh accumulator).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::refresh(self, pos), pos.side())
    }
}

/// A dense layer with clipped ReLU: `out[j] = clamp((bias[j] + Σ in[i]·w[j][i]) >> 6, 0, 127)`.
fn dense(input: &[u8], weights: &[i8], bias: &[i32]) -> Vec<u8> {
    let n = input.len();
    bias.iter()
        .enumerate()
        .map(|(j, &b)| {
            let row = &weights[j * n..(j + 1) * n];
            let sum = b + input.iter().zip(row).map(|(&a, &w)| a as i32 * w as i32).sum::<i32>();
            (sum >> 6).clamp(0, QA) as u8
        })
        .collect()
}

/// Both perspectives' first-layer sums and the feature lists behind them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Sums per perspective (white's, black's), `hidden` each, bias included.
    pub values: [Vec<i16>; 2],
    features: [Vec<u16>; 2],
}

impl Accumulator {
    /// The accumulator of `pos`, computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let features = [active_features(pos, Color::White), active_features(pos, Color::Black)];
        let values = [0, 1].map(|p| {
            let mut v = net.ft_bias.clone();
            for &f in &features[p] {
                for (x, &w) in v.iter_mut().zip(net.row(f)) {
                    *x = x.wrapping_add(w);
                }
            }
            v
        });
        Accumulator { values, features }
    }

    /// Brings the accumulator to `pos`: the rows of features that went away are subtracted, those
    /// that appeared added. Returns how many rows changed (both perspectives).
    pub fn update(&mut self, net: &Network, pos: &Position) -> usize {
        let mut changed = 0;
        for (p, side) in Color::ALL.into_iter().enumerate() {
            let new = active_features(pos, side);
            let (old, v) = (&self.features[p], &mut self.values[p]);
            let (mut i, mut j) = (0, 0);
            while i < old.len() || j < new.len() {
                let (a, b) = (old.get(i).copied(), new.get(j).copied());
                match (a, b) {
                    (Some(x), Some(y)) if x == y => {
                        i += 1;
                        j += 1;
                    }
                    (Some(x), y) if y.map_or(true, |y| x < y) => {
                        for (s, &w) in v.iter_mut().zip(net.row(x)) {
                            *s = s.wrapping_sub(w);
                        }
                        i += 1;
                        changed += 1;
                    }
                    (_, Some(y)) => {
                        for (s, &w) in v.iter_mut().zip(net.row(y)) {
                            *s = s.wrapping_add(w);
                        }
                        j += 1;
                        changed += 1;
                    }
                    _ => break,
                }
            }
            self.features[p] = new;
        }
        debug_assert_eq!(*self, Accumulator::refresh(net, pos), "incremental accumulator");
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scrambled;
    use crate::rules::Variant;

    const SMALL: Dims = Dims { hidden: 32, l1: 8, l2: 8 };

    #[test]
    fn features_of_the_start_positions() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let p = Position::startpos(Variant::plain(rs));
            let (w, b) = (active_features(&p, Color::White), active_features(&p, Color::Black));
            let men = p.occupied().0.count_ones() as usize;
            let extra = if rs == Ruleset::FiveUp { 6 + p.rights().0.count_ones() as usize } else { 0 };
            assert_eq!(w.len(), men + extra, "{rs}");
            assert!(w.iter().all(|&f| (f as usize) < INPUTS) && w.windows(2).all(|x| x[0] < x[1]));
            // Each start maps onto itself with the colours swapped: both views are the same.
            assert_eq!(w, b, "{rs}");
        }
        assert_eq!(INPUTS, 2756);
    }

    #[test]
    fn incremental_updates_match_a_refresh_along_random_games() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let net = Network::random(rs, SMALL, 3);
            for seed in 0..6 {
                let mut p = Position::startpos(Variant::plain(rs));
                let mut acc = Accumulator::refresh(&net, &p);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..60 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    p.make(moves[rng.gen_range(0..moves.len())]);
                    let changed = acc.update(&net, &p);
                    assert!((1..=16).contains(&changed), "{changed} rows");
                    assert_eq!(acc, Accumulator::refresh(&net, &p));
                    assert_eq!(net.evaluate(&acc, p.side()), net.evaluate_position(&p));
                }
            }
        }
    }

    #[test]
    fn the_integer_forward_pass_follows_the_float_network() {
        let net = Network::random(Ruleset::FiveUp, SMALL, 9);
        for seed in 0..20 {
            let p = scrambled(Variant::plain(Ruleset::FiveUp), 10 + seed as usize, seed);
            // The same network in floating point: activations in 0..=1, weights / 64.
            let acc = Accumulator::refresh(&net, &p);
            let h = SMALL.hidden;
            let mut x: Vec<f64> = Vec::new();
            for side in [p.side(), p.side().flip()] {
                x.extend(acc.values[side.index()].iter().map(|&v| (v as f64 / 127.0).clamp(0.0, 1.0)));
            }
            let layer = |x: &[f64], w: &[i8], b: &[i32]| -> Vec<f64> {
                b.iter()
                    .enumerate()
                    .map(|(j, &b)| {
                        let s: f64 =
                            x.iter().zip(&w[j * x.len()..(j + 1) * x.len()]).map(|(a, &w)| a * w as f64 / 64.0).sum();
                        (s + b as f64 / (127.0 * 64.0)).clamp(0.0, 1.0)
                    })
                    .collect()
            };
            assert_eq!(x.len(), 2 * h);
            let y1 = layer(&x, &net.l1_weights, &net.l1_bias);
            let y2 = layer(&y1, &net.l2_weights, &net.l2_bias);
            let out: f64 = y2.iter().zip(&net.out_weights).map(|(a, &w)| a * w as f64 / 64.0).sum::<f64>()
                + net.out_bias as f64 / (127.0 * 64.0);
            let want = out * net.output_scale as f64;
            let got = net.evaluate(&acc, p.side()) as f64;
            // Rounding of the shifts: a few centipawns at most on this scale.
            assert!((got - want).abs() <= 0.03 * want.abs().max(100.0), "{got} vs {want}");
        }
    }
}
