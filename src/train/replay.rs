//! The replay window over the newest shards, sampling, augmentation and batch assembly.
//!
//! # Window (KataGo's shuffler)
//! With `N` samples produced so far in the run, training draws from the newest
//! [`window_size`]`(N)` of them:
//!
//! ```text
//! window(N) = N                                        if N ≤ c
//!           = c · (1 + β · ((N / c)^α − 1) / α)        otherwise, capped at window_max
//! ```
//!
//! `c = replay.window_min`, `α = replay.window_alpha` (0.75), `β = replay.window_beta` (0.4). The
//! window grows like `N^α`: early on, when the network changes fast, old data leaves quickly; later
//! the window holds many generations. At `N = c` the window is `c` and grows with slope `β`.
//!
//! # Two pools: self-play and bootstrap
//! Self-play samples form the window above. Bootstrap (distillation) samples are kept apart in
//! their own pool, always whole, so that a million engine-labelled positions neither swamp the
//! window of a few thousand self-play samples nor count towards its size: each batch item comes
//! from the bootstrap pool with probability `share` and from the window otherwise. The loop sets
//! the share: 1 while training the bootstrap network, then
//! `bootstrap.mix_share · 2^(−g / bootstrap.mix_halflife)` in generation `g`
//! ([`bootstrap_share`]). A pool that is empty gives its items to the other.
//!
//! # Sampling
//! - `uniform`: every sample of the window equally likely, with replacement.
//! - `surprise`: a share `s = training.surprise_share` of the probability mass is spread in
//!   proportion to each sample's value surprise, `KL(z ‖ v)` between its value target `z` and the
//!   evaluator's value `v` recorded when it was played (KataGo weights by policy surprise; our
//!   records keep the network's value but not its policy), the rest uniformly:
//!   `p_i ∝ (1 − s) + s · KL_i / mean(KL)`. Only self-play samples take part (bootstrap samples
//!   have no network value: they are drawn uniformly from their pool).
//!
//! # Targets ([`Targets`])
//! policy: the search's sparse target over the legal moves (moves it did not list get 0), with a
//! share `smoothing` spread uniformly over the legal moves (bootstrap: `bootstrap.policy_smoothing`
//! around the engine's move; self-play: 0);
//! value: for MCTS positions `(1 − m) · result + m · root WDL` with `m = training.value_target_mix`;
//! for engine positions `(1 − w) · result + w · [E, 0, 1 − E]`, `E` the engine score's win
//! expectation at `bootstrap.score_scale` and `w = bootstrap.score_weight`; moves left: plies from
//! the position to the end of the game.
//!
//! # Augmentation
//! With `training.mirror`, each drawn sample gets a uniformly chosen symmetry of its variant
//! ([`Symmetry::all`]: the file mirror, plus the rotations on the hypercylinder), applied to the
//! input planes ([`Symmetry::apply_planes`]) and to every move's policy index
//! ([`Symmetry::apply_index`]).

use super::TrainError;
use crate::game::legal_moves;
use crate::game::prior_occurrences;
use crate::nn::netgame::{encode_into, move_to_index};
use crate::nn::GameSymmetry;
use crate::rules::Position;
use crate::selfplay::{read_shard, GameRecord, SelfPlayGame};
use crate::train::config::{ReplaySection, TrainConfig};
use rand::distributions::{Distribution, WeightedIndex};
use rand::Rng;
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

/// The number of newest samples training draws from when `total` samples exist.
pub fn window_size(total: u64, r: &ReplaySection) -> u64 {
    let (c, n) = (r.window_min as f64, total as f64);
    if n <= c {
        return total;
    }
    let w = c * (1.0 + r.window_beta * ((n / c).powf(r.window_alpha) - 1.0) / r.window_alpha);
    (w.floor() as u64).min(r.window_max).min(total)
}

