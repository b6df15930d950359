//! Text formats (docs/RULES.md §6): position text, moves in coordinate and figurine form, move lists,
//! and a diagram for people.
//!
//! - Position text: [`Setup::from_text`] / [`Setup::to_text`] (unchecked content) and
//!   [`Position::from_text`] / [`Position::to_text`] (validated). The text carries no ruleset, so
//!   parsing takes a [`Variant`]. Printing is canonical; parsing accepts rights and reserve in any
//!   order. `to_text(from_text(t)) == t` for every canonical text.
//! - Moves: [`MoveText::parse`] reads the syntax of either form; [`MoveText::resolve`] matches it
//!   against the legal moves of a position (unique match, or an error naming the candidates).
//!   [`parse_move`] does both. [`figurine`] prints the seeds' form with minimal disambiguation and
//!   `+` / `++`; the coordinate form is [`Move`]'s `Display`.
//! - Move lists: [`crate::game::line::tokenize_moves`] splits `1. P-Cc2 P-Cc4 2. ... Cd4` into numbers and moves;
//!   [`format_line`] prints a numbered line.
//! - [`diagram`]: the five layers side by side, as in the seeds.
//!
//! Every parser works on ASCII bytes and returns an error (never panics) on any input.

use super::bitboard::Bitboard;
use super::cell::Cell;
use super::moves::{Move, Special};
use super::position::{EnPassant, Position, Setup, SetupError};
use super::types::{reserve_bit, Kind, Piece, Ruleset, Variant, RESERVE_KINDS};
use crate::game::line::numbered_line;
use crate::game::Color;
use std::fmt::{self, Write as _};

// ===== Position text ============================================================================

/// Why a position text could not be read; each variant names the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// Not seven space-separated fields.
    #[error(
        "position text has {0} fields; expected 7 (board, side to move, reserve, placement rights, \
         en passant, halfmove clock, move number)"
    )]
    FieldCount(usize),
    /// A character outside ASCII.
    #[error("non-ASCII character {0:?} in position text")]
    NonAscii(char),
    /// The board field (first field).
    #[error("board field: {0}")]
    Board(String),
    /// The side-to-move field.
    #[error("side-to-move field '{0}': expected w or b")]
    Side(String),
    /// The reserve field.
    #[error("reserve field '{field}': {why}")]
    Reserve {
        /// The field as given.
        field: String,
        /// What is wrong.
        why: String,
    },
    /// The placement-rights field.
    #[error("placement-rights field '{field}': {why}")]
    Rights {
        /// The field as given.
        field: String,
        /// What is wrong.
        why: String,
    },
    /// The en passant field.
    #[error("en passant field '{field}': {why}")]
    EnPassant {
        /// The field as given.
        field: String,
        /// What is wrong.
        why: String,
    },
    /// The halfmove clock.
    #[error("halfmove clock '{0}': expected a number from 0 to 65535")]
    Halfmove(String),
    /// The move number.
    #[error("move number '{0}': expected a number from 1 to 65535")]
    Fullmove(String),
    /// The text is well formed but the position is not valid for the ruleset.
    #[error("invalid position: {0}")]
    Setup(#[from] SetupError),
}

type PtResult<T> = Result<T, PositionTextError>;

fn layer_letter(layer: i32) -> char {
    (b'A' + layer as u8) as char
}

fn cell_at(layer: i32, rank: i32, file: i32) -> Cell {
    Cell::from_coords(layer, rank, file).expect("coordinates are in range")
}

