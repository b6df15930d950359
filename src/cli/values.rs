//! `fiveup values`: piece values from imbalance matches and outcome regression.

use super::common::{self, GameArgs, GameDefaults, RulesetArg};
use anyhow::{bail, Context, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::player::spec::{AlphaBetaSpec, PlayerSpec};
use fiveup::rules::Variant;
use fiveup::values::mixed3d::Mixed3dRules;
use fiveup::values::quasi_alice::QuasiAliceRules;
use fiveup::values::ValuesGame;
use std::io::Write;

/// Most `values --iterate` rounds.
const MAX_VALUES_ITERATIONS: usize = 100;
/// Most `values --opening-plies`.
const MAX_VALUES_OPENING_PLIES: usize = 100;
/// Most `values --bootstrap` replicates.
const MAX_BOOTSTRAP: usize = 1_000_000;

/// The game options' defaults of `values`: one game at once, seed 1 and a 300-ply cap, not
/// `match`'s all cores, seed 0 and 400 plies. Seed and cap are those docs/PIECE_VALUES.md's figures
/// were measured with, so that its commands rerun without them reproduce the figures; one game at
/// once because a values run lasts hours and should take every core only when asked.
const VALUES_GAMES: GameDefaults = GameDefaults { concurrency: Some(1), max_plies: 300, seed: 1 };

/// `fiveup values`.
#[derive(Args, Debug)]
#[command(
    mut_arg("concurrency", |a| a.help(
        "Games played at once, 1..=1024 [default: 1: a values run lasts hours and takes more cores only when asked]",
    )),
    mut_arg("max_plies", |a| a.help(
        "Ply cap, 1..=100000; a longer game is adjudicated a draw [default: 300, the cap docs/PIECE_VALUES.md's figures were measured with]",
    )),
    mut_arg("seed", |a| a.help(
        "Seed of the openings and the bootstraps [default: 1, the seed docs/PIECE_VALUES.md's figures were measured with]",
    )),
)]
pub struct ValuesArgs {
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Concurrency, ply cap, seed (defaults of their own, see their help).
    #[command(flatten)]
    pub game: GameArgs,
    /// Estimators: `all`, `both` (imbalance and regression) or a comma-separated list of
    /// `imbalance`, `regression` (outcome regression on material) and `texel` (the same with the
    /// evaluation's positional part as a covariate).
    #[arg(long, default_value = "all")]
    pub method: String,
    /// Colour-swapped game pairs per imbalance, 0..=5000000 (0: no games, regression on --records
    /// only). Side A lacks the pieces before the '/' and plays each colour once per pair.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub pairs: usize,
    /// Player spec of both sides [default: a fast node-limited alpha-beta engine, the game's
    /// calibrated setting (docs/PIECE_VALUES.md): ab:nodes=1700,hash=4 on the 5x5x5 games (about
    /// depth 2, the budget with the most precision per CPU second that is not a one-ply player),
    /// ab:nodes=1700,hash=4 on quasi-alice and on mixed3d].
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// Most measure-and-feed-back iterations, 1..=100 (1: measure once).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub iterate: usize,
    /// Stop iterating when no value moves more than this many pawns.
    #[arg(long, value_name = "PAWNS", default_value_t = 0.25)]
    pub tol: f64,
    /// Output folder (games, config, report); a rerun on the same folder resumes.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// More games for the regression: games.jsonl stores of earlier runs, self-play shards.
    #[arg(long, value_name = "FILES", num_args = 1..)]
    pub records: Vec<std::path::PathBuf>,
    /// Imbalances to play, comma-separated (default: the --design schedule), e.g.
    /// `P,PP,Q/PPPP,S/R`.
    #[arg(long, value_name = "LIST")]
    pub imbalances: Option<String>,
    /// The default schedule: `single` (P, PP and each piece alone) or `even` (P, PP and each
    /// piece against the two pawn counts that bracket its value in the engine, e.g. N/PPP and
    /// N/PPPP, plus the ruleset's exchange checks).
    #[arg(long, value_name = "NAME", default_value = "even")]
    pub design: String,
    /// Extra exchange imbalances added to the schedule, e.g. `S/R,W/G` (`none`: no exchanges).
    #[arg(long, value_name = "LIST")]
    pub exchanges: Option<String>,
    /// Sequential allocation: add pairs to the matches of each piece whose imbalance interval is
    /// wider than ± this many pawns (e.g. 0.25) until none is or --max-pairs is reached.
    #[arg(long, value_name = "PAWNS")]
    pub target: Option<f64>,
    /// Pairs added to each growing match per round of --target.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub round: usize,
    /// Most pairs of one match under --target.
    #[arg(long, value_name = "N", default_value_t = 4000)]
    pub max_pairs: usize,
    /// Random plies after the removal, shared by the two games of a pair (0..=100).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub opening_plies: usize,
    /// Bootstrap replicates for the intervals (0..=1000000).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub bootstrap: usize,
}

/// The engine of a values run when `--engine` is not given, per game (docs/PIECE_VALUES.md, "The
/// engine setting: calibration").
fn default_engine(game: GameId) -> &'static str {
    match game {
        GameId::FiveUp(_) => "ab:nodes=1700,hash=4",
        GameId::QuasiAlice | GameId::Mixed3d => "ab:nodes=1700,hash=4",
    }
}

