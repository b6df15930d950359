//! The alpha-beta engine: hand-written evaluation, transposition table, move ordering and an
//! iterative-deepening principal-variation search, written once for every game.
//!
//! The search, the table and the move-ordering memory are generic over a [`SearchBoard`]
//! ([`board`]): a game's position with its evaluation state, its evaluation, its split of the
//! moves into noisy and quiet ones, the moves quiescence tries and its check test. [`Engine`]`<B>`
//! is monomorphised per game (no dynamic dispatch per node). The 5x5x5 games (the default `B`)
//! are [`FiveUpBoard`] with the modules below; 4D Quasi-Alice Chess is [`quasi_alice`] and Mixed
//! 3D Chess [`mixed3d`] (each with its own evaluation and weights).
//!
//! Design of the search and of the 5x5x5 side:
//! - [`search`]: [`Engine::search`] deepens 1, 2, ... with aspiration windows around the last
//!   score; each depth is a fail-soft PVS ([`search`]'s `negamax`) with check extension, null-move
//!   pruning (not in check, not with pawns and king only), reverse futility and late-move
//!   pruning near the horizon, and late-move reductions (log-log table, less at PV nodes and for
//!   moves with good history). Iterations 1 to 4 skip root reductions and keep reverse futility to
//!   one ply above the horizon, so that every generated mate in one and two ([`mates`]) is found
//!   at depth 4. Below the horizon a quiescence search tries captures and queen promotions, and
//!   every evasion when in check. Draws inside the search: repetition against the game's hashes
//!   plus the search path (one repetition suffices), the fifty-move rule, bare kings; stalemate
//!   scores 0; mate scores count plies from the root ([`score`]).
//! - [`eval`]: one function, [`evaluate`], from the side to move; weights in [`Weights`], loadable
//!   from TOML ([`weights`]). The search gets the same value incrementally (`incremental`): only
//!   the pieces a move can affect have their attack sets recomputed.
//! - [`tt`]: four-entry clusters, depth-preferred replacement, node-relative mate scores.
//! - [`ordering`]: TT move, MVV-LVA captures (bad ones late), killers, history; the capture
//!   generator of quiescence. Move generation of the rules core lists placement variants (up to
//!   ~200 moves a node), so moves come from a staged picker (quiet moves are scored only when a
//!   node gets that far) and late quiet moves are reduced hard. The move and capture generators
//!   take their attack sets from the incremental evaluation.
//! - Limits: depth, nodes, time and a stop flag (`Arc<AtomicBool>`). Searches limited by depth or
//!   nodes are reproducible: the table and heuristics are cleared per search unless
//!   [`EngineConfig::keep_tt`] is set.
//! - [`nnue`]: the NNUE evaluator the search may use instead of the hand evaluation (inference
//!   only; its training is `crate::train::nnue`).
//!
//! The engine knows nothing of text notation; [`bench()`] gives a node-count signature and speed.

pub mod board;
pub mod eval;
mod fiveup_board;
pub mod heuristics;
mod incremental;
pub mod mates;
pub mod mixed3d;
pub mod nnue;
pub mod ordering;
pub mod quasi_alice;
pub mod score;
pub mod search;
pub mod tt;
pub mod weights;

#[cfg(test)]
mod tablebase_tests;

pub use board::{SearchBoard, SearchMove};
pub use eval::evaluate;
pub use fiveup_board::{FiveUpBoard, FiveUpEval};
pub use score::Score;
pub use search::{Engine, EngineConfig, Iteration, Limits, Quiescence, SearchResult, MAX_THREADS};
pub use weights::{Weights, WeightsError};

use crate::rules::{Position, Ruleset, Variant};
use std::time::{Duration, Instant};

