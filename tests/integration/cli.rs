//! End-to-end tests through the built `fiveup` binary.

use crate::common::{assert_one_line_error, fiveup, stderr, stdout, BIN, FIVEUP_START};

#[test]
fn perft_prints_its_count_last() {
    let o = fiveup(&["perft", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("perft(1) = 209"));
    assert!(stderr(&o).contains("leaves/s"));
    let o = fiveup(&["perft", "1", "--ruleset", "raumschach"]);
    assert_eq!(stdout(&o).lines().last(), Some("perft(1) = 61"));
}

#[test]
fn perft_divide_sums_to_the_total() {
    let plain = fiveup(&["perft", "2", "--threads", "2"]);
    let total = stdout(&plain).lines().last().unwrap().to_string();
    let o = fiveup(&["perft", "2", "--divide", "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().last().unwrap(), total);
    let rows: Vec<(&str, u64)> =
        out.lines().filter_map(|l| l.split_once(": ")).map(|(m, n)| (m, n.parse().unwrap())).collect();
    assert_eq!(rows.len(), 209);
    let sum: u64 = rows.iter().map(|r| r.1).sum();
    assert_eq!(total, format!("perft(2) = {sum}"));
}

#[test]
fn moves_lists_both_notations() {
    let o = fiveup(&["moves"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("209 legal moves"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.iter().any(|l| l.split_whitespace().eq(["Eb1Db3/S", "N-Db3/S"])), "{out}");
    assert!(lines.iter().any(|l| l.split_whitespace().eq(["Ec2Dc3", "PEc2-Dc3"])), "{out}");
    assert!(lines.iter().any(|l| l.split_whitespace().eq(["Dc2Cc2", "Cc2"])), "{out}");
}

#[test]
fn show_prints_diagram_text_and_status() {
    let o = fiveup(&["show"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("5 |r|n|k|n|r| 5 |u|b|q|u|b|"), "{out}");
    assert!(out.contains(&format!("position: {FIVEUP_START}\n")), "{out}");
    assert!(out.ends_with("status: ongoing\n"), "{out}");
    let o = fiveup(&["show", "--ruleset", "raumschach", "--position", "startpos"]);
    assert!(stdout(&o).contains("position: 5/5/5/PPPPP/RNKNR|"));
}

#[test]
fn replay_of_the_fools_mate_reports_checkmate() {
    let o = fiveup(&["replay", "1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("moves: 1. Cc2 Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S Cc3 4. SxBe4++\n"), "{out}");
    assert!(out.ends_with("status: checkmate, white wins\n"), "{out}");
    // Moves given as separate words, coordinate form mixed in.
    let o = fiveup(&["replay", "1.", "Dc2Cc2", "P-Cc4"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn replay_names_an_ambiguous_move_with_its_number() {
    let o = fiveup(&["replay", "1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3"]);
    assert_one_line_error(&o, "move 2... P-Bd3: ambiguous: Ad4Bd3, Bd4Bd3");
    let o = fiveup(&["replay", "1. P-Cc2 Q-Cc3"]);
    assert_one_line_error(&o, "move 1... Q-Cc3: illegal");
}

#[test]
fn bad_input_gives_one_line_and_a_failure_status() {
    let o = fiveup(&["show", "--position", "rnknr/ppppp w - - 0 1"]);
    assert_one_line_error(&o, "--position: position text has 6 fields");
    let bad_board = FIVEUP_START.replace("rnknr", "rnkxr");
    let o = fiveup(&["show", "--position", &bad_board]);
    assert_one_line_error(&o, "board field: layer A rank 5: 'x' is not a piece letter of fiveup");
    let o = fiveup(&["perft", "1", "--ruleset", "chess"]);
    assert_one_line_error(&o, "unknown ruleset 'chess'");
    let o = fiveup(&["moves", "--ruleset", "raumschach", "--castling"]);
    assert_one_line_error(&o, "castling is not a rule of raumschach");
    let o = fiveup(&["perft", "1", "--threads", "0"]);
    assert_one_line_error(&o, "--threads 0 is out of range (allowed: 1..=1024)");
    let o = fiveup(&["perft", "4000000000"]);
    assert_one_line_error(&o, "perft depth 4000000000 is beyond 32");
}

#[test]
fn nonsense_and_runaway_input_is_refused_before_any_work() {
    let long = "x".repeat(10_000);
    for (args, want) in [
        (&["values", "--max-plies", "0"][..], "--max-plies 0 is out of range (allowed: 1..=100000)"),
        (&["values", "--imbalances", ""], "--imbalances \"\" names no imbalance"),
        (&["values", "--imbalances", " , "], "names no imbalance"),
        (&["values", "--concurrency", "100000"], "--concurrency 100000 is out of range (allowed: 1..=1024)"),
        (&["values", "--pairs", "1000000000"], "--pairs 1000000000 is out of range (allowed: 0..=5000000)"),
        (&["sprt", "--a", "random", "--b", "random", "--elo1", "1e9"], "need -1000 <= elo0 < elo1 <= 1000"),
        (&["sprt", "--a", "random", "--b", "random", "--alpha", "0"], "need alpha and beta in [0.000001, 0.5]"),
        (&["sprt", "--a", "random", "--b", "random", "--max-games", "1000000000000"], "--max-games 1000000000000"),
        (&["match", "--white", "random", "--black", "random", "--games", "1000000000"], "--games 1000000000"),
        (&["match", "--white", "random", "--black", "random", "--concurrency", "5000"], "--concurrency 5000"),
        (&["perft", "1", "--threads", "100000"], "--threads 100000 is out of range (allowed: 1..=1024)"),
        (
            &["replay", "1. Cc2 {a comment never closed Cc4"],
            "move 1. {a comment never clo…: this comment is never closed",
        ),
        (&["replay", "--record", "/nonexistent/games.pgn"], "/nonexistent/games.pgn"),
        (&["replay", &long], " characters)"),
    ] {
        let t0 = std::time::Instant::now();
        let o = fiveup(args);
        assert_one_line_error(&o, want);
        assert!(t0.elapsed().as_secs() < 20, "{args:?} took {:?}", t0.elapsed());
        // Each cause once, and no echo of a long input.
        let err = stderr(&o);
        assert!(err.matches("(os error 2)").count() <= 1 && err.len() < 400, "{err}");
    }
}

#[test]
fn spec_errors_list_the_accepted_forms_on_their_own_lines() {
    for (spec, want) in [
        ("ab:nodes=0", "nodes=0: expected 1..=1000000000000"),
        ("ab:depth=3,depth=4", "key 'depth' is given twice"),
        ("mcts:net=", "net=: expected a network directory, e.g. net=nets/fiveup-az"),
    ] {
        let o = fiveup(&["analyse", "--engine", spec]);
        assert!(!o.status.success(), "{spec}: {}", stdout(&o));
        let err = stderr(&o);
        let lines: Vec<&str> = err.lines().collect();
        assert!(lines[0].starts_with("error: --engine: bad player spec") && lines[0].ends_with(want), "{err}");
        assert_eq!(lines[1], "accepted player specs:", "{err}");
        assert!(lines.iter().any(|l| l.contains("mcts:net=nets/fiveup-az")) && !err.contains("model.pt"), "{err}");
    }
}

#[test]
fn values_tiny_run_completes_and_writes_its_table() {
    let dir = std::env::temp_dir().join(format!("fiveup-values-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    // Output folders are made, their parents not.
    let o = fiveup(&["values", "--pairs", "1", "--out", &format!("{out}/fiveup")]);
    assert_one_line_error(&o, "no such folder");
    std::fs::create_dir(&dir).unwrap();
    for ruleset in ["fiveup", "raumschach"] {
        let sub = format!("{out}/{ruleset}");
        let args = [
            "values",
            "--ruleset",
            ruleset,
            "--pairs",
            "1",
            "--engine",
            "ab:nodes=60,hash=1",
            "--imbalances",
            "P,PP,R",
            "--exchanges",
            "B/N",
            "--max-plies",
            "40",
            "--bootstrap",
            "30",
            "--iterate",
            "2",
            "--out",
            &sub,
        ];
        let o = fiveup(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("piece values,") && text.contains("rook") && text.contains("iteration 0"), "{text}");
        // All three methods by default: the Texel-style regression answers with values or a reason.
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{sub}/values.json")).unwrap()).unwrap();
        assert!(json["texel"].is_object() || json["texel_error"].is_string(), "{json}");
        assert!(text.contains("texel"), "{text}");
        for f in [
            "values.txt",
            "values.json",
            "values.csv",
            "values-summary.json",
            "iter-0/games.jsonl",
            "iter-0/config.json",
        ] {
            assert!(std::path::Path::new(&sub).join(f).exists(), "{ruleset}: {f} missing");
        }
        let games = std::fs::read_to_string(format!("{sub}/iter-0/games.jsonl")).unwrap();
        assert_eq!(games.lines().count(), 8, "4 imbalances x 1 pair x 2 games");
        // A rerun on the same folder resumes: nothing left to play.
        let o = fiveup(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(format!("{sub}/iter-0/games.jsonl")).unwrap(), games);
        // Other imbalances would pool games of two settings: refused, naming the setting.
        let other: Vec<&str> = args.iter().map(|a| if *a == "P,PP,R" { "P,PP,B" } else { a }).collect();
        assert_one_line_error(&fiveup(&other), "asks for imbalances = ");
    }
    // Someone else's folder is not written into.
    std::fs::write(dir.join("values.txt"), "my notes").unwrap();
    let o = fiveup(&["values", "--pairs", "1", "--imbalances", "P", "--out", out]);
    assert_one_line_error(&o, "is not empty and holds no values.toml, so it is not a values run");
    assert_eq!(std::fs::read_to_string(dir.join("values.txt")).unwrap(), "my notes");
    let o = fiveup(&["values", "--ruleset", "raumschach", "--imbalances", "W", "--out", out]);
    assert_one_line_error(&o, "raumschach has no removable piece 'W'");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn values_even_design_grows_the_wide_matches_and_resumes() {
    let dir = std::env::temp_dir().join(format!("fiveup-values-even-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let args = [
        "values",
        "--design",
        "even",
        "--exchanges",
        "none",
        "--method",
        "imbalance",
        "--pairs",
        "2",
        "--target",
        "0.01",
        "--round",
        "1",
        "--max-pairs",
        "3",
        "--engine",
        "ab:nodes=60,hash=1",
        "--max-plies",
        "30",
        "--bootstrap",
        "0",
        "--concurrency",
        "2",
        "--out",
        out,
    ];
    let o = fiveup(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // Pawn odds plus two brackets for each of the 8 Five Up pieces, e.g. the knight of 3.5.
    assert!(text.contains("N/PPP ") && text.contains("N/PPPP ") && text.contains("joint fit"), "{text}");
    // 0.01 pawn is out of reach: the matches grew from 2 pairs towards the cap of 3 (brackets a
    // wandering estimate added start at 2), and every quota was played.
    let games = std::fs::read_to_string(dir.join("iter-0/games.jsonl")).unwrap();
    let quota: std::collections::BTreeMap<String, usize> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("iter-0/quota.json")).unwrap()).unwrap();
    assert!(quota.len() >= 18 && ["P", "PP", "N/PPP", "N/PPPP", "Q/PPPPPPPPP"].iter().all(|t| quota.contains_key(*t)));
    assert!(quota.values().all(|&q| (2..=3).contains(&q)), "{quota:?}");
    assert_eq!((quota["P"], quota["PP"]), (3, 3), "β is far from ± 10%: the calibrations grew");
    assert_eq!(games.lines().count(), 2 * quota.values().sum::<usize>(), "{quota:?}");
    assert!(text.contains("games would reach it"), "{text}");
    // Resumed: nothing new is played.
    let o = fiveup(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(dir.join("iter-0/games.jsonl")).unwrap(), games);
    for (bad, want) in [
        (&["--design", "uneven"][..], "unknown --design 'uneven' (expected single or even)"),
        (&["--method", "imbalance,texl"], "unknown method 'texl'"),
        (&["--target", "0"], "--target must be a number of pawns above 0"),
        (&["--target", "0.5", "--max-pairs", "1"], "--max-pairs 1 is below --pairs 2"),
    ] {
        let mut a: Vec<&str> = vec!["values", "--pairs", "2", "--out", out];
        a.extend(bad);
        assert_one_line_error(&fiveup(&a), want);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_search_reports_speed_and_the_signature() {
    let o = fiveup(&["bench", "search", "--depths", "1,2", "--repeat", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // One row per ruleset and depth: name, evaluation, depth, nodes, best and median nodes/s.
    let rows = |out: &str| -> Vec<Vec<String>> {
        out.lines()
            .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
            .filter(|w| w.len() == 6 && (w[0] == "fiveup" || w[0] == "raumschach"))
            .collect()
    };
    let table = rows(&out);
    assert_eq!(table.len(), 4, "{out}");
    for r in &table {
        assert!(r[1] == "hand" && r[3].parse::<u64>().unwrap() > 0 && r[4].parse::<f64>().unwrap() > 0.0, "{r:?}");
    }
    assert!(out.lines().last().unwrap().starts_with("bench signature: depth 4, 12 positions, 345801 nodes"), "{out}");
    assert_one_line_error(&fiveup(&["bench", "search", "--depths", "0"]), "--depths");
    assert_one_line_error(&fiveup(&["bench", "search", "--rulesets", "chess"]), "chess");
    // With a weights file: the searches play with it (other values, another tree).
    let tapered = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/weights-fiveup-tapered.toml");
    let base = ["bench", "search", "--depths", "4", "--repeat", "1", "--rulesets", "fiveup"];
    let o = fiveup(&[&base[..], &["--values", tapered]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let with_values = stdout(&o);
    assert!(with_values.lines().next().unwrap().contains("weights-fiveup-tapered.toml"), "{with_values}");
    let plain = stdout(&fiveup(&base));
    let nodes = |out: &str| rows(out)[0][3].clone();
    assert_ne!(nodes(&with_values), nodes(&plain), "{with_values}\n{plain}");
    assert_one_line_error(
        &fiveup(&[&base[..], &["--values", "no-such-weights.toml"]].concat()),
        "no-such-weights.toml",
    );
    // With a network: its ruleset's rows search with it, and its evaluation speed is reported.
    let net = std::env::temp_dir().join(format!("fiveup-cli-bench-{}.nnue", std::process::id()));
    let dims = fiveup::engine::nnue::Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false };
    fiveup::engine::nnue::Network::random(fiveup::rules::Ruleset::Raumschach, dims, 1).save(&net).unwrap();
    let args = ["bench", "search", "--depths", "2", "--repeat", "1", "--nnue", net.to_str().unwrap()];
    let o = fiveup(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let table = rows(&out);
    assert!(table.iter().any(|r| r[0] == "raumschach" && r[1] == "nnue"), "{out}");
    assert!(table.iter().any(|r| r[0] == "fiveup" && r[1] == "hand"), "{out}");
    assert!(out.contains("nnue raumschach (32x2-8-8): incremental evaluation"), "{out}");
    assert_one_line_error(&fiveup(&[&args[..], &["--rulesets", "fiveup"]].concat()), "--rulesets");
    std::fs::write(&net, b"FIVEUPNN but cut").unwrap();
    assert_one_line_error(&fiveup(&args), net.file_name().unwrap().to_str().unwrap());
    std::fs::remove_file(&net).ok();
}

#[test]
fn nnue_datagen_writes_shards_resumes_and_refuses_other_settings() {
    let dir = std::env::temp_dir().join(format!("fiveup-cli-datagen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let args =
        ["nnue", "datagen", "--out", out, "--games", "3", "--games-per-shard", "2", "--engine", "ab:nodes=200,hash=1"];
    let o = fiveup(&[&args[..], &["--max-plies", "24", "--concurrency", "2"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("3 games played now (0 already there)"), "{}", stdout(&o));
    assert!(dir.join("data-000000.shard").exists() && dir.join("data-000001.shard").exists());
    let o = fiveup(&[&args[..], &["--max-plies", "24"]].concat());
    assert!(stdout(&o).starts_with("0 games played now (3 already there)"), "{}", stdout(&o));
    let o = fiveup(&[&args[..], &["--max-plies", "30"]].concat());
    assert_one_line_error(&o, "asks for max_plies = 30");
    let o = fiveup(&["nnue", "datagen", "--out", out, "--games", "3", "--engine", "mcts:ab"]);
    assert_one_line_error(&o, "expected an alpha-beta spec");
    if cfg!(feature = "torch") {
        // Training on far less than a batch works, and says what it means.
        let run = dir.with_extension("train");
        let _ = std::fs::remove_dir_all(&run);
        let o = fiveup(&[
            "nnue",
            "train",
            "--data",
            out,
            "--out",
            run.to_str().unwrap(),
            "--epochs",
            "1",
            "--hidden",
            "32",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("fewer than one batch of"), "{}", stderr(&o));
        std::fs::remove_dir_all(&run).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn nnue_loop_refuses_bad_configs_before_any_work() {
    let dir = std::env::temp_dir().join(format!("fiveup-cli-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("typo.toml");
    let good = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/nnue-fiveup.toml")).unwrap();
    std::fs::write(&cfg, good.replace("window = 2", "widow = 2")).unwrap();
    let run = dir.join("run");
    let o = fiveup(&["nnue", "loop", "--config", cfg.to_str().unwrap(), "--run", run.to_str().unwrap()]);
    if !cfg!(feature = "torch") {
        // A build without libtorch cannot train; it says so, and does nothing else.
        assert_one_line_error(&o, "without the `torch` feature");
        assert!(!run.exists());
        return;
    }
    assert_one_line_error(&o, "widow");
    assert!(!run.exists(), "nothing is created for a bad config");
    let o = fiveup(&["nnue", "loop", "--config", "/nonexistent.toml", "--run", run.to_str().unwrap()]);
    assert_one_line_error(&o, "nonexistent.toml");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn nnue_train_refuses_bad_sizes_before_any_work() {
    let dir = std::env::temp_dir().join(format!("fiveup-cli-kings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("run");
    // A king bucket count the trainer does not make; pairwise products need halves the kernels
    // can pack.
    for (bad, want) in [
        (&["--king-buckets", "3"][..], "3 king buckets: expected 1 (none) or 4"),
        (&["--pairwise", "--hidden", "48"][..], "hidden width 48 with pairwise products is not a multiple of 32"),
    ] {
        let mut args = vec!["nnue", "train", "--data", "/nonexistent", "--out", out.to_str().unwrap()];
        args.extend_from_slice(bad);
        let o = fiveup(&args);
        if cfg!(feature = "torch") {
            assert_one_line_error(&o, want);
        } else {
            assert_one_line_error(&o, "without the `torch` feature");
        }
        assert!(!out.exists(), "nothing is created for {bad:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_error_not_silence() {
    let o = std::process::Command::new("sh").args(["-c", "exec \"$0\" show >&-", BIN]).output().unwrap();
    assert_one_line_error(&o, "standard output is closed");
    // Redirected to /dev/null it is a place to write: no error.
    let o = std::process::Command::new("sh").args(["-c", "exec \"$0\" show >/dev/null", BIN]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `scripts/bin/fiveup`, the README's `fiveup`: a binary whose libtorch is gone (a `.venv`
/// removed) is named with the fix rather than left to the loader's message. The binary here is a
/// tiny C program linked against a stub `libtorch_cpu.so` that is then deleted.
#[cfg(target_os = "linux")]
#[test]
fn the_readme_wrapper_names_a_missing_libtorch_and_the_fix() {
    let wrapper = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bin/fiveup");
    let t = tempfile::tempdir().unwrap();
    let (lib, main, bin) = (t.path().join("libtorch_cpu.so"), t.path().join("main.c"), t.path().join("needs-torch"));
    std::fs::write(t.path().join("stub.c"), "int fiveup_stub(void) { return 1; }\n").unwrap();
    std::fs::write(&main, "int fiveup_stub(void);\nint main(void) { return fiveup_stub() - 1; }\n").unwrap();
    let cc = |args: &[&std::ffi::OsStr]| std::process::Command::new("cc").args(args).status().map(|s| s.success());
    let stub = cc(&[
        "-shared".as_ref(),
        "-fPIC".as_ref(),
        "-o".as_ref(),
        lib.as_os_str(),
        t.path().join("stub.c").as_os_str(),
    ]);
    if stub.ok() != Some(true) {
        eprintln!("no C compiler: skipped");
        return;
    }
    let dir = format!("-L{}", t.path().display());
    assert_eq!(
        cc(&[main.as_os_str(), "-o".as_ref(), bin.as_os_str(), dir.as_ref(), "-ltorch_cpu".as_ref()]).ok(),
        Some(true)
    );
    let run = || {
        std::process::Command::new(wrapper)
            .arg("show")
            .env("FIVEUP_BIN", &bin)
            .env("LD_LIBRARY_PATH", t.path())
            .output()
            .unwrap()
    };
    // With its library it runs (exit 0), through exec.
    assert!(run().status.success());
    std::fs::remove_file(&lib).unwrap();
    let o = run();
    assert_one_line_error(&o, "the libtorch it was built against is missing (libtorch_cpu.so)");
    assert!(stderr(&o).contains("run scripts/setup.sh"), "{}", stderr(&o));
    // The real binary runs through it.
    let o = std::process::Command::new(wrapper).arg("show").env("FIVEUP_BIN", BIN).output().unwrap();
    assert!(o.status.success() && stdout(&o).contains("white to move"), "{}", stderr(&o));
}

#[test]
fn runs_is_the_one_missing_folder_made_for_an_output() {
    // A fresh checkout has no runs/; the docs' commands write into it.
    let t = tempfile::tempdir().unwrap();
    let run = |out: &str| {
        std::process::Command::new(BIN)
            .args(["tournament", "--players", "random", "random:seed=2", "--games", "2", "--out", out])
            .current_dir(t.path())
            .output()
            .unwrap()
    };
    let o = run("runs/sub/t");
    assert_one_line_error(&o, "no such folder");
    assert!(!t.path().join("runs/sub").exists());
    let o = run("runs/t");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(t.path().join("runs/t/games.pgn").is_file());
}
