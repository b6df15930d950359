//! Property tests over random games (proptest picks the variant, the seed and the game length):
//! make/unmake round trips, the incremental hash, king safety by the reference's naive attack
//! test, bulk counting, and two symmetries (files mirrored a<->e; the cube turned through its centre
//! with the colours swapped).

use super::differential::pick;
use super::reference::RefPos;
use super::{core_texts, text, Rng, VARIANTS};
use fiveup::rules::position::EnPassant;
use fiveup::rules::{Bitboard, Cell, Move, Piece, Position, Setup};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Plays a seeded random game of `plies` plies and calls `check` on every position.
fn game(variant: usize, seed: u64, plies: usize, mut check: impl FnMut(&mut Position)) {
    let v = text::variant(VARIANTS[variant]);
    let mut pos = Position::startpos(v);
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        check(&mut pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        let m = pick(&pos, &moves, &mut rng, seed & 1 == 0);
        pos.make(m);
    }
    check(&mut pos);
}

/// A setup with every cell mapped by `f` (board, rights, en passant).
fn map_setup(s: &Setup, f: impl Fn(Cell) -> Cell, swap_colors: bool) -> Setup {
    let mut t = s.clone();
    let flip = |p: Option<Piece>| p.map(|p| if swap_colors { Piece::new(p.color.flip(), p.kind) } else { p });
    for c in Cell::all() {
        t.board[f(c).index()] = flip(s.board[c.index()]);
    }
    t.rights = s.rights.map(&f).collect();
    if s.ep.is_some() {
        let passed: Bitboard = Bitboard(s.ep.passed).map(&f).collect();
        t.ep = EnPassant { passed: passed.0, pawn: f(Cell::new(s.ep.pawn)).index() as u8 };
    }
    if swap_colors {
        t.side = s.side.flip();
        t.reserve = [s.reserve[1], s.reserve[0]];
    }
    t
}

fn map_move(m: Move, f: impl Fn(Cell) -> Cell) -> String {
    Move::new(f(m.from()), f(m.to()), m.promotion(), m.placement(), m.special()).to_string()
}

/// Asserts that the legal moves of the mapped position are the mapped legal moves.
fn assert_symmetric(pos: &Position, f: impl Fn(Cell) -> Cell + Copy, swap: bool) -> Result<(), TestCaseError> {
    let mapped = Position::from_setup(map_setup(&pos.to_setup(), f, swap)).expect("mapped position is valid");
    let want: BTreeSet<String> = pos.legal_moves().into_iter().map(|m| map_move(m, f)).collect();
    prop_assert_eq!(core_texts(&mapped), want, "in {}", text::write(&pos.to_setup()));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Every legal move: the hash stays equal to `compute_hash()`, the mover's king is safe by the
    /// reference's naive scan, and unmake restores the setup and the hash. Bulk count = list length.
    #[test]
    fn make_unmake_hash_and_king_safety(variant in 0..VARIANTS.len(), seed in any::<u64>(), plies in 0usize..120) {
        let mut failure = None;
        game(variant, seed, plies, |pos| {
            if failure.is_some() {
                return;
            }
            let moves = pos.legal_moves();
            if pos.count_legal() != moves.len() as u64 {
                failure = Some(format!("count_legal differs in {}", text::write(&pos.to_setup())));
            }
            let before = pos.to_setup();
            let hash = pos.hash();
            assert_eq!(hash, pos.compute_hash());
            let mover = pos.side();
            for m in moves {
                let u = pos.make(m);
                let after = RefPos::from_setup(&pos.to_setup());
                if after.attacked(after.king(mover), mover.flip()) {
                    failure = Some(format!("{m} leaves the king attacked in {}", text::write(&before)));
                }
                if pos.hash() != pos.compute_hash() {
                    failure = Some(format!("hash after {m} in {}", text::write(&before)));
                }
                pos.unmake(m, u);
                if pos.to_setup() != before || pos.hash() != hash {
                    failure = Some(format!("unmake {m} in {}", text::write(&before)));
                }
            }
        });
        prop_assert!(failure.is_none(), "{}", failure.unwrap_or_default());
    }

    /// Files mirrored a<->e map legal moves onto legal moves.
    #[test]
    fn mirrored_files_mirror_the_moves(variant in 0..VARIANTS.len(), seed in any::<u64>(), plies in 0usize..150) {
        let mut result = Ok(());
        game(variant, seed, plies, |pos| {
            if result.is_ok() {
                result = assert_symmetric(pos, Cell::mirror_file, false);
            }
        });
        result?;
    }

    /// The cube turned through its centre with the colours swapped maps legal moves onto legal moves.
    #[test]
    fn rotated_colour_swapped_positions_rotate_the_moves(variant in 0..VARIANTS.len(), seed in any::<u64>(), plies in 0usize..150) {
        let mut result = Ok(());
        game(variant, seed, plies, |pos| {
            if result.is_ok() {
                result = assert_symmetric(pos, Cell::rotate, true);
            }
        });
        result?;
    }
}
