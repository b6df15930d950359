use super::*;
use crate::eval::elo::elo_to_score;
use crate::eval::model::sigmoid;

const NAMES: [&str; 5] = ["a", "b", "c", "d", "e"];
/// True ratings, mean 0.
const TRUTH: [f64; 5] = [-180.0, -60.0, 10.0, 80.0, 150.0];

/// A paired round robin (each pair of games colour-swapped) drawn from the BayesElo model.
fn bayeselo_games(seed: u64, pairs_per_pairing: usize, drawelo: f64, adv: f64) -> Vec<RatedGame> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut games = Vec::new();
    let mut pair_id = 0;
    for i in 0..TRUTH.len() {
        for j in i + 1..TRUTH.len() {
            for _ in 0..pairs_per_pairing {
                for (w, b) in [(i, j), (j, i)] {
                    let s = (TRUTH[w] - TRUTH[b] + adv) * NATURAL_PER_ELO;
                    let theta = drawelo * NATURAL_PER_ELO;
                    let u: f64 = rng.gen();
                    let result = if u < sigmoid(s - theta) {
                        RatedResult::WhiteWins
                    } else if u < 1.0 - sigmoid(-s - theta) {
                        RatedResult::Draw
                    } else {
                        RatedResult::BlackWins
                    };
                    games.push(RatedGame { white: w, black: b, result, pair: Some(pair_id) });
                }
                pair_id += 1;
            }
        }
    }
    games
}

/// Games whose expected score is logistic in the rating difference, 35% draws when even.
fn logistic_games(seed: u64, pairs_per_pairing: usize, adv: f64) -> Vec<RatedGame> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut games = Vec::new();
    for i in 0..TRUTH.len() {
        for j in i + 1..TRUTH.len() {
            for k in 0..pairs_per_pairing {
                for (w, b) in [(i, j), (j, i)] {
                    let mu = elo_to_score(TRUTH[w] - TRUTH[b] + adv);
                    let draw = 0.35f64.min(2.0 * mu.min(1.0 - mu));
                    let u: f64 = rng.gen();
                    let result = if u < mu - draw / 2.0 {
                        RatedResult::WhiteWins
                    } else if u < mu + draw / 2.0 {
                        RatedResult::Draw
                    } else {
                        RatedResult::BlackWins
                    };
                    let pair = Some((i * 100 + j) as u64 * 10_000 + k as u64);
                    games.push(RatedGame { white: w, black: b, result, pair });
                }
            }
        }
    }
    games
}

fn contains_truth(report: &RatingReport, i: usize) -> bool {
    (report.players[i].elo - TRUTH[i]).abs() <= report.players[i].pm95
}

#[test]
fn bayeselo_recovers_ratings_draw_and_advantage() {
    let games = bayeselo_games(1, 150, 120.0, 30.0);
    let report = rate(&NAMES, &games, &FitConfig::default()).unwrap();
    assert_eq!(report.games, 3000);
    assert_eq!(report.pairs, 1500);
    for i in 0..5 {
        assert!(contains_truth(&report, i), "{report}");
        assert_eq!(report.players[i].rank, 5 - i);
        assert!(report.players[i].pm95 > 5.0 && report.players[i].pm95 < 40.0);
    }
    let (d, a) = (report.draw_elo.unwrap(), report.white_advantage.unwrap());
    assert!((d.value - 120.0).abs() < d.pm95, "{d:?}");
    assert!((a.value - 30.0).abs() < a.pm95, "{a:?}");
    assert!(report.los[4][0] > 0.999 && report.los[0][4] < 0.001);
    assert!((report.los[1][3] + report.los[3][1] - 1.0).abs() < 1e-12);
    let mean: f64 = report.players.iter().map(|p| p.elo).sum::<f64>() / 5.0;
    assert!(mean.abs() < 1e-9);
}