/// The result of [`bench()`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Positions searched.
    pub positions: usize,
    /// Total nodes (the signature: it changes only when the search or evaluation changes).
    pub nodes: u64,
    /// Total wall-clock time of the searches (building each engine, which allocates its table, is
    /// not counted).
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// The fixed bench positions: each ruleset's start position and positions after 8, 16 and 24
/// pseudo-random plies (a fixed linear congruential sequence over the generated move lists).
pub fn bench_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for rs in Ruleset::ALL {
        for (i, plies) in [0usize, 8, 16, 24].into_iter().enumerate() {
            out.push(crate::rules::random::scrambled(Variant::plain(rs), plies, 0x5EED + i as u64));
        }
    }
    out
}

/// A random endgame of `variant`: the two kings plus `white`'s and `black`'s men on cells drawn
/// by `seed` (ChaCha8), white to move, no reserve and no rights. Cells are redrawn until the setup
/// is a legal position (so black is not in check) in which white has a legal move; `None` when
/// [`ENDGAME_TRIES`] draws found none (too many men, or men that cannot stand legally). Used by
/// the mop-up tests, the conversion measurement (`examples/endgames.rs`) and [`mates`].
pub fn random_endgame(
    variant: Variant,
    white: &[crate::rules::Kind],
    black: &[crate::rules::Kind],
    seed: u64,
) -> Option<Position> {
    use crate::game::Color;
    use crate::rules::{Kind, Piece, Setup};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    if white.len() + black.len() + 2 > 125 {
        return None;
    }
    for _ in 0..ENDGAME_TRIES {
        let mut s = Setup::empty(variant);
        let men = [(Color::White, Kind::King), (Color::Black, Kind::King)]
            .into_iter()
            .chain(white.iter().map(|&k| (Color::White, k)))
            .chain(black.iter().map(|&k| (Color::Black, k)));
        for (free, (color, kind)) in (0..125usize).rev().zip(men) {
            // The k-th free cell, k uniform over the `free + 1` free cells.
            let k = rng.gen_range(0..free + 1);
            let c = (0..125).filter(|&c| s.board[c].is_none()).nth(k).expect("k < free cells");
            s.board[c] = Some(Piece::new(color, kind));
        }
        // `from_setup` refuses a side not to move in check and pawns on their promotion rows.
        if let Ok(p) = Position::from_setup(s) {
            if !p.legal_moves().is_empty() {
                return Some(p);
            }
        }
    }
    None
}

/// Draws [`random_endgame`] makes before it gives up.
pub const ENDGAME_TRIES: usize = 10_000;

/// Searches every [`bench_positions`] position to `depth` with a fresh `hash_mb` table each and
/// default weights of its ruleset; returns total nodes and search time.
pub fn bench(depth: u32, hash_mb: usize) -> BenchResult {
    let positions = bench_positions();
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for p in &positions {
        let mut e =
            Engine::new(Weights::for_ruleset(p.ruleset()), EngineConfig { hash_mb, keep_tt: false, threads: 1 });
        let start = Instant::now();
        nodes += e.search(p, &[], &Limits::depth(depth), None, |_| {}).nodes;
        time += start.elapsed();
    }
    BenchResult { positions: positions.len(), nodes, time }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use crate::rules::Kind;

    #[test]
    fn random_endgames_hold_their_men_or_give_up() {
        let v = Variant::plain(Ruleset::FiveUp);
        let p = random_endgame(v, &[Kind::Queen, Kind::Rook], &[Kind::Knight], 7).unwrap();
        assert_eq!(p.occupied().0.count_ones(), 5);
        assert_eq!(p.pieces(Color::White, Kind::Queen).0.count_ones(), 1);
        assert_eq!(p.pieces(Color::Black, Kind::Knight).0.count_ones(), 1);
        assert!(p.side() == Color::White && !p.legal_moves().is_empty());
        // More men than cells, and men that always leave black in check: no position, no hang.
        assert!(random_endgame(v, &[Kind::Queen; 124], &[], 0).is_none());
        assert!(random_endgame(v, &[Kind::Queen; 100], &[], 0).is_none());
    }
}
