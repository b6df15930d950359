//! Checkpoints: `checkpoints/step-SSSSSSSS/`, holding the learner's files (weights and
//! optimizer state), a copy of the run's `config.toml` (so a run directory that lost its config
//! can be rebuilt from its newest checkpoint) and `meta.json` (step, generation, config hash, and
//! each file's size and checksum: CRC-32 since version 2, FNV-1a 64 in version 1, still read).
//!
//! Written atomically: the learner saves into `checkpoints/.tmp-step-SSSSSSSS-PID/`, `meta.json`
//! goes in last, and the directory is renamed into place, so a kill leaves either the whole
//! checkpoint or a temporary directory (removed on the next start). Loading checks every file
//! against `meta.json` before the learner reads anything; a mismatch is a one-line error naming
//! the checkpoint. A checkpoint that does not fit the run's config is an error that says so (and
//! never advises deleting it). The newest [`crate::train::config::TrainingSection::keep_checkpoints`] are kept.

use super::learner::Learner;
use super::rundir::RunDir;
use super::TrainError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// `meta.json` of a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointMeta {
    /// Format version: [`META_VERSION`] (CRC-32 checksums); 1 (FNV-1a 64) is still read.
    pub version: u32,
    /// Optimizer steps taken.
    pub step: u64,
    /// The generation being trained when it was written.
    pub generation: u32,
    /// [`crate::train::config::TrainConfig::hash`] of the run's config.
    pub config_hash: String,
    /// Every other file of the checkpoint: name → (size in bytes, checksum as hex: CRC-32, 8
    /// digits; version 1: FNV-1a 64, 16 digits).
    pub files: BTreeMap<String, (u64, String)>,
}

/// The `meta.json` version written: file checksums are CRC-32.
pub const META_VERSION: u32 = 2;

/// A file's checksum as `meta.json` of `version` records it (CRC-32 from version 2, FNV-1a 64
/// before).
pub fn checksum_hex(version: u32, bytes: &[u8]) -> String {
    if version >= 2 {
        format!("{:08x}", crate::fsutil::crc32(bytes))
    } else {
        format!("{:016x}", crate::fsutil::legacy::fnv1a64(bytes))
    }
}

/// The copy of the run's config inside a checkpoint.
pub const CONFIG_FILE: &str = "config.toml";

fn step_dir_name(step: u64) -> String {
    format!("step-{step:08}")
}

/// The checkpoints of a run, oldest first: (step, directory).
pub fn list(run: &RunDir) -> Vec<(u64, PathBuf)> {
    let Ok(rd) = fs::read_dir(run.checkpoints_dir()) else { return Vec::new() };
    let mut v: Vec<(u64, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_prefix("step-").and_then(|s| s.parse().ok()).map(|s| (s, e.path()))
        })
        .collect();
    v.sort();
    v
}