/// One training sample.
#[derive(Clone, Debug)]
pub struct Sample<S = Position> {
    /// The position.
    pub position: S,
    /// Earlier occurrences of the position in its game.
    pub repetitions: u8,
    /// Sparse policy target: (move bits, probability), sorted by move bits; empty for a
    /// value-only sample (its policy row in a batch is all zeros and adds nothing to the policy
    /// loss).
    pub policy: Box<[(u32, f32)]>,
    /// Value target (win, draw, loss for the side to move).
    pub wdl: [f32; 3],
    /// Plies from here to the end of the game.
    pub moves_left: f32,
    /// Value surprise `KL(wdl ‖ evaluator's value)`.
    pub surprise: f32,
    /// Share of the policy target spread uniformly over the legal moves (label smoothing).
    pub smoothing: f32,
}

/// How a record's positions become targets (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// Share of the search's root WDL in the value target of MCTS positions.
    pub value_mix: f32,
    /// Share of the engine score's expectation in the value target of engine positions.
    pub score_weight: f32,
    /// Logistic scale (centipawns) of the engine score's expectation.
    pub score_scale: f32,
    /// Label smoothing of the policy target.
    pub smoothing: f32,
}

impl Targets {
    /// Self-play targets: the root WDL mixed in with weight `value_mix`, no smoothing.
    pub fn selfplay(value_mix: f32) -> Targets {
        Targets { value_mix, score_weight: 0.5, score_scale: 400.0, smoothing: 0.0 }
    }

    /// The self-play targets of a config.
    pub fn selfplay_of(cfg: &TrainConfig) -> Targets {
        Targets { value_mix: cfg.training.value_target_mix, smoothing: 0.0, ..Targets::bootstrap_of(cfg) }
    }

    /// The bootstrap targets of a config (engine score weight and scale, smoothing).
    pub fn bootstrap_of(cfg: &TrainConfig) -> Targets {
        let b = &cfg.bootstrap;
        Targets {
            value_mix: cfg.training.value_target_mix,
            score_weight: b.score_weight,
            score_scale: b.score_scale,
            smoothing: b.policy_smoothing,
        }
    }
}

/// The share of bootstrap samples in the batches of generation `g`'s training (see the module
/// documentation): `mix_share · 2^(−g / mix_halflife)`, 0 without a bootstrap.
pub fn bootstrap_share(cfg: &TrainConfig, g: u32) -> f64 {
    let b = &cfg.bootstrap;
    if !b.enabled {
        return 0.0;
    }
    b.mix_share * (-(g as f64) / b.mix_halflife).exp2()
}

/// The samples of one game under `targets`.
pub fn game_samples<S: SelfPlayGame>(
    rec: &GameRecord,
    targets: &Targets,
) -> Result<Vec<Sample<S>>, crate::selfplay::records::RecordError> {
    let positions = rec.replay_of::<S>()?;
    let hashes: Vec<u64> = positions.iter().map(S::hash).collect();
    let plies = rec.moves.len() as f32;
    let mut out = Vec::with_capacity(rec.positions.len());
    for p in &rec.positions {
        let Some(pos) = positions.get(p.ply as usize) else { continue };
        let ply = p.ply as usize;
        let z = rec.result.wdl_for(pos.side());
        let (m, root) = match p.engine_score {
            Some(score) => {
                let e = crate::engine::score::score_to_expectation(score, targets.score_scale);
                (targets.score_weight, [e, 0.0, 1.0 - e])
            }
            None => (targets.value_mix, p.root_wdl),
        };
        let wdl: [f32; 3] = std::array::from_fn(|i| (1.0 - m) * z[i] + m * root[i]);
        let surprise = wdl
            .iter()
            .zip(&p.nn_wdl)
            .map(|(&t, &v)| if t > 0.0 { t * (t / v.max(1e-4)).ln() } else { 0.0 })
            .sum::<f32>();
        let mut policy: Vec<(u32, f32)> = p.policy.clone();
        policy.sort_by_key(|&(m, _)| m);
        out.push(Sample {
            position: pos.clone(),
            repetitions: prior_occurrences(&hashes[..ply], pos.hash(), pos.halfmove()),
            policy: policy.into_boxed_slice(),
            wdl,
            moves_left: plies - p.ply as f32,
            surprise: surprise.max(0.0),
            smoothing: targets.smoothing,
        });
    }
    Ok(out)
}

