//! What self-play and training need from a game beyond its network encoding
//! ([`crate::nn::NetGame`]): how its start position and moves are written into a training record
//! ([`super::records`]) and read back, and the material count that adjudicates a game stopped at
//! the ply cap.
//!
//! The record layout is shared by every game; the ruleset name in [`VariantRecord`] says how to
//! read the start position ([`SetupRecord`]):
//! - the 5x5x5 games: as [`crate::rules::Setup`], field by field (see [`super::records`]);
//! - `quasi-alice`: `board` holds 256 entries indexed by cell = board·64 + rank·8 + file (boards,
//!   ranks and files from 0), each 0 for empty or `1 + kind + 16·colour` (kind 0 pawn, 1 knight,
//!   2 bishop, 3 rook, 4 queen, 5 king; colour 0 white); `rights` the castling rights as bits (1
//!   white king side, 2 white queen side, 4 black king side, 8 black queen side); `ep_passed` 1
//!   when an en passant capture is possible and `ep_pawn` then the cell a capturing pawn moves to
//!   (0 and 0 otherwise); `reserve` is `[0, 0]`; `castling` and `hypercylinder` are false.
//!
//! A move is its packed 32 bits in either game ([`SelfPlayGame::move_bits`]); a record's moves are
//! read back by matching the bits against the legal moves, so a damaged record cannot play an
//! illegal move.

use super::records::{GameRecord, RecordError, SetupRecord, VariantRecord};
use crate::game::{legal_moves, Color};
use crate::nn::NetGame;
use crate::quasi_alice::board::{cell_name, BOARDS, CELLS};
use crate::quasi_alice::position::CASTLE_BITS;

/// A game that self-play can play and training can learn: a network encoding plus the record
/// format of its positions and moves.
pub trait SelfPlayGame: NetGame + crate::mcts::SearchGame + Clone + Send + Sync + 'static {
    /// The record header of a game starting from this position: the rules and the start.
    fn record_start(&self) -> (VariantRecord, SetupRecord);

    /// The position a record header names, validated (a damaged header is an error, never a
    /// panic). Called only for headers whose ruleset is this game's
    /// ([`SelfPlayGame::is_ruleset`]).
    fn from_record(variant: &VariantRecord, start: &SetupRecord) -> Result<Self, RecordError>;

    /// Whether a record's ruleset name is one of this game's.
    fn is_ruleset(name: &str) -> bool;

    /// A move as the record stores it.
    fn move_bits(m: Self::Move) -> u32;

    /// The legal move of this position whose record bits are `bits`, if any (by default by
    /// matching the legal moves).
    fn legal_move_from_bits(&self, bits: u32) -> Option<Self::Move> {
        legal_moves(self).into_iter().find(|&m| Self::move_bits(m) == bits)
    }

    /// White's material minus black's in pawns (board and placeable reserve, the engine's default
    /// values), for adjudicating a game at the ply cap.
    fn material_lead(&self) -> f64;
}

impl SelfPlayGame for crate::rules::Position {
    fn record_start(&self) -> (VariantRecord, SetupRecord) {
        (VariantRecord::from_variant(self.variant()), SetupRecord::from_setup(&self.to_setup()))
    }

    fn from_record(variant: &VariantRecord, start: &SetupRecord) -> Result<Self, RecordError> {
        let v = variant.to_variant()?;
        Ok(crate::rules::Position::from_setup(start.to_setup(v)?)?)
    }

    fn is_ruleset(name: &str) -> bool {
        name.parse::<crate::rules::Ruleset>().is_ok()
    }

    fn move_bits(m: Self::Move) -> u32 {
        m.bits()
    }

    /// Unpacks the bits and tests that one move, without listing them all.
    fn legal_move_from_bits(&self, bits: u32) -> Option<Self::Move> {
        crate::rules::Move::from_bits(bits).filter(|m| self.is_legal(*m))
    }

    fn material_lead(&self) -> f64 {
        use crate::engine::{eval::material_balance, Weights};
        use crate::rules::Kind;
        let w = Weights::for_ruleset(self.ruleset());
        material_balance(self, &w) as f64 / w.values[Kind::Pawn.index()] as f64
    }
}

