//! Bootstrap: supervised pre-training on alpha-beta games before self-play starts.

use super::learner::Learner;
use super::rundir::RunDir;
use super::TrainError;
use crate::config::TrainConfig;

/// Plays the bootstrap games and trains on them (advancing `step`).
pub fn run(
    _run: &RunDir,
    _cfg: &TrainConfig,
    _learner: &mut dyn Learner,
    _step: &mut u64,
    _hash: &str,
) -> Result<(), TrainError> {
    Err(TrainError::Player(
        "bootstrap needs the alpha-beta engine, which this build lacks; set bootstrap.enabled = false".into(),
    ))
}
