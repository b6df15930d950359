//! A deliberately naive reference implementation of docs/RULES.md, for testing the core only.
//!
//! Nothing here uses the core's tables, attack functions, move type or cell names: the board is a
//! mailbox `[Option<Piece>; 125]` addressed by (layer, rank, file), direction lists and leaps are
//! written out from docs/RULES.md §1, every piece's motion is spelled out per ruleset, and legality is
//! "make the move on a copy, then scan every enemy piece to see whether it could capture the king".
//! Only the plain data types (`Piece`, `Color`, `Kind`, `Ruleset`, `Variant`, `Setup`) are shared,
//! to convert positions to and from the core.

use fiveup::game::Color;
use fiveup::rules::position::EnPassant;
use fiveup::rules::{Bitboard, Kind, Piece, Ruleset, Setup, Variant};
use std::collections::BTreeSet;

/// A step or leap vector (layer, rank, file).
pub type V = (i32, i32, i32);

/// The 6 orthogonal steps.
pub const ORTHOGONAL: [V; 6] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)];

/// The 12 2D-diagonal steps (two non-zero components).
pub const DIAGONAL_2D: [V; 12] = [
    (1, 1, 0),
    (1, -1, 0),
    (-1, 1, 0),
    (-1, -1, 0),
    (1, 0, 1),
    (1, 0, -1),
    (-1, 0, 1),
    (-1, 0, -1),
    (0, 1, 1),
    (0, 1, -1),
    (0, -1, 1),
    (0, -1, -1),
];

/// The 8 3D-diagonal steps (three non-zero components).
pub const DIAGONAL_3D: [V; 8] =
    [(1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1)];

/// Every vector in -2..=2 whose sorted absolute components equal `shape`.
fn leaps(shape: [i32; 3]) -> Vec<V> {
    let mut out = Vec::new();
    for a in -2..=2 {
        for b in -2..=2 {
            for c in -2..=2 {
                let mut s = [i32::abs(a), i32::abs(b), i32::abs(c)];
                s.sort();
                if s == shape {
                    out.push((a, b, c));
                }
            }
        }
    }
    out
}

/// Knight leaps (permutations of (0, ±1, ±2)) and Five Up unicorn leaps (of (±1, ±1, ±2)).
pub fn leap_lists() -> (&'static [V], &'static [V]) {
    static LISTS: std::sync::OnceLock<(Vec<V>, Vec<V>)> = std::sync::OnceLock::new();
    let (k, u) = LISTS.get_or_init(|| (leaps([0, 1, 2]), leaps([1, 1, 2])));
    assert!(k.len() == 24 && u.len() == 24);
    (k, u)
}

/// Cell index of (layer, rank, file); the core's documented convention, checked by comparing names.
pub fn idx(layer: i32, rank: i32, file: i32) -> usize {
    (layer * 25 + rank * 5 + file) as usize
}

/// (layer, rank, file) of a cell index.
pub fn coords(i: usize) -> (i32, i32, i32) {
    let i = i as i32;
    (i / 25, (i / 5) % 5, i % 5)
}

/// The name of a cell: layer letter, file letter, rank digit (`Cc3`).
pub fn name(i: usize) -> String {
    let (l, r, f) = coords(i);
    format!("{}{}{}", (b'A' + l as u8) as char, (b'a' + f as u8) as char, r + 1)
}

/// Parses a cell name.
pub fn parse_cell(s: &str) -> usize {
    let b = s.as_bytes();
    assert_eq!(b.len(), 3, "cell name {s}");
    let (l, f, r) = ((b[0] - b'A') as i32, (b[1] - b'a') as i32, (b[2] - b'1') as i32);
    assert!((0..5).contains(&l) && (0..5).contains(&f) && (0..5).contains(&r), "cell name {s}");
    idx(l, r, f)
}

