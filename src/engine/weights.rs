//! Evaluation weights: one struct, defaults per ruleset, overridable from a small TOML file.
//!
//! Every per-kind table is indexed by [`Kind::index`]. Piece values are settable per kind so that
//! the piece-value estimator can feed measured values back in (`values.knight = 420`).
//!
//! # Default piece values (centipawns)
//! Measured, not guessed (`docs/PIECE_VALUES.md`; the equal-time matches that confirmed them
//! against the earlier defaults are in `docs/ENGINE.md`):
//! - **Five Up**: the outcome regression's values: P 1, U 2.4, N 3.5, B 3.3, R 2.5, S 4.5, W 6.5,
//!   G 5.5, Q 9.7 pawns (Jim Aikin guessed P 1, U 3, N 4, B 4, R 5, S 5, W 6, G 6, Q 9; the Five Up
//!   rook, which moves only within its level, is worth about half what he thought).
//! - **Raumschach**: values near the project's measurements: P 1, N 3, B 3, R 2.5, U 1.4, Q 9.5
//!   (the earlier working estimate was N 3, B 5, R 5, U 3, Q 10).
//!
//! # Mop-up (won endgames)
//! With at most `mopup_pieces` men on the board and one side ahead by at least `mopup_margin` in
//! material, the side ahead also scores `mopup_trade` % of its lead times the share of the
//! `mopup_pieces - 2` piece slots (men other than kings and pawns) that are empty, so trading
//! pieces, not pawns, pays while ahead; and once it has no pawns left to promote (with pawns,
//! promoting them is the plan: chasing the king instead lost conversions when measured),
//! `mopup_edge` per step the weaker king stands from the centre `Cc3` (up to 6, at a corner) and
//! `mopup_king` per step the kings are closer than the largest Manhattan distance (12). Off on a
//! hypercylinder board, where one axis has no edge. `mopup_pieces = 0` turns it off.
//!
//! # Tapered material (optional)
//! `values_end` are the values of an endgame without pieces; `values` those of the full board.
//! Between them the material term slides with the game phase, the non-pawn material left on the
//! board and in placeable hands (at `values`, reserve at `reserve_pct`) as a share of the start's:
//! a piece counts `values + (values_end − values) × (1 − phase)`. By default `values_end` equals
//! `values` (no taper). In a file, a kind given in `[values]` but not in `[values_end]` is not
//! tapered (its end value follows its value).
//!
//! # File format
//! Every key is optional; a missing key keeps the ruleset's default; an unknown key is an error.
//! ```toml
//! reserve_pct = 80       # a reserve piece in hand counts this % of its value while it can be placed
//! pawn_advance = 6       # per step (layer or rank) nearer the promotion row
//! pawn_advance_sq = 4    # times progress squared / 8, progress 0..8
//! king_attack = 6        # per attack by the side's pieces on cells next to the enemy king
//! king_shelter = 8       # per own piece next to the own king
//! tempo = 10             # for the side to move
//! mopup_pieces = 12      # mop-up (see above) with at most this many men on the board; 0 = off
//! mopup_margin = 300     # ... when one side leads by at least this much material
//! mopup_edge = 12        # per step the weaker king stands from the centre
//! mopup_king = 6         # per step the kings are closer than 12
//! mopup_trade = 30       # % of the lead times the share of empty piece slots
//! [values]
//! knight = 420
//! [values_end]           # tapered material (see above); optional
//! knight = 470
//! [mobility]             # per attacked cell not holding an own piece
//! queen = 1
//! [center]               # per step of centrality (0 at a corner, 6 at Cc3)
//! knight = 4
//! ```
//! Kind names: pawn, knight, bishop, rook, queen, king, unicorn (Five Up), silver, wizard, guard,
//! runicorn (the Raumschach unicorn).

