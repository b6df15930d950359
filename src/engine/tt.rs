//! Transposition table: Zobrist-keyed clusters of four 16-byte entries, depth-preferred replacement.
//!
//! - Index: the 64-bit key mapped onto the cluster count by a multiply-shift, so any size works.
//! - Entry: full key, move bits, epoch, score, depth, bound and generation (16 bytes; four per
//!   64-byte cluster, aligned to one cache line, so a probe touches one line).
//! - Clearing without writing: [`TransTable::clear`] (every search of an engine that does not
//!   keep its table, so every search in matches and data generation) only moves the table to the
//!   next *epoch*; an entry of another epoch reads as empty everywhere (probe, replacement, kept
//!   moves), so the table behaves exactly as if it had been emptied. Only when the 8-bit epoch
//!   wraps (every 256 clears) is the memory written. Writing the default 16 MiB of zeros cost
//!   about 0.25 ms a search: a quarter of the time of a match at 2,000 nodes per move, 12% of
//!   the instructions (callgrind) at 20,000 (`docs/BENCHMARKS.md`).
//! - Memory: a probe is usually a cache miss (the table is far bigger than the caches); on Linux
//!   the table asks for transparent huge pages, so it does not miss the TLB as well (a 16 MiB
//!   table in 4 KiB pages spans 4,096 pages). The search prefetches a child's cluster right
//!   after making the move, before its own probe ([`TransTable::prefetch`]).
//! - Replacement: an entry with the same key is overwritten (keeping its move when the new store
//!   has none); otherwise the victim is the entry of the lowest `depth - 8 * age` in the cluster,
//!   so deep results of the current search survive shallow ones.
//! - Mate scores are stored relative to the node ([`score_to_tt`]) and turned back into
//!   root-relative scores at the probing node's ply ([`score_from_tt`]).
//! - Shared without locks (Lazy SMP, [`super::Engine`] with `threads > 1`): an entry is two atomic
//!   words, the key XOR the data and the data, written and read with relaxed ordering. A torn
//!   entry (one thread's key word beside another's data word) fails the key check and reads as a
//!   miss, as in Stockfish's and Hyatt's lockless tables; a probe's move is checked for legality by
//!   the move picker anyway. On x86-64 relaxed atomic loads and stores are plain moves, so one
//!   thread pays only the XOR. [`TransTable::clear`] (exclusive) makes searches reproducible.
//! - Size asked by a user (`hash=`, `setoption name Hash`): [`TransTable::try_new`] refuses a
//!   table larger than the memory the system says is available (Linux: `MemAvailable`), and asks
//!   for the memory fallibly, so a table that does not fit is a [`TableSizeError`], never an
//!   abort; [`check_fits`] is the same check for a caller that builds its table later.

use super::board::SearchMove;
use super::score::MATE_BOUND;
#[cfg(test)]
use crate::rules::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// No information (empty entry).
    None = 0,
    /// The true score is at most the stored score (failed low).
    Upper = 1,
    /// The true score is at least the stored score (failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// The fields of an entry, packed into the data word: move bits 0..24 (a move uses 22),
/// epoch 24..32, score 32..48, depth 48..56, meta (bound in bits 0..2, generation in bits 2..8)
/// 56..64.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u32,
    /// The table's epoch when the entry was written (see [`TransTable::clear`]).
    epoch: u8,
    score: i16,
    depth: u8,
    /// Bound in bits 0..2, generation in bits 2..8.
    meta: u8,
}

impl Entry {
    #[inline]
    fn data(self) -> u64 {
        (self.mv & MOVE_BITS) as u64
            | (self.epoch as u64) << 24
            | (self.score as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.meta as u64) << 56
    }

    #[inline]
    fn from_words(check: u64, data: u64) -> Entry {
        Entry {
            key: check ^ data,
            mv: data as u32 & MOVE_BITS,
            epoch: (data >> 24) as u8,
            score: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            meta: (data >> 56) as u8,
        }
    }
}

