//! Games between players for evaluation: a network (MCTS over an evaluator, no noise) against the
//! rungs of the alpha-beta ladder, and SPRT gating of a new network against the best.
//!
//! Games come in colour-swapped pairs from the same random opening (a few uniformly random plies,
//! seeded by the pair), so the pentanomial statistics of [`crate::eval`] apply.

use super::{mix_seed, TrainError};
use crate::eval::{score_to_elo, Decision, Pentanomial, Sprt, SprtConfig, SprtData, Trinomial};
use crate::mcts::terminal::{prior_occurrences, terminal_status};
use crate::mcts::{search_position, SearchConfig};
use crate::nn::Evaluator;
use crate::player::{PlayError, Player, PlayerSpec};
use crate::rules::{Color, Move, Position, Variant};
use crate::selfplay::GameResult;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Something that plays: given a position and the hashes of the game's earlier positions, a
/// legal move (`None` when it has none).
pub trait Contestant {
    /// Its name in results.
    fn name(&self) -> String;
    /// Chooses a move.
    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Option<Move>, TrainError>;
    /// A new game starts.
    fn new_game(&mut self) {}
}

/// A network player: a search of `simulations` over an evaluator, with no root noise.
pub struct NetPlayer {
    name: String,
    evaluator: Box<dyn Evaluator>,
    simulations: u32,
    search: SearchConfig,
    seed: u64,
}

impl NetPlayer {
    /// A network player.
    pub fn new(name: &str, evaluator: Box<dyn Evaluator>, simulations: u32, max_batch: u32) -> NetPlayer {
        let search = SearchConfig { gumbel_noise: false, dirichlet_epsilon: 0.0, max_batch, ..SearchConfig::default() };
        NetPlayer { name: name.to_string(), evaluator, simulations, search, seed: 0 }
    }
}

impl Contestant for NetPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Option<Move>, TrainError> {
        self.seed += 1;
        let r = search_position(pos, history, self.evaluator.as_mut(), self.simulations, &self.search, self.seed);
        Ok(r.map(|r| r.best))
    }
}

/// A uniformly random mover (ChaCha8, seeded).
pub struct RandomMover {
    rng: ChaCha8Rng,
}

impl RandomMover {
    /// A random mover.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Contestant for RandomMover {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, pos: &Position, _history: &[u64]) -> Result<Option<Move>, TrainError> {
        let moves = pos.legal_moves();
        Ok((!moves.is_empty()).then(|| moves[self.rng.gen_range(0..moves.len())]))
    }
}

/// A [`Player`] (engine, random mover, …) as a contestant.
pub struct PlayerContestant {
    player: Box<dyn Player + Send>,
}

impl Contestant for PlayerContestant {
    fn name(&self) -> String {
        self.player.name()
    }

    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Option<Move>, TrainError> {
        match self.player.choose(pos, history) {
            Ok(c) => Ok(Some(c.mv)),
            Err(PlayError::NoLegalMove) => Ok(None),
            Err(e) => Err(TrainError::Player(format!("{}: {e}", self.player.name()))),
        }
    }

    fn new_game(&mut self) {
        self.player.new_game();
    }
}

/// Builds a ladder opponent from its player spec (`random`, `ab:depth=2`, …; see
/// [`crate::player`]). A bare `random` gets `seed`, so each rung and generation draws its own
/// moves.
pub fn build_opponent(spec: &str, seed: u64) -> Result<Box<dyn Contestant>, TrainError> {
    let parsed: PlayerSpec =
        spec.parse().map_err(|e: crate::player::SpecError| TrainError::Player(e.to_string().replace('\n', "; ")))?;
    if spec.trim() == "random" {
        return Ok(Box::new(RandomMover::new(seed)));
    }
    let player = parsed.build().map_err(|e| TrainError::Player(format!("{spec}: {e}")))?;
    Ok(Box::new(PlayerContestant { player }))
}

/// Plays one game from `start`; returns the result.
pub fn play_game(
    white: &mut dyn Contestant,
    black: &mut dyn Contestant,
    start: &Position,
    ply_cap: u32,
) -> Result<GameResult, TrainError> {
    white.new_game();
    black.new_game();
    let mut pos = start.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut plies = 0;
    loop {
        let moves = pos.legal_moves();
        let reps = prior_occurrences(&history, pos.hash(), pos.halfmove());
        if let Some(t) = terminal_status(&pos, !moves.is_empty(), reps) {
            return Ok(if t.wdl[2] > 0.5 { GameResult::loss_for(pos.side()) } else { GameResult::Draw });
        }
        if plies >= ply_cap {
            return Ok(GameResult::Draw);
        }
        let player: &mut dyn Contestant = if pos.side() == Color::White { &mut *white } else { &mut *black };
        let m = player.choose(&pos, &history)?;
        let m = m
            .filter(|m| moves.contains(m))
            .ok_or_else(|| TrainError::Player(format!("{} returned no legal move", player.name())))?;
        history.push(pos.hash());
        pos.make(m);
        plies += 1;
    }
}

/// A start position after `plies` random moves (seeded), avoiding finished games.
pub fn random_opening(variant: Variant, plies: u32, seed: u64) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::startpos(variant);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let next = pos.after(m);
        if next.legal_moves().is_empty() {
            break;
        }
        pos = next;
    }
    pos
}

