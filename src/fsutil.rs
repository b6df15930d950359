//! Files that are never lost half-written, never overwritten by accident, and checksums.
//!
//! - [`write_atomic`] / [`write_atomic_via`]: a temporary file in the target's directory, synced,
//!   renamed over the target, then the directory synced, so a crash or a full disk leaves either
//!   the old file or the new one under the target's name, never a torn one.
//! - [`write_visible`]: the same rename without the syncs, for files only watched while a job
//!   runs (rewritten after every move, worthless after a crash).
//! - [`publish_dir`]: the same for a whole directory (checkpoints, published networks).
//! - [`check_output`]: the rule every command that writes a file follows: an existing output is
//!   refused unless `--force`, and an output that is one of the command's inputs is always refused
//!   (same canonical path, or on unix the same device and inode, so `./x`, `x` and a hard link of
//!   `x` are all caught).
//! - [`claim_dir`]: a resumable job's output folder and its settings file: a new folder gets the
//!   file, an existing one must hold the same settings (a rerun with others is refused naming the
//!   setting), a non-empty folder without the file is someone else's and refused.
//! - [`crc32`]: the checksum of new files (shards, checkpoints, networks); [`legacy`] keeps the
//!   FNV-1a functions that older files were written with (and that stable seeds are derived from).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Distinguishes temporary files of one process (several threads may write beside each other).
static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

fn tmp_suffix() -> String {
    format!("tmp{}-{}", std::process::id(), TMP_COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// Syncs a directory, so that a rename in it survives a crash. A no-op where directories cannot
/// be opened (not unix).
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Renames the finished temporary file `tmp` over `path`, after syncing it, then syncs the
/// directory. `tmp` is removed when anything fails.
fn commit(tmp: &Path, path: &Path) -> io::Result<()> {
    commit_as(tmp, path, true)
}

/// [`commit`], syncing only when `durable`.
fn commit_as(tmp: &Path, path: &Path, durable: bool) -> io::Result<()> {
    let result = (|| {
        if durable {
            File::open(tmp)?.sync_all()?;
        }
        fs::rename(tmp, path)?;
        if durable {
            sync_dir(parent_of(path))?;
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result
}

/// Where an atomic write of `path` must go: the file a symbolic link points to (the link stays a
/// link), or `None` when `path` is not a regular file and must be written in place (a device such
/// as `/dev/null`, a pipe: renaming over those would replace them).
fn atomic_target(path: &Path) -> io::Result<Option<PathBuf>> {
    match fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(Some(fs::canonicalize(path)?)),
        Ok(m) if m.is_dir() => Err(io::Error::other("is a directory")),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Some(path.to_path_buf())),
        Err(e) => Err(e),
    }
}

/// Takes an advisory lock on `path` (created when missing, its contents kept): the open file,
/// which holds the lock until dropped or the process dies (even by SIGKILL), or `None` when
/// another process holds it.
pub fn try_lock(path: &Path) -> io::Result<Option<File>> {
    let file = fs::OpenOptions::new().create(true).truncate(false).write(true).open(path)?;
    // Through the trait: std's inherent `File::try_lock` needs Rust 1.89 (rust-version is 1.80).
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => Ok(Some(file)),
        Err(fs4::TryLockError::WouldBlock) => Ok(None),
        Err(fs4::TryLockError::Error(e)) => Err(e),
    }
}

/// Writes `bytes` to `path` atomically (see the module docs). The temporary file is
/// `path` + `.tmpPID-N`, in the same directory. A symbolic link is followed (its target is
/// replaced); a device or pipe is written in place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_replacing(path, bytes, true)
}

/// Writes `bytes` to `path` like [`write_atomic`] (a reader sees the old file or the new one,
/// never a torn one) but without syncing: for files that are only watched while a job runs (a
/// tournament's games in progress), rewritten often, and worthless after a crash.
pub fn write_visible(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_replacing(path, bytes, false)
}

fn write_replacing(path: &Path, bytes: &[u8], durable: bool) -> io::Result<()> {
    let Some(target) = atomic_target(path)? else { return fs::write(path, bytes) };
    let path = target.as_path();
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}", tmp_suffix()));
    let tmp = PathBuf::from(tmp);
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    commit_as(&tmp, path, durable)
}

