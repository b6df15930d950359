//! `fiveup nnue`: training data, training and the reinforcement loop of the NNUE evaluator.

use super::common::{self, RulesetArg};
use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use fiveup::rules::{Ruleset, Variant};
use fiveup::train::nnue::settings::NnueSettings;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// `fiveup nnue …`.
#[derive(Subcommand, Debug)]
pub enum NnueCommand {
    /// Play the engine against itself from random openings on every core and write (position,
    /// score, result) training samples into a directory (resumable: rerun the same command).
    Datagen(DatagenArgs),
    /// Train a network on datagen samples in libtorch, exporting it quantized after every epoch
    /// (resumable: rerun the same command).
    Train(NnueTrainArgs),
    /// The reinforcement loop of a config: data from the best engine so far, a network trained
    /// on it, an SPRT gate, publication (resumable: rerun the same command).
    Loop(NnueLoopArgs),
}

/// `fiveup nnue loop`.
#[derive(Args, Debug)]
pub struct NnueLoopArgs {
    /// The loop config (TOML, e.g. configs/nnue-fiveup.toml).
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Run directory (created; a rerun with the same config resumes it).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    /// Games (and training threads) at once, 1..=1024 (default: all cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
}

/// `fiveup nnue train`: the trainer's settings as flags, each defaulting to
/// [`NnueSettings::default`] (the help text shows the values).
#[derive(Args, Debug)]
pub struct NnueTrainArgs {
    /// Data directories of `fiveup nnue datagen` (repeatable; every `*.shard` in each).
    #[arg(long, value_name = "DIR", required = true)]
    pub data: Vec<PathBuf>,
    /// Run directory (created; a rerun with the same settings resumes it).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Passes over the training samples, 1..=10000.
    #[arg(long, value_name = "N", default_value_t = NnueSettings::default().epochs)]
    pub epochs: u32,
    /// Samples per step.
    #[arg(long, value_name = "B", default_value_t = NnueSettings::default().batch)]
    pub batch: usize,
    /// Peak learning rate (cosine to 1% of it).
    #[arg(long, value_name = "LR", default_value_t = NnueSettings::default().lr)]
    pub lr: f64,
    /// Weight of the search score in the target, 0..=1 (the rest is the game result).
    #[arg(long, value_name = "L", default_value_t = NnueSettings::default().lambda)]
    pub lambda: f32,
    /// Accumulator width per perspective (a multiple of 16).
    #[arg(long, value_name = "H", default_value_t = NnueSettings::default().hidden)]
    pub hidden: usize,
    /// First dense layer's width.
    #[arg(long, value_name = "N", default_value_t = NnueSettings::default().l1)]
    pub l1: usize,
    /// Second dense layer's width.
    #[arg(long, value_name = "N", default_value_t = NnueSettings::default().l2)]
    pub l2: usize,
    /// Output buckets, 1..=16: the dense layers once per bucket, a position evaluated by the
    /// stack of its bucket by the men on the board (1 is the plain network).
    #[arg(long, value_name = "N", default_value_t = NnueSettings::default().buckets)]
    pub buckets: usize,
    /// King buckets, 1 or 4: every input once per region of its side's king (start cell, rest
    /// of the back ranks of the two home levels, rest of the three home levels, far levels),
    /// with a factorizer in training (1 is the plain network).
    #[arg(long, value_name = "N", default_value_t = NnueSettings::default().king_buckets)]
    pub king_buckets: usize,
    /// Pairwise products: each accumulator enters the dense layers as the products of its two
    /// halves' clipped values (half as many inputs to the first dense layer; --hidden must be a
    /// multiple of 32).
    #[arg(long)]
    pub pairwise: bool,
    /// Seed of the initial weights and of the sample order.
    #[arg(long, value_name = "S", default_value_t = NnueSettings::default().seed)]
    pub seed: u64,
    /// Start from this network's weights (a .nnue file of the same ruleset and sizes, e.g. a
    /// shipped one) instead of random ones: fine-tuning on new data.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// The rule set of the network.
    #[command(flatten)]
    pub ruleset: RulesetArg,
}

