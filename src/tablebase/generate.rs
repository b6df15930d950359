//! Building a table by retrograde analysis.
//!
//! 1. **Forward pass** (parallel): every entry is decoded; an entry that is no position (two men
//!    on a cell, the side not to move in check) or not its position's canonical entry is marked
//!    as such. For a position the moves of the side to move are generated with the pieces' own
//!    geometry (`rules::piece_attacks`): captures leave the table, and their values are read from
//!    the smaller tables (a capture of the last man is a draw by bare kings); the other moves stay
//!    in it, and the position remembers how many distinct positions they reach. Checkmate is a
//!    loss in 0 plies, stalemate a draw.
//! 2. **Backward pass**, ply by ply: a loss in `n` makes every predecessor (found by taking a
//!    quiet move back: the pieces' moves are symmetric) a win in `n + 1` unless it is already
//!    decided; a win in `n` takes one from each predecessor's count, and a predecessor whose count
//!    reaches zero, with no capture that draws or wins, is a loss in one more ply than its longest
//!    defence. Wins and losses through captures enter the same ply queues, so every distance is
//!    the shortest mate against the longest defence. What is left undecided is a draw.
//!
//! The tables ignore the fifty-move rule (distance to mate, as Nalimov's tables). Verification is
//! a separate pass over the rules core's own move generator (`super::verify`).

use super::index::{canonical_index, decode, entries};
use super::material::{Material, MAX_MEN};
use super::table::{Dtm, Layout, Shelf, Table, Values, DRAW, NONE};
use crate::game::Color;
use crate::progress::Progress;
use crate::rules::geometry::Geometry;
use crate::rules::{piece_attacks, piece_quiet_moves, Kind};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Working value: not decided yet.
const UNKNOWN: u16 = 0xFFFF;
/// Working value: no position, or not a canonical entry.
const ILLEGAL: u16 = 0xFFFE;
/// Working value: a stalemate (a decided draw).
const STALEMATE: u16 = 0xFFFD;
/// Working values below this are decided distances in plies.
const DECIDED: u16 = 0x4000;
/// A queued, not yet decided distance: `QUEUED | plies`.
const QUEUED: u16 = 0x8000;

/// Entries per forward-pass work unit.
const CHUNK: usize = 1 << 14;

/// Why a table could not be built.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A table that a capture leads to is not available.
    #[error("{material} needs the table {missing} first")]
    Missing {
        /// The table being built.
        material: String,
        /// The table it needs.
        missing: String,
    },
    /// The run was asked to stop.
    #[error("stopped")]
    Stopped,
    /// A mate longer than the working values can hold (never seen for 4 men).
    #[error("{0}: a mate longer than 16,000 plies")]
    TooLong(String),
}

/// What a capture of the man in one slot leads to.
#[derive(Clone)]
struct Exit {
    /// The table of the material left; `None` when only the kings are left (a draw).
    table: Option<Arc<Table>>,
    /// For each slot of that table, the slot of this table whose man stands there.
    order: Vec<usize>,
    /// Whether that table's white is this table's black.
    flip: bool,
}

/// The men of a table and how to read the tables its captures lead to.
pub struct Generator {
    geometry: &'static Geometry,
    fiveup: bool,
    material: Material,
    layout: Layout,
    /// Indexed by the captured slot.
    exits: Vec<Option<Exit>>,
}

/// A move's result: cells in slot order, and the captured slot if any.
type Child = ([u8; MAX_MEN], Option<usize>);

