//! Piece values, measured: imbalance matches (H. G. Muller's method) and outcome regression
//! (Tomašev et al. 2020 style), each with 95% intervals, iterated with the engine.
//!
//! - [`setups`]: handicapped start positions (a piece, pawn odds, exchanges), validated;
//! - [`play`]: shared random openings for colour-swapped pairs, one game, a parallel job runner;
//! - [`records`]: the run's game store (`games.jsonl`, resumable) and readers for the regression;
//! - [`imbalance`]: match scores → logits → pawn units via the pawn-odds calibration;
//! - [`regression`]: logistic regression of results on material differences in quiet positions;
//! - [`report`]: the table (terminal, JSON, CSV) and the bar plot;
//! - [`run`]: the driver behind `fiveup values` (schedule, resume, iterate).
//!
//! The formulas are in each module's docs; `docs/PIECE_VALUES.md` has measured figures.

pub mod imbalance;
pub mod play;
pub mod records;
pub mod regression;
pub mod report;
pub mod run;
pub mod setups;

pub use imbalance::{Estimate, ImbalanceReport, PairResults};
pub use regression::{RegressionReport, SampleConfig};
pub use report::ValuesReport;
pub use run::{run, Method, RunError, ValuesConfig};
pub use setups::{default_imbalances, measured_kinds, Imbalance};

/// Serialises a kind by its weights-file key (`knight`, `silver`, `runicorn`).
fn ser_kind<S: serde::Serializer>(k: &crate::rules::Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(crate::engine::weights::kind_key(*k))
}
