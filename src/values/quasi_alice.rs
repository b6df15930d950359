//! [`ValuesGame`] for 4D Quasi-Alice Chess: the chess kinds (pawn, knight, bishop, rook, queen
//! measured, pawn = 1), imbalances removed from board 1 of the start position by instance, the
//! quiet-position and material tests, the hand evaluation's decomposition
//! ([`crate::engine::quasi_alice::decompose`]).
//!
//! **Instances.** A side's start pieces of a kind are listed by square, files a to h (the
//! queenside piece first, then the kingside one: rooks a then h, knights b then g, bishops c then
//! f, pawns a to h); black's are the same files on rank 8, so instance `i` is the same piece for
//! either colour. Instance `i` removes entry `i mod count` (and a second copy the next entry). A
//! removed rook takes its castling right along.

use super::game::{Positional, ValuesGame};
use super::records::ReplayGame;
use super::setups::{Imbalance, ImbalanceError};
use crate::engine::quasi_alice::{decompose, QaWeights};
use crate::game::{Color, State};
use crate::player::spec::AlphaBetaSpec;
use crate::quasi_alice::notation::placement_text;
use crate::quasi_alice::{Flag, Kind as QaKind, Move, Position, NAME};
use crate::rules::types::KIND_COUNT;
use crate::rules::Kind;
use std::fmt;

/// The rules of a Quasi-Alice values run: the game has one rule set, so this only names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct QuasiAliceRules;

impl fmt::Display for QuasiAliceRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NAME)
    }
}

/// Kevin Pacey's guesses for the game, in pawns (his text: knight 4.375, bishop 5.5, rook 8.5,
/// queen 14.5).
pub const PACEY: [(Kind, f64); 5] =
    [(Kind::Pawn, 1.0), (Kind::Knight, 4.375), (Kind::Bishop, 5.5), (Kind::Rook, 8.5), (Kind::Queen, 14.5)];

/// The values layer's kind of a Quasi-Alice kind.
pub fn to_values_kind(k: QaKind) -> Kind {
    match k {
        QaKind::Pawn => Kind::Pawn,
        QaKind::Knight => Kind::Knight,
        QaKind::Bishop => Kind::Bishop,
        QaKind::Rook => Kind::Rook,
        QaKind::Queen => Kind::Queen,
        QaKind::King => Kind::King,
    }
}

/// The Quasi-Alice kind of a values-layer kind (`None` for the 5x5x5-only kinds).
pub fn from_values_kind(k: Kind) -> Option<QaKind> {
    QaKind::ALL.into_iter().find(|&q| to_values_kind(q) == k)
}

/// Start squares (on board 1) of `color`'s men of `kind`, in instance order (module docs).
fn instance_squares(color: Color, kind: QaKind) -> Vec<usize> {
    let start = Position::start();
    let white: Vec<usize> = (0..64)
        .filter(|&sq| start.piece_at(sq) == Some(crate::quasi_alice::Piece { color: Color::White, kind }))
        .collect();
    match color {
        Color::White => white,
        Color::Black => white.into_iter().map(|sq| sq ^ 56).collect(),
    }
}

/// The start position text with the cells of `removed` (board-1 squares) emptied and the
/// castling rights whose rook is gone dropped.
fn start_text_without(removed: &[usize]) -> String {
    let start = Position::start();
    let placement = placement_text(|cell| if removed.contains(&cell) { None } else { start.piece_at(cell) });
    let rights: String = [('K', 7), ('Q', 0), ('k', 63), ('q', 56)]
        .into_iter()
        .filter(|(_, rook)| !removed.contains(rook))
        .map(|(c, _)| c)
        .collect();
    let rights = if rights.is_empty() { "-".to_string() } else { rights };
    format!("{placement} w {rights} - 0 1")
}

/// The value of a man on a cell by the default weights (0 for an empty cell).
fn man_value(pos: &Position, cell: usize) -> i32 {
    pos.piece_at(cell).map_or(0, |p| QaWeights::default().value(p.kind))
}

impl ValuesGame for Position {
    type Rules = QuasiAliceRules;
    type Weights = QaWeights;

