//! Helpers shared by the tests of the neural stack: every variant (random games come from
//! [`crate::rules::random`]).

use crate::rules::types::Ruleset;
use crate::rules::Variant;

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
