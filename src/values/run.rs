//! The driver behind `fiveup values`: schedule the imbalance matches, play what is not yet played,
//! estimate by each method, feed the values back into the engine and repeat until they settle.
//!
//! Output folder layout (every file rewritten at the end; games appended as they finish):
//! - `values.toml`: the settings that fix the games (rule set, engine, imbalances, openings, ply
//!   cap, seed); the folder is claimed by it ([`crate::fsutil::claim_dir`]): a rerun with other
//!   such settings is refused naming the setting, and a non-empty folder without it is someone
//!   else's and refused;
//! - `iter-K/config.json`: the effective settings of iteration K (a resumed run must match them);
//! - `iter-K/games.jsonl`: its games ([`super::records`]); a restarted run skips games already there;
//! - `iter-K/weights.toml`: for K ≥ 1, the weights file the engine played with (values of K − 1);
//! - `iter-K/quota.json`: the pairs each match is to have (sequential allocation, below), written
//!   before a round is played, so a resumed run finishes the same round the same way;
//! - `values.txt`, `values.json`, `values.csv`, `values-summary.json`, `values.png`: the final report.
//!
//! **Sequential allocation** (`target`): games go where they narrow the widest intervals. Every
//! match starts with `pairs` pairs; after each round the imbalance fit is redone (delta-method
//! intervals, which are quick) and each piece whose interval is wider than ± `target` pawns has
//! its two matches nearest its current estimate grow by `round` pairs (up to `max_pairs`); when
//! the estimate has left the pawn counts played so far (a queen of 6.5 bracketed at 9 and 10
//! pawns), the two matches that bracket it join the schedule with `pairs` pairs, so that the
//! games go where the score is near 50% (`quota.json` keeps them for a resumed run). A match of
//! a piece against pieces and pawns (`R/BNP`) sits at the current estimates of those pieces plus
//! the pawns; a piece the schedule measures that way keeps its designed matches (no pawn brackets
//! join for it: a side's pawns may not reach it, and many pawns missing at once need not be
//! additive), and the two nearest grow. The pawn-odds matches grow too while β's own interval
//! is wider than ± 10% of β. Exchanges (checks) keep `pairs`. The run stops when every piece is
//! within the target or every match that would grow is at `max_pairs`; the report
//! then gives, for each piece still wider, the games its matches would need (from `1/√n`
//! shrinkage). A round is played pair-major, so a run stopped early has as many pairs of every
//! growing match.

use super::game::ValuesGame;
use super::imbalance::{estimate, PairResults};
use super::play::{pair_rng, shared_opening};
use super::records::{append_line, read_games, read_lines, GameLine, ReplayGame};
use super::regression::{by_phase, game_samples, regress, RegressionModel, SampleConfig};
use super::report::{IterationSummary, Row, ValuesReport, SIDE_A};
use super::setups::{bracket, Imbalance};
use super::ValuesError;
use crate::eval::elo::z95;
use crate::eval::openings::Opening;
use crate::eval::runner::{GameJob, PlayerSource};
use crate::game::Color;
use crate::player::spec::{AlphaBetaSpec, PlayerSpec};
use crate::rules::{Kind, Position};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

/// Which estimators to run: any of the imbalance matches, the outcome regression (material only)
/// and the Texel-style regression (material with the evaluation's positional part, on the same
/// games: [`super::regression::RegressionModel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Method {
    /// Imbalance matches.
    pub imbalance: bool,
    /// Outcome regression on material (on the matches' games and the given records).
    pub regression: bool,
    /// Texel-style regression (same games).
    pub texel: bool,
}

impl Method {
    /// All three.
    pub const ALL: Method = Method { imbalance: true, regression: true, texel: true };
}

impl std::str::FromStr for Method {
    type Err = ValuesError;
    /// `all`, `both` (imbalance and regression), or a comma-separated list of `imbalance`,
    /// `regression` and `texel`.
    fn from_str(s: &str) -> Result<Self, ValuesError> {
        let mut m = Method { imbalance: false, regression: false, texel: false };
        for part in s.split(',').map(str::trim) {
            match part {
                "all" => m = Method::ALL,
                "both" => (m.imbalance, m.regression) = (true, true),
                "imbalance" => m.imbalance = true,
                "regression" => m.regression = true,
                "texel" => m.texel = true,
                _ => return Err(ValuesError::Method(part.to_string())),
            }
        }
        Ok(m)
    }
}

