//! Iterative-deepening principal-variation search with aspiration windows.
//!
//! [`Engine::search`] runs depths 1, 2, ... until a limit (depth, nodes, time or the stop flag),
//! reporting every completed depth. Each depth calls `Search::negamax` at the root inside an
//! aspiration window around the previous score; a node below the horizon drops into
//! `Search::qsearch`. Evaluation is [`evaluate`], computed incrementally: `Search::make` and
//! `Search::unmake` carry the per-piece terms along with the position. An engine given a network
//! ([`Engine::set_network`]) evaluates with it instead, through the per-ply accumulators of
//! [`crate::engine::nnue::Stack`], plus the hand evaluation's king chase in won endgames (see
//! `Search::static_eval`); everything else in the search is the same for both evaluations, except
//! that move generation then computes attack sets instead of reading the hand evaluation's
//! incremental ones (bringing that state along only for them cost more: 2.1% fewer instructions
//! per node without it, `docs/BENCHMARKS.md`).
//!
//! Determinism: with `keep_tt = false` (the default) the transposition table and the move-ordering
//! heuristics are cleared at the start of every search, and nothing else carries state, so a search
//! limited by depth or nodes returns the same move, score, PV and node count run after run. Only
//! time limits and the stop flag make results depend on the clock.

use super::eval::{evaluate, mop_up_chase};
use super::incremental::EvalState;
use super::nnue::{Network, Stack as NnueStack};
use super::ordering::{
    captured, captures_into, is_bad_capture, is_quiet, pick, score_moves, victim_order, CheckInfo, Heuristics,
    MovePicker, ScoredMove, MAX_PLY,
};
use super::score::{mate_in, mated_in, Score, DRAW, INFINITE, MATE, MATE_BOUND};
use super::tt::{Bound, TransTable};
use super::weights::Weights;
use crate::rules::movegen::Computed;
use crate::rules::position::Undo;
use crate::rules::types::KIND_COUNT;
use crate::rules::{Color, Kind, Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// When to stop searching. Unset limits do not apply; with none set the search runs to
/// [`MAX_DEPTH`] (or until the stop flag is raised).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Node budget (every position visited, quiescence included); checked at every node.
    pub nodes: Option<u64>,
    /// Wall-clock budget for this search: the hard limit, checked every 1,024 nodes. With no
    /// `soft_time` the search uses all of it: iterations go on until it runs out, and the
    /// unfinished last iteration still counts where a root move already beat the previous best.
    pub time: Option<Duration>,
    /// The time after which no new iteration starts (a clock manager's target for the move;
    /// `time` stays the hard limit). Unset: only `time` applies.
    pub soft_time: Option<Duration>,
    /// Root moves to consider (UCI `searchmoves`); empty: every legal move. Moves that are not
    /// legal in the position are ignored.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }
    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }
    /// Search for a time.
    pub fn time(t: Duration) -> Limits {
        Limits { time: Some(t), ..Limits::default() }
    }
}

/// Deepest iteration the engine will start.
pub const MAX_DEPTH: u32 = 64;

/// Engine settings other than the evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Keep the table and heuristics between searches (stronger in games, but a search then depends
    /// on the searches before it). Off by default: every search starts fresh and is reproducible.
    pub keep_tt: bool,
    /// Search threads (Lazy SMP, see the module docs); 1 searches on the calling thread only.
    pub threads: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { hash_mb: 16, keep_tt: false, threads: 1 }
    }
}

/// Most search threads an engine accepts.
pub const MAX_THREADS: usize = 256;

