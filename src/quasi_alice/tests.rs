//! Perft tables and rule cases of 4D Quasi-Alice Chess.

use super::*;
use crate::game::perft::perft;

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Hand-built positions, one rule each, with perft(1..=3) as an independent implementation of the
/// rules contract (a literal generator that plays every candidate and tests (a) and (b)) counts
/// them.
const CASES: &[(&str, &str, [u64; 3])] = &[
    (
        "kings-together-board2",
        "8/8/8/8/8/8/7P/1N6|4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/R7|7r/8/8/8/8/8/8/8 w - - 0 1",
        [33, 869, 31534],
    ),
    (
        "kings-apart-board-without-king",
        "8/8/8/p7/8/8/8/2B1K3|8/8/8/8/3Q4/8/8/8|4k3/8/8/p7/8/8/8/8|8/8/8/8/8/8/8/R7 w - - 0 1",
        [90, 536, 41469],
    ),
    (
        "king-double-capture",
        "8/8/8/3p4/4K3/8/8/8|7k/8/8/3n4/8/8/8/7r|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 5 1",
        [6, 412, 6918],
    ),
    (
        "cross-board-king-check",
        "8/8/8/8/8/8/3P4/4K3|8/8/8/8/8/8/3k4/8|8/8/8/8/8/8/8/N7|8/8/8/8/8/8/8/8 w - - 0 1",
        [2, 28, 332],
    ),
    (
        "cross-board-king-mate",
        "8/8/8/8/8/8/4P3/4K3|8/8/8/8/8/8/4k3/8|8/8/8/8/8/8/8/N7|8/8/8/8/8/8/8/8 w - - 0 1",
        [0, 0, 0],
    ),
    (
        "cross-board-king-check-cut",
        "8/8/8/8/8/8/4P3/4K3|8/8/8/8/8/8/4k3/4n3|8/8/8/8/8/8/8/N7|8/8/8/8/8/8/8/8 w - - 0 1",
        [6, 23, 101],
    ),
    (
        "cross-board-king-check-own-man-no-cut",
        "8/8/8/8/8/8/3P4/4K3|8/8/8/8/8/8/3k4/4N3|8/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/8 w - - 0 1",
        [2, 14, 490],
    ),
    (
        "cross-board-attacker-in-check-still-attacks",
        "8/8/8/8/8/8/3P4/4K3|8/8/8/8/8/8/3k4/R7|8/8/8/8/8/7N/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [2, 18, 487],
    ),
    (
        "cutting-man-moves-discovered-check",
        "8/8/8/8/8/8/4P3/4K3|8/8/8/8/8/8/4k3/4n3|8/8/8/8/8/8/P7/8|8/8/8/8/8/8/8/8 b - - 0 1",
        [5, 8, 90],
    ),
    (
        "king-steps-into-check-to-escape",
        "4r3/8/8/8/8/8/r7/4K3|7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [2, 72, 538],
    ),
    (
        "block-check-by-transfer-in",
        "8/8/8/8/R7/8/8/8|4r3/8/8/8/8/8/8/2B1K3|7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [5, 101, 3416],
    ),
    (
        "castling-transfer-blocked-destination",
        "4k3/p6p/8/8/8/8/P6P/R3K2R|8/8/8/8/8/8/8/6n1|8/8/8/8/8/8/8/3B4|8/8/8/8/8/8/8/8 w KQ - 0 1",
        [49, 1136, 47869],
    ),
    (
        "castling-crossing-square-attacked",
        "4kr2/8/8/8/8/8/P6P/R3K2R|3r4/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQ - 0 1",
        [37, 1688, 64295],
    ),
    (
        "castling-cross-board-king-attack",
        "8/8/8/8/8/8/3PP3/R3K2R|8/8/8/8/8/8/2k5/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQ - 0 1",
        [26, 111, 6843],
    ),
    (
        "castling-landing-square-attacked-on-t",
        "4k3/7p/8/8/8/8/8/4K2R|6r1/8/8/8/8/8/8/8|5r2/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w K - 0 1",
        [39, 1832, 39688],
    ),
    (
        "en-passant-with-transfer",
        "8/8/8/8/8/8/8/7K|k7/8/8/8/8/4N3/8/8|8/8/8/8/3pPp2/8/8/8|8/8/8/8/8/8/8/8 b - 3e3 3 1",
        [9, 126, 1298],
    ),
    (
        "en-passant-passed-square-occupied",
        "8/8/8/8/8/8/8/7K|k7/8/8/8/8/8/8/8|8/8/8/8/3pP3/4n3/8/8|8/8/8/8/8/8/8/8 b - 3e3 0 1",
        [21, 113, 2091],
    ),
    (
        "en-passant-other-board-no",
        "8/8/8/8/3p4/8/8/7K|k7/8/8/8/8/8/8/8|8/p7/8/8/4P3/8/8/8|8/8/8/8/8/8/8/8 b - 3e3 0 1",
        [8, 55, 579],
    ),
    (
        "promotion-with-transfer",
        "8/8/8/8/8/8/8/K7|3r4/4P3/8/8/8/8/8/8|8/8/8/7k/8/8/8/8|4B3/8/8/8/8/8/8/8 w - - 0 1",
        [32, 679, 16107],
    ),
    (
        "promotion-blocked-on-t",
        "4n3/8/8/8/8/8/8/K7|8/4P3/8/8/8/8/8/8|4n3/8/8/7k/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [3, 93, 1338],
    ),
    (
        "pinned-piece-leaves-board",
        "4r3/8/8/8/8/8/4R3/4K1N1|7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [7, 116, 3103],
    ),
    (
        "capture-blocker-exposes-king",
        "4r3/8/8/8/4n3/8/2B2N2/4K3|7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [13, 275, 4217],
    ),
    (
        "king-landing-capture-defended",
        "8/8/8/8/8/8/8/4K3|7k/8/8/8/8/8/r3n3/3N1n2|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        [6, 215, 3281],
    ),
    (
        "config-kings-together-board4",
        "8/8/8/8/5B2/2N5/8/8|8/8/2n5/8/3P4/8/8/8|8/8/8/3p4/6b1/8/8/8|r2qk2r/pp3p2/8/8/8/8/PP3P2/R2QK2R w - - 0 1",
        [118, 13454, 1370545],
    ),
    (
        "config-kings-apart-1-2",
        "8/8/8/8/8/5N2/5PPP/4R1K1|4r1k1/5ppp/5n2/8/8/8/8/8|8/8/8/4P3/2BQ4/8/8/8|8/8/8/2bq4/4p3/8/8/8 w - - 0 1",
        [82, 6643, 464711],
    ),
    (
        "config-kings-apart-3-4-black",
        "3q3r/p7/8/8/8/8/P7/R7|6n1/8/8/8/8/8/8/1N1Q4|8/8/8/8/4P3/4K3/8/2B5|5b2/8/4k3/4p3/8/8/8/8 b - - 7 20",
        [80, 4788, 312055],
    ),
];

