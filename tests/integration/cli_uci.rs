//! End-to-end tests of the protocol (docs/PROTOCOL.md): a session with `fiveup uci`, our binary
//! as an outside engine in a match, and a misbehaving fake engine (tests/fixtures/fake-engine.sh)
//! whose every failure ends the game with the right result and reason.

use crate::common::{fiveup, BIN};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fake() -> String {
    format!("{}/tests/fixtures/fake-engine.sh", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fiveup-cli-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// A protocol session: commands in, lines out, one at a time as a match tool sends them.
struct Session {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    transcript: Vec<String>,
}

impl Session {
    fn start() -> Session {
        let mut child =
            Command::new(BIN).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("fiveup uci runs");
        let out = BufReader::new(child.stdout.take().unwrap());
        Session { child, out, transcript: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(self.out.read_line(&mut l).unwrap() > 0, "output ended before '{prefix}': {:?}", self.transcript);
            let l = l.trim_end().to_string();
            self.transcript.push(format!("< {l}"));
            lines.push(l.clone());
            if l.starts_with(prefix) {
                return lines;
            }
        }
    }
}

#[test]
fn a_protocol_session_plays_several_games_and_quits_cleanly() {
    let mut s = Session::start();
    s.send("uci");
    let hello = s.until("uciok");
    assert!(hello[0].starts_with("id name fiveup"));
    for opt in ["Hash", "Threads", "UCI_Variant", "Castling", "Hypercylinder", "Player", "ValuesFile", "EvalFile"] {
        assert!(hello.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "{opt}: {hello:?}");
    }
    s.send("setoption name Hash value 8");
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
    // Two games, as cutechess plays them: ucinewgame, then position and go per move.
    for game in 0..2 {
        s.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..4 {
            let pos = if moves.is_empty() {
                "position startpos".into()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            s.send(&pos);
            s.send(if game == 0 { "go depth 2" } else { "go wtime 2000 btime 2000 winc 20 binc 20" });
            let lines = s.until("bestmove");
            let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
            assert!(
                lines.iter().any(|l| l.starts_with("info depth 1 ") && l.contains(" score cp ") && l.contains(" pv ")),
                "{lines:?}"
            );
            // Legal where it was played: `fiveup replay` checks the line.
            moves.push(best);
        }
        let o = fiveup(&["replay", &moves.join(" ")]);
        assert!(o.status.success(), "{moves:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    // Raumschach: a mate in two, found through the protocol at depth 4.
    s.send("setoption name UCI_Variant value raumschach");
    s.send("position text 5/P3B/5/5/5|5/3P1/pr3/5/5|5/1P3/5/5/4R|3u1/p1bP1/5/1q3/5|4K/1k3/5/5/5 b - - - 0 116");
    s.send("go depth 4");
    let lines = s.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove Eb4Ec3");
    assert!(lines.iter().any(|l| l.contains("score mate 2")), "{lines:?}");
    // A network player speaks it too (here MCTS over the hand evaluation): wdl in its info.
    s.send("setoption name Player value mcts:ab,batch=4");
    s.send("position startpos");
    s.send("go nodes 64");
    let lines = s.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info ") && l.contains(" wdl ") && l.contains(" nodes 64 ")),
        "{lines:?}"
    );
    s.send("setoption name Player value ab");
    // A network file that is not there: said at the next go, which answers with no move.
    s.send("setoption name EvalFile value /nonexistent/net.nnue");
    s.send("go depth 1");
    let lines = s.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info string error: ") && l.contains("net.nnue")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    s.send("setoption name EvalFile value <empty>");
    // An infinite search answers only after stop; isready is answered during it.
    s.send("go infinite");
    s.send("isready");
    assert!(s.until("readyok").iter().all(|l| !l.starts_with("bestmove")));
    s.send("stop");
    assert!(s.until("bestmove").last().unwrap().starts_with("bestmove "));
    // Bad input: one info string each, and the engine carries on.
    for bad in ["frobnicate", "setoption name Nonsense value 1", "position text 5/5 w", "go depth x"] {
        s.send(bad);
        s.send("isready");
        let lines = s.until("readyok");
        assert!(lines.iter().any(|l| l.starts_with("info string error: ")), "{bad}: {lines:?}");
    }
    s.send("quit");
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{:?}", s.transcript);
}

#[test]
fn our_binary_as_an_outside_engine_plays_a_match() {
    let out = temp("outside.rec");
    let engine = format!("uci:{BIN} uci;Hash=8;depth=2");
    let args = ["match", "--white", &engine, "--black", "ab:depth=1", "--games", "2", "--concurrency", "2"];
    let o =
        fiveup(&[&args[..], &["--openings", "random:4", "--max-plies", "60", "--out", out.to_str().unwrap()]].concat());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("W/D/L") && text.contains("records:"), "{text}");
    let records = std::fs::read_to_string(&out).unwrap();
    assert_eq!(records.matches("[Event \"match\"]").count(), 2);
    assert!(!records.contains("adjudication/engine") && !records.contains("illegal-move"), "{records}");
    // Replays: every move of the outside engine was legal.
    let o = fiveup(&["replay", "--record", out.to_str().unwrap(), "--game", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // With a clock: the records carry the time control and the clocks.
    let out = temp("clock.rec");
    let engine = format!("uci:{BIN} uci");
    let o = fiveup(&[
        "match",
        "--white",
        &engine,
        "--black",
        "ab",
        "--games",
        "2",
        "--tc",
        "1+0.02",
        "--max-plies",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = std::fs::read_to_string(&out).unwrap();
    assert_eq!(records.matches("[TimeControl \"1+0.02\"]").count(), 2, "{records}");
    assert_eq!(records.matches("[Clocks \"").count(), 2);
    assert!(!records.contains("time-forfeit"), "{records}");
}

#[test]
fn quasi_alice_through_the_protocol_and_as_an_outside_engine() {
    // A session told the game by UCI_Variant, as a harness does.
    let mut s = Session::start();
    s.send("uci");
    assert!(s
        .until("uciok")
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var quasi-alice")));
    s.send("setoption name UCI_Variant value quasi-alice");
    s.send("position startpos moves 1e2e4>3");
    s.send("go depth 2");
    let lines = s.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ") && l.contains(" pv ")), "{lines:?}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let o = fiveup(&["replay", "--ruleset", "quasi-alice", &format!("1. 1e2e4>3 {best}")]);
    assert!(o.status.success(), "{best}: {}", String::from_utf8_lossy(&o.stderr));
    // Bad text: one line each, and the session goes on.
    for bad in [
        "position fen rnbqkbnr/8|8|8 w - - 0 1",
        "position startpos moves 1e2e5>3",
        "setoption name UCI_Variant value chess",
    ] {
        s.send(bad);
        s.send("isready");
        let lines = s.until("readyok");
        assert_eq!(lines.iter().filter(|l| l.starts_with("info string error: ")).count(), 1, "{bad}: {lines:?}");
    }
    s.send("quit");
    assert!(s.child.wait().unwrap().success(), "{:?}", s.transcript);
    // Our binary as an outside engine in a Quasi-Alice match: every answer legal, so no forfeit.
    let out = temp("qa.games");
    let engine = format!("uci:{BIN} uci;Hash=8;depth=2");
    let o = fiveup(&[
        "match",
        "--ruleset",
        "quasi-alice",
        "--white",
        &engine,
        "--black",
        "random",
        "--games",
        "2",
        "--max-plies",
        "40",
        "--concurrency",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = std::fs::read_to_string(&out).unwrap();
    assert_eq!(records.matches("[Ruleset \"quasi-alice\"]").count(), 2, "{records}");
    for forfeit in ["illegal-move", "engine-crash", "engine-hang", "time-forfeit"] {
        assert!(!records.contains(forfeit), "{records}");
    }
    // The fake engine answers a 5x5x5 move: an illegal move, a loss with the reason.
    let spec = format!("uci:{} good;movetime=0.05", fake());
    let out = temp("qa-fake.games");
    let o = fiveup(&[
        "match",
        "--ruleset",
        "quasi-alice",
        "--white",
        &spec,
        "--black",
        "random",
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = std::fs::read_to_string(&out).unwrap();
    assert!(records.contains("[Termination \"adjudication/illegal-move\"]"), "{records}");
}

/// Plays one game of the fake engine in `mode` (white) against a random mover; returns the
/// record text and how long it took.
fn fake_game(mode: &str, extra: &[&str], harness: &str) -> (String, Duration) {
    let out = temp(&format!("fake-{mode}.rec"));
    let logs = temp(&format!("logs-{mode}"));
    let engine = format!("uci:{} {mode};{harness};log={}", fake(), logs.display());
    let started = Instant::now();
    let o = fiveup(
        &[
            &["match", "--white", &engine, "--black", "random", "--games", "1", "--openings", "startpos"][..],
            extra,
            &["--out", out.to_str().unwrap()],
        ]
        .concat(),
    );
    let took = started.elapsed();
    assert!(o.status.success(), "{mode}: {}", String::from_utf8_lossy(&o.stderr));
    (std::fs::read_to_string(&out).unwrap(), took)
}

#[test]
fn a_misbehaving_engine_loses_with_the_reason_and_never_hangs_the_harness() {
    let cases = [
        ("illegal", "illegal-move", "Aa1Aa1"),
        ("garbage", "illegal-move", "answered 'bestmove '"),
        ("crash", "engine-crash", "segmentation fault (pretend)"),
        ("hang", "engine-hang", "was killed"),
    ];
    for (mode, termination, reason) in cases {
        let (rec, took) = fake_game(mode, &[], "movetime=0.05;grace=0.3");
        assert!(rec.contains("[Result \"0-1\"]"), "{mode}: {rec}");
        assert!(rec.contains(&format!("[Termination \"adjudication/{termination}\"]")), "{mode}: {rec}");
        let reason_line = rec.lines().find(|l| l.starts_with("[Reason ")).unwrap_or_else(|| panic!("{mode}: {rec}"));
        assert!(reason_line.contains(reason), "{mode}: {reason_line}");
        assert!(took < Duration::from_secs(10), "{mode} took {took:?}");
    }
    // The crashed engine's stderr is kept in its log, which the reason names.
    let (rec, _) = fake_game("crash", &[], "movetime=0.05");
    let log = rec.split("stderr log: ").nth(1).and_then(|r| r.split(')').next()).expect("a log path");
    assert!(std::fs::read_to_string(log).unwrap().contains("segmentation fault (pretend)"));
    // Too slow for its clock: a loss on time, even though the move itself was legal.
    let (rec, _) = fake_game("late", &["--tc", "1+0"], "grace=1");
    assert!(rec.contains("[Termination \"adjudication/time-forfeit\"]") && rec.contains("[Result \"0-1\"]"), "{rec}");
    // A good fake plays on (its one move is legal in the start position only, so it then
    // forfeits with an illegal move, at ply 3).
    let (rec, _) = fake_game("good", &[], "movetime=0.05");
    assert!(rec.contains("[Plies \"2\"]") && rec.contains("illegal-move"), "{rec}");
}

#[test]
fn bad_engine_specs_fail_before_any_game() {
    let o = fiveup(&["match", "--white", "uci:/nonexistent/engine;movetime=1", "--black", "random"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.lines().count() == 1 && err.contains("cannot start it"), "{err}");
    let spec = format!("uci:{} good", fake());
    let o = fiveup(&["match", "--white", &spec, "--black", "random"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("needs a limit"), "{err}");
    let spec = format!("uci:{} good;Hash=16;movetime=1", fake());
    let o = fiveup(&["match", "--white", &spec, "--black", "random"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("no option 'Hash'"), "{err}");
    let o = fiveup(&["match", "--white", "ab", "--black", "random", "--tc", "0+1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.lines().count() == 1 && err.contains("--tc"), "{err}");
}

/// The memory the system says is available, in MiB (Linux), as the engine reads it.
fn available_mb() -> Option<usize> {
    fiveup::engine::tt::available_mb()
}

#[test]
fn a_table_that_does_not_fit_is_refused_not_an_abort() {
    // The documented maximum; on a machine with more than 64 GiB available it would fit, and
    // allocating it in a test is not wanted: the refusal is then covered by the unit test.
    if available_mb().is_none_or(|f| f >= 65_536) {
        return;
    }
    for args in [
        &["analyse", "--engine", "ab:depth=1,hash=65536"][..],
        &["match", "--white", "ab:depth=1,hash=65536", "--black", "random", "--games", "2"],
        &["analyse", "--ruleset", "quasi-alice", "--engine", "ab:depth=1,hash=65536"],
    ] {
        let o = fiveup(args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains("hash=65536 MiB does not fit in memory"), "{err}");
        assert!(err.contains("MiB available; ask for less"), "{err}");
    }
    // Over the protocol: an error line, the option refused, the table in use kept and searching.
    let script = "uci\nsetoption name Hash value 65536\nposition startpos\ngo depth 2\nisready\nquit\n";
    let mut child = Command::new(BIN)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("info string error: ")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(errors[0].contains("setoption Hash: hash=65536 MiB does not fit in memory"), "{text}");
    assert!(errors[0].ends_with("the table in use is kept"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}
