//! Hand-written evaluation, from the side to move, in centipawns.
//!
//! Terms (weights in [`Weights`]):
//! 1. material of every piece on the board, plus reserve pieces in hand at `reserve_pct` % while
//!    their owner can still place one (a side holding reserve pieces but no piece with a placement
//!    right can never use them, so they count nothing);
//! 2. mobility: per piece, the attacked cells not holding an own piece (one attack-set popcount);
//! 3. centralisation: per piece, 6 minus its Manhattan distance from the centre `Cc3`;
//! 4. pawn advancement: progress toward the promotion row, which needs steps in both layer and rank
//!    (progress = 8 - layer distance - rank distance), linear plus quadratic;
//! 5. king safety: attacks on the cells next to the enemy king (bonus for the attacker) and own
//!    pieces next to the own king (shelter);
//! 6. tempo for the side to move;
//! 7. mop-up in won endgames (few men, a clear material lead): the side ahead scores for trading
//!    pieces and, once it has no pawns left to promote, for the weaker king's distance from the
//!    centre and the kings' closeness (see [`Weights`]' module docs). It depends only on the
//!    kings' cells and the men, so it is computed afresh, and only when the board holds at most
//!    `mopup_pieces` men (one popcount in the middlegame).
//!
//! 8. tapered material, when the weights give end values ([`Weights`]' module docs): what the
//!    end values add, scaled by how much of the start's non-pawn material has left the board
//!    ([`Taper`]; nothing without a taper).
//!
//! 9. material that cannot force mate ([`drawn`]): the advantage of a side whose men (no pawns)
//!    the endgame tables found unable to mate a bare king is cut to a sixteenth.
//!
//! The attack sets of step 2 are reused by step 5, so each piece's attacks are computed once.

use super::weights::Weights;
use crate::game::Color;
use crate::rules::geometry::{pawn_class, Geometry};
use crate::rules::position::Position;
use crate::rules::types::{Kind, KIND_COUNT, RESERVE_KINDS};

/// Centrality of each cell: 6 minus the Manhattan distance from `Cc3` (0 at the corners).
pub const CENTRALITY: [i32; 125] = {
    let mut t = [0i32; 125];
    let mut c = 0;
    while c < 125 {
        let (l, r, f) = ((c / 25) as i32, ((c / 5) % 5) as i32, (c % 5) as i32);
        t[c] = 6 - ((l - 2).abs() + (r - 2).abs() + (f - 2).abs());
        c += 1;
    }
    t
};

/// Pawn progress per pawn class (see `geometry::pawn_class`) and cell: 8 minus the layer and rank
/// distances to the promotion row (0..=8).
pub const PAWN_PROGRESS: [[i32; 125]; 4] = {
    let mut t = [[0i32; 125]; 4];
    let mut class = 0;
    while class < 4 {
        // Promotion rows: white Five Up A5, black Five Up E1, white Raumschach E5, black Raumschach A1.
        let (pl, pr) = match class {
            0 => (0, 4),
            1 => (4, 0),
            2 => (4, 4),
            _ => (0, 0),
        };
        let mut c = 0;
        while c < 125 {
            let (l, r) = ((c / 25) as i32, ((c / 5) % 5) as i32);
            t[class][c] = 8 - (l - pl).abs() - (r - pr).abs();
            c += 1;
        }
        class += 1;
    }
    t
};

/// Per pawn class and progress value 0..=8: the cells of that progress ([`PAWN_PROGRESS`] inverted).
const PROGRESS_CELLS: [[u128; 9]; 4] = {
    let mut t = [[0u128; 9]; 4];
    let mut class = 0;
    while class < 4 {
        let mut c = 0;
        while c < 125 {
            t[class][PAWN_PROGRESS[class][c] as usize] |= 1u128 << c;
            c += 1;
        }
        class += 1;
    }
    t
};

/// Piece kinds other than pawn and king, per ruleset family (Five Up, Raumschach).
const PIECES_FIVEUP: [Kind; 8] =
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::Unicorn, Kind::Silver, Kind::Wizard, Kind::Guard];
const PIECES_RAUM: [Kind; 5] = [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::RUnicorn];

