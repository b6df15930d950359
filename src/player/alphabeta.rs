//! `ab:…`: the alpha-beta engine as a player.

use super::spec::{AlphaBetaSpec, EvalChoice, PlayerSpec};
use super::{BuildError, Choice, Go, PlayError, Player, SearchInfo, Turn};
use crate::catalog::{GameId, NotAvailable};
use crate::engine::mixed3d::{M3Board, M3Weights};
use crate::engine::quasi_alice::{QaBoard, QaWeights};
use crate::engine::{Engine, EngineConfig, Limits, SearchBoard, Weights, WeightsError};
use crate::game::State;
use crate::rules::{Position, Ruleset, Variant};
use crate::tablebase::Tablebases;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The alpha-beta engine as a player. Its engine is built for the ruleset of the first position
/// it is asked about (and rebuilt if the ruleset changes), with that ruleset's default weights
/// overridden by the spec's file.
pub struct AlphaBetaPlayer {
    spec: AlphaBetaSpec,
    values_text: Option<String>,
    /// The network of `eval=nnue:PATH`, read and checked when the player is made.
    net: Option<Arc<crate::engine::nnue::Network>>,
    engine: Option<(Variant, Engine)>,
    stop: Option<Arc<AtomicBool>>,
    /// The endgame tables of `tb=DIR`, opened when the player is made.
    tablebases: Option<Arc<Tablebases>>,
}

impl AlphaBetaPlayer {
    /// A player from its settings; reads and checks the weights file.
    pub fn new(spec: AlphaBetaSpec) -> Result<AlphaBetaPlayer, WeightsError> {
        let values_text = match &spec.values {
            Some(p) => {
                let text =
                    std::fs::read_to_string(p).map_err(|e| WeightsError::Io(p.display().to_string(), e.to_string()))?;
                Weights::from_toml_str(Ruleset::FiveUp, &text)?;
                Some(text)
            }
            None => None,
        };
        let net = match &spec.eval {
            EvalChoice::Nnue(p) => Some(Arc::new(
                crate::engine::nnue::Network::load(p, None).map_err(|e| WeightsError::Network(e.to_string()))?,
            )),
            _ => None,
        };
        // The table is built at the first search; a size that cannot fit is refused now.
        crate::engine::tt::check_fits(spec.hash_mb).map_err(WeightsError::Table)?;
        let tablebases = match &spec.tablebases {
            Some(dir) => Some(
                Tablebases::open_shared(dir).map_err(|e| WeightsError::Tablebase(format!("{}: {e}", dir.display())))?,
            ),
            None => None,
        };
        Ok(AlphaBetaPlayer { spec, values_text, net, engine: None, stop: None, tablebases })
    }

    /// Searches `pos` under the spec's limits, calling `on_iteration` after every completed depth.
    pub fn analyse(
        &mut self,
        pos: &Position,
        history: &[u64],
        on_iteration: impl FnMut(&crate::engine::Iteration),
    ) -> Result<crate::engine::SearchResult, WeightsError> {
        let limits = self.spec.limits.clone();
        let stop = self.stop.clone();
        let engine = self.engine_for(pos.variant())?;
        Ok(engine.search(pos, history, &limits, stop.as_ref(), on_iteration))
    }

    fn engine_for(&mut self, variant: Variant) -> Result<&mut Engine, WeightsError> {
        let rs = variant.ruleset;
        if !matches!(&self.engine, Some((v, _)) if *v == variant) {
            let weights = match &self.values_text {
                Some(t) => Weights::from_toml_str(rs, t)?,
                None => Weights::for_ruleset(rs),
            };
            let net = match &self.spec.eval {
                EvalChoice::Hand => None,
                EvalChoice::Shipped => {
                    Some(crate::engine::nnue::shipped(rs).map_err(|e| WeightsError::Network(e.to_string()))?)
                }
                // Only on the board the network was trained and measured on.
                EvalChoice::Auto if crate::engine::nnue::ships(rs) && variant == Variant::plain(rs) => {
                    Some(crate::engine::nnue::shipped(rs).map_err(|e| WeightsError::Network(e.to_string()))?)
                }
                EvalChoice::Auto => None,
                EvalChoice::Nnue(p) => {
                    let net = self.net.clone().expect("loaded by new");
                    if net.ruleset != rs {
                        return Err(WeightsError::Network(format!(
                            "{}: a network for {}, but the game is {rs}",
                            p.display(),
                            net.ruleset
                        )));
                    }
                    Some(net)
                }
            };
            let config =
                EngineConfig { hash_mb: self.spec.hash_mb, keep_tt: self.spec.keep_tt, threads: self.spec.threads };
            let mut engine = Engine::try_new(weights, config)?;
            engine.set_network(net);
            engine.set_tablebases(self.tablebases.clone());
            self.engine = Some((variant, engine));
        }
        Ok(&mut self.engine.as_mut().expect("just built").1)
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        PlayerSpec::AlphaBeta(self.spec.clone()).to_string()
    }

