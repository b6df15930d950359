//! `mcts:…`: Monte Carlo tree search over an evaluator as a player, and the principal variation
//! it reports.

use super::spec::{EvaluatorSpec, MctsSpec, PlayerSpec};
use super::{BuildError, MAX_SIMS};
use super::{Choice, Go, PlayError, Player, SearchInfo, Turn};
use crate::game::{legal_moves, State};
use crate::mcts::{AbEvaluator, Search, SearchConfig, SearchGame};
use crate::nn::{Evaluation, Evaluator, NetGame, UniformEvaluator};
use crate::rules::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A network evaluator and the game it was trained on (`None`: not recorded).
pub type LoadedNet<S> = (Box<dyn Evaluator<S>>, Option<String>);

/// Loads a network saved by the trainer (a directory with `weights.safetensors` and `net.json`,
/// or a published `models/gen-NNNN` directory) as an evaluator for `mcts:net=PATH` players of
/// game `S`, on the GPU when one is present, with the game (`--ruleset` name) it was trained on.
/// A network of another game's encoding is refused; one of another 5x5x5 game is refused by the
/// player when it is asked about a position of that game.
#[cfg(feature = "torch")]
pub fn load_net_evaluator<S: NetGame>(path: &std::path::Path) -> Result<LoadedNet<S>, BuildError> {
    use crate::nn::torch::{default_device, Model, NetShape, TorchBackend};
    let model = Model::load(path, default_device())
        .map_err(|e| BuildError::Network(format!("cannot load network '{}': {e}", path.display())))?;
    let (found, want) = (model.shape().game, NetShape::of::<S>().game);
    if found != want {
        return Err(BuildError::Network(format!(
            "cannot load network '{}': it is a network for {found}, this game needs one for {want}",
            path.display()
        )));
    }
    let ruleset = model.ruleset().map(str::to_string);
    Ok((Box::new(crate::nn::NetworkEvaluator::<_, S>::for_game(TorchBackend::new(model, 64))), ruleset))
}

/// Without the `torch` feature no network can be loaded: a one-line error.
#[cfg(not(feature = "torch"))]
pub fn load_net_evaluator<S: NetGame>(path: &std::path::Path) -> Result<LoadedNet<S>, BuildError> {
    Err(BuildError::Network(format!(
        "cannot load network '{}': this build has no torch feature (rebuild with default features)",
        path.display()
    )))
}

/// The leaf terms a spec asks for, with its NNUE leaf `nnue` (loaded by the caller).
fn leaf_terms(spec: &MctsSpec, nnue: Option<crate::mcts::quiesce::NnueLeaf>) -> crate::mcts::quiesce::LeafTerms {
    crate::mcts::quiesce::LeafTerms {
        qs: spec.quiescence,
        nnue,
        hand: spec.hand,
        hand_depth: spec.leaf_depth,
        mate_check: spec.mate_check,
    }
}

/// What one MCTS search saw: the search result, the principal variation and the time.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsAnalysis<M = Move> {
    /// The search's result (visits, policy, root WDL).
    pub result: crate::mcts::MctsResult<M>,
    /// Most-visited line from the root, the chosen move first.
    pub pv: Vec<M>,
    /// Time taken.
    pub time: Duration,
}

/// Monte Carlo tree search over an evaluator as a player; the tree is built afresh every move,
/// with no root noise, so a fixed-simulation player is deterministic.
pub struct MctsPlayer<S: State = Position> {
    spec: MctsSpec,
    evaluator: Box<dyn Evaluator<S>>,
    stop: Option<Arc<AtomicBool>>,
    /// The network's file and the game it was trained on, where recorded: a position of another
    /// game is refused.
    trained_for: TrainedFor,
}

/// A network's file and the game it was trained on.
type TrainedFor = Option<(std::path::PathBuf, String)>;

/// The network of `spec` (if any) and its recorded game, loaded.
fn spec_evaluator<S: NetGame>(
    spec: &MctsSpec,
    other: impl FnOnce() -> Result<Box<dyn Evaluator<S>>, BuildError>,
) -> Result<(Box<dyn Evaluator<S>>, TrainedFor), BuildError> {
    match &spec.evaluator {
        EvaluatorSpec::Net(p) => {
            let (e, game) = load_net_evaluator::<S>(p)?;
            Ok((e, game.map(|g| (p.clone(), g))))
        }
        _ => Ok((other()?, None)),
    }
}