use crate::rules::types::{Kind, Ruleset, KIND_COUNT};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// All evaluation weights, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Material value per kind (the king's entry is ignored); with a taper, on the full board.
    pub values: [i32; KIND_COUNT],
    /// Material value per kind in an endgame without pieces (tapered material, module docs);
    /// equal to `values` when there is no taper.
    pub values_end: [i32; KIND_COUNT],
    /// Percentage of its value a reserve piece in hand is worth while its owner can still place it.
    pub reserve_pct: i32,
    /// Per kind: bonus per attacked cell that does not hold an own piece.
    pub mobility: [i32; KIND_COUNT],
    /// Per kind: bonus per step of centrality (0..6).
    pub center: [i32; KIND_COUNT],
    /// Pawn bonus per step (layer or rank) of progress toward the promotion row.
    pub pawn_advance: i32,
    /// Pawn bonus times progress squared / 8.
    pub pawn_advance_sq: i32,
    /// Bonus per attack on a cell next to the enemy king.
    pub king_attack: i32,
    /// Bonus per own piece on a cell next to the own king.
    pub king_shelter: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Mop-up applies with at most this many men (kings and pawns included) on the board; 0 = off.
    pub mopup_pieces: i32,
    /// Mop-up applies when one side leads in material by at least this much.
    pub mopup_margin: i32,
    /// Mop-up: per step the weaker king stands from the centre.
    pub mopup_edge: i32,
    /// Mop-up: per step the kings are closer than 12 (Manhattan distance).
    pub mopup_king: i32,
    /// Mop-up: percent of the lead, times the share of the `mopup_pieces - 2` piece slots empty.
    pub mopup_trade: i32,
}

/// A per-kind table from values in the order P, N, B, R, Q, U, S, W, G, U(Raumschach); the king gets 0.
const fn table(v: [i32; 10]) -> [i32; KIND_COUNT] {
    // Kind order: Pawn, Knight, Bishop, Rook, Queen, King, Unicorn, Silver, Wizard, Guard, RUnicorn.
    [v[0], v[1], v[2], v[3], v[4], 0, v[5], v[6], v[7], v[8], v[9]]
}

impl Weights {
    /// The defaults of a ruleset (see the module docs for the piece values' sources).
    pub fn for_ruleset(ruleset: Ruleset) -> Weights {
        let values = match ruleset {
            Ruleset::FiveUp | Ruleset::FiveUp2001 => table([100, 350, 330, 250, 970, 240, 450, 650, 550, 0]),
            Ruleset::Raumschach => table([100, 300, 300, 250, 950, 0, 0, 0, 0, 140]),
        };
        Weights {
            values,
            values_end: values,
            reserve_pct: 80,
            mobility: table([0, 3, 2, 2, 1, 3, 1, 1, 2, 2]),
            center: table([0, 4, 2, 1, 1, 4, 2, 1, 3, 2]),
            pawn_advance: 6,
            pawn_advance_sq: 4,
            king_attack: 6,
            king_shelter: 8,
            tempo: 10,
            mopup_pieces: 12,
            mopup_margin: 300,
            mopup_edge: 12,
            mopup_king: 6,
            mopup_trade: 30,
        }
    }

    /// Value of a kind.
    #[inline]
    pub fn value(&self, kind: Kind) -> i32 {
        self.values[kind.index()]
    }

    /// Sets the value of a kind (for the piece-value estimator), untapered: its end value too.
    pub fn set_value(&mut self, kind: Kind, centipawns: i32) {
        self.values[kind.index()] = centipawns;
        self.values_end[kind.index()] = centipawns;
    }

    /// Whether the material is tapered (some end value differs from its value).
    #[inline]
    pub fn tapered(&self) -> bool {
        self.values_end != self.values
    }

    /// The values the search orders captures by and prunes with (delta pruning, exchange tests):
    /// per kind the larger of its value and its end value, so that a taper never makes the search
    /// skip a capture its evaluation counts higher. Without a taper, `values`.
    pub fn search_values(&self) -> [i32; KIND_COUNT] {
        std::array::from_fn(|i| self.values[i].max(self.values_end[i]))
    }

