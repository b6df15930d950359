//! [`TorchBackend`]: a [`Model`] behind the [`Backend`] trait, so that
//! [`crate::nn::NetworkEvaluator`] (encoding, legal-move softmax) and everything above it can use
//! it without knowing about tch.

use super::model::{to_channels_last, Model};
use super::net::{FusedNet, NetOutput, MOVES_LEFT_SCALE};
use crate::nn::network::{Backend, BackendOutput};
use crate::nn::EvalError;
use std::sync::Once;
use tch::{Device, Kind, Tensor};

/// The device a backend should use by default: the first CUDA device if libtorch sees one,
/// else the CPU.
pub fn default_device() -> Device {
    Device::cuda_if_available()
}

/// Sets libtorch's CPU thread pools for this process: `intra` threads inside an operation (a
/// convolution), and one inter-op thread (our graphs are a chain of operations, and evaluation
/// batches come from one thread, so a second pool would only compete for the same cores).
/// The inter-op pool can be sized only once per process, before any parallel work; later calls
/// change only `intra`.
pub fn set_threads(intra: usize) {
    static INTEROP: Once = Once::new();
    INTEROP.call_once(|| tch::set_num_interop_threads(1));
    tch::set_num_threads(intra.max(1) as i32);
}

/// A [`Backend`] running a [`Model`] in inference mode: no autograd graph, and batch norm on
/// running statistics, folded into the convolutions ([`super::Net::fused`]). Owned by one thread.
#[derive(Debug)]
pub struct TorchBackend {
    model: Model,
    fused: FusedNet,
    preferred_batch: usize,
    /// Host buffer for one call's outputs (WDL, moves-left, gathered policy), reused.
    host: Vec<f32>,
}

impl TorchBackend {
    /// Wraps a model. `preferred_batch` is what [`Backend::preferred_batch`] reports (the
    /// batch size search should aim for). On the CPU the network runs channels-last (measured
    /// faster, docs/BENCHMARKS.md); elsewhere in the default layout.
    pub fn new(model: Model, preferred_batch: usize) -> TorchBackend {
        let fused = model.net().fused(model.device() == Device::Cpu);
        TorchBackend { model, fused, preferred_batch: preferred_batch.max(1), host: Vec::new() }
    }

    /// Runs the network channels-last (weights and inputs, NDHWC in memory) when `on`: see
    /// docs/BENCHMARKS.md for what it is worth.
    pub fn set_channels_last(&mut self, on: bool) {
        self.fused = self.model.net().fused(on);
    }

