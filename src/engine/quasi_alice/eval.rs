//! The Quasi-Alice hand evaluation: one function, [`evaluate`], from the side to move.
//!
//! Terms, each from White's side and then signed for the side to move:
//! 1. **material**: the weights' values (from a values file, [`QaWeights`]);
//! 2. **mobility**: per man, the squares its chess move attacks on its own board that do not hold
//!    an own man (every one of them is the first half of some move; where the man may transfer
//!    to depends on the kings, not on the man);
//! 3. **centre**: per step of centrality of the man's square (0 at an edge, 3 in the centre);
//! 4. **pawns**: progress toward the promotion rank, linear plus quadratic;
//! 5. **king safety across boards**: a king can only be attacked by men on its own board (and by
//!    the enemy king from a neighbouring square of another board), so the danger is counted
//!    there: each enemy man other than a pawn on the king's board, each enemy attack on the
//!    squares next to the king on its board, against the own men beside it;
//! 6. **mop-up**: in a won ending (few men, a clear material lead) the side ahead drives the
//!    weaker king toward the edge of its board and brings its own king's square closer;
//! 7. **tempo** for the side to move.
//!
//! The evaluation is computed in full at every node (no incremental state): the men are few and
//! the attack sets of one 8x8 board are cheap.

use super::weights::QaWeights;
use crate::game::Color;
use crate::quasi_alice::board::{bishop_attacks, rook_attacks, BOARDS, KING, KNIGHT, PAWN_ATTACKS};
use crate::quasi_alice::{Kind, Position};

/// Centrality of each square: 0 on the edge, 3 in the centre four.
const CENTER: [i32; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let df = if f < 4 { f } else { 7 - f };
        let dr = if r < 4 { r } else { 7 - r };
        t[sq] = if df < dr { df } else { dr };
        sq += 1;
    }
    t
};

/// The attack set of a man of `kind` and `color` on `sq` with board occupancy `occ`.
#[inline]
fn attacks(kind: Kind, color: Color, sq: usize, occ: u64) -> u64 {
    match kind {
        Kind::Pawn => PAWN_ATTACKS[color.index()][sq],
        Kind::Knight => KNIGHT[sq],
        Kind::Bishop => bishop_attacks(sq, occ),
        Kind::Rook => rook_attacks(sq, occ),
        Kind::Queen => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
        Kind::King => KING[sq],
    }
}

/// Material of each side (kings excluded): `[white, black]`.
pub fn material(pos: &Position, w: &QaWeights) -> [i32; 2] {
    let mut m = [0; 2];
    for color in [Color::White, Color::Black] {
        for kind in &Kind::ALL[..5] {
            let n: u32 = (0..BOARDS).map(|b| pos.pieces(color, *kind, b).count_ones()).sum();
            m[color.index()] += n as i32 * w.value(*kind);
        }
    }
    m
}

/// The static evaluation of `pos` from the side to move, in centipawns.
pub fn evaluate(pos: &Position, w: &QaWeights) -> i32 {
    let mut score = [0i32; 2];
    let mut mat = [0i32; 2];
    let mut men = 0;
    let kings = [pos.king(Color::White), pos.king(Color::Black)];
    for b in 0..BOARDS {
        let occ = pos.occupied(b);
        if occ == 0 {
            continue;
        }
        men += occ.count_ones() as i32;
        for color in [Color::White, Color::Black] {
            let ci = color.index();
            let own = pos.men(color, b);
            let their_king = kings[ci ^ 1];
            let (tkb, tks) = (their_king / 64, their_king % 64);
            let zone = if tkb == b { KING[tks] } else { 0 };
            let mut s = 0;
            for kind in Kind::ALL {
                let mut set = pos.pieces(color, kind, b);
                while set != 0 {
                    let sq = set.trailing_zeros() as usize;
                    set &= set - 1;
                    let k = kind as usize;
                    mat[ci] += w.values[k];
                    s += w.center[k] * CENTER[sq];
                    if kind == Kind::Pawn {
                        let rank = (sq / 8) as i32;
                        let progress = if color == Color::White { rank - 1 } else { 6 - rank }.max(0);
                        s += w.pawn_advance * progress + w.pawn_advance_sq * progress * progress / 8;
                        if zone != 0 {
                            s += w.king_attack * (PAWN_ATTACKS[ci][sq] & zone).count_ones() as i32;
                        }
                        continue;
                    }
                    let a = attacks(kind, color, sq, occ);
                    s += w.mobility[k] * (a & !own).count_ones() as i32;
                    if zone != 0 && kind != Kind::King {
                        s += w.king_attack * (a & zone).count_ones() as i32 + w.king_board;
                    }
                }
            }
            // The own king's shelter: own men beside it on its board.
            let (kb, ks) = (kings[ci] / 64, kings[ci] % 64);
            if kb == b {
                s += w.king_shelter * (KING[ks] & own).count_ones() as i32;
            }
            score[ci] += s;
        }
    }
    let mut v = score[0] - score[1] + mat[0] - mat[1];

    // Mop-up: the side ahead chases the weaker king.
    if men <= w.mopup_pieces && (mat[0] - mat[1]).abs() >= w.mopup_margin {
        let strong = if mat[0] > mat[1] { 0 } else { 1 };
        let (sk, wk) = (kings[strong] % 64, kings[strong ^ 1] % 64);
        let edge = 3 - CENTER[wk];
        let (df, dr) = (((sk % 8) as i32 - (wk % 8) as i32).abs(), ((sk / 8) as i32 - (wk / 8) as i32).abs());
        let chase = w.mopup_edge * edge + w.mopup_king * (7 - df.max(dr));
        v += if strong == 0 { chase } else { -chase };
    }

    let v = if pos.side() == Color::White { v } else { -v };
    v + w.tempo
}

