//! The openings of the imbalance matches: the same few random quiet plies in both games of a
//! colour-swapped pair, and the random stream of each pair. The games themselves are played by
//! the project's one match runner ([`crate::eval::runner`]).

use super::game::ValuesGame;
use crate::game::legal_moves;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays the same `plies` random moves in two positions with the same side to move (the two games
/// of a colour-swapped pair): each move is drawn uniformly from the quiet moves legal in both (no
/// capture, no promotion), so the two openings are identical move for move. Stops early when no
/// such move is left or a move would end a game. Returns the moves played.
pub fn shared_opening<G: ValuesGame>(a: &mut G, b: &mut G, plies: usize, rng: &mut ChaCha8Rng) -> Vec<G::Move> {
    let mut played = Vec::new();
    for _ in 0..plies {
        if a.side() != b.side() {
            break;
        }
        let in_b = legal_moves(b);
        let common: Vec<G::Move> = legal_moves(a)
            .into_iter()
            .filter(|&m| a.opening_move_is_quiet(m) && b.opening_move_is_quiet(m) && in_b.contains(&m))
            .collect();
        if common.is_empty() {
            break;
        }
        let m = common[rng.gen_range(0..common.len())];
        let (mut na, mut nb) = (a.clone(), b.clone());
        na.make(m);
        nb.make(m);
        if !na.has_legal_move() || !nb.has_legal_move() {
            break;
        }
        *a = na;
        *b = nb;
        played.push(m);
    }
    played
}

/// The random stream of one pair: derived from the run seed, the imbalance's number and the pair's.
pub fn pair_rng(seed: u64, imbalance: usize, pair: usize) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    r.set_stream(((imbalance as u64) << 32) | pair as u64);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::openings::Opening;
    use crate::eval::runner::{play_game, GameJob, PlayerSource};
    use crate::game::Color;
    use crate::game::EndRule;
    use crate::player::spec::PlayerSpec;
    use crate::rules::{Kind, Ruleset, Variant};
    use crate::values::setups::Imbalance;

    #[test]
    fn openings_are_shared_and_games_finish() {
        let v = Variant::plain(Ruleset::FiveUp);
        let imb = Imbalance::exchange(Kind::Silver, Kind::Rook);
        let mut a = imb.position(v, Color::White, 0).unwrap();
        let mut b = imb.position(v, Color::Black, 0).unwrap();
        let moves = shared_opening(&mut a, &mut b, 6, &mut pair_rng(1, 2, 3));
        assert_eq!(moves.len(), 6);
        let again = {
            let (mut a2, mut b2) =
                (imb.position(v, Color::White, 0).unwrap(), imb.position(v, Color::Black, 0).unwrap());
            shared_opening(&mut a2, &mut b2, 6, &mut pair_rng(1, 2, 3))
        };
        assert_eq!(moves, again);
        let src = |s: &str| PlayerSource::Spec(s.parse::<PlayerSpec>().unwrap());
        let job = GameJob {
            live: None,
            adjudicate: None,
            tc: None,
            white: src("random:seed=1"),
            black: src("random:seed=2"),
            opening: Opening { start: a, moves: Vec::new() },
            max_plies: Some(40),
            event: "t".into(),
            tags: Vec::new(),
        };
        let g = play_game(&job).unwrap();
        assert!(g.moves.len() <= 40);
        if g.moves.len() == 40 {
            assert_eq!(g.outcome.unwrap().rule, EndRule::Adjudication);
        }
    }
}
