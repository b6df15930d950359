//! The one interface everything that plays implements, and the spec strings that build players.
//!
//! A [`Player`] is asked for a move in a position, given the hashes of the game's earlier positions
//! (for repetition); it answers with a [`Choice`]: the move and what the search saw. Players are
//! built from spec strings parsed in one place, [`PlayerSpec::from_str`]:
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
//! | `mcts:net=PATH,sims=64` | MCTS with a network ([`load_net_evaluator`]) |
//! | `mcts:ab,time=0.5`, `mcts:ab,kind=gumbel,sims=64,batch=8,cpuct=1.5,m=16,seed=1` | time limit, search options |
//! | `mcts:net=PATH,sims=64,qs=1`, `…,nnue=1,leafdepth=2,mate=1` | leaf values corrected by quiescence; from the shipped NNUE's quiescence or depth-2 alpha-beta search; mates in one won ([`crate::mcts::quiesce`]) |
//!
//! A new kind is one more arm in [`PlayerSpec`] and in the parser's kind table.

use crate::engine::{Engine, EngineConfig, Limits, Score, Weights, WeightsError};
use crate::mcts::{AbEvaluator, Search, SearchConfig, SearchKind};
use crate::nn::{Evaluation, Evaluator, UniformEvaluator};
use crate::rules::{Move, Position, Ruleset, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a player saw when it chose its move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Score from the mover's side, when the player scores positions.
    pub score: Option<Score>,
    /// Depth completed (0 for players that do not search).
    pub depth: u32,
    /// Expected line, the chosen move first (may be just the move).
    pub pv: Vec<Move>,
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

/// What the caller asks of one move on top of the player's own settings (the UCI `go`): each
/// given limit caps the player's own; `infinite` searches until the stop flag, ignoring every
/// limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// The game clocks (the player spends them by [`crate::clock::allocate`]).
    pub clock: Option<crate::clock::Clock>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node (or simulation) budget.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Search until stopped.
    pub infinite: bool,
    /// Root moves to consider (empty: all; alpha-beta players only).
    pub searchmoves: Vec<Move>,
}

impl Go {
    /// The limits of an alpha-beta search for `side`: `own` capped by this request's limits.
    pub fn limits_over(&self, own: &Limits, side: crate::rules::Color) -> Limits {
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
            let (soft, hard) = crate::clock::allocate(c, side);
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
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The position to move in.
    pub pos: &'a Position,
    /// Hashes of the game's earlier positions, oldest first (not including `pos`).
    pub history: &'a [u64],
    /// The game's start position.
    pub start: &'a Position,
    /// The moves from `start` to `pos`.
    pub moves: &'a [Move],
    /// What is asked of this move.
    pub go: &'a Go,
}

/// A chosen move and what the player saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move, always legal in the position asked about.
    pub mv: Move,
    /// Search details.
    pub info: SearchInfo,
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

/// Everything that plays: engines, random movers, later MCTS and networks.
pub trait Player {
    /// The spec string this player was built from (for records).
    fn name(&self) -> String;

    /// Chooses a move in `pos`; `history` holds the hashes of the game's earlier positions, oldest
    /// first (not including `pos`).
    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Choice, PlayError>;

    /// Called before a new game starts (players may forget what they learned).
    fn new_game(&mut self) {}

    /// Chooses a move for `turn`, honouring what it asks ([`Go`]) on top of the player's own
    /// settings, and reporting progress (each completed depth) to `on_info`. The default asks
    /// [`Player::choose`] and ignores the request: right for players without limits (random).
    fn play(&mut self, turn: &Turn<'_>, on_info: &mut dyn FnMut(&SearchInfo)) -> Result<Choice, PlayError> {
        let _ = on_info;
        self.choose(turn.pos, turn.history)
    }

    /// Lets another thread stop a search in progress (the best move so far is played); players
    /// that answer at once ignore it.
    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        let _ = stop;
    }
}

/// Settings of an alpha-beta player.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaSpec {
    /// Search limits (depth 4 when none is given).
    pub limits: Limits,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Weights file (TOML, see [`crate::engine::weights`]) applied over the ruleset's defaults.
    pub values: Option<PathBuf>,
    /// Keep the table between moves of a game.
    pub keep_tt: bool,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// The static evaluation.
    pub eval: EvalChoice,
}

impl AlphaBetaSpec {
    /// The evaluation weights this spec plays with in `ruleset`: its `values=` file over the
    /// ruleset's defaults, or the defaults.
    pub fn weights(&self, ruleset: Ruleset) -> Result<Weights, WeightsError> {
        match &self.values {
            Some(p) => Weights::from_file(ruleset, p),
            None => Ok(Weights::for_ruleset(ruleset)),
        }
    }
}

impl Default for AlphaBetaSpec {
    fn default() -> Self {
        AlphaBetaSpec {
            limits: Limits::depth(4),
            hash_mb: 16,
            values: None,
            keep_tt: false,
            threads: 1,
            eval: EvalChoice::Hand,
        }
    }
}

/// The static evaluation of an alpha-beta player (`eval=` in its spec).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// `eval=hand`: the hand evaluation ([`crate::engine::eval`]) with the spec's values.
    Hand,
    /// `eval=nnue`: the network shipped for the game's ruleset ([`crate::engine::nnue::shipped`]).
    Shipped,
    /// `eval=nnue:PATH`: an NNUE network file.
    Nnue(PathBuf),
    /// `eval=auto`: the shipped network where the game's ruleset has one ([`crate::engine::nnue::ships`])
    /// and the board is the plain one (no castling rule, no hypercylinder), else the hand
    /// evaluation. The shipped Five Up and Raumschach networks are each measured stronger than
    /// the hand evaluation at equal time (`docs/NNUE.md`), so this is the stronger evaluation of
    /// each ruleset; `play` and `analyse` default to it.
    Auto,
}

impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalChoice::Hand => write!(f, "hand"),
            EvalChoice::Shipped => write!(f, "nnue"),
            EvalChoice::Nnue(p) => write!(f, "nnue:{}", p.display()),
            EvalChoice::Auto => write!(f, "auto"),
        }
    }
}

/// Which evaluator an MCTS player asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvaluatorSpec {
    /// [`UniformEvaluator`]: uniform prior, value 0.
    Uniform,
    /// [`AbEvaluator`]: the alpha-beta hand evaluation.
    AlphaBeta,
    /// A network loaded from a file by [`load_net_evaluator`].
    Net(PathBuf),
}

/// Settings of an MCTS player.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSpec {
    /// The evaluator.
    pub evaluator: EvaluatorSpec,
    /// Simulations per move (`None` with a time limit: as many as the time allows).
    pub sims: Option<u32>,
    /// Time per move: the search stops after the first batch that ends past it.
    pub time: Option<Duration>,
    /// PUCT or Gumbel root search (noise off either way: play is deterministic for fixed `sims`).
    pub kind: SearchKind,
    /// Most leaves per evaluator call (1: plain sequential MCTS).
    pub batch: u32,
    /// PUCT exploration constant.
    pub cpuct: f32,
    /// Gumbel: root moves considered by sequential halving (m).
    pub gumbel_m: u32,
    /// Seed of the search's random stream.
    pub seed: u64,
    /// Blend weight of the quiescence correction of leaf values (0 = off; see
    /// [`crate::mcts::quiesce`]).
    pub quiescence: f32,
    /// Blend weight of NNUE leaf values (`nnue=μ`, 0 = off; see [`crate::mcts::quiesce`]).
    pub nnue: f32,
    /// The NNUE network of `nnue=μ:FILE` (`None`: the one shipped for the game's ruleset).
    pub nnue_file: Option<PathBuf>,
    /// Leaves where the side to move mates in one are won (`mate=1`; see
    /// [`crate::mcts::quiesce`]).
    pub mate_check: bool,
    /// Depth of the NNUE leaf's search (`leafdepth=D`, 0 = its capture-only quiescence search;
    /// see [`crate::mcts::quiesce`]); needs `nnue`.
    pub leaf_depth: u32,
}

