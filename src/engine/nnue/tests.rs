//! Tests of the NNUE inference: inputs, king buckets, accumulator updates, kernels and layouts.

use super::accumulator::{changed_cells, changed_cells_portable, diff, Delta};
use super::network::chunk_major;
#[cfg(target_arch = "x86_64")]
use super::simd;
use super::*;
use crate::game::Color;
use crate::rules::random::scrambled;
use crate::rules::{Bitboard, Kind, Move, Position, Ruleset, Special, Variant};
use rand::{Rng, SeedableRng};

const SMALL: Dims = Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false };

#[test]
fn features_of_the_start_positions() {
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let p = Position::startpos(Variant::plain(rs));
        let (w, b) = (active_features(&p, Color::White), active_features(&p, Color::Black));
        let men = p.occupied().0.count_ones() as usize;
        let extra = if rs == Ruleset::FiveUp { 6 + p.rights().0.count_ones() as usize } else { 0 };
        assert_eq!(w.len(), men + extra, "{rs}");
        assert!(w.iter().all(|&f| (f as usize) < INPUTS) && w.windows(2).all(|x| x[0] < x[1]));
        // Each start maps onto itself with the colours swapped: both views are the same.
        assert_eq!(w, b, "{rs}");
    }
    assert_eq!(INPUTS, 2756);
}

/// The inputs cell by cell, straight from the definition (what the bitset code must equal).
fn features_by_cell(pos: &Position, perspective: Color) -> Vec<u16> {
    let mut out = Vec::new();
    let rs = pos.ruleset();
    for side in Color::ALL {
        let their = usize::from(side != perspective);
        for kind in Kind::ALL {
            for c in pos.pieces(side, kind) {
                out.push(((their * SLOTS + slot(kind)) * CELLS + orient(rs, perspective, c)) as u16);
            }
        }
        for (i, k) in [Kind::Wizard, Kind::Guard, Kind::Silver].into_iter().enumerate() {
            if pos.reserve_kinds(side).any(|r| r == k) {
                out.push((RESERVE_BASE + their * 3 + i) as u16);
            }
        }
        for c in Bitboard(pos.rights().0 & pos.color_bb(side).0) {
            out.push((RIGHTS_BASE + their * CELLS + orient(rs, perspective, c)) as u16);
        }
    }
    out.sort_unstable();
    out
}

#[test]
fn inputs_follow_the_cell_by_cell_definition() {
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        for seed in 0..40 {
            let p = scrambled(Variant::plain(rs), seed as usize % 30, seed);
            for side in Color::ALL {
                assert_eq!(active_features(&p, side), features_by_cell(&p, side), "{rs} seed {seed}");
            }
        }
    }
}

#[test]
fn king_buckets_are_regions_of_the_home_levels() {
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let start = Position::startpos(Variant::plain(rs));
        let of = |c: usize| king_bucket(rs, KING_BUCKETS, c);
        let mut sizes = [0; KING_BUCKETS];
        for c in 0..CELLS {
            sizes[of(c)] += 1;
            assert_eq!(king_bucket(rs, 1, c), 0);
        }
        // The start cell alone; 2 levels × 2 ranks less it; the rest of 3 levels; 2 levels.
        assert_eq!(sizes, [1, 19, 55, 50], "{rs}");
        for side in Color::ALL {
            assert_eq!(king_bucket_of(&start, side, KING_BUCKETS), 0, "{rs} {side:?}");
            // One step forward (to the next level, or the next rank): bucket 1.
            let home = orient(rs, side, start.king(side));
            let up = if rs == Ruleset::Raumschach { home + 25 } else { home - 25 };
            assert_eq!((of(home + 5), of(up)), (1, 1), "{rs}");
        }
    }
    assert!(Dims { kings: 2, ..Dims::DEFAULT }.check().is_err());
    assert!(Dims { kings: 0, ..Dims::DEFAULT }.check().is_err());
    assert_eq!(Dims { kings: 4, ..Dims::DEFAULT }.inputs(), 4 * INPUTS);
    assert_eq!(Dims { kings: 4, ..Dims::DEFAULT }.to_string(), "256x2-32-32 with 4 king buckets");
    let pw = Dims { pairwise: true, ..Dims::DEFAULT };
    assert_eq!((pw.to_string().as_str(), pw.ft_out(), pw.dense_inputs()), ("256x2p-32-32", 128, 256));
    assert_eq!(Dims::DEFAULT.dense_inputs(), 512);
    assert!(Dims { hidden: 48, ..pw }.check().unwrap_err().to_string().contains("not a multiple of 32"));
    assert!(Dims { hidden: 64, ..pw }.check().is_ok());
    assert_eq!(
        Dims { kings: 4, buckets: 2, ..Dims::DEFAULT }.to_string(),
        "256x2-32-32 with 2 output and 4 king buckets"
    );
}

