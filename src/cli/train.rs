//! The training commands: `train`, `selfplay` (an extra worker) and `runs` (status, held-out
//! measurements), with the Ctrl-C handling of a training run.

use super::common;
use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

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
    /// Threads inside each network operation, 1..=256 (default: libtorch's, one per core). On a
    /// machine busy with other work use fewer than the free cores: a thread waiting for a
    /// descheduled partner spins, and evaluation slows many times over.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Applies `--threads` (checked first).
fn torch_threads(threads: Option<usize>) -> Result<()> {
    if let Some(n) = threads {
        common::bound("--threads", n as u64, 1, 256)?;
        #[cfg(feature = "torch")]
        fiveup::nn::torch::set_threads(n);
    }
    Ok(())
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
    /// Threads inside each network operation, 1..=256 (default: libtorch's, one per core; see
    /// `fiveup train --threads`).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Ctrl-C (or SIGTERM, as a cluster stops a job) during `train`: the first asks the trainer to stop at its next safe point (a training
/// step, after a checkpoint, or the end of the phase) and says how to resume; a second exits at
/// once (every file of a run is written atomically, so a run killed anywhere resumes).
fn install_train_interrupt() {
    let resume = super::errors::resume_command();
    let pressed = std::sync::atomic::AtomicBool::new(false);
    let installed = ctrlc::set_handler(move || {
        if pressed.swap(true, std::sync::atomic::Ordering::SeqCst) {
            eprintln!("\nstopped; resume with: {resume}");
            common::exit_at_once(130);
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

pub fn run_train(a: TrainArgs, out: &mut dyn Write) -> Result<()> {
    torch_threads(a.threads)?;
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

pub fn run_selfplay(a: &SelfplayArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(n) = a.games {
        common::bound("--games", n, 1, common::MAX_GAMES as u64)?;
    }
    torch_threads(a.threads)?;
    install_train_interrupt();
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

pub fn run_runs_status(a: &RunsStatusArgs, out: &mut dyn Write) -> Result<()> {
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

pub fn run_runs_heldout(a: &RunsHeldoutArgs, out: &mut dyn Write) -> Result<()> {
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
        .map(|s| s.parse::<fiveup::player::spec::PlayerSpec>().map_err(|e| anyhow::Error::new(e).context("--player")))
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
    cfg: &fiveup::train::config::TrainConfig,
    players: &[fiveup::player::spec::PlayerSpec],
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
