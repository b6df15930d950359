//! Command-line interface: clap types, their validation into library values, and the subcommands.
//! `anyhow` is used here and nowhere in the library.
//!
//! To add a subcommand: add a variant to [`Command`] with its own `Args` struct, flatten
//! [`PositionArgs`] into it when it works on a position, and dispatch it in [`run`]. The playing
//! subcommands live in their own files under `cli/`.

mod analyse;
mod common;
mod games;
mod matches;
mod play;
mod serve;
mod speed;
mod sprt;
mod tournament;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use fiveup::rules::game::Game;
use fiveup::rules::notation::{coordinate, diagram, figurine, format_line};
use fiveup::rules::perft::{divide, perft_parallel};
use fiveup::rules::{Position, Ruleset, Variant};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Five Up and Raumschach (5x5x5 3D chess).
#[derive(Parser, Debug)]
#[command(name = "fiveup", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree to a depth (perft).
    Perft(PerftArgs),
    /// List the legal moves of a position in coordinate and figurine form.
    Moves(PositionOnly),
    /// Show a position: diagram, position text and status.
    Show(PositionOnly),
    /// Play a move list (either notation, move numbers allowed), or a game of a records file, and
    /// show where it ends.
    Replay(ReplayArgs),
    /// Train a network from zero (or resume a run): self-play, training, evaluation, generation
    /// after generation, in one run directory. Rerun the same command to resume.
    Train(TrainArgs),
    /// An extra self-play worker for a run: plays with the run's best network and writes shards
    /// into its directory or object store (any number, on this machine or any other).
    Selfplay(SelfplayArgs),
    /// Inspect training runs (local or on an object store).
    #[command(subcommand)]
    Runs(RunsCommand),
    /// Measure piece values: imbalance matches and outcome regression, with 95% intervals.
    Values(ValuesArgs),
    /// Search a position with a player spec: one line per depth, then `bestmove`.
    Analyse(analyse::AnalyseArgs),
    /// Play a game against a player spec in the terminal (reads moves and commands from stdin).
    Play(play::PlayArgs),
    /// Play a match between two player specs in colour-swapped pairs; W/D/L and Elo.
    Match(matches::MatchArgs),
    /// Play a round robin or gauntlet (resumable) and rate the players.
    Tournament(tournament::TournamentArgs),
    /// Play pairs until a sequential probability ratio test decides whether A beats B.
    Sprt(sprt::SprtArgs),
    /// Speak the UCI-style protocol of docs/PROTOCOL.md on stdin/stdout (for match tools and
    /// graphical interfaces).
    Uci(UciArgs),
    /// Serve the web page (docs/WEB.md): play, analyse, replay and watch on a 3D board.
    Serve(serve::ServeArgs),
    /// Measure throughput.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Work with recorded games.
    #[command(subcommand)]
    Games(games::GamesCommand),
    /// The NNUE evaluator (issue 15): training data, training, the reinforcement loop.
    #[command(subcommand)]
    Nnue(NnueCommand),
}

/// `fiveup runs …`.
#[derive(Subcommand, Debug)]
pub enum RunsCommand {
    /// What a run holds: state, best network, each generation's shards and games by worker
    /// beside what the trainer counted, the workers' heartbeats; `--verify` reads every shard.
    Status(RunsStatusArgs),
    /// Measure every published network of a run on a held-out set: the run's own, or another
    /// (made when missing with the run's `[heldout]` settings and `--label`/`--positions`, from
    /// its engine's games or from `--games`).
    Heldout(RunsHeldoutArgs),
}

