//! `fiveup games export` (self-play shards as PGN-style text), `fiveup games stats` (the results
//! of match records, pooled over files) and `fiveup bench selfplay`.

use super::common::RulesetArg;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use fiveup::mcts::{SearchConfig, SearchKind};
use fiveup::nn::{Evaluator, UniformEvaluator};
use fiveup::rules::{Ruleset, Variant};
use fiveup::selfplay::export::record_text;
use fiveup::selfplay::{bench, bench_config, read_shard};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `fiveup games …`.
#[derive(Subcommand, Debug)]
pub enum GamesCommand {
    /// Write self-play games (shard files, or directories searched for `*.shard`) as PGN-style
    /// text records, the format of `match` and `tournament`.
    Export(ExportArgs),
    /// Results of two players' games in match, SPRT or tournament records (`--out` files), per
    /// file and pooled over the files: W/D/L, Elo with 95% intervals (by games and by
    /// colour-swapped pairs), terminations, effort per move, and an SPRT's LLR on request.
    Stats(StatsArgs),
    /// Play the games of an evaluation coordinated through a store (`match`, `sprt`,
    /// `tournament` or `values` with `--run URL`): claims colour-swapped pairs, plays them,
    /// uploads the records; exits when the evaluation ends.
    Worker(super::worker::WorkerArgs),
    /// The state of an evaluation coordinated through a store: its command, pairs finished,
    /// waiting and being played, and its workers.
    Status(super::worker::StatusArgs),
}

/// `fiveup games stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Records files (PGN-style, as `match`, `sprt` and `tournament` write them), each named
    /// once. A last record cut short (a match still running) is left out.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Player A, whose side the results are given from (default: white of each file's first
    /// game). May be repeated for files that spell A differently: in each file A is the first
    /// of them that plays there.
    #[arg(long = "a", value_name = "SPEC")]
    pub a: Vec<String>,
    /// Player B (default: A's opponent in each file's first game of A; then every game of a file
    /// must be between A and B). Named, games between other players are left out. May be
    /// repeated, as --a.
    #[arg(long = "b", value_name = "SPEC")]
    pub b: Vec<String>,
    /// Also test the pooled pairs: elo0 of an SPRT (logistic Elo, -1000..=1000; with --elo1).
    #[arg(long, value_name = "ELO", allow_negative_numbers = true, requires = "elo1")]
    pub elo0: Option<f64>,
    /// Elo of A over B under the SPRT's H1 (above elo0, at most 1000; with --elo0).
    #[arg(long, value_name = "ELO", allow_negative_numbers = true, requires = "elo0")]
    pub elo1: Option<f64>,
    /// The SPRT's false-positive rate, 1e-6..=0.5.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's false-negative rate, 1e-6..=0.5.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub beta: f64,
}

/// Runs `fiveup games stats`: a line per file, then the pooled summary (the format of `match`;
/// player names `A` and `B` when the files name them differently)
/// and, with --elo0/--elo1, the SPRT's verdict on the pooled pairs. Every file is read and
/// checked before anything is printed.
/// The tally of one records file of game `S`: player A is the first of `a` that plays in it (or
/// the first game's white), B likewise; and whether a last record cut short was left out.
fn tally_file<S: fiveup::eval::records::RecordGame>(
    f: &Path,
    a: &[String],
    b: &[String],
) -> Result<(fiveup::eval::tally::Tallied, bool)> {
    let (records, cut) = fiveup::eval::records::read_finished_records_of::<S>(f)?;
    let pick = |names: &[String], flag: &str| -> Result<Option<String>> {
        if names.is_empty() {
            return Ok(None);
        }
        let plays = |n: &String| records.iter().any(|r| &r.white == n || &r.black == n);
        match names.iter().find(|n| plays(n)) {
            Some(n) => Ok(Some(n.clone())),
            None => bail!("{}: no game of {flag} {}", f.display(), names.join(", ")),
        }
    };
    let (pa, pb) = (pick(a, "--a")?, pick(b, "--b")?);
    let t = fiveup::eval::tally::tally_records(&records, pa.as_deref(), pb.as_deref())
        .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
    Ok((t, cut.is_some()))
}

