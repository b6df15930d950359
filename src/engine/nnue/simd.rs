//! The x86-64 kernels of the forward pass and of the accumulator update, AVX2, chosen at run
//! time ([`super::has_simd`]). Each computes exactly the integers of the portable code in
//! `mod.rs` (tests compare them over random networks and positions): the accumulator sums wrap
//! in 16 bits in any order, and the dense layers' products are summed exactly (a `maddubs` pair
//! sum is at most 2·127·128 = 32,512 in size, so it never saturates; the `i32` lanes hold the
//! rest).
//!
//! The forward pass comes in three builds of one generic body ([`Mac`]): AVX2 (`maddubs`, `madd`
//! by ones, `add`), AVX-VNNI and AVX-512 VNNI (one `vpdpbusd`, which sums the 4 products of a
//! 32-bit lane exactly, with no intermediate saturation). [`best`] picks the best the CPU has.
//! The VNNI builds need Rust 1.89 (build.rs sets `cfg(fiveup_vnni)`); older compilers get AVX2.
//!
//! The dense layers read their weights in [`super::Layout`]'s chunk-major order: for every 4
//! consecutive inputs (a chunk), the 4 weights of output 0, then of output 1, … (outputs padded
//! to a multiple of 8). One broadcast of a chunk's 4 activations then serves 8 outputs per
//! register with no horizontal sums at the end.

use super::{Aligned, Network, MAX_DENSE, MAX_HIDDEN};
use std::arch::x86_64::*;

/// The kernels a CPU may have, best last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kernel {
    /// No vector instructions (the portable code).
    Portable,
    /// AVX2.
    Avx2,
    /// AVX2 with AVX-VNNI's `vpdpbusd` on 256-bit registers.
    AvxVnni,
    /// AVX2 with AVX-512 VNNI's `vpdpbusd` on 256-bit registers (AVX512VL).
    Avx512Vnni,
}

impl Kernel {
    /// The kernels this CPU can run, the portable code first.
    pub fn available() -> Vec<Kernel> {
        let mut v = vec![Kernel::Portable];
        if std::is_x86_feature_detected!("avx2") {
            v.push(Kernel::Avx2);
            #[cfg(fiveup_vnni)]
            v.extend(vnni_kernels());
        }
        v
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "none (portable code)",
            Kernel::Avx2 => "AVX2",
            Kernel::AvxVnni => "AVX2 + AVX-VNNI",
            Kernel::Avx512Vnni => "AVX2 + AVX-512 VNNI",
        }
    }
}

/// The VNNI kernels this CPU has (built where the compiler has them, `cfg(fiveup_vnni)`: Rust
/// 1.89 or later, see build.rs).
#[cfg(fiveup_vnni)]
#[clippy::msrv = "1.89"]
fn vnni_kernels() -> Vec<Kernel> {
    let mut v = Vec::new();
    if std::is_x86_feature_detected!("avxvnni") {
        v.push(Kernel::AvxVnni);
    }
    if std::is_x86_feature_detected!("avx512vnni") && std::is_x86_feature_detected!("avx512vl") {
        v.push(Kernel::Avx512Vnni);
    }
    v
}

/// The best kernel of this CPU (checked once). A 256-bit `vpdpbusd` does as much per
/// instruction through either extension; AVX-VNNI's encoding is preferred where both exist.
pub fn best() -> Kernel {
    static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
    *BEST.get_or_init(|| {
        let v = Kernel::available();
        if v.contains(&Kernel::AvxVnni) {
            Kernel::AvxVnni
        } else {
            *v.last().unwrap_or(&Kernel::Portable)
        }
    })
}

/// The multiply-accumulate of the dense layers: `acc + Σ` over each 32-bit lane of the 4
/// products of unsigned activations `x` and signed weights `w`. Every build computes the exact
/// sum (see the module docs).
trait Mac {
    /// # Safety
    /// The CPU must have the build's extension.
    unsafe fn mac(acc: __m256i, x: __m256i, w: __m256i) -> __m256i;
}