/// Writes `path` atomically through `write`, which must create the file at the temporary path it
/// is given (for writers that take a path, such as an image or a tensor library). The temporary
/// path is hidden (`.NAME.tmpPID-N.EXT`) and keeps `path`'s extension, since such writers often
/// pick the format from it. An I/O error of the helper itself (sync, rename) goes through `io`.
pub fn write_atomic_via<E>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
    io: impl FnOnce(io::Error) -> E,
) -> Result<(), E> {
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!(".{stem}.{}.{}", tmp_suffix(), ext.to_string_lossy()),
        None => format!(".{stem}.{}", tmp_suffix()),
    };
    let tmp = parent_of(path).join(name);
    if let Err(e) = write(&tmp) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    commit(&tmp, path).map_err(io)
}

/// Publishes the finished directory `tmp` as `dest`: syncs every file in it and the directory
/// itself, renames it to `dest` (which must not exist), then syncs the parent directory.
pub fn publish_dir(tmp: &Path, dest: &Path) -> io::Result<()> {
    for e in fs::read_dir(tmp)? {
        let e = e?;
        if e.file_type()?.is_file() {
            File::open(e.path())?.sync_all()?;
        }
    }
    sync_dir(tmp)?;
    fs::rename(tmp, dest)?;
    sync_dir(parent_of(dest))
}

/// An output a command refuses to write.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output exists and `--force` was not given.
    #[error("{0} already exists (add --force to replace it)")]
    Exists(PathBuf),
    /// The output is a directory.
    #[error("{0} is a directory; give a file name")]
    IsDirectory(PathBuf),
    /// The output is one of the command's inputs (refused even with `--force`).
    #[error("{output} is also an input ({input}); write the output to another file")]
    IsInput {
        /// The output path as given.
        output: PathBuf,
        /// The input it names.
        input: PathBuf,
    },
    /// The folder the output goes into does not exist (it is not created: a mistyped path
    /// should not grow folders).
    #[error("{0}: no such folder (create it first)")]
    NoFolder(PathBuf),
    /// What should be the output's folder is not a folder.
    #[error("{0} is not a folder")]
    NotAFolder(PathBuf),
    /// The output's folder does not take new files.
    #[error("cannot write into {dir}: {reason}")]
    NotWritable {
        /// The folder.
        dir: PathBuf,
        /// The system's reason.
        reason: String,
    },
}

/// The conventional home of run folders: `runs/` of the current directory (ignored by git, named
/// by the docs' commands, `--run runs/cpu`). It is the one missing folder [`check_parent`] makes.
pub const RUNS_DIR: &str = "runs";

/// Checks that a new file (or folder) `output` can be made where it is named: its folder exists,
/// is a folder and takes a new file (tried with an empty file, removed at once). Commands call it
/// before any long work, so that nothing is played or computed only to be lost; missing folders
/// are not created, except [`RUNS_DIR`] itself for an output named directly in it.
pub fn check_parent(output: &Path) -> Result<(), OutputError> {
    let dir = parent_of(output);
    if dir == Path::new(RUNS_DIR) && !dir.exists() {
        // A fresh checkout has no runs/ yet; the docs' commands write there.
        let _ = fs::create_dir(dir);
    }
    match fs::metadata(dir) {
        Err(_) => Err(OutputError::NoFolder(dir.to_path_buf())),
        Ok(m) if !m.is_dir() => Err(OutputError::NotAFolder(dir.to_path_buf())),
        Ok(_) => {
            let probe = dir.join(format!(".fiveup-probe-{}", std::process::id()));
            match fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
                Ok(_) => {
                    let _ = fs::remove_file(&probe);
                    Ok(())
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(OutputError::NotWritable { dir: dir.to_path_buf(), reason: e.to_string() }),
            }
        }
    }
}

