//! Player spec strings (`ab:depth=4`, `mcts:ab,sims=64`, `uci:COMMAND`): the settings of each kind,
//! the parser, and the canonical form they print as.
//!
//! Each kind declares its keys in a table (each key's names, what its value reads as with
//! its range or allowed values, and its help); one loop reads `KIND:KEY=VALUE,...` against the
//! kind's table, and the accepted forms ([`accepted`]) are printed from the same tables.

use super::text::{clip, clip_words};
use super::uci::UciSpec;
use super::{MAX_NODES, MAX_SIMS};
use crate::engine::{Limits, Weights, WeightsError};
use crate::mcts::{SearchConfig, SearchKind};
use crate::rules::Ruleset;
use std::fmt;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::Duration;

mod error;
pub use error::{SpecError, SpecReason};

/// Settings of an alpha-beta player.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaSpec {
    /// Search limits (depth 4 when none is given).
    pub limits: Limits,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Weights file (TOML, see [`crate::engine::weights`]) applied over the ruleset's defaults.
    pub values: Option<PathBuf>,
    /// Keep the table between moves of a game.
    pub keep_tt: bool,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// The static evaluation.
    pub eval: EvalChoice,
    /// A folder of endgame tables the search probes (`tb=DIR`; 5x5x5 games).
    pub tablebases: Option<PathBuf>,
}

impl AlphaBetaSpec {
    /// The evaluation weights this spec plays with in `ruleset`: its `values=` file over the
    /// ruleset's defaults, or the defaults.
    pub fn weights(&self, ruleset: Ruleset) -> Result<Weights, WeightsError> {
        match &self.values {
            Some(p) => Weights::from_file(ruleset, p),
            None => Ok(Weights::for_ruleset(ruleset)),
        }
    }
}

impl Default for AlphaBetaSpec {
    fn default() -> Self {
        AlphaBetaSpec {
            limits: Limits::depth(4),
            hash_mb: 16,
            values: None,
            keep_tt: false,
            threads: 1,
            eval: EvalChoice::Hand,
            tablebases: None,
        }
    }
}

/// The static evaluation of an alpha-beta player (`eval=` in its spec).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// `eval=hand`: the hand evaluation ([`crate::engine::eval`]) with the spec's values.
    Hand,
    /// `eval=nnue`: the network shipped for the game's ruleset ([`crate::engine::nnue::shipped`]).
    Shipped,
    /// `eval=nnue:PATH`: an NNUE network file.
    Nnue(PathBuf),
    /// `eval=auto`: the shipped network where the game's ruleset has one ([`crate::engine::nnue::ships`])
    /// and the board is the plain one (no castling rule, no hypercylinder), else the hand
    /// evaluation. The shipped Five Up and Raumschach networks are each measured stronger than
    /// the hand evaluation at equal time (`docs/NNUE.md`), so this is the stronger evaluation of
    /// each ruleset; `play` and `analyse` default to it.
    Auto,
}

impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalChoice::Hand => write!(f, "hand"),
            EvalChoice::Shipped => write!(f, "nnue"),
            EvalChoice::Nnue(p) => write!(f, "nnue:{}", p.display()),
            EvalChoice::Auto => write!(f, "auto"),
        }
    }
}

/// The player `play`, `analyse` and the protocol use when none is named: alpha-beta with the
/// strongest evaluation the game has ([`EvalChoice::Auto`]).
pub const DEFAULT_PLAYER: &str = "ab:eval=auto";

/// Which evaluator an MCTS player asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvaluatorSpec {
    /// [`crate::nn::UniformEvaluator`]: uniform prior, value 0.
    Uniform,
    /// [`crate::mcts::AbEvaluator`]: the alpha-beta hand evaluation.
    AlphaBeta,
    /// A network loaded from a file by [`super::mcts::load_net_evaluator`].
    Net(PathBuf),
}

