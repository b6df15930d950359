//! The training configuration: one TOML file, parsed with serde into [`TrainConfig`].
//!
//! Habits (KataGo's): every key has a default, so a file names only what it changes; unknown keys
//! are rejected (`deny_unknown_fields`), so a typo is a one-line error naming the key, its section
//! and its line; every value is range-checked by [`TrainConfig::validate`], whose error names the
//! key and the allowed range; the effective config (defaults filled in) is written beside the
//! outputs as `RUN/config.toml` and frozen for the life of the run.
//!
//! # Sections
//! | section | what |
//! |---|---|
//! | top level | `seed`, `generations` |
//! | `[rules]` | `ruleset`, `castling`, `hypercylinder` |
//! | `[network]` | `backend` (`torch` or `none`), `blocks`, `channels`, `block`, `se` |
//! | `[selfplay]` | games per generation, concurrent games, shard size, search kind, full/cheap simulations and the full-search probability, Gumbel m, batch per tree, random opening plies, temperature, ply cap, resignation |
//! | `[training]` | batch size, steps per generation (or the samples-per-position ratio), optimizer (AdamW/SGD), learning rate and schedule, weight decay, loss weights, value-target mix, checkpoint cadence, sampling (uniform or surprise-weighted), mirror augmentation |
//! | `[replay]` | the sublinearly growing replay window (see [`crate::train::replay::window_size`]) |
//! | `[bootstrap]` | supervised pre-training (distillation) on alpha-beta-labelled positions before self-play, and their share of later batches |
//! | `[heldout]` | the fixed held-out set every generation is measured on |
//! | `[evaluation]` | the alpha-beta ladder, games per rung, SPRT gating |
//!
//! The shipped files are `configs/quick.toml` (CI smoke test), `configs/cpu.toml` (the default
//! main job, embedded in the binary as [`DEFAULT_CONFIG`]) and `configs/gpu.toml`.

use crate::rules::{Ruleset, Variant};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// `configs/cpu.toml`, embedded: the configuration `fiveup train` uses without `--config`.
pub const DEFAULT_CONFIG: &str = include_str!("../configs/cpu.toml");

/// A configuration that cannot be read, parsed or accepted. Every message is one line.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The text is not valid TOML of the expected shape (unknown key, wrong type, …).
    #[error("{origin}: {message}")]
    Parse {
        /// The file name (or `<embedded>`), with the line when known.
        origin: String,
        /// What is wrong, naming the key.
        message: String,
    },
    /// A value is outside its allowed range.
    #[error("{key} = {value} is out of range (allowed: {allowed})")]
    Range {
        /// Dotted key, e.g. `training.lr`.
        key: String,
        /// The value given.
        value: String,
        /// The allowed values.
        allowed: String,
    },
    /// A `--set KEY=VALUE` override that cannot be applied.
    #[error("--set {0}")]
    Override(String),
}

/// Rules of the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    /// `fiveup`, `fiveup-2001` or `raumschach`.
    pub ruleset: String,
    /// The optional castling rule (Five Up on the flat board only).
    pub castling: bool,
    /// The hypercylinder board (files a and e joined).
    pub hypercylinder: bool,
}

impl Default for RulesConfig {
    fn default() -> Self {
        RulesConfig { ruleset: "fiveup".into(), castling: false, hypercylinder: false }
    }
}

/// Which network implementation trains and plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// The tch 3D ResNet (needs the `torch` feature).
    Torch,
    /// No network: the uniform evaluator plays and training steps are no-ops (pipeline tests).
    None,
}

/// The network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// Implementation.
    pub backend: BackendKind,
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// Residual block: `full` (two 3×3×3 convolutions) or `factorised` (3×3×1 then 1×1×3).
    pub block: String,
    /// Squeeze-excitation at the end of each block.
    pub se: bool,
    /// A published network directory (e.g. `nets/fiveup-az`) whose weights the run starts from,
    /// instead of freshly initialised ones (a relative path is from the working directory); empty:
    /// fresh. Its architecture must be the one above.
    /// Read once, when the run has no checkpoint yet (the bootstrap, if enabled, then trains on
    /// from it); the optimizer state starts afresh.
    pub init: String,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            backend: BackendKind::Torch,
            blocks: 4,
            channels: 32,
            block: "full".into(),
            se: true,
            init: String::new(),
        }
    }
}

/// The search algorithm of self-play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchAlgo {
    /// Gumbel root search with sequential halving.
    Gumbel,
    /// AlphaZero PUCT.
    Puct,
}