    fn evaluation(&self, pos: &Position) -> Option<String> {
        let variant = pos.variant();
        let rs = variant.ruleset;
        let hand = || match &self.spec.values {
            Some(v) => format!("hand evaluation with the values of {}", v.display()),
            None => "hand evaluation".to_string(),
        };
        let tables = match &self.tablebases {
            Some(tb) => format!(", endgame tables from {}", tb.dir().display()),
            None => String::new(),
        };
        let eval = match &self.spec.eval {
            EvalChoice::Hand => hand(),
            EvalChoice::Shipped => format!("NNUE, the network shipped for {rs}"),
            EvalChoice::Nnue(p) => format!("NNUE {}", p.display()),
            EvalChoice::Auto if crate::engine::nnue::ships(rs) && variant == Variant::plain(rs) => {
                format!("NNUE, the network shipped for {rs} (eval=auto)")
            }
            EvalChoice::Auto => format!("{} (eval=auto: no network shipped for this board)", hand()),
        };
        Some(eval + &tables)
    }

    fn tablebase_value(&self, pos: &Position) -> Option<String> {
        let tb = self.tablebases.as_ref()?;
        let at = crate::tablebase::locate(pos)?;
        let v = tb.probe(pos)?;
        Some(format!("{} {}: {}", at.material.family, at.material, v.describe()))
    }

    fn choose(&mut self, pos: &Position, history: &[u64]) -> Result<Choice, PlayError> {
        let go = Go::default();
        self.play(&Turn { pos, history, start: pos, moves: &[], go: &go }, &mut |_| {})
    }

    fn play(&mut self, turn: &Turn<'_>, on_info: &mut dyn FnMut(&SearchInfo)) -> Result<Choice, PlayError> {
        let limits = turn.go.limits_over(&self.spec.limits, turn.pos.side());
        let stop = self.stop.clone();
        let engine = self.engine_for(turn.pos.variant())?;
        search_choice(engine, turn, &limits, stop.as_ref(), on_info)
    }

    fn new_game(&mut self) {
        if let Some((_, e)) = &mut self.engine {
            e.clear();
        }
    }

    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

/// One move of an alpha-beta player: `engine` searches `turn`'s position under `limits`,
/// reporting every completed depth to `on_info`.
fn search_choice<B: SearchBoard>(
    engine: &mut Engine<B>,
    turn: &Turn<'_, B::Pos>,
    limits: &Limits<B::Move>,
    stop: Option<&Arc<AtomicBool>>,
    on_info: &mut dyn FnMut(&SearchInfo<B::Move>),
) -> Result<Choice<B::Move>, PlayError> {
    let r = engine.search(turn.pos, turn.history, limits, stop, |it| {
        on_info(&SearchInfo {
            score: Some(it.score),
            depth: it.depth,
            pv: it.pv.clone(),
            nodes: it.nodes,
            time: it.time,
            seldepth: it.seldepth,
            wdl: None,
        })
    });
    let mv = r.best.ok_or(PlayError::NoLegalMove)?;
    let info = SearchInfo {
        score: Some(r.score),
        depth: r.depth,
        pv: r.pv,
        nodes: r.nodes,
        time: r.time,
        seldepth: r.seldepth,
        wdl: None,
    };
    Ok(Choice { mv, info })
}

/// Hand-evaluation weights of a game with an engine of its own ([`crate::engine::quasi_alice`],
/// [`crate::engine::mixed3d`]), as `ab:values=FILE` reads them.
pub trait HandWeights: Default + Send + Sync + 'static {
    /// The game they evaluate.
    const GAME: GameId;
    /// What the default weights are, for the player's evaluation line.
    const DEFAULTS: &'static str;
    /// The weights of a values file (defaults for the keys it leaves out).
    fn load(path: &std::path::Path) -> Result<Self, BuildError>;
}

impl HandWeights for QaWeights {
    const GAME: GameId = GameId::QuasiAlice;
    const DEFAULTS: &'static str = "measured piece values";
    fn load(path: &std::path::Path) -> Result<QaWeights, BuildError> {
        Ok(QaWeights::from_file(path)?)
    }
}

impl HandWeights for M3Weights {
    const GAME: GameId = GameId::Mixed3d;
    const DEFAULTS: &'static str = "default piece values";
    fn load(path: &std::path::Path) -> Result<M3Weights, BuildError> {
        Ok(M3Weights::from_file(path)?)
    }
}