/// Settings of a run of a game `G` (the 5x5x5 games by default).
#[derive(Clone, Debug)]
pub struct ValuesConfig<G: ValuesGame = Position> {
    /// Rules.
    pub rules: G::Rules,
    /// Estimators.
    pub method: Method,
    /// Colour-swapped pairs per imbalance (0: play nothing, use `records` only).
    pub pairs: usize,
    /// The engine both sides use.
    pub engine: PlayerSpec,
    /// Where the games are played (threads here, or workers through a store).
    pub executor: crate::eval::Executor,
    /// Most measure → feed-back iterations (1: measure once).
    pub iterate: usize,
    /// Stop iterating when no value moves more than this many pawns.
    pub tolerance: f64,
    /// Output folder.
    pub out: PathBuf,
    /// More games for the regression (`games.jsonl` stores, self-play shards).
    pub records: Vec<PathBuf>,
    /// The matches (calibration included).
    pub imbalances: Vec<Imbalance>,
    /// Random plies after the removal, shared by the two games of a pair.
    pub opening_plies: usize,
    /// Ply cap (adjudicated a draw).
    pub max_plies: u32,
    /// Seed of openings and bootstraps.
    pub seed: u64,
    /// Bootstrap replicates.
    pub bootstrap: usize,
    /// Regression sampling.
    pub sample: SampleConfig,
    /// Sequential allocation: keep adding pairs to the matches of every piece whose 95% interval
    /// is wider than ± this many pawns (`None`: play `pairs` of each match and stop).
    pub target: Option<f64>,
    /// Pairs added to each such match per round.
    pub round: usize,
    /// Most pairs of one match.
    pub max_pairs: usize,
}

/// The settings that make games of one iteration comparable (saved as `config.json`).
#[derive(Serialize, serde::Deserialize, PartialEq, Debug)]
struct IterConfig {
    variant: String,
    engine: String,
    opening_plies: usize,
    max_plies: u32,
    seed: u64,
}

fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> ValuesError + '_ {
    move |e| ValuesError::Io(path.display().to_string(), e)
}

/// Record tag of a values game naming its imbalance.
const IMBALANCE_TAG: &str = "Imbalance";
/// Record tag of a values game naming side A's colour.
const A_TAG: &str = "SideA";

/// A stable number for an imbalance (FNV-1a of its text), so openings do not depend on list order.
/// Its value must never change (a resumed run replays the same openings).
fn imbalance_id(imb: &Imbalance) -> usize {
    crate::fsutil::legacy::fnv1a32(imb.text().as_bytes()) as usize
}