/// Self-play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlaySection {
    /// Games the trainer waits for in each generation (its own plus any extra workers').
    pub games_per_generation: u64,
    /// Games stepped together in one process.
    pub concurrent_games: usize,
    /// Games per shard file (small shards: a kill loses at most this many finished games).
    pub games_per_shard: usize,
    /// Search algorithm.
    pub search: SearchAlgo,
    /// Simulations of a full (recorded) search.
    pub full_simulations: u32,
    /// Simulations of a cheap (unrecorded) search.
    pub cheap_simulations: u32,
    /// Probability of a full search (playout-cap randomisation; 1 turns it off).
    pub full_search_prob: f32,
    /// Record the cheap searches too, as value-only samples (an empty policy: their root value
    /// trains the value head, nothing trains the policy on them). Written into a frozen config
    /// only when on.
    #[serde(skip_serializing_if = "is_false")]
    pub cheap_value_samples: bool,
    /// Gumbel: root actions considered (m).
    pub gumbel_m: u32,
    /// Most leaves one tree sends per evaluator call.
    pub max_batch: u32,
    /// Blend weight of the quiescence correction of leaf values (0 = off; see
    /// [`crate::mcts::quiesce`]); the evaluation ladder's network player uses it too.
    pub quiescence: f32,
    /// Blend weight of NNUE leaf values (0 = off, 1 = the NNUE's quiescence value alone; the
    /// network shipped for the ruleset; see [`crate::mcts::quiesce`]); the ladder's network
    /// player uses it too. Written into a frozen config only when on (older runs keep their hash).
    #[serde(skip_serializing_if = "is_zero")]
    pub nnue_leaf: f32,
    /// Depth of the NNUE leaf's search (0 = its capture-only quiescence search; see
    /// [`crate::mcts::quiesce`]); needs `nnue_leaf`. Written into a frozen config only when set.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub nnue_leaf_depth: u32,
    /// Leaves whose side to move mates in one are won (see [`crate::mcts::quiesce`]); the
    /// ladder's network player uses it too. Written into a frozen config only when on.
    #[serde(skip_serializing_if = "is_false")]
    pub mate_check: bool,
    /// Plies played uniformly at random at the start of each game.
    pub random_opening_plies: u32,
    /// Plies during which moves are sampled with `temperature`.
    pub temperature_plies: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Games reaching this many plies are adjudicated: drawn, or see `ply_cap_adjudicate`.
    pub ply_cap: u32,
    /// At the ply cap, a side ahead by more than this many pawns of material wins (0 = always a
    /// draw).
    pub ply_cap_adjudicate: f32,
    /// Resign when the root loss probability is at or above this (0 = never; else in (0.5, 1)).
    /// Replaces `resign_threshold` (a win-probability bound that also resigned dead draws).
    pub resign_loss: f32,
    /// … for this many consecutive own moves.
    pub resign_consecutive: u32,
    /// Share of games played through with resignation off.
    pub resign_playthrough: f32,
    /// Whether the trainer plays self-play games itself. `false` leaves self-play to the workers
    /// (a trainer on a GPU machine feeding many CPU workers); the trainer still plays whenever
    /// no worker is alive (no heartbeat and no new shard for `worker_timeout_s`), so it never
    /// waits for dead workers. Written into a frozen config only when `false` (older runs keep their hash).
    #[serde(skip_serializing_if = "is_true")]
    pub trainer_plays: bool,
    /// With `trainer_plays = false`: seconds without a worker heartbeat or a new shard after
    /// which the trainer plays itself (0 = never: it waits for workers however long it takes).
    /// Written into a frozen config only when not 30.
    #[serde(skip_serializing_if = "is_default_silence")]
    pub worker_timeout_s: u32,
}

fn is_default_silence(s: &u32) -> bool {
    *s == DEFAULT_WORKER_TIMEOUT_S
}

/// The default of `selfplay.worker_timeout_s`.
pub const DEFAULT_WORKER_TIMEOUT_S: u32 = 30;

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

fn is_zero_u32(x: &u32) -> bool {
    *x == 0
}

fn is_zero_f64(x: &f64) -> bool {
    *x == 0.0
}

impl Default for SelfPlaySection {
    fn default() -> Self {
        SelfPlaySection {
            games_per_generation: 64,
            concurrent_games: 64,
            games_per_shard: 8,
            search: SearchAlgo::Gumbel,
            full_simulations: 64,
            cheap_simulations: 16,
            full_search_prob: 0.25,
            cheap_value_samples: false,
            gumbel_m: 16,
            max_batch: 16,
            quiescence: 0.0,
            nnue_leaf: 0.0,
            nnue_leaf_depth: 0,
            mate_check: false,
            random_opening_plies: 2,
            temperature_plies: 12,
            temperature: 1.0,
            ply_cap: 300,
            ply_cap_adjudicate: 0.0,
            resign_loss: 0.0,
            resign_consecutive: 3,
            resign_playthrough: 0.1,
            trainer_plays: true,
            worker_timeout_s: DEFAULT_WORKER_TIMEOUT_S,
        }
    }
}

/// Optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// AdamW (decoupled weight decay).
    Adamw,
    /// SGD with Nesterov momentum and L2 weight decay.
    Sgd,
}

/// Learning-rate schedule within each generation's training (it restarts every generation; see
/// [`crate::train::learner::learning_rate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LrSchedule {
    /// `lr` throughout.
    Constant,
    /// Cosine from `lr` to `lr · lr_final_fraction` over the generation's steps.
    Cosine,
    /// `lr` times `lr_final_fraction^(s / lr_decay_steps)` rounded down, `s` the step within the
    /// generation: a drop every `lr_decay_steps` steps.
    Step,
}

/// How training samples are drawn from the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sampling {
    /// Every sample of the window equally likely.
    Uniform,
    /// Probability grows with the sample's value surprise (see [`crate::train::replay`]).
    Surprise,
}

/// Training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainingSection {
    /// Samples per step.
    pub batch_size: usize,
    /// Steps per generation; 0 derives them from `samples_per_position`.
    pub steps_per_generation: u64,
    /// Times each new sample is drawn on average (KataGo's ratio): steps = ceil(new samples ·
    /// ratio / batch size), at least `min_steps`.
    pub samples_per_position: f64,
    /// Fewest steps of a generation (with the ratio).
    pub min_steps: u64,
    /// Optimizer.
    pub optimizer: OptimizerKind,
    /// Peak learning rate of each generation's training.
    pub lr: f64,
    /// Schedule within each generation (restarted every generation).
    pub lr_schedule: LrSchedule,
    /// Linear warm-up from 0 over the run's first steps, and again over the first self-play
    /// training steps after a bootstrap.
    pub lr_warmup_steps: u64,
    /// Steps between drops of the `step` schedule (within a generation).
    pub lr_decay_steps: u64,
    /// Final learning rate as a fraction of `lr` (cosine), or the factor of each drop (step).
    pub lr_final_fraction: f64,
    /// SGD momentum.
    pub momentum: f64,
    /// Weight decay.
    pub weight_decay: f64,
    /// Gradient-norm clip (0 = none).
    pub clip_norm: f64,
    /// Weight of the policy loss.
    pub policy_weight: f64,
    /// Weight of the WDL loss.
    pub value_weight: f64,
    /// Weight of the moves-left loss.
    pub moves_left_weight: f64,
    /// Share of the search's root WDL in the value target (the rest is the game result).
    pub value_target_mix: f32,
    /// Decay `d` of the exponential moving average of the weights that generations publish
    /// (0 = publish the trained weights themselves): after every step `e ← d·e + (1 − d)·w`,
    /// over the trainable variables and the batch-norm statistics, carried across generations and
    /// checkpoints (`crate::train::torch_learner`). Written into a frozen config only when set.
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub ema_decay: f64,
    /// Sampling.
    pub sampling: Sampling,
    /// Surprise sampling: share of the probability mass given by surprise (the rest uniform).
    pub surprise_share: f64,
    /// Apply a random file symmetry to every sample (nn::symmetry).
    pub mirror: bool,
    /// Checkpoint every this many steps (and at the end of each generation).
    pub checkpoint_every: u64,
    /// Checkpoints kept.
    pub keep_checkpoints: usize,
    /// A `train` line in metrics.jsonl every this many steps.
    pub log_every: u64,
}

