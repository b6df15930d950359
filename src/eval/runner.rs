//! The one match runner: plays [`GameJob`]s on worker threads and hands each finished game back as
//! a [`TextRecord`]. `match`, `tournament` and `sprt` use it, and so can training evaluation and
//! piece-value matches (lc0: one tournament runner serves training games and evaluation).
//!
//! - Players are built **per game inside the worker thread** from a [`PlayerSource`] (a spec, or a
//!   factory closure for players a spec cannot express, e.g. in-memory weights), so a player need
//!   not be `Send` and no state leaks from one game into the next. A game's moves therefore
//!   depend only on its job: for fixed-depth, fixed-node and fixed-simulation players the results
//!   are the same for any concurrency (time-limited players are not reproducible anyway).
//! - Each game: the opening moves are played, then the players alternate until a rule of
//!   [`Game::status`] ends it, or the ply cap (counted over the whole game, opening included)
//!   adjudicates a draw (`Termination "adjudication/ply-cap"`). An [`Adjudicator`] may end a game
//!   earlier (endgame tables), or decide the one that reaches the cap by material
//!   ([`material_adjudicator`]: `adjudication/material`).
//! - Each record gets the tags `WhiteNodes`/`BlackNodes` (nodes, or simulations, the side's
//!   searches reported in total) and `WhiteSeconds`/`BlackSeconds` (its thinking time).
//! - The runner enforces the rules: a player that answers an illegal move, or forfeits
//!   ([`PlayError::Forfeit`]: an outside engine that crashed, hung or answered garbage), loses the
//!   game, recorded as `Termination "adjudication/illegal-move"` (`engine-crash`, `engine-hang`)
//!   with the details in a `Reason` tag. Other player errors (a network that fails) stop the run.
//! - With a time control ([`GameJob::tc`]) the runner keeps a [`GameClock`]: each move's wall
//!   time, measured around the player's call, comes off the mover's clock, which the player is
//!   shown ([`Go::clock`]). A flag loses (`adjudication/time-forfeit`), or draws when the other
//!   side has only its king left. The record gets `TimeControl` and `Clocks` (the mover's time
//!   left after each player move, in seconds).
//! - A job with a [`GameJob::live`] file gets it rewritten after every move (atomically visible,
//!   not synced: [`crate::fsutil::write_visible`]) and removed when the game ends: what a web
//!   page watching a tournament shows as games in progress. A file that cannot be written is
//!   logged and skipped; it never stops a game.
//! - [`play_games`] takes a list; [`play_games_until`] takes any iterator of jobs (made lazily as
//!   workers need them) and a callback that may stop the run (SPRT). Callbacks run on the calling
//!   thread, in order of completion, with the job's index.

pub use super::adjudicate::{material_adjudicator, tablebase_adjudicator, Adjudicator, Judge};
use super::openings::{Opening, OpeningStream};
use super::records::{RecordGame, TextRecord};
use crate::game::{EndRule, Game, Outcome, State, Status};
use crate::player::clock::{GameClock, TimeControl};
use crate::player::spec::PlayerSpec;
use crate::player::BuildError;
use crate::player::{Forfeit, Go, PlayError, Player, Turn};
use crate::rules::Position;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// A function that builds a fresh player of game `S` (called in the worker thread, once per game).
pub type PlayerFactory<S = Position> = Arc<dyn Fn() -> Result<Box<dyn Player<S>>, BuildError> + Send + Sync>;

/// How a worker gets a player of game `S` (by default the 5x5x5 games) for a game.
pub enum PlayerSource<S: State = Position> {
    /// Built with [`crate::player::PlayGame::build_player`]; the record names it by the spec's
    /// canonical string.
    Spec(PlayerSpec),
    /// Built by a closure; the record names it `name`.
    Factory {
        /// The name written to records.
        name: String,
        /// The builder.
        build: PlayerFactory<S>,
    },
}

impl<S: State> Clone for PlayerSource<S> {
    fn clone(&self) -> Self {
        match self {
            PlayerSource::Spec(s) => PlayerSource::Spec(s.clone()),
            PlayerSource::Factory { name, build } => PlayerSource::Factory { name: name.clone(), build: build.clone() },
        }
    }
}

impl<S: State> PlayerSource<S> {
    /// A source from a factory closure.
    pub fn factory(
        name: impl Into<String>,
        build: impl Fn() -> Result<Box<dyn Player<S>>, BuildError> + Send + Sync + 'static,
    ) -> PlayerSource<S> {
        PlayerSource::Factory { name: name.into(), build: Arc::new(build) }
    }
}

