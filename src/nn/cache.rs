//! [`EvalCache`]: an evaluator wrapped in a bounded table of earlier answers.
//!
//! The key is the position's Zobrist hash mixed with the repetition count and the fifty-move
//! clock (both are network inputs the hash does not cover). Each entry also keeps a checksum of
//! the move list it answered, so an answer is reused only for the same moves in the same order
//! (a hash collision or a reordered list is a miss, never a wrong prior). The table is
//! direct-mapped with a power-of-two size and always replaces: bounded memory, no eviction
//! bookkeeping. Misses of a batch are sent to the inner evaluator as one smaller batch.
//!
//! The cache serves any game (it needs only [`State::hash`], [`State::halfmove`] and the moves'
//! `Hash`): one `EvalCache<E>` is an `Evaluator<S>` for every game `S` its inner evaluator serves.

use super::evaluator::{reset_outputs, EvalInput, Evaluation, Evaluator};
use crate::game::State;
use crate::rng::hash64;
use std::hash::{Hash, Hasher};

/// Hit and miss counts of a cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Answers served from the table.
    pub hits: u64,
    /// Answers asked of the inner evaluator.
    pub misses: u64,
    /// Number of slots of the table.
    pub capacity: usize,
    /// Slots in use.
    pub filled: usize,
}

impl CacheStats {
    /// hits / (hits + misses), 0 before any lookup.
    pub fn hit_rate(&self) -> f64 {
        let n = self.hits + self.misses;
        if n == 0 {
            0.0
        } else {
            self.hits as f64 / n as f64
        }
    }
}

#[derive(Clone, Debug)]
struct Entry {
    key: u64,
    moves: u64,
    eval: Evaluation,
}

/// An evaluator with a bounded cache of its answers in front.
pub struct EvalCache<E> {
    inner: E,
    slots: Vec<Option<Entry>>,
    filled: usize,
    hits: u64,
    misses: u64,
    miss_index: Vec<usize>,
    miss_out: Vec<Evaluation>,
}

/// The cache key of an input: hash, repetitions and fifty-move clock.
#[inline]
pub fn cache_key<S: State>(input: &EvalInput<'_, S>) -> u64 {
    let extra = input.repetitions as u64 | (input.position.halfmove() as u64) << 32;
    input.position.hash() ^ hash64(extra)
}

/// Folds every integer a move's `Hash` writes into the checksum: `h = hash64(h ^ x)`. For a move
/// that is a `u32` newtype (both games' moves) that is one step per move on its packed bits.
struct MoveFold(u64);

impl Hasher for MoveFold {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64)
    }
    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64)
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64)
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = hash64(self.0 ^ x);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[inline]
fn moves_checksum<M: Hash>(moves: &[M]) -> u64 {
    let mut h = MoveFold(hash64(moves.len() as u64));
    moves.iter().for_each(|m| m.hash(&mut h));
    h.finish()
}

impl<E> EvalCache<E> {
    /// Wraps `inner` with a table of at least `capacity` entries (rounded up to a power of two,
    /// at least 1). Each entry costs about 64 bytes plus 4 bytes per legal move.
    pub fn new(inner: E, capacity: usize) -> EvalCache<E> {
        let n = capacity.max(1).next_power_of_two();
        EvalCache {
            inner,
            slots: vec![None; n],
            filled: 0,
            hits: 0,
            misses: 0,
            miss_index: Vec::new(),
            miss_out: Vec::new(),
        }
    }

    /// Hit/miss counters and fill.
    pub fn stats(&self) -> CacheStats {
        CacheStats { hits: self.hits, misses: self.misses, capacity: self.slots.len(), filled: self.filled }
    }

    /// Zeroes the hit/miss counters (the entries stay).
    pub fn reset_stats(&mut self) {
        self.hits = 0;
        self.misses = 0;
    }

    /// Drops every entry (e.g. when the inner evaluator loads a new network).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.filled = 0;
    }

    /// The wrapped evaluator.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    /// The wrapped evaluator, mutably (call [`EvalCache::clear`] if its answers change).
    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.inner
    }

    /// Unwraps the inner evaluator.
    pub fn into_inner(self) -> E {
        self.inner
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }
}

fn copy_eval(src: &Evaluation, dst: &mut Evaluation) {
    dst.policy.clear();
    dst.policy.extend_from_slice(&src.policy);
    dst.wdl = src.wdl;
    dst.moves_left = src.moves_left;
}

