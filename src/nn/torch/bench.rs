//! Network throughput: evaluations per second and GFLOP/s at several batch sizes, for the full
//! evaluator path (encoding + forward + legal-move softmax through
//! [`crate::nn::NetworkEvaluator`]) and for the forward pass alone. `fiveup bench nn` prints it.

use super::backend::TorchBackend;
use super::model::Model;
use super::net::NetConfig;
use crate::nn::encode::{encode_batch, INPUT_SIZE};
use crate::nn::evaluator::{EvalInput, Evaluator};
use crate::nn::network::NetworkEvaluator;
use crate::rules::random::RandomGames;
use crate::rules::{Move, Position, Variant};
use std::time::{Duration, Instant};
use tch::Device;

/// One row of the table: a batch size and its throughput.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchRow {
    /// Positions per call.
    pub batch: usize,
    /// Evaluations per second through the whole evaluator.
    pub full_evals_per_s: f64,
    /// Evaluations per second of the forward pass alone (input already a tensor on the device).
    pub forward_evals_per_s: f64,
    /// GFLOP/s of the forward pass alone ([`NetConfig::flops_per_eval`] × forward evals/s).
    pub forward_gflops: f64,
    /// Evaluations per CPU second through the whole evaluator (all threads' time counted).
    pub full_evals_per_cpu_s: f64,
    /// Evaluations per CPU second of the forward pass alone.
    pub forward_evals_per_cpu_s: f64,
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The network (randomly initialised: speed does not depend on the weights).
    pub net: NetConfig,
    /// Batch sizes, one row each.
    pub batches: Vec<usize>,
    /// Least time spent measuring each figure.
    pub min_time: Duration,
    /// Device.
    pub device: Device,
    /// Run channels-last ([`TorchBackend::set_channels_last`]); `None`: the backend's default.
    pub channels_last: Option<bool>,
}

/// Positions from deterministic pseudo-random games of `variant` ([`RandomGames`], games of at
/// most 120 plies), with their legal moves.
pub fn bench_positions(variant: Variant, n: usize, seed: u64) -> Vec<(Position, Vec<Move>)> {
    RandomGames::new(variant, seed, 120)
        .take(n)
        .map(|p| {
            let moves = p.legal_moves();
            (p, moves)
        })
        .collect()
}

/// Windows `min_time` is split into; the best window counts.
const WINDOWS: u32 = 5;

/// CPU seconds this process has used (all threads, user + system), from `/proc/self/stat`;
/// `None` where that file is missing. Resolution: one clock tick (usually 10 ms).
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on every Linux target
}

/// Calls per wall-clock second and per CPU second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rate {
    /// Calls per second of wall-clock time (best window).
    pub wall: f64,
    /// Calls per CPU second of this process, all threads together (best window; 0 when the CPU
    /// time is unavailable).
    pub cpu: f64,
}

/// Runs `f` once to warm up, then in [`WINDOWS`] windows of at least `min_time / WINDOWS`
/// each; returns the rates of the best windows. The best, not the mean: on a shared machine other
/// processes only ever slow a window down. The CPU-time rate is what the work costs whatever
/// else runs (it counts libtorch's spinning threads too, so it errs low).
fn rate(min_time: Duration, mut f: impl FnMut()) -> Rate {
    f();
    let window = min_time / WINDOWS;
    let mut best = Rate::default();
    for _ in 0..WINDOWS {
        let (t, c) = (Instant::now(), process_cpu_seconds());
        let mut calls = 0u32;
        while calls == 0 || t.elapsed() < window {
            f();
            calls += 1;
        }
        best.wall = best.wall.max(calls as f64 / t.elapsed().as_secs_f64());
        if let (Some(c0), Some(c1)) = (c, process_cpu_seconds()) {
            if c1 > c0 {
                best.cpu = best.cpu.max(calls as f64 / (c1 - c0));
            }
        }
    }
    best
}

fn synchronize(device: Device) {
    if let Device::Cuda(i) = device {
        tch::Cuda::synchronize(i as i64);
    }
}

/// Measures every batch size of `cfg`, calling `report` after each row; a failing backend stops
/// it with the error.
pub fn run(
    cfg: &BenchConfig,
    variant: Variant,
    mut report: impl FnMut(&BenchRow),
) -> Result<Vec<BenchRow>, crate::nn::EvalError> {
    let max = cfg.batches.iter().copied().max().unwrap_or(1);
    let positions = bench_positions(variant, max, 7);
    let model = Model::new(&cfg.net, cfg.device).expect("bench config validated by the caller");
    let mut backend = TorchBackend::new(model, max);
    if let Some(on) = cfg.channels_last {
        backend.set_channels_last(on);
    }
    let mut eval = NetworkEvaluator::new(backend);
    let mut rows = Vec::new();
    let mut outputs = Vec::new();
    for &b in &cfg.batches {
        let batch: Vec<EvalInput<'_>> = positions[..b].iter().map(|(p, m)| EvalInput::new(p, 0, m)).collect();
        eval.evaluate(&batch, &mut outputs)?;
        let full = rate(cfg.min_time, || {
            let _ = eval.evaluate(&batch, &mut outputs);
        });
        let mut planes = vec![0.0; b * INPUT_SIZE];
        encode_batch(positions[..b].iter().map(|(p, _)| (p, 0)), &mut planes);
        let backend = eval.backend();
        let x = backend.input_tensor(&planes, b);
        let forward = rate(cfg.min_time, || {
            let _ = backend.forward(&x);
            synchronize(cfg.device);
        });
        let b64 = b as f64;
        let row = BenchRow {
            batch: b,
            full_evals_per_s: full.wall * b64,
            forward_evals_per_s: forward.wall * b64,
            forward_gflops: forward.wall * b64 * cfg.net.flops_per_eval() / 1e9,
            full_evals_per_cpu_s: full.cpu * b64,
            forward_evals_per_cpu_s: forward.cpu * b64,
        };
        report(&row);
        rows.push(row);
    }
    Ok(rows)
}