impl Generator {
    /// A generator for `material` (canonical), reading captures from `smaller` (which must hold
    /// every table of [`Material::captures`]).
    pub fn new(material: &Material, smaller: &Shelf) -> Result<Self, GenerateError> {
        let layout = Layout::of(material);
        let mut exits = vec![None; layout.men()];
        for (j, &(color, kind)) in layout.slots.iter().enumerate() {
            if kind == Kind::King {
                continue;
            }
            let mut w = material.white.clone();
            let mut b = material.black.clone();
            let side = if color == Color::White { &mut w } else { &mut b };
            let pos = side.iter().position(|&k| k == kind).expect("the slot's kind is in the material");
            side.remove(pos);
            let left = Material::new(material.family, w, b);
            let (canon, flip) = left.canonical();
            let table = if canon.bare_kings() {
                None
            } else {
                Some(smaller.get(&canon).cloned().ok_or_else(|| GenerateError::Missing {
                    material: material.to_string(),
                    missing: canon.to_string(),
                })?)
            };
            // Slots of the smaller table, filled from ours (kind by kind, in order).
            let sub = Layout::of(&canon);
            let mut used = vec![false; layout.men()];
            used[j] = true;
            let mut order = Vec::with_capacity(sub.men());
            for &(c, k) in &sub.slots {
                let ours = if flip { c.flip() } else { c };
                let s = (0..layout.men())
                    .find(|&s| !used[s] && layout.slots[s] == (ours, k))
                    .expect("the smaller material's men are ours");
                used[s] = true;
                order.push(s);
            }
            exits[j] = Some(Exit { table, order, flip });
        }
        Ok(Generator {
            geometry: Geometry::get(false),
            fiveup: material.family.is_fiveup(),
            material: material.clone(),
            layout,
            exits,
        })
    }

    fn men(&self) -> usize {
        self.layout.men()
    }

    /// Whether a man of `by` other than the one in slot `skip` attacks `target`.
    #[inline]
    fn attacked(&self, cells: &[u8], target: u8, by: Color, occ: u128, skip: usize) -> bool {
        self.layout.slots.iter().enumerate().any(|(k, &(c, kind))| {
            c == by
                && k != skip
                && piece_attacks(self.geometry, self.fiveup, kind, cells[k] as usize, occ) >> target & 1 == 1
        })
    }

    fn occupancy(cells: &[u8]) -> Option<u128> {
        let mut occ = 0u128;
        for &c in cells {
            let bit = 1u128 << c;
            if occ & bit != 0 {
                return None;
            }
            occ |= bit;
        }
        Some(occ)
    }

    /// Whether the men on `cells` with `side` to move form a position: no shared cell, the side
    /// not to move not in check.
    fn is_position(&self, cells: &[u8], side: Color) -> Option<u128> {
        let occ = Self::occupancy(cells)?;
        let their_king = cells[side.flip().index()];
        (!self.attacked(cells, their_king, side, occ, usize::MAX)).then_some(occ)
    }

