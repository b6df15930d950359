use super::*;
use proptest::prelude::*;

const FIVEUP_START: &str =
    "rnknr/ppppp/5/5/5|ubqub/ppppp/5/5/5|5/5/5/5/5|5/5/5/PPPPP/UBQUB|5/5/5/PPPPP/RNKNR w WGSwgs E1D1A5B5 - 0 1";
const RAUMSCHACH_START: &str =
    "5/5/5/PPPPP/RNKNR|5/5/5/PPPPP/BUQBU|5/5/5/5/5|ubqub/ppppp/5/5/5|rnknr/ppppp/5/5/5 w - - - 0 1";

fn fiveup() -> Variant {
    Variant::plain(Ruleset::FiveUp)
}

/// Positions along seeded random games of every variant (start included), `games` games of
/// `plies` moves spread over the variants.
fn random_positions(games: usize, plies: usize) -> Vec<Position> {
    let variants = [
        fiveup(),
        Variant::plain(Ruleset::FiveUp2001),
        Variant::plain(Ruleset::Raumschach),
        Variant::new(Ruleset::FiveUp, true, false).unwrap(),
        Variant::new(Ruleset::FiveUp, false, true).unwrap(),
        Variant::new(Ruleset::Raumschach, false, true).unwrap(),
    ];
    let per_variant = games.div_ceil(variants.len());
    variants
        .iter()
        .enumerate()
        .flat_map(|(i, &v)| crate::rules::random::random_positions(v, 7 + i as u64, per_variant, plies + 1))
        .collect()
}

#[test]
fn start_texts_match_rules_md() {
    assert_eq!(Position::startpos(fiveup()).to_text(), FIVEUP_START);
    assert_eq!(Position::startpos(Variant::plain(Ruleset::Raumschach)).to_text(), RAUMSCHACH_START);
    for rs in Ruleset::ALL {
        let v = Variant::plain(rs);
        let p = Position::startpos(v);
        let q = Position::from_text(&p.to_text(), v).unwrap();
        assert_eq!(q.to_setup(), p.to_setup(), "{rs}");
        assert_eq!(q.hash(), p.hash());
    }
    // The 2001 text differs only in black's B5 row.
    let t = Position::startpos(Variant::plain(Ruleset::FiveUp2001)).to_text();
    assert!(t.starts_with("rnknr/ppppp/5/5/5|buqbu/ppppp/5/5/5|"), "{t}");
}

#[test]
fn position_text_round_trips_along_random_games() {
    let mut with_ep = 0;
    let mut partial_rights = 0;
    for p in random_positions(24, 60) {
        let t = p.to_text();
        let q = Position::from_text(&t, p.variant()).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(q.to_setup(), p.to_setup(), "{t}");
        assert_eq!(q.hash(), p.hash(), "{t}");
        assert_eq!(q.to_text(), t);
        with_ep += usize::from(p.ep().is_some());
        partial_rights += usize::from(p.rights().nonempty() && p.rights().count() % 5 != 0);
    }
    assert!(with_ep > 5, "random games should produce en passant rights ({with_ep})");
    assert!(partial_rights > 20, "random games should produce partial rights ({partial_rights})");
}

#[test]
fn en_passant_field_lists_forward_cell_first() {
    let start = Position::startpos(fiveup());
    // With Dc2 still there only Ec3 is passed; after Dc2-Cc2 both cells are.
    let q = start.after(parse_move(&start, "Ec2Dc3").unwrap());
    assert!(q.to_text().contains(" Ec3@Dc3 "), "{}", q.to_text());
    let mut p = start.after(parse_move(&start, "Dc2Cc2").unwrap());
    p.make(parse_move(&p, "Bc4Cc4").unwrap());
    let m = parse_move(&p, "Ec2Dc3").unwrap();
    assert_eq!(m.special(), Special::Double);
    let q = p.after(m);
    let t = q.to_text();
    assert!(t.contains(" Ec3Dc2@Dc3 "), "{t}");
    // Any order is accepted on input and printed canonically.
    let swapped = t.replace("Ec3Dc2@Dc3", "Dc2Ec3@Dc3");
    assert_eq!(Position::from_text(&swapped, fiveup()).unwrap().to_text(), t);
    // Straight double move: one passed cell.
    let q = p.after(parse_move(&p, "Ec2Ec4").unwrap());
    assert!(q.to_text().contains(" Ec3@Ec4 "));
    // A wrong passed cell is rejected.
    let wrong = t.replace("Ec3Dc2@Dc3", "Ec3@Dc3");
    assert!(matches!(Position::from_text(&wrong, fiveup()), Err(PositionTextError::Setup(_))));
}

