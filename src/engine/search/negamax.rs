//! The tree search: principal-variation `negamax` with its prunings and reductions, quiescence, and
//! the per-node bookkeeping (make/unmake with the evaluation terms, draws, limits, PV).

use super::Search;
use crate::engine::board::SearchBoard;
use crate::engine::ordering::{pick, score_moves, MAX_PLY};
use crate::engine::score::{mate_in, mated_in, DRAW, INFINITE, MATE_BOUND};
use crate::engine::tt::Bound;
use crate::game::State;
use crate::tablebase::Dtm;
use std::sync::atomic::Ordering;
use std::sync::OnceLock;
use std::time::Instant;

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

impl<B: SearchBoard> Search<'_, B> {
    /// Plays `m`, bringing the evaluation state along.
    #[inline]
    fn make(&mut self, m: B::Move) -> <B::Pos as State>::Undo {
        self.board.make(self.eval, m)
    }

    /// Takes back `m`, the last move played by [`Search::make`].
    #[inline]
    fn unmake(&mut self, m: B::Move, undo: <B::Pos as State>::Undo) {
        self.board.unmake(self.eval, m, undo)
    }

    /// The static evaluation of the current position, from the side to move.
    #[inline]
    pub(super) fn static_eval(&mut self) -> i32 {
        self.board.static_eval(self.eval)
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
        let pos = self.board.pos();
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

    /// The endgame tables' exact score of the current position (never asked at the root), when
    /// they hold it; a win or loss only when its mate fits in what is left of the fifty-move
    /// count (the tables' distances ignore that rule).
    #[inline]
    fn tablebase_score(&self, ply: usize) -> Option<i32> {
        let pos = self.board.pos();
        let value = B::probe(self.eval, pos)?;
        let left = 100usize.saturating_sub(pos.halfmove() as usize);
        match value {
            Dtm::Draw => Some(DRAW),
            Dtm::Win(n) if n as usize <= left => Some(mate_in(ply + n as usize)),
            Dtm::Loss(n) if n as usize <= left => Some(mated_in(ply + n as usize)),
            _ => None,
        }
    }

    /// Copies `m` followed by the child's PV into the PV of `ply`.
    fn update_pv(&mut self, ply: usize, m: B::Move) {
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
            return self.qsearch(alpha, beta, ply, 0, in_check);
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
            if let Some(s) = self.tablebase_score(ply) {
                return s;
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // 4. Transposition table: a cutoff at non-PV nodes, a first move everywhere.
        let key = self.board.pos().hash();
        let hit = self.tt.probe::<B::Move>(key, ply);
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
            && self.board.null_move_ok()
        {
            let r = 3 + depth / 4;
            let undo = self.board.make_null();
            self.keys.push(key);
            let v = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
            self.keys.pop();
            self.board.unmake_null(undo);
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
        let n = picker.generate(&mut *self.board, self.eval, tt_move, self.heur.killers(ply));
        if n == 0 {
            self.plies[ply].picker = picker;
            self.plies[ply].quiets = quiets;
            return if in_check { mated_in(ply) } else { DRAW };
        }

        // 9. The move loop.
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut count = 0usize;
        let side = self.board.pos().side().index();
        let mut check_info: Option<B::CheckInfo> = None;
        let mut pruning_quiets = false;
        while let Some(m) = picker.next(&*self.board, self.eval, self.heur) {
            if root && !self.searchmoves.is_empty() && !self.searchmoves.contains(&m) {
                continue;
            }
            let quiet = self.board.is_quiet(m);

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
                let info = check_info.get_or_insert_with(|| self.board.check_info());
                if !pruning_quiets {
                    pruning_quiets = true;
                    picker.retain_quiet(|q| self.board.may_give_check(info, q));
                }
                if !self.board.may_give_check(info, m) {
                    continue;
                }
            }

            // 9b. Make the move; extend checks. A child above the horizon probes the table first:
            //     start loading its entry now, while the check test runs.
            let undo = self.make(m);
            if depth > 1 {
                self.tt.prefetch(self.board.pos().hash());
            }
            let gives_check = self.board.pos().in_check();
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
    /// `qply` counts the plies since quiescence began: from the game's
    /// [`SearchBoard::QUIESCENCE_PLIES`] on, a position not in check stands pat.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: usize, in_check: bool) -> i32 {
        // 1. Node accounting and limits.
        if self.tick(ply) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        self.plies[ply].pv.clear();
        if let Some(s) = self.tablebase_score(ply) {
            return s;
        }

        // 2. Stand pat and the captures worth trying (not in check), or every evasion (in check).
        let mut scored = std::mem::take(&mut self.plies[ply].scored);
        let mut best;
        if in_check {
            let mut moves = std::mem::take(&mut self.plies[ply].moves);
            moves.clear();
            self.board.pos().legal_moves_into(&mut moves);
            score_moves(&*self.board, self.eval, &moves, &mut scored, None, self.heur, ply);
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
            if qply >= B::QUIESCENCE_PLIES {
                self.plies[ply].scored = scored;
                return stand;
            }
            // Delta pruning: a victim worth less than this cannot lift the score to alpha.
            let min_gain = alpha.saturating_sub(stand).saturating_sub(DELTA_MARGIN - 1);
            self.board.captures(self.eval, min_gain, &mut scored);
        }

        // 3. Try the moves, skipping captures that look losing.
        for i in 0..scored.len() {
            let m = pick(&mut scored, i).mv;
            if !in_check && self.board.skip_capture(self.eval, m) {
                continue;
            }
            let undo = self.make(m);
            let check = self.board.pos().in_check();
            let v = -self.qsearch(-beta, -alpha, ply + 1, qply + 1, check);
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
