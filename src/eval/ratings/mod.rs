//! Maximum-likelihood Elo ratings over all games of a tournament, with 95% intervals, likelihood
//! of superiority, a crosstable and pentanomial statistics per pairing.
//!
//! # Models
//! Ratings are reported in Elo (400 · log10 units); per-game derivatives live in the private
//! `model` module.
//! - [`RatingModel::BayesElo`] (default): Rémi Coulom's BayesElo model. A game between white `w` and
//!   black `b` has `s = r_w − r_b + adv`; white wins with probability `F(s − drawelo)`, black with
//!   `F(−s − drawelo)`, the rest is a draw, `F(x) = 1 / (1 + 10^(−x/400))`. The draw parameter
//!   `drawelo` and (optionally) the first-move advantage `adv` are fitted jointly with the ratings.
//!   The likelihood is the true one for W/D/L data, so the inverse Hessian is a valid covariance.
//!   Note the BayesElo scale is wider than logistic Elo when draws are common (a rating
//!   difference `d` gives an expected score a little below `F(d)`).
//! - [`RatingModel::Logistic`] (Ordo-style): expected score `F(s)`, a draw counting as half a win and
//!   half a loss; ratings are then on the same logistic scale as [`super::elo`] match summaries
//!   and SPRT bounds. Its likelihood is a quasi-likelihood (it ignores that draws lower the
//!   variance), so use it with [`Covariance::Sandwich`].
//!
//! # Prior
//! Pure maximum likelihood diverges for a player with only wins or only losses, and for `drawelo`
//! when every game (or none) is drawn. A weak prior of virtual draws, `prior_draws` per player
//! (default 2, like BayesElo), keeps every estimate finite; see the fitting code for the exact
//! terms. With thousands of games its effect is far below the interval widths.
//!
//! # Intervals
//! Ratings are fitted with player 0 held at 0 and then re-anchored ([`Anchor`]); the covariance is
//! transformed the same way, so the `±95%` of each player is the interval *relative to the anchor*
//! (the mean of all players by default). [`Covariance::Hessian`] uses the inverse observed
//! information; [`Covariance::Sandwich`] the robust `H⁻¹ J H⁻¹` with `J` summed over game pairs
//! (or single games), which also accounts for the correlation inside colour-swapped pairs. An
//! optional bootstrap resamples pairs (seeded) and reports percentile intervals.

use super::elo::{normal_cdf, z95, Pentanomial, Trinomial, NATURAL_PER_ELO};
use super::fit::{Problem, Solution};
use super::logistic::inverse_positive_definite;
use super::model::{RatedGame, RatedResult, RatingModel};
use nalgebra::{DMatrix, DVector};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use statrs::statistics::{Data, OrderStatistics};
use std::collections::HashMap;
use std::fmt;

/// How the ratings are pinned down (they are only defined up to a common shift).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    /// The mean rating of all players is 0.
    Mean,
    /// The player with this index is rated 0 (its interval is then ±0).
    Player(usize),
}

/// Where the rating covariance comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Covariance {
    /// Inverse of the observed information (negative Hessian) at the maximum.
    Hessian,
    /// Robust sandwich `H⁻¹ J H⁻¹`, `J` from per-cluster (pair or single game) scores.
    Sandwich,
}

/// A seeded bootstrap over game pairs (unpaired games resample singly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bootstrap {
    /// Number of resamples.
    pub samples: usize,
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
}

/// Settings of a rating fit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitConfig {
    /// Rating model.
    pub model: RatingModel,
    /// Whether to fit a first-move (white) advantage; otherwise it is 0.
    pub white_advantage: bool,
    /// Virtual draws per player of the prior (> 0; BayesElo's default is 2).
    pub prior_draws: f64,
    /// How ratings are anchored.
    pub anchor: Anchor,
    /// Source of the covariance.
    pub covariance: Covariance,
    /// Optional bootstrap percentile intervals.
    pub bootstrap: Option<Bootstrap>,
}

