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
//! | `random`, `random:seed=7` | a uniform random legal mover (ChaCha8, seed 0 unless given) |
//!
//! A new kind (`mcts:...`) is one more arm in [`PlayerSpec`] and in the parser's kind table.

use crate::engine::{Engine, EngineConfig, Limits, Score, Weights, WeightsError};
use crate::rules::{Move, Position, Ruleset};
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
}

impl Default for AlphaBetaSpec {
    fn default() -> Self {
        AlphaBetaSpec { limits: Limits::depth(4), hash_mb: 16, values: None, keep_tt: false }
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
}

/// A spec string that could not be parsed; the message lists what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad player spec '{spec}': {reason}\n{ACCEPTED}")]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

/// The accepted forms, printed with every spec error.
pub const ACCEPTED: &str = "accepted player specs:
  ab[:KEY=VALUE,...]     alpha-beta; keys: depth=N, nodes=N, time=SECONDS, hash=MB, values=FILE, keep=0|1
                         (no limit given: depth=4), e.g. ab:depth=4, ab:nodes=200000, ab:time=0.5
  random[:seed=N]        uniform random legal mover, e.g. random:seed=7";

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let err = |reason: String| SpecError { spec: s.to_string(), reason };
        let (kind, rest) = match s.split_once(':') {
            Some((k, r)) => (k.trim(), r),
            None => (s.trim(), ""),
        };
        let mut params = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| err(format!("'{part}' is not KEY=VALUE")))?;
            params.push((k.trim(), v.trim()));
        }
        let num = |k: &str, v: &str| -> Result<u64, SpecError> {
            v.parse::<u64>().map_err(|_| err(format!("{k}={v}: expected a whole number")))
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
                        "nodes" => ab.limits.nodes = Some(num(k, v)?.max(1)),
                        "time" => {
                            let t: f64 = v.parse().map_err(|_| err(format!("time={v}: expected seconds")))?;
                            if !(t.is_finite() && t > 0.0) {
                                return Err(err(format!("time={v}: expected a positive number of seconds")));
                            }
                            ab.limits.time = Some(Duration::from_secs_f64(t));
                        }
                        "hash" => {
                            let mb = num(k, v)?;
                            if !(1..=65_536).contains(&mb) {
                                return Err(err(format!("hash={v}: expected 1..=65536 MiB")));
                            }
                            ab.hash_mb = mb as usize;
                        }
                        "values" | "weights" => ab.values = Some(PathBuf::from(v)),
                        "keep" => ab.keep_tt = num(k, v)? != 0,
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
                write!(f, "ab:{}", parts.join(","))
            }
        }
    }
}

/// Why a player could not be built from a valid spec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The weights file is unreadable or invalid.
    #[error(transparent)]
    Weights(#[from] WeightsError),
}

impl PlayerSpec {
    /// Builds the player. A weights file is read and checked now, so a bad file fails early.
    pub fn build(&self) -> Result<Box<dyn Player + Send>, BuildError> {
        match self {
            PlayerSpec::Random { seed } => Ok(Box::new(RandomPlayer::new(*seed))),
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(AlphaBetaPlayer::new(ab.clone())?)),
        }
    }
}

/// The alpha-beta engine as a player. Its engine is built for the ruleset of the first position
/// it is asked about (and rebuilt if the ruleset changes), with that ruleset's default weights
/// overridden by the spec's file.
pub struct AlphaBetaPlayer {
    spec: AlphaBetaSpec,
    values_text: Option<String>,
    engine: Option<(Ruleset, Engine)>,
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
        Ok(AlphaBetaPlayer { spec, values_text, engine: None, stop: None })
    }

    /// Lets another thread stop a search in progress (the best move so far is played).
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    fn engine_for(&mut self, rs: Ruleset) -> Result<&mut Engine, WeightsError> {
        if !matches!(&self.engine, Some((r, _)) if *r == rs) {
            let weights = match &self.values_text {
                Some(t) => Weights::from_toml_str(rs, t)?,
                None => Weights::for_ruleset(rs),
            };
            let config = EngineConfig { hash_mb: self.spec.hash_mb, keep_tt: self.spec.keep_tt };
            self.engine = Some((rs, Engine::new(weights, config)));
        }
        Ok(&mut self.engine.as_mut().expect("just built").1)
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        PlayerSpec::AlphaBeta(self.spec.clone()).to_string()
    }

    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Choice, PlayError> {
        let limits = self.spec.limits.clone();
        let stop = self.stop.clone();
        let engine = self.engine_for(pos.ruleset())?;
        let r = engine.search(pos, history, &limits, stop.as_ref(), |_| {});
        let mv = r.best.ok_or(PlayError::NoLegalMove)?;
        Ok(Choice {
            mv,
            info: SearchInfo { score: Some(r.score), depth: r.depth, pv: r.pv, nodes: r.nodes, time: r.time },
        })
    }

    fn new_game(&mut self) {
        if let Some((_, e)) = &mut self.engine {
            e.clear();
        }
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
            ("random", "random:seed=0"),
            ("random:seed=7", "random:seed=7"),
        ];
        for (input, canonical) in cases {
            let spec: PlayerSpec = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(spec.to_string(), canonical, "{input}");
            assert_eq!(canonical.parse::<PlayerSpec>().unwrap(), spec, "{input} round trip");
        }
    }

    #[test]
    fn bad_specs_list_what_is_accepted() {
        for bad in ["mcts", "ab:depth=x", "ab:depth", "ab:colour=red", "random:seed=-1", "ab:time=0", "ab:hash=0", ""] {
            let e = bad.parse::<PlayerSpec>().unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains("accepted player specs") && msg.contains("random:seed=7"), "{bad}: {msg}");
        }
        let missing = PlayerSpec::AlphaBeta(AlphaBetaSpec {
            values: Some("/nonexistent/values.toml".into()),
            ..AlphaBetaSpec::default()
        });
        assert!(missing.build().is_err());
    }

    #[test]
    fn players_choose_legal_moves_and_stop_at_the_end() {
        for spec in ["ab:depth=2", "ab:nodes=3000", "random:seed=3"] {
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
        for spec in ["ab", "random"] {
            let mut player = spec.parse::<PlayerSpec>().unwrap().build().unwrap();
            assert_eq!(player.choose(&p, &[]).unwrap_err(), PlayError::NoLegalMove);
        }
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
        assert_eq!(engine.weights().value(crate::rules::Kind::Queen), 1000);
        std::fs::write(&path, "[values]\nknight = -5\n").unwrap();
        let spec: PlayerSpec = format!("ab:values={}", path.display()).parse().unwrap();
        assert!(spec.build().is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
