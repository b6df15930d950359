//! `fiveup tablebase generate|probe|info|sample` end to end, and the tables in use by `analyse`,
//! `match` (adjudication) and the protocol.

use crate::common::{assert_ok, fiveup, fiveup_with_input, stderr, stdout};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A folder with the Raumschach tables KQvK and KRvK.
fn raumschach_tables() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("tb");
    let o = fiveup(&["tablebase", "generate", "--ruleset", "raumschach", "--material", "KQvK,KRvK", "--dir", s(&dir)]);
    assert_ok(&o);
    t
}

/// `fiveup tablebase sample` of Raumschach KQvK from `dir` with `extra` arguments: its output.
fn sample_kqvk(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec!["tablebase", "sample", "--ruleset", "raumschach", "--material", "KQvK", "--dir", s(dir)];
    args.extend_from_slice(extra);
    let o = fiveup(&args);
    assert_ok(&o);
    stdout(&o)
}

/// A KQvK position white wins in several moves, from `sample`.
fn won_position(dir: &Path) -> String {
    let line = sample_kqvk(dir, &["--min-plies", "9", "--count", "1"]);
    line.split('#').next().unwrap().trim().to_string()
}

#[test]
fn tables_are_built_kept_listed_and_probed() {
    let t = raumschach_tables();
    let dir = t.path().join("tb");
    assert!(dir.join("raumschach/KQvK.tb").is_file() && dir.join("raumschach/KRvK.tb").is_file());
    // A rerun keeps what is there.
    let o = fiveup(&["tablebase", "generate", "--ruleset", "raumschach", "--material", "KQvK", "--dir", s(&dir)]);
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.contains("KQvK     kept") && text.contains("(0 built now)"), "{text}");
    // info: one line per table; JSON lines with the figures.
    let o = fiveup(&["tablebase", "info", "--dir", s(&dir)]);
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.contains("raumschach KQvK") && text.contains("white to move: won 100.0%"), "{text}");
    let o = fiveup(&["tablebase", "info", "--dir", s(&dir), "--json"]);
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    let krvk = lines.iter().find(|v| v["material"] == "KRvK").unwrap();
    assert!(krvk["white_to_move"]["draws"].as_u64().unwrap() > 0);
    // probe: the value and every move's, best first.
    let pos = won_position(&dir);
    let o = fiveup(&["tablebase", "probe", "--ruleset", "raumschach", "--position", &pos, "--dir", s(&dir)]);
    assert_ok(&o);
    let text = stdout(&o);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("white to move: mate in ") || first.starts_with("black to move: mate in "), "{text}");
    let n: u32 = first.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n >= 5, "{text}");
    let best = text.lines().nth(1).unwrap();
    assert!(best.trim_end().ends_with(&format!("mate in {n}")), "the best move keeps the mate: {text}");
}

