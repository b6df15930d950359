//! The coordinator: posts a command's games as jobs, collects and checks the results, and hands
//! the games to the command's callback in job order (see the module docs of [`super`]).

use super::files::{ship, Shipped};
use super::job::{check_result, job_id, opening_text, Control, Descriptor, Job, JobGame, JobResult, PlayerRef, FORMAT};
use super::{claim, layout, version};
use crate::eval::records::{RecordGame, TextRecord};
use crate::eval::runner::{GameJob, GameRunError, PlayerSource};
use crate::store::lease::Lease;
use crate::store::remote::now;
use crate::store::{Remote, RunLocation, StoreError};
use bytes::Bytes;
use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Pairs posted ahead of the one the command waits for.
pub const WINDOW: usize = 64;

/// The coordinator's lease time to live (object stores).
const LEASE_TTL: Duration = Duration::from_secs(15);

/// The coordinator of an evaluation on a store prefix or a directory.
pub struct Coordinator {
    remote: Arc<Remote>,
    descriptor: Descriptor,
    _lease: Option<Lease>,
    _lock: Option<std::fs::File>,
    state: Mutex<State>,
    poll: Duration,
    /// Set by [`Coordinator::finish`]; a coordinator dropped without it tells the workers to stop.
    finished: std::sync::atomic::AtomicBool,
}

#[derive(Default)]
struct State {
    /// How many jobs of each content hash this process has named (the occurrence in the ID).
    occurrences: HashMap<String, u32>,
    /// Files shipped, by the path the spec names.
    shipped: HashMap<String, Shipped>,
    /// Jobs whose result was on the store when the coordinator started.
    resumed: HashSet<String>,
    /// Results counted by this process (to count each once).
    counted: HashSet<String>,
    /// Results refused, by job.
    rejections: HashMap<String, u32>,
    /// Jobs posted by this process (their object names' order).
    posted: u64,
    /// Job objects an earlier coordinator of this evaluation posted, by ID.
    posted_before: HashMap<String, String>,
}

/// Refused results of one pair after which the coordinator stops (a pair whose games can never
/// pass the check would be played for ever).
const MAX_REJECTIONS: u32 = 3;

impl std::fmt::Debug for Coordinator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Coordinator").field("url", &self.remote.url()).finish()
    }
}

/// A unit of work in flight.
struct Unit<S: crate::game::State> {
    id: String,
    /// Its object under `jobs/`.
    object: String,
    job: Job,
    games: Vec<(usize, GameJob<S>)>,
    posted_at: Instant,
}

fn store_err(e: StoreError) -> GameRunError {
    GameRunError::Store(e.to_string())
}

