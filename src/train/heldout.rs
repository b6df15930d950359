//! The held-out set: a fixed set of positions from games unrelated to training, labelled by a deep
//! alpha-beta search and by the game outcome, on which every generation's network is measured
//! (policy top-1 agreement, value losses). Unlike the training losses, these numbers are taken on
//! the same positions every generation, from data no network trained on, so they show learning
//! honestly.
//!
//! # Generation (deterministic)
//! `[heldout]` in the config: the engine `heldout.engine` (a fixed node budget, so its games are
//! reproducible) plays games against itself from random openings of `heldout.opening_plies` plies
//! seeded by `heldout.seed` — not the run seed, so the set is the same for every run of a ruleset
//! and unrelated to the bootstrap and self-play games. From each game every `heldout.stride`-th
//! position after the opening (with more than one legal move) is taken, until `heldout.positions`
//! positions, in game order; each is searched again by `heldout.label` (the deep search) for its
//! label move and score. Games are played in parallel in batches, so the set does not depend on
//! the thread count. The set is one shard, `RUN/heldout.shard` (record schema 2 and later: the
//! label move as the policy, the label score as `engine_score`, the generating game's result),
//! written once at the start of a run and reused.
//!
//! # From games already played ([`make_from_games`])
//! The engine's games are not the games a run trains on: `ab:nodes=600` plays into positions (and
//! blunders) that a self-play search avoids, and their outcomes are its results, not the run's
//! players'. `fiveup runs heldout --set FILE --games PATH` makes a set from any games instead,
//! with the same positions taken (every `heldout.stride`-th from ply `heldout.opening_plies`) and
//! the same labels: for instance the self-play shards of another run from the same network with
//! another seed, whose games no network of the measured run saw. Their outcomes are those of
//! self-play games, so the value cross-entropy there measures what the value head is trained for.
//!
//! # Metrics ([`HeldoutMetrics`])
//! - `policy_top1`: share of positions where the network's most likely move is the label move;
//! - `value_ce`: cross-entropy of the network's WDL against the game outcome (one-hot), nats;
//! - `score_mse`: squared difference between the network's expected score `win + draw/2` and the
//!   label score's win expectation `1 / (1 + e^(−cp / bootstrap.score_scale))`.

use super::bootstrap::{alpha_beta_spec, engine_game};
use super::rundir::RunDir;
use super::TrainError;
use crate::engine::score::score_to_expectation;
use crate::eval::openings::random_opening;
use crate::eval::runner::PlayerSource;
use crate::game::prior_occurrences;
use crate::nn::evaluator::NEUTRAL_WDL;
use crate::nn::{EvalInput, Evaluation, Evaluator};
use crate::player::spec::PlayerSpec;
use crate::rules::{Move, Position};
use crate::selfplay::records::{score_to_wdl, PositionRecord, VariantRecord};
use crate::selfplay::{read_shard, write_shard, GameRecord};
use crate::train::config::TrainConfig;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Between the engine and the label in the `evaluator` of a held-out set's games.
const LABELLED_BY: &str = " labelled by ";

/// The held-out shard of a run.
pub fn heldout_path(run: &RunDir) -> PathBuf {
    run.root().join("heldout.shard")
}

/// Checks the `[heldout]` player specs (before any long work starts).
pub fn check_specs(cfg: &TrainConfig) -> Result<(), TrainError> {
    alpha_beta_spec("heldout.engine", &cfg.heldout.engine)?;
    alpha_beta_spec("heldout.label", &cfg.heldout.label)?;
    Ok(())
}

/// One game of the set: played by the engine, its positions labelled by the deep search.
fn labelled_game(
    cfg: &TrainConfig,
    engine: &PlayerSource,
    label: &PlayerSpec,
    i: u64,
) -> Result<GameRecord, TrainError> {
    let h = &cfg.heldout;
    let start = Position::startpos(cfg.variant()?);
    let opening =
        random_opening(&start, h.opening_plies as usize, h.seed, i).map_err(|e| TrainError::Player(e.to_string()))?;
    let rec = engine_game(engine, opening, (h.opening_plies + h.ply_cap) as usize, i)?;
    label_game(cfg, label, rec, &format!("held-out game {i}"))
}