impl MctsPlayer {
    /// A 5x5x5 player from its settings; loads the evaluator now.
    pub fn new(spec: MctsSpec) -> Result<MctsPlayer, BuildError> {
        use crate::mcts::quiesce::{LeafNetwork, NnueLeaf};
        let (evaluator, trained_for) = spec_evaluator(&spec, || {
            Ok(match &spec.evaluator {
                EvaluatorSpec::AlphaBeta => Box::new(AbEvaluator::new()),
                _ => Box::new(UniformEvaluator::new()),
            })
        })?;
        let leaf = match (&spec.nnue_file, spec.nnue > 0.0) {
            (_, false) => None,
            (None, true) => Some(NnueLeaf { weight: spec.nnue, network: LeafNetwork::Shipped, depth: spec.leaf_depth }),
            (Some(p), true) => {
                let net =
                    crate::engine::nnue::Network::load(p, None).map_err(|e| BuildError::Network(e.to_string()))?;
                Some(NnueLeaf {
                    weight: spec.nnue,
                    network: LeafNetwork::Loaded { path: p.clone(), net: Arc::new(net) },
                    depth: spec.leaf_depth,
                })
            }
        };
        let evaluator = crate::mcts::quiesce::with_leaf_terms(evaluator, leaf_terms(&spec, leaf));
        Ok(MctsPlayer { spec, evaluator, stop: None, trained_for })
    }
}

impl<S: NetGame + SearchGame> MctsPlayer<S> {
    /// A player of a game without NNUE networks: the uniform evaluator or a network, with the
    /// quiescence correction, hand-evaluation leaves and the mate check of [`crate::mcts::quiesce`]
    /// if asked; `ab` leaves and NNUE leaves are refused with `refuse`'s error.
    pub fn for_game(spec: MctsSpec, refuse: impl Fn(&str) -> BuildError) -> Result<MctsPlayer<S>, BuildError>
    where
        S: crate::mcts::quiesce::LeafGame,
    {
        if spec.evaluator == EvaluatorSpec::AlphaBeta {
            return Err(refuse("mcts:ab (alpha-beta leaf values)"));
        }
        let (evaluator, trained_for) = spec_evaluator(&spec, || Ok(Box::new(UniformEvaluator::new())))?;
        if spec.nnue > 0.0 {
            return Err(refuse("mcts:nnue= (NNUE leaves)"));
        }
        let evaluator = crate::mcts::quiesce::with_leaf_terms(evaluator, leaf_terms(&spec, None));
        Ok(MctsPlayer { spec, evaluator, stop: None, trained_for })
    }

    /// A player with a given evaluator, used as given (the spec's evaluator and `quiescence`
    /// fields are then only labels).
    pub fn with_evaluator(spec: MctsSpec, evaluator: Box<dyn Evaluator<S>>) -> MctsPlayer<S> {
        MctsPlayer { spec, evaluator, stop: None, trained_for: None }
    }

    fn config(&self) -> SearchConfig {
        SearchConfig {
            kind: self.spec.kind,
            max_batch: self.spec.batch,
            c_puct: self.spec.cpuct,
            gumbel_m: self.spec.gumbel_m,
            dirichlet_epsilon: 0.0,
            gumbel_noise: false,
            ..SearchConfig::default()
        }
    }

    /// Searches `pos` under the spec's limits; `None` when the search has nothing to choose (no
    /// legal move, or the position is drawn by rule); an evaluator failure is an error.
    pub fn analyse(&mut self, pos: &S, history: &[u64]) -> Result<Option<MctsAnalysis<S::Move>>, crate::nn::EvalError> {
        self.analyse_within(pos, history, self.spec.sims, self.spec.time)
    }

    /// [`MctsPlayer::analyse`] with a simulation budget and a time limit of the caller's (neither:
    /// until the stop flag is raised).
    pub fn analyse_within(
        &mut self,
        pos: &S,
        history: &[u64],
        sims: Option<u32>,
        time: Option<Duration>,
    ) -> Result<Option<MctsAnalysis<S::Move>>, crate::nn::EvalError> {
        if let Some((path, game)) = &self.trained_for {
            if pos.game_name() != game {
                return Err(crate::nn::EvalError(format!(
                    "{}: a network trained on {game}, but the game is {}",
                    path.display(),
                    pos.game_name()
                )));
            }
        }
        let start = Instant::now();
        let deadline = time.map(|t| start + t);
        let budget = sims.unwrap_or(u32::MAX);
        let mut search = Search::<S>::for_game(self.config(), self.spec.seed);
        search.set_noise(false);
        search.start(pos, history, budget);
        let mut out: Vec<Evaluation> = Vec::new();
        while !search.is_done() {
            search.gather();
            let mut batch = Vec::with_capacity(self.spec.batch as usize);
            search.inputs(&mut batch);
            self.evaluator.evaluate(&batch, &mut out)?;
            drop(batch);
            search.apply(&out);
            if deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                break;
            }
        }
        let Some(result) = search.result() else { return Ok(None) };
        let pv = principal_variation(search.tree(), result.best);
        Ok(Some(MctsAnalysis { result, pv, time: start.elapsed() }))
    }
}

