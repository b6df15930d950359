//! Mixed 3D Chess for the alpha-beta engine: [`M3Board`], its [`SearchBoard`], with the
//! evaluation of [`eval`] and the weights of [`weights`].
//!
//! - **Evaluation state**: material and placement ([`eval::psq`]) follow the search path
//!   incrementally: a move changes at most four cells ([`Position::touched`]), whose terms are
//!   read before and after it; the previous sums are kept on a stack for the take-back. The terms
//!   that depend on several men ([`eval::dynamic`]) are computed at each evaluation.
//! - **Noisy moves** are captures (en passant included) and promotions; quiescence tries the
//!   captures worth at least its delta margin and the queen promotions.
//! - **Ordering**: MVV-LVA; a capture by a man worth more than its victim whose landing cell is
//!   attacked counts as bad.
//! - **Check test** of late-move pruning, geometric and blind to blockers (so never false for a
//!   checking move): the mover's kind reaches the enemy royal king from the landing cell, or the
//!   origin lies on one of the 26 lines through that king (a discovered check), or the move is
//!   castling, en passant or a promotion.
//! - **Quiescence** stops after eight plies (a position not in check stands pat there): without a
//!   bound, exchanges across a crowded cube, with the checks of commoners among them, ran a
//!   depth-3 search for minutes.
//! - **Null move** only with a man other than pawns and the royal king.
//! - History slots: origin cell x destination cell (512 x 512).

pub mod eval;
pub mod weights;

pub use eval::{decompose, evaluate};
pub use weights::{M3Weights, M3WeightsError};

use super::board::{SearchBoard, SearchMove};
use super::ordering::{noisy_order, quiescence_order, ScoredMove};
use crate::mixed3d::geometry::{file, level, rank, CELLS, SIDE};
use crate::mixed3d::{Flag, Kind, Move, Position, Undo};

impl SearchMove for Move {
    const HISTORY_SLOTS: usize = CELLS * CELLS;

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
        self.from() * CELLS + self.to()
    }
}

/// Mixed 3D's side of the search: the position, the incremental material and placement sum, and
/// a scratch move list.
pub struct M3Board {
    pos: Position,
    /// [`eval::psq`] of `pos`, from White's side.
    psq: i32,
    /// The sums before each move on the search path.
    stack: Vec<i32>,
    scratch: Vec<Move>,
}

/// What [`M3Board::may_give_check`] needs: the enemy royal king's coordinates (file, rank,
/// level).
pub struct M3CheckInfo {
    king: [i32; 3],
}

/// A cell's coordinates (file, rank, level).
#[inline]
fn coords(c: usize) -> [i32; 3] {
    [file(c) as i32, rank(c) as i32, level(c) as i32]
}

/// Whether a rook standing at offset `d` (file, rank, level) from a cell slides to it on an
/// empty cube.
#[inline]
fn rook_line(d: [i32; 3]) -> bool {
    let [f, r, l] = d;
    match (f != 0, r != 0) {
        (true, false) => l == 0 || l.abs() == f.abs(),
        (false, true) => l == 0 || l.abs() == r.abs(),
        (false, false) => l != 0,
        (true, true) => false,
    }
}

/// Whether a bishop standing at offset `d` slides to the cell on an empty cube.
#[inline]
fn bishop_line(d: [i32; 3]) -> bool {
    let [f, r, l] = d;
    f != 0 && f.abs() == r.abs() && (l == 0 || l.abs() == f.abs())
}

impl M3Board {
    /// The value a legal move takes (the man on its destination, a pawn for en passant).
    #[inline]
    fn taken(&self, w: &M3Weights, m: Move) -> Option<i32> {
        match m.flag() {
            Flag::EnPassant => Some(w.value(Kind::Pawn)),
            Flag::Castle => None,
            _ => self.pos.piece_at(m.to()).map(|p| w.value(p.kind)),
        }
    }

    /// The kind of the man moved by `m`.
    #[inline]
    fn mover(&self, m: Move) -> Kind {
        self.pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind)
    }

    /// Whether a capture taking `taken` by `attacker` looks losing: the attacker is worth more
    /// and its landing cell is attacked.
    #[inline]
    fn bad_capture(&self, w: &M3Weights, m: Move, taken: i32, attacker: Kind) -> bool {
        attacker != Kind::King && w.value(attacker) > taken && self.pos.attacked(m.to(), self.pos.side().flip())
    }

    /// The placement terms of the cells a move touches.
    #[inline]
    fn terms(&self, w: &M3Weights, cells: &[usize; 4]) -> i32 {
        cells
            .iter()
            .filter(|&&c| c < CELLS)
            .filter_map(|&c| self.pos.piece_at(c).map(|p| eval::man_term(w, p, c)))
            .sum()
    }
}

