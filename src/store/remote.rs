//! One object-store prefix (`s3://bucket/prefix`, `gs://…`, `az://…`) behind a small
//! blocking interface: whole-object gets and puts, conditional puts, listings and deletes, each
//! retried with backoff on transient faults (and saying so), each fault a one-line
//! [`StoreError`] naming the object and what to check.
//!
//! The `object_store` crate's own retries are switched off so that every retry is ours and is
//! logged; its clients take the endpoint, region and credentials from the usual environment
//! variables (`AWS_ENDPOINT`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//! `AWS_ALLOW_HTTP`; `GOOGLE_SERVICE_ACCOUNT` / `GOOGLE_APPLICATION_CREDENTIALS`;
//! `AZURE_STORAGE_ACCOUNT_NAME` / `AZURE_STORAGE_ACCOUNT_KEY`), never from a config file.

use super::StoreError;
use bytes::Bytes;
use futures::StreamExt;
use object_store::path::Path as ObjPath;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload, UpdateVersion};
use std::sync::Arc;
use std::time::Duration;

/// An object as a listing or a get reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectInfo {
    /// Its name relative to the run's prefix (`shards/gen-0001/w1-000003.shard`).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its entity tag (a version identifier; absent where the store has none).
    pub e_tag: Option<String>,
    /// When it was last written, in seconds since the epoch (the store's clock).
    pub modified: f64,
}

/// One operation for [`Remote::run_parallel`].
pub type Op<'a, T> = Box<dyn FnOnce(&Remote) -> Result<T, StoreError> + Send + 'a>;

/// How often and how patiently a transient fault is retried.
#[derive(Clone, Copy, Debug)]
pub struct RetryPolicy {
    /// Attempts in all (1 = no retry).
    pub attempts: u32,
    /// The first wait; each later one doubles, up to `max_delay`.
    pub first_delay: Duration,
    /// The longest wait between two attempts.
    pub max_delay: Duration,
}

impl RetryPolicy {
    /// For the work of a running job: 8 attempts, waits of 0.5 s doubling up to 30 s (about a
    /// minute of waiting, plus each attempt's own timeouts) before giving up.
    pub const PATIENT: RetryPolicy =
        RetryPolicy { attempts: 8, first_delay: Duration::from_millis(500), max_delay: Duration::from_secs(30) };
    /// For the lease's renewals: 4 attempts within about 5 s, well inside a time to live.
    pub const LEASE: RetryPolicy =
        RetryPolicy { attempts: 4, first_delay: Duration::from_millis(500), max_delay: Duration::from_secs(2) };
    /// For the first contact, before any long work starts: a clear error within seconds.
    pub const QUICK: RetryPolicy =
        RetryPolicy { attempts: 2, first_delay: Duration::from_millis(300), max_delay: Duration::from_secs(1) };
}

/// A run's prefix on an object store.
pub struct Remote {
    url: String,
    store: Arc<dyn ObjectStore>,
    prefix: ObjPath,
    rt: tokio::runtime::Runtime,
    retry: RetryPolicy,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote").field("url", &self.url).finish()
    }
}

/// What one attempt's failure means.
enum Fault {
    /// Worth another try (a network error, a timeout, a 5xx, throttling).
    Transient(String),
    /// Final.
    Final(StoreError),
}