/// `ab:…` on a game with a hand evaluation of its own (4D Quasi-Alice, Mixed 3D): the engine on
/// that game's board `B`, whose `values=` file is that game's weights file. These games have no
/// NNUE network or endgame tables: `eval=nnue` and `tb=` are refused, `eval=auto` is the hand
/// evaluation.
pub struct HandAlphaBetaPlayer<B: SearchBoard> {
    spec: AlphaBetaSpec,
    engine: Engine<B>,
    stop: Option<Arc<AtomicBool>>,
}

/// `ab:…` on 4D Quasi-Alice Chess.
pub type QaAlphaBetaPlayer = HandAlphaBetaPlayer<QaBoard>;
/// `ab:…` on Mixed 3D Chess.
pub type M3AlphaBetaPlayer = HandAlphaBetaPlayer<M3Board>;

impl<B: SearchBoard> HandAlphaBetaPlayer<B>
where
    B::Eval: HandWeights,
{
    /// A player from its settings; reads and checks the weights file.
    pub fn new(spec: AlphaBetaSpec) -> Result<HandAlphaBetaPlayer<B>, BuildError> {
        let game = <B::Eval as HandWeights>::GAME;
        if matches!(spec.eval, EvalChoice::Nnue(_) | EvalChoice::Shipped) {
            return Err(NotAvailable { what: "ab:eval=nnue".into(), game }.into());
        }
        if spec.tablebases.is_some() {
            return Err(NotAvailable { what: "ab:tb= (endgame tables exist for the 5x5x5 games)".into(), game }.into());
        }
        let weights = match &spec.values {
            Some(p) => B::Eval::load(p)?,
            None => B::Eval::default(),
        };
        let config = EngineConfig { hash_mb: spec.hash_mb, keep_tt: spec.keep_tt, threads: spec.threads };
        Ok(HandAlphaBetaPlayer { engine: Engine::try_with_eval(weights, config)?, spec, stop: None })
    }
}

