use super::*;
use crate::engine::score::DRAW;
use crate::game::Color;
use crate::rules::random::scrambled;
use crate::rules::{Cell, Piece, Position, Ruleset, Setup, Variant};

fn engine(rs: Ruleset) -> Engine {
    Engine::new(Weights::for_ruleset(rs), EngineConfig { hash_mb: 4, keep_tt: false, threads: 1 })
}

fn run(pos: &Position, limits: Limits) -> SearchResult {
    engine(pos.ruleset()).search(pos, &[], &limits, None, |_| {})
}

/// A position from a piece list (upper case white), no reserve, no rights.
fn position(rs: Ruleset, pieces: &[(&str, char)], side: Color) -> Position {
    let mut s = Setup::empty(Variant::plain(rs));
    for (cell, ch) in pieces {
        let c: Cell = cell.parse().unwrap();
        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        s.board[c.index()] = Some(Piece::new(color, rs.kind_from_letter(*ch).unwrap()));
    }
    s.side = side;
    Position::from_setup(s).unwrap()
}

/// Plays the legal move printed as `text` (coordinate form); panics if there is none.
fn play(pos: &mut Position, text: &str) -> Move {
    let m = pos.legal_moves().into_iter().find(|m| m.to_string() == text);
    let m = m.unwrap_or_else(|| panic!("{text} is not legal"));
    pos.make(m);
    m
}

/// Brute force: can the side to move force mate within `n` of its moves?
fn naive_mate_in(p: &mut Position, n: u32) -> bool {
    crate::engine::mates::mating_move(p, n).is_some()
}

/// The seed fool's mate `1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3 3. N-Db3/S P-Cc3`, white to move.
fn fools_mate_before_last_move() -> Position {
    let mut p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    for m in ["Dc2Cc2", "Bc4Cc4", "Db1De4/G", "Ad4Bd3", "Eb1Db3/S", "Cc4Cc3"] {
        play(&mut p, m);
    }
    p
}

#[test]
fn seed_fools_mate_replays_and_is_found() {
    let mut p = fools_mate_before_last_move();
    // 4. SxBe4++: the silver unicorn placed on Eb1 takes the pawn on Be4 along the 3D diagonal.
    let mut after = p.clone();
    play(&mut after, "Eb1Be4");
    assert!(after.in_check() && after.legal_moves().is_empty(), "SxBe4 is mate");
    for depth in 1..=3 {
        let r = run(&p, Limits::depth(depth));
        assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("Eb1Be4"), "depth {depth}");
        assert_eq!(r.score.mate_in(), Some(1), "depth {depth}");
        assert_eq!(r.pv.len(), 1);
    }
    assert!(naive_mate_in(&mut p, 1));
}

#[test]
fn searchmoves_restrict_the_root() {
    let p = fools_mate_before_last_move();
    let legal = p.legal_moves();
    let others: Vec<Move> = legal.iter().copied().filter(|m| m.to_string() != "Eb1Be4").take(3).collect();
    let limits = Limits { searchmoves: others.clone(), ..Limits::depth(3) };
    let r = run(&p, limits.clone());
    assert!(others.contains(&r.best.unwrap()) && r.score.mate_in().is_none());
    let mut smp =
        Engine::new(Weights::for_ruleset(Ruleset::FiveUp), EngineConfig { threads: 2, ..EngineConfig::default() });
    assert!(others.contains(&smp.search(&p, &[], &limits, None, |_| {}).best.unwrap()));
    // Only illegal moves listed: every move is searched.
    let foreign: Vec<Move> = Position::startpos(Variant::plain(Ruleset::Raumschach))
        .legal_moves()
        .into_iter()
        .filter(|m| !legal.contains(m))
        .collect();
    assert!(!foreign.is_empty());
    let limits = Limits { searchmoves: foreign, ..Limits::depth(3) };
    assert_eq!(run(&p, limits).best.map(|m| m.to_string()).as_deref(), Some("Eb1Be4"));
}

