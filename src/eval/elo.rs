//! Logistic Elo, score counts and the two-player Elo interval used by match summaries.
//!
//! Elo here is always **logistic Elo**: a rating difference `d` gives the expected score
//! `1 / (1 + 10^(-d / 400))` per game (draw = ½). The inverse maps a score back to a difference.
//!
//! Two ways of counting a match between a tested player and a reference:
//! - [`Trinomial`]: wins, draws and losses of single games; the per-game score variance is
//!   `E[s²] − E[s]²` over those three outcomes.
//! - [`Pentanomial`]: colour-swapped game pairs (same opening, each side once), counted by pair score
//!   0, ½, 1, 1½, 2. Games of a pair are correlated through the opening, so the variance of the
//!   pair-average score is the right one for paired schedules; it is usually smaller than the
//!   trinomial variance divided by two, giving tighter (and honest) intervals.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};
use std::fmt;

/// `ln(10) / 400`: natural-log units per Elo point.
pub const NATURAL_PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// Expected score of a player rated `elo` points above its opponent (logistic Elo).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + (-elo * NATURAL_PER_ELO).exp())
}

/// Logistic Elo difference whose expected score is `score`; `score` must lie strictly in (0, 1)
/// for a finite answer (0 and 1 give ∓∞).
pub fn score_to_elo(score: f64) -> f64 {
    (score / (1.0 - score)).ln() / NATURAL_PER_ELO
}

/// The two-sided 95% standard-normal quantile (≈ 1.96).
pub fn z95() -> f64 {
    standard_normal().inverse_cdf(0.975)
}

/// Standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    standard_normal().cdf(x)
}

fn standard_normal() -> Normal {
    Normal::standard()
}

/// Win/draw/loss counts of single games, from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Counts from wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self { wins, draws, losses }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (win 1, draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same games seen from the opponent's side.
    pub fn flipped(&self) -> Self {
        Self::new(self.losses, self.draws, self.wins)
    }

    /// Frequencies of (loss, draw, win) with their per-game scores 0, ½, 1.
    pub(crate) fn outcomes(&self) -> [(f64, f64); 3] {
        [(0.0, self.losses as f64), (0.5, self.draws as f64), (1.0, self.wins as f64)]
    }

    /// Elo difference with a 95% interval from the trinomial per-game variance; `None` for no games.
    pub fn elo_interval(&self) -> Option<EloInterval> {
        EloInterval::from_outcomes(&self.outcomes(), self.games())
    }
}

impl fmt::Display for Trinomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// Counts of colour-swapped game pairs by pair score: `counts[k]` pairs scored `k / 2` points
/// (k = 0..=4, i.e. 0, ½, 1, 1½, 2), from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs per pair score 0, ½, 1, 1½, 2.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds one pair given the player's score in each of its two games (each 0, ½ or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        self.counts[pair_index(first, second)] += 1;
    }

    /// The same pairs seen from the opponent's side.
    pub fn flipped(&self) -> Self {
        let mut counts = self.counts;
        counts.reverse();
        Self { counts }
    }

    /// Frequencies of the per-game average pair scores 0, ¼, ½, ¾, 1.
    pub(crate) fn outcomes(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.counts[k] as f64))
    }

    /// Elo difference with a 95% interval from the pentanomial (per-pair) variance; `None` for
    /// no pairs.
    pub fn elo_interval(&self) -> Option<EloInterval> {
        EloInterval::from_outcomes(&self.outcomes(), 2 * self.pairs())
    }
}

