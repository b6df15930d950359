//! `fiveup tournament`: round robin or gauntlet, resumable from its output directory, rated at
//! the end.

use super::common::{progress, GameArgs, GameDefaults, RulesetArg};
use anyhow::{bail, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::eval::records::RecordGame;
use fiveup::eval::tournament::{effort_text, report_text, Plan, Tournament, TournamentConfig, GAMES_FILE};
use fiveup::eval::Executor;
use fiveup::player::PlayGame;
use std::io::Write;
use std::path::PathBuf;

/// `fiveup tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Player specs (two or more).
    #[arg(long, value_name = "SPEC", num_args = 1..)]
    pub players: Vec<String>,
    /// Settings file (TOML: players, games, concurrency, openings, out, gauntlet, max_plies, seed,
    /// ruleset, castling, hypercylinder, tc, adjudicate_material); flags given as well override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Games per pairing, rounded up to colour-swapped pairs; at most 100000 in the whole
    /// tournament [default: 2].
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Concurrency, ply cap, seed.
    #[command(flatten)]
    pub game: GameArgs,
    /// Openings: `startpos`, `random:K` or a file [default: random:8].
    #[arg(long, value_name = "SOURCE")]
    pub openings: Option<String>,
    /// Output directory (records, settings, ratings); a re-run resumes it [default: tournament].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The first player plays every other; the others do not meet.
    #[arg(long)]
    pub gauntlet: bool,
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Optional castling rule.
    #[arg(long)]
    pub castling: bool,
    /// Hypercylinder board.
    #[arg(long)]
    pub hypercylinder: bool,
    /// Time control for every game: BASE+INC in seconds (`10+0.1`) or MOVES/BASE+INC.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// At the ply cap, a side ahead by at least this many pawns of material (after a quiescence
    /// search on the default piece values) wins instead of the draw; 0.5..=100 (mixed3d).
    #[arg(long, value_name = "PAWNS")]
    pub adjudicate_material: Option<f64>,
}

impl TournamentArgs {
    /// The settings: the file (if any) with the flags given on top.
    pub fn config(&self) -> Result<TournamentConfig> {
        let mut c = match &self.config {
            Some(p) => TournamentConfig::from_file(p)?,
            None => {
                if self.players.is_empty() {
                    bail!("give --players SPEC SPEC ... or --config FILE");
                }
                TournamentConfig::with_players(Vec::new())
            }
        };
        if !self.players.is_empty() {
            c.players = self.players.clone();
        }
        if let Some(g) = self.games {
            c.games = g;
        }
        if let Some(t) = &self.tc {
            c.tc = Some(t.clone());
        }
        c.concurrency = match (self.game.concurrency, self.config.is_some()) {
            (None, true) => c.concurrency,
            _ => self.game.concurrency(GameDefaults::MATCH)?,
        };
        if let Some(o) = &self.openings {
            c.openings = o.clone();
        }
        if let Some(o) = &self.out {
            c.out = o.clone();
        }
        c.gauntlet |= self.gauntlet;
        if let Some(p) = self.game.max_plies {
            c.max_plies = p;
        }
        if let Some(s) = self.game.seed {
            c.seed = s;
        }
        if let Some(r) = &self.ruleset.given {
            self.ruleset.game()?;
            c.ruleset = r.clone();
        }
        c.castling |= self.castling;
        c.hypercylinder |= self.hypercylinder;
        if self.adjudicate_material.is_some() {
            c.adjudicate_material = self.adjudicate_material;
        }
        if let Some(p) = c.adjudicate_material {
            super::common::check_material_margin(p)?;
        }
        Ok(c)
    }
}

/// Plays what is left of the tournament and prints the ratings.
pub fn run(a: &TournamentArgs, out: &mut dyn Write) -> Result<()> {
    let t = Tournament::new(a.config()?)?;
    if t.config.adjudicate_material.is_some() && t.game != GameId::Mixed3d {
        bail!("--adjudicate-material is for mixed3d, not for {}", t.game);
    }
    match t.game {
        GameId::FiveUp(_) => {
            for p in &t.players {
                p.build()?;
            }
            let exec = a.game.executor(&t.config.ruleset, || Ok(t.config.concurrency))?;
            play(&t, t.plan()?, &exec, out)
        }
        GameId::QuasiAlice => {
            for p in &t.players {
                <fiveup::quasi_alice::Position as PlayGame>::build_player(p)?;
            }
            let exec = a.game.executor(&t.config.ruleset, || Ok(t.config.concurrency))?;
            play(&t, t.plan_from(&fiveup::quasi_alice::Position::start())?, &exec, out)
        }
        GameId::Mixed3d => {
            for p in &t.players {
                <fiveup::mixed3d::Position as PlayGame>::build_player(p)?;
            }
            let exec = a.game.executor(&t.config.ruleset, || Ok(t.config.concurrency))?;
            play(&t, t.plan_from(&fiveup::mixed3d::Position::start())?, &exec, out)
        }
    }
}

/// Plays `plan` and prints the ratings.
fn play<S: RecordGame>(t: &Tournament, plan: Plan<S>, exec: &Executor, out: &mut dyn Write) -> Result<()> {
    let dir = t.config.out.display().to_string();
    writeln!(
        out,
        "{} players, {} pairings, {} games: {} already in {dir}/{GAMES_FILE}, {} to play",
        t.players.len(),
        t.pairings().len(),
        plan.total,
        plan.total - plan.todo.len(),
        plan.todo.len()
    )?;
    let bar = progress(plan.todo.len(), "tournament");
    let records = t.run_on(plan, exec, |_| bar.inc(1))?;
    bar.finish();
    let (report, note) = t.rate_and_save(&records)?;
    write!(out, "{}{}", report_text(&report), effort_text(&t.names, &records))?;
    writeln!(out, "ratings: {dir}/ratings.json, {dir}/ratings.txt")?;
    match note {
        None => writeln!(out, "plot: {dir}/ratings.png")?,
        Some(n) => writeln!(out, "plot skipped: {n}")?,
    }
    super::common::finish(exec, "the tournament is over")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn args(v: &[&str]) -> TournamentArgs {
        match Cli::try_parse_from([&["fiveup", "tournament"], v].concat()).unwrap().command {
            Command::Tournament(a) => a,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn flags_fill_defaults_and_override_a_config_file() {
        let c =
            args(&["--players", "ab", "random", "--games", "6", "--concurrency", "3", "--gauntlet"]).config().unwrap();
        assert_eq!((c.players.len(), c.games, c.concurrency, c.gauntlet), (2, 6, 3, true));
        assert_eq!((c.openings.as_str(), c.max_plies, c.out.to_str()), ("random:8", 400, Some("tournament")));
        let dir = std::env::temp_dir().join(format!("fiveup-cli-tournament-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("t.toml");
        std::fs::write(&file, "players = [\"ab\", \"random\"]\ngames = 8\nconcurrency = 2\nseed = 4\n").unwrap();
        let c = args(&["--config", file.to_str().unwrap(), "--seed", "9"]).config().unwrap();
        assert_eq!((c.games, c.concurrency, c.seed), (8, 2, 9));
        assert!(args(&[]).config().unwrap_err().to_string().contains("--players"));
        std::fs::write(&file, "players = [\"ab\"]\nround = 1\n").unwrap();
        let e = args(&["--config", file.to_str().unwrap()]).config().unwrap_err().to_string();
        assert!(e.contains("unknown field `round`"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn example_config_is_valid() {
        let text = include_str!("../../configs/tournament.toml");
        Tournament::from_toml(text).unwrap();
    }
}
