//! The run endpoints: the directories given with `--runs`, their record files, a tournament's live
//! state, a training run's metrics and plots, and single files. Every path a request names is
//! checked by [`resolve`] to stay inside its run directory.

use super::games::{for_game, WebGame};
use super::{ApiError, AppState};
use crate::catalog::GameId;
use crate::eval::records::{parse_records_of, parse_records_prefix_of, records_ruleset, text_ruleset};
use crate::eval::tournament::{rate_records, rated_games, Tournament, CONFIG_FILE, GAMES_FILE, LIVE_DIR};
use crate::eval::{FitConfig, TextRecord};
use crate::game::Game;
use crate::rules::Ruleset;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The largest file the server reads for a page (records, metrics, plots), in bytes.
pub const MAX_FILE: u64 = 64 << 20;
/// How many record files a run lists at most.
const MAX_LISTED: usize = 500;
/// A live game file older than this is a leftover (its run was killed), not a game in progress.
const LIVE_STALE_S: f64 = 600.0;

/// A directory the page may read, and the name the page knows it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedDir {
    /// Unique name (the directory's last component, with `-2`, `-3`... when repeated).
    pub name: String,
    /// The canonical path.
    pub root: PathBuf,
}

/// What a run directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// A tournament's output directory (`tournament.toml`).
    Tournament,
    /// A training run (`metrics.jsonl`, or `config.toml` with `state.json`).
    Training,
    /// Anything else: a directory of record files.
    Records,
}

impl RunKind {
    /// `tournament`, `training` or `records`.
    pub const fn name(self) -> &'static str {
        match self {
            RunKind::Tournament => "tournament",
            RunKind::Training => "training",
            RunKind::Records => "records",
        }
    }
}

impl ServedDir {
    /// What the directory holds now (a run may start after the server).
    pub fn kind(&self) -> RunKind {
        if self.root.join(CONFIG_FILE).is_file() {
            RunKind::Tournament
        } else if self.root.join("metrics.jsonl").is_file()
            || (self.root.join("config.toml").is_file() && self.root.join("state.json").is_file())
        {
            RunKind::Training
        } else {
            RunKind::Records
        }
    }
}

/// The sizes and modification times of the files a cached value was made from.
type Stamp = Vec<(u64, Option<SystemTime>)>;
/// A cached value's key: the main file and what was computed from it.
type CacheKey = (PathBuf, &'static str);

/// Results computed from files, kept while the files' sizes and modification times stay the same.
#[derive(Default)]
pub(crate) struct Cache {
    entries: Mutex<HashMap<CacheKey, (Stamp, Arc<Value>)>>,
}

impl Cache {
    /// The cached value for `key` made from `files`, or a fresh one from `compute`.
    fn get(
        &self,
        key: CacheKey,
        files: &[&Path],
        compute: impl FnOnce() -> Result<Value, ApiError>,
    ) -> Result<Arc<Value>, ApiError> {
        let stamp: Stamp = files
            .iter()
            .map(|f| std::fs::metadata(f).map_or((u64::MAX, None), |m| (m.len(), m.modified().ok())))
            .collect();
        if let Some((s, v)) = self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            if *s == stamp {
                return Ok(v.clone());
            }
        }
        let v = Arc::new(compute()?);
        let mut map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 256 {
            map.clear();
        }
        map.insert(key, (stamp, v.clone()));
        Ok(v)
    }
}

fn run_named<'a>(st: &'a AppState, name: &str) -> Result<&'a ServedDir, ApiError> {
    st.config.runs.iter().find(|r| r.name == name).ok_or_else(|| {
        ApiError::not_found(format!("no run named '{}' (see /api/runs)", crate::player::text::clip(name)))
    })
}

