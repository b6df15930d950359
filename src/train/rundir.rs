//! The run directory: paths, the trainer lock, atomic writes, the frozen config, the generation
//! state file, the `best` pointer and `metrics.jsonl`. See [`super`] for the layout.

use super::replay::shard_files;
use super::TrainError;
use crate::selfplay::shards::{parse_shard_name, shard_name};
use crate::store::lease::Lease;
use crate::store::{Mirror, Remote, RunLocation};
use crate::train::config::TrainConfig;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Writes `bytes` to `path` atomically ([`crate::fsutil::write_atomic`]).
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    crate::fsutil::write_atomic(path, bytes).map_err(|e| TrainError::io(path, e))
}

/// Where a generation's run is in its state machine (see [`super::generation`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Supervised pre-training on alpha-beta games (before generation 0's self-play).
    Bootstrap,
    /// Waiting for (and playing) this generation's self-play games.
    Selfplay,
    /// Training up to `train_target` steps.
    Train,
    /// Writing the next generation's network to `models/`.
    Publish,
    /// SPRT of the new network against the best.
    Gate,
    /// Games against the alpha-beta ladder.
    Evaluate,
    /// Summary line, metrics and plots.
    Report,
    /// Every generation asked for is done.
    Finished,
}

/// The state file `state.json`, rewritten atomically at every phase change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunState {
    /// Format version (1).
    pub version: u32,
    /// The generation being produced: self-play with the best network so far, training, then
    /// publishing generation `generation + 1`.
    pub generation: u32,
    /// Where it is.
    pub phase: Phase,
    /// The optimizer step at which this generation's training stops (set on entering `train`).
    pub train_target: u64,
    /// The optimizer step at which this generation's training began (its learning-rate schedule
    /// starts there). Absent in state files written before it existed (read as 0).
    #[serde(default)]
    pub train_start: u64,
    /// The generation whose network plays self-play (the `best` pointer's value).
    pub best: u32,
}

impl RunState {
    /// The state of a new run.
    pub fn new(bootstrap: bool) -> RunState {
        RunState {
            version: 1,
            generation: 0,
            phase: if bootstrap { Phase::Bootstrap } else { Phase::Selfplay },
            train_target: 0,
            train_start: 0,
            best: 0,
        }
    }
}

/// A run directory and its well-known paths. For a run on an object store, `root` is the local
/// cache and [`RunDir::mirror`] the store ([`crate::store`]).
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
    mirror: Option<Arc<Mirror>>,
    lease: Arc<Mutex<Option<Lease>>>,
    /// A remote worker's next shard index per (generation, worker), once listed (so the store is
    /// listed once per generation, not before every chunk).
    next_index: Arc<Mutex<std::collections::HashMap<(u32, String), u64>>>,
}

/// The held trainer lock (released when dropped, or by the OS when the process dies); on an
/// object store, the trainer's lease (released when dropped, expiring when the process dies).
#[derive(Debug)]
pub struct RunLock {
    _file: Option<fs::File>,
    lease: Option<Arc<Mutex<Option<Lease>>>>,
}

impl Drop for RunLock {
    fn drop(&mut self) {
        if let Some(slot) = &self.lease {
            slot.lock().expect("lease slot").take();
        }
    }
}

/// The lease's time to live: `FIVEUP_LEASE_TTL_S` (2 to 3600 seconds), default 60.
pub fn lease_ttl() -> std::time::Duration {
    let s = std::env::var("FIVEUP_LEASE_TTL_S").ok().and_then(|v| v.parse::<f64>().ok()).unwrap_or(60.0);
    std::time::Duration::from_secs_f64(s.clamp(2.0, 3600.0))
}

impl RunDir {
    /// The run directory at `root` (not created).
    pub fn new(root: &Path) -> RunDir {
        RunDir { root: root.to_path_buf(), mirror: None, lease: Arc::default(), next_index: Arc::default() }
    }

