//! The network: a residual tower of 3D convolutions over the `[PLANES, 5, 5, 5]` input, with
//! squeeze-excitation global pooling, a convolutional policy head and WDL and moves-left heads.
//!
//! # Architecture
//! 1. **Stem**: a 3×3×3 convolution `PLANES → channels`, batch norm, ReLU.
//! 2. **Tower**: `blocks` residual blocks. A [`BlockKind::Full`] block is two 3×3×3
//!    convolutions; a [`BlockKind::Factorised`] ("(2+1)D") block replaces each by a 1×3×3
//!    convolution within a layer followed by a 3×1×1 convolution across layers (12 taps instead
//!    of 27: 2.25× fewer FLOPs per convolution, one more nonlinearity). Every convolution is
//!    followed by batch norm; the block's last one by a squeeze-excitation unit (when `se` is on)
//!    before the skip connection and the final ReLU.
//! 3. **Global pooling** (squeeze-excitation, as in lc0; KataGo's global-pool bias is the same
//!    idea): the block output's per-channel board mean goes through `channels → channels/4 →
//!    2·channels`; half is a sigmoid gate, half a bias, both per channel. It lets a block react
//!    to whole-board facts (material, king safety far away) that 3×3×3 convolutions reach only
//!    after many layers.
//! 4. **Policy head**: 1×1×1 convolution `channels → channels`, batch norm, ReLU, then a 1×1×1
//!    convolution to [`POLICY_CHANNELS`] with bias, giving logits `[165, 5, 5, 5]` — exactly the
//!    layout of [`crate::nn::policy`] (flat index = channel × 125 + cell).
//! 5. **Value head**: 1×1×1 convolution to [`VALUE_CHANNELS`], batch norm, ReLU, flatten,
//!    linear to [`VALUE_HIDDEN`], ReLU, linear to 3 WDL logits (win, draw, loss for the mover).
//! 6. **Moves-left head**: the same shape with [`MOVES_LEFT_CHANNELS`] and [`MOVES_LEFT_HIDDEN`],
//!    ending in one number: the expected remaining plies divided by [`MOVES_LEFT_SCALE`].
//!
//! The architecture is fully described by [`NetConfig`]; the head sizes are constants of the
//! file format (changing them means bumping [`super::model::FORMAT_VERSION`]).

use crate::nn::encode::{CELLS, PLANES};
use crate::nn::policy::POLICY_CHANNELS;
use serde::{Deserialize, Serialize};
use tch::nn::{self, ModuleT};
use tch::Tensor;

/// Channels of the value head's 1×1×1 convolution.
pub const VALUE_CHANNELS: i64 = 8;
/// Width of the value head's hidden layer.
pub const VALUE_HIDDEN: i64 = 128;
/// Channels of the moves-left head's 1×1×1 convolution.
pub const MOVES_LEFT_CHANNELS: i64 = 4;
/// Width of the moves-left head's hidden layer.
pub const MOVES_LEFT_HIDDEN: i64 = 32;
/// The moves-left head predicts plies / `MOVES_LEFT_SCALE` (keeps its targets near 1).
pub const MOVES_LEFT_SCALE: f64 = 100.0;
/// Squeeze-excitation bottleneck: `channels / SE_RATIO` hidden units (at least 4).
pub const SE_RATIO: usize = 4;
/// Batch-norm epsilon (also used when folding batch norm into convolutions).
pub const BN_EPS: f64 = 1e-5;
/// Largest accepted tower depth.
pub const MAX_BLOCKS: usize = 64;
/// Largest accepted channel count.
pub const MAX_CHANNELS: usize = 1024;

/// The kind of residual block in the tower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    /// Two 3×3×3 convolutions.
    Full,
    /// Two (2+1)D pairs: 1×3×3 then 3×1×1, each followed by batch norm.
    Factorised,
}

impl BlockKind {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Full => "full",
            BlockKind::Factorised => "factorised",
        }
    }
}

impl std::str::FromStr for BlockKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "full" => Ok(BlockKind::Full),
            "factorised" | "factorized" | "2+1d" => Ok(BlockKind::Factorised),
            other => Err(format!("unknown block kind {other:?} (expected full or factorised)")),
        }
    }
}

