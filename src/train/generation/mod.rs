//! The generation loop of `fiveup train`: a state machine recorded in `state.json`.
//!
//! ```text
//!            ┌──────────────────────────────── generation g ───────────────────────────────┐
//! bootstrap → selfplay(g) → train(→ target) → publish(g+1) → [gate] → evaluate → report ─┐
//!   (once)        ▲                                                                      │
//!                 └───────────────────────────── g + 1 ──────────────────────────────────┘
//! ```
//!
//! 1. **bootstrap** (once, optional): supervised training on alpha-beta games
//!    ([`super::bootstrap`]), then network 0 is published.
//! 2. **selfplay**: until `shards/gen-g/` holds `games_per_generation` games (from this process
//!    and any extra workers), play chunks with the `best` network.
//! 3. **train**: on entering, the step target is fixed (from the new samples and the
//!    samples-per-position ratio) and recorded; steps run from the newest checkpoint to the target
//!    on batches from the replay window, checkpointing every `checkpoint_every` steps and at the
//!    target.
//! 4. **publish**: the learner's network goes to `models/gen-(g+1)/` (temporary directory, rename).
//! 5. **gate** (optional): SPRT against the best; the candidate becomes `best` only if accepted.
//!    Without gating every new network becomes `best`.
//! 6. **evaluate**: pairs against each rung of the ladder; `eval/gen-(g+1).json` grows rung by
//!    rung, so a resumed run skips the rungs already played.
//! 7. **report**: a `generation` line in `metrics.jsonl`, `plots/progress.png`, and one summary
//!    line on stdout.
//!
//! The gate and the ladder (5, 6) are in [`evaluation`], the report (7) in [`report`]; this file
//! holds the loop and the phases before them.
//!
//! Every phase change is an atomic rewrite of `state.json`, after the phase's own outputs are
//! on disk; so a killed run resumes in the phase it was in, and each phase can tell from its files
//! what it has done already.

use super::arena::opponent_source;
use super::backend::open_learner;
use super::checkpoint;
use super::game::{for_game, ForGame, TrainGame};
use super::learner::{learning_rate, Learner, LrPhase, StepStats};
use super::replay::{bootstrap_share, Pool, Replay, Targets};
use super::rundir::{atomic_write, Phase, RunDir, RunState};
use super::worker::{best_evaluator, count_games, play_chunk};
use super::{heldout, replay, TrainError};
use crate::nn::Evaluator;
use crate::progress::Progress;
use crate::rng::mix_seed;
use crate::store::RunLocation;
use crate::train::config::{Sampling, TrainConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod evaluation;
pub mod report;

use evaluation::read_eval_json;

/// How `fiveup train` was asked to run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// The run directory or object-store URL.
    pub run: RunLocation,
    /// The local cache of a remote run (`None`: [`RunLocation::default_cache`]).
    pub cache: Option<PathBuf>,
    /// The config file (`None`: the run's frozen config, else the embedded default).
    pub config: Option<PathBuf>,
    /// `KEY=VALUE` overrides.
    pub overrides: Vec<String>,
    /// Replace a run's frozen config with a different one.
    pub force_config: bool,
}

/// Resolves the config: the given file, else the run's frozen config, else (a run that lost its
/// `config.toml`) the copy in its newest checkpoint, else the embedded default for a new run. A
/// started run whose config cannot be recovered is refused with the fix (never the defaults).
pub fn resolve_config(run: &RunDir, opts: &TrainOptions) -> Result<TrainConfig, TrainError> {
    Ok(match &opts.config {
        Some(path) => TrainConfig::from_file(path, &opts.overrides)?,
        None if run.config_path().exists() => TrainConfig::from_file(&run.config_path(), &opts.overrides)?,
        None => match recover_config(run)? {
            Some(path) => {
                tracing::warn!(
                    "{} is missing: rebuilt from {} (the config of the newest checkpoint)",
                    run.shown(&run.config_path()).display(),
                    path.display()
                );
                TrainConfig::from_file(&path, &opts.overrides)?
            }
            None => TrainConfig::default_config(&opts.overrides)?,
        },
    })
}

