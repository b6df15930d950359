//! Self-play into a run's shards: the trainer's own games and those of extra workers
//! (`fiveup selfplay --run DIR`).
//!
//! A worker plays with the network the `best` pointer names and writes
//! `shards/gen-NNNN/WORKER-IIIIII.shard` for the generation `state.json` names, numbering its
//! shards after the highest index of its own name already there. Games are played in chunks of
//! `selfplay.concurrent_games`; each chunk's random stream is seeded by the run seed, the
//! generation, the worker name and the chunk's first shard index, so a restarted worker plays new
//! games rather than the same ones again.

use super::learner::load_evaluator;
use super::replay::shard_files;
use super::rundir::{Phase, RunDir};
use super::{mix_seed, TrainError};
use crate::config::{SearchAlgo, TrainConfig};
use crate::mcts::{SearchConfig, SearchKind};
use crate::nn::{EvalCache, Evaluator};
use crate::selfplay::shards::HEADER_LEN;
use crate::selfplay::{self, Progress, ResignConfig, SelfPlayConfig, ShardWriter};
use std::io::Read;
use std::path::Path;

/// Games recorded in a shard, from its header (0 for an unreadable file).
pub fn shard_game_count(path: &Path) -> u64 {
    let mut h = [0u8; HEADER_LEN];
    match std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut h)) {
        Ok(()) if h[..8] == selfplay::shards::MAGIC => u64::from_le_bytes(h[12..20].try_into().expect("8 bytes")),
        _ => 0,
    }
}

/// Games in all shards of a directory.
pub fn count_games(dir: &Path) -> u64 {
    shard_files(dir).iter().map(|p| shard_game_count(p)).sum()
}

/// The next free shard index of `worker` in `dir`.
pub fn next_shard_index(dir: &Path, worker: &str) -> u64 {
    let prefix = format!("{worker}-");
    shard_files(dir)
        .iter()
        .filter_map(|p| p.file_stem()?.to_str()?.strip_prefix(&prefix)?.parse::<u64>().ok())
        .max()
        .map_or(0, |i| i + 1)
}

/// The self-play driver's settings for `games` games with stream `seed`.
pub fn selfplay_config(cfg: &TrainConfig, games: u64, seed: u64) -> Result<SelfPlayConfig, TrainError> {
    let s = &cfg.selfplay;
    let search = SearchConfig {
        kind: match s.search {
            SearchAlgo::Gumbel => SearchKind::Gumbel,
            SearchAlgo::Puct => SearchKind::Puct,
        },
        max_batch: s.max_batch,
        gumbel_m: s.gumbel_m,
        ..SearchConfig::default()
    };
    Ok(SelfPlayConfig {
        variant: cfg.variant()?,
        start: None,
        concurrent_games: s.concurrent_games,
        total_games: games,
        seed,
        search,
        full_simulations: s.full_simulations,
        cheap_simulations: s.cheap_simulations,
        full_search_prob: s.full_search_prob,
        random_opening_plies: s.random_opening_plies,
        temperature_plies: s.temperature_plies,
        temperature: s.temperature,
        ply_cap: s.ply_cap,
        ply_cap_adjudicate: s.ply_cap_adjudicate,
        resign: ResignConfig {
            loss: s.resign_loss,
            consecutive: s.resign_consecutive,
            playthrough_fraction: s.resign_playthrough,
        },
    })
}