#[test]
fn rights_compression_and_any_order_input() {
    let v = fiveup();
    let start = Position::startpos(v);
    let listed = FIVEUP_START.replace("E1D1A5B5", "Be5Bd5Bc5Bb5Ba5A5Ea1Eb1Ec1Ed1Ee1Da1Db1Dc1Dd1De1");
    assert_eq!(Position::from_text(&listed, v).unwrap().to_text(), FIVEUP_START);
    // A row with one right missing is written cell by cell.
    let p = start.after(parse_move(&start, "N-Db3").unwrap());
    let t = p.to_text();
    assert!(t.contains(" Ea1Ec1Ed1Ee1D1A5B5 - 1 1"), "{t}");
    // Rights with no reserve left: still printed (they are void only for repetition).
    let no_reserve = FIVEUP_START.replace("WGSwgs", "-");
    assert_eq!(Position::from_text(&no_reserve, v).unwrap().to_text(), no_reserve);
    let black_only = FIVEUP_START.replace("WGSwgs", "wg");
    assert_eq!(Position::from_text(&black_only, v).unwrap().to_text(), black_only);
    let shuffled = FIVEUP_START.replace("WGSwgs", "gSwGsW");
    assert_eq!(Position::from_text(&shuffled, v).unwrap().to_text(), FIVEUP_START);
}

#[test]
fn position_text_errors_name_the_field() {
    let v = fiveup();
    let err = |t: &str| Position::from_text(t, v).unwrap_err().to_string();
    assert!(err("").contains("0 fields"));
    assert!(err(&FIVEUP_START.replace(" w ", " x ")).starts_with("side-to-move field 'x'"));
    assert!(err(&FIVEUP_START.replace("rnknr/", "rnkxr/")).contains("layer A rank 5: 'x'"));
    assert!(err(&FIVEUP_START.replace("rnknr/", "rnknrr/")).contains("longer than 5"));
    assert!(err(&FIVEUP_START.replace("rnknr/", "rnkn/")).contains("covers 4 cells"));
    assert!(err(&FIVEUP_START.replace("|5/5/5/5/5|", "|5/5/5/5/5|5/5/5/5/5|")).contains("6 layers"));
    assert!(err(&FIVEUP_START.replace("WGSwgs", "WGSwgx")).starts_with("reserve field"));
    assert!(err(&FIVEUP_START.replace("WGSwgs", "WW")).contains("twice"));
    assert!(err(&FIVEUP_START.replace("E1D1", "E6D1")).starts_with("placement-rights field"));
    assert!(err(&FIVEUP_START.replace("E1D1", "Cc3")).contains("Cc3, which holds no non-pawn piece"));
    assert!(err(&FIVEUP_START.replace(" - 0 1", " Ec3 0 1")).starts_with("en passant field"));
    assert!(err(&FIVEUP_START.replace(" - 0 1", " - x 1")).starts_with("halfmove clock"));
    assert!(err(&FIVEUP_START.replace(" - 0 1", " - 0 0")).starts_with("move number"));
    assert!(err("rnknr/ppppp/5/5/5|ubqub/ppppp/5/5/5|5/5/5/5/5|5/5/5/PPPPP/UBQUB|5/5/5/PPPPP/RNRNR w - - - 0 1")
        .contains("white has 0 kings"));
    // Rulesets without reserve / rights / en passant.
    let r = Variant::plain(Ruleset::Raumschach);
    assert!(Position::from_text(FIVEUP_START, r).unwrap_err().to_string().contains("raumschach"));
    let with_reserve = RAUMSCHACH_START.replace(" - - - ", " W - - ");
    assert!(Position::from_text(&with_reserve, r).unwrap_err().to_string().contains("no reserve"));
    // Non-ASCII never panics.
    assert!(err("é").contains("non-ASCII"));
}