impl Default for TrainingSection {
    fn default() -> Self {
        TrainingSection {
            batch_size: 256,
            steps_per_generation: 0,
            samples_per_position: 4.0,
            min_steps: 10,
            optimizer: OptimizerKind::Adamw,
            lr: 1e-3,
            lr_schedule: LrSchedule::Constant,
            lr_warmup_steps: 100,
            lr_decay_steps: 10_000,
            lr_final_fraction: 0.1,
            momentum: 0.9,
            weight_decay: 1e-4,
            clip_norm: 10.0,
            policy_weight: 1.0,
            value_weight: 1.0,
            moves_left_weight: 0.1,
            value_target_mix: 0.0,
            ema_decay: 0.0,
            sampling: Sampling::Uniform,
            surprise_share: 0.5,
            mirror: true,
            checkpoint_every: 200,
            keep_checkpoints: 3,
            log_every: 50,
        }
    }
}

/// The replay window (KataGo's shuffler): see [`crate::train::replay::window_size`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReplaySection {
    /// c: every sample is in the window until there are this many.
    pub window_min: u64,
    /// α: the exponent of the sublinear growth.
    pub window_alpha: f64,
    /// β: the growth's scale.
    pub window_beta: f64,
    /// A hard cap on the window.
    pub window_max: u64,
    /// Training waits until this many samples exist.
    pub min_samples: u64,
}

impl Default for ReplaySection {
    fn default() -> Self {
        ReplaySection {
            window_min: 20_000,
            window_alpha: 0.75,
            window_beta: 0.4,
            window_max: 500_000,
            min_samples: 256,
        }
    }
}

/// Supervised pre-training on alpha-beta games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BootstrapSection {
    /// On or off.
    pub enabled: bool,
    /// Games the engine plays against itself.
    pub games: u64,
    /// The engine, as a player spec (`ab:depth=2`).
    pub engine: String,
    /// Random plies at the start of each game (variety).
    pub random_opening_plies: u32,
    /// Games reaching this many plies are drawn.
    pub ply_cap: u32,
    /// Share of the policy target spread uniformly over the other legal moves.
    pub policy_smoothing: f32,
    /// Share of the value target taken from the engine's score (the rest: the game result).
    pub score_weight: f32,
    /// Engine score (centipawns) that maps to a 73% win expectation (logistic scale).
    pub score_scale: f32,
    /// Training steps on the bootstrap games.
    pub steps: u64,
    /// Share of each batch drawn from the bootstrap pool in generation 0's training (after the
    /// bootstrap network); it halves every `mix_halflife` generations.
    pub mix_share: f64,
    /// Generations over which the bootstrap share of a batch halves.
    pub mix_halflife: f64,
    /// Peak learning rate of the bootstrap network's training (cosine over `steps` down to
    /// `training.lr_final_fraction`); 0 takes `training.lr`.
    pub lr: f64,
}

impl Default for BootstrapSection {
    fn default() -> Self {
        BootstrapSection {
            enabled: false,
            games: 200,
            engine: "ab:depth=2".into(),
            random_opening_plies: 4,
            ply_cap: 200,
            policy_smoothing: 0.1,
            score_weight: 0.5,
            score_scale: 400.0,
            steps: 500,
            mix_share: 0.5,
            mix_halflife: 4.0,
            lr: 0.0,
        }
    }
}

/// The held-out set (see [`crate::train::heldout`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HeldoutSection {
    /// Positions in the set (0 = no held-out set).
    pub positions: u64,
    /// The engine that plays the set's games (a fixed node budget keeps them reproducible).
    pub engine: String,
    /// The deep search that labels each position.
    pub label: String,
    /// Random plies at the start of each game.
    pub opening_plies: u32,
    /// Every this many plies after the opening a position is taken.
    pub stride: u32,
    /// Games reaching this many plies after the opening end.
    pub ply_cap: u32,
    /// Seed of the openings (independent of the run seed).
    pub seed: u64,
}

impl Default for HeldoutSection {
    fn default() -> Self {
        HeldoutSection {
            positions: 0,
            engine: "ab:nodes=600,hash=1".into(),
            label: "ab:nodes=40000,hash=8".into(),
            opening_plies: 6,
            stride: 5,
            ply_cap: 200,
            seed: 0x6865_6c64,
        }
    }
}

/// Evaluation: the ladder and gating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvaluationSection {
    /// Opponents as player specs, weakest first (`random`, `ab:depth=1`, …).
    pub ladder: Vec<String>,
    /// Fixed Elo of ladder rungs used as anchors: each generation's Elo on their scale, with a
    /// 95% interval, comes from its results against them (`{ "ab:nodes=450" = 0.0, … }`).
    pub anchor_elo: std::collections::BTreeMap<String, f64>,
    /// Games against each rung (rounded up to an even number: colour-swapped pairs).
    pub games_per_rung: u32,
    /// Evaluate every this many generations (0 = never).
    pub every: u32,
    /// Simulations per move of the network player.
    pub simulations: u32,
    /// Gumbel root actions (m) of the network player; 0 = the self-play's `selfplay.gumbel_m`.
    /// With NNUE leaves and a large m the network contributes little beyond which moves are left
    /// out, so a ladder meant to show what the policy learnt plays with a
    /// small m (docs/RESULTS.md, session 22). Written into a frozen config only when set.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub gumbel_m: u32,
    /// Games reaching this many plies are drawn.
    pub ply_cap: u32,
    /// Random plies of each pair's opening.
    pub opening_plies: u32,
    /// Evaluation games played at once.
    pub concurrency: u32,
    /// Publish a generation as best only if an SPRT against the current best accepts it.
    pub gating: bool,
    /// SPRT H0 Elo.
    pub sprt_elo0: f64,
    /// SPRT H1 Elo.
    pub sprt_elo1: f64,
    /// SPRT α and β.
    pub sprt_alpha: f64,
    /// Most gating games before the decision falls to the score (≥ 50% accepts).
    pub gating_max_games: u32,
}

