//! An NNUE-style evaluator for alpha-beta (issue 15): the feature set of the 125-cell board, the
//! quantized network, its file format, and an accumulator updated by feature differences.
//!
//! The parts: this module (inputs, network, accumulator, the portable inner loops), `simd` (the
//! AVX2 and VNNI kernels, chosen at run time, equal to the portable code integer for integer),
//! `file` (the `.nnue` format), [`datagen`] (training data from engine self-play), `train` (the
//! libtorch trainer, feature `torch`), `reinforce` (the generation loop with its SPRT gate,
//! feature `torch`) and [`Stack`] (the accumulators along a search path, used by
//! [`crate::engine::Engine::set_network`] and the `ab:eval=nnue:FILE` players). `docs/NNUE.md`
//! has the commands and what was measured; [`shipped`] is the network built into the binary for
//! a ruleset (Five Up and Raumschach; none for the 2001 Five Up text).
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
//! search's business).
//!
//! # King buckets (optional)
//! With [`Dims::kings`] = [`KING_BUCKETS`] every input above exists once per bucket of the
//! perspective's own king ([`king_bucket`]), so a network has `kings × 2,756` accumulator rows
//! (11,024 with four) and a perspective's active inputs are those of its king's bucket: what a
//! piece on a cell is worth can depend on where its side's king stands (Stockfish's HalfKA, with
//! few buckets for little data). The buckets are regions of the oriented board, counted from the
//! perspective's home level (Raumschach's level A, Five Up's level E) and back rank: 0 the king's
//! start cell, 1 the rest of the two home levels' two back ranks, 2 the rest of the three home
//! levels, 3 the two far levels. In Raumschach's training games (session 30, 0.43 M perspectives)
//! they hold 24%, 32%, 24% and 20% of the positions. An accumulator whose perspective's king
//! changed bucket is refreshed for that perspective: from the [`KingCache`] when the caller has
//! one (the search's [`Stack`] does), else from every active input's row; otherwise the update
//! is the same difference of rows. The trainer adds a factorizer: every input also has a
//! bucket-free row trained by all samples, added into each bucket's row on export.
//!
//! # Network
//! `INPUTS → hidden` per perspective (shared weights, `i16`, the accumulator), both accumulators
//! side to move first, clipped ReLU to `0..=127`, then `2·hidden → l1 → l2 → 1` dense layers
//! with `i8` weights and `i32` biases and clipped ReLU between them. Quantization (as in Stockfish's
//! first NNUE): activations in units of 1/[`QA`] (127 = 1.0), dense weights in units of
//! 1/[`QB`] (64 = 1.0), so a dense layer's sum is shifted right by 6 to return to activation
//! units; the output, in units of 1/(QA·QB), times `output_scale` is centipawns.
//!
//! Optionally ([`Dims::pairwise`], `fiveup nnue train --pairwise`) each perspective's `hidden`
//! values enter the dense layers as `hidden / 2` pairwise products, Stockfish's "pairwise
//! multiplication": `x[i] = (c(a[i]) · c(a[i + hidden/2])) >> 7` with `c` the clip to `0..=127`,
//! so `0..=126` in the same activation units (the float network computes `c(a)·c(b)·127/128`,
//! which the integers follow). The first dense layer then has `hidden` inputs instead of
//! `2·hidden`: half the work of the forward pass's largest layer for the same accumulator, and a
//! product of two units is a richer non-linearity than one clipped unit.
//!
//! Optionally the dense layers exist once per output bucket ([`Dims::buckets`], Stockfish's
//! layer stacks): a position is evaluated by the stack of its [`bucket`], by the men on the
//! board, counted from the accumulator's cell bytes. The accumulator is shared, so a bucket costs
//! memory, not time. Measured on Raumschach's 3 M training positions, no bucketed network beat
//! the plain one (`docs/NNUE.md`, session 28); the shipped networks have one bucket.
//!
//! # Accumulator
//! [`Accumulator`] keeps both perspectives' sums and the [`Inputs`] they came from (one byte per
//! cell: the position's code of the piece there, with a bit for its placement right; and the
//! reserve masks). [`Accumulator::update`] brings it to any other position by finding the cells
//! whose bytes differ (one 128-bit mask from SSE2 byte compares, 16 cells at a time; word
//! arithmetic elsewhere) and, for those few cells,
//! subtracting the rows of inputs that went away and adding those that appeared (a move changes
//! 2 to 8 per perspective: a placement that captures a piece with a right, 8);
//! [`Accumulator::update_from`] does the same from a parent accumulator into another (the
//! search's stack: each register tile of the parent is read once, every changed row applied,
//! the result stored once); [`Accumulator::update_cached`] also
//! takes a [`KingCache`] for perspectives whose king changed bucket, and the cells the moves in
//! between touched; [`Accumulator::refresh`] recomputes from scratch. Debug builds check every
//! update against a refresh.
//!
//! Updates derived from the moves: a move changes the bytes of its from and to cells only (a
//! capture, a promotion, a placement onto the from cell, a castling's king and rook, and every
//! placement right it takes or gives stand there; [`touched_cells`]), so the search's [`Stack`]
//! notes those cells per ply, and an update with a few touched cells (at most 8: a lazy stack
//! a few plies behind) rewrites just those bytes of the inputs in place and takes the changed
//! rows from them, instead of reading all 125 cells and comparing 128 bytes. An en passant
//! capture (its pawn stands on neither cell) and every caller that knows no moves compare all
//! cells ([`ANY_CELL`]). (From a parent's accumulator its inputs are copied first.) A test
//! checks over random games of every ruleset, taking each rare kind of move whenever it is
//! legal, that no move changes a byte outside its cells; with the 64-wide networks this cut the
//! walk's instructions per evaluation by a fifth (`docs/BENCHMARKS.md`, session 38). Where no
//! king changed bucket (nearly every update), both perspectives' rows go to the vector kernel
//! in one call, and the king buckets' offsets bound every row it reads (two compares, the
//! tables behind them checked at compile time; session 39: 10% fewer instructions per
//! evaluation with the 64-wide networks).
//!
//! # Speed
//! When a network is built its weights are also laid out for the kernels (`Layout`: 32-byte
//! aligned, dense layers chunk-major), the file keeping its order. Measured choices (see
//! `docs/NNUE.md`): no sparse first-layer input (with the shipped network 86% of the 512 inputs
//! and every chunk of 4 are non-zero), 256-bit rather than 512-bit `vpdpbusd`.

pub mod datagen;
mod file;
#[cfg(feature = "torch")]
pub mod reinforce;
#[cfg(target_arch = "x86_64")]
mod simd;
mod stack;
#[cfg(feature = "torch")]
pub mod train;

pub use file::{NnueError, MAGIC, VERSION};
pub use stack::Stack;

/// Centipawns per unit of the network's output: the sigmoid scale of the training targets
/// (`train`), and how MCTS reads an NNUE score as an expected score (`mcts::quiesce`).
pub const SCORE_SCALE: f32 = 400.0;

use crate::rules::position::piece_code;
use crate::rules::{Cell, Color, Kind, Move, Position, Ruleset, Special};
use rand::{Rng, SeedableRng};

