//! From imbalance-match scores to piece values in pawns (H. G. Muller's method).
//!
//! Model: the expected score of side A in a match where A's material minus B's is `Δ` pawns is
//! `s = σ(β·Δ)` with `σ` the logistic function; `β` (logit units per pawn) depends on the engine and
//! the game, and is measured by the pawn-odds calibration matches. So for each imbalance `i`:
//!
//! 1. `s_i` = A's mean score over its complete colour-swapped pairs (`n_i` pairs), with standard
//!    error `se(s_i) = sd(pair means) / √n_i` (pair-level variance, as the pentanomial model in
//!    [`crate::eval::elo`]; floored at `1/(4 n_i)`, half a game in `2 n_i`, so a run of identical
//!    pairs does not claim certainty). `s_i` is clamped to `[1/(4 n_i), 1 − 1/(4 n_i)]`.
//! 2. `L_i = ln(s_i / (1 − s_i))`, `se(L_i) = se(s_i) / (s_i (1 − s_i))` (delta method).
//! 3. Calibration (A lacks `k` pawns, `Δ = −k`): weighted least squares through the origin,
//!    `β = Σ w Δ L / Σ w Δ²`, `w = 1 / se(L)²`, `se(β)² = 1 / Σ w Δ²`.
//! 4. A piece `X` measured by an imbalance where A lacks `X` plus `a` pawns and B lacks `b` pawns:
//!    `Δ = b − a − v_X`, so `v_X = (b − a) − L / β`, with
//!    `se(v_X)² = se(L)² / β² + L² se(β)² / β⁴` (delta method, the two matches independent).
//!    An exchange (A lacks `X`, B lacks `Y`) gives `v_X − v_Y = −L / β` the same way.
//! 5. Bootstrap by pair: every imbalance's pairs are resampled with replacement (seeded ChaCha8),
//!    steps 1–4 redone; the 2.5% and 97.5% percentiles give the 95% interval. Replicates where the
//!    calibration shows no pawn advantage (`β ≤ 0`) give no value and are counted.

use super::setups::Imbalance;
use crate::eval::elo::z95;
use crate::rules::Kind;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A value in pawns with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    pub value: f64,
    /// Standard error (delta method; for the regression, the bootstrap standard deviation).
    pub se: f64,
    /// Lower end of the 95% interval (bootstrap percentile when bootstrapped, else value − 1.96 se).
    pub lo95: f64,
    /// Upper end of the 95% interval.
    pub hi95: f64,
}

impl Estimate {
    /// An estimate with the normal interval `value ± 1.96 se`.
    pub fn normal(value: f64, se: f64) -> Estimate {
        Estimate { value, se, lo95: value - z95() * se, hi95: value + z95() * se }
    }

    /// Whether `x` lies in the 95% interval.
    pub fn covers(&self, x: f64) -> bool {
        self.lo95 <= x && x <= self.hi95
    }
}

/// A's results in one imbalance: its score in each game of each complete pair.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResults {
    /// The imbalance.
    pub imbalance: Imbalance,
    /// Per pair: A's score with white, A's score with black (each 0, ½ or 1).
    pub pairs: Vec<(f64, f64)>,
}

/// The score and logit of one imbalance (steps 1–2 of the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogitStat {
    /// Imbalance text.
    pub imbalance: String,
    /// Complete pairs.
    pub pairs: usize,
    /// A's mean score (clamped).
    pub score: f64,
    /// Its standard error.
    pub score_se: f64,
    /// `ln(s / (1 − s))`.
    pub logit: f64,
    /// Its standard error.
    pub logit_se: f64,
}

