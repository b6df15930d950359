//! Legal move generation.
//!
//! Design: one generator, generic over a [`Sink`], serves both move lists and bulk counting (perft's
//! last ply), so the two can never disagree. Moves are emitted in groups (a piece and a set of target
//! cells), expanded by the list sink and popcounted by the counting sink.
//!
//! Legality: a move is legal when the mover's king is not attacked after the whole move, placement
//! included (docs/RULES.md §2). Moving a piece can only expose the king along a slider line through the
//! piece's origin; captures, promotions and placements only remove attackers or add blockers. So
//! when the side to move is not in check, a move by a piece that is not [`Position::pinned`] (and is
//! not the king, and is not en passant) is legal without a test. Every other move gets the exact
//! test: the attackers of the king's cell computed on the occupancy after the move, with the
//! captured piece removed, without making the move. A placement puts a friendly piece back on the
//! origin cell, so it can turn an illegal move legal (a pinned piece leaving the pin line, a king
//! stepping away along the checking line) but never the reverse; all reserve kinds block alike.
//!
//! In check (flat board): in double check only king moves and en passant (which removes one
//! checker and may block the other on its passed cell) can be legal, since any other move vacates
//! one occupied cell, fills one cell and removes at most one checker, and no checking line holds
//! a piece. In single check a move of another piece must capture the checker or land between it
//! and the king, and such a move by a piece that is not pinned is legal without a test (the only
//! attacker is gone or blocked; a placement on the origin only blocks more). Pinned pieces, the
//! king and en passant keep the exact test. On the hypercylinder a checker can attack along both
//! ways round a ring, so there every move in check keeps the exact test.
//!
//! Attack sets come from an [`AttackSource`]: [`Computed`] asks the position; a search that keeps
//! every piece's attack set up to date passes its own and saves recomputing them. A source may
//! also know the cells the opponent attacks once the king is lifted off the board (its attack
//! sets, with each checking slider's line continued past the king's cell). On the flat board that
//! replaces the per-target test of king moves: a target outside those cells is safe, one inside
//! is not, and only in check can a placement on the vacated cell (blocking the checking line)
//! make an attacked target safe, which keeps its exact test.

use super::bitboard::Bitboard;
use super::cell::Cell;
use super::geometry::{pawn_class, ORTH};
use super::moves::{Move, Special};
use super::position::{double_moves, promotion_row, Position};
use super::types::{Kind, RESERVE_KINDS};

/// Receives generated legal moves.
pub trait Sink {
    /// Moves of the piece on `from` to each of `targets`; each target without placement when
    /// `plain`, and once per reserve kind in the mask `place` (W = 1, G = 2, S = 4).
    fn moves(&mut self, from: Cell, targets: u128, plain: bool, place: u8);
    /// Pawn moves to each of `targets`, once per promotion kind.
    fn promotions(&mut self, from: Cell, targets: u128, kinds: &'static [Kind]);
    /// One special move (double move, en passant, castling).
    fn special(&mut self, m: Move);
}

/// Where the generator gets attack sets: computed from the position ([`Computed`]), or from a
/// caller that keeps them up to date (a search's incremental evaluation). An implementation must
/// return exactly what the position would give; the moves generated are then the same.
pub trait AttackSource {
    /// [`Position::attacks_from`] for the side to move's piece of `kind` (not a pawn or the king)
    /// on `c`, with the position's occupancy.
    fn piece_attacks(&self, pos: &Position, kind: Kind, c: usize) -> u128;
    /// Every cell the opponent of the side to move attacks once the side to move's king is lifted
    /// off the board, if known (`checkers`: the pieces giving check); asked on the flat board only.
    /// Without it each king move is tested on its own.
    fn danger(&self, pos: &Position, checkers: u128) -> Option<u128>;
}

/// Attack sets computed from the position itself.
pub struct Computed;

impl AttackSource for Computed {
    #[inline]
    fn piece_attacks(&self, pos: &Position, kind: Kind, c: usize) -> u128 {
        pos.attacks_from(kind, c, pos.occupied().0)
    }
    #[inline]
    fn danger(&self, _: &Position, _: u128) -> Option<u128> {
        None
    }
}

/// Collects moves into a vector.
pub struct ListSink<'a>(pub &'a mut Vec<Move>);

