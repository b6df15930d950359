//! [`ValuesGame`] for Mixed 3D Chess: pawn, knight, bishop, rook, queen and commoner measured
//! (pawn = 1), imbalances removed from the start position by instance, the quiet-position and
//! material tests, the hand evaluation's decomposition ([`crate::engine::mixed3d::decompose`]),
//! and the ply cap decided by material.
//!
//! **The commoner** is carried as the values layer's guard (the same move: one step in any of the
//! 26 directions): `G` in an imbalance text (`C` is read too), `commoner` in the reports.
//!
//! **Instances.** A side's start men of a kind are listed by level, then file (level 1's a-pawn
//! first; rooks `1a1`, `1h1`, `2a1`, ...); black's are the same cells on rank 8 (rank 7 for
//! pawns), so instance `i` is the same man for either colour. Instance `i` removes entry
//! `i mod count` (and a second copy the next entry: `PP` takes two neighbouring pawns of one
//! level). A removed rook takes its castling right along.
//!
//! **The ply cap.** 256 men seldom run out in 300 plies: an imbalance game that reaches the cap
//! is won by a side ahead by at least [`super::run::CAP_MARGIN_PAWNS`] pawns of material once the
//! captures are played out (the engine's default values,
//! [`crate::eval::records::RecordGame::material_adjudicator`]), else drawn.

use super::game::{Positional, ValuesGame};
use super::records::ReplayGame;
use super::setups::{Imbalance, ImbalanceError};
use crate::engine::mixed3d::{decompose, M3Weights};
use crate::game::{Color, State};
use crate::mixed3d::geometry::{cell_name, CELLS};
use crate::mixed3d::notation::placement_text;
use crate::mixed3d::{Flag, Kind as M3Kind, Move, Piece, Position, NAME};
use crate::player::spec::AlphaBetaSpec;
use crate::rules::types::KIND_COUNT;
use crate::rules::Kind;
use std::fmt;

/// The rules of a Mixed 3D values run: the game has one rule set, so this only names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mixed3dRules;

impl fmt::Display for Mixed3dRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NAME)
    }
}

/// The values layer's kind of a Mixed 3D kind (the commoner is the guard).
pub fn to_values_kind(k: M3Kind) -> Kind {
    match k {
        M3Kind::Pawn => Kind::Pawn,
        M3Kind::Knight => Kind::Knight,
        M3Kind::Bishop => Kind::Bishop,
        M3Kind::Rook => Kind::Rook,
        M3Kind::Queen => Kind::Queen,
        M3Kind::King => Kind::King,
        M3Kind::Commoner => Kind::Guard,
    }
}

/// The Mixed 3D kind of a values-layer kind (`None` for the other 5x5x5 kinds).
pub fn from_values_kind(k: Kind) -> Option<M3Kind> {
    M3Kind::ALL.into_iter().find(|&q| to_values_kind(q) == k)
}

/// Start cells of `color`'s men of `kind`, in instance order (module docs).
fn instance_cells(color: Color, kind: M3Kind) -> Vec<usize> {
    let start = Position::start();
    (0..CELLS)
        .filter(|&c| start.piece_at(c) == Some(Piece { color: Color::White, kind }))
        .map(|c| match color {
            Color::White => c,
            Color::Black => crate::engine::mixed3d::eval::mirror(c),
        })
        .collect()
}

/// The start position text with the cells of `removed` emptied and the castling rights whose
/// rook is gone dropped.
fn start_text_without(removed: &[usize]) -> String {
    let start = Position::start();
    let placement = placement_text(|c| if removed.contains(&c) { None } else { start.piece_at(c) });
    let rights: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| (0..6).map(move |i| Position::castling_of(color, i).rook))
        .filter(|rook| !removed.contains(rook))
        .map(cell_name)
        .collect();
    let rights = if rights.is_empty() { "-".to_string() } else { rights.join(",") };
    format!("{placement} w {rights} - 0 1")
}

/// The value of the man on a cell by the default weights (0 for an empty cell).
fn man_value(w: &M3Weights, pos: &Position, cell: usize) -> i32 {
    pos.piece_at(cell).map_or(0, |p| w.value(p.kind))
}

impl ValuesGame for Position {
    type Rules = Mixed3dRules;
    type Weights = M3Weights;

