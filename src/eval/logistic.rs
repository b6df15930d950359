//! The logistic function and weighted regression through the normal equations: the one fitter of
//! linear predictors in the crate.
//!
//! - [`sigmoid`], [`ln_sigmoid`], [`log_likelihood`] and [`observation`]: one observation's
//!   logistic quasi-likelihood `y·ln σ(η) + (1 − y)·ln σ(−η)` (`y` in `[0, 1]`, a draw scoring ½:
//!   the fractional-response logit) and its derivatives in the linear predictor `η`, `y − σ(η)` and
//!   `−σ(η)(1 − σ(η))`. The Ordo-style rating model (`super::model`) and [`fit_logistic`] both
//!   score their observations with them.
//! - [`NormalEquations`]: `Σ cᵢ xᵢ xᵢᵀ` and `Σ gᵢ xᵢ` accumulated row by row, solved by Cholesky.
//!   Weighted least squares is one solve (`c = w`, `g = w·z`, [`NormalEquations::least_squares`]);
//!   a logistic fit by Newton's method (iteratively reweighted least squares) repeats it with the
//!   working weights `c = w·μ(1 − μ)`, `g = w·(y − μ)`.
//! - [`fit_logistic`]: weighted logistic regression by damped Newton steps, with coefficients,
//!   covariance, standard errors, log-likelihood and iterations ([`LogisticFit`]).
//! - `solve_positive_definite`, `inverse_positive_definite`: Cholesky with a growing ridge for
//!   systems that may be singular to rounding (the rating fit's Newton steps and covariances).

use nalgebra::{DMatrix, DVector};

