//! Legal move generation. One generator feeds both the move list and the bulk count.
//!
//! Most moves are legal without playing them, by what the position around the mover's king
//! allows (`docs/RULES.md`, 4D Quasi-Alice, "Legality"):
//! - a man other than the king, moved while its side is not in check, can only expose its own king
//!   by leaving the one man between the king and an enemy slider on the king's board (a
//!   "critical" square), by capturing on the king's board (the mover and its victim both leave it,
//!   which opens lines with two blockers) — both tested by recomputing the slider attacks without
//!   those men. (The enemy man that cuts the enemy king's cross-board attack stands on the enemy
//!   king's board on the square of one's own king, so a capture of it could only transfer onto
//!   that king: it never has a destination board.)
//! - a man landing on the king's board only adds a blocker;
//! - (a) follows from (b) for every man but the king (the board it leaves only loses a blocker).
//!
//! Everything else (king moves, castling, en passant, and every move while in check) is played on
//! a copy and tested by rules (a) and (b) themselves.

use super::board::{bishop_attacks, rook_attacks, BETWEEN, BOARDS, KING, KNIGHT, PAWN_ATTACKS};
use super::moves::{Flag, Move};
use super::position::Position;
use super::types::Kind;
use crate::game::Color;

/// Receives the legal moves: a chess move with the set of boards it may legally transfer to.
pub(super) trait Sink {
    /// `m` (its destination board ignored) is legal to each board of `dests` (bit per board); a
    /// promoting move stands for its four promotions.
    fn add(&mut self, m: Move, dests: u8, promotes: bool);
}

/// Lists the moves.
pub(super) struct ListSink<'a>(pub &'a mut Vec<Move>);

impl Sink for ListSink<'_> {
    #[inline]
    fn add(&mut self, m: Move, dests: u8, promotes: bool) {
        let mut d = dests;
        while d != 0 {
            let t = d.trailing_zeros() as usize;
            d &= d - 1;
            let mt = m.with_board_to(t);
            if promotes {
                for k in Kind::PROMOTIONS {
                    self.0.push(mt.with_promotion(k));
                }
            } else {
                self.0.push(mt);
            }
        }
    }
}

/// Counts the moves.
pub(super) struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline]
    fn add(&mut self, _: Move, dests: u8, promotes: bool) {
        self.0 += dests.count_ones() as u64 * if promotes { 4 } else { 1 };
    }
}

impl Position {
    /// The boards a man leaving board `s` may transfer to, before the move: the other boards
    /// holding a king, or all three others when `s` holds both kings.
    #[inline]
    pub fn allowed_boards(&self, s: usize) -> u8 {
        let (kb, eb) = (self.kings[0] as usize / 64, self.kings[1] as usize / 64);
        if kb == s && eb == s {
            0xF & !(1 << s)
        } else {
            ((1 << kb) | (1 << eb)) & !(1u8 << s)
        }
    }

    /// The boards whose square `sq` is empty.
    #[inline]
    fn empty_boards(occ: &[u64; BOARDS], sq: usize) -> u8 {
        let mut m = 0;
        for (t, o) in occ.iter().enumerate() {
            m |= (((o >> sq) & 1) as u8 ^ 1) << t;
        }
        m
    }

    /// Whether a legal move exists after playing `m` on a copy (rules (a) and (b) in full).
    #[inline]
    fn legal_by_play(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.play_checked(m)
    }

    /// Feeds `m` to `sink` for each board of `dests` that passes the full test.
    fn add_tested<S: Sink>(&self, sink: &mut S, m: Move, dests: u8, promotes: bool) {
        let mut ok = 0;
        let mut d = dests;
        while d != 0 {
            let t = d.trailing_zeros() as usize;
            d &= d - 1;
            let probe = if promotes { m.with_promotion(Kind::Queen) } else { m };
            if self.legal_by_play(probe.with_board_to(t)) {
                ok |= 1 << t;
            }
        }
        if ok != 0 {
            sink.add(m, ok, promotes);
        }
    }

