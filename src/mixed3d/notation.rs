//! Position and move text.
//!
//! Position: the eight levels' FEN fields (each rank 8 first, files a-h, digits for empty runs)
//! from level 1 to 8 joined by `|`, then `side castling en-passant halfmove fullmove`. The
//! castling field lists the rook cells still able to castle, white's `4h1,1h1,7h1,4a1,8a1,1a1`
//! then black's `4h8,…,1a8` in that order, or `-`; the en passant field is the passed cell
//! (`4e3`) or `-`. Move: `4e2-4e4` (`x` or nothing between the cells is read too), promotion
//! `=Q` (written upper case, read in either case), castling as the royal king's move
//! (`4e1-2g1`).

use super::geometry::*;
use super::moves::Move;
use super::position::{Position, NO_EP};
use super::types::{Kind, Piece};
use crate::game::Color;

/// Why a position text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Not six space-separated fields.
    #[error("a mixed3d position has 6 fields (levels side castling en-passant halfmove fullmove), found {0}")]
    Fields(usize),
    /// Not eight levels.
    #[error("a mixed3d position has 8 levels joined by '|', found {0}")]
    Levels(usize),
    /// A level's FEN field is malformed.
    #[error("level {level}: {why}")]
    Level {
        /// The level, 1..8.
        level: usize,
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
    /// Not exactly one royal king a side.
    #[error("{0} must have exactly one royal king (K), found {1}")]
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
    /// Not of the form `4e2-4e4`.
    #[error("'{0}' is not a mixed3d move (expected <cell>-<cell>[=Q|R|B|N], e.g. 4e2-4e4 or 1a7-1a8=Q)")]
    Syntax(String),
    /// Well formed but not legal here.
    #[error("'{0}' is not a legal move in this position")]
    Illegal(String),
}

/// The rights' names in field order: white's six, then black's.
fn right_names() -> [String; 12] {
    std::array::from_fn(|i| {
        let rook = WHITE_CASTLINGS[i % 6].rook;
        cell_name(if i < 6 { rook } else { mirror_rank(rook) })
    })
}

impl Position {
    /// Reads and validates a position text.
    pub fn from_text(text: &str) -> Result<Position, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(TextError::Fields(fields.len()));
        }
        let levels: Vec<&str> = fields[0].split('|').collect();
        if levels.len() != SIDE {
            return Err(TextError::Levels(levels.len()));
        }
        let mut p = Position::empty();
        for (l, fen) in levels.iter().enumerate() {
            read_level(&mut p, l, fen)?;
        }
        for c in Color::ALL {
            let n = p.count(c, Kind::King);
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
        if p.attacked(p.king(them), p.side) {
            return Err(TextError::OppositeCheck(them.name()));
        }
        p.hash = p.full_hash();
        Ok(p)
    }

    /// The position text.
    pub fn to_text(&self) -> String {
        let mut s = placement_text(|c| self.piece_at(c));
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        let rights: Vec<String> =
            right_names().into_iter().enumerate().filter(|(i, _)| self.castling & (1 << i) != 0).map(|x| x.1).collect();
        if rights.is_empty() {
            s.push('-');
        } else {
            s.push_str(&rights.join(","));
        }
        s.push(' ');
        match self.ep() {
            Some(c) => s.push_str(&cell_name(c)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Reads a legal move of this position from its text.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        let t = text.trim();
        let syntax = || MoveTextError::Syntax(t.to_string());
        let b = t.as_bytes();
        let from = parse_cell(b).ok_or_else(syntax)?;
        let rest = &b[3..];
        let rest = match rest.first() {
            Some(b'-' | b'x' | b'X') => &rest[1..],
            _ => rest,
        };
        let to = parse_cell(rest).ok_or_else(syntax)?;
        let promotion = match &rest[3..] {
            [] => None,
            [b'=', c] => {
                Some(Kind::from_letter(*c as char).filter(|k| Kind::PROMOTIONS.contains(k)).ok_or_else(syntax)?)
            }
            _ => return Err(syntax()),
        };
        self.legal_moves()
            .into_iter()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
            .ok_or_else(|| MoveTextError::Illegal(t.to_string()))
    }

    /// The eight levels in two rows of four, rank 8 on top, with the side to move and rights
    /// below.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for row in [0usize, 4] {
            for l in row..row + 4 {
                s.push_str(&format!("   level {}         ", l + 1));
            }
            s.push('\n');
            for r in (0..8).rev() {
                for l in row..row + 4 {
                    s.push_str(&format!("{} ", r + 1));
                    for f in 0..8 {
                        let ch = self.piece_at(cell(l, f, r)).map_or('.', |p| p.char());
                        s.push(ch);
                        s.push(' ');
                    }
                    s.push_str("  ");
                }
                s.push('\n');
            }
            for _ in 0..4 {
                s.push_str("  a b c d e f g h   ");
            }
            s.push('\n');
        }
        let text = self.to_text();
        let rest = text.split_once(' ').map_or("", |(_, r)| r);
        s.push_str(&format!("{} to move; {}\n", self.side.name(), rest));
        s.lines().map(|l| format!("{}\n", l.trim_end())).collect()
    }
}

