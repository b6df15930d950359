//! 4D Quasi-Alice Chess for the alpha-beta engine: [`QaBoard`], its [`SearchBoard`], with the
//! evaluation of [`eval`] and the weights of [`weights`].
//!
//! - **Noisy moves** are captures (the man taken on the board moved on, en passant included, and
//!   the king's capture on landing) and promotions; quiescence tries the captures worth at least
//!   its delta margin and the queen promotions.
//! - **Ordering**: MVV-LVA on the total taken (a king's double capture counts both men); a
//!   capture by a man worth more than its victims whose landing square (the same square of the
//!   destination board) is attacked there counts as bad. The landing square's attackers do not
//!   change with the move itself: the board moved on is another board.
//! - **Check test** of late-move pruning: a move may give check when the mover is the king
//!   (cross-board attacks), when it lands on the enemy king's board on a square from which its
//!   kind attacks the king, when it leaves the enemy king's board from a square between the king
//!   and an own slider or captures there (the victim may have blocked such a line), when it is
//!   castling or en passant, or when it leaves the own king's board from the enemy king's square
//!   (which blocked the own king's cross-board attack).
//! - **Null move** only with a man other than pawns and the king.
//! - History slots: origin cell x destination cell (256 x 256).

pub mod eval;
pub mod weights;

pub use eval::{decompose, evaluate};
pub use weights::{QaWeights, QaWeightsError};

use super::board::{SearchBoard, SearchMove};
use super::ordering::{noisy_order, quiescence_order, ScoredMove};
use crate::quasi_alice::board::{bishop_attacks, rook_attacks, BETWEEN, KING, KNIGHT, PAWN_ATTACKS};
use crate::quasi_alice::{Flag, Kind, Move, Position, Undo};

impl SearchMove for Move {
    const HISTORY_SLOTS: usize = 256 * 256;

    #[inline]
    fn bits(self) -> u32 {
        Move::bits(self)
    }

    #[inline]
    fn from_bits(bits: u32) -> Option<Move> {
        Move::from_bits(bits)
    }

    #[inline]
    fn history_slot(self) -> usize {
        (self.board_from() * 64 + self.from()) * 256 + self.board_to() * 64 + self.to()
    }
}

/// Quasi-Alice's side of the search: the position and a scratch move list.
pub struct QaBoard {
    pos: Position,
    scratch: Vec<Move>,
}

/// What [`QaBoard::may_give_check`] needs (see the module docs).
pub struct QaCheckInfo {
    /// The enemy king's board and square.
    board: usize,
    square: usize,
    /// Per kind: the squares of the enemy king's board from which a man of ours of that kind
    /// would attack the king.
    direct: [u64; 6],
    /// Our men on the enemy king's board standing alone between it and one of our sliders.
    discoverers: u64,
    /// Our own king's board.
    own_king_board: usize,
}

impl QaBoard {
    /// The total value a legal move takes: the man on its square of the board moved on (a pawn
    /// for en passant) plus, for the king, the enemy man on the landing cell.
    #[inline]
    fn taken(&self, w: &QaWeights, m: Move) -> Option<i32> {
        let s = m.board_from();
        let first = match m.flag() {
            Flag::EnPassant => Some(w.value(Kind::Pawn)),
            Flag::Castle => None,
            _ => self.pos.piece_at(s * 64 + m.to()).map(|p| w.value(p.kind)),
        };
        let mover = self.pos.piece_at(s * 64 + m.from()).map_or(Kind::Pawn, |p| p.kind);
        let second = if mover == Kind::King {
            self.pos.piece_at(m.board_to() * 64 + m.to()).map(|p| w.value(p.kind))
        } else {
            None
        };
        match (first, second) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        }
    }

    /// The kind of the man moved by `m`.
    #[inline]
    fn mover(&self, m: Move) -> Kind {
        self.pos.piece_at(m.board_from() * 64 + m.from()).map_or(Kind::Pawn, |p| p.kind)
    }

    /// Whether a capture taking `taken` by `attacker` looks losing: the attacker is worth more
    /// and its landing square is attacked on the destination board.
    #[inline]
    fn bad_capture(&self, w: &QaWeights, m: Move, taken: i32, attacker: Kind) -> bool {
        attacker != Kind::King
            && w.value(attacker) > taken
            && self.pos.attacked(m.board_to(), m.to(), self.pos.side().flip())
    }
}

/// A move's promotion as the ordering reads it: the piece's value and whether it is a queen.
#[inline]
fn promotion(w: &QaWeights, m: Move) -> Option<(i32, bool)> {
    m.promotion().map(|k| (w.value(k), k == Kind::Queen))
}

impl SearchBoard for QaBoard {
    type Pos = Position;
    type Move = Move;
    type NullUndo = Undo;
    type Eval = QaWeights;
    type CheckInfo = QaCheckInfo;

    fn new() -> QaBoard {
        QaBoard { pos: Position::start(), scratch: Vec::with_capacity(256) }
    }

    fn reset(&mut self, _: &QaWeights, pos: &Position) {
        self.pos = pos.clone();
    }

    #[inline]
    fn pos(&self) -> &Position {
        &self.pos
    }

    #[inline]
    fn make(&mut self, _: &QaWeights, m: Move) -> Undo {
        self.pos.make(m)
    }