impl Default for FitConfig {
    /// BayesElo with first-move advantage, 2 virtual draws, mean 0, Hessian covariance.
    fn default() -> Self {
        Self {
            model: RatingModel::BayesElo,
            white_advantage: true,
            prior_draws: 2.0,
            anchor: Anchor::Mean,
            covariance: Covariance::Hessian,
            bootstrap: None,
        }
    }
}

impl FitConfig {
    /// The Ordo-style setting: logistic model with sandwich covariance, otherwise as default.
    pub fn logistic() -> Self {
        Self { model: RatingModel::Logistic, covariance: Covariance::Sandwich, ..Self::default() }
    }
}

/// Why a rating fit could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// The name list is empty.
    #[error("no players to rate")]
    NoPlayers,
    /// A game names a player index outside the name list.
    #[error("game {game}: player index {player} is out of range for {players} players")]
    UnknownPlayer {
        /// Index of the game.
        game: usize,
        /// The offending player index.
        player: usize,
        /// Number of players.
        players: usize,
    },
    /// A game has the same player on both sides.
    #[error("game {game}: player {player} plays itself")]
    SelfGame {
        /// Index of the game.
        game: usize,
        /// The player.
        player: usize,
    },
    /// Some players are not linked by games to the others, so their relative rating is undefined.
    #[error("players {0:?} are not connected by games to the other players")]
    Disconnected(Vec<String>),
    /// The anchor player index is out of range.
    #[error("anchor player {0} is out of range")]
    BadAnchor(usize),
    /// The prior weight is not positive and finite.
    #[error("prior_draws must be positive and finite, got {0}")]
    BadPrior(f64),
}

/// An estimate with its 95% half-width, in Elo.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Point estimate.
    pub value: f64,
    /// Half-width of the 95% interval.
    pub pm95: f64,
}

/// One player's line of the rating table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// Player name.
    pub name: String,
    /// Rank by rating, 1 = best.
    pub rank: usize,
    /// Rating relative to the anchor.
    pub elo: f64,
    /// Half-width of the 95% interval (normal, from the covariance).
    pub pm95: f64,
    /// Bootstrap 95% percentile interval `[lo, hi]`, when a bootstrap was run.
    pub bootstrap95: Option<[f64; 2]>,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
    /// Score in percent of games.
    pub score_pct: f64,
    /// Draws in percent of games.
    pub draw_pct: f64,
}

/// Head-to-head statistics of players `a < b`, from `a`'s point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingStats {
    /// First player (lower index).
    pub a: usize,
    /// Second player.
    pub b: usize,
    /// All games between them.
    pub trinomial: Trinomial,
    /// Their colour-swapped pairs.
    pub pentanomial: Pentanomial,
    /// Elo of `a` over `b` with the trinomial interval.
    pub elo_trinomial: Option<super::elo::EloInterval>,
    /// Elo of `a` over `b` with the pentanomial interval (when there are pairs).
    pub elo_pentanomial: Option<super::elo::EloInterval>,
}

/// The result of [`rate`]: JSON via serde, a terminal table via `Display`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingReport {
    /// The settings used.
    pub config: FitConfig,
    /// Players in input order.
    pub players: Vec<PlayerRating>,
    /// BayesElo draw parameter, if that model was fitted.
    pub draw_elo: Option<EloEstimate>,
    /// First-move advantage, if fitted.
    pub white_advantage: Option<EloEstimate>,
    /// Covariance of the anchored ratings (Elo²), input order.
    pub covariance: Vec<Vec<f64>>,
    /// `los[i][j]`: probability that player `i` is stronger than `j` (½ on the diagonal).
    pub los: Vec<Vec<f64>>,
    /// `crosstable[i][j]`: results of `i` against `j`, from `i`'s point of view.
    pub crosstable: Vec<Vec<Trinomial>>,
    /// Head-to-head statistics of every pair of players who met.
    pub pairings: Vec<PairingStats>,
    /// Number of games.
    pub games: usize,
    /// Number of valid colour-swapped pairs.
    pub pairs: usize,
    /// Games not in a valid pair (no pair id, or a pair id not shared by exactly one
    /// colour-swapped partner).
    pub unpaired_games: usize,
    /// Data log-likelihood at the maximum (natural log).
    pub log_likelihood: f64,
    /// Newton iterations used.
    pub iterations: usize,
    /// Bootstrap resamples actually fitted (resamples that left the players disconnected are
    /// skipped).
    pub bootstrap_samples: usize,
}

