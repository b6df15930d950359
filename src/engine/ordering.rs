//! Move ordering: what to try first, and the capture generator of quiescence.
//!
//! Order at a full-width node (highest score first, ties by move bits; [`MovePicker`] produces
//! it in stages, so a node that cuts off on the table move, a capture or a killer never scores
//! or sorts its ~200 quiet moves):
//! 1. the transposition-table move;
//! 2. good captures and queen promotions, by MVV-LVA (most valuable victim, then least valuable
//!    attacker); a capture by a more valuable piece onto a defended cell counts as bad;
//! 3. the two killer moves of the ply (quiet moves that caused a cutoff in a sibling);
//! 4. quiet moves by history score (butterfly table per side, from-cell x to-cell, with gravity);
//! 5. bad captures; under-promotions last.
//!
//! Placement variants of one move share its history entry; the plain move gets a small edge so the
//! four variants do not all precede other moves.

use super::board::{SearchBoard, SearchMove};
pub use super::heuristics::{Heuristics, ScoredMove, HISTORY_MAX, MAX_PLY};
use crate::game::State;
use crate::rules::geometry::{pawn_class, DIAG2, DIAG3, ORTH};
use crate::rules::movegen::AttackSource;
use crate::rules::position::promotion_row;
use crate::rules::types::{KIND_COUNT, RESERVE_KINDS};
use crate::rules::{Bitboard, Cell, Kind, Move, Position, Ruleset, Special};

/// The table move's score.
const TT_MOVE: i32 = 1 << 30;
/// Captures and promotions worth trying before the killers score from here.
pub const GOOD_CAPTURE: i32 = 1 << 28;
/// The second killer's score (the first's is one more).
pub const KILLER: i32 = 1 << 27;
/// Captures that look losing score from here (below every quiet move).
pub const BAD_CAPTURE: i32 = -(1 << 27);
/// Under-promotions score from here (last).
pub const UNDER_PROMOTION: i32 = -(1 << 28);

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

/// MVV-LVA score of capturing `victim` with `attacker`, with piece values `values`.
#[inline]
pub fn mvv_lva(values: &[i32], victim: Kind, attacker: Kind) -> i32 {
    mvv_lva_values(values[victim.index()], values[attacker.index()])
}

/// MVV-LVA score of taking men worth `victim` with a man worth `attacker`.
#[inline]
pub fn mvv_lva_values(victim: i32, attacker: i32) -> i32 {
    victim * 16 - attacker / 8
}

/// The ordering score of a noisy move of a game with its own board (4D Quasi-Alice, Mixed 3D),
/// from the values involved: `taken`, what it captures (if anything), `promotion`, the value of
/// the piece it promotes to and whether that is a queen, `attacker`, the mover's value. An
/// under-promotion goes last; a capture that `bad` (given the value taken) judges losing goes
/// after the quiet moves; the rest by MVV-LVA, a queen promotion adding its value.
#[inline]
pub fn noisy_order(
    taken: Option<i32>,
    promotion: Option<(i32, bool)>,
    attacker: i32,
    bad: impl FnOnce(i32) -> bool,
) -> i32 {
    match (taken, promotion) {
        (_, Some((v, false))) => UNDER_PROMOTION + v,
        (Some(t), promo) => {
            let base = mvv_lva_values(t, attacker) + promo.map_or(0, |(v, _)| v * 16);
            if promo.is_none() && bad(t) {
                BAD_CAPTURE + base
            } else {
                GOOD_CAPTURE + base
            }
        }
        (None, Some((v, _))) => GOOD_CAPTURE + v * 16,
        (None, None) => 0,
    }
}

/// Whether quiescence tries a noisy move of such a game, and its score there: captures of at
/// least `min_gain` and queen promotions, never an under-promotion (the arguments as for
/// [`noisy_order`]).
#[inline]
pub fn quiescence_order(
    taken: Option<i32>,
    promotion: Option<(i32, bool)>,
    attacker: i32,
    min_gain: i32,
) -> Option<i32> {
    let worth = match (taken, promotion) {
        (_, Some((_, false))) => false,
        (Some(v), _) if v >= min_gain => true,
        (_, Some(_)) => true,
        _ => false,
    };
    worth
        .then(|| GOOD_CAPTURE + taken.map_or(0, |v| mvv_lva_values(v, attacker)) + promotion.map_or(0, |(v, _)| v * 16))
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
    pos.attacked(to, them, occ, pos.color_bb(them).0 & !(1u128 << to))
}

