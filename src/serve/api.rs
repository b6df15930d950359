//! The game endpoints: `/api/info`, `/api/game`, `/api/search` (server-sent events), `/api/draw`
//! and `/api/record` (docs/WEB.md has the request and answer shapes).

use super::games::{for_game, kinds, WebGame};
use super::{ApiError, AppState, MAX_HASH_MB};
use crate::catalog::GameId;
use crate::eval::TextRecord;
use crate::game::line::move_number_label;
use crate::game::Color;
use crate::game::{legal_moves, EndRule, Game, Outcome, Status};
use crate::player::spec::PlayerSpec;
use crate::player::{Go, Player, SearchInfo, Turn};
use crate::rules::{Cell, Ruleset, Variant};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// The most moves a request's game may hold.
pub const MAX_MOVES: usize = 2000;
/// The longest position text a request may hold, in bytes (Mixed 3D's eight levels take up to
/// about 640).
pub const MAX_TEXT: usize = 1000;
/// How long a search's last event waits for a page that does not read.
const FINAL_WAIT: Duration = Duration::from_secs(10);
/// How long the engine thinks about a draw offer.
const DRAW_THINK: Duration = Duration::from_millis(200);

/// Every field a game request may carry; each endpoint uses the ones it needs. Unknown fields are
/// refused, so a typo is an error, not a silently ignored setting.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameRequest {
    #[serde(default)]
    ruleset: Option<String>,
    #[serde(default)]
    castling: bool,
    #[serde(default)]
    hypercylinder: bool,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// `/api/search`, `/api/draw`: the engine.
    #[serde(default)]
    spec: Option<String>,
    /// `/api/search`: analyse until stopped.
    #[serde(default)]
    infinite: bool,
    /// `/api/draw`: the engine's colour (default: the side to move).
    #[serde(default)]
    side: Option<String>,
    /// `/api/record`: players, event, result and termination of an unfinished game.
    #[serde(default)]
    white: Option<String>,
    #[serde(default)]
    black: Option<String>,
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    termination: Option<String>,
    /// `/api/search`: the game clocks of a timed game (the engine spends them as in a match).
    #[serde(default)]
    clock: Option<ClockRequest>,
    /// `/api/record`: the time control of a timed game (`300+3`), written as a `TimeControl` tag.
    #[serde(default)]
    time_control: Option<String>,
}

/// The clocks of a timed game as the page keeps them: milliseconds left and added per move.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    white_ms: u64,
    black_ms: u64,
    #[serde(default)]
    white_inc_ms: u64,
    #[serde(default)]
    black_inc_ms: u64,
}

/// The longest time a clock may show: a day.
const MAX_CLOCK_MS: u64 = 24 * 3600 * 1000;

impl ClockRequest {
    /// The player's view of these clocks, or a 400 naming an absurd value.
    fn to_clock(&self) -> Result<crate::player::clock::Clock, ApiError> {
        for (name, v) in [
            ("white_ms", self.white_ms),
            ("black_ms", self.black_ms),
            ("white_inc_ms", self.white_inc_ms),
            ("black_inc_ms", self.black_inc_ms),
        ] {
            if v > MAX_CLOCK_MS {
                return Err(ApiError::bad(format!("clock.{name}: at most {MAX_CLOCK_MS} ms (a day), got {v}")));
            }
        }
        let ms = Duration::from_millis;
        Ok(crate::player::clock::Clock {
            remaining: [ms(self.white_ms), ms(self.black_ms)],
            increment: [ms(self.white_inc_ms), ms(self.black_inc_ms)],
            moves_to_go: None,
        })
    }
}

/// A time control as the page writes it: minutes or seconds as `BASE+INC` in seconds (`300+3`).
fn time_control_tag(tc: &str) -> Result<String, ApiError> {
    let tc = tc.trim();
    let ok = tc.split_once('+').is_some_and(|(b, i)| {
        b.parse::<f64>().is_ok_and(|b| b.is_finite() && b > 0.0)
            && i.parse::<f64>().is_ok_and(|i| i.is_finite() && i >= 0.0)
    });
    if !ok || tc.len() > 20 {
        return Err(ApiError::bad(format!(
            "time_control: expected BASE+INCREMENT in seconds such as 300+3, got {:?}",
            crate::player::text::clip(tc)
        )));
    }
    Ok(tc.to_string())
}

