//! The training-record schema (version [`SCHEMA_VERSION`]), documented field by field.
//!
//! One [`GameRecord`] per game: a self-play game, or an engine game of the bootstrap
//! (distillation) or of a held-out set. Records are serialised with bincode 1.3's default
//! options (little-endian, fixed-width integers, `u64` lengths before vectors and strings, enum
//! variants as `u32` indices in declaration order) and stored in shards (see [`super::shards`]).
//! Any change to a field, its type, its order or an enum's variant order is a schema change: bump
//! [`SCHEMA_VERSION`] and keep a reader for the old version.
//!
//! [`GameRecord`], in serialisation order:
//! 1. `variant: VariantRecord` — the rules the game was played under:
//!    `ruleset: String` (`fiveup`, `fiveup-2001`, `raumschach`), `castling: bool`,
//!    `hypercylinder: bool`.
//! 2. `start: SetupRecord` — the start position, field by field as [`crate::rules::Setup`]:
//!    `board: Vec<u8>` (125 entries indexed by cell = layer·25 + rank·5 + file, 0 = empty, else
//!    `1 + kind + 16·colour` with kind as [`crate::rules::Kind`]'s index and colour 0 = white),
//!    `side: u8` (0 white, 1 black), `reserve: [u8; 2]` (per side, W = 1, G = 2, S = 4),
//!    `rights: u128` (cells with placement rights, bit = cell index), `ep_passed: u128` (en
//!    passant passed cells), `ep_pawn: u8` (cell of the pawn that can be taken), `halfmove: u32`,
//!    `fullmove: u32`.
//! 3. `moves: Vec<u32>` — every move of the game from `start` in order, as [`crate::rules::Move::bits`]
//!    (random opening moves and cheap-search moves included).
//! 4. `positions: Vec<PositionRecord>` — the positions with a full search (training samples), and
//!    with `selfplay.cheap_value_samples` the cheap searches as value-only samples:
//!    - `ply: u32` — index into `moves` of the move played from this position (so the position is
//!      `start` after `moves[..ply]`);
//!    - `policy: Vec<(u32, f32)>` — the search policy target, sparse: (move bits, probability) for
//!      legal moves of the position only, probabilities summing to 1 (Gumbel: improved policy π';
//!      PUCT: visit distribution); since version 3 it may be empty: a value-only sample, a cheap
//!      search recorded for its root value alone (`selfplay.cheap_value_samples`);
//!    - `root_wdl: [f32; 3]` — the search's root value (win, draw, loss) for the side to move
//!      (MCTS: see [`crate::mcts::MctsResult::root_wdl`]; an engine search: its score through
//!      [`score_to_wdl`] at [`ENGINE_SCORE_SCALE`]);
//!    - `nn_wdl: [f32; 3]` — the evaluator's value of the position before any search, same
//!      convention ([`crate::nn::evaluator::NEUTRAL_WDL`] when no evaluator played). In self-play
//!      with `selfplay.quiescence` > 0, `selfplay.nnue_leaf` > 0, `selfplay.hand_leaf` > 0 or
//!      `selfplay.mate_check` the
//!      evaluator is the network behind those leaf terms (`mcts::QuiescenceEvaluator`), so this
//!      is the corrected value, not the network's own;
//!    - `simulations: u32` — simulations the search ran (an engine search: nodes, saturating);
//!    - `engine_score: Option<i32>` (since version 2) — for positions an alpha-beta engine searched,
//!      its score for the side to move as [`crate::engine::Score`]'s integer (centipawns; mates
//!      as `±(MATE − plies)`), so that training can map it to a value target at any scale;
//!      `None` for MCTS positions. The policy of such a position is the engine's move alone
//!      (probability 1); training adds label smoothing itself.
//! 5. `result: GameResult` — `WhiteWin` (0), `Draw` (1) or `BlackWin` (2).
//! 6. `termination: Termination` — the rule that ended the game, as [`Termination`]'s variant index
//!    (Checkmate 0, Stalemate 1, Repetition 2, FiftyMove 3, BareKings 4, PlyCap 5, Resignation 6).
//! 7. `resign_disabled: bool` — resignation was off for this game (the calibration play-through).
//! 8. `would_resign_ply: Option<u32>` — in a play-through game, the first ply at which a side would
//!    have resigned (to measure the false-resignation rate), else `None`.
//! 9. `game_index: u64` — the game's number in its batch: in self-play, within its worker's chunk
//!    of `selfplay.concurrent_games` games (its random stream is derived from the chunk's seed and
//!    this number, so indices repeat across chunks but games do not); in engine games (bootstrap,
//!    held-out), within the set.
//! 10. `evaluator: String` — [`crate::nn::Evaluator::name`] of the evaluator that played.