    /// The ruleset's defaults with the keys of a TOML text applied.
    pub fn from_toml_str(ruleset: Ruleset, text: &str) -> Result<Weights, WeightsError> {
        // One line naming the line (and section), as every config file's error.
        let file: WeightsFile = crate::tomlcfg::parse(text, "", &[]).map_err(|e| {
            WeightsError::Parse(match e {
                crate::tomlcfg::ConfigError::Parse { origin, message } if origin.is_empty() => message,
                e => e.to_string(),
            })
        })?;
        let mut w = Weights::for_ruleset(ruleset);
        file.apply(&mut w);
        w.check()?;
        Ok(w)
    }

    /// The ruleset's defaults with the keys of a TOML file applied.
    pub fn from_file(ruleset: Ruleset, path: &Path) -> Result<Weights, WeightsError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| WeightsError::Io(path.display().to_string(), e.to_string()))?;
        Weights::from_toml_str(ruleset, &text)
    }

    /// These weights as a complete TOML text (every key), which loads back to the same weights.
    pub fn to_toml_string(&self) -> String {
        let f = WeightsFile {
            reserve_pct: Some(self.reserve_pct),
            pawn_advance: Some(self.pawn_advance),
            pawn_advance_sq: Some(self.pawn_advance_sq),
            king_attack: Some(self.king_attack),
            king_shelter: Some(self.king_shelter),
            tempo: Some(self.tempo),
            mopup_pieces: Some(self.mopup_pieces),
            mopup_margin: Some(self.mopup_margin),
            mopup_edge: Some(self.mopup_edge),
            mopup_king: Some(self.mopup_king),
            mopup_trade: Some(self.mopup_trade),
            values: Some(KindTable::from_array(&self.values)),
            values_end: Some(KindTable::from_array(&self.values_end)),
            mobility: Some(KindTable::from_array(&self.mobility)),
            center: Some(KindTable::from_array(&self.center)),
        };
        toml::to_string(&f).expect("weights serialise")
    }

    /// Range checks; names the first value out of range.
    pub fn check(&self) -> Result<(), WeightsError> {
        let bad = |name: String, v: i32, lo: i32, hi: i32| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(WeightsError::Range { name, value: v, lo, hi })
            }
        };
        for k in Kind::ALL {
            bad(format!("values.{}", kind_key(k)), self.values[k.index()], 0, 10_000)?;
            bad(format!("values_end.{}", kind_key(k)), self.values_end[k.index()], 0, 10_000)?;
            bad(format!("mobility.{}", kind_key(k)), self.mobility[k.index()], -100, 100)?;
            bad(format!("center.{}", kind_key(k)), self.center[k.index()], -100, 100)?;
        }
        bad("reserve_pct".into(), self.reserve_pct, 0, 100)?;
        bad("mopup_pieces".into(), self.mopup_pieces, 0, 250)?;
        bad("mopup_margin".into(), self.mopup_margin, 0, 100_000)?;
        bad("mopup_trade".into(), self.mopup_trade, 0, 100)?;
        for (name, v) in [
            ("pawn_advance", self.pawn_advance),
            ("pawn_advance_sq", self.pawn_advance_sq),
            ("king_attack", self.king_attack),
            ("king_shelter", self.king_shelter),
            ("tempo", self.tempo),
            ("mopup_edge", self.mopup_edge),
            ("mopup_king", self.mopup_king),
        ] {
            bad(name.into(), v, -1_000, 1_000)?;
        }
        Ok(())
    }
}

/// Why a weights file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {0}: {1}")]
    Io(String, String),
    /// Not valid TOML, or an unknown key, or a value of the wrong type.
    #[error("bad weights file: {0}")]
    Parse(String),
    /// The network of `eval=nnue…` is missing, damaged or for another ruleset.
    #[error("{0}")]
    Network(String),
    /// The endgame tables of `tb=` cannot be opened.
    #[error("tb={0}")]
    Tablebase(String),
    /// The player's transposition table (`hash=`) does not fit in memory.
    #[error(transparent)]
    Table(#[from] super::tt::TableSizeError),
    /// A value outside its allowed range.
    #[error("weight {name} = {value} is out of range {lo}..={hi}")]
    Range {
        /// Key name.
        name: String,
        /// Given value.
        value: i32,
        /// Lowest allowed.
        lo: i32,
        /// Highest allowed.
        hi: i32,
    },
}

