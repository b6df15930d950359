//! The protocol's text forms (`docs/PROTOCOL.md`), used by both sides: the `go` arguments
//! ([`parse_go`], [`go_words`]), `info` lines ([`info_line`], [`parse_info`]) and moves
//! ([`move_text`]), generic over the game ([`WireGame`] says what the protocol needs of one beyond
//! [`PlayGame`]). The engine side ([`crate::protocol`]) reads `go` and writes `info`; the harness
//! side ([`super::uci`]) writes `go` and reads `info`.

use super::clock::Clock;
use super::text::clip;
use super::MAX_NODES;
use super::{Go, PlayGame, SearchInfo};
use crate::engine::Score;
use crate::game::State;
use std::time::Duration;

/// What the protocol needs of a game beyond [`PlayGame`]: how a harness tells an engine which
/// game it plays (`UCI_Variant` and the rule flags as check options) and whether a position is
/// the game's start (sent as `position startpos`).
pub trait WireGame: PlayGame {
    /// The game's `UCI_Variant` value and flags.
    fn wire_setup(&self) -> WireSetup;
    /// Whether this is the standard start position of its game.
    fn is_startpos(&self) -> bool;
}

/// How a harness sets an engine up for a game: `setoption name UCI_Variant value VARIANT`, then
/// each flag as a check option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireSetup {
    /// The `UCI_Variant` value (`fiveup`, `raumschach`, `quasi-alice`, ...).
    pub variant: &'static str,
    /// Whether an engine that declares no `UCI_Variant` option plays this game (Five Up: the
    /// protocol's default).
    pub default_variant: bool,
    /// The rule flags as (option name, on); an engine without the option can play only with the
    /// flag off.
    pub flags: Vec<(&'static str, bool)>,
}

impl WireGame for crate::rules::Position {
    fn wire_setup(&self) -> WireSetup {
        let v = self.variant();
        WireSetup {
            variant: v.ruleset.name(),
            default_variant: v.ruleset == crate::rules::Ruleset::FiveUp,
            flags: vec![("Castling", v.castling), ("Hypercylinder", v.hypercylinder)],
        }
    }
    fn is_startpos(&self) -> bool {
        self.to_text() == crate::rules::Position::startpos(self.variant()).to_text()
    }
}

impl WireGame for crate::quasi_alice::Position {
    fn wire_setup(&self) -> WireSetup {
        WireSetup { variant: crate::quasi_alice::NAME, default_variant: false, flags: Vec::new() }
    }
    fn is_startpos(&self) -> bool {
        self.to_text() == crate::quasi_alice::START
    }
}

impl WireGame for crate::mixed3d::Position {
    fn wire_setup(&self) -> WireSetup {
        WireSetup { variant: crate::mixed3d::NAME, default_variant: false, flags: Vec::new() }
    }
    fn is_startpos(&self) -> bool {
        self.to_text() == crate::mixed3d::START
    }
}

/// Most milliseconds a `go` time argument may give (a year).
const MAX_MS: u64 = 365 * 24 * 3600 * 1000;

/// Why the words after `go` are refused; the message names the word at fault (clipped).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// A key that takes a value is the last word.
    #[error("go: '{0}' needs a value")]
    MissingValue(String),
    /// A key's value is not a whole number up to `max`.
    #[error("go: '{key} {value}' needs a whole number from 0 to {max}")]
    BadNumber {
        /// The key.
        key: String,
        /// Its value as given, clipped.
        value: String,
        /// The largest value accepted.
        max: u64,
    },
    /// `go mate N`, which no search here answers.
    #[error("go: 'mate' is not supported; use depth")]
    Mate,
    /// A `searchmoves` move that is not a legal move of the position.
    #[error("go: searchmoves '{text}': {reason}")]
    SearchMove {
        /// The move as given, clipped.
        text: String,
        /// Why it is not a move (the game's move text error).
        reason: String,
    },
    /// A word `go` does not take.
    #[error("go: unknown argument '{0}'")]
    Unknown(String),
}

