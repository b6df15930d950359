//! Counts the generated mates in one and two (`engine::mates`) that the engine misses at a depth:
//! `cargo run --release --example mates -- [COUNT per ruleset] [DEPTH] [SEED]`.

use fiveup::engine::mates::{keeps_mate, random_mate_problems};
use fiveup::engine::{Engine, EngineConfig, Limits, Weights};
use fiveup::rules::{Ruleset, Variant};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let count = *args.first().unwrap_or(&200) as usize;
    let depth = *args.get(1).unwrap_or(&4) as u32;
    let seed = *args.get(2).unwrap_or(&50_000);
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let problems = random_mate_problems(Variant::plain(rs), count, seed, 100 * count as u64);
        let (mut missed, mut nodes) = ([0usize; 3], 0u64);
        let mut total = [0usize; 3];
        for prob in &problems {
            let mut engine = Engine::new(Weights::for_ruleset(rs), EngineConfig::default());
            let r = engine.search(&prob.position, &[], &Limits::depth(depth), None, |_| {});
            nodes += r.nodes;
            let mut p = prob.position.clone();
            let found = r.score.mate_in().is_some_and(|n| n > 0 && n <= prob.moves as i32)
                && r.best.is_some_and(|m| keeps_mate(&mut p, m, prob.moves));
            total[prob.moves as usize] += 1;
            if !found {
                missed[prob.moves as usize] += 1;
                eprintln!("missed mate in {}: {} ({} {:?})", prob.moves, prob.position, r.score, r.best);
            }
        }
        println!(
            "{rs}: depth {depth}: mate in 1 missed {}/{}, mate in 2 missed {}/{}, {nodes} nodes",
            missed[1], total[1], missed[2], total[2]
        );
    }
}