fn level_error(level: usize, why: impl Into<String>) -> TextError {
    TextError::Level { level: level + 1, why: why.into() }
}

fn read_level(p: &mut Position, l: usize, fen: &str) -> Result<(), TextError> {
    let ranks: Vec<&str> = fen.split('/').collect();
    if ranks.len() != 8 {
        return Err(level_error(l, format!("'{fen}' has {} ranks, expected 8", ranks.len())));
    }
    for (i, row) in ranks.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(level_error(l, format!("rank {}: bad empty count '{ch}'", r + 1)));
                }
                f += d as usize;
            } else {
                let kind = Kind::from_letter(ch)
                    .ok_or_else(|| level_error(l, format!("rank {}: unknown piece '{ch}'", r + 1)))?;
                if f >= 8 {
                    return Err(level_error(l, format!("rank {} has more than 8 cells", r + 1)));
                }
                let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                let c = cell(l, f, r);
                if kind == Kind::Pawn && (r == 0 || r == 7) {
                    return Err(TextError::PawnRank(cell_name(c)));
                }
                p.put(c, Piece { color, kind });
                f += 1;
            }
            if f > 8 {
                return Err(level_error(l, format!("rank {} has more than 8 cells", r + 1)));
            }
        }
        if f != 8 {
            return Err(level_error(l, format!("rank {} has {f} cells, expected 8", r + 1)));
        }
    }
    Ok(())
}

fn read_castling(p: &Position, field: &str) -> Result<u16, TextError> {
    if field == "-" {
        return Ok(0);
    }
    let bad = |why: String| TextError::Castling(field.to_string(), why);
    let names = right_names();
    let mut bits = 0u16;
    let mut last = None;
    for name in field.split(',') {
        let i = names.iter().position(|n| n == name).ok_or_else(|| {
            bad(format!(
                "'{name}' is not a castling rook cell (expected some of {} in that order, or -)",
                names.join(",")
            ))
        })?;
        if last.is_some_and(|j| j >= i) {
            return Err(bad(format!("rights must appear once each, in the order {}", names.join(","))));
        }
        last = Some(i);
        let color = if i < 6 { Color::White } else { Color::Black };
        let rook = Position::castling_of(color, i % 6).rook;
        let king = KING_START[color.index()];
        let is = |c: usize, kind| p.piece_at(c) == Some(Piece { color, kind });
        if !is(king, Kind::King) || !is(rook, Kind::Rook) {
            return Err(bad(format!(
                "right '{name}' needs the {} royal king on {} and a rook on {name}",
                color.name(),
                cell_name(king)
            )));
        }
        bits |= 1 << i;
    }
    Ok(bits)
}

fn read_ep(p: &Position, field: &str) -> Result<u16, TextError> {
    if field == "-" {
        return Ok(NO_EP);
    }
    let bad = |why: &str| TextError::EnPassant(field.to_string(), why.to_string());
    let c = parse_cell(field.as_bytes())
        .filter(|_| field.len() == 3)
        .ok_or_else(|| bad("expected a cell such as 4e3, or -"))?;
    // The side to move captures: the pawn that double-stepped belongs to the other side.
    let (want_rank, pawn, mover) = match p.side {
        Color::White => (5, c.wrapping_sub(8), Color::Black),
        Color::Black => (2, c + 8, Color::White),
    };
    if rank(c) != want_rank {
        return Err(bad(&format!(
            "the passed cell must be on rank {} when {} is to move",
            want_rank + 1,
            p.side.name()
        )));
    }
    if p.piece_at(pawn) != Some(Piece { color: mover, kind: Kind::Pawn }) {
        return Err(bad(&format!("no {} pawn on {} that could have double-stepped", mover.name(), cell_name(pawn))));
    }
    if p.piece_at(c).is_some() {
        return Err(bad("the passed cell is occupied"));
    }
    Ok(c as u16)
}

/// The placement field of a position text: the eight levels' ranks (rank 8 first, files a-h,
/// digits for empty runs) joined by `/`, the levels by `|`.
pub fn placement_text(piece_at: impl Fn(usize) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(400);
    for l in 0..SIDE {
        if l > 0 {
            s.push('|');
        }
        crate::game::board8::write_fen_board(&mut s, |sq| piece_at(l * 64 + sq).map(|p| p.char()));
    }
    s
}