/// A [`NetConfig`] field out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetConfigError {
    /// `blocks` is outside `1..=MAX_BLOCKS`.
    #[error("blocks = {0} is outside 1..={MAX_BLOCKS}")]
    Blocks(usize),
    /// `channels` is outside `4..=MAX_CHANNELS`.
    #[error("channels = {0} is outside 4..={MAX_CHANNELS}")]
    Channels(usize),
}

/// The architecture of a network: everything needed to rebuild it before loading weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Residual blocks in the tower.
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// The kind of residual block.
    pub block: BlockKind,
    /// Squeeze-excitation global pooling at the end of each block.
    pub se: bool,
}

impl NetConfig {
    /// The default self-play network (see docs/BENCHMARKS.md for why this size).
    pub const SELFPLAY: NetConfig = NetConfig { blocks: 4, channels: 32, block: BlockKind::Full, se: true };
    /// A tiny network for tests.
    pub const TINY: NetConfig = NetConfig { blocks: 1, channels: 16, block: BlockKind::Full, se: true };

    /// Checks the ranges; the error names the bad field.
    pub fn validate(&self) -> Result<(), NetConfigError> {
        if !(1..=MAX_BLOCKS).contains(&self.blocks) {
            return Err(NetConfigError::Blocks(self.blocks));
        }
        if !(4..=MAX_CHANNELS).contains(&self.channels) {
            return Err(NetConfigError::Channels(self.channels));
        }
        Ok(())
    }

    /// Multiply-adds ×2 of one evaluation (convolutions and linear layers; batch norm, ReLU and
    /// the pooling itself not counted), for GFLOP/s figures.
    pub fn flops_per_eval(&self) -> f64 {
        let c = self.channels as f64;
        let cells = CELLS as f64;
        let conv = |taps: f64, cin: f64, cout: f64| 2.0 * taps * cin * cout * cells;
        let lin = |i: f64, o: f64| 2.0 * i * o;
        let mut f = conv(27.0, PLANES as f64, c);
        let block = match self.block {
            BlockKind::Full => 2.0 * conv(27.0, c, c),
            BlockKind::Factorised => 2.0 * (conv(9.0, c, c) + conv(3.0, c, c)),
        };
        let se = if self.se { lin(c, self.se_hidden() as f64) + lin(self.se_hidden() as f64, 2.0 * c) } else { 0.0 };
        f += self.blocks as f64 * (block + se);
        f += conv(1.0, c, c) + conv(1.0, c, POLICY_CHANNELS as f64);
        for (hc, hh, out) in [(VALUE_CHANNELS, VALUE_HIDDEN, 3), (MOVES_LEFT_CHANNELS, MOVES_LEFT_HIDDEN, 1)] {
            let (hc, hh) = (hc as f64, hh as f64);
            f += conv(1.0, c, hc) + lin(hc * cells, hh) + lin(hh, out as f64);
        }
        f
    }

    fn se_hidden(&self) -> i64 {
        (self.channels / SE_RATIO).max(4) as i64
    }
}

impl std::fmt::Display for NetConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{} {}{}", self.blocks, self.channels, self.block.name(), if self.se { "+se" } else { "" })
    }
}

/// The three outputs of a forward pass for a batch of `n`.
#[derive(Debug)]
pub struct NetOutput {
    /// Policy logits `[n, POLICY_CHANNELS, 5, 5, 5]`.
    pub policy: Tensor,
    /// WDL logits `[n, 3]`.
    pub wdl: Tensor,
    /// Remaining plies / [`MOVES_LEFT_SCALE`], `[n]`.
    pub moves_left: Tensor,
}

/// Convolution (no bias) followed by batch norm.
#[derive(Debug)]
struct ConvBn {
    conv: nn::Conv3D,
    bn: nn::BatchNorm,
}

