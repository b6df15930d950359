//! The NNUE trainer (`fiveup nnue train`): the float twin of [`Network`] in libtorch, trained on
//! the samples of `fiveup nnue datagen`, exported quantized after every epoch.
//!
//! - **Data.** Every scored position of every shard in the data directories (read with the shard
//!   checksums, replayed through the rules) becomes a sample: both perspectives' active inputs
//!   ([`sample_features`], side to move first), the search score as a win expectation
//!   `sigmoid(score / 400)` (mate scores 0 or 1, [`score_to_expectation`]) and the game's result
//!   for the side to move (1, ½, 0). Games whose index is a multiple of `VALID_EVERY` form the
//!   validation set (whole games, so no position has a near twin on the other side).
//! - **Network.** `y = out(crelu(l2(crelu(l1([crelu(ft·us + b), crelu(ft·them + b)])))))`, where
//!   `crelu` clips to 0..1 and `ft·x` is an `embedding_bag` sum over the active inputs (one
//!   shared table for both perspectives, as in [`Network`]). The evaluation is `y ·`
//!   [`SCORE_SCALE`] centipawns. With output buckets (`--buckets`) `l1`, `l2` and `out` exist
//!   once per bucket: every bucket's stack is computed for the whole batch (as one wider layer)
//!   and each sample keeps the outputs of its own bucket ([`bucket`] of its men, counted
//!   from its piece inputs), so a stack learns only from its positions. With king buckets
//!   (`--king-buckets 4`, [`king_bucket`]) the table has a row per input and king bucket,
//!   and one more per input shared by all buckets (a factorizer: every sample trains it, so a
//!   bucket with few samples leans on the rest); a batch names each active input twice, its
//!   bucket's row and the shared one, and export adds the shared row into every bucket's. The
//!   bucket rows start at zero, so a fresh network starts as a bucket-free one.
//! - **Loss.** `(sigmoid(y) − t)²` with `t = λ·score + (1 − λ)·result` (λ configurable: the
//!   search score alone at λ = 1, the game result alone at λ = 0).
//! - **Optimizer.** Adam written out on tensors (moments saved with the weights, so a resumed run
//!   continues exactly), cosine learning rate over all steps, dense weights clipped after each
//!   step to what an `i8` in units of 1/[`QB`] holds.
//! - **Start.** Random weights, or (`init`, `--init FILE`) a quantized network's weights divided
//!   back by their scales, to fine-tune a shipped or earlier network on new data: its exported
//!   twin before any step is the file's network exactly (a test checks it), so a fine-tune begins
//!   where that network stands. Measured once, it did not pay: fine-tuned on its own engine's
//!   new data, the shipped Raumschach network got a lower validation loss and played weaker,
//!   where a fresh network on the same data played stronger (`docs/NNUE.md`).
//! - **Quantization** (export): accumulator weights and bias × [`QA`] to `i16`, dense weights ×
//!   [`QB`] to `i8`, dense biases × `QA·QB` to `i32`, so [`Network::evaluate`]'s integer pass
//!   follows the float one (a test checks it on trained weights).
//! - **Run directory.** `train.toml` (the settings; a rerun must match them), `state.ot`
//!   (weights, Adam moments, the epoch reached), `log.csv` (epoch, losses, learning rate,
//!   seconds), `epoch-K.nnue` per epoch and `net.nnue` (the last). Killed, a rerun resumes at the
//!   last finished epoch.
//!
//! [`sample_features`]: super::data::sample_features
//! [`score_to_expectation`]: crate::engine::score::score_to_expectation
//! [`QB`]: crate::engine::nnue::QB
//! [`QA`]: crate::engine::nnue::QA
//! [`bucket`]: crate::engine::nnue::bucket
//! [`king_bucket`]: crate::engine::nnue::king_bucket

use super::data::Dataset;
use super::model::FloatNet;
use super::settings::{NnueSettings, NnueSettingsError};
use crate::engine::nnue::{Dims, Network, NnueError};
use crate::engine::score::SCORE_SCALE;
use crate::fsutil::{claim_dir_with, Claim, ClaimError};
use crate::rules::Ruleset;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::Device;

/// A training run: the ruleset of its network and its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueTrainConfig {
    /// The ruleset of the network.
    pub ruleset: Ruleset,
    /// Sizes, optimisation, seed and start.
    pub settings: NnueSettings,
}