/// `fiveup runs heldout`.
#[derive(Args, Debug)]
pub struct RunsHeldoutArgs {
    /// The run directory (local).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    /// The held-out set (a shard): made when missing, else read. Default: the run's own
    /// `heldout.shard`.
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
    /// The deep search that labels a set made here, in place of `heldout.label` (an alpha-beta
    /// spec, e.g. `ab:nodes=40000,hash=8,eval=nnue`); an existing set must carry this label.
    #[arg(long, value_name = "SPEC")]
    pub label: Option<String>,
    /// Positions of a set made here, in place of `heldout.positions`.
    #[arg(long, value_name = "N")]
    pub positions: Option<u64>,
    /// Make the new set (`--set`) from these games instead of `heldout.engine`'s (repeatable):
    /// shards, or directories searched for shards, e.g. the self-play shards of another run, for
    /// positions like those a run trains on from games it never sees.
    #[arg(long, value_name = "PATH")]
    pub games: Vec<PathBuf>,
    /// Measure this player instead of the run's networks (repeatable): its move against the
    /// label's, its root WDL (MCTS: the value self-play records) and expected score as a
    /// network's value, e.g. the self-play search, to see how good a teacher it is.
    #[arg(long, value_name = "SPEC")]
    pub player: Vec<String>,
    /// Measure only the first N positions of the set.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Print one JSON object per generation (or player) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `fiveup runs status`.
#[derive(Args, Debug)]
pub struct RunsStatusArgs {
    /// The run: its directory or object-store URL.
    #[arg(long, value_name = "DIR|URL")]
    pub run: String,
    /// Read every shard whole and check the trainer's counts against them (exit 1 on a problem).
    #[arg(long)]
    pub verify: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `fiveup nnue …`.
#[derive(Subcommand, Debug)]
pub enum NnueCommand {
    /// Play the engine against itself from random openings on every core and write (position,
    /// score, result) training samples into a directory (resumable: rerun the same command).
    Datagen(DatagenArgs),
    /// Train a network on datagen samples in libtorch, exporting it quantized after every epoch
    /// (resumable: rerun the same command).
    Train(NnueTrainArgs),
    /// The reinforcement loop of a config: data from the best engine so far, a network trained
    /// on it, an SPRT gate, publication (resumable: rerun the same command).
    Loop(NnueLoopArgs),
}

/// `fiveup nnue loop`.
#[derive(Args, Debug)]
pub struct NnueLoopArgs {
    /// The loop config (TOML, e.g. configs/nnue-fiveup.toml).
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Run directory (created; a rerun with the same config resumes it).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    /// Games (and training threads) at once, 1..=1024 (default: all cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
}

/// `fiveup nnue train`.
#[derive(Args, Debug)]
pub struct NnueTrainArgs {
    /// Data directories of `fiveup nnue datagen` (repeatable; every `*.shard` in each).
    #[arg(long, value_name = "DIR", required = true)]
    pub data: Vec<PathBuf>,
    /// Run directory (created; a rerun with the same settings resumes it).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Passes over the training samples, 1..=10000.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub epochs: u32,
    /// Samples per step.
    #[arg(long, value_name = "B", default_value_t = 8192)]
    pub batch: usize,
    /// Peak learning rate (cosine to 1% of it).
    #[arg(long, value_name = "LR", default_value_t = 1e-3)]
    pub lr: f64,
    /// Weight of the search score in the target, 0..=1 (the rest is the game result).
    #[arg(long, value_name = "L", default_value_t = 0.75)]
    pub lambda: f32,
    /// Accumulator width per perspective (a multiple of 16).
    #[arg(long, value_name = "H", default_value_t = 256)]
    pub hidden: usize,
    /// First dense layer's width.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub l1: usize,
    /// Second dense layer's width.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub l2: usize,
    /// Output buckets, 1..=16: the dense layers once per bucket, a position evaluated by the
    /// stack of its bucket by the men on the board (1 is the plain network).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub buckets: usize,
    /// King buckets, 1 or 4: every input once per region of its side's king (start cell, rest
    /// of the back ranks of the two home levels, rest of the three home levels, far levels),
    /// with a factorizer in training (1 is the plain network).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub king_buckets: usize,
    /// Pairwise products: each accumulator enters the dense layers as the products of its two
    /// halves' clipped values (half as many inputs to the first dense layer; --hidden must be a
    /// multiple of 32).
    #[arg(long)]
    pub pairwise: bool,
    /// Seed of the initial weights and of the sample order.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Start from this network's weights (a .nnue file of the same ruleset and sizes, e.g. a
    /// shipped one) instead of random ones: fine-tuning on new data.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Rule set of the network: fiveup, fiveup-2001 or raumschach.
    #[arg(long, value_name = "NAME", default_value = "fiveup")]
    pub ruleset: String,
}

/// `fiveup nnue datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Output directory (created; a rerun with the same settings resumes it).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games in all, 1..=100000000.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// The engine: an alpha-beta spec with a node budget.
    #[arg(long, value_name = "SPEC", default_value = "ab:nodes=5000,hash=4")]
    pub engine: String,
    /// Random plies before the engine plays (0..=60).
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub opening_plies: usize,
    /// Ply cap per game, opening included.
    #[arg(long, value_name = "P", default_value_t = 300)]
    pub max_plies: usize,
    /// Games per shard file.
    #[arg(long, value_name = "G", default_value_t = 50)]
    pub games_per_shard: u64,
    /// Seed of the openings.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Games played at once, 1..=1024 (default: all cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Rule set: fiveup, fiveup-2001 or raumschach.
    #[arg(long, value_name = "NAME", default_value = "fiveup")]
    pub ruleset: String,
    /// Optional castling rule.
    #[arg(long)]
    pub castling: bool,
    /// Hypercylinder board.
    #[arg(long)]
    pub hypercylinder: bool,
}

/// `fiveup bench …`.
#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Network evaluations per second and GFLOP/s at several batch sizes (needs `torch`).
    Nn(BenchNnArgs),
    /// Self-play throughput: games/hour, simulations/s, evals/s, time outside the network.
    Selfplay(games::BenchSelfplayArgs),
    /// Alpha-beta nodes per second from the start positions (one thread) and the bench signature.
    Search(speed::BenchSearchArgs),
}

/// `fiveup bench nn`.
#[derive(Args, Debug)]
pub struct BenchNnArgs {
    /// Residual blocks (default: the self-play network's).
    #[arg(long, value_name = "B")]
    pub blocks: Option<usize>,
    /// Channels (default: the self-play network's).
    #[arg(long, value_name = "C")]
    pub channels: Option<usize>,
    /// Block kind: full (3x3x3) or factorised ((2+1)D: 1x3x3 then 3x1x1).
    #[arg(long, value_name = "KIND")]
    pub block: Option<String>,
    /// Leave out the squeeze-excitation global pooling.
    #[arg(long)]
    pub no_se: bool,
    /// Batch sizes, comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "1,16,64,256")]
    pub batches: Vec<usize>,
    /// libtorch intra-op threads, 1..=1024 (default: all available cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Least seconds spent on each figure.
    #[arg(long, value_name = "S", default_value_t = 2.0)]
    pub seconds: f64,
    /// Run on the CPU even when a CUDA device is available.
    #[arg(long)]
    pub cpu: bool,
    /// Memory layout: channels-last (NDHWC), channels-first (NCDHW) or auto (channels-last on
    /// the CPU).
    #[arg(long, value_name = "LAYOUT", default_value = "auto")]
    pub layout: String,
}

/// `fiveup uci`.
#[derive(Args, Debug)]
pub struct UciArgs {
    /// The player behind the protocol (the `Player` option's default): `ab`, `ab:values=FILE`,
    /// `mcts:net=DIR,batch=8`, ... A spec naming no limit lets each `go` set them.
    #[arg(long, value_name = "SPEC", default_value = "ab")]
    pub player: String,
    /// The ruleset before any `setoption name UCI_Variant` (fiveup, fiveup-2001, raumschach).
    #[arg(long, value_name = "NAME", default_value = "fiveup")]
    pub ruleset: String,
}

/// `fiveup train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training config (TOML). Default: the run's frozen config.toml when resuming, else the
    /// built-in copy of configs/cpu.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The run: a directory (created if missing; resumed if it exists), or an object-store URL
    /// (`s3://BUCKET/PREFIX`, `gs://…`, `az://…`; endpoint and credentials from the environment,
    /// docs/SCALING.md).
    #[arg(long, value_name = "DIR|URL")]
    pub run: String,
    /// The local cache of a run on an object store (default: under $XDG_CACHE_HOME/fiveup/runs).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Override a config key, e.g. `--set training.lr=0.002` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Resume even though the given config differs from the run's frozen one (replacing it).
    #[arg(long)]
    pub force_config: bool,
}

