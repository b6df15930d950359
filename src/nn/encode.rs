//! Position → input planes: a pure function from `(position, repetitions)` to `f32` planes
//! `[PLANES, 5, 5, 5]`, seen from the side to move.
//!
//! # The mover's frame
//!
//! Every ruleset and side is turned into one frame in which the mover's pawns go **forward toward
//! +rank** and **up toward +layer**. The turn is a reflection of the layer axis and/or the rank axis;
//! files are never touched:
//!
//! | ruleset | side | pawn forward / up (board) | transform (layer, rank, file) → |
//! |---|---|---|---|
//! | `fiveup`, `fiveup-2001` | white | rank + 1 / layer − 1 (toward A) | (4 − layer, rank, file) |
//! | `fiveup`, `fiveup-2001` | black | rank − 1 / layer + 1 (toward E) | (layer, 4 − rank, file) |
//! | `raumschach` | white | rank + 1 / layer + 1 (toward E) | (layer, rank, file) |
//! | `raumschach` | black | rank − 1 / layer − 1 (toward A) | (4 − layer, 4 − rank, file) |
//!
//! **Decision: files are not mirrored**, so for Five Up the frame is an improper transform (a single
//! reflection). Handedness carries no meaning in these rules: every move set is symmetric under
//! a↔e (that is why file mirroring is an exact [symmetry](super::symmetry) of every ruleset), so
//! keeping files as they are costs nothing and buys two things: the frame commutes with every file
//! symmetry (mirror and hypercylinder rotations), and file letters read the same in both frames.
//! With this choice the two Five Up start positions encode identically for white and black (black's
//! setup is white's turned about the file axis); in Raumschach (black = white turned through the
//! centre) black's view is white's mirrored a↔e, which the file symmetry covers. The transform is
//! an involution: [`Frame::cell`] maps board → frame and frame → board alike. The policy
//! ([`super::policy`]) uses the same frame.
//!
//! # Planes
//!
//! Cell `(layer, rank, file)` of the frame is element `layer * 25 + rank * 5 + file` of its plane
//! (the order of [`Cell::index`]); plane `p` occupies `[p * 125, (p + 1) * 125)` of an item.
//! "Own" is the side to move. Values are 0 or 1 unless stated.
//!
//! | index | meaning |
//! |---|---|
//! | 0–10 | own pieces, one plane per [`Kind`] in index order: pawn, knight, bishop, rook, queen, king, unicorn (Five Up), silver unicorn, wizard, guard, unicorn (Raumschach) |
//! | 11–21 | opponent pieces, same order |
//! | 22 | own placement rights (cells whose non-pawn piece never moved); empty when own reserve is empty (the rights are void then) |
//! | 23 | opponent placement rights, same convention |
//! | 24 | en passant passed cells, only when an en passant capture is actually possible (as in the hash) |
//! | 25–27 | own reserve holds wizard / guard / silver unicorn (constant planes) |
//! | 28–30 | opponent reserve holds wizard / guard / silver unicorn (constant planes) |
//! | 31 | position seen before at least once (repetitions ≥ 1; constant) |
//! | 32 | position seen before at least twice (repetitions ≥ 2; constant) |
//! | 33 | fifty-move clock: halfmove / 100, clamped to 1 (constant) |
//! | 34–36 | ruleset one-hot: `fiveup`, `fiveup-2001`, `raumschach` (constant) |
//! | 37 | hypercylinder board (constant) |
//! | 38 | castling rule on (constant) |
//! | 39 | side to move is black (constant) |
//! | 40 | all ones (marks the board inside zero padding) |
//!
//! The fifty-move clock is the only input not covered by the Zobrist hash; the evaluation cache
//! therefore keys on the clock too (see [`super::cache`]).

use crate::game::Color;
use crate::rules::bitboard::Bitboard;
use crate::rules::cell::Cell;
use crate::rules::geometry::{pawn_class, pawn_deltas};
use crate::rules::types::{Kind, Ruleset, KIND_COUNT, RESERVE_KINDS};
use crate::rules::Position;

/// Number of cells of the board (elements of one plane).
pub const CELLS: usize = 125;
/// Number of input planes.
pub const PLANES: usize = 41;
/// Number of `f32` values of one encoded position (`PLANES * CELLS`).
pub const INPUT_SIZE: usize = PLANES * CELLS;

