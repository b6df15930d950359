//! `fiveup train` and `fiveup selfplay` end to end through the binary: the quick config runs to
//! completion and leaves valid files; a run killed with SIGKILL mid-generation resumes to the same
//! end; a damaged checkpoint and bad configs are one-line errors.

use crate::common::{assert_ok, assert_one_line_error, text};
use fiveup::selfplay::read_shard;
use fiveup::train::checkpoint;
use fiveup::train::learner::{Learner, NullLearner};
use fiveup::train::worker::count_games;
use fiveup::train::{Phase, RunDir};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn quick() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/quick.toml")
}

/// The backend the tests train with: the model-free one (fast, and no libtorch needed).
const BACKEND: &str = "network.backend=none";

fn train_cmd(run: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fiveup"));
    c.args(["train", "--config"]).arg(quick()).arg("--run").arg(run).args(["--set", BACKEND]).args(extra);
    c.env("RUST_LOG", "warn");
    c
}

/// Checks every file of a finished run of `generations` generations.
fn check_finished_run(run: &Path, generations: u32) {
    let rd = RunDir::new(run);
    let state = rd.read_state().unwrap().unwrap();
    assert_eq!((state.generation, state.phase), (generations, Phase::Finished));
    assert_eq!(rd.read_best().unwrap(), Some(generations));
    for g in 0..generations {
        let dir = rd.shard_dir(g);
        assert!(count_games(&dir) >= 8, "gen {g}: {} games", count_games(&dir));
        for f in fiveup::train::replay::shard_files(&dir) {
            let games = read_shard(&f).unwrap_or_else(|e| panic!("{e}"));
            for g in &games {
                g.replay().unwrap();
            }
        }
    }
    for g in 0..=generations {
        assert!(rd.model_dir(g).join("net.json").exists(), "model gen {g}");
    }
    // The newest checkpoint verifies and loads.
    let (step, dir) = checkpoint::list(&rd).pop().expect("a checkpoint");
    let meta = checkpoint::verify(&dir).unwrap();
    assert_eq!(meta.step, step);
    let mut l = NullLearner::default();
    l.load(&dir).unwrap();
    assert_eq!(l.steps(), step);
    // Every metrics line parses; one generation line per generation (a resume may repeat one).
    let text = std::fs::read_to_string(rd.metrics_path()).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let gens: std::collections::BTreeSet<u64> =
        lines.iter().filter(|l| l["kind"] == "generation").map(|l| l["generation"].as_u64().unwrap()).collect();
    assert_eq!(gens, (1..=generations as u64).collect());
    assert!(lines.iter().any(|l| l["kind"] == "train"));
    // The held-out set exists, and every generation line carries its figures and the anchored Elo.
    assert!(run.join("heldout.shard").exists());
    for l in lines.iter().filter(|l| l["kind"] == "generation") {
        let top1 = l["heldout_policy_top1"].as_f64().unwrap_or_else(|| panic!("{l}"));
        assert!((0.0..=1.0).contains(&top1));
        assert!(l["heldout_value_ce"].as_f64().unwrap() > 0.0);
        assert!(l["anchored_elo"]["games"].as_f64().unwrap() > 0.0, "{l}");
        assert_eq!(l["selfplay"]["games"].as_u64(), l["games"].as_u64(), "{l}");
    }
    let png = std::fs::read(rd.plots_dir().join("progress.png")).unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
    // The ladder results, and the games behind them as PGN-style records of the match runner.
    let ladder: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(rd.eval_dir().join(format!("gen-{generations:04}.json"))).unwrap(),
    )
    .unwrap();
    let games: u64 = ladder
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["games"]["wins"].as_u64().unwrap()
                + r["games"]["draws"].as_u64().unwrap()
                + r["games"]["losses"].as_u64().unwrap()
        })
        .sum();
    let records =
        fiveup::eval::records::read_records(&rd.eval_dir().join(format!("gen-{generations:04}.games"))).unwrap();
    assert!(games > 0);
    assert_eq!(records.len() as u64, games);
    let me = format!("gen-{generations:04}");
    assert!(records.iter().all(|r| (r.white == me) != (r.black == me) && r.outcome.is_some()));
}

