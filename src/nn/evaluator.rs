//! The evaluator interface search calls, and its model-free twin [`UniformEvaluator`].
//!
//! An evaluator answers a **batch** of positions at once: for each, a prior over the legal moves
//! it was given (in the same order), a win/draw/loss estimate from the side to move's point of
//! view and a moves-left estimate. Search never knows which evaluator it holds.
//!
//! Inputs and evaluators are generic over the game's position type `S` (a [`State`]), the 5x5x5
//! [`Position`] by default, so `dyn Evaluator` and `EvalInput<'_>` still name the 5x5x5 ones.
//! Nothing here needs the game's encoding: a model-free evaluator serves any game, and only
//! [`super::NetworkEvaluator`] asks for [`super::NetGame`].

use crate::game::State;
use crate::rules::Position;

/// One position to evaluate.
#[derive(Debug)]
pub struct EvalInput<'a, S: State = Position> {
    /// The position.
    pub position: &'a S,
    /// How many times this position occurred earlier in the game (0 for the first time); an input
    /// of the network that the position itself cannot know.
    pub repetitions: u32,
    /// The legal moves of `position`, in the order the prior must follow (normally
    /// `position.legal_moves()`; empty for a finished game).
    pub moves: &'a [S::Move],
}

impl<S: State> Clone for EvalInput<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: State> Copy for EvalInput<'_, S> {}

impl<'a, S: State> EvalInput<'a, S> {
    /// An input.
    pub fn new(position: &'a S, repetitions: u32, moves: &'a [S::Move]) -> EvalInput<'a, S> {
        EvalInput { position, repetitions, moves }
    }
}

/// What an evaluator says about one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Prior probability of each move of the input's move list, in that order; sums to 1 (empty
    /// when the list is empty).
    pub policy: Vec<f32>,
    /// Probabilities of win, draw and loss for the side to move; sum to 1.
    pub wdl: [f32; 3],
    /// Expected number of plies until the game ends (0 when the evaluator does not know).
    pub moves_left: f32,
}

impl Evaluation {
    /// Expected score for the side to move in [−1, 1]: win − loss.
    #[inline]
    pub fn value(&self) -> f32 {
        self.wdl[0] - self.wdl[2]
    }
}

/// A batch-first position evaluator (a network, a cache around one, or a model-free stand-in).
///
/// `Send` but not `Sync`: one thread owns an evaluator and serves batches (a tch model is `Send`,
/// not `Sync`). Search gathers leaves into a batch, calls [`Evaluator::evaluate`] once, and reads
/// the answers back. `S` is the game's position type (the 5x5x5 [`Position`] by default).
pub trait Evaluator<S: State = Position>: Send {
    /// Evaluates `batch`. On return `out.len() == batch.len()` and `out[i]` answers `batch[i]`.
    /// Implementations overwrite the entries already in `out` (reusing their policy buffers, so a
    /// caller that keeps `out` between calls does not allocate) and resize it with
    /// [`reset_outputs`]. A backend that fails (a device error, a network of the wrong shape)
    /// returns the error instead of panicking; `out` is then unspecified.
    fn evaluate(&mut self, batch: &[EvalInput<'_, S>], out: &mut Vec<Evaluation>) -> Result<(), EvalError>;

    /// A short description for logs and records (e.g. `uniform`, `cache(net-0042)`).
    fn name(&self) -> String;

    /// The batch size this evaluator works best with; search may send fewer or more.
    fn preferred_batch(&self) -> usize {
        1
    }
}

/// An evaluator backend that failed, with its reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("network evaluation failed: {0}")]
pub struct EvalError(pub String);

impl<S: State, E: Evaluator<S> + ?Sized> Evaluator<S> for Box<E> {
    fn evaluate(&mut self, batch: &[EvalInput<'_, S>], out: &mut Vec<Evaluation>) -> Result<(), EvalError> {
        (**self).evaluate(batch, out)
    }
    fn name(&self) -> String {
        (**self).name()
    }
    fn preferred_batch(&self) -> usize {
        (**self).preferred_batch()
    }
}

/// Makes `out` hold exactly `n` entries, keeping existing entries (and their buffers).
pub fn reset_outputs(out: &mut Vec<Evaluation>, n: usize) {
    out.truncate(n);
    out.resize_with(n, Evaluation::default);
}

/// The model-free evaluator: uniform prior over the legal moves, WDL `[1/3, 1/3, 1/3]` (value 0).
/// Lets search, self-play and their tests run with no network at all, in every game.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator {
    /// The moves-left estimate it reports (default 0, "unknown").
    pub moves_left: f32,
}

impl UniformEvaluator {
    /// A uniform evaluator reporting moves-left 0.
    pub fn new() -> UniformEvaluator {
        UniformEvaluator::default()
    }
}

/// WDL of an evaluator that knows nothing.
pub const NEUTRAL_WDL: [f32; 3] = [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0];

impl<S: State> Evaluator<S> for UniformEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_, S>], out: &mut Vec<Evaluation>) -> Result<(), EvalError> {
        reset_outputs(out, batch.len());
        for (input, e) in batch.iter().zip(out.iter_mut()) {
            let n = input.moves.len();
            e.policy.clear();
            e.policy.resize(n, 1.0 / n.max(1) as f32);
            e.wdl = NEUTRAL_WDL;
            e.moves_left = self.moves_left;
        }
        Ok(())
    }

    fn name(&self) -> String {
        "uniform".to_string()
    }

    fn preferred_batch(&self) -> usize {
        256
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ruleset, Variant};

    #[test]
    fn uniform_answers_every_item_and_reuses_buffers() {
        let a = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let b = Position::startpos(Variant::plain(Ruleset::Raumschach));
        let (ma, mb) = (a.legal_moves(), b.legal_moves());
        let mut ev: Box<dyn Evaluator> = Box::new(UniformEvaluator::new());
        let mut out = Vec::new();
        ev.evaluate(&[EvalInput::new(&a, 0, &ma), EvalInput::new(&b, 1, &mb)], &mut out).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].policy.len(), 209);
        assert_eq!(out[1].policy.len(), 61);
        for e in &out {
            assert!((e.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            assert_eq!(e.value(), 0.0);
        }
        let ptr = out[0].policy.as_ptr();
        ev.evaluate(&[EvalInput::new(&b, 0, &mb)], &mut out).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].policy.len(), 61);
        assert_eq!(out[0].policy.as_ptr(), ptr, "buffer reused");
        ev.evaluate(&[EvalInput::new(&a, 0, &[])], &mut out).unwrap();
        assert!(out[0].policy.is_empty());
        assert_eq!(ev.name(), "uniform");
    }
}
