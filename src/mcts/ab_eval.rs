//! [`AbEvaluator`]: an [`Evaluator`] built on the alpha-beta engine's hand evaluation, so MCTS can
//! play with no network (`mcts:ab`).
//!
//! For every position of a batch:
//! 1. **Prior**: a softmax over a cheap per-move score, `score / PRIOR_TEMPERATURE_CP`:
//!    - a capture scores the victim's value minus 1/10 of the attacker's (MVV-LVA in centipawns);
//!      a capture that looks losing ([`is_bad_capture`]: a more valuable attacker onto a defended
//!      cell) scores only [`BAD_CAPTURE_CP`];
//!    - a promotion adds the promoted piece's value minus a pawn's;
//!    - every other move scores 0.
//!
//!    With the default temperature of 200 cp an undefended queen capture (~1000 cp) carries
//!    `e^5 ≈ 150` times the prior of a quiet move, i.e. about 40% of the mass against ~200 quiet
//!    moves; a pawn capture about 1.6 times a quiet move. Search still sees every move.
//! 2. **WDL**: the static evaluation `v = engine::evaluate(pos, weights)` (centipawns, side to move)
//!    mapped to an expected score `E = 1 / (1 + 10^(−v / VALUE_SCALE_CP))`. With the scale 400 a
//!    pawn (100 cp) is worth `E ≈ 0.64`, a knight-sized edge (~300 cp) `E ≈ 0.85`: centipawns read as
//!    Elo, the usual engine convention. The draw probability `d = DRAW_MAX · 4E(1 − E)` (largest,
//!    `DRAW_MAX = 0.4`, for a balanced position, vanishing for a decided one) is taken equally from
//!    win and loss, so `win − loss = 2E − 1` exactly; `DRAW_MAX ≤ 0.5` keeps both non-negative.
//! 3. **Moves left**: 0 (unknown).
//!
//! The constants are hand-set, not fitted; they give MCTS a sensible material sense, not an
//! engine-strength evaluation (no quiescence: a hanging piece is seen one ply later by search).

use crate::engine::ordering::{captured, is_bad_capture};
use crate::engine::{evaluate, Weights};
use crate::nn::evaluator::reset_outputs;
use crate::nn::{EvalInput, Evaluation, Evaluator};
use crate::rules::{Kind, Position, Ruleset};

/// Softmax temperature of the prior, in centipawns of move score.
pub const PRIOR_TEMPERATURE_CP: f32 = 200.0;
/// Move score of a capture that looks losing.
pub const BAD_CAPTURE_CP: f32 = 20.0;
/// Centipawns per factor of 10 in the odds of the expected score (400: centipawns read as Elo).
pub const VALUE_SCALE_CP: f32 = 400.0;
/// Draw probability of a balanced position (at most 0.5, so win and loss stay non-negative).
pub const DRAW_MAX: f32 = 0.4;

/// Expected score and WDL for the side to move from a centipawn evaluation (step 2 of the module
/// documentation).
pub fn wdl_from_centipawns(cp: i32) -> [f32; 3] {
    let e = 1.0 / (1.0 + 10f32.powf(-(cp as f32) / VALUE_SCALE_CP));
    let d = DRAW_MAX * 4.0 * e * (1.0 - e);
    let w = (e - d / 2.0).max(0.0);
    let l = (1.0 - e - d / 2.0).max(0.0);
    let s = w + d + l;
    [w / s, d / s, l / s]
}

/// The hand evaluation as a batch evaluator (see the module documentation).
#[derive(Clone, Debug)]
pub struct AbEvaluator {
    weights: [Weights; 3],
    scores: Vec<f32>,
}

impl Default for AbEvaluator {
    fn default() -> Self {
        AbEvaluator::new()
    }
}

impl AbEvaluator {
    /// With every ruleset's default weights.
    pub fn new() -> AbEvaluator {
        AbEvaluator { weights: Ruleset::ALL.map(Weights::for_ruleset), scores: Vec::new() }
    }

    /// Replaces the weights used for `ruleset`.
    pub fn with_weights(mut self, ruleset: Ruleset, weights: Weights) -> AbEvaluator {
        self.weights[ruleset.index()] = weights;
        self
    }

