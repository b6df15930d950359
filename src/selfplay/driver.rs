//! The lockstep self-play driver: many games stepped together, one evaluator call per step.
//!
//! Each step: (1) every active game, in parallel over rayon's pool, starts a search where it needs
//! one and gathers leaves; (2) all leaves of all games go to the evaluator in ONE call; (3) every
//! game, in parallel, applies its evaluations and, when its search is done, plays a move, records
//! the position and checks for the end of the game; (4) finished games are handed to the caller in
//! game-number order and their slots start the next games.
//!
//! Reproducibility: game `i` draws all its randomness (opening moves, temperature sampling,
//! playout-cap coin flips, search noise) from a ChaCha stream seeded by `(seed, i)`, and games
//! are assigned to slots in a fixed order, so a run is a function of its config and seed (given a
//! deterministic evaluator), whatever the thread count.

use super::game::SelfPlayGame;
use super::records::{GameRecord, GameResult, PositionRecord, Termination};
use crate::game::Color;
use crate::game::{outcome, prior_occurrences};
use crate::mcts::{MctsResult, Search, SearchConfig};
use crate::nn::{EvalInput, Evaluation, Evaluator};
use crate::rules::{Position, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Resignation settings.
///
/// A side resigns when its root *loss* probability is at least `loss` after each of its own last
/// `consecutive` searches. The loss probability, not one minus the win probability: a dead draw
/// (`[0.02, 0.96, 0.02]`) has a tiny win probability too and must be played out, not scored as a
/// loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignConfig {
    /// Resign when the side to move's root loss probability is at or above this (0 = never
    /// resign; otherwise in (0.5, 1)).
    pub loss: f32,
    /// For this many of its own consecutive moves.
    pub consecutive: u32,
    /// Share of games played through with resignation off, to measure false resignations.
    pub playthrough_fraction: f32,
}

impl Default for ResignConfig {
    fn default() -> Self {
        ResignConfig { loss: 0.0, consecutive: 3, playthrough_fraction: 0.1 }
    }
}

impl ResignConfig {
    /// Whether resignation is on at all.
    pub fn enabled(&self) -> bool {
        self.loss > 0.0
    }
}

/// Each side's run of consecutive own moves whose root value says it is lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResignStreaks {
    streak: [u32; 2],
}

impl ResignStreaks {
    /// Counts the root value `root_wdl` (win, draw, loss for `side`, the side to move) of one of
    /// `side`'s moves; returns whether `side` would resign now.
    pub fn update(&mut self, cfg: &ResignConfig, side: Color, root_wdl: [f32; 3]) -> bool {
        if !cfg.enabled() {
            return false;
        }
        let s = &mut self.streak[side.index()];
        *s = if root_wdl[2] >= cfg.loss { *s + 1 } else { 0 };
        *s >= cfg.consecutive.max(1)
    }
}

/// Self-play settings.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig<S = Position> {
    /// Start position of every game (it names the rules: a 5x5x5 position carries its variant).
    pub start: S,
    /// Games stepped together (64–512 typical).
    pub concurrent_games: usize,
    /// Games to finish in this run.
    pub total_games: u64,
    /// Run seed.
    pub seed: u64,
    /// Search settings.
    pub search: SearchConfig,
    /// Simulations of a full (recorded) search.
    pub full_simulations: u32,
    /// Simulations of a cheap (unrecorded) search.
    pub cheap_simulations: u32,
    /// Probability that a move gets a full search (1 turns playout-cap randomisation off).
    pub full_search_prob: f32,
    /// Record the cheap searches as value-only samples (an empty policy, see
    /// [`PositionRecord::policy`]).
    pub cheap_value_samples: bool,
    /// Plies played uniformly at random at the start of each game (unrecorded).
    pub random_opening_plies: u32,
    /// For plies below this, the move is sampled from the policy target (to the power 1/T).
    pub temperature_plies: u32,
    /// The sampling temperature T.
    pub temperature: f32,
    /// Games reaching this many plies are adjudicated (see [`adjudicate_ply_cap`]).
    pub ply_cap: u32,
    /// At the ply cap, a side ahead by more than this many pawns of material wins; otherwise the
    /// game is drawn (0: always drawn).
    pub ply_cap_adjudicate: f32,
    /// Resignation.
    pub resign: ResignConfig,
}

