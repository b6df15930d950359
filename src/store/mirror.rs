//! A local cache directory kept in step with a run's prefix on an object store (see [`super`] for
//! the rules: what is pulled, what is pushed, and in which order).
//!
//! The cache remembers, per file, the size and modification time it had when it was last
//! uploaded or downloaded and the object's entity tag (`.fiveup-sync.json`), so a push uploads
//! only what changed locally and a pull downloads only what changed in the store. Names that
//! start with `.` (the cache's own files, temporaries) and the trainer's `LOCK` never travel.

use super::remote::{ObjectInfo, Op, Remote};
use super::StoreError;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The cache's stamp: which run it belongs to.
const STAMP: &str = ".fiveup-cache";
/// The manifest of what is in step with the store.
const MANIFEST: &str = ".fiveup-sync.json";

/// What the cache knows of one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Entry {
    size: u64,
    mtime_ns: u128,
    e_tag: Option<String>,
    /// CRC-32 of a small file's contents (see [`SMALL`]): a rewrite of the same size within one
    /// tick of the file system's clock (`best`, `state.json`) is still seen.
    #[serde(default)]
    crc: Option<u32>,
}

/// Files up to this size are compared by contents too, not only by size and time.
const SMALL: u64 = 1 << 16;

/// The CRC-32 of a small file (`None` for a larger or unreadable one).
fn small_crc(path: &Path, size: u64) -> Option<u32> {
    (size <= SMALL).then(|| std::fs::read(path).ok().map(|b| crate::fsutil::crc32(&b))).flatten()
}

/// A check of a downloaded object by name and contents (`Err`: why it is refused, shown in the
/// warning). Every `Fn(&str, &[u8]) -> Result<(), E> + Sync` with a displayable `E` is one.
pub trait Verify: Fn(&str, &[u8]) -> Result<(), Self::Refusal> + Sync {
    /// Why an object is refused.
    type Refusal: std::fmt::Display;
}

impl<F, E> Verify for F
where
    F: Fn(&str, &[u8]) -> Result<(), E> + Sync,
    E: std::fmt::Display,
{
    type Refusal = E;
}

/// A check that accepts everything.
pub fn accept_all(_: &str, _: &[u8]) -> Result<(), std::convert::Infallible> {
    Ok(())
}

/// What a pull or push did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SyncStats {
    /// Objects uploaded or downloaded.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Objects or files deleted.
    pub deleted: usize,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// A run's prefix and its local cache.
#[derive(Debug)]
pub struct Mirror {
    remote: Arc<Remote>,
    cache: PathBuf,
    manifest: Mutex<BTreeMap<String, Entry>>,
    rejected: Mutex<HashSet<String>>,
}

/// Whether a name travels between the cache and the store.
fn travels(name: &str) -> bool {
    !name.is_empty()
        && name != "LOCK"
        && !name.split('/').any(|p| p.starts_with('.') || p.is_empty() || p.contains(".tmp"))
        && !name.starts_with("workers/")
        && name != super::lease::LEASE
}

/// The directory a file belongs to when that directory is written as a unit, with the marker
/// file that completes it: `checkpoints/step-…/` (`meta.json`), `models/gen-…/` (`net.json`).
pub fn unit_of(name: &str) -> Option<(&str, &'static str)> {
    let mut parts = name.splitn(3, '/');
    let (top, dir, rest) = (parts.next()?, parts.next()?, parts.next()?);
    if rest.is_empty() {
        return None;
    }
    let marker = match top {
        "checkpoints" => "meta.json",
        "models" => "net.json",
        _ => return None,
    };
    Some((&name[..top.len() + 1 + dir.len()], marker))
}

/// Upload order: data, unit markers, `best`, `state.json`.
fn rank(name: &str) -> u8 {
    match name {
        "state.json" => 3,
        "best" => 2,
        _ => match unit_of(name) {
            Some((dir, marker)) if name.len() == dir.len() + 1 + marker.len() && name.ends_with(marker) => 1,
            _ => 0,
        },
    }
}