#[test]
fn changed_cells_are_the_cells_whose_bytes_differ() {
    let check = |a: &Inputs, b: &Inputs| {
        let want = (0..128).filter(|&c| a.code(c) != b.code(c)).fold(0u128, |m, c| m | 1 << c);
        assert_eq!(changed_cells(a, b), want, "{a:?} {b:?}");
        assert_eq!(changed_cells_portable(a, b), want, "{a:?} {b:?}");
    };
    // Scrambled positions of both rulesets against each other: from no change to most cells.
    let inputs: Vec<Inputs> = [Ruleset::FiveUp, Ruleset::Raumschach]
        .into_iter()
        .flat_map(|rs| (0..12u64).map(move |seed| Inputs::of(&scrambled(Variant::plain(rs), seed as usize * 3, seed))))
        .collect();
    for a in &inputs {
        for b in &inputs {
            check(a, b);
        }
    }
    // One byte changed by one bit pattern, in every cell: a placement right alone (0x80),
    // the lowest bit, everything but the right, everything.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let base = Inputs { cells: std::array::from_fn(|_| rng.gen()), ..Inputs::default() };
    for c in 0..128 {
        for bits in [0x80u64, 0x01, 0x7f, 0xff] {
            let mut b = base;
            b.cells[c / 8] ^= bits << (8 * (c % 8));
            check(&base, &b);
            assert_eq!(changed_cells(&base, &b), 1 << c);
        }
    }
    // Random words against random words.
    for _ in 0..200 {
        let b = Inputs { cells: std::array::from_fn(|_| rng.gen::<u64>() & rng.gen::<u64>()), ..base };
        check(&base, &b);
    }
}

#[test]
fn a_move_changes_the_inputs_of_its_touched_cells_only() {
    // Random games of every ruleset (Five Up with castling and on the hypercylinder too),
    // taking a rare move (en passant, castling, a placement, a promotion) whenever one is
    // legal, so that each kind is met many times.
    let variants = [
        Variant::plain(Ruleset::FiveUp),
        Variant::plain(Ruleset::Raumschach),
        Variant::plain(Ruleset::FiveUp2001),
        Variant::new(Ruleset::FiveUp, true, false).expect("castling"),
        Variant::new(Ruleset::FiveUp, false, true).expect("hypercylinder"),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut seen = [0usize; 6]; // en passant, castling, placement, promotion, capture, other
    for v in variants {
        for _ in 0..40 {
            let mut p = Position::startpos(v);
            for _ in 0..150 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let rare = |m: &Move| {
                    m.special() == Special::EnPassant
                        || m.special() == Special::Castle
                        || m.placement().is_some()
                        || m.promotion().is_some()
                };
                let m = match moves.iter().find(|m| rare(m)) {
                    Some(&m) if rng.gen_bool(0.7) => m,
                    _ => moves[rng.gen_range(0..moves.len())],
                };
                let kind = match m {
                    m if m.special() == Special::EnPassant => 0,
                    m if m.special() == Special::Castle => 1,
                    m if m.placement().is_some() => 2,
                    m if m.promotion().is_some() => 3,
                    m if p.piece_at(m.to()).is_some() => 4,
                    _ => 5,
                };
                seen[kind] += 1;
                let before = Inputs::of(&p);
                p.make(m);
                let after = Inputs::of(&p);
                let touched = touched_cells(m);
                let changed = changed_cells(&before, &after);
                assert_eq!(changed & !touched, 0, "{m} changed cells it does not touch");
                if touched != ANY_CELL {
                    // Rewriting the touched cells gives the new inputs and the same
                    // differences as comparing every cell.
                    let (mut by_move, mut by_cells) = (Vec::new(), Vec::new());
                    let mut rewritten = before;
                    rewritten.kings = after.kings;
                    rewritten.rewrite(&p, touched, [0; 2], |q, f, add| by_move.push((q, f, add)));
                    assert_eq!(rewritten, after, "{m}");
                    diff(&before, &after, p.ruleset(), [0; 2], changed, |q, f, add| by_cells.push((q, f, add)));
                    by_move.sort_unstable();
                    by_cells.sort_unstable();
                    assert_eq!(by_move, by_cells, "{m}");
                }
            }
        }
    }
    // (With this seed: 15 en passant captures, 1,545 castlings, 960 placements, 45 promotions.)
    assert!(seen.iter().all(|&n| n >= 10), "moves of each kind: {seen:?}");
}

