//! Legal move generation. One generator feeds both the move list and the bulk count.
//!
//! While the side to move is not in check, a move is legal without playing it unless it moves
//! the royal king, leaves the line between the royal king and an enemy slider (a pin), or is an
//! en passant capture:
//! - pins are found once per position by an x-ray from the royal king in each plane through it
//!   ([`super::geometry`]): the slider's attacks with the king's own first blockers removed; a
//!   pinned man may move only along the segment from the king to its pinner (a knight never);
//! - every other man's moves are bit sets of its planes, listed or counted by population count,
//!   pawns a level at a time;
//! - the royal king's steps are tested with the king lifted off the cube (so a slider's line
//!   through its old cell counts), castling by the contract's three attacked cells;
//! - an en passant capture (two men leave their cells) is played on a copy and tested.
//!
//! In check every pseudo-legal move is played on a copy and kept if the royal king is then not
//! attacked.
//!
//! The same generator lists the noisy moves alone (captures, en passant, promotions) for
//! quiescence: each destination set is masked by the enemy's men instead of by the free and
//! enemy cells, pawns push only to promote, and there is no castling. Masking keeps the order of
//! the full list, so the noisy list is the full list filtered.

use super::geometry::*;
use super::moves::{Flag, Move};
use super::position::{ep_victim, Position, NO_EP};
use super::types::{Kind, Piece};
use crate::game::board8::{bishop_attacks, rook_attacks, BETWEEN, PAWN_ATTACKS};
use crate::game::Color;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;

/// Receives the legal moves.
pub(super) trait Sink {
    /// One move.
    fn one(&mut self, m: Move);
    /// A move from `from` to the cell of each bit of `set`, `to_cell` converting a bit to its
    /// cell.
    fn set(&mut self, from: usize, set: u64, to_cell: impl Fn(usize) -> usize);
    /// Pawn moves to the squares `set` of `level`, each from the cell `to − delta`; with
    /// `promote`, each stands for its four promotions.
    fn pawns(&mut self, set: u64, level: usize, delta: isize, flag: Flag, promote: bool);
}

/// Lists the moves.
pub(super) struct ListSink<'a>(pub &'a mut Vec<Move>);

impl Sink for ListSink<'_> {
    #[inline]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }
    #[inline]
    fn set(&mut self, from: usize, mut set: u64, to_cell: impl Fn(usize) -> usize) {
        while set != 0 {
            let b = set.trailing_zeros() as usize;
            set &= set - 1;
            self.0.push(Move::normal(from, to_cell(b)));
        }
    }
    #[inline]
    fn pawns(&mut self, mut set: u64, level: usize, delta: isize, flag: Flag, promote: bool) {
        while set != 0 {
            let to = level * 64 + set.trailing_zeros() as usize;
            set &= set - 1;
            let from = (to as isize - delta) as usize;
            if promote {
                for k in Kind::PROMOTIONS {
                    self.0.push(Move::new(from, to, Some(k), flag));
                }
            } else {
                self.0.push(Move::new(from, to, None, flag));
            }
        }
    }
}

/// Counts the moves.
pub(super) struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline]
    fn set(&mut self, _: usize, set: u64, _: impl Fn(usize) -> usize) {
        self.0 += set.count_ones() as u64;
    }
    #[inline]
    fn pawns(&mut self, set: u64, _: usize, _: isize, _: Flag, promote: bool) {
        self.0 += set.count_ones() as u64 * if promote { 4 } else { 1 };
    }
}

/// The men pinned to the side to move's royal king, with their pinners.
struct Pins {
    /// Pinned men by level (bits `rank*8+file`).
    mask: [u64; SIDE],
    /// `(pinned man, pinner)` cells.
    list: [(u16, u16); 26],
    len: usize,
}

/// Whether `t` lies on the segment from `king` (excluded) to `pinner` (included), which are on
/// one line.
#[inline]
fn on_segment(king: usize, pinner: usize, t: usize) -> bool {
    let v = |c: usize| [file(c) as i32, rank(c) as i32, level(c) as i32];
    let (k, p, t) = (v(king), v(pinner), v(t));
    let dp = [p[0] - k[0], p[1] - k[1], p[2] - k[2]];
    let dt = [t[0] - k[0], t[1] - k[1], t[2] - k[2]];
    let n = dp.iter().map(|x| x.abs()).max().unwrap_or(0);
    let m = dt.iter().map(|x| x.abs()).max().unwrap_or(0);
    m > 0 && m <= n && (0..3).all(|i| dt[i] == dp[i].signum() * m)
}

