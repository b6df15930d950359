//! Forced mates found by exhaustive search: the ground truth for the engine's mate finding.
//!
//! [`mating_move`] tries every line (no pruning, no evaluation): the side to move mates in `n`
//! when one of its moves checkmates at once or, for `n > 1`, leaves a position in which every
//! reply allows a mate in `n - 1`. [`random_mate_problems`] draws random endgames
//! ([`super::random_endgame`]) with a strong attacking side and keeps those with a mate in exactly
//! one or two moves (none shorter). The engine's test (`tests` below) and `examples/mates.rs`
//! search each at depth 4 and count those where the engine does not report the mate or plays a
//! move that does not keep it.

use crate::rules::{Kind, Move, Position, Variant};

/// A position in which the side to move mates in exactly `moves` moves.
#[derive(Clone, Debug)]
pub struct MateProblem {
    /// The position (the attacker to move).
    pub position: Position,
    /// Moves of the attacker to mate (1 or 2), with no shorter mate.
    pub moves: u32,
}

/// Whether the side to move is checkmated.
fn checkmated(pos: &Position) -> bool {
    pos.in_check() && !pos.has_legal_move()
}

/// A move of the side to move that forces mate within `n` of its moves, if there is one.
pub fn mating_move(pos: &mut Position, n: u32) -> Option<Move> {
    if n == 0 {
        return None;
    }
    for m in pos.legal_moves() {
        let undo = pos.make(m);
        let wins = checkmated(pos) || (n > 1 && pos.has_legal_move() && every_reply_loses(pos, n - 1));
        pos.unmake(m, undo);
        if wins {
            return Some(m);
        }
    }
    None
}

/// Whether every move of the side to move (which has one) allows a mate within `n`.
fn every_reply_loses(pos: &mut Position, n: u32) -> bool {
    pos.legal_moves().into_iter().all(|r| {
        let undo = pos.make(r);
        let lost = mating_move(pos, n).is_some();
        pos.unmake(r, undo);
        lost
    })
}

/// Whether `m`, played by the side to move, keeps a forced mate within `n` moves (itself included).
pub fn keeps_mate(pos: &mut Position, m: Move, n: u32) -> bool {
    let undo = pos.make(m);
    let ok = checkmated(pos) || (n > 1 && pos.has_legal_move() && every_reply_loses(pos, n - 1));
    pos.unmake(m, undo);
    ok
}

/// Up to `count` positions of `variant` with a mate in exactly 1 or 2 (about half each when both
/// are found), from random endgames drawn from `seed` onwards; gives up after `tries` draws.
pub fn random_mate_problems(variant: Variant, count: usize, seed: u64, tries: u64) -> Vec<MateProblem> {
    use Kind::*;
    let minor = if variant.ruleset.is_fiveup() { Unicorn } else { RUnicorn };
    let attackers: [&[Kind]; 5] =
        [&[Queen, Rook], &[Rook, Rook, Bishop], &[Queen, Knight], &[Queen], &[Rook, minor, Pawn]];
    let defenders: [&[Kind]; 3] = [&[], &[Pawn], &[Knight]];
    let mut out = Vec::new();
    let (mut ones, mut twos) = (0, 0);
    for i in 0..tries {
        if out.len() >= count {
            break;
        }
        let s = seed.wrapping_add(i);
        let attack = attackers[(s % 5) as usize];
        let defend = defenders[(s / 5 % 3) as usize];
        let Some(mut p) = super::random_endgame(variant, attack, defend, s) else { continue };
        let moves = if mating_move(&mut p, 1).is_some() {
            1
        } else if mating_move(&mut p, 2).is_some() {
            2
        } else {
            continue;
        };
        // Keep the two kinds balanced: mates in one are far more common.
        let (this, other) = if moves == 1 { (ones, twos) } else { (twos, ones) };
        if this > other + 2 && this * 2 >= count {
            continue;
        }
        if moves == 1 {
            ones += 1;
        } else {
            twos += 1;
        }
        out.push(MateProblem { position: p, moves });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineConfig, Limits, Weights};
    use crate::rules::Ruleset;

    /// Problems of both rulesets whose mate the engine misses at `depth`: not reported as a mate
    /// in at most the problem's moves, or a best move that does not keep the mate.
    fn misses(problems: &[MateProblem], depth: u32) -> Vec<String> {
        let mut out = Vec::new();
        for prob in problems {
            let rs = prob.position.ruleset();
            let mut engine = Engine::new(Weights::for_ruleset(rs), EngineConfig::default());
            let r = engine.search(&prob.position, &[], &Limits::depth(depth), None, |_| {});
            let mut p = prob.position.clone();
            let found = r.score.mate_in().is_some_and(|n| n > 0 && n <= prob.moves as i32)
                && r.best.is_some_and(|m| keeps_mate(&mut p, m, prob.moves));
            if !found {
                out.push(format!("mate in {}: {} (engine: {} {:?})", prob.moves, prob.position, r.score, r.best));
            }
        }
        out
    }

    #[test]
    fn exhaustive_search_finds_mates_and_only_mates() {
        // Generated problems hold what they claim: a mate of exactly their length.
        let v = Variant::plain(Ruleset::FiveUp);
        let problems = random_mate_problems(v, 6, 1, 4_000);
        assert!(problems.iter().any(|p| p.moves == 1) && problems.iter().any(|p| p.moves == 2), "{problems:?}");
        for prob in &problems {
            let mut p = prob.position.clone();
            let m = mating_move(&mut p, prob.moves).expect("a mate");
            assert!(keeps_mate(&mut p, m, prob.moves));
            if prob.moves == 2 {
                assert!(mating_move(&mut p, 1).is_none(), "no shorter mate");
                // The mating line: after any reply a mate in one exists.
                let undo = p.make(m);
                for r in p.legal_moves() {
                    let u = p.make(r);
                    assert!(mating_move(&mut p, 1).is_some());
                    p.unmake(r, u);
                }
                p.unmake(m, undo);
            }
        }
    }

    #[test]
    fn depth_four_finds_every_generated_mate_in_one_and_two() {
        let mut missed = Vec::new();
        let mut total = 0;
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let problems = random_mate_problems(Variant::plain(rs), 24, 1_000, 20_000);
            assert!(problems.len() >= 20, "{rs}: only {} problems", problems.len());
            total += problems.len();
            missed.extend(misses(&problems, 4));
        }
        assert!(missed.is_empty(), "{} of {total} missed:\n{}", missed.len(), missed.join("\n"));
    }

    #[test]
    fn the_issue_mate_in_two_is_found_at_depth_four() {
        // Raumschach, black mates in 2 with Eb4Ec3: depths 4 to 7 played other moves.
        let text = "5/P3B/5/5/5|5/3P1/pr3/5/5|5/1P3/5/5/4R|3u1/p1bP1/5/1q3/5|4K/1k3/5/5/5 b - - - 0 116";
        let p = Position::from_text(text, Variant::plain(Ruleset::Raumschach)).unwrap();
        let mut q = p.clone();
        assert!(mating_move(&mut q, 2).is_some() && mating_move(&mut q, 1).is_none());
        let problems = [MateProblem { position: p, moves: 2 }];
        assert_eq!(misses(&problems, 4), Vec::<String>::new());
    }
}