/// Whether `a` and `b` name the same existing file: the same canonical path, or (unix) the same
/// device and inode, so a hard link is caught. False when either does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if ma.dev() == mb.dev() && ma.ino() == mb.ino() {
            return true;
        }
    }
    let _ = (ma, mb);
    matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// Checks that a command may write `output`: never when it is one of `inputs` (files, or
/// directories whose files are read: a file inside an input directory counts as an input), and
/// when it exists only with `force`. Call it before any long work.
pub fn check_output(output: &Path, inputs: &[&Path], force: bool) -> Result<(), OutputError> {
    let Ok(meta) = fs::metadata(output) else { return check_parent(output) };
    if meta.is_dir() {
        return Err(OutputError::IsDirectory(output.to_path_buf()));
    }
    for &input in inputs {
        if same_file(output, input) {
            return Err(OutputError::IsInput { output: output.to_path_buf(), input: input.to_path_buf() });
        }
        if input.is_dir() {
            if let (Ok(dir), Ok(out)) = (fs::canonicalize(input), fs::canonicalize(output)) {
                if out.starts_with(&dir) {
                    return Err(OutputError::IsInput { output: output.to_path_buf(), input: input.to_path_buf() });
                }
            }
        }
    }
    if !meta.is_file() {
        // A device or pipe (`/dev/null`, `/dev/stdout`), which holds no data.
        Ok(())
    } else if force {
        // Replacing on request: the new file is written beside it and renamed over it.
        check_parent(output)
    } else {
        Err(OutputError::Exists(output.to_path_buf()))
    }
}

/// Why [`claim_dir`] refused a directory.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    /// The settings file holds other settings (boxed: the error stays small).
    #[error(transparent)]
    Differs(Box<Differs>),
    /// The directory exists, is not empty, and has no settings file: someone else's folder.
    #[error(
        "{} is not empty and holds no {file}, so it is not {job}: give a new or empty folder",
        .dir.display()
    )]
    Foreign {
        /// The directory.
        dir: PathBuf,
        /// What a claimed directory would hold.
        job: String,
        /// The settings file it lacks.
        file: String,
    },
    /// Reading or writing failed (the message names the path).
    #[error("{0}")]
    Io(String),
}

/// A settings file holding other settings: the first that differs, as it is there and now.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} holds {job} with {key} = {was} (see {}); this run asks for {key} = {now}: use the same \
     settings to resume it, or another folder",
    .dir.display(),
    .settings.display()
)]
pub struct Differs {
    /// The directory.
    pub dir: PathBuf,
    /// What the directory holds, with its article (`a tournament`).
    pub job: String,
    /// Its settings file.
    pub settings: PathBuf,
    /// The setting that differs.
    pub key: String,
    /// Its value in the settings file (`(not set)` when absent).
    pub was: String,
    /// Its value in this run (`(not set)` when absent).
    pub now: String,
}

/// A job's output folder: what it holds (`a tournament`, for messages) and its settings file.
#[derive(Clone, Copy, Debug)]
pub struct Claim<'a> {
    /// What the folder holds, with its article, as messages name it (`a tournament`).
    pub job: &'a str,
    /// The settings file inside it (`tournament.toml`).
    pub file: &'a str,
}

/// The `key = value` lines of a settings text, in order, each key prefixed by its `[table]`
/// (`selfplay.games`); comments and blank lines skipped, a line without `=` is its own key with an
/// empty value.
fn settings_lines(text: &str) -> Vec<(String, String)> {
    let mut table = String::new();
    let mut lines = Vec::new();
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if l.starts_with('[') && !l.contains('=') {
            table = l.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            continue;
        }
        let (k, v) = l.split_once('=').unwrap_or((l, ""));
        let key = if table.is_empty() { k.trim().to_string() } else { format!("{table}.{}", k.trim()) };
        lines.push((key, v.trim().to_string()));
    }
    lines
}

