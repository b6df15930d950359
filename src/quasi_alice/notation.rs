//! Position and move text.
//!
//! Position: the four boards' FEN fields joined by `|` (board 1 first, each rank 8 first), then
//! `side castling en-passant halfmove fullmove`; the en passant field names board and square
//! (`3e3`) or is `-`. Move: `<board><from><to>[promotion]><board>`, e.g. `1e2e4>3`, `2e7e8q>1`;
//! castling is the king's move (`1e1g1>2`); the promotion letter is written lower case and read in
//! either case.

use super::board::{cell_name, parse_board, parse_square, rank, square_name, BOARDS};
use super::moves::Move;
use super::position::{Position, CASTLE_BITS, NO_EP};
use super::types::{Kind, Piece};
use crate::game::Color;

/// Why a position text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Not six space-separated fields.
    #[error("a quasi-alice position has 6 fields (boards side castling en-passant halfmove fullmove), found {0}")]
    Fields(usize),
    /// Not four boards.
    #[error("a quasi-alice position has 4 boards joined by '|', found {0}")]
    Boards(usize),
    /// A board's FEN field is malformed.
    #[error("board {board}: {why}")]
    Board {
        /// The board, 1..4.
        board: usize,
        /// What is wrong.
        why: String,
    },
    /// The side field is not `w` or `b`.
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    Side(String),
    /// The castling field is malformed or names a right whose king or rook is not home.
    #[error("castling field '{0}': {1}")]
    Castling(String, String),
    /// The en passant field is malformed or impossible.
    #[error("en passant field '{0}': {1}")]
    EnPassant(String, String),
    /// A move counter is not a number in range.
    #[error("{0} must be a whole number ({1}), found '{2}'")]
    Counter(&'static str, &'static str, String),
    /// Not exactly one king a side.
    #[error("{0} must have exactly one king, found {1}")]
    Kings(&'static str, u32),
    /// A pawn on the first or last rank.
    #[error("a pawn on {0}: pawns cannot stand on the first or last rank")]
    PawnRank(String),
    /// The side not to move is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
}

/// Why a move text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Not of the form `1e2e4>3`.
    #[error("'{0}' is not a quasi-alice move (expected <board><from><to>[q|r|b|n]><board>, e.g. 1e2e4>3)")]
    Syntax(String),
    /// Well formed but not legal here.
    #[error("'{0}' is not a legal move in this position")]
    Illegal(String),
}

fn board_error(board: usize, why: impl Into<String>) -> TextError {
    TextError::Board { board: board + 1, why: why.into() }
}

impl Position {
    /// Reads and validates a position text.
    pub fn from_text(text: &str) -> Result<Position, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(TextError::Fields(fields.len()));
        }
        let boards: Vec<&str> = fields[0].split('|').collect();
        if boards.len() != BOARDS {
            return Err(TextError::Boards(boards.len()));
        }
        let mut p = Position::empty();
        for (b, fen) in boards.iter().enumerate() {
            read_board(&mut p, b, fen)?;
        }
        for c in Color::ALL {
            let n: u32 = (0..BOARDS).map(|b| p.pieces(c, Kind::King, b).count_ones()).sum();
            if n != 1 {
                return Err(TextError::Kings(c.name(), n));
            }
        }
        p.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(TextError::Side(s.to_string())),
        };
        p.castling = read_castling(&p, fields[2])?;
        p.ep = read_ep(&p, fields[3])?;
        p.halfmove = fields[4]
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 10_000)
            .ok_or_else(|| TextError::Counter("the halfmove clock", "0..=10000", fields[4].to_string()))?;
        p.fullmove = fields[5]
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=100_000).contains(&n))
            .ok_or_else(|| TextError::Counter("the move number", "1..=100000", fields[5].to_string()))?;
        let them = p.side.flip();
        let k = p.king(them);
        if p.attacked(k / 64, k % 64, p.side) {
            return Err(TextError::OppositeCheck(them.name()));
        }
        p.hash = p.full_hash();
        Ok(p)
    }

    /// The position text.
    pub fn to_text(&self) -> String {
        let mut s = placement_text(|cell| self.piece_at(cell));
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, c) in CASTLE_BITS.iter().zip(['K', 'Q', 'k', 'q']) {
            if self.castling & bit != 0 {
                s.push(c);
            }
        }
        s.push(' ');
        match self.ep() {
            Some(cell) => s.push_str(&cell_name(cell / 64, cell % 64)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Reads a legal move of this position from its text.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        let syntax = || MoveTextError::Syntax(text.to_string());
        let b = text.trim().as_bytes();
        let s = b.first().and_then(|&c| parse_board(c)).ok_or_else(syntax)?;
        let from = b.get(1..).and_then(parse_square).ok_or_else(syntax)?;
        let to = b.get(3..).and_then(parse_square).ok_or_else(syntax)?;
        let (promotion, rest) = match b.get(5) {
            Some(&c) if c != b'>' => {
                let k = Kind::from_letter(c as char).filter(|k| Kind::PROMOTIONS.contains(k)).ok_or_else(syntax)?;
                (Some(k), &b[6..])
            }
            _ => (None, &b[5..]),
        };
        let t = match rest {
            [b'>', c] => parse_board(*c).ok_or_else(syntax)?,
            _ => return Err(syntax()),
        };
        self.legal_moves()
            .into_iter()
            .find(|m| {
                m.board_from() == s
                    && m.from() == from
                    && m.to() == to
                    && m.board_to() == t
                    && m.promotion() == promotion
            })
            .ok_or_else(|| MoveTextError::Illegal(text.trim().to_string()))
    }

    /// The four boards side by side, rank 8 on top, with the side to move and rights below.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for b in 0..BOARDS {
            s.push_str(&format!("   board {}        ", b + 1));
        }
        s.push('\n');
        for r in (0..8).rev() {
            for b in 0..BOARDS {
                s.push_str(&format!("{} ", r + 1));
                for f in 0..8 {
                    let c = self.piece_at(b * 64 + r * 8 + f).map_or('.', |p| p.char());
                    s.push(c);
                    s.push(' ');
                }
                s.push_str("  ");
            }
            s.push('\n');
        }
        for _ in 0..BOARDS {
            s.push_str("  a b c d e f g h   ");
        }
        s.push('\n');
        let text = self.to_text();
        let rest = text.split_once(' ').map_or("", |(_, r)| r);
        s.push_str(&format!("{} to move; {}\n", self.side.name(), rest));
        s.lines().map(|l| format!("{}\n", l.trim_end())).collect()
    }
}