/// Simulations when neither `sims` nor `time` is given.
pub const DEFAULT_SIMS: u32 = 800;

/// The largest `m=` (Gumbel root moves considered): more than any position's legal moves.
pub const MAX_GUMBEL_M: u32 = 1024;

impl Default for MctsSpec {
    fn default() -> Self {
        MctsSpec {
            evaluator: EvaluatorSpec::Uniform,
            sims: Some(DEFAULT_SIMS),
            time: None,
            kind: SearchKind::Puct,
            batch: 1,
            cpuct: SearchConfig::default().c_puct,
            gumbel_m: SearchConfig::default().gumbel_m,
            seed: 0,
            quiescence: 0.0,
            nnue: 0.0,
            nnue_file: None,
            mate_check: false,
            leaf_depth: 0,
        }
    }
}

/// A parsed player spec string.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// `ab:...`: the alpha-beta engine.
    AlphaBeta(AlphaBetaSpec),
    /// `random:seed=N`: a uniform random legal mover.
    Random {
        /// Seed of the ChaCha8 stream.
        seed: u64,
    },
    /// `mcts:...`: Monte Carlo tree search over an evaluator.
    Mcts(MctsSpec),
    /// `uci:COMMAND[;KEY=VALUE…]`: an outside engine speaking the protocol
    /// ([`crate::protocol::UciPlayer`]).
    Uci(crate::protocol::UciSpec),
}

/// A spec string that could not be parsed; the message lists what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad player spec '{}': {reason}\n{ACCEPTED}", clip(spec))]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