impl Default for SelfPlayConfig {
    /// The defaults from the 5x5x5 start position of the default variant.
    fn default() -> Self {
        SelfPlayConfig::with_start(Position::startpos(Variant::default()))
    }
}

impl<S> SelfPlayConfig<S> {
    /// The default settings, every game starting from `start`.
    pub fn with_start(start: S) -> Self {
        SelfPlayConfig {
            start,
            concurrent_games: 128,
            total_games: 128,
            seed: 0,
            search: SearchConfig::default(),
            full_simulations: 64,
            cheap_simulations: 16,
            full_search_prob: 0.25,
            cheap_value_samples: false,
            random_opening_plies: 2,
            temperature_plies: 12,
            temperature: 1.0,
            ply_cap: 400,
            ply_cap_adjudicate: 0.0,
            resign: ResignConfig::default(),
        }
    }
}

/// The result of a game stopped at the ply cap in `pos`: the side ahead by more than `pawns`
/// pawns of material wins, else a draw (always a draw when `pawns <= 0`). Material is
/// [`SelfPlayGame::material_lead`] (white minus black in pawns, the game's default values).
pub fn adjudicate_ply_cap<S: SelfPlayGame>(pos: &S, pawns: f32) -> GameResult {
    if pawns.is_nan() || pawns <= 0.0 {
        return GameResult::Draw;
    }
    let margin = pawns as f64;
    let balance = pos.material_lead();
    if balance > margin {
        GameResult::WhiteWin
    } else if -balance > margin {
        GameResult::BlackWin
    } else {
        GameResult::Draw
    }
}

/// Counters of a run, handed to the progress callback after every step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayCounts {
    /// Games finished.
    pub games: u64,
    /// Plies played.
    pub plies: u64,
    /// Simulations run.
    pub simulations: u64,
    /// Positions evaluated (leaves sent to the evaluator).
    pub evals: u64,
    /// Evaluator calls.
    pub eval_calls: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Positions recorded for training.
    pub samples: u64,
    /// Wall time since the start.
    pub elapsed: Duration,
    /// Time spent inside the evaluator.
    pub eval_time: Duration,
}