/// The letter of a piece kind in move text.
pub fn letter(k: Kind) -> char {
    match k {
        Kind::Pawn => 'P',
        Kind::Knight => 'N',
        Kind::Bishop => 'B',
        Kind::Rook => 'R',
        Kind::Queen => 'Q',
        Kind::King => 'K',
        Kind::Unicorn | Kind::RUnicorn => 'U',
        Kind::Silver => 'S',
        Kind::Wizard => 'W',
        Kind::Guard => 'G',
    }
}

/// What sort of move a reference move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RKind {
    /// Ordinary move or capture (promotion and placement included).
    Normal,
    /// Pawn double move.
    Double,
    /// En passant capture.
    EnPassant,
    /// Castling (king cell to rook cell).
    Castle,
}

/// A reference move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RMove {
    /// Origin.
    pub from: usize,
    /// Destination (the rook's cell for castling).
    pub to: usize,
    /// Promotion kind.
    pub promo: Option<Kind>,
    /// Reserve piece placed on the origin.
    pub place: Option<Kind>,
    /// Sort of move.
    pub kind: RKind,
}

impl RMove {
    /// Coordinate text, as docs/RULES.md §6 writes it.
    pub fn text(&self) -> String {
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(k) = self.promo {
            s.push('=');
            s.push(letter(k));
        }
        if let Some(k) = self.place {
            s.push('/');
            s.push(letter(k));
        }
        s
    }
}

/// Reserve bit of a reserve kind (W = 1, G = 2, S = 4).
fn bit(k: Kind) -> u8 {
    match k {
        Kind::Wizard => 1,
        Kind::Guard => 2,
        Kind::Silver => 4,
        _ => panic!("not a reserve kind"),
    }
}

/// A naive position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    /// Ruleset and flags.
    pub variant: Variant,
    /// Mailbox.
    pub board: [Option<Piece>; 125],
    /// Side to move.
    pub side: Color,
    /// Reserve masks (W = 1, G = 2, S = 4).
    pub reserve: [u8; 2],
    /// Placement rights per cell.
    pub rights: [bool; 125],
    /// En passant passed cells (empty when none).
    pub ep_passed: Vec<usize>,
    /// The double-moved pawn's cell.
    pub ep_pawn: usize,
}

/// What a piece could do on one cell it reaches.
#[derive(Clone, Copy)]
struct Reach {
    cell: usize,
    can_move: bool,
    can_capture: bool,
}

impl RefPos {
    /// Converts an unchecked core setup.
    pub fn from_setup(s: &Setup) -> RefPos {
        let mut rights = [false; 125];
        for (i, r) in rights.iter_mut().enumerate() {
            *r = s.rights.0 >> i & 1 != 0;
        }
        let ep_passed: Vec<usize> = (0..125).filter(|&i| s.ep.passed >> i & 1 != 0).collect();
        RefPos {
            variant: s.variant,
            board: s.board,
            side: s.side,
            reserve: s.reserve,
            rights,
            ep_pawn: if ep_passed.is_empty() { 0 } else { s.ep.pawn as usize },
            ep_passed,
        }
    }