impl<B: SearchBoard> Player<B::Pos> for HandAlphaBetaPlayer<B>
where
    B::Eval: HandWeights,
{
    fn name(&self) -> String {
        PlayerSpec::AlphaBeta(self.spec.clone()).to_string()
    }

    fn evaluation(&self, _pos: &B::Pos) -> Option<String> {
        Some(match &self.spec.values {
            Some(v) => format!("hand evaluation with the values of {}", v.display()),
            None => format!("hand evaluation ({})", <B::Eval as HandWeights>::DEFAULTS),
        })
    }

    fn choose(&mut self, pos: &B::Pos, history: &[u64]) -> Result<Choice<B::Move>, PlayError> {
        let go = Go::default();
        self.play(&Turn { pos, history, start: pos, moves: &[], go: &go }, &mut |_| {})
    }

    fn play(
        &mut self,
        turn: &Turn<'_, B::Pos>,
        on_info: &mut dyn FnMut(&SearchInfo<B::Move>),
    ) -> Result<Choice<B::Move>, PlayError> {
        let own = &self.spec.limits;
        let own = Limits {
            depth: own.depth,
            nodes: own.nodes,
            time: own.time,
            soft_time: own.soft_time,
            searchmoves: Vec::new(),
        };
        let limits = turn.go.limits_over(&own, turn.pos.side());
        let stop = self.stop.clone();
        search_choice(&mut self.engine, turn, &limits, stop.as_ref(), on_info)
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::{Dims, Network};
    use crate::rules::Variant;

    #[test]
    fn values_file_changes_the_engine_weights() {
        let dir = std::env::temp_dir().join(format!("fiveup-player-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("values.toml");
        std::fs::write(&path, "[values]\nknight = 123\n").unwrap();
        let spec: PlayerSpec = format!("ab:depth=1,values={}", path.display()).parse().unwrap();
        let PlayerSpec::AlphaBeta(ab) = spec else { panic!("not ab") };
        let mut player = AlphaBetaPlayer::new(ab).unwrap();
        let p = Position::startpos(Variant::plain(Ruleset::Raumschach));
        player.choose(&p, &[]).unwrap();
        let engine = &player.engine.as_ref().unwrap().1;
        assert_eq!(engine.weights().value(crate::rules::Kind::Knight), 123);
        assert_eq!(engine.weights().value(crate::rules::Kind::Queen), 950);
        std::fs::write(&path, "[values]\nknight = -5\n").unwrap();
        let spec: PlayerSpec = format!("ab:values={}", path.display()).parse().unwrap();
        assert!(spec.build().is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn eval_auto_is_the_shipped_network_where_there_is_one_else_the_hand_evaluation() {
        let score = |spec: &str, pos: &Position| {
            let PlayerSpec::AlphaBeta(ab) = spec.parse::<PlayerSpec>().unwrap() else { panic!("{spec}") };
            let mut player = AlphaBetaPlayer::new(ab).unwrap();
            player.analyse(pos, &[], |_| {}).unwrap().score
        };
        for rs in Ruleset::ALL {
            assert_eq!(crate::engine::nnue::ships(rs), crate::engine::nnue::shipped(rs).is_ok(), "{rs}");
            let pos = crate::rules::random::scrambled(Variant::plain(rs), 10, 5);
            let same = if crate::engine::nnue::ships(rs) { "ab:depth=2,eval=nnue" } else { "ab:depth=2,eval=hand" };
            assert_eq!(score("ab:depth=2,eval=auto", &pos), score(same, &pos), "{rs}");
        }
        let five = crate::rules::random::scrambled(Variant::plain(Ruleset::FiveUp), 10, 5);
        assert_ne!(score("ab:depth=2,eval=nnue", &five), score("ab:depth=2,eval=hand", &five));
        // Not on a board the network was not trained on: the hypercylinder gets the hand evaluation.
        let cylinder = crate::rules::random::scrambled(Variant::new(Ruleset::FiveUp, false, true).unwrap(), 10, 5);
        assert_eq!(score("ab:depth=2,eval=auto", &cylinder), score("ab:depth=2,eval=hand", &cylinder));
    }

    #[test]
    fn an_nnue_player_searches_with_its_network_and_refuses_bad_files() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("r.nnue");
        let net = Network::random(
            Ruleset::Raumschach,
            Dims { hidden: 32, l1: 8, l2: 8, buckets: 1, kings: 1, pairwise: false },
            4,
        );
        net.save(&path).unwrap();
        let pos = crate::rules::random::scrambled(Variant::plain(Ruleset::Raumschach), 12, 3);
        // The engine's static evaluation is the network's.
        let mut e = Engine::new(Weights::for_ruleset(Ruleset::Raumschach), EngineConfig::default());
        let hand = e.quiesce(&pos, 1).stand;
        e.set_network(Some(Arc::new(net.clone())));
        assert_eq!(e.quiesce(&pos, 1).stand, net.evaluate_position(&pos));
        assert_ne!(hand, net.evaluate_position(&pos), "a random network that agrees with the hand evaluation");
        // A player with the file plays, reproducibly; on another ruleset it refuses.
        let spec: PlayerSpec = format!("ab:depth=3,eval=nnue:{}", path.display()).parse().unwrap();
        let a = spec.build().unwrap().choose(&pos, &[]).unwrap();
        let b = spec.build().unwrap().choose(&pos, &[]).unwrap();
        assert!(pos.legal_moves().contains(&a.mv));
        assert_eq!((a.mv, a.info.nodes), (b.mv, b.info.nodes));
        let five = Position::startpos(Variant::plain(Ruleset::FiveUp));
        let e = spec.build().unwrap().choose(&five, &[]).unwrap_err().to_string();
        assert!(e.contains("raumschach") && e.contains("fiveup"), "{e}");
        // Missing, truncated or foreign files: one line naming the file, when the player is made.
        std::fs::write(t.path().join("cut.nnue"), &std::fs::read(&path).unwrap()[..100]).unwrap();
        std::fs::write(t.path().join("text.nnue"), "not a network").unwrap();
        for name in ["missing.nnue", "cut.nnue", "text.nnue"] {
            let p = t.path().join(name);
            let spec: PlayerSpec = format!("ab:depth=1,eval=nnue:{}", p.display()).parse().unwrap();
            let e = spec.build().err().expect("refused").to_string();
            assert!(e.contains(name) && !e.contains('\n'), "{e}");
        }
        // The shipped network plays Five Up; a ruleset with none shipped (the 2001 text) says so.
        let spec: PlayerSpec = "ab:depth=2,eval=nnue".parse().unwrap();
        let shipped = crate::engine::nnue::shipped(Ruleset::FiveUp).unwrap();
        assert_eq!(shipped.ruleset, Ruleset::FiveUp);
        assert!(five.legal_moves().contains(&spec.build().unwrap().choose(&five, &[]).unwrap().mv));
        assert!(!crate::engine::nnue::ships(Ruleset::FiveUp2001));
        let old = Position::startpos(Variant::plain(Ruleset::FiveUp2001));
        let e = spec.build().unwrap().choose(&old, &[]).unwrap_err().to_string();
        assert!(e.contains("eval=nnue:FILE") && e.contains("fiveup-2001"), "{e}");
    }
}
