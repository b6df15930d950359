//! The iterative-deepening driver: building a thread's search state, aspiration windows, the main
//! thread's depths with their reports and stopping rules, and the Lazy SMP helpers' depths.

use super::{Iteration, Limits, Search, SearchResult, Worker, MAX_DEPTH};
use crate::engine::board::SearchBoard;
use crate::engine::score::{mated_in, Score, DRAW, INFINITE, MATE, MATE_BOUND};
use crate::engine::tt::TransTable;
use crate::game::State;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

impl<'e, B: SearchBoard> Search<'e, B> {
    /// A search of `pos` by one thread: `worker`'s memory, the shared table and the limits.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        eval: &'e B::Eval,
        tt: &'e TransTable,
        worker: &'e mut Worker<B>,
        pos: &B::Pos,
        history: &[u64],
        limits: &Limits<B::Move>,
        stop: Option<&Arc<AtomicBool>>,
        start: Instant,
    ) -> Search<'e, B> {
        let Worker { heur, plies, board } = worker;
        board.reset(eval, pos);
        Search {
            board,
            eval,
            tt,
            heur,
            plies,
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
            shared_nodes: None,
            searchmoves: limits.searchmoves.clone(),
        }
    }

    /// Nodes of this search; under Lazy SMP every thread's (the published count and this
    /// thread's unpublished remainder).
    #[inline]
    pub(super) fn total_nodes(&self) -> u64 {
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
    pub(super) fn helper(&mut self, max_depth: u32, index: u32) {
        let root_in_check = self.board.pos().in_check();
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

    /// The main thread's iterative deepening under `limits` (the search of [`super::Engine::search`]).
    pub(super) fn iterate(
        &mut self,
        limits: &Limits<B::Move>,
        start: Instant,
        mut on_iteration: impl FnMut(&Iteration<B::Move>),
    ) -> SearchResult<B::Move> {
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
        let pos = self.board.pos().clone();
        let mut legal = crate::game::legal_moves(&pos);
        if legal.iter().any(|m| self.searchmoves.contains(m)) {
            legal.retain(|m| self.searchmoves.contains(m));
        } else {
            self.searchmoves.clear();
        }
        if legal.is_empty() {
            result.score = Score(if pos.in_check() { mated_in(0) } else { DRAW });
            return result;
        }
        // 1a. Endgame tables holding the root: only the moves that keep its value, the fastest
        //     mate when winning, the longest defence when losing (the search then orders them).
        if let Some(best) = tablebase_moves::<B>(self.eval, &pos, &legal) {
            legal = best;
            self.searchmoves.clone_from(&legal);
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

/// The root moves the endgame tables prefer, when they hold the root and every move's result
/// (`None` otherwise): the fastest mates of a won position, the drawing moves of a drawn one,
/// the longest defences of a lost one.
fn tablebase_moves<B: SearchBoard>(eval: &B::Eval, pos: &B::Pos, legal: &[B::Move]) -> Option<Vec<B::Move>> {
    B::probe(eval, pos)?;
    let mut after = pos.clone();
    let mut values = Vec::with_capacity(legal.len());
    for &m in legal {
        let undo = after.make(m);
        let v = B::probe(eval, &after);
        after.unmake(m, undo);
        values.push(v?.parent());
    }
    let best = values.iter().copied().reduce(|a, b| if b.better_than(a) { b } else { a })?;
    Some(legal.iter().zip(&values).filter(|(_, &v)| v == best).map(|(&m, _)| m).collect())
}
