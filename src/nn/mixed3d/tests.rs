//! The neural encoding of Mixed 3D Chess on random games and set-up positions: the shared checks
//! of every [`NetGame`] ([`crate::nn::testutil`]) plus the game's own planes and moves.

use super::encode::*;
use super::policy::*;
use super::symmetry::MirrorSymmetry;
use super::{CELLS, INPUT_SIZE};
use crate::game::legal_moves;
use crate::mixed3d::geometry::parse_cell;
use crate::mixed3d::{Flag, Kind, Position};
use crate::nn::netgame::{encode, move_to_index, GameSymmetry, NetGame, PolicyIndex};
use crate::nn::testutil::{check_policy_map, check_symmetries, random_games, MapSeen};
use crate::nn::{EvalCache, EvalInput, Evaluator, NetworkEvaluator, UniformEvaluator, ZeroBackend};
use crate::rng::SplitMix64;

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

const EMPTY: &str = "8/8/8/8/8/8/8/8";

/// A position from its eight levels and the rest of the text.
fn levels(ls: [&str; 8], rest: &str) -> Position {
    pos(&format!("{} {rest}", ls.join("|")))
}

/// Set-up positions for the rare moves: under-promotions capturing across files and levels (for
/// either colour), all six castlings a side, en passant from another level.
fn set_ups() -> Vec<Position> {
    let e = EMPTY;
    vec![
        levels(
            ["8/8/8/8/8/8/8/K7", e, e, "3r4/4P3/8/8/8/8/8/8", "4r3/8/8/8/8/8/8/8", e, e, "7k/8/8/8/8/8/8/8"],
            "w - - 0 1",
        ),
        levels(
            ["r6r/8/8/8/8/8/8/R6R", e, e, "r3k2r/8/8/8/8/8/8/R3K2R", e, e, "7r/8/8/8/8/8/8/7R", "r7/8/8/8/8/8/8/R7"],
            "w 4h1,1h1,7h1,4a1,8a1,1a1,4h8,1h8,7h8,4a8,8a8,1a8 - 0 1",
        ),
        levels(
            ["8/8/8/8/8/8/8/K7", e, e, "8/8/8/3P4/8/8/8/8", "8/8/8/3p4/8/8/8/8", e, e, "7k/8/8/8/8/8/8/8"],
            "w - 5d6 0 1",
        ),
        levels(
            ["K7/8/8/8/8/8/8/8", e, e, e, "8/8/8/8/8/8/3p4/2R5", "8/8/8/8/8/8/8/3R4", e, "8/8/8/8/8/8/8/7k"],
            "b - - 0 1",
        ),
    ]
}

fn positions() -> Vec<Position> {
    let mut v = random_games(&Position::start(), 13, 3, 150);
    // Random games from a set-up without castling rights reach positions with every mirror.
    v.extend(random_games(&set_ups()[0], 3, 2, 40));
    v.extend(random_games(&set_ups()[1], 4, 2, 40));
    v.extend(set_ups());
    v
}

fn at(planes: &[f32], p: usize, cell: &str) -> f32 {
    planes[p * CELLS + parse_cell(cell.as_bytes()).unwrap()]
}

fn plane_sum(planes: &[f32], p: usize) -> f32 {
    planes[p * CELLS..(p + 1) * CELLS].iter().sum()
}

#[test]
fn shapes_and_sizes() {
    assert_eq!(<Position as NetGame>::SHAPE, [8, 8, 8]);
    assert_eq!(<Position as NetGame>::PLANES, 22);
    assert_eq!(<Position as NetGame>::INPUT_SIZE, 11_264);
    assert_eq!(<Position as NetGame>::POLICY_CHANNELS, 221);
    assert_eq!(<Position as NetGame>::POLICY_SIZE, 113_152);
    assert_eq!(encode(&Position::start(), 0).len(), INPUT_SIZE);
    assert_eq!(KNIGHT_LEAPS.len(), 24);
    assert!(KNIGHT_LEAPS.iter().all(|&(a, b, c)| {
        let mut s = [a.abs(), b.abs(), c.abs()];
        s.sort();
        s == [0, 1, 2]
    }));
}

