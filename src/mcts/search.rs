//! One search tree driven in batches: gather leaves, let the caller evaluate them, apply results.
//!
//! The caller (a single-position helper, or the self-play driver stepping hundreds of trees) runs:
//! ```text
//! search.start(&pos, &history, sims);
//! while !search.is_done() {
//!     search.gather();                 // 0..=max_batch leaves wait for evaluation
//!     search.inputs(&mut batch);       // borrowed EvalInputs (one evaluator call for all trees)
//!     evaluator.evaluate(&batch, &mut out);
//!     search.apply(&out);              // expand + back up
//! }
//! let result = search.result();
//! ```
//! Batching within a tree: PUCT descends with virtual loss; Gumbel uses the deterministic
//! sequential-halving schedule at the root (simulations in one halving phase are independent, so
//! a whole phase can be in flight at once; gathering stops at a phase boundary so each halving
//! decision sees completed values) and counts in-flight simulations as visits below the root.
//! A descent that reaches a leaf already waiting for its evaluation (a collision) ends the
//! gathering for this step.
//!
//! Noise and the recorded value: [`Search::set_noise`] switches the root noise of both kinds
//! (PUCT's Dirichlet, Gumbel's root sample) per search, so the driver's cheap searches are
//! noise-free. The Gumbel root sample only picks which moves get visits and which is played; the
//! recorded value ([`MctsResult::root_wdl`], see [`gumbel_root_wdl`]) and the policy target
//! (π') are computed from prior logits and completed Q without it.

use super::backup::{add_in_flight, backup};
use super::expand::{add_dirichlet_noise, expand, gumbel_noise, mark_terminal, terminal_wdl};
use super::select::{
    argmax, considered_visits, gumbel_child, improved_policy, puct_child, sigma, GumbelParams, PuctParams,
};
use super::tree::{Node, NodeId, Tree, TreeMove, ROOT};
use crate::game::{outcome, prior_occurrences, State};
use crate::nn::{EvalInput, Evaluation};
use crate::rules::{Move, Position};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Most simulations a Gumbel halving schedule is planned for (4 MiB of schedule); a larger or
/// unbounded (time-limited) budget follows the plan that far, then visits the leading actions.
pub const GUMBEL_SCHEDULE_CAP: u32 = 1 << 20;

/// Nodes after which a search stops launching simulations: node ids are 32 bits, and one step may
/// still expand `max_batch` (at most 255) leaves of up to 65535 children each.
pub const MAX_TREE_NODES: usize = u32::MAX as usize - 255 * 65_536;

/// Which search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SearchKind {
    /// AlphaZero PUCT with first-play urgency reduction and root Dirichlet noise.
    Puct,
    /// Gumbel root search with sequential halving; deterministic Gumbel selection below the root.
    Gumbel,
}

/// Search settings. Simulations are given per search (see [`Search::start`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// The algorithm.
    pub kind: SearchKind,
    /// Most leaves one tree sends to the evaluator per step (1..=255).
    pub max_batch: u32,
    /// PUCT exploration constant.
    pub c_puct: f32,
    /// PUCT first-play-urgency reduction.
    pub fpu_reduction: f32,
    /// Dirichlet concentration of the PUCT root noise.
    pub dirichlet_alpha: f32,
    /// Weight of the PUCT root noise (0 turns it off).
    pub dirichlet_epsilon: f32,
    /// Gumbel: number of root actions sampled for sequential halving (m).
    pub gumbel_m: u32,
    /// Gumbel: sample the root Gumbel noise (off = deterministic, for evaluation play). A search
    /// whose noise is switched off with [`Search::set_noise`] draws none either way.
    pub gumbel_noise: bool,
    /// Gumbel σ parameters.
    pub gumbel: GumbelParams,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            kind: SearchKind::Gumbel,
            max_batch: 16,
            c_puct: 1.5,
            fpu_reduction: 0.3,
            dirichlet_alpha: 0.1,
            dirichlet_epsilon: 0.25,
            gumbel_m: 16,
            gumbel_noise: true,
            gumbel: GumbelParams::default(),
        }
    }
}

/// A game MCTS can search: a [`State`] whose moves a tree node can hold. Every game is one (the
/// blanket implementation below); the search is monomorphised per game.
pub trait SearchGame: State<Move: TreeMove> {}

