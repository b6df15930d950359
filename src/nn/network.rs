//! [`NetworkEvaluator`]: the evaluator built on a raw batch [`Backend`] (planes in, logits out).
//!
//! This is the seam for a real network (the tch model behind the `torch` feature implements
//! [`Backend`] and nothing else): encoding, the legal-move softmax and the WDL softmax live here,
//! in model-free code that [`ZeroBackend`] exercises in every test run. Like lc0's backends, a
//! backend sees a whole batch at once: `input` then `compute`, no per-position calls.
//!
//! The evaluator asks the backend only for the policy logits the legal moves use (a *gather*
//! list of flat indices, one to three per move), not for the whole 20,625-logit output: on a
//! GPU the full output is 82.5 KB per position to copy to the host, which capped the whole
//! evaluation path at 10–24 k positions/s while the forward pass ran at 0.7 M
//! (docs/BENCHMARKS.md). With the gather the backend can select the logits on the
//! device and copy about 1% of the output.
//!
//! The evaluator is generic over the game ([`NetGame`]; the 5x5x5 [`Position`] by default): it
//! encodes with the game's planes and gathers with its policy map. A backend is a raw network
//! and knows no game: it must have been built for the planes and policy size of the game whose
//! evaluator wraps it ([`NetGame::INPUT_SIZE`], [`NetGame::POLICY_SIZE`]).

use super::evaluator::{reset_outputs, EvalInput, Evaluation, Evaluator};
use super::netgame::{encode_batch, move_to_index, softmax_in_place, NetGame, PolicyIndex};
use super::policy::POLICY_SIZE;
use crate::rules::Position;
use std::marker::PhantomData;

/// Raw outputs of a backend for a batch of `n` positions.
#[derive(Clone, Debug, Default)]
pub struct BackendOutput {
    /// The policy logits asked for, one per entry of the gather list given to
    /// [`Backend::compute`]: `policy[k]` is item `i`'s logit `j` (in the layout of
    /// [`super::policy`]) where `gather[k] == i * POLICY_SIZE + j`.
    pub policy: Vec<f32>,
    /// `n * 3` WDL logits (win, draw, loss for the side to move), item after item.
    pub wdl: Vec<f32>,
    /// `n` moves-left estimates (plies).
    pub moves_left: Vec<f32>,
}

impl BackendOutput {
    /// Sizes every buffer for `n` items and `gathered` policy logits (contents unspecified until
    /// a backend writes them).
    pub fn resize(&mut self, n: usize, gathered: usize) {
        self.policy.resize(gathered, 0.0);
        self.wdl.resize(n * 3, 0.0);
        self.moves_left.resize(n, 0.0);
    }
}

/// The gather list that asks for every policy logit of `n` items of the 5x5x5 games, item after
/// item (what a caller that wants the whole policy output passes to [`Backend::compute`]).
pub fn full_gather(n: usize) -> Vec<i64> {
    full_gather_of(n, POLICY_SIZE)
}

/// The gather list of every logit of `n` items of `policy_size` logits each (any game).
pub fn full_gather_of(n: usize, policy_size: usize) -> Vec<i64> {
    (0..(n * policy_size) as i64).collect()
}

/// A raw network: encoded planes in, logits out, a batch at a time, for one game's planes and
/// policy layout.
pub trait Backend: Send {
    /// Runs `n` encoded positions (`input.len() == n * INPUT_SIZE` of its game, see
    /// [`NetGame`]) and fills `out`, which the caller has sized with
    /// [`BackendOutput::resize`]`(n, gather.len())`: WDL and moves-left for every item, and of the
    /// policy only the logits at the flat indices `gather` (each `< n * POLICY_SIZE`, repeats
    /// allowed), in that order.
    /// A failure (device, shapes) is an error, never a panic.
    fn compute(
        &mut self,
        input: &[f32],
        n: usize,
        gather: &[i64],
        out: &mut BackendOutput,
    ) -> Result<(), super::EvalError>;

    /// A short description (network name, device).
    fn name(&self) -> String;

    /// The batch size the backend works best with.
    fn preferred_batch(&self) -> usize {
        1
    }

    /// The input values and policy logits per position its network was built for, when the
    /// backend knows them: a [`NetworkEvaluator`] of another game then answers with an error
    /// instead of feeding it planes of the wrong shape. `None` (the default): any sizes.
    fn sizes(&self) -> Option<(usize, usize)> {
        None
    }
}

/// The model-free backend: every logit 0 (uniform policy over legal moves, WDL 1/3 each) and
/// moves-left 0. The twin of a real network for tests of the whole path, in every game.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroBackend;