impl RatingReport {
    /// Player indices from best to worst.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| self.players[i].rank);
        order
    }

    /// The crosstable as aligned text, players in rank order: each cell is the row player's
    /// points / games against the column player.
    pub fn crosstable_text(&self) -> String {
        let order = self.ranking();
        let cell = |i: usize, j: usize| {
            let t = self.crosstable[i][j];
            if i == j || t.games() == 0 {
                "-".to_owned()
            } else {
                format!("{}/{}", t.points(), t.games())
            }
        };
        let name_width = self.players.iter().map(|p| p.name.chars().count()).max();
        let name_width = name_width.unwrap_or(0).max(4);
        let col_width = order
            .iter()
            .flat_map(|&i| order.iter().map(move |&j| (i, j)))
            .map(|(i, j)| cell(i, j).len())
            .chain(order.iter().map(|&i| self.players[i].name.chars().count()))
            .max()
            .unwrap_or(1);
        let mut out = format!("{:<name_width$}", "");
        for &j in &order {
            out += &format!("  {:>col_width$}", self.players[j].name);
        }
        out.push('\n');
        for &i in &order {
            out += &format!("{:<name_width$}", self.players[i].name);
            for &j in &order {
                out += &format!("  {:>col_width$}", cell(i, j));
            }
            out.push('\n');
        }
        out
    }
}

/// Fits ratings to `games` among the players `names` (indices into it) with `config`.
pub fn rate<S: AsRef<str>>(names: &[S], games: &[RatedGame], config: &FitConfig) -> Result<RatingReport, RatingError> {
    // 1. Validate the input and find the game clusters (pairs).
    let n = names.len();
    validate(names, games, config)?;
    let clusters = clusters(games);
    let pairs = clusters.iter().filter(|c| c.len() == 2).count();

    // 2. Fit and compute the parameter covariance.
    let all: Vec<&RatedGame> = games.iter().collect();
    let problem = Problem::new(n, &all, config.model, config.white_advantage, config.prior_draws);
    let solution = problem.maximize();
    let params_cov = match config.covariance {
        Covariance::Hessian => inverse_positive_definite(&solution.neg_hessian),
        Covariance::Sandwich => sandwich(&problem, &solution, games, &clusters),
    };

    // 3. Anchor ratings and covariance; derive intervals and LOS.
    let (elo, cov) = anchored(&problem, &solution.x, Some(&params_cov), n, config.anchor);
    let cov = cov.expect("covariance requested");
    let param_estimate = |i: Option<usize>| {
        i.map(|i| EloEstimate {
            value: solution.x[i] / NATURAL_PER_ELO,
            pm95: z95() * params_cov[(i, i)].max(0.0).sqrt() / NATURAL_PER_ELO,
        })
    };
    let los = los_matrix(&elo, &cov);

    // 4. Bootstrap percentile intervals.
    let (bootstrap, bootstrap_samples) = match config.bootstrap {
        Some(b) => bootstrap(n, games, &clusters, config, b),
        None => (None, 0),
    };

    // 5. Tables: crosstable, pairings, per-player lines.
    let crosstable = crosstable(n, games);
    let pairings = pairing_stats(&crosstable, games, &clusters);
    let players = player_lines(names, &elo, &cov, &crosstable, bootstrap);
    Ok(RatingReport {
        config: *config,
        players,
        draw_elo: param_estimate(problem.theta_index()),
        white_advantage: param_estimate(problem.advantage_index()),
        covariance: rows(&cov),
        los,
        crosstable,
        pairings,
        games: games.len(),
        pairs,
        unpaired_games: games.len() - 2 * pairs,
        log_likelihood: solution.log_likelihood,
        iterations: solution.iterations,
        bootstrap_samples,
    })
}

