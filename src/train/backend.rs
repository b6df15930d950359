//! The training backends: the learner and the evaluator of the backend a training config names
//! (`network.backend`: `none` for the model-free [`NullLearner`], `torch` for the libtorch
//! network, which needs the `torch` feature).

use super::learner::{Learner, NullLearner};
use super::TrainError;
use crate::nn::{Evaluator, NetGame, UniformEvaluator};
use crate::train::config::{BackendKind, TrainConfig};
use std::path::Path;

/// A fresh learner of the configured backend for game `S` (seeded by the run's seed).
pub fn open_learner<S: NetGame>(cfg: &TrainConfig) -> Result<Box<dyn Learner>, TrainError> {
    match cfg.network.backend {
        BackendKind::None => Ok(Box::new(NullLearner::default())),
        BackendKind::Torch => torch_learner::<S>(cfg),
    }
}

/// The evaluator of a published network directory (`models/gen-NNNN`), for `threads` …
pub fn load_evaluator<S: NetGame>(cfg: &TrainConfig, dir: &Path) -> Result<Box<dyn Evaluator<S>>, TrainError> {
    match cfg.network.backend {
        BackendKind::None => {
            NullLearner::check_published(dir)?;
            Ok(Box::new(UniformEvaluator::new()))
        }
        BackendKind::Torch => torch_evaluator::<S>(cfg, dir),
    }
}

#[cfg(feature = "torch")]
fn torch_learner<S: NetGame>(cfg: &TrainConfig) -> Result<Box<dyn Learner>, TrainError> {
    let shape = crate::nn::torch::NetShape::of::<S>();
    Ok(Box::new(super::torch_learner::TchLearner::with_shape(cfg, shape)?))
}

#[cfg(feature = "torch")]
fn torch_evaluator<S: NetGame>(cfg: &TrainConfig, dir: &Path) -> Result<Box<dyn Evaluator<S>>, TrainError> {
    super::torch_learner::torch_evaluator::<S>(cfg, dir)
}

#[cfg(not(feature = "torch"))]
#[allow(clippy::extra_unused_type_parameters)] // the same signature as with the torch feature
fn torch_learner<S: NetGame>(_cfg: &TrainConfig) -> Result<Box<dyn Learner>, TrainError> {
    Err(no_torch())
}

#[cfg(not(feature = "torch"))]
fn torch_evaluator<S: NetGame>(_cfg: &TrainConfig, _dir: &Path) -> Result<Box<dyn Evaluator<S>>, TrainError> {
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
        assert_eq!(load_evaluator::<crate::rules::Position>(&cfg, t.path()).unwrap().name(), "uniform");
    }
}
