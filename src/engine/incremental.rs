//! Incremental evaluation: the terms of [`evaluate`] kept up to date along the search path.
//!
//! Most of [`evaluate`]'s cost is the attack set of every piece (mobility and king-zone attacks
//! need it), yet a move changes few of them. [`EvalState`] keeps, per cell holding a piece (not a
//! pawn or king), its attack set, its [`piece_score`] and its attacks on the enemy king's zone, and
//! per side the sums of both and of the pawns' values. An update from one position to a later one
//! recomputes only what can have changed:
//! 1. `changed` = the cells whose occupancy changed, plus every move's from and to cells (a capture
//!    or a placement changes what stands there without changing occupancy; castling swaps king
//!    and rook on exactly those two cells);
//! 2. entries on changed cells are dropped, and re-created for the pieces standing there now;
//! 3. a piece that stays recomputes its entry when its attack set meets `changed`. Nothing else
//!    can have moved: a slider's attack set changes only where a cell on its rays up to the first
//!    blocker (all inside the set) fills or empties, and mobility counts `a & !own`, where `own`
//!    changed only on changed cells;
//! 4. when a king moved, the zone counts of the other side's pieces are recounted from the stored
//!    attack sets.
//!
//! Because the rule needs only a superset of the cells that differ, one update can span several
//! moves. So updates are lazy: [`EvalState::push`] records a move (its changed cells and the king
//! cells before it) and [`EvalState::evaluate`] catches up over every move recorded since the last
//! update. Nodes that never evaluate (in check, cut by the table) cost one record each.
//!
//! King shelter, the reserve in hand and the tapered material (from the [`Taper`] tables made at
//! the reset: a popcount per kind and colour) are cheap and computed afresh; the sum of the terms is
//! exactly what [`evaluate`] returns (debug builds assert it at every call from the search; a test
//! walks random games forward and back comparing the two).
//!
//! Once brought to a position, the stored attack sets also serve move generation: [`EvalState`]
//! is an [`AttackSource`]: each piece's attack set (full-width and quiescence capture generation),
//! and the cells the opponent attacks past the lifted king (king moves).
//!
//! Undo is a log: every entry is saved before it changes, and a frame per update records where the
//! log stood and the sums, so taking the moves of an update back restores the state bit for bit.

#[cfg(doc)]
use super::eval::evaluate;
use super::eval::{
    from_sides, hand_value, is_piece, pawn_advance, piece_attacks, piece_score, shelter, slide_dirs, Taper,
    PAWN_PROGRESS,
};
use super::weights::Weights;
use crate::game::Color;
use crate::rules::geometry::pawn_class;
use crate::rules::movegen::AttackSource;
use crate::rules::types::RESERVE_KINDS;
use crate::rules::{Bitboard, Cell, Kind, Position};

/// One cell's entry as it was before a change.
#[derive(Clone, Copy)]
struct Saved {
    att: u128,
    score: i32,
    zone: u8,
    cell: u8,
}

/// What an update changed outside the per-cell entries.
#[derive(Clone, Copy)]
struct Frame {
    saved: usize,
    tracked: [u128; 2],
    pawns: [u128; 2],
    sum: [i32; 2],
    zsum: [i32; 2],
    psum: [i32; 2],
}

/// A move on the path from the root: the cells it changed, the king cells before it, and whether
/// the state was brought up to the position after it.
#[derive(Clone, Copy)]
struct Step {
    changed: u128,
    kings: [u8; 2],
    applied: bool,
}

/// The per-piece evaluation terms of a position, following the moves made from the root
/// ([`EvalState::push`], [`EvalState::pop`]) and brought up to date when an evaluation is asked.
pub(crate) struct EvalState {
    /// Attack set of the piece on each cell (meaningful on `tracked` cells only).
    att: [u128; 125],
    /// [`piece_score`] of the piece on each cell.
    score: [i32; 125],
    /// Attacks of the piece on each cell on the enemy king's zone.
    zone: [u8; 125],
    /// Cells holding a scored piece, per side.
    tracked: [u128; 2],
    /// Cells holding a pawn, per side.
    pawns: [u128; 2],
    /// Sums of `score`, of `zone` and of the pawns' values per side.
    sum: [i32; 2],
    zsum: [i32; 2],
    psum: [i32; 2],
    /// Value and advancement of a pawn of each side on each cell.
    pawn_value: [[i32; 125]; 2],
    /// Value of the reserve pieces in hand per reserve mask (W = 1, G = 2, S = 4).
    hand: [i32; 8],
    /// The tapered-material tables of the weights and ruleset of the last reset.
    taper: Taper,
    saved: Vec<Saved>,
    frames: Vec<Frame>,
    path: Vec<Step>,
}