/// Labels a game's positions for the set: every `heldout.stride`-th position from ply
/// `heldout.opening_plies` on at which a move was played and more than one was legal, searched
/// again by `label` for its move and score. The record's positions are replaced by these, and its
/// `evaluator` says who labelled them.
fn label_game(
    cfg: &TrainConfig,
    label: &PlayerSpec,
    mut rec: GameRecord,
    what: &str,
) -> Result<GameRecord, TrainError> {
    let h = &cfg.heldout;
    let positions = rec.replay().map_err(|e| TrainError::Player(format!("{what}: {e}")))?;
    let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
    let mut labeller = label.build().map_err(|e| TrainError::Player(format!("heldout.label: {e}")))?;
    labeller.new_game();
    let mut kept = Vec::new();
    for ply in (h.opening_plies as usize..rec.moves.len()).step_by(h.stride.max(1) as usize) {
        let pos = &positions[ply];
        if pos.legal_moves().len() < 2 {
            continue;
        }
        let choice =
            labeller.choose(pos, &hashes[..ply]).map_err(|e| TrainError::Player(format!("heldout.label: {e}")))?;
        let score = choice.info.score.map_or(0, |s| s.0);
        kept.push(PositionRecord {
            ply: ply as u32,
            policy: vec![(choice.mv.bits(), 1.0)],
            root_wdl: score_to_wdl(score),
            nn_wdl: NEUTRAL_WDL,
            simulations: choice.info.nodes.min(u32::MAX as u64) as u32,
            engine_score: Some(score),
        });
    }
    rec.positions = kept;
    rec.evaluator = format!("{}{LABELLED_BY}{}", rec.evaluator, label);
    Ok(rec)
}

/// Makes `RUN/heldout.shard` if it is missing (and `heldout.positions > 0`); `on_positions(n)` is
/// called with the positions collected so far as batches of games finish. Returns the number of positions in the set.
pub fn ensure(run: &RunDir, cfg: &TrainConfig, on_positions: &dyn Fn(u64)) -> Result<u64, TrainError> {
    ensure_at(&heldout_path(run), cfg, on_positions)
}

/// [`ensure`] for a set at any path (`fiveup runs heldout --set FILE`).
pub fn ensure_at(path: &Path, cfg: &TrainConfig, on_positions: &dyn Fn(u64)) -> Result<u64, TrainError> {
    let h = &cfg.heldout;
    if h.positions == 0 {
        return Ok(0);
    }
    if path.exists() {
        let games = read_shard(path)?;
        return Ok(games.iter().map(|g| g.positions.len() as u64).sum());
    }
    let engine: PlayerSource = alpha_beta_spec("heldout.engine", &h.engine)?.into();
    let label = alpha_beta_spec("heldout.label", &h.label)?;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut have = 0u64;
    let batch = (2 * rayon::current_num_threads()).max(8) as u64;
    let mut next = 0u64;
    while have < h.positions {
        // A stop request (Ctrl-C, SIGTERM) ends the labelling between batches of games; the set
        // is written whole or not at all, so a stopped one is made again on resume.
        if super::stop_requested() {
            return Err(TrainError::Interrupted { generation: 0, step: 0 });
        }
        let recs: Result<Vec<GameRecord>, TrainError> =
            (next..next + batch).into_par_iter().map(|i| labelled_game(cfg, &engine, &label, i)).collect();
        next += batch;
        for mut rec in recs? {
            if have >= h.positions {
                break;
            }
            rec.positions.truncate((h.positions - have) as usize);
            have += rec.positions.len() as u64;
            if !rec.positions.is_empty() {
                games.push(rec);
            }
        }
        on_positions(have);
        if next > 1_000_000 {
            return Err(TrainError::Player("the held-out games yield no positions (check heldout.stride)".into()));
        }
    }
    write_shard(path, &games)?;
    Ok(have)
}

/// The shards of `sources`: files as given, directories searched (recursively) for `*.shard`
/// files in name order.
fn shards_under(sources: &[PathBuf]) -> Result<Vec<PathBuf>, TrainError> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), TrainError> {
        let io = |source| TrainError::Io { path: dir.to_path_buf(), source };
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(dir).map_err(io)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>().map_err(io)?;
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e == "shard") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for s in sources {
        if s.is_dir() {
            walk(s, &mut out)?;
        } else if s.is_file() {
            out.push(s.clone());
        } else {
            return Err(TrainError::Invalid { path: s.clone(), detail: "no such shard or directory".into() });
        }
    }
    Ok(out)
}

