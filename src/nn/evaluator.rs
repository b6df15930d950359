//! The batching evaluator interface between search and a network (KataGo / lc0 style).
//!
//! A caller collects many positions (leaves of many search trees) and makes one
//! [`Evaluator::evaluate`] call for all of them. Implementations may batch them on a device, look
//! them up in a cache, or compute something simple (see [`UniformEvaluator`]).

use crate::rules::{Move, Position};

/// One position to evaluate.
pub struct EvalInput<'a> {
    /// The position.
    pub pos: &'a Position,
    /// Its legal moves, in the order the policy must follow.
    pub moves: &'a [Move],
    /// How many times this position occurred before in the game (0, 1 or 2).
    pub repetitions: u8,
}

/// What an evaluator says about one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Prior over the input's `moves`, same order, sums to 1.
    pub policy: Vec<f32>,
    /// Win, draw and loss probabilities for the side to move.
    pub wdl: [f32; 3],
    /// Expected number of plies left in the game.
    pub moves_left: f32,
}

/// Evaluates batches of positions. One thread owns an evaluator and serves batches.
pub trait Evaluator: Send {
    /// Evaluates `batch`; `out` is cleared and receives one [`Evaluation`] per input, in order.
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>);
    /// A short name for logs and records.
    fn name(&self) -> String;
}

/// A uniform prior over the legal moves and a certain draw: the model-free twin of a network.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl Evaluator for UniformEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) {
        out.clear();
        out.extend(batch.iter().map(|inp| {
            let n = inp.moves.len().max(1);
            Evaluation { policy: vec![1.0 / n as f32; inp.moves.len()], wdl: [0.0, 1.0, 0.0], moves_left: 0.0 }
        }));
    }

    fn name(&self) -> String {
        "uniform".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ruleset, Variant};

    #[test]
    fn uniform_prior_sums_to_one() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = p.legal_moves();
        let mut out = Vec::new();
        UniformEvaluator.evaluate(&[EvalInput { pos: &p, moves: &moves, repetitions: 0 }], &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].policy.len(), 209);
        assert!((out[0].policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    }
}
