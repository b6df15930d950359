//! Training data for the NNUE evaluator: the alpha-beta engine plays itself at a fixed node budget
//! from varied openings on every core, and the positions it searched become (position, search
//! score, game result) samples (`fiveup nnue datagen`).
//!
//! - Games are the project's one game runner's, through the bootstrap's engine-game recorder
//!   ([`crate::train::bootstrap::engine_game_with`]); game `i` starts from random opening `i` of
//!   the seed ([`crate::eval::openings::random_opening`]), so a game depends only on the settings
//!   and its index, not on the thread count.
//! - Records are the training-record schema ([`crate::selfplay::records`], version 2; checksummed
//!   shards, [`crate::selfplay::shards`]): per game the start, every move and the result; per kept
//!   position the engine's move, its score (`engine_score`, centipawns for the side to move) and
//!   node count. One shard per `games_per_shard` games, `data-CCCCCC.shard`.
//! - Kept positions, as NNUE trainers filter them: more than one legal move, the side to move not
//!   in check, and the engine's move quiet (no capture or promotion): a position whose best move
//!   wins material is not quiet, and its static value is not the score the search returns.
//! - Resumable: the settings are written to `datagen.toml` first; a rerun with the same settings
//!   plays only the shards that are missing, with other settings it is refused before any game.

use crate::eval::openings::random_opening;
use crate::eval::runner::PlayerSource;
use crate::fsutil::{claim_dir, Claim, ClaimError};
use crate::player::spec::PlayerSpec;
use crate::rules::{Position, Variant};
use crate::selfplay::{write_shard, GameRecord};
use crate::train::bootstrap::engine_game_with;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Settings of a data generation run.
#[derive(Clone, Debug, PartialEq)]
pub struct DatagenConfig {
    /// The engine (an `ab:` spec with a node budget, e.g. `ab:nodes=5000,hash=4`).
    pub engine: String,
    /// Rules of every game.
    pub variant: Variant,
    /// Games in all.
    pub games: u64,
    /// Games per shard file.
    pub games_per_shard: u64,
    /// Random plies before the engine plays.
    pub opening_plies: usize,
    /// Ply cap per game, opening included (a draw by adjudication).
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
}

impl DatagenConfig {
    /// The settings file's text (what a resumed run must match).
    pub fn to_text(&self) -> String {
        format!(
            "# fiveup nnue datagen settings (a rerun must use the same)\nengine = {:?}\nruleset = {:?}\ncastling = {}\nhypercylinder = {}\ngames = {}\ngames_per_shard = {}\nopening_plies = {}\nmax_plies = {}\nseed = {}\n",
            self.engine,
            self.variant.ruleset.name(),
            self.variant.castling,
            self.variant.hypercylinder,
            self.games,
            self.games_per_shard,
            self.opening_plies,
            self.max_plies,
            self.seed
        )
    }

    /// The shard of chunk `c`.
    pub fn shard(dir: &Path, c: u64) -> PathBuf {
        dir.join(format!("data-{c:06}.shard"))
    }

