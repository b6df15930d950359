//! [`QuiescenceEvaluator`]: leaf values that do not fall for one-move captures.
//!
//! A network searched with 32–64 simulations sees a few plies at most, while even the shallowest
//! alpha-beta search resolves every capture sequence at its leaves (quiescence). This wrapper
//! gives MCTS the same: it asks the inner evaluator (any [`Evaluator`]: a network, the hand
//! evaluation, the uniform twin) for its answers, then, for every position of the batch, runs the
//! engine's capture-only quiescence search ([`crate::engine::Engine::quiesce`]) and shifts the
//! value by the material that the capture sequence wins or loses:
//!
//! ```text
//! Δ  = quiescence score − static evaluation          (centipawns, side to move; ≥ 0 unless in check)
//! E  = win + draw / 2                                (the inner evaluator's expected score)
//! E' = σ(logit(E) + λ · Δ · ln 10 / 400)             (400 cp per factor of 10 in the odds, as
//!                                                     [`super::ab_eval::VALUE_SCALE_CP`])
//! ```
//!
//! `λ` is the blend weight (`mcts:...,qs=λ`, `selfplay.quiescence`): 0 leaves the inner value
//! alone, 1 adds the whole material swing. The draw probability is scaled with `E'(1 − E')`, so a
//! position that a capture decides loses its draw mass, and win and loss take the rest so that
//! `win + draw/2 = E'`. Δ is clamped to ±[`MAX_SWING_CP`]; a quiescence search cut off by its node
//! limit ([`NODE_LIMIT`]) leaves the value alone. The prior is the inner evaluator's.
//!
//! **NNUE leaves** (`mcts:...,nnue=μ` or `nnue=μ:FILE`, [`NnueLeaf`]). The network behind MCTS is
//! small and its value head weak; the NNUE evaluator of the alpha-beta engine (`src/engine/nnue/`) is
//! measured stronger than the hand evaluation. With an NNUE leaf, every position of the batch is
//! also resolved by the engine's quiescence search evaluating with that network (the shipped
//! network of the position's ruleset, or FILE), and its score `q` (centipawns, side to move) is
//! read as an expected score the way the NNUE trainer reads its targets:
//!
//! ```text
//! E_nnue = σ(q / 400)                                 ([`crate::engine::score::SCORE_SCALE`])
//! E''    = (1 − μ) · E' + μ · E_nnue                  (E' after the correction above, if any)
//! ```
//!
//! and the WDL is moved to `E''` as above (draws scaled, win and loss taking the rest). `μ = 1`
//! makes the leaf value the NNUE's alone (the network then gives the prior only), `μ = 0` is off.
//! A quiescence search cut off by [`NODE_LIMIT`] gives the network's static score.
//!
//! **Leaf searches** (`mcts:...,nnue=μ,leafdepth=D`, `selfplay.nnue_leaf_depth`). With `D ≥ 1`
//! the NNUE's score `q` comes from the engine's full-width alpha-beta search of depth `D` (its own
//! quiescence at the horizon, no table kept between leaves, no game history: a leaf's value
//! depends on the position alone) in place of the capture-only quiescence search: the leaf then
//! sees every reply, not only the captures — quiet threats, checks, placements from the reserve.
//! A search that does not complete depth 1 within [`LEAF_SEARCH_NODES`] falls back to the
//! quiescence value. With `D = 1` and a Gumbel root over `m` moves at one simulation each, the
//! player is a two-ply search over the policy's `m` first moves.
//!
//! **Hand-evaluation leaves** (`mcts:...,hand=η`, `selfplay.hand_leaf`). The same blend with the
//! game's alpha-beta hand evaluation in place of an NNUE: the engine's quiescence search with the
//! game's default weights gives `q`, read as `E_hand = σ(q / 400)`, and the leaf's expected score
//! becomes `(1 − η) · E'' + η · E_hand` (after the NNUE blend, if any). For a game without an
//! NNUE network (4D Quasi-Alice) it gives a network trained from zero the material sense its
//! value head lacks at first: the quiescence correction alone counts only the captures still to
//! come, not the material already won. One quiescence search serves both terms. With
//! `leafdepth=D ≥ 1` (`mcts:...,hand=η,leafdepth=D`) `q` comes from the engine's full-width search
//! of depth `D` with the hand evaluation, as for NNUE leaves (a search that does not complete
//! depth 1 within [`LEAF_SEARCH_NODES`] falls back to the quiescence value); self-play's
//! `selfplay.hand_leaf` reads the quiescence value.
//!
//! **Mates in one** (`mcts:...,mate=1`). Quiescence sees a mate only when a capture gives it; a
//! quiet check or, in Five Up, a placement from the reserve that mates is invisible to it, and
//! a 64-simulation search rarely expands the one reply of ~150 that mates. With `mate=1` every
//! leaf whose side to move has a mating move ([`crate::engine::mates::mating_move`], one ply: each
//! legal move made and tested) is a won position for it, `[1, 0, 0]`, whatever the other terms
//! say: the search then sees, one ply below each of its moves, every move that allows a mate.
//!
//! **Other games** ([`LeafGame`]). The correction, the hand-evaluation leaves and the mate check
//! are written once over the game interface: a game provides its quiescence search (the alpha-beta engine of its board, with its
//! default evaluation) and, where it has NNUE networks, their leaf values. 4D Quasi-Alice has the
//! correction, the hand-evaluation leaves and the mate check (its engine's quiescence resolves
//! captures, queen promotions and evasions on all four boards), Mixed 3D likewise (its quiescence
//! bounded to [`crate::engine::SearchBoard::QUIESCENCE_PLIES`] plies); neither has an NNUE network,
//! so an NNUE leaf is an error for them.
//!
//! The correction uses only the position: it is deterministic and cacheable (wrap it in
//! [`crate::nn::EvalCache`], not the other way round). Quiescence searches of a batch run in
//! parallel on rayon's pool, each thread with its own small engines (one per ruleset and
//! network).