/// First plane of the side to move's pieces (one per [`Kind`]).
pub const PLANE_OWN_PIECES: usize = 0;
/// First plane of the opponent's pieces (one per [`Kind`]).
pub const PLANE_THEIR_PIECES: usize = KIND_COUNT;
/// Own placement rights.
pub const PLANE_OWN_RIGHTS: usize = 22;
/// Opponent placement rights.
pub const PLANE_THEIR_RIGHTS: usize = 23;
/// En passant passed cells.
pub const PLANE_EP: usize = 24;
/// First of the three own reserve planes (W, G, S).
pub const PLANE_OWN_RESERVE: usize = 25;
/// First of the three opponent reserve planes (W, G, S).
pub const PLANE_THEIR_RESERVE: usize = 28;
/// First of the two repetition planes (≥ 1, ≥ 2).
pub const PLANE_REPETITION: usize = 31;
/// Fifty-move clock.
pub const PLANE_HALFMOVE: usize = 33;
/// First of the three ruleset one-hot planes (in [`Ruleset::ALL`] order).
pub const PLANE_RULESET: usize = 34;
/// Hypercylinder flag.
pub const PLANE_HYPERCYLINDER: usize = 37;
/// Castling flag.
pub const PLANE_CASTLING: usize = 38;
/// Side to move is black.
pub const PLANE_BLACK: usize = 39;
/// All ones.
pub const PLANE_ONES: usize = 40;

const _: () = assert!(PLANE_ONES + 1 == PLANES);
const _: () = assert!(PLANE_THEIR_PIECES + KIND_COUNT == PLANE_OWN_RIGHTS);

/// The mover's frame of a position: which board axes are reflected (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// Layer `l` becomes `4 - l`.
    pub flip_layer: bool,
    /// Rank `r` becomes `4 - r`.
    pub flip_rank: bool,
}

impl Frame {
    /// The frame of `side` in `ruleset`: its pawns go forward to +rank and up to +layer.
    pub const fn of(ruleset: Ruleset, side: Color) -> Frame {
        let (fwd, up) = pawn_deltas(pawn_class(ruleset, side));
        Frame { flip_layer: up < 0, flip_rank: fwd < 0 }
    }

    /// The frame of the side to move of `pos`.
    pub fn of_position(pos: &Position) -> Frame {
        Frame::of(pos.ruleset(), pos.side())
    }

    /// A cell turned into (or, the map being an involution, back out of) the frame.
    #[inline]
    pub const fn cell(self, c: Cell) -> Cell {
        let mut l = c.layer();
        let mut r = c.rank();
        if self.flip_layer {
            l = 4 - l;
        }
        if self.flip_rank {
            r = 4 - r;
        }
        Cell::new_unchecked((l * 25 + r * 5 + c.file()) as u8)
    }

    /// A displacement (layer, rank, file) turned into (or back out of) the frame.
    #[inline]
    pub const fn vector(self, v: (i32, i32, i32)) -> (i32, i32, i32) {
        (if self.flip_layer { -v.0 } else { v.0 }, if self.flip_rank { -v.1 } else { v.1 }, v.2)
    }
}

#[inline]
fn plane(out: &mut [f32], p: usize) -> &mut [f32] {
    &mut out[p * CELLS..(p + 1) * CELLS]
}

#[inline]
fn set_cells(out: &mut [f32], p: usize, cells: Bitboard, frame: Frame) {
    let pl = plane(out, p);
    for c in cells {
        pl[frame.cell(c).index()] = 1.0;
    }
}

#[inline]
fn fill(out: &mut [f32], p: usize, v: f32) {
    if v != 0.0 {
        plane(out, p).fill(v);
    }
}