/// For a run directory without `config.toml`: the newest intact checkpoint's copy of it, `None`
/// when the run has not started (no checkpoint, no state), an error with the fix otherwise.
fn recover_config(run: &RunDir) -> Result<Option<PathBuf>, TrainError> {
    let shown = run.shown(&run.config_path());
    let checkpoints = checkpoint::list(run);
    for (_, dir) in checkpoints.iter().rev() {
        let copy = dir.join(checkpoint::CONFIG_FILE);
        if copy.exists() && checkpoint::verify(dir).is_ok() {
            return Ok(Some(copy));
        }
    }
    let started = !checkpoints.is_empty() || run.state_path().exists();
    if !started {
        return Ok(None);
    }
    let hash = match checkpoints.last().map(|(_, d)| checkpoint::verify(d)) {
        Some(Ok(meta)) => format!(" (its checkpoints were written under config hash {})", meta.config_hash),
        _ => String::new(),
    };
    Err(TrainError::Invalid {
        path: shown,
        detail: format!(
            "missing, and no checkpoint keeps a copy{hash}; resume with the config the run was started with: \
             fiveup train --run {} --config FILE (the checkpoints are fine: do not delete them)",
            run.display()
        ),
    })
}

/// Everything the loop carries between phases.
struct Trainer<'a, S> {
    run: RunDir,
    cfg: TrainConfig,
    hash: String,
    learner: Box<dyn Learner>,
    step: u64,
    state: RunState,
    replay: Replay<S>,
    out: &'a mut dyn Write,
    timings: Timings,
}

#[derive(Default)]
struct Timings {
    selfplay: f64,
    train: f64,
    evaluate: f64,
    games_per_sec: f64,
}

/// Runs (or resumes) training in `opts.run`, writing one summary line per generation to `out`.
pub fn run_training(opts: &TrainOptions, out: &mut dyn Write) -> Result<(), TrainError> {
    // A given config and its player specs are checked before the store is contacted.
    if let Some(path) = &opts.config {
        check_players(&TrainConfig::from_file(path, &opts.overrides)?)?;
    }
    let run = RunDir::open(&opts.run, opts.cache.as_deref(), "trainer")?;
    // A remote run: the lease first, then the cache made equal to the store.
    let remote_lock = match run.mirror() {
        Some(_) => Some(pull_remote_run(&run)?),
        None => None,
    };
    run.check_trainer_may_use()?;
    let cfg = resolve_config(&run, opts)?;
    // Every player spec, and the starting network, is checked before the run directory is touched.
    check_players(&cfg)?;
    check_init(&cfg)?;
    /// The rest of the start and the loop, for the config's game.
    struct Train<'a, 'o> {
        opts: &'a TrainOptions,
        run: RunDir,
        remote_lock: Option<super::rundir::RunLock>,
        cfg: TrainConfig,
        out: &'o mut dyn Write,
    }
    impl ForGame for Train<'_, '_> {
        type Output = Result<(), TrainError>;
        fn run<S: TrainGame>(self) -> Self::Output {
            train_game::<S>(self.opts, self.run, self.remote_lock, self.cfg, self.out)
        }
    }
    let game_cfg = cfg.clone();
    for_game(&game_cfg, Train { opts, run, remote_lock, cfg, out })
}

