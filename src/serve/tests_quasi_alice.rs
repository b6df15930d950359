//! The API on 4D Quasi-Alice: the same endpoints as the 5x5x5 games, with the four boards (256
//! cells), moves that name their destination board, records and a watched tournament.

use super::tests::{app, error_of, get_json, post, run_dir, search_events};
use super::*;
use crate::eval::tournament::Tournament;
use crate::quasi_alice::Position as QaPosition;
use serde_json::{json, Value};
use tower::ServiceExt;

/// White to move; a pawn on 1b7 promotes, and may land only on board 2 (the white king's).
const PROMOTES: &str = "7k/1P6/8/8/8/8/8/8|8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1";

fn qa(body: Value) -> Value {
    let mut body = body;
    body["ruleset"] = json!("quasi-alice");
    body
}

#[tokio::test]
async fn info_lists_quasi_alice_with_its_pieces_and_the_players_that_play_it() {
    let app = app(vec![]);
    let (_, v) = get_json(&app, "/api/info").await;
    let qa = v["rulesets"].as_array().unwrap().iter().find(|r| r["name"] == "quasi-alice").unwrap().clone();
    assert_eq!((qa["castling"].as_bool(), qa["hypercylinder"].as_bool()), (Some(false), Some(false)));
    let letters: Vec<&str> = qa["kinds"].as_array().unwrap().iter().map(|k| k["letter"].as_str().unwrap()).collect();
    assert_eq!(letters, ["P", "N", "B", "R", "Q", "K"]);
    let players: Vec<&str> = qa["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(players.contains(&"ab:time=0.5") && players.contains(&"random"), "{players:?}");
    assert!(!players.iter().any(|p| p.starts_with("mcts")), "no MCTS player for quasi-alice: {players:?}");
    // The 5x5x5 list is unchanged, in the same place.
    assert_eq!(v["players"], v["rulesets"][0]["players"]);
}

#[tokio::test]
async fn the_start_has_60_moves_each_naming_its_destination_board() {
    let app = app(vec![]);
    let (s, v) = post(&app, "/api/game", qa(json!({}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ruleset"], "quasi-alice");
    assert_eq!(v["text"], crate::quasi_alice::START);
    assert_eq!(v["board"].as_array().unwrap().len(), 256);
    assert_eq!(v["board"][4], json!({ "color": "white", "letter": "K", "name": "king" }));
    assert_eq!(v["board"][60]["color"], "black");
    assert!(v["board"][64].is_null(), "board 2 starts empty");
    assert_eq!((v["status"].as_str(), v["side"].as_str()), (Some("ongoing"), Some("white")));
    let legal = v["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 60);
    // e2-e4 may land on boards 2, 3 and 4: three entries, one target cell on each board.
    let e4: Vec<&Value> = legal.iter().filter(|m| m["from"] == 12 && m["square"] == "e4").collect();
    assert_eq!(e4.iter().map(|m| m["to"].as_u64().unwrap()).collect::<Vec<_>>(), [64 + 28, 128 + 28, 192 + 28]);
    let m = e4.iter().find(|m| m["to_board"] == 3).unwrap();
    assert_eq!(
        **m,
        json!({ "coord": "1e2e4>3", "figurine": "1e2e4>3", "from": 12, "to": 156, "via": 28, "from_board": 1,
                "to_board": 3, "square": "e4", "promo": null, "capture": false, "castle": false })
    );
    // Played: the pawn stands on 3e4, the history names both cells, en passant names board 3.
    let (s, v) = post(&app, "/api/game", qa(json!({ "moves": ["1e2e4>3"] }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["board"][156]["letter"], "P");
    assert!(v["board"][28].is_null() && v["board"][12].is_null());
    assert_eq!(
        v["history"][0],
        json!({ "ply": 1, "label": "1.", "coord": "1e2e4>3", "figurine": "1e2e4>3", "from": 12, "to": 156 })
    );
    assert_eq!(v["side"], "black");
    assert!(v["text"].as_str().unwrap().contains(" b KQkq 3e3 0 1"), "{}", v["text"]);
    assert_eq!(v["movetext"], "1. 1e2e4>3");
    assert!(v["king_in_check"].is_null());
}

#[tokio::test]
async fn a_promotion_offers_each_piece_on_the_allowed_board() {
    let app = app(vec![]);
    let (s, v) = post(&app, "/api/game", qa(json!({ "start": PROMOTES }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let promos: Vec<(&str, u64)> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == 49)
        .map(|m| (m["promo"].as_str().unwrap(), m["to"].as_u64().unwrap()))
        .collect();
    assert_eq!(promos, [("Q", 121), ("R", 121), ("B", 121), ("N", 121)], "only board 2 holds a king");
    let (s, v) = post(&app, "/api/game", qa(json!({ "start": PROMOTES, "moves": ["1b7b8n>2"] }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["board"][121]["letter"], "N");
}

#[tokio::test]
async fn bad_quasi_alice_requests_are_400s_that_name_what_is_wrong() {
    let app = app(vec![]);
    let cases = [
        (qa(json!({ "moves": ["1e2e5>2"] })), "move 1 (1e2e5>2): '1e2e5>2' is not a legal move"),
        (qa(json!({ "moves": ["e2e4"] })), "is not a quasi-alice move (expected <board><from><to>"),
        (qa(json!({ "moves": ["1e2e4>1"] })), "move 1 (1e2e4>1)"),
        (qa(json!({ "moves": ["Dc2Cc2"] })), "not a quasi-alice move"),
        (qa(json!({ "moves": ["1e2e4>3é"] })), "move 1"),
        (qa(json!({ "castling": true })), "5x5x5 options"),
        (qa(json!({ "start": "8/8/8/8/8/8/8/8 w - - 0 1" })), "start: a quasi-alice position has 4 boards"),
        (json!({ "ruleset": "quasi" }), "ruleset: unknown ruleset 'quasi'"),
        (json!({ "ruleset": "startrek" }), "not playable yet"),
    ];
    for (body, wanted) in cases {
        let (s, v) = post(&app, "/api/game", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&v).contains(wanted), "{body}: {v}");
    }
    // A 5x5x5 position text is not a quasi-alice one.
    let (s, v) = post(&app, "/api/search", qa(json!({ "start": "startpos", "moves": ["xx"], "spec": "ab" }))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Players the game has none of are refused before any search.
    let (s, v) = post(&app, "/api/search", qa(json!({ "spec": "mcts:ab,sims=10" }))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("not available for quasi-alice"), "{v}");
}

#[tokio::test]
async fn a_quasi_alice_search_streams_its_depths_and_a_legal_move() {
    let app = app(vec![]);
    let ev = search_events(&app, qa(json!({ "moves": ["1e2e4>3"], "spec": "ab:depth=2" }))).await;
    let depths: Vec<u64> = ev.iter().filter(|(n, _)| n == "info").map(|(_, d)| d["depth"].as_u64().unwrap()).collect();
    assert_eq!(depths, [1, 2]);
    let (name, best) = ev.last().unwrap();
    assert_eq!(name, "bestmove", "{best}");
    let pv0 = &best["info"]["pv"][0];
    assert_eq!(pv0["coord"], best["coord"]);
    assert!(pv0["from"].as_u64().unwrap() < 256 && pv0["to"].as_u64().unwrap() < 256, "{pv0}");
    let (_, game) = post(&app, "/api/game", qa(json!({ "moves": ["1e2e4>3"] }))).await;
    assert!(game["legal"].as_array().unwrap().iter().any(|m| m["coord"] == best["coord"]), "{best}");
    let (s, v) = post(&app, "/api/draw", qa(json!({ "spec": "ab:depth=1" }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["accepted"].is_boolean(), "{v}");
}

#[tokio::test]
async fn a_quasi_alice_game_is_exported_and_read_back_as_a_record() {
    let app = app(vec![]);
    let moves = json!(["1e2e4>3", "1e7e5>2"]);
    let body = qa(
        json!({ "moves": moves, "white": "you", "black": "ab:time=0.5", "result": "1-0", "termination": "resignation" }),
    );
    let (s, v) = post(&app, "/api/record", body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let text = v["text"].as_str().unwrap().to_string();
    assert!(text.contains("[Ruleset \"quasi-alice\"]"), "{text}");
    let recs = crate::eval::records::parse_records_of::<QaPosition>(&text).unwrap();
    assert_eq!((recs[0].moves.len(), recs[0].result_text()), (2, "1-0"));
    // Pasted back, it is read by its Ruleset tag.
    let req = axum::http::Request::post("/api/records/parse")
        .header("content-type", "text/plain")
        .body(axum::body::Body::from(text))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let v: Value = serde_json::from_slice(&axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap()).unwrap();
    assert_eq!(v["games"][0]["ruleset"], "quasi-alice");
    assert_eq!(v["games"][0]["moves"], moves);
    assert_eq!(v["games"][0]["start"], crate::quasi_alice::START);
}

#[tokio::test]
async fn a_quasi_alice_tournament_is_watched_and_its_games_replayed() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("qa-tour");
    let toml = format!(
        "players = [\"ab:depth=1\", \"random\"]\ngames = 2\nconcurrency = 1\nopenings = \"startpos\"\nout = {:?}\nmax_plies = 16\nruleset = \"quasi-alice\"\n",
        dir.display().to_string()
    );
    let tour = Tournament::from_toml(&toml).unwrap();
    tour.run(tour.plan_from(&QaPosition::start()).unwrap(), |_| {}).unwrap();
    let live = dir.join(crate::eval::tournament::LIVE_DIR);
    std::fs::create_dir_all(&live).unwrap();
    let game = json!({ "white": "ab:depth=1", "black": "random", "ruleset": "quasi-alice", "castling": false,
                       "hypercylinder": false, "start": crate::quasi_alice::START, "moves": ["1e2e4>3"], "tags": [] });
    std::fs::write(live.join("game-3.json"), game.to_string()).unwrap();
    let app = app(vec![run_dir(&dir)]);
    let (s, v) = get_json(&app, "/api/runs/qa-tour/tournament").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["ruleset"].as_str(), v["games_done"].as_u64()), (Some("quasi-alice"), Some(2)));
    assert_eq!(v["ratings"].as_array().unwrap().len(), 2);
    let live = &v["live"][0];
    assert_eq!(live["board"].as_array().unwrap().len(), 256);
    assert_eq!((live["ruleset"].as_str(), live["board"][156]["letter"].as_str()), (Some("quasi-alice"), Some("P")));
    let (s, v) = get_json(&app, "/api/runs/qa-tour/records?file=games.pgn").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let g = &v["games"][0];
    assert_eq!(g["ruleset"], "quasi-alice");
    let first = g["moves"][0].as_str().unwrap();
    assert!(first.starts_with('1') && first.contains('>'), "{first}");
    // The page replays a record through /api/game.
    let (s, _) =
        post(&app, "/api/game", json!({ "ruleset": g["ruleset"], "start": g["start"], "moves": g["moves"] })).await;
    assert_eq!(s, StatusCode::OK);
}
