//! Self-play, record and shard tests.

use super::shards::{decode_shard, encode_shard, HEADER_LEN};
use super::*;
use crate::game::Color;
use crate::mcts::{SearchConfig, SearchKind};
use crate::nn::{EvalInput, Evaluation, Evaluator, UniformEvaluator};
use crate::rules::{Cell, Kind, Move, Piece, Position, Ruleset, Setup, Variant};
use std::path::PathBuf;

fn small_config(seed: u64, concurrent: usize) -> SelfPlayConfig {
    SelfPlayConfig {
        concurrent_games: concurrent,
        total_games: 6,
        seed,
        search: SearchConfig { max_batch: 8, ..SearchConfig::default() },
        full_simulations: 12,
        cheap_simulations: 4,
        full_search_prob: 0.5,
        random_opening_plies: 2,
        temperature_plies: 6,
        ply_cap: 24,
        ..SelfPlayConfig::default()
    }
}

fn play(cfg: &SelfPlayConfig) -> (Vec<GameRecord>, SelfPlayCounts) {
    let mut games = Vec::new();
    let p = run(cfg, &mut UniformEvaluator::default(), &mut |g| games.push(g), &mut |_| {}).unwrap();
    games.sort_by_key(|g| g.game_index);
    (games, p)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fiveup-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn records_are_legal_and_targets_sum_to_one_over_legal_moves() {
    let (games, p) = play(&small_config(1, 4));
    assert_eq!(games.len(), 6);
    assert_eq!(p.games, 6);
    assert!(p.samples > 0 && p.evals > 0);
    for g in &games {
        let positions = g.replay().expect("replays");
        let last = positions.last().unwrap();
        match g.termination {
            Termination::PlyCap => assert_eq!((g.result, g.moves.len()), (GameResult::Draw, 24)),
            Termination::Checkmate => {
                assert!(last.in_check() && !last.has_legal_move());
                assert_eq!(g.result, GameResult::loss_for(last.side()));
            }
            t => assert!(t != Termination::Resignation && g.result == GameResult::Draw, "{t:?}"),
        }
        for rec in &g.positions {
            assert!(rec.ply >= 2, "random opening plies are not recorded");
            let legal = positions[rec.ply as usize].legal_moves();
            let sum: f32 = rec.policy.iter().map(|e| e.1).sum();
            assert!((sum - 1.0).abs() < 1e-4, "sum {sum}");
            for (bits, _) in &rec.policy {
                assert!(legal.contains(&Move::from_bits(*bits).unwrap()));
            }
            assert_eq!(rec.simulations, 12);
        }
    }
}

#[test]
fn cheap_searches_become_value_only_samples_in_version_4_shards() {
    let plain = small_config(5, 4);
    let cheap = SelfPlayConfig { cheap_value_samples: true, ..plain.clone() };
    let (a, _) = play(&plain);
    let (b, _) = play(&cheap);
    // The same games (recording changes no move); b records every search of a position with a
    // choice, a only the full ones, which b records identically.
    for (ga, gb) in a.iter().zip(&b) {
        assert_eq!(ga.moves, gb.moves);
        let full: Vec<_> = gb.positions.iter().filter(|p| !p.policy.is_empty()).cloned().collect();
        assert_eq!(full, ga.positions);
        let positions = gb.replay().unwrap();
        for p in &gb.positions {
            assert_eq!(p.simulations, if p.policy.is_empty() { 4 } else { 12 });
            assert!(positions[p.ply as usize].legal_moves().len() > 1);
        }
        let searched = (2..gb.moves.len()).filter(|&ply| positions[ply].legal_moves().len() > 1).count();
        assert_eq!(gb.positions.len(), searched, "every search after the opening is recorded");
    }
    let cheap_count = b.iter().flat_map(|g| &g.positions).filter(|p| p.policy.is_empty()).count();
    assert!(cheap_count > 0, "half the searches are cheap");
    // They survive a shard; a shard of an older version with an empty policy is refused by name.
    let path = PathBuf::from("cheap.shard");
    let bytes = super::shards::encode_shard(&path, &b).unwrap();
    assert_eq!(decode_shard(&path, &bytes).unwrap(), b);
    let e = decode_shard(&path, &shard_bytes(3, &b, crate::fsutil::crc32)).unwrap_err().to_string();
    assert!(e.contains("has an empty policy") && e.contains("version 4"), "{e}");
}

#[test]
fn self_play_is_deterministic_from_a_seed_whatever_the_concurrency() {
    let (a, _) = play(&small_config(9, 4));
    let (b, _) = play(&small_config(9, 4));
    let (c, _) = play(&small_config(9, 2));
    assert_eq!(a, b);
    assert_eq!(a, c);
    let (d, _) = play(&small_config(10, 4));
    assert_ne!(a, d);
}

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

#[test]
fn games_end_by_the_rules() {
    // White mates at once (Ed1-Ad1) from a hand-made start; PUCT without temperature.
    let mut s = Setup::empty(Variant::plain(Ruleset::FiveUp));
    for (c, color, kind) in [
        ("Aa1", Color::Black, Kind::King),
        ("Ba2", Color::White, Kind::Rook),
        ("Ed1", Color::White, Kind::Rook),
        ("Ce5", Color::White, Kind::King),
    ] {
        s.board[cell(c).index()] = Some(Piece::new(color, kind));
    }
    let cfg = SelfPlayConfig {
        start: Position::from_setup(s).unwrap(),
        concurrent_games: 2,
        total_games: 2,
        search: SearchConfig { kind: SearchKind::Puct, ..SearchConfig::default() },
        full_simulations: 128,
        full_search_prob: 1.0,
        random_opening_plies: 0,
        temperature_plies: 0,
        ..SelfPlayConfig::default()
    };
    let (games, p) = play(&cfg);
    for g in &games {
        assert_eq!((g.termination, g.result, g.moves.len()), (Termination::Checkmate, GameResult::WhiteWin, 1));
        assert_eq!(g.positions.len(), 1);
    }
    assert_eq!(p.white_wins, 2);
}

#[test]
fn resignation_counts_the_loss_probability_not_the_win_probability() {
    let cfg = ResignConfig { loss: 0.95, consecutive: 3, playthrough_fraction: 0.0 };
    // A dead draw: almost no chance to win, but none to lose either. Never resign.
    let mut s = ResignStreaks::default();
    for _ in 0..50 {
        assert!(!s.update(&cfg, Color::White, [0.02, 0.96, 0.02]));
    }
    // Lost: resign on the third own move in a row, streaks kept per side and reset by a better move.
    let lost = [0.01, 0.02, 0.97];
    let mut s = ResignStreaks::default();
    assert!(!s.update(&cfg, Color::Black, lost));
    assert!(!s.update(&cfg, Color::White, lost));
    assert!(!s.update(&cfg, Color::Black, lost));
    assert!(!s.update(&cfg, Color::Black, [0.1, 0.1, 0.8]));
    assert!(!s.update(&cfg, Color::Black, lost));
    assert!(!s.update(&cfg, Color::White, lost));
    assert!(s.update(&cfg, Color::White, lost));
    // At the threshold counts; off never resigns.
    let mut s = ResignStreaks::default();
    let one = ResignConfig { consecutive: 1, ..cfg };
    assert!(s.update(&one, Color::White, [0.0, 0.05, 0.95]));
    let off = ResignConfig { loss: 0.0, ..one };
    assert!(!s.update(&off, Color::White, [0.0, 0.0, 1.0]));
}

/// Every position is worth `white` to white and its mirror to black; uniform priors.
struct SidedEvaluator {
    white: [f32; 3],
}

impl Evaluator for SidedEvaluator {
    fn evaluate(&mut self, batch: &[EvalInput<'_>], out: &mut Vec<Evaluation>) -> Result<(), crate::nn::EvalError> {
        out.clear();
        for inp in batch {
            let [w, d, l] = self.white;
            let wdl = if inp.position.side() == Color::White { [w, d, l] } else { [l, d, w] };
            let n = inp.moves.len().max(1) as f32;
            out.push(Evaluation { policy: vec![1.0 / n; inp.moves.len()], wdl, moves_left: 0.0 });
        }
        Ok(())
    }
    fn name(&self) -> String {
        "sided".into()
    }
}

/// Games played with resignation at a 0.95 loss probability over 3 moves against [`SidedEvaluator`].
fn play_sided(white: [f32; 3], playthrough: f32) -> Vec<GameRecord> {
    let cfg = SelfPlayConfig {
        concurrent_games: 2,
        total_games: 2,
        full_simulations: 8,
        cheap_simulations: 4,
        random_opening_plies: 0,
        temperature_plies: 0,
        ply_cap: 16,
        resign: ResignConfig { loss: 0.95, consecutive: 3, playthrough_fraction: playthrough },
        ..small_config(5, 2)
    };
    let mut games = Vec::new();
    run(&cfg, &mut SidedEvaluator { white }, &mut |g| games.push(g), &mut |_| {}).unwrap();
    games
}

#[test]
fn dead_draws_are_played_out_and_lost_games_resigned() {
    // The old rule (win probability below 0.05) resigned every one of these dead draws.
    let games = play_sided([0.02, 0.96, 0.02], 0.0);
    for g in &games {
        assert_ne!(g.termination, Termination::Resignation);
        assert_eq!(g.would_resign_ply, None);
    }
    // White is lost: it resigns on its third move (ply 4), before playing it.
    let games = play_sided([0.01, 0.02, 0.97], 0.0);
    for g in &games {
        assert_eq!((g.termination, g.result, g.moves.len()), (Termination::Resignation, GameResult::BlackWin, 4));
        assert!(!g.resign_disabled);
    }
    // Play-through games go on, and note the ply at which the side to move would have resigned.
    let games = play_sided([0.01, 0.02, 0.97], 1.0);
    for g in &games {
        assert_ne!(g.termination, Termination::Resignation);
        assert!(g.resign_disabled);
        assert_eq!(g.would_resign_ply, Some(4));
    }
}

/// Kings far apart, white with a queen and two rooks, or only with a pawn; white to move.
fn material_setup(big: bool) -> Setup {
    let mut s = Setup::empty(Variant::plain(Ruleset::FiveUp));
    let mut pieces = vec![("Ea1", Color::White, Kind::King), ("Ae5", Color::Black, Kind::King)];
    if big {
        pieces.extend([("Ca1", Color::White, Kind::Queen), ("Eb1", Color::White, Kind::Rook)]);
        pieces.push(("Ec1", Color::White, Kind::Rook));
    } else {
        pieces.push(("Cc2", Color::White, Kind::Pawn));
    }
    for (c, color, kind) in pieces {
        s.board[cell(c).index()] = Some(Piece::new(color, kind));
    }
    s
}

#[test]
fn ply_cap_adjudication_by_material() {
    let ahead = Position::from_setup(material_setup(true)).unwrap();
    assert_eq!(adjudicate_ply_cap(&ahead, 3.0), GameResult::WhiteWin);
    assert_eq!(adjudicate_ply_cap(&ahead, 0.0), GameResult::Draw, "0 = off");
    assert_eq!(adjudicate_ply_cap(&ahead, 50.0), GameResult::Draw);
    // One pawn up is not more than 1 pawn, nor 3.
    let pawn = Position::from_setup(material_setup(false)).unwrap();
    assert_eq!(adjudicate_ply_cap(&pawn, 1.0), GameResult::Draw);
    assert_eq!(adjudicate_ply_cap(&pawn, 0.5), GameResult::WhiteWin);
    // The sign does not depend on the side to move; colours swapped, black wins.
    let mut s = material_setup(true);
    s.side = Color::Black;
    assert_eq!(adjudicate_ply_cap(&Position::from_setup(s.clone()).unwrap(), 3.0), GameResult::WhiteWin);
    for c in s.board.iter_mut().flatten() {
        c.color = c.color.flip();
    }
    assert_eq!(adjudicate_ply_cap(&Position::from_setup(s).unwrap(), 3.0), GameResult::BlackWin);

    // Through the driver: two random plies, then the cap.
    let cfg = |pawns: f32| SelfPlayConfig {
        start: Position::from_setup(material_setup(true)).unwrap(),
        concurrent_games: 2,
        total_games: 2,
        random_opening_plies: 2,
        ply_cap: 2,
        ply_cap_adjudicate: pawns,
        ..SelfPlayConfig::default()
    };
    for (pawns, want) in [(3.0, GameResult::WhiteWin), (0.0, GameResult::Draw)] {
        let (games, _) = play(&cfg(pawns));
        for g in &games {
            assert_eq!((g.termination, g.result, g.moves.len()), (Termination::PlyCap, want, 2));
        }
    }
}

#[test]
fn shards_round_trip() {
    let (games, _) = play(&small_config(3, 3));
    let dir = temp_dir("roundtrip");
    let mut w = ShardWriter::new(&dir, "gen0", 4, 0).unwrap();
    for g in games.clone() {
        w.push(g).unwrap();
    }
    w.flush().unwrap();
    assert_eq!(w.written().len(), 2);
    let back: Vec<GameRecord> = w.written().iter().flat_map(|p| read_shard(p).unwrap()).collect();
    assert_eq!(back, games);
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| e.unwrap().path().extension().unwrap() == "shard"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn version_1_shards_are_still_read() {
    use super::records::{GameRecordV1, PositionRecordV1};
    use super::shards::MAGIC;
    use crate::fsutil::legacy::fnv1a32;
    let (games, _) = play(&small_config(5, 2));
    // A version 1 shard, byte for byte as version 1 wrote it (no engine_score).
    let old: Vec<GameRecordV1> = games
        .iter()
        .map(|g| {
            g.clone().map_positions(|p| PositionRecordV1 {
                ply: p.ply,
                policy: p.policy,
                root_wdl: p.root_wdl,
                nn_wdl: p.nn_wdl,
                simulations: p.simulations,
            })
        })
        .collect();
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&(old.len() as u64).to_le_bytes());
    for r in &old {
        let payload = bincode::serialize(r).unwrap();
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&fnv1a32(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
    }
    let path = PathBuf::from("old.shard");
    let back = decode_shard(&path, &bytes).unwrap();
    assert!(games.iter().all(|g| g.positions.iter().all(|p| p.engine_score.is_none())));
    assert_eq!(back, games);
    // A version this build does not know names the versions it reads.
    bytes[8] = 5;
    let e = decode_shard(&path, &bytes).unwrap_err().to_string();
    assert!(e.contains("unsupported shard version 5") && e.contains("reads 1 to 4"), "{e}");
}

/// A shard of `records` with the given header version and per-record checksum.
fn shard_bytes(version: u32, records: &[GameRecord], sum: fn(&[u8]) -> u32) -> Vec<u8> {
    let mut bytes = super::shards::MAGIC.to_vec();
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(records.len() as u64).to_le_bytes());
    for r in records {
        let payload = bincode::serialize(r).unwrap();
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&sum(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
    }
    bytes
}

#[test]
fn version_2_shards_with_fnv_checksums_are_still_read_and_new_ones_use_crc32() {
    use crate::fsutil::{crc32, legacy::fnv1a32};
    let (games, _) = play(&small_config(3, 2));
    let path = PathBuf::from("v2.shard");
    assert_eq!(decode_shard(&path, &shard_bytes(2, &games, fnv1a32)).unwrap(), games);
    // A version 2 header with CRC-32 sums (or version 3 with FNV) is a checksum mismatch.
    let e = decode_shard(&path, &shard_bytes(2, &games, crc32)).unwrap_err().to_string();
    assert!(e.contains("corrupt record 0") && e.contains("checksum mismatch"), "{e}");
    assert!(decode_shard(&path, &shard_bytes(3, &games, fnv1a32)).is_err());
    let new = super::shards::encode_shard(&path, &games).unwrap();
    assert_eq!(new, shard_bytes(super::shards::SHARD_VERSION, &games, crc32));
    assert_eq!(super::shards::SHARD_VERSION, 4);
    // Version 3 (record schema 2, CRC-32) is still read: the same bytes under the old header.
    assert_eq!(decode_shard(&path, &shard_bytes(3, &games, crc32)).unwrap(), games);
}

#[test]
fn records_with_off_board_cells_or_bad_numbers_are_rejected_naming_shard_and_record() {
    let (games, _) = play(&small_config(3, 2));
    let path = PathBuf::from("runs/x/shards/bad.shard");
    let reject = |edit: &dyn Fn(&mut GameRecord), want: &str| {
        let mut bad = games.clone();
        edit(&mut bad[1]);
        let bytes = super::shards::encode_shard(&path, &bad).unwrap();
        let e = decode_shard(&path, &bytes).unwrap_err().to_string();
        assert!(e.starts_with("runs/x/shards/bad.shard: corrupt record 1 at byte"), "{e}");
        assert!(e.contains(want), "{e} should say {want}");
        // The old path panicked here (placement rights past cell 124 indexed a per-cell table).
        assert!(bad[1].replay().is_err() || bad[1].validate().is_err());
    };
    reject(&|g| g.start.rights |= 1u128 << 126, "rights names cell 126, outside the board");
    reject(&|g| g.start.ep_passed |= 1u128 << 125, "ep_passed names cell 125");
    reject(&|g| g.positions[0].policy[0].1 = f32::NAN, "policy entry 0 is NaN");
    reject(&|g| g.positions[0].policy[0].1 = -0.5, "policy entry 0 is -0.5");
    reject(&|g| g.positions[0].policy.iter_mut().for_each(|p| p.1 *= 2.0), "policy sums to");
    reject(&|g| g.positions[0].root_wdl = [f32::INFINITY, 0.0, 0.0], "root_wdl entry 0 is inf");
    reject(&|g| g.positions[0].root_wdl = [1.0, 0.05, -0.05], "root_wdl entry 2 is -0.05");
    // A hair below 0 from rounding (seen in a worker's shard: -1.4e-8) is a probability.
    let mut ok = games.clone();
    ok[1].positions[0].root_wdl = [1.0, 0.0, -1.4e-8];
    let bytes = super::shards::encode_shard(&path, &ok).unwrap();
    assert_eq!(decode_shard(&path, &bytes).unwrap().len(), ok.len());
    reject(&|g| g.positions[0].nn_wdl = [0.5, 0.5, 0.5], "nn_wdl sums to 1.5");
    reject(&|g| g.positions[0].ply = 10_000, "ply 10000 is past the game's");
    // to_setup itself refuses off-board bits (no panic in Position::from_setup).
    let mut g = games[0].clone();
    g.start.rights |= 1u128 << 127;
    assert!(matches!(g.start_position(), Err(super::records::RecordError::OffBoard { cell: 127, .. })));
}

#[test]
fn damaged_shards_are_rejected_with_path_and_offset() {
    let (games, _) = play(&small_config(4, 2));
    let dir = temp_dir("damaged");
    let path = dir.join("x.shard");
    write_shard(&path, &games[..2]).unwrap();
    let good = std::fs::read(&path).unwrap();
    let first_len = u32::from_le_bytes(good[HEADER_LEN..HEADER_LEN + 4].try_into().unwrap()) as usize;
    let second = HEADER_LEN + 8 + first_len;

    // Truncated inside the second record.
    std::fs::write(&path, &good[..good.len() - 5]).unwrap();
    let e = read_shard(&path).unwrap_err();
    match &e {
        ShardError::Truncated { path: p, offset, .. } => {
            assert_eq!(p, &path);
            assert_eq!(*offset as usize, second + 8);
        }
        other => panic!("{other:?}"),
    }
    let msg = e.to_string();
    assert!(msg.contains("x.shard") && msg.contains(&format!("byte {}", second + 8)), "{msg}");

    // Truncated inside the header.
    std::fs::write(&path, &good[..10]).unwrap();
    assert!(matches!(read_shard(&path), Err(ShardError::Truncated { offset: 8, .. })));

    // Bad magic and an unknown version.
    let mut bad = good.clone();
    bad[0] = b'X';
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(read_shard(&path), Err(ShardError::BadMagic { offset: 0, .. })));
    let mut bad = good.clone();
    bad[8] = 99;
    std::fs::write(&path, &bad).unwrap();
    let e = read_shard(&path).unwrap_err();
    assert!(matches!(e, ShardError::Version { offset: 8, found: 99, .. }), "{e}");

    // A flipped payload byte in the second record.
    let mut bad = good.clone();
    bad[second + 20] ^= 0x40;
    let e = decode_shard(&path, &bad).unwrap_err();
    assert!(matches!(e, ShardError::Corrupt { index: 1, offset, .. } if offset as usize == second), "{e}");

    // Extra bytes and a count that promises more records than there are.
    let mut bad = good.clone();
    bad.extend_from_slice(&[0, 0]);
    assert!(matches!(decode_shard(&path, &bad), Err(ShardError::TrailingBytes { extra: 2, .. })));
    let mut bad = good.clone();
    bad[12] = 3;
    assert!(matches!(decode_shard(&path, &bad), Err(ShardError::Truncated { .. })));
    assert_eq!(decode_shard(&path, &encode_shard(&path, &games[..2]).unwrap()).unwrap(), games[..2].to_vec());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn terminations_map_onto_end_rules_and_keep_their_schema_indices() {
    use crate::game::EndRule;
    for r in EndRule::ALL {
        assert_eq!(EndRule::from(Termination::from(r)), r);
    }
    // Serialised by index: the order is part of the schema.
    let order = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::FiftyMove,
        Termination::BareKings,
        Termination::PlyCap,
        Termination::Resignation,
    ];
    for (i, t) in order.into_iter().enumerate() {
        assert_eq!(bincode::serialize(&t).unwrap(), (i as u32).to_le_bytes());
    }
}

#[test]
fn setup_records_round_trip() {
    let p = Position::startpos(Variant::plain(Ruleset::FiveUp));
    let p = p.after(p.legal_moves().into_iter().find(|m| m.to_string() == "Ec2Ec4").unwrap());
    let s = p.to_setup();
    let r = records::SetupRecord::from_setup(&s);
    assert_eq!(r.to_setup(s.variant).unwrap(), s);
    let bad = records::SetupRecord { board: vec![0; 3], ..r };
    assert!(bad.to_setup(s.variant).is_err());
}

/// A backend that always fails, as a lost GPU does.
struct BrokenBackend;

impl crate::nn::Backend for BrokenBackend {
    fn compute(
        &mut self,
        _: &[f32],
        _: usize,
        _: &[i64],
        _: &mut crate::nn::BackendOutput,
    ) -> Result<(), crate::nn::EvalError> {
        Err(crate::nn::EvalError("CUDA error: device lost".into()))
    }
    fn name(&self) -> String {
        "broken".into()
    }
}

#[test]
fn a_failing_backend_is_an_error_not_a_panic() {
    let net = crate::nn::NetworkEvaluator::new(BrokenBackend);
    let mut player =
        crate::player::mcts::MctsPlayer::with_evaluator(crate::player::spec::MctsSpec::default(), Box::new(net));
    let p = Position::startpos(Variant::default());
    let e = crate::player::Player::choose(&mut player, &p, &[]).unwrap_err();
    assert_eq!(e.to_string(), "network evaluation failed: CUDA error: device lost");
    let cfg = SelfPlayConfig { total_games: 1, ..SelfPlayConfig::default() };
    let mut net = crate::nn::NetworkEvaluator::new(BrokenBackend);
    let r = run(&cfg, &mut net, &mut |_| {}, &mut |_| {});
    assert_eq!(r.unwrap_err(), crate::nn::EvalError("CUDA error: device lost".into()));
}

#[test]
fn quasi_alice_self_play_records_replay_through_a_shard() {
    use crate::quasi_alice::Position as Qa;
    let cfg = SelfPlayConfig {
        concurrent_games: 3,
        total_games: 3,
        seed: 4,
        search: SearchConfig { max_batch: 8, ..SearchConfig::default() },
        full_simulations: 8,
        cheap_simulations: 4,
        full_search_prob: 0.5,
        random_opening_plies: 2,
        ply_cap: 30,
        ..SelfPlayConfig::with_start(Qa::start())
    };
    let mut games = Vec::new();
    let p = run(&cfg, &mut UniformEvaluator::default(), &mut |g| games.push(g), &mut |_| {}).unwrap();
    assert_eq!((games.len(), p.games), (3, 3));
    let dir = temp_dir("qa-shard");
    let path = dir.join("qa.shard");
    write_shard(&path, &games).unwrap();
    let back = read_shard(&path).unwrap();
    assert_eq!(back, games);
    for g in &back {
        assert_eq!(g.variant.ruleset, "quasi-alice");
        assert!(g.replay().is_err(), "a Quasi-Alice record is not a 5x5x5 game");
        let positions = g.replay_of::<Qa>().expect("replays as Quasi-Alice");
        assert_eq!(positions.len(), g.moves.len() + 1);
        for rec in &g.positions {
            let legal: Vec<u32> = positions[rec.ply as usize].legal_moves().iter().map(|m| m.bits()).collect();
            assert!(rec.policy.iter().all(|(bits, _)| legal.contains(bits)));
        }
        let text = super::export::record_text(g).unwrap();
        assert!(text.contains("[Ruleset \"quasi-alice\"]"), "{text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
