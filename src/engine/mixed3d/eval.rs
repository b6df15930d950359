//! The Mixed 3D hand evaluation, from the side to move, split in two parts so that the search can
//! keep the first up to date move by move:
//!
//! 1. [`psq`], **material and placement**, a sum over the men of a per-man term
//!    ([`man_term`]): the weights' values, centrality (file, rank and level, 0..3 each: 0 at a
//!    face of the cube, 3 in its central 2x2x2) per kind, and the pawns' progress toward their
//!    promotion rank, linear plus quadratic. [`super::M3Board`] keeps it incrementally;
//! 2. [`dynamic`], **everything that depends on other men**: the royal king's safety (each enemy
//!    man other than a pawn within two steps of it, in the 5x5x5 box around it, against the own
//!    men beside it), Betza's pawn "mountain" (each pawn defended by an own pawn: up to four
//!    can), mobility (cells attacked that do not hold an own man, counted only when some mobility
//!    weight is set: at 256 men it is the most expensive term) and mop-up (in a won ending with
//!    few men, the side ahead drives the weaker royal king toward a face of the cube and brings
//!    its own closer);
//!
//! plus the tempo for the side to move. [`evaluate`] computes both from scratch.

use super::weights::M3Weights;
use crate::game::board8::PAWN_ATTACKS;
use crate::game::Color;
use crate::mixed3d::geometry::{cell, file, level, rank, CELLS, KING_ONE_LEVEL, KING_SAME_LEVEL, SIDE};
use crate::mixed3d::{Kind, Piece, Position};

/// Distance of a coordinate (0..8) from the nearer face: 0, 1, 2, 3, 3, 2, 1, 0.
const fn edge(x: usize) -> i32 {
    if x < 4 {
        x as i32
    } else {
        7 - x as i32
    }
}

/// Centrality of each cell: file, rank and level each 0..3, summed (0..9).
static CENTER: [i32; CELLS] = {
    let mut t = [0; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = edge(file(c)) + edge(rank(c)) + edge(level(c));
        c += 1;
    }
    t
};

/// The squares of a level within two steps (Chebyshev) of a square: its 5x5 box.
static BOX2: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut df = -2;
        while df <= 2 {
            let mut dr = -2;
            while dr <= 2 {
                let (g, q) = (f + df, r + dr);
                if g >= 0 && g < 8 && q >= 0 && q < 8 {
                    t[s] |= 1 << (q * 8 + g);
                }
                dr += 1;
            }
            df += 1;
        }
        s += 1;
    }
    t
};

/// The placement term of one man on `c`, from White's side (negative for a black man).
#[inline]
pub fn man_term(w: &M3Weights, p: Piece, c: usize) -> i32 {
    let k = p.kind as usize;
    let mut s = w.values[k] + w.center[k] * CENTER[c];
    if p.kind == Kind::Pawn {
        let r = rank(c) as i32;
        let progress = if p.color == Color::White { r - 1 } else { 6 - r }.max(0);
        s += w.pawn_advance * progress + w.pawn_advance_sq * progress * progress / 8;
    }
    if p.color == Color::White {
        s
    } else {
        -s
    }
}

/// Material and placement ([`man_term`] summed over the men), from White's side.
pub fn psq(pos: &Position, w: &M3Weights) -> i32 {
    (0..CELLS).filter_map(|c| pos.piece_at(c).map(|p| man_term(w, p, c))).sum()
}

/// Material of each side (royal kings excluded): `[white, black]`.
pub fn material(pos: &Position, w: &M3Weights) -> [i32; 2] {
    let mut m = [0; 2];
    for color in [Color::White, Color::Black] {
        for kind in Kind::ALL {
            m[color.index()] += pos.count(color, kind) as i32 * w.value(kind);
        }
    }
    m
}

/// The men of `color` other than pawns and the royal king on `level`.
#[inline]
fn officers(pos: &Position, color: Color, level: usize) -> u64 {
    pos.men(color, level) & !pos.pieces(color, Kind::Pawn, level) & !pos.pieces(color, Kind::King, level)
}