impl NnueTrainArgs {
    /// The trainer's settings the flags give.
    // Without `torch` the command only says it needs the feature and reads no flag.
    #[cfg_attr(not(feature = "torch"), allow(dead_code))]
    pub fn settings(&self) -> NnueSettings {
        NnueSettings {
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            lambda: self.lambda,
            hidden: self.hidden,
            l1: self.l1,
            l2: self.l2,
            buckets: self.buckets,
            king_buckets: self.king_buckets,
            pairwise: self.pairwise,
            seed: self.seed,
            init: self.init.clone(),
        }
    }
}

/// `fiveup nnue datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Output directory (created; a rerun with the same settings resumes it).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games in all, 1..=100000000.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// The engine: an alpha-beta spec with a node budget.
    #[arg(long, value_name = "SPEC", default_value = "ab:nodes=5000,hash=4")]
    pub engine: String,
    /// Random plies before the engine plays (0..=60).
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub opening_plies: usize,
    /// Ply cap per game, opening included.
    #[arg(long, value_name = "P", default_value_t = 300)]
    pub max_plies: usize,
    /// Games per shard file.
    #[arg(long, value_name = "G", default_value_t = 50)]
    pub games_per_shard: u64,
    /// Seed of the openings.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Games played at once, 1..=1024 (default: all cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Optional castling rule.
    #[arg(long)]
    pub castling: bool,
    /// Hypercylinder board.
    #[arg(long)]
    pub hypercylinder: bool,
}

/// `fiveup nnue datagen`: checks everything, then plays the missing shards with a progress bar.
pub fn run_datagen(a: &DatagenArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::nnue::datagen::{prepare, run, DatagenConfig};
    let ruleset: Ruleset = a.ruleset.five_up("nnue datagen")?;
    let variant = Variant::new(ruleset, a.castling, a.hypercylinder)?;
    let threads = common::concurrency(a.concurrency)?;
    let cfg = DatagenConfig {
        engine: a.engine.clone(),
        variant,
        games: a.games,
        games_per_shard: a.games_per_shard,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        seed: a.seed,
    };
    let engine = prepare(&a.out, &cfg).map_err(anyhow::Error::msg)?;
    let bar = fiveup::progress::Progress::new(a.games, "datagen", "games");
    bar.resume_at(fiveup::train::nnue::datagen::games_done(&a.out, &cfg));
    let started = Instant::now();
    let positions = std::sync::atomic::AtomicU64::new(0);
    let stats = run(&a.out, &cfg, &engine, threads, &|g, n| {
        let total = positions.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
        bar.inc(g);
        let rate = total as f64 / started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{total} new positions, {rate:.0}/s"));
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish();
    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} games played now ({} already there), {} positions kept in {secs:.1} s: {:.0} positions/s on {threads} threads ({:.0} per thread)",
        stats.games,
        stats.games_before,
        stats.positions,
        stats.positions as f64 / secs.max(1e-9),
        stats.positions as f64 / secs.max(1e-9) / threads as f64
    )?;
    writeln!(out, "data: {}", a.out.display())?;
    Ok(())
}