#[test]
fn the_quick_config_runs_end_to_end_and_a_rerun_has_nothing_to_do() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let t0 = Instant::now();
    let o = train_cmd(&run, &[]).output().unwrap();
    assert_ok(&o);
    eprintln!("quick config, 2 generations: {:.1} s", t0.elapsed().as_secs_f64());
    let out = text(&o.stdout);
    assert_eq!(out.lines().filter(|l| l.starts_with("gen ")).count(), 2, "{out}");
    assert!(out.contains("ladder: random"), "{out}");
    check_finished_run(&run, 2);
    // Rerun: finished, no new output. Then extend by one generation (only `generations` changes).
    let o = train_cmd(&run, &[]).output().unwrap();
    assert_ok(&o);
    assert_eq!(text(&o.stdout), "");
    let o = train_cmd(&run, &["--set", "generations=3"]).output().unwrap();
    assert_ok(&o);
    assert!(!text(&o.stderr).contains("written under config"), "no warning: {}", text(&o.stderr));
    check_finished_run(&run, 3);
    // Resuming without --config uses the frozen config.
    let o = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .arg("train")
        .arg("--run")
        .arg(&run)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert_ok(&o);
}

/// Waits until `ready` holds (polling), or panics after `limit`.
fn wait_for(limit: Duration, mut ready: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ready() {
        assert!(t0.elapsed() < limit, "timed out");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_run_killed_mid_generation_resumes_to_completion() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let rd = RunDir::new(&run);
    // Longer self-play with one game per shard, so kills land in the middle of things.
    let extra = [
        "--set",
        "selfplay.games_per_shard=1",
        "--set",
        "selfplay.concurrent_games=2",
        "--set",
        "selfplay.games_per_generation=12",
    ];
    let spawn = || train_cmd(&run, &extra).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // 1. Kill during self-play, once the first shard is on disk.
    let mut child = spawn();
    wait_for(Duration::from_secs(120), || count_games(&rd.shard_dir(0)) >= 1);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = count_games(&rd.shard_dir(0));
    assert!(before < 12, "killed before self-play finished ({before} games)");
    // 2. Kill again later: once a checkpoint past step 0 exists or the run moved on.
    let mut child = spawn();
    wait_for(Duration::from_secs(120), || {
        checkpoint::list(&rd).iter().any(|c| c.0 > 0)
            || rd.read_state().ok().flatten().is_some_and(|s| s.generation > 0)
    });
    child.kill().unwrap();
    child.wait().unwrap();
    // 3. Run to completion.
    let o = train_cmd(&run, &extra).output().unwrap();
    assert_ok(&o);
    check_finished_run(&run, 2);
    for g in 0..2 {
        assert_eq!(count_games(&rd.shard_dir(g)), 12, "exactly the generation's games");
    }
}

#[test]
fn ctrl_c_stops_at_a_safe_point_and_says_how_to_resume() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let rd = RunDir::new(&run);
    let extra = ["--set", "selfplay.games_per_shard=1", "--set", "selfplay.games_per_generation=12"];
    let child = train_cmd(&run, &extra).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for(Duration::from_secs(120), || rd.read_state().ok().flatten().is_some());
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("stopped: interrupted at a safe point"), "{err}");
    assert!(last.contains("resume with: ") && last.contains(&run.display().to_string()), "{err}");
    // The run resumes from where it stopped.
    assert_ok(&train_cmd(&run, &extra).output().unwrap());
    check_finished_run(&run, 2);
}

/// Sends SIGTERM to `child` and returns its output and how long it took to exit.
fn terminate(child: std::process::Child) -> (std::process::Output, Duration) {
    let t0 = Instant::now();
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let o = child.wait_with_output().unwrap();
    (o, t0.elapsed())
}

#[test]
fn sigterm_stops_bootstrap_and_self_play_within_seconds_keeping_what_was_finished() {
    // A cluster sends SIGKILL 30 s after SIGTERM: every phase must stop well before that, even
    // in the middle of a chunk of games that would take minutes.
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let rd = RunDir::new(&run);
    let long_bootstrap = [
        "--set",
        "bootstrap.enabled=true",
        "--set",
        "bootstrap.games=5000",
        "--set",
        "bootstrap.engine=ab:nodes=3000,hash=1",
        "--set",
        "bootstrap.ply_cap=200",
    ];
    let child = train_cmd(&run, &long_bootstrap).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for(Duration::from_secs(120), || read_dir_len(&rd.bootstrap_dir()) >= 2);
    let (o, took) = terminate(child);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(10), "bootstrap took {took:?} to stop: {err}");
    assert!(err.lines().last().unwrap_or_default().starts_with("stopped: interrupted at a safe point"), "{err}");
    let kept = read_dir_len(&rd.bootstrap_dir());
    assert!((2..2500).contains(&kept), "{kept} bootstrap shards");
    assert_eq!(rd.read_state().unwrap().unwrap().phase, Phase::Bootstrap);
    // The held-out set (made before the first phase): 100,000 labelled positions would take long.
    let run3 = t.path().join("run3");
    let rd3 = RunDir::new(&run3);
    let child = train_cmd(&run3, &["--set", "heldout.positions=100000"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(Duration::from_secs(120), || rd3.read_state().ok().flatten().is_some());
    std::thread::sleep(Duration::from_secs(1));
    let (o, took) = terminate(child);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(10), "the held-out set took {took:?} to stop: {err}");
    assert!(!run3.join("heldout.shard").exists(), "a set stopped half-way is not written");
    // Self-play: one chunk of 64 long games at a time.
    let run2 = t.path().join("run2");
    let rd2 = RunDir::new(&run2);
    let long_selfplay = [
        "--set",
        "selfplay.games_per_generation=640",
        "--set",
        "selfplay.concurrent_games=64",
        "--set",
        "selfplay.full_simulations=800",
        "--set",
        "selfplay.cheap_simulations=400",
        "--set",
        "selfplay.ply_cap=400",
    ];
    let child = train_cmd(&run2, &long_selfplay).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for(Duration::from_secs(120), || rd2.read_state().ok().flatten().is_some_and(|s| s.phase == Phase::Selfplay));
    std::thread::sleep(Duration::from_secs(2));
    let (o, took) = terminate(child);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(10), "self-play took {took:?} to stop: {err}");
    assert!(count_games(&rd2.shard_dir(0)) < 640);
    assert_eq!(rd2.read_state().unwrap().unwrap().phase, Phase::Selfplay);
}