impl<S: State<Move: TreeMove>> SearchGame for S {}

/// What a finished search says.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M = Move> {
    /// The move to play (Gumbel: the sequential-halving winner; PUCT: most visits).
    pub best: M,
    /// The legal moves at the root, in generation order.
    pub moves: Vec<M>,
    /// Completed visits per move.
    pub visits: Vec<u32>,
    /// Training target over `moves`, summing to 1: Gumbel's improved policy π', or PUCT's
    /// normalised visit counts.
    pub policy: Vec<f32>,
    /// Root value for the side to move: PUCT's mean backed-up WDL at the root; Gumbel's
    /// noise-free [`gumbel_root_wdl`] (the π'-weighted mix of the visited children's WDL).
    pub root_wdl: [f32; 3],
    /// The evaluator's WDL of the root, for the side to move.
    pub nn_wdl: [f32; 3],
    /// Simulations run (not counting the root's own evaluation).
    pub simulations: u32,
}

/// The root's mean backed-up WDL for the side to move (the root's statistics are kept from the
/// other side's point of view).
fn root_mean_wdl<M>(root: &Node<M>) -> [f32; 3] {
    let [w, d, l] = root.wdl();
    [l, d, w]
}

/// Gumbel's recorded root value for the side to move: `Σ π'(a)·WDL(a) / Σ π'(a)` over the visited
/// root children `a`, where π' is the improved policy (prior logits plus σ of completed Q, no
/// Gumbel sample) and `WDL(a)` the child's mean backed-up WDL; the root mean when no child has a
/// visit (or π' gives the visited ones no mass). With the same visit counts and values, the root
/// noise cannot change it.
pub fn gumbel_root_wdl<M>(root: &Node<M>, kids: &[Node<M>], improved: &[f32]) -> [f32; 3] {
    let mut acc = [0.0f64; 3];
    let mut mass = 0.0f64;
    for (c, &p) in kids.iter().zip(improved).filter(|(c, _)| c.visits > 0) {
        let wdl = c.wdl();
        for i in 0..3 {
            acc[i] += p as f64 * wdl[i] as f64;
        }
        mass += p as f64;
    }
    if mass > 0.0 && mass.is_finite() {
        acc.map(|x| (x / mass) as f32)
    } else {
        root_mean_wdl(root)
    }
}

/// A leaf waiting for its evaluation.
#[derive(Clone, Debug)]
pub struct Leaf<S: State = Position> {
    node: NodeId,
    path: Vec<NodeId>,
    /// The leaf position.
    pub pos: S,
    /// Its legal moves.
    pub moves: Vec<S::Move>,
    /// Earlier occurrences of the position in the game plus the search path.
    pub repetitions: u8,
}

enum Descent {
    Launched,
    Terminal,
    Collision,
}

/// One search tree with its root position, reusable from move to move. `S` is the game (the
/// 5x5x5 [`Position`] by default): `Search::new` makes a 5x5x5 search,
/// `Search::<S>::for_game` one of game `S`.
pub struct Search<S: SearchGame = Position> {
    cfg: SearchConfig,
    tree: Tree<S::Move>,
    root: Option<S>,
    /// Game history hashes (before the root) followed by the current descent's path hashes.
    hist: Vec<u64>,
    hist_base: usize,
    rng: ChaCha8Rng,
    budget: u32,
    started: u32,
    pending: Vec<Leaf<S>>,
    pending_phase: u16,
    root_nn_wdl: [f32; 3],
    logits: Vec<f32>,
    gumbels: Vec<f32>,
    schedule: Vec<u32>,
    phases: Vec<u16>,
    path: Vec<NodeId>,
    scratch: Vec<f32>,
    evals: u64,
    noise: bool,
}

impl Search {
    /// A 5x5x5 search with its own random stream (Dirichlet and Gumbel noise) seeded by `seed`.
    pub fn new(cfg: SearchConfig, seed: u64) -> Search {
        Search::for_game(cfg, seed)
    }
}