impl<S: RecordGame> PlayerSource<S> {
    /// The name records use.
    pub fn name(&self) -> String {
        match self {
            PlayerSource::Spec(s) => s.to_string(),
            PlayerSource::Factory { name, .. } => name.clone(),
        }
    }

    /// A fresh player.
    pub fn build(&self) -> Result<Box<dyn Player<S>>, BuildError> {
        match self {
            PlayerSource::Spec(s) => Ok(S::build_player(s)?),
            PlayerSource::Factory { build, .. } => build(),
        }
    }
}

impl<S: State> From<PlayerSpec> for PlayerSource<S> {
    fn from(spec: PlayerSpec) -> Self {
        PlayerSource::Spec(spec)
    }
}

impl<S: State> std::fmt::Debug for PlayerSource<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            PlayerSource::Spec(s) => s.to_string(),
            PlayerSource::Factory { name, .. } => name.clone(),
        };
        write!(f, "PlayerSource({name})")
    }
}

/// One game of `S` (by default the 5x5x5 games) to play.
#[derive(Clone, Debug)]
pub struct GameJob<S: State = Position> {
    /// The white player.
    pub white: PlayerSource<S>,
    /// The black player.
    pub black: PlayerSource<S>,
    /// Start position (its variant is the game's) and opening moves.
    pub opening: Opening<S>,
    /// Ply cap over the whole game (opening included); reaching it adjudicates a draw.
    pub max_plies: Option<usize>,
    /// The time control of both players (`None`: each plays by its own limits).
    pub tc: Option<TimeControl>,
    /// The record's `Event` tag.
    pub event: String,
    /// Extra tags copied into the record (keys, pair ids, ...).
    pub tags: Vec<(String, String)>,
    /// A file rewritten after every move with the game so far ([`live_json`]), for watchers
    /// (`fiveup serve`), and removed when the game ends; `None`: no such file.
    pub live: Option<std::path::PathBuf>,
    /// Ends the game as soon as it can tell the result (endgame tables), or decides it at the ply
    /// cap (material); `None`: played out, drawn at the cap.
    pub adjudicate: Option<Adjudicator<S>>,
}

/// Why a game could not be played.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GameRunError {
    /// A player could not be built.
    #[error("cannot build player {player}: {error}")]
    Build {
        /// The player's name.
        player: String,
        /// Why.
        error: BuildError,
    },
    /// An opening move is illegal.
    #[error("opening move {ply} ({mv}) is illegal in its position")]
    Opening {
        /// 1-based ply of the opening.
        ply: usize,
        /// The move in coordinate form.
        mv: String,
    },
    /// A player failed to move.
    #[error("player {player} failed at ply {ply}: {error}")]
    Player {
        /// The player's name.
        player: String,
        /// 1-based ply it was asked for.
        ply: usize,
        /// Why.
        error: PlayError,
    },
    /// A worker thread could not be started (too many threads for this machine).
    #[error("cannot start game worker thread {}: {error} (lower --concurrency)", started + 1)]
    Spawn {
        /// Threads started before this one failed.
        started: usize,
        /// The operating system's reason.
        error: String,
    },
    /// A worker thread panicked.
    #[error("a game worker panicked: {0}")]
    Panic(String),
    /// The game was given up before it ended: the run playing it was stopped.
    #[error("the game was abandoned: its match was stopped")]
    Abandoned,
    /// Games played on workers ([`super::distributed`]): the store failed, or a worker cannot
    /// play a job.
    #[error("{0}")]
    Store(String),
}

/// Plays one game on the current thread.
pub fn play_game<S: RecordGame>(job: &GameJob<S>) -> Result<TextRecord<S>, GameRunError> {
    play_game_observed(job, &mut |_, _| {})
}

/// Plays one game on the current thread like [`play_game`], calling `on_move(position, choice)`
/// for every move a player chooses (not the opening's), before it is played: what training data
/// generation records (the engine's move and score in each position it searched).
pub fn play_game_observed<S: RecordGame>(
    job: &GameJob<S>,
    on_move: &mut dyn FnMut(&S, &crate::player::Choice<S::Move>),
) -> Result<TextRecord<S>, GameRunError> {
    play_game_unless(job, on_move, &|| false)
}

