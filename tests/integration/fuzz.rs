//! Property tests that feed every reader of user files and text arbitrary input and structured
//! mutations of valid input (bytes flipped in a shard, a checkpoint truncated, a position text
//! with a character replaced), asserting that each returns `Ok` or `Err` and never panics, and
//! where a round trip is defined, that it holds. The same checks, coverage-guided, are the
//! cargo-fuzz targets in `fuzz/` (see `fuzz/README.md`).
//!
//! Each property runs [`DEFAULT_CASES`] cases (seconds in all); `FIVEUP_FUZZ_CASES=N` runs N,
//! e.g. `FIVEUP_FUZZ_CASES=20000 cargo test --release --test integration fuzz::`.
//!
//! The last section holds the inputs that made a reader panic, as regression tests.

use fiveup::eval::records::{parse_records, parse_records_prefix, TextRecord};
use fiveup::game::line::tokenize_moves;
use fiveup::game::{Game, State};
use fiveup::mixed3d::Position as M3Position;
use fiveup::nn::Symmetry;
use fiveup::player::spec::PlayerSpec;
use fiveup::quasi_alice::Position as QaPosition;
use fiveup::rules::notation::{figurine, format_line, parse_move, MoveText};
use fiveup::rules::{Move, Position, Ruleset, Setup, Variant};
use fiveup::selfplay::records::{SetupRecord, VariantRecord};
use fiveup::selfplay::shards::{decode_shard, encode_shard, record_checksum, HEADER_LEN};
use fiveup::selfplay::{GameRecord, GameResult, PositionRecord, Termination};
use fiveup::train::checkpoint;
use fiveup::train::config::TrainConfig;
use fiveup::train::learner::{Learner, NullLearner};
use fiveup::train::replay::{game_samples, Targets, TrainBatch};
use fiveup::train::rundir::RunDir;
use proptest::prelude::*;
use std::path::Path;

/// Cases per property in a plain `cargo test`.
const DEFAULT_CASES: u32 = 48;

/// The case count: `FIVEUP_FUZZ_CASES`, or [`DEFAULT_CASES`].
fn cases() -> u32 {
    std::env::var("FIVEUP_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES)
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() }
}

/// Every valid variant.
fn variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for rs in Ruleset::ALL {
        for castling in [false, true] {
            for hyper in [false, true] {
                if let Ok(x) = Variant::new(rs, castling, hyper) {
                    v.push(x);
                }
            }
        }
    }
    v
}

fn variant(i: usize) -> Variant {
    let v = variants();
    v[i % v.len()]
}

/// A game of up to `plies` pseudo-random legal moves from the start.
fn random_game(v: Variant, plies: usize, mut state: u64) -> Vec<Move> {
    let mut pos = Position::startpos(v);
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let m = moves[(state >> 33) as usize % moves.len()];
        pos.make(m);
        out.push(m);
    }
    out
}

fn position_after(v: Variant, moves: &[Move]) -> Position {
    let mut p = Position::startpos(v);
    for &m in moves {
        p.make(m);
    }
    p
}

/// One structured mutation of a byte string: replace, insert, delete, duplicate a span, or
/// truncate, at positions taken modulo the length.
#[derive(Clone, Debug)]
enum Mutation {
    Set(usize, u8),
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), 1usize..16).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

/// A printable-ASCII-biased mutation, for text formats (the byte is drawn from the format's
/// own characters most of the time).
fn text_mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![4 => 0x20u8..0x7f, 1 => any::<u8>()];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..8).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), 1usize..8).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let n = bytes.len();
    if n == 0 {
        if let Mutation::Insert(_, b) | Mutation::Set(_, b) = m {
            bytes.push(*b);
        }
        return;
    }
    match *m {
        Mutation::Set(i, b) => bytes[i % n] = b,
        Mutation::Flip(i, bit) => bytes[i % n] ^= 1 << bit,
        Mutation::Insert(i, b) => bytes.insert(i % (n + 1), b),
        Mutation::Delete(i, k) => {
            let at = i % n;
            bytes.drain(at..(at + k).min(n));
        }
        Mutation::Duplicate(i, k) => {
            let at = i % n;
            let span: Vec<u8> = bytes[at..(at + k).min(n)].to_vec();
            bytes.splice(at..at, span);
        }
        Mutation::Truncate(i) => bytes.truncate(i % n),
    }
}

