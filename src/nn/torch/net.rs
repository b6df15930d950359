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
//!    convolution to [`crate::nn::policy::POLICY_CHANNELS`] with bias, giving logits
//!    `[165, 5, 5, 5]` — exactly the layout of [`crate::nn::policy`] (flat index =
//!    channel × 125 + cell).
//! 5. **Value head**: 1×1×1 convolution to [`VALUE_CHANNELS`], batch norm, ReLU, flatten,
//!    linear to [`VALUE_HIDDEN`], ReLU, linear to 3 WDL logits (win, draw, loss for the mover).
//! 6. **Moves-left head**: the same shape with [`MOVES_LEFT_CHANNELS`] and [`MOVES_LEFT_HIDDEN`],
//!    ending in one number: the expected remaining plies divided by [`MOVES_LEFT_SCALE`].
//!
//! The architecture is fully described by [`NetConfig`]; the head sizes are constants of the
//! file format (changing them means bumping [`super::model::FORMAT_VERSION`]).
//!
//! # Other games ([`NetShape`])
//!
//! The same network serves any [`NetGame`]: its shape (input planes, the spatial shape,
//! policy channels) comes from the game, the 5x5x5 games' by default. Where the game's first
//! spatial axis is an unordered set ([`NetGame::UNORDERED_AXIS`]: Quasi-Alice's four boards,
//! which the symmetries permute), the network treats it as a set:
//! - every convolution spans one board only (its kernel's depth is 1: 3×3×3 becomes 1×3×3,
//!   3×1×1 becomes 1×1×1) and gains a **board-mixing** term: a 1×1×1 convolution of the mean
//!   over the boards, added at every board (the equivariant linear layer of DeepSets), so each
//!   square sees the same square of the other boards (where a transferred man would land);
//! - the policy head is a **pair head**: logits for (destination board `t`, move type) at
//!   origin cell (`s`, square) are the sum of a term read at the origin (`s`, square) and a term
//!   read at the same square of board `t`, so the destination board's contents reach the
//!   logit of a transfer to it;
//! - the value and moves-left heads average their 1×1×1 convolution over the boards before the
//!   dense layers.
//!
//! So the whole network is exact under board permutations: the policy permutes with the boards,
//! the value and moves-left stay (the tests check both).

use crate::nn::NetGame;
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

/// The game-dependent sizes of a network: what it reads and writes per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NetShape {
    /// The encoding's name ([`NetGame::ENCODING`]).
    pub game: &'static str,
    /// Input planes.
    pub planes: usize,
    /// Spatial shape of a plane.
    pub spatial: [usize; 3],
    /// Policy channels over the spatial shape.
    pub policy_channels: usize,
    /// Whether the first spatial axis is an unordered set (see the module docs).
    pub unordered_axis: bool,
}

impl NetShape {
    /// The 5x5x5 games' network: `[41, 5, 5, 5]` in, `[165, 5, 5, 5]` policy out.
    pub const FIVE_UP: NetShape = NetShape::of::<crate::rules::Position>();
    /// 4D Quasi-Alice Chess: `[25, 4, 8, 8]` in, `[292, 4, 8, 8]` policy out, boards as a set.
    pub const QUASI_ALICE: NetShape = NetShape::of::<crate::quasi_alice::Position>();
    /// Mixed 3D Chess: `[22, 8, 8, 8]` in, `[221, 8, 8, 8]` policy out, the cube convolved as is.
    pub const MIXED3D: NetShape = NetShape::of::<crate::mixed3d::Position>();
    /// Every shape a network file may name.
    pub const ALL: [NetShape; 3] = [NetShape::FIVE_UP, NetShape::QUASI_ALICE, NetShape::MIXED3D];

    /// The shape of game `S`'s networks.
    pub const fn of<S: NetGame>() -> NetShape {
        NetShape {
            game: S::ENCODING,
            planes: S::PLANES,
            spatial: S::SHAPE,
            policy_channels: S::POLICY_CHANNELS,
            unordered_axis: S::UNORDERED_AXIS,
        }
    }

    /// The shape of the encoding named `name`.
    pub fn by_name(name: &str) -> Option<NetShape> {
        NetShape::ALL.into_iter().find(|s| s.game == name)
    }

    /// Elements of one plane.
    pub const fn cells(&self) -> usize {
        self.spatial[0] * self.spatial[1] * self.spatial[2]
    }

    /// `f32` values of one input.
    pub const fn input_size(&self) -> usize {
        self.planes * self.cells()
    }