/// Settings of an MCTS player.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSpec {
    /// The evaluator.
    pub evaluator: EvaluatorSpec,
    /// Simulations per move (`None` with a time limit: as many as the time allows).
    pub sims: Option<u32>,
    /// Time per move: the search stops after the first batch that ends past it.
    pub time: Option<Duration>,
    /// PUCT or Gumbel root search (noise off either way: play is deterministic for fixed `sims`).
    pub kind: SearchKind,
    /// Most leaves per evaluator call (1: plain sequential MCTS).
    pub batch: u32,
    /// PUCT exploration constant.
    pub cpuct: f32,
    /// Gumbel: root moves considered by sequential halving (m).
    pub gumbel_m: u32,
    /// Seed of the search's random stream.
    pub seed: u64,
    /// Blend weight of the quiescence correction of leaf values (0 = off; see
    /// [`crate::mcts::quiesce`]).
    pub quiescence: f32,
    /// Blend weight of NNUE leaf values (`nnue=μ`, 0 = off; see [`crate::mcts::quiesce`]).
    pub nnue: f32,
    /// The NNUE network of `nnue=μ:FILE` (`None`: the one shipped for the game's ruleset).
    pub nnue_file: Option<PathBuf>,
    /// Blend weight of the hand evaluation's quiescence value at the leaves (`hand=η`, 0 = off;
    /// see [`crate::mcts::quiesce`]).
    pub hand: f32,
    /// Leaves where the side to move mates in one are won (`mate=1`; see
    /// [`crate::mcts::quiesce`]).
    pub mate_check: bool,
    /// Depth of the NNUE and hand leaves' search (`leafdepth=D`, 0 = their capture-only
    /// quiescence search; see [`crate::mcts::quiesce`]); needs `nnue` or `hand`.
    pub leaf_depth: u32,
}

/// Simulations when neither `sims` nor `time` is given.
pub const DEFAULT_SIMS: u32 = 800;

/// The largest `m=` (Gumbel root moves considered): more than any position's legal moves.
pub const MAX_GUMBEL_M: u32 = 1024;

impl Default for MctsSpec {
    fn default() -> Self {
        MctsSpec {
            evaluator: EvaluatorSpec::Uniform,
            sims: Some(DEFAULT_SIMS),
            time: None,
            kind: SearchKind::Puct,
            batch: 1,
            cpuct: SearchConfig::default().c_puct,
            gumbel_m: SearchConfig::default().gumbel_m,
            seed: 0,
            quiescence: 0.0,
            nnue: 0.0,
            nnue_file: None,
            hand: 0.0,
            mate_check: false,
            leaf_depth: 0,
        }
    }
}

/// A parsed player spec string.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// `ab:...`: the alpha-beta engine.
    AlphaBeta(AlphaBetaSpec),
    /// `random:seed=N`: a uniform random legal mover.
    Random {
        /// Seed of the ChaCha8 stream.
        seed: u64,
    },
    /// `mcts:...`: Monte Carlo tree search over an evaluator.
    Mcts(MctsSpec),
    /// `uci:COMMAND[;KEY=VALUE…]`: an outside engine speaking the protocol
    /// ([`super::uci::UciPlayer`]).
    Uci(UciSpec),
}

/// Reads a piece of a spec into the draft `S`; the error is the reason it is refused.
type Reader<S> = fn(&mut S, &str) -> Result<(), SpecReason>;

