//! Self-play into a run's shards: the trainer's own games and those of extra workers
//! (`fiveup selfplay --run DIR`).
//!
//! A worker plays with the network the `best` pointer names and writes
//! `shards/gen-NNNN/WORKER-IIIIII.shard` for the generation `state.json` names, numbering its
//! shards after the highest index of its own name already there. Games are played in chunks of
//! `selfplay.concurrent_games`; each chunk's random stream is seeded by the run seed, the
//! generation, the worker name and the chunk's first shard index, so a restarted worker plays new
//! games rather than the same ones again.

use super::backend::load_evaluator;
use super::game::{for_game, ForGame, TrainGame};
use super::replay::shard_files;
use super::rundir::{Phase, RunDir};
use super::TrainError;
use crate::mcts::{SearchConfig, SearchKind};
use crate::nn::{EvalCache, Evaluator};
use crate::rng::mix_seed;
use crate::selfplay::shards::HEADER_LEN;
use crate::selfplay::{self, ResignConfig, SelfPlayConfig, SelfPlayCounts, ShardWriter};
use crate::train::config::{SearchAlgo, TrainConfig};
use std::io::Read;
use std::path::Path;

/// Games recorded in a shard, from its header (0 for an unreadable file).
pub fn shard_game_count(path: &Path) -> u64 {
    let mut h = [0u8; HEADER_LEN];
    match std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut h)) {
        Ok(()) => selfplay::shards::header_game_count(&h).unwrap_or(0),
        _ => 0,
    }
}

/// Games in all shards of a directory.
pub fn count_games(dir: &Path) -> u64 {
    shard_files(dir).iter().map(|p| shard_game_count(p)).sum()
}

/// The self-play driver's settings for `games` games with stream `seed`.
pub fn selfplay_config<S: TrainGame>(
    cfg: &TrainConfig,
    games: u64,
    seed: u64,
) -> Result<SelfPlayConfig<S>, TrainError> {
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
        start: S::start(cfg)?,
        concurrent_games: s.concurrent_games,
        total_games: games,
        seed,
        search,
        full_simulations: s.full_simulations,
        cheap_simulations: s.cheap_simulations,
        full_search_prob: s.full_search_prob,
        cheap_value_samples: s.cheap_value_samples,
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
pub fn play_chunk<S: TrainGame>(
    run: &RunDir,
    cfg: &TrainConfig,
    generation: u32,
    worker: &str,
    evaluator: &mut dyn Evaluator<S>,
    games: u64,
    on_progress: &mut dyn FnMut(&SelfPlayCounts),
) -> Result<SelfPlayCounts, TrainError> {
    let dir = run.shard_dir(generation);
    let first = run.next_shard_index(generation, worker)?;
    let seed = mix_seed(&[cfg.seed, generation as u64, fnv(worker), first]);
    let sp = selfplay_config::<S>(cfg, games, seed)?;
    let mut writer = ShardWriter::new(&dir, worker, cfg.selfplay.games_per_shard, first)?;
    // A worker on an object store uploads each shard as soon as it is written, from a thread of
    // its own so that self-play never waits for the store; the chunk ends when every upload is
    // done. (The trainer, which keeps the run's files, uploads at its next sync.)
    let upload = run.mirror().is_some() && worker != TRAINER;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<std::path::PathBuf>();
        let uploader = upload.then(|| {
            scope.spawn(move || -> Result<(), TrainError> {
                for path in rx {
                    run.upload_shard(&path)?;
                }
                Ok(())
            })
        });
        let mut sent = 0;
        let mut failure: Option<TrainError> = None;
        let mut step = |writer: &mut ShardWriter, g: Option<crate::selfplay::GameRecord>| -> Result<(), TrainError> {
            match g {
                Some(g) => writer.push(g)?,
                None => writer.flush()?,
            }
            if upload {
                for path in &writer.written()[sent..] {
                    // A closed channel means the uploader failed: its error is reported below.
                    let _ = tx.send(path.clone());
                }
                sent = writer.written().len();
            }
            Ok(())
        };
        // A stop request (Ctrl-C, SIGTERM) ends the chunk within one step: the finished games are
        // flushed below, the ones in progress dropped.
        let played = selfplay::run_until(
            &sp,
            evaluator,
            &super::stop_requested,
            &mut |g| {
                if failure.is_none() {
                    if let Err(e) = step(&mut writer, Some(g)) {
                        failure = Some(e);
                    }
                }
            },
            on_progress,
        )
        .map_err(|e| TrainError::Backend(e.to_string()));
        let flushed = step(&mut writer, None);
        drop(tx);
        let uploaded = uploader.map_or(Ok(()), |u| u.join().expect("the upload thread panicked"));
        let prog = played?;
        if let Some(e) = failure {
            return Err(e);
        }
        flushed?;
        uploaded?;
        Ok(prog)
    })
}

