//! The checks behind the fuzz targets in `fuzz_targets/`: each function takes arbitrary bytes,
//! feeds them to one of fiveup's readers and panics only when the reader panics or a round trip
//! that must hold breaks. Input framings are described on each function; `make_corpus` writes a
//! valid seed for each.

use fiveup::config::TrainConfig;
use fiveup::eval::records::{parse_records, parse_records_prefix};
use fiveup::nn::Symmetry;
use fiveup::player::spec::PlayerSpec;
use fiveup::rules::bitboard::FULL;
use fiveup::rules::game::Game;
use fiveup::rules::notation::{diagram, figurine, parse_move, tokenize_moves, MoveText};
use fiveup::rules::{Position, Ruleset, Setup, Variant};
use fiveup::selfplay::shards::{decode_shard, record_checksum, HEADER_LEN};
use fiveup::train::checkpoint;
use fiveup::train::learner::{Learner, NullLearner};
use fiveup::train::replay::{game_samples, Targets, TrainBatch};
use fiveup::train::rundir::RunDir;
use std::path::Path;
use std::sync::OnceLock;

/// Every valid variant (ruleset × castling × hypercylinder).
pub fn variants() -> &'static [Variant] {
    static V: OnceLock<Vec<Variant>> = OnceLock::new();
    V.get_or_init(|| {
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
    })
}

/// The variant selected by a byte.
pub fn pick_variant(b: u8) -> Variant {
    let v = variants();
    v[b as usize % v.len()]
}

/// Input: one byte choosing the variant, then a position text. Checks that parsing never panics,
/// that a parsed setup's canonical text parses back to it, and for a valid position that every
/// legal move's figurine and coordinate forms parse back to that move.
pub fn position_text(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let v = pick_variant(sel);
    let text = String::from_utf8_lossy(rest);
    let Ok(setup) = Setup::from_text(&text, v) else { return };
    let canonical = setup.to_text();
    let back = Setup::from_text(&canonical, v).unwrap_or_else(|e| panic!("canonical text {canonical:?}: {e}"));
    assert_eq!(back, setup, "{canonical}");
    if setup.rights.0 & !FULL != 0 {
        return;
    }
    let Ok(pos) = Position::from_setup(setup) else { return };
    pos.check_invariants();
    assert_eq!(Position::from_text(&pos.to_text(), v).expect("valid position text").hash(), pos.hash());
    let _ = diagram(&pos);
    for m in pos.legal_moves() {
        let fig = figurine(&pos, m);
        assert_eq!(parse_move(&pos, &fig), Ok(m), "{canonical}: figurine {fig}");
        assert_eq!(parse_move(&pos, &m.to_string()), Ok(m), "{canonical}: coordinate {m}");
    }
}

/// Input: one byte choosing the variant, then either `POSITION TEXT\nMOVES` or just `MOVES`
/// (played from the start position). Parses the first word as one move, then plays the whole
/// text as a numbered move list.
pub fn move_text(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let v = pick_variant(sel);
    let text = String::from_utf8_lossy(rest);
    let (pos, moves) = match text.split_once('\n') {
        Some((first, tail)) => match Position::from_text(first, v) {
            Ok(p) => (p, tail),
            Err(_) => (Position::startpos(v), &*text),
        },
        None => (Position::startpos(v), &*text),
    };
    let _ = MoveText::parse(moves, v.ruleset);
    if let Ok(m) = parse_move(&pos, moves) {
        assert!(pos.is_legal(m), "{moves:?} resolved to illegal {m}");
    }
    let _ = tokenize_moves(moves);
    let mut game = Game::new(pos);
    let _ = game.play_line(moves);
}

/// Input: a player spec string. A spec that parses prints a canonical form that parses back to
/// the same spec.
pub fn player_spec(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(spec) = text.parse::<PlayerSpec>() else { return };
    let printed = spec.to_string();
    let back: PlayerSpec = printed.parse().unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}: {e}"));
    assert_eq!(back, spec, "{text:?} printed as {printed:?}");
}

/// Input: TOML text; every line after a line `#--set` is a `--set KEY=VALUE` override. A config
/// that validates prints TOML that reads back to the same config.
pub fn config_toml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (toml, sets) = match text.split_once("#--set\n") {
        Some((t, s)) => (t, s.lines().map(str::to_string).collect::<Vec<_>>()),
        None => (&*text, Vec::new()),
    };
    let Ok(cfg) = TrainConfig::from_toml(toml, "fuzz.toml", &sets) else { return };
    let effective = cfg.to_toml();
    let back = TrainConfig::from_toml(&effective, "effective", &[]).unwrap_or_else(|e| panic!("{effective}: {e}"));
    assert_eq!(back, cfg);
    let _ = cfg.hash();
}

/// Input: a shard file. Decodes it, then turns every record into training samples and a batch,
/// as the trainer does; then the same with the records' checksums made right.
pub fn shard(data: &[u8]) {
    check_shard(data);
    // The same bytes with every record's checksum made right, so that damaged payloads reach the
    // record decoder instead of stopping at the checksum.
    let mut fixed = data.to_vec();
    fix_checksums(&mut fixed);
    if fixed != data {
        check_shard(&fixed);
    }
}

