//! Command-line interface: clap types, their validation into library values, and the subcommands.
//! `anyhow` is used here and nowhere in the library.
//!
//! To add a subcommand: add a variant to [`Command`] with its own `Args` struct in the file of its
//! job, flatten [`common::PositionArgs`] into it when it works on a position, and dispatch it in
//! [`run`]. Each file under `cli/` holds the arguments and the running of one job: `rules`
//! (perft, moves, show, replay), `train` (train, selfplay, runs), `nnue`, `values`, `bench`, the
//! playing commands (`analyse`, `play`, `matches`, `tournament`, `sprt`, `uci`, `serve`), `games`,
//! `tablebase`;
//! `common` holds the options several commands share, `errors` how an error is reported.

mod analyse;
mod bench;
mod common;
pub mod errors;
mod games;
mod matches;
mod nnue;
mod play;
mod rules;
mod serve;
mod speed;
mod sprt;
mod tablebase;
mod tournament;
mod train;
mod uci;
mod values;
mod worker;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::io::Write;

/// Five Up and Raumschach (5x5x5 3D chess) and 4D Quasi-Alice Chess.
#[derive(Parser, Debug)]
#[command(name = "fiveup", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the process's command line. A negative number given to any option or argument is
    /// read as its value, so that the value's own check refuses it naming the option and its
    /// range, instead of being taken for an unknown flag.
    pub fn parse_args() -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        let matches = numbers_as_values(Cli::command()).get_matches();
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }

    /// [`Cli::parse_args`] of a given command line (for tests).
    #[cfg(test)]
    pub fn try_parse_args<I: IntoIterator<Item = T>, T: Into<std::ffi::OsString> + Clone>(
        args: I,
    ) -> Result<Cli, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let matches = numbers_as_values(Cli::command()).try_get_matches_from(args)?;
        Cli::from_arg_matches(&matches)
    }
}

/// `c` and its subcommands with every value-taking argument accepting a leading `-`.
fn numbers_as_values(c: clap::Command) -> clap::Command {
    c.mut_args(|a| if a.get_action().takes_values() { a.allow_negative_numbers(true) } else { a })
        .mut_subcommands(numbers_as_values)
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree to a depth (perft).
    Perft(rules::PerftArgs),
    /// List the legal moves of a position in coordinate and figurine form.
    Moves(common::PositionOnly),
    /// Show a position: diagram, position text and status.
    Show(common::PositionOnly),
    /// Play a move list (either notation, move numbers allowed), or a game of a records file, and
    /// show where it ends.
    Replay(rules::ReplayArgs),
    /// Train a network from zero (or resume a run): self-play, training, evaluation, generation
    /// after generation, in one run directory. Rerun the same command to resume.
    Train(train::TrainArgs),
    /// An extra self-play worker for a run: plays with the run's best network and writes shards
    /// into its directory or object store (any number, on this machine or any other).
    Selfplay(train::SelfplayArgs),
    /// Inspect training runs (local or on an object store).
    #[command(subcommand)]
    Runs(train::RunsCommand),
    /// Measure piece values: imbalance matches and outcome regression, with 95% intervals.
    Values(values::ValuesArgs),
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
    Uci(uci::UciArgs),
    /// Serve the web page (docs/WEB.md): play, analyse, replay and watch on a 3D board.
    Serve(serve::ServeArgs),
    /// Measure throughput.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Work with recorded games.
    #[command(subcommand)]
    Games(games::GamesCommand),
    /// The NNUE evaluator: training data, training, the reinforcement loop.
    #[command(subcommand)]
    Nnue(nnue::NnueCommand),
    /// Endgame tables of the 5x5x5 games: build them, probe a position, list a folder.
    #[command(subcommand)]
    Tablebase(tablebase::TablebaseCommand),
}

/// Runs a parsed command line, writing results to `out` (timings go to stderr).
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<()> {
    match cli.command {
        Command::Perft(a) => rules::run_perft(&a, out),
        Command::Moves(a) => rules::run_moves(&a.pos, out),
        Command::Show(a) => rules::run_show_args(&a.pos, out),
        Command::Replay(a) => rules::run_replay(&a, out),
        Command::Values(a) => values::run(&a, out),
        Command::Analyse(a) => analyse::run(&a, out),
        Command::Play(a) => play::run(&a, out),
        Command::Match(a) => matches::run(&a, out),
        Command::Tournament(a) => tournament::run(&a, out),
        Command::Sprt(a) => sprt::run(&a, out),
        Command::Uci(a) => uci::run(&a),
        Command::Serve(a) => serve::run(&a, out),
        Command::Runs(train::RunsCommand::Status(a)) => train::run_runs_status(&a, out),
        Command::Runs(train::RunsCommand::Heldout(a)) => train::run_runs_heldout(&a, out),
        Command::Nnue(nnue::NnueCommand::Datagen(a)) => nnue::run_datagen(&a, out),
        Command::Nnue(nnue::NnueCommand::Train(a)) => nnue::run_nnue_train(&a, out),
        Command::Nnue(nnue::NnueCommand::Loop(a)) => nnue::run_nnue_loop(&a, out),
        Command::Bench(bench::BenchCommand::Nn(a)) => bench::run_bench_nn(&a, out),
        Command::Bench(bench::BenchCommand::Selfplay(a)) => games::run_bench_selfplay(&a, out),
        Command::Bench(bench::BenchCommand::Search(a)) => speed::run(&a, out),
        Command::Games(games::GamesCommand::Export(a)) => games::run_export(&a, out),
        Command::Games(games::GamesCommand::Stats(a)) => games::run_stats(&a, out),
        Command::Games(games::GamesCommand::Worker(a)) => worker::run(&a, out),
        Command::Games(games::GamesCommand::Status(a)) => worker::run_status(&a, out),
        Command::Train(a) => train::run_train(a, out),
        Command::Selfplay(a) => train::run_selfplay(&a, out),
        Command::Tablebase(tablebase::TablebaseCommand::Generate(a)) => tablebase::run_generate(&a, out),
        Command::Tablebase(tablebase::TablebaseCommand::Probe(a)) => tablebase::run_probe(&a, out),
        Command::Tablebase(tablebase::TablebaseCommand::Info(a)) => tablebase::run_info(&a, out),
        Command::Tablebase(tablebase::TablebaseCommand::Sample(a)) => tablebase::run_sample(&a, out),
    }
}

/// The command line `fiveup ARGS…`, parsed (for the tests of every subcommand).
#[cfg(test)]
fn parse(args: &[&str]) -> Cli {
    Cli::try_parse_args(std::iter::once("fiveup").chain(args.iter().copied())).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
        numbers_as_values(Cli::command()).debug_assert();
    }

    #[test]
    fn a_negative_number_is_a_value_refused_by_its_own_check() {
        let e = Cli::try_parse_args(["fiveup", "match", "--white", "random", "--black", "random", "--games", "-1"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("invalid value '-1' for '--games <N>'"), "{e}");
        let e = Cli::try_parse_args(["fiveup", "perft", "-1"]).unwrap_err().to_string();
        assert!(e.contains("invalid value '-1' for '<DEPTH>'"), "{e}");
        // Flags are still flags.
        assert!(Cli::try_parse_args(["fiveup", "perft", "-x"])
            .unwrap_err()
            .to_string()
            .contains("unexpected argument"));
    }
}
