//! Training the NNUE evaluator of the alpha-beta engine (the network itself, its inference and
//! its file format are [`crate::engine::nnue`]'s): [`datagen`] (training data from engine
//! self-play), [`settings`] (the trainer's settings, declared once for the command line, the
//! loop config and the trainer), `train` with `data` and `model` (the libtorch trainer: its
//! samples, the float network, the training loop; feature `torch`) and `reinforce` (the
//! generation loop with its SPRT gate, feature `torch`). `docs/NNUE.md` has the commands and
//! what was measured.

#[cfg(feature = "torch")]
pub mod data;
pub mod datagen;
#[cfg(feature = "torch")]
pub mod model;
#[cfg(feature = "torch")]
pub mod reinforce;
pub mod settings;
#[cfg(feature = "torch")]
pub mod train;
