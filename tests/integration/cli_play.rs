//! End-to-end tests of the playing subcommands through the built `fiveup` binary: analyse, play
//! (scripted through stdin), match, tournament (resumed), sprt, and spec errors.

use crate::common::{assert_one_line_error, fiveup, fiveup_with_bytes, fiveup_with_input, ok, stderr};
use std::path::PathBuf;

/// The fool's-mate position before `4. SxBe4++`, as printed by
/// `fiveup replay 1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3`.
const FOOLS_MATE: &str =
    "rnknr/ppp1p/5/5/5|ubqub/pp1pp/3p1/5/5|5/5/2p2/2P2/5|5/4B/1N3/PP1PP/UGQUB|5/5/5/PPPPP/RSKNR w Wwgs E1D1A5B5 - 0 4";

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch("cli-play", name)
}

fn count_records(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().filter(|l| l.starts_with("[Event ")).count()
}

#[test]
fn replay_prints_the_fools_mate_position() {
    let out = ok(&fiveup(&["replay", "1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3"]));
    assert!(out.contains(&format!("position: {FOOLS_MATE}\n")), "{out}");
}

#[test]
fn analyse_finds_the_fools_mate() {
    let out = ok(&fiveup(&["analyse", "--position", FOOLS_MATE, "--engine", "ab:depth=3"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"bestmove Eb1Be4"), "{out}");
    assert!(
        lines[0].starts_with("depth 1 ") && lines[0].contains("score mate 1") && lines[0].contains("SxBe4++"),
        "{out}"
    );
    assert!(lines.iter().filter(|l| l.starts_with("depth ")).count() == 3, "{out}");
    assert!(lines[0].contains(" nodes ") && lines[0].contains(" nps "), "{out}");
    // MCTS: the most visited moves, a summary line, then bestmove.
    let out = ok(&fiveup(&["analyse", "--position", FOOLS_MATE, "--engine", "mcts:ab,sims=100"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"bestmove Eb1Be4"), "{out}");
    let summary = lines[lines.len() - 2];
    assert!(summary.starts_with("sims 100 visits ") && summary.contains(" value +"), "{out}");
    // A Gumbel search visiting every root move once: the move it plays is listed, first.
    let out = ok(&fiveup(&["analyse", "--position", FOOLS_MATE, "--engine", "mcts:ab,sims=8,kind=gumbel,m=8"]));
    let lines: Vec<&str> = out.lines().collect();
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(lines[0].split_whitespace().nth(1) == Some(best), "{out}");
}

#[test]
fn play_is_scripted_through_stdin() {
    let dir = scratch("play");
    let save = dir.join("game.pgn");
    let script = "Cc2\nQ-Aa1\nN-Cc1\nmoves\nundo\nundo\nCc2\nhint\nshow\nquit\n";
    let o = fiveup_with_input(&["play", "--engine", "ab:depth=1", "--save", save.to_str().unwrap()], script);
    let out = ok(&o);
    assert!(out.contains("you play 1. Cc2 (Dc2Cc2)"), "{out}");
    assert!(out.contains("ab:depth=1,hash=16 plays 1... "), "{out}");
    // The engine's score says whose it is; the board marks the last move.
    assert!(out.contains(" from the engine's side)"), "{out}");
    assert!(out.contains("last move Dc2Cc2: [ ] its destination, * its origin"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("5 |") && l.contains('[') && l.contains(']'))
            || out.lines().any(|l| l.contains(" |") && l.contains('[') && l.contains(']')),
        "{out}"
    );
    assert!(out.contains("illegal move 'Q-Aa1'"), "{out}");
    assert!(out.contains("ambiguous move 'N-Cc1': it could be NEb1-Cc1 (Eb1Cc1) or NEd1-Cc1 (Ed1Cc1)"), "{out}");
    assert!(out.contains("209 legal moves") || out.contains(" legal moves\n"), "{out}");
    assert!(out.contains("took back 2 moves") && out.contains("nothing to undo"), "{out}");
    assert!(out.contains("hint: 2. "), "{out}");
    assert!(out.contains("5 |r|n|k|n|r| 5 |"), "diagram after moves: {out}");
    // The saved game: two full moves, unfinished.
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(
        text.contains("[White \"human\"]") && text.contains("[Result \"*\"]") && text.contains("[Plies \"2\"]"),
        "{text}"
    );
    // It replays.
    let out = ok(&fiveup(&["replay", "--record", save.to_str().unwrap()]));
    assert!(out.starts_with("game 1 of 1: human vs ab:depth=1,hash=16, * (unterminated)"), "{out}");
    // End of input ends the session cleanly, as black too.
    let out = ok(&fiveup_with_input(&["play", "--engine", "random:seed=3", "--as", "black"], "undo\n"));
    assert!(out.contains("random:seed=3 plays 1. "), "{out}");
    // Playing into the mate announces the end.
    let out = ok(&fiveup_with_input(&["play", "--engine", "random", "--position", FOOLS_MATE], "SxBe4\nCc2\nquit\n"));
    assert!(out.contains("game over: checkmate, white wins (1-0)") && out.contains("the game is over"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_saves_the_game_after_input_that_is_not_utf8() {
    let dir = scratch("play-bytes");
    let save = dir.join("game.pgn");
    // A bad byte line in the middle, then a move, then the end of input without quit.
    let o =
        fiveup_with_bytes(&["play", "--engine", "ab:depth=1", "--save", save.to_str().unwrap()], b"\xff\xfe\nCc2\n");
    let out = ok(&o);
    assert!(out.contains("unreadable input: the line is not UTF-8 text"), "{out}");
    assert!(out.contains("you play 1. Cc2 (Dc2Cc2)"), "the session went on: {out}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("[Plies \"2\"]") && text.contains("[Result \"*\"]"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_resign_ends_and_saves_the_game_as_lost() {
    let dir = scratch("play-resign");
    let save = dir.join("game.pgn");
    let o = fiveup_with_input(
        &["play", "--engine", "random:seed=1", "--save", save.to_str().unwrap()],
        "Cc2\nresign\nCc3\n",
    );
    let out = ok(&o);
    assert!(out.contains("you resign: resignation, black wins (0-1)"), "{out}");
    assert!(!out.contains("you play 2."), "resign ends the session: {out}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("[Result \"0-1\"]") && text.contains("[Termination \"resignation\"]"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_refuses_to_overwrite_a_file_unless_forced() {
    let dir = scratch("play-overwrite");
    let save = dir.join("game.pgn");
    std::fs::write(&save, "precious").unwrap();
    let path = save.to_str().unwrap();
    let o = fiveup_with_input(&["play", "--engine", "random", "--save", path], "quit\n");
    assert!(!o.status.success());
    assert_one_line_error(&o, &format!("--save: {path} already exists (add --force to replace it)"));
    assert_eq!(std::fs::read_to_string(&save).unwrap(), "precious");
    // In the game: `save FILE` refuses, `save FILE --force` replaces.
    let other = dir.join("other.pgn");
    let script = format!("help\nsave {path}\nsave {path} --force\nquit\n");
    let out = ok(&fiveup_with_input(&["play", "--engine", "random", "--save", other.to_str().unwrap()], &script));
    assert!(out.contains(&format!("not saved: {path} exists; use save {path} --force to replace it")), "{out}");
    assert!(out.contains(&format!("saved to {path}")), "{out}");
    assert!(std::fs::read_to_string(&save).unwrap().contains("[White \"human\"]"));
    assert!(out.contains("save FILE --force replaces an existing file"), "the help says so: {out}");
    // --force lets --save replace the file.
    let out = ok(&fiveup_with_input(&["play", "--engine", "random", "--save", path, "--force"], "Cc2\nquit\n"));
    assert!(out.contains(&format!("saved to {path}")), "{out}");
    assert!(std::fs::read_to_string(&save).unwrap().contains("[Plies \"2\"]"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_checks_where_it_saves_before_the_game_and_saves_on_ctrl_c() {
    let dir = scratch("play-target");
    // A folder, even with --force; a folder that does not exist (not created).
    let d = dir.to_str().unwrap();
    let o = fiveup_with_input(&["play", "--engine", "random", "--save", d, "--force"], "Cc2\nquit\n");
    assert_one_line_error(&o, &format!("--save: {d} is a directory; give a file name"));
    let missing = dir.join("no/such/game.pgn");
    let o = fiveup_with_input(&["play", "--engine", "random", "--save", missing.to_str().unwrap()], "Cc2\nquit\n");
    assert_one_line_error(&o, "no/such: no such folder (create it first)");
    assert!(!dir.join("no").exists());
    // Ctrl-C (SIGINT) at the prompt saves the game so far and exits with 130.
    let save = dir.join("interrupted.pgn");
    let mut child = std::process::Command::new(crate::common::BIN)
        .args(["play", "--engine", "random:seed=1", "--save", save.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"Cc2\n").unwrap();
    // Wait for the engine's reply: the second prompt is white's move 2.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains("2. white> ") {
        let n = std::io::Read::read(&mut stdout, &mut byte).unwrap();
        assert!(n == 1, "the session ended early: {}", String::from_utf8_lossy(&seen));
        seen.push(byte[0]);
    }
    // SAFETY: signalling our own child by its pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("the game so far is saved to"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("[Plies \"2\"]") && text.contains("[White \"human\"]"), "{text}");
    drop(stdin);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_as_black_draws_the_board_from_blacks_side_with_a_legend() {
    let out = ok(&fiveup_with_input(&["play", "--engine", "random:seed=3", "--as", "black"], "legend\nquit\n"));
    assert!(out.contains("pieces: K king, Q queen, R rook, B bishop, N knight, U unicorn, S silver unicorn"), "{out}");
    assert!(out.contains("A is the top level") && out.contains("drawn from black's side"), "{out}");
    // The start position: rank 1 on top, files e to a, so white's D1 row `UBQUB` reads `BUQBU`.
    let first = out.lines().find(|l| l.starts_with("1 |")).expect("a diagram");
    assert_eq!(first, "1 |_|_|_|_|_| 1 |_|_|_|_|_| 1 |_|_|_|_|_| 1 |B|U|Q|B|U| 1 |R|N|K|N|R|", "{out}");
    assert!(out.contains("A  e d c b a  B  e d c b a"), "{out}");
    // White's view is unchanged: rank 5 on top.
    let out = ok(&fiveup_with_input(&["play", "--engine", "random"], "quit\n"));
    assert!(out.lines().any(|l| l.starts_with("5 |r|n|k|n|r| 5 |u|b|q|u|b|")), "{out}");
    assert!(out.contains("drawn from white's side"), "{out}");
}

#[test]
fn match_writes_records_and_a_summary() {
    let dir = scratch("match");
    let pgn = dir.join("games.pgn");
    let out = ok(&fiveup(&[
        "match",
        "--white",
        "random",
        "--black",
        "ab:depth=1",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        "random:4",
        "--max-plies",
        "120",
        "--seed",
        "3",
        "--out",
        pgn.to_str().unwrap(),
    ]));
    assert_eq!(count_records(&pgn), 4);
    assert!(out.contains("random:seed=0 vs ab:depth=1,hash=16: W/D/L "), "{out}");
    assert!(out.contains("trinomial:   Elo ") && out.contains("pentanomial: Elo "), "{out}");
    assert!(out.contains("terminations: "), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    for tag in ["Event", "White", "Black", "Ruleset", "Flags", "Start", "Result", "Termination", "Plies"] {
        assert_eq!(text.lines().filter(|l| l.starts_with(&format!("[{tag} "))).count(), 4, "{tag}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn games_stats_counts_and_pools_match_records() {
    let dir = scratch("stats");
    let pgn = dir.join("games.pgn");
    let p = pgn.to_str().unwrap();
    let m = ok(&fiveup(&[
        "match",
        "--white",
        "ab:depth=1",
        "--black",
        "random",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--openings",
        "random:4",
        "--max-plies",
        "60",
        "--seed",
        "5",
        "--out",
        p,
    ]));
    let wdl = |out: &str| -> String {
        let l = out.lines().find(|l| l.contains(": W/D/L ")).unwrap_or_else(|| panic!("{out}")).to_string();
        l[l.find("W/D/L ").unwrap()..].split(',').next().unwrap().to_string()
    };
    let line = |out: &str, start: &str| -> String {
        out.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("{start} in {out}")).to_string()
    };
    // One file, from the match's A: the match's own summary, line for line.
    let one = ok(&fiveup(&["games", "stats", p, "--a", "ab:depth=1,hash=16"]));
    for start in ["trinomial:", "pentanomial:", "terminations:"] {
        assert_eq!(line(&one, start), line(&m, start), "{one}\n{m}");
    }
    assert_eq!(wdl(&one), wdl(&m));
    // From B's side the counts turn round.
    let (w, d, l) = {
        let n: Vec<u64> = wdl(&m)[6..].split(" / ").map(|x| x.trim().parse().unwrap()).collect();
        (n[0], n[1], n[2])
    };
    let b = ok(&fiveup(&["games", "stats", p, "--a", "random:seed=0"]));
    assert_eq!(wdl(&b), format!("W/D/L {l} / {d} / {w}"), "{b}");
    // The same file named twice, by any path, is refused: its games would count twice.
    let again = dir.join(".").join("games.pgn");
    let o = fiveup(&["games", "stats", p, again.to_str().unwrap(), "--a", "ab:depth=1,hash=16"]);
    assert_one_line_error(&o, "is the same file as");
    // A copy pooled with the original: every count doubles, pairs included; an SPRT verdict on
    // request.
    let copy = dir.join("copy.pgn");
    std::fs::copy(&pgn, &copy).unwrap();
    let two = ok(&fiveup(&[
        "games",
        "stats",
        p,
        copy.to_str().unwrap(),
        "--a",
        "ab:depth=1,hash=16",
        "--elo0",
        "0",
        "--elo1",
        "10",
    ]));
    assert!(two.contains("pooled over 2 files:"), "{two}");
    assert_eq!(wdl(&two[two.find("pooled").unwrap()..]), format!("W/D/L {} / {} / {}", 2 * w, 2 * d, 2 * l));
    assert!(line(&two, "pentanomial:").contains(" 12 games;"), "{two}");
    assert!(line(&two, "SPRT [0, 10] (Pentanomial): LLR ").len() > 30 && two.contains("decision: "), "{two}");
    // A record cut short at the end (a match still writing) is left out and said so.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let cut = dir.join("cut.pgn");
    std::fs::write(&cut, format!("{text}[Event \"match\"]\n[White \"ab:depth=1,hash=16\"]\n")).unwrap();
    let c = ok(&fiveup(&["games", "stats", cut.to_str().unwrap(), "--a", "ab:depth=1,hash=16"]));
    assert!(c.contains("last record incomplete, left out"), "{c}");
    assert_eq!(wdl(&c), wdl(&m));
    // Games of other players: an error naming the file and the game, unless B is named.
    let other = dir.join("other.pgn");
    let swapped = text.replace("random:seed=0", "random:seed=9");
    std::fs::write(&other, format!("{text}{}", &swapped[..swapped[1..].find("[Event ").unwrap() + 1])).unwrap();
    let o = other.to_str().unwrap();
    assert_one_line_error(&fiveup(&["games", "stats", p, o]), "other.pgn: game 7 is ");
    let named = ok(&fiveup(&["games", "stats", o, "--a", "ab:depth=1,hash=16", "--b", "random:seed=0"]));
    assert!(named.contains("1 games of other players left out"), "{named}");
    assert_eq!(wdl(&named), wdl(&m));
    assert_one_line_error(&fiveup(&["games", "stats", p, "--a", "nobody"]), "games.pgn: no game of --a nobody");
    // A spelt differently in another file: repeated --a names both spellings.
    let renamed = dir.join("renamed.pgn");
    std::fs::write(&renamed, text.replace("ab:depth=1,hash=16", "ab:depth=1")).unwrap();
    let r = renamed.to_str().unwrap();
    let both = ok(&fiveup(&["games", "stats", p, r, "--a", "ab:depth=1", "--a", "ab:depth=1,hash=16"]));
    assert!(both.contains("\nA vs B: W/D/L "), "{both}");
    assert_eq!(wdl(&both[both.find("pooled").unwrap()..]), format!("W/D/L {} / {} / {}", 2 * w, 2 * d, 2 * l));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tournament_resumes_without_replaying_games() {
    let dir = scratch("tournament");
    let out_dir = dir.join("t");
    let args = [
        "tournament",
        "--players",
        "random:seed=1",
        "random:seed=2",
        "ab:depth=1",
        "--games",
        "2",
        "--openings",
        "random:4",
        "--max-plies",
        "60",
        "--concurrency",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    let first = ok(&fiveup(&args));
    assert!(first.starts_with("3 players, 3 pairings, 6 games: 0 already in"), "{first}");
    assert!(
        first.contains("Rank") && first.contains("crosstable") && first.contains("likelihood of superiority"),
        "{first}"
    );
    let games = out_dir.join("games.pgn");
    assert_eq!(count_records(&games), 6);
    let before = std::fs::read_to_string(&games).unwrap();
    let second = ok(&fiveup(&args));
    assert!(second.starts_with("3 players, 3 pairings, 6 games: 6 already in"), "{second}");
    assert_eq!(std::fs::read_to_string(&games).unwrap(), before, "nothing replayed");
    for f in ["ratings.json", "ratings.txt", "ratings.png", "tournament.toml"] {
        assert!(out_dir.join(f).exists(), "{f}");
    }
    // A config file, with a player added: only the new pairings are played.
    let cfg = dir.join("t.toml");
    std::fs::write(
        &cfg,
        format!(
            "players = [\"random:seed=1\", \"random:seed=2\", \"ab:depth=1\", \"random:seed=4\"]\n\
             games = 2\nopenings = \"random:4\"\nmax_plies = 60\nout = {:?}\n",
            out_dir.to_str().unwrap()
        ),
    )
    .unwrap();
    let third = ok(&fiveup(&["tournament", "--config", cfg.to_str().unwrap(), "--concurrency", "2"]));
    assert!(third.starts_with("4 players, 6 pairings, 12 games: 6 already in"), "{third}");
    assert_eq!(count_records(&games), 12);
    // Unknown keys are refused with one line.
    std::fs::write(&cfg, "players = [\"ab\", \"random\"]\nrounds = 3\n").unwrap();
    let o = fiveup(&["tournament", "--config", cfg.to_str().unwrap()]);
    assert!(
        !o.status.success() && stderr(&o).lines().count() == 1 && stderr(&o).contains("unknown field"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_specs_list_the_accepted_forms() {
    for args in [
        &["analyse", "--engine", "alphabeta:depth=x"][..],
        &["match", "--white", "mcts:sims=zero", "--black", "random"][..],
        &["sprt", "--a", "ab", "--b", "stockfish"][..],
        &["tournament", "--players", "ab", "minimax"][..],
    ] {
        let o = fiveup(args);
        assert!(!o.status.success(), "{args:?}");
        // One line for the error, then the accepted forms each on its own line.
        let err = stderr(&o);
        let lines: Vec<&str> = err.lines().collect();
        assert!(lines[0].starts_with("error: ") && lines[0].contains("bad player spec"), "{err}");
        assert_eq!(lines[1], "accepted player specs:", "{err}");
        assert!(lines.len() > 5 && err.contains("mcts:ab,sims=64"), "{err}");
    }
    let o = fiveup(&["analyse", "--engine", "mcts:net=missing.pt,sims=8"]);
    assert!(!o.status.success() && stderr(&o).contains("cannot load network 'missing.pt'"), "{}", stderr(&o));
}

#[test]
fn sprt_terminates_on_a_tiny_budget() {
    let out = ok(&fiveup(&[
        "sprt",
        "--a",
        "ab:depth=1",
        "--b",
        "random",
        "--elo0",
        "0",
        "--elo1",
        "300",
        "--max-games",
        "8",
        "--max-plies",
        "80",
        "--openings",
        "random:2",
        "--concurrency",
        "2",
    ]));
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("decision: "), "{out}");
    assert!(out.contains("LLR bounds [-2.94, 2.94]") && out.contains("pairs     1  LLR "), "{out}");
    let o = fiveup(&["sprt", "--a", "ab", "--b", "random", "--elo0", "10", "--elo1", "0"]);
    assert!(!o.status.success() && stderr(&o).contains("elo0 < elo1"), "{}", stderr(&o));
}

#[test]
fn ctrl_c_on_a_match_prints_the_summary_of_the_games_finished() {
    let dir = scratch("match-interrupt");
    let out = dir.join("games.pgn");
    let child = std::process::Command::new(crate::common::BIN)
        .args(["match", "--white", "random:seed=1", "--black", "random:seed=2", "--games", "1000000"])
        .args(["--concurrency", "1", "--out", out.to_str().unwrap()])
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Some games finish within a second or two (random movers); wait for the records to grow.
    let start = std::time::Instant::now();
    while count_if_exists(&out) < 2 && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // SAFETY: signalling our own child by its pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    let games: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("records: ").and_then(|r| r.split('(').nth(1)))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a records line: {text}"));
    assert!(text.contains("W/D/L") && text.contains("trinomial:"), "{text}");
    assert!(games >= 2 && games <= count_records(&out), "{games} in the summary, {} recorded", count_records(&out));
    assert!(stderr(&o).contains("interrupted: the summary is of the games finished (of 1000000)"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

fn count_if_exists(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().filter(|l| l.starts_with("[Event ")).count())
}
