//! The one interface everything that plays implements, and the spec strings that build players.
//!
//! A [`Player`] is asked for a move in a position, given the hashes of the game's earlier positions
//! (for repetition); it answers with a [`Choice`]: the move and what the search saw. Players are
//! built from spec strings parsed in one place, [`spec::PlayerSpec`]'s `from_str`:
//!
//! | spec | player |
//! |---|---|
//! | `ab` | alpha-beta, depth 4 |
//! | `ab:depth=4`, `ab:nodes=200000`, `ab:time=0.5` | alpha-beta with that limit (several may be combined) |
//! | `ab:depth=3,values=FILE,hash=32,keep=1` | with a weights/values TOML file, a 32 MiB table, table kept between moves |
//! | `ab:time=0.5,threads=2` | two search threads sharing the table (Lazy SMP) |
//! | `ab:time=0.5,eval=nnue:FILE`, `ab:eval=nnue` | an NNUE network file, or the one shipped for the ruleset, in place of the hand evaluation (`eval=hand`, the default) |
//! | `ab:eval=auto` | the shipped network where the ruleset has one (Five Up, Raumschach), else the hand evaluation: the stronger as measured (`play` and `analyse` default to it) |
//! | `random`, `random:seed=7` | a uniform random legal mover (ChaCha8, seed 0 unless given) |
//! | `mcts:uniform,sims=800` | MCTS with the model-free uniform evaluator |
//! | `mcts:ab,sims=64` | MCTS with the hand evaluation ([`crate::mcts::AbEvaluator`]) |
//! | `mcts:net=PATH,sims=64` | MCTS with a network ([`mcts::load_net_evaluator`]) |
//! | `mcts:ab,time=0.5`, `mcts:ab,kind=gumbel,sims=64,batch=8,cpuct=1.5,m=16,seed=1` | time limit, search options |
//! | `mcts:net=PATH,sims=64,qs=1`, `…,nnue=1,leafdepth=2,mate=1` | leaf values corrected by quiescence; from the shipped NNUE's quiescence or depth-2 alpha-beta search; mates in one won ([`crate::mcts::quiesce`]) |
//!
//! A new kind is one more arm in [`spec::PlayerSpec`] and one more entry, with its table of keys, in
//! the parser's kind table.
//!
//! The module's files: [`spec`] (spec strings and their parser), one file per player kind
//! ([`alphabeta`], [`mcts`], [`random`], [`uci`]: an outside engine), [`clock`] (time controls and
//! how a player spends its clock), [`wire`] (the protocol's text forms of [`Go`], [`SearchInfo`]
//! and moves) and [`text`] (short echoes of user input in messages).

pub mod alphabeta;
mod build;
pub mod clock;
pub mod mcts;
pub mod random;
pub mod spec;
pub mod text;
pub mod uci;
pub mod wire;

pub use build::PlayGame;

use crate::engine::{Limits, Score, WeightsError};
use crate::game::State;
use crate::rules::{Move, Position};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What a player saw when it chose its move (`M`: the game's move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M = Move> {
    /// Score from the mover's side, when the player scores positions.
    pub score: Option<Score>,
    /// Depth completed (0 for players that do not search).
    pub depth: u32,
    /// Expected line, the chosen move first (may be just the move).
    pub pv: Vec<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Deepest ply reached (0 when the player does not say).
    pub seldepth: u32,
    /// Win, draw and loss probabilities in permille from the mover's side, when the player has
    /// them (MCTS players).
    pub wdl: Option<[u16; 3]>,
}

impl<M> Default for SearchInfo<M> {
    fn default() -> Self {
        SearchInfo { score: None, depth: 0, pv: Vec::new(), nodes: 0, time: Duration::ZERO, seldepth: 0, wdl: None }
    }
}

/// What the caller asks of one move on top of the player's own settings (the UCI `go`): each
/// given limit caps the player's own; `infinite` searches until the stop flag, ignoring every
/// limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Go<M = Move> {
    /// The game clocks (the player spends them by [`clock::allocate`]).
    pub clock: Option<clock::Clock>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node (or simulation) budget.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Search until stopped.
    pub infinite: bool,
    /// Root moves to consider (empty: all; alpha-beta players only).
    pub searchmoves: Vec<M>,
}

