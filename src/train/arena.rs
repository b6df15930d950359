//! Games between a network and other players during training: the evaluation of each generation
//! against the rungs of the alpha-beta ladder, and SPRT gating of a new network against the best.
//!
//! Everything is played through the project's one match runner ([`crate::eval::runner`]), the
//! same code `fiveup match`, `tournament` and `sprt` use:
//!
//! - a network is a [`PlayerSource::Factory`] that loads the published `models/gen-NNNN` directory
//!   in the worker thread and wraps it in an [`MctsPlayer`] (the self-play search kind,
//!   `evaluation.simulations` per move, no root noise), so it plays exactly as
//!   `mcts:net=RUN/models/gen-NNNN,sims=S,kind=K` would;
//! - opponents are player specs (`random`, `ab:depth=2`, …); a bare `random` gets a seed per
//!   generation and rung;
//! - games come in colour-swapped pairs from shared random openings
//!   (`evaluation.opening_plies` plies, [`OpeningSource::Random`]) on `evaluation.concurrency`
//!   threads; results are tallied by [`MatchTally`] (W/D/L and pentanomial pairs);
//! - the game records (PGN-style, [`crate::eval::records`]) are returned for the run directory.

use super::backend::load_evaluator;
use super::game::TrainGame;
use super::gate::{Gate, Undecided};
use super::TrainError;
use crate::eval::openings::OpeningSource;
use crate::eval::records::TextRecord;
use crate::eval::runner::{paired_jobs, play_games_until, PlayerSource};
use crate::eval::tally::MatchTally;
use crate::eval::{score_to_elo, Decision, Pentanomial, SprtConfig, SprtData, Trinomial};
use crate::mcts::SearchKind;
use crate::nn::EvalCache;
use crate::player::mcts::MctsPlayer;
use crate::player::spec::{EvaluatorSpec, MctsSpec, PlayerSpec};
use crate::player::BuildError;
use crate::player::Player;
use crate::train::config::{SearchAlgo, TrainConfig};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// The network of generation `g` (published in `dir`) as a player: MCTS with the run's search
/// kind, `evaluation.simulations` per move and `evaluation.gumbel_m` root actions (when set; else
/// the self-play's), no noise. Named `gen-NNNN` in results and records.
pub fn net_source<S: TrainGame>(cfg: &TrainConfig, g: u32, dir: PathBuf) -> PlayerSource<S> {
    let spec = MctsSpec {
        evaluator: EvaluatorSpec::Net(dir.clone()),
        sims: Some(cfg.evaluation.simulations),
        kind: match cfg.selfplay.search {
            SearchAlgo::Gumbel => SearchKind::Gumbel,
            SearchAlgo::Puct => SearchKind::Puct,
        },
        batch: cfg.selfplay.max_batch,
        gumbel_m: if cfg.evaluation.gumbel_m > 0 { cfg.evaluation.gumbel_m } else { cfg.selfplay.gumbel_m },
        quiescence: cfg.selfplay.quiescence,
        nnue: cfg.selfplay.nnue_leaf,
        leaf_depth: cfg.selfplay.nnue_leaf_depth,
        hand: cfg.selfplay.hand_leaf,
        mate_check: cfg.selfplay.mate_check,
        ..MctsSpec::default()
    };
    let cfg = cfg.clone();
    PlayerSource::factory(format!("gen-{g:04}"), move || {
        let ev = load_evaluator::<S>(&cfg, &dir).map_err(|e| BuildError::Network(e.to_string()))?;
        let ev = S::with_leaf_terms(&cfg, ev);
        let player: Box<dyn Player<S>> =
            Box::new(MctsPlayer::with_evaluator(spec.clone(), Box::new(EvalCache::new(ev, 1 << 16))));
        Ok(player)
    })
}

/// A ladder opponent from its player spec (`random`, `ab:depth=2`, …; see [`crate::player`]). A
/// bare `random` gets `seed`, so each rung and generation draws its own moves.
pub fn opponent_source<S: TrainGame>(spec: &str, seed: u64) -> Result<PlayerSource<S>, TrainError> {
    // One line: the reason, without the list of accepted forms (the key's docs list them).
    let parsed: PlayerSpec = spec.parse().map_err(|e: crate::player::spec::SpecError| {
        TrainError::Player(format!("bad player spec '{}': {}", crate::player::text::clip(spec), e.reason))
    })?;
    let parsed = if spec.trim() == "random" { PlayerSpec::Random { seed } } else { parsed };
    // Fail now (a missing weights file, …) rather than in a worker thread.
    S::build_player(&parsed).map_err(|e| TrainError::Player(format!("{spec}: {e}")))?;
    Ok(PlayerSource::Spec(parsed))
}

/// Results of a match from the first player's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The opponent.
    pub opponent: String,
    /// Games, wins, draws, losses.
    pub games: Trinomial,
    /// Colour-swapped pairs.
    pub pairs: Pentanomial,
    /// Score share.
    pub score: f64,
    /// Logistic Elo difference (score clamped to [1%, 99%]).
    pub elo: f64,
}