/// The accepted forms, printed with every spec error.
pub const ACCEPTED: &str = "accepted player specs:
  ab[:KEY=VALUE,...]     alpha-beta; keys: depth=1..=64, nodes=1..=10^12, time=SECONDS, hash=1..=65536 (MiB),
                         values=FILE, keep=0|1, threads=1..=256 (Lazy SMP), eval=hand|nnue|nnue:FILE|auto
                         (no limit given: depth=4), e.g. ab:depth=4, ab:nodes=200000, ab:time=0.5
  random[:seed=N]        uniform random legal mover, e.g. random:seed=7
  mcts[:EVAL,KEY=VALUE,...]  Monte Carlo tree search; EVAL: uniform (default), ab, or net=DIR
                         (a network directory, e.g. nets/fiveup-az);
                         keys: sims=1..=10^8, time=SECONDS, kind=puct|gumbel, batch=1..=255, cpuct=X, seed=N,
                         m=1..=1024 (Gumbel root moves considered, default 16),
                         qs=X (quiescence correction of leaf values, 0..=4; 0 = off)
                         nnue=X or nnue=X:FILE (leaf values blended with an NNUE's quiescence value,
                         0..=1; the shipped network of the ruleset, or FILE),
                         leafdepth=0..=3 (the NNUE leaf's value from an alpha-beta search of that depth;
                         0 = quiescence only; needs nnue=X),
                         mate=0|1 (leaves whose side to move mates in one are won)
                         (no limit given: sims=800), e.g. mcts:uniform,sims=800, mcts:ab,sims=64,
                         mcts:net=nets/fiveup-az,sims=64,qs=1, mcts:ab,time=0.5
  uci:COMMAND[;KEY=VALUE...]  an outside engine speaking docs/PROTOCOL.md, started with COMMAND; engine
                         options as Name=Value; harness keys depth=N, nodes=N, movetime=SECONDS (games
                         without --tc), timeout=SECONDS, grace=SECONDS, log=DIR,
                         e.g. uci:./fiveup uci;Hash=64;movetime=0.1";

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let err = |reason: String| SpecError { spec: s.to_string(), reason: clip_words(&reason) };
        // An engine's command line may hold commas: `uci:` takes the rest whole.
        if let Some(rest) = s.trim_start().strip_prefix("uci:") {
            return crate::protocol::UciSpec::parse(rest).map(PlayerSpec::Uci).map_err(err);
        }
        let (kind, rest) = match s.split_once(':') {
            Some((k, r)) => (k.trim(), r),
            None => (s.trim(), ""),
        };
        let mut params = Vec::new();
        let mut words = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((k, v)) => {
                    let k = k.trim();
                    if params.iter().any(|&(seen, _)| seen == k) {
                        return Err(err(format!("key '{}' is given twice", clip(k))));
                    }
                    params.push((k, v.trim()))
                }
                None if kind == "mcts" => words.push(part),
                None => return Err(err(format!("'{part}' is not KEY=VALUE"))),
            }
        }
        let num = |k: &str, v: &str| -> Result<u64, SpecError> {
            v.parse::<u64>().map_err(|_| err(format!("{k}={v}: expected a whole number")))
        };
        let seconds = |k: &str, v: &str| -> Result<Duration, SpecError> {
            match v.parse::<f64>() {
                // At least a nanosecond: a smaller time would round to a zero limit.
                Ok(t) if (1e-9..1e9).contains(&t) => Ok(Duration::from_secs_f64(t)),
                _ => Err(err(format!("{k}={v}: expected a positive number of seconds (1e-9 to 1e9)"))),
            }
        };
        match kind {
            "ab" | "alphabeta" => {
                let mut ab = AlphaBetaSpec { limits: Limits::default(), ..AlphaBetaSpec::default() };
                for (k, v) in params {
                    match k {
                        "depth" => {
                            let d = num(k, v)?;
                            if !(1..=crate::engine::search::MAX_DEPTH as u64).contains(&d) {
                                return Err(err(format!(
                                    "depth={v}: expected 1..={}",
                                    crate::engine::search::MAX_DEPTH
                                )));
                            }
                            ab.limits.depth = Some(d as u32);
                        }
                        "nodes" => {
                            let n = num(k, v)?;
                            if !(1..=MAX_NODES).contains(&n) {
                                return Err(err(format!("nodes={v}: expected 1..={MAX_NODES}")));
                            }
                            ab.limits.nodes = Some(n)
                        }
                        "time" => ab.limits.time = Some(seconds(k, v)?),
                        "hash" => {
                            let mb = num(k, v)?;
                            if !(1..=65_536).contains(&mb) {
                                return Err(err(format!("hash={v}: expected 1..=65536 MiB")));
                            }
                            ab.hash_mb = mb as usize;
                        }
                        "values" | "weights" => ab.values = Some(PathBuf::from(v)),
                        "eval" => {
                            ab.eval = match v.split_once(':') {
                                _ if v == "hand" => EvalChoice::Hand,
                                _ if v == "nnue" => EvalChoice::Shipped,
                                _ if v == "auto" => EvalChoice::Auto,
                                Some(("nnue", path)) if !path.is_empty() => EvalChoice::Nnue(PathBuf::from(path)),
                                _ => return Err(err(format!("eval={v}: expected hand, nnue, nnue:PATH or auto"))),
                            }
                        }
                        "threads" => {
                            let n = num(k, v)?;
                            if !(1..=crate::engine::MAX_THREADS as u64).contains(&n) {
                                return Err(err(format!("threads={v}: expected 1..={}", crate::engine::MAX_THREADS)));
                            }
                            ab.threads = n as usize;
                        }
                        "keep" => {
                            ab.keep_tt = match v {
                                "0" => false,
                                "1" => true,
                                _ => return Err(err(format!("keep={v}: expected 0 or 1"))),
                            }
                        }
                        _ => return Err(err(format!("unknown key '{k}' for ab"))),
                    }
                }
                if ab.limits == Limits::default() {
                    ab.limits = Limits::depth(4);
                }
                Ok(PlayerSpec::AlphaBeta(ab))
            }
            "random" => {
                let mut seed = 0;
                for (k, v) in params {
                    match k {
                        "seed" => seed = num(k, v)?,
                        _ => return Err(err(format!("unknown key '{k}' for random"))),
                    }
                }
                Ok(PlayerSpec::Random { seed })
            }
            "mcts" => {
                let mut m = MctsSpec { sims: None, ..MctsSpec::default() };
                let mut kind_given = false;
                let set_eval = |m: &mut MctsSpec, e: EvaluatorSpec, seen: &mut bool| {
                    if std::mem::replace(seen, true) {
                        return Err(err("more than one evaluator given".into()));
                    }
                    m.evaluator = e;
                    Ok(())
                };
                let mut eval_seen = false;
                for w in words {
                    match w {
                        "uniform" => set_eval(&mut m, EvaluatorSpec::Uniform, &mut eval_seen)?,
                        "ab" | "alphabeta" => set_eval(&mut m, EvaluatorSpec::AlphaBeta, &mut eval_seen)?,
                        _ => return Err(err(format!("unknown evaluator '{w}' for mcts (uniform, ab or net=DIR)"))),
                    }
                }
                for (k, v) in params {
                    match k {
                        "net" => {
                            if v.is_empty() {
                                return Err(err("net=: expected a network directory, e.g. net=nets/fiveup-az".into()));
                            }
                            set_eval(&mut m, EvaluatorSpec::Net(PathBuf::from(v)), &mut eval_seen)?
                        }
                        "sims" => {
                            let n = num(k, v)?;
                            if !(1..=MAX_SIMS as u64).contains(&n) {
                                return Err(err(format!("sims={v}: expected 1..={MAX_SIMS}")));
                            }
                            m.sims = Some(n as u32);
                        }
                        "time" => m.time = Some(seconds(k, v)?),
                        "kind" => {
                            kind_given = true;
                            m.kind = match v {
                                "puct" => SearchKind::Puct,
                                "gumbel" => SearchKind::Gumbel,
                                _ => return Err(err(format!("kind={v}: expected puct or gumbel"))),
                            }
                        }
                        "batch" => {
                            let n = num(k, v)?;
                            if !(1..=255).contains(&n) {
                                return Err(err(format!("batch={v}: expected 1..=255")));
                            }
                            m.batch = n as u32;
                        }
                        "cpuct" => match v.parse::<f32>() {
                            Ok(c) if c.is_finite() && c > 0.0 => m.cpuct = c,
                            _ => return Err(err(format!("cpuct={v}: expected a positive number"))),
                        },
                        "m" => {
                            let n = num(k, v)?;
                            if !(1..=MAX_GUMBEL_M as u64).contains(&n) {
                                return Err(err(format!("m={v}: expected 1..={MAX_GUMBEL_M}")));
                            }
                            m.gumbel_m = n as u32;
                        }
                        "seed" => m.seed = num(k, v)?,
                        "qs" => match v.parse::<f32>() {
                            Ok(w) if (0.0..=4.0).contains(&w) => m.quiescence = w,
                            _ => return Err(err(format!("qs={v}: expected a weight in 0..=4"))),
                        },
                        "mate" => {
                            m.mate_check = match v {
                                "0" => false,
                                "1" => true,
                                _ => return Err(err(format!("mate={v}: expected 0 or 1"))),
                            }
                        }
                        "nnue" => {
                            let (w, file) = match v.split_once(':') {
                                Some((w, f)) => (w, Some(f)),
                                None => (v, None),
                            };
                            match w.parse::<f32>() {
                                Ok(x) if (0.0..=1.0).contains(&x) => m.nnue = x,
                                _ => {
                                    return Err(err(format!(
                                        "nnue={v}: expected a weight in 0..=1, then perhaps :FILE"
                                    )))
                                }
                            }
                            m.nnue_file = match file {
                                Some("") => return Err(err(format!("nnue={v}: expected a network file after ':'"))),
                                f => f.map(PathBuf::from),
                            };
                        }
                        "leafdepth" => {
                            use crate::mcts::quiesce::MAX_LEAF_DEPTH;
                            let d = num(k, v)?;
                            if d > MAX_LEAF_DEPTH as u64 {
                                return Err(err(format!("leafdepth={v}: expected 0..={MAX_LEAF_DEPTH}")));
                            }
                            m.leaf_depth = d as u32;
                        }
                        _ => return Err(err(format!("unknown key '{k}' for mcts"))),
                    }
                }
                if m.sims.is_none() && m.time.is_none() {
                    m.sims = Some(DEFAULT_SIMS);
                }
                if kind_given && m.kind == SearchKind::Gumbel && m.sims.is_none() {
                    return Err(err("kind=gumbel needs sims=N (its halving schedule is planned for a budget)".into()));
                }
                if m.leaf_depth > 0 && m.nnue == 0.0 {
                    return Err(err(format!(
                        "leafdepth={}: needs nnue=X (the leaf search evaluates with the NNUE)",
                        m.leaf_depth
                    )));
                }
                Ok(PlayerSpec::Mcts(m))
            }
            _ => Err(err(format!("unknown player kind '{kind}'"))),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec string (parses back to the same spec).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random { seed } => write!(f, "random:seed={seed}"),
            PlayerSpec::AlphaBeta(ab) => {
                let mut parts = Vec::new();
                if let Some(d) = ab.limits.depth {
                    parts.push(format!("depth={d}"));
                }
                if let Some(n) = ab.limits.nodes {
                    parts.push(format!("nodes={n}"));
                }
                if let Some(t) = ab.limits.time {
                    parts.push(format!("time={}", t.as_secs_f64()));
                }
                parts.push(format!("hash={}", ab.hash_mb));
                if let Some(p) = &ab.values {
                    parts.push(format!("values={}", p.display()));
                }
                if ab.keep_tt {
                    parts.push("keep=1".into());
                }
                if ab.threads != 1 {
                    parts.push(format!("threads={}", ab.threads));
                }
                if ab.eval != EvalChoice::Hand {
                    parts.push(format!("eval={}", ab.eval));
                }
                write!(f, "ab:{}", parts.join(","))
            }
            PlayerSpec::Uci(u) => write!(f, "uci:{u}"),
            PlayerSpec::Mcts(m) => {
                let mut parts = vec![match &m.evaluator {
                    EvaluatorSpec::Uniform => "uniform".to_string(),
                    EvaluatorSpec::AlphaBeta => "ab".to_string(),
                    EvaluatorSpec::Net(p) => format!("net={}", p.display()),
                }];
                if let Some(n) = m.sims {
                    parts.push(format!("sims={n}"));
                }
                if let Some(t) = m.time {
                    parts.push(format!("time={}", t.as_secs_f64()));
                }
                let d = MctsSpec::default();
                if m.kind != d.kind {
                    parts.push("kind=gumbel".into());
                }
                if m.batch != d.batch {
                    parts.push(format!("batch={}", m.batch));
                }
                if m.cpuct != d.cpuct {
                    parts.push(format!("cpuct={}", m.cpuct));
                }
                if m.gumbel_m != d.gumbel_m {
                    parts.push(format!("m={}", m.gumbel_m));
                }
                if m.seed != 0 {
                    parts.push(format!("seed={}", m.seed));
                }
                if m.quiescence != 0.0 {
                    parts.push(format!("qs={}", m.quiescence));
                }
                match (&m.nnue_file, m.nnue != 0.0) {
                    (Some(p), _) => parts.push(format!("nnue={}:{}", m.nnue, p.display())),
                    (None, true) => parts.push(format!("nnue={}", m.nnue)),
                    (None, false) => {}
                }
                if m.leaf_depth != 0 {
                    parts.push(format!("leafdepth={}", m.leaf_depth));
                }
                if m.mate_check {
                    parts.push("mate=1".into());
                }
                write!(f, "mcts:{}", parts.join(","))
            }
        }
    }
}

