//! Sequential probability ratio test (SPRT) for "is the tested player stronger?".
//!
//! Hypotheses are given in **logistic Elo** (`elo0 < elo1`, as cutechess-cli's `elo0`/`elo1` and
//! fishtest's "logistic" bounds; not normalized Elo): H0 says the tested player's true Elo
//! difference is `elo0`, H1 says `elo1`. The statistic is the generalized log-likelihood ratio
//! (GSPRT) of fishtest's `LLR_logistic`: the outcome distribution is left free (trinomial W/D/L
//! per game, or pentanomial pair scores 0..2 per colour-swapped pair) and
//!
//! ```text
//! LLR = N · Σ_k p̂_k · ln( p*_k(s1) / p*_k(s0) )
//! ```
//!
//! where `p̂` is the observed frequency, `s_i = 1 / (1 + 10^(−elo_i/400))` the expected score under
//! H_i, and `p*(s)` the maximum-likelihood distribution with mean score `s`:
//! `p*_k = p̂_k / (1 + λ (x_k − s))` with `λ` solving `Σ p̂_k (x_k − s) / (1 + λ (x_k − s)) = 0`.
//! As in fishtest, `1e-3` is added to every count so that the constrained MLE always exists.
//!
//! The test continues while `ln(β/(1−α)) < LLR < ln((1−β)/α)`, accepts H1 above and H0 below.
//! Pentanomial data should be preferred for paired schedules: the pair correlation makes the
//! trinomial LLR overconfident (or wasteful) there.

use super::elo::{elo_to_score, EloInterval, Pentanomial, Trinomial};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Pseudo-count added to every outcome, as fishtest does.
const REGULARISATION: f64 = 1e-3;

/// Which counts the LLR is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtData {
    /// Single games (W/D/L); pairs count as two games.
    Trinomial,
    /// Colour-swapped pairs only; single games fed with [`Sprt::add_game`] are ignored.
    Pentanomial,
}

/// Settings of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo difference under H0 (logistic Elo).
    pub elo0: f64,
    /// Elo difference under H1 (logistic Elo), greater than `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The counts the LLR uses.
    pub data: SprtData,
}

impl Default for SprtConfig {
    /// `elo0 = 0`, `elo1 = 10`, `α = β = 0.05`, pentanomial.
    fn default() -> Self {
        Self::new(0.0, 10.0)
    }
}

impl SprtConfig {
    /// `[elo0, elo1]` with `α = β = 0.05` on pentanomial data.
    pub fn new(elo0: f64, elo1: f64) -> Self {
        Self { elo0, elo1, alpha: 0.05, beta: 0.05, data: SprtData::Pentanomial }
    }

    /// Lower bound `ln(β / (1 − α))`: at or below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound `ln((1 − β) / α)`: at or above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// Largest |Elo| an SPRT hypothesis may name: 1000 Elo is a 99.7% expected score, beyond which
/// the test says nothing a match would not.
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// Smallest error rate (α or β) accepted: smaller ones ask for unbounded numbers of games.
pub const MIN_SPRT_ERROR: f64 = 1e-6;

/// Why an SPRT configuration is rejected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// The Elo bounds are not within ±[`MAX_SPRT_ELO`] with `elo0 < elo1`.
    #[error("need -{MAX_SPRT_ELO} <= elo0 < elo1 <= {MAX_SPRT_ELO}, got elo0 {0}, elo1 {1}")]
    EloBounds(f64, f64),
    /// An error rate is outside [[`MIN_SPRT_ERROR`], 0.5].
    #[error("need alpha and beta in [{MIN_SPRT_ERROR}, 0.5], got alpha {0}, beta {1}")]
    ErrorRates(f64, f64),
}

/// The verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// Neither bound reached: play on.
    Continue,
    /// LLR at or below the lower bound: accept H0 (elo0).
    AcceptH0,
    /// LLR at or above the upper bound: accept H1 (elo1).
    AcceptH1,
}

