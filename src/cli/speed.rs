//! `fiveup bench search`: alpha-beta nodes per second from the start positions, on one thread or
//! several (`--threads`, Lazy SMP); then the one-thread bench signature (of the 5x5x5 games).

use anyhow::{bail, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::engine::mixed3d::{M3Board, M3Weights};
use fiveup::engine::quasi_alice::{QaBoard, QaWeights};
use fiveup::engine::{bench, Engine, EngineConfig, Limits, SearchBoard, Weights};
use fiveup::rules::{Position, Ruleset, Variant};
use std::io::Write;

/// Deepest search `bench search` accepts (depth 9 from a start position already takes minutes).
const MAX_DEPTH: u32 = 9;

/// `fiveup bench search`.
#[derive(Args, Debug)]
pub struct BenchSearchArgs {
    /// Search depths, comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "5,6,7")]
    pub depths: Vec<u32>,
    /// Rulesets whose start positions are searched, comma-separated (`quasi-alice` and `mixed3d`
    /// too).
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "fiveup,raumschach")]
    pub rulesets: Vec<String>,
    /// Runs per search; the best and the median are reported (other processes only slow a run).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeat: usize,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
    /// Search threads (Lazy SMP); nodes per second count every thread's nodes.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// NNUE network files (repeatable): the searches of a network's ruleset evaluate with it, and
    /// its incremental evaluation speed is measured on its own.
    #[arg(long, value_name = "FILE")]
    pub nnue: Vec<std::path::PathBuf>,
    /// A weights/values TOML file (as `ab:values=FILE`) the hand evaluation of every searched
    /// ruleset plays with instead of the defaults, e.g. to measure what a term costs (a
    /// Quasi-Alice or Mixed 3D weights file when `--rulesets` names that game alone).
    #[arg(long, value_name = "FILE")]
    pub values: Option<std::path::PathBuf>,
}

/// Runs `fiveup bench search`: per ruleset and depth, the nodes of a fresh-engine search from the
/// start position and its nodes per second (search time only, the engine built beforehand); then
/// the `engine::bench` signature at depth 4 with its speed.
pub fn run(a: &BenchSearchArgs, out: &mut dyn Write) -> Result<()> {
    let games = a.rulesets.iter().map(|r| r.parse::<GameId>()).collect::<Result<Vec<_>, _>>()?;
    let rulesets: Vec<Ruleset> = games.iter().filter_map(|g| g.five_up("").ok()).collect();
    let quasi_alice = games.contains(&GameId::QuasiAlice);
    let mixed3d = games.contains(&GameId::Mixed3d);
    let others = usize::from(quasi_alice) + usize::from(mixed3d) + usize::from(!rulesets.is_empty());
    if a.depths.is_empty() || a.depths.iter().any(|&d| d == 0 || d > MAX_DEPTH) {
        bail!("--depths must list depths from 1 to {MAX_DEPTH}");
    }
    if games.is_empty() {
        bail!("--rulesets must name at least one ruleset");
    }
    if others > 1 && a.values.is_some() {
        bail!(
            "--values: a weights file is for one kind of game; name quasi-alice, mixed3d or the 5x5x5 rulesets alone"
        );
    }
    if !a.nnue.is_empty() && rulesets.is_empty() {
        bail!("--nnue: there are NNUE networks for the 5x5x5 rulesets only");
    }
    if !(1..=100).contains(&a.repeat) {
        bail!("--repeat must be from 1 to 100");
    }
    if !(1..=4096).contains(&a.hash) {
        bail!("--hash must be from 1 to 4096 MiB");
    }
    fiveup::engine::tt::check_fits(a.hash).map_err(|e| anyhow::anyhow!("--hash: {e}"))?;
    if !(1..=fiveup::engine::MAX_THREADS).contains(&a.threads) {
        bail!("--threads must be from 1 to {}", fiveup::engine::MAX_THREADS);
    }
    let mut nets = Vec::new();
    for f in &a.nnue {
        let net = fiveup::engine::nnue::Network::load(f, None)?;
        if !rulesets.contains(&net.ruleset) {
            bail!("--nnue {}: a network for {}, which --rulesets does not name", f.display(), net.ruleset);
        }
        nets.push(std::sync::Arc::new(net));
    }
    let net_for = |rs: Ruleset| nets.iter().find(|n| n.ruleset == rs).cloned();
    let qa_weights = match (&a.values, quasi_alice) {
        (Some(f), true) => QaWeights::from_file(f).map_err(|e| anyhow::anyhow!("--values {}: {e}", f.display()))?,
        _ => QaWeights::default(),
    };
    let m3_weights = match (&a.values, mixed3d) {
        (Some(f), true) => M3Weights::from_file(f).map_err(|e| anyhow::anyhow!("--values {}: {e}", f.display()))?,
        _ => M3Weights::default(),
    };
    let weights = rulesets
        .iter()
        .map(|&rs| match &a.values {
            Some(f) => Weights::from_file(rs, f).map_err(|e| anyhow::anyhow!("--values {}: {e}", f.display())),
            None => Ok(Weights::for_ruleset(rs)),
        })
        .collect::<Result<Vec<_>>>()?;
    let config = EngineConfig { hash_mb: a.hash, keep_tt: false, threads: a.threads };
    let threads = if a.threads == 1 { "one thread".to_string() } else { format!("{} threads", a.threads) };
    let values = a.values.as_ref().map_or(String::new(), |f| format!(", values {}", f.display()));
    writeln!(out, "search speed: {threads}, {} MiB table{values}, best and median of {} runs", a.hash, a.repeat)?;
    writeln!(
        out,
        "{:<11} {:>5} {:>5} {:>11} {:>10} {:>12}",
        "ruleset", "eval", "depth", "nodes", "best M/s", "median M/s"
    )?;
    for (&rs, w) in rulesets.iter().zip(&weights) {
        let eval = if net_for(rs).is_some() { "nnue" } else { "hand" };
        let pos = Position::startpos(Variant::plain(rs));
        for &depth in &a.depths {
            let (nodes, best, median) = speed(a.repeat, &pos, depth, || {
                let mut engine = Engine::new(w.clone(), config.clone());
                engine.set_network(net_for(rs));
                engine
            });
            writeln!(out, "{:<11} {eval:>5} {depth:>5} {nodes:>11} {best:>10.2} {median:>12.2}", rs.name())?;
        }
    }
    let mut row = |game: GameId, (nodes, best, median): (u64, f64, f64), depth: u32| {
        writeln!(out, "{:<11} {:>5} {depth:>5} {nodes:>11} {best:>10.2} {median:>12.2}", game, "hand")
    };
    for &depth in &a.depths {
        if quasi_alice {
            let pos = fiveup::quasi_alice::Position::start();
            let r = speed(a.repeat, &pos, depth, || Engine::<QaBoard>::with_eval(qa_weights.clone(), config.clone()));
            row(GameId::QuasiAlice, r, depth)?;
        }
        if mixed3d {
            let pos = fiveup::mixed3d::Position::start();
            let r = speed(a.repeat, &pos, depth, || Engine::<M3Board>::with_eval(m3_weights.clone(), config.clone()));
            row(GameId::Mixed3d, r, depth)?;
        }
    }
    if rulesets.is_empty() {
        return Ok(());
    }
    for net in &nets {
        let mut rates: Vec<f64> = (0..a.repeat).map(|_| incremental_evals_per_second(net)).collect();
        let (best, median) = best_and_median(&mut rates);
        writeln!(
            out,
            "nnue {} ({}): incremental evaluation (update after a move, then evaluate) {best:.2} M/s best, {median:.2} median; vector instructions: {}",
            net.ruleset,
            net.dims,
            fiveup::engine::nnue::simd_name()
        )?;
    }
    // The signature is always one thread's (helpers make node counts depend on timing).
    let runs: Vec<_> = (0..a.repeat).map(|_| bench(4, a.hash)).collect();
    let mut rates: Vec<f64> = runs.iter().map(|b| b.nps() / 1e6).collect();
    let (best, median) = best_and_median(&mut rates);
    writeln!(
        out,
        "bench signature: depth 4, {} positions, {} nodes; {best:.2} M nodes/s best, {median:.2} median",
        runs[0].positions, runs[0].nodes
    )?;
    Ok(())
}

