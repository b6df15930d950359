//! Training-step primitives for the trainer: a [`Batch`] built from samples, the [`losses`], and
//! a [`Trainer`] that takes optimizer steps. The replay window, checkpoints and the generation loop
//! belong to the trainer itself, not here.
//!
//! # Losses
//! - **Policy**: cross-entropy between the sample's target distribution over its legal moves
//!   and the network's softmax over those same moves. A move's score is the sum of its logits
//!   ([`crate::nn::policy::PolicyIndex::score`]: main, plus placement and promotion where they
//!   apply), so this softmax is exactly [`crate::nn::policy::legal_policy`]'s.
//! - **WDL**: cross-entropy between the target WDL distribution and the value head's softmax.
//! - **Moves left**: Huber loss (δ = [`MOVES_LEFT_HUBER_DELTA`], in units of
//!   [`MOVES_LEFT_SCALE`] plies) between the head's output and `target / MOVES_LEFT_SCALE`.
//! - **L2**: not a loss term; AdamW's decoupled weight decay.
//!
//! Cross-entropies include the targets' entropy, so with soft targets they do not fall to zero;
//! [`Batch::target_entropy`] gives that floor.

use super::model::Model;
use super::net::{NetOutput, MOVES_LEFT_SCALE};
use crate::nn::encode::{encode_batch, INPUT_SIZE, PLANES};
use crate::nn::policy::{indices_into, POLICY_SIZE};
use crate::rules::{Move, Position};
use tch::nn::OptimizerConfig;
use tch::{nn, Device, Kind, Reduction, TchError, Tensor};

/// Huber δ of the moves-left loss, in units of [`MOVES_LEFT_SCALE`] plies (0.1 = 10 plies).
pub const MOVES_LEFT_HUBER_DELTA: f64 = 0.1;

/// One training position and its targets.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// The position.
    pub position: &'a Position,
    /// How often it occurred before (for the repetition planes).
    pub repetitions: u32,
    /// Its legal moves.
    pub moves: &'a [Move],
    /// Target probability of each move of `moves` (same order, summing to 1).
    pub policy: &'a [f32],
    /// Target win/draw/loss probabilities for the side to move.
    pub wdl: [f32; 3],
    /// Target remaining plies.
    pub moves_left: f32,
}

/// A batch of samples as tensors on one device.
#[derive(Debug)]
pub struct Batch {
    /// Encoded inputs `[n, PLANES, 5, 5, 5]`.
    pub input: Tensor,
    /// For each item and legal move, the three flat indices its score sums (main, placement,
    /// promotion) into the batch's logits flattened to `n * POLICY_SIZE` and extended by one
    /// zero; absent parts and padding point at that zero. `[n, k, 3]`, `i64`, `k` = most legal
    /// moves of any item.
    pub move_index: Tensor,
    /// Which of the `k` slots are real moves. `[n, k]`, bool.
    pub move_mask: Tensor,
    /// Target move probabilities, 0 on padding. `[n, k]`.
    pub policy: Tensor,
    /// Target WDL. `[n, 3]`.
    pub wdl: Tensor,
    /// Target remaining plies / [`MOVES_LEFT_SCALE`]. `[n]`.
    pub moves_left: Tensor,
}

impl Batch {
    /// Builds a batch on `device`. Panics if a sample's `policy` and `moves` differ in length.
    pub fn new(samples: &[Sample<'_>], device: Device) -> Batch {
        let n = samples.len();
        let mut input = vec![0.0f32; n * INPUT_SIZE];
        encode_batch(samples.iter().map(|s| (s.position, s.repetitions)), &mut input);
        let k = samples.iter().map(|s| s.moves.len()).max().unwrap_or(0).max(1);
        let zero = (n * POLICY_SIZE) as i64;
        let mut index = vec![zero; n * k * 3];
        let mut mask = vec![false; n * k];
        let mut policy = vec![0.0f32; n * k];
        let mut indices = Vec::new();
        for (i, s) in samples.iter().enumerate() {
            assert_eq!(s.moves.len(), s.policy.len(), "sample {i}: one target probability per legal move");
            indices_into(s.position, s.moves, &mut indices);
            let base = (i * POLICY_SIZE) as i64;
            for (j, idx) in indices.iter().enumerate() {
                let slot = i * k + j;
                index[slot * 3] = base + idx.main as i64;
                index[slot * 3 + 1] = idx.placement.map_or(zero, |p| base + p as i64);
                index[slot * 3 + 2] = idx.promotion.map_or(zero, |p| base + p as i64);
                mask[slot] = true;
                policy[slot] = s.policy[j];
            }
        }
        let wdl: Vec<f32> = samples.iter().flat_map(|s| s.wdl).collect();
        let moves_left: Vec<f32> = samples.iter().map(|s| s.moves_left / MOVES_LEFT_SCALE as f32).collect();
        let (n, k) = (n as i64, k as i64);
        Batch {
            input: Tensor::from_slice(&input).view([n, PLANES as i64, 5, 5, 5]).to_device(device),
            move_index: Tensor::from_slice(&index).view([n, k, 3]).to_device(device),
            move_mask: Tensor::from_slice(&mask).view([n, k]).to_device(device),
            policy: Tensor::from_slice(&policy).view([n, k]).to_device(device),
            wdl: Tensor::from_slice(&wdl).view([n, 3]).to_device(device),
            moves_left: Tensor::from_slice(&moves_left).to_device(device),
        }
    }

    /// The targets' mean entropy `(policy, wdl)`: the floor of the two cross-entropies.
    pub fn target_entropy(&self) -> (f64, f64) {
        let h = |p: &Tensor| {
            let logp = p.clamp_min(1e-30).log();
            f64::try_from(-(p * logp).sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float)).unwrap_or(f64::NAN)
        };
        (h(&self.policy), h(&self.wdl))
    }
}

