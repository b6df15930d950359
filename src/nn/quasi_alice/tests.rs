//! The neural encoding of 4D Quasi-Alice Chess on random games and set-up positions: the shared
//! checks of every [`NetGame`] ([`crate::nn::testutil`]) plus the game's own planes and moves.

use super::encode::*;
use super::policy::*;
use super::symmetry::{BoardSymmetry, ALL, FIXING_BOARD_ONE};
use super::{CELLS, INPUT_SIZE};
use crate::game::legal_moves;
use crate::nn::netgame::{encode, legal_policy, move_to_index, GameSymmetry, NetGame};
use crate::nn::testutil::{check_policy_map, check_symmetries, random_games, MapSeen};
use crate::nn::{EvalCache, EvalInput, Evaluator, NetworkEvaluator, UniformEvaluator, ZeroBackend};
use crate::quasi_alice::{Flag, Kind, Move, Position};
use crate::rng::SplitMix64;

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Set-up positions for the rare moves: under-promotions with captures, castling both ways,
/// en passant, a king capturing on landing.
const SET_UPS: [&str; 4] = [
    "3r4/4P3/8/8/8/8/8/4K3|k7/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQkq - 0 1",
    "8/8/8/8/8/8/8/4K3|4k3/8/8/3pP3/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - 2d6 0 1",
    "8/8/8/3p4/4K3/8/8/8|7k/8/8/3n4/8/8/8/7r|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 5 1",
];

fn positions() -> Vec<Position> {
    let mut v = random_games(&Position::start(), 11, 6, 120);
    v.extend(SET_UPS.iter().map(|t| pos(t)));
    // The set-ups with black to move too (the board flipped is another legal position).
    v.push(pos("4k3/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7|8/8/8/8/8/8/4p3/3R4 b - - 0 1"));
    v
}

#[test]
fn shapes_and_sizes() {
    assert_eq!(<Position as NetGame>::SHAPE, [4, 8, 8]);
    assert_eq!(<Position as NetGame>::PLANES, 25);
    assert_eq!(<Position as NetGame>::INPUT_SIZE, 6400);
    assert_eq!(<Position as NetGame>::POLICY_CHANNELS, 292);
    assert_eq!(<Position as NetGame>::POLICY_SIZE, 74_752);
    assert_eq!(encode(&Position::start(), 0).len(), INPUT_SIZE);
}

fn at(planes: &[f32], p: usize, board: usize, square: &str) -> f32 {
    let sq = crate::quasi_alice::board::parse_square(square.as_bytes()).unwrap();
    planes[p * CELLS + board * 64 + sq]
}

fn plane_sum(planes: &[f32], p: usize) -> f32 {
    planes[p * CELLS..(p + 1) * CELLS].iter().sum()
}

#[test]
fn start_planes_in_both_frames() {
    let white = Position::start();
    let e = encode(&white, 1);
    assert_eq!(at(&e, PLANE_OWN_PIECES, 0, "e2"), 1.0);
    assert_eq!(at(&e, PLANE_OWN_PIECES + Kind::King as usize, 0, "e1"), 1.0);
    assert_eq!(at(&e, PLANE_THEIR_PIECES + Kind::King as usize, 0, "e8"), 1.0);
    assert_eq!(plane_sum(&e, PLANE_OWN_PIECES), 8.0);
    for p in [PLANE_CASTLING, PLANE_CASTLING + 1, PLANE_CASTLING + 2, PLANE_CASTLING + 3, PLANE_REPETITION, PLANE_ONES]
    {
        assert_eq!(plane_sum(&e, p), 256.0, "plane {p}");
    }
    for p in [PLANE_REPETITION + 1, PLANE_HALFMOVE, PLANE_BLACK, PLANE_EP] {
        assert_eq!(plane_sum(&e, p), 0.0, "plane {p}");
    }
    for p in [PLANE_OWN_KING_BOARD, PLANE_THEIR_KING_BOARD, PLANE_CASTLING_BOARD] {
        assert_eq!(plane_sum(&e, p), 64.0);
        assert_eq!(at(&e, p, 0, "a1"), 1.0);
    }
    // After 1e2e4>3 black sees its pawns on frame rank 2 and the en passant cell 3e3 as 3e6.
    let mut black = white.clone();
    black.make(black.parse_move("1e2e4>3").unwrap());
    let b = encode(&black, 0);
    assert_eq!(at(&b, PLANE_OWN_PIECES, 0, "d2"), 1.0);
    assert_eq!(at(&b, PLANE_OWN_PIECES + Kind::King as usize, 0, "e1"), 1.0);
    assert_eq!(at(&b, PLANE_THEIR_PIECES, 2, "e5"), 1.0);
    assert_eq!(at(&b, PLANE_EP, 2, "e6"), 1.0);
    assert_eq!(plane_sum(&b, PLANE_EP), 1.0);
    assert_eq!(plane_sum(&b, PLANE_BLACK), 256.0);
    // Black's start looks like white's, but for the moved pawn and the colour.
    let mirror_start = pos(&Position::start().to_text().replace(" w ", " b "));
    let m = encode(&mirror_start, 1);
    assert_eq!(&m[..PLANE_BLACK * CELLS], &e[..PLANE_BLACK * CELLS]);
    // Castling planes without rights, the castling board empty with them.
    let no_rights = encode(&pos(SET_UPS[0]), 0);
    assert_eq!(plane_sum(&no_rights, PLANE_CASTLING_BOARD), 0.0);
    assert_eq!(at(&no_rights, PLANE_THEIR_KING_BOARD, 1, "h8"), 1.0);
    assert_eq!(plane_sum(&no_rights, PLANE_THEIR_KING_BOARD), 64.0);
}

