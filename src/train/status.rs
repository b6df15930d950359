//! `fiveup runs status`: what a run holds, read straight from its directory or object store
//! (no cache, nothing written): the state, the best network, each generation's shards and
//! games by worker beside what the trainer counted (`eval/selfplay-NNNN.json`), the workers'
//! heartbeats, and with `verify` every shard read whole and checked.

use super::rundir::RunState;
use super::worker::{read_heartbeats, HeartbeatBody};
use super::TrainError;
use crate::store::{Remote, RunLocation};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A run's files, local or remote, read-only.
enum Files {
    Local(PathBuf),
    Remote(Remote),
}

impl Files {
    /// Names (relative to the run) under `prefix`, sorted.
    fn list(&self, prefix: &str) -> Result<Vec<String>, TrainError> {
        match self {
            Files::Remote(r) => Ok(r.list(prefix)?.into_iter().map(|o| o.name).collect()),
            Files::Local(root) => {
                let mut out = Vec::new();
                let mut stack = vec![root.clone()];
                while let Some(dir) = stack.pop() {
                    let Ok(rd) = std::fs::read_dir(&dir) else { continue };
                    for e in rd.flatten() {
                        let p = e.path();
                        if p.is_dir() {
                            stack.push(p);
                        } else if let Ok(rel) = p.strip_prefix(root) {
                            let name = rel.to_string_lossy().replace('\\', "/");
                            if name.starts_with(prefix) {
                                out.push(name);
                            }
                        }
                    }
                }
                out.sort();
                Ok(out)
            }
        }
    }

    fn get(&self, name: &str) -> Result<Option<Vec<u8>>, TrainError> {
        match self {
            Files::Remote(r) => Ok(r.get(name)?.map(|(b, _)| b.to_vec())),
            Files::Local(root) => {
                let p = root.join(name);
                match std::fs::read(&p) {
                    Ok(b) => Ok(Some(b)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(TrainError::io(&p, e)),
                }
            }
        }
    }
}

/// One generation's self-play data.
#[derive(Clone, Debug, Serialize)]
pub struct GenerationStatus {
    /// The generation.
    pub generation: u32,
    /// Shards in the run.
    pub shards: usize,
    /// Games in them (from the headers; from the whole files with `verify`).
    pub games: u64,
    /// Games by worker name.
    pub by_worker: BTreeMap<String, u64>,
    /// What the trainer counted when it closed the generation's self-play (`None` while open).
    pub counted: Option<serde_json::Value>,
}

/// A worker as its heartbeat tells.
#[derive(Clone, Debug, Serialize)]
pub struct WorkerStatus {
    /// The heartbeat.
    #[serde(flatten)]
    pub beat: HeartbeatBody,
    /// Seconds since it was written.
    pub age_s: f64,
    /// Written within three heartbeat intervals and not finished.
    pub alive: bool,
}

/// The outcome of `verify`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Verification {
    /// Shards read.
    pub shards: usize,
    /// Games in them.
    pub games: u64,
    /// Shards that fail to decode, with the reason.
    pub invalid: Vec<String>,
    /// Problems with what the trainer counted: a counted shard missing, invalid, counted twice, or
    /// with another game count than the file; totals that do not add up.
    pub counted_problems: Vec<String>,
    /// No problem at all.
    pub ok: bool,
}

/// Everything `fiveup runs status` reports.
#[derive(Clone, Debug, Serialize)]
pub struct RunStatus {
    /// The run as named.
    pub run: String,
    /// `state.json`.
    pub state: Option<RunState>,
    /// The `best` pointer.
    pub best: Option<String>,
    /// Published networks.
    pub models: Vec<String>,
    /// Self-play data per generation.
    pub generations: Vec<GenerationStatus>,
    /// Worker heartbeats (remote runs).
    pub workers: Vec<WorkerStatus>,
    /// With `verify`.
    pub verify: Option<Verification>,
}

