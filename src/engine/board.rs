//! What the alpha-beta search needs of a game: the [`SearchBoard`] trait.
//!
//! The search itself (`search`: iterative deepening, aspiration windows, PVS with its prunings
//! and reductions, quiescence, draws, Lazy SMP), the transposition table ([`super::tt`]) and the
//! move-ordering memory ([`super::ordering`]: killers, history, the staged [`MovePicker`]) are
//! written once, generic over a `SearchBoard`. A game supplies one type that owns, for one search
//! thread, its position and whatever evaluation state follows the position along the search path
//! (the 5x5x5 games' incremental evaluation terms and NNUE accumulators), and answers the few
//! questions only the game can: its evaluation, which moves are noisy, how to score them, the
//! moves quiescence tries, whether a null move is safe and whether a quiet move may give check.
//!
//! The search is monomorphised per game: [`super::Engine`]`<B>` calls `B`'s methods directly (no
//! dynamic dispatch per node), so the 5x5x5 engine compiles to the code it had before the game
//! interface ([`crate::engine::FiveUpBoard`]); each other game is a module of the engine of its
//! own (`super::quasi_alice`).
//!
//! Shared settings that do not change during a search (weights, a network) are the board's
//! [`SearchBoard::Eval`], owned by the engine and lent to every thread.
//!
//! [`MovePicker`]: super::ordering::MovePicker

pub use super::heuristics::SearchMove;
use super::heuristics::{Heuristics, ScoredMove};
use crate::game::State;

/// A game's side of the alpha-beta search, for one search thread: its position and the
/// evaluation state that follows it. See the module docs.
pub trait SearchBoard: Send + 'static {
    /// The position.
    type Pos: State<Move = Self::Move> + Clone + Send + Sync;
    /// The move.
    type Move: SearchMove;
    /// What a null move saves for its take-back.
    type NullUndo;
    /// Evaluation settings shared by every thread (weights, a network).
    type Eval: Send + Sync;
    /// What [`SearchBoard::may_give_check`] needs, computed once per node.
    type CheckInfo;

    /// Plies of quiescence after which a position not in check stands pat (evasions are still
    /// searched). Unlimited by default; a game whose capture chains run long enough to explode
    /// the search (Mixed 3D's 256 men) sets a bound.
    const QUIESCENCE_PLIES: usize = usize::MAX;

    /// A board with no position yet ([`SearchBoard::reset`] sets one).
    fn new() -> Self;

    /// Sets the position at the root of a search (and the evaluation state with it).
    fn reset(&mut self, eval: &Self::Eval, pos: &Self::Pos);

    /// The current position.
    fn pos(&self) -> &Self::Pos;

    /// Plays `m` (legal), bringing the evaluation state along.
    fn make(&mut self, eval: &Self::Eval, m: Self::Move) -> <Self::Pos as State>::Undo;

    /// Takes back `m`, the last move made.
    fn unmake(&mut self, eval: &Self::Eval, m: Self::Move, undo: <Self::Pos as State>::Undo);

    /// Passes the turn (null-move pruning; never called in check).
    fn make_null(&mut self) -> Self::NullUndo;

    /// Takes back a null move.
    fn unmake_null(&mut self, undo: Self::NullUndo);

    /// The static evaluation from the side to move, in centipawns, strictly inside the mate
    /// bounds ([`super::score::MATE_BOUND`]).
    fn static_eval(&mut self, eval: &Self::Eval) -> i32;

    /// Whether a null move is safe here (the side to move has men besides pawns and its king, so
    /// zugzwang is unlikely).
    fn null_move_ok(&self) -> bool;

    /// Every legal move, split into noisy moves (captures and promotions) and quiet ones, into
    /// the two lists (cleared by the caller). The split must agree with
    /// [`SearchBoard::is_quiet`]. Called after [`SearchBoard::static_eval`] when not in check.
    fn legal_moves_split(&mut self, eval: &Self::Eval, noisy: &mut Vec<Self::Move>, quiet: &mut Vec<Self::Move>);

    /// Whether legal move `m` is quiet (neither a capture nor a promotion).
    fn is_quiet(&self, m: Self::Move) -> bool;

    /// The ordering score of a legal noisy move: from `GOOD_CAPTURE` for captures and promotions
    /// worth trying early, below `BAD_CAPTURE / 2` for those to try after the quiet moves (see
    /// [`super::ordering`]).
    fn noisy_score(&self, eval: &Self::Eval, m: Self::Move) -> i32;

    /// The ordering score of a quiet move that is not a killer: its history (within
    /// +-[`super::heuristics::HISTORY_MAX`]) plus a small game-specific edge (at most 64).
    /// `side` is the index of the side to move.
    #[inline]
    fn quiet_score(&self, heur: &Heuristics<Self::Move>, side: usize, m: Self::Move) -> i32 {
        heur.history(side, m)
    }

    /// The moves quiescence tries out of check, scored: captures (and promotions) whose victim
    /// is worth at least `min_gain`, plus whatever else the game finds worth resolving. `out`
    /// is cleared first.
    fn captures(&mut self, eval: &Self::Eval, min_gain: i32, out: &mut Vec<ScoredMove<Self::Move>>);

    /// Whether quiescence skips move `m` of [`SearchBoard::captures`] as a losing capture.
    fn skip_capture(&self, eval: &Self::Eval, m: Self::Move) -> bool;

    /// The check information of the side to move.
    fn check_info(&self) -> Self::CheckInfo;

    /// The endgame tables' value of `pos` for its side to move, when the evaluation settings
    /// carry tables that hold it. Games without tables keep the default (none).
    #[inline]
    fn probe(eval: &Self::Eval, pos: &Self::Pos) -> Option<crate::tablebase::Dtm> {
        let _ = (eval, pos);
        None
    }

    /// Whether legal move `m` may give check: never false for a checking move.
    fn may_give_check(&self, info: &Self::CheckInfo, m: Self::Move) -> bool;
}