impl Remote {
    /// Opens the store a URL names (`s3://bucket/prefix`, `gs://bucket/prefix`,
    /// `az://container/prefix`), with credentials from the environment. Nothing is contacted yet
    /// ([`Remote::probe`] does that).
    pub fn open(url: &str) -> Result<Remote, StoreError> {
        let bad = |detail: String| StoreError::Url { url: url.to_string(), detail };
        let parsed = url::Url::parse(url).map_err(|e| bad(e.to_string()))?;
        let no_retry = object_store::RetryConfig { max_retries: 0, ..Default::default() };
        let key = parsed.path().trim_matches('/').to_string();
        let store: Arc<dyn ObjectStore> = match parsed.scheme() {
            "s3" | "s3a" => {
                let b = object_store::aws::AmazonS3Builder::from_env().with_url(url).with_retry(no_retry);
                Arc::new(b.build().map_err(|e| bad(first_line(&e.to_string())))?)
            }
            "gs" => {
                let b = object_store::gcp::GoogleCloudStorageBuilder::from_env().with_url(url).with_retry(no_retry);
                Arc::new(b.build().map_err(|e| bad(first_line(&e.to_string())))?)
            }
            "az" | "azure" | "abfs" | "abfss" => {
                let b = object_store::azure::MicrosoftAzureBuilder::from_env().with_url(url).with_retry(no_retry);
                Arc::new(b.build().map_err(|e| bad(first_line(&e.to_string())))?)
            }
            other => return Err(bad(format!("unknown scheme {other:?}: use s3://, gs:// or az://"))),
        };
        if parsed.host_str().is_none_or(|h| h.is_empty()) {
            return Err(bad("no bucket named (s3://BUCKET/PREFIX)".into()));
        }
        Remote::with_store(url, store, ObjPath::from(key.as_str()))
    }