impl ConvBn {
    fn new(p: nn::Path, cin: i64, cout: i64, k: [i64; 3]) -> ConvBn {
        let cfg = nn::ConvConfigND {
            stride: [1, 1, 1],
            padding: [k[0] / 2, k[1] / 2, k[2] / 2],
            dilation: [1, 1, 1],
            groups: 1,
            bias: false,
            ws_init: nn::init::DEFAULT_KAIMING_UNIFORM,
            bs_init: nn::Init::Const(0.0),
            padding_mode: nn::PaddingMode::Zeros,
        };
        let bn_cfg = nn::BatchNormConfig { ws_init: nn::Init::Const(1.0), eps: BN_EPS, ..Default::default() };
        ConvBn { conv: nn::conv(&p / "conv", cin, cout, k, cfg), bn: nn::batch_norm3d(&p / "bn", cout, bn_cfg) }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        self.bn.forward_t(&x.apply(&self.conv), train)
    }

    /// The convolution with the batch norm's running statistics and affine map folded in.
    fn fused(&self, channels_last: bool) -> FusedConv {
        let scale = self.bn.ws.as_ref().expect("affine batch norm") / (&self.bn.running_var + BN_EPS).sqrt();
        let w = &self.conv.ws * scale.view([-1, 1, 1, 1, 1]);
        let b = self.bn.bs.as_ref().expect("affine batch norm") - &self.bn.running_mean * &scale;
        let k = self.conv.ws.size();
        FusedConv { w: layout(w, channels_last), b, pad: [k[2] / 2, k[3] / 2, k[4] / 2] }
    }
}

fn layout(w: Tensor, channels_last: bool) -> Tensor {
    if channels_last {
        super::model::to_channels_last(&w)
    } else {
        w.contiguous()
    }
}

/// A convolution with bias, for inference.
#[derive(Debug)]
struct FusedConv {
    w: Tensor,
    b: Tensor,
    pad: [i64; 3],
}

impl FusedConv {
    fn forward(&self, x: &Tensor) -> Tensor {
        x.conv3d(&self.w, Some(&self.b), [1, 1, 1], self.pad, [1, 1, 1], 1)
    }
}

/// A linear layer's tensors, for inference.
#[derive(Debug)]
struct Dense {
    w: Tensor,
    b: Tensor,
}

impl Dense {
    fn of(l: &nn::Linear) -> Dense {
        Dense { w: l.ws.copy(), b: l.bs.as_ref().expect("linear layers have a bias").copy() }
    }

    fn forward(&self, x: &Tensor) -> Tensor {
        x.linear(&self.w, Some(&self.b))
    }
}

/// Squeeze-excitation: per-channel gate and bias from the board mean.
#[derive(Debug)]
struct SqueezeExcite {
    fc1: nn::Linear,
    fc2: nn::Linear,
    channels: i64,
}

impl SqueezeExcite {
    fn new(p: nn::Path, channels: i64, hidden: i64) -> SqueezeExcite {
        SqueezeExcite {
            fc1: nn::linear(&p / "fc1", channels, hidden, Default::default()),
            fc2: nn::linear(&p / "fc2", hidden, 2 * channels, Default::default()),
            channels,
        }
    }

    fn forward(&self, x: &Tensor) -> Tensor {
        se_forward(x, self.channels, |p| p.apply(&self.fc1).relu().apply(&self.fc2))
    }
}

fn se_forward(x: &Tensor, channels: i64, mlp: impl Fn(&Tensor) -> Tensor) -> Tensor {
    let n = x.size()[0];
    let pooled = x.mean_dim([2i64, 3, 4].as_slice(), false, tch::Kind::Float);
    let s = mlp(&pooled).view([n, 2 * channels, 1, 1, 1]);
    let gb = s.split(channels, 1);
    x * gb[0].sigmoid() + &gb[1]
}

/// One residual block.
#[derive(Debug)]
struct ResBlock {
    convs: Vec<ConvBn>,
    se: Option<SqueezeExcite>,
}

