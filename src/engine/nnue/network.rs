//! The quantized network: layer sizes ([`Dims`]), weights ([`Network`]), their layout for the
//! vector kernels, and the forward pass (portable loops; the kernels are in `simd`).

use super::aligned::Aligned;
#[cfg(target_arch = "x86_64")]
use super::simd;
use super::{Accumulator, NetworkFormatError, INPUTS, KING_BUCKETS};
use crate::game::Color;
use crate::rules::{Position, Ruleset};
use rand::{Rng, SeedableRng};

/// Widest accumulator a network may have.
pub const MAX_HIDDEN: usize = 1024;
/// Widest dense layer a network may have.
pub const MAX_DENSE: usize = 256;
/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// Men on the board (kings included) that the output buckets divide evenly: the 40 of
/// Raumschach's start position.
pub const BUCKET_MEN: usize = 40;

/// The output bucket of a position with `men` men on the board, in a network of `buckets`
/// buckets: `(men − 1) · buckets / 40`, at most `buckets − 1` (with 8 buckets, 1–5 men are bucket
/// 0, 6–10 bucket 1, …, 36–40 bucket 7; one bucket is always bucket 0).
#[inline]
pub const fn bucket(men: usize, buckets: usize) -> usize {
    let b = men.saturating_sub(1) * buckets / BUCKET_MEN;
    if b < buckets {
        b
    } else {
        buckets - 1
    }
}
/// Activation scale: 127 is 1.0.
pub const QA: i32 = 127;
/// Dense weight scale: 64 is 1.0 (a shift of 6).
pub const QB: i32 = 64;

/// Layer sizes of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Accumulator width per perspective (a multiple of 16, 16..=1024).
    pub hidden: usize,
    /// First dense layer (1..=256).
    pub l1: usize,
    /// Second dense layer (1..=256).
    pub l2: usize,
    /// Output buckets (1..=16): the dense layers exist once per bucket and a position is
    /// evaluated by the stack of its [`bucket`] (by the men on the board), as Stockfish's layer
    /// stacks; the accumulator is shared. 1 is the plain network.
    pub buckets: usize,
    /// King buckets: 1 (none) or [`KING_BUCKETS`], each input existing once per bucket of the
    /// perspective's king ([`king_bucket`]).
    ///
    /// [`king_bucket`]: super::king_bucket
    pub kings: usize,
    /// Pairwise products: each perspective's accumulator enters the dense layers as `hidden / 2`
    /// products of its two halves' clipped values (`x[i]·x[i + hidden/2]`, Stockfish's pairwise
    /// multiplication) instead of `hidden` clipped values, so the first dense layer has `hidden`
    /// inputs, not `2·hidden` (module docs). `hidden` must then be a multiple of 32.
    pub pairwise: bool,
}

impl Dims {
    /// The default size: 2 × 256 accumulators, 32 and 32 dense units, one bucket.
    pub const DEFAULT: Dims = Dims { hidden: 256, l1: 32, l2: 32, buckets: 1, kings: 1, pairwise: false };

    /// Activations per perspective that enter the dense layers: `hidden`, or `hidden / 2` with
    /// [`Dims::pairwise`].
    pub fn ft_out(&self) -> usize {
        if self.pairwise {
            self.hidden / 2
        } else {
            self.hidden
        }
    }

    /// Inputs of the first dense layer: both perspectives' [`Dims::ft_out`].
    pub fn dense_inputs(&self) -> usize {
        2 * self.ft_out()
    }

