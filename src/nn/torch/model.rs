//! [`Model`]: a [`Net`] with the `VarStore` that owns its weights, and its files.
//!
//! # Files
//! A saved network is a directory holding two files:
//! - [`WEIGHTS_FILE`] (`weights.safetensors`): every variable of the `VarStore` (weights, biases,
//!   batch-norm running statistics) under its path name, `f32`;
//! - [`SIDECAR_FILE`] (`net.json`): the format name and version, the input and output sizes the
//!   network was built for ([`crate::nn::PLANES`], [`crate::nn::POLICY_SIZE`] for the 5x5x5 games; another game's
//!   network names its encoding in `game`, see [`NetShape`]), its [`NetConfig`], and the size and a
//!   checksum of the weights file (`weights_crc32`, CRC-32; sidecars written before it have
//!   `weights_fnv1a64`, a 64-bit FNV-1a hash, still verified), so a truncated or damaged file is
//!   caught before any tensor is read. Both files are written atomically.
//!
//! Fresh networks and loaded ones go through the same build function, [`Model::new`]: loading
//! reads the sidecar, builds that architecture, then copies the tensors in after checking that
//! the names and shapes match exactly (libtorch's `copy_` would silently broadcast a `[1]` into
//! a `[64]`). Every failure is a [`ModelError`] naming the file and what is wrong; nothing here
//! panics on a bad file.

use super::net::{Net, NetConfig, NetConfigError, NetOutput, NetShape};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tch::{nn, Device, Kind, TchError, Tensor};