impl Coordinator {
    /// Opens (or resumes) the evaluation at `location` for `game` (its name), run by `command`
    /// (the command line, compared on a restart); `claim_ttl` is the workers' claim time to live.
    /// Every check that can fail fast happens here: the store answers, the credentials work,
    /// conditional writes are honoured, the prefix holds this evaluation or nothing, no other
    /// coordinator runs on it.
    pub fn open(
        location: &RunLocation,
        game: &str,
        command: &str,
        claim_ttl: Duration,
    ) -> Result<Coordinator, StoreError> {
        let remote = Arc::new(super::open_store(location, true)?);
        let local = match location {
            RunLocation::Local(dir) => Some(dir.clone()),
            RunLocation::Remote(_) => None,
        };
        for o in layout::TRAINING {
            if remote.get(o)?.is_some() {
                return Err(StoreError::Foreign {
                    url: remote.url().to_string(),
                    detail: format!("holds a training run ({o}); use another prefix for an evaluation"),
                });
            }
        }
        let fresh = Descriptor {
            format: FORMAT.into(),
            fiveup: version(),
            game: game.into(),
            command: command.into(),
            created_unix: now(),
            claim_ttl_s: claim_ttl.as_secs_f64(),
        };
        // The prefix is checked before the lease is waited for (a wrong prefix fails at once),
        // and again under it.
        let existing = || -> Result<Option<Descriptor>, StoreError> {
            match remote.get(layout::DESCRIPTOR)? {
                None => Ok(None),
                Some((bytes, _)) => serde_json::from_slice(&bytes)
                    .ok()
                    .filter(|d: &Descriptor| d.format == FORMAT)
                    .map(Some)
                    .ok_or_else(|| StoreError::Foreign {
                        url: remote.url_of(layout::DESCRIPTOR),
                        detail: "not a fiveup evaluation: is this prefix another program's?".into(),
                    }),
            }
        };
        let same = |old: &Descriptor| -> Result<(), StoreError> {
            if old.command != command || old.game != game {
                return Err(StoreError::Foreign {
                    url: remote.url().to_string(),
                    detail: format!(
                        "holds another evaluation (`fiveup {}`); resume it with that command or use another prefix",
                        old.command
                    ),
                });
            }
            if old.fiveup != version() {
                return Err(StoreError::Foreign {
                    url: remote.url().to_string(),
                    detail: format!(
                        "its evaluation was begun by fiveup {}; this is fiveup {}: finish it with that build or use another prefix",
                        old.fiveup,
                        version()
                    ),
                });
            }
            Ok(())
        };
        if let Some(old) = existing()? {
            same(&old)?;
        }
        // One coordinator at a time.
        let (lease, lock) = match &local {
            None => (Some(Lease::acquire_as(remote.clone(), layout::LEASE, "coordinator", LEASE_TTL)?), None),
            Some(dir) => (None, Some(lock_dir(dir)?)),
        };
        let descriptor = match existing()? {
            None => {
                if !remote
                    .list("")?
                    .iter()
                    .all(|o| o.name == layout::LEASE || o.name == layout::LOCK || o.name.starts_with('.'))
                {
                    return Err(StoreError::Foreign {
                        url: remote.url().to_string(),
                        detail: "holds files but no evaluation (games.json): use an empty prefix".into(),
                    });
                }
                remote.put(layout::DESCRIPTOR, Bytes::from(serde_json::to_vec_pretty(&fresh).expect("serialises")))?;
                fresh
            }
            Some(old) => {
                same(&old)?;
                if old.claim_ttl_s != fresh.claim_ttl_s {
                    let d = Descriptor { claim_ttl_s: fresh.claim_ttl_s, ..old };
                    remote.put(layout::DESCRIPTOR, Bytes::from(serde_json::to_vec_pretty(&d).expect("serialises")))?;
                    d
                } else {
                    old
                }
            }
        };
        let resumed: HashSet<String> = remote
            .list("results/")?
            .into_iter()
            .filter_map(|o| o.name.strip_prefix("results/")?.strip_suffix(".json").map(str::to_string))
            .collect();
        if !resumed.is_empty() {
            tracing::info!("{}: resuming: {} results already on the store", remote.url(), resumed.len());
        }
        // What an earlier coordinator of this evaluation left: its posted jobs are kept under
        // their names (workers may be playing them; this one reuses them, and `finish` removes
        // what is left), its workers' failure reports are cleared (the cause may be mended).
        let posted_before: HashMap<String, String> = remote
            .list("jobs/")?
            .into_iter()
            .filter_map(|o| Some((layout::job_id_of(&o.name)?.to_string(), o.name)))
            .collect();
        for o in remote.list("failed/")? {
            remote.delete(&o.name)?;
        }
        let c = Coordinator {
            remote,
            descriptor,
            _lease: lease,
            _lock: lock,
            state: Mutex::new(State { resumed, posted_before, ..State::default() }),
            poll: Duration::from_millis(200),
            finished: std::sync::atomic::AtomicBool::new(false),
        };
        c.set_control("running", "")?;
        Ok(c)
    }

    /// The store (for status and tests).
    pub fn remote(&self) -> &Remote {
        &self.remote
    }

    /// The evaluation's descriptor.
    pub fn descriptor(&self) -> &Descriptor {
        &self.descriptor
    }

    /// An error once another coordinator has taken the evaluation over: a coordinator that lost
    /// its lease writes nothing more.
    fn ours(&self) -> Result<(), StoreError> {
        match &self._lease {
            Some(l) if l.lost() => Err(StoreError::Foreign {
                url: self.remote.url().to_string(),
                detail: "another coordinator took this evaluation over".into(),
            }),
            _ => Ok(()),
        }
    }

    fn set_control(&self, state: &str, reason: &str) -> Result<(), StoreError> {
        if let Some(l) = &self._lease {
            l.check()?;
        }
        let c = Control { state: state.into(), reason: reason.into(), updated_unix: now() };
        self.remote.put(layout::CONTROL, Bytes::from(serde_json::to_vec_pretty(&c).expect("serialises")))?;
        Ok(())
    }