    /// Checks the sizes against [`MAX_HIDDEN`] and [`MAX_DENSE`].
    pub fn check(&self) -> Result<(), NetworkFormatError> {
        if self.hidden == 0 || self.hidden % 16 != 0 || self.hidden > MAX_HIDDEN {
            return Err(NetworkFormatError::Hidden(self.hidden));
        }
        for (name, n) in [("l1", self.l1), ("l2", self.l2)] {
            if !(1..=MAX_DENSE).contains(&n) {
                return Err(NetworkFormatError::Dense { name, width: n });
            }
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(NetworkFormatError::Buckets(self.buckets));
        }
        if self.kings != 1 && self.kings != KING_BUCKETS {
            return Err(NetworkFormatError::Kings(self.kings));
        }
        if self.pairwise && self.hidden % 32 != 0 {
            return Err(NetworkFormatError::Pairwise(self.hidden));
        }
        Ok(())
    }

    /// Accumulator rows: [`INPUTS`] per king bucket.
    pub fn inputs(&self) -> usize {
        INPUTS * self.kings
    }
}

/// `256x2-32-32`, and the buckets when there is more than one (`256x2-32-32 with 8 output
/// buckets`, `… with 4 king buckets`); `256x2p-32-32` with pairwise products.
impl std::fmt::Display for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = if self.pairwise { "p" } else { "" };
        write!(f, "{}x2{p}-{}-{}", self.hidden, self.l1, self.l2)?;
        match (self.buckets, self.kings) {
            (1, 1) => {}
            (b, 1) => write!(f, " with {b} output buckets")?,
            (1, k) => write!(f, " with {k} king buckets")?,
            (b, k) => write!(f, " with {b} output and {k} king buckets")?,
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
    /// Centipawns per output unit of 1.0 (the training's sigmoid scale). Like the weights, not
    /// to be changed once the network is built: the evaluation reads it from the derived layout.
    pub output_scale: f32,
    /// Accumulator bias, `hidden`.
    pub ft_bias: Vec<i16>,
    /// Accumulator weights, `kings × INPUTS × hidden` (row per input, king bucket by bucket).
    pub ft_weights: Vec<i16>,
    /// First dense layer: bias `buckets × l1`, weights `buckets × l1 × dense_inputs` (bucket by
    /// bucket, row per output; [`Dims::dense_inputs`] is `2·hidden`, or `hidden` with pairwise
    /// products).
    pub l1_bias: Vec<i32>,
    /// See `l1_bias`.
    pub l1_weights: Vec<i8>,
    /// Second dense layer: bias `buckets × l2`, weights `buckets × l2 × l1`.
    pub l2_bias: Vec<i32>,
    /// See `l2_bias`.
    pub l2_weights: Vec<i8>,
    /// Output bias, one per bucket.
    pub out_bias: Vec<i32>,
    /// Output weights, `buckets × l2`.
    pub out_weights: Vec<i8>,
    /// The dense weights in the vector kernels' order, derived from the fields above when the
    /// network is built ([`Network::with_layout`]); the fields are not to be changed afterwards.
    pub(crate) layout: Layout,
}

/// The weights in the vector kernels' order and alignment, built when a network is built (the
/// file keeps the public fields' order). The accumulator rows are copied as they are (aligned);
/// the dense layers' weights are chunk-major: for every 4 consecutive inputs (a chunk), the 4
/// weights of output 0, then of output 1, …, outputs padded with zero weights (and biases) to
/// a multiple of 8. The kernel broadcasts a chunk's 4 activations and multiplies them by 8
/// outputs' weights per register, with no horizontal sums. One dense stack per output bucket.
#[derive(Clone, PartialEq, Default)]
pub(crate) struct Layout {
    pub(super) ft: Aligned<i16>,
    pub(super) dense: Vec<DenseLayout>,
    /// `output_scale` when it is a whole number from 1 to 65,536 (every shipped and trained
    /// network's): the evaluation's scaling is then done in integers, with the same results
    /// ([`Network::scale`]).
    pub(super) whole_scale: Option<i64>,
}

/// One bucket's dense layers as the network's fields hold them ([`Network::stack`]).
pub(super) struct DenseStack<'a> {
    pub(super) l1_bias: &'a [i32],
    pub(super) l1_weights: &'a [i8],
    pub(super) l2_bias: &'a [i32],
    pub(super) l2_weights: &'a [i8],
    pub(super) out_bias: i32,
    pub(super) out_weights: &'a [i8],
}