/// A move's promotion as the ordering reads it: the piece's value and whether it is a queen.
#[inline]
fn promotion(w: &M3Weights, m: Move) -> Option<(i32, bool)> {
    m.promotion().map(|k| (w.value(k), k == Kind::Queen))
}

impl SearchBoard for M3Board {
    type Pos = Position;
    type Move = Move;
    type NullUndo = Undo;
    type Eval = M3Weights;
    type CheckInfo = M3CheckInfo;

    /// 256 men make capture chains of dozens of plies, and every check among them widens the tree
    /// to all evasions: quiescence stands pat after eight plies.
    const QUIESCENCE_PLIES: usize = 8;

    fn new() -> M3Board {
        M3Board { pos: Position::start(), psq: 0, stack: Vec::with_capacity(256), scratch: Vec::with_capacity(256) }
    }

    fn reset(&mut self, w: &M3Weights, pos: &Position) {
        self.pos = pos.clone();
        self.psq = eval::psq(pos, w);
        self.stack.clear();
    }

    #[inline]
    fn pos(&self) -> &Position {
        &self.pos
    }

    #[inline]
    fn make(&mut self, w: &M3Weights, m: Move) -> Undo {
        let cells = self.pos.touched(m);
        let before = self.terms(w, &cells);
        let undo = self.pos.make(m);
        self.stack.push(self.psq);
        self.psq += self.terms(w, &cells) - before;
        undo
    }

    #[inline]
    fn unmake(&mut self, _: &M3Weights, m: Move, undo: Undo) {
        self.pos.unmake(m, undo);
        self.psq = self.stack.pop().expect("a move to take back");
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
    fn static_eval(&mut self, w: &M3Weights) -> i32 {
        eval::from_mover(&self.pos, self.psq + eval::dynamic(&self.pos, w), w)
            .clamp(-super::score::MATE_BOUND + 1, super::score::MATE_BOUND - 1)
    }

    fn null_move_ok(&self) -> bool {
        let us = self.pos.side();
        (0..SIDE).any(|l| {
            self.pos.men(us, l) & !(self.pos.pieces(us, Kind::Pawn, l) | self.pos.pieces(us, Kind::King, l)) != 0
        })
    }

    fn legal_moves_split(&mut self, _: &M3Weights, noisy: &mut Vec<Move>, quiet: &mut Vec<Move>) {
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
        !self.pos.is_noisy(m)
    }

    fn noisy_score(&self, w: &M3Weights, m: Move) -> i32 {
        let attacker = self.mover(m);
        noisy_order(self.taken(w, m), promotion(w, m), w.value(attacker), |v| self.bad_capture(w, m, v, attacker))
    }

    fn captures(&mut self, w: &M3Weights, min_gain: i32, out: &mut Vec<ScoredMove<Move>>) {
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
    fn skip_capture(&self, w: &M3Weights, m: Move) -> bool {
        if m.promotion().is_some() {
            return false;
        }
        match self.taken(w, m) {
            Some(v) => self.bad_capture(w, m, v, self.mover(m)),
            None => false,
        }
    }

    fn check_info(&self) -> M3CheckInfo {
        M3CheckInfo { king: coords(self.pos.king(self.pos.side().flip())) }
    }

    #[inline]
    fn may_give_check(&self, info: &M3CheckInfo, m: Move) -> bool {
        if m.flag() != Flag::Normal && m.flag() != Flag::DoubleStep || m.promotion().is_some() {
            return true;
        }
        let (from, to) = (coords(m.from()), coords(m.to()));
        let k = info.king;
        let df = [k[0] - from[0], k[1] - from[1], k[2] - from[2]];
        // The origin on a line through the king: the move may open it.
        let n = df.iter().map(|x| x.abs()).max().unwrap_or(0);
        if n > 0 && df.iter().all(|&x| x == 0 || x.abs() == n) {
            return true;
        }
        let d = [k[0] - to[0], k[1] - to[1], k[2] - to[2]];
        match self.mover(m) {
            Kind::Pawn => {
                let fwd = if self.pos.side() == crate::game::Color::White { 1 } else { -1 };
                d[1] == fwd && (d[0].abs() + d[2].abs() == 1)
            }
            Kind::Knight => {
                let mut a = d.map(i32::abs);
                a.sort_unstable();
                a == [0, 1, 2]
            }
            Kind::King | Kind::Commoner => d.iter().all(|x| x.abs() <= 1),
            Kind::Rook => rook_line(d),
            Kind::Bishop => bishop_line(d),
            Kind::Queen => rook_line(d) || bishop_line(d),
        }
    }
}

#[cfg(test)]
mod tests;
