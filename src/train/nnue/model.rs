//! The float twin of [`Network`] in libtorch, its Adam optimizer, its saved state and its
//! quantized export.

use super::data::Dataset;
use super::train::NnueTrainError;
use crate::engine::nnue::{Dims, Network, INPUTS, QA, QB};
use crate::engine::score::SCORE_SCALE;
use crate::rules::Ruleset;
use std::path::Path;
use tch::{Device, Kind, Tensor};

/// Largest dense weight an `i8` in units of 1/[`QB`] holds.
const WMAX: f64 = 127.0 / QB as f64;

/// The float network and its Adam moments.
pub struct FloatNet {
    /// Parameters in order: ft weights, ft bias, l1 w, l1 b, l2 w, l2 b, out w, out b (the dense
    /// ones with every bucket's rows, bucket by bucket), and with output buckets the first
    /// layer's shared part (w, b), added to every bucket's first layer.
    pub(super) params: Vec<Tensor>,
    pub(super) m: Vec<Tensor>,
    v: Vec<Tensor>,
    step: i64,
}

pub(super) const NAMES: [&str; 10] =
    ["ft_w", "ft_b", "l1_w", "l1_b", "l2_w", "l2_b", "out_w", "out_b", "l1_fact_w", "l1_fact_b"];

/// The parameters' shapes, in [`NAMES`] order: eight, and the two of the shared first layer
/// with output buckets.
fn shapes(dims: Dims) -> Vec<Vec<i64>> {
    let (h, l1, l2, b) = (dims.hidden as i64, dims.l1 as i64, dims.l2 as i64, dims.buckets as i64);
    let n = dims.dense_inputs() as i64;
    // With king buckets the factorizer's shared rows follow the buckets' (`train`'s module
    // docs).
    let shared = if dims.kings > 1 { INPUTS } else { 0 };
    let mut v = vec![
        vec![(dims.inputs() + shared) as i64, h],
        vec![h],
        vec![b * l1, n],
        vec![b * l1],
        vec![b * l2, l1],
        vec![b * l2],
        vec![b, l2],
        vec![b],
    ];
    if b > 1 {
        v.extend([vec![l1, n], vec![l1]]);
    }
    v
}

/// Zeros for the shared first layer of a network with output buckets (none without): the
/// stacks alone are then the whole network.
fn shared_zeros(dims: Dims, device: Device) -> Vec<Tensor> {
    shapes(dims)[8..].iter().map(|s| Tensor::zeros(s.as_slice(), (Kind::Float, device))).collect()
}

impl FloatNet {
    /// Fresh weights: uniform in ±1/√fan-in (the accumulator with ~100 active inputs in mind, its
    /// bias at ½ so most units start inside the clipped range).
    pub fn new(dims: Dims, seed: u64, device: Device) -> FloatNet {
        tch::manual_seed(seed as i64);
        let (n, l1, l2) = (dims.dense_inputs() as f64, dims.l1 as f64, dims.l2 as f64);
        // Per parameter (in `NAMES` order): uniform in ±bound, or a constant where bound is None.
        let init: [(Option<f64>, f64); 8] = [
            (Some(0.1), 0.0),
            (None, 0.5),
            (Some(1.0 / n.sqrt()), 0.0),
            (None, 0.0),
            (Some(1.0 / l1.sqrt()), 0.0),
            (None, 0.0),
            (Some(1.0 / l2.sqrt()), 0.0),
            (None, 0.0),
        ];
        // Every bucket's dense stack starts as the same network (drawn once, repeated), as
        // layer stacks are started elsewhere: the stacks then pull the shared accumulator the
        // same way until their samples set them apart. Random stacks per bucket learned far more
        // slowly (validation loss 0.00191 against 0.00159 without buckets after 8 epochs, docs/NNUE.md).
        // The shared first layer (a factorizer: every sample trains it, whatever its bucket)
        // starts at zero.
        let mut params: Vec<Tensor> = shapes(dims)
            .iter()
            .zip(init)
            .enumerate()
            .map(|(i, (shape, (bound, value)))| {
                let copies = if i >= 2 { dims.buckets as i64 } else { 1 };
                let mut one = shape.clone();
                one[0] /= copies;
                let t = match bound {
                    Some(a) => (Tensor::rand(one.as_slice(), (Kind::Float, device)) * 2.0 - 1.0) * a,
                    None => Tensor::full(one.as_slice(), value, (Kind::Float, device)),
                };
                if copies == 1 {
                    return t;
                }
                let mut reps = vec![1i64; shape.len()];
                reps[0] = copies;
                t.repeat(reps.as_slice())
            })
            .collect();
        params.extend(shared_zeros(dims, device));
        if dims.kings > 1 {
            // King buckets: the bucket rows start at zero, the shared rows random, so every
            // bucket starts as the same bucket-free network.
            let rows = dims.inputs() as i64;
            params[0] =
                Tensor::cat(&[params[0].narrow(0, 0, rows).zeros_like(), params[0].narrow(0, rows, INPUTS as i64)], 0);
        }
        let m = params.iter().map(|p| p.zeros_like()).collect();
        let v = params.iter().map(|p| p.zeros_like()).collect();
        let params = params.into_iter().map(|p| p.set_requires_grad(true)).collect();
        FloatNet { params, m, v, step: 0 }
    }