/// One bucket's dense layers in [`Layout`]'s order.
#[derive(Clone, PartialEq, Default)]
pub(super) struct DenseLayout {
    pub(super) l1: Aligned<i8>,
    pub(super) l1_bias: Aligned<i32>,
    pub(super) l2: Aligned<i8>,
    pub(super) l2_bias: Aligned<i32>,
    /// The output layer's weights (`l2` of them) and bias, kept beside the others so that the
    /// forward pass reads no slices of the network's fields.
    pub(super) out: Aligned<i8>,
    pub(super) out_bias: i32,
}

/// Derived from the public fields, so left out of a network's debug output.
impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Layout { .. }")
    }
}

impl Layout {
    fn of(net: &Network) -> Layout {
        let d = net.dims;
        let padded = |b: &[i32]| {
            let mut v = Aligned::zeros(b.len().next_multiple_of(8));
            v[..b.len()].copy_from_slice(b);
            v
        };
        let dense = (0..d.buckets)
            .map(|b| {
                let s = net.stack(b);
                DenseLayout {
                    l1: chunk_major(s.l1_weights, d.dense_inputs(), d.l1),
                    l1_bias: padded(s.l1_bias),
                    l2: chunk_major(s.l2_weights, d.l1, d.l2),
                    l2_bias: padded(s.l2_bias),
                    out: Aligned::from_slice(s.out_weights),
                    out_bias: s.out_bias,
                }
            })
            .collect();
        let s = net.output_scale;
        // Whole, positive and small enough that `out · scale` is exact in `i64` and in `f64`
        // (below 2^47 for any `i32` output).
        let whole_scale = ((1.0..=65_536.0).contains(&s) && s.fract() == 0.0).then_some(s as i64);
        Layout { ft: Aligned::from_slice(&net.ft_weights), dense, whole_scale }
    }
}

/// `w` (`n_out` rows of `n_in`) in chunk-major order (see [`Layout`]); inputs are padded to a
/// multiple of 4 and outputs to a multiple of 8, with zeros.
pub(super) fn chunk_major(w: &[i8], n_in: usize, n_out: usize) -> Aligned<i8> {
    let m = n_out.next_multiple_of(8);
    let mut v = Aligned::zeros(n_in.div_ceil(4) * m * 4);
    for j in 0..n_out {
        for i in 0..n_in {
            v[((i / 4) * m + j) * 4 + i % 4] = w[j * n_in + i];
        }
    }
    v
}

impl Network {
    /// A network with random weights in plausible ranges (tests and benchmarks).
    pub fn random(ruleset: Ruleset, dims: Dims, seed: u64) -> Network {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut i16s = |n: usize, r: i16| (0..n).map(|_| rng.gen_range(-r..=r)).collect::<Vec<i16>>();
        let ft_bias = i16s(dims.hidden, 40);
        let ft_weights = i16s(dims.inputs() * dims.hidden, 12);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
        let mut i8s = |n: usize| (0..n).map(|_| rng.gen_range(-20i8..=20)).collect::<Vec<i8>>();
        let b = dims.buckets;
        let l1_weights = i8s(b * dims.l1 * dims.dense_inputs());
        let l2_weights = i8s(b * dims.l2 * dims.l1);
        let out_weights = i8s(b * dims.l2);
        Network {
            ruleset,
            dims,
            output_scale: 400.0,
            ft_bias,
            ft_weights,
            l1_bias: vec![500; b * dims.l1],
            l1_weights,
            l2_bias: vec![-300; b * dims.l2],
            l2_weights,
            out_bias: (0..b as i32).map(|k| 100 - 40 * k).collect(),
            out_weights,
            layout: Layout::default(),
        }
        .with_layout()
    }

