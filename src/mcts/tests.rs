//! Search tests on hand-built positions.

use super::*;
use crate::game::Color;
use crate::nn::{EvalInput, Evaluation, Evaluator, UniformEvaluator};
use crate::rules::{Cell, Kind, Move, Piece, Position, Ruleset, Setup, Variant};

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

fn setup(pieces: &[(&str, Color, Kind)], side: Color) -> Position {
    let mut s = Setup::empty(Variant::plain(Ruleset::FiveUp));
    for &(c, color, kind) in pieces {
        s.board[cell(c).index()] = Some(Piece::new(color, kind));
    }
    s.side = side;
    Position::from_setup(s).unwrap()
}

fn is_mate(p: &Position) -> bool {
    p.in_check() && !p.has_legal_move()
}

fn mates_in_one(p: &Position) -> Vec<Move> {
    p.legal_moves().into_iter().filter(|&m| is_mate(&p.after(m))).collect()
}

/// Black king cornered on Aa1, a white rook on Ba2 covers Ba1 and Aa2; Ed1-Ad1 mates.
fn mate_position(side: Color, extra: &[(&str, Color, Kind)]) -> Position {
    let mut v = vec![
        ("Aa1", Color::Black, Kind::King),
        ("Ba2", Color::White, Kind::Rook),
        ("Ed1", Color::White, Kind::Rook),
        ("Ce5", Color::White, Kind::King),
    ];
    v.extend_from_slice(extra);
    setup(&v, side)
}

fn configs() -> Vec<SearchConfig> {
    let gumbel = SearchConfig { gumbel_m: 64, ..SearchConfig::default() };
    let puct = SearchConfig { kind: SearchKind::Puct, ..SearchConfig::default() };
    vec![gumbel, puct]
}

#[test]
fn finds_mate_in_one() {
    let p = mate_position(Color::White, &[]);
    let mates = mates_in_one(&p);
    assert!(mates.iter().any(|m| m.to_string() == "Ed1Ad1"), "{mates:?}");
    assert!(mates.len() < p.legal_moves().len() / 4);
    for cfg in configs() {
        let r = search_position(&p, &[], &mut UniformEvaluator::default(), 128, &cfg, 7).unwrap().unwrap();
        assert!(mates.contains(&r.best), "{:?} played {}", cfg.kind, r.best);
        assert!(r.root_wdl[0] > 0.2, "{:?} root {:?}", cfg.kind, r.root_wdl);
        assert!((r.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert_eq!(r.policy.len(), p.legal_moves().len());
    }
}

#[test]
fn avoids_allowing_mate_in_one() {
    // Black to move with a rook on Ed5 that can take the mating rook; most moves allow Ed1-Ad1.
    let p = mate_position(Color::Black, &[("Ed5", Color::Black, Kind::Rook)]);
    let moves = p.legal_moves();
    let allows = |m: Move| !mates_in_one(&p.after(m)).is_empty();
    let bad = moves.iter().filter(|&&m| allows(m)).count();
    assert!(bad * 2 > moves.len(), "{bad} of {} allow mate", moves.len());
    assert!(bad < moves.len());
    for cfg in configs() {
        let r = search_position(&p, &[], &mut UniformEvaluator::default(), 1200, &cfg, 11).unwrap().unwrap();
        assert!(!allows(r.best), "{:?} played {} which allows mate", cfg.kind, r.best);
    }
}

#[test]
fn terminal_root_has_no_result() {
    let p = mate_position(Color::White, &[]);
    let mated = p.after(cell_move(&p, "Ed1Ad1"));
    assert!(is_mate(&mated));
    assert!(search_position(&mated, &[], &mut UniformEvaluator::default(), 16, &SearchConfig::default(), 1)
        .unwrap()
        .is_none());
}

fn cell_move(p: &Position, text: &str) -> Move {
    p.legal_moves().into_iter().find(|m| m.to_string() == text).unwrap()
}

/// Material in pawns, squashed to a WDL for the side to move: enough to test value backup.
struct MaterialEvaluator;

impl crate::nn::Evaluator for MaterialEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        const VALUE: [f32; 11] = [1.0, 3.0, 3.0, 5.0, 9.0, 0.0, 3.0, 5.0, 5.0, 3.0, 3.0];
        out.clear();
        for inp in batch {
            let us = inp.position.side();
            let mut diff = 0.0;
            for k in Kind::ALL {
                diff += VALUE[k.index()]
                    * (inp.position.pieces(us, k).count() as f32 - inp.position.pieces(us.flip(), k).count() as f32);
            }
            let q = (diff / 10.0).tanh();
            let n = inp.moves.len().max(1) as f32;
            out.push(Evaluation {
                policy: vec![1.0 / n; inp.moves.len()],
                wdl: [(1.0 + q) / 2.0 * 0.9, 0.1, (1.0 - q) / 2.0 * 0.9],
                moves_left: 0.0,
            });
        }
        Ok(())
    }
    fn name(&self) -> String {
        "material".into()
    }
}