/// Plays the missing games of one iteration into `dir/games.jsonl`; returns all its lines and the
/// number of games played now.
fn play_iteration<G: ValuesGame>(
    cfg: &ValuesConfig<G>,
    schedule: &[Imbalance],
    engine: &PlayerSpec,
    dir: &std::path::Path,
    quota: &BTreeMap<String, usize>,
) -> Result<(Vec<GameLine>, usize), ValuesError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let ic = IterConfig {
        variant: cfg.rules.to_string(),
        engine: engine.to_string(),
        opening_plies: cfg.opening_plies,
        max_plies: cfg.max_plies,
        seed: cfg.seed,
    };
    let cpath = dir.join("config.json");
    if let Ok(text) = std::fs::read_to_string(&cpath) {
        let old: IterConfig = serde_json::from_str(&text)
            .map_err(|e| ValuesError::Mismatch(cpath.display().to_string(), e.to_string()))?;
        if old != ic {
            return Err(ValuesError::Mismatch(cpath.display().to_string(), format!("{old:?}")));
        }
    }
    crate::fsutil::write_atomic(&cpath, serde_json::to_string_pretty(&ic).expect("serialises").as_bytes())
        .map_err(io(&cpath))?;
    let gpath = dir.join("games.jsonl");
    let mut lines = read_lines(&gpath)?;
    let done: HashSet<(String, usize, u8)> = lines.iter().map(|l| (l.imbalance.clone(), l.pair, l.game)).collect();
    // Rewrite without a torn tail before appending (atomically: a kill here loses no game).
    let mut kept = Vec::new();
    for l in &lines {
        append_line(&mut kept, l).map_err(io(&gpath))?;
    }
    crate::fsutil::write_atomic(&gpath, &kept).map_err(io(&gpath))?;
    let mut file = std::fs::OpenOptions::new().append(true).open(&gpath).map_err(io(&gpath))?;
    // 1. The schedule, drawn lazily (a huge --pairs holds no list of every game in memory).
    // Pair-major order: a run stopped early has the same number of pairs of every imbalance.
    let quotas: BTreeMap<String, usize> = schedule
        .iter()
        .map(|imb| imb.text())
        .map(|t| (t.clone(), quota.get(&t).copied().unwrap_or(cfg.pairs)))
        .collect();
    let most = quotas.values().copied().max().unwrap_or(0);
    let already = done.iter().filter(|(t, p, _)| quotas.get(t).is_some_and(|q| p < q)).count();
    let total = quotas.values().map(|q| 2 * q).sum::<usize>().saturating_sub(already);
    let quota_of: Vec<usize> = schedule.iter().map(|imb| quotas[&imb.text()]).collect();
    let failed: std::sync::Mutex<Option<super::setups::ImbalanceError>> = std::sync::Mutex::new(None);
    let adjudicate = G::material_adjudicator(CAP_MARGIN_PAWNS);
    let jobs = (0..most)
        .flat_map(|pair| {
            schedule.iter().zip(&quota_of).filter(move |(_, &q)| pair < q).map(move |(imb, _)| (pair, imb))
        })
        .take_while(|_| failed.lock().is_ok_and(|f| f.is_none()))
        .flat_map(|(pair, imb)| {
            let text = imb.text();
            let mut pair_jobs = Vec::new();
            if done.contains(&(text.clone(), pair, 0)) && done.contains(&(text.clone(), pair, 1)) {
                return pair_jobs;
            }
            let positions = G::imbalance_position(cfg.rules, imb, Color::White, pair)
                .and_then(|w| Ok((w, G::imbalance_position(cfg.rules, imb, Color::Black, pair)?)));
            let (mut a_white, mut a_black) = match positions {
                Ok(p) => p,
                Err(e) => {
                    if let Ok(mut f) = failed.lock() {
                        f.get_or_insert(e);
                    }
                    return pair_jobs;
                }
            };
            let mut rng = pair_rng(cfg.seed, imbalance_id(imb), pair);
            shared_opening(&mut a_white, &mut a_black, cfg.opening_plies, &mut rng);
            for (game, start) in [(0u8, a_white), (1u8, a_black)] {
                if done.contains(&(text.clone(), pair, game)) {
                    continue;
                }
                pair_jobs.push(GameJob {
                    live: None,
                    adjudicate: adjudicate.clone(),
                    tc: None,
                    white: PlayerSource::Spec(engine.clone()),
                    black: PlayerSource::Spec(engine.clone()),
                    opening: Opening { start, moves: Vec::new() },
                    max_plies: Some(cfg.max_plies as usize),
                    event: format!("values {text}"),
                    tags: vec![
                        ("Pair".to_string(), pair.to_string()),
                        (IMBALANCE_TAG.to_string(), text.clone()),
                        (A_TAG.to_string(), if game == 0 { "white" } else { "black" }.to_string()),
                    ],
                });
            }
            pair_jobs
        });
    // 2. Play, appending each game as it ends.
    let engine_text = engine.to_string();
    let progress = crate::progress::Progress::new(total as u64, "values games", "games");
    progress.resume_at(0);
    let mut finished = 0;
    let mut write_error = None;
    cfg.executor
        .play_until(jobs, |i, g| {
            let tag = |k: &str| g.tags.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
            let (Some(imb), Some(pair), Some(a)) =
                (tag(IMBALANCE_TAG), tag("Pair").and_then(|p| p.parse::<usize>().ok()), tag(A_TAG))
            else {
                write_error = Some(format!("game {i} lost its schedule tags"));
                return ControlFlow::Break(());
            };
            let a = if a == "white" { Color::White } else { Color::Black };
            let Some(outcome) = g.outcome else {
                write_error = Some(format!("game {i} of {imb} ended without a result"));
                return ControlFlow::Break(());
            };
            let line = GameLine::new(imb, pair, a, &engine_text, &g.start, &g.moves, outcome);
            if let Err(e) = append_line(&mut file, &line) {
                write_error = Some(format!("{}: {e}", gpath.display()));
                return ControlFlow::Break(());
            }
            lines.push(line);
            finished += 1;
            progress.inc(1);
            ControlFlow::Continue(())
        })
        .map_err(|e| ValuesError::Play(e.to_string()))?;
    progress.finish();
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e.into());
    }
    if let Some(e) = write_error {
        return Err(ValuesError::Play(e));
    }
    // Games finish in an order that depends on thread timing; the estimates (bootstraps
    // included) see them in a fixed order, so a rerun gives the same report.
    lines.sort_by(|x, y| (&x.imbalance, x.pair, x.game).cmp(&(&y.imbalance, y.pair, y.game)));
    Ok((lines, finished))
}

