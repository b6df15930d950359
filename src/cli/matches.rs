//! `fiveup match`: two players, colour-swapped game pairs from shared openings, a summary with
//! Elo intervals.

use super::common::{bound, finish, progress, two_players, writer, GameDefaults, GameOptions, MAX_GAMES};
use anyhow::Result;
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::eval::records::RecordGame;
use fiveup::eval::runner::Adjudicator;
use fiveup::eval::{paired_jobs_lazy, GameJob, MatchTally, OpeningStream};
use std::io::Write;

/// `fiveup match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A (white in the first game of each pair); the summary is from its side.
    #[arg(long, value_name = "SPEC")]
    pub white: String,
    /// Player B.
    #[arg(long, value_name = "SPEC")]
    pub black: String,
    /// Number of games, 1..=10000000 (pairs share an opening and swap colours).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub games: usize,
    /// Concurrency, openings, records, adjudication, seed, rules.
    #[command(flatten)]
    pub opts: GameOptions,
}

/// The summary of the games finished so far, printed by Ctrl-C.
static SO_FAR: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Ctrl-C (or SIGTERM) during a match: the summary of the games finished so far (their records
/// are in `--out` already, each written whole), then exit 130; games in progress are dropped.
fn install_interrupt(total: usize) {
    let installed = ctrlc::set_handler(move || {
        let so_far = SO_FAR.lock().ok().and_then(|g| g.clone());
        match so_far {
            Some(text) => {
                print!("{text}");
                eprintln!(
                    "\ninterrupted: the summary is of the games finished (of {total}); games in progress are dropped"
                );
            }
            None => eprintln!("\ninterrupted before any game finished"),
        }
        let _ = std::io::stdout().flush();
        super::common::exit_at_once(130);
    });
    if let Err(e) = installed {
        tracing::warn!("no Ctrl-C handler ({e}); an interrupted match prints no summary");
    }
}

/// Plays the match and prints the summary.
pub fn run(a: &MatchArgs, out: &mut dyn Write) -> Result<()> {
    match a.opts.pos.game()? {
        GameId::FiveUp(_) => {
            a.opts.pos.variant("match")?;
            let adjudicate = a.opts.tablebase_adjudicator()?;
            run_game(a, || a.opts.openings("match"), adjudicate, out)
        }
        GameId::QuasiAlice => {
            let start = a.opts.pos.quasi_alice()?;
            a.opts.no_tablebase_for("quasi-alice")?;
            let adjudicate = a.opts.material_adjudicator::<fiveup::quasi_alice::Position>("quasi-alice")?;
            run_game(a, || a.opts.openings_of(&start), adjudicate, out)
        }
        GameId::Mixed3d => {
            let start = a.opts.pos.mixed3d()?;
            a.opts.no_tablebase_for("mixed3d")?;
            let adjudicate = a.opts.material_adjudicator::<fiveup::mixed3d::Position>("mixed3d")?;
            run_game(a, || a.opts.openings_of(&start), adjudicate, out)
        }
    }
}

/// The match of one game; `openings` makes the opening stream (after the cheaper checks).
fn run_game<S: RecordGame>(
    a: &MatchArgs,
    openings: impl FnOnce() -> Result<OpeningStream<S>>,
    adjudicate: Option<Adjudicator<S>>,
    out: &mut dyn Write,
) -> Result<()> {
    bound("--games", a.games, 1, MAX_GAMES)?;
    let max_plies = a.opts.game.max_plies(GameDefaults::MATCH)?;
    a.opts.check_out(&[&a.white, &a.black])?;
    let tc = a.opts.time_control()?;
    let (white, black) = two_players::<S>(&a.white, &a.black, tc.is_some())?;
    let openings = openings()?;
    let exec = a.opts.game.executor(a.opts.pos.ruleset.name(), || a.opts.game.concurrency(GameDefaults::MATCH))?;
    let (white_name, black_name) = (white.name(), black.name());
    let pairs = a.games.div_ceil(2);
    let jobs = paired_jobs_lazy(white, black, openings, pairs, Some(max_plies), "match")
        .map(move |j| GameJob { tc, adjudicate: adjudicate.clone(), ..j })
        .take(a.games);
    let mut records = writer(a.opts.out.as_deref())?;
    let mut tally = MatchTally::new();
    let bar = progress(a.games, "match");
    let mut write_error = None;
    // The summary printed at the end, and by Ctrl-C for the games finished so far.
    let summary = |tally: &MatchTally| {
        let mut text = tally.summary(&white_name, &black_name);
        if let Some(p) = &a.opts.out {
            text += &format!("records: {} ({} games)\n", p.display(), tally.trinomial.games());
        }
        text
    };
    install_interrupt(a.games);
    exec.play(jobs, |i, r| {
        if let Some(w) = records.as_mut() {
            if let Err(e) = w.write(&r) {
                write_error.get_or_insert(e);
            }
        }
        tally.add(i % 2 == 0, &r);
        if let Ok(mut g) = SO_FAR.lock() {
            *g = Some(summary(&tally));
        }
        let t = tally.trinomial;
        bar.set_message(format!("W/D/L {} / {} / {}", t.wins, t.draws, t.losses));
        bar.inc(1);
    })?;
    bar.finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    write!(out, "{}", summary(&tally))?;
    finish(&exec, "the match is over")?;
    Ok(())
}