impl NnueTrainConfig {
    /// The settings file's text (what a resumed run must match). The data directories are not in
    /// it: a run may be resumed with more data.
    pub fn to_text(&self) -> String {
        let s = &self.settings;
        format!(
            "# fiveup nnue train settings (a rerun must use the same)\nruleset = {:?}\nhidden = {}\nl1 = {}\nl2 = {}\nepochs = {}\nbatch = {}\nlr = {}\nlambda = {}\nseed = {}\n",
            self.ruleset.name(),
            s.hidden,
            s.l1,
            s.l2,
            s.epochs,
            s.batch,
            s.lr,
            s.lambda,
            s.seed
        ) + &match s.buckets {
            // Only with buckets, so that the settings of runs from before this option still match.
            1 => String::new(),
            b => format!("buckets = {b}\n"),
        } + &match s.king_buckets {
            // The same.
            1 => String::new(),
            k => format!("king_buckets = {k}\n"),
        } + if s.pairwise {
            // The same.
            "pairwise = true\n"
        } else {
            ""
        } + &match &s.init {
            // Only when set, for the same reason.
            Some(p) => format!("init = {:?}\n", p.display().to_string()),
            None => String::new(),
        }
    }

    /// Checks the settings and the `init` network (before any data is read).
    pub fn check(&self) -> Result<(), NnueTrainError> {
        self.settings.check()?;
        self.initial_network().map(|_| ())
    }

    /// The network of `init`, read and checked against the run's ruleset and sizes (`None`
    /// without `init`).
    pub fn initial_network(&self) -> Result<Option<Network>, NnueTrainError> {
        let Some(path) = &self.settings.init else { return Ok(None) };
        let net = Network::load(path, Some(self.ruleset)).map_err(NnueTrainError::Init)?;
        if net.dims != self.settings.dims() {
            return Err(NnueTrainError::InitSizes { path: path.clone(), have: net.dims, want: self.settings.dims() });
        }
        if net.output_scale != SCORE_SCALE {
            return Err(NnueTrainError::InitScale { path: path.clone(), scale: net.output_scale });
        }
        Ok(Some(net))
    }
}

