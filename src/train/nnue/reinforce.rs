//! The reinforcement loop (`fiveup nnue loop`): data from the best engine so far, a network
//! trained on it, an SPRT against that engine, and the network published when it wins.
//!
//! Generation `k`:
//! 1. **Data**: `fiveup nnue datagen` into `gen-K/data` with the config's engine, evaluating with
//!    the last published network (before the first, the config's `start`: the hand evaluation by
//!    default, or a network), openings of seed `k`.
//! 2. **Training**: a fresh network on the data of the last `window` generations into
//!    `gen-K/train` (the trainer's run directory).
//! 3. **Gate**: an SPRT of the gate engine with the new network against the same engine with the
//!    last published evaluation (hand before the first), on random openings of seed `1000 + k`.
//!    The decision goes to `gen-K/gate.txt`; H1 accepted publishes the network as
//!    `nets/gen-K.nnue` (the latest published file is the loop's result); H0 or no decision
//!    within `max_games` leaves the previous one in place.
//!
//! `start = "nnue"` (the network shipped for the ruleset) or `start = "nnue:PATH"` continues from
//! a network instead of the hand evaluation: at the run's first start the network is checked and
//! copied to `nets/start.nnue`, and that copy is what generation 0 plays and is gated against
//! (so a resumed run does not depend on the original file, nor on a later binary's shipped
//! network).
//!
//! The run directory holds `loop.toml` (the config; a rerun must give the same one). Every step
//! resumes: datagen plays missing shards, training continues from its last epoch, a decided gate
//! is not replayed, an interrupted one goes on from the games in `gen-K/gate.pgn` (every game of
//! the gate, in the order they finished), a published network is kept. So the loop, killed
//! anywhere, continues when the same command is run again.

use super::data::load_data;
use super::datagen::{self, DatagenConfig, DatagenError};
use super::settings::{NnueSettings, TrainSection};
use super::train::{self, NnueTrainConfig, NnueTrainError};
use crate::engine::nnue::{shipped_file, ships, Network, NetworkFormatError};
use crate::eval::records::{read_records_resuming, RecordWriter, TextRecord};
use crate::eval::tournament::{game_key, job_key};
use crate::eval::{paired_jobs_lazy, play_games_until, Decision, MatchTally, OpeningSource, PlayerSource, SprtConfig};
use crate::fsutil::{claim_dir, Claim, ClaimError};
use crate::player::spec::{EvalChoice, PlayerSpec};
use crate::progress::Progress;
use crate::rules::{Position, Ruleset, Variant};
use crate::train::gate::{recorded_or_play, Gate, Undecided, Verdict};
use serde::Deserialize;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// A loop config (`configs/nnue-*.toml`); unknown keys are errors.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LoopConfig {
    /// Ruleset of every game and network.
    pub ruleset: String,
    /// Generations to run.
    pub generations: u32,
    /// What generation 0 starts from: `hand` (the default), `nnue` (the network shipped for the
    /// ruleset) or `nnue:PATH`.
    #[serde(default = "default_start")]
    pub start: String,
    /// Data generation.
    pub datagen: DatagenSection,
    /// Training: `window` and the trainer's settings ([`super::settings::NnueSettings`]; a key
    /// left out takes the default of `fiveup nnue train`).
    pub train: TrainSection,
    /// The SPRT gate.
    pub gate: GateSection,
}

/// `[datagen]`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DatagenSection {
    /// Games per generation.
    pub games: u64,
    /// The alpha-beta spec (a node budget); the loop sets its evaluation.
    pub engine: String,
    /// Random plies before the engine plays.
    #[serde(default = "default_opening_plies")]
    pub opening_plies: usize,
    /// Ply cap per game.
    #[serde(default = "default_max_plies")]
    pub max_plies: usize,
    /// Games per shard.
    #[serde(default = "default_games_per_shard")]
    pub games_per_shard: u64,
}

/// `[gate]`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GateSection {
    /// The alpha-beta spec both sides play (with a limit: `time=`, `nodes=` or `depth=`).
    pub engine: String,
    /// SPRT hypotheses (Elo of the new network over the published one).
    pub elo0: f64,
    /// See `elo0`.
    pub elo1: f64,
    /// Games after which an undecided test counts as not passed.
    pub max_games: usize,
    /// Random plies of the gate's openings.
    #[serde(default = "default_opening_plies")]
    pub opening_plies: usize,
}

