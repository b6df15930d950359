//! Bootstrap: supervised pre-training on alpha-beta games before self-play starts, so the first
//! generations are not random.
//!
//! The engine (`bootstrap.engine`, a player spec such as `ab:depth=1`) plays `bootstrap.games`
//! games against itself from random openings (`bootstrap.random_opening_plies` plies). Every
//! position it moves in becomes a sample in the ordinary record schema, written to
//! `shards/bootstrap/ab-IIIIII.shard`:
//! - policy target: the engine's move with probability `1 − s`, the other legal moves sharing
//!   `s = bootstrap.policy_smoothing` (a softened one-hot);
//! - `root_wdl`: the engine's score as a win expectation `E = 1 / (1 + e^(−cp / score_scale))`
//!   (mates: 1 or 0), written as `[E, 0, 1 − E]`; the replay mixes it into the value target with
//!   weight `bootstrap.score_weight`, the rest being the game result;
//! - `nn_wdl`: neutral (no network played).
//!
//! Shards are written one per chunk of `selfplay.games_per_shard` games, chunks played in
//! parallel (one engine per chunk) and each seeded by its index, so a killed bootstrap replays
//! only the chunks whose shard is missing. Training on them (`bootstrap.steps` steps) is the
//! generation loop's ordinary training, from step 0.

use super::rundir::RunDir;
use super::{mix_seed, TrainError};
use crate::config::TrainConfig;
use crate::eval::openings::random_opening;
use crate::nn::evaluator::NEUTRAL_WDL;
use crate::player::PlayerSpec;
use crate::rules::game::{outcome, prior_occurrences};
use crate::rules::Position;
use crate::selfplay::records::{SetupRecord, Termination, VariantRecord};
use crate::selfplay::{write_shard, GameRecord, GameResult, PositionRecord};
use rayon::prelude::*;

/// The win expectation of an engine score (side to move's view).
pub fn score_to_expectation(score: crate::engine::Score, scale: f32) -> f32 {
    match (score.centipawns(), score.mate_in()) {
        (Some(cp), _) => 1.0 / (1.0 + (-(cp as f32) / scale).exp()),
        (None, Some(n)) if n > 0 => 1.0,
        _ => 0.0,
    }
}

/// Plays one engine game from `start`.
fn play_game(spec: &PlayerSpec, cfg: &TrainConfig, start: Position, index: u64) -> Result<GameRecord, TrainError> {
    let b = &cfg.bootstrap;
    let mut player = spec.build().map_err(|e| TrainError::Player(e.to_string()))?;
    player.new_game();
    let setup = start.to_setup();
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut moves_played: Vec<u32> = Vec::new();
    let mut positions = Vec::new();
    let (result, termination) = loop {
        let moves = pos.legal_moves();
        let reps = prior_occurrences(&history, pos.hash(), pos.halfmove());
        if let Some(o) = outcome(&pos, !moves.is_empty(), reps as usize + 1) {
            break (GameResult::from_outcome(o), o.rule.into());
        }
        if moves_played.len() as u32 >= b.ply_cap {
            break (GameResult::Draw, Termination::PlyCap);
        }
        let choice = player.choose(&pos, &history).map_err(|e| TrainError::Player(e.to_string()))?;
        let e = choice.info.score.map_or(0.5, |s| score_to_expectation(s, b.score_scale));
        if moves.len() > 1 {
            let rest = b.policy_smoothing / (moves.len() - 1) as f32;
            let policy = moves
                .iter()
                .map(|m| (m.bits(), if *m == choice.mv { 1.0 - b.policy_smoothing } else { rest }))
                .collect();
            positions.push(PositionRecord {
                ply: moves_played.len() as u32,
                policy,
                root_wdl: [e, 0.0, 1.0 - e],
                nn_wdl: NEUTRAL_WDL,
                simulations: 0,
            });
        }
        history.push(pos.hash());
        moves_played.push(choice.mv.bits());
        pos.make(choice.mv);
    };
    Ok(GameRecord {
        variant: VariantRecord::from_variant(pos.variant()),
        start: SetupRecord::from_setup(&setup),
        moves: moves_played,
        positions,
        result,
        termination,
        resign_disabled: true,
        would_resign_ply: None,
        game_index: index,
        evaluator: spec.to_string(),
    })
}