fn validate<S: AsRef<str>>(names: &[S], games: &[RatedGame], config: &FitConfig) -> Result<(), RatingError> {
    let n = names.len();
    if n == 0 {
        return Err(RatingError::NoPlayers);
    }
    if !(config.prior_draws > 0.0 && config.prior_draws.is_finite()) {
        return Err(RatingError::BadPrior(config.prior_draws));
    }
    if let Anchor::Player(p) = config.anchor {
        if p >= n {
            return Err(RatingError::BadAnchor(p));
        }
    }
    for (i, g) in games.iter().enumerate() {
        for player in [g.white, g.black] {
            if player >= n {
                return Err(RatingError::UnknownPlayer { game: i, player, players: n });
            }
        }
        if g.white == g.black {
            return Err(RatingError::SelfGame { game: i, player: g.white });
        }
    }
    let component = components(n, games.iter());
    if component.iter().any(|&c| c != component[0]) {
        let mut size = vec![0usize; n];
        component.iter().for_each(|&c| size[c] += 1);
        let largest = (0..n).max_by_key(|&c| (size[c], std::cmp::Reverse(c))).unwrap_or(0);
        let outside = (0..n).filter(|&p| component[p] != largest);
        return Err(RatingError::Disconnected(outside.map(|p| names[p].as_ref().to_owned()).collect()));
    }
    Ok(())
}

/// The players of the largest group connected by `games` among the players that have one
/// (between equal groups, the one of the lowest index), in index order: the players whose
/// ratings can be fitted together while a tournament is under way.
pub fn connected_group(n: usize, games: &[RatedGame]) -> Vec<usize> {
    let component = components(n, games.iter());
    let mut played = vec![false; n];
    for g in games {
        played[g.white] = true;
        played[g.black] = true;
    }
    let mut size = vec![0usize; n];
    (0..n).filter(|&p| played[p]).for_each(|p| size[component[p]] += 1);
    match (0..n).max_by_key(|&c| (size[c], std::cmp::Reverse(c))) {
        Some(c) if size[c] > 0 => (0..n).filter(|&p| played[p] && component[p] == c).collect(),
        _ => Vec::new(),
    }
}

/// Connected-component label (the smallest member's index) of every player.
fn components<'a>(n: usize, games: impl Iterator<Item = &'a RatedGame>) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for g in games {
        let (a, b) = (root(&mut parent, g.white), root(&mut parent, g.black));
        parent[a.max(b)] = a.min(b);
    }
    (0..n).map(|i| root(&mut parent, i)).collect()
}

/// Game indices grouped into valid colour-swapped pairs and single games.
fn clusters(games: &[RatedGame]) -> Vec<Vec<usize>> {
    let mut by_pair: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        match g.pair {
            Some(id) => by_pair.entry(id).or_default().push(i),
            None => out.push(vec![i]),
        }
    }
    let mut grouped: Vec<(u64, Vec<usize>)> = by_pair.into_iter().collect();
    grouped.sort_unstable_by_key(|(id, _)| *id);
    for (_, members) in grouped {
        let valid = members.len() == 2 && {
            let (x, y) = (&games[members[0]], &games[members[1]]);
            x.white == y.black && x.black == y.white
        };
        if valid {
            out.push(members);
        } else {
            out.extend(members.into_iter().map(|i| vec![i]));
        }
    }
    out
}

/// Robust covariance `H⁻¹ J H⁻¹ · C/(C−1)` with `J = Σ_clusters g_c g_cᵀ`.
fn sandwich(problem: &Problem, solution: &Solution, games: &[RatedGame], clusters: &[Vec<usize>]) -> DMatrix<f64> {
    let dim = problem.dim();
    let mut j = DMatrix::zeros(dim, dim);
    for cluster in clusters {
        let mut g = DVector::zeros(dim);
        for &i in cluster {
            g += problem.game_gradient(&solution.x, &games[i]);
        }
        j += &g * g.transpose();
    }
    let c = clusters.len() as f64;
    if c > 1.0 {
        j *= c / (c - 1.0);
    }
    let h_inv = inverse_positive_definite(&solution.neg_hessian);
    &h_inv * j * &h_inv
}

