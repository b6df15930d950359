//! Attacks: cells a piece attacks, attackers of a cell, check, pins and en passant legality.

use super::Position;
use crate::game::Color;
use crate::rules::bitboard::Bitboard;
use crate::rules::cell::Cell;
use crate::rules::geometry::{pawn_class, Geometry, DIAG2, DIAG3, ORTH};
use crate::rules::types::Kind;

impl Position {
    // ----- attacks ---------------------------------------------------------------------------

    /// Cells a piece of `kind` on `c` attacks (could capture on) with occupancy `occ`.
    /// Pawns are not covered here (their attacks depend on colour).
    #[inline]
    pub fn attacks_from(&self, kind: Kind, c: usize, occ: u128) -> u128 {
        piece_attacks(self.geometry(), self.ruleset().is_fiveup(), kind, c, occ)
    }

    /// Pieces among `mask` that slide along orthogonals / 2D diagonals / 3D diagonals.
    #[inline]
    fn sliders(&self, mask: u128) -> [u128; 3] {
        let k = &self.by_kind;
        let q = k[Kind::Queen.index()];
        let orth = (k[Kind::Rook.index()] | q) & mask;
        let d2 = (k[Kind::Bishop.index()] | q | k[Kind::Wizard.index()]) & mask;
        let mut d3 = k[Kind::Silver.index()] | k[Kind::Wizard.index()] | k[Kind::RUnicorn.index()];
        if !self.ruleset().is_fiveup() {
            d3 |= q;
        }
        [orth, d2, d3 & mask]
    }

    /// Pieces among `their` (pieces of side `by`, minus any captured) that attack cell `sq` when
    /// the board's occupancy is `occ`.
    #[inline]
    pub fn attackers(&self, sq: usize, by: Color, occ: u128, their: u128) -> u128 {
        let g = self.geometry();
        let k = &self.by_kind;
        let class = pawn_class(self.ruleset(), by) ^ 1;
        let mut a = g.pawn_capture[class][sq] & k[Kind::Pawn.index()];
        a |= g.knight[sq] & k[Kind::Knight.index()];
        a |= g.unicorn[sq] & (k[Kind::Unicorn.index()] | k[Kind::Silver.index()]);
        a |= g.all_step[sq] & k[Kind::Guard.index()];
        let king_cells = if self.ruleset().is_fiveup() { g.orth_step[sq] | g.diag3_step[sq] } else { g.all_step[sq] };
        a |= king_cells & k[Kind::King.index()];
        a &= their;
        let [orth, d2, d3] = self.sliders(their & occ);
        if g.orth_rays[sq] & orth != 0 {
            a |= g.orth_hits(sq, occ, orth);
        }
        if g.diag2_rays[sq] & d2 != 0 {
            a |= g.diag2_hits(sq, occ, d2);
        }
        if g.diag3_rays[sq] & d3 != 0 {
            a |= g.diag3_hits(sq, occ, d3);
        }
        a
    }

    /// Whether some piece among `their` (pieces of side `by`, minus any captured) attacks cell `sq`
    /// when the board's occupancy is `occ`: [`Position::attackers`]` != 0`, with early exits.
    #[inline]
    pub fn attacked(&self, sq: usize, by: Color, occ: u128, their: u128) -> bool {
        let g = self.geometry();
        let k = &self.by_kind;
        let class = pawn_class(self.ruleset(), by) ^ 1;
        let king_cells = if self.ruleset().is_fiveup() { g.orth_step[sq] | g.diag3_step[sq] } else { g.all_step[sq] };
        let leapers = (g.pawn_capture[class][sq] & k[Kind::Pawn.index()])
            | (g.knight[sq] & k[Kind::Knight.index()])
            | (g.unicorn[sq] & (k[Kind::Unicorn.index()] | k[Kind::Silver.index()]))
            | (g.all_step[sq] & k[Kind::Guard.index()])
            | (king_cells & k[Kind::King.index()]);
        if leapers & their != 0 {
            return true;
        }
        let [orth, d2, d3] = self.sliders(their & occ);
        (g.orth_rays[sq] & orth != 0 && g.orth_hits(sq, occ, orth) != 0)
            || (g.diag2_rays[sq] & d2 != 0 && g.diag2_hits(sq, occ, d2) != 0)
            || (g.diag3_rays[sq] & d3 != 0 && g.diag3_hits(sq, occ, d3) != 0)
    }

