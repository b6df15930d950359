//! Evaluation: playing matches and tournaments, their game records, and the statistics on the
//! results (Elo, tournament ratings, SPRT).
//!
//! Playing:
//! - [`runner`]: the one match runner ([`play_games`]): game jobs on worker threads, players built
//!   per game from specs or factories, records handed back as games finish;
//! - [`adjudicate`]: judges that end a game early (endgame tables) or decide one at the ply cap
//!   (material);
//! - [`openings`]: opening sets (start position, random plies, files);
//! - [`records`]: the PGN-style game record format, writer and reader;
//! - [`tally`]: running W/D/L and pair results of a two-player match;
//! - [`tournament`]: round-robin and gauntlet schedules, resumable from a records directory;
//! - [`plot`]: a PNG of ratings with error bars.
//!
//! Statistics (pure functions of game results; they know nothing of the rules or engines):
//! - [`elo`]: logistic Elo ↔ score, trinomial/pentanomial counts, match Elo with a 95% interval.
//! - [`ratings`]: maximum-likelihood ratings of a whole tournament (BayesElo or Ordo-style model),
//!   covariance-based and bootstrap intervals, likelihood of superiority, crosstable, pentanomial
//!   statistics per pairing.
//! - [`logistic`]: the logistic function and the one weighted regression fitter (least squares,
//!   logistic regression by Newton steps) of the rating models and the piece-value estimates.
//! - [`sprt`]: the generalized sequential probability ratio test (fishtest/cutechess style) on
//!   trinomial or pentanomial data.
//!
//! All Elo values are logistic Elo unless a field says otherwise (the BayesElo model's ratings
//! are on its own, slightly wider, scale; see [`ratings`]).

pub mod adjudicate;
pub mod distributed;
pub mod elo;
pub mod executor;
mod fit;
pub mod logistic;
mod model;
pub mod openings;
pub mod plot;
pub mod ratings;
pub mod records;
pub mod runner;
pub mod sprt;
pub mod tally;
pub mod tournament;

pub use elo::{elo_to_score, score_to_elo, EloInterval, Pentanomial, Trinomial};
pub use executor::Executor;
pub use logistic::sigmoid;
pub use model::{RatedGame, RatedResult, RatingModel};
pub use openings::{Opening, OpeningSource, OpeningStream};
pub use ratings::{rate, Anchor, Bootstrap, Covariance, FitConfig, RatingError, RatingReport};
pub use records::{RecordWriter, TextRecord};
pub use runner::{
    paired_jobs, paired_jobs_lazy, play_game, play_games, play_games_until, GameJob, GameRunError, PlayerSource,
};
pub use sprt::{Decision, Sprt, SprtConfig, SprtData, SprtError, SprtStatus};
pub use tally::MatchTally;
