//! Colours, piece kinds, rulesets and the variant (ruleset plus board flags).

use crate::game::Color;
use std::fmt;
use std::str::FromStr;

/// A kind of piece. The Five Up unicorn (a leaper) and the Raumschach unicorn (a 3D-diagonal
/// slider) are different kinds; both print as `U` in their own ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight: knight leaps.
    Knight = 1,
    /// Bishop: slides along 2D diagonals.
    Bishop = 2,
    /// Rook: slides along orthogonals.
    Rook = 3,
    /// Queen: 18 directions in Five Up, 26 in Raumschach.
    Queen = 4,
    /// King: 6 orthogonal steps plus 3D-diagonal captures in Five Up; 26 steps in Raumschach.
    King = 5,
    /// Five Up unicorn: unicorn leaps (1, 1, 2).
    Unicorn = 6,
    /// Five Up silver unicorn: unicorn leaps plus 3D-diagonal slides.
    Silver = 7,
    /// Five Up wizard: slides along 2D and 3D diagonals.
    Wizard = 8,
    /// Five Up guard: one step in any of 26 directions.
    Guard = 9,
    /// Raumschach unicorn: slides along the 8 3D diagonals.
    RUnicorn = 10,
}

/// Number of piece kinds.
pub const KIND_COUNT: usize = 11;

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; KIND_COUNT] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
        Kind::Unicorn,
        Kind::Silver,
        Kind::Wizard,
        Kind::Guard,
        Kind::RUnicorn,
    ];

    /// Index into per-kind arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Kind from its index; `None` when out of range.
    pub const fn from_index(i: usize) -> Option<Kind> {
        if i < KIND_COUNT {
            Some(Kind::ALL[i])
        } else {
            None
        }
    }

    /// The upper-case letter used in text (both unicorns are `U`).
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
            Kind::Unicorn | Kind::RUnicorn => 'U',
            Kind::Silver => 'S',
            Kind::Wizard => 'W',
            Kind::Guard => 'G',
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
            Kind::Unicorn => "unicorn",
            Kind::Silver => "silver unicorn",
            Kind::Wizard => "wizard",
            Kind::Guard => "guard",
            Kind::RUnicorn => "unicorn (Raumschach)",
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// Letter as printed in positions: upper case for white, lower case for black.
    pub fn char(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// The three reserve pieces of Five Up, in the order used by masks and move text.
pub const RESERVE_KINDS: [Kind; 3] = [Kind::Wizard, Kind::Guard, Kind::Silver];

/// Bit of a reserve kind in a reserve mask (W = 1, G = 2, S = 4); `None` for other kinds.
pub const fn reserve_bit(kind: Kind) -> Option<u8> {
    match kind {
        Kind::Wizard => Some(1),
        Kind::Guard => Some(2),
        Kind::Silver => Some(4),
        _ => None,
    }
}

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Ruleset {
    /// Five Up, the later (3dChessWiki) text: double moves, en passant, reserve placement.
    #[default]
    FiveUp,
    /// Five Up as published in 2001: other black B5 row, no double move, no en passant.
    FiveUp2001,
    /// Classic Raumschach (Maack).
    Raumschach,
}

impl Ruleset {
    /// Every ruleset, in [`Ruleset::index`] order.
    pub const ALL: [Ruleset; 3] = [Ruleset::FiveUp, Ruleset::FiveUp2001, Ruleset::Raumschach];

    /// Position in [`Ruleset::ALL`] (0, 1, 2), for per-ruleset tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Name as used on the command line and in records.
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::FiveUp => "fiveup",
            Ruleset::FiveUp2001 => "fiveup-2001",
            Ruleset::Raumschach => "raumschach",
        }
    }

    /// Whether this is one of the Five Up rulesets (reserve pieces, placement).
    pub const fn is_fiveup(self) -> bool {
        !matches!(self, Ruleset::Raumschach)
    }

    /// Whether pawns on the outer start row have a double move (and so en passant exists).
    pub const fn has_double_move(self) -> bool {
        matches!(self, Ruleset::FiveUp)
    }

    /// Piece kinds a pawn may promote to.
    pub const fn promotions(self) -> &'static [Kind] {
        match self {
            Ruleset::Raumschach => &[Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::RUnicorn],
            _ => &[
                Kind::Queen,
                Kind::Rook,
                Kind::Bishop,
                Kind::Knight,
                Kind::Unicorn,
                Kind::Silver,
                Kind::Wizard,
                Kind::Guard,
            ],
        }
    }

    /// The kind a letter names in this ruleset (`U` is a different kind in Raumschach); `None` if
    /// the ruleset has no such piece.
    pub fn kind_from_letter(self, c: char) -> Option<Kind> {
        let k = match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            'U' if self.is_fiveup() => Kind::Unicorn,
            'U' => Kind::RUnicorn,
            'S' | 'W' | 'G' if self.is_fiveup() => match c.to_ascii_uppercase() {
                'S' => Kind::Silver,
                'W' => Kind::Wizard,
                _ => Kind::Guard,
            },
            _ => return None,
        };
        Some(k)
    }

    /// Whether a kind exists in this ruleset.
    pub const fn has_kind(self, kind: Kind) -> bool {
        match kind {
            Kind::Unicorn | Kind::Silver | Kind::Wizard | Kind::Guard => self.is_fiveup(),
            Kind::RUnicorn => !self.is_fiveup(),
            _ => true,
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown ruleset name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset '{0}' (expected fiveup, fiveup-2001 or raumschach)")]
pub struct UnknownRuleset(pub String);

impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fiveup" | "five-up" => Ok(Ruleset::FiveUp),
            "fiveup-2001" | "five-up-2001" => Ok(Ruleset::FiveUp2001),
            "raumschach" => Ok(Ruleset::Raumschach),
            _ => Err(UnknownRuleset(s.to_string())),
        }
    }
}