fn read_board(p: &mut Position, b: usize, fen: &str) -> Result<(), TextError> {
    let ranks: Vec<&str> = fen.split('/').collect();
    if ranks.len() != 8 {
        return Err(board_error(b, format!("'{fen}' has {} ranks, expected 8", ranks.len())));
    }
    for (i, row) in ranks.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(board_error(b, format!("rank {}: bad empty count '{c}'", r + 1)));
                }
                f += d as usize;
            } else {
                let kind = Kind::from_letter(c)
                    .ok_or_else(|| board_error(b, format!("rank {}: unknown piece '{c}'", r + 1)))?;
                if f >= 8 {
                    return Err(board_error(b, format!("rank {} has more than 8 squares", r + 1)));
                }
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                let sq = r * 8 + f;
                if kind == Kind::Pawn && (r == 0 || r == 7) {
                    return Err(TextError::PawnRank(cell_name(b, sq)));
                }
                p.put(b * 64 + sq, Piece { color, kind });
                f += 1;
            }
            if f > 8 {
                return Err(board_error(b, format!("rank {} has more than 8 squares", r + 1)));
            }
        }
        if f != 8 {
            return Err(board_error(b, format!("rank {} has {f} squares, expected 8", r + 1)));
        }
    }
    Ok(())
}

fn read_castling(p: &Position, field: &str) -> Result<u8, TextError> {
    let bad = |why: &str| TextError::Castling(field.to_string(), why.to_string());
    if field == "-" {
        return Ok(0);
    }
    let mut bits = 0u8;
    for c in field.chars() {
        let i =
            ['K', 'Q', 'k', 'q'].iter().position(|&x| x == c).ok_or_else(|| bad("expected letters of KQkq or -"))?;
        if bits & CASTLE_BITS[i] != 0 || bits >= CASTLE_BITS[i] {
            return Err(bad("letters must appear once each, in the order KQkq"));
        }
        bits |= CASTLE_BITS[i];
        let (color, king_sq, rook_sq) = match c {
            'K' => (Color::White, 4, 7),
            'Q' => (Color::White, 4, 0),
            'k' => (Color::Black, 60, 63),
            _ => (Color::Black, 60, 56),
        };
        let is = |sq: usize, kind| p.piece_at(sq) == Some(Piece { color, kind });
        if !is(king_sq, Kind::King) || !is(rook_sq, Kind::Rook) {
            return Err(bad(&format!(
                "right '{c}' needs the {} king on 1{} and a rook on 1{}",
                color.name(),
                square_name(king_sq),
                square_name(rook_sq)
            )));
        }
    }
    Ok(bits)
}

fn read_ep(p: &Position, field: &str) -> Result<u16, TextError> {
    if field == "-" {
        return Ok(NO_EP);
    }
    let bad = |why: &str| TextError::EnPassant(field.to_string(), why.to_string());
    let b = field.as_bytes();
    let board = b.first().and_then(|&c| parse_board(c)).ok_or_else(|| bad("expected a cell such as 3e3, or -"))?;
    let sq = b
        .get(1..)
        .and_then(parse_square)
        .filter(|_| b.len() == 3)
        .ok_or_else(|| bad("expected a cell such as 3e3, or -"))?;
    // The side to move captures: the pawn that double-stepped belongs to the other side.
    let (want_rank, pawn_sq, mover) = match p.side {
        Color::White => (5, sq.wrapping_sub(8), Color::Black),
        Color::Black => (2, sq + 8, Color::White),
    };
    if rank(sq) != want_rank {
        return Err(bad(&format!(
            "the passed square must be on rank {} when {} is to move",
            want_rank + 1,
            p.side.name()
        )));
    }
    if p.piece_at(board * 64 + pawn_sq) != Some(Piece { color: mover, kind: Kind::Pawn }) {
        return Err(bad(&format!(
            "no {} pawn on {} that could have double-stepped",
            mover.name(),
            cell_name(board, pawn_sq)
        )));
    }
    Ok((board * 64 + sq) as u16)
}

/// The placement field of a position text: the four boards' ranks (rank 8 first, files a-h,
/// digits for empty runs) joined by `/`, the boards by `|`; `piece_at` gives the man on each cell
/// (`board * 64 + square`).
pub fn placement_text(piece_at: impl Fn(usize) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(120);
    for b in 0..BOARDS {
        if b > 0 {
            s.push('|');
        }
        crate::game::board8::write_fen_board(&mut s, |sq| piece_at(b * 64 + sq).map(|p| p.char()));
    }
    s
}
