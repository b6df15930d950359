//! The sample games of the seed text (`five-up-3dchesswiki.txt`) replay as written and end in the
//! positions of the seed's diagrams. The diagrams are copied here verbatim (black pawns are `o`
//! there) and read by a small parser, so a mismatch points at the cell.

use fiveup::game::Color;
use fiveup::game::{EndRule, Game, LineErrorKind, Outcome, Status};
use fiveup::rules::notation::{format_line, parse_move, MoveTextError};
use fiveup::rules::{Cell, Move, Position, Special, Variant};

/// Reads a seed diagram (layers drawn as `5 |r|n|k|n|r|` grids, one or two side by side, each
/// block closed by a label line such as `B a b c d e D a b c d e`) into a cell -> piece letter map
/// (`None` for an empty cell). Black pawns `o` become `p`.
fn read_diagram(text: &str) -> Vec<(Cell, Option<char>)> {
    let mut out = Vec::new();
    let mut rows: Vec<Vec<Vec<char>>> = Vec::new();
    for line in text.lines().map(str::trim) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.first().is_some_and(|t| t.len() == 1 && t.as_bytes()[0].is_ascii_digit()) {
            // Rank label, grid, rank label, grid, ...
            let grids = tokens.iter().skip(1).step_by(2);
            rows.push(
                grids
                    .map(|g| g.split('|').filter(|s| !s.is_empty()).map(|s| s.chars().next().unwrap()).collect())
                    .collect(),
            );
        } else if line.contains("a b c d e") {
            let layers: Vec<char> = tokens
                .iter()
                .filter(|t| matches!(**t, "A" | "B" | "C" | "D" | "E"))
                .map(|t| t.chars().next().unwrap())
                .collect();
            assert_eq!(rows.len(), 5, "five ranks before {line}");
            for (i, row) in rows.iter().enumerate() {
                let rank = 4 - i as i32;
                assert_eq!(row.len(), layers.len(), "grids per line in {line}");
                for (&layer, grid) in layers.iter().zip(row) {
                    assert_eq!(grid.len(), 5, "five files in layer {layer} rank {}", rank + 1);
                    for (file, &ch) in grid.iter().enumerate() {
                        let cell = Cell::from_coords((layer as u8 - b'A') as i32, rank, file as i32).unwrap();
                        let piece = match ch {
                            '_' => None,
                            'o' => Some('p'),
                            c => Some(c),
                        };
                        out.push((cell, piece));
                    }
                }
            }
            rows.clear();
        }
    }
    assert_eq!(out.len(), 125, "a diagram covers the whole board");
    out
}

/// Cells where the position and the diagram differ, as `cell: position vs diagram`.
fn differences(pos: &Position, diagram: &str) -> Vec<String> {
    read_diagram(diagram)
        .into_iter()
        .filter_map(|(c, want)| {
            let have = pos.piece_at(c).map(|p| p.char());
            (have != want).then(|| format!("{c}: position {have:?} vs diagram {want:?}"))
        })
        .collect()
}

fn replay(line: &str) -> Game<Position> {
    let mut g = Game::new(Position::startpos(Variant::default()));
    g.play_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    g
}

fn coordinates(g: &Game<Position>) -> Vec<String> {
    g.moves().iter().map(Move::to_string).collect()
}

const FOOLS_MATE_DIAGRAM: &str = "
_ _ _ _ _
5 |r|n|k|n|r|
4 |o|o|o|_|o|
3 |_|_|_|_|_|
2 |_|_|_|_|_|
1 |_|_|_|_|_|
A a b c d e
_ _ _ _ _ _ _ _ _ _
5 |u|b|q|u|b| 5 |_|_|_|_|_|
4 |o|o|_|o|S| 4 |_|_|_|_|B|
3 |_|_|_|o|_| 3 |_|N|_|_|_|
2 |_|_|_|_|_| 2 |P|P|_|P|P|
1 |_|_|_|_|_| 1 |U|G|Q|U|B|
B a b c d e D a b c d e
_ _ _ _ _ _ _ _ _ _
5 |_|_|_|_|_| 5 |_|_|_|_|_|
4 |_|_|_|_|_| 4 |_|_|_|_|_|
3 |_|_|o|_|_| 3 |_|_|_|_|_|
2 |_|_|P|_|_| 2 |P|P|P|P|P|
1 |_|_|_|_|_| 1 |R|_|K|N|R|
C a b c d e E a b c d e
";

