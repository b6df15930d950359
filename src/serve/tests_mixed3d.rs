//! The API on Mixed 3D: the same endpoints, with the eight levels (512 cells), its move text,
//! searches and records.

use super::tests::{app, error_of, get_json, post, search_events};
use super::*;
use serde_json::{json, Value};

fn m3(body: Value) -> Value {
    let mut body = body;
    body["ruleset"] = json!("mixed3d");
    body
}

#[tokio::test]
async fn info_lists_mixed3d_with_the_commoner_and_its_players() {
    let app = app(vec![]);
    let (_, v) = get_json(&app, "/api/info").await;
    let g = v["rulesets"].as_array().unwrap().iter().find(|r| r["name"] == "mixed3d").unwrap().clone();
    let letters: Vec<&str> = g["kinds"].as_array().unwrap().iter().map(|k| k["letter"].as_str().unwrap()).collect();
    assert_eq!(letters, ["P", "N", "B", "R", "Q", "K", "C"]);
    let players: Vec<&str> = g["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(players.contains(&"ab:time=0.5") && !players.iter().any(|p| p.starts_with("mcts")), "{players:?}");
}

#[tokio::test]
async fn the_start_has_188_moves_and_a_played_game_searches_and_records() {
    let app = app(vec![]);
    let (s, v) = post(&app, "/api/game", m3(json!({}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["text"], crate::mixed3d::START);
    assert_eq!(v["board"].as_array().unwrap().len(), 512);
    // 4e1 (level 4, file e, rank 1) is the white royal king; 1e1 a commoner.
    assert_eq!(v["board"][3 * 64 + 4], json!({ "color": "white", "letter": "K", "name": "king" }));
    assert_eq!(v["board"][4]["letter"], "C");
    let legal = v["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 188);
    let m = legal.iter().find(|m| m["coord"] == "4e2-4e4").unwrap();
    assert_eq!(
        *m,
        json!({ "coord": "4e2-4e4", "figurine": "4e2-4e4", "from": 3 * 64 + 12, "to": 3 * 64 + 28,
                "promo": null, "capture": false, "castle": false })
    );
    // The start's own text (407 bytes) is a start too.
    let (s, v) = post(&app, "/api/game", m3(json!({ "start": crate::mixed3d::START }))).await;
    assert_eq!((s, v["legal"].as_array().map(Vec::len)), (StatusCode::OK, Some(188)), "{v}");
    let (s, v) = post(&app, "/api/game", m3(json!({ "moves": ["4e2-4e4", "4d7-4d5"] }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["legal"].as_array().unwrap().iter().any(|m| m["coord"] == "4e4-4d5" && m["capture"] == true), "{v}");
    let ev = search_events(&app, m3(json!({ "moves": ["4e2-4e4"], "spec": "ab:depth=1" }))).await;
    let (name, best) = ev.last().unwrap();
    assert_eq!(name, "bestmove", "{best}");
    assert!(best["info"]["pv"][0]["to"].as_u64().unwrap() < 512, "{best}");
    let body = m3(
        json!({ "moves": ["4e2-4e4"], "white": "you", "black": "ab:time=0.5", "result": "0-1", "termination": "resignation" }),
    );
    let (s, v) = post(&app, "/api/record", body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["text"].as_str().unwrap().contains("[Ruleset \"mixed3d\"]"), "{v}");
    for (body, wanted) in [
        (m3(json!({ "moves": ["4e2-4e5"] })), "move 1 (4e2-4e5)"),
        (m3(json!({ "castling": true })), "5x5x5 options"),
        (m3(json!({ "start": "8/8 w - - 0 1" })), "start: a mixed3d position has 8 levels"),
    ] {
        let (s, v) = post(&app, "/api/game", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&v).contains(wanted), "{body}: {v}");
    }
    let (s, v) = post(&app, "/api/search", m3(json!({ "spec": "mcts:ab,sims=10" }))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("not available for mixed3d"), "{v}");
}