impl<S: SearchGame> Search<S> {
    /// A search of game `S` with its own random stream (Dirichlet and Gumbel noise) seeded by
    /// `seed`.
    pub fn for_game(cfg: SearchConfig, seed: u64) -> Search<S> {
        let mut cfg = cfg;
        cfg.max_batch = cfg.max_batch.clamp(1, 255);
        cfg.gumbel_m = cfg.gumbel_m.max(1);
        Search {
            cfg,
            tree: Tree::default(),
            root: None,
            hist: Vec::new(),
            hist_base: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget: 0,
            started: 0,
            pending: Vec::new(),
            pending_phase: 0,
            root_nn_wdl: [0.0, 1.0, 0.0],
            logits: Vec::new(),
            gumbels: Vec::new(),
            schedule: Vec::new(),
            phases: Vec::new(),
            path: Vec::new(),
            scratch: Vec::new(),
            evals: 0,
            noise: true,
        }
    }

    /// The settings.
    pub fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    /// Whether the tree has no room for another expansion (a node id is 32 bits).
    fn tree_full(&self) -> bool {
        self.tree.len() >= MAX_TREE_NODES
    }

    /// Starts a new search of `pos` with `simulations` simulations; `history` holds the hashes of
    /// the game's earlier positions, oldest first, without `pos` itself.
    pub fn start(&mut self, pos: &S, history: &[u64], simulations: u32) {
        self.tree.reset();
        self.root = Some(pos.clone());
        self.hist.clear();
        self.hist.extend_from_slice(history);
        self.hist_base = history.len();
        self.budget = simulations;
        self.started = 0;
        self.pending.clear();
        self.logits.clear();
        self.gumbels.clear();
    }

    /// Turns the root noise of either kind on or off for the following searches: PUCT's Dirichlet
    /// noise and Gumbel's root Gumbel sample. Self-play turns it off for cheap, unrecorded
    /// searches (as KataGo does), so those play the search's best guess; with it on, the config
    /// decides (`dirichlet_epsilon > 0`, `gumbel_noise`). On by default.
    pub fn set_noise(&mut self, on: bool) {
        self.noise = on;
    }

    /// The tree (for inspection and tests).
    pub fn tree(&self) -> &Tree<S::Move> {
        &self.tree
    }

    /// Leaves evaluated since this search object was created.
    pub fn evals(&self) -> u64 {
        self.evals
    }

    /// Leaves waiting for evaluation.
    pub fn pending(&self) -> &[Leaf<S>] {
        &self.pending
    }

    /// Whether the search has finished (nothing in flight and nothing left to run).
    pub fn is_done(&self) -> bool {
        self.pending.is_empty() && self.root.is_some() && self.nothing_to_launch()
    }

    fn nothing_to_launch(&self) -> bool {
        let r = self.tree.get(ROOT);
        r.is_expanded() && (r.is_terminal() || r.num_children <= 1 || self.started >= self.budget || self.tree_full())
    }

    /// Runs descents until up to `max_batch` leaves wait for evaluation (or nothing is left to
    /// launch, or a collision or Gumbel phase boundary ends the step). Returns the number waiting.
    pub fn gather(&mut self) -> usize {
        if self.root.is_none() {
            return 0;
        }
        // 1. The root itself is the first leaf, alone in its step.
        if !self.tree.get(ROOT).is_expanded() {
            if self.pending.is_empty() {
                self.descend();
            }
            return self.pending.len();
        }
        // 2. Descend until the batch is full.
        while self.pending.len() < self.cfg.max_batch as usize && !self.nothing_to_launch() {
            // 3. Gumbel: a halving decision must see the completed values of the earlier phase.
            if self.cfg.kind == SearchKind::Gumbel {
                let ph = self.phases.get(self.started as usize).copied().unwrap_or(u16::MAX);
                if !self.pending.is_empty() && ph != self.pending_phase {
                    break;
                }
                if self.pending.is_empty() {
                    self.pending_phase = ph;
                }
            }
            match self.descend() {
                Descent::Launched | Descent::Terminal => self.started += 1,
                Descent::Collision => break,
            }
        }
        self.pending.len()
    }