#[test]
fn fools_mate_ends_in_checkmate_on_the_seed_diagram() {
    let g = replay("1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++");
    assert_eq!(coordinates(&g), ["Dc2Cc2", "Bc4Cc4", "Db1De4/G", "Ad4Bd3", "Eb1Db3/S", "Cc4Cc3", "Eb1Be4"]);
    // 2... Ad4-Bd3 is the L-shaped double move (passing Ad3; Bd4 is occupied).
    assert_eq!(g.moves()[3].special(), Special::Double);
    assert_eq!(differences(g.position(), FOOLS_MATE_DIAGRAM), Vec::<String>::new());
    assert_eq!(g.status(), Status::Over(Outcome::win(Color::White, EndRule::Checkmate)));
    // Printed back in figurine form (pawn moves without the letter unless it is needed).
    assert_eq!(format_line(g.start(), g.moves()), "1. Cc2 Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S Cc3 4. SxBe4++");
}

#[test]
fn fools_mate_as_printed_in_rules_md_is_ambiguous_at_move_two() {
    // The seed text writes `2. ... P-Bd3`; two black pawns can reach Bd3: Bd4 by one step forward
    // and Ad4 by the L-shaped double move. The seed's diagram shows Ad4 empty, so the game needs
    // `PAd4-Bd3`.
    let mut g = Game::new(Position::startpos(Variant::default()));
    let err = g.play_line("1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3? 3. N-Db3/S P-Cc3?? 4. SxBe4++").unwrap_err();
    assert_eq!(err.to_string(), "move 2... P-Bd3?: ambiguous: Ad4Bd3, Bd4Bd3");
    match err.kind {
        LineErrorKind::Move(MoveTextError::Ambiguous(ms)) => {
            assert_eq!(ms.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["Ad4Bd3", "Bd4Bd3"])
        }
        k => panic!("{k:?}"),
    }
    // With the straight step instead, the Ad4 pawn still guards Be4 (up and sideways), so
    // 4. SxBe4 is only check: the diagram's empty Ad4 is what makes it mate.
    let g = replay("1. P-Cc2 P-Cc4 2. B-De4/G PBd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4+");
    assert_eq!(g.status(), Status::Check);
}

const OPENING_DIAGRAM: &str = "
_ _ _ _ _
5 |r|n|k|n|r|
4 |o|o|o|o|o|
3 |_|_|_|_|_|
2 |_|_|_|_|_|
1 |_|_|_|_|_|
A a b c d e
_ _ _ _ _ _ _ _ _ _
5 |u|b|q|u|g| 5 |_|_|_|_|_|
4 |o|o|_|b|o| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |_|_|P|_|_|
2 |_|_|_|_|_| 2 |P|P|_|P|P|
1 |_|_|_|_|_| 1 |U|G|Q|U|B|
B a b c d e D a b c d e
_ _ _ _ _ _ _ _ _ _
5 |_|_|_|_|_| 5 |_|_|_|_|_|
4 |_|_|o|o|_| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |N|_|_|_|_|
2 |_|_|P|_|_| 2 |P|P|P|P|P|
1 |B|_|_|_|_| 1 |R|S|K|N|R|
C a b c d e E a b c d e
";

#[test]
fn b_ca1_opening_ends_with_the_double_move_ec2_dc3() {
    let g = replay("1. Cc2 Cc4 2. B-Ca1/G Cd4 3. N-Ea3/S B-Bd4/G (guarding Ba4) 4. Dc3");
    assert_eq!(coordinates(&g), ["Dc2Cc2", "Bc4Cc4", "Db1Ca1/G", "Bd4Cd4", "Eb1Ea3/S", "Be5Bd4/G", "Ec2Dc3"]);
    // Dc2 left at move 1, so only the Ec2 pawn can reach Dc3: by the L-shaped double move.
    assert_eq!(g.moves()[6].special(), Special::Double);
    // The seed's diagram still shows a white pawn on Ec2 after 4. Dc3. That is an error in the
    // diagram, not in the rules: with Dc2 empty no other pawn reaches Dc3, and a pawn cannot
    // appear on Ec2. Every other cell agrees.
    assert_eq!(differences(g.position(), OPENING_DIAGRAM), ["Ec2: position None vs diagram Some('P')"]);
    assert_eq!(g.status(), Status::Ongoing);
}