/// Scores every move of `moves` into `out` (cleared first) for a full-width node of `board`.
pub fn score_moves<B: SearchBoard>(
    board: &B,
    eval: &B::Eval,
    moves: &[B::Move],
    out: &mut Vec<ScoredMove<B::Move>>,
    tt_move: Option<B::Move>,
    heur: &Heuristics<B::Move>,
    ply: usize,
) {
    out.clear();
    let side = board.pos().side().index();
    let [k0, k1] = heur.killers(ply);
    for &m in moves {
        let score = if Some(m) == tt_move {
            TT_MOVE
        } else if !board.is_quiet(m) {
            board.noisy_score(eval, m)
        } else if Some(m) == k0 {
            KILLER + 1
        } else if Some(m) == k1 {
            KILLER
        } else {
            board.quiet_score(heur, side, m)
        };
        out.push(ScoredMove { mv: m, score });
    }
}

/// Sort key of a scored move: higher scores first, ties by move bits (one integer compare).
#[inline]
pub fn order_key<M: SearchMove>(s: &ScoredMove<M>) -> u64 {
    // Flipping the sign bit maps i32 order onto u32 order; inverting makes it descending.
    (!((s.score as u32) ^ 0x8000_0000) as u64) << 32 | s.mv.bits() as u64
}

/// Quiet moves picked by selection before the rest of the quiet list is sorted (a cutoff usually
/// comes early).
const LAZY_PICKS: usize = 4;

/// Where a [`MovePicker`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    #[default]
    TableMove,
    Good,
    Killer0,
    Killer1,
    Quiet,
    Bad,
    Done,
}

/// The legal moves of a full-width node in [`score_moves`] order (highest score first, ties by
/// move bits), produced in stages: the table move; captures and promotions scoring above the
/// killers (good captures, queen promotions); the killers; quiet moves by history; the rest of the
/// captures and promotions (bad captures, under-promotions). The score ranges make this exactly
/// the order of sorting every move by [`order_key`]: good noisy moves score from
/// `GOOD_CAPTURE`, killers `KILLER` and `KILLER + 1`, quiet moves within +-(`HISTORY_MAX` + 64),
/// and bad noisy moves below `BAD_CAPTURE / 2`. Quiet moves are scored with the history as it
/// stands when the quiet stage begins, after the earlier moves' subtrees have updated it (a
/// list scored up front, as before the picker, used the history at the node's start).
pub struct MovePicker<M = Move> {
    noisy_moves: Vec<M>,
    quiet_moves: Vec<M>,
    noisy: Vec<ScoredMove<M>>,
    quiet: Vec<ScoredMove<M>>,
    stage: Stage,
    /// Next index into `noisy` (good moves first, then bad ones).
    idx: usize,
    /// Next index into `quiet` (`usize::MAX` until the quiet moves are scored).
    qidx: usize,
    tt: Option<M>,
    killers: [Option<M>; 2],
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            noisy_moves: Vec::new(),
            quiet_moves: Vec::new(),
            noisy: Vec::new(),
            quiet: Vec::new(),
            stage: Stage::default(),
            idx: 0,
            qidx: 0,
            tt: None,
            killers: [None, None],
        }
    }
}

impl<M: SearchMove> MovePicker<M> {
    /// Generates the legal moves of `board`'s position for a node with table move `tt` and the
    /// killers of its ply; returns the number of legal moves.
    pub fn generate<B: SearchBoard<Move = M>>(
        &mut self,
        board: &mut B,
        eval: &B::Eval,
        tt: Option<M>,
        killers: [Option<M>; 2],
    ) -> usize {
        self.noisy_moves.clear();
        self.quiet_moves.clear();
        board.legal_moves_split(eval, &mut self.noisy_moves, &mut self.quiet_moves);
        self.stage = Stage::TableMove;
        self.idx = 0;
        self.qidx = usize::MAX;
        self.tt = tt;
        self.killers = killers;
        self.noisy_moves.len() + self.quiet_moves.len()
    }