/// Most simulations per move a spec may ask for.
pub const MAX_SIMS: u32 = 100_000_000;

/// Most alpha-beta nodes per move a spec may ask for (`ab:nodes=`): days of search.
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// Longest piece of user input echoed in a message.
const CLIP_CHARS: usize = 100;

/// `s` with whitespace runs made single spaces and each word longer than 120 characters cut as
/// [`clip`] cuts it: a message quoting user input stays short.
pub fn clip_words(s: &str) -> String {
    // A word [`clip`] already cut (100 characters, quotes, an ellipsis) is left as it is.
    let cut = |w: &str| if w.chars().count() > CLIP_CHARS + 20 { clip(w) } else { w.to_string() };
    let words: Vec<String> = s.split_whitespace().map(cut).collect();
    words.join(" ")
}

/// `s` itself when short, else its first 100 characters, an ellipsis and its length: long inputs
/// are not echoed whole in error messages.
pub fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= CLIP_CHARS {
        return s.to_string();
    }
    let head: String = s.chars().take(CLIP_CHARS).collect();
    format!("{head}… ({n} characters)")
}

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
}

impl PlayerSpec {
    /// Parses `s` as [`PlayerSpec::from_str`] does, except that a spec naming no limit of its own
    /// (no `depth`, `nodes` or `time` for `ab`; no `sims` or `time` for `mcts`) gets none rather
    /// than the default depth 4 or 800 simulations: for players whose limits come from outside
    /// (a `--tc` clock, a protocol's `go`). Its canonical string then names no limit either.
    pub fn parse_unlimited(s: &str) -> Result<PlayerSpec, SpecError> {
        let mut spec: PlayerSpec = s.parse()?;
        let rest = s.split_once(':').map_or("", |(_, r)| r);
        let named =
            |keys: &[&str]| rest.split(',').filter_map(|p| p.split_once('=')).any(|(k, _)| keys.contains(&k.trim()));
        match &mut spec {
            PlayerSpec::AlphaBeta(ab) if !named(&["depth", "nodes", "time"]) => ab.limits = Limits::default(),
            PlayerSpec::Mcts(m) if !named(&["sims", "time"]) => m.sims = None,
            _ => {}
        }
        Ok(spec)
    }

    /// Builds the player. A weights file is read and checked now, so a bad file fails early.
    pub fn build(&self) -> Result<Box<dyn Player + Send>, BuildError> {
        match self {
            PlayerSpec::Random { seed } => Ok(Box::new(RandomPlayer::new(*seed))),
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(AlphaBetaPlayer::new(ab.clone())?)),
            PlayerSpec::Mcts(m) => Ok(Box::new(MctsPlayer::new(m.clone())?)),
            PlayerSpec::Uci(u) => Ok(Box::new(crate::protocol::UciPlayer::new(u.clone())?)),
        }
    }
}

/// Loads a network saved by the trainer (a directory with `weights.safetensors` and `net.json`,
/// or a published `models/gen-NNNN` directory) as an evaluator for `mcts:net=PATH` players, on
/// the GPU when one is present.
#[cfg(feature = "torch")]
pub fn load_net_evaluator(path: &std::path::Path) -> Result<Box<dyn Evaluator>, BuildError> {
    use crate::nn::torch::{default_device, Model, TorchBackend};
    let model = Model::load(path, default_device())
        .map_err(|e| BuildError::Network(format!("cannot load network '{}': {e}", path.display())))?;
    Ok(Box::new(crate::nn::NetworkEvaluator::new(TorchBackend::new(model, 64))))
}

/// Without the `torch` feature no network can be loaded: a one-line error.
#[cfg(not(feature = "torch"))]
pub fn load_net_evaluator(path: &std::path::Path) -> Result<Box<dyn Evaluator>, BuildError> {
    Err(BuildError::Network(format!(
        "cannot load network '{}': this build has no torch feature (rebuild with default features)",
        path.display()
    )))
}

/// The alpha-beta engine as a player. Its engine is built for the ruleset of the first position
/// it is asked about (and rebuilt if the ruleset changes), with that ruleset's default weights
/// overridden by the spec's file.
pub struct AlphaBetaPlayer {
    spec: AlphaBetaSpec,
    values_text: Option<String>,
    /// The network of `eval=nnue:PATH`, read and checked when the player is made.
    net: Option<Arc<crate::engine::nnue::Network>>,
    engine: Option<(Variant, Engine)>,
    stop: Option<Arc<AtomicBool>>,
}

impl AlphaBetaPlayer {
    /// A player from its settings; reads and checks the weights file.
    pub fn new(spec: AlphaBetaSpec) -> Result<AlphaBetaPlayer, WeightsError> {
        let values_text = match &spec.values {
            Some(p) => {
                let text =
                    std::fs::read_to_string(p).map_err(|e| WeightsError::Io(p.display().to_string(), e.to_string()))?;
                Weights::from_toml_str(Ruleset::FiveUp, &text)?;
                Some(text)
            }
            None => None,
        };
        let net = match &spec.eval {
            EvalChoice::Nnue(p) => Some(Arc::new(
                crate::engine::nnue::Network::load(p, None).map_err(|e| WeightsError::Network(e.to_string()))?,
            )),
            _ => None,
        };
        Ok(AlphaBetaPlayer { spec, values_text, net, engine: None, stop: None })
    }

    /// Searches `pos` under the spec's limits, calling `on_iteration` after every completed depth.
    pub fn analyse(
        &mut self,
        pos: &Position,
        history: &[u64],
        on_iteration: impl FnMut(&crate::engine::Iteration),
    ) -> Result<crate::engine::SearchResult, WeightsError> {
        let limits = self.spec.limits.clone();
        let stop = self.stop.clone();
        let engine = self.engine_for(pos.variant())?;
        Ok(engine.search(pos, history, &limits, stop.as_ref(), on_iteration))
    }