impl EvalState {
    /// An empty state; [`EvalState::reset`] fills it.
    pub(crate) fn new() -> EvalState {
        EvalState {
            att: [0; 125],
            score: [0; 125],
            zone: [0; 125],
            tracked: [0; 2],
            pawns: [0; 2],
            sum: [0; 2],
            zsum: [0; 2],
            psum: [0; 2],
            pawn_value: [[0; 125]; 2],
            hand: [0; 8],
            taper: Taper::OFF,
            saved: Vec::with_capacity(1024),
            frames: Vec::with_capacity(256),
            path: Vec::with_capacity(256),
        }
    }

    /// Makes `pos` the root: computes every entry from scratch and forgets the moves made before.
    pub(crate) fn reset(&mut self, pos: &Position, w: &Weights) {
        self.saved.clear();
        self.frames.clear();
        self.path.clear();
        self.sum = [0; 2];
        self.zsum = [0; 2];
        self.psum = [0; 2];
        for color in Color::ALL {
            let i = color.index();
            let progress = &PAWN_PROGRESS[pawn_class(pos.ruleset(), color)];
            for (v, &p) in self.pawn_value[i].iter_mut().zip(progress) {
                *v = w.values[Kind::Pawn.index()] + pawn_advance(w, p);
            }
        }
        for (mask, h) in self.hand.iter_mut().enumerate() {
            let kinds = RESERVE_KINDS.iter().enumerate().filter(|(b, _)| mask >> b & 1 != 0);
            *h = hand_value(w, kinds.map(|(_, &k)| k));
        }
        self.taper = Taper::new(pos.ruleset(), w);
        let occ = pos.occupied().0;
        for color in Color::ALL {
            let i = color.index();
            let cells = scored_cells(pos, color);
            self.tracked[i] = cells;
            let own = pos.color_bb(color).0;
            let zone = enemy_zone(pos, color);
            for c in Bitboard(cells) {
                self.set(pos, w, color, c.index(), occ, own, zone);
            }
            self.pawns[i] = pos.pieces(color, Kind::Pawn).0;
            self.psum[i] = Bitboard(self.pawns[i]).map(|c| self.pawn_value[i][c.index()]).sum();
        }
    }

    /// The tapered-material tables of the weights and ruleset of the last reset.
    #[inline]
    pub(crate) fn taper(&self) -> &Taper {
        &self.taper
    }

    /// Records a move from `from` to `to` just made, given the occupancy before and after it and
    /// the king cells (white, black) before it. Nothing is recomputed until an evaluation asks.
    /// A null move changes no cell and needs no record.
    #[inline]
    pub(crate) fn push(&mut self, occ_before: u128, occ_after: u128, kings_before: [usize; 2], from: usize, to: usize) {
        self.path.push(Step {
            changed: (occ_before ^ occ_after) | 1u128 << from | 1u128 << to,
            kings: [kings_before[0] as u8, kings_before[1] as u8],
            applied: false,
        });
    }

    /// Forgets the last move recorded (it was taken back).
    #[inline]
    pub(crate) fn pop(&mut self) {
        if self.path.pop().expect("pop without a move recorded").applied {
            self.undo();
        }
    }

    /// The evaluation of `pos`, which must be the root position followed by the moves recorded:
    /// equal to [`evaluate`]`(pos, w)`.
    #[inline]
    pub(crate) fn evaluate(&mut self, pos: &Position, w: &Weights) -> i32 {
        self.sync(pos, w);
        let side = |c: Color| {
            let i = c.index();
            let hand = if pos.can_place(c) { self.hand[pos.reserve(c) as usize & 7] } else { 0 };
            self.sum[i] + w.king_attack * self.zsum[i] + self.psum[i] + hand + shelter(pos, w, c)
        };
        from_sides(pos, w, &self.taper, side(Color::White), side(Color::Black))
    }

    /// Brings the state to `pos` (see [`EvalState::evaluate`]) without evaluating, for its attack
    /// sets.
    #[inline]
    pub(crate) fn sync(&mut self, pos: &Position, w: &Weights) {
        if self.path.last().is_some_and(|s| !s.applied) {
            self.catch_up(pos, w);
        }
    }