/// The first setting whose value differs between `old` and `new` and that `may_change(key, old,
/// new)` does not allow: `(key, old value, new value)`, `(not set)` for a missing one.
fn first_difference(
    old: &str,
    new: &str,
    may_change: &dyn Fn(&str, &str, &str) -> bool,
) -> Option<(String, String, String)> {
    const UNSET: &str = "(not set)";
    let (o, n) = (settings_lines(old), settings_lines(new));
    let get = |lines: &[(String, String)], k: &str| lines.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let mut keys: Vec<&str> = o.iter().chain(&n).map(|(k, _)| k.as_str()).collect();
    let mut seen = std::collections::HashSet::new();
    keys.retain(|k| seen.insert(*k));
    keys.into_iter().find_map(|k| {
        let (a, b) = (get(&o, k).unwrap_or_else(|| UNSET.into()), get(&n, k).unwrap_or_else(|| UNSET.into()));
        (a != b && !may_change(k, &a, &b)).then(|| (k.to_string(), a, b))
    })
}

/// Claims `dir` for a resumable job whose settings are `text` (`key = value` lines, TOML), kept
/// in `dir/{claim.file}`: a missing or empty directory is created (its parent must exist, see
/// [`check_parent`]) and the file written atomically; a directory whose file holds the same
/// settings is accepted as it is (the job resumes there); a file with other settings is refused
/// naming the first setting that differs; a non-empty directory without the file is someone
/// else's and refused. The one rule every output folder of fiveup follows.
pub fn claim_dir(dir: &Path, claim: Claim, text: &str) -> Result<(), ClaimError> {
    claim_dir_with(dir, claim, text, &|_, _, _| false)
}

/// [`claim_dir`] where the settings for which `may_change(key, old value, new value)` holds may
/// differ on a rerun (more games, more epochs); the file then gets the new text.
pub fn claim_dir_with(
    dir: &Path,
    claim: Claim,
    text: &str,
    may_change: &dyn Fn(&str, &str, &str) -> bool,
) -> Result<(), ClaimError> {
    let settings = dir.join(claim.file);
    let io = |p: &Path, e: io::Error| ClaimError::Io(format!("{}: {e}", p.display()));
    if dir.exists() && !dir.is_dir() {
        return Err(ClaimError::Io(format!("{}: exists and is not a folder (a folder is meant)", dir.display())));
    }
    match fs::read_to_string(&settings) {
        Ok(old) if old == text => Ok(()),
        Ok(old) => match first_difference(&old, text, may_change) {
            Some((key, was, now)) => Err(ClaimError::Differs(Box::new(Differs {
                dir: dir.to_path_buf(),
                job: claim.job.to_string(),
                settings,
                key,
                was,
                now,
            }))),
            None => write_atomic(&settings, text.as_bytes()).map_err(|e| io(&settings, e)),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if dir.is_dir() {
                if fs::read_dir(dir).map_err(|e| io(dir, e))?.next().is_some() {
                    return Err(ClaimError::Foreign {
                        dir: dir.to_path_buf(),
                        job: claim.job.to_string(),
                        file: claim.file.to_string(),
                    });
                }
            } else {
                check_parent(dir).map_err(|e| ClaimError::Io(e.to_string()))?;
                fs::create_dir(dir).map_err(|e| io(dir, e))?;
            }
            write_atomic(&settings, text.as_bytes()).map_err(|e| io(&settings, e))
        }
        Err(e) => Err(io(&settings, e)),
    }
}

/// The checksum of new files: CRC-32 (IEEE), through the `crc32fast` crate.
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// FNV-1a, kept only to verify files written before [`crc32`] replaced it, and for the stable
/// seeds derived from it (their values must never change: a resumed run replays the same games).
pub mod legacy {
    /// FNV-1a, 32 bits (the record checksum of shard versions 1 and 2; imbalance ids of `values`).
    pub fn fnv1a32(data: &[u8]) -> u32 {
        data.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
    }

    /// FNV-1a, 64 bits (checkpoint and network file hashes before version 2; config hashes and
    /// self-play worker seeds).
    pub fn fnv1a64(data: &[u8]) -> u64 {
        data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_held_until_its_file_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let first = try_lock(&path).unwrap().expect("free");
        assert!(try_lock(&path).unwrap().is_none(), "held by the first");
        drop(first);
        assert!(try_lock(&path).unwrap().is_some(), "free again");
    }