    /// The float weights of a quantized network (each integer divided by its scale, the inverse
    /// of [`FloatNet::export`]), with fresh Adam moments.
    pub fn from_network(net: &Network, device: Device) -> FloatNet {
        let f = |v: Vec<f32>, shape: &[i64]| Tensor::from_slice(&v).reshape(shape).to_device(device);
        let deq16 = |v: &[i16]| v.iter().map(|&x| x as f32 / QA as f32).collect::<Vec<f32>>();
        let deq8 = |v: &[i8]| v.iter().map(|&x| x as f32 / QB as f32).collect::<Vec<f32>>();
        let deq32 = |v: &[i32]| v.iter().map(|&x| x as f32 / (QA * QB) as f32).collect::<Vec<f32>>();
        // With king buckets the shared rows start at zero: the file's rows are the sums.
        let shared = if net.dims.kings > 1 { INPUTS * net.dims.hidden } else { 0 };
        let values = [
            deq16(&net.ft_weights).into_iter().chain(std::iter::repeat_n(0.0, shared)).collect(),
            deq16(&net.ft_bias),
            deq8(&net.l1_weights),
            deq32(&net.l1_bias),
            deq8(&net.l2_weights),
            deq32(&net.l2_bias),
            deq8(&net.out_weights),
            deq32(&net.out_bias),
        ];
        let mut params: Vec<Tensor> = values.into_iter().zip(shapes(net.dims)).map(|(v, shape)| f(v, &shape)).collect();
        params.extend(shared_zeros(net.dims, device));
        let params: Vec<Tensor> = params.into_iter().map(|p| p.set_requires_grad(true)).collect();
        let m = params.iter().map(|p| p.zeros_like()).collect();
        let v = params.iter().map(|p| p.zeros_like()).collect();
        FloatNet { params, m, v, step: 0 }
    }

    /// Output buckets: one output bias per bucket.
    fn buckets(&self) -> usize {
        self.params[7].size()[0] as usize
    }

    /// King buckets: the accumulator table's rows are `INPUTS` without, and `(kings + 1) ×
    /// INPUTS` with them (the shared rows last).
    pub(super) fn kings(&self) -> usize {
        match self.params[0].size()[0] as usize / INPUTS {
            1 => 1,
            n => n - 1,
        }
    }

