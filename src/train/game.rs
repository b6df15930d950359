//! What training needs from a game ([`TrainGame`]) and the one place that turns the config's
//! `rules.ruleset` into the game type the loop is monomorphised for ([`for_game`]).

use super::config::TrainConfig;
use super::TrainError;
use crate::catalog::GameId;
use crate::eval::records::RecordGame;
use crate::nn::Evaluator;
use crate::selfplay::SelfPlayGame;

/// A game `fiveup train` can learn: self-play records, players for the arena, and what the
/// config says about its start and leaf terms.
pub trait TrainGame: SelfPlayGame + RecordGame {
    /// The start position of every game of a run with this config.
    fn start(cfg: &TrainConfig) -> Result<Self, TrainError>;

    /// `ev` with the config's leaf terms (`selfplay.quiescence`, `selfplay.nnue_leaf`,
    /// `selfplay.hand_leaf`, `selfplay.mate_check`) when the game has them and any is on.
    fn with_leaf_terms(cfg: &TrainConfig, ev: Box<dyn Evaluator<Self>>) -> Box<dyn Evaluator<Self>>;
}

impl TrainGame for crate::rules::Position {
    fn start(cfg: &TrainConfig) -> Result<Self, TrainError> {
        Ok(crate::rules::Position::startpos(cfg.variant()?))
    }

    fn with_leaf_terms(cfg: &TrainConfig, ev: Box<dyn Evaluator<Self>>) -> Box<dyn Evaluator<Self>> {
        use crate::mcts::quiesce::{LeafNetwork, NnueLeaf};
        let s = &cfg.selfplay;
        let leaf = NnueLeaf { weight: s.nnue_leaf, network: LeafNetwork::Shipped, depth: s.nnue_leaf_depth };
        crate::mcts::quiesce::with_leaf_terms(ev, leaf_terms(cfg, Some(leaf)))
    }
}

impl TrainGame for crate::quasi_alice::Position {
    fn start(_cfg: &TrainConfig) -> Result<Self, TrainError> {
        Ok(crate::quasi_alice::Position::start())
    }

    /// The quiescence correction, hand-evaluation leaves and the mate check (the config's
    /// validation refuses NNUE leaves: no NNUE network exists for this game).
    fn with_leaf_terms(cfg: &TrainConfig, ev: Box<dyn Evaluator<Self>>) -> Box<dyn Evaluator<Self>> {
        crate::mcts::quiesce::with_leaf_terms(ev, leaf_terms(cfg, None))
    }
}

impl TrainGame for crate::mixed3d::Position {
    fn start(_cfg: &TrainConfig) -> Result<Self, TrainError> {
        Ok(crate::mixed3d::Position::start())
    }

    /// The quiescence correction, hand-evaluation leaves and the mate check (the config's
    /// validation refuses NNUE leaves: no NNUE network exists for this game).
    fn with_leaf_terms(cfg: &TrainConfig, ev: Box<dyn Evaluator<Self>>) -> Box<dyn Evaluator<Self>> {
        crate::mcts::quiesce::with_leaf_terms(ev, leaf_terms(cfg, None))
    }
}

/// The leaf terms of the config's self-play, with the NNUE leaf `nnue` where the game has one.
fn leaf_terms(cfg: &TrainConfig, nnue: Option<crate::mcts::quiesce::NnueLeaf>) -> crate::mcts::quiesce::LeafTerms {
    let s = &cfg.selfplay;
    // Self-play's hand leaves read the quiescence value (no leaf search).
    crate::mcts::quiesce::LeafTerms {
        qs: s.quiescence,
        nnue,
        hand: s.hand_leaf,
        hand_depth: 0,
        mate_check: s.mate_check,
    }
}

/// Work to run for one game type (a generic closure).
pub trait ForGame {
    /// What the work returns.
    type Output;
    /// Runs the work for game `S`.
    fn run<S: TrainGame>(self) -> Self::Output;
}

/// Runs `work` for the game `cfg` names (a config that names no game is an error).
pub fn for_game<W: ForGame<Output = Result<T, TrainError>>, T>(cfg: &TrainConfig, work: W) -> Result<T, TrainError> {
    match cfg.game()? {
        GameId::FiveUp(_) => work.run::<crate::rules::Position>(),
        GameId::QuasiAlice => work.run::<crate::quasi_alice::Position>(),
        GameId::Mixed3d => work.run::<crate::mixed3d::Position>(),
    }
}