/// What a key's value reads as, with its range or allowed values, and where it goes in the draft
/// `S` its kind fills in.
enum Value<S> {
    /// A whole number in `range`; `unit` follows the range in the error (`hash=0: expected
    /// 1..=65536 MiB`).
    Whole { range: RangeInclusive<u64>, unit: &'static str, set: fn(&mut S, u64) },
    /// A number in `range`; `expected` says what is accepted in the error.
    Real { range: RangeInclusive<f32>, expected: &'static str, set: fn(&mut S, f32) },
    /// Seconds, from a nanosecond (a smaller time would round to a zero limit) to 1e9.
    Seconds(fn(&mut S, Duration)),
    /// `0` or `1`.
    Flag(fn(&mut S, bool)),
    /// One of `words`.
    Word { words: &'static [&'static str], set: fn(&mut S, &str) },
    /// A file or directory, taken as written.
    Path(fn(&mut S, PathBuf)),
    /// Read by the key's own function, which says why a value is refused.
    Text(Reader<S>),
}

impl<S> Value<S> {
    /// Reads `v`, the value of key `k`, into `draft`; the error is the reason, one line.
    fn read(&self, draft: &mut S, k: &str, v: &str) -> Result<(), SpecReason> {
        match self {
            Value::Whole { range, unit, set } => {
                let (lo, hi) = (*range.start(), *range.end());
                let n = v.parse::<u64>().map_err(|_| SpecReason::NotWhole {
                    key: k.into(),
                    value: v.into(),
                    lo,
                    hi,
                    unit,
                })?;
                if !range.contains(&n) {
                    return Err(SpecReason::OutOfRange { key: k.into(), value: v.into(), lo, hi, unit });
                }
                set(draft, n);
            }
            Value::Real { range, expected, set } => match v.parse::<f32>() {
                Ok(x) if range.contains(&x) => set(draft, x),
                _ => return Err(expected_of(k, v, expected)),
            },
            Value::Seconds(set) => match v.parse::<f64>() {
                Ok(t) if (1e-9..1e9).contains(&t) => set(draft, Duration::from_secs_f64(t)),
                _ => return Err(expected_of(k, v, "a positive number of seconds (1e-9 to 1e9)")),
            },
            Value::Flag(set) => match v {
                "0" => set(draft, false),
                "1" => set(draft, true),
                _ => return Err(expected_of(k, v, "0 or 1")),
            },
            Value::Word { words, set } => match words.iter().find(|w| **w == v) {
                Some(w) => set(draft, w),
                None => return Err(expected_of(k, v, &or_list(words))),
            },
            Value::Path(set) => set(draft, PathBuf::from(v)),
            Value::Text(read) => read(draft, v)?,
        }
        Ok(())
    }
}

/// Value `v` of key `k` refused: it is not `expected`.
fn expected_of(k: &str, v: &str, expected: &str) -> SpecReason {
    SpecReason::Expected { key: k.to_string(), value: v.to_string(), expected: expected.to_string() }
}

/// `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// One key of a player kind's spec.
struct Key<S> {
    /// Its name, then any other name it answers to.
    names: &'static [&'static str],
    /// What its value reads as.
    value: Value<S>,
    /// How the accepted forms show it (empty: the kind's own text shows it).
    help: &'static str,
}

/// A player kind the parser knows: its names, its table of keys, how its draft starts and how a
/// filled-in draft becomes a spec, and its entry in the accepted forms.
struct Kind<S: 'static> {
    /// Its name, then any other name it answers to.
    names: &'static [&'static str],
    /// The draft before any key.
    start: fn() -> S,
    /// Its keys.
    keys: &'static [Key<S>],
    /// Reads a bare word (not `KEY=VALUE`); `None`: the kind takes none.
    word: Option<Reader<S>>,
    /// Defaults that depend on what was given, and checks across keys.
    finish: fn(S) -> Result<PlayerSpec, SpecReason>,
    /// Its form in the accepted forms (`ab[:KEY=VALUE,...]`).
    usage: &'static str,
    /// What it is, before its keys.
    about: &'static str,
    /// Defaults and examples, after its keys.
    examples: &'static str,
}

/// What the parser asks of a kind, whatever its draft.
trait KindParser: Sync {
    /// Its name and aliases.
    fn names(&self) -> &'static [&'static str];
    /// Whether it takes bare words.
    fn takes_words(&self) -> bool;
    /// Its form in the accepted forms (`random[:seed=N]`).
    fn usage(&self) -> &'static str;
    /// The spec from its bare words and its `KEY=VALUE` pairs (each key once).
    fn parse(&self, words: &[&str], params: &[(&str, &str)]) -> Result<PlayerSpec, SpecReason>;
    /// Its entry in the accepted forms.
    fn help(&self) -> String;
}

