//! Piece values, measured: imbalance matches (H. G. Muller's method) and outcome regression
//! (Tomašev et al. 2020 style), each with 95% intervals, iterated with the engine.
//!
//! Written once over [`ValuesGame`] (what the estimators need of a game) and monomorphised for
//! the 5x5x5 games ([`cube`]), 4D Quasi-Alice Chess ([`quasi_alice`]) and Mixed 3D Chess
//! ([`mixed3d`]).
//!
//! - [`game`]: the [`ValuesGame`] trait;
//! - [`handicap`]: the [`Imbalance`] type (what each side lacks) and its text form;
//! - [`setups`]: handicapped start positions (a piece, pawn odds, exchanges), validated;
//! - [`play`]: shared random openings for colour-swapped pairs, one game, a parallel job runner;
//! - [`records`]: the run's game store (`games.jsonl`, resumable) and readers for the regression;
//! - [`imbalance`]: match scores → logits → pawn units via the pawn-odds calibration;
//! - [`regression`]: logistic regression of results on material differences in quiet positions;
//! - [`report`]: the table (terminal, JSON, CSV) and the bar plot;
//! - [`run`]: the driver behind `fiveup values` (schedule, resume, iterate).
//!
//! The formulas are in each module's docs; `docs/PIECE_VALUES.md` has measured figures.

pub mod cube;
pub mod game;
pub mod handicap;
pub mod imbalance;
pub mod mixed3d;
pub mod play;
pub mod quasi_alice;
pub mod records;
pub mod regression;
pub mod report;
pub mod run;
pub mod setups;

pub use game::ValuesGame;
pub use imbalance::{Estimate, ImbalanceReport, PairResults};
pub use regression::{RegressionReport, SampleConfig};
pub use report::ValuesReport;
pub use run::{run, Method, ValuesConfig};
pub use setups::{default_imbalances, measured_kinds, Imbalance};

use crate::rules::{Kind, Ruleset};

/// Serialises a kind by its weights-file key (`knight`, `silver`, `runicorn`).
fn ser_kind<S: serde::Serializer>(k: &Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(crate::engine::weights::kind_key(*k))
}

/// The prior guess of a ruleset in pawns (see [`guess_source`]): Aikin's published table for Five
/// Up (P 1, U ≤ 3, N 4, B 4, R 5, S 5, W 6, G 6, Q 9), and for Raumschach, which has no published
/// table, the working estimate the engine played with before anything was measured (N 3, B 5,
/// R 5, U 3, Q 10). Fixed numbers: the engine's defaults are measured values now.
pub fn guess(ruleset: Ruleset, kind: Kind) -> f64 {
    match (ruleset.is_fiveup(), kind) {
        (_, Kind::Pawn) => 1.0,
        (true, Kind::Unicorn) => 3.0,
        (true, Kind::Knight | Kind::Bishop) => 4.0,
        (true, Kind::Rook | Kind::Silver) => 5.0,
        (true, Kind::Wizard | Kind::Guard) => 6.0,
        (true, Kind::Queen) => 9.0,
        (false, Kind::Knight | Kind::RUnicorn) => 3.0,
        (false, Kind::Bishop | Kind::Rook) => 5.0,
        (false, Kind::Queen) => 10.0,
        _ => 0.0,
    }
}

/// Source of [`guess`].
pub fn guess_source(ruleset: Ruleset) -> &'static str {
    if ruleset.is_fiveup() {
        "Aikin's table (Five Up text)"
    } else {
        "project working estimate (no published table)"
    }
}

/// Why a piece-value run (or its report) failed.
#[derive(Debug, thiserror::Error)]
pub enum ValuesError {
    /// File trouble.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// A game record problem.
    #[error(transparent)]
    Record(#[from] records::ValuesRecordError),
    /// A setup problem.
    #[error(transparent)]
    Setup(#[from] setups::ImbalanceError),
    /// The output folder holds games of other settings.
    #[error("{0} was written with other settings ({1}); use another --out or the same settings")]
    Mismatch(String, String),
    /// The output folder holds a run of other settings, or someone else's files.
    #[error(transparent)]
    Claim(#[from] crate::fsutil::ClaimError),
    /// A game could not be played.
    #[error("playing the matches failed: {0}")]
    Play(String),
    /// Settings that cannot work.
    #[error("{0}")]
    Config(String),
    /// A method list names an unknown method.
    #[error("unknown method '{0}' (expected all, both, or a list of imbalance, regression, texel)")]
    Method(String),
    /// The plot's font could not be loaded.
    #[error("the embedded font could not be loaded")]
    Font,
    /// The plot could not be drawn.
    #[error("{0}")]
    Plot(String),
}