impl Setup {
    /// Reads a position text (docs/RULES.md §6) for `variant`. Checks the syntax of every field, not
    /// the legality of the position (see [`Position::from_text`]).
    pub fn from_text(text: &str, variant: Variant) -> PtResult<Setup> {
        if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
            return Err(PositionTextError::NonAscii(c));
        }
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if fields.len() != 7 {
            return Err(PositionTextError::FieldCount(fields.len()));
        }
        let mut s = Setup::empty(variant);
        parse_board(fields[0], variant.ruleset, &mut s.board)?;
        s.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            f => return Err(PositionTextError::Side(f.to_string())),
        };
        s.reserve = parse_reserve(fields[2])?;
        s.rights = parse_rights(fields[3])?;
        s.ep = parse_ep(fields[4])?;
        s.halfmove = match fields[5].parse::<u32>() {
            Ok(n) if n <= u16::MAX as u32 && !fields[5].starts_with('+') => n,
            _ => return Err(PositionTextError::Halfmove(fields[5].to_string())),
        };
        s.fullmove = match fields[6].parse::<u32>() {
            Ok(n) if (1..=u16::MAX as u32).contains(&n) && !fields[6].starts_with('+') => n,
            _ => return Err(PositionTextError::Fullmove(fields[6].to_string())),
        };
        Ok(s)
    }

    /// The canonical position text of this setup.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(96);
        write_board(&mut out, &self.board);
        out.push(' ');
        out.push(self.side.letter());
        out.push(' ');
        write_reserve(&mut out, self.reserve);
        out.push(' ');
        write_rights(&mut out, &self.board, self.rights);
        out.push(' ');
        write_ep(&mut out, self.ep);
        let _ = write!(out, " {} {}", self.halfmove, self.fullmove);
        out
    }
}

impl Position {
    /// Reads and validates a position text for `variant`.
    pub fn from_text(text: &str, variant: Variant) -> PtResult<Position> {
        Ok(Position::from_setup(Setup::from_text(text, variant)?)?)
    }

    /// The canonical position text (docs/RULES.md §6).
    pub fn to_text(&self) -> String {
        self.to_setup().to_text()
    }
}

impl fmt::Display for Setup {
    /// The canonical position text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Display for Position {
    /// The canonical position text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

fn parse_board(field: &str, rs: Ruleset, board: &mut [Option<Piece>; 125]) -> PtResult<()> {
    let bad = |why: String| PositionTextError::Board(why);
    let layers: Vec<&str> = field.split('|').collect();
    if layers.len() != 5 {
        return Err(bad(format!("{} layers; expected 5 separated by '|'", layers.len())));
    }
    for (l, layer_text) in layers.iter().enumerate() {
        let l = l as i32;
        let name = layer_letter(l);
        let ranks: Vec<&str> = layer_text.split('/').collect();
        if ranks.len() != 5 {
            return Err(bad(format!("layer {name} has {} ranks; expected 5 separated by '/'", ranks.len())));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 4 - i as i32;
            let at = format!("layer {name} rank {}", rank + 1);
            let mut file = 0i32;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(bad(format!("{at}: '0' is not a run of empty cells")));
                    }
                    file += d as i32;
                } else {
                    let kind = rs
                        .kind_from_letter(ch)
                        .ok_or_else(|| bad(format!("{at}: '{ch}' is not a piece letter of {rs}")))?;
                    if file < 5 {
                        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                        board[cell_at(l, rank, file).index()] = Some(Piece::new(color, kind));
                    }
                    file += 1;
                }
                if file > 5 {
                    return Err(bad(format!("{at}: '{rank_text}' is longer than 5 cells")));
                }
            }
            if file != 5 {
                return Err(bad(format!("{at}: '{rank_text}' covers {file} cells; expected 5")));
            }
        }
    }
    Ok(())
}