/// Plays one iteration's games with sequential allocation (module docs): rounds of
/// [`play_iteration`] until every piece is within `cfg.target` or no match may grow. Returns all
/// the iteration's games, the number played now and the schedule (`cfg.imbalances` plus the
/// brackets added on the way, which `quota.json` remembers).
fn play_allocated<G: ValuesGame>(
    cfg: &ValuesConfig<G>,
    engine: &PlayerSpec,
    dir: &std::path::Path,
) -> Result<(Vec<GameLine>, usize, Vec<Imbalance>), ValuesError> {
    let rs = cfg.rules;
    let qpath = dir.join("quota.json");
    let mut schedule = cfg.imbalances.clone();
    let mut quota: BTreeMap<String, usize> = schedule.iter().map(|i| (i.text(), cfg.pairs)).collect();
    // A resumed run first finishes the round it was in, with the same quotas; the brackets added
    // by an earlier run stay in the schedule (so that a report-only rerun sees their games).
    if let Ok(text) = std::fs::read_to_string(&qpath) {
        let bad = |e: String| ValuesError::Mismatch(qpath.display().to_string(), e);
        let saved: BTreeMap<String, usize> = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        for (t, q) in saved {
            if !quota.contains_key(&t) {
                schedule.push(Imbalance::parse_in::<G>(&t, rs).map_err(|e| bad(format!("{t}: {e}")))?);
                quota.insert(t.clone(), cfg.pairs);
            }
            if cfg.target.is_some() {
                let mine = quota.get_mut(&t).expect("inserted above");
                *mine = (*mine).max(q.min(cfg.max_pairs.max(cfg.pairs)));
            }
        }
    }
    let mut played = 0;
    loop {
        if cfg.target.is_some() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
            let text = serde_json::to_string_pretty(&quota).expect("serialises");
            crate::fsutil::write_atomic(&qpath, text.as_bytes()).map_err(io(&qpath))?;
        }
        let (lines, n) = play_iteration(cfg, &schedule, engine, dir, &quota)?;
        played += n;
        let Some(target) = cfg.target else { return Ok((lines, played, schedule)) };
        let results = pair_results(&schedule, &lines);
        let grow = widening(&results, target);
        let mut changed = false;
        // A wide piece grows the two matches that bracket its current estimate; when the estimate
        // has left the brackets played so far, the new brackets join the schedule.
        for &(kind, value) in &grow.pieces {
            let current = |k: Kind| grow.values.iter().find(|v| v.0 == k).map(|v| v.1);
            let nearest = matches_to_grow::<G>(rs, kind, value, current, &schedule);
            for imb in nearest {
                let text = imb.text();
                if !quota.contains_key(&text) {
                    tracing::info!(
                        "values: {} now brackets the {} (estimate {:.2})",
                        text,
                        G::kind_name(rs, kind),
                        value.unwrap_or(f64::NAN)
                    );
                    quota.insert(text.clone(), 0);
                    schedule.push(imb);
                }
                let have = results.iter().find(|r| r.imbalance.text() == text).map_or(0, |r| r.pairs.len());
                changed |= raise(cfg, quota.get_mut(&text).expect("inserted above"), have);
            }
        }
        if grow.calibration {
            for r in results.iter().filter(|r| r.imbalance.is_calibration()) {
                let q = quota.get_mut(&r.imbalance.text()).expect("every imbalance has a quota");
                changed |= raise(cfg, q, r.pairs.len());
            }
        }
        if !changed {
            return Ok((lines, played, schedule));
        }
        let wide: Vec<&str> = grow.pieces.iter().map(|k| G::kind_name(rs, k.0)).collect();
        tracing::info!("values: next round for {} (wider than ± {target} pawns)", wide.join(", "));
    }
}

/// The material lead, in pawns, that decides an imbalance game reaching the ply cap in a game
/// whose men seldom run out before it (Mixed 3D; the others draw there:
/// [`crate::eval::records::RecordGame::material_adjudicator`]). Wide enough that the value of the
/// measured piece itself seldom decides it.
pub const CAP_MARGIN_PAWNS: f64 = 3.0;

/// One more round for a match with quota `q` (0: new, it starts at `cfg.pairs`) that has `have`
/// complete pairs, capped at `cfg.max_pairs`; whether the quota rose.
fn raise<G: ValuesGame>(cfg: &ValuesConfig<G>, q: &mut usize, have: usize) -> bool {
    let next = if *q == 0 { cfg.pairs } else { (*q).max(have) + cfg.round }.min(cfg.max_pairs);
    let rose = next > *q;
    *q = (*q).max(next);
    rose
}

/// The matches of a wide piece that grow next. Each of its matches sits at a pawn count
/// ([`Imbalance::bracket_in_pawns`]: `N/PPP` at 3, `R/BNP` at the current bishop and knight plus
/// one). While its estimate `value` lies within a quarter pawn of the span of those, the two
/// nearest grow; once it has left them, a piece measured against pawns only gets the two pawn
/// matches that bracket it ([`bracket`], possibly new), while a piece the schedule measures
/// against pieces (a piece worth more than the pawns a side has) keeps its designed matches and
/// grows the two nearest; without an estimate, all of them grow. `values` gives the current
/// estimates of the other pieces.
fn matches_to_grow<G: ValuesGame>(
    rs: G::Rules,
    kind: Kind,
    value: Option<f64>,
    values: impl Fn(Kind) -> Option<f64>,
    schedule: &[Imbalance],
) -> Vec<Imbalance> {
    let mine: Vec<&Imbalance> = schedule.iter().filter(|i| i.measures() == Some(kind)).collect();
    let against_pieces = mine.iter().any(|i| i.piece_bracket().is_some());
    let mut placed: Vec<(f64, Imbalance)> = mine
        .iter()
        .filter_map(|i| i.bracket_in_pawns(&values).filter(|at| at.is_finite()).map(|at| (at, (*i).clone())))
        .collect();
    let Some(v) = value else { return mine.into_iter().cloned().collect() };
    let spans = placed.iter().any(|(at, _)| *at <= v + 0.25) && placed.iter().any(|(at, _)| *at >= v - 0.25);
    if !spans && !against_pieces {
        return bracket::<G>(rs, kind, v).to_vec();
    }
    if placed.is_empty() {
        return mine.into_iter().cloned().collect();
    }
    placed.sort_by(|a, b| (a.0 - v).abs().total_cmp(&(b.0 - v).abs()));
    placed.into_iter().take(2).map(|(_, i)| i).collect()
}

