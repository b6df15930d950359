//! Handicapped start positions: one side lacks some material, the other maybe some other material.
//!
//! An [`Imbalance`] names what side *A* (the handicapped side) and side *B* lack, by kind. It is
//! turned into a concrete [`Setup`] by [`Imbalance::setup`] for a colour of A and an *instance*
//! number that says which piece of a kind goes:
//! - a **board piece** (e.g. one of the two rooks): A's pieces of that kind on the start board are
//!   listed in a fixed order (white's cells by index; black's as the colour images of white's, so
//!   instance `i` is the same piece for either colour), and instance `i` removes entry
//!   `i mod count`; a second copy of the same kind takes the next entry. The cell's placement right
//!   goes with the piece. Match schedules take instance = pair number, so the instances are used in
//!   turn.
//! - a **reserve piece** (the wizard, guard and silver unicorn of Five Up): taken from the reserve.
//!
//! Every setup is validated by [`Position::from_setup`]; the generator never invents a position the
//! rules would refuse.
//!
//! Other games build their imbalance positions through [`ValuesGame::imbalance_position`] (4D
//! Quasi-Alice: [`super::quasi_alice`]); the schedules below are written once over that trait.

use super::game::ValuesGame;
use crate::game::Color;
use crate::rules::{Kind, Piece, Position, Ruleset, Setup, Variant};
use std::str::FromStr;

pub use super::handicap::{Imbalance, ImbalanceError};

impl Imbalance {
    /// Parses the text form in a 5x5x5 ruleset's alphabet (`U` is the ruleset's unicorn).
    pub fn parse(text: &str, ruleset: Ruleset) -> Result<Imbalance, ImbalanceError> {
        Imbalance::parse_in::<Position>(text, Variant::plain(ruleset))
    }

    /// Parses the text form in a game's alphabet ([`ValuesGame::kind_from_letter`]).
    pub fn parse_in<G: ValuesGame>(text: &str, rules: G::Rules) -> Result<Imbalance, ImbalanceError> {
        let t = text.trim();
        let (a, b) = t.split_once('/').unwrap_or((t, ""));
        if a.is_empty() || b.contains('/') {
            return Err(ImbalanceError::Syntax(text.to_string()));
        }
        let kinds = |s: &str| -> Result<Vec<Kind>, ImbalanceError> {
            s.chars()
                .map(|c| match G::kind_from_letter(rules, c.to_ascii_uppercase()) {
                    Some(k) if k != Kind::King && c.is_ascii_uppercase() => Ok(k),
                    _ if !c.is_ascii_alphabetic() => Err(ImbalanceError::Syntax(text.to_string())),
                    _ => Err(ImbalanceError::Kind { text: text.to_string(), game: G::rules_name(rules), letter: c }),
                })
                .collect()
        };
        Ok(Imbalance { a_lacks: kinds(a)?, b_lacks: kinds(b)? })
    }

    /// The start position of `variant` with A (of colour `a`) and B (the other colour) lacking
    /// their material; `instance` picks which pieces of each board kind go (see the module docs).
    pub fn setup(&self, variant: Variant, a: Color, instance: usize) -> Result<Setup, ImbalanceError> {
        let mut s = Setup::start(variant);
        for (side, color, lacks) in [("A", a, &self.a_lacks), ("B", a.flip(), &self.b_lacks)] {
            let mut kinds: Vec<Kind> = lacks.clone();
            kinds.sort();
            kinds.dedup();
            for kind in kinds {
                let count = lacks.iter().filter(|&&k| k == kind).count();
                remove(&mut s, variant, side, color, kind, count, instance)?;
            }
        }
        Ok(s)
    }

    /// [`Imbalance::setup`] validated into a position.
    pub fn position(&self, variant: Variant, a: Color, instance: usize) -> Result<Position, ImbalanceError> {
        let s = self.setup(variant, a, instance)?;
        Position::from_setup(s).map_err(|error| self.illegal(instance, a, error))
    }

    /// Number of distinct instances: the largest count of start pieces of a board kind named here
    /// (1 when only reserve pieces are named). Schedules cycle through `0..instances()`.
    pub fn instances(&self, variant: Variant) -> usize {
        let start = Setup::start(variant);
        self.a_lacks
            .iter()
            .chain(&self.b_lacks)
            .map(|&k| instance_cells(&start, variant.ruleset, Color::White, k).len())
            .max()
            .unwrap_or(1)
            .max(1)
    }
}

