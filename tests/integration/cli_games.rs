//! Evaluation games on workers (`--run DIR` and `fiveup games worker`), end to end through the
//! binary on a shared directory; `scripts/demo-games-cluster.sh` does the same against a real S3
//! server, with kills.

use crate::common::*;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[&str]) -> Child {
    Command::new(BIN).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary runs")
}

fn worker(run: &Path, name: &str, dir: &Path) -> Child {
    let cache = dir.join(format!("cache-{name}"));
    spawn(&["games", "worker", "--run", run.to_str().unwrap(), "--name", name, "--cache", cache.to_str().unwrap()])
}

/// Records without their thinking times, which differ from run to run.
fn records(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap().lines().filter(|l| !l.contains("Seconds \"")).collect::<Vec<_>>().join("\n")
}

/// A command's summary without the lines that name files or times.
fn summary(text: &str) -> String {
    text.lines().filter(|l| !l.starts_with("records:") && !l.starts_with("per move:")).collect::<Vec<_>>().join("\n")
}

fn finished(c: Child) -> String {
    let o = c.wait_with_output().unwrap();
    ok(&o)
}

#[test]
fn a_match_and_an_sprt_on_workers_equal_those_played_here() {
    let dir = scratch("games", "match");
    let run = dir.join("eval");
    std::fs::create_dir(&run).unwrap();
    let d = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let base = ["match", "--white", "ab:depth=2", "--black", "ab:depth=1", "--games", "6", "--openings", "random:4"];
    let more = ["--seed", "3", "--max-plies", "80"];
    let here = ok(&fiveup(&[&base[..], &more, &["--concurrency", "1", "--out", &d("local.pgn")]].concat()));
    let coordinator = spawn(&[&base[..], &more, &["--run", run.to_str().unwrap(), "--out", &d("dist.pgn")]].concat());
    let workers = [worker(&run, "w1", &dir), worker(&run, "w2", &dir)];
    let there = finished(coordinator);
    assert_eq!(summary(&there), summary(&here));
    assert_eq!(records(&dir.join("dist.pgn")), records(&dir.join("local.pgn")));
    let mut pairs = 0;
    for w in workers {
        let out = finished(w);
        assert!(out.contains("the evaluation is finished: the match is over"), "{out}");
        pairs += out.split_whitespace().nth(1).unwrap().parse::<u32>().unwrap();
    }
    assert_eq!(pairs, 3, "each pair played once");
    let status = ok(&fiveup(&["games", "status", "--run", run.to_str().unwrap()]));
    assert!(status.contains("state: finished") && status.contains("pairs: 3 results, 0 posted"), "{status}");

    // The same SPRT here and on one worker: the same lines, the same decision.
    let sprt = ["sprt", "--a", "ab:depth=2", "--b", "ab:depth=1", "--elo0", "0", "--elo1", "200", "--max-games", "20"];
    let here = ok(&fiveup(&[&sprt[..], &more, &["--concurrency", "1"]].concat()));
    let run2 = dir.join("eval-sprt");
    std::fs::create_dir(&run2).unwrap();
    let coordinator = spawn(&[&sprt[..], &more, &["--run", run2.to_str().unwrap()]].concat());
    let w = worker(&run2, "w1", &dir);
    assert_eq!(finished(coordinator), here);
    assert!(here.contains("decision: "), "{here}");
    assert!(finished(w).contains("the evaluation is finished"));
}

