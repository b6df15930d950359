//! Piece values from outcome regression (in the style of Tomašev et al. 2020, "Assessing game
//! balance with AlphaZero"): a logistic regression of game results on material differences.
//!
//! 1. **Samples.** From every game, the *quiet* positions (side to move not in check, with no
//!    promotion and no capture that wins material at once, see [`is_quiet`]), from ply
//!    `skip_plies` on, at most `per_game` of them, evenly spread. Features of a position: for each
//!    kind measured in the ruleset, white's count minus black's, reserve pieces in hand included
//!    while their owner can still place one. Response: white's final score `y` (1, ½, 0).
//! 2. **Model.** `E[y] = σ(β₀ + Σ_k β_k Δ_k)`: the Bernoulli quasi-likelihood (draws count as ½, the
//!    fractional-response logit), fitted by Newton / iteratively reweighted least squares,
//!    `β ← β + (Xᵀ W V X + λI)⁻¹ Xᵀ W (y − μ)` with `V = diag(μ (1 − μ))`, `W` the sample weights
//!    and a tiny ridge `λ = 1e-6` for stability. A kind whose difference is zero in every sample
//!    is left out (not identifiable).
//! 3. **Pawn units.** `v_k = β_k / β_pawn`.
//! 4. **Intervals.** Bootstrap by game: games are resampled with replacement (seeded ChaCha8), each
//!    game's samples weighted by its multiplicity, the model refitted (warm start); the 2.5% and
//!    97.5% percentiles of `v_k` give the 95% interval, their standard deviation the `se`.

use super::imbalance::{percentile_interval, sigmoid, Estimate};
use super::records::ReplayGame;
use crate::rules::types::KIND_COUNT;
use crate::rules::{Color, Kind, Position};
use nalgebra::{DMatrix, DVector};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One quiet position: the game it came from, material differences, white's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Index of the game (for the bootstrap).
    pub game: usize,
    /// White's count minus black's, per kind index.
    pub delta: [f64; KIND_COUNT],
    /// White's score in the game.
    pub y: f64,
}

/// Sampling settings (step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleConfig {
    /// Ignore positions before this ply.
    pub skip_plies: usize,
    /// At most this many quiet positions per game.
    pub per_game: usize,
}

impl Default for SampleConfig {
    fn default() -> Self {
        SampleConfig { skip_plies: 0, per_game: 12 }
    }
}

/// Whether a position is quiet: the side to move is not in check and has no promotion and no
/// capture that wins material at once (a victim worth more than the capturer by the ruleset's
/// default values, or an undefended victim). Even trades may remain: the start position of Five Up
/// already has some, so "no capture at all" would leave few positions.
pub fn is_quiet(p: &Position) -> bool {
    if p.in_check() {
        return false;
    }
    let values = crate::engine::Weights::for_ruleset(p.ruleset()).values;
    let them = p.side().flip();
    !p.legal_moves().iter().any(|&m| {
        if m.promotion().is_some() {
            return true;
        }
        let Some(victim) = crate::engine::ordering::captured(p, m) else { return false };
        let attacker = p.piece_at(m.from()).map_or(Kind::Pawn, |x| x.kind);
        if values[victim.index()] > values[attacker.index()] {
            return true;
        }
        let to = m.to().index();
        let occ = p.occupied().0 ^ (1u128 << m.from().index());
        p.attackers(to, them, occ, p.color_bb(them).0 & !(1u128 << to)) == 0
    })
}

/// White's count minus black's per kind, reserve pieces in hand counted while placeable.
pub fn material_delta(p: &Position) -> [f64; KIND_COUNT] {
    let mut d = [0.0; KIND_COUNT];
    for (color, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
        for k in Kind::ALL {
            d[k.index()] += sign * p.pieces(color, k).count() as f64;
        }
        if p.can_place(color) {
            for k in p.reserve_kinds(color) {
                d[k.index()] += sign;
            }
        }
    }
    d
}

/// Step 1 for one game.
pub fn game_samples(game: &ReplayGame, index: usize, cfg: SampleConfig) -> Vec<Sample> {
    let mut pos = game.start.clone();
    let mut quiet = Vec::new();
    for ply in 0..=game.moves.len() {
        if ply >= cfg.skip_plies && is_quiet(&pos) {
            quiet.push(material_delta(&pos));
        }
        if let Some(&m) = game.moves.get(ply) {
            pos.make(m);
        }
    }
    let n = quiet.len();
    let take = n.min(cfg.per_game);
    (0..take).map(|i| Sample { game: index, delta: quiet[i * n / take.max(1)], y: game.white_score }).collect()
}

/// A fitted logistic model.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// Coefficients, intercept first.
    pub beta: Vec<f64>,
    /// Newton iterations used.
    pub iterations: usize,
}