#[test]
fn hessian_intervals_have_nominal_coverage() {
    let (mut covered, mut total) = (0, 0);
    for seed in 0..40 {
        let games = bayeselo_games(100 + seed, 40, 100.0, 20.0);
        let report = rate(&NAMES, &games, &FitConfig::default()).unwrap();
        for i in 0..5 {
            covered += usize::from(contains_truth(&report, i));
            total += 1;
        }
    }
    let coverage = covered as f64 / total as f64;
    assert!(coverage >= 0.88, "coverage {coverage}");
}

#[test]
fn logistic_model_with_sandwich_has_nominal_coverage() {
    let (mut covered, mut total) = (0, 0);
    for seed in 0..40 {
        let games = logistic_games(500 + seed, 40, 25.0);
        let report = rate(&NAMES, &games, &FitConfig::logistic()).unwrap();
        assert!(report.draw_elo.is_none());
        for i in 0..5 {
            covered += usize::from(contains_truth(&report, i));
            total += 1;
        }
    }
    let coverage = covered as f64 / total as f64;
    assert!(coverage >= 0.88, "coverage {coverage}");
}

#[test]
fn bootstrap_agrees_with_the_hessian_interval() {
    let games = bayeselo_games(7, 60, 120.0, 30.0);
    let config = FitConfig { bootstrap: Some(Bootstrap { samples: 100, seed: 3 }), ..FitConfig::default() };
    let report = rate(&NAMES, &games, &config).unwrap();
    assert_eq!(report.bootstrap_samples, 100);
    for p in &report.players {
        let [lo, hi] = p.bootstrap95.unwrap();
        let ratio = (hi - lo) / (2.0 * p.pm95);
        assert!(lo < p.elo && p.elo < hi, "{p:?}");
        assert!((0.7..1.4).contains(&ratio), "{p:?}: ratio {ratio}");
    }
    let again = rate(&NAMES, &games, &config).unwrap();
    assert_eq!(report, again, "seeded bootstrap is reproducible");
    assert!(report.to_string().contains("bootstrap 95%"));
}

#[test]
fn crosstable_pairings_and_table() {
    let games = bayeselo_games(9, 20, 120.0, 30.0);
    let report = rate(&NAMES, &games, &FitConfig::default()).unwrap();
    assert_eq!(report.pairings.len(), 10);
    for p in &report.pairings {
        assert_eq!(p.trinomial, report.crosstable[p.a][p.b]);
        assert_eq!(p.trinomial.flipped(), report.crosstable[p.b][p.a]);
        assert_eq!(p.pentanomial.pairs(), 20);
        assert!(p.elo_pentanomial.is_some());
    }
    let e = &report.players[4];
    assert_eq!(e.games, 160);
    let table = report.to_string();
    assert!(table.starts_with("Rank  Name"));
    let first = table.lines().nth(1).unwrap();
    assert!(first.trim_start().starts_with("1  e"), "{table}");
    let cross = report.crosstable_text();
    assert_eq!(cross.lines().count(), 6);
    assert!(cross.lines().nth(1).unwrap().starts_with('e'), "{cross}");
    assert!(cross.contains("/40"), "{cross}");
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains("\"draw_elo\""));
}

#[test]
fn player_anchor_fixes_that_player() {
    let games = bayeselo_games(11, 20, 120.0, 0.0);
    let config = FitConfig { anchor: Anchor::Player(2), white_advantage: false, ..FitConfig::default() };
    let report = rate(&NAMES, &games, &config).unwrap();
    assert_eq!(report.players[2].elo, 0.0);
    assert!(report.players[2].pm95 < 1e-9);
    assert!(report.white_advantage.is_none());
    let mean = rate(&NAMES, &games, &FitConfig { anchor: Anchor::Mean, ..config }).unwrap();
    let shift = mean.players[2].elo;
    for i in 0..5 {
        assert!((report.players[i].elo - (mean.players[i].elo - shift)).abs() < 1e-6);
    }
}

