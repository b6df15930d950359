//! The accumulator: both perspectives' first-layer sums, brought from one position to another
//! by the rows of the inputs that changed, and the king buckets' cache of sums.

use super::aligned::Aligned;
use super::features::{nonzero_bytes, reserve_input, view, Inputs};
#[cfg(target_arch = "x86_64")]
use super::simd;
use super::{has_simd, Network, ANY_CELL, INPUTS};
use crate::game::Color;
use crate::rules::{Position, Ruleset};

/// Most touched cells an update reads one at a time (a lazy stack up to four moves behind);
/// beyond it, it reads the whole position and compares all 128 bytes at once. Bound by the
/// assertion below: the touched way has no overflow path, so its changes must fit the lists.
const TOUCHED_ONE_BY_ONE: u32 = 8;

// So many cells change at most 2 inputs each per perspective and sign (a piece and its right),
// the reserves 6 more: the lists always hold them.
const _: () = assert!(2 * TOUCHED_ONE_BY_ONE as usize + 6 <= Delta::CAP);

/// Both perspectives' first-layer sums and the inputs they came from.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct Accumulator {
    /// Sums per perspective (white's, black's), `hidden` each, bias included.
    pub values: [Aligned<i16>; 2],
    pub(super) inputs: Inputs,
}

impl Clone for Accumulator {
    fn clone(&self) -> Self {
        Accumulator { values: self.values.clone(), inputs: self.inputs }
    }

    /// Reuses this accumulator's memory (the search copies one per ply).
    fn clone_from(&mut self, source: &Self) {
        for p in 0..2 {
            self.values[p].clone_from(&source.values[p]);
        }
        self.inputs = source.inputs;
    }
}

