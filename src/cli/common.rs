//! Options and helpers shared by several subcommands: the rules and position, concurrency and
//! threads, progress bars, record writers.

use anyhow::{bail, Context, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::eval::distributed::Coordinator;
use fiveup::eval::records::RecordGame;
use fiveup::eval::{Executor, OpeningSource, OpeningStream, PlayerSource, RecordWriter};
use fiveup::player::clock::TimeControl;
use fiveup::player::spec::PlayerSpec;
use fiveup::progress::Progress;
use fiveup::rules::{Position, Ruleset, Variant};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The options every command that plays games shares: games at once, the ply cap and the seed.
/// Flattened into [`GameOptions`] (`match`, `sprt`), `tournament` (whose flags override its
/// settings file) and `values` (other defaults, see there). Each flag's default is the command's
/// ([`GameDefaults`]), applied by the accessors, so `tournament` can tell a given flag from none.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Games played at once, 1..=1024 [default: all cores].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Adjudicate a draw after this many plies, opening included, 1..=100000 [default: 400].
    #[arg(long, value_name = "P")]
    pub max_plies: Option<usize>,
    /// Seed of the random openings [default: 0].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Play the games on workers (`fiveup games worker --run URL` on any machines) through this
    /// object-store prefix (s3://BUCKET/PREFIX, gs://, az://) or shared directory: this command
    /// coordinates, writes the same outputs, and resumes when run again with the same arguments
    /// (docs/SCALING.md).
    #[arg(long, value_name = "URL")]
    pub run: Option<String>,
    /// With --run: seconds a worker's claim on a game pair lasts without renewal; a killed
    /// worker's pair is played again after it, 5..=3600 [default: 60].
    #[arg(long, value_name = "S")]
    pub claim_ttl: Option<f64>,
}

/// The defaults of [`GameArgs`] for one command.
#[derive(Clone, Copy, Debug)]
pub struct GameDefaults {
    /// Games at once (`None`: every available core).
    pub concurrency: Option<usize>,
    /// The ply cap.
    pub max_plies: usize,
    /// The seed.
    pub seed: u64,
}

impl GameDefaults {
    /// The defaults of `match`, `sprt` and `tournament` (the ones [`GameArgs`]' help names).
    pub const MATCH: GameDefaults = GameDefaults { concurrency: None, max_plies: 400, seed: 0 };
}

impl GameArgs {
    /// `--concurrency` (1..=[`MAX_THREADS`]), else the default.
    pub fn concurrency(&self, d: GameDefaults) -> Result<usize> {
        concurrency(self.concurrency.or(d.concurrency))
    }

    /// `--max-plies` (1..=[`MAX_PLIES`]), else the default.
    pub fn max_plies(&self, d: GameDefaults) -> Result<usize> {
        let p = self.max_plies.unwrap_or(d.max_plies);
        bound("--max-plies", p, 1, MAX_PLIES)?;
        Ok(p)
    }

    /// `--seed`, else the default.
    pub fn seed(&self, d: GameDefaults) -> u64 {
        self.seed.unwrap_or(d.seed)
    }

    /// Where the games are played: `--concurrency` threads here, or workers through the store of
    /// `--run` (then this process is the evaluation's coordinator for `game`, the ruleset's name,
    /// and the store has been checked). `concurrency` is the command's own value (a settings file's).
    pub fn executor(&self, game: &str, concurrency: impl FnOnce() -> Result<usize>) -> Result<Executor> {
        let Some(url) = &self.run else {
            if self.claim_ttl.is_some() {
                bail!("--claim-ttl applies only with --run");
            }
            return Ok(Executor::Threads(concurrency()?));
        };
        if self.concurrency.is_some() {
            bail!("--concurrency does not apply with --run: the workers play the games (`fiveup games worker --concurrency N`)");
        }
        let ttl = self.claim_ttl.unwrap_or(60.0);
        if !(5.0..=3600.0).contains(&ttl) {
            bail!("--claim-ttl must be 5..=3600 seconds, not {ttl}");
        }
        let location = fiveup::store::RunLocation::parse(url)?;
        let coordinator = Coordinator::open(&location, game, &command_line(), std::time::Duration::from_secs_f64(ttl))?;
        eprintln!(
            "coordinating on {}: start workers with `fiveup games worker --run {}`",
            location.display(),
            location.display()
        );
        Ok(Executor::Store(Arc::new(coordinator)))
    }
}

