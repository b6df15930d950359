//! The endgame tables against the alpha-beta engine and a brute-force search (both over the rules
//! core, independent of the tables' builder), and the engine's use of the tables.

use crate::engine::{Engine, EngineConfig, Limits, Weights};
use crate::rules::{Position, Ruleset};
use crate::tablebase::tests::{built, positions_of};
use crate::tablebase::{Dtm, Family, Material, Tablebases};

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
