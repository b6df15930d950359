//! NNUE inference cost on a fixed workload (for callgrind and A/B timing):
//! `cargo run --release --example nnue_speed -- FILE [walk [PASSES] | search [DEPTH] | sparsity]`.
//!
//! `walk` (the default): the `bench search` incremental micro-benchmark
//! ([`fiveup::engine::nnue::measured_walk`]: random games of the network's ruleset, seed 1, 20,000
//! positions; each move followed by an accumulator update and an evaluation), three passes (or
//! `walk N`: N); prints evaluations per second and a checksum of every evaluation (equal
//! checksums: equal results). `FILE` may be `random:RULESET:HIDDEN[p]-L1-L2` (random weights
//! of that shape: the weights do not change the work). `search`: a fixed-depth search of the start
//! position with the network (default depth 6), printing nodes, score and best move.
//! `sparsity`: how many of the first dense layer's inputs (clipped accumulator values) are zero
//! along the walk's positions, per byte and per chunk of 4 (what a sparse first layer could skip).
//!
//! For instruction counts, collect only the measured part: `valgrind --tool=callgrind
//! --toggle-collect='*measured_walk*' target/release/examples/nnue_speed FILE walk` (the library's
//! [`fiveup::engine::nnue::measured_walk`]), or `--toggle-collect='*measured_search*' … FILE search 6`.

use fiveup::engine::nnue::{Accumulator, Network};
use fiveup::engine::{Engine, EngineConfig, Limits, Weights};
use fiveup::rules::{Position, Variant};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: nnue_speed FILE|random:RULESET:HIDDEN[p]-L1-L2 [walk [PASSES] | search [DEPTH] | sparsity]";
    let file = args.first().expect(usage);
    let net = match file.strip_prefix("random:") {
        Some(spec) => random_network(spec),
        None => Network::load(std::path::Path::new(file), None).unwrap_or_else(|e| panic!("{e}")),
    };
    match args.get(1).map(String::as_str).unwrap_or("walk") {
        "walk" => {
            let games = games(&net);
            let passes = args.get(2).map_or(3, |n| n.parse().expect(usage));
            for _ in 0..passes {
                let starts = fiveup::engine::nnue::walk_starts(&net, &games);
                let t = std::time::Instant::now();
                let (evals, sum) = fiveup::engine::nnue::measured_walk(&net, &games, &starts);
                let secs = t.elapsed().as_secs_f64();
                println!("{evals} evaluations in {secs:.4} s: {:.2} M/s, checksum {sum}", evals as f64 / secs / 1e6);
            }
        }
        "search" => {
            let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
            let rs = net.ruleset;
            let pos = Position::startpos(Variant::plain(rs));
            let net = Arc::new(net);
            let mut e = Engine::new(Weights::for_ruleset(rs), EngineConfig::default());
            e.set_network(Some(net));
            let r = measured_search(&mut e, &pos, depth);
            println!(
                "{rs} depth {depth}: nodes {}, {:.3} s, {:.2} M nodes/s, score {}, best {}",
                r.nodes,
                r.time.as_secs_f64(),
                r.nodes as f64 / r.time.as_secs_f64() / 1e6,
                r.score,
                r.best.map(|m| m.to_string()).unwrap_or_default()
            );
        }
        "sparsity" => {
            let h = net.dims.dense_inputs();
            let half = net.dims.hidden / 2;
            // The first dense layer's inputs: clipped values, or pairwise products of them.
            let act = |v: &[i16]| -> Vec<u8> {
                let c = |x: i16| x.clamp(0, 127);
                match net.dims.pairwise {
                    true => (0..half).map(|i| ((c(v[i]) * c(v[i + half])) >> 7) as u8).collect(),
                    false => v.iter().map(|&x| c(x) as u8).collect(),
                }
            };
            let (mut n, mut bytes, mut chunks) = (0usize, 0usize, 0usize);
            for game in games(&net) {
                for p in &game.positions[1..] {
                    let acc = Accumulator::refresh(&net, p);
                    let x: Vec<u8> = acc.values.iter().flat_map(|v| act(v)).collect();
                    bytes += x.iter().filter(|&&v| v != 0).count();
                    chunks += x.chunks(4).filter(|c| c.iter().any(|&v| v != 0)).count();
                    n += 1;
                }
            }
            println!(
                "{n} positions: non-zero inputs {:.1}%, non-zero chunks of 4 {:.1}%",
                100.0 * bytes as f64 / (n * h) as f64,
                100.0 * chunks as f64 / (n * h / 4) as f64
            );
        }
        other => panic!("unknown mode {other}"),
    }
}

/// A network of random weights of the shape `RULESET:HIDDEN[p]-L1-L2` (e.g. `fiveup:128p-16-32`):
/// the weights do not change the work, so the cost of a shape is measured without training one.
fn random_network(spec: &str) -> Network {
    let (rs, shape) = spec.split_once(':').expect("random:RULESET:HIDDEN[p]-L1-L2");
    let rs: fiveup::rules::Ruleset = rs.parse().unwrap_or_else(|e| panic!("{e}"));
    let parts: Vec<&str> = shape.split('-').collect();
    assert_eq!(parts.len(), 3, "shape HIDDEN[p]-L1-L2");
    let pairwise = parts[0].ends_with('p');
    let n = |s: &str| s.trim_end_matches('p').parse::<usize>().expect("a width");
    let dims = fiveup::engine::nnue::Dims {
        hidden: n(parts[0]),
        l1: n(parts[1]),
        l2: n(parts[2]),
        pairwise,
        ..fiveup::engine::nnue::Dims::DEFAULT
    };
    dims.check().unwrap_or_else(|e| panic!("{e}"));
    Network::random(rs, dims, 1)
}

/// The positions of `bench search`'s micro-benchmark.
fn games(net: &Network) -> Vec<fiveup::engine::nnue::BenchGame> {
    fiveup::engine::nnue::benchmark_games(net.ruleset)
}

#[inline(never)]
fn measured_search(e: &mut Engine, pos: &Position, depth: u32) -> fiveup::engine::SearchResult {
    e.search(pos, &[], &Limits::depth(depth), None, |_| {})
}
