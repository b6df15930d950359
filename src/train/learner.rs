//! The learner interface (a network and its optimizer), the learning-rate schedule and the
//! model-free [`NullLearner`]. [`super::backend`] picks the implementation the config names.
//!
//! A learner owns its network and optimizer state; the generation loop only hands it batches,
//! asks it to save and load checkpoints (files of its own choosing inside a directory the loop
//! makes atomic), and to publish inference networks that [`super::backend::load_evaluator`] reads back. The tch
//! learner lives behind the `torch` feature; [`NullLearner`] is its twin for tests and for
//! builds without libtorch (the uniform evaluator plays, steps change nothing).

use super::replay::TrainBatch;
use super::TrainError;
use crate::train::config::{LrSchedule, TrainingSection};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The losses and accuracy of one step (before the update).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepStats {
    /// Policy cross-entropy.
    pub policy_loss: f64,
    /// WDL cross-entropy.
    pub value_loss: f64,
    /// Moves-left loss.
    pub moves_left_loss: f64,
    /// The weighted total.
    pub total_loss: f64,
    /// Share of items whose highest-target move is the network's most likely move.
    pub policy_accuracy: f64,
}

impl StepStats {
    /// The mean of several steps' statistics.
    pub fn mean(all: &[StepStats]) -> StepStats {
        let n = all.len().max(1) as f64;
        let sum = |f: fn(&StepStats) -> f64| all.iter().map(f).sum::<f64>() / n;
        StepStats {
            policy_loss: sum(|s| s.policy_loss),
            value_loss: sum(|s| s.value_loss),
            moves_left_loss: sum(|s| s.moves_left_loss),
            total_loss: sum(|s| s.total_loss),
            policy_accuracy: sum(|s| s.policy_accuracy),
        }
    }
}

/// A network with its optimizer: what the generation loop trains.
pub trait Learner {
    /// A short description (architecture, device).
    fn describe(&self) -> String;

    /// One optimizer step on `batch` at learning rate `lr`.
    fn step(&mut self, batch: &TrainBatch, lr: f64) -> Result<StepStats, TrainError>;

    /// Writes weights and optimizer state into the (existing, empty) directory `dir`.
    fn save(&self, dir: &Path) -> Result<(), TrainError>;

    /// Restores what [`Learner::save`] wrote into `dir`.
    fn load(&mut self, dir: &Path) -> Result<(), TrainError>;

    /// Replaces the weights with those of the published network `dir` (what
    /// [`Learner::publish`] writes), which must have this learner's architecture; the optimizer
    /// state starts afresh (`network.init`).
    fn init_from(&mut self, dir: &Path) -> Result<(), TrainError>;

    /// Writes the inference network into the (existing, empty) directory `dir`, in the form
    /// [`load_evaluator`] reads.
    fn publish(&self, dir: &Path) -> Result<(), TrainError>;
}

/// One training phase: the bootstrap network's training, or one generation's. The schedule
/// restarts with every phase, so a generation late in a run learns as fast as an early one (a
/// schedule on the run's absolute step decayed to a fraction of the peak after a few generations).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LrPhase {
    /// The run's step at which the phase began.
    pub start: u64,
    /// The phase's steps.
    pub len: u64,
    /// The phase's peak learning rate.
    pub peak: f64,
    /// Its schedule.
    pub schedule: LrSchedule,
    /// The run's step at which the linear warm-up of `lr_warmup_steps` begins: 0 for the
    /// bootstrap, and the first self-play training step (the bootstrap's last step + 1, or 0
    /// without a bootstrap) for the generations. The switch from the engine's data to self-play
    /// is where the optimizer meets a new distribution, with moments of the old one and a
    /// learning rate that jumps from the distillation's final fraction to the self-play peak.
    pub warmup_from: u64,
}

impl LrPhase {
    /// The phase of generation training from `start` to `target` under the training section,
    /// warming up from the run's step `warmup_from` (where self-play training began).
    pub fn generation(t: &TrainingSection, start: u64, target: u64, warmup_from: u64) -> LrPhase {
        LrPhase { start, len: target.saturating_sub(start), peak: t.lr, schedule: t.lr_schedule, warmup_from }
    }

    /// The bootstrap network's phase: `steps` steps from step 0 at `peak`, cosine to the final
    /// fraction (a supervised run over a fixed data set).
    pub fn bootstrap(steps: u64, peak: f64) -> LrPhase {
        LrPhase { start: 0, len: steps, peak, schedule: LrSchedule::Cosine, warmup_from: 0 }
    }
}