/// Why the fit failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegressionError {
    /// Nothing to fit.
    #[error("no quiet positions to fit (need games with material differences)")]
    NoSamples,
    /// No pawn differences: no unit.
    #[error("the pawn difference is zero in every sample: no pawn unit")]
    NoPawnVariation,
    /// The pawn coefficient is not positive.
    #[error("the pawn's coefficient is {0}: an extra pawn does not help in these games; more games are needed")]
    PawnNotPositive(String),
    /// Singular system or no convergence.
    #[error("the logistic fit did not converge")]
    NoConvergence,
}

/// Weighted logistic regression (step 2): rows `x` (intercept column included by the caller), response
/// `y` in [0, 1], sample weights `w`, starting point `start`.
pub fn fit_logistic(
    x: &[Vec<f64>],
    y: &[f64],
    w: &[f64],
    start: Option<&[f64]>,
) -> Result<LogisticFit, RegressionError> {
    let p = x.first().map_or(0, Vec::len);
    if p == 0 {
        return Err(RegressionError::NoSamples);
    }
    let mut beta = start.map_or_else(|| vec![0.0; p], <[f64]>::to_vec);
    for it in 1..=100 {
        let mut h = DMatrix::<f64>::identity(p, p) * 1e-6;
        let mut g = DVector::<f64>::zeros(p);
        for ((row, &yi), &wi) in x.iter().zip(y).zip(w) {
            if wi == 0.0 {
                continue;
            }
            let eta: f64 = row.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let mu = sigmoid(eta);
            let v = (mu * (1.0 - mu)).max(1e-10) * wi;
            for a in 0..p {
                g[a] += wi * (yi - mu) * row[a];
                for b in 0..=a {
                    h[(a, b)] += v * row[a] * row[b];
                }
            }
        }
        for a in 0..p {
            for b in 0..a {
                h[(b, a)] = h[(a, b)];
            }
        }
        let step = h.cholesky().ok_or(RegressionError::NoConvergence)?.solve(&g);
        // Damp huge steps (separable data) so the iteration stays finite.
        let norm = step.norm();
        let scale = if norm > 5.0 { 5.0 / norm } else { 1.0 };
        for a in 0..p {
            beta[a] += scale * step[a];
        }
        if !beta.iter().all(|b| b.is_finite()) {
            return Err(RegressionError::NoConvergence);
        }
        if norm * scale < 1e-9 {
            return Ok(LogisticFit { beta, iterations: it });
        }
    }
    Ok(LogisticFit { beta, iterations: 100 })
}

/// A regression value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegressionValue {
    /// The kind.
    #[serde(serialize_with = "super::ser_kind")]
    pub kind: Kind,
    /// Value in pawns (bootstrap interval).
    pub estimate: Estimate,
    /// Raw coefficient (logit units per piece).
    pub coefficient: f64,
}

/// Everything the regression measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegressionReport {
    /// Values of the kinds that varied in the data.
    pub values: Vec<RegressionValue>,
    /// Kinds left out (no variation), by key.
    pub dropped: Vec<String>,
    /// Intercept (white's edge, logit units).
    pub intercept: f64,
    /// Positions used.
    pub positions: usize,
    /// Games used (games with at least one quiet position).
    pub games: usize,
    /// Bootstrap replicates drawn.
    pub bootstrap: usize,
    /// Replicates where the fit failed or the pawn coefficient was not positive.
    pub bootstrap_failed: usize,
}

