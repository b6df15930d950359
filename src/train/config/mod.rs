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
//! The sections are in [`sections`], the range checks in `validate.rs` (each range written once,
//! as the text its error shows; see [`crate::tomlcfg::range`]); reading, `--set` overrides and the
//! errors are [`crate::tomlcfg`]'s, shared with the other config files.
//!
//! The shipped files are `configs/quick.toml` (CI smoke test), `configs/cpu.toml` (the default
//! main job, embedded in the binary as [`DEFAULT_CONFIG`]) and `configs/gpu.toml`.

mod sections;
mod validate;

pub use sections::{
    BackendKind, BootstrapSection, EvaluationSection, HeldoutSection, LrSchedule, NetworkConfig, OptimizerKind,
    ReplaySection, RulesConfig, Sampling, SearchAlgo, SelfPlaySection, TrainingSection, DEFAULT_WORKER_TIMEOUT_S,
};

use crate::tomlcfg::{self, ConfigError, TomlConfig};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `configs/cpu.toml`, embedded: the configuration `fiveup train` uses without `--config`.
pub const DEFAULT_CONFIG: &str = include_str!("../../../configs/cpu.toml");

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

impl TomlConfig for TrainConfig {
    const RENAMED_KEYS: &'static [(&'static str, &'static str)] = &[(
        "resign_threshold",
        "replaced by `selfplay.resign_loss` (resign when the root loss probability stays at or above \
         it, e.g. 0.95; 0 = never)",
    )];

    fn validate(&self) -> Result<(), ConfigError> {
        TrainConfig::validate(self)
    }
}

impl TrainConfig {
    /// Parses and validates TOML text; `origin` names it in errors. `overrides` are `KEY=VALUE`
    /// assignments (dotted keys, TOML values) applied on top.
    pub fn from_toml(text: &str, origin: &str, overrides: &[String]) -> Result<TrainConfig, ConfigError> {
        tomlcfg::load_str(text, origin, overrides)
    }

    /// Reads, parses and validates a file.
    pub fn from_file(path: &Path, overrides: &[String]) -> Result<TrainConfig, ConfigError> {
        tomlcfg::load_file(path, overrides)
    }

    /// The embedded default ([`DEFAULT_CONFIG`], `configs/cpu.toml`).
    pub fn default_config(overrides: &[String]) -> Result<TrainConfig, ConfigError> {
        TrainConfig::from_toml(DEFAULT_CONFIG, "<embedded configs/cpu.toml>", overrides)
    }

    /// The effective config as TOML (every key, defaults filled in).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config always serialises")
    }

    /// The config's identity stored in checkpoints: a 64-bit FNV-1a hash of [`Self::to_toml`]
    /// with `generations` set to 0 (the one setting a run may change freely), as 16 hex digits.
    pub fn hash(&self) -> String {
        // An identity recorded in checkpoints, not a checksum: it stays FNV-1a so old runs match.
        let fixed = TrainConfig { generations: 0, ..self.clone() };
        format!("{:016x}", crate::fsutil::legacy::fnv1a64(fixed.to_toml().as_bytes()))
    }

    /// The identity checkpoints were written with before `generations` left it (the hash of the
    /// whole config), still accepted from them.
    pub fn legacy_hash(&self) -> String {
        format!("{:016x}", crate::fsutil::legacy::fnv1a64(self.to_toml().as_bytes()))
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
