//! `fiveup games export` (self-play shards as PGN-style text) and `fiveup bench selfplay`.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use fiveup::mcts::{SearchConfig, SearchKind};
use fiveup::nn::{Evaluator, UniformEvaluator};
use fiveup::rules::{Ruleset, Variant};
use fiveup::selfplay::export::to_text_record;
use fiveup::selfplay::{bench, bench_config, read_shard};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `fiveup games …`.
#[derive(Subcommand, Debug)]
pub enum GamesCommand {
    /// Write self-play games (shard files, or directories searched for `*.shard`) as PGN-style
    /// text records, the format of `match` and `tournament`.
    Export(ExportArgs),
}

/// `fiveup games export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Shard files or directories (searched recursively for `*.shard`).
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Write to this file instead of standard output (refused if it exists, unless --force; always
    /// refused when it is one of the input shards).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
}

fn shards_under(p: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .with_context(|| format!("cannot read directory {}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "shard") {
                shards_under(&e, out)?;
            }
        }
    } else if p.exists() {
        out.push(p.to_path_buf());
    } else {
        bail!("no such file or directory: {}", p.display());
    }
    Ok(())
}

/// Runs `fiveup games export`.
pub fn run_export(a: &ExportArgs, out: &mut dyn Write) -> Result<()> {
    let mut files = Vec::new();
    for p in &a.inputs {
        shards_under(p, &mut files)?;
    }
    if let Some(path) = &a.out {
        let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        fiveup::fsutil::check_output(path, &inputs, a.force)?;
    }
    let mut text = String::new();
    let mut games = 0usize;
    for f in &files {
        for (i, g) in read_shard(f)?.iter().enumerate() {
            let r = to_text_record(g).with_context(|| format!("{} game {}", f.display(), i + 1))?;
            text.push_str(&r.to_text());
            games += 1;
        }
    }
    match &a.out {
        Some(path) => {
            fiveup::fsutil::write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(out, "{games} games from {} shard files written to {}", files.len(), path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// Most games `bench selfplay` steps together (as `selfplay.concurrent_games` allows).
const MAX_CONCURRENT_GAMES: usize = 65_536;

/// `fiveup bench selfplay`.
#[derive(Args, Debug)]
pub struct BenchSelfplayArgs {
    /// Simulations per move, comma-separated (one run each).
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "32,128")]
    pub sims: Vec<u32>,
    /// Evaluator: `net` (the default self-play network, fresh weights, or --net), `uniform`.
    #[arg(long, value_name = "KIND", default_value = "net")]
    pub evaluator: String,
    /// A saved network directory to use instead of a fresh default network.
    #[arg(long, value_name = "DIR")]
    pub net: Option<PathBuf>,
    /// Games per run (1..=10000000).
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub games: u64,
    /// Games stepped together, 1..=65536 (their leaves share one network call per step).
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub concurrent: usize,
    /// Ply cap, 1..=100000 (games are adjudicated drawn there).
    #[arg(long, value_name = "P", default_value_t = 120)]
    pub ply_cap: u32,
    /// Root search: gumbel or puct.
    #[arg(long, value_name = "KIND", default_value = "gumbel")]
    pub search: String,
    /// Rule set.
    #[arg(long, value_name = "NAME", default_value = "fiveup")]
    pub ruleset: String,
}

#[cfg(feature = "torch")]
fn net_evaluator(dir: Option<&Path>) -> Result<Box<dyn Evaluator>> {
    use fiveup::nn::torch::{default_device, Model, NetConfig, TorchBackend};
    let model = match dir {
        Some(d) => Model::load(d, default_device()).with_context(|| format!("cannot load network {}", d.display()))?,
        None => Model::new(&NetConfig::SELFPLAY, default_device())?,
    };
    Ok(Box::new(fiveup::nn::NetworkEvaluator::new(TorchBackend::new(model, 256))))
}

#[cfg(not(feature = "torch"))]
fn net_evaluator(_: Option<&Path>) -> Result<Box<dyn Evaluator>> {
    bail!("fiveup was built without the `torch` feature: use --evaluator uniform, or rebuild with default features")
}

/// Runs `fiveup bench selfplay`: games/hour, simulations/s, evaluations/s and the share of wall
/// time spent outside the evaluator, one line per simulation budget.
pub fn run_bench_selfplay(a: &BenchSelfplayArgs, out: &mut dyn Write) -> Result<()> {
    let ruleset: Ruleset = a.ruleset.parse()?;
    let kind = match a.search.as_str() {
        "gumbel" => SearchKind::Gumbel,
        "puct" => SearchKind::Puct,
        other => bail!("--search {other:?}: expected gumbel or puct"),
    };
    if a.sims.is_empty() || a.sims.iter().any(|&s| s == 0 || s > 100_000) {
        bail!("--sims must list budgets from 1 to 100000");
    }
    super::common::bound("--games", a.games, 1, super::common::MAX_GAMES as u64)?;
    super::common::bound("--concurrent", a.concurrent, 1, MAX_CONCURRENT_GAMES)?;
    super::common::bound("--ply-cap", a.ply_cap as usize, 1, super::common::MAX_PLIES)?;
    let mut eval: Box<dyn Evaluator> = match a.evaluator.as_str() {
        "net" => net_evaluator(a.net.as_deref())?,
        "uniform" => Box::new(UniformEvaluator::default()),
        other => bail!("--evaluator {other:?}: expected net or uniform"),
    };
    writeln!(
        out,
        "evaluator {}, {:?}, {} games, {} at a time, ply cap {}, {} threads",
        eval.name(),
        kind,
        a.games,
        a.concurrent,
        a.ply_cap,
        rayon::current_num_threads()
    )?;
    for &sims in &a.sims {
        let search = SearchConfig { kind, ..SearchConfig::default() };
        let cfg = bench_config(Variant::plain(ruleset), search, sims, a.concurrent, a.games, a.ply_cap);
        let r = bench(&cfg, eval.as_mut())?;
        writeln!(out, "sims {sims:>4}: {}", r.line())?;
    }
    Ok(())
}