impl SelfPlayGame for crate::quasi_alice::Position {
    fn record_start(&self) -> (VariantRecord, SetupRecord) {
        let variant =
            VariantRecord { ruleset: crate::quasi_alice::NAME.to_string(), castling: false, hypercylinder: false };
        let board = (0..CELLS).map(|c| self.piece_at(c).map_or(0, |p| 1 + p.kind as u8 + 16 * p.color as u8)).collect();
        let setup = SetupRecord {
            board,
            side: self.side() as u8,
            reserve: [0, 0],
            rights: self.castling() as u128,
            ep_passed: self.ep().is_some() as u128,
            ep_pawn: self.ep().unwrap_or(0) as u8,
            halfmove: self.halfmove(),
            fullmove: self.fullmove(),
        };
        (variant, setup)
    }

    fn from_record(variant: &VariantRecord, s: &SetupRecord) -> Result<Self, RecordError> {
        use crate::quasi_alice::{Kind, Piece};
        if variant.castling || variant.hypercylinder {
            return Err(RecordError::Variant("quasi-alice takes neither castling nor hypercylinder flags".into()));
        }
        if s.board.len() != CELLS {
            return Err(RecordError::Board(format!("{} cells instead of {CELLS}", s.board.len())));
        }
        let mut pieces = Vec::with_capacity(CELLS);
        for (i, &code) in s.board.iter().enumerate() {
            let piece = match code {
                0 => None,
                c if (1..=6).contains(&(c % 16)) && c < 32 => {
                    let color = if c >= 16 { Color::Black } else { Color::White };
                    Some(Piece { color, kind: Kind::from_index(((c % 16) - 1) as usize) })
                }
                c => return Err(RecordError::Board(format!("code {c} at cell {i}"))),
            };
            pieces.push(piece);
        }
        let bad = |what: String| RecordError::Board(what);
        if s.side > 1 {
            return Err(bad(format!("side {} (0 white, 1 black)", s.side)));
        }
        if s.rights > 15 || s.reserve != [0, 0] || s.ep_passed > 1 {
            return Err(bad(format!(
                "rights {}, reserve {:?}, ep_passed {} (quasi-alice: rights < 16, no reserve, ep_passed 0 or 1)",
                s.rights, s.reserve, s.ep_passed
            )));
        }
        let mut castling = String::new();
        for (bit, c) in CASTLE_BITS.iter().zip(['K', 'Q', 'k', 'q']) {
            if s.rights as u8 & bit != 0 {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = match s.ep_passed {
            0 => "-".to_string(),
            _ => cell_name(s.ep_pawn as usize / 64, s.ep_pawn as usize % 64),
        };
        debug_assert_eq!(CELLS, BOARDS * 64);
        let text = format!(
            "{} {} {castling} {ep} {} {}",
            crate::quasi_alice::notation::placement_text(|c| pieces[c]),
            if s.side == 0 { 'w' } else { 'b' },
            s.halfmove,
            s.fullmove
        );
        crate::quasi_alice::Position::from_text(&text).map_err(|e| RecordError::Board(e.to_string()))
    }

    fn is_ruleset(name: &str) -> bool {
        name == crate::quasi_alice::NAME
    }

    fn move_bits(m: Self::Move) -> u32 {
        m.bits()
    }

    fn material_lead(&self) -> f64 {
        use crate::engine::quasi_alice::{eval::material, QaWeights};
        let w = QaWeights::default();
        let [white, black] = material(self, &w);
        (white - black) as f64 / w.value(crate::quasi_alice::Kind::Pawn) as f64
    }
}

impl GameRecord {
    /// The validated start position of a 5x5x5 game.
    pub fn start_position(&self) -> Result<crate::rules::Position, RecordError> {
        self.start_of::<crate::rules::Position>()
    }

    /// Every position of a 5x5x5 game, start first, each move checked for legality (so the result
    /// has `moves.len() + 1` entries).
    pub fn replay(&self) -> Result<Vec<crate::rules::Position>, RecordError> {
        self.replay_of::<crate::rules::Position>()
    }

    /// The validated start position of a game of `S` (a record of another game is an error
    /// naming its ruleset).
    pub fn start_of<S: SelfPlayGame>(&self) -> Result<S, RecordError> {
        if !S::is_ruleset(&self.variant.ruleset) {
            return Err(RecordError::Variant(format!("a game of {}, not of {}", self.variant.ruleset, S::ENCODING)));
        }
        S::from_record(&self.variant, &self.start)
    }

    /// Every position of a game of `S`, start first, each move checked for legality.
    pub fn replay_of<S: SelfPlayGame>(&self) -> Result<Vec<S>, RecordError> {
        let mut pos = self.start_of::<S>()?;
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for (index, &bits) in self.moves.iter().enumerate() {
            let m = move_from_bits(&pos, bits).ok_or(RecordError::IllegalMove { index, bits })?;
            pos.make(m);
            out.push(pos.clone());
        }
        Ok(out)
    }
}

/// The legal move of `pos` whose record bits are `bits`, if any.
pub fn move_from_bits<S: SelfPlayGame>(pos: &S, bits: u32) -> Option<S::Move> {
    pos.legal_move_from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<S: SelfPlayGame + PartialEq + std::fmt::Debug>(pos: &S) {
        let (v, s) = pos.record_start();
        let back = S::from_record(&v, &s).unwrap();
        assert_eq!(back.to_text(), pos.to_text());
        assert!(S::is_ruleset(&v.ruleset));
    }

    #[test]
    fn quasi_alice_starts_round_trip_through_the_record() {
        use crate::quasi_alice::Position;
        round_trip(&Position::start());
        // Moves on several boards, an en passant cell, lost castling rights, clocks.
        for text in [
            "r3k2r/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w Kq - 3 9",
            "4k3/8/8/8/4pP2/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 b - f3 0 30",
        ] {
            if let Ok(p) = Position::from_text(text) {
                round_trip(&p);
            }
        }
        let mut p = Position::start();
        let mut rng = 5u64;
        for _ in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = moves[(rng >> 33) as usize % moves.len()];
            assert_eq!(move_from_bits(&p, m.bits()), Some(m));
            p.make(m);
            round_trip(&p);
        }
    }

    #[test]
    fn damaged_quasi_alice_headers_are_errors() {
        use crate::quasi_alice::Position;
        let (v, s) = Position::start().record_start();
        let short = SetupRecord { board: s.board[..255].to_vec(), ..s.clone() };
        assert!(Position::from_record(&v, &short).unwrap_err().to_string().contains("255 cells"));
        let mut code = s.clone();
        code.board[40] = 7;
        assert!(Position::from_record(&v, &code).unwrap_err().to_string().contains("code 7 at cell 40"));
        let rights = SetupRecord { rights: 16, ..s.clone() };
        assert!(Position::from_record(&v, &rights).is_err());
        let mut kings = s.clone();
        kings.board[4] = 0;
        assert!(Position::from_record(&v, &kings).is_err(), "a side without a king");
        let flags = VariantRecord { castling: true, ..v.clone() };
        assert!(Position::from_record(&flags, &s).is_err());
    }

    #[test]
    fn material_leads_are_in_pawns() {
        use crate::quasi_alice::Position;
        assert_eq!(Position::start().material_lead(), 0.0);
        let p = Position::from_text("4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/3Q4/8/8/8|8/8/8/8/8/8/P7/8 w - - 0 1")
            .unwrap();
        // A queen and a pawn up, at the engine's default values.
        let w = crate::engine::quasi_alice::QaWeights::default();
        let want =
            f64::from(w.value(crate::quasi_alice::Kind::Queen) + w.value(crate::quasi_alice::Kind::Pawn)) / 100.0;
        assert!((p.material_lead() - want).abs() < 1e-9, "{} against {want}", p.material_lead());
        let five = crate::rules::Position::startpos(crate::rules::Variant::default());
        assert_eq!(five.material_lead(), 0.0);
    }
}