    /// Ends the evaluation: workers exit (or wait, with `--stay`) and jobs left are withdrawn.
    pub fn finish(&self, reason: &str) -> Result<(), StoreError> {
        self.set_control("finished", reason)?;
        self.finished.store(true, std::sync::atomic::Ordering::SeqCst);
        for o in self.remote.list("jobs/")? {
            self.remote.delete(&o.name)?;
        }
        Ok(())
    }

    fn player<S: RecordGame>(&self, p: &PlayerSource<S>, unlimited: bool) -> Result<PlayerRef, GameRunError> {
        let PlayerSource::Spec(spec) = p else {
            return Err(GameRunError::Store(format!(
                "player {} is built in memory and cannot be played on other machines",
                p.name()
            )));
        };
        let mut files = Vec::new();
        for path in spec.files() {
            let shown = path.display().to_string();
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let s = match st.shipped.get(&shown) {
                Some(s) => s.clone(),
                None => {
                    let s = ship(&self.remote, path, &shown).map_err(store_err)?;
                    tracing::info!(
                        "shipped {shown} ({} files) to {}",
                        s.entries.len(),
                        self.remote.url_of(&format!("files/{}", s.sha256))
                    );
                    st.shipped.insert(shown.clone(), s.clone());
                    s
                }
            };
            files.push(s);
        }
        Ok(PlayerRef { spec: spec.to_string(), unlimited, files })
    }

    fn job_game<S: RecordGame>(&self, j: &GameJob<S>) -> Result<JobGame, GameRunError> {
        let adjudicate_material = match &j.adjudicate {
            None => None,
            Some(a) => Some(a.material_pawns.ok_or_else(|| {
                GameRunError::Store(
                    "this adjudicator cannot travel to workers (endgame tables: leave out --adjudicate-tb)".into(),
                )
            })?),
        };
        let (ruleset, flags, start, moves) = opening_text(j);
        Ok(JobGame {
            white: self.player(&j.white, j.tc.is_some())?,
            black: self.player(&j.black, j.tc.is_some())?,
            ruleset,
            flags,
            start,
            moves,
            max_plies: j.max_plies,
            tc: j.tc.map(|t| t.to_string()),
            event: j.event.clone(),
            tags: j.tags.clone(),
            live: j.live.is_some(),
            adjudicate_material,
        })
    }

    /// Names and posts one unit (unless its result is on the store already).
    fn post<S: RecordGame>(&self, games: Vec<(usize, GameJob<S>)>) -> Result<Unit<S>, GameRunError> {
        let job_games = games.iter().map(|(_, j)| self.job_game(j)).collect::<Result<Vec<_>, _>>()?;
        let base = job_id(&job_games, 1);
        let (id, resumed, seq, before) = {
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let n = st.occurrences.entry(base).or_insert(0);
            *n += 1;
            let id = job_id(&job_games, *n);
            let resumed = st.resumed.contains(&id);
            st.posted += 1;
            let before = st.posted_before.remove(&id);
            (id, resumed, st.posted, before)
        };
        let job = Job { id: id.clone(), game: self.descriptor.game.clone(), games: job_games };
        // The same content under an earlier coordinator's name: keep it (a worker may be playing it).
        if let Some(object) = before {
            return Ok(Unit { id, object, job, games, posted_at: Instant::now() });
        }
        let object = layout::job(seq, &id);
        if !resumed {
            self.ours().map_err(store_err)?;
            self.remote
                .put(&object, Bytes::from(serde_json::to_vec_pretty(&job).expect("serialises")))
                .map_err(store_err)?;
        }
        Ok(Unit { id, object, job, games, posted_at: Instant::now() })
    }

