//! The files players read (networks, NNUE files, weights files, endgame tables), carried from
//! the coordinator to the workers through the store: uploaded once under `files/SHA256/`
//! (the checksum of the file, or of a folder's list of files), fetched by each worker into its
//! cache, every file checked against its SHA-256 before a player reads it.

use crate::store::{Remote, StoreError};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// One file of a shipped file or folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Its path below the folder (`""` for a shipped file itself).
    pub rel: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256, hex.
    pub sha256: String,
}

/// A file or folder a player spec names, as a job carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shipped {
    /// The path as the spec names it.
    pub path: String,
    /// Whether it is a folder.
    pub dir: bool,
    /// The SHA-256 of the file, or of the folder's entry list: the name of its objects.
    pub sha256: String,
    /// Its files.
    pub entries: Vec<Entry>,
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

fn object(sha: &str, rel: &str) -> String {
    if rel.is_empty() {
        format!("files/{sha}/file")
    } else {
        format!("files/{sha}/d/{rel}")
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<Vec<_>, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(root, &p, out)?;
        } else if p.is_file() {
            out.push(p);
        }
    }
    let _ = root;
    Ok(())
}

/// Uploads `path` (a file or a folder) under `files/` unless it is there already, and says what
/// a worker needs to fetch it. `shown` is the path as the spec names it.
pub fn ship(remote: &Remote, path: &Path, shown: &str) -> Result<Shipped, StoreError> {
    let local = |e| StoreError::local(path, e);
    let meta = std::fs::metadata(path).map_err(local)?;
    let files: Vec<PathBuf> = if meta.is_dir() {
        let mut v = Vec::new();
        walk(path, path, &mut v).map_err(local)?;
        v
    } else {
        vec![path.to_path_buf()]
    };
    let mut entries = Vec::with_capacity(files.len());
    let mut bodies = Vec::with_capacity(files.len());
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| StoreError::local(f, e))?;
        let rel = if meta.is_dir() {
            f.strip_prefix(path)
                .unwrap_or(f)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        } else {
            String::new()
        };
        entries.push(Entry { rel, size: bytes.len() as u64, sha256: hex(&Sha256::digest(&bytes)) });
        bodies.push(bytes);
    }
    let sha256 = if meta.is_dir() {
        let list: String = entries.iter().map(|e| format!("{} {} {}\n", e.sha256, e.size, e.rel)).collect();
        hex(&Sha256::digest(list.as_bytes()))
    } else {
        entries[0].sha256.clone()
    };
    let present: std::collections::HashSet<String> =
        remote.list(&format!("files/{sha256}/"))?.into_iter().map(|o| o.name).collect();
    for (e, body) in entries.iter().zip(bodies) {
        let name = object(&sha256, &e.rel);
        if !present.contains(&name) {
            remote.put(&name, Bytes::from(body))?;
        }
    }
    Ok(Shipped { path: shown.to_string(), dir: meta.is_dir(), sha256, entries })
}

/// Why a shipped file could not be fetched.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// What the store holds is not what the job names.
    #[error("{0}")]
    Damaged(String),
}

/// The local copy of `s` in `cache` (fetched and checked the first time): the path to put in
/// the player's spec.
pub fn fetch(remote: &Remote, cache: &Path, s: &Shipped) -> Result<PathBuf, FetchError> {
    if !s.sha256.chars().all(|c| c.is_ascii_hexdigit()) || s.sha256.len() != 64 || s.entries.is_empty() {
        return Err(FetchError::Damaged(format!("{}: not a shipped file", s.path)));
    }
    let base: String = Path::new(&s.path)
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
                .collect()
        })
        .filter(|n: &String| !n.is_empty() && !n.starts_with('.'))
        .unwrap_or_else(|| "file".to_string());
    // Keyed by name too: two names of the same bytes are two copies, never one in the other's way.
    let home = cache.join("files").join(format!("{}-{base}", s.sha256));
    let target = home.join(&base);
    if home.join(".complete").exists() && target.exists() {
        return Ok(target);
    }
    let tmp =
        cache.join("files").join(format!(".tmp-{}-{}-{:08x}", s.sha256, std::process::id(), rand::random::<u32>()));
    let local = |p: &Path, e| FetchError::Store(StoreError::local(p, e));
    std::fs::create_dir_all(&tmp).map_err(|e| local(&tmp, e))?;
    let result = (|| {
        for e in &s.entries {
            if e.rel.split('/').any(|c| c.is_empty() || c == "." || c == "..") && !e.rel.is_empty() {
                return Err(FetchError::Damaged(format!("{}: a file named {:?} leaves its folder", s.path, e.rel)));
            }
            let name = object(&s.sha256, &e.rel);
            let Some((bytes, _)) = remote.get(&name)? else {
                return Err(FetchError::Damaged(format!(
                    "{}: {} is missing from the store",
                    s.path,
                    remote.url_of(&name)
                )));
            };
            let got = hex(&Sha256::digest(&bytes));
            if got != e.sha256 || bytes.len() as u64 != e.size {
                return Err(FetchError::Damaged(format!(
                    "{}: {} does not match its checksum (SHA-256 {got}, the job says {})",
                    s.path,
                    remote.url_of(&name),
                    e.sha256
                )));
            }
            let dest = if s.dir { tmp.join(&base).join(&e.rel) } else { tmp.join(&base) };
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(|err| local(parent, err))?;
            }
            std::fs::write(&dest, &bytes).map_err(|err| local(&dest, err))?;
        }
        std::fs::write(tmp.join(".complete"), s.sha256.as_bytes()).map_err(|e| local(&tmp, e))?;
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if home.exists() {
        // An unfinished copy of an earlier process, or another's finished one.
        if home.join(".complete").exists() && target.exists() {
            let _ = std::fs::remove_dir_all(&tmp);
            return Ok(target);
        }
        let _ = std::fs::remove_dir_all(&home);
    }
    if let Err(e) = std::fs::rename(&tmp, &home) {
        let _ = std::fs::remove_dir_all(&tmp);
        if !(home.join(".complete").exists() && target.exists()) {
            return Err(local(&home, e));
        }
    }
    Ok(target)
}