    /// Chunks of `games_per_shard` games.
    pub fn chunks(&self) -> u64 {
        self.games.div_ceil(self.games_per_shard.max(1))
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DatagenStats {
    /// Games played now.
    pub games: u64,
    /// Positions kept now.
    pub positions: u64,
    /// Games already on disk when the run started.
    pub games_before: u64,
}

/// Whether a searched position is kept as a sample (see the module docs).
pub fn keep_position(pos: &Position, choice: &crate::player::Choice) -> bool {
    !pos.in_check() && crate::engine::ordering::is_quiet(pos, choice.mv) && pos.legal_moves().len() > 1
}

/// Why datagen failed; the text is the one line the command line prints.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// `--engine` is not a player spec.
    #[error("--engine: {0}")]
    Spec(String),
    /// `--engine` is not an alpha-beta spec.
    #[error("--engine {0}: expected an alpha-beta spec (ab:...)")]
    NotAlphaBeta(String),
    /// The `--engine` player cannot be built.
    #[error("--engine: {0}")]
    Build(#[source] crate::player::BuildError),
    /// `--games` out of range.
    #[error("--games {0}: expected 1 to 100000000")]
    Games(u64),
    /// `--games-per-shard` out of range.
    #[error("--games-per-shard {0}: expected 1 to 100000")]
    GamesPerShard(u64),
    /// `--opening-plies` and `--max-plies` out of range.
    #[error(
        "--opening-plies {opening} and --max-plies {max}: expected at most 60 opening plies and a cap above them (up to 100000)"
    )]
    Plies {
        /// `--opening-plies`.
        opening: usize,
        /// `--max-plies`.
        max: usize,
    },
    /// The directory holds other settings, or someone else's files.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// The worker threads could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// How many.
        threads: usize,
        /// The cause.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// An opening could not be made.
    #[error(transparent)]
    Opening(#[from] crate::eval::openings::OpeningError),
    /// A game could not be played.
    #[error(transparent)]
    Game(#[from] crate::train::TrainError),
    /// A shard could not be written.
    #[error(transparent)]
    Shard(#[from] crate::selfplay::ShardError),
}

/// Checks the settings and the directory before any game: the engine spec (an `ab:` spec that
/// builds), the numbers, and a `datagen.toml` of another run. Creates the directory and writes the
/// settings file when it is new.
pub fn prepare(dir: &Path, cfg: &DatagenConfig) -> Result<PlayerSource, DatagenError> {
    let spec: PlayerSpec =
        cfg.engine.parse().map_err(|e: crate::player::spec::SpecError| DatagenError::Spec(e.reason))?;
    if !matches!(spec, PlayerSpec::AlphaBeta(_)) {
        return Err(DatagenError::NotAlphaBeta(cfg.engine.clone()));
    }
    spec.build().map_err(DatagenError::Build)?;
    if !(1..=100_000_000).contains(&cfg.games) {
        return Err(DatagenError::Games(cfg.games));
    }
    if !(1..=100_000).contains(&cfg.games_per_shard) {
        return Err(DatagenError::GamesPerShard(cfg.games_per_shard));
    }
    if cfg.opening_plies > 60 || !(1..=100_000).contains(&cfg.max_plies) || cfg.max_plies <= cfg.opening_plies {
        return Err(DatagenError::Plies { opening: cfg.opening_plies, max: cfg.max_plies });
    }
    claim_dir(dir, Claim { job: "a datagen run", file: "datagen.toml" }, &cfg.to_text())?;
    Ok(spec.into())
}

/// Games already played into `dir` (their shards exist): where a resumed run starts.
pub fn games_done(dir: &Path, cfg: &DatagenConfig) -> u64 {
    let per = cfg.games_per_shard;
    (0..cfg.chunks())
        .filter(|&c| DatagenConfig::shard(dir, c).exists())
        .map(|c| ((c + 1) * per).min(cfg.games) - c * per)
        .sum()
}

/// Plays the games whose shard is missing, `threads` at a time; `on_chunk(games, positions)` is
/// called as each shard is written.
pub fn run(
    dir: &Path,
    cfg: &DatagenConfig,
    engine: &PlayerSource,
    threads: usize,
    on_chunk: &(dyn Fn(u64, u64) + Sync),
) -> Result<DatagenStats, DatagenError> {
    let start = Position::startpos(cfg.variant);
    let per = cfg.games_per_shard;
    let todo: Vec<u64> = (0..cfg.chunks()).filter(|&c| !DatagenConfig::shard(dir, c).exists()).collect();
    let games_in = |c: u64| c * per..((c + 1) * per).min(cfg.games);
    let games_before = games_done(dir, cfg);
    let positions = AtomicU64::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|source| DatagenError::Threads { threads, source })?;
    let played: Result<Vec<u64>, DatagenError> = pool.install(|| {
        todo.par_iter()
            .map(|&c| {
                let games: Result<Vec<GameRecord>, DatagenError> = games_in(c)
                    .map(|i| {
                        let opening = random_opening(&start, cfg.opening_plies, cfg.seed, i)?;
                        Ok(engine_game_with(engine, opening, cfg.max_plies, i, "nnue-datagen", &keep_position)?)
                    })
                    .collect();
                let games = games?;
                let path = DatagenConfig::shard(dir, c);
                write_shard(&path, &games)?;
                let n: u64 = games.iter().map(|g| g.positions.len() as u64).sum();
                positions.fetch_add(n, Ordering::Relaxed);
                on_chunk(games.len() as u64, n);
                Ok(games.len() as u64)
            })
            .collect()
    });
    Ok(DatagenStats { games: played?.iter().sum(), positions: positions.load(Ordering::Relaxed), games_before })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;

    fn config() -> DatagenConfig {
        DatagenConfig {
            engine: "ab:nodes=300,hash=1".into(),
            variant: Variant::plain(Ruleset::Raumschach),
            games: 3,
            games_per_shard: 2,
            opening_plies: 4,
            max_plies: 20,
            seed: 1,
        }
    }

    #[test]
    fn datagen_keeps_quiet_scored_positions_and_resumes() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("data");
        let cfg = config();
        let engine = prepare(&dir, &cfg).unwrap();
        let stats = run(&dir, &cfg, &engine, 2, &|_, _| {}).unwrap();
        assert_eq!((stats.games, stats.games_before), (3, 0));
        assert!(stats.positions > 0);
        let mut games = Vec::new();
        for c in 0..2 {
            games.extend(crate::selfplay::read_shard(&DatagenConfig::shard(&dir, c)).unwrap());
        }
        assert_eq!(games.len(), 3);
        for g in &games {
            let positions = g.replay().unwrap();
            for s in &g.positions {
                let p = &positions[s.ply as usize];
                let mv = crate::rules::Move::from_bits(s.policy[0].0).unwrap();
                assert!(!p.in_check() && crate::engine::ordering::is_quiet(p, mv) && s.engine_score.is_some());
            }
        }
        // Resumes: nothing left; a lost shard is played again, the same games.
        let again = run(&dir, &cfg, &engine, 1, &|_, _| {}).unwrap();
        assert_eq!((again.games, again.games_before), (0, 3));
        std::fs::remove_file(DatagenConfig::shard(&dir, 1)).unwrap();
        let redo = run(&dir, &cfg, &engine, 1, &|_, _| {}).unwrap();
        assert_eq!((redo.games, redo.games_before), (1, 2));
        let replayed = crate::selfplay::read_shard(&DatagenConfig::shard(&dir, 1)).unwrap();
        assert_eq!(replayed[0].moves, games[2].moves);
        // Other settings on the same directory, a bad engine, absurd numbers: refused up front.
        let e = prepare(&dir, &DatagenConfig { seed: 2, ..config() }).unwrap_err().to_string();
        assert!(e.contains("holds a datagen run with seed = ") && e.contains("asks for seed = 2"), "{e}");
        for (bad, want) in [
            (DatagenConfig { engine: "random".into(), ..config() }, "alpha-beta"),
            (DatagenConfig { engine: "ab:depth=x".into(), ..config() }, "--engine"),
            (DatagenConfig { games: 0, ..config() }, "--games"),
            (DatagenConfig { max_plies: 3, ..config() }, "--max-plies"),
        ] {
            let e = prepare(&t.path().join("other"), &bad).unwrap_err().to_string();
            assert!(e.contains(want) && !e.contains('\n'), "{want}: {e}");
        }
    }
}
