//! Positions along pseudo-random games: the one generator of random positions that tests,
//! benches and the bench signature use.
//!
//! - [`RandomGames`] walks seeded random games (uniform legal moves drawn by
//!   [`SplitMix64`](crate::rng::SplitMix64)), yielding every position that has a legal move and
//!   starting the next game from the start position when a game ends or reaches its ply cap.
//! - [`scrambled`] is the start position after a number of random plies drawn by a linear
//!   congruential sequence; the engine's bench positions, and so the `fiveup bench search`
//!   node-count signature, are built from it, so its stream must never change.
//!
//! Random *placements* of men (endgames, mate problems) are the engine's
//! (`crate::engine::random_endgame`): they draw cells, not moves.

use super::{Position, Variant};
use crate::rng::{lcg_step, SplitMix64};

/// The start position of `variant` after `plies` pseudo-random legal moves chosen by `seed`
/// (stops early at a position without moves).
pub fn scrambled(variant: Variant, plies: usize, seed: u64) -> Position {
    let mut p = Position::startpos(variant);
    let mut s = seed;
    for _ in 0..plies {
        let ms = p.legal_moves();
        if ms.is_empty() {
            break;
        }
        s = lcg_step(s);
        p.make(ms[(s >> 33) as usize % ms.len()]);
    }
    p
}

/// An endless iterator over the positions of seeded random games of one variant.
///
/// Each yielded position has at least one legal move; a game restarts from the start position
/// after `max_plies` plies or at a position without legal moves (which is not yielded). The
/// stream depends only on the variant, the seed and `max_plies`.
pub struct RandomGames {
    variant: Variant,
    rng: SplitMix64,
    max_plies: usize,
    pos: Position,
    ply: usize,
}

impl RandomGames {
    /// Random games of `variant` seeded by `seed`, each at most `max_plies` plies long
    /// (`max_plies` ≥ 1).
    pub fn new(variant: Variant, seed: u64, max_plies: usize) -> RandomGames {
        assert!(max_plies >= 1, "random games need at least one ply");
        RandomGames { variant, rng: SplitMix64::new(seed), max_plies, pos: Position::startpos(variant), ply: 0 }
    }
}

impl Iterator for RandomGames {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        loop {
            let moves = self.pos.legal_moves();
            if moves.is_empty() || self.ply >= self.max_plies {
                self.pos = Position::startpos(self.variant);
                self.ply = 0;
                continue;
            }
            let out = self.pos.clone();
            let m = moves[self.rng.below(moves.len())];
            self.pos.make(m);
            self.ply += 1;
            return Some(out);
        }
    }
}

/// The positions of `games` seeded random games of `variant`, `plies` each at most (the start
/// positions included): the first `games · plies` positions of [`RandomGames`] when no game
/// ends early.
pub fn random_positions(variant: Variant, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    RandomGames::new(variant, seed, plies.max(1)).take(games * plies).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;

    #[test]
    fn random_games_are_legal_seeded_and_restart() {
        for rs in Ruleset::ALL {
            let v = Variant::plain(rs);
            let a: Vec<Position> = RandomGames::new(v, 3, 10).take(35).collect();
            let b: Vec<Position> = RandomGames::new(v, 3, 10).take(35).collect();
            assert_eq!(
                a.iter().map(Position::hash).collect::<Vec<_>>(),
                b.iter().map(Position::hash).collect::<Vec<_>>()
            );
            // Positions 0, 10, 20, 30 are start positions (games of 10 plies never end early here).
            for i in [0, 10, 20, 30] {
                assert_eq!(a[i].hash(), Position::startpos(v).hash(), "{rs} {i}");
            }
            // Each next position in a game is reached by a legal move of the previous one.
            for w in a.windows(2).filter(|w| w[1].hash() != Position::startpos(v).hash()) {
                let reached = w[0].legal_moves().into_iter().any(|m| {
                    let mut p = w[0].clone();
                    p.make(m);
                    p.hash() == w[1].hash()
                });
                assert!(reached, "{rs}: a step that is not a legal move");
            }
            let c: Vec<u64> = RandomGames::new(v, 4, 10).take(35).map(|p| p.hash()).collect();
            assert_ne!(c, a.iter().map(Position::hash).collect::<Vec<_>>());
            assert_eq!(random_positions(v, 3, 3, 10).len(), 30);
        }
    }

    #[test]
    fn scrambled_positions_are_pinned() {
        // The bench signature rests on this stream: the plies taken from a fixed seed.
        let v = Variant::plain(Ruleset::FiveUp);
        let p = scrambled(v, 8, 0x5EED);
        assert_eq!(p.fullmove(), 5);
        assert_eq!(scrambled(v, 8, 0x5EED).hash(), p.hash());
        assert_ne!(scrambled(v, 8, 0x5EEE).hash(), p.hash());
        assert_eq!(scrambled(v, 0, 1).hash(), Position::startpos(v).hash());
    }
}