impl<M> Default for Go<M> {
    fn default() -> Self {
        Go { clock: None, depth: None, nodes: None, movetime: None, infinite: false, searchmoves: Vec::new() }
    }
}

impl<M: Clone> Go<M> {
    /// The limits of an alpha-beta search for `side`: `own` capped by this request's limits.
    pub fn limits_over(&self, own: &Limits<M>, side: crate::game::Color) -> Limits<M> {
        if self.infinite {
            return Limits { searchmoves: self.searchmoves.clone(), ..Limits::default() };
        }
        fn cap<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            }
        }
        let mut l = own.clone();
        l.depth = cap(l.depth, self.depth);
        l.nodes = cap(l.nodes, self.nodes);
        l.time = cap(l.time, self.movetime);
        if let Some(c) = &self.clock {
            let (soft, hard) = clock::allocate(c, side);
            l.soft_time = cap(l.soft_time, Some(soft));
            l.time = cap(l.time, Some(hard));
        }
        if !self.searchmoves.is_empty() {
            l.searchmoves = self.searchmoves.clone();
        }
        l
    }

    /// Whether this request sets any limit of its own.
    pub fn has_limit(&self) -> bool {
        self.infinite || self.clock.is_some() || self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some()
    }
}

/// One move to make: the position, how the game got there, and what is asked.
#[derive(Debug)]
pub struct Turn<'a, S: State = Position> {
    /// The position to move in.
    pub pos: &'a S,
    /// Hashes of the game's earlier positions, oldest first (not including `pos`).
    pub history: &'a [u64],
    /// The game's start position.
    pub start: &'a S,
    /// The moves from `start` to `pos`.
    pub moves: &'a [S::Move],
    /// What is asked of this move.
    pub go: &'a Go<S::Move>,
}

impl<S: State> Clone for Turn<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: State> Copy for Turn<'_, S> {}

/// A chosen move and what the player saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M = Move> {
    /// The move, always legal in the position asked about.
    pub mv: M,
    /// Search details.
    pub info: SearchInfo<M>,
}

/// Why a player could not choose.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The position has no legal move (the game is over).
    #[error("no legal move: the game is over")]
    NoLegalMove,
    /// The player's configuration failed for this position's ruleset.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// The player's evaluator (a network backend) failed.
    #[error(transparent)]
    Evaluator(#[from] crate::nn::EvalError),
    /// The player lost the game by its own failure: an outside engine answered an illegal or
    /// unreadable move, crashed or hung.
    #[error("{kind}: {reason}")]
    Forfeit {
        /// What went wrong.
        kind: Forfeit,
        /// The details, for the record.
        reason: String,
    },
}

/// How a player forfeits a game; [`Forfeit::name`] is the `Termination` detail of its record
/// (`adjudication/illegal-move`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forfeit {
    /// Its move is not legal (or not a move at all).
    IllegalMove,
    /// Its clock ran out.
    Time,
    /// The engine process exited or closed its output.
    Crash,
    /// The engine did not answer within its time and the grace period; it was killed.
    Hang,
}