/// A snapshot of the test, for logs and JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// The settings.
    pub config: SprtConfig,
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// The verdict.
    pub decision: Decision,
    /// All game results, from the tested player's side.
    pub trinomial: Trinomial,
    /// Pair results, from the tested player's side.
    pub pentanomial: Pentanomial,
    /// Elo estimate from the counts the test uses.
    pub elo: Option<EloInterval>,
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT [{}, {}] ({:?}): LLR {:.2} [{:.2}, {:.2}] {:?}; games {}",
            self.config.elo0,
            self.config.elo1,
            self.config.data,
            self.llr,
            self.lower,
            self.upper,
            self.decision,
            self.trinomial
        )?;
        if self.pentanomial.pairs() > 0 {
            write!(f, ", pairs {}", self.pentanomial)?;
        }
        if let Some(e) = self.elo {
            write!(f, "; {e}")?;
        }
        Ok(())
    }
}

/// A running SPRT: feed results, read the LLR and decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Sprt {
    config: SprtConfig,
    trinomial: Trinomial,
    pentanomial: Pentanomial,
}

impl Sprt {
    /// A test with no results yet.
    pub fn new(config: SprtConfig) -> Result<Self, SprtError> {
        let (e0, e1) = (config.elo0, config.elo1);
        let elo = -MAX_SPRT_ELO..=MAX_SPRT_ELO;
        if !(elo.contains(&e0) && elo.contains(&e1) && e0 < e1) {
            return Err(SprtError::EloBounds(e0, e1));
        }
        let (a, b) = (config.alpha, config.beta);
        let rate = MIN_SPRT_ERROR..=0.5;
        if !(rate.contains(&a) && rate.contains(&b)) {
            return Err(SprtError::ErrorRates(a, b));
        }
        Ok(Self { config, trinomial: Trinomial::default(), pentanomial: Pentanomial::default() })
    }

    /// A test of results already counted (games, and the pairs among them), e.g. pooled from
    /// the records of several matches.
    pub fn with_counts(config: SprtConfig, trinomial: Trinomial, pentanomial: Pentanomial) -> Result<Self, SprtError> {
        Ok(Self { trinomial, pentanomial, ..Self::new(config)? })
    }

    /// The settings.
    pub fn config(&self) -> &SprtConfig {
        &self.config
    }

    /// Records one game; `score` is the tested player's score (0, ½ or 1; rounded to the nearest).
    pub fn add_game(&mut self, score: f64) {
        let t = &mut self.trinomial;
        match (score * 2.0).round() as i64 {
            i64::MIN..=0 => t.losses += 1,
            1 => t.draws += 1,
            _ => t.wins += 1,
        }
    }

    /// Records a colour-swapped pair: the tested player's score in each of its two games.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        self.add_game(first);
        self.add_game(second);
        self.pentanomial.add_pair(first, second);
    }

    /// Game counts so far (pairs included).
    pub fn trinomial(&self) -> Trinomial {
        self.trinomial
    }

    /// Pair counts so far.
    pub fn pentanomial(&self) -> Pentanomial {
        self.pentanomial
    }

    /// The log-likelihood ratio of H1 against H0 on the configured data.
    pub fn llr(&self) -> f64 {
        let (s0, s1) = (elo_to_score(self.config.elo0), elo_to_score(self.config.elo1));
        match self.config.data {
            SprtData::Trinomial => gsprt_llr(&self.trinomial.outcomes(), s0, s1),
            SprtData::Pentanomial => gsprt_llr(&self.pentanomial.outcomes(), s0, s1),
        }
    }

    /// The verdict for the current LLR.
    pub fn decision(&self) -> Decision {
        let llr = self.llr();
        if llr >= self.config.upper_bound() {
            Decision::AcceptH1
        } else if llr <= self.config.lower_bound() {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    /// LLR, bounds, decision and counts.
    pub fn status(&self) -> SprtStatus {
        let llr = self.llr();
        SprtStatus {
            config: self.config,
            llr,
            lower: self.config.lower_bound(),
            upper: self.config.upper_bound(),
            decision: self.decision(),
            trinomial: self.trinomial,
            pentanomial: self.pentanomial,
            elo: match self.config.data {
                SprtData::Trinomial => self.trinomial.elo_interval(),
                SprtData::Pentanomial => self.pentanomial.elo_interval(),
            },
        }
    }
}

/// Generalized LLR of mean score `s1` against `s0` for outcomes `(score, count)`; 0 without data.
pub fn gsprt_llr(outcomes: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let n: f64 = outcomes.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return 0.0;
    }
    let regularised: Vec<(f64, f64)> = outcomes.iter().map(|&(x, c)| (x, c + REGULARISATION)).collect();
    let total: f64 = regularised.iter().map(|&(_, c)| c).sum();
    let pdf: Vec<(f64, f64)> = regularised.iter().map(|&(x, c)| (x, c / total)).collect();
    let (l0, l1) = (lagrange_multiplier(&pdf, s0), lagrange_multiplier(&pdf, s1));
    // ln(p*_k(s1) / p*_k(s0)) = ln(1 + λ0 (x − s0)) − ln(1 + λ1 (x − s1)).
    let per_unit: f64 = pdf.iter().map(|&(x, p)| p * ((l0 * (x - s0)).ln_1p() - (l1 * (x - s1)).ln_1p())).sum();
    total * per_unit
}