#[test]
fn lazy_smp_threads_share_the_table_and_count_their_nodes() {
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let config = EngineConfig { hash_mb: 4, keep_tt: false, threads: 3 };
    let mut e = Engine::new(Weights::for_ruleset(Ruleset::FiveUp), config.clone());
    let mut reported = Vec::new();
    let r = e.search(&p, &[], &Limits::depth(5), None, |it| reported.push(it.nodes));
    assert_eq!(r.depth, 5);
    assert!(p.legal_moves().contains(&r.best.unwrap()));
    // The report counts the helpers' nodes too, and the total is at least the last report.
    assert!(reported.windows(2).all(|w| w[0] <= w[1]) && r.nodes >= *reported.last().unwrap());
    // The helpers searched: more nodes than the main thread's own deterministic count.
    let one = engine(Ruleset::FiveUp).search(&p, &[], &Limits::depth(5), None, |_| {});
    assert!(r.nodes > one.nodes, "{} vs {}", r.nodes, one.nodes);
    // A node limit bounds the sum over threads: every thread watches it, each seeing the
    // others' nodes up to their last 1,023 unpublished ones.
    let r = e.search(&p, &[], &Limits::nodes(50_000), None, |_| {});
    assert!(r.nodes < 50_000 + 3 * 1024, "{}", r.nodes);
    // The mate is still found, and the stop flag stops every thread.
    let mut e = Engine::new(Weights::for_ruleset(Ruleset::FiveUp), EngineConfig { threads: 2, ..config });
    let r = e.search(&fools_mate_before_last_move(), &[], &Limits::depth(3), None, |_| {});
    assert_eq!(r.score.mate_in(), Some(1));
    // (Unlimited otherwise: it returns at all only because the flag stops every thread. The
    // main thread looks at the flag every 1,024 of its own nodes, and the helpers' table
    // entries may let it finish a shallow iteration or two within them.)
    let stop = Arc::new(AtomicBool::new(true));
    let r = e.search(&p, &[], &Limits::default(), Some(&stop), |_| {});
    assert!(r.best.is_some() && r.depth <= 4, "depth {}", r.depth);
}

const MATES_IN_TWO: [(Ruleset, &[(&str, char)]); 5] = [
    (Ruleset::Raumschach, &[("Ae5", 'K'), ("Bd1", 'Q'), ("Cb5", 'R'), ("Ea5", 'k')]),
    (Ruleset::Raumschach, &[("Aa1", 'k'), ("Ab3", 'K'), ("Be4", 'Q'), ("Db3", 'R')]),
    (Ruleset::FiveUp, &[("Ce5", 'R'), ("De2", 'N'), ("De4", 'k'), ("Ed2", 'K')]),
    (Ruleset::FiveUp, &[("Ce3", 'K'), ("De5", 'k'), ("Ea4", 'Q')]),
    (Ruleset::FiveUp, &[("Cd4", 'K'), ("Db2", 'Q'), ("Ec4", 'k')]),
];