/// `fiveup selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The run of a `fiveup train`: its directory, or its object-store URL (`s3://BUCKET/PREFIX`).
    #[arg(long, value_name = "DIR|URL")]
    pub run: String,
    /// The local cache of a run on an object store (default: under $XDG_CACHE_HOME/fiveup/runs).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// This worker's name in shard file names (default: w<pid>; on an object store
    /// w-<host>-<pid>).
    #[arg(long, value_name = "NAME")]
    pub worker: Option<String>,
    /// Stop after this many games, 1..=10000000 (default: when the run is finished).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
}

/// Options shared by every subcommand that works on a position: the rules and the position.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Rule set: fiveup, fiveup-2001 or raumschach.
    #[arg(long, value_name = "NAME", default_value = "fiveup")]
    pub ruleset: String,
    /// Play with the optional castling rule (Five Up on the flat board only).
    #[arg(long)]
    pub castling: bool,
    /// Play on the hypercylinder board (files a and e joined).
    #[arg(long)]
    pub hypercylinder: bool,
    /// Position text (seven fields, docs/RULES.md §6), or `startpos` for the ruleset's start.
    #[arg(long, value_name = "TEXT", default_value = "startpos")]
    pub position: String,
}

impl PositionArgs {
    /// The validated variant (ruleset and flags).
    pub fn variant(&self) -> Result<Variant> {
        let ruleset: Ruleset = self.ruleset.trim().parse()?;
        Ok(Variant::new(ruleset, self.castling, self.hypercylinder)?)
    }

    /// The validated position.
    pub fn position(&self) -> Result<Position> {
        let variant = self.variant()?;
        if self.position.trim() == "startpos" {
            return Ok(Position::startpos(variant));
        }
        Position::from_text(&self.position, variant).context("--position")
    }
}

/// A subcommand that needs only a position.
#[derive(Args, Debug)]
pub struct PositionOnly {
    /// Rules and position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// `fiveup perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Print the leaf count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads, 1..=1024 (default: all available cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Rules and position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// `fiveup replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The moves, e.g. `1. P-Cc2 P-Cc4 2. B-De4/G` (one argument or many).
    #[arg(required_unless_present = "record", value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Replay a game of this records file (PGN-style, as `match` and `tournament` write).
    #[arg(long, value_name = "FILE", conflicts_with = "moves")]
    pub record: Option<std::path::PathBuf>,
    /// Which game of the records file (1 = first).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "record")]
    pub game: usize,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// Most `values --iterate` rounds.
const MAX_VALUES_ITERATIONS: usize = 100;
/// Most `values --opening-plies`.
const MAX_VALUES_OPENING_PLIES: usize = 100;
/// Most `values --bootstrap` replicates.
const MAX_BOOTSTRAP: usize = 1_000_000;

/// `fiveup values`.
#[derive(Args, Debug)]
pub struct ValuesArgs {
    /// Rule set: fiveup, fiveup-2001 or raumschach.
    #[arg(long, value_name = "NAME", default_value = "fiveup")]
    pub ruleset: String,
    /// Estimators: `all`, `both` (imbalance and regression) or a comma-separated list of
    /// `imbalance`, `regression` (outcome regression on material) and `texel` (the same with the
    /// evaluation's positional part as a covariate).
    #[arg(long, default_value = "all")]
    pub method: String,
    /// Colour-swapped game pairs per imbalance, 0..=5000000 (0: no games, regression on --records
    /// only). Side A lacks the pieces before the '/' and plays each colour once per pair.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub pairs: usize,
    /// Player spec of both sides (a fast node-limited alpha-beta engine by default: about depth 2,
    /// the budget with the most precision per CPU second that is not a one-ply player, see
    /// docs/PIECE_VALUES.md).
    #[arg(long, value_name = "SPEC", default_value = "ab:nodes=1700,hash=4")]
    pub engine: String,
    /// Games played at once (1..=1024).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
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
    /// Ply cap (1..=100000); a longer game is adjudicated a draw.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub max_plies: u32,
    /// Seed of the openings and the bootstraps.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bootstrap replicates for the intervals (0..=1000000).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub bootstrap: usize,
}

impl ValuesArgs {
    /// The validated run settings.
    pub fn config(&self) -> Result<fiveup::values::ValuesConfig> {
        use fiveup::values::{default_imbalances, Imbalance};
        let ruleset: Ruleset = self.ruleset.trim().parse()?;
        let method = self.method.parse::<fiveup::values::Method>().map_err(anyhow::Error::msg)?;
        let engine: fiveup::player::PlayerSpec = self.engine.parse().context("--engine")?;
        engine.build().context("--engine")?;
        use common::{bound, MAX_GAMES, MAX_PLIES, MAX_THREADS};
        bound("--concurrency", self.concurrency, 1, MAX_THREADS)?;
        bound("--iterate", self.iterate, 1, MAX_VALUES_ITERATIONS)?;
        bound("--pairs", self.pairs, 0, MAX_GAMES / 2)?;
        bound("--max-plies", self.max_plies as usize, 1, MAX_PLIES)?;
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
                .map(|t| Imbalance::parse(t, ruleset).with_context(|| flag.to_string()))
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
                let weights = match &engine {
                    fiveup::player::PlayerSpec::AlphaBeta(ab) => ab.weights(ruleset).context("--engine values")?,
                    _ => fiveup::engine::Weights::for_ruleset(ruleset),
                };
                let mut v = fiveup::values::setups::even_imbalances(ruleset, |k| weights.value(k) as f64 / 100.0);
                if self.exchanges.is_none() {
                    v.extend(fiveup::values::setups::default_exchanges(ruleset));
                }
                v
            }
            None => default_imbalances(ruleset),
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
        let variant = Variant::plain(ruleset);
        for imb in &imbalances {
            for a in fiveup::rules::Color::ALL {
                imb.position(variant, a, 0).with_context(|| format!("imbalance {imb}"))?;
            }
        }
        Ok(fiveup::values::ValuesConfig {
            variant,
            method,
            pairs: self.pairs,
            engine,
            concurrency: self.concurrency,
            iterate: self.iterate,
            tolerance: self.tol,
            out: self.out.clone().unwrap_or_else(|| format!("runs/values-{}", ruleset.name()).into()),
            records: self.records.clone(),
            imbalances,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            seed: self.seed,
            bootstrap: self.bootstrap,
            sample: fiveup::values::SampleConfig::default(),
            target: self.target,
            round: self.round,
            max_pairs: self.max_pairs,
        })
    }
}