impl MatchResult {
    fn from_tally(opponent: String, t: &MatchTally) -> MatchResult {
        let n = t.trinomial.games().max(1) as f64;
        let score = t.trinomial.points() / n;
        MatchResult {
            opponent,
            games: t.trinomial,
            pairs: t.pentanomial,
            score,
            elo: score_to_elo(score.clamp(0.01, 0.99)),
        }
    }
}

/// How a training match is played.
#[derive(Clone, Debug)]
pub struct MatchSettings<S> {
    /// The start position (it names the game).
    pub start: S,
    /// Colour-swapped pairs at most.
    pub pairs: u32,
    /// Random plies of each pair's opening.
    pub opening_plies: usize,
    /// Games reaching this many plies are drawn, or judged by material (next field).
    pub ply_cap: u32,
    /// A lead in pawns that wins a game at the ply cap (0: drawn; see
    /// [`crate::eval::records::RecordGame::material_adjudicator`]).
    pub adjudicate_material: f32,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// The records' `Event` tag.
    pub event: String,
}

impl<S: TrainGame> MatchSettings<S> {
    /// The settings of `cfg.evaluation` for `pairs` pairs.
    pub fn from_config(
        cfg: &TrainConfig,
        pairs: u32,
        seed: u64,
        event: String,
    ) -> Result<MatchSettings<S>, TrainError> {
        let e = &cfg.evaluation;
        Ok(MatchSettings {
            start: S::start(cfg)?,
            pairs,
            opening_plies: e.opening_plies as usize,
            ply_cap: e.ply_cap,
            adjudicate_material: e.adjudicate_material,
            concurrency: e.concurrency.max(1) as usize,
            seed,
            event,
        })
    }
}