#[test]
fn finds_mates_in_two_for_either_side() {
    for (rs, pieces) in MATES_IN_TWO {
        for side in Color::ALL {
            // For black, swap the colours: the same mate with the roles reversed.
            let swapped: Vec<(&str, char)> =
                pieces.iter().map(|&(c, ch)| (c, if side == Color::White { ch } else { swap_case(ch) })).collect();
            let mut p = position(rs, &swapped, side);
            assert!(naive_mate_in(&mut p, 2) && !naive_mate_in(&mut p, 1), "{rs} {pieces:?} is a mate in two");
            let r = run(&p, Limits::depth(4));
            assert_eq!(r.score.mate_in(), Some(2), "{rs} {pieces:?} {side:?}: {}", r.score);
            // The chosen move really forces mate next move.
            let m = r.best.unwrap();
            let u = p.make(m);
            for reply in p.legal_moves() {
                let u2 = p.make(reply);
                assert!(naive_mate_in(&mut p, 1), "{m} {reply} does not allow mate");
                p.unmake(reply, u2);
            }
            p.unmake(m, u);
        }
    }
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

#[test]
fn mated_side_sees_its_fate() {
    // Black, checkmated by the seed fool's mate, has no move and scores mated-now.
    let p = fools_mate_before_last_move();
    let mut q = p.clone();
    play(&mut q, "Eb1Be4");
    let r = run(&q, Limits::depth(3));
    assert_eq!(r.best, None);
    assert_eq!(r.score.mate_in(), Some(0));
}

#[test]
fn no_legal_move_mate_and_stalemate() {
    let stale = position(Ruleset::Raumschach, &[("Aa5", 'k'), ("Bb3", 'K'), ("Cb5", 'Q')], Color::Black);
    assert!(stale.legal_moves().is_empty() && !stale.in_check());
    let r = run(&stale, Limits::depth(3));
    assert_eq!((r.best, r.score), (None, Score(DRAW)));
}

#[test]
fn exactly_one_legal_move_is_returned() {
    let p = position(Ruleset::FiveUp, &[("Bd1", 'K'), ("Ba4", 'R'), ("Ca5", 'k'), ("De1", 'Q')], Color::Black);
    let legal = p.legal_moves();
    assert_eq!(legal.len(), 1);
    for limits in [Limits::depth(3), Limits::nodes(1), Limits::nodes(500)] {
        assert_eq!(run(&p, limits).best, Some(legal[0]));
    }
}

#[test]
fn never_returns_an_illegal_move_and_pvs_are_legal() {
    for rs in Ruleset::ALL {
        for seed in 0..12u64 {
            let p = scrambled(Variant::plain(rs), 10 + 7 * seed as usize, seed);
            let legal = p.legal_moves();
            for limits in [Limits::nodes(1 + 300 * seed), Limits::depth(2)] {
                let r = run(&p, limits);
                match r.best {
                    None => assert!(legal.is_empty()),
                    Some(m) => assert!(legal.contains(&m), "{rs} seed {seed}: {m} illegal"),
                }
                let mut q = p.clone();
                for m in &r.pv {
                    assert!(q.legal_moves().contains(m), "{rs} seed {seed}: PV move {m} illegal");
                    q.make(*m);
                }
            }
        }
    }
}

#[test]
fn fixed_depth_and_fixed_nodes_are_reproducible() {
    let p = scrambled(Variant::plain(Ruleset::FiveUp), 12, 3);
    let mut e = engine(Ruleset::FiveUp);
    for limits in [Limits::depth(3), Limits::nodes(20_000)] {
        let a = e.search(&p, &[], &limits, None, |_| {});
        let b = e.search(&p, &[], &limits, None, |_| {});
        let c = run(&p, limits.clone());
        let strip = |r: &SearchResult| (r.best, r.score, r.depth, r.nodes, r.pv.clone());
        assert_eq!(strip(&a), strip(&b));
        assert_eq!(strip(&a), strip(&c));
    }
}

#[test]
fn iterations_are_reported_in_order() {
    let p = Position::startpos(Variant::plain(Ruleset::Raumschach));
    let mut seen = Vec::new();
    let r = engine(Ruleset::Raumschach).search(&p, &[], &Limits::depth(3), None, |it| seen.push(it.clone()));
    assert_eq!(seen.iter().map(|i| i.depth).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert_eq!(r.iterations, seen);
    assert_eq!(r.pv.first().copied(), r.best);
}

#[test]
fn stop_flag_and_time_limit_end_the_search() {
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let stop = Arc::new(AtomicBool::new(true));
    let r = engine(Ruleset::FiveUp).search(&p, &[], &Limits::default(), Some(&stop), |_| {});
    assert!(r.best.is_some() && r.depth <= 1);
    let t = Instant::now();
    let r = run(&p, Limits::time(Duration::from_millis(200)));
    assert!(t.elapsed() < Duration::from_millis(1500));
    assert!(p.legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn soft_time_ends_the_search_after_a_completed_iteration() {
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let limits = Limits { soft_time: Some(Duration::ZERO), depth: Some(6), ..Limits::default() };
    let r = run(&p, limits);
    assert_eq!(r.depth, 1, "no iteration starts once the soft time has passed");
    assert!(r.best.is_some());
}

#[test]
fn a_cut_off_iteration_answers_with_the_move_that_beat_the_previous_best() {
    // Node budgets that end the search inside an iteration: the answer is legal, heads its PV,
    // and sometimes is the cut-off iteration's new best rather than the last completed
    // depth's move.
    let mut replaced = 0;
    for (i, rs) in [Ruleset::FiveUp, Ruleset::Raumschach].into_iter().cycle().take(16).enumerate() {
        let p = scrambled(Variant::plain(rs), 6 + i, 40 + i as u64);
        for nodes in [3_000, 7_000, 20_000] {
            let r = run(&p, Limits::nodes(nodes));
            let best = r.best.unwrap();
            assert!(p.legal_moves().contains(&best), "{p} {nodes}");
            assert_eq!(r.pv.first(), Some(&best));
            let completed = r.iterations.last().and_then(|it| it.pv.first().copied());
            replaced += usize::from(completed.is_some_and(|m| m != best));
        }
    }
    assert!(replaced > 0, "no cut-off iteration changed the answer in 48 searches");
}

#[test]
fn repeating_a_game_position_counts_as_a_draw() {
    // King and queen against a bare king: winning, so the engine avoids a move that would
    // repeat a position of the game (a draw), and a repeated position scores 0.
    let p = position(Ruleset::Raumschach, &[("Cc3", 'K'), ("Ca1", 'Q'), ("Ee5", 'k')], Color::White);
    let mut s = p.to_setup();
    s.halfmove = 10;
    let p = Position::from_setup(s).unwrap();
    let r = run(&p, Limits::depth(3));
    assert!(r.score.0 > 500);
    let first = r.best.unwrap();
    let history = [p.after(first).hash(), 0];
    let mut e = engine(Ruleset::Raumschach);
    let r2 = e.search(&p, &history[..1], &Limits::depth(3), None, |_| {});
    assert_ne!(r2.best, Some(first));
    assert!(r2.score.0 > 500);
    // Outside the fifty-move window (halfmove 0: the last move was irreversible) nothing repeats.
    let mut s = p.to_setup();
    s.halfmove = 0;
    let q = Position::from_setup(s).unwrap();
    assert_eq!(e.search(&q, &history[..1], &Limits::depth(3), None, |_| {}).best, Some(first));
}

#[test]
fn fifty_move_rule_draws_inside_search() {
    let p = position(Ruleset::Raumschach, &[("Cc3", 'K'), ("Ca1", 'Q'), ("Ee5", 'k')], Color::White);
    let mut s = p.to_setup();
    s.halfmove = 99;
    let q = Position::from_setup(s).unwrap();
    // Any quiet move reaches 100 plies: a draw unless it mates or captures.
    let r = run(&q, Limits::depth(3));
    assert!(r.score.0 == DRAW || r.score.is_mate(), "{}", r.score);
}