/// Steps 1–2 for one list of pairs; `None` for no pairs.
pub fn logit_stat(imbalance: &str, pairs: &[(f64, f64)]) -> Option<LogitStat> {
    let n = pairs.len();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let means: Vec<f64> = pairs.iter().map(|&(a, b)| (a + b) / 2.0).collect();
    let mean = means.iter().sum::<f64>() / nf;
    let var = means.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / (nf - 1.0).max(1.0);
    let eps = 0.25 / nf;
    let s = mean.clamp(eps, 1.0 - eps);
    let se = (var / nf).sqrt().max(eps);
    let logit = (s / (1.0 - s)).ln();
    Some(LogitStat {
        imbalance: imbalance.to_string(),
        pairs: n,
        score: s,
        score_se: se,
        logit,
        logit_se: se / (s * (1.0 - s)),
    })
}

/// A measured piece value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceValue {
    /// The piece.
    #[serde(serialize_with = "super::ser_kind")]
    pub kind: Kind,
    /// The imbalance that measured it.
    pub imbalance: String,
    /// Value in pawns: delta-method standard error, bootstrap (or normal) interval.
    pub estimate: Estimate,
    /// Games behind it (its own match; the calibration games are counted separately).
    pub games: usize,
}

/// A measured difference `v_X − v_Y` from an exchange imbalance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The imbalance (`X/Y`).
    pub imbalance: String,
    /// `v_X − v_Y` in pawns.
    pub estimate: Estimate,
    /// Games behind it.
    pub games: usize,
}

/// Everything the imbalance method measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImbalanceReport {
    /// Logit units per pawn (step 3).
    pub beta: f64,
    /// Its standard error.
    pub beta_se: f64,
    /// Per imbalance: score and logit.
    pub stats: Vec<LogitStat>,
    /// Piece values.
    pub values: Vec<PieceValue>,
    /// Exchange differences.
    pub exchanges: Vec<Exchange>,
    /// Games in the calibration matches.
    pub calibration_games: usize,
    /// Bootstrap replicates drawn (0: intervals are the normal ones from the delta method).
    pub bootstrap: usize,
    /// Replicates that gave no value (calibration without a pawn advantage).
    pub bootstrap_failed: usize,
}

/// Why no values could be derived.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImbalanceFitError {
    /// No pawn-odds match has a complete pair.
    #[error("no pawn-odds calibration games: the pawn's logit scale is unknown")]
    NoCalibration,
    /// The calibration shows no advantage for the side with the extra pawn.
    #[error("the pawn-odds matches show no advantage for the side with the extra pawn (beta = {0:.3}); play more pairs or a stronger engine")]
    NoPawnAdvantage(String),
}

/// Point estimates only (steps 1–4): β and per-imbalance `(value or difference, delta se)`.
fn point(results: &[PairResults]) -> Result<(f64, f64, Vec<Option<LogitStat>>), ImbalanceFitError> {
    let stats: Vec<Option<LogitStat>> = results.iter().map(|r| logit_stat(&r.imbalance.text(), &r.pairs)).collect();
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (r, st) in results.iter().zip(&stats) {
        if let (true, Some(st)) = (r.imbalance.is_calibration(), st) {
            let d = r.imbalance.material_delta(|_| 1.0);
            let w = 1.0 / st.logit_se.max(1e-6).powi(2);
            sxy += w * d * st.logit;
            sxx += w * d * d;
        }
    }
    if sxx == 0.0 {
        return Err(ImbalanceFitError::NoCalibration);
    }
    let beta = sxy / sxx;
    if beta <= 0.0 {
        return Err(ImbalanceFitError::NoPawnAdvantage(format!("{beta}")));
    }
    Ok((beta, (1.0 / sxx).sqrt(), stats))
}

/// Value (or difference) and delta-method se of imbalance `r` given β.
fn derive(r: &Imbalance, st: &LogitStat, beta: f64, beta_se: f64) -> (f64, f64) {
    let offset = match r.measured_piece() {
        Some((_, k)) => k as f64,
        None => 0.0,
    };
    let v = offset - st.logit / beta;
    let se = ((st.logit_se / beta).powi(2) + (st.logit * beta_se / (beta * beta)).powi(2)).sqrt();
    (v, se)
}