impl Backend for ZeroBackend {
    fn compute(
        &mut self,
        input: &[f32],
        n: usize,
        gather: &[i64],
        out: &mut BackendOutput,
    ) -> Result<(), super::EvalError> {
        debug_assert!(n == 0 || input.len() % n == 0);
        debug_assert_eq!(out.policy.len(), gather.len());
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
/// are reused. `S` is the game (the 5x5x5 [`Position`] by default).
pub struct NetworkEvaluator<B, S = Position> {
    backend: B,
    input: Vec<f32>,
    raw: BackendOutput,
    /// The batch's legal moves' policy indices, item after item.
    indices: Vec<PolicyIndex>,
    /// The flat logit indices they use (one to three per move, in [`PolicyIndex::indices`] order).
    gather: Vec<i64>,
    game: PhantomData<fn() -> S>,
}

impl<B: Backend> NetworkEvaluator<B> {
    /// Wraps a backend of a 5x5x5 network.
    pub fn new(backend: B) -> NetworkEvaluator<B> {
        NetworkEvaluator::for_game(backend)
    }
}

impl<B: Backend, S: NetGame> NetworkEvaluator<B, S> {
    /// Wraps a backend of a network for game `S` (`NetworkEvaluator::<_, S>::for_game(b)`).
    pub fn for_game(backend: B) -> NetworkEvaluator<B, S> {
        NetworkEvaluator {
            backend,
            input: Vec::new(),
            raw: BackendOutput::default(),
            indices: Vec::new(),
            gather: Vec::new(),
            game: PhantomData,
        }
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

impl<B: Backend, S: NetGame> Evaluator<S> for NetworkEvaluator<B, S> {
    fn evaluate(&mut self, batch: &[EvalInput<'_, S>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        let n = batch.len();
        reset_outputs(out, n);
        if n == 0 {
            return Ok(());
        }
        // 0. A network of this game.
        if let Some((input, policy)) = self.backend.sizes() {
            if (input, policy) != (S::INPUT_SIZE, S::POLICY_SIZE) {
                return Err(super::EvalError(format!(
                    "the network reads {input} values and writes {policy} policy logits per position; {} needs {} and {}",
                    S::ENCODING,
                    S::INPUT_SIZE,
                    S::POLICY_SIZE
                )));
            }
        }
        // 1. Encode the batch into one buffer.
        self.input.resize(n * S::INPUT_SIZE, 0.0);
        encode_batch(batch.iter().map(|b| (b.position, b.repetitions)), &mut self.input);
        // 2. The policy logits the legal moves need.
        self.indices.clear();
        self.gather.clear();
        for (i, b) in batch.iter().enumerate() {
            let base = (i * S::POLICY_SIZE) as i64;
            for &m in b.moves {
                let idx = move_to_index(b.position, m);
                self.gather.extend(idx.indices().map(|j| base + j as i64));
                self.indices.push(idx);
            }
        }
        // 3. One backend call.
        self.raw.resize(n, self.gather.len());
        self.backend.compute(&self.input, n, &self.gather, &mut self.raw)?;
        // 4. Legal-move softmax and WDL per item. A move's score sums its logits in the order of
        //    `PolicyIndex::score`, so the result is bit-identical to `policy::legal_policy` on the
        //    full output.
        let mut logits = self.raw.policy.iter();
        let mut indices = self.indices.iter();
        for (i, (input, e)) in batch.iter().zip(out.iter_mut()).enumerate() {
            e.policy.clear();
            for idx in indices.by_ref().take(input.moves.len()) {
                let mut s = *logits.next().expect("one logit per gathered index");
                for _ in 1..idx.indices().count() {
                    s += *logits.next().expect("one logit per gathered index");
                }
                e.policy.push(s);
            }
            softmax_in_place(&mut e.policy);
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
    use crate::nn::testutil::all_variants;
    use crate::rules::random::random_positions;

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

    /// A backend whose logits are a fixed function of the flat index, so that the full output
    /// can be rebuilt outside it.
    struct IndexBackend;

    fn logit(flat: i64) -> f32 {
        ((flat as u64).wrapping_mul(2_654_435_761) % 1_000) as f32 / 100.0 - 5.0
    }

    impl Backend for IndexBackend {
        fn compute(
            &mut self,
            _: &[f32],
            n: usize,
            gather: &[i64],
            out: &mut BackendOutput,
        ) -> Result<(), crate::nn::EvalError> {
            assert!(gather.iter().all(|&g| (0..(n * POLICY_SIZE) as i64).contains(&g)));
            out.policy.iter_mut().zip(gather).for_each(|(x, &g)| *x = logit(g));
            out.wdl.iter_mut().enumerate().for_each(|(k, x)| *x = (k % 3) as f32);
            out.moves_left.iter_mut().enumerate().for_each(|(i, x)| *x = i as f32);
            Ok(())
        }

        fn name(&self) -> String {
            "index".to_string()
        }
    }

    #[test]
    fn gathered_priors_equal_the_softmax_over_the_full_output() {
        let mut net = NetworkEvaluator::new(IndexBackend);
        let mut out = Vec::new();
        let mut gathered = 0;
        for (i, v) in all_variants().into_iter().enumerate() {
            // Batches of mixed positions, with promotions and placements among their moves.
            let ps = random_positions(v, 7 + i as u64, 2, 60);
            let moves: Vec<_> = ps.iter().map(|p| p.legal_moves()).collect();
            let batch: Vec<_> = ps.iter().zip(&moves).map(|(p, m)| EvalInput::new(p, 0, m)).collect();
            net.evaluate(&batch, &mut out).unwrap();
            gathered += net.gather.len();
            let full: Vec<f32> = full_gather(batch.len()).into_iter().map(logit).collect();
            for (j, (b, e)) in batch.iter().zip(&out).enumerate() {
                let mut expected = Vec::new();
                crate::nn::policy::legal_policy(
                    b.position,
                    b.moves,
                    &full[j * POLICY_SIZE..(j + 1) * POLICY_SIZE],
                    &mut expected,
                );
                assert_eq!(e.policy, expected, "item {j}: priors differ from legal_policy on the full output");
                assert_eq!(e.wdl, softmax3(&[0.0, 1.0, 2.0]));
                assert_eq!(e.moves_left, j as f32);
            }
            // Some moves use more than one logit (placements, promotions).
            assert!(net.gather.len() > net.indices.len() || v.ruleset != crate::rules::types::Ruleset::FiveUp);
        }
        assert!(gathered > 0);
    }
}
