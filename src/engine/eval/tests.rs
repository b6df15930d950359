use super::*;
use crate::rules::{Position, Ruleset, Variant};

#[test]
fn start_positions_are_balanced_up_to_tempo() {
    for rs in Ruleset::ALL {
        let p = Position::startpos(Variant::plain(rs));
        let w = Weights::for_ruleset(rs);
        let e = evaluate(&p, &w);
        if rs == Ruleset::FiveUp2001 {
            // Black's B5 row differs from white's D1 row: only roughly balanced.
            assert!(e.abs() < 60, "{rs}: {e}");
        } else {
            assert_eq!(e, w.tempo, "{rs}: start position is symmetric");
        }
        assert_eq!(material_balance(&p, &w), 0);
    }
}

#[test]
fn decomposition_adds_up_and_is_independent_of_the_material_values() {
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let w = Weights::for_ruleset(rs);
        let start = decompose(&Position::startpos(Variant::plain(rs)), &w);
        assert_eq!(start.positional, 0, "{rs}: the start is symmetric");
        assert!(start.bonus.iter().all(|b| b[0] == b[1]), "{rs}: {:?}", start.bonus);
        assert!(start.bonus[Kind::Knight.index()][0] != 0, "{rs}: knights are mobile");
        let mut heavier = w.clone();
        heavier.set_value(Kind::Queen, w.value(Kind::Queen) + 300);
        heavier.set_value(Kind::Knight, w.value(Kind::Knight) - 50);
        for seed in 0..20 {
            let p = crate::rules::random::scrambled(Variant::plain(rs), 40, seed);
            let d = decompose(&p, &w);
            let mut white = evaluate(&p, &w) - w.tempo;
            if p.side() == crate::game::Color::Black {
                white = -white;
            }
            assert_eq!(d.positional + material_balance(&p, &w), white, "{rs} {seed}");
            if p.occupied().0.count_ones() as i32 > w.mopup_pieces {
                // Without mop-up (which scales with the material balance) only material moves.
                assert_eq!(decompose(&p, &heavier), d, "{rs} {seed}");
            }
        }
    }
}

#[test]
fn flat_attacks_match_the_rules_core() {
    for rs in Ruleset::ALL {
        for seed in 0..20 {
            let p = crate::rules::random::scrambled(Variant::plain(rs), 30, seed);
            let occ = p.occupied().0;
            for kind in Kind::ALL.into_iter().filter(|k| rs.has_kind(*k) && *k != Kind::Pawn) {
                for c in 0..125 {
                    let want = p.attacks_from(kind, c, occ);
                    assert_eq!(attacks_flat(p.geometry(), kind, c, occ, !rs.is_fiveup()), want, "{rs} {kind:?} {c}");
                }
            }
        }
    }
}

#[test]
fn slide_directions_describe_the_attack_sets() {
    use crate::rules::geometry::{Geometry, DIAG2, DIAG3, ORTH};
    let g = Geometry::get(false);
    for rs in Ruleset::ALL {
        let raum = !rs.is_fiveup();
        for kind in Kind::ALL.into_iter().filter(|k| rs.has_kind(*k) && is_piece(*k)) {
            let mask = slide_dirs(kind, raum);
            for c in 0..125 {
                // On an empty board a piece attacks its leaps plus the full rays of its slides;
                // with every other cell occupied, its leaps plus one cell per slide direction.
                let slides = |occ: u128| (0..26).filter(|d| mask >> d & 1 != 0).fold(0, |a, d| a | g.slide(d, c, occ));
                let leaps = attacks_flat(g, kind, c, crate::rules::bitboard::FULL, raum) & !slides(u128::MAX);
                for occ in [0, crate::rules::bitboard::FULL & !(1u128 << c)] {
                    assert_eq!(attacks_flat(g, kind, c, occ, raum), leaps | slides(occ), "{rs} {kind:?} {c}");
                }
                // The masks are the direction families.
                let fam = |r: std::ops::Range<usize>| r.fold(0u32, |m, d| m | 1 << d);
                assert_eq!(mask & !(fam(ORTH) | fam(DIAG2) | fam(DIAG3)), 0);
            }
        }
    }
}