/// Games an estimate from `games` games would need for a 95% half-width of `target` pawns, by the
/// `1/√n` shrinkage of its interval; `None` when it is already there (or has no interval).
pub fn games_needed(e: &super::imbalance::Estimate, games: usize, target: f64) -> Option<usize> {
    let half = (e.hi95 - e.lo95) / 2.0;
    (half.is_finite() && half > target && target > 0.0)
        .then(|| (games as f64 * (half / target).powi(2)).ceil() as usize)
}

/// What the next round of sequential allocation grows.
struct Widening {
    /// Pieces whose interval is wider than the target (or that have no value yet), with their
    /// current estimate.
    pieces: Vec<(Kind, Option<f64>)>,
    /// The current estimate of every piece the fit measured (where the matches against pieces
    /// sit).
    values: Vec<(Kind, f64)>,
    /// Whether the pawn-odds matches grow too (β known to worse than ± 10%).
    calibration: bool,
}

/// The pieces over `target` by the quick (delta-method) fit; every piece when the fit fails.
fn widening(results: &[PairResults], target: f64) -> Widening {
    let mut all: Vec<(Kind, Option<f64>)> = Vec::new();
    for k in results.iter().filter_map(|r| r.imbalance.measures()) {
        if !all.iter().any(|p| p.0 == k) {
            all.push((k, None));
        }
    }
    match estimate(results, 0, 0) {
        Ok(r) => {
            let pieces: Vec<(Kind, Option<f64>)> = all
                .into_iter()
                .filter_map(|(k, _)| match r.values.iter().find(|v| v.kind == k) {
                    Some(v) if v.estimate.se.is_nan() || z95() * v.estimate.se > target => {
                        Some((k, Some(v.estimate.value).filter(|x| x.is_finite())))
                    }
                    Some(_) => None,
                    None => Some((k, None)),
                })
                .collect();
            let calibration = !pieces.is_empty() && z95() * r.beta_se > 0.1 * r.beta;
            let values =
                r.values.iter().filter(|v| v.estimate.value.is_finite()).map(|v| (v.kind, v.estimate.value)).collect();
            Widening { pieces, values, calibration }
        }
        Err(_) => Widening { pieces: all, values: Vec::new(), calibration: true },
    }
}

/// Complete pairs per imbalance of `schedule` from an iteration's games.
fn pair_results(schedule: &[Imbalance], lines: &[GameLine]) -> Vec<PairResults> {
    let mut by: BTreeMap<(String, usize), [Option<f64>; 2]> = BTreeMap::new();
    for l in lines {
        if let Some(s) = l.a_score() {
            by.entry((l.imbalance.clone(), l.pair)).or_default()[usize::from(l.game.min(1))] = Some(s);
        }
    }
    schedule
        .iter()
        .map(|imb| {
            let text = imb.text();
            let pairs = by
                .range((text.clone(), 0)..=(text.clone(), usize::MAX))
                .filter_map(|(_, v)| Some((v[0]?, v[1]?)))
                .collect();
            PairResults { imbalance: imb.clone(), pairs }
        })
        .collect()
}

/// The settings file of a values folder: what fixes its games (a rerun may add pairs, iterations,
/// records, but not change these).
pub const SETTINGS_FILE: &str = "values.toml";

/// The text of [`SETTINGS_FILE`] for `cfg`.
fn settings_text<G: ValuesGame>(cfg: &ValuesConfig<G>) -> String {
    let imbalances: Vec<String> = cfg.imbalances.iter().map(|i| i.text()).collect();
    format!(
        "# fiveup values settings (a rerun on this folder must keep them)\nruleset = {:?}\nengine = {:?}\nimbalances = {:?}\nopening_plies = {}\nmax_plies = {}\nseed = {}\n",
        cfg.rules.to_string(),
        cfg.engine.to_string(),
        imbalances.join(","),
        cfg.opening_plies,
        cfg.max_plies,
        cfg.seed
    )
}

/// Claims `cfg.out` ([`crate::fsutil::claim_dir`]): a new or empty folder, or one of a run with
/// the same settings. A folder of a run from before the settings file (it holds `iter-0` and no
/// settings file) is adopted: its games are checked against `iter-0/config.json` as they always were.
fn claim<G: ValuesGame>(cfg: &ValuesConfig<G>) -> Result<(), ValuesError> {
    let text = settings_text(cfg);
    let file = cfg.out.join(SETTINGS_FILE);
    if !file.exists() && cfg.out.join("iter-0/config.json").is_file() {
        crate::fsutil::write_atomic(&file, text.as_bytes()).map_err(io(&file))?;
    }
    crate::fsutil::claim_dir(&cfg.out, crate::fsutil::Claim { job: "a values run", file: SETTINGS_FILE }, &text)?;
    Ok(())
}

