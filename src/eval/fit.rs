//! Maximum-likelihood fit of the rating models by damped Newton iterations.
//!
//! Parameters (natural units, see [`super::model`]): the ratings of players `1..n` (player 0 is
//! held at 0 while fitting, which removes the additive gauge freedom; the caller re-anchors),
//! then the draw parameter `θ` (BayesElo model only), then the first-move advantage (when fitted).
//!
//! The objective is the data log-likelihood plus a weak prior (see [`Problem::new`]); it is
//! strictly concave on a connected comparison graph, so each Newton step solves
//! `(−H) δ = g` by Cholesky and a backtracking line search keeps the objective increasing and
//! `θ > 0`. Iteration stops when the Newton decrement `gᵀδ` falls below 1e-12.
//!
//! This Newton iteration is not [`super::logistic::fit_logistic`]: the BayesElo likelihood (three
//! outcomes, a draw parameter that must stay positive) is no logistic regression and needs the
//! line search; both share the logistic observation terms and the positive-definite solves of
//! [`super::logistic`].

use super::logistic::solve_positive_definite;
use super::model::{self, Local, RatedGame, RatedResult, RatingModel};
use nalgebra::{DMatrix, DVector};
use std::collections::HashMap;

/// Newton iterations before giving up (the concave problem typically needs 5–15).
const MAX_ITERATIONS: usize = 200;
/// The smallest draw parameter the line search may step to.
const MIN_THETA: f64 = 1e-9;

/// A fitting problem: aggregated games plus the prior.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    n: usize,
    bayes: bool,
    advantage: bool,
    /// Identical games merged: (white, black, result) → count.
    cells: Vec<(usize, usize, RatedResult, f64)>,
    /// Virtual draws between players who met: (i, j, weight).
    prior_pairs: Vec<(usize, usize, f64)>,
    prior_draws: f64,
    draw_fraction: f64,
}

/// The maximiser and the curvature there.
#[derive(Clone, Debug)]
pub(crate) struct Solution {
    /// Parameters at the maximum.
    pub x: DVector<f64>,
    /// Negative Hessian of the penalised log-likelihood at `x` (positive definite).
    pub neg_hessian: DMatrix<f64>,
    /// Data log-likelihood at `x` (without the prior).
    pub log_likelihood: f64,
    /// Newton iterations used.
    pub iterations: usize,
}

/// Up to three `(parameter index, ∂s/∂parameter)` entries of one game's advantage `s`.
type Terms = [Option<(usize, f64)>; 3];

impl Problem {
    /// Builds the problem for `n` players from `games` (indices already validated).
    ///
    /// Prior (all weights in units of `prior_draws`, BayesElo's default being 2):
    /// - every player carries `prior_draws` virtual draws, spread evenly over the opponents it
    ///   actually met; a pair `(i, j)` gets `prior_draws · (1/deg i + 1/deg j) / 2` of them. A
    ///   virtual draw is half a win and half a loss under the logistic score model, so it shrinks
    ///   rating differences toward 0 without touching `θ` or the advantage, and keeps a player
    ///   with only wins (or only losses) finite;
    /// - the draw parameter gets `prior_draws` virtual games between equal players, half drawn
    ///   and half decisive (keeps `θ` finite when every game, or no game, is drawn);
    /// - the first-move advantage gets `prior_draws` virtual draws between equal players.
    pub fn new(n: usize, games: &[&RatedGame], model: RatingModel, advantage: bool, prior_draws: f64) -> Self {
        let mut cells: HashMap<(usize, usize, RatedResult), f64> = HashMap::new();
        let mut met: HashMap<(usize, usize), ()> = HashMap::new();
        let mut draws = 0usize;
        for g in games {
            *cells.entry((g.white, g.black, g.result)).or_default() += 1.0;
            met.insert((g.white.min(g.black), g.white.max(g.black)), ());
            draws += usize::from(g.result == RatedResult::Draw);
        }
        let mut degree = vec![0usize; n];
        for &(i, j) in met.keys() {
            degree[i] += 1;
            degree[j] += 1;
        }
        let mut prior_pairs: Vec<_> = met
            .keys()
            .map(|&(i, j)| {
                let w = prior_draws * (1.0 / degree[i] as f64 + 1.0 / degree[j] as f64) / 2.0;
                (i, j, w)
            })
            .collect();
        prior_pairs.sort_by_key(|&(i, j, _)| (i, j));
        let mut cells: Vec<_> = cells.into_iter().map(|((w, b, r), c)| (w, b, r, c)).collect();
        cells.sort_by_key(|&(w, b, r, _)| (w, b, r as u8));
        Self {
            n,
            bayes: model == RatingModel::BayesElo,
            advantage,
            cells,
            prior_pairs,
            prior_draws,
            draw_fraction: draws as f64 / games.len().max(1) as f64,
        }
    }