/// Makes a held-out set at `path` from games already played, in place of `heldout.engine`'s: the
/// games of `sources` (shards, or directories searched for `*.shard` files, in name order), each
/// labelled like [`ensure_at`]'s games, until `heldout.positions` positions. This gives a set of
/// positions like those a run trains on from games it never sees, e.g. the self-play shards of
/// another run (another seed) from the same network. Refuses an existing `path`, sources with no
/// games, and games of another variant than the config's. `on_positions(n)` is called as games
/// are labelled. Returns the number of positions in the set.
pub fn make_from_games(
    path: &Path,
    cfg: &TrainConfig,
    sources: &[PathBuf],
    on_positions: &dyn Fn(u64),
) -> Result<u64, TrainError> {
    let h = &cfg.heldout;
    if path.exists() {
        return Err(TrainError::Invalid { path: path.to_path_buf(), detail: "exists (a set is made once)".into() });
    }
    let label = alpha_beta_spec("heldout.label", &h.label)?;
    let variant = VariantRecord::from_variant(cfg.variant()?);
    let files = shards_under(sources)?;
    let mut games: Vec<GameRecord> = Vec::new();
    for f in &files {
        for rec in read_shard(f)? {
            if rec.variant != variant {
                return Err(TrainError::Invalid {
                    path: f.clone(),
                    detail: format!("game {} is of another variant than the config's", rec.game_index),
                });
            }
            games.push(rec);
        }
    }
    if games.is_empty() {
        let path = sources.first().cloned().unwrap_or_default();
        return Err(TrainError::Invalid { path, detail: "no games in the shards given".into() });
    }
    let mut out: Vec<GameRecord> = Vec::new();
    let mut have = 0u64;
    let batch = (2 * rayon::current_num_threads()).max(8);
    for chunk in games.chunks(batch) {
        let recs: Result<Vec<GameRecord>, TrainError> = chunk
            .par_iter()
            .map(|rec| label_game(cfg, &label, rec.clone(), &format!("game {}", rec.game_index)))
            .collect();
        for mut rec in recs? {
            if have >= h.positions {
                break;
            }
            rec.positions.truncate((h.positions - have) as usize);
            have += rec.positions.len() as u64;
            if !rec.positions.is_empty() {
                out.push(rec);
            }
        }
        on_positions(have);
        if have >= h.positions {
            break;
        }
    }
    write_shard(path, &out)?;
    Ok(have)
}

/// One held-out position with its labels.
#[derive(Clone, Debug)]
pub struct HeldoutItem {
    /// The position.
    pub position: Position,
    /// Earlier occurrences in its game.
    pub repetitions: u8,
    /// The hashes of its game's earlier positions, oldest first (what a player is given).
    pub history: Vec<u64>,
    /// Its legal moves.
    pub moves: Vec<Move>,
    /// The deep search's move (bits).
    pub label_move: u32,
    /// The deep search's score (side to move).
    pub label_score: i32,
    /// The game outcome for the side to move (one-hot WDL).
    pub outcome: [f32; 3],
}

/// Reads the held-out set of a run (empty when there is none).
pub fn load(run: &RunDir) -> Result<Vec<HeldoutItem>, TrainError> {
    let path = heldout_path(run);
    if !path.exists() {
        return Ok(Vec::new());
    }
    load_from(&path)
}

/// Reads a held-out set from its shard (an error if it is missing or not a held-out set).
pub fn load_from(path: &Path) -> Result<Vec<HeldoutItem>, TrainError> {
    let mut out = Vec::new();
    for rec in read_shard(path)? {
        let corrupt = |e: String| TrainError::Corrupt { path: path.to_path_buf(), detail: e };
        let positions = rec.replay().map_err(|e| corrupt(e.to_string()))?;
        let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
        for p in &rec.positions {
            let ply = p.ply as usize;
            let pos = positions.get(ply).ok_or_else(|| corrupt(format!("ply {ply} past the game's end")))?;
            let (&(label_move, _), Some(label_score)) =
                (p.policy.first().ok_or_else(|| corrupt("no label".into()))?, p.engine_score)
            else {
                return Err(corrupt("a position without a label score".into()));
            };
            out.push(HeldoutItem {
                position: pos.clone(),
                repetitions: prior_occurrences(&hashes[..ply], pos.hash(), pos.halfmove()),
                history: hashes[..ply].to_vec(),
                moves: pos.legal_moves(),
                label_move,
                label_score,
                outcome: rec.result.wdl_for(pos.side()),
            });
        }
    }
    Ok(out)
}

