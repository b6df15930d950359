//! `fiveup serve`: the web page (play, analyse, replay, watch) and its JSON API, on axum/tokio.
//!
//! # Design
//! - **Stateless games.** The page holds a game as (ruleset, flags, start, moves) and sends it with
//!   every request ([`api::GameRequest`]); the server replays it with [`crate::game::Game`]
//!   (the one rule set) and answers the whole position: board, legal moves in the game's
//!   notations, status. Nothing about a game lives on the server, so there is nothing to leak,
//!   expire or lose, and a reload of the page loses nothing the URL and the page do not hold.
//! - **One API for every game.** The endpoints are written once over [`games::WebGame`] (what
//!   the page needs of a game: its start from a request, move texts, board and legal moves as
//!   JSON), implemented by the 5x5x5 games and 4D Quasi-Alice; the request's ruleset picks one.
//! - **Searches** run on blocking threads ([`tokio::task::spawn_blocking`]) through the one
//!   [`crate::player::Player`] interface, so every spec the CLI accepts plays here too. Progress
//!   streams to the page as server-sent events. A semaphore caps the searches running at once
//!   (429 past it), every search is capped by `--max-think` (a stop flag set by a watchdog), and a
//!   page that goes away stops its search: the event stream's drop sets the stop flag.
//! - **What the page may name.** Specs that read a file or start a program (`uci:`, `values=`,
//!   `eval=nnue:FILE`, `net=`) are allowed only when the server was started with that exact spec in
//!   `--engine`; table sizes and thread counts are capped. Records, plots and metrics are read only
//!   from the directories given with `--runs`, by paths checked to stay inside them
//!   ([`runs::resolve`]).
//! - **Cross-site requests.** The server binds to loopback unless told otherwise, refuses a
//!   request whose `Origin` is not its own `Host`, and takes POST bodies only as
//!   `application/json` (or `text/plain` for record text), so another site's page cannot drive it.
//! - **Watching** reads run directories as they are written (a tournament's `games.pgn` and its
//!   `live/` files, a training run's `metrics.jsonl` and plots) and caches what it computes per
//!   file size and modification time, so many viewers cost the runs nothing measurable.
//! - **Assets** (`web/static/`) are embedded in the binary by `build.rs` ([`assets`]); every
//!   answer carries a Content-Security-Policy that allows only this server's own scripts (the
//!   page's inline import map by its hash), styles, images and connections.
//! - **Slow or broken clients.** A request must name its `Host` (HTTP/1.0 without one is a 400).
//!   A request head must arrive within [`HEAD_TIMEOUT`] (hyper's header timer; the connection is
//!   then closed) and a body within [`BODY_TIMEOUT`] (408), so a client that stalls half-way holds
//!   nothing for long. The server runs its own accept loop for that ([`serve`]).

mod api;
mod assets;
mod games;
mod runs;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use runs::{RunKind, ServedDir};

/// Settings of the server.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address and port to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// Run directories the page may read, each named by its last path component (made unique).
    pub runs: Vec<ServedDir>,
    /// Extra player specs the page offers; specs naming a file or a program are allowed only here.
    pub engines: Vec<String>,
    /// Searches running at once.
    pub max_searches: usize,
    /// The longest one search may run.
    pub max_think: Duration,
    /// Host names (as in the Host header, without port) a server on a non-loopback address
    /// answers to besides loopback names; empty: any.
    pub allow_hosts: Vec<String>,
    /// A folder of endgame tables: positions they hold are shown with their value and the
    /// page's alpha-beta players probe them.
    pub tablebases: Option<std::path::PathBuf>,
}

/// The largest transposition table a page may ask for, in MiB.
pub const MAX_HASH_MB: usize = 256;
/// The largest request body, in bytes (record text for parsing included).
pub const MAX_BODY: usize = 4 << 20;
/// The longest a client may take to send a request's head; the connection is then closed.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a client may take to send a request's body (408 after it).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// What the handlers share.
pub(crate) struct AppState {
    pub config: ServeConfig,
    pub searches: Arc<tokio::sync::Semaphore>,
    pub cache: runs::Cache,
    /// Canonical strings of the `--engine` specs.
    pub allowed: Vec<String>,
    /// The tables of [`ServeConfig::tablebases`], opened at start.
    pub tablebases: Option<Arc<crate::tablebase::Tablebases>>,
}

/// An error answered as `{"error": "..."}` with a status.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }
}

/// The longest error message answered, in characters (a message quoting a huge input is cut).
const MAX_ERROR: usize = 300;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let one_line = self.message.lines().next().unwrap_or("");
        let text = match one_line.char_indices().nth(MAX_ERROR) {
            Some((i, _)) => format!("{}...", &one_line[..i]),
            None => one_line.to_string(),
        };
        (self.status, Json(serde_json::json!({ "error": text }))).into_response()
    }
}

