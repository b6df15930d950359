//! The Quasi-Alice evaluation's weights: defaults, overridable from a small TOML file.
//!
//! # Default piece values (centipawns)
//! Measured by `fiveup values --ruleset quasi-alice` (`docs/PIECE_VALUES.md`): the Texel-style
//! regression of game outcomes on material and this evaluation's own positional part, P 1,
//! N 2.71, B 3.50, R 7.98, Q 21.00 pawns. Against Kevin Pacey's guesses (N 4.375, B 5.5, R 8.5,
//! Q 14.5), which the engine played with before, they gain +27.9 ± 14.7 Elo at 10,000 nodes a
//! move (1,600 games, the same time a move; `docs/PIECE_VALUES.md`).
//!
//! # File format
//! Every key is optional; a missing key keeps its default; an unknown key is an error naming it.
//! ```toml
//! pawn_advance = 6       # per rank a pawn stands beyond its start rank
//! pawn_advance_sq = 4    # times progress squared / 8, progress 0..5
//! king_attack = 8        # per enemy attack on a square next to the own king on its board
//! king_board = 12        # per enemy man other than a pawn on the own king's board
//! king_shelter = 6       # per own man next to the own king on its board
//! tempo = 10             # for the side to move
//! mopup_pieces = 8       # mop-up with at most this many men on the boards; 0 = off
//! mopup_margin = 300     # ... when one side leads by at least this much material
//! mopup_edge = 12        # per step the weaker king stands from the centre of its board
//! mopup_king = 6         # per step the kings' squares are closer than 7 (Chebyshev)
//! [values]
//! knight = 437           # Pacey's guess instead of the measured 271
//! [mobility]             # per attacked square (on the man's board) not holding an own man
//! queen = 1
//! [center]               # per step of centrality (0 at an edge, 3 in the centre)
//! knight = 4
//! ```
//! Kind names: pawn, knight, bishop, rook, queen (king: mobility and center only).

use crate::quasi_alice::Kind;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// All weights of the Quasi-Alice evaluation, in centipawns; per-kind tables are indexed by
/// `Kind as usize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QaWeights {
    /// Material value per kind (the king's entry is 0).
    pub values: [i32; 6],
    /// Per kind: bonus per attacked square of its board not holding an own man.
    pub mobility: [i32; 6],
    /// Per kind: bonus per step of centrality (0..3).
    pub center: [i32; 6],
    /// Pawn bonus per rank of progress.
    pub pawn_advance: i32,
    /// Pawn bonus times progress squared / 8.
    pub pawn_advance_sq: i32,
    /// Penalty per enemy attack on a square next to the own king (on the king's board).
    pub king_attack: i32,
    /// Penalty per enemy man other than a pawn on the own king's board.
    pub king_board: i32,
    /// Bonus per own man next to the own king on its board.
    pub king_shelter: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Mop-up applies with at most this many men (kings and pawns included); 0 = off.
    pub mopup_pieces: i32,
    /// Mop-up applies when one side leads in material by at least this much.
    pub mopup_margin: i32,
    /// Mop-up: per step the weaker king stands from the centre of its board.
    pub mopup_edge: i32,
    /// Mop-up: per step the kings' squares are closer than 7.
    pub mopup_king: i32,
}

impl Default for QaWeights {
    fn default() -> QaWeights {
        QaWeights {
            values: [100, 271, 350, 798, 2100, 0],
            mobility: [0, 3, 3, 2, 1, 0],
            center: [0, 4, 2, 0, 1, 0],
            pawn_advance: 6,
            pawn_advance_sq: 4,
            king_attack: 8,
            king_board: 12,
            king_shelter: 6,
            tempo: 10,
            mopup_pieces: 8,
            mopup_margin: 300,
            mopup_edge: 12,
            mopup_king: 6,
        }
    }
}

/// Why weights could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QaWeightsError {
    /// The file could not be read.
    #[error("cannot read Quasi-Alice weights file {0}: {1}")]
    Io(String, String),
    /// The text is not a valid weights file (one line naming the line and key).
    #[error("Quasi-Alice weights: {0}")]
    Parse(String),
    /// A value is out of its range.
    #[error("Quasi-Alice weights: {0}")]
    Range(String),
}

