//! Building a position: the start setups, validation of a [`Setup`] and the way back to one.

use super::{decode, double_moves, double_row, promotion_row, EnPassant, Position, Setup, SetupError, Tables};
use crate::game::Color;
use crate::rules::bitboard::Bitboard;
use crate::rules::cell::Cell;
use crate::rules::geometry::{pawn_class, Geometry};
use crate::rules::types::{Kind, Piece, Ruleset, Variant, KIND_COUNT};

impl Position {
    /// The unchecked content of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 125];
        for (i, b) in board.iter_mut().enumerate() {
            *b = decode(self.board[i]);
        }
        Setup {
            variant: self.variant,
            board,
            side: self.side,
            reserve: self.reserve,
            rights: Bitboard(self.rights),
            ep: self.ep,
            halfmove: self.halfmove as u32,
            fullmove: self.fullmove as u32,
        }
    }

    // ----- construction ----------------------------------------------------------------------

    /// The start position of a variant.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_setup(Setup::start(variant)).expect("start positions are valid")
    }

    /// Validates a setup.
    pub fn from_setup(s: Setup) -> Result<Position, SetupError> {
        let rs = s.variant.ruleset;
        // `Variant`'s fields are public, so a literal may bypass `Variant::new`: check again.
        Variant::new(rs, s.variant.castling, s.variant.hypercylinder)?;
        let mut p = Position {
            variant: s.variant,
            tables: Tables(Geometry::get(s.variant.hypercylinder)),
            by_kind: [0; KIND_COUNT],
            by_color: [0; 2],
            board: [0; 125],
            kings: [0; 2],
            side: s.side,
            reserve: s.reserve,
            rights: s.rights.0,
            ep: s.ep,
            ep_hashed: false,
            halfmove: s.halfmove.min(u16::MAX as u32) as u16,
            fullmove: s.fullmove.min(u16::MAX as u32) as u16,
            hash: 0,
        };
        for (i, pc) in s.board.iter().enumerate() {
            if let Some(pc) = *pc {
                let c = Cell::new(i as u8);
                if !rs.has_kind(pc.kind) {
                    return Err(SetupError::ForeignPiece { ruleset: rs.name(), piece: pc.kind.name(), cell: c });
                }
                p.put(c, pc);
            }
        }
        for color in Color::ALL {
            let n = (p.by_kind[Kind::King.index()] & p.by_color[color.index()]).count_ones();
            if n != 1 {
                return Err(SetupError::KingCount(color.name(), n));
            }
            p.kings[color.index()] = (p.by_kind[Kind::King.index()] & p.by_color[color.index()]).trailing_zeros() as u8;
            let class = pawn_class(rs, color);
            if let Some(c) = Bitboard(p.by_kind[0] & p.by_color[color.index()] & promotion_row(class)).first() {
                return Err(SetupError::PawnOnPromotionRow(color.name(), c));
            }
        }
        if s.fullmove == 0 {
            return Err(SetupError::BadFullmove);
        }
        if !rs.is_fiveup() {
            if s.reserve != [0, 0] {
                return Err(SetupError::ReserveNotAllowed(rs.name()));
            }
            if s.rights.nonempty() {
                return Err(SetupError::RightsNotAllowed(rs.name()));
            }
        }
        p.reserve[0] &= 7;
        p.reserve[1] &= 7;
        if s.rights.0 >> 125 != 0 {
            return Err(SetupError::OffBoard("the placement rights"));
        }
        if s.ep.passed >> 125 != 0 {
            return Err(SetupError::OffBoard("the en passant field"));
        }
        for c in s.rights {
            match p.piece_at(c) {
                Some(pc) if pc.kind != Kind::Pawn => {}
                _ => return Err(SetupError::RightWithoutPiece(c)),
            }
        }
        if s.ep.is_some() {
            if !rs.has_double_move() {
                return Err(SetupError::EpNotAllowed(rs.name()));
            }
            p.validate_ep()?;
        }
        let them = p.side.flip();
        if p.attackers(p.kings[them.index()] as usize, p.side, p.occupied().0, p.by_color[p.side.index()]) != 0 {
            return Err(SetupError::OpponentInCheck(them.name()));
        }
        p.ep_hashed = p.ep_capture_possible();
        p.hash = p.compute_hash();
        Ok(p)
    }

    fn validate_ep(&self) -> Result<(), SetupError> {
        let mover = self.side.flip();
        let bad = |why: &str| SetupError::BadEp(mover.name(), why.to_string());
        let pawn = Cell::new_unchecked(self.ep.pawn.min(124));
        if self.ep.pawn >= 125 || self.piece_at(pawn) != Some(Piece::new(mover, Kind::Pawn)) {
            return Err(bad(&format!("no {} pawn on {}", mover.name(), pawn)));
        }
        if self.ep.passed & self.occupied().0 != 0 {
            return Err(bad("a passed cell is occupied"));
        }
        // Some origin on the mover's outer start row must give exactly these (empty) passed cells.
        let g = self.geometry();
        for origin in Bitboard(double_row(mover)) {
            if self.board[origin.index()] != 0 {
                continue;
            }
            for (target, passed) in double_moves(g, pawn_class(self.ruleset(), mover), origin.index()) {
                if target == pawn.index() {
                    let empty = passed & !self.occupied().0;
                    if empty == self.ep.passed {
                        return Ok(());
                    }
                }
            }
        }
        Err(bad(&format!("no double move reaches {pawn} passing exactly the given cells")))
    }
}

