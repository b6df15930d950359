use super::*;

#[test]
fn start_positions_are_valid_and_symmetric() {
    for rs in Ruleset::ALL {
        let p = Position::startpos(Variant::plain(rs));
        p.check_invariants();
        assert_eq!(p.color_bb(Color::White).count(), 20);
        assert_eq!(p.color_bb(Color::Black).count(), 20);
        assert!(!p.in_check());
    }
    // Black is white turned through the centre of the cube in the 2001 text and Raumschach
    // (docs/RULES.md §3-4). In the later Five Up text black's B5 row `u b q u b` keeps white's file
    // order, so there black is white turned and then mirrored a<->e (docs/RULES.md §2).
    for rs in Ruleset::ALL {
        let p = Position::startpos(Variant::plain(rs));
        for c in Cell::all() {
            let a = p.piece_at(c);
            let image = if rs == Ruleset::FiveUp { c.rotate().mirror_file() } else { c.rotate() };
            let b = p.piece_at(image);
            assert_eq!(a.map(|x| (x.kind, x.color)), b.map(|x| (x.kind, x.color.flip())), "{rs} {c}");
        }
    }
}

#[test]
fn setup_errors_are_named() {
    let v = Variant::plain(Ruleset::FiveUp);
    let mut s = Setup::start(v);
    s.board["Ec1".parse::<Cell>().unwrap().index()] = None;
    s.rights = s.rights.without("Ec1".parse().unwrap());
    assert_eq!(Position::from_setup(s).unwrap_err(), SetupError::KingCount("white", 0));
    let mut s = Setup::start(Variant::plain(Ruleset::Raumschach));
    s.reserve = [1, 0];
    assert!(matches!(Position::from_setup(s), Err(SetupError::ReserveNotAllowed(_))));
    let mut s = Setup::start(v);
    s.rights = s.rights.with("Cc3".parse().unwrap());
    assert!(matches!(Position::from_setup(s), Err(SetupError::RightWithoutPiece(_))));
    let mut s = Setup::start(Variant::plain(Ruleset::Raumschach));
    s.variant.castling = true;
    assert!(matches!(Position::from_setup(s), Err(SetupError::Variant(_))));
    // An unchecked setup (e.g. from a damaged record) with bits past cell 124: an error, not a
    // panic indexing the board.
    for bit in 125..128 {
        let mut s = Setup::start(v);
        s.rights = Bitboard(s.rights.0 | 1u128 << bit);
        assert!(matches!(Position::from_setup(s), Err(SetupError::OffBoard("the placement rights"))));
    }
    let mut s = Setup::start(v);
    s.ep.passed = 1u128 << 127;
    s.ep.pawn = 0;
    assert!(matches!(Position::from_setup(s), Err(SetupError::OffBoard("the en passant field"))));
    let mut s = Setup::start(Variant::plain(Ruleset::Raumschach));
    s.board[0] = Some(Piece::new(Color::White, Kind::Wizard));
    assert!(matches!(Position::from_setup(s), Err(SetupError::ForeignPiece { .. })));
}