impl Accumulator {
    /// The accumulator of `pos`, computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let inputs = Inputs::of(pos);
        let mut values = [Aligned::from_slice(&net.ft_bias), Aligned::from_slice(&net.ft_bias)];
        let offsets = inputs.offsets(pos.ruleset(), net.dims.kings);
        inputs.for_each(pos.ruleset(), offsets, |p, f| apply_row(&mut values[p], net.row(f), true));
        Accumulator { values, inputs }
    }

    /// Brings the accumulator to `pos`: the rows of inputs that went away are subtracted, those
    /// that appeared added, for the cells that differ only (a move changes 2 to 8 inputs per
    /// perspective). Returns how many rows changed (both perspectives).
    pub fn update(&mut self, net: &Network, pos: &Position) -> usize {
        self.update_with(None, net, pos, true)
    }

    /// Makes this accumulator `parent`'s brought to `pos` ([`Accumulator::update`] without the
    /// copy: each register tile of the parent's sums is read once, every changed row applied,
    /// and the result stored once). Returns how many rows changed (both perspectives).
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, pos: &Position) -> usize {
        self.update_with(Some(parent), net, pos, true)
    }

    /// [`Accumulator::update_from`] (from `parent`, or in place) with the vector instructions
    /// (`simd`, when the CPU has them) or the portable code only.
    pub fn update_with(&mut self, parent: Option<&Accumulator>, net: &Network, pos: &Position, simd: bool) -> usize {
        self.update_cached(parent, net, pos, ANY_CELL, simd, None)
    }

    /// [`Accumulator::update_with`], refreshing a perspective whose king changed bucket from
    /// `cache` (the last sums of that perspective and bucket, brought to `pos` by their
    /// difference) when one is given, else from scratch. `touched` holds every cell whose
    /// contents may differ between the old position and `pos`: the union of the moves' cells in
    /// between ([`touched_cells`]; the search's [`Stack`] keeps them), or [`ANY_CELL`]. With a
    /// few cells only those are read from `pos` and compared; a cell left out that did change
    /// gives wrong sums (debug builds check every update against a refresh).
    ///
    /// [`touched_cells`]: super::touched_cells
    /// [`Stack`]: super::Stack
    pub fn update_cached(
        &mut self,
        parent: Option<&Accumulator>,
        net: &Network,
        pos: &Position,
        touched: u128,
        simd: bool,
        cache: Option<&mut KingCache>,
    ) -> usize {
        #[cfg(target_arch = "x86_64")]
        if simd && has_simd() {
            // SAFETY: AVX2 is present (checked above).
            return unsafe { self.update_avx2(parent, net, pos, touched, cache) };
        }
        self.update_body(parent, net, pos, touched, simd, cache)
    }

    /// [`Accumulator::update_body`] compiled with AVX2: the row loops around the vector kernel
    /// are inlined into one AVX2 build, and both perspectives' rows go to the kernel in one call
    /// ([`simd::update_both`]) when no king changed bucket.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(
        &mut self,
        parent: Option<&Accumulator>,
        net: &Network,
        pos: &Position,
        touched: u128,
        cache: Option<&mut KingCache>,
    ) -> usize {
        self.update_body(parent, net, pos, touched, true, cache)
    }

    /// The body of [`Accumulator::update_cached`], inlined into each build.
    #[inline(always)]
    fn update_body(
        &mut self,
        parent: Option<&Accumulator>,
        net: &Network,
        pos: &Position,
        touched: u128,
        simd: bool,
        mut cache: Option<&mut KingCache>,
    ) -> usize {
        let (rs, kings) = (pos.ruleset(), net.dims.kings);
        let mut delta = Delta::new();
        // The old inputs and the cells that changed, when they did not fit the lists (a lazy
        // stack far behind): applied one row at a time below.
        let mut slow: Option<(Inputs, u128)> = None;
        // The king buckets before and after, and the differing inputs into `delta`.
        let (was, offsets, changed);
        if touched.count_ones() <= TOUCHED_ONE_BY_ONE {
            // The move-derived way: only the touched cells are read and compared, in place
            // (from a parent, its inputs are copied first).
            if let Some(a) = parent {
                self.inputs = a.inputs;
            }
            was = self.inputs.offsets(rs, kings);
            self.inputs.kings = [pos.king(Color::White).index() as u8, pos.king(Color::Black).index() as u8];
            offsets = self.inputs.offsets(rs, kings);
            changed = self.inputs.rewrite(pos, touched, offsets, |p, f, add| delta.push(p, f, add));
            // A few cells' pieces and rights and the reserves: always within the lists.
            debug_assert!(!delta.overflow);
        } else {
            // Every cell: the new inputs from the whole position and one vector compare (from a
            // parent, they go straight into place; in place, the old ones are kept).
            let kept;
            let old = match parent {
                Some(a) => &a.inputs,
                None => {
                    kept = self.inputs;
                    &kept
                }
            };
            self.inputs = Inputs::of(pos);
            let mask = changed_cells(old, &self.inputs);
            was = old.offsets(rs, kings);
            offsets = self.inputs.offsets(rs, kings);
            changed = diff(old, &self.inputs, rs, offsets, mask, |p, f, add| delta.push(p, f, add));
            if delta.overflow {
                slow = Some((*old, mask));
            }
        }
        // A perspective whose king changed bucket has other rows for every input: refreshed.
        let moved = [was[0] != offsets[0], was[1] != offsets[1]];
        let Accumulator { values, inputs } = self;
        for dst in values.iter_mut().filter(|v| v.len() != net.dims.hidden) {
            *dst = Aligned::zeros(net.dims.hidden); // a fresh accumulator of the stack
        }
        if moved == [false; 2] && slow.is_none() {
            // Nearly every update: the rows of both perspectives in one go.
            apply_rows_both(values, parent.map(|a| &a.values), net, &delta, offsets, simd);
            debug_assert_eq!(*self, Accumulator::refresh(net, pos), "incremental accumulator");
            return changed;
        }
        let new = &*inputs;
        for (p, dst) in values.iter_mut().enumerate() {
            let src = parent.map(|a| &a.values[p]);
            if moved[p] {
                // From the bucket's last sums, or (no cache) from an empty one: every row.
                match cache.as_deref_mut() {
                    Some(cache) => cache.refresh(dst, p, net, new, rs, simd),
                    None => KingCache::default().refresh(dst, p, net, new, rs, simd),
                }
            } else if let Some((old, mask)) = &slow {
                // A copy, then one row at a time.
                if let Some(src) = src {
                    dst.clone_from_slice(src);
                }
                diff(old, new, rs, offsets, *mask, |q, f, add| {
                    if q == p {
                        apply_row(dst, net.row(f), add)
                    }
                });
            } else {
                apply_rows(dst, src, net, &delta, offsets, p, simd);
            }
        }
        debug_assert_eq!(*self, Accumulator::refresh(net, pos), "incremental accumulator");
        changed
    }
}