fn run_values(a: &ValuesArgs, out: &mut dyn Write) -> Result<()> {
    let cfg = a.config()?;
    let report = fiveup::values::run(&cfg)?;
    write!(out, "{}", report.table())?;
    writeln!(out, "written: {}/values.{{txt,json,csv,png}} and values-summary.json", cfg.out.display())?;
    Ok(())
}

/// `fiveup nnue datagen`: checks everything, then plays the missing shards with a progress bar.
fn run_datagen(a: &DatagenArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::nnue::datagen::{prepare, run, DatagenConfig};
    let ruleset: Ruleset = a.ruleset.trim().parse().context("--ruleset")?;
    let variant = Variant::new(ruleset, a.castling, a.hypercylinder)?;
    let threads = common::concurrency(a.concurrency)?;
    let cfg = DatagenConfig {
        engine: a.engine.clone(),
        variant,
        games: a.games,
        games_per_shard: a.games_per_shard,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        seed: a.seed,
    };
    let engine = prepare(&a.out, &cfg).map_err(anyhow::Error::msg)?;
    let bar = fiveup::progress::Progress::new(a.games, "datagen", "games");
    bar.resume_at(fiveup::train::nnue::datagen::games_done(&a.out, &cfg));
    let started = Instant::now();
    let positions = std::sync::atomic::AtomicU64::new(0);
    let stats = run(&a.out, &cfg, &engine, threads, &|g, n| {
        let total = positions.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
        bar.inc(g);
        let rate = total as f64 / started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{total} new positions, {rate:.0}/s"));
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish();
    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} games played now ({} already there), {} positions kept in {secs:.1} s: {:.0} positions/s on {threads} threads ({:.0} per thread)",
        stats.games,
        stats.games_before,
        stats.positions,
        stats.positions as f64 / secs.max(1e-9),
        stats.positions as f64 / secs.max(1e-9) / threads as f64
    )?;
    writeln!(out, "data: {}", a.out.display())?;
    Ok(())
}