    /// The next move, or `None` when all have been produced.
    pub fn next<B: SearchBoard<Move = M>>(&mut self, board: &B, eval: &B::Eval, heur: &Heuristics<M>) -> Option<M> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    // Score and sort the captures and promotions (few) for the next stages.
                    self.noisy.clear();
                    self.noisy.extend(
                        self.noisy_moves.iter().map(|&m| ScoredMove { mv: m, score: board.noisy_score(eval, m) }),
                    );
                    self.noisy.sort_unstable_by_key(order_key);
                    self.stage = Stage::Good;
                    match self.tt {
                        Some(m) if self.noisy_moves.contains(&m) || self.quiet_moves.contains(&m) => return Some(m),
                        _ => self.tt = None,
                    }
                }
                Stage::Good => match self.noisy.get(self.idx) {
                    Some(s) if s.score > KILLER + 1 => {
                        self.idx += 1;
                        if Some(s.mv) != self.tt {
                            return Some(s.mv);
                        }
                    }
                    _ => self.stage = Stage::Killer0,
                },
                Stage::Killer0 | Stage::Killer1 => {
                    let k = usize::from(self.stage == Stage::Killer1);
                    self.stage = if k == 0 { Stage::Killer1 } else { Stage::Quiet };
                    match self.killers[k] {
                        Some(m) if Some(m) != self.tt && self.quiet_moves.contains(&m) => return Some(m),
                        _ => self.killers[k] = None,
                    }
                }
                Stage::Quiet => {
                    if self.qidx == usize::MAX {
                        // Score the quiet moves not produced yet.
                        let side = board.pos().side().index();
                        let done = [self.tt, self.killers[0], self.killers[1]];
                        self.quiet.clear();
                        self.quiet.extend(
                            self.quiet_moves
                                .iter()
                                .filter(|m| !done.contains(&Some(**m)))
                                .map(|&m| ScoredMove { mv: m, score: board.quiet_score(heur, side, m) }),
                        );
                        self.qidx = 0;
                    }
                    let i = self.qidx;
                    if i >= self.quiet.len() {
                        self.stage = Stage::Bad;
                        continue;
                    }
                    // Lazy selection for the first picks, then one sort of the rest.
                    if i < LAZY_PICKS {
                        let best = (i..self.quiet.len()).min_by_key(|&j| order_key(&self.quiet[j])).unwrap_or(i);
                        self.quiet.swap(i, best);
                    } else if i == LAZY_PICKS {
                        self.quiet[i..].sort_unstable_by_key(order_key);
                    }
                    self.qidx += 1;
                    return Some(self.quiet[i].mv);
                }
                Stage::Bad => match self.noisy.get(self.idx) {
                    Some(s) => {
                        self.idx += 1;
                        if Some(s.mv) != self.tt {
                            return Some(s.mv);
                        }
                    }
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }

    /// Drops the quiet moves not produced yet for which `keep` is false (the order of the rest is
    /// unchanged: it depends only on their keys).
    pub fn retain_quiet(&mut self, keep: impl Fn(M) -> bool) {
        if self.qidx == usize::MAX {
            self.quiet_moves.retain(|&m| keep(m));
        } else {
            let mut w = self.qidx;
            for r in self.qidx..self.quiet.len() {
                if keep(self.quiet[r].mv) {
                    self.quiet[w] = self.quiet[r];
                    w += 1;
                }
            }
            self.quiet.truncate(w);
        }
    }
}

/// The ordering score of a 5x5x5 quiet move that is not a killer: its history, plus a small edge
/// for the plain version over its placement variants.
#[inline]
pub(crate) fn quiet_score(heur: &Heuristics, side: usize, m: Move) -> i32 {
    heur.history(side, m) + if m.placement().is_none() { 64 } else { 0 }
}

