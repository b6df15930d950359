//! The 5x5x5 games (Five Up, its 2001 text, Raumschach) as a [`SearchBoard`]: the position with
//! the hand evaluation's incremental terms and, when the engine has a network, the NNUE
//! accumulators along the search path.
//!
//! Evaluation is the hand evaluation ([`super::eval::evaluate`]), computed incrementally: `make`
//! and `unmake` carry the per-piece terms along with the position. An engine given a network
//! evaluates with it instead, through the per-ply accumulators of [`crate::engine::nnue::Stack`],
//! plus the hand evaluation's king chase in won endgames (see [`FiveUpBoard::static_eval`]);
//! move generation then computes attack sets instead of reading the hand evaluation's
//! incremental ones (bringing that state along only for them cost more: 2.1% fewer instructions
//! per node without it, `docs/BENCHMARKS.md`).

use super::board::{SearchBoard, SearchMove};
use super::eval::{evaluate, mop_up_chase};
use super::incremental::EvalState;
use super::nnue::{Network, Stack as NnueStack};
use super::ordering::{
    captured, captures_into, is_bad_capture, noisy_score, quiet_score, victim_order, CheckInfo, Heuristics, ScoredMove,
};
use super::score::MATE_BOUND;
use super::weights::Weights;
use crate::game::Color;
use crate::rules::movegen::Computed;
use crate::rules::position::Undo;
use crate::rules::types::KIND_COUNT;
use crate::rules::{Kind, Move, Position};
use crate::tablebase::{Dtm, Tablebases};
use std::sync::Arc;

impl SearchMove for Move {
    const HISTORY_SLOTS: usize = 125 * 125;

    #[inline]
    fn bits(self) -> u32 {
        Move::bits(self)
    }

    #[inline]
    fn from_bits(bits: u32) -> Option<Move> {
        Move::from_bits(bits)
    }

    #[inline]
    fn history_slot(self) -> usize {
        self.from().index() * 125 + self.to().index()
    }
}

/// The 5x5x5 engine's evaluation settings: the hand evaluation's weights and, optionally, the
/// NNUE network that evaluates in its place.
#[derive(Clone, Debug)]
pub struct FiveUpEval {
    /// The hand evaluation's weights (also the values of move ordering and exchange tests).
    pub weights: Weights,
    /// The network evaluating in place of the hand evaluation, if any.
    pub net: Option<Arc<Network>>,
    /// Endgame tables the search probes, if any ([`crate::tablebase`]).
    pub tablebases: Option<Arc<Tablebases>>,
}

/// The 5x5x5 games' side of the search (see the module docs).
pub struct FiveUpBoard {
    pos: Position,
    /// The evaluation terms: `make` and `unmake` record the moves, an evaluation brings it to `pos`.
    inc: EvalState,
    /// The network's accumulators along the path (used only with a network).
    nnue: NnueStack,
    /// The values move ordering, delta pruning and exchange tests use ([`Weights::search_values`]).
    values: [i32; KIND_COUNT],
    /// Capturable kinds, most valuable first.
    victims: Vec<Kind>,
}

impl SearchBoard for FiveUpBoard {
    type Pos = Position;
    type Move = Move;
    type NullUndo = Undo;
    type Eval = FiveUpEval;
    type CheckInfo = CheckInfo;

    #[inline]
    fn probe(eval: &FiveUpEval, pos: &Position) -> Option<Dtm> {
        eval.tablebases.as_ref()?.probe(pos)
    }

    fn new() -> FiveUpBoard {
        FiveUpBoard {
            pos: Position::startpos(crate::rules::Variant::plain(crate::rules::Ruleset::FiveUp)),
            inc: EvalState::new(),
            nnue: NnueStack::default(),
            values: [0; KIND_COUNT],
            victims: Vec::new(),
        }
    }

    fn reset(&mut self, eval: &FiveUpEval, pos: &Position) {
        let w = &eval.weights;
        self.values = w.search_values();
        self.inc.reset(pos, w);
        if let Some(net) = &eval.net {
            self.nnue.reset(net, pos);
        }
        self.victims = victim_order(pos.ruleset(), &self.values);
        self.pos = pos.clone();
    }

    #[inline]
    fn pos(&self) -> &Position {
        &self.pos
    }

    #[inline]
    fn make(&mut self, eval: &FiveUpEval, m: Move) -> Undo {
        let occ = self.pos.occupied().0;
        let kings = [self.pos.king(Color::White).index(), self.pos.king(Color::Black).index()];
        let undo = self.pos.make(m);
        self.inc.push(occ, self.pos.occupied().0, kings, m.from().index(), m.to().index());
        if eval.net.is_some() {
            self.nnue.push(m);
        }
        undo
    }

