//! The seed text's figures and games (`seeds/five-up-3dchesswiki.txt`), and the per-piece split of
//! perft(1) from the start positions (docs/RULES.md §4 and §7).
//!
//! Every figure was transcribed by hand and agrees with docs/RULES.md: no contradiction was found.

use super::reference::{parse_cell, RefPos};
use super::{find_move, text};
use fiveup::game::Color;
use fiveup::rules::{Kind, Piece, Position, Setup, Special, Variant};
use std::collections::{BTreeMap, BTreeSet};

/// A sparse position of `variant`: the listed pieces (`"Cc3 U"`, upper case white), white to move.
fn sparse(variant: &str, pieces: &[&str]) -> Position {
    let v = text::variant(variant);
    let mut s = Setup::empty(v);
    for p in pieces {
        let (cell, letter) = p.split_once(' ').expect("cell and letter");
        let ch = letter.chars().next().unwrap();
        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        let kind = v.ruleset.kind_from_letter(ch).expect("a piece letter");
        s.board[parse_cell(cell)] = Some(Piece::new(color, kind));
    }
    Position::from_setup(s).expect("valid sparse position")
}

/// Destination cells of the legal moves from `from` (the core), checked against the reference.
fn targets(pos: &Position, from: &str) -> BTreeSet<String> {
    let got: BTreeSet<String> =
        pos.legal_moves().iter().filter(|m| m.from().to_string() == from).map(|m| m.to().to_string()).collect();
    let r = RefPos::from_setup(&pos.to_setup());
    let want: BTreeSet<String> =
        r.legal_texts().iter().filter(|m| m.starts_with(from)).map(|m| m[3..6].to_string()).collect();
    assert_eq!(got, want, "core and reference differ from {from}");
    got
}

fn set(cells: &str) -> BTreeSet<String> {
    cells.split_whitespace().map(str::to_string).collect()
}

/// Figure 5: the unicorn on Cc3 reaches the 24 marked cells, none in a plane through Cc3.
#[test]
fn figure5_unicorn_on_cc3() {
    let pos = sparse("fiveup", &["Cc3 U", "Ea1 K", "Ae5 k"]);
    let want = set("Ab4 Ad4 Ab2 Ad2 \
                    Bb5 Bd5 Ba4 Be4 Ba2 Be2 Bb1 Bd1 \
                    Db5 Dd5 Da4 De4 Da2 De2 Db1 Dd1 \
                    Eb4 Ed4 Eb2 Ed2");
    assert_eq!(want.len(), 24);
    assert_eq!(targets(&pos, "Cc3"), want);
}

/// Figure 6: the silver unicorn on Da2: 8 unicorn leaps ('u') and 6 3D-diagonal slides ('d').
#[test]
fn figure6_silver_unicorn_on_da2() {
    let pos = sparse("fiveup", &["Da2 S", "Ee5 K", "Ae1 k"]);
    let u = set("Bb3 Bb1 Cb4 Cc3 Cc1 Eb4 Ec3 Ec1");
    let d = set("Ad5 Bc4 Cb3 Cb1 Eb3 Eb1");
    assert_eq!(targets(&pos, "Da2"), u.union(&d).cloned().collect());
}

/// Figure 7: the wizard on Bb2: 18 cells along 2D diagonals ('x') and 10 along 3D diagonals ('*').
#[test]
fn figure7_wizard_on_bb2() {
    let pos = sparse("fiveup", &["Bb2 W", "Ea5 K", "De1 k"]);
    let x = set("Ab3 Aa2 Ac2 Ab1 Be5 Bd4 Ba3 Bc3 Ba1 Bc1 Cb3 Ca2 Cc2 Cb1 Db4 Dd2 Eb5 Ee2");
    let star = set("Aa3 Ac3 Aa1 Ac1 Ca3 Cc3 Ca1 Cc1 Dd4 Ee5");
    assert_eq!((x.len(), star.len()), (18, 10));
    assert_eq!(targets(&pos, "Bb2"), x.union(&star).cloned().collect());
}

/// Figure 4: the white pawn on Cb3 has 2 moves ('+': Cb4, Bb3) and 5 capture cells ('x').
#[test]
fn figure4_pawn_on_cb3() {
    let pos = sparse("fiveup", &["Cb3 P", "Ee1 K", "Ae5 k"]);
    assert_eq!(targets(&pos, "Cb3"), set("Cb4 Bb3"));
    let caps = ["Ca4 n", "Cc4 n", "Ba3 n", "Bc3 n", "Bb4 n"];
    let mut pieces = vec!["Cb3 P", "Ee1 K", "Ae5 k"];
    pieces.extend(caps);
    let pos = sparse("fiveup", &pieces);
    assert_eq!(targets(&pos, "Cb3"), set("Cb4 Bb3 Ca4 Cc4 Ba3 Bc3 Bb4"));
}

/// The footnote: a knight on Ca3 of the hypercylinder (layers A..E top to bottom, ranks 5..1).
#[test]
fn footnote_knight_on_ca3_hypercylinder() {
    let pos = sparse("fiveup+hypercylinder", &["Ca3 N", "Ee5 K", "Ac1 k"]);
    let want = set("Aa4 Ab3 Ae3 Aa2 \
                    Ba5 Bc3 Bd3 Ba1 \
                    Cb5 Ce5 Cc4 Cd4 Cc2 Cd2 Cb1 Ce1 \
                    Da5 Dc3 Dd3 Da1 \
                    Ea4 Eb3 Ee3 Ea2");
    assert_eq!(want.len(), 24);
    assert_eq!(targets(&pos, "Ca3"), want);
    // On the flat board only the 16 cells reached without wrapping remain.
    let flat = sparse("fiveup", &["Ca3 N", "Ee5 K", "Ac1 k"]);
    assert_eq!(targets(&flat, "Ca3"), set("Ab3 Bc3 Cb5 Cc4 Cc2 Cb1 Ba5 Ba1 Da5 Da1 Dc3 Eb3 Aa4 Aa2 Ea4 Ea2"));
}