impl Sink for ListSink<'_> {
    #[inline]
    fn moves(&mut self, from: Cell, targets: u128, plain: bool, place: u8) {
        if place == 0 {
            // The common case: one plain move per target, appended in one sized extend.
            if plain {
                self.0.extend(Bitboard(targets).map(|to| Move::normal(from, to)));
            }
            return;
        }
        for to in Bitboard(targets) {
            let m = Move::normal(from, to);
            if plain {
                self.0.push(m);
            }
            for (i, k) in RESERVE_KINDS.iter().enumerate() {
                if place >> i & 1 != 0 {
                    self.0.push(m.with_placement(*k));
                }
            }
        }
    }
    #[inline]
    fn promotions(&mut self, from: Cell, targets: u128, kinds: &'static [Kind]) {
        for to in Bitboard(targets) {
            for &k in kinds {
                self.0.push(Move::new(from, to, Some(k), None, Special::Normal));
            }
        }
    }
    #[inline]
    fn special(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Collects moves into two vectors: captures and promotions (`noisy`), the rest (`quiet`).
struct SplitSink<'a> {
    noisy: ListSink<'a>,
    quiet: ListSink<'a>,
    /// The opponent's pieces: a target among them is a capture.
    their: u128,
}

impl Sink for SplitSink<'_> {
    #[inline]
    fn moves(&mut self, from: Cell, targets: u128, plain: bool, place: u8) {
        if targets & self.their != 0 {
            self.noisy.moves(from, targets & self.their, plain, place);
        }
        self.quiet.moves(from, targets & !self.their, plain, place);
    }
    #[inline]
    fn promotions(&mut self, from: Cell, targets: u128, kinds: &'static [Kind]) {
        self.noisy.promotions(from, targets, kinds);
    }
    #[inline]
    fn special(&mut self, m: Move) {
        if m.special() == Special::EnPassant {
            self.noisy.special(m);
        } else {
            self.quiet.special(m);
        }
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline]
    fn moves(&mut self, _: Cell, targets: u128, plain: bool, place: u8) {
        self.0 += targets.count_ones() as u64 * (plain as u64 + place.count_ones() as u64);
    }
    #[inline]
    fn promotions(&mut self, _: Cell, targets: u128, kinds: &'static [Kind]) {
        self.0 += targets.count_ones() as u64 * kinds.len() as u64;
    }
    #[inline]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Stops at the first move (for "has a legal move").
#[derive(Default)]
struct AnySink(bool);

impl Sink for AnySink {
    fn moves(&mut self, _: Cell, targets: u128, plain: bool, place: u8) {
        self.0 |= targets != 0 && (plain || place != 0);
    }
    fn promotions(&mut self, _: Cell, targets: u128, _: &'static [Kind]) {
        self.0 |= targets != 0;
    }
    fn special(&mut self, _: Move) {
        self.0 = true;
    }
}

