//! The sections of the training config, each with its defaults (a file names only what it
//! changes).

use serde::{Deserialize, Serialize};

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
    /// Blend weight of the hand evaluation's quiescence value at the leaves (0 = off, 1 = the
    /// hand evaluation's value alone; the game's alpha-beta evaluation with its default weights;
    /// see [`crate::mcts::quiesce`]); the ladder's network player uses it too. Written into a
    /// frozen config only when on.
    #[serde(skip_serializing_if = "is_zero")]
    pub hand_leaf: f32,
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
            hand_leaf: 0.0,
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
    /// small m (docs/RESULTS.md). Written into a frozen config only when set.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub gumbel_m: u32,
    /// Games reaching this many plies are drawn, or see `adjudicate_material`.
    pub ply_cap: u32,
    /// Mixed 3D only: a game reaching the ply cap goes to the side ahead by at least this many
    /// pawns once the captures are played out (the material judge of `match
    /// --adjudicate-material`); 0 draws it.
    pub adjudicate_material: f32,
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
            adjudicate_material: 0.0,
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