#[test]
fn the_benchmark_walk_evaluates_as_fresh_accumulators_do() {
    // The walk updates in place from each move's touched cells; its checksum must be that of
    // evaluations from scratch (and debug builds check every update against a refresh).
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let net = Network::random(rs, Dims { hidden: 64, l1: 16, l2: 32, pairwise: true, ..SMALL }, 9);
        let games: Vec<BenchGame> = benchmark_games(rs).into_iter().take(20).collect();
        let (evals, sum) = measured_walk(&net, &games, &walk_starts(&net, &games));
        let mut want = (0, 0i64);
        for g in &games {
            for p in &g.positions[1..] {
                want.1 = want.1.wrapping_mul(31).wrapping_add(net.evaluate_position(p) as i64);
                want.0 += 1;
            }
        }
        assert_eq!((evals, sum), want, "{rs}");
    }
}

#[test]
fn incremental_updates_match_a_refresh_along_random_games() {
    for (rs, kings) in [Ruleset::FiveUp, Ruleset::Raumschach].into_iter().flat_map(|r| [(r, 1), (r, KING_BUCKETS)]) {
        let net = Network::random(rs, Dims { kings, ..SMALL }, 3);
        for seed in 0..6 {
            let mut p = Position::startpos(Variant::plain(rs));
            let mut acc = Accumulator::refresh(&net, &p);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..60 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make(moves[rng.gen_range(0..moves.len())]);
                let changed = acc.update(&net, &p);
                assert!((1..=16).contains(&changed), "{changed} rows");
                assert_eq!(acc, Accumulator::refresh(&net, &p));
                assert_eq!(net.evaluate(&acc, p.side()), net.evaluate_position(&p));
            }
        }
    }
}