fn read_dir_len(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

#[test]
fn a_damaged_checkpoint_is_a_one_line_error() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    assert_ok(&train_cmd(&run, &["--set", "generations=1"]).output().unwrap());
    let (_, dir) = checkpoint::list(&RunDir::new(&run)).pop().unwrap();
    std::fs::write(dir.join("learner.json"), b"{\"format\": \"fiveup-none\", \"steps\": 1}").unwrap();
    let o = train_cmd(&run, &["--set", "generations=2"]).output().unwrap();
    assert_one_line_error(&o, "corrupt");
    let err = text(&o.stderr);
    assert!(err.contains(&dir.display().to_string()) && err.contains("learner.json"), "{err}");
}

#[test]
fn a_run_without_its_state_or_a_folder_of_other_files_is_refused_before_any_work() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    assert_ok(&train_cmd(&run, &["--set", "generations=1"]).output().unwrap());
    // The state deleted: refused, naming what is left and the fix, and nothing is written.
    let state = std::fs::read(run.join("state.json")).unwrap();
    std::fs::remove_file(run.join("state.json")).unwrap();
    let o = train_cmd(&run, &["--set", "generations=2"]).output().unwrap();
    assert_one_line_error(&o, "but no state.json (its state was lost): restore state.json");
    assert!(text(&o.stderr).contains("checkpoints") && text(&o.stderr).contains("models"), "{}", text(&o.stderr));
    assert!(!run.join("state.json").exists());
    // Restored, the run resumes.
    std::fs::write(run.join("state.json"), state).unwrap();
    assert_ok(&train_cmd(&run, &["--set", "generations=1"]).output().unwrap());
    // A damaged held-out set is found at the start, with the fix.
    let heldout = std::fs::read(run.join("heldout.shard")).unwrap();
    std::fs::write(run.join("heldout.shard"), &heldout[..heldout.len() / 2]).unwrap();
    let o = train_cmd(&run, &["--set", "generations=2"]).output().unwrap();
    assert_one_line_error(&o, "heldout.shard: corrupt: ");
    assert!(text(&o.stderr).contains("delete it and rerun: the run makes a new held-out set"), "{}", text(&o.stderr));
    std::fs::write(run.join("heldout.shard"), &heldout).unwrap();
    // `best` naming a network that is not there is named as such.
    let best = std::fs::read(run.join("best")).unwrap();
    std::fs::write(run.join("best"), "gen-0009\n").unwrap();
    let o = train_cmd(&run, &["--set", "generations=2"]).output().unwrap();
    assert_one_line_error(&o, "best: corrupt: names gen-0009, but ");
    std::fs::write(run.join("best"), best).unwrap();
    // Someone else's folder, and a folder whose parent does not exist.
    let theirs = t.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let o = train_cmd(&theirs, &[]).output().unwrap();
    assert_one_line_error(&o, "is not empty and is not a run (no state.json; it holds notes.txt)");
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 1, "nothing written there");
    std::fs::write(t.path().join("a-file"), "x").unwrap();
    assert_one_line_error(&train_cmd(&t.path().join("a-file"), &[]).output().unwrap(), "is a file, not a run folder");
    let o = train_cmd(&t.path().join("no/such/run"), &[]).output().unwrap();
    assert_one_line_error(&o, "cannot start a run:");
    assert!(!t.path().join("no").exists());
}

