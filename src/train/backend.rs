//! The training backends: the learner and the evaluator of the backend a training config names
//! (`network.backend`: `none` for the model-free [`NullLearner`], `torch` for the libtorch
//! network, which needs the `torch` feature).

use super::learner::{Learner, NullLearner};
use super::TrainError;
use crate::nn::{Evaluator, UniformEvaluator};
use crate::train::config::{BackendKind, TrainConfig};
use std::path::Path;

/// A fresh learner of the configured backend (seeded by the run's seed).
pub fn open_learner(cfg: &TrainConfig) -> Result<Box<dyn Learner>, TrainError> {
    match cfg.network.backend {
        BackendKind::None => Ok(Box::new(NullLearner::default())),
        BackendKind::Torch => torch_learner(cfg),
    }
}

/// The evaluator of a published network directory (`models/gen-NNNN`), for `threads` …
pub fn load_evaluator(cfg: &TrainConfig, dir: &Path) -> Result<Box<dyn Evaluator>, TrainError> {
    match cfg.network.backend {
        BackendKind::None => {
            NullLearner::check_published(dir)?;
            Ok(Box::new(UniformEvaluator::new()))
        }
        BackendKind::Torch => torch_evaluator(cfg, dir),
    }
}

#[cfg(feature = "torch")]
fn torch_learner(cfg: &TrainConfig) -> Result<Box<dyn Learner>, TrainError> {
    Ok(Box::new(super::torch_learner::TchLearner::new(cfg)?))
}

#[cfg(feature = "torch")]
fn torch_evaluator(cfg: &TrainConfig, dir: &Path) -> Result<Box<dyn Evaluator>, TrainError> {
    super::torch_learner::torch_evaluator(cfg, dir)
}

#[cfg(not(feature = "torch"))]
fn torch_learner(_cfg: &TrainConfig) -> Result<Box<dyn Learner>, TrainError> {
    Err(no_torch())
}

#[cfg(not(feature = "torch"))]
fn torch_evaluator(_cfg: &TrainConfig, _dir: &Path) -> Result<Box<dyn Evaluator>, TrainError> {
    Err(no_torch())
}

#[cfg(not(feature = "torch"))]
fn no_torch() -> TrainError {
    TrainError::Backend(
        "network.backend = \"torch\" but this build has no torch support; rebuild with the torch feature or set network.backend = \"none\"".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::replay::TrainBatch;

    #[test]
    fn the_null_learner_round_trips_its_state() {
        let t = tempfile::tempdir().unwrap();
        let mut l = NullLearner::default();
        let b = TrainBatch { n: 1, k: 2, move_mask: vec![true, true], policy: vec![0.5, 0.5], ..TrainBatch::default() };
        let s = l.step(&b, 0.1).unwrap();
        assert!((s.policy_loss - 2f64.ln()).abs() < 1e-9);
        l.save(t.path()).unwrap();
        let mut m = NullLearner::default();
        m.load(t.path()).unwrap();
        assert_eq!(m.steps(), 1);
        l.publish(t.path()).unwrap();
        let cfg = TrainConfig {
            network: crate::train::config::NetworkConfig { backend: BackendKind::None, ..Default::default() },
            ..Default::default()
        };
        assert_eq!(load_evaluator(&cfg, t.path()).unwrap().name(), "uniform");
    }
}