/// [`run_training`] from the creation of the run directory on, for game `S`.
fn train_game<S: TrainGame>(
    opts: &TrainOptions,
    run: RunDir,
    remote_lock: Option<super::rundir::RunLock>,
    cfg: TrainConfig,
    out: &mut dyn Write,
) -> Result<(), TrainError> {
    run.create()?;
    let _lock = match remote_lock {
        Some(l) => l,
        None => run.lock()?,
    };
    run.freeze_config(&cfg, opts.force_config)?;
    run.sync()?;
    run.repair_metrics()?;
    checkpoint::clean_temporaries(&run);
    let hash = cfg.hash();
    let mut learner = open_learner::<S>(&cfg)?;
    let meta = checkpoint::load_latest_of(&run, learner.as_mut(), &[&hash, &cfg.legacy_hash()], opts.force_config)?;
    let step = meta.as_ref().map_or(0, |m| m.step);
    if meta.is_none() && !cfg.network.init.is_empty() {
        // Before any long work: a wrong path or architecture fails here.
        learner.init_from(Path::new(&cfg.network.init))?;
        tracing::info!("network 0 starts from the weights of {}", cfg.network.init);
    }
    run.drop_metrics_after(step)?;
    let mut state = match run.read_state()? {
        Some(s) => s,
        None => {
            // Written at once, so that workers see a started run.
            let s = RunState::new(cfg.bootstrap.enabled);
            run.write_state(&s)?;
            s
        }
    };
    if state.phase == Phase::Finished && state.generation < cfg.generations {
        state.phase = Phase::Selfplay;
    }
    tracing::info!(
        "run {}: {} | generation {} phase {:?} step {step} | {}",
        run.display(),
        learner.describe(),
        state.generation,
        state.phase,
        if meta.is_some() { "resumed from checkpoint" } else { "no checkpoint yet" }
    );
    let replay = Replay::<S>::new(cfg.replay.window_max);
    let mut t = Trainer { run, cfg, hash, learner, step, state, replay, out, timings: Timings::default() };
    t.ensure_heldout().map_err(|e| t.placed(e))?;
    t.run_loop()
}

/// A remote run's start: takes the trainer's lease, refuses a prefix that holds something other
/// than a run, and makes the local cache equal to the store.
fn pull_remote_run(run: &RunDir) -> Result<super::rundir::RunLock, TrainError> {
    let m = run.mirror().expect("a remote run");
    let names: Vec<String> = m.remote().list("")?.into_iter().map(|o| o.name).collect();
    let is_run = |n: &String| n == "config.toml" || n == "state.json" || n.starts_with("checkpoints/");
    let ours = |n: &String| n == crate::store::lease::LEASE || n.starts_with("workers/") || n.starts_with('.');
    if names.iter().any(|n| !ours(n)) && !names.iter().any(is_run) {
        let example = names.iter().find(|n| !ours(n)).cloned().unwrap_or_default();
        return Err(crate::store::StoreError::Foreign {
            url: m.remote().url().to_string(),
            detail: format!(
                "holds {} objects (e.g. {example}) but no fiveup run (no config.toml, state.json or checkpoints): use an empty prefix",
                names.iter().filter(|n| !ours(n)).count()
            ),
        }
        .into());
    }
    m.remote().check_conditional_puts()?;
    let lock = run.lock()?;
    let s = m.pull_all(&super::rundir::check_shard)?;
    tracing::info!(
        "run {}: cache in step with the store ({} files, {:.1} MB downloaded, {} removed, {:.1} s)",
        m.remote().url(),
        s.files,
        s.bytes as f64 / 1e6,
        s.deleted,
        s.seconds
    );
    Ok(lock)
}

/// Parses and checks every player spec of the config (bootstrap engine, held-out engines, ladder)
/// before any long work starts.
pub fn check_players(cfg: &TrainConfig) -> Result<(), TrainError> {
    if cfg.bootstrap.enabled {
        super::bootstrap::engine_source(cfg)?;
    }
    if cfg.heldout.positions > 0 {
        heldout::check_specs(cfg)?;
    }
    struct Ladder<'a>(&'a TrainConfig);
    impl ForGame for Ladder<'_> {
        type Output = Result<(), TrainError>;
        fn run<S: TrainGame>(self) -> Self::Output {
            for spec in &self.0.evaluation.ladder {
                opponent_source::<S>(spec, 0).map_err(|e| match e {
                    TrainError::Player(m) => TrainError::Player(format!("evaluation.ladder: {m}")),
                    other => other,
                })?;
            }
            Ok(())
        }
    }
    for_game(cfg, Ladder(cfg))
}

/// Checks that `network.init`, when set, is a published network of the configured architecture
/// (by loading it into a throw-away learner), before any long work starts.
pub fn check_init(cfg: &TrainConfig) -> Result<(), TrainError> {
    if cfg.network.init.is_empty() {
        return Ok(());
    }
    struct Init<'a>(&'a TrainConfig);
    impl ForGame for Init<'_> {
        type Output = Result<(), TrainError>;
        fn run<S: TrainGame>(self) -> Self::Output {
            let cfg = self.0;
            open_learner::<S>(cfg)?.init_from(Path::new(&cfg.network.init)).map_err(|e| match e {
                TrainError::Backend(m) => TrainError::Backend(format!("network.init: {m}")),
                other => other,
            })
        }
    }
    for_game(cfg, Init(cfg))
}