/// Log-probabilities of each item's legal moves under the network's policy, `[n, k]`, with
/// padding slots set to 0 (the softmax runs over the real moves only).
pub fn move_log_probs(policy_logits: &Tensor, batch: &Batch) -> Tensor {
    let flat = policy_logits.reshape([-1]);
    let ext = Tensor::cat(&[flat, policy_logits.zeros_like().reshape([-1]).narrow(0, 0, 1)], 0);
    let scores = ext.take(&batch.move_index).sum_dim_intlist(-1, false, Kind::Float);
    // A huge finite score rather than −∞: a row with no moves at all then gives zeros, not NaN.
    let scores = scores.masked_fill(&batch.move_mask.logical_not(), -1e30);
    scores.log_softmax(-1, Kind::Float).masked_fill(&batch.move_mask.logical_not(), 0.0)
}

/// The loss terms of one forward pass (scalar tensors, differentiable).
#[derive(Debug)]
pub struct Losses {
    /// Policy cross-entropy.
    pub policy: Tensor,
    /// WDL cross-entropy.
    pub wdl: Tensor,
    /// Moves-left Huber loss.
    pub moves_left: Tensor,
    /// The weighted sum that is minimised.
    pub total: Tensor,
}

/// Weights of the loss terms in [`Losses::total`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossWeights {
    /// Policy term.
    pub policy: f64,
    /// WDL term.
    pub wdl: f64,
    /// Moves-left term.
    pub moves_left: f64,
}

impl Default for LossWeights {
    fn default() -> Self {
        LossWeights { policy: 1.0, wdl: 1.0, moves_left: 1.0 }
    }
}

/// The losses of network outputs `out` against the targets of `batch`.
pub fn losses(out: &NetOutput, batch: &Batch, w: &LossWeights) -> Losses {
    let policy =
        -(move_log_probs(&out.policy, batch) * &batch.policy).sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float);
    let wdl =
        -(out.wdl.log_softmax(-1, Kind::Float) * &batch.wdl).sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float);
    let moves_left = out.moves_left.huber_loss(&batch.moves_left, Reduction::Mean, MOVES_LEFT_HUBER_DELTA);
    let total = &policy * w.policy + &wdl * w.wdl + &moves_left * w.moves_left;
    Losses { policy, wdl, moves_left, total }
}

/// Optimizer settings (AdamW).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptimConfig {
    /// Learning rate.
    pub lr: f64,
    /// Decoupled weight decay (the L2 term), per step scaled by `lr`.
    pub weight_decay: f64,
    /// Gradient-norm clip (`None`: no clipping).
    pub clip_norm: Option<f64>,
    /// Loss weights.
    pub loss_weights: LossWeights,
}

impl Default for OptimConfig {
    fn default() -> Self {
        OptimConfig { lr: 1e-3, weight_decay: 1e-4, clip_norm: Some(10.0), loss_weights: LossWeights::default() }
    }
}

/// The loss values of one step, as numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepStats {
    /// Policy cross-entropy.
    pub policy: f64,
    /// WDL cross-entropy.
    pub wdl: f64,
    /// Moves-left Huber loss.
    pub moves_left: f64,
    /// Weighted total.
    pub total: f64,
}

/// Takes optimizer steps on a model's trainable variables. The optimizer state lives here, not
/// in the model's files (a `VarStore` saves none).
pub struct Trainer {
    opt: nn::Optimizer,
    config: OptimConfig,
}

impl Trainer {
    /// An AdamW optimizer over `model`'s trainable variables.
    pub fn new(model: &Model, config: OptimConfig) -> Result<Trainer, TchError> {
        let opt = nn::AdamW { wd: config.weight_decay, ..Default::default() }.build(model.var_store(), config.lr)?;
        Ok(Trainer { opt, config })
    }