/// This process's arguments after the program name, as one line (what a coordinator records so
/// that a restart with other arguments is told apart), without `--force` and `--claim-ttl`.
pub fn command_line() -> String {
    // Flags that do not change the games are left out, so that a restart may add them.
    let mut args: Vec<String> = Vec::new();
    let mut skip_value = false;
    for a in std::env::args().skip(1) {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        match a.as_str() {
            "--force" => {}
            "--claim-ttl" => skip_value = true,
            _ if a.starts_with("--claim-ttl=") => {}
            _ => args.push(a),
        }
    }
    args.into_iter()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c)) {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Ends an evaluation on a store (`--run`) once its command has written everything, with
/// `reason`; nothing to do for games played here.
pub fn finish(exec: &Executor, reason: &str) -> Result<()> {
    if let Executor::Store(c) = exec {
        c.finish(reason)?;
    }
    Ok(())
}

/// Checks an `--adjudicate-material` margin (`adjudicate_material` of a tournament file).
pub fn check_material_margin(pawns: f64) -> Result<()> {
    if !(0.5..=100.0).contains(&pawns) {
        bail!("--adjudicate-material must be from 0.5 to 100 pawns, not {pawns}");
    }
    Ok(())
}

/// Options of every command that plays games between two players: concurrency, openings, records,
/// adjudication, seed, rules and start position.
#[derive(Args, Debug)]
pub struct GameOptions {
    /// Concurrency, ply cap, seed.
    #[command(flatten)]
    pub game: GameArgs,
    /// Openings: `startpos`, `random:K` (K random plies) or a file.
    #[arg(long, value_name = "SOURCE", default_value = "random:8")]
    pub openings: String,
    /// Write the game records (PGN-style) to this file as games finish (refused if it exists,
    /// unless --force; always refused when it is an input: the openings file, a weights file or
    /// a network of a player).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
    /// Time control for both players: BASE+INC in seconds (`10+0.1`), or MOVES/BASE+INC
    /// (`40/60+0`). A flag loses the game. Players' own limits still cap their moves; `ab` and
    /// `mcts` specs that name no limit play by the clock alone.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// End a game as soon as the endgame tables in this folder hold its position, with their
    /// result (`adjudication/tablebase`; 5x5x5 games; `fiveup tablebase generate` builds them).
    #[arg(long, value_name = "DIR")]
    pub adjudicate_tb: Option<PathBuf>,
    /// At the ply cap, a side ahead by at least this many pawns of material, once the captures
    /// are played out (a quiescence search on the default piece values), wins
    /// (`adjudication/material`) instead of the draw; 0.5..=100 (mixed3d, whose 256 men seldom run
    /// out before the cap).
    #[arg(long, value_name = "PAWNS")]
    pub adjudicate_material: Option<f64>,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

impl GameOptions {
    /// The adjudicator of `--adjudicate-tb` (5x5x5 games), or `None` without the flag.
    pub fn tablebase_adjudicator(&self) -> Result<Option<fiveup::eval::runner::Adjudicator<Position>>> {
        if self.adjudicate_material.is_some() {
            bail!("--adjudicate-material is for mixed3d, not for the 5x5x5 games");
        }
        let Some(dir) = &self.adjudicate_tb else { return Ok(None) };
        if self.game.run.is_some() {
            bail!("--adjudicate-tb does not apply with --run: games played on workers are not adjudicated by tables");
        }
        let tables = fiveup::tablebase::Tablebases::open_shared(dir)
            .with_context(|| format!("--adjudicate-tb {}", dir.display()))?;
        Ok(Some(fiveup::eval::runner::tablebase_adjudicator(tables)))
    }

    /// `--adjudicate-tb` given for a game without tables: an error naming the game.
    pub fn no_tablebase_for(&self, game: &str) -> Result<()> {
        if self.adjudicate_tb.is_some() {
            bail!("--adjudicate-tb: endgame tables exist for the 5x5x5 games, not for {game}");
        }
        Ok(())
    }

    /// The adjudicator of `--adjudicate-material` for game `S` (named `game`), `None` without the
    /// flag; an error for a game that has none.
    pub fn material_adjudicator<S: fiveup::eval::records::RecordGame>(
        &self,
        game: &str,
    ) -> Result<Option<fiveup::eval::runner::Adjudicator<S>>> {
        let Some(pawns) = self.adjudicate_material else { return Ok(None) };
        check_material_margin(pawns)?;
        S::material_adjudicator(pawns)
            .map(Some)
            .ok_or_else(|| anyhow::anyhow!("--adjudicate-material is for mixed3d, not for {game}"))
    }

    /// Checks `--out` against `--force` and the files the command reads (the openings file and
    /// the files named in the player specs `specs`), before any game is played.
    pub fn check_out(&self, specs: &[&str]) -> Result<()> {
        let Some(out) = &self.out else { return Ok(()) };
        let mut inputs: Vec<PathBuf> = Vec::new();
        if let Ok(OpeningSource::File(p)) = self.openings.parse::<OpeningSource>() {
            inputs.push(p);
        }
        for spec in specs {
            if let Ok(p) = spec.parse::<PlayerSpec>() {
                inputs.extend(p.files().into_iter().map(Path::to_path_buf));
            }
        }
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        Ok(fiveup::fsutil::check_output(out, &inputs, self.force)?)
    }

    /// The parsed `--tc`.
    pub fn time_control(&self) -> Result<Option<TimeControl>> {
        match &self.tc {
            Some(t) => Ok(Some(t.parse::<TimeControl>().map_err(|e| anyhow::anyhow!("--tc: {e}"))?)),
            None => Ok(None),
        }
    }

    /// The openings of colour-swapped game pairs, drawn as games need them: `--openings` from the
    /// start position.
    pub fn openings(&self, what: &str) -> Result<OpeningStream> {
        let start = self.pos.position(what)?;
        let source: OpeningSource = self.openings.parse()?;
        Ok(source.stream(&start, self.game.seed(GameDefaults::MATCH))?)
    }

    /// The openings of `--openings` for games of any game from `start` (openings files: 5x5x5
    /// only so far).
    pub fn openings_of<S: RecordGame>(&self, start: &S) -> Result<OpeningStream<S>> {
        let source: OpeningSource = self.openings.parse()?;
        Ok(source.stream_of(start, self.game.seed(GameDefaults::MATCH))?)
    }
}

/// The two players of a match from their spec strings, each built once up front so that a bad
/// weights file, a missing network or an engine that does not start fails before any game. On
/// a clock (`clocked`) a spec naming no limit gets none ([`PlayerSpec::parse_unlimited`]).
pub fn two_players<S: RecordGame>(a: &str, b: &str, clocked: bool) -> Result<(PlayerSource<S>, PlayerSource<S>)> {
    let parse = |s: &str| if clocked { PlayerSpec::parse_unlimited(s) } else { s.parse::<PlayerSpec>() };
    let a: PlayerSource<S> = parse(a)?.into();
    let b: PlayerSource<S> = parse(b)?.into();
    for p in [&a, &b] {
        let built = p.build()?;
        if !clocked && unlimited(p) {
            bail!(
                "player {}: an outside engine needs a limit: give --tc, or depth=, nodes= or movetime= in its spec",
                built.name()
            );
        }
    }
    Ok((a, b))
}

/// Whether `p` is an outside engine with no limit of its own (it would think until its timeout).
fn unlimited<S: RecordGame>(p: &PlayerSource<S>) -> bool {
    matches!(p, PlayerSource::Spec(PlayerSpec::Uci(u)) if u.depth.is_none() && u.nodes.is_none() && u.movetime.is_none())
}

/// Most threads or concurrent games any flag may ask for.
pub const MAX_THREADS: usize = 1024;

/// Most games (or twice the pairs) a command may be asked to play.
pub const MAX_GAMES: usize = 10_000_000;

/// Longest game (`--max-plies`) a command accepts.
pub const MAX_PLIES: usize = 100_000;

/// The worker count: the flag, or every available core.
pub fn concurrency(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(n) => {
            bound("--concurrency", n, 1, MAX_THREADS)?;
            Ok(n)
        }
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)),
    }
}