/// The key of a kind in the file format.
pub fn kind_key(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "pawn",
        Kind::Knight => "knight",
        Kind::Bishop => "bishop",
        Kind::Rook => "rook",
        Kind::Queen => "queen",
        Kind::King => "king",
        Kind::Unicorn => "unicorn",
        Kind::Silver => "silver",
        Kind::Wizard => "wizard",
        Kind::Guard => "guard",
        Kind::RUnicorn => "runicorn",
    }
}

/// The file as written: every key optional.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightsFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    reserve_pct: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pawn_advance: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pawn_advance_sq: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    king_attack: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    king_shelter: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tempo: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mopup_pieces: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mopup_margin: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mopup_edge: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mopup_king: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mopup_trade: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<KindTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    values_end: Option<KindTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mobility: Option<KindTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    center: Option<KindTable>,
}

impl crate::tomlcfg::TomlConfig for WeightsFile {
    // The ranges are the weights' own ([`Weights::check`]), applied after the defaults are filled.
}

impl WeightsFile {
    fn apply(&self, w: &mut Weights) {
        let set = |dst: &mut i32, src: Option<i32>| {
            if let Some(v) = src {
                *dst = v;
            }
        };
        set(&mut w.reserve_pct, self.reserve_pct);
        set(&mut w.pawn_advance, self.pawn_advance);
        set(&mut w.pawn_advance_sq, self.pawn_advance_sq);
        set(&mut w.king_attack, self.king_attack);
        set(&mut w.king_shelter, self.king_shelter);
        set(&mut w.tempo, self.tempo);
        set(&mut w.mopup_pieces, self.mopup_pieces);
        set(&mut w.mopup_margin, self.mopup_margin);
        set(&mut w.mopup_edge, self.mopup_edge);
        set(&mut w.mopup_king, self.mopup_king);
        set(&mut w.mopup_trade, self.mopup_trade);
        for (t, dst) in
            [(&self.values, &mut w.values), (&self.mobility, &mut w.mobility), (&self.center, &mut w.center)]
        {
            if let Some(t) = t {
                t.apply(dst);
            }
        }
        // A kind given a value but no end value is not tapered.
        let end = self.values_end.as_ref().map_or([None; KIND_COUNT], KindTable::slots);
        if let Some(v) = &self.values {
            for (i, (given, end)) in v.slots().into_iter().zip(end).enumerate() {
                if given.is_some() && end.is_none() {
                    w.values_end[i] = w.values[i];
                }
            }
        }
        if let Some(t) = &self.values_end {
            t.apply(&mut w.values_end);
        }
    }
}

/// One optional value per kind.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KindTable {
    #[serde(skip_serializing_if = "Option::is_none")]
    pawn: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    knight: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bishop: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rook: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    queen: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    king: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unicorn: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    silver: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wizard: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guard: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    runicorn: Option<i32>,
}

impl KindTable {
    fn slots(&self) -> [Option<i32>; KIND_COUNT] {
        // Kind index order.
        [
            self.pawn,
            self.knight,
            self.bishop,
            self.rook,
            self.queen,
            self.king,
            self.unicorn,
            self.silver,
            self.wizard,
            self.guard,
            self.runicorn,
        ]
    }

    fn apply(&self, dst: &mut [i32; KIND_COUNT]) {
        for (d, s) in dst.iter_mut().zip(self.slots()) {
            if let Some(v) = s {
                *d = v;
            }
        }
    }

