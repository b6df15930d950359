//! Material signatures: which men a table holds (`KRRvK`, `KQvKR`), their text, their canonical
//! orientation and the tables a table's captures lead to.

use crate::game::Color;
use crate::rules::{Kind, Ruleset};
use std::fmt;

/// The most men (kings included) a table may hold: a 5-man table would need 4.9 G entries.
pub const MAX_MEN: usize = 4;

/// The rules a table is built for. The two Five Up texts differ only in their pawns and black's
/// setup, so one family serves both; Raumschach has pieces of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Five Up, both texts (`fiveup`, `fiveup-2001`).
    FiveUp,
    /// Classic Raumschach.
    Raumschach,
}

impl Family {
    /// The family of a ruleset.
    pub const fn of(ruleset: Ruleset) -> Family {
        if ruleset.is_fiveup() {
            Family::FiveUp
        } else {
            Family::Raumschach
        }
    }

    /// A ruleset of this family (its pieces and moves).
    pub const fn ruleset(self) -> Ruleset {
        match self {
            Family::FiveUp => Ruleset::FiveUp,
            Family::Raumschach => Ruleset::Raumschach,
        }
    }

    /// The name used for its folder and in files: `fiveup` or `raumschach`.
    pub const fn name(self) -> &'static str {
        self.ruleset().name()
    }

    /// Whether the pieces move as in Five Up.
    pub const fn is_fiveup(self) -> bool {
        matches!(self, Family::FiveUp)
    }

    /// The piece kinds (kings and pawns excepted) of the family, strongest first: the order of
    /// letters in a material text.
    pub const fn pieces(self) -> &'static [Kind] {
        match self {
            Family::FiveUp => &[
                Kind::Queen,
                Kind::Wizard,
                Kind::Guard,
                Kind::Rook,
                Kind::Silver,
                Kind::Bishop,
                Kind::Knight,
                Kind::Unicorn,
            ],
            Family::Raumschach => &[Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::RUnicorn],
        }
    }

    /// The rank of a kind in [`Family::pieces`] (0 = strongest); `None` for kings, pawns and
    /// kinds of the other family.
    pub fn rank(self, kind: Kind) -> Option<usize> {
        self.pieces().iter().position(|&k| k == kind)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A material signature: the non-king men of each side (each side also has its king), in
/// [`Family::pieces`] order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// The family.
    pub family: Family,
    /// White's men besides the king, strongest first.
    pub white: Vec<Kind>,
    /// Black's men besides the king, strongest first.
    pub black: Vec<Kind>,
}

/// Why a material text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    /// Not of the form `K…vK…`.
    #[error("material '{0}': expected two sides joined by 'v', each a king and its men, e.g. KRRvK or KQvKR")]
    Form(String),
    /// A letter that is not a piece of the family.
    #[error("material '{text}': {family} has no piece '{letter}' in tables (its pieces: {pieces})")]
    Piece {
        /// The text.
        text: String,
        /// The family.
        family: Family,
        /// The letter.
        letter: char,
        /// The letters it has.
        pieces: String,
    },
    /// Too many men.
    #[error("material '{0}': {1} men; tables hold at most {MAX_MEN} (kings included)")]
    TooMany(String, usize),
}

impl Material {
    /// Reads a material text (`KRRvK`, `KQvKR`; letters in any order and either case) for a
    /// family.
    pub fn parse(family: Family, text: &str) -> Result<Material, MaterialError> {
        let t = text.trim();
        let form = || MaterialError::Form(text.to_string());
        let lower = t.to_ascii_lowercase();
        let (a, b) = lower.split_once('v').ok_or_else(form)?;
        let side = |s: &str| -> Result<Vec<Kind>, MaterialError> {
            let s = s.strip_prefix('k').ok_or_else(form)?;
            let mut kinds = Vec::new();
            for ch in s.chars() {
                let kind =
                    family.ruleset().kind_from_letter(ch).filter(|&k| family.rank(k).is_some()).ok_or_else(|| {
                        MaterialError::Piece {
                            text: text.to_string(),
                            family,
                            letter: ch.to_ascii_uppercase(),
                            pieces: family.pieces().iter().map(|k| k.letter()).collect(),
                        }
                    })?;
                kinds.push(kind);
            }
            Ok(kinds)
        };
        let m = Material::new(family, side(a)?, side(b)?);
        if m.men() > MAX_MEN {
            return Err(MaterialError::TooMany(text.to_string(), m.men()));
        }
        Ok(m)
    }

    /// The material with these men, each side sorted strongest first.
    pub fn new(family: Family, mut white: Vec<Kind>, mut black: Vec<Kind>) -> Material {
        let key = |k: &Kind| family.rank(*k).unwrap_or(usize::MAX);
        white.sort_by_key(key);
        black.sort_by_key(key);
        Material { family, white, black }
    }