/// Parses the words after `go` for a search of `pos`; an error names the word at fault.
///
/// `wtime btime winc binc` (milliseconds) and `movestogo` make a [`Clock`]; `depth`, `nodes`,
/// `movetime` (milliseconds) and `infinite` set limits; `searchmoves` takes the moves that follow
/// it (each must be legal in `pos`); `ponder` is accepted and ignored (no pondering).
pub fn parse_go<S: State>(words: &[&str], pos: &S) -> Result<Go<S::Move>, GoError> {
    let mut go = Go::default();
    let mut times: [Option<Duration>; 4] = [None; 4];
    let mut moves_to_go = None;
    let mut i = 0;
    let number = |i: usize, max: u64| -> Result<u64, GoError> {
        let key = words[i];
        let v = words.get(i + 1).ok_or_else(|| GoError::MissingValue(key.to_string()))?;
        // Negative clock times (a flagged GUI clock) count as zero.
        if let Ok(n) = v.parse::<i64>() {
            if n < 0 && key.ends_with("time") {
                return Ok(0);
            }
        }
        match v.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(GoError::BadNumber { key: key.to_string(), value: clip(v), max }),
        }
    };
    while i < words.len() {
        let w = words[i];
        match w {
            "wtime" | "btime" | "winc" | "binc" => {
                let slot = ["wtime", "btime", "winc", "binc"].iter().position(|k| *k == w).unwrap_or(0);
                times[slot] = Some(Duration::from_millis(number(i, MAX_MS)?));
                i += 2;
            }
            "movestogo" => {
                moves_to_go = Some(number(i, 10_000)?.max(1) as u32);
                i += 2;
            }
            "depth" => {
                go.depth = Some(number(i, crate::engine::search::MAX_DEPTH as u64)?.max(1) as u32);
                i += 2;
            }
            "nodes" => {
                go.nodes = Some(number(i, MAX_NODES)?.max(1));
                i += 2;
            }
            "movetime" => {
                go.movetime = Some(Duration::from_millis(number(i, MAX_MS)?.max(1)));
                i += 2;
            }
            "infinite" => {
                go.infinite = true;
                i += 1;
            }
            "ponder" => i += 1,
            "mate" => return Err(GoError::Mate),
            "searchmoves" => {
                i += 1;
                while i < words.len() && !GO_KEYS.contains(&words[i]) {
                    let m = pos
                        .parse_move(words[i])
                        .map_err(|e| GoError::SearchMove { text: clip(words[i]), reason: e.to_string() })?;
                    go.searchmoves.push(m);
                    i += 1;
                }
            }
            _ => return Err(GoError::Unknown(clip(w))),
        }
    }
    let side = pos.side().index();
    let own_time = times[side];
    if own_time.is_some() {
        let zero = Duration::ZERO;
        go.clock = Some(Clock {
            remaining: [times[0].unwrap_or(zero), times[1].unwrap_or(zero)],
            increment: [times[2].unwrap_or(zero), times[3].unwrap_or(zero)],
            moves_to_go,
        });
    }
    Ok(go)
}

/// The words `go` takes (a `searchmoves` list ends at the next of them).
const GO_KEYS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
];

/// The `go` words for a request (what the harness sends an outside engine).
pub fn go_words<M: std::fmt::Display>(go: &Go<M>) -> String {
    let mut w = vec!["go".to_string()];
    if let Some(c) = &go.clock {
        let ms = |d: Duration| d.as_millis().to_string();
        w.extend(["wtime".into(), ms(c.remaining[0]), "btime".into(), ms(c.remaining[1])]);
        w.extend(["winc".into(), ms(c.increment[0]), "binc".into(), ms(c.increment[1])]);
        if let Some(m) = c.moves_to_go {
            w.extend(["movestogo".into(), m.to_string()]);
        }
    }
    if let Some(d) = go.depth {
        w.extend(["depth".into(), d.to_string()]);
    }
    if let Some(n) = go.nodes {
        w.extend(["nodes".into(), n.to_string()]);
    }
    if let Some(t) = go.movetime {
        w.extend(["movetime".into(), t.as_millis().max(1).to_string()]);
    }
    if go.infinite {
        w.push("infinite".into());
    }
    if !go.searchmoves.is_empty() {
        w.push("searchmoves".into());
        w.extend(go.searchmoves.iter().map(|m| m.to_string()));
    }
    w.join(" ")
}