impl ResBlock {
    fn new(p: nn::Path, cfg: &NetConfig) -> ResBlock {
        let c = cfg.channels as i64;
        let kernels: &[[i64; 3]] = match cfg.block {
            BlockKind::Full => &[[3, 3, 3], [3, 3, 3]],
            BlockKind::Factorised => &[[1, 3, 3], [3, 1, 1], [1, 3, 3], [3, 1, 1]],
        };
        let convs = kernels.iter().enumerate().map(|(i, &k)| ConvBn::new(&p / format!("c{i}"), c, c, k)).collect();
        let se = cfg.se.then(|| SqueezeExcite::new(&p / "se", c, cfg.se_hidden()));
        ResBlock { convs, se }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        let mut h = self.convs[0].forward_t(x, train);
        for conv in &self.convs[1..] {
            h = conv.forward_t(&h.relu(), train);
        }
        if let Some(se) = &self.se {
            h = se.forward(&h);
        }
        (h + x).relu()
    }
}

/// A small head: 1×1×1 convolution, flatten, hidden layer, output layer.
#[derive(Debug)]
struct DenseHead {
    conv: ConvBn,
    fc1: nn::Linear,
    fc2: nn::Linear,
    flat: i64,
}

impl DenseHead {
    fn new(p: nn::Path, c: i64, head_channels: i64, hidden: i64, out: i64) -> DenseHead {
        let flat = head_channels * CELLS as i64;
        DenseHead {
            conv: ConvBn::new(&p / "conv", c, head_channels, [1, 1, 1]),
            fc1: nn::linear(&p / "fc1", flat, hidden, Default::default()),
            fc2: nn::linear(&p / "fc2", hidden, out, Default::default()),
            flat,
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        self.conv.forward_t(x, train).relu().reshape([-1, self.flat]).apply(&self.fc1).relu().apply(&self.fc2)
    }

    fn fused(&self, channels_last: bool) -> FusedHead {
        FusedHead {
            conv: self.conv.fused(channels_last),
            fc1: Dense::of(&self.fc1),
            fc2: Dense::of(&self.fc2),
            flat: self.flat,
        }
    }
}

#[derive(Debug)]
struct FusedHead {
    conv: FusedConv,
    fc1: Dense,
    fc2: Dense,
    flat: i64,
}

impl FusedHead {
    fn forward(&self, x: &Tensor) -> Tensor {
        // The flatten order is [channel, cell], as in training, whatever the memory layout.
        let h = self.conv.forward(x).relu_().reshape([-1, self.flat]);
        self.fc2.forward(&self.fc1.forward(&h).relu_())
    }
}

/// The network's layers. Built under a [`nn::Path`] of a `VarStore` that owns the weights; see
/// [`super::model::Model`], which pairs the two and does saving and loading.
#[derive(Debug)]
pub struct Net {
    config: NetConfig,
    stem: ConvBn,
    tower: Vec<ResBlock>,
    policy_conv: ConvBn,
    policy_out: nn::Conv3D,
    value: DenseHead,
    moves_left: DenseHead,
}

impl Net {
    /// Creates the layers of `config` (assumed valid, see [`NetConfig::validate`]) under `p`,
    /// freshly initialised.
    pub fn new(p: &nn::Path, config: &NetConfig) -> Net {
        let c = config.channels as i64;
        let policy_cfg = nn::ConvConfigND {
            stride: [1, 1, 1],
            padding: [0, 0, 0],
            dilation: [1, 1, 1],
            groups: 1,
            bias: true,
            ws_init: nn::init::DEFAULT_KAIMING_UNIFORM,
            bs_init: nn::Init::Const(0.0),
            padding_mode: nn::PaddingMode::Zeros,
        };
        Net {
            config: *config,
            stem: ConvBn::new(p / "stem", PLANES as i64, c, [3, 3, 3]),
            tower: (0..config.blocks).map(|i| ResBlock::new(p / "tower" / i, config)).collect(),
            policy_conv: ConvBn::new(p / "policy" / "hidden", c, c, [1, 1, 1]),
            policy_out: nn::conv(p / "policy" / "out", c, POLICY_CHANNELS as i64, [1, 1, 1], policy_cfg),
            value: DenseHead::new(p / "value", c, VALUE_CHANNELS, VALUE_HIDDEN, 3),
            moves_left: DenseHead::new(p / "moves_left", c, MOVES_LEFT_CHANNELS, MOVES_LEFT_HIDDEN, 1),
        }
    }

