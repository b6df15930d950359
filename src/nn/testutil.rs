//! Helpers shared by the tests of the neural stack: every 5x5x5 variant (random 5x5x5 games come
//! from [`crate::rules::random`]), random games of any game, and the checks every [`NetGame`]
//! passes (the policy map, the symmetries).

use crate::game::{legal_moves, State};
use crate::nn::netgame::{encode, index_to_move, legal_policy, move_to_index, GameSymmetry, NetGame};
use crate::rng::SplitMix64;
use crate::rules::types::Ruleset;
use crate::rules::Variant;
use std::collections::HashSet;

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

/// The positions of `games` seeded random games from `start`, `plies` each at most (the start
/// included), for any game: the test suite that every [`NetGame`] runs.
pub fn random_games<S: State>(start: &S, seed: u64, games: usize, plies: usize) -> Vec<S> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(games * plies);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = start.clone();
        for _ in 0..plies {
            out.push(p.clone());
            moves.clear();
            p.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// What [`check_policy_map`] saw.
#[derive(Clone, Copy, Debug, Default)]
pub struct MapSeen {
    /// Legal moves checked.
    pub moves: usize,
}

/// Checks the policy map of one position: every legal move has an index in range, no two share
/// one, and the index decodes back to the move among the legal moves (and, when `full_decode`,
/// from the position alone).
pub fn check_policy_map<S: NetGame>(p: &S, full_decode: bool, seen: &mut MapSeen) {
    let moves = legal_moves(p);
    let mut set = HashSet::new();
    for &m in &moves {
        let idx = move_to_index(p, m);
        assert!(idx.indices().all(|i| (i as usize) < S::POLICY_SIZE), "{m:?}: {idx:?} out of range");
        assert!(set.insert(idx), "two moves share {idx:?} in {}", p.to_text());
        assert_eq!(p.index_to_move_in(&moves, idx), Some(m), "round trip of {m:?} in {}", p.to_text());
        seen.moves += 1;
    }
    if full_decode {
        for &m in moves.iter().take(8) {
            assert_eq!(index_to_move(p, move_to_index(p, m)), Some(m));
        }
    }
}

/// Checks every symmetry of one position: the image's legal moves are the images of the legal
/// moves, encoding and the policy map commute with it, the legal-move softmax of mapped logits
/// equals the original, and the inverse undoes it all. `logits` is any `S::POLICY_SIZE` vector.
pub fn check_symmetries<S: NetGame>(p: &S, reps: u32, logits: &[f32]) {
    let moves = legal_moves(p);
    let planes = encode(p, reps);
    let mut p1 = Vec::new();
    legal_policy(p, &moves, logits, &mut p1);
    let (mut mapped_planes, mut back_planes) = (vec![0.0; S::INPUT_SIZE], vec![0.0; S::INPUT_SIZE]);
    let (mut mapped_logits, mut back_logits) = (vec![0.0; S::POLICY_SIZE], vec![0.0; S::POLICY_SIZE]);
    let mut p2 = Vec::new();
    let syms = p.symmetries();
    assert!(!syms.is_empty());
    for &s in syms {
        let q = s.apply_position(p);
        // The image's legal moves are exactly the images of the legal moves.
        let qm: Vec<S::Move> = moves.iter().map(|&m| s.apply_move(m)).collect();
        let want: HashSet<S::Move> = qm.iter().copied().collect();
        let got: HashSet<S::Move> = legal_moves(&q).into_iter().collect();
        assert_eq!(want.len(), moves.len(), "{s:?} maps two moves to one");
        assert_eq!(got, want, "{s:?} of {}", p.to_text());
        assert_eq!(q.symmetries().len(), syms.len(), "{s:?}: the image has another group");
        // Planes, policy indices and the distribution over the legal moves commute.
        s.apply_planes(&planes, &mut mapped_planes);
        assert!(encode(&q, reps) == mapped_planes, "{s:?}: planes of {}", p.to_text());
        for &m in &moves {
            assert_eq!(move_to_index(&q, s.apply_move(m)), s.apply_index(move_to_index(p, m)), "{s:?} {m:?}");
        }
        s.apply_policy(logits, &mut mapped_logits);
        legal_policy(&q, &qm, &mapped_logits, &mut p2);
        for (a, b) in p1.iter().zip(&p2) {
            assert!((a - b).abs() < 1e-6, "{s:?}: priors differ");
        }
        // The inverse undoes it.
        let inv = s.inverse();
        let back = inv.apply_position(&q);
        assert_eq!(back.to_text(), p.to_text(), "{s:?}: the inverse does not restore the position");
        assert_eq!(back.hash(), p.hash());
        for &m in &moves {
            assert_eq!(inv.apply_move(s.apply_move(m)), m);
        }
        inv.apply_planes(&mapped_planes, &mut back_planes);
        assert!(back_planes == planes);
        inv.apply_policy(&mapped_logits, &mut back_logits);
        assert!(back_logits == logits);
    }
}
