//! The Mixed 3D evaluation's weights: defaults, overridable from a small TOML file.
//!
//! # Default piece values (centipawns)
//! Starting guesses scaled by what each man reaches on the cube: P 1, N 3.5, B 4.5, R 5.5, Q 10,
//! commoner 3.5 pawns. They stay the defaults because the material judge at the ply cap counts on
//! them; the measured values (`configs/weights-mixed3d-measured.toml`, `docs/PIECE_VALUES.md`)
//! play stronger when named.
//!
//! # File format
//! Every key is optional; a missing key keeps its default; an unknown key is an error naming it.
//! ```toml
//! pawn_advance = 6       # per rank a pawn stands beyond its start rank
//! pawn_advance_sq = 4    # times progress squared / 8, progress 0..5
//! pawn_guard = 4         # per own pawn defended by an own pawn (Betza's pawn "mountain")
//! king_near = 10         # per enemy man (not a pawn) within two steps of the own royal king
//! king_shelter = 6       # per own man next to the own royal king
//! tempo = 10             # for the side to move
//! mopup_pieces = 12      # mop-up with at most this many men on the cube; 0 = off
//! mopup_margin = 300     # ... when one side leads by at least this much material
//! mopup_edge = 12        # per step the weaker royal king stands from the centre
//! mopup_king = 6         # per step the royal kings are closer than 7 (Chebyshev)
//! [values]
//! knight = 400
//! [mobility]             # per attacked cell not holding an own man; all 0 skips the count
//! queen = 1
//! [center]               # per step of centrality (file, rank and level, 0..3 each)
//! knight = 4
//! ```
//! Kind names: pawn, knight, bishop, rook, queen, king, commoner (king: mobility and center only).

use crate::mixed3d::types::{Kind, KINDS};
use std::path::Path;

/// All weights of the Mixed 3D evaluation, in centipawns; per-kind tables are indexed by
/// `Kind as usize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct M3Weights {
    /// Material value per kind (the royal king's entry is 0).
    pub values: [i32; KINDS],
    /// Per kind: bonus per attacked cell not holding an own man.
    pub mobility: [i32; KINDS],
    /// Per kind: bonus per step of centrality (0..9: file, rank and level, 0..3 each).
    pub center: [i32; KINDS],
    /// Pawn bonus per rank of progress.
    pub pawn_advance: i32,
    /// Pawn bonus times progress squared / 8.
    pub pawn_advance_sq: i32,
    /// Bonus per own pawn defended by an own pawn.
    pub pawn_guard: i32,
    /// Penalty per enemy man other than a pawn within two steps (Chebyshev) of the own royal king.
    pub king_near: i32,
    /// Bonus per own man next to the own royal king.
    pub king_shelter: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Mop-up applies with at most this many men (kings and pawns included); 0 = off.
    pub mopup_pieces: i32,
    /// Mop-up applies when one side leads in material by at least this much.
    pub mopup_margin: i32,
    /// Mop-up: per step the weaker royal king stands from the centre.
    pub mopup_edge: i32,
    /// Mop-up: per step the royal kings are closer than 7.
    pub mopup_king: i32,
}

impl Default for M3Weights {
    fn default() -> M3Weights {
        M3Weights {
            //       P    N    B    R    Q     K  C
            values: [100, 350, 450, 550, 1000, 0, 350],
            mobility: [0, 0, 0, 0, 0, 0, 0],
            center: [0, 4, 2, 1, 1, 0, 3],
            pawn_advance: 6,
            pawn_advance_sq: 4,
            pawn_guard: 0,
            king_near: 10,
            king_shelter: 6,
            tempo: 10,
            mopup_pieces: 12,
            mopup_margin: 300,
            mopup_edge: 12,
            mopup_king: 6,
        }
    }
}

/// Why weights could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum M3WeightsError {
    /// The file could not be read.
    #[error("cannot read Mixed 3D weights file {0}: {1}")]
    Io(String, String),
    /// The text is not a valid weights file, or a value is out of range (one line naming the key).
    #[error("Mixed 3D weights: {0}")]
    Invalid(String),
}

/// Largest magnitude of any weight (keeps every evaluation far from the mate scores).
const MAX_WEIGHT: i32 = 10_000;

impl M3Weights {
    /// The value of `kind` (0 for the royal king).
    #[inline]
    pub fn value(&self, kind: Kind) -> i32 {
        self.values[kind as usize]
    }

    /// These piece values and nothing else: an evaluation of material alone (every positional
    /// weight and the tempo 0), as the material adjudication at a match's ply cap uses it.
    pub fn material_only(&self) -> M3Weights {
        M3Weights {
            values: self.values,
            mobility: [0; KINDS],
            center: [0; KINDS],
            pawn_advance: 0,
            pawn_advance_sq: 0,
            pawn_guard: 0,
            king_near: 0,
            king_shelter: 0,
            tempo: 0,
            mopup_pieces: 0,
            mopup_margin: 0,
            mopup_edge: 0,
            mopup_king: 0,
        }
    }

    /// Whether any mobility weight is set (the evaluation skips the count otherwise).
    pub fn counts_mobility(&self) -> bool {
        self.mobility.iter().any(|&m| m != 0)
    }