/// Searches `pos` to `depth` `repeat` times, each with a fresh engine from `engine`: the node count
/// and the best and median millions of nodes per second (search time only).
fn speed<B: SearchBoard>(repeat: usize, pos: &B::Pos, depth: u32, engine: impl Fn() -> Engine<B>) -> (u64, f64, f64) {
    let mut rates = Vec::with_capacity(repeat);
    let mut nodes = 0;
    for _ in 0..repeat {
        let mut e = engine();
        let r = e.search(pos, &[], &Limits::depth(depth), None, |_| {});
        nodes = r.nodes;
        rates.push(r.nodes as f64 / r.time.as_secs_f64().max(1e-9) / 1e6);
    }
    let (best, median) = best_and_median(&mut rates);
    (nodes, best, median)
}

/// Millions of incremental evaluations per second: [`fiveup::engine::nnue::measured_walk`] (along random
/// games of the network's ruleset, each move followed by an accumulator update and an
/// evaluation, what the search does at a node that evaluates after one move).
fn incremental_evals_per_second(net: &fiveup::engine::nnue::Network) -> f64 {
    // The positions and their first accumulators first (move generation and refreshes are not
    // what is measured), then the timed walk.
    let games = fiveup::engine::nnue::benchmark_games(net.ruleset);
    let starts = fiveup::engine::nnue::walk_starts(net, &games);
    // One walk takes a few milliseconds: walks until a tenth of a second has passed, so that one
    // figure is not one scheduler tick's luck.
    let start = std::time::Instant::now();
    let mut evals = 0;
    while start.elapsed() < std::time::Duration::from_millis(100) {
        let (n, sum) = fiveup::engine::nnue::measured_walk(net, &games, &starts);
        std::hint::black_box(sum);
        evals += n;
    }
    evals as f64 / start.elapsed().as_secs_f64().max(1e-9) / 1e6
}

/// The largest and the median of `v` (not empty).
fn best_and_median(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() - 1], v[(v.len() - 1) / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_and_median_of_runs() {
        assert_eq!(best_and_median(&mut [2.0, 3.0, 1.0]), (3.0, 2.0));
        assert_eq!(best_and_median(&mut [1.5]), (1.5, 1.5));
        assert_eq!(best_and_median(&mut [4.0, 1.0, 2.0, 3.0]), (4.0, 2.0));
    }
}