/// The JSON body of a request, with serde's message as a 400 (axum's own rejection is plain text).
pub(crate) struct Body<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::new(e.status(), format!("cannot read the request body: {}", e.body_text())))?;
        serde_json::from_slice(&bytes).map(Body).map_err(|e| ApiError::bad(format!("bad request body: {e}")))
    }
}

/// The game a request names (`fiveup` when it names none).
pub(crate) fn game_of(req: &GameRequest) -> Result<GameId, ApiError> {
    let name = req.ruleset.as_deref().unwrap_or("fiveup").trim();
    name.parse().map_err(|e| ApiError::bad(format!("ruleset: {e}")))
}

/// The start position a request names.
fn start_of<S: WebGame>(req: &GameRequest, game: GameId) -> Result<S, ApiError> {
    let text = match req.start.as_deref().map(str::trim) {
        None | Some("") | Some("startpos") => None,
        Some(text) if text.len() > MAX_TEXT => {
            return Err(ApiError::bad(format!(
                "start: a position text is at most {MAX_TEXT} bytes (got {})",
                text.len()
            )))
        }
        Some(text) => Some(text),
    };
    S::named_start(game, req.castling, req.hypercylinder, text).map_err(ApiError::bad)
}

/// Replays a request's game: every move must be legal and the game must not have ended before it.
pub(crate) fn replay<S: WebGame>(req: &GameRequest, game: GameId) -> Result<Game<S>, ApiError> {
    if req.moves.len() > MAX_MOVES {
        return Err(ApiError::bad(format!("moves: at most {MAX_MOVES} (got {})", req.moves.len())));
    }
    let mut g = Game::new(start_of::<S>(req, game)?);
    for (i, text) in req.moves.iter().enumerate() {
        let shown = crate::player::text::clip(text);
        if let Status::Over(o) = g.status() {
            return Err(ApiError::bad(format!("move {} ({shown}): the game is over ({o})", i + 1)));
        }
        let m = g.position().parse_move(text).map_err(|e| ApiError::bad(format!("move {} ({shown}): {e}", i + 1)))?;
        g.play(m).map_err(|e| ApiError::bad(format!("move {} ({shown}): {e}", i + 1)))?;
    }
    Ok(g)
}

/// The answer of `/api/game`: the position after the moves, with everything the page shows.
pub(crate) fn game_json<S: WebGame>(game: &Game<S>) -> Value {
    let pos = game.position();
    let mut history = Vec::with_capacity(game.moves().len());
    let mut p = game.start().clone();
    for (i, &m) in game.moves().iter().enumerate() {
        let (from, to) = p.cells(m);
        history.push(json!({
            "ply": i + 1,
            "label": move_number_label(&p),
            "coord": p.coordinate(m),
            "figurine": p.figurine(m),
            "from": from,
            "to": to,
        }));
        p.make(m);
    }
    let status = game.status();
    let over = status.outcome();
    let legal: Vec<Value> =
        if over.is_some() { Vec::new() } else { legal_moves(pos).into_iter().map(|m| pos.move_json(m)).collect() };
    let mut v = json!({
        "ruleset": pos.game_name(),
        "start": game.start().to_text(),
        "text": pos.to_text(),
        "side": pos.side().name(),
        "fullmove": pos.fullmove(),
        "board": pos.board_json(),
        "status": match status { Status::Ongoing => "ongoing", Status::Check => "check", Status::Over(_) => "over" },
        "result": over.map(|o| o.result()),
        "termination": over.map(|o| o.rule.name()),
        "history": history,
        "movetext": S::movetext(game.start(), game.moves()),
        "legal": legal,
    });
    if let Value::Object(map) = &mut v {
        map.extend(pos.extra_json().into_iter().map(|(k, x)| (k.to_string(), x)));
    }
    v
}