#[test]
fn a_tournament_and_a_values_run_on_workers_write_their_outputs() {
    let dir = scratch("games", "tournament");
    let run = dir.join("eval-t");
    std::fs::create_dir(&run).unwrap();
    let out = dir.join("t");
    let t = spawn(&[
        "tournament",
        "--players",
        "ab:depth=1",
        "random",
        "--games",
        "4",
        "--max-plies",
        "60",
        "--out",
        out.to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
    ]);
    let w = worker(&run, "w1", &dir);
    let text = finished(t);
    assert!(text.contains("ratings: "), "{text}");
    assert_eq!(std::fs::read_to_string(out.join("games.pgn")).unwrap().matches("[Event ").count(), 4);
    assert!(out.join("ratings.json").exists());
    assert!(finished(w).contains("2 pairs (4 games) counted"));

    // Values with a feedback iteration: its weights file travels to the worker through the store.
    let (text, games, out) = values_on_a_worker(&dir, &["raumschach", "P,R", "40", "--iterate", "2"]);
    assert!(text.contains("piece values,") && text.contains("rook"), "{text}");
    assert_eq!(games.lines().count(), 4);
    assert!(out.contains("counted"), "{out}");
}

/// A tiny `values` run (`[ruleset, imbalances, max plies, more flags...]`, one pair each, a
/// 60-node engine) on one worker in `dir`: its output, its `iter-0/games.jsonl` and the worker's
/// output.
fn values_on_a_worker(dir: &Path, args: &[&str]) -> (String, String, String) {
    let run = dir.join("eval-v");
    std::fs::create_dir(&run).unwrap();
    let vout = dir.join("v");
    let (ruleset, imbalances, plies, more) = (args[0], args[1], args[2], &args[3..]);
    let fixed = ["values", "--ruleset", ruleset, "--pairs", "1", "--engine", "ab:nodes=60,hash=1"];
    let tail = ["--imbalances", imbalances, "--max-plies", plies, "--bootstrap", "20"];
    let paths = ["--out", vout.to_str().unwrap(), "--run", run.to_str().unwrap()];
    let v = spawn(&[&fixed[..], &tail, more, &paths].concat());
    let w = worker(&run, "w1", dir);
    let text = finished(v);
    let games = std::fs::read_to_string(vout.join("iter-0/games.jsonl")).unwrap();
    (text, games, finished(w))
}

