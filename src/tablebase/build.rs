//! Building the tables a user asks for: the smaller tables their captures lead to first, each
//! table built, verified, written atomically; tables already in the folder are read (their
//! checksum checked) and kept, so a stopped build resumes at the table it was building.

use super::file::{self, FileError, Stats};
use super::generate::{GenerateError, Generator};
use super::material::Material;
use super::table::Shelf;
use super::verify::{verify, VerifyError};
use crate::fsutil;
use crate::progress::Progress;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The builder failed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// The check failed: the table is not written.
    #[error("verification failed, table not written: {0}")]
    Verify(#[from] VerifyError),
    /// A table in the folder is damaged or foreign.
    #[error("{0} (delete it to build it again)")]
    File(#[from] FileError),
    /// The folder could not be made or written.
    #[error("{path}: {why}")]
    Folder {
        /// The folder or file.
        path: String,
        /// What went wrong.
        why: String,
    },
}

/// What happened to one table of a build.
#[derive(Clone, Debug)]
pub struct BuildReport {
    /// The material.
    pub material: Material,
    /// Whether it was built now (else it was in the folder already).
    pub built: bool,
    /// Its figures.
    pub stats: Stats,
    /// The size of its file in bytes.
    pub bytes: u64,
}

/// Every table `wanted` needs, smallest first: the wanted ones and, recursively, the tables
/// their captures lead to.
pub fn closure(wanted: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut todo: Vec<Material> = wanted.iter().map(|m| m.canonical().0).filter(|m| !m.bare_kings()).collect();
    while let Some(m) = todo.pop() {
        if all.contains(&m) {
            continue;
        }
        todo.extend(m.captures());
        all.push(m);
    }
    all.sort_by_key(|m| (m.men(), m.to_string()));
    all
}

/// Builds (or reads, when present) every table `wanted` needs in folder `dir` (made if missing;
/// its parent must exist), calling `done` after each. Progress bars are shown when `progress`.
pub fn build(
    dir: &Path,
    wanted: &[Material],
    progress: bool,
    stop: &AtomicBool,
    mut done: impl FnMut(&BuildReport),
) -> Result<Vec<BuildReport>, BuildError> {
    let folder_err = |p: &Path, e: String| BuildError::Folder { path: p.display().to_string(), why: e };
    if !dir.exists() {
        fsutil::check_parent(dir).map_err(|e| folder_err(dir, e.to_string()))?;
    }
    let needed = closure(wanted);
    let largest = needed.iter().map(Material::men).max().unwrap_or(0);
    let mut shelf = Shelf::default();
    let mut reports = Vec::new();
    for m in &needed {
        let family_dir = dir.join(m.family.name());
        std::fs::create_dir_all(&family_dir).map_err(|e| folder_err(&family_dir, e.to_string()))?;
        let path = file::path_in(dir, m);
        let report = if path.exists() {
            let (table, header) = file::read(&path, Some(m))?;
            if m.men() < largest {
                shelf.insert(table);
            }
            BuildReport { material: m.clone(), built: false, stats: header.stats, bytes: file_len(&path) }
        } else {
            let start = Instant::now();
            let generator = Generator::new(m, &shelf)?;
            let bar =
                |phase: &str, len: u64| progress.then(|| Progress::new(len, &format!("{m} {phase}"), "positions"));
            let forward = bar("forward", generator.entries());
            let table = generator.run(forward.as_ref(), stop)?;
            if let Some(b) = &forward {
                b.finish();
            }
            let check = bar("verify", generator.entries());
            let mut stats = verify(&table, &shelf, check.as_ref(), stop)?;
            if let Some(b) = &check {
                b.finish();
            }
            stats.seconds = start.elapsed().as_secs_f64();
            let bytes = file::encode(&table, &stats);
            fsutil::write_atomic(&path, &bytes).map_err(|e| folder_err(&path, e.to_string()))?;
            if m.men() < largest {
                shelf.insert(table);
            }
            BuildReport { material: m.clone(), built: true, stats, bytes: bytes.len() as u64 }
        };
        done(&report);
        reports.push(report);
    }
    Ok(reports)
}

fn file_len(p: &Path) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}