fn write_board(out: &mut String, board: &[Option<Piece>; 125]) {
    for layer in 0..5 {
        if layer > 0 {
            out.push('|');
        }
        for rank in (0..5).rev() {
            if rank < 4 {
                out.push('/');
            }
            let mut empty = 0;
            for file in 0..5 {
                match board[cell_at(layer, rank, file).index()] {
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
        }
    }
}

fn parse_reserve(field: &str) -> PtResult<[u8; 2]> {
    let mut r = [0u8; 2];
    if field == "-" {
        return Ok(r);
    }
    let bad = |why: String| PositionTextError::Reserve { field: field.to_string(), why };
    for ch in field.chars() {
        let kind = match ch.to_ascii_uppercase() {
            'W' => Kind::Wizard,
            'G' => Kind::Guard,
            'S' => Kind::Silver,
            _ => return Err(bad(format!("'{ch}' is not a reserve piece (W, G, S white; w, g, s black; or -)"))),
        };
        let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let bit = reserve_bit(kind).unwrap_or(0);
        if r[side] & bit != 0 {
            return Err(bad(format!("'{ch}' is given twice")));
        }
        r[side] |= bit;
    }
    Ok(r)
}

fn write_reserve(out: &mut String, reserve: [u8; 2]) {
    if reserve[0] & 7 == 0 && reserve[1] & 7 == 0 {
        out.push('-');
        return;
    }
    for color in Color::ALL {
        for k in RESERVE_KINDS {
            if reserve[color.index()] & reserve_bit(k).unwrap_or(0) != 0 {
                out.push(Piece::new(color, k).char());
            }
        }
    }
}

/// The five cells of row (layer, rank).
fn row_cells(layer: i32, rank: i32) -> Bitboard {
    (0..5).map(|f| cell_at(layer, rank, f)).collect()
}

fn parse_rights(field: &str) -> PtResult<Bitboard> {
    let mut rights = Bitboard::EMPTY;
    if field == "-" {
        return Ok(rights);
    }
    let b = field.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let layer = b[i].wrapping_sub(b'A') as i32;
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        if !(0..5).contains(&layer) {
            return Err(PositionTextError::Rights {
                field: field.to_string(),
                why: format!("'{}' at position {} does not start a row (E1) or a cell (Ea1)", b[i] as char, i + 1),
            });
        }
        if (b'1'..=b'5').contains(&next) {
            rights |= row_cells(layer, (next - b'1') as i32);
            i += 2;
        } else if let Some(c) = Cell::parse_prefix(&b[i..]) {
            rights = rights.with(c);
            i += 3;
        } else {
            let end = (i + 3).min(b.len());
            return Err(PositionTextError::Rights {
                field: field.to_string(),
                why: format!("'{}' is neither a row (E1) nor a cell (Ea1)", &field[i..end]),
            });
        }
    }
    Ok(rights)
}

/// Rights in printed order: white's (layer E to A, rank 1 to 5, file a to e), then black's (layer
/// A to E, rank 5 to 1, file a to e); a whole row is written as its name when all five cells have
/// the right and hold pieces of that side. Rights on cells without a piece (an invalid setup) are
/// printed with white's.
fn write_rights(out: &mut String, board: &[Option<Piece>; 125], rights: Bitboard) {
    let owner = |c: Cell| board[c.index()].map(|p| p.color).unwrap_or(Color::White);
    let start = out.len();
    for color in Color::ALL {
        let (layers, ranks): (Vec<i32>, Vec<i32>) = match color {
            Color::White => ((0..5).rev().collect(), (0..5).collect()),
            Color::Black => ((0..5).collect(), (0..5).rev().collect()),
        };
        for &layer in &layers {
            for &rank in &ranks {
                let row = row_cells(layer, rank);
                let whole = { row }.all(|c| rights.has(c) && board[c.index()].map(|p| p.color) == Some(color));
                if whole {
                    let _ = write!(out, "{}{}", layer_letter(layer), rank + 1);
                    continue;
                }
                for c in row {
                    if rights.has(c) && owner(c) == color {
                        let _ = write!(out, "{c}");
                    }
                }
            }
        }
    }
    if out.len() == start {
        out.push('-');
    }
}

fn parse_ep(field: &str) -> PtResult<EnPassant> {
    if field == "-" {
        return Ok(EnPassant::default());
    }
    let bad = |why: &str| PositionTextError::EnPassant { field: field.to_string(), why: why.to_string() };
    let Some((passed, pawn)) = field.split_once('@') else {
        return Err(bad("expected passed cell(s), '@' and the pawn's cell, e.g. Ec3Dc2@Dc3, or -"));
    };
    let pawn: Cell = pawn.parse().map_err(|_| bad("the cell after '@' is not a cell name"))?;
    let cells: Vec<Cell> = match passed.len() {
        3 | 6 => passed
            .as_bytes()
            .chunks(3)
            .map(Cell::parse_prefix)
            .collect::<Option<Vec<Cell>>>()
            .ok_or_else(|| bad("the passed cells before '@' are not cell names"))?,
        _ => return Err(bad("expected one or two passed cells before '@'")),
    };
    if cells.len() == 2 && cells[0] == cells[1] {
        return Err(bad("the same passed cell is given twice"));
    }
    let passed = cells.iter().fold(0u128, |b, c| b | 1u128 << c.index());
    Ok(EnPassant { passed, pawn: pawn.index() as u8 })
}

/// Passed cells with the one passed by stepping forward (same rank as the pawn) first.
fn write_ep(out: &mut String, ep: EnPassant) {
    if !ep.is_some() {
        out.push('-');
        return;
    }
    let pawn_rank = if ep.pawn < 125 { Cell::new(ep.pawn).rank() } else { -1 };
    let mut cells: Vec<Cell> = Bitboard(ep.passed & super::bitboard::FULL).collect();
    cells.sort_by_key(|c| (c.rank() != pawn_rank, c.index()));
    for c in cells {
        let _ = write!(out, "{c}");
    }
    if ep.pawn < 125 {
        let _ = write!(out, "@{}", Cell::new(ep.pawn));
    } else {
        out.push_str("@?");
    }
}

// ===== Moves ====================================================================================

/// Why a move text could not be read or matched to exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Nothing but spaces or annotations.
    #[error("empty move")]
    Empty,
    /// The text does not follow either move form.
    #[error("malformed move '{text}': {why}")]
    Malformed {
        /// The text as given.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A piece letter the ruleset does not have.
    #[error("'{letter}' is not a piece letter of {ruleset}")]
    UnknownPiece {
        /// The letter.
        letter: char,
        /// The ruleset.
        ruleset: Ruleset,
    },
    /// Well formed, but no legal move fits.
    #[error("illegal: {0}")]
    Illegal(String),
    /// Several legal moves fit (listed in coordinate form).
    #[error("ambiguous: {}", join_moves(.0))]
    Ambiguous(Vec<Move>),
    /// A pawn move to the promotion row without `=X`.
    #[error("promotion piece missing (add =Q, =R, =B, ...)")]
    MissingPromotion,
}

fn join_moves(ms: &[Move]) -> String {
    ms.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ")
}

/// A move as written, before it is matched against a position.
///
/// Grammar (after trailing `+`, `#`, `!`, `?` are dropped):
/// - coordinate form: `<from><to>`, optionally with `-` or `x` between (`Dc2Cc2`, `Ec1Ea1`);
/// - figurine form: `[<letter>[<from>]][-|x]<to>` (`P-Cc2`, `Cc2`, `NEb1-Db3`, `SxBe4`); a bare
///   target cell is a pawn move;
/// - then `=X` for a promotion and `/X` for a placement, in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The moving piece's kind; `None` in coordinate form (whatever stands on `from`).
    pub kind: Option<Kind>,
    /// Origin cell, when written.
    pub from: Option<Cell>,
    /// Destination cell (the rook's cell for castling).
    pub to: Cell,
    /// Promotion piece.
    pub promotion: Option<Kind>,
    /// Placed reserve piece.
    pub placement: Option<Kind>,
}