/// `fiveup nnue train`: checks the settings and the run directory, reads the data, trains.
#[cfg(feature = "torch")]
pub fn run_nnue_train(a: &NnueTrainArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::nnue::data::load_data;
    use fiveup::train::nnue::train::{prepare, train, NnueTrainConfig};
    let ruleset: Ruleset = a.ruleset.five_up("nnue train")?;
    let cfg = NnueTrainConfig { ruleset, settings: a.settings() };
    cfg.check().map_err(anyhow::Error::msg)?;
    for d in &a.data {
        if !d.is_dir() {
            bail!("--data {}: not a directory", d.display());
        }
    }
    prepare(&a.out, &cfg).map_err(anyhow::Error::msg)?;
    let started = Instant::now();
    let dims = cfg.settings.dims();
    let (train_set, valid) = load_data(&a.data, ruleset, dims.kings).map_err(anyhow::Error::msg)?;
    writeln!(
        out,
        "{} training and {} validation samples read in {:.1} s",
        train_set.len(),
        valid.len(),
        started.elapsed().as_secs_f64()
    )?;
    if train_set.len() < cfg.settings.batch {
        eprintln!(
            "warning: {} training samples, fewer than one batch of {}: every epoch is one step on all of them, \
             and a network from so little data will not play well (make more with `fiveup nnue datagen`, or \
             lower --batch)",
            train_set.len(),
            cfg.settings.batch
        );
    }
    if dims.buckets > 1 {
        let counts = train_set.bucket_counts(dims.buckets);
        let per: Vec<String> = counts.iter().map(|n| n.to_string()).collect();
        writeln!(out, "training samples per output bucket (fewest men first): {}", per.join(", "))?;
    }
    if dims.kings > 1 {
        let per: Vec<String> = train_set.king_counts(dims.kings).iter().map(|n| n.to_string()).collect();
        writeln!(out, "training samples per king bucket of the side to move: {}", per.join(", "))?;
    }
    let bar = fiveup::progress::Progress::new(cfg.settings.total_steps(train_set.len()), "nnue train", "steps");
    let path = train(&a.out, &cfg, &train_set, &valid, &|done, _| bar.set_position(done), &mut |r| {
        bar.set_message(format!("epoch {} valid loss {:.5}", r.epoch, r.valid_loss));
        tracing::info!(
            "epoch {}: train loss {:.5}, valid loss {:.5}, lr {:.2e}, {:.1} s",
            r.epoch,
            r.train_loss,
            r.valid_loss,
            r.lr,
            r.seconds
        );
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish();
    let log = std::fs::read_to_string(a.out.join("log.csv")).unwrap_or_default();
    write!(out, "{log}")?;
    writeln!(out, "network: {}", path.display())?;
    Ok(())
}

/// `fiveup nnue loop`: reads and checks the config and the run directory, then runs the loop.
#[cfg(feature = "torch")]
pub fn run_nnue_loop(a: &NnueLoopArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::nnue::reinforce::{prepare, published, run, start_network, LoopConfig};
    let text = anyhow::Context::with_context(std::fs::read_to_string(&a.config), || {
        format!("--config {}", a.config.display())
    })?;
    let cfg = LoopConfig::parse(&text, &a.config.display().to_string()).map_err(anyhow::Error::msg)?;
    let threads = common::concurrency(a.concurrency)?;
    prepare(&a.run, &text).map_err(anyhow::Error::msg)?;
    // Each step of a generation shows its own progress (one bar at a time on a terminal).
    let reports = run(&a.run, &cfg, threads, &mut |r| {
        tracing::info!(
            "generation {}: {} samples, valid loss {:.5}, gate {}",
            r.generation,
            r.samples,
            r.valid_loss,
            r.gate
        );
    })
    .map_err(anyhow::Error::msg)?;
    for r in &reports {
        writeln!(
            out,
            "generation {}: {} samples, valid loss {:.5}, {}{}",
            r.generation,
            r.samples,
            r.valid_loss,
            r.gate,
            if r.published { " -> published" } else { "" }
        )?;
    }
    match (published(&a.run), start_network(&a.run)) {
        (Some(p), _) => writeln!(out, "best network: {} (play it with ab:eval=nnue:{})", p.display(), p.display())?,
        (None, Some(s)) => {
            writeln!(out, "no network passed its gate yet: the start network {} is still the best", s.display())?
        }
        (None, None) => writeln!(out, "no network passed its gate yet: the hand evaluation is still the best")?,
    }
    Ok(())
}

#[cfg(not(feature = "torch"))]
pub fn run_nnue_loop(_: &NnueLoopArgs, _: &mut dyn Write) -> Result<()> {
    bail!("fiveup was built without the `torch` feature; rebuild with default features to train networks")
}

#[cfg(not(feature = "torch"))]
pub fn run_nnue_train(_: &NnueTrainArgs, _: &mut dyn Write) -> Result<()> {
    bail!("fiveup was built without the `torch` feature; rebuild with default features to train networks")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn train_args(flags: &[&str]) -> NnueTrainArgs {
        match super::super::parse(&[&["nnue", "train", "--data", "d", "--out", "o"], flags].concat()).command {
            super::super::Command::Nnue(NnueCommand::Train(a)) => a,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn train_flags_default_to_the_trainers_settings() {
        assert_eq!(train_args(&[]).settings(), NnueSettings::default());
        let a = train_args(&["--epochs", "3", "--king-buckets", "4", "--pairwise", "--init", "n.nnue"]);
        let want = NnueSettings {
            epochs: 3,
            king_buckets: 4,
            pairwise: true,
            init: Some(PathBuf::from("n.nnue")),
            ..NnueSettings::default()
        };
        assert_eq!(a.settings(), want);
    }
}
