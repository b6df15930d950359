//! Search speed from the start positions, one thread: `cargo run --release --example engine_speed -- [DEPTH...]`.
//!
//! Prints, per ruleset and depth, the nodes, time, nodes per second, score and best move, then the
//! `engine::bench` signature at depth 4.

use fiveup::engine::{bench, Engine, EngineConfig, Limits, Weights};
use fiveup::rules::{Position, Ruleset, Variant};

fn main() {
    let depths: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let depths = if depths.is_empty() { vec![3, 4, 5, 6] } else { depths };
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let pos = Position::startpos(Variant::plain(rs));
        for &d in &depths {
            let mut e = Engine::new(Weights::for_ruleset(rs), EngineConfig::default());
            let r = e.search(&pos, &[], &Limits::depth(d), None, |_| {});
            let secs = r.time.as_secs_f64();
            println!(
                "{rs:<11} depth {d:>2}  nodes {:>10}  time {:>7.3}s  {:>6.2} Mnodes/s  score {}  best {}  seldepth {}",
                r.nodes,
                secs,
                r.nodes as f64 / secs / 1e6,
                r.score,
                r.best.map(|m| m.to_string()).unwrap_or_default(),
                r.seldepth
            );
        }
    }
    let b = bench(4, 16);
    println!(
        "bench depth 4: {} positions, {} nodes, {:.3}s, {:.2} Mnodes/s",
        b.positions,
        b.nodes,
        b.time.as_secs_f64(),
        b.nps() / 1e6
    );
}