/// Rewrites the checksum of every record whose length field fits in the data, with the checksum
/// the header's version names (FNV-1a 32 up to version 2, CRC-32 from version 3).
fn fix_checksums(bytes: &mut [u8]) {
    let Some(version) = bytes.get(8..12) else { return };
    let version = u32::from_le_bytes(version.try_into().expect("4 bytes"));
    let mut at = HEADER_LEN;
    while at + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        let Some(end) = (at + 8).checked_add(len).filter(|&e| e <= bytes.len()) else { return };
        let payload = &bytes[at + 8..end];
        let sum = record_checksum(version, payload);
        bytes[at + 4..at + 8].copy_from_slice(&sum.to_le_bytes());
        at = end;
    }
}

fn check_shard(data: &[u8]) {
    let Ok(records) = decode_shard(Path::new("fuzz.shard"), data) else { return };
    for rec in &records {
        let Ok(samples) = game_samples(rec, &Targets::selfplay(0.5)) else { continue };
        let items: Vec<_> = samples.iter().take(8).map(|s| (s, Symmetry::IDENTITY)).collect();
        let _ = TrainBatch::assemble(&items);
    }
}

/// Input: game-record text (`match --out`, `replay`). Every record that parses prints text that
/// parses back to the same game.
pub fn game_records(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = parse_records(&text);
    let (records, end, _) = parse_records_prefix(&text);
    assert!(end <= text.len());
    for r in &records {
        let printed = r.to_text();
        let back = parse_records(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert_eq!(back.len(), 1, "{printed}");
        assert_eq!(back[0].moves, r.moves, "{printed}");
        assert_eq!(back[0].start.to_text(), r.start.to_text(), "{printed}");
        assert_eq!(back[0].to_text(), printed);
        let _ = r.game();
        let _ = r.positions();
    }
}

/// A file's checksum as a checkpoint's `meta.json` of `version` records it.
fn meta_checksum(version: u64, data: &[u8]) -> String {
    checkpoint::checksum_hex(u32::try_from(version).unwrap_or(u32::MAX), data)
}

/// Splits `data` at the first `0xff` byte (never in UTF-8 text): (before, after).
fn split_ff(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0xff) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// Input: `meta.json`, a `0xff` byte, then `learner.json` of a checkpoint (the backend-free
/// learner's). Verifies the checkpoint as written, then once more with `meta.json`'s size and
/// checksum of `learner.json` made right, and loads it.
pub fn checkpoint(data: &[u8]) {
    let (meta, learner) = split_ff(data);
    let t = tempfile::tempdir().expect("temp dir");
    let run = RunDir::new(t.path());
    let dir = run.checkpoints_dir().join("step-00000001");
    std::fs::create_dir_all(&dir).expect("checkpoint dir");
    std::fs::write(dir.join("meta.json"), meta).expect("write");
    std::fs::write(dir.join("learner.json"), learner).expect("write");
    let _ = checkpoint::verify(&dir);
    let mut l = NullLearner::default();
    let _ = checkpoint::load_latest(&run, &mut l, "fuzz", false);
    // The same meta with learner.json's entry made right, so the learner's reader is reached.
    let Ok(serde_json::Value::Object(mut m)) = serde_json::from_slice::<serde_json::Value>(meta) else { return };
    let version = m.get("version").and_then(|v| v.as_u64()).unwrap_or(1);
    let entry = serde_json::json!([learner.len(), meta_checksum(version, learner)]);
    let files = m.entry("files").or_insert_with(|| serde_json::json!({}));
    if let Some(files) = files.as_object_mut() {
        files.insert("learner.json".into(), entry);
    }
    std::fs::write(dir.join("meta.json"), serde_json::to_vec(&m).expect("json")).expect("write");
    let _ = checkpoint::load_latest(&run, &mut l, "fuzz", true);
    let _ = l.load(&dir);
}

/// Input: `net.json`, a `0xff` byte, then `weights.safetensors` of a network directory. Loads it
/// as written, then with the sidecar's size and checksum of the weights made right, so the
/// safetensors reader and the name and shape checks are reached.
#[cfg(feature = "torch")]
pub fn network_load(data: &[u8]) {
    use fiveup::nn::torch::model::{Model, SIDECAR_FILE, WEIGHTS_FILE};
    let (sidecar, weights) = split_ff(data);
    let t = tempfile::tempdir().expect("temp dir");
    let dir = t.path();
    std::fs::write(dir.join(SIDECAR_FILE), sidecar).expect("write");
    std::fs::write(dir.join(WEIGHTS_FILE), weights).expect("write");
    let _ = Model::load(dir, tch::Device::Cpu);
    let Ok(serde_json::Value::Object(mut m)) = serde_json::from_slice::<serde_json::Value>(sidecar) else { return };
    m.insert("weights_bytes".into(), serde_json::json!(weights.len()));
    if m.contains_key("weights_crc32") {
        m.insert("weights_crc32".into(), serde_json::json!(format!("{:08x}", fiveup::fsutil::crc32(weights))));
    } else {
        m.insert("weights_fnv1a64".into(), serde_json::json!(format!("{:016x}", fiveup::fsutil::legacy::fnv1a64(weights))));
    }
    std::fs::write(dir.join(SIDECAR_FILE), serde_json::to_vec(&m).expect("json")).expect("write");
    let _ = Model::load(dir, tch::Device::Cpu);
}

/// Without the `torch` feature the network loader is not built.
#[cfg(not(feature = "torch"))]
pub fn network_load(_data: &[u8]) {}
