//! Differential tests: the core against the naive reference over seeded random games in every
//! ruleset and flag combination, with counts of the rule features the games reached.

use super::reference::{coords, RKind, RMove, RefPos};
use super::{assert_same_moves, same_state, text, Rng, VARIANTS};
use fiveup::rules::{Kind, Move, Position, Special};
use std::collections::{BTreeMap, BTreeSet};

/// How often each rule feature was seen.
#[derive(Default)]
pub struct Features(pub BTreeMap<&'static str, u64>);

impl Features {
    fn add(&mut self, name: &'static str, yes: bool) {
        *self.0.entry(name).or_default() += yes as u64;
    }

    /// The count of a feature.
    pub fn get(&self, name: &str) -> u64 {
        self.0.get(name).copied().unwrap_or(0)
    }
}

/// A weight for a random move: biased toward pawn play, special moves, placements and captures,
/// so that games reach promotions, en passant and placements.
fn weight(pos: &Position, m: Move) -> u64 {
    let kind = pos.piece_at(m.from()).map(|p| p.kind);
    match m.special() {
        Special::EnPassant => 60,
        Special::Castle => 20,
        Special::Double => 10,
        _ if m.promotion().is_some() => 20,
        _ if kind == Some(Kind::Pawn) => 5,
        _ if m.placement().is_some() => 3,
        _ if pos.piece_at(m.to()).is_some() => 3,
        _ => 1,
    }
}

/// Picks a move: uniformly when `uniform`, else by [`weight`].
pub fn pick(pos: &Position, moves: &[Move], rng: &mut Rng, uniform: bool) -> Move {
    if uniform {
        return moves[rng.below(moves.len())];
    }
    let total: u64 = moves.iter().map(|&m| weight(pos, m)).sum();
    let mut x = rng.next_u64() % total;
    for &m in moves {
        let w = weight(pos, m);
        if x < w {
            return m;
        }
        x -= w;
    }
    unreachable!()
}

/// Records the features of one position, given the reference's view of it.
fn observe(f: &mut Features, pos: &Position, r: &RefPos, legal: &[RMove], full: bool) {
    let texts: BTreeSet<String> = legal.iter().map(|m| m.text()).collect();
    let pseudo = r.pseudo_moves();
    let illegal: Vec<&RMove> = pseudo.iter().filter(|m| !texts.contains(&m.text())).collect();
    let check = r.in_check();
    let has = |p: &dyn Fn(&RMove) -> bool| legal.iter().any(p);
    f.add("positions", true);
    f.add("in check", check);
    f.add("double check", pos.checkers().count() >= 2);
    f.add("checkmate", check && legal.is_empty());
    f.add("stalemate", !check && legal.is_empty());
    f.add("en passant rights", !r.ep_passed.is_empty());
    f.add("en passant rights, two cells", r.ep_passed.len() == 2);
    f.add("en passant capture legal", has(&|m| m.kind == RKind::EnPassant));
    f.add("en passant capture illegal (pin/check)", illegal.iter().any(|m| m.kind == RKind::EnPassant));
    f.add("double move legal", has(&|m| m.kind == RKind::Double));
    f.add(
        "L-shaped double move legal",
        has(&|m| m.kind == RKind::Double && coords(m.from).0 != coords(m.to).0 && coords(m.from).1 != coords(m.to).1),
    );
    f.add("promotion legal", has(&|m| m.promo.is_some()));
    f.add("placement legal", has(&|m| m.place.is_some()));
    f.add("king move with placement legal", has(&|m| m.place.is_some() && r.board[m.from].unwrap().kind == Kind::King));
    f.add(
        "promoted piece may place",
        has(&|m| {
            let (l, rank, _) = coords(m.from);
            let home_of_enemy = match r.side {
                fiveup::game::Color::White => l == 0 && rank == 4,
                fiveup::game::Color::Black => l == 4 && rank == 0,
            };
            m.place.is_some() && home_of_enemy
        }),
    );
    f.add(
        "placed piece may place",
        has(&|m| {
            m.place.is_some() && matches!(r.board[m.from].unwrap().kind, Kind::Wizard | Kind::Guard | Kind::Silver)
        }),
    );
    f.add(
        "placement rescues an illegal move",
        legal.iter().any(|m| m.place.is_some() && !texts.contains(&RMove { place: None, ..*m }.text())),
    );
    f.add(
        "pinned piece (pseudo-legal move refused, not in check)",
        !check && illegal.iter().any(|m| r.board[m.from].unwrap().kind != Kind::King),
    );
    f.add("castling legal", has(&|m| m.kind == RKind::Castle));
    if r.variant.hypercylinder && full {
        let mut flat = r.clone();
        flat.variant.hypercylinder = false;
        let flat_moves = flat.legal_texts();
        f.add("wrapping move legal (hypercylinder)", legal.iter().any(|m| !flat_moves.contains(&m.text())));
    }
}

/// Hand-made Five Up starts that random games rarely reach from the opening: pawns ready for en
/// passant both ways, a pinned knight and a checked king whose placements rescue their moves, and
/// pawns about to promote (with captures).
pub const TRICKY_FIVEUP: [&str; 3] = [
    "rnk2/pp1pp/5/5/5|5/5/1P1P1/5/5|5/5/5/5/5|5/5/1p1p1/5/5|5/5/5/PPPPP/RNK2 w WGSwgs Ea1Eb1Ec1Aa5Ab5Ac5 - 0 1",
    "4k/1p1p1/5/5/2r2|5/5/5/5/5|5/5/5/5/5|5/5/5/5/rNK2|5/5/5/P3P/5 w WGSwgs Db1Dc1Ae5 - 0 1",
    "r1n2/1P3/5/5/5|3P1/2P2/5/5/5|2k2/5/5/5/5|5/5/5/5/2p2|5/5/5/3p1/K4 w WGSwgs Ea1Cc5 - 0 1",
];

/// Plays `games` seeded random games of `variant` (at most `max_plies` each) from the start
/// position, or from `start` (position text), comparing the core with the reference at every
/// position and after every move.
pub fn run(variant: &str, start: Option<&str>, games: u64, max_plies: usize, seed: u64, f: &mut Features) {
    let v = text::variant(variant);
    for g in 0..games {
        let mut rng = Rng::new(seed ^ g.wrapping_mul(0x1234_5678_9ABC_DEF1));
        let uniform = g % 4 == 3;
        let mut pos = match start {
            None => Position::startpos(v),
            Some(t) => Position::from_setup(text::parse(v, t)).expect("valid start"),
        };
        for ply in 0..max_plies {
            let (r, legal) = assert_same_moves(&pos);
            observe(f, &pos, &r, &legal, ply % 8 == 0);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = pick(&pos, &moves, &mut rng, uniform);
            let rm = legal.into_iter().find(|x| x.text() == m.to_string()).expect("same move");
            let before = pos.to_setup();
            let h = pos.hash();
            let u = pos.make(m);
            let want = r.play(&rm).to_setup();
            assert!(
                same_state(&pos.to_setup(), &want),
                "after {m} from {}:\n core {}\n  ref {}",
                text::write(&before),
                text::write(&pos.to_setup()),
                text::write(&want)
            );
            assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash after {m}");
            // Clocks: a pawn move or a capture resets the fifty-move count (a placement does not);
            // the move number grows after black moves.
            let resets = rm.kind == RKind::EnPassant
                || (rm.kind != RKind::Castle
                    && (before.board[rm.to].is_some() || r.board[rm.from].unwrap().kind == Kind::Pawn));
            assert_eq!(pos.halfmove(), if resets { 0 } else { before.halfmove + 1 }, "halfmove after {m}");
            assert_eq!(pos.fullmove(), before.fullmove + (before.side == fiveup::game::Color::Black) as u32);
            pos.unmake(m, u);
            assert_eq!(pos.to_setup(), before, "unmake {m}");
            assert_eq!(pos.hash(), h);
            pos.make(m);
            f.add("moves: en passant played", m.special() == Special::EnPassant);
            f.add("moves: promotion played", m.promotion().is_some());
            f.add("moves: castling played", m.special() == Special::Castle);
            f.add("moves: placement played", m.placement().is_some());
        }
    }
}

fn run_and_report(variants: &[&str], games: u64, plies: usize) -> Features {
    let mut f = Features::default();
    for (i, v) in variants.iter().enumerate() {
        let mut fv = Features::default();
        run(v, None, games, plies, 0xF17E_0000 + i as u64, &mut fv);
        if v.starts_with("fiveup") {
            for (j, t) in TRICKY_FIVEUP.iter().enumerate() {
                run(v, Some(t), games / 2 + 1, plies / 2, 0x7E1C_0000 + (i * 8 + j) as u64, &mut fv);
            }
        }
        println!("{v}: {:?}", fv.0);
        for (k, n) in fv.0 {
            *f.0.entry(k).or_default() += n;
        }
    }
    f
}

/// Five Up with and without castling and the hypercylinder: every feature must be reached.
#[test]
fn fiveup_random_games_match_reference() {
    let f = run_and_report(&VARIANTS[0..3], 4, 200);
    for feature in [
        "in check",
        "checkmate",
        "en passant capture legal",
        "en passant rights, two cells",
        "moves: en passant played",
        "L-shaped double move legal",
        "moves: promotion played",
        "placement legal",
        "king move with placement legal",
        "placed piece may place",
        "placement rescues an illegal move",
        "pinned piece (pseudo-legal move refused, not in check)",
        "castling legal",
        "moves: castling played",
        "wrapping move legal (hypercylinder)",
    ] {
        assert!(f.get(feature) > 0, "feature never reached: {feature}");
    }
}

/// Five Up 2001 (flat, castling, hypercylinder): no double moves or en passant ever.
#[test]
fn fiveup_2001_random_games_match_reference() {
    let f = run_and_report(&VARIANTS[3..6], 3, 240);
    assert_eq!(f.get("en passant rights"), 0);
    assert_eq!(f.get("double move legal"), 0);
    for feature in [
        "in check",
        "moves: promotion played",
        "placement legal",
        "castling legal",
        "pinned piece (pseudo-legal move refused, not in check)",
    ] {
        assert!(f.get(feature) > 0, "feature never reached: {feature}");
    }
}

/// Raumschach (flat and hypercylinder): no placements, double moves or en passant ever.
#[test]
fn raumschach_random_games_match_reference() {
    let f = run_and_report(&VARIANTS[6..8], 3, 240);
    assert_eq!(f.get("placement legal"), 0);
    assert_eq!(f.get("en passant rights"), 0);
    for feature in [
        "in check",
        "moves: promotion played",
        "pinned piece (pseudo-legal move refused, not in check)",
        "wrapping move legal (hypercylinder)",
    ] {
        assert!(f.get(feature) > 0, "feature never reached: {feature}");
    }
}

/// A longer soak (ignored by default): `cargo test --release --test integration verify::differential::soak -- --ignored --nocapture`.
#[test]
#[ignore]
fn soak_all_variants() {
    let games = std::env::var("SOAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    let f = run_and_report(&VARIANTS, games, 400);
    println!("total: {:?}", f.0);
}