    /// Calls `f` with every legal move's result of the side to move.
    fn moves(&self, cells: &[u8], side: Color, occ: u128, mut f: impl FnMut(Child)) {
        let n = self.men();
        let g = self.geometry;
        let their: u128 = (0..n).filter(|&k| self.layout.slots[k].0 != side).fold(0, |a, k| a | 1u128 << cells[k]);
        for i in 0..n {
            let (c, kind) = self.layout.slots[i];
            if c != side {
                continue;
            }
            let from = cells[i] as usize;
            let quiet = piece_quiet_moves(g, self.fiveup, kind, from, occ);
            let caps = piece_attacks(g, self.fiveup, kind, from, occ) & their;
            for (mut targets, capture) in [(quiet, false), (caps, true)] {
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    let mut next = [0u8; MAX_MEN];
                    next[..n].copy_from_slice(&cells[..n]);
                    next[i] = to;
                    let taken = if capture { (0..n).find(|&k| k != i && cells[k] == to) } else { None };
                    if taken.is_some_and(|k| self.layout.slots[k].1 == Kind::King) {
                        continue; // not in a legal position
                    }
                    let occ2 = (occ & !(1u128 << from)) | 1u128 << to;
                    let king = next[side.index()];
                    if self.attacked(&next[..n], king, side.flip(), occ2, taken.unwrap_or(usize::MAX)) {
                        continue;
                    }
                    f((next, taken));
                }
            }
        }
    }

    /// The value of a capture's result (for the side to move after it).
    fn exit_value(&self, child: &[u8], taken: usize, side_after: Color) -> Dtm {
        let exit = self.exits[taken].as_ref().expect("only men with exits are captured");
        let Some(table) = &exit.table else { return Dtm::Draw };
        let mut sub = [0u8; MAX_MEN];
        for (k, &s) in exit.order.iter().enumerate() {
            sub[k] = child[s];
        }
        let side = if exit.flip { side_after.flip() } else { side_after };
        table.probe_cells(&sub[..exit.order.len()], side).expect("a capture leads to a position")
    }

    #[inline]
    fn canonical(&self, cells: &[u8], side: Color) -> u64 {
        canonical_index(cells, &self.layout.same, side).0
    }

    /// Builds the table, reporting progress and stopping (with [`GenerateError::Stopped`]) when
    /// `stop` is set.
    pub fn run(&self, progress: Option<&Progress>, stop: &AtomicBool) -> Result<Table, GenerateError> {
        let n = self.men();
        let total = entries(n) as usize;
        let mut res = vec![UNKNOWN; total];
        let mut cnt = vec![0u8; total];
        // Bit 15: a capture draws; bits 0..15: 1 + the longest loss through a capture (0: none).
        let mut aux = vec![0u16; total];
        let name = self.material.to_string();

        // 1. Forward pass.
        let queued: Vec<Vec<(u16, u32)>> = res
            .par_chunks_mut(CHUNK)
            .zip(cnt.par_chunks_mut(CHUNK))
            .zip(aux.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(chunk, ((res, cnt), aux))| {
                let mut out = Vec::new();
                if stop.load(Ordering::Relaxed) {
                    return out;
                }
                let base = chunk * CHUNK;
                let mut cells = [0u8; MAX_MEN];
                let mut children: Vec<u64> = Vec::with_capacity(64);
                for k in 0..res.len() {
                    let i = (base + k) as u64;
                    let side = decode(i, &mut cells[..n]);
                    let Some(occ) = self.is_position(&cells[..n], side) else {
                        res[k] = ILLEGAL;
                        continue;
                    };
                    if self.canonical(&cells[..n], side) != i {
                        res[k] = ILLEGAL;
                        continue;
                    }
                    children.clear();
                    let mut any = false;
                    let mut best_exit: Option<Dtm> = None;
                    self.moves(&cells[..n], side, occ, |(next, taken)| {
                        any = true;
                        match taken {
                            None => children.push(self.canonical(&next[..n], side.flip())),
                            Some(j) => {
                                // The captured man's slot is left out by the exit's order.
                                let v = self.exit_value(&next[..n], j, side.flip()).parent();
                                if best_exit.is_none_or(|b| v.better_than(b)) {
                                    best_exit = Some(v);
                                }
                                if let Dtm::Loss(p) = v {
                                    let cur = aux[k] & 0x7FFF;
                                    aux[k] = (aux[k] & 0x8000) | cur.max(p + 1);
                                } else if v == Dtm::Draw {
                                    aux[k] |= 0x8000;
                                }
                            }
                        }
                    });
                    if !any {
                        let in_check = self.attacked(&cells[..n], cells[side.index()], side.flip(), occ, usize::MAX);
                        if in_check {
                            res[k] = QUEUED;
                            out.push((0, i as u32));
                        } else {
                            res[k] = STALEMATE;
                        }
                        continue;
                    }
                    children.sort_unstable();
                    children.dedup();
                    cnt[k] = children.len().min(255) as u8;
                    if let Some(Dtm::Win(p)) = best_exit {
                        res[k] = QUEUED | p;
                        out.push((p, i as u32));
                    } else if children.is_empty() && aux[k] & 0x8000 == 0 {
                        // Every move captures into a lost position: lost at the longest.
                        let p = (aux[k] & 0x7FFF) - 1;
                        res[k] = QUEUED | p;
                        out.push((p, i as u32));
                    }
                }
                if let Some(p) = progress {
                    p.inc(res.len() as u64);
                }
                out
            })
            .collect();
        if stop.load(Ordering::Relaxed) {
            return Err(GenerateError::Stopped);
        }
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        for (p, i) in queued.into_iter().flatten() {
            push(&mut buckets, p, i);
        }

        // 2. Backward pass.
        let mut cells = [0u8; MAX_MEN];
        let mut preds: Vec<u64> = Vec::with_capacity(128);
        let mut ply = 0usize;
        while ply < buckets.len() {
            if stop.load(Ordering::Relaxed) {
                return Err(GenerateError::Stopped);
            }
            let list = std::mem::take(&mut buckets[ply]);
            let p = ply as u16;
            if p >= DECIDED - 1 {
                return Err(GenerateError::TooLong(name));
            }
            for i in list {
                let r = res[i as usize];
                if r != (QUEUED | p) {
                    continue; // decided already, or queued again at a shorter distance
                }
                res[i as usize] = p;
                if let Some(pr) = progress {
                    pr.inc(1);
                }
                let side = decode(i as u64, &mut cells[..n]);
                preds.clear();
                self.predecessors(&cells[..n], side, &mut preds);
                preds.sort_unstable();
                preds.dedup();
                for &q in &preds {
                    let q = q as usize;
                    let rq = res[q];
                    if rq < DECIDED || rq == STALEMATE || rq == ILLEGAL {
                        continue;
                    }
                    if p % 2 == 0 {
                        // A loss here: a win in one more ply there.
                        let w = p + 1;
                        if rq == UNKNOWN || (rq & QUEUED != 0 && rq & !QUEUED > w) {
                            res[q] = QUEUED | w;
                            push(&mut buckets, w, q as u32);
                        }
                    } else {
                        cnt[q] = cnt[q].saturating_sub(1);
                        if cnt[q] == 0 && rq == UNKNOWN && aux[q] & 0x8000 == 0 {
                            let l = (p + 1).max((aux[q] & 0x7FFF).saturating_sub(1));
                            res[q] = QUEUED | l;
                            push(&mut buckets, l, q as u32);
                        }
                    }
                }
            }
            ply += 1;
        }

        // 3. Codes.
        let codes: Vec<u16> = res
            .par_iter()
            .map(|&r| match r {
                ILLEGAL => NONE,
                r if r < DECIDED => r + 2,
                _ => DRAW,
            })
            .collect();
        Ok(Table { material: self.material.clone(), layout: self.layout.clone(), values: Values::from_codes(codes) })
    }

    /// The canonical entries of the positions one quiet move before this one (the other side to
    /// move there), appended to `out` (with repeats).
    fn predecessors(&self, cells: &[u8], side: Color, out: &mut Vec<u64>) {
        let n = self.men();
        let mover = side.flip();
        let occ = Self::occupancy(cells).expect("a position");
        for i in 0..n {
            let (c, kind) = self.layout.slots[i];
            if c != mover {
                continue;
            }
            let at = cells[i] as usize;
            let mut from = piece_quiet_moves(self.geometry, self.fiveup, kind, at, occ);
            while from != 0 {
                let f = from.trailing_zeros() as u8;
                from &= from - 1;
                let mut prev = [0u8; MAX_MEN];
                prev[..n].copy_from_slice(cells);
                prev[i] = f;
                let occ2 = (occ & !(1u128 << at)) | 1u128 << f;
                // There the mover is to move: the other king must not be in check.
                if self.attacked(&prev[..n], prev[side.index()], mover, occ2, usize::MAX) {
                    continue;
                }
                out.push(self.canonical(&prev[..n], mover));
            }
        }
    }

    /// The number of entries of the table (what the forward pass and the verification count).
    pub fn entries(&self) -> u64 {
        entries(self.men())
    }
}

fn push(buckets: &mut Vec<Vec<u32>>, ply: u16, i: u32) {
    let p = ply as usize;
    if buckets.len() <= p {
        buckets.resize_with(p + 1, Vec::new);
    }
    buckets[p].push(i);
}