impl<S: 'static> KindParser for Kind<S> {
    fn names(&self) -> &'static [&'static str] {
        self.names
    }

    fn takes_words(&self) -> bool {
        self.word.is_some()
    }

    fn usage(&self) -> &'static str {
        self.usage
    }

    fn parse(&self, words: &[&str], params: &[(&str, &str)]) -> Result<PlayerSpec, SpecReason> {
        let mut draft = (self.start)();
        if let Some(read) = self.word {
            for w in words {
                read(&mut draft, w)?;
            }
        }
        for &(k, v) in params {
            let Some(key) = self.keys.iter().find(|key| key.names.contains(&k)) else {
                return Err(SpecReason::UnknownKey { key: k.to_string(), kind: self.names[0] });
            };
            key.value.read(&mut draft, k, v)?;
        }
        (self.finish)(draft)
    }

    fn help(&self) -> String {
        let mut words: Vec<String> = self.about.split_whitespace().map(String::from).collect();
        words.push("keys:".into());
        // A key without help is shown by the kind's own text (`net=DIR` among the evaluators).
        let shown: Vec<&str> = self.keys.iter().map(|k| k.help).filter(|h| !h.is_empty()).collect();
        words.extend(shown.join(", ").split_whitespace().map(String::from));
        // The usage in its column, or two spaces after it when it is wider.
        let lead = format!("  {}", self.usage);
        let lead = format!("{lead:<width$}", width = HELP_INDENT.max(lead.chars().count() + 2));
        let mut out = wrap(&lead, &words);
        let examples: Vec<String> = self.examples.split_whitespace().map(String::from).collect();
        out += &wrap(&" ".repeat(HELP_INDENT), &examples);
        out
    }
}

/// The column where the text of an accepted form starts.
const HELP_INDENT: usize = 25;

/// The longest line of the accepted forms.
const HELP_WIDTH: usize = 116;