/// Steps 1–5 of the module docs. `bootstrap` replicates (0 for delta-method intervals only),
/// seeded by `seed`.
pub fn estimate(results: &[PairResults], bootstrap: usize, seed: u64) -> Result<ImbalanceReport, ImbalanceFitError> {
    let (beta, beta_se, stats) = point(results)?;
    // Bootstrap: resample pairs within each imbalance.
    let mut reps: Vec<Vec<f64>> = vec![Vec::new(); results.len()];
    let mut failed = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..bootstrap {
        let resampled: Vec<PairResults> = results
            .iter()
            .map(|r| PairResults {
                imbalance: r.imbalance.clone(),
                pairs: (0..r.pairs.len()).map(|_| r.pairs[rng.gen_range(0..r.pairs.len())]).collect(),
            })
            .collect();
        match point(&resampled) {
            Ok((b, bse, st)) => {
                for (i, (r, s)) in resampled.iter().zip(&st).enumerate() {
                    if let Some(s) = s {
                        reps[i].push(derive(&r.imbalance, s, b, bse).0);
                    }
                }
            }
            Err(_) => failed += 1,
        }
    }
    let mut report = ImbalanceReport {
        beta,
        beta_se,
        stats: stats.iter().flatten().cloned().collect(),
        values: Vec::new(),
        exchanges: Vec::new(),
        calibration_games: 0,
        bootstrap,
        bootstrap_failed: failed,
    };
    for (i, (r, st)) in results.iter().zip(&stats).enumerate() {
        let Some(st) = st else { continue };
        let games = 2 * st.pairs;
        if r.imbalance.is_calibration() {
            report.calibration_games += games;
            continue;
        }
        let (v, se) = derive(&r.imbalance, st, beta, beta_se);
        let mut est = Estimate::normal(v, se);
        if reps[i].len() >= 20 {
            let (lo, hi) = percentile_interval(&mut reps[i]);
            est.lo95 = lo;
            est.hi95 = hi;
        }
        let text = r.imbalance.text();
        match r.imbalance.measured_piece() {
            Some((kind, _)) => report.values.push(PieceValue { kind, imbalance: text, estimate: est, games }),
            None => report.exchanges.push(Exchange { imbalance: text, estimate: est, games }),
        }
    }
    Ok(report)
}

