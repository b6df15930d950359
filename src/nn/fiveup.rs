//! The 5x5x5 games (Five Up, both texts, and Raumschach) as a [`NetGame`]: the trait forwards to
//! [`super::encode`], [`super::policy`] and [`super::symmetry`], so their planes, policy indices
//! and symmetries are exactly those functions' (and their exhaustive tests cover them).

use super::encode::{self, PLANES};
use super::netgame::{GameSymmetry, NetGame, PolicyIndex};
use super::policy::{self, POLICY_CHANNELS};
use super::symmetry::Symmetry;
use crate::rules::{Move, Position};

impl NetGame for Position {
    type Symmetry = Symmetry;
    const ENCODING: &'static str = "fiveup";
    const PLANES: usize = PLANES;
    const SHAPE: [usize; 3] = [5, 5, 5];
    const POLICY_CHANNELS: usize = POLICY_CHANNELS;

    #[inline]
    fn encode_into(&self, repetitions: u32, out: &mut [f32]) {
        encode::encode_into(self, repetitions, out)
    }

    #[inline]
    fn try_move_to_index(&self, m: Move) -> Option<PolicyIndex> {
        policy::try_move_to_index(self, m)
    }

    fn index_to_move_in(&self, legal: &[Move], idx: PolicyIndex) -> Option<Move> {
        policy::index_to_move_in(self, legal, idx)
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        Symmetry::all(self.variant())
    }
}

const _: () = assert!(<Position as NetGame>::INPUT_SIZE == encode::INPUT_SIZE);
const _: () = assert!(<Position as NetGame>::POLICY_SIZE == policy::POLICY_SIZE);

impl GameSymmetry<Position> for Symmetry {
    fn inverse(self) -> Symmetry {
        Symmetry::inverse(self)
    }
    fn apply_position(self, pos: &Position) -> Position {
        Symmetry::apply_position(self, pos)
    }
    fn apply_move(self, m: Move) -> Move {
        Symmetry::apply_move(self, m)
    }
    fn apply_planes(self, input: &[f32], out: &mut [f32]) {
        Symmetry::apply_planes(self, input, out)
    }
    fn apply_index(self, idx: PolicyIndex) -> PolicyIndex {
        Symmetry::apply_index(self, idx)
    }
    fn apply_policy(self, input: &[f32], out: &mut [f32]) {
        Symmetry::apply_policy(self, input, out)
    }
}

#[cfg(test)]
mod tests {
    use crate::nn::testutil::{all_variants, check_policy_map, check_symmetries, MapSeen};
    use crate::rng::SplitMix64;
    use crate::rules::random::random_positions;

    /// The checks every game passes, through the trait (the exhaustive 5x5x5 tests sit next to
    /// the functions the trait forwards to).
    #[test]
    fn the_shared_checks_pass_on_every_variant() {
        let mut rng = SplitMix64::new(9);
        let mut logits = vec![0.0f32; crate::nn::POLICY_SIZE];
        let mut seen = MapSeen::default();
        for (i, v) in all_variants().into_iter().enumerate() {
            for (j, p) in random_positions(v, 300 + i as u64, 2, 30).iter().enumerate() {
                check_policy_map(p, j % 20 == 0, &mut seen);
                if j % 10 == 0 {
                    logits.iter_mut().for_each(|x| *x = (rng.next_u64() % 4000) as f32 / 1000.0 - 2.0);
                    check_symmetries(p, (j % 3) as u32, &logits);
                }
            }
        }
        assert!(seen.moves > 1000, "{seen:?}");
    }
}
