//! The trainer's lease on a remote run: one trainer at a time, and a trainer that died blocks no
//! one for longer than the lease's time to live.
//!
//! `trainer.lease` holds `{holder, renewed_unix, ttl_s}`. A trainer takes it with a conditional
//! create when there is none, or with a compare-and-swap on the entity tag of an expired one
//! (renewed longer than `ttl_s` ago by the writer's clock: machines' clocks must agree to within a
//! few seconds, as NTP keeps them). A live lease is waited for while it stays unrenewed (its holder
//! may have just died: a restarted trainer finds its own old lease); one that is renewed while we
//! wait belongs to a running trainer, and that is an error. The holder renews every `ttl_s / 3`
//! seconds with a compare-and-swap; a failed swap means another trainer took the run over (unless
//! the lease names us: our own retried swap), and the holder stops at its next safe point
//! ([`Lease::lost`]). Before each upload, and again before `best` and `state.json` go up, the
//! trainer calls [`Lease::check`], which always swaps, so a trainer that was frozen (a suspended
//! machine) never replaces its successor's pointers. Released by a swap to an expired lease, never
//! by a blind delete.

use super::remote::{now, Remote, RetryPolicy};
use super::StoreError;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The lease object's name.
pub const LEASE: &str = "trainer.lease";

/// The lease's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaseBody {
    /// Who holds it: host, process id and a random tag.
    pub holder: String,
    /// When it was last renewed (seconds since the epoch, the holder's clock).
    pub renewed_unix: f64,
    /// Seconds after `renewed_unix` at which it expires.
    pub ttl_s: f64,
}

struct Held {
    e_tag: String,
    renewed: std::time::Instant,
}

/// A held lease, renewed by a background thread until dropped (then deleted).
pub struct Lease {
    remote: Arc<Remote>,
    object: String,
    role: &'static str,
    holder: String,
    ttl: Duration,
    held: Arc<Mutex<Held>>,
    lost: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lease").field("holder", &self.holder).finish()
    }
}

fn body(holder: &str, ttl: Duration) -> Bytes {
    let b = LeaseBody { holder: holder.to_string(), renewed_unix: now(), ttl_s: ttl.as_secs_f64() };
    Bytes::from(serde_json::to_vec_pretty(&b).expect("a lease serialises"))
}

/// This process's holder name.
pub fn holder_name() -> String {
    let tag: u32 = rand::random();
    format!("{}:{}:{tag:08x}", host_name(), std::process::id())
}

/// This machine's host name (`host` when it cannot be read).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "host".into())
}

impl Lease {
    /// Takes the lease of the run at `remote`, waiting (and saying so) while an unrenewed one
    /// runs out; an error when a running trainer keeps renewing it.
    pub fn acquire(remote: Arc<Remote>, ttl: Duration) -> Result<Lease, StoreError> {
        Lease::acquire_as(remote, LEASE, "trainer", ttl)
    }

    /// Takes the lease object `object` for a process of kind `role` (`trainer`, `coordinator`:
    /// the word the errors use), as [`Lease::acquire`] does the trainer's.
    pub fn acquire_as(
        remote: Arc<Remote>,
        object: &str,
        role: &'static str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        let holder = holder_name();
        let start = |remote, holder, e_tag| Lease::start(remote, object, role, holder, ttl, e_tag);
        let mut waited_on: Option<(String, f64)> = None;
        loop {
            match remote.get(object)? {
                None => {
                    if let Some(info) = remote.put_new(object, body(&holder, ttl))? {
                        return Ok(start(remote, holder, info.e_tag));
                    }
                    // Taken: by another trainer, or by our own put whose answer was lost.
                    if let Some(e_tag) = ours(&remote, object, &holder)? {
                        return Ok(start(remote, holder, Some(e_tag)));
                    }
                }
                Some((bytes, info)) => {
                    let Ok(old) = serde_json::from_slice::<LeaseBody>(&bytes) else {
                        return Err(StoreError::Foreign {
                            url: remote.url_of(object),
                            detail: "not a fiveup lease: is this prefix another program's?".into(),
                        });
                    };
                    let e_tag = info.e_tag.clone().ok_or_else(|| StoreError::Unsupported {
                        url: remote.url_of(object),
                        detail: "objects have no entity tags, so a lease cannot be taken safely".into(),
                    })?;
                    let age = now() - old.renewed_unix;
                    if age > old.ttl_s {
                        if let Some(info) = remote.put_if(object, body(&holder, ttl), &e_tag)? {
                            if old.renewed_unix > 0.0 {
                                tracing::info!(
                                    "took over the expired lease of {} (renewed {age:.0} s ago)",
                                    old.holder
                                );
                            }
                            return Ok(start(remote, holder, info.e_tag));
                        }
                        if let Some(e_tag) = ours(&remote, object, &holder)? {
                            return Ok(start(remote, holder, Some(e_tag)));
                        }
                        continue;
                    }
                    match &waited_on {
                        Some((h, r)) if *h == old.holder && *r != old.renewed_unix => {
                            return Err(StoreError::Leased {
                                url: remote.url_of(object),
                                role: role.into(),
                                holder: old.holder,
                                age,
                            });
                        }
                        _ => {}
                    }
                    let left = (old.ttl_s - age).max(0.0) + 0.5;
                    if waited_on.is_none() {
                        tracing::warn!(
                            "{}: held by {} (renewed {age:.0} s ago); waiting up to {left:.0} s for it to expire (a {role} that died leaves one behind)",
                            remote.url_of(object),
                            old.holder
                        );
                    }
                    waited_on = Some((old.holder, old.renewed_unix));
                    // A live holder renews every third of its time to live: wake by then to tell.
                    let left = left.min(old.ttl_s / 3.0 + 1.0);
                    std::thread::sleep(Duration::from_secs_f64(left));
                }
            }
        }
    }