impl MoveText {
    /// Reads the syntax of a move in either form; piece letters are read in `ruleset`.
    pub fn parse(text: &str, ruleset: Ruleset) -> Result<MoveText, MoveTextError> {
        let original = text;
        let bad = |why: &str| MoveTextError::Malformed { text: original.to_string(), why: why.to_string() };
        let mut s = text.trim();
        if !s.is_ascii() {
            return Err(bad("non-ASCII character"));
        }
        s = s.trim_end_matches(['+', '#', '!', '?']);
        if s.is_empty() {
            return Err(MoveTextError::Empty);
        }
        let letter_kind = |c: u8| {
            if c.is_ascii_uppercase() {
                ruleset.kind_from_letter(c as char).ok_or(MoveTextError::UnknownPiece { letter: c as char, ruleset })
            } else {
                Err(bad("expected an upper-case piece letter after '=' or '/'"))
            }
        };
        // Placement, then promotion, read from the end.
        let mut placement = None;
        if let Some(i) = s.rfind('/') {
            let tail = &s.as_bytes()[i + 1..];
            if tail.len() != 1 {
                return Err(bad("a placement is '/' and one letter: /W, /G or /S"));
            }
            let k = letter_kind(tail[0])?;
            if reserve_bit(k).is_none() {
                return Err(bad("only a wizard, guard or silver unicorn (W, G, S) can be placed"));
            }
            placement = Some(k);
            s = &s[..i];
        }
        let mut promotion = None;
        if let Some(i) = s.rfind('=') {
            let tail = &s.as_bytes()[i + 1..];
            if tail.len() != 1 {
                return Err(bad("a promotion is '=' and one letter, e.g. =Q"));
            }
            let k = letter_kind(tail[0])?;
            if !ruleset.promotions().contains(&k) {
                return Err(bad(&format!("a pawn cannot promote to {} in {ruleset}", k.name())));
            }
            promotion = Some(k);
            s = &s[..i];
        }
        let b = s.as_bytes();
        let skip_sep = |r: &[u8]| -> usize { usize::from(matches!(r.first(), Some(b'-' | b'x'))) };
        let (kind, from, rest): (Option<Kind>, Option<Cell>, &[u8]) = if let Some(c1) = Cell::parse_prefix(b) {
            if b.len() == 3 {
                // A bare cell: a pawn move in figurine form.
                (Some(Kind::Pawn), None, b)
            } else {
                let r = &b[3..];
                (None, Some(c1), &r[skip_sep(r)..])
            }
        } else {
            let Some(&first) = b.first() else { return Err(bad("no destination cell")) };
            if !first.is_ascii_uppercase() {
                return Err(bad("expected a piece letter or a cell such as Cc3"));
            }
            let kind = letter_kind(first)?;
            let r = &b[1..];
            let has_origin =
                r.len() > 3 && Cell::parse_prefix(r).is_some() && (r.len() == 6 || matches!(r[3], b'-' | b'x'));
            if has_origin {
                let from = Cell::parse_prefix(r);
                let r = &r[3..];
                (Some(kind), from, &r[skip_sep(r)..])
            } else {
                (Some(kind), None, &r[skip_sep(r)..])
            }
        };
        let to = match rest.len() {
            3 => Cell::parse_prefix(rest).ok_or_else(|| bad("the destination is not a cell such as Cc3"))?,
            0 => return Err(bad("no destination cell")),
            _ => return Err(bad("expected one destination cell such as Cc3")),
        };
        Ok(MoveText { kind, from, to, promotion, placement })
    }

