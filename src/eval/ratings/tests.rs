use super::*;
use crate::eval::elo::elo_to_score;
use crate::eval::logistic::sigmoid;

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

/// Every figure of a report that the fit produces, in a fixed order.
fn figures(report: &RatingReport) -> Vec<f64> {
    let mut v: Vec<f64> = report.players.iter().flat_map(|p| [p.elo, p.pm95]).collect();
    v.extend(report.players.iter().flat_map(|p| p.bootstrap95.unwrap_or([f64::NAN; 2])));
    v.extend(report.draw_elo.iter().chain(&report.white_advantage).flat_map(|e| [e.value, e.pm95]));
    v.extend(report.covariance.iter().flatten());
    v.extend(report.los.iter().flatten());
    v.extend([report.log_likelihood, report.iterations as f64, report.bootstrap_samples as f64]);
    v
}

/// `got` equals `expected` to 1e-9 (relative to the larger of 1 and the expected value).
fn assert_pinned(got: &[f64], expected: &[f64]) {
    assert_eq!(got.len(), expected.len(), "got {got:?}");
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        let same = (g.is_nan() && e.is_nan()) || (g - e).abs() <= 1e-9 * e.abs().max(1.0);
        assert!(same, "figure {i}: {g:?} != {e:?}; all: {got:?}");
    }
}

/// Figures of the previous implementation (see the test that uses it).
const PINNED_BAYES: &[f64] = &[
    -173.3200955751302,
    83.26015775478743,
    -54.094297036095554,
    77.17283874325095,
    -36.59499474338928,
    74.14107216710421,
    76.24914744539619,
    73.8779153260074,
    187.76023990921888,
    83.95106711421714,
    -290.9402507171192,
    -92.85581221663558,
    -115.75036653452216,
    29.570258519991064,
    -89.21880243306103,
    20.44514515978195,
    16.466608284964792,
    183.85666855241652,
    99.77585306793355,
    275.90348234528085,
    121.34071893682989,
    37.88585647310705,
    35.94411690967174,
    61.86003293447154,
    1804.5888796224244,
    -362.0653267213251,
    -319.08658238036963,
    -479.53856008717895,
    -643.8984104335507,
    -362.0653267213251,
    1550.3607659695465,
    -340.7282697036102,
    -369.78281717439694,
    -477.7843523702145,
    -319.0865823803695,
    -340.7282697036103,
    1430.9403897487323,
    -314.81227075813996,
    -456.3132669066125,
    -479.5385600871788,
    -369.7828171743971,
    -314.81227075814,
    1420.8004374573788,
    -256.6667894376631,
    -643.8984104335507,
    -477.78435237021444,
    -456.31326690661257,
    -256.6667894376632,
    1834.6628191480409,
    0.5,
    0.030967367365784523,
    0.014018341633683535,
    5.714106156337041e-5,
    1.343945573319054e-7,
    0.9690326326342155,
    0.5,
    0.3862349667583712,
    0.016188152105623767,
    0.00012082022332417697,
    0.9859816583663165,
    0.6137650332416288,
    0.5,
    0.027905263843019425,
    0.00025937441160055023,
    0.9999428589384366,
    0.9838118478943763,
    0.9720947361569806,
    0.5,
    0.03465284623512307,
    0.9999998656054426,
    0.9998791797766758,
    0.9997406255883995,
    0.9653471537648769,
    0.5,
    -111.51832164298268,
    5.0,
    25.0,
];

/// Figures of the previous implementation (see the test that uses it).
const PINNED_LOGISTIC: &[f64] = &[
    -156.2830923694754,
    60.91770062963732,
    -56.85127790313106,
    73.57645640293278,
    -44.29691154409947,
    64.04378471700076,
    87.40718454978635,
    66.58432705605985,
    170.0240972669196,
    70.3396704790707,
    -244.78997112342824,
    -120.0803496667858,
    -102.15687284714434,
    7.620211565959664,
    -107.66628724234971,
    13.873843930955701,
    37.7677057511481,
    168.97359555360623,
    79.01149141618117,
    247.98591595153584,
    32.15967094511246,
    42.51018867925535,
    966.0304647835766,
    -273.362933075308,
    -93.13112155016813,
    -302.43086624392276,
    -297.1055439141777,
    -273.3629330753081,
    1409.2289386651519,
    -412.81096409785766,
    -320.7143766279807,
    -402.3406648640055,
    -93.13112155016778,
    -412.81096409785744,
    1067.721027954794,
    -252.11269318862736,
    -309.66624911814154,
    -302.4308662439225,
    -320.71437662798064,
    -252.11269318862682,
    1154.1117102765782,
    -278.8537742160482,
    -297.10554391417816,
    -402.34066486400593,
    -309.6662491181414,
    -278.85377421604744,
    1287.9662321123728,
    0.5,
    0.03292502132212681,
    0.008732558957902802,
    1.5188384390570474e-6,
    4.85162691745702e-10,
    0.9670749786778732,
    0.5,
    0.4135360015661623,
    0.005413163184087249,
    6.307239777406939e-5,
    0.9912674410420972,
    0.5864639984338377,
    0.5,
    0.005826144458534655,
    4.25893316531432e-5,
    0.999998481161561,
    0.9945868368159128,
    0.9941738555414653,
    0.5,
    0.065722832006353,
    0.9999999995148373,
    0.999936927602226,
    0.9999574106683469,
    0.934277167993647,
    0.5,
    -68.57935339195691,
    5.0,
    25.0,
];

#[test]
fn both_models_match_the_previous_implementation() {
    // A small fixed round robin, fitted by each model with a bootstrap. The expected figures were
    // computed by the previous implementation (before the logistic function, the logistic
    // observation terms and the positive-definite solves moved to `eval::logistic`).
    let bayes = FitConfig { bootstrap: Some(Bootstrap { samples: 25, seed: 3 }), ..FitConfig::default() };
    let logistic = FitConfig { bootstrap: Some(Bootstrap { samples: 25, seed: 3 }), ..FitConfig::logistic() };
    let b = rate(&NAMES, &bayeselo_games(7, 6, 100.0, 20.0), &bayes).unwrap();
    let l = rate(&NAMES, &logistic_games(7, 6, 20.0), &logistic).unwrap();
    assert_pinned(&figures(&b), PINNED_BAYES);
    assert_pinned(&figures(&l), PINNED_LOGISTIC);
}

#[test]
fn the_connected_group_is_the_largest_group_of_players_with_games() {
    use RatedResult::*;
    assert_eq!(connected_group(4, &[]), Vec::<usize>::new());
    // 0-1 and 2-3 apart: the lower group among equals; 3 players joined beat 2.
    assert_eq!(connected_group(5, &[game(0, 1, Draw), game(3, 2, WhiteWins)]), vec![0, 1]);
    assert_eq!(connected_group(5, &[game(0, 1, Draw), game(3, 2, WhiteWins), game(4, 3, Draw)]), vec![2, 3, 4]);
}