/// `lead` then `words` filled into lines of at most [`HELP_WIDTH`] characters (a word is never
/// split), the later lines indented by [`HELP_INDENT`]; each line ends with a newline.
fn wrap(lead: &str, words: &[String]) -> String {
    let mut out = String::new();
    let mut line = lead.to_string();
    let mut empty = true;
    for w in words {
        if !empty && line.chars().count() + 1 + w.chars().count() > HELP_WIDTH {
            out += line.trim_end();
            out.push('\n');
            line = " ".repeat(HELP_INDENT);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line += w;
        empty = false;
    }
    out += line.trim_end();
    out.push('\n');
    out
}

/// `ab:…`: the alpha-beta engine.
static ALPHA_BETA: Kind<AlphaBetaSpec> = Kind {
    names: &["ab", "alphabeta"],
    start: || AlphaBetaSpec { limits: Limits::default(), ..AlphaBetaSpec::default() },
    keys: &[
        Key {
            names: &["depth"],
            value: Value::Whole {
                range: 1..=crate::engine::search::MAX_DEPTH as u64,
                unit: "",
                set: |s, d| s.limits.depth = Some(d as u32),
            },
            help: "depth=1..=64",
        },
        Key {
            names: &["nodes"],
            value: Value::Whole { range: 1..=MAX_NODES, unit: "", set: |s, n| s.limits.nodes = Some(n) },
            help: "nodes=1..=10^12",
        },
        Key { names: &["time"], value: Value::Seconds(|s, t| s.limits.time = Some(t)), help: "time=SECONDS" },
        Key {
            names: &["hash"],
            value: Value::Whole { range: 1..=65_536, unit: " MiB", set: |s, mb| s.hash_mb = mb as usize },
            help: "hash=1..=65536 (MiB, at most the memory available)",
        },
        Key { names: &["values", "weights"], value: Value::Path(|s, p| s.values = Some(p)), help: "values=FILE" },
        Key { names: &["keep"], value: Value::Flag(|s, on| s.keep_tt = on), help: "keep=0|1" },
        Key {
            names: &["threads"],
            value: Value::Whole {
                range: 1..=crate::engine::MAX_THREADS as u64,
                unit: "",
                set: |s, n| s.threads = n as usize,
            },
            help: "threads=1..=256 (Lazy SMP)",
        },
        Key { names: &["eval"], value: Value::Text(read_eval), help: "eval=hand|nnue|nnue:FILE|auto" },
        Key {
            names: &["tb", "tablebases"],
            value: Value::Path(|s, p| s.tablebases = Some(p)),
            help: "tb=DIR (endgame tables from `fiveup tablebase generate`)",
        },
    ],
    word: None,
    finish: |mut ab| {
        if ab.limits == Limits::default() {
            ab.limits = Limits::depth(4);
        }
        Ok(PlayerSpec::AlphaBeta(ab))
    },
    usage: "ab[:KEY=VALUE,...]",
    about: "alpha-beta;",
    examples: "(no limit given: depth=4), e.g. ab:depth=4, ab:nodes=200000, ab:time=0.5",
};

/// `eval=hand|nnue|nnue:PATH|auto` of an alpha-beta spec.
fn read_eval(ab: &mut AlphaBetaSpec, v: &str) -> Result<(), SpecReason> {
    ab.eval = match v.split_once(':') {
        _ if v == "hand" => EvalChoice::Hand,
        _ if v == "nnue" => EvalChoice::Shipped,
        _ if v == "auto" => EvalChoice::Auto,
        Some(("nnue", path)) if !path.is_empty() => EvalChoice::Nnue(PathBuf::from(path)),
        _ => return Err(expected_of("eval", v, "hand, nnue, nnue:PATH or auto")),
    };
    Ok(())
}

/// `random:seed=N`: a uniform random legal mover.
static RANDOM: Kind<u64> = Kind {
    names: &["random"],
    start: || 0,
    keys: &[Key {
        names: &["seed"],
        value: Value::Whole { range: 0..=u64::MAX, unit: "", set: |seed, n| *seed = n },
        help: "seed=N",
    }],
    word: None,
    finish: |seed| Ok(PlayerSpec::Random { seed }),
    usage: "random[:seed=N], N in 0..=18446744073709551615",
    about: "uniform random legal mover;",
    examples: "e.g. random:seed=7",
};

/// An MCTS spec as its keys fill it in, with what the checks across keys need to know.
struct MctsDraft {
    spec: MctsSpec,
    /// An evaluator was named (a second is refused).
    evaluator_given: bool,
    /// `kind=` was given.
    kind_given: bool,
}

impl MctsDraft {
    fn set_evaluator(&mut self, e: EvaluatorSpec) -> Result<(), SpecReason> {
        if std::mem::replace(&mut self.evaluator_given, true) {
            return Err(SpecReason::TwoEvaluators);
        }
        self.spec.evaluator = e;
        Ok(())
    }
}

/// `mcts:…`: Monte Carlo tree search over an evaluator.
static MCTS: Kind<MctsDraft> = Kind {
    names: &["mcts"],
    start: || MctsDraft {
        spec: MctsSpec { sims: None, ..MctsSpec::default() },
        evaluator_given: false,
        kind_given: false,
    },
    keys: &[
        Key {
            names: &["sims"],
            value: Value::Whole { range: 1..=MAX_SIMS as u64, unit: "", set: |d, n| d.spec.sims = Some(n as u32) },
            help: "sims=1..=10^8",
        },
        Key { names: &["time"], value: Value::Seconds(|d, t| d.spec.time = Some(t)), help: "time=SECONDS" },
        Key {
            names: &["kind"],
            value: Value::Word {
                words: &["puct", "gumbel"],
                set: |d, w| {
                    d.kind_given = true;
                    d.spec.kind = if w == "gumbel" { SearchKind::Gumbel } else { SearchKind::Puct };
                },
            },
            help: "kind=puct|gumbel",
        },
        Key {
            names: &["batch"],
            value: Value::Whole { range: 1..=255, unit: "", set: |d, n| d.spec.batch = n as u32 },
            help: "batch=1..=255",
        },
        Key {
            names: &["cpuct"],
            // Positive and finite: from the smallest positive f32 to the largest finite one.
            value: Value::Real {
                range: f32::from_bits(1)..=f32::MAX,
                expected: "a positive number",
                set: |d, c| d.spec.cpuct = c,
            },
            help: "cpuct=X",
        },
        Key {
            names: &["seed"],
            value: Value::Whole { range: 0..=u64::MAX, unit: "", set: |d, n| d.spec.seed = n },
            help: "seed=N",
        },
        Key {
            names: &["m"],
            value: Value::Whole { range: 1..=MAX_GUMBEL_M as u64, unit: "", set: |d, n| d.spec.gumbel_m = n as u32 },
            help: "m=1..=1024 (Gumbel root moves considered, default 16)",
        },
        Key {
            names: &["qs"],
            value: Value::Real { range: 0.0..=4.0, expected: "a weight in 0..=4", set: |d, w| d.spec.quiescence = w },
            help: "qs=X (quiescence correction of leaf values, 0..=4; 0 = off)",
        },
        Key {
            names: &["nnue"],
            value: Value::Text(read_nnue),
            help: "nnue=X or nnue=X:FILE (leaf values blended with an NNUE's quiescence value, 0..=1; the shipped \
                   network of the ruleset, or FILE)",
        },
        Key {
            names: &["leafdepth"],
            value: Value::Whole {
                range: 0..=crate::mcts::quiesce::MAX_LEAF_DEPTH as u64,
                unit: "",
                set: |d, n| d.spec.leaf_depth = n as u32,
            },
            help: "leafdepth=0..=3 (the NNUE and hand leaves' values from an alpha-beta search of that depth; 0 = \
                   quiescence only; needs nnue=X or hand=X)",
        },
        Key {
            names: &["hand"],
            value: Value::Real { range: 0.0..=1.0, expected: "a weight in 0..=1", set: |d, w| d.spec.hand = w },
            help: "hand=X (leaf values blended with the game's hand evaluation through its quiescence search, \
                   0..=1; 0 = off)",
        },
        Key {
            names: &["mate"],
            value: Value::Flag(|d, on| d.spec.mate_check = on),
            help: "mate=0|1 (leaves whose side to move mates in one are won)",
        },
        Key {
            names: &["net"],
            value: Value::Text(|d, v| {
                if v.is_empty() {
                    return Err(expected_of("net", v, "a network directory, e.g. net=nets/fiveup-az"));
                }
                d.set_evaluator(EvaluatorSpec::Net(PathBuf::from(v)))
            }),
            help: "",
        },
    ],
    word: Some(|d, w| match w {
        "uniform" => d.set_evaluator(EvaluatorSpec::Uniform),
        "ab" | "alphabeta" => d.set_evaluator(EvaluatorSpec::AlphaBeta),
        _ => Err(SpecReason::UnknownEvaluator(w.to_string())),
    }),
    finish: |d| {
        let mut m = d.spec;
        if m.sims.is_none() && m.time.is_none() {
            m.sims = Some(DEFAULT_SIMS);
        }
        if d.kind_given && m.kind == SearchKind::Gumbel && m.sims.is_none() {
            return Err(SpecReason::GumbelNeedsSims);
        }
        if m.leaf_depth > 0 && m.nnue == 0.0 && m.hand == 0.0 {
            return Err(SpecReason::LeafDepthNeedsNnue(m.leaf_depth));
        }
        Ok(PlayerSpec::Mcts(m))
    },
    usage: "mcts[:EVAL,KEY=VALUE,...]",
    about: "Monte Carlo tree search; EVAL: uniform (default), ab, or net=DIR (a network directory, e.g. \
            nets/fiveup-az);",
    examples: "(no limit given: sims=800), e.g. mcts:uniform,sims=800, mcts:ab,sims=64, \
               mcts:net=nets/fiveup-az,sims=64,qs=1, mcts:ab,time=0.5",
};

/// `nnue=X` or `nnue=X:FILE` of an MCTS spec.
fn read_nnue(d: &mut MctsDraft, v: &str) -> Result<(), SpecReason> {
    let (w, file) = match v.split_once(':') {
        Some((w, f)) => (w, Some(f)),
        None => (v, None),
    };
    match w.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => d.spec.nnue = x,
        _ => return Err(expected_of("nnue", v, "a weight in 0..=1, then perhaps :FILE")),
    }
    d.spec.nnue_file = match file {
        Some("") => return Err(expected_of("nnue", v, "a network file after ':'")),
        f => f.map(PathBuf::from),
    };
    Ok(())
}