    fn weights(&self, rs: Ruleset) -> &Weights {
        &self.weights[rs.index()]
    }

    /// The cheap move score of step 1, in centipawns.
    fn move_score(pos: &Position, w: &Weights, m: crate::rules::Move) -> f32 {
        let mut s = 0.0;
        if let Some(victim) = captured(pos, m) {
            let attacker = pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind);
            s += if is_bad_capture(pos, &w.values, m, victim, attacker) {
                BAD_CAPTURE_CP
            } else {
                (w.value(victim) - w.value(attacker) / 10) as f32
            };
        }
        if let Some(k) = m.promotion() {
            s += (w.value(k) - w.value(Kind::Pawn)) as f32;
        }
        s.max(0.0)
    }
}

impl Evaluator for AbEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        reset_outputs(out, batch.len());
        let mut scores = std::mem::take(&mut self.scores);
        for (input, e) in batch.iter().zip(out.iter_mut()) {
            let pos = input.position;
            let w = self.weights(pos.ruleset());
            // 1. Prior: softmax of move scores over the temperature.
            scores.clear();
            scores.extend(input.moves.iter().map(|&m| Self::move_score(pos, w, m) / PRIOR_TEMPERATURE_CP));
            let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            e.policy.clear();
            e.policy.extend(scores.iter().map(|s| (s - max).exp()));
            let sum: f32 = e.policy.iter().sum();
            if sum > 0.0 {
                e.policy.iter_mut().for_each(|p| *p /= sum);
            }
            // 2. WDL from the static evaluation.
            e.wdl = wdl_from_centipawns(evaluate(pos, w));
            // 3. Moves left unknown.
            e.moves_left = 0.0;
        }
        self.scores = scores;
        Ok(())
    }

    fn name(&self) -> String {
        "ab-eval".to_string()
    }

    fn preferred_batch(&self) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;
    use crate::rules::Variant;

    #[test]
    fn wdl_is_a_distribution_with_the_logistic_value() {
        for cp in [-5000, -400, -100, 0, 37, 100, 400, 5000] {
            let [w, d, l] = wdl_from_centipawns(cp);
            assert!(w >= 0.0 && d >= 0.0 && l >= 0.0);
            assert!((w + d + l - 1.0).abs() < 1e-5);
            let e = 1.0 / (1.0 + 10f32.powf(-(cp as f32) / 400.0));
            assert!(((w - l) - (2.0 * e - 1.0)).abs() < 1e-4, "{cp}");
        }
        let [w, d, l] = wdl_from_centipawns(0);
        assert!((w - 0.3).abs() < 1e-6 && (d - 0.4).abs() < 1e-6 && (l - 0.3).abs() < 1e-6);
    }

    #[test]
    fn captures_get_more_prior_than_quiet_moves() {
        // Fool's mate position before 4. SxBe4++: the silver can take the pawn on Be4.
        let text = "rnknr/ppp1p/5/5/5|ubqub/pp1pp/3p1/5/5|5/5/2p2/2P2/5|5/4B/1N3/PP1PP/UGQUB|5/5/5/PPPPP/RSKNR w Wwgs E1D1A5B5 - 0 4";
        let pos = Position::from_text(text, Variant::plain(Ruleset::FiveUp)).unwrap();
        let moves = pos.legal_moves();
        let mut ev = AbEvaluator::new();
        let mut out = Vec::new();
        ev.evaluate(&[EvalInput::new(&pos, 0, &moves)], &mut out).unwrap();
        let p = &out[0].policy;
        assert_eq!(p.len(), moves.len());
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        let take = moves.iter().position(|&m| m == parse_move(&pos, "Eb1Be4").unwrap()).unwrap();
        let quiet = p.iter().copied().fold(f32::INFINITY, f32::min);
        // Silver takes a pawn: (100 − 60) / 200 → e^0.2 ≈ 1.2 times a quiet move.
        assert!(p[take] > 1.1 * quiet, "{} vs {quiet}", p[take]);
        let v = out[0].value();
        assert!(v.is_finite() && v.abs() < 1.0, "{v}");
    }
}