    fn from_array(a: &[i32; KIND_COUNT]) -> KindTable {
        KindTable {
            pawn: Some(a[0]),
            knight: Some(a[1]),
            bishop: Some(a[2]),
            rook: Some(a[3]),
            queen: Some(a[4]),
            king: Some(a[5]),
            unicorn: Some(a[6]),
            silver: Some(a[7]),
            wizard: Some(a[8]),
            guard: Some(a[9]),
            runicorn: Some(a[10]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_defaults_for_both_rulesets() {
        let w = Weights::for_ruleset(Ruleset::FiveUp);
        let want = [
            (Kind::Pawn, 100),
            (Kind::Unicorn, 240),
            (Kind::Knight, 350),
            (Kind::Bishop, 330),
            (Kind::Rook, 250),
            (Kind::Silver, 450),
            (Kind::Wizard, 650),
            (Kind::Guard, 550),
            (Kind::Queen, 970),
        ];
        for (k, v) in want {
            assert_eq!(w.value(k), v, "{k:?}");
        }
        let r = Weights::for_ruleset(Ruleset::Raumschach);
        let want =
            [(Kind::Knight, 300), (Kind::Bishop, 300), (Kind::Rook, 250), (Kind::RUnicorn, 140), (Kind::Queen, 950)];
        for (k, v) in want {
            assert_eq!(r.value(k), v, "{k:?}");
        }
        assert!(w.check().is_ok());
    }

    #[test]
    fn file_overrides_some_keys_and_keeps_the_rest() {
        let w = Weights::from_toml_str(Ruleset::FiveUp, "tempo = 3\n[values]\nknight = 420\n").unwrap();
        assert_eq!(w.value(Kind::Knight), 420);
        assert_eq!(w.tempo, 3);
        assert_eq!(w.value(Kind::Queen), 970);
    }

    #[test]
    fn unknown_keys_and_ranges_are_errors() {
        assert!(matches!(Weights::from_toml_str(Ruleset::FiveUp, "tmepo = 3"), Err(WeightsError::Parse(_))));
        // One line naming the line, not toml's multi-line excerpt.
        let e = Weights::from_toml_str(Ruleset::FiveUp, "tempo = 3\ntmepo = 3").unwrap_err().to_string();
        assert!(e.starts_with("bad weights file: line 2: unknown field `tmepo`") && !e.contains('\n'), "{e}");
        assert!(matches!(
            Weights::from_toml_str(Ruleset::FiveUp, "[values]\nelephant = 3"),
            Err(WeightsError::Parse(_))
        ));
        let e = Weights::from_toml_str(Ruleset::FiveUp, "reserve_pct = 150").unwrap_err();
        assert!(e.to_string().contains("reserve_pct"), "{e}");
    }

    #[test]
    fn end_values_taper_only_the_kinds_they_name() {
        let w = Weights::for_ruleset(Ruleset::FiveUp);
        assert!(!w.tapered());
        let t = Weights::from_toml_str(
            Ruleset::FiveUp,
            "[values]\nknight = 420\nqueen = 900\n[values_end]\nqueen = 1200\n",
        )
        .unwrap();
        assert!(t.tapered());
        assert_eq!((t.value(Kind::Queen), t.values_end[Kind::Queen.index()]), (900, 1200));
        // Given a value but no end value: untapered at the new value.
        assert_eq!(t.values_end[Kind::Knight.index()], 420);
        // Neither: the default's end value.
        assert_eq!(t.values_end[Kind::Guard.index()], w.values_end[Kind::Guard.index()]);
        let e = Weights::from_toml_str(Ruleset::FiveUp, "[values_end]\nqueen = -5\n").unwrap_err();
        assert!(e.to_string().contains("values_end.queen"), "{e}");
        assert_eq!(Weights::from_toml_str(Ruleset::FiveUp, &t.to_toml_string()).unwrap(), t);
    }

    #[test]
    fn the_shipped_tapered_weights_load() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/weights-fiveup-tapered.toml");
        let w = Weights::from_file(Ruleset::FiveUp, &path).unwrap();
        assert!(w.tapered());
        assert_eq!((w.value(Kind::Guard), w.values_end[Kind::Guard.index()]), (444, 899));
        assert_eq!(w.search_values()[Kind::Guard.index()], 899);
        assert_eq!(w.search_values()[Kind::Pawn.index()], 100);
    }

    #[test]
    fn toml_round_trips() {
        let mut w = Weights::for_ruleset(Ruleset::Raumschach);
        w.set_value(Kind::Bishop, 470);
        let text = w.to_toml_string();
        assert_eq!(Weights::from_toml_str(Ruleset::FiveUp, &text).unwrap(), w);
    }
}