/// The report of one completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Score from the side to move.
    pub score: Score,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation, the best move first.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move; `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// Score of the last completed depth (mated or draw when there is no legal move).
    pub score: Score,
    /// Last completed depth (0 if none completed).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Principal variation of the last completed depth.
    pub pv: Vec<Move>,
    /// Every completed depth.
    pub iterations: Vec<Iteration>,
}

/// What [`Engine::quiesce`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiescence {
    /// The resolved score for the side to move.
    pub score: Score,
    /// The static evaluation of the position (side to move).
    pub stand: i32,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the search finished within its node limit.
    pub complete: bool,
}

/// Per-ply scratch space, reused across searches.
#[derive(Default)]
struct Ply {
    picker: MovePicker,
    moves: Vec<Move>,
    scored: Vec<ScoredMove>,
    quiets: Vec<Move>,
    pv: Vec<Move>,
}

/// The memory one search thread owns: move-ordering heuristics, per-ply scratch space and the
/// incremental evaluation.
struct Worker {
    heur: Heuristics,
    plies: Vec<Ply>,
    inc: EvalState,
    /// The network's accumulators along the path (used only with a network).
    nnue: NnueStack,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            heur: Heuristics::default(),
            plies: (0..MAX_PLY + 8).map(|_| Ply::default()).collect(),
            inc: EvalState::new(),
            nnue: NnueStack::default(),
        }
    }
}

/// An alpha-beta engine: weights, transposition table and move-ordering memory (one [`Worker`]
/// per search thread).
pub struct Engine {
    weights: Weights,
    /// The network that evaluates positions in place of the hand evaluation, if any.
    net: Option<Arc<Network>>,
    config: EngineConfig,
    tt: TransTable,
    main: Worker,
    helpers: Vec<Worker>,
}

impl Engine {
    /// A new engine with the given weights and settings (`threads` is clamped to
    /// 1..=[`MAX_THREADS`]).
    pub fn new(weights: Weights, mut config: EngineConfig) -> Engine {
        config.threads = config.threads.clamp(1, MAX_THREADS);
        let tt = TransTable::new(config.hash_mb);
        let helpers = (1..config.threads).map(|_| Worker::new()).collect();
        Engine { weights, net: None, config, tt, main: Worker::new(), helpers }
    }

    /// Evaluates with `net` (an NNUE network for the positions' ruleset) instead of the hand
    /// evaluation, or with the hand evaluation again (`None`). The table is cleared.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        self.tt.clear();
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Replaces the evaluation weights (the table is cleared: its scores came from the old ones).
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
        self.tt.clear();
    }

    /// The settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Forgets the table and heuristics (e.g. between games).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.main.heur.clear();
        for h in &mut self.helpers {
            h.heur.clear();
        }
    }

    /// The state of a search of `pos` starting at `start` on the main thread.
    fn begin(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: Option<&Arc<AtomicBool>>,
        start: Instant,
    ) -> Search<'_> {
        Search::new(&self.weights, self.net.as_deref(), &self.tt, &mut self.main, pos, history, limits, stop, start)
    }

    /// The quiescence value of `pos` for the side to move, as the search resolves its leaves:
    /// the static evaluation or the best sequence of captures and queen promotions (every evasion
    /// in check; mated scores as a mate). Within `node_limit` nodes; a search cut off by the limit
    /// reports the static evaluation. No table, no history: the answer depends on `pos` alone.
    pub fn quiesce(&mut self, pos: &Position, node_limit: u64) -> Quiescence {
        let limits = Limits::nodes(node_limit.max(1));
        let in_check = pos.in_check();
        let mut s = self.begin(pos, &[], &limits, None, Instant::now());
        let stand = s.static_eval();
        let v = s.qsearch(-INFINITE, INFINITE, 0, in_check);
        let (aborted, nodes) = (s.aborted, s.nodes);
        Quiescence { score: Score(if aborted { stand } else { v }), stand, nodes, complete: !aborted }
    }

    /// Searches `pos`. `history` holds the hashes of the positions before `pos` in the game, oldest
    /// first (for repetition draws). `on_iteration` is called after every completed depth.
    ///
    /// With `threads > 1` (Lazy SMP) helper threads search the same position at the same time,
    /// sharing only the transposition table: every helper runs its own iterative deepening, odd
    /// helpers one ply deeper than the main thread, so their results reach the table ahead of
    /// it; the main thread alone decides the move, reports and watches the limits, and stops
    /// the helpers when it finishes. Node counts (and the node limit) are the sum over threads.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: Option<&Arc<AtomicBool>>,
        on_iteration: impl FnMut(&Iteration),
    ) -> SearchResult {
        // 1. Fresh or aged memory.
        if self.config.keep_tt {
            self.tt.new_search();
        } else {
            self.tt.clear();
            self.main.heur.clear();
            for h in &mut self.helpers {
                h.heur.clear();
            }
        }
        let start = Instant::now();
        if self.helpers.is_empty() || pos.legal_moves().len() <= 1 {
            let net = self.net.as_deref();
            let mut s = Search::new(&self.weights, net, &self.tt, &mut self.main, pos, history, limits, stop, start);
            return s.iterate(limits, start, on_iteration);
        }
        // 2. Lazy SMP: helpers until the main thread is done.
        let Engine { weights, net, tt, main, helpers, .. } = self;
        let (weights, tt): (&Weights, &TransTable) = (weights, tt);
        let net = net.as_deref();
        let halt = Arc::new(AtomicBool::new(false));
        let shared = AtomicU64::new(0);
        let helper_limits =
            Limits { nodes: limits.nodes, searchmoves: limits.searchmoves.clone(), ..Limits::default() };
        let mut result = std::thread::scope(|scope| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let (halt, shared, helper_limits) = (&halt, &shared, &helper_limits);
                scope.spawn(move || {
                    let mut s = Search::new(weights, net, tt, h, pos, history, helper_limits, Some(halt), start);
                    s.shared_nodes = Some(shared);
                    s.helper(limits.depth.unwrap_or(MAX_DEPTH), i as u32 + 1);
                    shared.fetch_add(s.nodes & 1023, Ordering::Relaxed);
                });
            }
            let mut s = Search::new(weights, net, tt, main, pos, history, limits, stop, start);
            s.shared_nodes = Some(&shared);
            let r = s.iterate(limits, start, on_iteration);
            halt.store(true, Ordering::Relaxed);
            shared.fetch_add(s.nodes & 1023, Ordering::Relaxed);
            r
        });
        result.nodes = shared.load(Ordering::Relaxed);
        result
    }
}

/// The state of one running search.
struct Search<'e> {
    pos: Position,
    w: &'e Weights,
    tt: &'e TransTable,
    heur: &'e mut Heuristics,
    plies: &'e mut Vec<Ply>,
    /// The evaluation terms: `make` and `unmake` record the moves, an evaluation brings it to `pos`.
    inc: &'e mut EvalState,
    /// The network evaluating in place of the hand evaluation, if any, and its accumulators.
    net: Option<&'e Network>,
    nnue: &'e mut NnueStack,
    /// Hashes of the game history, then of every position on the path above the current node.
    keys: Vec<u64>,
    nodes: u64,
    seldepth: u32,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    root_depth: i32,
    root_best: Option<Move>,
    /// The root move that beat alpha last in the current iteration (reset at each depth): the
    /// answer when the iteration is cut off.
    iter_best: Option<Move>,
    /// The values move ordering, delta pruning and exchange tests use ([`Weights::search_values`]).
    values: [i32; KIND_COUNT],
    /// Capturable kinds, most valuable first.
    victims: Vec<Kind>,
    /// Under Lazy SMP: where every thread publishes its nodes, 1,024 at a time (for reports and
    /// the node limit, which every thread watches).
    shared_nodes: Option<&'e AtomicU64>,
    /// The root moves to search ([`Limits::searchmoves`]; empty: all).
    searchmoves: Vec<Move>,
}

impl<'e> Search<'e> {
    /// A search of `pos` by one thread: `worker`'s memory, the shared table and the limits.
    #[allow(clippy::too_many_arguments)]
    fn new(
        w: &'e Weights,
        net: Option<&'e Network>,
        tt: &'e TransTable,
        worker: &'e mut Worker,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: Option<&Arc<AtomicBool>>,
        start: Instant,
    ) -> Search<'e> {
        let Worker { heur, plies, inc, nnue } = worker;
        let values = w.search_values();
        inc.reset(pos, w);
        if let Some(net) = net {
            nnue.reset(net, pos);
        }
        Search {
            pos: pos.clone(),
            w,
            tt,
            heur,
            plies,
            inc,
            net,
            nnue,
            keys: history.to_vec(),
            nodes: 0,
            seldepth: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| start + t),
            stop: stop.cloned(),
            aborted: false,
            root_depth: 0,
            root_best: None,
            iter_best: None,
            values,
            victims: victim_order(pos.ruleset(), &values),
            shared_nodes: None,
            searchmoves: limits.searchmoves.clone(),
        }
    }

    /// Nodes of this search; under Lazy SMP every thread's (the published count and this
    /// thread's unpublished remainder).
    #[inline]
    fn total_nodes(&self) -> u64 {
        match self.shared_nodes {
            None => self.nodes,
            Some(n) => n.load(Ordering::Relaxed) + (self.nodes & 1023),
        }
    }

    /// One iteration at `depth` inside an aspiration window around the previous score `prev`,
    /// widened on failure. Sets `root_depth` and resets `iter_best`.
    fn aspiration(&mut self, depth: i32, prev: i32, root_in_check: bool) -> i32 {
        self.root_depth = depth;
        self.iter_best = None;
        let mut delta = 25;
        let (mut alpha, mut beta) =
            if depth >= 4 && prev.abs() < MATE_BOUND { (prev - delta, prev + delta) } else { (-INFINITE, INFINITE) };
        loop {
            let v = self.negamax(depth, alpha, beta, 0, true, root_in_check);
            if self.aborted {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta {
                beta = (v + delta).min(INFINITE);
            } else {
                return v;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// A helper thread's iterative deepening: depths 1 to `max_depth` (one deeper for odd
    /// helpers), results only into the table, until the main thread raises the stop flag.
    fn helper(&mut self, max_depth: u32, index: u32) {
        let root_in_check = self.pos.in_check();
        let skew = index & 1;
        let mut prev = 0;
        for depth in 1..=max_depth.clamp(1, MAX_DEPTH) {
            let v = self.aspiration((depth + skew).min(MAX_DEPTH) as i32, prev, root_in_check);
            if self.aborted {
                break;
            }
            prev = v;
        }
    }

    /// The main thread's iterative deepening under `limits` (the search of [`Engine::search`]).
    fn iterate(&mut self, limits: &Limits, start: Instant, mut on_iteration: impl FnMut(&Iteration)) -> SearchResult {
        let mut result = SearchResult {
            best: None,
            score: Score(0),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            iterations: Vec::new(),
        };

        // 1. No legal move: mated or stalemated, nothing to search.
        let pos = self.pos.clone();
        let mut legal = pos.legal_moves();
        if legal.iter().any(|m| self.searchmoves.contains(m)) {
            legal.retain(|m| self.searchmoves.contains(m));
        } else {
            self.searchmoves.clear();
        }
        if legal.is_empty() {
            result.score = Score(if pos.in_check() { mated_in(0) } else { DRAW });
            return result;
        }

        // 2. Iterative deepening.
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root_in_check = pos.in_check();
        let mut prev: i32 = 0;
        for depth in 1..=max_depth {
            let score = self.aspiration(depth as i32, prev, root_in_check);
            if self.aborted {
                // 2a'. Cut off: a root move that beat the previous best in this deeper iteration
                //      replaces it (its score is only a bound: the completed depth's stays).
                if let Some(m) = self.iter_best.filter(|&m| result.best.is_some() && result.best != Some(m)) {
                    result.best = Some(m);
                    let pv = &self.plies[0].pv;
                    result.pv = if pv.first() == Some(&m) { pv.clone() } else { vec![m] };
                }
                break;
            }
            // 2a. Record and report the completed depth.
            prev = score;
            let pv = self.plies[0].pv.clone();
            let it = Iteration {
                depth,
                seldepth: self.seldepth,
                score: Score(score),
                nodes: self.total_nodes(),
                time: start.elapsed(),
                pv: pv.clone(),
            };
            on_iteration(&it);
            result.best = pv.first().copied().or(self.root_best);
            result.score = Score(score);
            result.depth = depth;
            result.pv = pv;
            result.iterations.push(it);
            // 2b. Stop early: past the soft time, or a mate found well within the depth searched.
            if limits.soft_time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) + 2 <= depth as i32 {
                break;
            }
        }

        // 3. No depth completed (tiny node or time budget): the best root move seen, else the first.
        if result.best.is_none() {
            result.best = self.root_best.or(legal.first().copied());
            result.pv = result.best.into_iter().collect();
        }
        result.nodes = self.nodes;
        result.seldepth = self.seldepth;
        result.time = start.elapsed();
        result
    }
}

/// Iterations up to this depth search for short mates without the two prunings that hide them:
/// no late-move reductions at the root, reverse futility only one ply above the horizon. With
/// either, a quiet first move of a mate in two (often a king move, ordered late) was reduced or
/// its mating replies cut off by the static score, and depth 4 missed 17 of 300 generated mates
/// in two (`engine::mates`, `examples/mates.rs`); without them it misses none. Deeper iterations
/// keep both prunings (the strength they buy is measured in `docs/ENGINE.md`) and find the mate
/// again first: it is the root's first move and its line is searched with a full window.
const SHALLOW: i32 = 4;

/// Late-move reduction in plies for a depth and move number.
fn reduction(depth: i32, count: usize) -> i32 {
    static TABLE: OnceLock<Vec<[u8; 256]>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0u8; 256];
                for (c, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = (0.5 + (d as f64).ln() * (c as f64).ln() / 2.2) as u8;
                    }
                }
                row
            })
            .collect()
    });
    t[depth.clamp(0, 63) as usize][count.min(255)] as i32
}

/// Quiet moves tried at a shallow non-PV node before the rest are skipped.
#[inline]
fn late_move_limit(depth: i32) -> usize {
    (4 + 3 * depth * depth) as usize
}

impl Search<'_> {
    /// Plays `m`, bringing the evaluation terms along.
    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        let occ = self.pos.occupied().0;
        let kings = [self.pos.king(Color::White).index(), self.pos.king(Color::Black).index()];
        let undo = self.pos.make(m);
        self.inc.push(occ, self.pos.occupied().0, kings, m.from().index(), m.to().index());
        if self.net.is_some() {
            self.nnue.push(m);
        }
        undo
    }

    /// Takes back `m`, the last move played by [`Search::make`].
    #[inline]
    fn unmake(&mut self, m: Move, undo: Undo) {
        self.pos.unmake(m, undo);
        self.inc.pop();
        if self.net.is_some() {
            self.nnue.pop();
        }
    }

    /// The static evaluation of the current position: the network's when the engine has one,
    /// plus the hand evaluation's king chase in won endgames, else the hand evaluation (equal to
    /// [`evaluate`]).
    ///
    /// The chase (`eval.rs`, step 7 without its trade bonus: with few men, a clear material lead
    /// and no pawns left to the side ahead, drive the weaker king to the edge and bring the own
    /// king closer) is added to the network's score because a network trained on search scores
    /// values such endgames as won but flat: nothing in its score says which king move makes
    /// progress. Without it the engine with the shipped Five Up network drew 10 of 20 random
    /// K+Q v K endgames by the fifty-move rule (`docs/NNUE.md`, the conversion measurement).
    #[inline]
    fn static_eval(&mut self) -> i32 {
        if let Some(net) = self.net {
            let mut v = self.nnue.evaluate(net, &self.pos);
            if self.pos.occupied().0.count_ones() as i32 <= self.w.mopup_pieces {
                let m = mop_up_chase(&self.pos, self.w, self.inc.taper().value(&self.pos));
                v += if self.pos.side() == Color::White { m } else { -m };
            }
            // Clamped below the mate range, so that no evaluation reads as a mate.
            return v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let v = self.inc.evaluate(&self.pos, self.w);
        debug_assert_eq!(v, evaluate(&self.pos, self.w), "incremental evaluation");
        v
    }

    /// Counts a node and checks the limits; sets `aborted` when one is reached.
    #[inline]
    fn tick(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.total_nodes() >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(n) = self.shared_nodes {
                n.fetch_add(1024, Ordering::Relaxed);
            }
            if self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.aborted = true;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Draw by the fifty-move rule, repetition (of a game position or one on the search path) or
    /// bare kings. Not called at the root.
    fn is_draw(&self) -> bool {
        let pos = &self.pos;
        let hm = pos.halfmove() as usize;
        if hm >= 100 {
            // Checkmate on the hundredth ply still counts as mate.
            return !pos.in_check() || pos.has_legal_move();
        }
        let key = pos.hash();
        let n = self.keys.len();
        let mut i = 2;
        while i <= hm.min(n) {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        pos.bare_kings()
    }

    /// Whether the side to move has a piece other than pawns and its king (null move is unsafe
    /// without one: zugzwang).
    fn has_pieces(&self) -> bool {
        let us = self.pos.side();
        let pk = self.pos.pieces(us, Kind::Pawn).0 | self.pos.pieces(us, Kind::King).0;
        self.pos.color_bb(us).0 & !pk != 0
    }

    /// Copies `m` followed by the child's PV into the PV of `ply`.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Principal-variation search of the current position to `depth` plies within (alpha, beta);
    /// `in_check` tells whether the side to move is in check (the caller knows it already).
    pub(crate) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
        in_check: bool,
    ) -> i32 {
        // 1. Horizon: quiescence.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, in_check);
        }
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.plies[ply].pv.clear();

        // 2. Node accounting and limits.
        if self.tick(ply) && !root {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }

        // 3. Draws, and mate-distance pruning.
        if !root {
            if self.is_draw() {
                return DRAW;
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // 4. Transposition table: a cutoff at non-PV nodes, a first move everywhere.
        let key = self.pos.hash();
        let hit = self.tt.probe(key, ply);
        let tt_move = if root { self.root_best.or(hit.and_then(|h| h.mv)) } else { hit.and_then(|h| h.mv) };
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return h.score;
                }
            }
        }

        // 5. Static evaluation (meaningless in check).
        let eval = if in_check { -INFINITE } else { self.static_eval() };

        // 6. Reverse futility: far above beta near the horizon, a quiet move will not fall below it.
        //    In the first four iterations only one ply above the horizon (see `SHALLOW`).
        let rfp_depth = if self.root_depth <= SHALLOW { 1 } else { 3 };
        if !pv_node && !in_check && depth <= rfp_depth && beta.abs() < MATE_BOUND && eval - 120 * depth >= beta {
            return eval;
        }

        // 7. Null move: pass; if a reduced search still fails high, so would a real move.
        if !pv_node
            && !in_check
            && null_ok
            && depth >= 3
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && self.has_pieces()
        {
            let r = 3 + depth / 4;
            let undo = self.pos.make_null();
            self.keys.push(key);
            let v = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
            self.keys.pop();
            self.pos.unmake_null(undo);
            if self.aborted {
                return 0;
            }
            if v >= beta {
                return if v >= MATE_BOUND { beta } else { v };
            }
        }

        // 8. Generate the moves (scored in stages by the picker); none means mate or stalemate.
        let mut picker = std::mem::take(&mut self.plies[ply].picker);
        let mut quiets = std::mem::take(&mut self.plies[ply].quiets);
        quiets.clear();
        // The hand evaluation's incremental attack sets serve the generator (out of check the
        // evaluation above brought the state to this position already); with a network they
        // are computed.
        let n = if self.net.is_some() {
            picker.generate(&self.pos, tt_move, self.heur.killers(ply), &Computed)
        } else {
            self.inc.sync(&self.pos, self.w);
            picker.generate(&self.pos, tt_move, self.heur.killers(ply), &*self.inc)
        };
        if n == 0 {
            self.plies[ply].picker = picker;
            self.plies[ply].quiets = quiets;
            return if in_check { mated_in(ply) } else { DRAW };
        }

        // 9. The move loop.
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut count = 0usize;
        let side = self.pos.side().index();
        let mut check_info: Option<CheckInfo> = None;
        let mut pruning_quiets = false;
        while let Some(m) = picker.next(&self.pos, &self.values, self.heur) {
            if root && !self.searchmoves.is_empty() && !self.searchmoves.contains(&m) {
                continue;
            }
            let quiet = is_quiet(&self.pos, m);

            // 9a. Shallow pruning of late quiet moves that do not give check (never before one move
            //     has been searched): too many tried already, or too far below alpha. Once that
            //     holds at a node it holds for every later move (count, alpha and best only grow),
            //     so the picker then drops the quiet moves not produced yet that cannot give check.
            if !root
                && !pv_node
                && !in_check
                && quiet
                && best > -MATE_BOUND
                && ((depth <= 3 && count >= late_move_limit(depth))
                    || (depth <= 2 && eval + 150 * depth <= alpha && Some(m) != tt_move))
            {
                let info = check_info.get_or_insert_with(|| CheckInfo::new(&self.pos));
                if !pruning_quiets {
                    pruning_quiets = true;
                    picker.retain_quiet(|q| info.may_give_check(&self.pos, q));
                }
                if !info.may_give_check(&self.pos, m) {
                    continue;
                }
            }

            // 9b. Make the move; extend checks. A child above the horizon probes the table first:
            //     start loading its entry now, while the check test runs.
            let undo = self.make(m);
            if depth > 1 {
                self.tt.prefetch(self.pos.hash());
            }
            let gives_check = self.pos.in_check();
            self.keys.push(key);
            count += 1;
            let ext = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
            let new_depth = depth - 1 + ext;

            // 9c. PVS: the first move with the full window, the rest with a null window (reduced
            //     for late quiet moves), re-searched when they beat alpha.
            let v = if count == 1 {
                -self.negamax(new_depth, -beta, -alpha, ply + 1, true, gives_check)
            } else {
                let mut r = 0;
                let shallow_root = root && self.root_depth <= SHALLOW;
                if depth >= 3
                    && !shallow_root
                    && quiet
                    && !in_check
                    && !gives_check
                    && count > if pv_node { 4 } else { 2 }
                {
                    r = reduction(depth, count) - i32::from(pv_node) - self.heur.history(side, m) / 8192;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true, gives_check);
                if v > alpha && r > 0 {
                    v = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, true, gives_check);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(new_depth, -beta, -alpha, ply + 1, true, gives_check);
                }
                v
            };
            self.keys.pop();
            self.unmake(m, undo);
            if self.aborted {
                break;
            }

            // 9d. New best; a cutoff updates killers and history.
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if root {
                        self.root_best = Some(m);
                        self.iter_best = Some(m);
                    }
                    if alpha >= beta {
                        if quiet {
                            let bonus = (16 * depth * depth).min(2_000);
                            self.heur.add_killer(ply, m);
                            self.heur.update_history(side, m, bonus);
                            for &q in &quiets {
                                self.heur.update_history(side, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(m);
            }
        }
        self.plies[ply].picker = picker;
        self.plies[ply].quiets = quiets;
        if self.aborted {
            return 0;
        }

        // 10. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, depth, best, bound, best_move.or(tt_move));
        best
    }

    /// Quiescence: captures and queen promotions until the position is quiet; all evasions in check.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        // 1. Node accounting and limits.
        if self.tick(ply) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        self.plies[ply].pv.clear();

        // 2. Stand pat and the captures worth trying (not in check), or every evasion (in check).
        let mut scored = std::mem::take(&mut self.plies[ply].scored);
        let mut best;
        if in_check {
            let mut moves = std::mem::take(&mut self.plies[ply].moves);
            moves.clear();
            self.pos.legal_moves_into(&mut moves);
            score_moves(&self.pos, &moves, &mut scored, &self.values, None, self.heur, ply);
            self.plies[ply].moves = moves;
            if scored.is_empty() {
                self.plies[ply].scored = scored;
                return mated_in(ply);
            }
            best = -INFINITE;
        } else {
            let stand = self.static_eval();
            if stand >= beta {
                self.plies[ply].scored = scored;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            // Delta pruning: a victim worth less than this cannot lift the score to alpha.
            let min_gain = alpha.saturating_sub(stand).saturating_sub(DELTA_MARGIN - 1);
            // The hand evaluation brought the incremental state here, with the attack sets the
            // captures need; with a network the attack sets are computed (cheaper than bringing
            // the hand evaluation's state along for them).
            if self.net.is_some() {
                captures_into(&self.pos, &self.values, &self.victims, min_gain, &Computed, &mut scored);
            } else {
                captures_into(&self.pos, &self.values, &self.victims, min_gain, &*self.inc, &mut scored);
            }
        }

        // 3. Try the moves, skipping captures that look losing.
        for i in 0..scored.len() {
            let m = pick(&mut scored, i).mv;
            if !in_check && m.promotion().is_none() {
                if let Some(victim) = captured(&self.pos, m) {
                    let attacker = self.pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind);
                    if is_bad_capture(&self.pos, &self.values, m, victim, attacker) {
                        continue;
                    }
                }
            }
            let undo = self.make(m);
            let check = self.pos.in_check();
            let v = -self.qsearch(-beta, -alpha, ply + 1, check);
            self.unmake(m, undo);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.plies[ply].scored = scored;
        if self.aborted {
            return 0;
        }
        best
    }
}

/// Quiescence skips captures whose victim plus this margin cannot reach alpha.
const DELTA_MARGIN: i32 = 200;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::random::scrambled;
    use crate::rules::{Cell, Color, Piece, Ruleset, Setup, Variant};

    fn engine(rs: Ruleset) -> Engine {
        Engine::new(Weights::for_ruleset(rs), EngineConfig { hash_mb: 4, keep_tt: false, threads: 1 })
    }

    fn run(pos: &Position, limits: Limits) -> SearchResult {
        engine(pos.ruleset()).search(pos, &[], &limits, None, |_| {})
    }

    /// A position from a piece list (upper case white), no reserve, no rights.
    fn position(rs: Ruleset, pieces: &[(&str, char)], side: Color) -> Position {
        let mut s = Setup::empty(Variant::plain(rs));
        for (cell, ch) in pieces {
            let c: Cell = cell.parse().unwrap();
            let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
            s.board[c.index()] = Some(Piece::new(color, rs.kind_from_letter(*ch).unwrap()));
        }
        s.side = side;
        Position::from_setup(s).unwrap()
    }

    /// Plays the legal move printed as `text` (coordinate form); panics if there is none.
    fn play(pos: &mut Position, text: &str) -> Move {
        let m = pos.legal_moves().into_iter().find(|m| m.to_string() == text);
        let m = m.unwrap_or_else(|| panic!("{text} is not legal"));
        pos.make(m);
        m
    }

    /// Brute force: can the side to move force mate within `n` of its moves?
    fn naive_mate_in(p: &mut Position, n: u32) -> bool {
        crate::engine::mates::mating_move(p, n).is_some()
    }

    /// The seed fool's mate `1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3 3. N-Db3/S P-Cc3`, white to move.
    fn fools_mate_before_last_move() -> Position {
        let mut p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        for m in ["Dc2Cc2", "Bc4Cc4", "Db1De4/G", "Ad4Bd3", "Eb1Db3/S", "Cc4Cc3"] {
            play(&mut p, m);
        }
        p
    }

    #[test]
    fn seed_fools_mate_replays_and_is_found() {
        let mut p = fools_mate_before_last_move();
        // 4. SxBe4++: the silver unicorn placed on Eb1 takes the pawn on Be4 along the 3D diagonal.
        let mut after = p.clone();
        play(&mut after, "Eb1Be4");
        assert!(after.in_check() && after.legal_moves().is_empty(), "SxBe4 is mate");
        for depth in 1..=3 {
            let r = run(&p, Limits::depth(depth));
            assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("Eb1Be4"), "depth {depth}");
            assert_eq!(r.score.mate_in(), Some(1), "depth {depth}");
            assert_eq!(r.pv.len(), 1);
        }
        assert!(naive_mate_in(&mut p, 1));
    }

    #[test]
    fn searchmoves_restrict_the_root() {
        let p = fools_mate_before_last_move();
        let legal = p.legal_moves();
        let others: Vec<Move> = legal.iter().copied().filter(|m| m.to_string() != "Eb1Be4").take(3).collect();
        let limits = Limits { searchmoves: others.clone(), ..Limits::depth(3) };
        let r = run(&p, limits.clone());
        assert!(others.contains(&r.best.unwrap()) && r.score.mate_in().is_none());
        let mut smp =
            Engine::new(Weights::for_ruleset(Ruleset::FiveUp), EngineConfig { threads: 2, ..EngineConfig::default() });
        assert!(others.contains(&smp.search(&p, &[], &limits, None, |_| {}).best.unwrap()));
        // Only illegal moves listed: every move is searched.
        let foreign: Vec<Move> = Position::startpos(Variant::plain(Ruleset::Raumschach))
            .legal_moves()
            .into_iter()
            .filter(|m| !legal.contains(m))
            .collect();
        assert!(!foreign.is_empty());
        let limits = Limits { searchmoves: foreign, ..Limits::depth(3) };
        assert_eq!(run(&p, limits).best.map(|m| m.to_string()).as_deref(), Some("Eb1Be4"));
    }

    #[test]
    fn lazy_smp_threads_share_the_table_and_count_their_nodes() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let config = EngineConfig { hash_mb: 4, keep_tt: false, threads: 3 };
        let mut e = Engine::new(Weights::for_ruleset(Ruleset::FiveUp), config.clone());
        let mut reported = Vec::new();
        let r = e.search(&p, &[], &Limits::depth(5), None, |it| reported.push(it.nodes));
        assert_eq!(r.depth, 5);
        assert!(p.legal_moves().contains(&r.best.unwrap()));
        // The report counts the helpers' nodes too, and the total is at least the last report.
        assert!(reported.windows(2).all(|w| w[0] <= w[1]) && r.nodes >= *reported.last().unwrap());
        // The helpers searched: more nodes than the main thread's own deterministic count.
        let one = engine(Ruleset::FiveUp).search(&p, &[], &Limits::depth(5), None, |_| {});
        assert!(r.nodes > one.nodes, "{} vs {}", r.nodes, one.nodes);
        // A node limit bounds the sum over threads: every thread watches it, each seeing the
        // others' nodes up to their last 1,023 unpublished ones.
        let r = e.search(&p, &[], &Limits::nodes(50_000), None, |_| {});
        assert!(r.nodes < 50_000 + 3 * 1024, "{}", r.nodes);
        // The mate is still found, and the stop flag stops every thread.
        let mut e = Engine::new(Weights::for_ruleset(Ruleset::FiveUp), EngineConfig { threads: 2, ..config });
        let r = e.search(&fools_mate_before_last_move(), &[], &Limits::depth(3), None, |_| {});
        assert_eq!(r.score.mate_in(), Some(1));
        // (Unlimited otherwise: it returns at all only because the flag stops every thread. The
        // main thread looks at the flag every 1,024 of its own nodes, and the helpers' table
        // entries may let it finish a shallow iteration or two within them.)
        let stop = Arc::new(AtomicBool::new(true));
        let r = e.search(&p, &[], &Limits::default(), Some(&stop), |_| {});
        assert!(r.best.is_some() && r.depth <= 4, "depth {}", r.depth);
    }

    const MATES_IN_TWO: [(Ruleset, &[(&str, char)]); 5] = [
        (Ruleset::Raumschach, &[("Ae5", 'K'), ("Bd1", 'Q'), ("Cb5", 'R'), ("Ea5", 'k')]),
        (Ruleset::Raumschach, &[("Aa1", 'k'), ("Ab3", 'K'), ("Be4", 'Q'), ("Db3", 'R')]),
        (Ruleset::FiveUp, &[("Ce5", 'R'), ("De2", 'N'), ("De4", 'k'), ("Ed2", 'K')]),
        (Ruleset::FiveUp, &[("Ce3", 'K'), ("De5", 'k'), ("Ea4", 'Q')]),
        (Ruleset::FiveUp, &[("Cd4", 'K'), ("Db2", 'Q'), ("Ec4", 'k')]),
    ];

    #[test]
    fn finds_mates_in_two_for_either_side() {
        for (rs, pieces) in MATES_IN_TWO {
            for side in Color::ALL {
                // For black, swap the colours: the same mate with the roles reversed.
                let swapped: Vec<(&str, char)> =
                    pieces.iter().map(|&(c, ch)| (c, if side == Color::White { ch } else { swap_case(ch) })).collect();
                let mut p = position(rs, &swapped, side);
                assert!(naive_mate_in(&mut p, 2) && !naive_mate_in(&mut p, 1), "{rs} {pieces:?} is a mate in two");
                let r = run(&p, Limits::depth(4));
                assert_eq!(r.score.mate_in(), Some(2), "{rs} {pieces:?} {side:?}: {}", r.score);
                // The chosen move really forces mate next move.
                let m = r.best.unwrap();
                let u = p.make(m);
                for reply in p.legal_moves() {
                    let u2 = p.make(reply);
                    assert!(naive_mate_in(&mut p, 1), "{m} {reply} does not allow mate");
                    p.unmake(reply, u2);
                }
                p.unmake(m, u);
            }
        }
    }

    fn swap_case(c: char) -> char {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    }

    #[test]
    fn mated_side_sees_its_fate() {
        // Black, checkmated by the seed fool's mate, has no move and scores mated-now.
        let p = fools_mate_before_last_move();
        let mut q = p.clone();
        play(&mut q, "Eb1Be4");
        let r = run(&q, Limits::depth(3));
        assert_eq!(r.best, None);
        assert_eq!(r.score.mate_in(), Some(0));
    }

    #[test]
    fn no_legal_move_mate_and_stalemate() {
        let stale = position(Ruleset::Raumschach, &[("Aa5", 'k'), ("Bb3", 'K'), ("Cb5", 'Q')], Color::Black);
        assert!(stale.legal_moves().is_empty() && !stale.in_check());
        let r = run(&stale, Limits::depth(3));
        assert_eq!((r.best, r.score), (None, Score(DRAW)));
    }

    #[test]
    fn exactly_one_legal_move_is_returned() {
        let p = position(Ruleset::FiveUp, &[("Bd1", 'K'), ("Ba4", 'R'), ("Ca5", 'k'), ("De1", 'Q')], Color::Black);
        let legal = p.legal_moves();
        assert_eq!(legal.len(), 1);
        for limits in [Limits::depth(3), Limits::nodes(1), Limits::nodes(500)] {
            assert_eq!(run(&p, limits).best, Some(legal[0]));
        }
    }

    #[test]
    fn never_returns_an_illegal_move_and_pvs_are_legal() {
        for rs in Ruleset::ALL {
            for seed in 0..12u64 {
                let p = scrambled(Variant::plain(rs), 10 + 7 * seed as usize, seed);
                let legal = p.legal_moves();
                for limits in [Limits::nodes(1 + 300 * seed), Limits::depth(2)] {
                    let r = run(&p, limits);
                    match r.best {
                        None => assert!(legal.is_empty()),
                        Some(m) => assert!(legal.contains(&m), "{rs} seed {seed}: {m} illegal"),
                    }
                    let mut q = p.clone();
                    for m in &r.pv {
                        assert!(q.legal_moves().contains(m), "{rs} seed {seed}: PV move {m} illegal");
                        q.make(*m);
                    }
                }
            }
        }
    }

    #[test]
    fn fixed_depth_and_fixed_nodes_are_reproducible() {
        let p = scrambled(Variant::plain(Ruleset::FiveUp), 12, 3);
        let mut e = engine(Ruleset::FiveUp);
        for limits in [Limits::depth(3), Limits::nodes(20_000)] {
            let a = e.search(&p, &[], &limits, None, |_| {});
            let b = e.search(&p, &[], &limits, None, |_| {});
            let c = run(&p, limits.clone());
            let strip = |r: &SearchResult| (r.best, r.score, r.depth, r.nodes, r.pv.clone());
            assert_eq!(strip(&a), strip(&b));
            assert_eq!(strip(&a), strip(&c));
        }
    }

    #[test]
    fn iterations_are_reported_in_order() {
        let p = Position::startpos(Variant::plain(Ruleset::Raumschach));
        let mut seen = Vec::new();
        let r = engine(Ruleset::Raumschach).search(&p, &[], &Limits::depth(3), None, |it| seen.push(it.clone()));
        assert_eq!(seen.iter().map(|i| i.depth).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        assert_eq!(r.iterations, seen);
        assert_eq!(r.pv.first().copied(), r.best);
    }

    #[test]
    fn stop_flag_and_time_limit_end_the_search() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let stop = Arc::new(AtomicBool::new(true));
        let r = engine(Ruleset::FiveUp).search(&p, &[], &Limits::default(), Some(&stop), |_| {});
        assert!(r.best.is_some() && r.depth <= 1);
        let t = Instant::now();
        let r = run(&p, Limits::time(Duration::from_millis(200)));
        assert!(t.elapsed() < Duration::from_millis(1500));
        assert!(p.legal_moves().contains(&r.best.unwrap()));
    }

    #[test]
    fn soft_time_ends_the_search_after_a_completed_iteration() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let limits = Limits { soft_time: Some(Duration::ZERO), depth: Some(6), ..Limits::default() };
        let r = run(&p, limits);
        assert_eq!(r.depth, 1, "no iteration starts once the soft time has passed");
        assert!(r.best.is_some());
    }

    #[test]
    fn a_cut_off_iteration_answers_with_the_move_that_beat_the_previous_best() {
        // Node budgets that end the search inside an iteration: the answer is legal, heads its PV,
        // and sometimes is the cut-off iteration's new best rather than the last completed
        // depth's move.
        let mut replaced = 0;
        for (i, rs) in [Ruleset::FiveUp, Ruleset::Raumschach].into_iter().cycle().take(16).enumerate() {
            let p = scrambled(Variant::plain(rs), 6 + i, 40 + i as u64);
            for nodes in [3_000, 7_000, 20_000] {
                let r = run(&p, Limits::nodes(nodes));
                let best = r.best.unwrap();
                assert!(p.legal_moves().contains(&best), "{p} {nodes}");
                assert_eq!(r.pv.first(), Some(&best));
                let completed = r.iterations.last().and_then(|it| it.pv.first().copied());
                replaced += usize::from(completed.is_some_and(|m| m != best));
            }
        }
        assert!(replaced > 0, "no cut-off iteration changed the answer in 48 searches");
    }

    #[test]
    fn repeating_a_game_position_counts_as_a_draw() {
        // King and queen against a bare king: winning, so the engine avoids a move that would
        // repeat a position of the game (a draw), and a repeated position scores 0.
        let p = position(Ruleset::Raumschach, &[("Cc3", 'K'), ("Ca1", 'Q'), ("Ee5", 'k')], Color::White);
        let mut s = p.to_setup();
        s.halfmove = 10;
        let p = Position::from_setup(s).unwrap();
        let r = run(&p, Limits::depth(3));
        assert!(r.score.0 > 500);
        let first = r.best.unwrap();
        let history = [p.after(first).hash(), 0];
        let mut e = engine(Ruleset::Raumschach);
        let r2 = e.search(&p, &history[..1], &Limits::depth(3), None, |_| {});
        assert_ne!(r2.best, Some(first));
        assert!(r2.score.0 > 500);
        // Outside the fifty-move window (halfmove 0: the last move was irreversible) nothing repeats.
        let mut s = p.to_setup();
        s.halfmove = 0;
        let q = Position::from_setup(s).unwrap();
        assert_eq!(e.search(&q, &history[..1], &Limits::depth(3), None, |_| {}).best, Some(first));
    }

    #[test]
    fn fifty_move_rule_draws_inside_search() {
        let p = position(Ruleset::Raumschach, &[("Cc3", 'K'), ("Ca1", 'Q'), ("Ee5", 'k')], Color::White);
        let mut s = p.to_setup();
        s.halfmove = 99;
        let q = Position::from_setup(s).unwrap();
        // Any quiet move reaches 100 plies: a draw unless it mates or captures.
        let r = run(&q, Limits::depth(3));
        assert!(r.score.0 == DRAW || r.score.is_mate(), "{}", r.score);
    }
}