/// The ordering score of a 5x5x5 capture or promotion (as [`score_moves`] gives it, table move
/// aside).
#[inline]
pub(crate) fn noisy_score(pos: &Position, values: &[i32], m: Move) -> i32 {
    match (captured(pos, m), m.promotion()) {
        (_, Some(k)) if k != Kind::Queen => UNDER_PROMOTION + values[k.index()],
        (Some(v), promo) => {
            let attacker = pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind);
            let base = mvv_lva(values, v, attacker) + promo.map_or(0, |k| values[k.index()] * 16);
            if promo.is_none() && is_bad_capture(pos, values, m, v, attacker) {
                BAD_CAPTURE + base
            } else {
                GOOD_CAPTURE + base
            }
        }
        (None, Some(k)) => GOOD_CAPTURE + values[k.index()] * 16,
        (None, None) => 0,
    }
}

/// Swaps the best-scored move of `list[i..]` into `list[i]` and returns it.
#[inline]
pub fn pick<M: Copy>(list: &mut [ScoredMove<M>], i: usize) -> ScoredMove<M> {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
    list[i]
}

/// Kinds a side can capture, most valuable first (ties in kind order): the victim order of
/// [`captures_into`].
pub fn victim_order(ruleset: Ruleset, values: &[i32]) -> Vec<Kind> {
    let mut v: Vec<Kind> = Kind::ALL.into_iter().filter(|k| *k != Kind::King && ruleset.has_kind(*k)).collect();
    v.sort_by_key(|k| (-values[k.index()], k.index()));
    v
}

/// Cells from which a pawn of `class` reaches its promotion row in one push, per topology.
fn promotion_steps(cylinder: bool, class: usize) -> u128 {
    static TABLE: std::sync::OnceLock<[[u128; 4]; 2]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        [false, true].map(|cyl| {
            let g = crate::rules::geometry::Geometry::get(cyl);
            [0, 1, 2, 3].map(|class| {
                let row = promotion_row(class);
                (0..125)
                    .filter(|&c| row >> c & 1 == 0 && g.pawn_push[class][c] & row != 0)
                    .fold(0, |b, c| b | 1u128 << c)
            })
        })
    })[usize::from(cylinder)][class]
}