    /// Replaces the model (e.g. by a newer network), keeping the layout.
    pub fn set_model(&mut self, model: Model) {
        self.fused = model.net().fused(self.fused.channels_last());
        self.model = model;
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Forward pass only, in inference mode, on a batch already on the model's device with shape
    /// `[n, planes, spatial...]` of its game ([`super::NetShape`]). The outputs stay on the device.
    pub fn forward(&self, x: &Tensor) -> NetOutput {
        let _guard = tch::no_grad_guard();
        self.fused.forward(x)
    }

    /// Turns `n` encoded positions into an input tensor on the model's device.
    pub fn input_tensor(&self, input: &[f32], n: usize) -> Tensor {
        let shape = self.model.shape();
        assert_eq!(input.len(), n * shape.input_size(), "input must hold n * INPUT_SIZE values");
        let x = Tensor::from_slice(input).view(shape.input_dims(n as i64)).to_device(self.model.device());
        if self.fused.channels_last() {
            to_channels_last(&x)
        } else {
            x
        }
    }
}

/// Copies a device tensor of `len` `f32` values into `dst[..len]` (made contiguous on the CPU
/// first: `copy_data` is a raw memcpy of the storage).
fn copy_out(t: &Tensor, dst: &mut [f32], len: usize) -> Result<(), EvalError> {
    t.f_to_device(Device::Cpu)
        .and_then(|t| t.f_to_kind(Kind::Float))
        .and_then(|t| t.f_contiguous())
        .and_then(|t| t.f_copy_data(&mut dst[..len], len))
        .map_err(|e| EvalError(format!("reading the network's output: {e}")))
}

impl Backend for TorchBackend {
    /// One forward pass; the gathered policy logits are selected on the model's device, and they,
    /// the WDL logits and the moves-left estimates come back to the host in one copy (on a GPU
    /// that is 3 + 1 floats per item plus about 1% of the policy output: see [`crate::nn::network`]).
    fn compute(&mut self, input: &[f32], n: usize, gather: &[i64], out: &mut BackendOutput) -> Result<(), EvalError> {
        if n == 0 {
            return Ok(());
        }
        // tch's tensor operations panic on a libtorch error (a lost device, out of memory): the
        // forward pass runs under catch_unwind so that such a failure is an error, not an abort.
        let run = std::panic::AssertUnwindSafe(|| {
            let x = self.input_tensor(&input[..n * self.model.shape().input_size()], n);
            let o = self.forward(&x);
            let _guard = tch::no_grad_guard();
            let moves_left = o.moves_left.relu() * MOVES_LEFT_SCALE;
            let index = Tensor::from_slice(gather).to_device(self.model.device());
            let policy = o.policy.reshape([-1]).index_select(0, &index);
            Tensor::cat(
                &[
                    o.wdl.to_kind(Kind::Float).reshape([-1]),
                    moves_left.to_kind(Kind::Float),
                    policy.to_kind(Kind::Float),
                ],
                0,
            )
        });
        let all = std::panic::catch_unwind(run).map_err(|p| {
            let why = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "the backend panicked".to_string());
            EvalError(why.lines().next().unwrap_or_default().to_string())
        })?;
        let len = n * 4 + gather.len();
        if all.numel() != len {
            return Err(EvalError(format!("the network gave {} outputs for {len} expected", all.numel())));
        }
        // One host buffer for the three parts, reused across calls.
        let mut host = std::mem::take(&mut self.host);
        host.resize(len, 0.0);
        let copied = copy_out(&all, &mut host, len);
        if copied.is_ok() {
            out.wdl[..n * 3].copy_from_slice(&host[..n * 3]);
            out.moves_left[..n].copy_from_slice(&host[n * 3..n * 4]);
            out.policy[..gather.len()].copy_from_slice(&host[n * 4..]);
        }
        self.host = host;
        copied
    }

    fn name(&self) -> String {
        let game = self.model.shape().game;
        let game = if game == super::NetShape::FIVE_UP.game { String::new() } else { format!(" {game}") };
        format!("torch {}{game} on {:?}", self.model.config(), self.model.device())
    }

    fn preferred_batch(&self) -> usize {
        self.preferred_batch
    }

