//! Material that cannot force mate (step 9 of the evaluation): a side whose men are one of the
//! sets the endgame tables found unable to mate a bare king cannot win by them, so its advantage
//! is cut to a sixteenth instead of scoring a full piece or more (a +800 for K+N against K).
//!
//! The lists are the tables' verdicts (docs/ENDGAMES.md, `docs/endgames.json`): a set is listed
//! when fewer than 1% of the positions of K+set against a bare king, the stronger side to move,
//! are wins (those few are positions where the bare king is already caught). A test rebuilds the
//! one-piece tables and reads the committed figures of the two-piece ones to keep the lists true.
//! They hold for a side with no pawns and no reserve piece it can still place; the other side's
//! men do not matter (they only make mating harder, barring a self-block).

use crate::game::Color;
use crate::rules::position::Position;
use crate::rules::types::Kind::{self, Bishop, Knight, RUnicorn, Rook, Unicorn};
use crate::tablebase::Family;

/// Five Up piece sets (strongest first, as the tables name them) that cannot force mate against
/// a bare king. Besides these, two of the pieces that keep their cell's colour (bishop, unicorn)
/// on cells of one colour cannot: K+B+B, K+B+U and K+U+U win about half their positions, exactly
/// those with the two on both colours (`colour_bound_pair`).
pub const FIVEUP_NO_MATE: &[&[Kind]] = &[&[Rook], &[Bishop], &[Knight], &[Unicorn], &[Knight, Knight]];

/// Raumschach piece sets that cannot force mate against a bare king: every set of one or two
/// without a queen.
pub const RAUMSCHACH_NO_MATE: &[&[Kind]] = &[
    &[Rook],
    &[Bishop],
    &[Knight],
    &[RUnicorn],
    &[Rook, Rook],
    &[Rook, Bishop],
    &[Rook, Knight],
    &[Rook, RUnicorn],
    &[Bishop, Bishop],
    &[Bishop, Knight],
    &[Bishop, RUnicorn],
    &[Knight, Knight],
    &[Knight, RUnicorn],
    &[RUnicorn, RUnicorn],
];

/// Whether `side`'s men cannot force mate: no pawns, no reserve piece it can still place, and its
/// pieces besides the king one of the listed sets.
#[inline]
pub(crate) fn cannot_force_mate(pos: &Position, side: Color) -> bool {
    let own = pos.color_bb(side).0;
    let men = own.count_ones();
    // One or two pieces besides the king; no pawn.
    if !(2..=3).contains(&men) || pos.pieces(side, Kind::Pawn).0 != 0 {
        return false;
    }
    no_mate_set(pos, side)
}

/// Whether `side`'s two pieces are Five Up bishops or unicorns (which keep their cell's colour)
/// on cells of one colour: never a forced mate (the tables: every won K+B+B, K+B+U and K+U+U
/// position in a sample of 300 each, but one, had them on both colours).
fn colour_bound_pair(pos: &Position, side: Color) -> bool {
    let bound = pos.pieces(side, Bishop) | pos.pieces(side, Unicorn);
    let mut cells = bound;
    match (cells.next(), cells.next(), cells.next()) {
        (Some(a), Some(b), None) => pos.color_bb(side).count() == 3 && a.parity() == b.parity(),
        _ => false,
    }
}

#[inline(never)]
fn no_mate_set(pos: &Position, side: Color) -> bool {
    if pos.can_place(side) {
        return false;
    }
    let fiveup = pos.ruleset().is_fiveup();
    if fiveup && colour_bound_pair(pos, side) {
        return true;
    }
    let mut kinds: Vec<Kind> =
        pos.color_bb(side).filter_map(|c| pos.piece_at(c).map(|p| p.kind)).filter(|&k| k != Kind::King).collect();
    // In the tables' letter order, as the lists are written.
    let family = Family::of(pos.ruleset());
    kinds.sort_by_key(|&k| family.rank(k).unwrap_or(usize::MAX));
    let list = if fiveup { FIVEUP_NO_MATE } else { RAUMSCHACH_NO_MATE };
    list.contains(&kinds.as_slice())
}

