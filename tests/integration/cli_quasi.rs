//! 4D Quasi-Alice Chess through the binary: the rules commands, analysis, matches, the protocol,
//! and the clear refusal of the commands not built for it yet.

use crate::common::{assert_one_line_error, fiveup, fiveup_with_input, ok, stdout};

const START: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQkq - 0 1";

#[test]
fn perft_divide_moves_show_and_replay() {
    let out = ok(&fiveup(&["perft", "3", "--ruleset", "quasi-alice", "--threads", "2"]));
    assert_eq!(out.lines().last(), Some("perft(3) = 247284"));
    let out = ok(&fiveup(&["perft", "2", "--divide", "--ruleset", "quasi-alice", "--threads", "1"]));
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 60);
    assert!(rows.contains(&"1e2e4>3: 60"), "{out}");
    assert_eq!(out.lines().last(), Some("perft(2) = 3600"));
    let out = ok(&fiveup(&["moves", "--ruleset", "quasi-alice"]));
    assert_eq!(out.lines().last(), Some("60 legal moves"));
    assert!(out.lines().any(|l| l == "1g1f3>4"), "{out}");
    let out = ok(&fiveup(&["show", "--ruleset", "quasi-alice"]));
    assert!(out.contains(&format!("position: {START}\n")), "{out}");
    assert!(out.contains("ruleset: quasi-alice\n"));
    assert!(out.ends_with("status: ongoing\n"), "{out}");
    // A capture and a transfer back to the kings' board.
    let out = ok(&fiveup(&["replay", "--ruleset", "quasi-alice", "1. 1e2e4>3 1d7d5>3 2. 3e4d5>1"]));
    assert!(out.contains("moves: 1. 1e2e4>3 1d7d5>3 2. 3e4d5>1\n"), "{out}");
    assert!(out.contains("position: rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR|8/8/8/8/8/8/8/8|"), "{out}");
}

#[test]
fn bad_quasi_alice_input_is_refused_in_one_line() {
    let o = fiveup(&["replay", "--ruleset", "quasi-alice", "1. 1e2e4>3 1e7e5>1"]);
    assert_one_line_error(&o, "move 1... 1e7e5>1: '1e7e5>1' is not a legal move in this position");
    let o = fiveup(&["replay", "--ruleset", "quasi-alice", "1. e4"]);
    assert_one_line_error(&o, "is not a quasi-alice move (expected <board><from><to>[q|r|b|n]><board>");
    let o = fiveup(&["show", "--ruleset", "quasi-alice", "--position", "8/8 w - - 0 1"]);
    assert_one_line_error(&o, "--position: a quasi-alice position has 4 boards");
    let o = fiveup(&["show", "--ruleset", "quasi-alice", "--position", &START.replace("KQkq", "KQkqq")]);
    assert_one_line_error(&o, "castling field");
    let o = fiveup(&["perft", "1", "--ruleset", "quasi-alice", "--hypercylinder"]);
    assert_one_line_error(&o, "--hypercylinder is a 5x5x5 flag");
    let o = fiveup(&["perft", "1", "--ruleset", "startrek"]);
    assert_one_line_error(&o, "'startrek' (Star Trek tri-dimensional chess) is not playable yet");
}