use crate::engine::mixed3d::M3Board;
use crate::engine::nnue::Network;
use crate::engine::quasi_alice::QaBoard;
use crate::engine::score::{score_to_expectation, SCORE_SCALE};
use crate::engine::{Engine, EngineConfig, Limits, Quiescence, SearchBoard, Weights};
use crate::game::State;
use crate::nn::{EvalError, EvalInput, Evaluation, Evaluator};
use crate::rules::{Position, Ruleset};
use rayon::prelude::*;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;

/// Largest material swing, in centipawns, the correction applies.
pub const MAX_SWING_CP: i32 = 2000;
/// Node limit of one quiescence search.
pub const NODE_LIMIT: u64 = 2000;
/// Node limit of one leaf search (`leafdepth` ≥ 1).
pub const LEAF_SEARCH_NODES: u64 = 200_000;
/// Deepest leaf search a spec or config may ask for.
pub const MAX_LEAF_DEPTH: u32 = 3;

/// Most engines one thread keeps (each holds a 1 MiB table and perhaps a network): a process that
/// loads many networks one after another does not keep them all.
const MAX_ENGINES: usize = 8;

thread_local! {
    /// One engine per ruleset, network (none: the hand evaluation) and thread (1 MiB table,
    /// unused by quiescence).
    static ENGINES: RefCell<Vec<(Ruleset, Engine)>> = const { RefCell::new(Vec::new()) };
    /// This thread's 4D Quasi-Alice engine, with the default evaluation.
    static QA_ENGINE: RefCell<Option<Engine<QaBoard>>> = const { RefCell::new(None) };
    /// This thread's Mixed 3D engine, with the default evaluation.
    static M3_ENGINE: RefCell<Option<Engine<M3Board>>> = const { RefCell::new(None) };
}

/// A game whose MCTS leaves the alpha-beta engine corrects: what [`QuiescenceEvaluator`] needs
/// of a position (see the module docs).
pub trait LeafGame: State {
    /// The NNUE network a leaf reads (`Infallible` for a game without NNUE networks).
    type LeafNet: Clone + Send + Sync;

    /// The engine's capture-only quiescence search of this position with the game's default
    /// hand evaluation, within [`NODE_LIMIT`] nodes, on this thread's engine for the game.
    fn quiescence(&self) -> Quiescence;

    /// The quiescence swing `Δ` (centipawns, side to move): the quiescence score against the
    /// static evaluation, clamped to ±[`MAX_SWING_CP`]; `None` when the search did not finish
    /// within [`NODE_LIMIT`].
    fn swing(&self) -> Option<i32> {
        swing_of(&self.quiescence())
    }

    /// Whether the side to move has a move that checkmates (one ply: each legal move made and
    /// the reply tested).
    fn mates_in_one(&self) -> bool {
        let mut p = self.clone();
        crate::game::legal_moves(self).into_iter().any(|m| {
            let undo = p.make(m);
            let mate = p.in_check() && !p.has_legal_move();
            p.unmake(m, undo);
            mate
        })
    }

    /// The score (centipawns, side to move) of the engine's search of depth `depth` with the
    /// game's hand evaluation ([`leaf_search_score`]), on this thread's engine for the game.
    fn hand_search_score(&self, depth: u32) -> Option<i32>;

    /// The expected score for the side to move from the engine's search of depth `depth` with
    /// the game's hand evaluation, `σ(score / 400)`; depth 0, or a search that does not complete
    /// depth 1 within [`LEAF_SEARCH_NODES`], reads the quiescence search.
    fn hand_search_expectation(&self, depth: u32) -> f32 {
        match (depth > 0).then(|| self.hand_search_score(depth)).flatten() {
            Some(score) => score_to_expectation(score, SCORE_SCALE),
            None => hand_expectation(&self.quiescence()),
        }
    }

    /// The network `leaf` names for this position, or why there is none.
    fn leaf_network(&self, leaf: &NnueLeaf) -> Result<Self::LeafNet, EvalError>;

    /// The expected score for the side to move from the engine's search of depth `depth`
    /// evaluating with `net` (depth 0: its quiescence search).
    fn nnue_search_expectation(&self, net: &Self::LeafNet, depth: u32) -> f32;
}

impl LeafGame for Position {
    type LeafNet = Arc<Network>;

    fn quiescence(&self) -> Quiescence {
        quiesce_with(self, None)
    }

    fn mates_in_one(&self) -> bool {
        mates_in_one(self)
    }

