//! The inputs of a position: the feature set of the 125-cell board per perspective, the king
//! buckets, the cell bytes an accumulator keeps ([`Inputs`]) and the cells a move touches.

use super::accumulator::reserve_diff;
use crate::game::Color;
use crate::rules::position::piece_code;
use crate::rules::{Cell, Kind, Move, Position, Ruleset, Special};

/// Cells on the board.
pub const CELLS: usize = 125;
/// Piece slots per side.
pub const SLOTS: usize = 10;
/// First reserve input.
pub const RESERVE_BASE: usize = 2 * SLOTS * CELLS;
/// First placement-right input.
pub const RIGHTS_BASE: usize = RESERVE_BASE + 6;
/// Inputs per perspective (per king bucket).
pub const INPUTS: usize = RIGHTS_BASE + 2 * CELLS;
/// King buckets of a network that has them ([`Dims::kings`]; the other choice is 1, none).
///
/// [`Dims::kings`]: super::Dims::kings
pub const KING_BUCKETS: usize = 4;

/// The king bucket of a king on `cell` as its own side sees it (an [`orient`]ed index), in a
/// network of `kings` buckets (1 or [`KING_BUCKETS`]; see the module docs): 0 on the king's start
/// cell; 1 elsewhere on the two back ranks of the two home levels; 2 elsewhere on the three home
/// levels; 3 on the two far levels. Home is level A in Raumschach and level E in Five Up (where
/// each side's king starts in its own view).
pub const fn king_bucket(ruleset: Ruleset, kings: usize, cell: usize) -> usize {
    if kings == 1 {
        return 0;
    }
    let (level, rank, file) = (cell / 25, cell / 5 % 5, cell % 5);
    let depth = match ruleset {
        Ruleset::Raumschach => level,
        Ruleset::FiveUp | Ruleset::FiveUp2001 => 4 - level,
    };
    if depth == 0 && rank == 0 && file == 2 {
        0
    } else if depth <= 1 && rank <= 1 {
        1
    } else if depth <= 2 {
        2
    } else {
        3
    }
}

/// The king bucket of `perspective`'s king in `pos` ([`king_bucket`]).
pub fn king_bucket_of(pos: &Position, perspective: Color, kings: usize) -> usize {
    king_bucket(pos.ruleset(), kings, orient(pos.ruleset(), perspective, pos.king(perspective)))
}

/// The slot of a kind (both unicorns share one).
pub const fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Pawn => 0,
        Kind::Knight => 1,
        Kind::Bishop => 2,
        Kind::Rook => 3,
        Kind::Queen => 4,
        Kind::King => 5,
        Kind::Unicorn | Kind::RUnicorn => 6,
        Kind::Silver => 7,
        Kind::Wizard => 8,
        Kind::Guard => 9,
    }
}

/// A cell as `perspective` sees it in `ruleset` (see the module docs for black's view).
pub const fn orient(ruleset: Ruleset, perspective: Color, cell: Cell) -> usize {
    match (perspective, ruleset) {
        (Color::White, _) => cell.index(),
        (Color::Black, Ruleset::Raumschach) => cell.rotate().index(),
        (Color::Black, _) => ((4 - cell.layer()) * 25 + (4 - cell.rank()) * 5 + cell.file()) as usize,
    }
}

/// Boards behind the inputs: per side its ten piece slots, then its cells with placement rights.
const BOARDS: usize = 2 * (SLOTS + 1);

/// The board's 125 cells as bits (a mask of touched cells keeps only these).
const BOARD: u128 = (1 << CELLS) - 1;

/// "Any cell may have changed": the `touched` argument of [`Accumulator::update_cached`] when
/// the moves in between are not known (every cell's byte is compared).
///
/// [`Accumulator::update_cached`]: super::Accumulator::update_cached
pub const ANY_CELL: u128 = u128::MAX;

