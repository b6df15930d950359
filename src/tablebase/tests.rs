//! Tables checked against the alpha-beta engine (an independent search over the rules core),
//! the file and folder handling, and the engine's use of the tables.

use super::*;
use crate::engine::{Engine, EngineConfig, Limits, Weights};
use crate::rules::{Piece, Ruleset, Setup, Variant};
use std::sync::atomic::AtomicBool;

/// Builds `materials` of `family` into a new folder; returns it with the reports.
fn built(family: Family, materials: &[&str]) -> (tempfile::TempDir, Vec<BuildReport>) {
    let dir = tempfile::tempdir().unwrap();
    let wanted: Vec<Material> = materials.iter().map(|m| Material::parse(family, m).unwrap()).collect();
    let reports = build(dir.path(), &wanted, false, &AtomicBool::new(false), |_| {}).unwrap();
    (dir, reports)
}

fn position(ruleset: Ruleset, men: &[(Color, Kind, &str)], side: Color) -> Position {
    let mut s = Setup { side, ..Setup::empty(Variant::plain(ruleset)) };
    for &(c, k, cell) in men {
        s.board[cell.parse::<crate::rules::Cell>().unwrap().index()] = Some(Piece::new(c, k));
    }
    Position::from_setup(s).unwrap()
}

/// Every canonical position of a table with its value, as positions of the rules core.
fn positions_of(table: &Table) -> impl Iterator<Item = (Position, Dtm)> + '_ {
    let n = table.layout.men();
    let variant = Variant::plain(table.family().ruleset());
    (0..table.values.len()).filter_map(move |i| {
        let v = Dtm::from_code(table.values.get(i))?;
        let mut cells = [0u8; MAX_MEN];
        let side = index::decode(i, &mut cells[..n]);
        let mut s = Setup { side, ..Setup::empty(variant) };
        for (k, &(c, kind)) in table.layout.slots.iter().enumerate() {
            s.board[cells[k] as usize] = Some(Piece::new(c, kind));
        }
        Some((Position::from_setup(s).unwrap(), v))
    })
}

/// Whether the side to move mates within `plies` plies (odd), by brute force over the rules
/// core: no pruning, no tables.
fn mates_within(pos: &Position, plies: u16) -> bool {
    plies > 0 && crate::game::legal_moves(pos).into_iter().any(|m| is_mated_within(&pos.after(m), plies - 1))
}

/// Whether the side to move is mated within `plies` plies (even), by brute force.
fn is_mated_within(pos: &Position, plies: u16) -> bool {
    let moves = crate::game::legal_moves(pos);
    if moves.is_empty() {
        return pos.in_check();
    }
    plies > 0 && moves.into_iter().all(|m| mates_within(&pos.after(m), plies - 1))
}

#[test]
fn short_mates_agree_with_a_brute_force_search_and_longer_ones_with_the_engine() {
    let (dir, _) = built(Family::Raumschach, &["KQvK"]);
    let tb = Tablebases::open(dir.path()).unwrap();
    let m = Material::parse(Family::Raumschach, "KQvK").unwrap();
    let table = tb.table(&m).unwrap();
    let mut engine = Engine::new(Weights::for_ruleset(Ruleset::Raumschach), EngineConfig::default());
    let (mut brute, mut long, mut found, mut draws) = (0, 0, 0, 0);
    // Every 31st position: a spread over the kings' and the queen's cells and both sides to move.
    for (pos, v) in positions_of(&table).step_by(31) {
        let text = pos.to_text();
        match v {
            // Mates in one and two, and losses within two plies: exactly, by brute force.
            Dtm::Win(n) if n <= 3 && brute < 40 => {
                brute += 1;
                assert!(mates_within(&pos, n), "{text}: no mate in {n} plies");
                assert!(n == 1 || !mates_within(&pos, n - 2), "{text}: a mate faster than {n} plies");
            }
            Dtm::Loss(n) if n <= 2 && brute < 40 => {
                brute += 1;
                assert!(is_mated_within(&pos, n), "{text}: not mated within {n} plies");
                assert!(n == 0 || !is_mated_within(&pos, n - 2), "{text}: mated faster than {n} plies");
            }
            // Longer mates: a mate the engine finds is proved, so it cannot be faster.
            Dtm::Win(n) if (5..=7).contains(&n) && long < 30 => {
                long += 1;
                let r = engine.search(&pos, &[], &Limits::depth(n as u32 + 1), None, |_| {});
                assert!(
                    r.score.0 <= crate::engine::score::mate_in(n as usize),
                    "{text}: mate in {n} plies, search {}",
                    r.score
                );
                found += usize::from(r.score.is_mate() && r.score.0 > 0);
            }
            // Draws: neither the engine finds a mate for either side.
            Dtm::Draw if draws < 20 => {
                draws += 1;
                let r = engine.search(&pos, &[], &Limits::depth(5), None, |_| {});
                assert!(!r.score.is_mate(), "{text}: a draw, search {}", r.score);
            }
            _ => {}
        }
    }
    assert!(brute == 40 && long == 30 && draws == 20, "{brute} short, {long} long, {draws} drawn positions checked");
    assert!(found >= 15, "the engine found {found} of 30 mates in 3 and 4");
}