/// Encodes one position into `out` (exactly [`INPUT_SIZE`] values, overwritten entirely).
///
/// `repetitions` is how many times this position occurred before in the game (0 for a new one);
/// the position itself does not know its history. Panics if `out.len() != INPUT_SIZE`.
pub fn encode_into(pos: &Position, repetitions: u32, out: &mut [f32]) {
    assert_eq!(out.len(), INPUT_SIZE, "encode_into: buffer must hold INPUT_SIZE values");
    out.fill(0.0);
    let us = pos.side();
    let them = us.flip();
    let frame = Frame::of_position(pos);

    // 1. Pieces.
    for kind in Kind::ALL {
        set_cells(out, PLANE_OWN_PIECES + kind.index(), pos.pieces(us, kind), frame);
        set_cells(out, PLANE_THEIR_PIECES + kind.index(), pos.pieces(them, kind), frame);
    }

    // 2. Placement rights, void while the owner's reserve is empty.
    for (color, p) in [(us, PLANE_OWN_RIGHTS), (them, PLANE_THEIR_RIGHTS)] {
        if pos.reserve(color) != 0 {
            set_cells(out, p, pos.rights() & pos.color_bb(color), frame);
        }
    }

    // 3. En passant, only when a capture is possible.
    if pos.ep().is_some() && pos.ep_capture_possible() {
        set_cells(out, PLANE_EP, Bitboard(pos.ep().passed), frame);
    }

    // 4. Constant planes.
    for (color, first) in [(us, PLANE_OWN_RESERVE), (them, PLANE_THEIR_RESERVE)] {
        for (i, k) in RESERVE_KINDS.iter().enumerate() {
            let held = pos.reserve_kinds(color).any(|x| x == *k);
            fill(out, first + i, held as u8 as f32);
        }
    }
    fill(out, PLANE_REPETITION, (repetitions >= 1) as u8 as f32);
    fill(out, PLANE_REPETITION + 1, (repetitions >= 2) as u8 as f32);
    fill(out, PLANE_HALFMOVE, (pos.halfmove() as f32 / 100.0).min(1.0));
    fill(out, PLANE_RULESET + pos.ruleset().index(), 1.0);
    fill(out, PLANE_HYPERCYLINDER, pos.variant().hypercylinder as u8 as f32);
    fill(out, PLANE_CASTLING, pos.variant().castling as u8 as f32);
    fill(out, PLANE_BLACK, (us == Color::Black) as u8 as f32);
    fill(out, PLANE_ONES, 1.0);
}

/// Encodes one position into a new vector (convenience for tests and tools; search uses
/// [`encode_batch`]).
pub fn encode(pos: &Position, repetitions: u32) -> Vec<f32> {
    let mut v = vec![0.0; INPUT_SIZE];
    encode_into(pos, repetitions, &mut v);
    v
}