fn mutated(bytes: &[u8], ms: &[Mutation]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for m in ms {
        apply(&mut b, m);
    }
    b
}

/// A file's checksum as a checkpoint's `meta.json` of `version` records it.
fn meta_checksum(version: u64, data: &[u8]) -> String {
    checkpoint::checksum_hex(u32::try_from(version).unwrap_or(u32::MAX), data)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ===== Position and move text ===================================================================

/// Reads a position text; a setup that parses has a canonical text that parses back to it, and
/// a valid position's legal moves read back from their figurine and coordinate forms.
fn check_position_text(text: &str, v: Variant, moves_too: bool) -> Result<(), TestCaseError> {
    let Ok(setup) = Setup::from_text(text, v) else { return Ok(()) };
    let canonical = setup.to_text();
    prop_assert_eq!(Setup::from_text(&canonical, v), Ok(setup.clone()), "canonical {}", canonical);
    let Ok(pos) = Position::from_setup(setup) else { return Ok(()) };
    prop_assert_eq!(Position::from_text(&pos.to_text(), v).map(|p| p.hash()), Ok(pos.hash()));
    if moves_too {
        for m in pos.legal_moves() {
            let fig = figurine(&pos, m);
            prop_assert_eq!(parse_move(&pos, &fig), Ok(m), "{} in {}", fig, canonical);
            prop_assert_eq!(parse_move(&pos, &m.to_string()), Ok(m), "{} in {}", m, canonical);
        }
    }
    Ok(())
}

// ===== 4D Quasi-Alice position and move text ====================================================

/// A game of up to `plies` pseudo-random legal moves from `start`.
fn game_after<S: State>(mut p: S, plies: usize, seed: u64) -> S {
    let mut rng = fiveup::rng::SplitMix64::new(seed);
    for _ in 0..plies {
        let moves = fiveup::game::legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        p.make(moves[rng.below(moves.len())]);
    }
    p
}

/// Reads a position text of a game off the 5x5x5 board with `read`; one that parses prints a text
/// that parses back to the same position, lists as many moves as it counts, and (with
/// `moves_too`) reads every legal move back from its text.
fn check_game_text<S: State + PartialEq, E: std::fmt::Debug>(
    text: &str,
    read: fn(&str) -> Result<S, E>,
    moves_too: bool,
) -> Result<(), TestCaseError> {
    let Ok(p) = read(text) else { return Ok(()) };
    let canonical = p.to_text();
    let back = read(&canonical);
    prop_assert!(back.as_ref().is_ok_and(|b| *b == p), "canonical {}: {:?}", canonical, back.err());
    let moves = fiveup::game::legal_moves(&p);
    prop_assert_eq!(moves.len() as u64, p.count_legal(), "{}", canonical);
    if moves_too {
        for m in moves {
            prop_assert_eq!(p.parse_move(&m.to_string()).ok(), Some(m), "{} in {}", m, canonical);
        }
    }
    Ok(())
}

/// A Quasi-Alice game of up to `plies` pseudo-random legal moves from the start.
fn quasi_alice_after(plies: usize, seed: u64) -> QaPosition {
    game_after(QaPosition::start(), plies, seed)
}

/// [`check_game_text`] for Quasi-Alice.
fn check_quasi_alice_text(text: &str, moves_too: bool) -> Result<(), TestCaseError> {
    check_game_text(text, QaPosition::from_text, moves_too)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn quasi_alice_text_of_any_string(s in "\\PC{0,200}") {
        check_quasi_alice_text(&s, false)?;
    }

    #[test]
    fn quasi_alice_text_of_field_shaped_strings(
        s in "([1-8pnbrqkPNBRQK]{1,8}/){7}[1-8pnbrqkPNBRQK]{1,8}(\\|([1-8pnbrqkPNBRQK]{1,8}/){7}[1-8pnbrqkPNBRQK]{1,8}){3} [wbx] [KQkq-]{1,5} [1-5a-h1-8-]{1,3} [0-9]{1,3} [0-9]{1,3}",
    ) {
        check_quasi_alice_text(&s, false)?;
    }

    #[test]
    fn quasi_alice_mutated_game_positions(seed in any::<u64>(), plies in 0usize..60, ms in prop::collection::vec(text_mutation(), 1..4)) {
        let p = quasi_alice_after(plies, seed);
        check_quasi_alice_text(&p.to_text(), true)?;
        check_quasi_alice_text(&lossy(&mutated(p.to_text().as_bytes(), &ms)), false)?;
    }

    #[test]
    fn quasi_alice_move_text_of_any_string(seed in any::<u64>(), plies in 0usize..40, s in "\\PC{0,16}", t in "[1-5a-i0-9qrbnkx>]{0,10}") {
        let p = quasi_alice_after(plies, seed);
        for text in [&s, &t] {
            if let Ok(m) = p.parse_move(text) {
                prop_assert!(p.legal_moves().contains(&m));
            }
        }
    }
}

// ===== Mixed 3D position and move text ==========================================================

/// A Mixed 3D game of up to `plies` pseudo-random legal moves from the start.
fn mixed3d_after(plies: usize, seed: u64) -> M3Position {
    game_after(M3Position::start(), plies, seed)
}

/// [`check_game_text`] for Mixed 3D.
fn check_mixed3d_text(text: &str, moves_too: bool) -> Result<(), TestCaseError> {
    check_game_text(text, M3Position::from_text, moves_too)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mixed3d_text_of_any_string(s in "\\PC{0,200}") {
        check_mixed3d_text(&s, false)?;
    }

    #[test]
    fn mixed3d_text_of_field_shaped_strings(
        s in "([1-8pnbrqkcPNBRQKC]{1,8}/){7}[1-8pnbrqkcPNBRQKC]{1,8}(\\|([1-8pnbrqkcPNBRQKC]{1,8}/){7}[1-8pnbrqkcPNBRQKC]{1,8}){7} [wbx] ([1-8][ah][18],?){0,3}-? [1-8a-h1-8-]{1,3} [0-9]{1,3} [0-9]{1,3}",
    ) {
        check_mixed3d_text(&s, false)?;
    }

    #[test]
    fn mixed3d_mutated_game_positions(seed in any::<u64>(), plies in 0usize..60, ms in prop::collection::vec(text_mutation(), 1..4)) {
        let p = mixed3d_after(plies, seed);
        check_mixed3d_text(&p.to_text(), true)?;
        check_mixed3d_text(&lossy(&mutated(p.to_text().as_bytes(), &ms)), false)?;
    }

    #[test]
    fn mixed3d_move_text_of_any_string(seed in any::<u64>(), plies in 0usize..40, s in "\\PC{0,16}", t in "[1-9a-i0-9x=QRBNKC-]{0,10}") {
        let p = mixed3d_after(plies, seed);
        for text in [&s, &t] {
            if let Ok(m) = p.parse_move(text) {
                prop_assert!(p.legal_moves().contains(&m));
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn position_text_of_any_string(v in 0usize..16, s in "\\PC{0,160}") {
        check_position_text(&s, variant(v), false)?;
    }

    #[test]
    fn position_text_of_field_shaped_strings(
        v in 0usize..16,
        s in "[1-5pnbrqkuswgPNBRQKUSWG/|]{20,60} [wbx] [WGSwgs-]{1,4} [A-Ea-e1-5-]{1,12} [A-Ea-e1-5@-]{1,8} [0-9]{1,3} [0-9]{1,3}",
    ) {
        check_position_text(&s, variant(v), false)?;
    }

    #[test]
    fn mutated_game_positions(v in 0usize..16, seed in any::<u64>(), plies in 0usize..40, ms in prop::collection::vec(text_mutation(), 1..4)) {
        let v = variant(v);
        let pos = position_after(v, &random_game(v, plies, seed));
        // The unmutated text round-trips, with every legal move's two forms.
        check_position_text(&pos.to_text(), v, true)?;
        check_position_text(&lossy(&mutated(pos.to_text().as_bytes(), &ms)), v, false)?;
    }

    #[test]
    fn move_text_of_any_string(v in 0usize..16, seed in any::<u64>(), plies in 0usize..30, s in "\\PC{0,40}", t in "[A-Ea-e1-5PNBRQKUSWGx=/+#!? .-]{0,16}") {
        let v = variant(v);
        let pos = position_after(v, &random_game(v, plies, seed));
        for text in [&s, &t] {
            let _ = MoveText::parse(text, v.ruleset);
            if let Ok(m) = parse_move(&pos, text) {
                prop_assert!(pos.is_legal(m), "{} resolved to an illegal move", text);
            }
            let _ = tokenize_moves(text);
            let _ = Game::new(pos.clone()).play_line(text);
        }
    }

    #[test]
    fn mutated_move_lines(v in 0usize..16, seed in any::<u64>(), plies in 1usize..30, ms in prop::collection::vec(text_mutation(), 1..4)) {
        let v = variant(v);
        let start = Position::startpos(v);
        let game = random_game(v, plies, seed);
        let line = format_line(&start, &game);
        let mut g = Game::new(start.clone());
        prop_assert_eq!(g.play_line(&line).ok(), Some(game.len()), "{}", line);
        prop_assert_eq!(g.moves(), &game[..]);
        let _ = Game::new(start).play_line(&lossy(&mutated(line.as_bytes(), &ms)));
    }
}

// ===== Player specs =============================================================================

fn check_spec(text: &str) -> Result<(), TestCaseError> {
    let Ok(spec) = text.parse::<PlayerSpec>() else { return Ok(()) };
    let printed = spec.to_string();
    prop_assert_eq!(printed.parse::<PlayerSpec>(), Ok(spec), "{:?} printed as {:?}", text, printed);
    Ok(())
}

/// A spec assembled from real kinds, keys and values (and some that are not).
fn spec_string() -> impl Strategy<Value = String> {
    let kind = prop_oneof![Just("ab"), Just("alphabeta"), Just("random"), Just("mcts"), Just("x"), Just("")];
    let key = prop_oneof![
        Just("depth"),
        Just("nodes"),
        Just("time"),
        Just("hash"),
        Just("values"),
        Just("keep"),
        Just("seed"),
        Just("sims"),
        Just("kind"),
        Just("batch"),
        Just("cpuct"),
        Just("qs"),
        Just("net"),
        Just("uniform"),
        Just("ab"),
        Just("weights"),
        Just("")
    ];
    let value = prop_oneof![
        "[0-9]{1,25}",
        "-?[0-9]{0,3}\\.?[0-9]{0,12}(e-?[0-9]{1,3})?",
        "[0-9]{1,9}\\.[0-9]{1,12}",
        Just("puct".to_string()),
        Just("gumbel".to_string()),
        Just("inf".to_string()),
        Just("NaN".to_string()),
        "\\PC{0,8}"
    ];
    let part = (key, prop::option::of(value)).prop_map(|(k, v)| match v {
        Some(v) => format!("{k}={v}"),
        None => k.to_string(),
    });
    (kind, prop::collection::vec(part, 0..5)).prop_map(|(k, parts)| format!("{k}:{}", parts.join(",")))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn player_spec_of_any_string(s in "\\PC{0,60}") {
        check_spec(&s)?;
    }

    #[test]
    fn player_spec_of_assembled_parts(s in spec_string()) {
        check_spec(&s)?;
    }
}

// ===== Training configs and --set ==============================================================

const QUICK: &str = include_str!("../../configs/quick.toml");
const CPU: &str = include_str!("../../configs/cpu.toml");

fn check_config(text: &str, sets: &[String]) -> Result<(), TestCaseError> {
    let Ok(cfg) = TrainConfig::from_toml(text, "fuzz.toml", sets) else { return Ok(()) };
    let effective = cfg.to_toml();
    prop_assert_eq!(TrainConfig::from_toml(&effective, "effective", &[]).ok(), Some(cfg.clone()), "{}", effective);
    let _ = cfg.hash();
    Ok(())
}

/// A `--set` assignment over real and made-up keys, with TOML and non-TOML values.
fn assignment() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("seed"),
        Just("generations"),
        Just("rules.ruleset"),
        Just("rules.castling"),
        Just("network.blocks"),
        Just("network.block"),
        Just("selfplay.games_per_generation"),
        Just("selfplay.temperature"),
        Just("training.lr"),
        Just("training.batch_size"),
        Just("replay.window_min"),
        Just("bootstrap.engine"),
        Just("evaluation"),
        Just("selfplay"),
        Just("a.b.c"),
        Just(""),
        Just("."),
        Just("training..lr")
    ];
    let value = prop_oneof![
        "-?[0-9]{1,22}",
        "-?[0-9]{0,4}\\.[0-9]{0,8}",
        Just("true".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("\"fiveup\"".to_string()),
        Just("[1, 2]".to_string()),
        Just("{ a = 1 }".to_string()),
        Just("1\nx = 2".to_string()),
        "\\PC{0,12}"
    ];
    prop_oneof![
        9 => (key, value).prop_map(|(k, v)| format!("{k}={v}")),
        1 => "\\PC{0,20}",
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn config_of_any_string(s in "\\PC{0,200}", sets in prop::collection::vec("\\PC{0,30}", 0..3)) {
        check_config(&s, &sets)?;
    }

    #[test]
    fn mutated_shipped_configs(cpu in any::<bool>(), ms in prop::collection::vec(text_mutation(), 1..5)) {
        let text = if cpu { CPU } else { QUICK };
        check_config(&lossy(&mutated(text.as_bytes(), &ms)), &[])?;
    }

    #[test]
    fn shipped_configs_with_overrides(cpu in any::<bool>(), sets in prop::collection::vec(assignment(), 1..4)) {
        check_config(if cpu { CPU } else { QUICK }, &sets)?;
    }
}

// ===== Shards and training records ==============================================================

/// A self-play record of a pseudo-random game with a uniform policy target at every ply.
fn game_record(v: Variant, plies: usize, seed: u64) -> GameRecord {
    let game = random_game(v, plies, seed);
    let mut pos = Position::startpos(v);
    let mut positions = Vec::new();
    for (ply, &m) in game.iter().enumerate() {
        let legal = pos.legal_moves();
        let p = 1.0 / legal.len() as f32;
        positions.push(PositionRecord {
            ply: ply as u32,
            policy: legal.iter().map(|m| (m.bits(), p)).collect(),
            root_wdl: [0.3, 0.4, 0.3],
            nn_wdl: [0.2, 0.5, 0.3],
            simulations: 10,
            engine_score: if ply % 2 == 0 { Some(25) } else { None },
        });
        pos.make(m);
    }
    GameRecord {
        variant: VariantRecord::from_variant(v),
        start: SetupRecord::from_setup(&Setup::start(v)),
        moves: game.iter().map(|m| m.bits()).collect(),
        positions,
        result: GameResult::Draw,
        termination: Termination::PlyCap,
        resign_disabled: false,
        would_resign_ply: None,
        game_index: seed,
        evaluator: "fuzz".into(),
    }
}

/// Decodes shard bytes and turns every record into samples and a batch, as the trainer does.
fn check_shard(bytes: &[u8]) {
    let Ok(records) = decode_shard(Path::new("fuzz.shard"), bytes) else { return };
    for rec in &records {
        let Ok(samples) = game_samples::<fiveup::rules::Position>(rec, &Targets::selfplay(0.5)) else { continue };
        let items: Vec<_> = samples.iter().take(4).map(|s| (s, Symmetry::IDENTITY)).collect();
        let _ = TrainBatch::assemble(&items);
    }
}

/// Rewrites the checksum of every record whose length field still fits, so that a mutation in a
/// payload reaches the record decoder instead of stopping at the checksum. The checksum is the
/// one the header's version names (FNV-1a 32 up to version 2, CRC-32 from version 3).
fn fix_checksums(bytes: &mut [u8]) {
    let Some(version) = bytes.get(8..12) else { return };
    let version = u32::from_le_bytes(version.try_into().unwrap());
    let mut at = HEADER_LEN;
    while at + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let Some(end) = (at + 8).checked_add(len).filter(|&e| e <= bytes.len()) else { return };
        let s = record_checksum(version, &bytes[at + 8..end]);
        bytes[at + 4..at + 8].copy_from_slice(&s.to_le_bytes());
        at = end;
    }
}

fn shard_bytes(v: usize, seed: u64) -> (Vec<GameRecord>, Vec<u8>) {
    let records = vec![game_record(variant(v), 8, seed), game_record(variant(v + 1), 3, seed ^ 1)];
    let bytes = encode_shard(Path::new("seed.shard"), &records).unwrap();
    (records, bytes)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn shard_of_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256), header in any::<bool>()) {
        let mut b = Vec::new();
        if header {
            b.extend_from_slice(b"FIVEUPSH\x02\0\0\0\x01\0\0\0\0\0\0\0");
        }
        b.extend_from_slice(&bytes);
        check_shard(&b);
    }

    #[test]
    fn shards_round_trip(v in 0usize..16, seed in any::<u64>()) {
        let (records, bytes) = shard_bytes(v, seed);
        prop_assert_eq!(decode_shard(Path::new("seed.shard"), &bytes).unwrap(), records);
    }

    /// A record's moves and policy entries are raw bits: any bits either name a legal move or
    /// are rejected, in `replay` and through the trainer's sample builder.
    #[test]
    fn records_with_any_move_bits(v in 0usize..16, seed in any::<u64>(), bits in prop::collection::vec(any::<u32>(), 1..4), at in any::<usize>()) {
        let mut rec = game_record(variant(v), 6, seed);
        let at = at % (rec.moves.len() + 1);
        rec.moves.splice(at..at, bits.iter().map(|b| b & ((1 << 22) - 1)));
        // Policy entries keep their probabilities (records are validated as they are read) but
        // name arbitrary moves.
        for p in &mut rec.positions {
            p.policy.iter_mut().zip(&bits).for_each(|(e, &b)| e.0 = b);
        }
        let bytes = encode_shard(Path::new("seed.shard"), &[rec.clone()]).unwrap();
        check_shard(&bytes);
        let _ = rec.replay();
    }

    #[test]
    fn mutated_shards(v in 0usize..16, seed in any::<u64>(), ms in prop::collection::vec(mutation(), 1..4), fix in any::<bool>()) {
        let (_, bytes) = shard_bytes(v, seed);
        let mut b = mutated(&bytes, &ms);
        if fix {
            fix_checksums(&mut b);
        }
        check_shard(&b);
    }
}

/// The checksum fixer writes the checksum the reader expects: a payload edited in place decodes
/// once it has run (so the mutated properties above do reach the record decoder).
#[test]
fn fixed_checksums_reach_the_decoder() {
    let (records, bytes) = shard_bytes(0, 7);
    let at = bytes.windows(4).position(|w| w == b"fuzz").unwrap();
    let mut edited = bytes.clone();
    edited[at + 3] = b'y';
    assert!(decode_shard(Path::new("seed.shard"), &edited).is_err(), "the checksum catches the edit");
    fix_checksums(&mut edited);
    let back = decode_shard(Path::new("seed.shard"), &edited).unwrap();
    assert_eq!(back[0].evaluator, "fuzy");
    assert_eq!(back[1], records[1]);
}

// ===== Game records (match --out, replay) =======================================================

fn record_text(v: Variant, plies: usize, seed: u64) -> String {
    let rec = TextRecord {
        event: "match".into(),
        white: "ab:depth=1".into(),
        black: "random:seed=0".into(),
        start: Position::startpos(v),
        moves: random_game(v, plies, seed),
        opening_plies: 1.min(plies),
        outcome: None,
        detail: None,
        tags: vec![("Game".into(), "1".into())],
    };
    rec.to_text()
}

fn check_records(text: &str) -> Result<(), TestCaseError> {
    let _ = parse_records(text);
    let (records, end, _) = parse_records_prefix(text);
    prop_assert!(end <= text.len());
    for r in &records {
        let printed = r.to_text();
        let back = parse_records(&printed);
        prop_assert!(back.is_ok(), "{}: {:?}", printed, back.err());
        let back = back.unwrap();
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(&back[0].moves, &r.moves);
        prop_assert_eq!(back[0].to_text(), printed);
        let _ = r.positions();
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn game_records_of_any_string(s in "\\PC{0,200}") {
        check_records(&s)?;
        check_records(&format!("[Event \"m\"]\n[Start \"startpos\"]\n\n{s}"))?;
    }

    #[test]
    fn mutated_game_records(v in 0usize..16, seed in any::<u64>(), plies in 0usize..30, ms in prop::collection::vec(text_mutation(), 1..4)) {
        let text = record_text(variant(v), plies, seed);
        let (records, end, err) = parse_records_prefix(&text);
        prop_assert!(err.is_none() && records.len() == 1 && end == text.len(), "{}: {:?}", text, err);
        check_records(&lossy(&mutated(text.as_bytes(), &ms)))?;
    }
}

// ===== Checkpoints =============================================================================

proptest! {
    #![proptest_config(config())]

    /// A saved checkpoint of the backend-free learner with `meta.json` or `learner.json`
    /// mutated (and, half the time, `meta.json`'s checksum made right again) loads or fails
    /// with an error.
    #[test]
    fn mutated_checkpoints(meta_side in any::<bool>(), fix in any::<bool>(), ms in prop::collection::vec(text_mutation(), 1..4)) {
        let t = tempfile::tempdir().unwrap();
        let run = RunDir::new(t.path());
        run.create().unwrap();
        let dir = checkpoint::save(&run, &NullLearner::default() as &dyn Learner, 5, 0, "h", 2).unwrap();
        let file = dir.join(if meta_side { "meta.json" } else { "learner.json" });
        let original = std::fs::read(&file).unwrap();
        let bytes = mutated(&original, &ms);
        std::fs::write(&file, &bytes).unwrap();
        if fix && !meta_side {
            let meta = std::fs::read_to_string(dir.join("meta.json")).unwrap();
            let mut m: serde_json::Value = serde_json::from_str(&meta).unwrap();
            let version = m["version"].as_u64().unwrap_or(1);
            m["files"]["learner.json"] = serde_json::json!([bytes.len(), meta_checksum(version, &bytes)]);
            std::fs::write(dir.join("meta.json"), m.to_string()).unwrap();
        }
        let _ = checkpoint::verify(&dir);
        let mut l = NullLearner::default();
        let loaded = checkpoint::load_latest(&run, &mut l, "h", false);
        // A damaged learner file that meta.json still describes is caught by its checksum.
        if !meta_side && !fix && bytes != original {
            prop_assert!(loaded.is_err());
        }
    }
}

/// The meta fixer writes the checksum `verify` expects: an edited learner file loads once it ran.
#[test]
fn fixed_checkpoint_checksums_load() {
    let t = tempfile::tempdir().unwrap();
    let run = RunDir::new(t.path());
    run.create().unwrap();
    let dir = checkpoint::save(&run, &NullLearner::default() as &dyn Learner, 5, 0, "h", 2).unwrap();
    let text = std::fs::read_to_string(dir.join("learner.json")).unwrap();
    let edited = text.replace("\"steps\":0", "\"steps\":7");
    assert_ne!(edited, text);
    std::fs::write(dir.join("learner.json"), &edited).unwrap();
    assert!(checkpoint::verify(&dir).is_err(), "the checksum catches the edit");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    let version = m["version"].as_u64().unwrap_or(1);
    m["files"]["learner.json"] = serde_json::json!([edited.len(), meta_checksum(version, edited.as_bytes())]);
    std::fs::write(dir.join("meta.json"), m.to_string()).unwrap();
    let mut l = NullLearner::default();
    checkpoint::load_latest(&run, &mut l, "h", false).unwrap();
    assert_eq!(l.steps(), 7);
}

// ===== Networks (torch) ==========================================================================

#[cfg(feature = "torch")]
mod network {
    use super::*;
    use fiveup::nn::torch::model::{Model, SIDECAR_FILE, WEIGHTS_FILE};
    use fiveup::nn::torch::{BlockKind, NetConfig};
    use std::sync::OnceLock;

    /// A tiny saved network's (sidecar, weights).
    fn tiny() -> &'static (Vec<u8>, Vec<u8>) {
        static T: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
        T.get_or_init(|| {
            let t = tempfile::tempdir().unwrap();
            let config = NetConfig { blocks: 1, channels: 4, block: BlockKind::Factorised, se: false };
            Model::new(&config, tch::Device::Cpu).unwrap().save(t.path()).unwrap();
            (std::fs::read(t.path().join(SIDECAR_FILE)).unwrap(), std::fs::read(t.path().join(WEIGHTS_FILE)).unwrap())
        })
    }

    proptest! {
        #![proptest_config(config())]

        /// Mutated weights (with the sidecar's size and checksum made right, so the safetensors
        /// reader and the name and shape checks are reached) or a mutated sidecar load or fail
        /// with an error.
        #[test]
        fn mutated_networks(weights_side in any::<bool>(), ms in prop::collection::vec(mutation(), 1..4)) {
            let (sidecar, weights) = tiny();
            let t = tempfile::tempdir().unwrap();
            let (sidecar, weights) = if weights_side {
                let w = mutated(weights, &ms);
                let mut s: serde_json::Value = serde_json::from_slice(sidecar).unwrap();
                s["weights_bytes"] = serde_json::json!(w.len());
                if s.get("weights_crc32").is_some() {
                    s["weights_crc32"] = serde_json::json!(format!("{:08x}", fiveup::fsutil::crc32(&w)));
                } else {
                    s["weights_fnv1a64"] = serde_json::json!(format!("{:016x}", fiveup::fsutil::legacy::fnv1a64(&w)));
                }
                (s.to_string().into_bytes(), w)
            } else {
                (mutated(sidecar, &ms), weights.clone())
            };
            std::fs::write(t.path().join(SIDECAR_FILE), &sidecar).unwrap();
            std::fs::write(t.path().join(WEIGHTS_FILE), &weights).unwrap();
            let _ = Model::load(t.path(), tch::Device::Cpu);
        }
    }

    /// A sidecar fixed for edited weights is accepted (so the mutated property reaches the
    /// safetensors reader): the last byte of the last tensor changed, it still loads.
    #[test]
    fn fixed_sidecar_checksums_load() {
        let (sidecar, weights) = tiny();
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join(SIDECAR_FILE), sidecar).unwrap();
        let mut w = weights.clone();
        *w.last_mut().unwrap() ^= 1;
        std::fs::write(t.path().join(WEIGHTS_FILE), &w).unwrap();
        assert!(Model::load(t.path(), tch::Device::Cpu).is_err(), "the checksum catches the edit");
        let mut s: serde_json::Value = serde_json::from_slice(sidecar).unwrap();
        if s.get("weights_crc32").is_some() {
            s["weights_crc32"] = serde_json::json!(format!("{:08x}", fiveup::fsutil::crc32(&w)));
        } else {
            s["weights_fnv1a64"] = serde_json::json!(format!("{:016x}", fiveup::fsutil::legacy::fnv1a64(&w)));
        }
        std::fs::write(t.path().join(SIDECAR_FILE), s.to_string()).unwrap();
        assert_eq!(Model::load(t.path(), tch::Device::Cpu).unwrap().config().channels, 4);
    }
}