/// The kinds read as `KIND[:KEY=VALUE,...]` (`uci:` is read by [`UciSpec::parse`]: an engine's
/// command line may hold commas).
static KINDS: [&dyn KindParser; 3] = [&ALPHA_BETA, &RANDOM, &MCTS];

/// The accepted form of `uci:`.
const UCI_HELP: &str =
    "  uci:COMMAND[;KEY=VALUE...]  an outside engine speaking docs/PROTOCOL.md, started with COMMAND; engine
                         options as Name=Value; harness keys depth=N, nodes=N, movetime=SECONDS (games
                         without --tc), timeout=SECONDS, grace=SECONDS, log=DIR,
                         e.g. uci:./fiveup uci;Hash=64;movetime=0.1";

/// The accepted forms, printed with every spec error: each kind's keys from its table.
pub fn accepted() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut s = String::from("accepted player specs:\n");
        for kind in KINDS {
            s += &kind.help();
        }
        s + UCI_HELP
    })
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let err = |reason: SpecReason| SpecError { spec: s.to_string(), reason: clip_words(&reason.to_string()) };
        // An engine's command line may hold commas: `uci:` takes the rest whole.
        if let Some(rest) = s.trim_start().strip_prefix("uci:") {
            return UciSpec::parse(rest).map(PlayerSpec::Uci).map_err(|e| err(e.into()));
        }
        let (name, rest) = match s.split_once(':') {
            Some((k, r)) => (k.trim(), r),
            None => (s.trim(), ""),
        };
        let Some(kind) = KINDS.iter().find(|k| k.names().contains(&name)) else {
            return Err(err(SpecReason::UnknownKind(name.to_string())));
        };
        let mut params = Vec::new();
        let mut words = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((k, v)) => {
                    let k = k.trim();
                    if params.iter().any(|&(seen, _)| seen == k) {
                        return Err(err(SpecReason::KeyTwice(clip(k))));
                    }
                    params.push((k, v.trim()))
                }
                None if kind.takes_words() => words.push(part),
                None => return Err(err(SpecReason::NotKeyValue { word: part.to_string(), usage: kind.usage() })),
            }
        }
        kind.parse(&words, &params).map_err(err)
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec string (parses back to the same spec).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random { seed } => write!(f, "random:seed={seed}"),
            PlayerSpec::AlphaBeta(ab) => {
                let mut parts = Vec::new();
                if let Some(d) = ab.limits.depth {
                    parts.push(format!("depth={d}"));
                }
                if let Some(n) = ab.limits.nodes {
                    parts.push(format!("nodes={n}"));
                }
                if let Some(t) = ab.limits.time {
                    parts.push(format!("time={}", t.as_secs_f64()));
                }
                parts.push(format!("hash={}", ab.hash_mb));
                if let Some(p) = &ab.values {
                    parts.push(format!("values={}", p.display()));
                }
                if ab.keep_tt {
                    parts.push("keep=1".into());
                }
                if ab.threads != 1 {
                    parts.push(format!("threads={}", ab.threads));
                }
                if ab.eval != EvalChoice::Hand {
                    parts.push(format!("eval={}", ab.eval));
                }
                if let Some(p) = &ab.tablebases {
                    parts.push(format!("tb={}", p.display()));
                }
                write!(f, "ab:{}", parts.join(","))
            }
            PlayerSpec::Uci(u) => write!(f, "uci:{u}"),
            PlayerSpec::Mcts(m) => {
                let mut parts = vec![match &m.evaluator {
                    EvaluatorSpec::Uniform => "uniform".to_string(),
                    EvaluatorSpec::AlphaBeta => "ab".to_string(),
                    EvaluatorSpec::Net(p) => format!("net={}", p.display()),
                }];
                if let Some(n) = m.sims {
                    parts.push(format!("sims={n}"));
                }
                if let Some(t) = m.time {
                    parts.push(format!("time={}", t.as_secs_f64()));
                }
                let d = MctsSpec::default();
                if m.kind != d.kind {
                    parts.push("kind=gumbel".into());
                }
                if m.batch != d.batch {
                    parts.push(format!("batch={}", m.batch));
                }
                if m.cpuct != d.cpuct {
                    parts.push(format!("cpuct={}", m.cpuct));
                }
                if m.gumbel_m != d.gumbel_m {
                    parts.push(format!("m={}", m.gumbel_m));
                }
                if m.seed != 0 {
                    parts.push(format!("seed={}", m.seed));
                }
                if m.quiescence != 0.0 {
                    parts.push(format!("qs={}", m.quiescence));
                }
                match (&m.nnue_file, m.nnue != 0.0) {
                    (Some(p), _) => parts.push(format!("nnue={}:{}", m.nnue, p.display())),
                    (None, true) => parts.push(format!("nnue={}", m.nnue)),
                    (None, false) => {}
                }
                if m.leaf_depth != 0 {
                    parts.push(format!("leafdepth={}", m.leaf_depth));
                }
                if m.hand != 0.0 {
                    parts.push(format!("hand={}", m.hand));
                }
                if m.mate_check {
                    parts.push("mate=1".into());
                }
                write!(f, "mcts:{}", parts.join(","))
            }
        }
    }
}

