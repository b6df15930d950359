//! Endgame tables for the 5x5x5 games: distance to mate for every position of a pawnless
//! material of up to four men, built by retrograde analysis, verified against the rules core,
//! stored compressed with a checksum, and probed by everything that plays.
//!
//! - [`material`]: material signatures (`KRRvK`), their canonical orientation (the stronger side
//!   is white) and the game families (the two Five Up texts share their tables; Raumschach has its
//!   own).
//! - [`index`]: the board's 48 symmetries and where a position sits in its table.
//! - [`table`]: a table in memory and its values ([`Dtm`]).
//! - [`generate`]: the retrograde builder; [`verify`]: the second pass over the rules core.
//! - [`file`]: the file format; [`build`]: building the tables a user asks for, with the smaller
//!   ones they need, resumably (finished tables are kept).
//! - [`Tablebases`]: a folder of tables, loaded on first use, probed with a [`Position`].
//!
//! A position is in the tables when it is on the flat board without the optional castling rule,
//! has no pawns, has at most [`MAX_MEN`] men and neither side can still place a reserve piece
//! (a Five Up position where one can is not covered: its reserve is material the tables do not
//! hold). Values ignore the fifty-move rule; the engine trusts a win only when its mate fits in
//! what is left of the fifty-move count.

pub mod build;
pub mod file;
pub mod generate;
pub mod index;
pub mod material;
pub mod table;
pub mod verify;

#[cfg(test)]
pub(crate) mod tests;

pub use build::{build, BuildError, BuildReport};
pub use material::{Family, Material, MaterialError, MAX_MEN};
pub use table::{Dtm, Table};

use crate::game::Color;
use crate::rules::{Kind, Position};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Where a position sits in the tables: its canonical material, the men's cells in that table's
/// slot order and the side to move there (the colours exchanged when the material was).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The table's material.
    pub material: Material,
    /// Cells in slot order (the first `men` are meaningful).
    pub cells: [u8; MAX_MEN],
    /// The number of men.
    pub men: usize,
    /// The side to move in the table's orientation.
    pub side: Color,
}

/// Where `pos` sits in the tables, or `None` when no table covers it (see the module docs) or
/// only the two kings are left.
pub fn locate(pos: &Position) -> Option<Located> {
    let variant = pos.variant();
    if variant.castling || variant.hypercylinder {
        return None;
    }
    let occ = pos.occupied();
    let men = occ.count() as usize;
    if men > MAX_MEN || men <= 2 {
        return None;
    }
    if pos.kind_bb(Kind::Pawn).nonempty() || pos.can_place(Color::White) || pos.can_place(Color::Black) {
        return None;
    }
    let family = Family::of(pos.ruleset());
    let mut white: Vec<(usize, u8)> = Vec::with_capacity(2);
    let mut black: Vec<(usize, u8)> = Vec::with_capacity(2);
    for c in occ {
        let p = pos.piece_at(c).expect("occupied");
        if p.kind == Kind::King {
            continue;
        }
        let rank = family.rank(p.kind)?;
        match p.color {
            Color::White => white.push((rank, c.index() as u8)),
            Color::Black => black.push((rank, c.index() as u8)),
        }
    }
    white.sort_unstable();
    black.sort_unstable();
    let kinds = |v: &[(usize, u8)]| v.iter().map(|&(r, _)| family.pieces()[r]).collect::<Vec<_>>();
    let m = Material::new(family, kinds(&white), kinds(&black));
    let (material, flip) = m.canonical();
    let (wk, bk) = (pos.king(Color::White).index() as u8, pos.king(Color::Black).index() as u8);
    let mut cells = [0u8; MAX_MEN];
    let (first, second, k1, k2) = if flip { (&black, &white, bk, wk) } else { (&white, &black, wk, bk) };
    cells[0] = k1;
    cells[1] = k2;
    for (k, &(_, c)) in first.iter().chain(second.iter()).enumerate() {
        cells[2 + k] = c;
    }
    let side = if flip { pos.side().flip() } else { pos.side() };
    Some(Located { material, cells, men, side })
}

/// What [`sample`] looks for: wins, draws or losses for the side to move, and the shortest
/// distance to mate in plies (wins and losses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// The side to move mates in at least this many plies.
    Win(u16),
    /// Drawn.
    Draw,
    /// The side to move is mated in at least this many plies.
    Loss(u16),
}

/// Up to `count` positions of `table` of the value wanted, drawn at random (seeded), as positions
/// of the table's game: test positions for engines (`fiveup tablebase sample`).
pub fn sample(table: &Table, wanted: Wanted, count: usize, seed: u64) -> Vec<(Position, Dtm)> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let len = table.values.len();
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Enough draws to find rare values, bounded so that an absent one ends the search.
    for _ in 0..len.min(50_000_000) {
        if out.len() >= count {
            break;
        }
        let i = rng.next_u64() % len;
        let Some(v) = Dtm::from_code(table.values.get(i)) else { continue };
        let fits = match (wanted, v) {
            (Wanted::Win(min), Dtm::Win(p)) | (Wanted::Loss(min), Dtm::Loss(p)) => p >= min,
            (Wanted::Draw, Dtm::Draw) => true,
            _ => false,
        };
        if !fits || !seen.insert(i) {
            continue;
        }
        if let Some(p) = table.position(i) {
            out.push((p, v));
        }
    }
    out
}