impl Default for EvaluationSection {
    fn default() -> Self {
        EvaluationSection {
            ladder: vec!["random".into()],
            anchor_elo: std::collections::BTreeMap::new(),
            games_per_rung: 10,
            every: 1,
            simulations: 32,
            gumbel_m: 0,
            ply_cap: 200,
            opening_plies: 2,
            concurrency: 2,
            gating: false,
            sprt_elo0: 0.0,
            sprt_elo1: 50.0,
            sprt_alpha: 0.1,
            gating_max_games: 40,
        }
    }
}

/// The whole training configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Seed of everything random in the run.
    pub seed: u64,
    /// Generations to run (a rerun with a larger value goes on).
    pub generations: u32,
    /// Rules.
    pub rules: RulesConfig,
    /// Network.
    pub network: NetworkConfig,
    /// Self-play.
    pub selfplay: SelfPlaySection,
    /// Training.
    pub training: TrainingSection,
    /// Replay window.
    pub replay: ReplaySection,
    /// Bootstrap.
    pub bootstrap: BootstrapSection,
    /// The held-out set.
    pub heldout: HeldoutSection,
    /// Evaluation.
    pub evaluation: EvaluationSection,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            seed: 1,
            generations: 10,
            rules: RulesConfig::default(),
            network: NetworkConfig::default(),
            selfplay: SelfPlaySection::default(),
            training: TrainingSection::default(),
            replay: ReplaySection::default(),
            bootstrap: BootstrapSection::default(),
            heldout: HeldoutSection::default(),
            evaluation: EvaluationSection::default(),
        }
    }
}

/// Keys that were renamed, with what to write instead: an old config gets this hint rather than
/// serde's list of every key of the section.
const RENAMED_KEYS: [(&str, &str); 1] = [(
    "resign_threshold",
    "replaced by `selfplay.resign_loss` (resign when the root loss probability stays at or above \
     it, e.g. 0.95; 0 = never)",
)];

/// `message`, or for a key that was renamed, what replaced it.
fn with_rename_hint(message: &str) -> String {
    for (old, hint) in RENAMED_KEYS {
        if message.starts_with(&format!("unknown field `{old}`")) {
            return format!("unknown field `{old}`: {hint}");
        }
    }
    message.to_string()
}

/// The one-line text of a TOML error: its message (first line), the line number, and the section
/// the error is in.
fn toml_error(origin: &str, text: &str, e: &toml::de::Error) -> ConfigError {
    let message = with_rename_hint(e.message().lines().next().unwrap_or("invalid TOML").trim());
    let Some(span) = e.span() else {
        return ConfigError::Parse { origin: origin.to_string(), message };
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..start].matches('\n').count() + 1;
    let this_line = text[line_start..].lines().next().unwrap_or_default().trim();
    // An error on a `[section]` line is about the section's name, a key of the top level; any
    // other is in the last section opened above it (or the top level).
    let section = if this_line.starts_with('[') {
        None
    } else {
        text[..line_start].lines().rev().map(str::trim).find(|l| l.starts_with('[') && l.ends_with(']'))
    };
    let section = format!(" in {}", section.unwrap_or("the top level"));
    ConfigError::Parse { origin: format!("{origin} line {line}"), message: format!("{message}{section}") }
}

/// The error of a `--set KEY=VALUE` that made the config invalid: the argument, the message and
/// the key's section.
fn override_error(assignment: &str, e: &toml::de::Error) -> ConfigError {
    let message = with_rename_hint(e.message().lines().next().unwrap_or("invalid value").trim());
    let key = assignment.split_once('=').map_or(assignment, |(k, _)| k).trim();
    let parts: Vec<&str> = key.split('.').collect();
    // An unknown name may be a section of the path (`trainin.lr`), not only its last key.
    let unknown = message.strip_prefix("unknown field `").and_then(|r| r.split('`').next());
    let depth = unknown.and_then(|u| parts.iter().position(|p| *p == u)).unwrap_or(parts.len() - 1);
    let section = match depth {
        0 => "the top level".to_string(),
        d => format!("[{}]", parts[..d].join(".")),
    };
    ConfigError::Parse { origin: format!("--set {assignment}"), message: format!("{message} in {section}") }
}

/// Sets a dotted key in a TOML table; the value is parsed as TOML, or taken as a string.
fn set_key(table: &mut toml::Table, assignment: &str) -> Result<(), ConfigError> {
    let (key, value) = assignment
        .split_once('=')
        .ok_or_else(|| ConfigError::Override(format!("'{assignment}': expected KEY=VALUE")))?;
    let (key, value) = (key.trim(), value.trim());
    let parsed: toml::Value = match format!("v = {value}").parse::<toml::Table>() {
        Ok(mut t) => t.remove("v").expect("just parsed"),
        Err(_) => toml::Value::String(value.to_string()),
    };
    let parts: Vec<&str> = key.split('.').collect();
    let mut t = table;
    for p in &parts[..parts.len() - 1] {
        let entry = t.entry(p.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = entry.as_table_mut().ok_or_else(|| ConfigError::Override(format!("'{key}': {p} is not a section")))?;
    }
    t.insert(parts[parts.len() - 1].to_string(), parsed);
    Ok(())
}

/// A range check: `Err` naming the key when `ok` is false.
fn check(ok: bool, key: &str, value: impl fmt::Display, allowed: &str) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError::Range { key: key.to_string(), value: value.to_string(), allowed: allowed.to_string() })
    }
}

/// Names where an out-of-range value came from: the last `--set` that assigned its key, else the
/// file (or the embedded default) `origin`.
fn range_origin(e: ConfigError, origin: &str, overrides: &[String]) -> ConfigError {
    let ConfigError::Range { key, .. } = &e else { return e };
    let set = overrides.iter().rev().find(|o| o.split_once('=').is_some_and(|(k, _)| k.trim() == key));
    let origin = set.map_or_else(|| origin.to_string(), |o| format!("--set {o}"));
    ConfigError::Parse { origin, message: e.to_string() }
}

