//! The API through the real router (tower's `oneshot`, no socket): shapes, validation, limits,
//! path checks and the search stream.

use super::*;
use crate::eval::tournament::Tournament;
use axum::body::{to_bytes, Body};
use axum::http::Request as HttpRequest;
use serde_json::{json, Value};
use std::path::Path;
use tower::ServiceExt;

const QUEEN_UP: &str = "k4/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/1Q2K";
const PROMOTES: &str = "5/5/4k/5/5|P4/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4K w - - - 0 1";

pub(super) fn config(runs: Vec<ServedDir>) -> ServeConfig {
    ServeConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        runs,
        engines: vec!["ab:depth=1,values=/nonexistent/values.toml".into()],
        max_searches: 1,
        max_think: Duration::from_secs(20),
        allow_hosts: vec![],
        tablebases: None,
    }
}

/// The router as a browser reaches it: requests without a Host header get the test server's.
pub(super) fn app(runs: Vec<ServedDir>) -> Router {
    router(config(runs)).unwrap().layer(axum::middleware::map_request(|mut req: axum::extract::Request| async move {
        if !req.headers().contains_key(header::HOST) {
            req.headers_mut().insert(header::HOST, axum::http::HeaderValue::from_static("127.0.0.1:8080"));
        }
        req
    }))
}

#[tokio::test]
async fn a_request_without_host_is_refused_and_answers_carry_the_policy() {
    let bare = router(config(vec![])).unwrap();
    let (s, b) = send(&bare, HttpRequest::get("/api/info").body(Body::empty()).unwrap()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8(b).unwrap().contains("names no Host"));
    let res = app(vec![]).oneshot(HttpRequest::get("/").body(Body::empty()).unwrap()).await.unwrap();
    let csp = res.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_string();
    // The page's one inline script, the import map, is allowed by its hash and nothing else is.
    let html = String::from_utf8(to_bytes(res.into_body(), usize::MAX).await.unwrap().to_vec()).unwrap();
    let map = html.split("<script type=\"importmap\">").nth(1).unwrap().split("</script>").next().unwrap();
    use base64::Engine;
    use sha2::Digest;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(map.as_bytes()));
    assert!(csp.contains(&format!("script-src 'self' 'sha256-{hash}';")), "{csp}");
    assert!(csp.contains("default-src 'self'") && !csp.contains("unsafe"), "{csp}");
}

pub(super) async fn send(app: &Router, req: HttpRequest<Body>) -> (StatusCode, Vec<u8>) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    (status, to_bytes(res.into_body(), usize::MAX).await.unwrap().to_vec())
}

pub(super) async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let req =
        HttpRequest::post(path).header("content-type", "application/json").body(Body::from(body.to_string())).unwrap();
    let (s, b) = send(app, req).await;
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

pub(super) async fn get_json(app: &Router, path: &str) -> (StatusCode, Value) {
    let (s, b) = send(app, HttpRequest::get(path).body(Body::empty()).unwrap()).await;
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

pub(super) fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or_else(|| panic!("no error in {v}"))
}