impl<S: State, E: Evaluator<S>> Evaluator<S> for EvalCache<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_, S>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        // 1. Serve hits, note misses.
        reset_outputs(out, batch.len());
        self.miss_index.clear();
        for (i, input) in batch.iter().enumerate() {
            let key = cache_key(input);
            let check = moves_checksum(input.moves);
            match &self.slots[self.slot(key)] {
                Some(e) if e.key == key && e.moves == check => {
                    copy_eval(&e.eval, &mut out[i]);
                    self.hits += 1;
                }
                _ => {
                    self.miss_index.push(i);
                    self.misses += 1;
                }
            }
        }
        if self.miss_index.is_empty() {
            return Ok(());
        }
        // 2. Ask the inner evaluator about the misses in one batch.
        let sub: Vec<EvalInput<'_, S>> = self.miss_index.iter().map(|&i| batch[i]).collect();
        self.inner.evaluate(&sub, &mut self.miss_out)?;
        // 3. Store and answer.
        for (j, &i) in self.miss_index.iter().enumerate() {
            let key = cache_key(&batch[i]);
            let eval = &self.miss_out[j];
            copy_eval(eval, &mut out[i]);
            let s = (key as usize) & (self.slots.len() - 1);
            let slot = &mut self.slots[s];
            match slot {
                Some(e) => {
                    e.key = key;
                    e.moves = moves_checksum(batch[i].moves);
                    copy_eval(eval, &mut e.eval);
                }
                None => {
                    *slot = Some(Entry { key, moves: moves_checksum(batch[i].moves), eval: eval.clone() });
                    self.filled += 1;
                }
            }
        }
        Ok(())
    }

    fn name(&self) -> String {
        format!("cache({})", Evaluator::<S>::name(&self.inner))
    }

    fn preferred_batch(&self) -> usize {
        Evaluator::<S>::preferred_batch(&self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::evaluator::UniformEvaluator;
    use crate::rules::{Move, Position, Ruleset, Variant};

    #[test]
    fn the_move_checksum_folds_the_packed_bits() {
        // The checksum the 5x5x5 cache always used: one `hash64` step per move on its bits.
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = p.legal_moves();
        let old = moves.iter().fold(hash64(moves.len() as u64), |h, m: &Move| hash64(h ^ m.bits() as u64));
        assert_eq!(moves_checksum(&moves), old);
        let q = crate::quasi_alice::Position::start();
        let qm = q.legal_moves();
        let old = qm.iter().fold(hash64(qm.len() as u64), |h, m| hash64(h ^ m.bits() as u64));
        assert_eq!(moves_checksum(&qm), old);
    }

    /// Counts the positions it is asked about.
    struct Counting(UniformEvaluator, usize);

    impl Evaluator for Counting {
        fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
            self.1 += batch.len();
            self.0.evaluate(batch, out)
        }
        fn name(&self) -> String {
            "counting".into()
        }
    }

    #[test]
    fn hits_misses_and_bounds() {
        let a = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let ma = a.legal_moves();
        let b = a.after(ma[0]);
        let mb = b.legal_moves();
        let mut c = EvalCache::new(Counting(UniformEvaluator::new(), 0), 1000);
        assert_eq!(c.stats().capacity, 1024);
        let mut out = Vec::new();
        c.evaluate(&[EvalInput::new(&a, 0, &ma), EvalInput::new(&b, 0, &mb)], &mut out).unwrap();
        assert_eq!((c.stats().hits, c.stats().misses, c.inner().1), (0, 2, 2));
        let first = out.clone();
        c.evaluate(&[EvalInput::new(&b, 0, &mb), EvalInput::new(&a, 0, &ma), EvalInput::new(&a, 1, &ma)], &mut out)
            .unwrap();
        assert_eq!((c.stats().hits, c.stats().misses, c.inner().1), (2, 3, 3));
        assert_eq!(out[0], first[1]);
        assert_eq!(out[1], first[0]);
        // A different move list (or order) for the same position is a miss.
        let rev: Vec<_> = ma.iter().rev().copied().collect();
        c.evaluate(&[EvalInput::new(&a, 0, &rev)], &mut out).unwrap();
        assert_eq!(c.stats().misses, 4);
        assert_eq!(c.stats().filled, 3);
        assert!(c.stats().hit_rate() > 0.3);
        assert_eq!(c.name(), "cache(counting)");
        c.clear();
        c.reset_stats();
        assert_eq!(c.stats(), CacheStats { hits: 0, misses: 0, capacity: 1024, filled: 0 });
        // A one-slot table stays bounded.
        let mut tiny = EvalCache::new(UniformEvaluator::new(), 0);
        for p in [&a, &b, &a] {
            let m = p.legal_moves();
            tiny.evaluate(&[EvalInput::new(p, 0, &m)], &mut out).unwrap();
        }
        assert_eq!(tiny.stats().filled, 1);
        assert_eq!(tiny.stats().misses, 3);
    }
}