    /// Brings the state from the last position it was brought to (the root or an earlier
    /// evaluation on the path) to `pos`, in one update over the union of the moves' changes.
    #[inline(never)]
    fn catch_up(&mut self, pos: &Position, w: &Weights) {
        let mut changed = 0;
        let mut kings = [0; 2];
        for s in self.path.iter().rev().take_while(|s| !s.applied) {
            changed |= s.changed;
            kings = s.kings;
        }
        self.apply(pos, w, changed, [kings[0] as usize, kings[1] as usize]);
        self.path.last_mut().expect("a move to catch up with").applied = true;
    }

    /// Computes the entry of the piece of `color` on `c` and adds it to the sums.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn set(&mut self, pos: &Position, w: &Weights, color: Color, c: usize, occ: u128, own: u128, zone: u128) {
        let kind = pos.piece_at(Cell::new_unchecked(c as u8)).map_or(Kind::Pawn, |p| p.kind);
        self.store(w, kind, color, c, piece_attacks(pos, kind, c, occ), own, zone);
    }

    /// Stores attack set `a` as the entry of the piece of `color` and `kind` on `c`, with its
    /// score and zone count, and adds them to the sums.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, w: &Weights, kind: Kind, color: Color, c: usize, a: u128, own: u128, zone: u128) {
        let score = piece_score(w, kind, c, a, own);
        let z = (a & zone).count_ones() as u8;
        let i = color.index();
        self.att[c] = a;
        self.score[c] = score;
        self.zone[c] = z;
        self.sum[i] += score;
        self.zsum[i] += z as i32;
    }

    /// Recomputes the entry of the piece of `color` on `c` after the cells `hit` of its attack set
    /// changed, and adds it to the sums. On the flat board only the rays through `hit` are
    /// recomputed (a cell of the attack set lies on at most one ray of the piece; leaps do not
    /// depend on occupancy); on the hypercylinder, where a ring can hold a cell twice, all of it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn refresh(
        &mut self,
        pos: &Position,
        w: &Weights,
        color: Color,
        c: usize,
        hit: u128,
        occ: u128,
        own: u128,
        zone: u128,
    ) {
        let g = pos.geometry();
        if g.cylinder {
            return self.set(pos, w, color, c, occ, own, zone);
        }
        let kind = pos.piece_at(Cell::new_unchecked(c as u8)).map_or(Kind::Pawn, |p| p.kind);
        let dirs = slide_dirs(kind, !pos.ruleset().is_fiveup());
        let mut a = self.att[c];
        if dirs != 0 {
            for x in Bitboard(hit) {
                let d = g.dir_to[c][x.index()] as usize;
                if d != 0 && dirs >> (d - 1) & 1 != 0 {
                    a = (a & !g.rays[d - 1][c]) | g.slide(d - 1, c, occ);
                }
            }
        }
        self.store(w, kind, color, c, a, own, zone);
    }

    /// Saves the entry of `c` to the log.
    #[inline]
    fn save(&mut self, c: usize) {
        self.saved.push(Saved { att: self.att[c], score: self.score[c], zone: self.zone[c], cell: c as u8 });
    }

    /// Saves the entry of `c` and takes it out of `color`'s sums.
    #[inline]
    fn take(&mut self, color: usize, c: usize) {
        self.save(c);
        self.sum[color] -= self.score[c];
        self.zsum[color] -= self.zone[c] as i32;
    }

    /// Brings the state to `pos`, where `changed` holds every cell whose content may differ from
    /// the position the state was at, whose king cells (white, black) were `kings_before`.
    fn apply(&mut self, pos: &Position, w: &Weights, changed: u128, kings_before: [usize; 2]) {
        self.frames.push(Frame {
            saved: self.saved.len(),
            tracked: self.tracked,
            pawns: self.pawns,
            sum: self.sum,
            zsum: self.zsum,
            psum: self.psum,
        });
        let occ = pos.occupied().0;
        // 1. Entries on changed cells go, both sides' before any comes back (a capture leaves the
        //    victim's entry on the cell the capturer's entry takes). Pawns likewise.
        for i in 0..2 {
            for c in Bitboard(self.tracked[i] & changed) {
                self.take(i, c.index());
            }
            self.tracked[i] &= !changed;
            for c in Bitboard(self.pawns[i] & changed) {
                self.psum[i] -= self.pawn_value[i][c.index()];
            }
        }
        for color in Color::ALL {
            let i = color.index();
            let own = pos.color_bb(color).0;
            let zone_moved = kings_before[color.flip().index()] != pos.king(color.flip()).index();
            let zone = enemy_zone(pos, color);
            // 2. Pieces that stayed: recompute those that see a changed cell; recount zone hits
            //    of all when the enemy king moved.
            for c in Bitboard(self.tracked[i]) {
                let c = c.index();
                let hit = self.att[c] & changed;
                if hit != 0 {
                    self.take(i, c);
                    self.refresh(pos, w, color, c, hit, occ, own, zone);
                } else if zone_moved {
                    self.save(c);
                    let z = (self.att[c] & zone).count_ones() as u8;
                    self.zsum[i] += z as i32 - self.zone[c] as i32;
                    self.zone[c] = z;
                }
            }
            // 3. Pieces now on changed cells (their old entries, if any, were saved in step 1).
            let arrived = scored_cells(pos, color) & changed;
            for c in Bitboard(arrived) {
                self.set(pos, w, color, c.index(), occ, own, zone);
            }
            self.tracked[i] |= arrived;
            let pawns = pos.pieces(color, Kind::Pawn).0;
            for c in Bitboard(pawns & changed) {
                self.psum[i] += self.pawn_value[i][c.index()];
            }
            self.pawns[i] = pawns;
        }
    }

    /// Takes back the last [`EvalState::apply`].
    fn undo(&mut self) {
        let f = self.frames.pop().expect("undo without an update");
        for s in self.saved.drain(f.saved..).rev() {
            let c = s.cell as usize;
            self.att[c] = s.att;
            self.score[c] = s.score;
            self.zone[c] = s.zone;
        }
        self.tracked = f.tracked;
        self.pawns = f.pawns;
        self.sum = f.sum;
        self.zsum = f.zsum;
        self.psum = f.psum;
    }
}

