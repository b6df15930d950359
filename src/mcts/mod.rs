//! Monte Carlo tree search over the evaluator interface: PUCT and Gumbel.
//!
//! - [`tree`]: the arena (nodes in a `Vec`, children as index ranges, 32-byte nodes);
//! - [`select`]: PUCT with first-play urgency, Gumbel σ / completed Q / improved policy, the
//!   sequential-halving schedule, deterministic non-root Gumbel selection;
//! - [`expand`]: leaf expansion, root Dirichlet and Gumbel noise;
//! - [`backup`]: WDL backup from each mover's point of view, in-flight (virtual) visits;
//! - [`search`]: one batched search tree ([`Search`]: gather leaves, apply evaluations);
//! - [`ab_eval`]: [`AbEvaluator`], the alpha-beta hand evaluation as a model-free evaluator;
//! - [`quiesce`]: [`QuiescenceEvaluator`], any evaluator's values corrected by a capture-only
//!   quiescence search, so that leaves do not fall for one-move captures, blended with an NNUE's
//!   quiescence value (`nnue=μ`), and won where the side to move mates in one (`mate=1`);
//! - game-end rules (checkmate, stalemate, repetition, fifty moves, bare kings) come from
//!   [`crate::game::outcome`] and [`crate::game::prior_occurrences`], the same calls
//!   self-play and games make;
//! - the evaluation cache is [`crate::nn::EvalCache`] (keyed by hash, repetitions and clock).
//!
//! Search never sees a network: it asks an [`Evaluator`] for batches of positions.
//!
//! The tree search is generic over the game ([`SearchGame`]: any [`crate::game::State`] whose
//! moves a node can hold, [`tree::TreeMove`]), with the 5x5x5 [`crate::rules::Position`] as the
//! default type parameter (`Search`, `MctsResult`, `Tree` name the 5x5x5 ones;
//! `Search::<S>::for_game` starts another game's search); it is monomorphised per game. The
//! leaf helpers built on the alpha-beta engine, [`ab_eval`] and [`quiesce`], are 5x5x5 only.

pub mod ab_eval;
pub mod backup;
pub mod expand;
pub mod quiesce;
pub mod search;
pub mod select;
pub mod tree;

pub use ab_eval::AbEvaluator;
pub use quiesce::QuiescenceEvaluator;
pub use search::{MctsResult, Search, SearchConfig, SearchGame, SearchKind};
pub use select::GumbelParams;

use crate::nn::Evaluator;

/// Searches one position with `sims` simulations and returns the move to play, the visit
/// distribution (`result.moves` / `result.visits`), the policy target and the root value (WDL for
/// the side to move). `history` holds the hashes of the game's earlier positions, oldest first,
/// without `pos`. Returns `None` when `pos` is terminal (no legal move, or drawn by rule).
/// The search's noise is seeded by `seed`. An evaluator failure is returned as an error.
pub fn search_position<S: SearchGame>(
    pos: &S,
    history: &[u64],
    evaluator: &mut dyn Evaluator<S>,
    sims: u32,
    config: &SearchConfig,
    seed: u64,
) -> Result<Option<MctsResult<S::Move>>, crate::nn::EvalError> {
    let mut search = Search::for_game(*config, seed);
    search.start(pos, history, sims);
    let mut out = Vec::new();
    while !search.is_done() {
        search.gather();
        let mut batch = Vec::new();
        search.inputs(&mut batch);
        evaluator.evaluate(&batch, &mut out)?;
        drop(batch);
        search.apply(&out);
    }
    Ok(search.result())
}

#[cfg(test)]
mod tests;