/// Name of the weights file inside a network directory.
pub const WEIGHTS_FILE: &str = "weights.safetensors";
/// Name of the architecture sidecar inside a network directory.
pub const SIDECAR_FILE: &str = "net.json";
/// The `format` field of the sidecar.
pub const FORMAT_NAME: &str = "fiveup-net";
/// The sidecar and weight-layout version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// What can go wrong building, saving or loading a network.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The configuration is out of range.
    #[error("invalid network configuration: {0}")]
    Config(#[from] NetConfigError),
    /// The configuration in a sidecar is out of range.
    #[error("invalid network configuration: {}: {source}", path.display())]
    SidecarConfig {
        /// The sidecar file.
        path: PathBuf,
        /// The field out of range.
        source: NetConfigError,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The sidecar is not valid JSON of the expected shape.
    #[error("{path}: not a network description: {source}")]
    Sidecar {
        /// The sidecar file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// The sidecar is of another format or version.
    #[error("{path}: format {found:?} version {version}, this build reads {FORMAT_NAME:?} version {FORMAT_VERSION}")]
    Format {
        /// The sidecar file.
        path: PathBuf,
        /// Its format name.
        found: String,
        /// Its version.
        version: u32,
    },
    /// The network was built for other input or output sizes.
    #[error("{path}: the network has {what} = {found}, this build uses {expected}")]
    Incompatible {
        /// The sidecar file.
        path: PathBuf,
        /// The quantity (planes, policy size).
        what: &'static str,
        /// The file's value.
        found: usize,
        /// This build's value.
        expected: usize,
    },
    /// The weights file is not the one the sidecar describes (truncated, damaged or replaced).
    #[error("{path}: corrupt weights file: {detail}")]
    Corrupt {
        /// The weights file.
        path: PathBuf,
        /// What differs.
        detail: String,
    },
    /// The weights file could not be parsed as safetensors.
    #[error("{path}: unreadable weights: {source}")]
    Weights {
        /// The weights file.
        path: PathBuf,
        /// The cause.
        source: TchError,
    },
    /// The tensors do not fit the architecture (missing, extra or differently shaped).
    #[error("{path}: weights do not fit architecture {config}: {detail}")]
    Mismatch {
        /// The weights file.
        path: PathBuf,
        /// The architecture they were loaded into.
        config: NetConfig,
        /// The first difference found.
        detail: String,
    },
    /// The sidecar names an encoding this build does not know.
    #[error("{path}: unknown game encoding {game:?}")]
    Game {
        /// The sidecar file.
        path: PathBuf,
        /// The name it gives.
        game: String,
    },
    /// The caller asked for one architecture and the file holds another.
    #[error("{path}: the network is {found}, expected {expected}")]
    Unexpected {
        /// The network directory.
        path: PathBuf,
        /// The architecture in the file.
        found: NetConfig,
        /// The architecture asked for.
        expected: NetConfig,
    },
    /// libtorch failed.
    #[error("torch: {0}")]
    Torch(#[from] TchError),
}

/// The sidecar `net.json`, field by field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written.
    pub version: u32,
    /// The game encoding ([`crate::nn::NetGame::ENCODING`]) when not the 5x5x5 games' (whose
    /// sidecars have no such field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The game it was trained on, as `--ruleset` names it (`fiveup`, `raumschach`,
    /// `quasi-alice`): players refuse to use it for another. Absent in sidecars written before it
    /// was recorded (such a network is used for any game of its encoding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// Input planes the network reads ([`crate::nn::PLANES`] for the 5x5x5 games).
    pub planes: usize,
    /// Policy logits it writes ([`crate::nn::POLICY_SIZE`] for the 5x5x5 games).
    pub policy_size: usize,
    /// The architecture.
    pub config: NetConfig,
    /// Size of the weights file in bytes.
    pub weights_bytes: u64,
    /// CRC-32 of the weights file ([`crate::fsutil::crc32`]), as 8 hex digits (written since it
    /// replaced `weights_fnv1a64`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights_crc32: Option<String>,
    /// FNV-1a 64 hash of the weights file, as 16 hex digits: older sidecars only (still verified).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights_fnv1a64: Option<String>,
}

/// A network and the `VarStore` holding its weights, on one device. Not `Sync` (tch tensors
/// are not): one thread owns a model.
pub struct Model {
    vs: nn::VarStore,
    net: Net,
    /// The game it is trained for (the sidecar's `ruleset`).
    ruleset: Option<String>,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model").field("config", self.config()).field("device", &self.device()).finish()
    }
}

impl Model {
    /// A freshly initialised 5x5x5 network of `config` on `device`.
    pub fn new(config: &NetConfig, device: Device) -> Result<Model, ModelError> {
        Model::with_shape(config, NetShape::FIVE_UP, device)
    }

    /// A freshly initialised network of `config` for game `S` (e.g.
    /// `Model::for_game::<quasi_alice::Position>(..)`).
    pub fn for_game<S: crate::nn::NetGame>(config: &NetConfig, device: Device) -> Result<Model, ModelError> {
        Model::with_shape(config, NetShape::of::<S>(), device)
    }

    /// The build function: a freshly initialised network of `config` for a game of `shape` on
    /// `device`. Loading goes through here too.
    pub fn with_shape(config: &NetConfig, shape: NetShape, device: Device) -> Result<Model, ModelError> {
        config.validate()?;
        let vs = nn::VarStore::new(device);
        let net = Net::with_shape(&vs.root(), config, shape);
        Ok(Model { vs, net, ruleset: None })
    }

    /// Loads the network saved in directory `dir`, with the architecture and game its sidecar
    /// records.
    pub fn load(dir: &Path, device: Device) -> Result<Model, ModelError> {
        let sidecar = read_sidecar(dir)?;
        let shape = sidecar_shape(&dir.join(SIDECAR_FILE), &sidecar)?;
        let weights = dir.join(WEIGHTS_FILE);
        check_weights_file(&weights, &sidecar)?;
        let mut model = Model::with_shape(&sidecar.config, shape, device)?;
        model.load_weights(&weights)?;
        model.ruleset = sidecar.ruleset;
        Ok(model)
    }

    /// Loads the network in `dir`, which must have architecture `expected`.
    pub fn load_expecting(dir: &Path, expected: &NetConfig, device: Device) -> Result<Model, ModelError> {
        let found = read_sidecar(dir)?.config;
        if found != *expected {
            return Err(ModelError::Unexpected { path: dir.to_path_buf(), found, expected: *expected });
        }
        Model::load(dir, device)
    }

    /// Saves into directory `dir` (created if needed): the weights, then the sidecar, each
    /// written atomically ([`crate::fsutil`]).
    pub fn save(&self, dir: &Path) -> Result<(), ModelError> {
        std::fs::create_dir_all(dir).map_err(|source| ModelError::Io { path: dir.to_path_buf(), source })?;
        let named: Vec<(String, Tensor)> =
            self.named_variables().into_iter().map(|(k, v)| (k, v.to_device(Device::Cpu))).collect();
        let weights = dir.join(WEIGHTS_FILE);
        let mut bytes = Vec::new();
        // The temporary keeps the `.safetensors` extension: tch picks the format from it.
        crate::fsutil::write_atomic_via(
            &weights,
            |tmp| {
                Tensor::write_safetensors(&named, tmp)
                    .map_err(|source| ModelError::Weights { path: tmp.to_path_buf(), source })?;
                bytes = std::fs::read(tmp).map_err(|source| ModelError::Io { path: tmp.to_path_buf(), source })?;
                Ok(())
            },
            |source| ModelError::Io { path: weights.clone(), source },
        )?;
        let shape = *self.shape();
        let sidecar = Sidecar {
            format: FORMAT_NAME.to_string(),
            version: FORMAT_VERSION,
            game: (shape != NetShape::FIVE_UP).then(|| shape.game.to_string()),
            ruleset: self.ruleset.clone(),
            planes: shape.planes,
            policy_size: shape.policy_size(),
            config: *self.config(),
            weights_bytes: bytes.len() as u64,
            weights_crc32: Some(format!("{:08x}", crate::fsutil::crc32(&bytes))),
            weights_fnv1a64: None,
        };
        let path = dir.join(SIDECAR_FILE);
        let text = serde_json::to_string_pretty(&sidecar).expect("a sidecar always serialises") + "\n";
        crate::fsutil::write_atomic(&path, text.as_bytes()).map_err(|source| ModelError::Io { path, source })
    }

    /// Copies the tensors of a safetensors file into this model's variables, after checking
    /// that the names and shapes are exactly this architecture's ([`Model::read_matching`]).
    pub fn load_weights(&mut self, path: &Path) -> Result<(), ModelError> {
        let mut file = self.read_matching(path)?;
        for (name, mut var) in self.named_variables() {
            let src = file.remove(&name).expect("read_matching checked every name");
            tch::no_grad(|| var.f_copy_(&src))?;
        }
        Ok(())
    }

    /// Reads a safetensors file that must hold exactly this model's variables (names, shapes,
    /// `f32`), without loading it: the weights of [`Model::load_weights`], or other values of
    /// the same variables (a learner's moving average of the weights).
    pub fn read_matching(&self, path: &Path) -> Result<BTreeMap<String, Tensor>, ModelError> {
        let mismatch =
            |detail: String| ModelError::Mismatch { path: path.to_path_buf(), config: *self.config(), detail };
        let file: BTreeMap<String, Tensor> = Tensor::read_safetensors(path)
            .map_err(|source| ModelError::Weights { path: path.to_path_buf(), source })?
            .into_iter()
            .collect();
        let vars = self.named_variables();
        for (name, var) in &vars {
            let src = file.get(name).ok_or_else(|| mismatch(format!("tensor {name} is missing")))?;
            if src.size() != var.size() || src.kind() != Kind::Float {
                return Err(mismatch(format!(
                    "tensor {name} is {:?} {:?}, expected {:?} {:?}",
                    src.kind(),
                    src.size(),
                    Kind::Float,
                    var.size()
                )));
            }
        }
        let mut extra = file.keys().filter(|k| !vars.contains_key(*k));
        if let Some(first) = extra.next() {
            return Err(mismatch(format!("unexpected tensor {first} (and {} more)", extra.count())));
        }
        Ok(file)
    }

    /// Every variable (trainable or not) by path name, sorted. The tensors share storage with
    /// the model's.
    pub fn named_variables(&self) -> BTreeMap<String, Tensor> {
        self.vs.variables().into_iter().collect()
    }

    /// Runs the network; see [`Net::forward_t`].
    pub fn forward_t(&self, x: &Tensor, train: bool) -> NetOutput {
        self.net.forward_t(x, train)
    }

    /// The architecture.
    pub fn config(&self) -> &NetConfig {
        self.net.config()
    }

    /// The game it is trained for, as `--ruleset` names it (`None`: not recorded).
    pub fn ruleset(&self) -> Option<&str> {
        self.ruleset.as_deref()
    }

    /// Records the game it is trained for (saved in the sidecar).
    pub fn set_ruleset(&mut self, ruleset: Option<String>) {
        self.ruleset = ruleset;
    }

    /// The game shape it was built for.
    pub fn shape(&self) -> &NetShape {
        self.net.shape()
    }

    /// The device the weights live on.
    pub fn device(&self) -> Device {
        self.vs.device()
    }

    /// The layers.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The variable store (for an optimizer).
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    /// Number of trainable parameters.
    pub fn parameter_count(&self) -> usize {
        self.vs.trainable_variables().iter().map(|t| t.numel()).sum()
    }
}

/// Reads and checks the sidecar of the network in `dir`.
pub fn read_sidecar(dir: &Path) -> Result<Sidecar, ModelError> {
    let path = dir.join(SIDECAR_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| ModelError::Io { path: path.clone(), source })?;
    let sidecar: Sidecar =
        serde_json::from_str(&text).map_err(|source| ModelError::Sidecar { path: path.clone(), source })?;
    if sidecar.format != FORMAT_NAME || sidecar.version != FORMAT_VERSION {
        return Err(ModelError::Format { path, found: sidecar.format, version: sidecar.version });
    }
    let shape = sidecar_shape(&path, &sidecar)?;
    for (what, found, expected) in
        [("planes", sidecar.planes, shape.planes), ("policy size", sidecar.policy_size, shape.policy_size())]
    {
        if found != expected {
            return Err(ModelError::Incompatible { path, what, found, expected });
        }
    }
    sidecar.config.validate().map_err(|source| ModelError::SidecarConfig { path, source })?;
    Ok(sidecar)
}

/// The game shape a sidecar names (the 5x5x5 games' when it names none).
fn sidecar_shape(path: &Path, sidecar: &Sidecar) -> Result<NetShape, ModelError> {
    match &sidecar.game {
        None => Ok(NetShape::FIVE_UP),
        Some(g) => NetShape::by_name(g).ok_or_else(|| ModelError::Game { path: path.to_path_buf(), game: g.clone() }),
    }
}

fn check_weights_file(path: &Path, sidecar: &Sidecar) -> Result<(), ModelError> {
    let bytes = std::fs::read(path).map_err(|source| ModelError::Io { path: path.to_path_buf(), source })?;
    let corrupt = |detail: String| ModelError::Corrupt { path: path.to_path_buf(), detail };
    if bytes.len() as u64 != sidecar.weights_bytes {
        return Err(corrupt(format!("{} bytes, the sidecar says {}", bytes.len(), sidecar.weights_bytes)));
    }
    let (name, found, expected) = match (&sidecar.weights_crc32, &sidecar.weights_fnv1a64) {
        (Some(want), _) => ("CRC-32", format!("{:08x}", crate::fsutil::crc32(&bytes)), want),
        (None, Some(want)) => ("FNV-1a hash", format!("{:016x}", crate::fsutil::legacy::fnv1a64(&bytes)), want),
        (None, None) => return Err(corrupt("the sidecar has no checksum (weights_crc32)".to_string())),
    };
    if found != *expected {
        return Err(corrupt(format!("{name} {found}, the sidecar says {expected}")));
    }
    Ok(())
}

/// The same 5-D tensor with channels-last strides (libtorch's `ChannelsLast3d`, which tch has no
/// name for): the data laid out `[n, d, h, w, c]`, the shape still `[n, c, d, h, w]`.
pub fn to_channels_last(t: &Tensor) -> Tensor {
    t.permute([0, 2, 3, 4, 1]).contiguous().permute([0, 4, 1, 2, 3])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encode::encode_batch;
    use crate::nn::{INPUT_SIZE, PLANES, POLICY_SIZE};
    use crate::rules::random::random_positions;
    use crate::rules::Variant;

    fn input(n: usize) -> Tensor {
        let ps = random_positions(Variant::default(), 5, 1, n);
        let mut x = vec![0.0; ps.len() * INPUT_SIZE];
        encode_batch(ps.iter().map(|p| (p, 0)), &mut x);
        Tensor::from_slice(&x).view([ps.len() as i64, PLANES as i64, 5, 5, 5])
    }

    fn tmp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fiveup-model-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// A tiny model whose batch-norm running statistics are not the initial ones.
    fn trained_looking_model() -> Model {
        tch::manual_seed(1);
        let m = Model::new(&NetConfig::TINY, Device::Cpu).unwrap();
        tch::no_grad(|| m.forward_t(&input(12), true));
        m
    }

    fn outputs_equal(a: &NetOutput, b: &NetOutput) -> bool {
        a.policy.equal(&b.policy) && a.wdl.equal(&b.wdl) && a.moves_left.equal(&b.moves_left)
    }

    #[test]
    fn save_then_load_gives_identical_outputs() {
        let dir = tmp_dir("roundtrip");
        let m = trained_looking_model();
        m.save(&dir).unwrap();
        let back = Model::load(&dir, Device::Cpu).unwrap();
        assert_eq!(back.config(), m.config());
        let x = input(8);
        let (a, b) = tch::no_grad(|| (m.forward_t(&x, false), back.forward_t(&x, false)));
        assert!(outputs_equal(&a, &b));
        // A fresh model of the same architecture differs, so the load did something.
        tch::manual_seed(2);
        let fresh = Model::new(&NetConfig::TINY, Device::Cpu).unwrap();
        assert!(!outputs_equal(&a, &tch::no_grad(|| fresh.forward_t(&x, false))));
        let sidecar = read_sidecar(&dir).unwrap();
        assert_eq!((sidecar.planes, sidecar.policy_size, sidecar.version), (PLANES, POLICY_SIZE, FORMAT_VERSION));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_quasi_alice_network_saves_its_game_and_loads_back() {
        use crate::nn::quasi_alice::INPUT_SIZE as QA_INPUT;
        type Qa = crate::quasi_alice::Position;
        let dir = tmp_dir("quasi-alice");
        tch::manual_seed(4);
        let m = Model::for_game::<Qa>(&NetConfig::TINY, Device::Cpu).unwrap();
        assert_eq!(*m.shape(), NetShape::QUASI_ALICE);
        let x = Tensor::randn([3, QA_INPUT as i64], (Kind::Float, Device::Cpu));
        tch::no_grad(|| m.forward_t(&x, true));
        m.save(&dir).unwrap();
        let sidecar = read_sidecar(&dir).unwrap();
        assert_eq!(sidecar.game.as_deref(), Some("quasi-alice"));
        assert_eq!((sidecar.planes, sidecar.policy_size), (25, 74_752));
        let back = Model::load(&dir, Device::Cpu).unwrap();
        assert_eq!(*back.shape(), NetShape::QUASI_ALICE);
        let (a, b) = tch::no_grad(|| (m.forward_t(&x, false), back.forward_t(&x, false)));
        assert!(outputs_equal(&a, &b));
        assert_eq!(a.policy.size(), [3, 292, 4, 8, 8]);
        // A 5x5x5 sidecar has no game field; an unknown game is refused by name.
        let five = tmp_dir("five-no-game");
        trained_looking_model().save(&five).unwrap();
        assert!(!std::fs::read_to_string(five.join(SIDECAR_FILE)).unwrap().contains("game"));
        let mut bad = sidecar.clone();
        bad.game = Some("go".into());
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&bad).unwrap()).unwrap();
        let e = Model::load(&dir, Device::Cpu).unwrap_err();
        assert!(matches!(e, ModelError::Game { .. }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&five).unwrap();
    }

    #[test]
    fn damaged_files_are_clear_errors() {
        let dir = tmp_dir("damaged");
        let m = trained_looking_model();
        m.save(&dir).unwrap();
        let weights = dir.join(WEIGHTS_FILE);
        let good = std::fs::read(&weights).unwrap();
        let load_err = || Model::load(&dir, Device::Cpu).unwrap_err();

        // Truncated weights: caught by the sidecar's size.
        std::fs::write(&weights, &good[..good.len() / 2]).unwrap();
        assert!(matches!(load_err(), ModelError::Corrupt { .. }), "{}", load_err());
        // One flipped byte: caught by the hash.
        let mut flipped = good.clone();
        flipped[good.len() - 3] ^= 0x40;
        std::fs::write(&weights, &flipped).unwrap();
        assert!(load_err().to_string().contains("corrupt weights file: CRC-32"), "{}", load_err());
        // A sidecar written before CRC-32 (FNV-1a 64 only) still loads, and is still verified.
        std::fs::write(&weights, &good).unwrap();
        let mut old = read_sidecar(&dir).unwrap();
        assert!(old.weights_crc32.is_some() && old.weights_fnv1a64.is_none());
        old.weights_crc32 = None;
        old.weights_fnv1a64 = Some(format!("{:016x}", crate::fsutil::legacy::fnv1a64(&good)));
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&old).unwrap()).unwrap();
        assert!(!std::fs::read_to_string(dir.join(SIDECAR_FILE)).unwrap().contains("crc32"));
        Model::load(&dir, Device::Cpu).unwrap();
        std::fs::write(&weights, &flipped).unwrap();
        assert!(load_err().to_string().contains("corrupt weights file: FNV-1a hash"), "{}", load_err());
        // Truncated weights under a sidecar that vouches for them: safetensors refuses them.
        let mut sidecar = read_sidecar(&dir).unwrap();
        let cut = &good[..good.len() - 100];
        sidecar.weights_bytes = cut.len() as u64;
        sidecar.weights_crc32 = Some(format!("{:08x}", crate::fsutil::crc32(cut)));
        std::fs::write(&weights, cut).unwrap();
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&sidecar).unwrap()).unwrap();
        assert!(matches!(load_err(), ModelError::Weights { .. }), "{}", load_err());
        // Garbage sidecar, missing files.
        std::fs::write(dir.join(SIDECAR_FILE), "{\"format\": 3").unwrap();
        assert!(matches!(load_err(), ModelError::Sidecar { .. }), "{}", load_err());
        std::fs::remove_file(dir.join(SIDECAR_FILE)).unwrap();
        assert!(matches!(load_err(), ModelError::Io { .. }), "{}", load_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn mismatched_architectures_are_clear_errors() {
        let dir = tmp_dir("mismatch");
        trained_looking_model().save(&dir).unwrap();
        let wider = NetConfig { channels: 32, ..NetConfig::TINY };
        let e = Model::load_expecting(&dir, &wider, Device::Cpu).unwrap_err();
        assert!(matches!(e, ModelError::Unexpected { .. }), "{e}");
        // A sidecar that lies about the architecture: the shapes give it away.
        let mut sidecar = read_sidecar(&dir).unwrap();
        sidecar.config = wider;
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&sidecar).unwrap()).unwrap();
        let e = Model::load(&dir, Device::Cpu).unwrap_err();
        assert!(matches!(e, ModelError::Mismatch { .. }), "{e}");
        assert!(e.to_string().contains(", 32, 1, 1, 1]"), "{e}");
        // More blocks: tensors missing.
        sidecar.config = NetConfig { blocks: 2, ..NetConfig::TINY };
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&sidecar).unwrap()).unwrap();
        let e = Model::load(&dir, Device::Cpu).unwrap_err();
        assert!(e.to_string().contains("is missing"), "{e}");
        // Another input encoding, another format version.
        sidecar.config = NetConfig::TINY;
        sidecar.planes = PLANES + 1;
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&sidecar).unwrap()).unwrap();
        let e = Model::load(&dir, Device::Cpu).unwrap_err();
        assert!(matches!(e, ModelError::Incompatible { what: "planes", .. }), "{e}");
        sidecar.planes = PLANES;
        sidecar.version = FORMAT_VERSION + 1;
        std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_string(&sidecar).unwrap()).unwrap();
        assert!(matches!(Model::load(&dir, Device::Cpu).unwrap_err(), ModelError::Format { .. }));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_configs_are_rejected() {
        let e = Model::new(&NetConfig { blocks: 0, ..NetConfig::TINY }, Device::Cpu).unwrap_err();
        assert_eq!(e.to_string(), "invalid network configuration: blocks = 0 is outside 1..=64");
    }
}
