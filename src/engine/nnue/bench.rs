//! The incremental-evaluation micro-benchmark: random games walked with an accumulator update
//! and an evaluation per move.

use super::{touched_cells, Accumulator, KingCache, Network};
use crate::rules::{Move, Position, Ruleset};
use rand::{Rng, SeedableRng};

/// A game of the incremental-evaluation micro-benchmark ([`benchmark_games`]).
#[derive(Clone, Debug)]
pub struct BenchGame {
    /// The positions in order, the start first.
    pub positions: Vec<Position>,
    /// `moves[i]` leads from `positions[i]` to `positions[i + 1]`.
    pub moves: Vec<Move>,
}

/// The games of the incremental-evaluation micro-benchmark (`fiveup bench search --nnue`,
/// `examples/nnue_speed.rs`): random games of `ruleset` from its start (seed 1, at most 120 plies
/// each) until 20,000 positions.
pub fn benchmark_games(ruleset: Ruleset) -> Vec<BenchGame> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut games: Vec<BenchGame> = Vec::new();
    while games.iter().map(|g| g.positions.len()).sum::<usize>() < 20_000 {
        let mut p = Position::startpos(crate::rules::Variant::plain(ruleset));
        let mut game = BenchGame { positions: vec![p.clone()], moves: Vec::new() };
        for _ in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            p.make(m);
            game.positions.push(p.clone());
            game.moves.push(m);
        }
        games.push(game);
    }
    games
}

/// The accumulators of each of `games`' first positions, for [`measured_walk`] (computed before
/// its clock starts: a refresh is not an incremental evaluation).
pub fn walk_starts(net: &Network, games: &[BenchGame]) -> Vec<Accumulator> {
    games.iter().map(|g| Accumulator::refresh(net, &g.positions[0])).collect()
}

/// The incremental-evaluation micro-benchmark (`fiveup bench search --nnue`,
/// `examples/nnue_speed.rs`): along each of `games` from its accumulator in `starts`
/// ([`walk_starts`]), every move is followed by an accumulator update and an evaluation, as the
/// search does at a node that evaluates one move after its parent (the update reads the cells the
/// move touched, [`touched_cells`], as the search's [`Stack`] does, though in place where the
/// stack updates from a parent's accumulator into the next; a king crossing into another
/// bucket is refreshed from a [`KingCache`], as there; each game's start is copied, inside the
/// clock, as the search copies a parent's sums). Returns how many evaluations were made
/// and a checksum of them (equal checksums: equal results). Not inlined, so that a profiler can
/// count this part alone (`--toggle-collect='*measured_walk*'`).
///
/// [`Stack`]: super::Stack
#[inline(never)]
pub fn measured_walk(net: &Network, games: &[BenchGame], starts: &[Accumulator]) -> (usize, i64) {
    debug_assert_eq!(games.len(), starts.len(), "one start per game");
    let (mut evals, mut sum) = (0, 0i64);
    let mut cache = KingCache::default();
    for (game, start) in games.iter().zip(starts) {
        let mut acc = start.clone();
        for (p, &m) in game.positions[1..].iter().zip(&game.moves) {
            acc.update_cached(None, net, p, touched_cells(m), true, Some(&mut cache));
            sum = sum.wrapping_mul(31).wrapping_add(net.evaluate(&acc, p.side()) as i64);
            evals += 1;
        }
    }
    (evals, sum)
}
