//! The games fiveup plays, by the names users type (`--ruleset`, configs, the protocol).
//!
//! A name resolves to a [`GameId`]; a command then either runs its code for that game (generic over
//! [`crate::game::State`], monomorphised per game) or, where it has not been built for the game,
//! says so with [`NotAvailable`] before any work starts. A new game registers its name here.

use crate::rules::Ruleset;
use std::fmt;
use std::str::FromStr;

/// A game fiveup can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// Five Up (either text) or Raumschach on the 5x5x5 board.
    FiveUp(Ruleset),
    /// 4D Quasi-Alice Chess on four 8x8 boards.
    QuasiAlice,
    /// Mixed 3D Chess on the 8x8x8 cube.
    Mixed3d,
}

/// Every game, in the order help texts list them.
pub const ALL: [GameId; 5] = [
    GameId::FiveUp(Ruleset::FiveUp),
    GameId::FiveUp(Ruleset::FiveUp2001),
    GameId::FiveUp(Ruleset::Raumschach),
    GameId::QuasiAlice,
    GameId::Mixed3d,
];

/// Every game's name, as help texts and errors list them.
pub const NAMES: &str = "fiveup, fiveup-2001, raumschach, quasi-alice or mixed3d";

/// Games of the rules contract that cannot be played yet, with what they are.
const PLANNED: [(&str, &str); 1] = [("startrek", "Star Trek tri-dimensional chess")];

/// The names of the 5x5x5 games.
pub const FIVE_UP_NAMES: &str = "fiveup, fiveup-2001, raumschach";

impl GameId {
    /// The name typed on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            GameId::FiveUp(r) => r.name(),
            GameId::QuasiAlice => crate::quasi_alice::NAME,
            GameId::Mixed3d => crate::mixed3d::NAME,
        }
    }

    /// What fiveup does with this game, for the message of a command it cannot run.
    pub const fn abilities(self) -> &'static str {
        match self {
            GameId::FiveUp(_) => "every command",
            GameId::QuasiAlice => "perft, moves, show, replay, analyse, match, sprt, tournament and values (ab, mcts, random and uci: players), uci, train and selfplay, bench search and the web page (serve)",
            GameId::Mixed3d => "perft, moves, show, replay, analyse, match, sprt, tournament and values (ab, mcts, random and uci: players), uci, train and selfplay, bench search and the web page (serve)",
        }
    }

    /// The 5x5x5 ruleset, or why `what` (a command or setting) cannot run on this game yet.
    pub fn five_up(self, what: &str) -> Result<Ruleset, NotAvailable> {
        match self {
            GameId::FiveUp(r) => Ok(r),
            other => Err(NotAvailable { what: what.to_string(), game: other }),
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no game of fiveup's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnknownGame {
    /// Not a name at all.
    #[error("unknown ruleset '{0}' (expected {NAMES})")]
    Unknown(String),
    /// A game of the rules contract that is not playable yet.
    #[error("'{0}' ({1}) is not playable yet (expected {NAMES})")]
    Planned(String, &'static str),
}

impl FromStr for GameId {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == crate::quasi_alice::NAME {
            return Ok(GameId::QuasiAlice);
        }
        if s == crate::mixed3d::NAME {
            return Ok(GameId::Mixed3d);
        }
        if let Ok(r) = s.parse::<Ruleset>() {
            return Ok(GameId::FiveUp(r));
        }
        match PLANNED.iter().find(|(n, _)| *n == s) {
            Some((n, what)) => Err(UnknownGame::Planned(n.to_string(), what)),
            None => Err(UnknownGame::Unknown(s.to_string())),
        }
    }
}

/// A command or setting that has not been built for a game yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} is not available for {game} yet: it runs on the 5x5x5 games ({FIVE_UP_NAMES}); {game} has {}", game.abilities())]
pub struct NotAvailable {
    /// The command or setting.
    pub what: String,
    /// The game.
    pub game: GameId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_explained() {
        for g in ALL {
            assert_eq!(g.name().parse::<GameId>().unwrap(), g);
        }
        assert_eq!(" quasi-alice ".parse::<GameId>().unwrap(), GameId::QuasiAlice);
        assert_eq!("mixed3d".parse::<GameId>().unwrap(), GameId::Mixed3d);
        let e = "startrek".parse::<GameId>().unwrap_err().to_string();
        assert!(e.contains("Star Trek") && e.contains("not playable yet"), "{e}");
        let e = "chess".parse::<GameId>().unwrap_err().to_string();
        assert!(e.starts_with("unknown ruleset 'chess'"), "{e}");
    }

    #[test]
    fn a_five_up_only_command_names_itself_and_the_game() {
        let e = GameId::QuasiAlice.five_up("train").unwrap_err().to_string();
        assert!(e.starts_with("train is not available for quasi-alice yet"), "{e}");
        let e = GameId::Mixed3d.five_up("tablebase").unwrap_err().to_string();
        assert!(
            e.starts_with("tablebase is not available for mixed3d yet")
                && e.ends_with("train and selfplay, bench search and the web page (serve)"),
            "{e}"
        );
        assert_eq!(GameId::FiveUp(Ruleset::Raumschach).five_up("train").unwrap(), Ruleset::Raumschach);
    }
}
