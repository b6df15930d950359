//! The tch learner (behind the `torch` feature): the 3D ResNet of [`crate::nn::torch`], trained
//! with AdamW or SGD implemented here on tensors so that the optimizer state (moments, momentum
//! buffers, step count) can be saved in checkpoints (tch's `nn::Optimizer` keeps it out of reach).
//!
//! Checkpoint files: the model's own (`weights.safetensors`, `net.json`), plus
//! `optimizer.safetensors` (one tensor per trainable variable and moment: `m.NAME`, `v.NAME` for
//! AdamW, `b.NAME` for SGD) and `optimizer.json` (kind and step count). Published networks are the
//! model's files only, loaded by [`torch_evaluator`] on the best device (CUDA when present).
//!
//! Weight decay (AdamW's decoupled decay, SGD's L2 term) applies only to the weights of
//! convolutions and linear layers ([`decays`]: variables of two or more dimensions), not to
//! biases or batch-norm scales and shifts: shrinking those does not regularise (batch norm undoes
//! the scale of the weights before it) and only pulls the affine maps towards zero.
//!
//! **Moving average of the weights** (`training.ema_decay` = `d` > 0; KataGo publishes a
//! stochastic weight average for the same reason). After every step `e ← d·e + (1 − d)·w` for
//! every variable of the model, batch-norm running statistics included; the average starts at the
//! weights after the first step (of the run, of a `network.init` start, or of a resume from a
//! checkpoint written without it) and runs on across generations. Generations publish the
//! average, not the weights of their last step: with a constant learning rate and noisy value
//! targets, the weights after the last of ~150 steps carry that step's noise, which the held-out
//! value figures show as one-generation spikes (`docs/RESULTS.md`). Training itself
//! continues from the trained weights. Checkpoints keep the average in `ema.safetensors` (one
//! tensor per variable, the model's names); `d = 0` publishes the trained weights.

use super::learner::{Learner, StepStats};
use super::replay::TrainBatch;
use super::TrainError;
use crate::nn::torch::net::MOVES_LEFT_SCALE;
use crate::nn::torch::train::{losses, move_log_probs, Batch, LossWeights};
use crate::nn::torch::{default_device, BlockKind, Model, ModelError, NetConfig, NetShape, TorchBackend};
use crate::nn::{Evaluator, NetGame, NetworkEvaluator};
use crate::train::config::{OptimizerKind, TrainConfig, TrainingSection};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use tch::{Device, Kind, Tensor};

/// Whether weight decay applies to the trainable variable `name`: the weights of convolutions
/// and linear layers (two or more dimensions) do; biases and batch-norm weights and biases
/// (one dimension) do not.
pub fn decays(name: &str, var: &Tensor) -> bool {
    var.dim() >= 2 && !name.ends_with("bias")
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

/// The network architecture a config asks for.
pub fn net_config(cfg: &TrainConfig) -> NetConfig {
    let block = if cfg.network.block == "factorised" { BlockKind::Factorised } else { BlockKind::Full };
    NetConfig { blocks: cfg.network.blocks, channels: cfg.network.channels, block, se: cfg.network.se }
}

fn backend_err(e: impl std::fmt::Display) -> TrainError {
    TrainError::Backend(e.to_string())
}

/// `optimizer.json`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptimMeta {
    kind: OptimizerKind,
    steps: u64,
}

/// A tch network and its optimizer.
pub struct TchLearner {
    model: Model,
    /// The game of the run, recorded in every network saved (`net.json`'s `ruleset`).
    ruleset: Option<String>,
    net: NetConfig,
    /// The game's sizes: a checkpoint or network of another game is refused.
    shape: NetShape,
    training: TrainingSection,
    weights: LossWeights,
    device: Device,
    /// Optimizer buffers by name (`m.VAR`, `v.VAR`, `b.VAR`).
    state: BTreeMap<String, Tensor>,
    steps: u64,
    /// The moving average of every variable by name (empty: none yet, or `ema_decay` = 0).
    ema: BTreeMap<String, Tensor>,
}

/// The checkpoint file of the moving average of the weights.
const EMA_FILE: &str = "ema.safetensors";

impl TchLearner {
    /// A freshly initialised 5x5x5 network (seeded by the run seed) on the best device.
    pub fn new(cfg: &TrainConfig) -> Result<TchLearner, TrainError> {
        TchLearner::with_shape(cfg, NetShape::FIVE_UP)
    }