    /// Number of free parameters.
    pub fn dim(&self) -> usize {
        self.n - 1 + usize::from(self.bayes) + usize::from(self.advantage)
    }

    /// Index of `θ`, if fitted.
    pub fn theta_index(&self) -> Option<usize> {
        self.bayes.then_some(self.n - 1)
    }

    /// Index of the first-move advantage, if fitted.
    pub fn advantage_index(&self) -> Option<usize> {
        self.advantage.then_some(self.n - 1 + usize::from(self.bayes))
    }

    /// Index of player `p`'s rating (player 0 is fixed).
    fn player_index(p: usize) -> Option<usize> {
        p.checked_sub(1)
    }

    /// Rating of player `p` in `x`.
    pub fn rating(&self, x: &DVector<f64>, p: usize) -> f64 {
        Self::player_index(p).map_or(0.0, |i| x[i])
    }

    fn theta(&self, x: &DVector<f64>) -> f64 {
        self.theta_index().map_or(0.0, |i| x[i])
    }

    /// White's advantage `s` in a game and its derivative terms.
    fn advantage_terms(&self, x: &DVector<f64>, white: usize, black: usize) -> (f64, Terms) {
        let adv = self.advantage_index();
        let s = self.rating(x, white) - self.rating(x, black) + adv.map_or(0.0, |i| x[i]);
        let terms = [
            Self::player_index(white).map(|i| (i, 1.0)),
            Self::player_index(black).map(|i| (i, -1.0)),
            adv.map(|i| (i, 1.0)),
        ];
        (s, terms)
    }

    /// One game's log-likelihood terms.
    fn game_local(&self, s: f64, theta: f64, result: RatedResult) -> Local {
        match (self.bayes, result) {
            (true, RatedResult::WhiteWins) => model::bayes_white_wins(s, theta),
            (true, RatedResult::Draw) => model::bayes_draw(s, theta),
            (true, RatedResult::BlackWins) => model::bayes_black_wins(s, theta),
            (false, r) => model::logistic(s, r.white_score()),
        }
    }

    /// Every term of the objective: `(local, terms of s, whether θ enters, is data)`.
    fn for_each_term(&self, x: &DVector<f64>, mut f: impl FnMut(Local, &Terms, bool, bool)) {
        let theta = self.theta(x);
        for &(w, b, r, count) in &self.cells {
            let (s, terms) = self.advantage_terms(x, w, b);
            f(self.game_local(s, theta, r).scaled(count), &terms, self.bayes, true);
        }
        for &(i, j, w) in &self.prior_pairs {
            let d = self.rating(x, i) - self.rating(x, j);
            let terms = [Self::player_index(i).map(|k| (k, 1.0)), Self::player_index(j).map(|k| (k, -1.0)), None];
            f(model::logistic(d, 0.5).scaled(w), &terms, false, false);
        }
        if self.bayes {
            let mut l = model::bayes_draw(0.0, theta);
            let (win, loss) = (model::bayes_white_wins(0.0, theta), model::bayes_black_wins(0.0, theta));
            l.l += 0.5 * (win.l + loss.l);
            l.lt += 0.5 * (win.lt + loss.lt);
            l.ltt += 0.5 * (win.ltt + loss.ltt);
            let only_theta = Local { ls: 0.0, lss: 0.0, lst: 0.0, ..l };
            f(only_theta.scaled(self.prior_draws), &[None; 3], true, false);
        }
        if let Some(a) = self.advantage_index() {
            let l = model::logistic(x[a], 0.5).scaled(self.prior_draws);
            f(l, &[Some((a, 1.0)), None, None], false, false);
        }
    }

