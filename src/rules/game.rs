//! A game with history: the start position, the moves, and the hash of every position reached, so
//! that [`Game::status`] can apply every end-of-game rule of docs/RULES.md §2: checkmate, stalemate,
//! threefold repetition, the fifty-move rule and bare kings.
//!
//! Precedence when several apply after the same move: checkmate and stalemate first (a mate on the
//! hundredth ply is a mate), then bare kings, threefold repetition and the fifty-move rule.

use super::moves::Move;
use super::notation::{move_number_label, tokenize_moves, ListToken, MoveTextError};
use super::position::{Position, Undo};
use crate::game::Color;
use std::fmt;
use std::str::FromStr;

/// The rule (or tool setting) that ended a game; recorded with every finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// The side to move is in check and has no legal move; the other side wins.
    Checkmate,
    /// The side to move is not in check and has no legal move: a draw.
    Stalemate,
    /// The same position for the third time: a draw.
    Repetition,
    /// 100 plies without a capture or a pawn move: a draw.
    FiftyMoves,
    /// Only the two kings are left and neither side can still place a reserve piece: a draw.
    BareKings,
    /// A side resigned (a tool setting, never produced by [`Game::status`]).
    Resignation,
    /// A tool's adjudication rule, such as a ply cap (never produced by [`Game::status`]).
    Adjudication,
}

impl EndRule {
    /// Every rule, in a fixed order.
    pub const ALL: [EndRule; 7] = [
        EndRule::Checkmate,
        EndRule::Stalemate,
        EndRule::Repetition,
        EndRule::FiftyMoves,
        EndRule::BareKings,
        EndRule::Resignation,
        EndRule::Adjudication,
    ];

    /// Stable identifier for records (`checkmate`, `stalemate`, `repetition`, `fifty-moves`,
    /// `bare-kings`, `resignation`, `adjudication`).
    pub const fn name(self) -> &'static str {
        match self {
            EndRule::Checkmate => "checkmate",
            EndRule::Stalemate => "stalemate",
            EndRule::Repetition => "repetition",
            EndRule::FiftyMoves => "fifty-moves",
            EndRule::BareKings => "bare-kings",
            EndRule::Resignation => "resignation",
            EndRule::Adjudication => "adjudication",
        }
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown end-rule name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown end rule '{0}'")]
pub struct UnknownEndRule(pub String);

impl FromStr for EndRule {
    type Err = UnknownEndRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndRule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| UnknownEndRule(s.to_string()))
    }
}

/// How a game ended: the winner (`None` for a draw) and the rule that ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning side; `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that ended the game.
    pub rule: EndRule,
}

impl Outcome {
    /// A draw by `rule`.
    pub const fn draw(rule: EndRule) -> Outcome {
        Outcome { winner: None, rule }
    }

    /// A win for `winner` by `rule`.
    pub const fn win(winner: Color, rule: EndRule) -> Outcome {
        Outcome { winner: Some(winner), rule }
    }

    /// Win, draw, loss from `side`'s point of view (one-hot): the exact value search backs up
    /// from a finished position.
    pub fn wdl_for(self, side: Color) -> [f32; 3] {
        match self.winner {
            None => [0.0, 1.0, 0.0],
            Some(w) if w == side => [1.0, 0.0, 0.0],
            Some(_) => [0.0, 0.0, 1.0],
        }
    }

    /// The result as in game records: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// `checkmate, white wins`, `draw by threefold repetition`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.rule) {
            (Some(w), rule) => write!(f, "{}, {} wins", rule_words(rule), w.name()),
            (None, rule) => write!(f, "draw by {}", rule_words(rule)),
        }
    }
}

fn rule_words(rule: EndRule) -> &'static str {
    match rule {
        EndRule::Checkmate => "checkmate",
        EndRule::Stalemate => "stalemate",
        EndRule::Repetition => "threefold repetition",
        EndRule::FiftyMoves => "the fifty-move rule",
        EndRule::BareKings => "bare kings",
        EndRule::Resignation => "resignation",
        EndRule::Adjudication => "adjudication",
    }
}