    fn hand_search_score(&self, depth: u32) -> Option<i32> {
        with_engine(self, None, |e| leaf_search_score(e, self, depth))
    }

    fn leaf_network(&self, leaf: &NnueLeaf) -> Result<Arc<Network>, EvalError> {
        leaf.network_for(self.ruleset())
    }

    fn nnue_search_expectation(&self, net: &Arc<Network>, depth: u32) -> f32 {
        nnue_search_expectation(self, net, depth)
    }
}

impl LeafGame for crate::quasi_alice::Position {
    type LeafNet = std::convert::Infallible;

    fn quiescence(&self) -> Quiescence {
        with_board_engine(&QA_ENGINE, |engine| engine.quiesce(self, NODE_LIMIT))
    }

    fn hand_search_score(&self, depth: u32) -> Option<i32> {
        with_board_engine(&QA_ENGINE, |e| leaf_search_score(e, self, depth))
    }

    fn leaf_network(&self, _leaf: &NnueLeaf) -> Result<Self::LeafNet, EvalError> {
        Err(EvalError(format!("no NNUE network exists for {}: NNUE leaves are for the 5x5x5 games", self.game_name())))
    }

    fn nnue_search_expectation(&self, net: &Self::LeafNet, _depth: u32) -> f32 {
        match *net {}
    }
}

impl LeafGame for crate::mixed3d::Position {
    type LeafNet = std::convert::Infallible;

    fn quiescence(&self) -> Quiescence {
        with_board_engine(&M3_ENGINE, |engine| engine.quiesce(self, NODE_LIMIT))
    }

    fn hand_search_score(&self, depth: u32) -> Option<i32> {
        with_board_engine(&M3_ENGINE, |e| leaf_search_score(e, self, depth))
    }

    fn leaf_network(&self, _leaf: &NnueLeaf) -> Result<Self::LeafNet, EvalError> {
        Err(EvalError(format!("no NNUE network exists for {}: NNUE leaves are for the 5x5x5 games", self.game_name())))
    }

    fn nnue_search_expectation(&self, net: &Self::LeafNet, _depth: u32) -> f32 {
        match *net {}
    }
}

/// `f` on this thread's engine of a game with its own board (`cell`: the thread-local slot;
/// default weights, 1 MiB table).
fn with_board_engine<B, T>(
    cell: &'static std::thread::LocalKey<RefCell<Option<Engine<B>>>>,
    f: impl FnOnce(&mut Engine<B>) -> T,
) -> T
where
    B: SearchBoard,
    B::Eval: Default,
{
    cell.with(|cell| {
        let mut cell = cell.borrow_mut();
        let engine = cell.get_or_insert_with(|| {
            let config = EngineConfig { hash_mb: 1, keep_tt: false, threads: 1 };
            Engine::with_eval(B::Eval::default(), config)
        });
        f(engine)
    })
}

/// `f` on this thread's engine for the ruleset of `pos` evaluating with `net` (`None`: the hand
/// evaluation).
fn with_engine<T>(pos: &Position, net: Option<&Arc<Network>>, f: impl FnOnce(&mut Engine) -> T) -> T {
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let rs = pos.ruleset();
        let same = |e: &Engine| match (e.network(), net) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        let at = match engines.iter().position(|(r, e)| *r == rs && same(e)) {
            Some(i) => i,
            None => {
                if engines.len() >= MAX_ENGINES {
                    engines.remove(0);
                }
                let config = EngineConfig { hash_mb: 1, keep_tt: false, threads: 1 };
                let mut engine = Engine::new(Weights::for_ruleset(rs), config);
                engine.set_network(net.cloned());
                engines.push((rs, engine));
                engines.len() - 1
            }
        };
        f(&mut engines[at].1)
    })
}

/// The engine's quiescence search of `pos` on this thread's engine for its ruleset, evaluating
/// with `net` (`None`: the hand evaluation).
fn quiesce_with(pos: &Position, net: Option<&Arc<Network>>) -> Quiescence {
    with_engine(pos, net, |e| e.quiesce(pos, NODE_LIMIT))
}

/// The quiescence swing `Δ` of a position (centipawns, side to move), `None` when the search did
/// not finish within [`NODE_LIMIT`].
pub fn swing(pos: &Position) -> Option<i32> {
    swing_of(&quiesce_with(pos, None))
}

/// The swing `Δ` of a quiescence search: its score against the static evaluation, clamped to
/// ±[`MAX_SWING_CP`]; `None` when the search was cut off by its node limit.
pub fn swing_of(q: &Quiescence) -> Option<i32> {
    q.complete.then(|| (q.score.0 - q.stand).clamp(-MAX_SWING_CP, MAX_SWING_CP))
}

/// The expected score for the side to move of a quiescence search's score with the hand
/// evaluation, `σ(q / 400)` (see the module docs).
pub fn hand_expectation(q: &Quiescence) -> f32 {
    score_to_expectation(q.score.0, SCORE_SCALE)
}

/// The expected score for the side to move of `pos` from a quiescence search evaluating with
/// `net` (see the module docs).
pub fn nnue_expectation(pos: &Position, net: &Arc<Network>) -> f32 {
    score_to_expectation(quiesce_with(pos, Some(net)).score.0, SCORE_SCALE)
}