/// Runs the whole estimation (see the module docs) and writes the report into `cfg.out`.
pub fn run<G: ValuesGame>(cfg: &ValuesConfig<G>) -> Result<ValuesReport, ValuesError> {
    let t0 = Instant::now();
    claim(cfg)?;
    let rs = cfg.rules;
    let base = match &cfg.engine {
        PlayerSpec::AlphaBeta(ab) => ab.clone(),
        other if cfg.iterate > 1 => {
            return Err(ValuesError::Config(format!("--iterate needs an alpha-beta engine, not {other}")))
        }
        _ => AlphaBetaSpec::default(),
    };
    let mut weights = G::engine_weights(rs, &base).map_err(ValuesError::Config)?;
    let kinds = G::measured_kinds(rs);
    let mut extra: Vec<ReplayGame<G>> = Vec::new();
    for p in &cfg.records {
        extra.extend(read_games::<G>(p, rs)?);
    }
    let mut iterations: Vec<IterationSummary> = Vec::new();
    let mut report = ValuesReport {
        ruleset: G::rules_name(rs).to_string(),
        guess_source: G::guess_source(rs).to_string(),
        engine: cfg.engine.to_string(),
        rows: Vec::new(),
        imbalance: None,
        imbalance_error: None,
        regression: None,
        regression_error: None,
        texel: None,
        texel_error: None,
        phases: Vec::new(),
        iterations: Vec::new(),
        seconds: 0.0,
    };
    let mut previous: Option<BTreeMap<Kind, f64>> = None;
    for k in 0..cfg.iterate.max(1) {
        let dir = cfg.out.join(format!("iter-{k}"));
        let engine = iteration_engine(cfg, &base, &weights, k, &dir)?;
        eprintln!("iteration {k}: {} with {engine}; {SIDE_A}", G::rules_name(rs));
        let (lines, played, schedule) =
            if cfg.pairs > 0 { play_allocated(cfg, &engine, &dir)? } else { (Vec::new(), 0, cfg.imbalances.clone()) };
        report.engine = engine.to_string();
        estimate_imbalance(cfg, &mut report, &schedule, &lines, k);
        estimate_regressions(cfg, &mut report, &lines, &extra, &weights, &kinds, k)?;
        let measured = measured_values(&report);
        let max_change = previous
            .as_ref()
            .map(|p| measured.iter().filter_map(|(k, v)| p.get(k).map(|q| (v - q).abs())).fold(0.0, f64::max));
        let pawn_cp = G::weight_value(&weights, Kind::Pawn).max(1) as f64;
        for (&kind, &v) in &measured {
            if kind != Kind::Pawn && v.is_finite() {
                G::set_weight_value(&mut weights, kind, (v * pawn_cp).round().clamp(0.0, 10_000.0) as i32);
            }
        }
        iterations.push(IterationSummary {
            iteration: k,
            engine: engine.to_string(),
            values: measured.iter().map(|(k, v)| (G::kind_name(cfg.rules, *k).to_string(), *v)).collect(),
            max_change,
            games_played: played,
        });
        let settled = max_change.is_some_and(|c| c < cfg.tolerance);
        previous = Some(measured);
        if settled || cfg.pairs == 0 {
            break;
        }
    }
    report.rows = value_rows(cfg, &report, &kinds);
    report.iterations = iterations;
    report.seconds = t0.elapsed().as_secs_f64();
    if let Some(e) = report.write(&cfg.out).map_err(io(&cfg.out))? {
        eprintln!("warning: no plot: {e}");
    }
    Ok(report)
}

/// The engine of iteration `k`: the configured one first, then the base alpha-beta engine with the
/// values of the iteration before, written to `dir/weights.toml`.
fn iteration_engine<G: ValuesGame>(
    cfg: &ValuesConfig<G>,
    base: &AlphaBetaSpec,
    weights: &G::Weights,
    k: usize,
    dir: &std::path::Path,
) -> Result<PlayerSpec, ValuesError> {
    Ok(if k == 0 {
        cfg.engine.clone()
    } else {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let wpath = dir.join("weights.toml");
        crate::fsutil::write_atomic(&wpath, G::weights_toml(weights).as_bytes()).map_err(io(&wpath))?;
        PlayerSpec::AlphaBeta(AlphaBetaSpec { values: Some(wpath), ..base.clone() })
    })
}

/// The imbalance estimate of iteration `k` from its games `lines` over `schedule` (into `report`,
/// replacing the previous iteration's).
fn estimate_imbalance<G: ValuesGame>(
    cfg: &ValuesConfig<G>,
    report: &mut ValuesReport,
    schedule: &[Imbalance],
    lines: &[GameLine],
    k: usize,
) {
    report.imbalance = None;
    report.imbalance_error = None;
    if cfg.method.imbalance && cfg.pairs > 0 {
        match estimate(&pair_results(schedule, lines), cfg.bootstrap, cfg.seed ^ k as u64) {
            Ok(r) => report.imbalance = Some(r),
            Err(e) => report.imbalance_error = Some(e.to_string()),
        }
    }
}