/// The end-of-game rule that applies to `pos`, if any, in the order of the module comment.
/// `has_move`: whether the side to move has a legal move; `occurrences`: how many times the
/// position has occurred in the game, itself included. The one place these rules are decided:
/// games, search and self-play all call it.
pub fn outcome(pos: &Position, has_move: bool, occurrences: usize) -> Option<Outcome> {
    if !has_move {
        return Some(if pos.in_check() {
            Outcome::win(pos.side().flip(), EndRule::Checkmate)
        } else {
            Outcome::draw(EndRule::Stalemate)
        });
    }
    if pos.bare_kings() {
        Some(Outcome::draw(EndRule::BareKings))
    } else if occurrences >= 3 {
        Some(Outcome::draw(EndRule::Repetition))
    } else if pos.halfmove() >= 100 {
        Some(Outcome::draw(EndRule::FiftyMoves))
    } else {
        None
    }
}

/// How often the position with `hash` occurred before in its game: `history` holds the hashes of
/// the game's earlier positions, oldest first, without the current one. Only the last `halfmove`
/// entries can match (an irreversible move separates the rest). Saturates at 255. Search and
/// self-play keep bare hash lists rather than a [`Game`], so they count with this; [`outcome`]
/// takes the count plus one.
pub fn prior_occurrences(history: &[u64], hash: u64, halfmove: u32) -> u8 {
    let window = (halfmove as usize).min(history.len());
    history[history.len() - window..].iter().filter(|&&h| h == hash).count().min(255) as u8
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move is not in check and the game goes on.
    Ongoing,
    /// The side to move is in check and has a legal move.
    Check,
    /// The game is over.
    Over(Outcome),
}

impl Status {
    /// The outcome, if the game is over.
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Over(o) => Some(o),
            _ => None,
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        matches!(self, Status::Over(_))
    }
}

impl fmt::Display for Status {
    /// `ongoing`, `check`, or the outcome.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Check => f.write_str("check"),
            Status::Over(o) => o.fmt(f),
        }
    }
}

/// Why [`Game::play`] refused a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefusedMove {
    /// Not a legal move of the current position.
    #[error("illegal move {0}")]
    Illegal(Move),
    /// The game has already ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
}

/// Why [`Game::play_line`] stopped: the move (with its number, as `2... P-Bd3`) and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {label} {text}: {kind}")]
pub struct LineError {
    /// The move's number as it should be written: `2.` or `2...`.
    pub label: String,
    /// The move as written.
    pub text: String,
    /// What went wrong.
    pub kind: LineErrorKind,
}

/// What went wrong with one move of a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineErrorKind {
    /// The text names no legal move, or several.
    #[error(transparent)]
    Move(#[from] MoveTextError),
    /// The game had already ended before this move.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// A comment opened with `(` or `{` is never closed (everything after it would be dropped).
    #[error("this comment is never closed; close it with '{0}'")]
    UnclosedComment(char),
    /// A written move number does not match the position.
    #[error("the written move number {written} does not match the position ({expected} is next)")]
    Number {
        /// The number as written (`3.` or `3...`).
        written: String,
        /// The number of the move to be played.
        expected: String,
    },
}

/// A game: start position, moves played, and the history needed for the draw rules.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    /// Hash of every position reached, the start included (`moves.len() + 1` entries).
    hashes: Vec<u64>,
}