/// The line `first`, then the most-visited child at every node below it.
fn principal_variation<M: Copy + PartialEq>(tree: &crate::mcts::tree::Tree<M>, first: M) -> Vec<M> {
    let root = crate::mcts::tree::ROOT;
    let mut pv = vec![first];
    let Some(i) = tree.child_nodes(root).iter().position(|c| c.mv == first) else { return pv };
    let mut node = tree.get(root).first_child + i as u32;
    while pv.len() < 64 && tree.get(node).num_children > 0 {
        let kids = tree.child_nodes(node);
        let Some((i, best)) = kids.iter().enumerate().max_by_key(|(_, c)| c.visits) else { break };
        if best.visits == 0 {
            break;
        }
        pv.push(best.mv);
        node = tree.get(node).first_child + i as u32;
    }
    pv
}

impl<S: NetGame + SearchGame> Player<S> for MctsPlayer<S> {
    fn name(&self) -> String {
        PlayerSpec::Mcts(self.spec.clone()).to_string()
    }

    fn evaluation(&self, _pos: &S) -> Option<String> {
        Some(format!("MCTS leaves from {}", self.evaluator.name()))
    }

    fn choose(&mut self, pos: &S, history: &[u64]) -> Result<Choice<S::Move>, PlayError> {
        let go = Go::default();
        self.play(&Turn { pos, history, start: pos, moves: &[], go: &go }, &mut |_| {})
    }