impl SelfPlayCounts {
    /// Plies per second.
    pub fn plies_per_sec(&self) -> f64 {
        self.plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Evaluations per second.
    pub fn evals_per_sec(&self) -> f64 {
        self.evals as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Simulations per second.
    pub fn sims_per_sec(&self) -> f64 {
        self.simulations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Games per hour.
    pub fn games_per_hour(&self) -> f64 {
        self.games as f64 * 3600.0 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Share of wall time spent outside the evaluator (tree work, move generation, driver).
    pub fn outside_eval_share(&self) -> f64 {
        1.0 - self.eval_time.as_secs_f64() / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// A one-line summary.
    pub fn line(&self) -> String {
        format!(
            "games {} (W/D/L {}/{}/{}) plies {} ({:.0}/s) evals {} ({:.0}/s) sims/s {:.0} outside-eval {:.0}%",
            self.games,
            self.white_wins,
            self.draws,
            self.black_wins,
            self.plies,
            self.plies_per_sec(),
            self.evals,
            self.evals_per_sec(),
            self.sims_per_sec(),
            100.0 * self.outside_eval_share()
        )
    }
}

/// One game in progress.
struct Slot<S: SelfPlayGame> {
    index: u64,
    rng: ChaCha8Rng,
    pos: S,
    history: Vec<u64>,
    moves: Vec<u32>,
    positions: Vec<PositionRecord>,
    search: Search<S>,
    searching: bool,
    full: bool,
    resign_disabled: bool,
    streaks: ResignStreaks,
    would_resign: Option<u32>,
    sims: u64,
    finished: Option<GameRecord>,
}

impl<S: SelfPlayGame> Slot<S> {
    fn new(cfg: &SelfPlayConfig<S>, index: u64) -> Slot<S> {
        let mut rng = ChaCha8Rng::seed_from_u64(crate::rng::stream_seed(cfg.seed, index));
        let pos = cfg.start.clone();
        let search = Search::for_game(cfg.search, rng.gen());
        let resign_disabled = !cfg.resign.enabled() || rng.gen::<f32>() < cfg.resign.playthrough_fraction;
        Slot {
            index,
            rng,
            pos,
            history: Vec::new(),
            moves: Vec::new(),
            positions: Vec::new(),
            search,
            searching: false,
            full: false,
            resign_disabled,
            streaks: ResignStreaks::default(),
            would_resign: None,
            sims: 0,
            finished: None,
        }
    }

    fn finish(&mut self, cfg: &SelfPlayConfig<S>, result: GameResult, termination: Termination, evaluator: &str) {
        let (variant, start) = cfg.start.record_start();
        self.finished = Some(GameRecord {
            variant,
            start,
            moves: std::mem::take(&mut self.moves),
            positions: std::mem::take(&mut self.positions),
            result,
            termination,
            resign_disabled: self.resign_disabled,
            would_resign_ply: self.would_resign,
            game_index: self.index,
            evaluator: evaluator.to_string(),
        });
    }

    fn play(&mut self, m: S::Move) {
        self.history.push(self.pos.hash());
        self.moves.push(S::move_bits(m));
        self.pos.make(m);
    }

    /// Ends the game if the rules or the ply cap say so; else plays random opening moves and
    /// starts the next search. Returns whether a search is running.
    fn prepare(&mut self, cfg: &SelfPlayConfig<S>, evaluator: &str) -> bool {
        let mut moves = Vec::new();
        loop {
            moves.clear();
            self.pos.legal_moves_into(&mut moves);
            let reps = prior_occurrences(&self.history, self.pos.hash(), self.pos.halfmove());
            if let Some(o) = outcome(&self.pos, !moves.is_empty(), reps as usize + 1) {
                self.finish(cfg, GameResult::from_outcome(o), o.rule.into(), evaluator);
                return false;
            }
            if self.moves.len() as u32 >= cfg.ply_cap {
                let result = adjudicate_ply_cap(&self.pos, cfg.ply_cap_adjudicate);
                self.finish(cfg, result, Termination::PlyCap, evaluator);
                return false;
            }
            if (self.moves.len() as u32) < cfg.random_opening_plies {
                let m = moves[self.rng.gen_range(0..moves.len())];
                self.play(m);
                continue;
            }
            self.full = self.rng.gen::<f32>() < cfg.full_search_prob;
            let sims = if self.full { cfg.full_simulations } else { cfg.cheap_simulations };
            self.search.set_noise(self.full);
            self.search.start(&self.pos, &self.history, sims);
            self.searching = true;
            return true;
        }
    }

    /// Plays the searched move, records the position and applies resignation.
    fn conclude(&mut self, cfg: &SelfPlayConfig<S>, r: MctsResult<S::Move>, evaluator: &str) {
        self.searching = false;
        self.sims += r.simulations as u64;
        let ply = self.moves.len() as u32;
        if (self.full || cfg.cheap_value_samples) && r.moves.len() > 1 {
            // A cheap search's policy target is not worth learning (too few simulations, the
            // policy barely moves); its root value is (docs/RESULTS.md).
            let policy: Vec<(u32, f32)> = if self.full {
                r.moves.iter().zip(&r.policy).filter(|(_, &p)| p > 0.0).map(|(m, &p)| (S::move_bits(*m), p)).collect()
            } else {
                Vec::new()
            };
            self.positions.push(PositionRecord {
                ply,
                policy,
                root_wdl: r.root_wdl,
                nn_wdl: r.nn_wdl,
                simulations: r.simulations,
                engine_score: None,
            });
        }
        // Resignation (or, in a play-through game, noting the first ply at which the side to move
        // there would have resigned: that side is the start's side flipped `ply` times).
        let side = self.pos.side();
        if self.streaks.update(&cfg.resign, side, r.root_wdl) {
            if !self.resign_disabled {
                self.finish(cfg, GameResult::loss_for(side), Termination::Resignation, evaluator);
                return;
            }
            self.would_resign.get_or_insert(ply);
        }
        let m = if ply < cfg.temperature_plies && cfg.temperature > 0.0 {
            sample(&r, cfg.temperature, &mut self.rng)
        } else {
            r.best
        };
        self.play(m);
    }
}

/// Samples a move from the policy target raised to the power 1/T.
fn sample<M: Copy>(r: &MctsResult<M>, temperature: f32, rng: &mut impl Rng) -> M {
    let w: Vec<f64> = r.policy.iter().map(|&p| (p.max(0.0) as f64).powf(1.0 / temperature as f64)).collect();
    let total: f64 = w.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return r.best;
    }
    let mut x = rng.gen::<f64>() * total;
    for (m, wi) in r.moves.iter().zip(&w) {
        x -= wi;
        if x <= 0.0 {
            return *m;
        }
    }
    r.best
}

/// Plays `cfg.total_games` games, handing each finished game to `on_game` (in game-number order
/// within a step) and the counters to `on_progress` after every step. Returns the final counters.
pub fn run<S: SelfPlayGame>(
    cfg: &SelfPlayConfig<S>,
    evaluator: &mut dyn Evaluator<S>,
    on_game: &mut dyn FnMut(GameRecord),
    on_progress: &mut dyn FnMut(&SelfPlayCounts),
) -> Result<SelfPlayCounts, crate::nn::EvalError> {
    run_until(cfg, evaluator, &|| false, on_game, on_progress)
}

/// [`run`] that stops as soon as `stop()` holds (checked before every step, one evaluator call
/// apart): the games finished so far have been handed over, the games in progress are dropped.
pub fn run_until<S: SelfPlayGame>(
    cfg: &SelfPlayConfig<S>,
    evaluator: &mut dyn Evaluator<S>,
    stop: &dyn Fn() -> bool,
    on_game: &mut dyn FnMut(GameRecord),
    on_progress: &mut dyn FnMut(&SelfPlayCounts),
) -> Result<SelfPlayCounts, crate::nn::EvalError> {
    let t0 = Instant::now();
    let name = evaluator.name();
    let mut prog = SelfPlayCounts::default();
    let mut next_game = 0u64;
    let mut slots: Vec<Slot<S>> = Vec::new();
    while next_game < cfg.total_games && slots.len() < cfg.concurrent_games.max(1) {
        slots.push(Slot::new(cfg, next_game));
        next_game += 1;
    }
    let mut out: Vec<Evaluation> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    while !slots.is_empty() {
        if stop() {
            break;
        }
        // 1. Start searches where needed and gather leaves, in parallel.
        slots.par_iter_mut().for_each(|s| {
            if !s.searching && s.finished.is_none() {
                s.prepare(cfg, &name);
            }
            if s.searching {
                s.search.gather();
            }
        });
        // 2. One evaluator call for every leaf of every game.
        {
            let mut batch: Vec<EvalInput<'_, S>> = Vec::new();
            counts.clear();
            for s in &slots {
                let before = batch.len();
                if s.searching {
                    s.search.inputs(&mut batch);
                }
                counts.push(batch.len() - before);
            }
            if !batch.is_empty() {
                let te = Instant::now();
                evaluator.evaluate(&batch, &mut out)?;
                prog.eval_time += te.elapsed();
                prog.eval_calls += 1;
                prog.evals += batch.len() as u64;
                if out.len() != batch.len() {
                    let why = format!("{} answered {} of {} inputs", evaluator.name(), out.len(), batch.len());
                    return Err(crate::nn::EvalError(why));
                }
            }
        }
        // 3. Apply, play finished searches, detect game ends, in parallel.
        let mut offsets = Vec::with_capacity(slots.len());
        let mut acc = 0;
        for &c in &counts {
            offsets.push(acc);
            acc += c;
        }
        let out_ref = &out;
        slots.par_iter_mut().zip(offsets.par_iter().zip(counts.par_iter())).for_each(|(s, (&o, &c))| {
            if !s.searching {
                return;
            }
            s.search.apply(&out_ref[o..o + c]);
            if s.search.is_done() {
                match s.search.result() {
                    Some(r) => s.conclude(cfg, r, &name),
                    None => s.searching = false, // terminal root: `prepare` scores it next step
                }
            }
        });
        // 4. Hand over finished games and refill their slots, in slot order.
        for slot in slots.iter_mut() {
            let Some(rec) = slot.finished.take() else { continue };
            prog.games += 1;
            prog.plies += rec.moves.len() as u64;
            prog.samples += rec.positions.len() as u64;
            prog.simulations += slot.sims;
            match rec.result {
                GameResult::WhiteWin => prog.white_wins += 1,
                GameResult::Draw => prog.draws += 1,
                GameResult::BlackWin => prog.black_wins += 1,
            }
            on_game(rec);
            if next_game < cfg.total_games {
                *slot = Slot::new(cfg, next_game);
                next_game += 1;
            } else {
                slot.index = u64::MAX;
            }
        }
        slots.retain(|s| s.index != u64::MAX);
        prog.elapsed = t0.elapsed();
        on_progress(&prog);
    }
    prog.elapsed = t0.elapsed();
    Ok(prog)
}
