//! From imbalance-match scores to piece values in pawns (H. G. Muller's method).
//!
//! Model: the expected score of side A in a match where A's material minus B's is `Δ` pawns is
//! `s = σ(β·Δ)` with `σ` the logistic function; `β` (logit units per pawn) depends on the engine and
//! the game. Writing `θ_k = β·v_k` (the logit a piece of kind `k` is worth; `θ_pawn = β`), the
//! logit of every match is *linear* in the θ: a match where A lacks the kinds `a` and B the kinds
//! `b` has `L = Σ_b θ − Σ_a θ`. So:
//!
//! 1. `s_i` = A's mean score over its complete colour-swapped pairs (`n_i` pairs), with standard
//!    error `se(s_i) = sd(pair means) / √n_i` (pair-level variance, as the pentanomial model in
//!    [`crate::eval::elo`]; floored at `1/(4 n_i)`, half a game in `2 n_i`, so a run of identical
//!    pairs does not claim certainty). `s_i` is clamped to `[1/(4 n_i), 1 − 1/(4 n_i)]`.
//! 2. `L_i = ln(s_i / (1 − s_i))`, `se(L_i) = se(s_i) / (s_i (1 − s_i))` (delta method).
//! 3. **Joint fit.** Every pawn-odds match (A lacks `k` pawns), every match of one piece
//!    against pawns (A lacks `X` and maybe pawns, B lacks only pawns: `X`, `X/PPP`) and every
//!    match of one piece against pieces and pawns (`R/BPPPP`, `Q/RRPP`: the brackets of a piece
//!    worth more than the pawns a side has) enters one weighted least-squares fit of the θ, `w = 1 / se(L)²`: `θ = (XᵀWX)⁻¹ XᵀWL`,
//!    `Cov(θ) = (XᵀWX)⁻¹` ([`NormalEquations::least_squares`]), and `χ²` of the residuals as a
//!    check of the model. `β = θ_pawn`.
//!    The pawn's scale comes from the calibration matches *and* from any piece measured against
//!    two different pawn counts (`N/PPP` and `N/PPPP` differ by exactly one pawn).
//! 4. `v_X = θ_X / β`, `se(v_X)² = (C_XX − 2 v C_Xβ + v² C_ββ) / β²` (delta method with the fit's
//!    covariance). With one match per piece this is the classic `v_X = (b − a) − L / β`. Why
//!    matches near 50% are worth designing for (`X/PPP` rather than `X`): there `L ≈ 0`, so the
//!    uncertainty of `β` (the weak part: a pawn moves the score by only a few percent) hardly
//!    reaches `v_X`, and a logit is most precise at 50%.
//!    A match of one piece against pieces and pawns measures `v_X` as the sum of the pieces and
//!    pawns it is matched with, so the values of those pieces (and their uncertainty) carry into
//!    it through the fit's covariance.
//!    An exchange of pieces alone (A lacks `X`, B lacks `Y` and no pawn) is kept out of the fit,
//!    as a check: it gives `v_X − v_Y = (b − a) − L / β` (`a`, `b` the pawns
//!    each side also lacks), `se² = se(L)²/β² + L² se(β)²/β⁴`. With several pieces on a side the
//!    values are summed: `Q/RBN` measures `v_Q − (v_R + v_B + v_N)`, a test of additivity.
//! 5. Bootstrap by pair: every imbalance's pairs are resampled with replacement (seeded ChaCha8),
//!    steps 1–4 redone; the 2.5% and 97.5% percentiles give the 95% interval. Replicates where the
//!    fit shows no pawn advantage (`β ≤ 0`) give no value and are counted.

use super::setups::Imbalance;
use crate::eval::elo::z95;
use crate::eval::logistic::NormalEquations;
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
    /// For a match of the joint fit: the value of the piece it measures that it alone implies,
    /// `(b − a) − L / β` with the joint fit's `β`, where a piece B lacks counts at its fitted
    /// value (`R/BNP`: bishop + knight + 1 − L/β). Brackets of one piece should agree; when they
    /// do not, the additive model does not hold for them.
    #[serde(default)]
    pub implied: Option<f64>,
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
        implied: None,
    })
}