#[test]
fn every_legal_move_has_a_distinct_index_that_decodes_back() {
    let mut seen = MapSeen::default();
    let (mut under, mut castle, mut ep, mut double, mut far) = (0, 0, 0, 0, 0);
    for (i, p) in positions().iter().enumerate() {
        check_policy_map(p, i % 40 == 0, &mut seen);
        for m in legal_moves(p) {
            under += matches!(m.promotion(), Some(k) if k != Kind::Queen) as usize;
            castle += (m.flag() == Flag::Castle) as usize;
            ep += (m.flag() == Flag::EnPassant) as usize;
            double += (m.flag() == Flag::DoubleStep) as usize;
            let ty = move_type(p.side(), m).unwrap();
            far += (ty < QUEEN_TYPES && ty % 7 >= 4) as usize;
        }
    }
    assert!(seen.moves > 10_000, "{seen:?}");
    assert!(under >= 6 && castle >= 2 && ep >= 1 && double > 0 && far > 0, "{under} {castle} {ep} {double} {far}");
}

#[test]
fn index_layout() {
    let p = Position::start();
    // 1e2e4>3: north two squares from 1e2, destination board 3.
    let m = p.parse_move("1e2e4>3").unwrap();
    let e2 = 12;
    assert_eq!(move_to_index(&p, m).main as usize, flat(1, 2, 0, e2));
    // Black's 1e7e5>2 is the same move in its frame.
    let mut q = p.clone();
    q.make(p.parse_move("1d2d4>2").unwrap());
    let m = q.parse_move("1e7e5>2").unwrap();
    assert_eq!(move_to_index(&q, m).main as usize, flat(1, 1, 0, e2));
    // A knight leap and an under-promotion.
    let n = p.parse_move("1g1f3>4").unwrap();
    assert_eq!(move_to_index(&p, n).main as usize, flat(TYPE_KNIGHT + 7, 3, 0, 6));
    let s = pos(SET_UPS[0]);
    let r = s.parse_move("1e7d8r>2").unwrap();
    assert_eq!(move_to_index(&s, r).main as usize, flat(TYPE_UNDER + 6, 1, 0, 52));
    let q8 = s.parse_move("1e7e8q>2").unwrap();
    assert_eq!(move_to_index(&s, q8).main as usize, flat(0, 1, 0, 52));
    // Non-canonical or out-of-range indices decode to nothing.
    let moves = legal_moves(&s);
    let mut idx = move_to_index(&s, q8);
    idx.promotion = Some(0);
    assert_eq!(s.index_to_move_in(&moves, idx), None);
    let idx = crate::nn::PolicyIndex { main: POLICY_SIZE as u32, placement: None, promotion: None };
    assert_eq!(s.index_to_move_in(&moves, idx), None);
    // A move off the board's edge.
    let idx = crate::nn::PolicyIndex { main: flat(6, 1, 0, 52) as u32, placement: None, promotion: None };
    assert_eq!(s.index_to_move_in(&moves, idx), None);
}

