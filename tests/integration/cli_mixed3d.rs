//! Mixed 3D Chess through the binary: the rules commands, bad input, and the clear refusal of the
//! commands not built for it yet.

use crate::common::{assert_one_line_error, fiveup, fiveup_with_input, ok};

#[test]
fn perft_divide_moves_show_and_replay() {
    let out = ok(&fiveup(&["perft", "2", "--ruleset", "mixed3d", "--threads", "2"]));
    assert_eq!(out.lines().last(), Some("perft(2) = 35344"));
    let out = ok(&fiveup(&["perft", "2", "--divide", "--ruleset", "mixed3d", "--threads", "1"]));
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 188);
    assert!(rows.contains(&"4e2-4e4: 188"), "{out}");
    let out = ok(&fiveup(&["moves", "--ruleset", "mixed3d"]));
    assert_eq!(out.lines().last(), Some("188 legal moves"));
    assert!(out.lines().any(|l| l == "1b1-2b3"), "a knight's leap to the next level: {out}");
    let out = ok(&fiveup(&["show", "--ruleset", "mixed3d"]));
    assert!(out.contains(&format!("position: {}\n", fiveup::mixed3d::START)), "{out}");
    assert!(out.contains("ruleset: mixed3d\n") && out.contains("level 8"), "{out}");
    assert!(out.ends_with("status: ongoing\n"), "{out}");
    // A pawn capture across levels, then en passant across levels (the pawn taken stands on the
    // passed cell's level and file, one rank on).
    let out = ok(&fiveup(&["replay", "--ruleset", "mixed3d", "1. 4d2-4d4 5a7-5a6 2. 4d4-4d5 3d7-3d5 3. 4d5x3d6"]));
    assert!(out.contains("moves: 1. 4d2-4d4 5a7-5a6 2. 4d4-4d5 3d7-3d5 3. 4d5-3d6\n"), "{out}");
    assert!(out.contains("|rnbqcbnr/ppp1pppp/3P4/8/8/8/PPPPPPPP/RNBQCBNR|"), "{out}");
}

#[test]
fn bad_mixed3d_input_is_refused_in_one_line() {
    let o = fiveup(&["replay", "--ruleset", "mixed3d", "1. 4e2-4e4 4e7-4e4"]);
    assert_one_line_error(&o, "move 1... 4e7-4e4: '4e7-4e4' is not a legal move in this position");
    let o = fiveup(&["replay", "--ruleset", "mixed3d", "1. e4"]);
    assert_one_line_error(&o, "is not a mixed3d move (expected <cell>-<cell>[=Q|R|B|N]");
    let o = fiveup(&["show", "--ruleset", "mixed3d", "--position", "8/8 w - - 0 1"]);
    assert_one_line_error(&o, "--position: a mixed3d position has 8 levels");
    let start = fiveup::mixed3d::START;
    let o = fiveup(&["show", "--ruleset", "mixed3d", "--position", &start.replace("4h1,1h1", "1h1,4h1")]);
    assert_one_line_error(&o, "castling field");
    let o = fiveup(&["perft", "1", "--ruleset", "mixed3d", "--castling"]);
    assert_one_line_error(&o, "--castling is a 5x5x5 flag; mixed3d has Betza's six castlings always");
}