/// Largest magnitude of any weight (keeps every evaluation far from the mate scores).
const MAX_WEIGHT: i32 = 10_000;

impl QaWeights {
    /// The value of `kind` (0 for the king).
    #[inline]
    pub fn value(&self, kind: Kind) -> i32 {
        self.values[kind as usize]
    }

    /// Defaults with the keys of a TOML text applied.
    pub fn from_toml_str(text: &str) -> Result<QaWeights, QaWeightsError> {
        let file: QaWeightsFile = crate::tomlcfg::parse(text, "", &[]).map_err(|e| {
            QaWeightsError::Parse(match e {
                crate::tomlcfg::ConfigError::Parse { origin, message } if origin.is_empty() => message,
                e => e.to_string(),
            })
        })?;
        let mut w = QaWeights::default();
        file.apply(&mut w);
        w.check()?;
        Ok(w)
    }

    /// Defaults with the keys of a TOML file applied.
    pub fn from_file(path: &Path) -> Result<QaWeights, QaWeightsError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| QaWeightsError::Io(path.display().to_string(), e.to_string()))?;
        QaWeights::from_toml_str(&text)
    }

    /// These weights as a complete TOML text (every key), which loads back to the same weights.
    pub fn to_toml_string(&self) -> String {
        let table = |t: &[i32; 6]| KindTable {
            pawn: Some(t[0]),
            knight: Some(t[1]),
            bishop: Some(t[2]),
            rook: Some(t[3]),
            queen: Some(t[4]),
            king: Some(t[5]),
        };
        let f = QaWeightsFile {
            pawn_advance: Some(self.pawn_advance),
            pawn_advance_sq: Some(self.pawn_advance_sq),
            king_attack: Some(self.king_attack),
            king_board: Some(self.king_board),
            king_shelter: Some(self.king_shelter),
            tempo: Some(self.tempo),
            mopup_pieces: Some(self.mopup_pieces),
            mopup_margin: Some(self.mopup_margin),
            mopup_edge: Some(self.mopup_edge),
            mopup_king: Some(self.mopup_king),
            values: Some(table(&self.values)),
            mobility: Some(table(&self.mobility)),
            center: Some(table(&self.center)),
        };
        toml::to_string(&f).expect("weights serialise")
    }

    /// Range checks: piece values 1..=10,000 (pawn to queen), every other weight within
    /// +-10,000, `mopup_pieces` 0..=64; the error names the first bad key.
    pub fn check(&self) -> Result<(), QaWeightsError> {
        for k in &Kind::ALL[..5] {
            let v = self.values[*k as usize];
            if !(1..=MAX_WEIGHT).contains(&v) {
                return Err(QaWeightsError::Range(format!(
                    "values.{} = {v} is out of range (1..={MAX_WEIGHT})",
                    kind_name(*k)
                )));
            }
        }
        let tables = [("mobility", &self.mobility), ("center", &self.center)];
        for (name, t) in tables {
            for k in Kind::ALL {
                let v = t[k as usize];
                if v.abs() > MAX_WEIGHT {
                    return Err(QaWeightsError::Range(format!(
                        "{name}.{} = {v} is out of range (-{MAX_WEIGHT}..={MAX_WEIGHT})",
                        kind_name(k)
                    )));
                }
            }
        }
        let scalars = [
            ("pawn_advance", self.pawn_advance),
            ("pawn_advance_sq", self.pawn_advance_sq),
            ("king_attack", self.king_attack),
            ("king_board", self.king_board),
            ("king_shelter", self.king_shelter),
            ("tempo", self.tempo),
            ("mopup_margin", self.mopup_margin),
            ("mopup_edge", self.mopup_edge),
            ("mopup_king", self.mopup_king),
        ];
        for (name, v) in scalars {
            if v.abs() > MAX_WEIGHT {
                return Err(QaWeightsError::Range(format!(
                    "{name} = {v} is out of range (-{MAX_WEIGHT}..={MAX_WEIGHT})"
                )));
            }
        }
        if !(0..=64).contains(&self.mopup_pieces) {
            return Err(QaWeightsError::Range(format!(
                "mopup_pieces = {} is out of range (0..=64)",
                self.mopup_pieces
            )));
        }
        Ok(())
    }
}

