//! The second pass over a built table: every entry checked against its successors with the rules
//! core's own move generator and position checks (not the builder's), so that a table is only
//! written when two independent move generators agree on it; and the table's figures counted on
//! the way.

use super::file::{SideStats, Stats};
use super::index::{canonical_index, decode, SYMMETRIES};
use super::locate;
use super::material::MAX_MEN;
use super::table::{Dtm, Shelf, Table, NONE};
use crate::progress::Progress;
use crate::rules::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Entries per work unit.
const CHUNK: usize = 1 << 13;

/// Why a table failed its check.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// An entry disagrees with its successors.
    #[error("{material}: {what}")]
    Mismatch {
        /// The table.
        material: String,
        /// The entry and the disagreement.
        what: String,
    },
    /// A table a capture leads to is missing.
    #[error("{0}: a capture leads to {1}, which is not loaded")]
    Missing(String, String),
    /// The run was asked to stop.
    #[error("stopped")]
    Stopped,
}

/// The value the rules give a position from the values of its successors.
fn expected(pos: &Position, value_of: &dyn Fn(&Position) -> Result<Dtm, String>) -> Result<Dtm, String> {
    let moves = crate::game::legal_moves(pos);
    if moves.is_empty() {
        return Ok(if pos.in_check() { Dtm::Loss(0) } else { Dtm::Draw });
    }
    let mut best: Option<Dtm> = None;
    for m in moves {
        let v = value_of(&pos.after(m))?.parent();
        if best.is_none_or(|b| v.better_than(b)) {
            best = Some(v);
        }
    }
    Ok(best.expect("there is a move"))
}

/// Checks every entry of `table` against the rules core, reading captures from `shelf` (which
/// holds every table its captures lead to), and counts its figures.
pub fn verify(
    table: &Table,
    shelf: &Shelf,
    progress: Option<&Progress>,
    stop: &AtomicBool,
) -> Result<Stats, VerifyError> {
    let n = table.layout.men();
    let material = table.material.to_string();
    let value_of = |p: &Position| -> Result<Dtm, String> {
        let Some(at) = locate(p) else {
            return Ok(Dtm::Draw); // bare kings
        };
        let t = if at.material == table.material {
            table
        } else {
            shelf
                .get(&at.material)
                .map(|t| &**t)
                .ok_or_else(|| format!("a capture leads to {}, which is not loaded", at.material))?
        };
        t.probe_cells(&at.cells[..at.men], at.side)
            .ok_or_else(|| format!("{} has no value for {}", at.material, p.to_text()))
    };
    let total = table.values.len() as usize;
    let chunks: Vec<Result<[SideStats; 2], VerifyError>> = (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            if stop.load(Ordering::Relaxed) {
                return Err(VerifyError::Stopped);
            }
            let mut stats = [SideStats::default(); 2];
            let mismatch = |what: String| VerifyError::Mismatch { material: material.clone(), what };
            let mut cells = [0u8; MAX_MEN];
            let end = ((chunk + 1) * CHUNK).min(total);
            for i in (chunk * CHUNK) as u64..end as u64 {
                let side = decode(i, &mut cells[..n]);
                let code = table.values.get(i);
                let (canon, ties) = canonical_index(&cells[..n], &table.layout.same, side);
                let setup = table.setup_of(&cells[..n], side).filter(|_| canon == i);
                let Some(setup) = setup else {
                    if code != NONE {
                        return Err(mismatch(format!("entry {i} is no canonical position but holds a value")));
                    }
                    continue;
                };
                let pos = match Position::from_setup(setup) {
                    Ok(p) => p,
                    Err(e) => {
                        if code != NONE {
                            return Err(mismatch(format!("entry {i} is no position ({e}) but holds a value")));
                        }
                        continue;
                    }
                };
                let Some(stored) = Dtm::from_code(code) else {
                    return Err(mismatch(format!("{} has no value", pos.to_text())));
                };
                let want = expected(&pos, &value_of).map_err(|e| match e.contains("not loaded") {
                    true => VerifyError::Missing(material.clone(), e),
                    false => mismatch(e),
                })?;
                if want != stored {
                    return Err(mismatch(format!(
                        "{}: stored {stored:?}, its successors give {want:?}",
                        pos.to_text()
                    )));
                }
                let weight = (SYMMETRIES as u32 / ties) as u64;
                let s = &mut stats[side.index()];
                match stored {
                    Dtm::Win(p) => {
                        s.wins += weight;
                        s.longest_win = s.longest_win.max(p);
                    }
                    Dtm::Loss(p) => {
                        s.losses += weight;
                        s.longest_loss = s.longest_loss.max(p);
                    }
                    Dtm::Draw => s.draws += weight,
                }
            }
            if let Some(p) = progress {
                p.inc((end - chunk * CHUNK) as u64);
            }
            Ok(stats)
        })
        .collect();
    let mut out = Stats::default();
    for c in chunks {
        let [w, b] = c?;
        for (acc, s) in [(&mut out.white, w), (&mut out.black, b)] {
            acc.wins += s.wins;
            acc.draws += s.draws;
            acc.losses += s.losses;
            acc.longest_win = acc.longest_win.max(s.longest_win);
            acc.longest_loss = acc.longest_loss.max(s.longest_loss);
        }
    }
    Ok(out)
}