/// `fiveup nnue train`: checks the settings and the run directory, reads the data, trains.
#[cfg(feature = "torch")]
fn run_nnue_train(a: &NnueTrainArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::nnue::data::load_data;
    use fiveup::train::nnue::train::{prepare, train, NnueTrainConfig};
    let ruleset: Ruleset = a.ruleset.trim().parse().context("--ruleset")?;
    let cfg = NnueTrainConfig {
        ruleset,
        dims: fiveup::engine::nnue::Dims {
            hidden: a.hidden,
            l1: a.l1,
            l2: a.l2,
            buckets: a.buckets,
            kings: a.king_buckets,
            pairwise: a.pairwise,
        },
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lambda: a.lambda,
        seed: a.seed,
        init: a.init.clone(),
    };
    cfg.check().map_err(anyhow::Error::msg)?;
    for d in &a.data {
        if !d.is_dir() {
            bail!("--data {}: not a directory", d.display());
        }
    }
    prepare(&a.out, &cfg).map_err(anyhow::Error::msg)?;
    let started = Instant::now();
    let (train_set, valid) = load_data(&a.data, ruleset, cfg.dims.kings).map_err(anyhow::Error::msg)?;
    writeln!(
        out,
        "{} training and {} validation samples read in {:.1} s",
        train_set.len(),
        valid.len(),
        started.elapsed().as_secs_f64()
    )?;
    if cfg.dims.buckets > 1 {
        let counts = train_set.bucket_counts(cfg.dims.buckets);
        let per: Vec<String> = counts.iter().map(|n| n.to_string()).collect();
        writeln!(out, "training samples per output bucket (fewest men first): {}", per.join(", "))?;
    }
    if cfg.dims.kings > 1 {
        let per: Vec<String> = train_set.king_counts(cfg.dims.kings).iter().map(|n| n.to_string()).collect();
        writeln!(out, "training samples per king bucket of the side to move: {}", per.join(", "))?;
    }
    let bar = fiveup::progress::Progress::new(cfg.total_steps(train_set.len()), "nnue train", "steps");
    let path = train(&a.out, &cfg, &train_set, &valid, &|done, _| bar.set_position(done), &mut |r| {
        bar.set_message(format!("epoch {} valid loss {:.5}", r.epoch, r.valid_loss));
        tracing::info!(
            "epoch {}: train loss {:.5}, valid loss {:.5}, lr {:.2e}, {:.1} s",
            r.epoch,
            r.train_loss,
            r.valid_loss,
            r.lr,
            r.seconds
        );
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish();
    let log = std::fs::read_to_string(a.out.join("log.csv")).unwrap_or_default();
    write!(out, "{log}")?;
    writeln!(out, "network: {}", path.display())?;
    Ok(())
}

/// `fiveup nnue loop`: reads and checks the config and the run directory, then runs the loop.
#[cfg(feature = "torch")]
fn run_nnue_loop(a: &NnueLoopArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::nnue::reinforce::{prepare, published, run, start_network, LoopConfig};
    let text = std::fs::read_to_string(&a.config).with_context(|| format!("--config {}", a.config.display()))?;
    let cfg = LoopConfig::parse(&text, &a.config.display().to_string()).map_err(anyhow::Error::msg)?;
    let threads = common::concurrency(a.concurrency)?;
    prepare(&a.run, &text).map_err(anyhow::Error::msg)?;
    // Each step of a generation shows its own progress (one bar at a time on a terminal).
    let reports = run(&a.run, &cfg, threads, &mut |r| {
        tracing::info!(
            "generation {}: {} samples, valid loss {:.5}, gate {}",
            r.generation,
            r.samples,
            r.valid_loss,
            r.gate
        );
    })
    .map_err(anyhow::Error::msg)?;
    for r in &reports {
        writeln!(
            out,
            "generation {}: {} samples, valid loss {:.5}, {}{}",
            r.generation,
            r.samples,
            r.valid_loss,
            r.gate,
            if r.published { " -> published" } else { "" }
        )?;
    }
    match (published(&a.run), start_network(&a.run)) {
        (Some(p), _) => writeln!(out, "best network: {} (play it with ab:eval=nnue:{})", p.display(), p.display())?,
        (None, Some(s)) => {
            writeln!(out, "no network passed its gate yet: the start network {} is still the best", s.display())?
        }
        (None, None) => writeln!(out, "no network passed its gate yet: the hand evaluation is still the best")?,
    }
    Ok(())
}

#[cfg(not(feature = "torch"))]
fn run_nnue_loop(_: &NnueLoopArgs, _: &mut dyn Write) -> Result<()> {
    bail!("fiveup was built without the `torch` feature; rebuild with default features to train networks")
}

#[cfg(not(feature = "torch"))]
fn run_nnue_train(_: &NnueTrainArgs, _: &mut dyn Write) -> Result<()> {
    bail!("fiveup was built without the `torch` feature; rebuild with default features to train networks")
}

/// `fiveup uci`: checks the player spec (a bad one is an error before the session starts), then
/// serves the protocol on stdin/stdout until `quit` or the end of input.
fn run_uci(a: &UciArgs) -> Result<()> {
    let ruleset: Ruleset = a.ruleset.trim().parse().context("--ruleset")?;
    let spec = fiveup::player::PlayerSpec::parse_unlimited(&a.player).context("--player")?;
    // Networks and values files are loaded now, so a bad one fails here with one line.
    spec.build().context("--player")?;
    let opts = fiveup::protocol::ServeOptions { player: a.player.clone(), ruleset };
    fiveup::protocol::serve(std::io::stdin().lock(), Box::new(std::io::stdout()), &opts)?;
    Ok(())
}

/// Runs a parsed command line, writing results to `out` (timings go to stderr).
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<()> {
    match cli.command {
        Command::Perft(a) => run_perft(&a, out),
        Command::Moves(a) => run_moves(&a.pos.position()?, out),
        Command::Show(a) => run_show(&Game::new(a.pos.position()?), out),
        Command::Replay(a) => run_replay(&a, out),
        Command::Values(a) => run_values(&a, out),
        Command::Analyse(a) => analyse::run(&a, out),
        Command::Play(a) => play::run(&a, out),
        Command::Match(a) => matches::run(&a, out),
        Command::Tournament(a) => tournament::run(&a, out),
        Command::Sprt(a) => sprt::run(&a, out),
        Command::Uci(a) => run_uci(&a),
        Command::Serve(a) => serve::run(&a, out),
        Command::Runs(RunsCommand::Status(a)) => run_runs_status(&a, out),
        Command::Runs(RunsCommand::Heldout(a)) => run_runs_heldout(&a, out),
        Command::Nnue(NnueCommand::Datagen(a)) => run_datagen(&a, out),
        Command::Nnue(NnueCommand::Train(a)) => run_nnue_train(&a, out),
        Command::Nnue(NnueCommand::Loop(a)) => run_nnue_loop(&a, out),
        Command::Bench(BenchCommand::Nn(a)) => run_bench_nn(&a, out),
        Command::Bench(BenchCommand::Selfplay(a)) => games::run_bench_selfplay(&a, out),
        Command::Bench(BenchCommand::Search(a)) => speed::run(&a, out),
        Command::Games(games::GamesCommand::Export(a)) => games::run_export(&a, out),
        Command::Games(games::GamesCommand::Stats(a)) => games::run_stats(&a, out),
        Command::Train(a) => run_train(a, out),
        Command::Selfplay(a) => run_selfplay(&a, out),
    }
}

/// Whether an error is a training run stopped by Ctrl-C.
pub fn is_interrupted(e: &anyhow::Error) -> bool {
    e.chain().any(|c| matches!(c.downcast_ref(), Some(fiveup::train::TrainError::Interrupted { .. })))
}

/// Whether an error is a closed output pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// The text printed after `error: `: one line holding every cause of the chain once, then the
/// further lines of any multi-line message (such as the accepted player specs) as they are.
///
/// Library errors often show their source in their own message (`{path}: {source}`) and anyhow's
/// chain lists that source again, so a cause whose text the line already holds is left out. Runs
/// of whitespace become one space, and a word longer than 100 characters (an echoed input) is cut
/// with an ellipsis and its length.
pub fn error_report(e: &anyhow::Error) -> String {
    let mut line = String::new();
    let mut notes: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        let mut lines = text.lines();
        let first = fiveup::player::clip_words(lines.next().unwrap_or_default());
        if !first.is_empty() && !line.contains(&first) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&first);
        }
        for l in lines.map(str::trim_end).filter(|l| !l.trim().is_empty()) {
            let l = l.to_string();
            if !notes.contains(&l) {
                notes.push(l);
            }
        }
    }
    let mut out = line;
    for n in notes {
        out.push('\n');
        out.push_str(&n);
    }
    out
}

/// Deepest perft accepted (depth 5 from the Five Up start is already billions of leaves).
const MAX_PERFT_DEPTH: u32 = 32;

/// `--threads`: 1..=[`common::MAX_THREADS`], or every available core.
fn threads_flag(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(n) => {
            common::bound("--threads", n, 1, common::MAX_THREADS)?;
            Ok(n)
        }
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get()).min(common::MAX_THREADS)),
    }
}

fn run_perft(a: &PerftArgs, out: &mut dyn Write) -> Result<()> {
    let pos = a.pos.position()?;
    if a.depth > MAX_PERFT_DEPTH {
        bail!("perft depth {} is beyond {MAX_PERFT_DEPTH}; it would not finish", a.depth);
    }
    let threads = threads_flag(a.threads)?;
    let t = Instant::now();
    let total = if a.divide && a.depth > 0 {
        let mut rows = divide(&pos, a.depth, threads);
        rows.sort_by_key(|(m, _)| m.to_string());
        for (m, n) in &rows {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft_parallel(&pos, a.depth, threads)
    };
    let secs = t.elapsed().as_secs_f64();
    writeln!(out, "perft({}) = {total}", a.depth)?;
    eprintln!("{secs:.3} s, {:.0} leaves/s, {threads} threads", total as f64 / secs.max(1e-9));
    Ok(())
}

/// The command that resumes this `train` run: its own arguments, each quoted when needed.
pub fn resume_command() -> String {
    let quote = |a: String| {
        if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c)) {
            a
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    std::env::args().map(quote).collect::<Vec<_>>().join(" ")
}

/// Ends the process with `code` without running exit handlers. `exit` runs libtorch's static
/// destructors while the main thread may be inside a torch operation, which then fails and
/// panics (a second Ctrl-C during self-play did, one time in three). Nothing needs them: every
/// file of a run is written atomically, and the standard streams are flushed here.
fn exit_at_once(code: i32) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[cfg(target_os = "linux")]
    // SAFETY: `_exit` ends the process; it has no preconditions.
    unsafe {
        libc::_exit(code)
    }
    #[cfg(not(target_os = "linux"))]
    std::process::exit(code)
}