    /// A freshly initialised network for a game of `shape` (seeded by the run seed) on the best
    /// device.
    pub fn with_shape(cfg: &TrainConfig, shape: NetShape) -> Result<TchLearner, TrainError> {
        tch::manual_seed(cfg.seed as i64);
        let device = default_device();
        let net = net_config(cfg);
        let mut model = Model::with_shape(&net, shape, device).map_err(backend_err)?;
        let ruleset = cfg.game().ok().map(|g| g.name().to_string());
        model.set_ruleset(ruleset.clone());
        let t = &cfg.training;
        let weights = LossWeights { policy: t.policy_weight, wdl: t.value_weight, moves_left: t.moves_left_weight };
        Ok(TchLearner {
            model,
            ruleset,
            net,
            shape,
            training: t.clone(),
            weights,
            device,
            state: BTreeMap::new(),
            steps: 0,
            ema: BTreeMap::new(),
        })
    }

    /// Loads the network in `dir`, which must have this learner's architecture and game.
    fn load_model(&self, dir: &Path) -> Result<Model, TrainError> {
        let mut model = Model::load_expecting(dir, &self.net, self.device).map_err(backend_err)?;
        check_shape(dir, model.shape(), &self.shape)?;
        // Checkpoints from before the game was recorded get it now.
        model.set_ruleset(self.ruleset.clone());
        Ok(model)
    }

    fn trainable(&self) -> BTreeMap<String, Tensor> {
        self.model.named_variables().into_iter().filter(|(_, v)| v.requires_grad()).collect()
    }

    fn batch(&self, b: &TrainBatch) -> Batch {
        let (n, k) = (b.n as i64, b.k as i64);
        let ml: Vec<f32> = b.moves_left.iter().map(|x| x / MOVES_LEFT_SCALE as f32).collect();
        let d = self.device;
        Batch {
            input: Tensor::from_slice(&b.input).view(self.shape.input_dims(n)).to_device(d),
            move_index: Tensor::from_slice(&b.move_index).view([n, k, 3]).to_device(d),
            move_mask: Tensor::from_slice(&b.move_mask).view([n, k]).to_device(d),
            policy: Tensor::from_slice(&b.policy).view([n, k]).to_device(d),
            wdl: Tensor::from_slice(&b.wdl).view([n, 3]).to_device(d),
            moves_left: Tensor::from_slice(&ml).to_device(d),
        }
    }

    fn buffer(&mut self, name: String, like: &Tensor) -> Tensor {
        self.state.entry(name).or_insert_with(|| like.zeros_like()).shallow_clone()
    }

    /// The update, under no_grad: gradient clipping, then AdamW or SGD with Nesterov momentum.
    fn update(&mut self, lr: f64) {
        let vars = self.trainable();
        let grads: Vec<(String, Tensor, Tensor)> = vars
            .into_iter()
            .filter_map(|(n, v)| {
                let g = v.grad();
                g.defined().then_some((n, v, g))
            })
            .collect();
        let t = self.training.clone();
        tch::no_grad(|| {
            if t.clip_norm > 0.0 {
                let total: f64 = grads
                    .iter()
                    .map(|(_, _, g)| f64::try_from(g.pow_tensor_scalar(2).sum(Kind::Float)).unwrap_or(0.0))
                    .sum();
                let norm = total.sqrt();
                if norm > t.clip_norm {
                    for (_, _, g) in &grads {
                        let _ = g.shallow_clone().g_mul_scalar_(t.clip_norm / (norm + 1e-6));
                    }
                }
            }
            self.steps += 1;
            let step = self.steps as i32;
            for (name, var, g) in &grads {
                let mut var = var.shallow_clone();
                let wd = if decays(name, var.as_ref()) { t.weight_decay } else { 0.0 };
                match t.optimizer {
                    OptimizerKind::Adamw => {
                        let mut m = self.buffer(format!("m.{name}"), var.as_ref());
                        let mut v = self.buffer(format!("v.{name}"), var.as_ref());
                        let _ = m.g_mul_scalar_(BETA1).g_add_(&(g * (1.0 - BETA1)));
                        let _ = v.g_mul_scalar_(BETA2).g_add_(&(g * g * (1.0 - BETA2)));
                        let mhat = &m / (1.0 - BETA1.powi(step));
                        let vhat = &v / (1.0 - BETA2.powi(step));
                        if wd > 0.0 {
                            let _ = var.g_mul_scalar_(1.0 - lr * wd);
                        }
                        let _ = var.g_sub_(&(mhat / (vhat.sqrt() + EPS) * lr));
                    }
                    OptimizerKind::Sgd => {
                        let mut b = self.buffer(format!("b.{name}"), var.as_ref());
                        let d = g + &var * wd;
                        let _ = b.g_mul_scalar_(t.momentum).g_add_(&d);
                        let _ = var.g_sub_(&((d + &b * t.momentum) * lr));
                    }
                }
            }
            if t.ema_decay > 0.0 {
                self.average(t.ema_decay);
            }
        });
    }