#[test]
fn symmetries_commute_with_rules_encoding_and_policy() {
    let mut rng = SplitMix64::new(5);
    let mut logits = vec![0.0f32; POLICY_SIZE];
    let (mut with_rights, mut without) = (0, 0);
    for (j, p) in positions().iter().enumerate() {
        if j % 10 != 0 && j < 720 {
            continue;
        }
        logits.iter_mut().for_each(|x| *x = (rng.next_u64() % 4000) as f32 / 1000.0 - 2.0);
        check_symmetries(p, (j % 3) as u32, &logits);
        match p.symmetries().len() {
            FIXING_BOARD_ONE => with_rights += 1,
            48 => without += 1,
            n => panic!("{n} symmetries"),
        }
    }
    assert!(with_rights > 3 && without > 3, "{with_rights} {without}");
}

#[test]
fn castling_rights_fix_board_one_and_forbid_the_mirror() {
    let p = pos(SET_UPS[1]);
    assert_eq!(p.symmetries(), &ALL[..FIXING_BOARD_ONE]);
    // The mirror would move the castling king to d1: not a symmetry of this position.
    let mirrored = BoardSymmetry { boards: [0, 1, 2, 3], mirror: true };
    assert!(std::panic::catch_unwind(|| mirrored.apply_position(&p)).is_err());
    let no_rights = pos(SET_UPS[2]);
    assert_eq!(no_rights.symmetries().len(), 48);
}

#[test]
fn the_evaluators_serve_the_game() {
    let ps = random_games(&Position::start(), 3, 2, 30);
    let moves: Vec<Vec<Move>> = ps.iter().map(legal_moves).collect();
    let batch: Vec<EvalInput<'_, Position>> = ps.iter().zip(&moves).map(|(p, m)| EvalInput::new(p, 0, m)).collect();
    let mut net = EvalCache::new(NetworkEvaluator::<_, Position>::for_game(ZeroBackend), 1 << 16);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    net.evaluate(&batch, &mut a).unwrap();
    UniformEvaluator::new().evaluate(&batch, &mut b).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.policy.len(), y.policy.len());
        assert!(x.policy.iter().zip(&y.policy).all(|(p, q)| (p - q).abs() < 1e-6));
    }
    net.evaluate(&batch, &mut a).unwrap();
    assert_eq!(net.stats().hits, batch.len() as u64);
    // A softmax over fixed logits: the gathered priors equal the full-output softmax.
    struct Fixed;
    impl crate::nn::Backend for Fixed {
        fn compute(
            &mut self,
            input: &[f32],
            n: usize,
            gather: &[i64],
            out: &mut crate::nn::BackendOutput,
        ) -> Result<(), crate::nn::EvalError> {
            assert_eq!(input.len(), n * INPUT_SIZE);
            out.policy.iter_mut().zip(gather).for_each(|(x, &g)| *x = (g % 97) as f32 / 20.0);
            Ok(())
        }
        fn name(&self) -> String {
            "fixed".into()
        }
    }
    let mut fixed = NetworkEvaluator::<_, Position>::for_game(Fixed);
    fixed.evaluate(&batch, &mut a).unwrap();
    let mut want = Vec::new();
    for (j, (inp, e)) in batch.iter().zip(&a).enumerate() {
        let full: Vec<f32> = (0..POLICY_SIZE).map(|k| ((j * POLICY_SIZE + k) % 97) as f32 / 20.0).collect();
        legal_policy(inp.position, inp.moves, &full, &mut want);
        assert_eq!(e.policy, want);
    }
    assert_eq!(Evaluator::<Position>::name(&fixed), "fixed");
    // A backend of the 5x5x5 network under this game's evaluator is refused, not fed.
    struct FiveUpSized;
    impl crate::nn::Backend for FiveUpSized {
        fn compute(
            &mut self,
            _: &[f32],
            _: usize,
            _: &[i64],
            _: &mut crate::nn::BackendOutput,
        ) -> Result<(), crate::nn::EvalError> {
            panic!("fed planes of another game")
        }
        fn name(&self) -> String {
            "five".into()
        }
        fn sizes(&self) -> Option<(usize, usize)> {
            Some((crate::nn::INPUT_SIZE, crate::nn::POLICY_SIZE))
        }
    }
    let e = NetworkEvaluator::<_, Position>::for_game(FiveUpSized).evaluate(&batch, &mut a).unwrap_err();
    assert!(e.0.contains("quasi-alice needs 6400 and 74752"), "{e}");
}

#[test]
fn the_identity_changes_nothing() {
    let p = pos(SET_UPS[2]);
    let q = BoardSymmetry::IDENTITY.apply_position(&p);
    assert_eq!(q.to_text(), p.to_text());
}
