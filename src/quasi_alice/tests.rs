//! Perft tables and rule cases of 4D Quasi-Alice Chess.

use super::*;
use crate::game::perft::perft;

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn start_perft_matches_the_contract() {
    let mut p = Position::start();
    assert_eq!(perft(&mut p, 1), 60);
    assert_eq!(perft(&mut p, 2), 3_600);
    assert_eq!(perft(&mut p, 3), 247_284);
}

#[test]
fn start_text_round_trips() {
    assert_eq!(Position::start().to_text(), START);
}