/// The player specs `/api/info` suggests for a game: the built-in list, then the server's
/// `--engine` specs whose kind plays the game.
fn suggested_players(st: &AppState, game: GameId) -> Vec<String> {
    let builtin: &[&str] = match game {
        GameId::FiveUp(_) => &[
            "ab:time=0.5",
            "ab:time=2",
            "ab:depth=4",
            "ab:time=0.5,eval=auto",
            "mcts:ab,sims=400",
            "ab:depth=1",
            "random",
        ],
        GameId::QuasiAlice => &["ab:time=0.5", "ab:time=2", "ab:depth=4", "ab:depth=1", "random"],
        GameId::Mixed3d => &["ab:time=0.5", "ab:time=2", "ab:depth=3", "ab:depth=1", "random"],
    };
    let plays = |spec: &PlayerSpec| match (game, spec) {
        (GameId::FiveUp(_), _) => true,
        (GameId::QuasiAlice | GameId::Mixed3d, PlayerSpec::Mcts(_)) => false,
        (GameId::QuasiAlice | GameId::Mixed3d, PlayerSpec::AlphaBeta(ab)) => {
            !matches!(ab.eval, crate::player::spec::EvalChoice::Nnue(_) | crate::player::spec::EvalChoice::Shipped)
        }
        (GameId::QuasiAlice | GameId::Mixed3d, _) => true,
    };
    let engines = st.config.engines.iter().filter(|e| e.parse::<PlayerSpec>().is_ok_and(|s| plays(&s)));
    builtin.iter().map(|s| s.to_string()).chain(engines.cloned()).collect()
}

/// `GET /api/info`.
pub(crate) async fn info(State(st): State<Arc<AppState>>) -> Json<Value> {
    let rulesets: Vec<Value> = crate::catalog::ALL
        .iter()
        .map(|&g| {
            let kinds: Vec<Value> =
                kinds(g).into_iter().map(|(l, name)| json!({ "letter": l.to_string(), "name": name })).collect();
            let (castling, hypercylinder) = match g {
                GameId::FiveUp(r) => (r != Ruleset::Raumschach, Variant::new(r, false, true).is_ok()),
                GameId::QuasiAlice | GameId::Mixed3d => (false, false),
            };
            json!({ "name": g.name(), "castling": castling, "hypercylinder": hypercylinder, "kinds": kinds,
                    "players": suggested_players(&st, g) })
        })
        .collect();
    let cells: Vec<Value> = Cell::all()
        .map(|c| {
            let name = c.to_string();
            json!({ "name": name, "level": &name[0..1], "file": &name[1..2], "rank": c.rank() + 1 })
        })
        .collect();
    let players = suggested_players(&st, GameId::FiveUp(Ruleset::FiveUp));
    let runs: Vec<Value> = st.config.runs.iter().map(|r| json!({ "name": r.name, "kind": r.kind().name() })).collect();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "rulesets": rulesets,
        "cells": cells,
        "players": players,
        "specs_help": crate::player::spec::accepted(),
        "limits": { "max_searches": st.config.max_searches, "max_think_s": st.config.max_think.as_secs_f64() },
        "runs": runs,
    }))
}

/// `POST /api/game`.
pub(crate) async fn game(
    State(st): State<Arc<AppState>>,
    Body(req): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    let id = game_of(&req)?;
    for_game!(id, S => {
        let game = replay::<S>(&req, id)?;
        let mut v = game_json(&game);
        if let (Some(tb), Value::Object(map)) = (&st.tablebases, &mut v) {
            if game.status().outcome().is_none() {
                map.insert("tablebase".into(), game.position().tablebase_json(tb).unwrap_or(Value::Null));
            }
        }
        Ok(Json(v))
    })
}

