//! Statistics of a set of self-play games: results, lengths, how games ended, and the
//! false-resignation rate measured on the play-through games.
//!
//! A play-through game is played to the end with resignation off (`selfplay.resign_playthrough`
//! of the games; every game when resignation is off altogether). The driver notes in
//! `would_resign_ply` the first ply at which the side to move would have resigned; the side to
//! move at a ply follows from the start position's side and the ply's parity. The resignation
//! would have been false when that side did not go on to lose (it drew or won). KataGo and Leela
//! Zero keep this rate under a few percent by tuning the resignation threshold.

use super::records::{GameRecord, GameResult, Termination};
use serde::Serialize;

/// Counters over a set of games; see [`SelfplayStats::from_games`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SelfplayStats {
    /// Games counted.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Mean game length in plies (0 without games).
    pub mean_plies: f64,
    /// Games ended by resignation.
    pub resignations: u64,
    /// Games ended at the ply cap (adjudicated).
    pub ply_cap_games: u64,
    /// Games played with resignation off (the play-through share; all games when resignation is
    /// off).
    pub playthrough_games: u64,
    /// Play-through games in which a side would have resigned.
    pub would_resign_games: u64,
    /// Of those, games the side that would have resigned did not lose.
    pub false_resignations: u64,
    /// `false_resignations / would_resign_games`; `None` when no side would have resigned.
    pub false_resign_rate: Option<f64>,
}

impl SelfplayStats {
    /// The statistics of `games`.
    pub fn from_games(games: &[GameRecord]) -> SelfplayStats {
        let mut s = SelfplayStats::default();
        let mut plies = 0u64;
        for g in games {
            s.games += 1;
            plies += g.moves.len() as u64;
            match g.result {
                GameResult::WhiteWin => s.white_wins += 1,
                GameResult::Draw => s.draws += 1,
                GameResult::BlackWin => s.black_wins += 1,
            }
            match g.termination {
                Termination::Resignation => s.resignations += 1,
                Termination::PlyCap => s.ply_cap_games += 1,
                _ => {}
            }
            if !g.resign_disabled {
                continue;
            }
            s.playthrough_games += 1;
            if let Some(ply) = g.would_resign_ply {
                s.would_resign_games += 1;
                if g.result != GameResult::loss_for(g.side_to_move_at(ply)) {
                    s.false_resignations += 1;
                }
            }
        }
        if s.games > 0 {
            s.mean_plies = plies as f64 / s.games as f64;
        }
        if s.would_resign_games > 0 {
            s.false_resign_rate = Some(s.false_resignations as f64 / s.would_resign_games as f64);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Setup, Variant};
    use crate::selfplay::records::{SetupRecord, VariantRecord};

    /// A record of `plies` (unchecked) moves from the start position, white to move.
    fn game(plies: usize, result: GameResult, termination: Termination, would: Option<u32>) -> GameRecord {
        let v = Variant::default();
        GameRecord {
            variant: VariantRecord::from_variant(v),
            start: SetupRecord::from_setup(&Setup::start(v)),
            moves: vec![0; plies],
            positions: Vec::new(),
            result,
            termination,
            resign_disabled: false,
            would_resign_ply: would,
            game_index: 0,
            evaluator: "test".into(),
        }
    }

    fn playthrough(mut g: GameRecord) -> GameRecord {
        g.resign_disabled = true;
        g
    }

    #[test]
    fn counts_results_lengths_and_endings() {
        use GameResult::*;
        let games = [
            game(10, WhiteWin, Termination::Checkmate, None),
            game(20, BlackWin, Termination::Resignation, None),
            game(30, Draw, Termination::PlyCap, None),
            game(40, WhiteWin, Termination::PlyCap, None),
        ];
        let s = SelfplayStats::from_games(&games);
        assert_eq!((s.games, s.white_wins, s.draws, s.black_wins), (4, 2, 1, 1));
        assert_eq!(s.mean_plies, 25.0);
        assert_eq!((s.resignations, s.ply_cap_games, s.playthrough_games), (1, 2, 0));
        assert_eq!((s.would_resign_games, s.false_resignations, s.false_resign_rate), (0, 0, None));
        assert_eq!(SelfplayStats::from_games(&[]), SelfplayStats::default());
    }

    #[test]
    fn false_resignations_follow_the_side_to_move_at_the_ply() {
        use GameResult::*;
        // White starts: white moves at even plies, black at odd ones.
        let games = [
            // White would have resigned (ply 6) and lost: a true resignation.
            playthrough(game(50, BlackWin, Termination::Checkmate, Some(6))),
            // White would have resigned (ply 8) and drew: false.
            playthrough(game(60, Draw, Termination::Repetition, Some(8))),
            // Black would have resigned (ply 9) and won: false.
            playthrough(game(70, BlackWin, Termination::Checkmate, Some(9))),
            // Black would have resigned (ply 11) and lost: true.
            playthrough(game(80, WhiteWin, Termination::Checkmate, Some(11))),
            // A play-through game where nobody would have resigned.
            playthrough(game(90, Draw, Termination::FiftyMove, None)),
            // Not a play-through game: its note (never set by the driver) is ignored.
            game(10, Draw, Termination::Stalemate, Some(2)),
        ];
        let s = SelfplayStats::from_games(&games);
        assert_eq!((s.playthrough_games, s.would_resign_games, s.false_resignations), (5, 4, 2));
        assert_eq!(s.false_resign_rate, Some(0.5));
        // Black to move at the start flips the parity: ply 6 is now black's, who won.
        let mut g = playthrough(game(50, BlackWin, Termination::Checkmate, Some(6)));
        g.start.side = 1;
        let s = SelfplayStats::from_games(&[g]);
        assert_eq!((s.would_resign_games, s.false_resignations, s.false_resign_rate), (1, 1, Some(1.0)));
        let text = serde_json::to_string(&s).unwrap();
        assert!(text.contains("\"false_resign_rate\":1.0"), "{text}");
    }
}
