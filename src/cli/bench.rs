//! `fiveup bench`: the network's throughput here; self-play's and the search's in `games.rs` and
//! `speed.rs`.

use super::{games, speed};
#[cfg(feature = "torch")]
use anyhow::Context;
use anyhow::{bail, Result};
use clap::{Args, Subcommand};
#[cfg(feature = "torch")]
use fiveup::rules::Variant;
use std::io::Write;

/// `fiveup bench …`.
#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Network evaluations per second and GFLOP/s at several batch sizes (needs `torch`).
    Nn(BenchNnArgs),
    /// Self-play throughput: games/hour, simulations/s, evals/s, time outside the network.
    Selfplay(games::BenchSelfplayArgs),
    /// Alpha-beta nodes per second from the start positions (one thread) and the bench signature.
    Search(speed::BenchSearchArgs),
}

/// `fiveup bench nn`.
#[derive(Args, Debug)]
pub struct BenchNnArgs {
    /// Residual blocks (default: the self-play network's).
    #[arg(long, value_name = "B")]
    pub blocks: Option<usize>,
    /// Channels (default: the self-play network's).
    #[arg(long, value_name = "C")]
    pub channels: Option<usize>,
    /// Block kind: full (3x3x3) or factorised ((2+1)D: 1x3x3 then 3x1x1).
    #[arg(long, value_name = "KIND")]
    pub block: Option<String>,
    /// Leave out the squeeze-excitation global pooling.
    #[arg(long)]
    pub no_se: bool,
    /// Batch sizes, comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "1,16,64,256")]
    pub batches: Vec<usize>,
    /// libtorch intra-op threads, 1..=1024 (default: all available cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Least seconds spent on each figure.
    #[arg(long, value_name = "S", default_value_t = 2.0)]
    pub seconds: f64,
    /// Run on the CPU even when a CUDA device is available.
    #[arg(long)]
    pub cpu: bool,
    /// Memory layout: channels-last (NDHWC), channels-first (NCDHW) or auto (channels-last on
    /// the CPU).
    #[arg(long, value_name = "LAYOUT", default_value = "auto")]
    pub layout: String,
}

/// Largest batch `bench nn` accepts.
#[cfg(feature = "torch")]
const MAX_BENCH_BATCH: usize = 4096;

#[cfg(feature = "torch")]
pub fn run_bench_nn(a: &BenchNnArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::nn::torch::{bench, default_device, set_threads, NetConfig};
    let d = NetConfig::SELFPLAY;
    let net = NetConfig {
        blocks: a.blocks.unwrap_or(d.blocks),
        channels: a.channels.unwrap_or(d.channels),
        block: match &a.block {
            Some(s) => s.parse().map_err(anyhow::Error::msg).context("--block")?,
            None => d.block,
        },
        se: !a.no_se,
    };
    net.validate().map_err(anyhow::Error::msg)?;
    if a.batches.is_empty() || a.batches.iter().any(|&b| b == 0 || b > MAX_BENCH_BATCH) {
        bail!("--batches must list sizes from 1 to {MAX_BENCH_BATCH}");
    }
    if !(a.seconds > 0.0 && a.seconds <= 600.0) {
        bail!("--seconds must be in (0, 600]");
    }
    let threads = super::common::threads_flag(a.threads)?;
    let channels_last = match a.layout.trim() {
        "auto" => None,
        "channels-last" => Some(true),
        "channels-first" => Some(false),
        other => bail!("--layout {other:?}: expected auto, channels-last or channels-first"),
    };
    set_threads(threads);
    let device = if a.cpu { tch::Device::Cpu } else { default_device() };
    let cfg = bench::BenchConfig {
        net,
        batches: a.batches.clone(),
        min_time: std::time::Duration::from_secs_f64(a.seconds),
        device,
        channels_last,
    };
    let layout = match channels_last.unwrap_or(device == tch::Device::Cpu) {
        true => "channels-last",
        false => "channels-first",
    };
    writeln!(out, "net {net}, {:.1} MFLOP/eval, {device:?} {layout}, {threads} threads", net.flops_per_eval() / 1e6)?;
    writeln!(
        out,
        "{:>6} {:>12} {:>12} {:>11} {:>14} {:>14}",
        "batch", "full eval/s", "fwd eval/s", "fwd GFLOP/s", "full eval/CPUs", "fwd eval/CPUs"
    )?;
    let mut result = Ok(());
    bench::run(&cfg, Variant::default(), |r| {
        if result.is_ok() {
            result = writeln!(
                out,
                "{:>6} {:>12.0} {:>12.0} {:>11.1} {:>14.0} {:>14.0}",
                r.batch,
                r.full_evals_per_s,
                r.forward_evals_per_s,
                r.forward_gflops,
                r.full_evals_per_cpu_s,
                r.forward_evals_per_cpu_s
            );
        }
    })?;
    Ok(result?)
}

#[cfg(not(feature = "torch"))]
pub fn run_bench_nn(_: &BenchNnArgs, _: &mut dyn Write) -> Result<()> {
    bail!("fiveup was built without the `torch` feature; rebuild with default features to bench networks")
}

#[cfg(test)]
mod tests {
    use super::super::{parse, run, Command};
    use super::*;

    #[test]
    fn bench_nn_takes_a_batch_list() {
        match parse(&["bench", "nn", "--batches", "1,16", "--blocks", "2"]).command {
            Command::Bench(BenchCommand::Nn(a)) => assert_eq!((a.batches, a.blocks), (vec![1, 16], Some(2))),
            c => panic!("{c:?}"),
        }
        let e = run(parse(&["bench", "nn", "--batches", "0"]), &mut Vec::new()).unwrap_err();
        assert!(format!("{e:#}").contains("--batches") || format!("{e:#}").contains("torch"), "{e:#}");
    }
}