/// [`play_game_observed`] that gives the game up before any move once `abandon()` holds, with
/// [`GameRunError::Abandoned`]: how a stopped match leaves its games in progress within a move.
pub fn play_game_unless<S: RecordGame>(
    job: &GameJob<S>,
    on_move: &mut dyn FnMut(&S, &crate::player::Choice<S::Move>),
    abandon: &dyn Fn() -> bool,
) -> Result<TextRecord<S>, GameRunError> {
    // 1. The opening.
    let mut game = Game::new(job.opening.start.clone());
    for (i, &m) in job.opening.moves.iter().enumerate() {
        let mv = game.position().move_text(m);
        game.play(m).map_err(|_| GameRunError::Opening { ply: i + 1, mv })?;
    }
    let opening_plies = game.moves().len();
    // 2. Fresh players.
    let build = |s: &PlayerSource<S>| s.build().map_err(|error| GameRunError::Build { player: s.name(), error });
    let mut white = build(&job.white)?;
    let mut black = build(&job.black)?;
    white.new_game();
    black.new_game();
    // 3. Alternate until a rule, a forfeit or the ply cap ends the game; count each side's nodes
    //    and time, and run the clocks.
    let mut nodes = [0u64; 2];
    let mut seconds = [0f64; 2];
    let mut clock = job.tc.map(GameClock::new);
    let mut clocks = Vec::new();
    let mut reason = None;
    // Removes the live file however this function returns (a player error returns early).
    struct RemoveOnDrop<'a>(Option<&'a std::path::Path>);
    impl Drop for RemoveOnDrop<'_> {
        fn drop(&mut self) {
            if let Some(p) = self.0 {
                let _ = std::fs::remove_file(p);
            }
        }
    }
    let _live = RemoveOnDrop(job.live.as_deref());
    let (outcome, detail) = loop {
        if let Some(path) = &job.live {
            let text = live_json(job, &game).to_string();
            if let Err(e) = crate::fsutil::write_visible(path, text.as_bytes()) {
                tracing::warn!("cannot write the live game file {}: {e}", path.display());
            }
        }
        if let Status::Over(o) = game.status() {
            break (o, None);
        }
        if job.max_plies.is_some_and(|cap| game.moves().len() >= cap) {
            let judged = job.adjudicate.as_ref().filter(|a| a.at_cap).and_then(|a| (a.judge)(game.position()));
            break match judged {
                Some((o, detail)) => (o, Some(detail)),
                None => (Outcome::draw(EndRule::Adjudication), Some("ply-cap".to_string())),
            };
        }
        if let Some((o, detail)) =
            job.adjudicate.as_ref().filter(|a| !a.at_cap).and_then(|a| (a.judge)(game.position()))
        {
            break (o, Some(detail));
        }
        if abandon() {
            return Err(GameRunError::Abandoned);
        }
        let mover = game.position().side();
        let white_to_move = mover == crate::game::Color::White;
        let (player, source) = if white_to_move { (&mut white, &job.white) } else { (&mut black, &job.black) };
        let ply = game.moves().len() + 1;
        let go = Go { clock: clock.as_ref().map(|c| c.clock(mover)), ..Go::default() };
        let turn = Turn {
            pos: game.position(),
            history: game.history(),
            start: &job.opening.start,
            moves: game.moves(),
            go: &go,
        };
        let started = std::time::Instant::now();
        let answer = player.play(&turn, &mut |_| {});
        let elapsed = started.elapsed();
        let mut forfeit = |game: &Game<S>, kind: Forfeit, why: String| {
            tracing::warn!("{} forfeits at ply {ply}: {kind}: {why}", source.name());
            reason = Some(why);
            (lost_by(game, mover), Some(kind.name().to_string()))
        };
        // A flag first: an answer that came too late does not count.
        if let Some(c) = clock.as_mut() {
            let left = c.remaining(mover).as_secs_f64();
            if !c.charge(mover, elapsed) {
                let why = format!("{} used {:.3} s with {left:.3} s left", source.name(), elapsed.as_secs_f64());
                break forfeit(&game, Forfeit::Time, why);
            }
        }
        let choice = match answer {
            Ok(c) => c,
            Err(PlayError::Forfeit { kind, reason }) => break forfeit(&game, kind, reason),
            Err(error) => return Err(GameRunError::Player { player: source.name(), ply, error }),
        };
        // An illegal choice is seen too, but then the game ends in a forfeit.
        on_move(game.position(), &choice);
        let played = game.position().move_text(choice.mv);
        if game.play(choice.mv).is_err() {
            let why =
                format!("{} played {}, which is not legal in {}", source.name(), played, game.position().to_text());
            break forfeit(&game, Forfeit::IllegalMove, why);
        }
        if let Some(c) = &clock {
            clocks.push(format!("{:.2}", c.remaining(mover).as_secs_f64()));
        }
        let side = usize::from(!white_to_move);
        nodes[side] += choice.info.nodes;
        seconds[side] += choice.info.time.as_secs_f64();
    };
    let mut tags = job.tags.clone();
    for (i, colour) in ["White", "Black"].iter().enumerate() {
        tags.push((format!("{colour}Nodes"), nodes[i].to_string()));
        tags.push((format!("{colour}Seconds"), format!("{:.3}", seconds[i])));
    }
    if let Some(tc) = job.tc {
        tags.push(("TimeControl".into(), tc.to_string()));
        tags.push(("Clocks".into(), clocks.join(" ")));
    }
    if let Some(r) = reason {
        tags.push(("Reason".into(), crate::player::text::clip_words(&r)));
    }
    Ok(TextRecord {
        event: job.event.clone(),
        white: job.white.name(),
        black: job.black.name(),
        start: job.opening.start.clone(),
        moves: game.moves().to_vec(),
        opening_plies,
        outcome: Some(outcome),
        detail,
        tags,
    })
}