/// The terms that depend on several men (see the module docs), from White's side.
pub fn dynamic(pos: &Position, w: &M3Weights) -> i32 {
    let mut v = 0;
    let kings = [pos.king(Color::White), pos.king(Color::Black)];
    for color in [Color::White, Color::Black] {
        let ci = color.index();
        let sign = if color == Color::White { 1 } else { -1 };
        // The royal king: enemy officers in its box, own men beside it.
        let (kl, ks) = (level(kings[ci]), kings[ci] & 63);
        let mut near = 0;
        let mut shelter = (KING_SAME_LEVEL[ks] & pos.men(color, kl)).count_ones();
        for lv in kl.saturating_sub(2)..(kl + 3).min(SIDE) {
            near += (BOX2[ks] & officers(pos, color.flip(), lv)).count_ones();
            if lv + 1 == kl || lv == kl + 1 {
                shelter += (KING_ONE_LEVEL[ks] & pos.men(color, lv)).count_ones();
            }
        }
        let mut s = w.king_shelter * shelter as i32 - w.king_near * near as i32;
        // Pawns defended by own pawns: by the in-level diagonals from behind, and from the same
        // file one rank behind on the next levels.
        if w.pawn_guard != 0 {
            let mut guarded = 0;
            for l in 0..SIDE {
                let pawns = pos.pieces(color, Kind::Pawn, l);
                let mut set = pawns;
                while set != 0 {
                    let sq = set.trailing_zeros() as usize;
                    set &= set - 1;
                    let behind = PAWN_ATTACKS[color.flip().index()][sq];
                    let straight = if color == Color::White { sq.wrapping_sub(8) } else { sq + 8 };
                    let mut by = (behind & pawns).count_ones();
                    if straight < 64 {
                        for lv in [l.wrapping_sub(1), l + 1] {
                            if lv < SIDE {
                                by += (pos.pieces(color, Kind::Pawn, lv) >> straight & 1) as u32;
                            }
                        }
                    }
                    guarded += by.min(1);
                }
            }
            s += w.pawn_guard * guarded as i32;
        }
        if w.counts_mobility() {
            for l in 0..SIDE {
                let mut set = officers(pos, color, l) | pos.pieces(color, Kind::King, l);
                while set != 0 {
                    let c = l * 64 + set.trailing_zeros() as usize;
                    set &= set - 1;
                    let k = pos.piece_at(c).map_or(0, |p| p.kind as usize);
                    if w.mobility[k] != 0 {
                        s += w.mobility[k] * pos.mobility(c) as i32;
                    }
                }
            }
        }
        v += sign * s;
    }
    // Mop-up: the side ahead chases the weaker royal king.
    if w.mopup_pieces > 0 {
        let men: u32 = (0..SIDE).map(|l| pos.occupied(l).count_ones()).sum();
        if men as i32 <= w.mopup_pieces {
            let mat = material(pos, w);
            if (mat[0] - mat[1]).abs() >= w.mopup_margin {
                let strong = usize::from(mat[0] <= mat[1]);
                let (sk, wk) = (kings[strong], kings[strong ^ 1]);
                let coords = |c: usize| [file(c) as i32, rank(c) as i32, level(c) as i32];
                let (a, b) = (coords(sk), coords(wk));
                let dist = (0..3).map(|i| (a[i] - b[i]).abs()).max().unwrap_or(0);
                let edge_dist = 9 - CENTER[wk];
                let chase = w.mopup_edge * edge_dist + w.mopup_king * (7 - dist);
                v += if strong == 0 { chase } else { -chase };
            }
        }
    }
    v
}

/// The static evaluation of `pos` from the side to move, in centipawns.
pub fn evaluate(pos: &Position, w: &M3Weights) -> i32 {
    from_mover(pos, psq(pos, w) + dynamic(pos, w), w)
}

/// A White-side evaluation turned to the side to move, with the tempo.
#[inline]
pub fn from_mover(pos: &Position, white: i32, w: &M3Weights) -> i32 {
    (if pos.side() == Color::White { white } else { -white }) + w.tempo
}

/// The evaluation split into material and the rest (for the Texel-style piece-value regression),
/// from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decomposition {
    /// Everything but material and the tempo, white minus black, centipawns.
    pub positional: i32,
    /// Per kind index, per colour (white, black): the sum over that colour's men of that kind of
    /// what each scores beyond its material value on its own (centrality and, for pawns,
    /// progress; mobility when weighted), centipawns; 0 for the royal king.
    pub bonus: [[i32; 2]; 7],
}