/// A batch as flat buffers, laid out as the tch trainer's batch: item `i`'s legal move `j` is
/// slot `i · k + j`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainBatch {
    /// Items.
    pub n: usize,
    /// Slots per item: the most legal moves of any item (at least 1).
    pub k: usize,
    /// Encoded inputs, `n · INPUT_SIZE` (see [`crate::nn::encode`]).
    pub input: Vec<f32>,
    /// For each slot, the three flat indices its move's score sums (main, placement, promotion)
    /// into the batch's logits flattened to `n · POLICY_SIZE` and extended by one zero; absent
    /// parts and padding point at that zero (index `n · POLICY_SIZE`). `n · k · 3`.
    pub move_index: Vec<i64>,
    /// Which slots hold real moves. `n · k`.
    pub move_mask: Vec<bool>,
    /// Target probability of each slot (0 on padding; a value-only sample's row is all zeros).
    /// `n · k`.
    pub policy: Vec<f32>,
    /// Value targets, `n · 3`.
    pub wdl: Vec<f32>,
    /// Moves-left targets in plies, `n`.
    pub moves_left: Vec<f32>,
}

impl TrainBatch {
    /// Assembles samples, each under its symmetry.
    pub fn assemble<S: SelfPlayGame>(items: &[(&Sample<S>, S::Symmetry)]) -> TrainBatch {
        let n = items.len();
        let moves: Vec<Vec<S::Move>> = items.iter().map(|(s, _)| legal_moves(&s.position)).collect();
        let k = moves.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let zero = (n * S::POLICY_SIZE) as i64;
        let mut b = TrainBatch {
            n,
            k,
            input: vec![0.0; n * S::INPUT_SIZE],
            move_index: vec![zero; n * k * 3],
            move_mask: vec![false; n * k],
            policy: vec![0.0; n * k],
            wdl: Vec::with_capacity(n * 3),
            moves_left: Vec::with_capacity(n),
        };
        let mut plain = vec![0.0f32; S::INPUT_SIZE];
        for (i, ((s, sym), moves)) in items.iter().zip(&moves).enumerate() {
            let dst = &mut b.input[i * S::INPUT_SIZE..(i + 1) * S::INPUT_SIZE];
            // The symmetries list the identity first.
            if s.position.symmetries().first() == Some(sym) {
                encode_into(&s.position, s.repetitions as u32, dst);
            } else {
                encode_into(&s.position, s.repetitions as u32, &mut plain);
                sym.apply_planes(&plain, dst);
            }
            let base = (i * S::POLICY_SIZE) as i64;
            let mut total = 0.0f32;
            for (j, m) in moves.iter().enumerate() {
                let pi = sym.apply_index(move_to_index(&s.position, *m));
                let slot = i * k + j;
                b.move_index[slot * 3] = base + pi.main as i64;
                b.move_index[slot * 3 + 1] = pi.placement.map_or(zero, |p| base + p as i64);
                b.move_index[slot * 3 + 2] = pi.promotion.map_or(zero, |p| base + p as i64);
                b.move_mask[slot] = true;
                let bits = S::move_bits(*m);
                let p = s.policy.binary_search_by_key(&bits, |&(b, _)| b).map_or(0.0, |at| s.policy[at].1);
                b.policy[slot] = p;
                total += p;
            }
            // Renormalise (targets are stored rounded; a move the record lists must be legal), then
            // spread the smoothing share uniformly. A value-only sample keeps a row of zeros.
            let row = &mut b.policy[i * k..i * k + moves.len()];
            let (keep, flat) = if s.policy.is_empty() {
                (0.0, 0.0)
            } else if total > 0.0 {
                (1.0 - s.smoothing, s.smoothing / moves.len() as f32)
            } else {
                (0.0, 1.0 / moves.len().max(1) as f32)
            };
            row.iter_mut().for_each(|p| *p = keep * *p / total.max(f32::MIN_POSITIVE) + flat);
            b.wdl.extend_from_slice(&s.wdl);
            b.moves_left.push(s.moves_left);
        }
        b
    }

    /// Item `i`'s target probabilities over its slots (padding included).
    pub fn policy_of(&self, i: usize) -> &[f32] {
        &self.policy[i * self.k..(i + 1) * self.k]
    }
}

/// Which pool a shard directory's samples go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// The self-play window.
    SelfPlay,
    /// The bootstrap pool (kept whole, drawn uniformly with its share).
    Bootstrap,
}