/// A game in progress as its [`GameJob::live`] file holds it: `{"event", "white", "black",
/// "ruleset", "castling", "hypercylinder", "start" (position text), "moves" (coordinate form),
/// "tags"}`.
pub fn live_json<S: RecordGame>(job: &GameJob<S>, game: &Game<S>) -> serde_json::Value {
    let (ruleset, flags) = S::tags(&job.opening.start);
    let flags: Vec<&str> = flags.split(',').collect();
    let mut pos = job.opening.start.clone();
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|&m| {
            let t = pos.move_text(m);
            pos.make(m);
            t
        })
        .collect();
    serde_json::json!({
        "event": job.event,
        "white": job.white.name(),
        "black": job.black.name(),
        "ruleset": ruleset,
        "castling": flags.contains(&"castling"),
        "hypercylinder": flags.contains(&"hypercylinder"),
        "start": job.opening.start.to_text(),
        "moves": moves,
        "tags": job.tags,
    })
}

/// The outcome when `loser` forfeits: the other side wins, or it is a draw when the other side
/// has only its king left and no reserve piece to place (it could never mate; as a FIDE arbiter
/// rules a flag against a bare king).
pub fn lost_by<S: RecordGame>(game: &Game<S>, loser: crate::game::Color) -> Outcome {
    let winner = loser.flip();
    if S::lone_king(game.position(), winner) {
        Outcome::draw(EndRule::Adjudication)
    } else {
        Outcome::win(winner, EndRule::Adjudication)
    }
}

/// Plays every job on `concurrency` threads and calls `on_finished(job index, record)` on this
/// thread as each game ends. Stops at the first error (games in progress are given up at their next move, unreported).
pub fn play_games<S: RecordGame, I>(
    jobs: I,
    concurrency: usize,
    mut on_finished: impl FnMut(usize, TextRecord<S>),
) -> Result<(), GameRunError>
where
    I: IntoIterator<Item = GameJob<S>>,
    I::IntoIter: Send,
{
    play_games_until(jobs, concurrency, |i, r| {
        on_finished(i, r);
        ControlFlow::Continue(())
    })
}