// ===== Regressions: inputs the fuzzers found =====================================================

/// `ab:time=5e-120` was accepted as a positive time that rounds to a zero duration, printed as
/// `time=0`, which does not parse (found by the `player_spec` fuzz target).
#[test]
fn a_time_below_a_nanosecond_is_refused() {
    // The fuzzer's input, then shorter ones.
    const FOUND: &str = "ab:nodes=1000,time=0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000005,hash=16,keep=1";
    for spec in [FOUND, "ab:time=5e-120", "mcts:time=0.0000000001", "ab:nodes=1000,time=4e-10,hash=16"] {
        let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains("time=") && e.contains("seconds"), "{spec}: {e}");
    }
    let spec: PlayerSpec = "ab:time=1e-9".parse().unwrap();
    assert_eq!(spec.to_string().parse::<PlayerSpec>().unwrap(), spec);
}

/// A small valid table file (Raumschach K+Q against K), built once.
fn table_file() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| {
        use fiveup::tablebase::{build, file, Family, Material};
        let dir = tempfile::tempdir().unwrap();
        let m = Material::parse(Family::Raumschach, "KQvK").unwrap();
        build(dir.path(), std::slice::from_ref(&m), false, &std::sync::atomic::AtomicBool::new(false), |_| {}).unwrap();
        std::fs::read(file::path_in(dir.path(), &m)).unwrap()
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn material_text_of_any_string(s in "\\PC{0,40}", fiveup in any::<bool>()) {
        use fiveup::tablebase::{Family, Material};
        let family = if fiveup { Family::FiveUp } else { Family::Raumschach };
        if let Ok(m) = Material::parse(family, &s) {
            prop_assert_eq!(Material::parse(family, &m.to_string()), Ok(m));
        }
    }

    #[test]
    fn a_table_file_with_bytes_changed_or_cut_is_refused_not_a_panic(
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
    ) {
        use fiveup::tablebase::file::decode;
        let good = table_file();
        let p = Path::new("KQvK.tb");
        let mut changed = good.to_vec();
        let i = at.index(changed.len());
        changed[i] ^= byte | 1;
        prop_assert!(decode(p, &changed, None).is_err(), "a changed byte at {} was accepted", i);
        let short = &good[..cut.index(good.len())];
        prop_assert!(decode(p, short, None).is_err());
        prop_assert!(decode(p, good, None).is_ok());
    }

    #[test]
    fn a_table_file_of_arbitrary_bytes_is_refused(b in proptest::collection::vec(any::<u8>(), 0..400), magic in any::<bool>()) {
        use fiveup::tablebase::file::decode;
        let mut bytes = if magic { b"FIVEUPTB".to_vec() } else { Vec::new() };
        bytes.extend(b);
        prop_assert!(decode(Path::new("x.tb"), &bytes, None).is_err());
    }
}