fn assert_finite(report: &RatingReport) {
    let mut values: Vec<f64> = report.players.iter().flat_map(|p| [p.elo, p.pm95, p.score_pct, p.draw_pct]).collect();
    values.extend(report.los.iter().flatten());
    values.extend(report.covariance.iter().flatten());
    values.extend(report.draw_elo.iter().flat_map(|e| [e.value, e.pm95]));
    values.extend(report.white_advantage.iter().flat_map(|e| [e.value, e.pm95]));
    values.push(report.log_likelihood);
    assert!(values.iter().all(|v| v.is_finite()), "{report:?}");
    serde_json::to_string(report).unwrap();
}

fn game(white: usize, black: usize, result: RatedResult) -> RatedGame {
    RatedGame { white, black, result, pair: None }
}

#[test]
fn degenerate_inputs_stay_finite() {
    use RatedResult::*;
    let all_draws: Vec<RatedGame> = (0..20).map(|k| game(k % 2, 1 - k % 2, Draw)).collect();
    let one_game = vec![game(0, 1, WhiteWins)];
    let only_wins: Vec<RatedGame> = (0..30)
        .map(|k| {
            let other = 1 + k % 2;
            if k % 4 < 2 {
                game(0, other, WhiteWins)
            } else {
                game(other, 0, BlackWins)
            }
        })
        .chain((0..10).map(|k| game(1 + k % 2, 2 - k % 2, Draw)))
        .collect();
    let white_always_wins: Vec<RatedGame> = (0..10).map(|k| game(k % 2, 1 - k % 2, WhiteWins)).collect();
    for config in [FitConfig::default(), FitConfig::logistic()] {
        for (games, n) in [(&all_draws, 2), (&one_game, 2), (&only_wins, 3), (&white_always_wins, 2)] {
            let report = rate(&NAMES[..n], games, &config).unwrap();
            assert_finite(&report);
        }
        let draws = rate(&NAMES[..2], &all_draws, &config).unwrap();
        assert!(draws.players[0].elo.abs() < 1e-9);
        let wins = rate(&NAMES[..3], &only_wins, &config).unwrap();
        assert_eq!(wins.players[0].rank, 1);
        assert!(wins.players[0].elo > 100.0 && wins.players[0].elo < 2000.0);
        let single = rate(&NAMES[..1], &[], &config).unwrap();
        assert_finite(&single);
    }
}

#[test]
fn invalid_inputs_are_errors() {
    use RatedResult::*;
    let config = FitConfig::default();
    let none: [&str; 0] = [];
    assert_eq!(rate(&none, &[], &config), Err(RatingError::NoPlayers));
    assert!(matches!(
        rate(&NAMES[..2], &[game(0, 2, Draw)], &config),
        Err(RatingError::UnknownPlayer { player: 2, .. })
    ));
    assert!(matches!(rate(&NAMES[..2], &[game(1, 1, Draw)], &config), Err(RatingError::SelfGame { .. })));
    assert_eq!(rate(&NAMES[..3], &[game(0, 1, Draw)], &config), Err(RatingError::Disconnected(vec!["c".to_owned()])));
    let bad_prior = FitConfig { prior_draws: 0.0, ..config };
    assert!(rate(&NAMES[..2], &[game(0, 1, Draw)], &bad_prior).is_err());
    let bad_anchor = FitConfig { anchor: Anchor::Player(5), ..config };
    assert!(rate(&NAMES[..2], &[game(0, 1, Draw)], &bad_anchor).is_err());
}

#[test]
fn broken_pairs_count_as_single_games() {
    use RatedResult::*;
    let mut games = vec![game(0, 1, WhiteWins), game(1, 0, Draw), game(0, 1, Draw)];
    games[0].pair = Some(1);
    games[1].pair = Some(1);
    games[2].pair = Some(2);
    let report = rate(&NAMES[..2], &games, &FitConfig::default()).unwrap();
    assert_eq!((report.pairs, report.unpaired_games), (1, 1));
    assert_eq!(report.pairings[0].pentanomial.counts, [0, 0, 0, 1, 0]);
}
