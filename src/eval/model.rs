//! The rating models: the games they rate ([`RatedGame`], [`RatedResult`]), the choice of model
//! ([`RatingModel`]), and per-game log-likelihoods with their first and second derivatives.
//!
//! Everything here is in natural units (`x = elo · ln10 / 400`). A game is described by `s`, the
//! white player's advantage (rating difference plus first-move advantage), and, in the BayesElo
//! model, by the draw parameter `θ > 0` (BayesElo's `drawelo` in natural units):
//!
//! ```text
//! P(white wins) = σ(s − θ)        P(black wins) = σ(−s − θ)
//! P(draw)       = 1 − both  =  sinh θ / (cosh θ + cosh s)
//! ```
//!
//! with `σ(x) = 1 / (1 + e^{−x})`. The logistic (Ordo-style) model scores a game `c ∈ {0, ½, 1}`
//! with the quasi-likelihood `c·ln σ(s) + (1 − c)·ln σ(−s)`, i.e. a draw counts as half a win and
//! half a loss and the draw rate does not enter the ratings.
//!
//! Both are concave in `(s, θ)` (the BayesElo draw term is the log of a logistic variable's
//! probability of an interval whose ends are linear in `(s, θ)`, log-concave by Prékopa), so
//! Newton's method with a backtracking line search converges from any start.

use super::logistic::{self, ln_sigmoid, sigmoid};
use serde::{Deserialize, Serialize};

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RatedResult {
    /// White won.
    WhiteWins,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWins,
}

impl RatedResult {
    /// White's score: 1, ½ or 0.
    pub fn white_score(self) -> f64 {
        match self {
            RatedResult::WhiteWins => 1.0,
            RatedResult::Draw => 0.5,
            RatedResult::BlackWins => 0.0,
        }
    }
}

/// One game of a tournament, players given by index into the name list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatedGame {
    /// Index of the white player.
    pub white: usize,
    /// Index of the black player.
    pub black: usize,
    /// The result.
    pub result: RatedResult,
    /// Identifier shared by the two games of a colour-swapped pair (same opening), if any.
    pub pair: Option<u64>,
}

/// Which rating model to fit (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RatingModel {
    /// BayesElo: win/draw/loss likelihood with a fitted draw parameter.
    BayesElo,
    /// Ordo-style logistic score model; draws count half.
    Logistic,
}

/// One game's log-likelihood and its derivatives in `s` and `θ`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Local {
    /// Log-likelihood.
    pub l: f64,
    /// ∂ℓ/∂s.
    pub ls: f64,
    /// ∂ℓ/∂θ.
    pub lt: f64,
    /// ∂²ℓ/∂s².
    pub lss: f64,
    /// ∂²ℓ/∂s∂θ.
    pub lst: f64,
    /// ∂²ℓ/∂θ².
    pub ltt: f64,
}

impl Local {
    /// Every field multiplied by `w` (a count of identical games).
    pub fn scaled(self, w: f64) -> Self {
        Self {
            l: w * self.l,
            ls: w * self.ls,
            lt: w * self.lt,
            lss: w * self.lss,
            lst: w * self.lst,
            ltt: w * self.ltt,
        }
    }
}

/// BayesElo: white wins.
pub(crate) fn bayes_white_wins(s: f64, theta: f64) -> Local {
    let u = s - theta;
    let p = sigmoid(-u);
    let luu = -p * sigmoid(u);
    Local { l: ln_sigmoid(u), ls: p, lt: -p, lss: luu, lst: -luu, ltt: luu }
}

/// BayesElo: black wins.
pub(crate) fn bayes_black_wins(s: f64, theta: f64) -> Local {
    let v = -s - theta;
    let p = sigmoid(-v);
    let lvv = -p * sigmoid(v);
    Local { l: ln_sigmoid(v), ls: -p, lt: -p, lss: lvv, lst: lvv, ltt: lvv }
}