/// Cells on the board.
pub const CELLS: usize = 125;
/// Piece slots per side.
pub const SLOTS: usize = 10;
/// First reserve input.
pub const RESERVE_BASE: usize = 2 * SLOTS * CELLS;
/// First placement-right input.
pub const RIGHTS_BASE: usize = RESERVE_BASE + 6;
/// Inputs per perspective (per king bucket).
pub const INPUTS: usize = RIGHTS_BASE + 2 * CELLS;
/// King buckets of a network that has them ([`Dims::kings`]; the other choice is 1, none).
pub const KING_BUCKETS: usize = 4;

/// The king bucket of a king on `cell` as its own side sees it (an [`orient`]ed index), in a
/// network of `kings` buckets (1 or [`KING_BUCKETS`]; see the module docs): 0 on the king's start
/// cell; 1 elsewhere on the two back ranks of the two home levels; 2 elsewhere on the three home
/// levels; 3 on the two far levels. Home is level A in Raumschach and level E in Five Up (where
/// each side's king starts in its own view).
pub const fn king_bucket(ruleset: Ruleset, kings: usize, cell: usize) -> usize {
    if kings == 1 {
        return 0;
    }
    let (level, rank, file) = (cell / 25, cell / 5 % 5, cell % 5);
    let depth = match ruleset {
        Ruleset::Raumschach => level,
        Ruleset::FiveUp | Ruleset::FiveUp2001 => 4 - level,
    };
    if depth == 0 && rank == 0 && file == 2 {
        0
    } else if depth <= 1 && rank <= 1 {
        1
    } else if depth <= 2 {
        2
    } else {
        3
    }
}

/// The king bucket of `perspective`'s king in `pos` ([`king_bucket`]).
pub fn king_bucket_of(pos: &Position, perspective: Color, kings: usize) -> usize {
    king_bucket(pos.ruleset(), kings, orient(pos.ruleset(), perspective, pos.king(perspective)))
}
/// The file of the network shipped for `ruleset`, built into the binary (`nets/`), if any.
pub fn shipped_file(ruleset: Ruleset) -> Option<&'static [u8]> {
    match ruleset {
        Ruleset::FiveUp => Some(include_bytes!("../../nets/nnue-fiveup.nnue")),
        Ruleset::Raumschach => Some(include_bytes!("../../nets/nnue-raumschach.nnue")),
        Ruleset::FiveUp2001 => None,
    }
}

/// Whether a network is shipped for `ruleset` ([`shipped`]).
pub fn ships(ruleset: Ruleset) -> bool {
    shipped_file(ruleset).is_some()
}

/// The network shipped for `ruleset` (`ab:eval=nnue`; the files in `nets/`, built into the
/// binary), or why there is none. Read and checked once per process.
pub fn shipped(ruleset: Ruleset) -> Result<std::sync::Arc<Network>, String> {
    use std::sync::{Arc, OnceLock};
    static CELLS: [OnceLock<Result<Arc<Network>, String>>; Ruleset::ALL.len()] =
        [const { OnceLock::new() }; Ruleset::ALL.len()];
    let Some(bytes) = shipped_file(ruleset) else {
        return Err(format!("no network is shipped for {ruleset} yet; name one with eval=nnue:FILE"));
    };
    CELLS[ruleset.index()]
        .get_or_init(|| {
            Network::from_bytes(bytes, Some(ruleset))
                .map(Arc::new)
                .map_err(|e| format!("the shipped {ruleset} network: {e}"))
        })
        .clone()
}

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

/// Boards behind the inputs: per side its ten piece slots, then its cells with placement rights.
const BOARDS: usize = 2 * (SLOTS + 1);

/// The board's 125 cells as bits (a mask of touched cells keeps only these).
const BOARD: u128 = (1 << CELLS) - 1;

/// "Any cell may have changed": the `touched` argument of [`Accumulator::update_cached`] when
/// the moves in between are not known (every cell's byte is compared).
pub const ANY_CELL: u128 = u128::MAX;

/// Most touched cells an update reads one at a time (a lazy stack up to four moves behind);
/// beyond it, it reads the whole position and compares all 128 bytes at once. Bound by the
/// assertion below: the touched way has no overflow path, so its changes must fit the lists.
const TOUCHED_ONE_BY_ONE: u32 = 8;

// So many cells change at most 2 inputs each per perspective and sign (a piece and its right),
// the reserves 6 more: the lists always hold them.
const _: () = assert!(2 * TOUCHED_ONE_BY_ONE as usize + 6 <= Delta::CAP);

/// The cells whose inputs move `m` can change: its from and to cells (a capture, a promotion, a
/// placement onto the from cell, a castling's king and rook, and every placement right the move
/// takes or gives stand there), or [`ANY_CELL`] for an en passant capture (the captured pawn
/// stands on neither; rare enough to compare every cell).
#[inline]
pub fn touched_cells(m: Move) -> u128 {
    match m.special() {
        Special::EnPassant => ANY_CELL,
        _ => 1 << m.from().index() | 1 << m.to().index(),
    }
}

/// Marks a cell code of [`Inputs`] whose piece still has its placement right.
const RIGHT: u8 = 0x80;

/// What the inputs of both perspectives are made of: per cell one byte, the position's code of
/// the piece standing there ([`Position::cell_codes`], 0 when empty) with [`RIGHT`] set when the
/// piece still has its placement right, and the reserve masks. Two positions' inputs differ
/// exactly on the cells whose bytes differ (and in the reserve), so an update reads the cells the
/// moves touched ([`touched_cells`]), or, not knowing the moves, compares the 128
/// bytes (16 at a time) and touches only the cells that changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Cell codes, eight to a word (cell `8k + i` in byte `i` of word `k`, little-endian), padded
    /// with zeros to 128 cells.
    cells: [u64; 16],
    /// Reserve masks (W = 1, G = 2, S = 4) of white and black.
    reserve: [u8; 2],
    /// The kings' cells, white's and black's (the king buckets).
    kings: [u8; 2],
}

impl Default for Inputs {
    /// An empty board, nothing in reserve.
    fn default() -> Inputs {
        Inputs { cells: [0; 16], reserve: [0; 2], kings: [0; 2] }
    }
}

/// Bit 7 of each byte of `w` that is not zero, the other bits clear (its low bits carry into
/// bit 7 without reaching the next byte, or bit 7 was set already).
#[inline]
fn nonzero_bytes(w: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    (((w & LOW) + LOW) | w) & !LOW
}

/// Per byte `b`, the word with [`RIGHT`] in byte `i` for each bit `i` of `b` (eight cells' rights
/// into their codes at once).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b] |= (RIGHT as u64) << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Per cell code of [`Inputs`] (without [`RIGHT`]), the board of the piece ([`BOARD_BASE`]'s
/// order: white's ten slots, white's rights, black's ten slots, black's rights), or `u8::MAX`
/// for a code no piece has.
const CODE_BOARD: [u8; 128] = {
    let mut t = [u8::MAX; 128];
    let mut color = 0;
    while color < 2 {
        let mut k = 0;
        while k < Kind::ALL.len() {
            let side = if color == 0 { Color::White } else { Color::Black };
            let kind = Kind::ALL[k];
            t[piece_code(crate::rules::Piece::new(side, kind)) as usize] = (color * (SLOTS + 1) + slot(kind)) as u8;
            k += 1;
        }
        color += 1;
    }
    t
};

