//! The neural stack's model-free half: input planes, the move ↔ policy map, symmetries, and the
//! batch-first evaluator interface that search calls.
//!
//! # Layout
//! - [`encode`]: `(position, repetitions)` → `f32` planes `[PLANES, 5, 5, 5]` in the mover's frame
//!   (a pure function; a batch encoder writes into a caller's buffer without allocating);
//! - [`policy`]: every legal move ↔ a [`policy::PolicyIndex`] into [`policy::POLICY_SIZE`] logits
//!   laid out `[165, 5, 5, 5]`, and the softmax over exactly the legal moves;
//! - [`symmetry`]: file mirror (every ruleset) and file rotations (hypercylinder), applied alike to
//!   positions, moves, planes and policy vectors;
//! - [`evaluator`]: the [`Evaluator`] trait, its inputs and outputs, and [`UniformEvaluator`];
//! - [`cache`]: [`EvalCache`], a bounded cache in front of any evaluator;
//! - [`network`]: [`NetworkEvaluator`] over a raw [`Backend`] (planes in, logits out) and the
//!   model-free [`ZeroBackend`];
//! - `torch` (behind the `torch` feature): the tch network, whose `TorchBackend` implements
//!   [`Backend`] only, and the training-step primitives.
//!
//! # Design
//! - **Batch-first** (lc0's backend interface, KataGo's batching evaluator): a network on an
//!   accelerator is efficient only on batches, so the one call search makes,
//!   [`Evaluator::evaluate`], takes a whole batch of leaves and answers each with a prior over
//!   the legal moves it was given, a WDL and a moves-left estimate. A single position is a batch
//!   of one. Outputs go into a caller-kept `Vec` whose buffers are reused.
//! - **Search never sees the backend**: MCTS holds a `dyn Evaluator` (or a generic one) and cannot
//!   tell a network from a cache or from [`UniformEvaluator`]; every network path has a
//!   model-free twin ([`UniformEvaluator`], [`ZeroBackend`]) so search, self-play and CI run with
//!   no network at all.
//! - **One thread owns a model**: evaluators are `Send`, not `Sync` (a tch tensor is `Send`
//!   only). Parallel self-play runs several games in lockstep on one thread, or sends leaves to
//!   the thread that owns the evaluator; it never shares one evaluator between threads.
//! - **Priors are over the given move list**: the evaluator never generates moves itself, so the
//!   prior's order is the caller's order, and the cache keys on the move list too.
//! - Encoding and the policy map are **pure functions** of the position (plus the repetition
//!   count), tested exhaustively on random games of every variant, so self-play, training and
//!   inference cannot disagree about them.

pub mod cache;
pub mod encode;
pub mod evaluator;
pub mod network;
pub mod policy;
pub mod symmetry;
#[cfg(feature = "torch")]
pub mod torch;

#[cfg(test)]
pub(crate) mod testutil;

pub use cache::{CacheStats, EvalCache};
pub use encode::{encode_batch, encode_into, Frame, CELLS, INPUT_SIZE, PLANES};
pub use evaluator::{EvalError, EvalInput, Evaluation, Evaluator, UniformEvaluator};
pub use network::{full_gather, Backend, BackendOutput, NetworkEvaluator, ZeroBackend};
pub use policy::{index_to_move, legal_policy, move_to_index, PolicyIndex, POLICY_SIZE};
pub use symmetry::Symmetry;