    fn start(
        remote: Arc<Remote>,
        object: &str,
        role: &'static str,
        holder: String,
        ttl: Duration,
        e_tag: Option<String>,
    ) -> Lease {
        let object = object.to_string();
        let held = Arc::new(Mutex::new(Held { e_tag: e_tag.unwrap_or_default(), renewed: std::time::Instant::now() }));
        let lost = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (remote, object, holder, held, lost, stop) =
                (remote.clone(), object.clone(), holder.clone(), held.clone(), lost.clone(), stop.clone());
            std::thread::Builder::new()
                .name("fiveup-lease".into())
                .spawn(move || {
                    let tick = Duration::from_millis(200);
                    let mut since = Duration::ZERO;
                    while !stop.load(Ordering::SeqCst) && !lost.load(Ordering::SeqCst) {
                        std::thread::sleep(tick);
                        since += tick;
                        if since >= ttl / 3 {
                            since = Duration::ZERO;
                            if let Err(e) = renew(&remote, &object, role, &holder, ttl, &held, &lost) {
                                tracing::warn!("lease renewal: {e}");
                            }
                        }
                    }
                })
                .ok()
        };
        tracing::info!("{}: held by {holder} (time to live {:.0} s)", remote.url_of(&object), ttl.as_secs_f64());
        Lease { remote, object, role, holder, ttl, held, lost, stop, thread }
    }

    /// Whether another process of the same role took the run over.
    pub fn lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Makes sure the lease is still ours before an upload: renews it by compare-and-swap. An
    /// error when it was lost.
    pub fn check(&self) -> Result<(), StoreError> {
        // Always a swap (one conditional put per sync): a clock that stood still (a suspended
        // machine: Instant does not advance) cannot make a stale lease look fresh.
        renew(&self.remote, &self.object, self.role, &self.holder, self.ttl, &self.held, &self.lost)?;
        if self.lost() {
            return Err(StoreError::Leased {
                url: self.remote.url_of(&self.object),
                role: self.role.into(),
                holder: format!("another {}", self.role),
                age: 0.0,
            });
        }
        Ok(())
    }
}

/// The entity tag of the lease when it names `holder` (our own write whose answer was lost).
fn ours(remote: &Remote, object: &str, holder: &str) -> Result<Option<String>, StoreError> {
    Ok(match remote.get(object)? {
        Some((bytes, info)) => {
            serde_json::from_slice::<LeaseBody>(&bytes).ok().filter(|b| b.holder == holder).and(info.e_tag)
        }
        None => None,
    })
}

/// One compare-and-swap renewal.
fn renew(
    remote: &Remote,
    object: &str,
    role: &str,
    holder: &str,
    ttl: Duration,
    held: &Mutex<Held>,
    lost: &AtomicBool,
) -> Result<(), StoreError> {
    let mut h = held.lock().expect("lease");
    if lost.load(Ordering::SeqCst) {
        return Ok(());
    }
    let swapped = match remote.put_if_within(object, body(holder, ttl), &h.e_tag, RetryPolicy::LEASE)? {
        Some(info) => info.e_tag,
        // A swap refused: another trainer's lease, or our own retried swap whose first answer
        // was lost (the object then names us).
        None => ours(remote, object, holder)?,
    };
    match swapped {
        Some(e_tag) => {
            h.e_tag = e_tag;
            h.renewed = std::time::Instant::now();
        }
        None => {
            tracing::error!("{}: the lease was taken by another {role}; stopping", remote.url_of(object));
            lost.store(true, Ordering::SeqCst);
        }
    }
    Ok(())
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if !self.lost() {
            // Released by a swap to an expired lease, never by a blind delete: a trainer that lost
            // its lease without noticing (cut off from the store) must not delete its successor's.
            let released = LeaseBody { holder: format!("{} (released)", self.holder), renewed_unix: 0.0, ttl_s: 0.0 };
            let bytes = Bytes::from(serde_json::to_vec_pretty(&released).expect("a lease serialises"));
            let e_tag = self.held.lock().expect("lease").e_tag.clone();
            match self.remote.put_if_within(&self.object, bytes, &e_tag, RetryPolicy::LEASE) {
                Ok(Some(_)) => {}
                Ok(None) => {
                    tracing::warn!("{}: not released: another {} holds it", self.remote.url_of(&self.object), self.role)
                }
                Err(e) => tracing::warn!("releasing the lease: {e}"),
            }
        }
    }
}