    fn sizes(&self) -> Option<(usize, usize)> {
        let shape = self.model.shape();
        Some((shape.input_size(), shape.policy_size()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encode::{encode_batch, INPUT_SIZE, PLANES};
    use crate::nn::evaluator::{EvalInput, Evaluator};
    use crate::nn::network::full_gather;
    use crate::nn::network::NetworkEvaluator;
    use crate::nn::policy::POLICY_SIZE;
    use crate::nn::testutil::all_variants;
    use crate::nn::torch::net::NetConfig;
    use crate::rules::random::random_positions;

    fn backend() -> TorchBackend {
        tch::manual_seed(3);
        TorchBackend::new(Model::new(&NetConfig::TINY, Device::Cpu).unwrap(), 16)
    }

    #[test]
    fn outputs_have_the_backend_shapes() {
        let mut b = backend();
        let ps = random_positions(crate::rules::Variant::default(), 1, 1, 3);
        let mut x = vec![0.0; 3 * INPUT_SIZE];
        encode_batch(ps.iter().map(|p| (p, 0)), &mut x);
        let mut out = BackendOutput::default();
        out.resize(3, 3 * POLICY_SIZE);
        out.policy.iter_mut().for_each(|v| *v = f32::NAN);
        b.compute(&x, 3, &full_gather(3), &mut out).unwrap();
        assert_eq!((out.policy.len(), out.wdl.len(), out.moves_left.len()), (3 * POLICY_SIZE, 9, 3));
        assert!(out.policy.iter().chain(&out.wdl).all(|v| v.is_finite()));
        assert!(out.moves_left.iter().all(|&v| v >= 0.0));
        let t = b.forward(&b.input_tensor(&x, 3));
        assert_eq!(t.policy.size(), [3, 165, 5, 5, 5]);
        assert_eq!(t.wdl.size(), [3, 3]);
        assert_eq!(t.moves_left.size(), [3]);
        // Items are independent in inference mode: the second alone gives the same logits.
        let mut one = BackendOutput::default();
        one.resize(1, POLICY_SIZE);
        b.compute(&x[INPUT_SIZE..2 * INPUT_SIZE], 1, &full_gather(1), &mut one).unwrap();
        let d = one.policy.iter().zip(&out.policy[POLICY_SIZE..2 * POLICY_SIZE]).map(|(a, b)| (a - b).abs());
        assert!(d.fold(0.0, f32::max) < 1e-4);
        // A gather list picks exactly those logits, in its order, repeats included.
        let gather = [2 * POLICY_SIZE as i64 + 17, 5, 5, 3 * POLICY_SIZE as i64 - 1, 0];
        let mut some = BackendOutput::default();
        some.resize(3, gather.len());
        b.compute(&x, 3, &gather, &mut some).unwrap();
        let expected: Vec<f32> = gather.iter().map(|&g| out.policy[g as usize]).collect();
        assert_eq!(some.policy, expected);
        assert_eq!((some.wdl.clone(), some.moves_left.clone()), (out.wdl.clone(), out.moves_left.clone()));
    }

    #[test]
    fn the_fused_network_computes_what_the_network_does() {
        let ps = random_positions(crate::rules::Variant::default(), 2, 1, 6);
        let mut planes = vec![0.0; ps.len() * INPUT_SIZE];
        encode_batch(ps.iter().map(|p| (p, 0)), &mut planes);
        let x = Tensor::from_slice(&planes).view([ps.len() as i64, PLANES as i64, 5, 5, 5]);
        let model = Model::new(&NetConfig { blocks: 2, ..NetConfig::TINY }, Device::Cpu).unwrap();
        // Non-trivial batch-norm statistics first.
        tch::no_grad(|| model.forward_t(&x, true));
        let reference = tch::no_grad(|| model.forward_t(&x, false));
        let mut b = TorchBackend::new(model, 1);
        for channels_last in [false, true] {
            b.set_channels_last(channels_last);
            let got = b.forward(&b.input_tensor(&planes, ps.len()));
            for (r, g) in
                [(&reference.policy, &got.policy), (&reference.wdl, &got.wdl), (&reference.moves_left, &got.moves_left)]
            {
                let d = f64::try_from((r - g).abs().max()).unwrap();
                assert!(d < 1e-4, "channels_last {channels_last}: max difference {d}");
            }
        }
    }

    #[test]
    fn evaluator_priors_sum_to_one_over_legal_moves() {
        let mut eval = NetworkEvaluator::new(backend());
        let mut out = Vec::new();
        for (i, v) in all_variants().into_iter().enumerate() {
            let ps = random_positions(v, 40 + i as u64, 1, 30);
            let moves: Vec<_> = ps.iter().map(|p| p.legal_moves()).collect();
            let batch: Vec<_> = ps.iter().zip(&moves).map(|(p, m)| EvalInput::new(p, 0, m)).collect();
            eval.evaluate(&batch, &mut out).unwrap();
            for (e, m) in out.iter().zip(&moves) {
                assert_eq!(e.policy.len(), m.len());
                assert!(e.policy.iter().all(|&p| p >= 0.0));
                assert!((e.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                assert!((e.wdl.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            }
        }
        assert!(eval.name().starts_with("torch 1x16 full+se"), "{}", eval.name());
    }

    /// A tiny Quasi-Alice network: the shapes of the game, the fused network computing what the
    /// network does, priors over the legal moves, and a policy equivariant under board
    /// permutations by construction.
    #[test]
    fn a_quasi_alice_network_fits_the_game() {
        use crate::nn::netgame::{encode_batch as encode_any, GameSymmetry};
        use crate::nn::quasi_alice::{BoardSymmetry, INPUT_SIZE as QA_INPUT, POLICY_SIZE as QA_POLICY};
        use crate::nn::testutil::random_games;
        type Qa = crate::quasi_alice::Position;
        tch::manual_seed(5);
        let config = NetConfig { blocks: 2, ..NetConfig::TINY };
        let model = Model::for_game::<Qa>(&config, Device::Cpu).unwrap();
        let ps = random_games(&Qa::start(), 8, 2, 40);
        let ps: Vec<Qa> = ps.into_iter().step_by(7).collect();
        let n = ps.len();
        let mut planes = vec![0.0; n * QA_INPUT];
        encode_any(ps.iter().map(|p| (p, 0)), &mut planes);
        let x = Tensor::from_slice(&planes).view([n as i64, 25, 4, 8, 8]);
        tch::no_grad(|| model.forward_t(&x, true));
        let reference = tch::no_grad(|| model.forward_t(&x, false));
        assert_eq!(reference.policy.size(), [n as i64, 292, 4, 8, 8]);
        assert_eq!(reference.wdl.size(), [n as i64, 3]);
        // Permuting the boards of the input permutes the policy and keeps the value and the
        // moves-left estimate (no mirror: the frame's files are not a set).
        let sym = BoardSymmetry { boards: [2, 0, 3, 1], mirror: false };
        let mut permuted = vec![0.0; planes.len()];
        sym.apply_planes(&planes, &mut permuted);
        let xp = Tensor::from_slice(&permuted).view([n as i64, 25, 4, 8, 8]);
        let out_p = tch::no_grad(|| model.forward_t(&xp, false));
        let mut logits = vec![0.0f32; n * QA_POLICY];
        reference.policy.reshape([-1]).copy_data(&mut logits, n * QA_POLICY);
        let mut got = vec![0.0f32; n * QA_POLICY];
        out_p.policy.reshape([-1]).copy_data(&mut got, n * QA_POLICY);
        for (r, p) in [(&reference.wdl, &out_p.wdl), (&reference.moves_left, &out_p.moves_left)] {
            let d = f64::try_from((r - p).abs().max()).unwrap();
            assert!(d < 1e-4, "the value heads depend on the boards' order: {d}");
        }
        let mut want = vec![0.0f32; QA_POLICY];
        for i in 0..n {
            sym.apply_policy(&logits[i * QA_POLICY..(i + 1) * QA_POLICY], &mut want);
            let d = want.iter().zip(&got[i * QA_POLICY..(i + 1) * QA_POLICY]).map(|(a, b)| (a - b).abs());
            assert!(d.fold(0.0, f32::max) < 1e-3, "item {i}: the policy is not equivariant");
        }
        // The fused network, through the backend and the evaluator of the game.
        let mut b = TorchBackend::new(model, 4);
        for channels_last in [false, true] {
            b.set_channels_last(channels_last);
            let got = b.forward(&b.input_tensor(&planes, n));
            for (r, g) in
                [(&reference.policy, &got.policy), (&reference.wdl, &got.wdl), (&reference.moves_left, &got.moves_left)]
            {
                let d = f64::try_from((r - g).abs().max()).unwrap();
                assert!(d < 1e-4, "channels_last {channels_last}: max difference {d}");
            }
        }
        let mut eval = NetworkEvaluator::<_, Qa>::for_game(b);
        let moves: Vec<_> = ps.iter().map(crate::game::legal_moves).collect();
        let batch: Vec<EvalInput<'_, Qa>> = ps.iter().zip(&moves).map(|(p, m)| EvalInput::new(p, 0, m)).collect();
        let mut out = Vec::new();
        eval.evaluate(&batch, &mut out).unwrap();
        for (e, m) in out.iter().zip(&moves) {
            assert_eq!(e.policy.len(), m.len());
            assert!((e.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
        assert!(Evaluator::<Qa>::name(&eval).contains("quasi-alice"), "{}", Evaluator::<Qa>::name(&eval));
    }
}
