//! A game worker: claims jobs on an evaluation's prefix, plays them, uploads the records (see
//! the module docs of [`super`]).

use super::files::{fetch, FetchError};
use super::job::{read_opening, Control, Descriptor, Job, JobGame, JobResult, FORMAT};
use super::{claim, layout, version};
use crate::eval::openings::Opening;
use crate::eval::records::RecordGame;
use crate::eval::runner::{play_game_unless, GameJob, GameRunError, PlayerSource};
use crate::player::spec::PlayerSpec;
use crate::store::remote::now;
use crate::store::{Remote, StoreError};
use bytes::Bytes;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// Its name in the store (claims, results, heartbeat).
    pub name: String,
    /// Games played at once (each thread plays one pair at a time).
    pub concurrency: usize,
    /// Where fetched files are kept.
    pub cache: PathBuf,
    /// Keep waiting after the evaluation ended (a Deployment's pods must not exit).
    pub stay: bool,
    /// How often an idle worker looks for jobs.
    pub poll: Duration,
    /// Play outside engines (`uci:` players), which run a command the job names.
    pub allow_uci: bool,
}

/// What a worker did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerSummary {
    /// Pairs whose result it uploaded and which counted as the pair's result.
    pub pairs: u64,
    /// Games in those pairs.
    pub games: u64,
    /// Pairs it played whose result another worker had uploaded first.
    pub duplicates: u64,
    /// Pairs it gave up (claim lost, job withdrawn, stopped).
    pub abandoned: u64,
    /// Why it stopped.
    pub ended: String,
}

/// Why a worker stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The store failed (after retries).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The prefix is not an evaluation this worker can serve.
    #[error("{0}")]
    Refused(String),
}

