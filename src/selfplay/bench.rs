//! Self-play throughput measurement (what `fiveup bench selfplay` will print).

use super::driver::{run, SelfPlayConfig, SelfPlayCounts};
use super::game::SelfPlayGame;
use crate::mcts::SearchConfig;
use crate::nn::Evaluator;

/// What [`bench`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// The run's counters.
    pub progress: SelfPlayCounts,
    /// Games per hour.
    pub games_per_hour: f64,
    /// Simulations per second.
    pub sims_per_sec: f64,
    /// Evaluations per second.
    pub evals_per_sec: f64,
    /// Mean positions per evaluator call.
    pub mean_batch: f64,
    /// Share of wall time outside the evaluator.
    pub outside_eval_share: f64,
}

impl BenchReport {
    /// A one-line summary.
    pub fn line(&self) -> String {
        format!(
            "{} games, {} plies in {:.1}s: {:.0} games/h, {:.0} sims/s, {:.0} evals/s, batch {:.0}, outside evaluator {:.1}%",
            self.progress.games,
            self.progress.plies,
            self.progress.elapsed.as_secs_f64(),
            self.games_per_hour,
            self.sims_per_sec,
            self.evals_per_sec,
            self.mean_batch,
            100.0 * self.outside_eval_share
        )
    }
}

/// A self-play config for benchmarking: every move a full search of `sims` simulations, no
/// random opening, `concurrent` games at a time, `games` in all, capped at `ply_cap` plies.
pub fn bench_config<S>(
    start: S,
    search: SearchConfig,
    sims: u32,
    concurrent: usize,
    games: u64,
    ply_cap: u32,
) -> SelfPlayConfig<S> {
    SelfPlayConfig {
        concurrent_games: concurrent,
        total_games: games,
        search,
        full_simulations: sims,
        cheap_simulations: sims,
        full_search_prob: 1.0,
        random_opening_plies: 0,
        ply_cap,
        ..SelfPlayConfig::with_start(start)
    }
}

/// Runs `cfg` with `evaluator`, discarding the games, and reports throughput (or the
/// evaluator's failure).
pub fn bench<S: SelfPlayGame>(
    cfg: &SelfPlayConfig<S>,
    evaluator: &mut dyn Evaluator<S>,
) -> Result<BenchReport, crate::nn::EvalError> {
    let p = run(cfg, evaluator, &mut |_| {}, &mut |_| {})?;
    Ok(BenchReport {
        games_per_hour: p.games_per_hour(),
        sims_per_sec: p.sims_per_sec(),
        evals_per_sec: p.evals_per_sec(),
        mean_batch: p.evals as f64 / p.eval_calls.max(1) as f64,
        outside_eval_share: p.outside_eval_share(),
        progress: p,
    })
}
