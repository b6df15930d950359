//! `random[:seed=N]`: a uniform random legal mover.

use super::spec::PlayerSpec;
use super::{Choice, PlayError, Player, SearchInfo};
use crate::game::State;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Plays a uniformly random legal move from a seeded ChaCha8 stream (reproducible: the same seed
/// and the same positions give the same moves).
pub struct RandomPlayer {
    seed: u64,
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random mover with a seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { seed, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<S: State> Player<S> for RandomPlayer {
    fn name(&self) -> String {
        PlayerSpec::Random { seed: self.seed }.to_string()
    }

    fn choose(&mut self, pos: &S, _history: &[u64]) -> Result<Choice<S::Move>, PlayError> {
        let start = Instant::now();
        let moves = crate::game::legal_moves(pos);
        if moves.is_empty() {
            return Err(PlayError::NoLegalMove);
        }
        let mv = moves[self.rng.gen_range(0..moves.len())];
        Ok(Choice { mv, info: SearchInfo { pv: vec![mv], time: start.elapsed(), ..SearchInfo::default() } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Ruleset, Variant};

    #[test]
    fn random_player_is_reproducible_by_seed() {
        let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let moves = |seed| {
            let mut r = RandomPlayer::new(seed);
            (0..20).map(|_| r.choose(&p, &[]).unwrap().mv).collect::<Vec<_>>()
        };
        assert_eq!(moves(7), moves(7));
        assert_ne!(moves(7), moves(8));
    }
}