/// Reads the prefix's descriptor, waiting (and saying so every 30 s) while there is none; an
/// error when it is not an evaluation of this build.
pub fn wait_for_descriptor(remote: &Remote, stop: &AtomicBool) -> Result<Option<Descriptor>, WorkerError> {
    let mut said = None::<Instant>;
    loop {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        if let Some((bytes, _)) = remote.get(layout::DESCRIPTOR)? {
            let d: Descriptor =
                serde_json::from_slice(&bytes).ok().filter(|d: &Descriptor| d.format == FORMAT).ok_or_else(|| {
                    WorkerError::Refused(format!("{}: not a fiveup evaluation", remote.url_of(layout::DESCRIPTOR)))
                })?;
            if d.fiveup != version() {
                return Err(WorkerError::Refused(format!(
                    "{}: the coordinator is fiveup {}; this worker is fiveup {}: run the same build on every machine",
                    remote.url(),
                    d.fiveup,
                    version()
                )));
            }
            return Ok(Some(d));
        }
        for o in layout::TRAINING {
            if remote.get(o)?.is_some() {
                return Err(WorkerError::Refused(format!(
                    "{}: holds a training run, not an evaluation (use `fiveup selfplay` for its workers)",
                    remote.url()
                )));
            }
        }
        if said.is_none_or(|t| t.elapsed() >= Duration::from_secs(30)) {
            tracing::info!("{}: no evaluation yet (games.json); waiting for a coordinator", remote.url());
            said = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// The evaluation's state (`running` when there is none yet).
pub fn control(remote: &Remote) -> Result<Control, StoreError> {
    Ok(match remote.get(layout::CONTROL)? {
        Some((b, _)) => serde_json::from_slice(&b).unwrap_or(Control {
            state: "running".into(),
            reason: String::new(),
            updated_unix: 0.0,
        }),
        None => Control { state: "running".into(), reason: String::new(), updated_unix: 0.0 },
    })
}

struct Shared {
    remote: Arc<Remote>,
    cfg: WorkerConfig,
    ttl: f64,
    game: String,
    /// Jobs this worker cannot play (reported under `failed/`).
    skip: Mutex<HashSet<String>>,
    fetch_lock: Mutex<()>,
    pairs: AtomicU64,
    games: AtomicU64,
    duplicates: AtomicU64,
    abandoned: AtomicU64,
    current: Mutex<Vec<String>>,
}

impl Shared {
    fn heartbeat(&self) {
        let body = serde_json::json!({
            "name": self.cfg.name,
            "fiveup": version(),
            "host": crate::store::lease::host_name(),
            "pid": std::process::id(),
            "concurrency": self.cfg.concurrency,
            "pairs": self.pairs.load(Ordering::Relaxed),
            "games": self.games.load(Ordering::Relaxed),
            "playing": *self.current.lock().unwrap_or_else(|e| e.into_inner()),
            "updated_unix": now(),
        });
        if let Err(e) = self.remote.put(&layout::worker(&self.cfg.name), Bytes::from(body.to_string())) {
            tracing::warn!("heartbeat: {e}");
        }
    }
}

/// Plays jobs of the evaluation on `remote` (whose descriptor `d` names game `S`) until it ends
/// (or for ever with `cfg.stay`) or `stop` is set (then the pairs in progress are released at
/// once for other workers).
pub fn run_worker<S: RecordGame>(
    remote: Arc<Remote>,
    d: &Descriptor,
    cfg: WorkerConfig,
    stop: Arc<AtomicBool>,
) -> Result<WorkerSummary, WorkerError> {
    let shared = Arc::new(Shared {
        remote,
        ttl: d.claim_ttl_s.max(1.0),
        game: d.game.clone(),
        cfg,
        skip: Mutex::new(HashSet::new()),
        fetch_lock: Mutex::new(()),
        pairs: AtomicU64::new(0),
        games: AtomicU64::new(0),
        duplicates: AtomicU64::new(0),
        abandoned: AtomicU64::new(0),
        current: Mutex::new(Vec::new()),
    });
    if let Err(e) = std::fs::create_dir_all(shared.cfg.cache.join("live")) {
        return Err(WorkerError::Store(StoreError::local(&shared.cfg.cache.join("live"), e)));
    }
    shared.heartbeat();
    tracing::info!(
        "worker {} on {}: {} (`fiveup {}`), {} at once",
        shared.cfg.name,
        shared.remote.url(),
        d.game,
        d.command,
        shared.cfg.concurrency
    );
    let ended = Mutex::new(None::<String>);
    let first_error = Mutex::new(None::<WorkerError>);
    std::thread::scope(|scope| {
        for t in 0..shared.cfg.concurrency.max(1) {
            let (shared, stop_t, ended, first_error) = (shared.clone(), stop.clone(), &ended, &first_error);
            let spawned =
                std::thread::Builder::new().name(format!("worker-{t}")).spawn_scoped(
                    scope,
                    move || match worker_loop::<S>(&shared, &stop_t) {
                        Ok(why) => {
                            ended.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(why);
                        }
                        Err(e) => {
                            first_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                            stop_t.store(true, Ordering::SeqCst);
                        }
                    },
                );
            if let Err(e) = spawned {
                first_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(WorkerError::Refused(format!("cannot start thread {t}: {e} (lower --concurrency)")));
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    shared.heartbeat();
    if let Some(e) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(WorkerSummary {
        pairs: shared.pairs.load(Ordering::Relaxed),
        games: shared.games.load(Ordering::Relaxed),
        duplicates: shared.duplicates.load(Ordering::Relaxed),
        abandoned: shared.abandoned.load(Ordering::Relaxed),
        ended: ended.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_else(|| "stopped".into()),
    })
}

/// One thread's loop: the reason it ended.
fn worker_loop<S: RecordGame>(sh: &Shared, stop: &AtomicBool) -> Result<String, WorkerError> {
    let mut last_beat = Instant::now();
    let mut said_ended = false;
    loop {
        if stop.load(Ordering::SeqCst) {
            return Ok("stopped".into());
        }
        if last_beat.elapsed() >= Duration::from_secs(10) {
            sh.heartbeat();
            last_beat = Instant::now();
        }
        let c = control(&sh.remote)?;
        let jobs = if c.ended() { Vec::new() } else { sh.remote.list("jobs/")? };
        if jobs.is_empty() && c.ended() {
            if !sh.cfg.stay {
                return Ok(format!(
                    "the evaluation is {}{}",
                    c.state,
                    if c.reason.is_empty() { String::new() } else { format!(": {}", c.reason) }
                ));
            }
            if !said_ended {
                tracing::info!("the evaluation is {}; waiting (--stay)", c.state);
                said_ended = true;
            }
        } else {
            said_ended = false;
        }
        let mut played = false;
        if !jobs.is_empty() {
            let claims = claim::states(&sh.remote.list("claims/")?);
            // In posting order (the names begin with the sequence number; listings are sorted).
            let candidates: Vec<(String, String)> =
                jobs.iter().filter_map(|o| Some((o.name.clone(), layout::job_id_of(&o.name)?.to_string()))).collect();
            for (object, id) in candidates {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                if sh.skip.lock().unwrap_or_else(|e| e.into_inner()).contains(&id) {
                    continue;
                }
                let Some(generation) = claim::next_generation(claims.get(&id), now(), sh.ttl) else { continue };
                // Played, waiting for the coordinator (which moves a refused result aside).
                if sh.remote.get(&layout::result(&id))?.is_some() {
                    continue;
                }
                if !claim::take(&sh.remote, &id, generation, &sh.cfg.name)? {
                    continue;
                }
                play_job::<S>(sh, &object, &id, generation, stop)?;
                played = true;
                break;
            }
        }
        if !played {
            sleep_unless(stop, sh.cfg.poll);
        }
    }
}

fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
    }
}

/// Builds the players of one game, fetching their files.
fn source<S: RecordGame>(sh: &Shared, p: &super::job::PlayerRef) -> Result<PlayerSource<S>, String> {
    let mut spec = if p.unlimited { PlayerSpec::parse_unlimited(&p.spec) } else { p.spec.parse::<PlayerSpec>() }
        .map_err(|e| format!("player {}: {e}", p.spec))?;
    if matches!(spec, PlayerSpec::Uci(_)) && !sh.cfg.allow_uci {
        return Err(format!(
            "player {} runs a command on this machine; start the worker with --allow-uci to play outside engines",
            p.spec
        ));
    }
    let mut local = Vec::new();
    for f in &p.files {
        let _g = sh.fetch_lock.lock().unwrap_or_else(|e| e.into_inner());
        let path = fetch(&sh.remote, &sh.cfg.cache, f).map_err(|e| match e {
            FetchError::Store(e) => e.to_string(),
            FetchError::Damaged(m) => m,
        })?;
        local.push((f.path.clone(), path));
    }
    let mut missing = None;
    spec.map_files(&mut |path: &Path| {
        let shown = path.display().to_string();
        match local.iter().find(|(p, _)| *p == shown) {
            Some((_, l)) => l.clone(),
            None => {
                missing.get_or_insert(shown);
                path.to_path_buf()
            }
        }
    });
    if let Some(m) = missing {
        return Err(format!("player {}: the job does not carry its file {m}", p.spec));
    }
    let name = p.spec.clone();
    // Built once here so that a player this machine cannot build fails before any game.
    S::build_player(&spec).map_err(|e| format!("cannot build player {name}: {e}"))?;
    Ok(PlayerSource::factory(name, move || Ok(S::build_player(&spec)?)))
}

fn game_job<S: RecordGame>(sh: &Shared, id: &str, g: usize, jg: &JobGame) -> Result<GameJob<S>, String> {
    let (start, moves) = read_opening::<S>(jg)?;
    let tc = match &jg.tc {
        Some(t) => Some(t.parse().map_err(|e| format!("time control {t}: {e}"))?),
        None => None,
    };
    let adjudicate = match jg.adjudicate_material {
        None => None,
        Some(pawns) if !(pawns.is_finite() && pawns > 0.0) => {
            return Err(format!("its material judge's margin {pawns} is not a positive number of pawns"))
        }
        Some(pawns) => Some(S::material_adjudicator(pawns).ok_or_else(|| {
            format!("its games are judged by material at the cap, which {} has no judge for", sh.game)
        })?),
    };
    Ok(GameJob {
        white: source::<S>(sh, &jg.white)?,
        black: source::<S>(sh, &jg.black)?,
        opening: Opening { start, moves },
        max_plies: jg.max_plies,
        tc,
        event: jg.event.clone(),
        tags: jg.tags.clone(),
        live: jg.live.then(|| sh.cfg.cache.join("live").join(format!("{id}-{g}.json"))),
        adjudicate,
    })
}

/// Plays job `id` (the object `object`) under our claim `generation`, uploads its result.
fn play_job<S: RecordGame>(
    sh: &Shared,
    object: &str,
    id: &str,
    generation: u32,
    stop: &AtomicBool,
) -> Result<(), WorkerError> {
    let started = Instant::now();
    let give_up = |sh: &Shared, why: String| -> Result<(), WorkerError> {
        tracing::error!("cannot play pair {id}: {why}");
        let body = serde_json::json!({ "worker": sh.cfg.name, "error": why, "fiveup": version() });
        sh.remote.put(&layout::failed(id, &sh.cfg.name), Bytes::from(body.to_string()))?;
        claim::release(&sh.remote, id, generation)?;
        sh.skip.lock().unwrap_or_else(|e| e.into_inner()).insert(id.to_string());
        Ok(())
    };
    let Some((bytes, _)) = sh.remote.get(object)? else {
        // Withdrawn or counted since the listing.
        claim::release(&sh.remote, id, generation)?;
        return Ok(());
    };
    let job: Job = match serde_json::from_slice(&bytes) {
        Ok(j) => j,
        Err(e) => return give_up(sh, format!("its job is not readable: {e}")),
    };
    if job.id != id || job.game != sh.game {
        return give_up(sh, format!("its job names pair {} of {}", job.id, job.game));
    }
    sh.current.lock().unwrap_or_else(|e| e.into_inner()).push(id.to_string());
    sh.heartbeat();
    // The claim's keeper, from the claim on (fetching a network may take a while): renews it,
    // notices a withdrawn job or an ended evaluation, uploads the games in progress.
    let lost = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let live_paths: Mutex<Vec<(usize, PathBuf)>> = Mutex::new(Vec::new());
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| keep_claim(sh, object, id, generation, &live_paths, &lost, &done, stop));
        let played = (|| {
            let mut jobs = Vec::with_capacity(job.games.len());
            for (g, jg) in job.games.iter().enumerate() {
                jobs.push(game_job::<S>(sh, id, g, jg).map_err(Err)?);
            }
            *live_paths.lock().unwrap_or_else(|e| e.into_inner()) =
                jobs.iter().enumerate().filter_map(|(g, j)| j.live.clone().map(|p| (g, p))).collect();
            let mut records = Vec::new();
            for j in &jobs {
                let abandon = || lost.load(Ordering::SeqCst) || stop.load(Ordering::SeqCst);
                records.push(play_game_unless(j, &mut |_, _| {}, &abandon).map_err(Ok)?.to_text());
            }
            Ok(records)
        })();
        done.store(true, Ordering::SeqCst);
        played
    });
    sh.current.lock().unwrap_or_else(|e| e.into_inner()).retain(|x| x != id);
    sh.heartbeat();
    for (g, p) in live_paths.into_inner().unwrap_or_else(|e| e.into_inner()) {
        let _ = std::fs::remove_file(&p);
        let _ = sh.remote.delete(&layout::live(id, g));
    }
    // Err(Err(why)): a job this worker cannot play; Err(Ok(e)): a game that failed.
    let records: Vec<String> = match outcome {
        Ok(r) => r,
        Err(Err(why)) => return give_up(sh, why),
        Err(Ok(GameRunError::Abandoned)) => {
            sh.abandoned.fetch_add(1, Ordering::Relaxed);
            if stop.load(Ordering::SeqCst) {
                tracing::info!("gave up pair {id}: stopping");
            } else {
                tracing::info!("gave up pair {id}: its claim was taken over or the job withdrawn");
            }
            // Free for another worker at once (harmless when a newer claim exists: the newest counts).
            claim::release(&sh.remote, id, generation)?;
            return Ok(());
        }
        Err(Ok(e)) => return give_up(sh, e.to_string()),
    };
    let result = JobResult {
        id: id.to_string(),
        fiveup: version(),
        worker: sh.cfg.name.clone(),
        records,
        seconds: started.elapsed().as_secs_f64(),
    };
    let body = Bytes::from(serde_json::to_vec_pretty(&result).expect("serialises"));
    match sh.remote.put_new(&layout::result(id), body)? {
        Some(_) => {
            sh.pairs.fetch_add(1, Ordering::Relaxed);
            sh.games.fetch_add(job.games.len() as u64, Ordering::Relaxed);
            tracing::info!("pair {id}: {} games in {:.1} s", job.games.len(), result.seconds);
        }
        None => {
            sh.duplicates.fetch_add(1, Ordering::Relaxed);
            tracing::info!("pair {id}: another worker's result was there first; ours is dropped");
        }
    }
    Ok(())
}

/// Renews the claim every quarter of the time to live until `done`; sets `lost` when it was
/// taken over, the job withdrawn or the evaluation ended; uploads changed live files every
/// second.
#[allow(clippy::too_many_arguments)]
fn keep_claim(
    sh: &Shared,
    object: &str,
    id: &str,
    generation: u32,
    live: &Mutex<Vec<(usize, PathBuf)>>,
    lost: &AtomicBool,
    done: &AtomicBool,
    stop: &AtomicBool,
) {
    let every = Duration::from_secs_f64((sh.ttl / 4.0).clamp(0.2, 30.0));
    let mut last_renew = Instant::now();
    let mut last_live = Instant::now();
    let mut seen: HashMap<usize, std::time::SystemTime> = HashMap::new();
    while !done.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50));
        if last_live.elapsed() >= Duration::from_secs(1) {
            last_live = Instant::now();
            let live = live.lock().unwrap_or_else(|e| e.into_inner()).clone();
            for (g, p) in &live {
                let Ok(modified) = std::fs::metadata(p).and_then(|m| m.modified()) else { continue };
                if seen.get(g) != Some(&modified) {
                    if let Ok(b) = std::fs::read(p) {
                        if sh.remote.put(&layout::live(id, *g), Bytes::from(b)).is_ok() {
                            seen.insert(*g, modified);
                        }
                    }
                }
            }
        }
        if last_renew.elapsed() < every {
            continue;
        }
        last_renew = Instant::now();
        let still = claim::renew(&sh.remote, id, generation, &sh.cfg.name)
            .and_then(|ours| Ok(ours && sh.remote.get(object)?.is_some()))
            .and_then(|ok| Ok(ok && !control(&sh.remote)?.ended()));
        match still {
            Ok(true) => {}
            Ok(false) => {
                lost.store(true, Ordering::SeqCst);
                return;
            }
            Err(e) => tracing::warn!("renewing the claim on pair {id}: {e}"),
        }
    }
}