#[test]
fn material_values_back_up_with_the_right_sign() {
    // White rook on Ca1 can take an undefended black queen on Ca5 (and nothing else wins material).
    let p = setup(
        &[
            ("Ee1", Color::White, Kind::King),
            ("Ca1", Color::White, Kind::Rook),
            ("Ca5", Color::Black, Kind::Queen),
            ("Ae5", Color::Black, Kind::King),
        ],
        Color::White,
    );
    for cfg in configs() {
        let r = search_position(&p, &[], &mut MaterialEvaluator, 200, &cfg, 3).unwrap().unwrap();
        assert_eq!(r.best.to_string(), "Ca1Ca5", "{:?}", cfg.kind);
        // Down a queen for a rook at the root, but the search sees the capture.
        assert!(r.nn_wdl[0] < r.nn_wdl[2]);
        assert!(r.root_wdl[0] > r.root_wdl[2], "{:?} {:?}", cfg.kind, r.root_wdl);
    }
}

#[test]
fn search_is_deterministic_from_a_seed() {
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    for cfg in configs() {
        let a = search_position(&p, &[], &mut UniformEvaluator::default(), 64, &cfg, 42).unwrap().unwrap();
        let b = search_position(&p, &[], &mut UniformEvaluator::default(), 64, &cfg, 42).unwrap().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.visits.iter().sum::<u32>(), 64);
    }
}

#[test]
fn gumbel_root_follows_the_halving_schedule() {
    // m = 4, n = 16 on the start position: four actions get 2 visits, then two of them get 4 more.
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let cfg = SearchConfig { gumbel_m: 4, max_batch: 64, ..SearchConfig::default() };
    let r = search_position(&p, &[], &mut UniformEvaluator::default(), 16, &cfg, 5).unwrap().unwrap();
    let mut v: Vec<u32> = r.visits.iter().copied().filter(|&v| v > 0).collect();
    v.sort_unstable();
    assert_eq!(v, vec![2, 2, 6, 6]);
    assert_eq!(r.visits[r.moves.iter().position(|&m| m == r.best).unwrap()], 6);
}

#[test]
fn repetition_in_history_is_a_draw_in_search() {
    // The root position already occurred twice: it is drawn by repetition, so search returns None.
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let mut q = p.clone();
    q.make(cell_move(&p, "Eb1Db3"));
    let h = q.hash();
    let mut s = Setup::start(Variant::plain(Ruleset::FiveUp));
    s.halfmove = 8;
    let p8 = Position::from_setup(s).unwrap();
    let hist = [p8.hash(), h, 1, 2, p8.hash(), h, 3, 4];
    assert!(search_position(&p8, &hist, &mut UniformEvaluator::default(), 8, &SearchConfig::default(), 1)
        .unwrap()
        .is_none());
}

/// Runs a whole search with the noise switch set, returning the result and the tree.
fn run_search(
    cfg: SearchConfig,
    p: &Position,
    ev: &mut dyn Evaluator,
    sims: u32,
    seed: u64,
    noise: bool,
) -> (MctsResult, tree::Tree) {
    let mut s = Search::new(cfg, seed);
    s.set_noise(noise);
    s.start(p, &[], sims);
    let mut out = Vec::new();
    while !s.is_done() {
        s.gather();
        let mut batch = Vec::new();
        s.inputs(&mut batch);
        ev.evaluate(&batch, &mut out).unwrap();
        drop(batch);
        s.apply(&out);
    }
    (s.result().unwrap(), s.tree().clone())
}