#[test]
fn config_errors_are_one_line_and_name_the_key() {
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join("bad.toml");
    std::fs::write(&bad, "seed = 1\n[training]\nlearning_rate = 0.1\n").unwrap();
    let run = t.path().join("run");
    let o = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["train", "--config"])
        .arg(&bad)
        .arg("--run")
        .arg(&run)
        .output()
        .unwrap();
    assert_one_line_error(&o, "line 3: unknown field `learning_rate`");
    assert!(text(&o.stderr).contains("[training]"));
    let o = train_cmd(&run, &["--set", "training.lr=0"]).output().unwrap();
    assert_one_line_error(&o, "training.lr = 0 is out of range (allowed: (0, 10])");
    // A run refuses another config unless forced.
    assert_ok(&train_cmd(&run, &["--set", "generations=0"]).output().unwrap());
    let o = train_cmd(&run, &["--set", "generations=0", "--set", "training.lr=0.5"]).output().unwrap();
    assert_one_line_error(&o, "--force-config");
    assert_ok(
        &train_cmd(&run, &["--set", "generations=0", "--set", "training.lr=0.5", "--force-config"]).output().unwrap(),
    );
}

#[test]
fn a_bad_player_spec_in_the_config_fails_before_any_work() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let started = Instant::now();
    for (set, want) in [
        ("evaluation.ladder=[\"random\", \"ab:depth=0\"]", "evaluation.ladder: bad player spec 'ab:depth=0'"),
        ("evaluation.ladder=[\"random\", \"ab:depth=2,depth=3\"]", "key 'depth' is given twice"),
        ("bootstrap.engine=\"ab:nodes=0\"", "nodes=0"),
    ] {
        let o = train_cmd(&run, &["--set", "bootstrap.enabled=true", "--set", set]).output().unwrap();
        assert_one_line_error(&o, want);
        // Nothing was made: no run directory, so no self-play or training happened first.
        assert!(!run.exists(), "{set}: the run directory was created before the check");
    }
    assert!(started.elapsed() < Duration::from_secs(60), "the checks come before any long work");
}

/// `network.init` starts a run from a published network: a missing one fails before the run
/// directory exists; an existing one becomes network 0.
#[test]
fn a_run_starts_from_the_network_named_by_network_init() {
    let t = tempfile::tempdir().unwrap();
    let first = t.path().join("first");
    assert_ok(&train_cmd(&first, &["--set", "generations=1"]).output().unwrap());
    let run = t.path().join("run");
    let missing = t.path().join("no-such-net");
    let o = train_cmd(&run, &["--set", &format!("network.init=\"{}\"", missing.display())]).output().unwrap();
    assert_one_line_error(&o, &missing.join("net.json").display().to_string());
    assert!(!run.exists(), "the run directory was created before the check");
    let published = RunDir::new(&first).model_dir(1);
    let init = format!("network.init=\"{}\"", published.display());
    assert_ok(&train_cmd(&run, &["--set", "generations=1", "--set", &init]).output().unwrap());
    check_finished_run(&run, 1);
    let frozen = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(frozen.contains(&published.display().to_string()), "the frozen config names the start");
}