impl<S: TrainGame> Trainer<'_, S> {
    /// Makes the run's held-out set if the config asks for one and it is missing; an existing
    /// one is read now, so that a damaged set is found before any work rather than after a
    /// generation's, with the fix in the message.
    fn ensure_heldout(&mut self) -> Result<(), TrainError> {
        let n = self.cfg.heldout.positions;
        let path = heldout::heldout_path(&self.run);
        if n == 0 {
            return Ok(());
        }
        if path.exists() {
            return match heldout::load_from(&path) {
                Ok(_) => Ok(()),
                Err(e) => Err(TrainError::Corrupt {
                    path: path.clone(),
                    detail: format!(
                        "{}; delete it and rerun: the run makes a new held-out set (networks measured on \
                         the old one keep their figures in eval/heldout-NNNN.json)",
                        e.to_string().trim_start_matches(&format!("{}: ", path.display()))
                    ),
                }),
            };
        }
        let bar = Progress::new(n, "held-out set", "positions");
        bar.resume_at(0);
        let t0 = Instant::now();
        let got = heldout::ensure(&self.run, &self.cfg, &|have| bar.set_position(have.min(n)))?;
        bar.finish();
        tracing::info!(
            "held-out set: {got} positions of {} labelled by {} in {:.1} s",
            self.cfg.heldout.engine,
            self.cfg.heldout.label,
            t0.elapsed().as_secs_f64()
        );
        Ok(())
    }

    /// The held-out figures of network `g` (measured once, then read from `eval/heldout-g.json`).
    fn heldout_metrics(&mut self, g: u32) -> Result<Option<heldout::HeldoutMetrics>, TrainError> {
        if self.cfg.heldout.positions == 0 {
            return Ok(None);
        }
        let path = self.run.eval_dir().join(format!("heldout-{g:04}.json"));
        if let Some(m) = read_eval_json(&path, "measure")? {
            return Ok(Some(m));
        }
        let items = heldout::load(&self.run)?;
        let m = heldout::measure_network(&self.cfg, &self.run.model_dir(g), &items)?;
        std::fs::create_dir_all(self.run.eval_dir()).map_err(|e| TrainError::io(&self.run.eval_dir(), e))?;
        atomic_write(&path, (serde_json::to_string_pretty(&m).expect("serialises") + "\n").as_bytes())?;
        tracing::info!(
            "gen-{g:04} held-out: top-1 {:.3}, value CE {:.4}, score MSE {:.4} ({} positions)",
            m.policy_top1,
            m.value_ce,
            m.score_mse,
            m.positions
        );
        Ok(Some(m))
    }

    fn set_phase(&mut self, phase: Phase) -> Result<(), TrainError> {
        self.state.phase = phase;
        self.run.write_state(&self.state)
    }

    /// `e`, an interruption given the run's generation and step.
    fn placed(&self, e: TrainError) -> TrainError {
        match e {
            TrainError::Interrupted { .. } => {
                TrainError::Interrupted { generation: self.state.generation, step: self.step }
            }
            e => e,
        }
    }

    /// `Err(Interrupted)` once a stop was requested (see [`super::request_stop`]).
    fn check_stop(&self) -> Result<(), TrainError> {
        if self.run.lease_lost() {
            return Err(crate::store::StoreError::Leased {
                role: "trainer".into(),
                url: self.run.display(),
                holder: "another trainer took over the lease".into(),
                age: 0.0,
            }
            .into());
        }
        if super::stop_requested() {
            return Err(TrainError::Interrupted { generation: self.state.generation, step: self.step });
        }
        Ok(())
    }

    fn run_loop(&mut self) -> Result<(), TrainError> {
        loop {
            self.check_stop()?;
            match self.state.phase {
                Phase::Bootstrap => self.bootstrap()?,
                Phase::Selfplay => {
                    if self.state.generation >= self.cfg.generations {
                        self.set_phase(Phase::Finished)?;
                        continue;
                    }
                    self.selfplay()?
                }
                Phase::Train => self.train()?,
                Phase::Publish => self.publish()?,
                // A match stopped by a request does not know the run's place: say it here.
                Phase::Gate => self.gate().map_err(|e| self.placed(e))?,
                Phase::Evaluate => self.evaluate().map_err(|e| self.placed(e))?,
                Phase::Report => self.report()?,
                Phase::Finished => {
                    tracing::info!("run finished: {} generations", self.state.generation);
                    return Ok(());
                }
            }
        }
    }

    /// Saves a checkpoint at the current step.
    fn checkpoint(&mut self) -> Result<(), TrainError> {
        let t = &self.cfg.training;
        checkpoint::save(
            &self.run,
            self.learner.as_ref(),
            self.step,
            self.state.generation,
            &self.hash,
            t.keep_checkpoints,
        )?;
        self.run.sync()
    }

    /// Publishes the learner's network as generation `g` (skipped when it is already there).
    fn publish_as(&mut self, g: u32) -> Result<(), TrainError> {
        let dir = self.run.model_dir(g);
        if dir.exists() {
            return Ok(());
        }
        let tmp = dir.with_file_name(format!(".tmp-gen-{g:04}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
        self.learner.publish(&tmp)?;
        crate::fsutil::publish_dir(&tmp, &dir).map_err(|e| TrainError::io(&dir, e))?;
        self.run.sync()?;
        tracing::info!("published {}", self.run.shown(&dir).display());
        Ok(())
    }

    fn bootstrap(&mut self) -> Result<(), TrainError> {
        let b = self.cfg.bootstrap.clone();
        let per = self.cfg.selfplay.games_per_shard as u64;
        let done = replay::shard_files(&self.run.bootstrap_dir()).len() as u64;
        let bar = Progress::new(b.games, "bootstrap games", "games");
        bar.resume_at((done * per).min(b.games));
        let t0 = Instant::now();
        let stats = super::bootstrap::play_games(&self.run, &self.cfg, &|games, _| bar.inc(games))?;
        bar.finish();
        self.check_stop()?;
        if stats.games > 0 {
            let secs = t0.elapsed().as_secs_f64();
            let rate = stats.positions as f64 / secs.max(1e-9);
            let threads = rayon::current_num_threads();
            tracing::info!(
                "bootstrap: {} games, {} positions of {} in {secs:.1} s: {rate:.0} positions/s ({:.0} per thread, {threads} threads)",
                stats.games,
                stats.positions,
                b.engine,
                rate / threads as f64
            );
            self.run.append_metrics(&json!({
                "kind": "bootstrap_games", "games": stats.games, "positions": stats.positions,
                "seconds": secs, "positions_per_second": rate, "threads": threads, "engine": b.engine,
            }))?;
        }
        self.load_replay()?;
        tracing::info!("bootstrap pool: {} positions", self.replay.bootstrap_len());
        let peak = if b.lr > 0.0 { b.lr } else { self.cfg.training.lr };
        self.train_steps(b.steps, None, LrPhase::bootstrap(b.steps, peak), 1.0)?;
        self.publish_network_zero()?;
        self.set_phase(Phase::Selfplay)
    }

    /// Network 0 (the bootstrap's, the `network.init` one or the fresh one): checkpointed,
    /// published, measured on the held-out set and made the best.
    fn publish_network_zero(&mut self) -> Result<(), TrainError> {
        self.checkpoint()?;
        self.publish_as(0)?;
        if let Some(m) = self.heldout_metrics(0)? {
            self.run.append_metrics(&json!({
                "kind": "heldout", "generation": 0, "step": self.step, "unix_time": unix_time(),
                "heldout_policy_top1": m.policy_top1, "heldout_value_ce": m.value_ce, "heldout_score_mse": m.score_mse,
            }))?;
        }
        self.run.write_best(0)?;
        self.state.best = 0;
        Ok(())
    }

    fn selfplay(&mut self) -> Result<(), TrainError> {
        let g = self.state.generation;
        if self.run.read_best()?.is_none() {
            // A new run without bootstrap: network 0 is the fresh one or `network.init`'s.
            self.publish_network_zero()?;
        }
        let dir = self.run.shard_dir(g);
        let target = self.cfg.selfplay.games_per_generation;
        self.run.pull_shards(Some(g))?;
        let mut have = count_games(&dir);
        let bar = Progress::new(target, &format!("gen {g} self-play"), "games");
        bar.resume_at(have.min(target));
        let t0 = Instant::now();
        let mut evaluator: Option<(u32, Box<dyn Evaluator<S>>)> = None;
        let mut played = 0u64;
        let mut liveness = super::worker::Liveness::new(have, self.cfg.selfplay.worker_timeout_s);
        while have < target {
            if !self.cfg.selfplay.trainer_plays && liveness.workers_alive(&self.run, have) {
                bar.set_position(have.min(target));
                std::thread::sleep(std::time::Duration::from_secs(1));
                self.check_stop()?;
                self.run.pull_shards(Some(g))?;
                have = count_games(&dir);
                continue;
            }
            self.check_stop()?;
            let best = self.run.read_best()?;
            if evaluator.as_ref().map(|e| e.0) != best {
                evaluator = Some(best_evaluator::<S>(&self.run, &self.cfg)?);
            }
            let (best_gen, ev) = evaluator.as_mut().expect("just loaded");
            self.state.best = *best_gen;
            let n = (target - have).min(self.cfg.selfplay.concurrent_games as u64);
            let base = have;
            let prog = play_chunk(&self.run, &self.cfg, g, "trainer", ev.as_mut(), n, &mut |p| {
                bar.set_position((base + p.games).min(target));
            })?;
            played += prog.games;
            tracing::debug!("gen {g} self-play chunk: {}", prog.line());
            self.run.sync()?;
            liveness.own_games(count_games(&dir));
            self.run.pull_shards(Some(g))?;
            have = count_games(&dir);
            super::worker::log_workers(&self.run, g);
        }
        bar.finish();
        self.record_counted(g)?;
        let secs = t0.elapsed().as_secs_f64();
        self.timings.selfplay = secs;
        self.timings.games_per_sec = played as f64 / secs.max(1e-9);
        // Fix the training target for this generation.
        let new_samples = self.load_replay()?;
        let t = &self.cfg.training;
        let steps = if self.replay.total() < self.cfg.replay.min_samples {
            tracing::info!(
                "gen {g}: {} samples so far, training waits for {}",
                self.replay.total(),
                self.cfg.replay.min_samples
            );
            0
        } else if t.steps_per_generation > 0 {
            t.steps_per_generation
        } else {
            // Each new self-play sample drawn `samples_per_position` times on average: a batch
            // holds (1 − bootstrap share) self-play items.
            let selfplay_items = t.batch_size as f64 * (1.0 - bootstrap_share(&self.cfg, g)).max(0.05);
            ((new_samples as f64 * t.samples_per_position / selfplay_items).ceil() as u64).max(t.min_steps)
        };
        self.state.train_start = self.step;
        self.state.train_target = self.step + steps;
        self.set_phase(Phase::Train)
    }

    /// Records which shards generation `g`'s self-play counted, with their games and each
    /// worker's share, in `eval/selfplay-NNNN.json` (a shard counts once: by its name).
    fn record_counted(&mut self, g: u32) -> Result<(), TrainError> {
        let mut shards = Vec::new();
        let mut by_worker = std::collections::BTreeMap::<String, u64>::new();
        let mut games = 0;
        for path in replay::shard_files(&self.run.shard_dir(g)) {
            let n = super::worker::shard_game_count(&path);
            let name = path.file_name().and_then(|f| f.to_str()).unwrap_or_default().to_string();
            let worker = crate::selfplay::shards::shard_worker(&name).to_string();
            *by_worker.entry(worker).or_default() += n;
            games += n;
            shards.push(json!({"name": name, "games": n}));
        }
        let record = json!({
            "generation": g, "target": self.cfg.selfplay.games_per_generation, "games": games,
            "by_worker": by_worker, "shards": shards,
        });
        let dir = self.run.eval_dir();
        std::fs::create_dir_all(&dir).map_err(|e| TrainError::io(&dir, e))?;
        let path = dir.join(format!("selfplay-{g:04}.json"));
        atomic_write(&path, (serde_json::to_string_pretty(&record).expect("serialises") + "\n").as_bytes())?;
        tracing::info!(
            "gen {g}: self-play counted {games} games from {} shards ({})",
            record["shards"].as_array().map_or(0, Vec::len),
            by_worker.iter().map(|(w, n)| format!("{w} {n}")).collect::<Vec<_>>().join(", ")
        );
        Ok(())
    }

    /// Loads every shard directory up to the current generation; returns the samples of the
    /// current generation's directory.
    fn load_replay(&mut self) -> Result<u64, TrainError> {
        self.run.pull_shards(None)?;
        self.replay.load_dir(&self.run.bootstrap_dir(), &Targets::bootstrap_of(&self.cfg), Pool::Bootstrap)?;
        let targets = Targets::selfplay_of(&self.cfg);
        let mut last = 0;
        for g in 0..=self.state.generation {
            last = self.replay.load_dir(&self.run.shard_dir(g), &targets, Pool::SelfPlay)?;
        }
        // The count of the current generation, also when it was loaded earlier in this process.
        if last == 0 {
            last = replay::shard_files(&self.run.shard_dir(self.state.generation))
                .iter()
                .filter_map(|p| crate::selfplay::read_shard(p).ok())
                .flatten()
                .map(|r| r.positions.len() as u64)
                .sum();
        }
        Ok(last)
    }

    fn train(&mut self) -> Result<(), TrainError> {
        self.load_replay()?;
        let g = self.state.generation;
        // Self-play training warms up again where it takes over from the bootstrap's steps.
        let warmup_from = if self.cfg.bootstrap.enabled { self.cfg.bootstrap.steps } else { 0 };
        let phase =
            LrPhase::generation(&self.cfg.training, self.state.train_start, self.state.train_target, warmup_from);
        self.train_steps(self.state.train_target, Some(g), phase, bootstrap_share(&self.cfg, g))?;
        self.checkpoint()?;
        self.set_phase(Phase::Publish)
    }

    /// Steps from the current step to `target` on the replay window, with the bootstrap pool's
    /// `share` of each batch, under the learning-rate `phase`. `generation` is `None` for the
    /// bootstrap (its metrics lines say so).
    fn train_steps(
        &mut self,
        target: u64,
        generation: Option<u32>,
        phase: LrPhase,
        share: f64,
    ) -> Result<(), TrainError> {
        if self.step >= target {
            return Ok(());
        }
        let tc = self.cfg.training.clone();
        let window = replay::window_size(self.replay.total(), &self.cfg.replay);
        let surprise = (tc.sampling == Sampling::Surprise).then_some(tc.surprise_share);
        let sampler = self.replay.sampler(window, surprise, share);
        let label = generation.map_or("bootstrap".to_string(), |g| format!("gen {g}"));
        if sampler.is_empty() {
            tracing::warn!("{label}: no samples to train on");
            self.step = target;
            return Ok(());
        }
        tracing::info!(
            "{label}: training steps {}..{target} on a window of {} of {} self-play samples, {:.0}% of each batch from {} bootstrap positions",
            self.step,
            sampler.len(),
            self.replay.total(),
            100.0 * sampler.share(),
            self.replay.bootstrap_len()
        );
        let bar = Progress::new(target, &format!("{label} training"), "steps");
        bar.resume_at(self.step);
        let t0 = Instant::now();
        let mut window_stats: Vec<StepStats> = Vec::new();
        while self.step < target {
            let mut rng = ChaCha8Rng::seed_from_u64(mix_seed(&[self.cfg.seed, 0x7261_696e, self.step]));
            let batch = sampler.batch(tc.batch_size, tc.mirror, &mut rng);
            let lr = learning_rate(&tc, &phase, self.step);
            let s = self.learner.step(&batch, lr)?;
            if !s.total_loss.is_finite() {
                return Err(TrainError::Backend(format!(
                    "loss is {} at step {}: lower training.lr",
                    s.total_loss, self.step
                )));
            }
            self.step += 1;
            window_stats.push(s);
            bar.set_position(self.step);
            if self.step % tc.log_every == 0 || self.step == target {
                let m = StepStats::mean(&window_stats);
                window_stats.clear();
                bar.set_message(format!(
                    "loss {:.4} (policy {:.4}, value {:.4})",
                    m.total_loss, m.policy_loss, m.value_loss
                ));
                self.run.append_metrics(&json!({
                    "kind": "train", "generation": generation, "bootstrap": generation.is_none(),
                    "step": self.step, "lr": lr,
                    "policy_loss": m.policy_loss, "value_loss": m.value_loss,
                    "moves_left_loss": m.moves_left_loss, "total_loss": m.total_loss,
                    "policy_accuracy": m.policy_accuracy, "window": sampler.len(),
                    "samples_total": self.replay.total(), "bootstrap_share": sampler.share(),
                }))?;
            }
            let stop = super::stop_requested() && self.step < target;
            if (self.step % tc.checkpoint_every == 0 && self.step < target) || stop {
                let g = generation.unwrap_or(0);
                checkpoint::save(&self.run, self.learner.as_ref(), self.step, g, &self.hash, tc.keep_checkpoints)?;
            }
            if stop {
                bar.finish();
                self.check_stop()?;
            }
        }
        bar.finish();
        self.timings.train = t0.elapsed().as_secs_f64();
        Ok(())
    }

    fn publish(&mut self) -> Result<(), TrainError> {
        let next = self.state.generation + 1;
        self.publish_as(next)?;
        if self.cfg.evaluation.gating {
            self.set_phase(Phase::Gate)
        } else {
            self.run.write_best(next)?;
            self.state.best = next;
            self.set_phase(Phase::Evaluate)
        }
    }
}

/// Seconds since the Unix epoch (for plotting against wall time).
fn unix_time() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::learner::NullLearner;

    fn opts(run: &std::path::Path) -> TrainOptions {
        TrainOptions {
            run: RunLocation::Local(run.to_path_buf()),
            cache: None,
            config: None,
            overrides: Vec::new(),
            force_config: false,
        }
    }

    #[test]
    fn a_run_that_lost_its_config_is_rebuilt_from_its_newest_checkpoint() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let mut cfg = TrainConfig::default_config(&["network.backend=none".into()]).unwrap();
        cfg.generations = 7;
        run.freeze_config(&cfg, false).unwrap();
        checkpoint::save(&run, &NullLearner::default(), 5, 0, &cfg.hash(), 3).unwrap();
        std::fs::remove_file(run.config_path()).unwrap();
        let back = resolve_config(&RunDir::new(t.path()), &opts(t.path())).unwrap();
        assert_eq!(back, cfg, "the checkpoint's copy, not the built-in defaults");
        assert_eq!(back.hash(), cfg.hash(), "so the checkpoint still matches");
        // `generations` may change freely: the identity stays; any other setting changes it.
        assert_eq!(TrainConfig { generations: 9, ..cfg.clone() }.hash(), cfg.hash());
        assert_ne!(TrainConfig { seed: cfg.seed + 1, ..cfg.clone() }.hash(), cfg.hash());
        assert_ne!(cfg.legacy_hash(), cfg.hash());
    }

    #[test]
    fn a_started_run_without_any_copy_of_its_config_is_refused_with_the_fix() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        // A new directory: the defaults.
        assert_eq!(
            resolve_config(&RunDir::new(t.path()), &opts(t.path())).unwrap(),
            TrainConfig::default_config(&[]).unwrap()
        );
        // A started run (a state, a checkpoint of an older build with no config copy).
        run.write_state(&RunState::new(false)).unwrap();
        checkpoint::save(&run, &NullLearner::default(), 5, 0, "0123456789abcdef", 3).unwrap();
        let e = resolve_config(&RunDir::new(t.path()), &opts(t.path())).unwrap_err().to_string();
        assert!(e.contains("config.toml: missing") && e.contains("--config FILE"), "{e}");
        assert!(e.contains("config hash 0123456789abcdef") && e.contains("do not delete"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