/// The learning rate at the run's step `step` (0-based) in `phase`: the phase's schedule on the
/// step within the phase (cosine: over the phase's length to `lr_final_fraction`; step: a drop
/// every `lr_decay_steps` steps of the phase), times a linear warm-up over the `lr_warmup_steps`
/// steps from the phase's `warmup_from` (the run's first steps, and again where self-play
/// training takes over from the bootstrap).
pub fn learning_rate(t: &TrainingSection, phase: &LrPhase, step: u64) -> f64 {
    let s = step.saturating_sub(phase.start) as f64;
    let f = match phase.schedule {
        LrSchedule::Constant => 1.0,
        LrSchedule::Cosine => {
            let x = (s / phase.len.max(1) as f64).min(1.0);
            t.lr_final_fraction + (1.0 - t.lr_final_fraction) * 0.5 * (1.0 + (std::f64::consts::PI * x).cos())
        }
        LrSchedule::Step => t.lr_final_fraction.powi((s / t.lr_decay_steps as f64).floor() as i32),
    };
    let w = step.saturating_sub(phase.warmup_from);
    let warm = if w < t.lr_warmup_steps { (w + 1) as f64 / t.lr_warmup_steps as f64 } else { 1.0 };
    phase.peak * f * warm
}

/// The learner of the `none` backend: no network. Steps report the losses of the uniform
/// policy and value (so metrics and plots have numbers) and change nothing but a step counter,
/// which it saves and restores like a real optimizer's state.
#[derive(Clone, Debug, Default)]
pub struct NullLearner {
    steps: u64,
}

/// What [`NullLearner`] saves.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct NullState {
    format: String,
    steps: u64,
}

/// The `format` of a `none` network's `net.json`.
pub const NULL_FORMAT: &str = "fiveup-none";

impl NullLearner {
    /// Checks that `dir` holds a published `none` network.
    pub fn check_published(dir: &Path) -> Result<(), TrainError> {
        let path = dir.join("net.json");
        let text = std::fs::read_to_string(&path).map_err(|e| TrainError::io(&path, e))?;
        if !text.contains(NULL_FORMAT) {
            return Err(TrainError::Corrupt { path, detail: format!("not a {NULL_FORMAT} network") });
        }
        Ok(())
    }

    /// Steps taken (restored from checkpoints).
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

impl Learner for NullLearner {
    fn describe(&self) -> String {
        "none (uniform evaluator, no-op steps)".into()
    }

    fn step(&mut self, batch: &TrainBatch, _lr: f64) -> Result<StepStats, TrainError> {
        self.steps += 1;
        let n = batch.n.max(1) as f64;
        let mut policy = 0.0;
        let mut acc = 0.0;
        for i in 0..batch.n {
            let legal = batch.move_mask[i * batch.k..(i + 1) * batch.k].iter().filter(|&&m| m).count().max(1);
            policy += (legal as f64).ln();
            // A uniform policy's top move is any legal move: expected accuracy 1 / legal moves.
            acc += 1.0 / legal as f64;
        }
        let value = 3f64.ln();
        Ok(StepStats {
            policy_loss: policy / n,
            value_loss: value,
            moves_left_loss: 0.0,
            total_loss: policy / n + value,
            policy_accuracy: acc / n,
        })
    }

    fn save(&self, dir: &Path) -> Result<(), TrainError> {
        let path = dir.join("learner.json");
        let text =
            serde_json::to_string(&NullState { format: NULL_FORMAT.into(), steps: self.steps }).expect("serialises");
        std::fs::write(&path, text).map_err(|e| TrainError::io(&path, e))
    }

    fn load(&mut self, dir: &Path) -> Result<(), TrainError> {
        let path = dir.join("learner.json");
        let text = std::fs::read_to_string(&path).map_err(|e| TrainError::io(&path, e))?;
        let s: NullState = serde_json::from_str(&text)
            .map_err(|e| TrainError::Corrupt { path: path.clone(), detail: e.to_string() })?;
        if s.format != NULL_FORMAT {
            return Err(TrainError::Corrupt {
                path,
                detail: format!("format {:?}, expected {NULL_FORMAT:?} (a checkpoint of another backend?)", s.format),
            });
        }
        self.steps = s.steps;
        Ok(())
    }