/// Anchored ratings (Elo) and, if given the parameter covariance, the anchored rating covariance.
fn anchored(
    problem: &Problem,
    x: &DVector<f64>,
    params_cov: Option<&DMatrix<f64>>,
    n: usize,
    anchor: Anchor,
) -> (Vec<f64>, Option<DMatrix<f64>>) {
    // Linear map from the n raw ratings (player 0 at 0) to the anchored ones.
    let map = match anchor {
        Anchor::Mean => DMatrix::identity(n, n) - DMatrix::from_element(n, n, 1.0 / n as f64),
        Anchor::Player(k) => {
            let mut m = DMatrix::identity(n, n);
            for i in 0..n {
                m[(i, k)] -= 1.0;
            }
            m
        }
    };
    let raw = DVector::from_fn(n, |p, _| problem.rating(x, p) / NATURAL_PER_ELO);
    let elo = (&map * raw).iter().copied().collect();
    let cov = params_cov.map(|pc| {
        let full = DMatrix::from_fn(n, n, |p, q| {
            if p == 0 || q == 0 {
                0.0
            } else {
                pc[(p - 1, q - 1)] / (NATURAL_PER_ELO * NATURAL_PER_ELO)
            }
        });
        &map * full * map.transpose()
    });
    (elo, cov)
}

/// `Φ((r_i − r_j) / sd(r_i − r_j))`; by sign when the difference has no variance.
fn los_matrix(elo: &[f64], cov: &DMatrix<f64>) -> Vec<Vec<f64>> {
    let n = elo.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let d = elo[i] - elo[j];
                    let var = cov[(i, i)] + cov[(j, j)] - 2.0 * cov[(i, j)];
                    if i == j {
                        0.5
                    } else if var > 1e-12 {
                        normal_cdf(d / var.sqrt())
                    } else {
                        0.5 + 0.5 * d.signum() * f64::from(u8::from(d != 0.0))
                    }
                })
                .collect()
        })
        .collect()
}

/// Percentile 95% intervals of the anchored ratings over seeded pair resamples.
fn bootstrap(
    n: usize,
    games: &[RatedGame],
    clusters: &[Vec<usize>],
    config: &FitConfig,
    settings: Bootstrap,
) -> (Option<Vec<[f64; 2]>>, usize) {
    if clusters.is_empty() || settings.samples == 0 {
        return (None, 0);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.samples); n];
    for _ in 0..settings.samples {
        let sample: Vec<&RatedGame> = (0..clusters.len())
            .flat_map(|_| clusters[rng.gen_range(0..clusters.len())].iter())
            .map(|&i| &games[i])
            .collect();
        if components(n, sample.iter().copied()).iter().any(|&c| c != 0) {
            continue;
        }
        let problem = Problem::new(n, &sample, config.model, config.white_advantage, config.prior_draws);
        let solution = problem.maximize();
        let (elo, _) = anchored(&problem, &solution.x, None, n, config.anchor);
        for (d, e) in draws.iter_mut().zip(elo) {
            d.push(e);
        }
    }
    let used = draws[0].len();
    if used == 0 {
        return (None, 0);
    }
    let intervals = draws
        .into_iter()
        .map(|d| {
            let mut data = Data::new(d);
            [data.quantile(0.025), data.quantile(0.975)]
        })
        .collect();
    (Some(intervals), used)
}

/// `table[i][j]`: results of `i` against `j` from `i`'s side.
pub fn crosstable(n: usize, games: &[RatedGame]) -> Vec<Vec<Trinomial>> {
    let mut table = vec![vec![Trinomial::default(); n]; n];
    for g in games {
        let (w, b) = (g.white, g.black);
        match g.result {
            RatedResult::WhiteWins => {
                table[w][b].wins += 1;
                table[b][w].losses += 1;
            }
            RatedResult::Draw => {
                table[w][b].draws += 1;
                table[b][w].draws += 1;
            }
            RatedResult::BlackWins => {
                table[w][b].losses += 1;
                table[b][w].wins += 1;
            }
        }
    }
    table
}

