//! `fiveup games worker`: plays the games of an evaluation that a `match`, `sprt`, `tournament`
//! or `values` run with `--run URL` coordinates (docs/SCALING.md).

use super::common::MAX_THREADS;
use anyhow::{bail, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::eval::distributed::{open_store, run_worker, valid_worker_name, worker, WorkerConfig};
use fiveup::store::RunLocation;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `fiveup games worker`.
#[derive(Args, Debug)]
pub struct WorkerArgs {
    /// The evaluation's prefix or directory, as its coordinator's --run names it.
    #[arg(long, value_name = "URL")]
    pub run: String,
    /// This worker's name on the store (letters, digits, '-', '_', '.') [default: host name and
    /// process id].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Games played at once, 1..=1024 [default: 1].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Folder for the files the players read (networks, NNUE and weights files), fetched from the
    /// store [default: $XDG_CACHE_HOME/fiveup/runs/<URL>-games-<NAME>].
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Keep waiting when the evaluation has ended, instead of exiting (pods of a Deployment).
    #[arg(long)]
    pub stay: bool,
    /// Play outside engines (`uci:COMMAND` players): they run a command the evaluation names, so
    /// only for a store whose writers you trust; the engine must be installed where it names it.
    #[arg(long)]
    pub allow_uci: bool,
}

/// Set by Ctrl-C or SIGTERM: the worker releases its pairs and stops.
static STOP: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

/// Runs the worker until the evaluation ends (exit 0) or a signal stops it (exit 130).
pub fn run(a: &WorkerArgs, out: &mut dyn Write) -> Result<()> {
    let name = match &a.name {
        Some(n) => n.clone(),
        None => format!("{}-{}", fiveup::store::lease::host_name(), std::process::id())
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' })
            .collect(),
    };
    if !valid_worker_name(&name) {
        bail!("--name {name:?}: use 1 to 100 letters, digits, '-', '_' or '.', not starting with '.'");
    }
    let threads = match a.concurrency {
        Some(n) => {
            super::common::bound("--concurrency", n, 1, MAX_THREADS)?;
            n
        }
        None => 1,
    };
    let location = RunLocation::parse(&a.run)?;
    let remote = Arc::new(open_store(&location, false)?);
    let cache =
        a.cache.clone().unwrap_or_else(|| RunLocation::default_cache(&location.display(), &format!("games-{name}")));
    std::fs::create_dir_all(&cache).map_err(|e| anyhow::anyhow!("--cache {}: {e}", cache.display()))?;
    let stop = STOP.get_or_init(|| Arc::new(AtomicBool::new(false))).clone();
    let flag = stop.clone();
    let installed = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            super::common::exit_at_once(130);
        }
        eprintln!("\nstopping: the pairs in progress are given up for other workers (Ctrl-C again to stop at once)");
    });
    if let Err(e) = installed {
        tracing::warn!("no Ctrl-C handler ({e}); a killed worker's pair is played again after its claim expires");
    }
    let Some(d) = worker::wait_for_descriptor(&remote, &stop)? else {
        bail!("stopped before a coordinator started");
    };
    let cfg = WorkerConfig {
        name,
        concurrency: threads,
        cache,
        stay: a.stay,
        poll: std::time::Duration::from_secs(1),
        allow_uci: a.allow_uci,
    };
    let game: GameId = d.game.parse()?;
    let summary = match game {
        GameId::FiveUp(_) => run_worker::<fiveup::rules::Position>(remote, &d, cfg, stop.clone())?,
        GameId::QuasiAlice => run_worker::<fiveup::quasi_alice::Position>(remote, &d, cfg, stop.clone())?,
        GameId::Mixed3d => run_worker::<fiveup::mixed3d::Position>(remote, &d, cfg, stop.clone())?,
    };
    writeln!(
        out,
        "worker: {} pairs ({} games) counted, {} played by another worker first, {} given up; {}",
        summary.pairs, summary.games, summary.duplicates, summary.abandoned, summary.ended
    )?;
    if stop.load(Ordering::SeqCst) {
        out.flush()?;
        super::common::exit_at_once(130);
    }
    Ok(())
}

/// `fiveup games status`.
#[derive(Args, Debug)]
pub struct StatusArgs {
    /// The evaluation's prefix or directory.
    #[arg(long, value_name = "URL")]
    pub run: String,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Prints an evaluation's state: its command, pairs posted, claimed and finished, workers.
pub fn run_status(a: &StatusArgs, out: &mut dyn Write) -> Result<()> {
    use fiveup::eval::distributed::{claim, layout};
    let remote = open_store(&RunLocation::parse(&a.run)?, false)?;
    let Some((bytes, _)) = remote.get(layout::DESCRIPTOR)? else {
        bail!("{}: no evaluation here (no games.json)", remote.url());
    };
    let d: fiveup::eval::distributed::Descriptor = serde_json::from_slice(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: not a fiveup evaluation: {e}", remote.url_of(layout::DESCRIPTOR)))?;
    let control = worker::control(&remote)?;
    let now = fiveup::store::remote::now();
    let jobs = remote.list("jobs/")?.len();
    let claims = claim::states(&remote.list("claims/")?);
    let held = claims.values().filter(|c| !c.released && now - c.modified <= d.claim_ttl_s).count();
    let results = remote.list("results/")?.len();
    let rejected = remote.list("rejected/")?.len();
    let failed: Vec<String> = remote.list("failed/")?.into_iter().map(|o| o.name).collect();
    let mut workers = Vec::new();
    for o in remote.list("workers/")? {
        if let Some((b, _)) = remote.get(&o.name)? {
            let mut v: serde_json::Value = serde_json::from_slice(&b).unwrap_or_default();
            if !v.is_object() {
                v = serde_json::json!({ "name": o.name });
            }
            v["seen_s_ago"] = serde_json::json!((now - o.modified).max(0.0).round());
            workers.push(v);
        }
    }
    if a.json {
        let v = serde_json::json!({
            "descriptor": d, "control": control, "jobs_posted": jobs, "claims_held": held,
            "results": results, "rejected": rejected, "failed": failed, "workers": workers,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    writeln!(out, "evaluation {}: `fiveup {}` ({}, fiveup {})", remote.url(), d.command, d.game, d.fiveup)?;
    let reason = if control.reason.is_empty() { String::new() } else { format!(": {}", control.reason) };
    writeln!(out, "state: {}{reason}", control.state)?;
    writeln!(out, "pairs: {results} results, {jobs} posted and waiting, {held} being played, {rejected} refused")?;
    for f in &failed {
        writeln!(out, "failed: {f}")?;
    }
    for w in &workers {
        writeln!(
            out,
            "worker {}: {} pairs, {} games, playing {}, seen {} s ago ({})",
            w["name"].as_str().unwrap_or("?"),
            w["pairs"],
            w["games"],
            w["playing"].as_array().map_or(0, Vec::len),
            w["seen_s_ago"],
            w["host"].as_str().unwrap_or("?"),
        )?;
    }
    Ok(())
}