    /// The output `y` (centipawns / [`SCORE_SCALE`]) of a batch whose samples are in output
    /// buckets `bucket`.
    pub(super) fn forward(
        &self,
        us: &Tensor,
        us_off: &Tensor,
        them: &Tensor,
        them_off: &Tensor,
        bucket: &Tensor,
    ) -> Tensor {
        let p = &self.params;
        let half = p[1].size()[0] / 2;
        let pairwise = p[2].size()[1] == half * 2;
        let acc = |idx: &Tensor, off: &Tensor| {
            let (sum, _, _, _) = Tensor::embedding_bag(&p[0], idx, off, false, 0, false, None::<Tensor>, false);
            let x = (sum + &p[1]).clamp(0.0, 1.0);
            if !pairwise {
                return x;
            }
            // The products of the two halves, scaled as the integers' `>> 7` of values in
            // units of 1/127 scales them (module docs of `engine::nnue`).
            x.narrow(1, 0, half) * x.narrow(1, half, half) * (QA as f64 / 128.0)
        };
        let buckets = self.buckets() as i64;
        // Every bucket's outputs of a layer (`[batch, buckets · n]`), then each sample's own.
        let own = |y: Tensor, n: i64| {
            if buckets == 1 {
                return y;
            }
            let at = bucket.view([-1, 1, 1]).expand([-1, 1, n], false);
            y.view([-1, buckets, n]).gather(1, &at, false).squeeze_dim(1)
        };
        let n1 = p[3].size()[0] / buckets;
        let n2 = p[5].size()[0] / buckets;
        let x = Tensor::cat(&[acc(us, us_off), acc(them, them_off)], 1);
        let y1 = own(x.linear(&p[2], Some(&p[3])), n1);
        let y1 = if p.len() > 8 { y1 + x.linear(&p[8], Some(&p[9])) } else { y1 };
        let x = y1.clamp(0.0, 1.0);
        let x = own(x.linear(&p[4], Some(&p[5])), n2).clamp(0.0, 1.0);
        own(x.linear(&p[6], Some(&p[7])), 1).squeeze_dim(1)
    }

    /// Mean squared error of `sigmoid(y)` against the targets.
    fn loss(&self, b: &[Tensor; 6]) -> Tensor {
        let y = self.forward(&b[0], &b[1], &b[2], &b[3], &b[5]);
        (y.sigmoid() - &b[4]).square().mean(Kind::Float)
    }

    /// One Adam step at rate `lr`, then the dense weights clipped to the `i8` range.
    pub(super) fn step(&mut self, b: &[Tensor; 6], lr: f64) -> f64 {
        for p in &mut self.params {
            let _ = p.grad().f_zero_();
        }
        let loss = self.loss(b);
        loss.backward();
        self.step += 1;
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
        let c1 = 1.0 - b1.powi(self.step as i32);
        let c2 = 1.0 - b2.powi(self.step as i32);
        tch::no_grad(|| {
            for (i, p) in self.params.iter_mut().enumerate() {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                let _ = self.m[i].f_mul_scalar_(b1).and_then(|mut m| m.f_add_(&(&g * (1.0 - b1))));
                let _ = self.v[i].f_mul_scalar_(b2).and_then(|mut v| v.f_add_(&(g.square() * (1.0 - b2))));
                let update = (&self.m[i] / c1) / ((&self.v[i] / c2).sqrt() + eps) * lr;
                let _ = p.f_sub_(&update);
                if matches!(i, 2 | 4 | 6 | 8) {
                    let _ = p.f_clamp_(-WMAX, WMAX);
                }
            }
        });
        f64::try_from(loss).unwrap_or(f64::NAN)
    }

    /// Mean loss over `data` (no gradients).
    pub(super) fn evaluate(&self, data: &Dataset, lambda: f32, batch: usize, device: Device) -> f64 {
        if data.is_empty() {
            return f64::NAN;
        }
        let idx: Vec<usize> = (0..data.len()).collect();
        let mut total = 0.0;
        tch::no_grad(|| {
            for chunk in idx.chunks(batch) {
                let b = data.batch(chunk, lambda, self.buckets(), self.kings(), device);
                total += f64::try_from(self.loss(&b)).unwrap_or(f64::NAN) * chunk.len() as f64;
            }
        });
        total / data.len() as f64
    }

    fn to_vec(t: &Tensor) -> Vec<f32> {
        Vec::<f32>::try_from(t.detach().to_device(Device::Cpu).reshape([-1])).unwrap_or_default()
    }