    /// The run `--run` names: a local directory, or a URL whose files are mirrored in `cache`
    /// (default [`RunLocation::default_cache`] for `role`). A remote store is contacted at once,
    /// so a bad URL, endpoint, credentials or bucket is a one-line error before any long work.
    pub fn open(location: &RunLocation, cache: Option<&Path>, role: &str) -> Result<RunDir, TrainError> {
        match location {
            RunLocation::Local(p) if p.exists() && !p.is_dir() => Err(TrainError::Invalid {
                path: p.clone(),
                detail: "is a file, not a run folder (--run names a folder)".into(),
            }),
            RunLocation::Local(p) => Ok(RunDir::new(p)),
            RunLocation::Remote(url) => {
                let remote = Remote::open(url)?;
                remote.probe()?;
                let cache = cache.map_or_else(|| RunLocation::default_cache(url, role), Path::to_path_buf);
                let mirror = Mirror::open(Arc::new(remote), &cache)?;
                tracing::info!("run {url}: local cache {}", cache.display());
                Ok(RunDir {
                    root: cache,
                    mirror: Some(Arc::new(mirror)),
                    lease: Arc::default(),
                    next_index: Arc::default(),
                })
            }
        }
    }

    /// Its root (the local cache of a remote run).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The object store behind a remote run.
    pub fn mirror(&self) -> Option<&Mirror> {
        self.mirror.as_deref()
    }

    /// The run as the user named it: the directory, or the store's URL.
    pub fn display(&self) -> String {
        match &self.mirror {
            Some(m) => m.remote().url().to_string(),
            None => self.root.display().to_string(),
        }
    }

    /// `path` (inside the run) as the user knows it: the URL of its object for a remote run.
    pub fn shown(&self, path: &Path) -> PathBuf {
        match self.mirror.as_ref().and_then(|m| Some((m, m.name_of(path)?))) {
            Some((m, name)) => PathBuf::from(m.remote().url_of(&name)),
            None => path.to_path_buf(),
        }
    }

    /// Uploads what changed since the last call (a remote run; nothing for a local one), after
    /// making sure the trainer still holds its lease.
    pub fn sync(&self) -> Result<(), TrainError> {
        let Some(m) = &self.mirror else { return Ok(()) };
        let check = || -> Result<(), crate::store::StoreError> {
            match self.lease.lock().expect("lease slot").as_ref() {
                Some(lease) => lease.check(),
                None => Ok(()),
            }
        };
        check()?;
        let s = m.push_checked(&check)?;
        if s.files > 0 || s.deleted > 0 {
            tracing::debug!(
                "pushed {} files ({} bytes), deleted {} in {:.2} s",
                s.files,
                s.bytes,
                s.deleted,
                s.seconds
            );
        }
        Ok(())
    }

    /// The next free shard index of `worker` in generation `g`: past its shards in the directory
    /// and, for a remote run, in the store.
    pub fn next_shard_index(&self, g: u32, worker: &str) -> Result<u64, TrainError> {
        let local = next_shard_index(&self.shard_dir(g), worker);
        let Some(m) = &self.mirror else { return Ok(local) };
        let key = (g, worker.to_string());
        if let Some(&known) = self.next_index.lock().expect("index").get(&key) {
            return Ok(local.max(known));
        }
        let prefix = format!("shards/gen-{g:04}/{worker}");
        let remote = m
            .remote()
            .list(&format!("{prefix}-"))?
            .iter()
            .filter_map(|o| parse_shard_name(&o.name).filter(|(w, _)| *w == prefix).map(|(_, i)| i))
            .max()
            .map_or(0, |i| i + 1);
        self.next_index.lock().expect("index").insert(key, remote);
        Ok(local.max(remote))
    }