/// `Err` naming the flag, its value and the allowed range unless `lo <= value <= hi`.
pub fn bound<T: PartialOrd + std::fmt::Display>(flag: &str, value: T, lo: T, hi: T) -> Result<()> {
    if value < lo || value > hi {
        bail!("{flag} {value} is out of range (allowed: {lo}..={hi})");
    }
    Ok(())
}

/// Progress of `len` games called `label`: a bar on a terminal, log lines otherwise.
pub fn progress(len: usize, label: &str) -> Progress {
    let bar = Progress::new(len as u64, label, "games");
    bar.resume_at(0);
    bar
}

/// A record writer for `--out FILE`, truncating the file (`None` without the flag).
pub fn writer(out: Option<&Path>) -> Result<Option<RecordWriter>> {
    Ok(match out {
        Some(p) => Some(RecordWriter::create(p)?),
        None => None,
    })
}

/// `--ruleset`, declared once for every command that takes it. Its default is written in the help
/// and applied by [`RulesetArg::name`], so that `tournament` can tell a given flag from none (its
/// settings file may name the rule set).
#[derive(Args, Debug, Clone)]
pub struct RulesetArg {
    /// Rule set: fiveup, fiveup-2001, raumschach, quasi-alice or mixed3d (quasi-alice: perft, moves,
    /// show, replay (moves or a records file), analyse, match, sprt, tournament, values and uci so
    /// far; mixed3d: the same) [default: fiveup].
    #[arg(long = "ruleset", value_name = "NAME")]
    pub given: Option<String>,
}