/// Encodes a batch of `(position, repetitions)` items back to back into the caller's buffer,
/// item `i` at `[i * INPUT_SIZE, (i + 1) * INPUT_SIZE)`. Allocates nothing. Panics unless
/// `out.len() >= items.len() * INPUT_SIZE`; values past the batch are left untouched.
pub fn encode_batch<'a, I>(items: I, out: &mut [f32])
where
    I: IntoIterator<Item = (&'a Position, u32)>,
{
    let mut chunks = out.chunks_exact_mut(INPUT_SIZE);
    for (pos, reps) in items {
        let chunk = chunks.next().expect("encode_batch: buffer smaller than batch * INPUT_SIZE");
        encode_into(pos, reps, chunk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn at(planes: &[f32], p: usize, c: Cell) -> f32 {
        planes[p * CELLS + c.index()]
    }

    fn cell(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn frames_point_pawns_forward_and_up() {
        for rs in Ruleset::ALL {
            for side in Color::ALL {
                let f = Frame::of(rs, side);
                let (fwd, up) = pawn_deltas(pawn_class(rs, side));
                assert_eq!(f.vector((up, fwd, 0)), (1, 1, 0), "{rs} {side:?}");
                for c in Cell::all() {
                    assert_eq!(f.cell(f.cell(c)), c);
                }
            }
        }
    }

    #[test]
    fn fiveup_start_looks_the_same_to_both_sides() {
        let white = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let mut s = white.to_setup();
        s.side = Color::Black;
        let black = Position::from_setup(s).unwrap();
        let w = encode(&white, 0);
        let b = encode(&black, 0);
        // Everything but the colour plane agrees: black's setup is white's turned about the file axis.
        assert_eq!(&w[..PLANE_BLACK * CELLS], &b[..PLANE_BLACK * CELLS]);
        assert_eq!(at(&b, PLANE_BLACK, cell("Cc3")), 1.0);
        // White's frame reflects the layer: E2 pawns sit on frame layer A, rank 2.
        assert_eq!(Frame::of(Ruleset::FiveUp, Color::White).cell(cell("Ec2")), cell("Ac2"));
        assert_eq!(at(&w, Kind::Pawn.index(), cell("Ac2")), 1.0);
        assert_eq!(at(&w, Kind::King.index(), cell("Ac1")), 1.0);
        assert_eq!(at(&w, PLANE_THEIR_PIECES + Kind::King.index(), cell("Ec5")), 1.0);
    }

    #[test]
    fn constant_planes() {
        let p = Position::startpos(Variant::new(Ruleset::FiveUp, true, false).unwrap());
        let e = encode(&p, 1);
        for c in Cell::all() {
            assert_eq!(at(&e, PLANE_OWN_RESERVE, c), 1.0);
            assert_eq!(at(&e, PLANE_THEIR_RESERVE + 2, c), 1.0);
            assert_eq!(at(&e, PLANE_REPETITION, c), 1.0);
            assert_eq!(at(&e, PLANE_REPETITION + 1, c), 0.0);
            assert_eq!(at(&e, PLANE_RULESET, c), 1.0);
            assert_eq!(at(&e, PLANE_RULESET + 2, c), 0.0);
            assert_eq!(at(&e, PLANE_CASTLING, c), 1.0);
            assert_eq!(at(&e, PLANE_HYPERCYLINDER, c), 0.0);
            assert_eq!(at(&e, PLANE_BLACK, c), 0.0);
            assert_eq!(at(&e, PLANE_ONES, c), 1.0);
        }
        // Ten non-pawn pieces per side hold placement rights at the start.
        let own_rights: f32 = e[PLANE_OWN_RIGHTS * CELLS..(PLANE_OWN_RIGHTS + 1) * CELLS].iter().sum();
        assert_eq!(own_rights, 10.0);
        let r = encode(&Position::startpos(Variant::plain(Ruleset::Raumschach)), 0);
        assert_eq!(at(&r, PLANE_RULESET + 2, cell("Cc3")), 1.0);
        assert_eq!(at(&r, Kind::King.index(), cell("Ac1")), 1.0);
        let own_rights: f32 = r[PLANE_OWN_RIGHTS * CELLS..(PLANE_OWN_RIGHTS + 1) * CELLS].iter().sum();
        assert_eq!(own_rights, 0.0);
    }

    #[test]
    fn en_passant_and_void_rights_planes() {
        use crate::rules::random::random_positions;
        let (mut ep_seen, mut void_seen) = (0, 0);
        let v = Variant::new(Ruleset::FiveUp, false, true).unwrap();
        for p in random_positions(v, 3, 40, 300) {
            let e = encode(&p, 0);
            let frame = Frame::of_position(&p);
            let ep_plane = &e[PLANE_EP * CELLS..(PLANE_EP + 1) * CELLS];
            if p.ep_capture_possible() {
                ep_seen += 1;
                for c in Bitboard(p.ep().passed) {
                    assert_eq!(ep_plane[frame.cell(c).index()], 1.0);
                }
                assert_eq!(ep_plane.iter().sum::<f32>(), Bitboard(p.ep().passed).count() as f32);
            } else {
                assert!(ep_plane.iter().all(|&x| x == 0.0));
            }
            let us = p.side();
            if p.reserve(us) == 0 && (p.rights() & p.color_bb(us)).nonempty() {
                void_seen += 1;
                assert!(e[PLANE_OWN_RIGHTS * CELLS..(PLANE_OWN_RIGHTS + 1) * CELLS].iter().all(|&x| x == 0.0));
            }
        }
        assert!(ep_seen > 0 && void_seen > 0, "ep {ep_seen} void {void_seen}");
    }

    #[test]
    fn batch_matches_single() {
        let a = Position::startpos(Variant::plain(Ruleset::FiveUp2001));
        let b = a.after(a.legal_moves()[3]);
        let mut buf = vec![7.0; 3 * INPUT_SIZE];
        encode_batch([(&a, 0), (&b, 2)], &mut buf);
        assert_eq!(&buf[..INPUT_SIZE], &encode(&a, 0)[..]);
        assert_eq!(&buf[INPUT_SIZE..2 * INPUT_SIZE], &encode(&b, 2)[..]);
        assert!(buf[2 * INPUT_SIZE..].iter().all(|&x| x == 7.0));
    }
}