/// Why a tablebase folder could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The folder is missing or unreadable.
    #[error("tablebase folder {path}: {why}")]
    Folder {
        /// The folder.
        path: String,
        /// What is wrong.
        why: String,
    },
}

/// A folder of tables (`DIR/fiveup/*.tb`, `DIR/raumschach/*.tb`), each read the first time a
/// position needs it and kept; one instance per folder is shared by every engine of a process
/// ([`Tablebases::open_shared`]).
pub struct Tablebases {
    dir: PathBuf,
    tables: HashMap<Material, OnceLock<Option<Arc<Table>>>>,
    max_men: [usize; 2],
    /// The first table found damaged, to report once.
    damaged: Mutex<Vec<String>>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({}, {} tables)", self.dir.display(), self.tables.len())
    }
}

fn family_slot(f: Family) -> usize {
    match f {
        Family::FiveUp => 0,
        Family::Raumschach => 1,
    }
}

impl Tablebases {
    /// Lists the tables of folder `dir` (nothing is read yet). A folder without tables is
    /// accepted (and probes nothing); a missing folder or a file in its place is an error.
    pub fn open(dir: &Path) -> Result<Tablebases, OpenError> {
        let folder = |why: String| OpenError::Folder { path: dir.display().to_string(), why };
        let meta = std::fs::metadata(dir).map_err(|e| folder(e.to_string()))?;
        if !meta.is_dir() {
            return Err(folder("is not a folder".into()));
        }
        let mut tables = HashMap::new();
        let mut max_men = [0usize; 2];
        for family in [Family::FiveUp, Family::Raumschach] {
            let sub = dir.join(family.name());
            let Ok(entries) = std::fs::read_dir(&sub) else { continue };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                let Some(stem) = name.strip_suffix(".tb") else { continue };
                let Ok(m) = Material::parse(family, stem) else { continue };
                if !m.is_canonical() || m.to_string() != stem {
                    continue;
                }
                let slot = &mut max_men[family_slot(family)];
                *slot = (*slot).max(m.men());
                tables.insert(m, OnceLock::new());
            }
        }
        Ok(Tablebases { dir: dir.to_path_buf(), tables, max_men, damaged: Mutex::new(Vec::new()) })
    }

    /// The instance for folder `dir`, shared by every caller of this process (tables are read
    /// once).
    pub fn open_shared(dir: &Path) -> Result<Arc<Tablebases>, OpenError> {
        static SHARED: OnceLock<Mutex<HashMap<PathBuf, Arc<Tablebases>>>> = OnceLock::new();
        let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let map = SHARED.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tb) = map.get(&key) {
            return Ok(tb.clone());
        }
        let tb = Arc::new(Tablebases::open(dir)?);
        map.insert(key, tb.clone());
        Ok(tb)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The materials present, sorted.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.tables.keys().cloned().collect();
        v.sort_by_key(|m| (m.family, m.men(), m.to_string()));
        v
    }

    /// The most men of the tables present for a family (0 when none).
    pub fn max_men(&self, family: Family) -> usize {
        self.max_men[family_slot(family)]
    }

    /// The table of a material, read on first use; `None` when it is absent or damaged (a damaged
    /// table is reported once, as a warning).
    pub fn table(&self, material: &Material) -> Option<Arc<Table>> {
        let cell = self.tables.get(material)?;
        cell.get_or_init(|| {
            let path = file::path_in(&self.dir, material);
            match file::read(&path, Some(material)) {
                Ok((t, _)) => Some(Arc::new(t)),
                Err(e) => {
                    let mut d = self.damaged.lock().unwrap_or_else(|e| e.into_inner());
                    tracing::warn!("endgame table not used: {e}");
                    d.push(e.to_string());
                    None
                }
            }
        })
        .clone()
    }

    /// The value of `pos` for its side to move, when a table holds it (two bare kings: a draw).
    pub fn probe(&self, pos: &Position) -> Option<Dtm> {
        if pos.occupied().count() as usize > self.max_men(Family::of(pos.ruleset())) {
            return None;
        }
        if pos.occupied().count() == 2 && pos.bare_kings() {
            return Some(Dtm::Draw);
        }
        let at = locate(pos)?;
        self.table(&at.material)?.probe_cells(&at.cells[..at.men], at.side)
    }

    /// The messages of tables found damaged so far.
    pub fn damaged(&self) -> Vec<String> {
        self.damaged.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