    /// The quantized network (see `train`'s module docs). With output buckets the shared first
    /// layer is added into every bucket's first (the file knows only the sums, clipped to the
    /// `i8` range like every dense weight); with king buckets the shared accumulator rows into
    /// every bucket's rows.
    pub fn export(&self, ruleset: Ruleset, dims: Dims) -> Network {
        let mut p: Vec<Vec<f32>> = self.params.iter().map(Self::to_vec).collect();
        if dims.kings > 1 {
            let n = dims.inputs() * dims.hidden;
            let shared = p[0].split_off(n);
            p[0].iter_mut().zip(shared.iter().cycle()).for_each(|(x, s)| *x += s);
        }
        if p.len() > 8 {
            let (w, b) = (p[8].clone(), p[9].clone());
            p[2].iter_mut().zip(w.iter().cycle()).for_each(|(x, s)| *x += s);
            p[3].iter_mut().zip(b.iter().cycle()).for_each(|(x, s)| *x += s);
        }
        let q16 = |v: &[f32]| v.iter().map(|&x| (x * QA as f32).round().clamp(-32767.0, 32767.0) as i16).collect();
        let q8 = |v: &[f32]| v.iter().map(|&x| (x * QB as f32).round().clamp(-127.0, 127.0) as i8).collect();
        let q32 = |v: &[f32]| v.iter().map(|&x| (x * (QA * QB) as f32).round() as i32).collect::<Vec<i32>>();
        Network {
            ruleset,
            dims,
            output_scale: SCORE_SCALE,
            ft_weights: q16(&p[0]),
            ft_bias: q16(&p[1]),
            l1_weights: q8(&p[2]),
            l1_bias: q32(&p[3]),
            l2_weights: q8(&p[4]),
            l2_bias: q32(&p[5]),
            out_weights: q8(&p[6]),
            out_bias: q32(&p[7]),
            layout: Default::default(),
        }
        .with_layout()
    }

    /// Weights, moments and the step count as one file's bytes.
    pub(super) fn save_bytes(&self, epoch: u32) -> Result<Vec<u8>, NnueTrainError> {
        let mut named: Vec<(String, Tensor)> = Vec::new();
        for (i, n) in NAMES.iter().enumerate().take(self.params.len()) {
            named.push((n.to_string(), self.params[i].detach().to_device(Device::Cpu)));
            named.push((format!("m.{n}"), self.m[i].to_device(Device::Cpu)));
            named.push((format!("v.{n}"), self.v[i].to_device(Device::Cpu)));
        }
        named.push(("step".into(), Tensor::from_slice(&[self.step])));
        named.push(("epoch".into(), Tensor::from_slice(&[epoch as i64])));
        let mut out = Vec::new();
        Tensor::save_multi_to_stream(&named, &mut out).map_err(NnueTrainError::SaveState)?;
        Ok(out)
    }

    /// The state saved by [`FloatNet::save_bytes`] and its epoch; the shapes must be `dims`'.
    pub(super) fn load(path: &Path, dims: Dims, device: Device) -> Result<(FloatNet, u32), NnueTrainError> {
        let path_buf = || path.to_path_buf();
        let all = Tensor::load_multi_with_device(path, device)
            .map_err(|source| NnueTrainError::StateUnreadable { path: path_buf(), source })?;
        let get = |n: &str| {
            all.iter()
                .find(|(k, _)| k == n)
                .map(|(_, t)| t.shallow_clone())
                .ok_or_else(|| NnueTrainError::StateMissing { path: path_buf(), name: n.to_string() })
        };
        let (mut params, mut m, mut v) = (Vec::new(), Vec::new(), Vec::new());
        for (n, want) in NAMES.iter().zip(shapes(dims)) {
            for (list, name) in [(&mut params, n.to_string()), (&mut m, format!("m.{n}")), (&mut v, format!("v.{n}"))] {
                let t = get(&name)?;
                if t.size() != want {
                    return Err(NnueTrainError::StateShape { path: path_buf(), name, have: t.size(), want });
                }
                list.push(t);
            }
        }
        let scalar = |n: &str| {
            get(n).and_then(|t| {
                i64::try_from(t).map_err(|source| NnueTrainError::StateScalar {
                    path: path_buf(),
                    name: n.to_string(),
                    source,
                })
            })
        };
        let (step, epoch) = (scalar("step")?, scalar("epoch")?);
        let params = params.into_iter().map(|p| p.set_requires_grad(true)).collect();
        Ok((FloatNet { params, m, v, step }, epoch.clamp(0, u32::MAX as i64) as u32))
    }
}