#[test]
fn runs_heldout_measures_every_generation_on_the_runs_set_or_a_new_one() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    assert_ok(&train_cmd(&run, &["--set", "generations=1"]).output().unwrap());
    let heldout = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fiveup"));
        c.args(["runs", "heldout", "--run"]).arg(&run).args(args).env("RUST_LOG", "warn");
        c.output().unwrap()
    };
    // On the run's own set: the figures the trainer recorded, one line per published network.
    let o = heldout(&["--json"]);
    assert_ok(&o);
    let lines: Vec<serde_json::Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.iter().map(|l| l["generation"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 1]);
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("eval/heldout-0001.json")).unwrap()).unwrap();
    for key in ["policy_top1", "value_ce", "score_mse"] {
        assert_eq!(lines[1][key], recorded[key], "{key}");
    }
    // Beside the cross-entropy: the mean draw probability and the set's share of draws.
    let items = fiveup::train::heldout::load(&RunDir::new(&run)).unwrap();
    let draws = items.iter().filter(|it| it.outcome[1] == 1.0).count() as f64 / items.len() as f64;
    for l in &lines {
        assert!((l["outcome_draw"].as_f64().unwrap() - draws).abs() < 1e-9, "{l}");
        assert!((0.0..=1.0).contains(&l["draw"].as_f64().unwrap()), "{l}");
    }
    // A new set, labelled by another search, is made once and then read.
    let set = t.path().join("other.shard");
    let s = set.to_str().unwrap();
    let o = heldout(&["--set", s, "--label", "ab:nodes=300,hash=1", "--positions", "12"]);
    assert_ok(&o);
    let out = text(&o.stdout);
    assert!(out.starts_with(&format!("{s}: 12 positions labelled by ab:nodes=300,hash=1\n")), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("gen-")).count(), 2, "{out}");
    let made = std::fs::metadata(&set).unwrap().modified().unwrap();
    let o = heldout(&["--set", s]);
    assert_ok(&o);
    assert_eq!(text(&o.stdout), out, "the same set, the same figures");
    assert_eq!(std::fs::metadata(&set).unwrap().modified().unwrap(), made, "the set was rewritten");
    // A set from games already played (here the run's own self-play games): the positions the
    // engine's games would give, labelled the same way, with those games' outcomes.
    let from_games = t.path().join("from-games.shard");
    let g = from_games.to_str().unwrap();
    let shards = run.join("shards").join("gen-0000");
    let o = heldout(
        &["--set", g, "--label", "ab:nodes=300,hash=1", "--positions", "15", "--games"]
            .into_iter()
            .chain([shards.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert_ok(&o);
    let out = text(&o.stdout);
    assert!(out.starts_with(&format!("{g}: 15 positions labelled by ab:nodes=300,hash=1\n")), "{out}");
    let games = fiveup::selfplay::read_shard(&from_games).unwrap();
    let played: Vec<fiveup::selfplay::GameRecord> = fiveup::train::replay::shard_files(&shards)
        .iter()
        .flat_map(|p| fiveup::selfplay::read_shard(p).unwrap())
        .collect();
    let cfg = RunDir::new(&run).frozen_config().unwrap().unwrap().heldout;
    for rec in &games {
        let source = played.iter().find(|p| p.game_index == rec.game_index).expect("a game of the run");
        assert_eq!((&rec.moves, rec.result), (&source.moves, source.result));
        assert!(rec.evaluator.ends_with(" labelled by ab:nodes=300,hash=1"), "{}", rec.evaluator);
        let positions = rec.replay().unwrap();
        for p in &rec.positions {
            assert_eq!((p.ply - cfg.opening_plies) % cfg.stride, 0, "ply {}", p.ply);
            assert!(positions[p.ply as usize].legal_moves().iter().any(|m| m.bits() == p.policy[0].0));
            assert!(p.engine_score.is_some());
        }
    }
    assert_eq!(games.iter().map(|r| r.positions.len()).sum::<usize>(), 15);
    assert_one_line_error(&heldout(&["--set", g, "--games", shards.to_str().unwrap()]), "exists");
    assert_one_line_error(&heldout(&["--games", shards.to_str().unwrap()]), "--set");
    let none = t.path().join("none.shard");
    let missing = t.path().join("no-such-dir");
    let o = heldout(&["--set", none.to_str().unwrap(), "--games", missing.to_str().unwrap()]);
    assert_one_line_error(&o, "no such shard or directory");
    let empty = t.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_one_line_error(&heldout(&["--set", none.to_str().unwrap(), "--games", empty.to_str().unwrap()]), "no games");
    assert!(!none.exists());
    // Players measured as teachers: the label's own search agrees with itself; an MCTS player
    // reports a WDL, alpha-beta only a score, `random` neither.
    let o = heldout(&[
        "--set",
        s,
        "--first",
        "10",
        "--json",
        "--player",
        "ab:nodes=300,hash=1",
        "--player",
        "mcts:uniform,sims=8",
        "--player",
        "random",
    ]);
    assert_ok(&o);
    let lines: Vec<serde_json::Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "{}", text(&o.stdout));
    assert!(lines.iter().all(|l| l["positions"] == 10));
    assert!(lines[0]["policy_top1"].as_f64().unwrap() >= 0.7, "{}", lines[0]);
    assert!(lines[0]["value_ce"].is_null() && lines[0]["score_mse"].as_f64().unwrap() < 0.01, "{}", lines[0]);
    assert!(lines[1]["value_ce"].as_f64().unwrap() > 0.0 && lines[1]["score_mse"].as_f64().is_some(), "{}", lines[1]);
    assert!((1.0..=8.0).contains(&lines[1]["nodes"].as_f64().unwrap()), "{}", lines[1]);
    assert!((0.0..=1.0).contains(&lines[1]["draw"].as_f64().unwrap()) && lines[0]["draw"].is_null(), "{}", lines[1]);
    assert!(lines[2]["value_ce"].is_null() && lines[2]["score_mse"].is_null(), "{}", lines[2]);
    // Mistakes are one-line errors.
    // (A bad spec's error is followed by the accepted forms, as everywhere.)
    let o = heldout(&["--set", s, "--player", "ab:depht=2"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.starts_with("error: --player: bad player spec 'ab:depht=2': unknown key 'depht'"), "{err}");
    assert_one_line_error(&heldout(&["--set", s, "--first", "0", "--player", "random"]), "--first 0");
    assert_one_line_error(&heldout(&["--set", s, "--label", "ab:nodes=400,hash=1"]), "labelled by ab:nodes=300,hash=1");
    assert_one_line_error(&heldout(&["--label", "ab:nodes=400,hash=1"]), "--set");
    let bad = t.path().join("bad.shard");
    assert_one_line_error(&heldout(&["--set", bad.to_str().unwrap(), "--label", "random"]), "heldout.label");
    assert!(!bad.exists());
    let o =
        Command::new(env!("CARGO_BIN_EXE_fiveup")).args(["runs", "heldout", "--run"]).arg(t.path()).output().unwrap();
    assert_one_line_error(&o, "not a training run");
}

#[test]
fn a_selfplay_worker_feeds_the_generation_in_progress() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    // A run that has published network 0 but not yet started self-play: train for 0 generations
    // then reopen generation 0 by hand.
    assert_ok(&train_cmd(&run, &["--set", "generations=0"]).output().unwrap());
    let rd = RunDir::new(&run);
    let o = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["selfplay", "--run"])
        .arg(&run)
        .args(["--games", "2"])
        .output()
        .unwrap();
    assert_one_line_error(&o, "the run is finished (0 generations): nothing to play; raise `generations`");
    std::fs::create_dir_all(rd.model_dir(0)).unwrap();
    NullLearner::default().publish(&rd.model_dir(0)).unwrap();
    rd.write_best(0).unwrap();
    rd.write_state(&fiveup::train::RunState::new(false)).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_fiveup"))
        .args(["selfplay", "--run"])
        .arg(&run)
        .args(["--games", "3", "--worker", "box2"])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert_ok(&o);
    assert_eq!(count_games(&rd.shard_dir(0)), 3);
    assert!(fiveup::train::replay::shard_files(&rd.shard_dir(0)).iter().all(|p| p
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("box2-")));
}

