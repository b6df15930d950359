//! [`QuiescenceEvaluator`]: leaf values that do not fall for one-move captures.
//!
//! A network searched with 32–64 simulations sees a few plies at most, while even the shallowest
//! alpha-beta search resolves every capture sequence at its leaves (quiescence). This wrapper
//! gives MCTS the same: it asks the inner evaluator (any [`Evaluator`]: a network, the hand
//! evaluation, the uniform twin) for its answers, then, for every position of the batch, runs the
//! engine's capture-only quiescence search ([`crate::engine::Engine::quiesce`]) and shifts the
//! value by the material that the capture sequence wins or loses:
//!
//! ```text
//! Δ  = quiescence score − static evaluation          (centipawns, side to move; ≥ 0 unless in check)
//! E  = win + draw / 2                                (the inner evaluator's expected score)
//! E' = σ(logit(E) + λ · Δ · ln 10 / 400)             (400 cp per factor of 10 in the odds, as
//!                                                     [`super::ab_eval::VALUE_SCALE_CP`])
//! ```
//!
//! `λ` is the blend weight (`mcts:...,qs=λ`, `selfplay.quiescence`): 0 leaves the inner value
//! alone, 1 adds the whole material swing. The draw probability is scaled with `E'(1 − E')`, so a
//! position that a capture decides loses its draw mass, and win and loss take the rest so that
//! `win + draw/2 = E'`. Δ is clamped to ±[`MAX_SWING_CP`]; a quiescence search cut off by its node
//! limit ([`NODE_LIMIT`]) leaves the value alone. The prior is the inner evaluator's.
//!
//! The correction uses only the position: it is deterministic and cacheable (wrap it in
//! [`crate::nn::EvalCache`], not the other way round). Quiescence searches of a batch run in
//! parallel on rayon's pool, each thread with its own small engine.

use crate::engine::{Engine, EngineConfig, Weights};
use crate::nn::{EvalInput, Evaluation, Evaluator};
use crate::rules::Ruleset;
use rayon::prelude::*;
use std::cell::RefCell;

/// Largest material swing, in centipawns, the correction applies.
pub const MAX_SWING_CP: i32 = 2000;
/// Node limit of one quiescence search.
pub const NODE_LIMIT: u64 = 2000;

thread_local! {
    /// One engine per ruleset and thread (1 MiB table, unused by quiescence).
    static ENGINES: RefCell<Vec<(Ruleset, Engine)>> = const { RefCell::new(Vec::new()) };
}

/// The quiescence swing `Δ` of a position (centipawns, side to move), `None` when the search did
/// not finish within [`NODE_LIMIT`].
pub fn swing(pos: &crate::rules::Position) -> Option<i32> {
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let rs = pos.ruleset();
        let at = match engines.iter().position(|(r, _)| *r == rs) {
            Some(i) => i,
            None => {
                let config = EngineConfig { hash_mb: 1, keep_tt: false, threads: 1 };
                engines.push((rs, Engine::new(Weights::for_ruleset(rs), config)));
                engines.len() - 1
            }
        };
        let q = engines[at].1.quiesce(pos, NODE_LIMIT);
        q.complete.then(|| (q.score.0 - q.stand).clamp(-MAX_SWING_CP, MAX_SWING_CP))
    })
}

/// A WDL shifted by a swing of `delta` centipawns at weight `weight` (see the module docs).
pub fn shift_wdl(wdl: [f32; 3], delta: i32, weight: f32) -> [f32; 3] {
    if delta == 0 || weight == 0.0 {
        return wdl;
    }
    let e = (wdl[0] + 0.5 * wdl[1]).clamp(1e-6, 1.0 - 1e-6);
    let logit = (e / (1.0 - e)).ln() + weight * delta as f32 * std::f32::consts::LN_10 / 400.0;
    let e2 = 1.0 / (1.0 + (-logit).exp());
    let d2 = (wdl[1] * (e2 * (1.0 - e2)) / (e * (1.0 - e))).min(2.0 * e2.min(1.0 - e2)).max(0.0);
    let w = (e2 - 0.5 * d2).max(0.0);
    let l = (1.0 - e2 - 0.5 * d2).max(0.0);
    let s = w + d2 + l;
    [w / s, d2 / s, l / s]
}

/// An evaluator whose values are corrected by quiescence (see the module documentation).
pub struct QuiescenceEvaluator<E> {
    inner: E,
    weight: f32,
    swings: Vec<Option<i32>>,
}