/// The file `rel` inside `run`: a relative path of plain names (no `..`, no root, no drive) that,
/// with every symbolic link resolved, is still inside the run directory and is a regular file.
pub(crate) fn resolve(run: &ServedDir, rel: &str) -> Result<PathBuf, ApiError> {
    let shown = crate::player::text::clip(rel);
    if rel.is_empty() || rel.len() > 1000 || rel.contains('\0') {
        return Err(ApiError::bad("path: empty, too long or not text"));
    }
    let p = Path::new(rel);
    if !p.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)) || rel.contains('\\') {
        return Err(ApiError::forbidden(format!("path {shown}: only plain relative paths inside the run are served")));
    }
    // Hidden files and directories (.git, .env, temporary files of atomic writes) are not served.
    if p.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.') && c != Component::CurDir) {
        return Err(ApiError::forbidden(format!("path {shown}: hidden files are not served")));
    }
    let full = std::fs::canonicalize(run.root.join(p))
        .map_err(|_| ApiError::not_found(format!("path {shown}: no such file in run {}", run.name)))?;
    if !full.starts_with(&run.root) {
        return Err(ApiError::forbidden(format!("path {shown}: leads outside the run directory")));
    }
    let meta = std::fs::metadata(&full).map_err(|e| ApiError::not_found(format!("path {shown}: {e}")))?;
    if !meta.is_file() {
        return Err(ApiError::not_found(format!("path {shown}: not a file")));
    }
    if meta.len() > MAX_FILE {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("path {shown}: {} bytes, over the server's limit of {MAX_FILE}", meta.len()),
        ));
    }
    Ok(full)
}

/// Record files (`*.pgn`) under `dir`, up to three levels down, relative and sorted.
fn record_files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            if out.len() >= MAX_LISTED {
                return;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            let path = e.path();
            if ft.is_dir() && depth < 3 {
                walk(root, &path, depth + 1, out);
            } else if ft.is_file() && name.ends_with(".pgn") {
                if let Ok(rel) = path.strip_prefix(root) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, 0, &mut out);
    out.sort();
    out
}

/// Runs a blocking job (file reading, rating fits) off the async workers.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, ApiError> + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}")))?
}

/// `GET /api/runs`.
pub(crate) async fn list(State(st): State<Arc<AppState>>) -> Result<Json<Value>, ApiError> {
    let runs = st.config.runs.clone();
    blocking(move || {
        Ok(Json(Value::Array(
            runs.iter()
                .map(|r| json!({ "name": r.name, "kind": r.kind().name(), "records": record_files(&r.root) }))
                .collect(),
        )))
    })
    .await
}

/// A record as the page replays it.
fn record_json<S: WebGame>(index: usize, r: &TextRecord<S>) -> Value {
    let (castling, hypercylinder) = r.start.flags();
    let mut coords = Vec::with_capacity(r.moves.len());
    let mut figs = Vec::with_capacity(r.moves.len());
    let mut p = r.start.clone();
    for &m in &r.moves {
        coords.push(p.coordinate(m));
        figs.push(p.figurine(m));
        p.make(m);
    }
    json!({
        "index": index,
        "event": r.event,
        "white": r.white,
        "black": r.black,
        "result": r.result_text(),
        "termination": r.termination(),
        "plies": r.moves.len(),
        "ruleset": S::tags(&r.start).0,
        "castling": castling,
        "hypercylinder": hypercylinder,
        "start": r.start.to_text(),
        "moves": coords,
        "figurines": figs,
        "opening_plies": r.opening_plies,
        "tags": r.tags,
    })
}

/// The game of a records text, by its first `Ruleset` tag; a text without one, or naming no
/// game, is read as 5x5x5 records (whose reader then names what is wrong).
fn game_of_ruleset(ruleset: Option<String>) -> GameId {
    ruleset.and_then(|r| r.parse().ok()).unwrap_or(GameId::FiveUp(Ruleset::FiveUp))
}

/// Every record of a records text as the page replays them, or why the text is not one.
fn records_json<S: WebGame>(text: &str) -> Result<Vec<Value>, ApiError> {
    let records = parse_records_of::<S>(text).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(records.iter().enumerate().map(|(i, r)| record_json(i, r)).collect())
}

/// A records file read leniently: a record cut short at the end (a run writing it) is left out.
fn read_games<S: WebGame>(path: &Path) -> Result<Vec<TextRecord<S>>, ApiError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ApiError::bad(format!("{}: {e}", path.file_name().unwrap_or_default().to_string_lossy())))?;
    let (records, _, error) = parse_records_prefix_of::<S>(&text);
    match error {
        Some(e) if records.is_empty() => Err(ApiError::bad(format!("not a records file: {e}"))),
        _ => Ok(records),
    }
}