/// A measured piece value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceValue {
    /// The piece.
    #[serde(serialize_with = "super::ser_kind")]
    pub kind: Kind,
    /// The imbalances that measured it (space-separated, e.g. `N/PPP N/PPPP`).
    pub imbalance: String,
    /// Value in pawns: delta-method standard error, bootstrap (or normal) interval.
    pub estimate: Estimate,
    /// Games behind it (its own matches; the calibration games are counted separately).
    pub games: usize,
    /// Complete pairs per match, in the order of `imbalance`.
    pub pairs: Vec<usize>,
}

/// A measured difference `v_X − v_Y` from an exchange imbalance (sums of values when a side
/// lacks several pieces).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The imbalance (`X/Y`).
    pub imbalance: String,
    /// `v_X − v_Y` in pawns: A's missing pieces minus B's, pawns excluded (they are the unit:
    /// `(b − a) − L / β`).
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
    /// Its 95% bootstrap interval (the normal one without a bootstrap).
    pub beta_lo95: f64,
    /// Upper end.
    pub beta_hi95: f64,
    /// `χ²` of the joint fit's residuals (weighted), a check of the model.
    pub chi2: f64,
    /// Its degrees of freedom (fitted matches − parameters).
    pub dof: usize,
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
    /// No pawn-odds match has a complete pair (nor is a piece measured against two pawn counts),
    /// or some piece's value is not determined by the matches.
    #[error("no pawn-odds calibration games (nor a piece measured against two pawn counts): the pawn's logit scale is unknown")]
    NoCalibration,
    /// The calibration shows no advantage for the side with the extra pawn.
    #[error("the pawn-odds matches show no advantage for the side with the extra pawn (beta = {0:.3}); play more pairs or a stronger engine")]
    NoPawnAdvantage(String),
}

/// Whether an imbalance enters the joint fit (step 3): pawn odds, one piece against pawns, or
/// one piece against pieces and pawns.
fn in_fit(imb: &Imbalance) -> bool {
    imb.is_calibration() || imb.measures().is_some()
}

/// The point estimates of steps 1–4.
struct Fit {
    beta: f64,
    beta_se: f64,
    /// Measured kinds with (value, delta-method se), in order of first appearance.
    values: Vec<(Kind, f64, f64)>,
    chi2: f64,
    dof: usize,
    /// Per imbalance (as given): its logit statistics, `None` without a complete pair.
    stats: Vec<Option<LogitStat>>,
}