/// AVX2: `maddubs` to 16 pair sums, `madd` by ones to 8 lane sums, `add`.
struct Avx2;
impl Mac for Avx2 {
    #[inline(always)]
    unsafe fn mac(acc: __m256i, x: __m256i, w: __m256i) -> __m256i {
        _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)))
    }
}

/// AVX-VNNI `vpdpbusd` (VEX).
#[cfg(fiveup_vnni)]
struct AvxVnni;
#[cfg(fiveup_vnni)]
#[clippy::msrv = "1.89"]
impl Mac for AvxVnni {
    #[inline(always)]
    unsafe fn mac(acc: __m256i, x: __m256i, w: __m256i) -> __m256i {
        _mm256_dpbusd_avx_epi32(acc, x, w)
    }
}

/// AVX-512 VNNI `vpdpbusd` on 256-bit registers (EVEX).
#[cfg(fiveup_vnni)]
struct Avx512Vnni;
#[cfg(fiveup_vnni)]
#[clippy::msrv = "1.89"]
impl Mac for Avx512Vnni {
    #[inline(always)]
    unsafe fn mac(acc: __m256i, x: __m256i, w: __m256i) -> __m256i {
        _mm256_dpbusd_epi32(acc, x, w)
    }
}

/// The output of bucket `bucket`'s stack for the accumulator halves `us` (side to move) and
/// `them`, in output units (before `output_scale`): [`Network::evaluate_with`]'s portable pass,
/// vectorised with `kernel` (not [`Kernel::Portable`]).
///
/// # Safety
/// The CPU must have `kernel`'s extensions; both halves must hold `net.dims.hidden` values,
/// 32-byte aligned; `bucket` must be below `net.dims.buckets`.
pub(super) unsafe fn forward(kernel: Kernel, net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    match kernel {
        #[cfg(fiveup_vnni)]
        Kernel::AvxVnni => forward_avxvnni(net, us, them, bucket),
        #[cfg(fiveup_vnni)]
        Kernel::Avx512Vnni => forward_avx512vnni(net, us, them, bucket),
        _ => forward_avx2(net, us, them, bucket),
    }
}

#[target_feature(enable = "avx2")]
unsafe fn forward_avx2(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    forward_with::<Avx2>(net, us, them, bucket)
}

#[cfg(fiveup_vnni)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx2,avxvnni")]
unsafe fn forward_avxvnni(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    forward_with::<AvxVnni>(net, us, them, bucket)
}

#[cfg(fiveup_vnni)]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512vnni")]
unsafe fn forward_avx512vnni(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    forward_with::<Avx512Vnni>(net, us, them, bucket)
}

/// The body of [`forward`], inlined into each build.
#[inline(always)]
unsafe fn forward_with<M: Mac>(net: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    let h = net.dims.hidden;
    assert!(us.len() == h && them.len() == h);
    debug_assert!((us.as_ptr() as usize | them.as_ptr() as usize) % 32 == 0);
    let layout = &net.layout.dense[bucket];
    // The first 2·h bytes are written before they are read (no need to clear 2 KiB per call).
    let mut input = std::mem::MaybeUninit::<Aligned32<[u8; 2 * MAX_HIDDEN]>>::uninit();
    let at = input.as_mut_ptr() as *mut u8;
    let n = net.dims.dense_inputs();
    if net.dims.pairwise {
        pairwise16(us, at);
        pairwise16(them, at.add(n / 2));
    } else {
        crelu16(us, at);
        crelu16(them, at.add(h));
    }
    // Each layer writes its outputs padded to a multiple of 8 (the padding is 0: zero weights
    // and biases), and the next reads whole chunks of 4 of them.
    let mut l1 = std::mem::MaybeUninit::<Aligned32<[u8; MAX_DENSE]>>::uninit();
    let mut l2 = std::mem::MaybeUninit::<Aligned32<[u8; MAX_DENSE]>>::uninit();
    let (l1, l2) = (l1.as_mut_ptr() as *mut u8, l2.as_mut_ptr() as *mut u8);
    dense::<M>(at, n / 4, &layout.l1, &layout.l1_bias, l1);
    dense::<M>(l1, net.dims.l1.div_ceil(4), &layout.l2, &layout.l2_bias, l2);
    let n = net.dims.l2;
    let l2 = std::slice::from_raw_parts(l2 as *const u8, n);
    let out = &layout.out[..n];
    let body = n - n % 32;
    let tail = super::dot_scalar(&l2[body..], &out[body..]);
    layout.out_bias + dot(&l2[..body], &out[..body]) + tail
}

