//! Independent verification of the rules core against a naive reference implementation.
//!
//! - [`reference`]: the naive mailbox implementation of docs/RULES.md;
//! - [`text`]: a test-only position text reader/writer;
//! - [`differential`]: random games in every ruleset and flag combination, move sets compared at
//!   every position, features counted;
//! - [`properties`]: proptest invariants over random games;
//! - [`figures`]: the seed text's figures and games;
//! - [`perft_data`]: `tests/perft.txt` checked against the core (and the reference, cheaply).

mod differential;
mod figures;
mod perft_data;
mod properties;
mod reference;
mod text;

use fiveup::rules::{Move, Position, Setup};
use reference::RefPos;
use std::collections::BTreeSet;

/// Every ruleset and flag combination the rules allow.
pub const VARIANTS: [&str; 8] = [
    "fiveup",
    "fiveup+castling",
    "fiveup+hypercylinder",
    "fiveup-2001",
    "fiveup-2001+castling",
    "fiveup-2001+hypercylinder",
    "raumschach",
    "raumschach+hypercylinder",
];

/// The crate's small deterministic generator (SplitMix64).
pub use fiveup::rng::SplitMix64 as Rng;

/// The core's legal moves as coordinate texts; asserts there are no duplicates.
pub fn core_texts(pos: &Position) -> BTreeSet<String> {
    let moves = pos.legal_moves();
    let set: BTreeSet<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {}", text::write(&pos.to_setup()));
    set
}

/// Asserts that core and reference agree on the legal moves of `pos`; returns the reference and
/// its legal moves.
pub fn assert_same_moves(pos: &Position) -> (RefPos, Vec<reference::RMove>) {
    let r = RefPos::from_setup(&pos.to_setup());
    let legal = r.legal_moves();
    let want: BTreeSet<String> = legal.iter().map(|m| m.text()).collect();
    let got = core_texts(pos);
    if want != got {
        panic!(
            "move sets differ in {} ({})\n  core only: {:?}\n  reference only: {:?}",
            text::write(&pos.to_setup()),
            pos.variant(),
            got.difference(&want).collect::<Vec<_>>(),
            want.difference(&got).collect::<Vec<_>>()
        );
    }
    (r, legal)
}

/// Compares the parts of two setups the rules care about (board, side, reserve, rights, ep).
pub fn same_state(a: &Setup, b: &Setup) -> bool {
    a.board == b.board && a.side == b.side && a.reserve == b.reserve && a.rights == b.rights && a.ep == b.ep
}

/// The core move whose text is `text`; panics if it is not legal.
pub fn find_move(pos: &Position, text: &str) -> Move {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", text::write(&pos.to_setup())))
}