/// The logistic function, stable for large |x|.
pub fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln σ(x)`, stable for large |x|.
pub fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// One observation's log quasi-likelihood `y·ln σ(η) + (1 − y)·ln σ(−η)`.
pub fn log_likelihood(eta: f64, y: f64) -> f64 {
    y * ln_sigmoid(eta) + (1.0 - y) * ln_sigmoid(-eta)
}

/// One observation's derivatives in `η`: the score `y − μ` (first derivative of
/// [`log_likelihood`]) and the curvature `μ(1 − μ)` (minus the second), with `μ = σ(η)`.
pub fn observation(eta: f64, y: f64) -> (f64, f64) {
    let mu = sigmoid(eta);
    (y - mu, mu * (1.0 - mu))
}

/// The normal equations `A β = b` of a weighted linear fit, accumulated row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalEquations {
    /// `ridge·I + Σ cᵢ xᵢ xᵢᵀ` (lower triangle while accumulating; symmetric once solved).
    a: DMatrix<f64>,
    /// `Σ gᵢ xᵢ`.
    b: DVector<f64>,
}

impl NormalEquations {
    /// Empty equations in `p` unknowns with `ridge` on the diagonal.
    pub fn new(p: usize, ridge: f64) -> Self {
        Self { a: DMatrix::identity(p, p) * ridge, b: DVector::zeros(p) }
    }

    /// Adds the row `x` with curvature weight `c` (to `A`) and gradient weight `g` (to `b`).
    pub fn add(&mut self, x: &[f64], c: f64, g: f64) {
        for i in 0..x.len() {
            self.b[i] += g * x[i];
            for j in 0..=i {
                self.a[(i, j)] += c * x[i] * x[j];
            }
        }
    }

    /// `A` made symmetric from its lower triangle.
    fn matrix(&self) -> DMatrix<f64> {
        let mut a = self.a.clone();
        for i in 0..a.nrows() {
            for j in 0..i {
                a[(j, i)] = a[(i, j)];
            }
        }
        a
    }

    /// `A⁻¹ b` by Cholesky; `None` when `A` is not positive definite.
    pub fn solve(&self) -> Option<DVector<f64>> {
        Some(self.matrix().cholesky()?.solve(&self.b))
    }

    /// The weighted least-squares solution `β = A⁻¹ b` and its covariance `A⁻¹` (with `c = w`,
    /// `g = w·z`: `(XᵀWX)⁻¹ XᵀWz` and `(XᵀWX)⁻¹`); `None` unless every unknown is determined,
    /// i.e. every Cholesky pivot stands well above rounding noise (`l_ii² > 1e-9·a_ii`).
    pub fn least_squares(&self) -> Option<(DVector<f64>, DMatrix<f64>)> {
        let a = self.matrix();
        let chol = a.clone().cholesky()?;
        let l = chol.l();
        // (Written so that a NaN pivot fails too.)
        let determined = |i: usize| l[(i, i)] * l[(i, i)] > 1e-9 * a[(i, i)].max(f64::MIN_POSITIVE);
        if !(0..a.nrows()).all(determined) {
            return None;
        }
        Some((chol.solve(&self.b), chol.inverse()))
    }
}

/// Settings of [`fit_logistic`]. The defaults are those of the piece-value regression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogisticSettings {
    /// Added to the diagonal of every Newton system (a Levenberg damping for stability: the
    /// gradient is not penalised, so a converged fit is the unpenalised maximum).
    pub ridge: f64,
    /// Longest Newton step (Euclidean norm); a longer one is scaled down to it, so that separable
    /// data, whose maximum lies at infinity, keeps finite coefficients.
    pub max_step: f64,
    /// Converged once a step is shorter than this.
    pub tolerance: f64,
    /// Newton steps at most; the fit after the last one is returned unconverged.
    pub max_iterations: usize,
}

impl Default for LogisticSettings {
    /// Ridge 1e-6, steps of at most 5, tolerance 1e-9, 100 iterations.
    fn default() -> Self {
        Self { ridge: 1e-6, max_step: 5.0, tolerance: 1e-9, max_iterations: 100 }
    }
}

/// A fitted logistic model.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// Coefficients, in the order of the columns of `x`.
    pub beta: Vec<f64>,
    /// Covariance of the coefficients: the inverse of the (ridged) information matrix
    /// `ridge·I + Σ wᵢ μᵢ(1 − μᵢ) xᵢ xᵢᵀ` at `beta`.
    pub covariance: DMatrix<f64>,
    /// Weighted log quasi-likelihood `Σ wᵢ ℓᵢ` at `beta`.
    pub log_likelihood: f64,
    /// Newton steps taken.
    pub iterations: usize,
    /// Whether the last step was shorter than the tolerance (else `max_iterations` ran out).
    pub converged: bool,
}

impl LogisticFit {
    /// Standard errors of the coefficients (square roots of the covariance's diagonal).
    pub fn standard_errors(&self) -> Vec<f64> {
        self.covariance.diagonal().iter().map(|v| v.max(0.0).sqrt()).collect()
    }
}

/// Why [`fit_logistic`] gave no fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogisticError {
    /// No rows or no columns.
    #[error("no coefficients to fit")]
    Empty,
    /// The rows, responses and weights differ in number.
    #[error("{rows} rows, {responses} responses and {weights} weights")]
    Lengths {
        /// Rows of `x`.
        rows: usize,
        /// Responses.
        responses: usize,
        /// Weights.
        weights: usize,
    },
    /// A Newton system was not positive definite (a column that is zero, or a combination of
    /// others, in every weighted row).
    #[error("the Newton system of iteration {0} is singular")]
    Singular(usize),
    /// The coefficients became infinite or NaN.
    #[error("the coefficients diverged at iteration {0}")]
    Diverged(usize),
}

/// The Newton system at `beta`, and the weighted log-likelihood there if `likelihood` (else 0).
fn newton_system(
    x: &[Vec<f64>],
    y: &[f64],
    w: &[f64],
    beta: &[f64],
    ridge: f64,
    likelihood: bool,
) -> (NormalEquations, f64) {
    let mut eq = NormalEquations::new(beta.len(), ridge);
    let mut ll = 0.0;
    for ((row, &yi), &wi) in x.iter().zip(y).zip(w) {
        if wi == 0.0 {
            continue;
        }
        let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
        let (score, curvature) = observation(eta, yi);
        eq.add(row, curvature.max(1e-10) * wi, wi * score);
        if likelihood {
            ll += wi * log_likelihood(eta, yi);
        }
    }
    (eq, ll)
}

/// Weighted logistic regression: maximises `Σ wᵢ ℓ(xᵢ·β, yᵢ)` ([`log_likelihood`]) over `β` by
/// Newton steps `β ← β + (Σ wᵢ μᵢ(1 − μᵢ) xᵢ xᵢᵀ + ridge·I)⁻¹ Σ wᵢ (yᵢ − μᵢ) xᵢ`, each shortened
/// to `max_step` at most. Rows `x` (an intercept is a column of ones the caller adds), responses
/// `y` in `[0, 1]`, weights `w` (rows of weight 0 are skipped), start `start` (zeros if `None`).
pub fn fit_logistic(
    x: &[Vec<f64>],
    y: &[f64],
    w: &[f64],
    start: Option<&[f64]>,
    settings: &LogisticSettings,
) -> Result<LogisticFit, LogisticError> {
    let p = x.first().map_or(0, Vec::len);
    if p == 0 {
        return Err(LogisticError::Empty);
    }
    if x.len() != y.len() || x.len() != w.len() {
        return Err(LogisticError::Lengths { rows: x.len(), responses: y.len(), weights: w.len() });
    }
    let mut beta = start.map_or_else(|| vec![0.0; p], <[f64]>::to_vec);
    let (mut iterations, mut converged) = (settings.max_iterations, false);
    for it in 1..=settings.max_iterations {
        let (eq, _) = newton_system(x, y, w, &beta, settings.ridge, false);
        let step = eq.solve().ok_or(LogisticError::Singular(it))?;
        let norm = step.norm();
        let scale = if norm > settings.max_step { settings.max_step / norm } else { 1.0 };
        for (b, s) in beta.iter_mut().zip(step.iter()) {
            *b += scale * s;
        }
        if !beta.iter().all(|b| b.is_finite()) {
            return Err(LogisticError::Diverged(it));
        }
        if norm * scale < settings.tolerance {
            (iterations, converged) = (it, true);
            break;
        }
    }
    let (eq, log_likelihood) = newton_system(x, y, w, &beta, settings.ridge, true);
    let covariance = inverse_positive_definite(&eq.matrix());
    Ok(LogisticFit { beta, covariance, log_likelihood, iterations, converged })
}

/// Solves `a·x = b` for a symmetric positive (semi)definite `a`, adding a growing ridge when the
/// Cholesky factorisation fails numerically.
pub(crate) fn solve_positive_definite(a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let factor = regularised_cholesky(a);
    factor.solve(b)
}

/// Inverse of a symmetric positive (semi)definite matrix (ridge-regularised if needed).
pub(crate) fn inverse_positive_definite(a: &DMatrix<f64>) -> DMatrix<f64> {
    regularised_cholesky(a).inverse()
}

fn regularised_cholesky(a: &DMatrix<f64>) -> nalgebra::Cholesky<f64, nalgebra::Dyn> {
    let scale = a.diagonal().iter().fold(1e-12f64, |m, v| m.max(v.abs()));
    let identity = DMatrix::identity(a.nrows(), a.ncols());
    let mut ridge = 0.0;
    for _ in 0..30 {
        if let Some(c) = (a + &identity * ridge).cholesky() {
            return c;
        }
        ridge = if ridge == 0.0 { scale * 1e-12 } else { ridge * 10.0 };
    }
    // Only reachable with non-finite entries: fall back to a scaled gradient step.
    (identity * scale.max(1.0)).cholesky().expect("a positive multiple of the identity has a Cholesky factor")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_fit_matches_a_known_solution() {
        // Two groups: x = 0 with mean 0.5, x = 1 with mean 0.75: beta = (0, ln 3).
        let x = vec![vec![1.0, 0.0], vec![1.0, 0.0], vec![1.0, 1.0], vec![1.0, 1.0]];
        let y = vec![1.0, 0.0, 1.0, 0.5];
        let f = fit_logistic(&x, &y, &[1.0; 4], None, &LogisticSettings::default()).unwrap();
        assert!(f.beta[0].abs() < 1e-5 && (f.beta[1] - 3f64.ln()).abs() < 1e-5, "{f:?}");
        assert!(f.converged && f.iterations < 10, "{f:?}");
        // Covariance of the saturated model: 1/(n p (1 − p)) per group, so the intercept's variance
        // is 1/(2·¼) = 2 and the slope's 2 + 1/(2·3/16) = 14/3.
        let se = f.standard_errors();
        assert!((se[0] - 2f64.sqrt()).abs() < 1e-4 && (se[1] - (14.0f64 / 3.0).sqrt()).abs() < 1e-4, "{se:?}");
        let ll = 2.0 * 0.5f64.ln() + 2.0 * (0.75 * 0.75f64.ln() + 0.25 * 0.25f64.ln());
        assert!((f.log_likelihood - ll).abs() < 1e-9, "{} vs {ll}", f.log_likelihood);
    }

    #[test]
    fn weights_count_rows_and_bad_inputs_are_errors() {
        // A row of weight 2 is two rows of weight 1; a row of weight 0 is no row.
        let s = LogisticSettings::default();
        let x = vec![vec![1.0, -1.0], vec![1.0, 0.5], vec![1.0, 2.0], vec![1.0, 7.0]];
        let y = [0.0, 1.0, 0.5, 0.0];
        let weighted = fit_logistic(&x, &y, &[2.0, 1.0, 1.0, 0.0], None, &s).unwrap();
        let repeated = fit_logistic(&[&x[..3], &x[..1]].concat(), &[0.0, 1.0, 0.5, 0.0], &[1.0; 4], None, &s).unwrap();
        for (a, b) in weighted.beta.iter().zip(&repeated.beta) {
            assert!((a - b).abs() < 1e-9, "{weighted:?} vs {repeated:?}");
        }
        assert!((weighted.log_likelihood - repeated.log_likelihood).abs() < 1e-9);
        assert_eq!(fit_logistic(&[], &[], &[], None, &s).unwrap_err(), LogisticError::Empty);
        assert!(matches!(fit_logistic(&x, &y[..2], &[1.0; 4], None, &s), Err(LogisticError::Lengths { .. })));
        // Without a ridge a column that is zero everywhere leaves the system singular.
        let zero = vec![vec![1.0, 0.0]; 3];
        let no_ridge = LogisticSettings { ridge: 0.0, ..s };
        assert_eq!(fit_logistic(&zero, &[1.0, 0.0, 1.0], &[1.0; 3], None, &no_ridge), Err(LogisticError::Singular(1)));
    }

    #[test]
    fn separable_data_keeps_finite_coefficients() {
        // y = 1 exactly when x > 0: the maximum is at infinity; capped steps stay finite.
        let x: Vec<Vec<f64>> = [-2.0, -1.0, 1.0, 2.0].iter().map(|&v| vec![v]).collect();
        let s = LogisticSettings { max_iterations: 20, ..LogisticSettings::default() };
        let f = fit_logistic(&x, &[0.0, 0.0, 1.0, 1.0], &[1.0; 4], None, &s).unwrap();
        assert!(f.beta[0] > 5.0 && f.beta[0].is_finite(), "{f:?}");
    }

    #[test]
    fn least_squares_solves_and_refuses_undetermined_unknowns() {
        // z = 1 + 2 t exactly, unequal weights: the fit is exact, the covariance (XᵀWX)⁻¹.
        let mut eq = NormalEquations::new(2, 0.0);
        for (t, w) in [(0.0, 1.0), (1.0, 2.0), (3.0, 0.5)] {
            eq.add(&[1.0, t], w, w * (1.0 + 2.0 * t));
        }
        let (beta, cov) = eq.least_squares().unwrap();
        assert!((beta[0] - 1.0).abs() < 1e-12 && (beta[1] - 2.0).abs() < 1e-12, "{beta}");
        let xtwx = DMatrix::from_row_slice(2, 2, &[3.5, 3.5, 3.5, 6.5]);
        assert!((&xtwx * &cov - DMatrix::<f64>::identity(2, 2)).norm() < 1e-12);
        // The second unknown never appears.
        let mut eq = NormalEquations::new(2, 0.0);
        eq.add(&[1.0, 0.0], 1.0, 1.0);
        assert!(eq.least_squares().is_none());
    }
}
