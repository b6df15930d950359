//! Bootstrap (distillation): supervised pre-training on positions labelled by the alpha-beta
//! engine before self-play starts, so that the first network already knows material, captures
//! and the engine's sense of a good move.
//!
//! The engine (`bootstrap.engine`, a player spec such as `ab:nodes=3000,hash=1`) plays
//! `bootstrap.games` games against itself, each from its own random opening of
//! `bootstrap.random_opening_plies` plies (varied openings), through the project's one game runner
//! ([`crate::eval::runner::play_game_observed`]: the same rules, ply cap and end rules as every
//! match). Every position it searched with more than one legal move becomes a sample in the
//! ordinary record schema ([`crate::selfplay::records`], version 2 and later), written to
//! `shards/bootstrap/ab-IIIIII.shard`:
//! - `policy`: the engine's move alone; training spreads `bootstrap.policy_smoothing` of the mass
//!   over the other legal moves (label smoothing, [`crate::train::replay::Sample::smoothing`]);
//! - `engine_score`: the engine's score; training maps it to a win expectation
//!   `E = 1 / (1 + e^(−cp / bootstrap.score_scale))` and mixes it into the value target with
//!   weight `bootstrap.score_weight`, the rest being the game result;
//! - `root_wdl`: the same score at the schema's fixed scale (informative); `nn_wdl`: neutral.
//!
//! Games are written one shard per chunk of `selfplay.games_per_shard` games; chunks are played in
//! parallel on every core (rayon), each game seeded by its index, so a killed bootstrap replays
//! only the chunks whose shard is missing and the data do not depend on the thread count. A stop
//! request ([`crate::train::request_stop`]) is honoured between games: no new game starts, and
//! chunks not finished write no shard (their games are replayed alike on resume).
//! The engine's fixed node budget makes its games reproducible. Training on them
//! (`bootstrap.steps` steps) is the generation loop's ordinary training; afterwards bootstrap
//! samples keep a decaying share of each batch ([`crate::train::replay`]).

use super::rundir::RunDir;
use super::TrainError;
use crate::eval::openings::random_opening;
use crate::eval::runner::{play_game_observed, GameJob, PlayerSource};
use crate::nn::evaluator::NEUTRAL_WDL;
use crate::player::spec::PlayerSpec;
use crate::rng::mix_seed;
use crate::rules::Position;
use crate::selfplay::records::{score_to_wdl, SetupRecord, VariantRecord};
use crate::selfplay::{write_shard, GameRecord, GameResult, PositionRecord};
use crate::train::config::TrainConfig;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// One engine game from `opening`, every searched position with more than one legal move
/// recorded with the engine's move and score. `max_plies` caps the whole game (opening included).
pub fn engine_game(
    engine: &PlayerSource,
    opening: crate::eval::openings::Opening,
    max_plies: usize,
    index: u64,
) -> Result<GameRecord, TrainError> {
    engine_game_with(engine, opening, max_plies, index, "bootstrap", &|pos, _| pos.legal_moves().len() > 1)
}

/// [`engine_game`] with the record's event and the filter of recorded positions: a searched
/// position (with a score) is recorded when `keep(position, the engine's choice)` holds.
pub fn engine_game_with(
    engine: &PlayerSource,
    opening: crate::eval::openings::Opening,
    max_plies: usize,
    index: u64,
    event: &str,
    keep: &dyn Fn(&Position, &crate::player::Choice) -> bool,
) -> Result<GameRecord, TrainError> {
    let setup = opening.start.to_setup();
    let variant = opening.start.variant();
    let job = GameJob {
        live: None,
        adjudicate: None,
        tc: None,
        white: engine.clone(),
        black: engine.clone(),
        opening,
        max_plies: Some(max_plies),
        event: event.into(),
        tags: Vec::new(),
    };
    let mut positions = Vec::new();
    let mut ply = job.opening.moves.len() as u32;
    let rec = play_game_observed(&job, &mut |pos: &Position, choice| {
        if keep(pos, choice) {
            if let Some(score) = choice.info.score {
                positions.push(PositionRecord {
                    ply,
                    policy: vec![(choice.mv.bits(), 1.0)],
                    root_wdl: score_to_wdl(score.0),
                    nn_wdl: NEUTRAL_WDL,
                    simulations: choice.info.nodes.min(u32::MAX as u64) as u32,
                    engine_score: Some(score.0),
                });
            }
        }
        ply += 1;
    })
    .map_err(|e| TrainError::Player(e.to_string()))?;
    let outcome = rec.outcome.expect("the runner always ends a game with an outcome");
    let result = GameResult::from_outcome(outcome);
    Ok(GameRecord {
        variant: VariantRecord::from_variant(variant),
        start: SetupRecord::from_setup(&setup),
        moves: rec.moves.iter().map(|m| m.bits()).collect(),
        positions,
        result,
        termination: outcome.rule.into(),
        resign_disabled: true,
        would_resign_ply: None,
        game_index: index,
        evaluator: engine.name(),
    })
}