impl Forfeit {
    /// The record's name for it.
    pub const fn name(self) -> &'static str {
        match self {
            Forfeit::IllegalMove => "illegal-move",
            Forfeit::Time => "time-forfeit",
            Forfeit::Crash => "engine-crash",
            Forfeit::Hang => "engine-hang",
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that plays a game `S` (by default the 5x5x5 games): engines, random movers, MCTS
/// and networks, outside engines.
pub trait Player<S: State = Position> {
    /// The spec string this player was built from (for records).
    fn name(&self) -> String;

    /// Chooses a move in `pos`; `history` holds the hashes of the game's earlier positions, oldest
    /// first (not including `pos`).
    fn choose(&mut self, pos: &S, history: &[u64]) -> Result<Choice<S::Move>, PlayError>;

    /// Called before a new game starts (players may forget what they learned).
    fn new_game(&mut self) {}

    /// Chooses a move for `turn`, honouring what it asks ([`Go`]) on top of the player's own
    /// settings, and reporting progress (each completed depth) to `on_info`. The default asks
    /// [`Player::choose`] and ignores the request: right for players without limits (random).
    fn play(
        &mut self,
        turn: &Turn<'_, S>,
        on_info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> Result<Choice<S::Move>, PlayError> {
        let _ = on_info;
        self.choose(turn.pos, turn.history)
    }

    /// Lets another thread stop a search in progress (the best move so far is played); players
    /// that answer at once ignore it.
    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        let _ = stop;
    }

    /// What this player evaluates positions of `pos`'s game with, in words (`hand evaluation`,
    /// `NNUE nets/nnue-fiveup.nnue (shipped for fiveup)`), for the protocol's `info string`;
    /// `None` for players without an evaluation of their own (random, outside engines).
    fn evaluation(&self, pos: &S) -> Option<String> {
        let _ = pos;
        None
    }

    /// The endgame tables' value of `pos` for its side to move, in words (`fiveup KRRvK: mate
    /// in 7`), when this player probes tables that hold it.
    fn tablebase_value(&self, pos: &S) -> Option<String> {
        let _ = pos;
        None
    }
}

/// Most simulations per move a spec may ask for.
pub const MAX_SIMS: u32 = 100_000_000;

/// Most alpha-beta nodes per move a spec may ask for (`ab:nodes=`): days of search.
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// Why a player could not be built from a valid spec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The weights file is unreadable or invalid.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// A network could not be loaded.
    #[error("{0}")]
    Network(String),
    /// An outside engine could not be started or did not shake hands.
    #[error("{0}")]
    Engine(String),
    /// The player kind or one of its settings is not available for the game.
    #[error(transparent)]
    NotAvailable(#[from] crate::catalog::NotAvailable),
    /// A Quasi-Alice weights file is unreadable or invalid.
    #[error(transparent)]
    QaWeights(#[from] crate::engine::quasi_alice::QaWeightsError),
    /// A Mixed 3D weights file could not be used.
    #[error(transparent)]
    M3Weights(#[from] crate::engine::mixed3d::M3WeightsError),
    /// The transposition table asked for (`hash=`) does not fit in memory.
    #[error(transparent)]
    Table(#[from] crate::engine::tt::TableSizeError),
}

#[cfg(test)]
mod tests {
    use super::spec::PlayerSpec;
    use super::*;
    use crate::rules::random::scrambled;
    use crate::rules::{Ruleset, Variant};

    #[test]
    fn players_choose_legal_moves_and_stop_at_the_end() {
        for spec in
            ["ab:depth=2", "ab:nodes=3000", "random:seed=3", "mcts:uniform,sims=20", "mcts:ab,sims=20,kind=gumbel"]
        {
            let mut player = spec.parse::<PlayerSpec>().unwrap().build().unwrap();
            for rs in Ruleset::ALL {
                for seed in 0..4 {
                    let p = scrambled(Variant::plain(rs), 6 + 5 * seed as usize, seed);
                    let c = player.choose(&p, &[]).unwrap();
                    assert!(p.legal_moves().contains(&c.mv), "{spec}: {}", c.mv);
                }
            }
        }
        // Checkmated: no move to choose.
        let mut p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        for m in ["Dc2Cc2", "Bc4Cc4", "Db1De4/G", "Ad4Bd3", "Eb1Db3/S", "Cc4Cc3", "Eb1Be4"] {
            let mv = p.legal_moves().into_iter().find(|x| x.to_string() == m).unwrap();
            p.make(mv);
        }
        for spec in ["ab", "random", "mcts:ab,sims=10"] {
            let mut player = spec.parse::<PlayerSpec>().unwrap().build().unwrap();
            assert_eq!(player.choose(&p, &[]).unwrap_err(), PlayError::NoLegalMove);
        }
    }
}