impl ValuesArgs {
    /// The validated run settings of a game `G` under `rules` (`game` names it).
    pub fn config<G: ValuesGame>(&self, game: GameId, rules: G::Rules) -> Result<fiveup::values::ValuesConfig<G>> {
        use fiveup::values::setups::{default_imbalances, even_imbalances};
        use fiveup::values::Imbalance;
        let method = self.method.parse::<fiveup::values::Method>()?;
        let engine: PlayerSpec = self.engine.as_deref().unwrap_or(default_engine(game)).parse().context("--engine")?;
        G::build_player(&engine).context("--engine")?;
        use common::{bound, MAX_GAMES};
        bound("--iterate", self.iterate, 1, MAX_VALUES_ITERATIONS)?;
        bound("--pairs", self.pairs, 0, MAX_GAMES / 2)?;
        let max_plies = self.game.max_plies(VALUES_GAMES)? as u32;
        bound("--opening-plies", self.opening_plies, 0, MAX_VALUES_OPENING_PLIES)?;
        bound("--bootstrap", self.bootstrap, 0, MAX_BOOTSTRAP)?;
        if let Some(t) = self.target {
            if !(t.is_finite() && t > 0.0 && t <= 100.0) {
                bail!("--target must be a number of pawns above 0 and at most 100, not {t}");
            }
        }
        bound("--round", self.round, 1, MAX_GAMES / 2)?;
        bound("--max-pairs", self.max_pairs, 1, MAX_GAMES / 2)?;
        if self.target.is_some() && self.max_pairs < self.pairs {
            bail!("--max-pairs {} is below --pairs {}", self.max_pairs, self.pairs);
        }
        if !(self.tol.is_finite() && self.tol >= 0.0) {
            bail!("--tol must be a non-negative number of pawns");
        }
        if self.pairs == 0 && self.records.is_empty() {
            bail!("--pairs 0 needs --records");
        }
        let list = |s: &str, flag: &str| -> Result<Vec<Imbalance>> {
            s.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| Imbalance::parse_in::<G>(t, rules).with_context(|| flag.to_string()))
                .collect()
        };
        let even = match self.design.as_str() {
            "single" => false,
            "even" => true,
            other => bail!("unknown --design '{other}' (expected single or even)"),
        };
        let mut imbalances = match &self.imbalances {
            Some(s) => list(s, "--imbalances")?,
            None if even => {
                // Bracket the values the engine plays with (its --engine values= file, else the defaults).
                let ab = match &engine {
                    PlayerSpec::AlphaBeta(ab) => ab.clone(),
                    _ => AlphaBetaSpec::default(),
                };
                let weights = G::engine_weights(rules, &ab).map_err(anyhow::Error::msg).context("--engine values")?;
                let mut v = even_imbalances::<G>(rules, |k| G::weight_value(&weights, k) as f64 / 100.0);
                if self.exchanges.is_none() {
                    v.extend(G::default_exchanges(rules));
                }
                v
            }
            None => default_imbalances::<G>(rules),
        };
        if imbalances.is_empty() {
            bail!(
                "--imbalances {:?} names no imbalance (e.g. P,PP,Q/PPPP,S/R)",
                self.imbalances.as_deref().unwrap_or("")
            );
        }
        if let Some(s) = self.exchanges.as_ref().filter(|s| s.trim() != "none") {
            let extra = list(s, "--exchanges")?;
            if extra.is_empty() {
                bail!("--exchanges {s:?} names no exchange (e.g. S/R,W/G)");
            }
            imbalances.extend(extra);
        }
        for imb in &imbalances {
            for a in fiveup::game::Color::ALL {
                G::imbalance_position(rules, imb, a, 0).with_context(|| format!("imbalance {imb}"))?;
            }
        }
        Ok(fiveup::values::ValuesConfig {
            rules,
            method,
            pairs: self.pairs,
            engine,
            executor: self.game.executor(G::rules_name(rules), || self.game.concurrency(VALUES_GAMES))?,
            iterate: self.iterate,
            tolerance: self.tol,
            out: self.out.clone().unwrap_or_else(|| format!("runs/values-{}", G::rules_name(rules)).into()),
            records: self.records.clone(),
            imbalances,
            opening_plies: self.opening_plies,
            max_plies,
            seed: self.game.seed(VALUES_GAMES),
            bootstrap: self.bootstrap,
            sample: fiveup::values::SampleConfig::default(),
            target: self.target,
            round: self.round,
            max_pairs: self.max_pairs,
        })
    }
}

pub fn run(a: &ValuesArgs, out: &mut dyn Write) -> Result<()> {
    match a.ruleset.game()? {
        g @ GameId::FiveUp(rs) => run_game::<fiveup::rules::Position>(a, g, Variant::plain(rs), out),
        g @ GameId::QuasiAlice => run_game::<fiveup::quasi_alice::Position>(a, g, QuasiAliceRules, out),
        g @ GameId::Mixed3d => run_game::<fiveup::mixed3d::Position>(a, g, Mixed3dRules, out),
    }
}

/// `fiveup values` on one game.
fn run_game<G: ValuesGame>(a: &ValuesArgs, game: GameId, rules: G::Rules, out: &mut dyn Write) -> Result<()> {
    let cfg = a.config::<G>(game, rules)?;
    let report = fiveup::values::run(&cfg)?;
    common::finish(&cfg.executor, "the values run is over")?;
    write!(out, "{}", report.table())?;
    writeln!(out, "written: {}/values.{{txt,json,csv,png}} and values-summary.json", cfg.out.display())?;
    Ok(())
}
