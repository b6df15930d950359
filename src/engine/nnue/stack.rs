//! The accumulators along a search path: one per ply, brought up to date lazily.
//!
//! The search calls [`Stack::push`] after every move it makes and [`Stack::pop`] after every
//! unmake; both only move the ply and mark the new ply's accumulator stale (a push also notes
//! the cells the move touched, so that an update reads those cells of the position only).
//! [`Stack::evaluate`] brings the nearest up-to-date accumulator above the current ply to the
//! current position into it ([`Accumulator::update_cached`], any number of moves at once, no
//! separate copy; with king buckets a perspective whose king changed bucket comes from the
//! stack's [`KingCache`]), so a node that never evaluates (in check, cut off by the table) costs
//! nothing here. A null move is not pushed: it changes no input (the accumulator and the output
//! bucket do not depend on the side to move), so the node after it evaluates its parent's
//! accumulator with the other side to move.

use super::{touched_cells, Accumulator, KingCache, Network, ANY_CELL};
use crate::rules::{Move, Position};

/// Per-ply accumulators of one search thread.
#[derive(Default)]
pub struct Stack {
    accs: Vec<Accumulator>,
    fresh: Vec<bool>,
    /// Per ply, the cells the move into it touched ([`touched_cells`]).
    touched: Vec<u128>,
    ply: usize,
    /// The sums of each king bucket's last refresh (networks with king buckets).
    cache: KingCache,
}

impl Stack {
    /// Starts at `pos` (ply 0, computed from scratch).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        if self.accs.is_empty() {
            self.accs.push(Accumulator::default());
            self.fresh.push(false);
            self.touched.push(ANY_CELL);
        }
        self.ply = 0;
        // The network may have changed since the last search.
        self.cache.clear();
        self.accs[0] = Accumulator::refresh(net, pos);
        self.fresh[0] = true;
    }

    /// Move `m` was made.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.ply += 1;
        if self.ply == self.accs.len() {
            self.accs.push(Accumulator::default());
            self.fresh.push(false);
            self.touched.push(ANY_CELL);
        }
        self.fresh[self.ply] = false;
        self.touched[self.ply] = touched_cells(m);
    }

    /// The last move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        self.ply = self.ply.saturating_sub(1);
    }

    /// The network's evaluation of `pos` (the position at the current ply), centipawns for the
    /// side to move.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let ply = self.ply;
        if !self.fresh[ply] {
            let base = (0..ply).rev().find(|&k| self.fresh[k]).unwrap_or(0);
            // Every cell the moves since the base touched.
            let touched = self.touched[base + 1..=ply].iter().fold(0, |t, &m| t | m);
            let (above, here) = self.accs.split_at_mut(ply);
            here[0].update_cached(Some(&above[base]), net, pos, touched, true, Some(&mut self.cache));
            self.fresh[ply] = true;
        }
        net.evaluate(&self.accs[ply], pos.side())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::Dims;
    use crate::rules::{Ruleset, Variant};
    use rand::{Rng, SeedableRng};

    #[test]
    fn lazy_updates_along_a_search_path_match_fresh_evaluations() {
        use crate::engine::nnue::{king_bucket_of, KING_BUCKETS};
        use crate::game::Color;
        use crate::rules::Kind;
        for (rs, kings) in [Ruleset::FiveUp, Ruleset::Raumschach].into_iter().flat_map(|r| [(r, 1), (r, KING_BUCKETS)])
        {
            let net = Network::random(rs, Dims { hidden: 32, l1: 8, l2: 8, buckets: 4, kings, pairwise: false }, 5);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            // With king buckets from an endgame, where kings move often (and change bucket).
            let mut pos = match kings {
                1 => Position::startpos(Variant::plain(rs)),
                _ => {
                    let men = [Kind::Rook, Kind::Pawn];
                    crate::engine::random_endgame(Variant::plain(rs), &men, &men, 3).expect("an endgame")
                }
            };
            let mut stack = Stack::default();
            stack.reset(&net, &pos);
            let mut crossings = 0;
            let mut path = Vec::new();
            // A random walk down and up, evaluating at some nodes only.
            for _ in 0..1000 {
                let moves = pos.legal_moves();
                if !moves.is_empty() && (path.len() < 3 || rng.gen_bool(0.55)) && path.len() < 12 {
                    let m = moves[rng.gen_range(0..moves.len())];
                    let before = Color::ALL.map(|c| king_bucket_of(&pos, c, kings));
                    let undo = pos.make(m);
                    crossings += usize::from(before != Color::ALL.map(|c| king_bucket_of(&pos, c, kings)));
                    stack.push(m);
                    path.push((m, undo));
                } else if let Some((m, undo)) = path.pop() {
                    pos.unmake(m, undo);
                    stack.pop();
                }
                if rng.gen_bool(0.4) {
                    assert_eq!(stack.evaluate(&net, &pos), net.evaluate_position(&pos));
                }
            }
            assert!(kings == 1 || crossings > 10, "{rs}: {crossings} moves changed a king's bucket");
        }
    }
}
