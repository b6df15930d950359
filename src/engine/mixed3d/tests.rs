use super::*;
use crate::engine::{Engine, EngineConfig, Limits};

fn engine() -> Engine<M3Board> {
    Engine::with_eval(M3Weights::default(), EngineConfig { hash_mb: 4, keep_tt: false, threads: 1 })
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

fn board_at(p: &Position) -> M3Board {
    let mut b = M3Board::new();
    b.reset(&M3Weights::default(), p);
    b
}

/// The men on the cube.
fn men(p: &Position) -> u32 {
    (0..SIDE).map(|l| p.occupied(l).count_ones()).sum()
}

/// Eight levels' texts into a position with White to move and no rights.
fn cube(levels: [&str; 8]) -> Position {
    Position::from_text(&format!("{} w - - 0 1", levels.join("|"))).unwrap()
}

#[test]
fn the_incremental_sum_follows_every_kind_of_move() {
    let w = M3Weights::default();
    let mut rng = crate::rng::SplitMix64::new(7);
    let mut b = M3Board::new();
    let mut flags = [0usize; 4];
    let mut promotions = 0;
    let e = "8/8/8/8/8/8/8/8";
    let race = "8/PPPPPPPP/8/8/8/8/pppppppp/8";
    let racing = cube([race, e, e, "4k3/8/8/8/8/8/8/4K3", e, e, e, race]);
    let castles = Position::from_text(&format!(
        "{e}|{e}|{e}|r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R|{e}|{e}|{e}|{e} w 4h1,4a1,4h8,4a8 - 0 1"
    ))
    .unwrap();
    for game in 0..12 {
        let start = [Position::start(), castles.clone(), racing.clone()][game % 3].clone();
        b.reset(&w, &start);
        let mut line = Vec::new();
        for _ in 0..150 {
            let moves = b.pos().legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer the rare kinds of move, so that each is seen.
            let special: Vec<Move> = moves.iter().copied().filter(|m| m.flag() != Flag::Normal).collect();
            let m = if !special.is_empty() && rng.below(2) == 0 {
                special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            flags[m.flag() as usize] += 1;
            promotions += usize::from(m.promotion().is_some());
            let u = b.make(&w, m);
            line.push((m, u));
            assert_eq!(b.psq, eval::psq(b.pos(), &w), "after {m}: {}", b.pos().to_text());
        }
        while let Some((m, u)) = line.pop() {
            b.unmake(&w, m, u);
            assert_eq!(b.psq, eval::psq(b.pos(), &w));
        }
        assert_eq!(b.pos(), &start);
    }
    assert!(flags.iter().all(|&n| n > 0), "every flag played: {flags:?}");
    assert!(promotions > 0);
    // The search's evaluation is the full one.
    for p in random_positions(2, 4, 60) {
        let mut b = board_at(&p);
        let full = evaluate(&p, &M3Weights::default());
        assert_eq!(b.static_eval(&M3Weights::default()), full);
    }
}

#[test]
fn noisy_moves_are_the_captures_and_promotions() {
    let w = M3Weights::default();
    let mut checked = 0;
    for p in random_positions(3, 6, 90).into_iter().step_by(3) {
        let mut b = board_at(&p);
        let (mut noisy, mut quiet) = (Vec::new(), Vec::new());
        b.legal_moves_split(&w, &mut noisy, &mut quiet);
        let legal = p.legal_moves();
        assert_eq!(noisy.len() + quiet.len(), legal.len());
        for &m in &legal {
            let mut after = p.clone();
            after.make(m);
            let takes = men(&after) < men(&p);
            assert_eq!(b.is_quiet(m), !takes && m.promotion().is_none(), "{m} in {}", p.to_text());
            assert_eq!(quiet.contains(&m), b.is_quiet(m));
        }
        if !p.in_check() {
            let mut caps = Vec::new();
            b.captures(&w, i32::MIN, &mut caps);
            let mut got: Vec<Move> = caps.iter().map(|s| s.mv).collect();
            let mut want: Vec<Move> =
                noisy.iter().copied().filter(|m| m.promotion().is_none_or(|k| k == Kind::Queen)).collect();
            got.sort_by_key(|m| m.bits());
            want.sort_by_key(|m| m.bits());
            assert_eq!(got, want, "{}", p.to_text());
            checked += caps.len();
        }
    }
    assert!(checked > 100, "the positions hold captures ({checked})");
}

#[test]
fn may_give_check_never_misses_a_check() {
    let mut checks = 0;
    for p in random_positions(5, 8, 120).into_iter().step_by(2) {
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
    // A quiet knight move far from the king's lines is ruled out.
    let p = Position::start();
    let b = board_at(&p);
    let m = p.parse_move("1b1-1c3").unwrap();
    assert!(!b.may_give_check(&b.check_info(), m));
}

#[test]
fn move_bits_round_trip() {
    for p in random_positions(9, 3, 60) {
        for m in p.legal_moves() {
            assert_ne!(SearchMove::bits(m), 0);
            assert!(SearchMove::bits(m) < 1 << 24);
            assert_eq!(<Move as SearchMove>::from_bits(SearchMove::bits(m)), Some(m));
            assert!(m.history_slot() < Move::HISTORY_SLOTS);
        }
    }
    assert_eq!(<Move as SearchMove>::from_bits(0), None);
}

#[test]
fn null_move_safety_needs_a_piece() {
    let e = "8/8/8/8/8/8/8/8";
    let p = cube(["8/4p3/8/8/8/8/4P3/4K3", e, e, e, e, e, e, "4k3/8/8/8/8/8/8/8"]);
    assert!(!board_at(&p).null_move_ok());
    assert!(board_at(&Position::start()).null_move_ok());
}

#[test]
fn searches_are_reproducible_and_legal() {
    let mut e = engine();
    for p in random_positions(13, 2, 40).into_iter().step_by(15) {
        let a = e.search(&p, &[], &Limits::depth(2), None, |_| {});
        let b = e.search(&p, &[], &Limits::depth(2), None, |_| {});
        assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score), "{}", p.to_text());
        let best = a.best.expect("a legal move");
        assert!(p.legal_moves().contains(&best));
        let mut q = p.clone();
        for &m in &a.pv {
            assert!(q.legal_moves().contains(&m), "PV move {m} in {}", q.to_text());
            q.make(m);
        }
    }
}

#[test]
fn a_hanging_queen_is_taken_and_a_mate_in_one_is_seen() {
    let e = "8/8/8/8/8/8/8/8";
    // Black's queen on 5d5 hangs to the rook on 2d2, which reaches it along (0,+1,+1).
    let p = cube(["4K3/8/8/8/8/8/8/8", "8/8/8/8/8/8/3R4/8", e, e, "8/8/8/3q4/8/8/8/8", e, e, "k7/8/8/8/8/8/8/8"]);
    let r = engine().search(&p, &[], &Limits::depth(3), None, |_| {});
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("2d2-5d5"));
    assert!(r.score.0 > M3Weights::default().value(Kind::Rook) - 200, "{}", r.score);
    // Black's royal king alone in the corner 8a8: the queen from 1b1 to 7b7 along (0,+1,+1)
    // covers all six free cells around it and is guarded by the commoner on 6c6.
    let p = cube(["8/8/8/8/8/8/8/1Q2K3", e, e, e, e, "8/8/2C5/8/8/8/8/8", e, "k7/8/8/8/8/8/8/8"]);
    let r = engine().search(&p, &[], &Limits::depth(2), None, |_| {});
    assert_eq!(r.score.mate_in(), Some(1), "{}", r.score);
    let mut q = p.clone();
    q.make(r.best.unwrap());
    assert!(q.in_check() && q.legal_moves().is_empty(), "{}", q.to_text());
}
