//! The tch (libtorch) network behind the `torch` feature: architecture, weights files, the
//! inference backend and the training-step primitives.
//!
//! - [`net`]: the layers ([`Net`], [`NetConfig`]): a residual tower of 3D convolutions with
//!   squeeze-excitation, a convolutional policy head, WDL and moves-left heads; sized for a game
//!   by its [`NetShape`] (the 5x5x5 games' by default; Quasi-Alice's four boards as a set, with
//!   per-board convolutions, board mixing, a pair policy head and board-pooled value heads);
//! - [`model`]: [`Model`] = layers + `VarStore`; the build function shared by fresh and loaded
//!   networks; safetensors weights with a `net.json` architecture sidecar; [`ModelError`];
//! - [`backend`]: [`TorchBackend`], the [`crate::nn::Backend`] that
//!   [`crate::nn::NetworkEvaluator`] wraps; thread settings;
//! - [`train`]: the tensor batch layout and the losses (the optimizer is the learner's:
//!   `crate::train::torch_learner`);
//! - [`bench`]: throughput at several batch sizes (`fiveup bench nn`).
//!
//! Nothing outside this module (and the trainer, `crate::train`) names tch: search sees an
//! [`crate::nn::Evaluator`]. In tch a tensor is `Send` but not `Sync`, and `no_grad` guards are
//! per thread: one thread owns a model and runs its batches.

pub mod backend;
pub mod bench;
pub mod model;
pub mod net;
pub mod train;

pub use backend::{default_device, set_threads, TorchBackend};
pub use model::{Model, ModelError};
pub use net::{BlockKind, Net, NetConfig, NetOutput, NetShape};