/// Ctrl-C (or SIGTERM, as a cluster stops a job) during `train`: the first asks the trainer to stop at its next safe point (a training
/// step, after a checkpoint, or the end of the phase) and says how to resume; a second exits at
/// once (every file of a run is written atomically, so a run killed anywhere resumes).
fn install_train_interrupt() {
    let resume = resume_command();
    let pressed = std::sync::atomic::AtomicBool::new(false);
    let installed = ctrlc::set_handler(move || {
        if pressed.swap(true, std::sync::atomic::Ordering::SeqCst) {
            eprintln!("\nstopped; resume with: {resume}");
            exit_at_once(130);
        }
        fiveup::train::request_stop();
        eprintln!(
            "\nstopping at the next safe point (Ctrl-C again to stop at once; nothing is lost either way)\n\
             resume with: {resume}"
        );
    });
    if let Err(e) = installed {
        tracing::warn!("no Ctrl-C handler ({e}); an interrupted run still resumes when rerun");
    }
}

fn run_train(a: TrainArgs, out: &mut dyn Write) -> Result<()> {
    install_train_interrupt();
    let opts = fiveup::train::TrainOptions {
        run: fiveup::store::RunLocation::parse(&a.run)?,
        cache: a.cache,
        config: a.config,
        overrides: a.overrides,
        force_config: a.force_config,
    };
    fiveup::train::run_training(&opts, out)?;
    Ok(())
}

fn run_selfplay(a: &SelfplayArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(n) = a.games {
        common::bound("--games", n, 1, common::MAX_GAMES as u64)?;
    }
    let location = fiveup::store::RunLocation::parse(&a.run)?;
    let remote = matches!(location, fiveup::store::RunLocation::Remote(_));
    let name = a.worker.clone().unwrap_or_else(|| default_worker_name(remote));
    let opts = fiveup::train::worker::WorkerOptions { name, max_games: a.games, poll_seconds: 2.0 };
    opts.check_name()?;
    let run = fiveup::train::RunDir::open(&location, a.cache.as_deref(), &opts.name)?;
    let games = fiveup::train::worker::run_worker(&run, &opts)?;
    writeln!(out, "worker {}: {games} games", opts.name)?;
    Ok(())
}

fn run_runs_status(a: &RunsStatusArgs, out: &mut dyn Write) -> Result<()> {
    let location = fiveup::store::RunLocation::parse(&a.run)?;
    let status = fiveup::train::status::run_status(&location, a.verify)?;
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&status)?)?;
    } else {
        write!(out, "{}", status.text())?;
    }
    if status.verify.as_ref().is_some_and(|v| !v.ok) {
        anyhow::bail!("{}: verification found problems (listed above)", a.run);
    }
    Ok(())
}

fn run_runs_heldout(a: &RunsHeldoutArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::train::heldout;
    let run = fiveup::train::RunDir::new(&a.run);
    let Some(mut cfg) = run.frozen_config()? else {
        bail!("{}: not a training run (no config.toml)", a.run.display());
    };
    let own = heldout::heldout_path(&run);
    let set = a.set.clone().unwrap_or_else(|| own.clone());
    if a.set.is_none() && (a.label.is_some() || a.positions.is_some() || !a.games.is_empty()) {
        bail!(
            "--label, --positions and --games describe a new set: name its file with --set (the run's own set is fixed)"
        );
    }
    if !a.games.is_empty() && set.exists() {
        bail!("{}: exists, and --games makes a new set (drop --games to measure on this one)", set.display());
    }
    if let Some(label) = &a.label {
        cfg.heldout.label = label.clone();
    }
    if let Some(n) = a.positions {
        if !(1..=1_000_000).contains(&n) {
            bail!("--positions {n} is out of range (allowed: 1..=1000000)");
        }
        cfg.heldout.positions = n;
    }
    heldout::check_specs(&cfg)?;
    let players = a
        .player
        .iter()
        .map(|s| s.parse::<fiveup::player::PlayerSpec>().map_err(|e| anyhow::Error::new(e).context("--player")))
        .collect::<Result<Vec<_>>>()?;
    if a.first == Some(0) {
        bail!("--first 0 measures nothing (give at least 1)");
    }
    let gens = run.published_generations()?;
    if gens.is_empty() && players.is_empty() {
        bail!("{}: no published network (models/gen-NNNN)", a.run.display());
    }
    if !set.exists() {
        if set == own {
            bail!("{}: no held-out set (the run has not made one); name one with --set to make it", set.display());
        }
        let n = cfg.heldout.positions;
        let bar = fiveup::progress::Progress::new(n, "held-out set", "positions");
        bar.resume_at(0);
        if a.games.is_empty() {
            heldout::ensure_at(&set, &cfg, &|have| bar.set_position(have.min(n)))?;
        } else {
            heldout::make_from_games(&set, &cfg, &a.games, &|have| bar.set_position(have.min(n)))?;
        }
        bar.finish();
    }
    let label = heldout::set_label(&set)?;
    if let (Some(want), Some(have)) = (&a.label, &label) {
        if want != have {
            bail!(
                "{}: the set is labelled by {have}, not {want} (name another --set to make a new one)",
                set.display()
            );
        }
    }
    let label = label.unwrap_or_else(|| "?".into());
    let mut items = heldout::load_from(&set)?;
    if let Some(k) = a.first {
        items.truncate(k);
    }
    if !players.is_empty() {
        return heldout_players(&cfg, &players, &items, &set, &label, a.json, out);
    }
    let shares = heldout::outcome_shares(&items);
    if !a.json {
        heldout_header(&set, items.len(), &shares, &label, out)?;
        writeln!(
            out,
            "{:<10} {:>16} {:>10} {:>10} {:>10}",
            "network", "policy top-1", "value CE", "score MSE", "mean draw"
        )?;
    }
    let n = items.len().max(1) as f64;
    for g in gens {
        let m = heldout::measure_network(&cfg, &run.model_dir(g), &items)?;
        let half = 1.96 * (m.policy_top1 * (1.0 - m.policy_top1) / n).sqrt();
        if a.json {
            let line = serde_json::json!({
                "generation": g, "positions": m.positions, "policy_top1": m.policy_top1,
                "policy_top1_ci95": half, "value_ce": m.value_ce, "score_mse": m.score_mse,
                "draw": m.draw, "outcome_draw": shares[1],
            });
            writeln!(out, "{line}")?;
        } else {
            writeln!(
                out,
                "gen-{g:04}   {:>7.4} ± {:.4} {:>10.4} {:>10.4} {:>10.4}",
                m.policy_top1, half, m.value_ce, m.score_mse, m.draw
            )?;
        }
    }
    Ok(())
}