/// The expected score for the side to move of `pos` from the engine's search of depth `depth`
/// evaluating with `net`; depth 0, or a search that does not complete depth 1 within
/// [`LEAF_SEARCH_NODES`], is [`nnue_expectation`] (see the module docs).
pub fn nnue_search_expectation(pos: &Position, net: &Arc<Network>, depth: u32) -> f32 {
    match (depth > 0).then(|| with_engine(pos, Some(net), |e| leaf_search_score(e, pos, depth))).flatten() {
        Some(score) => score_to_expectation(score, SCORE_SCALE),
        None => nnue_expectation(pos, net),
    }
}

/// The score (centipawns, side to move) of `engine`'s search of `pos` to `depth` within
/// [`LEAF_SEARCH_NODES`], with no table kept and no history; `None` when depth 1 did not complete.
fn leaf_search_score<B: SearchBoard>(engine: &mut Engine<B>, pos: &B::Pos, depth: u32) -> Option<i32> {
    let limits = Limits { depth: Some(depth), nodes: Some(LEAF_SEARCH_NODES), ..Limits::default() };
    let r = engine.search(pos, &[], &limits, None, |_| {});
    (r.depth > 0).then_some(r.score.0)
}

/// Whether the side to move of `pos` has a move that checkmates.
pub fn mates_in_one(pos: &Position) -> bool {
    crate::engine::mates::mating_move(&mut pos.clone(), 1).is_some()
}

/// A WDL shifted by a swing of `delta` centipawns at weight `weight` (see the module docs).
pub fn shift_wdl(wdl: [f32; 3], delta: i32, weight: f32) -> [f32; 3] {
    if delta == 0 || weight == 0.0 {
        return wdl;
    }
    let e = (wdl[0] + 0.5 * wdl[1]).clamp(1e-6, 1.0 - 1e-6);
    let logit = (e / (1.0 - e)).ln() + weight * delta as f32 * std::f32::consts::LN_10 / 400.0;
    with_expectation(wdl, 1.0 / (1.0 + (-logit).exp()))
}

/// `wdl` moved to the expected score `e2` (`win + draw / 2`): the draw probability scaled with
/// `E'(1 − E')`, win and loss taking the rest (see the module docs).
pub fn with_expectation(wdl: [f32; 3], e2: f32) -> [f32; 3] {
    let e = (wdl[0] + 0.5 * wdl[1]).clamp(1e-6, 1.0 - 1e-6);
    let d2 = (wdl[1] * (e2 * (1.0 - e2)) / (e * (1.0 - e))).min(2.0 * e2.min(1.0 - e2)).max(0.0);
    let w = (e2 - 0.5 * d2).max(0.0);
    let l = (1.0 - e2 - 0.5 * d2).max(0.0);
    let s = w + d2 + l;
    [w / s, d2 / s, l / s]
}

/// Where the NNUE leaf values of a [`QuiescenceEvaluator`] come from.
#[derive(Clone, Debug)]
pub enum LeafNetwork {
    /// The network shipped for the position's ruleset ([`crate::engine::nnue::shipped`]).
    Shipped,
    /// A network read from a file, for its own ruleset only.
    Loaded {
        /// The file it was read from (for messages).
        path: PathBuf,
        /// The network.
        net: Arc<Network>,
    },
}

/// NNUE leaf values: the blend weight `μ`, the network and the depth of the search that reads
/// it (see the module docs).
#[derive(Clone, Debug)]
pub struct NnueLeaf {
    /// Weight of the NNUE's expected score (0 = off, 1 = the NNUE's value alone).
    pub weight: f32,
    /// The network.
    pub network: LeafNetwork,
    /// Depth of the leaf search (0: the capture-only quiescence search; at most
    /// [`MAX_LEAF_DEPTH`]).
    pub depth: u32,
}

impl NnueLeaf {
    /// The network for positions of `rs`, or why there is none.
    fn network_for(&self, rs: Ruleset) -> Result<Arc<Network>, EvalError> {
        match &self.network {
            LeafNetwork::Shipped => crate::engine::nnue::shipped(rs).map_err(|e| EvalError(e.to_string())),
            LeafNetwork::Loaded { net, .. } if net.ruleset == rs => Ok(net.clone()),
            LeafNetwork::Loaded { path, net } => {
                Err(EvalError(format!("{}: a network for {}, but the game is {rs}", path.display(), net.ruleset)))
            }
        }
    }
}

/// The leaf terms of an MCTS player or of self-play (see the module docs); all off by default.
#[derive(Clone, Debug, Default)]
pub struct LeafTerms {
    /// Weight of the quiescence correction (`qs=λ`; 0 = off).
    pub qs: f32,
    /// NNUE leaf values (`nnue=μ`; `None` or weight 0 = off).
    pub nnue: Option<NnueLeaf>,
    /// Weight of the hand evaluation's quiescence value (`hand=η`; 0 = off).
    pub hand: f32,
    /// Depth of the hand leaf's search (`leafdepth=D` with `hand=η`; 0: its quiescence search).
    pub hand_depth: u32,
    /// Leaves whose side to move mates in one are won (`mate=1`).
    pub mate_check: bool,
}