#[test]
fn vector_and_scalar_paths_give_identical_results() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for n in [32, 64, 512, 2048] {
        for round in 0..50 {
            // Random values, then the extremes (where a 16-bit pair sum is largest).
            let (input, row): (Vec<u8>, Vec<i8>) = match round {
                0 => (vec![127; n], vec![-128; n]),
                1 => (vec![127; n], vec![127; n]),
                _ => ((0..n).map(|_| rng.gen_range(0..=127)).collect(), (0..n).map(|_| rng.gen()).collect()),
            };
            assert_eq!(dot(&input, &row), dot_scalar(&input, &row), "n {n} round {round}");
        }
    }
    #[cfg(target_arch = "x86_64")]
    let kernels = simd::Kernel::available();
    #[cfg(target_arch = "x86_64")]
    eprintln!("kernels on this CPU: {kernels:?}");
    for (k, dims) in SHAPES.into_iter().enumerate() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            for (wide, net) in [false, true].map(|w| (w, test_network(rs, dims, 21 + k as u64, w))) {
                for seed in 0..40 {
                    let p = scrambled(Variant::plain(rs), seed as usize % 35, seed);
                    let acc = Accumulator::refresh(&net, &p);
                    for side in Color::ALL {
                        assert_eq!(
                            net.evaluate_with(&acc, side, true),
                            net.evaluate_with(&acc, side, false),
                            "{dims:?} {rs} wide {wide} seed {seed}"
                        );
                        // Every kernel on every bucket's stack (not only the position's).
                        #[cfg(target_arch = "x86_64")]
                        for &k in &kernels {
                            for b in 0..dims.buckets {
                                assert_eq!(
                                    net.forward_using(k, &acc, side, b),
                                    net.forward_using(simd::Kernel::Portable, &acc, side, b),
                                    "{k:?} {dims:?} bucket {b} {rs} wide {wide} seed {seed}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("vector instructions on this CPU: {}", has_simd());
}

/// Layer sizes the kernels must handle: the shipped shape, small ones, widths that are not
/// multiples of the register blocks (8, 16 and 32 outputs, 32 accumulator values), and
/// output buckets (16 buckets put the scrambled positions' 36–40 men in two of them), and
/// king buckets, and pairwise products (halves of 16, 32 and 48 values: the vector pass's
/// 16-value tail and its 32-value body).
const SHAPES: [Dims; 16] = [
    Dims::DEFAULT,
    Dims { hidden: 128, l1: 32, l2: 32, buckets: 1, kings: 1, pairwise: false },
    Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false },
    Dims { hidden: 16, l1: 1, l2: 1, buckets: 1, kings: 1, pairwise: false },
    Dims { hidden: 48, l1: 7, l2: 5, buckets: 1, kings: 1, pairwise: false },
    Dims { hidden: 80, l1: 40, l2: 33, buckets: 1, kings: 1, pairwise: false },
    Dims { hidden: 64, l1: 72, l2: 64, buckets: 1, kings: 1, pairwise: false },
    Dims { hidden: 64, l1: 16, l2: 16, buckets: 16, kings: 1, pairwise: false },
    Dims { hidden: 96, l1: 56, l2: 24, buckets: 3, kings: 1, pairwise: false },
    Dims { hidden: 256, l1: 32, l2: 32, buckets: 8, kings: 1, pairwise: false },
    Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: KING_BUCKETS, pairwise: false },
    Dims { hidden: 144, l1: 16, l2: 8, buckets: 3, kings: KING_BUCKETS, pairwise: false },
    Dims { hidden: 256, l1: 32, l2: 32, buckets: 1, kings: 1, pairwise: true },
    Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: true },
    Dims { hidden: 96, l1: 16, l2: 8, buckets: 2, kings: 1, pairwise: true },
    Dims { hidden: 64, l1: 7, l2: 5, buckets: 1, kings: KING_BUCKETS, pairwise: true },
];

/// [`Network::random`], or with `wide` weights over the whole `i8` range and accumulator
/// rows large enough that many values clip at 0 and at 127 (and sums wrap in 16 bits).
fn test_network(rs: Ruleset, dims: Dims, seed: u64, wide: bool) -> Network {
    let mut net = Network::random(rs, dims, seed);
    if wide {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xA11);
        for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
            *w = rng.gen_range(-3000..=3000);
        }
        for w in net.l1_weights.iter_mut().chain(&mut net.l2_weights).chain(&mut net.out_weights) {
            *w = rng.gen();
        }
        for b in net.l1_bias.iter_mut().chain(&mut net.l2_bias) {
            *b = rng.gen_range(-20_000..=20_000);
        }
        net = net.with_layout();
    }
    net
}