/// Why nnue training (its settings, data, state or output) failed; the text is the one line the
/// command line prints.
#[derive(Debug, thiserror::Error)]
pub enum NnueTrainError {
    /// A setting out of range.
    #[error(transparent)]
    Settings(#[from] NnueSettingsError),
    /// The `--init` network cannot be read.
    #[error("--init {0}")]
    Init(#[source] NnueError),
    /// The `--init` network has other sizes than the run.
    #[error("--init {}: a {have} network, the run's sizes are {want}", .path.display())]
    InitSizes {
        /// The network file.
        path: PathBuf,
        /// Its sizes.
        have: Dims,
        /// The run's sizes.
        want: Dims,
    },
    /// The `--init` network has another output scale than the trainer.
    #[error("--init {}: output scale {scale} (the trainer's is {SCORE_SCALE})", .path.display())]
    InitScale {
        /// The network file.
        path: PathBuf,
        /// Its output scale.
        scale: f32,
    },
    /// The directory holds other settings, or someone else's files.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// No sample to train on.
    #[error("no training samples (are the shards' positions scored by an engine?)")]
    NoSamples,
    /// The loss stopped being a number.
    #[error("the loss became {loss} at epoch {epoch}, step {step}; try a lower --lr")]
    Diverged {
        /// The loss.
        loss: f64,
        /// The epoch.
        epoch: u32,
        /// The step within the epoch.
        step: usize,
    },
    /// A network could not be written.
    #[error(transparent)]
    Network(#[from] NnueError),
    /// A file or directory could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The state could not be saved.
    #[error("saving the state: {0}")]
    SaveState(#[source] tch::TchError),
    /// The state file cannot be read.
    #[error("{}: unreadable ({source})", .path.display())]
    StateUnreadable {
        /// The state file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: tch::TchError,
    },
    /// The state file lacks a tensor.
    #[error("{}: no '{name}'", .path.display())]
    StateMissing {
        /// The state file.
        path: PathBuf,
        /// The tensor.
        name: String,
    },
    /// A tensor of the state file has another shape than the settings give.
    #[error("{}: '{name}' has shape {have:?}, the settings say {want:?}", .path.display())]
    StateShape {
        /// The state file.
        path: PathBuf,
        /// The tensor.
        name: String,
        /// Its shape.
        have: Vec<i64>,
        /// The settings' shape.
        want: Vec<i64>,
    },
    /// A counter of the state file is not a number.
    #[error("{}: '{name}': {source}", .path.display())]
    StateScalar {
        /// The state file.
        path: PathBuf,
        /// The counter.
        name: String,
        /// The cause.
        #[source]
        source: tch::TchError,
    },
    /// A data directory has no shards.
    #[error("{}: no .shard files", .0.display())]
    NoShards(PathBuf),
    /// A shard cannot be read.
    #[error("{}: {source}", .path.display())]
    Shard {
        /// The shard.
        path: PathBuf,
        /// The cause.
        #[source]
        source: crate::selfplay::ShardError,
    },
    /// A game of a shard has an unusable variant.
    #[error("{}: {source}", .path.display())]
    Variant {
        /// The shard.
        path: PathBuf,
        /// The cause.
        #[source]
        source: crate::selfplay::records::RecordError,
    },
    /// A game of a shard is of another ruleset than the network.
    #[error("{}: a {game} game, but the network is for {net}", .path.display())]
    Ruleset {
        /// The shard.
        path: PathBuf,
        /// The game's ruleset.
        game: Ruleset,
        /// The network's ruleset.
        net: Ruleset,
    },
    /// A game of a shard does not replay.
    #[error("{}: game {game}: {source}", .path.display())]
    Replay {
        /// The shard.
        path: PathBuf,
        /// The game's index.
        game: u64,
        /// The cause.
        #[source]
        source: crate::selfplay::records::RecordError,
    },
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// The epoch (1-based).
    pub epoch: u32,
    /// Mean training loss over the epoch's steps (measured before each update).
    pub train_loss: f64,
    /// Validation loss after the epoch.
    pub valid_loss: f64,
    /// Learning rate of the epoch's last step.
    pub lr: f64,
    /// Seconds the epoch took.
    pub seconds: f64,
}

/// Checks `dir` against the settings: a new directory gets `train.toml`; an existing one must
/// hold the same settings.
pub fn prepare(dir: &Path, cfg: &NnueTrainConfig) -> Result<(), NnueTrainError> {
    cfg.check()?;
    // More epochs extend a run (the cosine schedule then stretches over the new total); every
    // other setting must stay.
    let more_epochs = |key: &str, old: &str, new: &str| {
        key == "epochs" && matches!((old.parse::<u32>(), new.parse::<u32>()), (Ok(a), Ok(b)) if b > a)
    };
    claim_dir_with(dir, Claim { job: "an nnue training run", file: "train.toml" }, &cfg.to_text(), &more_epochs)
        .map_err(NnueTrainError::from)
}

/// Trains (or resumes) the run in `dir` on `train`, reporting each epoch through `on_epoch` and
/// each step through `on_step(steps done in all, steps in all)`. Returns the path of `net.nnue`.
pub fn train(
    dir: &Path,
    cfg: &NnueTrainConfig,
    train: &Dataset,
    valid: &Dataset,
    on_step: &dyn Fn(u64, u64),
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> Result<PathBuf, NnueTrainError> {
    if train.is_empty() {
        return Err(NnueTrainError::NoSamples);
    }
    let (s, dims) = (&cfg.settings, cfg.settings.dims());
    let device = Device::cuda_if_available();
    let state = dir.join("state.ot");
    let (mut net, start) = if state.exists() {
        FloatNet::load(&state, dims, device)?
    } else if let Some(init) = cfg.initial_network()? {
        (FloatNet::from_network(&init, device), 0)
    } else {
        (FloatNet::new(dims, s.seed, device), 0)
    };
    let per_epoch = s.steps_per_epoch(train.len());
    let total = s.total_steps(train.len());
    let lr_at = |step: u64| {
        let t = step as f64 / total.max(1) as f64;
        s.lr * (0.01 + 0.99 * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()))
    };
    let final_path = dir.join("net.nnue");
    for epoch in start + 1..=s.epochs {
        let started = Instant::now();
        let mut order: Vec<usize> = (0..train.len()).collect();
        order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(s.seed ^ (epoch as u64) << 32));
        let mut sum = 0.0;
        let mut lr = s.lr;
        for (k, chunk) in order.chunks(s.batch).enumerate() {
            let step = (epoch as u64 - 1) * per_epoch + k as u64;
            lr = lr_at(step);
            let b = train.batch(chunk, s.lambda, dims.buckets, dims.kings, device);
            let loss = net.step(&b, lr);
            if !loss.is_finite() {
                return Err(NnueTrainError::Diverged { loss, epoch, step: k });
            }
            sum += loss;
            on_step(step + 1, total);
        }
        let report = EpochReport {
            epoch,
            train_loss: sum / per_epoch as f64,
            valid_loss: net.evaluate(valid, s.lambda, s.batch.max(4096), device),
            lr,
            seconds: started.elapsed().as_secs_f64(),
        };
        let quantized = net.export(cfg.ruleset, dims);
        let epoch_path = dir.join(format!("epoch-{epoch}.nnue"));
        quantized.save(&epoch_path)?;
        // The state last: a kill before it replays this epoch, whose files are then rewritten alike.
        let bytes = net.save_bytes(epoch)?;
        crate::fsutil::write_atomic(&state, &bytes)
            .map_err(|source| NnueTrainError::Io { path: state.clone(), source })?;
        let log = dir.join("log.csv");
        let mut text =
            std::fs::read_to_string(&log).unwrap_or_else(|_| "epoch,train_loss,valid_loss,lr,seconds\n".into());
        // A replayed epoch replaces its old line.
        text = text.lines().filter(|l| !l.starts_with(&format!("{epoch},"))).map(|l| format!("{l}\n")).collect();
        text += &format!(
            "{epoch},{:.6},{:.6},{:.3e},{:.1}\n",
            report.train_loss, report.valid_loss, report.lr, report.seconds
        );
        crate::fsutil::write_atomic(&log, text.as_bytes())
            .map_err(|source| NnueTrainError::Io { path: log.clone(), source })?;
        quantized.save(&final_path)?;
        on_epoch(&report);
    }
    if !final_path.exists() {
        // Every epoch was done before: the last epoch's network is the result.
        let (net, _) = FloatNet::load(&state, dims, device)?;
        net.export(cfg.ruleset, dims).save(&final_path)?;
    }
    Ok(final_path)
}

#[cfg(test)]
mod tests {
    use super::super::data::{load_data, sample_features};
    use super::super::model::NAMES;
    use super::*;
    use crate::engine::nnue::{Accumulator, INPUTS};
    use crate::rules::{Kind as Man, Position, Variant};
    use crate::train::nnue::datagen::{prepare as dg_prepare, run as dg_run, DatagenConfig};
    use tch::Kind;

    /// The largest difference in centipawns between the float network and its quantized twin
    /// over `positions`.
    fn disagreement(float: &FloatNet, net: &Network, positions: &[Position]) -> f64 {
        let mut worst = 0.0f64;
        for p in positions {
            let mut one = Dataset::default();
            let k = net.dims.kings;
            one.push(&sample_features(p, p.side(), k), &sample_features(p, p.side().flip(), k), 0.5, 0.5);
            let b = one.batch(&[0], 1.0, net.dims.buckets, k, Device::Cpu);
            let y = tch::no_grad(|| {
                f64::try_from(float.forward(&b[0], &b[1], &b[2], &b[3], &b[5]).sum(Kind::Float)).unwrap()
            });
            let got = net.evaluate(&Accumulator::refresh(net, p), p.side()) as f64;
            worst = worst.max((got - y * SCORE_SCALE as f64).abs());
        }
        worst
    }

    const SMALL: Dims = Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false };

    /// A run of a `dims` network for `rs` at the tests' batch (64) and rate (3e-3).
    fn config(rs: Ruleset, dims: Dims, epochs: u32, lambda: f32, seed: u64) -> NnueTrainConfig {
        let settings = NnueSettings { epochs, batch: 64, lr: 3e-3, lambda, seed, ..NnueSettings::default() };
        NnueTrainConfig { ruleset: rs, settings: settings.with_dims(dims) }
    }

    /// `cfg` with its settings changed by `edit`.
    fn edited(cfg: &NnueTrainConfig, edit: impl FnOnce(&mut NnueSettings)) -> NnueTrainConfig {
        let mut cfg = cfg.clone();
        edit(&mut cfg.settings);
        cfg
    }

    /// `cfg` for a network of `dims`.
    fn sized(cfg: &NnueTrainConfig, dims: Dims) -> NnueTrainConfig {
        edited(cfg, |s| *s = s.clone().with_dims(dims))
    }

    /// A run of `cfg` in `run`, trained to the end: its network (of the run's sizes) and the
    /// float state it was exported from.
    fn train_run(run: &Path, cfg: &NnueTrainConfig, train_set: &Dataset, valid: &Dataset) -> (Network, FloatNet) {
        prepare(run, cfg).unwrap();
        let path = train(run, cfg, train_set, valid, &|_, _| {}, &mut |_| {}).unwrap();
        let net = Network::load(&path, Some(cfg.ruleset)).unwrap();
        assert_eq!(net.dims, cfg.settings.dims());
        let (float, _) = FloatNet::load(&run.join("state.ot"), cfg.settings.dims(), Device::Cpu).unwrap();
        (net, float)
    }

    fn data(dir: &Path, rs: Ruleset, games: u64) -> PathBuf {
        let cfg = DatagenConfig {
            engine: "ab:nodes=300,hash=1".into(),
            variant: Variant::plain(rs),
            games,
            games_per_shard: 10,
            opening_plies: 4,
            max_plies: 60,
            seed: 3,
        };
        let out = dir.join("data");
        let engine = dg_prepare(&out, &cfg).unwrap();
        dg_run(&out, &cfg, &engine, 2, &|_, _| {}).unwrap();
        out
    }

    #[test]
    fn a_tiny_net_learns_resumes_and_its_quantized_twin_agrees() {
        let t = tempfile::tempdir().unwrap();
        let rs = Ruleset::Raumschach;
        let (train_set, valid) = load_data(&[data(t.path(), rs, 12)], rs, 1).unwrap();
        assert!(train_set.len() > 100, "{} samples", train_set.len());
        let cfg = config(rs, SMALL, 4, 0.75, 1);
        let run = t.path().join("run");
        prepare(&run, &cfg).unwrap();
        let mut reports = Vec::new();
        let path = train(&run, &cfg, &train_set, &valid, &|_, _| {}, &mut |r| reports.push(*r)).unwrap();
        assert_eq!(reports.len(), 4);
        // It learns: the training loss falls from the first epoch to the last.
        assert!(reports[3].train_loss < reports[0].train_loss, "{reports:?}");
        let net = Network::load(&path, Some(rs)).unwrap();
        // The integer network follows the float one on real positions.
        let (float, _) = FloatNet::load(&run.join("state.ot"), SMALL, Device::Cpu).unwrap();
        let positions: Vec<Position> =
            (0..20).map(|seed| crate::rules::random::scrambled(Variant::plain(rs), 6 + seed as usize, seed)).collect();
        let worst = disagreement(&float, &net, &positions);
        assert!(worst < 25.0, "quantized and float disagree by {worst} cp");
        // Resume: a finished run trains no more; fewer epochs or another rate are refused naming
        // the setting; more epochs extend it.
        let again = train(&run, &cfg, &train_set, &valid, &|_, _| {}, &mut |_| panic!("no epoch left")).unwrap();
        assert_eq!(Network::load(&again, Some(rs)).unwrap(), net);
        let e = prepare(&run, &edited(&cfg, |s| s.epochs = 3)).unwrap_err().to_string();
        assert!(e.contains("with epochs = 4") && e.contains("asks for epochs = 3"), "{e}");
        let e = prepare(&run, &edited(&cfg, |s| s.lr = 1e-3)).unwrap_err().to_string();
        assert!(e.contains("asks for lr = 0.001"), "{e}");
        let longer = edited(&cfg, |s| s.epochs = 5);
        prepare(&run, &longer).unwrap();
        let mut seen = Vec::new();
        train(&run, &longer, &train_set, &valid, &|_, _| {}, &mut |r| seen.push(r.epoch)).unwrap();
        assert_eq!(seen, vec![5], "the extended run trains its one new epoch");
        assert!(std::fs::read_to_string(run.join("train.toml")).unwrap().contains("epochs = 5"));
        // A kill after epoch 2: a run directory holding epoch 2's state resumes at epoch 3 and
        // ends on the network of the uninterrupted run.
        let (run2, run3) = (t.path().join("run2"), t.path().join("run3"));
        prepare(&run2, &cfg).unwrap();
        train(&run2, &cfg, &train_set, &valid, &|_, _| {}, &mut |r| {
            if r.epoch == 2 {
                prepare(&run3, &cfg).unwrap();
                std::fs::copy(run2.join("state.ot"), run3.join("state.ot")).unwrap();
            }
        })
        .unwrap();
        let mut seen = Vec::new();
        let resumed = train(&run3, &cfg, &train_set, &valid, &|_, _| {}, &mut |r| seen.push(r.epoch)).unwrap();
        assert_eq!(seen, vec![3, 4]);
        // The resumed run ends on exactly the network of its uninterrupted twin (run2, whose
        // epoch-2 state it started from). Compared with run2 rather than `run`: initial weights
        // come from libtorch's process-wide generator, which tests running beside this one also
        // draw from, so two fresh runs in one test process may start apart.
        let uninterrupted = run2.join("net.nnue");
        assert_eq!(
            Network::load(&resumed, Some(rs)).unwrap(),
            Network::load(&uninterrupted, Some(rs)).unwrap(),
            "a resumed run gives the network of the uninterrupted run"
        );
        // Data of another ruleset is refused, naming the file.
        let e = load_data(&[t.path().join("data")], Ruleset::FiveUp, 1).err().unwrap().to_string();
        assert!(e.contains(".shard") && e.contains("raumschach"), "{e}");

        // Fine-tuning. The float twin of a quantized network exports to that network exactly.
        assert_eq!(FloatNet::from_network(&net, Device::Cpu).export(rs, SMALL), net);
        // A run started from the trained network begins where it stands: at a rate too small to
        // move far in one epoch, its loss is the trained network's, not a fresh one's.
        let slow = edited(&cfg, |s| (s.epochs, s.lr) = (1, 1e-5));
        let fine = edited(&slow, |s| s.init = Some(path.clone()));
        let (fresh_run, fine_run) = (t.path().join("fresh"), t.path().join("fine"));
        let mut fresh_loss = f64::NAN;
        prepare(&fresh_run, &slow).unwrap();
        train(&fresh_run, &slow, &train_set, &valid, &|_, _| {}, &mut |r| fresh_loss = r.train_loss).unwrap();
        let mut fine_loss = f64::NAN;
        prepare(&fine_run, &fine).unwrap();
        train(&fine_run, &fine, &train_set, &valid, &|_, _| {}, &mut |r| fine_loss = r.train_loss).unwrap();
        let trained = reports[3].train_loss;
        assert!(
            (fine_loss - trained).abs() < 0.25 * (fresh_loss - trained),
            "fine-tune {fine_loss}, trained {trained}, fresh {fresh_loss}"
        );
        // The start is part of the settings a resume must match.
        let e = prepare(&fine_run, &slow).unwrap_err().to_string();
        assert!(e.contains("holds an nnue training run with"), "{e}");
        // A network of other sizes or another ruleset is refused before any data is read.
        let wider = sized(&fine, Dims { hidden: 48, ..SMALL });
        let e = prepare(&t.path().join("wider"), &wider).unwrap_err().to_string();
        assert!(e.starts_with("--init ") && e.contains("32x2-8-8"), "{e}");
        let other = NnueTrainConfig { ruleset: Ruleset::FiveUp, ..fine.clone() };
        let e = prepare(&t.path().join("other"), &other).unwrap_err().to_string();
        assert!(e.starts_with("--init ") && e.contains("net.nnue"), "{e}");
        assert!(!t.path().join("wider").exists() && !t.path().join("other").exists());
    }

    #[test]
    fn output_buckets_train_each_stack_on_its_own_positions() {
        let t = tempfile::tempdir().unwrap();
        let rs = Ruleset::Raumschach;
        let (train_set, valid) = load_data(&[data(t.path(), rs, 8)], rs, 1).unwrap();
        let dims = Dims { buckets: 4, ..SMALL };
        let cfg = config(rs, dims, 2, 1.0, 2);
        // The buckets are part of the settings (a plain run's text is unchanged).
        assert!(cfg.to_text().contains("buckets = 4\n"));
        assert!(!sized(&cfg, SMALL).to_text().contains("buckets"));
        let run = t.path().join("run");
        let (net, float) = train_run(&run, &cfg, &train_set, &valid);
        // The stacks of buckets with training samples got gradients and the others none (their
        // Adam moments are still exactly zero). Short games keep most men on the board: the
        // highest buckets have samples, bucket 0 (1 to 10 men) none.
        let counts = train_set.bucket_counts(4);
        assert_eq!(counts.iter().sum::<usize>(), train_set.len());
        let seen: std::collections::BTreeSet<i64> = (0..4).filter(|&b| counts[b as usize] > 0).collect();
        assert!(seen.contains(&3) && !seen.contains(&0), "{counts:?}");
        // The batches carry the same buckets.
        let all: Vec<usize> = (0..train_set.len()).collect();
        let of = Vec::<i64>::try_from(train_set.batch(&all, 1.0, 4, 1, Device::Cpu)[5].shallow_clone()).unwrap();
        assert_eq!(of.iter().filter(|&&b| b == 3).count(), counts[3]);
        for (i, n) in [(2, 8), (3, 8), (4, 8), (6, 1)] {
            for b in 0..4 {
                let m = f64::try_from(float.m[i].narrow(0, b * n, n).abs().max()).unwrap();
                assert_eq!(m > 0.0, seen.contains(&b), "{} of bucket {b}: largest moment {m}", NAMES[i]);
            }
        }
        // The shared first layer learned from every sample, and the file holds it added into
        // each bucket's first layer (checked with the forward passes below).
        assert_eq!(float.params.len(), 10);
        assert!(f64::try_from(float.params[8].abs().max()).unwrap() > 0.0, "the shared layer moved");
        // A network's float twin (shared layer zero) exports to that network exactly.
        assert_eq!(FloatNet::from_network(&net, Device::Cpu).export(rs, dims), net);
        // The integer network follows the float one in every bucket: positions from the start
        // and endgames of 4, 12 and 26 men.
        let v = Variant::plain(rs);
        let mut positions: Vec<Position> = (0..10).map(|seed| crate::rules::random::scrambled(v, 10, seed)).collect();
        for k in [1, 5, 12] {
            let men = [Man::Pawn, Man::Knight, Man::Rook].repeat(4);
            positions.extend(crate::engine::random_endgame(v, &men[..k], &men[..k], k as u64));
        }
        let buckets: std::collections::BTreeSet<usize> =
            positions.iter().map(|p| crate::engine::nnue::bucket(p.occupied().0.count_ones() as usize, 4)).collect();
        assert_eq!(buckets.len(), 4, "{buckets:?}");
        let worst = disagreement(&float, &net, &positions);
        assert!(worst < 25.0, "quantized and float disagree by {worst} cp");
        // Resuming with another bucket count is other settings.
        let e = prepare(&run, &sized(&cfg, SMALL)).unwrap_err().to_string();
        assert!(e.contains("holds an nnue training run with"), "{e}");
    }

    #[test]
    fn king_buckets_train_with_a_factorizer_and_export_the_sums() {
        let rs = Ruleset::Raumschach;
        let dims = Dims { kings: crate::engine::nnue::KING_BUCKETS, ..SMALL };
        let rows = dims.inputs() * dims.hidden;
        // A fresh network starts bucket-free: every bucket's rows are the same shared rows.
        let fresh = FloatNet::new(dims, 5, Device::Cpu).export(rs, dims);
        let first = &fresh.ft_weights[..rows / 4];
        assert!(first.iter().any(|&w| w != 0));
        assert!(fresh.ft_weights.chunks(rows / 4).all(|b| b == first), "buckets start equal");
        // Samples name their bucket's rows, and batches the shared rows too.
        let t = tempfile::tempdir().unwrap();
        let (train_set, valid) = load_data(&[data(t.path(), rs, 8)], rs, 4).unwrap();
        let (plain, _) = load_data(&[t.path().join("data")], rs, 1).unwrap();
        assert_eq!((train_set.len(), train_set.feats.len()), (plain.len(), plain.feats.len()));
        assert!(train_set.feats.iter().zip(&plain.feats).all(|(&k, &p)| k as usize % INPUTS == p as usize));
        assert!(train_set.feats.iter().all(|&f| (f as usize) < dims.inputs()));
        let b = train_set.batch(&[0], 1.0, 1, 4, Device::Cpu);
        let us = Vec::<i64>::try_from(&b[0]).unwrap();
        let n = us.len() / 2;
        assert!(us[n..].iter().zip(&us[..n]).all(|(&s, &f)| s as usize == 4 * INPUTS + f as usize % INPUTS));
        let cfg = config(rs, dims, 2, 1.0, 3);
        assert!(cfg.to_text().contains("king_buckets = 4\n"));
        assert!(!sized(&cfg, SMALL).to_text().contains("king"));
        let run = t.path().join("run");
        let (net, float) = train_run(&run, &cfg, &train_set, &valid);
        assert_eq!(float.kings(), 4);
        // The shared rows learned, and a network's float twin (shared rows zero) exports to it.
        let shared = float.params[0].narrow(0, dims.inputs() as i64, INPUTS as i64);
        assert!(f64::try_from(shared.abs().max()).unwrap() > 0.0);
        assert_eq!(FloatNet::from_network(&net, Device::Cpu).export(rs, dims), net);
        // The integer network follows the float one with kings in every bucket (random endgames
        // put them anywhere).
        let v = Variant::plain(rs);
        let mut positions: Vec<Position> = (0..8).map(|seed| crate::rules::random::scrambled(v, 10, seed)).collect();
        let men = [Man::Pawn, Man::Knight, Man::Rook, Man::Bishop];
        positions.extend((0..24).filter_map(|seed| crate::engine::random_endgame(v, &men, &men, seed)));
        let seen: std::collections::BTreeSet<usize> =
            positions.iter().map(|p| crate::engine::nnue::king_bucket_of(p, p.side(), 4)).collect();
        assert_eq!(seen.len(), 4, "{seen:?}");
        let worst = disagreement(&float, &net, &positions);
        assert!(worst < 25.0, "quantized and float disagree by {worst} cp");
        let e = prepare(&run, &sized(&cfg, SMALL)).unwrap_err().to_string();
        assert!(e.contains("holds an nnue training run with"), "{e}");
    }

    #[test]
    fn pairwise_products_train_and_the_quantized_twin_agrees() {
        let t = tempfile::tempdir().unwrap();
        let rs = Ruleset::Raumschach;
        let (train_set, valid) = load_data(&[data(t.path(), rs, 12)], rs, 1).unwrap();
        let dims = Dims { pairwise: true, ..SMALL };
        let cfg = config(rs, dims, 4, 0.75, 4);
        assert!(cfg.to_text().contains("pairwise = true\n"));
        assert!(!sized(&cfg, SMALL).to_text().contains("pairwise"));
        let run = t.path().join("run");
        prepare(&run, &cfg).unwrap();
        let mut reports = Vec::new();
        let path = train(&run, &cfg, &train_set, &valid, &|_, _| {}, &mut |r| reports.push(*r)).unwrap();
        assert!(reports[3].train_loss < reports[0].train_loss, "{reports:?}");
        let net = Network::load(&path, Some(rs)).unwrap();
        assert_eq!(net.dims, dims);
        // The first dense layer reads `hidden` products, not `2·hidden` values.
        assert_eq!(net.l1_weights.len(), SMALL.l1 * SMALL.hidden);
        let (float, _) = FloatNet::load(&run.join("state.ot"), dims, Device::Cpu).unwrap();
        assert_eq!(FloatNet::from_network(&net, Device::Cpu).export(rs, dims), net);
        let positions: Vec<Position> =
            (0..20).map(|seed| crate::rules::random::scrambled(Variant::plain(rs), 6 + seed as usize, seed)).collect();
        let worst = disagreement(&float, &net, &positions);
        assert!(worst < 25.0, "quantized and float disagree by {worst} cp");
        // The state of a run without them does not load as theirs.
        let e = prepare(&run, &sized(&cfg, SMALL)).unwrap_err().to_string();
        assert!(e.contains("holds an nnue training run with"), "{e}");
        assert!(FloatNet::load(&run.join("state.ot"), SMALL, Device::Cpu).is_err());
    }
}
