use super::*;
use crate::engine::{Engine, EngineConfig, Limits};

fn engine() -> Engine<QaBoard> {
    Engine::with_eval(QaWeights::default(), EngineConfig { hash_mb: 4, keep_tt: false, threads: 1 })
}

/// Positions along seeded random games from the start.
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::start();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(p.clone());
            p.make(moves[rng.below(moves.len())]);
        }
    }
    out
}

fn board_at(p: &Position) -> QaBoard {
    let mut b = QaBoard::new();
    b.reset(&QaWeights::default(), p);
    b
}

/// The men on the boards.
fn men(p: &Position) -> u32 {
    (0..4).map(|b| p.occupied(b).count_ones()).sum()
}

#[test]
fn noisy_moves_are_the_captures_and_promotions() {
    let w = QaWeights::default();
    let mut checked = 0;
    for p in random_positions(3, 30, 80) {
        let mut b = board_at(&p);
        let (mut noisy, mut quiet) = (Vec::new(), Vec::new());
        b.legal_moves_split(&w, &mut noisy, &mut quiet);
        let legal = p.legal_moves();
        assert_eq!(noisy.len() + quiet.len(), legal.len());
        for &m in &legal {
            let after = {
                let mut q = p.clone();
                q.make(m);
                q
            };
            let takes = men(&after) < men(&p);
            assert_eq!(b.is_quiet(m), !takes && m.promotion().is_none(), "{m} in {}", p.to_text());
            assert_eq!(quiet.contains(&m), b.is_quiet(m));
        }
        // Quiescence's moves (no delta pruning, not in check): every capture and queen promotion.
        if !p.in_check() {
            let mut caps = Vec::new();
            b.captures(&w, i32::MIN, &mut caps);
            let mut got: Vec<Move> = caps.iter().map(|s| s.mv).collect();
            let mut want: Vec<Move> =
                noisy.iter().copied().filter(|m| m.promotion().is_none_or(|k| k == Kind::Queen)).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{}", p.to_text());
            checked += caps.len();
        }
    }
    assert!(checked > 100, "the positions hold captures ({checked})");
}

#[test]
fn may_give_check_never_misses_a_check() {
    let mut checks = 0;
    for p in random_positions(5, 40, 100) {
        let b = board_at(&p);
        let info = b.check_info();
        for m in p.legal_moves() {
            let mut q = p.clone();
            q.make(m);
            if q.in_check() {
                checks += 1;
                assert!(b.may_give_check(&info, m), "{m} gives check in {}", p.to_text());
            }
        }
    }
    assert!(checks > 50, "the positions hold checking moves ({checks})");
}

#[test]
fn move_bits_round_trip() {
    for p in random_positions(9, 10, 60) {
        for m in p.legal_moves() {
            assert_ne!(SearchMove::bits(m), 0);
            assert!(SearchMove::bits(m) < 1 << 24);
            assert_eq!(<Move as SearchMove>::from_bits(SearchMove::bits(m)), Some(m));
            assert!(m.history_slot() < Move::HISTORY_SLOTS);
        }
    }
    assert_eq!(<Move as SearchMove>::from_bits(0), None);
    assert_eq!(<Move as SearchMove>::from_bits(1 << 22), None);
}

#[test]
fn null_move_safety_needs_a_piece() {
    let p = Position::from_text("4k3/4p3/8/8/8/8/4P3/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1")
        .unwrap();
    assert!(!board_at(&p).null_move_ok());
    assert!(board_at(&Position::start()).null_move_ok());
}