impl FromStr for Imbalance {
    type Err = ImbalanceError;
    /// Parses in the Five Up alphabet; use [`Imbalance::parse`] for Raumschach.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Imbalance::parse(s, Ruleset::FiveUp)
    }
}

/// The colour image of a cell: where the other side's corresponding start piece stands (black is
/// white turned through the centre; in the later Five Up text also mirrored a↔e, docs/RULES.md §2).
pub fn colour_image(ruleset: Ruleset, c: crate::rules::Cell) -> crate::rules::Cell {
    if ruleset == Ruleset::FiveUp {
        c.rotate().mirror_file()
    } else {
        c.rotate()
    }
}

/// Start cells of `color`'s pieces of `kind`, in instance order (white's by cell index, black's as
/// the images of white's).
fn instance_cells(start: &Setup, ruleset: Ruleset, color: Color, kind: Kind) -> Vec<crate::rules::Cell> {
    let white: Vec<_> =
        crate::rules::Cell::all().filter(|c| start.board[c.index()] == Some(Piece::new(Color::White, kind))).collect();
    match color {
        Color::White => white,
        Color::Black => white.into_iter().map(|c| colour_image(ruleset, c)).collect(),
    }
}

fn remove(
    s: &mut Setup,
    variant: Variant,
    side: &'static str,
    color: Color,
    kind: Kind,
    count: usize,
    instance: usize,
) -> Result<(), ImbalanceError> {
    // Instances come from the untouched start (the other side's removals must not shift them).
    let original = instance_cells(&Setup::start(variant), variant.ruleset, color, kind);
    if !original.is_empty() {
        if count > original.len() {
            return Err(ImbalanceError::TooMany { side, kind, count, have: original.len() });
        }
        for j in 0..count {
            let c = original[(instance + j) % original.len()];
            s.board[c.index()] = None;
            s.rights = s.rights.without(c);
        }
        return Ok(());
    }
    let bit = crate::rules::types::reserve_bit(kind).filter(|b| s.reserve[color.index()] & b != 0);
    match bit {
        Some(b) if count == 1 => {
            s.reserve[color.index()] &= !b;
            Ok(())
        }
        _ => Err(ImbalanceError::TooMany { side, kind, count, have: usize::from(bit.is_some()) }),
    }
}

/// The kinds whose value is measured in a 5x5x5 ruleset, in table order: pawn first, then the
/// pieces roughly by their conventional value (the king is never removed).
pub fn measured_kinds(ruleset: Ruleset) -> Vec<Kind> {
    if ruleset.is_fiveup() {
        vec![
            Kind::Pawn,
            Kind::Unicorn,
            Kind::Knight,
            Kind::Bishop,
            Kind::Rook,
            Kind::Silver,
            Kind::Wizard,
            Kind::Guard,
            Kind::Queen,
        ]
    } else {
        vec![Kind::Pawn, Kind::Knight, Kind::RUnicorn, Kind::Bishop, Kind::Rook, Kind::Queen]
    }
}

/// The default schedule of a game: pawn odds (one and two pawns), then one imbalance per
/// non-pawn kind of [`ValuesGame::measured_kinds`].
pub fn default_imbalances<G: ValuesGame>(rules: G::Rules) -> Vec<Imbalance> {
    let mut v = vec![Imbalance::pawns(1), Imbalance::pawns(2)];
    v.extend(G::measured_kinds(rules).into_iter().filter(|&k| k != Kind::Pawn).map(Imbalance::piece));
    v
}

/// The near-even schedule of a game (`fiveup values --design even`): pawn odds (one and two
/// pawns), then for every non-pawn kind of [`ValuesGame::measured_kinds`] the two matches of that
/// piece against whole numbers of pawns that bracket `value(kind)` (a prior in pawns, e.g. the
/// engine's values): `N/PPP` and `N/PPPP` for a knight of 3.5. Both score near 50%, where a logit
/// is most precise and the pawn's scale matters least (see [`super::imbalance`]). Pawn counts
/// stop at the pawns a side has.
pub fn even_imbalances<G: ValuesGame>(rules: G::Rules, value: impl Fn(Kind) -> f64) -> Vec<Imbalance> {
    let mut v = vec![Imbalance::pawns(1), Imbalance::pawns(2)];
    for kind in G::measured_kinds(rules).into_iter().filter(|&k| k != Kind::Pawn) {
        v.extend(bracket::<G>(rules, kind, value(kind)));
    }
    v
}