    #[test]
    fn a_claimed_directory_keeps_its_settings() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("job");
        let c = Claim { job: "a test job", file: "s.toml" };
        claim_dir(&dir, c, "# settings\na = 1\nb = \"x\"\n").unwrap();
        assert_eq!(fs::read_to_string(dir.join("s.toml")).unwrap(), "# settings\na = 1\nb = \"x\"\n");
        // The same settings resume; others are refused naming the setting, the file kept.
        claim_dir(&dir, c, "# settings\na = 1\nb = \"x\"\n").unwrap();
        let e = claim_dir(&dir, c, "# settings\na = 1\nb = \"y\"\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} holds a test job with b = \"x\" (see {}); this run asks for b = \"y\": use the same settings to \
                 resume it, or another folder",
                dir.display(),
                dir.join("s.toml").display()
            )
        );
        let e = claim_dir(&dir, c, "a = 1\nb = \"x\"\nc = 2\n").unwrap_err();
        assert!(matches!(&e, ClaimError::Differs(d) if d.key == "c" && d.was == "(not set)" && d.now == "2"), "{e}");
        assert_eq!(fs::read_to_string(dir.join("s.toml")).unwrap(), "# settings\na = 1\nb = \"x\"\n");
        // A setting that may change is rewritten; the others must still match.
        let more = |k: &str, old: &str, new: &str| k == "a" && new.parse::<u32>().ok() > old.parse::<u32>().ok();
        claim_dir_with(&dir, c, "# settings\na = 3\nb = \"x\"\n", &more).unwrap();
        assert_eq!(fs::read_to_string(dir.join("s.toml")).unwrap(), "# settings\na = 3\nb = \"x\"\n");
        let e = claim_dir_with(&dir, c, "# settings\na = 2\nb = \"x\"\n", &more).unwrap_err();
        assert!(matches!(&e, ClaimError::Differs(d) if d.key == "a"), "{e}");
        // A directory of something else is refused, and so is a file where the folder is meant.
        fs::write(t.path().join("other.txt"), "x").unwrap();
        let e = claim_dir(t.path(), c, "a = 1\n").unwrap_err();
        assert!(matches!(e, ClaimError::Foreign { .. }));
        assert!(e.to_string().contains("is not empty and holds no s.toml, so it is not a test job"), "{e}");
        let e = claim_dir(&t.path().join("other.txt"), c, "a = 1\n").unwrap_err();
        assert!(e.to_string().contains("exists and is not a folder"), "{e}");
        // Keys are read within their tables.
        let two = |g: u32| format!("[a]\ngames = 1\n[b]\ngames = {g}\n");
        claim_dir(&t.path().join("tables"), c, &two(1)).unwrap();
        let e = claim_dir(&t.path().join("tables"), c, &two(2)).unwrap_err();
        assert!(matches!(&e, ClaimError::Differs(d) if d.key == "b.games"), "{e}");
        // A missing parent folder is not created.
        let e = claim_dir(&t.path().join("no/job"), c, "a = 1\n").unwrap_err();
        assert!(!t.path().join("no").exists(), "{e}");
        // An empty existing directory is claimed.
        let empty = t.path().join("empty");
        fs::create_dir(&empty).unwrap();
        claim_dir(&empty, c, "b\n").unwrap();
    }

    #[test]
    fn legacy_fnv_values_are_pinned() {
        // Published FNV-1a test vectors, plus the inputs stable seeds are derived from: these
        // values must never change (resumed runs replay the same openings and seeds).
        assert_eq!(legacy::fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(legacy::fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(legacy::fnv1a32(b"foobar"), 0xbf9c_f968);
        assert_eq!(legacy::fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(legacy::fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(legacy::fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn crc32_is_the_ieee_checksum() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn write_atomic_replaces_and_leaves_no_temporary() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("x.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_atomic_via_keeps_the_extension_and_cleans_up_on_failure() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("plot.png");
        write_atomic_via(
            &p,
            |tmp| {
                assert_eq!(tmp.extension().unwrap(), "png");
                assert_eq!(tmp.parent().unwrap(), t.path());
                fs::write(tmp, b"png")
            },
            |e| e,
        )
        .unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"png");
        let r: io::Result<()> = write_atomic_via(
            &p,
            |tmp| {
                fs::write(tmp, b"half")?;
                Err(io::Error::other("disk full"))
            },
            |e| e,
        );
        assert!(r.is_err());
        assert_eq!(fs::read(&p).unwrap(), b"png", "the old file survives a failed write");
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1, "no temporary left");
    }

    #[test]
    fn publish_dir_renames_a_finished_directory() {
        let t = tempfile::tempdir().unwrap();
        let tmp = t.path().join(".tmp-a");
        fs::create_dir(&tmp).unwrap();
        fs::write(tmp.join("f"), b"x").unwrap();
        publish_dir(&tmp, &t.path().join("a")).unwrap();
        assert_eq!(fs::read(t.path().join("a/f")).unwrap(), b"x");
        assert!(!tmp.exists());
    }

    #[test]
    fn check_output_refuses_inputs_always_and_existing_files_without_force() {
        let t = tempfile::tempdir().unwrap();
        let input = t.path().join("in.shard");
        fs::write(&input, b"data").unwrap();
        let out = t.path().join("out.txt");
        assert!(check_output(&out, &[&input], false).is_ok(), "a new file is fine");
        fs::write(&out, b"old").unwrap();
        assert!(matches!(check_output(&out, &[&input], false), Err(OutputError::Exists(_))));
        assert!(check_output(&out, &[&input], true).is_ok());
        // The input itself, spelled differently, and through a hard link: refused even with force.
        let dotted = t.path().join(".").join("in.shard");
        assert!(matches!(check_output(&dotted, &[&input], true), Err(OutputError::IsInput { .. })));
        let link = t.path().join("link.shard");
        fs::hard_link(&input, &link).unwrap();
        assert!(matches!(check_output(&link, &[&input], true), Err(OutputError::IsInput { .. })));
        // A file inside an input directory.
        assert!(matches!(check_output(&input, &[t.path()], true), Err(OutputError::IsInput { .. })));
        assert_eq!(fs::read(&input).unwrap(), b"data");
        // A directory is never an output; a device holds nothing to lose.
        assert!(matches!(check_output(t.path(), &[], true), Err(OutputError::IsDirectory(_))));
        #[cfg(unix)]
        assert!(check_output(Path::new("/dev/null"), &[&input], false).is_ok());
    }

    #[test]
    fn an_output_needs_an_existing_writable_folder_which_is_never_created() {
        let t = tempfile::tempdir().unwrap();
        let missing = t.path().join("no/such/dir/out.pgn");
        let e = check_output(&missing, &[], true).unwrap_err();
        assert!(matches!(&e, OutputError::NoFolder(d) if d == &t.path().join("no/such/dir")), "{e}");
        assert!(e.to_string().ends_with("no such folder (create it first)"), "{e}");
        assert!(!t.path().join("no").exists(), "nothing created");
        let file = t.path().join("file");
        fs::write(&file, b"x").unwrap();
        assert!(matches!(check_output(&file.join("out.pgn"), &[], false), Err(OutputError::NotAFolder(_))));
        // A folder that takes no new file, even for root.
        #[cfg(target_os = "linux")]
        assert!(matches!(check_parent(Path::new("/proc/fiveup-out.pgn")), Err(OutputError::NotWritable { .. })));
        // The probe leaves nothing behind.
        assert!(check_output(&t.path().join("new.pgn"), &[], false).is_ok());
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1, "only the file made above");
    }

    #[cfg(unix)]
    #[test]
    fn write_atomic_follows_links_and_writes_devices_in_place() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real.txt");
        fs::write(&real, b"old").unwrap();
        let link = t.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(fs::read(&real).unwrap(), b"new");
        write_atomic(Path::new("/dev/null"), b"nothing").unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file(), "/dev/null is still a device");
        assert!(write_atomic(t.path(), b"x").is_err(), "a directory is refused");
    }
}
