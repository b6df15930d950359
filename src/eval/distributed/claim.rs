//! Workers' claims on jobs with creates and plain puts only (so any object store and a plain
//! directory serve): `claims/ID/GGGGGG` is generation `G` of job `ID`'s claim. A worker takes a
//! job by creating the next generation with a conditional create (exactly one worker gets
//! it), keeps it by rewriting its generation (the store's modification time is the renewal), and
//! has lost it when a newer generation exists. A generation not rewritten for the time to live
//! has expired; `GGGGGG.released` marks one given up at once.

use super::job::valid_id;
use crate::store::{ObjectInfo, Remote, StoreError};
use bytes::Bytes;
use std::collections::HashMap;

/// The newest claim of one job, as a listing shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimState {
    /// Its generation.
    pub generation: u32,
    /// When it was last rewritten (the store's clock).
    pub modified: f64,
    /// Whether its holder gave it up.
    pub released: bool,
}

fn name(id: &str, generation: u32) -> String {
    format!("claims/{id}/{generation:06}")
}

/// The newest claim of each job from a listing of `claims/`.
pub fn states(listing: &[ObjectInfo]) -> HashMap<String, ClaimState> {
    let mut out: HashMap<String, ClaimState> = HashMap::new();
    for o in listing {
        let Some(rest) = o.name.strip_prefix("claims/") else { continue };
        let Some((id, g)) = rest.split_once('/') else { continue };
        let (g, released) = match g.strip_suffix(".released") {
            Some(g) => (g, true),
            None => (g, false),
        };
        let Ok(generation) = g.parse::<u32>() else { continue };
        if !valid_id(id) {
            continue;
        }
        let e = out.entry(id.to_string()).or_insert(ClaimState { generation, modified: o.modified, released });
        if generation > e.generation {
            *e = ClaimState { generation, modified: o.modified, released };
        } else if generation == e.generation {
            e.released |= released;
            if !released {
                e.modified = e.modified.max(o.modified);
            }
        }
    }
    out
}

/// The generation a worker may create for a job whose newest claim is `state` at time `now`,
/// or `None` while another worker holds it.
pub fn next_generation(state: Option<&ClaimState>, now: f64, ttl: f64) -> Option<u32> {
    match state {
        None => Some(1),
        Some(s) if s.released || now - s.modified > ttl => s.generation.checked_add(1),
        Some(_) => None,
    }
}

/// Tries to create generation `generation` of job `id`'s claim for `worker`: whether it is ours.
pub fn take(remote: &Remote, id: &str, generation: u32, worker: &str) -> Result<bool, StoreError> {
    let body = serde_json::json!({ "worker": worker, "taken_unix": crate::store::remote::now() });
    Ok(remote.put_new(&name(id, generation), Bytes::from(body.to_string()))?.is_some())
}

/// Renews our generation `generation` of job `id`'s claim: `false` when a newer generation exists
/// (another worker took the job over after ours expired).
pub fn renew(remote: &Remote, id: &str, generation: u32, worker: &str) -> Result<bool, StoreError> {
    let newest = states(&remote.list(&format!("claims/{id}/"))?).remove(id);
    if newest.is_some_and(|s| s.generation > generation) {
        return Ok(false);
    }
    let body = serde_json::json!({ "worker": worker, "renewed_unix": crate::store::remote::now() });
    remote.put(&name(id, generation), Bytes::from(body.to_string()))?;
    Ok(true)
}

/// Gives our generation up so that another worker may take the job at once.
pub fn release(remote: &Remote, id: &str, generation: u32) -> Result<(), StoreError> {
    remote.put(&format!("{}.released", name(id, generation)), Bytes::from_static(b"{}"))?;
    Ok(())
}

/// Frees job `id` whatever holds it (the coordinator, for a pair whose result it refused).
pub fn free(remote: &Remote, id: &str) -> Result<(), StoreError> {
    if let Some(s) = states(&remote.list(&format!("claims/{id}/"))?).remove(id) {
        release(remote, id, s.generation)?;
    }
    Ok(())
}

/// Deletes every claim object of job `id`.
pub fn clear(remote: &Remote, id: &str) -> Result<(), StoreError> {
    for o in remote.list(&format!("claims/{id}/"))? {
        remote.delete(&o.name)?;
    }
    Ok(())
}