    #[inline]
    fn unmake(&mut self, eval: &FiveUpEval, m: Move, undo: Undo) {
        self.pos.unmake(m, undo);
        self.inc.pop();
        if eval.net.is_some() {
            self.nnue.pop();
        }
    }

    #[inline]
    fn make_null(&mut self) -> Undo {
        self.pos.make_null()
    }

    #[inline]
    fn unmake_null(&mut self, undo: Undo) {
        self.pos.unmake_null(undo)
    }

    /// The network's evaluation when the engine has one, plus the hand evaluation's king chase in
    /// won endgames, else the hand evaluation (equal to [`evaluate`]).
    ///
    /// The chase (`eval.rs`, step 7 without its trade bonus: with few men, a clear material lead
    /// and no pawns left to the side ahead, drive the weaker king to the edge and bring the own
    /// king closer) is added to the network's score because a network trained on search scores
    /// values such endgames as won but flat: nothing in its score says which king move makes
    /// progress. Without it the engine with the shipped Five Up network drew 10 of 20 random
    /// K+Q v K endgames by the fifty-move rule (`docs/NNUE.md`, the conversion measurement).
    #[inline]
    fn static_eval(&mut self, eval: &FiveUpEval) -> i32 {
        let w = &eval.weights;
        if let Some(net) = &eval.net {
            let mut v = self.nnue.evaluate(net, &self.pos);
            if self.pos.occupied().0.count_ones() as i32 <= w.mopup_pieces {
                let m = mop_up_chase(&self.pos, w, self.inc.taper().value(&self.pos));
                v += if self.pos.side() == Color::White { m } else { -m };
            }
            // Material that cannot force mate scores as good as drawn.
            v = super::eval::drawn::scale_drawn_to_move(&self.pos, v);
            // Clamped below the mate range, so that no evaluation reads as a mate.
            return v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let v = self.inc.evaluate(&self.pos, w);
        debug_assert_eq!(v, evaluate(&self.pos, w), "incremental evaluation");
        v
    }

    fn null_move_ok(&self) -> bool {
        let us = self.pos.side();
        let pk = self.pos.pieces(us, Kind::Pawn).0 | self.pos.pieces(us, Kind::King).0;
        self.pos.color_bb(us).0 & !pk != 0
    }

    /// The hand evaluation's incremental attack sets serve the generator (out of check the
    /// evaluation brought the state to this position already); with a network they are computed.
    #[inline]
    fn legal_moves_split(&mut self, eval: &FiveUpEval, noisy: &mut Vec<Move>, quiet: &mut Vec<Move>) {
        if eval.net.is_some() {
            self.pos.legal_moves_split(noisy, quiet, &Computed);
        } else {
            self.inc.sync(&self.pos, &eval.weights);
            self.pos.legal_moves_split(noisy, quiet, &self.inc);
        }
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        super::ordering::is_quiet(&self.pos, m)
    }

    #[inline]
    fn noisy_score(&self, _: &FiveUpEval, m: Move) -> i32 {
        noisy_score(&self.pos, &self.values, m)
    }

    #[inline]
    fn quiet_score(&self, heur: &Heuristics, side: usize, m: Move) -> i32 {
        quiet_score(heur, side, m)
    }

    /// The hand evaluation brought the incremental state here, with the attack sets the captures
    /// need; with a network the attack sets are computed (cheaper than bringing the hand
    /// evaluation's state along for them).
    #[inline]
    fn captures(&mut self, eval: &FiveUpEval, min_gain: i32, out: &mut Vec<ScoredMove>) {
        if eval.net.is_some() {
            captures_into(&self.pos, &self.values, &self.victims, min_gain, &Computed, out);
        } else {
            captures_into(&self.pos, &self.values, &self.victims, min_gain, &self.inc, out);
        }
    }

    #[inline]
    fn skip_capture(&self, _: &FiveUpEval, m: Move) -> bool {
        if m.promotion().is_some() {
            return false;
        }
        let Some(victim) = captured(&self.pos, m) else { return false };
        let attacker = self.pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind);
        is_bad_capture(&self.pos, &self.values, m, victim, attacker)
    }

    fn check_info(&self) -> CheckInfo {
        CheckInfo::new(&self.pos)
    }

    #[inline]
    fn may_give_check(&self, info: &CheckInfo, m: Move) -> bool {
        info.may_give_check(&self.pos, m)
    }
}
