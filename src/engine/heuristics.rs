//! What move ordering remembers and works with, for any game: the [`SearchMove`] trait (a move
//! as the tables hold it), scored moves, and the killers and history of [`Heuristics`].

use crate::rules::Move;
use std::fmt::Debug;

/// A move as the engine's tables hold it.
pub trait SearchMove: Copy + Eq + Debug + Send + Sync + 'static {
    /// History slots per side (the butterfly table's size).
    const HISTORY_SLOTS: usize;

    /// The move's bits: below 2^24 and never 0 (the table stores them in 24 bits, 0 meaning no
    /// move); distinct moves have distinct bits. Ties in move ordering are broken by them.
    fn bits(self) -> u32;

    /// The move of [`SearchMove::bits`]; `None` when the bits name no move of this game.
    fn from_bits(bits: u32) -> Option<Self>;

    /// The move's history slot (by origin and destination), below [`SearchMove::HISTORY_SLOTS`].
    fn history_slot(self) -> usize;
}

/// Maximum search ply (tables are sized by it).
pub const MAX_PLY: usize = 128;

/// History values stay within +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// A move with its ordering score.
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove<M = Move> {
    /// The move.
    pub mv: M,
    /// Higher is tried first.
    pub score: i32,
}

/// Killer moves and history: what the search learned about quiet moves.
pub struct Heuristics<M = Move> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: SearchMove> Default for Heuristics<M> {
    fn default() -> Self {
        Heuristics { killers: vec![[None; 2]; MAX_PLY + 1], history: vec![0; 2 * M::HISTORY_SLOTS] }
    }
}

impl<M: SearchMove> Heuristics<M> {
    /// Forgets everything (for reproducible searches).
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    #[inline]
    fn hidx(side: usize, m: M) -> usize {
        side * M::HISTORY_SLOTS + m.history_slot()
    }

    /// History score of a quiet move for side index `side`.
    #[inline]
    pub fn history(&self, side: usize, m: M) -> i32 {
        self.history[Self::hidx(side, m)]
    }

    /// Adds `bonus` (negative for a malus) with gravity toward zero, keeping |h| <= HISTORY_MAX.
    #[inline]
    pub fn update_history(&mut self, side: usize, m: M, bonus: i32) {
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.history[Self::hidx(side, m)];
        *h += b - *h * b.abs() / HISTORY_MAX;
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, m: M) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// The killers of a ply.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Clears the killers of a ply (done for the children of a node before searching them).
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.killers[ply] = [None; 2];
        }
    }
}