/// A second Ctrl-C stops a torch run at once, while its network is busy in self-play, with no
/// panic (`exit` ran libtorch's static destructors under a running forward pass: a panic one time
/// in three), and the run then resumes and finishes.
#[cfg(feature = "torch")]
#[test]
fn a_second_ctrl_c_stops_a_torch_run_at_once_without_a_panic() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let rd = RunDir::new(&run);
    let cmd = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fiveup"));
        c.args(["train", "--config"]).arg(quick()).arg("--run").arg(&run);
        c.args([
            "--set",
            "network.backend=torch",
            "--set",
            "generations=1",
            "--set",
            "selfplay.games_per_generation=24",
        ]);
        c.env("RUST_LOG", "warn");
        c
    };
    let child = cmd().stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    // Self-play has started once a game is in a shard.
    wait_for(Duration::from_secs(120), || count_games(&rd.shard_dir(0)) > 0);
    for _ in 0..2 {
        assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
        std::thread::sleep(Duration::from_millis(100));
    }
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The first Ctrl-C may already have stopped it at a safe point (self-play stops within a
    // step); otherwise the second ends it at once. Either way: 130, no panic, how to resume.
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("stopped; resume with: ") || last.starts_with("stopped: interrupted at a safe point"),
        "{err}"
    );
    assert!(count_games(&rd.shard_dir(0)) < 24, "stopped before self-play finished");
    assert_ok(&cmd().output().unwrap());
    let state = rd.read_state().unwrap().unwrap();
    assert_eq!((state.generation, state.phase), (1, Phase::Finished));
    assert_eq!(count_games(&rd.shard_dir(0)), 24, "exactly the generation's games");
}

/// The real tch network end to end: the quick config trains and publishes a network (its
/// checkpoint holds the optimizer state) that then plays as an `mcts:net=` player.
#[cfg(feature = "torch")]
#[test]
fn the_quick_config_trains_a_real_network_that_then_plays() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let real = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fiveup"));
        c.args(["train", "--config"]).arg(quick()).arg("--run").arg(&run).args(["--set", "network.backend=torch"]);
        c.args(extra).env("RUST_LOG", "warn");
        c
    };
    let t0 = Instant::now();
    let o = real(&["--set", "generations=1"]).output().unwrap();
    assert_ok(&o);
    eprintln!("quick config with torch, 1 generation: {:.1} s", t0.elapsed().as_secs_f64());
    let rd = RunDir::new(&run);
    let model = rd.model_dir(1);
    let sidecar = std::fs::read_to_string(model.join("net.json")).unwrap();
    assert!(sidecar.contains("\"channels\": 16") || sidecar.contains("\"channels\":16"), "{sidecar}");
    // The optimizer state travels with the weights in checkpoints.
    let (_, ck) = checkpoint::list(&rd).pop().expect("a checkpoint");
    assert!(ck.join("optimizer.safetensors").exists() && ck.join("weights.safetensors").exists());
    // The published network plays legal moves as an MCTS player.
    let spec = format!("mcts:net={},sims=8", model.display());
    let o = Command::new(env!("CARGO_BIN_EXE_fiveup")).args(["analyse", "--engine", &spec]).output().unwrap();
    assert_ok(&o);
    let out = text(&o.stdout);
    let best = out.lines().last().unwrap().strip_prefix("bestmove ").expect("bestmove line").to_string();
    let moves = Command::new(env!("CARGO_BIN_EXE_fiveup")).args(["moves"]).output().unwrap();
    assert!(text(&moves.stdout).contains(&best), "{best} is not a legal start move");
}