/// Mates in two, found by a plain search over every line (below) on random placements of a
/// king, queen, rook and knight against a king and two pawns; none is a mate in one.
const MATES_IN_TWO: [&str; 8] = [
    "2Q5/8/8/8/8/8/8/8|8/5p2/8/8/p3R3/8/2k5/8|8/8/8/8/8/8/8/8|8/8/8/7K/8/8/4N3/8 w - - 0 1",
    "8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/3Q4|8/7k/4p3/8/3p2N1/8/8/8|8/8/8/8/8/4R3/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/8|8/6p1/6K1/8/7k/8/6p1/8|R7/8/8/8/8/8/8/8|8/8/4Q3/8/8/8/8/5N2 w - - 0 1",
    "8/8/4p1k1/8/8/7p/8/8|8/8/8/8/8/8/8/4K3|8/8/5N2/8/8/7R/8/8|8/8/2Q5/8/8/8/8/8 w - - 0 1",
    "8/8/8/3K4/8/8/8/4Q3|8/8/8/8/8/8/8/8|8/8/8/5R2/8/1N6/8/8|8/8/8/5pp1/8/8/8/7k w - - 0 1",
    "8/8/1p6/8/8/8/p7/5k2|8/8/8/8/8/8/8/8|8/2K5/8/8/8/8/7R/8|8/6N1/4Q3/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/8|8/8/8/7p/4p3/8/4k3/8|8/8/8/8/8/8/8/8|8/7R/8/8/4NQ2/8/8/2K5 w - - 0 1",
    "6Q1/6N1/8/8/8/8/8/8|8/8/8/3k4/8/1p6/5p2/8|8/6K1/8/8/8/8/8/8|2R5/8/8/8/8/8/8/8 w - - 0 1",
];

/// Whether the side to move mates in `n` moves, by trying every line.
fn naive_mate_in(p: &mut Position, n: u32) -> bool {
    for m in p.legal_moves() {
        let u = p.make(m);
        let replies = p.legal_moves();
        let ok = if replies.is_empty() {
            p.in_check()
        } else {
            n > 1
                && replies.into_iter().all(|r| {
                    let u2 = p.make(r);
                    let ok = naive_mate_in(p, n - 1);
                    p.unmake(r, u2);
                    ok
                })
        };
        p.unmake(m, u);
        if ok {
            return true;
        }
    }
    false
}

#[test]
fn mates_in_two_are_found_at_depth_four() {
    let mut e = engine();
    for (i, text) in MATES_IN_TWO.iter().enumerate() {
        let p = Position::from_text(text).unwrap();
        // The first two are checked to be mates in two (and not in one) by the plain search.
        if i < 2 {
            let mut q = p.clone();
            assert!(!naive_mate_in(&mut q, 1) && naive_mate_in(&mut q, 2), "{text}");
        }
        let r = e.search(&p, &[], &Limits::depth(4), None, |_| {});
        assert_eq!(r.score.mate_in(), Some(2), "{text}: {}", r.score);
        // The move found mates in one after any reply.
        let mut q = p.clone();
        q.make(r.best.unwrap());
        for reply in q.legal_moves() {
            let mut s = q.clone();
            s.make(reply);
            assert!(naive_mate_in(&mut s, 1), "{text}: {} then {reply}", r.best.unwrap());
        }
    }
}

#[test]
fn searches_are_reproducible_and_legal() {
    let mut e = engine();
    for p in random_positions(13, 4, 40).into_iter().step_by(10) {
        let a = e.search(&p, &[], &Limits::depth(3), None, |_| {});
        let b = e.search(&p, &[], &Limits::depth(3), None, |_| {});
        assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score), "{}", p.to_text());
        let best = a.best.expect("a legal move");
        assert!(p.legal_moves().contains(&best));
        // The PV is a line of legal moves.
        let mut q = p.clone();
        for &m in &a.pv {
            assert!(q.legal_moves().contains(&m), "PV move {m} in {}", q.to_text());
            q.make(m);
        }
    }
}

#[test]
fn a_hanging_queen_is_taken() {
    // Black's queen on d5 of board 2 hangs to the rook on d1 of board 2; White's king on board 1
    // and Black's king on board 2, so the rook transfers to board 1 after the capture. (With
    // White's king on e8 of board 1 instead, the capture would stalemate Black: every move of its
    // king would have to transfer to board 1, next to White's king.)
    let p = Position::from_text("8/8/8/8/8/8/8/K7|4k3/8/8/3q4/8/8/8/3R4|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1")
        .unwrap();
    let r = engine().search(&p, &[], &Limits::depth(3), None, |_| {});
    let best = r.best.unwrap();
    assert_eq!((best.board_from(), best.from(), best.to()), (1, 3, 35), "{best}");
    // A rook up afterwards.
    assert!(r.score.0 > QaWeights::default().value(Kind::Rook) - 200, "{}", r.score);
}
