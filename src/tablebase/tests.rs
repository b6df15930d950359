//! The tables' finding in either colour, the file and folder handling, and resuming builds
//! (their check against the engine and a brute-force search: `engine::tablebase_tests`).

use super::*;
use crate::rules::{Piece, Ruleset, Setup, Variant};
use std::sync::atomic::AtomicBool;

/// Builds `materials` of `family` into a new folder; returns it with the reports.
pub(crate) fn built(family: Family, materials: &[&str]) -> (tempfile::TempDir, Vec<BuildReport>) {
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
pub(crate) fn positions_of(table: &Table) -> impl Iterator<Item = (Position, Dtm)> + '_ {
    (0..table.values.len()).filter_map(move |i| {
        let v = Dtm::from_code(table.values.get(i))?;
        Some((table.position(i).expect("an entry with a value is a position"), v))
    })
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
    let first = build(dir.path(), std::slice::from_ref(&kq), false, &stop, |_| {}).unwrap();
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
    assert!(build(dir.path(), std::slice::from_ref(&kr), false, &stopped, |_| {}).is_err());
    assert!(!file::path_in(dir.path(), &kr).exists());
}
