//! The table file: a header naming the game family and the material, the figures of the table,
//! the values deflate-compressed, and a CRC-32 of everything before it.
//!
//! ```text
//! "FIVEUPTB" | version u32 | family u8 | material: len u8, text | entries u64 | width u8
//! | figures (Stats) | payload: len u64, deflate(values, little-endian) | crc32 u32
//! ```
//! All numbers little-endian. A reader refuses a file with another magic or version, a family or
//! material other than its name says, a wrong entry count, a payload that does not inflate to
//! the entries, or a checksum that does not match; each with a one-line message naming the file.

use super::index::entries;
use super::material::{Family, Material};
use super::table::{Layout, Table, Values};
use std::path::Path;

const MAGIC: &[u8; 8] = b"FIVEUPTB";
const VERSION: u32 = 1;

/// The file name of a table: `<material>.tb` in the family's folder.
pub fn file_name(material: &Material) -> String {
    format!("{material}.tb")
}

/// The path of a table below a tablebase folder: `DIR/<family>/<material>.tb`.
pub fn path_in(dir: &Path, material: &Material) -> std::path::PathBuf {
    dir.join(material.family.name()).join(file_name(material))
}

/// What a table holds, counted over positions of the board (each canonical entry weighted by the
/// number of positions it stands for), for each side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideStats {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest win, in plies (0 when none).
    pub longest_win: u16,
    /// The longest loss, in plies (0 when none or only checkmates).
    pub longest_loss: u16,
}

impl SideStats {
    /// All positions counted.
    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The verdict of a table from its stronger side's figures with it to move: **won** when at
    /// least 99% of the positions are wins, **drawn** when under 1% are (the few are positions
    /// where the weaker king is already caught), **mixed** between.
    pub fn verdict(&self) -> &'static str {
        let share = self.wins as f64 / self.total().max(1) as f64;
        if share >= 0.99 {
            "won"
        } else if share < 0.01 {
            "drawn"
        } else {
            "mixed"
        }
    }
}

/// The figures of a table, white (the stronger side of the material) to move and black to move;
/// and how long it took to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// White to move.
    pub white: SideStats,
    /// Black to move.
    pub black: SideStats,
    /// Seconds the build and its verification took.
    pub seconds: f64,
}

/// Why a table file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The content is not a table of this kind.
    #[error("{path}: {why}")]
    Bad {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

fn push_stats(out: &mut Vec<u8>, s: &Stats) {
    for side in [&s.white, &s.black] {
        out.extend_from_slice(&side.wins.to_le_bytes());
        out.extend_from_slice(&side.draws.to_le_bytes());
        out.extend_from_slice(&side.losses.to_le_bytes());
        out.extend_from_slice(&side.longest_win.to_le_bytes());
        out.extend_from_slice(&side.longest_loss.to_le_bytes());
    }
    out.extend_from_slice(&s.seconds.to_le_bytes());
}

/// The bytes of a table file.
pub fn encode(table: &Table, stats: &Stats) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(match table.family() {
        Family::FiveUp => 0,
        Family::Raumschach => 1,
    });
    let name = table.material.to_string();
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&table.values.len().to_le_bytes());
    let raw: Vec<u8> = match &table.values {
        Values::Narrow(v) => {
            out.push(1);
            v.clone()
        }
        Values::Wide(v) => {
            out.push(2);
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        }
    };
    push_stats(&mut out, stats);
    let packed = miniz_oxide::deflate::compress_to_vec(&raw, 6);
    out.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    out.extend_from_slice(&packed);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// A cursor over a file's bytes whose reads fail as "ends early".
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| u64::from_le_bytes(b.try_into().unwrap()))
    }
    fn side(&mut self) -> Option<SideStats> {
        Some(SideStats {
            wins: self.u64()?,
            draws: self.u64()?,
            losses: self.u64()?,
            longest_win: self.u16()?,
            longest_loss: self.u16()?,
        })
    }
}

/// The header of a table file: what it says it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The material.
    pub material: Material,
    /// Its figures.
    pub stats: Stats,
    /// Bytes per entry.
    pub width: u8,
}

