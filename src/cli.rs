//! Command-line interface: clap types, their validation into library values, and the subcommands.
//! `anyhow` is used here and nowhere in the library.
//!
//! To add a subcommand: add a variant to [`Command`] with its own `Args` struct, flatten
//! [`PositionArgs`] into it when it works on a position, and dispatch it in [`run`].

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
    /// Play a move list (either notation, move numbers allowed) and show where it ends.
    Replay(ReplayArgs),
    /// Train a network from zero (or resume a run): self-play, training, evaluation, generation
    /// after generation, in one run directory. Rerun the same command to resume.
    Train(TrainArgs),
    /// An extra self-play worker for a run: plays with the run's best network and writes shards
    /// into its directory (several may run, on this machine or others sharing the directory).
    Selfplay(SelfplayArgs),
}

/// `fiveup train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training config (TOML). Default: the run's frozen config.toml when resuming, else the
    /// built-in copy of configs/cpu.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The run directory (created if missing; resumed if it exists).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
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
    /// The run directory of a `fiveup train` run.
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    /// This worker's name in shard file names (default: w<pid>).
    #[arg(long, value_name = "NAME")]
    pub worker: Option<String>,
    /// Stop after this many games (default: when the run is finished).
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
    /// Position text (seven fields, RULES.md §6), or `startpos` for the ruleset's start.
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
    /// Worker threads (default: all available cores).
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
    #[arg(required = true, value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// Runs a parsed command line, writing results to `out` (timings go to stderr).
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<()> {
    match cli.command {
        Command::Perft(a) => run_perft(&a, out),
        Command::Moves(a) => run_moves(&a.pos.position()?, out),
        Command::Show(a) => run_show(&Game::new(a.pos.position()?), out),
        Command::Replay(a) => run_replay(&a, out),
        Command::Train(a) => run_train(a, out),
        Command::Selfplay(a) => run_selfplay(&a, out),
    }
}

/// Whether an error is a closed output pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Deepest perft accepted (depth 5 from the Five Up start is already billions of leaves).
const MAX_PERFT_DEPTH: u32 = 32;

fn run_perft(a: &PerftArgs, out: &mut dyn Write) -> Result<()> {
    let pos = a.pos.position()?;
    if a.depth > MAX_PERFT_DEPTH {
        bail!("perft depth {} is beyond {MAX_PERFT_DEPTH}; it would not finish", a.depth);
    }
    let threads = match a.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
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

fn run_train(a: TrainArgs, out: &mut dyn Write) -> Result<()> {
    let opts = fiveup::train::TrainOptions {
        run: a.run,
        config: a.config,
        overrides: a.overrides,
        force_config: a.force_config,
    };
    fiveup::train::run_training(&opts, out)?;
    Ok(())
}

fn run_selfplay(a: &SelfplayArgs, out: &mut dyn Write) -> Result<()> {
    let opts = fiveup::train::worker::WorkerOptions {
        name: a.worker.clone().unwrap_or_else(|| format!("w{}", std::process::id())),
        max_games: a.games,
        poll_seconds: 2.0,
    };
    let games = fiveup::train::worker::run_worker(&fiveup::train::RunDir::new(&a.run), &opts)?;
    writeln!(out, "worker {}: {games} games", opts.name)?;
    Ok(())
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
    let mut game = Game::new(a.pos.position()?);
    game.play_line(&a.moves.join(" "))?;
    writeln!(out, "moves: {}", format_line(game.start(), game.moves()))?;
    run_show(&game, out)
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
    fn perft_writes_its_count_last() {
        let mut buf = Vec::new();
        let cli = parse(&["perft", "1", "--threads", "1"]);
        run(cli, &mut buf).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), "perft(1) = 209\n");
    }
}