use crate::engine::score::score_to_expectation;
use crate::game::Color;
use crate::game::{EndRule, Outcome};
use crate::rules::bitboard::Bitboard;
use crate::rules::position::EnPassant;
use crate::rules::{Kind, Piece, Ruleset, Setup, SetupError, Variant};
use serde::{Deserialize, Serialize};

/// Version of the record schema written into every shard header.
///
/// History: 1 — the first schema (the bootstrap stored the engine's score only as `root_wdl`);
/// 2 — `PositionRecord::engine_score` added; 3 — the same fields, and a position's `policy` may be
/// empty: a value-only sample (`selfplay.cheap_value_samples`). Version 1 shards are still read
/// ([`GameRecordV1`]); an empty policy in a shard of schema 1 or 2 is refused.
pub const SCHEMA_VERSION: u32 = 3;

/// Centipawns of engine score that [`score_to_wdl`] maps to odds of 10 (400: centipawns read as
/// Elo, the engine convention), used for the informative `root_wdl` of engine positions.
pub const ENGINE_SCORE_SCALE: f32 = 400.0;

/// An engine score as a WDL `[E, 0, 1 − E]` with `E` from [`score_to_expectation`] at
/// [`ENGINE_SCORE_SCALE`] (the informative `root_wdl` of engine positions; training maps
/// `engine_score` itself).
pub fn score_to_wdl(score: i32) -> [f32; 3] {
    let e = score_to_expectation(score, ENGINE_SCORE_SCALE);
    [e, 0.0, 1.0 - e]
}

/// The ruleset and board flags of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantRecord {
    /// Ruleset name (`fiveup`, `fiveup-2001`, `raumschach`).
    pub ruleset: String,
    /// Optional castling rule.
    pub castling: bool,
    /// Hypercylinder board.
    pub hypercylinder: bool,
}

/// A start position, field by field (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRecord {
    /// 125 piece codes (0 empty, else 1 + kind + 16·colour).
    pub board: Vec<u8>,
    /// Side to move (0 white, 1 black).
    pub side: u8,
    /// Reserve masks (W = 1, G = 2, S = 4) of white and black.
    pub reserve: [u8; 2],
    /// Cells with placement rights.
    pub rights: u128,
    /// En passant passed cells.
    pub ep_passed: u128,
    /// Cell of the pawn that can be taken en passant.
    pub ep_pawn: u8,
    /// Halfmove clock.
    pub halfmove: u32,
    /// Move number.
    pub fullmove: u32,
}

/// One training sample: a position searched in full.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionRecord {
    /// Index of the move played from this position.
    pub ply: u32,
    /// Sparse policy target: (move bits, probability), legal moves only, summing to 1.
    pub policy: Vec<(u32, f32)>,
    /// Search root value (win, draw, loss) for the side to move.
    pub root_wdl: [f32; 3],
    /// The evaluator's value for the side to move before search (self-play with quiescence:
    /// the quiescence-corrected network value).
    pub nn_wdl: [f32; 3],
    /// Simulations run (engine positions: nodes searched, saturating).
    pub simulations: u32,
    /// The alpha-beta engine's score for the side to move, for engine-searched positions.
    pub engine_score: Option<i32>,
}

/// A position record of schema version 1 (no `engine_score`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionRecordV1 {
    /// As [`PositionRecord::ply`].
    pub ply: u32,
    /// As [`PositionRecord::policy`].
    pub policy: Vec<(u32, f32)>,
    /// As [`PositionRecord::root_wdl`] (version 1 bootstrap records: the engine's expectation).
    pub root_wdl: [f32; 3],
    /// As [`PositionRecord::nn_wdl`].
    pub nn_wdl: [f32; 3],
    /// As [`PositionRecord::simulations`].
    pub simulations: u32,
}

/// A game record of schema version 1: [`GameRecord`] with [`PositionRecordV1`] positions.
pub type GameRecordV1 = GameRecord<PositionRecordV1>;