/// Attack set of a non-pawn piece on the flat board (same result as `Position::attacks_from`).
#[inline(always)]
fn attacks_flat(g: &Geometry, kind: Kind, c: usize, occ: u128, raum: bool) -> u128 {
    match kind {
        Kind::Knight => g.knight[c],
        Kind::Bishop => g.diag2_slides(c, occ),
        Kind::Rook => g.orth_slides(c, occ),
        Kind::Queen if raum => g.orth_slides(c, occ) | g.diag2_slides(c, occ) | g.diag3_slides(c, occ),
        Kind::Queen => g.orth_slides(c, occ) | g.diag2_slides(c, occ),
        Kind::Unicorn => g.unicorn[c],
        Kind::Silver => g.unicorn[c] | g.diag3_slides(c, occ),
        Kind::Wizard => g.diag2_slides(c, occ) | g.diag3_slides(c, occ),
        Kind::Guard => g.all_step[c],
        Kind::RUnicorn => g.diag3_slides(c, occ),
        Kind::King if raum => g.all_step[c],
        Kind::King => g.orth_step[c] | g.diag3_step[c],
        Kind::Pawn => 0,
    }
}

/// Attack set of a non-pawn piece of `kind` on cell `c` (the flat fast path unless the board is a
/// hypercylinder).
#[inline]
pub(crate) fn piece_attacks(pos: &Position, kind: Kind, c: usize, occ: u128) -> u128 {
    let g = pos.geometry();
    if g.cylinder {
        pos.attacks_from(kind, c, occ)
    } else {
        attacks_flat(g, kind, c, occ, !pos.ruleset().is_fiveup())
    }
}

/// The directions (bits of [`DIRS`](crate::rules::geometry::DIRS) indices) along which a piece of
/// `kind` slides; the rest of its attack set is leaps, which occupancy does not change.
#[inline]
pub(crate) fn slide_dirs(kind: Kind, raum: bool) -> u32 {
    const ORTH: u32 = 0x3F;
    const DIAG2: u32 = 0xFFF << 6;
    const DIAG3: u32 = 0xFF << 18;
    match kind {
        Kind::Bishop => DIAG2,
        Kind::Rook => ORTH,
        Kind::Queen if raum => ORTH | DIAG2 | DIAG3,
        Kind::Queen => ORTH | DIAG2,
        Kind::Silver | Kind::RUnicorn => DIAG3,
        Kind::Wizard => DIAG2 | DIAG3,
        _ => 0,
    }
}

/// Material, mobility and centralisation of one piece of `kind` on `c` with attack set `a`, where
/// `own` holds its side's pieces (steps 1–3).
#[inline(always)]
pub(crate) fn piece_score(w: &Weights, kind: Kind, c: usize, a: u128, own: u128) -> i32 {
    let k = kind.index();
    w.values[k] + w.mobility[k] * (a & !own).count_ones() as i32 + w.center[k] * CENTRALITY[c]
}

/// Whether a kind is scored per piece by [`piece_score`] (everything but pawns and kings).
#[inline]
pub(crate) fn is_piece(kind: Kind) -> bool {
    kind != Kind::Pawn && kind != Kind::King
}

/// [`piece_score`] summed over `us`'s pieces of `kind`, and their attacks on the enemy king's
/// zone, with the attack set of a piece on cell `c` given by `attacks(c)`.
#[inline(always)]
fn kind_terms(
    pos: &Position,
    w: &Weights,
    us: Color,
    kind: Kind,
    own: u128,
    zone: u128,
    attacks: impl Fn(usize) -> u128,
) -> (i32, u32) {
    let (mut s, mut zone_hits) = (0, 0);
    for c in pos.pieces(us, kind) {
        let a = attacks(c.index());
        s += piece_score(w, kind, c.index(), a, own);
        zone_hits += (a & zone).count_ones();
    }
    (s, zone_hits)
}

/// The static evaluation of `pos` from the side to move, in centipawns.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let taper = Taper::new(pos.ruleset(), w);
    from_sides(pos, w, &taper, side_score(pos, w, Color::White), side_score(pos, w, Color::Black))
}

/// The evaluation from the side to move given what each side scores; `taper` must be
/// [`Taper::new`]`(pos.ruleset(), w)`.
#[inline]
pub(crate) fn from_sides(pos: &Position, w: &Weights, taper: &Taper, white: i32, black: i32) -> i32 {
    let tapered = taper.value(pos);
    let s = drawn::scale_drawn(pos, white - black + mop_up(pos, w, tapered) + tapered);
    let s = if pos.side() == Color::White { s } else { -s };
    s + w.tempo
}

