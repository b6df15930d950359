//! Iterative-deepening principal-variation search with aspiration windows, for any game that is
//! a [`SearchBoard`].
//!
//! [`Engine::search`] runs depths 1, 2, ... until a limit (depth, nodes, time or the stop flag),
//! reporting every completed depth. Each depth calls `Search::negamax` at the root inside an
//! aspiration window around the previous score; a node below the horizon drops into
//! `Search::qsearch`. Evaluation, move generation split into noisy and quiet moves, the moves
//! quiescence tries and the check test of late-move pruning come from the board (for the 5x5x5
//! games [`FiveUpBoard`]: the hand evaluation, incremental, or an NNUE network set by
//! [`Engine::set_network`]); everything else is written once here.
//!
//! Determinism: with `keep_tt = false` (the default) the transposition table and the move-ordering
//! heuristics are cleared at the start of every search, and nothing else carries state, so a search
//! limited by depth or nodes returns the same move, score, PV and node count run after run. Only
//! time limits and the stop flag make results depend on the clock.
//!
//! Files: this one holds the limits, the result types, the engine and the search state;
//! `deepen.rs` the iterative-deepening driver (aspiration windows, reports, Lazy SMP helpers);
//! `negamax.rs` the tree search itself (`negamax`, quiescence and the per-node bookkeeping).
//!
//! [`FiveUpBoard`]: super::FiveUpBoard

mod deepen;
mod negamax;

use super::board::SearchBoard;
use super::fiveup_board::{FiveUpBoard, FiveUpEval};
use super::ordering::{Heuristics, MovePicker, ScoredMove, MAX_PLY};
use super::score::{Score, INFINITE};
use super::tt::{TableSizeError, TransTable};
use super::weights::Weights;
use crate::engine::nnue::Network;
use crate::game::State;
use crate::rules::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to stop searching. Unset limits do not apply; with none set the search runs to
/// [`MAX_DEPTH`] (or until the stop flag is raised).
#[derive(Clone, Debug, PartialEq)]
pub struct Limits<M = Move> {
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
    pub searchmoves: Vec<M>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits { depth: None, nodes: None, time: None, soft_time: None, searchmoves: Vec::new() }
    }
}