impl From<PositionRecordV1> for PositionRecord {
    /// Version 1 positions gain `engine_score: None`. (A version 1 bootstrap game keeps its engine
    /// expectation in `root_wdl`; its policy is the softened one-hot it was written with.)
    fn from(p: PositionRecordV1) -> PositionRecord {
        PositionRecord {
            ply: p.ply,
            policy: p.policy,
            root_wdl: p.root_wdl,
            nn_wdl: p.nn_wdl,
            simulations: p.simulations,
            engine_score: None,
        }
    }
}

impl From<GameRecordV1> for GameRecord {
    /// Version 1 records with their positions converted.
    fn from(r: GameRecordV1) -> GameRecord {
        r.map_positions(PositionRecord::from)
    }
}

impl<P> GameRecord<P> {
    /// The same game with every position record mapped through `f` (schema conversions).
    pub fn map_positions<Q>(self, f: impl FnMut(P) -> Q) -> GameRecord<Q> {
        GameRecord {
            variant: self.variant,
            start: self.start,
            moves: self.moves,
            positions: self.positions.into_iter().map(f).collect(),
            result: self.result,
            termination: self.termination,
            resign_disabled: self.resign_disabled,
            would_resign_ply: self.would_resign_ply,
            game_index: self.game_index,
            evaluator: self.evaluator,
        }
    }
}

/// The rule (or tool setting) that ended a game: the schema's image of [`EndRule`]. The numbering
/// is part of the record schema (variants are serialised by index), so variants are only ever
/// appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position for the third time.
    Repetition,
    /// 100 plies without a capture or a pawn move.
    FiftyMove,
    /// Only the two kings are left and neither side can still place a reserve piece.
    BareKings,
    /// The self-play ply cap was reached (adjudicated: a draw, or a win on material with
    /// `selfplay.ply_cap_adjudicate`).
    PlyCap,
    /// A side resigned.
    Resignation,
}

impl From<EndRule> for Termination {
    fn from(r: EndRule) -> Termination {
        match r {
            EndRule::Checkmate => Termination::Checkmate,
            EndRule::Stalemate => Termination::Stalemate,
            EndRule::Repetition => Termination::Repetition,
            EndRule::FiftyMoves => Termination::FiftyMove,
            EndRule::BareKings => Termination::BareKings,
            EndRule::Resignation => Termination::Resignation,
            EndRule::Adjudication => Termination::PlyCap,
        }
    }
}

impl From<Termination> for EndRule {
    fn from(t: Termination) -> EndRule {
        match t {
            Termination::Checkmate => EndRule::Checkmate,
            Termination::Stalemate => EndRule::Stalemate,
            Termination::Repetition => EndRule::Repetition,
            Termination::FiftyMove => EndRule::FiftyMoves,
            Termination::BareKings => EndRule::BareKings,
            Termination::PlyCap => EndRule::Adjudication,
            Termination::Resignation => EndRule::Resignation,
        }
    }
}

/// The outcome of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// White won.
    WhiteWin,
    /// Drawn (by rule or adjudication).
    Draw,
    /// Black won.
    BlackWin,
}

impl GameResult {
    /// The result when `loser` lost.
    pub fn loss_for(loser: Color) -> GameResult {
        match loser {
            Color::White => GameResult::BlackWin,
            Color::Black => GameResult::WhiteWin,
        }
    }

    /// The result of a game the rules ended with `o`.
    pub fn from_outcome(o: Outcome) -> GameResult {
        match o.winner {
            Some(Color::White) => GameResult::WhiteWin,
            Some(Color::Black) => GameResult::BlackWin,
            None => GameResult::Draw,
        }
    }

    /// Win, draw, loss from `side`'s point of view (one-hot), the value target.
    pub fn wdl_for(self, side: Color) -> [f32; 3] {
        match (self, side) {
            (GameResult::Draw, _) => [0.0, 1.0, 0.0],
            (GameResult::WhiteWin, Color::White) | (GameResult::BlackWin, Color::Black) => [1.0, 0.0, 0.0],
            _ => [0.0, 0.0, 1.0],
        }
    }
}