/// Steps 2–4 on samples, for `kinds` (pawn required).
pub fn regress(
    samples: &[Sample],
    kinds: &[Kind],
    bootstrap: usize,
    seed: u64,
) -> Result<RegressionReport, RegressionError> {
    if samples.is_empty() {
        return Err(RegressionError::NoSamples);
    }
    let used: Vec<Kind> = kinds.iter().copied().filter(|k| samples.iter().any(|s| s.delta[k.index()] != 0.0)).collect();
    let dropped: Vec<String> =
        kinds.iter().filter(|k| !used.contains(k)).map(|&k| crate::engine::weights::kind_key(k).to_string()).collect();
    let pawn = used.iter().position(|&k| k == Kind::Pawn).ok_or(RegressionError::NoPawnVariation)? + 1;
    let x: Vec<Vec<f64>> =
        samples.iter().map(|s| std::iter::once(1.0).chain(used.iter().map(|k| s.delta[k.index()])).collect()).collect();
    let y: Vec<f64> = samples.iter().map(|s| s.y).collect();
    let ones = vec![1.0; samples.len()];
    let fit = fit_logistic(&x, &y, &ones, None)?;
    let bp = fit.beta[pawn];
    if bp <= 0.0 {
        return Err(RegressionError::PawnNotPositive(format!("{bp:.4}")));
    }
    // Bootstrap by game.
    let n_games = samples.iter().map(|s| s.game).max().map_or(0, |g| g + 1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut reps: Vec<Vec<f64>> = vec![Vec::new(); used.len()];
    let mut failed = 0;
    let present: Vec<usize> = {
        let mut g: Vec<usize> = samples.iter().map(|s| s.game).collect();
        g.dedup();
        g.sort_unstable();
        g.dedup();
        g
    };
    for _ in 0..bootstrap {
        let mut mult = vec![0.0; n_games];
        for _ in 0..present.len() {
            mult[present[rng.gen_range(0..present.len())]] += 1.0;
        }
        let w: Vec<f64> = samples.iter().map(|s| mult[s.game]).collect();
        match fit_logistic(&x, &y, &w, Some(&fit.beta)) {
            Ok(f) if f.beta[pawn] > 0.0 => {
                for (j, r) in reps.iter_mut().enumerate() {
                    r.push(f.beta[j + 1] / f.beta[pawn]);
                }
            }
            _ => failed += 1,
        }
    }
    let values = used
        .iter()
        .enumerate()
        .map(|(j, &kind)| {
            let v = fit.beta[j + 1] / bp;
            let r = &mut reps[j];
            let estimate = if r.len() >= 20 {
                let mean = r.iter().sum::<f64>() / r.len() as f64;
                let sd = (r.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (r.len() - 1) as f64).sqrt();
                let (lo, hi) = percentile_interval(r);
                Estimate { value: v, se: sd, lo95: lo, hi95: hi }
            } else {
                Estimate { value: v, se: f64::NAN, lo95: f64::NAN, hi95: f64::NAN }
            };
            RegressionValue { kind, estimate, coefficient: fit.beta[j + 1] }
        })
        .collect();
    Ok(RegressionReport {
        values,
        dropped,
        intercept: fit.beta[0],
        positions: samples.len(),
        games: present.len(),
        bootstrap,
        bootstrap_failed: failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ruleset, Variant};
    use crate::values::imbalance::tests::{aikin, draw_score};
    use crate::values::setups::measured_kinds;

    #[test]
    fn synthetic_outcomes_recover_the_values_within_their_intervals() {
        let kinds = measured_kinds(Ruleset::FiveUp);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let scale = 0.45;
        let mut samples = Vec::new();
        for game in 0..6000 {
            let mut d = [0.0; KIND_COUNT];
            for &k in &kinds {
                d[k.index()] = if k == Kind::Pawn {
                    rng.gen_range(-3i32..=3) as f64
                } else if rng.gen_bool(0.35) {
                    if rng.gen_bool(0.5) {
                        1.0
                    } else {
                        -1.0
                    }
                } else {
                    0.0
                };
            }
            let eta: f64 = 0.1 + scale * kinds.iter().map(|&k| aikin(k) * d[k.index()]).sum::<f64>();
            let y = draw_score(sigmoid(eta), &mut rng);
            // Three positions per game, the later ones with a pawn fewer or more (same result).
            for step in 0..3 {
                let mut dd = d;
                if step > 0 && rng.gen_bool(0.3) {
                    dd[0] += if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                }
                samples.push(Sample { game, delta: dd, y });
            }
        }
        let r = regress(&samples, &kinds, 200, 9).unwrap();
        assert_eq!(r.values.len(), kinds.len());
        assert_eq!(r.games, 6000);
        let mut inside = 0;
        for v in &r.values {
            let truth = aikin(v.kind);
            if v.kind == Kind::Pawn {
                inside += 1;
                continue;
            }
            assert!((v.estimate.value - truth).abs() < 3.5 * v.estimate.se, "{v:?} vs {truth}");
            inside += usize::from(v.estimate.covers(truth));
        }
        assert!(inside >= 8, "only {inside} of 9 cover: {:?}", r.values);
        assert!((r.values[0].estimate.value - 1.0).abs() < 1e-12);
    }

    #[test]
    fn logistic_fit_matches_a_known_solution() {
        // Two groups: x = 0 with mean 0.5, x = 1 with mean 0.75: beta = (0, ln 3).
        let x = vec![vec![1.0, 0.0], vec![1.0, 0.0], vec![1.0, 1.0], vec![1.0, 1.0]];
        let y = vec![1.0, 0.0, 1.0, 0.5];
        let f = fit_logistic(&x, &y, &[1.0; 4], None).unwrap();
        assert!(f.beta[0].abs() < 1e-5 && (f.beta[1] - 3f64.ln()).abs() < 1e-5, "{f:?}");
    }

    #[test]
    fn quiet_positions_and_material_from_a_real_game() {
        let v = Variant::plain(Ruleset::FiveUp);
        let start = crate::values::setups::Imbalance::piece(Kind::Wizard).position(v, Color::White, 0).unwrap();
        assert!(is_quiet(&start));
        let d = material_delta(&start);
        assert_eq!(d[Kind::Wizard.index()], -1.0);
        assert_eq!(d.iter().map(|x| x.abs()).sum::<f64>(), 1.0);
        let game = ReplayGame { start: start.clone(), moves: start.legal_moves()[..1].to_vec(), white_score: 0.0 };
        let s = game_samples(&game, 4, SampleConfig::default());
        assert!(!s.is_empty() && s.iter().all(|x| x.game == 4 && x.y == 0.0));
        assert!(matches!(regress(&[], &[Kind::Pawn], 0, 0), Err(RegressionError::NoSamples)));
        assert!(matches!(regress(&s, &[Kind::Pawn, Kind::Wizard], 0, 0), Err(RegressionError::NoPawnVariation)));
    }
}
