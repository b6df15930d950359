//! `fiveup sprt`: colour-swapped pairs of A against B until the SPRT decides.

use super::common::{bound, finish, two_players, writer, GameDefaults, GameOptions, MAX_GAMES};
use anyhow::Result;
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::eval::records::RecordGame;
use fiveup::eval::runner::Adjudicator;
use fiveup::eval::{paired_jobs_lazy, Decision, GameJob, MatchTally, OpeningStream, Sprt, SprtConfig, SprtStatus};
use std::io::Write;
use std::ops::ControlFlow;

/// `fiveup sprt`.
#[derive(Args, Debug)]
pub struct SprtArgs {
    /// The tested player A.
    #[arg(long = "a", value_name = "SPEC")]
    pub a: String,
    /// The baseline B.
    #[arg(long = "b", value_name = "SPEC")]
    pub b: String,
    /// Elo of A over B under H0 (logistic Elo, -1000..=1000).
    #[arg(long, value_name = "ELO", default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo of A over B under H1 (above elo0, at most 1000).
    #[arg(long, value_name = "ELO", default_value_t = 10.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds), 1e-6..=0.5.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds), 1e-6..=0.5.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub beta: f64,
    /// Stop undecided after this many games (2..=10000000).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub max_games: usize,
    /// Concurrency, openings, records, adjudication, seed, rules.
    #[command(flatten)]
    pub opts: GameOptions,
}

/// Plays pairs until the test decides (or `--max-games`), printing the LLR after every pair;
/// the last line states the decision.
pub fn run(a: &SprtArgs, out: &mut dyn Write) -> Result<()> {
    match a.opts.pos.game()? {
        GameId::FiveUp(_) => {
            a.opts.pos.variant("sprt")?;
            let adjudicate = a.opts.tablebase_adjudicator()?;
            run_game(a, || a.opts.openings("sprt"), adjudicate, out)
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

/// The test on one game; `openings` makes the opening stream (after the cheaper checks).
fn run_game<S: RecordGame>(
    a: &SprtArgs,
    openings: impl FnOnce() -> Result<OpeningStream<S>>,
    adjudicate: Option<Adjudicator<S>>,
    out: &mut dyn Write,
) -> Result<()> {
    bound("--max-games", a.max_games, 2, MAX_GAMES)?;
    let max_plies = a.opts.game.max_plies(GameDefaults::MATCH)?;
    a.opts.check_out(&[&a.a, &a.b])?;
    let config = SprtConfig { alpha: a.alpha, beta: a.beta, ..SprtConfig::new(a.elo0, a.elo1) };
    let mut sprt = Sprt::new(config)?;
    let tc = a.opts.time_control()?;
    let (pa, pb) = two_players::<S>(&a.a, &a.b, tc.is_some())?;
    let openings = openings()?;
    let exec = a.opts.game.executor(a.opts.pos.ruleset.name(), || a.opts.game.concurrency(GameDefaults::MATCH))?;
    let (name_a, name_b) = (pa.name(), pb.name());
    let jobs = paired_jobs_lazy(pa, pb, openings, a.max_games / 2, Some(max_plies), "sprt").map(move |j| GameJob {
        tc,
        adjudicate: adjudicate.clone(),
        ..j
    });
    let mut records = writer(a.opts.out.as_deref())?;
    writeln!(
        out,
        "SPRT {} vs {}: elo0 {} elo1 {} alpha {} beta {}; LLR bounds [{:.2}, {:.2}]",
        name_a,
        name_b,
        a.elo0,
        a.elo1,
        a.alpha,
        a.beta,
        config.lower_bound(),
        config.upper_bound()
    )?;
    let mut tally = MatchTally::new();
    let mut failure: Option<anyhow::Error> = None;
    exec.play_until(jobs, |i, r| {
        if let Some(w) = records.as_mut() {
            if let Err(e) = w.write(&r) {
                failure = Some(e.into());
                return ControlFlow::Break(());
            }
        }
        let Some((first, second)) = tally.add(i % 2 == 0, &r) else { return ControlFlow::Continue(()) };
        sprt.add_pair(first, second);
        let s = sprt.status();
        let line = format!(
            "pairs {:>5}  LLR {:+.3}  [{:.2}, {:.2}]  W/D/L {} / {} / {}",
            s.pentanomial.pairs(),
            s.llr,
            s.lower,
            s.upper,
            s.trinomial.wins,
            s.trinomial.draws,
            s.trinomial.losses
        );
        if let Err(e) = writeln!(out, "{line}") {
            failure = Some(e.into());
            return ControlFlow::Break(());
        }
        if s.decision == Decision::Continue {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    let s = sprt.status();
    writeln!(out, "{s}")?;
    let undecided = format!("no decision after {} games (--max-games reached)", s.trinomial.games());
    let verdict = verdict(&s, &undecided);
    writeln!(out, "decision: {verdict}")?;
    finish(&exec, &verdict)?;
    Ok(())
}

/// The last line's verdict of an SPRT's status (`undecided` when it has not decided).
pub(super) fn verdict(s: &SprtStatus, undecided: &str) -> String {
    match s.decision {
        Decision::AcceptH1 => format!("H1 accepted: A is stronger (elo >= {})", s.config.elo1),
        Decision::AcceptH0 => format!("H0 accepted: A is not stronger (elo <= {})", s.config.elo0),
        Decision::Continue => undecided.to_string(),
    }
}