/// `fiveup games export` turns a run's self-play shards into text records that `replay --record`
/// reads back.
#[test]
fn self_play_shards_export_as_text_records() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    assert_ok(&train_cmd(&run, &["--set", "generations=1"]).output().unwrap());
    let pgn = t.path().join("games.pgn");
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let o =
        Command::new(bin).args(["games", "export"]).arg(run.join("shards")).arg("--out").arg(&pgn).output().unwrap();
    assert_ok(&o);
    let records = fiveup::eval::records::read_records(&pgn).unwrap();
    let shards = count_games(&RunDir::new(&run).shard_dir(0)) as usize;
    assert!(records.len() >= shards && shards >= 8, "{} records, {shards} games", records.len());
    assert!(records.iter().all(|r| r.event == "selfplay" && r.outcome.is_some()));
    let o = Command::new(bin).args(["replay", "--record"]).arg(&pgn).args(["--game", "1"]).output().unwrap();
    assert_ok(&o);
    let o = Command::new(bin).args(["games", "export", "no/such/dir"]).output().unwrap();
    assert_one_line_error(&o, "no/such/dir");
}

fn quasi_alice_quick() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/quasi-alice-quick.toml")
}

/// 4D Quasi-Alice trains through the same loop: its shards replay as Quasi-Alice games, its
/// ladder plays its own alpha-beta, and a worker and the export read its records.
#[test]
fn the_quasi_alice_quick_config_trains_end_to_end() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let train = |extra: &[&str]| {
        let mut c = Command::new(bin);
        c.args(["train", "--config"]).arg(quasi_alice_quick()).arg("--run").arg(&run);
        c.args(["--set", BACKEND, "--set", "generations=1"]).args(extra).env("RUST_LOG", "warn");
        c.output().unwrap()
    };
    let o = train(&["--threads", "0"]);
    assert_one_line_error(&o, "--threads 0 is out of range");
    assert!(!run.exists(), "refused before the run directory is made");
    let o = train(&["--threads", "1"]);
    assert_ok(&o);
    let rd = RunDir::new(&run);
    let state = rd.read_state().unwrap().unwrap();
    assert_eq!((state.generation, state.phase), (1, Phase::Finished));
    let dir = rd.shard_dir(0);
    assert!(count_games(&dir) >= 8);
    for f in fiveup::train::replay::shard_files(&dir) {
        for g in read_shard(&f).unwrap() {
            assert_eq!(g.variant.ruleset, "quasi-alice");
            g.replay_of::<fiveup::quasi_alice::Position>().unwrap();
        }
    }
    // The ladder played the game's own players and recorded the games as Quasi-Alice records.
    let ladder = std::fs::read_to_string(run.join("eval/gen-0001.json")).unwrap();
    assert!(ladder.contains("\"ab:depth=1\"") && ladder.contains("\"random\""), "{ladder}");
    let games = run.join("eval/gen-0001.games");
    let records = fiveup::eval::records::read_records_of::<fiveup::quasi_alice::Position>(&games).unwrap();
    assert_eq!(records.len(), 4);
    // The export writes Quasi-Alice records that replay reads back.
    let pgn = t.path().join("qa.pgn");
    let o =
        Command::new(bin).args(["games", "export"]).arg(run.join("shards")).arg("--out").arg(&pgn).output().unwrap();
    assert_ok(&o);
    let o = Command::new(bin).args(["replay", "--record"]).arg(&pgn).args(["--game", "1"]).output().unwrap();
    assert_ok(&o);
    // A 5x5x5-only setting is refused before any work, naming the key and the game.
    let o = train(&["--set", "selfplay.nnue_leaf=0.5"]);
    assert_one_line_error(&o, "selfplay.nnue_leaf");
    assert!(text(&o.stderr).contains("quasi-alice"), "{}", text(&o.stderr));
}

fn mixed3d_quick() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/mixed3d-quick.toml")
}