/// A network's figures on the held-out set (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HeldoutMetrics {
    /// Positions measured.
    pub positions: usize,
    /// Share where the network's top move is the deep search's.
    pub policy_top1: f64,
    /// Cross-entropy of the WDL against the game outcome (nats).
    pub value_ce: f64,
    /// Mean squared error of the expected score against the deep search's.
    pub score_mse: f64,
    /// Mean draw probability of the WDL, beside the set's share of drawn outcomes
    /// ([`outcome_shares`]): where the cross-entropy against the outcomes comes from.
    #[serde(default)]
    pub draw: f64,
}

/// The shares of wins, draws and losses (for the side to move) among the items' outcomes.
pub fn outcome_shares(items: &[HeldoutItem]) -> [f64; 3] {
    let mut s = [0.0; 3];
    for it in items {
        for (a, z) in s.iter_mut().zip(&it.outcome) {
            *a += f64::from(*z);
        }
    }
    s.map(|x| x / items.len().max(1) as f64)
}

/// Measures `ev` on `items`; `score_scale` maps label scores to win expectations. A failing
/// evaluator is an error.
pub fn measure(
    ev: &mut dyn Evaluator,
    items: &[HeldoutItem],
    score_scale: f32,
) -> Result<HeldoutMetrics, crate::nn::EvalError> {
    let mut m = HeldoutMetrics { positions: items.len(), ..HeldoutMetrics::default() };
    if items.is_empty() {
        return Ok(m);
    }
    let mut out: Vec<Evaluation> = Vec::new();
    for chunk in items.chunks(256) {
        let batch: Vec<EvalInput<'_>> =
            chunk.iter().map(|it| EvalInput::new(&it.position, it.repetitions as u32, &it.moves)).collect();
        ev.evaluate(&batch, &mut out)?;
        for (it, e) in chunk.iter().zip(&out) {
            // The first of equally likely moves.
            let top = e.policy.iter().enumerate().fold(None, |acc: Option<(usize, f32)>, (i, &p)| match acc {
                Some((_, q)) if q >= p => acc,
                _ => Some((i, p)),
            });
            let best = top.map(|(i, _)| it.moves[i].bits());
            m.policy_top1 += f64::from(u8::from(best == Some(it.label_move)));
            m.value_ce -=
                it.outcome.iter().zip(&e.wdl).map(|(z, p)| (*z as f64) * (p.max(1e-6) as f64).ln()).sum::<f64>();
            let e_net = (e.wdl[0] + 0.5 * e.wdl[1]) as f64;
            let e_label = score_to_expectation(it.label_score, score_scale) as f64;
            m.score_mse += (e_net - e_label).powi(2);
            m.draw += f64::from(e.wdl[1]);
        }
    }
    let n = items.len() as f64;
    m.policy_top1 /= n;
    m.value_ce /= n;
    m.score_mse /= n;
    m.draw /= n;
    Ok(m)
}

/// A player's figures on the held-out set ([`measure_player`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerMetrics {
    /// Positions measured.
    pub positions: usize,
    /// Share where the player's move is the deep search's.
    pub policy_top1: f64,
    /// Cross-entropy of the player's reported WDL against the game outcome (nats), over the
    /// positions where it reported one; `None` for a player that reports no WDL (alpha-beta).
    pub value_ce: Option<f64>,
    /// Mean squared error of the player's expected score (from its WDL, else from its score
    /// mapped like the labels) against the deep search's; `None` when it reports neither.
    pub score_mse: Option<f64>,
    /// Mean draw probability of the reported WDL, over the positions that reported one.
    pub draw: Option<f64>,
    /// Mean nodes (alpha-beta) or simulations (MCTS) per position.
    pub nodes: f64,
}

