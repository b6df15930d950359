fn main() {
    use fiveup::rules::*;
    let args: Vec<String> = std::env::args().collect();
    let rs: Ruleset = args.get(1).map(|s| s.parse().unwrap()).unwrap_or_default();
    let d: u32 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let mut p = Position::startpos(Variant::plain(rs));
    let t = std::time::Instant::now();
    let n = perft::perft(&mut p, d);
    println!("perft({d}) = {n} in {:?}", t.elapsed());
}