/// Reads the status of the run at `location`.
pub fn run_status(location: &RunLocation, verify: bool) -> Result<RunStatus, TrainError> {
    let files = match location {
        RunLocation::Local(p) => {
            if !p.is_dir() {
                return Err(TrainError::Invalid { path: p.clone(), detail: "no such run directory".into() });
            }
            Files::Local(p.clone())
        }
        RunLocation::Remote(url) => {
            let r = Remote::open(url)?;
            r.probe()?;
            Files::Remote(r)
        }
    };
    let state = match files.get("state.json")? {
        Some(b) => Some(serde_json::from_slice::<RunState>(&b).map_err(|e| TrainError::Corrupt {
            path: PathBuf::from(format!("{}/state.json", location.display())),
            detail: e.to_string(),
        })?),
        None => None,
    };
    let best = files.get("best")?.map(|b| String::from_utf8_lossy(&b).trim().to_string());
    let mut models: Vec<String> = files
        .list("models/")?
        .iter()
        .filter_map(|n| n.strip_prefix("models/")?.strip_suffix("/net.json").map(str::to_string))
        .collect();
    models.sort();
    let mut by_gen: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for name in files.list("shards/gen-")? {
        let Some(rest) = name.strip_prefix("shards/gen-") else { continue };
        let Some((g, file)) = rest.split_once('/') else { continue };
        if let (Ok(g), true) = (g.parse::<u32>(), file.ends_with(".shard")) {
            by_gen.entry(g).or_default().push(name);
        }
    }
    let counted_gens: Vec<u32> = files
        .list("eval/selfplay-")?
        .iter()
        .filter_map(|n| n.strip_prefix("eval/selfplay-")?.strip_suffix(".json")?.parse().ok())
        .collect();
    for g in counted_gens {
        by_gen.entry(g).or_default();
    }
    let mut ver = Verification::default();
    let mut generations = Vec::new();
    for (g, names) in by_gen {
        let mut games_of = BTreeMap::new();
        let mut by_worker = BTreeMap::<String, u64>::new();
        for name in &names {
            let file = name.rsplit('/').next().unwrap_or(name).to_string();
            let n = match files.get(name)? {
                None => 0,
                Some(bytes) if verify => match crate::selfplay::shards::decode_shard(Path::new(name), &bytes) {
                    Ok(games) => games.len() as u64,
                    Err(e) => {
                        ver.invalid.push(e.to_string());
                        0
                    }
                },
                Some(bytes) => crate::selfplay::shards::header_game_count(&bytes).unwrap_or(0),
            };
            let worker = crate::selfplay::shards::shard_worker(&file).to_string();
            *by_worker.entry(worker).or_default() += n;
            games_of.insert(file, n);
        }
        let counted = match files.get(&format!("eval/selfplay-{g:04}.json"))? {
            Some(b) => serde_json::from_slice::<serde_json::Value>(&b).ok(),
            None => None,
        };
        if verify {
            ver.shards += names.len();
            ver.games += games_of.values().sum::<u64>();
            if let Some(c) = &counted {
                check_counted(g, c, &games_of, &mut ver.counted_problems);
            }
        }
        generations.push(GenerationStatus {
            generation: g,
            shards: names.len(),
            games: games_of.values().sum(),
            by_worker,
            counted,
        });
    }
    let workers = match &files {
        Files::Remote(r) => {
            let now = crate::store::remote::now();
            read_heartbeats(r)?
                .into_iter()
                .map(|beat| {
                    let age_s = now - beat.updated_unix;
                    let alive = beat.fresh(now) && !beat.ended();
                    WorkerStatus { beat, age_s, alive }
                })
                .collect()
        }
        Files::Local(_) => Vec::new(),
    };
    ver.ok = ver.invalid.is_empty() && ver.counted_problems.is_empty();
    Ok(RunStatus { run: location.display(), state, best, models, generations, workers, verify: verify.then_some(ver) })
}

/// Checks the trainer's count of generation `g` against the shards there.
fn check_counted(g: u32, counted: &serde_json::Value, games_of: &BTreeMap<String, u64>, problems: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    let mut sum = 0;
    for s in counted["shards"].as_array().into_iter().flatten() {
        let name = s["name"].as_str().unwrap_or_default();
        let n = s["games"].as_u64().unwrap_or(0);
        sum += n;
        if !seen.insert(name.to_string()) {
            problems.push(format!("gen {g}: {name} counted twice"));
        }
        match games_of.get(name) {
            None => problems.push(format!("gen {g}: counted shard {name} is not in the run")),
            Some(0) => problems.push(format!("gen {g}: counted shard {name} is unreadable")),
            Some(&m) if m != n => problems.push(format!("gen {g}: {name} counted with {n} games, holds {m}")),
            Some(_) => {}
        }
    }
    if counted["games"].as_u64() != Some(sum) {
        problems.push(format!("gen {g}: the count says {} games, its shards add up to {sum}", counted["games"]));
    }
    if counted["target"].as_u64().is_some_and(|t| sum < t) {
        problems.push(format!("gen {g}: {sum} games counted, short of the target {}", counted["target"]));
    }
}