/// Generates, scored, the moves quiescence searches when not in check: queen promotions, then
/// captures victim by victim in `victims` order (most valuable first), each by its attackers, then
/// en passant. Victims worth less than `min_gain` are skipped (delta pruning), except pawn
/// captures that promote. A capture that is legal only with a placement (a pinned piece whose
/// origin must be refilled) comes with the first reserve piece placed; otherwise one plain version.
///
/// The pieces' attack sets come from `attacks` (a search passes its incremental evaluation's).
/// Must not be called in check.
pub fn captures_into(
    pos: &Position,
    values: &[i32],
    victims: &[Kind],
    min_gain: i32,
    attacks: &impl AttackSource,
    out: &mut Vec<ScoredMove>,
) {
    // 1. Context.
    out.clear();
    let us = pos.side();
    let them = us.flip();
    let own = pos.color_bb(us).0;
    let their = pos.color_bb(them).0;
    let occ = own | their;
    let g = pos.geometry();
    let ksq = pos.king(us).index();
    // Pinned pieces, computed at the first capture found (many nodes have none worth trying).
    let pinned = std::cell::OnceCell::new();
    let class = pawn_class(pos.ruleset(), us);
    let promo_row = promotion_row(class);
    let queen = pos.ruleset().promotions()[0];
    let pawns = pos.pieces(us, Kind::Pawn).0;
    let reserve = pos.reserve(us);
    let placeable = pos.rights().0 & own;
    let first_reserve = RESERVE_KINDS[reserve.trailing_zeros().min(2) as usize];

    // Legality of `from` -> `to` (an enemy piece on `to` or empty): None when illegal, else
    // the placement it needs (None for a plain move).
    let legal = |from: usize, to: usize| -> Option<Option<Kind>> {
        let f = 1u128 << from;
        let their2 = their & !(1u128 << to);
        let (sq, occ_after) = if from == ksq { (to, occ ^ f) } else { (ksq, (occ ^ f) | 1u128 << to) };
        if (from != ksq && *pinned.get_or_init(|| pos.pinned()) & f == 0) || !pos.attacked(sq, them, occ_after, their2)
        {
            Some(None)
        } else if reserve != 0 && placeable & f != 0 && !pos.attacked(sq, them, occ_after | f, their2) {
            Some(Some(first_reserve))
        } else {
            None
        }
    };
    let push = |out: &mut Vec<ScoredMove>, from: usize, to: usize, promo: Option<Kind>, score: i32| {
        if let Some(place) = legal(from, to) {
            let m = Move::new(
                Cell::new_unchecked(from as u8),
                Cell::new_unchecked(to as u8),
                promo,
                place,
                Special::Normal,
            );
            out.push(ScoredMove { mv: m, score });
        }
    };

    // 2. Queen promotions by a push (only pawns one push from the promotion row can).
    for from in Bitboard(pawns & promotion_steps(g.cylinder, class)) {
        for to in Bitboard(g.pawn_push[class][from.index()] & !occ & promo_row) {
            push(out, from.index(), to.index(), Some(queen), GOOD_CAPTURE + values[queen.index()] * 16);
        }
    }

    // 3. Captures, by attacker: each piece's attack set (from `attacks`) against the victims worth
    //    trying; cheap victims count only as promotions by a pawn capture. Then the captures are
    //    put in victim order (most valuable first), then by target and attacker cell.
    let start = out.len();
    let mut rank = [0u8; KIND_COUNT];
    let mut cheap = 0u128;
    for (i, &victim) in victims.iter().enumerate() {
        rank[victim.index()] = i as u8;
        if values[victim.index()] < min_gain {
            cheap |= pos.pieces(them, victim).0;
        }
    }
    let targets = their & !pos.pieces(them, Kind::King).0;
    let dear = targets & !cheap;
    let capture = |out: &mut Vec<ScoredMove>, from: usize, to: usize, attacker: Kind| {
        let victim = pos.piece_at(Cell::new_unchecked(to as u8)).map_or(Kind::Pawn, |p| p.kind);
        let promo = (attacker == Kind::Pawn && promo_row >> to & 1 != 0).then_some(queen);
        let score = GOOD_CAPTURE + mvv_lva(values, victim, attacker) + promo.map_or(0, |q| values[q.index()] * 16);
        push(out, from, to, promo, score);
    };
    for from in Bitboard(own & !pawns & !(1u128 << ksq)) {
        let kind = pos.piece_at(from).map_or(Kind::Pawn, |p| p.kind);
        for to in Bitboard(attacks.piece_attacks(pos, kind, from.index()) & dear) {
            capture(out, from.index(), to.index(), kind);
        }
    }
    for to in Bitboard(pos.attacks_from(Kind::King, ksq, occ) & dear) {
        capture(out, ksq, to.index(), Kind::King);
    }
    // Pawn captures from whichever side is smaller: the pawns, or the targets (looking back
    // along the capture relation); the sort below fixes the order either way.
    let pawn_targets = dear | (targets & promo_row);
    if pawns.count_ones() <= pawn_targets.count_ones() {
        for from in Bitboard(pawns) {
            for to in Bitboard(g.pawn_capture[class][from.index()] & pawn_targets) {
                capture(out, from.index(), to.index(), Kind::Pawn);
            }
        }
    } else {
        for to in Bitboard(pawn_targets) {
            for from in Bitboard(g.pawn_capture[class ^ 1][to.index()] & pawns) {
                capture(out, from.index(), to.index(), Kind::Pawn);
            }
        }
    }
    out[start..].sort_unstable_by_key(|s| {
        let victim = pos.piece_at(s.mv.to()).map_or(Kind::Pawn, |p| p.kind);
        (rank[victim.index()] as u32) << 16 | (s.mv.to().index() as u32) << 8 | s.mv.from().index() as u32
    });

    // 4. En passant (tested like the rules core: both pawns leave their cells).
    let ep = pos.ep();
    if ep.is_some() && values[Kind::Pawn.index()] >= min_gain {
        let cap = 1u128 << ep.pawn;
        for p in Bitboard(ep.passed) {
            for from in Bitboard(g.pawn_capture[class ^ 1][p.index()] & pawns) {
                let occ2 = (occ ^ 1u128 << from.index() ^ cap) | 1u128 << p.index();
                if !pos.attacked(ksq, them, occ2, their & !cap) {
                    let m = Move::new(from, p, None, None, Special::EnPassant);
                    out.push(ScoredMove { mv: m, score: GOOD_CAPTURE + mvv_lva(values, Kind::Pawn, Kind::Pawn) });
                }
            }
        }
    }
}