const PAWN_OPENING_DIAGRAM: &str = "
_ _ _ _ _
5 |r|n|k|n|r|
4 |o|o|o|o|o|
3 |_|_|_|_|_|
2 |_|_|_|_|_|
1 |_|_|_|_|_|
A a b c d e
_ _ _ _ _ _ _ _ _ _
5 |u|b|q|u|b| 5 |_|_|_|_|_|
4 |o|o|_|o|o| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |_|_|_|_|_|
2 |_|_|_|_|_| 2 |P|P|_|P|P|
1 |_|_|_|_|_| 1 |U|B|Q|U|B|
B a b c d e D a b c d e
_ _ _ _ _ _ _ _ _ _
5 |_|_|_|_|_| 5 |_|_|_|_|_|
4 |_|_|o|_|_| 4 |_|_|_|_|_|
3 |_|_|P|_|_| 3 |_|_|_|_|_|
2 |_|_|_|_|_| 2 |P|P|P|P|P|
1 |_|_|_|_|_| 1 |R|N|K|N|R|
C a b c d e E a b c d e
";

const PAWN_OPENING_CONTINUED_DIAGRAM: &str = "
_ _ _ _ _
5 |r|n|k|n|r|
4 |o|o|o|o|o|
3 |_|_|_|_|_|
2 |_|_|_|_|_|
1 |_|_|_|_|_|
A a b c d e
_ _ _ _ _ _ _ _ _ _
5 |u|b|q|u|b| 5 |_|_|_|_|_|
4 |o|o|_|_|o| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |_|_|_|_|_|
2 |_|_|_|_|_| 2 |P|P|_|_|P|
1 |_|_|_|_|_| 1 |U|B|Q|U|B|
B a b c d e D a b c d e
_ _ _ _ _ _ _ _ _ _
5 |_|_|_|_|_| 5 |_|_|_|_|_|
4 |_|_|o|o|_| 4 |_|_|_|_|_|
3 |_|_|P|_|_| 3 |_|_|_|_|_|
2 |_|_|_|P|_| 2 |P|P|P|P|P|
1 |_|_|_|_|_| 1 |R|N|K|N|R|
C a b c d e E a b c d e
";

#[test]
fn central_pawn_opening_and_its_continuation() {
    let mut g = replay("1. Cc2 Cc4 2. Cc3");
    // All single steps: Dc2-Cc2 (Ec2-Cc2 is blocked by Dc2), Bc4-Cc4, Cc2-Cc3.
    assert_eq!(coordinates(&g), ["Dc2Cc2", "Bc4Cc4", "Cc2Cc3"]);
    assert_eq!(differences(g.position(), PAWN_OPENING_DIAGRAM), Vec::<String>::new());
    // The text goes on with `2. ... Cd4 3. Cd2`, numbered from where it left off.
    g.play_line("2. ... Cd4\n3. Cd2").unwrap();
    assert_eq!(coordinates(&g)[3..], ["Bd4Cd4", "Dd2Cd2"]);
    assert!(g.moves().iter().all(|m| m.special() == Special::Normal));
    assert_eq!(differences(g.position(), PAWN_OPENING_CONTINUED_DIAGRAM), Vec::<String>::new());
}