    /// Appends the waiting leaves as evaluator inputs.
    pub fn inputs<'a>(&'a self, out: &mut Vec<EvalInput<'a, S>>) {
        out.extend(self.pending.iter().map(|l| EvalInput::new(&l.pos, l.repetitions as u32, &l.moves)));
    }

    /// Applies the evaluations of the waiting leaves (same order as [`Search::inputs`]).
    pub fn apply(&mut self, evals: &[Evaluation]) {
        assert_eq!(evals.len(), self.pending.len(), "one evaluation per pending leaf");
        let pending = std::mem::take(&mut self.pending);
        for (leaf, ev) in pending.iter().zip(evals) {
            let wdl = expand(&mut self.tree, leaf.node, &leaf.moves, ev, &mut self.scratch);
            if leaf.node == ROOT {
                self.init_root(wdl);
            }
            backup(&mut self.tree, &leaf.path, wdl, true);
        }
        self.evals += pending.len() as u64;
        self.pending = pending;
        self.pending.clear();
    }

    /// Root set-up once its evaluation is known: noise, logits, the halving schedule.
    fn init_root(&mut self, wdl: [f32; 3]) {
        self.root_nn_wdl = wdl;
        let n = self.tree.get(ROOT).num_children as usize;
        match self.cfg.kind {
            SearchKind::Puct => {
                let eps = if self.noise { self.cfg.dirichlet_epsilon } else { 0.0 };
                add_dirichlet_noise(&mut self.tree, ROOT, self.cfg.dirichlet_alpha, eps, &mut self.rng)
            }
            SearchKind::Gumbel => {
                self.logits = self.tree.child_nodes(ROOT).iter().map(|c| c.prior.max(1e-30).ln()).collect();
                let noisy = self.noise && self.cfg.gumbel_noise;
                self.gumbels = if noisy { gumbel_noise(n, &mut self.rng) } else { vec![0.0; n] };
                let m = self.cfg.gumbel_m.min(n as u32);
                // A time-limited search has an unbounded budget (u32::MAX): plan the halving
                // schedule for at most GUMBEL_SCHEDULE_CAP simulations; past the plan the most
                // visited actions keep being visited (see `select_root`).
                (self.schedule, self.phases) = considered_visits(m, self.budget.min(GUMBEL_SCHEDULE_CAP));
            }
        }
    }

    /// One descent from the root: select down to an unexpanded or terminal node.
    fn descend(&mut self) -> Descent {
        let mut pos = self.root.clone().expect("started");
        self.hist.truncate(self.hist_base);
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(ROOT);
        let mut node = ROOT;
        let outcome = loop {
            let n = *self.tree.get(node);
            // 1. Terminal: back its exact value up at once.
            if n.is_terminal() {
                let wdl = terminal_wdl(&self.tree, node);
                backup(&mut self.tree, &path, wdl, false);
                break Descent::Terminal;
            }
            // 2. A new leaf: score it by the rules or queue it for evaluation.
            if !n.is_expanded() {
                if n.in_flight > 0 {
                    break Descent::Collision;
                }
                let mut moves = Vec::new();
                pos.legal_moves_into(&mut moves);
                let reps = prior_occurrences(&self.hist, pos.hash(), pos.halfmove());
                if let Some(o) = outcome(&pos, !moves.is_empty(), reps as usize + 1) {
                    let wdl = o.wdl_for(pos.side());
                    mark_terminal(&mut self.tree, node, wdl);
                    backup(&mut self.tree, &path, wdl, false);
                    if node == ROOT {
                        self.root_nn_wdl = wdl;
                    }
                    break Descent::Terminal;
                }
                add_in_flight(&mut self.tree, &path);
                self.pending.push(Leaf { node, path: path.clone(), pos, moves, repetitions: reps });
                break Descent::Launched;
            }
            // 3. Select a child and step into it.
            let child = if node == ROOT { self.select_root() } else { self.select_inner(node) };
            let id = self.tree.get(node).first_child + child as u32;
            self.hist.push(pos.hash());
            pos.make(self.tree.get(id).mv);
            path.push(id);
            node = id;
        };
        self.path = path;
        outcome
    }

    fn select_root(&mut self) -> usize {
        let v_hat = -self.tree.get(ROOT).nn_q;
        match self.cfg.kind {
            SearchKind::Puct => puct_child(self.tree.child_nodes(ROOT), v_hat, self.puct()),
            SearchKind::Gumbel => {
                let kids = self.tree.child_nodes(ROOT);
                let s: u32 = kids.iter().map(|c| c.n_with_flight()).sum();
                let want = self.schedule.get(s as usize).copied();
                let want = want.unwrap_or_else(|| kids.iter().map(|c| c.n_with_flight()).max().unwrap_or(0));
                let scores = self.root_scores(Some(want), true);
                if scores.iter().all(|s| *s == f32::NEG_INFINITY) {
                    // No action has the scheduled count (cannot happen without collisions): any.
                    return argmax(self.root_scores(None, true).into_iter());
                }
                argmax(scores.into_iter())
            }
        }
    }

    /// `g + logit + σ(completed q)` for root children with `want` visits (others −∞).
    fn root_scores(&mut self, want: Option<u32>, with_flight: bool) -> Vec<f32> {
        let v_hat = -self.tree.get(ROOT).nn_q;
        let kids = self.tree.child_nodes(ROOT);
        super::select::completed_q(v_hat, kids, &mut self.scratch);
        let max_n = kids.iter().map(|c| c.visits).max().unwrap_or(0);
        kids.iter()
            .enumerate()
            .map(|(i, c)| {
                let n = if with_flight { c.n_with_flight() } else { c.visits };
                if want.is_some_and(|w| w != n) {
                    f32::NEG_INFINITY
                } else {
                    self.gumbels[i] + self.logits[i] + sigma(self.scratch[i], max_n, self.cfg.gumbel)
                }
            })
            .collect()
    }

    fn select_inner(&mut self, node: NodeId) -> usize {
        let v_hat = -self.tree.get(node).nn_q;
        let kids = self.tree.child_nodes(node);
        match self.cfg.kind {
            SearchKind::Puct => {
                let n = self.tree.get(node);
                let parent_q = if n.visits > 0 { -n.sum_q / n.visits as f32 } else { v_hat };
                puct_child(kids, parent_q, self.puct())
            }
            SearchKind::Gumbel => gumbel_child(v_hat, kids, self.cfg.gumbel, &mut self.scratch),
        }
    }

    fn puct(&self) -> PuctParams {
        PuctParams { c_puct: self.cfg.c_puct, fpu_reduction: self.cfg.fpu_reduction }
    }

    /// The result; `None` when the root is terminal (or the search was never started).
    pub fn result(&mut self) -> Option<MctsResult<S::Move>> {
        let root = *self.tree.nodes.first()?;
        if root.is_terminal() || !root.is_expanded() || root.num_children == 0 {
            return None;
        }
        let kids = self.tree.child_nodes(ROOT).to_vec();
        let moves: Vec<S::Move> = kids.iter().map(|c| c.mv).collect();
        let visits: Vec<u32> = kids.iter().map(|c| c.visits).collect();
        let total: u32 = visits.iter().sum();
        let (best, policy) = match self.cfg.kind {
            SearchKind::Gumbel => {
                let max_n = visits.iter().copied().max().unwrap_or(0);
                let best = argmax(self.root_scores(Some(max_n), false).into_iter());
                let mut pi = Vec::new();
                improved_policy(-root.nn_q, &kids, self.cfg.gumbel, &mut pi);
                (best, pi)
            }
            SearchKind::Puct => {
                let best = argmax(kids.iter().map(|c| c.visits as f32 + c.prior * 1e-3));
                let pi = if total > 0 {
                    visits.iter().map(|&v| v as f32 / total as f32).collect()
                } else {
                    kids.iter().map(|c| c.prior).collect()
                };
                (best, pi)
            }
        };
        // Gumbel spreads visits over deliberately tried candidates, so its root mean understates the
        // best line, and the winner of sequential halving carries the root's Gumbel sample: report
        // the π'-weighted value instead. PUCT concentrates visits: report the root mean.
        let root_wdl = match self.cfg.kind {
            SearchKind::Gumbel => gumbel_root_wdl(&root, &kids, &policy),
            SearchKind::Puct => root_mean_wdl(&root),
        };
        Some(MctsResult {
            best: moves[best],
            moves,
            visits,
            policy,
            root_wdl,
            nn_wdl: self.root_nn_wdl,
            simulations: root.visits.saturating_sub(1),
        })
    }
}
