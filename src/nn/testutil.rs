//! Helpers shared by the tests of the neural stack: every variant and seeded random games.

use crate::rules::types::Ruleset;
use crate::rules::{Position, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every variant the rules allow.
pub fn all_variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for rs in Ruleset::ALL {
        for castling in [false, true] {
            for cyl in [false, true] {
                if let Ok(x) = Variant::new(rs, castling, cyl) {
                    v.push(x);
                }
            }
        }
    }
    v
}

/// Positions of seeded random games of a variant (the start included).
pub fn random_positions(variant: Variant, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::startpos(variant);
        for _ in 0..plies {
            out.push(p.clone());
            let moves = p.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            p.make(m);
        }
    }
    out
}