/// [`read_games`] of a file's own game, as the page replays them.
fn read_games_json(path: &Path) -> Result<Vec<Value>, ApiError> {
    for_game!(game_of_ruleset(records_ruleset(path)), S => {
        Ok(read_games::<S>(path)?.iter().enumerate().map(|(i, r)| record_json(i, r)).collect())
    })
}

/// `?file=REL` / `?path=REL` (and `v=ANYTHING`, a page's cache buster, ignored).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileQuery {
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default, rename = "v")]
    _v: Option<String>,
}

/// A query string, with a malformed one answered as a JSON 400 like every other error.
pub(crate) struct Q<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequestParts<S> for Q<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(v)| Q(v))
            .map_err(|e| ApiError::bad(format!("bad query string: {}", e.body_text())))
    }
}

impl FileQuery {
    fn rel(&self) -> Result<&str, ApiError> {
        self.file.as_deref().or(self.path.as_deref()).ok_or_else(|| ApiError::bad("missing ?file=PATH"))
    }
}

/// `GET /api/runs/{name}/records?file=REL`.
pub(crate) async fn records(
    State(st): State<Arc<AppState>>,
    UrlPath(name): UrlPath<String>,
    Q(q): Q<FileQuery>,
) -> Result<Json<Value>, ApiError> {
    let run = run_named(&st, &name)?.clone();
    let path = resolve(&run, q.rel()?)?;
    let st = st.clone();
    let v = blocking(move || {
        st.cache.get((path.clone(), "records"), &[&path], || Ok(json!({ "games": read_games_json(&path)? })))
    })
    .await?;
    Ok(Json((*v).clone()))
}

/// A text body, with a rejection (too large, not UTF-8) answered as JSON like every other error.
pub(crate) struct Text(pub String);

impl<S: Send + Sync> axum::extract::FromRequest<S> for Text {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        String::from_request(req, state)
            .await
            .map(Text)
            .map_err(|e| ApiError::new(e.status(), format!("cannot read the record text: {}", e.body_text())))
    }
}

/// `POST /api/records/parse` (text/plain): every record of a pasted or opened file, or a 400
/// naming the first bad record.
pub(crate) async fn parse_records_text(Text(body): Text) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let games = for_game!(game_of_ruleset(text_ruleset(&body)), S => records_json::<S>(&body)?);
        if games.is_empty() {
            return Err(ApiError::bad("no game record in the text (records start with [Event \"...\"])"));
        }
        Ok(Json(json!({ "games": games })))
    })
    .await
}

/// The board of a live game file, replayed through the rules (a file that does not replay is
/// skipped).
fn live_game(path: &Path, now: SystemTime) -> Option<Value> {
    let age = std::fs::metadata(path).ok()?.modified().ok().and_then(|m| now.duration_since(m).ok())?.as_secs_f64();
    if age > LIVE_STALE_S {
        return None;
    }
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let game: GameId = v["ruleset"].as_str()?.parse().ok()?;
    let position = || -> Result<Option<Value>, ApiError> { Ok(for_game!(game, S => live_position::<S>(&v, game))) };
    let mut out = position().ok()??;
    let fields = json!({ "white": v["white"], "black": v["black"], "ruleset": game.name(),
                         "age_s": (age * 10.0).round() / 10.0 });
    if let (Value::Object(o), Value::Object(f)) = (&mut out, fields) {
        o.extend(f);
    }
    Some(out)
}

/// A live game's start, moves, board and side to move, with its game's options.
fn live_position<S: WebGame>(v: &Value, game: GameId) -> Option<Value> {
    let castling = v["castling"].as_bool().unwrap_or(false);
    let hypercylinder = v["hypercylinder"].as_bool().unwrap_or(false);
    let start = S::named_start(game, castling, hypercylinder, Some(v["start"].as_str()?)).ok()?;
    let mut g = Game::new(start);
    let mut moves = Vec::new();
    for m in v["moves"].as_array()? {
        let m = g.position().parse_move(m.as_str()?).ok()?;
        moves.push(g.position().coordinate(m));
        g.play(m).ok()?;
    }
    let (castling, hypercylinder) = g.start().flags();
    Some(json!({
        "castling": castling, "hypercylinder": hypercylinder,
        "start": g.start().to_text(), "moves": moves, "board": g.position().board_json(),
        "side": g.position().side().name(),
    }))
}