#[test]
fn every_legal_move_round_trips_in_both_forms() {
    let mut n = 0;
    for p in random_positions(12, 40) {
        for m in p.legal_moves() {
            let c = coordinate(m);
            assert_eq!(parse_move(&p, &c), Ok(m), "{c} in {}", p.to_text());
            let f = figurine(&p, m);
            assert_eq!(parse_move(&p, &f), Ok(m), "{f} ({c}) in {}", p.to_text());
            n += 1;
        }
    }
    assert!(n > 10_000, "{n}");
}

#[test]
fn move_forms_from_the_start() {
    let p = Position::startpos(fiveup());
    let mv = |t: &str| parse_move(&p, t).map(|m| m.to_string());
    assert_eq!(mv("Dc2Cc2").unwrap(), "Dc2Cc2");
    assert_eq!(mv("Dc2-Cc2").unwrap(), "Dc2Cc2");
    assert_eq!(mv("P-Cc2").unwrap(), "Dc2Cc2");
    assert_eq!(mv("Cc2").unwrap(), "Dc2Cc2");
    assert_eq!(mv("Cc2!?").unwrap(), "Dc2Cc2");
    assert_eq!(mv("Eb1Db3/S").unwrap(), "Eb1Db3/S");
    assert_eq!(mv("N-Db3/S").unwrap(), "Eb1Db3/S");
    assert_eq!(mv("NxDb3/S").unwrap(), "Eb1Db3/S");
    assert_eq!(mv("NEb1-Db3").unwrap(), "Eb1Db3");
    assert_eq!(mv("NEb1Db3/W").unwrap(), "Eb1Db3/W");
    assert_eq!(mv("B-Ca1/G").unwrap(), "Db1Ca1/G");
    assert_eq!(mv("Ec2Dc3").unwrap(), "Ec2Dc3");
    // Dc3 is reached by Ec2 (L-shaped double move) and by Dc2 (one step forward).
    assert_eq!(
        mv("Dc3"),
        Err(MoveTextError::Ambiguous(vec![parse_move(&p, "Dc2Dc3").unwrap(), parse_move(&p, "Ec2Dc3").unwrap()]))
    );
    assert_eq!(mv("Dc3").unwrap_err().to_string(), "ambiguous: Dc2Dc3, Ec2Dc3");
    assert_eq!(mv("PEc2-Dc3").unwrap(), "Ec2Dc3");
    let f = figurine(&p, parse_move(&p, "Ec2Dc3").unwrap());
    assert_eq!(f, "PEc2-Dc3");
    assert_eq!(figurine(&p, parse_move(&p, "Dc2Cc2").unwrap()), "Cc2");
    assert_eq!(figurine(&p, parse_move(&p, "Eb1Db3/S").unwrap()), "N-Db3/S");
    // Errors.
    assert!(matches!(mv("Cc4"), Err(MoveTextError::Illegal(_))));
    assert!(matches!(mv("N-Cc3"), Err(MoveTextError::Illegal(_))));
    assert_eq!(mv("Cc3Cc4").unwrap_err().to_string(), "illegal: no piece on Cc3");
    assert_eq!(mv("Aa4Aa3").unwrap_err().to_string(), "illegal: the piece on Aa4 is not white's");
    assert!(matches!(mv("X-Cc3"), Err(MoveTextError::UnknownPiece { letter: 'X', .. })));
    assert!(matches!(mv("Dc2Cc2/Q"), Err(MoveTextError::Malformed { .. })));
    assert!(matches!(mv("Dc2Cc2=K"), Err(MoveTextError::Malformed { .. })));
    assert!(matches!(mv("Dc2Cc"), Err(MoveTextError::Malformed { .. })));
    assert!(matches!(mv("++"), Err(MoveTextError::Empty)));
    assert!(matches!(mv(""), Err(MoveTextError::Empty)));
}

#[test]
fn promotion_needs_its_piece_and_castling_is_king_to_rook() {
    // White pawn on Aa4 about to promote on Aa5; kings apart.
    let t = "4k/P4/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/R1K2 w - - - 0 1";
    let v = Variant::new(Ruleset::FiveUp, true, false).unwrap();
    let p = Position::from_text(t, v).unwrap();
    assert_eq!(parse_move(&p, "Aa4Aa5"), Err(MoveTextError::MissingPromotion));
    let m = parse_move(&p, "Aa4Aa5=Q").unwrap();
    assert_eq!(m.promotion(), Some(Kind::Queen));
    assert_eq!(parse_move(&p, "Aa5=Q"), Ok(m));
    assert_eq!(parse_move(&p, "P-Aa5=Q+"), Ok(m));
    let castle = parse_move(&p, "Ec1Ea1").unwrap();
    assert_eq!(castle.special(), Special::Castle);
    assert_eq!(figurine(&p, castle), "K-Ea1");
    assert_eq!(parse_move(&p, "K-Ea1"), Ok(castle));
}