#[test]
fn tables_have_expected_ranges() {
    assert_eq!(CENTRALITY[62], 6); // Cc3
    assert_eq!(CENTRALITY[0], 0);
    // White Five Up pawn on Ec2 (layer 4, rank 1) is 4 + 3 = 7 steps from A5.
    let ec2 = "Ec2".parse::<crate::rules::Cell>().unwrap().index();
    assert_eq!(PAWN_PROGRESS[0][ec2], 1);
    assert_eq!(PAWN_PROGRESS[1][ec2], 7); // black: layer distance 0, rank distance 1
                                          // White Raumschach pawn on Ab2 is 4 + 3 from E5.
    let ab2 = "Ab2".parse::<crate::rules::Cell>().unwrap().index();
    assert_eq!(PAWN_PROGRESS[2][ab2], 1);
}

/// The evaluation written plainly: every piece through the rules core's attack sets, every
/// pawn one by one.
fn reference_evaluate(pos: &Position, w: &Weights) -> i32 {
    let side = |us: Color| {
        let g = pos.geometry();
        let (occ, own) = (pos.occupied().0, pos.color_bb(us).0);
        let zone = g.all_step[pos.king(us.flip()).index()];
        let (mut s, mut zone_attacks) = (0, 0);
        for kind in Kind::ALL.into_iter().filter(|&k| k != Kind::Pawn && k != Kind::King) {
            for c in pos.pieces(us, kind) {
                let a = pos.attacks_from(kind, c.index(), occ);
                let k = kind.index();
                s += w.values[k] + w.mobility[k] * (a & !own).count_ones() as i32;
                s += w.center[k] * CENTRALITY[c.index()];
                zone_attacks += (a & zone).count_ones() as i32;
            }
        }
        for c in pos.pieces(us, Kind::Pawn) {
            let p = PAWN_PROGRESS[pawn_class(pos.ruleset(), us)][c.index()];
            s += w.values[Kind::Pawn.index()] + w.pawn_advance * p + w.pawn_advance_sq * p * p / 8;
        }
        if pos.can_place(us) {
            s += pos.reserve_kinds(us).map(|k| w.values[k.index()]).sum::<i32>() * w.reserve_pct / 100;
        }
        s += w.king_attack * zone_attacks;
        s + w.king_shelter * (g.all_step[pos.king(us).index()] & own).count_ones() as i32
    };
    let s = side(Color::White) - side(Color::Black) + reference_mop_up(pos, w);
    // Material that cannot force mate: the side ahead's advantage cut to a sixteenth.
    let no_mate = |us: Color| {
        let mut kinds: Vec<Kind> =
            pos.color_bb(us).map(|c| pos.piece_at(c).unwrap().kind).filter(|&k| k != Kind::King).collect();
        kinds.sort();
        let list = if pos.ruleset().is_fiveup() { drawn::FIVEUP_NO_MATE } else { drawn::RAUMSCHACH_NO_MATE };
        // Five Up bishops and unicorns keep their cell's colour: two of them on one colour.
        let bound: Vec<u8> = pos
            .color_bb(us)
            .filter(|&c| matches!(pos.piece_at(c).unwrap().kind, Kind::Bishop | Kind::Unicorn))
            .map(|c| c.parity())
            .collect();
        let one_colour = pos.ruleset().is_fiveup() && kinds.len() == 2 && bound.len() == 2 && bound[0] == bound[1];
        !kinds.contains(&Kind::Pawn)
            && !pos.can_place(us)
            && (one_colour
                || list.iter().any(|set| {
                    let mut set = set.to_vec();
                    set.sort();
                    set == kinds
                }))
    };
    let s = if (s > 0 && no_mate(Color::White)) || (s < 0 && no_mate(Color::Black)) { s / 16 } else { s };
    (if pos.side() == Color::White { s } else { -s }) + w.tempo
}