impl Inputs {
    /// The inputs of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Inputs {
        let mut bytes = [0u8; 128];
        bytes[..CELLS].copy_from_slice(pos.cell_codes());
        // Rights stand on occupied cells only (the rules core clears them with the piece).
        let rights = pos.rights().0 & pos.occupied().0;
        let mut cells = [0u64; 16];
        for (k, (w, b)) in cells.iter_mut().zip(bytes.chunks_exact(8)).enumerate() {
            // Each right bit of the eight cells to bit 7 of its byte.
            *w = u64::from_le_bytes(b.try_into().expect("8 bytes")) | SPREAD[(rights >> (8 * k)) as usize & 0xff];
        }
        Inputs {
            cells,
            reserve: [pos.reserve(Color::White) & 7, pos.reserve(Color::Black) & 7],
            kings: [pos.king(Color::White).index() as u8, pos.king(Color::Black).index() as u8],
        }
    }

    /// Brings these inputs to `pos` by reading anew the cells of `touched` (which must hold
    /// every cell whose byte differs: the cells of the moves made since, [`touched_cells`]) and
    /// the reserves (the kings must be `pos`'s already), calling `f(perspective, input, added)`
    /// for every input that went away or appeared, as [`diff`] does, each perspective's counted
    /// from `offsets`. Returns how many calls were made.
    #[inline]
    fn rewrite(
        &mut self,
        pos: &Position,
        touched: u128,
        offsets: [u16; 2],
        mut f: impl FnMut(usize, u16, bool),
    ) -> usize {
        let rs = pos.ruleset();
        let views = [view(rs, Color::White), view(rs, Color::Black)];
        let (codes, rights) = (pos.cell_codes(), pos.rights().0);
        let mut changed = 0;
        let mut t = touched & BOARD;
        while t != 0 {
            let c = t.trailing_zeros() as usize;
            t &= t - 1;
            let code = codes[c];
            // Rights stand on occupied cells only, as in `Inputs::of`.
            let is = if code != 0 && rights >> c & 1 != 0 { code | RIGHT } else { code };
            let (k, shift) = (c / 8, 8 * (c % 8));
            let was = (self.cells[k] >> shift) as u8;
            if was != is {
                self.cells[k] = self.cells[k] & !(0xff << shift) | (is as u64) << shift;
                changed += Inputs::cell_change(views, offsets, c, was, is, &mut f);
            }
        }
        let reserve = [pos.reserve(Color::White) & 7, pos.reserve(Color::Black) & 7];
        changed += reserve_diff(self.reserve, reserve, offsets, f);
        self.reserve = reserve;
        changed
    }

    /// Men on the board (cells with a code).
    #[inline]
    fn men(&self) -> usize {
        self.cells.iter().map(|&w| nonzero_bytes(w).count_ones() as usize).sum()
    }

    /// The code of cell `c`.
    #[inline]
    fn code(&self, c: usize) -> u8 {
        (self.cells[c / 8] >> (8 * (c % 8))) as u8
    }

    /// The first input of each perspective's king bucket (`bucket × INPUTS`; 0 without king
    /// buckets), in a network of `kings` buckets.
    #[inline]
    fn offsets(&self, ruleset: Ruleset, kings: usize) -> [u16; 2] {
        if kings == 1 {
            return [0; 2];
        }
        let views = [view(ruleset, Color::White), view(ruleset, Color::Black)];
        [0, 1].map(|p| (king_bucket(ruleset, kings, views[p][self.kings[p] as usize] as usize) * INPUTS) as u16)
    }

    /// Calls `f(perspective, input)` for the inputs of cell `c` holding `code` (none when empty),
    /// each perspective's counted from its king bucket's first input (`offsets`).
    #[inline]
    fn cell_inputs(views: [&[u8; CELLS]; 2], offsets: [u16; 2], c: usize, code: u8, mut f: impl FnMut(usize, u16)) {
        if code == 0 {
            return;
        }
        let b = CODE_BOARD[(code & !RIGHT) as usize] as usize;
        debug_assert!(b < BOARDS, "cell code {code} of no piece");
        for p in 0..2 {
            let cell = views[p][c] as u16 + offsets[p];
            f(p, BOARD_BASE[b][p] + cell);
            if code & RIGHT != 0 {
                // The side's rights board follows its ten slots.
                f(p, BOARD_BASE[b - b % (SLOTS + 1) + SLOTS][p] + cell);
            }
        }
    }

    /// Calls `f(perspective, input, added)` for the inputs of cell `c` that go away when its code
    /// changes from `was` (`added` false), then for those that appear with `is` (`added` true);
    /// returns how many calls were made.
    #[inline(always)]
    fn cell_change(
        views: [&[u8; CELLS]; 2],
        offsets: [u16; 2],
        c: usize,
        was: u8,
        is: u8,
        mut f: impl FnMut(usize, u16, bool),
    ) -> usize {
        let mut changed = 0;
        Inputs::cell_inputs(views, offsets, c, was, |p, i| {
            f(p, i, false);
            changed += 1;
        });
        Inputs::cell_inputs(views, offsets, c, is, |p, i| {
            f(p, i, true);
            changed += 1;
        });
        changed
    }

    /// Calls `f(perspective, input)` for every active input of both perspectives, counted from
    /// each perspective's `offsets`.
    fn for_each(&self, ruleset: Ruleset, offsets: [u16; 2], mut f: impl FnMut(usize, u16)) {
        let views = [view(ruleset, Color::White), view(ruleset, Color::Black)];
        for c in 0..CELLS {
            Inputs::cell_inputs(views, offsets, c, self.code(c), &mut f);
        }
        for side in Color::ALL {
            for i in 0..3 {
                if self.reserve[side.index()] & (1 << i) != 0 {
                    for p in Color::ALL {
                        f(p.index(), reserve_input(p, side, i) + offsets[p.index()]);
                    }
                }
            }
        }
    }
}

/// Per board ([`Inputs`]' order) and perspective, the input of its cell 0 (the board's block
/// of 125 inputs).
const BOARD_BASE: [[u16; 2]; BOARDS] = {
    let mut t = [[0u16; 2]; BOARDS];
    let mut b = 0;
    while b < BOARDS {
        let white = b <= SLOTS;
        let k = b % (SLOTS + 1);
        let mut p = 0;
        while p < 2 {
            let their = (white != (p == 0)) as usize;
            t[b][p] = (if k == SLOTS { RIGHTS_BASE + their * CELLS } else { (their * SLOTS + k) * CELLS }) as u16;
            p += 1;
        }
        b += 1;
    }
    t
};

/// [`orient`] as tables: white's view, black's in Five Up (both editions) and in Raumschach.
const VIEWS: [[u8; CELLS]; 3] = {
    let mut t = [[0u8; CELLS]; 3];
    let mut i = 0;
    while i < CELLS {
        let c = Cell::new_unchecked(i as u8);
        t[0][i] = orient(Ruleset::FiveUp, Color::White, c) as u8;
        t[1][i] = orient(Ruleset::FiveUp, Color::Black, c) as u8;
        t[2][i] = orient(Ruleset::Raumschach, Color::Black, c) as u8;
        i += 1;
    }
    t
};

/// The table of [`orient`] for `perspective` in `ruleset`.
#[inline]
fn view(ruleset: Ruleset, perspective: Color) -> &'static [u8; CELLS] {
    match (perspective, ruleset) {
        (Color::White, _) => &VIEWS[0],
        (Color::Black, Ruleset::Raumschach) => &VIEWS[2],
        (Color::Black, _) => &VIEWS[1],
    }
}

