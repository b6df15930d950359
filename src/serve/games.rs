//! What the page needs of a game, beyond playing and recording it: its start position from a
//! request, its moves in the page's two text forms, the cells a move joins, and its board and
//! legal moves as JSON. One implementation per game: the 5x5x5 games ([`crate::rules::Position`]),
//! 4D Quasi-Alice ([`crate::quasi_alice::Position`]) and Mixed 3D ([`crate::mixed3d::Position`]).
//! The endpoints are written once over [`WebGame`] and pick the implementation by the request's
//! ruleset ([`for_game!`]).
//!
//! Cells are numbered as the page draws them: on the 5x5x5 board `level * 25 + rank * 5 + file`
//! (125 cells); in Quasi-Alice `board * 64 + rank * 8 + file` (256 cells, boards 0..4); in Mixed
//! 3D `level * 64 + rank * 8 + file` (512 cells, levels 0..8), the rules' own cell numbers.

use crate::catalog::GameId;
use crate::eval::records::RecordGame;
use crate::game::Color;
use serde_json::{json, Value};

/// A game the page plays, analyses and replays.
pub(crate) trait WebGame: RecordGame<Undo: Send> {
    /// The start position: the game's standard start when `text` is `None`, else the position
    /// text. `game` is the game the request names (for the 5x5x5 games, which ruleset); the flags
    /// are the 5x5x5 options. The error is the message the page shows.
    fn named_start(game: GameId, castling: bool, hypercylinder: bool, text: Option<&str>) -> Result<Self, String>;

    /// The machine form of a move (what the page sends back to play it).
    fn coordinate(&self, m: Self::Move) -> String;

    /// The form people read (the 5x5x5 figurine notation; Quasi-Alice has one notation).
    fn figurine(&self, m: Self::Move) -> String;

    /// The cells a move joins: where the man starts and where it ends (on its destination board).
    fn cells(&self, m: Self::Move) -> (usize, usize);

    /// A legal move as the page offers it.
    fn move_json(&self, m: Self::Move) -> Value;

    /// A move of a search's principal variation.
    fn pv_json(&self, m: Self::Move) -> Value {
        json!({ "coord": self.coordinate(m), "figurine": self.figurine(m) })
    }

    /// The board: one entry per cell in index order, `null` or `{color, letter, name}`.
    fn board_json(&self) -> Vec<Value>;