    /// A worker's finished shard `path` (in the cache of a remote run) uploaded under its name, or
    /// the next free index of its worker when that name is taken; then removed from the cache.
    pub fn upload_shard(&self, path: &Path) -> Result<(), TrainError> {
        let Some(m) = &self.mirror else { return Ok(()) };
        let name = m.name_of(path).ok_or_else(|| TrainError::Invalid {
            path: path.to_path_buf(),
            detail: "a shard outside the run's cache".into(),
        })?;
        let next = |taken: &str| -> String {
            let (stem, idx) = parse_shard_name(taken).unwrap_or((taken, 0));
            shard_name(stem, idx + 1)
        };
        let stored = m.upload_new(&name, &next)?;
        // The worker's next index goes past what it stored (past a renamed shard too).
        let index = |n: &str| -> Option<(u32, String, u64)> {
            let (g, file) = n.strip_prefix("shards/gen-")?.split_once('/')?;
            let (worker, i) = parse_shard_name(file)?;
            Some((g.parse().ok()?, worker.to_string(), i))
        };
        if let Some((g, worker, i)) = index(&stored) {
            let mut known = self.next_index.lock().expect("index");
            let e = known.entry((g, worker)).or_insert(0);
            *e = (*e).max(i + 1);
        }
        std::fs::remove_file(path).map_err(|e| TrainError::io(path, e))?;
        tracing::debug!("uploaded {}", m.remote().url_of(&stored));
        Ok(())
    }

    /// Uploads a worker's shards that a killed process left in the cache (they are whole: shards
    /// are written atomically). Returns how many.
    pub fn upload_pending(&self, worker: &str) -> Result<usize, TrainError> {
        if self.mirror.is_none() {
            return Ok(0);
        }
        let mut n = 0;
        let Ok(rd) = fs::read_dir(self.root.join("shards")) else { return Ok(0) };
        for dir in rd.flatten() {
            for path in super::replay::shard_files(&dir.path()) {
                let mine =
                    path.file_name().and_then(|f| parse_shard_name(f.to_str()?)).is_some_and(|(w, _)| w == worker);
                if mine {
                    self.upload_shard(&path)?;
                    n += 1;
                }
            }
        }
        if n > 0 {
            tracing::info!("worker {worker}: uploaded {n} shards left by an earlier run");
        }
        Ok(n)
    }

    /// Brings new shards of the store into the cache, each checked whole before it counts (a
    /// remote run; nothing for a local one): those of generation `g`, or with `None` all of them
    /// (a listing grows with the run: the self-play loop polls its own generation only). Returns
    /// how many.
    pub fn pull_shards(&self, g: Option<u32>) -> Result<usize, TrainError> {
        let Some(m) = &self.mirror else { return Ok(0) };
        let prefix = g.map_or_else(|| "shards/".to_string(), |g| format!("shards/gen-{g:04}/"));
        let got = m.pull_new(&prefix, &check_shard)?;
        if !got.is_empty() {
            tracing::debug!("pulled {} new shards", got.len());
        }
        Ok(got.len())
    }

    /// A worker's view of a remote run brought up to date: `state.json` and `best`, and
    /// `config.toml` while the worker has none.
    pub fn refresh(&self) -> Result<(), TrainError> {
        if let Some(m) = &self.mirror {
            if self.config_path().exists() {
                m.fetch(&["state.json", "best"])?;
            } else {
                m.fetch(&["config.toml", "state.json", "best"])?;
            }
        }
        Ok(())
    }

    /// A worker's start on a remote run: `config.toml` fetched again (a `--force-config` may have
    /// replaced it since this cache last saw it).
    pub fn refresh_config(&self) -> Result<(), TrainError> {
        if let Some(m) = &self.mirror {
            m.fetch(&["config.toml"])?;
        }
        Ok(())
    }

    /// Published network `g` in the cache of a remote run; `false` while its upload is unfinished.
    pub fn fetch_model(&self, g: u32) -> Result<bool, TrainError> {
        match &self.mirror {
            Some(m) => Ok(m.fetch_dir(&format!("models/gen-{g:04}"))?),
            None => Ok(true),
        }
    }

    /// Whether another trainer took this remote run over.
    pub fn lease_lost(&self) -> bool {
        self.lease.lock().expect("lease slot").as_ref().is_some_and(Lease::lost)
    }

