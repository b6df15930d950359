//! Shard files: a header, then length-prefixed, checksummed bincode [`GameRecord`]s.
//!
//! Layout (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIVEUPSH` |
//! | 8 | 4 | schema version `u32` ([`SCHEMA_VERSION`] is written; version 1 is still read) |
//! | 12 | 8 | record count `u64` |
//! | 20 | … | `count` records, each: payload length `u32`, FNV-1a 32-bit checksum of the payload `u32`, payload (one bincode [`GameRecord`]) |
//!
//! The file ends exactly after the last record. Shards are written atomically (a temporary file
//! in the same directory, synced, then renamed), so a reader never sees a half-written shard under
//! its final name; the reader still checks everything and names the path and byte offset of the
//! first problem.

use super::records::{GameRecord, GameRecordV1, SCHEMA_VERSION};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first eight bytes of every shard.
pub const MAGIC: [u8; 8] = *b"FIVEUPSH";
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
    #[error("{path}: unsupported schema version {found} at byte {offset} (this build reads 1 to {expected})")]
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

/// FNV-1a, 32 bits: a cheap checksum that catches flipped and shifted bytes.
pub fn fnv1a32(data: &[u8]) -> u32 {
    data.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// The bytes of a shard holding `records`.
pub fn encode_shard(path: &Path, records: &[GameRecord]) -> Result<Vec<u8>, ShardError> {
    let mut buf = Vec::with_capacity(HEADER_LEN + records.len() * 4096);
    buf.extend_from_slice(&MAGIC);
    buf.extend_from_slice(&SCHEMA_VERSION.to_le_bytes());
    buf.extend_from_slice(&(records.len() as u64).to_le_bytes());
    for (i, r) in records.iter().enumerate() {
        let enc = |reason: String| ShardError::Encode { path: path.to_path_buf(), index: i as u64, reason };
        let payload = bincode::serialize(r).map_err(|e| enc(e.to_string()))?;
        let len = u32::try_from(payload.len()).ok().filter(|&l| l <= MAX_RECORD_LEN);
        let len = len.ok_or_else(|| enc(format!("{} bytes is too large", payload.len())))?;
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&fnv1a32(&payload).to_le_bytes());
        buf.extend_from_slice(&payload);
    }
    Ok(buf)
}

/// Writes `records` to `path` atomically (temporary file, sync, rename).
pub fn write_shard(path: &Path, records: &[GameRecord]) -> Result<(), ShardError> {
    let bytes = encode_shard(path, records)?;
    let io = |source| ShardError::Io { path: path.to_path_buf(), source };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Reads and validates a shard.
pub fn read_shard(path: &Path) -> Result<Vec<GameRecord>, ShardError> {
    let bytes = fs::read(path).map_err(|source| ShardError::Io { path: path.to_path_buf(), source })?;
    decode_shard(path, &bytes)
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
    if version != SCHEMA_VERSION && version != 1 {
        return Err(ShardError::Version { path: p(), offset: 8, found: version, expected: SCHEMA_VERSION });
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
        if fnv1a32(payload) != sum {
            return Err(corrupt("checksum mismatch".to_string()));
        }
        let rec: GameRecord = if version == 1 {
            bincode::deserialize::<GameRecordV1>(payload).map_err(|e| corrupt(e.to_string()))?.into()
        } else {
            bincode::deserialize(payload).map_err(|e| corrupt(e.to_string()))?
        };
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
        let path = self.dir.join(format!("{}-{:06}.shard", self.prefix, self.next_index));
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
