//! Evaluation games on many machines: a coordinator writes game pairs as jobs on an object store
//! (or a shared directory) and any number of workers play them (fishtest's pattern, with the
//! store in place of a server).
//!
//! # Design
//! `match`, `sprt`, `tournament` and `values` hand their games to an [`Executor`]
//! (`super::executor`): threads on this machine, or a [`Coordinator`] on a store prefix. The
//! commands' callbacks (records, tallies, ratings, the SPRT, the values files) are the same
//! either way, so a distributed run writes the same outputs as a local one.
//!
//! The prefix holds ([`layout`]):
//! - `games.json`, the [`Descriptor`]: the game, the command, the fiveup version and the claims'
//!   time to live. Written once; a restarted coordinator with the same command resumes, another
//!   command (or a training run's files) is refused.
//! - `control.json`: `running`, `finished` or `stopped`; workers stop when the evaluation ends.
//! - `jobs/SEQ_ID.json`: a unit of work, the games of one colour-swapped pair (consecutive jobs with
//!   the same `Pair` tag) with their players, opening, ply cap, time control, tags and the margin
//!   of a material judge at the cap (Mixed 3D). `ID` is a
//!   hash of that content (and its occurrence), so a restarted coordinator, or a `values` run
//!   that resumes from its own files, names the same work with the same ID.
//! - `claims/ID/GGGGGG`: a worker's claim, generation `G`, created with a conditional put (only
//!   one worker wins a generation) and rewritten every quarter of the time to live; a claim not
//!   rewritten for the time to live has expired and the next generation may be created. A
//!   worker that is killed loses at most the pair it holds. `GGGGGG.released`: given up at once
//!   (a worker stopped by a signal). Only creates and plain puts: any store, and a directory.
//! - `results/ID.json`: the pair's records, uploaded with a conditional put, so a result is
//!   counted once by its name even when two workers played the pair.
//! - `files/SHA256/…`: the networks, NNUE and weights files the players name, uploaded by the
//!   coordinator and checked by checksum by the workers.
//! - `failed/ID/WORKER.json`: a worker that cannot play a job (a player it cannot build) says
//!   why; the coordinator stops with that message.
//! - `live/ID-G.json`: games in progress, mirrored by the coordinator into the command's live
//!   files (a tournament's `live/`, which `fiveup serve` watches).
//! - `workers/NAME.json`: each worker's heartbeat.
//! - `coordinator.lease` (a store) or `coordinator.lock` (a directory): one coordinator at a time.
//!
//! The coordinator posts a window of pairs ahead, waits for the results **in job order** and
//! hands each game to the command's callback in that order: a distributed SPRT sees exactly
//! the sequence of a one-machine run with `--concurrency 1`, so with fixed-depth or fixed-node
//! players it reaches the same decision from the same seeds. Each result is checked before it
//! counts: the version that played it, and each record against its job (players, start,
//! opening, tags, legal moves, a verdict at the cap the coordinator's own judge reaches too); one
//! that fails is moved to `rejected/` and the pair is played
//! again. When the callback stops the run (an SPRT decided), the pairs not yet needed are
//! withdrawn, and the workers playing them give them up within a renewal period.

pub mod claim;
pub mod coordinator;
pub mod files;
pub mod job;
pub mod worker;

pub use coordinator::Coordinator;

use crate::store::{Remote, RetryPolicy, RunLocation, StoreError};
pub use job::{Control, Descriptor};
pub use worker::{run_worker, WorkerConfig, WorkerSummary};

/// The object names of an evaluation's prefix.
pub mod layout {
    /// The descriptor.
    pub const DESCRIPTOR: &str = "games.json";
    /// The evaluation's state.
    pub const CONTROL: &str = "control.json";
    /// The coordinator's lease (object stores).
    pub const LEASE: &str = "coordinator.lease";
    /// The coordinator's lock file (directories).
    pub const LOCK: &str = "coordinator.lock";
    /// Objects whose presence means the prefix is a training run, not an evaluation.
    pub const TRAINING: &[&str] = &["state.json", "config.toml", "trainer.lease"];

    /// The job `id`, the `seq`-th a coordinator posted (names sort in posting order, the order
    /// workers take them in).
    pub fn job(seq: u64, id: &str) -> String {
        format!("jobs/{seq:010}_{id}.json")
    }

    /// The ID of a job object's name.
    pub fn job_id_of(name: &str) -> Option<&str> {
        let id = name.strip_prefix("jobs/")?.strip_suffix(".json")?.split_once('_')?.1;
        super::job::valid_id(id).then_some(id)
    }

    /// The result of job `id`.
    pub fn result(id: &str) -> String {
        format!("results/{id}.json")
    }

    /// A worker's report that it cannot play job `id`.
    pub fn failed(id: &str, worker: &str) -> String {
        format!("failed/{id}/{worker}.json")
    }

    /// Game `g` of job `id` in progress.
    pub fn live(id: &str, g: usize) -> String {
        format!("live/{id}-{g}.json")
    }

    /// The heartbeat of worker `name`.
    pub fn worker(name: &str) -> String {
        format!("workers/{name}.json")
    }
}

/// The version a coordinator and its workers must share: the package version and the format
/// of the objects.
pub fn version() -> String {
    format!("{} (games format {})", env!("CARGO_PKG_VERSION"), job::FORMAT_VERSION)
}

/// Opens an evaluation's store: an object-store prefix is probed at once (a wrong endpoint or
/// credentials fail within seconds) and, for the coordinator (`coordinate`), checked to honour
/// conditional writes; a directory is made by the coordinator and must exist for the others.
pub fn open_store(location: &RunLocation, coordinate: bool) -> Result<Remote, StoreError> {
    match location {
        RunLocation::Remote(url) => {
            let mut r = Remote::open(url)?;
            r.set_retry(RetryPolicy::QUICK);
            r.probe()?;
            if coordinate {
                r.check_conditional_puts()?;
            }
            r.set_retry(RetryPolicy::PATIENT);
            Ok(r)
        }
        RunLocation::Local(dir) if !coordinate && !dir.is_dir() => Err(StoreError::Url {
            url: dir.display().to_string(),
            detail: "no such directory (the coordinator creates it)".into(),
        }),
        RunLocation::Local(dir) => Remote::open_dir(dir),
    }
}

/// Whether `name` is usable as a worker name (letters, digits, `-`, `_`, `.`; 1 to 100
/// characters): it becomes part of object names.
pub fn valid_worker_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests;
