//! Move ordering: what to try first, and the capture generator of quiescence.
//!
//! Order at a full-width node (highest score first, picked lazily by selection so a cutoff after a
//! few moves never sorts the ~200-move list):
//! 1. the transposition-table move;
//! 2. good captures and queen promotions, by MVV-LVA (most valuable victim, then least valuable
//!    attacker); a capture by a more valuable piece onto a defended cell counts as bad;
//! 3. the two killer moves of the ply (quiet moves that caused a cutoff in a sibling);
//! 4. quiet moves by history score (butterfly table per side, from-cell x to-cell, with gravity);
//! 5. bad captures; under-promotions last.
//!
//! Placement variants of one move share its history entry; the plain move gets a small edge so the
//! four variants do not all precede other moves.

use crate::rules::movegen::Sink;
use crate::rules::{Bitboard, Cell, Kind, Move, Position, Special};

/// Maximum search ply (tables are sized by it).
pub const MAX_PLY: usize = 128;

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 27);
const UNDER_PROMOTION: i32 = -(1 << 28);
/// History values stay within +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// A move with its ordering score.
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Higher is tried first.
    pub score: i32,
}

/// The kind captured by a legal move, if any (en passant captures a pawn; castling captures nothing).
#[inline]
pub fn captured(pos: &Position, m: Move) -> Option<Kind> {
    match m.special() {
        Special::EnPassant => Some(Kind::Pawn),
        Special::Castle => None,
        _ => pos.piece_at(m.to()).map(|p| p.kind),
    }
}

/// Whether a move is quiet (neither a capture nor a promotion).
#[inline]
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    m.promotion().is_none() && captured(pos, m).is_none()
}

/// Killer moves and history: what the search learned about quiet moves.
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics { killers: vec![[None; 2]; MAX_PLY + 1], history: vec![0; 2 * 125 * 125] }
    }
}

impl Heuristics {
    /// Forgets everything (for reproducible searches).
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    #[inline]
    fn hidx(side: usize, m: Move) -> usize {
        side * 125 * 125 + m.from().index() * 125 + m.to().index()
    }

    /// History score of a quiet move for side index `side`.
    #[inline]
    pub fn history(&self, side: usize, m: Move) -> i32 {
        self.history[Self::hidx(side, m)]
    }

    /// Adds `bonus` (negative for a malus) with gravity toward zero, keeping |h| <= HISTORY_MAX.
    #[inline]
    pub fn update_history(&mut self, side: usize, m: Move, bonus: i32) {
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.history[Self::hidx(side, m)];
        *h += b - *h * b.abs() / HISTORY_MAX;
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// The killers of a ply.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
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

/// MVV-LVA score of capturing `victim` with `attacker`, with piece values `values`.
#[inline]
pub fn mvv_lva(values: &[i32], victim: Kind, attacker: Kind) -> i32 {
    values[victim.index()] * 16 - values[attacker.index()] / 8
}

/// Whether a capture looks losing: the attacker is worth more than the victim and the target cell
/// is defended (an attacker of the opponent sees it once the capturing piece has left its cell).
#[inline]
pub fn is_bad_capture(pos: &Position, values: &[i32], m: Move, victim: Kind, attacker: Kind) -> bool {
    if values[attacker.index()] <= values[victim.index()] || m.special() == Special::EnPassant {
        return false;
    }
    let them = pos.side().flip();
    let to = m.to().index();
    let occ = pos.occupied().0 ^ (1u128 << m.from().index());
    pos.attackers(to, them, occ, pos.color_bb(them).0 & !(1u128 << to)) != 0
}

/// Scores every move of `moves` into `out` (cleared first) for a full-width node.
#[allow(clippy::too_many_arguments)]
pub fn score_moves(
    pos: &Position,
    moves: &[Move],
    out: &mut Vec<ScoredMove>,
    values: &[i32],
    tt_move: Option<Move>,
    heur: &Heuristics,
    ply: usize,
) {
    out.clear();
    let side = pos.side().index();
    let [k0, k1] = heur.killers(ply);
    for &m in moves {
        let score = if Some(m) == tt_move {
            TT_MOVE
        } else {
            let attacker = pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind);
            match (captured(pos, m), m.promotion()) {
                (_, Some(k)) if k != Kind::Queen => UNDER_PROMOTION + values[k.index()],
                (Some(v), promo) => {
                    let base = mvv_lva(values, v, attacker) + promo.map_or(0, |k| values[k.index()] * 16);
                    if promo.is_none() && is_bad_capture(pos, values, m, v, attacker) {
                        BAD_CAPTURE + base
                    } else {
                        GOOD_CAPTURE + base
                    }
                }
                (None, Some(k)) => GOOD_CAPTURE + values[k.index()] * 16,
                (None, None) if Some(m) == k0 => KILLER + 1,
                (None, None) if Some(m) == k1 => KILLER,
                (None, None) => heur.history(side, m) + if m.placement().is_none() { 64 } else { 0 },
            }
        };
        out.push(ScoredMove { mv: m, score });
    }
}

/// Swaps the best-scored move of `list[i..]` into `list[i]` and returns it.
#[inline]
pub fn pick(list: &mut [ScoredMove], i: usize) -> ScoredMove {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
    list[i]
}

/// Generates the moves quiescence searches: captures (one version each: plain, or with a placement
/// when only a placement makes it legal), en passant and queen promotions.
pub struct NoisySink<'a> {
    /// Enemy pieces.
    pub their: u128,
    /// Output.
    pub out: &'a mut Vec<Move>,
}

