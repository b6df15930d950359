//! Shard files: a header, then length-prefixed, checksummed bincode [`GameRecord`]s.
//!
//! Layout (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIVEUPSH` |
//! | 8 | 4 | shard version `u32` ([`SHARD_VERSION`] is written; versions 1 to 3 are still read) |
//! | 12 | 8 | record count `u64` |
//! | 20 | … | `count` records, each: payload length `u32`, checksum of the payload `u32`, payload (one bincode [`GameRecord`]) |
//!
//! Versions: 1 — record schema 1 ([`GameRecordV1`]), FNV-1a 32 checksums; 2 — record schema 2,
//! FNV-1a 32; 3 — record schema 2, CRC-32 checksums ([`crate::fsutil::crc32`]); 4 — record schema
//! 3 (the same bytes; a position's policy may be empty, a value-only sample), CRC-32. The version
//! names both the record schema and the checksum, so old shards stay readable, and a build that
//! reads only up to 3 refuses a version 4 shard by name instead of misreading its value-only
//! samples.
//!
//! The file ends exactly after the last record. Shards are written atomically (a temporary file
//! in the same directory, synced, then renamed), so a reader never sees a half-written shard under
//! its final name; the reader still checks everything and names the path and byte offset of the
//! first problem. Every record's numbers are validated as it is read ([`GameRecord::validate`]),
//! so a bad record is an error naming the shard and the record, not a NaN loss later.

use super::records::{GameRecord, GameRecordV1};
use crate::fsutil::{crc32, legacy::fnv1a32};
use std::fs;
use std::path::{Path, PathBuf};

/// The first eight bytes of every shard.
pub const MAGIC: [u8; 8] = *b"FIVEUPSH";
/// The shard version written (see the module docs): record schema 3 with CRC-32 checksums.
pub const SHARD_VERSION: u32 = 4;
/// Size of the header in bytes.
pub const HEADER_LEN: usize = 20;
/// Largest accepted record payload (a guard against garbage lengths).
pub const MAX_RECORD_LEN: u32 = 256 << 20;

/// A shard that cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// An I/O error.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{path}: not a fiveup shard (bad magic at byte {offset})")]
    BadMagic {
        /// The file.
        path: PathBuf,
        /// Byte offset of the problem.
        offset: u64,
    },
    /// A schema version this build cannot read.
    #[error("{path}: unsupported shard version {found} at byte {offset} (this build reads 1 to {expected})")]
    Version {
        /// The file.
        path: PathBuf,
        /// Byte offset of the problem.
        offset: u64,
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// The file ends before a header or record does.
    #[error("{path}: truncated at byte {offset}: {what} needs {needed} bytes, {available} left")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Byte offset where the incomplete part starts.
        offset: u64,
        /// What was being read.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes left in the file.
        available: u64,
    },
    /// A record is damaged.
    #[error("{path}: corrupt record {index} at byte {offset}: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Byte offset of the record.
        offset: u64,
        /// Record number.
        index: u64,
        /// What is wrong.
        reason: String,
    },
    /// Bytes after the last record.
    #[error("{path}: {extra} unexpected bytes after the last record at byte {offset}")]
    TrailingBytes {
        /// The file.
        path: PathBuf,
        /// Byte offset of the extra bytes.
        offset: u64,
        /// How many.
        extra: u64,
    },
    /// A record that cannot be serialised.
    #[error("{path}: cannot encode record {index}: {reason}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// Record number.
        index: u64,
        /// Why.
        reason: String,
    },
}

/// The checksum of a record's payload in a shard of `version`: FNV-1a 32 up to version 2, CRC-32
/// from version 3.
pub fn record_checksum(version: u32, payload: &[u8]) -> u32 {
    if version >= 3 {
        crc32(payload)
    } else {
        fnv1a32(payload)
    }
}

/// The bytes of a shard holding `records`.
pub fn encode_shard(path: &Path, records: &[GameRecord]) -> Result<Vec<u8>, ShardError> {
    let mut buf = Vec::with_capacity(HEADER_LEN + records.len() * 4096);
    buf.extend_from_slice(&MAGIC);
    buf.extend_from_slice(&SHARD_VERSION.to_le_bytes());
    buf.extend_from_slice(&(records.len() as u64).to_le_bytes());
    for (i, r) in records.iter().enumerate() {
        let enc = |reason: String| ShardError::Encode { path: path.to_path_buf(), index: i as u64, reason };
        let payload = bincode::serialize(r).map_err(|e| enc(e.to_string()))?;
        let len = u32::try_from(payload.len()).ok().filter(|&l| l <= MAX_RECORD_LEN);
        let len = len.ok_or_else(|| enc(format!("{} bytes is too large", payload.len())))?;
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&record_checksum(SHARD_VERSION, &payload).to_le_bytes());
        buf.extend_from_slice(&payload);
    }
    Ok(buf)
}

/// Writes `records` to `path` atomically ([`crate::fsutil::write_atomic`]).
pub fn write_shard(path: &Path, records: &[GameRecord]) -> Result<(), ShardError> {
    let bytes = encode_shard(path, records)?;
    crate::fsutil::write_atomic(path, &bytes).map_err(|source| ShardError::Io { path: path.to_path_buf(), source })
}

/// Reads and validates a shard.
pub fn read_shard(path: &Path) -> Result<Vec<GameRecord>, ShardError> {
    let bytes = fs::read(path).map_err(|source| ShardError::Io { path: path.to_path_buf(), source })?;
    decode_shard(path, &bytes)
}