    /// The unit's records when its result is on the store and belongs to it; a result that
    /// does not is moved to `rejected/` (logged) and the pair played again.
    fn collect<S: RecordGame>(&self, u: &Unit<S>) -> Result<Option<Vec<TextRecord<S>>>, GameRunError> {
        let name = layout::result(&u.id);
        let Some((bytes, _)) = self.remote.get(&name).map_err(store_err)? else { return Ok(None) };
        let parsed: Result<JobResult, String> =
            serde_json::from_slice(&bytes).map_err(|e| format!("not a result: {e}"));
        let worker = parsed.as_ref().map(|r| r.worker.clone()).unwrap_or_else(|_| "?".into());
        match parsed.and_then(|r| check_result::<S>(&u.job, &r)) {
            Ok(records) => Ok(Some(records)),
            Err(why) => {
                let n = {
                    let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
                    let n = st.rejections.entry(u.id.clone()).or_insert(0);
                    *n += 1;
                    *n
                };
                if n >= MAX_REJECTIONS {
                    return Err(GameRunError::Store(format!(
                        "the result of pair {} was refused {n} times (last from worker {worker}: {why}); stopping",
                        u.id
                    )));
                }
                tracing::warn!(
                    "refused the result of pair {} from worker {worker}: {why}; the pair is played again",
                    u.id
                );
                let aside = format!("rejected/{}-{}.json", u.id, now() as u64);
                self.remote.put(&aside, bytes).map_err(store_err)?;
                self.remote.delete(&name).map_err(store_err)?;
                // A resumed unit's job was not posted: post it now.
                self.ours().map_err(store_err)?;
                self.remote
                    .put(&u.object, Bytes::from(serde_json::to_vec_pretty(&u.job).expect("serialises")))
                    .map_err(store_err)?;
                claim::free(&self.remote, &u.id).map_err(store_err)?;
                Ok(None)
            }
        }
    }

    /// Removes a counted or withdrawn unit's job, claims and live games from the store.
    fn clear(&self, u: &Unit<impl crate::game::State>) -> Result<(), GameRunError> {
        self.ours().map_err(store_err)?;
        self.remote.delete(&u.object).map_err(store_err)?;
        claim::clear(&self.remote, &u.id).map_err(store_err)?;
        for (g, (_, j)) in u.games.iter().enumerate() {
            if j.live.is_some() {
                self.remote.delete(&layout::live(&u.id, g)).map_err(store_err)?;
            }
            if let Some(p) = &j.live {
                let _ = std::fs::remove_file(p);
            }
        }
        Ok(())
    }

    /// A worker's report that it cannot play one of `pending`, as an error.
    fn failures<S: crate::game::State>(&self, pending: &VecDeque<Unit<S>>) -> Result<(), GameRunError> {
        let ids: HashSet<&str> = pending.iter().map(|u| u.id.as_str()).collect();
        for o in self.remote.list("failed/").map_err(store_err)? {
            let Some((id, _)) = o.name.strip_prefix("failed/").and_then(|r| r.split_once('/')) else { continue };
            if !ids.contains(id) {
                continue;
            }
            let (worker, error) = match self.remote.get(&o.name).map_err(store_err)? {
                Some((b, _)) => {
                    let v: serde_json::Value = serde_json::from_slice(&b).unwrap_or_default();
                    (
                        v["worker"].as_str().unwrap_or("?").to_string(),
                        v["error"].as_str().unwrap_or("no reason given").to_string(),
                    )
                }
                None => continue,
            };
            let error = error.lines().next().unwrap_or("").to_string();
            return Err(GameRunError::Store(format!("worker {worker} cannot play pair {id}: {error}")));
        }
        Ok(())
    }