/// Samples loaded from shards: the self-play samples newest last, with the run's running total,
/// and the bootstrap pool.
#[derive(Debug)]
pub struct Replay<S = Position> {
    samples: VecDeque<Sample<S>>,
    bootstrap: Vec<Sample<S>>,
    total: u64,
    loaded: HashSet<PathBuf>,
    keep: usize,
}

/// The `.shard` files of a directory, sorted by name.
pub fn shard_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut v: Vec<PathBuf> =
        rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "shard")).collect();
    v.sort();
    v
}

impl<S: SelfPlayGame> Replay<S> {
    /// An empty replay keeping at most `keep` samples in memory (the window's cap).
    pub fn new(keep: u64) -> Replay<S> {
        Replay {
            samples: VecDeque::new(),
            bootstrap: Vec::new(),
            total: 0,
            loaded: HashSet::new(),
            keep: keep.max(1) as usize,
        }
    }

    /// Loads the shards of `dir` not loaded yet (in name order) into `pool`, with `targets` as in
    /// [`game_samples`]. A damaged shard or game is skipped with a warning. Returns the samples added.
    pub fn load_dir(&mut self, dir: &Path, targets: &Targets, pool: Pool) -> Result<u64, TrainError> {
        let mut added = 0;
        for path in shard_files(dir) {
            if self.loaded.contains(&path) {
                continue;
            }
            let games = match read_shard(&path) {
                Ok(g) => g,
                Err(e) => {
                    tracing::warn!("skipping {e}");
                    self.loaded.insert(path);
                    continue;
                }
            };
            for rec in &games {
                match game_samples::<S>(rec, targets) {
                    Ok(s) => {
                        added += s.len() as u64;
                        match pool {
                            Pool::SelfPlay => self.samples.extend(s),
                            Pool::Bootstrap => self.bootstrap.extend(s),
                        }
                    }
                    Err(e) => tracing::warn!("{}: skipping game {}: {e}", path.display(), rec.game_index),
                }
            }
            self.loaded.insert(path);
        }
        if pool == Pool::SelfPlay {
            self.total += added;
        }
        while self.samples.len() > self.keep {
            self.samples.pop_front();
        }
        Ok(added)
    }

    /// Self-play samples produced so far (all loaded shards, including those that left memory).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Self-play samples in memory.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether no self-play sample is in memory.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Samples in the bootstrap pool.
    pub fn bootstrap_len(&self) -> usize {
        self.bootstrap.len()
    }

    /// A sampler over the newest `window` self-play samples, with the bootstrap pool's `share`
    /// of each batch (see the module documentation).
    pub fn sampler(&self, window: u64, surprise_share: Option<f64>, share: f64) -> Sampler<'_, S> {
        let w = (window as usize).min(self.samples.len());
        let start = self.samples.len() - w;
        let weighted = surprise_share.filter(|&s| s > 0.0 && w > 0).and_then(|share| {
            let mean = (start..self.samples.len()).map(|i| self.samples[i].surprise as f64).sum::<f64>() / w as f64;
            if mean <= 0.0 {
                return None;
            }
            let weights =
                (start..self.samples.len()).map(|i| (1.0 - share) + share * self.samples[i].surprise as f64 / mean);
            WeightedIndex::new(weights).ok()
        });
        let share = match (w, self.bootstrap.len()) {
            (_, 0) => 0.0,
            (0, _) => 1.0,
            _ => share.clamp(0.0, 1.0),
        };
        Sampler { replay: self, start, len: w, weighted, share }
    }
}

/// Draws samples from a window of a [`Replay`].
pub struct Sampler<'a, S = Position> {
    replay: &'a Replay<S>,
    start: usize,
    len: usize,
    weighted: Option<WeightedIndex<f64>>,
    share: f64,
}