#[test]
fn vector_and_portable_updates_match_a_refresh() {
    // Along random games: in place and from a parent, one move at a time and several at
    // once (a lazy stack catching up; the longest jumps overflow the change lists).
    for (k, dims) in SHAPES.into_iter().enumerate() {
        for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
            let net = test_network(rs, dims, 40 + k as u64, k % 2 == 1);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(k as u64);
            let mut line = vec![Position::startpos(Variant::plain(rs))];
            // The cells each move touched (`touched[k]`: the move into `line[k]`).
            let mut touched = vec![ANY_CELL];
            for _ in 0..80 {
                let mut p = line.last().unwrap().clone();
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.gen_range(0..moves.len())];
                p.make(m);
                line.push(p);
                touched.push(touched_cells(m));
            }
            let accs: Vec<Accumulator> = line.iter().map(|p| Accumulator::refresh(&net, p)).collect();
            // King caches kept over all the updates below (per vector choice).
            let mut caches = [KingCache::default(), KingCache::default()];
            if dims.kings > 1 {
                // The line moves a king across buckets (so refreshes by perspective are tested).
                let buckets = |p: &Position| Color::ALL.map(|c| king_bucket_of(p, c, dims.kings));
                let moves = line.windows(2).filter(|w| buckets(&w[0]) != buckets(&w[1])).count();
                assert!(moves > 0, "{dims:?} {rs}: no king changed bucket");
            }
            for to in 1..line.len() {
                for jump in [1, 2, 3, 4, 5, 7, 40, 80].into_iter().filter(|&j| j <= to) {
                    let (from, want) = (&accs[to - jump], &accs[to]);
                    for simd in [true, false] {
                        let mut a = Accumulator::default();
                        a.update_with(Some(from), &net, &line[to], simd);
                        assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd}");
                        let mut a = from.clone();
                        a.update_with(None, &net, &line[to], simd);
                        assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} in place");
                        let cache = Some(&mut caches[usize::from(simd)]);
                        let mut a = Accumulator::default();
                        a.update_cached(Some(from), &net, &line[to], ANY_CELL, simd, cache);
                        assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} cached");
                        // Reading only the cells the moves in between touched.
                        let cells = touched[to - jump + 1..=to].iter().fold(0, |t, &c| t | c);
                        let cache = Some(&mut caches[usize::from(simd)]);
                        let mut a = Accumulator::default();
                        a.update_cached(Some(from), &net, &line[to], cells, simd, cache);
                        assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} touched");
                        let cache = Some(&mut caches[usize::from(simd)]);
                        let mut a = from.clone();
                        a.update_cached(None, &net, &line[to], cells, simd, cache);
                        assert_eq!(a, *want, "{dims:?} {rs} {to} jump {jump} simd {simd} touched, in place");
                    }
                }
            }
            // From nothing (the bias only): every input is new, more than the lists hold.
            let empty = Accumulator {
                values: [Aligned::from_slice(&net.ft_bias), Aligned::from_slice(&net.ft_bias)],
                inputs: Inputs::default(),
            };
            for (k, (p, want)) in line.iter().zip(&accs).enumerate().step_by(10) {
                for simd in [true, false] {
                    let mut a = Accumulator::default();
                    let changed = a.update_with(Some(&empty), &net, p, simd);
                    assert!(k > 0 || changed > 2 * Delta::CAP, "the start overflows the lists");
                    assert_eq!(a, *want, "{dims:?} {rs} from nothing, simd {simd}");
                }
            }
            // The refresh itself against the sums by definition.
            for (p, acc) in line.iter().zip(&accs) {
                for side in Color::ALL {
                    let mut v = net.ft_bias.clone();
                    let offset = (king_bucket_of(p, side, dims.kings) * INPUTS) as u16;
                    for f in active_features(p, side) {
                        for (s, &w) in v.iter_mut().zip(net.row(f + offset)) {
                            *s = s.wrapping_add(w);
                        }
                    }
                    assert_eq!(*acc.values[side.index()], v[..]);
                }
            }
        }
    }
}