#[test]
fn a_quasi_alice_match_plays_and_records_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("qa.games");
    let out = ok(&fiveup(&[
        "match",
        "--ruleset",
        "quasi-alice",
        "--white",
        "ab:depth=2",
        "--black",
        "random:seed=3",
        "--games",
        "2",
        "--max-plies",
        "60",
        "--concurrency",
        "2",
        "--out",
        out_file.to_str().unwrap(),
    ]));
    assert!(out.contains("ab:depth=2"), "{out}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(text.matches("[Ruleset \"quasi-alice\"]").count(), 2, "{text}");
    assert_eq!(text.matches("[Opening \"8\"]").count(), 2, "{text}");
    assert!(text.contains("1. 1"), "movetext in the game's notation: {text}");
    // The records read back: a game replayed from the file, with its final position.
    let out = ok(&fiveup(&["replay", "--record", out_file.to_str().unwrap(), "--game", "2"]));
    // (Records are written as games finish: either colour order.)
    assert!(out.starts_with("game 2 of 2: ") && out.contains("random:seed=3") && out.contains("ab:depth=2"), "{out}");
    assert!(out.contains("ruleset: quasi-alice\n") && out.contains("\nmoves: 1. 1"), "{out}");
    let out = ok(&fiveup(&["games", "stats", out_file.to_str().unwrap(), "--a", "ab:depth=2,hash=16"]));
    assert!(out.contains("ab:depth=2,hash=16 vs random:seed=3: W/D/L "), "{out}");
    assert!(out.contains("LOS") && out.contains(", 2 games"), "{out}");
    // An SPRT on the game: depth 2 against a random mover decides quickly.
    let out = ok(&fiveup(&[
        "sprt",
        "--ruleset",
        "quasi-alice",
        "--a",
        "ab:depth=2",
        "--b",
        "random",
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--max-games",
        "40",
        "--max-plies",
        "300",
        "--concurrency",
        "2",
    ]));
    assert!(out.lines().last().is_some_and(|l| l.starts_with("decision: H1 accepted")), "{out}");
    // What is not built for the game is refused before any game: players and openings files.
    // MCTS plays the game with the uniform evaluator (or a network); the 5x5x5 leaf values do not.
    let o = fiveup(&["match", "--ruleset", "quasi-alice", "--white", "mcts:uniform,sims=8", "--black", "random"]);
    assert!(o.status.success() && stdout(&o).contains("2 games"), "{}", stdout(&o));
    let o = fiveup(&["match", "--ruleset", "quasi-alice", "--white", "mcts:ab,sims=8", "--black", "random"]);
    assert_one_line_error(&o, "mcts:ab (alpha-beta leaf values) is not available for quasi-alice yet");
    let o = fiveup(&["match", "--ruleset", "quasi-alice", "--white", "ab:eval=nnue", "--black", "random"]);
    assert_one_line_error(&o, "ab:eval=nnue is not available for quasi-alice yet");
    let o =
        fiveup(&["match", "--ruleset", "quasi-alice", "--white", "random", "--black", "random", "--openings", "x.txt"]);
    assert_one_line_error(&o, "openings files are not available for quasi-alice yet");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[values]\nqueen = -3\n").unwrap();
    let spec = format!("ab:depth=1,values={}", bad.display());
    let o = fiveup(&["match", "--ruleset", "quasi-alice", "--white", &spec, "--black", "random"]);
    assert_one_line_error(&o, "values.queen = -3 is out of range");
}