/// The alpha-beta player spec `text` of config key `key`, parsed, checked to be `ab:...` and
/// built once (so a bad values file fails now); errors name the key.
pub fn alpha_beta_spec(key: &str, text: &str) -> Result<PlayerSpec, TrainError> {
    let spec: PlayerSpec =
        text.parse().map_err(|e: crate::player::spec::SpecError| TrainError::Player(format!("{key}: {}", e.reason)))?;
    if !matches!(spec, PlayerSpec::AlphaBeta(_)) {
        return Err(TrainError::Player(format!("{key} = {text:?}: expected an alpha-beta engine spec (ab:...)")));
    }
    spec.build().map_err(|e| TrainError::Player(format!("{key}: {e}")))?;
    Ok(spec)
}

/// The bootstrap engine of a config, checked.
pub fn engine_source(cfg: &TrainConfig) -> Result<PlayerSource, TrainError> {
    Ok(alpha_beta_spec("bootstrap.engine", &cfg.bootstrap.engine)?.into())
}

/// What [`play_games`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BootstrapStats {
    /// Games played now.
    pub games: u64,
    /// Positions recorded now.
    pub positions: u64,
}

/// Plays the bootstrap games not yet on disk; `on_chunk(games, positions)` is called as each
/// chunk's shard is written. Returns what was played now.
pub fn play_games(
    run: &RunDir,
    cfg: &TrainConfig,
    on_chunk: &(dyn Fn(u64, u64) + Sync),
) -> Result<BootstrapStats, TrainError> {
    let b = &cfg.bootstrap;
    let engine = engine_source(cfg)?;
    let dir = run.bootstrap_dir();
    std::fs::create_dir_all(&dir).map_err(|e| TrainError::io(&dir, e))?;
    let start = Position::startpos(cfg.variant()?);
    let per = cfg.selfplay.games_per_shard as u64;
    let chunks = b.games.div_ceil(per);
    let todo: Vec<u64> = (0..chunks).filter(|c| !dir.join(format!("ab-{c:06}.shard")).exists()).collect();
    let seed = mix_seed(&[cfg.seed, 0x626f_6f74]);
    let max_plies = (b.random_opening_plies + b.ply_cap) as usize;
    let positions = AtomicU64::new(0);
    let played: Result<Vec<u64>, TrainError> = todo
        .par_iter()
        .map(|&c| {
            if super::stop_requested() {
                return Ok(0);
            }
            let games: Result<Vec<GameRecord>, TrainError> = (c * per..((c + 1) * per).min(b.games))
                .map(|i| {
                    if super::stop_requested() {
                        return Err(TrainError::Interrupted { generation: 0, step: 0 });
                    }
                    let opening = random_opening(&start, b.random_opening_plies as usize, seed, i)
                        .map_err(|e| TrainError::Player(e.to_string()))?;
                    engine_game(&engine, opening, max_plies, i)
                })
                .collect();
            let games = match games {
                Err(TrainError::Interrupted { .. }) => return Ok(0),
                g => g?,
            };
            write_shard(&dir.join(format!("ab-{c:06}.shard")), &games)?;
            let n: u64 = games.iter().map(|g| g.positions.len() as u64).sum();
            positions.fetch_add(n, Ordering::Relaxed);
            on_chunk(games.len() as u64, n);
            Ok(games.len() as u64)
        })
        .collect();
    Ok(BootstrapStats { games: played?.iter().sum(), positions: positions.load(Ordering::Relaxed) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::replay::{game_samples, Targets};

    #[test]
    fn engine_games_become_samples_with_the_engine_move_and_score() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let mut cfg = TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", &[]).unwrap();
        cfg.bootstrap.games = 3;
        cfg.bootstrap.ply_cap = 12;
        cfg.bootstrap.engine = "ab:nodes=300,hash=1".into();
        let seen = AtomicU64::new(0);
        let stats = play_games(&run, &cfg, &|_, n| {
            seen.fetch_add(n, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(stats.games, 3);
        assert_eq!(stats.positions, seen.load(Ordering::Relaxed));
        assert_eq!(play_games(&run, &cfg, &|_, _| {}).unwrap().games, 0, "resumes: nothing left to play");
        let files = crate::train::replay::shard_files(&run.bootstrap_dir());
        assert_eq!(files.len(), 2);
        let games: Vec<GameRecord> = files.iter().flat_map(|f| crate::selfplay::read_shard(f).unwrap()).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(games.iter().map(|g| g.positions.len() as u64).sum::<u64>(), stats.positions);
        for g in &games {
            // The opening is part of the record; the cap counts the whole game.
            assert!(g.moves.len() <= (cfg.bootstrap.random_opening_plies + 12) as usize);
            assert!(g.positions.iter().all(|p| p.ply >= cfg.bootstrap.random_opening_plies));
            let positions = g.replay().unwrap();
            for p in &g.positions {
                assert_eq!(p.policy.len(), 1);
                assert_eq!(p.policy[0].0, g.moves[p.ply as usize], "the engine's move is the one played");
                assert!(p.engine_score.is_some());
                assert!(positions[p.ply as usize].legal_moves().len() > 1);
            }
            let s = game_samples::<crate::rules::Position>(g, &Targets::bootstrap_of(&cfg)).unwrap();
            assert_eq!(s.len(), g.positions.len());
        }
        let bad = |engine: &str| {
            let mut c = cfg.clone();
            c.bootstrap.engine = engine.into();
            play_games(&run, &c, &|_, _| {}).unwrap_err().to_string()
        };
        assert!(bad("xyz").contains("bootstrap.engine"));
        assert!(bad("random").contains("alpha-beta"));
    }
}
