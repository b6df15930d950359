//! Prints random endgames as position texts, one per line, for `fiveup match --openings FILE`
//! (the mop-up conversion measurement in `docs/ENGINE.md`):
//! `cargo run --release --example endgames -- RULESET WHITE BLACK COUNT [SEED]`, where WHITE and
//! BLACK are the men besides the kings as piece letters (`QR`, `-` for none), e.g.
//! `cargo run --release --example endgames -- fiveup RUPP N 20`.

use fiveup::engine::random_endgame;
use fiveup::rules::{Kind, Ruleset, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 || args.len() > 5 {
        eprintln!("usage: endgames RULESET WHITE BLACK COUNT [SEED]   (men as letters, `-` for none)");
        std::process::exit(2);
    }
    let fail = |what: String| -> ! {
        eprintln!("error: {what}");
        std::process::exit(1)
    };
    let ruleset: Ruleset = args[0].parse().unwrap_or_else(|e| fail(format!("{e}")));
    let men = |s: &str| -> Vec<Kind> {
        s.chars()
            .filter(|&c| c != '-')
            .map(|c| {
                ruleset
                    .kind_from_letter(c)
                    .filter(|&k| k != Kind::King)
                    .unwrap_or_else(|| fail(format!("{ruleset} has no man {c:?} (kings are always placed)")))
            })
            .collect()
    };
    let (white, black) = (men(&args[1]), men(&args[2]));
    let count: u64 = args[3].parse().unwrap_or_else(|_| fail(format!("COUNT {:?} is not a number", args[3])));
    let seed: u64 = match args.get(4) {
        Some(s) => s.parse().unwrap_or_else(|_| fail(format!("SEED {s:?} is not a number"))),
        None => 0,
    };
    for i in 0..count {
        match random_endgame(Variant::plain(ruleset), &white, &black, seed.wrapping_add(i)) {
            Some(p) => println!("{p}"),
            None => fail(format!("no legal position with these men (white {}, black {})", args[1], args[2])),
        }
    }
}