#[test]
fn start_planes_in_both_frames() {
    let white = Position::start();
    let e = encode(&white, 1);
    assert_eq!(at(&e, PLANE_OWN_PIECES, "3e2"), 1.0);
    assert_eq!(at(&e, PLANE_OWN_PIECES + Kind::King as usize, "4e1"), 1.0);
    assert_eq!(plane_sum(&e, PLANE_OWN_PIECES + Kind::King as usize), 1.0);
    assert_eq!(plane_sum(&e, PLANE_OWN_PIECES + Kind::Commoner as usize), 7.0);
    assert_eq!(at(&e, PLANE_THEIR_PIECES + Kind::King as usize, "4e8"), 1.0);
    assert_eq!(plane_sum(&e, PLANE_OWN_PIECES), 64.0);
    for (p, want) in
        [(PLANE_OWN_CASTLING, 6.0), (PLANE_THEIR_CASTLING, 6.0), (PLANE_REPETITION, 512.0), (PLANE_ONES, 512.0)]
    {
        assert_eq!(plane_sum(&e, p), want, "plane {p}");
    }
    for cell in ["4h1", "1h1", "7h1", "4a1", "8a1", "1a1"] {
        assert_eq!(at(&e, PLANE_OWN_CASTLING, cell), 1.0, "{cell}");
    }
    assert_eq!(at(&e, PLANE_THEIR_CASTLING, "1a8"), 1.0);
    for p in [PLANE_REPETITION + 1, PLANE_HALFMOVE, PLANE_BLACK, PLANE_EP] {
        assert_eq!(plane_sum(&e, p), 0.0, "plane {p}");
    }
    // After 5e2-5e4 black sees its men from its side: its king on frame 4e1, the passed cell 5e3
    // as 5e6, white's pawn on frame 5e5.
    let mut black = white.clone();
    black.make(black.parse_move("5e2-5e4").unwrap());
    let b = encode(&black, 0);
    assert_eq!(at(&b, PLANE_OWN_PIECES + Kind::King as usize, "4e1"), 1.0);
    assert_eq!(at(&b, PLANE_THEIR_PIECES, "5e5"), 1.0);
    assert_eq!(at(&b, PLANE_EP, "5e6"), 1.0);
    assert_eq!(plane_sum(&b, PLANE_EP), 1.0);
    assert_eq!(plane_sum(&b, PLANE_BLACK), 512.0);
    // Black's start looks like white's, but for the colour.
    let black_start = pos(&Position::start().to_text().replace(" w ", " b "));
    let m = encode(&black_start, 1);
    assert_eq!(&m[..PLANE_BLACK * CELLS], &e[..PLANE_BLACK * CELLS]);
    // A lost right leaves its rook's cell.
    let mut q = pos(&Position::start().to_text().replace("4h1,", ""));
    assert_eq!(at(&encode(&q, 0), PLANE_OWN_CASTLING, "4h1"), 0.0);
    q = pos(&Position::start().to_text().replace(",1a8", ""));
    assert_eq!(plane_sum(&encode(&q, 0), PLANE_THEIR_CASTLING), 5.0);
}

#[test]
fn every_legal_move_has_a_distinct_index_that_decodes_back() {
    let mut seen = MapSeen::default();
    let (mut under, mut castle, mut ep, mut double, mut far, mut knight) = (0, 0, 0, 0, 0, 0);
    for (i, p) in positions().iter().enumerate() {
        check_policy_map(p, i % 50 == 0, &mut seen);
        for m in legal_moves(p) {
            under += matches!(m.promotion(), Some(k) if k != Kind::Queen) as usize;
            castle += (m.flag() == Flag::Castle) as usize;
            ep += (m.flag() == Flag::EnPassant) as usize;
            double += (m.flag() == Flag::DoubleStep) as usize;
            let ty = move_type(p.side(), m).unwrap();
            far += (ty < QUEEN_TYPES && ty % 7 >= 4) as usize;
            knight += (TYPE_KNIGHT..TYPE_UNDER).contains(&ty) as usize;
        }
    }
    assert!(seen.moves > 50_000, "{seen:?}");
    assert!(
        under >= 12 && castle >= 6 && ep >= 1 && double > 0 && far > 0 && knight > 0,
        "{under} {castle} {ep} {double} {far} {knight}"
    );
}

