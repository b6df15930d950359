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
//! - `mixed3d`: `board` holds 512 entries indexed by cell = level·64 + rank·8 + file (from 0),
//!   each 0 or `1 + kind + 16·colour` (kinds as in `quasi-alice`, then 6 the commoner); `rights`
//!   the castling rights as the position's bits (white's six in the text's order, then black's);
//!   `ep_passed` 0, or 1 + the passed cell while an en passant capture is possible; `ep_pawn` 0;
//!   `reserve` `[0, 0]`; `castling` and `hypercylinder` false.
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
        let board = board_codes(CELLS, |c| self.piece_at(c).map(|p| (p.kind as u8, p.color)));
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
        no_flags(variant)?;
        let pieces = piece_codes(&s.board, CELLS, |kind, color| {
            (kind < 6).then(|| crate::quasi_alice::Piece { color, kind: crate::quasi_alice::Kind::from_index(kind) })
        })?;
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

impl SelfPlayGame for crate::mixed3d::Position {
    fn record_start(&self) -> (VariantRecord, SetupRecord) {
        use crate::mixed3d::geometry::CELLS;
        let variant =
            VariantRecord { ruleset: crate::mixed3d::NAME.to_string(), castling: false, hypercylinder: false };
        let board = board_codes(CELLS, |c| self.piece_at(c).map(|p| (p.kind as u8, p.color)));
        let setup = SetupRecord {
            board,
            side: self.side() as u8,
            reserve: [0, 0],
            rights: u128::from(self.castling()),
            ep_passed: self.ep().map_or(0, |c| c as u128 + 1),
            ep_pawn: 0,
            halfmove: self.halfmove(),
            fullmove: self.fullmove(),
        };
        (variant, setup)
    }

    /// Through the position text, so the start is validated like any position.
    fn from_record(variant: &VariantRecord, s: &SetupRecord) -> Result<Self, RecordError> {
        use crate::mixed3d::geometry::{cell_name, CELLS};
        use crate::mixed3d::{Kind, Piece, Position};
        no_flags(variant)?;
        let pieces = piece_codes(&s.board, CELLS, |kind, color| {
            (kind < 7).then(|| Piece { color, kind: Kind::from_index(kind) })
        })?;
        if s.side > 1 || s.rights >= 1 << 12 || s.reserve != [0, 0] || s.ep_passed > CELLS as u128 || s.ep_pawn != 0 {
            return Err(RecordError::Board(format!(
                "side {}, rights {}, reserve {:?}, ep_passed {}, ep_pawn {} (mixed3d: side 0 or 1, rights < 4096, no \
                 reserve, ep_passed 0..=512, ep_pawn 0)",
                s.side, s.rights, s.reserve, s.ep_passed, s.ep_pawn
            )));
        }
        // The castling field by name, read back through the text like any other.
        let rights: Vec<String> = (0..12)
            .filter(|i| s.rights & (1 << i) != 0)
            .map(|i| {
                let color = if i < 6 { Color::White } else { Color::Black };
                cell_name(Position::castling_of(color, i % 6).rook)
            })
            .collect();
        let castling = if rights.is_empty() { "-".to_string() } else { rights.join(",") };
        let ep = match s.ep_passed {
            0 => "-".to_string(),
            n => cell_name(n as usize - 1),
        };
        let full = format!(
            "{} {} {castling} {ep} {} {}",
            crate::mixed3d::notation::placement_text(|c| pieces[c]),
            if s.side == 0 { 'w' } else { 'b' },
            s.halfmove,
            s.fullmove
        );
        Position::from_text(&full).map_err(|e| RecordError::Board(e.to_string()))
    }

    fn is_ruleset(name: &str) -> bool {
        name == crate::mixed3d::NAME
    }

    fn move_bits(m: Self::Move) -> u32 {
        m.bits()
    }

    /// After the captures are played out: a quiescence search on material alone (the judge of
    /// [`crate::eval::records::RecordGame::material_adjudicator`]), since
    /// 256 men make a game at the cap often stand in the middle of an exchange, which the static
    /// count would hand to the side that captured last.
    fn material_lead(&self) -> f64 {
        use crate::engine::mixed3d::{M3Board, M3Weights};
        use crate::engine::{Engine, EngineConfig};
        thread_local! {
            static MATERIAL: std::cell::RefCell<Option<Engine<M3Board>>> = const { std::cell::RefCell::new(None) };
        }
        let w = M3Weights::default();
        let score = MATERIAL.with(|cell| {
            let mut cell = cell.borrow_mut();
            let engine = cell.get_or_insert_with(|| {
                Engine::with_eval(w.material_only(), EngineConfig { hash_mb: 1, keep_tt: false, threads: 1 })
            });
            engine.quiesce(self, crate::eval::adjudicate::MATERIAL_NODES).score.0
        });
        let white = if self.side() == Color::White { score } else { -score };
        f64::from(white) / f64::from(w.value(crate::mixed3d::Kind::Pawn))
    }
}

