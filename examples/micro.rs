//! Costs of the engine's building blocks on one position: `cargo run --release --example micro`.

use fiveup::engine::ordering::{captures_into, victim_order};
use fiveup::engine::{evaluate, Weights};
use fiveup::rules::random::scrambled;
use fiveup::rules::{Ruleset, Variant};
use std::time::Instant;
fn main() {
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let p = scrambled(Variant::plain(rs), 16, 3);
        let w = Weights::for_ruleset(rs);
        let n = 1_000_000;
        let t = Instant::now();
        let mut s = 0i64;
        for _ in 0..n {
            s += evaluate(std::hint::black_box(&p), &w) as i64;
        }
        println!("{rs} eval {:.1} ns ({s})", t.elapsed().as_nanos() as f64 / n as f64);
        let mut v = Vec::with_capacity(256);
        let t = Instant::now();
        for _ in 0..n {
            v.clear();
            std::hint::black_box(&p).legal_moves_into(&mut v);
        }
        println!("{rs} legal {:.1} ns ({} moves)", t.elapsed().as_nanos() as f64 / n as f64, v.len());
        let victims = victim_order(rs, &w.values);
        let mut caps = Vec::with_capacity(64);
        let t = Instant::now();
        for _ in 0..n {
            captures_into(
                std::hint::black_box(&p),
                &w.values,
                &victims,
                i32::MIN,
                &fiveup::rules::movegen::Computed,
                &mut caps,
            );
        }
        println!("{rs} captures {:.1} ns ({} moves)", t.elapsed().as_nanos() as f64 / n as f64, caps.len());
        let t = Instant::now();
        let mut c = 0;
        for _ in 0..n {
            c += std::hint::black_box(&p).in_check() as u32;
        }
        println!("{rs} in_check {:.1} ns ({c})", t.elapsed().as_nanos() as f64 / n as f64);
        let m = p.legal_moves()[5];
        let mut q = p.clone();
        let t = Instant::now();
        for _ in 0..n {
            let u = q.make(std::hint::black_box(m));
            q.unmake(m, u);
        }
        println!("{rs} make+unmake {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
    }
}
