//! An NNUE-style evaluator for alpha-beta: the feature set of the 125-cell board, the
//! quantized network, its file format, and an accumulator updated by feature differences.
//!
//! The parts: `features` (the inputs, the king buckets, the cells a move touches), `network`
//! (layer sizes, weights, their layout and the portable forward pass), `accumulator` (the
//! incremental sums and the king buckets' cache), `aligned` (the 32-byte aligned storage), `simd`
//! (the AVX2 and VNNI kernels, chosen at run time, equal to the portable code integer for
//! integer), `file` (the `.nnue` format), `bench` (the incremental-evaluation micro-benchmark)
//! and [`Stack`] (the accumulators along a search path, used by
//! [`crate::engine::Engine::set_network`] and the `ab:eval=nnue:FILE` players). Training is not
//! here: `crate::train::nnue` holds the data generation from engine self-play, the libtorch
//! trainer and the generation loop with its SPRT gate (the last two with feature `torch`).
//! `docs/NNUE.md` has the commands and what was measured; [`shipped`] is the network built into
//! the binary for a ruleset (Five Up and Raumschach; none for the 2001 Five Up text).
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
//! levels, 3 the two far levels. In Raumschach's training games (0.43 M perspectives)
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
//! the plain one (`docs/NNUE.md`); the shipped networks have one bucket.
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
//! walk's instructions per evaluation by a fifth (`docs/BENCHMARKS.md`). Where no
//! king changed bucket (nearly every update), both perspectives' rows go to the vector kernel
//! in one call, and the king buckets' offsets bound every row it reads (two compares, the
//! tables behind them checked at compile time: 10% fewer instructions per
//! evaluation with the 64-wide networks).
//!
//! # Speed
//! When a network is built its weights are also laid out for the kernels (`Layout`: 32-byte
//! aligned, dense layers chunk-major), the file keeping its order. Measured choices (see
//! `docs/NNUE.md`): no sparse first-layer input (with the shipped network 86% of the 512 inputs
//! and every chunk of 4 are non-zero), 256-bit rather than 512-bit `vpdpbusd`.
//!
//! [`Cell::rotate`]: crate::rules::Cell::rotate

mod accumulator;
mod aligned;
mod bench;
mod features;
mod file;
mod network;
mod shipped;
#[cfg(target_arch = "x86_64")]
mod simd;
mod stack;
#[cfg(test)]
mod tests;

pub use accumulator::{Accumulator, KingCache};
pub use aligned::{Aligned, Plain};
pub use bench::{benchmark_games, measured_walk, walk_starts, BenchGame};
pub use features::{
    active_features, king_bucket, king_bucket_of, orient, slot, touched_cells, Inputs, ANY_CELL, CELLS, INPUTS,
    KING_BUCKETS, RESERVE_BASE, RIGHTS_BASE, SLOTS,
};
pub use file::{NetworkFormatError, NnueError, MAGIC, VERSION};
pub use network::{
    bucket, dot, dot_scalar, has_simd, simd_name, Dims, Network, BUCKET_MEN, MAX_BUCKETS, MAX_DENSE, MAX_HIDDEN, QA, QB,
};
pub use shipped::{shipped, shipped_file, ships, ShippedError};
pub use stack::Stack;