    #[inline]
    fn unmake(&mut self, _: &QaWeights, m: Move, undo: Undo) {
        self.pos.unmake(m, undo)
    }

    #[inline]
    fn make_null(&mut self) -> Undo {
        self.pos.make_null()
    }

    #[inline]
    fn unmake_null(&mut self, undo: Undo) {
        self.pos.unmake_null(undo)
    }

    #[inline]
    fn static_eval(&mut self, w: &QaWeights) -> i32 {
        evaluate(&self.pos, w).clamp(-super::score::MATE_BOUND + 1, super::score::MATE_BOUND - 1)
    }

    fn null_move_ok(&self) -> bool {
        let us = self.pos.side();
        (0..4).any(|b| {
            self.pos.men(us, b) & !(self.pos.pieces(us, Kind::Pawn, b) | self.pos.pieces(us, Kind::King, b)) != 0
        })
    }

    fn legal_moves_split(&mut self, _: &QaWeights, noisy: &mut Vec<Move>, quiet: &mut Vec<Move>) {
        // Every legal move into `quiet`, then the noisy ones moved out (both keep generation order).
        self.pos.legal_moves_into(quiet);
        quiet.retain(|&m| {
            let q = self.is_quiet(m);
            if !q {
                noisy.push(m);
            }
            q
        });
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        if m.promotion().is_some() || m.flag() == Flag::EnPassant {
            return false;
        }
        let s = m.board_from();
        if m.flag() != Flag::Castle && self.pos.piece_at(s * 64 + m.to()).is_some() {
            return false;
        }
        // Only a king may land on an occupied cell (an enemy man, which it captures).
        self.pos.piece_at(m.board_to() * 64 + m.to()).is_none()
    }

    fn noisy_score(&self, w: &QaWeights, m: Move) -> i32 {
        let attacker = self.mover(m);
        noisy_order(self.taken(w, m), promotion(w, m), w.value(attacker), |v| self.bad_capture(w, m, v, attacker))
    }

    fn captures(&mut self, w: &QaWeights, min_gain: i32, out: &mut Vec<ScoredMove<Move>>) {
        out.clear();
        let mut all = std::mem::take(&mut self.scratch);
        all.clear();
        self.pos.noisy_moves_into(&mut all);
        for &m in &all {
            if let Some(score) = quiescence_order(self.taken(w, m), promotion(w, m), w.value(self.mover(m)), min_gain) {
                out.push(ScoredMove { mv: m, score });
            }
        }
        self.scratch = all;
    }

    #[inline]
    fn skip_capture(&self, w: &QaWeights, m: Move) -> bool {
        if m.promotion().is_some() {
            return false;
        }
        match self.taken(w, m) {
            Some(v) => self.bad_capture(w, m, v, self.mover(m)),
            None => false,
        }
    }

    fn check_info(&self) -> QaCheckInfo {
        let us = self.pos.side();
        let them = us.flip();
        let (ekc, okc) = (self.pos.king(them), self.pos.king(us));
        let (board, square) = (ekc / 64, ekc % 64);
        let occ = self.pos.occupied(board);
        let mut direct = [0u64; 6];
        direct[Kind::Pawn as usize] = PAWN_ATTACKS[them.index()][square];
        direct[Kind::Knight as usize] = KNIGHT[square];
        direct[Kind::Bishop as usize] = bishop_attacks(square, occ);
        direct[Kind::Rook as usize] = rook_attacks(square, occ);
        direct[Kind::Queen as usize] = direct[Kind::Bishop as usize] | direct[Kind::Rook as usize];
        direct[Kind::King as usize] = KING[square];
        // Our men alone between the king and one of our sliders on its board.
        let own = self.pos.men(us, board);
        let q = self.pos.pieces(us, Kind::Queen, board);
        let rq = self.pos.pieces(us, Kind::Rook, board) | q;
        let bq = self.pos.pieces(us, Kind::Bishop, board) | q;
        let mut snipers = (rook_attacks(square, 0) & rq) | (bishop_attacks(square, 0) & bq);
        let mut discoverers = 0;
        while snipers != 0 {
            let sn = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let between = BETWEEN[square][sn] & occ;
            if between.count_ones() == 1 && between & own != 0 {
                discoverers |= between;
            }
        }
        QaCheckInfo { board, square, direct, discoverers, own_king_board: okc / 64 }
    }

    #[inline]
    fn may_give_check(&self, info: &QaCheckInfo, m: Move) -> bool {
        if m.flag() != Flag::Normal && m.flag() != Flag::DoubleStep {
            return true;
        }
        let kind = self.mover(m);
        if kind == Kind::King {
            return true;
        }
        let (s, t) = (m.board_from(), m.board_to());
        if s == info.board && (info.discoverers >> m.from() & 1 != 0 || self.pos.piece_at(s * 64 + m.to()).is_some()) {
            // Leaving a line to the king, or taking a man that stood on one.
            return true;
        }
        if s == info.own_king_board && m.from() == info.square {
            return true;
        }
        let kind = m.promotion().unwrap_or(kind);
        t == info.board && info.direct[kind as usize] >> m.to() & 1 != 0
    }
}

#[cfg(test)]
mod tests;