impl<S: SelfPlayGame> Sampler<'_, S> {
    /// Self-play samples in the window.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is nothing to draw from (neither window nor bootstrap pool).
    pub fn is_empty(&self) -> bool {
        self.len == 0 && self.replay.bootstrap.is_empty()
    }

    /// The share of batch items drawn from the bootstrap pool.
    pub fn share(&self) -> f64 {
        self.share
    }

    /// A batch of `n` samples drawn with replacement, each under a random symmetry of its variant
    /// when `mirror`.
    pub fn batch(&self, n: usize, mirror: bool, rng: &mut impl Rng) -> TrainBatch {
        assert!(!self.is_empty(), "sampling from an empty window");
        let items: Vec<(&Sample<S>, S::Symmetry)> = (0..n)
            .map(|_| {
                let s = if self.share > 0.0 && (self.share >= 1.0 || rng.gen::<f64>() < self.share) {
                    &self.replay.bootstrap[rng.gen_range(0..self.replay.bootstrap.len())]
                } else {
                    let i = match &self.weighted {
                        Some(w) => w.sample(rng),
                        None => rng.gen_range(0..self.len),
                    };
                    &self.replay.samples[self.start + i]
                };
                let syms = s.position.symmetries();
                let sym = if mirror { syms[rng.gen_range(0..syms.len())] } else { syms[0] };
                (s, sym)
            })
            .collect();
        TrainBatch::assemble(&items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encode::encode;
    use crate::nn::{Symmetry, UniformEvaluator, INPUT_SIZE, POLICY_SIZE};
    use crate::selfplay::{run, SelfPlayConfig, ShardWriter};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn games(n: u64, seed: u64) -> Vec<GameRecord> {
        let cfg = SelfPlayConfig {
            concurrent_games: n as usize,
            total_games: n,
            seed,
            full_simulations: 8,
            cheap_simulations: 4,
            full_search_prob: 0.5,
            ply_cap: 30,
            ..SelfPlayConfig::default()
        };
        let mut out = Vec::new();
        run(&cfg, &mut UniformEvaluator::new(), &mut |g| out.push(g), &mut |_| {}).unwrap();
        out
    }

    #[test]
    fn the_window_grows_sublinearly_from_c() {
        let r = ReplaySection {
            window_min: 1000,
            window_alpha: 0.75,
            window_beta: 0.4,
            window_max: 1_000_000,
            min_samples: 0,
        };
        assert_eq!(window_size(500, &r), 500);
        assert_eq!(window_size(1000, &r), 1000);
        let w = |n| window_size(n, &r);
        assert!(w(2000) > 1000 && w(2000) < 1500, "{}", w(2000));
        // Slope β just above c.
        let slope = (w(1100) - w(1000)) as f64 / 100.0;
        assert!((slope - 0.4).abs() < 0.02, "{slope}");
        // Sublinear: the share of all data in the window falls.
        assert!((w(100_000) as f64 / 100_000.0) < (w(10_000) as f64 / 10_000.0));
        let capped = ReplaySection { window_max: 1200, ..r };
        assert_eq!(window_size(1_000_000, &capped), 1200);
    }

    #[test]
    fn samples_carry_the_record_targets() {
        let g = games(2, 3);
        for rec in &g {
            let s = game_samples::<Position>(rec, &Targets::selfplay(0.0)).unwrap();
            assert_eq!(s.len(), rec.positions.len());
            for (x, p) in s.iter().zip(&rec.positions) {
                assert_eq!(x.wdl, rec.result.wdl_for(x.position.side()));
                assert_eq!(x.moves_left, (rec.moves.len() - p.ply as usize) as f32);
                assert!((x.policy.iter().map(|p| p.1).sum::<f32>() - 1.0).abs() < 1e-3);
            }
        }
    }

    #[test]
    fn batches_match_the_encoder_and_the_policy_map_under_symmetry() {
        let recs = games(2, 5);
        let samples: Vec<Sample> =
            recs.iter().flat_map(|r| game_samples(r, &Targets::selfplay(0.5)).unwrap()).collect();
        assert!(samples.len() >= 2);
        let items: Vec<(&Sample, Symmetry)> = samples
            .iter()
            .take(6)
            .enumerate()
            .map(|(i, s)| (s, if i % 2 == 1 { Symmetry::MIRROR } else { Symmetry::IDENTITY }))
            .collect();
        let b = TrainBatch::assemble(&items);
        assert_eq!(b.n, items.len());
        for (i, (s, sym)) in items.iter().enumerate() {
            // The transformed sample is the sample of the transformed position.
            let image = sym.apply_position(&s.position);
            assert_eq!(&b.input[i * INPUT_SIZE..(i + 1) * INPUT_SIZE], &encode(&image, s.repetitions as u32)[..]);
            let moves = s.position.legal_moves();
            let base = (i * POLICY_SIZE) as i64;
            for (j, m) in moves.iter().enumerate() {
                let expect = move_to_index(&image, sym.apply_move(*m));
                assert_eq!(b.move_index[(i * b.k + j) * 3], base + expect.main as i64);
                assert!(b.move_mask[i * b.k + j]);
            }
            assert!(!b.move_mask[i * b.k + moves.len()..(i + 1) * b.k].iter().any(|&x| x));
            assert!((b.policy_of(i).iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn quasi_alice_batches_match_the_encoder_and_the_policy_map_under_board_permutations() {
        use crate::nn::netgame::encode;
        use crate::nn::NetGame;
        use crate::quasi_alice::Position as Qa;
        let cfg = SelfPlayConfig {
            concurrent_games: 2,
            total_games: 2,
            seed: 3,
            full_simulations: 8,
            cheap_simulations: 4,
            full_search_prob: 1.0,
            ply_cap: 24,
            ..SelfPlayConfig::with_start(Qa::start())
        };
        let mut recs = Vec::new();
        run(&cfg, &mut UniformEvaluator::new(), &mut |g| recs.push(g), &mut |_| {}).unwrap();
        let samples: Vec<Sample<Qa>> =
            recs.iter().flat_map(|r| game_samples::<Qa>(r, &Targets::selfplay(0.5)).unwrap()).collect();
        assert!(samples.len() >= 4);
        let items: Vec<_> = samples
            .iter()
            .take(8)
            .enumerate()
            .map(|(i, s)| {
                let syms = s.position.symmetries();
                (s, syms[i % syms.len()])
            })
            .collect();
        assert!(items.iter().any(|(s, sym)| s.position.symmetries()[0] != *sym), "some are permuted");
        let b = TrainBatch::assemble(&items);
        let (input, policy) = (<Qa as NetGame>::INPUT_SIZE, <Qa as NetGame>::POLICY_SIZE);
        assert_eq!(b.input.len(), items.len() * input);
        for (i, (s, sym)) in items.iter().enumerate() {
            let image = sym.apply_position(&s.position);
            assert_eq!(&b.input[i * input..(i + 1) * input], &encode(&image, s.repetitions as u32)[..]);
            let moves = s.position.legal_moves();
            for (j, m) in moves.iter().enumerate() {
                let expect = crate::nn::netgame::move_to_index(&image, sym.apply_move(*m));
                assert_eq!(b.move_index[(i * b.k + j) * 3], (i * policy) as i64 + expect.main as i64);
            }
            assert!((b.policy_of(i).iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn replay_loads_new_shards_once_and_samples_the_newest() {
        let t = tempfile::tempdir().unwrap();
        let mut w = ShardWriter::new(t.path(), "t", 1, 0).unwrap();
        for g in games(3, 9) {
            w.push(g).unwrap();
        }
        w.flush().unwrap();
        std::fs::write(t.path().join("junk.shard"), b"nope").unwrap();
        let mut r = Replay::<Position>::new(1_000_000);
        let added = r.load_dir(t.path(), &Targets::selfplay(0.0), Pool::SelfPlay).unwrap();
        assert!(added > 0);
        assert_eq!(r.load_dir(t.path(), &Targets::selfplay(0.0), Pool::SelfPlay).unwrap(), 0, "loaded once");
        assert_eq!(r.total(), added);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for share in [None, Some(0.5)] {
            let s = r.sampler(3, share, 0.5);
            assert_eq!(s.share(), 0.0, "no bootstrap pool: every item from the window");
            assert_eq!(s.len(), 3);
            let b = s.batch(8, true, &mut rng);
            assert_eq!(b.n, 8);
        }
    }

    #[test]
    fn bootstrap_samples_keep_their_share_and_stay_out_of_the_window_and_surprise() {
        // Before: bootstrap games went into the self-play window, counted towards its size and
        // were sampled (and surprise-weighted) like self-play samples, ~93% of it at generation 1.
        let t = tempfile::tempdir().unwrap();
        let (boot, sp) = (t.path().join("bootstrap"), t.path().join("gen"));
        for (dir, seed) in [(&boot, 21), (&sp, 22)] {
            let mut w = ShardWriter::new(dir, "t", 1, 0).unwrap();
            for mut g in games(3, seed) {
                if dir == &boot {
                    // Engine positions scored 0: their value target is [0.5, 0, 0.5], which no
                    // self-play sample (a one-hot result) has.
                    g.positions.iter_mut().for_each(|p| p.engine_score = Some(0));
                }
                w.push(g).unwrap();
            }
            w.flush().unwrap();
        }
        let mut r = Replay::<Position>::new(1_000_000);
        let targets = Targets { smoothing: 0.1, score_weight: 1.0, ..Targets::selfplay(0.0) };
        let nb = r.load_dir(&boot, &targets, Pool::Bootstrap).unwrap();
        assert_eq!((r.total(), r.len(), r.bootstrap_len() as u64), (0, 0, nb), "not in the window");
        let ns = r.load_dir(&sp, &Targets::selfplay(0.0), Pool::SelfPlay).unwrap();
        assert_eq!(r.total(), ns);
        let is_boot = |s: &Sample| s.smoothing > 0.0 && s.wdl[0] == 0.5;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for share in [0.0, 0.25, 1.0] {
            let sampler = r.sampler(ns, Some(0.5), share);
            assert_eq!(sampler.share(), share);
            let n = 4000;
            let drawn = (0..n).filter(|_| sampler.batch(1, false, &mut rng).wdl[0] == 0.5).count() as f64 / n as f64;
            assert!((drawn - share).abs() < 0.03, "share {share}: drew {drawn}");
        }
        assert!(r.bootstrap.iter().all(is_boot) && !r.samples.iter().any(is_boot));
        // An empty window gives every item to the bootstrap pool (the bootstrap network's training).
        let only = {
            let mut o = Replay::<Position>::new(1000);
            o.load_dir(&boot, &targets, Pool::Bootstrap).unwrap();
            o
        };
        assert_eq!(only.sampler(0, None, 0.3).share(), 1.0);
    }

    #[test]
    fn the_bootstrap_share_halves_every_halflife() {
        let mut cfg = TrainConfig::default();
        cfg.bootstrap.enabled = true;
        cfg.bootstrap.mix_share = 0.5;
        cfg.bootstrap.mix_halflife = 4.0;
        assert_eq!(bootstrap_share(&cfg, 0), 0.5);
        assert!((bootstrap_share(&cfg, 4) - 0.25).abs() < 1e-12);
        assert!((bootstrap_share(&cfg, 8) - 0.125).abs() < 1e-12);
        cfg.bootstrap.enabled = false;
        assert_eq!(bootstrap_share(&cfg, 0), 0.0);
    }

    #[test]
    fn engine_positions_take_their_value_from_the_score_and_get_smoothed_policies() {
        use crate::engine::score::score_to_expectation;
        let mut g = games(1, 31).remove(0);
        for p in g.positions.iter_mut() {
            p.engine_score = Some(150);
            p.policy.truncate(1);
            p.policy[0].1 = 1.0;
        }
        let t = Targets { value_mix: 0.0, score_weight: 0.6, score_scale: 400.0, smoothing: 0.1 };
        let s = game_samples::<Position>(&g, &t).unwrap();
        let e = score_to_expectation(150, 400.0);
        for x in &s {
            let z = g.result.wdl_for(x.position.side());
            assert!((x.wdl[0] - (0.4 * z[0] + 0.6 * e)).abs() < 1e-6);
            assert!((x.wdl[2] - (0.4 * z[2] + 0.6 * (1.0 - e))).abs() < 1e-6);
        }
        let b = TrainBatch::assemble(&[(&s[0], Symmetry::IDENTITY)]);
        let n = s[0].position.legal_moves().len() as f32;
        let row = b.policy_of(0);
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let top = row.iter().cloned().fold(0.0, f32::max);
        assert!((top - (0.9 + 0.1 / n)).abs() < 1e-6, "{top}");
    }
}
