//! The objects an evaluation's coordinator and workers exchange, and how a [`GameJob`] travels
//! in them: players by their spec string (with the files they read, see [`super::files`]), the
//! start position and opening moves as text.

use super::files::Shipped;
use crate::eval::records::{parse_records_of, RecordGame, TextRecord};
use crate::eval::runner::GameJob;
use crate::game::EndRule;
use serde::{Deserialize, Serialize};

/// The descriptor's `format`.
pub const FORMAT: &str = "fiveup-games";

/// The version of the objects' format; a coordinator and its workers must agree on it.
pub const FORMAT_VERSION: u32 = 2;

/// `games.json`: what the prefix holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Descriptor {
    /// Always [`FORMAT`].
    pub format: String,
    /// The coordinator's [`super::version`].
    pub fiveup: String,
    /// The game's name (`fiveup`, `raumschach`, `quasi-alice`; the 5x5x5 variants by their
    /// ruleset).
    pub game: String,
    /// The coordinator's command line.
    pub command: String,
    /// When the evaluation began (seconds since the epoch).
    pub created_unix: f64,
    /// Seconds a worker's claim lasts without renewal.
    pub claim_ttl_s: f64,
}

/// `control.json`: whether the evaluation goes on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Control {
    /// `running`, `finished` or `stopped`.
    pub state: String,
    /// Why it ended (empty while running).
    pub reason: String,
    /// When it was written.
    pub updated_unix: f64,
}

impl Control {
    /// Whether workers should stop.
    pub fn ended(&self) -> bool {
        self.state != "running"
    }
}

/// A player of a job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The spec string (canonical): the name the records give the player.
    pub spec: String,
    /// Whether the spec was read with no limit of its own (a game on a clock).
    pub unlimited: bool,
    /// The files the spec names, shipped through the store.
    pub files: Vec<Shipped>,
}

/// One game of a job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobGame {
    /// White.
    pub white: PlayerRef,
    /// Black.
    pub black: PlayerRef,
    /// The `Ruleset` tag of the start.
    pub ruleset: String,
    /// The `Flags` tag of the start.
    pub flags: String,
    /// The start position's text.
    pub start: String,
    /// The opening moves, as text, in order.
    pub moves: Vec<String>,
    /// The ply cap.
    pub max_plies: Option<usize>,
    /// The time control's text.
    pub tc: Option<String>,
    /// The record's `Event`.
    pub event: String,
    /// The record's extra tags.
    pub tags: Vec<(String, String)>,
    /// Whether the coordinator shows the game while it is played.
    pub live: bool,
    /// The margin in pawns of the material judge at the ply cap (games that have one:
    /// [`RecordGame::material_adjudicator`]); absent: drawn at the cap. Left out of the object
    /// when absent, so the jobs of the games without it keep their IDs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicate_material: Option<f64>,
}

/// `jobs/ID.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Its ID.
    pub id: String,
    /// The descriptor's game.
    pub game: String,
    /// Its games, in the order the coordinator's command made them.
    pub games: Vec<JobGame>,
}

/// `results/ID.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobResult {
    /// The job's ID.
    pub id: String,
    /// The worker's [`super::version`].
    pub fiveup: String,
    /// The worker's name.
    pub worker: String,
    /// The games' records (text), in the job's order.
    pub records: Vec<String>,
    /// Wall seconds the worker spent on the job.
    pub seconds: f64,
}

/// The start position and opening moves of a job's game, as the job writes them.
pub fn opening_text<S: RecordGame>(job: &GameJob<S>) -> (String, String, String, Vec<String>) {
    let (ruleset, flags) = S::tags(&job.opening.start);
    let mut pos = job.opening.start.clone();
    let moves = job
        .opening
        .moves
        .iter()
        .map(|&m| {
            let t = pos.move_text(m);
            pos.make(m);
            t
        })
        .collect();
    (ruleset.to_string(), flags, job.opening.start.to_text(), moves)
}

/// The start position and opening moves a job's game names, or why they cannot be read.
pub fn read_opening<S: RecordGame>(g: &JobGame) -> Result<(S, Vec<S::Move>), String> {
    let start = S::start_from_tags(&g.ruleset, &g.flags, &g.start)?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(g.moves.len());
    for (i, t) in g.moves.iter().enumerate() {
        let m = pos.parse_move(t).map_err(|e| format!("opening move {} ({t}): {e}", i + 1))?;
        pos.make(m);
        moves.push(m);
    }
    Ok((start, moves))
}