/// Plays one chunk of `games` games for generation `generation` as `worker` into the run's
/// shards; returns the driver's counters.
pub fn play_chunk(
    run: &RunDir,
    cfg: &TrainConfig,
    generation: u32,
    worker: &str,
    evaluator: &mut dyn Evaluator,
    games: u64,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Progress, TrainError> {
    let dir = run.shard_dir(generation);
    let first = next_shard_index(&dir, worker);
    let seed = mix_seed(&[cfg.seed, generation as u64, fnv(worker), first]);
    let sp = selfplay_config(cfg, games, seed)?;
    let mut writer = ShardWriter::new(&dir, worker, cfg.selfplay.games_per_shard, first)?;
    let mut failure: Option<TrainError> = None;
    let prog = selfplay::run(
        &sp,
        evaluator,
        &mut |g| {
            if failure.is_none() {
                if let Err(e) = writer.push(g) {
                    failure = Some(e.into());
                }
            }
        },
        on_progress,
    )
    .map_err(|e| TrainError::Backend(e.to_string()))?;
    if let Some(e) = failure {
        return Err(e);
    }
    writer.flush()?;
    Ok(prog)
}

/// A stable number for a worker name: its value must never change (a resumed run replays the same
/// seeds), so it stays FNV-1a 64 ([`crate::fsutil::legacy`]).
fn fnv(s: &str) -> u64 {
    crate::fsutil::legacy::fnv1a64(s.as_bytes())
}

/// The evaluator self-play uses: the best network behind a cache.
pub fn best_evaluator(run: &RunDir, cfg: &TrainConfig) -> Result<(u32, Box<dyn Evaluator>), TrainError> {
    let best = run.read_best()?.ok_or_else(|| TrainError::Corrupt {
        path: run.best_path(),
        detail: "missing: no network has been published yet (start `fiveup train` on this run first)".into(),
    })?;
    let ev = with_quiescence(cfg, load_evaluator(cfg, &run.model_dir(best))?);
    Ok((best, Box::new(EvalCache::new(ev, 1 << 18))))
}

/// `ev` with the config's quiescence correction (`selfplay.quiescence`), when it is on.
pub fn with_quiescence(cfg: &TrainConfig, ev: Box<dyn Evaluator>) -> Box<dyn Evaluator> {
    let w = cfg.selfplay.quiescence;
    if w > 0.0 {
        Box::new(crate::mcts::QuiescenceEvaluator::new(ev, w))
    } else {
        ev
    }
}

/// Options of an extra self-play worker.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Its name in shard file names (letters, digits, `_`, `-`).
    pub name: String,
    /// Stop after this many games (`None`: until the run is finished).
    pub max_games: Option<u64>,
    /// Seconds to wait between polls when there is nothing to do.
    pub poll_seconds: f64,
}

/// An extra self-play worker: plays chunks with the newest best network into the generation in
/// progress until the run is finished (or `max_games` are played). Returns the games played.
pub fn run_worker(run: &RunDir, opts: &WorkerOptions) -> Result<u64, TrainError> {
    if opts.name.is_empty()
        || !opts.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        || opts.name == "trainer"
    {
        return Err(TrainError::Player(format!(
            "worker name {:?}: use letters, digits, '_' and '-' (and not \"trainer\")",
            opts.name
        )));
    }
    let cfg = run.frozen_config()?.ok_or_else(|| {
        let started = run.state_path().exists() || !super::checkpoint::list(run).is_empty();
        TrainError::Invalid {
            path: run.config_path(),
            detail: if started {
                format!(
                    "missing: run `fiveup train --run {}` once to rebuild it from the newest checkpoint",
                    run.root().display()
                )
            } else {
                "missing: not a run directory (start `fiveup train` on it first)".into()
            },
        }
    })?;
    let mut played = 0u64;
    let mut current: Option<(u32, Box<dyn Evaluator>)> = None;
    let mut waiting = Waiting::default();
    loop {
        if opts.max_games.is_some_and(|m| played >= m) {
            return Ok(played);
        }
        let state = run.read_state()?;
        let started = state.is_some();
        let Some(state) = state.filter(|s| s.phase != Phase::Bootstrap) else {
            waiting.say(&opts.name, &wait_reason(run, started, &cfg));
            std::thread::sleep(std::time::Duration::from_secs_f64(opts.poll_seconds));
            continue;
        };
        if state.phase == Phase::Finished {
            return Ok(played);
        }
        let best = run.read_best()?;
        if best.is_some() && current.as_ref().map(|c| c.0) != best {
            let (g, ev) = best_evaluator(run, &cfg)?;
            tracing::info!("worker {}: playing with gen-{g:04}", opts.name);
            current = Some((g, ev));
        }
        let Some((_, ev)) = current.as_mut() else {
            waiting.say(&opts.name, "the trainer to publish its first network (best)");
            std::thread::sleep(std::time::Duration::from_secs_f64(opts.poll_seconds));
            continue;
        };
        let mut n = cfg.selfplay.concurrent_games as u64;
        if let Some(m) = opts.max_games {
            n = n.min(m - played);
        }
        waiting = Waiting::default();
        let bar = crate::progress::Progress::new(n, &format!("worker {} gen {}", opts.name, state.generation), "games");
        bar.resume_at(0);
        let prog = play_chunk(run, &cfg, state.generation, &opts.name, ev.as_mut(), n, &mut |p| {
            bar.set_position(p.games.min(n));
        })?;
        bar.finish();
        played += prog.games;
        tracing::info!("worker {}: gen {} {}", opts.name, state.generation, prog.line());
    }
}

