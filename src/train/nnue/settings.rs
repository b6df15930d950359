//! The NNUE trainer's settings, declared once ([`NnueSettings`]): `fiveup nnue train` takes its
//! flags' defaults from [`NnueSettings::default`] and fills them, a loop config's `[train]`
//! section ([`TrainSection`]) deserialises into them, the trainer
//! ([`super::train::NnueTrainConfig`]) runs on them, and [`NnueSettings::check`] holds every
//! range. Not behind the `torch` feature: the command line parses them without it.

use crate::engine::nnue::{Dims, NetworkFormatError};
use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// Allowed passes over the training samples.
pub const EPOCHS: RangeInclusive<u32> = 1..=10_000;
/// Allowed samples per step.
pub const BATCH: RangeInclusive<usize> = 1..=1 << 20;
/// Allowed weights of the search score in the target.
pub const LAMBDA: RangeInclusive<f32> = 0.0..=1.0;

/// Settings of an NNUE training run: the network's sizes and the optimisation. A key left out of
/// a loop config's `[train]` section takes the value `fiveup nnue train` takes without its flag
/// ([`NnueSettings::default`]); unknown keys are errors.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NnueSettings {
    /// Passes over the training samples ([`EPOCHS`]).
    pub epochs: u32,
    /// Samples per step ([`BATCH`]).
    pub batch: usize,
    /// Peak learning rate, above 0 and at most 1 (cosine to 1% of it over all steps).
    pub lr: f64,
    /// Weight of the search score in the target ([`LAMBDA`]; the rest is the game result).
    pub lambda: f32,
    /// Accumulator width per perspective ([`Dims::hidden`]).
    pub hidden: usize,
    /// First dense layer's width.
    pub l1: usize,
    /// Second dense layer's width.
    pub l2: usize,
    /// Output buckets, by the men on the board (1 is the plain network; [`Dims::buckets`]).
    pub buckets: usize,
    /// King buckets: 1 (none) or 4 ([`crate::engine::nnue::king_bucket`]; [`Dims::kings`]).
    pub king_buckets: usize,
    /// Pairwise products of the accumulator halves ([`Dims::pairwise`]).
    pub pairwise: bool,
    /// Seed of the initial weights and of the sample order. Not a key of a loop config: the loop
    /// seeds generation K's run with K.
    #[serde(skip)]
    pub seed: u64,
    /// A network file whose weights, dequantized, start the run instead of random ones
    /// (fine-tuning a shipped or earlier network on new data); its ruleset and sizes must be the
    /// run's. The Adam moments start at zero either way. Not a key of a loop config: the loop
    /// trains every generation's network from random weights.
    #[serde(skip)]
    pub init: Option<PathBuf>,
}

impl Default for NnueSettings {
    /// The defaults of `fiveup nnue train` (its help text shows them) and of a loop config.
    fn default() -> NnueSettings {
        NnueSettings {
            epochs: 10,
            batch: 8192,
            lr: 1e-3,
            lambda: 0.75,
            hidden: 256,
            l1: 32,
            l2: 32,
            buckets: 1,
            king_buckets: 1,
            pairwise: false,
            seed: 0,
            init: None,
        }
    }
}

impl NnueSettings {
    /// The network's layer sizes.
    pub fn dims(&self) -> Dims {
        Dims {
            hidden: self.hidden,
            l1: self.l1,
            l2: self.l2,
            buckets: self.buckets,
            kings: self.king_buckets,
            pairwise: self.pairwise,
        }
    }

    /// These settings with the network's layer sizes set to `dims`.
    pub fn with_dims(self, dims: Dims) -> NnueSettings {
        NnueSettings {
            hidden: dims.hidden,
            l1: dims.l1,
            l2: dims.l2,
            buckets: dims.buckets,
            king_buckets: dims.kings,
            pairwise: dims.pairwise,
            ..self
        }
    }

