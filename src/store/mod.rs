//! Run directories on object storage: `--run s3://bucket/prefix` (also `gs://` and `az://`)
//! beside the plain local directory, which behaves exactly as before (`file:///path` names a
//! local directory too: a shared file system needs no object store, and its advisory lock
//! serves as the trainer's lock).
//!
//! # Design
//! Self-play, training and publishing talk only through the run's files (KataGo's pattern), so
//! moving those files to an object store lets workers run anywhere with no coordinator of ours.
//! The training code keeps working on a local directory; for a remote run that directory is a
//! *cache* that [`Mirror`] keeps in step with the store:
//!
//! - **The trainer** ([`Mirror::pull_all`] at its start) makes the cache equal to the store: it
//!   downloads what is new or changed, drops local files the store does not have (they were
//!   written by a trainer that died before uploading them, and are redone), and drops from both
//!   sides a checkpoint or model directory whose upload was cut short. Then every safe point of
//!   the trainer ([`Mirror::push`]: after each self-play chunk, checkpoint, published network and
//!   state change) uploads what changed since the last push, in an order that never lets a
//!   reader see a pointer before what it points to: data files first, inside a checkpoint or
//!   model directory its marker file (`meta.json`, `net.json`) last, then `best`, then
//!   `state.json`. Deletions (pruned checkpoints) go last, marker first.
//! - **Workers** do not mirror the run: they fetch `config.toml`, `state.json`, `best` and the
//!   best model ([`Mirror::fetch`], [`Mirror::fetch_dir`]), play into the cache and upload each
//!   finished shard with a conditional put ([`Mirror::upload_new`]): a name that is already taken
//!   (two workers given one name) is never overwritten; the shard takes the next free index.
//!   A worker's heartbeat is `workers/NAME.json`, rewritten every few seconds.
//! - **Counting**: the trainer pulls new shards ([`Mirror::pull_new`]), checks each one whole
//!   (magic, version, checksum) before it is counted, and counts the cache's shards, so a shard
//!   is counted once by its name; a corrupt one is refused with a warning, once.
//! - **The trainer's lease** ([`lease`]): `trainer.lease`, created with a conditional put and
//!   renewed with a compare-and-swap on its entity tag; a trainer that died leaves a lease that
//!   expires, never a lock file that blocks forever.
//!
//! Every object is written whole (a put is atomic in every store `object_store` supports), so a
//! reader never sees half a shard. Transient faults are retried with backoff and logged
//! ([`remote`]); faults that a retry cannot fix (credentials, a missing bucket, a prefix that
//! holds something else) are one-line errors before any long work starts.

pub mod lease;
pub mod mirror;
pub mod remote;

pub use mirror::Mirror;
pub use remote::{ObjectInfo, Remote, RetryPolicy};

use std::path::PathBuf;

/// Where a run lives, as `--run` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunLocation {
    /// A local directory (the default).
    Local(PathBuf),
    /// A URL of an object-store prefix.
    Remote(String),
}

impl RunLocation {
    /// Reads a `--run` argument: a URL with a scheme (`s3://…`), or else a local path
    /// (`file:///path` included).
    pub fn parse(arg: &str) -> Result<RunLocation, StoreError> {
        let arg = arg.trim();
        if arg.is_empty() {
            return Err(StoreError::Url { url: arg.into(), detail: "empty".into() });
        }
        match arg.find("://") {
            Some(i) if i > 0 && arg[..i].chars().all(|c| c.is_ascii_alphanumeric() || c == '+') => {
                let scheme = arg[..i].to_ascii_lowercase();
                if scheme == "file" {
                    let path = &arg[i + 3..];
                    if !path.starts_with('/') {
                        return Err(StoreError::Url {
                            url: arg.into(),
                            detail: "a file URL needs an absolute path (file:///path)".into(),
                        });
                    }
                    return Ok(RunLocation::Local(PathBuf::from(path)));
                }
                if !["s3", "s3a", "gs", "az", "azure", "abfs", "abfss"].contains(&scheme.as_str()) {
                    return Err(StoreError::Url {
                        url: arg.into(),
                        detail: format!("unknown scheme {scheme:?}: use a local path, s3://, gs:// or az://"),
                    });
                }
                if arg[i + 3..].trim_matches('/').is_empty() {
                    return Err(StoreError::Url {
                        url: arg.into(),
                        detail: "no bucket or path after the scheme".into(),
                    });
                }
                Ok(RunLocation::Remote(arg.trim_end_matches('/').to_string()))
            }
            _ => Ok(RunLocation::Local(PathBuf::from(arg))),
        }
    }