/// `GET /api/runs/{name}/tournament`: settings, ratings with 95% intervals and crosstable (from the
/// records so far, cached per `games.pgn` state), games in progress and the latest results.
pub(crate) async fn tournament(
    State(st): State<Arc<AppState>>,
    UrlPath(name): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let run = run_named(&st, &name)?.clone();
    let st = st.clone();
    blocking(move || {
        let cfg_path = run.root.join(CONFIG_FILE);
        let games_path = run.root.join(GAMES_FILE);
        if !cfg_path.is_file() {
            return Err(ApiError::not_found(format!("run {} is not a tournament (no {CONFIG_FILE})", run.name)));
        }
        let settings = st.cache.get((cfg_path.clone(), "tournament-settings"), &[&cfg_path], || {
            let text = std::fs::read_to_string(&cfg_path).map_err(|e| ApiError::bad(format!("{CONFIG_FILE}: {e}")))?;
            let t = Tournament::from_toml(&text).map_err(|e| ApiError::bad(format!("{CONFIG_FILE}: {e}")))?;
            let total = t.schedule().ok().map(|s| s.len());
            Ok(json!({ "players": t.names, "games_total": total, "ruleset": t.game.name(),
                       "tc": t.config.tc, "max_plies": t.config.max_plies }))
        })?;
        let names: Vec<String> = settings["players"]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
            .unwrap_or_default();
        let game = game_of_ruleset(settings["ruleset"].as_str().map(String::from));
        let results = st.cache.get(
            (games_path.clone(), "tournament-results"),
            &[&games_path, &cfg_path],
            || for_game!(game, S => tournament_results::<S>(&games_path, &names)),
        )?;

        let now = SystemTime::now();
        let mut live: Vec<(String, Value)> = std::fs::read_dir(run.root.join(LIVE_DIR))
            .map(|d| {
                d.flatten()
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                    .filter_map(|e| {
                        live_game(&e.path(), now).map(|v| (e.file_name().to_string_lossy().into_owned(), v))
                    })
                    .collect()
            })
            .unwrap_or_default();
        live.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Json(json!({
            "name": run.name,
            "players": settings["players"],
            "ruleset": settings["ruleset"],
            "tc": settings["tc"],
            "games_total": settings["games_total"],
            "games_done": results["games_done"],
            "ratings": results["ratings"],
            "unrated": results["unrated"],
            "crosstable": results["crosstable"],
            "recent": results["recent"],
            "live": live.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
        })))
    })
    .await
}