/// `T` at a 32-byte boundary.
#[repr(C, align(32))]
struct Aligned32<T>(T);

/// Clipped ReLU of accumulator values into activations: `out[i] = clamp(v[i], 0, 127)`.
/// `packs` saturates to `-128..=127` and the max with 0 does the rest; it keeps the order of
/// `v` (the 256-bit pack works per 128-bit half, which the permute undoes).
///
/// # Safety
/// AVX2; `v` 32-byte aligned, its length a multiple of 16; `dst` valid for `v.len()` bytes, at
/// a 16-byte boundary.
#[inline(always)]
unsafe fn crelu16(v: &[i16], dst: *mut u8) {
    let n = v.len();
    assert!(n % 16 == 0);
    let src = v.as_ptr();
    let zero = _mm256_setzero_si256();
    let mut i = 0;
    while i + 32 <= n {
        let a = _mm256_load_si256(src.add(i) as *const __m256i);
        let b = _mm256_load_si256(src.add(i + 16) as *const __m256i);
        let p = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
        _mm256_storeu_si256(dst.add(i) as *mut __m256i, _mm256_permute4x64_epi64(p, 0b11_01_10_00));
        i += 32;
    }
    if i < n {
        let a = _mm_load_si128(src.add(i) as *const __m128i);
        let b = _mm_load_si128(src.add(i + 8) as *const __m128i);
        _mm_storeu_si128(dst.add(i) as *mut __m128i, _mm_max_epi8(_mm_packs_epi16(a, b), _mm_setzero_si128()));
    }
}

/// Pairwise products of accumulator values into activations: with `half = v.len() / 2`,
/// `out[i] = (clamp(v[i], 0, 127) · clamp(v[i + half], 0, 127)) >> 7` for `i < half` (at most
/// 16,129 before the shift, so `mullo` in 16 bits is exact; `packus` keeps the 0..=126 bytes;
/// the permute undoes its per-half order).
///
/// # Safety
/// AVX2; `v` 32-byte aligned, its length a multiple of 32; `dst` valid for `v.len() / 2` bytes.
#[inline(always)]
unsafe fn pairwise16(v: &[i16], dst: *mut u8) {
    let half = v.len() / 2;
    assert!(half % 16 == 0);
    let (lo, hi) = (v.as_ptr(), v.as_ptr().add(half));
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(super::QA as i16));
    let clip = |p: *const i16| _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(p as *const __m256i), zero), top);
    let product = |i: usize| _mm256_srli_epi16(_mm256_mullo_epi16(clip(lo.add(i)), clip(hi.add(i))), 7);
    let mut i = 0;
    while i + 32 <= half {
        let p = _mm256_packus_epi16(product(i), product(i + 16));
        _mm256_storeu_si256(dst.add(i) as *mut __m256i, _mm256_permute4x64_epi64(p, 0b11_01_10_00));
        i += 32;
    }
    if i < half {
        let p = product(i);
        let p = _mm_packus_epi16(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
        _mm_storeu_si128(dst.add(i) as *mut __m128i, p);
    }
}