#[tokio::test]
async fn info_lists_the_cells_in_index_order_and_the_rulesets() {
    let app = app(vec![]);
    let (s, v) = get_json(&app, "/api/info").await;
    assert_eq!(s, StatusCode::OK);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 125);
    assert_eq!(cells[0]["name"], "Aa1");
    assert_eq!(cells[82]["name"], "Dc2");
    assert_eq!(cells[124]["name"], "Ee5");
    let names: Vec<&str> = v["rulesets"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["fiveup", "fiveup-2001", "raumschach", "quasi-alice", "mixed3d"]);
    let raum = &v["rulesets"][2];
    assert_eq!(raum["castling"], false);
    assert!(!raum["kinds"].as_array().unwrap().iter().any(|k| k["letter"] == "W"), "no wizard in Raumschach");
    assert!(v["players"].as_array().unwrap().iter().any(|p| p == "ab:depth=1,values=/nonexistent/values.toml"));
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_with_types_and_etags() {
    let app = app(vec![]);
    let res = app.clone().oneshot(HttpRequest::get("/").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let again = HttpRequest::get("/index.html").header("if-none-match", etag).body(Body::empty()).unwrap();
    assert_eq!(app.clone().oneshot(again).await.unwrap().status(), StatusCode::NOT_MODIFIED);
    for p in assets::paths().filter(|p| p.ends_with(".js")) {
        let res = app.clone().oneshot(HttpRequest::get(format!("/{p}")).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{p}");
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/javascript"), "{p}");
    }
    let (s, _) = send(&app, HttpRequest::get("/no/such/file.js").body(Body::empty()).unwrap()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = get_json(&app, "/api/nothing").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(error_of(&v).contains("no such API endpoint"));
}

#[tokio::test]
async fn a_game_replays_in_either_notation_and_answers_the_position() {
    let app = app(vec![]);
    let (s, v) = post(&app, "/api/game", json!({ "moves": ["P-Cc2", "Bc4Cc4"] })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["history"][0]["coord"], "Dc2Cc2");
    assert_eq!(v["history"][0]["from"], 82);
    assert_eq!(v["history"][1]["label"], "1...");
    assert_eq!(v["side"], "white");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["board"].as_array().unwrap().len(), 125);
    assert_eq!(v["board"][57]["letter"], "P");
    assert_eq!(v["board"][57]["color"], "white");
    assert_eq!(v["reserve"]["white"], json!(["W", "G", "S"]));
    // Every placement choice is its own legal entry.
    let legal = v["legal"].as_array().unwrap();
    let from_da1: Vec<&Value> = legal.iter().filter(|m| m["coord"].as_str().unwrap().starts_with("Da1Bb2")).collect();
    assert_eq!(from_da1.len(), 4, "no placement, W, G, S");
    assert!(from_da1.iter().any(|m| m["place"] == "S"));
    // A promotion offers each piece.
    let (_, v) = post(&app, "/api/game", json!({ "start": PROMOTES })).await;
    let promos: Vec<&str> =
        v["legal"].as_array().unwrap().iter().filter(|m| m["to"] == 20).filter_map(|m| m["promo"].as_str()).collect();
    assert!(promos.contains(&"Q") && promos.contains(&"N"), "{promos:?}");
}

#[tokio::test]
async fn bad_games_are_400s_that_name_what_is_wrong() {
    let app = app(vec![]);
    let cases = [
        (json!({ "moves": ["Dc2Cc2", "Dc2Dc4"] }), "move 2 (Dc2Dc4)"),
        (json!({ "moves": ["xyz"] }), "move 1 (xyz)"),
        (json!({ "ruleset": "chess" }), "ruleset"),
        (json!({ "ruleset": "raumschach", "castling": true }), "castling"),
        (json!({ "start": "not a position" }), "start"),
        (json!({ "start": "x".repeat(1100) }), "at most 1000 bytes"),
        (json!({ "moves": vec!["Dc2Cc2"; 2001] }), "at most 2000"),
        (json!({ "mvoes": [] }), "unknown field `mvoes`"),
        (json!({ "moves": "Dc2Cc2" }), "bad request body"),
    ];
    for (body, wanted) in cases {
        let (s, v) = post(&app, "/api/game", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&v).contains(wanted), "{body}: {v}");
        assert!(!error_of(&v).contains('\n'));
    }
    // A huge bad move is named, but the answer is cut short.
    let (s, v) = post(&app, "/api/game", json!({ "moves": ["x".repeat(300_000)] })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).len() < 400 && error_of(&v).ends_with("..."), "{}", error_of(&v).len());
    // Every error is JSON, a wrong method too; every answer carries the hardening headers.
    let res = app.clone().oneshot(HttpRequest::delete("/api/game").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(res.headers()["x-frame-options"], "DENY");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let v: Value = serde_json::from_slice(&to_bytes(res.into_body(), usize::MAX).await.unwrap()).unwrap();
    assert!(error_of(&v).starts_with("DELETE is not allowed on /api/game"), "{v}");
}

#[tokio::test]
async fn cross_site_requests_and_other_body_types_are_refused() {
    let app = app(vec![]);
    let req = HttpRequest::post("/api/game")
        .header("content-type", "application/json")
        .header("origin", "http://evil.example")
        .header("host", "127.0.0.1:8080")
        .body(Body::from("{}"))
        .unwrap();
    let (s, _) = send(&app, req).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let same = HttpRequest::post("/api/game")
        .header("content-type", "application/json")
        .header("origin", "http://127.0.0.1:8080")
        .header("host", "127.0.0.1:8080")
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(send(&app, same).await.0, StatusCode::OK);
    // DNS rebinding: another site's name resolved to 127.0.0.1 arrives as Host (and Origin).
    for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example"] {
        let req = HttpRequest::post("/api/game")
            .header("content-type", "application/json")
            .header("origin", format!("http://{host}"))
            .header("host", host)
            .body(Body::from("{}"))
            .unwrap();
        let (s, b) = send(&app, req).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{host}");
        assert!(String::from_utf8(b).unwrap().contains("does not answer to the host"));
    }
    for host in ["localhost:8080", "LOCALHOST", "127.0.0.1", "[::1]:8080", "127.0.0.2:1"] {
        let req = HttpRequest::get("/api/info").header("host", host).body(Body::empty()).unwrap();
        assert_eq!(send(&app, req).await.0, StatusCode::OK, "{host}");
    }
    let form = HttpRequest::post("/api/game")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(send(&app, form).await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

/// The events of a search stream: (name, data).
pub(super) fn events(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::new();
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data += d;
            }
        }
        if !name.is_empty() {
            out.push((name, serde_json::from_str(&data).unwrap()));
        }
    }
    out
}