    /// Penalised log-likelihood (data + prior) and data log-likelihood alone.
    fn objective(&self, x: &DVector<f64>) -> (f64, f64) {
        let (mut total, mut data) = (0.0, 0.0);
        self.for_each_term(x, |l, _, _, is_data| {
            total += l.l;
            if is_data {
                data += l.l;
            }
        });
        (total, data)
    }

    /// Gradient and negative Hessian of the penalised log-likelihood.
    fn gradient_and_curvature(&self, x: &DVector<f64>) -> (DVector<f64>, DMatrix<f64>) {
        let dim = self.dim();
        let (mut g, mut h) = (DVector::zeros(dim), DMatrix::zeros(dim, dim));
        let t = self.theta_index();
        self.for_each_term(x, |l, terms, with_theta, _| {
            accumulate(&mut g, &mut h, l, terms, t.filter(|_| with_theta));
        });
        (g, h)
    }

    /// Per-game gradient of the data log-likelihood (for the sandwich covariance).
    pub fn game_gradient(&self, x: &DVector<f64>, game: &RatedGame) -> DVector<f64> {
        let (s, terms) = self.advantage_terms(x, game.white, game.black);
        let l = self.game_local(s, self.theta(x), game.result);
        let mut g = DVector::zeros(self.dim());
        for &(i, c) in terms.iter().flatten() {
            g[i] += l.ls * c;
        }
        if let Some(t) = self.theta_index() {
            g[t] += l.lt;
        }
        g
    }

    fn feasible(&self, x: &DVector<f64>) -> bool {
        x.iter().all(|v| v.is_finite()) && self.theta_index().is_none_or(|t| x[t] >= MIN_THETA)
    }

    /// Maximises the penalised log-likelihood.
    pub fn maximize(&self) -> Solution {
        // 1. Start at equal ratings, no advantage, θ matching the observed draw rate at s = 0
        //    (P(draw | s = 0) = tanh(θ/2)).
        let mut x = DVector::zeros(self.dim());
        if let Some(t) = self.theta_index() {
            x[t] = 2.0 * self.draw_fraction.clamp(0.05, 0.95).atanh();
        }
        let mut f = self.objective(&x).0;
        let mut iterations = 0;
        // 2. Damped Newton steps with a backtracking (Armijo) line search.
        while iterations < MAX_ITERATIONS {
            iterations += 1;
            let (g, h) = self.gradient_and_curvature(&x);
            let delta = solve_positive_definite(&h, &g);
            let decrement = g.dot(&delta);
            // Also stops on NaN.
            if decrement.is_nan() || decrement <= 1e-12 {
                break;
            }
            let mut step = 1.0;
            let mut moved = false;
            while step > 1e-12 {
                let candidate = &x + &delta * step;
                if self.feasible(&candidate) {
                    let fc = self.objective(&candidate).0;
                    if fc >= f + 1e-4 * step * decrement {
                        x = candidate;
                        f = fc;
                        moved = true;
                        break;
                    }
                }
                step *= 0.5;
            }
            // 3. No acceptable step: the maximum is reached to floating-point precision.
            if !moved {
                break;
            }
        }
        let (_, neg_hessian) = self.gradient_and_curvature(&x);
        let log_likelihood = self.objective(&x).1;
        Solution { x, neg_hessian, log_likelihood, iterations }
    }
}

/// Adds one term's gradient and negative Hessian through the chain rule `s = Σ c_i x_i`.
fn accumulate(g: &mut DVector<f64>, h: &mut DMatrix<f64>, l: Local, terms: &Terms, theta: Option<usize>) {
    for &(i, ci) in terms.iter().flatten() {
        g[i] += l.ls * ci;
        for &(j, cj) in terms.iter().flatten() {
            h[(i, j)] -= l.lss * ci * cj;
        }
        if let Some(t) = theta {
            h[(i, t)] -= l.lst * ci;
            h[(t, i)] -= l.lst * ci;
        }
    }
    if let Some(t) = theta {
        g[t] += l.lt;
        h[(t, t)] -= l.ltt;
    }
}