    /// Policy logits of one position.
    pub const fn policy_size(&self) -> usize {
        self.policy_channels * self.cells()
    }

    /// The input tensor shape for `n` items: `[n, planes, spatial...]`.
    pub fn input_dims(&self, n: i64) -> [i64; 5] {
        let [d, h, w] = self.spatial;
        [n, self.planes as i64, d as i64, h as i64, w as i64]
    }

    /// Policy channels of the output convolution: the policy's, or twice the move types per
    /// destination for a pair head.
    fn policy_out_channels(&self) -> i64 {
        if self.unordered_axis {
            2 * (self.policy_channels / self.spatial[0]) as i64
        } else {
            self.policy_channels as i64
        }
    }

    /// A convolution kernel as this shape runs it: depth 1 across an unordered axis.
    fn kernel(&self, k: [i64; 3]) -> [i64; 3] {
        if self.unordered_axis {
            [1, k[1], k[2]]
        } else {
            k
        }
    }

    /// Whether a convolution of kernel `k` gains a board-mixing term.
    fn mixes(&self, k: [i64; 3]) -> bool {
        self.unordered_axis && k[0] > 1
    }
}

/// The mean over the first spatial axis, kept as an axis of length 1 (broadcast back on adding).
fn board_mean(x: &Tensor) -> Tensor {
    x.mean_dim([2i64].as_slice(), true, tch::Kind::Float)
}

/// The pair policy head's output: `p` is `[n, 2T, D, H, W]` (T move types at the origin, then T
/// at the destination); the result `[n, D * T, D, H, W]` holds at channel `t * T + type`, cell
/// `(s, h, w)`, the origin term at `(s, h, w)` plus the destination term at `(t, h, w)`.
fn pair_policy(p: &Tensor, spatial: [usize; 3]) -> Tensor {
    let sz = p.size();
    let (n, t) = (sz[0], sz[1] / 2);
    let [d, h, w] = spatial.map(|x| x as i64);
    let parts = p.split(t, 1);
    let origin = parts[0].reshape([n, 1, t, d, h * w]);
    let dest = parts[1].permute([0, 2, 1, 3, 4]).reshape([n, d, t, 1, h * w]);
    (origin + dest).reshape([n, d * t, d, h, w])
}

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

    /// Multiply-adds ×2 of one evaluation of a 5x5x5 network (convolutions and linear layers;
    /// batch norm, ReLU and the pooling itself not counted), for GFLOP/s figures.
    pub fn flops_per_eval(&self) -> f64 {
        let c = self.channels as f64;
        let shape = NetShape::FIVE_UP;
        let cells = shape.cells() as f64;
        let conv = |taps: f64, cin: f64, cout: f64| 2.0 * taps * cin * cout * cells;
        let lin = |i: f64, o: f64| 2.0 * i * o;
        let mut f = conv(27.0, shape.planes as f64, c);
        let block = match self.block {
            BlockKind::Full => 2.0 * conv(27.0, c, c),
            BlockKind::Factorised => 2.0 * (conv(9.0, c, c) + conv(3.0, c, c)),
        };
        let se = if self.se { lin(c, self.se_hidden() as f64) + lin(self.se_hidden() as f64, 2.0 * c) } else { 0.0 };
        f += self.blocks as f64 * (block + se);
        f += conv(1.0, c, c) + conv(1.0, c, shape.policy_channels as f64);
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
    /// Policy logits `[n, policy channels, spatial...]` ([`NetShape`]).
    pub policy: Tensor,
    /// WDL logits `[n, 3]`.
    pub wdl: Tensor,
    /// Remaining plies / [`MOVES_LEFT_SCALE`], `[n]`.
    pub moves_left: Tensor,
}

/// Convolution (no bias), plus the board-mixing term on an unordered axis, followed by batch
/// norm.
#[derive(Debug)]
struct ConvBn {
    conv: nn::Conv3D,
    mix: Option<nn::Conv3D>,
    bn: nn::BatchNorm,
}

