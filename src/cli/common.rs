//! Options and helpers shared by several subcommands: the rules and position, concurrency and
//! threads, progress bars, record writers.

use anyhow::{bail, Context, Result};
use clap::Args;
use fiveup::clock::TimeControl;
use fiveup::eval::{OpeningSource, OpeningStream, PlayerSource, RecordWriter};
use fiveup::player::PlayerSpec;
use fiveup::progress::Progress;
use fiveup::rules::{Position, Ruleset, Variant};
use std::path::{Path, PathBuf};

/// Options of every command that plays games between two players: concurrency, openings, records,
/// adjudication, seed, rules and start position.
#[derive(Args, Debug)]
pub struct GameOptions {
    /// Games played at once, 1..=1024 (default: all cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Openings: `startpos`, `random:K` (K random plies) or a file.
    #[arg(long, value_name = "SOURCE", default_value = "random:8")]
    pub openings: String,
    /// Write the game records (PGN-style) to this file as games finish (refused if it exists,
    /// unless --force; always refused when it is an input: the openings file, a weights file or
    /// a network of a player).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
    /// Adjudicate a draw after this many plies, opening included (1..=100000).
    #[arg(long, value_name = "P", default_value_t = 400)]
    pub max_plies: usize,
    /// Seed of the random openings.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Time control for both players: BASE+INC in seconds (`10+0.1`), or MOVES/BASE+INC
    /// (`40/60+0`). A flag loses the game. Players' own limits still cap their moves; `ab` and
    /// `mcts` specs that name no limit play by the clock alone.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

impl GameOptions {
    /// Checks `--out` against `--force` and the files the command reads (the openings file and
    /// the files named in the player specs `specs`), before any game is played.
    pub fn check_out(&self, specs: &[&str]) -> Result<()> {
        let Some(out) = &self.out else { return Ok(()) };
        let mut inputs: Vec<PathBuf> = Vec::new();
        if let Ok(OpeningSource::File(p)) = self.openings.parse::<OpeningSource>() {
            inputs.push(p);
        }
        for spec in specs {
            match spec.parse::<PlayerSpec>() {
                Ok(PlayerSpec::AlphaBeta(ab)) => {
                    inputs.extend(ab.values);
                    if let fiveup::player::EvalChoice::Nnue(p) = ab.eval {
                        inputs.push(p);
                    }
                }
                Ok(PlayerSpec::Mcts(m)) => {
                    if let fiveup::player::EvaluatorSpec::Net(p) = m.evaluator {
                        inputs.push(p);
                    }
                    inputs.extend(m.nnue_file);
                }
                _ => {}
            }
        }
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        Ok(fiveup::fsutil::check_output(out, &inputs, self.force)?)
    }

    /// The parsed `--tc`.
    pub fn time_control(&self) -> Result<Option<TimeControl>> {
        match &self.tc {
            Some(t) => Ok(Some(t.parse::<TimeControl>().map_err(|e| anyhow::anyhow!("--tc: {e}"))?)),
            None => Ok(None),
        }
    }

    /// The openings of colour-swapped game pairs, drawn as games need them: `--openings` from the
    /// start position.
    pub fn openings(&self) -> Result<OpeningStream> {
        let start = self.pos.position()?;
        let source: OpeningSource = self.openings.parse()?;
        Ok(source.stream(&start, self.seed)?)
    }
}

/// The two players of a match from their spec strings, each built once up front so that a bad
/// weights file, a missing network or an engine that does not start fails before any game. On
/// a clock (`clocked`) a spec naming no limit gets none ([`PlayerSpec::parse_unlimited`]).
pub fn two_players(a: &str, b: &str, clocked: bool) -> Result<(PlayerSource, PlayerSource)> {
    let parse = |s: &str| if clocked { PlayerSpec::parse_unlimited(s) } else { s.parse::<PlayerSpec>() };
    let a: PlayerSource = parse(a)?.into();
    let b: PlayerSource = parse(b)?.into();
    for p in [&a, &b] {
        let built = p.build()?;
        if !clocked && unlimited(p) {
            bail!(
                "player {}: an outside engine needs a limit: give --tc, or depth=, nodes= or movetime= in its spec",
                built.name()
            );
        }
    }
    Ok((a, b))
}

/// Whether `p` is an outside engine with no limit of its own (it would think until its timeout).
fn unlimited(p: &PlayerSource) -> bool {
    matches!(p, PlayerSource::Spec(PlayerSpec::Uci(u)) if u.depth.is_none() && u.nodes.is_none() && u.movetime.is_none())
}

/// Most threads or concurrent games any flag may ask for.
pub const MAX_THREADS: usize = 1024;

/// Most games (or twice the pairs) a command may be asked to play.
pub const MAX_GAMES: usize = 10_000_000;

/// Longest game (`--max-plies`) a command accepts.
pub const MAX_PLIES: usize = 100_000;

/// The worker count: the flag, or every available core.
pub fn concurrency(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(n) => {
            bound("--concurrency", n, 1, MAX_THREADS)?;
            Ok(n)
        }
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)),
    }
}

/// `Err` naming the flag, its value and the allowed range unless `lo <= value <= hi`.
pub fn bound<T: PartialOrd + std::fmt::Display>(flag: &str, value: T, lo: T, hi: T) -> Result<()> {
    if value < lo || value > hi {
        bail!("{flag} {value} is out of range (allowed: {lo}..={hi})");
    }
    Ok(())
}

/// Progress of `len` games called `label`: a bar on a terminal, log lines otherwise.
pub fn progress(len: usize, label: &str) -> Progress {
    let bar = Progress::new(len as u64, label, "games");
    bar.resume_at(0);
    bar
}

/// A record writer for `--out FILE`, truncating the file (`None` without the flag).
pub fn writer(out: Option<&Path>) -> Result<Option<RecordWriter>> {
    Ok(match out {
        Some(p) => Some(RecordWriter::create(p)?),
        None => None,
    })
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

/// `--threads`: 1..=[`MAX_THREADS`], or every available core.
pub fn threads_flag(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(n) => {
            bound("--threads", n, 1, MAX_THREADS)?;
            Ok(n)
        }
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Command};
    use super::*;

    fn pos_args(args: &[&str]) -> PositionArgs {
        match parse(&[&["show"], args].concat()).command {
            Command::Show(a) => a.pos,
            c => panic!("{c:?}"),
        }
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
}