impl Game {
    /// A game from `start` with no moves yet.
    pub fn new(start: Position) -> Game {
        let hashes = vec![start.hash()];
        Game { pos: start.clone(), start, moves: Vec::new(), undos: Vec::new(), hashes }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of the positions before the current one, oldest first (what players and search take
    /// as `history` for repetition).
    pub fn history(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    /// Plays a move after checking that it is legal and that the game is not over.
    pub fn play(&mut self, m: Move) -> Result<(), RefusedMove> {
        if let Status::Over(o) = self.status() {
            return Err(RefusedMove::GameOver(o));
        }
        if !self.pos.is_legal(m) {
            return Err(RefusedMove::Illegal(m));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move without any check. Contract: `m` is a legal move of [`Game::position`]
    /// (for example one just generated by it); the game may be over by a draw rule.
    pub fn play_unchecked(&mut self, m: Move) {
        let u = self.pos.make(m);
        self.moves.push(m);
        self.undos.push(u);
        self.hashes.push(self.pos.hash());
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let u = self.undos.pop().expect("one undo per move");
        self.hashes.pop();
        self.pos.unmake(m, u);
        Some(m)
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        prior_occurrences(self.history(), self.pos.hash(), self.pos.halfmove()) as usize + 1
    }

    /// Whether only the two kings are left and neither side can still place a reserve piece.
    pub fn bare_kings(&self) -> bool {
        self.pos.bare_kings()
    }

    /// Where the game stands (docs/RULES.md §2; see the module comment for the order of the rules).
    pub fn status(&self) -> Status {
        let p = &self.pos;
        match outcome(p, p.has_legal_move(), self.repetitions()) {
            Some(o) => Status::Over(o),
            None if p.in_check() => Status::Check,
            None => Status::Ongoing,
        }
    }

    /// Plays a written line of moves in either notation, with or without move numbers
    /// (`1. P-Cc2 P-Cc4 2. B-De4/G`, `2. ... Cd4 3. Cd2`). Written numbers must match the
    /// position. Stops at the first bad move with an error naming it and its number. Returns the
    /// number of moves played.
    pub fn play_line(&mut self, text: &str) -> Result<usize, LineError> {
        if let Some((at, close)) = super::notation::unclosed_comment(text) {
            let shown: String = text[at..].chars().take(20).collect();
            let more = if text[at..].chars().count() > 20 { "…" } else { "" };
            return Err(LineError {
                label: move_number_label(&self.pos),
                text: format!("{shown}{more}"),
                kind: LineErrorKind::UnclosedComment(close),
            });
        }
        let mut played = 0;
        let mut pending: Option<String> = None;
        for tok in tokenize_moves(text) {
            let label = move_number_label(&self.pos);
            match tok {
                ListToken::Number { number, black } => {
                    let written = format!("{number}{}", if black { "..." } else { "." });
                    let ok = number == self.pos.fullmove() && black == (self.pos.side() == Color::Black);
                    if !ok {
                        pending = Some(written);
                    } else {
                        pending = None;
                    }
                }
                ListToken::Move(mv) => {
                    let fail = |kind: LineErrorKind| LineError { label: label.clone(), text: mv.clone(), kind };
                    if let Some(written) = pending.take() {
                        return Err(fail(LineErrorKind::Number { written, expected: label.clone() }));
                    }
                    if let Status::Over(o) = self.status() {
                        return Err(fail(LineErrorKind::GameOver(o)));
                    }
                    let m = super::notation::parse_move(&self.pos, &mv).map_err(|e| fail(e.into()))?;
                    self.play_unchecked(m);
                    played += 1;
                }
            }
        }
        Ok(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;
    use crate::rules::{Ruleset, Variant};

    fn game(text: &str) -> Game {
        Game::new(Position::from_text(text, Variant::plain(Ruleset::FiveUp)).unwrap())
    }

    #[test]
    fn fools_mate_is_checkmate() {
        let mut g = Game::new(Position::startpos(Variant::default()));
        let n = g.play_line("1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++").unwrap();
        assert_eq!(n, 7);
        let s = g.status();
        assert_eq!(s, Status::Over(Outcome::win(Color::White, EndRule::Checkmate)));
        assert_eq!(s.to_string(), "checkmate, white wins");
        assert_eq!(s.outcome().unwrap().result(), "1-0");
        // No move after the end.
        let m = g.undo().unwrap();
        assert_eq!(g.status(), Status::Ongoing);
        g.play(m).unwrap();
        let err = g.play_line("4... Cc2").unwrap_err();
        assert!(matches!(err.kind, LineErrorKind::GameOver(_)), "{err}");
        let err = Game::new(Position::startpos(Variant::default())).play_line("1. Cc2 {good move Cc4").unwrap_err();
        assert_eq!(err.kind, LineErrorKind::UnclosedComment('}'), "{err}");
        assert_eq!(err.to_string(), "move 1. {good move Cc4: this comment is never closed; close it with '}'");
    }

    #[test]
    fn ambiguous_and_misnumbered_moves_are_named() {
        let mut g = Game::new(Position::startpos(Variant::default()));
        let err = g.play_line("1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3").unwrap_err();
        assert_eq!(err.to_string(), "move 2... P-Bd3: ambiguous: Ad4Bd3, Bd4Bd3");
        assert_eq!(g.moves().len(), 3);
        let err = g.play_line("3. N-Db3/S").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2... N-Db3/S: the written move number 3. does not match the position (2... is next)"
        );
        let err = g.play_line("2... Q-Cc2").unwrap_err();
        assert!(err.to_string().starts_with("move 2... Q-Cc2: illegal"), "{err}");
    }

    #[test]
    fn threefold_repetition_by_knight_shuffles() {
        let mut g = Game::new(Position::startpos(Variant::default()));
        // The first knight moves lose their placement rights, so positions repeat from move 2 on.
        g.play_line("1. N-Db3 N-Bb3").unwrap();
        assert_eq!(g.repetitions(), 1);
        g.play_line("2. N-Eb1 N-Ab5").unwrap();
        assert_eq!(g.repetitions(), 1, "rights differ from the start");
        g.play_line("3. N-Db3 N-Bb3").unwrap();
        assert_eq!(g.repetitions(), 2);
        g.play_line("4. N-Eb1 N-Ab5 5. N-Db3").unwrap();
        assert_eq!(g.status(), Status::Ongoing);
        g.play_line("5... N-Bb3").unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::Repetition)));
        assert_eq!(g.status().to_string(), "draw by threefold repetition");
        g.undo();
        assert_eq!(g.status(), Status::Ongoing);
    }

    #[test]
    fn fifty_move_rule_and_mate_precedence() {
        // Kings and a white rook; clock at 99.
        let mut g = game("k4/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/R1K2 w - - - 99 80");
        assert_eq!(g.status(), Status::Ongoing);
        let m = parse_move(g.position(), "Ea1Eb1").unwrap();
        g.play(m).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::FiftyMoves)));
        assert!(matches!(g.play(m), Err(RefusedMove::GameOver(_))));
        // A mate on the hundredth ply is a mate: black king Aa5 walled in by its own pawns.
        let mut g = game("kp3/p4/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/R1K2 w - - - 99 80");
        g.play_line("80. R-Ea5++").unwrap();
        assert_eq!(g.position().halfmove(), 100);
        assert_eq!(g.status(), Status::Over(Outcome::win(Color::White, EndRule::Checkmate)));
    }