    fn init_from(&mut self, dir: &Path) -> Result<(), TrainError> {
        // A `none` network has no weights; what is checked is that `dir` is one.
        NullLearner::check_published(dir)
    }

    fn publish(&self, dir: &Path) -> Result<(), TrainError> {
        let path = dir.join("net.json");
        std::fs::write(&path, format!("{{\"format\": \"{NULL_FORMAT}\", \"version\": 1}}\n"))
            .map_err(|e| TrainError::io(&path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_warms_up_then_decays() {
        let mut t = TrainingSection {
            lr: 1.0,
            lr_warmup_steps: 10,
            lr_decay_steps: 100,
            lr_final_fraction: 0.1,
            ..TrainingSection::default()
        };
        t.lr_schedule = LrSchedule::Cosine;
        let boot = LrPhase::bootstrap(100, 1.0);
        assert!((learning_rate(&t, &boot, 0) - 0.1).abs() < 1e-12);
        assert!(
            (learning_rate(&t, &boot, 9) - 0.1 - 0.9 * 0.5 * (1.0 + (0.09 * std::f64::consts::PI).cos())).abs() < 1e-9
        );
        assert!((learning_rate(&t, &boot, 50) - 0.55).abs() < 1e-9);
        assert!((learning_rate(&t, &boot, 10_000) - 0.1).abs() < 1e-12);
        t.lr_decay_steps = 30;
        t.lr_schedule = LrSchedule::Step;
        let g = LrPhase::generation(&t, 1000, 1100, 0);
        assert!((learning_rate(&t, &g, 1029) - 1.0).abs() < 1e-12);
        assert!((learning_rate(&t, &g, 1030) - 0.1).abs() < 1e-12);
        t.lr_schedule = LrSchedule::Constant;
        assert_eq!(learning_rate(&t, &LrPhase::generation(&t, 4000, 4100, 0), 4050), 1.0);
    }

    #[test]
    fn every_generation_restarts_the_schedule_at_its_peak() {
        // The old schedule decayed on the run's absolute step: with a 4,000-step cosine, a
        // generation starting at step 3,000 trained at 0.18 of the peak. Now each generation
        // starts at the peak and ends at the final fraction, however late it comes.
        let t = TrainingSection {
            lr: 1.0,
            lr_warmup_steps: 100,
            lr_final_fraction: 0.1,
            lr_schedule: LrSchedule::Cosine,
            ..TrainingSection::default()
        };
        for start in [1_200u64, 3_000, 30_000] {
            let g = LrPhase::generation(&t, start, start + 140, 0);
            assert!((learning_rate(&t, &g, start) - 1.0).abs() < 1e-12, "{start}");
            assert!((learning_rate(&t, &g, start + 70) - 0.55).abs() < 1e-9, "{start}");
            assert!((learning_rate(&t, &g, start + 140) - 0.1).abs() < 1e-12, "{start}");
        }
    }

    #[test]
    fn self_play_training_warms_up_again_after_the_bootstrap() {
        // Before, the warm-up counted the run's first steps only: after a 1,000-step distillation
        // whose cosine ended at 0.1 of its peak, the first self-play step jumped to the full
        // self-play peak with the distillation's optimizer moments. Now it rises from there.
        let t = TrainingSection {
            lr: 1.0,
            lr_warmup_steps: 100,
            lr_final_fraction: 0.1,
            lr_schedule: LrSchedule::Constant,
            ..TrainingSection::default()
        };
        let boot = LrPhase::bootstrap(1_000, 4.0);
        assert!((learning_rate(&t, &boot, 999) - 0.4).abs() < 1e-4);
        let g0 = LrPhase::generation(&t, 1_000, 1_074, 1_000);
        assert!((learning_rate(&t, &g0, 1_000) - 0.01).abs() < 1e-12);
        assert!((learning_rate(&t, &g0, 1_049) - 0.5).abs() < 1e-12);
        // The warm-up runs on across generations, then the peak holds.
        let g1 = LrPhase::generation(&t, 1_074, 1_150, 1_000);
        assert!((learning_rate(&t, &g1, 1_098) - 0.99).abs() < 1e-12);
        assert_eq!(learning_rate(&t, &g1, 1_099), 1.0);
        // Without a bootstrap the run's first steps are the self-play ones.
        let g = LrPhase::generation(&t, 0, 50, 0);
        assert!((learning_rate(&t, &g, 0) - 0.01).abs() < 1e-12);
    }
}