/// How long a new search waits for a slot before it is answered 429 (a page that has just
/// stopped its previous search gets the slot back within this).
pub(crate) const SLOT_WAIT: Duration = Duration::from_millis(500);

impl AppState {
    /// A search slot, waiting up to [`SLOT_WAIT`] for one; `busy` is the 429's message.
    pub(crate) async fn slot(&self, busy: &str) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        match tokio::time::timeout(SLOT_WAIT, self.searches.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, busy)),
        }
    }
}

/// Why the server could not start, or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The `--tablebases` folder cannot be opened.
    #[error("--tablebases: {0}")]
    Tablebases(crate::tablebase::OpenError),
    /// An `--engine` spec (clipped) does not parse; the message keeps the first line of the reason.
    #[error("--engine {spec}: {}", source.to_string().lines().next().unwrap_or(""))]
    Engine {
        /// The spec as given, clipped.
        spec: String,
        /// Why it does not parse.
        source: crate::player::spec::SpecError,
    },
    /// A `--runs` path cannot be resolved.
    #[error("--runs {}: {source}", path.display())]
    RunsPath {
        /// The path as given.
        path: PathBuf,
        /// Why it cannot be resolved.
        source: std::io::Error,
    },
    /// A `--runs` path is not a directory.
    #[error("--runs {}: not a directory", .0.display())]
    RunsNotDir(PathBuf),
    /// The async runtime could not be started.
    #[error("cannot start the server runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why it cannot be bound.
        source: std::io::Error,
    },
    /// The bound address could not be read, or the `listening on` line not written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The server stopped with an error.
    #[error("server error: {0}")]
    Server(#[source] std::io::Error),
}

/// The whole application: API routes, run files and the embedded page.
pub fn router(config: ServeConfig) -> Result<Router, ServeError> {
    let mut allowed = Vec::new();
    for e in &config.engines {
        let spec: crate::player::spec::PlayerSpec =
            e.parse().map_err(|source| ServeError::Engine { spec: crate::player::text::clip(e), source })?;
        allowed.push(spec.to_string());
    }
    let tablebases = match &config.tablebases {
        Some(dir) => Some(crate::tablebase::Tablebases::open_shared(dir).map_err(ServeError::Tablebases)?),
        None => None,
    };
    let state = Arc::new(AppState {
        tablebases,
        searches: Arc::new(tokio::sync::Semaphore::new(config.max_searches.max(1))),
        cache: runs::Cache::default(),
        allowed,
        config,
    });
    Ok(Router::new()
        .route("/api/info", get(api::info))
        .route("/api/game", post(api::game))
        .route("/api/search", post(api::search))
        .route("/api/player", post(api::player))
        .route("/api/draw", post(api::draw))
        .route("/api/record", post(api::record))
        .route("/api/records/parse", post(runs::parse_records_text))
        .route("/api/runs", get(runs::list))
        .route("/api/runs/{name}/records", get(runs::records))
        .route("/api/runs/{name}/tournament", get(runs::tournament))
        .route("/api/runs/{name}/training", get(runs::training))
        .route("/api/runs/{name}/file", get(runs::file))
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .fallback(get(assets::serve_asset))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state))
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {} (see docs/WEB.md)", uri.path()),
    )
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("no such API endpoint (see docs/WEB.md)")
}

/// The name or address of a Host header, without its port (`[::1]:80` → `::1`).
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit())).map_or(host, |(h, _)| h)
    }
}