impl Sink for NoisySink<'_> {
    #[inline]
    fn moves(&mut self, from: Cell, targets: u128, plain: bool, place: u8) {
        let caps = targets & self.their;
        if caps == 0 || (!plain && place == 0) {
            return;
        }
        for to in Bitboard(caps) {
            let m = Move::normal(from, to);
            if plain {
                self.out.push(m);
            } else {
                let k = crate::rules::types::RESERVE_KINDS[place.trailing_zeros() as usize];
                self.out.push(m.with_placement(k));
            }
        }
    }
    #[inline]
    fn promotions(&mut self, from: Cell, targets: u128, kinds: &'static [Kind]) {
        // kinds[0] is the queen in every ruleset.
        for to in Bitboard(targets) {
            self.out.push(Move::new(from, to, Some(kinds[0]), None, Special::Normal));
        }
    }
    #[inline]
    fn special(&mut self, m: Move) {
        if m.special() == Special::EnPassant {
            self.out.push(m);
        }
    }
}

/// Appends the quiescence moves of `pos` (see [`NoisySink`]) to `out`.
pub fn noisy_moves_into(pos: &Position, out: &mut Vec<Move>) {
    let their = pos.color_bb(pos.side().flip()).0;
    pos.generate(&mut NoisySink { their, out });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ruleset, Variant};

    /// Plays a deterministic pseudo-random game prefix.
    fn scrambled(rs: Ruleset, plies: usize, seed: u64) -> Position {
        let mut p = Position::startpos(Variant::plain(rs));
        let mut s = seed;
        for _ in 0..plies {
            let ms = p.legal_moves();
            if ms.is_empty() {
                break;
            }
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            p.make(ms[(s >> 33) as usize % ms.len()]);
        }
        p
    }

    #[test]
    fn noisy_moves_are_the_legal_captures_and_queen_promotions() {
        for rs in Ruleset::ALL {
            for seed in 0..30 {
                let p = scrambled(rs, 40, seed);
                let mut noisy = Vec::new();
                noisy_moves_into(&p, &mut noisy);
                let legal = p.legal_moves();
                for m in &noisy {
                    assert!(legal.contains(m), "{m} not legal");
                    assert!(!is_quiet(&p, *m));
                }
                // Every legal capture (promoting to a queen, if at all) appears in some placement version.
                let caps: Vec<Move> = legal
                    .iter()
                    .filter(|m| captured(&p, **m).is_some() && m.promotion().map_or(true, |k| k == Kind::Queen))
                    .map(|m| m.without_placement())
                    .collect();
                for c in &caps {
                    assert!(noisy.iter().any(|n| n.without_placement() == *c), "{c} missing");
                }
            }
        }
    }

    #[test]
    fn history_saturates_and_killers_shift() {
        let mut h = Heuristics::default();
        let m = Move::normal(Cell::new(1), Cell::new(2));
        for _ in 0..1000 {
            h.update_history(0, m, 5000);
        }
        assert!(h.history(0, m) <= HISTORY_MAX && h.history(0, m) > HISTORY_MAX / 2);
        assert_eq!(h.history(1, m), 0);
        let m2 = Move::normal(Cell::new(3), Cell::new(4));
        h.add_killer(3, m);
        h.add_killer(3, m2);
        h.add_killer(3, m2);
        assert_eq!(h.killers(3), [Some(m2), Some(m)]);
    }

    #[test]
    fn ordering_puts_tt_move_then_captures_first() {
        let p = scrambled(Ruleset::FiveUp, 30, 5);
        let legal = p.legal_moves();
        let w = crate::engine::Weights::for_ruleset(Ruleset::FiveUp);
        let tt = legal[legal.len() / 2];
        let mut list = Vec::new();
        score_moves(&p, &legal, &mut list, &w.values, Some(tt), &Heuristics::default(), 0);
        assert_eq!(pick(&mut list, 0).mv, tt);
        let picked: Vec<ScoredMove> = (0..list.len()).map(|i| pick(&mut list, i)).collect();
        assert!(picked.windows(2).all(|w| w[0].score >= w[1].score));
        // Good captures come before every quiet move.
        let first_quiet = picked.iter().position(|s| is_quiet(&p, s.mv)).unwrap_or(picked.len());
        assert!(picked[first_quiet..].iter().all(|s| is_quiet(&p, s.mv) || s.score < 0));
    }
}