/// The input of reserve piece `i` (W, G, S) of `side` seen from `perspective`.
#[inline]
fn reserve_input(perspective: Color, side: Color, i: usize) -> u16 {
    (RESERVE_BASE + usize::from(side != perspective) * 3 + i) as u16
}

/// Checked at compile time: every input of a cell ([`BOARD_BASE`] plus a cell of [`VIEWS`]) and
/// of the reserves lies below [`INPUTS`], so the inputs of a king bucket lie in its block of
/// `INPUTS` (what lets [`rows_lie_in`] bound the rows by the buckets' offsets alone).
const TABLES_WITHIN_INPUTS: () = {
    let mut b = 0;
    while b < BOARDS {
        assert!(BOARD_BASE[b][0] as usize + CELLS <= INPUTS && BOARD_BASE[b][1] as usize + CELLS <= INPUTS);
        b += 1;
    }
    let mut v = 0;
    while v < VIEWS.len() {
        let mut c = 0;
        while c < CELLS {
            assert!((VIEWS[v][c] as usize) < CELLS);
            c += 1;
        }
        v += 1;
    }
    assert!(RESERVE_BASE + 6 <= INPUTS);
};
const _: () = TABLES_WITHIN_INPUTS;

/// The active inputs of `pos` from `perspective`, sorted, without king buckets (the trainer
/// adds `bucket × INPUTS`, [`king_bucket_of`]).
pub fn active_features(pos: &Position, perspective: Color) -> Vec<u16> {
    let mut out = Vec::with_capacity(128);
    Inputs::of(pos).for_each(pos.ruleset(), [0; 2], |p, f| {
        if p == perspective.index() {
            out.push(f)
        }
    });
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
    /// Output buckets (1..=16): the dense layers exist once per bucket and a position is
    /// evaluated by the stack of its [`bucket`] (by the men on the board), as Stockfish's layer
    /// stacks; the accumulator is shared. 1 is the plain network.
    pub buckets: usize,
    /// King buckets: 1 (none) or [`KING_BUCKETS`], each input existing once per bucket of the
    /// perspective's king ([`king_bucket`]).
    pub kings: usize,
    /// Pairwise products: each perspective's accumulator enters the dense layers as `hidden / 2`
    /// products of its two halves' clipped values (`x[i]·x[i + hidden/2]`, Stockfish's pairwise
    /// multiplication) instead of `hidden` clipped values, so the first dense layer has `hidden`
    /// inputs, not `2·hidden` (module docs). `hidden` must then be a multiple of 32.
    pub pairwise: bool,
}

impl Dims {
    /// The first size: 2 × 256 accumulators, 32 and 32 dense units, one bucket.
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
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || self.hidden % 16 != 0 || self.hidden > MAX_HIDDEN {
            return Err(format!("hidden width {} is not a multiple of 16 from 16 to 1024", self.hidden));
        }
        for (name, n) in [("l1", self.l1), ("l2", self.l2)] {
            if !(1..=MAX_DENSE).contains(&n) {
                return Err(format!("{name} width {n} is not from 1 to 256"));
            }
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!("{} output buckets: expected 1 to {MAX_BUCKETS}", self.buckets));
        }
        if self.kings != 1 && self.kings != KING_BUCKETS {
            return Err(format!("{} king buckets: expected 1 (none) or {KING_BUCKETS}", self.kings));
        }
        if self.pairwise && self.hidden % 32 != 0 {
            return Err(format!("hidden width {} with pairwise products is not a multiple of 32", self.hidden));
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
    layout: Layout,
}

/// Plain integers that [`Aligned`] may hold (every bit pattern is a value).
pub trait Plain: Copy + Default + PartialEq + std::fmt::Debug + sealed::Sealed {}
impl Plain for i8 {}
impl Plain for i16 {}
impl Plain for i32 {}
mod sealed {
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
}

/// 32 bytes at a 32-byte boundary: the unit of [`Aligned`]'s storage.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Block([u8; 32]);

/// A vector of plain integers starting at a 32-byte boundary (it derefs to a slice), so that
/// the vector kernels load and store whole registers at aligned addresses (the x86-64-v2 build
/// splits unaligned 32-byte loads in two). The storage past the length stays zero.
#[derive(Default)]
pub struct Aligned<T: Plain> {
    blocks: Vec<Block>,
    len: usize,
    _t: std::marker::PhantomData<T>,
}

impl<T: Plain> Aligned<T> {
    /// `len` zeros.
    pub fn zeros(len: usize) -> Aligned<T> {
        let blocks = vec![Block::default(); (len * std::mem::size_of::<T>()).div_ceil(32)];
        Aligned { blocks, len, _t: std::marker::PhantomData }
    }

    /// A copy of `v`.
    pub fn from_slice(v: &[T]) -> Aligned<T> {
        let mut a = Aligned::zeros(v.len());
        a.copy_from_slice(v);
        a
    }
}

impl<T: Plain> std::ops::Deref for Aligned<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the blocks hold at least `len` values of `T` (any bit pattern is one), at an
        // alignment of 32, which is at least `T`'s.
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr() as *const T, self.len) }
    }
}

impl<T: Plain> std::ops::DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `self` is borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_mut_ptr() as *mut T, self.len) }
    }
}

impl<T: Plain> Clone for Aligned<T> {
    fn clone(&self) -> Self {
        Aligned { blocks: self.blocks.clone(), len: self.len, _t: std::marker::PhantomData }
    }

    /// Reuses this vector's memory.
    fn clone_from(&mut self, source: &Self) {
        self.blocks.clone_from(&source.blocks);
        self.len = source.len;
    }
}

impl<T: Plain> PartialEq for Aligned<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Plain + Eq> Eq for Aligned<T> {}

impl<T: Plain> std::fmt::Debug for Aligned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// The weights in the vector kernels' order and alignment, built when a network is built (the
/// file keeps the public fields' order). The accumulator rows are copied as they are (aligned);
/// the dense layers' weights are chunk-major: for every 4 consecutive inputs (a chunk), the 4
/// weights of output 0, then of output 1, …, outputs padded with zero weights (and biases) to
/// a multiple of 8. The kernel broadcasts a chunk's 4 activations and multiplies them by 8
/// outputs' weights per register, with no horizontal sums. One dense stack per output bucket.
#[derive(Clone, PartialEq, Default)]
struct Layout {
    ft: Aligned<i16>,
    dense: Vec<DenseLayout>,
    /// `output_scale` when it is a whole number from 1 to 65,536 (every shipped and trained
    /// network's): the evaluation's scaling is then done in integers, with the same results
    /// ([`Network::scale`]).
    whole_scale: Option<i64>,
}

/// One bucket's dense layers as the network's fields hold them ([`Network::stack`]).
struct DenseStack<'a> {
    l1_bias: &'a [i32],
    l1_weights: &'a [i8],
    l2_bias: &'a [i32],
    l2_weights: &'a [i8],
    out_bias: i32,
    out_weights: &'a [i8],
}

