//! A bounded evaluation cache keyed by Zobrist hash and repetition count, as an evaluator wrapper.
//!
//! Two generations of hash maps approximate LRU cheaply: lookups search both; when the current
//! generation reaches half the capacity it becomes the old one and the previous old one is dropped.
//! A stored policy is used only when its length matches the query's move count (a guard against
//! hash collisions between positions with different move lists).

use crate::nn::{EvalInput, Evaluation, Evaluator};
use std::collections::HashMap;

/// Wraps an evaluator with a bounded cache.
pub struct CachedEvaluator<E: Evaluator> {
    inner: E,
    capacity: usize,
    current: HashMap<(u64, u8), Evaluation>,
    old: HashMap<(u64, u8), Evaluation>,
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Lookups passed to the inner evaluator.
    pub misses: u64,
}

impl<E: Evaluator> CachedEvaluator<E> {
    /// A cache of at most about `capacity` entries around `inner`.
    pub fn new(inner: E, capacity: usize) -> Self {
        CachedEvaluator {
            inner,
            capacity: capacity.max(2),
            current: HashMap::new(),
            old: HashMap::new(),
            hits: 0,
            misses: 0,
        }
    }

    /// The wrapped evaluator.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    fn lookup(&self, key: &(u64, u8), n: usize) -> Option<&Evaluation> {
        self.current.get(key).or_else(|| self.old.get(key)).filter(|e| e.policy.len() == n)
    }

    fn insert(&mut self, key: (u64, u8), ev: Evaluation) {
        if self.current.len() >= self.capacity / 2 {
            self.old = std::mem::take(&mut self.current);
        }
        self.current.insert(key, ev);
    }
}

impl<E: Evaluator> Evaluator for CachedEvaluator<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) {
        out.clear();
        let key = |i: &EvalInput<'_>| (i.pos.hash(), i.repetitions);
        let mut missing = Vec::new();
        let mut miss_at = Vec::new();
        for (idx, inp) in batch.iter().enumerate() {
            match self.lookup(&key(inp), inp.moves.len()) {
                Some(e) => out.push(e.clone()),
                None => {
                    out.push(Evaluation { policy: Vec::new(), wdl: [0.0; 3], moves_left: 0.0 });
                    missing.push(EvalInput { pos: inp.pos, moves: inp.moves, repetitions: inp.repetitions });
                    miss_at.push(idx);
                }
            }
        }
        self.hits += (batch.len() - missing.len()) as u64;
        self.misses += missing.len() as u64;
        if missing.is_empty() {
            return;
        }
        let mut fresh = Vec::with_capacity(missing.len());
        self.inner.evaluate(&missing, &mut fresh);
        for ((idx, inp), ev) in miss_at.into_iter().zip(&missing).zip(fresh) {
            self.insert(key(inp), ev.clone());
            out[idx] = ev;
        }
    }

    fn name(&self) -> String {
        format!("cached({})", self.inner.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::UniformEvaluator;
    use crate::rules::{Position, Ruleset, Variant};

    #[test]
    fn second_lookup_hits_and_capacity_is_bounded() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = p.legal_moves();
        let mut c = CachedEvaluator::new(UniformEvaluator, 4);
        let mut out = Vec::new();
        let inp = || EvalInput { pos: &p, moves: &moves, repetitions: 0 };
        c.evaluate(&[inp(), inp()], &mut out);
        assert_eq!((c.hits, c.misses), (0, 2));
        c.evaluate(&[inp()], &mut out);
        assert_eq!((c.hits, c.misses), (1, 2));
        assert_eq!(out[0].policy.len(), moves.len());
        for m in &moves[..10] {
            let q = p.after(*m);
            let mv = q.legal_moves();
            c.evaluate(&[EvalInput { pos: &q, moves: &mv, repetitions: 0 }], &mut out);
        }
        assert!(c.current.len() + c.old.len() <= 4);
    }
}