/// One self-play game (see the module docs for each field). `P` is the position record of the
/// schema: [`PositionRecord`] (the current one) or [`PositionRecordV1`] ([`GameRecordV1`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord<P = PositionRecord> {
    /// Rules of the game.
    pub variant: VariantRecord,
    /// Start position.
    pub start: SetupRecord,
    /// All moves as [`Move::bits`].
    pub moves: Vec<u32>,
    /// Fully searched positions (training samples).
    pub positions: Vec<P>,
    /// Outcome.
    pub result: GameResult,
    /// Rule that ended the game.
    pub termination: Termination,
    /// Resignation was disabled for this game (play-through for calibration).
    pub resign_disabled: bool,
    /// First ply at which resignation would have happened, in a play-through game.
    pub would_resign_ply: Option<u32>,
    /// The game's number in its batch (self-play: its chunk; see the module docs, field 9).
    pub game_index: u64,
    /// Name of the evaluator that played.
    pub evaluator: String,
}

/// Why a record does not describe a legal game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// Unknown ruleset or forbidden flags.
    #[error("bad variant: {0}")]
    Variant(String),
    /// The board field is not 125 valid piece codes.
    #[error("bad board field: {0}")]
    Board(String),
    /// The start position is not legal.
    #[error("bad start position: {0}")]
    Setup(#[from] SetupError),
    /// A field names a cell outside the 125 of the board.
    #[error("{field} names cell {cell}, outside the board (cells 0 to 124)")]
    OffBoard {
        /// The field.
        field: &'static str,
        /// The first bad cell.
        cell: u32,
    },
    /// A number of a training position is not usable as a target.
    #[error("position {index} (ply {ply}): {detail}")]
    BadNumber {
        /// Index into `positions`.
        index: usize,
        /// Its ply.
        ply: u32,
        /// What is wrong.
        detail: NumberFault,
    },
    /// A move is not legal where it is played.
    #[error("move {index} (bits {bits:#x}) is not legal")]
    IllegalMove {
        /// Index into `moves`.
        index: usize,
        /// Its bits.
        bits: u32,
    },
}

/// What is wrong with a number of a training position ([`RecordError::BadNumber`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NumberFault {
    /// The position's ply is past the game's end.
    #[error("ply {ply} is past the game's {moves} moves")]
    PlyPastEnd {
        /// The ply.
        ply: u32,
        /// The game's number of moves.
        moves: usize,
    },
    /// An entry of a probability vector is not a number in 0..1.
    #[error("{what} entry {index} is {value} (a probability must be a number in 0..1)")]
    Entry {
        /// The vector (`policy`, `root_wdl`, `nn_wdl`).
        what: &'static str,
        /// The entry's index.
        index: usize,
        /// Its value.
        value: f32,
    },
    /// A probability vector does not sum to 1.
    #[error("{what} sums to {sum}, not 1")]
    Sum {
        /// The vector.
        what: &'static str,
        /// Its sum.
        sum: f32,
    },
}

impl VariantRecord {
    /// The record of a variant.
    pub fn from_variant(v: Variant) -> VariantRecord {
        VariantRecord { ruleset: v.ruleset.name().to_string(), castling: v.castling, hypercylinder: v.hypercylinder }
    }

    /// The variant, checked.
    pub fn to_variant(&self) -> Result<Variant, RecordError> {
        let rs: Ruleset = self.ruleset.parse().map_err(|e| RecordError::Variant(format!("{e}")))?;
        Variant::new(rs, self.castling, self.hypercylinder).map_err(|e| RecordError::Variant(e.to_string()))
    }
}

impl SetupRecord {
    /// The record of a setup.
    pub fn from_setup(s: &Setup) -> SetupRecord {
        SetupRecord {
            board: s.board.iter().map(|p| p.map_or(0, |p| 1 + p.kind as u8 + 16 * p.color as u8)).collect(),
            side: s.side as u8,
            reserve: s.reserve,
            rights: s.rights.0,
            ep_passed: s.ep.passed,
            ep_pawn: s.ep.pawn,
            halfmove: s.halfmove,
            fullmove: s.fullmove,
        }
    }