    /// Whether legal move `m` of `pos` fits this text (promotion compared only when `promo`).
    fn fits(&self, pos: &Position, m: Move, promo: bool) -> bool {
        m.to() == self.to
            && self.from.is_none_or(|f| m.from() == f)
            && self.kind.is_none_or(|k| pos.piece_at(m.from()).map(|p| p.kind) == Some(k))
            && m.placement() == self.placement
            && (!promo || m.promotion() == self.promotion)
    }

    /// The unique legal move of `pos` this text describes.
    pub fn resolve(&self, pos: &Position) -> Result<Move, MoveTextError> {
        let legal = pos.legal_moves();
        let mut found: Vec<Move> = legal.iter().copied().filter(|&m| self.fits(pos, m, true)).collect();
        match found.len() {
            1 => Ok(found[0]),
            0 => {
                let promotes = legal.iter().any(|&m| m.promotion().is_some() && self.fits(pos, m, false));
                if self.promotion.is_none() && promotes {
                    Err(MoveTextError::MissingPromotion)
                } else {
                    Err(MoveTextError::Illegal(self.why_illegal(pos)))
                }
            }
            _ => {
                found.sort_by_key(|m| m.to_string());
                Err(MoveTextError::Ambiguous(found))
            }
        }
    }

    fn why_illegal(&self, pos: &Position) -> String {
        let side = pos.side().name();
        let mut what = match (self.kind, self.from) {
            (_, Some(from)) => match pos.piece_at(from) {
                None => return format!("no piece on {from}"),
                Some(p) if p.color != pos.side() => return format!("the piece on {from} is not {side}'s"),
                Some(p) if self.kind.is_some_and(|k| k != p.kind) => {
                    return format!("the piece on {from} is a {}", p.kind.name())
                }
                Some(p) => format!("the {} on {from} has no legal move to {}", p.kind.name(), self.to),
            },
            (Some(k), None) => format!("no {side} {} can move to {}", k.name(), self.to),
            (None, None) => format!("no legal move to {}", self.to),
        };
        if let Some(k) = self.promotion {
            let _ = write!(what, " promoting to {}", k.name());
        }
        if let Some(k) = self.placement {
            let _ = write!(what, " placing a {}", k.name());
        }
        what
    }
}

