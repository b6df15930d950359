//! Evaluation statistics: Elo from game results, tournament ratings and SPRT.
//!
//! This module is pure statistics on game results; it knows nothing of the rules or engines.
//! - [`elo`]: logistic Elo ↔ score, trinomial/pentanomial counts, match Elo with a 95% interval.
//! - [`ratings`]: maximum-likelihood ratings of a whole tournament (BayesElo or Ordo-style model),
//!   covariance-based and bootstrap intervals, likelihood of superiority, crosstable, pentanomial
//!   statistics per pairing.
//! - [`sprt`]: the generalized sequential probability ratio test (fishtest/cutechess style) on
//!   trinomial or pentanomial data.
//!
//! All Elo values are logistic Elo unless a field says otherwise (the BayesElo model's ratings
//! are on its own, slightly wider, scale; see [`ratings`]).

pub mod elo;
mod fit;
mod model;
pub mod ratings;
pub mod sprt;

pub use elo::{elo_to_score, score_to_elo, EloInterval, Pentanomial, Trinomial};
pub use ratings::{rate, Anchor, Bootstrap, Covariance, FitConfig, Game, GameResult, Model, RatingError, RatingReport};
pub use sprt::{Decision, Sprt, SprtConfig, SprtData, SprtError, SprtStatus};
