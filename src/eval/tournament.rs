//! Round-robin and gauntlet tournaments, resumable from their output directory, and ratings from
//! game records.
//!
//! - Every pairing plays the same opening set: opening `k` is played twice, colours swapped, and
//!   both games carry `[Pair "k"]`. A game's key is (White, Black, Pair).
//! - Output directory: `tournament.toml` (the effective settings), `games.pgn` (records appended
//!   as games finish), and after the run `ratings.json`, `ratings.txt`, `ratings.png`.
//! - While it runs, `live/game-N.json` holds each game in progress ([`super::runner::live_json`]),
//!   for `fiveup serve` to show.
//! - Resuming: a re-run on the same directory reads `games.pgn`, drops a record cut short by a
//!   kill, skips every game whose key is already there and plays the rest. Players may be added
//!   between runs, and `games` raised (opening `k` depends only on the seed and `k`); the opening
//!   settings (source, seed, rule set, ply cap, time control) must not change, and a run that
//!   tries is refused naming the setting. The folder is claimed by `tournament.toml`
//!   ([`crate::fsutil::claim_dir`]): a non-empty folder without it is someone else's and refused.

use super::model::RatedGame;
use super::openings::{Opening, OpeningError, OpeningSource};
use super::ratings::{rate, FitConfig, RatingError, RatingReport};
use super::records::{read_records_resuming_of, RecordFileError, RecordGame, RecordWriter, TextRecord};
use super::runner::{GameJob, GameRunError, PlayerSource};
use super::tally::Effort;
use crate::catalog::GameId;
use crate::fsutil::{Claim, ClaimError};
use crate::game::State;
use crate::player::clock::TimeControl;
use crate::player::spec::{PlayerSpec, SpecError};
use crate::rules::{Position, Ruleset, Variant};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Tournament settings as written in a TOML file (`--config`) or gathered from flags.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// Player specs (at least two; in a gauntlet the first plays all others).
    pub players: Vec<String>,
    /// Games per pairing (rounded up to an even number: colour-swapped pairs).
    #[serde(default = "default_games")]
    pub games: usize,
    /// Worker threads.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Opening source: `startpos`, `random:K` or a file.
    #[serde(default = "default_openings")]
    pub openings: String,
    /// Output directory.
    #[serde(default = "default_out")]
    pub out: PathBuf,
    /// The first player against each other player only.
    #[serde(default)]
    pub gauntlet: bool,
    /// Ply cap per game (a draw by adjudication when reached).
    #[serde(default = "default_max_plies")]
    pub max_plies: usize,
    /// Seed of the random openings.
    #[serde(default)]
    pub seed: u64,
    /// Rule set.
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    /// Optional castling rule.
    #[serde(default)]
    pub castling: bool,
    /// Hypercylinder board.
    #[serde(default)]
    pub hypercylinder: bool,
    /// Time control of every game (`10+0.1`, `40/60+0`); players naming no limit of their own
    /// then play by the clock alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    /// A game reaching the ply cap is won by a side this many pawns of material ahead instead of
    /// drawn (games that have a material judge: Mixed 3D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicate_material: Option<f64>,
}

impl crate::tomlcfg::TomlConfig for TournamentConfig {
    // The checks need the players built: [`Tournament::new`] makes them.
}

impl TournamentConfig {
    /// Reads a settings file (unknown keys rejected; errors name the file, line and key).
    pub fn from_file(path: &Path) -> Result<TournamentConfig, crate::tomlcfg::ConfigError> {
        crate::tomlcfg::load_file(path, &[])
    }

    /// Parses settings from TOML text; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<TournamentConfig, crate::tomlcfg::ConfigError> {
        crate::tomlcfg::load_str(text, origin, &[])
    }

    /// The default settings for these players (what a file naming only `players` holds).
    pub fn with_players(players: Vec<String>) -> TournamentConfig {
        TournamentConfig {
            players,
            games: default_games(),
            concurrency: default_concurrency(),
            openings: default_openings(),
            out: default_out(),
            gauntlet: false,
            max_plies: default_max_plies(),
            seed: 0,
            ruleset: default_ruleset(),
            castling: false,
            hypercylinder: false,
            tc: None,
            adjudicate_material: None,
        }
    }
}

fn default_games() -> usize {
    2
}
fn default_concurrency() -> usize {
    1
}
fn default_openings() -> String {
    "random:8".into()
}
fn default_out() -> PathBuf {
    PathBuf::from("tournament")
}
fn default_max_plies() -> usize {
    400
}
fn default_ruleset() -> String {
    "fiveup".into()
}