/// The two matches of `kind` against whole numbers of pawns that bracket `value` pawns (`N/PPP`
/// and `N/PPPP` for 3.5), the pawn counts kept within the pawns a side has.
pub fn bracket<G: ValuesGame>(rules: G::Rules, kind: Kind, value: f64) -> [Imbalance; 2] {
    let pawns = G::start_pawns(rules);
    let low = if value.is_finite() { (value.floor().max(0.0) as usize).min(pawns.saturating_sub(1)) } else { 0 };
    [low, low + 1].map(|k| Imbalance { a_lacks: vec![kind], b_lacks: vec![Kind::Pawn; k] })
}

/// The exchanges a 5x5x5 ruleset's run plays as consistency checks (`--exchanges` default of the
/// even design): pairs of pieces measured separately whose difference the exchange measures
/// directly.
pub fn default_exchanges(ruleset: Ruleset) -> Vec<Imbalance> {
    let pairs: &[(Kind, Kind)] = if ruleset.is_fiveup() {
        &[
            (Kind::Silver, Kind::Rook),
            (Kind::Wizard, Kind::Guard),
            (Kind::Knight, Kind::Bishop),
            (Kind::Guard, Kind::Queen),
        ]
    } else {
        &[(Kind::Knight, Kind::Bishop), (Kind::Rook, Kind::Bishop), (Kind::RUnicorn, Kind::Rook)]
    };
    pairs.iter().map(|&(x, y)| Imbalance::exchange(x, y)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Material of a colour: board counts per kind plus reserve pieces in hand.
    fn material(p: &Position, c: Color) -> [u32; crate::rules::types::KIND_COUNT] {
        let mut m = [0; crate::rules::types::KIND_COUNT];
        for k in Kind::ALL {
            m[k.index()] = p.pieces(c, k).count();
        }
        for k in p.reserve_kinds(c) {
            m[k.index()] += 1;
        }
        m
    }

    fn all_imbalances(rs: Ruleset) -> Vec<Imbalance> {
        let mut v = default_imbalances::<Position>(Variant::plain(rs));
        let kinds = measured_kinds(rs);
        for &x in &kinds {
            for &y in &kinds {
                if x != y {
                    v.push(Imbalance::exchange(x, y));
                }
            }
        }
        v.push(Imbalance::parse("Q/PPP", rs).unwrap());
        v.push(Imbalance::parse("RP", rs).unwrap());
        v
    }

    #[test]
    fn every_setup_is_legal_and_removes_exactly_the_named_material() {
        for rs in Ruleset::ALL {
            let v = Variant::plain(rs);
            let start = Position::startpos(v);
            for imb in all_imbalances(rs) {
                for a in Color::ALL {
                    for instance in 0..imb.instances(v) {
                        let p = imb.position(v, a, instance).unwrap_or_else(|e| panic!("{rs}: {e}"));
                        for (color, lacks) in [(a, &imb.a_lacks), (a.flip(), &imb.b_lacks)] {
                            let (before, after) = (material(&start, color), material(&p, color));
                            for k in Kind::ALL {
                                let gone = lacks.iter().filter(|&&x| x == k).count() as u32;
                                assert_eq!(before[k.index()] - after[k.index()], gone, "{rs} {imb} {a:?} {k:?}");
                            }
                        }
                        // Removed board pieces take their placement right along; no right is left
                        // on an empty cell (from_setup checks that too) and no other right is lost.
                        let lost = start.rights().count() - p.rights().count();
                        let board_removed = crate::rules::Cell::all()
                            .filter(|&c| start.piece_at(c).is_some() && p.piece_at(c).is_none())
                            .filter(|&c| start.rights().has(c))
                            .count() as u32;
                        assert_eq!(lost, board_removed, "{rs} {imb}");
                    }
                }
            }
        }
    }

    #[test]
    fn instances_are_colour_images_and_cycle() {
        let v = Variant::plain(Ruleset::FiveUp);
        let imb = Imbalance::piece(Kind::Rook);
        assert_eq!(imb.instances(v), 2);
        for i in 0..4 {
            let w = imb.position(v, Color::White, i).unwrap();
            let b = imb.position(v, Color::Black, i).unwrap();
            let gone_w =
                crate::rules::Cell::all().find(|&c| w.piece_at(c).is_none() && c.layer() == 4 && c.rank() == 0);
            let gone_b =
                crate::rules::Cell::all().find(|&c| b.piece_at(c).is_none() && c.layer() == 0 && c.rank() == 4);
            assert_eq!(gone_w.map(|c| colour_image(Ruleset::FiveUp, c)), gone_b);
        }
        let a = imb.position(v, Color::White, 0).unwrap().to_text();
        assert_ne!(a, imb.position(v, Color::White, 1).unwrap().to_text());
        assert_eq!(a, imb.position(v, Color::White, 2).unwrap().to_text());
    }

    #[test]
    fn even_schedules_bracket_the_prior_and_are_legal() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let w = crate::engine::Weights::for_ruleset(rs);
            let prior = |k: Kind| w.value(k) as f64 / 100.0;
            let imbs = even_imbalances::<Position>(Variant::plain(rs), prior);
            assert_eq!(imbs.len(), 2 + 2 * (measured_kinds(rs).len() - 1));
            for imb in &imbs[2..] {
                let (kind, pawns) = imb.measured_piece().unwrap();
                let v = prior(kind);
                assert!((pawns as f64 - v).abs() <= 1.0 || pawns == 10, "{imb} for {v}");
                for a in Color::ALL {
                    imb.position(Variant::plain(rs), a, 3).unwrap();
                }
            }
            for ex in default_exchanges(rs) {
                assert!(ex.measured_piece().is_none() && !ex.is_calibration());
                ex.position(Variant::plain(rs), Color::Black, 1).unwrap();
            }
        }
        // The Five Up queen of 9.7 is measured against 9 and all 10 pawns; no more than a side has.
        let q =
            even_imbalances::<Position>(Variant::plain(Ruleset::FiveUp), |k| if k == Kind::Queen { 12.0 } else { 0.5 });
        let texts: Vec<String> = q.iter().map(Imbalance::text).collect();
        assert!(texts.contains(&"Q/PPPPPPPPP".to_string()) && texts.contains(&"Q/PPPPPPPPPP".to_string()), "{texts:?}");
        assert!(texts.contains(&"N".to_string()) && texts.contains(&"N/P".to_string()), "{texts:?}");
    }

    #[test]
    fn reserve_pieces_leave_the_reserve() {
        let v = Variant::plain(Ruleset::FiveUp);
        let p = Imbalance::piece(Kind::Wizard).position(v, Color::Black, 0).unwrap();
        assert_eq!(p.reserve(Color::Black), 6);
        assert_eq!(p.reserve(Color::White), 7);
        assert_eq!(p.rights(), Position::startpos(v).rights());
    }

    #[test]
    fn text_round_trips_and_errors_are_named() {
        for rs in Ruleset::ALL {
            for imb in all_imbalances(rs) {
                assert_eq!(Imbalance::parse(&imb.text(), rs).unwrap(), imb);
            }
        }
        assert!(matches!(Imbalance::parse("W", Ruleset::Raumschach), Err(ImbalanceError::Kind { .. })));
        assert!(matches!(Imbalance::parse("K", Ruleset::FiveUp), Err(ImbalanceError::Kind { .. })));
        assert!(matches!(Imbalance::parse("", Ruleset::FiveUp), Err(ImbalanceError::Syntax(_))));
        assert!(matches!(Imbalance::parse("Q/R/B", Ruleset::FiveUp), Err(ImbalanceError::Syntax(_))));
        let v = Variant::plain(Ruleset::FiveUp);
        let e = Imbalance::parse("WW", Ruleset::FiveUp).unwrap().setup(v, Color::White, 0).unwrap_err();
        assert!(matches!(e, ImbalanceError::TooMany { .. }));
        let e = Imbalance::parse("QQ", Ruleset::FiveUp).unwrap().setup(v, Color::White, 0).unwrap_err();
        assert!(matches!(e, ImbalanceError::TooMany { have: 1, .. }));
        assert_eq!(Imbalance::parse("Q/PPP", Ruleset::FiveUp).unwrap().measured_piece(), Some((Kind::Queen, 3)));
        assert_eq!(Imbalance::parse("RP", Ruleset::FiveUp).unwrap().measured_piece(), Some((Kind::Rook, -1)));
        assert!(Imbalance::pawns(2).is_calibration());
        assert!(!Imbalance::exchange(Kind::Silver, Kind::Rook).is_calibration());
    }
}