/// What a worker waits for while the run has no network to play with: the trainer's start, or its
/// bootstrap (with the bootstrap's progress as far as the files tell).
fn wait_reason(run: &RunDir, started: bool, cfg: &TrainConfig) -> String {
    if !started {
        return format!("the trainer to start on {} (no state.json yet)", run.root().display());
    }
    let shards = shard_files(&run.bootstrap_dir()).len() as u64;
    let games = (shards * cfg.selfplay.games_per_shard as u64).min(cfg.bootstrap.games);
    format!(
        "the trainer's bootstrap: {games}/{} engine games on disk, then {} training steps, then network 0",
        cfg.bootstrap.games, cfg.bootstrap.steps
    )
}

/// Says what an idle worker waits for: at once, then every [`crate::progress::LOG_INTERVAL`], and
/// again as soon as the reason changes.
#[derive(Default)]
struct Waiting {
    last: Option<(std::time::Instant, String)>,
}

impl Waiting {
    fn say(&mut self, worker: &str, reason: &str) {
        if let Some(line) = self.due(worker, reason, std::time::Instant::now()) {
            tracing::info!("{line}");
        }
    }

    /// The line to write at `now`, if one is due.
    fn due(&mut self, worker: &str, reason: &str, now: std::time::Instant) -> Option<String> {
        let stale = |(t, r): &(std::time::Instant, String)| {
            now.duration_since(*t) >= crate::progress::LOG_INTERVAL || r != reason
        };
        if self.last.as_ref().is_some_and(|l| !stale(l)) {
            return None;
        }
        self.last = Some((now, reason.to_string()));
        Some(format!("worker {worker}: waiting for {reason}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::UniformEvaluator;

    #[test]
    fn a_worker_on_a_started_run_without_config_says_how_to_rebuild_it() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let opts = WorkerOptions { name: "w1".into(), max_games: Some(1), poll_seconds: 0.01 };
        let e = run_worker(&run, &opts).unwrap_err().to_string();
        assert!(e.contains("not a run directory"), "{e}");
        run.write_state(&crate::train::RunState::new(false)).unwrap();
        let e = run_worker(&run, &opts).unwrap_err().to_string();
        assert!(e.contains("config.toml: missing: run `fiveup train --run") && !e.contains("corrupt"), "{e}");
    }

    #[test]
    fn worker_seeds_are_pinned() {
        // Seeds of self-play chunks: a change would make a resumed run play other games.
        assert_eq!(fnv("w0"), 0x08cb_8607_b56d_7952);
        assert_eq!(fnv("main"), 0x1f59_62a2_ce98_03c8);
    }

    #[test]
    fn chunks_count_and_number_their_shards() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let cfg =
            TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", &["network.backend=none".into()])
                .unwrap();
        let mut ev = UniformEvaluator::new();
        play_chunk(&run, &cfg, 0, "a", &mut ev, 3, &mut |_| {}).unwrap();
        let dir = run.shard_dir(0);
        assert_eq!(count_games(&dir), 3);
        assert_eq!(next_shard_index(&dir, "a"), 2, "2 games per shard: shards 0 and 1");
        assert_eq!(next_shard_index(&dir, "b"), 0);
        play_chunk(&run, &cfg, 0, "a", &mut ev, 1, &mut |_| {}).unwrap();
        assert_eq!(count_games(&dir), 4);
        assert_eq!(next_shard_index(&dir, "a"), 3);
    }

    #[test]
    fn an_idle_worker_says_what_it_waits_for_periodically() {
        let mut w = Waiting::default();
        let t0 = std::time::Instant::now();
        assert_eq!(w.due("w1", "network 0", t0).as_deref(), Some("worker w1: waiting for network 0"));
        assert_eq!(w.due("w1", "network 0", t0 + std::time::Duration::from_secs(5)), None);
        assert!(w.due("w1", "the bootstrap", t0 + std::time::Duration::from_secs(6)).is_some(), "a new reason");
        assert!(w.due("w1", "the bootstrap", t0 + std::time::Duration::from_secs(40)).is_some(), "30 s later");
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        let cfg = TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", &[]).unwrap();
        assert!(wait_reason(&run, false, &cfg).contains("no state.json yet"));
        let r = wait_reason(&run, true, &cfg);
        assert!(r.starts_with("the trainer's bootstrap: 0/") && r.contains("training steps"), "{r}");
    }
}