    /// One step of the moving average (under no_grad): `e ← d·e + (1 − d)·w` for every variable,
    /// or a copy of the weights where there is no average yet.
    fn average(&mut self, d: f64) {
        for (name, var) in self.model.named_variables() {
            match self.ema.get_mut(&name) {
                Some(e) => {
                    let _ = e.g_mul_scalar_(d).g_add_(&(&var * (1.0 - d)));
                }
                None => {
                    self.ema.insert(name, var.copy());
                }
            }
        }
    }

    /// Reads a checkpoint's moving average, which must hold exactly the model's variables.
    fn read_average(&self, path: &Path) -> Result<BTreeMap<String, Tensor>, TrainError> {
        let ema = self.model.read_matching(path).map_err(|e| match e {
            ModelError::Mismatch { detail, .. } => TrainError::Invalid {
                path: path.to_path_buf(),
                detail: format!("moving average does not fit the network: {detail}"),
            },
            ModelError::Weights { source, .. } => {
                TrainError::Corrupt { path: path.to_path_buf(), detail: source.to_string() }
            }
            e => TrainError::Backend(e.to_string()),
        })?;
        Ok(ema.into_iter().map(|(k, v)| (k, v.to_device(self.device))).collect())
    }
}

/// Writes named tensors (moved to the CPU) into the safetensors file `path`.
fn write_tensors<'a>(tensors: impl Iterator<Item = (&'a String, &'a Tensor)>, path: &Path) -> Result<(), TrainError> {
    let named: Vec<(String, Tensor)> = tensors.map(|(k, v)| (k.clone(), v.to_device(Device::Cpu))).collect();
    Tensor::write_safetensors(&named, path).map_err(|e| TrainError::Backend(format!("{}: {e}", path.display())))
}

impl Learner for TchLearner {
    fn describe(&self) -> String {
        format!("torch {} on {:?}, {} parameters", self.net, self.device, self.model.parameter_count())
    }

    fn step(&mut self, b: &TrainBatch, lr: f64) -> Result<StepStats, TrainError> {
        let batch = self.batch(b);
        for (_, v) in self.trainable() {
            let mut g = v.grad();
            if g.defined() {
                let _ = g.zero_();
            }
        }
        let out = self.model.forward_t(&batch.input, true);
        let l = losses(&out, &batch, &self.weights);
        l.total.backward();
        let acc = tch::no_grad(|| {
            let not_mask = batch.move_mask.logical_not();
            let pred = move_log_probs(&out.policy, &batch).masked_fill(&not_mask, -1e30).argmax(-1, false);
            let target = batch.policy.argmax(-1, false);
            // Over the items with a policy target (value-only samples have none).
            let has = batch.policy.sum_dim_intlist(-1, false, Kind::Float).gt(0.5).to_kind(Kind::Float);
            let hits = (pred.eq_tensor(&target).to_kind(Kind::Float) * &has).sum(Kind::Float);
            f64::try_from(hits / has.sum(Kind::Float).clamp_min(1.0)).unwrap_or(f64::NAN)
        });
        self.update(lr);
        let v = |t: &Tensor| f64::try_from(t).unwrap_or(f64::NAN);
        Ok(StepStats {
            policy_loss: v(&l.policy),
            value_loss: v(&l.wdl),
            moves_left_loss: v(&l.moves_left),
            total_loss: v(&l.total),
            policy_accuracy: acc,
        })
    }

    fn save(&self, dir: &Path) -> Result<(), TrainError> {
        self.model.save(dir).map_err(backend_err)?;
        write_tensors(self.state.iter(), &dir.join("optimizer.safetensors"))?;
        let meta = OptimMeta { kind: self.training.optimizer, steps: self.steps };
        let path = dir.join("optimizer.json");
        std::fs::write(&path, serde_json::to_string(&meta).expect("serialises"))
            .map_err(|e| TrainError::io(&path, e))?;
        if !self.ema.is_empty() {
            write_tensors(self.ema.iter(), &dir.join(EMA_FILE))?;
        }
        Ok(())
    }