    /// The game's own fields of a position answer besides the board (options, reserves, check).
    fn extra_json(&self) -> Vec<(&'static str, Value)>;

    /// The 5x5x5 options `(castling, hypercylinder)` of the position's game.
    fn flags(&self) -> (bool, bool);

    /// What the endgame tables say of the position (`{material, value, text}`), when they hold
    /// it; games without tables keep the default (none).
    fn tablebase_json(&self, tables: &crate::tablebase::Tablebases) -> Option<Value> {
        let _ = tables;
        None
    }
}

/// Runs `$body` with `$S` standing for the position type of the game `$game` (a
/// [`GameId`]): the one place that maps a game to its [`WebGame`] implementation.
macro_rules! for_game {
    ($game:expr, $S:ident => $body:expr) => {
        match $game {
            crate::catalog::GameId::FiveUp(_) => {
                type $S = crate::rules::Position;
                $body
            }
            crate::catalog::GameId::QuasiAlice => {
                type $S = crate::quasi_alice::Position;
                $body
            }
            crate::catalog::GameId::Mixed3d => {
                type $S = crate::mixed3d::Position;
                $body
            }
        }
    };
}
pub(crate) use for_game;

/// Piece kinds of a game for `/api/info`: `(letter, name)`.
pub(crate) fn kinds(game: GameId) -> Vec<(char, &'static str)> {
    match game {
        GameId::FiveUp(r) => crate::rules::Kind::ALL
            .iter()
            .filter(|&&k| r.kind_from_letter(k.letter()) == Some(k))
            .map(|k| (k.letter(), k.name()))
            .collect(),
        GameId::QuasiAlice => crate::quasi_alice::Kind::ALL.iter().map(|&k| (k.letter(), k.name())).collect(),
        GameId::Mixed3d => crate::mixed3d::Kind::ALL.iter().map(|&k| (k.letter(), k.name())).collect(),
    }
}

/// The start of a game with neither 5x5x5 option (Quasi-Alice, Mixed 3D): its standard `start`, or
/// `text` as `read` reads it; asking for an option is an error.
fn optionless_start<S, E: std::fmt::Display>(
    game: GameId,
    options: bool,
    text: Option<&str>,
    start: fn() -> S,
    read: fn(&str) -> Result<S, E>,
) -> Result<S, String> {
    if options {
        return Err(format!("castling and hypercylinder are 5x5x5 options; {game} has neither setting"));
    }
    match text {
        None => Ok(start()),
        Some(t) => read(t).map_err(|e| format!("start: {e}")),
    }
}

/// The game's own fields of a position answer for a game with neither 5x5x5 option: the options
/// off, no checker cells, the cell of the king in check.
fn optionless_extra(king_in_check: Option<usize>) -> Vec<(&'static str, Value)> {
    vec![
        ("castling", json!(false)),
        ("hypercylinder", json!(false)),
        ("check_cells", json!([])),
        ("king_in_check", json!(king_in_check)),
    ]
}

fn piece(color: Color, letter: char, name: &str) -> Value {
    json!({ "color": color.name(), "letter": letter.to_string(), "name": name })
}

impl WebGame for crate::rules::Position {
    fn tablebase_json(&self, tables: &crate::tablebase::Tablebases) -> Option<Value> {
        use crate::tablebase::Dtm;
        let at = crate::tablebase::locate(self)?;
        let v = tables.probe(self)?;
        let side = self.side().name();
        let text = match v {
            Dtm::Win(n) => format!("{side} mates in {}", n.div_ceil(2)),
            Dtm::Loss(0) => format!("{side} is checkmated"),
            Dtm::Loss(n) => format!("{side} is mated in {}", n / 2),
            Dtm::Draw => "drawn".to_string(),
        };
        let (kind, plies) = match v {
            Dtm::Win(n) => ("win", n),
            Dtm::Loss(n) => ("loss", n),
            Dtm::Draw => ("draw", 0),
        };
        Some(json!({ "material": at.material.to_string(), "value": kind, "plies": plies, "text": text }))
    }

    fn named_start(game: GameId, castling: bool, hypercylinder: bool, text: Option<&str>) -> Result<Self, String> {
        let ruleset = game.five_up("the 5x5x5 board").map_err(|e| e.to_string())?;
        let variant = crate::rules::Variant::new(ruleset, castling, hypercylinder).map_err(|e| e.to_string())?;
        match text {
            None => Ok(Self::startpos(variant)),
            Some(t) => Self::from_text(t, variant).map_err(|e| format!("start: {e}")),
        }
    }

    fn coordinate(&self, m: Self::Move) -> String {
        crate::rules::notation::coordinate(m)
    }

    fn figurine(&self, m: Self::Move) -> String {
        crate::rules::notation::figurine(self, m)
    }

    fn cells(&self, m: Self::Move) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }

    fn move_json(&self, m: Self::Move) -> Value {
        json!({
            "coord": self.coordinate(m),
            "figurine": self.figurine(m),
            "from": m.from().index(),
            "to": m.to().index(),
            "promo": m.promotion().map(|k| k.letter().to_string()),
            "place": m.placement().map(|k| k.letter().to_string()),
            "capture": self.piece_at(m.to()).is_some_and(|p| p.color != self.side())
                || m.special() == crate::rules::Special::EnPassant,
        })
    }

    fn board_json(&self) -> Vec<Value> {
        crate::rules::Cell::all()
            .map(|c| self.piece_at(c).map_or(Value::Null, |p| piece(p.color, p.kind.letter(), p.kind.name())))
            .collect()
    }