/// `info depth 5 seldepth 9 score cp 31 nodes 12345 nps 250000 time 49 pv Dc2Cc2 …` (time in
/// milliseconds; `wdl W D L` in permille when the player has it; `score` only when it scores).
pub fn info_line<M: std::fmt::Display>(info: &SearchInfo<M>) -> String {
    let ms = info.time.as_millis();
    let mut s = format!("info depth {}", info.depth.max(1));
    if info.seldepth > 0 {
        s += &format!(" seldepth {}", info.seldepth);
    }
    if let Some(score) = info.score {
        s += &format!(" score {score}");
    }
    if let Some([w, d, l]) = info.wdl {
        s += &format!(" wdl {w} {d} {l}");
    }
    let nps = (info.nodes as f64 / info.time.as_secs_f64().max(1e-3)) as u64;
    s += &format!(" nodes {} nps {nps} time {ms}", info.nodes);
    if !info.pv.is_empty() {
        s += " pv";
        for m in &info.pv {
            s += &format!(" {m}");
        }
    }
    s
}

/// Reads what a harness keeps of an `info` line: depth, seldepth, score, wdl, nodes, time and
/// the pv (moves checked against `pos` in turn; the pv stops at the first that is not legal).
/// Unknown words are skipped; `None` when the line is not an `info` line.
pub fn parse_info<S: State>(line: &str, pos: &S) -> Option<SearchInfo<S::Move>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let mut info = SearchInfo::default();
    let num = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => info.depth = num(i + 1).unwrap_or(0).clamp(0, 1000) as u32,
            "seldepth" => info.seldepth = num(i + 1).unwrap_or(0).clamp(0, 1000) as u32,
            "nodes" => info.nodes = num(i + 1).unwrap_or(0).max(0) as u64,
            "time" => info.time = Duration::from_millis(num(i + 1).unwrap_or(0).max(0) as u64),
            "score" => {
                let v = num(i + 2).unwrap_or(0).clamp(-30_000, 30_000) as i32;
                info.score = match words.get(i + 1) {
                    Some(&"cp") => Some(Score(
                        v.clamp(-(crate::engine::score::MATE_BOUND - 1), crate::engine::score::MATE_BOUND - 1),
                    )),
                    Some(&"mate") if v > 0 => Some(Score(crate::engine::score::mate_in((2 * v - 1) as usize))),
                    Some(&"mate") => Some(Score(crate::engine::score::mated_in((-2 * v) as usize))),
                    _ => info.score,
                };
                i += 1;
            }
            "wdl" => {
                let (w, d, l) = (num(i + 1), num(i + 2), num(i + 3));
                if let (Some(w), Some(d), Some(l)) = (w, d, l) {
                    let c = |x: i64| x.clamp(0, 1000) as u16;
                    info.wdl = Some([c(w), c(d), c(l)]);
                }
                i += 2;
            }
            "pv" => {
                let mut p = pos.clone();
                for w in &words[i + 1..] {
                    let Ok(m) = p.parse_move(w) else { break };
                    info.pv.push(m);
                    p.make(m);
                }
                break;
            }
            "string" => break,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Some(info)
}