    fn load(&mut self, dir: &Path) -> Result<(), TrainError> {
        self.model = self.load_model(dir)?;
        let path = dir.join("optimizer.json");
        let text = std::fs::read_to_string(&path).map_err(|e| TrainError::io(&path, e))?;
        let meta: OptimMeta = serde_json::from_str(&text)
            .map_err(|e| TrainError::Corrupt { path: path.clone(), detail: e.to_string() })?;
        let path = dir.join("optimizer.safetensors");
        let tensors = Tensor::read_safetensors(&path)
            .map_err(|e| TrainError::Corrupt { path: path.clone(), detail: e.to_string() })?;
        if meta.kind == self.training.optimizer {
            check_optimizer_state(&path, meta.kind, &self.trainable(), &tensors)?;
        }
        self.state = tensors.into_iter().map(|(k, v)| (k, v.to_device(self.device))).collect();
        if meta.kind != self.training.optimizer {
            tracing::warn!(
                "{}: optimizer state of {:?}, the config asks for {:?}: starting it afresh",
                path.display(),
                meta.kind,
                self.training.optimizer
            );
            self.state.clear();
        }
        self.steps = meta.steps;
        self.ema.clear();
        let path = dir.join(EMA_FILE);
        if self.training.ema_decay > 0.0 {
            if path.exists() {
                self.ema = self.read_average(&path)?;
            } else {
                tracing::info!(
                    "{}: no moving average of the weights: it starts from the weights after the next step",
                    dir.display()
                );
            }
        }
        Ok(())
    }

    fn init_from(&mut self, dir: &Path) -> Result<(), TrainError> {
        self.model = self.load_model(dir)?;
        self.state.clear();
        self.steps = 0;
        self.ema.clear();
        Ok(())
    }

    fn publish(&self, dir: &Path) -> Result<(), TrainError> {
        if self.ema.is_empty() {
            return self.model.save(dir).map_err(backend_err);
        }
        // The average goes out through the model's own variables (a fresh model would draw its
        // initial weights from libtorch's generator and change what follows): swapped in for the
        // save, and the trained weights swapped back whatever the save did.
        let swapped: Vec<(Tensor, Tensor)> = tch::no_grad(|| {
            self.model
                .named_variables()
                .into_iter()
                .map(|(name, mut var)| {
                    let trained = var.copy();
                    var.copy_(&self.ema[&name]);
                    (var, trained)
                })
                .collect()
        });
        let saved = self.model.save(dir).map_err(backend_err);
        tch::no_grad(|| {
            for (mut var, trained) in swapped {
                var.copy_(&trained);
            }
        });
        saved
    }
}

/// Checks optimizer buffers read from `path` against the network's trainable variables `vars`:
/// every name must be a buffer of `kind` (`m.VAR` and `v.VAR` for AdamW, `b.VAR` for SGD) of a
/// variable of the network, with that variable's shape. (Without this a checkpoint of another
/// architecture would load and fail, or silently broadcast, at the first update.)
fn check_optimizer_state(
    path: &Path,
    kind: OptimizerKind,
    vars: &BTreeMap<String, Tensor>,
    tensors: &[(String, Tensor)],
) -> Result<(), TrainError> {
    let prefixes: &[&str] = match kind {
        OptimizerKind::Adamw => &["m.", "v."],
        OptimizerKind::Sgd => &["b."],
    };
    let bad = |detail: String| {
        TrainError::Invalid {
        path: path.to_path_buf(),
        detail: format!("optimizer state does not fit the network: {detail}; resume with the config this checkpoint was written under"),
    }
    };
    for (name, t) in tensors {
        let var = prefixes.iter().find_map(|p| name.strip_prefix(p));
        let Some(var) = var else {
            return Err(bad(format!("tensor {name} is not a {kind:?} buffer ({})", prefixes.join("VAR, ") + "VAR")));
        };
        let Some(v) = vars.get(var) else {
            return Err(bad(format!("tensor {name} names no variable of the network")));
        };
        if t.size() != v.size() {
            return Err(bad(format!("tensor {name} has shape {:?}, the network's {var} has {:?}", t.size(), v.size())));
        }
    }
    Ok(())
}

/// The evaluator of a published network of game `S`, on the best device (a network of another
/// game is refused).
pub fn torch_evaluator<S: NetGame>(cfg: &TrainConfig, dir: &Path) -> Result<Box<dyn Evaluator<S>>, TrainError> {
    let model = Model::load(dir, default_device()).map_err(backend_err)?;
    check_shape(dir, model.shape(), &NetShape::of::<S>())?;
    let batch = (cfg.selfplay.concurrent_games * cfg.selfplay.max_batch as usize).clamp(1, 4096);
    Ok(Box::new(NetworkEvaluator::<_, S>::for_game(TorchBackend::new(model, batch))))
}