/// The cells whose inputs move `m` can change: its from and to cells (a capture, a promotion, a
/// placement onto the from cell, a castling's king and rook, and every placement right the move
/// takes or gives stand there), or [`ANY_CELL`] for an en passant capture (the captured pawn
/// stands on neither; rare enough to compare every cell).
#[inline]
pub fn touched_cells(m: Move) -> u128 {
    match m.special() {
        Special::EnPassant => ANY_CELL,
        _ => 1 << m.from().index() | 1 << m.to().index(),
    }
}

/// Marks a cell code of [`Inputs`] whose piece still has its placement right.
const RIGHT: u8 = 0x80;

/// What the inputs of both perspectives are made of: per cell one byte, the position's code of
/// the piece standing there ([`Position::cell_codes`], 0 when empty) with [`RIGHT`] set when the
/// piece still has its placement right, and the reserve masks. Two positions' inputs differ
/// exactly on the cells whose bytes differ (and in the reserve), so an update reads the cells the
/// moves touched ([`touched_cells`]), or, not knowing the moves, compares the 128
/// bytes (16 at a time) and touches only the cells that changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Cell codes, eight to a word (cell `8k + i` in byte `i` of word `k`, little-endian), padded
    /// with zeros to 128 cells.
    pub(super) cells: [u64; 16],
    /// Reserve masks (W = 1, G = 2, S = 4) of white and black.
    pub(super) reserve: [u8; 2],
    /// The kings' cells, white's and black's (the king buckets).
    pub(super) kings: [u8; 2],
}

impl Default for Inputs {
    /// An empty board, nothing in reserve.
    fn default() -> Inputs {
        Inputs { cells: [0; 16], reserve: [0; 2], kings: [0; 2] }
    }
}

/// Bit 7 of each byte of `w` that is not zero, the other bits clear (its low bits carry into
/// bit 7 without reaching the next byte, or bit 7 was set already).
#[inline]
pub(super) fn nonzero_bytes(w: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    (((w & LOW) + LOW) | w) & !LOW
}

/// Per byte `b`, the word with [`RIGHT`] in byte `i` for each bit `i` of `b` (eight cells' rights
/// into their codes at once).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b] |= (RIGHT as u64) << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Per cell code of [`Inputs`] (without [`RIGHT`]), the board of the piece ([`BOARD_BASE`]'s
/// order: white's ten slots, white's rights, black's ten slots, black's rights), or `u8::MAX`
/// for a code no piece has.
const CODE_BOARD: [u8; 128] = {
    let mut t = [u8::MAX; 128];
    let mut color = 0;
    while color < 2 {
        let mut k = 0;
        while k < Kind::ALL.len() {
            let side = if color == 0 { Color::White } else { Color::Black };
            let kind = Kind::ALL[k];
            t[piece_code(crate::rules::Piece::new(side, kind)) as usize] = (color * (SLOTS + 1) + slot(kind)) as u8;
            k += 1;
        }
        color += 1;
    }
    t
};