/// Reads a table from `bytes` (the file `path`, named in errors); `expect`, when given, is the
/// material the file must hold (the one its name says).
pub fn decode(path: &Path, bytes: &[u8], expect: Option<&Material>) -> Result<(Table, Header), FileError> {
    let bad = |why: String| FileError::Bad { path: path.display().to_string(), why };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(bad("not a fiveup endgame table (no FIVEUPTB header)".into()));
    }
    if bytes.len() < 12 {
        return Err(bad("damaged: the file ends early".into()));
    }
    let body = &bytes[..bytes.len() - 4];
    let stored = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
    let mut r = Reader { bytes: body, at: MAGIC.len() };
    let early = || bad("damaged: the file ends early".into());
    let version = r.u32().ok_or_else(early)?;
    if version != VERSION {
        return Err(bad(format!(
            "table format version {version}; this fiveup reads version {VERSION} (generate it again)"
        )));
    }
    if crc32fast::hash(body) != stored {
        return Err(bad("damaged: checksum mismatch (generate the table again)".into()));
    }
    let family = match r.u8().ok_or_else(early)? {
        0 => Family::FiveUp,
        1 => Family::Raumschach,
        f => return Err(bad(format!("unknown game family {f}"))),
    };
    let len = r.u8().ok_or_else(early)? as usize;
    let text = std::str::from_utf8(r.take(len).ok_or_else(early)?).map_err(|_| bad("material is not text".into()))?;
    let material = Material::parse(family, text).map_err(|e| bad(e.to_string()))?;
    if let Some(want) = expect {
        if *want != material {
            return Err(bad(format!(
                "holds {} {}, not {} {} as its name and folder say",
                material.family, material, want.family, want
            )));
        }
    }
    let n = r.u64().ok_or_else(early)?;
    if n != entries(material.men()) {
        return Err(bad(format!("{n} entries; a {}-man table has {}", material.men(), entries(material.men()))));
    }
    let width = r.u8().ok_or_else(early)?;
    if width != 1 && width != 2 {
        return Err(bad(format!("entry width {width} (1 or 2 expected)")));
    }
    let white = r.side().ok_or_else(early)?;
    let black = r.side().ok_or_else(early)?;
    let seconds = f64::from_le_bytes(r.take(8).ok_or_else(early)?.try_into().unwrap());
    let plen = r.u64().ok_or_else(early)?;
    let packed = r.take(usize::try_from(plen).map_err(|_| early())?).ok_or_else(early)?;
    let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, (n * width as u64) as usize)
        .map_err(|_| bad("damaged: the values do not inflate".into()))?;
    if raw.len() as u64 != n * width as u64 {
        return Err(bad(format!("damaged: {} bytes of values, {} expected", raw.len(), n * width as u64)));
    }
    let values = if width == 1 {
        Values::Narrow(raw)
    } else {
        Values::Wide(raw.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect())
    };
    let layout = Layout::of(&material);
    let header = Header { material: material.clone(), stats: Stats { white, black, seconds }, width };
    Ok((Table { material, layout, values }, header))
}

/// Reads the table file `path`, which must hold `expect` when given.
pub fn read(path: &Path, expect: Option<&Material>) -> Result<(Table, Header), FileError> {
    let bytes = std::fs::read(path).map_err(|source| FileError::Io { path: path.display().to_string(), source })?;
    decode(path, &bytes, expect)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Table {
        let m = Material::parse(Family::Raumschach, "KQvK").unwrap();
        let n = entries(3) as usize;
        let codes: Vec<u16> = (0..n).map(|i| (i % 7) as u16).collect();
        Table { layout: Layout::of(&m), material: m, values: Values::from_codes(codes) }
    }

    #[test]
    fn a_table_file_round_trips_and_refuses_damage() {
        let t = tiny();
        let stats = Stats { seconds: 1.5, ..Stats::default() };
        let bytes = encode(&t, &stats);
        let p = Path::new("KQvK.tb");
        let (back, header) = decode(p, &bytes, Some(&t.material)).unwrap();
        assert_eq!(back, t);
        assert_eq!(header.stats, stats);
        // One flipped bit anywhere: refused as damaged (or as another file).
        for at in [10, 30, bytes.len() / 2, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            let e = decode(p, &b, None).unwrap_err().to_string();
            assert!(e.contains("KQvK.tb: "), "{e}");
        }
        let e = decode(p, &bytes[..bytes.len() / 2], None).unwrap_err().to_string();
        assert!(e.contains("damaged"), "{e}");
        let e = decode(p, b"PK\x03\x04 a zip", None).unwrap_err().to_string();
        assert!(e.contains("not a fiveup endgame table"), "{e}");
        let other = Material::parse(Family::Raumschach, "KRvK").unwrap();
        let e = decode(p, &bytes, Some(&other)).unwrap_err().to_string();
        assert!(e.contains("holds raumschach KQvK, not raumschach KRvK"), "{e}");
    }
}