    fn engine_for(&mut self, variant: Variant) -> Result<&mut Engine, WeightsError> {
        let rs = variant.ruleset;
        if !matches!(&self.engine, Some((v, _)) if *v == variant) {
            let weights = match &self.values_text {
                Some(t) => Weights::from_toml_str(rs, t)?,
                None => Weights::for_ruleset(rs),
            };
            let net = match &self.spec.eval {
                EvalChoice::Hand => None,
                EvalChoice::Shipped => Some(crate::engine::nnue::shipped(rs).map_err(WeightsError::Network)?),
                // Only on the board the network was trained and measured on.
                EvalChoice::Auto if crate::engine::nnue::ships(rs) && variant == Variant::plain(rs) => {
                    Some(crate::engine::nnue::shipped(rs).map_err(WeightsError::Network)?)
                }
                EvalChoice::Auto => None,
                EvalChoice::Nnue(p) => {
                    let net = self.net.clone().expect("loaded by new");
                    if net.ruleset != rs {
                        return Err(WeightsError::Network(format!(
                            "{}: a network for {}, but the game is {rs}",
                            p.display(),
                            net.ruleset
                        )));
                    }
                    Some(net)
                }
            };
            let config =
                EngineConfig { hash_mb: self.spec.hash_mb, keep_tt: self.spec.keep_tt, threads: self.spec.threads };
            let mut engine = Engine::new(weights, config);
            engine.set_network(net);
            self.engine = Some((variant, engine));
        }
        Ok(&mut self.engine.as_mut().expect("just built").1)
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        PlayerSpec::AlphaBeta(self.spec.clone()).to_string()
    }

    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Choice, PlayError> {
        let go = Go::default();
        self.play(&Turn { pos, history, start: pos, moves: &[], go: &go }, &mut |_| {})
    }

    fn play(&mut self, turn: &Turn<'_>, on_info: &mut dyn FnMut(&SearchInfo)) -> Result<Choice, PlayError> {
        let limits = turn.go.limits_over(&self.spec.limits, turn.pos.side());
        let stop = self.stop.clone();
        let engine = self.engine_for(turn.pos.variant())?;
        let r = engine.search(turn.pos, turn.history, &limits, stop.as_ref(), |it| {
            on_info(&SearchInfo {
                score: Some(it.score),
                depth: it.depth,
                pv: it.pv.clone(),
                nodes: it.nodes,
                time: it.time,
                seldepth: it.seldepth,
                wdl: None,
            })
        });
        let mv = r.best.ok_or(PlayError::NoLegalMove)?;
        let info = SearchInfo {
            score: Some(r.score),
            depth: r.depth,
            pv: r.pv,
            nodes: r.nodes,
            time: r.time,
            seldepth: r.seldepth,
            wdl: None,
        };
        Ok(Choice { mv, info })
    }

    fn new_game(&mut self) {
        if let Some((_, e)) = &mut self.engine {
            e.clear();
        }
    }

    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

/// Plays a uniformly random legal move from a seeded ChaCha8 stream (reproducible: the same seed
/// and the same positions give the same moves).
pub struct RandomPlayer {
    seed: u64,
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random mover with a seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { seed, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        PlayerSpec::Random { seed: self.seed }.to_string()
    }

    fn choose(&mut self, pos: &Position, _history: &[u64]) -> Result<Choice, PlayError> {
        let start = Instant::now();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Err(PlayError::NoLegalMove);
        }
        let mv = moves[self.rng.gen_range(0..moves.len())];
        Ok(Choice { mv, info: SearchInfo { pv: vec![mv], time: start.elapsed(), ..SearchInfo::default() } })
    }
}

/// What one MCTS search saw: the search result, the principal variation and the time.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsAnalysis {
    /// The search's result (visits, policy, root WDL).
    pub result: crate::mcts::SearchResult,
    /// Most-visited line from the root, the chosen move first.
    pub pv: Vec<Move>,
    /// Time taken.
    pub time: Duration,
}

/// Monte Carlo tree search over an evaluator as a player; the tree is built afresh every move,
/// with no root noise, so a fixed-simulation player is deterministic.
pub struct MctsPlayer {
    spec: MctsSpec,
    evaluator: Box<dyn Evaluator>,
    stop: Option<Arc<AtomicBool>>,
}

impl MctsPlayer {
    /// A player from its settings; loads the evaluator now.
    pub fn new(spec: MctsSpec) -> Result<MctsPlayer, BuildError> {
        use crate::mcts::quiesce::{LeafNetwork, NnueLeaf};
        let evaluator: Box<dyn Evaluator> = match &spec.evaluator {
            EvaluatorSpec::Uniform => Box::new(UniformEvaluator::new()),
            EvaluatorSpec::AlphaBeta => Box::new(AbEvaluator::new()),
            EvaluatorSpec::Net(p) => load_net_evaluator(p)?,
        };
        let leaf = match (&spec.nnue_file, spec.nnue > 0.0) {
            (_, false) => None,
            (None, true) => Some(NnueLeaf { weight: spec.nnue, network: LeafNetwork::Shipped, depth: spec.leaf_depth }),
            (Some(p), true) => {
                let net =
                    crate::engine::nnue::Network::load(p, None).map_err(|e| BuildError::Network(e.to_string()))?;
                Some(NnueLeaf {
                    weight: spec.nnue,
                    network: LeafNetwork::Loaded { path: p.clone(), net: Arc::new(net) },
                    depth: spec.leaf_depth,
                })
            }
        };
        let evaluator = crate::mcts::quiesce::with_leaf_terms(evaluator, spec.quiescence, leaf, spec.mate_check);
        Ok(MctsPlayer { spec, evaluator, stop: None })
    }

    /// A player with a given evaluator, used as given (the spec's evaluator and `quiescence`
    /// fields are then only labels).
    pub fn with_evaluator(spec: MctsSpec, evaluator: Box<dyn Evaluator>) -> MctsPlayer {
        MctsPlayer { spec, evaluator, stop: None }
    }

    fn config(&self) -> SearchConfig {
        SearchConfig {
            kind: self.spec.kind,
            max_batch: self.spec.batch,
            c_puct: self.spec.cpuct,
            gumbel_m: self.spec.gumbel_m,
            dirichlet_epsilon: 0.0,
            gumbel_noise: false,
            ..SearchConfig::default()
        }
    }

    /// Searches `pos` under the spec's limits; `None` when the search has nothing to choose (no
    /// legal move, or the position is drawn by rule); an evaluator failure is an error.
    pub fn analyse(&mut self, pos: &Position, history: &[u64]) -> Result<Option<MctsAnalysis>, crate::nn::EvalError> {
        self.analyse_within(pos, history, self.spec.sims, self.spec.time)
    }

    /// [`MctsPlayer::analyse`] with a simulation budget and a time limit of the caller's (neither:
    /// until the stop flag is raised).
    pub fn analyse_within(
        &mut self,
        pos: &Position,
        history: &[u64],
        sims: Option<u32>,
        time: Option<Duration>,
    ) -> Result<Option<MctsAnalysis>, crate::nn::EvalError> {
        let start = Instant::now();
        let deadline = time.map(|t| start + t);
        let budget = sims.unwrap_or(u32::MAX);
        let mut search = Search::new(self.config(), self.spec.seed);
        search.set_noise(false);
        search.start(pos, history, budget);
        let mut out: Vec<Evaluation> = Vec::new();
        while !search.is_done() {
            search.gather();
            let mut batch = Vec::with_capacity(self.spec.batch as usize);
            search.inputs(&mut batch);
            self.evaluator.evaluate(&batch, &mut out)?;
            drop(batch);
            search.apply(&out);
            if deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                break;
            }
        }
        let Some(result) = search.result() else { return Ok(None) };
        let pv = principal_variation(search.tree(), result.best);
        Ok(Some(MctsAnalysis { result, pv, time: start.elapsed() }))
    }
}

