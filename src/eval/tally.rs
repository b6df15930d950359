//! Running results of a two-player match from one player's ("A") point of view: W/D/L, finished
//! colour-swapped pairs (pentanomial), and how games ended. Games of a pair may finish in any
//! order; a pair counts when its second game arrives.

use super::elo::{Pentanomial, Trinomial};
use super::records::GameRecord;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Match results from player A's side.
#[derive(Clone, Debug, Default)]
pub struct MatchTally {
    /// All finished games.
    pub trinomial: Trinomial,
    /// Finished pairs.
    pub pentanomial: Pentanomial,
    /// Games per `Termination` value.
    pub terminations: BTreeMap<String, u64>,
    /// A's score in the first finished game of each open pair, by `Pair` tag.
    open: HashMap<String, f64>,
}

impl MatchTally {
    /// An empty tally.
    pub fn new() -> MatchTally {
        MatchTally::default()
    }

    /// Adds a finished game in which A had white (`a_white`) or black. Returns A's scores in the
    /// two games of the pair (in arrival order) when this game completes a pair. Unfinished games
    /// are ignored.
    pub fn add(&mut self, a_white: bool, record: &GameRecord) -> Option<(f64, f64)> {
        let w = record.white_score()?;
        let score = if a_white { w } else { 1.0 - w };
        match (score * 2.0).round() as i64 {
            2 => self.trinomial.wins += 1,
            1 => self.trinomial.draws += 1,
            _ => self.trinomial.losses += 1,
        }
        *self.terminations.entry(record.termination()).or_default() += 1;
        let pair = record.tag("Pair")?.to_string();
        match self.open.remove(&pair) {
            Some(first) => {
                self.pentanomial.add_pair(first, score);
                Some((first, score))
            }
            None => {
                self.open.insert(pair, score);
                None
            }
        }
    }

    /// The summary a match prints: counts, score, both Elo intervals and terminations.
    pub fn summary(&self, a: &str, b: &str) -> String {
        let t = self.trinomial;
        let mut out = String::new();
        let pct = if t.games() > 0 { 100.0 * t.points() / t.games() as f64 } else { 0.0 };
        let _ = writeln!(
            out,
            "{a} vs {b}: W/D/L {} / {} / {}, score {} / {} ({pct:.1}%)",
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            t.games()
        );
        let tri = t.elo_interval().map_or("no games".to_string(), |e| e.to_string());
        let _ = writeln!(out, "trinomial:   {tri}");
        let penta = self.pentanomial.elo_interval();
        let penta = penta.map_or("no complete pairs".to_string(), |e| format!("{e}; pairs {}", self.pentanomial));
        let _ = writeln!(out, "pentanomial: {penta}");
        let ends: Vec<String> = self.terminations.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(out, "terminations: {}", if ends.is_empty() { "-".to_string() } else { ends.join(", ") });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::{EndRule, Outcome};
    use crate::rules::{Color, Position, Variant};

    fn rec(pair: &str, winner: Option<Color>) -> GameRecord {
        GameRecord {
            event: "t".into(),
            white: "x".into(),
            black: "y".into(),
            start: Position::startpos(Variant::default()),
            moves: vec![],
            opening_plies: 0,
            outcome: Some(Outcome { winner, rule: EndRule::Adjudication }),
            detail: Some("ply-cap".into()),
            tags: vec![("Pair".into(), pair.into())],
        }
    }

    #[test]
    fn pairs_complete_in_any_order() {
        let mut t = MatchTally::new();
        assert_eq!(t.add(true, &rec("0", Some(Color::White))), None);
        assert_eq!(t.add(true, &rec("1", None)), None);
        assert_eq!(t.add(false, &rec("1", Some(Color::White))), Some((0.5, 0.0)));
        assert_eq!(t.add(false, &rec("0", Some(Color::White))), Some((1.0, 0.0)));
        assert_eq!(t.trinomial, Trinomial::new(1, 1, 2));
        assert_eq!(t.pentanomial.counts, [0, 1, 1, 0, 0]);
        let s = t.summary("A", "B");
        assert!(s.contains("W/D/L 1 / 1 / 2") && s.contains("adjudication/ply-cap 4"), "{s}");
    }
}