#[test]
fn mixed3d_games_judged_by_material_on_workers_equal_those_played_here() {
    let dir = scratch("games", "mixed3d");
    let run = dir.join("eval");
    std::fs::create_dir(&run).unwrap();
    let d = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let base = ["match", "--ruleset", "mixed3d", "--white", "ab:depth=1", "--black", "random:seed=2", "--games", "4"];
    let more = ["--seed", "3", "--max-plies", "30", "--adjudicate-material", "3"];
    let here = ok(&fiveup(&[&base[..], &more, &["--concurrency", "1", "--out", &d("local.pgn")]].concat()));
    let coordinator = spawn(&[&base[..], &more, &["--run", run.to_str().unwrap(), "--out", &d("dist.pgn")]].concat());
    let w = worker(&run, "w1", &dir);
    assert_eq!(summary(&finished(coordinator)), summary(&here));
    let local = records(&dir.join("local.pgn"));
    assert!(local.contains("adjudication/material") && local.contains("adjudication/ply-cap"), "{local}");
    assert_eq!(records(&dir.join("dist.pgn")), local);
    assert!(finished(w).contains("2 pairs (4 games) counted"));

    // A values run, whose games reaching the cap are judged by material, on a worker.
    let (text, games, out) = values_on_a_worker(&dir, &["mixed3d", "P,Q/PPPPPPPPPP", "20"]);
    assert!(text.contains("piece values,") && text.contains("queen"), "{text}");
    assert_eq!(games.lines().count(), 4);
    let by_material = |l: &&str| l.contains(r#""rule":"adjudication""#) && !l.contains("1/2-1/2");
    assert!(games.lines().any(|l| by_material(&l)), "a game decided by material at the cap: {games}");
    assert!(out.contains("counted"), "{out}");
}

#[test]
fn a_stopped_worker_gives_its_pair_up_at_once() {
    let dir = scratch("games", "sigterm");
    let run = dir.join("eval");
    std::fs::create_dir(&run).unwrap();
    let mut c = spawn(&[
        "match",
        "--white",
        "ab:depth=4",
        "--black",
        "ab:depth=4",
        "--games",
        "200",
        "--run",
        run.to_str().unwrap(),
    ]);
    let w = worker(&run, "w1", &dir);
    let t0 = Instant::now();
    let claimed = || std::fs::read_dir(run.join("claims")).map(|d| d.count() > 0).unwrap_or(false);
    while !claimed() {
        assert!(t0.elapsed() < Duration::from_secs(30), "no claim");
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = w.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let t1 = Instant::now();
    let o = w.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(t1.elapsed() < Duration::from_secs(10));
    assert!(stderr(&o).contains("given up"), "{}", stderr(&o));
    let released = std::fs::read_dir(run.join("claims"))
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .any(|f| f.unwrap().file_name().to_string_lossy().ends_with(".released"));
    assert!(released, "the claim is marked released");
    c.kill().unwrap();
    c.wait().unwrap();
}

#[test]
fn bad_input_for_games_on_workers_is_one_line_before_any_game() {
    let dir = scratch("games", "bad");
    let run = dir.join("eval");
    let r = run.to_str().unwrap();
    let m = ["match", "--white", "ab:depth=1", "--black", "ab:depth=1", "--games", "2"];
    assert_one_line_error(
        &fiveup(&[&m[..], &["--run", r, "--concurrency", "2"]].concat()),
        "--concurrency does not apply with --run",
    );
    assert_one_line_error(&fiveup(&[&m[..], &["--claim-ttl", "30"]].concat()), "--claim-ttl applies only with --run");
    assert_one_line_error(
        &fiveup(&[&m[..], &["--run", r, "--claim-ttl", "1"]].concat()),
        "--claim-ttl must be 5..=3600",
    );
    assert_one_line_error(&fiveup(&[&m[..], &["--run", "ftp://x/y"]].concat()), "unknown scheme");
    let tb = dir.join("tb");
    std::fs::create_dir(&tb).unwrap();
    assert_one_line_error(
        &fiveup(&[&m[..], &["--run", r, "--adjudicate-tb", tb.to_str().unwrap()]].concat()),
        "--adjudicate-tb does not apply with --run",
    );
    assert!(!run.exists(), "nothing written");
    // A training run's folder, and a folder of other files.
    let train = dir.join("train");
    std::fs::create_dir(&train).unwrap();
    std::fs::write(train.join("state.json"), "{}").unwrap();
    assert_one_line_error(&fiveup(&[&m[..], &["--run", train.to_str().unwrap()]].concat()), "holds a training run");
    assert_one_line_error(
        &fiveup(&["games", "worker", "--run", train.to_str().unwrap(), "--name", "w1"]),
        "holds a training run",
    );
    let other = dir.join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    assert_one_line_error(
        &fiveup(&[&m[..], &["--run", other.to_str().unwrap()]].concat()),
        "holds files but no evaluation",
    );
    // Workers: a missing folder, a bad name, another version's evaluation.
    assert_one_line_error(&fiveup(&["games", "worker", "--run", r]), "no such directory");
    assert_one_line_error(&fiveup(&["games", "worker", "--run", r, "--name", "a/b"]), "--name \"a/b\"");
    std::fs::create_dir(&run).unwrap();
    std::fs::write(
        run.join("games.json"),
        r#"{"format":"fiveup-games","fiveup":"0.0.1 (games format 0)","game":"fiveup","command":"match","created_unix":0,"claim_ttl_s":60}"#,
    )
    .unwrap();
    assert_one_line_error(
        &fiveup(&["games", "worker", "--run", r, "--name", "w1"]),
        "the coordinator is fiveup 0.0.1 (games format 0)",
    );
    assert_one_line_error(&fiveup(&["games", "status", "--run", other.to_str().unwrap()]), "no evaluation here");
    // Another command on an evaluation's folder.
    assert_one_line_error(&fiveup(&[&m[..], &["--run", r]].concat()), "holds another evaluation (`fiveup match`)");
}