/// A tournament's ratings, crosstable and latest results from its records file so far.
fn tournament_results<S: WebGame>(games_path: &Path, names: &[String]) -> Result<Value, ApiError> {
    let records = if games_path.is_file() { read_games::<S>(games_path)? } else { Vec::new() };
    let mine: Vec<&TextRecord<S>> =
        records.iter().filter(|r| names.contains(&r.white) && names.contains(&r.black)).collect();
    let recent: Vec<Value> = mine
        .iter()
        .rev()
        .take(12)
        .map(|r| {
            json!({ "white": r.white, "black": r.black, "result": r.result_text(),
                             "termination": r.termination(), "plies": r.moves.len() })
        })
        .collect();
    // The crosstable counts every finished game; the ratings come from the largest group of
    // players connected by games (ratings of players who never met, directly or through others,
    // are not comparable), so that a tournament under way shows what it can from its first game.
    let games = rated_games(names, &records);
    let cross = crate::eval::ratings::crosstable(names.len(), &games);
    let group = crate::eval::ratings::connected_group(names.len(), &games);
    let rated: Vec<String> = group.iter().map(|&i| names[i].clone()).collect();
    let ratings: Vec<Value> = match rate_records(&rated, &records, &FitConfig::default()) {
        Ok(rep) if rated.len() >= 2 => rep
            .ranking()
            .into_iter()
            .map(|i| {
                let p = &rep.players[i];
                json!({ "name": p.name, "rank": p.rank, "elo": p.elo, "lo": p.elo - p.pm95, "hi": p.elo + p.pm95,
                        "games": p.games, "score": p.score_pct, "draws": p.draw_pct })
            })
            .collect(),
        _ => Vec::new(),
    };
    let unrated: Vec<&String> = (0..names.len())
        .filter(|&i| !group.contains(&i) && cross[i].iter().any(|t| t.games() > 0))
        .map(|i| &names[i])
        .collect();
    let crosstable: Vec<Vec<Value>> = if mine.is_empty() {
        Vec::new()
    } else {
        cross
            .iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .enumerate()
                    .map(|(j, t)| {
                        if i == j || t.games() == 0 {
                            Value::Null
                        } else {
                            json!({ "w": t.wins, "d": t.draws, "l": t.losses })
                        }
                    })
                    .collect()
            })
            .collect()
    };
    Ok(json!({ "games_done": mine.len(), "ratings": ratings, "unrated": unrated, "crosstable": crosstable,
               "recent": recent }))
}

/// `GET /api/runs/{name}/training`: the last 200 metrics lines, the plots and the state.
pub(crate) async fn training(
    State(st): State<Arc<AppState>>,
    UrlPath(name): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let run = run_named(&st, &name)?.clone();
    let st = st.clone();
    blocking(move || {
        let metrics_path = run.root.join("metrics.jsonl");
        let metrics = st.cache.get((metrics_path.clone(), "metrics"), &[&metrics_path], || {
            let text = match std::fs::metadata(&metrics_path) {
                Ok(m) if m.len() > MAX_FILE => return Err(ApiError::bad("metrics.jsonl is too large to show")),
                Ok(_) => {
                    std::fs::read_to_string(&metrics_path).map_err(|e| ApiError::bad(format!("metrics.jsonl: {e}")))?
                }
                Err(_) => String::new(),
            };
            let lines: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
            let skip = lines.len().saturating_sub(200);
            Ok(Value::Array(lines.into_iter().skip(skip).collect()))
        })?;
        let mut plots: Vec<String> = std::fs::read_dir(run.root.join("plots"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".png") && !n.starts_with('.'))
                    .map(|n| format!("plots/{n}"))
                    .collect()
            })
            .unwrap_or_default();
        plots.sort();
        let state = std::fs::read_to_string(run.root.join("state.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        Ok(Json(
            json!({ "name": run.name, "kind": run.kind().name(), "metrics": *metrics, "plots": plots, "state": state }),
        ))
    })
    .await
}

/// `GET /api/runs/{name}/file?path=REL`: one file of a run (plots, records, metrics).
pub(crate) async fn file(
    State(st): State<Arc<AppState>>,
    UrlPath(name): UrlPath<String>,
    Q(q): Q<FileQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let run = run_named(&st, &name)?.clone();
    let path = resolve(&run, q.rel()?)?;
    // A plot redrawn by its run gets a new size or time, so a revalidation of an unchanged one is a 304.
    let etag = std::fs::metadata(&path).ok().map(|m| {
        let t =
            m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        format!("\"{:x}-{t:x}\"", m.len())
    });
    if let Some(tag) = &etag {
        if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(tag.as_str()) {
            return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, tag.clone())]).into_response());
        }
    }
    let bytes =
        blocking(move || std::fs::read(&path).map_err(|e| ApiError::not_found(e.to_string())).map(|b| (b, path)))
            .await?;
    let (bytes, path) = bytes;
    let mime = match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "png" => "image/png",
        "json" => "application/json",
        "jsonl" | "pgn" | "txt" | "csv" | "toml" | "log" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    let mut res = ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")], bytes).into_response();
    if let Some(tag) = etag.and_then(|t| axum::http::HeaderValue::from_str(&t).ok()) {
        res.headers_mut().insert(header::ETAG, tag);
    }
    Ok(res)
}