/// BayesElo: draw, `ℓ = ln sinh θ − ln(cosh θ + cosh s)`, evaluated with every exponential
/// scaled by `e^{−max(θ, |s|)}` so that large arguments cannot overflow.
pub(crate) fn bayes_draw(s: f64, theta: f64) -> Local {
    let m = theta.max(s.abs());
    let e = |x: f64| (x - m).exp();
    // 2·e^{-m} times cosh θ + cosh s, sinh s, cosh s, sinh θ, cosh θ.
    let c2 = e(theta) + e(-theta) + e(s) + e(-s);
    let (sinh_s, cosh_s) = ((e(s) - e(-s)) / c2, (e(s) + e(-s)) / c2);
    let (sinh_t, cosh_t) = ((e(theta) - e(-theta)) / c2, (e(theta) + e(-theta)) / c2);
    // ln sinh θ = θ + ln(1 − e^{−2θ}) − ln 2; ln(cosh θ + cosh s) = m + ln c2 − ln 2.
    let ln_sinh = theta + (-(-2.0 * theta).exp_m1()).ln();
    let sinh_theta = theta.sinh();
    Local {
        l: ln_sinh - m - c2.ln(),
        ls: -sinh_s,
        lt: 1.0 / theta.tanh() - sinh_t,
        lss: -cosh_s + sinh_s * sinh_s,
        lst: sinh_s * sinh_t,
        ltt: -1.0 / (sinh_theta * sinh_theta) - cosh_t + sinh_t * sinh_t,
    }
}

/// Logistic (Ordo-style) quasi-likelihood of scoring `score` (0, ½ or 1) with advantage `s`: one
/// observation of a logistic regression ([`logistic::observation`]).
pub(crate) fn logistic(s: f64, score: f64) -> Local {
    let (ls, curvature) = logistic::observation(s, score);
    Local { l: logistic::log_likelihood(s, score), ls, lss: -curvature, ..Local::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    type F = fn(f64, f64) -> Local;

    fn check_derivatives(f: F, s: f64, t: f64) {
        let h = 1e-5;
        let d = f(s, t);
        let num_ls = (f(s + h, t).l - f(s - h, t).l) / (2.0 * h);
        let num_lt = (f(s, t + h).l - f(s, t - h).l) / (2.0 * h);
        let num_lss = (f(s + h, t).ls - f(s - h, t).ls) / (2.0 * h);
        let num_lst = (f(s, t + h).ls - f(s, t - h).ls) / (2.0 * h);
        let num_ltt = (f(s, t + h).lt - f(s, t - h).lt) / (2.0 * h);
        for (a, b, what) in [
            (d.ls, num_ls, "ls"),
            (d.lt, num_lt, "lt"),
            (d.lss, num_lss, "lss"),
            (d.lst, num_lst, "lst"),
            (d.ltt, num_ltt, "ltt"),
        ] {
            assert!((a - b).abs() < 1e-5 * (1.0 + b.abs()), "{what} at ({s}, {t}): {a} vs {b}");
        }
    }

    #[test]
    fn bayes_derivatives_match_finite_differences() {
        for s in [-3.0, -0.7, 0.0, 0.4, 2.5] {
            for t in [0.05, 0.5, 1.3, 4.0] {
                check_derivatives(bayes_white_wins, s, t);
                check_derivatives(bayes_black_wins, s, t);
                check_derivatives(bayes_draw, s, t);
                check_derivatives(|s, _| logistic(s, 0.5), s, t);
                check_derivatives(|s, _| logistic(s, 1.0), s, t);
            }
        }
    }

    #[test]
    fn bayes_probabilities_sum_to_one() {
        for s in [-5.0, -1.0, 0.0, 0.3, 7.0] {
            for t in [0.01, 0.8, 3.0] {
                let total = bayes_white_wins(s, t).l.exp() + bayes_draw(s, t).l.exp() + bayes_black_wins(s, t).l.exp();
                assert!((total - 1.0).abs() < 1e-12, "{s} {t}: {total}");
            }
        }
    }

    #[test]
    fn extreme_arguments_stay_finite() {
        for s in [-2000.0, 2000.0] {
            for f in [bayes_white_wins as F, bayes_black_wins, bayes_draw] {
                let d = f(s, 1.0);
                for v in [d.l, d.ls, d.lt, d.lss, d.lst, d.ltt] {
                    assert!(v.is_finite(), "{d:?}");
                }
            }
        }
    }
}