    /// The network with its derived weight layout built (every constructor ends with this).
    pub(crate) fn with_layout(mut self) -> Network {
        self.layout = Layout::of(&self);
        self
    }

    /// The accumulator row of input `f`.
    #[inline]
    pub(super) fn row(&self, f: u16) -> &[i16] {
        let h = self.dims.hidden;
        &self.ft_weights[f as usize * h..(f as usize + 1) * h]
    }

    /// The evaluation of the position behind `acc`, in centipawns for `stm` (the side to move).
    /// No allocation: the activations live on the stack.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        self.evaluate_with(acc, stm, true)
    }

    /// [`Network::evaluate`] with the vector instructions (`simd`, when the CPU has them) or the
    /// portable code only; the two give the same result (a test compares them).
    pub fn evaluate_with(&self, acc: &Accumulator, stm: Color, simd: bool) -> i32 {
        let bucket = self.bucket_of(acc);
        #[cfg(target_arch = "x86_64")]
        let out = {
            let kernel = if simd { simd::best() } else { simd::Kernel::Portable };
            self.forward_using(kernel, acc, stm, bucket)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let out = {
            let _ = simd;
            self.forward_portable(&acc.values[stm.index()], &acc.values[stm.flip().index()], bucket)
        };
        self.scale(out)
    }

    /// Centipawns of an output `out` (units of 1/(QA·QB)): `round(out · output_scale / (QA·QB))`,
    /// halves away from zero, saturated to `i32` (as the float cast saturates). With a whole
    /// scale `s` ≤ 2^16 it is done in integers, with the float way's results for every `out`:
    /// `n = out · s` is below 2^47, so exact in `i64` and in `f64`; `(2|n| + d) / (2d)` with
    /// `d = QA·QB` is `|n| / d` rounded half away from zero. The float quotient is `n / d`
    /// correctly rounded: an exact half is representable and comes out exact, and any other
    /// quotient lies at least `1/d` from the nearest half (`d` is even, so `2n − (2k+1)·d` is
    /// a non-zero even number), far more than the float's error below 2^34 (2^−19), so it
    /// rounds to the same whole number. A test compares the two ways.
    #[inline]
    pub(super) fn scale(&self, out: i32) -> i32 {
        match self.layout.whole_scale {
            Some(s) => {
                let (n, d) = (out as i64 * s, (QA * QB) as i64);
                let q = (2 * n.abs() + d) / (2 * d);
                (if n < 0 { -q } else { q }).clamp(i32::MIN as i64, i32::MAX as i64) as i32
            }
            None => self.scale_f64(out),
        }
    }

    /// [`Network::scale`] in floating point (any `output_scale`).
    pub(super) fn scale_f64(&self, out: i32) -> i32 {
        (out as f64 * self.output_scale as f64 / (QA * QB) as f64).round() as i32
    }

    /// The output bucket of the position behind `acc` (0 without buckets: no count is made).
    #[inline]
    fn bucket_of(&self, acc: &Accumulator) -> usize {
        match self.dims.buckets {
            1 => 0,
            n => bucket(acc.inputs.men(), n),
        }
    }

    /// The output with a given kernel (one of [`simd::Kernel::available`]) and bucket.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn forward_using(&self, kernel: simd::Kernel, acc: &Accumulator, stm: Color, bucket: usize) -> i32 {
        let (us, them) = (&acc.values[stm.index()], &acc.values[stm.flip().index()]);
        if kernel == simd::Kernel::Portable {
            return self.forward_portable(us, them, bucket);
        }
        assert!(us.len() == self.dims.hidden && them.len() == self.dims.hidden && bucket < self.dims.buckets);
        // SAFETY: the kernel is one the CPU has (`best` or `available`); both halves hold
        // `hidden` values in aligned storage; the bucket is one of the network's.
        unsafe { simd::forward(kernel, self, us, them, bucket) }
    }

    /// The output (units of 1/(QA·QB)) of bucket `bucket`'s stack for the accumulator halves of
    /// the side to move and the other side: the reference the vector pass must equal.
    fn forward_portable(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let d = self.dims;
        let n = d.dense_inputs();
        let mut input = [0u8; 2 * MAX_HIDDEN];
        let clip = |v: i16| v.clamp(0, QA as i16);
        if d.pairwise {
            let half = d.hidden / 2;
            for (x, v) in input[..n].chunks_exact_mut(half).zip([us, them]) {
                for (i, x) in x.iter_mut().enumerate() {
                    // At most 127·127 = 16,129: no overflow in 16 bits; >> 7 gives 0..=126.
                    *x = ((clip(v[i]) * clip(v[i + half])) >> 7) as u8;
                }
            }
        } else {
            for (x, &v) in input[..n].iter_mut().zip(us.iter().chain(them)) {
                *x = clip(v) as u8;
            }
        }
        let s = self.stack(bucket);
        let (mut l1, mut l2) = ([0u8; MAX_DENSE], [0u8; MAX_DENSE]);
        dense(&input[..n], s.l1_weights, s.l1_bias, &mut l1[..d.l1]);
        dense(&l1[..d.l1], s.l2_weights, s.l2_bias, &mut l2[..d.l2]);
        s.out_bias + dot_scalar(&l2[..d.l2], s.out_weights)
    }

    /// Bucket `b`'s dense stack: its parts of the dense arrays (which hold every bucket's, bucket
    /// by bucket).
    pub(super) fn stack(&self, b: usize) -> DenseStack<'_> {
        let d = self.dims;
        let (w1, w2) = (d.l1 * d.dense_inputs(), d.l2 * d.l1);
        DenseStack {
            l1_bias: &self.l1_bias[b * d.l1..][..d.l1],
            l1_weights: &self.l1_weights[b * w1..][..w1],
            l2_bias: &self.l2_bias[b * d.l2..][..d.l2],
            l2_weights: &self.l2_weights[b * w2..][..w2],
            out_bias: self.out_bias[b],
            out_weights: &self.out_weights[b * d.l2..][..d.l2],
        }
    }

    /// Evaluates `pos` from scratch (a fresh accumulator).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::refresh(self, pos), pos.side())
    }
}

