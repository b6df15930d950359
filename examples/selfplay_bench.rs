//! Self-play throughput with the uniform evaluator until `fiveup bench selfplay` is wired:
//! `cargo run --release --example selfplay_bench -- SIMS [gumbel|puct] [CONCURRENT] [GAMES] [PLY_CAP]`.

use fiveup::mcts::{SearchConfig, SearchKind};
use fiveup::nn::UniformEvaluator;
use fiveup::rules::Variant;
use fiveup::selfplay::{bench, bench_config};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let sims = arg(0, 32) as u32;
    let kind = match args.get(1).map(String::as_str) {
        Some("puct") => SearchKind::Puct,
        _ => SearchKind::Gumbel,
    };
    let concurrent = arg(2, 128) as usize;
    let games = arg(3, 128);
    let ply_cap = arg(4, 100) as u32;
    let search = SearchConfig { kind, ..SearchConfig::default() };
    let cfg =
        bench_config(fiveup::rules::Position::startpos(Variant::default()), search, sims, concurrent, games, ply_cap);
    let r = bench(&cfg, &mut UniformEvaluator::default()).expect("the uniform evaluator does not fail");
    println!(
        "{kind:?} sims {sims} concurrent {concurrent} ply cap {ply_cap} threads {}: {}",
        rayon::current_num_threads(),
        r.line()
    );
}