#[test]
fn a_position_is_found_in_either_colour_and_reserves_still_to_place_are_not_covered() {
    let (dir, reports) = built(Family::FiveUp, &["KQvK"]);
    assert_eq!(reports.len(), 1);
    let tb = Tablebases::open(dir.path()).unwrap();
    let w = position(
        Ruleset::FiveUp,
        &[(Color::White, Kind::King, "Aa1"), (Color::White, Kind::Queen, "Cc3"), (Color::Black, Kind::King, "Ee5")],
        Color::White,
    );
    let b = position(
        Ruleset::FiveUp,
        &[(Color::Black, Kind::King, "Aa1"), (Color::Black, Kind::Queen, "Cc3"), (Color::White, Kind::King, "Ee5")],
        Color::Black,
    );
    let v = tb.probe(&w).unwrap();
    assert!(matches!(v, Dtm::Win(_)), "{v:?}");
    assert_eq!(tb.probe(&b), Some(v));
    // The 2001 text plays the same endings.
    let old = Position::from_text(&w.to_text(), Variant::plain(Ruleset::FiveUp2001)).unwrap();
    assert_eq!(tb.probe(&old), Some(v));
    // A reserve piece white can still place: material the tables do not hold.
    let mut s = w.to_setup();
    s.reserve = [1, 0];
    s.rights = s.rights.with("Aa1".parse().unwrap());
    let placing = Position::from_setup(s).unwrap();
    assert_eq!(tb.probe(&placing), None);
    // The same reserve without a right left to place it: the tables hold the position.
    let mut s = w.to_setup();
    s.reserve = [1, 0];
    assert_eq!(tb.probe(&Position::from_setup(s).unwrap()), Some(v));
    // No table for KRvK in this folder; two bare kings are a draw without one.
    let r = position(
        Ruleset::FiveUp,
        &[(Color::White, Kind::King, "Aa1"), (Color::White, Kind::Rook, "Cc3"), (Color::Black, Kind::King, "Ee5")],
        Color::White,
    );
    assert_eq!(tb.probe(&r), None);
}

#[test]
fn the_engine_plays_the_tables_fastest_mate_and_scores_it_exactly() {
    let (dir, _) = built(Family::Raumschach, &["KQvK"]);
    let tb = Tablebases::open_shared(dir.path()).unwrap();
    let m = Material::parse(Family::Raumschach, "KQvK").unwrap();
    let table = tb.table(&m).unwrap();
    // A long win: the search alone at depth 2 cannot see its mate.
    let (pos, v) = positions_of(&table).find(|(_, v)| matches!(v, Dtm::Win(n) if *n >= 11)).unwrap();
    let Dtm::Win(n) = v else { unreachable!() };
    let mut engine = Engine::new(Weights::for_ruleset(Ruleset::Raumschach), EngineConfig::default());
    let plain = engine.search(&pos, &[], &Limits::depth(2), None, |_| {});
    assert!(!plain.score.is_mate());
    engine.set_tablebases(Some(tb.clone()));
    let r = engine.search(&pos, &[], &Limits::depth(2), None, |_| {});
    assert_eq!(r.score.0, crate::engine::score::mate_in(n as usize), "{}", pos.to_text());
    let best = r.best.unwrap();
    assert_eq!(tb.probe(&pos.after(best)), Some(Dtm::Loss(n - 1)), "the move keeps the fastest mate");
}

#[test]
fn a_damaged_table_is_reported_and_not_used() {
    let (dir, _) = built(Family::Raumschach, &["KQvK"]);
    let path = file::path_in(dir.path(), &Material::parse(Family::Raumschach, "KQvK").unwrap());
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebases::open(dir.path()).unwrap();
    let pos = position(
        Ruleset::Raumschach,
        &[(Color::White, Kind::King, "Aa1"), (Color::White, Kind::Queen, "Cc3"), (Color::Black, Kind::King, "Ee4")],
        Color::White,
    );
    assert_eq!(tb.probe(&pos), None);
    let d = tb.damaged();
    assert!(d.len() == 1 && d[0].contains("checksum mismatch"), "{d:?}");
    // A build over it refuses the damaged file instead of trusting or replacing it.
    let want = [Material::parse(Family::Raumschach, "KQQvK").unwrap()];
    let e = build(dir.path(), &want, false, &AtomicBool::new(false), |_| {}).unwrap_err().to_string();
    assert!(e.contains("checksum mismatch") && e.contains("delete it"), "{e}");
    assert!(Tablebases::open(&dir.path().join("missing")).is_err());
}

#[test]
fn a_build_resumes_keeping_the_tables_already_written() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let kq = Material::parse(Family::Raumschach, "KQvK").unwrap();
    let first = build(dir.path(), &[kq.clone()], false, &stop, |_| {}).unwrap();
    assert!(first[0].built);
    let path = file::path_in(dir.path(), &kq);
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    let again = build(dir.path(), &[kq], false, &stop, |_| {}).unwrap();
    assert!(!again[0].built);
    assert_eq!(again[0].stats, first[0].stats);
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), before);
    // A stop request ends a build at once, writing nothing.
    let stopped = AtomicBool::new(true);
    let kr = Material::parse(Family::Raumschach, "KRvK").unwrap();
    assert!(build(dir.path(), &[kr.clone()], false, &stopped, |_| {}).is_err());
    assert!(!file::path_in(dir.path(), &kr).exists());
}
