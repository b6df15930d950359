//! Helpers shared by the playing subcommands: concurrency, progress bars, record writers.

use super::PositionArgs;
use anyhow::{bail, Result};
use clap::Args;
use fiveup::eval::{Opening, OpeningSource, PlayerSource, RecordWriter};
use fiveup::player::PlayerSpec;
use fiveup::progress::Progress;
use std::path::{Path, PathBuf};

/// Options of every command that plays games between two players: concurrency, openings, records,
/// adjudication, seed, rules and start position.
#[derive(Args, Debug)]
pub struct GameOptions {
    /// Games played at once (default: all cores).
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
    /// Adjudicate a draw after this many plies (opening included).
    #[arg(long, value_name = "P", default_value_t = 400)]
    pub max_plies: usize,
    /// Seed of the random openings.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
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
                Ok(PlayerSpec::AlphaBeta(ab)) => inputs.extend(ab.values),
                Ok(PlayerSpec::Mcts(m)) => {
                    if let fiveup::player::EvaluatorSpec::Net(p) = m.evaluator {
                        inputs.push(p);
                    }
                }
                _ => {}
            }
        }
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        Ok(fiveup::fsutil::check_output(out, &inputs, self.force)?)
    }

    /// The openings of `pairs` colour-swapped game pairs: `--openings` from the start position.
    pub fn openings(&self, pairs: usize) -> Result<Vec<Opening>> {
        let start = self.pos.position()?;
        let source: OpeningSource = self.openings.parse()?;
        Ok(source.openings(&start, pairs, self.seed)?)
    }
}

/// The two players of a match from their spec strings, each built once up front so that a bad
/// weights file or a missing network fails before any game.
pub fn two_players(a: &str, b: &str) -> Result<(PlayerSource, PlayerSource)> {
    let a: PlayerSource = a.parse::<PlayerSpec>()?.into();
    let b: PlayerSource = b.parse::<PlayerSpec>()?.into();
    a.build()?;
    b.build()?;
    Ok((a, b))
}

/// The worker count: the flag, or every available core.
pub fn concurrency(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(0) => bail!("--concurrency must be at least 1"),
        Some(n) if n > 1024 => bail!("--concurrency {n} is more than 1024"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
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