/// Everything one side scores (steps 1–5 of the module docs).
#[inline]
fn side_score(pos: &Position, w: &Weights, us: Color) -> i32 {
    let g = pos.geometry();
    let occ = pos.occupied().0;
    let own = pos.color_bb(us).0;
    let their_king = pos.king(us.flip()).index();
    let zone = g.all_step[their_king];
    let mut s = 0;
    let mut zone_attacks = 0u32;

    // 1–3. Pieces other than pawns and king: material, mobility, centralisation.
    let raum = !pos.ruleset().is_fiveup();
    let mut add = |(score, zone_hits): (i32, u32)| {
        s += score;
        zone_attacks += zone_hits;
    };
    if g.cylinder {
        let kinds: &[Kind] = if raum { &PIECES_RAUM } else { &PIECES_FIVEUP };
        for &kind in kinds {
            add(kind_terms(pos, w, us, kind, own, zone, |c| pos.attacks_from(kind, c, occ)));
        }
    } else {
        // One loop per kind, each calling `attacks_flat` with a constant kind, so the match in it
        // folds to the kind's own attack code (no per-piece dispatch).
        macro_rules! flat {
            ($($kind:ident),*) => {
                $(add(kind_terms(pos, w, us, Kind::$kind, own, zone, |c| attacks_flat(g, Kind::$kind, c, occ, raum)));)*
            };
        }
        flat!(Knight, Bishop, Rook, Queen);
        if raum {
            flat!(RUnicorn);
        } else {
            flat!(Unicorn, Silver, Wizard, Guard);
        }
    }

    s + w.king_attack * zone_attacks as i32 + other_terms(pos, w, us)
}

/// What `us` scores besides its pieces (pawns, reserve and shelter: steps 1, 4 and 5), all cheap
/// enough to compute afresh at every evaluation.
#[inline]
fn other_terms(pos: &Position, w: &Weights, us: Color) -> i32 {
    let mut s = 0;
    let pawns = pos.pieces(us, Kind::Pawn).0;
    s += w.values[Kind::Pawn.index()] * pawns.count_ones() as i32 + pawn_advancement(pos, w, us, pawns);

    // 1. Reserve pieces in hand, while they can still be placed.
    if pos.can_place(us) {
        s += hand_value(w, pos.reserve_kinds(us));
    }

    // 5. King shelter.
    s + shelter(pos, w, us)
}

/// Advancement score of `us`'s pawns `pawns` (step 4), counted per progress value (one popcount
/// per value instead of a loop over pawns).
#[inline]
fn pawn_advancement(pos: &Position, w: &Weights, us: Color, pawns: u128) -> i32 {
    if pawns == 0 {
        return 0;
    }
    let mut s = 0;
    for (p, &cells) in PROGRESS_CELLS[pawn_class(pos.ruleset(), us)].iter().enumerate().skip(1) {
        s += pawn_advance(w, p as i32) * (pawns & cells).count_ones() as i32;
    }
    s
}

/// The evaluation split for outcome regressions (Texel-style tuning of the material values,
/// `crate::values::regression`): what `evaluate` adds to material, from white's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decomposition {
    /// Everything but material (board pieces and placeable reserve at `reserve_pct`, tapered when
    /// the weights are) and the tempo, white minus black, centipawns: `evaluate` from white's side
    /// − tempo − [`material_balance`].
    pub positional: i32,
    /// Per kind index, per colour (white, black): the sum over that colour's pieces of that kind
    /// on the board of what each scores beyond its material value (mobility and centralisation
    /// for pieces, advancement for pawns; 0 for kings), centipawns.
    pub bonus: [[i32; 2]; crate::rules::types::KIND_COUNT],
}

/// Splits the static evaluation of `pos` into material and the rest ([`Decomposition`]).
pub fn decompose(pos: &Position, w: &Weights) -> Decomposition {
    let mut white = evaluate(pos, w) - w.tempo;
    if pos.side() == Color::Black {
        white = -white;
    }
    let mut bonus = [[0; 2]; crate::rules::types::KIND_COUNT];
    let occ = pos.occupied().0;
    for (ci, us) in [Color::White, Color::Black].into_iter().enumerate() {
        let own = pos.color_bb(us).0;
        for &kind in Kind::ALL.iter().filter(|&&k| is_piece(k)) {
            for c in pos.pieces(us, kind) {
                let a = pos.attacks_from(kind, c.index(), occ);
                bonus[kind.index()][ci] += piece_score(w, kind, c.index(), a, own) - w.values[kind.index()];
            }
        }
        bonus[Kind::Pawn.index()][ci] = pawn_advancement(pos, w, us, pos.pieces(us, Kind::Pawn).0);
    }
    Decomposition { positional: white - material_balance(pos, w), bonus }
}

/// Advancement score of one pawn of progress `p` (step 4).
#[inline]
pub(crate) fn pawn_advance(w: &Weights, p: i32) -> i32 {
    w.pawn_advance * p + w.pawn_advance_sq * p * p / 8
}