    /// `config.toml`: the frozen effective config.
    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.toml")
    }
    /// `state.json`.
    pub fn state_path(&self) -> PathBuf {
        self.root.join("state.json")
    }
    /// `best`: the name of the best published network (`gen-0003`).
    pub fn best_path(&self) -> PathBuf {
        self.root.join("best")
    }
    /// `metrics.jsonl`.
    pub fn metrics_path(&self) -> PathBuf {
        self.root.join("metrics.jsonl")
    }
    /// `shards/gen-NNNN/`: the self-play games played for generation `g`.
    pub fn shard_dir(&self, g: u32) -> PathBuf {
        self.root.join("shards").join(format!("gen-{g:04}"))
    }
    /// `shards/bootstrap/`: the alpha-beta games of the bootstrap.
    pub fn bootstrap_dir(&self) -> PathBuf {
        self.root.join("shards").join("bootstrap")
    }
    /// `checkpoints/`.
    pub fn checkpoints_dir(&self) -> PathBuf {
        self.root.join("checkpoints")
    }
    /// `models/`: the published networks.
    pub fn models_dir(&self) -> PathBuf {
        self.root.join("models")
    }
    /// `models/gen-NNNN/`: published network `g`.
    pub fn model_dir(&self, g: u32) -> PathBuf {
        self.models_dir().join(format!("gen-{g:04}"))
    }
    /// The generations with a published network (`models/gen-NNNN`), in order.
    pub fn published_generations(&self) -> Result<Vec<u32>, TrainError> {
        let dir = self.models_dir();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(TrainError::io(&dir, e)),
        };
        let mut gens = Vec::new();
        for entry in entries {
            let name = entry.map_err(|e| TrainError::io(&dir, e))?.file_name();
            if let Some(g) = name.to_str().and_then(|n| n.strip_prefix("gen-")).and_then(|d| d.parse::<u32>().ok()) {
                gens.push(g);
            }
        }
        gens.sort_unstable();
        Ok(gens)
    }
    /// `eval/`.
    pub fn eval_dir(&self) -> PathBuf {
        self.root.join("eval")
    }
    /// `plots/`.
    pub fn plots_dir(&self) -> PathBuf {
        self.root.join("plots")
    }

    /// Checks that a trainer may start or resume in this (local) directory: a run (it has
    /// `state.json`), or a directory that is missing, empty or holds only what a run writes
    /// before its state (`LOCK`, `config.toml`, its empty folders); a missing one's parent must
    /// exist and take files. A directory holding networks,
    /// checkpoints or shards without `state.json` lost its state: starting over would retrain
    /// generation 0 on old data, so it is refused, as is a directory of someone else's files.
    pub fn check_trainer_may_use(&self) -> Result<(), TrainError> {
        if self.mirror.is_some() || self.state_path().exists() {
            return Ok(());
        }
        if !self.root.exists() {
            // A new run: its folder is made, not the folders above it.
            return crate::fsutil::check_parent(&self.root).map_err(|e| TrainError::Invalid {
                path: self.root.clone(),
                detail: format!("cannot start a run: {e}"),
            });
        }
        let Ok(entries) = fs::read_dir(&self.root) else { return Ok(()) };
        let run_dirs = ["shards", "checkpoints", "models", "eval", "plots"];
        let mut lost = Vec::new();
        let mut foreign = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if run_dirs.contains(&name.as_str()) {
                if fs::read_dir(e.path()).map(|mut d| d.next().is_some()).unwrap_or(true) {
                    lost.push(name);
                }
            } else if !["LOCK", "config.toml", "metrics.jsonl", "best"].contains(&name.as_str()) {
                foreign.push(name);
            }
        }
        lost.sort();
        foreign.sort();
        if !lost.is_empty() {
            return Err(TrainError::Invalid {
                path: self.root.clone(),
                detail: format!(
                    "holds a run's {} but no state.json (its state was lost): restore state.json, or train \
                     in a new directory; starting over here would retrain generation 0 on old data",
                    lost.join(", ")
                ),
            });
        }
        if let Some(first) = foreign.first() {
            return Err(TrainError::Invalid {
                path: self.root.clone(),
                detail: format!(
                    "is not empty and is not a run (no state.json; it holds {first}{}): give a new or empty \
                     directory",
                    if foreign.len() > 1 { format!(" and {} more", foreign.len() - 1) } else { String::new() }
                ),
            });
        }
        Ok(())
    }

    /// Creates the directories of a run.
    pub fn create(&self) -> Result<(), TrainError> {
        for d in [
            self.root.clone(),
            self.root.join("shards"),
            self.checkpoints_dir(),
            self.models_dir(),
            self.eval_dir(),
            self.plots_dir(),
        ] {
            fs::create_dir_all(&d).map_err(|e| TrainError::io(&d, e))?;
        }
        Ok(())
    }

    /// Takes the trainer lock `LOCK` (one trainer per run directory), or on an object store the
    /// trainer's lease ([`crate::store::lease`]).
    pub fn lock(&self) -> Result<RunLock, TrainError> {
        if let Some(m) = &self.mirror {
            let lease = Lease::acquire(m.remote_arc(), lease_ttl())?;
            *self.lease.lock().expect("lease slot") = Some(lease);
            return Ok(RunLock { _file: None, lease: Some(self.lease.clone()) });
        }
        let path = self.root.join("LOCK");
        let mut file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| TrainError::io(&path, e))?;
        // Through the trait: std's inherent `File::try_lock` needs Rust 1.89 (rust-version is 1.80).
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(TrainError::Locked { path, holder: holder.trim().to_string() });
            }
            Err(fs4::TryLockError::Error(e)) => return Err(TrainError::io(&path, e)),
        }
        let _ = file.set_len(0);
        let _ = file.seek(SeekFrom::Start(0));
        let _ = writeln!(file, "pid {}", std::process::id());
        Ok(RunLock { _file: Some(file), lease: None })
    }

    /// The frozen config, if the run has one.
    pub fn frozen_config(&self) -> Result<Option<TrainConfig>, TrainError> {
        let path = self.config_path();
        if !path.exists() {
            return Ok(None);
        }
        Ok(Some(TrainConfig::from_file(&path, &[])?))
    }

    /// Freezes `cfg` as the run's config. If the run already has one that differs, that is an
    /// error unless `force`; `generations` alone may change (to extend or shorten a run). With
    /// `force`, a frozen config this build cannot read (e.g. a renamed key) is replaced too.
    pub fn freeze_config(&self, cfg: &TrainConfig, force: bool) -> Result<(), TrainError> {
        let frozen = match self.frozen_config() {
            Err(e) if force => {
                tracing::warn!("--force-config: replacing the unreadable frozen config ({e})");
                None
            }
            other => other?,
        };
        if let Some(old) = frozen {
            let mut old_cmp = old.clone();
            old_cmp.generations = cfg.generations;
            if old_cmp != *cfg && !force {
                let diff = first_difference(&old_cmp.to_toml(), &cfg.to_toml());
                return Err(TrainError::ConfigChanged { path: self.shown(&self.config_path()), diff });
            }
            if old == *cfg {
                return Ok(());
            }
            if old_cmp != *cfg {
                tracing::warn!("--force-config: replacing {}", self.config_path().display());
            }
        }
        let text = format!(
            "# The effective config of this run (every key, defaults filled in), frozen at its start.\n{}",
            cfg.to_toml()
        );
        atomic_write(&self.config_path(), text.as_bytes())
    }

    /// The state, if the run has one.
    pub fn read_state(&self) -> Result<Option<RunState>, TrainError> {
        let path = self.state_path();
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| TrainError::Corrupt { path, detail: format!("not a run state: {e}") }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(TrainError::io(&path, e)),
        }
    }

    /// Writes the state atomically.
    pub fn write_state(&self, s: &RunState) -> Result<(), TrainError> {
        let text = serde_json::to_string_pretty(s).expect("a state serialises") + "\n";
        atomic_write(&self.state_path(), text.as_bytes())?;
        self.sync()
    }

    /// The best network's generation, from the `best` pointer.
    pub fn read_best(&self) -> Result<Option<u32>, TrainError> {
        let path = self.best_path();
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(TrainError::io(&path, e)),
        };
        let g = text.trim().strip_prefix("gen-").and_then(|n| n.parse().ok());
        g.map(Some)
            .ok_or_else(|| TrainError::Corrupt { path, detail: format!("expected gen-NNNN, found {:?}", text.trim()) })
    }

    /// Points `best` at generation `g` (atomically).
    pub fn write_best(&self, g: u32) -> Result<(), TrainError> {
        atomic_write(&self.best_path(), format!("gen-{g:04}\n").as_bytes())?;
        self.sync()
    }

    /// Appends one JSON object as a line to `metrics.jsonl`.
    pub fn append_metrics(&self, value: &serde_json::Value) -> Result<(), TrainError> {
        let path = self.metrics_path();
        let mut f =
            fs::OpenOptions::new().create(true).append(true).open(&path).map_err(|e| TrainError::io(&path, e))?;
        let line = serde_json::to_string(value).expect("JSON serialises") + "\n";
        f.write_all(line.as_bytes()).map_err(|e| TrainError::io(&path, e))
    }

    /// Drops a partial last line of `metrics.jsonl` (left by a kill in the middle of a write).
    pub fn repair_metrics(&self) -> Result<(), TrainError> {
        let path = self.metrics_path();
        let Ok(bytes) = fs::read(&path) else { return Ok(()) };
        if bytes.is_empty() || bytes.ends_with(b"\n") {
            return Ok(());
        }
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        tracing::warn!("{}: dropping a partial last line ({} bytes)", path.display(), bytes.len() - keep);
        atomic_write(&path, &bytes[..keep])
    }

    /// Drops the lines of `metrics.jsonl` whose `step` is past `step` (rewritten atomically),
    /// so that a run resumed from the checkpoint at `step` does not repeat the steps it trains
    /// again; returns how many were dropped. Lines without a step are kept.
    pub fn drop_metrics_after(&self, step: u64) -> Result<usize, TrainError> {
        let path = self.metrics_path();
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(TrainError::io(&path, e)),
        };
        let past = |l: &str| {
            serde_json::from_str::<serde_json::Value>(l).ok().and_then(|v| v["step"].as_u64()).is_some_and(|s| s > step)
        };
        let kept: String = text.split_inclusive('\n').filter(|l| !past(l)).collect();
        let dropped = text.split_inclusive('\n').count() - kept.split_inclusive('\n').count();
        if dropped > 0 {
            tracing::info!("{}: dropping {dropped} lines past step {step} (resuming from there)", path.display());
            atomic_write(&path, kept.as_bytes())?;
        }
        Ok(dropped)
    }

    /// Every line of `metrics.jsonl` that parses (a partial last line is skipped).
    pub fn read_metrics(&self) -> Vec<serde_json::Value> {
        let Ok(text) = fs::read_to_string(self.metrics_path()) else { return Vec::new() };
        text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
    }
}