    fn rules_name(_: Mixed3dRules) -> &'static str {
        NAME
    }

    fn measured_kinds(_: Mixed3dRules) -> Vec<Kind> {
        vec![Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::Guard]
    }

    fn kind_from_letter(_: Mixed3dRules, c: char) -> Option<Kind> {
        match c {
            'G' => Some(Kind::Guard),
            c => M3Kind::from_letter(c).map(to_values_kind),
        }
    }

    fn kind_name(_: Mixed3dRules, kind: Kind) -> &'static str {
        match from_values_kind(kind) {
            Some(k) => k.name(),
            None => crate::engine::weights::kind_key(kind),
        }
    }

    fn kind_letter(_: Mixed3dRules, kind: Kind) -> char {
        from_values_kind(kind).map_or(kind.letter(), M3Kind::letter)
    }

    /// The engine's starting values: Betza published none for this game.
    fn guess(_: Mixed3dRules, kind: Kind) -> f64 {
        let w = M3Weights::default();
        from_values_kind(kind).map_or(0.0, |k| f64::from(w.value(k)) / f64::from(w.value(M3Kind::Pawn)))
    }

    fn guess_source(_: Mixed3dRules) -> &'static str {
        "the engine's starting values (Betza published none for Mixed 3D)"
    }

    fn default_exchanges(_: Mixed3dRules) -> Vec<Imbalance> {
        vec![
            Imbalance::exchange(Kind::Knight, Kind::Bishop),
            Imbalance::exchange(Kind::Rook, Kind::Bishop),
            Imbalance::exchange(Kind::Guard, Kind::Knight),
        ]
    }

    fn start_pawns(_: Mixed3dRules) -> usize {
        64
    }

    fn imbalance_position(
        _: Mixed3dRules,
        imbalance: &Imbalance,
        a: Color,
        instance: usize,
    ) -> Result<Position, ImbalanceError> {
        let removed = imbalance.removed_cells(a, instance, |color, kind| match from_values_kind(kind) {
            Some(k) if k != M3Kind::King => instance_cells(color, k),
            _ => Vec::new(),
        })?;
        Position::from_text(&start_text_without(&removed)).map_err(|e| imbalance.illegal(instance, a, e))
    }

    fn instances(_: Mixed3dRules, imbalance: &Imbalance) -> usize {
        imbalance.instances_by(|k| from_values_kind(k).map_or(0, |k| instance_cells(Color::White, k).len()))
    }

    fn opening_move_is_quiet(&self, m: Move) -> bool {
        let takes = m.flag() == Flag::EnPassant || (m.flag() != Flag::Castle && self.piece_at(m.to()).is_some());
        !takes && m.promotion().is_none()
    }

    fn store_move_text(m: Move) -> String {
        m.to_string()
    }

    fn parse_store_move(&self, text: &str) -> Result<Move, String> {
        Position::parse_move(self, text).map_err(|e| e.to_string())
    }

    fn from_store_text(_: Mixed3dRules, text: &str) -> Result<Position, String> {
        Position::from_text(text).map_err(|e| e.to_string())
    }

    fn shard_games(_: Mixed3dRules, _: &std::path::Path, _: &[u8]) -> Result<Vec<ReplayGame<Position>>, String> {
        Err(format!("self-play shards hold 5x5x5 games; {NAME} records are values games.jsonl stores"))
    }

    /// The side to move is not in check and has no promotion and no capture that wins material
    /// at once: a capture of more than the capturer is worth, or one after which the capturer
    /// stands unattacked.
    fn is_quiet(&self) -> bool {
        if self.in_check() {
            return false;
        }
        let w = M3Weights::default();
        let them = self.side().flip();
        !self.legal_moves().into_iter().any(|m| {
            if m.promotion().is_some() {
                return true;
            }
            let victim = match m.flag() {
                Flag::EnPassant => w.value(M3Kind::Pawn),
                Flag::Castle => 0,
                _ => man_value(&w, self, m.to()),
            };
            if victim == 0 {
                return false;
            }
            if victim > man_value(&w, self, m.from()) {
                return true;
            }
            let mut after = self.clone();
            State::make(&mut after, m);
            !after.attacked(m.to(), them)
        })
    }

    fn material_delta(&self) -> [f64; KIND_COUNT] {
        let mut d = [0.0; KIND_COUNT];
        for (color, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
            for k in M3Kind::ALL {
                d[to_values_kind(k).index()] += sign * f64::from(self.count(color, k));
            }
        }
        d
    }

    fn engine_weights(_: Mixed3dRules, spec: &AlphaBetaSpec) -> Result<M3Weights, String> {
        match &spec.values {
            Some(p) => M3Weights::from_file(p).map_err(|e| e.to_string()),
            None => Ok(M3Weights::default()),
        }
    }

    fn weight_value(weights: &M3Weights, kind: Kind) -> i32 {
        from_values_kind(kind).map_or(0, |k| weights.value(k))
    }

    fn set_weight_value(weights: &mut M3Weights, kind: Kind, value: i32) {
        if let Some(k) = from_values_kind(kind).filter(|&k| k != M3Kind::King) {
            weights.values[k as usize] = value.max(1);
        }
    }

    fn weights_toml(weights: &M3Weights) -> String {
        weights.to_toml_string()
    }

    fn positional(&self, w: &M3Weights) -> Positional {
        let unit = w.value(M3Kind::Pawn).max(1) as f64;
        let d = decompose(self, w);
        let mut bonus = [(0.0, 0.0); KIND_COUNT];
        for k in M3Kind::ALL {
            let count = self.count(Color::White, k) + self.count(Color::Black, k);
            let b = d.bonus[k as usize];
            bonus[to_values_kind(k).index()] = (f64::from(b[0] + b[1]) / unit, f64::from(count));
        }
        Positional { positional: d.positional as f64 / unit, bonus }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::play::{pair_rng, shared_opening};
    use crate::values::setups::{default_imbalances, even_imbalances};

    const R: Mixed3dRules = Mixed3dRules;

    /// The men of `color` on the cube.
    fn men(p: &Position, color: Color) -> u32 {
        (0..crate::mixed3d::geometry::SIDE).map(|l| p.men(color, l).count_ones()).sum()
    }

    fn parse(t: &str) -> Imbalance {
        Imbalance::parse_in::<Position>(t, R).unwrap()
    }

    #[test]
    fn every_schedule_setup_is_legal_and_removes_exactly_the_named_material() {
        let start = Position::start();
        let mut all = default_imbalances::<Position>(R);
        all.extend(even_imbalances::<Position>(R, |k| Position::guess(R, k)));
        all.extend(Position::default_exchanges(R));
        all.extend(["Q/RB", "RR/Q", "CC", "C/PPP", "G/N", "BN/R"].map(parse));
        for imb in all {
            for a in Color::ALL {
                for instance in [0, 1, 7, 15, 63] {
                    let p = Position::imbalance_position(R, &imb, a, instance).unwrap_or_else(|e| panic!("{imb}: {e}"));
                    assert_eq!(p.side(), Color::White);
                    for (color, lacks) in [(a, &imb.a_lacks), (a.flip(), &imb.b_lacks)] {
                        for k in M3Kind::ALL {
                            let gone = lacks.iter().filter(|&&x| x == to_values_kind(k)).count() as u32;
                            assert_eq!(start.count(color, k) - p.count(color, k), gone, "{imb} {a:?} {k:?}");
                        }
                    }
                    assert_eq!(men(&p, a) + men(&p, a.flip()), 256 - (imb.a_lacks.len() + imb.b_lacks.len()) as u32);
                }
            }
        }
    }

    #[test]
    fn instances_are_colour_images_and_rights_follow_the_rooks() {
        assert_eq!(Position::instances(R, &parse("C")), 7);
        assert_eq!(Position::instances(R, &parse("P")), 64);
        assert_eq!(Position::instances(R, &parse("R")), 16);
        let gone = |imb: &str, a: Color, i: usize| {
            let p = Position::imbalance_position(R, &parse(imb), a, i).unwrap();
            let start = Position::start();
            (0..CELLS).filter(|&c| p.piece_at(c) != start.piece_at(c)).map(cell_name).collect::<Vec<_>>()
        };
        assert_eq!(gone("R", Color::White, 0), ["1a1"]);
        assert_eq!(gone("R", Color::Black, 0), ["1a8"]);
        assert_eq!(gone("C", Color::White, 3), ["5e1"], "the royal level has no commoner");
        assert_eq!(gone("PP", Color::Black, 9), ["2b7", "2c7"]);
        // A removed castling rook takes its right along; the others stay.
        let p = Position::imbalance_position(R, &parse("R"), Color::White, 0).unwrap();
        assert_eq!(p.to_text().split(' ').nth(2), Some("4h1,1h1,7h1,4a1,8a1,4h8,1h8,7h8,4a8,8a8,1a8"));
        // Imbalance texts carry the commoner as G and read C too; the reports call it commoner.
        assert_eq!(parse("C/PPP").text(), "G/PPP");
        assert_eq!(Position::kind_name(R, Kind::Guard), "commoner");
        assert_eq!(Position::kind_letter(R, Kind::Guard), 'C');
        for t in ["K", "W", "U", "S/R"] {
            assert!(Imbalance::parse_in::<Position>(t, R).is_err(), "{t}");
        }
        for t in ["QQQQQQQQQ", "CCCCCCCC"] {
            let e = Position::imbalance_position(R, &parse(t), Color::White, 0).unwrap_err();
            assert!(matches!(e, ImbalanceError::TooMany { .. }), "{t}: {e}");
        }
    }

    #[test]
    fn material_quiet_test_positional_part_and_weights() {
        let start = Position::start();
        assert_eq!(start.material_delta(), [0.0; KIND_COUNT]);
        assert!(start.is_quiet());
        let p = Position::imbalance_position(R, &parse("Q/PPP"), Color::Black, 0).unwrap();
        let d = p.material_delta();
        assert_eq!((d[Kind::Queen.index()], d[Kind::Pawn.index()]), (1.0, -3.0));
        // A pawn can take a knight: not quiet; without the pawn it is.
        let e = "8/8/8/8/8/8/8/8";
        let cube = |l1: &str| {
            Position::from_text(&format!("{l1}|{e}|{e}|{e}|{e}|{e}|{e}|4k3/8/8/8/8/8/8/8 w - - 0 1")).unwrap()
        };
        assert!(!cube("8/8/8/8/8/4n3/3P4/4K3").is_quiet());
        assert!(cube("8/8/8/8/8/4n3/8/4K3").is_quiet());
        let w = M3Weights::default();
        let s = start.positional(&w);
        assert_eq!(s.positional, 0.0);
        assert_eq!(s.bonus[Kind::Guard.index()].1, 14.0);
        assert_eq!(s.bonus[Kind::Pawn.index()].1, 128.0);
        let mut w2 = w.clone();
        Position::set_weight_value(&mut w2, Kind::Guard, 412);
        Position::set_weight_value(&mut w2, Kind::Wizard, 999);
        assert_eq!(Position::weight_value(&w2, Kind::Guard), 412);
        assert_eq!(Position::weight_value(&w2, Kind::Wizard), 0);
        assert_eq!(M3Weights::from_toml_str(&Position::weights_toml(&w2)).unwrap(), w2);
        use crate::eval::records::RecordGame;
        assert!(<Position as RecordGame>::material_adjudicator(3.0).is_some_and(|a| a.at_cap));
    }

    #[test]
    fn openings_are_shared_and_store_text_round_trips() {
        let imb = parse("N/PPPP");
        let mut a = Position::imbalance_position(R, &imb, Color::White, 0).unwrap();
        let mut b = Position::imbalance_position(R, &imb, Color::Black, 0).unwrap();
        let a0 = a.clone();
        let moves = shared_opening(&mut a, &mut b, 6, &mut pair_rng(1, 2, 3));
        assert_eq!(moves.len(), 6);
        let mut replay = a0.clone();
        for &m in &moves {
            assert!(replay.opening_move_is_quiet(m));
            let text = Position::store_move_text(m);
            assert_eq!(replay.parse_store_move(&text).unwrap(), m);
            State::make(&mut replay, m);
        }
        assert_eq!(replay, a);
        assert_eq!(Position::from_store_text(R, &a.to_text()).unwrap(), a);
        assert!(Position::shard_games(R, std::path::Path::new("x"), b"").is_err());
    }
}