/// Plays the bootstrap games not yet on disk; returns the games played now.
pub fn play_games(run: &RunDir, cfg: &TrainConfig, on_chunk: &(dyn Fn() + Sync)) -> Result<u64, TrainError> {
    let b = &cfg.bootstrap;
    let spec: PlayerSpec = b
        .engine
        .parse()
        .map_err(|e: crate::player::SpecError| TrainError::Player(e.to_string().replace('\n', "; ")))?;
    spec.build().map_err(|e| TrainError::Player(e.to_string()))?;
    let dir = run.bootstrap_dir();
    std::fs::create_dir_all(&dir).map_err(|e| TrainError::io(&dir, e))?;
    let variant = cfg.variant()?;
    let per = cfg.selfplay.games_per_shard as u64;
    let chunks = b.games.div_ceil(per);
    let todo: Vec<u64> = (0..chunks).filter(|c| !dir.join(format!("ab-{c:06}.shard")).exists()).collect();
    let played: Result<Vec<u64>, TrainError> = todo
        .par_iter()
        .map(|&c| {
            let games: Result<Vec<GameRecord>, TrainError> = (c * per..((c + 1) * per).min(b.games))
                .map(|i| {
                    let start = random_opening(
                        &Position::startpos(variant),
                        b.random_opening_plies as usize,
                        mix_seed(&[cfg.seed, 0x626f_6f74]),
                        i,
                    )
                    .map_err(|e| TrainError::Player(e.to_string()))?
                    .position();
                    play_game(&spec, cfg, start, i)
                })
                .collect();
            let games = games?;
            write_shard(&dir.join(format!("ab-{c:06}.shard")), &games)?;
            on_chunk();
            Ok(games.len() as u64)
        })
        .collect();
    Ok(played?.iter().sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;
    use crate::train::replay::game_samples;

    #[test]
    fn scores_map_to_expectations() {
        assert!((score_to_expectation(Score(0), 400.0) - 0.5).abs() < 1e-6);
        assert!((score_to_expectation(Score(400), 400.0) - 0.731).abs() < 1e-3);
        assert_eq!(score_to_expectation(Score(crate::engine::score::mate_in(3)), 400.0), 1.0);
        assert_eq!(score_to_expectation(Score(crate::engine::score::mated_in(2)), 400.0), 0.0);
    }

    #[test]
    fn engine_games_become_samples_with_soft_targets() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let mut cfg = TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", &[]).unwrap();
        cfg.bootstrap.games = 3;
        cfg.bootstrap.ply_cap = 12;
        assert_eq!(play_games(&run, &cfg, &|| {}).unwrap(), 3);
        assert_eq!(play_games(&run, &cfg, &|| {}).unwrap(), 0, "resumes: nothing left to play");
        let files = crate::train::replay::shard_files(&run.bootstrap_dir());
        assert_eq!(files.len(), 2);
        let games: Vec<GameRecord> = files.iter().flat_map(|f| crate::selfplay::read_shard(f).unwrap()).collect();
        assert_eq!(games.len(), 3);
        for g in &games {
            let s = game_samples(g, 0.5).unwrap();
            assert!(!s.is_empty());
            for x in &s {
                let top = x.policy.iter().map(|p| p.1).fold(0.0, f32::max);
                assert!((top - 0.9).abs() < 1e-6, "{top}");
            }
        }
        assert!(play_games(
            &run,
            &TrainConfig {
                bootstrap: crate::config::BootstrapSection { engine: "xyz".into(), ..cfg.bootstrap.clone() },
                ..cfg.clone()
            },
            &|| {}
        )
        .is_err());
    }
}
