//! The errors of a player spec: [`SpecError`] (the spec and why it is refused, printed with the
//! accepted forms) and [`SpecReason`] (why).

use super::accepted;
use crate::player::text::clip;
use crate::player::uci::UciSpecError;

/// A spec string that could not be parsed; the message lists what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad player spec '{}': {reason}\n{}", clip(spec), accepted())]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

/// Why a spec is refused: the `reason` of a [`SpecError`] (one line before clipping).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecReason {
    /// The kind before `:` is none the parser knows.
    #[error("unknown player kind '{0}'")]
    UnknownKind(String),
    /// A key the kind does not take.
    #[error("unknown key '{key}' for {kind}")]
    UnknownKey {
        /// The key as given.
        key: String,
        /// The kind's name.
        kind: &'static str,
    },
    /// The same key twice (the key clipped).
    #[error("key '{0}' is given twice")]
    KeyTwice(String),
    /// A bare word where the kind takes only `KEY=VALUE`.
    #[error("'{word}' is not KEY=VALUE (the form is {usage})")]
    NotKeyValue {
        /// The word as given.
        word: String,
        /// The kind's form, e.g. `random[:seed=N]`.
        usage: &'static str,
    },
    /// A key's value is not a whole number; its range follows (`unit` after it, ` MiB`).
    #[error("{key}={value}: expected a whole number in {lo}..={hi}{unit}")]
    NotWhole {
        /// The key.
        key: String,
        /// Its value as given.
        value: String,
        /// The smallest value accepted.
        lo: u64,
        /// The largest value accepted.
        hi: u64,
        /// The unit, if any (` MiB`).
        unit: &'static str,
    },
    /// A key's whole number is outside its range; `unit` follows the range (` MiB`).
    #[error("{key}={value}: expected {lo}..={hi}{unit}")]
    OutOfRange {
        /// The key.
        key: String,
        /// Its value as given.
        value: String,
        /// The smallest value accepted.
        lo: u64,
        /// The largest value accepted.
        hi: u64,
        /// The unit after the range (empty or with a leading space).
        unit: &'static str,
    },
    /// A key's value is not one it accepts; `expected` says what is.
    #[error("{key}={value}: expected {expected}")]
    Expected {
        /// The key.
        key: String,
        /// Its value as given.
        value: String,
        /// What the key accepts.
        expected: String,
    },
    /// A bare word of `mcts:` that names no evaluator.
    #[error("unknown evaluator '{0}' for mcts (uniform, ab or net=DIR)")]
    UnknownEvaluator(String),
    /// `mcts:` with two evaluators.
    #[error("more than one evaluator given")]
    TwoEvaluators,
    /// `kind=gumbel` with a time limit and no simulation count.
    #[error("kind=gumbel needs sims=N (its halving schedule is planned for a budget)")]
    GumbelNeedsSims,
    /// `leafdepth=D` without `nnue=X` or `hand=X`.
    #[error("leafdepth={0}: needs nnue=X or hand=X (the leaf search evaluates with the NNUE or the hand evaluation)")]
    LeafDepthNeedsNnue(u32),
    /// The part after `uci:` is not an outside engine's spec.
    #[error(transparent)]
    Uci(#[from] UciSpecError),
}