    fn extra_json(&self) -> Vec<(&'static str, Value)> {
        let reserve = |c: Color| self.reserve_kinds(c).map(|k| k.letter().to_string()).collect::<Vec<_>>();
        let mut checkers = Vec::new();
        let mut bits = self.checkers().0;
        while bits != 0 {
            checkers.push(bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
        vec![
            ("castling", json!(self.variant().castling)),
            ("hypercylinder", json!(self.variant().hypercylinder)),
            ("reserve", json!({ "white": reserve(Color::White), "black": reserve(Color::Black) })),
            ("check_cells", json!(checkers)),
            ("king_in_check", json!(if self.in_check() { Some(self.king(self.side()).index()) } else { None })),
        ]
    }

    fn flags(&self) -> (bool, bool) {
        (self.variant().castling, self.variant().hypercylinder)
    }
}

impl WebGame for crate::quasi_alice::Position {
    fn named_start(game: GameId, castling: bool, hypercylinder: bool, text: Option<&str>) -> Result<Self, String> {
        optionless_start(game, castling || hypercylinder, text, Self::start, Self::from_text)
    }

    fn coordinate(&self, m: Self::Move) -> String {
        m.to_string()
    }

    fn figurine(&self, m: Self::Move) -> String {
        m.to_string()
    }

    fn cells(&self, m: Self::Move) -> (usize, usize) {
        (m.board_from() * 64 + m.from(), m.board_to() * 64 + m.to())
    }

    /// `from` / `to`: the man's cell and its cell after the transfer; `via`: the square the chess
    /// move reaches on the board it is played on; `from_board` / `to_board`: 1..=4.
    fn move_json(&self, m: Self::Move) -> Value {
        use crate::quasi_alice::{Flag, Kind};
        let (from, to) = self.cells(m);
        let via = m.board_from() * 64 + m.to();
        let enemy = |cell: usize| self.piece_at(cell).is_some_and(|p| p.color != self.side());
        let king = self.piece_at(from).is_some_and(|p| p.kind == Kind::King);
        json!({
            "coord": self.coordinate(m),
            "figurine": self.figurine(m),
            "from": from,
            "to": to,
            "via": via,
            "from_board": m.board_from() + 1,
            "to_board": m.board_to() + 1,
            "square": crate::quasi_alice::board::square_name(m.to()),
            "promo": m.promotion().map(|k| k.letter().to_string()),
            "capture": enemy(via) || (king && enemy(to)) || m.flag() == Flag::EnPassant,
            "castle": m.flag() == Flag::Castle,
        })
    }

    fn pv_json(&self, m: Self::Move) -> Value {
        let (from, to) = self.cells(m);
        json!({ "coord": self.coordinate(m), "figurine": self.figurine(m), "from": from, "to": to })
    }

    fn board_json(&self) -> Vec<Value> {
        (0..crate::quasi_alice::board::CELLS)
            .map(|c| self.piece_at(c).map_or(Value::Null, |p| piece(p.color, p.kind.letter(), p.kind.name())))
            .collect()
    }

    fn extra_json(&self) -> Vec<(&'static str, Value)> {
        optionless_extra(self.in_check().then(|| self.king(self.side())))
    }

    fn flags(&self) -> (bool, bool) {
        (false, false)
    }
}

impl WebGame for crate::mixed3d::Position {
    fn named_start(game: GameId, castling: bool, hypercylinder: bool, text: Option<&str>) -> Result<Self, String> {
        optionless_start(game, castling || hypercylinder, text, Self::start, Self::from_text)
    }

    fn coordinate(&self, m: Self::Move) -> String {
        m.to_string()
    }

    fn figurine(&self, m: Self::Move) -> String {
        m.to_string()
    }

    fn cells(&self, m: Self::Move) -> (usize, usize) {
        (m.from(), m.to())
    }

    /// `from` / `to`: the cells; `castle`: a castling (the royal king's two-cell move).
    fn move_json(&self, m: Self::Move) -> Value {
        use crate::mixed3d::Flag;
        let enemy = self.piece_at(m.to()).is_some_and(|p| p.color != self.side());
        json!({
            "coord": self.coordinate(m),
            "figurine": self.figurine(m),
            "from": m.from(),
            "to": m.to(),
            "promo": m.promotion().map(|k| k.letter().to_string()),
            "capture": enemy || m.flag() == Flag::EnPassant,
            "castle": m.flag() == Flag::Castle,
        })
    }

    fn pv_json(&self, m: Self::Move) -> Value {
        json!({ "coord": self.coordinate(m), "figurine": self.figurine(m), "from": m.from(), "to": m.to() })
    }

    fn board_json(&self) -> Vec<Value> {
        (0..crate::mixed3d::geometry::CELLS)
            .map(|c| self.piece_at(c).map_or(Value::Null, |p| piece(p.color, p.kind.letter(), p.kind.name())))
            .collect()
    }

    fn extra_json(&self) -> Vec<(&'static str, Value)> {
        optionless_extra(self.in_check().then(|| self.king(self.side())))
    }

    fn flags(&self) -> (bool, bool) {
        (false, false)
    }
}