/// Splits the static evaluation of `pos` into material and the rest ([`Decomposition`]).
pub fn decompose(pos: &Position, w: &M3Weights) -> Decomposition {
    let mat = material(pos, w);
    let mut bonus = [[0; 2]; 7];
    for c in 0..CELLS {
        let Some(p) = pos.piece_at(c) else { continue };
        if p.kind == Kind::King {
            continue;
        }
        let placed = if p.color == Color::White { man_term(w, p, c) } else { -man_term(w, p, c) };
        let own = placed - w.value(p.kind) + w.mobility[p.kind as usize] * pos.mobility(c) as i32;
        bonus[p.kind as usize][p.color.index()] += own;
    }
    let white = psq(pos, w) + dynamic(pos, w);
    Decomposition { positional: white - (mat[0] - mat[1]), bonus }
}

/// The cell of the same man seen from the other side: rank mirrored (level and file kept).
pub fn mirror(c: usize) -> usize {
    cell(level(c), file(c), 7 - rank(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position without castling rights or en passant cell (which the evaluation ignores)
    /// and its colour-flipped twin: ranks mirrored, colours swapped, side flipped.
    fn twins(pos: &Position) -> (Position, Position) {
        let text = pos.to_text();
        let fields: Vec<&str> = text.split(' ').collect();
        let plain = Position::from_text(&format!("{} {} - - 0 1", fields[0], fields[1])).unwrap();
        let mut parts = text.split(' ');
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let levels: Vec<String> = parts
            .next()
            .unwrap()
            .split('|')
            .map(|b| b.split('/').rev().map(|r| r.chars().map(swap).collect::<String>()).collect::<Vec<_>>().join("/"))
            .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        let text = format!("{} {side} - - 0 1", levels.join("|"));
        (plain, Position::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}")))
    }

    fn all_terms() -> M3Weights {
        let mut w = M3Weights { pawn_guard: 5, ..M3Weights::default() };
        w.mobility = [1, 2, 2, 1, 1, 1, 1];
        w
    }

    #[test]
    fn the_evaluation_is_colour_symmetric() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut checked = 0;
        for w in [M3Weights::default(), all_terms()] {
            for _ in 0..4 {
                let mut p = Position::start();
                for _ in 0..80 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let (plain, f) = twins(&p);
                    assert_eq!(evaluate(&p, &w), evaluate(&plain, &w));
                    assert_eq!(evaluate(&plain, &w), evaluate(&f, &w), "{}", p.to_text());
                    checked += 1;
                    p.make(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 100, "{checked}");
        assert_eq!(evaluate(&Position::start(), &all_terms()), all_terms().tempo);
        assert_eq!(evaluate(&Position::start(), &M3Weights::default()), M3Weights::default().tempo);
    }

    #[test]
    fn the_decomposition_adds_up_to_the_evaluation() {
        let w = all_terms();
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut p = Position::start();
        for _ in 0..40 {
            let d = decompose(&p, &w);
            let m = material(&p, &w);
            let white = if p.side() == Color::White { 1 } else { -1 } * (evaluate(&p, &w) - w.tempo);
            assert_eq!(d.positional + m[0] - m[1], white, "{}", p.to_text());
            assert_eq!(d.bonus[Kind::King as usize], [0, 0]);
            let moves = p.legal_moves();
            p.make(moves[rng.below(moves.len())]);
        }
        let d = decompose(&Position::start(), &w);
        assert!(d.bonus.iter().all(|b| b[0] == b[1]), "{d:?}");
    }

    #[test]
    fn king_safety_mop_up_and_material_move_the_score() {
        let w = M3Weights::default();
        let text = |l1: &str, side: &str| {
            let mut levels = ["8/8/8/8/8/8/8/8"; 8];
            levels[0] = l1;
            levels[7] = "4k3/8/8/8/8/8/8/8";
            format!("{} {side} - - 0 1", levels.join("|"))
        };
        let up = Position::from_text(&text("8/8/8/8/8/8/8/3QK3", "w")).unwrap();
        assert!(evaluate(&up, &w) > w.value(Kind::Queen) - 200);
        let down = Position::from_text(&text("8/8/8/8/8/8/8/3QK3", "b")).unwrap();
        assert!(evaluate(&down, &w) < -w.value(Kind::Queen) + 200);
        // A black commoner next to the white royal king costs white its king_near.
        let far = Position::from_text(&text("8/8/8/8/8/8/8/3QK2c", "w")).unwrap();
        let near = Position::from_text(&text("8/8/8/8/8/8/6c1/3QK3", "w")).unwrap();
        assert!(dynamic(&far, &w) > dynamic(&near, &w), "{} {}", dynamic(&far, &w), dynamic(&near, &w));
    }
}