    /// The architecture.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// Runs a batch `x` of shape `[n, PLANES, 5, 5, 5]` (or `[n, INPUT_SIZE]`). `train` selects
    /// batch statistics (training) or running statistics (inference) in batch norm.
    pub fn forward_t(&self, x: &Tensor, train: bool) -> NetOutput {
        let x = x.reshape([-1, PLANES as i64, 5, 5, 5]);
        let mut h = self.stem.forward_t(&x, train).relu();
        for block in &self.tower {
            h = block.forward_t(&h, train);
        }
        let policy = self.policy_conv.forward_t(&h, train).relu().apply(&self.policy_out);
        let wdl = self.value.forward_t(&h, train);
        let moves_left = self.moves_left.forward_t(&h, train).view([-1]);
        NetOutput { policy, wdl, moves_left }
    }

    /// An inference copy of the network with every batch norm folded into the convolution
    /// before it (half the memory passes per layer), its weights channels-last when asked.
    /// A snapshot: later changes to this network's weights do not reach it.
    pub fn fused(&self, channels_last: bool) -> FusedNet {
        tch::no_grad(|| FusedNet {
            stem: self.stem.fused(channels_last),
            tower: self
                .tower
                .iter()
                .map(|b| FusedBlock {
                    convs: b.convs.iter().map(|c| c.fused(channels_last)).collect(),
                    se: b.se.as_ref().map(|se| (Dense::of(&se.fc1), Dense::of(&se.fc2), se.channels)),
                })
                .collect(),
            policy_conv: self.policy_conv.fused(channels_last),
            policy_out: Dense {
                w: self.policy_out.ws.reshape([POLICY_CHANNELS as i64, -1]).copy(),
                b: self.policy_out.bs.as_ref().expect("policy output has a bias").view([-1, 1]).copy(),
            },
            value: self.value.fused(channels_last),
            moves_left: self.moves_left.fused(channels_last),
            channels_last,
        })
    }
}

#[derive(Debug)]
struct FusedBlock {
    convs: Vec<FusedConv>,
    se: Option<(Dense, Dense, i64)>,
}

/// The inference form of a [`Net`] (see [`Net::fused`]): same outputs as
/// `forward_t(x, false)` up to rounding, fewer passes over memory. Call under `no_grad`.
#[derive(Debug)]
pub struct FusedNet {
    stem: FusedConv,
    tower: Vec<FusedBlock>,
    policy_conv: FusedConv,
    /// The last 1×1×1 convolution as a matrix `[POLICY_CHANNELS, channels]` (see `forward`).
    policy_out: Dense,
    value: FusedHead,
    moves_left: FusedHead,
    channels_last: bool,
}

impl FusedNet {
    /// Whether weights (and so, preferably, inputs) are channels-last.
    pub fn channels_last(&self) -> bool {
        self.channels_last
    }

    /// Runs a batch `[n, PLANES, 5, 5, 5]` in inference mode.
    pub fn forward(&self, x: &Tensor) -> NetOutput {
        let mut h = self.stem.forward(x).relu_();
        for block in &self.tower {
            let mut y = block.convs[0].forward(&h);
            for conv in &block.convs[1..] {
                y = conv.forward(&y.relu_());
            }
            if let Some((fc1, fc2, c)) = &block.se {
                y = se_forward(&y, *c, |p| fc2.forward(&fc1.forward(p).relu_()));
            }
            h = (y + &h).relu_();
        }
        // The 1×1×1 output convolution as `W · h` per item: `h` viewed `[n, channels, 125]` (free
        // in either layout) gives logits `[n, 165, 125]` contiguous in the policy layout,
        // without the copy a channels-last convolution output would need before leaving.
        let p = self.policy_conv.forward(&h).relu_().flatten(2, 4);
        let policy =
            self.policy_out.w.matmul(&p).g_add_(&self.policy_out.b).view([-1, POLICY_CHANNELS as i64, 5, 5, 5]);
        let wdl = self.value.forward(&h);
        let moves_left = self.moves_left.forward(&h).view([-1]);
        NetOutput { policy, wdl, moves_left }
    }
}