/// The regressions of iteration `k` (into `report`, replacing the previous iteration's) on its games
/// `lines` plus the records' games `extra`; the Texel model's positional part is the evaluation of
/// the engine these games were played with (`weights`).
fn estimate_regressions<G: ValuesGame>(
    cfg: &ValuesConfig<G>,
    report: &mut ValuesReport,
    lines: &[GameLine],
    extra: &[ReplayGame<G>],
    weights: &G::Weights,
    kinds: &[Kind],
    k: usize,
) -> Result<(), ValuesError> {
    (report.regression, report.regression_error, report.texel, report.texel_error) = (None, None, None, None);
    report.phases = Vec::new();
    if cfg.method.regression || cfg.method.texel {
        let eval = cfg.method.texel.then_some(weights);
        let mut samples = Vec::new();
        let mut index = 0;
        for l in lines {
            let g = l.replay::<G>(cfg.rules).map_err(|e| ValuesError::Play(e.to_string()))?;
            samples.extend(game_samples(&g, index, cfg.sample, eval));
            index += 1;
        }
        for g in extra {
            samples.extend(game_samples(g, index, cfg.sample, eval));
            index += 1;
        }
        let seed = cfg.seed ^ 0xABCD ^ k as u64;
        if cfg.method.regression {
            match regress(&samples, kinds, cfg.bootstrap, seed, RegressionModel::Material) {
                Ok(r) => report.regression = Some(r),
                Err(e) => report.regression_error = Some(e.to_string()),
            }
            report.phases = by_phase(&samples, kinds, cfg.bootstrap, seed);
        }
        if cfg.method.texel {
            match regress(&samples, kinds, cfg.bootstrap, seed, RegressionModel::Texel) {
                Ok(r) => report.texel = Some(r),
                Err(e) => report.texel_error = Some(e.to_string()),
            }
        }
    }
    Ok(())
}

/// The values to feed back: the imbalance method's where it has them, else the regression's
/// (the pawn is 1).
fn measured_values(report: &ValuesReport) -> BTreeMap<Kind, f64> {
    let mut measured: BTreeMap<Kind, f64> = BTreeMap::new();
    if let Some(r) = &report.regression {
        for v in &r.values {
            measured.insert(v.kind, v.estimate.value);
        }
    }
    if let Some(r) = &report.imbalance {
        for v in &r.values {
            measured.insert(v.kind, v.estimate.value);
        }
    }
    measured.insert(Kind::Pawn, 1.0);
    measured
}