/// The score of `side`'s player in a result.
fn score_for(r: GameResult, side: Color) -> f64 {
    let w = r.wdl_for(side);
    w[0] as f64 + 0.5 * w[1] as f64
}

/// Results of a match from the first player's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The opponent.
    pub opponent: String,
    /// Games, wins, draws, losses.
    pub games: Trinomial,
    /// Colour-swapped pairs.
    pub pairs: Pentanomial,
    /// Score share.
    pub score: f64,
    /// Logistic Elo difference (score clamped to [1%, 99%]).
    pub elo: f64,
}

impl MatchResult {
    fn add_pair(&mut self, a: f64, b: f64) {
        for s in [a, b] {
            match (s * 2.0).round() as i64 {
                0 => self.games.losses += 1,
                1 => self.games.draws += 1,
                _ => self.games.wins += 1,
            }
        }
        self.pairs.add_pair(a, b);
        let n = self.games.games().max(1) as f64;
        self.score = self.games.points() / n;
        self.elo = score_to_elo(self.score.clamp(0.01, 0.99));
    }
}

/// Plays `pairs` colour-swapped pairs of `a` against `b`; after each pair `on_pair` sees the
/// running result and the pair's two scores, and stops the match by returning false.
pub fn play_match(
    a: &mut dyn Contestant,
    b: &mut dyn Contestant,
    variant: Variant,
    pairs: u32,
    ply_cap: u32,
    seed: u64,
    on_pair: &mut dyn FnMut(&MatchResult, (f64, f64)) -> bool,
) -> Result<MatchResult, TrainError> {
    let mut res = MatchResult { opponent: b.name(), ..MatchResult::default() };
    for p in 0..pairs {
        let start = random_opening(variant, 2, mix_seed(&[seed, p as u64]));
        let first = score_for(play_game(a, b, &start, ply_cap)?, Color::White);
        let second = score_for(play_game(b, a, &start, ply_cap)?, Color::Black);
        res.add_pair(first, second);
        if !on_pair(&res, (first, second)) {
            break;
        }
    }
    Ok(res)
}

/// The outcome of gating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateResult {
    /// The candidate generation.
    pub candidate: u32,
    /// The best generation it played.
    pub best: u32,
    /// Accepted as the new best.
    pub accepted: bool,
    /// The match.
    pub result: MatchResult,
    /// The SPRT's last log-likelihood ratio.
    pub llr: f64,
    /// The SPRT decision (`Continue` when the game limit decided by score).
    pub decision: Decision,
}

/// SPRT gating of `candidate` against `best`: pairs until the test decides or `max_games` are
/// played (then a score of at least 50% accepts).
#[allow(clippy::too_many_arguments)]
pub fn gate(
    candidate: &mut dyn Contestant,
    best: &mut dyn Contestant,
    ids: (u32, u32),
    variant: Variant,
    elo: (f64, f64),
    alpha: f64,
    max_games: u32,
    ply_cap: u32,
    seed: u64,
) -> Result<GateResult, TrainError> {
    let config = SprtConfig { elo0: elo.0, elo1: elo.1, alpha, beta: alpha, data: SprtData::Pentanomial };
    let mut sprt = Sprt::new(config).map_err(|e| TrainError::Player(e.to_string()))?;
    let result = play_match(candidate, best, variant, max_games.div_ceil(2), ply_cap, seed, &mut |_, (a, b)| {
        sprt.add_pair(a, b);
        sprt.decision() == Decision::Continue
    })?;
    let decision = sprt.decision();
    let accepted = match decision {
        Decision::AcceptH1 => true,
        Decision::AcceptH0 => false,
        Decision::Continue => result.score >= 0.5,
    };
    Ok(GateResult { candidate: ids.0, best: ids.1, accepted, result, llr: sprt.llr(), decision })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::UniformEvaluator;

    #[test]
    fn a_network_player_beats_or_holds_a_random_mover_and_pairs_are_counted() {
        let v = Variant::default();
        let mut net = NetPlayer::new("net", Box::new(UniformEvaluator::new()), 16, 8);
        let mut rnd = RandomMover::new(1);
        let r = play_match(&mut net, &mut rnd, v, 2, 60, 3, &mut |_, _| true).unwrap();
        assert_eq!(r.games.games(), 4);
        assert_eq!(r.pairs.pairs(), 2);
        assert!((0.0..=1.0).contains(&r.score));
    }

    #[test]
    fn gating_decides_within_the_game_limit() {
        let v = Variant::default();
        let mut a = RandomMover::new(1);
        let mut b = RandomMover::new(2);
        let g = gate(&mut a, &mut b, (1, 0), v, (0.0, 50.0), 0.1, 6, 30, 4).unwrap();
        assert!(g.result.games.games() <= 6);
        let e = build_opponent("nonsense", 0).err().unwrap().to_string();
        assert!(e.contains("unknown player kind") && !e.contains('\n'), "{e}");
        let mut ab = build_opponent("ab:depth=1", 0).unwrap();
        let mut rnd = RandomMover::new(5);
        let r = play_match(ab.as_mut(), &mut rnd, v, 1, 40, 1, &mut |_, _| true).unwrap();
        assert_eq!(r.games.games(), 2);
        assert_eq!(r.opponent, "random");
    }
}