#[test]
fn rule_cases_match_the_independent_counts() {
    let mut bad = Vec::new();
    for (name, text, counts) in CASES {
        let mut p = pos(text);
        assert_eq!(p.to_text(), *text, "{name}: text round trip");
        for (d, &want) in (1..=3).zip(counts) {
            let got = perft(&mut p, d);
            if got != want {
                bad.push(format!("{name} depth {d}: {got}, expected {want}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn start_perft_matches_the_contract() {
    let mut p = Position::start();
    assert_eq!(perft(&mut p, 1), 60);
    assert_eq!(perft(&mut p, 2), 3_600);
    assert_eq!(perft(&mut p, 3), 247_284);
    // Depth 4 as the independent implementation counts it.
    assert_eq!(perft(&mut p, 4), 16_873_302);
}

#[test]
fn start_text_round_trips() {
    assert_eq!(Position::start().to_text(), START);
}

#[test]
fn the_diagram_shows_four_boards_side_by_side() {
    let d = Position::start().diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 11, "{d}");
    assert_eq!(lines[1], "8 r n b q k b n r   8 . . . . . . . .   8 . . . . . . . .   8 . . . . . . . .");
    assert_eq!(lines[8], "1 R N B Q K B N R   1 . . . . . . . .   1 . . . . . . . .   1 . . . . . . . .");
    assert_eq!(lines[10], "white to move; w KQkq - 0 1");
    assert!(d.lines().all(|l| l == l.trim_end()), "no trailing spaces");
}

/// Plays `plies` random legal moves from the start with a fixed generator; checks at every ply that
/// the incremental hash equals the recomputed one, that the text round-trips, that every legal
/// move reads back from its text, that the noisy generator lists exactly the legal moves that
/// take a man or promote, and that unmake (and a null move's take-back) restores the position
/// exactly.
#[test]
fn random_games_keep_hash_text_and_unmake_consistent() {
    let mut rng = crate::rng::SplitMix64::new(7);
    for _ in 0..40 {
        let mut p = Position::start();
        let mut line = Vec::new();
        for _ in 0..120 {
            assert_eq!(p.hash(), p.full_hash(), "{}", p.to_text());
            let text = p.to_text();
            let back = pos(&text);
            assert_eq!(back, p);
            assert_eq!(back.hash(), p.hash());
            let moves = p.legal_moves();
            assert_eq!(moves.len() as u64, p.count_legal());
            if moves.is_empty() {
                break;
            }
            let mut noisy = Vec::new();
            p.noisy_moves_into(&mut noisy);
            let men = |q: &Position| (0..4).map(|b| q.occupied(b).count_ones()).sum::<u32>();
            let mut want = Vec::new();
            for &m in &moves {
                assert_eq!(p.parse_move(&m.to_string()), Ok(m), "{m} in {text}");
                let before = p.clone();
                let u = p.make(m);
                if men(&p) < men(&before) || m.promotion().is_some() {
                    want.push(m);
                }
                let k = p.king(p.side().flip());
                assert!(!p.attacked(k / 64, k % 64, p.side()), "{m} leaves its king attacked in {text}");
                p.unmake(m, u);
                assert_eq!(p, before, "unmake {m}");
                assert_eq!(p.hash(), before.hash());
            }
            if !p.in_check() {
                let before = p.clone();
                let u = p.make_null();
                assert_eq!(p.hash(), p.full_hash(), "null move in {text}");
                assert_eq!(p.side(), before.side().flip());
                p.unmake_null(u);
                assert_eq!(p, before, "unmake_null");
                assert_eq!(p.hash(), before.hash());
            }
            noisy.sort();
            want.sort();
            assert_eq!(noisy, want, "the noisy moves of {text}");
            let m = moves[rng.below(moves.len())];
            p.make(m);
            line.push(m);
        }
    }
}

#[test]
fn move_text_round_trips_and_bad_text_is_refused() {
    let p = Position::start();
    let m = p.parse_move("1e2e4>3").unwrap();
    assert_eq!(m.to_string(), "1e2e4>3");
    let mut q = p.clone();
    q.make(m);
    assert_eq!(q.ep(), Some(2 * 64 + 20), "the en passant cell names the landing board: 3e3");
    assert!(q.to_text().contains(" b KQkq 3e3 0 1"), "{}", q.to_text());
    for bad in ["", "1e2e4", "1e2e4>1", "5e2e4>2", "1e2e5>2", "1e2e4>5", "1e2e4x>2", "1e2e4>22", "1i2e4>2"] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
    assert!(matches!(p.parse_move("1e2e5>2"), Err(MoveTextError::Illegal(_))));
    assert!(matches!(p.parse_move("1e2e4"), Err(MoveTextError::Syntax(_))));
}

#[test]
fn bad_position_texts_are_refused_with_the_reason() {
    let cases = [
        ("8/8/8/8/8/8/8/8 w - - 0 1".to_string(), "4 boards"),
        (START.replacen(" w ", " x ", 1), "side to move"),
        (START.replacen("rnbqkbnr", "rnbqxbnr", 1), "unknown piece 'x'"),
        (START.replacen("rnbqkbnr", "rnbq1bnr", 1), "black must have exactly one king"),
        (START.replacen("rnbqkbnr", "rnbqkbnrr", 1), "more than 8 squares"),
        (START.replacen("KQkq", "KQkqK", 1), "castling field"),
        (START.replacen(" - 0 1", " 3e3 0 1", 1), "en passant field"),
        (START.replacen(" 0 1", " 0 0", 1), "move number"),
        (START.replacen("pppppppp", "ppppppp1", 1).replacen("|8/", "|p7/", 1), "pawn"),
    ];
    for (text, want) in &cases {
        let e = Position::from_text(text).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e} should say {want}");
    }
    // The side not to move in check: white to move, black king attacked by a white rook.
    let t = "4k3/8/8/8/8/8/8/4RK2|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1";
    assert!(Position::from_text(t).unwrap_err().to_string().contains("not to move (black) is in check"));
}

#[test]
fn game_end_rules_apply_to_quasi_alice() {
    use crate::game::{EndRule, Game, Outcome, Status};
    // Bare kings on different boards.
    let g = Game::new(pos("4k3/8/8/8/8/8/8/8|8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1"));
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
    // Knights shuffling between boards 1 and 2 repeat the start position.
    let mut g = Game::new(Position::start());
    g.play_line("1. 1g1f3>2 1g8f6>2 2. 2f3g1>1 2f6g8>1 3. 1g1f3>2 1g8f6>2 4. 2f3g1>1").unwrap();
    assert_eq!(g.status(), Status::Ongoing);
    g.play_line("4... 2f6g8>1").unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::Repetition)));
}