/// The first lines of `fiveup runs heldout`'s text: the set, its size and label, and the shares
/// of its outcomes (win, draw, loss for the side to move).
fn heldout_header(
    set: &std::path::Path,
    positions: usize,
    shares: &[f64; 3],
    label: &str,
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(out, "{}: {positions} positions labelled by {label}", set.display())?;
    writeln!(out, "outcomes for the side to move: win {:.3}, draw {:.3}, loss {:.3}", shares[0], shares[1], shares[2])?;
    Ok(())
}

/// `fiveup runs heldout --player`: each player's figures on the set, as a network's.
fn heldout_players(
    cfg: &fiveup::config::TrainConfig,
    players: &[fiveup::player::PlayerSpec],
    items: &[fiveup::train::heldout::HeldoutItem],
    set: &std::path::Path,
    label: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    use fiveup::train::heldout;
    let shares = heldout::outcome_shares(items);
    if !json {
        heldout_header(set, items.len(), &shares, label, out)?;
        writeln!(
            out,
            "{:<16} {:>10} {:>10} {:>10} {:>10}  player",
            "policy top-1", "value CE", "score MSE", "mean draw", "nodes"
        )?;
    }
    let n = items.len().max(1) as f64;
    let threads = rayon::current_num_threads();
    for spec in players {
        let bar = fiveup::progress::Progress::new(items.len() as u64, "held-out searches", "positions");
        bar.resume_at(0);
        let m = heldout::measure_player(spec, items, cfg.bootstrap.score_scale, threads, &|k| bar.set_position(k))?;
        bar.finish();
        let half = 1.96 * (m.policy_top1 * (1.0 - m.policy_top1) / n).sqrt();
        if json {
            let line = serde_json::json!({
                "player": spec.to_string(), "positions": m.positions, "policy_top1": m.policy_top1,
                "policy_top1_ci95": half, "value_ce": m.value_ce, "score_mse": m.score_mse, "nodes": m.nodes,
                "draw": m.draw, "outcome_draw": shares[1],
            });
            writeln!(out, "{line}")?;
        } else {
            let opt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"));
            writeln!(
                out,
                "{:>7.4} ± {:.4} {:>10} {:>10} {:>10} {:>10.0}  {spec}",
                m.policy_top1,
                half,
                opt(m.value_ce),
                opt(m.score_mse),
                opt(m.draw),
                m.nodes
            )?;
        }
    }
    Ok(())
}

/// A worker's default name: `w<pid>`, and on an object store (workers on many machines)
/// `w-<host>-<pid>` with the host name cut to letters, digits and '-'.
fn default_worker_name(remote: bool) -> String {
    if !remote {
        return format!("w{}", std::process::id());
    }
    let host = fiveup::store::lease::host_name();
    let host: String = host.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(40).collect();
    format!("w-{}-{}", if host.is_empty() { "host" } else { &host }, std::process::id())
}

fn run_moves(pos: &Position, out: &mut dyn Write) -> Result<()> {
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|m| m.to_string());
    for &m in &moves {
        writeln!(out, "{:<12} {}", coordinate(m), figurine(pos, m))?;
    }
    writeln!(out, "{} legal moves", moves.len())?;
    Ok(())
}

fn run_show(game: &Game, out: &mut dyn Write) -> Result<()> {
    let pos = game.position();
    write!(out, "{}", diagram(pos))?;
    writeln!(out, "ruleset: {}", pos.variant())?;
    writeln!(out, "position: {}", pos.to_text())?;
    writeln!(out, "status: {}", game.status())?;
    Ok(())
}

fn run_replay(a: &ReplayArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &a.record {
        let records = fiveup::eval::records::read_records(path)?;
        let Some(r) = a.game.checked_sub(1).and_then(|i| records.get(i)) else {
            bail!("{} has {} games; --game {} is not one of them", path.display(), records.len(), a.game);
        };
        writeln!(
            out,
            "game {} of {}: {} vs {}, {} ({})",
            a.game,
            records.len(),
            r.white,
            r.black,
            r.result_text(),
            r.termination()
        )?;
        let game = r.game();
        writeln!(out, "moves: {}", format_line(game.start(), game.moves()))?;
        return run_show(&game, out);
    }
    let mut game = Game::new(a.pos.position()?);
    game.play_line(&a.moves.join(" "))?;
    writeln!(out, "moves: {}", format_line(game.start(), game.moves()))?;
    run_show(&game, out)
}

/// Largest batch `bench nn` accepts.
#[cfg(feature = "torch")]
const MAX_BENCH_BATCH: usize = 4096;