impl PlayerSpec {
    /// The files and folders the player reads: a weights file (`values=`), an NNUE file
    /// (`eval=nnue:PATH`, `nnue=μ:PATH`), a network (`net=`), endgame tables (`tb=`). An outside
    /// engine's command is not among them (it runs where it is installed).
    pub fn files(&self) -> Vec<&std::path::Path> {
        let mut out = Vec::new();
        match self {
            PlayerSpec::AlphaBeta(ab) => {
                out.extend(ab.values.as_deref());
                if let EvalChoice::Nnue(p) = &ab.eval {
                    out.push(p.as_path());
                }
                out.extend(ab.tablebases.as_deref());
            }
            PlayerSpec::Mcts(m) => {
                if let EvaluatorSpec::Net(p) = &m.evaluator {
                    out.push(p.as_path());
                }
                out.extend(m.nnue_file.as_deref());
            }
            PlayerSpec::Random { .. } | PlayerSpec::Uci(_) => {}
        }
        out
    }

    /// Replaces each path [`PlayerSpec::files`] lists by `f(path)`: how a game worker points a
    /// player at its local copies of the files.
    pub fn map_files(&mut self, f: &mut dyn FnMut(&std::path::Path) -> PathBuf) {
        match self {
            PlayerSpec::AlphaBeta(ab) => {
                if let Some(p) = &mut ab.values {
                    *p = f(p);
                }
                if let EvalChoice::Nnue(p) = &mut ab.eval {
                    *p = f(p);
                }
                if let Some(p) = &mut ab.tablebases {
                    *p = f(p);
                }
            }
            PlayerSpec::Mcts(m) => {
                if let EvaluatorSpec::Net(p) = &mut m.evaluator {
                    *p = f(p);
                }
                if let Some(p) = &mut m.nnue_file {
                    *p = f(p);
                }
            }
            PlayerSpec::Random { .. } | PlayerSpec::Uci(_) => {}
        }
    }

    /// Parses `s` as [`PlayerSpec::from_str`] does, except that a spec naming no limit of its own
    /// (no `depth`, `nodes` or `time` for `ab`; no `sims` or `time` for `mcts`) gets none rather
    /// than the default depth 4 or 800 simulations: for players whose limits come from outside
    /// (a `--tc` clock, a protocol's `go`). Its canonical string then names no limit either.
    pub fn parse_unlimited(s: &str) -> Result<PlayerSpec, SpecError> {
        let mut spec: PlayerSpec = s.parse()?;
        let rest = s.split_once(':').map_or("", |(_, r)| r);
        let named =
            |keys: &[&str]| rest.split(',').filter_map(|p| p.split_once('=')).any(|(k, _)| keys.contains(&k.trim()));
        match &mut spec {
            PlayerSpec::AlphaBeta(ab) if !named(&["depth", "nodes", "time"]) => ab.limits = Limits::default(),
            PlayerSpec::Mcts(m) if !named(&["sims", "time"]) => m.sims = None,
            _ => {}
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests;