#[test]
fn buckets_divide_the_men_evenly() {
    let of = |b: usize| (1..=40).map(|m| bucket(m, b)).collect::<Vec<_>>();
    assert!(of(1).iter().all(|&b| b == 0));
    let eight = of(8);
    for (m, &b) in (1..=40).zip(&eight) {
        assert_eq!(b, (m - 1) / 5, "{m} men");
    }
    assert_eq!(of(16).iter().max(), Some(&15));
    assert_eq!(bucket(0, 8), 0);
    assert_eq!(bucket(55, 8), 7, "more men than Raumschach's start: the last bucket");
    assert!(Dims { buckets: 0, ..Dims::DEFAULT }.check().is_err());
    assert!(Dims { buckets: 17, ..Dims::DEFAULT }.check().is_err());
    assert_eq!(Dims { buckets: 8, ..Dims::DEFAULT }.to_string(), "256x2-32-32 with 8 output buckets");
    assert_eq!(Dims::DEFAULT.to_string(), "256x2-32-32");
}

/// Bucket `b` of `net` as a network of its own (its dense stack, the shared accumulator).
fn bucket_net(net: &Network, b: usize) -> Network {
    let s = net.stack(b);
    Network {
        dims: Dims { buckets: 1, ..net.dims },
        l1_bias: s.l1_bias.to_vec(),
        l1_weights: s.l1_weights.to_vec(),
        l2_bias: s.l2_bias.to_vec(),
        l2_weights: s.l2_weights.to_vec(),
        out_bias: vec![s.out_bias],
        out_weights: s.out_weights.to_vec(),
        ..net.clone()
    }
    .with_layout()
}

#[test]
fn each_position_is_evaluated_by_the_stack_of_its_bucket() {
    use crate::engine::random_endgame;
    for rs in [Ruleset::FiveUp, Ruleset::Raumschach] {
        let v = Variant::plain(rs);
        let net = test_network(rs, Dims { hidden: 64, l1: 16, l2: 8, buckets: 8, kings: 1, pairwise: false }, 7, false);
        let singles: Vec<Network> = (0..8).map(|b| bucket_net(&net, b)).collect();
        // Endgames of 2 to 28 men, and positions from the start (36 to 40 men).
        let mut positions: Vec<Position> = (0..14)
            .filter_map(|k| {
                let men = [Kind::Pawn, Kind::Knight, Kind::Rook, Kind::Bishop].repeat(4);
                random_endgame(v, &men[..k], &men[..k], 100 + k as u64)
            })
            .collect();
        positions.extend((0..10).map(|seed| scrambled(v, 20 + 4 * seed as usize, seed)));
        let mut used = std::collections::BTreeSet::new();
        let mut differ = 0;
        for p in &positions {
            let acc = Accumulator::refresh(&net, p);
            let men = p.occupied().0.count_ones() as usize;
            assert_eq!(acc.inputs.men(), men, "{rs}");
            let b = bucket(men, 8);
            used.insert(b);
            for simd in [true, false] {
                let want = singles[b].evaluate_with(&Accumulator::refresh(&singles[b], p), p.side(), simd);
                assert_eq!(net.evaluate_with(&acc, p.side(), simd), want, "{rs} {men} men, simd {simd}");
            }
            // Another bucket's stack gives another score (the test would pass vacuously if
            // all stacks were alike); a position may score alike by chance.
            differ += usize::from(singles[(b + 1) % 8].evaluate_position(p) != net.evaluate_position(p));
        }
        assert!(used.len() >= 5, "{rs}: buckets {used:?}");
        assert!(differ * 4 >= positions.len() * 3, "{rs}: {differ} of {} differ", positions.len());
    }
}

#[test]
fn layouts_put_every_weight_in_its_place() {
    let w: Vec<i8> = (0..7 * 10).map(|i| i as i8 + 1).collect();
    let v = chunk_major(&w, 10, 7); // 10 inputs → 3 chunks, 7 outputs → 8
    assert_eq!(v.len(), 3 * 8 * 4);
    for j in 0..8 {
        for i in 0..12 {
            let want = if j < 7 && i < 10 { w[j * 10 + i] } else { 0 };
            assert_eq!(v[((i / 4) * 8 + j) * 4 + i % 4], want, "output {j} input {i}");
        }
    }
    let a = Aligned::<i16>::from_slice(&[1, 2, 3]);
    assert_eq!(a.as_ptr() as usize % 32, 0);
    assert_eq!(&*a, &[1, 2, 3]);
}