/// One stored entry: the key XOR the data, and the data.
#[derive(Default)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        Entry::from_words(self.check.load(Ordering::Relaxed), self.data.load(Ordering::Relaxed))
    }

    #[inline]
    fn save(&self, e: Entry) {
        let data = e.data();
        self.check.store(e.key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

/// The bits of the data word that hold the move.
const MOVE_BITS: u32 = (1 << 24) - 1;
const CLUSTER: usize = 4;

/// Four entries on one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Cluster([Slot; CLUSTER]);

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

/// A probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit<M> {
    /// Best or refutation move stored, if any.
    pub mv: Option<M>,
    /// Score, already converted to be relative to the root at the probing ply.
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Meaning of the score.
    pub bound: Bound,
}

/// The table.
pub struct TransTable {
    table: Vec<Cluster>,
    clusters: usize,
    generation: u8,
    /// Entries of another epoch are empty (see [`TransTable::clear`]).
    epoch: u8,
    /// Whether anything was stored since the last clear (a clean table needs no clearing).
    dirty: AtomicBool,
}

/// A mate score stored from node `ply` becomes relative to that node.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored node-relative mate score, probed at `ply`, becomes relative to the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Why a table of the asked size cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hash={mb} MiB does not fit in memory: {reason}")]
pub struct TableSizeError {
    /// The size asked for, in MiB.
    pub mb: usize,
    /// Why it does not fit.
    pub reason: String,
}

/// The memory the system can give a new allocation without swapping, in MiB (Linux:
/// `MemAvailable` of `/proc/meminfo`); `None` where it is not known.
pub fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Whether a table of `mb` MiB fits in the memory available now (see the module docs).
pub fn check_fits(mb: usize) -> Result<(), TableSizeError> {
    match available_mb() {
        Some(free) if mb > free => {
            Err(TableSizeError { mb, reason: format!("this machine has {free} MiB available; ask for less") })
        }
        _ => Ok(()),
    }
}

impl TransTable {
    /// A table of about `mb` mebibytes (at least one cluster), for sizes the program chooses;
    /// a size a user asked for goes through [`TransTable::try_new`].
    ///
    /// # Panics
    /// When the memory cannot be had (see [`TransTable::try_new`]).
    pub fn new(mb: usize) -> TransTable {
        TransTable::allocate(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` mebibytes (at least one cluster), or why it does not fit: larger
    /// than the available memory, or refused by the allocator.
    pub fn try_new(mb: usize) -> Result<TransTable, TableSizeError> {
        check_fits(mb)?;
        TransTable::allocate(mb)
    }

    /// The table, asking the allocator fallibly (no check against the available memory).
    fn allocate(mb: usize) -> Result<TransTable, TableSizeError> {
        let bytes = mb
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or_else(|| TableSizeError { mb, reason: "more bytes than this machine can address".into() })?;
        let clusters = (bytes / std::mem::size_of::<Cluster>()).max(1);
        // Ask for huge pages before the first write maps the memory.
        let mut table = Vec::new();
        table
            .try_reserve_exact(clusters)
            .map_err(|e| TableSizeError { mb, reason: format!("the allocator refused it ({e})") })?;
        advise_huge_pages(table.as_ptr() as usize, clusters * std::mem::size_of::<Cluster>());
        table.resize_with(clusters, Cluster::default);
        Ok(TransTable { table, clusters, generation: 0, epoch: 0, dirty: AtomicBool::new(false) })
    }

    /// Size in mebibytes (rounded down).
    pub fn size_mb(&self) -> usize {
        self.clusters * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Empties every entry and resets the generation (a fresh, reproducible start): the table
    /// moves to the next epoch, whose entries are the only ones it sees; the memory is written
    /// only when the epoch wraps round to one that old entries may still carry.
    pub fn clear(&mut self) {
        if *self.dirty.get_mut() {
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch == 0 {
                for c in &mut self.table {
                    for slot in &mut c.0 {
                        *slot.check.get_mut() = 0;
                        *slot.data.get_mut() = 0;
                    }
                }
            }
            *self.dirty.get_mut() = false;
        }
        self.generation = 0;
    }

    /// Whether `e` holds a result of the current epoch (anything else reads as empty).
    #[inline]
    fn live(&self, e: &Entry) -> bool {
        e.meta & 3 != 0 && e.epoch == self.epoch
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// Index of the cluster of `key`.
    #[inline]
    fn cluster(&self, key: u64) -> usize {
        ((key as u128 * self.clusters as u128) >> 64) as usize
    }

    /// Starts loading the cluster of `key` into the cache (for a probe a little later).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.table[self.cluster(key)] as *const Cluster as *const i8;
            // SAFETY: prefetching only hints the cache; `p` points into the table.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, scores converted for a node at `ply`.
    #[inline]
    pub fn probe<M: SearchMove>(&self, key: u64, ply: usize) -> Option<TtHit<M>> {
        let e = self.table[self.cluster(key)].0.iter().map(Slot::load).find(|e| e.key == key && self.live(e))?;
        let bound = match e.meta & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(TtHit {
            mv: if e.mv == 0 { None } else { M::from_bits(e.mv) },
            score: score_from_tt(e.score as i32, ply),
            depth: e.depth as i32,
            bound,
        })
    }

    /// Stores a result for `key` found at `ply` with `depth` remaining (negative depths store as 0).
    #[inline]
    pub fn store<M: SearchMove>(&self, key: u64, ply: usize, depth: i32, score: i32, bound: Bound, mv: Option<M>) {
        let index = self.cluster(key);
        let gen = self.generation;
        if !self.dirty.load(Ordering::Relaxed) {
            self.dirty.store(true, Ordering::Relaxed);
        }
        let slots = &self.table[index].0;
        let cluster: [Entry; CLUSTER] = std::array::from_fn(|i| slots[i].load());
        let slot = match cluster.iter().position(|e| e.key == key && self.live(e)) {
            Some(i) => i,
            None => {
                // Depth-preferred: replace the shallowest entry, stale generations first.
                let worth = |e: &Entry| {
                    if !self.live(e) {
                        return i32::MIN;
                    }
                    let age = (gen.wrapping_sub(e.meta >> 2) & 63) as i32;
                    e.depth as i32 - 8 * age
                };
                (0..CLUSTER).min_by_key(|&i| worth(&cluster[i])).unwrap_or(0)
            }
        };
        let e = cluster[slot];
        let keep_move = e.key == key && self.live(&e) && mv.is_none();
        slots[slot].save(Entry {
            key,
            mv: if keep_move { e.mv } else { mv.map_or(0, |m| m.bits()) },
            epoch: self.epoch,
            score: score_to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            meta: bound as u8 | gen << 2,
        });
    }

    /// Permille of the first thousand entries used in the current generation (a UCI-style hashfull).
    pub fn hashfull(&self) -> usize {
        let n = (self.clusters * CLUSTER).min(1000);
        let used = self
            .table
            .iter()
            .flat_map(|c| c.0.iter().map(Slot::load))
            .take(n)
            .filter(|e| self.live(e) && e.meta >> 2 == self.generation)
            .count();
        used * 1000 / n.max(1)
    }
}

/// Asks Linux to back the table with transparent huge pages (fewer TLB misses on random probes).
/// `start..start + bytes` is an allocation not yet written to; only its 2 MiB-aligned part can
/// use them. Failure is harmless.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let end = start + bytes;
    let (lo, hi) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if hi > lo {
        // SAFETY: the range lies inside the table's allocation; MADV_HUGEPAGE changes no contents.
        unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: usize, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::{mate_in, mated_in};
    use crate::rules::Cell;

    fn mv(a: u8, b: u8) -> Move {
        Move::normal(Cell::new(a), Cell::new(b))
    }

    #[test]
    fn a_table_larger_than_the_available_memory_is_an_error_not_an_abort() {
        // More than the system says is available.
        if let Some(free) = available_mb() {
            let mb = free + 1024;
            let e = TransTable::try_new(mb).map(|_| ()).unwrap_err();
            assert_eq!(e.mb, mb);
            assert!(
                e.to_string().starts_with(&format!("hash={mb} MiB does not fit in memory: this machine has")),
                "{e}"
            );
            assert!(check_fits(mb).is_err());
        }
        // Past the address space: refused whatever the system says.
        assert!(TransTable::try_new(usize::MAX / 1024).is_err());
        assert_eq!(TransTable::try_new(1).unwrap().size_mb(), 1);
        assert!(check_fits(1).is_ok());
    }

    #[test]
    fn threads_storing_at_once_never_yield_a_torn_entry() {
        // Two threads hammer the same small table with entries whose score and depth are functions
        // of the key; a probe that returns a hit must return that key's own data.
        let tt = TransTable::new(1);
        let data = |k: u64| ((k % 20_000) as i32 - 10_000, (k % 64) as i32);
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..400_000u64 {
                        let k = (i * 2 + t).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        let (score, depth) = data(k);
                        tt.store(k, 0, depth, score, Bound::Exact, None::<Move>);
                        let j = k.wrapping_add(0x9E37_79B9_7F4A_7C15);
                        if let Some(h) = tt.probe::<Move>(j, 0) {
                            assert_eq!((h.score, h.depth), data(j));
                        }
                    }
                });
            }
        });
        assert!(tt.hashfull() > 900);
    }

    #[test]
    fn store_then_probe_returns_the_entry() {
        let mut tt = TransTable::new(1);
        assert_eq!(tt.probe::<Move>(42, 0), None);
        tt.store(42, 3, 5, -17, Bound::Lower, Some(mv(1, 2)));
        let h = tt.probe::<Move>(42, 3).unwrap();
        assert_eq!(h, TtHit { mv: Some(mv(1, 2)), score: -17, depth: 5, bound: Bound::Lower });
        // A store without a move keeps the old move.
        tt.store(42, 3, 6, 10, Bound::Exact, None::<Move>);
        assert_eq!(tt.probe::<Move>(42, 3).unwrap().mv, Some(mv(1, 2)));
        assert_eq!(tt.probe::<Move>(42, 3).unwrap().bound, Bound::Exact);
        tt.clear();
        assert_eq!(tt.probe::<Move>(42, 3), None);
    }

    #[test]
    fn a_cleared_table_behaves_as_a_fresh_one() {
        // Four keys of cluster 0 stored in a fresh table, after a clear, and after 300 clears
        // (the epoch wraps round and the memory is written once): the same slots, nothing old.
        let mut tt = TransTable::new(1);
        let clusters = tt.clusters as u64;
        let keys: Vec<u64> = (1..=8u64).map(|i| i * (u64::MAX / clusters / 16)).collect();
        let slots = |tt: &TransTable| -> Vec<u64> { tt.table[0].0.iter().map(|s| s.load().key).collect() };
        let fill = |tt: &TransTable, keys: &[u64], depth: i32| {
            for (i, &k) in keys.iter().enumerate() {
                assert_eq!(tt.cluster(k), 0);
                tt.store(k, 0, depth + i as i32, 7, Bound::Lower, Some(mv(1, 2)));
            }
        };
        fill(&tt, &keys[..4], 20);
        let fresh = slots(&tt);
        assert_eq!(fresh, keys[..4].to_vec());
        for round in 0..300 {
            tt.clear();
            for &k in &keys[..4] {
                assert_eq!(tt.probe::<Move>(k, 0), None, "round {round}: an entry survived a clear");
            }
            assert_eq!(tt.hashfull(), 0);
            // Shallow stores of other keys take the slots a fresh table would give them, the
            // deep old entries notwithstanding; a store without a move keeps no old move.
            fill(&tt, &keys[4..], 1);
            assert_eq!(slots(&tt), keys[4..].to_vec(), "round {round}");
            tt.clear();
            tt.store(keys[4], 0, 3, 1, Bound::Exact, None::<Move>);
            // keys[6]'s old entry (slot 2) is empty now: a fresh table would use slot 1.
            tt.store(keys[6], 0, 3, 1, Bound::Exact, None::<Move>);
            assert_eq!(tt.probe::<Move>(keys[6], 0).unwrap().mv, None, "round {round}");
            assert_eq!(slots(&tt)[..2], [keys[4], keys[6]], "round {round}");
            tt.clear();
            fill(&tt, &keys[..4], 20);
            assert_eq!(slots(&tt), fresh);
            assert_eq!(
                tt.probe::<Move>(keys[2], 0).unwrap(),
                TtHit { mv: Some(mv(1, 2)), score: 7, depth: 22, bound: Bound::Lower }
            );
        }
    }

    #[test]
    fn clusters_sit_on_cache_lines() {
        for mb in [1, 3, 16] {
            let tt = TransTable::new(mb);
            assert_eq!(tt.table.as_ptr() as usize % 64, 0);
            assert_eq!(tt.table.len(), mb * 1024 * 1024 / 64);
            assert!(tt.table.iter().all(|c| c.0.iter().map(Slot::load).all(|e| e.meta == 0 && e.key == 0)));
        }
    }

    #[test]
    fn mate_scores_are_adjusted_by_ply() {
        let tt = TransTable::new(1);
        // At ply 4 we found a mate 3 plies further on: mate_in(7) from the root.
        tt.store(7, 4, 3, mate_in(7), Bound::Exact, None::<Move>);
        // Probed from ply 2 (a transposition nearer the root), the same mate is 3 plies away.
        assert_eq!(tt.probe::<Move>(7, 2).unwrap().score, mate_in(5));
        tt.store(8, 5, 3, mated_in(9), Bound::Upper, None::<Move>);
        assert_eq!(tt.probe::<Move>(8, 1).unwrap().score, mated_in(5));
        assert_eq!(score_from_tt(score_to_tt(123, 9), 2), 123);
    }

    #[test]
    fn depth_preferred_replacement_keeps_deep_entries() {
        let mut tt = TransTable::new(1);
        let clusters = tt.clusters as u64;
        // Keys landing in cluster 0: key * clusters < 2^64.
        let keys: Vec<u64> = (1..=5u64).map(|i| i * (u64::MAX / clusters / 8)).collect();
        for (i, &k) in keys.iter().take(4).enumerate() {
            assert_eq!(tt.cluster(k), 0);
            tt.store(k, 0, 10 + i as i32, 0, Bound::Exact, None::<Move>);
        }
        tt.store(keys[4], 0, 1, 0, Bound::Exact, None::<Move>);
        // The shallowest (depth 10, the first key) was replaced; the deeper ones stay.
        assert!(tt.probe::<Move>(keys[0], 0).is_none());
        for &k in &keys[1..] {
            assert!(tt.probe::<Move>(k, 0).is_some());
        }
        // In a later search, old entries give way even to shallow new ones.
        tt.new_search();
        tt.store(keys[0], 0, 1, 0, Bound::Exact, None::<Move>);
        assert!(tt.probe::<Move>(keys[0], 0).is_some());
        assert_eq!(tt.size_mb(), 1);
    }
}