/// The player a page asks for: parsed, within the server's limits, and naming no file or program
/// unless the server allowed that spec with `--engine`.
pub(crate) fn web_player(st: &AppState, text: Option<&str>) -> Result<PlayerSpec, ApiError> {
    let text = text
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ApiError::bad("spec: missing (e.g. ab:time=0.5)"))?;
    let spec: PlayerSpec = text.parse().map_err(|e: crate::player::spec::SpecError| {
        ApiError::bad(format!("spec: {}", e.to_string().lines().next().unwrap_or("")))
    })?;
    let canonical = spec.to_string();
    if st.allowed.contains(&canonical) {
        return Ok(spec);
    }
    let names_outside = match &spec {
        PlayerSpec::Uci(_) => Some("starts a program"),
        PlayerSpec::AlphaBeta(ab) if ab.values.is_some() => Some("reads a values file"),
        PlayerSpec::AlphaBeta(ab) if matches!(ab.eval, crate::player::spec::EvalChoice::Nnue(_)) => {
            Some("reads a network file")
        }
        PlayerSpec::Mcts(m) if matches!(m.evaluator, crate::player::spec::EvaluatorSpec::Net(_)) => {
            Some("reads a network")
        }
        _ => None,
    };
    if let Some(what) = names_outside {
        return Err(ApiError::forbidden(format!(
            "spec {} {what}; start the server with --engine '{canonical}' to allow it",
            crate::player::text::clip(text)
        )));
    }
    if matches!(&spec, PlayerSpec::AlphaBeta(ab) if ab.tablebases.is_some()) {
        return Err(ApiError::forbidden(format!(
            "spec {} reads endgame tables; start the server with --tablebases DIR to give every alpha-beta player its tables",
            crate::player::text::clip(text)
        )));
    }
    let mut spec = spec;
    if let (PlayerSpec::AlphaBeta(ab), Some(dir)) = (&mut spec, &st.config.tablebases) {
        ab.tablebases = Some(dir.clone());
    }
    if let PlayerSpec::AlphaBeta(ab) = &spec {
        if ab.hash_mb > MAX_HASH_MB {
            return Err(ApiError::bad(format!(
                "spec: hash={} is over this server's limit of {MAX_HASH_MB} MiB",
                ab.hash_mb
            )));
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if ab.threads > cores {
            return Err(ApiError::bad(format!(
                "spec: threads={} is more than this machine's {cores} cores",
                ab.threads
            )));
        }
    }
    Ok(spec)
}

/// A score as the page reads it: `{"cp": N}` or `{"mate": N}` (moves; negative: being mated).
fn score_json(s: crate::engine::Score) -> Value {
    match s.mate_in() {
        Some(n) => json!({ "mate": n }),
        None => json!({ "cp": s.0 }),
    }
}

/// A search's progress as the page shows it; the PV is cut at its first move that is not legal
/// (an outside engine may send anything).
pub(crate) fn info_json<S: WebGame>(pos: &S, info: &SearchInfo<S::Move>) -> Value {
    let score = info.score.map(score_json);
    let mut pv = Vec::new();
    let mut p = pos.clone();
    for &m in &info.pv {
        if !p.is_legal(m) {
            break;
        }
        pv.push(p.pv_json(m));
        p.make(m);
    }
    let secs = info.time.as_secs_f64();
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score,
        "nodes": info.nodes,
        "nps": if secs > 0.0 { (info.nodes as f64 / secs) as u64 } else { 0 },
        "time_ms": info.time.as_millis() as u64,
        "pv": pv,
        "wdl": info.wdl,
    })
}

/// An event stream that stops its search when it is dropped (the page closed the stream), and
/// notes when it was last asked for an event ([`unread_too_long`]).
pub(crate) struct StopOnDrop {
    rx: tokio::sync::mpsc::Receiver<Event>,
    stop: Arc<AtomicBool>,
    /// When the server last asked for an event: milliseconds since `since`.
    polled: Arc<std::sync::atomic::AtomicU64>,
    since: Instant,
}

impl futures_core::Stream for StopOnDrop {
    type Item = Result<Event, std::convert::Infallible>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let ms = self.since.elapsed().as_millis() as u64;
        self.polled.store(ms, Ordering::Relaxed);
        self.rx.poll_recv(cx).map(|e| e.map(Ok))
    }
}

/// How long an event may wait unread before the search is stopped.
pub(crate) const UNREAD_LIMIT: Duration = Duration::from_secs(10);