/// Checks a result against its job; the records when they belong to it.
pub fn check_result<S: RecordGame>(job: &Job, result: &JobResult) -> Result<Vec<TextRecord<S>>, String> {
    if result.id != job.id {
        return Err(format!("it names job {}", result.id));
    }
    if result.fiveup != super::version() {
        return Err(format!(
            "it was played by fiveup {}; this coordinator is fiveup {}: run the same build everywhere",
            result.fiveup,
            super::version()
        ));
    }
    if result.records.len() != job.games.len() {
        return Err(format!("{} records for {} games", result.records.len(), job.games.len()));
    }
    let mut out = Vec::with_capacity(job.games.len());
    for (i, (text, g)) in result.records.iter().zip(&job.games).enumerate() {
        let mut recs = parse_records_of::<S>(text).map_err(|e| format!("game {}: {e}", i + 1))?;
        if recs.len() != 1 {
            return Err(format!("game {}: {} records where one belongs", i + 1, recs.len()));
        }
        let r = recs.remove(0);
        let (start, opening) = read_opening::<S>(g).map_err(|e| format!("game {}: its job: {e}", i + 1))?;
        let differs = |what: &str| Err(format!("game {}: its {what} is not the job's", i + 1));
        if r.white != g.white.spec || r.black != g.black.spec {
            return differs("players");
        }
        if r.event != g.event {
            return differs("event");
        }
        if r.start.to_text() != start.to_text() || S::tags(&r.start) != S::tags(&start) {
            return differs("start position");
        }
        if r.opening_plies != opening.len() || r.moves.len() < opening.len() || r.moves[..opening.len()] != opening[..]
        {
            return differs("opening");
        }
        if g.tags.iter().any(|t| !r.tags.contains(t)) {
            return differs("tags");
        }
        let Some(outcome) = r.outcome else {
            return Err(format!("game {}: no result", i + 1));
        };
        if let Some(cap) = g.max_plies {
            if r.moves.len() > cap.max(opening.len()) {
                return Err(format!("game {}: {} plies, beyond the cap of {cap}", i + 1, r.moves.len()));
            }
        }
        if outcome.rule == EndRule::Adjudication {
            check_adjudication(g, &r).map_err(|e| format!("game {}: {e}", i + 1))?;
        }
        out.push(r);
    }
    Ok(out)
}

/// Checks the verdicts at the ply cap against the job: a game ends there only at the cap, a draw
/// at the cap is a draw, only a job with a material judge has games decided by material, and then
/// the coordinator's own judge must reach the same verdict on the final position, a win by
/// material or a draw at the cap. Workers have no endgame tables. (Forfeits, also adjudications,
/// are the runner's and are not replayed here.)
fn check_adjudication<S: RecordGame>(g: &JobGame, r: &TextRecord<S>) -> Result<(), String> {
    let detail = r.detail.as_deref().unwrap_or("");
    if detail == "tablebase" {
        return Err("adjudicated by endgame tables, which workers do not have".into());
    }
    if !matches!(detail, "material" | "ply-cap") {
        return Ok(());
    }
    if g.max_plies.is_none_or(|cap| r.moves.len() < cap) {
        return Err(format!("adjudicated ({detail}) after {} plies, before the cap", r.moves.len()));
    }
    if detail == "ply-cap" && r.outcome.is_some_and(|o| o.winner.is_some()) {
        return Err("a win recorded as a draw at the cap".into());
    }
    let Some(pawns) = g.adjudicate_material else {
        return match detail {
            "material" => Err("adjudicated by material though its job is not".into()),
            _ => Ok(()),
        };
    };
    let judge = S::material_adjudicator(pawns).ok_or("its job names a material judge this game does not have")?;
    let mut pos = r.start.clone();
    for &m in &r.moves {
        pos.make(m);
    }
    let verdict = (judge.judge)(&pos).map(|(o, _)| o);
    let recorded = (detail == "material").then_some(r.outcome).flatten();
    if verdict == recorded {
        return Ok(());
    }
    let said = |o: Option<crate::game::Outcome>| o.map_or("a draw at the cap", |o| o.result());
    Err(format!("recorded {} where the material judge says {}", said(recorded), said(verdict)))
}

/// Whether `s` is a job ID (hex, possibly with a `-N` occurrence).
pub fn valid_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// The ID of the `occurrence`-th job (1-based) of this content.
pub fn job_id(games: &[JobGame], occurrence: u32) -> String {
    use sha2::Digest;
    let bytes = serde_json::to_vec(games).expect("a job serialises");
    let digest = sha2::Sha256::digest(&bytes);
    let hex: String = digest.iter().take(10).map(|b| format!("{b:02x}")).collect();
    if occurrence <= 1 {
        hex
    } else {
        format!("{hex}-{occurrence}")
    }
}