/// The events of a whole `/api/search` stream for `body` (the answer must be a 200).
pub(super) async fn search_events(app: &Router, body: Value) -> Vec<(String, Value)> {
    let req = HttpRequest::post("/api/search")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (s, bytes) = send(app, req).await;
    assert_eq!(s, StatusCode::OK);
    events(&String::from_utf8(bytes).unwrap())
}

#[tokio::test]
async fn a_search_streams_its_progress_then_a_legal_best_move() {
    let app = app(vec![]);
    let ev = search_events(&app, json!({ "moves": ["Dc2Cc2"], "spec": "ab:depth=3" })).await;
    let infos: Vec<&Value> = ev.iter().filter(|(n, _)| n == "info").map(|(_, d)| d).collect();
    assert_eq!(infos.iter().map(|d| d["depth"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(infos[2]["score"]["cp"].is_i64() && !infos[2]["pv"].as_array().unwrap().is_empty());
    let (name, best) = ev.last().unwrap();
    assert_eq!(name, "bestmove");
    let (_, game) = post(&app, "/api/game", json!({ "moves": ["Dc2Cc2"] })).await;
    assert!(game["legal"].as_array().unwrap().iter().any(|m| m["coord"] == best["coord"]), "{best}");
    // A finished game (bare kings) has nothing to search.
    let over = json!({ "start": "k4/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4K w - - - 0 1", "spec": "random" });
    let (s, v) = post(&app, "/api/search", over).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(error_of(&v).contains("bare kings"), "{v}");
}

#[tokio::test]
async fn specs_that_read_files_or_start_programs_need_the_servers_permission() {
    let app = app(vec![]);
    for spec in ["uci:/bin/sh", "ab:values=/etc/passwd", "ab:eval=nnue:/etc/passwd", "mcts:net=/tmp,sims=4"] {
        let (s, v) = post(&app, "/api/search", json!({ "spec": spec })).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{spec}: {v}");
        assert!(error_of(&v).contains("--engine"), "{v}");
    }
    // Allowed with --engine: the file is then read, and its absence is a clear 400.
    let (s, v) = post(&app, "/api/search", json!({ "spec": "ab:depth=1,values=/nonexistent/values.toml" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("/nonexistent/values.toml"), "{v}");
    let (s, v) = post(&app, "/api/search", json!({ "spec": "ab:hash=60000" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("limit of 256 MiB"));
    let (s, v) = post(&app, "/api/search", json!({ "spec": "ab:depth=0" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).starts_with("spec:"), "{v}");
    let (s, _) = post(&app, "/api/search", json!({})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn searches_past_the_limit_get_429_and_a_closed_stream_frees_its_slot() {
    let app = app(vec![]);
    let body = json!({ "spec": "ab", "infinite": true }).to_string();
    let req = || {
        HttpRequest::post("/api/search")
            .header("content-type", "application/json")
            .body(Body::from(body.clone()))
            .unwrap()
    };
    let running = app.clone().oneshot(req()).await.unwrap();
    assert_eq!(running.status(), StatusCode::OK);
    let (s, v) = send(&app, req()).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v:?}");
    // The page goes away: the search stops and its slot is free again within moments.
    drop(running);
    let mut freed = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (s, _) = post(&app, "/api/draw", json!({ "spec": "ab:depth=1" })).await;
        if s == StatusCode::OK {
            freed = true;
            break;
        }
        assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    }
    assert!(freed, "the slot of a dropped search was never freed");
}

#[tokio::test]
async fn the_engine_accepts_a_draw_only_when_it_is_not_better() {
    let app = app(vec![]);
    let (s, v) =
        post(&app, "/api/draw", json!({ "start": format!("{QUEEN_UP} w - - - 0 1"), "spec": "ab:depth=2" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["accepted"], false, "a queen up: {v}");
    let (_, v) =
        post(&app, "/api/draw", json!({ "start": format!("{QUEEN_UP} b - - - 0 1"), "spec": "ab:depth=2" })).await;
    assert_eq!(v["accepted"], true, "a queen down: {v}");
    assert!(v["score"]["cp"].as_i64().unwrap() < -300, "{v}");
    // Offered on the human's turn: the engine judges from its own side, not the mover's.
    let (_, v) = post(
        &app,
        "/api/draw",
        json!({ "start": format!("{QUEEN_UP} b - - - 0 1"), "spec": "ab:depth=2", "side": "white" }),
    )
    .await;
    assert_eq!(v["accepted"], false, "the engine is the side a queen up: {v}");
    assert!(v["score"]["cp"].as_i64().unwrap() > 300, "{v}");
    let (_, v) = post(
        &app,
        "/api/draw",
        json!({ "start": format!("{QUEEN_UP} w - - - 0 1"), "spec": "ab:depth=2", "side": "black" }),
    )
    .await;
    assert_eq!(v["accepted"], true, "{v}");
    let (s, v) = post(&app, "/api/draw", json!({ "spec": "ab:depth=1", "side": "red" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).starts_with("side:"));
}

#[tokio::test]
async fn records_take_the_rules_result_or_a_resignation_or_an_agreed_draw() {
    let app = app(vec![]);
    let moves = json!(["Dc2Cc2", "Bc4Cc4"]);
    let (s, v) = post(&app, "/api/record", json!({ "moves": moves, "white": "you", "black": "ab:time=0.5", "result": "0-1", "termination": "resignation" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let recs = crate::eval::records::parse_records(v["text"].as_str().unwrap()).unwrap();
    assert_eq!(recs[0].moves.len(), 2);
    assert_eq!(recs[0].white, "you");
    assert_eq!(recs[0].result_text(), "0-1");
    assert_eq!(recs[0].termination(), "resignation");
    assert!(v["filename"].as_str().unwrap().ends_with(".pgn"));
    let (_, v) =
        post(&app, "/api/record", json!({ "moves": moves, "result": "1/2-1/2", "termination": "agreement" })).await;
    let recs = crate::eval::records::parse_records(v["text"].as_str().unwrap()).unwrap();
    assert_eq!((recs[0].result_text(), recs[0].termination().as_str()), ("1/2-1/2", "adjudication/agreement"));
    let (_, v) = post(&app, "/api/record", json!({ "moves": moves })).await;
    assert_eq!(crate::eval::records::parse_records(v["text"].as_str().unwrap()).unwrap()[0].result_text(), "*");
    let (s, v) = post(&app, "/api/record", json!({ "moves": moves, "white": "me\n[Result \"1-0\"]" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).starts_with("white: control characters"), "{v}");
    for bad in [
        json!({ "result": "1-0", "termination": "agreement" }),
        json!({ "result": "1/2-1/2", "termination": "resignation" }),
        json!({ "result": "2-0" }),
    ] {
        let (s, v) = post(&app, "/api/record", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}

#[tokio::test]
async fn a_timed_games_flag_and_time_control_go_into_its_record() {
    let app = app(vec![]);
    // After white's move black is to move: black's flag fell, white wins.
    let body = json!({ "moves": ["Dc2Cc2"], "result": "1-0", "termination": "time-forfeit", "time_control": "300+3" });
    let (s, v) = post(&app, "/api/record", body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let text = v["text"].as_str().unwrap();
    assert!(text.contains("[TimeControl \"300+3\"]"), "{text}");
    let recs = crate::eval::records::parse_records(text).unwrap();
    assert_eq!((recs[0].result_text(), recs[0].termination().as_str()), ("1-0", "adjudication/time-forfeit"));
    // The result must be the one the flag gives; a bare king cannot win on time (a draw).
    let (s, v) =
        post(&app, "/api/record", json!({ "moves": ["Dc2Cc2"], "result": "0-1", "termination": "time-forfeit" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("the result is 1-0"), "{v}");
    // black (king and queen) to move flags against white's bare king
    let bare = "kq3/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4K b - - - 0 1";
    let (s, v) =
        post(&app, "/api/record", json!({ "start": bare, "result": "1/2-1/2", "termination": "time-forfeit" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // without a result the server rules it, and says which
    let (s, v) = post(&app, "/api/record", json!({ "start": bare, "termination": "time-forfeit" })).await;
    assert_eq!((s, v["result"].as_str()), (StatusCode::OK, Some("1/2-1/2")), "{v}");
    let (s, v) = post(&app, "/api/record", json!({ "moves": [], "time_control": "five minutes" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).starts_with("time_control: expected BASE+INCREMENT"), "{v}");
}

#[tokio::test]
async fn a_search_with_clocks_spends_them_and_absurd_clocks_are_refused() {
    let app = app(vec![]);
    let ev = search_events(
        &app,
        json!({ "spec": "ab", "clock": { "white_ms": 2000, "black_ms": 2000, "white_inc_ms": 0 } }),
    )
    .await;
    let (name, best) = ev.last().unwrap();
    assert_eq!(name, "bestmove", "{ev:?}");
    // 2 s left, sudden death: the allocation is a small part of it (far below the 60 s cap).
    let ms = best["info"]["time_ms"].as_u64().unwrap();
    assert!(ms < 1500, "spent {ms} ms of a 2 s clock");
    for (clock, why) in [
        (json!({ "white_ms": 100_000_000_000u64, "black_ms": 1000 }), "clock.white_ms: at most"),
        (json!({ "white_ms": 1000 }), "missing field `black_ms`"),
        (json!({ "white_ms": 1000, "black_ms": 1000, "byoyomi": 5 }), "unknown field `byoyomi`"),
    ] {
        let (s, v) = post(&app, "/api/search", json!({ "spec": "ab", "clock": clock })).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(error_of(&v).contains(why), "{v}");
    }
    let (s, v) =
        post(&app, "/api/search", json!({ "spec": "ab", "infinite": true, "clock": { "white_ms": 1, "black_ms": 1 } }))
            .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("infinite search has no clock"), "{v}");
}

pub(super) fn run_dir(dir: &Path) -> ServedDir {
    run_dirs(&[dir.to_path_buf()]).unwrap().remove(0)
}

#[tokio::test]
async fn run_files_are_served_only_from_inside_the_run() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("r1");
    std::fs::create_dir_all(run.join("sub")).unwrap();
    let (_, rec) = post(&app(vec![]), "/api/record", json!({ "moves": ["Dc2Cc2"], "white": "a", "black": "b" })).await;
    std::fs::write(run.join("sub/games.pgn"), rec["text"].as_str().unwrap()).unwrap();
    std::fs::write(t.path().join("secret.pgn"), "[Event \"secret\"]").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(t.path().join("secret.pgn"), run.join("link.pgn")).unwrap();
    let app = app(vec![run_dir(&run)]);
    let (s, v) = get_json(&app, "/api/runs").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v[0]["name"], "r1");
    assert_eq!(v[0]["kind"], "records");
    assert!(v[0]["records"].as_array().unwrap().contains(&json!("sub/games.pgn")));
    let (s, v) = get_json(&app, "/api/runs/r1/records?file=sub/games.pgn").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["games"][0]["moves"], json!(["Dc2Cc2"]));
    assert_eq!(v["games"][0]["figurines"], json!(["Cc2"]));
    std::fs::create_dir_all(run.join(".git")).unwrap();
    std::fs::write(run.join(".git/config"), "[core]").unwrap();
    std::fs::write(run.join(".env"), "KEY=1").unwrap();
    for (path, status) in [
        (".git/config", StatusCode::FORBIDDEN),
        (".env", StatusCode::FORBIDDEN),
        ("./sub/../.env", StatusCode::FORBIDDEN),
        ("../secret.pgn", StatusCode::FORBIDDEN),
        ("sub/../../secret.pgn", StatusCode::FORBIDDEN),
        ("%2Fetc%2Fpasswd", StatusCode::FORBIDDEN),
        ("link.pgn", StatusCode::FORBIDDEN),
        ("nothing.pgn", StatusCode::NOT_FOUND),
        ("sub", StatusCode::NOT_FOUND),
    ] {
        let (s, v) = get_json(&app, &format!("/api/runs/r1/file?path={path}")).await;
        assert_eq!(s, status, "{path}: {v}");
        let (s, _) = get_json(&app, &format!("/api/runs/r1/records?file={path}")).await;
        assert_eq!(s, status, "{path}");
    }
    let (s, b) =
        send(&app, HttpRequest::get("/api/runs/r1/file?path=sub/games.pgn").body(Body::empty()).unwrap()).await;
    assert_eq!(s, StatusCode::OK);
    assert!(String::from_utf8(b).unwrap().starts_with("[Event"));
    assert_eq!(get_json(&app, "/api/runs/nope/records?file=x.pgn").await.0, StatusCode::NOT_FOUND);
    assert_eq!(get_json(&app, "/api/runs/r1/records").await.0, StatusCode::BAD_REQUEST);
    let (s, v) = get_json(&app, "/api/runs/r1/records?file=sub/games.pgn&colour=red").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("unknown field `colour`"), "{v}");
    // A cache buster is allowed, and an unchanged file revalidates as a 304.
    let res = app
        .clone()
        .oneshot(HttpRequest::get("/api/runs/r1/file?path=sub/games.pgn&v=3").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let etag = res.headers()["etag"].clone();
    let again = HttpRequest::get("/api/runs/r1/file?path=sub/games.pgn")
        .header("if-none-match", etag)
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.clone().oneshot(again).await.unwrap().status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn pasted_records_are_parsed_or_refused_with_the_record_named() {
    let app = app(vec![]);
    let (_, rec) = post(&app, "/api/record", json!({ "moves": ["Dc2Cc2", "Bc4Cc4"] })).await;
    let text = rec["text"].as_str().unwrap().to_string();
    let req = |body: String| {
        HttpRequest::post("/api/records/parse").header("content-type", "text/plain").body(Body::from(body)).unwrap()
    };
    let (s, b) = send(&app, req(text.clone())).await;
    assert_eq!(s, StatusCode::OK);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(v["games"][0]["plies"], 2);
    let (s, b) = send(&app, req(text.replace("Cc4", "Cc9"))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8(b).unwrap().contains("record 1"));
    let (s, _) = send(&app, req(String::new())).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, b) = send(&app, req("x".repeat(MAX_BODY + 1))).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert!(error_of(&v).starts_with("the body is over 4194304 bytes"), "{v}");
}

#[tokio::test]
async fn a_tournament_is_watched_with_ratings_crosstable_and_games_in_progress() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("tour");
    let toml = format!(
        "players = [\"ab:depth=1\", \"random\"]\ngames = 2\nconcurrency = 1\nopenings = \"random:4\"\nout = {:?}\nmax_plies = 40\n",
        dir.display().to_string()
    );
    let tour = Tournament::from_toml(&toml).unwrap();
    let plan = tour.plan().unwrap();
    tour.run(plan, |_| {}).unwrap();
    // A game in progress, as the runner writes it, and a leftover of a killed run.
    let live = dir.join(crate::eval::tournament::LIVE_DIR);
    assert!(!live.exists(), "a finished run leaves no live directory");
    std::fs::create_dir_all(&live).unwrap();
    let game = json!({ "white": "ab:depth=1", "black": "random", "ruleset": "fiveup", "castling": false,
                       "hypercylinder": false, "start": crate::rules::Position::startpos(crate::rules::Variant::default()).to_text(),
                       "moves": ["Dc2Cc2"], "tags": [] });
    std::fs::write(live.join("game-7.json"), game.to_string()).unwrap();
    std::fs::write(live.join("game-8.json"), game.to_string()).unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(live.join("game-8.json")).unwrap().set_modified(old).unwrap();
    let app = app(vec![run_dir(&dir)]);
    let (s, v) = get_json(&app, "/api/runs/tour/tournament").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["games_done"], 2);
    assert_eq!(v["games_total"], 2);
    let ratings = v["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    assert!(ratings[0]["lo"].as_f64().unwrap() < ratings[0]["elo"].as_f64().unwrap());
    let cross = &v["crosstable"];
    let (w, d, l) =
        (cross[0][1]["w"].as_u64().unwrap(), cross[0][1]["d"].as_u64().unwrap(), cross[0][1]["l"].as_u64().unwrap());
    assert_eq!(w + d + l, 2);
    assert!(cross[0][0].is_null());
    assert_eq!(v["recent"].as_array().unwrap().len(), 2);
    let live = v["live"].as_array().unwrap();
    assert_eq!(live.len(), 1, "the stale file is left out: {live:?}");
    assert_eq!(live[0]["board"][57]["letter"], "P");
    // A player added who has not played yet: the others are still rated, the crosstable kept.
    let cfg = dir.join(crate::eval::tournament::CONFIG_FILE);
    let text = std::fs::read_to_string(&cfg).unwrap().replace("\"random\"]", "\"random\", \"random:seed=9\"]");
    assert!(text.contains("random:seed=9"), "{text}");
    std::fs::write(&cfg, text).unwrap();
    let (s, v) = get_json(&app, "/api/runs/tour/tournament").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ratings"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["unrated"].as_array().unwrap().len(), 0, "{v}");
    assert!(v["crosstable"][0][1].is_object() && v["crosstable"][2][0].is_null(), "{v}");
    // A records directory is not a tournament.
    let (s, _) = get_json(&app, "/api/runs/tour/training").await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn a_training_run_shows_its_latest_metrics_and_plots() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("train");
    std::fs::create_dir_all(dir.join("plots")).unwrap();
    let lines: String = (0..250).map(|g| format!("{{\"generation\": {g}, \"loss\": 1.0}}\n")).collect();
    std::fs::write(dir.join("metrics.jsonl"), lines + "{cut").unwrap();
    std::fs::write(dir.join("plots/progress.png"), b"\x89PNG").unwrap();
    let app = app(vec![run_dir(&dir)]);
    let (s, v) = get_json(&app, "/api/runs").await;
    assert_eq!((s, v[0]["kind"].as_str()), (StatusCode::OK, Some("training")));
    let (s, v) = get_json(&app, "/api/runs/train/training").await;
    assert_eq!(s, StatusCode::OK);
    let m = v["metrics"].as_array().unwrap();
    assert_eq!(m.len(), 200);
    assert_eq!(m[199]["generation"], 249);
    assert_eq!(v["plots"], json!(["plots/progress.png"]));
    let res = app
        .clone()
        .oneshot(HttpRequest::get("/api/runs/train/file?path=plots/progress.png").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "image/png");
    let (s, _) = get_json(&app, "/api/runs/train/tournament").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[test]
fn run_names_are_unique_and_missing_directories_are_refused() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("a/x")).unwrap();
    std::fs::create_dir_all(t.path().join("b/x")).unwrap();
    let runs = run_dirs(&[t.path().join("a/x"), t.path().join("b/x")]).unwrap();
    assert_eq!(runs.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["x", "x-2"]);
    let e = run_dirs(&[t.path().join("nope")]).unwrap_err().to_string();
    assert!(e.starts_with("--runs ") && e.contains("nope"), "{e}");
    std::fs::write(t.path().join("f"), "").unwrap();
    assert!(run_dirs(&[t.path().join("f")]).unwrap_err().to_string().contains("not a directory"));
    let e = router(ServeConfig { engines: vec!["ab:depth=0".into()], ..config(vec![]) }).unwrap_err().to_string();
    assert!(e.starts_with("--engine ab:depth=0"), "{e}");
}

#[test]
fn a_search_stops_when_an_event_waits_unread_too_long() {
    use super::api::{unread_too_long, UNREAD_LIMIT};
    let s = Duration::from_secs;
    // Nothing waiting, or the page asked after the event came: it reads.
    assert!(!unread_too_long(None, s(0), s(100)));
    assert!(!unread_too_long(Some(s(20)), s(21), s(100)));
    // An event waiting since 20 s, last asked at 19 s: stopped once it has waited the limit.
    assert!(!unread_too_long(Some(s(20)), s(19), s(20) + UNREAD_LIMIT));
    assert!(unread_too_long(Some(s(20)), s(19), s(21) + UNREAD_LIMIT));
    // A long quiet stretch before an event is not unread time.
    assert!(!unread_too_long(Some(s(60)), s(1), s(61)));
}

#[tokio::test]
async fn a_server_with_tables_shows_a_held_positions_value_and_refuses_a_spec_naming_tables() {
    use crate::tablebase::{build, Family, Material};
    let dir = tempfile::tempdir().unwrap();
    let kq = Material::parse(Family::Raumschach, "KQvK").unwrap();
    build(dir.path(), &[kq], false, &std::sync::atomic::AtomicBool::new(false), |_| {}).unwrap();
    let with = |cfg: ServeConfig| {
        router(cfg).unwrap().layer(axum::middleware::map_request(|mut req: axum::extract::Request| async move {
            req.headers_mut().insert(header::HOST, axum::http::HeaderValue::from_static("127.0.0.1:8080"));
            req
        }))
    };
    let tb_app = with(ServeConfig { tablebases: Some(dir.path().to_path_buf()), ..config(vec![]) });
    let start = "5/5/5/5/K4|5/5/2Q2/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4k w - - - 0 1";
    let (s, v) = post(&tb_app, "/api/game", json!({ "ruleset": "raumschach", "start": start })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let tb = &v["tablebase"];
    assert_eq!(tb["material"], "KQvK", "{v}");
    assert_eq!(tb["value"], "win");
    assert!(tb["text"].as_str().unwrap().starts_with("white mates in "), "{tb}");
    // A position the tables do not hold: null; a server without tables: no field.
    let (_, v) = post(&tb_app, "/api/game", json!({ "ruleset": "raumschach" })).await;
    assert!(v["tablebase"].is_null(), "{}", v["tablebase"]);
    let (_, v) = post(&app(vec![]), "/api/game", json!({ "ruleset": "raumschach", "start": start })).await;
    assert!(v.get("tablebase").is_none());
    // The page may not point a player at a folder of the server's.
    let (s, v) = post(&tb_app, "/api/player", json!({ "spec": "ab:depth=1,tb=/etc" })).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert!(v["error"].as_str().unwrap().contains("--tablebases"), "{v}");
    // A missing folder stops the server at start.
    let e = router(ServeConfig { tablebases: Some(dir.path().join("none")), ..config(vec![]) }).unwrap_err();
    assert!(e.to_string().starts_with("--tablebases: tablebase folder"), "{e}");
}