/// The trainer's worker name.
pub const TRAINER: &str = "trainer";

/// A stable number for a worker name: its value must never change (a resumed run replays the same
/// seeds), so it stays FNV-1a 64 ([`crate::fsutil::legacy`]).
fn fnv(s: &str) -> u64 {
    crate::fsutil::legacy::fnv1a64(s.as_bytes())
}

/// The evaluator self-play uses: the best network behind a cache.
pub fn best_evaluator<S: TrainGame>(
    run: &RunDir,
    cfg: &TrainConfig,
) -> Result<(u32, Box<dyn Evaluator<S>>), TrainError> {
    let best = run.read_best()?.ok_or_else(|| TrainError::Corrupt {
        path: run.best_path(),
        detail: "missing: no network has been published yet (start `fiveup train` on this run first)".into(),
    })?;
    let dir = run.model_dir(best);
    if !dir.is_dir() {
        // `best` names a network that is not there: say which file points where, and the fix.
        return Err(TrainError::Corrupt {
            path: run.best_path(),
            detail: format!(
                "names gen-{best:04}, but {} does not exist; point `best` at a published network \
                 (`echo gen-NNNN > {}`) or restore the directory",
                dir.display(),
                run.best_path().display()
            ),
        });
    }
    let ev = S::with_leaf_terms(cfg, load_evaluator::<S>(cfg, &dir)?);
    Ok((best, Box::new(EvalCache::new(ev, 1 << 18))))
}

/// The best network of a run's game, loaded, playing chunks of self-play ([`play_chunk`]); one
/// type for every game, so a worker that learns the game from the run's config can hold it.
pub trait ChunkPlayer {
    /// The network's generation.
    fn network(&self) -> u32;
    /// Plays one chunk (see [`play_chunk`]).
    fn play(
        &mut self,
        run: &RunDir,
        cfg: &TrainConfig,
        generation: u32,
        worker: &str,
        games: u64,
        on_progress: &mut dyn FnMut(&SelfPlayCounts),
    ) -> Result<SelfPlayCounts, TrainError>;
}

struct GameNet<S> {
    network: u32,
    evaluator: Box<dyn Evaluator<S>>,
}

impl<S: TrainGame> ChunkPlayer for GameNet<S> {
    fn network(&self) -> u32 {
        self.network
    }

    fn play(
        &mut self,
        run: &RunDir,
        cfg: &TrainConfig,
        generation: u32,
        worker: &str,
        games: u64,
        on_progress: &mut dyn FnMut(&SelfPlayCounts),
    ) -> Result<SelfPlayCounts, TrainError> {
        play_chunk(run, cfg, generation, worker, self.evaluator.as_mut(), games, on_progress)
    }
}

/// The best network of the run, for the game its config names.
pub fn best_player(run: &RunDir, cfg: &TrainConfig) -> Result<Box<dyn ChunkPlayer>, TrainError> {
    struct Load<'a>(&'a RunDir, &'a TrainConfig);
    impl ForGame for Load<'_> {
        type Output = Result<Box<dyn ChunkPlayer>, TrainError>;
        fn run<S: TrainGame>(self) -> Self::Output {
            let (network, evaluator) = best_evaluator::<S>(self.0, self.1)?;
            Ok(Box::new(GameNet { network, evaluator }))
        }
    }
    for_game(cfg, Load(run, cfg))
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

impl WorkerOptions {
    /// Checks the worker's name: letters, digits, `_` and `-`, at most 64, not "trainer".
    pub fn check_name(&self) -> Result<(), TrainError> {
        let n = &self.name;
        if n.is_empty()
            || n.len() > 64
            || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            || n == TRAINER
        {
            return Err(TrainError::Player(format!(
                "worker name {n:?}: use 1 to 64 letters, digits, '_' and '-' (and not \"trainer\")"
            )));
        }
        Ok(())
    }
}