#[test]
fn figurine_marks_check_and_mate() {
    let mut checks = 0;
    for p in random_positions(6, 60) {
        for m in p.legal_moves() {
            let f = figurine(&p, m);
            let q = p.after(m);
            assert_eq!(f.ends_with('+'), q.in_check(), "{f}");
            assert_eq!(f.ends_with("++"), q.in_check() && !q.has_legal_move(), "{f}");
            checks += usize::from(q.in_check());
        }
    }
    assert!(checks > 0);
}

#[test]
fn move_list_tokens() {
    use crate::game::line::{tokenize_moves, ListToken};
    use ListToken::{Move as M, Number};
    let toks = tokenize_moves("1. P-Cc2 P-Cc4 2. B-Ca1/G (guarding) 2... Cd4 3. ... N-Aa3 4.Cc3 1-0");
    assert_eq!(
        toks,
        vec![
            Number { number: 1, black: false },
            M("P-Cc2".into()),
            M("P-Cc4".into()),
            Number { number: 2, black: false },
            M("B-Ca1/G".into()),
            Number { number: 2, black: true },
            M("Cd4".into()),
            Number { number: 3, black: true },
            M("N-Aa3".into()),
            Number { number: 4, black: false },
            M("Cc3".into()),
        ]
    );
}

#[test]
fn line_and_diagram() {
    let p = Position::startpos(fiveup());
    let ms: Vec<Move> = ["Dc2Cc2", "Bc4Cc4", "Db1De4/G"]
        .iter()
        .scan(p.clone(), |pos, t| {
            let m = parse_move(pos, t).unwrap();
            pos.make(m);
            Some(m)
        })
        .collect();
    assert_eq!(format_line(&p, &ms), "1. Cc2 Cc4 2. B-De4/G");
    assert_eq!(format_line(&p.after(ms[0]), &ms[1..]), "1... Cc4 2. B-De4/G");
    let d = diagram(&p);
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 7);
    assert_eq!(lines[0], "5 |r|n|k|n|r| 5 |u|b|q|u|b| 5 |_|_|_|_|_| 5 |_|_|_|_|_| 5 |_|_|_|_|_|");
    assert_eq!(lines[4], "1 |_|_|_|_|_| 1 |_|_|_|_|_| 1 |_|_|_|_|_| 1 |U|B|Q|U|B| 1 |R|N|K|N|R|");
    assert_eq!(lines[5], "A  a b c d e  B  a b c d e  C  a b c d e  D  a b c d e  E  a b c d e");
    assert_eq!(lines[6], "white to move; reserve white WGS, black wgs; move 1, halfmove clock 0");
}

proptest! {
    #[test]
    fn position_parser_never_panics(s in "\\PC{0,120}") {
        let _ = Position::from_text(&s, fiveup());
        let _ = Position::from_text(&s, Variant::plain(Ruleset::Raumschach));
    }

    #[test]
    fn mutated_start_texts_never_panic(i in 0usize..100, j in 0usize..100, a in any::<char>(), b in "[ -~]") {
        let mut t: Vec<char> = FIVEUP_START.chars().collect();
        let n = t.len();
        t[i % n] = a;
        t[j % n] = b.chars().next().unwrap_or(' ');
        let t: String = t.into_iter().collect();
        if let Ok(p) = Position::from_text(&t, fiveup()) {
            prop_assert_eq!(Position::from_text(&p.to_text(), fiveup()).unwrap().to_setup(), p.to_setup());
        }
    }

    #[test]
    fn move_parser_never_panics(s in "\\PC{0,24}", t in "[A-Ea-e1-5PNBRQKUSWGx=/+#!? -]{0,12}") {
        let p = Position::startpos(fiveup());
        let _ = parse_move(&p, &s);
        let _ = parse_move(&p, &t);
        let r = Position::startpos(Variant::plain(Ruleset::Raumschach));
        let _ = parse_move(&r, &t);
        let _ = crate::game::line::tokenize_moves(&s);
    }
}
