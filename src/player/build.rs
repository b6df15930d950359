//! Building a player from its spec: the one place that knows every player kind.

use super::alphabeta::{AlphaBetaPlayer, M3AlphaBetaPlayer, QaAlphaBetaPlayer};
use super::mcts::MctsPlayer;
use super::random::RandomPlayer;
use super::spec::PlayerSpec;
use super::uci::UciPlayer;
use super::{BuildError, Player};
use crate::catalog::{GameId, NotAvailable};
use crate::game::State;

/// A game whose players can be built from specs: what the match runner, tournaments and SPRT
/// need of a game beyond [`State`].
pub trait PlayGame: State + Clone + Send + Sync + 'static {
    /// Builds a player of this game from `spec`, or says why the spec's kind or a setting is not
    /// available for it. A weights file is read and checked now, so a bad file fails early.
    fn build_player(spec: &PlayerSpec) -> Result<Box<dyn Player<Self> + Send>, BuildError>;
}

impl PlayGame for crate::rules::Position {
    fn build_player(spec: &PlayerSpec) -> Result<Box<dyn Player<Self> + Send>, BuildError> {
        spec.build()
    }
}

impl PlayGame for crate::quasi_alice::Position {
    fn build_player(spec: &PlayerSpec) -> Result<Box<dyn Player<Self> + Send>, BuildError> {
        let not_yet = |what: &str| BuildError::from(NotAvailable { what: what.into(), game: GameId::QuasiAlice });
        match spec {
            PlayerSpec::Random { seed } => Ok(Box::new(RandomPlayer::new(*seed))),
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(QaAlphaBetaPlayer::new(ab.clone())?)),
            PlayerSpec::Mcts(m) => Ok(Box::new(super::mcts::MctsPlayer::<Self>::for_game(m.clone(), not_yet)?)),
            PlayerSpec::Uci(u) => Ok(Box::new(UciPlayer::new(u.clone())?)),
        }
    }
}

impl PlayGame for crate::mixed3d::Position {
    fn build_player(spec: &PlayerSpec) -> Result<Box<dyn Player<Self> + Send>, BuildError> {
        match spec {
            PlayerSpec::Random { seed } => Ok(Box::new(RandomPlayer::new(*seed))),
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(M3AlphaBetaPlayer::new(ab.clone())?)),
            PlayerSpec::Mcts(m) => Ok(Box::new(MctsPlayer::<Self>::for_game(m.clone(), |what: &str| {
                BuildError::from(NotAvailable { what: what.into(), game: GameId::Mixed3d })
            })?)),
            PlayerSpec::Uci(u) => Ok(Box::new(UciPlayer::new(u.clone())?)),
        }
    }
}

impl PlayerSpec {
    /// Builds the player for the 5x5x5 games. A weights file is read and checked now, so a bad
    /// file fails early. (Other games: [`PlayGame::build_player`].)
    pub fn build(&self) -> Result<Box<dyn Player + Send>, BuildError> {
        match self {
            PlayerSpec::Random { seed } => Ok(Box::new(RandomPlayer::new(*seed))),
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(AlphaBetaPlayer::new(ab.clone())?)),
            PlayerSpec::Mcts(m) => Ok(Box::new(MctsPlayer::new(m.clone())?)),
            PlayerSpec::Uci(u) => Ok(Box::new(UciPlayer::new(u.clone())?)),
        }
    }
}