/// Mixed 3D trains through the same loop: its shards replay as Mixed 3D games, its ladder plays
/// its own alpha-beta with games at the cap judged by material.
#[test]
fn the_mixed3d_quick_config_trains_end_to_end() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let train = |extra: &[&str]| {
        let mut c = Command::new(bin);
        c.args(["train", "--config"]).arg(mixed3d_quick()).arg("--run").arg(&run);
        c.args(["--set", BACKEND, "--set", "generations=1"]).args(extra).env("RUST_LOG", "warn");
        c.output().unwrap()
    };
    let o = train(&["--set", "evaluation.adjudicate_material=-1"]);
    assert_one_line_error(&o, "evaluation.adjudicate_material");
    assert!(!run.exists(), "refused before the run directory is made");
    let o = train(&["--threads", "1"]);
    assert_ok(&o);
    let rd = RunDir::new(&run);
    let state = rd.read_state().unwrap().unwrap();
    assert_eq!((state.generation, state.phase), (1, Phase::Finished));
    let dir = rd.shard_dir(0);
    assert!(count_games(&dir) >= 4);
    for f in fiveup::train::replay::shard_files(&dir) {
        for g in read_shard(&f).unwrap() {
            assert_eq!(g.variant.ruleset, "mixed3d");
            let positions = g.replay_of::<fiveup::mixed3d::Position>().unwrap();
            assert!(positions.len() > 4);
        }
    }
    let ladder = std::fs::read_to_string(run.join("eval/gen-0001.json")).unwrap();
    assert!(ladder.contains("\"ab:depth=1\"") && ladder.contains("\"random\""), "{ladder}");
    let records =
        fiveup::eval::records::read_records_of::<fiveup::mixed3d::Position>(&run.join("eval/gen-0001.games")).unwrap();
    assert_eq!(records.len(), 4);
    // The judge is for Mixed 3D only.
    let qa = t.path().join("qa");
    let o = Command::new(bin)
        .args(["train", "--config"])
        .arg(quasi_alice_quick())
        .arg("--run")
        .arg(&qa)
        .args(["--set", "evaluation.adjudicate_material=3"])
        .output()
        .unwrap();
    assert_one_line_error(&o, "the material judge is for mixed3d");
}

/// A real Mixed 3D network: trained by the quick config, it plays as an `mcts:net=` player of
/// this game, and another game refuses it by name.
#[cfg(feature = "torch")]
#[test]
fn a_trained_mixed3d_network_plays_its_game_only() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let o = Command::new(bin)
        .args(["train", "--config"])
        .arg(mixed3d_quick())
        .arg("--run")
        .arg(&run)
        .args(["--set", "generations=1", "--set", "evaluation.games_per_rung=0"])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert_ok(&o);
    let net = RunDir::new(&run).model_dir(1);
    let spec = format!("mcts:net={},sims=8,qs=1", net.display());
    let o = Command::new(bin)
        .args(["match", "--ruleset", "mixed3d", "--white", &spec, "--black", "random", "--games", "2"])
        .args(["--max-plies", "12"])
        .output()
        .unwrap();
    assert_ok(&o);
    assert!(text(&o.stdout).contains("2 games"), "{}", text(&o.stdout));
    let o = Command::new(bin)
        .args(["match", "--ruleset", "quasi-alice", "--white", &spec, "--black", "random", "--games", "2"])
        .output()
        .unwrap();
    assert_one_line_error(&o, "a network for mixed3d");
}

/// A real Quasi-Alice network: trained by the quick config, it plays as an `mcts:net=` player of
/// this game, and a 5x5x5 game refuses it by name.
#[cfg(feature = "torch")]
#[test]
fn a_trained_quasi_alice_network_plays_its_game_only() {
    let t = tempfile::tempdir().unwrap();
    let run = t.path().join("run");
    let bin = env!("CARGO_BIN_EXE_fiveup");
    let o = Command::new(bin)
        .args(["train", "--config"])
        .arg(quasi_alice_quick())
        .arg("--run")
        .arg(&run)
        .args([
            "--set",
            "generations=1",
            "--set",
            "evaluation.games_per_rung=0",
            "--set",
            "selfplay.games_per_generation=4",
        ])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert_ok(&o);
    let net = RunDir::new(&run).model_dir(1);
    let spec = format!("mcts:net={},sims=8", net.display());
    let o = Command::new(bin)
        .args(["match", "--ruleset", "quasi-alice", "--white", &spec, "--black", "random", "--games", "2"])
        .args(["--max-plies", "12"])
        .output()
        .unwrap();
    assert_ok(&o);
    assert!(text(&o.stdout).contains("2 games"), "{}", text(&o.stdout));
    let o = Command::new(bin).args(["match", "--white", &spec, "--black", "random", "--games", "2"]).output().unwrap();
    assert_one_line_error(&o, "a network for quasi-alice");
}