/// The endgame figure: white king Cc3 against black king Bc4 (and queen Aa5) may only go to Cc2
/// or Dc3: Bc3 and Cc4 are on the black king's orthogonals, Cb3 and Cd3 on its 3D diagonals.
#[test]
fn king_figure_cc3_against_bc4() {
    let pos = sparse("fiveup", &["Cc3 K", "Bc4 k", "Aa5 q"]);
    assert!(!pos.in_check());
    assert_eq!(targets(&pos, "Cc3"), set("Cc2 Dc3"));
}

/// The seed's fool's mate, `1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++`, in
/// coordinates. `P-Bd3` is the L-shaped double move Ad4-Bd3 (the final diagram has Ad4 empty and
/// Bd4 occupied; from Bd4 the Ad4 pawn would still guard Be4 and there would be no mate).
#[test]
fn fools_mate_replays_to_checkmate() {
    let mut pos = Position::startpos(Variant::default());
    for t in ["Dc2Cc2", "Bc4Cc4", "Db1De4/G", "Ad4Bd3", "Eb1Db3/S", "Cc4Cc3", "Eb1Be4"] {
        let m = find_move(&pos, t);
        if t == "Ad4Bd3" {
            assert_eq!(m.special(), Special::Double);
        }
        pos.make(m);
    }
    assert!(pos.in_check());
    assert_eq!(pos.count_legal(), 0);
    assert!(RefPos::from_setup(&pos.to_setup()).legal_moves().is_empty());

    // `P-Bd3` as written is ambiguous: Bd4-Bd3 (one forward) is legal too, and after it the same
    // moves end in check but not mate (the Ad4 pawn takes on Be4).
    let mut pos = Position::startpos(Variant::default());
    for t in ["Dc2Cc2", "Bc4Cc4", "Db1De4/G"] {
        pos.make(find_move(&pos, t));
    }
    let _ = find_move(&pos, "Ad4Bd3");
    for t in ["Bd4Bd3", "Eb1Db3/S", "Cc4Cc3", "Eb1Be4"] {
        pos.make(find_move(&pos, t));
    }
    assert!(pos.in_check());
    assert!(pos.legal_moves().iter().any(|m| m.to_string() == "Ad4Be4"));
}

/// Moves per kind of moving piece, placements excluded, and the number of placement moves.
fn split(pos: &Position) -> (BTreeMap<Kind, usize>, usize) {
    let mut by = BTreeMap::new();
    let mut placements = 0;
    for m in pos.legal_moves() {
        if m.placement().is_some() {
            placements += 1;
        } else {
            *by.entry(pos.piece_at(m.from()).unwrap().kind).or_default() += 1;
        }
    }
    (by, placements)
}

/// docs/RULES.md §7: 25 pawn, 12 knight, 11 unicorn, 13 bishop, 10 queen moves; 46 x 3 placements.
#[test]
fn fiveup_start_split() {
    for color in [Color::White, Color::Black] {
        let mut s = Setup::start(Variant::default());
        s.side = color;
        let pos = Position::from_setup(s).unwrap();
        let (by, placements) = split(&pos);
        let want = BTreeMap::from([
            (Kind::Pawn, 25),
            (Kind::Knight, 12),
            (Kind::Unicorn, 11),
            (Kind::Bishop, 13),
            (Kind::Queen, 10),
        ]);
        assert_eq!(by, want, "{color:?}");
        assert_eq!(placements, 46 * 3);
        assert_eq!(pos.count_legal(), 209);
    }
}

/// docs/RULES.md §4: 15 pawn, 14 queen, 13 bishop, 12 knight, 7 unicorn moves.
#[test]
fn raumschach_start_split() {
    let pos = Position::startpos(Variant::plain(fiveup::rules::Ruleset::Raumschach));
    let (by, placements) = split(&pos);
    let want = BTreeMap::from([
        (Kind::Pawn, 15),
        (Kind::Queen, 14),
        (Kind::Bishop, 13),
        (Kind::Knight, 12),
        (Kind::RUnicorn, 7),
    ]);
    assert_eq!((by, placements), (want, 0));
}

/// The opening diagrams: black bishops Be5 ('+') and Bb5 ('*'), black knight Ad5 ('.'), white
/// unicorns Dd1 (7 cells) and Da1 (4 cells).
#[test]
fn opening_diagrams() {
    let mut s = Setup::start(Variant::default());
    s.side = Color::Black;
    let black = Position::from_setup(s).unwrap();
    assert_eq!(targets(&black, "Be5"), set("Cd5 Dc5 Eb5 Ce4 De3 Ee2"));
    assert_eq!(targets(&black, "Bb5"), set("Ca5 Cc5 Dd5 Ee5 Cb4 Db3 Eb2"));
    assert_eq!(targets(&black, "Ad5"), set("Ac3 Ae3 Bd3 Cc5 Ce5 Cd4"));
    let white = Position::startpos(Variant::default());
    assert_eq!(targets(&white, "Dd1"), set("Bc2 Be2 Cb2 Cc3 Ce3 Ec3 Ee3"));
    assert_eq!(targets(&white, "Da1"), set("Bb2 Cc2 Cb3 Eb3"));
}