/// Measures a player on `items` as if it were a network: its move against the label move, its
/// root WDL (MCTS players: what self-play records as the value target) against the outcome, its
/// expected score against the label's. This is how good a teacher a search is: a network trained
/// on its targets can approach its figures but not pass them. Each position is searched afresh
/// (`new_game`), with its game's history for repetitions. `threads` players (each built from
/// `spec`) share the positions; `on_done(n)` is called as positions finish.
pub fn measure_player(
    spec: &PlayerSpec,
    items: &[HeldoutItem],
    score_scale: f32,
    threads: usize,
    on_done: &(dyn Fn(u64) + Sync),
) -> Result<PlayerMetrics, TrainError> {
    #[derive(Default)]
    struct Sums {
        top1: f64,
        ce: f64,
        ce_n: usize,
        draw: f64,
        mse: f64,
        mse_n: usize,
        nodes: f64,
    }
    let done = std::sync::atomic::AtomicU64::new(0);
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    let parts: Result<Vec<Sums>, TrainError> = items
        .par_chunks(chunk)
        .map(|part| {
            let mut player = spec.build().map_err(|e| TrainError::Player(format!("{spec}: {e}")))?;
            let mut s = Sums::default();
            for it in part {
                player.new_game();
                let choice =
                    player.choose(&it.position, &it.history).map_err(|e| TrainError::Player(format!("{spec}: {e}")))?;
                s.top1 += f64::from(u8::from(choice.mv.bits() == it.label_move));
                s.nodes += choice.info.nodes as f64;
                let expected = match (choice.info.wdl, choice.info.score) {
                    (Some(wdl), _) => {
                        let p = wdl.map(|x| f64::from(x) / 1000.0);
                        s.ce -= it.outcome.iter().zip(&p).map(|(z, q)| f64::from(*z) * q.max(1e-6).ln()).sum::<f64>();
                        s.ce_n += 1;
                        s.draw += p[1];
                        Some(p[0] + 0.5 * p[1])
                    }
                    (None, Some(score)) => Some(f64::from(score_to_expectation(score.0, score_scale))),
                    (None, None) => None,
                };
                if let Some(e) = expected {
                    let e_label = f64::from(score_to_expectation(it.label_score, score_scale));
                    s.mse += (e - e_label).powi(2);
                    s.mse_n += 1;
                }
                on_done(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            }
            Ok(s)
        })
        .collect();
    let mut t = Sums::default();
    for s in parts? {
        t.top1 += s.top1;
        t.ce += s.ce;
        t.ce_n += s.ce_n;
        t.draw += s.draw;
        t.mse += s.mse;
        t.mse_n += s.mse_n;
        t.nodes += s.nodes;
    }
    let n = items.len().max(1) as f64;
    // Over the positions that reported it (an MCTS player reports no WDL where the position is
    // drawn by rule).
    let mean = |sum: f64, k: usize| (k > 0).then(|| sum / k as f64);
    Ok(PlayerMetrics {
        positions: items.len(),
        policy_top1: t.top1 / n,
        value_ce: mean(t.ce, t.ce_n),
        draw: mean(t.draw, t.ce_n),
        score_mse: mean(t.mse, t.mse_n),
        nodes: t.nodes / n,
    })
}

/// The deep search that labelled a held-out set (its games' `evaluator` reads "ENGINE labelled
/// by LABEL"; the last such label, for a set made from another set's games), if its records say.
pub fn set_label(path: &Path) -> Result<Option<String>, TrainError> {
    Ok(read_shard(path)?.first().and_then(|r| r.evaluator.rsplit_once(LABELLED_BY).map(|(_, label)| label.to_string())))
}

/// Measures published network `dir` (of a run with config `cfg`) on `items`: the trainer's
/// figures of each generation, and `fiveup runs heldout`'s on any set.
pub fn measure_network(cfg: &TrainConfig, dir: &Path, items: &[HeldoutItem]) -> Result<HeldoutMetrics, TrainError> {
    let mut ev = super::backend::load_evaluator(cfg, dir)?;
    measure(ev.as_mut(), items, cfg.bootstrap.score_scale).map_err(|e| TrainError::Backend(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::UniformEvaluator;

    fn tiny(dir: &std::path::Path) -> (RunDir, TrainConfig) {
        let run = RunDir::new(dir);
        run.create().unwrap();
        let mut cfg = TrainConfig::from_toml(include_str!("../../configs/quick.toml"), "quick", &[]).unwrap();
        cfg.heldout.positions = 30;
        cfg.heldout.engine = "ab:nodes=200,hash=1".into();
        cfg.heldout.label = "ab:nodes=800,hash=1".into();
        cfg.heldout.ply_cap = 40;
        (run, cfg)
    }

    #[test]
    fn the_set_is_deterministic_labelled_and_measurable() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (run_a, cfg) = tiny(a.path());
        let (run_b, _) = tiny(b.path());
        assert_eq!(ensure(&run_a, &cfg, &|_| {}).unwrap(), 30);
        assert_eq!(ensure(&run_b, &cfg, &|_| {}).unwrap(), 30);
        let bytes = |r: &RunDir| std::fs::read(heldout_path(r)).unwrap();
        assert_eq!(bytes(&run_a), bytes(&run_b), "the same config gives the same set");
        // A second call reuses the file.
        assert_eq!(ensure(&run_a, &cfg, &|_| panic!("no games")).unwrap(), 30);
        let items = load(&run_a).unwrap();
        assert_eq!(items.len(), 30);
        for it in &items {
            assert!(it.moves.len() > 1);
            assert!(it.moves.iter().any(|m| m.bits() == it.label_move), "the label move is legal");
        }
        // The uniform evaluator: value CE is ln 3, top-1 picks the first move, score MSE is that of 0.5.
        let m = measure(&mut UniformEvaluator::new(), &items, 400.0).unwrap();
        assert_eq!(m.positions, 30);
        assert!((m.value_ce - 3f64.ln()).abs() < 1e-4, "{m:?}");
        assert!((m.draw - 1.0 / 3.0).abs() < 1e-6, "{m:?}");
        let mse: f64 =
            items.iter().map(|it| (0.5 - score_to_expectation(it.label_score, 400.0) as f64).powi(2)).sum::<f64>()
                / 30.0;
        assert!((m.score_mse - mse).abs() < 1e-6);
        let first = items.iter().filter(|it| it.moves[0].bits() == it.label_move).count() as f64 / 30.0;
        assert!((m.policy_top1 - first).abs() < 1e-9);
        let shares = outcome_shares(&items);
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{shares:?}");
        // A bad spec is named.
        let mut bad = cfg.clone();
        bad.heldout.label = "random".into();
        assert!(check_specs(&bad).unwrap_err().to_string().contains("heldout.label"));
    }

    #[test]
    fn a_set_made_from_the_engines_games_is_the_engines_set() {
        let t = tempfile::tempdir().unwrap();
        let (run, cfg) = tiny(&t.path().join("run"));
        ensure(&run, &cfg, &|_| {}).unwrap();
        let made = t.path().join("from-games.shard");
        // The games given as a directory: the same positions, labels and outcomes.
        let calls = std::cell::Cell::new(0);
        assert_eq!(
            make_from_games(&made, &cfg, &[run.root().to_path_buf()], &|_| calls.set(calls.get() + 1)).unwrap(),
            30
        );
        assert!(calls.get() > 0, "progress is reported");
        let (engine, again) = (read_shard(&heldout_path(&run)).unwrap(), read_shard(&made).unwrap());
        assert_eq!(engine.len(), again.len());
        for (a, b) in engine.iter().zip(&again) {
            assert_eq!((&a.moves, &a.positions, a.result), (&b.moves, &b.positions, b.result));
            assert_eq!(b.evaluator, format!("{}{LABELLED_BY}{}", a.evaluator, cfg.heldout.label));
        }
        assert_eq!(set_label(&made).unwrap().as_deref(), Some(cfg.heldout.label.as_str()));
        // Fewer positions asked: the first games' positions.
        let mut few = cfg.clone();
        few.heldout.positions = 7;
        let small = t.path().join("small.shard");
        assert_eq!(make_from_games(&small, &few, &[heldout_path(&run)], &|_| {}).unwrap(), 7);
        let small = load_from(&small).unwrap();
        let all = load_from(&made).unwrap();
        assert!(small.iter().zip(&all).all(|(a, b)| (a.label_move, a.label_score) == (b.label_move, b.label_score)));
        // Refusals: an existing file (left as it was), a missing source, games of another variant.
        let before = std::fs::read(&made).unwrap();
        let err = make_from_games(&made, &cfg, &[heldout_path(&run)], &|_| {}).unwrap_err().to_string();
        assert!(err.contains("exists"), "{err}");
        assert_eq!(std::fs::read(&made).unwrap(), before);
        let err = make_from_games(&t.path().join("x.shard"), &cfg, &[t.path().join("nothing")], &|_| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("no such shard or directory"), "{err}");
        let mut raum = cfg.clone();
        raum.rules.ruleset = "raumschach".into();
        let err =
            make_from_games(&t.path().join("y.shard"), &raum, &[heldout_path(&run)], &|_| {}).unwrap_err().to_string();
        assert!(err.contains("another variant"), "{err}");
        assert!(!t.path().join("y.shard").exists());
    }
}