#[test]
fn bad_tablebase_input_is_refused_with_one_line() {
    let t = raumschach_tables();
    let dir = t.path().join("tb");
    let refused = |args: &[&str], says: &str| {
        let o = fiveup(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let e = stderr(&o);
        assert!(e.contains(says), "{args:?}: {e}");
    };
    refused(&["tablebase", "generate", "--men", "5", "--dir", s(&dir)], "--men 5: tables hold 3 to 4 men");
    refused(&["tablebase", "generate", "--material", "KPvK", "--dir", s(&dir)], "no piece 'P'");
    refused(&["tablebase", "generate", "--material", "KRRvKR", "--dir", s(&dir)], "5 men");
    refused(&["tablebase", "generate", "--dir", s(&dir)], "name the tables to build");
    refused(&["tablebase", "generate", "--ruleset", "quasi-alice", "--men", "3"], "quasi-alice");
    let file = t.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    refused(&["tablebase", "generate", "--men", "3", "--dir", s(&file)], "is not a folder");
    refused(&["tablebase", "generate", "--men", "3", "--dir", s(&t.path().join("no/such"))], "no/such");
    refused(&["tablebase", "probe", "--dir", s(&t.path().join("none"))], "tablebase folder");
    refused(&["tablebase", "probe", "--ruleset", "raumschach", "--dir", s(&dir)], "no table holds this position");
    refused(
        &["tablebase", "sample", "--ruleset", "raumschach", "--material", "KvKQ", "--dir", s(&dir)],
        "stronger side first: KQvK",
    );
    refused(
        &["tablebase", "sample", "--ruleset", "raumschach", "--material", "KQvK", "--value", "won", "--dir", s(&dir)],
        "expected win, draw or loss",
    );
    refused(&["analyse", "--engine", "ab:tb=/no/such/folder"], "tb=/no/such/folder");
    refused(
        &["match", "--white", "ab:depth=1", "--black", "random", "--adjudicate-tb", "/no/such"],
        "--adjudicate-tb /no/such",
    );
    refused(
        &[
            "match",
            "--ruleset",
            "quasi-alice",
            "--white",
            "ab:depth=1",
            "--black",
            "random",
            "--adjudicate-tb",
            s(&dir),
        ],
        "not for quasi-alice",
    );
    // A damaged table: named, with the fix, and not trusted.
    let pos = won_position(&dir);
    let path = dir.join("raumschach/KQvK.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 4;
    std::fs::write(&path, bytes).unwrap();
    refused(
        &["tablebase", "probe", "--ruleset", "raumschach", "--position", &pos, "--dir", s(&dir)],
        "checksum mismatch",
    );
    refused(&["tablebase", "info", "--dir", s(&dir)], "checksum mismatch");
    refused(&["tablebase", "generate", "--ruleset", "raumschach", "--material", "KQvK", "--dir", s(&dir)], "delete it");
}

#[test]
fn analyse_the_protocol_and_match_adjudication_use_the_tables() {
    let t = raumschach_tables();
    let dir = t.path().join("tb");
    let pos = won_position(&dir);
    // analyse: the tables' value first, then mate scores from depth 1.
    let spec = format!("ab:depth=2,tb={}", s(&dir));
    let o = fiveup(&["analyse", "--ruleset", "raumschach", "--position", &pos, "--engine", &spec]);
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.starts_with("tablebase raumschach KQvK: mate in "), "{text}");
    assert!(text.lines().nth(1).unwrap().contains("score mate "), "{text}");
    // The protocol: TablebasePath, then the value in an info string and a mate score.
    let input = format!(
        "uci\nsetoption name UCI_Variant value raumschach\nsetoption name TablebasePath value {}\nposition fen {pos}\ngo depth 2\nisready\nquit\n",
        s(&dir)
    );
    let o = fiveup_with_input(&["uci", "--player", "ab:eval=hand", "--ruleset", "raumschach"], &input);
    let text = stdout(&o);
    assert!(text.contains("option name TablebasePath type string"), "{text}");
    assert!(text.contains("info string tablebase raumschach KQvK: mate in "), "{text}");
    assert!(text.contains("score mate "), "{text}");
    let o = fiveup_with_input(&["uci"], "setoption name TablebasePath value /no/such\nquit\n");
    assert!(stdout(&o).contains("setoption TablebasePath: tablebase folder /no/such"), "{}", stdout(&o));
    // match: every game from a won table position ends at once, adjudicated by the tables.
    let openings = t.path().join("won.txt");
    std::fs::write(&openings, sample_kqvk(&dir, &["--count", "3", "--seed", "7"])).unwrap();
    let records = t.path().join("games.pgn");
    let o = fiveup(&[
        "match",
        "--ruleset",
        "raumschach",
        "--white",
        "random:seed=1",
        "--black",
        "random:seed=2",
        "--games",
        "6",
        "--openings",
        s(&openings),
        "--adjudicate-tb",
        s(&dir),
        "--out",
        s(&records),
        "--concurrency",
        "1",
    ]);
    assert_ok(&o);
    let pgn = std::fs::read_to_string(&records).unwrap();
    assert_eq!(pgn.matches("[Termination \"adjudication/tablebase\"]").count(), 6, "{pgn}");
    assert_eq!(pgn.matches("[Plies \"0\"]").count(), 6, "{pgn}");
}