    /// How it is shown in messages.
    pub fn display(&self) -> String {
        match self {
            RunLocation::Local(p) => p.display().to_string(),
            RunLocation::Remote(u) => u.clone(),
        }
    }

    /// The default cache directory of a remote run for `role` (`trainer`, or a worker's name):
    /// `$XDG_CACHE_HOME/fiveup/runs/<url as a file name>-<role>` (or `~/.cache/…`, or the
    /// system's temporary directory).
    pub fn default_cache(url: &str, role: &str) -> PathBuf {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        let flat: String =
            url.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
        base.join("fiveup").join("runs").join(format!("{flat}-{role}"))
    }
}

/// What can go wrong with a run's store. Every message is one line and names the URL.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The `--run` URL cannot be used.
    #[error("--run {url}: {detail}")]
    Url {
        /// The URL as given.
        url: String,
        /// Why.
        detail: String,
    },
    /// The endpoint does not answer (after the retries said on the log).
    #[error("{url}: cannot reach the store: {detail} (check AWS_ENDPOINT / the network)")]
    Unreachable {
        /// The object or prefix.
        url: String,
        /// The last failure.
        detail: String,
    },
    /// The credentials were refused.
    #[error(
        "{url}: access denied: {detail} (check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or the cloud's credentials)"
    )]
    Denied {
        /// The object or prefix.
        url: String,
        /// The store's answer.
        detail: String,
    },
    /// The bucket does not exist.
    #[error("{url}: the bucket does not exist (create it first)")]
    NoBucket {
        /// The run's URL.
        url: String,
    },
    /// No object there.
    #[error("{url}: no such object")]
    NotFound {
        /// The object.
        url: String,
    },
    /// A conditional create found an object there.
    #[error("{url}: already exists")]
    Exists {
        /// The object.
        url: String,
    },
    /// A conditional update found another version.
    #[error("{url}: changed by another writer")]
    Changed {
        /// The object.
        url: String,
    },
    /// The store lacks an operation the run needs (conditional puts).
    #[error("{url}: the store does not support a needed operation: {detail}")]
    Unsupported {
        /// The object.
        url: String,
        /// The store's answer.
        detail: String,
    },
    /// The prefix or the cache holds something that is not this run.
    #[error("{url}: {detail}")]
    Foreign {
        /// The prefix, object or directory.
        url: String,
        /// What is there and what to do.
        detail: String,
    },
    /// Another trainer (or coordinator) holds the run's lease.
    #[error("{url}: another {role} is running on this run ({holder}, lease renewed {age:.0} s ago)")]
    Leased {
        /// The lease object.
        url: String,
        /// What holds it: `trainer`, `coordinator`.
        role: String,
        /// Who holds it.
        holder: String,
        /// Seconds since its last renewal.
        age: f64,
    },
    /// A local file of the cache could not be read or written.
    #[error("{path}: {source}")]
    Local {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl StoreError {
    /// A local I/O error on `path`.
    pub fn local(path: &std::path::Path, source: std::io::Error) -> StoreError {
        StoreError::Local { path: path.to_path_buf(), source }
    }
}

#[cfg(test)]
mod tests;