/// A ruleset with its board flags: everything a position needs to know about the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    /// The rule set.
    pub ruleset: Ruleset,
    /// Optional castling rule (Five Up only, flat board only).
    pub castling: bool,
    /// Files a and e joined.
    pub hypercylinder: bool,
}

/// A flag combination the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// Castling asked for in Raumschach.
    #[error("castling is not a rule of raumschach")]
    CastlingInRaumschach,
    /// Castling asked for on the hypercylinder.
    #[error("castling is not available on the hypercylinder board")]
    CastlingOnCylinder,
}

impl Variant {
    /// A checked variant.
    pub fn new(ruleset: Ruleset, castling: bool, hypercylinder: bool) -> Result<Variant, VariantError> {
        if castling && ruleset == Ruleset::Raumschach {
            return Err(VariantError::CastlingInRaumschach);
        }
        if castling && hypercylinder {
            return Err(VariantError::CastlingOnCylinder);
        }
        Ok(Variant { ruleset, castling, hypercylinder })
    }

    /// The plain variant of a ruleset (no flags).
    pub const fn plain(ruleset: Ruleset) -> Variant {
        Variant { ruleset, castling: false, hypercylinder: false }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ruleset.name())?;
        if self.castling {
            f.write_str("+castling")?;
        }
        if self.hypercylinder {
            f.write_str("+hypercylinder")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruleset_names_round_trip() {
        for (i, r) in Ruleset::ALL.into_iter().enumerate() {
            assert_eq!(r.index(), i);
            assert_eq!(r.name().parse::<Ruleset>().unwrap(), r);
        }
        assert!("chess".parse::<Ruleset>().is_err());
    }

    #[test]
    fn letters_depend_on_ruleset() {
        assert_eq!(Ruleset::FiveUp.kind_from_letter('u'), Some(Kind::Unicorn));
        assert_eq!(Ruleset::Raumschach.kind_from_letter('U'), Some(Kind::RUnicorn));
        assert_eq!(Ruleset::Raumschach.kind_from_letter('W'), None);
        assert_eq!(Ruleset::FiveUp2001.kind_from_letter('g'), Some(Kind::Guard));
    }

    #[test]
    fn forbidden_flag_combinations() {
        assert!(Variant::new(Ruleset::Raumschach, true, false).is_err());
        assert!(Variant::new(Ruleset::FiveUp, true, true).is_err());
        assert!(Variant::new(Ruleset::FiveUp, true, false).is_ok());
    }
}