    /// Copies the store's games in progress into the jobs' live files.
    fn mirror_live<S: crate::game::State>(&self, pending: &VecDeque<Unit<S>>) -> Result<(), GameRunError> {
        if !pending.iter().any(|u| u.games.iter().any(|(_, j)| j.live.is_some())) {
            return Ok(());
        }
        let present: HashMap<String, f64> =
            self.remote.list("live/").map_err(store_err)?.into_iter().map(|o| (o.name, o.modified)).collect();
        for u in pending {
            for (g, (_, j)) in u.games.iter().enumerate() {
                let Some(path) = &j.live else { continue };
                let name = layout::live(&u.id, g);
                if present.contains_key(&name) {
                    if let Some((b, _)) = self.remote.get(&name).map_err(store_err)? {
                        if let Err(e) = crate::fsutil::write_visible(path, &b) {
                            tracing::warn!("live game file {}: {e}", path.display());
                        }
                    }
                } else {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
        Ok(())
    }

    /// Plays `jobs` on the workers and calls `on_finished(job index, record)` for each game in
    /// job order; [`ControlFlow::Break`] withdraws the jobs not yet needed. The distributed
    /// [`crate::eval::runner::play_games_until`].
    pub fn play_until<S: RecordGame, I>(
        &self,
        jobs: I,
        on_finished: impl FnMut(usize, TextRecord<S>) -> ControlFlow<()>,
    ) -> Result<(), GameRunError>
    where
        I: IntoIterator<Item = GameJob<S>>,
    {
        let played = self.play_until_inner(jobs, on_finished);
        if let Err(e) = &played {
            // The workers stop too (the command ends with this error).
            if let Err(e2) = self.set_control("stopped", &e.to_string()) {
                tracing::warn!("cannot tell the workers to stop: {e2}");
            }
        }
        played
    }

    fn play_until_inner<S: RecordGame, I>(
        &self,
        jobs: I,
        mut on_finished: impl FnMut(usize, TextRecord<S>) -> ControlFlow<()>,
    ) -> Result<(), GameRunError>
    where
        I: IntoIterator<Item = GameJob<S>>,
    {
        let mut it = jobs.into_iter().enumerate().peekable();
        let mut pending: VecDeque<Unit<S>> = VecDeque::new();
        let mut last_check = Instant::now() - Duration::from_secs(60);
        let mut waited = Duration::ZERO;
        let mut said_waiting = Instant::now();
        loop {
            // 1. Keep a window of pairs posted.
            while pending.len() < WINDOW {
                let Some((i, first)) = it.next() else { break };
                let pair = first.tags.iter().find(|(k, _)| k == "Pair").map(|(_, v)| v.clone());
                let mut games = vec![(i, first)];
                while let Some((_, next)) = it.peek() {
                    let first = &games[0].1;
                    // The colour-swapped twin: same pair, event and players, colours reversed.
                    let same = games.len() < 2
                        && pair.is_some()
                        && next.tags.iter().find(|(k, _)| k == "Pair").map(|(_, v)| v) == pair.as_ref()
                        && next.event == first.event
                        && next.white.name() == first.black.name()
                        && next.black.name() == first.white.name();
                    if !same {
                        break;
                    }
                    games.push(it.next().expect("peeked"));
                }
                pending.push_back(self.post(games)?);
            }
            let Some(front) = pending.front() else { break };
            // 2. The next pair in order, when its result is in.
            if let Some(records) = self.collect(front)? {
                let unit = pending.pop_front().expect("front");
                let first_count = self.state.lock().unwrap_or_else(|e| e.into_inner()).counted.insert(unit.id.clone());
                self.clear(&unit)?;
                waited = Duration::ZERO;
                if !first_count {
                    continue;
                }
                for ((index, _), record) in unit.games.iter().zip(records) {
                    if on_finished(*index, record).is_break() {
                        for u in &pending {
                            self.clear(u)?;
                        }
                        return Ok(());
                    }
                }
                continue;
            }
            // 3. Meanwhile: workers' failures, games in progress, the lease.
            if last_check.elapsed() >= Duration::from_secs(2) {
                last_check = Instant::now();
                self.failures(&pending)?;
                self.mirror_live(&pending)?;
                if self._lease.as_ref().is_some_and(Lease::lost) {
                    return Err(GameRunError::Store(format!(
                        "{}: another coordinator took this evaluation over",
                        self.remote.url()
                    )));
                }
            }
            if said_waiting.elapsed() >= Duration::from_secs(60) {
                said_waiting = Instant::now();
                let workers = self.remote.list("workers/").map_err(store_err)?;
                let alive = workers.iter().filter(|o| now() - o.modified < 120.0).count();
                tracing::info!(
                    "waiting for pair {} (posted {:.0} s ago); {} pairs posted; {alive} workers seen in the last 2 minutes",
                    front.id,
                    front.posted_at.elapsed().as_secs_f64(),
                    pending.len()
                );
            }
            let pause = self.poll.max(Duration::from_millis((waited.as_millis() / 10).min(1000) as u64));
            std::thread::sleep(pause);
            waited += pause;
        }
        Ok(())
    }
}

impl Drop for Coordinator {
    /// A coordinator that ends without [`Coordinator::finish`] (its command failed) tells the
    /// workers to stop; a restart with the same command sets the evaluation running again.
    fn drop(&mut self) {
        if !self.finished.load(std::sync::atomic::Ordering::SeqCst) {
            if let Err(e) = self.set_control("stopped", "the coordinator stopped before the end") {
                tracing::warn!("cannot tell the workers to stop: {e}");
            }
        }
    }
}

/// Locks `dir/coordinator.lock` for this process (released by the system when it dies).
fn lock_dir(dir: &std::path::Path) -> Result<std::fs::File, StoreError> {
    let path: PathBuf = dir.join(layout::LOCK);
    crate::fsutil::try_lock(&path).map_err(|e| StoreError::local(&path, e))?.ok_or_else(|| StoreError::Foreign {
        url: dir.display().to_string(),
        detail: "another coordinator is running on this directory (it holds coordinator.lock)".into(),
    })
}
