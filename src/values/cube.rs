//! [`ValuesGame`] for the 5x5x5 games (Five Up in either text, Raumschach): imbalances by
//! [`super::setups`], the shared-opening, quiet-position and material tests, the hand
//! evaluation's decomposition for the Texel-style regression.

use super::game::{Positional, ValuesGame};
use super::records::ReplayGame;
use super::setups::{Imbalance, ImbalanceError};
use crate::engine::Weights;
use crate::game::Color;
use crate::player::spec::AlphaBetaSpec;
use crate::rules::notation::{coordinate, parse_move};
use crate::rules::types::KIND_COUNT;
use crate::rules::{Kind, Move, Position, Special, Variant};

impl ValuesGame for Position {
    type Rules = Variant;
    type Weights = Weights;

    fn rules_name(rules: Variant) -> &'static str {
        rules.ruleset.name()
    }

    fn measured_kinds(rules: Variant) -> Vec<Kind> {
        super::setups::measured_kinds(rules.ruleset)
    }

    fn kind_from_letter(rules: Variant, c: char) -> Option<Kind> {
        rules.ruleset.kind_from_letter(c)
    }

    fn guess(rules: Variant, kind: Kind) -> f64 {
        super::guess(rules.ruleset, kind)
    }

    fn guess_source(rules: Variant) -> &'static str {
        super::guess_source(rules.ruleset)
    }

    fn default_exchanges(rules: Variant) -> Vec<Imbalance> {
        super::setups::default_exchanges(rules.ruleset)
    }

    fn start_pawns(rules: Variant) -> usize {
        Position::startpos(Variant::plain(rules.ruleset)).pieces(Color::White, Kind::Pawn).count() as usize
    }

    fn imbalance_position(
        rules: Variant,
        imbalance: &Imbalance,
        a: Color,
        instance: usize,
    ) -> Result<Position, ImbalanceError> {
        imbalance.position(rules, a, instance)
    }

    fn instances(rules: Variant, imbalance: &Imbalance) -> usize {
        imbalance.instances(rules)
    }

    fn opening_move_is_quiet(&self, m: Move) -> bool {
        self.piece_at(m.to()).is_none() && m.promotion().is_none() && m.special() != Special::EnPassant
    }

    fn store_move_text(m: Move) -> String {
        coordinate(m)
    }

    fn parse_store_move(&self, text: &str) -> Result<Move, String> {
        parse_move(self, text).map_err(|e| e.to_string())
    }

    fn from_store_text(rules: Variant, text: &str) -> Result<Position, String> {
        Position::from_text(text, rules).map_err(|e| e.to_string())
    }

    fn shard_games(rules: Variant, path: &std::path::Path, bytes: &[u8]) -> Result<Vec<ReplayGame>, String> {
        let recs = crate::selfplay::shards::decode_shard(path, bytes).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for r in recs {
            if r.variant.to_variant().ok() != Some(rules) {
                continue;
            }
            let start = r.start_position().map_err(|e| e.to_string())?;
            let moves: Vec<Move> = r.moves.iter().filter_map(|&b| Move::from_bits(b)).collect();
            let white_score = match r.result {
                crate::selfplay::records::GameResult::WhiteWin => 1.0,
                crate::selfplay::records::GameResult::Draw => 0.5,
                crate::selfplay::records::GameResult::BlackWin => 0.0,
            };
            out.push(ReplayGame { start, moves, white_score });
        }
        Ok(out)
    }

    /// The side to move is not in check and has no promotion and no capture that wins material at
    /// once (a victim worth more than the capturer by the ruleset's default values, or an
    /// undefended victim). Even trades may remain: the start position of Five Up already has
    /// some, so "no capture at all" would leave few positions.
    fn is_quiet(&self) -> bool {
        let p = self;
        if p.in_check() {
            return false;
        }
        let values = Weights::for_ruleset(p.ruleset()).values;
        let them = p.side().flip();
        !p.legal_moves().iter().any(|&m| {
            if m.promotion().is_some() {
                return true;
            }
            let Some(victim) = crate::engine::ordering::captured(p, m) else { return false };
            let attacker = p.piece_at(m.from()).map_or(Kind::Pawn, |x| x.kind);
            if values[victim.index()] > values[attacker.index()] {
                return true;
            }
            let to = m.to().index();
            let occ = p.occupied().0 ^ (1u128 << m.from().index());
            p.attackers(to, them, occ, p.color_bb(them).0 & !(1u128 << to)) == 0
        })
    }

    /// Board pieces, and reserve pieces in hand while their owner can still place one.
    fn material_delta(&self) -> [f64; KIND_COUNT] {
        let p = self;
        let mut d = [0.0; KIND_COUNT];
        for (color, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
            for k in Kind::ALL {
                d[k.index()] += sign * p.pieces(color, k).count() as f64;
            }
            if p.can_place(color) {
                for k in p.reserve_kinds(color) {
                    d[k.index()] += sign;
                }
            }
        }
        d
    }

    fn engine_weights(rules: Variant, spec: &AlphaBetaSpec) -> Result<Weights, String> {
        spec.weights(rules.ruleset).map_err(|e| e.to_string())
    }

    fn weight_value(weights: &Weights, kind: Kind) -> i32 {
        weights.value(kind)
    }

    fn set_weight_value(weights: &mut Weights, kind: Kind, value: i32) {
        weights.set_value(kind, value);
    }

    fn weights_toml(weights: &Weights) -> String {
        weights.to_toml_string()
    }

    /// [`crate::engine::eval::decompose`]: mobility and centralisation of pieces, advancement of
    /// pawns, king safety and mop-up, in units of the weights' pawn.
    fn positional(&self, w: &Weights) -> Positional {
        let unit = w.value(Kind::Pawn).max(1) as f64;
        let d = crate::engine::eval::decompose(self, w);
        let mut bonus = [(0.0, 0.0); KIND_COUNT];
        for k in Kind::ALL {
            let count: u32 = Color::ALL.iter().map(|&c| self.pieces(c, k).count()).sum();
            bonus[k.index()] = ((d.bonus[k.index()][0] + d.bonus[k.index()][1]) as f64 / unit, count as f64);
        }
        Positional { positional: d.positional as f64 / unit, bonus }
    }
}
