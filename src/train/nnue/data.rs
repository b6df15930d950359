//! The trainer's samples: every engine-scored position of the shards, as both perspectives'
//! active inputs and its targets (the search score as a win expectation, the game result).

use super::train::NnueTrainError;
use crate::engine::nnue::{active_features, king_bucket_of, INPUTS, RESERVE_BASE};
use crate::engine::score::{score_to_expectation, SCORE_SCALE};
use crate::game::Color;
use crate::rules::{Position, Ruleset};
use crate::selfplay::read_shard;
use rayon::prelude::*;
use std::path::PathBuf;
use tch::{Device, Tensor};

/// Every `VALID_EVERY`-th game (by index) is held out for validation.
pub const VALID_EVERY: u64 = 50;

/// Samples in memory: per sample the inputs of the side to move then of the other side.
#[derive(Default)]
pub struct Dataset {
    pub(super) feats: Vec<u16>,
    /// Start of each sample's inputs in `feats` (one more entry than samples).
    starts: Vec<u32>,
    /// How many of a sample's inputs are the side to move's.
    split: Vec<u16>,
    /// The search score as a win expectation for the side to move.
    score: Vec<f32>,
    /// The game result for the side to move.
    result: Vec<f32>,
}

impl Dataset {
    /// Samples held.
    pub fn len(&self) -> usize {
        self.score.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    pub(super) fn push(&mut self, us: &[u16], them: &[u16], score: f32, result: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.feats.extend_from_slice(us);
        self.feats.extend_from_slice(them);
        self.starts.push(self.feats.len() as u32);
        self.split.push(us.len() as u16);
        self.score.push(score);
        self.result.push(result);
    }

    fn append(&mut self, other: Dataset) {
        for i in 0..other.len() {
            let (a, b) = (other.starts[i] as usize, other.starts[i + 1] as usize);
            let s = other.split[i] as usize;
            self.push(&other.feats[a..a + s], &other.feats[a + s..b], other.score[i], other.result[i]);
        }
    }

    /// Men on the board in sample `i`: every man is one piece input of each perspective.
    fn men(&self, i: usize) -> usize {
        let a = self.starts[i] as usize;
        self.feats[a..a + self.split[i] as usize].iter().filter(|&&f| (f as usize) % INPUTS < RESERVE_BASE).count()
    }

    /// Samples per output bucket among `buckets` (how the data spreads over the stacks).
    pub fn bucket_counts(&self, buckets: usize) -> Vec<usize> {
        let mut n = vec![0; buckets.max(1)];
        for i in 0..self.len() {
            n[crate::engine::nnue::bucket(self.men(i), buckets.max(1))] += 1;
        }
        n
    }

    /// Samples per king bucket of the side to move among `kings` (each sample's inputs are its
    /// bucket's rows).
    pub fn king_counts(&self, kings: usize) -> Vec<usize> {
        let mut n = vec![0; kings.max(1)];
        for i in 0..self.len() {
            let a = self.starts[i] as usize;
            if let Some(&f) = self.feats.get(a).filter(|_| self.split[i] > 0) {
                n[(f as usize / INPUTS).min(kings.max(1) - 1)] += 1;
            }
        }
        n
    }

    /// The tensors of the samples `idx`: inputs and offsets of both perspectives, targets, and
    /// each sample's output bucket among `buckets`. With king buckets (`kings` > 1) each input
    /// also names its shared row (the factorizer's, after the `kings × INPUTS` bucket rows).
    pub(super) fn batch(
        &self,
        idx: &[usize],
        lambda: f32,
        buckets: usize,
        kings: usize,
        device: Device,
    ) -> [Tensor; 6] {
        let (mut us, mut them, mut us_off, mut them_off) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut target = Vec::with_capacity(idx.len());
        let mut bucket = Vec::with_capacity(idx.len());
        for &i in idx {
            let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
            let s = a + self.split[i] as usize;
            us_off.push(us.len() as i64);
            them_off.push(them.len() as i64);
            us.extend(self.feats[a..s].iter().map(|&f| f as i64));
            them.extend(self.feats[s..b].iter().map(|&f| f as i64));
            if kings > 1 {
                let shared = |f: &u16| (kings * INPUTS + *f as usize % INPUTS) as i64;
                us.extend(self.feats[a..s].iter().map(shared));
                them.extend(self.feats[s..b].iter().map(shared));
            }
            target.push(lambda * self.score[i] + (1.0 - lambda) * self.result[i]);
            // Without buckets every sample is bucket 0: no men to count.
            bucket.push(if buckets == 1 { 0 } else { crate::engine::nnue::bucket(self.men(i), buckets) as i64 });
        }
        [
            Tensor::from_slice(&us).to_device(device),
            Tensor::from_slice(&us_off).to_device(device),
            Tensor::from_slice(&them).to_device(device),
            Tensor::from_slice(&them_off).to_device(device),
            Tensor::from_slice(&target).to_device(device),
            Tensor::from_slice(&bucket).to_device(device),
        ]
    }
}

/// A sample's active inputs of `pos` from `perspective` in a network of `kings` king buckets:
/// [`active_features`] counted from the perspective's king bucket's first row.
pub fn sample_features(pos: &Position, perspective: Color, kings: usize) -> Vec<u16> {
    let mut f = active_features(pos, perspective);
    let offset = (king_bucket_of(pos, perspective, kings) * INPUTS) as u16;
    f.iter_mut().for_each(|x| *x += offset);
    f
}

/// The training and validation samples of every shard under `dirs` (files `*.shard`, read in
/// name order), for a network of `kings` king buckets. Errors name the file; a shard of another
/// ruleset is an error.
pub fn load_data(dirs: &[PathBuf], ruleset: Ruleset, kings: usize) -> Result<(Dataset, Dataset), NnueTrainError> {
    let mut files = Vec::new();
    for d in dirs {
        let rd = std::fs::read_dir(d).map_err(|source| NnueTrainError::Io { path: d.clone(), source })?;
        let mut here: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "shard"))
            .collect();
        if here.is_empty() {
            return Err(NnueTrainError::NoShards(d.clone()));
        }
        here.sort();
        files.extend(here);
    }
    let parts: Result<Vec<(Dataset, Dataset)>, NnueTrainError> = files
        .par_iter()
        .map(|f| {
            let games = read_shard(f).map_err(|source| NnueTrainError::Shard { path: f.clone(), source })?;
            let (mut train, mut valid) = (Dataset::default(), Dataset::default());
            for g in games {
                let v = g.variant.to_variant().map_err(|source| NnueTrainError::Variant { path: f.clone(), source })?;
                if v.ruleset != ruleset {
                    return Err(NnueTrainError::Ruleset { path: f.clone(), game: v.ruleset, net: ruleset });
                }
                let positions = g.replay().map_err(|source| NnueTrainError::Replay {
                    path: f.clone(),
                    game: g.game_index,
                    source,
                })?;
                let set = if g.game_index % VALID_EVERY == 0 { &mut valid } else { &mut train };
                for s in &g.positions {
                    let (Some(score), Some(pos)) = (s.engine_score, positions.get(s.ply as usize)) else { continue };
                    let side = pos.side();
                    let [w, d, _] = g.result.wdl_for(side);
                    let result = w + 0.5 * d;
                    set.push(
                        &sample_features(pos, side, kings),
                        &sample_features(pos, side.flip(), kings),
                        score_to_expectation(score, SCORE_SCALE),
                        result,
                    );
                }
            }
            Ok((train, valid))
        })
        .collect();
    let (mut train, mut valid) = (Dataset::default(), Dataset::default());
    for (t, v) in parts? {
        train.append(t);
        valid.append(v);
    }
    Ok((train, valid))
}