/// Plays jobs drawn lazily from `jobs` on `concurrency` threads (at least 1) and calls
/// `on_finished(job index, record)` on this thread as each game ends; when it returns
/// [`ControlFlow::Break`], no new game starts and games in progress are given up at their next
/// move, unreported ([`play_game_unless`]). Stops the same way at the first error, which it
/// returns.
pub fn play_games_until<S: RecordGame, I>(
    jobs: I,
    concurrency: usize,
    mut on_finished: impl FnMut(usize, TextRecord<S>) -> ControlFlow<()>,
) -> Result<(), GameRunError>
where
    I: IntoIterator<Item = GameJob<S>>,
    I::IntoIter: Send,
{
    let queue = Mutex::new(jobs.into_iter().enumerate());
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<TextRecord<S>, GameRunError>)>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for w in 0..concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            let spawned = std::thread::Builder::new().name(format!("game-{w}")).spawn_scoped(scope, move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some((index, job)) = next else { break };
                // A stopped run (a Break, an error) gives its games in progress up at their next move.
                let played = play_game_unless(&job, &mut |_, _| {}, &|| stop.load(Ordering::Relaxed));
                if tx.send((index, played)).is_err() {
                    break;
                }
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    // No thread to spare: the workers already started stop after their game.
                    stop.store(true, Ordering::Relaxed);
                    first_error = Some(GameRunError::Spawn { started: w, error: e.to_string() });
                    break;
                }
            }
        }
        drop(tx);
        for (index, result) in rx {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            match result {
                Ok(record) => {
                    if on_finished(index, record).is_break() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error = Some(e);
                }
            }
        }
        for h in handles {
            if let Err(p) = h.join() {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                first_error.get_or_insert(GameRunError::Panic(msg));
            }
        }
    });
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Colour-swapped pairs of jobs: for each opening, `a` as white then `b` as white, the two games
/// tagged with the same `Pair` id (`first_pair + opening index`). `a` and `b` are any sources.
pub fn paired_jobs<S: State + Clone>(
    a: &PlayerSource<S>,
    b: &PlayerSource<S>,
    openings: &[Opening<S>],
    first_pair: u64,
    max_plies: Option<usize>,
    event: &str,
) -> Vec<GameJob<S>> {
    let mut jobs = Vec::with_capacity(2 * openings.len());
    for (i, o) in openings.iter().enumerate() {
        let pair = first_pair + i as u64;
        for (white, black) in [(a, b), (b, a)] {
            jobs.push(GameJob {
                live: None,
                adjudicate: None,
                tc: None,
                white: white.clone(),
                black: black.clone(),
                opening: o.clone(),
                max_plies,
                event: event.to_string(),
                tags: vec![("Pair".to_string(), pair.to_string())],
            });
        }
    }
    jobs
}