/// Plays up to `s.pairs` colour-swapped pairs of `a` against `b` through the match runner. After
/// each completed pair `on_pair` sees the running result and the pair's two scores (A's side) and
/// stops the match by returning false (games under way are given up, unreported). A stop request
/// ([`crate::train::request_stop`]) ends it as a game ends, with [`TrainError::Interrupted`] (the
/// caller records nothing: the match is replayed whole on resume). Returns the result and every
/// finished game's record.
pub fn play_match<S: TrainGame>(
    a: &PlayerSource<S>,
    b: &PlayerSource<S>,
    s: &MatchSettings<S>,
    on_pair: &mut dyn FnMut(&MatchResult, (f64, f64)) -> bool,
) -> Result<(MatchResult, Vec<TextRecord<S>>), TrainError> {
    let openings = OpeningSource::Random { plies: s.opening_plies }
        .openings_of(&s.start, s.pairs as usize, s.seed)
        .map_err(|e| TrainError::Player(e.to_string()))?;
    let mut jobs = paired_jobs(a, b, &openings, 0, Some(s.ply_cap as usize), &s.event);
    if s.adjudicate_material > 0.0 {
        let judge = S::material_adjudicator(f64::from(s.adjudicate_material));
        jobs.iter_mut().for_each(|j| j.adjudicate = judge.clone());
    }
    let mut tally = MatchTally::new();
    let mut records = Vec::new();
    // After a Break the runner reports no more games.
    play_games_until(jobs, s.concurrency, |i, record| {
        if super::stop_requested() {
            return ControlFlow::Break(());
        }
        let pair = tally.add(i % 2 == 0, &record);
        records.push(record);
        if let Some(scores) = pair {
            if !on_pair(&MatchResult::from_tally(b.name(), &tally), scores) {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| TrainError::Player(e.to_string()))?;
    if super::stop_requested() {
        return Err(TrainError::Interrupted { generation: 0, step: 0 });
    }
    Ok((MatchResult::from_tally(b.name(), &tally), records))
}

/// The outcome of gating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateResult {
    /// The candidate generation.
    pub candidate: u32,
    /// The best generation it played.
    pub best: u32,
    /// Accepted as the new best.
    pub accepted: bool,
    /// The match.
    pub result: MatchResult,
    /// The SPRT's last log-likelihood ratio.
    pub llr: f64,
    /// The SPRT decision (`Continue` when the game limit decided by score).
    pub decision: Decision,
}

/// What the network loop's gate decides when `max_games` are played without an SPRT decision: a
/// candidate that scored at least one half takes over.
pub const GATE_UNDECIDED: Undecided = Undecided::AcceptIfScoreAtLeastHalf;

/// The network loop's SPRT: hypotheses `elo`, `alpha` for both error rates, pentanomial pairs.
pub fn gate_sprt(elo: (f64, f64), alpha: f64) -> SprtConfig {
    SprtConfig { elo0: elo.0, elo1: elo.1, alpha, beta: alpha, data: SprtData::Pentanomial }
}

/// SPRT gating of `candidate` against `best` ([`Gate`]): pairs until the test decides or
/// `max_games` are played (then [`GATE_UNDECIDED`] decides). `s.pairs` is ignored.
#[allow(clippy::too_many_arguments)]
pub fn gate<S: TrainGame>(
    candidate: &PlayerSource<S>,
    best: &PlayerSource<S>,
    ids: (u32, u32),
    elo: (f64, f64),
    alpha: f64,
    max_games: u32,
    s: &MatchSettings<S>,
) -> Result<(GateResult, Vec<TextRecord<S>>), TrainError> {
    let mut gate = Gate::new(gate_sprt(elo, alpha), GATE_UNDECIDED).map_err(|e| TrainError::Player(e.to_string()))?;
    let s = MatchSettings { pairs: max_games.div_ceil(2), ..s.clone() };
    let bar = crate::progress::Progress::new(s.pairs as u64, &s.event, "pairs");
    bar.resume_at(0);
    let (result, records) = play_match(candidate, best, &s, &mut |r, (a, b)| {
        let flow = gate.add(Some((a, b)));
        bar.set_position(r.pairs.pairs());
        bar.set_message(format!("score {:.3}, LLR {:.2}", r.score, gate.sprt().llr()));
        flow.is_continue()
    })?;
    bar.finish();
    // Undecided, every pair was counted, so the gate's score is the match's.
    let v = gate.verdict();
    let (accepted, llr, decision) = (v.accepted, v.llr, v.decision);
    Ok((GateResult { candidate: ids.0, best: ids.1, accepted, result, llr, decision }, records))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::{Position, Variant};

    fn settings(pairs: u32, concurrency: usize) -> MatchSettings<Position> {
        MatchSettings {
            start: Position::startpos(Variant::default()),
            pairs,
            opening_plies: 2,
            ply_cap: 40,
            adjudicate_material: 0.0,
            concurrency,
            seed: 3,
            event: "test".into(),
        }
    }

    #[test]
    fn matches_count_pairs_and_do_not_depend_on_concurrency() {
        let a = opponent_source::<Position>("ab:depth=1", 0).unwrap();
        let b = opponent_source::<Position>("random", 7).unwrap();
        assert_eq!(b.name(), "random:seed=7");
        let (r1, recs1) = play_match(&a, &b, &settings(3, 1), &mut |_, _| true).unwrap();
        let (r2, _) = play_match(&a, &b, &settings(3, 2), &mut |_, _| true).unwrap();
        assert_eq!(r1, r2);
        assert_eq!(r1.games.games(), 6);
        assert_eq!(r1.pairs.pairs(), 3);
        assert_eq!(r1.opponent, "random:seed=7");
        assert_eq!(recs1.len(), 6);
        assert!(recs1.iter().all(|r| r.event == "test" && r.opening_plies == 2 && r.moves.len() <= 40));
        assert!((0.0..=1.0).contains(&r1.score));
    }

    /// The network loop's gate decision on a fixed stream of pair scores (elo 0..50, alpha =
    /// beta = 0.1): the SPRT decision, accepted, games counted. An undecided test accepts at a
    /// score of at least one half.
    fn gate_decision(pairs: &[(f64, f64)], max_games: u32) -> (Decision, bool, u64) {
        let stream = pairs.iter().copied().take(max_games.div_ceil(2) as usize);
        let v = crate::train::gate::decide(gate_sprt((0.0, 50.0), 0.1), GATE_UNDECIDED, stream).unwrap();
        (v.decision, v.accepted, v.games)
    }

    #[test]
    fn the_gate_decision_is_pinned() {
        let got: Vec<_> =
            crate::train::gate::tests::STREAMS.iter().map(|(name, pairs)| (*name, gate_decision(pairs, 80))).collect();
        let want = vec![
            ("strong", (Decision::AcceptH1, true, 34)),
            ("weak", (Decision::AcceptH0, false, 30)),
            ("ahead", (Decision::Continue, true, 6)),
            ("even", (Decision::Continue, true, 6)),
            ("behind", (Decision::Continue, false, 6)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn gating_decides_within_the_game_limit_and_bad_specs_are_one_line_errors() {
        let a = opponent_source::<Position>("random", 1).unwrap();
        let b = opponent_source::<Position>("random", 2).unwrap();
        let (g, recs) = gate(&a, &b, (1, 0), (0.0, 50.0), 0.1, 6, &settings(99, 1)).unwrap();
        assert!(g.result.games.games() <= 6 && g.result.games.games() >= 2);
        assert_eq!(recs.len() as u64, g.result.games.games());
        assert_eq!(
            g.accepted,
            matches!(g.decision, Decision::AcceptH1) || (g.decision == Decision::Continue && g.result.score >= 0.5)
        );
        let e = opponent_source::<Position>("nonsense", 0).err().unwrap().to_string();
        assert!(e.contains("unknown player kind") && !e.contains('\n'), "{e}");
    }
}