impl GateSection {
    /// The gate's SPRT: `elo0`, `elo1` and the default error rates.
    fn sprt(&self) -> SprtConfig {
        SprtConfig::new(self.elo0, self.elo1)
    }
}

/// What the NNUE loop's gate decides when `max_games` are played without an SPRT decision: only a
/// network that passed the test is published.
const GATE_UNDECIDED: Undecided = Undecided::Reject;

fn default_opening_plies() -> usize {
    8
}
fn default_max_plies() -> usize {
    300
}
fn default_games_per_shard() -> u64 {
    50
}
fn default_start() -> String {
    "hand".into()
}

/// Where a loop starts ([`LoopConfig::start`]).
#[derive(Clone, Debug, PartialEq)]
enum Start {
    Hand,
    Shipped,
    File(PathBuf),
}

impl Start {
    fn parse(s: &str) -> Result<Start, LoopError> {
        match s.trim() {
            "hand" => Ok(Start::Hand),
            "nnue" => Ok(Start::Shipped),
            t => match t.strip_prefix("nnue:") {
                Some(path) if !path.is_empty() => Ok(Start::File(PathBuf::from(path))),
                _ => Err(LoopError::Start(s.to_string())),
            },
        }
    }
}

impl LoopConfig {
    /// Parses and checks a config's text; errors name `origin` and what is wrong, on one line.
    pub fn parse(text: &str, origin: &str) -> Result<LoopConfig, LoopError> {
        Ok(crate::tomlcfg::load_str(text, origin, &[])?)
    }

    fn ruleset(&self) -> Result<Ruleset, LoopError> {
        self.ruleset.trim().parse::<Ruleset>().map_err(LoopError::Ruleset)
    }

    /// The trainer's run of generation `k` (seeded with `k`).
    fn train_config(&self, k: u32) -> NnueTrainConfig {
        let settings = NnueSettings { seed: k as u64, ..self.train.settings.clone() };
        NnueTrainConfig { ruleset: self.ruleset().unwrap_or(Ruleset::FiveUp), settings }
    }
}

impl crate::tomlcfg::TomlConfig for LoopConfig {
    fn validate(&self) -> Result<(), crate::tomlcfg::ConfigError> {
        use crate::tomlcfg::{range, ConfigError};
        let invalid = |key: &str, message: String| ConfigError::Invalid { key: key.to_string(), message };
        let rs = self.ruleset().map_err(|e| invalid("ruleset", e.to_string()))?;
        if Start::parse(&self.start).map_err(|e| invalid("start", e.to_string()))? == Start::Shipped && !ships(rs) {
            let message = format!("start = \"nnue\": no network is shipped for {rs}; name one with nnue:PATH");
            return Err(invalid("start", message));
        }
        range("generations", self.generations, "1..=1000")?;
        range("train.window", self.train.window, "1..=100")?;
        self.train.settings.check().map_err(|e| invalid("train", format!("train: {e}")))?;
        let gate: PlayerSpec = self.gate.engine.parse().map_err(|e: crate::player::spec::SpecError| {
            invalid("gate.engine", format!("gate.engine: {}", e.reason))
        })?;
        if !matches!(gate, PlayerSpec::AlphaBeta(_)) {
            let message = format!("gate.engine = {:?}: expected an alpha-beta spec", self.gate.engine);
            return Err(invalid("gate.engine", message));
        }
        Gate::new(self.gate.sprt(), GATE_UNDECIDED).map_err(|e| invalid("gate", format!("gate: {e}")))?;
        range("gate.max_games", self.gate.max_games, "2..=1000000")
    }
}

/// An alpha-beta spec string with its evaluation replaced by `eval`.
fn with_eval(spec: &str, eval: &EvalChoice) -> Result<String, LoopError> {
    match spec.parse::<PlayerSpec>() {
        Ok(PlayerSpec::AlphaBeta(mut ab)) => {
            ab.eval = eval.clone();
            Ok(PlayerSpec::AlphaBeta(ab).to_string())
        }
        Ok(_) => Err(LoopError::NotAlphaBeta(spec.to_string())),
        Err(e) => Err(LoopError::Spec { spec: spec.to_string(), reason: e.reason }),
    }
}

/// The newest published network in `run`, if any.
pub fn published(run: &Path) -> Option<PathBuf> {
    published_before(run, u32::MAX)
}