/// `score` (the side to move's view) with the advantage of a side that cannot force mate cut to a
/// sixteenth.
#[inline]
pub(crate) fn scale_drawn_to_move(pos: &Position, score: i32) -> i32 {
    let sign = if pos.side() == Color::White { 1 } else { -1 };
    sign * scale_drawn(pos, sign * score)
}

/// `score` (white's view) with the advantage of a side that cannot force mate cut to a sixteenth.
#[inline]
pub(crate) fn scale_drawn(pos: &Position, score: i32) -> i32 {
    if (score > 0 && cannot_force_mate(pos, Color::White)) || (score < 0 && cannot_force_mate(pos, Color::Black)) {
        score / 16
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{evaluate, Weights};
    use crate::rules::{Ruleset, Variant};
    use crate::tablebase::{build, file::SideStats, Family, Material};
    use std::sync::atomic::AtomicBool;

    fn listed(family: Family, kinds: &[Kind]) -> bool {
        let list = if family.is_fiveup() { FIVEUP_NO_MATE } else { RAUMSCHACH_NO_MATE };
        list.contains(&kinds)
    }

    /// The verdict the lists encode: under 1% of the positions won with the stronger side to move.
    fn no_mate(stronger_to_move: &SideStats) -> bool {
        stronger_to_move.verdict() == "drawn"
    }

    #[test]
    fn the_one_piece_lists_are_the_tables_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        for family in [Family::FiveUp, Family::Raumschach] {
            let all = Material::all_of(family, 3);
            let reports = build(dir.path(), &all, false, &AtomicBool::new(false), |_| {}).unwrap();
            for r in reports {
                assert_eq!(listed(family, &r.material.white), no_mate(&r.stats.white), "{family} {}", r.material);
            }
        }
    }

    #[test]
    fn the_two_piece_lists_are_the_published_verdicts() {
        let text = include_str!("../../../docs/endgames.json");
        let mut seen = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let family = if v["family"] == "fiveup" { Family::FiveUp } else { Family::Raumschach };
            let m = Material::parse(family, v["material"].as_str().unwrap()).unwrap();
            if !m.black.is_empty() || m.white.len() != 2 {
                continue;
            }
            let w: SideStats = serde_json::from_value(v["white_to_move"].clone()).unwrap();
            assert_eq!(listed(family, &m.white), no_mate(&w), "{family} {m}");
            seen += 1;
        }
        // Every two-piece set of both games: 36 Five Up, 15 Raumschach.
        assert_eq!(seen, 51);
    }

    #[test]
    fn two_bishops_on_one_colour_score_as_nearly_drawn_and_on_both_as_winning() {
        let w = Weights::for_ruleset(Ruleset::FiveUp);
        let v = Variant::plain(Ruleset::FiveUp);
        // Bishops on Cb3 and Cd3 (one colour), then on Cb3 and Cc3 (both).
        let same = Position::from_text("5/5/5/5/K4|5/5/5/5/5|5/5/1B1B1/5/5|5/5/5/5/5|5/5/5/5/4k w - - - 0 1", v);
        let both = Position::from_text("5/5/5/5/K4|5/5/5/5/5|5/5/1BB2/5/5|5/5/5/5/5|5/5/5/5/4k w - - - 0 1", v);
        let (s, b) = (evaluate(&same.unwrap(), &w), evaluate(&both.unwrap(), &w));
        assert!(s.abs() < 80, "K+B+B on one colour scores {s}");
        assert!(b > 500, "K+B+B on both colours scores {b}");
    }

    #[test]
    fn a_knight_against_a_bare_king_scores_as_nearly_drawn_and_a_queen_does_not() {
        let w = Weights::for_ruleset(Ruleset::Raumschach);
        let v = Variant::plain(Ruleset::Raumschach);
        let knight = Position::from_text("5/5/5/5/K4|5/5/2N2/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4k w - - - 0 1", v);
        let queen = Position::from_text("5/5/5/5/K4|5/5/2Q2/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4k w - - - 0 1", v);
        let (n, q) = (evaluate(&knight.unwrap(), &w), evaluate(&queen.unwrap(), &w));
        assert!(n.abs() < 60, "K+N v K scores {n}");
        assert!(q > 500, "K+Q v K scores {q}");
    }
}