    /// The (unchecked) setup for `variant`.
    pub fn to_setup(&self, variant: Variant) -> Result<Setup, RecordError> {
        if self.board.len() != 125 {
            return Err(RecordError::Board(format!("{} cells instead of 125", self.board.len())));
        }
        self.check_cells()?;
        let mut s = Setup::empty(variant);
        for (i, &code) in self.board.iter().enumerate() {
            if code == 0 {
                continue;
            }
            let v = code - 1;
            let kind = Kind::from_index((v & 15) as usize).filter(|_| v < 32);
            let kind = kind.ok_or_else(|| RecordError::Board(format!("code {code} at cell {i}")))?;
            s.board[i] = Some(Piece::new(if v >= 16 { Color::Black } else { Color::White }, kind));
        }
        s.side = if self.side == 0 { Color::White } else { Color::Black };
        s.reserve = self.reserve;
        s.rights = Bitboard(self.rights);
        s.ep = EnPassant { passed: self.ep_passed, pawn: self.ep_pawn };
        s.halfmove = self.halfmove;
        s.fullmove = self.fullmove;
        Ok(s)
    }
}

impl SetupRecord {
    /// Checks that the cell sets and cells name cells of the board (bits 125 to 127 clear), so
    /// that no damaged record reaches code that indexes per-cell tables.
    pub fn check_cells(&self) -> Result<(), RecordError> {
        let off = |field, bits: u128| match bits >> 125 {
            0 => Ok(()),
            hi => Err(RecordError::OffBoard { field, cell: 125 + hi.trailing_zeros() }),
        };
        off("rights", self.rights)?;
        off("ep_passed", self.ep_passed)?;
        if self.ep_passed != 0 && self.ep_pawn >= 125 {
            return Err(RecordError::OffBoard { field: "ep_pawn", cell: self.ep_pawn as u32 });
        }
        if self.side > 1 {
            return Err(RecordError::Board(format!("side {} (0 white, 1 black)", self.side)));
        }
        Ok(())
    }
}

/// Largest error accepted in the sum of a probability vector (policy or WDL) that should be 1.
pub const SUM_TOLERANCE: f32 = 0.01;

/// Checks that `v` is a probability vector: finite, non-negative, at most 1, summing to 1.
fn check_probabilities(what: &'static str, v: impl Iterator<Item = f32>) -> Result<(), NumberFault> {
    let mut sum = 0.0f32;
    for (i, p) in v.enumerate() {
        // Rounding may leave a component a hair below 0 (a tree's (1 + q − d) / 2 with q − d = −1),
        // as it may leave one above 1: both within the sum's tolerance.
        if !p.is_finite() || !(-SUM_TOLERANCE..=1.0 + SUM_TOLERANCE).contains(&p) {
            return Err(NumberFault::Entry { what, index: i, value: p });
        }
        sum += p;
    }
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(NumberFault::Sum { what, sum });
    }
    Ok(())
}

impl GameRecord {
    /// Checks the record's numbers without replaying it: cells on the board
    /// ([`SetupRecord::check_cells`]), plies within the game (at most its number of moves), policies and WDL values that are
    /// probability vectors (finite, in 0..1, summing to 1 within [`SUM_TOLERANCE`]; an empty policy
    /// is a value-only sample). Shards call it on every record they read.
    pub fn validate(&self) -> Result<(), RecordError> {
        // The 5x5x5 header indexes per-cell tables when read; a Quasi-Alice header is read through
        // its position text, which checks every field (`SelfPlayGame::from_record`).
        if self.variant.ruleset != crate::quasi_alice::NAME {
            self.start.check_cells()?;
        }
        for (index, p) in self.positions.iter().enumerate() {
            let bad = |detail: NumberFault| RecordError::BadNumber { index, ply: p.ply, detail };
            // `ply == moves.len()`: the last search of a game that ended by resignation.
            if p.ply as usize > self.moves.len() {
                return Err(bad(NumberFault::PlyPastEnd { ply: p.ply, moves: self.moves.len() }));
            }
            // Empty: a value-only sample (schema 3).
            if !p.policy.is_empty() {
                check_probabilities("policy", p.policy.iter().map(|&(_, q)| q)).map_err(bad)?;
            }
            check_probabilities("root_wdl", p.root_wdl.into_iter()).map_err(bad)?;
            check_probabilities("nn_wdl", p.nn_wdl.into_iter()).map_err(bad)?;
        }
        Ok(())
    }

    /// The side to move after `ply` plies: the start position's side, flipped when `ply` is odd.
    pub fn side_to_move_at(&self, ply: u32) -> Color {
        let start = if self.start.side == 0 { Color::White } else { Color::Black };
        if ply % 2 == 0 {
            start
        } else {
            start.flip()
        }
    }
}