/// The state's attack sets for move generation. Valid only when the state has been brought to the
/// position (an [`EvalState::evaluate`] of it since the last move recorded).
impl AttackSource for EvalState {
    #[inline]
    fn piece_attacks(&self, pos: &Position, kind: Kind, c: usize) -> u128 {
        debug_assert_eq!(self.att[c], pos.attacks_from(kind, c, pos.occupied().0), "stale attack set");
        self.att[c]
    }

    #[inline]
    fn danger(&self, pos: &Position, checkers: u128) -> Option<u128> {
        debug_assert!(!pos.geometry().cylinder, "the lifted-king mask is for the flat board");
        let them = pos.side().flip();
        let g = pos.geometry();
        let class = pawn_class(pos.ruleset(), them);
        let mut d = pos.attacks_from(Kind::King, pos.king(them).index(), 0);
        for c in Bitboard(self.tracked[them.index()] & !checkers) {
            d |= self.att[c.index()];
        }
        // A checking slider's line goes on past the lifted king (only checkers have a line
        // stopped by it).
        let lifted = pos.occupied().0 & !(1u128 << pos.king(pos.side()).index());
        for c in Bitboard(self.tracked[them.index()] & checkers) {
            let kind = pos.piece_at(c).map_or(Kind::Pawn, |p| p.kind);
            d |= pos.attacks_from(kind, c.index(), lifted);
        }
        for p in pos.pieces(them, Kind::Pawn) {
            d |= g.pawn_capture[class][p.index()];
        }
        Some(d)
    }
}

/// Cells of `color`'s pieces scored per piece (not pawns or the king).
#[inline]
fn scored_cells(pos: &Position, color: Color) -> u128 {
    debug_assert!(!is_piece(Kind::Pawn) && !is_piece(Kind::King));
    pos.color_bb(color).0 & !(pos.kind_bb(Kind::Pawn).0 | pos.kind_bb(Kind::King).0)
}