    /// Checks every number (the `init` network is checked with the ruleset, by
    /// [`super::train::NnueTrainConfig::check`]).
    pub fn check(&self) -> Result<(), NnueSettingsError> {
        self.dims().check()?;
        if !EPOCHS.contains(&self.epochs) {
            return Err(NnueSettingsError::Epochs(self.epochs));
        }
        if !BATCH.contains(&self.batch) {
            return Err(NnueSettingsError::Batch(self.batch));
        }
        if !(self.lr > 0.0 && self.lr <= 1.0) {
            return Err(NnueSettingsError::Lr(self.lr));
        }
        if !LAMBDA.contains(&self.lambda) {
            return Err(NnueSettingsError::Lambda(self.lambda));
        }
        Ok(())
    }

    /// Optimizer steps in one pass over `samples` training samples (the last batch may be short).
    pub fn steps_per_epoch(&self, samples: usize) -> u64 {
        samples.div_ceil(self.batch.max(1)) as u64
    }

    /// Optimizer steps of the whole run on `samples` training samples (the learning-rate
    /// schedule's length, and the length of a progress bar).
    pub fn total_steps(&self, samples: usize) -> u64 {
        self.steps_per_epoch(samples) * u64::from(self.epochs)
    }
}

/// A setting out of range; the text names the command line's flag (a loop config's error puts
/// `train: ` before it).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NnueSettingsError {
    /// Network sizes that cannot work.
    #[error(transparent)]
    Sizes(#[from] NetworkFormatError),
    /// `--epochs` out of range.
    #[error("--epochs {0}: expected {lo} to {hi}", lo = EPOCHS.start(), hi = EPOCHS.end())]
    Epochs(u32),
    /// `--batch` out of range.
    #[error("--batch {0}: expected {lo} to {hi}", lo = BATCH.start(), hi = BATCH.end())]
    Batch(usize),
    /// `--lr` out of range.
    #[error("--lr {0}: expected a rate above 0 and at most 1")]
    Lr(f64),
    /// `--lambda` out of range.
    #[error("--lambda {0}: expected {lo} to {hi}", lo = LAMBDA.start(), hi = LAMBDA.end())]
    Lambda(f32),
}

/// `[train]` of a loop config (`fiveup nnue loop`): how many generations of data each network is
/// trained on, and every key of [`NnueSettings`] (unknown keys are errors).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSection {
    /// Generations of data each network is trained on (the newest ones); required.
    pub window: u32,
    /// The trainer's settings.
    pub settings: NnueSettings,
}

impl<'de> Deserialize<'de> for TrainSection {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TrainSection, D::Error> {
        d.deserialize_map(SectionVisitor)
    }
}

/// Reads `[train]`: `window` itself, every other key through [`NnueSettings`]'s own
/// `Deserialize`, so the settings' keys, defaults and unknown-key errors are declared once.
/// (serde's `flatten` would do it in a line, but with `deny_unknown_fields` its errors lose the
/// line, the section and the list of keys.)
struct SectionVisitor;

impl<'de> Visitor<'de> for SectionVisitor {
    type Value = TrainSection;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of training settings")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TrainSection, A::Error> {
        let mut rest = WindowAside { map, window: None };
        let settings = NnueSettings::deserialize(MapAccessDeserializer::new(&mut rest))?;
        let window = rest.window.ok_or_else(|| A::Error::missing_field("window"))?;
        Ok(TrainSection { window, settings })
    }
}