    fn play(
        &mut self,
        turn: &Turn<'_, S>,
        on_info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> Result<Choice<S::Move>, PlayError> {
        let (pos, go) = (turn.pos, turn.go);
        let start = Instant::now();
        let (sims, time) = if go.infinite {
            (None, None)
        } else {
            let cap = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
            let go_sims = go.nodes.map(|n| n.clamp(1, MAX_SIMS as u64) as u32);
            let sims = match (self.spec.sims, go_sims) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let clock = go.clock.map(|c| super::clock::allocate(&c, pos.side()).0);
            (sims, cap(cap(self.spec.time, go.movetime), clock))
        };
        match self.analyse_within(pos, turn.history, sims, time)? {
            Some(a) => {
                let pv = a.pv;
                let [w, d, l] = a.result.root_wdl;
                let permille = |x: f32| (x.clamp(0.0, 1.0) * 1000.0).round() as u16;
                let info = SearchInfo {
                    score: None,
                    depth: pv.len() as u32,
                    pv,
                    nodes: a.result.simulations as u64,
                    time: a.time,
                    seldepth: 0,
                    wdl: Some([permille(w), permille(d), permille(l)]),
                };
                on_info(&info);
                Ok(Choice { mv: a.result.best, info })
            }
            // Drawn by rule with moves left (the caller decides whether the game goes on): any move.
            None => {
                let mv = *legal_moves(pos).first().ok_or(PlayError::NoLegalMove)?;
                Ok(Choice { mv, info: SearchInfo { pv: vec![mv], time: start.elapsed(), ..SearchInfo::default() } })
            }
        }
    }

    fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::SearchKind;
    use crate::rules::{Ruleset, Variant};

    #[test]
    fn mcts_with_nnue_leaves_takes_a_hanging_queen() {
        // Raumschach, the shipped network: the rook takes the undefended queen (and the value of
        // the position after it is the NNUE's).
        let mut s = crate::rules::Setup::empty(Variant::plain(Ruleset::Raumschach));
        let put = |s: &mut crate::rules::Setup, c: &str, p: crate::rules::Piece| {
            s.board[c.parse::<crate::rules::Cell>().unwrap().index()] = Some(p)
        };
        use crate::game::Color;
        use crate::rules::{Kind, Piece};
        put(&mut s, "Ab1", Piece::new(Color::White, Kind::King));
        put(&mut s, "Ee5", Piece::new(Color::Black, Kind::King));
        put(&mut s, "Ca3", Piece::new(Color::White, Kind::Rook));
        put(&mut s, "Cc3", Piece::new(Color::Black, Kind::Queen));
        let pos = Position::from_setup(s).unwrap();
        let mut player = "mcts:uniform,sims=64,nnue=1".parse::<PlayerSpec>().unwrap().build().unwrap();
        assert_eq!(player.name(), "mcts:uniform,sims=64,nnue=1");
        let c = player.choose(&pos, &[]).unwrap();
        assert_eq!(c.mv.to().to_string(), "Cc3", "{}", c.mv);
    }

    #[test]
    fn the_gumbel_m_of_a_spec_reaches_the_search() {
        for (spec, want) in [("mcts:ab,sims=64,kind=gumbel", 16), ("mcts:ab,sims=64,kind=gumbel,m=48", 48)] {
            let Ok(PlayerSpec::Mcts(m)) = spec.parse::<PlayerSpec>() else { panic!("{spec}") };
            assert_eq!(MctsPlayer::new(m).unwrap().config().gumbel_m, want, "{spec}");
        }
    }

    #[test]
    fn a_time_limited_gumbel_search_plans_a_bounded_schedule() {
        // Specs refuse kind=gumbel without sims, but a spec built in code may have only a time:
        // the budget is then u32::MAX, whose full halving schedule would not fit in memory.
        let spec = MctsSpec {
            evaluator: EvaluatorSpec::Uniform,
            sims: None,
            time: Some(Duration::from_millis(50)),
            kind: SearchKind::Gumbel,
            ..MctsSpec::default()
        };
        let mut player = PlayerSpec::Mcts(spec).build().unwrap();
        let p = Position::startpos(Variant::default());
        let c = player.choose(&p, &[]).unwrap();
        assert!(p.legal_moves().contains(&c.mv));
    }

    #[test]
    fn a_network_that_cannot_be_loaded_is_a_one_line_error() {
        let spec: PlayerSpec = "mcts:net=no-such-model.pt,sims=64".parse().unwrap();
        let e = spec.build().err().expect("nothing to load").to_string();
        assert!(e.contains("cannot load network 'no-such-model.pt'") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn mcts_player_is_deterministic_and_sees_the_mate() {
        // Fool's mate position before 4. SxBe4++.
        let text = "rnknr/ppp1p/5/5/5|ubqub/pp1pp/3p1/5/5|5/5/2p2/2P2/5|5/4B/1N3/PP1PP/UGQUB|5/5/5/PPPPP/RSKNR w Wwgs E1D1A5B5 - 0 4";
        let p = Position::from_text(text, Variant::plain(Ruleset::FiveUp)).unwrap();
        let run = || {
            let mut pl = "mcts:ab,sims=300".parse::<PlayerSpec>().unwrap().build().unwrap();
            pl.choose(&p, &[]).unwrap()
        };
        let (a, b) = (run(), run());
        assert_eq!(a.mv, b.mv);
        assert_eq!(a.info.pv, b.info.pv);
        assert_eq!(a.mv.to_string(), "Eb1Be4");
        assert_eq!(a.info.nodes, 300);
        let mut timed = "mcts:uniform,time=0.05".parse::<PlayerSpec>().unwrap().build().unwrap();
        let c = timed.choose(&p, &[]).unwrap();
        assert!(c.info.nodes > 0 && c.info.time < Duration::from_secs(2));
    }
}

#[cfg(all(test, feature = "torch"))]
mod net_tests {
    use super::*;
    use crate::nn::torch::{Model, NetConfig};
    use crate::rules::Variant;

    #[test]
    fn mcts_net_player_loads_a_saved_network_and_plays_legal_moves() {
        let dir = std::env::temp_dir().join(format!("fiveup-net-player-{}", std::process::id()));
        Model::new(&NetConfig::TINY, tch::Device::Cpu).unwrap().save(&dir).unwrap();
        let spec: PlayerSpec = format!("mcts:net={},sims=8", dir.display()).parse().unwrap();
        let mut player = spec.build().unwrap();
        let pos = Position::startpos(Variant::default());
        let choice = player.choose(&pos, &[]).unwrap();
        assert!(pos.legal_moves().contains(&choice.mv));
        let missing: PlayerSpec = "mcts:net=/nonexistent/net,sims=8".parse().unwrap();
        let err = missing.build().err().expect("a missing network is an error").to_string();
        assert!(err.contains("/nonexistent/net") && !err.contains('\n'), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_network_trained_on_one_5x5x5_game_refuses_another() {
        use crate::rules::Ruleset;
        let t = tempfile::tempdir().unwrap();
        let mut m = Model::new(&NetConfig::TINY, tch::Device::Cpu).unwrap();
        m.set_ruleset(Some("fiveup".into()));
        m.save(t.path()).unwrap();
        assert_eq!(crate::nn::torch::model::read_sidecar(t.path()).unwrap().ruleset.as_deref(), Some("fiveup"));
        let spec: PlayerSpec = format!("mcts:net={},sims=4", t.path().display()).parse().unwrap();
        let five = Position::startpos(Variant::plain(Ruleset::FiveUp));
        assert!(five.legal_moves().contains(&spec.build().unwrap().choose(&five, &[]).unwrap().mv));
        let raum = Position::startpos(Variant::plain(Ruleset::Raumschach));
        let e = spec.build().unwrap().choose(&raum, &[]).unwrap_err().to_string();
        assert!(e.contains("a network trained on fiveup, but the game is raumschach"), "{e}");
    }
}