/// Per perspective and king bucket, the sums of the last refresh there and the inputs they came
/// from (Stockfish's accumulator cache, "Finny tables"): a perspective whose king changes bucket
/// is brought from the bucket's last sums by the difference of inputs (a few rows: the kings'
/// buckets change back and forth in a search, while the pieces stay much the same) instead of
/// summing every active input's row. A cache holds sums of one network: clear it
/// ([`KingCache::clear`]) when the network changes; the search's [`Stack`] does at every reset.
///
/// [`Stack`]: super::Stack
#[derive(Default)]
pub struct KingCache {
    /// `[perspective · kings + bucket]`: the sums (empty until first used) and their inputs.
    entries: Vec<(Aligned<i16>, Inputs)>,
}

impl KingCache {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Sets `dst` to perspective `p`'s sums for `new` in its king's bucket, from that bucket's
    /// entry (an empty board's until first used), which is left holding them. Out of line and
    /// cold: only a king crossing into another bucket comes here, and the update's usual path
    /// stays small enough to be inlined whole into the search's evaluation.
    #[cold]
    #[inline(never)]
    fn refresh(&mut self, dst: &mut Aligned<i16>, p: usize, net: &Network, new: &Inputs, rs: Ruleset, simd: bool) {
        let kings = net.dims.kings;
        let offsets = new.offsets(rs, kings);
        if self.entries.len() != 2 * kings {
            self.entries = (0..2 * kings).map(|_| (Aligned::zeros(0), Inputs::default())).collect();
        }
        let (sums, inputs) = &mut self.entries[p * kings + offsets[p] as usize / INPUTS];
        if sums.len() != net.dims.hidden {
            // First use: the bias, for an empty board.
            *sums = Aligned::from_slice(&net.ft_bias);
            *inputs = Inputs::default();
        }
        let mut delta = Delta::new();
        let mask = changed_cells(inputs, new);
        diff(inputs, new, rs, offsets, mask, |q, f, add| {
            if q == p {
                delta.push(q, f, add)
            }
        });
        if delta.overflow {
            diff(inputs, new, rs, offsets, mask, |q, f, add| {
                if q == p {
                    apply_row(sums, net.row(f), add)
                }
            });
        } else {
            apply_rows(sums, None, net, &delta, offsets, p, simd);
        }
        *inputs = *new;
        dst.copy_from_slice(sums);
    }
}

/// Bit `c` set for every cell `c` whose byte differs between `old` and `new`: SSE2's byte compare
/// and move-mask over the 128 bytes (part of every x86-64 CPU), or the same by word arithmetic.
#[inline]
pub(super) fn changed_cells(old: &Inputs, new: &Inputs) -> u128 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
        let (o, n) = (old.cells.as_ptr() as *const u8, new.cells.as_ptr() as *const u8);
        let mut equal = 0u128;
        for k in 0..8 {
            // SAFETY: SSE2 is part of x86-64; both arrays hold 128 bytes, read 16 at a time with
            // unaligned loads (no alignment needed).
            let m = unsafe {
                _mm_movemask_epi8(_mm_cmpeq_epi8(
                    _mm_loadu_si128(o.add(16 * k) as *const _),
                    _mm_loadu_si128(n.add(16 * k) as *const _),
                ))
            };
            equal |= ((m as u32 & 0xffff) as u128) << (16 * k);
        }
        !equal
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        changed_cells_portable(old, new)
    }
}

/// [`changed_cells`] by word arithmetic: per word of 8 cells, bit 7 of each differing byte,
/// gathered into 8 bits by a multiplication.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) fn changed_cells_portable(old: &Inputs, new: &Inputs) -> u128 {
    let mut mask = 0u128;
    for (k, (&o, &n)) in old.cells.iter().zip(&new.cells).enumerate() {
        let t = nonzero_bytes(o ^ n) >> 7;
        // Byte i's bit 0 to bit 56 + i, then down to bit i.
        let bits = t.wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= (bits as u128) << (8 * k);
    }
    mask
}

