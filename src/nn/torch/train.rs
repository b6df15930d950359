//! Training-step primitives: the tensor [`Batch`] layout, [`move_log_probs`] and the [`losses`].
//! The one trainer is [`crate::train::torch_learner::TchLearner`]: it fills a [`Batch`] from the
//! replay window's `TrainBatch`, runs the forward pass and these losses, and owns the optimizer
//! (AdamW or SGD, with its state in checkpoints). Its tests check this module too: the training
//! softmax equals [`crate::nn::policy::legal_policy`], and a tiny net overfits a few positions.
//!
//! # Losses
//! - **Policy**: cross-entropy between the sample's target distribution over its legal moves
//!   and the network's softmax over those same moves. A move's score is the sum of its logits
//!   ([`crate::nn::policy::PolicyIndex::score`]: main, plus placement and promotion where they
//!   apply), so this softmax is exactly [`crate::nn::policy::legal_policy`]'s.
//! - **WDL**: cross-entropy between the target WDL distribution and the value head's softmax.
//! - **Moves left**: Huber loss (δ = [`MOVES_LEFT_HUBER_DELTA`], in units of
//!   [`MOVES_LEFT_SCALE`](super::net::MOVES_LEFT_SCALE) plies) between the head's output and
//!   `target / MOVES_LEFT_SCALE`.
//! - **L2**: not a loss term; the learner's weight decay (convolution and linear weights only).
//!
//! Cross-entropies include the targets' entropy, so with soft targets they do not fall to zero;
//! [`Batch::target_entropy`] gives that floor.

use super::net::NetOutput;
use tch::{Kind, Reduction, Tensor};

/// Huber δ of the moves-left loss, in units of [`MOVES_LEFT_SCALE`](super::net::MOVES_LEFT_SCALE)
/// plies (0.1 = 10 plies).
pub const MOVES_LEFT_HUBER_DELTA: f64 = 0.1;

/// A batch of training positions as tensors on one device (filled by the learner from the replay
/// window's `TrainBatch`, which has the same layout).
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
    /// Target remaining plies / [`MOVES_LEFT_SCALE`](super::net::MOVES_LEFT_SCALE). `[n]`.
    pub moves_left: Tensor,
}

impl Batch {
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

/// The losses of network outputs `out` against the targets of `batch`. The policy term is the
/// mean over the items that have a policy target: a value-only sample's row of zeros adds
/// nothing, and does not dilute the others' (each target row sums to 1 or to 0).
pub fn losses(out: &NetOutput, batch: &Batch, w: &LossWeights) -> Losses {
    let with_target = batch.policy.sum(Kind::Float).clamp_min(1.0);
    let policy =
        -(move_log_probs(&out.policy, batch) * &batch.policy).sum_dim_intlist(-1, false, Kind::Float).sum(Kind::Float)
            / with_target;
    let wdl =
        -(out.wdl.log_softmax(-1, Kind::Float) * &batch.wdl).sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float);
    let moves_left = out.moves_left.huber_loss(&batch.moves_left, Reduction::Mean, MOVES_LEFT_HUBER_DELTA);
    let total = &policy * w.policy + &wdl * w.wdl + &moves_left * w.moves_left;
    Losses { policy, wdl, moves_left, total }
}