/// Whether a search's page has stopped reading: an event has been waiting since `waiting_since`
/// (the connection's buffers are full, so the server no longer asks for events), the stream has
/// not been asked for one since, and that for more than [`UNREAD_LIMIT`]. A page that keeps
/// reading is asked again within moments of every event. Times since the search started.
pub(crate) fn unread_too_long(waiting_since: Option<Duration>, last_asked: Duration, now: Duration) -> bool {
    waiting_since.is_some_and(|w| last_asked < w && now.saturating_sub(w) > UNREAD_LIMIT)
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/player`: whether the page can play against `spec` in this game, checked the way a
/// search would (allowed here, parses, builds: a network loads, an outside engine shakes hands):
/// `{"name": canonical spec}`, or the error a search would get (400, 403), before a game starts.
pub(crate) async fn player(
    State(st): State<Arc<AppState>>,
    Body(req): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    let id = game_of(&req)?;
    for_game!(id, S => player_game::<S>(st, req, id).await)
}

async fn player_game<S: WebGame>(st: Arc<AppState>, req: GameRequest, id: GameId) -> Result<Json<Value>, ApiError> {
    replay::<S>(&req, id)?;
    let spec = web_player(&st, req.spec.as_deref())?;
    let name = spec.to_string();
    tokio::task::spawn_blocking(move || S::build_player(&spec).map(drop))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("player build failed: {e}")))?
        .map_err(|e| ApiError::bad(format!("spec: {e}")))?;
    Ok(Json(json!({ "name": name })))
}

/// `POST /api/search`: checks everything, takes a search slot (429 when none is free), then
/// streams `info` events and one `bestmove` (or `error`) event.
pub(crate) async fn search(
    State(st): State<Arc<AppState>>,
    Body(req): Body<GameRequest>,
) -> Result<axum::response::Response, ApiError> {
    let id = game_of(&req)?;
    for_game!(id, S => search_game::<S>(st, req, id).await)
}

async fn search_game<S: WebGame>(
    st: Arc<AppState>,
    req: GameRequest,
    id: GameId,
) -> Result<axum::response::Response, ApiError> {
    let game = replay::<S>(&req, id)?;
    if let Status::Over(o) = game.status() {
        return Err(ApiError::new(StatusCode::CONFLICT, format!("the game is over ({o})")));
    }
    let spec = web_player(&st, req.spec.as_deref())?;
    let clock = match &req.clock {
        Some(_) if req.infinite => return Err(ApiError::bad("clock: an infinite search has no clock")),
        Some(c) => Some(c.to_clock()?),
        None => None,
    };
    let busy =
        format!("{} searches are running (this server's limit); try again when one ends", st.config.max_searches);
    let permit = st.slot(&busy).await?;
    // Build here, so a player that cannot be built (a network that fails to load) is a clear 400.
    let mut player = tokio::task::spawn_blocking(move || S::build_player(&spec))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("player build failed: {e}")))?
        .map_err(|e| ApiError::bad(format!("spec: {e}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    player.set_stop_flag(stop.clone());
    let max_think = st.config.max_think;
    let go = if req.infinite {
        Go { infinite: true, ..Go::default() }
    } else {
        Go { movetime: Some(max_think), clock, ..Go::default() }
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(64);
    let (since, polled) = (Instant::now(), Arc::new(std::sync::atomic::AtomicU64::new(0)));
    // The watchdog: --max-think, the server shutting down, or a page that has stopped reading
    // (an event waiting unread for UNREAD_LIMIT) stops the search. It holds a weak sender only,
    // so that the stream still ends when the search thread drops its own.
    let watchdog = stop.clone();
    let (waiting, asked) = (tx.downgrade(), polled.clone());
    tokio::spawn(async move {
        let deadline = tokio::time::Instant::now() + max_think;
        let mut waiting_since: Option<Duration> = None;
        while tokio::time::Instant::now() < deadline && !super::shutting_down() && !watchdog.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let pending = waiting.upgrade().is_some_and(|t| t.capacity() < t.max_capacity());
            let last = Duration::from_millis(asked.load(Ordering::Relaxed));
            let now = since.elapsed();
            waiting_since = match waiting_since {
                Some(w) if pending && last < w => Some(w),
                _ if pending => Some(now),
                _ => None,
            };
            if unread_too_long(waiting_since, last, now) {
                tracing::info!("a search's page stopped reading for {} s: search stopped", UNREAD_LIMIT.as_secs());
                break;
            }
        }
        watchdog.store(true, Ordering::Relaxed);
    });
    let flag = stop.clone();
    let rt = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        run_search(&rt, &mut *player, &game, &go, &flag, &tx);
        // Done: this also ends the watchdog.
        flag.store(true, Ordering::Relaxed);
    });
    Ok(Sse::new(StopOnDrop { rx, stop, polled, since })
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response())
}

/// Runs one search on this (blocking) thread, sending events until the page goes away.
fn run_search<S: WebGame>(
    rt: &tokio::runtime::Handle,
    player: &mut dyn Player<S>,
    game: &Game<S>,
    go: &Go<S::Move>,
    stop: &AtomicBool,
    tx: &tokio::sync::mpsc::Sender<Event>,
) {
    let pos = game.position();
    // Progress is dropped when the page reads too slowly (a full channel); the last event waits
    // for room up to FINAL_WAIT, so a page that stops reading cannot hold a search thread.
    let send = |name: &str, data: Value| {
        let event = Event::default().event(name).data(data.to_string());
        let gone = match tx.try_send(event) {
            Ok(()) => false,
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => true,
            Err(tokio::sync::mpsc::error::TrySendError::Full(event)) if name != "info" => {
                rt.block_on(tokio::time::timeout(FINAL_WAIT, tx.send(event))).map_or(true, |r| r.is_err())
            }
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => false,
        };
        if gone {
            // The page is gone: stop searching.
            stop.store(true, Ordering::Relaxed);
        }
    };
    let turn = Turn { pos, history: game.history(), start: game.start(), moves: game.moves(), go };
    let mut reported = false;
    let result = player.play(&turn, &mut |info| {
        reported = true;
        send("info", info_json(pos, info));
    });
    match result {
        Ok(c) if pos.is_legal(c.mv) => {
            let info = info_json(pos, &c.info);
            if !reported {
                send("info", info.clone());
            }
            send("bestmove", json!({ "coord": pos.coordinate(c.mv), "figurine": pos.figurine(c.mv), "info": info }));
        }
        Ok(c) => send(
            "error",
            json!({ "error": format!("the engine answered {}, which is not legal here", pos.coordinate(c.mv)) }),
        ),
        Err(e) => send("error", json!({ "error": e.to_string().lines().next().unwrap_or("").to_string() })),
    }
}

/// `POST /api/draw`: the engine (of colour `side`, by default the side to move) thinks briefly
/// about the position and accepts when it does not think itself better.
pub(crate) async fn draw(
    State(st): State<Arc<AppState>>,
    Body(req): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    let id = game_of(&req)?;
    for_game!(id, S => draw_game::<S>(st, req, id).await)
}

async fn draw_game<S: WebGame>(st: Arc<AppState>, req: GameRequest, id: GameId) -> Result<Json<Value>, ApiError> {
    let game = replay::<S>(&req, id)?;
    if let Status::Over(o) = game.status() {
        return Err(ApiError::new(StatusCode::CONFLICT, format!("the game is over ({o})")));
    }
    let spec = web_player(&st, req.spec.as_deref())?;
    let mover = game.position().side();
    let engine = match req.side.as_deref().map(str::trim) {
        None | Some("") => mover,
        Some("white") => Color::White,
        Some("black") => Color::Black,
        Some(s) => {
            return Err(ApiError::bad(format!("side: expected white or black, got '{}'", crate::player::text::clip(s))))
        }
    };
    let permit = st.slot("the engines are busy; offer again in a moment").await?;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut player = S::build_player(&spec).map_err(|e| ApiError::bad(format!("spec: {e}")))?;
        let go = Go { movetime: Some(DRAW_THINK), ..Go::default() };
        let turn =
            Turn { pos: game.position(), history: game.history(), start: game.start(), moves: game.moves(), go: &go };
        let choice = player.play(&turn, &mut |_| {}).map_err(|e| ApiError::bad(e.to_string()))?;
        // The search scores for the side to move; the engine judges from its own side.
        let (score, wdl) = match (engine == mover, choice.info.score, choice.info.wdl) {
            (true, s, w) => (s, w),
            (false, s, w) => (s.map(|s| crate::engine::Score(-s.0)), w.map(|[w, d, l]| [l, d, w])),
        };
        let accepted = match (score, wdl) {
            (Some(s), _) => s.0 <= 0,
            (None, Some([w, _, l])) => w <= l,
            (None, None) => false,
        };
        let score = score.map(score_json);
        Ok::<Value, ApiError>(
            json!({ "accepted": accepted, "score": score, "info": info_json(game.position(), &choice.info) }),
        )
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("draw offer failed: {e}")))??;
    Ok(Json(answer))
}

/// `POST /api/record`: the game as a record text (docs: [`crate::eval::records`]). A finished game
/// takes its result from the rules; an unfinished one may end by `resignation` (with the winner's
/// result) or `agreement` (a draw), or be saved unfinished (`*`).
pub(crate) async fn record(Body(req): Body<GameRequest>) -> Result<Json<Value>, ApiError> {
    let id = game_of(&req)?;
    for_game!(id, S => record_game::<S>(&req, id))
}

fn record_game<S: WebGame>(req: &GameRequest, id: GameId) -> Result<Json<Value>, ApiError> {
    let game = replay::<S>(req, id)?;
    let (outcome, detail) = match (game.status(), req.result.as_deref(), req.termination.as_deref()) {
        (Status::Over(o), _, _) => (Some(o), None),
        (_, None, None) => (None, None),
        (_, Some("1-0"), Some("resignation")) => (Some(Outcome::win(Color::White, EndRule::Resignation)), None),
        (_, Some("0-1"), Some("resignation")) => (Some(Outcome::win(Color::Black, EndRule::Resignation)), None),
        (_, Some("1/2-1/2"), Some("agreement")) => (Some(Outcome::draw(EndRule::Adjudication)), Some("agreement".to_string())),
        // The flag of the side to move fell: as a match's runner rules it (a draw against a bare
        // king). A result given must be that one; none asks for it (the answer's `result`).
        (_, r, Some("time-forfeit")) => {
            let outcome = crate::eval::runner::lost_by(&game, game.position().side());
            if let Some(r) = r.filter(|r| *r != outcome.result()) {
                return Err(ApiError::bad(format!(
                    "result {} with termination time-forfeit: the flag of the side to move fell, so the result is {}",
                    crate::player::text::clip(r),
                    outcome.result()
                )));
            }
            (Some(outcome), Some("time-forfeit".to_string()))
        }
        (_, r, t) => {
            return Err(ApiError::bad(format!(
                "result {:?} with termination {:?}: an unfinished game ends only by resignation (1-0 or 0-1), agreement (1/2-1/2) or time-forfeit",
                r.map(crate::player::text::clip),
                t.map(crate::player::text::clip)
            )))
        }
    };
    for (field, value) in [("white", &req.white), ("black", &req.black), ("event", &req.event)] {
        if value.as_deref().is_some_and(|v| v.chars().any(char::is_control)) {
            return Err(ApiError::bad(format!(
                "{field}: control characters (a line break, a tab) cannot go into a record"
            )));
        }
    }
    let name = |s: &Option<String>, default: &str| {
        let s = s.as_deref().map(str::trim).filter(|s| !s.is_empty()).unwrap_or(default);
        crate::player::text::clip(s)
    };
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let rec: TextRecord<S> = TextRecord {
        event: name(&req.event, "web"),
        white: name(&req.white, "white"),
        black: name(&req.black, "black"),
        start: game.start().clone(),
        moves: game.moves().to_vec(),
        opening_plies: 0,
        outcome,
        detail,
        tags: match &req.time_control {
            Some(tc) => vec![("TimeControl".to_string(), time_control_tag(tc)?)],
            None => Vec::new(),
        },
    };
    Ok(Json(json!({ "text": rec.to_text(), "filename": format!("fiveup-{secs}.pgn"), "result": rec.result_text() })))
}