/// The newest network published by a generation before `k` (what generation `k` starts from,
/// also when it is resumed after later generations published theirs).
fn published_before(run: &Path, k: u32) -> Option<PathBuf> {
    (0..k.min(1000)).rev().map(|g| run.join("nets").join(format!("gen-{g:03}.nnue"))).find(|p| p.exists())
}

/// Where a run keeps its copy of the start network.
fn start_path(run: &Path) -> PathBuf {
    run.join("nets").join("start.nnue")
}

/// The run's copy of its start network (`start = "nnue"` or `"nnue:PATH"`), once made.
pub fn start_network(run: &Path) -> Option<PathBuf> {
    Some(start_path(run)).filter(|p| p.exists())
}

/// Makes the run's copy of the config's start network, when it names one and there is no copy
/// yet: the network is read and checked first (a missing, corrupt or other-ruleset file is a
/// one-line error naming it). Returns the copy.
fn materialise_start(run: &Path, cfg: &LoopConfig) -> Result<Option<PathBuf>, LoopError> {
    let rs = cfg.ruleset()?;
    let bytes = match Start::parse(&cfg.start)? {
        Start::Hand => return Ok(None),
        _ if start_network(run).is_some() => return Ok(start_network(run)),
        Start::Shipped => shipped_file(rs).ok_or(LoopError::NotShipped(rs))?.to_vec(),
        Start::File(path) => {
            let bytes = std::fs::read(&path).map_err(|source| LoopError::StartFile { path: path.clone(), source })?;
            Network::from_bytes(&bytes, Some(rs))
                .map_err(|source| LoopError::StartNetwork { path: path.clone(), source })?;
            bytes
        }
    };
    let target = start_path(run);
    std::fs::create_dir_all(run.join("nets")).map_err(|source| LoopError::Io { path: run.to_path_buf(), source })?;
    crate::fsutil::write_atomic(&target, &bytes).map_err(|source| LoopError::Io { path: target.clone(), source })?;
    Ok(Some(target))
}

/// What happened in one generation.
#[derive(Clone, Debug, PartialEq)]
pub struct GenReport {
    /// The generation.
    pub generation: u32,
    /// Samples trained on.
    pub samples: usize,
    /// The network's last validation loss.
    pub valid_loss: f64,
    /// The gate's result line.
    pub gate: String,
    /// Whether the network was published.
    pub published: bool,
}