/// An extra self-play worker: plays chunks with the newest best network into the generation in
/// progress until the run is finished (or `max_games` are played). Returns the games played.
///
/// On an object store the worker also waits for a trainer that has not started yet (a
/// cluster may start workers first), uploads each shard as it is written (and, first, any
/// that a killed run of the same worker left in the cache), and keeps a heartbeat in
/// `workers/NAME.json`.
pub fn run_worker(run: &RunDir, opts: &WorkerOptions) -> Result<u64, TrainError> {
    opts.check_name()?;
    let remote = run.mirror().is_some();
    let _cache_lock = if remote { Some(lock_cache(run, &opts.name)?) } else { None };
    let heartbeat = Heartbeat::start(run, &opts.name);
    run.upload_pending(&opts.name)?;
    run.refresh_config()?;
    let mut cfg = None;
    let mut played = 0u64;
    let mut current: Option<Box<dyn ChunkPlayer>> = None;
    let mut waiting = Waiting::default();
    let idle = |waiting: &mut Waiting, reason: &str, hb: &Option<Heartbeat>| {
        waiting.say(&opts.name, reason);
        if let Some(h) = hb {
            h.update(|b| b.status = format!("waiting for {reason}"));
        }
        std::thread::sleep(std::time::Duration::from_secs_f64(opts.poll_seconds));
    };
    loop {
        if opts.max_games.is_some_and(|m| played >= m) {
            return Ok(played);
        }
        if super::stop_requested() {
            tracing::info!("worker {}: stopped on request after {played} games", opts.name);
            return Ok(played);
        }
        run.refresh()?;
        let state = run.read_state()?;
        if cfg.is_none() {
            match run.frozen_config()? {
                Some(c) => cfg = Some(c),
                None if remote && state.is_none() => {
                    idle(&mut waiting, &format!("the trainer to start on {}", run.display()), &heartbeat);
                    continue;
                }
                None => return Err(missing_config(run)),
            }
        }
        let cfg = cfg.as_ref().expect("read above");
        let started = state.is_some();
        let Some(state) = state.filter(|s| s.phase != Phase::Bootstrap) else {
            idle(&mut waiting, &wait_reason(run, started, cfg), &heartbeat);
            continue;
        };
        if state.phase == Phase::Finished {
            if let Some(h) = &heartbeat {
                h.update(|b| b.status = "finished".into());
            }
            if played == 0 && !waiting.waited() {
                // Finished before this worker started: nothing was or will be played.
                return Err(TrainError::Invalid {
                    path: run.display().to_string().into(),
                    detail: format!(
                        "the run is finished ({} generations): nothing to play; raise `generations` and \
                         resume the trainer (`fiveup train --run {} --set generations=N`) to go on",
                        state.generation,
                        run.display()
                    ),
                });
            }
            return Ok(played);
        }
        let best = run.read_best()?;
        if let Some(b) = best.filter(|&b| current.as_ref().map(|c| c.network()) != Some(b)) {
            if !run.fetch_model(b)? {
                idle(&mut waiting, &format!("the upload of network gen-{b:04} to finish"), &heartbeat);
                continue;
            }
            let player = best_player(run, cfg)?;
            tracing::info!("worker {}: playing with gen-{:04}", opts.name, player.network());
            current = Some(player);
        }
        let Some(player) = current.as_mut() else {
            idle(&mut waiting, "the trainer to publish its first network (best)", &heartbeat);
            continue;
        };
        let mut n = cfg.selfplay.concurrent_games as u64;
        if let Some(m) = opts.max_games {
            n = n.min(m - played);
        }
        waiting = Waiting::default();
        if let Some(h) = &heartbeat {
            let (g, net) = (state.generation, player.network());
            h.update(|b| {
                b.status = "playing".into();
                b.generation = g;
                b.network = net;
            });
        }
        let bar = crate::progress::Progress::new(n, &format!("worker {} gen {}", opts.name, state.generation), "games");
        bar.resume_at(0);
        let prog = player.play(run, cfg, state.generation, &opts.name, n, &mut |p| {
            bar.set_position(p.games.min(n));
        })?;
        bar.finish();
        played += prog.games;
        if let Some(h) = &heartbeat {
            h.update(|b| b.games = played);
        }
        tracing::info!("worker {}: gen {} {}", opts.name, state.generation, prog.line());
    }
}