#[test]
fn integer_scaling_rounds_as_the_float_scaling() {
    let d = (QA * QB) as i64;
    for scale in [400.0f32, 361.0, 1.0, 8_128.0, 65_536.0, 287.5, 65_537.0, -400.0] {
        let mut net = Network::random(Ruleset::FiveUp, SMALL, 1);
        net.output_scale = scale;
        let net = net.with_layout();
        let whole = (1.0..=65_536.0).contains(&scale) && scale.fract() == 0.0;
        assert_eq!(net.layout.whole_scale.is_some(), whole, "scale {scale}");
        if !whole {
            continue;
        }
        let s = scale as i64;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        // Outputs whose quotient is an exact half (`out · s ≡ d/2 mod d`), and their neighbours.
        let ties: Vec<i32> = (-(1i64 << 20)..(1 << 20))
            .filter(|&o| (o * s).rem_euclid(d) == d / 2)
            .take(2_000)
            .flat_map(|o| [o - 1, o, o + 1, -o])
            .map(|o| o as i32)
            .collect();
        assert!(scale == 8_128.0 || scale == 65_536.0 || !ties.is_empty(), "scale {scale}: no ties");
        let outs: Vec<i32> =
            (-20_000..20_000)
                .chain(ties)
                .chain((0..40_000).map(|k| {
                    if k % 2 == 0 {
                        rng.gen::<i32>()
                    } else {
                        rng.gen_range(-(1 << 24)..(1 << 24))
                    }
                }))
                .chain([i32::MAX, i32::MIN, i32::MAX - 1, i32::MIN + 1])
                .collect();
        for out in outs {
            assert_eq!(net.scale(out), net.scale_f64(out), "scale {scale} out {out}");
        }
    }
}

#[test]
fn the_integer_forward_pass_follows_the_float_network() {
    for pairwise in [false, true] {
        integer_forward_follows_float(Dims { pairwise, ..SMALL });
    }
}

fn integer_forward_follows_float(dims: Dims) {
    let net = Network::random(Ruleset::FiveUp, dims, 9);
    for seed in 0..20 {
        let p = scrambled(Variant::plain(Ruleset::FiveUp), 10 + seed as usize, seed);
        // The same network in floating point: activations in 0..=1, weights / 64.
        let acc = Accumulator::refresh(&net, &p);
        let h = dims.hidden;
        let mut x: Vec<f64> = Vec::new();
        for side in [p.side(), p.side().flip()] {
            let v: Vec<f64> = acc.values[side.index()].iter().map(|&v| (v as f64 / 127.0).clamp(0.0, 1.0)).collect();
            match dims.pairwise {
                // The trainer's products: c(a)·c(b)·127/128.
                true => x.extend((0..h / 2).map(|i| v[i] * v[i + h / 2] * 127.0 / 128.0)),
                false => x.extend(v),
            }
        }
        let layer = |x: &[f64], w: &[i8], b: &[i32]| -> Vec<f64> {
            b.iter()
                .enumerate()
                .map(|(j, &b)| {
                    let s: f64 =
                        x.iter().zip(&w[j * x.len()..(j + 1) * x.len()]).map(|(a, &w)| a * w as f64 / 64.0).sum();
                    (s + b as f64 / (127.0 * 64.0)).clamp(0.0, 1.0)
                })
                .collect()
        };
        assert_eq!(x.len(), dims.dense_inputs());
        let y1 = layer(&x, &net.l1_weights, &net.l1_bias);
        let y2 = layer(&y1, &net.l2_weights, &net.l2_bias);
        let out: f64 = y2.iter().zip(&net.out_weights).map(|(a, &w)| a * w as f64 / 64.0).sum::<f64>()
            + net.out_bias[0] as f64 / (127.0 * 64.0);
        let want = out * net.output_scale as f64;
        let got = net.evaluate(&acc, p.side()) as f64;
        // Rounding of the shifts: a few centipawns at most on this scale.
        assert!((got - want).abs() <= 0.03 * want.abs().max(100.0), "{dims}: {got} vs {want}");
    }
}