fn mtime_ns(meta: &std::fs::Metadata) -> u128 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos())
}

/// Removes the empty directories under `root` (not `root`), deepest first.
fn remove_empty_dirs(root: &Path) {
    let Ok(rd) = std::fs::read_dir(root) else { return };
    for e in rd.flatten() {
        let path = e.path();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            remove_empty_dirs(&path);
            // Fails (and keeps it) when it is not empty.
            let _ = std::fs::remove_dir(&path);
        }
    }
}

impl Mirror {
    /// The mirror of `remote` in the cache directory `cache` (created). A cache that belongs to
    /// another run, or a non-empty directory that is no cache, is refused.
    pub fn open(remote: Arc<Remote>, cache: &Path) -> Result<Mirror, StoreError> {
        std::fs::create_dir_all(cache).map_err(|e| StoreError::local(cache, e))?;
        let stamp = cache.join(STAMP);
        match std::fs::read_to_string(&stamp) {
            Ok(text) => {
                let owner = text.trim();
                if owner != remote.url() {
                    return Err(StoreError::Foreign {
                        url: cache.display().to_string(),
                        detail: format!(
                            "this cache belongs to {owner}, not {}: pass another --cache directory",
                            remote.url()
                        ),
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut entries = std::fs::read_dir(cache).map_err(|e| StoreError::local(cache, e))?;
                if entries.next().is_some() {
                    return Err(StoreError::Foreign {
                        url: cache.display().to_string(),
                        detail: "not empty and not a fiveup cache: pass an empty or new --cache directory".into(),
                    });
                }
                crate::fsutil::write_atomic(&stamp, format!("{}\n", remote.url()).as_bytes())
                    .map_err(|e| StoreError::local(&stamp, e))?;
            }
            Err(e) => return Err(StoreError::local(&stamp, e)),
        }
        let manifest = match std::fs::read(cache.join(MANIFEST)) {
            Ok(b) => serde_json::from_slice(&b).unwrap_or_else(|e| {
                tracing::warn!(
                    "{}: unreadable ({e}); every file will be compared again",
                    cache.join(MANIFEST).display()
                );
                BTreeMap::new()
            }),
            Err(_) => BTreeMap::new(),
        };
        Ok(Mirror { remote, cache: cache.to_path_buf(), manifest: Mutex::new(manifest), rejected: Mutex::default() })
    }

    /// The store side.
    pub fn remote(&self) -> &Remote {
        &self.remote
    }

    /// The store side, shared (for the lease's renewal thread).
    pub fn remote_arc(&self) -> Arc<Remote> {
        self.remote.clone()
    }

    /// The cache directory.
    pub fn cache(&self) -> &Path {
        &self.cache
    }

    /// The name (relative to the run) of a path inside the cache.
    pub fn name_of(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.cache).ok()?;
        let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
        Some(parts?.join("/"))
    }

    fn local(&self, name: &str) -> PathBuf {
        name.split('/').fold(self.cache.clone(), |p, part| p.join(part))
    }

    fn save_manifest(&self) -> Result<(), StoreError> {
        let path = self.cache.join(MANIFEST);
        let text = serde_json::to_vec(&*self.manifest.lock().expect("manifest")).expect("a manifest serialises");
        crate::fsutil::write_atomic(&path, &text).map_err(|e| StoreError::local(&path, e))
    }

    /// Writes a downloaded object into the cache and remembers it.
    fn store_local(&self, info: &ObjectInfo, bytes: &[u8]) -> Result<(), StoreError> {
        let path = self.local(&info.name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::local(dir, e))?;
        }
        crate::fsutil::write_atomic(&path, bytes).map_err(|e| StoreError::local(&path, e))?;
        let meta = std::fs::metadata(&path).map_err(|e| StoreError::local(&path, e))?;
        let crc = (meta.len() <= SMALL).then(|| crate::fsutil::crc32(bytes));
        let entry = Entry { size: meta.len(), mtime_ns: mtime_ns(&meta), e_tag: info.e_tag.clone(), crc };
        self.manifest.lock().expect("manifest").insert(info.name.clone(), entry);
        Ok(())
    }

    /// Whether the cache's copy of `info` is the store's.
    fn up_to_date(&self, info: &ObjectInfo) -> bool {
        let m = self.manifest.lock().expect("manifest");
        let Some(e) = m.get(&info.name) else { return false };
        let same_local =
            std::fs::metadata(self.local(&info.name)).is_ok_and(|md| md.len() == e.size && mtime_ns(&md) == e.mtime_ns);
        same_local && e.size == info.size && (e.e_tag.is_none() || info.e_tag.is_none() || e.e_tag == info.e_tag)
    }

    /// Downloads `infos` (8 at a time) into the cache, each checked by `verify` first (one that
    /// fails is refused with a warning, once, and not stored). Returns the names stored with
    /// their sizes, and adds them to `stats`.
    fn download(
        &self,
        infos: Vec<ObjectInfo>,
        verify: &impl Verify,
        stats: &mut SyncStats,
    ) -> Result<Vec<String>, StoreError> {
        let ops: Vec<Op<'_, Option<(String, u64)>>> = infos
            .into_iter()
            .map(|info| {
                Box::new(move |r: &Remote| {
                    let Some((bytes, got)) = r.get(&info.name)? else { return Ok(None) };
                    if let Err(why) = verify(&info.name, &bytes) {
                        tracing::warn!("{}: refused, not counted: {why}", r.url_of(&info.name));
                        self.rejected.lock().expect("rejected").insert(info.name.clone());
                        return Ok(None);
                    }
                    self.store_local(&ObjectInfo { name: info.name.clone(), ..got }, &bytes)?;
                    Ok(Some((info.name, bytes.len() as u64)))
                }) as Op<'_, Option<(String, u64)>>
            })
            .collect();
        let mut names = Vec::new();
        for (name, n) in self.remote.run_parallel(ops, 8)?.into_iter().flatten() {
            stats.files += 1;
            stats.bytes += n;
            names.push(name);
        }
        Ok(names)
    }

    /// Makes the cache equal to the store (the trainer's start; see [`super`]): downloads what is
    /// new or changed, removes local files the store lacks, and removes, on both sides, a
    /// checkpoint or model directory without its marker. Each download is checked by `verify`.
    pub fn pull_all(&self, verify: &impl Verify) -> Result<SyncStats, StoreError> {
        let t0 = std::time::Instant::now();
        let mut stats = SyncStats::default();
        let all: Vec<ObjectInfo> = self.remote.list("")?.into_iter().filter(|o| travels(&o.name)).collect();
        let names: HashSet<&str> = all.iter().map(|o| o.name.as_str()).collect();
        let complete = |name: &str| match unit_of(name) {
            Some((dir, marker)) => names.contains(format!("{dir}/{marker}").as_str()),
            None => true,
        };
        let mut keep = Vec::new();
        for o in &all {
            if complete(&o.name) {
                keep.push(o.clone());
            } else {
                tracing::warn!("{}: part of an upload that was cut short; deleting it", self.remote.url_of(&o.name));
                self.remote.delete(&o.name)?;
                stats.deleted += 1;
            }
        }
        let wanted: HashSet<String> = keep.iter().map(|o| o.name.clone()).collect();
        let rejected = self.rejected.lock().expect("rejected").clone();
        let stale: Vec<ObjectInfo> =
            keep.into_iter().filter(|o| !self.up_to_date(o) && !rejected.contains(&o.name)).collect();
        self.download(stale, verify, &mut stats)?;
        for (name, _) in self.local_files()? {
            if !wanted.contains(&name) {
                let path = self.local(&name);
                tracing::info!("{}: not in the store; removed from the cache", path.display());
                std::fs::remove_file(&path).map_err(|e| StoreError::local(&path, e))?;
                stats.deleted += 1;
            }
        }
        self.manifest.lock().expect("manifest").retain(|k, _| wanted.contains(k));
        // A directory left empty (an incomplete checkpoint or model) must not look like one.
        remove_empty_dirs(&self.cache);
        self.save_manifest()?;
        stats.seconds = t0.elapsed().as_secs_f64();
        Ok(stats)
    }

    /// Every travelling file of the cache with its metadata.
    fn local_files(&self) -> Result<Vec<(String, std::fs::Metadata)>, StoreError> {
        let mut out = Vec::new();
        let mut stack = vec![self.cache.clone()];
        while let Some(dir) = stack.pop() {
            let rd = match std::fs::read_dir(&dir) {
                Ok(rd) => rd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(StoreError::local(&dir, e)),
            };
            for e in rd {
                let e = e.map_err(|e| StoreError::local(&dir, e))?;
                let path = e.path();
                let Some(name) = self.name_of(&path) else { continue };
                let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
                if meta.is_dir() {
                    if !e.file_name().to_string_lossy().starts_with('.') {
                        stack.push(path);
                    }
                } else if meta.is_file() && travels(&name) {
                    out.push((name, meta));
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// Uploads what changed in the cache since the last push or pull, in the safe order, then
    /// deletes from the store what was removed locally (a unit's marker first).
    pub fn push(&self) -> Result<SyncStats, StoreError> {
        self.push_checked(&|| Ok(()))
    }

    /// [`Mirror::push`], calling `before_pointers` (the trainer's lease check) before `best` and
    /// `state.json` go up, so a trainer that lost its lease during the push never replaces its
    /// successor's pointers.
    pub fn push_checked(&self, before_pointers: &dyn Fn() -> Result<(), StoreError>) -> Result<SyncStats, StoreError> {
        let t0 = std::time::Instant::now();
        let mut stats = SyncStats::default();
        let files = self.local_files()?;
        let present: HashSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        let mut changed: Vec<(String, u64, u128)> = {
            let m = self.manifest.lock().expect("manifest");
            files
                .iter()
                .filter(|(n, md)| {
                    m.get(n).is_none_or(|e| {
                        e.size != md.len()
                            || e.mtime_ns != mtime_ns(md)
                            || (e.crc.is_some() && small_crc(&self.local(n), md.len()) != e.crc)
                    })
                })
                .map(|(n, md)| (n.clone(), md.len(), mtime_ns(md)))
                .collect()
        };
        changed.sort_by(|a, b| (rank(&a.0), &a.0).cmp(&(rank(&b.0), &b.0)));
        for r in 0..=3u8 {
            let batch: Vec<(String, u64, u128)> = changed.iter().filter(|c| rank(&c.0) == r).cloned().collect();
            if r >= 2 && !batch.is_empty() {
                before_pointers()?;
            }
            let ops: Vec<Op<'_, u64>> = batch
                .into_iter()
                .map(|(name, size, mtime)| {
                    Box::new(move |remote: &Remote| {
                        let path = self.local(&name);
                        let bytes = std::fs::read(&path).map_err(|e| StoreError::local(&path, e))?;
                        let n = bytes.len() as u64;
                        let crc = (n <= SMALL && n == size).then(|| crate::fsutil::crc32(&bytes));
                        let info = remote.put(&name, Bytes::from(bytes))?;
                        // The size and time seen before reading: a file rewritten meanwhile goes again.
                        let entry = Entry { size, mtime_ns: mtime, e_tag: info.e_tag, crc };
                        self.manifest.lock().expect("manifest").insert(name, entry);
                        Ok(n)
                    }) as Op<'_, u64>
                })
                .collect();
            for n in self.remote.run_parallel(ops, 4)? {
                stats.files += 1;
                stats.bytes += n;
            }
        }
        let mut gone: Vec<String> =
            self.manifest.lock().expect("manifest").keys().filter(|k| !present.contains(k.as_str())).cloned().collect();
        // Only the trainer's pruned checkpoints are deleted from the store: a file missing from
        // the cache for any other reason (a cleaned /tmp, a user freeing space) is forgotten,
        // never deleted there. A unit's marker goes first, so that a cut-short deletion leaves an
        // incomplete unit.
        gone.sort_by_key(|n| std::cmp::Reverse(rank(n)));
        for name in gone {
            if name.starts_with("checkpoints/") {
                self.remote.delete(&name)?;
                stats.deleted += 1;
            }
            self.manifest.lock().expect("manifest").remove(&name);
        }
        self.save_manifest()?;
        stats.seconds = t0.elapsed().as_secs_f64();
        Ok(stats)
    }

    /// Downloads the objects under `prefix` that are new to the cache, each checked by `verify`
    /// first; one that fails is refused (a warning, once) and never stored. Returns the names
    /// stored.
    pub fn pull_new(&self, prefix: &str, verify: &impl Verify) -> Result<Vec<String>, StoreError> {
        let listed = self.remote.list(prefix)?;
        let new: Vec<ObjectInfo> = {
            let m = self.manifest.lock().expect("manifest");
            let rejected = self.rejected.lock().expect("rejected");
            listed
                .into_iter()
                .filter(|o| travels(&o.name) && !m.contains_key(&o.name) && !rejected.contains(&o.name))
                .collect()
        };
        let got = self.download(new, verify, &mut SyncStats::default())?;
        if !got.is_empty() {
            self.save_manifest()?;
        }
        Ok(got)
    }

    /// Brings the named objects into the cache when they changed; removes the local copy of one
    /// the store no longer has. Returns the names that changed.
    pub fn fetch(&self, names: &[&str]) -> Result<Vec<String>, StoreError> {
        let mut changed = Vec::new();
        for &name in names {
            match self.remote.get(name)? {
                Some((bytes, info)) => {
                    let info = ObjectInfo { name: name.to_string(), ..info };
                    if !self.up_to_date(&info) {
                        self.store_local(&info, &bytes)?;
                        changed.push(name.to_string());
                    }
                }
                None => {
                    let path = self.local(name);
                    if path.exists() {
                        std::fs::remove_file(&path).map_err(|e| StoreError::local(&path, e))?;
                        changed.push(name.to_string());
                    }
                    self.manifest.lock().expect("manifest").remove(name);
                }
            }
        }
        if !changed.is_empty() {
            self.save_manifest()?;
        }
        Ok(changed)
    }

    /// Brings a whole unit directory (`models/gen-0003`) into the cache, once its marker is in
    /// the store; `false` while it is not (an upload in progress).
    pub fn fetch_dir(&self, dir: &str) -> Result<bool, StoreError> {
        let listed = self.remote.list(&format!("{dir}/"))?;
        let marker = unit_of(&format!("{dir}/x")).map(|(_, m)| m);
        if let Some(m) = marker {
            if !listed.iter().any(|o| o.name == format!("{dir}/{m}")) {
                return Ok(false);
            }
        }
        let stale: Vec<ObjectInfo> = listed.into_iter().filter(|o| !self.up_to_date(o)).collect();
        let mut stats = SyncStats::default();
        self.download(stale, &accept_all, &mut stats)?;
        if stats.files > 0 {
            self.save_manifest()?;
        }
        Ok(true)
    }

    /// Uploads a finished local file `name` with a conditional put; if the name is taken by an
    /// object that is not this file, `rename` gives the next name to try. Returns the name it was
    /// stored under. The local file keeps its name (the caller removes it once stored): renaming
    /// it could overwrite another pending file.
    pub fn upload_new(&self, name: &str, rename: &dyn Fn(&str) -> String) -> Result<String, StoreError> {
        let path = self.local(name);
        let bytes = Bytes::from(std::fs::read(&path).map_err(|e| StoreError::local(&path, e))?);
        let mut name = name.to_string();
        for _ in 0..1000 {
            if self.remote.put_new(&name, bytes.clone())?.is_some() {
                return Ok(name);
            }
            // Taken: by this very file (an upload whose answer was lost), or by another writer.
            if let Some((theirs, _)) = self.remote.get(&name)? {
                if theirs == bytes {
                    return Ok(name);
                }
            }
            let next = rename(&name);
            tracing::warn!("{} is taken by another writer; storing as {next}", self.remote.url_of(&name));
            name = next;
        }
        Err(StoreError::Exists { url: self.remote.url_of(&name) })
    }
}