impl RulesetArg {
    /// The game `--ruleset` names (the default when none is given).
    pub fn game(&self) -> Result<GameId> {
        Ok(self.name().parse::<GameId>()?)
    }

    /// The 5x5x5 ruleset, or an error saying that `what` (the command) is not available for the
    /// game named.
    pub fn five_up(&self, what: &str) -> Result<Ruleset> {
        Ok(self.game()?.five_up(what)?)
    }

    /// The rule set when no `--ruleset` is given.
    pub const DEFAULT: &'static str = "fiveup";

    /// The rule set's name as given, else [`Self::DEFAULT`] (parse it with `.parse::<Ruleset>()`).
    pub fn name(&self) -> &str {
        self.given.as_deref().unwrap_or(Self::DEFAULT)
    }
}

/// Options shared by every subcommand that works on a position: the rules and the position.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Play with the optional castling rule (Five Up on the flat board only).
    #[arg(long)]
    pub castling: bool,
    /// Play on the hypercylinder board (files a and e joined).
    #[arg(long)]
    pub hypercylinder: bool,
    /// Position text (docs/RULES.md: seven fields on 5x5x5, six for quasi-alice), or `startpos`
    /// for the ruleset's start.
    #[arg(long, value_name = "TEXT", default_value = "startpos")]
    pub position: String,
}

impl PositionArgs {
    /// The game `--ruleset` names.
    pub fn game(&self) -> Result<GameId> {
        self.ruleset.game()
    }

    /// The validated variant (ruleset and flags) of a 5x5x5 game; `what` names the command in
    /// the error when `--ruleset` names another game.
    pub fn variant(&self, what: &str) -> Result<Variant> {
        let ruleset = self.ruleset.five_up(what)?;
        Ok(Variant::new(ruleset, self.castling, self.hypercylinder)?)
    }

    /// The validated 4D Quasi-Alice position (`--castling` and `--hypercylinder` are 5x5x5 flags).
    pub fn quasi_alice(&self) -> Result<fiveup::quasi_alice::Position> {
        self.other_game(
            "quasi-alice has chess castling always",
            fiveup::quasi_alice::Position::start,
            fiveup::quasi_alice::Position::from_text,
        )
    }

    /// The validated Mixed 3D position (`--castling` and `--hypercylinder` are 5x5x5 flags).
    pub fn mixed3d(&self) -> Result<fiveup::mixed3d::Position> {
        self.other_game(
            "mixed3d has Betza's six castlings always",
            fiveup::mixed3d::Position::start,
            fiveup::mixed3d::Position::from_text,
        )
    }