/// Refuses a network of another game than `want`'s.
fn check_shape(dir: &Path, found: &NetShape, want: &NetShape) -> Result<(), TrainError> {
    if found == want {
        return Ok(());
    }
    Err(TrainError::Invalid {
        path: dir.to_path_buf(),
        detail: format!("a network for {}, this run trains {}", found.game, want.game),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::policy::{legal_policy, POLICY_SIZE};
    use crate::nn::testutil::all_variants;
    use crate::nn::{Symmetry, UniformEvaluator};
    use crate::rules::random::random_positions;
    use crate::rules::{Position, Variant};
    use crate::selfplay::{run, SelfPlayConfig};
    use crate::train::replay::{game_samples, Sample, Targets};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn quick(sets: &[String]) -> TrainConfig {
        TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", sets).unwrap()
    }

    /// Replay samples of `positions` with random targets: a peaked distribution over the legal
    /// moves (softmax of 3·N(0,1)), a random WDL and a random moves-left.
    fn random_samples(positions: &[Position], seed: u64) -> Vec<Sample> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut normal = move || (0..12).map(|_| rng.gen::<f32>()).sum::<f32>() - 6.0;
        positions
            .iter()
            .map(|p| {
                let moves = p.legal_moves();
                let w: Vec<f32> = moves.iter().map(|_| (3.0 * normal()).exp()).collect();
                let s: f32 = w.iter().sum();
                let mut policy: Vec<(u32, f32)> = moves.iter().zip(&w).map(|(m, x)| (m.bits(), x / s)).collect();
                policy.sort_by_key(|e| e.0);
                let wdl = [normal().exp(), normal().exp(), normal().exp()];
                let t: f32 = wdl.iter().sum();
                Sample {
                    position: p.clone(),
                    repetitions: 0,
                    policy: policy.into_boxed_slice(),
                    wdl: wdl.map(|x| x / t),
                    moves_left: 50.0 * (normal() + 3.0),
                    surprise: 0.0,
                    smoothing: 0.0,
                }
            })
            .collect()
    }

    fn assemble(samples: &[Sample]) -> TrainBatch {
        let items: Vec<(&Sample, Symmetry)> = samples.iter().map(|s| (s, Symmetry::IDENTITY)).collect();
        TrainBatch::assemble(&items)
    }

    #[test]
    fn the_training_softmax_is_legal_policy() {
        let l = TchLearner::new(&quick(&[])).unwrap();
        for (i, v) in all_variants().into_iter().enumerate() {
            // Long games, so that placements and promotions (multi-logit moves) occur.
            let ps: Vec<Position> = random_positions(v, 70 + i as u64, 2, 200).into_iter().step_by(9).collect();
            let b = l.batch(&assemble(&random_samples(&ps, 1)));
            let out = tch::no_grad(|| l.model.forward_t(&b.input, false));
            let logp = move_log_probs(&out.policy, &b).to_device(Device::Cpu);
            let logits = Vec::<f32>::try_from(out.policy.reshape([-1]).to_device(Device::Cpu)).unwrap();
            let mut expected = Vec::new();
            for (j, p) in ps.iter().enumerate() {
                let moves = p.legal_moves();
                legal_policy(p, &moves, &logits[j * POLICY_SIZE..(j + 1) * POLICY_SIZE], &mut expected);
                let got = Vec::<f32>::try_from(logp.get(j as i64).exp()).unwrap();
                for (k, &e) in expected.iter().enumerate() {
                    assert!((got[k] - e).abs() < 1e-5, "{v} item {j} move {k}: {} vs {e}", got[k]);
                }
                assert!(got[moves.len()..].iter().all(|&x| x == 1.0), "padding slots hold log 0 = 1 after exp");
            }
        }
    }

    #[test]
    fn value_only_samples_add_to_the_value_loss_and_not_to_the_policy_loss() {
        let l = TchLearner::new(&quick(&[])).unwrap();
        let ps: Vec<Position> = random_positions(Variant::default(), 12, 2, 60).into_iter().step_by(6).collect();
        let full = random_samples(&ps, 3);
        let mut both = full.clone();
        // The same positions again, value-only, with other value targets.
        both.extend(random_samples(&ps, 4).into_iter().map(|s| Sample { policy: Box::new([]), ..s }));
        let (tb_full, tb_both) = (assemble(&full), assemble(&both));
        let n = full.len();
        for i in n..2 * n {
            assert!(tb_both.policy_of(i).iter().all(|&p| p == 0.0), "a value-only row is all zeros");
        }
        let losses_of = |tb: &TrainBatch| {
            let b = l.batch(tb);
            let out = tch::no_grad(|| l.model.forward_t(&b.input, false));
            let ls = losses(&out, &b, &LossWeights::default());
            (f64::try_from(&ls.policy).unwrap(), f64::try_from(&ls.wdl).unwrap())
        };
        let ((p_full, v_full), (p_both, v_both)) = (losses_of(&tb_full), losses_of(&tb_both));
        assert!(
            (p_full - p_both).abs() < 1e-5,
            "policy loss {p_full} vs {p_both}: value-only rows neither add nor dilute"
        );
        assert!((v_full - v_both).abs() > 1e-4, "value loss {v_full} vs {v_both}: value-only rows count");
    }

    #[test]
    fn a_tiny_learner_overfits_a_handful_of_positions() {
        let ps: Vec<Position> = random_positions(Variant::default(), 11, 2, 40).into_iter().step_by(10).collect();
        assert_eq!(ps.len(), 8);
        let tb = assemble(&random_samples(&ps, 2));
        let mut l = TchLearner::new(&quick(&[])).unwrap();
        let (hp, hw) = l.batch(&tb).target_entropy();
        // The excess over the entropy floor: KL divergences plus the moves-left loss.
        let excess = |s: &StepStats| (s.policy_loss - hp) + (s.value_loss - hw) + s.moves_left_loss;
        let first = excess(&l.step(&tb, 1e-2).unwrap());
        let mut last = first;
        for step in 0..400 {
            last = excess(&l.step(&tb, 1e-2).unwrap());
            if last < first / 10.0 {
                eprintln!("overfit: excess loss {first:.4} -> {last:.4} in {} steps", step + 2);
                return;
            }
        }
        panic!("excess loss fell only from {first:.4} to {last:.4}");
    }

    #[test]
    fn weight_decay_spares_biases_and_batch_norm() {
        let model = Model::new(&NetConfig::TINY, Device::Cpu).unwrap();
        let (mut weights, mut spared) = (0, 0);
        for (name, v) in model.named_variables().into_iter().filter(|(_, v)| v.requires_grad()) {
            let norm_or_bias = name.contains(".bn.") || name.ends_with("bias");
            assert_eq!(decays(&name, &v), !norm_or_bias, "{name} {:?}", v.size());
            if norm_or_bias {
                spared += 1;
            } else {
                assert!(name.ends_with("weight") && v.dim() >= 2, "{name}");
                weights += 1;
            }
        }
        assert!(weights > 5 && spared > 5, "{weights} decayed, {spared} spared");
    }

    #[test]
    fn an_update_with_zero_gradients_only_decays_weights() {
        for opt in ["adamw", "sgd"] {
            let sets = [format!("training.optimizer=\"{opt}\""), "training.weight_decay=0.5".into()];
            let cfg = quick(&sets);
            let mut l = TchLearner::new(&cfg).unwrap();
            // Defined, all-zero gradients: only the decay can move a variable.
            for (_, v) in l.trainable() {
                (&v * 0.0).sum(Kind::Float).backward();
            }
            let before: BTreeMap<String, Tensor> = l.trainable().into_iter().map(|(n, v)| (n, v.copy())).collect();
            l.update(0.1);
            // AdamW: w·(1 − lr·wd). SGD: the first momentum buffer is the L2 gradient wd·w, and the
            // Nesterov step subtracts lr·(1 + momentum) times it.
            let factor = match opt {
                "adamw" => 1.0 - 0.1 * 0.5,
                _ => 1.0 - 0.1 * 0.5 * (1.0 + cfg.training.momentum),
            };
            let (mut shrunk, mut kept) = (0, 0);
            for (name, v) in l.trainable() {
                let old = &before[&name];
                if decays(&name, &v) {
                    let want = old * factor;
                    assert!(v.allclose(&want, 1e-5, 1e-7, false), "{opt}: {name} did not shrink by {factor}");
                    shrunk += 1;
                } else {
                    assert!(v.equal(old), "{opt}: {name} ({:?}) changed", v.size());
                    kept += 1;
                }
            }
            assert!(shrunk > 0 && kept > 0);
        }
    }

    #[test]
    fn a_tiny_learner_lowers_its_loss_and_round_trips_its_state() {
        let cfg = quick(&[]);
        let sp = SelfPlayConfig {
            concurrent_games: 2,
            total_games: 2,
            ply_cap: 20,
            full_search_prob: 1.0,
            full_simulations: 8,
            ..SelfPlayConfig::default()
        };
        let mut games = Vec::new();
        run(&sp, &mut UniformEvaluator::new(), &mut |g| games.push(g), &mut |_| {}).unwrap();
        let samples: Vec<Sample> =
            games.iter().flat_map(|g| game_samples(g, &Targets::selfplay(0.0)).unwrap()).take(16).collect();
        let items: Vec<(&Sample, Symmetry)> = samples.iter().map(|s| (s, Symmetry::IDENTITY)).collect();
        let b = TrainBatch::assemble(&items);
        let mut l = TchLearner::new(&cfg).unwrap();
        let first = l.step(&b, 3e-3).unwrap();
        let mut last = first;
        for _ in 0..30 {
            last = l.step(&b, 3e-3).unwrap();
        }
        assert!(last.total_loss < first.total_loss, "{first:?} -> {last:?}");
        let t = tempfile::tempdir().unwrap();
        l.save(t.path()).unwrap();
        let mut m = TchLearner::new(&cfg).unwrap();
        m.load(t.path()).unwrap();
        assert_eq!(m.steps, l.steps);
        let a = l.step(&b, 0.0).unwrap();
        let c = m.step(&b, 0.0).unwrap();
        assert!((a.total_loss - c.total_loss).abs() < 1e-4, "{a:?} vs {c:?}");
        l.publish(t.path()).unwrap();
        let ev = torch_evaluator::<Position>(&cfg, t.path()).unwrap();
        assert!(!ev.name().is_empty());
    }

    #[test]
    fn init_from_takes_a_published_networks_weights_and_refuses_another_architecture() {
        let cfg = quick(&[]);
        let positions = random_positions(Variant::default(), 5, 2, 40).into_iter().step_by(10).collect::<Vec<_>>();
        let samples = random_samples(&positions, 3);
        let b = assemble(&samples);
        let mut trained = TchLearner::new(&cfg).unwrap();
        for _ in 0..5 {
            trained.step(&b, 3e-3).unwrap();
        }
        let t = tempfile::tempdir().unwrap();
        trained.publish(t.path()).unwrap();
        // A fresh learner of another seed differs, then equals the published one once initialised.
        let mut fresh = TchLearner::new(&quick(&["seed=99".to_string()])).unwrap();
        let before = fresh.step(&b, 0.0).unwrap();
        let want = trained.step(&b, 0.0).unwrap();
        assert!((before.total_loss - want.total_loss).abs() > 1e-3, "{before:?} vs {want:?}");
        fresh.init_from(t.path()).unwrap();
        assert_eq!((fresh.steps, fresh.state.len()), (0, 0), "the optimizer starts afresh");
        let after = fresh.step(&b, 0.0).unwrap();
        assert!((after.total_loss - want.total_loss).abs() < 1e-5, "{after:?} vs {want:?}");
        // Another architecture is refused, naming the path and both architectures.
        let mut wide = TchLearner::new(&quick(&["network.channels=24".to_string()])).unwrap();
        let e = wide.init_from(t.path()).unwrap_err().to_string();
        assert!(e.contains(&t.path().display().to_string()) && e.contains("expected"), "{e}");
        let e = fresh.init_from(&t.path().join("missing")).unwrap_err().to_string();
        assert!(e.contains("missing"), "{e}");
    }

    /// Every variable of a model, deep-copied.
    fn snapshot(model: &Model) -> BTreeMap<String, Tensor> {
        model.named_variables().into_iter().map(|(n, v)| (n, v.copy())).collect()
    }

    fn assert_close(got: &BTreeMap<String, Tensor>, want: &BTreeMap<String, Tensor>, what: &str) {
        assert_eq!(got.len(), want.len(), "{what}");
        for (name, w) in want {
            assert!(got[name].allclose(w, 1e-5, 1e-6, false), "{what}: {name}");
        }
    }

    #[test]
    fn generations_publish_the_moving_average_and_checkpoints_carry_it() {
        let cfg = quick(&["training.ema_decay=0.5".to_string()]);
        let positions = random_positions(Variant::default(), 6, 2, 40).into_iter().step_by(10).collect::<Vec<_>>();
        let b = assemble(&random_samples(&positions, 4));
        let mut l = TchLearner::new(&cfg).unwrap();
        // The average by hand: the weights after the first step, then e = (e + w) / 2 after each.
        l.step(&b, 3e-3).unwrap();
        let mut want = snapshot(&l.model);
        for _ in 0..3 {
            l.step(&b, 3e-3).unwrap();
            want = snapshot(&l.model).into_iter().map(|(n, w)| (n.clone(), (&want[&n] + w) * 0.5)).collect();
        }
        let trained = snapshot(&l.model);
        let t = tempfile::tempdir().unwrap();
        l.publish(&t.path().join("pub")).unwrap();
        let published = snapshot(&Model::load(&t.path().join("pub"), Device::Cpu).unwrap());
        assert_close(&published, &want, "published = average");
        assert_close(&snapshot(&l.model), &trained, "training goes on from the trained weights");
        // Batch-norm statistics are averaged too, and the average is not the trained weights.
        assert!(want.keys().any(|n| n.contains("running_mean")), "{:?}", want.keys().collect::<Vec<_>>());
        assert!(want.iter().any(|(n, w)| !w.allclose(&trained[n], 1e-5, 1e-6, false)));
        // Without it, the trained weights themselves (same seed, same steps).
        let mut plain = TchLearner::new(&quick(&[])).unwrap();
        for _ in 0..4 {
            plain.step(&b, 3e-3).unwrap();
        }
        plain.publish(&t.path().join("plain")).unwrap();
        assert_close(&snapshot(&Model::load(&t.path().join("plain"), Device::Cpu).unwrap()), &trained, "no average");
        // A checkpoint carries the average: the resumed learner publishes what the first does.
        l.save(t.path()).unwrap();
        assert!(t.path().join(EMA_FILE).exists());
        let mut m = TchLearner::new(&cfg).unwrap();
        m.load(t.path()).unwrap();
        l.step(&b, 3e-3).unwrap();
        m.step(&b, 3e-3).unwrap();
        l.publish(&t.path().join("l")).unwrap();
        m.publish(&t.path().join("m")).unwrap();
        let (pl, pm) = (t.path().join("l"), t.path().join("m"));
        let from_l = snapshot(&Model::load(&pl, Device::Cpu).unwrap());
        assert_close(&snapshot(&Model::load(&pm, Device::Cpu).unwrap()), &from_l, "resumed");
        // A checkpoint from before the average existed: it starts again from the weights.
        std::fs::remove_file(t.path().join(EMA_FILE)).unwrap();
        let mut old = TchLearner::new(&cfg).unwrap();
        old.load(t.path()).unwrap();
        assert!(old.ema.is_empty());
        // One that does not fit the network is refused, naming the file.
        let (name, var) = l.model.named_variables().into_iter().next().unwrap();
        let bad = vec![(name.clone(), Tensor::zeros([var.numel() as i64 + 1], (Kind::Float, Device::Cpu)))];
        Tensor::write_safetensors(&bad, t.path().join(EMA_FILE)).unwrap();
        let e = old.load(t.path()).unwrap_err().to_string();
        assert!(e.contains(EMA_FILE) && e.contains("moving average does not fit") && e.contains(&name), "{e}");
    }

    #[test]
    fn optimizer_state_of_another_shape_or_name_is_refused() {
        let cfg = quick(&[]);
        let l = TchLearner::new(&cfg).unwrap();
        let vars = l.trainable();
        let (name, var) = vars.iter().next().unwrap();
        let path = Path::new("ckpt/optimizer.safetensors");
        let good = vec![(format!("m.{name}"), var.zeros_like()), (format!("v.{name}"), var.zeros_like())];
        check_optimizer_state(path, OptimizerKind::Adamw, &vars, &good).unwrap();
        let wrong_shape = vec![(format!("m.{name}"), Tensor::zeros([3, 1], (Kind::Float, Device::Cpu)))];
        let e = check_optimizer_state(path, OptimizerKind::Adamw, &vars, &wrong_shape).unwrap_err().to_string();
        assert!(
            e.starts_with("ckpt/optimizer.safetensors: optimizer state does not fit") && e.contains("[3, 1]"),
            "{e}"
        );
        let unknown = vec![("m.no.such.var".to_string(), var.zeros_like())];
        let e = check_optimizer_state(path, OptimizerKind::Adamw, &vars, &unknown).unwrap_err().to_string();
        assert!(e.contains("m.no.such.var names no variable"), "{e}");
        let e = check_optimizer_state(path, OptimizerKind::Sgd, &vars, &good).unwrap_err().to_string();
        assert!(e.contains("is not a Sgd buffer"), "{e}");
        assert!(!e.contains("delete"), "{e}");
    }
}