/// Calls `f(perspective, input, added)` for every input that differs between `old` and `new`,
/// whose changed cells are `mask` ([`changed_cells`]): per changed cell the old piece's inputs
/// removed, then the new one's added; each
/// perspective's counted from `offsets` (its king bucket's first input in `new`; a perspective
/// whose king changed bucket is refreshed instead); returns how many calls were made.
#[inline]
pub(super) fn diff(
    old: &Inputs,
    new: &Inputs,
    rs: Ruleset,
    offsets: [u16; 2],
    mut mask: u128,
    mut f: impl FnMut(usize, u16, bool),
) -> usize {
    let mut changed = 0;
    let views = [view(rs, Color::White), view(rs, Color::Black)];
    while mask != 0 {
        let c = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        changed += Inputs::cell_change(views, offsets, c, old.code(c), new.code(c), &mut f);
    }
    changed + reserve_diff(old.reserve, new.reserve, offsets, f)
}

/// Calls `f(perspective, input, added)` for every reserve input that differs between the
/// reserve masks `old` and `new` (white's and black's), counted from `offsets`; returns how many
/// calls were made.
#[inline]
pub(super) fn reserve_diff(
    old: [u8; 2],
    new: [u8; 2],
    offsets: [u16; 2],
    mut f: impl FnMut(usize, u16, bool),
) -> usize {
    if old == new {
        // Nearly every move: no reserve piece came into play.
        return 0;
    }
    let mut changed = 0;
    for side in Color::ALL {
        let (o, n) = (old[side.index()], new[side.index()]);
        for i in (0..3).filter(|i| (o ^ n) & (1 << i) != 0) {
            for p in Color::ALL {
                f(p.index(), reserve_input(p, side, i) + offsets[p.index()], n & (1 << i) != 0);
                changed += 1;
            }
        }
    }
    changed
}

/// Rows to add and subtract per perspective, at most [`Delta::CAP`] of each.
pub(super) struct Delta {
    /// `[2·perspective + added]`: the inputs, the first `len` of each written.
    lists: std::mem::MaybeUninit<[[u16; Delta::CAP]; 4]>,
    len: [usize; 4],
    overflow: bool,
}

impl Delta {
    /// A move changes at most 6 inputs per perspective and sign; a lazy stack catching up over
    /// several plies may need more.
    pub(super) const CAP: usize = 32;

    /// No rows (and no 256 bytes cleared per update).
    #[inline]
    fn new() -> Delta {
        Delta { lists: std::mem::MaybeUninit::uninit(), len: [0; 4], overflow: false }
    }

    #[inline]
    fn push(&mut self, p: usize, f: u16, add: bool) {
        let k = 2 * p + usize::from(add);
        let n = self.len[k];
        if n == Delta::CAP {
            self.overflow = true;
        } else {
            // SAFETY: `k < 4` and `n < CAP`: a place inside the lists.
            unsafe { (self.lists.as_mut_ptr() as *mut u16).add(k * Delta::CAP + n).write(f) };
            self.len[k] = n + 1;
        }
    }

    #[inline]
    fn rows(&self, p: usize, add: bool) -> &[u16] {
        let k = 2 * p + usize::from(add);
        // SAFETY: the first `len[k]` entries of list `k` were written by `push`.
        unsafe { std::slice::from_raw_parts((self.lists.as_ptr() as *const u16).add(k * Delta::CAP), self.len[k]) }
    }
}