/// Steps 1–4 on one set of results.
fn point(results: &[PairResults]) -> Result<Fit, ImbalanceFitError> {
    let mut stats: Vec<Option<LogitStat>> = results.iter().map(|r| logit_stat(&r.imbalance.text(), &r.pairs)).collect();
    // Parameters: the pawn first, then every non-pawn kind of a fitted match.
    let mut kinds = vec![Kind::Pawn];
    let rows: Vec<usize> =
        (0..results.len()).filter(|&i| stats[i].is_some() && in_fit(&results[i].imbalance)).collect();
    for &i in &rows {
        for &k in results[i].imbalance.a_lacks.iter().chain(&results[i].imbalance.b_lacks) {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
    }
    let p = kinds.len();
    let mut equations = NormalEquations::new(p, 0.0);
    let mut xs = Vec::with_capacity(rows.len());
    for &i in &rows {
        let imb = &results[i].imbalance;
        let st = stats[i].as_ref().expect("rows have stats");
        let x: Vec<f64> = kinds.iter().map(|&k| imb.material_delta(|x| f64::from(u8::from(x == k)))).collect();
        let w = 1.0 / st.logit_se.max(1e-6).powi(2);
        equations.add(&x, w, w * st.logit);
        xs.push((x, w, st.logit));
    }
    // Every parameter must be determined: a positive pivot well above rounding noise.
    let (theta, cov) = equations.least_squares().ok_or(ImbalanceFitError::NoCalibration)?;
    let beta = theta[0];
    if beta.is_nan() || beta <= 0.0 {
        return Err(ImbalanceFitError::NoPawnAdvantage(format!("{beta}")));
    }
    let chi2 = xs
        .iter()
        .map(|(x, w, l)| {
            let fitted: f64 = x.iter().zip(theta.iter()).map(|(x, t)| x * t).sum();
            w * (l - fitted).powi(2)
        })
        .sum();
    let values: Vec<(Kind, f64, f64)> = (1..p)
        .map(|j| {
            let v = theta[j] / beta;
            let var = (cov[(j, j)] - 2.0 * v * cov[(j, 0)] + v * v * cov[(0, 0)]) / (beta * beta);
            (kinds[j], v, var.max(0.0).sqrt())
        })
        .collect();
    let fitted = |k: Kind| values.iter().find(|v| v.0 == k).map(|v| v.1);
    for (r, st) in results.iter().zip(stats.iter_mut()) {
        if let (Some(st), Some(at)) = (st.as_mut(), r.imbalance.bracket_in_pawns(fitted)) {
            st.implied = Some(at - st.logit / beta);
        }
    }
    Ok(Fit { beta, beta_se: cov[(0, 0)].max(0.0).sqrt(), values, chi2, dof: rows.len().saturating_sub(p), stats })
}

/// A check's value difference (A's missing pieces minus B's, pawns as 1) and delta-method se
/// given β.
fn exchange_difference(imb: &Imbalance, st: &LogitStat, beta: f64, beta_se: f64) -> (f64, f64) {
    let v = imb.material_delta(|k| f64::from(u8::from(k == Kind::Pawn))) - st.logit / beta;
    let se = ((st.logit_se / beta).powi(2) + (st.logit * beta_se / (beta * beta)).powi(2)).sqrt();
    (v, se)
}

/// Steps 1–5 of the module docs. `bootstrap` replicates (0 for delta-method intervals only),
/// seeded by `seed`.
pub fn estimate(results: &[PairResults], bootstrap: usize, seed: u64) -> Result<ImbalanceReport, ImbalanceFitError> {
    let fit = point(results)?;
    // Bootstrap: resample pairs within each imbalance.
    let mut value_reps: Vec<Vec<f64>> = vec![Vec::new(); fit.values.len()];
    let mut exchange_reps: Vec<Vec<f64>> = vec![Vec::new(); results.len()];
    let mut beta_reps = Vec::new();
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
            Ok(f) => {
                beta_reps.push(f.beta);
                for (i, &(kind, _, _)) in fit.values.iter().enumerate() {
                    if let Some(&(_, v, _)) = f.values.iter().find(|x| x.0 == kind) {
                        value_reps[i].push(v);
                    }
                }
                for (i, (r, st)) in resampled.iter().zip(&f.stats).enumerate() {
                    if let (false, Some(st)) = (in_fit(&r.imbalance), st) {
                        exchange_reps[i].push(exchange_difference(&r.imbalance, st, f.beta, f.beta_se).0);
                    }
                }
            }
            Err(_) => failed += 1,
        }
    }
    let interval = |reps: &mut Vec<f64>, mut est: Estimate| {
        if reps.len() >= 20 {
            let (lo, hi) = percentile_interval(reps);
            est.lo95 = lo;
            est.hi95 = hi;
        }
        est
    };
    let beta_est = interval(&mut beta_reps, Estimate::normal(fit.beta, fit.beta_se));
    let mut report = ImbalanceReport {
        beta: fit.beta,
        beta_se: fit.beta_se,
        beta_lo95: beta_est.lo95,
        beta_hi95: beta_est.hi95,
        chi2: fit.chi2,
        dof: fit.dof,
        stats: fit.stats.iter().flatten().cloned().collect(),
        values: Vec::new(),
        exchanges: Vec::new(),
        calibration_games: 0,
        bootstrap,
        bootstrap_failed: failed,
    };
    for (r, st) in results.iter().zip(&fit.stats) {
        if let (true, Some(st)) = (r.imbalance.is_calibration(), st) {
            report.calibration_games += 2 * st.pairs;
        }
    }
    for (i, &(kind, v, se)) in fit.values.iter().enumerate() {
        let matches: Vec<&LogitStat> = results
            .iter()
            .zip(&fit.stats)
            .filter(|(r, _)| r.imbalance.measures() == Some(kind))
            .filter_map(|(_, st)| st.as_ref())
            .collect();
        report.values.push(PieceValue {
            kind,
            imbalance: matches.iter().map(|m| m.imbalance.as_str()).collect::<Vec<_>>().join(" "),
            estimate: interval(&mut value_reps[i], Estimate::normal(v, se)),
            games: matches.iter().map(|m| 2 * m.pairs).sum(),
            pairs: matches.iter().map(|m| m.pairs).collect(),
        });
    }
    for (i, (r, st)) in results.iter().zip(&fit.stats).enumerate() {
        if let (false, Some(st)) = (in_fit(&r.imbalance), st) {
            let (v, se) = exchange_difference(&r.imbalance, st, fit.beta, fit.beta_se);
            report.exchanges.push(Exchange {
                imbalance: st.imbalance.clone(),
                estimate: interval(&mut exchange_reps[i], Estimate::normal(v, se)),
                games: 2 * st.pairs,
            });
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::sigmoid;
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

    /// `got` equals `expected` to 1e-9 (relative to the larger of 1 and the expected value).
    pub(crate) fn assert_pinned(got: &[f64], expected: &[f64]) {
        assert_eq!(got.len(), expected.len(), "got {got:?}");
        for (i, (g, e)) in got.iter().zip(expected).enumerate() {
            let same = (g.is_nan() && e.is_nan()) || (g - e).abs() <= 1e-9 * e.abs().max(1.0);
            assert!(same, "figure {i}: {g:?} != {e:?}; all: {got:?}");
        }
    }

    /// Jim Aikin's guessed Five Up values, the truth of the simulations.
    pub(crate) fn aikin(k: Kind) -> f64 {
        crate::values::guess(Ruleset::FiveUp, k)
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
        let mut imbs = default_imbalances::<crate::rules::Position>(crate::rules::Variant::plain(Ruleset::FiveUp));
        imbs.push(Imbalance::exchange(Kind::Silver, Kind::Rook));
        // A queen (9) against rook, bishop and knight (13): a check of the sums, A 4 pawns better.
        imbs.push(Imbalance { a_lacks: vec![Kind::Queen], b_lacks: vec![Kind::Rook, Kind::Bishop, Kind::Knight] });
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
        // One match per piece (the classic design): the joint fit is the classic estimate.
        assert_eq!(r.values.len(), 8);
        let queen = r.values.iter().find(|v| v.kind == Kind::Queen).unwrap();
        assert_eq!((queen.imbalance.as_str(), queen.games, &queen.pairs[..]), ("Q", 2 * 3000, &[3000][..]));
        // 95% intervals: three or more misses of eight has probability 0.6%.
        assert!(inside >= 6, "only {inside} of 8 intervals cover the truth: {:?}", r.values);
        // Ten fitted matches (P, PP, eight pieces), nine parameters; the exchange is a check.
        assert_eq!(r.dof, 1);
        assert!(r.chi2 < 12.0, "chi2 {}", r.chi2);
        let ex = &r.exchanges[0];
        assert!(ex.estimate.covers(0.0) || (ex.estimate.value).abs() < 3.0 * ex.estimate.se, "{ex:?}");
        let sums = &r.exchanges[1];
        assert_eq!((sums.imbalance.as_str(), sums.games), ("Q/RBN", 6000));
        assert!((sums.estimate.value + 4.0).abs() < 3.5 * sums.estimate.se, "{sums:?}");
        assert_eq!(r.calibration_games, 2 * 2 * 3000);
    }

    /// A queen worth more than the pawns a side may give is bracketed by knight, bishop and pawns
    /// (`Q/NBP` is even at Aikin's values, `Q/NBPP` a pawn past it): those matches enter the fit,
    /// the queen comes out of them and the knight's and bishop's own brackets, and a bare
    /// exchange stays a check.
    #[test]
    fn a_piece_bracketed_by_pieces_and_pawns_is_measured_by_the_fit() {
        let q = Kind::Queen;
        let (n, b, p) = (Kind::Knight, Kind::Bishop, Kind::Pawn);
        let imbs = vec![
            Imbalance::pawns(1),
            Imbalance::pawns(2),
            Imbalance { a_lacks: vec![n], b_lacks: vec![p; 4] },
            Imbalance { a_lacks: vec![n], b_lacks: vec![p; 3] },
            Imbalance { a_lacks: vec![b], b_lacks: vec![p; 4] },
            Imbalance { a_lacks: vec![b], b_lacks: vec![p; 3] },
            Imbalance { a_lacks: vec![q], b_lacks: vec![n, b, p] },
            Imbalance { a_lacks: vec![q], b_lacks: vec![n, b, p, p] },
            Imbalance::exchange(n, b),
        ];
        assert_eq!(imbs[6].piece_bracket(), Some(q));
        assert_eq!(imbs[8].piece_bracket(), None);
        let results = simulate(&imbs, 4000, 0.35, 0.1, 17);
        let r = estimate(&results, 200, 3).unwrap();
        let queen = r.values.iter().find(|v| v.kind == q).expect("the queen is measured");
        assert_eq!((queen.imbalance.as_str(), queen.games), ("Q/NBP Q/NBPP", 2 * 2 * 4000));
        assert!((queen.estimate.value - aikin(q)).abs() < 3.5 * queen.estimate.se, "{queen:?}");
        // Its uncertainty includes the knight's and the bishop's.
        let knight = r.values.iter().find(|v| v.kind == n).unwrap();
        assert!(queen.estimate.se > knight.estimate.se, "{queen:?} {knight:?}");
        // Each of the queen's brackets alone implies a queen near the truth, its knight and bishop
        // counted at their fitted values; the exchange, a check, implies nothing.
        for st in &r.stats[6..8] {
            let v = st.implied.expect("a bracket of the fit implies a value");
            assert!((v - aikin(q)).abs() < 1.5, "{} implies {v}", st.imbalance);
        }
        assert_eq!(r.stats[8].implied, None);
        assert_eq!(r.exchanges.len(), 1);
        assert_eq!(r.exchanges[0].imbalance, "N/B");
        // Eight fitted matches, four parameters (pawn, knight, bishop, queen).
        assert_eq!(r.dof, 4);
    }

    #[test]
    fn matches_near_even_measure_more_precisely_than_the_bare_piece() {
        // Equal games: the knight (truth 4) alone against N/PPP and N/PPPP (the second even).
        let cal = [Imbalance::pawns(1), Imbalance::pawns(2)];
        let bare = [&cal[..], &[Imbalance::piece(Kind::Knight)]].concat();
        let brackets =
            [Imbalance::parse("N/PPP", Ruleset::FiveUp).unwrap(), Imbalance::parse("N/PPPP", Ruleset::FiveUp).unwrap()];
        let mut a = simulate(&bare, 1000, 0.25, 0.05, 21);
        let extra = simulate(&[Imbalance::piece(Kind::Knight)], 1000, 0.25, 0.05, 22);
        a[2].pairs.extend(extra[0].pairs.iter().copied());
        let b = [simulate(&cal, 1000, 0.25, 0.05, 21), simulate(&brackets, 1000, 0.25, 0.05, 23)].concat();
        let knight = |r: &ImbalanceReport| r.values.iter().find(|v| v.kind == Kind::Knight).unwrap().estimate;
        let (ra, rb) = (estimate(&a, 0, 1).unwrap(), estimate(&b, 0, 1).unwrap());
        let (ea, eb) = (knight(&ra), knight(&rb));
        assert!(eb.se < 0.7 * ea.se, "brackets {eb:?} vs bare {ea:?}");
        assert!((eb.value - 4.0).abs() < 3.0 * eb.se, "{eb:?}");
        // The brackets alone fix the pawn's scale (they differ by one pawn): no calibration needed.
        let only = simulate(&brackets, 2000, 0.25, 0.05, 24);
        let r = estimate(&only, 200, 2).unwrap();
        assert!((r.beta - 0.25).abs() < 3.0 * r.beta_se, "beta {} ± {}", r.beta, r.beta_se);
        assert!(r.beta_lo95 < r.beta && r.beta < r.beta_hi95);
        assert!((knight(&r).value - 4.0).abs() < 3.5 * knight(&r).se, "{:?}", knight(&r));
        assert_eq!(r.calibration_games, 0);
        let implied: Vec<f64> = r.stats.iter().map(|s| s.implied.unwrap()).collect();
        assert!(implied.iter().all(|v| (v - 4.0).abs() < 1.0), "{implied:?}");
        // One bracket alone does not.
        assert_eq!(estimate(&only[..1], 10, 0).unwrap_err(), ImbalanceFitError::NoCalibration);
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
    fn the_fit_matches_the_previous_implementation() {
        // A small fixed design (calibration, single pieces, a bracket, two exchanges), with a
        // bootstrap. The expected figures were computed by the previous implementation (the
        // normal equations and their Cholesky solve written out in this file), whose last
        // exchange was `R/NP`; that match now enters the fit (a piece against a piece and
        // pawns), so the design plays `RP/N` in its place, a check with the same number of
        // pairs (the simulation and the bootstrap draw the same random numbers for the other
        // matches), and the figures of that one match are left out of the comparison.
        let imbs = vec![
            Imbalance::pawns(1),
            Imbalance::pawns(2),
            Imbalance::piece(Kind::Knight),
            Imbalance::piece(Kind::Rook),
            Imbalance::parse("N/PPP", Ruleset::FiveUp).unwrap(),
            Imbalance::exchange(Kind::Knight, Kind::Rook),
            Imbalance { a_lacks: vec![Kind::Rook, Kind::Pawn], b_lacks: vec![Kind::Knight] },
        ];
        let r = estimate(&simulate(&imbs, 60, 0.3, 0.05, 31), 40, 8).unwrap();
        let mut got =
            vec![r.beta, r.beta_se, r.beta_lo95, r.beta_hi95, r.chi2, r.dof as f64, r.bootstrap_failed as f64];
        for s in &r.stats {
            got.extend([s.score, s.score_se, s.logit, s.logit_se, s.implied.unwrap_or(f64::NAN)]);
        }
        for e in r.values.iter().map(|v| v.estimate).chain(r.exchanges.iter().map(|x| x.estimate)) {
            got.extend([e.value, e.se, e.lo95, e.hi95]);
        }
        const EXPECTED: &[f64] = &[
            0.2986206297770146,
            0.05275438921777708,
            0.21654259662039227,
            0.4157746084542263,
            0.3665092876022087,
            2.0,
            0.0,
            0.4041666666666667,
            0.038091691092942435,
            -0.3881336517565244,
            0.15817759404177667,
            f64::NAN,
            0.35833333333333334,
            0.03432494000856135,
            -0.5826053061601213,
            0.14928394325680566,
            f64::NAN,
            0.25,
            0.036145500067660465,
            -1.0986122886681098,
            0.19277600036085582,
            3.6789564387713716,
            0.175,
            0.024715899866577566,
            -1.550597412411167,
            0.1711923800282429,
            5.1925327917532895,
            0.4375,
            0.04057539888097568,
            -0.25131442828090605,
            0.16487781132586943,
            3.8415842819317843,
            0.5458333333333333,
            0.042640456948046766,
            0.1838494409720076,
            0.1720071657824423,
            f64::NAN,
            0.475,
            0.036966544654982475,
            -0.10008345855698265,
            0.14823677054629564,
            f64::NAN,
            3.772879155539447,
            0.5531499373610896,
            3.141895792565992,
            4.934247102586833,
            5.19253279175329,
            1.081717025197432,
            3.5241602815347766,
            7.959008536696985,
            -0.6156622237026668,
            0.5861841770827645,
            -2.0345472255929313,
            0.15712790784862452,
            1.3351525265743254,
            0.49992350937999475,
            0.43232110018615005,
            2.5588872827971616,
        ];
        // Without the last match's statistics (7 header figures, then 5 per match) and its
        // exchange (the last 4 figures).
        let drop = |v: &[f64]| [&v[..7 + 6 * 5], &v[7 + 7 * 5..v.len() - 4]].concat();
        assert_eq!(got.len(), EXPECTED.len());
        assert_pinned(&drop(&got), &drop(EXPECTED));
        let check = &r.exchanges[1];
        assert_eq!(check.imbalance, "RP/N");
        // Aikin's values: rook and pawn against a knight, 5 + 1 − 4 = 2 pawns.
        assert!((check.estimate.value - 2.0).abs() < 3.5 * check.estimate.se, "{check:?}");
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