#[test]
fn index_layout() {
    let p = Position::start();
    let idx = |p: &Position, text: &str| move_to_index(p, p.parse_move(text).unwrap()).main as usize;
    let dir = |s: Step| DIRS.iter().position(|&d| d == s).unwrap();
    let cell = |t: &str| parse_cell(t.as_bytes()).unwrap();
    // 5e2-5e4: two cells up the rank.
    assert_eq!(idx(&p, "5e2-5e4"), flat(dir((0, 1, 0)) * 7 + 1, cell("5e2")));
    // Black's 5e7-5e5 is the same move in its frame.
    let mut q = p.clone();
    q.make(p.parse_move("5d2-5d4").unwrap());
    assert_eq!(idx(&q, "5e7-5e5"), flat(dir((0, 1, 0)) * 7 + 1, cell("5e2")));
    // A knight leap two ranks up and one level up.
    let k = KNIGHT_LEAPS.iter().position(|&l| l == (0, 2, 1)).unwrap();
    assert_eq!(idx(&p, "4b1-5b3"), flat(TYPE_KNIGHT + k, cell("4b1")));
    // An under-promotion capturing one level up, and the queen promotion on the plain channel.
    let s = &set_ups()[0];
    let r = PAWN_STEPS.iter().position(|&v| v == (0, 1, 1)).unwrap();
    assert_eq!(idx(s, "4e7-5e8=R"), flat(TYPE_UNDER + 10 + r, cell("4e7")));
    assert_eq!(idx(s, "4e7-4e8=Q"), flat(dir((0, 1, 0)) * 7, cell("4e7")));
    // Castling toward 1a1: the king's two-cell step down levels and files.
    let c = &set_ups()[1];
    assert_eq!(idx(c, "4e1-2c1"), flat(dir((-1, 0, -1)) * 7 + 1, cell("4e1")));
    // Non-canonical or out-of-range indices decode to nothing.
    let moves = legal_moves(s);
    let mut bad = move_to_index(s, s.parse_move("4e7-4e8=Q").unwrap());
    bad.promotion = Some(0);
    assert_eq!(s.index_to_move_in(&moves, bad), None);
    let out = PolicyIndex { main: POLICY_SIZE as u32, placement: None, promotion: None };
    assert_eq!(s.index_to_move_in(&moves, out), None);
    // A move off the cube's edge.
    let off = PolicyIndex { main: flat(dir((0, 1, 0)) * 7 + 6, cell("4e7")) as u32, placement: None, promotion: None };
    assert_eq!(s.index_to_move_in(&moves, off), None);
}

#[test]
fn symmetries_commute_with_rules_encoding_and_policy() {
    let mut rng = SplitMix64::new(5);
    let mut logits = vec![0.0f32; POLICY_SIZE];
    let (mut with_rights, mut without) = (0, 0);
    for (j, p) in positions().iter().enumerate() {
        if j % 7 != 0 && p.castling() != 0 {
            continue;
        }
        logits.iter_mut().for_each(|x| *x = (rng.next_u64() % 4000) as f32 / 1000.0 - 2.0);
        check_symmetries(p, (j % 3) as u32, &logits);
        match p.symmetries().len() {
            1 => with_rights += 1,
            4 => without += 1,
            n => panic!("{n} symmetries"),
        }
    }
    assert!(with_rights > 10 && without > 10, "{with_rights} {without}");
}

#[test]
fn castling_rights_forbid_the_mirrors() {
    let p = Position::start();
    assert_eq!(p.symmetries(), &[MirrorSymmetry::IDENTITY]);
    let level = MirrorSymmetry { file: false, level: true };
    assert!(std::panic::catch_unwind(|| level.apply_position(&p)).is_err());
    let q = &set_ups()[2];
    assert_eq!(q.symmetries().len(), 4);
    // The level mirror of the en passant set-up: the pawns on levels 5 and 4, the passed cell 4d6.
    let m = level.apply_position(q);
    assert_eq!(m.ep(), parse_cell(b"4d6"));
    assert_eq!(MirrorSymmetry::IDENTITY.apply_position(q).to_text(), q.to_text());
}

#[test]
fn the_evaluators_serve_the_game() {
    let ps = random_games(&Position::start(), 3, 2, 20);
    let moves: Vec<Vec<_>> = ps.iter().map(legal_moves).collect();
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
    // A backend of the Quasi-Alice network under this game's evaluator is refused, not fed.
    struct QaSized;
    impl crate::nn::Backend for QaSized {
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
            "qa".into()
        }
        fn sizes(&self) -> Option<(usize, usize)> {
            Some((crate::nn::quasi_alice::INPUT_SIZE, crate::nn::quasi_alice::POLICY_SIZE))
        }
    }
    let e = NetworkEvaluator::<_, Position>::for_game(QaSized).evaluate(&batch, &mut a).unwrap_err();
    assert!(e.0.contains("mixed3d needs 11264 and 113152"), "{e}");
}