impl<M> Limits<M> {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits<M> {
        Limits { depth: Some(d), ..Limits::default() }
    }
    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits<M> {
        Limits { nodes: Some(n), ..Limits::default() }
    }
    /// Search for a time.
    pub fn time(t: Duration) -> Limits<M> {
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
pub struct Iteration<M = Move> {
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
    pub pv: Vec<M>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M = Move> {
    /// Best move; `None` only when the side to move has no legal move.
    pub best: Option<M>,
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
    pub pv: Vec<M>,
    /// Every completed depth.
    pub iterations: Vec<Iteration<M>>,
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
struct Ply<M> {
    picker: MovePicker<M>,
    moves: Vec<M>,
    scored: Vec<ScoredMove<M>>,
    quiets: Vec<M>,
    pv: Vec<M>,
}

impl<M> Default for Ply<M> {
    fn default() -> Self {
        Ply { picker: MovePicker::default(), moves: Vec::new(), scored: Vec::new(), quiets: Vec::new(), pv: Vec::new() }
    }
}

/// The memory one search thread owns: move-ordering heuristics, per-ply scratch space and the
/// game's board (its position and evaluation state).
struct Worker<B: SearchBoard> {
    heur: Heuristics<B::Move>,
    plies: Vec<Ply<B::Move>>,
    board: B,
}

impl<B: SearchBoard> Worker<B> {
    fn new() -> Worker<B> {
        Worker {
            heur: Heuristics::default(),
            plies: (0..MAX_PLY + 8).map(|_| Ply::default()).collect(),
            board: B::new(),
        }
    }
}

/// An alpha-beta engine for the game of board `B` (by default the 5x5x5 games): evaluation
/// settings, transposition table and move-ordering memory (one [`Worker`] per search thread).
pub struct Engine<B: SearchBoard = FiveUpBoard> {
    eval: B::Eval,
    config: EngineConfig,
    tt: TransTable,
    main: Worker<B>,
    helpers: Vec<Worker<B>>,
}

impl Engine {
    /// A new 5x5x5 engine with the given weights and settings (`threads` is clamped to
    /// 1..=[`MAX_THREADS`]).
    pub fn new(weights: Weights, config: EngineConfig) -> Engine {
        Engine::with_eval(FiveUpEval { weights, net: None, tablebases: None }, config)
    }

    /// [`Engine::new`] with a table size a user asked for: a table that does not fit in memory
    /// is an error.
    pub fn try_new(weights: Weights, config: EngineConfig) -> Result<Engine, TableSizeError> {
        Engine::try_with_eval(FiveUpEval { weights, net: None, tablebases: None }, config)
    }

    /// Evaluates with `net` (an NNUE network for the positions' ruleset) instead of the hand
    /// evaluation, or with the hand evaluation again (`None`). The table is cleared.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.eval.net = net;
        self.tt.clear();
    }

    /// Probes these endgame tables in every search (`None`: none). The table is cleared.
    pub fn set_tablebases(&mut self, tables: Option<Arc<crate::tablebase::Tablebases>>) {
        self.eval.tablebases = tables;
        self.tt.clear();
    }

    /// The endgame tables probed, if any.
    pub fn tablebases(&self) -> Option<&Arc<crate::tablebase::Tablebases>> {
        self.eval.tablebases.as_ref()
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.eval.net.as_ref()
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.eval.weights
    }

    /// Replaces the evaluation weights (the table is cleared: its scores came from the old ones).
    pub fn set_weights(&mut self, weights: Weights) {
        self.eval.weights = weights;
        self.tt.clear();
    }
}

impl<B: SearchBoard> Engine<B> {
    /// A new engine with the given evaluation and settings (`threads` is clamped to
    /// 1..=[`MAX_THREADS`]).
    ///
    /// # Panics
    /// When the table does not fit in memory: a size a user asked for goes through
    /// [`Engine::try_with_eval`].
    pub fn with_eval(eval: B::Eval, config: EngineConfig) -> Engine<B> {
        let tt = TransTable::new(config.hash_mb);
        Engine::with_table(eval, config, tt)
    }

    /// [`Engine::with_eval`], or why its table does not fit in memory.
    pub fn try_with_eval(eval: B::Eval, config: EngineConfig) -> Result<Engine<B>, TableSizeError> {
        let tt = TransTable::try_new(config.hash_mb)?;
        Ok(Engine::with_table(eval, config, tt))
    }

    /// The engine around its table.
    fn with_table(eval: B::Eval, mut config: EngineConfig, tt: TransTable) -> Engine<B> {
        config.threads = config.threads.clamp(1, MAX_THREADS);
        let helpers = (1..config.threads).map(|_| Worker::new()).collect();
        Engine { eval, config, tt, main: Worker::new(), helpers }
    }

    /// The evaluation settings.
    pub fn eval(&self) -> &B::Eval {
        &self.eval
    }

    /// Replaces the evaluation settings (the table is cleared: its scores came from the old ones).
    pub fn set_eval(&mut self, eval: B::Eval) {
        self.eval = eval;
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
        pos: &B::Pos,
        history: &[u64],
        limits: &Limits<B::Move>,
        stop: Option<&Arc<AtomicBool>>,
        start: Instant,
    ) -> Search<'_, B> {
        Search::new(&self.eval, &self.tt, &mut self.main, pos, history, limits, stop, start)
    }

    /// The quiescence value of `pos` for the side to move, as the search resolves its leaves:
    /// the static evaluation or the best sequence of captures and queen promotions (every evasion
    /// in check; mated scores as a mate). Within `node_limit` nodes; a search cut off by the limit
    /// reports the static evaluation. No table, no history: the answer depends on `pos` alone.
    pub fn quiesce(&mut self, pos: &B::Pos, node_limit: u64) -> Quiescence {
        let limits = Limits::nodes(node_limit.max(1));
        let in_check = pos.in_check();
        let mut s = self.begin(pos, &[], &limits, None, Instant::now());
        let stand = s.static_eval();
        let v = s.qsearch(-INFINITE, INFINITE, 0, 0, in_check);
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
        pos: &B::Pos,
        history: &[u64],
        limits: &Limits<B::Move>,
        stop: Option<&Arc<AtomicBool>>,
        on_iteration: impl FnMut(&Iteration<B::Move>),
    ) -> SearchResult<B::Move> {
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
        if self.helpers.is_empty() || pos.count_legal() <= 1 {
            let mut s = Search::new(&self.eval, &self.tt, &mut self.main, pos, history, limits, stop, start);
            return s.iterate(limits, start, on_iteration);
        }
        // 2. Lazy SMP: helpers until the main thread is done.
        let Engine { eval, tt, main, helpers, .. } = self;
        let (eval, tt): (&B::Eval, &TransTable) = (eval, tt);
        let halt = Arc::new(AtomicBool::new(false));
        let shared = AtomicU64::new(0);
        let helper_limits =
            Limits { nodes: limits.nodes, searchmoves: limits.searchmoves.clone(), ..Limits::default() };
        let mut result = std::thread::scope(|scope| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let (halt, shared, helper_limits) = (&halt, &shared, &helper_limits);
                scope.spawn(move || {
                    let mut s = Search::new(eval, tt, h, pos, history, helper_limits, Some(halt), start);
                    s.shared_nodes = Some(shared);
                    s.helper(limits.depth.unwrap_or(MAX_DEPTH), i as u32 + 1);
                    shared.fetch_add(s.nodes & 1023, Ordering::Relaxed);
                });
            }
            let mut s = Search::new(eval, tt, main, pos, history, limits, stop, start);
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
struct Search<'e, B: SearchBoard> {
    /// The position and its evaluation state.
    board: &'e mut B,
    eval: &'e B::Eval,
    tt: &'e TransTable,
    heur: &'e mut Heuristics<B::Move>,
    plies: &'e mut Vec<Ply<B::Move>>,
    /// Hashes of the game history, then of every position on the path above the current node.
    keys: Vec<u64>,
    nodes: u64,
    seldepth: u32,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    root_depth: i32,
    root_best: Option<B::Move>,
    /// The root move that beat alpha last in the current iteration (reset at each depth): the
    /// answer when the iteration is cut off.
    iter_best: Option<B::Move>,
    /// Under Lazy SMP: where every thread publishes its nodes, 1,024 at a time (for reports and
    /// the node limit, which every thread watches).
    shared_nodes: Option<&'e AtomicU64>,
    /// The root moves to search ([`Limits::searchmoves`]; empty: all).
    searchmoves: Vec<B::Move>,
}

#[cfg(test)]
mod tests;
