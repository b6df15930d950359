//! Training: the replay window, the learner interface, checkpoints, self-play workers,
//! evaluation against the alpha-beta ladder, plots, and the generation loop that ties them together
//! (`fiveup train`).
//!
//! # The run directory
//! Everything a run knows lives in one directory, so that any process can be killed at any moment
//! and the same command rerun on the same directory to go on (KataGo's habit):
//!
//! ```text
//! RUN/
//!   config.toml            the effective config, frozen at the start (a rerun with another config is
//!                          an error unless --force-config; only `generations` may change)
//!   LOCK                   advisory lock held by the one trainer (the OS drops it when the process dies)
//!   state.json             the generation state machine: {generation, phase, train_target, best}
//!   best                   "gen-NNNN": the network self-play uses (atomically replaced)
//!   metrics.jsonl          one JSON object a line: "train" every log_every steps, "generation" per generation
//!   shards/gen-NNNN/       self-play games played for generation N: WORKER-IIIIII.shard (atomic, checksummed)
//!   shards/bootstrap/      the alpha-beta games of the bootstrap
//!   checkpoints/step-SSSSSSSS/   learner files (weights + optimizer state) and meta.json
//!                          (step, generation, config hash, each file's size and CRC-32); last K kept
//!   models/gen-NNNN/       published networks: the learner's inference files (weights.safetensors +
//!                          net.json for torch), written to a temporary directory and renamed
//!   eval/gen-NNNN.json     ladder results; eval/gate-NNNN.json SPRT gating results;
//!                          eval/selfplay-NNNN.json the shards the trainer counted for generation N
//!   plots/progress.png     losses, policy accuracy and ladder score over steps and generations
//!   trainer.lease          object storage only (instead of LOCK): the trainer's lease
//!   workers/NAME.json      object storage only: each worker's heartbeat
//! ```
//!
//! On object storage (`--run s3://…`) the same files are objects under the run's prefix and the
//! trainer works on a local cache kept in step with them ([`crate::store`]).
//!
//! Every file is written atomically (temporary file or directory, then rename), except
//! `metrics.jsonl`, which is appended to; a partial last line left by a kill is dropped on restart.
//!
//! # Resume
//! The trainer reloads the newest checkpoint (a damaged one is a one-line error naming it), reads
//! `state.json` and continues the phase it names. Self-play counts the games already in
//! `shards/gen-NNNN/` and plays only the rest (a kill loses the games in flight and those not yet
//! written, fewer than `games_per_shard` per worker); training continues from the checkpoint's
//! step to the recorded target, drawing batches from a stream seeded by the step; publishing,
//! gating and evaluation skip what their files show as done.
//!
//! # Several self-play processes
//! `fiveup selfplay --run RUN` (on this machine, any machine sharing the directory, or any machine
//! reaching the run's bucket) reads
//! `state.json` and `best`, loads the best network and writes shards into
//! `shards/gen-NNNN/` of the generation in progress under its own worker name. The trainer counts
//! every worker's games towards `selfplay.games_per_generation` and the replay window takes every
//! shard, so extra workers just make generations arrive sooner.
//!
//! Modules: [`game`] (what a game provides to be trained, and the dispatch on the config's
//! ruleset), [`rundir`] (paths, lock or lease, state, the remote run's sync points), [`replay`]
//! (window, sampling, batches), [`status`] (`fiveup runs status`),
//! [`learner`] (the trainer interface, learning rate), [`checkpoint`], [`worker`] (self-play into
//! shards), [`arena`] (games between players, ladder, gating), [`gate`] (the SPRT gate and
//! recorded verdicts both loops share), [`plots`], [`generation`] (the loop). [`nnue`] trains the
//! alpha-beta engine's NNUE evaluator.

pub mod arena;
pub mod backend;
pub mod bootstrap;
pub mod checkpoint;
pub mod config;
pub mod game;
pub mod gate;
pub mod generation;
pub mod heldout;
pub mod learner;
pub mod nnue;
pub mod plots;
pub mod replay;
pub mod rundir;
pub mod status;
#[cfg(feature = "torch")]
pub mod torch_learner;
pub mod worker;

pub use generation::{run_training, TrainOptions};

static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Asks a running [`run_training`] to stop at its next safe point (between phases, or between
/// training steps after saving a checkpoint) with [`TrainError::Interrupted`]. Safe to call from
/// a signal handler's thread.
pub fn request_stop() {
    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether [`request_stop`] was called.
pub fn stop_requested() -> bool {
    STOP.load(std::sync::atomic::Ordering::SeqCst)
}
pub use learner::{Learner, NullLearner, StepStats};
pub use replay::{window_size, Replay, TrainBatch};
pub use rundir::{Phase, RunDir, RunState};

use std::path::{Path, PathBuf};

/// What can stop training. Every message is one line and names the file involved.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file of the run is damaged.
    #[error("{path}: corrupt: {detail}")]
    Corrupt {
        /// The file or directory.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// Another trainer holds the run's lock.
    #[error("{path}: another trainer is running on this directory ({holder})")]
    Locked {
        /// The lock file.
        path: PathBuf,
        /// What the holder wrote into it.
        holder: String,
    },
    /// The run was started with another config.
    #[error("{path} differs from the given config at {diff}; rerun with the run's config (omit --config) or pass --force-config")]
    ConfigChanged {
        /// The frozen config.
        path: PathBuf,
        /// The first difference.
        diff: String,
    },
    /// The config is invalid.
    #[error(transparent)]
    Config(#[from] crate::tomlcfg::ConfigError),
    /// A shard could not be written or read.
    #[error(transparent)]
    Shard(#[from] crate::selfplay::ShardError),
    /// The network backend failed or is not built in.
    #[error("network: {0}")]
    Backend(String),
    /// A player of the ladder or bootstrap could not be built.
    #[error("player: {0}")]
    Player(String),
    /// A file of the run cannot be used as it is; `detail` says why and what to do.
    #[error("{path}: {detail}")]
    Invalid {
        /// The file or directory.
        path: PathBuf,
        /// What is wrong and the fix.
        detail: String,
    },
    /// [`request_stop`] was called (Ctrl-C): the run stopped at a safe point and resumes.
    #[error("interrupted at a safe point (generation {generation}, step {step}); the run resumes where it stopped")]
    Interrupted {
        /// The generation in progress.
        generation: u32,
        /// The training step reached (a checkpoint holds it when it is past the last one).
        step: u64,
    },
    /// The run's object store failed (after the retries it logged).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// Drawing a plot failed.
    #[error("plot {path}: {detail}")]
    Plot {
        /// The image.
        path: PathBuf,
        /// What failed.
        detail: String,
    },
}

impl TrainError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> TrainError {
        TrainError::Io { path: path.to_path_buf(), source }
    }
}
