//! End-to-end: commands that write a file refuse an existing output unless `--force`, and always
//! refuse an output that is one of their inputs.

use crate::common::{assert_one_line_error, fiveup, stderr};
use fiveup::nn::UniformEvaluator;
use fiveup::selfplay::{run, write_shard, SelfPlayConfig};
use std::path::Path;

/// A small real shard at `path`.
fn make_shard(path: &Path) {
    let sp = SelfPlayConfig { concurrent_games: 2, total_games: 2, ply_cap: 16, ..SelfPlayConfig::default() };
    let mut games = Vec::new();
    run(&sp, &mut UniformEvaluator::new(), &mut |g| games.push(g), &mut |_| {})
        .expect("self-play with the uniform evaluator");
    write_shard(path, &games).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn games_export_never_writes_over_its_input_shard() {
    let t = tempfile::tempdir().unwrap();
    let shard = t.path().join("x.shard");
    make_shard(&shard);
    let before = std::fs::read(&shard).unwrap();
    // The output is the input (it used to replace the shard with text).
    for force in [false, true] {
        let mut args = vec!["games", "export", s(&shard), "--out", s(&shard)];
        if force {
            args.push("--force");
        }
        assert_one_line_error(&fiveup(&args), "is also an input");
    }
    // Spelled another way, through a hard link, or inside an input directory.
    let dotted = t.path().join(".").join("x.shard");
    assert_one_line_error(&fiveup(&["games", "export", s(&shard), "--out", s(&dotted), "--force"]), "also an input");
    let link = t.path().join("link.shard");
    std::fs::hard_link(&shard, &link).unwrap();
    let o = fiveup(&["games", "export", s(&shard), "--out", s(&link), "--force"]);
    assert_one_line_error(&o, "also an input");
    let o = fiveup(&["games", "export", s(t.path()), "--out", s(&shard), "--force"]);
    assert_one_line_error(&o, "also an input");
    assert_eq!(std::fs::read(&shard).unwrap(), before, "the shard is untouched");
}

#[test]
fn games_export_replaces_an_existing_output_only_with_force() {
    let t = tempfile::tempdir().unwrap();
    let shard = t.path().join("x.shard");
    make_shard(&shard);
    let out = t.path().join("games.pgn");
    let o = fiveup(&["games", "export", s(&shard), "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = std::fs::read_to_string(&out).unwrap();
    assert!(first.contains("[Event "), "{first}");
    std::fs::write(&out, "my notes").unwrap();
    let o = fiveup(&["games", "export", s(&shard), "--out", s(&out)]);
    assert_one_line_error(&o, "already exists (add --force to replace it)");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "my notes");
    let o = fiveup(&["games", "export", s(&shard), "--out", s(&out), "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    // No temporary file is left beside it.
    assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 2);
    // A directory is refused; a device is written in place (and stays a device).
    assert_one_line_error(&fiveup(&["games", "export", s(&shard), "--out", s(t.path())]), "is a directory");
    let o = fiveup(&["games", "export", s(&shard), "--out", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
}

#[test]
fn match_and_sprt_refuse_an_existing_out_unless_forced_and_their_openings_always() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("games.pgn");
    std::fs::write(&out, "keep me").unwrap();
    let quick = ["--white", "random", "--black", "random:seed=2", "--games", "2", "--max-plies", "12"];
    let mut args = vec!["match"];
    args.extend(quick);
    args.extend(["--out", s(&out)]);
    assert_one_line_error(&fiveup(&args), "already exists (add --force to replace it)");
    let sprt = ["sprt", "--a", "random", "--b", "random:seed=2", "--max-games", "4", "--out", s(&out)];
    assert_one_line_error(&fiveup(&sprt), "already exists (add --force to replace it)");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    // The openings file is an input: refused even with --force.
    let mut args = vec!["match"];
    args.extend(quick);
    args.extend(["--openings", s(&out), "--out", s(&out), "--force"]);
    assert_one_line_error(&fiveup(&args), "is also an input");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    // So are the NNUE network files that players name.
    for white in [format!("ab:depth=1,eval=nnue:{}", s(&out)), format!("mcts:uniform,sims=2,nnue=1:{}", s(&out))] {
        let args = ["match", "--white", &white, "--black", "random", "--games", "2", "--out", s(&out), "--force"];
        assert_one_line_error(&fiveup(&args), "is also an input");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    }
    let mut args = vec!["match"];
    args.extend(quick);
    args.extend(["--out", s(&out), "--force"]);
    let o = fiveup(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out).unwrap().contains("[Event "));
}

#[test]
fn help_documents_force() {
    for cmd in [&["match", "--help"][..], &["sprt", "--help"], &["games", "export", "--help"]] {
        let o = fiveup(cmd);
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(text.contains("--force") && text.contains("Replace an existing --out file"), "{cmd:?}: {text}");
    }
}
