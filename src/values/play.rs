//! Playing the games: shared random openings for a colour-swapped pair, one game between two
//! players, and a small parallel job runner.
//!
//! This is the thin adapter the piece-value estimator plays through until the project's match
//! runner (`eval::runner`) lands; [`play_jobs`] has that runner's shape (jobs, concurrency, a
//! callback per finished game) so the swap is local to this file.

use crate::player::{PlayError, Player, PlayerSpec};
use crate::rules::game::{EndRule, Game, Outcome};
use crate::rules::{Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    /// Caller's identifier, handed back with the result.
    pub id: usize,
    /// White's player spec.
    pub white: PlayerSpec,
    /// Black's player spec.
    pub black: PlayerSpec,
    /// Start position (its side to move moves first).
    pub start: Position,
    /// Ply cap: a game still going after this many plies is adjudicated a draw.
    pub max_plies: u32,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Start position.
    pub start: Position,
    /// Moves played from it.
    pub moves: Vec<Move>,
    /// Result and the rule that ended the game (`Adjudication` at the ply cap).
    pub outcome: Outcome,
}

/// Plays one game from `start`; `white` and `black` move for their colours. A game still going after
/// `max_plies` plies is adjudicated a draw.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: &Position,
    max_plies: u32,
) -> Result<PlayedGame, PlayError> {
    white.new_game();
    black.new_game();
    let mut game = Game::new(start.clone());
    let mut history: Vec<u64> = Vec::new();
    let outcome = loop {
        if let Some(o) = game.status().outcome() {
            break o;
        }
        if game.moves().len() as u32 >= max_plies {
            break Outcome::draw(EndRule::Adjudication);
        }
        let pos = game.position().clone();
        let player: &mut dyn Player = match pos.side() {
            crate::rules::Color::White => &mut *white,
            crate::rules::Color::Black => &mut *black,
        };
        let choice = player.choose(&pos, &history)?;
        history.push(pos.hash());
        game.play(choice.mv).map_err(|_| PlayError::NoLegalMove)?;
    };
    Ok(PlayedGame { start: start.clone(), moves: game.moves().to_vec(), outcome })
}

/// Plays every job on `concurrency` threads (each builds its own players per game) and calls
/// `on_finished` on the calling thread as each game ends, in finishing order. Stops at the first
/// error and returns it.
pub fn play_jobs(
    jobs: Vec<Job>,
    concurrency: usize,
    mut on_finished: impl FnMut(&Job, PlayedGame) -> std::io::Result<()>,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let jobs_ref = &jobs;
    let (tx, rx) = mpsc::channel::<(usize, Result<PlayedGame, String>)>();
    let failed = Mutex::new(None::<String>);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1).min(jobs.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs_ref.get(i) else { break };
                let r = (|| {
                    let mut w = job.white.build().map_err(|e| e.to_string())?;
                    let mut b = job.black.build().map_err(|e| e.to_string())?;
                    play_game(w.as_mut(), b.as_mut(), &job.start, job.max_plies).map_err(|e| e.to_string())
                })();
                let stop = r.is_err();
                if tx.send((i, r)).is_err() || stop {
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            let res = r.and_then(|g| on_finished(&jobs[i], g).map_err(|e| e.to_string()));
            if let Err(e) = res {
                next.store(usize::MAX / 2, Ordering::Relaxed);
                failed.lock().expect("not poisoned").get_or_insert(e);
            }
        }
    });
    match failed.into_inner().expect("not poisoned") {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Plays the same `plies` random moves in two positions with the same side to move (the two games
/// of a colour-swapped pair): each move is drawn uniformly from the quiet moves legal in both (no
/// capture, no promotion), so the two openings are identical move for move. Stops early when no
/// such move is left or a move would end a game. Returns the moves played.
pub fn shared_opening(a: &mut Position, b: &mut Position, plies: usize, rng: &mut ChaCha8Rng) -> Vec<Move> {
    let mut played = Vec::new();
    for _ in 0..plies {
        if a.side() != b.side() {
            break;
        }
        let in_b = b.legal_moves();
        let quiet = |p: &Position, m: &Move| {
            p.piece_at(m.to()).is_none() && m.promotion().is_none() && m.special() != crate::rules::Special::EnPassant
        };
        let common: Vec<Move> =
            a.legal_moves().into_iter().filter(|m| quiet(a, m) && quiet(b, m) && in_b.contains(m)).collect();
        if common.is_empty() {
            break;
        }
        let m = common[rng.gen_range(0..common.len())];
        let (na, nb) = (a.after(m), b.after(m));
        if !na.has_legal_move() || !nb.has_legal_move() {
            break;
        }
        *a = na;
        *b = nb;
        played.push(m);
    }
    played
}

/// The random stream of one pair: derived from the run seed, the imbalance's number and the pair's.
pub fn pair_rng(seed: u64, imbalance: usize, pair: usize) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    r.set_stream(((imbalance as u64) << 32) | pair as u64);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Kind, Ruleset, Variant};
    use crate::values::setups::Imbalance;

    #[test]
    fn openings_are_shared_and_games_finish() {
        let v = Variant::plain(Ruleset::FiveUp);
        let imb = Imbalance::exchange(Kind::Silver, Kind::Rook);
        let mut a = imb.position(v, Color::White, 0).unwrap();
        let mut b = imb.position(v, Color::Black, 0).unwrap();
        let moves = shared_opening(&mut a, &mut b, 6, &mut pair_rng(1, 2, 3));
        assert_eq!(moves.len(), 6);
        let again = {
            let (mut a2, mut b2) =
                (imb.position(v, Color::White, 0).unwrap(), imb.position(v, Color::Black, 0).unwrap());
            shared_opening(&mut a2, &mut b2, 6, &mut pair_rng(1, 2, 3))
        };
        assert_eq!(moves, again);
        let mut w = "random:seed=1".parse::<PlayerSpec>().unwrap().build().unwrap();
        let mut bl = "random:seed=2".parse::<PlayerSpec>().unwrap().build().unwrap();
        let g = play_game(w.as_mut(), bl.as_mut(), &a, 40).unwrap();
        assert!(g.moves.len() <= 40);
        if g.moves.len() == 40 {
            assert_eq!(g.outcome.rule, EndRule::Adjudication);
        }
    }

    #[test]
    fn jobs_run_in_parallel_and_report_each_game() {
        let start = Position::startpos(Variant::plain(Ruleset::Raumschach));
        let jobs: Vec<Job> = (0..5)
            .map(|id| Job {
                id,
                white: format!("random:seed={id}").parse().unwrap(),
                black: "ab:depth=1".parse().unwrap(),
                start: start.clone(),
                max_plies: 20,
            })
            .collect();
        let mut seen = Vec::new();
        play_jobs(jobs, 2, |j, g| {
            assert!(g.moves.len() <= 20);
            seen.push(j.id);
            Ok(())
        })
        .unwrap();
        seen.sort();
        assert_eq!(seen, vec![0, 1, 2, 3, 4]);
    }
}