impl TrainConfig {
    /// Parses and validates TOML text; `origin` names it in errors. `overrides` are `KEY=VALUE`
    /// assignments (dotted keys, TOML values) applied on top.
    pub fn from_toml(text: &str, origin: &str, overrides: &[String]) -> Result<TrainConfig, ConfigError> {
        // The text alone first, so its errors name its lines; then each override in turn, so an
        // error is blamed on the `--set` argument that caused it (the merged text has no lines
        // of its own a user could find).
        let mut cfg: TrainConfig = toml::from_str(text).map_err(|e| toml_error(origin, text, &e))?;
        if !overrides.is_empty() {
            let mut table: toml::Table = toml::from_str(text).map_err(|e| toml_error(origin, text, &e))?;
            for o in overrides {
                set_key(&mut table, o)?;
                let merged = toml::to_string(&table).expect("a table serialises");
                cfg = toml::from_str(&merged).map_err(|e| override_error(o, &e))?;
            }
        }
        cfg.validate().map_err(|e| range_origin(e, origin, overrides))?;
        Ok(cfg)
    }

    /// Reads, parses and validates a file.
    pub fn from_file(path: &Path, overrides: &[String]) -> Result<TrainConfig, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ConfigError::Io { path: path.display().to_string(), source })?;
        TrainConfig::from_toml(&text, &path.display().to_string(), overrides)
    }

    /// The embedded default ([`DEFAULT_CONFIG`], `configs/cpu.toml`).
    pub fn default_config(overrides: &[String]) -> Result<TrainConfig, ConfigError> {
        TrainConfig::from_toml(DEFAULT_CONFIG, "<embedded configs/cpu.toml>", overrides)
    }

    /// The effective config as TOML (every key, defaults filled in).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config always serialises")
    }

    /// A 64-bit FNV-1a hash of [`Self::to_toml`], as 16 hex digits (stored in checkpoints).
    pub fn hash(&self) -> String {
        // An identity recorded in checkpoints, not a checksum: it stays FNV-1a so old runs match.
        format!("{:016x}", crate::fsutil::legacy::fnv1a64(self.to_toml().as_bytes()))
    }

    /// The validated variant.
    pub fn variant(&self) -> Result<Variant, ConfigError> {
        let rs: Ruleset = self.rules.ruleset.trim().parse().map_err(|_| ConfigError::Range {
            key: "rules.ruleset".into(),
            value: format!("{:?}", self.rules.ruleset),
            allowed: "\"fiveup\", \"fiveup-2001\", \"raumschach\"".into(),
        })?;
        Variant::new(rs, self.rules.castling, self.rules.hypercylinder).map_err(|e| ConfigError::Range {
            key: "rules".into(),
            value: format!(
                "{} castling={} hypercylinder={}",
                self.rules.ruleset, self.rules.castling, self.rules.hypercylinder
            ),
            allowed: e.to_string(),
        })
    }

    /// Checks every range; the error names the first bad key and what is allowed.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let variant = self.variant()?;
        check(self.generations <= 100_000, "generations", self.generations, "0..=100000")?;
        let n = &self.network;
        check((1..=64).contains(&n.blocks), "network.blocks", n.blocks, "1..=64")?;
        check((4..=1024).contains(&n.channels), "network.channels", n.channels, "4..=1024")?;
        check(
            ["full", "factorised"].contains(&n.block.as_str()),
            "network.block",
            format!("{:?}", n.block),
            "\"full\", \"factorised\"",
        )?;
        let s = &self.selfplay;
        check(
            (1..=10_000_000).contains(&s.games_per_generation),
            "selfplay.games_per_generation",
            s.games_per_generation,
            "1..=10000000",
        )?;
        check(
            (1..=65_536).contains(&s.concurrent_games),
            "selfplay.concurrent_games",
            s.concurrent_games,
            "1..=65536",
        )?;
        check((1..=100_000).contains(&s.games_per_shard), "selfplay.games_per_shard", s.games_per_shard, "1..=100000")?;
        check(
            (1..=1_000_000).contains(&s.full_simulations),
            "selfplay.full_simulations",
            s.full_simulations,
            "1..=1000000",
        )?;
        check(
            (1..=1_000_000).contains(&s.cheap_simulations),
            "selfplay.cheap_simulations",
            s.cheap_simulations,
            "1..=1000000",
        )?;
        check(
            s.full_search_prob > 0.0 && s.full_search_prob <= 1.0,
            "selfplay.full_search_prob",
            s.full_search_prob,
            "(0, 1]",
        )?;
        check((1..=256).contains(&s.gumbel_m), "selfplay.gumbel_m", s.gumbel_m, "1..=256")?;
        check((1..=255).contains(&s.max_batch), "selfplay.max_batch", s.max_batch, "1..=255")?;
        check((0.0..=4.0).contains(&s.quiescence), "selfplay.quiescence", s.quiescence, "[0, 4] (0 = off)")?;
        check((0.0..=1.0).contains(&s.nnue_leaf), "selfplay.nnue_leaf", s.nnue_leaf, "[0, 1] (0 = off)")?;
        check(
            s.nnue_leaf == 0.0 || crate::engine::nnue::ships(variant.ruleset),
            "selfplay.nnue_leaf",
            s.nnue_leaf,
            &format!("0: no NNUE network is shipped for {}", variant.ruleset),
        )?;
        check(
            s.nnue_leaf_depth <= crate::mcts::quiesce::MAX_LEAF_DEPTH,
            "selfplay.nnue_leaf_depth",
            s.nnue_leaf_depth,
            &format!("0..={}", crate::mcts::quiesce::MAX_LEAF_DEPTH),
        )?;
        check(
            s.nnue_leaf_depth == 0 || s.nnue_leaf > 0.0,
            "selfplay.nnue_leaf_depth",
            s.nnue_leaf_depth,
            "0 when selfplay.nnue_leaf is 0 (the leaf search evaluates with the NNUE)",
        )?;
        check(s.random_opening_plies <= 100, "selfplay.random_opening_plies", s.random_opening_plies, "0..=100")?;
        check(s.temperature_plies <= 1000, "selfplay.temperature_plies", s.temperature_plies, "0..=1000")?;
        check(s.temperature > 0.0 && s.temperature <= 10.0, "selfplay.temperature", s.temperature, "(0, 10]")?;
        check((1..=100_000).contains(&s.ply_cap), "selfplay.ply_cap", s.ply_cap, "1..=100000")?;
        check(
            (0.0..=50.0).contains(&s.ply_cap_adjudicate),
            "selfplay.ply_cap_adjudicate",
            s.ply_cap_adjudicate,
            "[0, 50] pawns (0 = draw)",
        )?;
        check(
            s.resign_loss == 0.0 || (s.resign_loss > 0.5 && s.resign_loss < 1.0),
            "selfplay.resign_loss",
            s.resign_loss,
            "0 (never) or (0.5, 1), e.g. 0.95",
        )?;
        check(
            (1..=100).contains(&s.resign_consecutive),
            "selfplay.resign_consecutive",
            s.resign_consecutive,
            "1..=100",
        )?;
        check(
            s.worker_timeout_s <= 86_400,
            "selfplay.worker_timeout_s",
            s.worker_timeout_s,
            "0 (never) to 86400 seconds",
        )?;
        check(
            (0.0..=1.0).contains(&s.resign_playthrough),
            "selfplay.resign_playthrough",
            s.resign_playthrough,
            "[0, 1]",
        )?;
        let t = &self.training;
        check((1..=65_536).contains(&t.batch_size), "training.batch_size", t.batch_size, "1..=65536")?;
        check(
            t.steps_per_generation <= 10_000_000,
            "training.steps_per_generation",
            t.steps_per_generation,
            "0..=10000000",
        )?;
        check(
            t.samples_per_position > 0.0 && t.samples_per_position <= 1000.0,
            "training.samples_per_position",
            t.samples_per_position,
            "(0, 1000]",
        )?;
        check(t.min_steps <= 10_000_000, "training.min_steps", t.min_steps, "0..=10000000")?;
        check(t.lr > 0.0 && t.lr <= 10.0, "training.lr", t.lr, "(0, 10]")?;
        check(t.lr_warmup_steps <= 10_000_000, "training.lr_warmup_steps", t.lr_warmup_steps, "0..=10000000")?;
        check(
            (1..=1_000_000_000).contains(&t.lr_decay_steps),
            "training.lr_decay_steps",
            t.lr_decay_steps,
            "1..=1000000000",
        )?;
        check(
            t.lr_final_fraction > 0.0 && t.lr_final_fraction <= 1.0,
            "training.lr_final_fraction",
            t.lr_final_fraction,
            "(0, 1]",
        )?;
        check((0.0..1.0).contains(&t.momentum), "training.momentum", t.momentum, "[0, 1)")?;
        check((0.0..=1.0).contains(&t.weight_decay), "training.weight_decay", t.weight_decay, "[0, 1]")?;
        check((0.0..=1e6).contains(&t.clip_norm), "training.clip_norm", t.clip_norm, "[0, 1e6] (0 = off)")?;
        for (k, v) in [
            ("policy_weight", t.policy_weight),
            ("value_weight", t.value_weight),
            ("moves_left_weight", t.moves_left_weight),
        ] {
            check((0.0..=100.0).contains(&v), &format!("training.{k}"), v, "[0, 100]")?;
        }
        check((0.0..=1.0).contains(&t.value_target_mix), "training.value_target_mix", t.value_target_mix, "[0, 1]")?;
        check((0.0..1.0).contains(&t.ema_decay), "training.ema_decay", t.ema_decay, "[0, 1) (0 = off)")?;
        check((0.0..=1.0).contains(&t.surprise_share), "training.surprise_share", t.surprise_share, "[0, 1]")?;
        check(
            (1..=10_000_000).contains(&t.checkpoint_every),
            "training.checkpoint_every",
            t.checkpoint_every,
            "1..=10000000",
        )?;
        check((1..=1000).contains(&t.keep_checkpoints), "training.keep_checkpoints", t.keep_checkpoints, "1..=1000")?;
        check((1..=10_000_000).contains(&t.log_every), "training.log_every", t.log_every, "1..=10000000")?;
        let r = &self.replay;
        check((1..=1_000_000_000).contains(&r.window_min), "replay.window_min", r.window_min, "1..=1000000000")?;
        check(r.window_alpha > 0.0 && r.window_alpha <= 1.0, "replay.window_alpha", r.window_alpha, "(0, 1]")?;
        check((0.0..=10.0).contains(&r.window_beta), "replay.window_beta", r.window_beta, "[0, 10]")?;
        check(r.window_max >= r.window_min, "replay.window_max", r.window_max, "≥ replay.window_min")?;
        check(r.min_samples <= r.window_max, "replay.min_samples", r.min_samples, "0..=replay.window_max")?;
        let b = &self.bootstrap;
        check(b.games <= 10_000_000, "bootstrap.games", b.games, "0..=10000000")?;
        check(b.random_opening_plies <= 100, "bootstrap.random_opening_plies", b.random_opening_plies, "0..=100")?;
        check((1..=100_000).contains(&b.ply_cap), "bootstrap.ply_cap", b.ply_cap, "1..=100000")?;
        check((0.0..1.0).contains(&b.policy_smoothing), "bootstrap.policy_smoothing", b.policy_smoothing, "[0, 1)")?;
        check((0.0..=1.0).contains(&b.score_weight), "bootstrap.score_weight", b.score_weight, "[0, 1]")?;
        check(
            b.score_scale > 0.0 && b.score_scale <= 100_000.0,
            "bootstrap.score_scale",
            b.score_scale,
            "(0, 100000]",
        )?;
        check(b.steps <= 10_000_000, "bootstrap.steps", b.steps, "0..=10000000")?;
        check((0.0..=1.0).contains(&b.mix_share), "bootstrap.mix_share", b.mix_share, "[0, 1]")?;
        check(
            b.mix_halflife > 0.0 && b.mix_halflife <= 1e6,
            "bootstrap.mix_halflife",
            b.mix_halflife,
            "(0, 1e6] generations",
        )?;
        check((0.0..=10.0).contains(&b.lr), "bootstrap.lr", b.lr, "[0, 10] (0 = training.lr)")?;
        check(
            !b.engine.trim().is_empty(),
            "bootstrap.engine",
            format!("{:?}", b.engine),
            "a player spec such as \"ab:depth=2\"",
        )?;
        let h = &self.heldout;
        check(h.positions <= 1_000_000, "heldout.positions", h.positions, "0..=1000000")?;
        check(h.opening_plies <= 100, "heldout.opening_plies", h.opening_plies, "0..=100")?;
        check((1..=1000).contains(&h.stride), "heldout.stride", h.stride, "1..=1000")?;
        check((1..=100_000).contains(&h.ply_cap), "heldout.ply_cap", h.ply_cap, "1..=100000")?;
        let e = &self.evaluation;
        check(e.games_per_rung <= 100_000, "evaluation.games_per_rung", e.games_per_rung, "0..=100000")?;
        check((1..=1_000_000).contains(&e.simulations), "evaluation.simulations", e.simulations, "1..=1000000")?;
        check(e.gumbel_m <= 256, "evaluation.gumbel_m", e.gumbel_m, "0..=256 (0 = selfplay.gumbel_m)")?;
        check((1..=100_000).contains(&e.ply_cap), "evaluation.ply_cap", e.ply_cap, "1..=100000")?;
        check(e.opening_plies <= 100, "evaluation.opening_plies", e.opening_plies, "0..=100")?;
        check((1..=256).contains(&e.concurrency), "evaluation.concurrency", e.concurrency, "1..=256")?;
        check(
            e.sprt_elo0.is_finite() && e.sprt_elo1.is_finite() && e.sprt_elo0 < e.sprt_elo1,
            "evaluation.sprt_elo1",
            e.sprt_elo1,
            "finite and > evaluation.sprt_elo0",
        )?;
        check(e.sprt_alpha > 0.0 && e.sprt_alpha < 0.5, "evaluation.sprt_alpha", e.sprt_alpha, "(0, 0.5)")?;
        check(
            (2..=100_000).contains(&e.gating_max_games),
            "evaluation.gating_max_games",
            e.gating_max_games,
            "2..=100000",
        )?;
        for (spec, elo) in &e.anchor_elo {
            check(
                e.ladder.contains(spec),
                &format!("evaluation.anchor_elo.\"{spec}\""),
                elo,
                "a rung of evaluation.ladder",
            )?;
            check(elo.is_finite(), &format!("evaluation.anchor_elo.\"{spec}\""), elo, "a finite Elo")?;
        }
        for (i, spec) in e.ladder.iter().enumerate() {
            check(
                !spec.trim().is_empty(),
                &format!("evaluation.ladder[{i}]"),
                format!("{spec:?}"),
                "a player spec such as \"ab:depth=1\"",
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configs_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("configs")
    }

    #[test]
    fn every_shipped_config_parses_and_validates() {
        let mut n = 0;
        for entry in std::fs::read_dir(configs_dir()).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") && path.file_name().is_some_and(|f| f != "tournament.toml")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                // Only training configs (they have a [selfplay] or [training] section).
                if !text.contains("[selfplay]") && !text.contains("[training]") {
                    continue;
                }
                let cfg = TrainConfig::from_file(&path, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                // The effective config round-trips.
                assert_eq!(TrainConfig::from_toml(&cfg.to_toml(), "effective", &[]).unwrap(), cfg);
                n += 1;
            }
        }
        assert!(n >= 3, "quick, cpu and gpu configs");
        TrainConfig::default_config(&[]).unwrap();
        TrainConfig::default().validate().unwrap();
    }

    #[test]
    fn an_unknown_key_is_one_line_naming_it() {
        let e = TrainConfig::from_toml("seed = 3\n[training]\nbatch_size = 8\nlrr = 0.1\n", "x.toml", &[]).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("x.toml line 4: unknown field `lrr`"), "{msg}");
        assert!(msg.contains("in [training]"), "{msg}");
        assert!(!msg.contains('\n'), "{msg}");
        let e = TrainConfig::from_toml("sed = 3\n", "x.toml", &[]).unwrap_err().to_string();
        assert!(e.contains("unknown field `sed`"), "{e}");
    }

    #[test]
    fn the_old_resignation_key_names_its_replacement() {
        let text = "[selfplay]\nply_cap = 100\nresign_threshold = 0.05\n";
        let e = TrainConfig::from_toml(text, "old.toml", &[]).unwrap_err().to_string();
        assert!(e.starts_with("old.toml line 3: unknown field `resign_threshold`"), "{e}");
        assert!(e.contains("selfplay.resign_loss") && !e.contains('\n'), "{e}");
        let e = TrainConfig::from_toml("", "x", &["selfplay.resign_threshold=0.05".into()]).unwrap_err();
        assert!(e.to_string().contains("selfplay.resign_loss"), "{e}");
        // The new key: 0 or (0.5, 1).
        for ok in [0.0, 0.9, 0.95] {
            TrainConfig::from_toml(&format!("[selfplay]\nresign_loss = {ok}\n"), "x", &[]).unwrap();
        }
        for bad in [0.05, 0.5, 1.0, -0.1] {
            let e = TrainConfig::from_toml(&format!("[selfplay]\nresign_loss = {bad}\n"), "x", &[]).unwrap_err();
            assert!(e.to_string().starts_with("x: selfplay.resign_loss"), "{e}");
        }
    }

    #[test]
    fn a_wrong_type_names_the_key() {
        let e = TrainConfig::from_toml("[selfplay]\nply_cap = \"many\"\n", "x.toml", &[]).unwrap_err().to_string();
        assert!(e.starts_with("x.toml line 2:"), "{e}");
        assert!(!e.contains('\n'), "{e}");
        let e = TrainConfig::from_toml("[training]\noptimizer = \"adam\"\n", "x.toml", &[]).unwrap_err().to_string();
        assert!(e.contains("adamw") && e.contains("sgd"), "{e}");
    }

    #[test]
    fn out_of_range_values_name_the_key_and_the_range() {
        let e = TrainConfig::from_toml("[training]\nlr = -1.0\n", "x", &[]).unwrap_err().to_string();
        assert_eq!(e, "x: training.lr = -1 is out of range (allowed: (0, 10])");
        let e = TrainConfig::from_toml("[selfplay]\nfull_search_prob = 0\n", "x", &[]).unwrap_err().to_string();
        assert!(e.starts_with("x: selfplay.full_search_prob = 0 is out of range"), "{e}");
        let e = TrainConfig::from_toml("[selfplay]\nnnue_leaf = 1.5\n", "x", &[]).unwrap_err().to_string();
        assert!(e.starts_with("x: selfplay.nnue_leaf"), "{e}");
        let e = TrainConfig::from_toml("[selfplay]\nnnue_leaf_depth = 1\n", "x", &[]).unwrap_err().to_string();
        assert!(e.starts_with("x: selfplay.nnue_leaf_depth = 1") && e.contains("nnue_leaf is 0"), "{e}");
        let e = TrainConfig::from_toml("[selfplay]\nnnue_leaf = 1.0\nnnue_leaf_depth = 4\n", "x", &[]);
        assert!(e.unwrap_err().to_string().starts_with("x: selfplay.nnue_leaf_depth = 4"));
        let leaf = "[selfplay]\nnnue_leaf = 1.0\nnnue_leaf_depth = 1\nmate_check = true\n";
        let c = TrainConfig::from_toml(leaf, "x", &[]).unwrap();
        assert!(c.selfplay.mate_check && c.selfplay.nnue_leaf == 1.0 && c.selfplay.nnue_leaf_depth == 1);
        // Written into a frozen config when on, and read back the same; left out when off, so the
        // hash of a config from before the keys existed does not change.
        assert_eq!(TrainConfig::from_toml(&c.to_toml(), "x", &[]).unwrap(), c);
        let off = TrainConfig::default_config(&[]).unwrap().to_toml();
        assert!(!off.contains("nnue_leaf") && !off.contains("mate_check"), "{off}");
        assert!(!off.contains("cheap_value_samples"), "{off}");
        let cheap = TrainConfig::from_toml("[selfplay]\ncheap_value_samples = true\n", "x", &[]).unwrap();
        assert!(cheap.selfplay.cheap_value_samples);
        assert_eq!(TrainConfig::from_toml(&cheap.to_toml(), "x", &[]).unwrap(), cheap);
        // The ladder's own m: the same rule (a frozen config from before it keeps its hash).
        assert!(!off.contains("gumbel_m = 0"), "{off}");
        let m = TrainConfig::from_toml("[evaluation]\ngumbel_m = 8\n", "x", &[]).unwrap();
        assert_eq!((m.evaluation.gumbel_m, TrainConfig::from_toml(&m.to_toml(), "x", &[]).unwrap()), (8, m.clone()));
        let e = TrainConfig::from_toml("[evaluation]\ngumbel_m = 300\n", "x", &[]).unwrap_err().to_string();
        assert!(e.starts_with("x: evaluation.gumbel_m = 300 is out of range"), "{e}");
        // The published weights' moving average: the same rule, and 1 (a frozen average) refused.
        assert!(!off.contains("ema_decay"), "{off}");
        let a = TrainConfig::from_toml("[training]\nema_decay = 0.99\n", "x", &[]).unwrap();
        assert_eq!((a.training.ema_decay, TrainConfig::from_toml(&a.to_toml(), "x", &[]).unwrap()), (0.99, a.clone()));
        let e = TrainConfig::from_toml("[training]\nema_decay = 1.0\n", "x", &[]).unwrap_err().to_string();
        assert_eq!(e, "x: training.ema_decay = 1 is out of range (allowed: [0, 1) (0 = off))");
        let e = TrainConfig::from_toml(&format!("[rules]\nruleset = \"fiveup-2001\"\n{leaf}"), "x", &[]).unwrap_err();
        assert!(e.to_string().contains("no NNUE network is shipped for fiveup-2001"), "{e}");
        let e = TrainConfig::from_toml("[rules]\nruleset = \"chess\"\n", "x", &[]).unwrap_err().to_string();
        assert!(e.starts_with("x: rules.ruleset"), "{e}");
        let e = TrainConfig::from_toml("[rules]\nruleset = \"raumschach\"\ncastling = true\n", "x", &[]).unwrap_err();
        assert!(e.to_string().starts_with("x: rules = raumschach castling=true"), "{e}");
    }

    #[test]
    fn errors_name_the_right_section_and_origin() {
        let e = TrainConfig::from_toml(
            "seed = 1\n[selfplay]\ngames_per_generation = 4\n\n[trainin]\nlr = 0.1\n",
            "a.toml",
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("a.toml line 5: unknown field `trainin`") && e.ends_with("in the top level"), "{e}");
        let text = "seed = 1\n[selfplay]\ngames_per_generation = 4\n[training]\nlr = 0.1\n";
        let set = |o: &str| TrainConfig::from_toml(text, "a.toml", &[o.to_string()]).unwrap_err().to_string();
        let e = set("trainin.lr=3");
        assert!(e.starts_with("--set trainin.lr=3: unknown field `trainin`") && e.ends_with("in the top level"), "{e}");
        let e = set("training.lrr=3");
        assert!(e.starts_with("--set training.lrr=3: unknown field `lrr`") && e.ends_with("in [training]"), "{e}");
        assert!(!e.contains("line"), "{e}");
        let e = set("training.lr=abc");
        assert_eq!(e, "--set training.lr=abc: invalid type: string \"abc\", expected f64 in [training]");
        // A value out of range is blamed on the --set that gave it, else on the file.
        let e = TrainConfig::from_toml("[training]\nlr = 1e-3\n", "a.toml", &["training.lr=-1".into()])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--set training.lr=-1: training.lr = -1 is out of range"), "{e}");
        let e = TrainConfig::from_toml("[training]\nlr = -1\n", "a.toml", &["seed=3".into()]).unwrap_err().to_string();
        assert!(e.starts_with("a.toml: training.lr = -1 is out of range"), "{e}");
    }

    #[test]
    fn overrides_apply_dotted_keys() {
        let cfg = TrainConfig::from_toml("", "x", &["training.lr=0.5".into(), "network.backend=none".into()]).unwrap();
        assert_eq!(cfg.training.lr, 0.5);
        assert_eq!(cfg.network.backend, BackendKind::None);
        let e = TrainConfig::from_toml("", "x", &["training.lrr=0.5".into()]).unwrap_err().to_string();
        assert!(e.contains("unknown field `lrr`"), "{e}");
        assert!(TrainConfig::from_toml("", "x", &["nonsense".into()]).is_err());
    }

    #[test]
    fn the_hash_follows_the_effective_config() {
        let a = TrainConfig::default();
        let mut b = a.clone();
        assert_eq!(a.hash(), b.hash());
        b.seed += 1;
        assert_ne!(a.hash(), b.hash());
    }
}