    /// The position of a game off the 5x5x5 board: its start, or `--position` read by `read`;
    /// `castles` says how the game castles, for the error when a 5x5x5 flag is given.
    fn other_game<S, E: std::error::Error + Send + Sync + 'static>(
        &self,
        castles: &str,
        start: impl FnOnce() -> S,
        read: impl FnOnce(&str) -> Result<S, E>,
    ) -> Result<S> {
        if self.castling || self.hypercylinder {
            let flag = if self.castling { "--castling" } else { "--hypercylinder" };
            bail!("{flag} is a 5x5x5 flag; {castles} and no hypercylinder");
        }
        if self.is_start()? {
            return Ok(start());
        }
        read(&self.position).context("--position")
    }

    /// The validated position of a 5x5x5 game (`what` as in [`PositionArgs::variant`]).
    pub fn position(&self, what: &str) -> Result<Position> {
        let variant = self.variant(what)?;
        if self.is_start()? {
            return Ok(Position::startpos(variant));
        }
        Position::from_text(&self.position, variant).context("--position")
    }

    /// Whether `--position` is `startpos`; another spelling of it (`STARTPOS`, `start`) is an
    /// error that says the word, rather than a count of a position text's fields.
    fn is_start(&self) -> Result<bool> {
        let t = self.position.trim();
        if t == "startpos" {
            return Ok(true);
        }
        if ["startpos", "start", "startposition", "initial"].iter().any(|w| t.eq_ignore_ascii_case(w)) {
            bail!("--position {t}: the start position is written `startpos` (lower case)");
        }
        Ok(false)
    }
}

/// A subcommand that needs only a position.
#[derive(Args, Debug)]
pub struct PositionOnly {
    /// Rules and position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// `--threads`: 1..=[`MAX_THREADS`], or every available core.
pub fn threads_flag(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(n) => {
            bound("--threads", n, 1, MAX_THREADS)?;
            Ok(n)
        }
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)),
    }
}

/// Ends the process with `code` without running exit handlers. `exit` runs libtorch's static
/// destructors while the main thread may be inside a torch operation, which then fails and
/// panics (a second Ctrl-C during self-play did, one time in three). Nothing needs them: every
/// file fiveup writes is written atomically or whole, and the standard streams are flushed here.
pub(crate) fn exit_at_once(code: i32) -> ! {
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let _ = std::io::Write::flush(&mut std::io::stderr());
    #[cfg(target_os = "linux")]
    // SAFETY: `_exit` ends the process; it has no preconditions.
    unsafe {
        libc::_exit(code)
    }
    #[cfg(not(target_os = "linux"))]
    std::process::exit(code)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Command};
    use super::*;

    #[test]
    fn another_spelling_of_startpos_says_the_word() {
        for w in ["STARTPOS", "start", "Startpos"] {
            let e = pos_args(&["--position", w]).position("show").unwrap_err().to_string();
            assert_eq!(e, format!("--position {w}: the start position is written `startpos` (lower case)"));
            let e = pos_args(&["--ruleset", "quasi-alice", "--position", w]).quasi_alice().unwrap_err().to_string();
            assert!(e.contains("written `startpos`"), "{e}");
        }
    }

    fn pos_args(args: &[&str]) -> PositionArgs {
        match parse(&[&["show"], args].concat()).command {
            Command::Show(a) => a.pos,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn position_args_default_to_the_fiveup_start() {
        let p = pos_args(&[]).position("show").unwrap();
        assert_eq!(p.to_text(), Position::startpos(Variant::default()).to_text());
        let p = pos_args(&["--ruleset", "raumschach", "--position", "startpos"]).position("show").unwrap();
        assert_eq!(p.ruleset(), Ruleset::Raumschach);
    }

    #[test]
    fn position_args_reject_bad_input_with_one_line() {
        let e = pos_args(&["--ruleset", "chess"]).position("show").unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "unknown ruleset 'chess' (expected fiveup, fiveup-2001, raumschach, quasi-alice or mixed3d)"
        );
        let e = pos_args(&["--ruleset", "raumschach", "--castling"]).position("show").unwrap_err();
        assert!(format!("{e:#}").contains("castling"));
        let e = pos_args(&["--position", "5/5 w"]).position("show").unwrap_err();
        assert!(format!("{e:#}").starts_with("--position: position text has 2 fields"), "{e:#}");
    }
}