/// The check of a downloaded object of a run: a `.shard` must decode whole (magic, version,
/// every record's checksum and numbers); anything else passes.
pub fn check_shard(name: &str, bytes: &[u8]) -> Result<(), crate::selfplay::shards::ShardError> {
    if !name.ends_with(".shard") {
        return Ok(());
    }
    crate::selfplay::shards::decode_shard(Path::new(name), bytes).map(|_| ())
}

/// The first differing line of two TOML texts, as `line: old → new`.
fn first_difference(old: &str, new: &str) -> String {
    let (mut section_old, mut section_new) = (String::new(), String::new());
    let mut a = old.lines();
    let mut b = new.lines();
    loop {
        match (a.next(), b.next()) {
            (None, None) => return "(formatting only)".into(),
            (x, y) => {
                let (x, y) = (x.unwrap_or(""), y.unwrap_or(""));
                if x.starts_with('[') {
                    section_old = x.to_string();
                }
                if y.starts_with('[') {
                    section_new = y.to_string();
                }
                if x != y {
                    let sec =
                        if section_old == section_new { section_old } else { format!("{section_old}/{section_new}") };
                    return format!("{sec} `{x}` (run) vs `{y}` (given)").trim().to_string();
                }
            }
        }
    }
}

/// The next free shard index of `worker` in `dir`.
pub fn next_shard_index(dir: &Path, worker: &str) -> u64 {
    shard_files(dir)
        .iter()
        .filter_map(|p| parse_shard_name(p.file_name()?.to_str()?).filter(|(w, _)| *w == worker).map(|(_, i)| i))
        .max()
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_excludes_a_second_holder_and_is_released_on_drop() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let l = run.lock().unwrap();
        let e = run.lock().unwrap_err().to_string();
        assert!(e.contains("another trainer") && e.contains(&format!("pid {}", std::process::id())), "{e}");
        drop(l);
        run.lock().unwrap();
    }

    #[test]
    fn a_changed_config_is_refused_unless_forced() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let mut cfg = TrainConfig::default();
        run.freeze_config(&cfg, false).unwrap();
        cfg.generations += 5;
        run.freeze_config(&cfg, false).unwrap();
        assert_eq!(run.frozen_config().unwrap().unwrap().generations, cfg.generations);
        cfg.training.lr = 0.5;
        let e = run.freeze_config(&cfg, false).unwrap_err().to_string();
        assert!(e.contains("[training]") && e.contains("lr = 0.5") && e.contains("--force-config"), "{e}");
        run.freeze_config(&cfg, true).unwrap();
        assert_eq!(run.frozen_config().unwrap().unwrap(), cfg);
        // A frozen config this build cannot read (a renamed key) is an error, unless forced.
        std::fs::write(run.config_path(), "[selfplay]\nresign_threshold = 0.05\n").unwrap();
        assert!(run.freeze_config(&cfg, false).unwrap_err().to_string().contains("resign_threshold"));
        run.freeze_config(&cfg, true).unwrap();
        assert_eq!(run.frozen_config().unwrap().unwrap(), cfg);
    }

    #[test]
    fn state_best_and_metrics_round_trip() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        assert_eq!(run.read_state().unwrap(), None);
        let s = RunState { generation: 3, phase: Phase::Train, train_target: 40, ..RunState::new(false) };
        run.write_state(&s).unwrap();
        assert_eq!(run.read_state().unwrap(), Some(s));
        run.write_best(12).unwrap();
        assert_eq!(run.read_best().unwrap(), Some(12));
        run.append_metrics(&serde_json::json!({"a": 1})).unwrap();
        let mut f = fs::OpenOptions::new().append(true).open(run.metrics_path()).unwrap();
        f.write_all(b"{\"a\": 2").unwrap();
        assert_eq!(run.read_metrics().len(), 1);
        run.repair_metrics().unwrap();
        run.append_metrics(&serde_json::json!({"a": 3})).unwrap();
        let m = run.read_metrics();
        assert_eq!(m.len(), 2);
        assert_eq!(m[1]["a"], 3);
    }

    #[test]
    fn a_resume_drops_the_metrics_past_its_checkpoint() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        assert_eq!(run.drop_metrics_after(0).unwrap(), 0, "no file yet");
        for step in [10, 20, 30, 40] {
            run.append_metrics(&serde_json::json!({"kind": "train", "step": step})).unwrap();
        }
        run.append_metrics(&serde_json::json!({"kind": "bootstrap_games", "games": 4})).unwrap();
        // Killed after step 40, resumed from the checkpoint at step 20: steps 30 and 40 go.
        assert_eq!(run.drop_metrics_after(20).unwrap(), 2);
        run.append_metrics(&serde_json::json!({"kind": "train", "step": 30})).unwrap();
        let steps: Vec<Option<u64>> = run.read_metrics().iter().map(|m| m["step"].as_u64()).collect();
        assert_eq!(steps, vec![Some(10), Some(20), None, Some(30)], "each step once");
        assert_eq!(run.drop_metrics_after(30).unwrap(), 0);
    }
}
