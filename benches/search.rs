//! Search benchmarks: the `engine::bench` node-count signature, then nodes per second of fixed-depth
//! searches on the bench positions and from the start positions.
//!
//! Run with `cargo bench --bench search`. The signature is checked first (a changed count means the
//! search or evaluation changed, and the timings are not comparable with older runs); each timed
//! search prints its node count, so time per iteration converts to nodes per second
//! (criterion's throughput line reports it as "elements/s").

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fiveup::engine::{bench, bench_positions, Engine, EngineConfig, Limits, Weights};
use fiveup::rules::{Position, Ruleset, Variant};
use std::hint::black_box;

/// Node count of `engine::bench(4, 16)` (update with a note in docs/BENCHMARKS.md when it changes).
const SIGNATURE_DEPTH_4: u64 = 345_801;

/// Nodes of one fresh-engine search of `pos` to `depth` (the table is cleared per search, so every
/// iteration searches the same tree).
fn search_nodes(engine: &mut Engine, pos: &Position, depth: u32) -> u64 {
    engine.search(pos, &[], &Limits::depth(depth), None, |_| {}).nodes
}

fn signature(c: &mut Criterion) {
    let b = bench(4, 16);
    assert_eq!(b.nodes, SIGNATURE_DEPTH_4, "bench signature changed");
    println!("bench signature: depth 4, {} positions, {} nodes", b.positions, b.nodes);
    let mut g = c.benchmark_group("search/bench_positions");
    g.sample_size(10);
    let positions = bench_positions();
    let mut engines: Vec<Engine> = positions
        .iter()
        .map(|p| {
            Engine::new(Weights::for_ruleset(p.ruleset()), EngineConfig { hash_mb: 16, keep_tt: false, threads: 1 })
        })
        .collect();
    let total: u64 = positions.iter().zip(engines.iter_mut()).map(|(p, e)| search_nodes(e, p, 4)).sum();
    assert_eq!(total, SIGNATURE_DEPTH_4);
    g.throughput(Throughput::Elements(total));
    g.bench_function("depth4", |b| {
        b.iter(|| positions.iter().zip(engines.iter_mut()).map(|(p, e)| search_nodes(e, black_box(p), 4)).sum::<u64>())
    });
    g.finish();
}

fn start_positions(c: &mut Criterion) {
    let mut g = c.benchmark_group("search/startpos");
    g.sample_size(10);
    for (name, rs, depth) in [("fiveup", Ruleset::FiveUp, 5), ("raumschach", Ruleset::Raumschach, 6)] {
        let pos = Position::startpos(Variant::plain(rs));
        let mut e = Engine::new(Weights::for_ruleset(rs), EngineConfig { hash_mb: 16, keep_tt: false, threads: 1 });
        let nodes = search_nodes(&mut e, &pos, depth);
        println!("search/startpos/{name}/depth{depth}: {nodes} nodes");
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("{name}/depth{depth}"), |b| b.iter(|| search_nodes(&mut e, black_box(&pos), depth)));
    }
    g.finish();
}

criterion_group!(benches, signature, start_positions);
criterion_main!(benches);