/// Mop-up written plainly: cell coordinates, a loop over the men.
fn reference_mop_up(pos: &Position, w: &Weights) -> i32 {
    let men = (0..125).filter(|&c| pos.piece_at(crate::rules::Cell::new(c as u8)).is_some()).count() as i32;
    let lead = material_balance(pos, w);
    if pos.geometry().cylinder || men > w.mopup_pieces || lead.abs() < w.mopup_margin.max(1) {
        return 0;
    }
    let strong = if lead > 0 { Color::White } else { Color::Black };
    let count = |color: Option<Color>, kind: Kind| {
        (0..125u8)
            .filter_map(|c| pos.piece_at(crate::rules::Cell::new(c)))
            .filter(|p| p.kind == kind && color.is_none_or(|c| p.color == c))
            .count() as i32
    };
    let xyz = |c: usize| [(c / 25) as i32, (c / 5 % 5) as i32, (c % 5) as i32];
    let (s, k) = (xyz(pos.king(strong).index()), xyz(pos.king(strong.flip()).index()));
    let centre_distance: i32 = k.iter().map(|v| (v - 2).abs()).sum();
    let distance: i32 = (0..3).map(|i| (s[i] - k[i]).abs()).sum();
    let chase = if count(Some(strong), Kind::Pawn) == 0 {
        w.mopup_edge * centre_distance + w.mopup_king * (12 - distance)
    } else {
        0
    };
    let pieces = men - 2 - count(None, Kind::Pawn);
    let trade = lead.abs() * w.mopup_trade / 100 * (w.mopup_pieces - 2 - pieces).max(0) / (w.mopup_pieces - 2).max(1);
    let bonus = chase + trade;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

#[test]
fn evaluation_matches_the_plain_reference() {
    let variants = Ruleset::ALL.into_iter().flat_map(|rs| [false, true].map(|cyl| Variant::new(rs, false, cyl)));
    for v in variants.filter_map(Result::ok) {
        let w = Weights::for_ruleset(v.ruleset);
        for seed in 0..40 {
            let p = crate::rules::random::scrambled(v, (seed as usize % 4) * 12 + 4, seed);
            assert_eq!(evaluate(&p, &w), reference_evaluate(&p, &w), "{v:?} seed {seed}");
        }
    }
}

/// Endgames of a few men in every variant, where mop-up applies.
fn endgames() -> Vec<Position> {
    use Kind::*;
    let mut out = Vec::new();
    for v in Ruleset::ALL.into_iter().flat_map(|rs| [false, true].map(|cyl| Variant::new(rs, false, cyl))) {
        let v = v.unwrap();
        let minor = if v.ruleset.is_fiveup() { Unicorn } else { RUnicorn };
        for seed in 0..12 {
            let (white, black): (&[Kind], &[Kind]) = match seed % 4 {
                0 => (&[Queen], &[]),
                1 => (&[Rook, minor, Pawn, Pawn], &[Knight]),
                2 => (&[], &[Rook, Bishop]),
                _ => (&[Knight, Pawn], &[Bishop]),
            };
            out.push(crate::engine::random_endgame(v, white, black, seed).expect("a legal endgame"));
        }
    }
    out
}

#[test]
fn mop_up_matches_the_plain_reference_in_endgames() {
    let mut nonzero = 0;
    for p in endgames() {
        let w = Weights::for_ruleset(p.ruleset());
        assert_eq!(mop_up(&p, &w, 0), reference_mop_up(&p, &w), "{p}");
        assert_eq!(evaluate(&p, &w), reference_evaluate(&p, &w), "{p}");
        nonzero += (mop_up(&p, &w, 0) != 0) as usize;
    }
    assert!(nonzero >= 20, "mop-up applied in only {nonzero} endgames");
}

#[test]
fn mop_up_rewards_the_side_ahead_for_cornering_the_king() {
    // Five Up, white K+Q against a lone king: the black king in a corner scores more for white
    // than the same king in the centre, kings closer scores more than kings apart.
    let v = Variant::plain(Ruleset::FiveUp);
    let w = Weights::for_ruleset(Ruleset::FiveUp);
    let at = |wk: &str, q: &str, bk: &str| {
        let mut s = crate::rules::Setup::empty(v);
        for (cell, color, kind) in
            [(wk, Color::White, Kind::King), (q, Color::White, Kind::Queen), (bk, Color::Black, Kind::King)]
        {
            s.board[cell.parse::<crate::rules::Cell>().unwrap().index()] = Some(crate::rules::Piece::new(color, kind));
        }
        Position::from_setup(s).unwrap()
    };
    let corner = mop_up(&at("Cc1", "Ee5", "Aa1"), &w, 0);
    let centre = mop_up(&at("Ca1", "Ee5", "Cc3"), &w, 0);
    assert!(corner > centre && centre > 0, "corner {corner}, centre {centre}");
    let near = mop_up(&at("Ab3", "Ee5", "Aa1"), &w, 0);
    let far = mop_up(&at("Ee4", "Ec5", "Aa1"), &w, 0);
    assert!(near > far, "near {near}, far {far}");
    // Black ahead: the sign flips; no lead, no mop-up; off when mopup_pieces = 0.
    let mut black_ahead = at("Aa1", "Ee5", "Cc1").to_setup();
    let q = "Ee5".parse::<crate::rules::Cell>().unwrap().index();
    black_ahead.board[q] = Some(crate::rules::Piece::new(Color::Black, Kind::Queen));
    assert!(mop_up(&Position::from_setup(black_ahead).unwrap(), &w, 0) < 0);
    let mut even = at("Aa1", "Ee5", "Cc1").to_setup();
    even.board[q] = None;
    assert_eq!(mop_up(&Position::from_setup(even).unwrap(), &w, 0), 0);
    let off = Weights { mopup_pieces: 0, ..w.clone() };
    assert_eq!(mop_up(&at("Cc1", "Ee5", "Aa1"), &off, 0), 0);
}

#[test]
fn progress_cells_invert_the_progress_table() {
    for class in 0..4 {
        let sets = &PROGRESS_CELLS[class];
        let all = sets.iter().fold(0u128, |acc, s| {
            assert_eq!(acc & s, 0, "class {class}: a cell in two progress sets");
            acc | s
        });
        assert_eq!(all, (1u128 << 125) - 1, "class {class}: every cell has a progress");
        for c in 0..125 {
            assert_ne!(sets[PAWN_PROGRESS[class][c] as usize] >> c & 1, 0);
        }
    }
}

/// The taper written plainly: every piece and reserve piece, the start material counted on
/// the start position itself.
fn reference_taper(pos: &Position, w: &Weights) -> i32 {
    let material = |p: &Position| {
        let (mut left, mut diff) = (0, 0);
        for (us, sign) in [(Color::White, 1), (Color::Black, -1)] {
            for c in 0..125u8 {
                if let Some(piece) = p.piece_at(crate::rules::Cell::new(c)).filter(|q| q.color == us) {
                    let i = piece.kind.index();
                    if piece.kind != Kind::King {
                        left += if piece.kind == Kind::Pawn { 0 } else { w.values[i] };
                        diff += sign * (w.values_end[i] - w.values[i]);
                    }
                }
            }
            if p.can_place(us) {
                for k in p.reserve_kinds(us) {
                    left += w.values[k.index()] * w.reserve_pct / 100;
                    diff += sign * (w.values_end[k.index()] - w.values[k.index()]) * w.reserve_pct / 100;
                }
            }
        }
        (left, diff)
    };
    let (start, _) = material(&Position::startpos(Variant::plain(pos.ruleset())));
    let (left, diff) = material(pos);
    diff * (256 - (left * 256 / start.max(1)).clamp(0, 256)) / 256
}

#[test]
fn the_taper_tables_compute_the_plain_taper() {
    let variants = Ruleset::ALL.into_iter().flat_map(|rs| [false, true].map(|cyl| Variant::new(rs, false, cyl)));
    for v in variants.filter_map(Result::ok) {
        let mut w = Weights::for_ruleset(v.ruleset);
        assert_eq!(Taper::new(v.ruleset, &w).value(&Position::startpos(v)), 0);
        for (i, k) in Kind::ALL.into_iter().enumerate() {
            w.values_end[k.index()] = w.values[k.index()] + 37 * i as i32 - 150;
        }
        let taper = Taper::new(v.ruleset, &w);
        let mut seen = 0;
        for seed in 0..60 {
            let p = crate::rules::random::scrambled(v, (seed as usize % 6) * 15 + 4, seed);
            let t = taper.value(&p);
            assert_eq!(t, reference_taper(&p, &w), "{v:?} seed {seed}");
            seen += (t != 0) as usize;
        }
        assert!(seen > 30, "{v:?}: only {seen} positions with a taper");
    }
}

#[test]
fn tapered_material_slides_from_the_values_to_the_end_values() {
    let v = Variant::plain(Ruleset::FiveUp);
    let start = Position::startpos(v);
    let plain = Weights::for_ruleset(Ruleset::FiveUp);
    let mut w = plain.clone();
    w.values_end[Kind::Queen.index()] = 1500;
    w.values_end[Kind::Pawn.index()] = 130;
    assert!(w.tapered() && !plain.tapered());
    // The full board is phase 1: the taper adds nothing, the evaluation is the untapered one.
    assert_eq!(taper(&start, &w), 0);
    assert_eq!(evaluate(&start, &w), evaluate(&start, &plain));
    // Kings, pawns and one black queen, reserves gone: the phase is nearly 0, so the queen and
    // the pawns count almost their end values.
    let mut s = crate::rules::Setup::start(v);
    let queen = "Bc5".parse::<crate::rules::Cell>().unwrap();
    for (i, cell) in s.board.iter_mut().enumerate() {
        let keep = |p: crate::rules::Piece| matches!(p.kind, Kind::King | Kind::Pawn) || i == queen.index();
        if cell.is_some_and(|p| !keep(p)) {
            *cell = None;
        }
    }
    s.reserve = [0, 0];
    s.rights = crate::rules::bitboard::Bitboard(0);
    // One black pawn fewer, so the pawns' taper shows too.
    let black_pawn = s.board.iter().position(|p| p.is_some_and(|p| p.kind == Kind::Pawn && p.color == Color::Black));
    s.board[black_pawn.unwrap()] = None;
    let p = Position::from_setup(s).unwrap();
    let t = taper(&p, &w);
    // Phase = 970 / (2 × 4,630 at the start) = 26/256: the taper is (−530 + 30) × 230/256.
    assert_eq!(t, -500 * 230 / 256);
    assert_eq!(material_balance(&p, &w) - material_balance(&p, &plain), t);
    let white = if p.side() == Color::White { 1 } else { -1 };
    assert_eq!(white * (evaluate(&p, &w) - evaluate(&p, &plain)), t);
}

#[test]
fn extra_material_is_seen_from_the_side_to_move() {
    let v = Variant::plain(Ruleset::FiveUp);
    let mut s = crate::rules::Setup::start(v);
    // Remove black's queen on Bc5.
    let bc5 = "Bc5".parse::<crate::rules::Cell>().unwrap();
    s.board[bc5.index()] = None;
    s.rights = s.rights.without(bc5);
    let p = Position::from_setup(s.clone()).unwrap();
    let w = Weights::for_ruleset(Ruleset::FiveUp);
    assert!(evaluate(&p, &w) > 700);
    s.side = Color::Black;
    let p = Position::from_setup(s).unwrap();
    assert!(evaluate(&p, &w) < -700);
}