impl<E: Evaluator> QuiescenceEvaluator<E> {
    /// Wraps `inner` with blend weight `weight` (0 = off, 1 = the whole swing).
    pub fn new(inner: E, weight: f32) -> QuiescenceEvaluator<E> {
        QuiescenceEvaluator { inner, weight, swings: Vec::new() }
    }
}

impl<E: Evaluator> Evaluator for QuiescenceEvaluator<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        self.inner.evaluate(batch, out)?;
        if self.weight == 0.0 {
            return Ok(());
        }
        batch
            .par_iter()
            .map(|input| if input.moves.is_empty() { None } else { swing(input.position) })
            .collect_into_vec(&mut self.swings);
        for (e, s) in out.iter_mut().zip(&self.swings) {
            if let Some(delta) = *s {
                e.wdl = shift_wdl(e.wdl, delta, self.weight);
            }
        }
        Ok(())
    }

    fn name(&self) -> String {
        format!("qs{}({})", self.weight, self.inner.name())
    }

    fn preferred_batch(&self) -> usize {
        self.inner.preferred_batch()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::UniformEvaluator;
    use crate::rules::{Cell, Color, Kind, Piece, Position, Setup, Variant};

    /// Raumschach position: white to move can take an undefended black queen with its rook.
    fn hanging_queen(side: Color) -> Position {
        let mut s = Setup::empty(Variant::plain(Ruleset::Raumschach));
        let put = |s: &mut Setup, c: &str, p: Piece| s.board[c.parse::<Cell>().unwrap().index()] = Some(p);
        put(&mut s, "Ab1", Piece::new(Color::White, Kind::King));
        put(&mut s, "Ee5", Piece::new(Color::Black, Kind::King));
        put(&mut s, "Ca3", Piece::new(Color::White, Kind::Rook));
        put(&mut s, "Cc3", Piece::new(Color::Black, Kind::Queen));
        s.side = side;
        Position::from_setup(s).unwrap()
    }

    #[test]
    fn a_hanging_queen_raises_the_value_of_the_side_that_can_take_it() {
        let pos = hanging_queen(Color::White);
        let d = swing(&pos).expect("a small quiescence search finishes");
        assert!(d >= 700, "taking a queen for nothing swings ~ a queen: {d}");
        let moves = pos.legal_moves();
        let mut ev = QuiescenceEvaluator::new(UniformEvaluator::new(), 1.0);
        let mut out = Vec::new();
        ev.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        let e = out[0].wdl[0] + 0.5 * out[0].wdl[1];
        assert!(e > 0.95, "{:?}", out[0].wdl);
        assert!((out[0].wdl.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // The uniform prior is untouched.
        assert!(out[0].policy.iter().all(|&p| (p - 1.0 / moves.len() as f32).abs() < 1e-6));
        // Weight 0 leaves the inner value alone.
        let mut off = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0);
        off.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        assert_eq!(out[0].wdl, crate::nn::evaluator::NEUTRAL_WDL);
    }

    #[test]
    fn a_quiet_position_keeps_its_value() {
        let pos = Position::startpos(Variant::plain(Ruleset::FiveUp));
        assert_eq!(swing(&pos), Some(0));
        let w = [0.3, 0.5, 0.2];
        assert_eq!(shift_wdl(w, 0, 1.0), w);
    }

    #[test]
    fn shifts_keep_a_distribution_and_move_the_expectation_by_the_swing() {
        for w in [[0.3, 0.5, 0.2], [0.0, 1.0, 0.0], [0.9, 0.05, 0.05], [1.0 / 3.0; 3]] {
            for delta in [-2000, -300, -1, 1, 100, 900] {
                let s = shift_wdl(w, delta, 1.0);
                assert!(s.iter().all(|&p| (0.0..=1.0).contains(&p)), "{w:?} {delta} {s:?}");
                assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                let (e0, e1) = (w[0] + 0.5 * w[1], s[0] + 0.5 * s[1]);
                assert_eq!(e1 > e0, delta > 0, "{w:?} {delta} {s:?}");
            }
        }
        // A pawn's swing from an even position: 10^(100/400) odds, E ≈ 0.64.
        let s = shift_wdl([0.25, 0.5, 0.25], 100, 1.0);
        assert!((s[0] + 0.5 * s[1] - 0.64).abs() < 0.01, "{s:?}");
    }
}
