//! Writes valid seed inputs for every fuzz target into `corpus/<target>/` (run from `fuzz/`):
//! `cargo run --release --bin make_corpus [--features torch]`.

use fiveup::eval::records::TextRecord;
use fiveup::rules::notation::format_line;
use fiveup::rules::{Move, Position, Setup, Variant};
use fiveup::selfplay::records::{SetupRecord, VariantRecord};
use fiveup::selfplay::shards::encode_shard;
use fiveup::selfplay::{GameRecord, GameResult, PositionRecord, Termination};
use fiveup::train::checkpoint;
use fiveup::train::learner::{Learner, NullLearner};
use fiveup::train::rundir::RunDir;
use fiveup_fuzz::variants;
use std::fs;
use std::path::Path;

fn seed(target: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new("corpus").join(target);
    fs::create_dir_all(&dir).expect("corpus dir");
    fs::write(dir.join(name), bytes).expect("write seed");
}

/// A game of `plies` pseudo-random legal moves (fewer if it ends).
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

fn main() {
    for (i, &v) in variants().iter().enumerate() {
        let game = random_game(v, 30, i as u64 + 1);
        let mut bytes = vec![i as u8];
        bytes.extend_from_slice(Position::startpos(v).to_text().as_bytes());
        seed("position_text", &format!("start-{i}"), &bytes);
        let mut bytes = vec![i as u8];
        bytes.extend_from_slice(position_after(v, &game).to_text().as_bytes());
        seed("position_text", &format!("game-{i}"), &bytes);
        let mut bytes = vec![i as u8];
        bytes.extend_from_slice(format_line(&Position::startpos(v), &game).as_bytes());
        seed("move_text", &format!("line-{i}"), &bytes);
        let mid = position_after(v, &game[..10]);
        let mut bytes = vec![i as u8];
        bytes.extend_from_slice(format!("{}\n{}", mid.to_text(), format_line(&mid, &game[10..])).as_bytes());
        seed("move_text", &format!("from-{i}"), &bytes);
        let rec = TextRecord {
            event: "match".into(),
            white: "ab:depth=1".into(),
            black: "random:seed=0".into(),
            start: Position::startpos(v),
            moves: game.clone(),
            opening_plies: 2,
            outcome: None,
            detail: None,
            tags: vec![("Game".into(), i.to_string())],
        };
        seed("game_records", &format!("game-{i}"), rec.to_text().as_bytes());
    }
    for (i, spec) in [
        "ab:depth=3",
        "ab:nodes=1000,time=0.5,hash=16,keep=1",
        "random:seed=7",
        "mcts:ab,sims=64,kind=gumbel,qs=1",
        "mcts:net=nets/x,time=1,cpuct=1.5,batch=8,seed=3",
    ]
    .iter()
    .enumerate()
    {
        seed("player_spec", &format!("spec-{i}"), spec.as_bytes());
    }
    for name in ["quick", "cpu"] {
        let text = fs::read_to_string(format!("../configs/{name}.toml")).expect("shipped config");
        seed("config_toml", name, text.as_bytes());
        seed(
            "config_toml",
            &format!("{name}-set"),
            format!("{text}#--set\nselfplay.games_per_generation=5\ntraining.lr=0.01\nbootstrap.engine=ab:depth=1\n")
                .as_bytes(),
        );
    }
    // A shard of two short games with policy targets at every ply.
    let records: Vec<GameRecord> = variants()
        .iter()
        .take(2)
        .enumerate()
        .map(|(i, &v)| {
            let game = random_game(v, 6, 10 + i as u64);
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
                game_index: i as u64,
                evaluator: "fuzz".into(),
            }
        })
        .collect();
    seed("shard", "two-games", &encode_shard(Path::new("seed"), &records).expect("encode"));
    // A checkpoint of the backend-free learner.
    let t = tempfile::tempdir().expect("temp dir");
    let run = RunDir::new(t.path());
    run.create().expect("run dir");
    let l = NullLearner::default();
    let dir = checkpoint::save(&run, &l as &dyn Learner, 3, 0, "fuzz", 2).expect("checkpoint");
    let mut bytes = fs::read(dir.join("meta.json")).expect("meta");
    bytes.push(0xff);
    bytes.extend(fs::read(dir.join("learner.json")).expect("learner"));
    seed("checkpoint", "null-learner", &bytes);
    network_seed();
}

#[cfg(feature = "torch")]
fn network_seed() {
    use fiveup::nn::torch::model::{Model, SIDECAR_FILE, WEIGHTS_FILE};
    use fiveup::nn::torch::{BlockKind, NetConfig};
    let t = tempfile::tempdir().expect("temp dir");
    let config = NetConfig { blocks: 1, channels: 4, block: BlockKind::Factorised, se: false };
    Model::new(&config, tch::Device::Cpu).expect("model").save(t.path()).expect("save");
    let mut bytes = fs::read(t.path().join(SIDECAR_FILE)).expect("sidecar");
    bytes.push(0xff);
    bytes.extend(fs::read(t.path().join(WEIGHTS_FILE)).expect("weights"));
    seed("network_load", "tiny", &bytes);
}

#[cfg(not(feature = "torch"))]
fn network_seed() {}