/// Index 0..=4 of a pair with game scores `first` and `second` (each 0, ½ or 1; rounded).
pub(crate) fn pair_index(first: f64, second: f64) -> usize {
    (((first + second) * 2.0).round() as i64).clamp(0, 4) as usize
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// An Elo difference with its 95% interval, as a match summary prints it.
///
/// The interval is the normal interval on the mean score, `score ± 1.96·stderr`, mapped through
/// [`score_to_elo`] (so it is asymmetric in Elo). When that interval is degenerate (zero spread)
/// or reaches a perfect or zero score, the Wilson score interval over the games is used instead,
/// which gives a real one-sided bound for a perfect (or zero) score: 6 wins of 6 mean
/// `Elo > +77`. Scores are clamped to `[ε, 1 − ε]` with `ε = 1 / (2·games)` before mapping, so
/// the stored estimate and the open end stay finite (the result half a game away); [`Display`]
/// then prints only the bound. A near-perfect (or near-zero) score whose interval end reaches
/// the clamp is [`EloInterval::capped`]: that end is printed as open and the note says so.
///
/// LOS is `Φ((score − ½) / stderr)` with the interval's own spread: the normal interval's
/// standard error, or, where the Wilson interval replaces it, the score test's `½ / √games`, so
/// that LOS beyond 97.5% (or below 2.5%) means the interval excludes an even score, and never
/// otherwise.
///
/// [`Display`]: fmt::Display
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloInterval {
    /// Point estimate of the Elo difference.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lo95: f64,
    /// Upper end of the 95% interval.
    pub hi95: f64,
    /// Half-width `(hi95 − lo95) / 2`, printed as `±`.
    pub pm95: f64,
    /// Mean score per game.
    pub score: f64,
    /// Standard error of the mean score per game.
    pub score_stderr: f64,
    /// Likelihood of superiority: `Φ((score − ½) / stderr)`.
    pub los: f64,
    /// Games behind the estimate.
    pub games: u64,
    /// An end of the interval (or the estimate) reached the clamp at half a game from a perfect
    /// or zero score: that end is open, not a figure.
    #[serde(default)]
    pub capped: bool,
}

impl EloInterval {
    /// From outcome frequencies `(per-unit score, count)`; a unit is a game (trinomial) or a pair
    /// (pentanomial, score per game). `games` is the number of games behind them.
    fn from_outcomes(outcomes: &[(f64, f64)], games: u64) -> Option<Self> {
        let n: f64 = outcomes.iter().map(|&(_, c)| c).sum();
        if n <= 0.0 || games == 0 {
            return None;
        }
        let mean = outcomes.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
        let var = outcomes.iter().map(|&(x, c)| c * (x - mean) * (x - mean)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        let eps = 0.5 / games as f64;
        let to_elo = |s: f64| score_to_elo(s.clamp(eps, 1.0 - eps));
        // The normal interval, unless it is degenerate (no spread: every game or pair alike) or
        // runs past a perfect or zero score; then the Wilson interval of `games` games, which
        // stays inside (0, 1) and gives a real bound on the side the games say something about.
        let (mut s_lo, mut s_hi) = (mean - z95() * se, mean + z95() * se);
        let mut spread = se;
        if se <= 0.0 || s_lo <= 0.0 || s_hi >= 1.0 {
            (s_lo, s_hi) = wilson(mean, games as f64);
            spread = 0.5 / (games as f64).sqrt();
        }
        let capped = s_hi >= 1.0 - eps || s_lo <= eps;
        let (lo95, hi95) = (to_elo(s_lo), to_elo(s_hi));
        let los = if spread > 0.0 {
            normal_cdf((mean - 0.5) / spread)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(Self {
            elo: to_elo(mean),
            lo95,
            hi95,
            pm95: (hi95 - lo95) / 2.0,
            score: mean,
            score_stderr: se,
            los,
            games,
            capped,
        })
    }
}

/// The 95% Wilson score interval of a proportion `p` observed over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = z95() * z95();
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z95() / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl fmt::Display for EloInterval {
    /// `Elo +x ± y [lo, hi], …`; a perfect score shows only its lower bound (`Elo > +lo`), a zero
    /// score only its upper bound (`Elo < hi`): the point estimate would be infinite.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tail = format!("score {:.2}%, LOS {:.1}%, {} games", 100.0 * self.score, 100.0 * self.los, self.games);
        if self.score >= 1.0 {
            return write!(f, "Elo > {:+.1} (95% lower bound; perfect score), {tail}", self.lo95);
        }
        if self.score <= 0.0 {
            return write!(f, "Elo < {:+.1} (95% upper bound; zero score), {tail}", self.hi95);
        }
        if self.capped {
            // One end reached the clamp: print it open, not as a figure equal to the estimate.
            let (lo, hi) = if self.score > 0.5 {
                (format!("{:+.1}", self.lo95), "open".to_string())
            } else {
                ("open".to_string(), format!("{:+.1}", self.hi95))
            };
            let side = if self.score > 0.5 { "perfect" } else { "zero" };
            return write!(
                f,
                "Elo {:+.1} [{lo}, {hi}], {tail} (capped: the score is within half a game of a {side} one)",
                self.elo
            );
        }
        write!(f, "Elo {:+.1} ± {:.1} [{:+.1}, {:+.1}], {tail}", self.elo, self.pm95, self.lo95, self.hi95)
    }
}

/// A player's Elo on the scale of anchors whose Elo is fixed, from its results against them.
///
/// Maximum likelihood under the logistic model (a draw counts half a point, i.e. each game is a
/// binomial half-trial), with a 95% **likelihood-ratio** interval: every rating whose log
/// likelihood is within `3.84 / 2` of the maximum. Unlike a normal interval on the score, this
/// gives a real one-sided bound for a perfect or zero score: the estimate is then `None` and the
/// open side of the interval infinite. Ratings are searched in [`ANCHOR_RANGE`] on a 1-Elo grid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnchoredElo {
    /// The maximum-likelihood Elo (`None` when the likelihood keeps rising to the range's end).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval (`None`: below the range).
    pub lo95: Option<f64>,
    /// Upper end of the 95% interval (`None`: above the range).
    pub hi95: Option<f64>,
    /// Games behind it.
    pub games: f64,
}

/// The ratings [`anchored_elo`] searches, relative to the anchors' scale.
pub const ANCHOR_RANGE: (f64, f64) = (-3000.0, 5000.0);

/// The Elo of a player with `(anchor Elo, points, games)` against each anchor (see
/// [`AnchoredElo`]); `None` without a game.
pub fn anchored_elo(results: &[(f64, f64, f64)]) -> Option<AnchoredElo> {
    let games: f64 = results.iter().map(|r| r.2).sum();
    if games <= 0.0 {
        return None;
    }
    let loglik = |x: f64| -> f64 {
        results
            .iter()
            .map(|&(a, pts, n)| {
                let p = elo_to_score(x - a).clamp(1e-300, 1.0 - 1e-16);
                pts * p.ln() + (n - pts) * (1.0 - p).ln()
            })
            .sum()
    };
    let (lo, hi) = ANCHOR_RANGE;
    let grid: Vec<(f64, f64)> = (0..=((hi - lo) as usize)).map(|i| lo + i as f64).map(|x| (x, loglik(x))).collect();
    let (at, &(best_x, best_l)) = grid.iter().enumerate().max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))?;
    let cut = best_l - 3.841_458_820_694_124 / 2.0;
    let inside = |(_, l): &(f64, f64)| *l >= cut;
    let first = grid.iter().position(inside)?;
    let last = grid.iter().rposition(inside)?;
    let edge = |i: usize| i == 0 || i == grid.len() - 1;
    Some(AnchoredElo {
        elo: (!edge(at)).then_some(best_x),
        lo95: (first != 0).then_some(grid[first].0),
        hi95: (last != grid.len() - 1).then_some(grid[last].0),
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_and_elo_are_inverse() {
        for elo in [-800.0, -100.0, 0.0, 35.0, 400.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((z95() - 1.959964).abs() < 1e-5);
    }

    #[test]
    fn trinomial_interval_matches_hand_computation() {
        // 60 wins, 20 draws, 20 losses: mean 0.7, var = 0.6 + 0.05 - 0.49 = 0.16.
        let e = Trinomial::new(60, 20, 20).elo_interval().unwrap();
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!((e.score_stderr - (0.16f64 / 100.0).sqrt()).abs() < 1e-12);
        assert!((e.elo - score_to_elo(0.7)).abs() < 1e-9);
        assert!((e.hi95 - score_to_elo(0.7 + z95() * 0.04)).abs() < 1e-9);
        assert!(e.lo95 < e.elo && e.elo < e.hi95);
        assert!(e.los > 0.99);
    }

    #[test]
    fn pentanomial_uses_pair_variance() {
        // Every pair split 1-1 in wins: pair score 1 always, so zero variance, and the interval
        // falls back to Wilson's over the 100 games instead of a bogus ± 0.
        let p = Pentanomial { counts: [0, 0, 50, 0, 0] };
        let e = p.elo_interval().unwrap();
        assert_eq!(e.elo, 0.0);
        let (lo, hi) = wilson(0.5, 100.0);
        assert!((e.hi95 - score_to_elo(hi)).abs() < 1e-9 && (e.lo95 - score_to_elo(lo)).abs() < 1e-9);
        assert!(e.pm95 > 60.0 && e.pm95 < 75.0, "{e:?}");
        assert_eq!(e.los, 0.5);
        assert_eq!(e.games, 100);
        let mut q = Pentanomial::default();
        q.add_pair(1.0, 0.5);
        q.add_pair(0.0, 0.0);
        assert_eq!(q.counts, [1, 0, 0, 1, 0]);
        assert_eq!(q.flipped().counts, [0, 1, 0, 0, 1]);
    }

    #[test]
    fn perfect_scores_get_a_one_sided_bound() {
        // 6 losses of 6 (3 pairs lost 0-2): no "± 0.0", but an upper bound from Wilson's interval.
        let pairs = Pentanomial { counts: [3, 0, 0, 0, 0] };
        for e in [Trinomial::new(0, 0, 6).elo_interval().unwrap(), pairs.elo_interval().unwrap()] {
            let (_, hi) = wilson(0.0, 6.0);
            assert!((hi - 3.841_458_820_694_124 / (6.0 + 3.841_458_820_694_124)).abs() < 1e-6);
            assert!((e.hi95 - score_to_elo(hi)).abs() < 1e-9, "{e:?}");
            let text = e.to_string();
            assert!(text.starts_with("Elo < -77.") && text.contains("zero score"), "{text}");
            assert!(!text.contains('±'), "{text}");
        }
        let win = Trinomial::new(6, 0, 0).elo_interval().unwrap().to_string();
        assert!(win.starts_with("Elo > +77.") && win.contains("perfect score"), "{win}");
        // Near-perfect: 5.5 of 6 sits half a game from perfect, at the clamp: a real lower bound,
        // the top printed open rather than equal to the estimate.
        let e = Trinomial::new(5, 1, 0).elo_interval().unwrap();
        assert!(e.lo95 > 0.0 && e.lo95 < e.elo && e.capped, "{e:?}");
        assert!(e.to_string().starts_with(&format!("Elo {:+.1} [{:+.1}, open]", e.elo, e.lo95)), "{e}");
        // A clear but ordinary win has both ends.
        let e = Trinomial::new(30, 10, 10).elo_interval().unwrap();
        assert!(!e.capped && e.hi95 > e.elo && e.to_string().contains(" ± "), "{e:?}");
        // 199.5 of 200: the estimate and the top end both sit at the clamp; the top is printed open.
        let e = Trinomial::new(199, 1, 0).elo_interval().unwrap();
        assert!(e.capped && e.lo95 > 0.0, "{e:?}");
        let text = e.to_string();
        assert!(
            text.contains(", open]") && text.contains("capped: the score is within half a game of a perfect"),
            "{text}"
        );
        assert!(!text.contains('±'), "{text}");
        let text = Trinomial::new(0, 1, 199).elo_interval().unwrap().to_string();
        assert!(text.contains("[open, ") && text.contains("of a zero one"), "{text}");
    }

    #[test]
    fn los_agrees_with_the_interval() {
        // Two pairs of 1.5/2 each: no spread, so the Wilson interval over 4 games; it reaches
        // below an even score, and LOS must not claim certainty.
        let pairs = Pentanomial { counts: [0, 0, 0, 2, 0] };
        let e = pairs.elo_interval().unwrap();
        assert!(e.lo95 < 0.0, "{e:?}");
        assert!(e.los < 0.975 && e.los > 0.5, "{e:?}");
        // Where the interval excludes an even score, LOS is beyond 97.5%, and back.
        for (w, d, l) in [(30, 10, 10), (12, 0, 8), (100, 0, 0), (3, 0, 1), (40, 20, 40)] {
            let e = Trinomial::new(w, d, l).elo_interval().unwrap();
            assert_eq!(e.lo95 > 0.0, e.los > 0.975, "{w}/{d}/{l}: {e:?}");
        }
    }

    #[test]
    fn degenerate_counts_stay_finite() {
        assert!(Trinomial::default().elo_interval().is_none());
        assert!(Pentanomial::default().elo_interval().is_none());
        for t in [Trinomial::new(1, 0, 0), Trinomial::new(0, 0, 1), Trinomial::new(0, 7, 0), Trinomial::new(500, 0, 0)]
        {
            let e = t.elo_interval().unwrap();
            for v in [e.elo, e.lo95, e.hi95, e.pm95, e.los, e.score_stderr] {
                assert!(v.is_finite(), "{t}: {e:?}");
            }
        }
        assert!(Trinomial::new(500, 0, 0).elo_interval().unwrap().elo > 1000.0);
    }

    #[test]
    fn anchored_elo_finds_the_rating_and_bounds_perfect_scores() {
        // 75% against an anchor at 0 and 50% against one at 200: the MLE solves the score
        // equation Σ n·p(x − a) = Σ points.
        let r = [(0.0, 75.0, 100.0), (200.0, 50.0, 100.0)];
        let a = anchored_elo(&r).unwrap();
        let x = a.elo.unwrap();
        let expected: f64 = r.iter().map(|&(e, _, n)| n * elo_to_score(x - e)).sum();
        assert!((expected - 125.0).abs() < 0.2, "{x} {expected}");
        let (lo, hi) = (a.lo95.unwrap(), a.hi95.unwrap());
        assert!(lo < x && x < hi && hi - lo < 150.0 && hi - lo > 60.0, "{a:?}");
        // A perfect score: no estimate, a finite lower bound, no upper bound.
        let p = anchored_elo(&[(0.0, 10.0, 10.0)]).unwrap();
        assert_eq!((p.elo, p.hi95), (None, None));
        let lo = p.lo95.unwrap();
        // The bound is where 10 straight wins have likelihood e^(-1.92): p^10 = 0.1465.
        assert!((elo_to_score(lo).powi(10) - (-3.841_458_820_694_124f64 / 2.0).exp()).abs() < 0.01, "{lo}");
        assert!(anchored_elo(&[]).is_none());
    }
}