/// A move in the protocol's form (the game's move text: the coordinate form on 5x5x5,
/// `1e2e4>3` in Quasi-Alice).
pub fn move_text<S: State>(pos: &S, m: S::Move) -> String {
    pos.move_text(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Variant};

    #[test]
    fn go_arguments_parse_into_a_request() {
        let p = Position::startpos(Variant::default());
        let go = parse_go(&["wtime", "10000", "btime", "9000", "winc", "100", "binc", "100", "movestogo", "20"], &p)
            .unwrap();
        let c = go.clock.unwrap();
        assert_eq!(c.remaining, [Duration::from_secs(10), Duration::from_secs(9)]);
        assert_eq!((c.increment[1], c.moves_to_go), (Duration::from_millis(100), Some(20)));
        let go = parse_go(&["depth", "5", "searchmoves", "Dc2Cc2", "Db2Cb2", "nodes", "1000"], &p).unwrap();
        assert_eq!((go.depth, go.nodes, go.searchmoves.len()), (Some(5), Some(1000), 2));
        assert_eq!(go_words(&go), "go depth 5 nodes 1000 searchmoves Dc2Cc2 Db2Cb2");
        assert!(parse_go(&["infinite"], &p).unwrap().infinite);
        assert_eq!(parse_go(&["movetime", "250"], &p).unwrap().movetime, Some(Duration::from_millis(250)));
        // A flagged clock is zero, not an error.
        assert_eq!(parse_go(&["wtime", "-5"], &p).unwrap().clock.unwrap().remaining[0], Duration::ZERO);
        for bad in [
            &["depth"][..],
            &["depth", "x"],
            &["nodes", "-1"],
            &["frobnicate"],
            &["searchmoves", "Aa1Aa2"],
            &["mate", "3"],
        ] {
            let e = parse_go(bad, &p).unwrap_err().to_string();
            assert!(e.starts_with("go: ") && !e.contains('\n'), "{bad:?}: {e}");
        }
    }

    #[test]
    fn info_lines_round_trip() {
        let p = Position::startpos(Variant::default());
        let m = p.legal_moves()[0];
        let info = SearchInfo {
            score: Some(Score(crate::engine::score::mate_in(3))),
            depth: 4,
            pv: vec![m],
            nodes: 1000,
            time: Duration::from_millis(20),
            seldepth: 9,
            wdl: Some([500, 300, 200]),
        };
        let line = info_line(&info);
        assert_eq!(
            line,
            format!("info depth 4 seldepth 9 score mate 2 wdl 500 300 200 nodes 1000 nps 50000 time 20 pv {m}")
        );
        assert_eq!(parse_info(&line, &p).unwrap(), info);
        let cp = parse_info("info depth 3 score cp -45 currmove Dc2Cc2 pv Zz9 Dc2Cc2", &p).unwrap();
        assert_eq!((cp.score, cp.depth, cp.pv.len()), (Some(Score(-45)), 3, 0));
        assert!(parse_info("bestmove Dc2Cc2", &p).is_none());
        assert!(parse_info("info string hello depth 3", &p).unwrap().depth == 0);
    }

    #[test]
    fn quasi_alice_moves_go_through_go_and_info_in_its_own_text() {
        let p = crate::quasi_alice::Position::start();
        let go = parse_go(&["depth", "2", "searchmoves", "1e2e4>3", "1g1f3>4"], &p).unwrap();
        assert_eq!(go.searchmoves.iter().map(|m| p.move_text(*m)).collect::<Vec<_>>(), ["1e2e4>3", "1g1f3>4"]);
        assert_eq!(go_words(&go), "go depth 2 searchmoves 1e2e4>3 1g1f3>4");
        for bad in ["Dc2Cc2", "1e2e5>3", "e4"] {
            let e = parse_go(&["searchmoves", bad], &p).unwrap_err().to_string();
            assert!(e.starts_with(&format!("go: searchmoves '{bad}': ")) && !e.contains('\n'), "{e}");
        }
        // The pv is read move by move in the positions it reaches; it stops at the first that
        // is not legal there.
        let info = parse_info("info depth 2 score cp 12 nodes 90 time 3 pv 1e2e4>3 1d7d5>3 1e2e4>3", &p).unwrap();
        assert_eq!(info.pv.len(), 2);
        assert_eq!(info_line(&info), "info depth 2 score cp 12 nodes 90 nps 30000 time 3 pv 1e2e4>3 1d7d5>3");
        assert_eq!(parse_info(&info_line(&info), &p).unwrap(), info);
        assert_eq!(move_text(&p, info.pv[0]), "1e2e4>3");
    }

    #[test]
    fn each_game_tells_the_harness_its_variant_and_flags() {
        let five = Position::startpos(Variant::new(crate::rules::Ruleset::FiveUp, true, false).unwrap());
        let s = five.wire_setup();
        assert_eq!((s.variant, s.default_variant), ("fiveup", true));
        assert_eq!(s.flags, [("Castling", true), ("Hypercylinder", false)]);
        assert!(five.is_startpos());
        let qa = crate::quasi_alice::Position::start();
        assert_eq!(qa.wire_setup(), WireSetup { variant: "quasi-alice", default_variant: false, flags: vec![] });
        assert!(qa.is_startpos());
        let mut moved = qa.clone();
        moved.make(qa.parse_move("1e2e4>3").unwrap());
        assert!(!moved.is_startpos());
    }
}