const GAMBIT_DIAGRAM: &str = "
_ _ _ _ _
5 |r|n|k|n|r|
4 |o|o|o|o|o|
3 |_|_|_|_|_|
2 |_|_|_|_|_|
1 |_|_|_|_|_|
A a b c d e
_ _ _ _ _ _ _ _ _ _
5 |u|b|q|u|b| 5 |_|_|_|_|_|
4 |o|o|o|_|o| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |_|_|_|_|_|
2 |_|_|_|_|_| 2 |P|P|_|_|P|
1 |_|_|_|_|_| 1 |U|B|Q|U|B|
B a b c d e D a b c d e
_ _ _ _ _ _ _ _ _ _
5 |_|_|_|_|_| 5 |_|_|_|_|_|
4 |_|_|_|_|_| 4 |_|_|_|_|_|
3 |_|_|_|o|_| 3 |_|_|_|_|_|
2 |_|_|P|P|_| 2 |P|P|P|P|P|
1 |_|_|_|_|_| 1 |R|N|K|N|R|
C a b c d e E a b c d e
";

const GAMBIT_ACCEPTED_DIAGRAM: &str = "
_ _ _ _ _
5 |r|n|k|n|r|
4 |o|o|o|o|o|
3 |_|_|_|_|_|
2 |_|_|_|_|_|
1 |_|_|_|_|_|
A a b c d e
_ _ _ _ _ _ _ _ _ _
5 |u|b|q|u|w| 5 |_|_|_|_|_|
4 |o|o|o|_|_| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |_|_|_|_|_|
2 |_|_|_|_|_| 2 |P|P|_|_|P|
1 |_|_|_|_|_| 1 |U|B|Q|U|B|
B a b c d e D a b c d e
_ _ _ _ _ _ _ _ _ _
5 |_|_|_|_|_| 5 |_|_|_|_|_|
4 |_|_|_|_|b| 4 |_|_|_|_|_|
3 |_|_|_|_|_| 3 |_|_|_|_|_|
2 |_|_|P|P|_| 2 |P|P|_|P|P|
1 |_|_|_|_|_| 1 |R|N|K|N|R|
C a b c d e E a b c d e
";

#[test]
fn gambit_line_with_the_seed_typo_corrected() {
    let mut g = replay("1. Cc2 Cd4 2. Cd2 Cd3");
    assert_eq!(coordinates(&g), ["Dc2Cc2", "Bd4Cd4", "Dd2Cd2", "Cd4Cd3"]);
    assert_eq!(differences(g.position(), GAMBIT_DIAGRAM), Vec::<String>::new());
    // The seed writes `BxC34/W`, a typo for `BxCe4/W` (the diagram shows the bishop on Ce4 and a
    // wizard on Be5). As written it is rejected with its number.
    let mut typo = g.clone();
    let err = typo.play_line("3. PxCd3 Ce4 4. PxCe4 BxC34/W 5. Cc2").unwrap_err();
    assert!(err.to_string().starts_with("move 4... BxC34/W: malformed move"), "{err}");
    g.play_line("3. PxCd3 Ce4 4. PxCe4 BxCe4/W 5. Cc2").unwrap();
    assert_eq!(coordinates(&g)[4..], ["Cc2Cd3", "Be4Ce4", "Cd3Ce4", "Be5Ce4/W", "Ec2Cc2"]);
    // 5. Cc2 is the Ec2 pawn's straight double move through the Dc2 cell emptied at move 1.
    assert_eq!(g.moves()[8].special(), Special::Double);
    assert_eq!(differences(g.position(), GAMBIT_ACCEPTED_DIAGRAM), Vec::<String>::new());
}

#[test]
fn single_and_double_pawn_moves_to_the_same_cell_need_the_origin() {
    let p = Position::startpos(Variant::default());
    // From the start, Dc3 is reached by Dc2 (one step forward) and by Ec2 (L-shaped).
    assert!(matches!(parse_move(&p, "Dc3"), Err(MoveTextError::Ambiguous(ms)) if ms.len() == 2));
    assert_eq!(parse_move(&p, "PDc2-Dc3").unwrap().special(), Special::Normal);
    assert_eq!(parse_move(&p, "PEc2-Dc3").unwrap().special(), Special::Double);
    // Cc2 only by Dc2: the Ec2 pawn's straight double move is blocked by it.
    assert_eq!(parse_move(&p, "Cc2").unwrap().to_string(), "Dc2Cc2");
}