    /// Whether `by` attacks cell `c` in this position.
    pub fn is_attacked(&self, c: Cell, by: Color) -> bool {
        self.attackers(c.index(), by, self.occupied().0, self.by_color[by.index()]) != 0
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        Bitboard(self.attackers(
            self.kings[us.index()] as usize,
            us.flip(),
            self.occupied().0,
            self.by_color[us.flip().index()],
        ))
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().nonempty()
    }

    /// Own pieces of the side to move that stand alone between its king and an enemy slider moving
    /// along that line: moving such a piece needs a full legality test.
    pub fn pinned(&self) -> u128 {
        let us = self.side.index();
        let ksq = self.kings[us] as usize;
        let occ = self.by_color[0] | self.by_color[1];
        let own = self.by_color[us];
        let g = self.geometry();
        let sl = self.sliders(self.by_color[us ^ 1]);
        let rays = [g.orth_rays[ksq], g.diag2_rays[ksq], g.diag3_rays[ksq]];
        let mut pinned = 0u128;
        for (class, dirs) in [ORTH, DIAG2, DIAG3].into_iter().enumerate() {
            if rays[class] & sl[class] == 0 {
                continue;
            }
            for d in dirs {
                let Some(b) = g.first_blocker(d, ksq, occ) else { continue };
                if own >> b & 1 == 0 {
                    continue;
                }
                if let Some(x) = g.first_blocker(d, b, occ) {
                    if sl[class] >> x & 1 != 0 {
                        pinned |= 1u128 << b;
                    }
                }
            }
        }
        pinned
    }

    /// Whether an en passant capture is legal for the side to move.
    pub fn ep_capture_possible(&self) -> bool {
        if !self.ep.is_some() {
            return false;
        }
        let us = self.side;
        let g = self.geometry();
        let class = pawn_class(self.ruleset(), us) ^ 1;
        let pawns = self.by_kind[0] & self.by_color[us.index()];
        let cap = 1u128 << self.ep.pawn;
        let occ = self.occupied().0;
        let ksq = self.kings[us.index()] as usize;
        let their = self.by_color[us.flip().index()] & !cap;
        for p in Bitboard(self.ep.passed) {
            for from in Bitboard(g.pawn_capture[class][p.index()] & pawns) {
                let occ2 = (occ ^ (1u128 << from.index()) ^ cap) | 1u128 << p.index();
                if self.attackers(ksq, us.flip(), occ2, their) == 0 {
                    return true;
                }
            }
        }
        false
    }
}

/// Cells a piece of `kind` on `c` attacks (could capture on) with occupancy `occ`, on the board of
/// `g`, with the pieces of Five Up (`fiveup`) or of Raumschach. Pawns are not covered (their
/// attacks depend on colour). The one definition of the pieces' reach: positions and the endgame
/// tables both use it.
#[inline]
pub fn piece_attacks(g: &Geometry, fiveup: bool, kind: Kind, c: usize, occ: u128) -> u128 {
    match kind {
        Kind::Pawn => 0,
        Kind::Knight => g.knight[c],
        Kind::Bishop => g.diag2_slides(c, occ),
        Kind::Rook => g.orth_slides(c, occ),
        Kind::Queen => {
            let q = g.orth_slides(c, occ) | g.diag2_slides(c, occ);
            if fiveup {
                q
            } else {
                q | g.diag3_slides(c, occ)
            }
        }
        Kind::King => {
            if fiveup {
                g.orth_step[c] | g.diag3_step[c]
            } else {
                g.all_step[c]
            }
        }
        Kind::Unicorn => g.unicorn[c],
        Kind::Silver => g.unicorn[c] | g.diag3_slides(c, occ),
        Kind::Wizard => g.diag2_slides(c, occ) | g.diag3_slides(c, occ),
        Kind::Guard => g.all_step[c],
        Kind::RUnicorn => g.diag3_slides(c, occ),
    }
}

/// Cells a piece of `kind` on `c` can move to without capturing, with occupancy `occ`: its
/// attacks on empty cells, except the Five Up king, which captures along the 3D diagonals but
/// moves only orthogonally. Pawns are not covered. Every such move can be taken back by the same
/// kind of move (the pieces' moves are symmetric), which the endgame tables' backward search uses.
#[inline]
pub fn piece_quiet_moves(g: &Geometry, fiveup: bool, kind: Kind, c: usize, occ: u128) -> u128 {
    let reach = if fiveup && kind == Kind::King { g.orth_step[c] } else { piece_attacks(g, fiveup, kind, c, occ) };
    reach & !occ
}
