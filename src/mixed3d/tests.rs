//! Perft tables and rule cases of Mixed 3D Chess.

use super::geometry::cell_name;
use super::*;
use crate::game::perft::perft;
use crate::rng::SplitMix64;

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_start_has_the_contracts_counts() {
    let mut p = Position::start();
    assert_eq!(p.to_text(), START);
    assert_eq!(perft(&mut p, 1), 188);
    assert_eq!(perft(&mut p, 2), 35_344);
}

#[test]
fn the_start_has_the_contracts_perft_3() {
    assert_eq!(perft(&mut Position::start(), 3), 6_974_076);
}

/// Plays random games: every listed move's text reads back as that move, the list and the count
/// agree, make/unmake restores the position and its hash, the hash is the one computed afresh,
/// and the position text round-trips.
#[test]
fn random_games_keep_the_position_consistent() {
    let mut rng = SplitMix64::new(7);
    for game in 0..6 {
        let mut p = Position::start();
        for _ply in 0..120 {
            let moves = p.legal_moves();
            assert_eq!(moves.len() as u64, p.count_legal(), "{}", p.to_text());
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                assert_eq!(p.parse_move(&m.to_string()), Ok(m), "{m} in {}", p.to_text());
            }
            let text = p.to_text();
            assert_eq!(pos(&text).to_text(), text);
            assert_eq!(p.hash(), p.full_hash());
            let (next, r) = rng.step();
            rng = next;
            let m = moves[(r % moves.len() as u64) as usize];
            let before = p.clone();
            let u = p.make(m);
            assert_eq!(p.hash(), p.full_hash(), "after {m} in game {game}");
            assert!(!p.attacked(p.king(p.side().flip()), p.side()), "{m} left the king attacked");
            p.unmake(m, u);
            assert_eq!(p, before);
            assert_eq!(p.hash(), before.hash());
            p.make(m);
        }
    }
}

#[test]
fn move_text_is_read_in_its_forms() {
    let p = Position::start();
    let m = p.parse_move("4e2-4e4").unwrap();
    assert_eq!(m.to_string(), "4e2-4e4");
    assert_eq!(m.flag(), Flag::DoubleStep);
    assert_eq!(p.parse_move("4e2x4e4"), Ok(m));
    assert_eq!(p.parse_move(" 4e24e4 "), Ok(m));
    assert!(matches!(p.parse_move("4e2-4e5"), Err(MoveTextError::Illegal(_))));
    for bad in ["", "4e2", "9e2-9e4", "4e2-4e4=", "4e2-4e4=K", "4e2-4e4=C", "4e2--4e4", "e2e4"] {
        assert!(matches!(p.parse_move(bad), Err(MoveTextError::Syntax(_))), "{bad}");
    }
    let mut q = p.clone();
    q.make(m);
    assert_eq!(q.to_text().split(' ').nth(3), Some("4e3"));
}

#[test]
fn bad_position_texts_are_refused_with_the_reason() {
    let start = START.to_string();
    let cases: Vec<(String, &str)> = vec![
        (start.replacen(" w ", " x ", 1), "side to move"),
        (start.replacen("|", "/", 1), "8 levels"),
        (start.replacen(" 0 1", " 0", 1), "6 fields"),
        (start.replacen("RNBQKBNR", "RNBQCBNR", 1), "exactly one royal king"),
        (start.replacen("4h1,1h1", "1h1,4h1", 1), "in the order"),
        (start.replacen("4h1,", "4g1,", 1), "not a castling rook cell"),
        (start.replacen("pppppppp", "ppppppp", 1), "rank 7 has 7 cells"),
        (start.replacen("pppppppp", "ppppppppp", 1), "more than 8 cells"),
        (start.replacen("pppppppp", "ppppzppp", 1), "unknown piece 'z'"),
        (start.replacen(" - 0 1", " 4e6 0 1", 1), "no black pawn on 4e5"),
        (start.replacen(" - 0 1", " 4e3 0 1", 1), "rank 6"),
        (start.replacen(" 0 1", " -1 1", 1), "halfmove clock"),
    ];
    for (text, want) in cases {
        let e = Position::from_text(&text).unwrap_err().to_string();
        assert!(e.contains(want), "{e} (wanted '{want}')");
    }
}