/// Reads a move in coordinate or figurine form and returns the legal move of `pos` it names.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    MoveText::parse(text, pos.ruleset())?.resolve(pos)
}

/// The coordinate form of a move (`Ec2Dc3`, `Aa4Aa5=Q`, `Eb1Db3/S`, castling `Ec1Ea1`).
pub fn coordinate(m: Move) -> String {
    m.to_string()
}

/// The figurine form of legal move `m` of `pos`, as in the seeds: piece letter (left out for an
/// unambiguous pawn move that is not a capture), origin cell only when another piece of the same
/// kind could make the same move, `-` or `x`, destination, `=X`, `/X`, then `+` for check or `++`
/// for mate. Castling prints as the king's move to the rook's cell (`K-Ea1`).
pub fn figurine(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from()) else { return m.to_string() };
    let capture =
        m.special() == Special::EnPassant || (m.special() != Special::Castle && pos.piece_at(m.to()).is_some());
    let text =
        MoveText { kind: Some(piece.kind), from: None, to: m.to(), promotion: m.promotion(), placement: m.placement() };
    let ambiguous = pos.legal_moves().into_iter().any(|o| o.from() != m.from() && text.fits(pos, o, true));
    let mut s = String::with_capacity(12);
    if piece.kind != Kind::Pawn || ambiguous || capture {
        s.push(piece.kind.letter());
        if ambiguous {
            let _ = write!(s, "{}", m.from());
        }
        s.push(if capture { 'x' } else { '-' });
    }
    let _ = write!(s, "{}", m.to());
    if let Some(k) = m.promotion() {
        let _ = write!(s, "={}", k.letter());
    }
    if let Some(k) = m.placement() {
        let _ = write!(s, "/{}", k.letter());
    }
    let after = pos.after(m);
    if after.in_check() {
        s.push_str(if after.has_legal_move() { "+" } else { "++" });
    }
    s
}

// ===== Move lists ===============================================================================

/// A numbered line in figurine form (`1. P-Cc2 P-Cc4 2. ...`) of `moves` played from `start`,
/// which must be legal in sequence.
pub fn format_line(start: &Position, moves: &[Move]) -> String {
    numbered_line(start, moves, figurine)
}

// ===== Diagram ==================================================================================

/// The five layers side by side, as in the seeds: ranks 5 to 1 top to bottom, files a to e left to
/// right, white upper case, black lower case, `_` for an empty cell; then a line with the side to
/// move, the reserves and the clocks.
///
/// ```text
/// 5 |r|n|k|n|r| 5 |u|b|q|u|b| 5 |_|_|_|_|_| ...
/// ...
/// A  a b c d e  B  a b c d e  C  a b c d e  ...
/// ```
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..5).rev() {
        for layer in 0..5 {
            if layer > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{} |", rank + 1);
            for file in 0..5 {
                out.push(pos.piece_at(cell_at(layer, rank, file)).map_or('_', Piece::char));
                out.push('|');
            }
        }
        out.push('\n');
    }
    for layer in 0..5 {
        if layer > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{}  a b c d e ", layer_letter(layer));
    }
    let trimmed = out.trim_end_matches(' ').len();
    out.truncate(trimmed);
    out.push('\n');
    let _ = write!(out, "{} to move", pos.side().name());
    if pos.ruleset().is_fiveup() {
        let list = |c: Color| {
            let s: String = pos.reserve_kinds(c).map(|k| Piece::new(c, k).char()).collect();
            if s.is_empty() {
                "none".to_string()
            } else {
                s
            }
        };
        let _ = write!(out, "; reserve white {}, black {}", list(Color::White), list(Color::Black));
    }
    let _ = write!(out, "; move {}, halfmove clock {}", pos.fullmove(), pos.halfmove());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests;