/// A record header of a game without the 5x5x5 flags: both must be off.
fn no_flags(variant: &VariantRecord) -> Result<(), RecordError> {
    if variant.castling || variant.hypercylinder {
        return Err(RecordError::Variant(format!(
            "{} takes neither castling nor hypercylinder flags",
            variant.ruleset
        )));
    }
    Ok(())
}

/// A record's board of `cells` cells: 0 for an empty cell, else `1 + kind + 16·colour` of the man
/// `man` gives (its kind index and colour).
fn board_codes(cells: usize, man: impl Fn(usize) -> Option<(u8, Color)>) -> Vec<u8> {
    (0..cells).map(|c| man(c).map_or(0, |(kind, color)| 1 + kind + 16 * color as u8)).collect()
}

/// The men of a record's board, which must hold `cells` codes (0 or `1 + kind + 16·colour`);
/// `piece` makes the man of a kind index and colour, `None` for a kind the game lacks.
fn piece_codes<P>(
    board: &[u8],
    cells: usize,
    piece: impl Fn(usize, Color) -> Option<P>,
) -> Result<Vec<Option<P>>, RecordError> {
    if board.len() != cells {
        return Err(RecordError::Board(format!("{} cells instead of {cells}", board.len())));
    }
    board
        .iter()
        .enumerate()
        .map(|(i, &code)| match code {
            0 => Ok(None),
            c if c % 16 >= 1 && c < 32 => {
                let color = if c >= 16 { Color::Black } else { Color::White };
                piece(((c % 16) - 1) as usize, color)
                    .map(Some)
                    .ok_or(RecordError::Board(format!("code {c} at cell {i}")))
            }
            c => Err(RecordError::Board(format!("code {c} at cell {i}"))),
        })
        .collect()
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
    fn mixed3d_starts_round_trip_and_damaged_headers_are_errors() {
        use crate::mixed3d::Position;
        round_trip(&Position::start());
        let mut p = Position::start();
        let mut rng = crate::rng::SplitMix64::new(9);
        for _ in 0..80 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            assert_eq!(move_from_bits(&p, m.bits()), Some(m));
            p.make(m);
            round_trip(&p);
        }
        // An en passant cell and partial rights survive the trip.
        let ep = Position::from_text(&Position::start().to_text()).unwrap();
        let mut q = ep.clone();
        q.make(q.parse_move("5e2-5e4").unwrap());
        assert!(q.ep().is_some());
        round_trip(&q);
        let (v, s) = Position::start().record_start();
        assert_eq!(s.rights, 0xFFF);
        let short = SetupRecord { board: s.board[..500].to_vec(), ..s.clone() };
        assert!(Position::from_record(&v, &short).unwrap_err().to_string().contains("500 cells"));
        let mut code = s.clone();
        code.board[40] = 8;
        assert!(Position::from_record(&v, &code).unwrap_err().to_string().contains("code 8 at cell 40"));
        for bad in [
            SetupRecord { rights: 1 << 12, ..s.clone() },
            SetupRecord { ep_passed: 513, ..s.clone() },
            SetupRecord { ep_passed: 1, ..s.clone() },
            SetupRecord { side: 2, ..s.clone() },
        ] {
            assert!(Position::from_record(&v, &bad).is_err(), "{bad:?}");
        }
        let flags = VariantRecord { hypercylinder: true, ..v.clone() };
        assert!(Position::from_record(&flags, &s).unwrap_err().to_string().contains("mixed3d takes neither"));
        // White without its rook on 8h1: the lead in pawns at the engine's default values.
        // (Nothing can be captured at the start, so the quiescence search leaves material as is.)
        let mut text = Position::start().to_text();
        text = text.replacen("RNBQCBNR ", "RNBQCBN1 ", 1);
        let r = Position::from_text(&text).unwrap();
        let w = crate::engine::mixed3d::M3Weights::default();
        let want = f64::from(w.value(crate::mixed3d::Kind::Rook)) / f64::from(w.value(crate::mixed3d::Kind::Pawn));
        assert!((r.material_lead() + want).abs() < 1e-9, "{}", r.material_lead());
        // A queen that hangs to a pawn, the pawn's side to move: the pawn takes it and the king
        // the pawn, so kings alone remain (the static count would say a queen less a pawn).
        let e = "8/8/8/8/8/8/8/8";
        let hanging =
            Position::from_text(&format!("8/8/8/8/8/2p5/3Q4/4K3|{e}|{e}|{e}|{e}|{e}|{e}|4k3/8/8/8/8/8/8/8 b - - 0 1"))
                .unwrap();
        assert_eq!(hanging.material_lead(), 0.0);
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