#[test]
fn engines_play_analyse_and_speak_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    let out = ok(&fiveup(&[
        "match",
        "--ruleset",
        "mixed3d",
        "--white",
        "ab:depth=1",
        "--black",
        "random",
        "--games",
        "2",
        "--max-plies",
        "40",
        "--out",
        games.to_str().unwrap(),
    ]));
    assert!(out.contains("ab:depth=1") && out.contains("records: "), "{out}");
    let records = std::fs::read_to_string(&games).unwrap();
    assert!(records.contains("[Ruleset \"mixed3d\"]") && records.contains("1. "), "{records}");
    // The records file reads back as Mixed 3D games.
    let out = ok(&fiveup(&["replay", "--record", games.to_str().unwrap(), "--game", "2"]));
    assert!(out.contains("ruleset: mixed3d\n") && out.contains("\nmoves: 1. ") && out.contains("level 8"), "{out}");
    // A tournament with the cap decided by material: every game ends in a result or at the cap.
    let tdir = dir.path().join("tourn");
    let out = ok(&fiveup(&[
        "tournament",
        "--ruleset",
        "mixed3d",
        "--players",
        "ab:depth=1",
        "random",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--adjudicate-material",
        "2",
        "--concurrency",
        "1",
        "--out",
        tdir.to_str().unwrap(),
    ]));
    assert!(out.contains("ab:depth=1"), "{out}");
    let pgn = std::fs::read_to_string(tdir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Ruleset \"mixed3d\"]").count(), 2, "{pgn}");
    let o = fiveup(&["match", "--white", "random", "--black", "random", "--adjudicate-material", "3"]);
    assert_one_line_error(&o, "--adjudicate-material is for mixed3d, not for the 5x5x5 games");
    let o = fiveup(&[
        "match",
        "--ruleset",
        "mixed3d",
        "--white",
        "random",
        "--black",
        "random",
        "--adjudicate-material",
        "0",
    ]);
    assert_one_line_error(&o, "--adjudicate-material must be from 0.5 to 100 pawns, not 0");
    let out = ok(&fiveup(&["analyse", "--ruleset", "mixed3d", "--engine", "ab:depth=2"]));
    assert!(out.lines().last().is_some_and(|l| l.starts_with("bestmove ")), "{out}");
    let out = ok(&fiveup(&["bench", "search", "--rulesets", "mixed3d", "--depths", "1", "--repeat", "1"]));
    assert!(out.lines().any(|l| l.starts_with("mixed3d") && l.contains("hand")), "{out}");
    let out = ok(&fiveup_with_input(
        &["uci", "--ruleset", "mixed3d", "--player", "ab:depth=1"],
        "uci\nisready\nposition startpos moves 4e2-4e4\ngo depth 1\nquit\n",
    ));
    assert!(out.contains("var mixed3d"), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    let mut p = fiveup::mixed3d::Position::start();
    p.make(p.parse_move("4e2-4e4").unwrap());
    assert!(p.parse_move(best).is_ok(), "{best}");
    let o = fiveup(&["match", "--ruleset", "mixed3d", "--white", "ab:eval=nnue", "--black", "random"]);
    assert_one_line_error(&o, "ab:eval=nnue is not available for mixed3d yet");
    let dir_values = dir.path().join("m3.toml");
    std::fs::write(&dir_values, "[values]\nknigth = 3\n").unwrap();
    let spec = format!("ab:values={}", dir_values.display());
    let o = fiveup(&["analyse", "--ruleset", "mixed3d", "--engine", &spec]);
    assert_one_line_error(&o, "unknown key 'values.knigth'");
}

#[test]
fn a_tiny_mixed3d_values_run_names_the_commoner_and_decides_the_cap_by_material() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("m3-values");
    let out = sub.to_str().unwrap();
    let args = [
        "values",
        "--ruleset",
        "mixed3d",
        "--pairs",
        "1",
        "--engine",
        "ab:depth=1",
        "--imbalances",
        "P,C/PPP",
        "--exchanges",
        "none",
        "--max-plies",
        "40",
        "--bootstrap",
        "20",
        "--out",
        out,
    ];
    let text = ok(&fiveup(&args));
    assert!(text.contains("piece values, mixed3d") && text.contains("commoner"), "{text}");
    let games = std::fs::read_to_string(sub.join("iter-0/games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 4, "2 imbalances x 1 pair x 2 games");
    assert!(games.contains("G/PPP") && games.contains("-"), "{games}");
    // A rerun resumes: no game is played again.
    let again = ok(&fiveup(&args));
    assert_eq!(std::fs::read_to_string(sub.join("iter-0/games.jsonl")).unwrap(), games, "{again}");
    let o = fiveup(&["values", "--ruleset", "mixed3d", "--imbalances", "K/PPP", "--out", out]);
    assert_one_line_error(&o, "mixed3d has no removable piece");
}

#[test]
fn mcts_players_search_with_the_game_leaf_terms_and_refuse_nnue_leaves() {
    // A uniform network with the quiescence correction and hand leaves: it plays whole games.
    let out = ok(&fiveup(&[
        "match",
        "--ruleset",
        "mixed3d",
        "--white",
        "mcts:uniform,sims=8,batch=4,qs=1,hand=0.5",
        "--black",
        "random",
        "--games",
        "2",
        "--max-plies",
        "16",
        "--adjudicate-material",
        "3",
    ]));
    assert!(out.contains("mcts:uniform"), "{out}");
    let o = fiveup(&["match", "--ruleset", "mixed3d", "--white", "mcts:uniform,nnue=0.5", "--black", "random"]);
    assert_one_line_error(&o, "mcts:nnue= (NNUE leaves) is not available for mixed3d yet");
    // Training: what is built for the 5x5x5 games only is refused by key, before any run
    // directory is made.
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("m3.toml");
    std::fs::write(&cfg, "[rules]\nruleset = \"mixed3d\"\n[bootstrap]\nenabled = true\n").unwrap();
    let run = dir.path().join("run");
    let o = fiveup(&["train", "--config", cfg.to_str().unwrap(), "--run", run.to_str().unwrap()]);
    assert_one_line_error(&o, "bootstrap.enabled");
    assert!(!run.exists());
}