/// Perspective `p`'s rows of `delta` into `dst`: `dst = src + Σ added rows − Σ removed rows`,
/// wrapping (`src` `None`: `dst` itself). Inlined whole (into [`Accumulator::update_avx2`]
/// too, around its call of the vector kernel).
#[inline(always)]
fn apply_rows(
    dst: &mut Aligned<i16>,
    src: Option<&Aligned<i16>>,
    net: &Network,
    delta: &Delta,
    offsets: [u16; 2],
    p: usize,
    simd: bool,
) {
    let h = net.dims.hidden;
    assert!(dst.len() == h && src.is_none_or(|s| s.len() == h));
    assert!(rows_lie_in(net, delta, offsets));
    let (adds, subs) = (delta.rows(p, true), delta.rows(p, false));
    #[cfg(target_arch = "x86_64")]
    if simd && has_simd() {
        let from = src.map_or(dst.as_ptr(), |s| s.as_ptr());
        // SAFETY: AVX2 is present; `from` and `dst` hold `hidden` values (a multiple of 16), and
        // every input's row lies in the weights (`rows_lie_in`, checked above). `from` may be
        // `dst`: each tile is read before it is written.
        return unsafe { simd::update(dst.as_mut_ptr(), from, h, &net.layout.ft, adds, subs) };
    }
    let _ = simd;
    if let Some(src) = src {
        dst.copy_from_slice(src);
    }
    for &f in adds {
        apply_row_portable(dst, net.row(f), true);
    }
    for &f in subs {
        apply_row_portable(dst, net.row(f), false);
    }
}

/// [`apply_rows`] for both perspectives (`src` `None`: `dst` itself), with one call of the
/// vector kernel for the two: the usual update, where no king changed bucket.
#[inline(always)]
fn apply_rows_both(
    dst: &mut [Aligned<i16>; 2],
    src: Option<&[Aligned<i16>; 2]>,
    net: &Network,
    delta: &Delta,
    offsets: [u16; 2],
    simd: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if simd && has_simd() {
        let h = net.dims.hidden;
        assert!(dst.iter().chain(src.into_iter().flatten()).all(|v| v.len() == h));
        assert!(rows_lie_in(net, delta, offsets));
        let from = |p: usize| src.map_or(dst[p].as_ptr(), |s| s[p].as_ptr());
        let (from, to) = ([from(0), from(1)], [dst[0].as_mut_ptr(), dst[1].as_mut_ptr()]);
        let rows = [0, 1].map(|p| [delta.rows(p, true), delta.rows(p, false)]);
        // SAFETY: as in `apply_rows`, for each perspective; the two accumulators are apart.
        return unsafe { simd::update_both(to, from, h, &net.layout.ft, rows) };
    }
    for (p, dst) in dst.iter_mut().enumerate() {
        apply_rows(dst, src.map(|s| &s[p]), net, delta, offsets, p, simd);
    }
}

/// Whether every row of `delta` lies in `net`'s weights, the lists being made with `offsets`
/// (each perspective's king bucket's first input): a row of perspective `p` lies in
/// `offsets[p]..offsets[p] + INPUTS` by construction ([`Inputs::cell_inputs`] and
/// [`reserve_diff`], from the tables checked by [`TABLES_WITHIN_INPUTS`]), so the offsets
/// bound them all, two compares instead of one per row (debug builds check each row too).
#[inline(always)]
fn rows_lie_in(net: &Network, delta: &Delta, offsets: [u16; 2]) -> bool {
    let n = net.dims.inputs();
    debug_assert!((0..2).all(|p| {
        let mut rows = delta.rows(p, true).iter().chain(delta.rows(p, false));
        rows.all(|&f| f >= offsets[p] && (f as usize) < offsets[p] as usize + INPUTS)
    }));
    offsets.iter().all(|&o| o as usize + INPUTS <= n)
}

/// `v += row`, or `v -= row` when not `add` (wrapping, as the quantized sums are defined).
#[inline]
fn apply_row(v: &mut [i16], row: &[i16], add: bool) {
    #[cfg(target_arch = "x86_64")]
    if has_simd() {
        // SAFETY: AVX2 is present; the loop is the portable one, compiled for AVX2.
        return unsafe { apply_row_avx2(v, row, add) };
    }
    apply_row_portable(v, row, add)
}

#[inline(always)]
fn apply_row_portable(v: &mut [i16], row: &[i16], add: bool) {
    if add {
        for (s, &w) in v.iter_mut().zip(row) {
            *s = s.wrapping_add(w);
        }
    } else {
        for (s, &w) in v.iter_mut().zip(row) {
            *s = s.wrapping_sub(w);
        }
    }
}

/// [`apply_row`]'s loops compiled with AVX2 (the same integer results, wider registers).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_row_avx2(v: &mut [i16], row: &[i16], add: bool) {
    apply_row_portable(v, row, add)
}