/// The 2.5% and 97.5% percentiles (sorts `xs`; linear interpolation between order statistics).
pub fn percentile_interval(xs: &mut [f64]) -> (f64, f64) {
    xs.sort_by(|a, b| a.total_cmp(b));
    (quantile(xs, 0.025), quantile(xs, 0.975))
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos - pos.floor());
    let j = (i + 1).min(sorted.len() - 1);
    sorted[i] * (1.0 - frac) + sorted[j] * frac
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::Ruleset;
    use crate::values::setups::default_imbalances;

    /// One game score drawn from a mean: draws take up to 30% of the games.
    pub(crate) fn draw_score(mean: f64, rng: &mut ChaCha8Rng) -> f64 {
        let d = 0.3f64.min(2.0 * mean.min(1.0 - mean));
        let win = mean - d / 2.0;
        let u: f64 = rng.gen();
        if u < win {
            1.0
        } else if u < win + d {
            0.5
        } else {
            0.0
        }
    }

    /// Aikin's Five Up values in pawns.
    /// Jim Aikin's guessed Five Up values, the truth of the simulations (fixed here: the engine's
    /// defaults are measured values now).
    pub(crate) fn aikin(k: Kind) -> f64 {
        match k {
            Kind::Pawn => 1.0,
            Kind::Unicorn => 3.0,
            Kind::Knight | Kind::Bishop => 4.0,
            Kind::Rook | Kind::Silver => 5.0,
            Kind::Wizard | Kind::Guard => 6.0,
            Kind::Queen => 9.0,
            _ => 0.0,
        }
    }

    fn simulate(imbs: &[Imbalance], pairs: usize, beta: f64, tempo: f64, seed: u64) -> Vec<PairResults> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        imbs.iter()
            .map(|imb| {
                let d = imb.material_delta(aikin);
                let pairs = (0..pairs)
                    .map(|_| {
                        // A shares a per-pair opening effect between its two games.
                        let opening: f64 = rng.gen_range(-0.3..0.3);
                        let w = draw_score(sigmoid(beta * d + tempo + opening), &mut rng);
                        let b = draw_score(sigmoid(beta * d - tempo + opening), &mut rng);
                        (w, b)
                    })
                    .collect();
                PairResults { imbalance: imb.clone(), pairs }
            })
            .collect()
    }

    #[test]
    fn synthetic_matches_recover_the_values_within_their_intervals() {
        let mut imbs = default_imbalances(Ruleset::FiveUp);
        imbs.push(Imbalance::exchange(Kind::Silver, Kind::Rook));
        imbs.push(Imbalance::parse("Q/PPPP", Ruleset::FiveUp).unwrap());
        let results = simulate(&imbs, 3000, 0.35, 0.1, 11);
        let r = estimate(&results, 300, 5).unwrap();
        assert!((r.beta - 0.35).abs() < 3.0 * r.beta_se + 0.01, "beta {} ± {}", r.beta, r.beta_se);
        let mut inside = 0;
        for v in &r.values {
            let truth = aikin(v.kind);
            let e = v.estimate;
            assert!((e.value - truth).abs() < 3.5 * e.se, "{:?}: {e:?} vs {truth}", v.kind);
            assert!(e.lo95 < e.value && e.value < e.hi95);
            inside += usize::from(e.covers(truth));
        }
        assert_eq!(r.values.len(), 9);
        assert!(inside >= 8, "only {inside} of 9 intervals cover the truth: {:?}", r.values);
        let ex = &r.exchanges[0];
        assert!(ex.estimate.covers(0.0) || (ex.estimate.value).abs() < 3.0 * ex.estimate.se, "{ex:?}");
        assert_eq!(r.calibration_games, 2 * 2 * 3000);
    }

    #[test]
    fn interval_coverage_is_near_95_percent() {
        // 40 independent small experiments: the rook's interval should cover 5 in most of them.
        let imbs = vec![Imbalance::pawns(1), Imbalance::pawns(2), Imbalance::piece(Kind::Rook)];
        let mut covered = 0;
        for seed in 0..40 {
            let r = estimate(&simulate(&imbs, 400, 0.4, 0.05, 100 + seed), 200, seed).unwrap();
            covered += usize::from(r.values[0].estimate.covers(5.0));
        }
        assert!((33..=40).contains(&covered), "coverage {covered}/40");
    }

    #[test]
    fn degenerate_inputs_are_errors_not_panics() {
        let none = vec![PairResults { imbalance: Imbalance::piece(Kind::Queen), pairs: vec![(0.0, 0.0)] }];
        assert_eq!(estimate(&none, 10, 0).unwrap_err(), ImbalanceFitError::NoCalibration);
        let flat = vec![
            PairResults { imbalance: Imbalance::pawns(1), pairs: vec![(1.0, 1.0), (0.5, 1.0)] },
            PairResults { imbalance: Imbalance::piece(Kind::Queen), pairs: vec![(0.0, 0.0)] },
        ];
        assert!(matches!(estimate(&flat, 10, 0), Err(ImbalanceFitError::NoPawnAdvantage(_))));
        let one = vec![
            PairResults { imbalance: Imbalance::pawns(1), pairs: vec![(0.0, 0.5)] },
            PairResults { imbalance: Imbalance::piece(Kind::Queen), pairs: vec![(0.0, 0.0)] },
        ];
        let r = estimate(&one, 50, 0).unwrap();
        assert!(r.values[0].estimate.value.is_finite());
    }
}