/// The `λ` of the maximum-likelihood distribution with mean `s` (safeguarded Newton on the
/// decreasing function `f(λ) = Σ p (x − s) / (1 + λ (x − s))`).
fn lagrange_multiplier(pdf: &[(f64, f64)], s: f64) -> f64 {
    let x_min = pdf.iter().map(|&(x, _)| x).fold(f64::INFINITY, f64::min);
    let x_max = pdf.iter().map(|&(x, _)| x).fold(f64::NEG_INFINITY, f64::max);
    if !(x_min < s && s < x_max) {
        return 0.0;
    }
    // Feasible λ keep every 1 + λ (x − s) positive.
    let (mut lo, mut hi) = (-1.0 / (x_max - s), 1.0 / (s - x_min));
    let mut lambda = 0.0;
    for _ in 0..200 {
        let (mut f, mut df) = (0.0, 0.0);
        for &(x, p) in pdf {
            let d = x - s;
            let q = 1.0 + lambda * d;
            f += p * d / q;
            df -= p * d * d / (q * q);
        }
        if f.abs() < 1e-15 {
            break;
        }
        if f > 0.0 {
            lo = lambda;
        } else {
            hi = lambda;
        }
        let newton = lambda - f / df;
        lambda = if newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        if hi - lo < 1e-15 {
            break;
        }
    }
    lambda
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// One game score with mean `mu` and draw rate `draw` (capped so the probabilities are valid).
    fn game(rng: &mut ChaCha8Rng, mu: f64, draw: f64) -> f64 {
        let draw = draw.min(2.0 * mu.min(1.0 - mu));
        let u: f64 = rng.gen();
        if u < mu - draw / 2.0 {
            1.0
        } else if u < mu + draw / 2.0 {
            0.5
        } else {
            0.0
        }
    }

    /// A correlated pair with per-game mean `mu`: 30% of pairs are decided by the opening (each
    /// side wins with the favoured colour, pair score 1), the rest are two independent games.
    fn pair(rng: &mut ChaCha8Rng, mu: f64) -> (f64, f64) {
        const Q: f64 = 0.3;
        if rng.gen::<f64>() < Q {
            (1.0, 0.0)
        } else {
            let m = (mu - Q / 2.0) / (1.0 - Q);
            (game(rng, m, 0.4), game(rng, m, 0.4))
        }
    }

    /// Runs one SPRT to a decision with games of true Elo `elo`.
    fn run(config: SprtConfig, elo: f64, rng: &mut ChaCha8Rng) -> Decision {
        let mut sprt = Sprt::new(config).unwrap();
        let mu = elo_to_score(elo);
        for _ in 0..200_000 {
            match config.data {
                SprtData::Trinomial => sprt.add_game(game(rng, mu, 0.4)),
                SprtData::Pentanomial => {
                    let (a, b) = pair(rng, mu);
                    sprt.add_pair(a, b);
                }
            }
            let d = sprt.decision();
            if d != Decision::Continue {
                return d;
            }
        }
        Decision::Continue
    }

    fn error_rates(data: SprtData, seed: u64) -> (usize, usize) {
        let config = SprtConfig { data, ..SprtConfig::new(0.0, 20.0) };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let runs = 200;
        let false_h1 = (0..runs).filter(|_| run(config, config.elo0, &mut rng) != Decision::AcceptH0).count();
        let false_h0 = (0..runs).filter(|_| run(config, config.elo1, &mut rng) != Decision::AcceptH1).count();
        (false_h1, false_h0)
    }

    #[test]
    fn trinomial_error_rates_are_near_nominal() {
        let (false_h1, false_h0) = error_rates(SprtData::Trinomial, 1);
        assert!(false_h1 <= 16 && false_h0 <= 16, "{false_h1} {false_h0} of 200");
    }

    #[test]
    fn pentanomial_error_rates_are_near_nominal() {
        let (false_h1, false_h0) = error_rates(SprtData::Pentanomial, 2);
        assert!(false_h1 <= 16 && false_h0 <= 16, "{false_h1} {false_h0} of 200");
    }

    #[test]
    fn bounds_and_decisions() {
        let config = SprtConfig::new(0.0, 5.0);
        assert!((config.lower_bound() - (0.05f64 / 0.95).ln()).abs() < 1e-15);
        assert!((config.upper_bound() - 19f64.ln()).abs() < 1e-12);
        let mut sprt = Sprt::new(config).unwrap();
        assert_eq!(sprt.llr(), 0.0);
        assert_eq!(sprt.decision(), Decision::Continue);
        for _ in 0..2000 {
            sprt.add_pair(1.0, 0.5);
        }
        assert_eq!(sprt.decision(), Decision::AcceptH1);
        assert_eq!(sprt.trinomial(), Trinomial::new(2000, 2000, 0));
        let status = sprt.status();
        assert!(status.to_string().contains("AcceptH1"));
        assert!(status.elo.unwrap().elo > 100.0);
    }

    #[test]
    fn llr_matches_the_normal_approximation_for_small_differences() {
        // LLR ≈ N (s1 − s0)(2μ − s0 − s1) / (2σ²) when the bounds are close.
        let t = Trinomial::new(3300, 4000, 2700);
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(5.0));
        let exact = gsprt_llr(&t.outcomes(), s0, s1);
        let n = t.games() as f64;
        let mu = t.points() / n;
        let var = (t.wins as f64 + 0.25 * t.draws as f64) / n - mu * mu;
        let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
        assert!(exact > 0.0);
        assert!((exact - approx).abs() < 0.02 * approx, "{exact} vs {approx}");
    }

    #[test]
    fn degenerate_streams_stay_finite() {
        for data in [SprtData::Trinomial, SprtData::Pentanomial] {
            let config = SprtConfig { data, ..SprtConfig::new(-3.0, 7.0) };
            for score in [0.0, 0.5, 1.0] {
                let mut sprt = Sprt::new(config).unwrap();
                sprt.add_pair(score, score);
                assert!(sprt.llr().is_finite());
                for _ in 0..5000 {
                    sprt.add_pair(score, score);
                }
                let status = sprt.status();
                assert!(status.llr.is_finite(), "{status}");
                // All draws: score ½ is Elo 0, nearer to elo0 = -3 than to elo1 = 7.
                let expected = match score {
                    1.0 => Decision::AcceptH1,
                    _ => Decision::AcceptH0,
                };
                assert_eq!(status.decision, expected);
            }
        }
    }

    #[test]
    fn invalid_configs_are_rejected() {
        assert!(Sprt::new(SprtConfig::new(5.0, 5.0)).is_err());
        assert!(Sprt::new(SprtConfig::new(f64::NAN, 5.0)).is_err());
        let mut c = SprtConfig::new(0.0, 5.0);
        c.alpha = 0.0;
        assert!(Sprt::new(c).is_err());
        c.alpha = 0.6;
        c.beta = 0.5;
        assert!(Sprt::new(c).is_err());
        c.alpha = 1e-9;
        c.beta = 0.05;
        assert_eq!(Sprt::new(c).unwrap_err(), SprtError::ErrorRates(1e-9, 0.05));
        let e = Sprt::new(SprtConfig::new(0.0, 1e9)).unwrap_err();
        assert_eq!(e.to_string(), "need -1000 <= elo0 < elo1 <= 1000, got elo0 0, elo1 1000000000");
        assert!(Sprt::new(SprtConfig::new(-1000.0, 1000.0)).is_ok());
    }
}
