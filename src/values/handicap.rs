//! What each side of an imbalance match lacks: the [`Imbalance`] type, its text form and the
//! errors of building one. Kept apart from [`super::setups`] (which turns an imbalance into a
//! position of a game) so that the game interface [`super::game`] can name it.

use crate::rules::Kind;
use std::fmt;

/// What each side lacks compared with the start position.
///
/// Text form (see [`Imbalance::parse_in`]): A's missing kinds, then optionally `/` and B's, by letter in the
/// ruleset's alphabet: `Q` (A lacks a queen), `PP` (A lacks two pawns), `S/R` (A lacks the silver
/// unicorn, B a rook), `Q/PPP` (a queen against three pawns: a handicap to bring the match near
/// 50%).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Imbalance {
    /// Kinds side A lacks (repeats allowed).
    pub a_lacks: Vec<Kind>,
    /// Kinds side B lacks (repeats allowed).
    pub b_lacks: Vec<Kind>,
}

/// Why an imbalance cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImbalanceError {
    /// Text that is not of the form `XY/Z`.
    #[error("bad imbalance '{0}': expected kinds by letter, e.g. Q, PP, S/R, Q/PPP")]
    Syntax(String),
    /// A letter the game has no kind for, or the king.
    #[error("imbalance '{text}': {game} has no removable piece '{letter}'")]
    Kind {
        /// The imbalance text.
        text: String,
        /// The game's rules (`fiveup`, `quasi-alice`).
        game: &'static str,
        /// The letter.
        letter: char,
    },
    /// More copies of a kind than a side has.
    #[error("{side} cannot lose {count} of kind {kind:?}: it starts with {have}")]
    TooMany {
        /// "A" or "B".
        side: &'static str,
        /// The kind.
        kind: Kind,
        /// How many were asked for.
        count: usize,
        /// How many the side starts with.
        have: usize,
    },
    /// The result is not a legal position (e.g. a side would be left in check).
    #[error("imbalance {imbalance} (instance {instance}, A = {color}) gives an illegal position: {error}")]
    Illegal {
        /// The imbalance text.
        imbalance: String,
        /// Instance number.
        instance: usize,
        /// A's colour.
        color: &'static str,
        /// Why the position is illegal.
        error: String,
    },
}

impl Imbalance {
    /// The start cells the two sides lose, in a game whose men are removed from its start by
    /// instance (4D Quasi-Alice, Mixed 3D): `cells(color, kind)` lists a side's start cells of a
    /// kind in instance order (empty for a kind the game has not); instance `i` removes entry
    /// `i mod count`, and a second copy the next entry.
    pub fn removed_cells(
        &self,
        a: crate::game::Color,
        instance: usize,
        cells: impl Fn(crate::game::Color, Kind) -> Vec<usize>,
    ) -> Result<Vec<usize>, ImbalanceError> {
        let mut removed = Vec::new();
        for (side, color, lacks) in [("A", a, &self.a_lacks), ("B", a.flip(), &self.b_lacks)] {
            let mut kinds: Vec<Kind> = lacks.clone();
            kinds.sort();
            kinds.dedup();
            for kind in kinds {
                let count = lacks.iter().filter(|&&k| k == kind).count();
                let at = cells(color, kind);
                if count > at.len() {
                    return Err(ImbalanceError::TooMany { side, kind, count, have: at.len() });
                }
                removed.extend((0..count).map(|j| at[(instance + j) % at.len()]));
            }
        }
        Ok(removed)
    }

    /// Number of distinct instances when a kind has `count(kind)` start men a side: the largest
    /// count of a kind named here (at least 1).
    pub fn instances_by(&self, count: impl Fn(Kind) -> usize) -> usize {
        self.a_lacks.iter().chain(&self.b_lacks).map(|&k| count(k)).max().unwrap_or(1).max(1)
    }

    /// The error of a start position the rules refuse (instance `instance`, A of colour `a`).
    pub fn illegal(&self, instance: usize, a: crate::game::Color, error: impl fmt::Display) -> ImbalanceError {
        ImbalanceError::Illegal { imbalance: self.text(), instance, color: a.name(), error: error.to_string() }
    }

    /// Side A lacks one piece of `kind`.
    pub fn piece(kind: Kind) -> Imbalance {
        Imbalance { a_lacks: vec![kind], b_lacks: Vec::new() }
    }