impl Position {
    /// Appends every legal move to `out` (which is not cleared).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        self.generate(&mut ListSink(out));
    }

    /// Appends every legal move to `noisy` (captures, en passant and promotions) or `quiet` (the
    /// rest: castling, double moves and other non-capturing moves); neither is cleared. Attack
    /// sets come from `attacks` ([`Computed`] to compute them).
    pub fn legal_moves_split(&self, noisy: &mut Vec<Move>, quiet: &mut Vec<Move>, attacks: &impl AttackSource) {
        let their = self.color_bb(self.side().flip()).0;
        self.generate_with(&mut SplitSink { noisy: ListSink(noisy), quiet: ListSink(quiet), their }, attacks);
    }

    /// Every legal move, in a new vector.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(256);
        self.legal_moves_into(&mut v);
        v
    }

    /// Number of legal moves (bulk-counted, nothing is made).
    pub fn count_legal(&self) -> u64 {
        let mut s = CountSink(0);
        self.generate(&mut s);
        s.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut s = AnySink(false);
        self.generate(&mut s);
        s.0
    }

    /// Whether `m` is one of the legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Whether the king of the side to move is safe with occupancy `occ`, enemy pieces `their`
    /// (captured piece removed) and the king on `ksq`.
    #[inline]
    fn safe(&self, ksq: usize, occ: u128, their: u128) -> bool {
        !self.attacked(ksq, self.side().flip(), occ, their)
    }

    /// Generates every legal move into `sink`.
    pub fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_with(sink, &Computed);
    }

    /// Generates every legal move into `sink`, with attack sets from `attacks`.
    pub fn generate_with<S: Sink>(&self, sink: &mut S, attacks: &impl AttackSource) {
        // 1. Context.
        let us = self.side();
        let them = us.flip();
        let own = self.color_bb(us).0;
        let their = self.color_bb(them).0;
        let occ = own | their;
        let g = self.geometry();
        let ksq = self.king(us).index();
        let checkers = self.checkers().0;
        let in_check = checkers != 0;
        // Targets of moves other than the king's and en passant must lie in `evasion` (all cells
        // when not in check; the checker and the cells between it and the king in single check;
        // none in double check), and those of pieces in `needs_test` get the exact test. In check
        // on the flat board a piece that is not pinned and captures the only checker or blocks
        // its line is legal. On the hypercylinder a checker can attack along two wrapped paths,
        // so there every move in check is tested.
        let (evasion, needs_test) = if !in_check {
            (u128::MAX, self.pinned())
        } else if checkers & (checkers - 1) != 0 {
            (0, 0)
        } else if !g.cylinder {
            (checkers | g.between(ksq, checkers.trailing_zeros() as usize), self.pinned())
        } else {
            (u128::MAX, own)
        };
        let reserve = self.reserve(us);
        // Rights only matter with pieces in reserve (never in Raumschach). Testing one bit of a
        // 128-bit set costs a variable shift, so the loops below skip it for an empty set (no
        // rights, no pinned piece).
        let rights = if reserve != 0 { self.rights().0 & own } else { 0 };

        // 2. Pieces other than pawns and the king.
        let pawns = self.pieces(us, Kind::Pawn).0;
        let king_bb = 1u128 << ksq;
        let movers = if evasion == 0 { 0 } else { own & !pawns & !king_bb };
        for from in Bitboard(movers) {
            let fi = from.index();
            let kind = self.piece_at(from).map(|p| p.kind).unwrap_or(Kind::Pawn);
            let targets = attacks.piece_attacks(self, kind, fi) & !own & evasion;
            let place = if rights != 0 && rights >> fi & 1 != 0 { reserve } else { 0 };
            if needs_test == 0 || needs_test >> fi & 1 == 0 {
                sink.moves(from, targets, true, place);
            } else {
                for to in Bitboard(targets) {
                    let t = 1u128 << to.index();
                    let occ2 = (occ ^ 1u128 << fi) | t;
                    self.emit_tested(sink, from, t, self.safe(ksq, occ2, their & !t), place, || {
                        self.safe(ksq, occ2 | 1u128 << fi, their & !t)
                    });
                }
            }
        }

        // 3. The king: every target tested with the king moved, or, on the flat board with the
        //    cells the opponent attacks past the lifted king known, every target outside them.
        let king_targets = if self.ruleset().is_fiveup() {
            (g.orth_step[ksq] & !occ) | ((g.orth_step[ksq] | g.diag3_step[ksq]) & their)
        } else {
            g.all_step[ksq] & !own
        };
        let place = if rights >> ksq & 1 != 0 { reserve } else { 0 };
        let from = Cell::new_unchecked(ksq as u8);
        match if g.cylinder { None } else { attacks.danger(self, checkers) } {
            // Out of check a placement on the king's cell cannot make an attacked target safe (no
            // line through that cell reaches a neighbour, or it would be check).
            Some(danger) if !in_check || place == 0 => sink.moves(from, king_targets & !danger, true, place),
            Some(danger) => {
                for to in Bitboard(king_targets) {
                    let t = 1u128 << to.index();
                    if danger & t == 0 {
                        sink.moves(from, t, true, place);
                    } else if self.safe(to.index(), occ | t, their & !t) {
                        // The king on `t` and a placed piece back on its cell.
                        sink.moves(from, t, false, place);
                    }
                }
            }
            None => {
                for to in Bitboard(king_targets) {
                    let t = 1u128 << to.index();
                    let occ2 = (occ ^ king_bb) | t;
                    let ti = to.index();
                    self.emit_tested(sink, from, t, self.safe(ti, occ2, their & !t), place, || {
                        self.safe(ti, occ2 | king_bb, their & !t)
                    });
                }
            }
        }

        // 4. Pawns: single steps and captures (with promotions), then double moves and en passant.
        let class = pawn_class(self.ruleset(), us);
        let promo_row = promotion_row(class);
        let promos = self.ruleset().promotions();
        let pawn_movers = if evasion == 0 { 0 } else { pawns };
        for from in Bitboard(pawn_movers) {
            let fi = from.index();
            let mut targets = ((g.pawn_push[class][fi] & !occ) | (g.pawn_capture[class][fi] & their)) & evasion;
            if needs_test != 0 && needs_test >> fi & 1 != 0 {
                let mut ok = 0;
                for to in Bitboard(targets) {
                    let t = 1u128 << to.index();
                    if self.safe(ksq, (occ ^ 1u128 << fi) | t, their & !t) {
                        ok |= t;
                    }
                }
                targets = ok;
            }
            if targets & promo_row != 0 {
                sink.promotions(from, targets & promo_row, promos);
            }
            sink.moves(from, targets & !promo_row, true, 0);
            if self.ruleset().has_double_move() {
                for (t, passed) in double_moves(g, class, fi) {
                    let tb = 1u128 << t;
                    // A straight double move needs its passed cell empty, an L-shaped one at
                    // least one of its two.
                    if tb & occ != 0 || tb & evasion == 0 || passed & !occ == 0 {
                        continue;
                    }
                    if needs_test >> fi & 1 != 0 && !self.safe(ksq, (occ ^ 1u128 << fi) | tb, their) {
                        continue;
                    }
                    sink.special(Move::new(from, Cell::new_unchecked(t as u8), None, None, Special::Double));
                }
            }
        }
        let ep = self.ep();
        if ep.is_some() {
            let cap = 1u128 << ep.pawn;
            for p in Bitboard(ep.passed) {
                for from in Bitboard(g.pawn_capture[class ^ 1][p.index()] & pawns) {
                    let occ2 = (occ ^ 1u128 << from.index() ^ cap) | 1u128 << p.index();
                    if self.safe(ksq, occ2, their & !cap) {
                        sink.special(Move::new(from, p, None, None, Special::EnPassant));
                    }
                }
            }
        }

        // 5. Castling (optional rule): king and rook on an orthogonal line with only empty cells
        //    between; not in check; no cell between nor the rook's cell attacked.
        if self.variant().castling && !in_check {
            let rooks = self.pieces(us, Kind::Rook).0;
            for d in ORTH {
                let Some(b) = g.first_blocker(d, ksq, occ) else { continue };
                if rooks >> b & 1 == 0 {
                    continue;
                }
                let between = g.rays[d][ksq] & !g.rays[d][b] & !(1u128 << b);
                // The occupancy is the same after the swap, so "rook cell not attacked" is also the
                // king's safety after the move.
                let attacked = Bitboard(between | 1u128 << b).any(|c| self.attacked(c.index(), them, occ, their));
                if attacked {
                    continue;
                }
                sink.special(Move::new(
                    Cell::new_unchecked(ksq as u8),
                    Cell::new_unchecked(b as u8),
                    None,
                    None,
                    Special::Castle,
                ));
            }
        }
    }

    /// Emits one tested target: plain (and its placements) if legal as is; else only the
    /// placements, if a placement makes it legal.
    #[inline]
    fn emit_tested<S: Sink>(
        &self,
        sink: &mut S,
        from: Cell,
        t: u128,
        plain_ok: bool,
        place: u8,
        ok_with_placement: impl FnOnce() -> bool,
    ) {
        if plain_ok {
            sink.moves(from, t, true, place);
        } else if place != 0 && ok_with_placement() {
            sink.moves(from, t, false, place);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ruleset, Variant};

    #[test]
    fn split_lists_are_the_legal_moves_divided_by_capture_and_promotion() {
        let mut noisy_seen = 0;
        for rs in Ruleset::ALL {
            for (castling, cylinder) in [(false, false), (true, false), (false, true)] {
                let Ok(v) = Variant::new(rs, castling, cylinder) else { continue };
                let mut p = Position::startpos(v);
                let mut s = 0x2545_F491_4F6C_DD1Du64;
                for _ in 0..120 {
                    let all = p.legal_moves();
                    if all.is_empty() {
                        break;
                    }
                    let (mut noisy, mut quiet) = (Vec::new(), Vec::new());
                    p.legal_moves_split(&mut noisy, &mut quiet, &Computed);
                    assert_eq!(noisy.len() + quiet.len(), all.len(), "{v:?}");
                    for m in &all {
                        let capture = m.special() == Special::EnPassant
                            || (m.special() != Special::Castle && p.piece_at(m.to()).is_some());
                        let list = if capture || m.promotion().is_some() { &noisy } else { &quiet };
                        assert!(list.contains(m), "{v:?}: {m} in the wrong list");
                    }
                    noisy_seen += noisy.len();
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    p.make(all[(s >> 11) as usize % all.len()]);
                }
            }
        }
        assert!(noisy_seen > 100, "the walks met captures ({noisy_seen})");
    }
}