impl RunStatus {
    /// The report as text, one line per item.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let state = match &self.state {
            Some(st) => format!("generation {} phase {:?}", st.generation, st.phase).to_lowercase(),
            None => "not started (no state.json)".into(),
        };
        s += &format!(
            "run {}: {state}; best {}; {} networks published\n",
            self.run,
            self.best.as_deref().unwrap_or("none"),
            self.models.len()
        );
        for g in &self.generations {
            let workers: Vec<String> = g.by_worker.iter().map(|(w, n)| format!("{w} {n}")).collect();
            s += &format!("gen {}: {} games in {} shards ({})", g.generation, g.games, g.shards, workers.join(", "));
            if let Some(c) = &g.counted {
                let shards = c["shards"].as_array().map_or(0, Vec::len);
                s += &format!("; the trainer counted {} games from {shards} shards", c["games"]);
            }
            s += "\n";
        }
        for w in &self.workers {
            s += &format!(
                "worker {} ({}): {}, {} games, gen {}, last heartbeat {:.0} s ago{}\n",
                w.beat.worker,
                w.beat.holder,
                w.beat.status,
                w.beat.games,
                w.beat.generation,
                w.age_s,
                if w.alive || w.beat.ended() { "" } else { " (presumed stopped)" }
            );
        }
        if let Some(v) = &self.verify {
            s += &format!("verify: {} shards, {} games read whole", v.shards, v.games);
            if v.ok {
                s += "; all valid; every counted shard present, valid and counted once\n";
            } else {
                s += &format!("; {} problems\n", v.invalid.len() + v.counted_problems.len());
                for p in v.invalid.iter().chain(&v.counted_problems) {
                    s += &format!("  {p}\n");
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::UniformEvaluator;
    use crate::train::config::TrainConfig;
    use crate::train::RunDir;

    #[test]
    fn a_count_is_checked_against_the_shards() {
        let games_of: BTreeMap<String, u64> =
            [("a-000000.shard".to_string(), 2), ("b-000000.shard".to_string(), 2), ("c-000000.shard".to_string(), 0)]
                .into();
        let good = serde_json::json!({"games": 4, "target": 4, "shards": [
            {"name": "a-000000.shard", "games": 2}, {"name": "b-000000.shard", "games": 2}]});
        let mut p = Vec::new();
        check_counted(0, &good, &games_of, &mut p);
        assert!(p.is_empty(), "{p:?}");
        let bad = serde_json::json!({"games": 9, "target": 10, "shards": [
            {"name": "a-000000.shard", "games": 2}, {"name": "a-000000.shard", "games": 2},
            {"name": "b-000000.shard", "games": 3}, {"name": "c-000000.shard", "games": 1},
            {"name": "gone-000000.shard", "games": 1}]});
        check_counted(0, &bad, &games_of, &mut p);
        let text = p.join("\n");
        for want in [
            "a-000000.shard counted twice",
            "b-000000.shard counted with 3 games, holds 2",
            "counted shard c-000000.shard is unreadable",
            "counted shard gone-000000.shard is not in the run",
            "9 games counted, short of the target 10",
        ] {
            assert!(text.contains(want), "{want} missing from {text}");
        }
        assert_eq!(p.len(), 5, "{text}");
        let mut p = Vec::new();
        check_counted(
            0,
            &serde_json::json!({"games": 5, "shards": [{"name": "a-000000.shard", "games": 2}]}),
            &games_of,
            &mut p,
        );
        assert_eq!(p, ["gen 0: the count says 5 games, its shards add up to 2"]);
    }

    #[test]
    fn the_status_of_a_local_run_reads_its_shards_and_finds_a_damaged_one() {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let cfg =
            TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", &["network.backend=none".into()])
                .unwrap();
        let mut ev = UniformEvaluator::new();
        super::super::worker::play_chunk::<crate::rules::Position>(&run, &cfg, 0, "w1", &mut ev, 3, &mut |_| {})
            .unwrap();
        let loc = RunLocation::Local(t.path().to_path_buf());
        let s = run_status(&loc, true).unwrap();
        assert_eq!(s.generations.len(), 1);
        assert_eq!((s.generations[0].games, s.generations[0].shards), (3, 2));
        assert_eq!(s.generations[0].by_worker.get("w1"), Some(&3));
        assert!(s.verify.as_ref().unwrap().ok, "{:?}", s.verify);
        // A damaged shard (its header intact) is found only by reading it whole.
        let path = run.shard_dir(0).join("w1-000000.shard");
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 1] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
        assert_eq!(run_status(&loc, false).unwrap().generations[0].games, 3, "the header still says 3");
        let v = run_status(&loc, true).unwrap().verify.unwrap();
        assert!(!v.ok && v.invalid.len() == 1 && v.invalid[0].contains("w1-000000.shard"), "{v:?}");
        assert!(run_status(&RunLocation::Local(t.path().join("nope")), false).is_err());
    }
}