    /// Side A lacks `n` pawns (pawn-odds calibration).
    pub fn pawns(n: usize) -> Imbalance {
        Imbalance { a_lacks: vec![Kind::Pawn; n], b_lacks: Vec::new() }
    }

    /// Side A lacks `x`, side B lacks `y` (a direct exchange).
    pub fn exchange(x: Kind, y: Kind) -> Imbalance {
        Imbalance { a_lacks: vec![x], b_lacks: vec![y] }
    }

    /// Whether both sides lack only pawns and A lacks more: a pawn-odds calibration imbalance.
    pub fn is_calibration(&self) -> bool {
        self.a_lacks.iter().chain(&self.b_lacks).all(|&k| k == Kind::Pawn) && self.a_lacks.len() > self.b_lacks.len()
    }

    /// The single non-pawn kind A lacks when this measures one piece against pawns only (`Q`,
    /// `Q/PPP`, `RP`): the piece, and the pawn balance `B's pawns lacked − A's pawns lacked`.
    pub fn measured_piece(&self) -> Option<(Kind, i32)> {
        let pieces: Vec<Kind> = self.a_lacks.iter().copied().filter(|&k| k != Kind::Pawn).collect();
        if pieces.len() != 1 || self.b_lacks.iter().any(|&k| k != Kind::Pawn) {
            return None;
        }
        let a_pawns = self.a_lacks.iter().filter(|&&k| k == Kind::Pawn).count() as i32;
        Some((pieces[0], self.b_lacks.len() as i32 - a_pawns))
    }

    /// One piece against pieces and pawns (`R/BPPPP`, `Q/RRPP`): A lacks one non-pawn kind (and
    /// maybe pawns), B at least one non-pawn kind and at least one pawn. Such a match brackets a
    /// piece worth more than the pawns a side has and enters the joint fit (an exchange of pieces
    /// alone, `R/B` or `Q/RBN`, stays a check). The piece A lacks.
    pub fn piece_bracket(&self) -> Option<Kind> {
        let pieces: Vec<Kind> = self.a_lacks.iter().copied().filter(|&k| k != Kind::Pawn).collect();
        let b_pieces = self.b_lacks.iter().filter(|&&k| k != Kind::Pawn).count();
        let b_pawns = self.b_lacks.len() - b_pieces;
        match pieces[..] {
            [piece] if b_pieces >= 1 && b_pawns >= 1 => Some(piece),
            _ => None,
        }
    }

    /// The piece a match of the joint fit measures: the one A lacks against pawns
    /// ([`Self::measured_piece`]) or against pieces and pawns ([`Self::piece_bracket`]).
    pub fn measures(&self) -> Option<Kind> {
        self.measured_piece().map(|p| p.0).or_else(|| self.piece_bracket())
    }

    /// Where this match brackets the piece it [measures](Self::measures), in pawns: what B lacks
    /// minus the pawns A lacks beside the piece (`N/PPP`: 3; `R/BNP` with a bishop of 3.6 and a
    /// knight of 2.7: 7.3). `value` gives the current estimate of a non-pawn kind; `None` when
    /// one is unknown or the match measures no piece.
    pub fn bracket_in_pawns(&self, value: impl Fn(Kind) -> Option<f64>) -> Option<f64> {
        self.measures()?;
        let worth = |k: Kind| if k == Kind::Pawn { Some(1.0) } else { value(k) };
        let b: f64 = self.b_lacks.iter().map(|&k| worth(k)).sum::<Option<f64>>()?;
        let a_pawns = self.a_lacks.iter().filter(|&&k| k == Kind::Pawn).count() as f64;
        Some(b - a_pawns)
    }

    /// A's material minus B's, in pawns, under `value` (negative when A is handicapped).
    pub fn material_delta(&self, value: impl Fn(Kind) -> f64) -> f64 {
        self.b_lacks.iter().map(|&k| value(k)).sum::<f64>() - self.a_lacks.iter().map(|&k| value(k)).sum::<f64>()
    }

    /// Text form in a ruleset's alphabet (`Q`, `S/R`).
    pub fn text(&self) -> String {
        let s = |v: &[Kind]| v.iter().map(|k| k.letter()).collect::<String>();
        if self.b_lacks.is_empty() {
            s(&self.a_lacks)
        } else {
            format!("{}/{}", s(&self.a_lacks), s(&self.b_lacks))
        }
    }
}

impl fmt::Display for Imbalance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