/// [`paired_jobs`] drawn lazily: `pairs` colour-swapped pairs of `a` against `b` on the openings
/// of `openings`, pair `k` tagged `first_pair + k`. Nothing is built before a game needs it, so
/// a huge count costs no memory up front.
pub fn paired_jobs_lazy<S: RecordGame>(
    a: PlayerSource<S>,
    b: PlayerSource<S>,
    openings: OpeningStream<S>,
    pairs: usize,
    max_plies: Option<usize>,
    event: &str,
) -> impl Iterator<Item = GameJob<S>> + Send {
    let event = event.to_string();
    (0..pairs).flat_map(move |k| {
        let opening = openings.get(k);
        [(a.clone(), b.clone()), (b.clone(), a.clone())].map(|(white, black)| GameJob {
            live: None,
            adjudicate: None,
            tc: None,
            white,
            black,
            opening: opening.clone(),
            max_plies,
            event: event.clone(),
            tags: vec![("Pair".to_string(), k.to_string())],
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::openings::OpeningSource;
    use crate::rules::{Position, Variant};

    fn src(s: &str) -> PlayerSource {
        s.parse::<PlayerSpec>().unwrap().into()
    }

    #[test]
    fn results_do_not_depend_on_concurrency() {
        let start = Position::startpos(Variant::default());
        let openings = OpeningSource::Random { plies: 4 }.openings(&start, 3, 9).unwrap();
        let jobs = paired_jobs(&src("ab:depth=1"), &src("random:seed=2"), &openings, 0, Some(40), "test");
        let run = |threads| {
            let mut out = vec![String::new(); jobs.len()];
            // Everything but the thinking times is reproducible.
            let text =
                |r: TextRecord| r.to_text().lines().filter(|l| !l.contains("Seconds")).collect::<Vec<_>>().join("\n");
            play_games(jobs.clone(), threads, |i, r| out[i] = text(r)).unwrap();
            out
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert!(one.iter().all(|t| t.contains("[Pair \"")));
        // The alpha-beta side searched; the random mover reports no nodes.
        assert!(one[0].contains("[BlackNodes \"0\"]") && !one[0].contains("[WhiteNodes \"0\"]"), "{}", one[0]);
        let recs: Vec<_> = one.iter().map(|t| crate::eval::records::parse_records(t).unwrap().remove(0)).collect();
        assert!(recs.iter().all(|r| r.moves.len() <= 40 && r.opening_plies == 4));
        assert_eq!(recs[0].white, recs[1].black);
        assert_eq!(recs[0].moves[..4], recs[1].moves[..4]);
    }

    #[test]
    fn ply_cap_adjudicates_and_break_stops_the_run() {
        let start = Position::startpos(Variant::default());
        let o = Opening { start, moves: vec![] };
        let job = GameJob {
            live: None,
            adjudicate: None,
            tc: None,
            white: src("random:seed=1"),
            black: src("random:seed=2"),
            opening: o,
            max_plies: Some(6),
            event: "cap".into(),
            tags: vec![],
        };
        let r = play_game(&job).unwrap();
        assert_eq!(r.moves.len(), 6);
        assert_eq!(r.termination(), "adjudication/ply-cap");
        let mut seen = 0;
        let endless = std::iter::repeat(job);
        play_games_until(endless, 2, |_, _| {
            seen += 1;
            if seen == 5 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(seen, 5);
    }

    #[test]
    fn a_stopped_run_gives_up_its_games_in_progress_at_their_next_move() {
        // A slow mover: a random move after 50 ms. Game 0 ends at once; game 1, up to 400 plies
        // of it, would take up to 20 s.
        struct Slow(crate::player::random::RandomPlayer);
        impl Player for Slow {
            fn name(&self) -> String {
                "slow".into()
            }
            fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<crate::player::Choice, PlayError> {
                std::thread::sleep(std::time::Duration::from_millis(50));
                self.0.choose(pos, history)
            }
        }
        let slow = |seed: u64| {
            PlayerSource::factory("slow", move || Ok(Box::new(Slow(crate::player::random::RandomPlayer::new(seed)))))
        };
        let quick = GameJob {
            live: None,
            adjudicate: None,
            tc: None,
            white: src("random:seed=1"),
            black: src("random:seed=2"),
            opening: Opening::startpos(Variant::default()),
            max_plies: Some(2),
            event: "quick".into(),
            tags: vec![],
        };
        let long = GameJob { white: slow(1), black: slow(2), max_plies: Some(400), ..quick.clone() };
        // The same game unhurried is long enough to tell (its length is fixed by the seeds).
        let plies = play_game(&GameJob { white: src("random:seed=1"), black: src("random:seed=2"), ..long.clone() })
            .unwrap()
            .moves
            .len();
        assert!(plies > 100, "{plies} plies");
        let t0 = std::time::Instant::now();
        let mut seen = Vec::new();
        play_games_until([quick, long.clone()], 2, |i, _| {
            seen.push(i);
            ControlFlow::Break(())
        })
        .unwrap();
        assert_eq!(seen, [0]);
        assert!(t0.elapsed() < std::time::Duration::from_secs(3), "the long game ran on: {:?}", t0.elapsed());
        // On its own it is given up before its first move.
        let e = play_game_unless(&long, &mut |_, _| {}, &|| true).unwrap_err();
        assert!(matches!(e, GameRunError::Abandoned), "{e}");
    }

    #[test]
    fn a_live_file_follows_the_game_and_is_removed_at_its_end() {
        let t = tempfile::tempdir().unwrap();
        let live = t.path().join("game-0.json");
        let job = GameJob {
            live: Some(live.clone()),
            adjudicate: None,
            tc: None,
            white: src("random:seed=3"),
            black: src("random:seed=4"),
            opening: Opening::startpos(Variant::default()),
            max_plies: Some(8),
            event: "live".into(),
            tags: vec![("Pair".into(), "0".into())],
        };
        let mut seen = Vec::new();
        let r = play_game_observed(&job, &mut |pos, _| {
            // Before each move, the file holds the game up to the position being searched.
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&live).unwrap()).unwrap();
            let moves = v["moves"].as_array().unwrap().len();
            assert_eq!(v["white"], "random:seed=3");
            let mut game = Game::new(Position::from_text(v["start"].as_str().unwrap(), Variant::default()).unwrap());
            for m in v["moves"].as_array().unwrap() {
                game.play_line(m.as_str().unwrap()).unwrap();
            }
            assert_eq!(game.position().hash(), pos.hash());
            seen.push(moves);
        })
        .unwrap();
        assert_eq!(seen, (0..r.moves.len()).collect::<Vec<_>>());
        assert!(!live.exists(), "removed when the game ended");
        // A game that stops on a player's error (after the file was written) leaves none either.
        struct Failing;
        impl Player for Failing {
            fn name(&self) -> String {
                "failing".into()
            }
            fn choose(&mut self, _: &Position, _: &[u64]) -> Result<crate::player::Choice, PlayError> {
                Err(PlayError::NoLegalMove)
            }
        }
        let broken = GameJob { black: PlayerSource::factory("failing", || Ok(Box::new(Failing))), ..job };
        let mut moves = 0;
        let e = play_game_observed(&broken, &mut |_, _| {
            moves += 1;
            assert!(live.exists());
        });
        assert!(matches!(e, Err(GameRunError::Player { ply: 2, .. })) && moves == 1);
        assert!(!live.exists(), "removed after an error");
    }

    #[test]
    fn build_errors_stop_the_run_with_one_line() {
        let job = GameJob {
            live: None,
            adjudicate: None,
            tc: None,
            white: src("mcts:net=missing.pt"),
            black: src("random"),
            opening: Opening::startpos(Variant::default()),
            max_plies: None,
            event: "x".into(),
            tags: vec![],
        };
        let e = play_games(vec![job], 1, |_, _| {}).unwrap_err().to_string();
        assert!(e.starts_with("cannot build player mcts:net=missing.pt") && !e.contains('\n'), "{e}");
    }

    // The engine's endgame conversion, played out as whole games by the game runner.

    /// Plays each of `texts` (position texts of `ruleset`, white to move) with `spec` on both
    /// sides, at most 100 plies, and asserts that white wins every game (the mop-up tests).
    fn assert_white_converts(spec: &str, ruleset: crate::rules::Ruleset, texts: &[&str]) {
        let spec: crate::player::spec::PlayerSpec = spec.parse().unwrap();
        for text in texts {
            let start = Position::from_text(text, Variant::plain(ruleset)).unwrap();
            let job = GameJob {
                live: None,
                adjudicate: None,
                tc: None,
                white: spec.clone().into(),
                black: spec.clone().into(),
                opening: Opening { start, moves: Vec::new() },
                max_plies: Some(100),
                event: "mop-up".into(),
                tags: Vec::new(),
            };
            let record = play_game(&job).unwrap();
            let outcome = record.outcome.unwrap();
            assert_eq!(
                outcome.winner,
                Some(crate::game::Color::White),
                "{text}: {outcome:?} after {} plies",
                record.moves.len()
            );
        }
    }

    #[test]
    fn the_network_engine_converts_queen_endgames_it_drew_without_mop_up() {
        // Five Up K+Q against K (`examples/endgames.rs fiveup Q - 20 100`, lines 1 and 2):
        // `ab:nodes=5000,eval=nnue` (the shipped network) on both sides drew each by the
        // fifty-move rule when the network's score was used alone, and mates in 17 plies with
        // the hand evaluation's king chase added (`docs/NNUE.md`, the conversion measurement).
        assert_white_converts(
            "ab:nodes=5000,eval=nnue",
            crate::rules::Ruleset::FiveUp,
            &[
                "5/5/5/5/5|5/Q4/5/5/5|5/4K/5/5/5|5/5/1k3/5/5|5/5/5/5/5 w - - - 0 1",
                "5/5/5/5/5|5/5/4K/k4/5|3Q1/5/5/5/5|5/5/5/5/5|5/5/5/5/5 w - - - 0 1",
            ],
        );
    }

    #[test]
    fn mop_up_converts_queen_endgames_that_the_plain_evaluation_drew() {
        // Five Up K+Q against K (`examples/endgames.rs fiveup Q - 20 100`, lines 9, 10 and 15):
        // `ab:nodes=5000` on both sides drew each by the fifty-move rule without mop-up and mates
        // with it (docs/ENGINE.md, the conversion measurement).
        assert_white_converts(
            "ab:nodes=5000",
            crate::rules::Ruleset::FiveUp,
            &[
                "5/5/5/3K1/5|5/3k1/5/5/5|1Q3/5/5/5/5|5/5/5/5/5|5/5/5/5/5 w - - - 0 1",
                "5/4k/5/5/5|5/1Q3/5/5/5|5/K4/5/5/5|5/5/5/5/5|5/5/5/5/5 w - - - 0 1",
                "5/5/5/5/5|1K3/5/5/5/5|5/5/5/5/5|5/5/5/k4/5|Q4/5/5/5/5 w - - - 0 1",
            ],
        );
    }
}