    #[test]
    fn bare_kings_depend_on_placement() {
        let v = Variant::plain(Ruleset::FiveUp);
        // Two kings, white holds a wizard and its king has never moved: not yet a draw.
        let t = "4k/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/2K2 w W Ec1 - 0 1";
        let g = Game::new(Position::from_text(t, v).unwrap());
        assert!(!g.bare_kings());
        assert_eq!(g.status(), Status::Ongoing);
        // The same without the right (the king has moved): draw.
        let g = Game::new(Position::from_text(&t.replace(" Ec1 ", " - "), v).unwrap());
        assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
        // A right but no reserve: draw.
        let g = Game::new(Position::from_text(&t.replace(" W Ec1 ", " - Ec1 "), v).unwrap());
        assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
        // Raumschach: two kings are always bare.
        let r = "4k/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/2K2 w - - - 0 1";
        let g = Game::new(Position::from_text(r, Variant::plain(Ruleset::Raumschach)).unwrap());
        assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
    }

    #[test]
    fn stalemate_is_a_draw() {
        // Black king Aa5; white queen Bb4 (guarded from Cc3) covers Ab5, Aa4 and Ba5 without check.
        let t = "k4/5/5/5/5|5/1Q3/5/5/5|5/5/2G2/5/5|5/5/5/5/5|2K2/5/5/5/5 b - - - 0 1";
        let g = game(t);
        if g.position().in_check() || g.position().has_legal_move() {
            panic!("test position is not stalemate: {}", crate::rules::notation::diagram(g.position()));
        }
        assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::Stalemate)));
    }

    #[test]
    fn repetition_window() {
        assert_eq!(prior_occurrences(&[5, 1, 5, 2], 5, 4), 2);
        assert_eq!(prior_occurrences(&[5, 1, 5, 2], 5, 2), 1);
        assert_eq!(prior_occurrences(&[], 5, 9), 0);
    }

    #[test]
    fn outcome_values_for_the_side_to_move() {
        let mate = Outcome::win(Color::White, EndRule::Checkmate);
        assert_eq!(mate.wdl_for(Color::White), [1.0, 0.0, 0.0]);
        assert_eq!(mate.wdl_for(Color::Black), [0.0, 0.0, 1.0]);
        assert_eq!(Outcome::draw(EndRule::BareKings).wdl_for(Color::Black), [0.0, 1.0, 0.0]);
    }

    #[test]
    fn end_rule_names_round_trip() {
        for r in EndRule::ALL {
            assert_eq!(r.name().parse::<EndRule>().unwrap(), r);
        }
        assert!("resign".parse::<EndRule>().is_err());
    }
}
