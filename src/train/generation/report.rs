//! The report that ends a generation: a `generation` line in `metrics.jsonl`, the progress plot,
//! and one summary line on stdout.

use super::{unix_time, Timings, Trainer};
use crate::train::game::TrainGame;
use crate::train::learner::StepStats;
use crate::train::rundir::Phase;
use crate::train::worker::count_games;
use crate::train::{plots, replay, TrainError};
use serde_json::json;

impl<S: TrainGame> Trainer<'_, S> {
    pub(super) fn report(&mut self) -> Result<(), TrainError> {
        let g = self.state.generation;
        if self.replay.total() == 0 {
            self.load_replay()?;
        }
        let metrics = self.run.read_metrics();
        let mine: Vec<StepStats> = metrics
            .iter()
            .filter(|m| m["kind"] == "train" && m["generation"] == g && m["bootstrap"] != true)
            .filter_map(|m| serde_json::from_value(m.clone()).ok())
            .collect();
        let m = StepStats::mean(&mine);
        let ladder = self.read_ladder(g + 1)?;
        let games = count_games(&self.run.shard_dir(g));
        let held = self.heldout_metrics(g + 1)?;
        let sp_games: Vec<crate::selfplay::GameRecord> = replay::shard_files(&self.run.shard_dir(g))
            .iter()
            .filter_map(|p| crate::selfplay::read_shard(p).ok())
            .flatten()
            .collect();
        let sp = crate::selfplay::SelfplayStats::from_games(&sp_games);
        let anchors: Vec<(f64, f64, f64)> = ladder
            .iter()
            .filter_map(|r| {
                let elo = self.cfg.evaluation.anchor_elo.get(&r.opponent)?;
                Some((*elo, r.games.points(), r.games.games() as f64))
            })
            .collect();
        let strength = crate::eval::elo::anchored_elo(&anchors);
        let line = json!({
            "kind": "generation", "generation": g + 1, "best": self.run.read_best()?.unwrap_or(0),
            "step": self.step, "games": games, "samples_total": self.replay.total(),
            "policy_loss": m.policy_loss, "value_loss": m.value_loss, "moves_left_loss": m.moves_left_loss,
            "policy_accuracy": m.policy_accuracy,
            "ladder": ladder.iter().map(|r| json!({"opponent": r.opponent, "score": r.score, "elo": r.elo, "games": r.games.games()})).collect::<Vec<_>>(),
            "selfplay_seconds": self.timings.selfplay, "games_per_second": self.timings.games_per_sec,
            "train_seconds": self.timings.train, "evaluate_seconds": self.timings.evaluate,
            "heldout_policy_top1": held.map(|h| h.policy_top1), "heldout_value_ce": held.map(|h| h.value_ce),
            "heldout_score_mse": held.map(|h| h.score_mse),
            "anchored_elo": strength, "unix_time": unix_time(), "selfplay": sp,
        });
        // A report killed after this line was written runs again: its line is not repeated.
        let mut all = metrics;
        if !all.iter().any(|m| m["kind"] == "generation" && m["generation"] == g + 1) {
            self.run.append_metrics(&line)?;
            all.push(line);
        }
        if let Err(e) = plots::draw_progress(&self.run.plots_dir().join("progress.png"), &all) {
            tracing::warn!("{e}");
        }
        let ladder_text: Vec<String> = ladder.iter().map(|r| format!("{} {:.2}", r.opponent, r.score)).collect();
        let held_text = held.map_or(String::new(), |h| {
            format!(" | held-out top1 {:.3} vce {:.3} smse {:.4}", h.policy_top1, h.value_ce, h.score_mse)
        });
        let elo_text = strength.map_or(String::new(), |a| format!(" | Elo {}", format_anchored(&a)));
        let sp_text = format!(
            " | self-play W/D/L {}/{}/{} len {:.0} resign {} cap {} false-resign {}",
            sp.white_wins,
            sp.draws,
            sp.black_wins,
            sp.mean_plies,
            sp.resignations,
            sp.ply_cap_games,
            // The count beside the rate: a tenth of ~60 would-be resignations is a handful of games.
            sp.false_resign_rate
                .map_or("-".to_string(), |r| format!("{r:.2} ({}/{})", sp.false_resignations, sp.would_resign_games))
        );
        let summary = format!(
            "gen {:>4} | games {games} samples {} | step {} | loss policy {:.3} value {:.3} mleft {:.3} | acc {:.3} | best gen-{:04} | ladder: {}{sp_text}{held_text}{elo_text}",
            g + 1,
            self.replay.total(),
            self.step,
            m.policy_loss,
            m.value_loss,
            m.moves_left_loss,
            m.policy_accuracy,
            self.run.read_best()?.unwrap_or(0),
            if ladder_text.is_empty() { "-".to_string() } else { ladder_text.join(", ") }
        );
        writeln!(self.out, "{summary}").map_err(|e| TrainError::io(std::path::Path::new("<stdout>"), e))?;
        let _ = self.out.flush();
        self.timings = Timings::default();
        self.state.generation = g + 1;
        self.state.train_target = self.step;
        self.set_phase(if self.state.generation >= self.cfg.generations { Phase::Finished } else { Phase::Selfplay })
    }
}

/// `+123 [+80, +170]`, with `>`/`<` and open ends for one-sided bounds.
pub fn format_anchored(a: &crate::eval::elo::AnchoredElo) -> String {
    let f = |x: Option<f64>, open: &str| x.map_or(open.to_string(), |v| format!("{v:+.0}"));
    match a.elo {
        Some(e) => format!("{e:+.0} [{}, {}]", f(a.lo95, "-inf"), f(a.hi95, "+inf")),
        None if a.hi95.is_none() => format!("> {} (95%)", f(a.lo95, "-inf")),
        None => format!("< {} (95%)", f(a.hi95, "+inf")),
    }
}
