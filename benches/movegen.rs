//! Move generation benchmarks: legal move lists, bulk counting, perft and make/unmake from the
//! start positions and from a middle-game position reached by a fixed line; 4D Quasi-Alice Chess
//! and Mixed 3D Chess perft from their starts and move lists in a middle game.
//!
//! Run with `cargo bench --bench movegen`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fiveup::game::perft;
use fiveup::rules::{Position, Ruleset, Variant};

/// The start positions benchmarked, with their names.
fn starts() -> Vec<(&'static str, Position)> {
    vec![
        ("fiveup", Position::startpos(Variant::plain(Ruleset::FiveUp))),
        ("raumschach", Position::startpos(Variant::plain(Ruleset::Raumschach))),
        ("fiveup+hypercylinder", Position::startpos(Variant { hypercylinder: true, ..Variant::default() })),
    ]
}

/// A Five Up middle game: the first legal move, 24 times, each time taking the move in the middle
/// of the list (deterministic, no randomness needed).
fn middlegame() -> Position {
    let mut p = Position::startpos(Variant::default());
    for _ in 0..24 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.make(moves[moves.len() / 2]);
    }
    p
}

fn legal_moves(c: &mut Criterion) {
    let mut all = starts();
    all.push(("fiveup middlegame", middlegame()));
    let mut buf = Vec::with_capacity(512);
    for (name, pos) in &all {
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| {
                buf.clear();
                black_box(pos).legal_moves_into(&mut buf);
                buf.len()
            })
        });
        c.bench_function(&format!("count_legal/{name}"), |b| b.iter(|| black_box(pos).count_legal()));
    }
}

fn perft_bulk(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, pos) in starts() {
        g.bench_function(format!("{name}/3"), |b| {
            b.iter(|| {
                let mut p = pos.clone();
                perft::perft(&mut p, 3)
            })
        });
    }
    let qa = fiveup::quasi_alice::Position::start();
    g.bench_function("quasi-alice/4", |b| {
        b.iter(|| {
            let mut p = qa.clone();
            perft::perft(&mut p, 4)
        })
    });
    g.finish();
    let mut mid = fiveup::quasi_alice::Position::start();
    for _ in 0..24 {
        let moves = mid.legal_moves();
        if moves.is_empty() {
            break;
        }
        mid.make(moves[moves.len() / 2]);
    }
    let mut buf = Vec::with_capacity(512);
    c.bench_function("legal_moves/quasi-alice middlegame", |b| {
        b.iter(|| {
            buf.clear();
            black_box(&mid).legal_moves_into(&mut buf);
            buf.len()
        })
    });
    c.bench_function("count_legal/quasi-alice middlegame", |b| b.iter(|| black_box(&mid).count_legal()));
    mixed3d(c);
}

/// Mixed 3D: perft 3 from the start (6,974,076 leaves) and a middle game's moves.
fn mixed3d(c: &mut Criterion) {
    let start = fiveup::mixed3d::Position::start();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("mixed3d/3", |b| {
        b.iter(|| {
            let mut p = start.clone();
            perft::perft(&mut p, 3)
        })
    });
    g.finish();
    let mut mid = start.clone();
    for _ in 0..40 {
        let moves = mid.legal_moves();
        if moves.is_empty() {
            break;
        }
        mid.make(moves[moves.len() / 2]);
    }
    let mut buf = Vec::with_capacity(1024);
    c.bench_function("legal_moves/mixed3d middlegame", |b| {
        b.iter(|| {
            buf.clear();
            black_box(&mid).legal_moves_into(&mut buf);
            buf.len()
        })
    });
    c.bench_function("count_legal/mixed3d middlegame", |b| b.iter(|| black_box(&mid).count_legal()));
}

fn make_unmake(c: &mut Criterion) {
    for (name, pos) in [("fiveup start", Position::startpos(Variant::default())), ("fiveup middlegame", middlegame())] {
        let moves = pos.legal_moves();
        let mut p = pos.clone();
        c.bench_function(&format!("make_unmake_all/{name}"), |b| {
            b.iter(|| {
                let mut h = 0u64;
                for &m in &moves {
                    let u = p.make(m);
                    h ^= p.hash();
                    p.unmake(m, u);
                }
                h
            })
        });
    }
}

criterion_group!(benches, legal_moves, perft_bulk, make_unmake);
criterion_main!(benches);