/// The `[train]` table without its `window` key, which it keeps aside.
struct WindowAside<A> {
    map: A,
    window: Option<u32>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WindowAside<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let mut seed = seed;
        loop {
            match self.map.next_key_seed(KeyOrWindow(seed))? {
                None => return Ok(None),
                Some(Ok(key)) => return Ok(Some(key)),
                Some(Err(back)) => {
                    self.window = Some(self.map.next_value()?);
                    seed = back;
                }
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// Reads a key of `[train]`: `Err` with the seed handed back for `window`, else the settings'
/// key as the seed reads it.
struct KeyOrWindow<K>(K);

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeyOrWindow<K> {
    type Value = Result<K::Value, K>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let key = String::deserialize(d)?;
        if key == "window" {
            return Ok(Err(self.0));
        }
        self.0.deserialize(StrDeserializer::<serde::de::value::Error>::new(&key)).map(Ok).map_err(|e| {
            // serde lists the settings' keys after "expected one of"; `window` is one more.
            let message = e.to_string();
            if message.starts_with("unknown field") {
                D::Error::custom(format!("{message}, `window`"))
            } else {
                D::Error::custom(message)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Loop {
        #[allow(dead_code)]
        generations: u32,
        train: TrainSection,
    }

    impl crate::tomlcfg::TomlConfig for Loop {}

    fn parse(text: &str) -> Result<Loop, crate::tomlcfg::ConfigError> {
        crate::tomlcfg::load_str(text, "t.toml", &[])
    }

    #[test]
    fn a_train_section_reads_window_and_the_settings_with_their_defaults() {
        let t = parse("generations = 1\n[train]\nepochs = 3\nwindow = 2\nhidden = 64\n").unwrap().train;
        let want = NnueSettings { epochs: 3, hidden: 64, ..NnueSettings::default() };
        assert_eq!(t, TrainSection { window: 2, settings: want });
        // A misspelt key is refused on its line and section, listing every key.
        let text = "generations = 1\n[train]\nwindow = 2\nepocs = 3\n";
        let msg = parse(text).unwrap_err().to_string();
        assert!(msg.starts_with("t.toml line 4: unknown field `epocs`, expected one of `epochs`"), "{msg}");
        assert!(msg.contains("`pairwise`, `window` in [train]"), "{msg}");
        let msg = parse("generations = 1\n[train]\nwindw = 2\n").unwrap_err().to_string();
        assert!(msg.contains("unknown field `windw`") && msg.contains("`window`"), "{msg}");
        // The trainer-only settings are not keys of a loop.
        for key in ["seed = 1", "init = \"x.nnue\""] {
            let msg = parse(&format!("generations = 1\n[train]\nwindow = 1\n{key}\n")).unwrap_err().to_string();
            assert!(msg.contains("unknown field") && msg.contains("line 4"), "{msg}");
        }
        // A value of the wrong type is blamed on its line, a missing window on the section.
        let msg = parse("generations = 1\n[train]\nwindow = 1\nlr = \"x\"\n").unwrap_err().to_string();
        assert!(msg.starts_with("t.toml line 4: ") && msg.contains("in [train]"), "{msg}");
        let msg = parse("generations = 1\n[train]\nepochs = 1\n").unwrap_err().to_string();
        assert!(msg.contains("missing field `window`"), "{msg}");
        let msg = parse("generations = 1\n[train]\nwindow = \"2\"\n").unwrap_err().to_string();
        assert!(msg.starts_with("t.toml line 3: ") && msg.contains("in [train]"), "{msg}");
    }

    #[test]
    fn every_range_is_checked_with_the_flag_named() {
        assert_eq!(NnueSettings::default().check(), Ok(()));
        for (bad, want) in [
            (NnueSettings { epochs: 0, ..NnueSettings::default() }, "--epochs 0: expected 1 to 10000"),
            (
                NnueSettings { batch: (1 << 20) + 1, ..NnueSettings::default() },
                "--batch 1048577: expected 1 to 1048576",
            ),
            (NnueSettings { lr: 0.0, ..NnueSettings::default() }, "--lr 0: expected a rate above 0 and at most 1"),
            (NnueSettings { lambda: 1.5, ..NnueSettings::default() }, "--lambda 1.5: expected 0 to 1"),
            (NnueSettings { king_buckets: 3, ..NnueSettings::default() }, "3 king buckets"),
        ] {
            let e = bad.check().unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
        let d = Dims { hidden: 32, l1: 8, l2: 16, buckets: 4, kings: 4, pairwise: true };
        assert_eq!(NnueSettings::default().with_dims(d).dims(), d);
    }
}