/// Why a tournament could not be set up, run or rated.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// A setting is out of range or inconsistent.
    #[error("{0}")]
    Config(String),
    /// The settings could not be read or parsed.
    #[error(transparent)]
    File(#[from] crate::tomlcfg::ConfigError),
    /// A player spec is malformed.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The openings could not be made.
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// The records file could not be read or written.
    #[error(transparent)]
    Records(#[from] RecordFileError),
    /// A game could not be played.
    #[error(transparent)]
    Run(#[from] GameRunError),
    /// The ratings could not be fitted.
    #[error(transparent)]
    Rating(#[from] RatingError),
    /// A file of the output directory could not be written.
    #[error("{0}: {1}")]
    Io(PathBuf, String),
    /// The output folder holds a tournament of other opening settings, or someone else's files.
    #[error(transparent)]
    Claim(#[from] ClaimError),
}

/// A validated tournament.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// The settings it was made from.
    pub config: TournamentConfig,
    /// Parsed players, in config order.
    pub players: Vec<PlayerSpec>,
    /// Player names (canonical spec strings), as in records.
    pub names: Vec<String>,
    /// Opening source.
    pub openings: OpeningSource,
    /// The game of every game played.
    pub game: GameId,
    /// Variant of every game (of a 5x5x5 game; the plain Five Up board for other games).
    pub variant: Variant,
    /// Time control of every game.
    pub tc: Option<TimeControl>,
}

/// What is left to do: records already in the directory and the games still to play.
pub struct Plan<S: State = Position> {
    /// Records of finished games already in `games.pgn`.
    pub done: Vec<TextRecord<S>>,
    /// Games to play, in schedule order.
    pub todo: Vec<GameJob<S>>,
    /// Games in the whole schedule.
    pub total: usize,
}

/// Most players in one tournament.
pub const MAX_PLAYERS: usize = 1000;

/// Most games in one tournament (every pairing's games together): the schedule and its openings
/// are built whole before the first game (a resumed run filters it), which takes about a second
/// and tens of MB at this size.
pub const MAX_TOURNAMENT_GAMES: usize = 100_000;

/// The file names inside the output directory.
pub const CONFIG_FILE: &str = "tournament.toml";
/// Records file.
pub const GAMES_FILE: &str = "games.pgn";
/// Subdirectory of a tournament's output with one file per game in progress
/// ([`super::runner::GameJob::live`]); emptied when a run starts.
pub const LIVE_DIR: &str = "live";

impl Tournament {
    /// Validates settings.
    pub fn new(config: TournamentConfig) -> Result<Tournament, TournamentError> {
        let bad = |m: String| Err(TournamentError::Config(m));
        if config.players.len() < 2 {
            return bad(format!("a tournament needs at least two players, got {}", config.players.len()));
        }
        if config.games == 0 || config.games > MAX_TOURNAMENT_GAMES {
            return bad(format!("games must be 1..={MAX_TOURNAMENT_GAMES} per pairing, got {}", config.games));
        }
        if config.concurrency == 0 || config.concurrency > 1024 {
            return bad(format!("concurrency must be 1..=1024, got {}", config.concurrency));
        }
        if config.max_plies == 0 || config.max_plies > 100_000 {
            return bad(format!("max_plies must be 1..=100000, got {}", config.max_plies));
        }
        if config.players.len() > MAX_PLAYERS {
            return bad(format!("a tournament takes at most {MAX_PLAYERS} players, got {}", config.players.len()));
        }
        let tc = match &config.tc {
            Some(t) => Some(t.parse::<TimeControl>().map_err(|e| TournamentError::Config(e.to_string()))?),
            None => None,
        };
        let parse = |s: &String| if tc.is_some() { PlayerSpec::parse_unlimited(s) } else { s.parse::<PlayerSpec>() };
        let players = config.players.iter().map(parse).collect::<Result<Vec<_>, _>>()?;
        let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
        let mut seen = HashSet::new();
        for n in &names {
            if !seen.insert(n) {
                return bad(format!("player {n} is listed twice"));
            }
        }
        let openings: OpeningSource = config.openings.parse()?;
        let game: GameId = config.ruleset.trim().parse().map_err(|e| TournamentError::Config(format!("{e}")))?;
        let ruleset = match game {
            GameId::FiveUp(r) => r,
            _ if config.castling || config.hypercylinder => {
                return bad(format!("castling and hypercylinder are 5x5x5 rules; {game} has neither setting"))
            }
            _ => Ruleset::FiveUp,
        };
        let variant = Variant::new(ruleset, config.castling, config.hypercylinder)
            .map_err(|e| TournamentError::Config(e.to_string()))?;
        let t = Tournament { config, players, names, openings, game, variant, tc };
        // The schedule is built whole (resuming filters it), so its size is bounded.
        let total = t.pairings().len().saturating_mul(2 * t.pairs_per_pairing());
        if total > MAX_TOURNAMENT_GAMES {
            return bad(format!(
                "{} pairings of {} games are {total} games; a tournament plays at most {MAX_TOURNAMENT_GAMES}",
                t.pairings().len(),
                2 * t.pairs_per_pairing()
            ));
        }
        Ok(t)
    }

    /// Reads settings from TOML text (unknown keys rejected).
    pub fn from_toml(text: &str) -> Result<Tournament, TournamentError> {
        Tournament::new(TournamentConfig::from_toml(text, "tournament config")?)
    }

    /// Pairs (colour-swapped game pairs) per pairing.
    pub fn pairs_per_pairing(&self) -> usize {
        self.config.games.div_ceil(2)
    }

    /// The pairings `(i, j)` of player indices, `i < j`.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.players.len();
        if self.config.gauntlet {
            (1..n).map(|j| (0, j)).collect()
        } else {
            (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
        }
    }

    /// The whole schedule of a 5x5x5 tournament (openings from any source, files included): for
    /// each pairing and opening `k`, player `i` white then player `j` white, each game tagged
    /// `[Pair "k"]`.
    pub fn schedule(&self) -> Result<Vec<GameJob>, TournamentError> {
        let start = Position::startpos(self.variant);
        let openings = self.openings.openings(&start, self.pairs_per_pairing(), self.config.seed)?;
        Ok(self.jobs(&openings))
    }

    /// [`Tournament::schedule`] of any game from its start position `start` (openings files:
    /// 5x5x5 only so far).
    pub fn schedule_from<S: RecordGame>(&self, start: &S) -> Result<Vec<GameJob<S>>, TournamentError> {
        let openings = self.openings.openings_of(start, self.pairs_per_pairing(), self.config.seed)?;
        Ok(self.jobs(&openings))
    }

    /// The games of every pairing on `openings`.
    fn jobs<S: RecordGame>(&self, openings: &[Opening<S>]) -> Vec<GameJob<S>> {
        let sources: Vec<PlayerSource<S>> = self.players.iter().cloned().map(PlayerSource::from).collect();
        let adjudicate = self.config.adjudicate_material.and_then(S::material_adjudicator);
        let mut jobs = Vec::new();
        for (i, j) in self.pairings() {
            for (k, o) in openings.iter().enumerate() {
                for (w, b) in [(i, j), (j, i)] {
                    jobs.push(GameJob {
                        live: None,
                        adjudicate: adjudicate.clone(),
                        tc: self.tc,
                        white: sources[w].clone(),
                        black: sources[b].clone(),
                        opening: o.clone(),
                        max_plies: Some(self.config.max_plies),
                        event: "tournament".into(),
                        tags: vec![("Pair".into(), k.to_string())],
                    });
                }
            }
        }
        jobs
    }

    /// Prepares the output directory (refusing one written with other opening settings), saves
    /// the effective settings, truncates a record cut short by a kill, and lists what is done and
    /// what is left.
    pub fn plan(&self) -> Result<Plan, TournamentError> {
        self.plan_with(self.schedule()?)
    }

    /// [`Tournament::plan`] for games of any game from `start` (its start position).
    pub fn plan_from<S: RecordGame>(&self, start: &S) -> Result<Plan<S>, TournamentError> {
        self.plan_with(self.schedule_from(start)?)
    }

    /// [`Tournament::plan`] of a whole `schedule`.
    fn plan_with<S: RecordGame>(&self, schedule: Vec<GameJob<S>>) -> Result<Plan<S>, TournamentError> {
        let dir = &self.config.out;
        let io = |p: &Path, e: std::io::Error| TournamentError::Io(p.to_path_buf(), e.to_string());
        if dir.exists() && !dir.is_dir() {
            return Err(ClaimError::Io(format!(
                "{}: exists and is not a folder (--out names a folder)",
                dir.display()
            ))
            .into());
        }
        // 1. The folder, claimed by its settings file (see `claim_dir`): a resumed run keeps the
        // opening settings, may add players (kept listed, so that the folder's config rates them
        // all) and games.
        let cfg_path = dir.join(CONFIG_FILE);
        let mut saved = self.config.clone();
        match std::fs::read_to_string(&cfg_path) {
            Ok(text) => {
                let old = TournamentConfig::from_toml(&text, &cfg_path.display().to_string())?;
                for p in old.players {
                    if !saved.players.contains(&p) {
                        saved.players.push(p);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&cfg_path, e)),
        }
        let text = toml::to_string(&saved).map_err(|e| TournamentError::Config(e.to_string()))?;
        let may_change =
            |key: &str, _: &str, _: &str| matches!(key, "players" | "games" | "concurrency" | "out" | "gauntlet");
        crate::fsutil::claim_dir_with(dir, Claim { job: "a tournament", file: CONFIG_FILE }, &text, &may_change)?;
        // 2. Finished games, dropping a cut-off tail.
        let games_path = dir.join(GAMES_FILE);
        let done = read_records_resuming_of(&games_path)?;
        // 3. Skip every scheduled game whose key is done.
        let keys: HashSet<(String, String, String)> = done.iter().map(game_key).collect();
        let total = schedule.len();
        let todo = schedule.into_iter().filter(|j| !keys.contains(&job_key(j))).collect();
        Ok(Plan { done, todo, total })
    }

    /// Plays a plan, appending records to `games.pgn` as games finish; `on_game` is called after
    /// each is written. Returns every record of this tournament's players, old and new.
    pub fn run<S: RecordGame>(
        &self,
        plan: Plan<S>,
        on_game: impl FnMut(&TextRecord<S>),
    ) -> Result<Vec<TextRecord<S>>, TournamentError> {
        self.run_on(plan, &super::Executor::Threads(self.config.concurrency), on_game)
    }

    /// [`Tournament::run`] with the games played by `exec` (here, or by workers through a store).
    pub fn run_on<S: RecordGame>(
        &self,
        plan: Plan<S>,
        exec: &super::Executor,
        mut on_game: impl FnMut(&TextRecord<S>),
    ) -> Result<Vec<TextRecord<S>>, TournamentError> {
        let mut writer = RecordWriter::append(&self.config.out.join(GAMES_FILE))?;
        // Games in progress, for watchers: what a killed run left there is stale.
        let live = self.config.out.join(LIVE_DIR);
        let _ = std::fs::remove_dir_all(&live);
        let live = match std::fs::create_dir_all(&live) {
            Ok(()) => Some(live),
            Err(e) => {
                tracing::warn!("no live game files: cannot create {}: {e}", live.display());
                None
            }
        };
        let live_dir = live.clone();
        let todo = plan
            .todo
            .into_iter()
            .enumerate()
            .map(move |(i, job)| GameJob { live: live.as_ref().map(|d| d.join(format!("game-{i}.json"))), ..job });
        let mut records = plan.done;
        let mut write_error = None;
        exec.play(todo, |_, r| {
            if write_error.is_none() {
                if let Err(e) = writer.write(&r) {
                    write_error = Some(e);
                }
            }
            on_game(&r);
            records.push(r);
        })?;
        if let Some(d) = &live_dir {
            // Empty now (each game removes its file as it ends).
            let _ = std::fs::remove_dir(d);
        }
        if let Some(e) = write_error {
            return Err(e.into());
        }
        Ok(records)
    }

    /// Rates the tournament's players from records (games of other players are ignored) and
    /// writes `ratings.json`, `ratings.txt` and the plot `ratings.png` to the output directory.
    /// Returns the report and a note when the plot could not be drawn.
    pub fn rate_and_save<S: RecordGame>(
        &self,
        records: &[TextRecord<S>],
    ) -> Result<(RatingReport, Option<String>), TournamentError> {
        let report = rate_records(&self.names, records, &FitConfig::default())?;
        let dir = &self.config.out;
        let write = |name: &str, text: String| {
            let p = dir.join(name);
            crate::fsutil::write_atomic(&p, text.as_bytes()).map_err(|e| TournamentError::Io(p, e.to_string()))
        };
        let json = serde_json::to_string_pretty(&report).map_err(|e| TournamentError::Config(e.to_string()))?;
        write("ratings.json", json)?;
        write("ratings.txt", report_text(&report) + &effort_text(&self.names, records))?;
        let note = super::plot::plot_ratings(&report, &dir.join("ratings.png")).err().map(|e| e.to_string());
        Ok((report, note))
    }
}

/// The resume key of a record: (White, Black, Pair tag).
pub fn game_key<S: RecordGame>(r: &TextRecord<S>) -> (String, String, String) {
    (r.white.clone(), r.black.clone(), r.tag("Pair").unwrap_or("").to_string())
}

/// The resume key of a scheduled game, as [`game_key`] gives it for the game's record.
pub fn job_key<S: RecordGame>(j: &GameJob<S>) -> (String, String, String) {
    let pair = j.tags.iter().find(|(k, _)| k == "Pair").map_or(String::new(), |(_, v)| v.clone());
    (j.white.name(), j.black.name(), pair)
}

/// Fits ratings of the players `names` to the records whose both players are among them. Two
/// games between the same players with the same `Pair` tag and opposite colours form a pair.
/// Unfinished games are left out.
pub fn rate_records<S: RecordGame>(
    names: &[String],
    records: &[TextRecord<S>],
    config: &FitConfig,
) -> Result<RatingReport, RatingError> {
    rate(names, &rated_games(names, records), config)
}

/// The finished games of `records` between players of `names`, by their indices in `names`
/// (a game's colour-swapped partner shares its `pair` id).
pub fn rated_games<S: RecordGame>(names: &[String], records: &[TextRecord<S>]) -> Vec<RatedGame> {
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut pair_ids: HashMap<(usize, usize, String), u64> = HashMap::new();
    let mut games = Vec::new();
    for r in records {
        let (Some(&w), Some(&b)) = (index.get(r.white.as_str()), index.get(r.black.as_str())) else { continue };
        let Some(result) = r.result() else { continue };
        let pair = r.tag("Pair").map(|p| {
            let next = pair_ids.len() as u64;
            *pair_ids.entry((w.min(b), w.max(b), p.to_string())).or_insert(next)
        });
        games.push(RatedGame { white: w, black: b, result, pair });
    }
    games
}

/// Each player's nodes (or simulations) and thinking time per move over its games in `records`,
/// one line per player in `names` order; empty when no record carries the runner's effort tags.
pub fn effort_text<S: RecordGame>(names: &[String], records: &[TextRecord<S>]) -> String {
    let mut by: HashMap<&str, Effort> = HashMap::new();
    for r in records {
        let Some([w, b]) = Effort::of_record(r) else { continue };
        by.entry(r.white.as_str()).or_default().add(&w);
        by.entry(r.black.as_str()).or_default().add(&b);
    }
    if by.is_empty() {
        return String::new();
    }
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(4);
    let mut out = "\nper move (nodes or simulations, thinking time):\n".to_string();
    for n in names {
        out += &format!("{n:<width$}  {}\n", by.get(n.as_str()).map_or("-".to_string(), |e| e.per_move()));
    }
    out
}

/// The terminal report: rating table, crosstable, LOS matrix and per-pairing statistics.
pub fn report_text(report: &RatingReport) -> String {
    use std::fmt::Write as _;
    let mut out = format!("{report}\ncrosstable (points/games of the row player):\n{}", report.crosstable_text());
    let order = report.ranking();
    let width = report.players.iter().map(|p| p.name.chars().count()).max().unwrap_or(4).max(4);
    let _ = writeln!(out, "\nlikelihood of superiority (row better than column), %:");
    let _ = write!(out, "{:<width$}", "");
    for &j in &order {
        let _ = write!(out, "  {:>5}", report.players[j].rank);
    }
    out.push('\n');
    for &i in &order {
        let _ = write!(out, "{:<width$}", format!("{} {}", report.players[i].rank, report.players[i].name));
        for &j in &order {
            if i == j {
                let _ = write!(out, "  {:>5}", "-");
            } else {
                let _ = write!(out, "  {:>5.1}", 100.0 * report.los[i][j]);
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\npairings (first player's view): games W/D/L, pairs [0, ½, 1, 1½, 2], Elo:");
    for p in &report.pairings {
        let (a, b) = (&report.players[p.a].name, &report.players[p.b].name);
        let _ = write!(out, "{a} vs {b}: {} pairs {}", p.trinomial, p.pentanomial);
        if let Some(e) = p.elo_pentanomial.or(p.elo_trinomial) {
            let _ = write!(out, "; {e}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &Path, players: &[&str]) -> TournamentConfig {
        TournamentConfig {
            players: players.iter().map(|s| s.to_string()).collect(),
            games: 2,
            concurrency: 2,
            openings: "random:4".into(),
            out: dir.to_path_buf(),
            gauntlet: false,
            max_plies: 30,
            seed: 5,
            ruleset: "fiveup".into(),
            castling: false,
            hypercylinder: false,
            tc: None,
            adjudicate_material: None,
        }
    }

    #[test]
    fn config_rejects_unknown_keys_and_bad_values() {
        let e = Tournament::from_toml("players = [\"ab\", \"random\"]\ncolour = 1\n").unwrap_err();
        assert!(e.to_string().contains("unknown field `colour`"), "{e}");
        assert!(Tournament::from_toml("players = [\"ab\"]\n").is_err());
        assert!(Tournament::from_toml("players = [\"ab\", \"ab:depth=4\"]\n")
            .unwrap_err()
            .to_string()
            .contains("twice"));
        assert!(Tournament::from_toml("players = [\"ab\", \"zz\"]\n").is_err());
        let t =
            Tournament::from_toml("players = [\"ab\", \"random\", \"mcts\"]\ngauntlet = true\ngames = 3\n").unwrap();
        assert_eq!(t.pairings(), vec![(0, 1), (0, 2)]);
        assert_eq!(t.pairs_per_pairing(), 2);
    }

    #[test]
    fn resume_skips_finished_games_and_truncates_a_cut_record() {
        let dir = std::env::temp_dir().join(format!("fiveup-tournament-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        let t = Tournament::new(config(&dir, &["random:seed=1", "random:seed=2", "ab:depth=1"])).unwrap();
        let plan = t.plan().unwrap();
        assert_eq!((plan.done.len(), plan.todo.len(), plan.total), (0, 6, 6));
        let mut todo = plan.todo;
        todo.truncate(4);
        let recs = t.run(Plan { done: vec![], todo, total: 6 }, |_| {}).unwrap();
        assert_eq!(recs.len(), 4);
        // Cut the last record short, as a kill would.
        let path = dir.join(GAMES_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 20]).unwrap();
        let plan = t.plan().unwrap();
        assert_eq!((plan.done.len(), plan.todo.len()), (3, 3));
        let recs = t.run(plan, |_| {}).unwrap();
        assert_eq!(recs.len(), 6);
        assert_eq!(t.plan().unwrap().todo.len(), 0);
        let (report, _) = t.rate_and_save(&recs).unwrap();
        assert_eq!(report.games, 6);
        assert_eq!(report.pairs, 3);
        assert!(dir.join("ratings.json").exists() && dir.join("ratings.png").exists());
        // Thinking per move: random movers report no nodes, the engine some.
        let effort = std::fs::read_to_string(dir.join("ratings.txt")).unwrap();
        let line = |name: &str| effort.lines().rev().find(|l| l.starts_with(name)).unwrap_or_default().to_string();
        assert!(line("random:seed=1").ends_with(" 0 nodes, 0.000 s"), "{effort}");
        assert!(line("ab:depth=1").contains(" nodes, ") && !line("ab:depth=1").contains(" 0 nodes"), "{effort}");
        // Other opening settings are refused.
        let mut c = config(&dir, &["random:seed=1", "random:seed=2"]);
        c.seed = 6;
        let e = Tournament::new(c).unwrap().plan().err().unwrap().to_string();
        assert!(e.contains("holds a tournament with seed = 5") && e.contains("asks for seed = 6"), "{e}");
        // A folder of someone else's files is not written into; a damaged settings file is named.
        let foreign = dir.join("foreign");
        std::fs::create_dir(&foreign).unwrap();
        std::fs::write(foreign.join("ratings.txt"), "mine").unwrap();
        let e = Tournament::new(config(&foreign, &["random:seed=1", "random:seed=2"])).unwrap().plan().err().unwrap();
        assert!(e.to_string().contains("is not empty and holds no tournament.toml"), "{e}");
        assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1, "nothing written");
        let e = Tournament::new(config(&foreign.join("ratings.txt"), &["random:seed=1", "random:seed=2"]))
            .unwrap()
            .plan()
            .err()
            .unwrap();
        assert!(e.to_string().contains("exists and is not a folder"), "{e}");
        std::fs::write(dir.join(CONFIG_FILE), "players = [").unwrap();
        let e = Tournament::new(config(&dir, &["random:seed=1", "random:seed=2"])).unwrap().plan().err().unwrap();
        assert!(e.to_string().contains(CONFIG_FILE), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
