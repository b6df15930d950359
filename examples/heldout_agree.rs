//! How often players choose the move of a run's held-out label (the deep search's move), on the
//! run's held-out set (`RUN/heldout.shard`): the policy top-1 figure of the training metrics, but
//! for any player spec, to see what a search teaches a network that learns its choices
//! (docs/RESULTS.md):
//! `cargo run --release --example heldout_agree -- RUN COUNT SPEC...`, e.g.
//! `cargo run --release --example heldout_agree -- runs/cpu-selfplay 2000 ab:depth=1,eval=nnue`.
//! The first COUNT positions of the set are used; each player sees them without their games'
//! history (repetitions aside, the same positions the network sees).

use fiveup::player::spec::PlayerSpec;
use fiveup::train::heldout;
use fiveup::train::RunDir;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fail = |what: String| -> ! {
        eprintln!("error: {what}");
        std::process::exit(1)
    };
    if args.len() < 3 {
        fail("usage: heldout_agree RUN COUNT SPEC...".into());
    }
    let run = RunDir::new(Path::new(&args[0]));
    let count: usize = args[1].parse().unwrap_or_else(|e| fail(format!("COUNT {:?}: {e}", args[1])));
    let items = heldout::load(&run).unwrap_or_else(|e| fail(e.to_string()));
    if items.is_empty() {
        fail(format!("{}: no held-out set", args[0]));
    }
    let items = &items[..count.min(items.len())];
    for spec in &args[2..] {
        let s = PlayerSpec::parse_unlimited(spec).unwrap_or_else(|e| fail(format!("{spec}: {e}")));
        let mut player = s.build().unwrap_or_else(|e| fail(format!("{spec}: {e}")));
        let t0 = Instant::now();
        let mut agree = 0usize;
        for it in items {
            player.new_game();
            let c = player.choose(&it.position, &[]).unwrap_or_else(|e| fail(format!("{spec}: {e}")));
            agree += usize::from(c.mv.bits() == it.label_move);
        }
        let n = items.len() as f64;
        let p = agree as f64 / n;
        println!(
            "{spec}: {agree}/{} = {p:.3} ± {:.3} (95%), {:.1} ms a position",
            items.len(),
            1.96 * (p * (1.0 - p) / n).sqrt(),
            t0.elapsed().as_secs_f64() * 1e3 / n
        );
    }
}
