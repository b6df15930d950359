//! A small test-only reader of the position text of docs/RULES.md §6 (the core's reader is being built
//! elsewhere), so that perft data and hand-made positions can be written as text.

use super::reference::{idx, parse_cell};
use fiveup::game::Color;
use fiveup::rules::position::EnPassant;
use fiveup::rules::{Bitboard, Kind, Piece, Ruleset, Setup, Variant};

/// The piece a letter names in a ruleset.
fn piece(rs: Ruleset, ch: char) -> Piece {
    let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
    let kind = match ch.to_ascii_uppercase() {
        'P' => Kind::Pawn,
        'N' => Kind::Knight,
        'B' => Kind::Bishop,
        'R' => Kind::Rook,
        'Q' => Kind::Queen,
        'K' => Kind::King,
        'U' if rs == Ruleset::Raumschach => Kind::RUnicorn,
        'U' => Kind::Unicorn,
        'S' => Kind::Silver,
        'W' => Kind::Wizard,
        'G' => Kind::Guard,
        _ => panic!("bad piece letter {ch}"),
    };
    Piece::new(color, kind)
}

/// Parses position text into an unchecked setup of `variant`; panics on malformed text.
pub fn parse(variant: Variant, text: &str) -> Setup {
    let f: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(f.len(), 7, "seven fields in {text}");
    let rs = variant.ruleset;
    let mut s = Setup::empty(variant);
    // 1. Board: layers A..E by '|', ranks 5..1 by '/', files a..e.
    let layers: Vec<&str> = f[0].split('|').collect();
    assert_eq!(layers.len(), 5);
    for (l, layer) in layers.iter().enumerate() {
        let ranks: Vec<&str> = layer.split('/').collect();
        assert_eq!(ranks.len(), 5);
        for (ri, rank) in ranks.iter().enumerate() {
            let r = 4 - ri as i32;
            let mut file = 0;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file += d as i32;
                } else {
                    assert!(file < 5, "rank too long in {text}");
                    s.board[idx(l as i32, r, file)] = Some(piece(rs, ch));
                    file += 1;
                }
            }
            assert_eq!(file, 5, "rank length in {text}");
        }
    }
    // 2. Side.
    s.side = if f[1] == "w" { Color::White } else { Color::Black };
    // 3. Reserve.
    for ch in f[2].chars().filter(|&c| c != '-') {
        let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
        s.reserve[side] |= match ch.to_ascii_uppercase() {
            'W' => 1,
            'G' => 2,
            'S' => 4,
            _ => panic!("bad reserve {ch}"),
        };
    }
    // 4. Rights: rows (`E1`) and cells (`Ea1`).
    let mut rights = 0u128;
    if f[3] != "-" {
        let b = f[3].as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b.get(i + 1).is_some_and(|c| c.is_ascii_lowercase()) {
                rights |= 1 << parse_cell(&f[3][i..i + 3]);
                i += 3;
            } else {
                let (l, r) = ((b[i] - b'A') as i32, (b[i + 1] - b'1') as i32);
                for file in 0..5 {
                    rights |= 1 << idx(l, r, file);
                }
                i += 2;
            }
        }
    }
    s.rights = Bitboard(rights);
    // 5. En passant: passed cells, '@', pawn cell.
    if f[4] != "-" {
        let (passed, pawn) = f[4].split_once('@').expect("'@' in en passant field");
        let mut p = 0u128;
        for k in (0..passed.len()).step_by(3) {
            p |= 1 << parse_cell(&passed[k..k + 3]);
        }
        s.ep = EnPassant { passed: p, pawn: parse_cell(pawn) as u8 };
    }
    // 6, 7. Clocks.
    s.halfmove = f[5].parse().expect("halfmove clock");
    s.fullmove = f[6].parse().expect("move number");
    s
}

/// Parses a variant name: a ruleset name with optional `+castling` / `+hypercylinder`.
pub fn variant(name: &str) -> Variant {
    let mut parts = name.split('+');
    let rs: Ruleset = parts.next().unwrap().parse().expect("ruleset");
    let (mut castling, mut cyl) = (false, false);
    for p in parts {
        match p {
            "castling" => castling = true,
            "hypercylinder" => cyl = true,
            _ => panic!("bad flag {p}"),
        }
    }
    Variant::new(rs, castling, cyl).expect("valid variant")
}

/// Writes a setup as position text (rights always as a cell list; for failure messages and data).
pub fn write(s: &Setup) -> String {
    use super::reference::{letter, name};
    let mut board = String::new();
    for l in 0..5 {
        if l > 0 {
            board.push('|');
        }
        for r in (0..5).rev() {
            if r < 4 {
                board.push('/');
            }
            let mut run = 0;
            for f in 0..5 {
                match s.board[idx(l, r, f)] {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            board.push_str(&run.to_string());
                            run = 0;
                        }
                        let c = letter(p.kind);
                        board.push(if p.color == Color::White { c } else { c.to_ascii_lowercase() });
                    }
                }
            }
            if run > 0 {
                board.push_str(&run.to_string());
            }
        }
    }
    let mut reserve = String::new();
    for (side, upper) in [(0, true), (1, false)] {
        for (b, c) in [(1, 'W'), (2, 'G'), (4, 'S')] {
            if s.reserve[side] & b != 0 {
                reserve.push(if upper { c } else { c.to_ascii_lowercase() });
            }
        }
    }
    if reserve.is_empty() {
        reserve.push('-');
    }
    let cells = |bits: u128| (0..125).filter(|i| bits >> i & 1 != 0).map(name).collect::<String>();
    let mut rights = cells(s.rights.0);
    if rights.is_empty() {
        rights.push('-');
    }
    let ep =
        if s.ep.passed == 0 { "-".to_string() } else { format!("{}@{}", cells(s.ep.passed), name(s.ep.pawn as usize)) };
    let side = if s.side == Color::White { 'w' } else { 'b' };
    format!("{board} {side} {reserve} {rights} {ep} {} {}", s.halfmove, s.fullmove)
}