    /// Converts to a core setup (clocks 0 and 1).
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty(self.variant);
        s.board = self.board;
        s.side = self.side;
        s.reserve = self.reserve;
        let mut r = 0u128;
        for i in 0..125 {
            if self.rights[i] {
                r |= 1 << i;
            }
        }
        s.rights = Bitboard(r);
        let passed = self.ep_passed.iter().fold(0u128, |a, &c| a | 1 << c);
        s.ep = if passed == 0 { EnPassant::default() } else { EnPassant { passed, pawn: self.ep_pawn as u8 } };
        s
    }

    fn ruleset(&self) -> Ruleset {
        self.variant.ruleset
    }

    fn fiveup(&self) -> bool {
        self.ruleset() != Ruleset::Raumschach
    }

    /// One step from `c` by `v`, wrapping files on the hypercylinder.
    pub fn step(&self, c: usize, v: V) -> Option<usize> {
        let (l, r, f) = coords(c);
        let (l, r, mut f) = (l + v.0, r + v.1, f + v.2);
        if self.variant.hypercylinder {
            f = f.rem_euclid(5);
        }
        if (0..5).contains(&l) && (0..5).contains(&r) && (0..5).contains(&f) {
            Some(idx(l, r, f))
        } else {
            None
        }
    }

    /// Forward and up vectors of a colour's pawns.
    pub fn pawn_dirs(&self, color: Color) -> (V, V) {
        let (fwd, up) = match (self.fiveup(), color) {
            (true, Color::White) => (1, -1),
            (true, Color::Black) => (-1, 1),
            (false, Color::White) => (1, 1),
            (false, Color::Black) => (-1, -1),
        };
        ((0, fwd, 0), (up, 0, 0))
    }

    /// Whether a cell is on the colour's promotion row.
    pub fn promotion_cell(&self, color: Color, c: usize) -> bool {
        let (l, r, _) = coords(c);
        match (self.fiveup(), color) {
            (true, Color::White) => l == 0 && r == 4,
            (true, Color::Black) => l == 4 && r == 0,
            (false, Color::White) => l == 4 && r == 4,
            (false, Color::Black) => l == 0 && r == 0,
        }
    }

    fn promotion_kinds(&self) -> Vec<Kind> {
        if self.fiveup() {
            vec![
                Kind::Queen,
                Kind::Rook,
                Kind::Bishop,
                Kind::Knight,
                Kind::Unicorn,
                Kind::Silver,
                Kind::Wizard,
                Kind::Guard,
            ]
        } else {
            vec![Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::RUnicorn]
        }
    }

    /// Calls `f(cell, can_move, can_capture)` for the cells along `v` from `c`: up to 4 steps,
    /// stopping on the first occupied cell (included). Returns true when `f` asked to stop.
    fn slide(&self, c: usize, v: V, f: &mut impl FnMut(usize, bool, bool) -> bool) -> bool {
        let mut cur = c;
        for _ in 0..4 {
            let Some(n) = self.step(cur, v) else {
                return false;
            };
            if f(n, true, true) {
                return true;
            }
            if self.board[n].is_some() {
                return false;
            }
            cur = n;
        }
        false
    }

    fn jump(&self, c: usize, vs: &[V], mv: bool, cap: bool, f: &mut impl FnMut(usize, bool, bool) -> bool) -> bool {
        vs.iter().any(|&v| self.step(c, v).is_some_and(|n| f(n, mv, cap)))
    }

    fn slides(&self, c: usize, vs: &[V], f: &mut impl FnMut(usize, bool, bool) -> bool) -> bool {
        vs.iter().any(|&v| self.slide(c, v, f))
    }

    /// Calls `f(cell, can_move, can_capture)` for everything the piece on `c` could reach by an
    /// ordinary move or capture (no double moves, en passant or castling); a cell may come more
    /// than once on the hypercylinder. Stops (returning true) as soon as `f` returns true.
    fn each_reach(&self, c: usize, f: &mut impl FnMut(usize, bool, bool) -> bool) -> bool {
        let p = self.board[c].expect("a piece");
        let (knight, unicorn) = leap_lists();
        match p.kind {
            Kind::Pawn => {
                let (fwd, up) = self.pawn_dirs(p.color);
                let caps = [(0, fwd.1, 1), (0, fwd.1, -1), (up.0, 0, 1), (up.0, 0, -1), (up.0, fwd.1, 0)];
                self.jump(c, &[fwd, up], true, false, f) || self.jump(c, &caps, false, true, f)
            }
            Kind::Knight => self.jump(c, knight, true, true, f),
            Kind::Bishop => self.slides(c, &DIAGONAL_2D, f),
            Kind::Rook => self.slides(c, &ORTHOGONAL, f),
            Kind::Queen => {
                self.slides(c, &ORTHOGONAL, f)
                    || self.slides(c, &DIAGONAL_2D, f)
                    || (!self.fiveup() && self.slides(c, &DIAGONAL_3D, f))
            }
            Kind::King if self.fiveup() => {
                self.jump(c, &ORTHOGONAL, true, true, f) || self.jump(c, &DIAGONAL_3D, false, true, f)
            }
            Kind::King | Kind::Guard => {
                self.jump(c, &ORTHOGONAL, true, true, f)
                    || self.jump(c, &DIAGONAL_2D, true, true, f)
                    || self.jump(c, &DIAGONAL_3D, true, true, f)
            }
            Kind::Unicorn => self.jump(c, unicorn, true, true, f),
            Kind::Silver => self.jump(c, unicorn, true, true, f) || self.slides(c, &DIAGONAL_3D, f),
            Kind::Wizard => self.slides(c, &DIAGONAL_2D, f) || self.slides(c, &DIAGONAL_3D, f),
            Kind::RUnicorn => self.slides(c, &DIAGONAL_3D, f),
        }
    }

    /// Everything the piece on `c` could reach, as a list.
    fn reach(&self, c: usize) -> Vec<Reach> {
        let mut out = Vec::new();
        self.each_reach(c, &mut |cell, can_move, can_capture| {
            out.push(Reach { cell, can_move, can_capture });
            false
        });
        out
    }

    /// Whether any piece of `by` could capture on `target` (docs/RULES.md §2 "attacked").
    pub fn attacked(&self, target: usize, by: Color) -> bool {
        (0..125).any(|c| {
            matches!(self.board[c], Some(p) if p.color == by)
                && self.each_reach(c, &mut |cell, _, cap| cell == target && cap)
        })
    }

    /// The cell of a side's king.
    pub fn king(&self, color: Color) -> usize {
        (0..125).find(|&c| self.board[c] == Some(Piece::new(color, Kind::King))).expect("a king")
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.side), self.side.flip())
    }

    /// Every candidate move before the king-safety test (castling conditions included).
    pub fn pseudo_moves(&self) -> Vec<RMove> {
        let us = self.side;
        let mut out = Vec::new();
        let normal = |from, to| RMove { from, to, promo: None, place: None, kind: RKind::Normal };
        for from in 0..125 {
            let Some(p) = self.board[from] else { continue };
            if p.color != us {
                continue;
            }
            let mut seen = BTreeSet::new();
            for r in self.reach(from) {
                let ok = match self.board[r.cell] {
                    None => r.can_move,
                    Some(q) => q.color != us && r.can_capture,
                };
                // On the hypercylinder a target reachable along two paths is one move.
                if !ok || !seen.insert(r.cell) {
                    continue;
                }
                if p.kind == Kind::Pawn && self.promotion_cell(us, r.cell) {
                    for k in self.promotion_kinds() {
                        out.push(RMove { promo: Some(k), ..normal(from, r.cell) });
                    }
                    continue;
                }
                out.push(normal(from, r.cell));
                if p.kind != Kind::Pawn && self.rights[from] {
                    for k in [Kind::Wizard, Kind::Guard, Kind::Silver] {
                        if self.reserve[us as usize] & bit(k) != 0 {
                            out.push(RMove { place: Some(k), ..normal(from, r.cell) });
                        }
                    }
                }
            }
            if p.kind == Kind::Pawn && self.ruleset() == Ruleset::FiveUp {
                self.double_moves(from, &mut out);
            }
        }
        // En passant: a pawn attacking a passed cell moves there and takes the double-moved pawn.
        for &passed in &self.ep_passed {
            for from in 0..125 {
                if self.board[from] == Some(Piece::new(us, Kind::Pawn))
                    && self.reach(from).iter().any(|r| r.cell == passed && r.can_capture)
                {
                    out.push(RMove { kind: RKind::EnPassant, ..normal(from, passed) });
                }
            }
        }
        if self.variant.castling && !self.variant.hypercylinder && !self.in_check() {
            let k = self.king(us);
            for v in ORTHOGONAL {
                let mut between = Vec::new();
                let mut cur = k;
                while let Some(n) = self.step(cur, v) {
                    match self.board[n] {
                        None => between.push(n),
                        Some(q) => {
                            if q == Piece::new(us, Kind::Rook)
                                && between.iter().chain(&[n]).all(|&c| !self.attacked(c, us.flip()))
                            {
                                out.push(RMove { kind: RKind::Castle, ..normal(k, n) });
                            }
                            break;
                        }
                    }
                    cur = n;
                }
            }
        }
        out
    }

    /// Five Up double moves of the pawn on `from` (only from its side's outer start row).
    fn double_moves(&self, from: usize, out: &mut Vec<RMove>) {
        let us = self.side;
        let (l, r, _) = coords(from);
        let outer = match us {
            Color::White => l == 4 && r == 1,
            Color::Black => l == 0 && r == 3,
        };
        if !outer {
            return;
        }
        let (fwd, up) = self.pawn_dirs(us);
        let empty = |c: Option<usize>| c.is_some_and(|c| self.board[c].is_none());
        let dbl = |to| RMove { from, to, promo: None, place: None, kind: RKind::Double };
        for v in [fwd, up] {
            let mid = self.step(from, v);
            let to = mid.and_then(|m| self.step(m, v));
            if empty(mid) && empty(to) {
                out.push(dbl(to.unwrap()));
            }
        }
        let (a, b) = (self.step(from, fwd), self.step(from, up));
        let to = a.and_then(|a| self.step(a, up));
        if empty(to) && (empty(a) || empty(b)) {
            out.push(dbl(to.unwrap()));
        }
    }

    /// The position after `m` (no legality test).
    pub fn play(&self, m: &RMove) -> RefPos {
        let us = self.side;
        let mut p = self.clone();
        p.ep_passed.clear();
        p.ep_pawn = 0;
        match m.kind {
            RKind::Castle => {
                p.board.swap(m.from, m.to);
                p.rights[m.from] = false;
                p.rights[m.to] = false;
            }
            RKind::EnPassant => {
                p.board[m.to] = p.board[m.from].take();
                p.board[self.ep_pawn] = None;
            }
            RKind::Normal | RKind::Double => {
                let piece = p.board[m.from].take().expect("a piece to move");
                p.rights[m.to] = false;
                p.rights[m.from] = false;
                p.board[m.to] = Some(piece);
                if let Some(k) = m.promo {
                    p.board[m.to] = Some(Piece::new(us, k));
                    // A promoted piece counts as never moved (Five Up).
                    p.rights[m.to] = self.fiveup();
                }
                if let Some(k) = m.place {
                    assert!(self.rights[m.from] && self.reserve[us as usize] & bit(k) != 0);
                    p.board[m.from] = Some(Piece::new(us, k));
                    p.rights[m.from] = true;
                    p.reserve[us as usize] &= !bit(k);
                }
                if m.kind == RKind::Double {
                    let (fwd, up) = self.pawn_dirs(us);
                    let f1 = self.step(m.from, fwd);
                    let u1 = self.step(m.from, up);
                    let mut cands = Vec::new();
                    if f1.and_then(|c| self.step(c, fwd)) == Some(m.to) {
                        cands.push(f1.unwrap());
                    } else if u1.and_then(|c| self.step(c, up)) == Some(m.to) {
                        cands.push(u1.unwrap());
                    } else {
                        cands.extend([f1.unwrap(), u1.unwrap()]);
                    }
                    p.ep_passed = cands.into_iter().filter(|&c| p.board[c].is_none()).collect();
                    p.ep_passed.sort();
                    p.ep_pawn = m.to;
                }
            }
        }
        p.side = us.flip();
        p
    }

    /// Whether `m` leaves the mover's king unattacked.
    pub fn is_safe(&self, m: &RMove) -> bool {
        let after = self.play(m);
        !after.attacked(after.king(self.side), self.side.flip())
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<RMove> {
        self.pseudo_moves().into_iter().filter(|m| self.is_safe(m)).collect()
    }

    /// The legal moves as a set of coordinate texts.
    pub fn legal_texts(&self) -> BTreeSet<String> {
        self.legal_moves().iter().map(|m| m.text()).collect()
    }

    /// Naive perft.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