/// Removes temporary directories left by a killed save.
pub fn clean_temporaries(run: &RunDir) {
    let Ok(rd) = fs::read_dir(run.checkpoints_dir()) else { return };
    for e in rd.filter_map(|e| e.ok()) {
        if e.file_name().to_string_lossy().starts_with(".tmp-") {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

/// Saves the learner's state at `step` and prunes to the newest `keep`.
pub fn save(
    run: &RunDir,
    learner: &dyn Learner,
    step: u64,
    generation: u32,
    config_hash: &str,
    keep: usize,
) -> Result<PathBuf, TrainError> {
    let final_dir = run.checkpoints_dir().join(step_dir_name(step));
    if final_dir.exists() {
        return Ok(final_dir);
    }
    let tmp = run.checkpoints_dir().join(format!(".tmp-{}-{}", step_dir_name(step), std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
    learner.save(&tmp)?;
    if run.config_path().exists() {
        let copy = tmp.join(CONFIG_FILE);
        fs::copy(run.config_path(), &copy).map_err(|e| TrainError::io(&copy, e))?;
    }
    let mut files = BTreeMap::new();
    for e in fs::read_dir(&tmp).map_err(|e| TrainError::io(&tmp, e))? {
        let e = e.map_err(|e| TrainError::io(&tmp, e))?;
        let bytes = fs::read(e.path()).map_err(|err| TrainError::io(&e.path(), err))?;
        files.insert(
            e.file_name().to_string_lossy().to_string(),
            (bytes.len() as u64, checksum_hex(META_VERSION, &bytes)),
        );
    }
    let meta = CheckpointMeta { version: META_VERSION, step, generation, config_hash: config_hash.to_string(), files };
    let meta_path = tmp.join("meta.json");
    let text = serde_json::to_string_pretty(&meta).expect("meta serialises") + "\n";
    fs::write(&meta_path, text).map_err(|e| TrainError::io(&meta_path, e))?;
    // Synced, renamed into place, parent synced: the whole checkpoint or none of it.
    crate::fsutil::publish_dir(&tmp, &final_dir).map_err(|e| TrainError::io(&final_dir, e))?;
    prune(run, keep);
    Ok(final_dir)
}

/// Keeps the newest `keep` checkpoints.
pub fn prune(run: &RunDir, keep: usize) {
    let all = list(run);
    for (_, dir) in all.iter().take(all.len().saturating_sub(keep.max(1))) {
        if let Err(e) = fs::remove_dir_all(dir) {
            tracing::warn!("cannot remove old checkpoint {}: {e}", dir.display());
        }
    }
}

/// Reads and checks a checkpoint's `meta.json` and files.
pub fn verify(dir: &Path) -> Result<CheckpointMeta, TrainError> {
    let corrupt = |detail: String| TrainError::Corrupt {
        path: dir.to_path_buf(),
        detail: format!("{detail} (delete this checkpoint to resume from the one before it)"),
    };
    let meta_path = dir.join("meta.json");
    let text = fs::read_to_string(&meta_path).map_err(|e| corrupt(format!("meta.json: {e}")))?;
    let meta: CheckpointMeta = serde_json::from_str(&text).map_err(|e| corrupt(format!("meta.json: {e}")))?;
    for (name, (size, hash)) in &meta.files {
        let bytes = fs::read(dir.join(name)).map_err(|e| corrupt(format!("{name}: {e}")))?;
        if bytes.len() as u64 != *size {
            return Err(corrupt(format!("{name} has {} bytes, meta.json says {size}", bytes.len())));
        }
        if meta.version > META_VERSION {
            return Err(TrainError::Invalid {
                path: meta_path,
                detail: format!("checkpoint format {} is newer than this build reads ({META_VERSION})", meta.version),
            });
        }
        if checksum_hex(meta.version, &bytes) != *hash {
            return Err(corrupt(format!("{name} does not match its checksum")));
        }
    }
    Ok(meta)
}

/// Loads the newest checkpoint into `learner`; returns its metadata, or `None` when the run has
/// none. A damaged checkpoint, or one of another config, is an error.
pub fn load_latest(
    run: &RunDir,
    learner: &mut dyn Learner,
    config_hash: &str,
    force: bool,
) -> Result<Option<CheckpointMeta>, TrainError> {
    load_latest_of(run, learner, &[config_hash], force)
}

/// [`load_latest`] where a checkpoint written under any of `hashes` is of the run's config (the
/// first is the current identity, named in messages).
pub fn load_latest_of(
    run: &RunDir,
    learner: &mut dyn Learner,
    hashes: &[&str],
    force: bool,
) -> Result<Option<CheckpointMeta>, TrainError> {
    let config_hash = hashes.first().copied().unwrap_or_default();
    let Some((_, dir)) = list(run).pop() else { return Ok(None) };
    let meta = verify(&dir)?;
    let other_config = !hashes.contains(&meta.config_hash.as_str());
    if other_config && !force {
        tracing::warn!(
            "{}: written under config {}, the run's config is now {config_hash}",
            dir.display(),
            meta.config_hash
        );
    }
    learner.load(&dir).map_err(|e| {
        if other_config {
            // A config problem, not damage: the files passed their checksums.
            let saved = dir.join(CONFIG_FILE);
            let fix = if saved.exists() {
                format!("resume with the config it was written under: --config {}", saved.display())
            } else {
                "resume with the config the run was started with (--config FILE)".to_string()
            };
            TrainError::Invalid {
                path: dir.clone(),
                detail: format!(
                    "does not fit the run's config (written under config {}, the run's is {config_hash}): {e}; {fix}",
                    meta.config_hash
                ),
            }
        } else {
            TrainError::Corrupt {
                path: dir.clone(),
                detail: format!("cannot load: {e} (delete this checkpoint to resume from the one before it)"),
            }
        }
    })?;
    Ok(Some(meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::learner::NullLearner;
    use crate::train::replay::TrainBatch;

    #[test]
    fn save_load_prune_and_detect_damage() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let mut l = NullLearner::default();
        let b = TrainBatch { n: 1, k: 1, move_mask: vec![true], policy: vec![1.0], ..TrainBatch::default() };
        for step in 1..=4u64 {
            l.step(&b, 0.1).unwrap();
            save(&run, &l, step, 0, "h", 2).unwrap();
        }
        assert_eq!(list(&run).iter().map(|x| x.0).collect::<Vec<_>>(), vec![3, 4]);
        let mut m = NullLearner::default();
        let meta = load_latest(&run, &mut m, "h", false).unwrap().unwrap();
        assert_eq!((meta.step, m.steps()), (4, 4));
        // Damage the newest: one clear line naming it.
        let dir = list(&run).pop().unwrap().1;
        fs::write(dir.join("learner.json"), "{\"format\":\"fiveup-none\",\"steps\":99}").unwrap();
        let e = load_latest(&run, &mut m, "h", false).unwrap_err().to_string();
        assert!(e.contains("step-00000004") && e.contains("learner.json") && !e.contains('\n'), "{e}");
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(load_latest(&run, &mut m, "h", false).unwrap().unwrap().step, 3);
    }

    #[test]
    fn checksums_are_crc32_and_version_1_checkpoints_still_verify() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        fs::write(run.config_path(), "generations = 3\n").unwrap();
        let dir = save(&run, &NullLearner::default(), 7, 0, "h", 2).unwrap();
        let meta = verify(&dir).unwrap();
        assert_eq!(meta.version, META_VERSION);
        let bytes = fs::read(dir.join(CONFIG_FILE)).unwrap();
        assert_eq!(bytes, b"generations = 3\n", "the run's config is kept in the checkpoint");
        assert_eq!(meta.files[CONFIG_FILE].1, format!("{:08x}", crate::fsutil::crc32(&bytes)));
        // The same checkpoint as version 1 wrote it (FNV-1a 64 hashes) still verifies...
        let mut old = meta.clone();
        old.version = 1;
        for (name, (_, hash)) in old.files.iter_mut() {
            *hash = format!("{:016x}", crate::fsutil::legacy::fnv1a64(&fs::read(dir.join(name)).unwrap()));
        }
        fs::write(dir.join("meta.json"), serde_json::to_string(&old).unwrap()).unwrap();
        assert_eq!(verify(&dir).unwrap(), old);
        // ...and damage is still caught.
        fs::write(dir.join(CONFIG_FILE), b"generations = 4\n").unwrap();
        assert!(verify(&dir).unwrap_err().to_string().contains("does not match its checksum"));
    }

    #[test]
    fn a_checkpoint_of_another_config_that_does_not_load_is_not_called_corrupt() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let dir = save(&run, &NullLearner::default(), 7, 0, "old-hash", 2).unwrap();
        // A learner that cannot read it (as a network of another architecture would).
        fs::write(dir.join("learner.json"), "{\"format\":\"other\",\"steps\":7}").unwrap();
        let mut meta = verify_ignoring_checksums(&dir);
        meta.files.remove("learner.json");
        fs::write(dir.join("meta.json"), serde_json::to_string(&meta).unwrap()).unwrap();
        let e = load_latest(&run, &mut NullLearner::default(), "new-hash", false).unwrap_err().to_string();
        assert!(e.contains("does not fit the run's config") && e.contains("old-hash"), "{e}");
        assert!(!e.contains("delete"), "{e}");
        // Under the same config it is damage, and deleting it is the fix.
        let e = load_latest(&run, &mut NullLearner::default(), "old-hash", false).unwrap_err().to_string();
        assert!(e.contains("corrupt") && e.contains("delete this checkpoint"), "{e}");
    }

    fn verify_ignoring_checksums(dir: &Path) -> CheckpointMeta {
        serde_json::from_str(&fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap()
    }
}