/// Whether `host` (a Host header: name or address, optional port) names this machine's loopback.
fn loopback_host(host: &str) -> bool {
    let name = host_name(host);
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Refuses cross-origin requests, requests to a loopback server that name another host (DNS
/// rebinding: a page of another site whose name was made to point at 127.0.0.1 sends its own
/// name as Host and Origin), and POST bodies of other content types (a cross-site form or a
/// simple request cannot send `application/json` without a preflight, which is never answered).
async fn guard(State(st): State<Arc<AppState>>, headers: HeaderMap, req: Request, next: Next) -> Response {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if host.is_none() {
        return ApiError::bad("the request names no Host (send a Host header, as HTTP/1.1 requires)").into_response();
    }
    let allowed =
        |h: &str| loopback_host(h) || st.config.allow_hosts.iter().any(|a| a.eq_ignore_ascii_case(host_name(h)));
    let checked = st.config.addr.ip().is_loopback() || !st.config.allow_hosts.is_empty();
    if let Some(h) = host.filter(|h| checked && !allowed(h)) {
        return ApiError::forbidden(format!(
            "this server does not answer to the host {} (loopback names{} only; see --bind and --allow-host)",
            crate::player::text::clip(h),
            if st.config.allow_hosts.is_empty() {
                String::new()
            } else {
                format!(" and {}", st.config.allow_hosts.join(", "))
            }
        ))
        .into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
        let origin = origin.to_str().unwrap_or("");
        let origin_host = origin.split_once("://").map_or("", |(_, h)| h);
        if origin_host != host {
            return ApiError::forbidden(format!(
                "cross-origin request from {} refused",
                crate::player::text::clip(origin)
            ))
            .into_response();
        }
    }
    let mut req = req;
    if req.method() == Method::POST {
        let ct = headers.get(header::CONTENT_TYPE).and_then(|h| h.to_str().ok()).unwrap_or("");
        let media = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        let wanted = if req.uri().path() == "/api/records/parse" { "text/plain" } else { "application/json" };
        if media != wanted {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!("send the body as {wanted} (got '{}')", crate::player::text::clip(ct)),
            )
            .into_response();
        }
        // The whole body within BODY_TIMEOUT (a client that stalls half-way is answered 408).
        let (parts, body) = req.into_parts();
        let bytes = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await {
            Ok(Ok(b)) => b,
            Ok(Err(_)) => {
                return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is over {MAX_BODY} bytes"))
                    .into_response()
            }
            Err(_) => {
                return ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("the request body did not arrive within {} s", BODY_TIMEOUT.as_secs()),
                )
                .into_response()
            }
        };
        req = Request::from_parts(parts, axum::body::Body::from(bytes));
    }
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, assets::content_security_policy());
    h.insert(header::X_FRAME_OPTIONS, axum::http::HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, axum::http::HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, axum::http::HeaderValue::from_static("no-referrer"));
    res
}

/// Binds, prints `listening on http://ADDR/` (the real port when 0 was asked for) and serves until
/// Ctrl-C or SIGTERM. Errors (the port in use, a bad `--engine`) come back before anything is
/// served.
pub fn serve(config: ServeConfig, out: &mut dyn std::io::Write) -> Result<(), ServeError> {
    let app = router(config.clone())?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServeError::Listen { addr: config.addr, source })?;
        let addr = listener.local_addr()?;
        // The stop signals are taken before the address is announced: a SIGTERM sent as soon as
        // the server is known to listen must stop it cleanly, not kill it.
        let stop = shutdown()?;
        writeln!(out, "listening on http://{addr}/").and_then(|()| out.flush())?;
        tracing::info!("serving on {addr}; runs: {}", config.runs.len());
        accept_loop(listener, app, stop).await;
        Ok(())
    })
}

/// Serves connections until Ctrl-C or SIGTERM, each an HTTP/1 connection whose request heads must
/// arrive within [`HEAD_TIMEOUT`]; then lets open connections finish (searches end at once, see
/// [`shutting_down`]) for up to 10 s.
async fn accept_loop(listener: tokio::net::TcpListener, app: Router, stop: impl std::future::Future<Output = ()>) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((s, _)) => s,
                    Err(e) => {
                        // Out of descriptors and the like: wait a moment rather than spin.
                        tracing::warn!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(HEAD_TIMEOUT)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    if let Err(e) = conn.await {
                        tracing::debug!("connection ended: {e}");
                    }
                });
            }
            () = &mut stop => break,
        }
    }
    if tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await.is_err() {
        tracing::warn!("connections still open after 10 s; stopping anyway");
    }
}

/// Set when the server is asked to stop: searches in progress end at once, so that open event
/// streams close and the graceful shutdown does not wait for them.
static SHUTTING_DOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub(crate) fn shutting_down() -> bool {
    SHUTTING_DOWN.load(std::sync::atomic::Ordering::Relaxed)
}

/// Registers Ctrl-C and SIGTERM now (not when first polled) and returns the future that completes
/// on the first of them, marking the server as [`shutting_down`].
fn shutdown() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        }
    };
    #[cfg(not(unix))]
    let signals = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    Ok(async move {
        signals.await;
        SHUTTING_DOWN.store(true, std::sync::atomic::Ordering::Relaxed);
        tracing::info!("stopping: searches in progress end now");
    })
}

/// Names run directories by their last component, made unique with `-2`, `-3`, ...; each must be
/// an existing directory.
pub fn run_dirs(paths: &[PathBuf]) -> Result<Vec<ServedDir>, ServeError> {
    let mut out: Vec<ServedDir> = Vec::new();
    for p in paths {
        let canon = std::fs::canonicalize(p).map_err(|source| ServeError::RunsPath { path: p.clone(), source })?;
        if !canon.is_dir() {
            return Err(ServeError::RunsNotDir(p.clone()));
        }
        let base: String = canon
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "root".into())
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
            .collect();
        let mut name = base.clone();
        let mut k = 2;
        while out.iter().any(|r| r.name == name) {
            name = format!("{base}-{k}");
            k += 1;
        }
        out.push(ServedDir { name, root: canon });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_mixed3d;
#[cfg(test)]
mod tests_quasi_alice;