    /// Sets the learning rate.
    pub fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
        self.opt.set_lr(lr);
    }

    /// One step: forward in training mode, losses, backward, (clip,) update. Returns the losses
    /// before the update.
    pub fn step(&mut self, model: &Model, batch: &Batch) -> StepStats {
        let out = model.forward_t(&batch.input, true);
        let l = losses(&out, batch, &self.config.loss_weights);
        self.opt.zero_grad();
        l.total.backward();
        if let Some(max) = self.config.clip_norm {
            self.opt.clip_grad_norm(max);
        }
        self.opt.step();
        let v = |t: &Tensor| f64::try_from(t).unwrap_or(f64::NAN);
        StepStats { policy: v(&l.policy), wdl: v(&l.wdl), moves_left: v(&l.moves_left), total: v(&l.total) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::policy::legal_policy;
    use crate::nn::testutil::{all_variants, random_positions};
    use crate::nn::torch::net::NetConfig;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A position's legal moves and its targets: move probabilities, WDL, moves left.
    type Targets = (Vec<Move>, Vec<f32>, [f32; 3], f32);

    /// Positions from seeded random games with random targets: a peaked distribution over the
    /// legal moves (softmax of 3·N(0,1)), a random WDL and a random moves-left.
    fn samples(positions: &[Position], seed: u64) -> Vec<Targets> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut normal = move || (0..12).map(|_| rng.gen::<f32>()).sum::<f32>() - 6.0;
        positions
            .iter()
            .map(|p| {
                let moves = p.legal_moves();
                let w: Vec<f32> = moves.iter().map(|_| (3.0 * normal()).exp()).collect();
                let s: f32 = w.iter().sum();
                let wdl = [normal().exp(), normal().exp(), normal().exp()];
                let t = wdl.iter().sum::<f32>();
                let ml = 50.0 * (normal() + 3.0);
                (moves, w.iter().map(|x| x / s).collect(), [wdl[0] / t, wdl[1] / t, wdl[2] / t], ml)
            })
            .collect()
    }

    fn batch(positions: &[Position], targets: &[Targets]) -> Batch {
        let s: Vec<Sample<'_>> = positions
            .iter()
            .zip(targets)
            .map(|(p, (m, pol, wdl, ml))| Sample {
                position: p,
                repetitions: 0,
                moves: m,
                policy: pol,
                wdl: *wdl,
                moves_left: *ml,
            })
            .collect();
        Batch::new(&s, Device::Cpu)
    }

    #[test]
    fn the_training_softmax_is_legal_policy() {
        tch::manual_seed(4);
        let model = Model::new(&NetConfig::TINY, Device::Cpu).unwrap();
        for (i, v) in all_variants().into_iter().enumerate() {
            // Long games, so that placements and promotions (multi-logit moves) occur.
            let ps: Vec<Position> = random_positions(v, 70 + i as u64, 2, 200).into_iter().step_by(9).collect();
            let t = samples(&ps, 1);
            let b = batch(&ps, &t);
            let out = tch::no_grad(|| model.forward_t(&b.input, false));
            let logp = move_log_probs(&out.policy, &b);
            let logits = Vec::<f32>::try_from(out.policy.reshape([-1])).unwrap();
            let mut expected = Vec::new();
            for (j, (p, (moves, ..))) in ps.iter().zip(&t).enumerate() {
                legal_policy(p, moves, &logits[j * POLICY_SIZE..(j + 1) * POLICY_SIZE], &mut expected);
                let got = Vec::<f32>::try_from(logp.get(j as i64).exp()).unwrap();
                for (k, &e) in expected.iter().enumerate() {
                    assert!((got[k] - e).abs() < 1e-5, "{v} item {j} move {k}: {} vs {e}", got[k]);
                }
                assert!(got[moves.len()..].iter().all(|&x| x == 1.0), "padding slots hold log 0 = 1 after exp");
            }
        }
    }

    #[test]
    fn a_tiny_net_overfits_a_handful_of_positions() {
        tch::manual_seed(5);
        let ps: Vec<Position> =
            random_positions(crate::rules::Variant::default(), 11, 2, 40).into_iter().step_by(10).collect();
        assert_eq!(ps.len(), 8);
        let t = samples(&ps, 2);
        let b = batch(&ps, &t);
        let (hp, hw) = b.target_entropy();
        let model = Model::new(&NetConfig::TINY, Device::Cpu).unwrap();
        let cfg = OptimConfig { lr: 1e-2, weight_decay: 1e-4, ..Default::default() };
        let mut trainer = Trainer::new(&model, cfg).unwrap();
        // The excess over the entropy floor: KL divergences plus the moves-left loss.
        let excess = |s: &StepStats| (s.policy - hp) + (s.wdl - hw) + s.moves_left;
        let first = excess(&trainer.step(&model, &b));
        let mut last = first;
        for step in 0..400 {
            last = excess(&trainer.step(&model, &b));
            if last < first / 10.0 {
                eprintln!("overfit: excess loss {first:.4} -> {last:.4} in {} steps", step + 2);
                return;
            }
        }
        panic!("excess loss fell only from {first:.4} to {last:.4}");
    }
}
