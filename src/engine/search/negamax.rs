//! The tree search: principal-variation `negamax` with its prunings and reductions, quiescence, and
//! the per-node bookkeeping (make/unmake with the evaluation terms, draws, limits, PV).

use super::Search;
use crate::engine::eval::{evaluate, mop_up_chase};
use crate::engine::ordering::{
    captured, captures_into, is_bad_capture, is_quiet, pick, score_moves, CheckInfo, MAX_PLY,
};
use crate::engine::score::{mate_in, mated_in, DRAW, INFINITE, MATE_BOUND};
use crate::engine::tt::Bound;
use crate::game::Color;
use crate::rules::movegen::Computed;
use crate::rules::position::Undo;
use crate::rules::{Kind, Move};
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
    pub(super) fn static_eval(&mut self) -> i32 {
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
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
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