impl LeafTerms {
    /// Whether any term is on.
    pub fn any(&self) -> bool {
        self.qs > 0.0 || self.nnue.is_some() || self.hand > 0.0 || self.mate_check
    }
}

/// `inner` with the leaf terms that are on, or `inner` itself when none is: how MCTS players and
/// self-play build their leaves.
pub fn with_leaf_terms<S: LeafGame>(inner: Box<dyn Evaluator<S>>, terms: LeafTerms) -> Box<dyn Evaluator<S>> {
    let terms = LeafTerms { nnue: terms.nnue.filter(|l| l.weight > 0.0), ..terms };
    if terms.any() {
        Box::new(QuiescenceEvaluator { terms, ..QuiescenceEvaluator::new(inner, 0.0) })
    } else {
        inner
    }
}

/// An evaluator whose values are corrected by quiescence, and perhaps blended with an NNUE's
/// quiescence value (see the module documentation).
pub struct QuiescenceEvaluator<E, S: LeafGame = Position> {
    inner: E,
    /// The terms on (an NNUE leaf only with a positive weight).
    terms: LeafTerms,
    /// Per position of the batch: what the searches found.
    found: Vec<Found>,
    game: std::marker::PhantomData<fn(&S)>,
}

/// What the searches found for one leaf: the swing, the NNUE's and the hand evaluation's
/// expected scores, whether the side to move mates in one.
type Found = (Option<i32>, Option<f32>, Option<f32>, bool);

impl<E: Evaluator<S>, S: LeafGame> QuiescenceEvaluator<E, S> {
    /// Wraps `inner` with blend weight `weight` (0 = off, 1 = the whole swing).
    pub fn new(inner: E, weight: f32) -> QuiescenceEvaluator<E, S> {
        let terms = LeafTerms { qs: weight, ..LeafTerms::default() };
        QuiescenceEvaluator { inner, terms, found: Vec::new(), game: std::marker::PhantomData }
    }

    /// The same, with NNUE leaf values blended in (`None` or weight 0: off).
    pub fn with_nnue(mut self, leaf: Option<NnueLeaf>) -> QuiescenceEvaluator<E, S> {
        self.terms.nnue = leaf.filter(|l| l.weight > 0.0);
        self
    }

    /// The same, with the hand evaluation's quiescence value blended in at weight `weight` (0:
    /// off; see the module docs).
    pub fn with_hand(mut self, weight: f32) -> QuiescenceEvaluator<E, S> {
        self.terms.hand = weight;
        self
    }

    /// The same, with leaves where the side to move mates in one valued as won (see the module
    /// docs).
    pub fn with_mate_check(mut self, on: bool) -> QuiescenceEvaluator<E, S> {
        self.terms.mate_check = on;
        self
    }
}