/// The zone `color` attacks: the cells next to the enemy king.
#[inline]
fn enemy_zone(pos: &Position, color: Color) -> u128 {
    pos.geometry().all_step[pos.king(color.flip()).index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::evaluate;
    use crate::engine::ordering::{captures_into, victim_order, ScoredMove};
    use crate::rules::movegen::Computed;
    use crate::rules::{Move, Ruleset, Special, Variant};

    /// Plays `m` on `pos` and records it.
    fn play(state: &mut EvalState, pos: &mut Position, m: Move) -> crate::rules::position::Undo {
        let occ = pos.occupied().0;
        let kings = [pos.king(Color::White).index(), pos.king(Color::Black).index()];
        let undo = pos.make(m);
        state.push(occ, pos.occupied().0, kings, m.from().index(), m.to().index());
        undo
    }

    /// Random walks through every variant: forward several plies comparing with [`evaluate`] at
    /// most steps (so some updates span several moves), then back to the start comparing again.
    /// Where it evaluates, the state's attack sets must also generate the same moves and
    /// quiescence captures as computed ones. The walks cover captures, placements, castling, en
    /// passant and promotions (counted, so the test knows it saw them).
    #[test]
    fn incremental_evaluation_equals_the_full_one_forward_and_back() {
        let mut seen = [0usize; 5]; // captures, placements, castles, en passant, promotions
        let mut in_check = 0; // positions in check whose move lists were compared
        let variants = Ruleset::ALL
            .into_iter()
            .flat_map(|rs| [(false, false), (true, false), (false, true)].map(|(ca, cyl)| Variant::new(rs, ca, cyl)));
        for v in variants.filter_map(Result::ok) {
            let w = Weights::for_ruleset(v.ruleset);
            let victims = victim_order(v.ruleset, &w.values);
            let mut state = EvalState::new();
            for seed in 0..12u64 {
                let mut pos = crate::rules::random::scrambled(v, (seed as usize % 4) * 10, seed);
                state.reset(&pos, &w);
                assert_eq!(state.evaluate(&pos, &w), evaluate(&pos, &w), "{v:?} seed {seed} at the start");
                let mut stack = Vec::new();
                let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for _ in 0..40 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    // Prefer captures half the time, so exchanges happen.
                    let caps: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| crate::engine::ordering::captured(&pos, *m).is_some())
                        .collect();
                    // Take en passant when it is there, and double moves often, so it comes up.
                    let ep = moves.iter().copied().find(|m| m.special() == Special::EnPassant);
                    let double: Vec<Move> = moves.iter().copied().filter(|m| m.special() == Special::Double).collect();
                    let m = match ep {
                        Some(e) => e,
                        _ if s & 6 == 0 && !double.is_empty() => double[(s >> 8) as usize % double.len()],
                        _ if s & 1 == 0 && !caps.is_empty() => caps[(s >> 8) as usize % caps.len()],
                        _ => moves[(s >> 8) as usize % moves.len()],
                    };
                    seen[0] += usize::from(crate::engine::ordering::captured(&pos, m).is_some());
                    seen[1] += usize::from(m.placement().is_some());
                    seen[2] += usize::from(m.special() == Special::Castle);
                    seen[3] += usize::from(m.special() == Special::EnPassant);
                    seen[4] += usize::from(m.promotion().is_some());
                    let undo = play(&mut state, &mut pos, m);
                    // Evaluate after two moves in three, so updates span one move or several.
                    if s % 3 != 0 {
                        assert_eq!(state.evaluate(&pos, &w), evaluate(&pos, &w), "{v:?} seed {seed} after {m}");
                        // Its attack sets generate the same moves.
                        let mut lists = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
                        let [n1, q1, n2, q2] = &mut lists;
                        pos.legal_moves_split(n1, q1, &Computed);
                        pos.legal_moves_split(n2, q2, &state);
                        assert_eq!((n1, q1), (n2, q2), "{v:?} seed {seed} after {m}");
                        in_check += usize::from(pos.in_check());
                        if !pos.in_check() {
                            for min_gain in [i32::MIN, 300] {
                                let (mut c1, mut c2) = (Vec::new(), Vec::new());
                                captures_into(&pos, &w.values, &victims, min_gain, &Computed, &mut c1);
                                captures_into(&pos, &w.values, &victims, min_gain, &state, &mut c2);
                                let key = |l: &[ScoredMove]| l.iter().map(|x| (x.mv, x.score)).collect::<Vec<_>>();
                                assert_eq!(key(&c1), key(&c2), "{v:?} seed {seed} after {m}");
                            }
                        }
                    }
                    stack.push((m, undo));
                }
                while let Some((m, undo)) = stack.pop() {
                    pos.unmake(m, undo);
                    state.pop();
                    if stack.len() % 2 == 0 {
                        assert_eq!(state.evaluate(&pos, &w), evaluate(&pos, &w), "{v:?} seed {seed} back over {m}");
                    }
                }
                assert_eq!(state.evaluate(&pos, &w), evaluate(&pos, &w), "{v:?} seed {seed} back at the start");
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "the walks cover every kind of move: {seen:?}");
        assert!(in_check > 20, "the walks compare move lists in check ({in_check})");
    }
}