/// The file name of shard `index` of `worker`: `{worker}-{index:06}.shard` (a path prefix in
/// `worker` is kept: `shards/gen-0001/w1` gives `shards/gen-0001/w1-000003.shard`).
pub fn shard_name(worker: &str, index: u64) -> String {
    format!("{worker}-{index:06}.shard")
}

/// A shard name split into its worker (with any path prefix) and its index; `None` for a name
/// not of the form [`shard_name`] makes.
pub fn parse_shard_name(name: &str) -> Option<(&str, u64)> {
    let (worker, index) = name.strip_suffix(".shard")?.rsplit_once('-')?;
    Some((worker, index.parse().ok()?))
}

/// The worker of a shard file name, for reports: what stands before its last `-` (the whole name
/// when there is none).
pub fn shard_worker(file: &str) -> &str {
    file.rsplit_once('-').map_or(file, |(w, _)| w)
}

/// The game count in a shard's header (`None` when `header` does not start a shard).
pub fn header_game_count(header: &[u8]) -> Option<u64> {
    (header.len() >= HEADER_LEN && header[..8] == MAGIC)
        .then(|| u64::from_le_bytes(header[12..20].try_into().expect("8 bytes")))
}

/// Validates and decodes shard bytes (`path` is only used in errors).
pub fn decode_shard(path: &Path, bytes: &[u8]) -> Result<Vec<GameRecord>, ShardError> {
    let p = || path.to_path_buf();
    let mut at = 0usize;
    let take = |at: &mut usize, n: usize, what: &str| -> Result<std::ops::Range<usize>, ShardError> {
        let available = bytes.len() - *at;
        if available < n {
            return Err(ShardError::Truncated {
                path: p(),
                offset: *at as u64,
                what: what.to_string(),
                needed: n as u64,
                available: available as u64,
            });
        }
        *at += n;
        Ok(*at - n..*at)
    };
    let u32_at = |r: std::ops::Range<usize>| u32::from_le_bytes(bytes[r].try_into().expect("4 bytes"));
    let magic = take(&mut at, 8, "the magic")?;
    if bytes[magic] != MAGIC {
        return Err(ShardError::BadMagic { path: p(), offset: 0 });
    }
    let version = u32_at(take(&mut at, 4, "the schema version")?);
    if !(1..=SHARD_VERSION).contains(&version) {
        return Err(ShardError::Version { path: p(), offset: 8, found: version, expected: SHARD_VERSION });
    }
    let count = u64::from_le_bytes(bytes[take(&mut at, 8, "the record count")?].try_into().expect("8 bytes"));
    let mut out = Vec::with_capacity(count.min(1 << 16) as usize);
    for index in 0..count {
        let start = at;
        let corrupt = |reason: String| ShardError::Corrupt { path: p(), offset: start as u64, index, reason };
        let len = u32_at(take(&mut at, 4, &format!("record {index}'s length"))?);
        if len > MAX_RECORD_LEN {
            return Err(corrupt(format!("length {len} exceeds the limit {MAX_RECORD_LEN}")));
        }
        let sum = u32_at(take(&mut at, 4, &format!("record {index}'s checksum"))?);
        let payload = &bytes[take(&mut at, len as usize, &format!("record {index}"))?];
        if record_checksum(version, payload) != sum {
            return Err(corrupt("checksum mismatch".to_string()));
        }
        let rec: GameRecord = if version == 1 {
            bincode::deserialize::<GameRecordV1>(payload).map_err(|e| corrupt(e.to_string()))?.into()
        } else {
            bincode::deserialize(payload).map_err(|e| corrupt(e.to_string()))?
        };
        rec.validate().map_err(|e| corrupt(e.to_string()))?;
        if version < 4 {
            if let Some(i) = rec.positions.iter().position(|p| p.policy.is_empty()) {
                return Err(corrupt(format!(
                    "position {i} has an empty policy (value-only samples need shard version 4)"
                )));
            }
        }
        out.push(rec);
    }
    if at != bytes.len() {
        return Err(ShardError::TrailingBytes { path: p(), offset: at as u64, extra: (bytes.len() - at) as u64 });
    }
    Ok(out)
}

/// Collects finished games and writes them in shards of `games_per_shard` named
/// `{prefix}-{index:06}.shard` in `dir`.
pub struct ShardWriter {
    dir: PathBuf,
    prefix: String,
    games_per_shard: usize,
    buffer: Vec<GameRecord>,
    next_index: u64,
    written: Vec<PathBuf>,
}

impl ShardWriter {
    /// A writer into `dir` (created if missing), numbering shards from `first_index`.
    pub fn new(dir: &Path, prefix: &str, games_per_shard: usize, first_index: u64) -> Result<Self, ShardError> {
        fs::create_dir_all(dir).map_err(|source| ShardError::Io { path: dir.to_path_buf(), source })?;
        Ok(ShardWriter {
            dir: dir.to_path_buf(),
            prefix: prefix.to_string(),
            games_per_shard: games_per_shard.max(1),
            buffer: Vec::new(),
            next_index: first_index,
            written: Vec::new(),
        })
    }

    /// Adds a game; writes a shard when enough are buffered.
    pub fn push(&mut self, record: GameRecord) -> Result<(), ShardError> {
        self.buffer.push(record);
        if self.buffer.len() >= self.games_per_shard {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes any buffered games as a (possibly short) shard.
    pub fn flush(&mut self) -> Result<(), ShardError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let path = self.dir.join(shard_name(&self.prefix, self.next_index));
        write_shard(&path, &self.buffer)?;
        self.buffer.clear();
        self.next_index += 1;
        self.written.push(path);
        Ok(())
    }

    /// Paths of the shards written so far.
    pub fn written(&self) -> &[PathBuf] {
        &self.written
    }
}