/// The line `first`, then the most-visited child at every node below it.
fn principal_variation(tree: &crate::mcts::tree::Tree, first: Move) -> Vec<Move> {
    let root = crate::mcts::tree::ROOT;
    let mut pv = vec![first];
    let Some(i) = tree.child_nodes(root).iter().position(|c| c.mv == first) else { return pv };
    let mut node = tree.get(root).first_child + i as u32;
    while pv.len() < 64 && tree.get(node).num_children > 0 {
        let kids = tree.child_nodes(node);
        let Some((i, best)) = kids.iter().enumerate().max_by_key(|(_, c)| c.visits) else { break };
        if best.visits == 0 {
            break;
        }
        pv.push(best.mv);
        node = tree.get(node).first_child + i as u32;
    }
    pv
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        PlayerSpec::Mcts(self.spec.clone()).to_string()
    }

    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Choice, PlayError> {
        let go = Go::default();
        self.play(&Turn { pos, history, start: pos, moves: &[], go: &go }, &mut |_| {})
    }

    fn play(&mut self, turn: &Turn<'_>, on_info: &mut dyn FnMut(&SearchInfo)) -> Result<Choice, PlayError> {
        let (pos, go) = (turn.pos, turn.go);
        let start = Instant::now();
        let (sims, time) = if go.infinite {
            (None, None)
        } else {
            let cap = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
            let go_sims = go.nodes.map(|n| n.clamp(1, MAX_SIMS as u64) as u32);
            let sims = match (self.spec.sims, go_sims) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let clock = go.clock.map(|c| crate::clock::allocate(&c, pos.side()).0);
            (sims, cap(cap(self.spec.time, go.movetime), clock))
        };
        match self.analyse_within(pos, turn.history, sims, time)? {
            Some(a) => {
                let pv = a.pv;
                let [w, d, l] = a.result.root_wdl;
                let permille = |x: f32| (x.clamp(0.0, 1.0) * 1000.0).round() as u16;
                let info = SearchInfo {
                    score: None,
                    depth: pv.len() as u32,
                    pv,
                    nodes: a.result.simulations as u64,
                    time: a.time,
                    seldepth: 0,
                    wdl: Some([permille(w), permille(d), permille(l)]),
                };
                on_info(&info);
                Ok(Choice { mv: a.result.best, info })
            }
            // Drawn by rule with moves left (the caller decides whether the game goes on): any move.
            None => {
                let mv = *pos.legal_moves().first().ok_or(PlayError::NoLegalMove)?;
                Ok(Choice { mv, info: SearchInfo { pv: vec![mv], time: start.elapsed(), ..SearchInfo::default() } })
            }
        }
    }

    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scrambled;
    use crate::rules::Variant;

    #[test]
    fn specs_parse_and_print_canonically() {
        let cases = [
            ("ab", "ab:depth=4,hash=16"),
            ("ab:depth=4", "ab:depth=4,hash=16"),
            ("ab:nodes=200000", "ab:nodes=200000,hash=16"),
            ("ab:time=0.5", "ab:time=0.5,hash=16"),
            ("ab:depth=3,values=w.toml,hash=32", "ab:depth=3,hash=32,values=w.toml"),
            ("ab:depth=6, keep=1", "ab:depth=6,hash=16,keep=1"),
            ("ab:time=0.5,threads=2", "ab:time=0.5,hash=16,threads=2"),
            ("ab:depth=2,eval=hand", "ab:depth=2,hash=16"),
            ("ab:depth=2,eval=nnue", "ab:depth=2,hash=16,eval=nnue"),
            ("ab:eval=auto", "ab:depth=4,hash=16,eval=auto"),
            ("ab:eval=nnue:nets/x.nnue,time=1", "ab:time=1,hash=16,eval=nnue:nets/x.nnue"),
            ("random", "random:seed=0"),
            ("random:seed=7", "random:seed=7"),
            ("mcts", "mcts:uniform,sims=800"),
            ("mcts:uniform,sims=800", "mcts:uniform,sims=800"),
            ("mcts:ab,sims=64", "mcts:ab,sims=64"),
            ("mcts:net=nets/a.pt,sims=64", "mcts:net=nets/a.pt,sims=64"),
            ("mcts:ab,time=0.5", "mcts:ab,time=0.5"),
            (
                "mcts:sims=64,ab,kind=gumbel,batch=8,cpuct=2,seed=3",
                "mcts:ab,sims=64,kind=gumbel,batch=8,cpuct=2,seed=3",
            ),
            ("mcts:ab,m=32,sims=64,kind=gumbel", "mcts:ab,sims=64,kind=gumbel,m=32"),
            ("mcts:ab,nnue=1,sims=64", "mcts:ab,sims=64,nnue=1"),
            ("mcts:ab,sims=64,qs=1,nnue=0.5:nets/x.nnue", "mcts:ab,sims=64,qs=1,nnue=0.5:nets/x.nnue"),
            ("mcts:ab,mate=1,sims=8", "mcts:ab,sims=8,mate=1"),
            ("mcts:ab,sims=8,mate=0", "mcts:ab,sims=8"),
            ("mcts:ab,leafdepth=1,nnue=1,sims=8,mate=1", "mcts:ab,sims=8,nnue=1,leafdepth=1,mate=1"),
            ("mcts:ab,nnue=1,leafdepth=0,sims=8", "mcts:ab,sims=8,nnue=1"),
        ];
        for (input, canonical) in cases {
            let spec: PlayerSpec = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(spec.to_string(), canonical, "{input}");
            assert_eq!(canonical.parse::<PlayerSpec>().unwrap(), spec, "{input} round trip");
        }
    }

    #[test]
    fn clocked_specs_keep_only_the_limits_they_name_and_go_caps_them() {
        let unlimited = |s: &str| PlayerSpec::parse_unlimited(s).unwrap().to_string();
        assert_eq!(unlimited("ab"), "ab:hash=16");
        assert_eq!(unlimited("ab:depth=6,threads=2"), "ab:depth=6,hash=16,threads=2");
        assert_eq!(unlimited("mcts:ab"), "mcts:ab");
        assert_eq!(unlimited("mcts:ab,sims=64"), "mcts:ab,sims=64");
        assert_eq!(unlimited("random:seed=3"), "random:seed=3");
        let spec = "uci:./engine --x a,b;Hash=8;movetime=0.5";
        assert_eq!(unlimited(spec), spec);
        // A request's limits cap the player's own; a clock gives a soft and a hard time.
        let own = Limits { depth: Some(6), ..Limits::default() };
        let clock = crate::clock::Clock {
            remaining: [Duration::from_secs(10); 2],
            increment: [Duration::ZERO; 2],
            moves_to_go: None,
        };
        let go = Go { depth: Some(9), nodes: Some(500), clock: Some(clock), ..Go::default() };
        let l = go.limits_over(&own, crate::rules::Color::White);
        assert_eq!((l.depth, l.nodes), (Some(6), Some(500)));
        assert!(l.soft_time.unwrap() < l.time.unwrap() && l.time.unwrap() < Duration::from_secs(8));
        let l = Go { infinite: true, ..go }.limits_over(&own, crate::rules::Color::White);
        assert_eq!(l, Limits::default());
    }

    #[test]
    fn bad_specs_list_what_is_accepted() {
        for bad in [
            "mcts:foo",
            "mcts:sims=0",
            "mcts:kind=gumbel,time=1",
            "mcts:ab,uniform",
            "mcts:batch=0",
            "mcts:m=0",
            "mcts:m=2000",
            "mcts:net=",
            "mcts:nnue=2",
            "mcts:nnue=-0.5",
            "mcts:nnue=x",
            "mcts:nnue=1:",
            "mcts:mate=2",
            "mcts:nnue=1,leafdepth=4",
            "mcts:nnue=1,leafdepth=-1",
            "mcts:leafdepth=1",
            "alphazero",
            "ab:depth=x",
            "ab:depth",
            "ab:colour=red",
            "random:seed=-1",
            "ab:time=0",
            "ab:hash=0",
            "ab:nodes=0",
            "ab:nodes=1000000000001",
            "ab:keep=2",
            "ab:threads=0",
            "ab:threads=257",
            "ab:eval=nn",
            "ab:eval=nnue:",
            "ab:depth=3,depth=4",
            "mcts:sims=10,sims=20",
            "random:seed=1,seed=2",
            "",
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains("accepted player specs") && msg.contains("random:seed=7"), "{bad}: {msg}");
        }
        let missing = PlayerSpec::AlphaBeta(AlphaBetaSpec {
            values: Some("/nonexistent/values.toml".into()),
            ..AlphaBetaSpec::default()
        });
        assert!(missing.build().is_err());
        // An NNUE leaf network that is not there: one line naming the file, before any game.
        let e = "mcts:ab,nnue=1:/nonexistent/leaf.nnue".parse::<PlayerSpec>().unwrap().build().err().unwrap();
        let msg = e.to_string();
        assert!(msg.contains("/nonexistent/leaf.nnue") && !msg.contains('\n'), "{msg}");
    }

    #[test]
    fn mcts_with_nnue_leaves_takes_a_hanging_queen() {
        // Raumschach, the shipped network: the rook takes the undefended queen (and the value of
        // the position after it is the NNUE's).
        let mut s = crate::rules::Setup::empty(Variant::plain(Ruleset::Raumschach));
        let put = |s: &mut crate::rules::Setup, c: &str, p: crate::rules::Piece| {
            s.board[c.parse::<crate::rules::Cell>().unwrap().index()] = Some(p)
        };
        use crate::rules::{Color, Kind, Piece};
        put(&mut s, "Ab1", Piece::new(Color::White, Kind::King));
        put(&mut s, "Ee5", Piece::new(Color::Black, Kind::King));
        put(&mut s, "Ca3", Piece::new(Color::White, Kind::Rook));
        put(&mut s, "Cc3", Piece::new(Color::Black, Kind::Queen));
        let pos = Position::from_setup(s).unwrap();
        let mut player = "mcts:uniform,sims=64,nnue=1".parse::<PlayerSpec>().unwrap().build().unwrap();
        assert_eq!(player.name(), "mcts:uniform,sims=64,nnue=1");
        let c = player.choose(&pos, &[]).unwrap();
        assert_eq!(c.mv.to().to_string(), "Cc3", "{}", c.mv);
    }

    /// A backend that always fails, as a lost GPU does.
    struct BrokenBackend;

    impl crate::nn::Backend for BrokenBackend {
        fn compute(
            &mut self,
            _: &[f32],
            _: usize,
            _: &[i64],
            _: &mut crate::nn::BackendOutput,
        ) -> Result<(), crate::nn::EvalError> {
            Err(crate::nn::EvalError("CUDA error: device lost".into()))
        }
        fn name(&self) -> String {
            "broken".into()
        }
    }

    #[test]
    fn a_failing_backend_is_an_error_not_a_panic() {
        let net = crate::nn::NetworkEvaluator::new(BrokenBackend);
        let mut player = MctsPlayer::with_evaluator(MctsSpec::default(), Box::new(net));
        let p = Position::startpos(Variant::default());
        let e = player.choose(&p, &[]).unwrap_err();
        assert_eq!(e.to_string(), "network evaluation failed: CUDA error: device lost");
        let cfg = crate::selfplay::SelfPlayConfig { total_games: 1, ..crate::selfplay::SelfPlayConfig::default() };
        let mut net = crate::nn::NetworkEvaluator::new(BrokenBackend);
        let r = crate::selfplay::run(&cfg, &mut net, &mut |_| {}, &mut |_| {});
        assert_eq!(r.unwrap_err(), crate::nn::EvalError("CUDA error: device lost".into()));
    }

    #[test]
    fn the_gumbel_m_of_a_spec_reaches_the_search() {
        for (spec, want) in [("mcts:ab,sims=64,kind=gumbel", 16), ("mcts:ab,sims=64,kind=gumbel,m=48", 48)] {
            let Ok(PlayerSpec::Mcts(m)) = spec.parse::<PlayerSpec>() else { panic!("{spec}") };
            assert_eq!(MctsPlayer::new(m).unwrap().config().gumbel_m, want, "{spec}");
        }
    }

    #[test]
    fn a_time_limited_gumbel_search_plans_a_bounded_schedule() {
        // Specs refuse kind=gumbel without sims, but a spec built in code may have only a time:
        // the budget is then u32::MAX, whose full halving schedule would not fit in memory.
        let spec = MctsSpec {
            evaluator: EvaluatorSpec::Uniform,
            sims: None,
            time: Some(Duration::from_millis(50)),
            kind: SearchKind::Gumbel,
            ..MctsSpec::default()
        };
        let mut player = PlayerSpec::Mcts(spec).build().unwrap();
        let p = Position::startpos(Variant::default());
        let c = player.choose(&p, &[]).unwrap();
        assert!(p.legal_moves().contains(&c.mv));
    }

    #[test]
    fn spec_errors_name_the_problem_and_cut_long_input() {
        let reason = |s: &str| s.parse::<PlayerSpec>().unwrap_err().reason;
        assert_eq!(reason("ab:nodes=0"), "nodes=0: expected 1..=1000000000000");
        assert_eq!(reason("ab:depth=3,depth=4"), "key 'depth' is given twice");
        assert_eq!(reason("mcts:net="), "net=: expected a network directory, e.g. net=nets/fiveup-az");
        let long = format!("ab:{}", "x".repeat(10_000));
        let msg = long.parse::<PlayerSpec>().unwrap_err().to_string();
        let first = msg.lines().next().unwrap();
        assert!(first.contains("… (10003 characters)") && first.chars().count() < 300, "{first}");
        // The accepted forms are on their own lines, and their network example is a directory.
        assert!(msg.lines().count() > 5 && !msg.contains("model.pt") && msg.contains("net=nets/fiveup-az"), "{msg}");
    }

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

    #[test]
    fn a_network_that_cannot_be_loaded_is_a_one_line_error() {
        let spec: PlayerSpec = "mcts:net=no-such-model.pt,sims=64".parse().unwrap();
        let e = spec.build().err().expect("nothing to load").to_string();
        assert!(e.contains("cannot load network 'no-such-model.pt'") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn mcts_player_is_deterministic_and_sees_the_mate() {
        // Fool's mate position before 4. SxBe4++.
        let text = "rnknr/ppp1p/5/5/5|ubqub/pp1pp/3p1/5/5|5/5/2p2/2P2/5|5/4B/1N3/PP1PP/UGQUB|5/5/5/PPPPP/RSKNR w Wwgs E1D1A5B5 - 0 4";
        let p = Position::from_text(text, Variant::plain(Ruleset::FiveUp)).unwrap();
        let run = || {
            let mut pl = "mcts:ab,sims=300".parse::<PlayerSpec>().unwrap().build().unwrap();
            pl.choose(&p, &[]).unwrap()
        };
        let (a, b) = (run(), run());
        assert_eq!(a.mv, b.mv);
        assert_eq!(a.info.pv, b.info.pv);
        assert_eq!(a.mv.to_string(), "Eb1Be4");
        assert_eq!(a.info.nodes, 300);
        let mut timed = "mcts:uniform,time=0.05".parse::<PlayerSpec>().unwrap().build().unwrap();
        let c = timed.choose(&p, &[]).unwrap();
        assert!(c.info.nodes > 0 && c.info.time < Duration::from_secs(2));
    }

    #[test]
    fn random_player_is_reproducible_by_seed() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = |seed| {
            let mut r = RandomPlayer::new(seed);
            (0..20).map(|_| r.choose(&p, &[]).unwrap().mv).collect::<Vec<_>>()
        };
        assert_eq!(moves(7), moves(7));
        assert_ne!(moves(7), moves(8));
    }

    #[test]
    fn values_file_changes_the_engine_weights() {
        let dir = std::env::temp_dir().join(format!("fiveup-player-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("values.toml");
        std::fs::write(&path, "[values]\nknight = 123\n").unwrap();
        let spec: PlayerSpec = format!("ab:depth=1,values={}", path.display()).parse().unwrap();
        let PlayerSpec::AlphaBeta(ab) = spec else { panic!("not ab") };
        let mut player = AlphaBetaPlayer::new(ab).unwrap();
        let p = Position::startpos(Variant::plain(Ruleset::Raumschach));
        player.choose(&p, &[]).unwrap();
        let engine = &player.engine.as_ref().unwrap().1;
        assert_eq!(engine.weights().value(crate::rules::Kind::Knight), 123);
        assert_eq!(engine.weights().value(crate::rules::Kind::Queen), 950);
        std::fs::write(&path, "[values]\nknight = -5\n").unwrap();
        let spec: PlayerSpec = format!("ab:values={}", path.display()).parse().unwrap();
        assert!(spec.build().is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[cfg(all(test, feature = "torch"))]
mod net_tests {
    use super::*;
    use crate::nn::torch::{Model, NetConfig};
    use crate::rules::Variant;

    #[test]
    fn mcts_net_player_loads_a_saved_network_and_plays_legal_moves() {
        let dir = std::env::temp_dir().join(format!("fiveup-net-player-{}", std::process::id()));
        Model::new(&NetConfig::TINY, tch::Device::Cpu).unwrap().save(&dir).unwrap();
        let spec: PlayerSpec = format!("mcts:net={},sims=8", dir.display()).parse().unwrap();
        let mut player = spec.build().unwrap();
        let pos = Position::startpos(Variant::default());
        let choice = player.choose(&pos, &[]).unwrap();
        assert!(pos.legal_moves().contains(&choice.mv));
        let missing: PlayerSpec = "mcts:net=/nonexistent/net,sims=8".parse().unwrap();
        let err = missing.build().err().expect("a missing network is an error").to_string();
        assert!(err.contains("/nonexistent/net") && !err.contains('\n'), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[cfg(test)]
mod nnue_tests {
    use super::*;
    use crate::engine::nnue::{Dims, Network};
    use crate::rules::Variant;

    #[test]
    fn eval_auto_is_the_shipped_network_where_there_is_one_else_the_hand_evaluation() {
        let score = |spec: &str, pos: &Position| {
            let PlayerSpec::AlphaBeta(ab) = spec.parse::<PlayerSpec>().unwrap() else { panic!("{spec}") };
            let mut player = AlphaBetaPlayer::new(ab).unwrap();
            player.analyse(pos, &[], |_| {}).unwrap().score
        };
        for rs in Ruleset::ALL {
            assert_eq!(crate::engine::nnue::ships(rs), crate::engine::nnue::shipped(rs).is_ok(), "{rs}");
            let pos = crate::engine::scrambled(Variant::plain(rs), 10, 5);
            let same = if crate::engine::nnue::ships(rs) { "ab:depth=2,eval=nnue" } else { "ab:depth=2,eval=hand" };
            assert_eq!(score("ab:depth=2,eval=auto", &pos), score(same, &pos), "{rs}");
        }
        let five = crate::engine::scrambled(Variant::plain(Ruleset::FiveUp), 10, 5);
        assert_ne!(score("ab:depth=2,eval=nnue", &five), score("ab:depth=2,eval=hand", &five));
        // Not on a board the network was not trained on: the hypercylinder gets the hand evaluation.
        let cylinder = crate::engine::scrambled(Variant::new(Ruleset::FiveUp, false, true).unwrap(), 10, 5);
        assert_eq!(score("ab:depth=2,eval=auto", &cylinder), score("ab:depth=2,eval=hand", &cylinder));
    }

    #[test]
    fn an_nnue_player_searches_with_its_network_and_refuses_bad_files() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("r.nnue");
        let net = Network::random(
            Ruleset::Raumschach,
            Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false },
            4,
        );
        net.save(&path).unwrap();
        let pos = crate::engine::scrambled(Variant::plain(Ruleset::Raumschach), 12, 3);
        // The engine's static evaluation is the network's.
        let mut e = Engine::new(Weights::for_ruleset(Ruleset::Raumschach), EngineConfig::default());
        let hand = e.quiesce(&pos, 1).stand;
        e.set_network(Some(Arc::new(net.clone())));
        assert_eq!(e.quiesce(&pos, 1).stand, net.evaluate_position(&pos));
        assert_ne!(hand, net.evaluate_position(&pos), "a random network that agrees with the hand evaluation");
        // A player with the file plays, reproducibly; on another ruleset it refuses.
        let spec: PlayerSpec = format!("ab:depth=3,eval=nnue:{}", path.display()).parse().unwrap();
        let a = spec.build().unwrap().choose(&pos, &[]).unwrap();
        let b = spec.build().unwrap().choose(&pos, &[]).unwrap();
        assert!(pos.legal_moves().contains(&a.mv));
        assert_eq!((a.mv, a.info.nodes), (b.mv, b.info.nodes));
        let five = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let e = spec.build().unwrap().choose(&five, &[]).unwrap_err().to_string();
        assert!(e.contains("raumschach") && e.contains("fiveup"), "{e}");
        // Missing, truncated or foreign files: one line naming the file, when the player is made.
        std::fs::write(t.path().join("cut.nnue"), &std::fs::read(&path).unwrap()[..100]).unwrap();
        std::fs::write(t.path().join("text.nnue"), "not a network").unwrap();
        for name in ["missing.nnue", "cut.nnue", "text.nnue"] {
            let p = t.path().join(name);
            let spec: PlayerSpec = format!("ab:depth=1,eval=nnue:{}", p.display()).parse().unwrap();
            let e = spec.build().err().expect("refused").to_string();
            assert!(e.contains(name) && !e.contains('\n'), "{e}");
        }
        // The shipped network plays Five Up; a ruleset with none shipped (the 2001 text) says so.
        let spec: PlayerSpec = "ab:depth=2,eval=nnue".parse().unwrap();
        let shipped = crate::engine::nnue::shipped(Ruleset::FiveUp).unwrap();
        assert_eq!(shipped.ruleset, Ruleset::FiveUp);
        assert!(five.legal_moves().contains(&spec.build().unwrap().choose(&five, &[]).unwrap().mv));
        assert!(!crate::engine::nnue::ships(Ruleset::FiveUp2001));
        let old = Position::startpos(Variant::plain(Ruleset::FiveUp2001));
        let e = spec.build().unwrap().choose(&old, &[]).unwrap_err().to_string();
        assert!(e.contains("eval=nnue:FILE") && e.contains("fiveup-2001"), "{e}");
    }
}