/// The error for a started run without `config.toml`, with the fix.
fn missing_config(run: &RunDir) -> TrainError {
    let started = run.state_path().exists() || !super::checkpoint::list(run).is_empty();
    TrainError::Invalid {
        path: run.shown(&run.config_path()),
        detail: if started {
            format!("missing: run `fiveup train --run {}` once to rebuild it from the newest checkpoint", run.display())
        } else {
            "missing: not a run directory (start `fiveup train` on it first)".into()
        },
    }
}

/// One worker per cache directory and name: an advisory lock on `.worker-NAME.lock` in the cache.
fn lock_cache(run: &RunDir, name: &str) -> Result<std::fs::File, TrainError> {
    let path = run.root().join(format!(".worker-{name}.lock"));
    match crate::fsutil::try_lock(&path).map_err(|e| TrainError::io(&path, e))? {
        Some(file) => Ok(file),
        None => Err(TrainError::Invalid {
            path,
            detail: format!("another worker named {name} uses this cache: give each worker its own --worker name"),
        }),
    }
}

/// A worker's heartbeat, `workers/NAME.json` in the store.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeartbeatBody {
    /// The worker's name.
    pub worker: String,
    /// Host and process id.
    pub holder: String,
    /// What it is doing: "playing", "waiting for …", "finished".
    pub status: String,
    /// The generation it plays for.
    pub generation: u32,
    /// The network it plays with.
    pub network: u32,
    /// Games played since it started.
    pub games: u64,
    /// When it started (seconds since the epoch, its clock).
    pub started_unix: f64,
    /// When this was written.
    pub updated_unix: f64,
}

impl HeartbeatBody {
    /// Written within three heartbeat intervals of `now`.
    pub fn fresh(&self, now: f64) -> bool {
        now - self.updated_unix <= 3.0 * HEARTBEAT_S
    }

    /// The worker said it finished or stopped.
    pub fn ended(&self) -> bool {
        self.status.starts_with("finished") || self.status == "stopped"
    }
}

/// Seconds between heartbeats; a worker silent for three of them is presumed dead.
pub const HEARTBEAT_S: f64 = 10.0;
/// The least time between two heartbeats (a change waits this long at most).
pub const HEARTBEAT_MIN_S: f64 = 2.0;