impl<E: Evaluator<S>, S: LeafGame> Evaluator<S> for QuiescenceEvaluator<E, S> {
    fn evaluate(&mut self, batch: &[EvalInput<'_, S>], out: &mut Vec<Evaluation>) -> Result<(), EvalError> {
        self.inner.evaluate(batch, out)?;
        if !self.terms.any() {
            return Ok(());
        }
        let t = &self.terms;
        // The network of each position (the shipped ones are loaded once per process).
        let per_position = match &t.nnue {
            None => vec![None; batch.len()],
            Some(leaf) => batch.iter().map(|i| i.position.leaf_network(leaf).map(Some)).collect::<Result<_, _>>()?,
        };
        let (weight, hand, hand_depth, mate_check) = (t.qs, t.hand, t.hand_depth, t.mate_check);
        let depth = t.nnue.as_ref().map_or(0, |l| l.depth);
        batch
            .par_iter()
            .zip(&per_position)
            .map(|(input, net)| {
                if input.moves.is_empty() {
                    return (None, None, None, false);
                }
                let mates = mate_check && input.position.mates_in_one();
                if mates {
                    return (None, None, None, true);
                }
                // One quiescence search gives both the swing and the hand evaluation's value (a
                // leaf search gives the latter when asked).
                let q = (weight > 0.0 || (hand > 0.0 && hand_depth == 0)).then(|| input.position.quiescence());
                let delta = q.as_ref().filter(|_| weight > 0.0).and_then(swing_of);
                let hand_e = match (hand > 0.0, hand_depth) {
                    (false, _) => None,
                    (true, 0) => q.as_ref().map(hand_expectation),
                    (true, d) => Some(input.position.hand_search_expectation(d)),
                };
                let nnue = net.as_ref().map(|n| input.position.nnue_search_expectation(n, depth));
                (delta, nnue, hand_e, false)
            })
            .collect_into_vec(&mut self.found);
        let mu = t.nnue.as_ref().map_or(0.0, |l| l.weight);
        for (e, &(delta, nnue, hand_e, mates)) in out.iter_mut().zip(&self.found) {
            if mates {
                e.wdl = [1.0, 0.0, 0.0];
                continue;
            }
            if let Some(delta) = delta {
                e.wdl = shift_wdl(e.wdl, delta, weight);
            }
            if let Some(en) = nnue {
                let ex = e.wdl[0] + 0.5 * e.wdl[1];
                e.wdl = with_expectation(e.wdl, (1.0 - mu) * ex + mu * en);
            }
            if let Some(eh) = hand_e {
                let ex = e.wdl[0] + 0.5 * e.wdl[1];
                e.wdl = with_expectation(e.wdl, (1.0 - hand) * ex + hand * eh);
            }
        }
        Ok(())
    }

    fn name(&self) -> String {
        let t = &self.terms;
        let mut terms = format!("qs{}", t.qs);
        if let Some(l) = &t.nnue {
            terms += &format!("+nnue{}", l.weight);
            if l.depth > 0 {
                terms += &format!("d{}", l.depth);
            }
        }
        if t.hand > 0.0 {
            terms += &format!("+hand{}", t.hand);
            if t.hand_depth > 0 {
                terms += &format!("d{}", t.hand_depth);
            }
        }
        if t.mate_check {
            terms += "+mate";
        }
        format!("{terms}({})", self.inner.name())
    }

    fn preferred_batch(&self) -> usize {
        self.inner.preferred_batch()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use crate::nn::UniformEvaluator;
    use crate::rules::{Cell, Kind, Piece, Position, Setup, Variant};

    /// Raumschach position: white to move can take an undefended black queen with its rook.
    fn hanging_queen(side: Color) -> Position {
        let mut s = Setup::empty(Variant::plain(Ruleset::Raumschach));
        let put = |s: &mut Setup, c: &str, p: Piece| s.board[c.parse::<Cell>().unwrap().index()] = Some(p);
        put(&mut s, "Ab1", Piece::new(Color::White, Kind::King));
        put(&mut s, "Ee5", Piece::new(Color::Black, Kind::King));
        // Queen takes queen: a queen against a bare king, a win (a rook would only draw in
        // Raumschach, as the endgame tables show, and the evaluation scores it so).
        put(&mut s, "Ca3", Piece::new(Color::White, Kind::Queen));
        put(&mut s, "Cc3", Piece::new(Color::Black, Kind::Queen));
        s.side = side;
        Position::from_setup(s).unwrap()
    }

    #[test]
    fn a_hanging_queen_raises_the_value_of_the_side_that_can_take_it() {
        let pos = hanging_queen(Color::White);
        let d = swing(&pos).expect("a small quiescence search finishes");
        assert!(d >= 700, "taking a queen for nothing swings ~ a queen: {d}");
        let moves = pos.legal_moves();
        let mut ev = QuiescenceEvaluator::new(UniformEvaluator::new(), 1.0);
        let mut out = Vec::new();
        ev.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        let e = out[0].wdl[0] + 0.5 * out[0].wdl[1];
        assert!(e > 0.95, "{:?}", out[0].wdl);
        assert!((out[0].wdl.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // The uniform prior is untouched.
        assert!(out[0].policy.iter().all(|&p| (p - 1.0 / moves.len() as f32).abs() < 1e-6));
        // Weight 0 leaves the inner value alone.
        let mut off = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0);
        off.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        assert_eq!(out[0].wdl, crate::nn::evaluator::NEUTRAL_WDL);
    }

    #[test]
    fn nnue_leaves_blend_the_networks_quiescence_value_in() {
        let pos = hanging_queen(Color::White);
        let moves = pos.legal_moves();
        let net = crate::engine::nnue::shipped(Ruleset::Raumschach).unwrap();
        let en = nnue_expectation(&pos, &net);
        assert!(en > 0.6, "a queen against a bare king after the capture: {en}");
        let leaf = |w| Some(NnueLeaf { weight: w, network: LeafNetwork::Shipped, depth: 0 });
        let mut out = Vec::new();
        let expect = |out: &Vec<Evaluation>| out[0].wdl[0] + 0.5 * out[0].wdl[1];
        // μ = 1: the NNUE's value alone, the uniform twin's prior untouched.
        let mut ev = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0).with_nnue(leaf(1.0));
        ev.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        assert!((expect(&out) - en).abs() < 1e-4, "{:?} against {en}", out[0].wdl);
        assert!((out[0].wdl.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(out[0].policy.iter().all(|&p| (p - 1.0 / moves.len() as f32).abs() < 1e-6));
        assert_eq!(ev.name(), "qs0+nnue1(uniform)");
        // μ = 1/2: halfway between the inner value (0.5) and the NNUE's.
        let mut half = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0).with_nnue(leaf(0.5));
        half.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        assert!((expect(&out) - (0.5 + en) / 2.0).abs() < 1e-4, "{:?}", out[0].wdl);
        // With Black to move Black's queen takes White's instead: good for Black.
        let other = hanging_queen(Color::Black);
        assert!(nnue_expectation(&other, &net) > 0.6);
        // Weight 0 is off.
        let off = QuiescenceEvaluator::<_, Position>::new(UniformEvaluator::new(), 0.0).with_nnue(leaf(0.0));
        assert!(off.terms.nnue.is_none());
    }

    #[test]
    fn an_nnue_leaf_network_of_another_ruleset_is_an_error_naming_the_file() {
        let bytes = crate::engine::nnue::shipped_file(Ruleset::FiveUp).unwrap();
        let net = Arc::new(crate::engine::nnue::Network::from_bytes(bytes, None).unwrap());
        let leaf = NnueLeaf { weight: 1.0, network: LeafNetwork::Loaded { path: "five.nnue".into(), net }, depth: 0 };
        let mut ev = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0).with_nnue(Some(leaf));
        let pos = hanging_queen(Color::White);
        let moves = pos.legal_moves();
        let e = ev.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut Vec::new()).unwrap_err();
        assert!(e.0.contains("five.nnue") && e.0.contains("raumschach"), "{}", e.0);
        // The network's own ruleset is fine.
        let start = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = start.legal_moves();
        let mut out = Vec::new();
        ev.evaluate(&[EvalInput::new(&start, 0, &moves)], &mut out).unwrap();
        assert!((0.2..0.8).contains(&(out[0].wdl[0] + 0.5 * out[0].wdl[1])), "{:?}", out[0].wdl);
    }

    #[test]
    fn a_leaf_whose_side_to_move_mates_in_one_is_won_with_the_mate_check_only() {
        let problems = crate::engine::mates::random_mate_problems(Variant::plain(Ruleset::FiveUp), 6, 1, 4_000);
        let ones: Vec<_> = problems.iter().filter(|p| p.moves == 1).collect();
        let twos: Vec<_> = problems.iter().filter(|p| p.moves == 2).collect();
        assert!(!ones.is_empty() && !twos.is_empty());
        let mut out = Vec::new();
        for p in &ones {
            let moves = p.position.legal_moves();
            assert!(mates_in_one(&p.position));
            let mut on = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0).with_mate_check(true);
            on.evaluate(&[EvalInput::new(&p.position, 0, &moves)], &mut out).unwrap();
            assert_eq!(out[0].wdl, [1.0, 0.0, 0.0]);
            assert_eq!(on.name(), "qs0+mate(uniform)");
            let mut off = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0);
            off.evaluate(&[EvalInput::new(&p.position, 0, &moves)], &mut out).unwrap();
            assert_eq!(out[0].wdl, crate::nn::evaluator::NEUTRAL_WDL);
        }
        // A mate in two is not a mate in one, nor is the start.
        for p in &twos {
            assert!(!mates_in_one(&p.position));
        }
        assert!(!mates_in_one(&Position::startpos(Variant::plain(Ruleset::FiveUp))));
    }

    #[test]
    fn a_leaf_search_sees_the_quiet_mates_that_quiescence_does_not() {
        let net = crate::engine::nnue::shipped(Ruleset::FiveUp).unwrap();
        let problems = crate::engine::mates::random_mate_problems(Variant::plain(Ruleset::FiveUp), 8, 1, 4_000);
        // Mates in one that no capture gives: quiescence stands pat on them.
        let quiet: Vec<_> =
            problems.iter().filter(|p| p.moves == 1).filter(|p| nnue_expectation(&p.position, &net) < 0.999).collect();
        assert!(!quiet.is_empty(), "no quiet mate in one among {} problems", problems.len());
        let leaf = Some(NnueLeaf { weight: 1.0, network: LeafNetwork::Shipped, depth: 1 });
        let mut ev = QuiescenceEvaluator::new(UniformEvaluator::new(), 0.0).with_nnue(leaf);
        assert_eq!(ev.name(), "qs0+nnue1d1(uniform)");
        let mut out = Vec::new();
        for p in &quiet {
            assert_eq!(nnue_search_expectation(&p.position, &net, 1), 1.0);
            let moves = p.position.legal_moves();
            ev.evaluate(&[EvalInput::new(&p.position, 0, &moves)], &mut out).unwrap();
            assert_eq!(out[0].wdl, [1.0, 0.0, 0.0], "the evaluator's leaf is the search's");
        }
        // Depth 0 is the quiescence value; at the start a depth-1 search stays near even.
        let start = Position::startpos(Variant::plain(Ruleset::FiveUp));
        assert_eq!(nnue_search_expectation(&start, &net, 0), nnue_expectation(&start, &net));
        assert!((0.3..0.7).contains(&nnue_search_expectation(&start, &net, 1)));
    }

    #[test]
    fn quasi_alice_leaves_get_the_correction_and_the_mate_check() {
        use crate::quasi_alice::Position as Qa;
        // White's rook takes the hanging queen on board 2 (and transfers).
        let pos =
            Qa::from_text("8/8/8/8/8/8/8/K7|4k3/8/8/3q4/8/8/8/3R4|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
        let d = LeafGame::swing(&pos).expect("a small quiescence search finishes");
        assert!(d >= 700, "taking a queen for nothing swings ~ a queen: {d}");
        assert_eq!(LeafGame::swing(&Qa::start()), Some(0));
        let moves = crate::game::legal_moves(&pos);
        let mut ev = QuiescenceEvaluator::<_, Qa>::new(UniformEvaluator::new(), 1.0);
        let mut out = Vec::new();
        ev.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        assert!(out[0].wdl[0] + 0.5 * out[0].wdl[1] > 0.95, "{:?}", out[0].wdl);
        // A mate in two (checked by the engine's own tests): not a mate in one, but after the
        // engine's move and any reply, White mates in one.
        let two =
            Qa::from_text("2Q5/8/8/8/8/8/8/8|8/5p2/8/8/p3R3/8/2k5/8|8/8/8/8/8/8/8/8|8/8/8/7K/8/8/4N3/8 w - - 0 1")
                .unwrap();
        assert!(!two.mates_in_one());
        let mut engine: Engine<QaBoard> = Engine::with_eval(
            crate::engine::quasi_alice::QaWeights::default(),
            EngineConfig { hash_mb: 1, keep_tt: false, threads: 1 },
        );
        let best = engine.search(&two, &[], &Limits::depth(4), None, |_| {}).best.unwrap();
        let mut one = two.clone();
        one.make(best);
        let reply = crate::game::legal_moves(&one)[0];
        one.make(reply);
        assert!(one.mates_in_one(), "{}", one.to_text());
        let moves = crate::game::legal_moves(&one);
        let mut on = QuiescenceEvaluator::<_, Qa>::new(UniformEvaluator::new(), 0.0).with_mate_check(true);
        on.evaluate(&[EvalInput::new(&one, 0, &moves)], &mut out).unwrap();
        assert_eq!(out[0].wdl, [1.0, 0.0, 0.0]);
        // A hand leaf with a one-ply search sees the quiet mate that its quiescence value misses.
        let (d0, d1) = (one.hand_search_expectation(0), one.hand_search_expectation(1));
        assert!(d1 > 0.9999 && d1 > d0, "{d0} {d1}");
        let mut searched = QuiescenceEvaluator::<_, Qa>::new(UniformEvaluator::new(), 0.0).with_hand(1.0);
        searched.terms.hand_depth = 1;
        searched.evaluate(&[EvalInput::new(&one, 0, &moves)], &mut out).unwrap();
        assert!(out[0].wdl[0] > 0.999, "{:?}", out[0].wdl);
        assert!(searched.name().starts_with("qs0+hand1d1("), "{}", searched.name());
        // Hand-evaluation leaves count the material already won, which the correction does not:
        // after the rook took the queen, Black's bare king has nothing to take back (swing 0),
        // yet its hand value is lost.
        let mut after = pos.clone();
        after.make(after.parse_move("2d1d5>1").unwrap());
        assert_eq!(LeafGame::swing(&after), Some(0));
        let moves = crate::game::legal_moves(&after);
        let mut qs_only = QuiescenceEvaluator::<_, Qa>::new(UniformEvaluator::new(), 1.0);
        qs_only.evaluate(&[EvalInput::new(&after, 0, &moves)], &mut out).unwrap();
        assert_eq!(out[0].wdl, crate::nn::evaluator::NEUTRAL_WDL);
        let eh = hand_expectation(&after.quiescence());
        assert!(eh < 0.15, "a bare king against king and rook: {eh}");
        let mut hand = QuiescenceEvaluator::<_, Qa>::new(UniformEvaluator::new(), 1.0).with_hand(0.5);
        hand.evaluate(&[EvalInput::new(&after, 0, &moves)], &mut out).unwrap();
        let e = out[0].wdl[0] + 0.5 * out[0].wdl[1];
        assert!((e - (0.5 + eh) / 2.0).abs() < 1e-4, "halfway to the hand value: {:?}", out[0].wdl);
        assert_eq!(hand.name(), "qs1+hand0.5(uniform)");
        // No NNUE network exists for the game: an NNUE leaf is an error naming it.
        let leaf = Some(NnueLeaf { weight: 1.0, network: LeafNetwork::Shipped, depth: 0 });
        let mut nnue = QuiescenceEvaluator::<_, Qa>::new(UniformEvaluator::new(), 0.0).with_nnue(leaf);
        let e = nnue.evaluate(&[EvalInput::new(&one, 0, &moves)], &mut out).unwrap_err();
        assert!(e.0.contains("no NNUE network exists for quasi-alice"), "{}", e.0);
    }

    #[test]
    fn a_quiet_position_keeps_its_value() {
        let pos = Position::startpos(Variant::plain(Ruleset::FiveUp));
        assert_eq!(swing(&pos), Some(0));
        let w = [0.3, 0.5, 0.2];
        assert_eq!(shift_wdl(w, 0, 1.0), w);
    }

    #[test]
    fn shifts_keep_a_distribution_and_move_the_expectation_by_the_swing() {
        for w in [[0.3, 0.5, 0.2], [0.0, 1.0, 0.0], [0.9, 0.05, 0.05], [1.0 / 3.0; 3]] {
            for delta in [-2000, -300, -1, 1, 100, 900] {
                let s = shift_wdl(w, delta, 1.0);
                assert!(s.iter().all(|&p| (0.0..=1.0).contains(&p)), "{w:?} {delta} {s:?}");
                assert!((s.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                let (e0, e1) = (w[0] + 0.5 * w[1], s[0] + 0.5 * s[1]);
                assert_eq!(e1 > e0, delta > 0, "{w:?} {delta} {s:?}");
            }
        }
        // A pawn's swing from an even position: 10^(100/400) odds, E ≈ 0.64.
        let s = shift_wdl([0.25, 0.5, 0.25], 100, 1.0);
        assert!((s[0] + 0.5 * s[1] - 0.64).abs() < 0.01, "{s:?}");
    }
}