impl Position {
    /// Appends the legal moves to `out`.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.in_check() {
            self.evasions(&mut |m| out.push(m));
        } else {
            self.generate::<_, false>(&mut ListSink(out));
        }
    }

    /// Appends the legal noisy moves to `out`: captures (en passant included) and promotions, in
    /// the order of [`Position::legal_moves_into`].
    pub fn noisy_moves_into(&self, out: &mut Vec<Move>) {
        if self.in_check() {
            self.evasions(&mut |m| {
                if self.is_noisy(m) {
                    out.push(m);
                }
            });
        } else {
            self.generate::<_, true>(&mut ListSink(out));
        }
    }

    /// Whether `m`, a move of the side to move, captures or promotes.
    #[inline]
    pub fn is_noisy(&self, m: Move) -> bool {
        m.promotion().is_some()
            || m.flag() == Flag::EnPassant
            || (m.flag() != Flag::Castle && self.piece_at(m.to()).is_some())
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(256);
        self.legal_moves_into(&mut v);
        v
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal(&self) -> u64 {
        if self.in_check() {
            let mut n = 0;
            self.evasions(&mut |_| n += 1);
            n
        } else {
            let mut s = CountSink(0);
            self.generate::<_, false>(&mut s);
            s.0
        }
    }

    /// Whether `m`, a pseudo-legal move of the side to move, leaves its royal king unattacked.
    fn legal_by_play(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.make(m);
        !p.attacked(p.king(self.side), p.side)
    }

    /// The legal moves while in check: every pseudo-legal move, played and tested.
    fn evasions(&self, f: &mut impl FnMut(Move)) {
        let us = self.side;
        let mut cands = Vec::with_capacity(64);
        for l in 0..SIDE {
            let mut men = self.men(us, l);
            while men != 0 {
                let c = l * 64 + men.trailing_zeros() as usize;
                men &= men - 1;
                let p = self.piece_at(c).expect("a man");
                self.man_moves(c, p, &mut |m| cands.push(m));
            }
        }
        self.ep_candidates(&mut |m| cands.push(m));
        for m in cands {
            if self.legal_by_play(m) {
                f(m);
            }
        }
    }

    /// En passant captures of the side to move (not yet tested for legality).
    fn ep_candidates(&self, f: &mut impl FnMut(Move)) {
        if self.ep == NO_EP {
            return;
        }
        let (us, e) = (self.side, self.ep as usize);
        let (l, sq) = (level(e), e & 63);
        let mut from = PAWN_ATTACKS[us.flip().index()][sq] & self.pieces(us, Kind::Pawn, l);
        while from != 0 {
            let s = from.trailing_zeros() as usize;
            from &= from - 1;
            f(Move::new(l * 64 + s, e, None, Flag::EnPassant));
        }
        let behind = if us == Color::White { sq.wrapping_sub(8) } else { sq + 8 };
        if behind < 64 {
            for lv in [l.wrapping_sub(1), l + 1] {
                if lv < SIDE && self.pieces(us, Kind::Pawn, lv) & (1 << behind) != 0 {
                    f(Move::new(lv * 64 + behind, e, None, Flag::EnPassant));
                }
            }
        }
        // The victim is the enemy pawn on the next cell forward from the passed cell.
        debug_assert_eq!(self.piece_at(ep_victim(e, us)).map(|p| p.kind), Some(Kind::Pawn));
    }

    /// The pseudo-legal moves of the man `p` on `c` (no castling, no en passant).
    fn man_moves(&self, c: usize, p: Piece, f: &mut impl FnMut(Move)) {
        let ui = p.color.index();
        let (l, r, fl) = (level(c), rank(c), file(c));
        let sq = c & 63;
        let own = |lv: usize| self.color_lv[ui][lv];
        let mut emit = |set: u64, conv: &dyn Fn(usize) -> usize| {
            let mut s = set;
            while s != 0 {
                let b = s.trailing_zeros() as usize;
                s &= s - 1;
                f(Move::normal(c, conv(b)));
            }
        };
        let in_level = |b: usize| l * 64 + b;
        match p.kind {
            Kind::Pawn => {
                let white = p.color == Color::White;
                let fwd = if white { sq + 8 } else { sq.wrapping_sub(8) };
                let last = if white { 7 } else { 0 };
                let mut push = |to: usize, flag: Flag| {
                    if rank(to) == last {
                        for k in Kind::PROMOTIONS {
                            f(Move::new(c, to, Some(k), flag));
                        }
                    } else {
                        f(Move::new(c, to, None, flag));
                    }
                };
                if fwd >= 64 {
                    return;
                }
                let them = p.color.flip().index();
                if self.occupied(l) & (1 << fwd) == 0 {
                    push(l * 64 + fwd, Flag::Normal);
                    let start = if white { 1 } else { 6 };
                    let fwd2 = if white { fwd + 8 } else { fwd.wrapping_sub(8) };
                    if r == start && self.occupied(l) & (1 << fwd2) == 0 {
                        push(l * 64 + fwd2, Flag::DoubleStep);
                    }
                }
                let mut caps = PAWN_ATTACKS[ui][sq] & self.color_lv[them][l];
                while caps != 0 {
                    let t = caps.trailing_zeros() as usize;
                    caps &= caps - 1;
                    push(l * 64 + t, Flag::Normal);
                }
                for lv in [l.wrapping_sub(1), l + 1] {
                    if lv < SIDE && self.color_lv[them][lv] & (1 << fwd) != 0 {
                        push(lv * 64 + fwd, Flag::Normal);
                    }
                }
            }
            Kind::Knight | Kind::King | Kind::Commoner => {
                let (same, one, two) = if p.kind == Kind::Knight {
                    (KNIGHT_SAME_LEVEL[sq], KNIGHT_ONE_LEVEL[sq], KNIGHT_TWO_LEVELS[sq])
                } else {
                    (KING_SAME_LEVEL[sq], KING_ONE_LEVEL[sq], 0)
                };
                emit(same & !own(l), &in_level);
                for (dl, set) in [(1, one), (2, two)] {
                    for lv in [l.wrapping_sub(dl), l + dl] {
                        if lv < SIDE && set != 0 {
                            emit(set & !own(lv), &|b| lv * 64 + b);
                        }
                    }
                }
            }
            Kind::Rook | Kind::Bishop | Kind::Queen => {
                let o = self.occupancy(c, usize::MAX);
                let (rb, fb, d, a) = (l * 8 + fl, l * 8 + r, diag(c), anti(c));
                if p.kind.rook_like() {
                    emit(rook_attacks(sq, o.lv) & !own(l), &in_level);
                    emit(rook_in_rank_plane(rb, o.rv) & !self.color_rv[ui][r], &|b| from_rank_bit(r, b));
                    emit(bishop_attacks(fb, o.fv) & !self.color_fv[ui][fl], &|b| from_file_bit(fl, b));
                }
                if p.kind.bishop_like() {
                    emit(bishop_attacks(sq, o.lv) & !own(l), &in_level);
                    emit(bishop_attacks(rb, o.dv) & DIAG_CELLS[d] & !self.color_dv[ui][d], &|b| from_diag_bit(d, b));
                    emit(bishop_attacks(rb, o.av) & ANTI_CELLS[a] & !self.color_av[ui][a], &|b| from_anti_bit(a, b));
                }
            }
        }
    }

    /// The men of the side to move pinned to its royal king.
    fn pins(&self) -> Pins {
        let us = self.side;
        let (ui, ti) = (us.index(), us.flip().index());
        let k = self.king(us);
        let (l, r, f, d, a) = (level(k), rank(k), file(k), diag(k), anti(k));
        let o = self.occupancy(k, usize::MAX);
        let mut pins = Pins { mask: [0; SIDE], list: [(0, 0); 26], len: 0 };
        let queens_l = self.pieces(us.flip(), Kind::Queen, l);
        let mut plane = |attack: &dyn Fn(u64) -> u64,
                         from: usize,
                         occ: u64,
                         own: u64,
                         sliders: u64,
                         conv: &dyn Fn(usize) -> usize| {
            let att = attack(occ);
            let blockers = att & own;
            if blockers == 0 {
                return;
            }
            let mut pinners = attack(occ ^ blockers) & !att & sliders;
            while pinners != 0 {
                let pb = pinners.trailing_zeros() as usize;
                pinners &= pinners - 1;
                let man = BETWEEN[from][pb] & blockers;
                debug_assert_eq!(man.count_ones(), 1);
                let mc = conv(man.trailing_zeros() as usize);
                pins.mask[level(mc)] |= 1 << (mc & 63);
                pins.list[pins.len] = (mc as u16, conv(pb) as u16);
                pins.len += 1;
            }
        };
        let sq = k & 63;
        let (rb, fb) = (l * 8 + f, l * 8 + r);
        let them_l = |kind: Kind| self.pieces(us.flip(), kind, l);
        plane(&|occ| rook_attacks(sq, occ), sq, o.lv, self.color_lv[ui][l], them_l(Kind::Rook) | queens_l, &|b| {
            l * 64 + b
        });
        plane(&|occ| bishop_attacks(sq, occ), sq, o.lv, self.color_lv[ui][l], them_l(Kind::Bishop) | queens_l, &|b| {
            l * 64 + b
        });
        plane(&|occ| rook_in_rank_plane(rb, occ), rb, o.rv, self.color_rv[ui][r], self.rooks_rv[ti][r], &|b| {
            from_rank_bit(r, b)
        });
        plane(&|occ| bishop_attacks(fb, occ), fb, o.fv, self.color_fv[ui][f], self.rooks_fv[ti][f], &|b| {
            from_file_bit(f, b)
        });
        plane(&|occ| bishop_attacks(rb, occ), rb, o.dv, self.color_dv[ui][d], self.bishops_dv[ti][d], &|b| {
            from_diag_bit(d, b)
        });
        plane(&|occ| bishop_attacks(rb, occ), rb, o.av, self.color_av[ui][a], self.bishops_av[ti][a], &|b| {
            from_anti_bit(a, b)
        });
        pins
    }

    /// The legal moves when not in check; the noisy ones alone with `NOISY`.
    pub(super) fn generate<S: Sink, const NOISY: bool>(&self, sink: &mut S) {
        let us = self.side;
        let them = us.flip();
        let (ui, ti) = (us.index(), them.index());
        // The destination cells of a plane whose men of each side are `[white, black]`.
        let to = |men: &[u64; 2]| if NOISY { men[ti] } else { !men[ui] };
        let king = self.king(us);
        let pins = self.pins();
        let white = us == Color::White;
        let fwd: isize = if white { 8 } else { -8 };
        let shift = |b: u64| if white { b << 8 } else { b >> 8 };
        let (third, last) = if white { (0xFFu64 << 16, RANK_8) } else { (0xFFu64 << 40, RANK_1) };
        for l in 0..SIDE {
            let empty = !self.occupied(l);
            let pawns = self.pieces(us, Kind::Pawn, l) & !pins.mask[l];
            if pawns != 0 {
                let one = shift(pawns) & empty;
                if !NOISY {
                    sink.pawns(one & !last, l, fwd, Flag::Normal, false);
                }
                sink.pawns(one & last, l, fwd, Flag::Normal, true);
                if !NOISY {
                    sink.pawns(shift(one & third) & empty, l, 2 * fwd, Flag::DoubleStep, false);
                }
                let enemy = self.color_lv[ti][l];
                let (west, east) = if white {
                    ((pawns & !FILE_A) << 7, (pawns & !FILE_H) << 9)
                } else {
                    ((pawns & !FILE_A) >> 9, (pawns & !FILE_H) >> 7)
                };
                let (dw, de): (isize, isize) = if white { (7, 9) } else { (-9, -7) };
                for (set, delta) in [(west & enemy, dw), (east & enemy, de)] {
                    sink.pawns(set & !last, l, delta, Flag::Normal, false);
                    sink.pawns(set & last, l, delta, Flag::Normal, true);
                }
                for (lv, dl) in [(l.wrapping_sub(1), -64isize), (l + 1, 64)] {
                    if lv < SIDE {
                        let set = shift(pawns) & self.color_lv[ti][lv];
                        sink.pawns(set & !last, lv, fwd + dl, Flag::Normal, false);
                        sink.pawns(set & last, lv, fwd + dl, Flag::Normal, true);
                    }
                }
            }
            let dest = |lv: usize| to(&[self.color_lv[0][lv], self.color_lv[1][lv]]);
            let free = |kind: Kind| self.pieces(us, kind, l) & !pins.mask[l];
            let mut knights = free(Kind::Knight);
            while knights != 0 {
                let sq = knights.trailing_zeros() as usize;
                knights &= knights - 1;
                let c = l * 64 + sq;
                sink.set(c, KNIGHT_SAME_LEVEL[sq] & dest(l), |b| l * 64 + b);
                for (dl, set) in [(1, KNIGHT_ONE_LEVEL[sq]), (2, KNIGHT_TWO_LEVELS[sq])] {
                    for lv in [l.wrapping_sub(dl), l + dl] {
                        if lv < SIDE {
                            sink.set(c, set & dest(lv), |b| lv * 64 + b);
                        }
                    }
                }
            }
            let mut commoners = free(Kind::Commoner);
            while commoners != 0 {
                let sq = commoners.trailing_zeros() as usize;
                commoners &= commoners - 1;
                let c = l * 64 + sq;
                sink.set(c, KING_SAME_LEVEL[sq] & dest(l), |b| l * 64 + b);
                for lv in [l.wrapping_sub(1), l + 1] {
                    if lv < SIDE {
                        sink.set(c, KING_ONE_LEVEL[sq] & dest(lv), |b| lv * 64 + b);
                    }
                }
            }
            let queens = free(Kind::Queen);
            let mut rooks = free(Kind::Rook) | queens;
            let occ_l = !empty;
            while rooks != 0 {
                let sq = rooks.trailing_zeros() as usize;
                rooks &= rooks - 1;
                let c = l * 64 + sq;
                let (r, f) = (sq >> 3, sq & 7);
                let occ_r = self.color_rv[0][r] | self.color_rv[1][r];
                let occ_f = self.color_fv[0][f] | self.color_fv[1][f];
                sink.set(c, rook_attacks(sq, occ_l) & dest(l), |b| l * 64 + b);
                sink.set(
                    c,
                    rook_in_rank_plane(l * 8 + f, occ_r) & to(&[self.color_rv[0][r], self.color_rv[1][r]]),
                    |b| from_rank_bit(r, b),
                );
                sink.set(c, bishop_attacks(l * 8 + r, occ_f) & to(&[self.color_fv[0][f], self.color_fv[1][f]]), |b| {
                    from_file_bit(f, b)
                });
            }
            let mut bishops = free(Kind::Bishop) | queens;
            while bishops != 0 {
                let sq = bishops.trailing_zeros() as usize;
                bishops &= bishops - 1;
                let c = l * 64 + sq;
                let (d, a, rb) = (diag(c), anti(c), l * 8 + (sq & 7));
                let occ_d = self.color_dv[0][d] | self.color_dv[1][d];
                let occ_a = self.color_av[0][a] | self.color_av[1][a];
                sink.set(c, bishop_attacks(sq, occ_l) & dest(l), |b| l * 64 + b);
                let (to_d, to_a) =
                    (to(&[self.color_dv[0][d], self.color_dv[1][d]]), to(&[self.color_av[0][a], self.color_av[1][a]]));
                sink.set(c, bishop_attacks(rb, occ_d) & DIAG_CELLS[d] & to_d, |b| from_diag_bit(d, b));
                sink.set(c, bishop_attacks(rb, occ_a) & ANTI_CELLS[a] & to_a, |b| from_anti_bit(a, b));
            }
        }
        // Pinned men: along the segment to their pinner only.
        for &(man, pinner) in &pins.list[..pins.len] {
            let (man, pinner) = (man as usize, pinner as usize);
            let p = self.piece_at(man).expect("a pinned man");
            self.man_moves(man, p, &mut |m| {
                if on_segment(king, pinner, m.to()) && (!NOISY || self.is_noisy(m)) {
                    sink.one(m);
                }
            });
        }
        // The royal king's steps, with the king lifted off.
        let ksq = king & 63;
        let kl = level(king);
        let mut step = |lv: usize, set: u64| {
            let mut s = set & to(&[self.color_lv[0][lv], self.color_lv[1][lv]]);
            while s != 0 {
                let t = lv * 64 + s.trailing_zeros() as usize;
                s &= s - 1;
                if !self.attacked_without(t, them, king) {
                    sink.one(Move::normal(king, t));
                }
            }
        };
        step(kl, KING_SAME_LEVEL[ksq]);
        for lv in [kl.wrapping_sub(1), kl + 1] {
            if lv < SIDE {
                step(lv, KING_ONE_LEVEL[ksq]);
            }
        }
        // Castling: not in check here; the crossed and landing cells unattacked, the line empty.
        let rights = (self.castling >> (6 * ui)) & 0x3F;
        if !NOISY && rights != 0 && king == KING_START[ui] {
            for i in 0..6 {
                if rights & (1 << i) == 0 {
                    continue;
                }
                let c = Position::castling_of(us, i);
                let cells = |x: usize| if white { x } else { mirror_rank(x) };
                if c.between.iter().all(|&x| self.cells[cells(x)] == 0)
                    && !self.attacked(c.rook_to, them)
                    && !self.attacked(c.king_to, them)
                {
                    sink.one(Move::new(king, c.king_to, None, Flag::Castle));
                }
            }
        }
        self.ep_candidates(&mut |m| {
            if self.legal_by_play(m) {
                sink.one(m);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_follow_the_line_to_the_pinner() {
        let c = |t: &str| parse_cell(t.as_bytes()).unwrap();
        assert!(on_segment(c("4e1"), c("7h4"), c("5f2")));
        assert!(on_segment(c("4e1"), c("7h4"), c("7h4")));
        assert!(!on_segment(c("4e1"), c("7h4"), c("8h4")));
        assert!(!on_segment(c("4e1"), c("7h4"), c("4e1")));
        assert!(!on_segment(c("4e1"), c("4e5"), c("4e6")));
        assert!(on_segment(c("4e1"), c("1e1"), c("2e1")));
        assert!(!on_segment(c("4e1"), c("1e1"), c("3f1")));
        assert!(!on_segment(c("4e1"), c("6g1"), c("5g1")));
    }

    /// The noisy generator lists exactly the full list's captures and promotions, in its order,
    /// in positions of random games (checks, pins, en passant and promotions among them).
    #[test]
    fn the_noisy_moves_are_the_full_list_filtered_in_order() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let (mut positions, mut noisy, mut kinds) = (0, 0, [0usize; 5]);
        let (mut all, mut got) = (Vec::new(), Vec::new());
        for _ in 0..12 {
            let mut p = Position::start();
            for _ in 0..400 {
                all.clear();
                got.clear();
                p.legal_moves_into(&mut all);
                p.noisy_moves_into(&mut got);
                let want: Vec<Move> = all.iter().copied().filter(|&m| p.is_noisy(m)).collect();
                assert_eq!(got, want, "{}", p.to_text());
                positions += 1;
                noisy += got.len();
                let pins = p.pins();
                let pinned = |c: usize| pins.list[..pins.len].iter().any(|&(man, _)| man as usize == c);
                for &m in &got {
                    let pawn = p.piece_at(m.from()).is_some_and(|x| x.kind == Kind::Pawn);
                    kinds[0] += usize::from(m.flag() == Flag::EnPassant);
                    kinds[1] += usize::from(m.promotion().is_some() && p.piece_at(m.to()).is_some());
                    kinds[2] += usize::from(p.in_check());
                    kinds[3] += usize::from(!p.in_check() && pinned(m.from()));
                    kinds[4] += usize::from(pawn && level(m.from()) != level(m.to()));
                }
                if all.is_empty() {
                    break;
                }
                // Captures twice as likely as their share, so that games open up and promote.
                let m = if !got.is_empty() && rng.below(3) == 0 {
                    got[rng.below(got.len())]
                } else {
                    all[rng.below(all.len())]
                };
                p.make(m);
            }
        }
        assert!(positions > 2_000 && noisy > 20_000, "{positions} positions, {noisy} noisy moves");
        assert!(
            kinds.iter().all(|&k| k > 0),
            "en passant, capture-promotions, in check, by pinned men, pawns across levels: {kinds:?}"
        );
    }

    /// A piece's mobility is the number of its pseudo-legal moves (no pawns: their pushes are not
    /// attacks), in positions of random games.
    #[test]
    fn mobility_counts_the_pseudo_legal_moves_of_a_piece() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut checked = 0;
        for _ in 0..4 {
            let mut p = Position::start();
            for _ in 0..60 {
                for c in 0..CELLS {
                    let Some(man) = p.piece_at(c) else { continue };
                    if man.kind == Kind::Pawn {
                        continue;
                    }
                    let mut n = 0;
                    p.man_moves(c, man, &mut |_| n += 1);
                    assert_eq!(p.mobility(c), n, "{} in {}", cell_name(c), p.to_text());
                    checked += 1;
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
        // A pawn counts its four capture cells unless an own man holds them.
        let p = Position::from_text(concat!(
            "8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|",
            "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/3N4/8/8/8/8|8/8/8/8/3P4/8/8/4k3 w - - 0 1"
        ))
        .unwrap();
        // 8d4 takes on 8c5, 8e5 and 7d5 (an own knight stands there).
        assert_eq!(p.mobility(parse_cell(b"8d4").unwrap()), 2);
        assert_eq!(p.mobility(parse_cell(b"1e1").unwrap()), 11);
        assert_eq!(p.mobility(parse_cell(b"1a1").unwrap()), 0);
    }
}