/// A dense layer with clipped ReLU: `out[j] = clamp((bias[j] + Σ in[i]·w[j][i]) >> 6, 0, 127)`
/// (portable; rows of `w` per output).
fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [u8]) {
    let n = input.len();
    for (j, (o, &b)) in out.iter_mut().zip(bias).enumerate() {
        let sum = b + dot_scalar(input, &weights[j * n..(j + 1) * n]);
        *o = (sum >> 6).clamp(0, QA) as u8;
    }
}

/// The vector instructions the evaluation uses on this CPU, in words (reports).
pub fn simd_name() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        simd::best().name()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        "none (portable code)"
    }
}

/// Whether the running CPU has the vector instructions of [`dot`] (checked once).
pub fn has_simd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVX2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *AVX2.get_or_init(|| std::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `Σ input[i]·row[i]`, the dense layers' inner product, with AVX2 when the CPU has it and the
/// length is a multiple of 32, else [`dot_scalar`]. Both give the same integer for every input
/// in `0..=127` and any `i8` weights: the vector path's 16-bit pair sums are at most
/// 2·127·128 = 32,512 in size, so they never saturate.
#[inline]
pub fn dot(input: &[u8], row: &[i8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if input.len() % 32 == 0 && row.len() == input.len() && has_simd() {
        // SAFETY: AVX2 is present (checked above) and both slices hold `input.len()` bytes.
        return unsafe { simd::dot(input, row) };
    }
    dot_scalar(input, row)
}

/// The portable inner product (the reference the vector path must equal).
pub fn dot_scalar(input: &[u8], row: &[i8]) -> i32 {
    input.iter().zip(row).map(|(&a, &w)| a as i32 * w as i32).sum()
}