/// A kind's name in a weights file.
fn kind_name(k: Kind) -> &'static str {
    ["pawn", "knight", "bishop", "rook", "queen", "king"][k as usize]
}

/// A per-kind section of the file.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct KindTable {
    pawn: Option<i32>,
    knight: Option<i32>,
    bishop: Option<i32>,
    rook: Option<i32>,
    queen: Option<i32>,
    king: Option<i32>,
}

impl KindTable {
    fn apply(&self, t: &mut [i32; 6]) {
        let src = [self.pawn, self.knight, self.bishop, self.rook, self.queen, self.king];
        for (dst, v) in t.iter_mut().zip(src) {
            if let Some(v) = v {
                *dst = v;
            }
        }
    }
}

/// The file as written: every key optional.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct QaWeightsFile {
    pawn_advance: Option<i32>,
    pawn_advance_sq: Option<i32>,
    king_attack: Option<i32>,
    king_board: Option<i32>,
    king_shelter: Option<i32>,
    tempo: Option<i32>,
    mopup_pieces: Option<i32>,
    mopup_margin: Option<i32>,
    mopup_edge: Option<i32>,
    mopup_king: Option<i32>,
    values: Option<KindTable>,
    mobility: Option<KindTable>,
    center: Option<KindTable>,
}

impl crate::tomlcfg::TomlConfig for QaWeightsFile {}

impl QaWeightsFile {
    fn apply(&self, w: &mut QaWeights) {
        let set = |dst: &mut i32, src: Option<i32>| {
            if let Some(v) = src {
                *dst = v;
            }
        };
        set(&mut w.pawn_advance, self.pawn_advance);
        set(&mut w.pawn_advance_sq, self.pawn_advance_sq);
        set(&mut w.king_attack, self.king_attack);
        set(&mut w.king_board, self.king_board);
        set(&mut w.king_shelter, self.king_shelter);
        set(&mut w.tempo, self.tempo);
        set(&mut w.mopup_pieces, self.mopup_pieces);
        set(&mut w.mopup_margin, self.mopup_margin);
        set(&mut w.mopup_edge, self.mopup_edge);
        set(&mut w.mopup_king, self.mopup_king);
        if let Some(t) = &self.values {
            t.apply(&mut w.values);
            w.values[Kind::King as usize] = 0;
        }
        if let Some(t) = &self.mobility {
            t.apply(&mut w.mobility);
        }
        if let Some(t) = &self.center {
            t.apply(&mut w.center);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_overrides_defaults_and_bad_files_name_the_key() {
        let w = QaWeights::from_toml_str("tempo = 3\n[values]\nknight = 420\n").unwrap();
        assert_eq!(w.tempo, 3);
        assert_eq!(w.value(Kind::Knight), 420);
        assert_eq!(w.value(Kind::Queen), QaWeights::default().value(Kind::Queen));
        let e = QaWeights::from_toml_str("tmepo = 3").unwrap_err().to_string();
        assert!(e.contains("tmepo"), "{e}");
        let e = QaWeights::from_toml_str("[values]\nknigth = 3").unwrap_err().to_string();
        assert!(e.contains("knigth"), "{e}");
        let e = QaWeights::from_toml_str("[values]\nqueen = 0").unwrap_err().to_string();
        assert!(e.contains("values.queen") && e.contains("out of range"), "{e}");
        let e = QaWeights::from_toml_str("mopup_pieces = 99").unwrap_err().to_string();
        assert!(e.contains("mopup_pieces"), "{e}");
        let e = QaWeights::from_file(Path::new("/nonexistent/qa.toml")).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/qa.toml"), "{e}");
        QaWeights::default().check().unwrap();
    }

    #[test]
    fn the_toml_text_loads_back_to_the_same_weights() {
        let mut w = QaWeights::default();
        w.values[Kind::Rook as usize] = 512;
        w.mobility[Kind::King as usize] = 2;
        w.mopup_king = 9;
        assert_eq!(QaWeights::from_toml_str(&w.to_toml_string()).unwrap(), w);
    }
}