/// What the reserve pieces `kinds` in hand count while they can be placed (step 1).
#[inline]
pub(crate) fn hand_value(w: &Weights, kinds: impl Iterator<Item = Kind>) -> i32 {
    kinds.map(|k| w.values[k.index()]).sum::<i32>() * w.reserve_pct / 100
}

/// King shelter of `us`: own pieces next to its king (step 5).
#[inline]
pub(crate) fn shelter(pos: &Position, w: &Weights, us: Color) -> i32 {
    let g = pos.geometry();
    w.king_shelter * (g.all_step[pos.king(us).index()] & pos.color_bb(us).0).count_ones() as i32
}

/// Mop-up (step 7), white minus black: what the side ahead in a won endgame scores for driving
/// the weaker king to the edge, bringing its own king closer and trading down. `tapered` is the
/// position's tapered material ([`Taper::value`]), part of the balance that decides who is ahead.
#[inline]
pub(crate) fn mop_up(pos: &Position, w: &Weights, tapered: i32) -> i32 {
    mop_up_terms(pos, w, tapered, true)
}

/// [`mop_up`] without the bonus for trading down: only driving the weaker king (what the engine
/// adds to a network's score, see `Search::static_eval`; with the trade bonus too, the network
/// engine converted fewer endgames where the side ahead still had pawns).
#[inline]
pub(crate) fn mop_up_chase(pos: &Position, w: &Weights, tapered: i32) -> i32 {
    mop_up_terms(pos, w, tapered, false)
}

/// [`mop_up`] with or without the trade bonus: nothing with more than `mopup_pieces` men or on
/// the hypercylinder.
#[inline]
fn mop_up_terms(pos: &Position, w: &Weights, tapered: i32, trading: bool) -> i32 {
    let men = pos.occupied().0.count_ones() as i32;
    if men > w.mopup_pieces || pos.geometry().cylinder {
        return 0;
    }
    mop_up_endgame(pos, w, men, tapered, trading)
}

/// [`mop_up`] once the board is known to be an endgame, with or without the trade bonus.
#[inline(never)]
fn mop_up_endgame(pos: &Position, w: &Weights, men: i32, tapered: i32, trading: bool) -> i32 {
    let balance = untapered_material(pos, w) + tapered;
    if balance.abs() < w.mopup_margin.max(1) {
        return 0;
    }
    let strong = if balance > 0 { Color::White } else { Color::Black };
    // Driving the king: only once the side ahead has no pawns to promote (with pawns, promoting
    // them is the plan, and chasing the king away from them lost conversions in measurement).
    let chase = if pos.pieces(strong, Kind::Pawn).0 == 0 {
        let (ks, kw) = (pos.king(strong).index() as i32, pos.king(strong.flip()).index() as i32);
        let distance = (ks / 25 - kw / 25).abs() + (ks / 5 % 5 - kw / 5 % 5).abs() + (ks % 5 - kw % 5).abs();
        w.mopup_edge * (6 - CENTRALITY[kw as usize]) + w.mopup_king * (12 - distance)
    } else {
        0
    };
    // Trading pieces (not pawns) down.
    let pawns = (pos.pieces(Color::White, Kind::Pawn).0 | pos.pieces(Color::Black, Kind::Pawn).0).count_ones() as i32;
    let pieces = men - 2 - pawns;
    let slots = (w.mopup_pieces - 2).max(1);
    let trade = if trading { balance.abs() * w.mopup_trade / 100 * (slots - pieces).max(0) / slots } else { 0 };
    let bonus = chase + trade;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

/// Material only (board plus placeable reserve, tapered when the weights are), white minus black:
/// a cheap balance for tests and adjudication.
pub fn material_balance(pos: &Position, w: &Weights) -> i32 {
    untapered_material(pos, w) + Taper::new(pos.ruleset(), w).value(pos)
}

/// [`material_balance`] without the taper.
fn untapered_material(pos: &Position, w: &Weights) -> i32 {
    let side = |us: Color| -> i32 {
        let board: i32 = Kind::ALL.iter().map(|&k| w.values[k.index()] * pos.pieces(us, k).count() as i32).sum();
        let hand: i32 = if pos.can_place(us) { pos.reserve_kinds(us).map(|k| w.values[k.index()]).sum() } else { 0 };
        board - w.values[Kind::King.index()] + hand * w.reserve_pct / 100
    };
    side(Color::White) - side(Color::Black)
}

/// White's material per kind in the ruleset's start position, (on the board, in the reserve),
/// read from [`Position::startpos`] once per ruleset.
fn start_counts(ruleset: crate::rules::Ruleset) -> &'static [(i32, i32); KIND_COUNT] {
    use crate::rules::{Ruleset, Variant};
    use std::sync::OnceLock;
    static COUNTS: [OnceLock<[(i32, i32); KIND_COUNT]>; Ruleset::ALL.len()] =
        [const { OnceLock::new() }; Ruleset::ALL.len()];
    COUNTS[ruleset.index()].get_or_init(|| {
        let p = Position::startpos(Variant::plain(ruleset));
        let mut c = [(0, 0); KIND_COUNT];
        for k in Kind::ALL {
            c[k.index()].0 = p.pieces(Color::White, k).count() as i32;
        }
        for k in p.reserve_kinds(Color::White) {
            c[k.index()].1 += 1;
        }
        c
    })
}