/// What it takes to give check to the side not to move: for a cheap test, before making a move,
/// of whether it may give check (late-move pruning spares checking moves).
pub struct CheckInfo {
    /// Per kind: the cells from which a piece of ours of that kind would attack the enemy king.
    direct: [u128; KIND_COUNT],
    /// Our pieces standing alone between the enemy king and one of our sliders on that line.
    discoverers: u128,
}

impl CheckInfo {
    /// The check cells of the side to move against the enemy king.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side();
        let ksq = pos.king(us.flip()).index();
        let occ = pos.occupied().0;
        let g = pos.geometry();
        let mut direct = [0u128; KIND_COUNT];
        for k in Kind::ALL {
            if k != Kind::Pawn && pos.ruleset().has_kind(k) {
                direct[k.index()] = pos.attacks_from(k, ksq, occ);
            }
        }
        direct[Kind::Pawn.index()] = g.pawn_capture[pawn_class(pos.ruleset(), us) ^ 1][ksq];
        // Sliders per direction family: orthogonal, 2D diagonal, 3D diagonal.
        let own = pos.color_bb(us).0;
        let kinds = |ks: &[Kind]| ks.iter().fold(0u128, |b, k| b | pos.pieces(us, *k).0);
        let raum = !pos.ruleset().is_fiveup();
        let families = [
            (ORTH, kinds(&[Kind::Rook, Kind::Queen])),
            (DIAG2, kinds(&[Kind::Bishop, Kind::Queen, Kind::Wizard])),
            (
                DIAG3,
                kinds(&[Kind::Silver, Kind::Wizard, Kind::RUnicorn]) | if raum { kinds(&[Kind::Queen]) } else { 0 },
            ),
        ];
        let mut discoverers = 0;
        for (dirs, sliders) in families {
            if sliders == 0 {
                continue;
            }
            for d in dirs {
                let Some(b) = g.first_blocker(d, ksq, occ) else { continue };
                if own >> b & 1 != 0 && g.first_blocker(d, b, occ).is_some_and(|x| sliders >> x & 1 != 0) {
                    discoverers |= 1u128 << b;
                }
            }
        }
        CheckInfo { direct, discoverers }
    }

    /// Whether legal move `m` may give check (never false for a checking move; sometimes true for
    /// one that does not).
    #[inline]
    pub fn may_give_check(&self, pos: &Position, m: Move) -> bool {
        if m.special() != Special::Normal || self.discoverers >> m.from().index() & 1 != 0 {
            return true;
        }
        let kind = m.promotion().unwrap_or_else(|| pos.piece_at(m.from()).map_or(Kind::Pawn, |p| p.kind));
        if self.direct[kind.index()] >> m.to().index() & 1 != 0 {
            return true;
        }
        m.placement().is_some_and(|k| self.direct[k.index()] >> m.from().index() & 1 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{FiveUpBoard, FiveUpEval};
    use crate::rules::{Ruleset, Variant};

    fn scrambled(rs: Ruleset, plies: usize, seed: u64) -> Position {
        crate::rules::random::scrambled(Variant::plain(rs), plies, seed)
    }

    #[test]
    fn quiescence_moves_are_the_legal_captures_and_queen_promotions() {
        for rs in Ruleset::ALL {
            let w = crate::engine::Weights::for_ruleset(rs);
            let victims = victim_order(rs, &w.values);
            for seed in 0..60 {
                let p = scrambled(rs, 20 + seed as usize % 40, seed);
                if p.in_check() {
                    continue;
                }
                let mut noisy = Vec::new();
                captures_into(&p, &w.values, &victims, i32::MIN, &crate::rules::movegen::Computed, &mut noisy);
                let legal = p.legal_moves();
                for m in &noisy {
                    assert!(legal.contains(&m.mv), "{rs} {seed}: {} not legal", m.mv);
                    assert!(!is_quiet(&p, m.mv));
                }
                // Every legal capture and push promoting to a queen appears in some placement version.
                let want: Vec<Move> = legal
                    .iter()
                    .filter(|m| m.promotion().map_or(captured(&p, **m).is_some(), |k| k == Kind::Queen))
                    .map(|m| m.without_placement())
                    .collect();
                for c in &want {
                    assert!(noisy.iter().any(|n| n.mv.without_placement() == *c), "{rs} {seed}: {c} missing");
                }
                assert_eq!(want.iter().collect::<std::collections::HashSet<_>>().len(), noisy.len());
                // Delta pruning drops cheap victims only.
                let mut dear = Vec::new();
                captures_into(&p, &w.values, &victims, 350, &crate::rules::movegen::Computed, &mut dear);
                assert!(dear.iter().all(|m| m.mv.promotion().is_some() || w.value(captured(&p, m.mv).unwrap()) >= 350));
            }
        }
    }

    #[test]
    fn may_give_check_never_misses_a_check() {
        let mut found = 0;
        for rs in Ruleset::ALL {
            for seed in 0..80 {
                let p = scrambled(rs, 10 + seed as usize % 50, seed);
                let info = CheckInfo::new(&p);
                let mut flagged = 0;
                for m in p.legal_moves() {
                    let checks = p.after(m).in_check();
                    let may = info.may_give_check(&p, m);
                    assert!(!checks || may, "{rs} seed {seed}: {m} gives check");
                    found += usize::from(checks);
                    flagged += usize::from(may);
                }
                assert!(flagged <= p.legal_moves().len());
            }
        }
        assert!(found > 20, "the test positions hold checking moves ({found})");
    }

    #[test]
    fn picker_order_is_every_move_sorted_by_score_and_bits() {
        for rs in Ruleset::ALL {
            let eval = FiveUpEval { weights: crate::engine::Weights::for_ruleset(rs), net: None, tablebases: None };
            let mut board = FiveUpBoard::new();
            let mut picker = MovePicker::default();
            for seed in 0..40 {
                let p = scrambled(rs, 6 + seed as usize % 40, seed);
                board.reset(&eval, &p);
                let legal = p.legal_moves();
                // Some history, killers (one legal quiet move, one move from elsewhere) and a table
                // move of varying kind.
                let mut heur = Heuristics::default();
                for (i, m) in legal.iter().enumerate().filter(|(i, _)| i % 3 == 0) {
                    heur.update_history(p.side().index(), *m, (i as i32 * 97) % 2000 - 1000);
                }
                let quiet: Vec<Move> = legal.iter().copied().filter(|m| is_quiet(&p, *m)).collect();
                if let Some(&k) = quiet.get(seed as usize % quiet.len().max(1)) {
                    heur.add_killer(3, k);
                }
                if seed % 2 == 0 {
                    heur.add_killer(3, Move::normal(Cell::new(0), Cell::new(124)));
                }
                let tt = match seed % 3 {
                    0 => None,
                    1 => legal.get(seed as usize % legal.len().max(1)).copied(),
                    _ => quiet.first().copied(),
                };
                let mut want = Vec::new();
                score_moves(&board, &eval, &legal, &mut want, tt, &heur, 3);
                want.sort_unstable_by_key(order_key);
                let want: Vec<Move> = want.iter().map(|s| s.mv).collect();
                assert_eq!(picker.generate(&mut board, &eval, tt, heur.killers(3)), legal.len());
                let got: Vec<Move> = std::iter::from_fn(|| picker.next(&board, &eval, &heur)).collect();
                assert_eq!(got, want, "{rs} seed {seed}");
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
        let eval =
            FiveUpEval { weights: crate::engine::Weights::for_ruleset(Ruleset::FiveUp), net: None, tablebases: None };
        let mut board = FiveUpBoard::new();
        board.reset(&eval, &p);
        let tt = legal[legal.len() / 2];
        let mut list = Vec::new();
        score_moves(&board, &eval, &legal, &mut list, Some(tt), &Heuristics::default(), 0);
        assert_eq!(pick(&mut list, 0).mv, tt);
        let picked: Vec<ScoredMove> = (0..list.len()).map(|i| pick(&mut list, i)).collect();
        assert!(picked.windows(2).all(|w| w[0].score >= w[1].score));
        // Good captures come before every quiet move.
        let first_quiet = picked.iter().position(|s| is_quiet(&p, s.mv)).unwrap_or(picked.len());
        assert!(picked[first_quiet..].iter().all(|s| is_quiet(&p, s.mv) || s.score < 0));
    }
}