/// The evaluation split into material and the rest (for the Texel-style piece-value regression,
/// `crate::values::regression`), from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decomposition {
    /// Everything but material and the tempo, white minus black, centipawns: [`evaluate`] from
    /// White's side − tempo − material.
    pub positional: i32,
    /// Per kind index, per colour (white, black): the sum over that colour's men of that kind of
    /// what each scores beyond its material value on its own (mobility and centralisation for
    /// pieces, centralisation and advancement for pawns; 0 for kings), centipawns.
    pub bonus: [[i32; 2]; 6],
}

/// Splits the static evaluation of `pos` into material and the rest ([`Decomposition`]).
pub fn decompose(pos: &Position, w: &QaWeights) -> Decomposition {
    let mut white = evaluate(pos, w) - w.tempo;
    if pos.side() == Color::Black {
        white = -white;
    }
    let mat = material(pos, w);
    let mut bonus = [[0; 2]; 6];
    for b in 0..BOARDS {
        let occ = pos.occupied(b);
        for color in [Color::White, Color::Black] {
            let own = pos.men(color, b);
            for kind in &Kind::ALL[..5] {
                let k = *kind as usize;
                let mut set = pos.pieces(color, *kind, b);
                while set != 0 {
                    let sq = set.trailing_zeros() as usize;
                    set &= set - 1;
                    let mut s = w.center[k] * CENTER[sq];
                    if *kind == Kind::Pawn {
                        let rank = (sq / 8) as i32;
                        let progress = if color == Color::White { rank - 1 } else { 6 - rank }.max(0);
                        s += w.pawn_advance * progress + w.pawn_advance_sq * progress * progress / 8;
                    } else {
                        s += w.mobility[k] * (attacks(*kind, color, sq, occ) & !own).count_ones() as i32;
                    }
                    bonus[k][color.index()] += s;
                }
            }
        }
    }
    Decomposition { positional: white - (mat[0] - mat[1]), bonus }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour-flipped text of a position: ranks mirrored, colours swapped, side flipped.
    fn flipped(pos: &Position) -> Position {
        let text = pos.to_text();
        let mut parts = text.split(' ');
        let boards: Vec<String> =
            parts
                .next()
                .unwrap()
                .split('|')
                .map(|b| {
                    b.split('/')
                        .rev()
                        .map(|r| {
                            r.chars()
                                .map(|c| {
                                    if c.is_ascii_uppercase() {
                                        c.to_ascii_lowercase()
                                    } else {
                                        c.to_ascii_uppercase()
                                    }
                                })
                                .collect::<String>()
                        })
                        .collect::<Vec<_>>()
                        .join("/")
                })
                .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        let castling: String = parts
            .next()
            .unwrap()
            .chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect();
        let mut castling: Vec<char> = castling.chars().collect();
        castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        let castling: String = castling.into_iter().collect();
        let text = format!("{} {side} {castling} - 0 1", boards.join("|"));
        Position::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn the_evaluation_is_colour_symmetric() {
        let w = QaWeights::default();
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut checked = 0;
        for _ in 0..20 {
            let mut p = Position::start();
            for _ in 0..60 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if p.ep().is_none() {
                    let f = flipped(&p);
                    assert_eq!(evaluate(&p, &w), evaluate(&f, &w), "{} vs {}", p.to_text(), f.to_text());
                    checked += 1;
                }
                p.make(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 500);
    }

    #[test]
    fn the_decomposition_adds_up_to_the_evaluation() {
        let w = QaWeights::default();
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut p = Position::start();
        for _ in 0..40 {
            let d = decompose(&p, &w);
            let m = material(&p, &w);
            let mover = evaluate(&p, &w) - w.tempo;
            let white = if p.side() == Color::White { mover } else { -mover };
            assert_eq!(d.positional + m[0] - m[1], white, "{}", p.to_text());
            assert_eq!(d.bonus[Kind::King as usize], [0, 0]);
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.make(moves[rng.below(moves.len())]);
        }
        // The start: white's and black's bonuses mirror each other.
        let d = decompose(&Position::start(), &w);
        assert!(d.bonus.iter().all(|b| b[0] == b[1]), "{d:?}");
        assert_eq!(d.positional, 0);
    }

    #[test]
    fn material_and_tempo_at_the_start() {
        let w = QaWeights::default();
        let p = Position::start();
        assert_eq!(material(&p, &w), [material(&p, &w)[1]; 2]);
        // Symmetric start: only the tempo is left.
        assert_eq!(evaluate(&p, &w), w.tempo);
        let up = Position::from_text("4k3/8/8/8/8/8/8/3QK3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1")
            .unwrap();
        assert!(evaluate(&up, &w) > w.value(Kind::Queen) - 200);
    }
}
