//! Search scores: centipawns from the side to move, with mate scores counted by distance.
//!
//! A mate found `n` plies from the root scores `MATE - n` for the winner (`-(MATE - n)` for the
//! loser), so a shorter mate always scores higher. Every score with `|s| >= MATE_BOUND` is a mate
//! score; the transposition table stores them relative to the node (see [`super::tt`]).

use std::fmt;

/// Score of being mated at the root (negated) / mating at the root.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score; the initial search window.
pub const INFINITE: i32 = MATE + 1;
/// Score of a draw (no contempt).
pub const DRAW: i32 = 0;

/// A search score from the point of view of the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// Whether this is a mate score (either side).
    pub const fn is_mate(self) -> bool {
        self.0 >= MATE_BOUND || self.0 <= -MATE_BOUND
    }

    /// Mate in N moves (full moves of the winner): positive when the side to move mates, negative
    /// when it is mated; `None` for an ordinary score. Mated now is `Some(0)`.
    pub const fn mate_in(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some((MATE - self.0 + 1) / 2)
        } else if self.0 <= -MATE_BOUND {
            Some(-((MATE + self.0) / 2))
        } else {
            None
        }
    }

    /// Centipawns, or `None` for a mate score.
    pub const fn centipawns(self) -> Option<i32> {
        if self.is_mate() {
            None
        } else {
            Some(self.0)
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35`, `mate 3` (side to move mates in 3), `mate -2` (side to move is mated in 2).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_in() {
            Some(n) => write!(f, "mate {n}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

/// Score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score of mating `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Centipawns per unit of the NNUE's output: the sigmoid scale of its training targets
/// (`crate::train::nnue`), and how MCTS reads an NNUE score as an expected score
/// (`mcts::quiesce`).
pub const SCORE_SCALE: f32 = 400.0;

/// An engine score (side to move, [`Score`]'s integer) as a win expectation
/// `E = 1 / (1 + e^(−cp / scale))`; mate scores map to 1 (mating) or 0 (mated).
pub fn score_to_expectation(score: i32, scale: f32) -> f32 {
    let s = Score(score);
    match (s.centipawns(), s.mate_in()) {
        (Some(cp), _) => 1.0 / (1.0 + (-(cp as f32) / scale).exp()),
        (None, Some(n)) if n > 0 => 1.0,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(Score(mate_in(1)).to_string(), "mate 1");
        assert_eq!(Score(mate_in(3)).to_string(), "mate 2");
        assert_eq!(Score(mated_in(0)).to_string(), "mate 0");
        assert_eq!(Score(mated_in(2)).to_string(), "mate -1");
        assert_eq!(Score(mated_in(4)).to_string(), "mate -2");
        assert_eq!(Score(35).to_string(), "cp 35");
        assert!(Score(mate_in(100)).is_mate());
        assert!(!Score(2_000).is_mate());
        assert_eq!(Score(-12).centipawns(), Some(-12));
    }

    #[test]
    fn scores_map_to_expectations() {
        assert!((score_to_expectation(0, 400.0) - 0.5).abs() < 1e-6);
        assert!((score_to_expectation(400, 400.0) - 0.731).abs() < 1e-3);
        assert_eq!(score_to_expectation(mate_in(3), 400.0), 1.0);
        assert_eq!(score_to_expectation(mated_in(2), 400.0), 0.0);
    }
}