#[test]
fn analyse_searches_a_quasi_alice_position() {
    // White's rook takes the hanging queen on board 2 and transfers to board 1.
    let pos = "8/8/8/8/8/8/8/K7|4k3/8/8/3q4/8/8/8/3R4|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1";
    let out = ok(&fiveup(&["analyse", "--ruleset", "quasi-alice", "--position", pos, "--engine", "ab:depth=3"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[2].starts_with("depth 3 ") && lines[2].contains("pv 1. 2d1d5>1"), "{out}");
    assert_eq!(lines[3], "bestmove 2d1d5>1");
    // MCTS with quiescence-corrected leaves and no network sees that the rook is attacked: its
    // leaves after any other move lose the rook to the queen, so it moves the rook (taking the
    // queen or leaving the queen's board: the uniform value does not count the material already
    // won, only what a capture sequence would win).
    let out = ok(&fiveup(&[
        "analyse",
        "--ruleset",
        "quasi-alice",
        "--position",
        pos,
        "--engine",
        "mcts:uniform,qs=1,sims=64",
    ]));
    assert!(out.lines().last().is_some_and(|l| l.starts_with("bestmove 2d1")), "{out}");
    let o = fiveup(&["analyse", "--ruleset", "quasi-alice", "--engine", "mcts:uniform,nnue=1"]);
    assert_one_line_error(&o, "mcts:nnue= (NNUE leaves) is not available for quasi-alice yet");
}

#[test]
fn fiveup_uci_serves_quasi_alice() {
    // A piped script: each command after a `go` waits for its search, so `isready` comes last.
    let script = "uci\nposition startpos moves 1e2e4>3\ngo depth 2\nposition fen 8/8 w - - 0 1\nisready\nquit\n";
    let out = ok(&fiveup_with_input(&["uci", "--ruleset", "quasi-alice"], script));
    assert!(out.contains("option name UCI_Variant type combo default quasi-alice "), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    let o = fiveup(&["replay", "--ruleset", "quasi-alice", &format!("1. 1e2e4>3 {best}")]);
    assert!(o.status.success(), "{best} is legal: {}", String::from_utf8_lossy(&o.stderr));
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string error: ")).collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].starts_with("info string error: position: a quasi-alice position has 4 boards"), "{out}");
    // A player the game has none of is refused before the session starts.
    let o = fiveup(&["uci", "--ruleset", "quasi-alice", "--player", "mcts:ab,sims=8"]);
    assert_one_line_error(&o, "mcts:ab (alpha-beta leaf values) is not available for quasi-alice yet");
}

#[test]
fn a_quasi_alice_tournament_rates_resumes_and_refuses_5x5x5_flags() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("t");
    let args = [
        "tournament",
        "--ruleset",
        "quasi-alice",
        "--players",
        "random:seed=1",
        "ab:depth=1",
        "ab:depth=2",
        "--games",
        "2",
        "--max-plies",
        "80",
        "--concurrency",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    let first = ok(&fiveup(&args));
    assert!(first.starts_with("3 players, 3 pairings, 6 games: 0 already in"), "{first}");
    assert!(first.contains("crosstable") && first.contains("ab:depth=2,hash=16"), "{first}");
    let text = std::fs::read_to_string(out_dir.join("games.pgn")).unwrap();
    assert_eq!(text.matches("[Ruleset \"quasi-alice\"]").count(), 6, "{text}");
    let second = ok(&fiveup(&args));
    assert!(second.starts_with("3 players, 3 pairings, 6 games: 6 already in"), "{second}");
    assert_eq!(std::fs::read_to_string(out_dir.join("games.pgn")).unwrap(), text, "nothing replayed");
    let mut flagged = args.to_vec();
    flagged.push("--hypercylinder");
    let o = fiveup(&flagged);
    assert_one_line_error(&o, "castling and hypercylinder are 5x5x5 rules; quasi-alice has neither setting");
    let never = dir.path().join("never");
    let o = fiveup(&[
        "tournament",
        "--ruleset",
        "quasi-alice",
        "--players",
        "random",
        "mcts:uniform,nnue=0.5",
        "--out",
        never.to_str().unwrap(),
    ]);
    assert_one_line_error(&o, "mcts:nnue= (NNUE leaves) is not available for quasi-alice yet");
    assert!(!never.exists(), "refused before any file is written");
}

#[test]
fn commands_not_built_for_quasi_alice_say_so_before_any_work() {
    for (args, what) in [
        (&["play", "--ruleset", "quasi-alice"][..], "play"),
        (&["nnue", "datagen", "--ruleset", "quasi-alice", "--out", "never-written", "--games", "10"], "nnue datagen"),
    ] {
        let o = fiveup(args);
        assert_one_line_error(&o, &format!("{what} is not available for quasi-alice yet"));
    }
    assert!(!std::path::Path::new("never-written").exists());
}

#[test]
fn a_tiny_quasi_alice_values_run_measures_resumes_and_refuses_bad_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("qa-values");
    let out = sub.to_str().unwrap();
    let args = [
        "values",
        "--ruleset",
        "quasi-alice",
        "--pairs",
        "1",
        "--engine",
        "ab:depth=1",
        "--imbalances",
        "P,PP,N/PPPP",
        "--exchanges",
        "R/B",
        "--max-plies",
        "60",
        "--bootstrap",
        "20",
        "--iterate",
        "2",
        "--out",
        out,
    ];
    let text = ok(&fiveup(&args));
    assert!(text.contains("piece values, quasi-alice") && text.contains("Pacey"), "{text}");
    assert!(text.contains("knight") && text.contains("4.38") && text.contains("iteration 1"), "{text}");
    let games = std::fs::read_to_string(sub.join("iter-0/games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 8, "4 imbalances x 1 pair x 2 games");
    assert!(games.contains(">"), "Quasi-Alice move text in the store: {games}");
    // The second iteration played with the first one's values, in a Quasi-Alice weights file.
    let weights = std::fs::read_to_string(sub.join("iter-1/weights.toml")).unwrap();
    assert!(weights.contains("king_board"), "{weights}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sub.join("values-summary.json")).unwrap()).unwrap();
    assert!(summary.is_object(), "{summary}");
    // A rerun on the same folder resumes: nothing left to play.
    ok(&fiveup(&args));
    assert_eq!(std::fs::read_to_string(sub.join("iter-0/games.jsonl")).unwrap(), games);
    // Bad input: one line each, nothing played.
    for (imbalances, want) in [
        ("W", "quasi-alice has no removable piece 'W'"),
        ("K", "quasi-alice has no removable piece 'K'"),
        ("P,NNN", "cannot lose 3 of kind Knight: it starts with 2"),
        ("Q//P", "bad imbalance 'Q//P'"),
    ] {
        let o = fiveup(&["values", "--ruleset", "quasi-alice", "--imbalances", imbalances, "--out", out]);
        assert_one_line_error(&o, want);
    }
    let o = fiveup(&["values", "--ruleset", "quasi-alice", "--engine", "mcts:ab", "--out", out]);
    assert_one_line_error(&o, "mcts:ab (alpha-beta leaf values) is not available for quasi-alice yet");
}
