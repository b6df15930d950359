//! What the piece-value estimators need of a game: [`ValuesGame`], implemented for the 5x5x5
//! games ([`crate::rules::Position`]) and for 4D Quasi-Alice Chess
//! ([`crate::quasi_alice::Position`]). The estimators are written once over it and monomorphised.
//!
//! Kinds are named in one vocabulary, the 5x5x5 [`Kind`] enum, whose first six kinds are chess's
//! (pawn, knight, bishop, rook, queen, king): a game maps its own kinds into it, so the fits,
//! reports and values files keep one kind type and one key per piece (`knight`, `rook`). Mixed 3D's
//! commoner, outside chess's six, is carried as the 5x5x5 guard, which moves the same (one step in
//! any of the 26 directions): its imbalance letter is `G` (`C` is read too), and its reports and
//! values files name it `commoner` ([`ValuesGame::kind_name`]).

use super::handicap::{Imbalance, ImbalanceError};
use crate::eval::records::RecordGame;
use crate::game::Color;
use crate::player::spec::AlphaBetaSpec;
use crate::rules::types::KIND_COUNT;
use crate::rules::Kind;
use std::fmt;

/// The evaluation's positional part of a position (the Texel-style regression's covariate,
/// [`super::regression`]), in the evaluation's pawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Positional {
    /// Everything but material and tempo, white minus black.
    pub positional: f64,
    /// Per kind index: the positional bonus of both sides' pieces of that kind on the board,
    /// summed, and how many there are.
    pub bonus: [(f64, f64); KIND_COUNT],
}

/// A game whose piece values `fiveup values` measures.
pub trait ValuesGame: RecordGame {
    /// Which rules of the game a run is for (the 5x5x5 [`crate::rules::Variant`]; a game with one
    /// rule set has a unit type). Its text is saved in each iteration's `config.json`.
    type Rules: Copy + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// The alpha-beta engine's evaluation weights (material and positional terms).
    type Weights: Clone + Send + Sync;

    /// The name of the rules in reports and values files (`fiveup`, `raumschach`, `quasi-alice`).
    fn rules_name(rules: Self::Rules) -> &'static str;

    /// The kinds whose value is measured, pawn first, in table order (never the king).
    fn measured_kinds(rules: Self::Rules) -> Vec<Kind>;

    /// The kind an upper-case letter of an imbalance text names (`None` for no kind of the game).
    fn kind_from_letter(rules: Self::Rules, c: char) -> Option<Kind>;

    /// A kind's name in the game's reports and values files (by default its weights-file key,
    /// `knight`; Mixed 3D's commoner is carried as the guard, which moves the same).
    fn kind_name(rules: Self::Rules, kind: Kind) -> &'static str {
        let _ = rules;
        crate::engine::weights::kind_key(kind)
    }

    /// A kind's letter in the game's report table (by default the layer's letter).
    fn kind_letter(rules: Self::Rules, kind: Kind) -> char {
        let _ = rules;
        kind.letter()
    }

    /// The prior guess of a kind in pawns (the published table, where there is one).
    fn guess(rules: Self::Rules, kind: Kind) -> f64;

    /// Where [`ValuesGame::guess`] comes from.
    fn guess_source(rules: Self::Rules) -> &'static str;

    /// The exchange checks of the even design (`--exchanges` default).
    fn default_exchanges(rules: Self::Rules) -> Vec<Imbalance>;

    /// How many pawns a side starts with (the most an imbalance may take).
    fn start_pawns(rules: Self::Rules) -> usize;

    /// The start position with A (of colour `a`) and B lacking their material; `instance` picks
    /// which start pieces of each kind go (cycling through the kind's start pieces).
    fn imbalance_position(
        rules: Self::Rules,
        imbalance: &Imbalance,
        a: Color,
        instance: usize,
    ) -> Result<Self, ImbalanceError>;

    /// Number of distinct instances of an imbalance (schedules cycle through them).
    fn instances(rules: Self::Rules, imbalance: &Imbalance) -> usize;

    /// Whether `m` may be a move of a pair's shared random opening: no capture, no promotion.
    fn opening_move_is_quiet(&self, m: Self::Move) -> bool;

    /// The move's text in a values game store (`games.jsonl`).
    fn store_move_text(m: Self::Move) -> String;

    /// Reads a legal move of this position from its store text.
    fn parse_store_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A position from its text (a store's `start`).
    fn from_store_text(rules: Self::Rules, text: &str) -> Result<Self, String>;

    /// Games of a binary record file (`bytes` begin with a self-play shard's magic), or why not.
    fn shard_games(rules: Self::Rules, path: &std::path::Path, bytes: &[u8]) -> Result<Vec<ReplayGame<Self>>, String>;

    /// Whether the position is quiet enough to sample (see [`super::regression`]).
    fn is_quiet(&self) -> bool;

    /// White's count minus black's per kind index, material in hand counted while placeable.
    fn material_delta(&self) -> [f64; KIND_COUNT];

    /// The weights an alpha-beta spec plays with (its `values=` file, else the defaults).
    fn engine_weights(rules: Self::Rules, spec: &AlphaBetaSpec) -> Result<Self::Weights, String>;

    /// The weights' material value of a kind, centipawns.
    fn weight_value(weights: &Self::Weights, kind: Kind) -> i32;

    /// Sets the weights' material value of a kind, centipawns.
    fn set_weight_value(weights: &mut Self::Weights, kind: Kind, value: i32);

    /// The weights as a values file the engine reads back (`ab:values=FILE`).
    fn weights_toml(weights: &Self::Weights) -> String;

    /// The evaluation's positional part of this position under `weights`.
    fn positional(&self, weights: &Self::Weights) -> Positional;
}

/// A game ready for analysis: start position, moves, white's score.
#[derive(Clone, Debug)]
pub struct ReplayGame<G: ValuesGame = crate::rules::Position> {
    /// Start position.
    pub start: G,
    /// Moves from it.
    pub moves: Vec<G::Move>,
    /// White's score: 1, ½ or 0.
    pub white_score: f64,
}