    fn rules_name(_: QuasiAliceRules) -> &'static str {
        NAME
    }

    fn measured_kinds(_: QuasiAliceRules) -> Vec<Kind> {
        vec![Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
    }

    fn kind_from_letter(_: QuasiAliceRules, c: char) -> Option<Kind> {
        QaKind::from_letter(c).map(to_values_kind)
    }

    fn guess(_: QuasiAliceRules, kind: Kind) -> f64 {
        PACEY.iter().find(|(k, _)| *k == kind).map_or(0.0, |(_, v)| *v)
    }

    fn guess_source(_: QuasiAliceRules) -> &'static str {
        "Pacey's guesses (4D Quasi-Alice Chess text)"
    }

    fn default_exchanges(_: QuasiAliceRules) -> Vec<Imbalance> {
        vec![Imbalance::exchange(Kind::Knight, Kind::Bishop), Imbalance::exchange(Kind::Rook, Kind::Bishop)]
    }

    fn start_pawns(_: QuasiAliceRules) -> usize {
        8
    }

    fn imbalance_position(
        _: QuasiAliceRules,
        imbalance: &Imbalance,
        a: Color,
        instance: usize,
    ) -> Result<Position, ImbalanceError> {
        let removed = imbalance.removed_cells(a, instance, |color, kind| match from_values_kind(kind) {
            Some(k) if k != QaKind::King => instance_squares(color, k),
            _ => Vec::new(),
        })?;
        Position::from_text(&start_text_without(&removed)).map_err(|e| imbalance.illegal(instance, a, e))
    }

    fn instances(_: QuasiAliceRules, imbalance: &Imbalance) -> usize {
        imbalance.instances_by(|k| from_values_kind(k).map_or(0, |k| instance_squares(Color::White, k).len()))
    }

    fn opening_move_is_quiet(&self, m: Move) -> bool {
        let taken = m.flag() != Flag::Castle && self.piece_at(m.board_from() * 64 + m.to()).is_some();
        let landed_on = self.piece_at(m.board_to() * 64 + m.to()).is_some();
        !taken && !landed_on && m.promotion().is_none() && m.flag() != Flag::EnPassant
    }

    fn store_move_text(m: Move) -> String {
        m.to_string()
    }

    fn parse_store_move(&self, text: &str) -> Result<Move, String> {
        Position::parse_move(self, text).map_err(|e| e.to_string())
    }

    fn from_store_text(_: QuasiAliceRules, text: &str) -> Result<Position, String> {
        Position::from_text(text).map_err(|e| e.to_string())
    }

    fn shard_games(_: QuasiAliceRules, _: &std::path::Path, _: &[u8]) -> Result<Vec<ReplayGame<Position>>, String> {
        Err(format!("self-play shards hold 5x5x5 games; {NAME} records are values games.jsonl stores"))
    }

    /// The side to move is not in check and has no promotion and no capture that wins material
    /// at once: a capture (of the man on the board moved on, or by a king landing on a man) of
    /// more than the capturer is worth, or one whose capturer then stands unattacked on the cell
    /// it transferred to (a capturing man leaves the board it took on, so the usual recapture on
    /// the same square does not exist).
    fn is_quiet(&self) -> bool {
        if self.in_check() {
            return false;
        }
        let w = QaWeights::default();
        let them = self.side().flip();
        !self.legal_moves().into_iter().any(|m| {
            if m.promotion().is_some() {
                return true;
            }
            let (s, t, to) = (m.board_from(), m.board_to(), m.to());
            let mut victim = man_value(self, t * 64 + to);
            if m.flag() == Flag::EnPassant {
                victim += w.value(QaKind::Pawn);
            } else if m.flag() != Flag::Castle {
                victim += man_value(self, s * 64 + to);
            }
            if victim == 0 {
                return false;
            }
            if victim > man_value(self, s * 64 + m.from()) {
                return true;
            }
            let mut after = self.clone();
            State::make(&mut after, m);
            !after.attacked(t, to, them)
        })
    }

    fn material_delta(&self) -> [f64; KIND_COUNT] {
        let mut d = [0.0; KIND_COUNT];
        for (color, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
            for k in QaKind::ALL {
                let n: u32 =
                    (0..crate::quasi_alice::board::BOARDS).map(|b| self.pieces(color, k, b).count_ones()).sum();
                d[to_values_kind(k).index()] += sign * f64::from(n);
            }
        }
        d
    }

    fn engine_weights(_: QuasiAliceRules, spec: &AlphaBetaSpec) -> Result<QaWeights, String> {
        match &spec.values {
            Some(p) => QaWeights::from_file(p).map_err(|e| e.to_string()),
            None => Ok(QaWeights::default()),
        }
    }

    fn weight_value(weights: &QaWeights, kind: Kind) -> i32 {
        from_values_kind(kind).map_or(0, |k| weights.value(k))
    }

    fn set_weight_value(weights: &mut QaWeights, kind: Kind, value: i32) {
        if let Some(k) = from_values_kind(kind).filter(|&k| k != QaKind::King) {
            weights.values[k as usize] = value.max(1);
        }
    }

    fn weights_toml(weights: &QaWeights) -> String {
        weights.to_toml_string()
    }

    fn positional(&self, w: &QaWeights) -> Positional {
        let unit = w.value(QaKind::Pawn).max(1) as f64;
        let d = decompose(self, w);
        let mut bonus = [(0.0, 0.0); KIND_COUNT];
        for k in QaKind::ALL {
            let count: u32 = Color::ALL
                .iter()
                .map(|&c| {
                    (0..crate::quasi_alice::board::BOARDS).map(|b| self.pieces(c, k, b).count_ones()).sum::<u32>()
                })
                .sum();
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

    const R: QuasiAliceRules = QuasiAliceRules;

    fn parse(t: &str) -> Imbalance {
        Imbalance::parse_in::<Position>(t, R).unwrap()
    }

    /// Men of `color` of `kind` on all boards.
    fn count(p: &Position, color: Color, kind: QaKind) -> u32 {
        (0..4).map(|b| p.pieces(color, kind, b).count_ones()).sum()
    }

    #[test]
    fn every_schedule_setup_is_legal_and_removes_exactly_the_named_material() {
        let start = Position::start();
        let mut all = default_imbalances::<Position>(R);
        all.extend(even_imbalances::<Position>(R, |k| Position::guess(R, k)));
        all.extend(Position::default_exchanges(R));
        all.extend(["Q/RB", "RR/Q", "PPPPPPPP", "BN/R", "NN"].map(parse));
        for imb in all {
            for a in Color::ALL {
                for instance in 0..Position::instances(R, &imb) + 1 {
                    let p = Position::imbalance_position(R, &imb, a, instance).unwrap_or_else(|e| panic!("{imb}: {e}"));
                    assert_eq!(p.side(), Color::White);
                    for (color, lacks) in [(a, &imb.a_lacks), (a.flip(), &imb.b_lacks)] {
                        for k in QaKind::ALL {
                            let gone = lacks.iter().filter(|&&x| x == to_values_kind(k)).count() as u32;
                            assert_eq!(count(&start, color, k) - count(&p, color, k), gone, "{imb} {a:?} {k:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn instances_cycle_queenside_then_kingside_and_are_colour_images() {
        let n = parse("N");
        assert_eq!(Position::instances(R, &n), 2);
        for a in Color::ALL {
            let p = Position::imbalance_position(R, &n, a, 0).unwrap();
            assert_eq!(count(&p, a, QaKind::Knight), 1, "removing N leaves one knight");
            assert_eq!(count(&p, a.flip(), QaKind::Knight), 2);
        }
        let file_gone = |imb: &Imbalance, a: Color, i: usize| {
            let p = Position::imbalance_position(R, imb, a, i).unwrap();
            let rank = if a == Color::White { 0 } else { 56 };
            (0..8).find(|f| p.piece_at(rank + f).is_none()).unwrap()
        };
        for a in Color::ALL {
            assert_eq!([0, 1, 2].map(|i| file_gone(&n, a, i)), [1, 6, 1]);
            assert_eq!([0, 1].map(|i| file_gone(&parse("R"), a, i)), [0, 7]);
            assert_eq!([0, 1].map(|i| file_gone(&parse("B"), a, i)), [2, 5]);
            assert_eq!(file_gone(&parse("Q"), a, 5), 3);
        }
        // A removed rook takes its castling right along; the others stay.
        let p = Position::imbalance_position(R, &parse("R/R"), Color::White, 1).unwrap();
        assert_eq!(p.to_text().split(' ').nth(2), Some("Qq"));
        let p = Position::imbalance_position(R, &parse("RR"), Color::Black, 0).unwrap();
        assert_eq!(p.to_text().split(' ').nth(2), Some("KQ"));
        // Pawns: PP takes two neighbours, starting at the instance's file.
        let p = Position::imbalance_position(R, &parse("PP"), Color::White, 7).unwrap();
        assert!(p.piece_at(8 + 7).is_none() && p.piece_at(8).is_none() && p.piece_at(9).is_some());
    }

    #[test]
    fn unknown_kinds_the_king_and_too_many_are_refused() {
        for t in ["K", "W", "S/R", "U", "Q/G"] {
            let e = Imbalance::parse_in::<Position>(t, R).unwrap_err();
            assert!(matches!(e, ImbalanceError::Kind { game: "quasi-alice", .. }), "{t}: {e}");
            assert!(e.to_string().contains("quasi-alice has no removable piece"), "{e}");
        }
        assert!(matches!(Imbalance::parse_in::<Position>("Q/R/B", R), Err(ImbalanceError::Syntax(_))));
        for t in ["NNN", "QQ", "PPPPPPPPP", "N/BBB"] {
            let e = Position::imbalance_position(R, &parse(t), Color::White, 0).unwrap_err();
            assert!(matches!(e, ImbalanceError::TooMany { .. }), "{t}: {e}");
        }
        // The even design keeps within eight pawns: a queen of 14.5 is bracketed by 7 and 8.
        let q = crate::values::setups::bracket::<Position>(R, Kind::Queen, 14.5);
        assert_eq!(q.map(|i| i.text()), ["Q/PPPPPPP", "Q/PPPPPPPP"]);
    }

    #[test]
    fn material_quiet_test_and_positional_part() {
        let start = Position::start();
        assert_eq!(start.material_delta(), [0.0; KIND_COUNT]);
        assert!(start.is_quiet());
        let p = Position::imbalance_position(R, &parse("Q/PPP"), Color::Black, 0).unwrap();
        let d = p.material_delta();
        assert_eq!((d[Kind::Queen.index()], d[Kind::Pawn.index()]), (1.0, -3.0));
        assert_eq!(d.iter().map(|x| x.abs()).sum::<f64>(), 4.0);
        // A knight on board 3 attacked by a pawn there: the capture wins material at once.
        let text = "r1bqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR|8/8/8/8/8/8/8/8|8/8/8/3n4/4P3/8/8/8|8/8/8/8/8/8/8/8 w KQkq - 0 1";
        assert!(!Position::from_text(text).unwrap().is_quiet());
        let w = QaWeights::default();
        let s = start.positional(&w);
        assert_eq!(s.positional, 0.0);
        assert_eq!(s.bonus[Kind::Knight.index()].1, 4.0);
        assert_eq!(s.bonus[Kind::Pawn.index()].1, 16.0);
        assert_eq!(s.bonus[Kind::King.index()], (0.0, 2.0));
        // Weights: set, read, write and read back.
        let mut w2 = w.clone();
        Position::set_weight_value(&mut w2, Kind::Rook, 612);
        Position::set_weight_value(&mut w2, Kind::Wizard, 999);
        assert_eq!(Position::weight_value(&w2, Kind::Rook), 612);
        assert_eq!(Position::weight_value(&w2, Kind::Wizard), 0);
        assert_eq!(QaWeights::from_toml_str(&Position::weights_toml(&w2)).unwrap(), w2);
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
        let back = Position::from_store_text(R, &a.to_text()).unwrap();
        assert_eq!(back, a);
        assert!(Position::shard_games(R, std::path::Path::new("x"), b"").is_err());
    }
}