#[test]
fn a_search_without_noise_does_not_depend_on_its_seed() {
    // Cheap self-play searches switch the noise off: both kinds must then ignore the seed, even
    // with the config's noise on (Gumbel's root sample used to stay on).
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let mut ev = UniformEvaluator::default();
    for cfg in configs() {
        assert!(cfg.gumbel_noise && cfg.dirichlet_epsilon > 0.0);
        let quiet = |seed| run_search(cfg, &p, &mut UniformEvaluator::default(), 32, seed, false).0;
        assert_eq!(quiet(1), quiet(2), "{:?}", cfg.kind);
        let a = run_search(cfg, &p, &mut ev, 32, 1, true).0;
        let b = run_search(cfg, &p, &mut ev, 32, 2, true).0;
        assert_ne!(a.visits, b.visits, "{:?}: the noise is seeded", cfg.kind);
    }
}

#[test]
fn the_gumbel_root_value_is_the_improved_policy_mix_of_the_visited_children() {
    // Close values (the hand evaluation of the start position) spread π' over several visited
    // moves, so the mix differs from the value of the move sequential halving picked, which
    // carries the root's Gumbel sample.
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let cfg = SearchConfig { gumbel_m: 8, ..SearchConfig::default() };
    for seed in [1, 2, 3] {
        let (r, t) = run_search(cfg, &p, &mut AbEvaluator::new(), 48, seed, true);
        let kids = t.child_nodes(tree::ROOT);
        let (mut want, mut mass) = ([0.0f64; 3], 0.0f64);
        for (c, &pi) in kids.iter().zip(&r.policy) {
            if c.visits > 0 {
                let w = c.wdl();
                (0..3).for_each(|i| want[i] += pi as f64 * w[i] as f64);
                mass += pi as f64;
            }
        }
        for i in 0..3 {
            assert!((r.root_wdl[i] as f64 - want[i] / mass).abs() < 1e-5, "seed {seed}: {:?} vs {want:?}", r.root_wdl);
        }
        assert!((r.root_wdl.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(kids.iter().filter(|c| c.visits > 0).count() >= 2);
    }
}

#[test]
fn dirichlet_noise_can_be_switched_off() {
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let cfg = SearchConfig { kind: SearchKind::Puct, ..SearchConfig::default() };
    let priors = |on: bool| {
        let mut s = Search::new(cfg, 1);
        s.set_noise(on);
        s.start(&p, &[], 1);
        s.gather();
        let mut out = Vec::new();
        let mut batch = Vec::new();
        s.inputs(&mut batch);
        UniformEvaluator::default().evaluate(&batch, &mut out).unwrap();
        drop(batch);
        s.apply(&out);
        s.tree().child_nodes(tree::ROOT).iter().map(|c| c.prior).collect::<Vec<f32>>()
    };
    assert!(priors(false).iter().all(|&x| (x - 1.0 / 209.0).abs() < 1e-6));
    assert!(priors(true).iter().any(|&x| (x - 1.0 / 209.0).abs() > 1e-4));
}

#[test]
fn the_search_plays_quasi_alice() {
    type Qa = crate::quasi_alice::Position;
    let start = Qa::start();
    let mut net =
        crate::nn::EvalCache::new(crate::nn::NetworkEvaluator::<_, Qa>::for_game(crate::nn::ZeroBackend), 4096);
    for kind in [SearchKind::Puct, SearchKind::Gumbel] {
        let cfg = SearchConfig { kind, ..SearchConfig::default() };
        let evs: [&mut dyn Evaluator<Qa>; 2] = [&mut UniformEvaluator::default(), &mut net];
        for ev in evs {
            let r = search_position(&start, &[], ev, 48, &cfg, 3).unwrap().unwrap();
            assert_eq!(r.moves.len(), 60);
            assert!(crate::game::State::is_legal(&start, r.best), "{kind:?}: {}", r.best);
            assert_eq!(r.simulations, 48);
            assert!((r.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            assert!((r.root_wdl.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }
    // A mated root is terminal: nothing to search.
    let mated =
        Qa::from_text("8/8/8/8/8/8/4P3/4K3|8/8/8/8/8/8/4k3/8|8/8/8/8/8/8/8/N7|8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
    let cfg = SearchConfig::default();
    assert!(search_position(&mated, &[], &mut UniformEvaluator::default(), 8, &cfg, 1).unwrap().is_none());
}