fn pairing_stats(crosstable: &[Vec<Trinomial>], games: &[RatedGame], clusters: &[Vec<usize>]) -> Vec<PairingStats> {
    let mut penta: HashMap<(usize, usize), Pentanomial> = HashMap::new();
    for cluster in clusters.iter().filter(|c| c.len() == 2) {
        let (x, y) = (&games[cluster[0]], &games[cluster[1]]);
        let a = x.white.min(x.black);
        let score_of_a = |g: &RatedGame| {
            let s = g.result.white_score();
            if g.white == a {
                s
            } else {
                1.0 - s
            }
        };
        let b = x.white.max(x.black);
        penta.entry((a, b)).or_default().add_pair(score_of_a(x), score_of_a(y));
    }
    let mut out = Vec::new();
    for (a, row) in crosstable.iter().enumerate() {
        for (b, &trinomial) in row.iter().enumerate().skip(a + 1) {
            if trinomial.games() == 0 {
                continue;
            }
            let pentanomial = penta.get(&(a, b)).copied().unwrap_or_default();
            out.push(PairingStats {
                a,
                b,
                trinomial,
                pentanomial,
                elo_trinomial: trinomial.elo_interval(),
                elo_pentanomial: pentanomial.elo_interval(),
            });
        }
    }
    out
}

fn player_lines<S: AsRef<str>>(
    names: &[S],
    elo: &[f64],
    cov: &DMatrix<f64>,
    crosstable: &[Vec<Trinomial>],
    bootstrap: Option<Vec<[f64; 2]>>,
) -> Vec<PlayerRating> {
    let n = names.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| elo[j].total_cmp(&elo[i]).then(i.cmp(&j)));
    let mut rank = vec![0; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r + 1;
    }
    (0..n)
        .map(|i| {
            let total = crosstable[i].iter().fold(Trinomial::default(), |t, x| {
                Trinomial::new(t.wins + x.wins, t.draws + x.draws, t.losses + x.losses)
            });
            let games = total.games();
            let pct = |v: f64| {
                if games == 0 {
                    0.0
                } else {
                    100.0 * v / games as f64
                }
            };
            PlayerRating {
                name: names[i].as_ref().to_owned(),
                rank: rank[i],
                elo: elo[i],
                pm95: z95() * cov[(i, i)].max(0.0).sqrt(),
                bootstrap95: bootstrap.as_ref().map(|b| b[i]),
                games,
                points: total.points(),
                score_pct: pct(total.points()),
                draw_pct: pct(total.draws as f64),
            }
        })
        .collect()
}

fn rows(m: &DMatrix<f64>) -> Vec<Vec<f64>> {
    (0..m.nrows()).map(|i| m.row(i).iter().copied().collect()).collect()
}

impl fmt::Display for RatingReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.players.iter().map(|p| p.name.chars().count()).max().unwrap_or(0).max(4);
        let boot = self.players.iter().any(|p| p.bootstrap95.is_some());
        write!(
            f,
            "{:>4}  {:<width$}  {:>8}  {:>6}  {:>6}  {:>6}  {:>6}",
            "Rank", "Name", "Elo", "±95%", "Games", "Score", "Draws"
        )?;
        if boot {
            write!(f, "  {:>20}", "bootstrap 95%")?;
        }
        writeln!(f)?;
        for i in self.ranking() {
            let p = &self.players[i];
            write!(
                f,
                "{:>4}  {:<width$}  {:>8.1}  {:>6.1}  {:>6}  {:>5.1}%  {:>5.1}%",
                p.rank, p.name, p.elo, p.pm95, p.games, p.score_pct, p.draw_pct
            )?;
            if let Some([lo, hi]) = p.bootstrap95 {
                write!(f, "  [{lo:>8.1}, {hi:>8.1}]")?;
            }
            writeln!(f)?;
        }
        write!(f, "model {:?}", self.config.model)?;
        if let Some(d) = self.draw_elo {
            write!(f, ", drawelo {:.1} ± {:.1}", d.value, d.pm95)?;
        }
        if let Some(a) = self.white_advantage {
            write!(f, ", white advantage {:.1} ± {:.1}", a.value, a.pm95)?;
        }
        let anchor = match self.config.anchor {
            Anchor::Mean => "mean 0".to_owned(),
            Anchor::Player(p) => format!("{} = 0", self.players[p].name),
        };
        writeln!(f, ", anchor {anchor}; {} games, {} pairs", self.games, self.pairs)
    }
}

#[cfg(test)]
mod tests;
