//! [`NetworkEvaluator`]: the evaluator built on a raw batch [`Backend`] (planes in, logits out).
//!
//! This is the seam for a real network (the tch model behind the `torch` feature implements
//! [`Backend`] and nothing else): encoding, the legal-move softmax and the WDL softmax live here,
//! in model-free code that [`ZeroBackend`] exercises in every test run. Like lc0's backends, a
//! backend sees a whole batch at once: `input` then `compute`, no per-position calls.

use super::encode::{encode_batch, INPUT_SIZE};
use super::evaluator::{reset_outputs, EvalInput, Evaluation, Evaluator};
use super::policy::{legal_policy, POLICY_SIZE};

/// Raw outputs of a backend for a batch of `n` positions.
#[derive(Clone, Debug, Default)]
pub struct BackendOutput {
    /// `n * POLICY_SIZE` policy logits, item after item, each in the layout of
    /// [`super::policy`].
    pub policy: Vec<f32>,
    /// `n * 3` WDL logits (win, draw, loss for the side to move), item after item.
    pub wdl: Vec<f32>,
    /// `n` moves-left estimates (plies).
    pub moves_left: Vec<f32>,
}

impl BackendOutput {
    /// Sizes every buffer for `n` items (contents unspecified until a backend writes them).
    pub fn resize(&mut self, n: usize) {
        self.policy.resize(n * POLICY_SIZE, 0.0);
        self.wdl.resize(n * 3, 0.0);
        self.moves_left.resize(n, 0.0);
    }
}

/// A raw network: encoded planes in, logits out, a batch at a time.
pub trait Backend: Send {
    /// Runs `n` encoded positions (`input.len() == n * INPUT_SIZE`, see [`super::encode`]) and
    /// fills `out`, which the caller has sized for `n` items with [`BackendOutput::resize`].
    /// A failure (device, shapes) is an error, never a panic.
    fn compute(&mut self, input: &[f32], n: usize, out: &mut BackendOutput) -> Result<(), super::EvalError>;

    /// A short description (network name, device).
    fn name(&self) -> String;

    /// The batch size the backend works best with.
    fn preferred_batch(&self) -> usize {
        1
    }
}

/// The model-free backend: every logit 0 (uniform policy over legal moves, WDL 1/3 each) and
/// moves-left 0. The twin of a real network for tests of the whole path.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroBackend;

impl Backend for ZeroBackend {
    fn compute(&mut self, input: &[f32], n: usize, out: &mut BackendOutput) -> Result<(), super::EvalError> {
        debug_assert_eq!(input.len(), n * INPUT_SIZE);
        out.policy.iter_mut().for_each(|x| *x = 0.0);
        out.wdl.iter_mut().for_each(|x| *x = 0.0);
        out.moves_left.iter_mut().for_each(|x| *x = 0.0);
        Ok(())
    }

    fn name(&self) -> String {
        "zero".to_string()
    }
}

/// An evaluator that encodes its batch, runs a [`Backend`] and turns the logits into a prior over
/// each item's legal moves and a WDL distribution. Its buffers grow to the largest batch seen and
/// are reused.
pub struct NetworkEvaluator<B> {
    backend: B,
    input: Vec<f32>,
    raw: BackendOutput,
}

impl<B: Backend> NetworkEvaluator<B> {
    /// Wraps a backend.
    pub fn new(backend: B) -> NetworkEvaluator<B> {
        NetworkEvaluator { backend, input: Vec::new(), raw: BackendOutput::default() }
    }

    /// The backend.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The backend, mutably (e.g. to load new weights).
    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }
}

/// Softmax of three logits.
pub fn softmax3(x: &[f32]) -> [f32; 3] {
    let m = x[0].max(x[1]).max(x[2]);
    let e = [(x[0] - m).exp(), (x[1] - m).exp(), (x[2] - m).exp()];
    let s = e[0] + e[1] + e[2];
    if s > 0.0 && s.is_finite() {
        [e[0] / s, e[1] / s, e[2] / s]
    } else {
        super::evaluator::NEUTRAL_WDL
    }
}

impl<B: Backend> Evaluator for NetworkEvaluator<B> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        let n = batch.len();
        reset_outputs(out, n);
        if n == 0 {
            return Ok(());
        }
        // 1. Encode the batch into one buffer.
        self.input.resize(n * INPUT_SIZE, 0.0);
        encode_batch(batch.iter().map(|b| (b.position, b.repetitions)), &mut self.input);
        // 2. One backend call.
        self.raw.resize(n);
        self.backend.compute(&self.input, n, &mut self.raw)?;
        // 3. Legal-move softmax and WDL per item.
        for (i, (input, e)) in batch.iter().zip(out.iter_mut()).enumerate() {
            let logits = &self.raw.policy[i * POLICY_SIZE..(i + 1) * POLICY_SIZE];
            legal_policy(input.position, input.moves, logits, &mut e.policy);
            e.wdl = softmax3(&self.raw.wdl[i * 3..i * 3 + 3]);
            e.moves_left = self.raw.moves_left[i];
        }
        Ok(())
    }

    fn name(&self) -> String {
        self.backend.name()
    }

    fn preferred_batch(&self) -> usize {
        self.backend.preferred_batch()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::cache::EvalCache;
    use crate::nn::evaluator::UniformEvaluator;
    use crate::nn::testutil::{all_variants, random_positions};

    #[test]
    fn zero_backend_matches_the_uniform_evaluator() {
        let mut net = EvalCache::new(NetworkEvaluator::new(ZeroBackend), 64);
        let mut uni = UniformEvaluator::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (i, v) in all_variants().into_iter().enumerate() {
            let ps = random_positions(v, 99 + i as u64, 1, 40);
            let moves: Vec<_> = ps.iter().map(|p| p.legal_moves()).collect();
            let batch: Vec<_> = ps.iter().zip(&moves).map(|(p, m)| EvalInput::new(p, 0, m)).collect();
            net.evaluate(&batch, &mut a).unwrap();
            uni.evaluate(&batch, &mut b).unwrap();
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x.policy.len(), y.policy.len());
                for (p, q) in x.policy.iter().zip(&y.policy) {
                    assert!((p - q).abs() < 1e-6);
                }
                assert!((x.value() - y.value()).abs() < 1e-6);
            }
        }
        assert_eq!(net.name(), "cache(zero)");
    }
}