/// Hand-built positions, one rule each, with perft(1..=3) as an independent literal generator
/// of the rules contract counts them (every pseudo-legal move played on a copy, the royal king's
/// safety tested by scanning every enemy man's capture pattern; written from the contract alone).
const CASES: &[(&str, &str, [u64; 3])] = &[
    // White castles with each of the six rooks (4h1,1h1,7h1,4a1,8a1,1a1); at ply 3 castling must n…
    ("castle_white_six", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 w 4h1,1h1,7h1,4a1,8a1,1a1 - 0 1", [186, 3092, 602683]),
    // Black mirror: castling with the six rooks on rank 8.
    ("castle_black_six", "r6r/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|r3k2r/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7r/8/8/8/8/8/8/8|r7/8/8/8/8/8/8/8 b 4h8,1h8,7h8,4a8,8a8,1a8 - 0 1", [186, 3092, 602683]),
    // King in check (3D bishop 7h4 via 6g3,5f2): no castling at all. Side to move is in check.
    ("castle_refused_check", "8/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/7b/8/8/8|7k/8/8/8/8/8/8/8 w 4h1,4a1,1a1 - 0 1", [17, 373, 42144]),
    // Crossed cell attacked: 4f1 (knight 4g3) refuses 4h1, 5d1 (rook 5d6) refuses 8a1; 1a1 allowed.
    ("castle_refused_crossed", "8/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/6n1/8/4K2R|8/8/3r4/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/R7 w 4h1,8a1,1a1 - 0 1", [108, 6960, 730716]),
    // Landing cell attacked: 2g1 (rook 2g7) refuses 1h1, 4c1 (knight 4b3) refuses 4a1; 7h1 allowed.
    ("castle_refused_landing", "8/8/8/8/8/8/8/7R|8/6r1/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/1n6/8/R3K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|k7/8/8/8/8/8/8/8 w 1h1,7h1,4a1 - 0 1", [106, 6496, 709203]),
    // Non-crossed between cells 4b1, 1b1, 7b1 attacked (rooks on file b): all three castlings stil…
    ("castle_between_attacked", "8/8/1r6/8/8/8/8/R7|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/1r6/8/8/8/R3K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/1r6/8/8/8/8/8|7k/8/8/8/8/8/8/R7 w 4a1,8a1,1a1 - 0 1", [106, 12008, 1298000]),
    // Pawn attacks on castling cells: p5f2 takes (0,-1,-1) onto 4f1 (crossed) so 4h1 is refused; p…
    ("castle_pawn_attacks", "8/8/8/8/8/8/8/R7|8/8/8/8/8/3p4/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/5p2/8|8/8/8/8/8/8/2p5/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/R7 w 4h1,8a1,1a1 - 0 1", [110, 1620, 146095]),
    // Between cells occupied: 1b1 blocks the 1a1 castling, 7b1 blocks 8a1; 4h1 allowed.
    ("castle_blocked_1a1", "8/8/8/8/8/8/8/RN6|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/1N6|7k/8/8/8/8/8/8/R7 w 4h1,8a1,1a1 - 0 1", [120, 807, 102374]),
    // The special 1a1 / 1a8 castling (king to 2c1/2c8, rook to 3d1/3d8) for both sides.
    ("castle_1a1_both", "r7/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w 1a1,1a8 - 0 1", [53, 2702, 141641]),
    // Black can capture both castling rooks on their cells at ply 2 (rook 1a5x1a1, bishop 6f3x4h1)…
    ("rights_capture", "8/8/8/r7/8/8/8/R7|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/5b2/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w 4h1,1a1 - 0 1", [79, 5105, 421559]),
    // En passant on 4d6 by white pawns from 4c5, 4e5 (same level) and 3d5, 5d5 (across levels).
    ("ep_white_four", "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/3P4/8/8/8/8|8/8/8/2PpP3/8/8/8/8|8/8/8/3P4/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 w - 4d6 0 1", [15, 116, 1764]),
    // Black mirror: en passant on 5e3 from 5d4, 5f4, 4e4, 6e4.
    ("ep_black_four", "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/4p3/8/8/8|8/8/8/8/3pPp2/8/8/8|8/8/8/8/4p3/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 b - 5e3 0 1", [15, 116, 1764]),
    // En passant 4c5x4d6 illegal (opens rank 5 of level 4 to rook 4h5); 5d5x4d6 legal.
    ("ep_discovered_rank", "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/K1Pp3r/8/8/8/8|8/8/8/3P4/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - 4d6 0 1", [20, 901, 19606]),
    // En passant 3d5x4d6 illegal (opens level line 1d5..6d5 to the rook); 4c5x4d6 legal.
    ("ep_discovered_level", "8/8/8/3K4/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/3P4/8/8/8/8|8/8/8/2Pp4/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/3r4/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - 4d6 0 1", [20, 941, 19928]),
    // Promotion to Q,R,B,N: push 4b7-4b8, blocked 6d7, captures 6d7x6c8 and 6d7x5d8 (across levels…
    ("promotion", "8/8/8/8/k7/8/8/6N1|8/8/8/8/8/8/6p1/5B2|8/8/8/8/8/8/8/8|8/1P6/8/8/8/8/8/8|3b4/8/8/8/8/8/8/8|2rn4/3P4/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/7K/8/8/8 w - - 0 1", [45, 3549, 189240]),
    // White rook 2e2 pinned along the level-changing rook line (0,+1,+1) 1e1-2e2-3e3-4e4: only 3e3…
    ("pin_rook_level", "8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/4R3/8|8/8/8/8/8/8/8/8|8/8/8/8/4r3/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|k7/8/8/8/8/8/8/8 w - - 0 1", [12, 589, 29197]),
    // 3D bishop diagonals (1,1,1) and (-1,1,1): knight 2e2 pinned (no move), queen 2c2 pinned (onl…
    ("pin_bishop_3d", "8/8/8/8/8/8/8/3K4|8/8/8/8/8/8/2Q1N3/8|8/8/8/8/8/8/8/8|8/8/8/8/q5b1/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1", [11, 921, 72436]),
    // Check by an undefended black commoner adjacent (1,1,1) to the royal king; king or knight 5g3…
    ("commoner_check", "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/4K3/4C3/8/8|8/8/8/5c2/8/6N1/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|k7/8/8/8/8/8/8/8 w - - 0 1", [20, 608, 36334]),
    // Same, commoner defended by rook 8f5 down the level line: the king may not take it. Side to m…
    ("commoner_check_defended", "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/4K3/4C3/8/8|8/8/8/5c2/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|k7/8/8/5r2/8/8/8/8 w - - 0 1", [18, 1134, 47636]),
    // White commoners next to the royal king: 4d5 pinned by rook 4d8, 3c3 attacked by rook 3c8 (ma…
    ("commoners", "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|2r5/8/8/8/8/2C5/8/8|3r4/8/8/3C4/3K4/8/8/8|8/8/8/8/8/8/8/8|8/8/5c2/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1", [47, 4651, 275519]),
    // Check by a knight leap across levels (5e6 -> 4e4 is (0,-2,-1)); rook 5e1 can take it, queen …
    ("knight_check_level", "8/8/8/8/8/8/8/7Q|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/4K3/8/8/8|8/8/4n3/8/8/8/8/4R3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|k7/8/8/8/8/8/8/8 w - - 0 1", [24, 237, 25251]),
    // White is checkmated in the corner (queen 2b2 defended by rook 8b2): perft 0. Side to move is…
    ("checkmate", "8/8/8/8/8/8/8/K7|8/8/8/8/8/8/1q6/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/6P1/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/1r6/8 w - - 0 1", [0, 0, 0]),
    // White is stalemated (queen 1b3 and rook 2h1 cover all seven neighbours, blocked pawn): perft…
    ("stalemate", "8/8/8/8/8/1q6/8/K7|8/8/8/8/8/8/8/7r|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/2p5/2P5/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1", [0, 0, 0]),
];

/// Move sequences from a case (or the start) and the position text after them, as the reference
/// generator plays them: castlings, rights lost, en passant fields, promotions.
const PLAYS: &[(&str, &str, &str)] = &[
    // double step writes the passed cell
    ("start", "4e2-4e4", "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR b 4h1,1h1,7h1,4a1,8a1,1a1,4h8,1h8,7h8,4a8,8a8,1a8 4e3 0 1"),
    // no en passant field, halfmove 1
    ("start", "4g1-4f3", "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR b 4h1,1h1,7h1,4a1,8a1,1a1,4h8,1h8,7h8,4a8,8a8,1a8 - 1 1"),
    // black double step: passed cell on rank 6
    ("start", "5d2-5d4 3e7-3e5", "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQCBNR|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|rnbqcbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR w 4h1,1h1,7h1,4a1,8a1,1a1,4h8,1h8,7h8,4a8,8a8,1a8 3e6 0 2"),
    // x accepted on input; capture resets halfmove
    ("start", "4e2-4e4 4d7-4d5 4e4x4d5", "rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR|rnbqcbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQCBNR b 4h1,1h1,7h1,4a1,8a1,1a1,4h8,1h8,7h8,4a8,8a8,1a8 - 0 2"),
    // castling with 4h1: rook to 4f1, all white rights gone
    ("castle_white_six", "4e1-4g1", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/R4RK1|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 b - - 1 1"),
    // castling with 1h1: rook to 3f1
    ("castle_white_six", "4e1-2g1", "8/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/6K1|8/8/8/8/8/8/8/5R2|4k3/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 b - - 1 1"),
    // castling with 7h1: rook to 5f1
    ("castle_white_six", "4e1-6g1", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/5R2|8/8/8/8/8/8/8/6K1|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/R7 b - - 1 1"),
    // castling with 4a1: rook to 4d1
    ("castle_white_six", "4e1-4c1", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/2KR3R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 b - - 1 1"),
    // castling with 8a1: rook to 5d1
    ("castle_white_six", "4e1-6c1", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/3R4|8/8/8/8/8/8/8/2K5|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/8 b - - 1 1"),
    // castling with 1a1: rook to 3d1
    ("castle_white_six", "4e1-2c1", "8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/2K5|8/8/8/8/8/8/8/3R4|4k3/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 b - - 1 1"),
    // black castling with 1a8: rook to 3d8, fullmove 2
    ("castle_black_six", "4e8-2c8", "7r/8/8/8/8/8/8/8|2k5/8/8/8/8/8/8/8|3r4/8/8/8/8/8/8/8|r6r/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7r/8/8/8/8/8/8/8|r7/8/8/8/8/8/8/8 w - - 1 2"),
    // black castling with 7h8: rook to 5f8
    ("castle_black_six", "4e8-6g8", "r6r/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|r6r/8/8/8/8/8/8/4K3|5r2/8/8/8/8/8/8/8|6k1/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|r7/8/8/8/8/8/8/8 w - - 1 2"),
    // rook moved and came back: the 4h1 right stays lost
    ("castle_white_six", "4h1-4h2 4e8-4e7 4h2-4h1", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/4k3/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 b 1h1,7h1,4a1,8a1,1a1 - 3 2"),
    // royal king moved and came back: all six rights lost
    ("castle_white_six", "4e1-4e2 4e8-4e7 4e2-4e1", "8/8/8/8/8/8/8/R6R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/4k3/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/7R|8/8/8/8/8/8/8/R7 b - - 3 2"),
    // rook moved (4h1 lost), rook captured on its cell (1a1 lost)
    ("rights_capture", "4h1-4h2 1a5x1a1", "8/8/8/8/8/8/8/r7|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/7R/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/5b2/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 2"),
    // en passant across levels removes 4d5
    ("ep_white_four", "3d5-4d6", "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/3P4/2P1P3/8/8/8/8|8/8/8/3P4/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 b - - 0 1"),
    // black en passant across levels removes 5e4
    ("ep_black_four", "6e4-5e3", "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/4p3/8/8/8|8/8/8/8/3p1p2/4p3/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 w - - 0 2"),
    // promotion with capture across levels
    ("promotion", "6d7-5d8=N", "8/8/8/8/k7/8/8/6N1|8/8/8/8/8/8/6p1/5B2|8/8/8/8/8/8/8/8|8/1P6/8/8/8/8/8/8|3N4/8/8/8/8/8/8/8|2rn4/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/7K/8/8/8 b - - 0 1"),
    // black promotion with capture, letter upper case in move text
    ("promotion", "4b7-4b8=Q 2g2-1g1=R", "8/8/8/8/k7/8/8/6r1|8/8/8/8/8/8/8/5B2|8/8/8/8/8/8/8/8|1Q6/8/8/8/8/8/8/8|3b4/8/8/8/8/8/8/8|2rn4/3P4/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/7K/8/8/8 w - - 0 2"),
];

#[test]
fn hand_built_positions_have_the_reference_counts() {
    for (name, text, counts) in CASES {
        let mut p = pos(text);
        assert_eq!(p.to_text(), *text, "{name}");
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32 + 1), want, "{name} perft({})", d + 1);
        }
    }
}

#[test]
fn move_sequences_leave_the_reference_positions() {
    for (from, moves, want) in PLAYS {
        let text = if *from == "start" {
            START
        } else {
            CASES.iter().find(|c| c.0 == *from).unwrap_or_else(|| panic!("no case {from}")).1
        };
        let mut p = pos(text);
        for m in moves.split_whitespace() {
            let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{from}: {m}: {e}"));
            p.make(mv);
        }
        assert_eq!(p.to_text(), *want, "{from}: {moves}");
        assert_eq!(p.hash(), pos(want).hash(), "{from}: {moves}");
    }
}

#[test]
fn every_cell_name_is_read_back() {
    for c in 0..geometry::CELLS {
        assert_eq!(geometry::parse_cell(cell_name(c).as_bytes()), Some(c));
    }
}