/// Writes a worker's heartbeat every [`HEARTBEAT_S`] seconds from a thread of its own (so a long
/// chunk does not look like a dead worker), and soon (within [`HEARTBEAT_MIN_S`]) after
/// [`Heartbeat::update`] changes it.
pub struct Heartbeat {
    body: std::sync::Arc<std::sync::Mutex<(HeartbeatBody, bool)>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Heartbeat {
    /// Starts the heartbeat of worker `name` on a remote run (`None` for a local run).
    pub fn start(run: &RunDir, name: &str) -> Option<Heartbeat> {
        let remote = run.mirror()?.remote_arc();
        let now = crate::store::remote::now();
        let body = HeartbeatBody {
            worker: name.to_string(),
            holder: crate::store::lease::holder_name(),
            status: "starting".into(),
            generation: 0,
            network: 0,
            games: 0,
            started_unix: now,
            updated_unix: now,
        };
        let body = std::sync::Arc::new(std::sync::Mutex::new((body, true)));
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let object = format!("workers/{name}.json");
        let thread = {
            let (body, stop) = (body.clone(), stop.clone());
            std::thread::Builder::new()
                .name("fiveup-heartbeat".into())
                .spawn(move || {
                    let mut last = std::time::Instant::now() - std::time::Duration::from_secs(3600);
                    loop {
                        let stopping = stop.load(std::sync::atomic::Ordering::SeqCst);
                        let due = {
                            let b = body.lock().expect("heartbeat");
                            let since = last.elapsed().as_secs_f64();
                            (b.1 && since >= HEARTBEAT_MIN_S) || since >= HEARTBEAT_S || stopping
                        };
                        if due {
                            let bytes = {
                                let mut b = body.lock().expect("heartbeat");
                                b.1 = false;
                                b.0.updated_unix = crate::store::remote::now();
                                serde_json::to_vec_pretty(&b.0).expect("a heartbeat serialises")
                            };
                            if let Err(e) = remote.put(&object, bytes.into()) {
                                tracing::warn!("heartbeat: {e}");
                            }
                            last = std::time::Instant::now();
                        }
                        if stopping {
                            return;
                        }
                        std::thread::sleep(std::time::Duration::from_millis(100));
                    }
                })
                .ok()
        };
        Some(Heartbeat { body, stop, thread })
    }

    /// Changes the heartbeat (written at once).
    pub fn update(&self, f: impl FnOnce(&mut HeartbeatBody)) {
        let mut b = self.body.lock().expect("heartbeat");
        f(&mut b.0);
        b.1 = true;
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        {
            // An error exit: the last beat says the worker stopped (not "playing").
            let mut b = self.body.lock().expect("heartbeat");
            if !b.0.status.starts_with("finished") {
                b.0.status = "stopped".into();
            }
        }
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The trainer's view of the workers of a remote run (from their heartbeats): says on the log
/// when a worker is first seen and when one falls silent (presumed dead; the trainer never waits
/// for it: the generation completes from whatever shards arrive, its own included).
pub fn log_workers(run: &RunDir, generation: u32) {
    static SEEN: std::sync::Mutex<Option<std::collections::BTreeMap<String, bool>>> = std::sync::Mutex::new(None);
    let Some(m) = run.mirror() else { return };
    let beats = match read_heartbeats(m.remote()) {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!("reading the workers' heartbeats: {e}");
            return;
        }
    };
    let now = crate::store::remote::now();
    let mut seen = SEEN.lock().expect("seen");
    let seen = seen.get_or_insert_with(Default::default);
    for b in &beats {
        let age = now - b.updated_unix;
        let alive = b.fresh(now) && !b.ended();
        if seen.insert(b.worker.clone(), alive) != Some(alive) {
            if alive {
                tracing::info!(
                    "gen {generation}: worker {} ({}) is playing: {} games so far",
                    b.worker,
                    b.holder,
                    b.games
                );
            } else {
                tracing::warn!(
                    "gen {generation}: worker {} silent for {age:.0} s ({}): presumed stopped; its finished shards count, its games in flight are lost",
                    b.worker,
                    b.status
                );
            }
        }
    }
}

/// Whether any worker is alive, for a trainer that leaves self-play to them
/// (`selfplay.trainer_plays = false`): a fresh heartbeat, or a new shard within the last
/// `selfplay.worker_timeout_s` seconds (0: always presumed alive).
pub struct Liveness {
    games: u64,
    silence: std::time::Duration,
    last_progress: std::time::Instant,
    last_said: Option<(std::time::Instant, bool)>,
}

impl Liveness {
    /// Starts watching at `games` games, presuming the workers dead after `timeout_s` seconds
    /// without a heartbeat or a new shard (never for 0).
    pub fn new(games: u64, timeout_s: u32) -> Liveness {
        let silence = std::time::Duration::from_secs(if timeout_s == 0 { u64::MAX / 4 } else { timeout_s as u64 });
        Liveness { games, silence, last_progress: std::time::Instant::now(), last_said: None }
    }

    /// Notes games the trainer played itself (they are no sign of a live worker).
    pub fn own_games(&mut self, games: u64) {
        self.games = self.games.max(games);
    }

    /// Whether a worker is alive now that the generation has `games` games; says on the log
    /// when that changes (and every half minute while waiting).
    pub fn workers_alive(&mut self, run: &RunDir, games: u64) -> bool {
        if games > self.games {
            self.games = games;
            self.last_progress = std::time::Instant::now();
        }
        let beating = run.mirror().is_some_and(|m| any_playing(m.remote()));
        let alive = beating || self.last_progress.elapsed() < self.silence;
        let due = self.last_said.is_none_or(|(t, a)| a != alive || t.elapsed() >= crate::progress::LOG_INTERVAL);
        if due {
            if alive {
                tracing::info!("self-play left to the workers: {games} games so far");
            } else {
                tracing::warn!(
                    "no live worker (no heartbeat, no new shard for {} s): the trainer plays",
                    self.silence.as_secs()
                );
            }
            self.last_said = Some((std::time::Instant::now(), alive));
        }
        alive
    }
}

/// Whether some worker's heartbeat says `playing` and is fresh. The heartbeats are read newest
/// first (by the store's time of writing) and only until one is found, so a run with many
/// workers, or many old heartbeat objects, costs one listing and a few reads per poll.
fn any_playing(remote: &crate::store::Remote) -> bool {
    let Ok(mut listed) = remote.list("workers/") else { return false };
    listed.sort_by(|a, b| b.modified.total_cmp(&a.modified));
    let now = crate::store::remote::now();
    for o in listed {
        // Older by the store's clock than any fresh beat could be (a generous margin for skew).
        if now - o.modified > 10.0 * HEARTBEAT_S {
            return false;
        }
        let beat =
            remote.get(&o.name).ok().flatten().and_then(|(b, _)| serde_json::from_slice::<HeartbeatBody>(&b).ok());
        if beat.is_some_and(|h| h.fresh(now) && h.status == "playing") {
            return true;
        }
    }
    false
}

/// Every worker heartbeat in the store.
pub fn read_heartbeats(remote: &crate::store::Remote) -> Result<Vec<HeartbeatBody>, TrainError> {
    let mut out = Vec::new();
    for o in remote.list("workers/")? {
        if let Some((bytes, _)) = remote.get(&o.name)? {
            match serde_json::from_slice::<HeartbeatBody>(&bytes) {
                Ok(b) => out.push(b),
                Err(e) => tracing::warn!("{}: not a heartbeat ({e})", remote.url_of(&o.name)),
            }
        }
    }
    Ok(out)
}

/// What a worker waits for while the run has no network to play with: the trainer's start, or its
/// bootstrap (with the bootstrap's progress as far as the files tell).
fn wait_reason(run: &RunDir, started: bool, cfg: &TrainConfig) -> String {
    if !started {
        return format!("the trainer to start on {} (no state.json yet)", run.display());
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
    /// Whether the worker has waited for anything yet.
    fn waited(&self) -> bool {
        self.last.is_some()
    }

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
    use crate::train::rundir::next_shard_index;

    #[test]
    fn self_play_leaf_terms_follow_the_config() {
        let mut cfg = TrainConfig::default();
        let name = |cfg: &TrainConfig| {
            <crate::rules::Position as TrainGame>::with_leaf_terms(cfg, Box::new(UniformEvaluator::new())).name()
        };
        assert_eq!(name(&cfg), "uniform");
        cfg.selfplay.quiescence = 1.0;
        assert_eq!(name(&cfg), "qs1(uniform)");
        cfg.selfplay.nnue_leaf = 0.5;
        cfg.selfplay.mate_check = true;
        assert_eq!(name(&cfg), "qs1+nnue0.5+mate(uniform)");
        cfg.selfplay.quiescence = 0.0;
        assert_eq!(name(&cfg), "qs0+nnue0.5+mate(uniform)");
        // 4D Quasi-Alice has the correction and the mate check (its config refuses NNUE leaves).
        let qa = |cfg: &TrainConfig| {
            <crate::quasi_alice::Position as TrainGame>::with_leaf_terms(cfg, Box::new(UniformEvaluator::new())).name()
        };
        cfg.selfplay.quiescence = 1.0;
        assert_eq!(qa(&cfg), "qs1+mate(uniform)");
        cfg.selfplay.mate_check = false;
        assert_eq!(qa(&cfg), "qs1(uniform)");
        cfg.selfplay.hand_leaf = 0.5;
        assert_eq!(qa(&cfg), "qs1+hand0.5(uniform)");
        assert_eq!(name(&cfg), "qs1+nnue0.5+hand0.5(uniform)");
    }

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
        play_chunk::<crate::rules::Position>(&run, &cfg, 0, "a", &mut ev, 3, &mut |_| {}).unwrap();
        let dir = run.shard_dir(0);
        assert_eq!(count_games(&dir), 3);
        assert_eq!(next_shard_index(&dir, "a"), 2, "2 games per shard: shards 0 and 1");
        assert_eq!(next_shard_index(&dir, "b"), 0);
        play_chunk::<crate::rules::Position>(&run, &cfg, 0, "a", &mut ev, 1, &mut |_| {}).unwrap();
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
