//! The gate and the ladder of a generation: arena matches of the new network against the best
//! (an SPRT that decides whether it becomes `best`) and against each rung of the alpha-beta ladder,
//! with their results and game records under `eval/`.

use super::Trainer;
use crate::eval::runner::PlayerSource;
use crate::progress::Progress;
use crate::rng::mix_seed;
use crate::train::arena::{gate, net_source, opponent_source, play_match, GateResult, MatchResult, MatchSettings};
use crate::train::game::TrainGame;
use crate::train::gate::recorded_or_play;
use crate::train::rundir::{atomic_write, Phase};
use crate::train::TrainError;
use std::path::PathBuf;
use std::time::Instant;

impl<S: TrainGame> Trainer<'_, S> {
    fn net_player(&self, g: u32) -> PlayerSource<S> {
        net_source(&self.cfg, g, self.run.model_dir(g))
    }

    pub(super) fn gate(&mut self) -> Result<(), TrainError> {
        let cand = self.state.generation + 1;
        let path = self.run.eval_dir().join(format!("gate-{cand:04}.json"));
        let play = || -> Result<GateResult, TrainError> {
            let best = self.run.read_best()?.unwrap_or(0);
            let e = self.cfg.evaluation.clone();
            let (a, b) = (self.net_player(cand), self.net_player(best));
            let seed = mix_seed(&[self.cfg.seed, 0x6761_7465, cand as u64]);
            let s = MatchSettings::<S>::from_config(&self.cfg, 0, seed, format!("gate gen-{cand:04}"))?;
            let (r, records) =
                gate(&a, &b, (cand, best), (e.sprt_elo0, e.sprt_elo1), e.sprt_alpha, e.gating_max_games, &s)?;
            write_records(&self.run.eval_dir().join(format!("gate-{cand:04}.games")), &records)?;
            Ok(r)
        };
        let result: GateResult = recorded_or_play(
            &path,
            |file| read_eval_json(file, "replay the gate"),
            play,
            |r| serde_json::to_string_pretty(r).expect("serialises") + "\n",
            TrainError::io,
        )?;
        tracing::info!(
            "gate gen-{cand:04} vs gen-{:04}: score {:.3} LLR {:.2} {:?} → {}",
            result.best,
            result.result.score,
            result.llr,
            result.decision,
            if result.accepted { "accepted" } else { "rejected" }
        );
        if result.accepted {
            self.run.write_best(cand)?;
            self.state.best = cand;
        }
        self.set_phase(Phase::Evaluate)
    }

    fn ladder_path(&self, g: u32) -> PathBuf {
        self.run.eval_dir().join(format!("gen-{g:04}.json"))
    }

    pub(super) fn read_ladder(&self, g: u32) -> Result<Vec<MatchResult>, TrainError> {
        Ok(read_eval_json(&self.ladder_path(g), "replay its ladder matches")?.unwrap_or_default())
    }

    pub(super) fn evaluate(&mut self) -> Result<(), TrainError> {
        let g = self.state.generation + 1;
        let e = self.cfg.evaluation.clone();
        if e.every > 0 && g % e.every == 0 && e.games_per_rung > 0 && !e.ladder.is_empty() {
            let t0 = Instant::now();
            let mut done = self.read_ladder(g)?;
            let me = self.net_player(g);
            let games_path = self.run.eval_dir().join(format!("gen-{g:04}.games"));
            // Records of the rungs already done (a rung cut short by a kill is replayed whole).
            let mut records: Vec<crate::eval::records::TextRecord<S>> =
                crate::eval::records::read_records_of::<S>(&games_path)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|r| done.iter().any(|d| r.event == format!("gen-{g:04} vs {}", d.opponent)))
                    .collect();
            for (i, spec) in e.ladder.iter().enumerate().skip(done.len()) {
                let opp = opponent_source::<S>(spec, mix_seed(&[self.cfg.seed, g as u64, i as u64]))?;
                let pairs = e.games_per_rung.div_ceil(2);
                let bar = Progress::new(pairs as u64, &format!("gen {g} vs {spec}"), "pairs");
                bar.resume_at(0);
                let seed = mix_seed(&[self.cfg.seed, 0x6c61_6464, g as u64, i as u64]);
                let s = MatchSettings::<S>::from_config(&self.cfg, pairs, seed, format!("gen-{g:04} vs {spec}"))?;
                let (mut r, recs) = play_match(&me, &opp, &s, &mut |r, _| {
                    bar.set_position(r.pairs.pairs());
                    bar.set_message(format!("score {:.3}", r.score));
                    true
                })?;
                bar.finish();
                tracing::info!("gen-{g:04} vs {spec}: {} score {:.3}", r.games, r.score);
                records.extend(recs);
                write_records(&games_path, &records)?;
                // The spec as configured names the rung (a bare `random` plays as random:seed=…).
                r.opponent = spec.clone();
                done.push(r);
                let text = serde_json::to_string_pretty(&done).expect("serialises") + "\n";
                atomic_write(&self.ladder_path(g), text.as_bytes())?;
            }
            self.timings.evaluate = t0.elapsed().as_secs_f64();
        }
        self.set_phase(Phase::Report)
    }
}

/// Reads a result file of `eval/` written by an earlier run of this phase: `None` when there is
/// none (the matches are played), an error naming the file and the fix when it is damaged (it is
/// never silently ignored: that would replay hours of matches without a word). `redo` says what
/// deleting it does.
pub fn read_eval_json<T: serde::de::DeserializeOwned>(
    path: &std::path::Path,
    redo: &str,
) -> Result<Option<T>, TrainError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(TrainError::io(path, e)),
    };
    serde_json::from_str(&text).map(Some).map_err(|e| TrainError::Invalid {
        path: path.to_path_buf(),
        detail: format!("damaged result file ({e}); delete it to {redo}"),
    })
}

/// Writes the PGN-style records of an evaluation or gating match next to its JSON results.
fn write_records<S: TrainGame>(
    path: &std::path::Path,
    records: &[crate::eval::records::TextRecord<S>],
) -> Result<(), TrainError> {
    let text: String = records.iter().map(|r| r.to_text() + "\n").collect();
    atomic_write(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_eval_results_are_errors_naming_the_file_and_the_fix() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("gate-0003.json");
        assert!(read_eval_json::<GateResult>(&path, "replay the gate").unwrap().is_none(), "none yet");
        std::fs::write(&path, "{\"accepted\": tru").unwrap();
        let e = read_eval_json::<GateResult>(&path, "replay the gate").unwrap_err().to_string();
        assert!(
            e.contains("gate-0003.json: damaged result file") && e.ends_with("delete it to replay the gate"),
            "{e}"
        );
        let ladder = t.path().join("gen-0003.json");
        std::fs::write(&ladder, "[{\"opponent\": 3}]").unwrap();
        let e = read_eval_json::<Vec<MatchResult>>(&ladder, "replay its ladder matches").unwrap_err().to_string();
        assert!(e.contains("gen-0003.json: damaged result file"), "{e}");
    }
}