impl ConvBn {
    fn new(p: nn::Path, cin: i64, cout: i64, k: [i64; 3], shape: &NetShape) -> ConvBn {
        let mixes = shape.mixes(k);
        let k = shape.kernel(k);
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
        let mix_cfg = nn::ConvConfigND { padding: [0, 0, 0], ..cfg };
        ConvBn {
            conv: nn::conv(&p / "conv", cin, cout, k, cfg),
            mix: mixes.then(|| nn::conv(&p / "mix", cin, cout, [1, 1, 1], mix_cfg)),
            bn: nn::batch_norm3d(&p / "bn", cout, bn_cfg),
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        let mut y = x.apply(&self.conv);
        if let Some(mix) = &self.mix {
            y += board_mean(x).apply(mix);
        }
        self.bn.forward_t(&y, train)
    }

    /// The convolution with the batch norm's running statistics and affine map folded in.
    fn fused(&self, channels_last: bool) -> FusedConv {
        let scale = self.bn.ws.as_ref().expect("affine batch norm") / (&self.bn.running_var + BN_EPS).sqrt();
        let w = &self.conv.ws * scale.view([-1, 1, 1, 1, 1]);
        let b = self.bn.bs.as_ref().expect("affine batch norm") - &self.bn.running_mean * &scale;
        let k = self.conv.ws.size();
        let mix = self.mix.as_ref().map(|m| layout(&m.ws * scale.view([-1, 1, 1, 1, 1]), channels_last));
        FusedConv { w: layout(w, channels_last), b, pad: [k[2] / 2, k[3] / 2, k[4] / 2], mix }
    }
}

fn layout(w: Tensor, channels_last: bool) -> Tensor {
    if channels_last {
        super::model::to_channels_last(&w)
    } else {
        w.contiguous()
    }
}

/// A convolution with bias (and its board-mixing term), for inference.
#[derive(Debug)]
struct FusedConv {
    w: Tensor,
    b: Tensor,
    pad: [i64; 3],
    mix: Option<Tensor>,
}

impl FusedConv {
    fn forward(&self, x: &Tensor) -> Tensor {
        let y = x.conv3d(&self.w, Some(&self.b), [1, 1, 1], self.pad, [1, 1, 1], 1);
        match &self.mix {
            Some(m) => y + board_mean(x).conv3d(m, None::<&Tensor>, [1, 1, 1], [0, 0, 0], [1, 1, 1], 1),
            None => y,
        }
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
    fn new(p: nn::Path, cfg: &NetConfig, shape: &NetShape) -> ResBlock {
        let c = cfg.channels as i64;
        let kernels: &[[i64; 3]] = match cfg.block {
            BlockKind::Full => &[[3, 3, 3], [3, 3, 3]],
            BlockKind::Factorised => &[[1, 3, 3], [3, 1, 1], [1, 3, 3], [3, 1, 1]],
        };
        let convs =
            kernels.iter().enumerate().map(|(i, &k)| ConvBn::new(&p / format!("c{i}"), c, c, k, shape)).collect();
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

/// A small head: 1×1×1 convolution, flatten, hidden layer, output layer. On an unordered axis
/// the head first averages its convolution's output over the boards, so the value and the
/// moves-left estimate do not depend on the boards' order.
#[derive(Debug)]
struct DenseHead {
    conv: ConvBn,
    fc1: nn::Linear,
    fc2: nn::Linear,
    flat: i64,
    pool_boards: bool,
}

impl DenseHead {
    fn new(p: nn::Path, c: i64, head: (i64, i64, i64), shape: &NetShape) -> DenseHead {
        let (head_channels, hidden, out) = head;
        let pool_boards = shape.unordered_axis;
        let cells = if pool_boards { shape.cells() / shape.spatial[0] } else { shape.cells() };
        let flat = head_channels * cells as i64;
        DenseHead {
            conv: ConvBn::new(&p / "conv", c, head_channels, [1, 1, 1], shape),
            fc1: nn::linear(&p / "fc1", flat, hidden, Default::default()),
            fc2: nn::linear(&p / "fc2", hidden, out, Default::default()),
            flat,
            pool_boards,
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        let mut h = self.conv.forward_t(x, train).relu();
        if self.pool_boards {
            h = board_mean(&h);
        }
        h.reshape([-1, self.flat]).apply(&self.fc1).relu().apply(&self.fc2)
    }

    fn fused(&self, channels_last: bool) -> FusedHead {
        FusedHead {
            conv: self.conv.fused(channels_last),
            fc1: Dense::of(&self.fc1),
            fc2: Dense::of(&self.fc2),
            flat: self.flat,
            pool_boards: self.pool_boards,
        }
    }
}

#[derive(Debug)]
struct FusedHead {
    conv: FusedConv,
    fc1: Dense,
    fc2: Dense,
    flat: i64,
    pool_boards: bool,
}

impl FusedHead {
    fn forward(&self, x: &Tensor) -> Tensor {
        // The flatten order is [channel, cell], as in training, whatever the memory layout.
        let mut h = self.conv.forward(x).relu_();
        if self.pool_boards {
            h = board_mean(&h);
        }
        let h = h.reshape([-1, self.flat]);
        self.fc2.forward(&self.fc1.forward(&h).relu_())
    }
}

/// The network's layers. Built under a [`nn::Path`] of a `VarStore` that owns the weights; see
/// [`super::model::Model`], which pairs the two and does saving and loading.
#[derive(Debug)]
pub struct Net {
    config: NetConfig,
    shape: NetShape,
    stem: ConvBn,
    tower: Vec<ResBlock>,
    policy_conv: ConvBn,
    policy_out: nn::Conv3D,
    value: DenseHead,
    moves_left: DenseHead,
}

impl Net {
    /// Creates the layers of a 5x5x5 network of `config` (assumed valid, see
    /// [`NetConfig::validate`]) under `p`, freshly initialised.
    pub fn new(p: &nn::Path, config: &NetConfig) -> Net {
        Net::with_shape(p, config, NetShape::FIVE_UP)
    }

    /// Creates the layers of `config` for a game of `shape` under `p`, freshly initialised.
    pub fn with_shape(p: &nn::Path, config: &NetConfig, shape: NetShape) -> Net {
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
        let s = &shape;
        Net {
            config: *config,
            shape,
            stem: ConvBn::new(p / "stem", shape.planes as i64, c, [3, 3, 3], s),
            tower: (0..config.blocks).map(|i| ResBlock::new(p / "tower" / i, config, s)).collect(),
            policy_conv: ConvBn::new(p / "policy" / "hidden", c, c, [1, 1, 1], s),
            policy_out: nn::conv(p / "policy" / "out", c, shape.policy_out_channels(), [1, 1, 1], policy_cfg),
            value: DenseHead::new(p / "value", c, (VALUE_CHANNELS, VALUE_HIDDEN, 3), s),
            moves_left: DenseHead::new(p / "moves_left", c, (MOVES_LEFT_CHANNELS, MOVES_LEFT_HIDDEN, 1), s),
        }
    }

    /// The architecture.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// The game shape it was built for.
    pub fn shape(&self) -> &NetShape {
        &self.shape
    }

    /// Runs a batch `x` of shape `[n, planes, spatial...]` (or `[n, input size]`) of its
    /// [`NetShape`]. `train` selects batch statistics (training) or running statistics
    /// (inference) in batch norm.
    pub fn forward_t(&self, x: &Tensor, train: bool) -> NetOutput {
        let x = x.reshape(self.shape.input_dims(-1));
        let mut h = self.stem.forward_t(&x, train).relu();
        for block in &self.tower {
            h = block.forward_t(&h, train);
        }
        let mut policy = self.policy_conv.forward_t(&h, train).relu().apply(&self.policy_out);
        if self.shape.unordered_axis {
            policy = pair_policy(&policy, self.shape.spatial);
        }
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
                w: self.policy_out.ws.reshape([self.shape.policy_out_channels(), -1]).copy(),
                b: self.policy_out.bs.as_ref().expect("policy output has a bias").view([-1, 1]).copy(),
            },
            value: self.value.fused(channels_last),
            moves_left: self.moves_left.fused(channels_last),
            channels_last,
            shape: self.shape,
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
    /// The last 1×1×1 convolution as a matrix `[policy out channels, channels]` (see `forward`).
    policy_out: Dense,
    value: FusedHead,
    moves_left: FusedHead,
    channels_last: bool,
    shape: NetShape,
}

impl FusedNet {
    /// Whether weights (and so, preferably, inputs) are channels-last.
    pub fn channels_last(&self) -> bool {
        self.channels_last
    }

    /// The game shape.
    pub fn shape(&self) -> &NetShape {
        &self.shape
    }

    /// Runs a batch `[n, planes, spatial...]` in inference mode.
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
        let [_, _, d, hh, ww] = self.shape.input_dims(-1);
        let out = self.policy_out.w.size()[0];
        let mut policy = self.policy_out.w.matmul(&p).g_add_(&self.policy_out.b).view([-1, out, d, hh, ww]);
        if self.shape.unordered_axis {
            policy = pair_policy(&policy, self.shape.spatial);
        }
        let wdl = self.value.forward(&h);
        let moves_left = self.moves_left.forward(&h).view([-1]);
        NetOutput { policy, wdl, moves_left }
    }
}