/// A dense layer with clipped ReLU, `out[j] = clamp((bias[j] + Σ in[i]·w[j][i]) >> 6, 0, 127)`,
/// over `chunks` chunks of 4 inputs, with `packed` and `bias` in [`super::Layout`]'s order (`m`
/// outputs, a multiple of 8, all written).
///
/// # Safety
/// AVX2; `input` valid for `4·chunks` bytes; `out` for `bias.len()`; `packed` 32-byte aligned.
#[inline(always)]
unsafe fn dense<M: Mac>(input: *const u8, chunks: usize, packed: &Aligned<i8>, bias: &Aligned<i32>, out: *mut u8) {
    let m = bias.len();
    assert!(m % 8 == 0 && packed.len() == chunks * m * 4);
    let mut b = 0;
    while b + 32 <= m {
        block::<M, 4>(input, chunks, packed.as_ptr(), m, b, bias.as_ptr(), out);
        b += 32;
    }
    if b + 16 <= m {
        block::<M, 2>(input, chunks, packed.as_ptr(), m, b, bias.as_ptr(), out);
        b += 16;
    }
    while b < m {
        block::<M, 1>(input, chunks, packed.as_ptr(), m, b, bias.as_ptr(), out);
        b += 8;
    }
}

/// Outputs `b..b + 8·R` of [`dense`]: the sums over all chunks in `R` registers, then bias,
/// shift and clamp (`packs` to 16 then 8 bits saturates, the max with 0 does the rest).
#[inline(always)]
unsafe fn block<M: Mac, const R: usize>(
    input: *const u8,
    chunks: usize,
    packed: *const i8,
    m: usize,
    b: usize,
    bias: *const i32,
    out: *mut u8,
) {
    // Two sets of sums, for even and odd chunks: `vpdpbusd` has a latency of several cycles, and
    // one chain per register would wait on it.
    let mut acc = [_mm256_setzero_si256(); R];
    let mut odd = [_mm256_setzero_si256(); R];
    let mut w = packed.add(b * 4);
    let x = |c: usize| _mm256_set1_epi32((input.add(4 * c) as *const i32).read_unaligned());
    let mut c = 0;
    while c + 2 <= chunks {
        let (x0, x1) = (x(c), x(c + 1));
        let w1 = w.add(m * 4);
        for r in 0..R {
            acc[r] = M::mac(acc[r], x0, _mm256_load_si256(w.add(32 * r) as *const __m256i));
            odd[r] = M::mac(odd[r], x1, _mm256_load_si256(w1.add(32 * r) as *const __m256i));
        }
        w = w.add(2 * m * 4);
        c += 2;
    }
    if c < chunks {
        let x0 = x(c);
        for (r, acc) in acc.iter_mut().enumerate() {
            *acc = M::mac(*acc, x0, _mm256_load_si256(w.add(32 * r) as *const __m256i));
        }
    }
    for (acc, odd) in acc.iter_mut().zip(odd) {
        *acc = _mm256_add_epi32(*acc, odd);
    }
    for (r, acc) in acc.iter_mut().enumerate() {
        let bias = _mm256_load_si256(bias.add(b + 8 * r) as *const __m256i);
        *acc = _mm256_srai_epi32(_mm256_add_epi32(*acc, bias), 6);
    }
    let zero = _mm256_setzero_si256();
    if R == 4 {
        // Per 128-bit half: a0 a1 a2 a3 (4 bytes each) of the low half, then of the high half.
        let p = _mm256_packs_epi16(_mm256_packs_epi32(acc[0], acc[1]), _mm256_packs_epi32(acc[2], acc[3]));
        let p = _mm256_permutevar8x32_epi32(_mm256_max_epi8(p, zero), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256(out.add(b) as *mut __m256i, p);
    } else {
        for (r, acc) in acc.iter().enumerate() {
            let lo = _mm_packs_epi32(_mm256_castsi256_si128(*acc), _mm256_extracti128_si256(*acc, 1));
            let p = _mm_max_epi8(_mm_packs_epi16(lo, lo), _mm_setzero_si128());
            _mm_storel_epi64(out.add(b + 8 * r) as *mut __m128i, p);
        }
    }
}

/// `Σ input[i]·row[i]` for a length that is a multiple of 32 (the output layer): `maddubs`
/// multiplies 32 activations by 32 weights into 16 pair sums, `madd` by ones widens them to 8
/// `i32` lanes, summed at the end.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn dot(input: &[u8], row: &[i8]) -> i32 {
    assert!(input.len() % 32 == 0 && row.len() == input.len());
    let ones = _mm256_set1_epi16(1);
    let mut acc = _mm256_setzero_si256();
    for k in (0..input.len()).step_by(32) {
        let a = _mm256_loadu_si256(input.as_ptr().add(k) as *const __m256i);
        let w = _mm256_loadu_si256(row.as_ptr().add(k) as *const __m256i);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), ones));
    }
    let s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