    /// Generates every legal move into `sink`; with `NOISY` only the captures (the king's capture
    /// on landing included) and the promotions.
    pub(super) fn generate<S: Sink, const NOISY: bool>(&self, sink: &mut S) {
        let us = self.side;
        let them = us.flip();
        let (ui, ti) = (us.index(), them.index());
        let kc = self.kings[ui] as usize;
        let (kb, ks) = (kc / 64, kc % 64);
        let occ: [u64; BOARDS] = std::array::from_fn(|b| self.occupied(b));
        let in_check = self.attacked(kb, ks, them);

        // Men whose leaving the king's board would open an enemy slider's line to the king.
        let mut critical = 0u64;
        if !in_check {
            let enemy = self.color_bb[ti][kb];
            let q = self.kind_bb[Kind::Queen as usize][kb];
            let rq = enemy & (self.kind_bb[Kind::Rook as usize][kb] | q);
            let bq = enemy & (self.kind_bb[Kind::Bishop as usize][kb] | q);
            let mut snipers = (rook_attacks(ks, 0) & rq) | (bishop_attacks(ks, 0) & bq);
            while snipers != 0 {
                let sn = snipers.trailing_zeros() as usize;
                snipers &= snipers - 1;
                let between = BETWEEN[ks][sn] & occ[kb];
                if between.count_ones() == 1 {
                    critical |= between;
                }
            }
        }

        for s in 0..BOARDS {
            let own = self.color_bb[ui][s];
            if own == 0 {
                continue;
            }
            let allowed = self.allowed_boards(s);
            if allowed == 0 {
                continue;
            }
            let enemy = self.color_bb[ti][s];
            let o = occ[s];
            let check_move = |f: usize, to: usize, capture: bool| -> Legality {
                if in_check {
                    Legality::Test
                } else if s == kb {
                    let removed = (1u64 << f) | if capture { 1u64 << to } else { 0 };
                    // A capture removes two men from the king's board: lines with two blockers
                    // open too, so every capture there is tested.
                    if (!capture && critical & removed == 0) || self.slider_safe(kb, ks, o & !removed, removed, them) {
                        Legality::Legal
                    } else {
                        Legality::Illegal
                    }
                } else {
                    Legality::Legal
                }
            };
            let emit = |sink: &mut S, f: usize, to: usize, flag: Flag, promotes: bool| {
                let dests = allowed & Self::empty_boards(&occ, to);
                if dests == 0 {
                    return;
                }
                let capture = enemy & (1 << to) != 0;
                let m = Move::new(s, f, to, 0, None, flag);
                match check_move(f, to, capture) {
                    Legality::Legal => sink.add(m, dests, promotes),
                    Legality::Illegal => {}
                    Legality::Test => self.add_tested(sink, m, dests, promotes),
                }
            };

            // Pawns.
            let pawns = own & self.kind_bb[Kind::Pawn as usize][s];
            let mut bb = pawns;
            while bb != 0 {
                let f = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let (step, start_rank, last_rank): (isize, usize, usize) =
                    if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
                let one = (f as isize + step) as usize;
                if o & (1 << one) == 0 && (!NOISY || one >> 3 == last_rank) {
                    emit(sink, f, one, Flag::Normal, one >> 3 == last_rank);
                    if !NOISY && f >> 3 == start_rank {
                        let two = (one as isize + step) as usize;
                        if o & (1 << two) == 0 {
                            emit(sink, f, two, Flag::DoubleStep, false);
                        }
                    }
                }
                let mut caps = PAWN_ATTACKS[ui][f] & enemy;
                while caps != 0 {
                    let to = caps.trailing_zeros() as usize;
                    caps &= caps - 1;
                    emit(sink, f, to, Flag::Normal, to >> 3 == last_rank);
                }
            }
            // Knights, bishops, rooks, queens.
            for kind in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen] {
                let mut bb = own & self.kind_bb[kind as usize][s];
                while bb != 0 {
                    let f = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    let mut targets = match kind {
                        Kind::Knight => KNIGHT[f],
                        Kind::Bishop => bishop_attacks(f, o),
                        Kind::Rook => rook_attacks(f, o),
                        _ => bishop_attacks(f, o) | rook_attacks(f, o),
                    } & if NOISY { enemy } else { !own };
                    while targets != 0 {
                        let to = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        emit(sink, f, to, Flag::Normal, false);
                    }
                }
            }
            if s == kb {
                self.king_moves::<S, NOISY>(sink, s, ks, own, allowed, &occ);
            }
        }
        self.en_passant_moves(sink, &occ);
    }

    /// The king's steps and castlings (with `NOISY`, only the steps that capture on either
    /// board); each is played on a copy and tested.
    fn king_moves<S: Sink, const NOISY: bool>(
        &self,
        sink: &mut S,
        s: usize,
        ks: usize,
        own: u64,
        allowed: u8,
        occ: &[u64; BOARDS],
    ) {
        let us = self.side;
        let enemy = &self.color_bb[us.flip().index()];
        let mut steps = KING[ks] & !own;
        while steps != 0 {
            let to = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            // The king may land on an enemy man of the destination board, never on its own.
            let mut dests = allowed;
            for t in 0..BOARDS {
                if self.color_bb[us.index()][t] & (1 << to) != 0 {
                    dests &= !(1 << t);
                }
                // Without a capture on its own board, a noisy step must land on an enemy man.
                if NOISY && enemy[s] & (1 << to) == 0 && enemy[t] & (1 << to) == 0 {
                    dests &= !(1 << t);
                }
            }
            if dests != 0 {
                self.add_tested(sink, Move::new(s, ks, to, 0, None, Flag::Normal), dests, false);
            }
        }
        if NOISY {
            return;
        }
        // Castling: from the home square of board 1 only (an unmoved king has not left it).
        let (home, k_bit, q_bit) = if us == Color::White { (4, 1, 2) } else { (60, 4, 8) };
        if s != 0 || ks != home || self.castling & (k_bit | q_bit) == 0 {
            return;
        }
        let them = us.flip();
        let attacked = |sq: usize| self.attacked(0, sq, them);
        if self.castling & k_bit != 0
            && occ[0] & (0b11 << (home + 1)) == 0
            && !attacked(home)
            && !attacked(home + 1)
            && !attacked(home + 2)
        {
            let dests = allowed & Self::empty_boards(occ, home + 1) & Self::empty_boards(occ, home + 2);
            self.add_tested(sink, Move::new(0, home, home + 2, 0, None, Flag::Castle), dests, false);
        }
        if self.castling & q_bit != 0
            && occ[0] & (0b111 << (home - 3)) == 0
            && !attacked(home)
            && !attacked(home - 1)
            && !attacked(home - 2)
        {
            let dests = allowed & Self::empty_boards(occ, home - 1) & Self::empty_boards(occ, home - 2);
            self.add_tested(sink, Move::new(0, home, home - 2, 0, None, Flag::Castle), dests, false);
        }
    }

    /// En passant: on the board where the double-stepped pawn landed, by a pawn beside it there,
    /// the passed square of that board empty; then the usual transfer.
    fn en_passant_moves<S: Sink>(&self, sink: &mut S, occ: &[u64; BOARDS]) {
        let Some(cell) = self.ep() else { return };
        let (b, sq) = (cell / 64, cell % 64);
        let us = self.side;
        let own = self.color_bb[us.index()][b];
        if occ[b] & (1 << sq) != 0 {
            return;
        }
        let dests = self.allowed_boards(b) & Self::empty_boards(occ, sq);
        let mut attackers = PAWN_ATTACKS[us.flip().index()][sq] & own & self.kind_bb[Kind::Pawn as usize][b];
        while attackers != 0 {
            let f = attackers.trailing_zeros() as usize;
            attackers &= attackers - 1;
            self.add_tested(sink, Move::new(b, f, sq, 0, None, Flag::EnPassant), dests, false);
        }
    }

    /// Whether the king on (`kb`, `ks`) stays safe from enemy sliders of its board once the men of
    /// `removed` have gone (`occ` is the board's occupancy without them).
    #[inline]
    fn slider_safe(&self, kb: usize, ks: usize, occ: u64, removed: u64, them: Color) -> bool {
        let enemy = self.color_bb[them.index()][kb] & !removed;
        let q = self.kind_bb[Kind::Queen as usize][kb];
        let rq = enemy & (self.kind_bb[Kind::Rook as usize][kb] | q);
        let bq = enemy & (self.kind_bb[Kind::Bishop as usize][kb] | q);
        rook_attacks(ks, occ) & rq == 0 && bishop_attacks(ks, occ) & bq == 0
    }

    /// Appends the legal moves to `out`.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        self.generate::<_, false>(&mut ListSink(out));
    }

    /// Appends the legal captures (the king's capture on landing and en passant included) and
    /// promotions to `out`: the legal moves that change the material.
    pub fn noisy_moves_into(&self, out: &mut Vec<Move>) {
        self.generate::<_, true>(&mut ListSink(out));
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(128);
        self.legal_moves_into(&mut v);
        v
    }

    /// The number of legal moves, without listing them.
    pub fn count_legal(&self) -> u64 {
        let mut c = CountSink(0);
        self.generate::<_, false>(&mut c);
        c.0
    }
}

enum Legality {
    Legal,
    Illegal,
    Test,
}