/// Tapered material (step 8) for one set of weights in one ruleset, its tables computed once
/// ([`Taper::new`], by the search once per root) so that [`Taper::value`] costs a popcount per
/// kind and colour: white minus black, `(values_end − values) × (1 − phase)` summed over the
/// material (board, and placeable reserve at `reserve_pct`), where the phase is the non-pawn
/// material left (at `values`) as a share of the start's, in 256ths, capped at 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Taper {
    /// The kinds that count, in order: their end value minus value, and their value in the
    /// phase (0 for pawns).
    kinds: [(Kind, i32, i32); KIND_COUNT],
    /// How many entries of `kinds` count (0 when the weights do not taper).
    n: usize,
    /// Per reserve mask (as `Position::reserve`): (phase material, value difference) of the
    /// pieces in hand at `reserve_pct`.
    hand: [(i32, i32); 8],
    /// Both sides' non-pawn material at the start, at `values` (at least 1).
    start: i32,
}

impl Taper {
    /// No taper: [`Taper::value`] is always 0.
    pub(crate) const OFF: Taper = Taper { kinds: [(Kind::King, 0, 0); KIND_COUNT], n: 0, hand: [(0, 0); 8], start: 1 };

    /// The tables of `w` in `ruleset` (the start material is read from its start position).
    pub(crate) fn new(ruleset: crate::rules::Ruleset, w: &Weights) -> Taper {
        if !w.tapered() {
            return Taper::OFF;
        }
        let mut t = Taper::OFF;
        let counts = start_counts(ruleset);
        let mut start = 0;
        for k in Kind::ALL {
            let i = k.index();
            if k == Kind::King {
                continue;
            }
            let (delta, phase) = (w.values_end[i] - w.values[i], if k == Kind::Pawn { 0 } else { w.values[i] });
            if delta != 0 || phase != 0 {
                t.kinds[t.n] = (k, delta, phase);
                t.n += 1;
            }
            let (board, reserve) = counts[i];
            start += board * phase + reserve * phase * w.reserve_pct / 100;
        }
        t.start = (2 * start).max(1);
        for (mask, h) in t.hand.iter_mut().enumerate() {
            for (b, &k) in RESERVE_KINDS.iter().enumerate() {
                if mask >> b & 1 == 0 {
                    continue;
                }
                let i = k.index();
                h.0 += w.values[i] * w.reserve_pct / 100;
                h.1 += (w.values_end[i] - w.values[i]) * w.reserve_pct / 100;
            }
        }
        t
    }

    /// The tapered material of `pos` (a position of the ruleset the tables are for), white minus
    /// black; 0 when the weights have no taper.
    #[inline]
    pub(crate) fn value(&self, pos: &Position) -> i32 {
        if self.n == 0 {
            return 0;
        }
        let (mut left, mut diff) = (0, 0);
        for &(k, delta, phase) in &self.kinds[..self.n] {
            let (w, b) = (pos.pieces(Color::White, k).count() as i32, pos.pieces(Color::Black, k).count() as i32);
            left += (w + b) * phase;
            diff += (w - b) * delta;
        }
        for (c, sign) in [(Color::White, 1), (Color::Black, -1)] {
            if pos.can_place(c) {
                let (l, d) = self.hand[pos.reserve(c) as usize & 7];
                left += l;
                diff += sign * d;
            }
        }
        let phase = (left * 256 / self.start).clamp(0, 256);
        diff * (256 - phase) / 256
    }
}

/// [`Taper::value`] with tables computed for this one call (tests).
#[cfg(test)]
pub(crate) fn taper(pos: &Position, w: &Weights) -> i32 {
    Taper::new(pos.ruleset(), w).value(pos)
}

pub mod drawn;
#[cfg(test)]
mod tests;