/// The report's table rows, one per measured kind: every method's estimate and, with a `target`,
/// the games each would need to reach it.
fn value_rows<G: ValuesGame>(cfg: &ValuesConfig<G>, report: &ValuesReport, kinds: &[Kind]) -> Vec<Row> {
    let rs = cfg.rules;
    kinds
        .iter()
        .map(|&kind| {
            let imb = report.imbalance.as_ref().and_then(|r| r.values.iter().find(|v| v.kind == kind));
            let reg = report.regression.as_ref().and_then(|r| r.values.iter().find(|v| v.kind == kind));
            let tex = report.texel.as_ref().and_then(|r| r.values.iter().find(|v| v.kind == kind));
            Row {
                kind: G::kind_name(rs, kind).to_string(),
                values_kind: kind,
                letter: G::kind_letter(rs, kind),
                guess: G::guess(rs, kind),
                imbalance: if kind == Kind::Pawn && report.imbalance.is_some() {
                    Some(super::imbalance::Estimate { value: 1.0, se: 0.0, lo95: 1.0, hi95: 1.0 })
                } else {
                    imb.map(|v| v.estimate)
                },
                imbalance_games: if kind == Kind::Pawn {
                    report.imbalance.as_ref().map_or(0, |r| r.calibration_games)
                } else {
                    imb.map_or(0, |v| v.games)
                },
                regression: reg.map(|v| v.estimate),
                imbalance_games_needed: cfg.target.and_then(|t| {
                    imb.and_then(|v| games_needed(&v.estimate, v.games, t)).filter(|_| kind != Kind::Pawn)
                }),
                regression_games_needed: cfg.target.and_then(|t| {
                    let r = report.regression.as_ref()?;
                    games_needed(&reg?.estimate, r.games, t)
                }),
                texel: tex.map(|v| v.estimate),
                texel_games_needed: cfg.target.and_then(|t| {
                    let r = report.texel.as_ref()?;
                    games_needed(&tex?.estimate, r.games, t)
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ruleset, Variant};

    #[test]
    fn wide_pieces_grow_the_matches_nearest_their_estimate() {
        let rs = Ruleset::FiveUp;
        let grow = |kind: Kind, value: Option<f64>, schedule: &[Imbalance]| {
            matches_to_grow::<Position>(Variant::plain(rs), kind, value, |_| None, schedule)
        };
        let parse = |t: &str| Imbalance::parse(t, rs).unwrap();
        let texts = |v: Vec<Imbalance>| v.iter().map(Imbalance::text).collect::<Vec<_>>();
        let schedule: Vec<Imbalance> =
            ["P", "PP", "Q/PPPPPPPPP", "Q/PPPPPPPPPP", "N/PPP", "N/PPPP", "N/PPPPP"].into_iter().map(parse).collect();
        // Inside the played pawn counts: the two nearest.
        assert_eq!(texts(grow(Kind::Knight, Some(4.4), &schedule)), ["N/PPPP", "N/PPPPP"]);
        assert_eq!(texts(grow(Kind::Knight, Some(2.8), &schedule)), ["N/PPP", "N/PPPP"]);
        // The queen came out at 6.5, far below its brackets of 9 and 10 pawns: new brackets.
        assert_eq!(texts(grow(Kind::Queen, Some(6.5), &schedule)), ["Q/PPPPPP", "Q/PPPPPPP"]);
        // No estimate yet: every match of the piece.
        assert_eq!(texts(grow(Kind::Knight, None, &schedule)).len(), 3);
    }

    #[test]
    fn pieces_measured_against_pieces_grow_their_own_matches() {
        let rs = Ruleset::FiveUp;
        let parse = |t: &str| Imbalance::parse(t, rs).unwrap();
        let texts = |v: Vec<Imbalance>| v.iter().map(Imbalance::text).collect::<Vec<_>>();
        let schedule: Vec<Imbalance> =
            ["P", "PP", "B/PPP", "B/PPPP", "R/BP", "R/BPP", "R/BPPP", "R/B"].into_iter().map(parse).collect();
        let bishop = |b: f64| move |k: Kind| (k == Kind::Bishop).then_some(b);
        let grow = |value: Option<f64>, b: f64| {
            texts(matches_to_grow::<Position>(Variant::plain(rs), Kind::Rook, value, bishop(b), &schedule))
        };
        // With a bishop of 3.6 the rook's matches sit at 4.6, 5.6 and 6.6: the two nearest grow.
        assert_eq!(grow(Some(5.5), 3.6), ["R/BPP", "R/BP"]);
        assert_eq!(grow(Some(6.4), 3.6), ["R/BPPP", "R/BPP"]);
        // With a bishop worth a pawn less the matches sit at 3.6, 4.6 and 5.6: a rook of 5.0 grows
        // other ones than with the bishop of 3.6.
        assert_eq!(grow(Some(5.0), 3.6), ["R/BP", "R/BPP"]);
        assert_eq!(grow(Some(5.0), 2.6), ["R/BPP", "R/BPPP"]);
        // Beyond every match: still its own matches, never pawn brackets; the exchange (a check)
        // never grows.
        assert_eq!(grow(Some(9.0), 3.6), ["R/BPPP", "R/BPP"]);
        // No usable bishop estimate: the matches cannot be placed, all of them grow.
        assert_eq!(grow(Some(6.4), f64::NAN).len(), 3);
        let unplaced = matches_to_grow::<Position>(Variant::plain(rs), Kind::Rook, Some(6.4), |_| None, &schedule);
        assert_eq!(texts(unplaced), ["R/BP", "R/BPP", "R/BPPP"]);
        // The bishop, measured against pawns, still gets new pawn brackets when it leaves its own.
        let b = matches_to_grow::<Position>(Variant::plain(rs), Kind::Bishop, Some(5.5), bishop(3.6), &schedule);
        assert_eq!(texts(b), ["B/PPPPP", "B/PPPPPP"]);
    }

    #[test]
    fn a_piece_measured_only_against_pieces_widens() {
        let rs = Ruleset::FiveUp;
        let parse = |t: &str| Imbalance::parse(t, rs).unwrap();
        // A's score per pair: the pawn-odds matches show a pawn; the rook's matches are wide.
        let results = |t: &str, pairs: Vec<(f64, f64)>| PairResults { imbalance: parse(t), pairs };
        let pattern =
            |wins: usize, n: usize| (0..n).map(|i| if i < wins { (1.0, 1.0) } else { (0.0, 0.0) }).collect::<Vec<_>>();
        let mixed = |n: usize| (0..n).map(|i| if i % 2 == 0 { (1.0, 0.0) } else { (0.0, 0.5) }).collect::<Vec<_>>();
        let r = vec![
            results("P", [pattern(9, 20), mixed(40)].concat()),
            results("PP", [pattern(7, 20), mixed(40)].concat()),
            results("B/PPP", mixed(60)),
            results("B/PPPP", [pattern(11, 20), mixed(40)].concat()),
            results("R/BP", [pattern(4, 10), mixed(10)].concat()),
            results("R/BPP", [pattern(6, 10), mixed(10)].concat()),
        ];
        let w = widening(&r, 0.25);
        assert!(w.pieces.iter().any(|p| p.0 == Kind::Rook), "the rook is wide and must grow: {:?}", w.pieces);
        assert!(w.values.iter().any(|v| v.0 == Kind::Bishop && v.1.is_finite()));
    }

    #[test]
    fn imbalance_ids_are_pinned() {
        // These seed the openings of every imbalance: a change would replay different games in a
        // resumed run. Values of FNV-1a 32 of the text, computed before the FNV copies were merged.
        for (text, id) in [("Q", 3_557_560_316usize), ("R/B", 3_103_354_692), ("PP", 1_090_527_757)] {
            let imb = Imbalance::parse(text, Ruleset::Raumschach).unwrap();
            assert_eq!(imb.text(), text);
            assert_eq!(imbalance_id(&imb), id, "{text}");
        }
    }
}