impl Inputs {
    /// The inputs of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Inputs {
        let mut bytes = [0u8; 128];
        bytes[..CELLS].copy_from_slice(pos.cell_codes());
        // Rights stand on occupied cells only (the rules core clears them with the piece).
        let rights = pos.rights().0 & pos.occupied().0;
        let mut cells = [0u64; 16];
        for (k, (w, b)) in cells.iter_mut().zip(bytes.chunks_exact(8)).enumerate() {
            // Each right bit of the eight cells to bit 7 of its byte.
            *w = u64::from_le_bytes(b.try_into().expect("8 bytes")) | SPREAD[(rights >> (8 * k)) as usize & 0xff];
        }
        Inputs {
            cells,
            reserve: [pos.reserve(Color::White) & 7, pos.reserve(Color::Black) & 7],
            kings: [pos.king(Color::White).index() as u8, pos.king(Color::Black).index() as u8],
        }
    }

    /// Brings these inputs to `pos` by reading anew the cells of `touched` (which must hold
    /// every cell whose byte differs: the cells of the moves made since, [`touched_cells`]) and
    /// the reserves (the kings must be `pos`'s already), calling `f(perspective, input, added)`
    /// for every input that went away or appeared, as [`diff`] does, each perspective's counted
    /// from `offsets`. Returns how many calls were made.
    #[inline]
    pub(super) fn rewrite(
        &mut self,
        pos: &Position,
        touched: u128,
        offsets: [u16; 2],
        mut f: impl FnMut(usize, u16, bool),
    ) -> usize {
        let rs = pos.ruleset();
        let views = [view(rs, Color::White), view(rs, Color::Black)];
        let (codes, rights) = (pos.cell_codes(), pos.rights().0);
        let mut changed = 0;
        let mut t = touched & BOARD;
        while t != 0 {
            let c = t.trailing_zeros() as usize;
            t &= t - 1;
            let code = codes[c];
            // Rights stand on occupied cells only, as in `Inputs::of`.
            let is = if code != 0 && rights >> c & 1 != 0 { code | RIGHT } else { code };
            let (k, shift) = (c / 8, 8 * (c % 8));
            let was = (self.cells[k] >> shift) as u8;
            if was != is {
                self.cells[k] = self.cells[k] & !(0xff << shift) | (is as u64) << shift;
                changed += Inputs::cell_change(views, offsets, c, was, is, &mut f);
            }
        }
        let reserve = [pos.reserve(Color::White) & 7, pos.reserve(Color::Black) & 7];
        changed += reserve_diff(self.reserve, reserve, offsets, f);
        self.reserve = reserve;
        changed
    }

    /// Men on the board (cells with a code).
    #[inline]
    pub(super) fn men(&self) -> usize {
        self.cells.iter().map(|&w| nonzero_bytes(w).count_ones() as usize).sum()
    }

    /// The code of cell `c`.
    #[inline]
    pub(super) fn code(&self, c: usize) -> u8 {
        (self.cells[c / 8] >> (8 * (c % 8))) as u8
    }

    /// The first input of each perspective's king bucket (`bucket × INPUTS`; 0 without king
    /// buckets), in a network of `kings` buckets.
    #[inline]
    pub(super) fn offsets(&self, ruleset: Ruleset, kings: usize) -> [u16; 2] {
        if kings == 1 {
            return [0; 2];
        }
        let views = [view(ruleset, Color::White), view(ruleset, Color::Black)];
        [0, 1].map(|p| (king_bucket(ruleset, kings, views[p][self.kings[p] as usize] as usize) * INPUTS) as u16)
    }

    /// Calls `f(perspective, input)` for the inputs of cell `c` holding `code` (none when empty),
    /// each perspective's counted from its king bucket's first input (`offsets`).
    #[inline]
    fn cell_inputs(views: [&[u8; CELLS]; 2], offsets: [u16; 2], c: usize, code: u8, mut f: impl FnMut(usize, u16)) {
        if code == 0 {
            return;
        }
        let b = CODE_BOARD[(code & !RIGHT) as usize] as usize;
        debug_assert!(b < BOARDS, "cell code {code} of no piece");
        for p in 0..2 {
            let cell = views[p][c] as u16 + offsets[p];
            f(p, BOARD_BASE[b][p] + cell);
            if code & RIGHT != 0 {
                // The side's rights board follows its ten slots.
                f(p, BOARD_BASE[b - b % (SLOTS + 1) + SLOTS][p] + cell);
            }
        }
    }

    /// Calls `f(perspective, input, added)` for the inputs of cell `c` that go away when its code
    /// changes from `was` (`added` false), then for those that appear with `is` (`added` true);
    /// returns how many calls were made.
    #[inline(always)]
    pub(super) fn cell_change(
        views: [&[u8; CELLS]; 2],
        offsets: [u16; 2],
        c: usize,
        was: u8,
        is: u8,
        mut f: impl FnMut(usize, u16, bool),
    ) -> usize {
        let mut changed = 0;
        Inputs::cell_inputs(views, offsets, c, was, |p, i| {
            f(p, i, false);
            changed += 1;
        });
        Inputs::cell_inputs(views, offsets, c, is, |p, i| {
            f(p, i, true);
            changed += 1;
        });
        changed
    }

    /// Calls `f(perspective, input)` for every active input of both perspectives, counted from
    /// each perspective's `offsets`.
    pub(super) fn for_each(&self, ruleset: Ruleset, offsets: [u16; 2], mut f: impl FnMut(usize, u16)) {
        let views = [view(ruleset, Color::White), view(ruleset, Color::Black)];
        for c in 0..CELLS {
            Inputs::cell_inputs(views, offsets, c, self.code(c), &mut f);
        }
        for side in Color::ALL {
            for i in 0..3 {
                if self.reserve[side.index()] & (1 << i) != 0 {
                    for p in Color::ALL {
                        f(p.index(), reserve_input(p, side, i) + offsets[p.index()]);
                    }
                }
            }
        }
    }
}