impl Setup {
    /// An empty board of a variant, white to move, no reserve, no rights.
    pub fn empty(variant: Variant) -> Setup {
        Setup {
            variant,
            board: [None; 125],
            side: Color::White,
            reserve: [0, 0],
            rights: Bitboard::EMPTY,
            ep: EnPassant::default(),
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The start position of a variant (docs/RULES.md §2–4).
    pub fn start(variant: Variant) -> Setup {
        let mut s = Setup::empty(variant);
        let rs = variant.ruleset;
        let mut row = |name: &str, pieces: &str, color: Color, right: bool| {
            let layer = (name.as_bytes()[0] - b'A') as i32;
            let rank = (name.as_bytes()[1] - b'1') as i32;
            for (f, ch) in pieces.chars().enumerate() {
                let kind = rs.kind_from_letter(ch).expect("start letters are valid");
                let c = Cell::from_coords(layer, rank, f as i32).expect("on board");
                s.board[c.index()] = Some(Piece::new(color, kind));
                if right && kind != Kind::Pawn {
                    s.rights = s.rights.with(c);
                }
            }
        };
        match rs {
            Ruleset::FiveUp | Ruleset::FiveUp2001 => {
                row("A5", "RNKNR", Color::Black, true);
                row("A4", "PPPPP", Color::Black, false);
                row("B5", if rs == Ruleset::FiveUp { "UBQUB" } else { "BUQBU" }, Color::Black, true);
                row("B4", "PPPPP", Color::Black, false);
                row("D2", "PPPPP", Color::White, false);
                row("D1", "UBQUB", Color::White, true);
                row("E2", "PPPPP", Color::White, false);
                row("E1", "RNKNR", Color::White, true);
                s.reserve = [7, 7];
            }
            Ruleset::Raumschach => {
                row("E5", "RNKNR", Color::Black, false);
                row("E4", "PPPPP", Color::Black, false);
                row("D5", "UBQUB", Color::Black, false);
                row("D4", "PPPPP", Color::Black, false);
                row("B2", "PPPPP", Color::White, false);
                row("B1", "BUQBU", Color::White, false);
                row("A2", "PPPPP", Color::White, false);
                row("A1", "RNKNR", Color::White, false);
            }
        }
        s
    }
}
