//! The network file (`.nnue`), little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic [`MAGIC`] (`FIVEUPNN`) |
//! | 4 | format version: 1; 2 for a network with output buckets; 3 for one with king buckets; 4 ([`VERSION`]) for one with pairwise products |
//! | 4 | ruleset: 0 `fiveup`, 1 `fiveup-2001`, 2 `raumschach` |
//! | 4 × 4 | inputs per king bucket (must be [`super::INPUTS`]), hidden, l1, l2 |
//! | 4 | versions 2 and 3: output buckets `B` (version 1: one) |
//! | 4 | versions 3 and 4: king buckets `K` (versions 1 and 2: one; [`super::king_bucket`]) |
//! | 4 | version 4: the accumulator's activation, 0 clipped values, 1 pairwise products ([`super::Dims::pairwise`]; versions 1 to 3: 0) |
//! | 4 | output scale (`f32`, centipawns per unit) |
//! | … | ft bias `i16 × hidden`, ft weights `i16 × K × inputs × hidden` (king bucket by bucket), l1 bias `i32 × B × l1`, l1 weights `i8 × B × l1 × D` (`D` = 2·hidden, or hidden with pairwise products), l2 bias `i32 × B × l2`, l2 weights `i8 × B × l2 × l1`, output bias `i32 × B`, output weights `i8 × B × l2` (the dense arrays bucket by bucket) |
//! | 4 | CRC-32 ([`crate::fsutil::crc32`]) of every byte before it |
//!
//! A network is written in the oldest version that holds it: one of one output bucket and no king
//! buckets as version 1, byte for byte what builds before the buckets wrote, so such files stay
//! readable by them; every version is read.
//!
//! Reading checks the magic, version, ruleset, sizes, length and checksum before any weight is
//! used, and names the file and what is wrong in one line ([`NnueError`]). Writing goes through
//! the one atomic write ([`crate::fsutil::write_atomic`]).

use super::{Dims, Network, INPUTS};
use crate::rules::Ruleset;
use std::path::Path;

/// The first eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"FIVEUPNN";
/// The newest file format version this build reads and writes (older versions are read, and
/// written for networks they can hold).
pub const VERSION: u32 = 4;

/// A network file that cannot be used: the file and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("network file {path}: {reason}")]
pub struct NnueError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

/// What is wrong with a network's bytes or sizes (the `reason` of an [`NnueError`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NetworkFormatError {
    /// The first eight bytes are not [`MAGIC`].
    #[error("not a fiveup network (wrong magic bytes)")]
    Magic,
    /// A format version this build does not read.
    #[error("format version {0}; this build reads versions 1 to {VERSION}")]
    Version(u32),
    /// A ruleset number with no ruleset.
    #[error("unknown ruleset number {0}")]
    RulesetNumber(u32),
    /// A network of another ruleset than the one asked for.
    #[error("a {} network cannot evaluate {} positions", .have.name(), .want.name())]
    Ruleset {
        /// The network's ruleset.
        have: Ruleset,
        /// The ruleset asked for.
        want: Ruleset,
    },
    /// A feature set of another size than this build's.
    #[error("{0} inputs; this build's feature set has {INPUTS}")]
    Inputs(usize),
    /// An activation number with no activation.
    #[error("unknown activation {0} (0 clipped values, 1 pairwise products)")]
    Activation(u32),
    /// A hidden width out of range ([`Dims::check`]).
    #[error("hidden width {0} is not a multiple of 16 from 16 to 1024")]
    Hidden(usize),
    /// A dense width out of range ([`Dims::check`]).
    #[error("{name} width {width} is not from 1 to 256")]
    Dense {
        /// `l1` or `l2`.
        name: &'static str,
        /// The width.
        width: usize,
    },
    /// An output bucket count out of range ([`Dims::check`]).
    #[error("{0} output buckets: expected 1 to {MAX_BUCKETS}", MAX_BUCKETS = super::MAX_BUCKETS)]
    Buckets(usize),
    /// A king bucket count other than one or [`super::KING_BUCKETS`] ([`Dims::check`]).
    #[error("{0} king buckets: expected 1 (none) or {KING_BUCKETS}", KING_BUCKETS = super::KING_BUCKETS)]
    Kings(usize),
    /// A hidden width that pairwise products cannot halve into whole SIMD lanes ([`Dims::check`]).
    #[error("hidden width {0} with pairwise products is not a multiple of 32")]
    Pairwise(usize),
    /// A file length other than the sizes imply.
    #[error("{len} bytes; a network of these sizes has {want} (truncated or padded)")]
    Length {
        /// The file's length.
        len: usize,
        /// The length the sizes imply.
        want: usize,
    },
    /// The checksum field is short.
    #[error("short checksum")]
    ShortChecksum,
    /// The checksum does not match the bytes.
    #[error("checksum mismatch (the file is damaged)")]
    Checksum,
    /// The output scale field is short.
    #[error("short scale")]
    ShortScale,
    /// An output scale that is not a positive number.
    #[error("output scale {0} is not a positive number")]
    Scale(f32),
    /// The file ends before a field.
    #[error("the file ends early (truncated)")]
    Truncated,
}