    /// The number of men, kings included.
    pub fn men(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// The men of a side besides its king.
    pub fn side(&self, color: Color) -> &[Kind] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The same material with the colours exchanged.
    pub fn flipped(&self) -> Material {
        Material { family: self.family, white: self.black.clone(), black: self.white.clone() }
    }

    /// Whether this is the orientation tables are stored in: white has more men, or as many and
    /// the stronger ones (compared piece by piece in [`Family::pieces`] order).
    pub fn is_canonical(&self) -> bool {
        let ranks = |v: &[Kind]| v.iter().map(|&k| self.family.rank(k).unwrap_or(usize::MAX)).collect::<Vec<_>>();
        (self.white.len(), std::cmp::Reverse(ranks(&self.white)))
            >= (self.black.len(), std::cmp::Reverse(ranks(&self.black)))
    }

    /// The canonical orientation of this material, and whether the colours had to be exchanged.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (self.clone(), false)
        } else {
            (self.flipped(), true)
        }
    }

    /// Whether only the kings are left (a draw by bare kings: no table needed).
    pub fn bare_kings(&self) -> bool {
        self.white.is_empty() && self.black.is_empty()
    }

    /// The materials a capture leads to (one man of either side fewer), canonical, without
    /// repeats, bare kings left out.
    pub fn captures(&self) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        for color in [Color::White, Color::Black] {
            for i in 0..self.side(color).len() {
                let mut w = self.white.clone();
                let mut b = self.black.clone();
                match color {
                    Color::White => w.remove(i),
                    Color::Black => b.remove(i),
                };
                let m = Material::new(self.family, w, b).canonical().0;
                if !m.bare_kings() && !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// Every canonical pawnless material of `men` men of a family (kings included), in the order
    /// of their text.
    pub fn all_of(family: Family, men: usize) -> Vec<Material> {
        let pieces = family.pieces();
        let mut out = Vec::new();
        // Multisets of `n` kinds, strongest first.
        fn multisets(pieces: &[Kind], n: usize, from: usize, cur: &mut Vec<Kind>, out: &mut Vec<Vec<Kind>>) {
            if cur.len() == n {
                out.push(cur.clone());
                return;
            }
            for i in from..pieces.len() {
                cur.push(pieces[i]);
                multisets(pieces, n, i, cur, out);
                cur.pop();
            }
        }
        if men < 3 {
            return out;
        }
        let extra = men - 2;
        for white_n in (0..=extra).rev() {
            let black_n = extra - white_n;
            let (mut ws, mut bs) = (Vec::new(), Vec::new());
            multisets(pieces, white_n, 0, &mut Vec::new(), &mut ws);
            multisets(pieces, black_n, 0, &mut Vec::new(), &mut bs);
            for w in &ws {
                for b in &bs {
                    let m = Material::new(family, w.clone(), b.clone());
                    if m.is_canonical() && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = |v: &[Kind]| v.iter().map(|k| k.letter()).collect::<String>();
        write!(f, "K{}vK{}", letters(&self.white), letters(&self.black))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_text_round_trips_and_orders_its_letters() {
        let m = Material::parse(Family::FiveUp, "krrvk").unwrap();
        assert_eq!(m.to_string(), "KRRvK");
        let m = Material::parse(Family::FiveUp, "KNQvK").unwrap();
        assert_eq!(m.to_string(), "KQNvK");
        assert_eq!(m.men(), 4);
        let r = Material::parse(Family::Raumschach, "KUvK").unwrap();
        assert_eq!(r.white, vec![Kind::RUnicorn]);
    }

    #[test]
    fn bad_material_texts_say_what_is_wrong() {
        let e = |f, t| Material::parse(f, t).unwrap_err().to_string();
        assert!(
            e(Family::Raumschach, "KWvK").contains("raumschach has no piece 'W'"),
            "{}",
            e(Family::Raumschach, "KWvK")
        );
        assert!(e(Family::FiveUp, "KPvK").contains("no piece 'P'"));
        assert!(e(Family::FiveUp, "KRR").contains("expected two sides"));
        assert!(e(Family::FiveUp, "RvK").contains("expected two sides"));
        assert!(e(Family::FiveUp, "KRRvKR").contains("5 men"));
    }

    #[test]
    fn canonical_orientation_puts_the_stronger_side_first() {
        let m = Material::parse(Family::FiveUp, "KvKQ").unwrap();
        let (c, flipped) = m.canonical();
        assert!(flipped);
        assert_eq!(c.to_string(), "KQvK");
        let m = Material::parse(Family::FiveUp, "KNvKR").unwrap();
        assert_eq!(m.canonical().0.to_string(), "KRvKN");
        let m = Material::parse(Family::FiveUp, "KRvKR").unwrap();
        assert!(m.is_canonical() && m.flipped().is_canonical());
    }

    #[test]
    fn captures_lead_to_smaller_canonical_materials() {
        let m = Material::parse(Family::Raumschach, "KQvKR").unwrap();
        let names: Vec<String> = m.captures().iter().map(|m| m.to_string()).collect();
        assert_eq!(names, vec!["KRvK", "KQvK"]);
        assert!(Material::parse(Family::Raumschach, "KQvK").unwrap().captures().is_empty());
    }

    #[test]
    fn every_material_of_a_size_is_listed_once() {
        assert_eq!(Material::all_of(Family::Raumschach, 3).len(), 5);
        assert_eq!(Material::all_of(Family::FiveUp, 3).len(), 8);
        // KXYvK: 15 multisets of two of five; KXvKY: 15 unordered pairs of five.
        assert_eq!(Material::all_of(Family::Raumschach, 4).len(), 30);
        assert_eq!(Material::all_of(Family::FiveUp, 4).len(), 36 + 36);
    }
}