/// Per board ([`Inputs`]' order) and perspective, the input of its cell 0 (the board's block
/// of 125 inputs).
const BOARD_BASE: [[u16; 2]; BOARDS] = {
    let mut t = [[0u16; 2]; BOARDS];
    let mut b = 0;
    while b < BOARDS {
        let white = b <= SLOTS;
        let k = b % (SLOTS + 1);
        let mut p = 0;
        while p < 2 {
            let their = (white != (p == 0)) as usize;
            t[b][p] = (if k == SLOTS { RIGHTS_BASE + their * CELLS } else { (their * SLOTS + k) * CELLS }) as u16;
            p += 1;
        }
        b += 1;
    }
    t
};

/// [`orient`] as tables: white's view, black's in Five Up (both editions) and in Raumschach.
const VIEWS: [[u8; CELLS]; 3] = {
    let mut t = [[0u8; CELLS]; 3];
    let mut i = 0;
    while i < CELLS {
        let c = Cell::new_unchecked(i as u8);
        t[0][i] = orient(Ruleset::FiveUp, Color::White, c) as u8;
        t[1][i] = orient(Ruleset::FiveUp, Color::Black, c) as u8;
        t[2][i] = orient(Ruleset::Raumschach, Color::Black, c) as u8;
        i += 1;
    }
    t
};

/// The table of [`orient`] for `perspective` in `ruleset`.
#[inline]
pub(super) fn view(ruleset: Ruleset, perspective: Color) -> &'static [u8; CELLS] {
    match (perspective, ruleset) {
        (Color::White, _) => &VIEWS[0],
        (Color::Black, Ruleset::Raumschach) => &VIEWS[2],
        (Color::Black, _) => &VIEWS[1],
    }
}

/// The input of reserve piece `i` (W, G, S) of `side` seen from `perspective`.
#[inline]
pub(super) fn reserve_input(perspective: Color, side: Color, i: usize) -> u16 {
    (RESERVE_BASE + usize::from(side != perspective) * 3 + i) as u16
}

/// Checked at compile time: every input of a cell ([`BOARD_BASE`] plus a cell of [`VIEWS`]) and
/// of the reserves lies below [`INPUTS`], so the inputs of a king bucket lie in its block of
/// `INPUTS` (what lets [`rows_lie_in`] bound the rows by the buckets' offsets alone).
pub(super) const TABLES_WITHIN_INPUTS: () = {
    let mut b = 0;
    while b < BOARDS {
        assert!(BOARD_BASE[b][0] as usize + CELLS <= INPUTS && BOARD_BASE[b][1] as usize + CELLS <= INPUTS);
        b += 1;
    }
    let mut v = 0;
    while v < VIEWS.len() {
        let mut c = 0;
        while c < CELLS {
            assert!((VIEWS[v][c] as usize) < CELLS);
            c += 1;
        }
        v += 1;
    }
    assert!(RESERVE_BASE + 6 <= INPUTS);
};
const _: () = TABLES_WITHIN_INPUTS;

/// The active inputs of `pos` from `perspective`, sorted, without king buckets (the trainer
/// adds `bucket × INPUTS`, [`king_bucket_of`]).
pub fn active_features(pos: &Position, perspective: Color) -> Vec<u16> {
    let mut out = Vec::with_capacity(128);
    Inputs::of(pos).for_each(pos.ruleset(), [0; 2], |p, f| {
        if p == perspective.index() {
            out.push(f)
        }
    });
    out.sort_unstable();
    out
}