    /// Every weight with its key in the file (`tempo`, `values.knight`, ...).
    fn slots(&mut self) -> Vec<(String, &mut i32)> {
        let mut out: Vec<(String, &mut i32)> = vec![
            ("pawn_advance".into(), &mut self.pawn_advance),
            ("pawn_advance_sq".into(), &mut self.pawn_advance_sq),
            ("pawn_guard".into(), &mut self.pawn_guard),
            ("king_near".into(), &mut self.king_near),
            ("king_shelter".into(), &mut self.king_shelter),
            ("tempo".into(), &mut self.tempo),
            ("mopup_pieces".into(), &mut self.mopup_pieces),
            ("mopup_margin".into(), &mut self.mopup_margin),
            ("mopup_edge".into(), &mut self.mopup_edge),
            ("mopup_king".into(), &mut self.mopup_king),
        ];
        for (table, t) in [("values", &mut self.values), ("mobility", &mut self.mobility), ("center", &mut self.center)]
        {
            for (k, v) in t.iter_mut().enumerate() {
                if table == "values" && k == Kind::King as usize {
                    continue;
                }
                out.push((format!("{table}.{}", Kind::from_index(k).name()), v));
            }
        }
        out
    }

    /// Defaults with the keys of a TOML text applied.
    pub fn from_toml_str(text: &str) -> Result<M3Weights, M3WeightsError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            M3WeightsError::Invalid(e.message().lines().next().unwrap_or("not TOML").to_string())
        })?;
        let mut flat = Vec::new();
        for (key, value) in &table {
            match value {
                toml::Value::Table(t) => {
                    for (k, v) in t {
                        flat.push((format!("{key}.{k}"), v.clone()));
                    }
                }
                v => flat.push((key.clone(), v.clone())),
            }
        }
        let mut w = M3Weights::default();
        {
            let mut slots = w.slots();
            for (key, value) in flat {
                let Some(slot) = slots.iter_mut().find(|(k, _)| *k == key) else {
                    return Err(M3WeightsError::Invalid(format!("unknown key '{key}'")));
                };
                let v = value
                    .as_integer()
                    .and_then(|v| i32::try_from(v).ok())
                    .ok_or_else(|| M3WeightsError::Invalid(format!("{key} = {value}: expected an integer")))?;
                *slot.1 = v;
            }
        }
        w.check()?;
        Ok(w)
    }

    /// Defaults with the keys of a TOML file applied.
    pub fn from_file(path: &Path) -> Result<M3Weights, M3WeightsError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| M3WeightsError::Io(path.display().to_string(), e.to_string()))?;
        M3Weights::from_toml_str(&text)
    }

    /// These weights as a complete TOML text (every key), which loads back to the same weights.
    pub fn to_toml_string(&self) -> String {
        let mut w = self.clone();
        let mut top = String::new();
        let mut tables = std::collections::BTreeMap::<String, String>::new();
        for (key, v) in w.slots() {
            match key.split_once('.') {
                Some((t, k)) => tables.entry(t.to_string()).or_default().push_str(&format!("{k} = {v}\n")),
                None => top.push_str(&format!("{key} = {v}\n")),
            }
        }
        for (t, body) in tables {
            top.push_str(&format!("\n[{t}]\n{body}"));
        }
        top
    }

    /// Range checks: piece values 1..=10,000, every other weight within +-10,000,
    /// `mopup_pieces` 0..=256; the error names the first bad key.
    pub fn check(&self) -> Result<(), M3WeightsError> {
        let mut w = self.clone();
        for (key, v) in w.slots() {
            let ok = if key.starts_with("values.") {
                (1..=MAX_WEIGHT).contains(v)
            } else if key == "mopup_pieces" {
                (0..=256).contains(v)
            } else {
                v.abs() <= MAX_WEIGHT
            };
            if !ok {
                return Err(M3WeightsError::Invalid(format!("{key} = {v} is out of range")));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_overrides_defaults_and_bad_files_name_the_key() {
        let w = M3Weights::from_toml_str("tempo = 3\n[values]\ncommoner = 420\n[mobility]\nqueen = 2\n").unwrap();
        assert_eq!(w.tempo, 3);
        assert_eq!(w.value(Kind::Commoner), 420);
        assert_eq!(w.mobility[Kind::Queen as usize], 2);
        assert!(w.counts_mobility() && !M3Weights::default().counts_mobility());
        assert_eq!(w.value(Kind::Queen), M3Weights::default().value(Kind::Queen));
        for (text, key) in [
            ("tmepo = 3", "tmepo"),
            ("[values]\nknigth = 3", "values.knigth"),
            ("[values]\nking = 3", "values.king"),
            ("[values]\nqueen = 0", "values.queen"),
            ("mopup_pieces = 999", "mopup_pieces"),
            ("tempo = \"x\"", "tempo"),
            ("tempo = 99999999999", "tempo"),
        ] {
            let e = M3Weights::from_toml_str(text).unwrap_err().to_string();
            assert!(e.contains(key), "{text}: {e}");
        }
        assert!(M3Weights::from_toml_str("tempo = ").is_err());
        let e = M3Weights::from_file(Path::new("/nonexistent/m3.toml")).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/m3.toml"), "{e}");
        M3Weights::default().check().unwrap();
    }

    #[test]
    fn the_shipped_measured_values_load_and_change_only_the_piece_values() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/weights-mixed3d-measured.toml");
        let w = M3Weights::from_file(&path).unwrap();
        let kinds = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::Commoner];
        assert_eq!(kinds.map(|k| w.value(k)), [100, 393, 508, 660, 1125, 383]);
        assert_eq!(M3Weights { values: M3Weights::default().values, ..w }, M3Weights::default());
    }

    #[test]
    fn the_toml_text_loads_back_to_the_same_weights() {
        let mut w = M3Weights::default();
        w.values[Kind::Rook as usize] = 512;
        w.mobility[Kind::King as usize] = 2;
        w.mopup_king = 9;
        assert_eq!(M3Weights::from_toml_str(&w.to_toml_string()).unwrap(), w);
    }
}