    /// The local directory `dir` (created when missing) behind the same interface, for the
    /// commands that work on a local directory and an object store alike (the games of an
    /// evaluation). Conditional creates work there; compare-and-swap updates do not
    /// (`object_store`'s file system store has none), so a lease cannot be held in one.
    pub fn open_dir(dir: &std::path::Path) -> Result<Remote, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::local(dir, e))?;
        let abs = std::fs::canonicalize(dir).map_err(|e| StoreError::local(dir, e))?;
        let store = object_store::local::LocalFileSystem::new_with_prefix(&abs)
            .map_err(|e| StoreError::Url { url: dir.display().to_string(), detail: first_line(&e.to_string()) })?;
        Remote::with_store(&dir.display().to_string(), Arc::new(store), ObjPath::from(""))
    }

    /// A remote over any store (tests use the in-memory one).
    pub fn with_store(url: &str, store: Arc<dyn ObjectStore>, prefix: ObjPath) -> Result<Remote, StoreError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("fiveup-store")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Url {
                url: url.to_string(),
                detail: format!("cannot start the I/O runtime: {e}"),
            })?;
        Ok(Remote { url: url.trim_end_matches('/').to_string(), store, prefix, rt, retry: RetryPolicy::PATIENT })
    }

    /// The run's URL (without a trailing slash).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL of object `name` (the run's URL for "").
    pub fn url_of(&self, name: &str) -> String {
        if name.is_empty() {
            self.url.clone()
        } else {
            format!("{}/{name}", self.url)
        }
    }

    /// Uses `retry` for later calls.
    pub fn set_retry(&mut self, retry: RetryPolicy) {
        self.retry = retry;
    }

    fn path(&self, name: &str) -> ObjPath {
        let mut p = self.prefix.clone();
        for part in name.split('/').filter(|s| !s.is_empty()) {
            p = p.clone().join(part);
        }
        p
    }

    fn name_of(&self, location: &ObjPath) -> Option<String> {
        let parts: Vec<String> = location.prefix_match(&self.prefix)?.map(|p| p.as_ref().to_string()).collect();
        Some(parts.join("/"))
    }

    /// Checks that the store answers and the credentials are good, quickly: lists at most one
    /// object of the prefix. Returns whether the prefix holds anything.
    pub fn probe(&self) -> Result<bool, StoreError> {
        self.retrying("", RetryPolicy::QUICK, "list", || async {
            let mut s = self.store.list(Some(&self.prefix));
            match s.next().await {
                None => Ok(false),
                Some(Ok(_)) => Ok(true),
                Some(Err(e)) => Err(e),
            }
        })
    }

    /// Checks that the store honours conditional puts (the trainer's lease and the workers' shard
    /// names rely on them): creates a probe object, then tries to create it again, which must
    /// fail. Stores that ignore `If-None-Match` (Garage 2.5, for one) are refused here.
    pub fn check_conditional_puts(&self) -> Result<(), StoreError> {
        let name = format!(".probe-{:016x}", rand::random::<u64>());
        let first = self.put_new(&name, Bytes::from_static(b"probe"))?;
        let second = self.put_new(&name, Bytes::from_static(b"probe again"));
        let third = self.put_if(&name, Bytes::from_static(b"probe a third time"), "\"not-its-etag\"");
        let _ = self.delete(&name);
        match (first, second?, third) {
            (Some(_), None, Ok(None)) => Ok(()),
            (Some(_), None, _) => Err(StoreError::Unsupported {
                url: self.url.clone(),
                detail: "a conditional put (If-Match with a wrong entity tag) overwrote an object, so a lost lease \
                         would go unnoticed; use a store that honours conditional writes (AWS S3, MinIO, GCS, Azure, \
                         s3s-fs)"
                    .into(),
            }),
            _ => Err(StoreError::Unsupported {
                url: self.url.clone(),
                detail: "a conditional put (If-None-Match: *) overwrote an existing object, so two trainers \
                         could both hold the lease; use a store that honours conditional writes (AWS S3, MinIO, \
                         GCS, Azure, s3s-fs)"
                    .into(),
            }),
        }
    }

    /// The object `name`, or `None` when there is none.
    pub fn get(&self, name: &str) -> Result<Option<(Bytes, ObjectInfo)>, StoreError> {
        let path = self.path(name);
        let r = self.retrying(name, self.retry, "get", || async {
            let r = self.store.get(&path).await?;
            let meta = r.meta.clone();
            let bytes = r.bytes().await?;
            Ok((bytes, meta))
        });
        match r {
            Ok((bytes, meta)) => Ok(Some((bytes, self.info(&meta, name)))),
            Err(StoreError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Writes `name` whole (replacing any object there).
    pub fn put(&self, name: &str, bytes: Bytes) -> Result<ObjectInfo, StoreError> {
        self.put_mode(name, bytes, PutMode::Overwrite).map(|r| r.expect("an overwrite has no precondition"))
    }

    /// Writes `name` only if no object is there; `None` when one is.
    pub fn put_new(&self, name: &str, bytes: Bytes) -> Result<Option<ObjectInfo>, StoreError> {
        self.put_mode(name, bytes, PutMode::Create)
    }

    /// Replaces `name` only if it still has entity tag `e_tag`; `None` when it changed (or is gone).
    pub fn put_if(&self, name: &str, bytes: Bytes, e_tag: &str) -> Result<Option<ObjectInfo>, StoreError> {
        self.put_if_within(name, bytes, e_tag, self.retry)
    }

    /// [`Remote::put_if`] with its own retry policy (the lease's renewals must end within its
    /// time to live).
    pub fn put_if_within(
        &self,
        name: &str,
        bytes: Bytes,
        e_tag: &str,
        policy: RetryPolicy,
    ) -> Result<Option<ObjectInfo>, StoreError> {
        let mode = PutMode::Update(UpdateVersion { e_tag: Some(e_tag.to_string()), version: None });
        self.put_mode_within(name, bytes, mode, policy)
    }

    fn put_mode(&self, name: &str, bytes: Bytes, mode: PutMode) -> Result<Option<ObjectInfo>, StoreError> {
        self.put_mode_within(name, bytes, mode, self.retry)
    }

    fn put_mode_within(
        &self,
        name: &str,
        bytes: Bytes,
        mode: PutMode,
        policy: RetryPolicy,
    ) -> Result<Option<ObjectInfo>, StoreError> {
        let path = self.path(name);
        let size = bytes.len() as u64;
        let conditional = !matches!(mode, PutMode::Overwrite);
        let path = &path;
        let r = self.retrying(name, policy, "put", || {
            let opts = PutOptions { mode: mode.clone(), ..Default::default() };
            let payload = PutPayload::from_bytes(bytes.clone());
            async move { self.store.put_opts(path, payload, opts).await }
        });
        match r {
            Ok(res) => Ok(Some(ObjectInfo { name: name.to_string(), size, e_tag: res.e_tag, modified: now() })),
            Err(StoreError::Exists { .. } | StoreError::Changed { .. } | StoreError::NotFound { .. })
                if conditional =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Every object whose name starts with `prefix` (a folder such as `shards/` or a name prefix
    /// such as `shards/gen-0001/w1-`), sorted by name.
    pub fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>, StoreError> {
        let (dir, rest) = match prefix.rfind('/') {
            Some(i) => (&prefix[..i], &prefix[i + 1..]),
            None => ("", prefix),
        };
        let base = self.path(dir);
        let metas = self.retrying(prefix, self.retry, "list", || async {
            let base = if dir.is_empty() { self.prefix.clone() } else { base.clone() };
            let mut s = self.store.list(Some(&base));
            let mut v = Vec::new();
            while let Some(m) = s.next().await {
                v.push(m?);
            }
            Ok(v)
        })?;
        let mut out: Vec<ObjectInfo> = metas
            .iter()
            .filter_map(|m| {
                let name = self.name_of(&m.location)?;
                let in_dir = if dir.is_empty() { name.as_str() } else { name.strip_prefix(dir)?.strip_prefix('/')? };
                in_dir.starts_with(rest).then(|| self.info(m, &name))
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Deletes `name` (no error when it is already gone).
    pub fn delete(&self, name: &str) -> Result<(), StoreError> {
        let path = self.path(name);
        match self.retrying(name, self.retry, "delete", || async { self.store.delete(&path).await }) {
            Ok(()) | Err(StoreError::NotFound { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Runs `ops` (each returning a result) on the store's runtime, `parallel` at a time.
    pub fn run_parallel<T: Send + 'static>(&self, ops: Vec<Op<'_, T>>, parallel: usize) -> Result<Vec<T>, StoreError> {
        let queue = std::sync::Mutex::new(ops.into_iter().enumerate().collect::<Vec<_>>());
        let results = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..parallel.max(1))
                .map(|_| {
                    s.spawn(|| loop {
                        let next = queue.lock().expect("queue").pop();
                        let Some((i, op)) = next else { return };
                        let r = op(self);
                        results.lock().expect("results").push((i, r));
                    })
                })
                .collect();
            for w in workers {
                w.join().expect("a store thread panicked");
            }
        });
        let mut v = results.into_inner().expect("results");
        v.sort_by_key(|(i, _)| *i);
        v.into_iter().map(|(_, r)| r).collect()
    }

    fn info(&self, m: &object_store::ObjectMeta, name: &str) -> ObjectInfo {
        ObjectInfo {
            name: self.name_of(&m.location).unwrap_or_else(|| name.to_string()),
            size: m.size,
            e_tag: m.e_tag.clone(),
            modified: m.last_modified.timestamp_millis() as f64 / 1000.0,
        }
    }

    /// Runs `op` until it succeeds, fails for good, or `policy`'s attempts are spent; says each
    /// retry on the log.
    fn retrying<T, F, Fut>(&self, name: &str, policy: RetryPolicy, what: &str, op: F) -> Result<T, StoreError>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = object_store::Result<T>>,
    {
        let mut delay = policy.first_delay;
        for attempt in 1..=policy.attempts.max(1) {
            let err = match self.rt.block_on(op()) {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            match self.classify(name, &err) {
                Fault::Final(e) => return Err(e),
                Fault::Transient(msg) if attempt < policy.attempts => {
                    tracing::warn!(
                        "{}: {what} failed ({msg}); retrying in {:.1} s (attempt {} of {})",
                        self.url_of(name),
                        delay.as_secs_f64(),
                        attempt + 1,
                        policy.attempts
                    );
                    std::thread::sleep(delay);
                    delay = (delay * 2).min(policy.max_delay);
                }
                Fault::Transient(msg) => {
                    return Err(StoreError::Unreachable {
                        url: self.url_of(name),
                        detail: format!("{what} failed {} times, last: {msg}", policy.attempts),
                    })
                }
            }
        }
        unreachable!("the loop returns")
    }

    /// Sorts a store error into retry-worthy or final, with the one-line message a user acts on.
    fn classify(&self, name: &str, e: &object_store::Error) -> Fault {
        use object_store::Error as E;
        let url = self.url_of(name);
        let text = error_chain(e);
        match e {
            E::NotFound { .. } => {
                if text.contains("NoSuchBucket") || text.contains("bucket does not exist") {
                    Fault::Final(StoreError::NoBucket { url: self.url.clone() })
                } else {
                    Fault::Final(StoreError::NotFound { url })
                }
            }
            E::AlreadyExists { .. } => Fault::Final(StoreError::Exists { url }),
            E::Precondition { .. } => Fault::Final(StoreError::Changed { url }),
            E::PermissionDenied { .. } | E::Unauthenticated { .. } => {
                Fault::Final(StoreError::Denied { url, detail: short(&text) })
            }
            E::NotImplemented { .. } | E::NotSupported { .. } => {
                Fault::Final(StoreError::Unsupported { url, detail: short(&text) })
            }
            _ => {
                if text.contains("NoSuchBucket") || text.contains("The specified bucket does not exist") {
                    Fault::Final(StoreError::NoBucket { url: self.url.clone() })
                } else if text.contains("InvalidAccessKeyId")
                    || text.contains("SignatureDoesNotMatch")
                    || text.contains("AccessDenied")
                    || text.contains("403 Forbidden")
                    || text.contains("401 Unauthorized")
                    || text.contains("Missing region")
                    || (text.contains("credential") && text.contains("missing"))
                {
                    Fault::Final(StoreError::Denied { url, detail: short(&text) })
                } else {
                    Fault::Transient(short(&text))
                }
            }
        }
    }
}

/// Seconds since the epoch.
pub fn now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// An error and its sources, joined on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(c) = src {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        src = c.source();
    }
    s.replace('\n', " ")
}

/// The first line of a message.
fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

/// The gist of a store error for a one-line message: the network failure, or the store's status
/// and error code, else the message cut to a readable length.
fn short(s: &str) -> String {
    let tag = |t: &str| {
        let open = format!("<{t}>");
        let start = s.find(&open)? + open.len();
        let end = s[start..].find(&format!("</{t}>"))?;
        Some(s[start..start + end].to_string())
    };
    let status = s.find("status code: ").map(|i| s[i + 13..].split(':').next().unwrap_or("").trim().to_string());
    let lower = s.to_ascii_lowercase();
    if lower.contains("connection refused") {
        return "connection refused".into();
    }
    if lower.contains("dns error") || lower.contains("failed to lookup") || lower.contains("name or service not known")
    {
        return "the endpoint's host name does not resolve".into();
    }
    if lower.contains("timed out") || lower.contains("timeout") {
        return "timed out".into();
    }
    if lower.contains("connection reset") || lower.contains("broken pipe") || lower.contains("connection closed") {
        return "the connection broke".into();
    }
    if let Some(code) = tag("Code") {
        let msg = tag("Message").map(|m| format!(": {m}")).unwrap_or_default();
        return format!("{}{code}{msg}", status.map(|s| format!("{s} ")).unwrap_or_default());
    }
    cut(s)
}

/// A message cut to a readable length.
fn cut(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.len() > 240 {
        let mut end = 240;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s
    }
}