pub fn run_stats(a: &StatsArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::eval::records::records_ruleset;
    use fiveup::eval::{MatchTally, Sprt, SprtConfig};
    let sprt = match (a.elo0, a.elo1) {
        (Some(e0), Some(e1)) => Some(SprtConfig { alpha: a.alpha, beta: a.beta, ..SprtConfig::new(e0, e1) }),
        _ => None,
    };
    // Checked before the files are read.
    if let Some(config) = sprt {
        Sprt::new(config)?;
    }
    // The same file named twice (by any path) would count its games twice.
    let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::new();
    for f in &a.files {
        if let Ok(real) = std::fs::canonicalize(f) {
            if let Some((_, first)) = seen.iter().find(|(r, _)| *r == real) {
                bail!(
                    "{} is the same file as {}: each file's games are counted once, so name it once",
                    f.display(),
                    first.display()
                );
            }
            seen.push((real, f));
        }
    }
    let mut files = Vec::new();
    for f in &a.files {
        // Each file names its game, and is read as one of it.
        let (t, cut) = match records_ruleset(f).as_deref() {
            Some(fiveup::quasi_alice::NAME) => tally_file::<fiveup::quasi_alice::Position>(f, &a.a, &a.b)?,
            Some(fiveup::mixed3d::NAME) => tally_file::<fiveup::mixed3d::Position>(f, &a.a, &a.b)?,
            _ => tally_file::<fiveup::rules::Position>(f, &a.a, &a.b)?,
        };
        files.push((f, t, cut));
    }
    let mut pooled = MatchTally::new();
    for (f, t, cut) in &files {
        let elo = t.tally.pentanomial.elo_interval().or(t.tally.trinomial.elo_interval());
        let tr = t.tally.trinomial;
        let mut notes = Vec::new();
        if *cut {
            notes.push("last record incomplete, left out".to_string());
        }
        if t.others > 0 {
            notes.push(format!("{} games of other players left out", t.others));
        }
        if t.unfinished > 0 {
            notes.push(format!("{} unfinished games left out", t.unfinished));
        }
        if t.tally.unpaired() > 0 {
            notes.push(format!("{} games without their pair", t.tally.unpaired()));
        }
        writeln!(
            out,
            "{}: {} vs {}: W/D/L {} / {} / {}, pairs {}, {}{}",
            f.display(),
            t.a,
            t.b,
            tr.wins,
            tr.draws,
            tr.losses,
            t.tally.pentanomial,
            elo.map_or("-".to_string(), |e| e.to_string()),
            if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) }
        )?;
        pooled.merge(&t.tally);
    }
    let (fa, fb) = (&files[0].1.a, &files[0].1.b);
    let same = files.iter().all(|(_, t, _)| &t.a == fa && &t.b == fb);
    let (name_a, name_b) = if same { (fa.as_str(), fb.as_str()) } else { ("A", "B") };
    if files.len() > 1 {
        writeln!(out, "pooled over {} files:", files.len())?;
    }
    write!(out, "{}", pooled.summary(name_a, name_b))?;
    if let Some(config) = sprt {
        let s = Sprt::with_counts(config, pooled.trinomial, pooled.pentanomial)?.status();
        writeln!(out, "{s}")?;
        writeln!(out, "decision: {}", super::sprt::verdict(&s, "no decision yet"))?;
    }
    Ok(())
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
            let r = record_text(g).with_context(|| format!("{} game {}", f.display(), i + 1))?;
            text.push_str(&r);
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
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
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
    let ruleset: Ruleset = a.ruleset.five_up("bench selfplay")?;
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
        let cfg = bench_config(
            fiveup::rules::Position::startpos(Variant::plain(ruleset)),
            search,
            sims,
            a.concurrent,
            a.games,
            a.ply_cap,
        );
        let r = bench(&cfg, eval.as_mut())?;
        writeln!(out, "sims {sims:>4}: {}", r.line())?;
    }
    Ok(())
}
