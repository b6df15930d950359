//! Building a player from its spec: the one place that knows every player kind.

use super::alphabeta::AlphaBetaPlayer;
use super::mcts::MctsPlayer;
use super::random::RandomPlayer;
use super::spec::PlayerSpec;
use super::uci::UciPlayer;
use super::{BuildError, Player};

impl PlayerSpec {
    /// Builds the player. A weights file is read and checked now, so a bad file fails early.
    pub fn build(&self) -> Result<Box<dyn Player + Send>, BuildError> {
        match self {
            PlayerSpec::Random { seed } => Ok(Box::new(RandomPlayer::new(*seed))),
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(AlphaBetaPlayer::new(ab.clone())?)),
            PlayerSpec::Mcts(m) => Ok(Box::new(MctsPlayer::new(m.clone())?)),
            PlayerSpec::Uci(u) => Ok(Box::new(UciPlayer::new(u.clone())?)),
        }
    }
}
