//! The neural stack's model-free half: input planes, the move ↔ policy map, symmetries, and the
//! batch-first evaluator interface that search calls, for every game.
//!
//! # Layout
//! - [`netgame`]: the [`NetGame`] trait a game implements to be encoded (planes of a declared
//!   shape, a fixed policy space, its symmetry group as [`GameSymmetry`]) and the functions
//!   written once over it, re-exported here: [`encode_into`], [`encode_batch`],
//!   [`move_to_index`], [`index_to_move`], [`legal_policy`];
//! - the 5x5x5 games' implementation, in the three modules below (`fiveup` only wires them to
//!   the trait), [`quasi_alice`], 4D Quasi-Alice Chess on four 8x8 boards (planes
//!   `[25, 4, 8, 8]`, policy `[292, 4, 8, 8]`, board permutations and the file mirror), and
//!   [`mixed3d`], Mixed 3D Chess on the 8x8x8 cube (planes `[22, 8, 8, 8]`, policy
//!   `[221, 8, 8, 8]`, the file and level mirrors);
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
//! - **Generic over the game, monomorphised** (OpenSpiel's observation tensor and action space,
//!   Fairy-Stockfish's per-variant features): a game is its position type (a
//!   [`crate::game::State`]); implementing [`NetGame`] for it declares `PLANES`, the spatial
//!   `SHAPE` (5x5x5: `[5, 5, 5]`; Quasi-Alice: `[4, 8, 8]`), `POLICY_CHANNELS` over that shape,
//!   and supplies encode, move → [`PolicyIndex`], index → move and its symmetries. The
//!   evaluator interface is generic over the position type with the 5x5x5
//!   [`crate::rules::Position`] as the default parameter, so `dyn Evaluator`, `EvalInput<'_>` and
//!   `NetworkEvaluator<B>` still name the 5x5x5 ones and their callers did not change; the other
//!   game writes `Evaluator<quasi_alice::Position>` and builds
//!   `NetworkEvaluator::<_, quasi_alice::Position>::for_game(backend)` (`new` is the 5x5x5 one,
//!   as `HashMap::new` is the default hasher's). [`UniformEvaluator`] and [`EvalCache`] serve every
//!   game as they are (they need only the position's hash, clock and the moves' `Hash`). Nothing
//!   per position goes through `dyn`: the 5x5x5 planes, indices and symmetries are the same
//!   functions as before, reached through inlined trait calls.
//! - The constants and the functions of [`encode`], [`policy`] and [`symmetry`] (and the
//!   re-exported [`PLANES`], [`INPUT_SIZE`], [`POLICY_SIZE`], [`Symmetry`]) are the 5x5x5 games';
//!   code for any game reads `S::PLANES`, `S::POLICY_SIZE`, ... of its [`NetGame`].

pub mod cache;
pub mod encode;
pub mod evaluator;
mod fiveup;
pub mod mixed3d;
pub mod netgame;
pub mod network;
pub mod policy;
pub mod quasi_alice;
pub mod symmetry;
#[cfg(feature = "torch")]
pub mod torch;

#[cfg(test)]
pub(crate) mod testutil;

pub use cache::{CacheStats, EvalCache};
pub use encode::{Frame, CELLS, INPUT_SIZE, PLANES};
pub use evaluator::{EvalError, EvalInput, Evaluation, Evaluator, UniformEvaluator};
pub use netgame::{
    encode_batch, encode_into, index_to_move, indices_into, legal_policy, move_to_index, GameSymmetry, NetGame,
};
pub use network::{full_gather, full_gather_of, Backend, BackendOutput, NetworkEvaluator, ZeroBackend};
pub use policy::{PolicyIndex, POLICY_SIZE};
pub use symmetry::Symmetry;