/// Why the loop failed; the text is the one line the command line prints.
#[derive(Debug, thiserror::Error)]
pub enum LoopError {
    /// The config cannot be read or is invalid.
    #[error(transparent)]
    Config(#[from] crate::tomlcfg::ConfigError),
    /// `start` names no start.
    #[error("start = {0:?}: expected hand, nnue or nnue:PATH")]
    Start(String),
    /// `ruleset` names no ruleset.
    #[error("ruleset: {0}")]
    Ruleset(#[source] crate::rules::types::UnknownRuleset),
    /// An engine spec is not a player spec.
    #[error("{spec}: {reason}")]
    Spec {
        /// The spec.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// An engine spec is not an alpha-beta spec.
    #[error("{0}: expected an alpha-beta spec")]
    NotAlphaBeta(String),
    /// `start = "nnue"` with no network shipped for the ruleset.
    #[error("start: no network is shipped for {0}")]
    NotShipped(Ruleset),
    /// The start network cannot be read.
    #[error("start: {}: {source}", .path.display())]
    StartFile {
        /// The network file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The start network cannot be used.
    #[error("start: {}: {source}", .path.display())]
    StartNetwork {
        /// The network file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: NetworkFormatError,
    },
    /// A file or directory could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The run directory holds another config, or someone else's files.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// A generation's data could not be made.
    #[error(transparent)]
    Datagen(#[from] DatagenError),
    /// A generation's network could not be trained.
    #[error(transparent)]
    Train(#[from] NnueTrainError),
    /// A generation's gate could not be played.
    #[error(transparent)]
    Gate(#[from] GateError),
}

/// Why a generation's gate could not be played; the text is the one line the command line prints.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// A side's spec, with its evaluation set, does not parse again.
    #[error("{}", .0.reason)]
    Spec(crate::player::spec::SpecError),
    /// A side cannot be built (its network cannot be read).
    #[error(transparent)]
    Build(#[from] crate::player::BuildError),
    /// The openings cannot be made.
    #[error(transparent)]
    Openings(#[from] crate::eval::openings::OpeningError),
    /// The SPRT's bounds are refused.
    #[error(transparent)]
    Sprt(#[from] crate::eval::SprtError),
    /// The gate's game records cannot be read or written.
    #[error(transparent)]
    Records(#[from] crate::eval::records::RecordFileError),
    /// A game could not be played.
    #[error(transparent)]
    Game(#[from] crate::eval::GameRunError),
}

/// Checks the run directory against the config (writing `loop.toml` when new).
pub fn prepare(run: &Path, cfg_text: &str) -> Result<(), LoopError> {
    claim_dir(run, Claim { job: "an nnue loop run", file: "loop.toml" }, cfg_text).map_err(LoopError::from)
}

/// Runs (or resumes) every generation; `threads` games or training threads at a time.
pub fn run(
    run: &Path,
    cfg: &LoopConfig,
    threads: usize,
    on_generation: &mut dyn FnMut(&GenReport),
) -> Result<Vec<GenReport>, LoopError> {
    let rs = cfg.ruleset()?;
    let variant = Variant::plain(rs);
    let mut reports = Vec::new();
    let start = materialise_start(run, cfg)?;
    for k in 0..cfg.generations {
        let gen = run.join(format!("gen-{k:03}"));
        let current = published_before(run, k).or_else(|| start.clone());
        let current_eval = current.clone().map_or(EvalChoice::Hand, EvalChoice::Nnue);
        // 1. Data from the best engine so far.
        let dg = DatagenConfig {
            engine: with_eval(&cfg.datagen.engine, &current_eval)?,
            variant,
            games: cfg.datagen.games,
            games_per_shard: cfg.datagen.games_per_shard,
            opening_plies: cfg.datagen.opening_plies,
            max_plies: cfg.datagen.max_plies,
            seed: k as u64,
        };
        let data = gen.join("data");
        std::fs::create_dir_all(&gen).map_err(|source| LoopError::Io { path: gen.clone(), source })?;
        let engine = datagen::prepare(&data, &dg)?;
        tracing::info!("generation {k}: data from {}", dg.engine);
        let bar = Progress::new(dg.games, &format!("generation {k} datagen"), "games");
        bar.resume_at(datagen::games_done(&data, &dg));
        datagen::run(&data, &dg, &engine, threads, &|g, _| bar.inc(g))?;
        bar.finish();
        // 2. A network on the newest generations' data.
        let first = (k + 1).saturating_sub(cfg.train.window);
        let dirs: Vec<PathBuf> = (first..=k).map(|g| run.join(format!("gen-{g:03}/data"))).collect();
        let (train_set, valid) = load_data(&dirs, rs, cfg.train.settings.king_buckets)?;
        let tc = cfg.train_config(k);
        let tdir = gen.join("train");
        train::prepare(&tdir, &tc)?;
        match epochs_logged(&tdir) {
            0 => tracing::info!("generation {k}: training on {} samples", train_set.len()),
            e if e >= tc.settings.epochs => tracing::info!("generation {k}: trained before ({e} epochs)"),
            e => tracing::info!("generation {k}: training on {} samples, resumed after epoch {e}", train_set.len()),
        }
        let mut valid_loss = f64::NAN;
        let bar = Progress::new(tc.settings.total_steps(train_set.len()), &format!("generation {k} training"), "steps");
        let net = train::train(&tdir, &tc, &train_set, &valid, &|done, _| bar.set_position(done), &mut |r| {
            valid_loss = r.valid_loss;
            bar.set_message(format!("epoch {} valid loss {:.5}", r.epoch, r.valid_loss));
        })?;
        bar.finish();
        if valid_loss.is_nan() {
            valid_loss = last_valid_loss(&tdir);
        }
        // 3. The gate.
        let gate = recorded_or_play(
            &gen.join("gate.txt"),
            |file| Ok(std::fs::read_to_string(file).ok().map(|text| text.trim().to_string())),
            || gate_match(cfg, variant, &net, &current_eval, k, threads, &gen.join("gate.pgn")),
            |line| format!("{line}\n"),
            |path, source| LoopError::Io { path: path.to_path_buf(), source },
        )?;
        let accepted = gate.starts_with("accepted");
        let target = run.join("nets").join(format!("gen-{k:03}.nnue"));
        if accepted && !target.exists() {
            let io = |path: &Path| {
                let path = path.to_path_buf();
                move |source| LoopError::Io { path, source }
            };
            std::fs::create_dir_all(run.join("nets")).map_err(io(run))?;
            let bytes = std::fs::read(&net).map_err(io(&net))?;
            crate::fsutil::write_atomic(&target, &bytes).map_err(io(&target))?;
        }
        let report = GenReport { generation: k, samples: train_set.len(), valid_loss, gate, published: accepted };
        on_generation(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// Epochs a training run's `log.csv` records (0 without one).
fn epochs_logged(dir: &Path) -> u32 {
    std::fs::read_to_string(dir.join("log.csv"))
        .map(|t| t.lines().skip(1).filter(|l| !l.trim().is_empty()).count() as u32)
        .unwrap_or(0)
}

/// The validation loss on the last line of a training run's `log.csv`.
fn last_valid_loss(dir: &Path) -> f64 {
    std::fs::read_to_string(dir.join("log.csv"))
        .ok()
        .and_then(|t| t.lines().last().and_then(|l| l.split(',').nth(2)).and_then(|v| v.parse().ok()))
        .unwrap_or(f64::NAN)
}

/// The SPRT of the gate engine with `net` against it with `baseline`; the result as one line
/// starting with `accepted` or `rejected`. Every finished game is appended to `games` (PGN-like
/// records); a rerun counts the games found there (a record cut short by a kill is dropped) and
/// plays only the others, so an interrupted gate resumes where it stopped.
fn gate_match(
    cfg: &LoopConfig,
    variant: Variant,
    net: &Path,
    baseline: &EvalChoice,
    k: u32,
    threads: usize,
    games: &Path,
) -> Result<String, LoopError> {
    let a: PlayerSpec =
        with_eval(&cfg.gate.engine, &EvalChoice::Nnue(net.to_path_buf()))?.parse().map_err(GateError::Spec)?;
    let b: PlayerSpec = with_eval(&cfg.gate.engine, baseline)?.parse().map_err(GateError::Spec)?;
    for p in [&a, &b] {
        p.build().map_err(GateError::from)?;
    }
    let (a, b): (PlayerSource, PlayerSource) = (a.into(), b.into());
    let (a_name, b_name) = (a.name(), b.name());
    let start = Position::startpos(variant);
    let source: OpeningSource = format!("random:{}", cfg.gate.opening_plies).parse().map_err(GateError::from)?;
    let openings = source.stream(&start, 1000 + k as u64).map_err(GateError::from)?;
    let mut gate = Gate::new(cfg.gate.sprt(), GATE_UNDECIDED).map_err(GateError::from)?;
    let mut tally = MatchTally::new();
    // Counts a game; breaks once the SPRT decides.
    let add = |tally: &mut MatchTally, gate: &mut Gate, r: &TextRecord| gate.add(tally.add(r.white == a_name, r));
    // 1. The games of an interrupted gate (of these two players; others are left alone).
    let ours = |r: &TextRecord| (r.white == a_name && r.black == b_name) || (r.white == b_name && r.black == a_name);
    let done: Vec<TextRecord> =
        read_records_resuming(games).map_err(GateError::from)?.into_iter().filter(|r| ours(r)).collect();
    let keys: HashSet<_> = done.iter().map(game_key).collect();
    let decided = done.iter().any(|r| add(&mut tally, &mut gate, r).is_break());
    let pairs = cfg.gate.max_games / 2;
    if !done.is_empty() {
        tracing::info!("generation {k}: gate resumed after {} games", done.len());
    }
    tracing::info!("generation {k}: gate SPRT [{}, {}]", cfg.gate.elo0, cfg.gate.elo1);
    // 2. The rest.
    if !decided {
        let jobs = paired_jobs_lazy(a, b, openings, pairs, Some(400), "nnue-gate")
            .filter(move |j| !keys.contains(&job_key(j)));
        let mut writer = RecordWriter::append(games).map_err(GateError::from)?;
        let mut write_error = None;
        let bar = Progress::new(2 * pairs as u64, &format!("generation {k} gate"), "games");
        bar.resume_at(done.len() as u64);
        play_games_until(jobs, threads, |_, r| {
            bar.inc(1);
            if let Err(e) = writer.write(&r) {
                write_error = Some(e);
                return ControlFlow::Break(());
            }
            let flow = add(&mut tally, &mut gate, &r);
            let s = gate.sprt().status();
            bar.set_message(format!("LLR {:.2} [{:.2}, {:.2}]", s.llr, s.lower, s.upper));
            flow
        })
        .map_err(GateError::from)?;
        bar.finish();
        if let Some(e) = write_error {
            return Err(GateError::from(e).into());
        }
    }
    Ok(verdict_line(&gate.verdict()))
}

/// The one line `gen-K/gate.txt` records: the verdict and why, then the SPRT's status.
fn verdict_line(v: &Verdict) -> String {
    let verdict = match (v.decision, v.accepted) {
        (Decision::AcceptH1, _) => "accepted (H1)",
        (Decision::AcceptH0, _) => "rejected (H0)",
        (Decision::Continue, true) => "accepted (undecided at max_games)",
        (Decision::Continue, false) => "rejected (undecided at max_games)",
    };
    format!("{verdict}: {}", v.status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::Dims;

    const TINY: &str = r#"
ruleset = "raumschach"
generations = 2
[datagen]
games = 8
engine = "ab:nodes=300,hash=1"
opening_plies = 4
max_plies = 60
games_per_shard = 4
[train]
window = 2
epochs = 2
batch = 64
lr = 0.003
lambda = 1.0
hidden = 16
l1 = 8
l2 = 8
[gate]
engine = "ab:nodes=200,hash=1"
elo0 = 0
elo1 = 400
max_games = 4
opening_plies = 4
"#;

    /// A random network of tiny dims for Raumschach, saved to `path`.
    fn tiny_net(path: &Path, seed: u64) {
        let dims = Dims { hidden: 16, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false };
        Network::random(Ruleset::Raumschach, dims, seed).save(path).unwrap();
    }

    #[test]
    fn the_shipped_configs_parse() {
        for (name, text) in [
            ("nnue-fiveup.toml", include_str!("../../../configs/nnue-fiveup.toml")),
            ("nnue-raumschach.toml", include_str!("../../../configs/nnue-raumschach.toml")),
            ("nnue-fiveup-continue.toml", include_str!("../../../configs/nnue-fiveup-continue.toml")),
        ] {
            let cfg = LoopConfig::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
            assert!(name.contains(&cfg.ruleset), "{name}");
        }
        // The loop that continues from the shipped network gates at equal nodes, which is fair
        // only between networks of one shape: it trains the shipped network's.
        let text = include_str!("../../../configs/nnue-fiveup-continue.toml");
        let dims = LoopConfig::parse(text, "c.toml").unwrap().train.settings.dims();
        assert_eq!(dims, crate::engine::nnue::shipped(Ruleset::FiveUp).unwrap().dims, "nnue-fiveup-continue.toml");
        // King buckets: 4 is a network the trainer makes, other counts a one-line error.
        let four = LoopConfig::parse(&TINY.replace("hidden = 16", "hidden = 16\nking_buckets = 4"), "k.toml").unwrap();
        assert_eq!(four.train.settings.dims().kings, 4);
        assert_eq!(LoopConfig::parse(TINY, "k.toml").unwrap().train.settings.dims().kings, 1);
        let e = LoopConfig::parse(&TINY.replace("hidden = 16", "hidden = 16\nking_buckets = 3"), "k.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("k.toml") && e.contains("3 king buckets: expected 1 (none) or 4"), "{e}");
        // Pairwise products: off by default, on by name, refused on a width they cannot split.
        assert!(!LoopConfig::parse(TINY, "p.toml").unwrap().train.settings.dims().pairwise);
        let on = LoopConfig::parse(&TINY.replace("hidden = 16", "hidden = 32\npairwise = true"), "p.toml").unwrap();
        assert!(on.train.settings.dims().pairwise);
        let e = LoopConfig::parse(&TINY.replace("hidden = 16", "hidden = 16\npairwise = true"), "p.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("p.toml") && e.contains("hidden width 16 with pairwise products"), "{e}");
    }

    #[test]
    fn a_loop_can_start_from_a_network_and_keeps_its_own_copy() {
        let t = tempfile::tempdir().unwrap();
        let net = t.path().join("start.nnue");
        tiny_net(&net, 5);
        let text = TINY
            .replace("generations = 2", &format!("generations = 1\nstart = \"nnue:{}\"", net.display()))
            .replace("elo1 = 400", "elo1 = 10");
        let cfg = LoopConfig::parse(&text, "start.toml").unwrap();
        let run_dir = t.path().join("run");
        prepare(&run_dir, &text).unwrap();
        let reports = run(&run_dir, &cfg, 2, &mut |_| {}).unwrap();
        // Generation 0 played with the run's copy of the start network and was gated against it.
        let copy = run_dir.join("nets/start.nnue");
        assert_eq!(start_network(&run_dir).as_deref(), Some(copy.as_path()));
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&net).unwrap());
        let settings = std::fs::read_to_string(run_dir.join("gen-000/data/datagen.toml")).unwrap();
        assert!(settings.contains("start.nnue"), "{settings}");
        assert!(reports[0].gate.starts_with("rejected (undecided"), "{}", reports[0].gate);
        // The original may go: a resumed run uses its copy.
        std::fs::remove_file(&net).unwrap();
        run(&run_dir, &cfg, 2, &mut |_| {}).unwrap();
        // Bad starts: one line naming what is wrong, before any work.
        let no_net = TINY.replace("raumschach", "fiveup-2001");
        let e = LoopConfig::parse(&no_net.replace("generations = 2", "generations = 2\nstart = \"nnue\""), "s.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("s.toml") && e.contains("no network is shipped for fiveup-2001"), "{e}");
        let e = LoopConfig::parse(&TINY.replace("generations = 2", "generations = 2\nstart = \"net\""), "s.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected hand, nnue or nnue:PATH"), "{e}");
        for (bytes, want) in
            [(None, "No such file"), (Some(b"FIVEUPNN".to_vec()), "start: "), (Some(vec![1, 2, 3]), "magic")]
        {
            let fresh = t.path().join(format!("fresh-{want}"));
            if let Some(b) = &bytes {
                std::fs::write(&net, b).unwrap();
            }
            let e = run(&fresh, &cfg, 2, &mut |_| {}).unwrap_err().to_string();
            assert!(e.contains(&net.display().to_string()) && e.contains(want) && !e.contains('\n'), "{e}");
            assert!(!fresh.join("gen-000").exists(), "{e}");
        }
    }

    /// The NNUE loop's gate decision on a fixed stream of pair scores (SPRT defaults for elo
    /// 0..50): the SPRT decision, accepted, games counted, and the start of the recorded line. An
    /// undecided test rejects.
    fn gate_decision(pairs: &[(f64, f64)], max_games: usize) -> (Decision, bool, u64) {
        let gate = GateSection { engine: "ab:nodes=200".into(), elo0: 0.0, elo1: 50.0, max_games, opening_plies: 4 };
        let stream = pairs.iter().copied().take(max_games / 2);
        let v = crate::train::gate::decide(gate.sprt(), GATE_UNDECIDED, stream).unwrap();
        let line = verdict_line(&v);
        let want = match v.decision {
            Decision::AcceptH1 => "accepted (H1): SPRT [0, 50]",
            Decision::AcceptH0 => "rejected (H0): SPRT [0, 50]",
            Decision::Continue => "rejected (undecided at max_games): SPRT [0, 50]",
        };
        assert!(line.starts_with(want), "{line}");
        (v.decision, v.accepted, v.games)
    }

    #[test]
    fn the_gate_decision_is_pinned() {
        let streams = crate::train::gate::tests::STREAMS;
        let got: Vec<_> = streams.iter().map(|(name, pairs)| (*name, gate_decision(pairs, 80))).collect();
        let want = vec![
            ("strong", (Decision::AcceptH1, true, 46)),
            ("weak", (Decision::AcceptH0, false, 40)),
            ("ahead", (Decision::Continue, false, 6)),
            ("even", (Decision::Continue, false, 6)),
            ("behind", (Decision::Continue, false, 6)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn an_interrupted_gate_goes_on_from_its_games() {
        let t = tempfile::tempdir().unwrap();
        let net = t.path().join("net.nnue");
        tiny_net(&net, 3);
        // Undecided within 8 games, so all are played.
        let text = TINY.replace("elo1 = 400", "elo1 = 10").replace("max_games = 4", "max_games = 8");
        let cfg = LoopConfig::parse(&text, "gate.toml").unwrap();
        let variant = Variant::plain(Ruleset::Raumschach);
        let gate = |file: &Path| gate_match(&cfg, variant, &net, &EvalChoice::Hand, 0, 1, file).unwrap();
        let whole = t.path().join("whole.pgn");
        let line = gate(&whole);
        assert!(line.starts_with("rejected (undecided"), "{line}");
        let games = crate::eval::records::read_records(&whole).unwrap();
        assert_eq!(games.len(), 8);
        // Killed after five games, in the middle of writing the sixth.
        let cut = t.path().join("cut.pgn");
        let mut text: String = games[..5].iter().map(|r| r.to_text()).collect();
        let sixth = games[5].to_text();
        text += &sixth[..sixth.len() / 2];
        std::fs::write(&cut, text).unwrap();
        assert_eq!(gate(&cut), line);
        let resumed = crate::eval::records::read_records(&cut).unwrap();
        let key = |r: &TextRecord| (game_key(r), r.moves.clone());
        assert_eq!(resumed.iter().map(key).collect::<Vec<_>>(), games.iter().map(key).collect::<Vec<_>>());
        // Run again after its last game, it plays nothing more.
        assert_eq!(gate(&cut), line);
        assert_eq!(crate::eval::records::read_records(&cut).unwrap().len(), 8);
    }

    #[test]
    fn a_tiny_loop_runs_gates_and_resumes() {
        let t = tempfile::tempdir().unwrap();
        let run_dir = t.path().join("run");
        let cfg = LoopConfig::parse(TINY, "tiny.toml").unwrap();
        prepare(&run_dir, TINY).unwrap();
        let reports = run(&run_dir, &cfg, 2, &mut |_| {}).unwrap();
        assert_eq!(reports.len(), 2);
        for (k, r) in reports.iter().enumerate() {
            assert!(r.samples > 0 && r.valid_loss.is_finite(), "{r:?}");
            assert!(r.gate.starts_with("accepted") || r.gate.starts_with("rejected"), "{}", r.gate);
            assert_eq!(r.published, run_dir.join(format!("nets/gen-{k:03}.nnue")).exists());
        }
        // Generation 1's data came from the engine with generation 0's network when it passed.
        let settings = std::fs::read_to_string(run_dir.join("gen-001/data/datagen.toml")).unwrap();
        assert_eq!(settings.contains("eval=nnue:"), reports[0].published, "{settings}");
        // A rerun finds everything done and changes nothing.
        let before = std::fs::read(run_dir.join("gen-001/train/net.nnue")).unwrap();
        let again = run(&run_dir, &cfg, 2, &mut |_| {}).unwrap();
        assert_eq!(
            again.iter().map(|r| &r.gate).collect::<Vec<_>>(),
            reports.iter().map(|r| &r.gate).collect::<Vec<_>>()
        );
        assert_eq!(std::fs::read(run_dir.join("gen-001/train/net.nnue")).unwrap(), before);
        // A published network is the next generation's evaluation: publish generation 0's by
        // hand (whatever its gate said) and let generation 1 be redone.
        std::fs::remove_dir_all(run_dir.join("gen-001")).unwrap();
        let _ = std::fs::remove_file(run_dir.join("nets/gen-001.nnue"));
        std::fs::create_dir_all(run_dir.join("nets")).unwrap();
        std::fs::copy(run_dir.join("gen-000/train/net.nnue"), run_dir.join("nets/gen-000.nnue")).unwrap();
        run(&run_dir, &cfg, 2, &mut |_| {}).unwrap();
        let settings = std::fs::read_to_string(run_dir.join("gen-001/data/datagen.toml")).unwrap();
        assert!(settings.contains("eval=nnue:") && settings.contains("gen-000.nnue"), "{settings}");
        // Another config on the same run, and config mistakes: one line each.
        let other = TINY.replace("generations = 2", "generations = 3");
        let e = prepare(&run_dir, &other).unwrap_err().to_string();
        assert!(e.contains("with generations = 2") && e.contains("asks for generations = 3"), "{e}");
        for (bad, want) in [
            (TINY.replace("window = 2", "windw = 2"), "windw"),
            (TINY.replace("ruleset = \"raumschach\"", "ruleset = \"chess\""), "ruleset"),
            (TINY.replace("engine = \"ab:nodes=200,hash=1\"", "engine = \"random\""), "gate.engine"),
            (TINY.replace("elo1 = 400", "elo1 = -5"), "gate"),
        ] {
            let e = LoopConfig::parse(&bad, "bad.toml").unwrap_err().to_string();
            assert!(e.contains("bad.toml") && e.contains(want) && !e.contains('\n'), "{want}: {e}");
        }
    }
}