#[cfg(feature = "torch")]
fn run_bench_nn(a: &BenchNnArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::nn::torch::{bench, default_device, set_threads, NetConfig};
    let d = NetConfig::SELFPLAY;
    let net = NetConfig {
        blocks: a.blocks.unwrap_or(d.blocks),
        channels: a.channels.unwrap_or(d.channels),
        block: match &a.block {
            Some(s) => s.parse().map_err(anyhow::Error::msg).context("--block")?,
            None => d.block,
        },
        se: !a.no_se,
    };
    net.validate().map_err(anyhow::Error::msg)?;
    if a.batches.is_empty() || a.batches.iter().any(|&b| b == 0 || b > MAX_BENCH_BATCH) {
        bail!("--batches must list sizes from 1 to {MAX_BENCH_BATCH}");
    }
    if !(a.seconds > 0.0 && a.seconds <= 600.0) {
        bail!("--seconds must be in (0, 600]");
    }
    let threads = threads_flag(a.threads)?;
    let channels_last = match a.layout.trim() {
        "auto" => None,
        "channels-last" => Some(true),
        "channels-first" => Some(false),
        other => bail!("--layout {other:?}: expected auto, channels-last or channels-first"),
    };
    set_threads(threads);
    let device = if a.cpu { tch::Device::Cpu } else { default_device() };
    let cfg = bench::BenchConfig {
        net,
        batches: a.batches.clone(),
        min_time: std::time::Duration::from_secs_f64(a.seconds),
        device,
        channels_last,
    };
    let layout = match channels_last.unwrap_or(device == tch::Device::Cpu) {
        true => "channels-last",
        false => "channels-first",
    };
    writeln!(out, "net {net}, {:.1} MFLOP/eval, {device:?} {layout}, {threads} threads", net.flops_per_eval() / 1e6)?;
    writeln!(
        out,
        "{:>6} {:>12} {:>12} {:>11} {:>14} {:>14}",
        "batch", "full eval/s", "fwd eval/s", "fwd GFLOP/s", "full eval/CPUs", "fwd eval/CPUs"
    )?;
    let mut result = Ok(());
    bench::run(&cfg, Variant::default(), |r| {
        if result.is_ok() {
            result = writeln!(
                out,
                "{:>6} {:>12.0} {:>12.0} {:>11.1} {:>14.0} {:>14.0}",
                r.batch,
                r.full_evals_per_s,
                r.forward_evals_per_s,
                r.forward_gflops,
                r.full_evals_per_cpu_s,
                r.forward_evals_per_cpu_s
            );
        }
    })?;
    Ok(result?)
}

#[cfg(not(feature = "torch"))]
fn run_bench_nn(_: &BenchNnArgs, _: &mut dyn Write) -> Result<()> {
    bail!("fiveup was built without the `torch` feature; rebuild with default features to bench networks")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("fiveup").chain(args.iter().copied())).unwrap()
    }

    fn pos_args(args: &[&str]) -> PositionArgs {
        match parse(&[&["show"], args].concat()).command {
            Command::Show(a) => a.pos,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn position_args_default_to_the_fiveup_start() {
        let p = pos_args(&[]).position().unwrap();
        assert_eq!(p.to_text(), Position::startpos(Variant::default()).to_text());
        let p = pos_args(&["--ruleset", "raumschach", "--position", "startpos"]).position().unwrap();
        assert_eq!(p.ruleset(), Ruleset::Raumschach);
    }

    #[test]
    fn position_args_reject_bad_input_with_one_line() {
        let e = pos_args(&["--ruleset", "chess"]).position().unwrap_err();
        assert_eq!(format!("{e:#}"), "unknown ruleset 'chess' (expected fiveup, fiveup-2001 or raumschach)");
        let e = pos_args(&["--ruleset", "raumschach", "--castling"]).position().unwrap_err();
        assert!(format!("{e:#}").contains("castling"));
        let e = pos_args(&["--position", "5/5 w"]).position().unwrap_err();
        assert!(format!("{e:#}").starts_with("--position: position text has 2 fields"), "{e:#}");
    }

    #[test]
    fn replay_takes_many_words() {
        match parse(&["replay", "1.", "Cc2", "Cc4", "--ruleset", "fiveup"]).command {
            Command::Replay(a) => assert_eq!(a.moves.join(" "), "1. Cc2 Cc4"),
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn bench_nn_takes_a_batch_list() {
        match parse(&["bench", "nn", "--batches", "1,16", "--blocks", "2"]).command {
            Command::Bench(BenchCommand::Nn(a)) => assert_eq!((a.batches, a.blocks), (vec![1, 16], Some(2))),
            c => panic!("{c:?}"),
        }
        let e = run(parse(&["bench", "nn", "--batches", "0"]), &mut Vec::new()).unwrap_err();
        assert!(format!("{e:#}").contains("--batches") || format!("{e:#}").contains("torch"), "{e:#}");
    }

    /// An error whose message repeats its source, as thiserror's `{path}: {source}` does.
    #[derive(Debug, thiserror::Error)]
    #[error("{path}: {source}")]
    struct WithSource {
        path: String,
        source: std::io::Error,
    }

    #[test]
    fn error_reports_name_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory (os error 2)");
        let e = anyhow::Error::new(WithSource { path: "a.toml".into(), source: io }).context("--config");
        assert_eq!(error_report(&e), "--config: a.toml: No such file or directory (os error 2)");
        let inner = anyhow::anyhow!("white has 0 kings (exactly one is required)");
        let e = inner.context("invalid position: white has 0 kings (exactly one is required)");
        assert_eq!(error_report(&e), "invalid position: white has 0 kings (exactly one is required)");
    }

    #[test]
    fn error_reports_cut_long_words_and_keep_extra_lines() {
        let e = anyhow::anyhow!("bad move '{}'", "x".repeat(10_000));
        let r = error_report(&e);
        assert!(r.len() < 200 && r.ends_with("… (10002 characters)"), "{r}");
        // A spec the library already cut is not cut twice.
        let long = format!("mcts:{}", "x".repeat(10_000));
        let e = long.parse::<fiveup::player::PlayerSpec>().unwrap_err();
        let r = error_report(&anyhow::Error::new(e));
        let first = r.lines().next().unwrap();
        assert!(first.contains("… (10005 characters)'") && first.matches("characters)").count() == 2, "{first}");
        let e = "ab:depth=0".parse::<fiveup::player::PlayerSpec>().unwrap_err();
        let r = error_report(&anyhow::Error::new(e).context("--engine"));
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "--engine: bad player spec 'ab:depth=0': depth=0: expected 1..=64");
        assert_eq!(lines[1], "accepted player specs:");
        assert!(lines.iter().any(|l| l.trim_start().starts_with("random[:seed=N]")), "{r}");
    }

    #[test]
    fn perft_writes_its_count_last() {
        let mut buf = Vec::new();
        let cli = parse(&["perft", "1", "--threads", "1"]);
        run(cli, &mut buf).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), "perft(1) = 209\n");
    }
}