const RULESETS: [Ruleset; 3] = [Ruleset::FiveUp, Ruleset::FiveUp2001, Ruleset::Raumschach];

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.ft_weights.len() * 2);
        b.extend_from_slice(MAGIC);
        let version: u32 = match (self.dims.buckets, self.dims.kings, self.dims.pairwise) {
            (_, _, true) => 4,
            (1, 1, false) => 1,
            (_, 1, false) => 2,
            _ => 3,
        };
        b.extend_from_slice(&version.to_le_bytes());
        let rs = RULESETS.iter().position(|&r| r == self.ruleset).unwrap_or(0) as u32;
        b.extend_from_slice(&rs.to_le_bytes());
        for n in [INPUTS, self.dims.hidden, self.dims.l1, self.dims.l2] {
            b.extend_from_slice(&(n as u32).to_le_bytes());
        }
        if version >= 2 {
            b.extend_from_slice(&(self.dims.buckets as u32).to_le_bytes());
        }
        if version >= 3 {
            b.extend_from_slice(&(self.dims.kings as u32).to_le_bytes());
        }
        if version >= 4 {
            b.extend_from_slice(&u32::from(self.dims.pairwise).to_le_bytes());
        }
        b.extend_from_slice(&self.output_scale.to_le_bytes());
        self.ft_bias.iter().chain(&self.ft_weights).for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
        self.l1_bias.iter().for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
        b.extend(self.l1_weights.iter().map(|&v| v as u8));
        self.l2_bias.iter().for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
        b.extend(self.l2_weights.iter().map(|&v| v as u8));
        self.out_bias.iter().for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
        b.extend(self.out_weights.iter().map(|&v| v as u8));
        let crc = crate::fsutil::crc32(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// Writes the network atomically.
    pub fn save(&self, path: &Path) -> Result<(), NnueError> {
        crate::fsutil::write_atomic(path, &self.to_bytes())
            .map_err(|e| NnueError { path: path.display().to_string(), reason: e.to_string() })
    }

    /// Reads a network for `ruleset` (`None`: any) from a file.
    pub fn load(path: &Path, ruleset: Option<Ruleset>) -> Result<Network, NnueError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| NnueError { path: name.clone(), reason: e.to_string() })?;
        Network::from_bytes(&bytes, ruleset).map_err(|e| NnueError { path: name, reason: e.to_string() })
    }

    /// Reads a network from a file's bytes; the error says what is wrong.
    pub fn from_bytes(bytes: &[u8], ruleset: Option<Ruleset>) -> Result<Network, NetworkFormatError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NetworkFormatError::Magic);
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkFormatError::Version(version));
        }
        let rs = r.u32()?;
        let rs = *RULESETS.get(rs as usize).ok_or(NetworkFormatError::RulesetNumber(rs))?;
        if let Some(want) = ruleset.filter(|&w| w != rs) {
            return Err(NetworkFormatError::Ruleset { have: rs, want });
        }
        let inputs = r.u32()? as usize;
        if inputs != INPUTS {
            return Err(NetworkFormatError::Inputs(inputs));
        }
        let (hidden, l1, l2) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        let buckets = if version >= 2 { r.u32()? as usize } else { 1 };
        let kings = if version >= 3 { r.u32()? as usize } else { 1 };
        let pairwise = match if version >= 4 { r.u32()? } else { 0 } {
            0 => false,
            1 => true,
            a => return Err(NetworkFormatError::Activation(a)),
        };
        let dims = Dims { hidden, l1, l2, buckets, kings, pairwise };
        dims.check()?;
        let b = dims.buckets;
        let body = dims.hidden * 2
            + dims.inputs() * dims.hidden * 2
            + b * (dims.l1 * 4 + dims.l1 * dims.dense_inputs() + dims.l2 * 4 + dims.l2 * dims.l1 + 4 + dims.l2);
        let want = r.at + 4 + body + 4;
        if bytes.len() != want {
            return Err(NetworkFormatError::Length { len: bytes.len(), want });
        }
        let crc = u32::from_le_bytes(bytes[want - 4..].try_into().map_err(|_| NetworkFormatError::ShortChecksum)?);
        if crc != crate::fsutil::crc32(&bytes[..want - 4]) {
            return Err(NetworkFormatError::Checksum);
        }
        let output_scale = f32::from_le_bytes(r.take(4)?.try_into().map_err(|_| NetworkFormatError::ShortScale)?);
        if !(output_scale.is_finite() && output_scale > 0.0) {
            return Err(NetworkFormatError::Scale(output_scale));
        }
        let i16s = |r: &mut Reader, n| {
            r.take(2 * n).map(|b| b.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect::<Vec<_>>())
        };
        let i32s = |r: &mut Reader, n| {
            r.take(4 * n)
                .map(|b| b.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>())
        };
        let i8s = |r: &mut Reader, n| r.take(n).map(|b| b.iter().map(|&v| v as i8).collect::<Vec<_>>());
        let ft_bias = i16s(&mut r, dims.hidden)?;
        let ft_weights = i16s(&mut r, dims.inputs() * dims.hidden)?;
        let l1_bias = i32s(&mut r, b * dims.l1)?;
        let l1_weights = i8s(&mut r, b * dims.l1 * dims.dense_inputs())?;
        let l2_bias = i32s(&mut r, b * dims.l2)?;
        let l2_weights = i8s(&mut r, b * dims.l2 * dims.l1)?;
        let out_bias = i32s(&mut r, b)?;
        let out_weights = i8s(&mut r, b * dims.l2)?;
        Ok(Network {
            ruleset: rs,
            dims,
            output_scale,
            ft_bias,
            ft_weights,
            l1_bias,
            l1_weights,
            l2_bias,
            l2_weights,
            out_bias,
            out_weights,
            layout: Default::default(),
        }
        .with_layout())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetworkFormatError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(NetworkFormatError::Truncated)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, NetworkFormatError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Dims;
    use super::*;

    #[test]
    fn networks_round_trip_and_bad_files_are_one_line_errors() {
        let net = Network::random(
            Ruleset::Raumschach,
            Dims { hidden: 16, l1: 4, l2: 4, buckets: 1, kings: 1, pairwise: false },
            1,
        );
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes, Some(Ruleset::Raumschach)).unwrap(), net);
        let dir = std::env::temp_dir().join(format!("fiveup-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.nnue");
        net.save(&path).unwrap();
        assert_eq!(Network::load(&path, None).unwrap(), net);
        let mut cases: Vec<(Vec<u8>, &str)> = vec![
            (bytes[..bytes.len() - 10].to_vec(), "truncated"),
            (b"GARBAGE!xxxx".to_vec(), "wrong magic"),
            (Vec::new(), "wrong magic"),
            ([&bytes[..], &[0]].concat(), "truncated or padded"),
        ];
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        cases.push((flipped, "checksum mismatch"));
        let mut version = bytes.clone();
        version[8] = 9;
        cases.push((version, "format version 9"));
        let mut sizes = bytes.clone();
        sizes[20] = 17;
        cases.push((sizes, "multiple of 16"));
        for (b, want) in cases {
            std::fs::write(&path, &b).unwrap();
            let e = Network::load(&path, None).unwrap_err().to_string();
            assert!(e.contains("r.nnue") && e.contains(want) && !e.contains('\n'), "{want}: {e}");
        }
        net.save(&path).unwrap();
        let e = Network::load(&path, Some(Ruleset::FiveUp)).unwrap_err().to_string();
        assert!(e.contains("a raumschach network cannot evaluate fiveup positions"), "{e}");
        let e = Network::load(&dir.join("missing.nnue"), None).unwrap_err().to_string();
        assert!(e.contains("missing.nnue") && !e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn networks_with_output_buckets_are_version_2_and_round_trip() {
        let one = Network::random(
            Ruleset::FiveUp,
            Dims { hidden: 16, l1: 4, l2: 3, buckets: 1, kings: 1, pairwise: false },
            2,
        );
        assert_eq!(one.to_bytes()[8], 1, "one bucket: the version earlier builds read");
        let net = Network::random(
            Ruleset::FiveUp,
            Dims { hidden: 16, l1: 4, l2: 3, buckets: 5, kings: 1, pairwise: false },
            2,
        );
        let bytes = net.to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
        assert_eq!(u32::from_le_bytes(bytes[32..36].try_into().unwrap()), 5, "buckets after the sizes");
        let back = Network::from_bytes(&bytes, Some(Ruleset::FiveUp)).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.dims.buckets, 5);
        // One bucket more than the weights hold: the length no longer fits.
        refused_with(&bytes, 32, 6, "truncated or padded");
        refused_with(&bytes, 32, 17, "17 output buckets: expected 1 to 16");
        // A version from a later build is refused, not misread.
        refused_with(&bytes, 8, 5, "format version 5; this build reads versions 1 to 4");
    }

    /// `bytes` with byte `at` set to `value` are refused with an error containing `want`.
    fn refused_with(bytes: &[u8], at: usize, value: u8, want: &str) {
        let mut b = bytes.to_vec();
        b[at] = value;
        let e = Network::from_bytes(&b, None).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }

    #[test]
    fn networks_with_king_buckets_are_version_3_and_round_trip() {
        for buckets in [1, 3] {
            let dims = Dims { hidden: 16, l1: 4, l2: 3, buckets, kings: super::super::KING_BUCKETS, pairwise: false };
            let net = Network::random(Ruleset::Raumschach, dims, 3);
            assert_eq!(net.ft_weights.len(), 4 * INPUTS * 16);
            let bytes = net.to_bytes();
            assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
            assert_eq!(u32::from_le_bytes(bytes[32..36].try_into().unwrap()), buckets as u32);
            assert_eq!(
                u32::from_le_bytes(bytes[36..40].try_into().unwrap()),
                4,
                "king buckets after the output buckets"
            );
            assert_eq!(Network::from_bytes(&bytes, Some(Ruleset::Raumschach)).unwrap(), net);
            // Another king bucket count: refused by name, or the length no longer fits.
            refused_with(&bytes, 36, 2, "2 king buckets: expected 1 (none) or 4");
            refused_with(&bytes, 36, 1, "truncated or padded");
        }
    }

    #[test]
    fn networks_with_pairwise_products_are_version_4_and_round_trip() {
        for (buckets, kings) in [(1, 1), (2, super::super::KING_BUCKETS)] {
            let dims = Dims { hidden: 32, l1: 4, l2: 3, buckets, kings, pairwise: true };
            let net = Network::random(Ruleset::FiveUp, dims, 4);
            assert_eq!(net.l1_weights.len(), buckets * 4 * 32, "hidden inputs, not 2·hidden");
            let bytes = net.to_bytes();
            assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 4);
            assert_eq!(u32::from_le_bytes(bytes[36..40].try_into().unwrap()), kings as u32);
            assert_eq!(u32::from_le_bytes(bytes[40..44].try_into().unwrap()), 1, "the activation after the kings");
            let back = Network::from_bytes(&bytes, Some(Ruleset::FiveUp)).unwrap();
            assert_eq!(back, net);
            assert!(back.dims.pairwise);
            refused_with(&bytes, 40, 2, "unknown activation 2");
            // Clipped values in place of products: twice the first layer's weights expected.
            refused_with(&bytes, 40, 0, "truncated or padded");
            // A width whose halves the kernels cannot pack.
            refused_with(&bytes, 20, 48, "hidden width 48 with pairwise products is not a multiple of 32");
        }
        // Without pairwise products nothing is written in version 4.
        let plain = Network::random(
            Ruleset::FiveUp,
            Dims { hidden: 32, l1: 4, l2: 3, buckets: 1, kings: 1, pairwise: false },
            4,
        );
        assert_eq!(plain.to_bytes()[8], 1);
    }
}