/// One bucket's dense layers in [`Layout`]'s order.
#[derive(Clone, PartialEq, Default)]
struct DenseLayout {
    l1: Aligned<i8>,
    l1_bias: Aligned<i32>,
    l2: Aligned<i8>,
    l2_bias: Aligned<i32>,
    /// The output layer's weights (`l2` of them) and bias, kept beside the others so that the
    /// forward pass reads no slices of the network's fields.
    out: Aligned<i8>,
    out_bias: i32,
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
fn chunk_major(w: &[i8], n_in: usize, n_out: usize) -> Aligned<i8> {
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
    fn with_layout(mut self) -> Network {
        self.layout = Layout::of(&self);
        self
    }

    /// The accumulator row of input `f`.
    #[inline]
    fn row(&self, f: u16) -> &[i16] {
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
    fn scale(&self, out: i32) -> i32 {
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
    fn scale_f64(&self, out: i32) -> i32 {
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
    fn forward_using(&self, kernel: simd::Kernel, acc: &Accumulator, stm: Color, bucket: usize) -> i32 {
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
    fn stack(&self, b: usize) -> DenseStack<'_> {
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

/// A game of the incremental-evaluation micro-benchmark ([`benchmark_games`]).
#[derive(Clone, Debug)]
pub struct BenchGame {
    /// The positions in order, the start first.
    pub positions: Vec<Position>,
    /// `moves[i]` leads from `positions[i]` to `positions[i + 1]`.
    pub moves: Vec<Move>,
}

/// The games of the incremental-evaluation micro-benchmark (`fiveup bench search --nnue`,
/// `examples/nnue_speed.rs`): random games of `ruleset` from its start (seed 1, at most 120 plies
/// each) until 20,000 positions.
pub fn benchmark_games(ruleset: Ruleset) -> Vec<BenchGame> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut games: Vec<BenchGame> = Vec::new();
    while games.iter().map(|g| g.positions.len()).sum::<usize>() < 20_000 {
        let mut p = Position::startpos(crate::rules::Variant::plain(ruleset));
        let mut game = BenchGame { positions: vec![p.clone()], moves: Vec::new() };
        for _ in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            p.make(m);
            game.positions.push(p.clone());
            game.moves.push(m);
        }
        games.push(game);
    }
    games
}

/// The accumulators of each of `games`' first positions, for [`measured_walk`] (computed before
/// its clock starts: a refresh is not an incremental evaluation).
pub fn walk_starts(net: &Network, games: &[BenchGame]) -> Vec<Accumulator> {
    games.iter().map(|g| Accumulator::refresh(net, &g.positions[0])).collect()
}

/// The incremental-evaluation micro-benchmark (`fiveup bench search --nnue`,
/// `examples/nnue_speed.rs`): along each of `games` from its accumulator in `starts`
/// ([`walk_starts`]), every move is followed by an accumulator update and an evaluation, as the
/// search does at a node that evaluates one move after its parent (the update reads the cells the
/// move touched, [`touched_cells`], as the search's [`Stack`] does, though in place where the
/// stack updates from a parent's accumulator into the next; a king crossing into another
/// bucket is refreshed from a [`KingCache`], as there; each game's start is copied, inside the
/// clock, as the search copies a parent's sums). Returns how many evaluations were made
/// and a checksum of them (equal checksums: equal results). Not inlined, so that a profiler can
/// count this part alone (`--toggle-collect='*measured_walk*'`).
#[inline(never)]
pub fn measured_walk(net: &Network, games: &[BenchGame], starts: &[Accumulator]) -> (usize, i64) {
    debug_assert_eq!(games.len(), starts.len(), "one start per game");
    let (mut evals, mut sum) = (0, 0i64);
    let mut cache = KingCache::default();
    for (game, start) in games.iter().zip(starts) {
        let mut acc = start.clone();
        for (p, &m) in game.positions[1..].iter().zip(&game.moves) {
            acc.update_cached(None, net, p, touched_cells(m), true, Some(&mut cache));
            sum = sum.wrapping_mul(31).wrapping_add(net.evaluate(&acc, p.side()) as i64);
            evals += 1;
        }
    }
    (evals, sum)
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

/// Both perspectives' first-layer sums and the inputs they came from.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct Accumulator {
    /// Sums per perspective (white's, black's), `hidden` each, bias included.
    pub values: [Aligned<i16>; 2],
    inputs: Inputs,
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
fn changed_cells(old: &Inputs, new: &Inputs) -> u128 {
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
fn changed_cells_portable(old: &Inputs, new: &Inputs) -> u128 {
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
fn diff(
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
fn reserve_diff(old: [u8; 2], new: [u8; 2], offsets: [u16; 2], mut f: impl FnMut(usize, u16, bool)) -> usize {
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
struct Delta {
    /// `[2·perspective + added]`: the inputs, the first `len` of each written.
    lists: std::mem::MaybeUninit<[[u16; Delta::CAP]; 4]>,
    len: [usize; 4],
    overflow: bool,
}

impl Delta {
    /// A move changes at most 6 inputs per perspective and sign; a lazy stack catching up over
    /// several plies may need more.
    const CAP: usize = 32;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scrambled;
    use crate::rules::{Bitboard, Variant};

    const SMALL: Dims = Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false };

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

    /// The inputs cell by cell, straight from the definition (what the bitset code must equal).
    fn features_by_cell(pos: &Position, perspective: Color) -> Vec<u16> {
        let mut out = Vec::new();
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

    #[test]
    fn inputs_follow_the_cell_by_cell_definition() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            for seed in 0..40 {
                let p = scrambled(Variant::plain(rs), seed as usize % 30, seed);
                for side in Color::ALL {
                    assert_eq!(active_features(&p, side), features_by_cell(&p, side), "{rs} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn king_buckets_are_regions_of_the_home_levels() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let start = Position::startpos(Variant::plain(rs));
            let of = |c: usize| king_bucket(rs, KING_BUCKETS, c);
            let mut sizes = [0; KING_BUCKETS];
            for c in 0..CELLS {
                sizes[of(c)] += 1;
                assert_eq!(king_bucket(rs, 1, c), 0);
            }
            // The start cell alone; 2 levels × 2 ranks less it; the rest of 3 levels; 2 levels.
            assert_eq!(sizes, [1, 19, 55, 50], "{rs}");
            for side in Color::ALL {
                assert_eq!(king_bucket_of(&start, side, KING_BUCKETS), 0, "{rs} {side:?}");
                // One step forward (to the next level, or the next rank): bucket 1.
                let home = orient(rs, side, start.king(side));
                let up = if rs == Ruleset::Raumschach { home + 25 } else { home - 25 };
                assert_eq!((of(home + 5), of(up)), (1, 1), "{rs}");
            }
        }
        assert!(Dims { kings: 2, ..Dims::DEFAULT }.check().is_err());
        assert!(Dims { kings: 0, ..Dims::DEFAULT }.check().is_err());
        assert_eq!(Dims { kings: 4, ..Dims::DEFAULT }.inputs(), 4 * INPUTS);
        assert_eq!(Dims { kings: 4, ..Dims::DEFAULT }.to_string(), "256x2-32-32 with 4 king buckets");
        let pw = Dims { pairwise: true, ..Dims::DEFAULT };
        assert_eq!((pw.to_string().as_str(), pw.ft_out(), pw.dense_inputs()), ("256x2p-32-32", 128, 256));
        assert_eq!(Dims::DEFAULT.dense_inputs(), 512);
        assert!(Dims { hidden: 48, ..pw }.check().unwrap_err().contains("not a multiple of 32"));
        assert!(Dims { hidden: 64, ..pw }.check().is_ok());
        assert_eq!(
            Dims { kings: 4, buckets: 2, ..Dims::DEFAULT }.to_string(),
            "256x2-32-32 with 2 output and 4 king buckets"
        );
    }

    #[test]
    fn changed_cells_are_the_cells_whose_bytes_differ() {
        let check = |a: &Inputs, b: &Inputs| {
            let want = (0..128).filter(|&c| a.code(c) != b.code(c)).fold(0u128, |m, c| m | 1 << c);
            assert_eq!(changed_cells(a, b), want, "{a:?} {b:?}");
            assert_eq!(changed_cells_portable(a, b), want, "{a:?} {b:?}");
        };
        // Scrambled positions of both rulesets against each other: from no change to most cells.
        let inputs: Vec<Inputs> = [Ruleset::FiveUp, Ruleset::Raumschach]
            .into_iter()
            .flat_map(|rs| {
                (0..12u64).map(move |seed| Inputs::of(&scrambled(Variant::plain(rs), seed as usize * 3, seed)))
            })
            .collect();
        for a in &inputs {
            for b in &inputs {
                check(a, b);
            }
        }
        // One byte changed by one bit pattern, in every cell: a placement right alone (0x80),
        // the lowest bit, everything but the right, everything.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let base = Inputs { cells: std::array::from_fn(|_| rng.gen()), ..Inputs::default() };
        for c in 0..128 {
            for bits in [0x80u64, 0x01, 0x7f, 0xff] {
                let mut b = base;
                b.cells[c / 8] ^= bits << (8 * (c % 8));
                check(&base, &b);
                assert_eq!(changed_cells(&base, &b), 1 << c);
            }
        }
        // Random words against random words.
        for _ in 0..200 {
            let b = Inputs { cells: std::array::from_fn(|_| rng.gen::<u64>() & rng.gen::<u64>()), ..base };
            check(&base, &b);
        }
    }

    #[test]
    fn a_move_changes_the_inputs_of_its_touched_cells_only() {
        // Random games of every ruleset (Five Up with castling and on the hypercylinder too),
        // taking a rare move (en passant, castling, a placement, a promotion) whenever one is
        // legal, so that each kind is met many times.
        let variants = [
            Variant::plain(Ruleset::FiveUp),
            Variant::plain(Ruleset::Raumschach),
            Variant::plain(Ruleset::FiveUp2001),
            Variant::new(Ruleset::FiveUp, true, false).expect("castling"),
            Variant::new(Ruleset::FiveUp, false, true).expect("hypercylinder"),
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut seen = [0usize; 6]; // en passant, castling, placement, promotion, capture, other
        for v in variants {
            for _ in 0..40 {
                let mut p = Position::startpos(v);
                for _ in 0..150 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let rare = |m: &Move| {
                        m.special() == Special::EnPassant
                            || m.special() == Special::Castle
                            || m.placement().is_some()
                            || m.promotion().is_some()
                    };
                    let m = match moves.iter().find(|m| rare(m)) {
                        Some(&m) if rng.gen_bool(0.7) => m,
                        _ => moves[rng.gen_range(0..moves.len())],
                    };
                    let kind = match m {
                        m if m.special() == Special::EnPassant => 0,
                        m if m.special() == Special::Castle => 1,
                        m if m.placement().is_some() => 2,
                        m if m.promotion().is_some() => 3,
                        m if p.piece_at(m.to()).is_some() => 4,
                        _ => 5,
                    };
                    seen[kind] += 1;
                    let before = Inputs::of(&p);
                    p.make(m);
                    let after = Inputs::of(&p);
                    let touched = touched_cells(m);
                    let changed = changed_cells(&before, &after);
                    assert_eq!(changed & !touched, 0, "{m} changed cells it does not touch");
                    if touched != ANY_CELL {
                        // Rewriting the touched cells gives the new inputs and the same
                        // differences as comparing every cell.
                        let (mut by_move, mut by_cells) = (Vec::new(), Vec::new());
                        let mut rewritten = before;
                        rewritten.kings = after.kings;
                        rewritten.rewrite(&p, touched, [0; 2], |q, f, add| by_move.push((q, f, add)));
                        assert_eq!(rewritten, after, "{m}");
                        diff(&before, &after, p.ruleset(), [0; 2], changed, |q, f, add| by_cells.push((q, f, add)));
                        by_move.sort_unstable();
                        by_cells.sort_unstable();
                        assert_eq!(by_move, by_cells, "{m}");
                    }
                }
            }
        }
        // (With this seed: 15 en passant captures, 1,545 castlings, 960 placements, 45 promotions.)
        assert!(seen.iter().all(|&n| n >= 10), "moves of each kind: {seen:?}");
    }

    #[test]
    fn the_benchmark_walk_evaluates_as_fresh_accumulators_do() {
        // The walk updates in place from each move's touched cells; its checksum must be that of
        // evaluations from scratch (and debug builds check every update against a refresh).
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let net = Network::random(rs, Dims { hidden: 64, l1: 16, l2: 32, pairwise: true, ..SMALL }, 9);
            let games: Vec<BenchGame> = benchmark_games(rs).into_iter().take(20).collect();
            let (evals, sum) = measured_walk(&net, &games, &walk_starts(&net, &games));
            let mut want = (0, 0i64);
            for g in &games {
                for p in &g.positions[1..] {
                    want.1 = want.1.wrapping_mul(31).wrapping_add(net.evaluate_position(p) as i64);
                    want.0 += 1;
                }
            }
            assert_eq!((evals, sum), want, "{rs}");
        }
    }

    #[test]
    fn incremental_updates_match_a_refresh_along_random_games() {
        for (rs, kings) in [Ruleset::FiveUp, Ruleset::Raumschach].into_iter().flat_map(|r| [(r, 1), (r, KING_BUCKETS)])
        {
            let net = Network::random(rs, Dims { kings, ..SMALL }, 3);
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
    fn vector_and_scalar_paths_give_identical_results() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for n in [32, 64, 512, 2048] {
            for round in 0..50 {
                // Random values, then the extremes (where a 16-bit pair sum is largest).
                let (input, row): (Vec<u8>, Vec<i8>) = match round {
                    0 => (vec![127; n], vec![-128; n]),
                    1 => (vec![127; n], vec![127; n]),
                    _ => ((0..n).map(|_| rng.gen_range(0..=127)).collect(), (0..n).map(|_| rng.gen()).collect()),
                };
                assert_eq!(dot(&input, &row), dot_scalar(&input, &row), "n {n} round {round}");
            }
        }
        #[cfg(target_arch = "x86_64")]
        let kernels = simd::Kernel::available();
        #[cfg(target_arch = "x86_64")]
        eprintln!("kernels on this CPU: {kernels:?}");
        for (k, dims) in SHAPES.into_iter().enumerate() {
            for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
                for (wide, net) in [false, true].map(|w| (w, test_network(rs, dims, 21 + k as u64, w))) {
                    for seed in 0..40 {
                        let p = scrambled(Variant::plain(rs), seed as usize % 35, seed);
                        let acc = Accumulator::refresh(&net, &p);
                        for side in Color::ALL {
                            assert_eq!(
                                net.evaluate_with(&acc, side, true),
                                net.evaluate_with(&acc, side, false),
                                "{dims:?} {rs} wide {wide} seed {seed}"
                            );
                            // Every kernel on every bucket's stack (not only the position's).
                            #[cfg(target_arch = "x86_64")]
                            for &k in &kernels {
                                for b in 0..dims.buckets {
                                    assert_eq!(
                                        net.forward_using(k, &acc, side, b),
                                        net.forward_using(simd::Kernel::Portable, &acc, side, b),
                                        "{k:?} {dims:?} bucket {b} {rs} wide {wide} seed {seed}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        eprintln!("vector instructions on this CPU: {}", has_simd());
    }

    /// Layer sizes the kernels must handle: the shipped shape, small ones, widths that are not
    /// multiples of the register blocks (8, 16 and 32 outputs, 32 accumulator values), and
    /// output buckets (16 buckets put the scrambled positions' 36–40 men in two of them), and
    /// king buckets, and pairwise products (halves of 16, 32 and 48 values: the vector pass's
    /// 16-value tail and its 32-value body).
    const SHAPES: [Dims; 16] = [
        Dims::DEFAULT,
        Dims { hidden: 128, l1: 32, l2: 32, buckets: 1, kings: 1, pairwise: false },
        Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false },
        Dims { hidden: 16, l1: 1, l2: 1, buckets: 1, kings: 1, pairwise: false },
        Dims { hidden: 48, l1: 7, l2: 5, buckets: 1, kings: 1, pairwise: false },
        Dims { hidden: 80, l1: 40, l2: 33, buckets: 1, kings: 1, pairwise: false },
        Dims { hidden: 64, l1: 72, l2: 64, buckets: 1, kings: 1, pairwise: false },
        Dims { hidden: 64, l1: 16, l2: 16, buckets: 16, kings: 1, pairwise: false },
        Dims { hidden: 96, l1: 56, l2: 24, buckets: 3, kings: 1, pairwise: false },
        Dims { hidden: 256, l1: 32, l2: 32, buckets: 8, kings: 1, pairwise: false },
        Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: KING_BUCKETS, pairwise: false },
        Dims { hidden: 144, l1: 16, l2: 8, buckets: 3, kings: KING_BUCKETS, pairwise: false },
        Dims { hidden: 256, l1: 32, l2: 32, buckets: 1, kings: 1, pairwise: true },
        Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: true },
        Dims { hidden: 96, l1: 16, l2: 8, buckets: 2, kings: 1, pairwise: true },
        Dims { hidden: 64, l1: 7, l2: 5, buckets: 1, kings: KING_BUCKETS, pairwise: true },
    ];

    /// [`Network::random`], or with `wide` weights over the whole `i8` range and accumulator
    /// rows large enough that many values clip at 0 and at 127 (and sums wrap in 16 bits).
    fn test_network(rs: Ruleset, dims: Dims, seed: u64, wide: bool) -> Network {
        let mut net = Network::random(rs, dims, seed);
        if wide {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xA11);
            for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
                *w = rng.gen_range(-3000..=3000);
            }
            for w in net.l1_weights.iter_mut().chain(&mut net.l2_weights).chain(&mut net.out_weights) {
                *w = rng.gen();
            }
            for b in net.l1_bias.iter_mut().chain(&mut net.l2_bias) {
                *b = rng.gen_range(-20_000..=20_000);
            }
            net = net.with_layout();
        }
        net
    }

    #[test]
    fn vector_and_portable_updates_match_a_refresh() {
        // Along random games: in place and from a parent, one move at a time and several at
        // once (a lazy stack catching up; the longest jumps overflow the change lists).
        for (k, dims) in SHAPES.into_iter().enumerate() {
            for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
                let net = test_network(rs, dims, 40 + k as u64, k % 2 == 1);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(k as u64);
                let mut line = vec![Position::startpos(Variant::plain(rs))];
                // The cells each move touched (`touched[k]`: the move into `line[k]`).
                let mut touched = vec![ANY_CELL];
                for _ in 0..80 {
                    let mut p = line.last().unwrap().clone();
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.gen_range(0..moves.len())];
                    p.make(m);
                    line.push(p);
                    touched.push(touched_cells(m));
                }
                let accs: Vec<Accumulator> = line.iter().map(|p| Accumulator::refresh(&net, p)).collect();
                // King caches kept over all the updates below (per vector choice).
                let mut caches = [KingCache::default(), KingCache::default()];
                if dims.kings > 1 {
                    // The line moves a king across buckets (so refreshes by perspective are tested).
                    let buckets = |p: &Position| Color::ALL.map(|c| king_bucket_of(p, c, dims.kings));
                    let moves = line.windows(2).filter(|w| buckets(&w[0]) != buckets(&w[1])).count();
                    assert!(moves > 0, "{dims:?} {rs}: no king changed bucket");
                }
                for to in 1..line.len() {
                    for jump in [1, 2, 3, 4, 5, 7, 40, 80].into_iter().filter(|&j| j <= to) {
                        let (from, want) = (&accs[to - jump], &accs[to]);
                        for simd in [true, false] {
                            let mut a = Accumulator::default();
                            a.update_with(Some(from), &net, &line[to], simd);
                            assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd}");
                            let mut a = from.clone();
                            a.update_with(None, &net, &line[to], simd);
                            assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} in place");
                            let cache = Some(&mut caches[usize::from(simd)]);
                            let mut a = Accumulator::default();
                            a.update_cached(Some(from), &net, &line[to], ANY_CELL, simd, cache);
                            assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} cached");
                            // Reading only the cells the moves in between touched.
                            let cells = touched[to - jump + 1..=to].iter().fold(0, |t, &c| t | c);
                            let cache = Some(&mut caches[usize::from(simd)]);
                            let mut a = Accumulator::default();
                            a.update_cached(Some(from), &net, &line[to], cells, simd, cache);
                            assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} touched");
                            let cache = Some(&mut caches[usize::from(simd)]);
                            let mut a = from.clone();
                            a.update_cached(None, &net, &line[to], cells, simd, cache);
                            assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} touched, in place");
                        }
                    }
                }
                // From nothing (the bias only): every input is new, more than the lists hold.
                let empty = Accumulator {
                    values: [Aligned::from_slice(&net.ft_bias), Aligned::from_slice(&net.ft_bias)],
                    inputs: Inputs::default(),
                };
                for (k, (p, want)) in line.iter().zip(&accs).enumerate().step_by(10) {
                    for simd in [true, false] {
                        let mut a = Accumulator::default();
                        let changed = a.update_with(Some(&empty), &net, p, simd);
                        assert!(k > 0 || changed > 2 * Delta::CAP, "the start overflows the lists");
                        assert_eq!(a, *want, "{dims:?} {rs} from nothing, simd {simd}");
                    }
                }
                // The refresh itself against the sums by definition.
                for (p, acc) in line.iter().zip(&accs) {
                    for side in Color::ALL {
                        let mut v = net.ft_bias.clone();
                        let offset = (king_bucket_of(p, side, dims.kings) * INPUTS) as u16;
                        for f in active_features(p, side) {
                            for (s, &w) in v.iter_mut().zip(net.row(f + offset)) {
                                *s = s.wrapping_add(w);
                            }
                        }
                        assert_eq!(*acc.values[side.index()], v[..]);
                    }
                }
            }
        }
    }

    #[test]
    fn buckets_divide_the_men_evenly() {
        let of = |b: usize| (1..=40).map(|m| bucket(m, b)).collect::<Vec<_>>();
        assert!(of(1).iter().all(|&b| b == 0));
        let eight = of(8);
        for (m, &b) in (1..=40).zip(&eight) {
            assert_eq!(b, (m - 1) / 5, "{m} men");
        }
        assert_eq!(of(16).iter().max(), Some(&15));
        assert_eq!(bucket(0, 8), 0);
        assert_eq!(bucket(55, 8), 7, "more men than Raumschach's start: the last bucket");
        assert!(Dims { buckets: 0, ..Dims::DEFAULT }.check().is_err());
        assert!(Dims { buckets: 17, ..Dims::DEFAULT }.check().is_err());
        assert_eq!(Dims { buckets: 8, ..Dims::DEFAULT }.to_string(), "256x2-32-32 with 8 output buckets");
        assert_eq!(Dims::DEFAULT.to_string(), "256x2-32-32");
    }

    /// Bucket `b` of `net` as a network of its own (its dense stack, the shared accumulator).
    fn bucket_net(net: &Network, b: usize) -> Network {
        let s = net.stack(b);
        Network {
            dims: Dims { buckets: 1, ..net.dims },
            l1_bias: s.l1_bias.to_vec(),
            l1_weights: s.l1_weights.to_vec(),
            l2_bias: s.l2_bias.to_vec(),
            l2_weights: s.l2_weights.to_vec(),
            out_bias: vec![s.out_bias],
            out_weights: s.out_weights.to_vec(),
            ..net.clone()
        }
        .with_layout()
    }

    #[test]
    fn each_position_is_evaluated_by_the_stack_of_its_bucket() {
        use crate::engine::random_endgame;
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let v = Variant::plain(rs);
            let net =
                test_network(rs, Dims { hidden: 64, l1: 16, l2: 8, buckets: 8, kings: 1, pairwise: false }, 7, false);
            let singles: Vec<Network> = (0..8).map(|b| bucket_net(&net, b)).collect();
            // Endgames of 2 to 28 men, and positions from the start (36 to 40 men).
            let mut positions: Vec<Position> = (0..14)
                .filter_map(|k| {
                    let men = [Kind::Pawn, Kind::Knight, Kind::Rook, Kind::Bishop].repeat(4);
                    random_endgame(v, &men[..k], &men[..k], 100 + k as u64)
                })
                .collect();
            positions.extend((0..10).map(|seed| scrambled(v, 20 + 4 * seed as usize, seed)));
            let mut used = std::collections::BTreeSet::new();
            let mut differ = 0;
            for p in &positions {
                let acc = Accumulator::refresh(&net, p);
                let men = p.occupied().0.count_ones() as usize;
                assert_eq!(acc.inputs.men(), men, "{rs}");
                let b = bucket(men, 8);
                used.insert(b);
                for simd in [true, false] {
                    let want = singles[b].evaluate_with(&Accumulator::refresh(&singles[b], p), p.side(), simd);
                    assert_eq!(net.evaluate_with(&acc, p.side(), simd), want, "{rs} {men} men, simd {simd}");
                }
                // Another bucket's stack gives another score (the test would pass vacuously if
                // all stacks were alike); a position may score alike by chance.
                differ += usize::from(singles[(b + 1) % 8].evaluate_position(p) != net.evaluate_position(p));
            }
            assert!(used.len() >= 5, "{rs}: buckets {used:?}");
            assert!(differ * 4 >= positions.len() * 3, "{rs}: {differ} of {} differ", positions.len());
        }
    }

    #[test]
    fn layouts_put_every_weight_in_its_place() {
        let w: Vec<i8> = (0..7 * 10).map(|i| i as i8 + 1).collect();
        let v = chunk_major(&w, 10, 7); // 10 inputs → 3 chunks, 7 outputs → 8
        assert_eq!(v.len(), 3 * 8 * 4);
        for j in 0..8 {
            for i in 0..12 {
                let want = if j < 7 && i < 10 { w[j * 10 + i] } else { 0 };
                assert_eq!(v[((i / 4) * 8 + j) * 4 + i % 4], want, "output {j} input {i}");
            }
        }
        let a = Aligned::<i16>::from_slice(&[1, 2, 3]);
        assert_eq!(a.as_ptr() as usize % 32, 0);
        assert_eq!(&*a, &[1, 2, 3]);
    }

    #[test]
    fn integer_scaling_rounds_as_the_float_scaling() {
        let d = (QA * QB) as i64;
        for scale in [400.0f32, 361.0, 1.0, 8_128.0, 65_536.0, 287.5, 65_537.0, -400.0] {
            let mut net = Network::random(Ruleset::FiveUp, SMALL, 1);
            net.output_scale = scale;
            let net = net.with_layout();
            let whole = (1.0..=65_536.0).contains(&scale) && scale.fract() == 0.0;
            assert_eq!(net.layout.whole_scale.is_some(), whole, "scale {scale}");
            if !whole {
                continue;
            }
            let s = scale as i64;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
            // Outputs whose quotient is an exact half (`out · s ≡ d/2 mod d`), and their neighbours.
            let ties: Vec<i32> = (-(1i64 << 20)..(1 << 20))
                .filter(|&o| (o * s).rem_euclid(d) == d / 2)
                .take(2_000)
                .flat_map(|o| [o - 1, o, o + 1, -o])
                .map(|o| o as i32)
                .collect();
            assert!(scale == 8_128.0 || scale == 65_536.0 || !ties.is_empty(), "scale {scale}: no ties");
            let outs: Vec<i32> = (-20_000..20_000)
                .chain(ties)
                .chain((0..40_000).map(|k| {
                    if k % 2 == 0 {
                        rng.gen::<i32>()
                    } else {
                        rng.gen_range(-(1 << 24)..(1 << 24))
                    }
                }))
                .chain([i32::MAX, i32::MIN, i32::MAX - 1, i32::MIN + 1])
                .collect();
            for out in outs {
                assert_eq!(net.scale(out), net.scale_f64(out), "scale {scale} out {out}");
            }
        }
    }

    #[test]
    fn the_integer_forward_pass_follows_the_float_network() {
        for pairwise in [false, true] {
            integer_forward_follows_float(Dims { pairwise, ..SMALL });
        }
    }

    fn integer_forward_follows_float(dims: Dims) {
        let net = Network::random(Ruleset::FiveUp, dims, 9);
        for seed in 0..20 {
            let p = scrambled(Variant::plain(Ruleset::FiveUp), 10 + seed as usize, seed);
            // The same network in floating point: activations in 0..=1, weights / 64.
            let acc = Accumulator::refresh(&net, &p);
            let h = dims.hidden;
            let mut x: Vec<f64> = Vec::new();
            for side in [p.side(), p.side().flip()] {
                let v: Vec<f64> =
                    acc.values[side.index()].iter().map(|&v| (v as f64 / 127.0).clamp(0.0, 1.0)).collect();
                match dims.pairwise {
                    // The trainer's products: c(a)·c(b)·127/128.
                    true => x.extend((0..h / 2).map(|i| v[i] * v[i + h / 2] * 127.0 / 128.0)),
                    false => x.extend(v),
                }
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
            assert_eq!(x.len(), dims.dense_inputs());
            let y1 = layer(&x, &net.l1_weights, &net.l1_bias);
            let y2 = layer(&y1, &net.l2_weights, &net.l2_bias);
            let out: f64 = y2.iter().zip(&net.out_weights).map(|(a, &w)| a * w as f64 / 64.0).sum::<f64>()
                + net.out_bias[0] as f64 / (127.0 * 64.0);
            let want = out * net.output_scale as f64;
            let got = net.evaluate(&acc, p.side()) as f64;
            // Rounding of the shifts: a few centipawns at most on this scale.
            assert!((got - want).abs() <= 0.03 * want.abs().max(100.0), "{dims}: {got} vs {want}");
        }
    }
}