/// `dst = src + Σ rows(adds) − Σ rows(subs)` (wrapping), the rows being `h` wide in `weights`
/// (row `f` at `f·h`), one register tile at a time: the source is read, every row added or
/// subtracted and the result stored once. `src` may be `dst` (an update in place).
///
/// # Safety
/// The CPU must support AVX2; `src` and `dst` must hold `h` values (`h` a multiple of 16), 32-byte
/// aligned, and every row index must be a row of `weights`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn update(
    dst: *mut i16,
    src: *const i16,
    h: usize,
    weights: &Aligned<i16>,
    adds: &[u16],
    subs: &[u16],
) {
    update_tiles(dst, src, h, weights, adds, subs)
}

/// [`update`] for both perspectives in one call (`rows[p]` = perspective `p`'s adds and
/// subs): the usual incremental update, without a call and its set-up per perspective.
///
/// # Safety
/// As [`update`], for each perspective.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn update_both(
    dst: [*mut i16; 2],
    src: [*const i16; 2],
    h: usize,
    weights: &Aligned<i16>,
    rows: [[&[u16]; 2]; 2],
) {
    update_tiles(dst[0], src[0], h, weights, rows[0][0], rows[0][1]);
    update_tiles(dst[1], src[1], h, weights, rows[1][0], rows[1][1]);
}

/// The body of [`update`], inlined into its AVX2 builds.
#[inline(always)]
unsafe fn update_tiles(dst: *mut i16, src: *const i16, h: usize, weights: &Aligned<i16>, adds: &[u16], subs: &[u16]) {
    debug_assert!(h % 16 == 0 && (dst as usize | src as usize) % 32 == 0);
    debug_assert!(adds.iter().chain(subs).all(|&f| (f as usize + 1) * h <= weights.len()));
    let w = weights.as_ptr();
    let mut t = 0;
    while t + 128 <= h {
        tile::<8>(dst.add(t), src.add(t), h, w.add(t), adds, subs);
        t += 128;
    }
    // What is left (below 128 values, a multiple of 16) in at most three tiles, each going over
    // the rows once: a 64-wide accumulator is one tile of 4 registers, not four of 1.
    if t + 64 <= h {
        tile::<4>(dst.add(t), src.add(t), h, w.add(t), adds, subs);
        t += 64;
    }
    if t + 32 <= h {
        tile::<2>(dst.add(t), src.add(t), h, w.add(t), adds, subs);
        t += 32;
    }
    if t < h {
        tile::<1>(dst.add(t), src.add(t), h, w.add(t), adds, subs);
    }
}

/// [`update`] for `16·R` values from `src`/`dst`, the rows' matching values at `w + f·h`.
#[inline(always)]
unsafe fn tile<const R: usize>(dst: *mut i16, src: *const i16, h: usize, w: *const i16, adds: &[u16], subs: &[u16]) {
    let mut r = [_mm256_setzero_si256(); R];
    for (i, r) in r.iter_mut().enumerate() {
        *r = _mm256_load_si256(src.add(16 * i) as *const __m256i);
    }
    for &f in adds {
        let row = w.add(f as usize * h);
        for (i, r) in r.iter_mut().enumerate() {
            *r = _mm256_add_epi16(*r, _mm256_load_si256(row.add(16 * i) as *const __m256i));
        }
    }
    for &f in subs {
        let row = w.add(f as usize * h);
        for (i, r) in r.iter_mut().enumerate() {
            *r = _mm256_sub_epi16(*r, _mm256_load_si256(row.add(16 * i) as *const __m256i));
        }
    }
    for (i, r) in r.iter().enumerate() {
        _mm256_store_si256(dst.add(16 * i) as *mut __m256i, *r);
    }
}
